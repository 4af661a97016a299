"""The outbox's table in the queue database (`OutboxTable`, the part of `JobQueue` that is about replies): a
transaction's replies written together, the order they are handed out in, and their end (acknowledged, failed,
dead-lettered).

A transaction's outbox rows are written together, in one multi-row INSERT, when `added()` is asked or the transaction
commits: a batch of requests costs one statement for all its replies; the rows it writes to other tables (the audit
trail's: `add_row`) go in multi-row INSERTs with them. Each row belongs to a stream (its requester) and a lane,
answers or refusals (records.py). `outbox_schedule` hands rows out answers first, round-robin between streams, each
stream in id order. A request's replies never change order across lanes: a refusal whose request already has a row
waiting among the answers is written as an answer, and an answer promotes its request's refusals still waiting
(`_keep_request_order`).

`JobQueue` (queue.py) owns the connection, its lock and the open transaction's state that these methods use.
"""

from __future__ import annotations

import sqlite3
import threading
import time
from contextlib import AbstractContextManager
from typing import TYPE_CHECKING, Any

from edge_agent.mqtt.records import ANSWERS, REFUSALS, OutboxRow, _outbox_row

OUTBOX_ROWS_PER_INSERT = 500  # 8 parameters a row, well under SQLite's 32766 per statement
MAX_PARAMETERS = 6000  # parameters in one multi-row INSERT of `add_row` rows (SQLite takes 32766)
KEYS_PER_SELECT = 500  # request ids looked up in one statement (`JobQueue.prefetch`, `_keep_request_order`)


