"""The gateway daemon (`edge-agent serve`): MQTT v5 in, one worker running jobs in order, replies out.

Request path: paho's network thread hands each message to the group committer (`committer.py`),
which validates whatever has arrived, inserts the jobs and their `accepted` replies (outbox) in
ONE SQLite transaction → commit → publishes the replies itself (`OutboxPublisher.release`) → PUBACK
each (paho `manual_ack`). A message that raises (a bug) undoes the batch, which is stored again one
savepoint per message, so only that message is left unacknowledged.
(`mqtt.group_commit: false` keeps one transaction per message, in the network thread.) So an
acknowledged request is always on disk, and an unacknowledged one is redelivered by the broker
(persistent session: `clean_start=False` + Session Expiry). Duplicates are found by (client_id,
request_id), within a batch too, and get the stored final reply or the current state, never a
second run.

Two connections (`mqtt.reply_connection`, default on): the session connection (client id) takes
requests, cancels and answers, sends their PUBACKs and the status; every reply, progress message and
file chunk goes out on a second connection (client id + `-replies`). Mosquitto reads one packet per
connection per turn of its loop and saves its database after each turn, so on one connection a
burst's `accepted` replies and its PUBACKs wait behind each other, and a result's file chunks
behind new requests' PUBACKs (bench/reports/2026-11-24-reply-connection).

Worker thread: takes the oldest queued job, runs it through the `Runner` (one at a time: the
model is one), publishes `progress` for every agent event, relays `agentask` questions to the
requester (`kind=question`; the reply comes back on the request topic), and finally stores the
file chunks + `result` / `error` / `cancelled` with the job in one transaction.

Where errors go: a reply goes to the request's Response Topic (or body `reply_to`) only if it lies
under `B/response/<client_id>/`; otherwise — and for payloads that name no reply topic — it goes to
`B/response/<client_id>/default`, a topic only that client may read, so a client can never make
the daemon publish outside its own subtree. A request topic with an empty client id is acked,
logged and dropped (there is nowhere safe to answer).
"""

from __future__ import annotations

import gc
import json
import logging
import math
import shutil
import signal
import threading
import time
import uuid
from contextlib import contextmanager, nullcontext
from dataclasses import dataclass, field
from datetime import datetime, timezone
from typing import Iterator

import paho.mqtt.client as mqtt
from paho.mqtt.subscribeoptions import SubscribeOptions

from edge_agent.agent.trajectory import AgentEvent, RunResult
from edge_agent.config import Settings
from edge_agent.failures import WAIT_OUT, ExternalFailure, disk_full
from edge_agent.filestore import read_plain
from edge_agent.fleet.hooks import FleetHooks, final_status
from edge_agent.llm.base import Interrupted
from edge_agent.mqtt.committer import GroupCommitter
from edge_agent.mqtt.connection import connect_properties, honour_receive_maximum, mqtt_client
from edge_agent.mqtt.notify import Watchdog, notify
from edge_agent.mqtt.outage import Outage
from edge_agent.mqtt.outbox import OutboxPublisher, correlation_props, publish_packet_size
from edge_agent.mqtt.protocol import (
    REQUEST_ID_RE, AcceptedReply, Answer, Cancel, CancelledReply, ErrorReply, FileEntry, Limits, ProgressReply, QuestionReply,
    Reply, Request, RequestOptions, ResultReply, Topics, is_final, parse_incoming, parse_reply, valid_client_id,
)
from edge_agent.mqtt.queue import Job, JobQueue, OutboxRow
from edge_agent.mqtt.runner import Runner

log = logging.getLogger(__name__)

CHUNK_SEQ_DIGITS = 10  # a chunk's topic ends in /<seq>: sized as if seq had this many digits
OBSERVATION_CHARS = 300
ONLINE, DEGRADED, QUEUE_NEAR = "online", "degraded: skyspark", "degraded: session queue"
BACKLOG_NEAR = 0.8  # a session backlog at this share of mqtt.broker_queue_limit shows in the status
BACKLOG_GAP_S = 0.25  # messages less than this apart are one run: a backlog the broker delivers back to back
DISK_RETRY_S = 5.0  # a final reply the queue database cannot take (a full disk) is tried again this often


@dataclass
class CurrentJob:
    job: Job
    cancel: threading.Event = field(default_factory=threading.Event)
    cancel_requested: bool = False  # by the requester (→ `cancelled`), not by our own shutdown
    shutdown: bool = False
    waiting: bool = False
    answer: str | None = None
    answer_event: threading.Event = field(default_factory=threading.Event)


def _waitable(result: RunResult | None) -> ExternalFailure | None:
    """The failure of a run that the daemon waits out (the SkySpark unreachable or too slow), else None."""
    if result is None or result.status != "failed" or result.reason not in WAIT_OUT:
        return None
    return ExternalFailure(result.error or result.reason, result.reason)  # type: ignore[arg-type]


def _failed_result(job: Job, failure: ExternalFailure | None) -> RunResult:
    """The outcome of a job that never ran: the outage outlasted `skyspark.outage_wait_s` before it could."""
    return RunResult(run_id=job.job_id, question=job.question, strategy="", model="", now="", status="failed",
                     reason=failure.reason if failure else "skyspark_unavailable",
                     error=str(failure) if failure else "the SkySpark could not be reached")


def _topic_of(msg: mqtt.MQTTMessage) -> str:
    """A message's topic for logs and dead letters, even one that is not UTF-8."""
    try:
        return msg.topic
    except UnicodeDecodeError:
        return bytes(msg._topic).decode("utf-8", "backslashreplace")


def _peek_request_id(payload: bytes) -> str | None:
    """The payload's request_id where it is a valid one (for error replies about a message that failed)."""
    try:
        rid = json.loads(payload).get("request_id")
    except Exception:
        return None
    return rid if isinstance(rid, str) and REQUEST_ID_RE.fullmatch(rid) else None


def _peek_reply_to(payload: bytes) -> str | None:
    try:
        data = json.loads(payload)
    except Exception:
        return None
    value = data.get("reply_to") if isinstance(data, dict) else None
    return value if isinstance(value, str) else None


