"""The fleet view (`edge-agent fleet`): every gateway a broker shows, read from what the gateways leave retained.

A gateway leaves on its broker (and, bridged as docs/fleet.md says, on the central one):

* `edge-agent/<gw>/status` — `online`, `offline` (its Last Will, a clean stop) or `degraded: <reason>`
  (`skyspark`, `session queue`); a member of a shared-subscription pool reports on `edge-agent/<gw>/status/<member>`;
* with `homeassistant.enabled`: `edge-agent/<gw>/ha/state`, JSON figures (queue depth, jobs by status, the last
  status, the last answer's time, the model) — `HAState`;
* with it too: Home Assistant discovery configs `homeassistant/sensor/edge_agent_<gw>/<object>/config`, whose
  `device` names the gateway and its version (`sw_version`) — `DiscoveryConfig`.

`TOPICS` are what a viewer subscribes to, `Retained` gathers the messages, `Retained.view()` makes one `Gateway` per
gateway id, and `table` prints them. `collect` drives a paho client (made by the caller: this module sits below
the daemon's MQTT code): it subscribes and takes what arrives until the broker has been quiet for `settle_s`
(retained messages come right after the SUBACK).
"""

from __future__ import annotations

import json
import threading
import time
from datetime import UTC, datetime
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, ValidationError

#: what the view subscribes to (its broker user needs read access to these, docs/fleet.md)
TOPICS = ("edge-agent/+/status", "edge-agent/+/status/+", "edge-agent/+/ha/state", "homeassistant/sensor/+/+/config")
JOB_STATUSES = ("answered", "partial", "refused", "gave_up", "failed", "cancelled")


class HAState(BaseModel):
    """`edge-agent/<gw>/ha/state` as `edge_agent.fleet.homeassistant.read_state` writes it."""

    model_config = ConfigDict(extra="ignore")
    queue_depth: int | None = None
    answered: int = 0
    partial: int = 0
    refused: int = 0
    gave_up: int = 0
    failed: int = 0
    cancelled: int = 0
    last_status: str = ""
    last_answer_time: datetime | None = None
    model: str = ""


class DiscoveryDevice(BaseModel):
    model_config = ConfigDict(extra="ignore")
    name: str = ""
    sw_version: str | None = None


class DiscoveryConfig(BaseModel):
    """One Home Assistant discovery config (`edge_agent.fleet.homeassistant.discovery`); only what the view reads."""

    model_config = ConfigDict(extra="ignore")
    state_topic: str | None = None
    device: DiscoveryDevice = DiscoveryDevice()


class Member(BaseModel):
    """One daemon's retained status: the gateway's own, or a pool member's (`client_id` set)."""

    client_id: str | None = None
    status: str


class Gateway(BaseModel):
    """One row of the view."""

    gateway_id: str
    name: str | None = None
    status: str = Field(description="online, degraded, offline, or unknown (figures but no status seen)")
    degraded: list[str] = Field(default_factory=list, description="why it is not simply online")
    members: list[Member] = Field(default_factory=list)
    version: str | None = None
    model: str | None = None
    queue_depth: int | None = None
    last_answer_time: datetime | None = None
    last_status: str | None = None
    jobs: dict[str, int] = Field(default_factory=dict, description="jobs ever finished, by status")


class FleetView(BaseModel):
    broker: str
    taken_at: datetime
    gateways: list[Gateway]


def _state(members: list[Member]) -> tuple[str, list[str]]:
    """The gateway's status and degraded reasons from its daemons' statuses (one, or a pool's members)."""
    reasons: list[str] = []
    answering = 0
    for m in members:
        who = f"{m.client_id}: " if m.client_id else ""
        if m.status == "offline":
            if m.client_id:
                reasons.append(f"{who}offline")
            continue
        answering += 1
        if m.status != "online":
            reasons.append(who + (m.status.split(":", 1)[1].strip() if ":" in m.status else m.status))
    if not members:
        return "unknown", ["no status"]
    if answering == 0:
        return "offline", reasons
    return ("online" if not reasons else "degraded"), reasons


