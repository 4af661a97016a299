"""Home Assistant MQTT discovery (`homeassistant.enabled`, docs/homeassistant.md).

The gateway appears in Home Assistant as one device with sensors: status, queue depth, jobs answered /
refused / partial / gave up / failed / cancelled (the statuses of `edge_agent.statuses`), the last status, the
last answer's time, the model; the last answer itself (and its question) only with `homeassistant.share_answers`
(every requester's question and answer would otherwise be readable by Home Assistant's broker user). Discovery
configs are retained on
`<prefix>/sensor/<node_id>/<object>/config` and published again whenever Home Assistant's birth message
(`<prefix>/status` = `online`) arrives. Every entity's availability is the daemon's retained status topic,
read through a template: `online` and `degraded: skyspark` are available (the gateway answers; a SkySpark
outage is waited out), `offline` (the Will, a clean stop) is not. The figures go to one retained JSON state
topic (`B/ha/state`), published by this module's own thread every `state_interval_s` and after each job,
from its own read of the queue database: nothing of it runs on the request path.

The connection is a third broker user, `<mqtt.username>-ha` (same password), under the shipped broker
rules (`use_username_as_clientid`: one user is one connection), made by the daemon's client factory
(`ClientFactory`, passed in: the daemon's MQTT layer sits above this one).
"""

from __future__ import annotations

import json
import logging
import re
import sqlite3
import threading
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path
from typing import Protocol

import paho.mqtt.client as mqtt

from edge_agent import __version__
from edge_agent.config import Settings
from edge_agent.statuses import effective, label

log = logging.getLogger(__name__)

#: availability: only the Will's `offline` is unavailable; `degraded: skyspark` still answers
AVAILABILITY_TEMPLATE = "{{ 'offline' if value == 'offline' else 'online' }}"
STATE_CHARS = 255  # Home Assistant refuses a sensor state longer than this


class ClientFactory(Protocol):
    """Makes a paho MQTT v5 client configured from `settings.mqtt`, logged in as `username` (same password):
    `edge_agent.mqtt.connection.mqtt_client`."""

    def __call__(self, settings: Settings, client_id: str, *, username: str | None = None) -> mqtt.Client: ...


def node_id(gateway_id: str) -> str:
    """The discovery node id: letters, digits, `_` and `-` only."""
    return "edge_agent_" + re.sub(r"[^A-Za-z0-9_-]", "_", gateway_id)


def discovery(settings: Settings, status_topic: str, state_topic: str) -> dict[str, dict]:
    """Discovery topic → config payload, for each entity of the gateway."""
    gw, prefix = settings.mqtt.gateway_id, settings.homeassistant.discovery_prefix
    node = node_id(gw)
    device = {
        "identifiers": [node],
        "name": f"edge-agent {gw}",
        "manufacturer": "edge-agent",
        "model": "edge-agent gateway",
        "sw_version": __version__,
    }
    origin = {"name": "edge-agent", "sw_version": __version__}
    availability = [
        {
            "topic": status_topic,
            "value_template": AVAILABILITY_TEMPLATE,
            "payload_available": "online",
            "payload_not_available": "offline",
        }
    ]

    def sensor(obj: str, name: str, template: str | None, **extra) -> tuple[str, dict]:
        config = {
            "name": name,
            "unique_id": f"{node}_{obj}",
            "state_topic": state_topic,
            "availability": availability,
            "device": device,
            "origin": origin,
        }
        if template:
            config["value_template"] = template
        config.update(extra)
        return f"{prefix}/sensor/{node}/{obj}/config", config

    entities = [
        sensor("status", "Status", None, state_topic=status_topic, icon="mdi:lan-connect"),
        sensor(
            "queue_depth",
            "Queue depth",
            "{{ value_json.queue_depth }}",
            state_class="measurement",
            unit_of_measurement="jobs",
            icon="mdi:tray-full",
        ),
        sensor(
            "jobs_answered",
            "Jobs answered",
            "{{ value_json.answered }}",
            state_class="total_increasing",
            icon="mdi:check-circle",
        ),
        sensor(
            "jobs_refused",
            "Jobs refused",
            "{{ value_json.refused }}",
            state_class="total_increasing",
            icon="mdi:hand-back-left",
        ),
        sensor(
            "jobs_partial",
            "Jobs partial",
            "{{ value_json.partial }}",
            state_class="total_increasing",
            icon="mdi:circle-half-full",
        ),
        sensor(
            "jobs_gave_up",
            "Jobs gave up",
            "{{ value_json.gave_up }}",
            state_class="total_increasing",
            icon="mdi:help-circle",
        ),
        sensor(
            "jobs_failed",
            "Jobs failed",
            "{{ value_json.failed }}",
            state_class="total_increasing",
            icon="mdi:alert-circle",
        ),
        sensor(
            "jobs_cancelled",
            "Jobs cancelled",
            "{{ value_json.cancelled }}",
            state_class="total_increasing",
            icon="mdi:cancel",
        ),
        sensor("last_status", "Last status", "{{ value_json.last_status }}", icon="mdi:list-status"),
        *(
            [
                sensor(
                    "last_answer",
                    "Last answer",
                    "{{ value_json.last_answer[:255] }}",
                    icon="mdi:message-text",
                    json_attributes_topic=state_topic,
                    json_attributes_template="{{ {'answer': value_json.last_answer, "
                    "'question': value_json.last_question} | tojson }}",
                )
            ]
            if settings.homeassistant.share_answers
            else []
        ),
        sensor("last_answer_time", "Last answer time", "{{ value_json.last_answer_time }}", device_class="timestamp"),
        sensor("model", "Model", "{{ value_json.model }}", entity_category="diagnostic", icon="mdi:brain"),
    ]
    return dict(entities)


