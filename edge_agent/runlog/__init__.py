"""The run log: every run, trial, step and LLM call (with its prompt and reply text), in SQLite (sqlite-utils),
for `edge-agent logs` and the console's history.

`RunLog` writes it (one per process, migrating the schema on open); `reader.RunLogReader` is the one way to read
it back (typed rows, read-only).

The schema grows by numbered migrations (`m001_…`, `m002_…`, recorded in `_migrations`), so a run log written
by any earlier version opens and is brought up to date; nothing is created "once" and then patched on write."""

from __future__ import annotations

import hashlib
import json
import sqlite3
import threading
import time
from collections.abc import Callable
from pathlib import Path

import sqlite_utils

from edge_agent.agent.trajectory import RunResult
from edge_agent.llm.base import LLMCall
from edge_agent.runlog.reader import RunLogReader


def open_db(path: Path) -> sqlite_utils.Database:
    path.parent.mkdir(parents=True, exist_ok=True)
    # One connection shared by the threads of one process (the daemon's worker records runs);
    # RunLog serialises writes with its own lock.
    db = sqlite_utils.Database(sqlite3.connect(path, check_same_thread=False, timeout=5))
    db.execute("PRAGMA journal_mode=WAL")
    db.execute("PRAGMA busy_timeout=5000")
    return db


MIGRATIONS: list[Callable[[sqlite_utils.Database], None]] = []


def migration(fn: Callable[[sqlite_utils.Database], None]) -> Callable[[sqlite_utils.Database], None]:
    """Register a schema step; steps run in the order they are defined, each once per database (as Simon
    Willison's `llm` does: its `_migrations` table names the steps applied). Never edit or reorder a step
    that shipped: add a new one."""
    MIGRATIONS.append(fn)
    return fn


@migration
def m001_initial(db: sqlite_utils.Database) -> None:
    """The schema as it was first created (before migrations existed; such a database already has it)."""
    if "runs" in db.table_names():
        return
    db.table("runs").create(
        {
            "run_id": str,
            "created": float,
            "question": str,
            "strategy": str,
            "model": str,
            "now": str,
            "status": str,
            "answer": str,
            "error": str,
            "files": str,
            "distilled": str,
            "metrics": str,
            "completed_round1": int,
            "completed_final": int,
            "trials": int,
            "llm_calls": int,
            "tokens_sent": int,
            "tokens_received": int,
            "tokens_evaluated": int,
            "wall_s": float,
        },
        pk="run_id",
    )
    db.table("trials").create(
        {
            "run_id": str,
            "number": int,
            "outcome": str,
            "answer": str,
            "review_status": str,
            "review": str,
            "reflection": str,
            "loops_caught": int,
            "parse_failures": int,
        },
        pk=("run_id", "number"),
        foreign_keys=[("run_id", "runs")],
    )
    db.table("steps").create(
        {
            "run_id": str,
            "trial": int,
            "idx": int,
            "kind": str,
            "thought": str,
            "action": str,
            "action_input": str,
            "observation": str,
            "ok": int,
            "prompt_tokens": int,
            "evaluated_tokens": int,
            "generated_tokens": int,
            "ms": float,
        },
        pk=("run_id", "trial", "idx"),
        foreign_keys=[("run_id", "runs")],
    )
    db.table("llm_calls").create(
        {
            "id": int,
            "run_id": str,
            "role": str,
            "constraint_name": str,
            "prompt_tokens": int,
            "evaluated_tokens": int,
            "generated_tokens": int,
            "ms": float,
            "finish_reason": str,
            "started_at": float,
        },
        pk="id",
        foreign_keys=[("run_id", "runs")],
    )
    db.table("runs").create_index(["created"])


@migration
def m002_runs_reason(db: sqlite_utils.Database) -> None:
    """Why a run gave up or failed (run logs written before had it added on their first such run)."""
    if "reason" not in db["runs"].columns_dict:
        db.table("runs").add_column("reason", str)


@migration
def m003_llm_call_texts(db: sqlite_utils.Database) -> None:
    """Every LLM call's prompt and reply text. The system part (instructions, tools, examples) is the same for
    most calls of a role, so it is kept once in `prompt_systems` (by sha256) and the call points at it."""
    db.table("prompt_systems").create({"sha256": str, "text": str, "chars": int}, pk="sha256", if_not_exists=True)
    calls = db.table("llm_calls")
    have = calls.columns_dict
    for name in ("system_sha256", "prompt_user", "prompt_prefix", "reply"):
        if name not in have:
            calls.add_column(
                name,
                str,
                fk="prompt_systems" if name == "system_sha256" else None,
                fk_col="sha256" if name == "system_sha256" else None,
            )


@migration
def m004_masked_thought_and_provenance(db: sqlite_utils.Database) -> None:
    """One truth for a run: each step's thought as it was published (every unverified figure or name masked),
    what was masked and who wrote the step; the answer's provenance (each figure and name with the step or fact
    it came from). The console's run page shows these, as the live page did."""
    steps, runs = db.table("steps"), db.table("runs")
    for name, kind in (("shown_thought", str), ("unverified", str), ("by", str)):
        if name not in steps.columns_dict:
            steps.add_column(name, kind)
    if "provenance" not in runs.columns_dict:
        runs.add_column("provenance", str)


