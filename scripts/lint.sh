#!/bin/sh
# Lint, format check and type check, as pyproject.toml configures them ([tool.ruff], [tool.mypy]):
#   ruff check .            # pycodestyle, pyflakes, import order, bugbear, pyupgrade
#   ruff format --check .   # the formatting ruff format would write
#   mypy                    # edge_agent; strict where [[tool.mypy.overrides]] says so
# All three run, so one pass shows every finding; the exit status is 1 when any failed.
# PYTHON picks the interpreter whose ruff and mypy are used (default: the project's .venv, else python3).
set -u
cd "$(dirname "$0")/.."
PY="${PYTHON:-.venv/bin/python}"
[ -x "$PY" ] || PY=python3
failed=""
check() {
    name="$1"; shift
    echo "== $name"
    "$@" || failed="$failed, $name"
}
check "ruff check" "$PY" -m ruff check .
check "ruff format --check" "$PY" -m ruff format --check .
check "mypy" "$PY" -m mypy
if [ -n "$failed" ]; then
    echo "lint: failed: ${failed#, }" >&2
    exit 1
fi
echo "lint: all passed"
