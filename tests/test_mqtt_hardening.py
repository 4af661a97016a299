"""Issue 30's holes, each drilled against a real Mosquitto set up with the shipped configuration (password file,
`use_username_as_clientid`, the ACL of config/mosquitto.conf) and the daemon with the script runner: one message
can no longer silence the gateway (a reply topic Mosquitto refuses; a row planted in the outbox; a row the broker
disconnects on), no requester starves the others (round-robin, the per-requester quota), nothing acknowledged is
lost without its requester knowing (the flood while the daemon is down), and a reply never exceeds the broker's
packet limit (64 KB Correlation Data under max_packet_size 131072)."""

from __future__ import annotations

import json
import statistics
import threading
import time

import paho.mqtt.client as mqtt
import pytest
from paho.mqtt.enums import CallbackAPIVersion
from paho.mqtt.packettypes import PacketTypes
from paho.mqtt.properties import Properties

from edge_agent.mqtt import outbox as outbox_module
from edge_agent.mqtt.client import RequestError
from edge_agent.mqtt.protocol import AcceptedReply, ErrorReply, ResultReply
from edge_agent.mqtt.queue import JobQueue
from tests.plugins.mqtt import BROKER_MAX_PACKET, DAEMON_USER, as_user

pytestmark = pytest.mark.broker

#: one character of each class Mosquitto refuses in a topic (C0, DEL, C1, NEL, noncharacters in the BMP and
#: beyond it)
REFUSED = [
    "\u0001",
    "\u001f",
    "\u007f",
    "\u0085",
    "\u009f",
    "\ufdd0",
    "\ufdef",
    "\ufffe",
    "\uffff",
    "\U0001fffe",
    "\U0010ffff",
]


@pytest.fixture
def daemon(tmp_path):
    """Factory: the daemon (script runner, in this process) logged in as the shipped ACL's daemon users; the same
    `state` name is the same queue database (a restart)."""
    from edge_agent.mqtt.runner import ScriptRunner
    from edge_agent.mqtt.service import GatewayService

    made = []

    def start(broker, state: str = "daemon", **mqtt_overrides):
        settings = as_user(tmp_path / state, broker, DAEMON_USER, **mqtt_overrides)
        svc = GatewayService(settings, ScriptRunner(settings))
        svc.start()
        made.append(svc)
        assert svc.connected.wait(10), "the daemon did not connect"
        return svc

    yield start
    for svc in made:
        if not svc.stopping.is_set():
            svc.stop(timeout=5)


def _queue(tmp_path, state: str = "daemon") -> JobQueue:
    return JobQueue(tmp_path / state / DAEMON_USER / "queue.db")


def _answered(client, question: str, timeout: float = 30) -> bool:
    return isinstance(client.wait(client.send(question), timeout=timeout, fetch_files=False).final, ResultReply)


def _malformed(broker) -> int:
    return broker.log_path.read_text(errors="replace").count("malformed packet")


class Raw:
    """A bare paho v5 client logged in as `user`: publishes without waiting, records what arrives."""

    def __init__(self, broker, user: str, subscribe: str | None = None):
        self.got: list[mqtt.MQTTMessage] = []
        self.lock = threading.Lock()
        self.client = mqtt.Client(CallbackAPIVersion.VERSION2, client_id=user, protocol=mqtt.MQTTv5)
        self.client.username_pw_set(user, f"{user}-pw")
        self.client.max_inflight_messages = 100
        self.client.max_queued_messages = 0
        ready = threading.Event()
        self.client.on_message = lambda c, u, m: self._got(m)
        self.client.on_subscribe = lambda *a: ready.set()
        self.client.on_connect = lambda c, *a: c.subscribe(subscribe or f"edge-agent/gw1/response/{user}/#", qos=1)
        self.client.connect(broker.host, broker.port)
        self.client.loop_start()
        assert ready.wait(10)

    def _got(self, msg) -> None:
        with self.lock:
            self.got.append(msg)

    def replies(self) -> list[dict]:
        with self.lock:
            return [json.loads(m.payload) for m in self.got if "/files/" not in m.topic]

    def publish(self, topic: str, body: dict, correlation: bytes | None = None):
        props = Properties(PacketTypes.PUBLISH)
        if correlation:
            props.CorrelationData = correlation
        return self.client.publish(topic, json.dumps(body).encode(), qos=1, properties=props)

    def close(self) -> None:
        self.client.disconnect()
        self.client.loop_stop()


