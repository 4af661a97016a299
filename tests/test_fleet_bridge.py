"""A fleet as integrators run it (issue 42 a, b), with real processes: a central Mosquitto, three site Mosquittos
bridged to it over MQTT v5 (docs/fleet.md), on each site the gateway daemon gw<N> and a member of the pool gateway
`pool` (`serve --runner script`: no model), every broker with passwords and an ACL (tests/fleet_topology.py).

Central requesters ask each gateway and the pool, cancel, answer an Agent-Ask; one requester cannot read another's
replies nor act in its name through the bridges; a site's WAN link is cut (~12 s here; minutes in
bench/fleet_bridge_drill.py) and restored; `edge-agent fleet` on the central broker lists every gateway."""

from __future__ import annotations

import json
import shutil
import threading
import time
import uuid

import paho.mqtt.client as mqtt
import pytest
from click.testing import CliRunner
from paho.mqtt.enums import CallbackAPIVersion
from paho.mqtt.packettypes import PacketTypes
from paho.mqtt.properties import Properties

from edge_agent import __version__
from edge_agent.config import load_settings
from edge_agent.mqtt.broker import find_mosquitto
from edge_agent.mqtt.client import RequestClient
from edge_agent.mqtt.protocol import CancelledReply, ProgressReply, ResultReply
from tests.fleet_topology import POOL, TECHNICIAN, VIEWER, Fleet, password

pytestmark = pytest.mark.broker

CUT_S = 12.0


@pytest.fixture(scope="module")
def fleet(tmp_path_factory):
    if find_mosquitto() is None or shutil.which("mosquitto_passwd") is None:
        pytest.skip("mosquitto is not installed (apt-get install mosquitto)")
    topology = Fleet(tmp_path_factory.mktemp("fleet")).start(timeout=90)
    yield topology
    topology.stop()


@pytest.fixture
def ask(fleet, tmp_path):
    """Factory: a `RequestClient` on the central broker as `user`, addressing `gateway`; a user's earlier client
    is closed first (the broker makes the user name the client id: one connection per user)."""
    made: dict[str, RequestClient] = {}

    def make(user: str, gateway: str, **kw) -> RequestClient:
        assert fleet.central is not None
        if user in made:
            made.pop(user).close()
        settings = load_settings(
            overrides={
                "paths": {"state_dir": str(tmp_path / user)},
                "mqtt": {
                    "host": fleet.central.host,
                    "port": fleet.central.port,
                    "gateway_id": gateway,
                    "username": user,
                    "password": password(user),
                },
            },
            environ={},
        )
        client = RequestClient(settings, connect_timeout=20, **kw).connect()
        made[user] = client
        return client

    yield make
    for client in made.values():
        client.close()


class Raw:
    """A bare paho v5 client on a broker as `user`: PUBACK reason codes and every message it receives."""

    def __init__(self, broker, user: str):
        self.acks: dict[int, int] = {}
        self.got: list[mqtt.MQTTMessage] = []
        self.subscribed = threading.Event()
        self.client = mqtt.Client(CallbackAPIVersion.VERSION2, client_id=user, protocol=mqtt.MQTTv5)
        self.client.username_pw_set(user, password(user))
        self.client.on_publish = lambda c, u, mid, rc, p: self.acks.__setitem__(mid, rc.value)
        self.client.on_message = lambda c, u, m: self.got.append(m)
        self.client.on_subscribe = lambda *a: self.subscribed.set()
        self.client.connect(broker.host, broker.port)
        self.client.loop_start()

    def subscribe(self, *topics: str) -> None:
        self.subscribed.clear()
        self.client.subscribe([(t, 1) for t in topics])
        assert self.subscribed.wait(10)

    def publish(self, topic: str, body: dict, *, response_topic: str | None = None, correlation: bytes = b"") -> int:
        props = Properties(PacketTypes.PUBLISH)
        if response_topic:
            props.ResponseTopic = response_topic
        if correlation:
            props.CorrelationData = correlation
        info = self.client.publish(topic, json.dumps(body).encode(), qos=1, properties=props)
        info.wait_for_publish(10)
        assert wait_until(lambda: info.mid in self.acks, 10), "no PUBACK"
        return self.acks[info.mid]

    def close(self) -> None:
        self.client.disconnect()
        self.client.loop_stop()


def wait_until(predicate, timeout: float) -> bool:
    deadline = time.monotonic() + timeout
    while not predicate():
        if time.monotonic() >= deadline:
            return False
        time.sleep(0.05)
    return True


