"""Group commit: requests that arrive together are stored in one transaction, and only then acknowledged.

A batch with a duplicate and malformed messages stores each request once and refuses the bad ones
alone; every PUBACK follows the commit of its message; a daemon killed -9 between the commit and the
PUBACKs gets the batch redelivered and still ends with one job and one final reply per request."""

import json
import sqlite3
import subprocess
import sys
import time

import pytest

from edge_agent import PROJECT_ROOT
from edge_agent.mqtt.protocol import AcceptedReply, ErrorReply, ResultReply
from edge_agent.mqtt.queue import JobQueue

pytestmark = pytest.mark.broker

QUESTION = "batch {} [steps=1 delay=0.01]"


def _committed(db, client_id: str, request_id: str) -> bool:
    """Seen from another connection, as after a crash: is the job on disk?"""
    with sqlite3.connect(db) as conn:
        return (
            conn.execute("SELECT 1 FROM jobs WHERE client_id=? AND request_id=?", (client_id, request_id)).fetchone()
            is not None
        )


def _send_batch(c) -> list[str]:
    """Three requests, a duplicate of the first, a non-JSON payload, a request without a question."""
    rids = [c.send(QUESTION.format(i), request_id=f"b{i}") for i in range(3)]
    c.send(QUESTION.format(0), request_id="b0")
    c.send_raw(b"not json")
    c.send_raw(json.dumps({"request_id": "m1"}).encode())
    return rids


def _wait_queued(committer, n: int, timeout: float = 10.0) -> None:
    deadline = time.monotonic() + timeout
    while committer.pending() < n and time.monotonic() < deadline:
        time.sleep(0.01)
    assert committer.pending() >= n, committer.pending()


def test_one_batch_stores_each_request_once_refuses_the_bad_ones_and_acks_after_the_commit(inproc_daemon, requester):
    svc = inproc_daemon()
    db = svc.settings.state_dir / "queue.db"
    acked_before_commit = []
    ack = svc.committer.ack

    def checked_ack(msg):
        try:
            rid = json.loads(msg.payload)["request_id"]
        except (ValueError, KeyError):
            rid = None
        if rid and not _committed(db, "c1", rid) and rid != "m1":  # m1 is refused: no job, nothing to check
            acked_before_commit.append(rid)
        ack(msg)

    svc.committer.ack = checked_ack
    c = requester("c1")
    with svc.jobs._lock:  # the committer waits for the database: the whole burst queues up behind it
        rids = _send_batch(c)
        # the committer may already hold the first message or two (drained before it blocked on the lock)
        _wait_queued(svc.committer, 4)
    for rid in rids:
        assert isinstance(c.wait(rid, timeout=20).final, ResultReply)
    assert c.wait_for(lambda: sum(isinstance(r, ErrorReply) for r in c.replies()) >= 2, 10)
    time.sleep(0.3)
    assert svc.committer.largest >= 4  # of the 6 sent together
    assert not acked_before_commit
    accepted = [r for r in c.replies("b0") if isinstance(r, AcceptedReply)]
    assert [a.duplicate for a in accepted] == [False, True]  # the duplicate was seen within the batch
    errors = sorted(r.code for r in c.replies() if isinstance(r, ErrorReply))
    assert errors == ["bad_json", "missing_field"]  # one clear error each, nothing else lost
    assert all(len(c.finals(rid)) == 1 for rid in rids)
    assert sorted(j.request_id for j in svc.jobs.jobs()) == rids


