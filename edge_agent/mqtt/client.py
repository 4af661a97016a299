"""The requester side: send a question to a gateway over MQTT v5, follow its replies, fetch its files.

Used by `edge-agent request`, the demo, the tests and the latency benchmark. `RequestClient`
subscribes to its own `B/response/<client_id>/#`, sends requests with a Response Topic and
Correlation Data, collects replies per request (dropping QoS 1 redeliveries by `reply_id`),
answers `question` replies through a callback, and reassembles file chunks, checking size and
sha256 before writing a file.

The daemon's `accepted` (or any reply to the request) is the receipt: a broker's PUBACK only says the broker
took the message, and a broker whose queue for the daemon's session is full drops it after that PUBACK. So
`wait` sends the request again, with the same request_id, when no reply came within `resend_after_s` (at most
`resends` times); the daemon answers a resend once (an `accepted` with `duplicate: true`, or the stored final
reply, with its `reply_id`) and never runs it twice. A PUBACK that refuses the message ("Not authorized": the
broker's ACL) raises `RequestError` at once instead of waiting out the timeout.
"""

from __future__ import annotations

import hashlib
import json
import threading
import time
import uuid
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from types import TracebackType
from typing import Any

import paho.mqtt.client as mqtt
from paho.mqtt.packettypes import PacketTypes
from paho.mqtt.properties import Properties
from paho.mqtt.reasoncodes import ReasonCode
from paho.mqtt.subscribeoptions import SubscribeOptions

from edge_agent.config import Settings
from edge_agent.filestore import NAME_RE
from edge_agent.mqtt.connection import connect_properties, honour_receive_maximum, mqtt_client
from edge_agent.mqtt.protocol import (
    FileEntry,
    QuestionReply,
    Reply,
    ResultReply,
    is_final,
    parse_reply,
)
from edge_agent.mqtt.topics import Topics


class RequestError(RuntimeError):
    """No connection, no final reply in time, or a file that fails its checks."""


@dataclass
class RequestOutcome:
    """What one request came to, as `RequestClient.wait` followed it: its final reply, every distinct reply, and
    the files it wrote (named apart from the agent's `react.Outcome`, a run's end)."""

    request_id: str
    final: Reply | None = None
    replies: list[Reply] = field(default_factory=list)  # distinct replies in arrival order
    files: list[Path] = field(default_factory=list)