def started(daemon, question_part: str) -> int:
    """How often `daemon` started a run whose question holds `question_part`."""
    return sum(1 for r in daemon.runs() if r["event"] == "start" and question_part in r["question"])


def test_each_gateway_answers_through_its_bridge_with_the_v5_properties(fleet, ask):
    for site in fleet.sites:
        client = ask("scada-1", site.gateway_id)  # one requester asks every gateway
        rid = client.send(f"hello {site.gateway_id} [steps=2 delay=0.05]")
        outcome = client.wait(rid, timeout=60)
        assert isinstance(outcome.final, ResultReply) and outcome.final.status == "answered"
        assert [r.kind for r in outcome.replies] == ["accepted", "progress", "progress", "progress", "result"]
        assert started(site.gateway, f"hello {site.gateway_id}") == 1
    # Response Topic and Correlation Data cross both bridges (in, then out) as the requester set them
    raw = Raw(fleet.central, "scada-2")
    try:
        raw.subscribe("edge-agent/gw2/response/scada-2/#")
        corr = b"\x00\xffops-7"
        ack = raw.publish(
            "edge-agent/gw2/request/scada-2",
            {"request_id": "props-1", "question": "props [steps=1 delay=0.01]"},
            response_topic="edge-agent/gw2/response/scada-2/ops/7",
            correlation=corr,
        )
        assert ack == 0
        assert wait_until(lambda: any(json.loads(m.payload).get("kind") == "result" for m in raw.got), 60), raw.got
        assert {m.topic for m in raw.got} == {"edge-agent/gw2/response/scada-2/ops/7"}
        assert {m.properties.CorrelationData for m in raw.got} == {corr}
    finally:
        raw.close()


def test_a_pool_across_the_sites_answers_each_request_once(fleet, ask):
    client = ask("scada-1", POOL)
    tag = uuid.uuid4().hex[:6]
    rids = [client.send(f"pool {tag} q{i} [steps=1 delay=0.2]") for i in range(9)]
    for rid in rids:
        assert isinstance(client.wait(rid, timeout=90).final, ResultReply)
    assert all(len(client.finals(rid)) == 1 for rid in rids)
    per_site = [started(site.member, f"pool {tag}") for site in fleet.sites]
    assert sum(per_site) == 9, per_site  # each request ran once, on one site
    assert sum(1 for n in per_site if n) >= 2, per_site  # the central broker spread them over the sites' bridges
    for i in range(9):
        assert sum(started(site.member, f"pool {tag} q{i} ") for site in fleet.sites) == 1


def test_cancel_and_agentask_through_the_bridge(fleet, ask):
    gw2 = ask("scada-1", "gw2")
    rid = gw2.send("a long one [steps=300 delay=0.1]")
    assert gw2.wait_for(lambda: any(isinstance(r, ProgressReply) for r in gw2.replies(rid)), 60)
    gw2.cancel(rid)
    final = gw2.wait(rid, timeout=60).final
    assert isinstance(final, CancelledReply) or (isinstance(final, ResultReply) and final.status == "cancelled")
    steps = sum(1 for r in gw2.replies(rid) if isinstance(r, ProgressReply))
    assert steps < 100  # stopped where it was, not run to its end

    for gateway in ("gw1", POOL):
        client = ask("scada-1", gateway)
        rid = client.send(f"which site {gateway} [steps=2 delay=0.05 ask=1]", options={"ask": True})
        outcome = client.wait(rid, timeout=90, answer=lambda q: "POKMAIN")
        assert any(r.kind == "question" for r in outcome.replies)
        assert isinstance(outcome.final, ResultReply)
        assert "requester said: POKMAIN" in (outcome.final.answer or ""), (gateway, outcome.final)