def test_a_message_that_fails_is_rolled_back_alone_kept_as_a_dead_letter_and_answered(inproc_daemon, requester):
    """A bug on one message of a batch: its insert and reply are undone, it is kept as a dead letter, its
    requester gets one `internal` error, and it is acknowledged (never left to hold the in-flight window)."""
    svc = inproc_daemon()
    handle = svc.intake._handle
    failed = []

    def buggy(conn, incoming):
        handle(conn, incoming)
        if getattr(incoming.parsed, "request_id", None) == "b1":
            failed.append(len(svc.jobs.added()))  # after its insert and its reply: both must be undone
            raise RuntimeError("a bug in the middle of a batch")

    svc.intake._handle = buggy
    c = requester("c1")
    with svc.jobs._lock:
        rids = _send_batch(c)
        _wait_queued(svc.committer, 4)
    for rid in ("b0", "b2"):
        assert isinstance(c.wait(rid, timeout=20).final, ResultReply)
    err = c.wait("b1", timeout=10).final
    # tried in the batch, which was undone, then alone in its savepoint, undone again, then kept
    assert len(failed) == 2 and isinstance(err, ErrorReply) and err.code == "internal" and err.final
    assert "dead letter 1" in err.message and "a bug in the middle of a batch" in err.message
    [dead] = svc.jobs.dead_letters()
    assert dead["topic"].endswith("/request/c1") and b'"b1"' in dead["payload"] and "RuntimeError" in dead["error"]
    assert sorted(j.request_id for j in svc.jobs.jobs()) == ["b0", "b2"]
    assert [a.duplicate for a in c.replies("b0") if isinstance(a, AcceptedReply)] == [False, True]
    assert c.wait_for(lambda: svc.jobs.outbox_size() == 0, 10)  # no reply of the undone tries was left behind
    assert rids == ["b0", "b1", "b2"]
    svc.stop(timeout=5)  # acknowledged: the broker has nothing to send the next session again
    again = inproc_daemon(svc.settings)
    time.sleep(1.0)
    assert again.committer.messages == 0 and len(again.jobs.dead_letters()) == 1


KILL_BEFORE_ACK = """
import logging, os, signal, sys, time
from edge_agent.config import load_settings
from edge_agent.mqtt.runner import ScriptRunner
from edge_agent.mqtt.service import GatewayService

logging.basicConfig(level="INFO", format="%(name)s: %(message)s")
settings = load_settings(sys.argv[1], environ={})
svc = GatewayService(settings, ScriptRunner(settings))
want, take = int(sys.argv[2]), svc.committer.take

def gather():  # hold the first batch until `want` messages wait: they share one transaction
    deadline = time.monotonic() + 20
    while svc.committer.pending() < want and time.monotonic() < deadline:
        time.sleep(0.01)
    return take()

def die(msg):  # the batch is committed; SIGKILL before the first PUBACK
    logging.info("committed %d message(s); kill -9 before the PUBACKs", svc.committer.largest)
    os.kill(os.getpid(), signal.SIGKILL)

svc.committer.take, svc.committer.ack = gather, die
svc.serve_forever()
"""


def test_kill9_between_commit_and_puback_redelivers_the_batch_and_keeps_one_job_each(daemon_process, requester):
    d = daemon_process("d1", start=False)
    with open(d.workdir / "killed.log", "wb") as log:
        proc = subprocess.Popen(
            [sys.executable, "-c", KILL_BEFORE_ACK, str(d.config), "6"],
            cwd=PROJECT_ROOT,
            env={"PYTHONPATH": str(PROJECT_ROOT), "PATH": "/usr/bin:/bin"},
            stdout=log,
            stderr=subprocess.STDOUT,
        )
        try:
            deadline = time.monotonic() + 20
            while b"connected to" not in (d.workdir / "killed.log").read_bytes():
                assert time.monotonic() < deadline and proc.poll() is None, (d.workdir / "killed.log").read_text()
                time.sleep(0.05)
            c = requester("c1", persistent=True)
            rids = _send_batch(c)
            assert proc.wait(20) == -9
        finally:
            if proc.poll() is None:
                proc.kill()
    assert "committed 6 message(s)" in (d.workdir / "killed.log").read_text()
    db = d.workdir / "state" / "queue.db"
    assert all(_committed(db, "c1", rid) for rid in rids)  # on disk, though never acknowledged

    d.start()  # the broker redelivers the whole unacknowledged batch: all duplicates now
    assert d.wait_log("connected to", 20), d.log()
    for rid in rids:
        assert isinstance(c.wait(rid, timeout=30).final, ResultReply)
    time.sleep(1.0)
    assert all(len(c.finals(rid)) == 1 for rid in rids)
    assert {r.code for r in c.replies() if isinstance(r, ErrorReply)} == {"bad_json", "missing_field"}
    d.terminate()
    assert "group commit: 6 message(s)" in d.log()  # the broker redelivered the whole unacknowledged batch
    jobs = JobQueue(db).jobs()
    assert sorted(j.request_id for j in jobs) == rids  # one job per request (the first may have started twice)
    assert all(j.state == "done" and j.final_kind == "result" for j in jobs)
    runs = [json.loads(x) for x in (d.workdir / "state" / "script-runs.jsonl").read_text().splitlines()]
    assert sorted(r["run_id"] for r in runs if r["event"] == "end") == sorted(j.job_id for j in jobs)