class RequestClient:
    def __init__(
        self,
        settings: Settings,
        *,
        client_id: str | None = None,
        host: str | None = None,
        port: int | None = None,
        persistent: bool = False,
        session_expiry_s: int = 3600,
        connect_timeout: float = 10.0,
        resend_after_s: float = 10.0,
        resends: int = 5,
    ):
        self.settings = settings
        # a broker that binds client ids to user names (the shipped config) makes the user name the client id
        self.client_id = client_id or settings.mqtt.username or f"req-{uuid.uuid4().hex[:10]}"
        self.topics = Topics(settings.mqtt.gateway_id)
        self.host, self.port = host or settings.mqtt.host, port or settings.mqtt.port
        self.persistent, self.session_expiry_s = persistent, session_expiry_s
        self.connect_timeout = connect_timeout
        self.resend_after_s, self.resends = resend_after_s, resends
        self._sent: dict[str, tuple[str, bytes, Properties]] = {}  # request_id → what to send again
        self.resent: dict[str, int] = {}  # request_id → resends so far
        self._pubacks: dict[int, object] = {}  # mid → the PUBACK's reason code
        self.prefix = self.topics.response_prefix(self.client_id)
        self.reply_topic = self.prefix + "replies"
        self._cond = threading.Condition()
        self._seen: set[str] = set()
        self.raw_count: dict[str, int] = {}  # request_id -> replies received, redeliveries included
        self._replies: dict[str, list[Reply]] = {}
        self._chunks: dict[tuple[str, str], dict[int, bytes]] = {}
        self.status: dict[str, str] = {}
        self.connected = threading.Event()
        self._client = mqtt_client(settings, self.client_id)
        self._client.on_connect = self._on_connect
        self._client.on_disconnect = lambda *a: self.connected.clear()
        self._client.on_message = self._on_message
        self._client.on_subscribe = self._on_subscribe
        self._client.on_publish = self._on_publish
        self._suback: int | None = -1  # the SUBSCRIBE's message id (None: paho could not send it)

    # connection ------------------------------------------------------------------------------
    def connect(self, timeout: float | None = None) -> RequestClient:
        timeout = self.connect_timeout if timeout is None else timeout
        props = connect_properties(self.session_expiry_s if self.persistent else 0)
        self._client.connect_async(
            self.host, self.port, keepalive=30, clean_start=not self.persistent, properties=props
        )
        self._client.loop_start()
        if not self.connected.wait(timeout):
            self._client.loop_stop()
            raise RequestError(f"could not connect to the MQTT broker at {self.host}:{self.port}")
        return self

    def close(self) -> None:
        self._client.disconnect()
        self._client.loop_stop()

    def __enter__(self) -> RequestClient:
        return self.connect()

    def __exit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        self.close()

    def _on_connect(
        self,
        client: mqtt.Client,
        userdata: object,
        flags: mqtt.ConnectFlags,
        reason_code: ReasonCode,
        properties: Properties | None,
    ) -> None:
        if reason_code.is_failure:
            return
        honour_receive_maximum(client, self.settings.mqtt.max_inflight, properties)
        opts = SubscribeOptions(qos=1)
        self._suback = client.subscribe(
            [(self.prefix + "#", opts), (self.topics.base + "/status/#", opts), (self.topics.status, opts)]
        )[1]

    def _on_publish(
        self, client: mqtt.Client, userdata: object, mid: int, reason_code: ReasonCode, properties: Properties
    ) -> None:
        self._pubacks[mid] = reason_code

    def _on_subscribe(
        self,
        client: mqtt.Client,
        userdata: object,
        mid: int,
        reason_codes: list[ReasonCode],
        properties: Properties | None,
    ) -> None:
        if mid == self._suback:
            self.connected.set()

    def _on_message(self, client: mqtt.Client, userdata: object, msg: mqtt.MQTTMessage) -> None:
        topic = msg.topic
        if topic.startswith(self.topics.status):
            self.status[topic] = msg.payload.decode(errors="replace")
            return
        if topic.startswith(self.prefix + "files/"):
            parts = topic[len(self.prefix) + len("files/") :].split("/")
            if len(parts) == 3 and parts[2].isdigit():
                with self._cond:
                    self._chunks.setdefault((parts[0], parts[1]), {})[int(parts[2])] = bytes(msg.payload)
                    self._cond.notify_all()
            return
        try:
            reply = parse_reply(bytes(msg.payload))
        except Exception:
            return
        key = reply.request_id or ""
        with self._cond:
            self.raw_count[key] = self.raw_count.get(key, 0) + 1
            if reply.reply_id and reply.reply_id in self._seen:
                return
            self._seen.add(reply.reply_id)
            self._replies.setdefault(key, []).append(reply)
            self._cond.notify_all()

    # sending -------------------------------------------------------------------------------------
    def _publish(
        self, topic: str, body: dict[str, Any], correlation: bytes | None = None, response_topic: str | None = None
    ) -> None:
        props = Properties(PacketTypes.PUBLISH)
        if response_topic:
            props.ResponseTopic = response_topic
        if correlation:
            props.CorrelationData = correlation
        self._deliver(topic, json.dumps(body).encode(), props)

    def _deliver(self, topic: str, payload: bytes, props: Properties, timeout: float = 10.0) -> None:
        """Publish at QoS 1; while a reconnect is under way paho keeps the message and sends it after. A PUBACK
        whose reason code refuses the message (e.g. "Not authorized") raises `RequestError`."""
        self.connected.wait(timeout)
        info = self._client.publish(topic, payload, qos=1, properties=props)
        if info.rc == mqtt.MQTT_ERR_SUCCESS:
            try:
                info.wait_for_publish(timeout)
            except (RuntimeError, ValueError):
                return  # the connection dropped: paho sends it after the reconnect (and `wait` resends)
            rc = self._pubacks.pop(info.mid, None)
            if getattr(rc, "is_failure", False):
                raise RequestError(
                    f"the broker refused the message on {topic}: {rc} (is this user allowed to "
                    f"publish there? under the shipped ACL a requester's client id is its user name)"
                )

    def send(
        self,
        question: str,
        *,
        request_id: str | None = None,
        options: dict[str, Any] | None = None,
        reply_topic: str | None = None,
        correlation: bytes | None = None,
        on_behalf_of: str | None = None,
    ) -> str:
        request_id = request_id or uuid.uuid4().hex[:12]
        body: dict[str, Any] = {"request_id": request_id, "question": question, "options": options or {}}
        if on_behalf_of is not None:  # a console naming its user (the daemon honours it from trusted consoles)
            body["on_behalf_of"] = on_behalf_of
        props = Properties(PacketTypes.PUBLISH)
        props.ResponseTopic = reply_topic or self.reply_topic
        props.CorrelationData = correlation or request_id.encode()
        self._sent[request_id] = (self.topics.request(self.client_id), json.dumps(body).encode(), props)
        self._deliver(*self._sent[request_id])
        return request_id

    def resend(self, request_id: str) -> None:
        """Send a request again as it was (same request_id): the daemon answers it once, never runs it twice."""
        self.resent[request_id] = self.resent.get(request_id, 0) + 1
        self._deliver(*self._sent[request_id])

    def receipt(self, request_id: str, timeout: float) -> bool:
        """Wait for the daemon's first reply to a request sent with `send` (its `accepted` is the receipt),
        sending it again every `resend_after_s` meanwhile (at most `resends` times). False: none in `timeout`."""
        deadline = time.monotonic() + timeout
        while True:
            left = deadline - time.monotonic()
            if self.wait_for(lambda: bool(self._replies.get(request_id)), min(left, self.resend_after_s)):
                return True
            if time.monotonic() >= deadline:
                return False
            if request_id in self._sent and self.resent.get(request_id, 0) < self.resends:
                self.resend(request_id)

    def send_raw(
        self,
        payload: bytes,
        *,
        topic: str | None = None,
        response_topic: str | None = None,
        correlation: bytes | None = None,
    ) -> None:
        props = Properties(PacketTypes.PUBLISH)
        if response_topic:
            props.ResponseTopic = response_topic
        if correlation:
            props.CorrelationData = correlation
        self._deliver(topic or self.topics.request(self.client_id), payload, props)

    def cancel(self, request_id: str) -> None:
        self._publish(self.topics.cancel(self.client_id), {"request_id": request_id})

    def answer(self, request_id: str, text: str) -> None:
        self._publish(self.topics.request(self.client_id), {"request_id": request_id, "answer": text})

    # receiving -----------------------------------------------------------------------------------
    def replies(self, request_id: str | None = None) -> list[Reply]:
        with self._cond:
            if request_id is None:
                return [r for rs in self._replies.values() for r in rs]
            return list(self._replies.get(request_id, []))

    def finals(self, request_id: str) -> list[Reply]:
        return [r for r in self.replies(request_id) if is_final(r)]

    def wait_for(self, predicate: Callable[[], bool], timeout: float) -> bool:
        deadline = time.monotonic() + timeout
        with self._cond:
            while not predicate():
                left = deadline - time.monotonic()
                if left <= 0:
                    return False
                self._cond.wait(min(left, 0.5))
            return True

    def wait(
        self,
        request_id: str,
        *,
        timeout: float = 600.0,
        on_reply: Callable[[Reply], None] | None = None,
        answer: Callable[[QuestionReply], str | None] | None = None,
        out_dir: Path | None = None,
        fetch_files: bool = True,
    ) -> RequestOutcome:
        """Follow one request to its final reply; optionally answer questions and write its files."""
        outcome = RequestOutcome(request_id)
        seen = 0
        deadline = time.monotonic() + timeout
        if request_id in self._sent and not self.receipt(request_id, timeout):
            sent = 1 + self.resent.get(request_id, 0)
            raise RequestError(
                f"no reply for {request_id} within {timeout:.0f} s (sent {sent} times): is the "
                f"gateway's daemon running?"
            )
        while outcome.final is None:

            def more(seen: int = seen) -> bool:  # bound to this pass's count
                return len(self._replies.get(request_id, [])) > seen

            if not self.wait_for(more, max(0.0, deadline - time.monotonic())):
                raise RequestError(f"no final reply for {request_id} within {timeout:.0f} s")
            for reply in self.replies(request_id)[seen:]:
                seen += 1
                outcome.replies.append(reply)
                if on_reply:
                    on_reply(reply)
                if isinstance(reply, QuestionReply) and answer is not None:
                    text = answer(reply)
                    if text is not None:
                        self.answer(request_id, text)
                if is_final(reply):
                    outcome.final = reply
                    break
        if isinstance(outcome.final, ResultReply) and fetch_files:
            for entry in outcome.final.files:
                if entry.chunks or entry.size == 0:
                    data = self.file_bytes(request_id, entry, timeout=max(5.0, deadline - time.monotonic()))
                    if out_dir is not None:
                        outcome.files.append(write_file(Path(out_dir), entry, data))
        return outcome

    def file_bytes(self, request_id: str, entry: FileEntry, timeout: float = 30.0) -> bytes:
        """Reassemble one file from its chunks and check its size and sha256."""
        key = (request_id, entry.file_id)
        if not self.wait_for(lambda: len(self._chunks.get(key, {})) >= entry.chunks, timeout):
            have = len(self._chunks.get(key, {}))
            raise RequestError(f"file {entry.name}: {have} of {entry.chunks} chunks arrived")
        with self._cond:
            parts = self._chunks.get(key, {})
            data = b"".join(parts[n] for n in range(entry.chunks))
        if len(data) != entry.size or hashlib.sha256(data).hexdigest() != entry.sha256:
            raise RequestError(f"file {entry.name}: size or sha256 does not match the manifest")
        return data


def write_file(folder: Path, entry: FileEntry, data: bytes) -> Path:
    """Write a checked file under `folder` with a plain name (a hostile name cannot escape it)."""
    name = entry.name if NAME_RE.fullmatch(entry.name) and ".." not in entry.name else f"file-{entry.file_id}"
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / name
    path.write_bytes(data)
    return path