class OutboxTable:
    """The outbox's SQL, on `JobQueue`'s connection and under its lock (see the module's docstring)."""

    _conn: sqlite3.Connection
    _lock: threading.RLock
    _added: list[OutboxRow]  # the outbox rows of the open transaction (`added`)
    _written: int  # how many of `_added` are in the table (the rest get ids at `_write_added`)
    _rows: list[tuple[str, tuple[Any, ...]]]  # rows of other tables the open transaction writes (`add_row`)
    _rows_written: int
    promoted: bool  # the open transaction moved waiting refusals among the answers (`_keep_request_order`)

    if TYPE_CHECKING:

        def tx(self, durable: bool = True) -> AbstractContextManager[sqlite3.Connection]: ...

        def _one(self, sql: str, args: tuple[Any, ...] = ()) -> sqlite3.Row | None: ...

    def outbox_add(
        self,
        conn: sqlite3.Connection,
        topic: str,
        payload: bytes,
        correlation: bytes | None = None,
        retain: bool = False,
        *,
        request_id: str | None = None,
        refusal: bool = False,
    ) -> None:
        """Inside `tx()`: a reply to publish once the transaction commits (written with the others); `refusal`:
        it answers a message that stored nothing (the refusals' lane, after every answer)."""
        if not conn.in_transaction:
            raise RuntimeError("outbox_add outside a transaction")
        lane = REFUSALS if refusal else ANSWERS
        self._added.append(OutboxRow(0, topic, payload, correlation, retain, 0, request_id, lane))

    def add_row(self, conn: sqlite3.Connection, insert: str, values: tuple[Any, ...]) -> None:
        """Inside `tx()`: a row of another table (`insert`: "INSERT INTO t (a, b, ...)", without VALUES), written with
        the transaction's outbox rows, before its commit: the rows of one statement in order, in multi-row INSERTs
        (the audit trail's row per request: issue 42). Undone with a savepoint like the outbox rows."""
        if not conn.in_transaction:
            raise RuntimeError("add_row outside a transaction")
        self._rows.append((insert, values))

    def added(self) -> list[OutboxRow]:
        """Inside `tx()`: the outbox rows this transaction has added so far (savepoints rolled back
        excluded), written and with their ids, for the committing thread to publish itself once they
        are committed."""
        self._write_added()
        return list(self._added)

    def _keep_request_order(self, rows: list[OutboxRow]) -> None:
        """Before `rows` are written: a refusal whose request has an answer waiting goes among the answers, and
        an answer's request's refusals still waiting are promoted to the answers' lane (their smaller ids keep
        them first), so a request's replies never overtake each other (`promoted` tells the committing thread
        to leave its rows to the outbox thread)."""
        if all(r.request_id is None for r in rows):
            return
        answered = {(r.stream, r.request_id) for r in rows if r.lane == ANSWERS and r.request_id is not None}
        refused = [r for r in rows if r.lane == REFUSALS and r.request_id is not None]
        keys = {(r.stream, r.request_id) for r in refused if r.request_id is not None}
        waiting = self._answers_waiting(keys - answered)
        for r in refused:
            if (r.stream, r.request_id) in answered or (r.stream, r.request_id) in waiting:
                r.lane = ANSWERS
        if self._conn.execute("SELECT 1 FROM outbox WHERE lane=? LIMIT 1", (REFUSALS,)).fetchone() is None:
            return
        for stream, request_id in answered:
            cur = self._conn.execute(
                "UPDATE outbox SET lane=? WHERE stream=? AND request_id=? AND lane=?",
                (ANSWERS, stream, request_id, REFUSALS),
            )
            self.promoted = self.promoted or cur.rowcount > 0

    def _answers_waiting(self, keys: set[tuple[str, str]]) -> set[tuple[str, str]]:
        """Of `keys` (stream, request_id), those with an answer waiting in the outbox table: one query per stream (and
        per `KEYS_PER_SELECT`), not one per refusal (a flood's batch is hundreds)."""
        by_stream: dict[str, list[str]] = {}
        for stream, request_id in sorted(keys):
            by_stream.setdefault(stream, []).append(request_id)
        found: set[tuple[str, str]] = set()
        for stream, request_ids in by_stream.items():
            for start in range(0, len(request_ids), KEYS_PER_SELECT):
                part = request_ids[start : start + KEYS_PER_SELECT]
                found.update(
                    (stream, row[0])
                    for row in self._conn.execute(
                        f"SELECT DISTINCT request_id FROM outbox WHERE stream=? AND lane=? "
                        f"AND request_id IN ({','.join('?' * len(part))})",
                        (stream, ANSWERS, *part),
                    )
                )
        return found

    def _write_added(self) -> None:
        """Write the rows added since the last call in multi-row INSERTs; ids are assigned in order
        (AUTOINCREMENT under the transaction's write lock), so sorted RETURNING ids match the rows."""
        rows, now = self._added[self._written :], time.time()
        self._keep_request_order(rows)
        for start in range(0, len(rows), OUTBOX_ROWS_PER_INSERT):
            part = rows[start : start + OUTBOX_ROWS_PER_INSERT]
            values = ",".join(["(?,?,?,?,?,?,?,?)"] * len(part))
            args = [
                v
                for r in part
                for v in (r.topic, r.payload, r.correlation, int(r.retain), now, r.stream, r.request_id, r.lane)
            ]
            ids = sorted(
                row[0]
                for row in self._conn.execute(
                    "INSERT INTO outbox (topic, payload, correlation, retain, created, stream, request_id, lane) "
                    f"VALUES {values} RETURNING id",
                    args,
                ).fetchall()
            )
            for row, row_id in zip(part, ids, strict=True):
                row.id = row_id
        self._written = len(self._added)
        self._write_rows()

    def _write_rows(self) -> None:
        """The `add_row` rows added since the last call, per statement in multi-row INSERTs."""
        rows, self._rows_written = self._rows[self._rows_written :], len(self._rows)
        by_insert: dict[str, list[tuple[Any, ...]]] = {}
        for insert, values in rows:
            by_insert.setdefault(insert, []).append(values)
        for insert, all_values in by_insert.items():
            per = max(1, MAX_PARAMETERS // len(all_values[0]))
            for start in range(0, len(all_values), per):
                part = all_values[start : start + per]
                marks = "(" + ",".join("?" * len(part[0])) + ")"
                self._conn.execute(f"{insert} VALUES {','.join([marks] * len(part))}", [v for r in part for v in r])

    def outbox_pending(self, exclude: set[int] | frozenset[int] = frozenset(), limit: int = 500) -> list[OutboxRow]:
        with self._lock:
            rows = self._conn.execute("SELECT * FROM outbox ORDER BY id LIMIT ?", (limit + len(exclude),)).fetchall()
        return [_outbox_row(r) for r in rows if r["id"] not in exclude][:limit]

    def outbox_schedule(self, per_stream: int, answers: int, refusals: int) -> list[tuple[int, str, int]]:
        """(id, stream, lane) of waiting rows in the order the outbox hands them on: at most `answers` of the
        answers' lane, then at most `refusals` of the refusals'; in each, round-robin between streams (every
        stream's first row, then every stream's second, ...), each stream in id order, at most `per_stream` rows
        of a stream (rows already handed on count: the caller skips them). Index walks, no sort of the table."""
        out: list[tuple[int, str, int]] = []
        with self._lock:
            for lane, cap in ((ANSWERS, answers), (REFUSALS, refusals)):
                if cap <= 0:
                    continue
                streams = [r[0] for r in self._conn.execute("SELECT DISTINCT stream FROM outbox WHERE lane=?", (lane,))]
                take = min(per_stream, cap)
                heads = [
                    [
                        r[0]
                        for r in self._conn.execute(
                            "SELECT id FROM outbox WHERE lane=? AND stream=? ORDER BY id LIMIT ?", (lane, stream, take)
                        )
                    ]
                    for stream in streams
                ]
                ranked = sorted(
                    (n, row_id, stream)
                    for stream, ids in zip(streams, heads, strict=True)
                    for n, row_id in enumerate(ids)
                )
                out += [(row_id, stream, lane) for _, row_id, stream in ranked[:cap]]
        return out

    def outbox_rows(self, row_ids: list[int]) -> dict[int, OutboxRow]:
        """The rows with these ids (those still there)."""
        out: dict[int, OutboxRow] = {}
        with self._lock:
            for start in range(0, len(row_ids), 500):
                part = row_ids[start : start + 500]
                marks = ",".join("?" * len(part))
                for r in self._conn.execute(f"SELECT * FROM outbox WHERE id IN ({marks})", part).fetchall():
                    out[r["id"]] = _outbox_row(r)
        return out

    def outbox_row(self, conn: sqlite3.Connection, row_id: int) -> OutboxRow | None:
        r = conn.execute("SELECT * FROM outbox WHERE id=?", (row_id,)).fetchone()
        return _outbox_row(r) if r else None

    def outbox_failed(self, row_id: int, reason: str) -> int:
        """Count one delivery failure of a row (kept across restarts); returns its failures so far (0: gone)."""
        with self.tx() as conn:
            row = conn.execute(
                "UPDATE outbox SET attempts=attempts+1, error=? WHERE id=? RETURNING attempts",
                (ascii(reason)[1:-1][:500], row_id),
            ).fetchone()
        return int(row[0]) if row else 0

    def outbox_delete(self, conn: sqlite3.Connection, row_ids: list[int] | set[int]) -> None:
        """Inside `tx()`: rows acknowledged by the broker (or moved to dead_letters)."""
        conn.executemany("DELETE FROM outbox WHERE id=?", [(r,) for r in row_ids])

    def outbox_done(self, row_id: int) -> None:
        with self.tx() as conn:
            conn.execute("DELETE FROM outbox WHERE id=?", (row_id,))

    def outbox_size(self) -> int:
        row = self._one("SELECT COUNT(*) FROM outbox")
        return int(row[0]) if row else 0