def test_a_burst_behind_a_running_job_gets_every_accepted_with_its_place_in_the_queue(inproc_daemon, requester):
    """Replies published by the committer itself, positions counted once per transaction: a burst of 40 into
    a queue behind a long job gets 40 `accepted`, each once, with positions 1..40 in the order of sending."""
    svc = inproc_daemon()
    c = requester("c1")
    hold = c.send("hold the worker [steps=1 delay=30]", request_id="hold")
    assert c.wait_for(lambda: any(r.kind == "progress" for r in c.replies(hold)), 20)
    rids = [c.send(QUESTION.format(i), request_id=f"q{i:02}") for i in range(40)]
    assert c.wait_for(lambda: all(c.replies(r) for r in rids), 20)
    accepted = {r: [x for x in c.replies(r) if isinstance(x, AcceptedReply)] for r in rids}
    assert all(len(a) == 1 and not a[0].duplicate for a in accepted.values())
    assert [accepted[r][0].position for r in rids] == list(range(1, 41))
    # the broker's PUBACKs, grouped, empty the outbox: nothing handed on is left waiting
    assert c.wait_for(lambda: svc.outbox.in_flight() == 0 and svc.jobs.outbox_size() == 0, 10)


def test_the_worker_lets_the_intake_store_a_backlog_before_the_next_job_but_waits_bounded(monkeypatch):
    """Issue 42: messages read and not yet stored go first (the worker waits while the committer has a backlog or is
    storing a batch), at most `INTAKE_FIRST_S` per job, and not at all when nothing waits."""
    import threading
    from types import SimpleNamespace

    from edge_agent.mqtt import worker as worker_mod

    waiting = [5]
    committer = SimpleNamespace(busy=lambda: waiting[0] > 0)
    w = worker_mod.Worker.__new__(worker_mod.Worker)
    w.gw = SimpleNamespace(committer=committer, stopping=threading.Event())
    w._beat = 0.0
    threading.Timer(0.2, lambda: waiting.__setitem__(0, 0)).start()  # the committer catches up
    t = time.monotonic()
    w._intake_first()
    assert 0.15 < time.monotonic() - t < 1.5
    waiting[0] = 7  # a backlog that never drains: the job starts all the same
    monkeypatch.setattr(worker_mod, "INTAKE_FIRST_S", 0.3)
    t = time.monotonic()
    w._intake_first()
    assert 0.25 < time.monotonic() - t < 1.5
    waiting[0] = 0
    t = time.monotonic()
    w._intake_first()
    assert time.monotonic() - t < 0.05
    w.gw.committer = None  # no group commit: nothing to wait for
    w._intake_first()


def test_a_burst_the_backlog_watcher_looks_at_late_still_turns_the_status():
    """The broker's whole queue for the session arrives in milliseconds; the watcher looks twice a second, and on a
    loaded machine later. A run near the limit that ended before its look still turns the status `degraded: session
    queue` once (it used to be missed when the look came more than 2 x BACKLOG_GAP_S after the run's last message),
    and the next look turns it back."""
    from types import SimpleNamespace

    from edge_agent.mqtt.intake import Intake
    from edge_agent.mqtt.service import QUEUE_NEAR, GatewayService

    put = []
    svc = GatewayService.__new__(GatewayService)
    svc.m = SimpleNamespace(broker_queue_limit=50)
    svc.committer = SimpleNamespace(put=put.append)
    svc.intake = Intake(svc)
    for _ in range(45):  # a burst of 45 of the broker's 50, back to back
        svc.intake.on_message(None, None, object())
    assert len(put) == 45 and svc.intake.backlog == 45
    svc.intake.backlog_at -= 5.0  # ... and the watcher's look comes seconds later
    published: list[str] = []
    svc._status, svc._outage_status, svc._queue_near = "online", "online", False
    svc.client = SimpleNamespace(publish=lambda topic, status, **kw: published.append(status))
    svc.topics = SimpleNamespace(status="edge-agent/gw1/status")
    looks = iter([False, False, True])  # two looks, then stop
    svc.stopping = SimpleNamespace(wait=lambda s: next(looks))
    svc._watch_backlog()
    assert published == [QUEUE_NEAR, "online"]
    assert svc.intake.take_backlog_peak() == 0