def test_a_requester_cannot_read_or_act_as_another_through_the_bridges(fleet, ask):
    victim = ask("scada-1", "gw1")
    spy = Raw(fleet.central, "scada-2")
    forger = Raw(fleet.sites[2].broker, TECHNICIAN)  # may publish anything on site 3, whose bridge sends +/response/#
    try:
        spy.subscribe(
            "edge-agent/+/response/#",
            "edge-agent/gw1/response/scada-1/#",
            "edge-agent/gw1/response/scada-2/#",
            "edge-agent/gw2/response/scada-2/#",
        )
        rid = victim.send("secret of scada-1 [steps=20 delay=0.1]")
        assert victim.wait_for(lambda: bool(victim.replies(rid)), 60)
        # scada-2 cancels scada-1's request in its own name: refused, the job goes on
        assert spy.publish("edge-agent/gw1/cancel/scada-2", {"request_id": rid}) == 0
        # scada-2 cancels (and asks) in scada-1's name: the central broker refuses the PUBACK, nothing crosses
        assert spy.publish("edge-agent/gw1/cancel/scada-1", {"request_id": rid}) == 0x87
        impostor = {"request_id": "imp-1", "question": "impostor [steps=1 delay=0.01]"}
        assert spy.publish("edge-agent/gw1/request/scada-1", impostor) == 0x87
        # scada-2 asks with a Response Topic under scada-1's replies: the gateway refuses to publish there
        ack = spy.publish(
            "edge-agent/gw2/request/scada-2",
            {"request_id": "steal-1", "question": "steal [steps=1 delay=0.01]"},
            response_topic="edge-agent/gw2/response/scada-1/x",
        )
        assert ack == 0
        # a forged reply to scada-1 from site 3, as if from gw1: site 3's bridge carries it, the central ACL drops it
        forged = {"kind": "result", "request_id": rid, "reply_id": "forged", "status": "answered", "answer": "lies"}
        assert forger.publish("edge-agent/gw1/response/scada-1/default", forged) == 0
        outcome = victim.wait(rid, timeout=90)
        assert isinstance(outcome.final, ResultReply) and outcome.final.answer == "script answer to: secret of scada-1"
        assert all(r.reply_id != "forged" for r in victim.replies(rid))
        assert wait_until(lambda: any(b"steal-1" in m.payload for m in spy.got), 60)
        # (one copy per matching subscription: Mosquitto grants the wildcard and filters each message by the ACL)
        mine = list({r["reply_id"]: r for r in (json.loads(m.payload) for m in spy.got)}.values())
        assert {m.topic.split("/")[3] for m in spy.got} == {"scada-2"}  # not one message of scada-1's
        assert any(m["request_id"] == rid and m["kind"] == "error" and m["code"] == "unknown_request" for m in mine), (
            mine
        )
        steal = [m for m in mine if m["request_id"] == "steal-1"]
        assert [m["kind"] for m in steal] == ["error"] and "reply topic" in steal[0]["message"], steal
        assert started(fleet.sites[0].gateway, "impostor") == 0
        assert started(fleet.sites[1].gateway, "steal") == 0
        # site 3's bridge still works for its own gateway after the central broker refused it a message
        gw3 = ask("scada-1", "gw3")
        assert isinstance(gw3.wait(gw3.send("after the forgery [steps=1 delay=0.01]"), timeout=60).final, ResultReply)
    finally:
        spy.close()
        forger.close()


def test_a_cut_link_loses_no_request_and_answers_each_once(fleet, ask):
    """Site 1's WAN link cut for CUT_S and restored. A v5 bridge's session on the central broker ends with its
    connection (Mosquitto 2.0 sends no Session Expiry Interval), so a request sent during the cut is dropped there
    (PUBACK 16, no matching subscribers): the requester's resend after the restore is what gets it answered, once.
    Replies the gateway makes during the cut wait in the site broker's queue for the bridge and all arrive, once."""
    site = fleet.sites[0]
    client = ask("scada-1", "gw1", resend_after_s=3.0, resends=100)
    pool = ask("scada-2", POOL)
    gw2 = ask("scada-3", "gw2")
    witness = Raw(fleet.central, "scada-4")  # sends once during the cut, never again
    witness.subscribe("edge-agent/gw1/response/scada-4/#")
    tag = uuid.uuid4().hex[:6]
    running = client.send(f"running {tag} [steps=8 delay=1]")
    assert client.wait_for(lambda: any(isinstance(r, ProgressReply) for r in client.replies(running)), 60)

    site.link.cut()
    cut_at = time.monotonic()
    during = [client.send(f"during {tag} {i} [steps=2 delay=0.05]") for i in range(3)]
    lost = witness.publish("edge-agent/gw1/request/scada-4", {"request_id": f"w-{tag}", "question": f"witness {tag}"})
    assert lost == 16  # PUBACK "No matching subscribers": the bridge's subscription went with its session
    # the other sites answer meanwhile: the pool's requests go to the bridges still connected
    pool_rid = pool.send(f"pool during {tag} [steps=1 delay=0.05]")
    gw2_rid = gw2.send(f"gw2 during {tag} [steps=1 delay=0.05]")
    assert isinstance(pool.wait(pool_rid, timeout=CUT_S).final, ResultReply)
    assert isinstance(gw2.wait(gw2_rid, timeout=CUT_S).final, ResultReply)
    assert started(site.member, f"pool during {tag}") == 0
    # nothing of gw1 reaches the central broker while the link is down
    time.sleep(max(0.0, CUT_S - (time.monotonic() - cut_at)))  # the cut itself: its length is the test's input
    assert all(not client.replies(rid) for rid in during)
    seen_running = len(client.replies(running))

    site.link.restore()
    restored_at = time.monotonic()
    assert fleet.bridge_up(site, 60), site.broker.log_tail(20)
    for rid in during:  # resends every 3 s (RequestClient.receipt), the first after the restore lands
        assert client.receipt(rid, 90), rid
    for rid in (running, *during):
        assert isinstance(client.wait(rid, timeout=90).final, ResultReply), rid
    answered_after_s = time.monotonic() - restored_at

    for rid in (running, *during):
        assert len(client.finals(rid)) == 1, rid  # one distinct final reply
    assert started(site.gateway, f"running {tag}") == 1
    for i in range(3):
        assert started(site.gateway, f"during {tag} {i} ") == 1  # resends answered as duplicates, never run again
    # progress is bounded: the running job's steps, each once, whatever the cut held back
    progress = [r for r in client.replies(running) if isinstance(r, ProgressReply)]
    assert len(progress) == 9 and len({(r.event, r.step) for r in progress}) == 9, [(r.event, r.step) for r in progress]
    assert len(client.replies(running)) > seen_running  # what the job did during the cut arrived after it
    assert answered_after_s < 45, answered_after_s
    # the request sent once during the cut was dropped by the central broker: never delivered, never answered
    assert started(site.gateway, f"witness {tag}") == 0 and not witness.got
    witness.close()


