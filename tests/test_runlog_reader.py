"""The run log's one read API (`runlog.reader.RunLogReader`): typed rows, read-only, old run logs included."""

from __future__ import annotations

import hashlib
import shutil
import sqlite3
from pathlib import Path

from edge_agent.agent.trajectory import RunResult, StepRecord, Trial
from edge_agent.llm.base import LLMCall, Usage
from edge_agent.runlog import RunLog
from edge_agent.runlog.reader import RunLogReader

REAL = Path(__file__).parent / "data" / "runlog-2026-11-25.db"


def _sha(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def test_a_run_log_from_before_migrations_reads_without_being_touched(tmp_path):
    """The console reads whatever run log is there, never migrating it: the columns it lacks read as None, the
    calls have no system prompt (no `prompt_systems` table yet), and the file is byte for byte as it was."""
    db_path = tmp_path / "old.db"
    shutil.copy(REAL, db_path)
    before = _sha(db_path)
    raw = sqlite3.connect(db_path)
    n, newest = raw.execute("select count(*), max(created) from runs").fetchone()
    raw_steps = raw.execute("select count(*) from steps").fetchone()[0]
    raw.close()
    reader = RunLogReader(db_path)
    runs = reader.runs(1000)
    assert len(runs) == n == reader.count() and runs[0].created == newest
    assert [r.created for r in runs] == sorted((r.created for r in runs), reverse=True)
    details = [reader.detail(r.run_id, prompt_texts=True) for r in runs]
    assert sum(len(d.steps) for d in details if d) == raw_steps
    calls = [c for d in details if d for c in d.calls]
    assert calls and all(c.prompt_system is None and c.reply is None for c in calls)
    steps = [s for d in details if d for s in d.steps]
    assert all(s.shown_thought is None and s.by is None for s in steps)  # m004's columns: not in this file
    assert _sha(db_path) == before
    tables = {r[0] for r in sqlite3.connect(db_path).execute("select name from sqlite_master where type='table'")}
    assert "_migrations" not in tables and "prompt_systems" not in tables


def _run(run_id: str, question: str, answer: str) -> RunResult:
    step = StepRecord(index=1, thought="look", action="sites", action_input={}, observation="POKMAIN")
    return RunResult(
        run_id=run_id,
        question=question,
        strategy="react",
        model="m",
        now="",
        status="answered",
        answer=answer,
        trials=[Trial(number=1, steps=[step])],
    )


def test_runs_search_prefixes_and_details_read_back_what_was_recorded(tmp_path):
    log = RunLog(tmp_path / "edge-agent.db")
    call = LLMCall(
        role="react",
        constraint="step",
        usage=Usage(prompt_tokens=7),
        finish_reason="stop",
        started_at=1.0,
        prompt_system="SYS",
        reply="r",
    )
    log.record(_run("abc-1", "peak tonnage of Chiller 3", "412 tons"), [call])
    log.record(_run("abc-2", "how many chillers at POKMAIN?", "4"), [])
    log.record(_run("xyz_1", "sites with 100% uptime", "none"), [])
    reader = log.reader

    assert [r.run_id for r in reader.runs()] == ["xyz_1", "abc-2", "abc-1"]  # newest first
    assert [r.run_id for r in reader.runs(1, offset=1)] == ["abc-2"]
    assert [r.run_id for r in reader.runs(q="chiller")] == ["abc-2", "abc-1"] and reader.count("chiller") == 2
    assert [r.run_id for r in reader.runs(q="412")] == ["abc-1"]  # the answer too
    assert [r.run_id for r in reader.runs(q="100%")] == ["xyz_1"] and reader.count("0%") == 1  # % is a character
    assert [r.run_id for r in reader.runs(q="abc-2")] == ["abc-2"]  # a run id

    assert [r.run_id for r in reader.find("abc")] == ["abc-2", "abc-1"]
    assert [r.run_id for r in reader.find("abc-1")] == ["abc-1"]
    assert [r.run_id for r in reader.find("xyz_")] == ["xyz_1"] and reader.find("xyz%") == []
    assert reader.find("nope") == [] and reader.run("nope") is None and reader.detail("nope") is None

    detail = reader.detail("abc-1", prompt_texts=True)
    assert detail is not None and detail.run.answer == "412 tons" and detail.run.status == "answered"
    assert [(t.number, t.run_id) for t in detail.trials] == [(1, "abc-1")]
    assert [(s.idx, s.action, s.observation) for s in detail.steps] == [(1, "sites", "POKMAIN")]
    assert [(c.role, c.prompt_tokens, c.prompt_system, c.reply) for c in detail.calls] == [("react", 7, "SYS", "r")]
    plain = reader.detail("abc-1")
    assert plain is not None and plain.calls[0].prompt_system is None  # the system prompt only when asked for


def test_a_missing_run_log_reads_as_empty_and_is_not_created(tmp_path):
    path = tmp_path / "state" / "edge-agent.db"
    reader = RunLogReader(path)
    assert reader.runs() == [] and reader.count() == 0 and reader.find("a") == []
    assert reader.run("a") is None and reader.detail("a") is None
    assert not path.exists()