def read_state(
    db_path: Path, model: str | None, conn: sqlite3.Connection | None = None, share_answers: bool = True
) -> dict:
    """The figures the sensors show, from the queue database (jobs ever finished, the last answer's time; its
    question and text only with `share_answers`)."""
    own = conn is None
    conn = conn or sqlite3.connect(str(db_path), timeout=5)
    try:
        depth = conn.execute("SELECT COUNT(*) FROM jobs WHERE state IN ('queued', 'running')").fetchone()[0]
        counts = {"answered": 0, "refused": 0, "partial": 0, "gave_up": 0, "failed": 0, "cancelled": 0}
        # the answer's opening is enough for `statuses.effective` to tell an older agent's refusal
        for kind, status, opening, n in conn.execute(
            "SELECT final_kind, json_extract(final_payload, '$.status'), "
            "substr(json_extract(final_payload, '$.answer'), 1, 80), COUNT(*) FROM jobs "
            "WHERE state='done' GROUP BY 1, 2, 3"
        ):
            shown = _shown(kind, status, opening)
            if shown in counts:
                counts[shown] += n
            elif shown == "error":  # the daemon could not run it, or something outside the gateway failed
                counts["failed"] += n
        row = conn.execute(
            "SELECT question, json_extract(final_payload, '$.answer'), finished, final_kind, "
            "json_extract(final_payload, '$.status') FROM jobs "
            "WHERE state='done' AND final_kind='result' ORDER BY finished DESC LIMIT 1"
        ).fetchone()
        last = conn.execute(
            "SELECT final_kind, json_extract(final_payload, '$.status'), "
            "substr(json_extract(final_payload, '$.answer'), 1, 80) FROM jobs "
            "WHERE state='done' ORDER BY finished DESC LIMIT 1"
        ).fetchone()
    finally:
        if own:
            conn.close()
    when = datetime.fromtimestamp(row[2], UTC).isoformat(timespec="seconds") if row and row[2] else None
    text = (
        {"last_answer": (row[1] or "") if row else "", "last_question": row[0] if row else ""} if share_answers else {}
    )
    return {
        "queue_depth": depth,
        **counts,
        "last_status": label(_shown(*last)) if last else "",
        **text,
        "last_answer_time": when,
        "model": model or "",
    }


def _shown(kind: str, status: str | None, opening: str | None) -> str:
    """A stored final reply's status as operators see it (`edge_agent.statuses`)."""
    if kind == "result":
        return effective(status, answer=opening)
    return effective(None, kind=kind)


class HomeAssistant:
    """Its own connection and thread: discovery on connect and on HA's birth, the state now and then."""

    def __init__(
        self,
        settings: Settings,
        status_topic: str,
        base_topic: str,
        db_path: Path,
        model: Callable[[], str | None],
        client_id: str,
        mqtt_client: ClientFactory,
    ):
        self.settings = settings
        ha = settings.homeassistant
        self.state_topic = f"{base_topic}/ha/state"
        self.configs = discovery(settings, status_topic, self.state_topic)
        self.birth_topic = f"{ha.discovery_prefix}/status"
        self.db_path, self.model = db_path, model
        m = settings.mqtt
        user = ha.username or (f"{m.username}-ha" if m.username else None)
        self.client_id = user or f"{client_id}-ha"
        self.client = mqtt_client(settings, self.client_id, username=user)
        self.client.on_connect = self._on_connect
        self.client.on_message = self._on_message
        self._wake = threading.Event()
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._loop, name="homeassistant", daemon=True)

    def start(self) -> None:
        m = self.settings.mqtt
        self.client.connect_async(m.host, m.port, keepalive=m.keepalive_s)
        self.client.loop_start()
        self._thread.start()

    def stop(self) -> None:
        self._stop.set()
        self._wake.set()
        if self._thread.is_alive():
            self._thread.join(5)
        self.client.disconnect()
        self.client.loop_stop()

    def state_changed(self) -> None:
        """A job finished: publish the figures soon (from this module's thread)."""
        self._wake.set()

    def announce(self) -> None:
        for topic, config in self.configs.items():
            self.client.publish(topic, json.dumps(config), qos=1, retain=True)
        log.info("Home Assistant discovery: %d entities announced as %s", len(self.configs), self.client_id)

    def _on_connect(self, client, userdata, flags, reason_code, properties) -> None:
        if reason_code.is_failure:
            log.error("broker refused the Home Assistant connection (%s): %s", self.client_id, reason_code)
            return
        client.subscribe(self.birth_topic, qos=1)
        self.announce()
        self._wake.set()

    def _on_message(self, client, userdata, msg) -> None:
        if msg.topic == self.birth_topic and msg.payload == b"online":  # HA (re)started: it forgot us
            self.announce()
            self._wake.set()

    def _loop(self) -> None:
        conn = None
        while not self._stop.is_set():
            self._wake.wait(self.settings.homeassistant.state_interval_s)
            self._wake.clear()
            if self._stop.is_set() or not self.client.is_connected():
                continue
            try:
                conn = conn or sqlite3.connect(str(self.db_path), timeout=5)
                state = read_state(self.db_path, self.model(), conn, self.settings.homeassistant.share_answers)
                self.client.publish(self.state_topic, json.dumps(state), qos=1, retain=True)
            except Exception:
                log.exception("could not publish the Home Assistant state")
        if conn is not None:
            conn.close()
