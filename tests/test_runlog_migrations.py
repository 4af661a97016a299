"""The run log's numbered migrations: a copy of a real run log (written by main on 2026-11-25, before migrations
existed) opens, keeps its runs, gains the prompt/reply columns, and records new calls with their texts."""

from __future__ import annotations

import json
import shutil
import sqlite3
from pathlib import Path

from edge_agent.agent.trajectory import RunResult
from edge_agent.llm.base import LLMCall, Usage
from edge_agent.runlog import MIGRATIONS, RunLog
from edge_agent.runlog.reader import RunDetail

REAL = Path(__file__).parent / "data" / "runlog-2026-11-25.db"


def _call(system: str, user: str, reply: str) -> LLMCall:
    return LLMCall(
        role="react",
        constraint="step",
        usage=Usage(prompt_tokens=10),
        finish_reason="stop",
        started_at=1.0,
        prompt_system=system,
        prompt_user=user,
        prompt_prefix="Thought:",
        reply=reply,
    )


def _detail(log: RunLog, run_id: str) -> RunDetail:
    detail = log.reader.detail(run_id, prompt_texts=True)
    assert detail is not None, run_id
    return detail


def test_a_real_run_log_from_before_migrations_is_brought_up_to_date(tmp_path):
    db_path = tmp_path / "edge-agent.db"
    shutil.copy(REAL, db_path)
    before = sqlite3.connect(db_path).execute("select count(*), max(created) from runs").fetchone()
    log = RunLog(db_path)
    assert log.applied == [
        "m001_initial",
        "m002_runs_reason",
        "m003_llm_call_texts",
        "m004_masked_thought_and_provenance",
        "m005_runs_reading",
    ]
    assert (log.db.execute("select count(*), max(created) from runs").fetchone()) == before
    cols = log.db["llm_calls"].columns_dict
    assert {"system_sha256", "prompt_user", "prompt_prefix", "reply"} <= set(cols)
    old = log.reader.runs(1)[0]
    old_calls = _detail(log, old.run_id).calls
    assert old_calls == [] or old_calls[0].reply is None
    # a new run keeps its prompts and replies; the shared system text is stored once
    log.record(
        RunResult(run_id="new1", question="q?", strategy="react", model="m", now="", status="answered", answer="a"),
        [_call("SYS", "Question: q?", "Thought: look"), _call("SYS", "Question: q? again", "Action: finish")],
    )
    calls = _detail(log, "new1").calls
    assert [c.reply for c in calls] == ["Thought: look", "Action: finish"]
    assert calls[0].prompt_system == "SYS" and calls[1].prompt_user == "Question: q? again"
    assert log.db.execute("select count(*) from prompt_systems").fetchone()[0] == 1
    # opening again applies nothing
    assert RunLog(db_path).applied == []


def test_a_run_log_without_the_reason_column_gets_it(tmp_path):
    db_path = tmp_path / "old.db"
    shutil.copy(REAL, db_path)
    conn = sqlite3.connect(db_path)
    conn.execute("alter table runs drop column reason")
    conn.commit()
    conn.close()
    log = RunLog(db_path)
    assert "reason" in log.db["runs"].columns_dict
    log.record(
        RunResult(
            run_id="r2", question="q", strategy="react", model="m", now="", status="gave_up", reason="unverified"
        ),
        [],
    )
    assert log.db.execute("select reason from runs where run_id='r2'").fetchone()[0] == "unverified"


def test_a_fresh_run_log_has_every_migration_recorded(tmp_path):
    log = RunLog(tmp_path / "fresh.db")
    names = [r["name"] for r in log.db["_migrations"].rows]
    assert names == [m.__name__ for m in MIGRATIONS]


def test_the_run_log_keeps_the_masked_thought_and_the_provenance(tmp_path):
    """One truth for a run: what the live page showed (the thought with its guess masked, the answer's provenance)
    is in the run log, and the console's run view reads it; an old run log's rows still read (raw thought)."""
    from edge_agent.agent.trajectory import StepRecord, Trial
    from edge_agent.console.history import History
    from edge_agent.grounding.provenance import Claim

    db_path = tmp_path / "edge-agent.db"
    shutil.copy(REAL, db_path)
    log = RunLog(db_path)
    step = StepRecord(
        index=1,
        thought="Chiller 9 is the one",
        action="assets",
        action_input={"site_name": "POKMAIN"},
        unverified=["Chiller 9"],
    )
    log.record(
        RunResult(
            run_id="m1",
            question="which chillers?",
            strategy="react",
            model="m",
            now="",
            status="answered",
            answer="Chiller 4",
            trials=[Trial(number=1, steps=[step])],
            provenance=[Claim(text="Chiller 4", what="name", source="observation", trial=1, step=1, tool="assets")],
        ),
        [],
    )
    run = History(db_path, tmp_path / "queue.db").run("m1")
    shown = run["trials"][0]["steps"][0]
    assert shown["shown"] == step.shown_thought and "Chiller 9" not in shown["shown"]
    assert shown["doing"] == "Calls assets with site name POKMAIN"
    assert run["claims"][0]["text"] == "Chiller 4" and run["claims"][0]["step"] == 1
    old = History(db_path, tmp_path / "queue.db")
    old_id = log.reader.runs(2)[1].run_id
    first = next((s for t in old.run(old_id)["trials"] for s in t["steps"]), None)
    assert first is None or first["shown"] == first["thought"]  # no masked copy before m004: the thought as kept


def test_the_run_log_keeps_how_the_question_was_read(tmp_path):
    from edge_agent.agent.trajectory import RunResult
    from edge_agent.grounding.frame import ReadAs

    log = RunLog(tmp_path / "r.db")
    reading = ReadAs(line="Read as: which of the pumps at S had the lowest mean Speed.", open=["order: 'sweetest'"])
    log.record(
        RunResult(run_id="r9", question="q", strategy="react", model="m", now="x", status="partial", reading=reading),
        [],
    )
    stored = json.loads(log.db.execute("select reading from runs where run_id='r9'").fetchone()[0])
    assert stored["line"] == reading.line and stored["open"] == ["order: 'sweetest'"]
