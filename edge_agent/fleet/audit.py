"""The audit trail: an append-only `audit` table in the daemon's queue database (docs/audit.md).

One row per event — a request (accepted, duplicate or refused), a cancel, an Agent-Ask answer, and the
final outcome of every job — each written by the daemon INSIDE the transaction that stores the request,
the cancel or the final reply. So a row is on disk exactly when what it records is (WAL, synchronous=FULL:
it survives a kill -9 or a power cut like the queue), and it costs one INSERT, no fsync of its own.

`who` is the identity the broker vouched for (the MQTT client id = user name under
`use_username_as_clientid`), or `console:<user>` for the console; `on_behalf_of` what a request says of the
person behind a shared client, as claimed (not vouched). Never stored: passwords, tokens, correlation data,
or option keys that look like secrets. UPDATE is refused by a trigger; DELETE is the retention's
(`audit.retention_days`), at start and daily. The schema is created with sqlite-utils, which also backs
`edge-agent audit` (list, JSON lines, CSV; filters by time and requester). sqlite-utils is imported only where it is
used — creating the table (a database's first start) and `query` — never by a daemon whose table exists: with
numpy it costs ~0.2 s of CPU, which a restart would spend before its first reply (issue 42).
"""

from __future__ import annotations

import json
import re
import sqlite3
import time
from collections.abc import Iterator
from typing import Any

from pydantic import BaseModel

TABLE = "audit"
COLUMNS = {
    "id": int,
    "time": float,
    "event": str,
    "who": str,
    "on_behalf_of": str,
    "request_id": str,
    "job_id": str,
    "question": str,
    "options": str,
    "outcome": str,
    "files": str,
    "cancelled_by": str,
    "detail": str,
}
EVENTS = ("request", "cancel", "answer", "final")
SECRET_KEY = re.compile(r"pass|secret|token|auth|credential|key", re.IGNORECASE)
DETAIL_CHARS = 2000
#: the INSERT of one row without its VALUES (`row` gives them): the daemon writes a batch's rows in one statement
INSERT = (
    f"INSERT INTO {TABLE} (time, event, who, on_behalf_of, request_id, job_id, question, options, outcome, "
    "files, cancelled_by, detail)"
)
_INSERT = INSERT + " VALUES (?,?,?,?,?,?,?,?,?,?,?,?)"
_TRIGGER = f"""
CREATE TRIGGER IF NOT EXISTS audit_append_only BEFORE UPDATE ON {TABLE}
BEGIN SELECT RAISE(ABORT, 'the audit trail is append-only'); END;
"""


def ensure_schema(conn: sqlite3.Connection) -> None:
    """Create the table, its index and the append-only trigger (idempotent; sqlite-utils only for a new table)."""
    if conn.execute("SELECT 1 FROM sqlite_master WHERE type='table' AND name=?", (TABLE,)).fetchone() is None:
        import sqlite_utils  # here, not at the top: see the module's docstring

        table = sqlite_utils.Database(conn).table(TABLE)
        table.create(COLUMNS, pk="id", not_null={"time", "event", "who"}, if_not_exists=True)
        table.create_index(["time"], if_not_exists=True)  # the only index: each costs every request an insert
    conn.executescript(_TRIGGER)


def scrub(options: dict | BaseModel | None) -> str | None:
    """The options as JSON, without any key that looks like a secret. A pydantic model (the request's
    `RequestOptions`: fixed fields, none a secret — tests/test_fleet_audit.py checks) is dumped as it is."""
    if options is None:
        return None
    if isinstance(options, BaseModel):
        return options.model_dump_json()
    if not options:
        return None
    return json.dumps({k: v for k, v in options.items() if not SECRET_KEY.search(str(k))}, default=str, sort_keys=True)


def _cut(text: str | None, n: int = DETAIL_CHARS) -> str | None:
    return text if text is None or len(text) <= n else text[: n - 3] + "..."


def record(conn: sqlite3.Connection, event: str, who: str, **fields: Any) -> None:
    """Append one row, inside the caller's transaction (`row` says what `fields` may name)."""
    conn.execute(_INSERT, row(event, who, **fields))


def row(
    event: str,
    who: str,
    *,
    on_behalf_of: str | None = None,
    request_id: str | None = None,
    job_id: str | None = None,
    question: str | None = None,
    options: dict | BaseModel | None = None,
    outcome: str | None = None,
    files: list[str] | None = None,
    cancelled_by: str | None = None,
    detail: str | None = None,
    now: float | None = None,
) -> tuple[Any, ...]:
    """The values of one row for `INSERT` (secrets scrubbed from the options, the detail cut), stamped now."""
    return (
        time.time() if now is None else now,
        event,
        who,
        on_behalf_of,
        request_id,
        job_id,
        question,
        scrub(options),
        outcome,
        json.dumps(files) if files else None,
        cancelled_by,
        _cut(detail),
    )


def prune(conn: sqlite3.Connection, retention_days: float, now: float | None = None) -> int:
    """Delete rows older than the retention (0: keep all); returns how many went."""
    if not retention_days:
        return 0
    cutoff = (time.time() if now is None else now) - retention_days * 86400
    return conn.execute(f"DELETE FROM {TABLE} WHERE time < ?", (cutoff,)).rowcount


def query(
    conn: sqlite3.Connection,
    *,
    since: float | None = None,
    until: float | None = None,
    who: str | None = None,
    event: str | None = None,
    limit: int | None = None,
) -> Iterator[dict[str, Any]]:
    """Rows oldest first; `who` matches the client id or `on_behalf_of`."""
    where: list[str] = []
    args: list[Any] = []
    if since is not None:
        where.append("time >= ?")
        args.append(since)
    if until is not None:
        where.append("time < ?")
        args.append(until)
    if who is not None:
        where.append("(who = ? OR on_behalf_of = ?)")
        args += [who, who]
    if event is not None:
        where.append("event = ?")
        args.append(event)
    sql = f"SELECT * FROM {TABLE}" + (" WHERE " + " AND ".join(where) if where else "") + " ORDER BY id"
    if limit:  # the newest `limit`, still oldest first
        sql = f"SELECT * FROM ({sql[: -len(' ORDER BY id')]} ORDER BY id DESC LIMIT {int(limit)}) ORDER BY id"
    import sqlite_utils  # here, not at the top: see the module's docstring

    yield from sqlite_utils.Database(conn).query(sql, args)