def _wait(cond, timeout: float = 20.0) -> bool:
    deadline = time.monotonic() + timeout
    while not cond():
        if time.monotonic() > deadline:
            return False
        time.sleep(0.05)
    return True


# ------------------------------------------------------------------------- 1. one request silences everyone


def test_a_reply_to_mosquitto_refuses_is_refused_and_every_requester_is_answered_before_and_after_a_restart(
    tmp_path, secured_broker, daemon, requester
):
    """The issue's reproduction: `reply_to` inside the requester's own subtree ending in a character Mosquitto
    refuses in a topic (one of each class). Each is refused with `bad_response_topic` naming `reply_to`, on the
    requester's default topic; the broker never closes the reply connection; two victims are answered, before and
    after a restart, and the outbox is empty."""
    broker = secured_broker(("scada-1", "victim-1", "victim-2"))
    svc = daemon(broker)
    attacker = Raw(broker, "scada-1")
    for n, ch in enumerate(REFUSED):
        attacker.publish(
            "edge-agent/gw1/request/scada-1",
            {"request_id": f"x{n}", "question": "hi", "reply_to": f"edge-agent/gw1/response/scada-1/a{ch}"},
        )
    assert _wait(lambda: len(attacker.replies()) == len(REFUSED)), attacker.replies()
    errors = attacker.replies()
    assert {e["code"] for e in errors} == {"bad_response_topic"}
    assert all(e["message"].startswith("refused: reply_to: the reply topic holds U+") for e in errors), errors
    assert {m.topic for m in attacker.got} == {"edge-agent/gw1/response/scada-1/default"}
    victims = [requester(settings=as_user(tmp_path, broker, v)) for v in ("victim-1", "victim-2")]
    assert all(_answered(v, "the victim's question [steps=1 delay=0]") for v in victims)
    assert _wait(lambda: svc.jobs.outbox_size() == 0, 5) and _malformed(broker) == 0

    svc.stop(timeout=5)
    daemon(broker)
    victims = [requester(settings=as_user(tmp_path / "again", broker, v)) for v in ("victim-1", "victim-2")]
    assert all(_answered(v, "after the restart [steps=1 delay=0]") for v in victims)
    assert _malformed(broker) == 0 and len(attacker.replies()) == len(REFUSED)  # nothing was sent again
    attacker.close()


