"""The daemon against faults outside it (issue 26), with real parts: Mosquitto, the SkySpark simulator over HTTP
stopped and started again on its port, SQLite's own "database or disk is full". The job runs through the
scripted runner's `skyspark=1` step, a real SkySpark call (edge_agent/mqtt/runner.py): the agent's own handling
of the same failures is tested in tests/test_faults_agent.py. Every request gets exactly one final reply."""

from __future__ import annotations

import threading
import time

import pytest

from edge_agent.config import load_settings
from edge_agent.mqtt.protocol import CancelledReply, ErrorReply, ProgressReply, ResultReply
from tests.plugins.mqtt import mqtt_overrides

pytestmark = pytest.mark.broker


class Simulator:
    """The simulator on a fixed port, stopped and started again like a SkySpark server being restarted."""

    def __init__(self):
        from tests.plugins.skyspark import SIM_PASSWORD, SIM_PROJECT, SIM_USER

        self.project, self.username, self.password = SIM_PROJECT, SIM_USER, SIM_PASSWORD
        self.server = None
        self.port = 0
        self.start()

    def start(self) -> None:
        from edge_agent.skyspark.simulator import SimulatorServer

        self.server = SimulatorServer(
            ("127.0.0.1", self.port), project=self.project, users={self.username: self.password}
        )
        self.port = self.server.server_address[1]
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def stop(self) -> None:
        self.server.shutdown()
        self.server.server_close()

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"


@pytest.fixture
def sim():
    s = Simulator()
    yield s
    try:
        s.stop()
    except Exception:
        pass


@pytest.fixture
def daemon(tmp_path, mosquitto, sim):
    """Factory: the daemon (script runner) reading `sim`, waiting out outages `wait_s` long."""
    from edge_agent.mqtt.runner import ScriptRunner
    from edge_agent.mqtt.service import GatewayService

    made = []

    def start(wait_s: float = 20.0, retry_s: float = 0.5, state: str = "state"):
        overrides = mqtt_overrides(tmp_path / state, mosquitto)
        overrides["skyspark"] = {
            "url": sim.url,
            "project": sim.project,
            "username": sim.username,
            "password": sim.password,
            "retries": 0,
            "timeout_s": 2,
            "outage_wait_s": wait_s,
            "outage_retry_s": retry_s,
        }
        settings = load_settings(overrides=overrides, environ={})
        svc = GatewayService(settings, ScriptRunner(settings))
        svc.start()
        made.append(svc)
        assert svc.connected.wait(10)
        return svc

    yield start
    for svc in made:
        if not svc.stopping.is_set():
            svc.stop(timeout=5)


def waiting(client, rid) -> list[ProgressReply]:
    return [r for r in client.replies(rid) if isinstance(r, ProgressReply) and r.event == "waiting"]


def test_a_job_waits_out_a_short_outage_and_the_jobs_behind_it_keep_their_order(daemon, requester, sim):
    """The SkySpark is down before the run: the job is kept (a `waiting` progress saying until when, the retained
    status `degraded: skyspark`), the job behind it waits too, and once the server is back both are answered,
    in order, once each; the status is `online` again."""
    svc = daemon()
    c = requester("c1")
    sim.stop()
    first = c.send("needs the skyspark [skyspark=1 steps=2]")
    second = c.send("behind it [skyspark=1 steps=1]")
    assert c.wait_for(lambda: waiting(c, first), 15), c.replies(first)
    note = waiting(c, first)[0]
    assert "waiting for the SkySpark until" in note.text and "Connection refused" in note.text and note.until
    assert c.wait_for(lambda: c.status.get(svc.topics.status) == "degraded: skyspark", 5), c.status
    time.sleep(1.5)
    assert not c.finals(first) and not c.finals(second) and svc.jobs.get("c1", second).state == "queued"
    sim.start()
    out1, out2 = c.wait(first, timeout=20), c.wait(second, timeout=20)
    assert isinstance(out1.final, ResultReply) and out1.final.status == "answered"
    assert isinstance(out2.final, ResultReply) and out2.final.status == "answered"
    assert len(c.finals(first)) == 1 and len(c.finals(second)) == 1
    done = {j.request_id: j for j in svc.jobs.jobs()}
    assert done[first].seq < done[second].seq and not waiting(c, second)  # the outage was over when it ran
    assert c.wait_for(lambda: c.status.get(svc.topics.status) == "online", 5)


