"""The queue database's tables (`SCHEMA`: jobs, dead letters, the outbox) and the records read from them: a `Job`
and an `OutboxRow`.

Each outbox row belongs to a stream (its requester: `stream_of(topic)`) and a lane (issue 42): `ANSWERS`
(everything about a stored request: `accepted`, progress, questions, file chunks, final replies) or
`REFUSALS` (the error that answers a message which stored nothing: `quota_exceeded`, `bad_json`, ...). How the
queue writes and hands them out is `queue.py`.
"""

from __future__ import annotations

import json
import sqlite3
from dataclasses import dataclass
from functools import cached_property
from typing import Any

SCHEMA = """
CREATE TABLE IF NOT EXISTS jobs (
    seq INTEGER PRIMARY KEY AUTOINCREMENT,
    job_id TEXT NOT NULL UNIQUE,
    client_id TEXT NOT NULL,
    request_id TEXT NOT NULL,
    question TEXT NOT NULL,
    options TEXT NOT NULL,
    reply_topic TEXT NOT NULL,
    correlation BLOB,
    body_correlation TEXT,
    state TEXT NOT NULL CHECK (state IN ('queued', 'running', 'done')),
    attempts INTEGER NOT NULL DEFAULT 0,
    created REAL NOT NULL,
    started REAL,
    finished REAL,
    final_kind TEXT,
    final_payload TEXT,
    outage_since REAL,
    on_behalf_of TEXT,
    UNIQUE (client_id, request_id)
);
CREATE INDEX IF NOT EXISTS jobs_state ON jobs (state, seq);
CREATE TABLE IF NOT EXISTS dead_letters (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    created REAL NOT NULL,
    topic TEXT NOT NULL,
    payload BLOB NOT NULL,
    error TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS outbox (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    topic TEXT NOT NULL,
    payload BLOB NOT NULL,
    correlation BLOB,
    retain INTEGER NOT NULL DEFAULT 0,
    created REAL NOT NULL,
    attempts INTEGER NOT NULL DEFAULT 0,
    error TEXT,
    stream TEXT NOT NULL DEFAULT '',
    request_id TEXT,
    lane INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX IF NOT EXISTS jobs_fair ON jobs (state, client_id, seq);
"""
OUTBOX_INDEXES = """
CREATE INDEX IF NOT EXISTS outbox_lanes ON outbox (lane, stream, id);
CREATE INDEX IF NOT EXISTS outbox_requests ON outbox (stream, request_id, lane);
"""
ANSWERS, REFUSALS = 0, 1  # the outbox's lanes: answers go first (`outbox_schedule`)


def stream_of(topic: str) -> str:
    """The outbox stream of a reply: its requester's subtree (`<base>/response/<client_id>`), every reply of one
    requester in one stream whatever its topic; any other topic is a stream of its own."""
    parts = topic.split("/", 4)
    return "/".join(parts[:4]) if len(parts) >= 4 and parts[2] == "response" else topic


@dataclass
class Job:
    seq: int
    job_id: str
    client_id: str
    request_id: str
    question: str
    options: dict[str, Any]
    reply_topic: str
    correlation: bytes | None
    body_correlation: str | None
    state: str
    attempts: int
    created: float
    final_kind: str | None = None
    final_payload: str | None = None
    on_behalf_of: str | None = None

    @classmethod
    def from_row(cls, row: sqlite3.Row) -> Job:
        return cls(
            seq=row["seq"],
            job_id=row["job_id"],
            client_id=row["client_id"],
            request_id=row["request_id"],
            question=row["question"],
            options=json.loads(row["options"]),
            reply_topic=row["reply_topic"],
            correlation=row["correlation"],
            body_correlation=row["body_correlation"],
            state=row["state"],
            attempts=row["attempts"],
            created=row["created"],
            final_kind=row["final_kind"],
            final_payload=row["final_payload"],
            on_behalf_of=row["on_behalf_of"],
        )

    def final_bytes(self) -> bytes:
        """The stored final reply of a done job, as it is sent again."""
        if self.final_payload is None:
            raise ValueError(f"job {self.job_id} is {self.state} and has no final reply stored")
        return self.final_payload.encode()


@dataclass
class OutboxRow:
    id: int
    topic: str
    payload: bytes
    correlation: bytes | None
    retain: bool
    attempts: int = 0  # times the broker refused it or closed the connection on it (`outbox_failed`)
    request_id: str | None = None  # the request it answers, where known (a refusal's promotion)
    lane: int = ANSWERS

    @cached_property
    def stream(self) -> str:  # (read a few times per row while a batch is written: computed once)
        return stream_of(self.topic)


def _outbox_row(r: sqlite3.Row) -> OutboxRow:
    return OutboxRow(
        r["id"],
        r["topic"],
        r["payload"],
        r["correlation"],
        bool(r["retain"]),
        r["attempts"],
        r["request_id"],
        r["lane"],
    )