def test_rows_planted_in_the_outbox_that_the_broker_would_refuse_are_dead_lettered_and_the_rest_goes_out(
    tmp_path, secured_broker, daemon, requester
):
    """Rows are planted straight into the outbox of a stopped daemon, between good ones: a topic holding U+0001,
    and a reply larger than the broker's max_packet_size. At start the good ones go out in order, the bad ones
    are moved to `dead_letters` with the reason, their requester gets `not_delivered` on its default topic, and
    new requests are answered; after a restart nothing is sent again."""
    broker = secured_broker(("c1",))
    c1 = Raw(broker, "c1")
    jobs = _queue(tmp_path)
    base = "edge-agent/gw1/response/c1"
    with jobs.tx() as conn:
        jobs.outbox_add(conn, f"{base}/replies", b'{"kind":"progress","request_id":"r0","reply_id":"g1"}')
        jobs.outbox_add(conn, f"{base}/jam\x01", b'{"kind":"accepted","request_id":"r1","position":0,"reply_id":"b1"}')
        jobs.outbox_add(conn, f"{base}/replies", b'{"kind":"progress","request_id":"r0","reply_id":"g2"}')
        jobs.outbox_add(
            conn,
            f"{base}/replies",
            json.dumps(
                {
                    "kind": "error",
                    "code": "internal",
                    "message": "x" * (BROKER_MAX_PACKET + 10),
                    "request_id": "r2",
                    "reply_id": "b2",
                }
            ).encode(),
            b"corr-r2",
        )
        jobs.outbox_add(conn, f"{base}/replies", b'{"kind":"progress","request_id":"r0","reply_id":"g3"}')
    jobs.close()
    svc = daemon(broker)
    assert _wait(lambda: len(c1.replies()) == 5), c1.replies()
    got = c1.replies()
    assert [r["reply_id"] for r in got if r["kind"] == "progress"] == ["g1", "g2", "g3"]
    notices = {r["request_id"]: r for r in got if r.get("code") == "not_delivered"}
    assert set(notices) == {"r1", "r2"}
    assert "U+0001" in notices["r1"]["message"] and not notices["r1"]["final"]
    assert "over the broker's maximum packet size 131072" in notices["r2"]["message"] and notices["r2"]["final"]
    assert all(m.topic == f"{base}/default" for m in c1.got if b"not_delivered" in m.payload)
    dead = svc.jobs.dead_letters()
    assert len(dead) == 2 and all(d["error"].startswith("reply not delivered: ") for d in dead)
    assert _answered(requester(settings=as_user(tmp_path, broker, "c1")), "then [steps=1]")
    assert _wait(lambda: svc.jobs.outbox_size() == 0, 5) and _malformed(broker) == 0

    svc.stop(timeout=5)
    before = len(c1.got)
    again = daemon(broker)
    time.sleep(1.0)
    assert len(again.jobs.dead_letters()) == 2 and len(c1.got) == before
    assert _wait(lambda: again.jobs.outbox_size() == 0, 5)
    c1.close()


def test_a_row_the_broker_disconnects_on_or_refuses_is_found_retried_alone_then_dead_lettered(
    tmp_path, secured_broker, daemon, requester, monkeypatch
):
    """The safety net behind the checks: with them switched off (as if a broker refused something they do not
    know), a planted row on a topic Mosquitto closes the connection on, and one on a topic the ACL does not let
    the reply user write (PUBACK "Not authorized"), sit among good rows. The good rows are delivered; each bad
    row is found (sent again alone), tried `reply_attempts` times, moved to `dead_letters` with the reason, and
    its requester told; a new request is answered; after a restart the broker closes nothing any more."""
    monkeypatch.setattr(outbox_module, "row_problem", lambda row, limit: None)
    broker = secured_broker(("c1",))
    c1 = Raw(broker, "c1")
    jobs = _queue(tmp_path)
    base = "edge-agent/gw1/response/c1"
    with jobs.tx() as conn:
        for n in range(3):
            jobs.outbox_add(
                conn,
                f"{base}/replies",
                json.dumps({"kind": "progress", "request_id": "r0", "reply_id": f"g{n}a"}).encode(),
            )
        jobs.outbox_add(
            conn, f"{base}/jam\x7f", b'{"kind":"result","status":"answered","request_id":"r1","reply_id":"b1"}'
        )
        jobs.outbox_add(conn, "edge-agent/gw1/elsewhere", b'{"kind":"accepted","request_id":"r2","position":0}')
        for n in range(3):
            jobs.outbox_add(
                conn,
                f"{base}/replies",
                json.dumps({"kind": "progress", "request_id": "r0", "reply_id": f"g{n}b"}).encode(),
            )
    jobs.close()
    svc = daemon(broker, reply_attempts=2)
    assert _wait(lambda: len(svc.jobs.dead_letters()) == 2, 40), svc.jobs.dead_letters()
    assert _wait(
        lambda: (
            {r["reply_id"] for r in c1.replies() if r["kind"] == "progress"}
            == {"g0a", "g1a", "g2a", "g0b", "g1b", "g2b"}
        )
    ), c1.replies()
    errors = {d["topic"]: d["error"] for d in svc.jobs.dead_letters()}
    assert "the broker closed the connection when it was sent" in errors[f"{base}/jam\\x7f"]
    assert "Not authorized" in errors["edge-agent/gw1/elsewhere"]
    assert _wait(
        lambda: any(r.get("code") == "not_delivered" and r["request_id"] == "r1" and r["final"] for r in c1.replies())
    )
    closed = _malformed(broker)
    assert 1 <= closed <= 3  # the window's disconnect, then the row alone, twice
    assert _answered(requester(settings=as_user(tmp_path, broker, "c1")), "still answered [steps=1]")
    svc.stop(timeout=5)
    daemon(broker, reply_attempts=2)
    time.sleep(1.5)
    assert _malformed(broker) == closed
    c1.close()