@migration
def m005_runs_reading(db: sqlite_utils.Database) -> None:
    """How the question was read, said back (`grounding.readas.ReadAs` as JSON: the Read-as line, each part with the
    call that answered it and where each slot came from, the slots nothing settled)."""
    if "reading" not in db["runs"].columns_dict:
        db.table("runs").add_column("reading", str)


def migrate(db: sqlite_utils.Database) -> list[str]:
    """Apply the steps this database has not had yet; returns their names."""
    db.table("_migrations").create({"name": str, "applied": float}, pk="name", if_not_exists=True)
    done = {row["name"] for row in db["_migrations"].rows}
    applied = []
    for step in MIGRATIONS:
        if step.__name__ in done:
            continue
        with db.conn:
            step(db)
            db.table("_migrations").insert({"name": step.__name__, "applied": time.time()})
        applied.append(step.__name__)
    return applied


class RunLog:
    """The run log's writer: `record` one finished run (its reads: `reader`)."""

    def __init__(self, path: Path):
        self.path = path
        self.db = open_db(path)
        self._lock = threading.Lock()
        self.applied = migrate(self.db)

    def record(self, result: RunResult, calls: list[LLMCall]) -> None:
        m = result.metrics
        with self._lock, self.db.conn:
            self.db.table("runs").upsert(
                {
                    "run_id": result.run_id,
                    "created": time.time(),
                    "question": result.question,
                    "strategy": result.strategy,
                    "model": result.model,
                    "now": result.now,
                    "status": result.status,
                    "answer": result.answer,
                    "error": result.error,
                    "files": json.dumps([f.model_dump() for f in result.files]),
                    "distilled": result.distilled.model_dump_json() if result.distilled else None,
                    "metrics": m.model_dump_json(),
                    "completed_round1": int(m.completed_round1),
                    "completed_final": int(m.completed_final),
                    "trials": m.trials,
                    "llm_calls": m.llm_calls,
                    "tokens_sent": m.tokens_sent,
                    "tokens_received": m.tokens_received,
                    "tokens_evaluated": m.tokens_evaluated,
                    "wall_s": m.wall_s,
                    "reason": result.reason,
                    "provenance": json.dumps(
                        [c.model_dump(mode="json") for c in result.provenance], ensure_ascii=False
                    ),
                    "reading": result.reading.model_dump_json() if result.reading is not None else None,
                },
                pk="run_id",
            )
            for trial in result.trials:
                self.db.table("trials").upsert(
                    {
                        "run_id": result.run_id,
                        "number": trial.number,
                        "outcome": trial.outcome,
                        "answer": trial.answer,
                        "review_status": trial.review.status if trial.review else None,
                        "review": trial.review.model_dump_json() if trial.review else None,
                        "reflection": trial.reflection,
                        "loops_caught": trial.loops_caught,
                        "parse_failures": trial.parse_failures,
                    },
                    pk=("run_id", "number"),
                )
                self.db.table("steps").upsert_all(
                    [
                        {
                            "run_id": result.run_id,
                            "trial": trial.number,
                            "idx": s.index,
                            "kind": s.kind,
                            "thought": s.thought,
                            "shown_thought": s.shown_thought,
                            "unverified": json.dumps(s.unverified, ensure_ascii=False) if s.unverified else None,
                            "by": s.by,
                            "action": s.action,
                            "action_input": json.dumps(s.action_input, ensure_ascii=False),
                            "observation": s.observation,
                            "ok": int(s.ok),
                            "prompt_tokens": s.usage.prompt_tokens,
                            "evaluated_tokens": s.usage.evaluated_tokens,
                            "generated_tokens": s.usage.generated_tokens,
                            "ms": s.ms,
                        }
                        for s in trial.steps
                    ],
                    pk=("run_id", "trial", "idx"),
                )
            systems = {
                hashlib.sha256(c.prompt_system.encode()).hexdigest(): c.prompt_system for c in calls if c.prompt_system
            }
            self.db.table("prompt_systems").insert_all(
                [{"sha256": h, "text": t, "chars": len(t)} for h, t in systems.items()], pk="sha256", ignore=True
            )
            self.db.table("llm_calls").insert_all(
                [
                    {
                        "run_id": result.run_id,
                        "role": c.role,
                        "constraint_name": c.constraint,
                        "prompt_tokens": c.usage.prompt_tokens,
                        "evaluated_tokens": c.usage.evaluated_tokens,
                        "generated_tokens": c.usage.generated_tokens,
                        "ms": c.usage.ms,
                        "finish_reason": c.finish_reason,
                        "started_at": c.started_at,
                        "system_sha256": hashlib.sha256(c.prompt_system.encode()).hexdigest()
                        if c.prompt_system
                        else None,
                        "prompt_user": c.prompt_user,
                        "prompt_prefix": c.prompt_prefix,
                        "reply": c.reply,
                    }
                    for c in calls
                ],
                pk="id",
            )

    @property
    def reader(self) -> RunLogReader:
        return RunLogReader(self.path)
