"""The run log read back: typed rows from a read-only connection opened per query (`RunLogReader`).

The one way the console, `edge-agent logs` and the tests read the run log: a reader never writes to the file,
migrates it or holds it open, so it reads what the daemon writes while it runs. A run log written by an older
version reads too: a column it lacks is None (`_Record`), a missing `prompt_systems` table leaves the calls
without their system prompt, a file that is not there (or holds no `runs` yet) reads as empty."""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from pydantic import BaseModel, ConfigDict


class _Record(BaseModel):
    """A row as stored; every column optional, since a run log of an older version may lack it."""

    model_config = ConfigDict(extra="ignore")


class RunRecord(_Record):
    run_id: str
    created: float | None = None
    question: str | None = None
    strategy: str | None = None
    model: str | None = None
    now: str | None = None
    status: str | None = None
    answer: str | None = None
    error: str | None = None
    files: str | None = None  # JSON: the result's files
    distilled: str | None = None  # JSON: the Distilled goal and parts
    metrics: str | None = None  # JSON: RunMetrics
    completed_round1: int | None = None
    completed_final: int | None = None
    trials: int | None = None
    llm_calls: int | None = None
    tokens_sent: int | None = None
    tokens_received: int | None = None
    tokens_evaluated: int | None = None
    wall_s: float | None = None
    reason: str | None = None
    provenance: str | None = None  # JSON: the answer's claims


class TrialRecord(_Record):
    run_id: str
    number: int
    outcome: str | None = None
    answer: str | None = None
    review_status: str | None = None
    review: str | None = None  # JSON: the review
    reflection: str | None = None
    loops_caught: int | None = None
    parse_failures: int | None = None


class StepRecord(_Record):
    run_id: str
    trial: int
    idx: int
    kind: str | None = None
    thought: str | None = None
    action: str | None = None
    action_input: str | None = None  # JSON
    observation: str | None = None
    ok: int | None = None
    prompt_tokens: int | None = None
    evaluated_tokens: int | None = None
    generated_tokens: int | None = None
    ms: float | None = None
    shown_thought: str | None = None
    unverified: str | None = None  # JSON: the figures and names masked in the shown thought
    by: str | None = None


class CallRecord(_Record):
    id: int
    run_id: str
    role: str | None = None
    constraint_name: str | None = None
    prompt_tokens: int | None = None
    evaluated_tokens: int | None = None
    generated_tokens: int | None = None
    ms: float | None = None
    finish_reason: str | None = None
    started_at: float | None = None
    system_sha256: str | None = None
    prompt_user: str | None = None
    prompt_prefix: str | None = None
    reply: str | None = None
    prompt_system: str | None = None  # joined from `prompt_systems` when asked for (`RunLogReader.detail`)


class RunDetail(BaseModel):
    """One run with its trials, steps (in trial, index order) and LLM calls (in call order)."""

    run: RunRecord
    trials: list[TrialRecord]
    steps: list[StepRecord]
    calls: list[CallRecord]


def _search(q: str) -> tuple[str, list[str]]:
    """The WHERE clause of a search: a text in the question or the answer, or a run id."""
    if not q:
        return "", []
    like = "%" + q.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_") + "%"
    return " WHERE question LIKE ? ESCAPE '\\' OR answer LIKE ? ESCAPE '\\' OR run_id = ?", [like, like, q]


class RunLogReader:
    """The run log read back, read-only (`mode=ro`), one connection per call; a missing file reads as empty."""

    def __init__(self, path: Path):
        self.path = path

    @contextmanager
    def _conn(self) -> Iterator[sqlite3.Connection | None]:
        if not self.path.is_file():
            yield None
            return
        conn = sqlite3.connect(f"file:{self.path}?mode=ro", uri=True, timeout=5)
        conn.row_factory = sqlite3.Row
        try:
            tables = {r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type='table'")}
            yield conn if "runs" in tables else None
        finally:
            conn.close()

    def runs(self, limit: int = 10, offset: int = 0, q: str = "") -> list[RunRecord]:
        """A page of runs, newest first; `q` finds a text in the question or the answer, or a run id."""
        where, args = _search(q)
        with self._conn() as conn:
            if conn is None:
                return []
            rows = conn.execute(
                f"SELECT * FROM runs{where} ORDER BY created DESC LIMIT ? OFFSET ?", (*args, limit, offset)
            )
            return [RunRecord.model_validate(dict(r)) for r in rows]

    def count(self, q: str = "") -> int:
        where, args = _search(q)
        with self._conn() as conn:
            if conn is None:
                return 0
            n: int = conn.execute(f"SELECT COUNT(*) FROM runs{where}", args).fetchone()[0]
            return n

    def run(self, run_id: str) -> RunRecord | None:
        with self._conn() as conn:
            row = None if conn is None else conn.execute("SELECT * FROM runs WHERE run_id=?", (run_id,)).fetchone()
        return RunRecord.model_validate(dict(row)) if row is not None else None

    def find(self, run: str) -> list[RunRecord]:
        """The run of id `run`; else the runs whose id starts with `run`, newest first."""
        exact = self.run(run)
        if exact is not None:
            return [exact]
        like = run.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_") + "%"
        with self._conn() as conn:
            if conn is None:
                return []
            rows = conn.execute(
                "SELECT * FROM runs WHERE run_id LIKE ? ESCAPE '\\' ORDER BY created DESC", (like,)
            ).fetchall()
        return [RunRecord.model_validate(dict(r)) for r in rows]

    def detail(self, run_id: str, *, prompt_texts: bool = False) -> RunDetail | None:
        """The run with its trials, steps and LLM calls; `prompt_texts`: each call's system prompt joined in."""
        with self._conn() as conn:
            if conn is None:
                return None
            row = conn.execute("SELECT * FROM runs WHERE run_id=?", (run_id,)).fetchone()
            if row is None:
                return None
            trials = conn.execute("SELECT * FROM trials WHERE run_id=? ORDER BY number", (run_id,)).fetchall()
            steps = conn.execute("SELECT * FROM steps WHERE run_id=? ORDER BY trial, idx", (run_id,)).fetchall()
            joined = (
                prompt_texts
                and conn.execute("SELECT 1 FROM sqlite_master WHERE type='table' AND name='prompt_systems'").fetchone()
            )
            sql = (
                "SELECT c.*, s.text AS prompt_system FROM llm_calls c LEFT JOIN prompt_systems s "
                "ON s.sha256 = c.system_sha256 WHERE c.run_id=? ORDER BY c.id"
                if joined
                else "SELECT * FROM llm_calls WHERE run_id=? ORDER BY id"
            )
            calls = conn.execute(sql, (run_id,)).fetchall()
        return RunDetail(
            run=RunRecord.model_validate(dict(row)),
            trials=[TrialRecord.model_validate(dict(r)) for r in trials],
            steps=[StepRecord.model_validate(dict(r)) for r in steps],
            calls=[CallRecord.model_validate(dict(r)) for r in calls],
        )
