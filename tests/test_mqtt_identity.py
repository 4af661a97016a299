"""Drills against a real Mosquitto set up with the shipped configuration (password file, `use_username_as_clientid`,
the ACL block of config/mosquitto.conf): no requester can act or read as another, take the daemon's session, or
jam the daemon with poison messages (issue 25's three reproductions)."""

from __future__ import annotations

import json
import time

import paho.mqtt.client as mqtt
import pytest
from paho.mqtt.enums import CallbackAPIVersion
from paho.mqtt.packettypes import PacketTypes
from paho.mqtt.properties import Properties

from edge_agent.mqtt.protocol import AcceptedReply, ErrorReply, ResultReply
from tests.plugins.mqtt import DAEMON_USER, as_user

pytestmark = pytest.mark.broker


@pytest.fixture
def daemon(tmp_path):
    """Factory: the daemon (script runner, in this process) logged in as the shipped ACL's daemon users."""
    from edge_agent.mqtt.runner import ScriptRunner
    from edge_agent.mqtt.service import GatewayService

    made = []

    def start(broker, state: str = "daemon"):
        settings = as_user(tmp_path / state, broker, DAEMON_USER)
        svc = GatewayService(settings, ScriptRunner(settings))
        svc.start()
        made.append(svc)
        assert svc.connected.wait(10), "the daemon did not connect"
        return svc

    yield start
    for svc in made:
        if not svc.stopping.is_set():
            svc.stop(timeout=5)


class Raw:
    """A bare paho v5 client: asks for any client id, logs in as any user; records PUBACK reason codes and
    every message it receives."""

    def __init__(self, broker, user: str, client_id: str, *, clean_start: bool = True, expiry: int = 3600):
        self.acks: dict[int, str] = {}
        self.got: list[mqtt.MQTTMessage] = []
        self.client = mqtt.Client(CallbackAPIVersion.VERSION2, client_id=client_id, protocol=mqtt.MQTTv5)
        self.client.username_pw_set(user, f"{user}-pw")
        self.client.on_publish = lambda c, u, mid, rc, p: self.acks.__setitem__(mid, str(rc))
        self.client.on_message = lambda c, u, m: self.got.append(m)
        props = Properties(PacketTypes.CONNECT)
        props.SessionExpiryInterval = expiry
        self.client.connect(broker.host, broker.port, clean_start=clean_start, properties=props)
        self.client.loop_start()

    def publish(self, topic: str, body: dict | bytes, correlation: bytes | None = None) -> str:
        props = Properties(PacketTypes.PUBLISH)
        if correlation:
            props.CorrelationData = correlation
        payload = body if isinstance(body, bytes) else json.dumps(body).encode()
        info = self.client.publish(topic, payload, qos=1, properties=props)
        info.wait_for_publish(10)
        deadline = time.monotonic() + 5
        while info.mid not in self.acks and time.monotonic() < deadline:
            time.sleep(0.01)
        return self.acks.get(info.mid, "no PUBACK")

    def close(self) -> None:
        self.client.disconnect()
        self.client.loop_stop()


def _questions_run(svc) -> list[str]:
    path = svc.settings.state_dir / "script-runs.jsonl"
    lines = path.read_text().splitlines() if path.exists() else []
    return [json.loads(line)["question"] for line in lines if '"start"' in line]


