"""`edge-agent audit`: the audit trail (docs/audit.md) listed or exported, filtered by time and requester.

Reads the daemon's queue database (`<state_dir>/queue.db`) while the daemon runs (SQLite WAL: readers do
not block it). Exit codes: 0 rows printed (or none matched), 2 bad usage, bad config or no audit trail.
"""

from __future__ import annotations

import csv
import json
import re
import sqlite3
import sys
import time
from datetime import UTC, datetime
from pathlib import Path

import click

from edge_agent.commands.daemon import EXIT_OK, EXIT_USAGE, _load
from edge_agent.commands.options import config_option
from edge_agent.fleet import audit as trail

RELATIVE = re.compile(r"^(\d+(?:\.\d+)?)([smhd])$")
UNIT_S = {"s": 1, "m": 60, "h": 3600, "d": 86400}


def parse_when(value: str | None) -> float | None:
    """`2026-11-25`, `2026-11-25T08:00:00+00:00` (no zone: local time) or `30m` / `2h` / `7d` ago → Unix time."""
    if value is None:
        return None
    m = RELATIVE.match(value.strip())
    if m:
        return time.time() - float(m.group(1)) * UNIT_S[m.group(2)]
    try:
        dt = datetime.fromisoformat(value)
    except ValueError:
        raise click.BadParameter(f"{value!r}: use an ISO 8601 date or date-time, or 30m / 2h / 7d") from None
    return dt.timestamp()


def _iso(ts: float) -> str:
    return datetime.fromtimestamp(ts, UTC).isoformat(timespec="milliseconds")


def _table_time(ts: float) -> str:
    """The table's time: UTC, and saying so (the exports carry the +00:00 offset instead)."""
    return f"{datetime.fromtimestamp(ts, UTC):%Y-%m-%d %H:%M:%S} UTC"


@click.command()
@config_option()
@click.option(
    "--db",
    "db_path",
    type=click.Path(dir_okay=False, path_type=Path),
    help="the queue database (default <state_dir>/queue.db)",
)
@click.option("--since", help="from this time: ISO 8601, or 30m / 2h / 7d ago")
@click.option("--until", help="before this time: ISO 8601, or 30m / 2h / 7d ago")
@click.option("--who", help="only this requester (its MQTT client id, or the on_behalf_of it gave)")
@click.option("--event", type=click.Choice(trail.EVENTS), help="only this kind of row")
@click.option("--limit", type=int, help="only the newest N rows")
@click.option("--format", "fmt", type=click.Choice(["table", "jsonl", "csv"]), default="table", show_default=True)
def audit(config, db_path, since, until, who, event, limit, fmt) -> None:
    """List or export the audit trail: every request, cancel, Agent-Ask answer and outcome, oldest first."""
    path = db_path or _load(config).state_dir / "queue.db"
    if not Path(path).is_file():
        click.echo(f"edge-agent: no queue database at {path} (has the daemon run here?)", err=True)
        sys.exit(EXIT_USAGE)
    conn = sqlite3.connect(f"file:{path}?mode=ro", uri=True, timeout=10)
    try:
        if not conn.execute("SELECT 1 FROM sqlite_master WHERE name=?", (trail.TABLE,)).fetchone():
            click.echo(f"edge-agent: {path} holds no audit trail (audit.enabled was off)", err=True)
            sys.exit(EXIT_USAGE)
        rows = trail.query(conn, since=parse_when(since), until=parse_when(until), who=who, event=event, limit=limit)
        out = sys.stdout  # click.get_text_stream is deprecated (click 8.5)
        columns = [c for c in trail.COLUMNS if c != "id"]
        if fmt == "csv":
            writer = csv.DictWriter(out, fieldnames=["id", *columns], lineterminator="\n")
            writer.writeheader()
            for row in rows:
                writer.writerow(row | {"time": _iso(row["time"])})
        elif fmt == "jsonl":
            for row in rows:
                out.write(json.dumps(row | {"time": _iso(row["time"])}, ensure_ascii=False) + "\n")
        else:
            for row in rows:
                what = row["question"] or row["detail"] or ""
                who_ = row["who"] + (f" ({row['on_behalf_of']})" if row["on_behalf_of"] else "")
                out.write(
                    f"{_table_time(row['time'])}  {row['event']:7} {who_:24} {row['request_id'] or '-':20} "
                    f"{row['outcome'] or '':22} {what[:60]}\n"
                )
    finally:
        conn.close()
    sys.exit(EXIT_OK)