def test_an_outage_during_a_run_is_waited_out_too(daemon, requester, sim):
    svc = daemon()
    c = requester("c1")
    rid = c.send("slow start [steps=3 delay=0.6 skyspark=1]")
    threading.Timer(0.2, sim.stop).start()  # stops while the first step waits
    assert c.wait_for(lambda: waiting(c, rid), 15), c.replies(rid)
    sim.start()
    out = c.wait(rid, timeout=20)
    assert isinstance(out.final, ResultReply) and out.final.status == "answered" and len(c.finals(rid)) == 1
    assert svc.jobs.get("c1", rid).attempts == 1  # run again in the same attempt, not resumed as after a crash


def test_past_the_deadline_each_job_gets_one_error_and_later_ones_fail_at_once(daemon, requester, sim):
    """The outage outlasts `skyspark.outage_wait_s`: one `skyspark_unavailable` error naming the server; a job
    queued behind it, or sent afterwards, is not run (the SkySpark is asked first) and gets its error at once."""
    svc = daemon(wait_s=2.0, retry_s=0.5)
    c = requester("c1")
    sim.stop()
    first = c.send("needs the skyspark [skyspark=1]")
    second = c.send("behind it [skyspark=1]")
    out = c.wait(first, timeout=15)
    assert isinstance(out.final, ErrorReply) and out.final.code == "skyspark_unavailable", out.final
    assert sim.url.split("//")[1] in out.final.message and "waited 2 s" in out.final.message
    out2 = c.wait(second, timeout=10)
    assert isinstance(out2.final, ErrorReply) and out2.final.code == "skyspark_unavailable"
    ran = (svc.settings.state_dir / "script-runs.jsonl").read_text()
    assert "behind it" not in ran  # never run: the SkySpark was asked first
    late = c.send("after the deadline [skyspark=1]")
    assert c.wait(late, timeout=10).final.code == "skyspark_unavailable"
    assert all(len(c.finals(r)) == 1 for r in (first, second, late))
    sim.start()
    back = c.send("back again [skyspark=1]")
    assert isinstance(c.wait(back, timeout=15).final, ResultReply)
    assert c.wait_for(lambda: c.status.get(svc.topics.status) == "online", 5)


def test_a_cancel_while_waiting_ends_the_job_cancelled(daemon, requester, sim):
    daemon()
    c = requester("c1")
    sim.stop()
    rid = c.send("needs the skyspark [skyspark=1]")
    assert c.wait_for(lambda: waiting(c, rid), 15)
    c.cancel(rid)
    out = c.wait(rid, timeout=10)
    assert isinstance(out.final, CancelledReply) and len(c.finals(rid)) == 1


def test_a_stop_while_waiting_resumes_the_job_and_its_wait_counts_on(daemon, requester, sim):
    """The daemon stops during the wait: the job is kept, and after the restart its deadline is still the one
    counted from the outage's start (not a fresh wait)."""
    svc = daemon(wait_s=4.0, retry_s=0.5)
    c = requester("c1", persistent=True)
    sim.stop()
    rid = c.send("needs the skyspark [skyspark=1]")
    assert c.wait_for(lambda: waiting(c, rid), 15)
    since = svc.jobs.get("c1", rid).outage_since if hasattr(svc.jobs.get("c1", rid), "outage_since") else None
    svc.stop(timeout=5)
    assert not c.finals(rid)
    time.sleep(2.5)
    again = daemon(wait_s=4.0, retry_s=0.5)
    out = c.wait(rid, timeout=15)
    assert isinstance(out.final, ErrorReply) and out.final.code == "skyspark_unavailable"
    row = again.jobs._one("SELECT outage_since, finished FROM jobs WHERE request_id=?", (rid,))
    assert row["finished"] - row["outage_since"] < 6.5  # 4 s counted from the first failure, not from the restart
    assert since is None or since == row["outage_since"]