def test_a_requester_cannot_send_as_another_resume_its_session_or_get_its_stored_results(
    tmp_path, secured_broker, daemon, requester
):
    """scada-2 asking for client id scada-1 gets its own identity: its request in scada-1's name is refused by
    the broker and never reaches the daemon; scada-1's queued replies are not delivered to it; re-sending one of
    scada-1's request ids gets a new job of scada-2's, not scada-1's stored result or files; scada-1 later gets
    its own queued result exactly once."""
    broker = secured_broker(("scada-1", "scada-2"))
    svc = daemon(broker)
    owner = requester(settings=as_user(tmp_path, broker, "scada-1"), persistent=True)
    first = owner.wait(owner.send("owner's first [steps=1 file=2000]", request_id="r1"), timeout=20)
    assert isinstance(first.final, ResultReply) and first.final.files
    rid = owner.send("owner's second [steps=4 delay=0.4]", request_id="r2")
    assert owner.wait_for(lambda: any(isinstance(r, AcceptedReply) for r in owner.replies(rid)), 10)
    owner.close()  # its result is queued in its persistent session meanwhile

    imposter = Raw(broker, "scada-2", "scada-1", clean_start=False)  # scada-2 asks for scada-1's client id
    imposter.client.subscribe("edge-agent/gw1/response/#", qos=1)
    assert (
        imposter.publish("edge-agent/gw1/request/scada-1", {"request_id": "r9", "question": "sent in scada-1's name"})
        == "Not authorized"
    )
    assert imposter.publish("edge-agent/gw1/cancel/scada-1", {"request_id": "r2"}) == "Not authorized"
    assert (
        imposter.publish("edge-agent/gw1/request/scada-2", {"request_id": "r1", "question": "scada-2 re-sends r1"})
        == "Success"
    )
    time.sleep(4.0)  # scada-1's r2 finishes meanwhile; its result goes to scada-1's session only
    imposter.close()
    topics = {m.topic for m in imposter.got}  # the broker made it scada-2: it reads its own replies, none of scada-1's
    assert topics and all(t.startswith("edge-agent/gw1/response/scada-2/") for t in topics), topics
    assert any(
        json.loads(m.payload).get("answer", "").startswith("script answer to: scada-2 re-sends r1")
        for m in imposter.got
        if not m.topic.split("/")[4] == "files"
    )
    assert "sent in scada-1's name" not in " ".join(_questions_run(svc))
    resent = svc.jobs.get("scada-2", "r1")
    assert resent is not None and resent.question == "scada-2 re-sends r1"  # a new job in its own name
    assert svc.jobs.get("scada-1", "r9") is None and svc.jobs.get("scada-1", "r2").final_kind == "result"

    owner = requester(settings=as_user(tmp_path, broker, "scada-1"), persistent=True)
    out = owner.wait("r2", timeout=20)  # the queued replies were kept for their owner
    assert isinstance(out.final, ResultReply) and "owner's second" in out.final.answer
    assert len(owner.finals("r2")) == 1


def test_a_client_taking_the_daemons_client_id_neither_knocks_it_off_nor_wipes_its_session(
    tmp_path, secured_broker, daemon, requester
):
    """Seven times in a row another user asks for the daemon's client ids (clean start: it would wipe the
    session): the daemon stays connected, and requests sent meanwhile and while the daemon was down (held in its
    persistent session) are all answered once."""
    broker = secured_broker(("scada-1", "scada-2"))
    svc = daemon(broker)
    c = requester(settings=as_user(tmp_path, broker, "scada-1"))
    sent = [c.send(f"during the takeover {n} [steps=1]") for n in range(3)]
    for n in range(7):
        for cid in (svc.client_id, f"{svc.client_id}-replies"):
            Raw(broker, "scada-2", cid, clean_start=True, expiry=0).close()
        sent.append(c.send(f"takeover {n} [steps=1]"))
    for rid in sent:
        assert isinstance(c.wait(rid, timeout=20).final, ResultReply)
    assert f"Client {svc.client_id} already connected" not in broker.log_tail(10_000)

    svc.stop(timeout=5)
    queued = [c.send(f"while down {n} [steps=1]") for n in range(3)]  # kept in the daemon's session
    time.sleep(0.5)
    for _ in range(7):
        Raw(broker, "scada-2", svc.client_id, clean_start=True, expiry=0).close()
    again = daemon(broker)
    for rid in queued:
        assert isinstance(c.wait(rid, timeout=20).final, ResultReply)
        assert len(c.finals(rid)) == 1
    assert len(again.jobs.jobs()) == len(sent) + len(queued)


