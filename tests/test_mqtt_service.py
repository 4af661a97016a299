"""The daemon against a real Mosquitto, with the deterministic ScriptRunner: the request life cycle,
files, bad input, duplicates, cancel, agentask, the outbox across a broker outage, status, scale-out."""

import hashlib
import json
import threading
import time

import paho.mqtt.client as mqtt
import pytest
from paho.mqtt.enums import CallbackAPIVersion

from edge_agent.config import load_settings
from edge_agent.mqtt.protocol import (
    AcceptedReply,
    CancelledReply,
    ErrorReply,
    ProgressReply,
    QuestionReply,
    ResultReply,
    is_final,
)
from tests.plugins.mqtt import BROKER_MAX_PACKET, DAEMON_USER, as_user, mqtt_overrides

pytestmark = pytest.mark.broker


def test_request_gets_accepted_progress_result_and_checked_files(inproc_daemon, requester, tmp_path):
    svc = inproc_daemon()
    c = requester("c1")
    rid = c.send("count chillers [steps=3 delay=0.01 file=300000]", correlation=b"corr-42")
    out = c.wait(rid, timeout=20, out_dir=tmp_path / "out")
    kinds = [r.kind for r in out.replies]
    assert kinds[0] == "accepted" and kinds[-1] == "result"
    steps = [r for r in out.replies if isinstance(r, ProgressReply) and r.event == "step"]
    assert [s.step for s in steps] == [1, 2, 3] and all(s.thought and s.action for s in steps)
    res = out.final
    assert isinstance(res, ResultReply) and res.status == "answered" and "count chillers" in res.answer
    (entry,) = res.files
    # chunks follow the broker's Maximum Packet Size from CONNACK, not the larger configured file_chunk_bytes
    assert svc.max_packet == BROKER_MAX_PACKET and entry.chunk_bytes < BROKER_MAX_PACKET < 262144
    assert entry.chunks == -(-300000 // entry.chunk_bytes) and entry.chunks >= 3
    (path,) = out.files
    data = path.read_bytes()
    assert len(data) == 300000 and hashlib.sha256(data).hexdigest() == entry.sha256
    stored = (svc.settings.files_dir / res.run_id / entry.name).read_bytes()
    assert stored == data


def test_v5_correlation_data_is_copied_back(inproc_daemon, mqtt_settings, mosquitto):
    inproc_daemon()
    got = []
    sub = mqtt.Client(CallbackAPIVersion.VERSION2, client_id="raw1", protocol=mqtt.MQTTv5)
    sub.on_message = lambda c, u, m: got.append(
        (m.topic, json.loads(m.payload), getattr(m.properties, "CorrelationData", None))
    )
    sub.connect(mosquitto.host, mosquitto.port)
    sub.loop_start()
    sub.subscribe("edge-agent/gw1/response/raw1/#", qos=1)
    time.sleep(0.3)
    from paho.mqtt.packettypes import PacketTypes
    from paho.mqtt.properties import Properties

    props = Properties(PacketTypes.PUBLISH)
    props.ResponseTopic = "edge-agent/gw1/response/raw1/mine"
    props.CorrelationData = b"\x00\x01binary"
    sub.publish(
        "edge-agent/gw1/request/raw1",
        json.dumps({"request_id": "r1", "question": "q [steps=1]"}),
        qos=1,
        properties=props,
    )
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline and not any(p["kind"] == "result" for _, p, _ in got):
        time.sleep(0.05)
    sub.loop_stop()
    sub.disconnect()
    assert got and all(t == "edge-agent/gw1/response/raw1/mine" for t, _, _ in got)
    assert all(c == b"\x00\x01binary" for _, _, c in got)
    assert [p["kind"] for _, p, _ in got][-1] == "result"


def test_mqtt311_client_uses_reply_to_in_the_body(inproc_daemon, mosquitto):
    inproc_daemon()
    got = []
    c = mqtt.Client(CallbackAPIVersion.VERSION2, client_id="old1", protocol=mqtt.MQTTv311)
    c.on_message = lambda cl, u, m: got.append((m.topic, json.loads(m.payload)))
    c.connect(mosquitto.host, mosquitto.port)
    c.loop_start()
    c.subscribe("edge-agent/gw1/response/old1/#", qos=1)
    time.sleep(0.3)
    c.publish(
        "edge-agent/gw1/request/old1",
        json.dumps(
            {
                "request_id": "r1",
                "question": "q [steps=1]",
                "reply_to": "edge-agent/gw1/response/old1/inbox",
                "correlation": "abc",
            }
        ),
        qos=1,
    )
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline and not any(p["kind"] == "result" for _, p in got):
        time.sleep(0.05)
    c.loop_stop()
    assert got and {t for t, _ in got} == {"edge-agent/gw1/response/old1/inbox"}
    assert all(p["correlation"] == "abc" for _, p in got)


def test_bad_input_gets_coded_errors_and_the_daemon_keeps_serving(inproc_daemon, requester, mosquitto):
    svc = inproc_daemon()
    c = requester("c1")
    snoop = requester("c2")  # another client: must never see c1's errors
    cases = [
        (b"not json", None, "bad_json"),
        (b'{"request_id": 5, "question": "q"}', None, "invalid_field"),
        (b'{"request_id": "m1"}', None, "missing_field"),
        (json.dumps({"request_id": "e1", "question": " "}).encode(), None, "question_empty"),
        (json.dumps({"request_id": "big", "question": "x" * 100_000}).encode(), None, "payload_too_large"),
        (json.dumps({"request_id": "long", "question": "x" * 5000}).encode(), None, "question_too_long"),
        (json.dumps({"request_id": "o1", "question": "q", "options": {"gpu": True}}).encode(), None, "unknown_option"),
        (
            json.dumps({"request_id": "t1", "question": "q"}).encode(),
            "edge-agent/gw1/response/c2/steal",
            "bad_response_topic",
        ),
        (json.dumps({"request_id": "t2", "question": "q"}).encode(), "edge-agent/gw1/status", "bad_response_topic"),
        (
            json.dumps({"request_id": "t3", "question": "q", "reply_to": "somewhere/else"}).encode(),
            None,
            "bad_response_topic",
        ),
        (json.dumps({"request_id": "t4", "question": "q", "reply_to": ""}).encode(), None, "bad_response_topic"),
        (b'{"request_id": "s1", "question": "\\ud800"}', None, "invalid_field"),
    ]
    for payload, topic, _ in cases:
        c.send_raw(payload, response_topic=topic)
    assert c.wait_for(lambda: sum(1 for r in c.replies() if r.kind == "error") >= len(cases), 15), c.replies()
    errors = [r for r in c.replies() if isinstance(r, ErrorReply)]
    assert sorted(e.code for e in errors) == sorted(code for _, _, code in cases)
    assert all(len(e.message) > 15 for e in errors)
    refused = [e for e in errors if e.code == "bad_response_topic"]
    assert all("default" in e.message for e in refused)
    assert not snoop.replies()  # nothing was published into c2's subtree
    assert not any(j.request_id in {"t1", "t2", "t3", "t4", "s1"} for j in svc.jobs.jobs())
    rid = c.send("still there? [steps=1]")
    assert isinstance(c.wait(rid, timeout=10).final, ResultReply)


def test_duplicate_request_id_never_runs_twice(inproc_daemon, requester, mqtt_settings, tmp_path):
    svc = inproc_daemon()
    c = requester("c1")
    rid = c.send("slow one [steps=3 delay=0.2 file=1000]", request_id="dup-1")
    c.send("slow one [steps=3 delay=0.2 file=1000]", request_id="dup-1")  # while queued/running
    first = c.wait(rid, timeout=20).final
    n = c.raw_count[rid]
    c.send("slow one [steps=3 delay=0.2 file=1000]", request_id="dup-1")  # after it finished
    assert c.wait_for(lambda: c.raw_count[rid] >= n + 1, 5)
    time.sleep(0.3)
    accepted = [r for r in c.replies(rid) if isinstance(r, AcceptedReply)]
    assert [a.duplicate for a in accepted] == [False, True]
    assert len(c.finals(rid)) == 1 and c.raw_count[rid] > len(c.replies(rid))  # the resend got the same reply
    runs = [json.loads(line) for line in (mqtt_settings.state_dir / "script-runs.jsonl").read_text().splitlines()]
    assert sum(1 for r in runs if r["event"] == "start") == 1
    assert len(svc.jobs.jobs()) == 1 and first.reply_id.endswith(".final")
    c.close()  # a fresh requester (same client id) retries: it gets the stored result and the files again
    again = requester("c1")
    again.send("slow one [steps=3 delay=0.2 file=1000]", request_id="dup-1")
    out = again.wait(rid, timeout=10, out_dir=tmp_path / "again")
    assert out.final.reply_id == first.reply_id and len(out.files) == 1
    assert out.files[0].stat().st_size == 1000


def test_cancel_running_and_queued_jobs_of_the_same_client_only(inproc_daemon, requester):
    inproc_daemon()
    a, b = requester("alice"), requester("bob")
    running = a.send("long [steps=50 delay=0.2]")
    queued = a.send("next [steps=1]")
    bobs = b.send("bob's [steps=2 delay=0.1]")
    assert a.wait_for(lambda: any(isinstance(r, ProgressReply) for r in a.replies(running)), 10)
    b.cancel(running)  # bob cannot cancel alice's request: unknown for him
    assert b.wait_for(
        lambda: any(isinstance(r, ErrorReply) and r.code == "unknown_request" for r in b.replies(running)), 10
    )
    a.cancel(queued)
    a.cancel(running)
    assert isinstance(a.wait(running, timeout=10).final, CancelledReply)
    assert isinstance(a.wait(queued, timeout=10).final, CancelledReply)
    assert isinstance(b.wait(bobs, timeout=10).final, ResultReply)
    steps = [r for r in a.replies(running) if isinstance(r, ProgressReply) and r.event == "step"]
    assert len(steps) < 50
    a.cancel(queued)  # cancelling a finished request returns its stored outcome, not a second one
    time.sleep(0.5)
    assert len(a.finals(queued)) == 1


def test_agentask_question_is_answered_by_the_requester(inproc_daemon, requester):
    inproc_daemon()
    c = requester("c1")
    rid = c.send("which chillers [steps=2 ask=1]", options={"ask": True})
    out = c.wait(rid, timeout=15, answer=lambda q: "POKMAIN")
    (q,) = [r for r in out.replies if isinstance(r, QuestionReply)]
    assert "Which site" in q.question and q.timeout_s == 3.0
    assert "requester said: POKMAIN" in out.final.answer


def test_agentask_without_a_reply_times_out_and_the_job_continues(inproc_daemon, requester):
    inproc_daemon()
    c = requester("c1")
    rid = c.send("which chillers [steps=2 ask=1]", options={"ask": True})
    t0 = time.monotonic()
    out = c.wait(rid, timeout=20)
    assert time.monotonic() - t0 >= 2.5  # waited for the 3 s ask timeout
    obs = [r.observation for r in out.replies if isinstance(r, ProgressReply) and r.action == "agentask"]
    assert obs and "did not reply" in obs[0]
    assert isinstance(out.final, ResultReply) and out.final.status == "answered"
    c.answer(rid, "too late")
    assert c.wait_for(
        lambda: any(isinstance(r, ErrorReply) and r.code == "no_question_pending" for r in c.replies(rid)), 10
    )
    assert len(c.finals(rid)) == 1  # the late answer's error is not a second outcome


def test_replies_wait_in_the_outbox_while_the_broker_is_down(inproc_daemon, requester, mosquitto):
    svc = inproc_daemon()
    c = requester("c1", persistent=True)
    rid = c.send("survive [steps=4 delay=0.5 file=50000]")
    assert c.wait_for(lambda: any(r.kind == "progress" for r in c.replies(rid)), 10)
    mosquitto.stop()
    time.sleep(2.5)  # the job finishes while the broker is down
    assert svc.jobs.by_id(svc.jobs.jobs()[0].job_id).state == "done"
    assert svc.jobs.outbox_size() > 0
    mosquitto.start()
    out = c.wait(rid, timeout=30, out_dir=mosquitto.workdir / "out")
    assert isinstance(out.final, ResultReply) and len(out.files) == 1
    assert c.wait_for(lambda: svc.jobs.outbox_size() == 0, 10)


@pytest.mark.parametrize("reply_connection", [True, False])
def test_replies_go_out_on_their_own_connection_or_on_the_session(
    reply_connection, inproc_daemon, requester, mosquitto, tmp_path
):
    settings = load_settings(
        overrides=mqtt_overrides(tmp_path / "state", mosquitto, reply_connection=reply_connection), environ={}
    )
    svc = inproc_daemon(settings)
    assert (svc.replies is not svc.client) == reply_connection and svc.outbox.client is svc.replies
    c = requester("c1")
    rid = c.send("two ways [steps=2 file=200000]")
    out = c.wait(rid, timeout=20, out_dir=tmp_path / "out")
    kinds = [r.kind for r in out.replies]
    assert kinds[0] == "accepted" and kinds[-1] == "result" and kinds.count("result") == 1, kinds
    assert [r.step for r in out.replies if isinstance(r, ProgressReply) and r.event == "step"] == [1, 2]
    assert isinstance(out.final, ResultReply) and len(out.files) == 1 and out.files[0].stat().st_size == 200000
    assert c.wait_for(lambda: svc.jobs.outbox_size() == 0, 10)


def test_a_reply_connection_knocked_off_loses_no_reply(inproc_daemon, requester, mosquitto, tmp_path):
    """Another client takes the reply connection's client id (the broker drops the daemon's), while a job
    publishes: the session still takes requests, the daemon reconnects, and every reply arrives once."""
    svc = inproc_daemon()
    c = requester("c1")
    rid = c.send("knocked [steps=4 delay=0.3 file=100000]")
    assert c.wait_for(lambda: any(r.kind == "progress" for r in c.replies(rid)), 10)
    rogue = mqtt.Client(CallbackAPIVersion.VERSION2, client_id=f"{svc.client_id}-replies", protocol=mqtt.MQTTv5)
    rogue.connect(mosquitto.host, mosquitto.port)
    rogue.loop_start()
    assert c.wait_for(lambda: not svc.connected.is_set(), 5)  # the daemon's reply connection was dropped
    second = c.send("sent meanwhile [steps=1]")
    time.sleep(0.5)
    rogue.disconnect()
    rogue.loop_stop()
    out = c.wait(rid, timeout=30, out_dir=tmp_path / "out")
    assert isinstance(out.final, ResultReply) and len(out.files) == 1
    assert isinstance(c.wait(second, timeout=30).final, ResultReply)
    for request_id in (rid, second):
        kinds = [r.kind for r in c.replies(request_id)]  # QoS 1 redeliveries dropped by reply_id
        assert kinds.count("accepted") == 1 and kinds.count("result") == 1, kinds
    steps = [r.step for r in c.replies(rid) if isinstance(r, ProgressReply) and r.event == "step"]
    assert steps == [1, 2, 3, 4]
    assert svc.connected.wait(10) and c.wait_for(lambda: svc.jobs.outbox_size() == 0, 10)


def test_status_is_retained_online_and_offline_after_a_clean_stop(inproc_daemon, requester):
    svc = inproc_daemon()
    watcher = requester("w1")
    assert watcher.wait_for(lambda: watcher.status.get("edge-agent/gw1/status") == "online", 5)
    svc.stop(timeout=5)
    assert watcher.wait_for(lambda: watcher.status.get("edge-agent/gw1/status") == "offline", 5)
    late = requester("w2")  # retained: a newcomer sees it too
    assert late.wait_for(lambda: late.status.get("edge-agent/gw1/status") == "offline", 5)


def test_two_daemons_share_the_load_without_answering_twice(tmp_path, mosquitto, inproc_daemon, requester):
    """Scale-out: two daemons on one $share group; each request answered once, both did work."""
    daemons = []
    for name in ("a", "b"):
        s = load_settings(overrides=mqtt_overrides(tmp_path / name, mosquitto, shared_group="pool"), environ={})
        daemons.append(inproc_daemon(s, client_id=f"edge-agent-gw1-{name}"))
    c = requester("c1")
    rids = [c.send(f"q{i} [steps=1 delay=0.1]") for i in range(12)]
    for rid in rids:
        assert isinstance(c.wait(rid, timeout=30).final, ResultReply)
    time.sleep(0.5)
    assert all(len(c.finals(rid)) == 1 for rid in rids)
    per_daemon = [len(d.jobs.jobs()) for d in daemons]
    assert sum(per_daemon) == 12 and min(per_daemon) >= 3, per_daemon
    # answers to `question` replies reach the owner whichever member the broker hands them to
    asks = [c.send(f"ask{i} [steps=1 ask=1]", options={"ask": True}) for i in range(4)]
    for i, rid in enumerate(asks):
        out = c.wait(rid, timeout=30, answer=lambda q, i=i: f"site-{i}")
        assert out.final.answer.endswith(f"(requester said: site-{i})"), out.final
    # cancel reaches the member that owns the job, the other stays silent
    rid = c.send("long [steps=40 delay=0.2]")
    assert c.wait_for(lambda: any(r.kind == "progress" for r in c.replies(rid)), 10)
    c.cancel(rid)
    assert isinstance(c.wait(rid, timeout=10).final, CancelledReply)
    assert not any(isinstance(r, ErrorReply) for r in c.replies(rid))


def test_final_kinds_are_exactly_the_outcomes():
    assert is_final(ResultReply(status="answered")) and is_final(CancelledReply())
    assert not is_final(ErrorReply(code="no_question_pending", message="x", final=False))


def test_password_from_a_systemd_credential(tmp_path, secured_broker):
    """allow_anonymous false: the daemon's two connections log in with the `mqtt-password` credential (as
    edge-agent-gw1 and edge-agent-gw1-replies); a wrong one is refused."""
    from edge_agent.mqtt.runner import ScriptRunner
    from edge_agent.mqtt.service import GatewayService

    broker = secured_broker(acl=False)
    s = as_user(tmp_path / "a", broker, DAEMON_USER)
    svc = GatewayService(s, ScriptRunner(s))
    svc.start()
    assert svc.connected.wait(10) and svc.client_id == DAEMON_USER
    svc.stop(timeout=5)
    (broker.creds / "mqtt-password").write_text("wrong")
    s = as_user(tmp_path / "b", broker, DAEMON_USER)
    svc = GatewayService(s, ScriptRunner(s))
    svc.start()
    assert not svc.connected.wait(3)
    svc.stop(timeout=5)


def test_the_shipped_acl_lets_both_daemon_connections_and_a_requester_through(tmp_path, secured_broker, requester):
    """config/mosquitto.conf's authentication and ACL, as docs/gateway-install.md installs them: the daemon's
    session and reply connections (two users) and a requester (its user name is its client id) complete a
    request with a file; a requester reading another client's responses gets nothing."""
    from edge_agent.mqtt.runner import ScriptRunner
    from edge_agent.mqtt.service import GatewayService

    broker = secured_broker(("scada-1", "snoop"))
    s = as_user(tmp_path, broker, DAEMON_USER)
    svc = GatewayService(s, ScriptRunner(s))
    svc.start()
    try:
        assert svc.connected.wait(10) and svc.replies is not svc.client
        seen = []
        snoop = mqtt.Client(CallbackAPIVersion.VERSION2, client_id="snoop", protocol=mqtt.MQTTv5)
        snoop.username_pw_set("snoop", "snoop-pw")
        snoop.on_message = lambda cl, u, m: seen.append(m.topic)
        snoop.connect(broker.host, broker.port)
        snoop.loop_start()
        snoop.subscribe("edge-agent/gw1/response/#", qos=1)
        c = requester(settings=as_user(tmp_path, broker, "scada-1"))
        assert c.client_id == "scada-1"  # the user name, as the broker binds it
        rid = c.send("behind the acl [steps=2 file=150000]")
        out = c.wait(rid, timeout=20, out_dir=tmp_path / "out")
        assert isinstance(out.final, ResultReply) and out.files[0].stat().st_size == 150000
        assert [r.kind for r in out.replies][0] == "accepted"
        time.sleep(0.3)
        snoop.loop_stop()
        snoop.disconnect()
        assert seen == []
    finally:
        svc.stop(timeout=5)


def test_a_daemon_failure_still_ends_the_request_and_the_next_job_runs(mqtt_settings, requester):
    """A bug after the run (here: a manifest naming a missing file) → one `internal` error, no hang."""
    from edge_agent.agent.trajectory import RunResult
    from edge_agent.filestore import FileInfo
    from edge_agent.mqtt.service import GatewayService

    class GhostFiles:
        name = "ghost"

        def run(self, question, options, **kw):
            files = [FileInfo(name="ghost.json", size=1, sha256="0" * 64)] if "ghost" in question else []
            return RunResult(
                run_id=kw["run_id"],
                question=question,
                strategy="x",
                model="x",
                now="",
                status="answered",
                answer="ok",
                files=files,
            )

    svc = GatewayService(mqtt_settings, GhostFiles())
    svc.start()
    try:
        assert svc.connected.wait(10)
        c = requester("c1")
        bad, good = c.send("ghost"), c.send("fine")
        err = c.wait(bad, timeout=10).final
        assert isinstance(err, ErrorReply) and err.code == "internal" and "ghost.json" in err.message
        assert isinstance(c.wait(good, timeout=10).final, ResultReply)
    finally:
        svc.stop(timeout=5)


def test_a_stop_during_a_long_warm_up_interrupts_it_and_a_queued_job_waits_for_the_next_start(mqtt_settings, requester):
    """A new model's prefill takes minutes on a gateway CPU: the daemon's stop reaches it through the warm-up's
    interrupt event (the model call stops within a chunk), the worker ends, and the job that arrived during
    the warm-up is still queued, to be answered after the next start."""
    from edge_agent.failures import Interrupted
    from edge_agent.mqtt.queue import JobQueue
    from edge_agent.mqtt.service import GatewayService

    warming, seen = threading.Event(), {}

    class SlowWarm:
        name = "slow-warm"

        def warm(self, interrupt=None):
            warming.set()
            seen["stopped"] = interrupt.wait(60)  # the prefill, until the stop
            raise Interrupted()

        def run(self, question, options, **kw):
            raise AssertionError("no job runs before the warm-up ends")

    svc = GatewayService(mqtt_settings, SlowWarm())
    svc.start()
    try:
        assert svc.connected.wait(10) and warming.wait(10)
        c = requester("c1")
        rid = c.send("waiting")
        assert c.wait_for(lambda: any(r.kind == "accepted" for r in c.replies(rid)), 10)
    finally:
        svc.stop(timeout=30)
    assert seen["stopped"] is True and not svc.worker.thread.is_alive()
    jobs = JobQueue(mqtt_settings.state_dir / "queue.db")
    try:
        assert [(j.question, j.state) for j in jobs.jobs()] == [("waiting", "queued")]
    finally:
        jobs.close()


@pytest.mark.parametrize("warm_fails", [False, True])
def test_the_worker_warms_the_model_before_its_first_job_and_a_failed_warm_loses_nothing(
    mqtt_settings, requester, warm_fails
):
    """A restarted daemon brings its prompt prefix into the KV cache while idle (`Runner.warm`); a job queued
    meanwhile runs after it, and a warm-up that fails is logged, not fatal."""
    from edge_agent.agent.trajectory import RunResult
    from edge_agent.mqtt.service import GatewayService

    order: list[str] = []

    class Warming:
        name = "warming"

        def warm(self, interrupt=None):
            order.append("warm")
            if warm_fails:
                raise RuntimeError("no model")
            return {"evaluated_tokens": 12, "state_ms": 1.0}

        def run(self, question, options, **kw):
            order.append(question)
            return RunResult(
                run_id=kw["run_id"], question=question, strategy="x", model="x", now="", status="answered", answer="ok"
            )

    svc = GatewayService(mqtt_settings, Warming())
    svc.start()
    try:
        assert svc.connected.wait(10)
        c = requester("c1")
        rids = [c.send("first"), c.send("second")]
        assert all(isinstance(c.wait(rid, timeout=10).final, ResultReply) for rid in rids)
        assert order == ["warm", "first", "second"]
    finally:
        svc.stop(timeout=5)