class Retained:
    """The retained messages a viewer received, by topic; `add` takes one, `view` reads them all."""

    def __init__(self) -> None:
        self.statuses: dict[str, dict[str | None, str]] = {}  # gateway → member (None: the gateway) → status
        self.states: dict[str, HAState] = {}
        self.devices: dict[str, DiscoveryDevice] = {}
        self.unreadable: list[str] = []

    def add(self, topic: str, payload: bytes) -> None:
        parts = topic.split("/")
        if not payload:  # a retained message cleared
            return
        if parts[0] == "edge-agent" and len(parts) in (3, 4) and parts[2] == "status":
            member = parts[3] if len(parts) == 4 else None
            self.statuses.setdefault(parts[1], {})[member] = payload.decode(errors="replace").strip()
        elif parts[0] == "edge-agent" and parts[2:] == ["ha", "state"]:
            try:
                self.states[parts[1]] = HAState.model_validate_json(payload)
            except ValidationError:
                self.unreadable.append(topic)
        elif parts[0] == "homeassistant" and len(parts) == 5 and parts[-1] == "config":
            try:
                config = DiscoveryConfig.model_validate_json(payload)
            except ValidationError:
                self.unreadable.append(topic)
                return
            state = (config.state_topic or "").split("/")
            if len(state) >= 3 and state[0] == "edge-agent":  # edge-agent/<gw>/ha/state or .../status
                self.devices[state[1]] = config.device

    def view(self, broker: str) -> FleetView:
        gateways = []
        for gw in sorted(set(self.statuses) | set(self.states) | set(self.devices)):
            members = [Member(client_id=m, status=s) for m, s in sorted(self.statuses.get(gw, {}).items(), key=_key)]
            status, degraded = _state(members)
            state, device = self.states.get(gw), self.devices.get(gw)
            gateways.append(
                Gateway(
                    gateway_id=gw,
                    name=device.name if device else None,
                    status=status,
                    degraded=degraded,
                    members=members,
                    version=device.sw_version if device else None,
                    model=(state.model or None) if state else None,
                    queue_depth=state.queue_depth if state else None,
                    last_answer_time=state.last_answer_time if state else None,
                    last_status=(state.last_status or None) if state else None,
                    jobs={s: getattr(state, s) for s in JOB_STATUSES} if state else {},
                )
            )
        return FleetView(broker=broker, taken_at=datetime.now(UTC), gateways=gateways)


def _key(item: tuple[str | None, str]) -> str:
    return item[0] or ""


def collect(client: Any, host: str, port: int, *, timeout: float = 10.0, settle_s: float = 1.0) -> Retained:
    """Connect `client` (a paho v5 client, not yet connected), subscribe to `TOPICS`, gather what arrives until
    nothing has for `settle_s` after the SUBACK (at most `timeout`), disconnect. Raises ConnectionError when the
    broker cannot be reached or refuses the connection or the subscription."""
    got = Retained()
    lock = threading.Lock()
    subscribed, refused = threading.Event(), threading.Event()
    reason: list[str] = []
    last = [time.monotonic()]

    def on_connect(c: Any, userdata: Any, flags: Any, rc: Any, props: Any = None) -> None:
        if rc.is_failure:
            reason.append(f"the broker refused the connection: {rc}")
            refused.set()
            return
        c.subscribe([(t, 1) for t in TOPICS])

    def on_subscribe(c: Any, userdata: Any, mid: int, codes: list[Any], props: Any = None) -> None:
        denied = [t for t, code in zip(TOPICS, codes, strict=False) if code.is_failure]
        if len(denied) == len(TOPICS):
            reason.append(f"the broker refused every subscription ({codes[0]}): check the user's ACL")
            refused.set()
            return
        last[0] = time.monotonic()
        subscribed.set()

    def on_message(c: Any, userdata: Any, msg: Any) -> None:
        with lock:
            got.add(msg.topic, bytes(msg.payload))
            last[0] = time.monotonic()

    client.on_connect, client.on_subscribe, client.on_message = on_connect, on_subscribe, on_message
    deadline = time.monotonic() + timeout
    try:
        client.connect(host, port, keepalive=30)
    except OSError as exc:
        raise ConnectionError(f"cannot reach the MQTT broker at {host}:{port}: {exc}") from exc
    client.loop_start()
    try:
        while not subscribed.is_set():
            if refused.is_set() or time.monotonic() >= deadline:
                raise ConnectionError(reason[0] if reason else f"no answer from the MQTT broker at {host}:{port}")
            subscribed.wait(0.05)
        while time.monotonic() < deadline and time.monotonic() - last[0] < settle_s:
            time.sleep(0.05)
    finally:
        client.disconnect()
        client.loop_stop()
    return got


def _when(value: datetime | None) -> str:
    return value.astimezone(UTC).strftime("%Y-%m-%d %H:%M:%SZ") if value else "-"


def table(view: FleetView) -> str:
    """The view as a plain-text table, one gateway a line (a pool's members on the lines below it)."""
    head = ("GATEWAY", "STATUS", "VERSION", "MODEL", "QUEUE", "LAST ANSWER", "LAST STATUS", "DEGRADED")
    rows: list[tuple[str, ...]] = []
    for g in view.gateways:
        rows.append(
            (
                g.gateway_id,
                g.status,
                g.version or "-",
                g.model or "-",
                "-" if g.queue_depth is None else str(g.queue_depth),
                _when(g.last_answer_time),
                g.last_status or "-",
                ", ".join(g.degraded) or "-",
            )
        )
        for m in g.members:
            if m.client_id:
                rows.append(("  " + m.client_id, m.status, "", "", "", "", "", ""))
    if not rows:
        return f"no gateway seen on {view.broker}"
    widths = [max(len(r[i]) for r in (head, *rows)) for i in range(len(head))]
    return "\n".join("  ".join(c.ljust(w) for c, w in zip(r, widths, strict=True)).rstrip() for r in (head, *rows))


def as_json(view: FleetView) -> str:
    return json.dumps(view.model_dump(mode="json"), indent=2)
