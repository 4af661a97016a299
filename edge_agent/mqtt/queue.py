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

Every reply goes through `outbox` (topic, payload, MQTT v5 correlation data): rows are deleted when the broker
acknowledges them, so replies that could not be published (broker down, daemon killed) go out after the next
connect. The outbox's SQL — a transaction's rows written together, their order, their end — is `OutboxTable`
(outboxtable.py), which this class is. A batch is also looked up once: `prefetch` reads the jobs of its requests in
one query, which `get` answers from inside the transaction (a job the transaction inserts or finishes is read
again). A flood of 10,050 requests was ~30,000 statements, now ~400 (issue 42): each statement also hands the GIL
to paho's reading thread and back.
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

from edge_agent.mqtt.outboxtable import KEYS_PER_SELECT, OutboxTable
from edge_agent.mqtt.records import OUTBOX_INDEXES, SCHEMA, Job, OutboxRow, stream_of


def _inserted_id(cur: sqlite3.Cursor) -> int:
    """The row id an INSERT gave (sqlite3 types it optional: it is None only before any INSERT)."""
    if cur.lastrowid is None:
        raise RuntimeError("the INSERT gave no row id")
    return cur.lastrowid


class JobQueue(OutboxTable):
    """Thread-safe access to jobs and outbox (one connection, one lock; transactions are short); the outbox's
    table is `OutboxTable` (outboxtable.py)."""

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