# ------------------------------------------------------------------------- 2. fair share


def _burst(raw: Raw, user: str, n: int, question: str) -> None:
    for i in range(n):
        raw.publish(f"edge-agent/gw1/request/{user}", {"request_id": f"b{i}", "question": question})


@pytest.mark.parametrize("quota", [1000, 100])
def test_a_burst_of_1000_from_one_requester_delays_another_by_at_most_one_job(
    tmp_path, secured_broker, daemon, requester, quota
):
    """One requester's 1,000-request burst, then two other requesters ask once each: round-robin runs theirs next,
    so each waits (queued → running) at most two job lengths; with the quota at 100 the burst's requests past it
    are refused with `quota_exceeded` (nothing queued) and the others are still served next."""
    broker = secured_broker(("flood", "b", "c"))
    svc = daemon(broker, max_queued_per_client=quota)
    flood = Raw(broker, "flood")
    _burst(flood, "flood", 1000, "a job of the burst [steps=1 delay=0.05]")

    def first():
        return [r for r in flood.replies() if r["kind"] == "accepted" or r.get("code") == "quota_exceeded"]

    assert _wait(lambda: len(first()) >= 1000, 120), len(first())
    first = first()
    accepted = [r for r in first if r["kind"] == "accepted"]
    refused = [r for r in first if r.get("code") == "quota_exceeded"]
    assert len(accepted) + len(refused) == 1000 and max(r["position"] for r in accepted) < quota
    if quota < 1000:  # jobs finish during the burst (0.05 s each), making room: more than `quota` in all
        assert quota <= len(accepted) < 1000
    assert all(r["request_id"] and r["final"] for r in refused)
    others = [requester(settings=as_user(tmp_path, broker, u)) for u in ("b", "c")]
    rids = [o.send("my one question [steps=1 delay=0.05]") for o in others]
    outs = [o.wait(rid, timeout=60) for o, rid in zip(others, rids)]
    assert all(isinstance(out.final, ResultReply) for out in outs)
    assert all(isinstance(out.replies[0], AcceptedReply) and out.replies[0].position <= 2 for out in outs)
    lengths = [j.finished - j.started for j in _done(svc, "flood")]
    length = statistics.median(lengths)
    waits = [svc.jobs._one("SELECT started - created FROM jobs WHERE client_id=?", (u,))[0] for u in ("b", "c")]
    # before the fair share another requester waited ~956 job lengths; round-robin lets it in after the running job
    # and at most one more (measured 1.5–1.9): 4 leaves room for a loaded 2-core machine and still fails the old way
    assert max(waits) <= 4 * length, (waits, length)
    flood.close()


def _done(svc, client_id: str):
    rows = svc.jobs._conn.execute(
        "SELECT started, finished FROM jobs WHERE client_id=? AND state='done'", (client_id,)
    ).fetchall()

    class J:
        def __init__(self, r):
            self.started, self.finished = r[0], r[1]

    return [J(r) for r in rows]


# ------------------------------------------------------------------------- 3. acknowledged, then lost


