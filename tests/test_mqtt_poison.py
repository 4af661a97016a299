"""Hostile payloads over a real broker: every request or cancel, whatever its fields hold (every Unicode category,
lone surrogates, noncharacters, NUL, controls), gets exactly one reply that ends it, the daemon stays up, and the
next good request is answered (issue 25: a poison message once held the broker's in-flight window)."""

from __future__ import annotations

import itertools
import json
import threading
import time

import paho.mqtt.client as mqtt
import pytest
from hypothesis import HealthCheck, given
from hypothesis import settings as hsettings
from hypothesis import strategies as st
from paho.mqtt.enums import CallbackAPIVersion
from paho.mqtt.packettypes import PacketTypes
from paho.mqtt.properties import Properties

from edge_agent.mqtt.protocol import is_final, parse_reply
from tests.test_mqtt_protocol import any_text, json_values, option_values, request_ids

pytestmark = pytest.mark.broker

fields = st.fixed_dictionaries(
    {},
    optional={
        "request_id": request_ids | any_text | st.integers(),
        "question": any_text | st.text(min_size=1, max_size=30) | json_values,
        "options": option_values | json_values,
        "reply_to": any_text | st.just("edge-agent/gw1/response/fuzz/x"),
        "correlation": any_text,
        "answer": any_text,
        "extra": json_values,  # an unknown field (json_values' object keys are hostile text too)
    },
)
hostile = st.tuples(
    st.sampled_from(["request", "cancel"]),
    fields,
    st.sampled_from(["escaped", "raw"]),  # \ud800 as JSON escape, or as (invalid) UTF-8 bytes
    # an MQTT v5 Response Topic: Mosquitto itself disconnects a client whose property strings are
    # not well-formed UTF-8 or hold controls (such a message never reaches the daemon)
    st.one_of(
        st.none(),
        st.sampled_from(["edge-agent/gw1/response/fuzz/r", "elsewhere", "", "edge-agent/gw1/response/other/r"]),
        st.text(st.characters(exclude_categories=("Cs", "Cc")), max_size=30),
    ),
)


class Collector:
    """The fuzzing requester `fuzz`: replies by Correlation Data, all of them."""

    def __init__(self, settings):
        self.by_corr: dict[bytes, list] = {}
        self.cond = threading.Condition()
        self.client = mqtt.Client(CallbackAPIVersion.VERSION2, client_id="fuzz", protocol=mqtt.MQTTv5)
        self.client.on_message = self._on_message
        ready = threading.Event()
        self.client.on_subscribe = lambda *a: ready.set()
        self.client.on_connect = lambda c, *a: c.subscribe("edge-agent/gw1/response/fuzz/#", qos=1)
        self.client.connect(settings.mqtt.host, settings.mqtt.port)
        self.client.loop_start()
        assert ready.wait(10)

    def _on_message(self, client, userdata, msg):
        corr = getattr(msg.properties, "CorrelationData", None) or b""
        with self.cond:
            self.by_corr.setdefault(bytes(corr), []).append(parse_reply(msg.payload))
            self.cond.notify_all()

    def send(self, kind: str, payload: bytes, corr: bytes, response_topic: str | None) -> None:
        props = Properties(PacketTypes.PUBLISH)
        props.CorrelationData = corr
        if response_topic is not None:
            props.ResponseTopic = response_topic
        info = self.client.publish(f"edge-agent/gw1/{kind}/fuzz", payload, qos=1, properties=props)
        info.wait_for_publish(10)

    def ended(self, corr: bytes, kind: str) -> list:
        """The replies that end a message: a final one (a request's outcome, a cancelled job), or the error
        about a side message (a cancel or an answer that concerns no request's outcome: `final: false`)."""
        return [r for r in self.by_corr.get(corr, []) if is_final(r) or r.kind == "error"]

    def wait_end(self, corr: bytes, kind: str, timeout: float = 8.0) -> list:
        deadline = time.monotonic() + timeout
        with self.cond:
            while not self.ended(corr, kind) and time.monotonic() < deadline:
                self.cond.wait(0.2)
        time.sleep(0.15)  # a second final reply would arrive right behind the first
        with self.cond:
            return self.ended(corr, kind)


@pytest.fixture
def fuzz_target(inproc_daemon, mqtt_settings):
    svc = inproc_daemon()
    collector = Collector(mqtt_settings)
    yield svc, collector
    collector.client.disconnect()
    collector.client.loop_stop()


_counter = itertools.count()


@hsettings(
    max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow]
)
@given(case=hostile)
def test_every_hostile_message_gets_exactly_one_ending_reply_and_the_daemon_goes_on(fuzz_target, case):
    svc, collector = fuzz_target
    kind, data, encoding, response_topic = case
    n = next(_counter)
    if isinstance(data.get("question"), str):  # a request the script runner would accept runs quickly
        data["question"] = data["question"][:40] + " [steps=1 delay=0]"
    if encoding == "escaped":
        payload = json.dumps(data).encode()
    else:
        payload = json.dumps(data, ensure_ascii=False).encode("utf-8", "surrogatepass")
    corr = f"fuzz-{n}".encode()
    collector.send(kind, payload, corr, response_topic)
    ends = collector.wait_end(corr, kind)
    assert len(ends) == 1, (payload[:200], collector.by_corr.get(corr))
    assert svc.healthy() and svc.connected.is_set() and svc.jobs.dead_letters() == []
    good = f"good-{n}".encode()
    collector.send(
        "request", json.dumps({"request_id": f"good-{n}", "question": "ok [steps=1 delay=0]"}).encode(), good, None
    )
    [final] = collector.wait_end(good, "request")
    assert final.kind == "result" and final.status == "answered"
