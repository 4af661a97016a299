"""The durable job queue and reply outbox of the daemon, in one SQLite file (WAL, synchronous=FULL).

A request is a row in `jobs`, unique by (client_id, request_id), so a redelivered or resent
request never becomes a second job. Fair share (issue 30): the worker takes the oldest queued job of the
requester served least recently (`next_queued`: round-robin between requesters, so one requester's burst
pushes another's job back by at most the job running), and a requester may have at most
`mqtt.max_queued_per_client` jobs queued or running (`client_active`).
A job moves queued → running → done; a job found `running`
at start-up was interrupted by a crash and is queued again (`attempts` counts the runs).
Requests that arrive together are inserted in one transaction (`committer.py`); should one of them
fail, the batch is stored again with each message in its own savepoint, so a bad one is undone
alone. The final reply is stored with the job in the same transaction that puts it in the `outbox`,
so a request has exactly one final reply, and a resend gets that same reply (same `reply_id`).
A message the daemon cannot handle at all (a bug) is kept in `dead_letters` and answered with an error.

Every reply goes through `outbox` (topic, payload, MQTT v5 correlation data): rows are deleted
when the broker acknowledges them, so replies that could not be published (broker down, daemon
killed) go out after the next connect. A transaction's outbox rows are written together, in one
multi-row INSERT, when `added()` is asked or the transaction commits: a batch of requests costs
one statement for all its replies.
A batch is also looked up once: `prefetch` reads the jobs of its requests in one query, which `get` answers from
inside the transaction (a job the transaction inserts or finishes is read again), and the rows it writes to other
tables (the audit trail's: `add_row`) go in multi-row INSERTs with the outbox rows. A flood of 10,050 requests was
~30,000 statements, now ~400 (issue 42): each statement also hands the GIL to paho's reading thread and back.

Each outbox row belongs to a stream (its requester) and a lane, answers or refusals (records.py, with the tables
and the `Job` and `OutboxRow` records). `outbox_schedule` hands rows out answers first, round-robin between
streams, each stream in id order. A request's replies never change order across lanes: a refusal whose request
already has a row waiting among the answers is written as an answer, and an answer promotes its request's
refusals still waiting (`_write_added`).
"""

from __future__ import annotations

import json
import sqlite3
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from edge_agent.mqtt.records import ANSWERS, OUTBOX_INDEXES, REFUSALS, SCHEMA, Job, OutboxRow, _outbox_row, stream_of

OUTBOX_ROWS_PER_INSERT = 500  # 8 parameters a row, well under SQLite's 32766 per statement
MAX_PARAMETERS = 6000  # parameters in one multi-row INSERT of `add_row` rows (SQLite takes 32766)
KEYS_PER_SELECT = 500  # request ids looked up in one statement (`prefetch`, `_keep_request_order`)


def _inserted_id(cur: sqlite3.Cursor) -> int:
    """The row id an INSERT gave (sqlite3 types it optional: it is None only before any INSERT)."""
    if cur.lastrowid is None:
        raise RuntimeError("the INSERT gave no row id")
    return cur.lastrowid


