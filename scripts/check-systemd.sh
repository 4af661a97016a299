#!/bin/sh
# Check systemd/*.service (or the unit given) the way CI does:
#   1. `systemd-analyze verify` must print nothing;
#   2. `systemd-analyze security --offline=yes` must rate the exposure at most $MAX_EXPOSURE (default 2.0).
# Works without systemd running as PID 1 (containers, CI). verify needs the ExecStart binary to exist,
# so the unit is checked with ExecStart pointed at an existing edge-agent (or /bin/true).
set -eu
here=$(cd "$(dirname "$0")/.." && pwd)
max="${MAX_EXPOSURE:-2.0}"
command -v systemd-analyze >/dev/null || { echo "check-systemd: systemd-analyze not found" >&2; exit 2; }
if [ $# -eq 0 ]; then  # every shipped unit
    for u in "$here"/systemd/*.service; do "$0" "$u" || exit 1; done
    exit 0
fi
unit="$1"
name=$(basename "$unit")

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
bin=$(command -v edge-agent || true)
[ -n "$bin" ] || { [ -x "$here/.venv/bin/edge-agent" ] && bin="$here/.venv/bin/edge-agent"; } || true
[ -n "$bin" ] || bin=/bin/true
sed "s#^ExecStart=[^ ]*#ExecStart=$bin#" "$unit" > "$work/$name"

out=$(systemd-analyze verify "$work/$name" 2>&1) || true
if [ -n "$out" ]; then
    echo "check-systemd: systemd-analyze verify complained:" >&2
    echo "$out" >&2
    exit 1
fi
echo "$name verify: clean"

report=$(systemd-analyze security --offline=yes "$work/$name" 2>&1) || true
score=$(printf '%s\n' "$report" | sed -n "s/.*Overall exposure level for $name: \([0-9.]*\).*/\1/p")
if [ -z "$score" ]; then
    echo "check-systemd: no exposure level in the security report:" >&2
    printf '%s\n' "$report" >&2
    exit 1
fi
echo "$name security: exposure $score (limit $max)"
if awk -v s="$score" -v m="$max" 'BEGIN { exit !(s > m) }'; then
    printf '%s\n' "$report" | grep '✗' >&2 || true
    echo "check-systemd: exposure $score is above $max" >&2
    exit 1
fi
