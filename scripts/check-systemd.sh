#!/bin/sh
# Check systemd/edge-agent.service the way CI does:
#   1. `systemd-analyze verify` must print nothing;
#   2. `systemd-analyze security --offline=yes` must rate the exposure at most $MAX_EXPOSURE (default 2.0).
# Works without systemd running as PID 1 (containers, CI). verify needs the ExecStart binary to exist,
# so the unit is checked with ExecStart pointed at an existing edge-agent (or /bin/true).
set -eu
here=$(cd "$(dirname "$0")/.." && pwd)
unit="${1:-$here/systemd/edge-agent.service}"
max="${MAX_EXPOSURE:-2.0}"
command -v systemd-analyze >/dev/null || { echo "check-systemd: systemd-analyze not found" >&2; exit 2; }

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
bin=$(command -v edge-agent || true)
[ -n "$bin" ] || { [ -x "$here/.venv/bin/edge-agent" ] && bin="$here/.venv/bin/edge-agent"; } || true
[ -n "$bin" ] || bin=/bin/true
sed "s#^ExecStart=[^ ]*#ExecStart=$bin#" "$unit" > "$work/edge-agent.service"

out=$(systemd-analyze verify "$work/edge-agent.service" 2>&1) || true
if [ -n "$out" ]; then
    echo "check-systemd: systemd-analyze verify complained:" >&2
    echo "$out" >&2
    exit 1
fi
echo "verify: clean"

report=$(systemd-analyze security --offline=yes "$work/edge-agent.service" 2>&1) || true
score=$(printf '%s\n' "$report" | sed -n 's/.*Overall exposure level for edge-agent.service: \([0-9.]*\).*/\1/p')
if [ -z "$score" ]; then
    echo "check-systemd: no exposure level in the security report:" >&2
    printf '%s\n' "$report" >&2
    exit 1
fi
echo "security: exposure $score (limit $max)"
if awk -v s="$score" -v m="$max" 'BEGIN { exit !(s > m) }'; then
    printf '%s\n' "$report" | grep '✗' >&2 || true
    echo "check-systemd: exposure $score is above $max" >&2
    exit 1
fi