def test_requests_the_broker_drops_while_the_daemon_is_down_are_resent_and_answered_once(
    tmp_path, secured_broker, daemon, requester
):
    """The broker holds at most max_queued_messages (here 50) for the daemon's session while it is down and drops
    the rest after their PUBACK. One requester floods 60; another sends one (dropped). When the daemon is back,
    the status and the metric show the session backlog near the limit, and the dropped request's client — which
    takes the daemon's `accepted` as the receipt — sends it again with the same request_id: it is answered once,
    one job. On a loaded machine (the daemon, the clients and the broker share two busy cores) each wait is on the
    condition itself, with a wide bound; the burst of 50 takes milliseconds, and the daemon's watcher shows a run it
    looked at late all the same (`Intake.take_backlog_peak`: a look more than 0.5 s after the burst missed it)."""
    broker = secured_broker(("flood", "victim"), extra="max_queued_messages 50\n")
    svc = daemon(broker, broker_queue_limit=50)
    svc.stop(timeout=5)
    statuses: list[str] = []
    watcher = Raw(broker, "flood", subscribe="edge-agent/gw1/status")
    watcher.client.on_message = lambda c, u, m: statuses.append(m.payload.decode())
    _burst(watcher, "flood", 60, "flood [steps=1 delay=0]")
    time.sleep(1.0)
    victim = requester(settings=as_user(tmp_path, broker, "victim"), resend_after_s=3.0)
    rid = victim.send("the victim's question [steps=1 delay=0]")
    again = daemon(broker, broker_queue_limit=50)
    assert _wait(lambda: "degraded: session queue" in statuses, 30), statuses
    assert again.fleet.backlog()[0] >= 40 and again.fleet.backlog()[1] == 50
    out = victim.wait(rid, timeout=90)
    assert isinstance(out.final, ResultReply) and victim.resent.get(rid, 0) >= 1
    assert len(victim.finals(rid)) == 1 and len([j for j in again.jobs.jobs() if j.client_id == "victim"]) == 1
    assert _wait(lambda: statuses[-1] == "online", 30), statuses
    watcher.close()


def test_a_resent_request_is_answered_once_and_never_runs_twice(tmp_path, secured_broker, daemon, requester):
    broker = secured_broker(("c1",))
    svc = daemon(broker)
    c = requester(settings=as_user(tmp_path, broker, "c1"))
    rid = c.send("a slow one [steps=2 delay=0.5]")
    c.resend(rid)
    c.resend(rid)
    out = c.wait(rid, timeout=30)
    assert isinstance(out.final, ResultReply) and len(c.finals(rid)) == 1
    accepted = [r for r in c.replies(rid) if isinstance(r, AcceptedReply)]
    assert len(accepted) == 3 and sum(r.duplicate for r in accepted) == 2
    assert len(svc.jobs.jobs()) == 1
    c.resend(rid)  # after the end: the stored final reply again (same reply_id), no new run
    assert c.wait_for(lambda: c.raw_count[rid] > len(c.replies(rid)), 10)
    assert len(c.finals(rid)) == 1 and len(svc.jobs.jobs()) == 1


def test_a_request_the_broker_refuses_is_reported_at_once_not_waited_out(tmp_path, secured_broker, requester):
    """`edge-agent request --client-id other` as user c1: the broker's ACL refuses the publish (PUBACK "Not
    authorized"); the client says so at once instead of waiting out its timeout."""
    broker = secured_broker(("c1",))
    settings = as_user(tmp_path, broker, "c1")
    from edge_agent.mqtt.client import RequestClient

    c = RequestClient(settings, client_id="someone-else").connect()
    started = time.monotonic()
    with pytest.raises(RequestError, match="Not authorized"):
        c.send("in another's name")
    assert time.monotonic() - started < 5
    c.close()


# ------------------------------------------------------------------------- 4. packet size