class JobQueue:
    """Thread-safe access to jobs and outbox (one connection, one lock; transactions are short)."""

    def __init__(self, path: Path):
        self.path = Path(path)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self._lock = threading.RLock()
        self._active: int | None = None  # queued + running jobs, counted once, then kept by hand (`active`)
        self._by_client: dict[str, int] | None = None  # the same per requester (`client_active`)
        self._served: dict[str, float] = {}  # requester → when its last job was taken (round-robin)
        self._added: list[OutboxRow] = []  # the outbox rows of the open transaction (`added`)
        self.promoted = False  # the open transaction moved waiting refusals among the answers (`_keep_request_order`)
        self._written = 0  # how many of `_added` are in the table (the rest get ids at `_write_added`)
        #: rows of other tables the open transaction writes before its commit (`add_row`): (INSERT, values)
        self._rows: list[tuple[str, tuple[Any, ...]]] = []
        self._rows_written = 0
        #: inside `tx()`: (client_id, request_id) → its job (None: none) as one query per batch read them (`prefetch`);
        #: a key is dropped when its job is inserted, everything when any job changes, at the end of the transaction
        self._known: dict[tuple[str, str], Job | None] = {}
        self._conn = sqlite3.connect(str(self.path), check_same_thread=False, isolation_level=None, timeout=10)
        self._conn.row_factory = sqlite3.Row
        self._conn.execute("PRAGMA journal_mode=WAL")
        self._conn.execute("PRAGMA synchronous=FULL")  # a committed request survives a power cut
        self._conn.execute("PRAGMA busy_timeout=10000")
        self._conn.executescript(SCHEMA)
        columns = {row[1] for row in self._conn.execute("PRAGMA table_info(jobs)")}
        if "outage_since" not in columns:  # a queue database written before the column existed
            self._conn.execute("ALTER TABLE jobs ADD COLUMN outage_since REAL")
        if "on_behalf_of" not in columns:  # the same: the person a console asked for (`Request.on_behalf_of`)
            self._conn.execute("ALTER TABLE jobs ADD COLUMN on_behalf_of TEXT")
        columns = {row[1] for row in self._conn.execute("PRAGMA table_info(outbox)")}
        if "attempts" not in columns:  # an outbox written before delivery failures were counted
            self._conn.execute("ALTER TABLE outbox ADD COLUMN attempts INTEGER NOT NULL DEFAULT 0")
            self._conn.execute("ALTER TABLE outbox ADD COLUMN error TEXT")
        if "lane" not in columns:  # an outbox written before its lanes (issue 42): every row an answer
            self._conn.execute("ALTER TABLE outbox ADD COLUMN stream TEXT NOT NULL DEFAULT ''")
            self._conn.execute("ALTER TABLE outbox ADD COLUMN request_id TEXT")
            self._conn.execute("ALTER TABLE outbox ADD COLUMN lane INTEGER NOT NULL DEFAULT 0")
            for row_id, topic in self._conn.execute("SELECT id, topic FROM outbox").fetchall():
                self._conn.execute("UPDATE outbox SET stream=? WHERE id=?", (stream_of(topic), row_id))
        self._conn.executescript(OUTBOX_INDEXES)

    def close(self) -> None:
        with self._lock:
            self._conn.close()

    @contextmanager
    def tx(self, durable: bool = True) -> Iterator[sqlite3.Connection]:
        """One IMMEDIATE transaction, committed (fsync'd) when the block ends. `durable=False` skips the
        fsync (WAL, synchronous=NORMAL): a crash may undo it, but only together with what followed it,
        and the next durable commit makes it durable too."""
        with self._lock:
            self._added, self._written, self.promoted = [], 0, False
            self._known, self._rows, self._rows_written = {}, [], 0
            if not durable:
                self._conn.execute("PRAGMA synchronous=NORMAL")
            try:
                self._conn.execute("BEGIN IMMEDIATE")
                try:
                    yield self._conn
                    self._write_added()
                except BaseException:
                    self._conn.execute("ROLLBACK")
                    raise
                self._conn.execute("COMMIT")
            except BaseException:
                # rolled back, or the COMMIT failed: what it inserted or finished is undone
                self._active = self._by_client = None
                raise
            finally:
                self._added, self._written, self._known = [], 0, {}
                self._rows, self._rows_written = [], 0
                if not durable:
                    self._conn.execute("PRAGMA synchronous=FULL")

    @contextmanager
    def savepoint(self, conn: sqlite3.Connection) -> Iterator[None]:
        """Inside `tx()`: a part that is undone alone if it raises (one message of a batch)."""
        conn.execute("SAVEPOINT part")
        added, written = len(self._added), self._written
        rows, rows_written = len(self._rows), self._rows_written
        try:
            yield
        except BaseException:
            self._active = self._by_client = None  # the part may have inserted or finished jobs
            self._known = {}
            del self._added[added:]
            self._written = written  # rows added before the part but written inside it are unwritten again
            del self._rows[rows:]
            self._rows_written = rows_written
            conn.execute("ROLLBACK TO part")
            conn.execute("RELEASE part")
            raise
        conn.execute("RELEASE part")

    def _one(self, sql: str, args: tuple[Any, ...] = ()) -> sqlite3.Row | None:
        with self._lock:
            row: sqlite3.Row | None = self._conn.execute(sql, args).fetchone()
            return row

    # jobs --------------------------------------------------------------------------------------
    def get(self, client_id: str, request_id: str) -> Job | None:
        """The job of (client_id, request_id), or None; inside `tx()` it sees the transaction's own inserts."""
        with self._lock:  # `_known` is filled only while this lock's holder has a transaction open
            if (client_id, request_id) in self._known:
                return self._known[(client_id, request_id)]
            row = self._one("SELECT * FROM jobs WHERE client_id=? AND request_id=?", (client_id, request_id))
        return Job.from_row(row) if row else None

    def prefetch(self, conn: sqlite3.Connection, keys: list[tuple[str, str]]) -> None:
        """Inside `tx()`: look up the jobs of `keys` (client_id, request_id) in one query per requester (and per
        `KEYS_PER_SELECT`), for `get` to answer from (the intake stores a batch of requests: issue 42, a flood of
        10,000 was one SELECT per request)."""
        wanted: dict[str, list[str]] = {}
        for client_id, request_id in dict.fromkeys(keys):
            if (client_id, request_id) not in self._known:
                wanted.setdefault(client_id, []).append(request_id)
        for client_id, request_ids in wanted.items():
            for start in range(0, len(request_ids), KEYS_PER_SELECT):
                part = request_ids[start : start + KEYS_PER_SELECT]
                marks = ",".join("?" * len(part))
                found = {
                    row["request_id"]: Job.from_row(row)
                    for row in conn.execute(
                        f"SELECT * FROM jobs WHERE client_id=? AND request_id IN ({marks})", (client_id, *part)
                    )
                }
                for request_id in part:
                    self._known[(client_id, request_id)] = found.get(request_id)

    def by_id(self, job_id: str) -> Job | None:
        row = self._one("SELECT * FROM jobs WHERE job_id=?", (job_id,))
        return Job.from_row(row) if row else None

    def insert(
        self,
        conn: sqlite3.Connection,
        *,
        job_id: str,
        client_id: str,
        request_id: str,
        question: str,
        options: dict[str, Any],
        reply_topic: str,
        correlation: bytes | None,
        body_correlation: str | None,
        on_behalf_of: str | None = None,
    ) -> Job:
        """Insert a queued job inside `tx()`; the caller has checked that (client_id, request_id) is new."""
        created = time.time()
        self._known.pop((client_id, request_id), None)  # `get` reads it back from the table
        cur = conn.execute(
            "INSERT INTO jobs (job_id, client_id, request_id, question, options, reply_topic, correlation,"
            " body_correlation, state, created, on_behalf_of) VALUES (?,?,?,?,?,?,?,?, 'queued', ?, ?)",
            (
                job_id,
                client_id,
                request_id,
                question,
                json.dumps(options),
                reply_topic,
                correlation,
                body_correlation,
                created,
                on_behalf_of,
            ),
        )
        if self._active is not None:
            self._active += 1
        if self._by_client is not None:
            self._by_client[client_id] = self._by_client.get(client_id, 0) + 1
        return Job(
            seq=_inserted_id(cur),
            job_id=job_id,
            client_id=client_id,
            request_id=request_id,
            question=question,
            options=options,
            reply_topic=reply_topic,
            correlation=correlation,
            body_correlation=body_correlation,
            state="queued",
            attempts=0,
            created=created,
            on_behalf_of=on_behalf_of,
        )

    def active(self, conn: sqlite3.Connection) -> int:
        """Inside `tx()`: the queued and running jobs, i.e. the position a job inserted now gets. Counted
        once and then kept by hand: `insert` adds one; `finish` and a rollback make the next call count
        again (the daemon is the table's only writer, and queued ↔ running changes nothing). So a burst
        into a long queue costs no count at all (a count of 6000 queued jobs takes 0.3 ms, per batch)."""
        if self._active is None:
            row = conn.execute("SELECT COUNT(*) FROM jobs WHERE state IN ('queued','running')").fetchone()
            self._active = int(row[0])
        return self._active

    def client_active(self, conn: sqlite3.Connection, client_id: str) -> int:
        """Inside `tx()`: the requester's queued and running jobs (its quota's count), kept like `active`."""
        if self._by_client is None:
            self._by_client = {
                row[0]: int(row[1])
                for row in conn.execute(
                    "SELECT client_id, COUNT(*) FROM jobs WHERE state IN ('queued','running') GROUP BY client_id"
                )
            }
        return self._by_client.get(client_id, 0)

    def fair_position(self, conn: sqlite3.Connection, client_id: str) -> int:
        """Inside `tx()`, before inserting a job of `client_id`: the jobs that run before it under round-robin —
        its requester's own, and of every other requester at most one more than that (an estimate: where the
        rotation stands decides the last one)."""
        mine = self.client_active(conn, client_id)
        assert self._by_client is not None
        return mine + sum(min(n, mine + 1) for c, n in self._by_client.items() if c != client_id)

    def position(self, job: Job) -> int:
        """Jobs that will run before `job` (the running one included)."""
        row = self._one("SELECT COUNT(*) FROM jobs WHERE state IN ('queued','running') AND seq < ?", (job.seq,))
        return int(row[0]) if row else 0

    def next_queued(self) -> Job | None:
        """The next job to run: the oldest queued job of the requester whose last job was taken longest ago
        (never, first; ties: the oldest job). Round-robin between requesters, in order within each."""
        with self._lock:
            heads = self._conn.execute(
                "SELECT client_id, MIN(seq) FROM jobs WHERE state='queued' GROUP BY client_id"
            ).fetchall()
        if not heads:
            return None
        client_id, seq = min(heads, key=lambda h: (self._served.get(h[0], 0.0), h[1]))
        self._served[client_id] = time.monotonic()
        row = self._one("SELECT * FROM jobs WHERE seq=?", (seq,))
        return Job.from_row(row) if row else None

    def mark_running(self, job_id: str) -> Job | None:
        """The worker takes a queued job (one more attempt); None when it is no longer queued (cancelled)."""
        with self.tx() as conn:
            n = conn.execute(
                "UPDATE jobs SET state='running', attempts=attempts+1, started=? WHERE job_id=? AND state='queued'",
                (time.time(), job_id),
            ).rowcount
        return self.by_id(job_id) if n else None

    def requeue(self, job_id: str) -> None:
        """A running job back to queued (it runs again from the start)."""
        with self.tx() as conn:
            conn.execute("UPDATE jobs SET state='queued' WHERE job_id=? AND state='running'", (job_id,))

    def state_of(self, conn: sqlite3.Connection, job_id: str) -> str | None:
        """Inside `tx()`: a job's state (None: no such job)."""
        row = conn.execute("SELECT state FROM jobs WHERE job_id=?", (job_id,)).fetchone()
        return row[0] if row else None

    def finish(self, conn: sqlite3.Connection, job_id: str, kind: str, payload: str) -> None:
        """Record the final reply inside `tx()` (together with its outbox rows)."""
        self._active = self._by_client = None
        self._known = {}
        conn.execute(
            "UPDATE jobs SET state='done', finished=?, final_kind=?, final_payload=? WHERE job_id=?",
            (time.time(), kind, payload, job_id),
        )

    def outage_since(self, job_id: str, now: float) -> float:
        """The start of the SkySpark outage this job waits out: recorded at its first failure (`now`), kept
        across restarts, so the wait is counted once."""
        with self.tx() as conn:
            conn.execute("UPDATE jobs SET outage_since=? WHERE job_id=? AND outage_since IS NULL", (now, job_id))
            row = conn.execute("SELECT outage_since FROM jobs WHERE job_id=?", (job_id,)).fetchone()
        return float(row[0]) if row and row[0] is not None else now

    def requeue_interrupted(self) -> int:
        """At start-up: jobs left `running` by a crash or stop run again from the start."""
        with self.tx() as conn:
            return conn.execute("UPDATE jobs SET state='queued' WHERE state='running'").rowcount

    def counts(self) -> dict[str, int]:
        with self._lock:
            rows = self._conn.execute("SELECT state, COUNT(*) FROM jobs GROUP BY state").fetchall()
        return {r[0]: r[1] for r in rows}

    def jobs(self) -> list[Job]:
        with self._lock:
            return [Job.from_row(r) for r in self._conn.execute("SELECT * FROM jobs ORDER BY seq").fetchall()]

    # dead letters ------------------------------------------------------------------------------
    def dead_letter(self, conn: sqlite3.Connection, topic: str, payload: bytes, error: str) -> int:
        """Inside `tx()`: keep a message the daemon could not handle (a bug), for the administrator; its
        requester gets an error reply and the message is acknowledged, so it never holds the broker's in-flight
        window. The topic and error are stored as ASCII (whatever the message held), the payload as bytes."""
        cur = conn.execute(
            "INSERT INTO dead_letters (created, topic, payload, error) VALUES (?,?,?,?)",
            (time.time(), ascii(topic)[1:-1], bytes(payload), ascii(error)[1:-1]),
        )
        return _inserted_id(cur)

    def dead_letters(self) -> list[dict[str, Any]]:
        with self._lock:
            return [dict(r) for r in self._conn.execute("SELECT * FROM dead_letters ORDER BY id").fetchall()]

    # outbox ------------------------------------------------------------------------------------
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