class GatewayService:
    """The daemon. `start()` returns at once; `stop()` is the clean stop (SIGTERM)."""

    def __init__(self, settings: Settings, runner: Runner, *, client_id: str | None = None,
                 shared_group: str | None = None):
        self.settings = settings
        self.m = settings.mqtt
        self.runner = runner
        self.client_id = client_id or self.m.client_id or self.m.username or f"edge-agent-{self.m.gateway_id}"
        self.topics = Topics(self.m.gateway_id, shared_group or self.m.shared_group, self.client_id)
        self.limits = Limits(max_payload_bytes=self.m.max_payload_bytes, max_question_chars=self.m.max_question_chars)
        self.jobs = JobQueue(settings.state_dir / "queue.db")
        self.max_packet = self.m.max_packet_bytes  # lowered to the broker's Maximum Packet Size at each CONNACK
        self.connected = threading.Event()
        self._stopping = threading.Event()
        self._stop_requested = threading.Event()
        self._wake = threading.Event()
        self._cur_lock = threading.Lock()
        self._current: CurrentJob | None = None
        self._cancel_requests: set[str] = set()
        self._beat = time.monotonic()
        self.outage = Outage(settings.skyspark.outage_wait_s, settings.skyspark.outage_retry_s)
        self._status = ONLINE  # the retained status: online, or degraded while an outage is waited out
        self._outage_status = ONLINE
        self._backlog, self._backlog_at, self._queue_near = 0, 0.0, False  # `_watch_backlog`
        self.client = mqtt_client(settings, self.client_id, will=(self.topics.status, "offline"), manual_ack=True)
        self.client.on_connect = self._on_connect
        self.client.on_disconnect = self._on_disconnect
        self.client.on_message = self._on_message
        self.replies = self.client  # the connection replies go out on (see the module's docstring)
        self._ids = {self.client: self.client_id}
        if self.m.reply_connection:
            reply_user = self.m.reply_username or (f"{self.m.username}-replies" if self.m.username else None)
            self.replies = mqtt_client(settings, f"{self.client_id}-replies", username=reply_user)
            self.replies.on_connect = self._on_replies_connect
            self.replies.on_disconnect = self._on_disconnect
            self._ids[self.replies] = f"{self.client_id}-replies"
        self._up = {client: False for client in self._ids}
        self._up_lock = threading.Lock()
        self.replies.on_publish = lambda c, u, mid, rc, props: self.outbox.on_publish(mid, rc)
        self.outbox = OutboxPublisher(self.jobs, self.replies, lambda: self.max_packet, attempts=self.m.reply_attempts,
                                      notice=self._not_delivered, on_dead=lambda: self.fleet.dead_letter())
        self.committer = GroupCommitter(self._store, lambda msg: self.client.ack(msg.mid, msg.qos),
                                        max_batch=self.m.group_commit_max) if self.m.group_commit else None
        self._worker = threading.Thread(target=self._work, name="worker", daemon=True)
        self.watchdog = Watchdog(self.healthy)
        # metrics, audit trail, Home Assistant (edge_agent/fleet/): each off unless configured
        self.fleet = FleetHooks(settings, jobs=self.jobs, topics=self.topics, connected=self.connected.is_set,
                                runner=runner, client_id=self.client_id)
        self.fleet.backlog = lambda: (self._backlog, self.m.broker_queue_limit)
        self._watcher = threading.Thread(target=self._watch_backlog, name="session-watch", daemon=True)

    # ------------------------------------------------------------------------------ lifecycle
    def start(self) -> None:
        requeued = self.jobs.requeue_interrupted()
        if requeued:
            log.warning("resuming %d job(s) interrupted by the last stop", requeued)
        self.fleet.start()
        # The model (runner) and the database are open: systemd may consider us started, even if
        # the broker is not reachable yet (paho keeps retrying in the background).
        notify("READY=1", f"STATUS=serving as {self.client_id}; {self.jobs.counts().get('queued', 0)} queued")
        self._worker.start()
        self.outbox.start()
        if self.committer is not None:
            self.committer.start()
        self.watchdog.start()
        self._watcher.start()
        if self.replies is not self.client:  # no session to keep: the outbox holds every reply until its PUBACK
            self.replies.connect_async(self.m.host, self.m.port, keepalive=self.m.keepalive_s)
            self.replies.loop_start()
        self.client.connect_async(self.m.host, self.m.port, keepalive=self.m.keepalive_s, clean_start=False,
                                  properties=connect_properties(self.m.session_expiry_s))
        self.client.loop_start()

    def request_stop(self, *_args) -> None:
        self._stop_requested.set()

    def serve_forever(self) -> None:
        """Start, run until SIGTERM/SIGINT, stop cleanly. What start-up built (modules, the model's
        wrappers, settings: tens of thousands of objects that live as long as the process) is moved out
        of the garbage collector's reach first: otherwise each full collection walks all of it, a pause
        of ~20 ms (measured: twice in 30 bursts of 100 requests) in whichever thread allocates next."""
        signal.signal(signal.SIGTERM, self.request_stop)
        signal.signal(signal.SIGINT, self.request_stop)
        gc.collect()
        gc.freeze()
        log.info("start-up heap: %d objects frozen (out of the garbage collector's reach)", gc.get_freeze_count())
        self.start()
        while not self._stop_requested.wait(1.0):
            pass
        self.stop()

    def stop(self, timeout: float = 30.0) -> None:
        notify("STOPPING=1")
        self._stopping.set()
        self._wake.set()
        with self._cur_lock:
            cur = self._current
            if cur is not None:  # interrupted, not cancelled: it resumes at the next start
                cur.shutdown = True
                cur.cancel.set()
                cur.answer_event.set()
        self._worker.join(timeout)
        if self.connected.is_set():
            self.outbox.wait_idle(5.0)
            info = self.client.publish(self.topics.status, "offline", qos=1, retain=True)
            try:
                info.wait_for_publish(5.0)
            except (RuntimeError, ValueError):
                pass
        self.watchdog.stop()
        self.outbox.stop()
        for client in dict.fromkeys((self.replies, self.client)):  # replies first: the Will is the session's
            client.disconnect()
            client.loop_stop()
        if self.committer is not None:
            self.committer.stop()
        self.fleet.stop()
        self.jobs.close()
        log.info("stopped")

    def healthy(self) -> bool:
        """The worker thread is alive and has shown progress within `worker_stall_s`."""
        return self._worker.is_alive() and time.monotonic() - self._beat < self.m.worker_stall_s

    # ------------------------------------------------------------------------------ paho callbacks
    def _on_connect(self, client, userdata, flags, reason_code, properties) -> None:
        if reason_code.is_failure:
            log.error("broker refused the connection: %s", reason_code)
            return
        inflight = honour_receive_maximum(client, self.m.max_inflight, properties)
        opts = SubscribeOptions(qos=1)
        client.subscribe([(self.topics.request_filter, opts), (self.topics.cancel_filter, opts),
                          (self.topics.answer_filter, opts)])
        client.publish(self.topics.status, self._status, qos=1, retain=True)
        log.info("session up as %s (session present: %s, %d in flight)", self.client_id, flags.session_present,
                 inflight)
        if self.replies is client:
            self._replies_up(client, properties, inflight)
        self._mark(client, True)

    def _on_replies_connect(self, client, userdata, flags, reason_code, properties) -> None:
        if reason_code.is_failure:
            log.error("broker refused the reply connection: %s", reason_code)
            return
        self._replies_up(client, properties, honour_receive_maximum(client, self.m.max_inflight, properties))
        self._mark(client, True)

    def _replies_up(self, client, properties, inflight: int) -> None:
        """The reply connection is up: its CONNACK's packet size limit (or `mqtt.max_packet_bytes`, whichever is
        smaller), then the outbox goes on, from its table (paho's own re-sends are taken back first)."""
        size = getattr(properties, "MaximumPacketSize", None) if properties is not None else None
        self.max_packet = min(int(size), self.m.max_packet_bytes) if size else self.m.max_packet_bytes
        self.outbox.on_connect()
        log.info("replies go out as %s (max packet %d, %d in flight)", self._ids[client], self.max_packet,
                 inflight)
        self.outbox.wake()

    def _mark(self, client, up: bool) -> None:
        """`connected` while every connection is up (requests come in and replies go out)."""
        with self._up_lock:
            self._up[client] = up
            if all(self._up.values()):
                self.connected.set()
                log.info("connected to %s:%s as %s", self.m.host, self.m.port, self.client_id)
            else:
                self.connected.clear()

    def _on_disconnect(self, client, userdata, flags, reason_code, properties) -> None:
        self._mark(client, False)
        if client is self.replies:
            self.outbox.on_disconnect(reason_code)
        if not self._stopping.is_set():
            log.warning("%s disconnected from the broker (%s); reconnecting", self._ids[client], reason_code)

    def _on_message(self, client, userdata, msg: mqtt.MQTTMessage) -> None:
        now = time.monotonic()  # the session backlog: messages in one run without a pause (`_watch_backlog`)
        self._backlog = self._backlog + 1 if now - self._backlog_at < BACKLOG_GAP_S else 1
        self._backlog_at = now
        if self.committer is not None:
            self.committer.put(msg)  # stored with whatever else arrives meanwhile, then acked
            return
        for stored in self._store([msg]):  # no group commit: one transaction per message
            client.ack(stored.mid, stored.qos)

    # ------------------------------------------------------------------------------ incoming
    def _store(self, msgs: list[mqtt.MQTTMessage]) -> list[mqtt.MQTTMessage]:
        """Handle `msgs` in ONE transaction; after the commit, the ones to acknowledge — all of them: a message
        is never left unacknowledged, since the broker would hold it in the in-flight window and send it again
        at every connect, and enough of them stop every requester's requests. Should one of them raise (a bug),
        the batch is undone and stored again with each message in its own savepoint: the one that raised is
        kept as a dead letter and its requester gets an `internal` error. Should the database itself fail (a
        full disk), each message gets a `not_stored` error published at once, and nothing was queued."""
        parsed = [(msg, self._parse(msg)) for msg in msgs]  # validation outside the database lock
        try:
            stored = self._store_parsed(parsed, alone=False)
        except Exception:
            log.exception("failed to store a batch of %d message(s); storing each alone", len(msgs))
            try:
                stored = self._store_parsed(parsed, alone=True)
            except Exception as exc:  # not even a dead letter could be written: the database fails
                log.exception("could not store %d message(s); each gets a not_stored error", len(msgs))
                self._refuse_unstored(parsed, exc)
                stored = list(msgs)
        self._wake.set()
        self.fleet.stored(stored)
        return stored

    def _store_parsed(self, parsed: list[tuple[mqtt.MQTTMessage, tuple | Exception | None]], *,
                      alone: bool) -> list[mqtt.MQTTMessage]:
        """One transaction; `alone`: each message in its own savepoint, one that raises becomes a dead letter."""
        stored = []
        with self._replying() as conn:
            for msg, incoming in parsed:
                try:
                    with self.jobs.savepoint(conn) if alone else nullcontext():
                        if isinstance(incoming, Exception):
                            raise incoming
                        if incoming is not None:
                            self._handle(conn, *incoming)
                except Exception as exc:
                    if not alone:
                        raise
                    log.exception("failed to handle a message on %s; keeping it as a dead letter", _topic_of(msg))
                    with self.jobs.savepoint(conn):  # raises only if the database fails: see `_store`
                        self._dead_letter(conn, msg, exc)
                stored.append(msg)
        return stored

    def _error_topic(self, msg: mqtt.MQTTMessage) -> tuple[str, str, bytes | None] | None:
        """Where an error about `msg` may go, whatever it holds: (kind, topic, correlation) — its Response
        Topic when that lies in its client's subtree, else the client's default reply topic; None when the
        topic names no client (nowhere safe to answer)."""
        split = self.topics.split(_topic_of(msg))
        if split is None or not valid_client_id(split[1]):
            return None
        props = msg.properties
        response = getattr(props, "ResponseTopic", None) if props is not None else None
        correlation = getattr(props, "CorrelationData", None) if props is not None else None
        if response is None or self.topics.check_reply_topic(split[1], response) is not None:
            response = self.topics.default_reply(split[1])
        return split[0], response, correlation

    def _dead_letter(self, conn, msg: mqtt.MQTTMessage, exc: Exception) -> None:
        """Keep a message the daemon failed on (a bug) and tell its requester, inside the transaction."""
        why = f"{type(exc).__name__}: {exc}"
        n = self.jobs.dead_letter(conn, _topic_of(msg), msg.payload, why)
        self.fleet.dead_letter()
        where = self._error_topic(msg)
        if where is not None:
            kind, topic, correlation = where
            err = ErrorReply(code="internal", request_id=_peek_request_id(msg.payload), final=kind == "request",
                             message=f"the daemon failed on this message ({ascii(why)[1:-1][:200]}); it was kept "
                                     f"for the administrator as dead letter {n}", reply_id=uuid.uuid4().hex)
            self._add(conn, topic, err, correlation)

    def _refuse_unstored(self, parsed: list[tuple[mqtt.MQTTMessage, tuple | Exception | None]],
                         exc: Exception) -> None:
        """The database failed: each message gets a `not_stored` error at once (not from the outbox, which is
        in that database); nothing of them was stored, so a request sent again later is new."""
        why = ascii(f"{type(exc).__name__}: {exc}")[1:-1][:200]
        for msg, _ in parsed:
            where = self._error_topic(msg)
            if where is None:
                continue
            kind, topic, correlation = where
            err = ErrorReply(code="not_stored", request_id=_peek_request_id(msg.payload), final=kind == "request",
                             message=f"the gateway could not store this message ({why}); nothing was queued: "
                                     f"send it again later", reply_id=uuid.uuid4().hex)
            try:
                self._publish_now(topic, err, correlation)
            except Exception:
                log.exception("could not publish a not_stored error on %s", topic)

    @contextmanager
    def _replying(self) -> Iterator:
        """One durable transaction whose replies this thread publishes right after the commit, rather
        than the outbox thread (which would wait for the database lock through the next commit)."""
        rows = []
        try:
            with self.jobs.tx() as conn:
                yield conn
                rows = self.outbox.claim(self.jobs.added())
        except BaseException:
            self.outbox.unclaim(rows)
            raise
        self.outbox.release(rows)

    def _parse(self, msg: mqtt.MQTTMessage) -> tuple | Exception | None:
        """(kind, client_id, payload or ErrorReply, response topic, correlation); None: ack and drop; an
        exception: this message could not even be read (it becomes a dead letter). Never raises."""
        try:
            split = self.topics.split(msg.topic)
            if split is None:
                log.warning("ignoring a message on %s", _topic_of(msg))
                return None
            kind, client_id = split
            if not valid_client_id(client_id):
                log.warning("dropping a message on %s: the topic names no usable client id", _topic_of(msg))
                return None
            props = msg.properties
            response_topic = getattr(props, "ResponseTopic", None) if props is not None else None
            correlation = getattr(props, "CorrelationData", None) if props is not None else None
            parsed = parse_incoming(msg.payload, kind, self.limits)  # type: ignore[arg-type]
            return kind, client_id, parsed, msg.payload, response_topic, correlation
        except Exception as exc:
            return exc

    def _handle(self, conn, kind: str, client_id: str, parsed, raw: bytes, response_topic: str | None,
                correlation: bytes | None) -> None:
        if isinstance(parsed, ErrorReply):
            if kind == "answer" and self.topics.shared_group:
                return  # a forwarded message another member may own; nothing to say
            topic = response_topic or _peek_reply_to(raw)
            if topic is None or self.topics.check_reply_topic(client_id, topic) is not None:
                topic = self.topics.default_reply(client_id)
            parsed.reply_id = uuid.uuid4().hex
            self._add(conn, topic, parsed, correlation)
            self.fleet.refused(conn, kind, client_id, parsed)
            log.info("refused a %s from %s: %s (%s)", kind, client_id, parsed.code, parsed.message)
        elif isinstance(parsed, Request):
            self._on_request(conn, client_id, parsed, response_topic, correlation)
        elif isinstance(parsed, Answer):
            self._on_answer(conn, kind, client_id, parsed, raw, correlation)
        elif isinstance(parsed, Cancel):
            self._on_cancel(conn, client_id, parsed, correlation)

    def _on_request(self, conn, client_id: str, req: Request, response_topic: str | None,
                    correlation: bytes | None) -> None:
        default = self.topics.default_reply(client_id)
        # an empty Response Topic or reply_to is a reply topic outside the client's subtree: refused, not ignored
        reply_topic = next((t for t in (response_topic, req.reply_to) if t is not None), default)
        # both are checked (by what MQTT and Mosquitto take in a topic), each error naming its field
        problem = (self.topics.check_reply_topic(client_id, response_topic, "Response Topic (MQTT property)")
                   or self.topics.check_reply_topic(client_id, req.reply_to, "reply_to"))
        if problem:
            err = ErrorReply(code="bad_response_topic", request_id=req.request_id, correlation=req.correlation,
                             message=f"refused: {problem}; this error is published on {default}",
                             reply_id=uuid.uuid4().hex)
            self._add(conn, default, err, correlation)
            self.fleet.request(conn, client_id, req, None, "refused: bad_response_topic")
            return
        if req.on_behalf_of is not None and client_id not in self.m.trusted_consoles:
            err = ErrorReply(code="invalid_field", request_id=req.request_id, correlation=req.correlation,
                             message=f"on_behalf_of: only a trusted console may name the person it asks for "
                                     f"({client_id!r} is not in mqtt.trusted_consoles)", reply_id=uuid.uuid4().hex)
            self._add(conn, reply_topic, err, correlation)
            return
        job = self.jobs.get(client_id, req.request_id)  # sees this batch's own inserts: same transaction
        if job is not None and job.state == "done":
            payload = job.final_payload.encode()
            for topic, data in self._stored_chunks(job):  # a retry gets the files again too
                self.jobs.outbox_add(conn, topic, data, correlation)
        elif job is not None:
            payload = AcceptedReply(request_id=req.request_id, state=job.state, position=self.jobs.position(job),
                                    duplicate=True, correlation=req.correlation,
                                    reply_id=uuid.uuid4().hex).model_dump_json().encode()
        if job is not None:
            self.fleet.request(conn, client_id, req, job, "duplicate")
        else:
            quota = self.m.max_queued_per_client
            if quota and self.jobs.client_active(conn, client_id) >= quota:
                err = ErrorReply(code="quota_exceeded", request_id=req.request_id, correlation=req.correlation,
                                 message=f"{client_id} already has {quota} jobs queued or running (the gateway's "
                                         f"mqtt.max_queued_per_client); nothing was queued: send it again once "
                                         f"some have finished", reply_id=uuid.uuid4().hex)
                self._add(conn, reply_topic, err, correlation)
                self.fleet.request(conn, client_id, req, None, "refused: quota_exceeded")
                return
            position = self.jobs.fair_position(conn, client_id)  # round-robin: see JobQueue.next_queued
            job = self.jobs.insert(conn, job_id=uuid.uuid4().hex[:16], client_id=client_id,
                                   request_id=req.request_id, question=req.question,
                                   options=req.options.model_dump(), reply_topic=reply_topic,
                                   correlation=correlation, body_correlation=req.correlation,
                                   on_behalf_of=req.on_behalf_of)
            payload = AcceptedReply(request_id=req.request_id, position=position,
                                    correlation=req.correlation,
                                    reply_id=f"{job.job_id}.accepted").model_dump_json().encode()
            self.fleet.request(conn, client_id, req, job, "accepted")
        self.jobs.outbox_add(conn, reply_topic, payload, correlation)

    def _on_answer(self, conn, kind: str, client_id: str, ans: Answer, raw: bytes,
                   correlation: bytes | None) -> None:
        with self._cur_lock:
            cur = self._current
            if (cur is not None and cur.waiting and cur.job.client_id == client_id
                    and cur.job.request_id == ans.request_id):
                cur.answer = ans.answer
                cur.answer_event.set()
                self.fleet.answer(conn, client_id, ans.request_id, ans.answer, "delivered")
                return
        if self.topics.shared_group:
            if kind == "request":  # maybe another member runs that job: pass it on to all members
                self.client.publish(self.topics.answer(client_id), raw, qos=1)
            return
        job = self.jobs.get(client_id, ans.request_id)
        self.fleet.answer(conn, client_id, ans.request_id, ans.answer,
                          "unknown_request" if job is None else "no_question_pending")
        if job is None:
            err = ErrorReply(code="unknown_request", request_id=ans.request_id, final=False,
                             message=f"no request {ans.request_id!r} from {client_id} is known here",
                             reply_id=uuid.uuid4().hex)
            self._add(conn, self.topics.default_reply(client_id), err, correlation)
        else:
            err = ErrorReply(code="no_question_pending", request_id=ans.request_id, final=False,
                             message="the job is not waiting for an answer (it timed out or never asked)",
                             correlation=job.body_correlation, reply_id=uuid.uuid4().hex)
            self._add(conn, job.reply_topic, err, job.correlation)

    def _on_cancel(self, conn, client_id: str, c: Cancel, correlation: bytes | None) -> None:
        job = self.jobs.get(client_id, c.request_id)
        self.fleet.cancel(conn, client_id, c.request_id, job, "unknown_request" if job is None else job.state)
        if job is not None and job.state == "queued":
            reply = CancelledReply(request_id=job.request_id, correlation=job.body_correlation,
                                   message="cancelled before it started", reply_id=f"{job.job_id}.final")
            payload = reply.model_dump_json()
            self.jobs.finish(conn, job.job_id, "cancelled", payload)
            self.jobs.outbox_add(conn, job.reply_topic, payload.encode(), job.correlation)
            self.fleet.final(conn, job, "cancelled", cancelled_by=client_id, detail="before it started")
            self.fleet.finished(job, "cancelled")
        elif job is not None and job.state == "done":  # idempotent: the stored outcome again
            self.jobs.outbox_add(conn, job.reply_topic, job.final_payload.encode(), job.correlation)
        if job is None:
            if not self.topics.shared_group:  # in a group, another member may own it
                err = ErrorReply(code="unknown_request", request_id=c.request_id, final=False,
                                 message=f"no request {c.request_id!r} from {client_id} is known here",
                                 reply_id=uuid.uuid4().hex)
                self._add(conn, self.topics.default_reply(client_id), err, correlation)
        elif job.state == "running":
            with self._cur_lock:
                self._cancel_requests.add(job.job_id)
                cur = self._current
                if cur is not None and cur.job.job_id == job.job_id:
                    cur.cancel_requested = True
                    cur.cancel.set()
                    cur.answer_event.set()

    def _not_delivered(self, row: OutboxRow, reason: str, dead_id: int) -> tuple[str, bytes, bytes | None] | None:
        """The outbox gave up on `row` (dead letter `dead_id`): the error its requester gets on its default
        response topic (None: the row names no requester of ours, or is itself such an error)."""
        prefix = f"{self.topics.base}/response/"
        if not row.topic.startswith(prefix):
            return None
        client_id = row.topic[len(prefix):].split("/", 1)[0]
        if not valid_client_id(client_id):
            return None
        topic = self.topics.default_reply(client_id)
        try:
            reply: Reply | None = parse_reply(row.payload)
        except Exception:  # a file chunk: raw bytes
            reply = None
        if isinstance(reply, ErrorReply) and reply.code == "not_delivered":
            return None  # never an error about an error: that could go on forever
        parts = row.topic[len(self.topics.response_prefix(client_id)):].split("/")
        request_id = reply.request_id if reply is not None else (parts[1] if parts[0] == "files" and len(parts) > 1
                                                                 else None)
        final = reply is not None and is_final(reply)
        what = f"its {reply.kind} reply" if reply is not None else "a file chunk"
        err = ErrorReply(code="not_delivered", request_id=request_id, final=final,
                         correlation=reply.correlation if reply is not None else None, reply_id=f"dead-{dead_id}",
                         message=f"{what} ({len(row.payload)} bytes on {ascii(row.topic)[1:-1][:160]}) could not be "
                                 f"delivered: {ascii(reason)[1:-1][:300]}; it was kept for the administrator as dead "
                                 f"letter {dead_id}" + ("; send the request again with the same request_id and a "
                                                        "plain reply topic to get its stored final reply" if final else ""))
        payload = err.model_dump_json().encode()
        correlation = row.correlation
        if correlation and publish_packet_size(topic, payload, correlation) > self.max_packet:
            correlation = None  # the Correlation Data itself was too large: the error goes without it
        return topic, payload, correlation

    def _publish_now(self, topic: str, reply: Reply, correlation: bytes | None) -> None:
        """Publish a reply directly (not from the outbox: its database failed); never one the broker would refuse
        (the Correlation Data is left out where the packet would be too large)."""
        payload = reply.model_dump_json().encode()
        if correlation and publish_packet_size(topic, payload, correlation) > self.max_packet:
            correlation = None
        if publish_packet_size(topic, payload, correlation) > self.max_packet:
            log.error("not publishing a %d-byte reply on %s: over the packet limit", len(payload), topic)
            return
        self.replies.publish(topic, payload, qos=1, properties=correlation_props(correlation))

    def _add(self, conn, topic: str, reply: Reply, correlation: bytes | None) -> None:
        self.jobs.outbox_add(conn, topic, reply.model_dump_json().encode(), correlation)

    def _send(self, topic: str, reply: Reply, correlation: bytes | None) -> None:
        with self._replying() as conn:
            self._add(conn, topic, reply, correlation)

    def _notify(self, job: Job, reply: Reply) -> None:
        """A progress reply, best effort: stored and sent like every reply, or — when the queue database cannot
        take it (a full disk) — published at once; never an exception into the run."""
        try:
            self._send(job.reply_topic, reply, job.correlation)
        except Exception as exc:
            if disk_full(exc) is None:
                log.exception("could not store a progress reply for job %s", job.job_id)
            self._publish_now(job.reply_topic, reply, job.correlation)

    def _watch_backlog(self) -> None:
        """Twice a second: a session backlog at `BACKLOG_NEAR` of the broker's queue limit turns the status to
        `degraded: session queue` (the broker is about to drop requests after their PUBACK: it holds no more
        than max_queued_messages for a session); a pause in the deliveries turns it back."""
        limit = self.m.broker_queue_limit
        while limit and not self._stopping.wait(0.5):
            near = self._backlog >= BACKLOG_NEAR * limit and time.monotonic() - self._backlog_at < 2 * BACKLOG_GAP_S
            if near != self._queue_near:
                self._queue_near = near
                if near:
                    log.warning("session queue: %d requests delivered without a pause, near the broker's limit of "
                                "%d (mqtt.broker_queue_limit): requests beyond it are dropped by the broker",
                                self._backlog, limit)
                self._set_status(self._outage_status)

    def _set_status(self, status: str) -> None:
        """The retained status (`B/status`): online; `degraded: skyspark` while an outage is waited out;
        `degraded: session queue` while the broker's queue for the daemon's session is near its limit."""
        self._outage_status = status
        if status == ONLINE and self._queue_near:
            status = QUEUE_NEAR
        if status != self._status:
            self._status = status
            log.warning("status: %s", status) if status != ONLINE else log.info("status: %s", status)
            self.client.publish(self.topics.status, status, qos=1, retain=True)

    # ------------------------------------------------------------------------------ worker
    def _warm(self) -> None:
        """Before the first job: the runner's prompt prefix into the model's KV cache (restored from its
        saved state, else evaluated). A job already queued waits for it, as it would in its first step; a
        failure here is logged and the jobs still run; a stop interrupts it (a new model's prefill on a
        gateway CPU takes minutes)."""
        warm = getattr(self.runner, "warm", None)
        if warm is None or self._stopping.is_set():
            return
        started = time.monotonic()
        try:
            usage = warm(interrupt=self._stopping) or {}
        except Interrupted:
            log.info("warm: stopped after %.2f s by the daemon's stop", time.monotonic() - started)
            return
        except Exception:
            log.exception("warming the model's prompt prefix failed; the first question will do it")
            return
        log.info("warm: prompt prefix ready in %.2f s (%s tokens evaluated, %.0f ms restoring a saved state)",
                 time.monotonic() - started, usage.get("evaluated_tokens", "?"), usage.get("state_ms", 0.0))

    def _work(self) -> None:
        self._warm()
        while not self._stopping.is_set():
            self._beat = time.monotonic()
            job = self.jobs.next_queued()
            if job is None:
                if self.outage.due():  # idle during an outage: find out when the SkySpark is back
                    self._known_outage()
                self._wake.wait(1.0)
                self._wake.clear()
                continue
            cur = CurrentJob(job)
            with self._cur_lock:
                self._current = cur
                if job.job_id in self._cancel_requests:
                    cur.cancel_requested = True
                    cur.cancel.set()
            try:
                running = self._mark_running(job)
                if running is not None:
                    cur.job = running
                    self._run_job(cur)
            except Exception as exc:  # a bug or a broken database: the request still gets one final reply
                if disk_full(exc) is not None:  # no space for the queue's own writes: the job waits for space
                    log.error("job %s waits: %s", job.job_id, disk_full(exc))
                    self._requeue(job)
                    self._stopping.wait(DISK_RETRY_S)
                    continue
                log.exception("worker failed on job %s", job.job_id)
                self._fail(cur, f"{type(exc).__name__}: {exc}")
                time.sleep(1.0)
            finally:
                with self._cur_lock:
                    self._current = None
                    self._cancel_requests.discard(job.job_id)

    def _fail(self, cur: CurrentJob, why: str) -> None:
        job = cur.job
        reply = ErrorReply(code="internal", request_id=job.request_id, correlation=job.body_correlation,
                           message=f"the daemon failed while answering: {why}", reply_id=f"{job.job_id}.final")
        try:
            with self._replying() as conn:
                row = conn.execute("SELECT state FROM jobs WHERE job_id=?", (job.job_id,)).fetchone()
                if row is None or row[0] == "done":
                    return
                self.jobs.outbox_add(conn, job.reply_topic, reply.model_dump_json().encode(), job.correlation)
                self.jobs.finish(conn, job.job_id, "error", reply.model_dump_json())
                self.fleet.final(conn, job, "error", detail=reply.message)
            self.fleet.finished(job, "error")
        except Exception:  # the database itself is broken: the job resumes at the next start
            log.exception("could not record the failure of job %s", job.job_id)

    def _requeue(self, job: Job) -> None:
        """Back to queued (it runs again from the start); if even that cannot be written, the next start does it."""
        try:
            with self.jobs.tx() as conn:
                conn.execute("UPDATE jobs SET state='queued' WHERE job_id=? AND state='running'", (job.job_id,))
        except Exception:
            log.exception("could not queue job %s again; it resumes at the next start", job.job_id)

    def _mark_running(self, job: Job) -> Job | None:
        with self.jobs.tx() as conn:
            n = conn.execute("UPDATE jobs SET state='running', attempts=attempts+1, started=? "
                             "WHERE job_id=? AND state='queued'", (time.time(), job.job_id)).rowcount
        return self.jobs.by_id(job.job_id) if n else None

    def _run_job(self, cur: CurrentJob) -> None:
        job = cur.job
        options = RequestOptions.model_validate(job.options)
        files_dir = self.settings.files_dir / job.job_id
        if job.attempts > 1:  # a resumed job starts from scratch
            shutil.rmtree(files_dir, ignore_errors=True)
        log.info("job %s (%s/%s) attempt %d: %s", job.job_id, job.client_id, job.request_id, job.attempts,
                 job.question[:80])

        def on_event(event: AgentEvent) -> None:
            self._beat = time.monotonic()
            if event.kind != "final":
                self._notify(job, self._progress(job, event))

        while True:
            result, error = None, None
            outage = self._known_outage()  # an outage is known: ask the SkySpark before any model call
            if outage is None:
                result, error = self._run_agent(cur, options, on_event)
                outage = _waitable(result)
            if outage is None or not self.settings.skyspark.outage_wait_s:
                break
            self.outage.begin(outage, since=self.jobs.outage_since(job.job_id, time.time()))
            self._set_status(DEGRADED)
            waited = self._wait_out(cur)
            if waited == "back":  # it answers again: the job runs again, from the start
                shutil.rmtree(files_dir, ignore_errors=True)
                continue
            if waited == "stop":  # the daemon stops: the job resumes at the next start (its wait counted so far)
                log.info("job %s: the stop came while waiting for the SkySpark; it resumes at the next start",
                         job.job_id)
                return
            if waited == "deadline" and result is None:  # it never ran: its failure is the outage's
                result = _failed_result(job, self.outage.failure)
            break
        if cur.shutdown and not cur.cancel_requested and (result is None or result.status == "cancelled"):
            log.info("job %s interrupted by the stop; it resumes at the next start", job.job_id)
            return
        self._finish(cur, options, result, error)

    def _run_agent(self, cur: CurrentJob, options: RequestOptions, on_event) -> tuple[RunResult | None, str | None]:
        job = cur.job
        try:
            return self.runner.run(job.question, options, run_id=job.job_id, on_event=on_event, cancel=cur.cancel,
                                   ask_requester=lambda q: self._ask(cur, q)), None
        except Exception as exc:
            log.exception("runner failed on job %s", job.job_id)
            return None, f"{type(exc).__name__}: {exc}"

    def _known_outage(self) -> ExternalFailure | None:
        """While an outage is known: ask the SkySpark (one call, no model); the failure if it still fails, else
        None (the outage is over: status online again)."""
        if not self.outage.active:
            return None
        try:
            self.runner.ping()
        except ExternalFailure as exc:
            if exc.reason not in WAIT_OUT:  # it answers, but refuses the login now: that is the job's to report
                self._outage_over()
                return None
            self.outage.failed_again(exc)
            return exc
        except Exception:
            log.exception("asking the SkySpark whether it is back failed")
            return self.outage.failure
        self._outage_over()
        return None

    def _outage_over(self) -> None:
        log.info("the SkySpark answers again after %.0f s", time.time() - (self.outage.since or time.time()))
        self.outage.end()
        self._set_status(ONLINE)

    def _wait_out(self, cur: CurrentJob) -> str:
        """Keep the job while the SkySpark cannot be reached: a `waiting` progress reply, then ask it again after
        each pause (`Outage`). Returns "back" (it answers), "deadline" (`skyspark.outage_wait_s` is over), "cancel"
        (the requester's cancel) or "stop" (the daemon stops)."""
        job, sent = cur.job, None
        while True:
            if self.outage.expired():
                return "deadline"
            failure = self.outage.failure
            if str(failure) != sent:
                until = datetime.fromtimestamp(self.outage.deadline, timezone.utc).astimezone()
                self._notify(job, ProgressReply(
                    request_id=job.request_id, correlation=job.body_correlation, event="waiting",
                    attempt=job.attempts, until=until.isoformat(timespec="seconds"), reply_id=uuid.uuid4().hex,
                    text=f"waiting for the SkySpark until {until:%H:%M:%S}: {failure}"))
                sent = str(failure)
            while not self.outage.due() and not self.outage.expired():
                self._beat = time.monotonic()  # waiting is the worker's work: the watchdog keeps being fed
                if cur.cancel.wait(0.5):
                    return "stop" if cur.shutdown and not cur.cancel_requested else "cancel"
            if self.outage.expired():
                return "deadline"
            if self._known_outage() is None:
                return "back"

    def _progress(self, job: Job, event: AgentEvent) -> ProgressReply:
        step = event.step
        obs = step.observation if step else ""
        text = event.text if len(event.text) <= 600 else event.text[:597] + "..."
        action_input = step.action_input if step else None
        if action_input is not None and len(json.dumps(action_input, default=str)) > 500:
            action_input = json.dumps(action_input, default=str)[:500]
        return ProgressReply(request_id=job.request_id, correlation=job.body_correlation, event=event.kind,
                             attempt=job.attempts, trial=event.trial, step=step.index if step else 0,
                             thought=step.shown_thought if step else "", action=step.action if step else "",
                             action_input=action_input, ok=step.ok if step else True,
                             by=step.by if step else "model",
                             observation=obs if len(obs) <= OBSERVATION_CHARS else obs[:OBSERVATION_CHARS - 3] + "...",
                             text=text, reply_id=uuid.uuid4().hex)

    def _ask(self, cur: CurrentJob, question: str) -> str | None:
        """The `agentask` tool: publish `kind=question`, wait for the requester's answer or the timeout."""
        if cur.cancel.is_set():
            return None
        job = cur.job
        timeout = self.m.ask_timeout_s
        with self._cur_lock:
            cur.answer, cur.waiting = None, True
            cur.answer_event.clear()
        self._send(job.reply_topic, QuestionReply(request_id=job.request_id, correlation=job.body_correlation,
                                                  question=question, timeout_s=timeout,
                                                  reply_id=uuid.uuid4().hex), job.correlation)
        deadline = time.monotonic() + timeout
        while not cur.answer_event.wait(0.2):
            self._beat = time.monotonic()
            if cur.cancel.is_set() or time.monotonic() >= deadline:
                break
        with self._cur_lock:
            cur.waiting = False
            return None if cur.cancel.is_set() else cur.answer

    def _stored_chunks(self, job: Job) -> list[tuple[str, bytes]]:
        """The chunks of a finished job's files, cut as its stored manifest says (files still on disk)."""
        if job.final_kind != "result" or not job.final_payload:
            return []
        out = []
        for entry in ResultReply.model_validate_json(job.final_payload).files:
            path = self.settings.files_dir / job.job_id / entry.name
            if not entry.chunks or not entry.chunk_bytes or not path.is_file():
                continue
            data, size = read_plain(path.parent, entry.name), entry.chunk_bytes
            out += [(f"{entry.topic}/{n}", data[n * size:(n + 1) * size]) for n in range(entry.chunks)]
        return out

    def _chunk_bytes(self, topic: str, correlation: bytes | None) -> int:
        """The largest chunk whose whole packet (its topic `<topic>/<seq>`, the echoed Correlation Data, the
        payload) fits the packet limit, at most `mqtt.file_chunk_bytes`; 0 if not even one byte fits."""
        overhead = publish_packet_size(f"{topic}/{'9' * CHUNK_SEQ_DIGITS}", b"", correlation) + 8  # + remaining-length growth
        return max(0, min(self.m.file_chunk_bytes, self.max_packet - overhead))

    def _add_plot(self, job: Job, result: RunResult) -> None:
        """`options.plots`: an SVG of every series the answer read joins the result's files (`edge_agent.plots`)."""
        from edge_agent.plots import add_plot

        try:
            info = add_plot(self.settings.files_dir / job.job_id, result.files, [result.answer or ""], job.question)
        except Exception:  # a plot is a convenience: the answer goes out without it
            log.exception("job %s: could not draw its plot", job.job_id)
            return
        if info is not None:
            result.files.append(info)

    def _finish(self, cur: CurrentJob, options: RequestOptions, result: RunResult | None, failure: str | None) -> None:
        job = cur.job
        final_id = f"{job.job_id}.final"
        chunks: list[tuple[str, bytes]] = []
        if cur.cancel_requested:
            reply: Reply = CancelledReply(request_id=job.request_id, correlation=job.body_correlation,
                                          reply_id=final_id)
        elif result is None or result.status == "error":
            reply = ErrorReply(code="agent_error", request_id=job.request_id, correlation=job.body_correlation,
                               message=f"the agent failed: {failure or (result.error if result else '')}",
                               reply_id=final_id)
        elif result.status == "failed":  # something outside the gateway: its reason is the code
            waited = f" (waited {self.settings.skyspark.outage_wait_s:.0f} s for it to come back)" \
                if result.reason in WAIT_OUT and self.settings.skyspark.outage_wait_s else ""
            reply = ErrorReply(code=result.reason or "agent_error", request_id=job.request_id,
                               correlation=job.body_correlation, message=f"{result.error}{waited}", reply_id=final_id)
        elif result.status == "cancelled":
            reply = CancelledReply(request_id=job.request_id, correlation=job.body_correlation,
                                   message="the agent stopped the run", reply_id=final_id)
        else:
            if options.plots and result.status == "answered":
                self._add_plot(job, result)
            entries = []
            if options.files != "none":
                for i, info in enumerate(result.files):
                    entry = FileEntry(file_id=str(i), name=info.name, size=info.size, sha256=info.sha256)
                    if options.files == "chunks":
                        data = read_plain(self.settings.files_dir / job.job_id, info.name)
                        topic = self.topics.files(job.client_id, job.request_id, entry.file_id)
                        size = self._chunk_bytes(topic, job.correlation)
                        if size < 512:  # the Correlation Data leaves no room: the manifest only (stated in the entry)
                            size = 0
                        entry.chunks, entry.chunk_bytes, entry.topic = (math.ceil(len(data) / size), size, topic) \
                            if size else (0, 0, "")
                        chunks += [(f"{topic}/{n}", data[n * size:(n + 1) * size]) for n in range(entry.chunks)]
                    entries.append(entry)
            reply = ResultReply(request_id=job.request_id, correlation=job.body_correlation, status=result.status,
                                answer=result.answer, error=result.error, reason=result.reason, metrics=result.metrics, files=entries,
                                run_id=result.run_id, reply_id=final_id, provenance=result.provenance)
        payload = reply.model_dump_json()
        status = final_status(reply.kind, result)
        told = False
        while True:
            try:
                with self._replying() as conn:
                    for topic, data in chunks:  # chunks first: when the result arrives, its files are there
                        self.jobs.outbox_add(conn, topic, data, job.correlation)
                    self.jobs.outbox_add(conn, job.reply_topic, payload.encode(), job.correlation)
                    self.jobs.finish(conn, job.job_id, reply.kind, payload)
                    self.fleet.final(conn, job, status, files=[e.name for e in getattr(reply, "files", [])],
                                     cancelled_by=job.client_id if cur.cancel_requested else None,
                                     detail=getattr(reply, "message", None) or (result.error if result else None))
                break
            except Exception as exc:  # the queue database cannot take it: hold the reply until it can
                full = disk_full(exc)
                if full is None:
                    raise
                if not told:
                    log.error("job %s: its final reply cannot be stored (%s); holding it until there is space",
                              job.job_id, full)
                    self._notify(job, ProgressReply(
                        request_id=job.request_id, correlation=job.body_correlation, event="waiting",
                        attempt=job.attempts, reply_id=uuid.uuid4().hex,
                        text=f"{full}; the reply is sent once there is space again"))
                    told = True
                self._beat = time.monotonic()
                if self._stopping.wait(DISK_RETRY_S):  # it runs again at the next start
                    return
        self.fleet.finished(job, status)
        log.info("job %s finished: %s", job.job_id, reply.kind)