def test_a_full_queue_database_holds_the_final_reply_until_there_is_space(daemon, requester, sim):
    """SQLite refuses to grow the queue database (its page limit: "database or disk is full", as a full disk
    says): the running job's answer (a 400 kB file) is held, not lost, not sent half-written; a request that
    arrives meanwhile is stored if its row still fits, else refused with `not_stored` at once; once there is
    space, the held answer is stored and sent exactly once, and the daemon answers again."""
    svc = daemon()
    c = requester("c1")
    rid = c.send("a big answer [steps=2 delay=0.5 file=400000]")
    assert c.wait_for(lambda: any(r.kind == "progress" for r in c.replies(rid)), 10)
    conn = svc.jobs._conn
    with svc.jobs._lock:
        used = conn.execute("PRAGMA page_count").fetchone()[0]
        conn.execute(f"PRAGMA max_page_count = {used}")
    meanwhile = c.send("while full [steps=1]")
    assert c.wait_for(lambda: c.replies(meanwhile), 10)
    refused = isinstance(c.replies(meanwhile)[0], ErrorReply)
    if refused:
        assert c.replies(meanwhile)[0].code == "not_stored" and svc.jobs.get("c1", meanwhile) is None
    assert c.wait_for(
        lambda: any(r.kind == "progress" and "the reply is sent once there is space" in r.text for r in c.replies(rid)),
        15,
    ), c.replies(rid)
    assert not c.finals(rid) and svc.healthy()
    with svc.jobs._lock:
        conn.execute("PRAGMA max_page_count = 1073741823")
    final = c.wait(rid, timeout=20, out_dir=None)
    assert isinstance(final.final, ResultReply) and final.final.files[0].size == 400000
    assert len(c.finals(rid)) == 1
    if not refused:  # it was stored: it runs after the held job, once
        assert isinstance(c.wait(meanwhile, timeout=15).final, ResultReply) and len(c.finals(meanwhile)) == 1
    assert isinstance(c.wait(c.send("room again [steps=1]"), timeout=15).final, ResultReply)


def test_a_broker_down_longer_than_the_keepalive_loses_no_reply_and_the_watchdog_is_fed(daemon, requester, mosquitto):
    """Mosquitto is down for three keepalives while a job runs: the daemon keeps reconnecting, stays healthy (the
    watchdog is fed), and every reply goes out once it is back."""
    svc = daemon()
    c = requester("c1", persistent=True)
    rid = c.send("long job [steps=4 delay=1.0]")
    assert c.wait_for(lambda: any(r.kind == "accepted" for r in c.replies(rid)), 10)
    health = []
    stop = threading.Event()

    def watch():
        while not stop.wait(0.2):
            health.append(svc.healthy())

    threading.Thread(target=watch, daemon=True).start()
    mosquitto.stop()
    time.sleep(svc.settings.mqtt.keepalive_s * 3)
    assert not svc.connected.is_set()
    mosquitto.start()
    out = c.wait(rid, timeout=40)
    stop.set()
    assert isinstance(out.final, ResultReply) and len(c.finals(rid)) == 1
    assert health and all(health), "the watchdog would have been starved"
    steps = [r.step for r in c.replies(rid) if isinstance(r, ProgressReply) and r.event == "step"]
    assert sorted(set(steps)) == [1, 2, 3, 4]


def test_a_broker_unreachable_at_start_is_waited_for(tmp_path, mosquitto, requester):
    """The daemon starts (READY: model and database open) while Mosquitto is down, keeps trying, and answers
    once the broker is up."""
    from edge_agent.mqtt.runner import ScriptRunner
    from edge_agent.mqtt.service import GatewayService

    mosquitto.stop()
    settings = load_settings(overrides=mqtt_overrides(tmp_path / "late", mosquitto), environ={})
    svc = GatewayService(settings, ScriptRunner(settings))
    svc.start()
    try:
        time.sleep(3.0)
        assert not svc.connected.is_set() and svc.healthy()
        mosquitto.start()
        assert svc.connected.wait(40)
        c = requester("c1")
        assert isinstance(c.wait(c.send("hello [steps=1]"), timeout=15).final, ResultReply)
    finally:
        svc.stop(timeout=5)