def test_a_batch_looks_its_requests_up_once_and_still_sees_its_own_inserts_and_finishes(tmp_path):
    """`JobQueue.prefetch` (one query for a batch's requests): `get` answers from it inside the transaction, sees a job
    the same transaction inserted or finished, and forgets everything at a savepoint's rollback and at the end. The
    audit rows (`add_row`) are written in order at the commit, those of a rolled-back part not at all."""
    from edge_agent.fleet import audit

    q = JobQueue(tmp_path / "queue.db")
    audit.ensure_schema(q._conn)

    def insert(conn, rid):
        return q.insert(
            conn,
            job_id=f"j-{rid}",
            client_id="c1",
            request_id=rid,
            question="q",
            options={},
            reply_topic="t",
            correlation=None,
            body_correlation=None,
        )

    with q.tx() as conn:
        insert(conn, "old")
    with q.tx() as conn:
        q.prefetch(conn, [("c1", "old"), ("c1", "new"), ("c1", "gone")])
        q.add_row(conn, audit.INSERT, audit.row("request", "c1", request_id="new"))
        assert q.get("c1", "old").job_id == "j-old" and q.get("c1", "new") is None
        insert(conn, "new")
        assert q.get("c1", "new").state == "queued"  # its own insert
        q.finish(conn, "j-old", "cancelled", "{}")
        assert q.get("c1", "old").state == "done"  # its own finish
        with pytest.raises(RuntimeError), q.savepoint(conn):
            insert(conn, "gone")
            q.add_row(conn, audit.INSERT, audit.row("request", "c1", request_id="gone"))
            raise RuntimeError("a message of the batch fails")
        assert q.get("c1", "gone") is None  # undone with the savepoint
        q.add_row(conn, audit.INSERT, audit.row("cancel", "c1", request_id="old"))
    assert q._known == {} and q.get("c1", "new").state == "queued"
    assert [(r["event"], r["request_id"]) for r in audit.query(q._conn)] == [("request", "new"), ("cancel", "old")]
    q.close()


def test_the_committer_is_busy_while_a_batch_is_being_stored_not_only_while_messages_wait():
    """The worker's intake-first wait looks at `busy`: with messages taken into a batch the queue is empty, but the
    intake is not done until the batch is stored (a job started then holds the database lock the batch needs)."""
    import threading

    from edge_agent.mqtt.committer import GroupCommitter

    release, seen = threading.Event(), []

    def store(batch):
        seen.append(committer.busy())  # inside the batch: nothing waits, and still busy
        release.wait(5)
        return batch

    committer = GroupCommitter(store, lambda m: None)
    assert not committer.busy()
    committer.start()
    committer.put("m1")
    deadline = time.monotonic() + 5
    while not seen and time.monotonic() < deadline:
        time.sleep(0.01)
    assert seen == [True] and committer.pending() == 0 and committer.busy()
    release.set()
    while committer.busy() and time.monotonic() < deadline:
        time.sleep(0.01)
    assert not committer.busy()
    committer.stop()


def test_between_the_bursts_of_a_backlog_the_committer_stays_busy_a_moment_but_not_after_a_lone_request(monkeypatch):
    from edge_agent.mqtt import committer as committer_mod

    committer = committer_mod.GroupCommitter(lambda batch: batch, lambda m: None, max_batch=50)
    committer.start()
    try:
        for i in range(120):  # a backlog, in batches of 50
            committer.put(i)
        deadline = time.monotonic() + 5
        while committer.messages < 120 and time.monotonic() < deadline:
            time.sleep(0.001)
        assert committer.pending() == 0 and committer.busy()  # the next burst may come: not yet done
        time.sleep(committer_mod.RUN_GAP_S * 2)
        assert not committer.busy()  # the broker has paused: done
        committer.put("lone")
        while committer.messages < 121 and time.monotonic() < deadline:
            time.sleep(0.001)
        assert not committer.busy()  # a lone request never makes the worker wait once it is stored
    finally:
        committer.stop()
