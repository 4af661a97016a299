"""Home Assistant MQTT discovery (docs/homeassistant.md) through a broker set up as docs/gateway-install.md says
(the shipped ACL, `use_username_as_clientid`): the payloads' keys against HA's documented schema, availability
from the daemon's status (degraded is available), the state after a job, re-announce on HA's birth message."""

import json
import threading
import time

import jinja2
import paho.mqtt.client as mqtt
import pytest
from paho.mqtt.enums import CallbackAPIVersion

from edge_agent.config import load_settings
from edge_agent.fleet.homeassistant import AVAILABILITY_TEMPLATE, discovery
from edge_agent.mqtt.protocol import ResultReply
from edge_agent.mqtt.runner import ScriptRunner
from edge_agent.mqtt.service import GatewayService
from tests.plugins.mqtt import DAEMON_USER, as_user, mqtt_overrides

#: https://www.home-assistant.io/integrations/sensor.mqtt/ (configuration variables) and
#: https://www.home-assistant.io/integrations/mqtt/#discovery-messages (device, origin)
SENSOR_KEYS = {
    "availability",
    "availability_mode",
    "availability_template",
    "availability_topic",
    "default_entity_id",
    "device",
    "device_class",
    "enabled_by_default",
    "encoding",
    "entity_category",
    "entity_picture",
    "expire_after",
    "force_update",
    "icon",
    "json_attributes_template",
    "json_attributes_topic",
    "last_reset_value_template",
    "name",
    "object_id",
    "options",
    "origin",
    "payload_available",
    "payload_not_available",
    "platform",
    "qos",
    "state_class",
    "state_topic",
    "suggested_display_precision",
    "unique_id",
    "unit_of_measurement",
    "value_template",
}
AVAILABILITY_KEYS = {"payload_available", "payload_not_available", "topic", "value_template"}
DEVICE_KEYS = {
    "configuration_url",
    "connections",
    "hw_version",
    "identifiers",
    "manufacturer",
    "model",
    "model_id",
    "name",
    "serial_number",
    "suggested_area",
    "sw_version",
    "via_device",
}
ORIGIN_KEYS = {"name", "sw_version", "support_url"}
STATE_CLASSES = {"measurement", "total", "total_increasing", "measurement_angle"}


def test_discovery_payloads_follow_the_documented_schema():
    settings = load_settings(environ={})
    private = discovery(settings, "edge-agent/gw1/status", "edge-agent/gw1/ha/state")
    assert len(private) == 11 and not any("last_answer/" in t for t in private)  # no requester's text by default
    settings = load_settings(overrides={"homeassistant": {"share_answers": True}}, environ={})
    configs = discovery(settings, "edge-agent/gw1/status", "edge-agent/gw1/ha/state")
    assert len(configs) == 12
    ids = [c["unique_id"] for c in configs.values()]
    assert len(set(ids)) == len(ids)
    for topic, config in configs.items():
        prefix, component, node, obj, leaf = topic.split("/")
        assert (prefix, component, node, leaf) == ("homeassistant", "sensor", "edge_agent_gw1", "config")
        assert set(config) <= SENSOR_KEYS, set(config) - SENSOR_KEYS
        assert {"name", "unique_id", "state_topic", "device", "availability"} <= set(config)
        assert set(config["device"]) <= DEVICE_KEYS and config["device"]["identifiers"] == ["edge_agent_gw1"]
        assert set(config["origin"]) <= ORIGIN_KEYS and "name" in config["origin"]
        for entry in config["availability"]:
            assert set(entry) <= AVAILABILITY_KEYS and entry["topic"] == "edge-agent/gw1/status"
        assert config.get("state_class", "measurement") in STATE_CLASSES
        for key in ("value_template", "json_attributes_template"):
            if key in config:
                jinja2.Environment().parse(config[key])  # HA templates are Jinja2
    # degraded is available: only the Will's offline makes the entities unavailable
    template = jinja2.Environment().from_string(AVAILABILITY_TEMPLATE)
    assert [template.render(value=v) for v in ("online", "degraded: skyspark", "offline")] == [
        "online",
        "online",
        "offline",
    ]


class Watcher:
    """A Home Assistant stand-in: HA's broker user, subscribed to discovery and the gateway's state."""

    def __init__(self, broker):
        self.got: dict[str, list[bytes]] = {}
        self.cond = threading.Condition()
        self.c = mqtt.Client(CallbackAPIVersion.VERSION2, client_id="homeassistant", protocol=mqtt.MQTTv5)
        self.c.username_pw_set("homeassistant", "homeassistant-pw")
        self.c.on_message = self._on_message
        self.c.on_connect = lambda c, u, f, rc, p: c.subscribe([("homeassistant/#", 1), ("edge-agent/gw1/ha/#", 1)])
        self.c.connect(broker.host, broker.port)
        self.c.loop_start()

    def _on_message(self, client, userdata, msg):
        with self.cond:
            self.got.setdefault(msg.topic, []).append(msg.payload)
            self.cond.notify_all()

    def wait(self, predicate, timeout=10.0) -> bool:
        deadline = time.monotonic() + timeout
        with self.cond:
            while not predicate():
                if not self.cond.wait(max(0.0, deadline - time.monotonic())) and time.monotonic() > deadline:
                    return False
        return True

    def configs(self) -> dict[str, int]:
        return {t: len(v) for t, v in self.got.items() if t.endswith("/config")}

    def state(self) -> dict:
        return json.loads(self.got["edge-agent/gw1/ha/state"][-1])