POISONS = [
    b'{"request_id": "p%d", "question": "\\ud800 what is the weather"}',
    b'{"request_id": "p%d", "question": "ok", "correlation": "\\udfff"}',
    b'{"request_id": "p%d", "question": "ok", "reply_to": "edge-agent/gw1/response/scada-1/x\\ud800"}',
    b'{"request_id": "p%d", "question": "nul \\u0000 inside"}',
    b'{"request_id": "p%d", "question": "ok", "options": {"now": "2024-01-01\\udc00"}}',
]


def test_a_hundred_poison_requests_get_an_error_each_and_the_victim_is_answered_before_and_after_a_restart(
    tmp_path, secured_broker, daemon, requester
):
    """100 requests holding lone surrogates or NUL (the shipped max_inflight_messages) from one requester fill
    the in-flight window no longer: each gets one `invalid_field` error and is acknowledged, another requester's
    request is answered, and after a restart the broker has nothing to send again."""
    broker = secured_broker(("scada-1", "victim"))
    svc = daemon(broker)
    attacker = Raw(broker, "scada-1", "scada-1")
    attacker.client.subscribe("edge-agent/gw1/response/scada-1/#", qos=1)
    time.sleep(0.3)
    for n in range(100):
        attacker.client.publish("edge-agent/gw1/request/scada-1", POISONS[n % len(POISONS)] % n, qos=1)
    victim = requester(settings=as_user(tmp_path, broker, "victim"))
    assert isinstance(victim.wait(victim.send("the victim's question [steps=1]"), timeout=30).final, ResultReply)
    deadline = time.monotonic() + 20
    while len(attacker.got) < 100 and time.monotonic() < deadline:
        time.sleep(0.05)
    errors = [json.loads(m.payload) for m in attacker.got]
    assert len(errors) == 100 and {e["code"] for e in errors} == {"invalid_field"}
    assert sorted(e["request_id"] for e in errors) == sorted(f"p{n}" for n in range(100))
    assert all(e["final"] for e in errors) and svc.jobs.jobs()[0].client_id == "victim"
    attacker.close()

    svc.stop(timeout=5)
    again = daemon(broker)
    victim2 = requester(settings=as_user(tmp_path / "v2", broker, "victim"))
    assert isinstance(victim2.wait(victim2.send("after the restart [steps=1]"), timeout=30).final, ResultReply)
    time.sleep(0.5)
    assert again.committer.messages == 1 and again.jobs.dead_letters() == []  # no poison was sent again


def test_an_unstorable_message_is_answered_not_stored_and_acknowledged(
    tmp_path, secured_broker, daemon, requester, monkeypatch
):
    """When the database itself fails (here: every transaction), a request is not left unacknowledged: its
    requester gets `not_stored` at once, and once the database works again the next request is answered."""
    broker = secured_broker(("scada-1",))
    svc = daemon(broker)
    c = requester(settings=as_user(tmp_path, broker, "scada-1"))
    real = svc.intake._store_parsed

    def broken(parsed, *, alone):
        raise __import__("sqlite3").OperationalError("database or disk is full")

    monkeypatch.setattr(svc.intake, "_store_parsed", broken)
    rid = c.send("while the disk is full")
    out = c.wait(rid, timeout=10)
    assert isinstance(out.final, ErrorReply) and out.final.code == "not_stored" and "disk is full" in out.final.message
    monkeypatch.setattr(svc.intake, "_store_parsed", real)
    assert svc.jobs.get("scada-1", rid) is None
    assert isinstance(c.wait(c.send("after [steps=1]"), timeout=20).final, ResultReply)
    again = c.send("while the disk is full", request_id=rid)  # nothing was stored: the same id is new now
    assert isinstance(c.wait_for(lambda: any(isinstance(r, ResultReply) for r in c.replies(again)), 20), bool)
    assert any(isinstance(r, ResultReply) for r in c.replies(again))
