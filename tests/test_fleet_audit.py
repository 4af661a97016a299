"""The audit trail (docs/audit.md): rows for requests, cancels, Agent-Ask answers and outcomes, written with the
daemon's own commits, kept across a kill -9 of the real daemon process, exported by `edge-agent audit`."""

import csv
import io
import json
import sqlite3
import subprocess
import sys
import time

import pytest

from edge_agent import PROJECT_ROOT
from edge_agent.fleet import audit
from edge_agent.mqtt.protocol import CancelledReply, ResultReply


def _cli(*args) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "edge_agent", "audit", *args],
        cwd=PROJECT_ROOT,
        capture_output=True,
        text=True,
        env={"PYTHONPATH": str(PROJECT_ROOT), "PATH": "/usr/bin:/bin"},
        timeout=60,
    )


def test_request_options_hold_no_secret_field():
    from edge_agent.mqtt.protocol import RequestOptions

    assert not [name for name in RequestOptions.model_fields if audit.SECRET_KEY.search(name)]


def test_sqlite_utils_is_imported_only_to_create_the_table_or_to_query_it(tmp_path):
    """A daemon whose audit table exists never imports sqlite-utils (with numpy ~0.2 s of CPU before a restart's first
    reply, issue 42): not with the daemon's modules, not to check the schema; creating the table and `query` do."""
    db = tmp_path / "q.db"
    script = f"""
import sqlite3, sys
import edge_agent.commands.daemon, edge_agent.mqtt.service
from edge_agent.fleet import audit
assert "sqlite_utils" not in sys.modules, "imported with the daemon"
conn = sqlite3.connect({str(db)!r}, isolation_level=None)
audit.ensure_schema(conn)
print("created", "sqlite_utils" in sys.modules)
"""
    run = [sys.executable, "-c", script]
    env = {"PYTHONPATH": str(PROJECT_ROOT), "PATH": "/usr/bin:/bin"}
    first = subprocess.run(run, capture_output=True, text=True, env=env, timeout=60, cwd=PROJECT_ROOT)
    assert first.stdout.strip() == "created True", first.stderr  # a new table: made with sqlite-utils
    again = subprocess.run(run, capture_output=True, text=True, env=env, timeout=60, cwd=PROJECT_ROOT)
    assert again.stdout.strip() == "created False", again.stderr  # it exists: nothing imported
    conn = sqlite3.connect(db, isolation_level=None)
    audit.ensure_schema(conn)
    audit.record(conn, "request", "c1", request_id="r1", outcome="accepted", now=1.0)
    assert [(r["who"], r["request_id"]) for r in audit.query(conn)] == [("c1", "r1")]


def test_rows_are_append_only_secret_free_and_pruned(tmp_path):
    conn = sqlite3.connect(tmp_path / "q.db", isolation_level=None)
    audit.ensure_schema(conn)
    audit.ensure_schema(conn)  # idempotent
    audit.record(
        conn,
        "request",
        "ops1",
        request_id="r1",
        question="q",
        options={"strategy": "react", "api_token": "t0ken", "password": "pw"},
        outcome="accepted",
        now=time.time() - 10 * 86400,
    )
    audit.record(conn, "final", "ops1", request_id="r1", outcome="answered", files=["a.json"])
    (old, new) = audit.query(conn)
    assert json.loads(old["options"]) == {"strategy": "react"}  # nothing that looks like a secret is kept
    assert json.loads(new["files"]) == ["a.json"]
    with pytest.raises(sqlite3.IntegrityError, match="append-only"):
        conn.execute("UPDATE audit SET outcome='answered' WHERE id=?", (old["id"],))
    assert [r["event"] for r in audit.query(conn, who="ops1", since=time.time() - 86400)] == ["final"]
    assert audit.prune(conn, 7) == 1 and audit.prune(conn, 0) == 0
    assert [r["request_id"] for r in audit.query(conn)] == ["r1"]


@pytest.mark.broker
def test_audit_rows_survive_kill9_and_export_as_csv(daemon_process, requester):
    d = daemon_process("d1")
    c = requester("ops1")
    # 1: answered, with an Agent-Ask question answered by the requester
    rid = c.send("count chillers [steps=2 ask=1]", request_id="r-ask", options={"ask": True})
    out = c.wait(rid, timeout=30, answer=lambda q: "POKMAIN", fetch_files=False)
    assert isinstance(out.final, ResultReply)
    # 2: one job holds the worker; the next is cancelled while queued; a duplicate of the first
    c.send("hold the worker [steps=1 delay=60]", request_id="r-hold")
    c.send("never runs [steps=1]", request_id="r-cancel")
    assert c.wait_for(lambda: any(r.kind == "accepted" for r in c.replies("r-cancel")), 10)
    c.cancel("r-cancel")
    assert c.wait_for(lambda: any(isinstance(r, CancelledReply) for r in c.finals("r-cancel")), 10)
    c.send("count chillers [steps=2 ask=1]", request_id="r-ask", options={"ask": True})  # gets the stored final
    db = d.workdir / "state" / "queue.db"
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline and "duplicate" not in _cli("--db", str(db)).stdout:
        time.sleep(0.2)
    d.kill()  # SIGKILL: whatever was acknowledged is on disk, audit rows included

    run = _cli("--db", str(db), "--format", "csv")
    assert run.returncode == 0, run.stderr
    rows = list(csv.DictReader(io.StringIO(run.stdout)))
    seen = [(r["event"], r["request_id"], r["outcome"]) for r in rows]
    assert seen == [
        ("request", "r-ask", "accepted"),
        ("answer", "r-ask", "delivered"),
        ("final", "r-ask", "answered"),
        ("request", "r-hold", "accepted"),
        ("request", "r-cancel", "accepted"),
        ("cancel", "r-cancel", "queued"),
        ("final", "r-cancel", "cancelled"),
        ("request", "r-ask", "duplicate"),
    ], seen
    assert all(r["who"] == "ops1" for r in rows)
    assert rows[0]["question"] == "count chillers [steps=2 ask=1]" and json.loads(rows[0]["options"])["ask"] is True
    assert rows[1]["detail"] == "POKMAIN"
    assert rows[2]["files"] == ""  # this run wrote no file (the held job below: none either)
    assert rows[6]["cancelled_by"] == "ops1"

    # filters: by requester and by time; JSON lines
    assert _cli("--db", str(db), "--who", "nobody", "--format", "csv").stdout.count("\n") == 1  # the header only
    lines = _cli("--db", str(db), "--event", "final", "--since", "1h", "--format", "jsonl").stdout.splitlines()
    assert [json.loads(x)["request_id"] for x in lines] == ["r-ask", "r-cancel"]
    assert _cli("--db", str(db), "--until", "2000-01-01", "--format", "jsonl").stdout == ""

    # the restarted daemon appends to the same trail: the held job resumes and ends
    d.start()
    assert d.wait_log("connected to", 20), d.log()
    c.cancel("r-hold")
    assert c.wait_for(lambda: any(isinstance(r, CancelledReply) for r in c.finals("r-hold")), 20)
    d.terminate()
    finals = [json.loads(x) for x in _cli("--db", str(db), "--event", "final", "--format", "jsonl").stdout.splitlines()]
    assert [(f["request_id"], f["outcome"], f["cancelled_by"]) for f in finals][-1] == ("r-hold", "cancelled", "ops1")
