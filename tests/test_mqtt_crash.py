"""Exactly one final answer per request while the daemon (a subprocess) is killed -9 at different points,
the broker is crashed and restarted from its persistence, and requests are sent twice."""

import json
import time

import pytest

from edge_agent.mqtt.protocol import ResultReply
from edge_agent.mqtt.queue import JobQueue

pytestmark = pytest.mark.broker


def _restart(d, timeout=20):
    d.start()
    assert d.wait_log("connected to", timeout), d.log()


def _runs(d):
    path = d.workdir / "state" / "script-runs.jsonl"
    return [json.loads(x) for x in path.read_text().splitlines()] if path.exists() else []


def test_kill9_broker_crash_and_duplicates_still_give_exactly_one_final(daemon_process, requester, mosquitto):
    d = daemon_process("d1")
    assert d.wait_log("objects frozen", 5), d.log()  # full collections skip what start-up built
    c = requester("c1", persistent=True)
    watcher = requester("w1")
    assert watcher.wait_for(lambda: watcher.status.get("edge-agent/gw1/status") == "online", 5)
    q = "job {} [steps=4 delay=0.15 file=20000]"
    rids = [c.send(q.format(i), request_id=f"r{i}") for i in range(4)]

    # 1: kill in the middle of the first job (after its second step)
    assert c.wait_for(lambda: sum(r.kind == "progress" for r in c.replies("r0")) >= 3, 15)
    d.kill()
    assert watcher.wait_for(lambda: watcher.status.get("edge-agent/gw1/status") == "offline", 5)  # Last Will
    rids.append(c.send(q.format(4), request_id="r4"))  # sent while the daemon is down: the broker keeps it
    _restart(d)

    # 2: kill right after a job stored its result (its reply may still be in the outbox)
    assert d.wait_log("finished: result", 20), d.log()
    d.kill()
    c.send(q.format(1), request_id="r1")  # a client retry of a request that is queued or done
    _restart(d)

    # 3: crash the broker (SIGKILL) mid-job; its persistence keeps the sessions and queued messages
    assert c.wait_for(lambda: sum(1 for rid in rids if c.finals(rid)) >= 2, 20)
    mosquitto.restart(crash=True, down_s=0.5)

    # 4: kill the daemon immediately after a burst of new requests (some not yet acked by it)
    more = [c.send(q.format(i), request_id=f"r{i}") for i in range(5, 8)]
    rids += more
    time.sleep(0.05)
    d.kill()
    _restart(d)

    # 5: duplicate sends of everything
    for i in range(8):
        c.send(q.format(i), request_id=f"r{i}")

    for rid in rids:
        out = c.wait(rid, timeout=60, out_dir=d.workdir / "out")
        assert isinstance(out.final, ResultReply) and out.final.status == "answered", out.final
    time.sleep(1.0)  # let any late copies arrive
    for rid in rids:
        finals = c.finals(rid)
        assert len(finals) == 1, (rid, finals)  # every copy carries the same reply_id
        assert finals[0].reply_id.endswith(".final")
    d.terminate()
    jobs = JobQueue(d.workdir / "state" / "queue.db").jobs()
    assert sorted(j.request_id for j in jobs) == sorted(rids)  # one job per request, never two
    assert all(j.state == "done" and j.final_kind == "result" for j in jobs)
    assert any(j.attempts > 1 for j in jobs)  # at least one job was resumed after a kill
    ends = [r for r in _runs(d) if r["event"] == "end"]
    assert {r["run_id"] for r in ends} == {j.job_id for j in jobs}


def test_sigterm_interrupts_the_job_publishes_offline_and_resumes_it(daemon_process, requester):
    d = daemon_process("d1")
    assert d.wait_log("objects frozen", 5), d.log()  # full collections skip what start-up built
    c = requester("c1", persistent=True)
    watcher = requester("w1")
    rid = c.send("long [steps=6 delay=0.3]")
    assert c.wait_for(lambda: sum(r.kind == "progress" for r in c.replies(rid)) >= 2, 15)
    assert d.terminate() == 0
    assert "resumes at the next start" in d.log()
    assert watcher.wait_for(lambda: watcher.status.get("edge-agent/gw1/status") == "offline", 5)
    assert not c.finals(rid)
    _restart(d)
    assert watcher.wait_for(lambda: watcher.status.get("edge-agent/gw1/status") == "online", 10)
    out = c.wait(rid, timeout=30)
    assert isinstance(out.final, ResultReply)
    attempts = {r.attempt for r in out.replies if r.kind == "progress"}
    assert attempts == {1, 2}