@pytest.mark.broker
def test_the_gateway_appears_in_home_assistant_under_the_shipped_acl(secured_broker, requester, tmp_path):
    broker = secured_broker(["ops1", "homeassistant", f"{DAEMON_USER}-ha"])
    settings = load_settings(
        overrides={
            **mqtt_overrides(tmp_path / "state", broker, username=DAEMON_USER),
            "homeassistant": {"enabled": True, "state_interval_s": 60},
        },
        environ={},
    )
    ha = Watcher(broker)
    svc = GatewayService(settings, ScriptRunner(settings))
    svc.start()
    try:
        assert svc.connected.wait(10)
        assert ha.wait(lambda: len(ha.configs()) == 11), ha.got.keys()
        assert svc.fleet.ha.client_id == f"{DAEMON_USER}-ha"
        for topic, payloads in ha.got.items():
            if topic.endswith("/config"):
                assert json.loads(payloads[-1])["availability"][0]["topic"] == "edge-agent/gw1/status"
        assert ha.wait(lambda: "edge-agent/gw1/ha/state" in ha.got)  # the figures at connect
        assert ha.state()["answered"] == 0

        c = requester("ops1", settings=as_user(tmp_path, broker, "ops1"))
        out = c.wait(c.send("count chillers [steps=1]"), timeout=30, fetch_files=False)
        assert isinstance(out.final, ResultReply)
        assert ha.wait(lambda: ha.state()["answered"] == 1)  # published after the job, not at the next interval
        state = ha.state()
        assert state["last_answer_time"] and state["queue_depth"] == 0
        # Home Assistant's user reads no requester's question or answer (issue 30) ...
        assert "last_answer" not in state and "last_question" not in state
        assert not any(out.final.answer.encode() in p or b"count chillers" in p for ps in ha.got.values() for p in ps)
        # ... and is no requester: the shipped ACL refuses its request (PUBACK "Not authorized"), nothing is queued
        acks = []
        ha.c.on_publish = lambda c, u, mid, rc, props: acks.append(rc)
        ha.c.publish(
            "edge-agent/gw1/request/homeassistant", json.dumps({"request_id": "ha1", "question": "hi [steps=1]"}), qos=1
        ).wait_for_publish(5)
        assert ha.wait(lambda: bool(acks)) and str(acks[0]) == "Not authorized", acks
        time.sleep(0.5)
        assert svc.jobs.get("homeassistant", "ha1") is None
        assert state["model"] == settings.model.name

        before = ha.configs()
        ha.c.publish("homeassistant/status", "online", qos=1)  # HA restarted: it forgot every entity
        assert ha.wait(lambda: all(n > before[t] for t, n in ha.configs().items()))
    finally:
        svc.stop(timeout=10)
        ha.c.loop_stop()
        ha.c.disconnect()


def test_the_state_counts_each_status_as_operators_see_it(tmp_path):
    """refused, partial and cancelled have their own counters; a refusal an older agent delivered as `answered`
    counts as refused (edge_agent/statuses.py, the one mapping the console and the audit use)."""
    import json
    import sqlite3

    from edge_agent.fleet.homeassistant import read_state
    from tests.plugins.console import REFUSAL

    db = tmp_path / "queue.db"
    conn = sqlite3.connect(db)
    conn.execute("CREATE TABLE jobs (state TEXT, final_kind TEXT, final_payload TEXT, question TEXT, finished REAL)")
    finals = [
        ("result", {"status": "answered", "answer": "5 chillers"}),
        ("result", {"status": "answered", "answer": REFUSAL}),
        ("result", {"status": "refused", "answer": "This gateway cannot answer that: ..."}),
        ("result", {"status": "partial", "answer": "Chiller 3 peaked at 41; Chiller 7 is not on the SkySpark"}),
        ("result", {"status": "gave_up", "answer": None}),
        ("error", {"code": "skyspark_unavailable", "message": "down"}),
        ("cancelled", {"message": "cancelled by console:ada"}),
    ]
    for n, (kind, payload) in enumerate(finals):
        conn.execute(
            "INSERT INTO jobs VALUES ('done', ?, ?, ?, ?)",
            (kind, json.dumps({"kind": kind, **payload}), f"q{n}", 1000.0 + n),
        )
    conn.execute("INSERT INTO jobs VALUES ('queued', NULL, NULL, 'waiting', NULL)")
    conn.commit()
    state = read_state(db, "smollm2-135m", conn)
    assert {k: state[k] for k in ("answered", "refused", "partial", "gave_up", "failed", "cancelled")} == {
        "answered": 1,
        "refused": 2,
        "partial": 1,
        "gave_up": 1,
        "failed": 1,
        "cancelled": 1,
    }
    assert state["queue_depth"] == 1 and state["last_status"] == "cancelled"