@pytest.mark.parametrize("chunk", [65536, 1048576])
def test_64kb_correlation_data_under_max_packet_size_131072_every_reply_and_chunk_fits(
    tmp_path, secured_broker, daemon, requester, chunk
):
    """Mosquitto with max_packet_size 131072 (the tests' broker), a request whose Correlation Data is 65,000 bytes
    (echoed on every reply; a file chunk carries none), a 300 kB result file, `mqtt.file_chunk_bytes` at 64 KiB and
    at 1 MiB: every chunk fits, the file arrives whole, the reply connection is never refused; also after a
    restart. Bytes on the wire: the file's chunks as published (payload + properties) cost at most 1.1x the file
    (issue 42: 552 chunks each with the whole Correlation Data were ~36.5 MB for 300 kB)."""
    broker = secured_broker(("c1",))
    svc = daemon(broker, file_chunk_bytes=chunk)
    assert svc.max_packet == BROKER_MAX_PACKET
    wire: list[int] = []
    publish = svc.replies.publish

    def counted(topic, payload=None, qos=0, retain=False, properties=None):
        if "/files/" in topic:  # payload + the properties as sent (Correlation Data: 1 + 2 + its length)
            corr = getattr(properties, "CorrelationData", b"") if properties is not None else b""
            wire.append(len(payload) + (3 + len(corr) if corr else 0) + len(topic.encode()))
        return publish(topic, payload, qos=qos, retain=retain, properties=properties)

    svc.replies.publish = counted
    c = requester(settings=as_user(tmp_path, broker, "c1"))
    corr = b"C" * 65000
    out = c.wait(c.send("a file [steps=1 file=300000]", correlation=corr), timeout=30, out_dir=tmp_path / "o")
    assert isinstance(out.final, ResultReply) and out.final.files[0].size == 300000
    entry = out.final.files[0]
    assert (tmp_path / "o" / entry.name).stat().st_size == 300000  # reassembled and checked (sha256) by the client
    assert entry.chunks >= 3 and entry.chunk_bytes == min(chunk, entry.chunk_bytes) < BROKER_MAX_PACKET
    assert len(wire) == entry.chunks and sum(wire) <= 1.1 * 300000, (len(wire), sum(wire))
    assert svc.jobs.dead_letters() == [] and "disconnected" not in svc.settings.state_dir.name
    assert "exceeded" not in broker.log_tail(50) and _malformed(broker) == 0
    svc.stop(timeout=5)
    again = daemon(broker, file_chunk_bytes=chunk)
    out = c.wait(c.send("again [steps=1 file=200000]", correlation=corr), timeout=30)
    assert isinstance(out.final, ResultReply) and again.jobs.dead_letters() == []


def test_chunks_carry_no_correlation_data_and_a_reply_that_cannot_fit_is_reported(
    tmp_path, secured_broker, daemon, requester
):
    """`mqtt.max_packet_bytes` 65,700 (below the broker's 131,072: the smaller one counts). With 64,500 bytes of
    Correlation Data the file still goes in one chunk (a chunk carries none: its topic names the request) and
    arrives whole; with 65,535 bytes not even the replies fit: each is dead-lettered and the requester gets
    `not_delivered` (without the Correlation Data) on its default topic, final for the result — an answer, not a
    jam; the next request is answered."""
    broker = secured_broker(("c1",))
    svc = daemon(broker, max_packet_bytes=65700)
    assert svc.max_packet == 65700
    c = requester(settings=as_user(tmp_path, broker, "c1"))
    out = c.wait(c.send("a file [steps=1 file=5000]", correlation=b"C" * 64500), timeout=30, out_dir=tmp_path / "o")
    entry = out.final.files[0]
    assert isinstance(out.final, ResultReply) and entry.size == 5000 and entry.chunks == 1
    assert 65000 < entry.chunk_bytes < 65700
    assert (tmp_path / "o" / entry.name).stat().st_size == 5000
    out = c.wait(c.send("too much [steps=1]", correlation=b"C" * 65535), timeout=30)
    assert (
        isinstance(out.final, ErrorReply)
        and out.final.code == "not_delivered"
        and "maximum packet size 65700" in out.final.message
    )
    assert len(svc.jobs.dead_letters()) >= 2 and _malformed(broker) == 0
    assert _answered(c, "and then [steps=1]")


def test_a_full_disk_in_the_script_runner_is_disk_full_not_agent_error(
    tmp_path, secured_broker, daemon, requester, monkeypatch
):
    import errno

    from edge_agent.filestore import FileStore

    def full(self, name, data):
        raise OSError(errno.ENOSPC, "No space left on device", str(self.root / name))

    broker = secured_broker(("c1",))
    daemon(broker)
    c = requester(settings=as_user(tmp_path, broker, "c1"))
    monkeypatch.setattr(FileStore, "write_bytes", full)
    out = c.wait(c.send("a file [steps=1 file=1000]"), timeout=20)
    assert isinstance(out.final, ErrorReply) and out.final.code == "disk_full" and "disk is full" in out.final.message