def test_the_fleet_view_on_the_central_broker_lists_every_gateway(fleet, ask, tmp_path):
    from edge_agent.commands.fleet import fleet as fleet_command
    from edge_agent.fleet.view import FleetView

    for site in fleet.sites:  # each gateway has answered something
        client = ask("scada-1", site.gateway_id)
        assert isinstance(client.wait(client.send("for the view [steps=1 delay=0.01]"), timeout=60).final, ResultReply)
    secret = tmp_path / "viewer-password"
    secret.write_text(password(VIEWER) + "\n")
    assert fleet.central is not None
    args = ["--broker", f"{fleet.central.host}:{fleet.central.port}", "--user", VIEWER, "--password-file", str(secret)]
    settings = load_settings(environ={})

    def view() -> FleetView:
        res = CliRunner().invoke(fleet_command, [*args, "--json"], catch_exceptions=False)
        assert res.exit_code == 0, res.output
        return FleetView.model_validate_json(res.stdout)

    def ready(v: FleetView) -> bool:
        by_id = {g.gateway_id: g for g in v.gateways}
        return all(
            by_id.get(s.gateway_id) and by_id[s.gateway_id].last_answer_time and by_id[s.gateway_id].queue_depth == 0
            for s in fleet.sites
        )

    deadline = time.monotonic() + 30  # Home Assistant's state is published after each job, from its own thread
    shown = view()
    while not ready(shown) and time.monotonic() < deadline:
        time.sleep(0.5)
        shown = view()
    by_id = {g.gateway_id: g for g in shown.gateways}
    assert sorted(by_id) == ["gw1", "gw2", "gw3", POOL]
    for site in fleet.sites:
        g = by_id[site.gateway_id]
        assert (g.status, g.degraded) == ("online", []), g
        assert g.version == __version__ and g.model == settings.model.name and g.name == f"edge-agent {g.gateway_id}"
        assert g.queue_depth == 0 and g.last_answer_time is not None and g.jobs["answered"] >= 1
        assert g.last_status == "answered"
    pool = by_id[POOL]
    assert pool.status == "online"
    assert sorted(m.client_id or "" for m in pool.members) == [f"edge-agent-{POOL}-s{n}" for n in (1, 2, 3)]
    assert {m.status for m in pool.members} == {"online"}

    res = CliRunner().invoke(fleet_command, args, catch_exceptions=False)
    assert res.exit_code == 0
    lines = res.stdout.splitlines()
    assert lines[0].split()[:3] == ["GATEWAY", "STATUS", "VERSION"]
    for gw in ("gw1", "gw2", "gw3"):
        assert any(line.split()[:3] == [gw, "online", __version__] for line in lines), res.stdout

    # a user the central ACL gives nothing to read: every subscription refused, exit 1
    res = CliRunner().invoke(
        fleet_command,
        ["--broker", f"{fleet.central.host}:{fleet.central.port}", "--user", "nobody", "--timeout", "5"],
        catch_exceptions=False,
    )
    assert res.exit_code == 1
