"""The gateway daemon (`edge-agent serve`): MQTT v5 in, one worker running jobs, replies out.

The daemon is split by thread (docs/mqtt.md):

* `GatewayService` (this module) owns the lifecycle and the connections: `start` / `stop` / `serve_forever` run
  on the main thread; the connection callbacks (`_on_connect`, `_on_disconnect`, ...) on paho's network
  threads; `_watch_backlog` on its own small thread ("session-watch"). The reply helpers below (`replying`,
  `add`, `send`, `notify`, `publish_now`, `not_delivered`) and `set_status` are called from the intake and
  worker threads, which are handed this service as the narrow interfaces of gateway.py (`IntakeGateway`,
  `WorkerGateway`) and never import this module.
* `Intake` (intake.py): paho's `on_message` and the group committer's thread — validation, one transaction per
  batch, PUBACKs after the commit.
* `Worker` (worker.py): the worker thread — jobs through the `Runner`, progress, `agentask`, final replies.
* `OutboxPublisher` (outbox.py): the outbox thread — every reply out in order, deleted at its PUBACK; nothing
  the broker refuses can jam it.
* `GroupCommitter` (committer.py), `AckPacer` (acks.py: the PUBACKs, paced), `JobQueue` (queue.py: all SQL about
  jobs and the outbox).

Two connections (`mqtt.reply_connection`, default on): the session connection (client id) takes
requests, cancels and answers, sends their PUBACKs and the status; every reply, progress message and
file chunk goes out on a second connection (client id + `-replies`). Mosquitto reads one packet per
connection per turn of its loop and saves its database after each turn, so on one connection a
burst's `accepted` replies and its PUBACKs wait behind each other, and a result's file chunks
behind new requests' PUBACKs (bench/reports/2026-11-24-reply-connection). An acknowledged request is always
on disk, and an unacknowledged one is redelivered by the broker (persistent session: `clean_start=False` +
Session Expiry).
"""

from __future__ import annotations

import gc
import logging
import signal
import sqlite3
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager

import paho.mqtt.client as mqtt
from paho.mqtt.properties import Properties
from paho.mqtt.reasoncodes import ReasonCode
from paho.mqtt.subscribeoptions import SubscribeOptions

from edge_agent.config import Settings
from edge_agent.failures import disk_full
from edge_agent.fleet.hooks import FleetHooks
from edge_agent.mqtt.acks import AckPacer
from edge_agent.mqtt.committer import GroupCommitter
from edge_agent.mqtt.connection import connect_properties, honour_receive_maximum, mqtt_client
from edge_agent.mqtt.incoming import Limits
from edge_agent.mqtt.intake import BACKLOG_GAP_S, Intake
from edge_agent.mqtt.notify import Watchdog, notify
from edge_agent.mqtt.outage import Outage
from edge_agent.mqtt.outbox import OutboxPublisher
from edge_agent.mqtt.packets import correlation_props, publish_packet_size
from edge_agent.mqtt.protocol import ErrorReply, Reply, is_final, parse_reply
from edge_agent.mqtt.queue import JobQueue
from edge_agent.mqtt.records import Job, OutboxRow
from edge_agent.mqtt.runner import Runner
from edge_agent.mqtt.topics import Topics, valid_client_id
from edge_agent.mqtt.worker import DEGRADED, ONLINE, CurrentJob, Worker  # noqa: F401  (CurrentJob: re-exported)

log = logging.getLogger(__name__)

QUEUE_NEAR = "degraded: session queue"
BACKLOG_NEAR = 0.8  # a session backlog at this share of mqtt.broker_queue_limit shows in the status


class GatewayService:
    """The daemon. `start()` returns at once; `stop()` is the clean stop (SIGTERM)."""

    outbox: OutboxPublisher  # set in __init__ after the callbacks that name them
    fleet: FleetHooks

    def __init__(
        self, settings: Settings, runner: Runner, *, client_id: str | None = None, shared_group: str | None = None
    ):
        self.settings = settings
        self.m = settings.mqtt
        self.runner = runner
        self.client_id = client_id or self.m.client_id or self.m.username or f"edge-agent-{self.m.gateway_id}"
        self.topics = Topics(self.m.gateway_id, shared_group or self.m.shared_group, self.client_id)
        self.limits = Limits(max_payload_bytes=self.m.max_payload_bytes, max_question_chars=self.m.max_question_chars)
        self.jobs = JobQueue(settings.state_dir / "queue.db")
        self.max_packet = self.m.max_packet_bytes  # lowered to the broker's Maximum Packet Size at each CONNACK
        self.connected = threading.Event()
        self.stopping = threading.Event()
        self._stop_requested = threading.Event()
        self.outage = Outage(settings.skyspark.outage_wait_s, settings.skyspark.outage_retry_s)
        self._status = ONLINE  # the retained status: online, or degraded while an outage is waited out
        self._outage_status = ONLINE
        self._queue_near = False  # `_watch_backlog`
        self.worker = Worker(self)  # the worker thread (worker.py)
        self.intake = Intake(self)  # paho's callback and the committer thread (intake.py)
        self.client = mqtt_client(settings, self.client_id, will=(self.topics.status, "offline"), manual_ack=True)
        self.client.on_connect = self._on_connect
        self.client.on_disconnect = self._on_disconnect
        self.client.on_message = self.intake.on_message
        self.client.on_subscribe = self._on_subscribe
        self._suback: int | None = None  # the request connection's SUBSCRIBE: up once the broker acknowledged it
        self.replies = self.client  # the connection replies go out on (see the module's docstring)
        self._ids = {self.client: self.client_id}
        if self.m.reply_connection:
            reply_user = self.m.reply_username or (f"{self.m.username}-replies" if self.m.username else None)
            self.replies = mqtt_client(settings, f"{self.client_id}-replies", username=reply_user)
            self.replies.on_connect = self._on_connect
            self.replies.on_disconnect = self._on_disconnect
            self._ids[self.replies] = f"{self.client_id}-replies"
        self._up = {client: False for client in self._ids}
        self._up_lock = threading.Lock()
        self.replies.on_publish = lambda c, u, mid, rc, props: self.outbox.on_publish(mid, rc)
        self.outbox = OutboxPublisher(
            self.jobs,
            self.replies,
            lambda: self.max_packet,
            attempts=self.m.reply_attempts,
            notice=self.not_delivered,
            on_dead=lambda: self.fleet.dead_letter(),
        )
        self.acks = AckPacer(self.client)  # PUBACKs never far ahead of the broker: keep-alive stays answered
        self.committer = (
            GroupCommitter(self.intake.store, self._ack, max_batch=self.m.group_commit_max)
            if self.m.group_commit
            else None
        )
        self.watchdog = Watchdog(self.healthy)
        # metrics, audit trail, Home Assistant (edge_agent/fleet/): each off unless configured
        self.fleet = FleetHooks(
            settings,
            jobs=self.jobs,
            topics=self.topics,
            connected=self.connected.is_set,
            runner=runner,
            client_id=self.client_id,
            mqtt_client=mqtt_client,
        )
        self.fleet.backlog = lambda: (self.intake.backlog, self.m.broker_queue_limit)
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
        self.worker.start()
        self.outbox.start()
        self.acks.start()
        if self.committer is not None:
            self.committer.start()
        self.watchdog.start()
        self._watcher.start()
        if self.replies is not self.client:  # no session to keep: the outbox holds every reply until its PUBACK
            self.replies.connect_async(self.m.host, self.m.port, keepalive=self.m.keepalive_s)
            self.replies.loop_start()
        self.client.connect_async(
            self.m.host,
            self.m.port,
            keepalive=self.m.keepalive_s,
            clean_start=False,
            properties=connect_properties(self.m.session_expiry_s),
        )
        self.client.loop_start()

    def request_stop(self, *_args: object) -> None:
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
        self.stopping.set()
        self.worker.interrupt()  # the running job is interrupted, not cancelled: it resumes at the next start
        self.worker.thread.join(timeout)
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
        self.acks.stop()
        self.fleet.stop()
        self.jobs.close()
        log.info("stopped")

    def healthy(self) -> bool:
        """The worker thread is alive and has shown progress within `worker_stall_s`."""
        return self.worker.healthy(self.m.worker_stall_s)

    # ------------------------------------------------------------------------------ connections (paho's threads)
    def _ack(self, msg: mqtt.MQTTMessage) -> None:
        """The PUBACK of a stored message (the committer's thread): written by the "acks" thread, paced (acks.py)."""
        self.acks.put(msg)

    def _on_connect(
        self,
        client: mqtt.Client,
        userdata: object,
        flags: mqtt.ConnectFlags,
        reason_code: ReasonCode,
        properties: Properties | None,
    ) -> None:
        """paho's on_connect of either connection: the session one subscribes and publishes the status, the reply
        one (the same client when `mqtt.reply_connection` is off) takes the broker's packet size limit."""
        session = client is self.client
        if reason_code.is_failure:
            log.error("broker refused the %s: %s", "connection" if session else "reply connection", reason_code)
            return
        inflight = honour_receive_maximum(client, self.m.max_inflight, properties)
        if session:
            self.acks.reconnected()
            opts = SubscribeOptions(qos=1)
            filters = (self.topics.request_filter, self.topics.cancel_filter, self.topics.answer_filter)
            self._suback = client.subscribe([(f, opts) for f in filters])[1]
            client.publish(self.topics.status, self._status, qos=1, retain=True)
            log.info(
                "session up as %s (session present: %s, %d in flight)", self.client_id, flags.session_present, inflight
            )
        if client is self.replies:
            self._replies_up(client, properties, inflight)
        if not session:  # (the session connection is up at its SUBACK: `_on_subscribe`)
            self._mark(client, True)

    def _on_subscribe(
        self,
        client: mqtt.Client,
        userdata: object,
        mid: int,
        reason_codes: list[ReasonCode],
        properties: Properties | None,
    ) -> None:
        """The broker took the request subscriptions: only now is the gateway up (a request published between
        CONNACK and SUBACK on a first, clean session would reach no subscriber and be lost)."""
        if mid != self._suback:
            return
        refused = [str(rc) for rc in reason_codes if rc.is_failure]
        if refused:
            log.error("broker refused the request subscriptions: %s", ", ".join(refused))
            return
        self._mark(client, True)

    def _replies_up(self, client: mqtt.Client, properties: Properties | None, inflight: int) -> None:
        """The reply connection is up: its CONNACK's packet size limit (or `mqtt.max_packet_bytes`, whichever is
        smaller), then the outbox goes on, from its table (paho's own re-sends are taken back first)."""
        size = getattr(properties, "MaximumPacketSize", None) if properties is not None else None
        self.max_packet = min(int(size), self.m.max_packet_bytes) if size else self.m.max_packet_bytes
        self.outbox.on_connect()
        log.info("replies go out as %s (max packet %d, %d in flight)", self._ids[client], self.max_packet, inflight)
        self.outbox.wake()

    def _mark(self, client: mqtt.Client, up: bool) -> None:
        """`connected` while every connection is up (requests come in and replies go out)."""
        with self._up_lock:
            self._up[client] = up
            if all(self._up.values()):
                self.connected.set()
                log.info("connected to %s:%s as %s", self.m.host, self.m.port, self.client_id)
            else:
                self.connected.clear()

    def _on_disconnect(
        self,
        client: mqtt.Client,
        userdata: object,
        flags: mqtt.DisconnectFlags,
        reason_code: ReasonCode,
        properties: Properties | None,
    ) -> None:
        self._mark(client, False)
        if client is self.replies:
            self.outbox.on_disconnect(reason_code)
        if not self.stopping.is_set():
            log.warning("%s disconnected from the broker (%s); reconnecting", self._ids[client], reason_code)

    # ------------------------------------------------------------------------------ replies (intake and worker threads)
    @contextmanager
    def replying(self) -> Iterator[sqlite3.Connection]:
        """One durable transaction whose replies this thread publishes right after the commit, rather
        than the outbox thread (which would wait for the database lock through the next commit)."""
        rows: list[OutboxRow] = []
        promoted = False
        try:
            with self.jobs.tx() as conn:
                yield conn
                rows = self.outbox.claim(self.jobs.added())
                promoted = self.jobs.promoted  # waiting refusals moved among the answers: the outbox thread's turn
        except BaseException:
            self.outbox.unclaim(rows)
            raise
        self.outbox.release(rows, promoted=promoted)

    def not_delivered(self, row: OutboxRow, reason: str, dead_id: int) -> tuple[str, bytes, bytes | None] | None:
        """The outbox gave up on `row` (dead letter `dead_id`): the error its requester gets on its default
        response topic (None: the row names no requester of ours, or is itself such an error)."""
        prefix = f"{self.topics.base}/response/"
        if not row.topic.startswith(prefix):
            return None
        client_id = row.topic[len(prefix) :].split("/", 1)[0]
        if not valid_client_id(client_id):
            return None
        topic = self.topics.default_reply(client_id)
        try:
            reply: Reply | None = parse_reply(row.payload)
        except Exception:  # a file chunk: raw bytes
            reply = None
        if isinstance(reply, ErrorReply) and reply.code == "not_delivered":
            return None  # never an error about an error: that could go on forever
        parts = row.topic[len(self.topics.response_prefix(client_id)) :].split("/")
        request_id = (
            reply.request_id if reply is not None else (parts[1] if parts[0] == "files" and len(parts) > 1 else None)
        )
        final = reply is not None and is_final(reply)
        what = f"its {reply.kind} reply" if reply is not None else "a file chunk"
        err = ErrorReply(
            code="not_delivered",
            request_id=request_id,
            final=final,
            correlation=reply.correlation if reply is not None else None,
            reply_id=f"dead-{dead_id}",
            message=f"{what} ({len(row.payload)} bytes on {ascii(row.topic)[1:-1][:160]}) could not be "
            f"delivered: {ascii(reason)[1:-1][:300]}; it was kept for the administrator as dead "
            f"letter {dead_id}"
            + (
                "; send the request again with the same request_id and "
                "a plain reply topic to get its stored final reply"
                if final
                else ""
            ),
        )
        payload = err.model_dump_json().encode()
        correlation = row.correlation
        if correlation and publish_packet_size(topic, payload, correlation) > self.max_packet:
            correlation = None  # the Correlation Data itself was too large: the error goes without it
        return topic, payload, correlation

    def publish_now(self, topic: str, reply: Reply, correlation: bytes | None) -> None:
        """Publish a reply directly (not from the outbox: its database failed); never one the broker would refuse
        (the Correlation Data is left out where the packet would be too large)."""
        payload = reply.model_dump_json().encode()
        if correlation and publish_packet_size(topic, payload, correlation) > self.max_packet:
            correlation = None
        if publish_packet_size(topic, payload, correlation) > self.max_packet:
            log.error("not publishing a %d-byte reply on %s: over the packet limit", len(payload), topic)
            return
        self.replies.publish(topic, payload, qos=1, properties=correlation_props(correlation))

    def add(
        self, conn: sqlite3.Connection, topic: str, reply: Reply, correlation: bytes | None, *, refusal: bool = False
    ) -> None:
        """Inside a transaction: `reply` into the outbox, keyed by its request; `refusal`: it answers a message that
        stored nothing (the outbox's refusals lane: after every answer, a few at a time)."""
        request_id = getattr(reply, "request_id", None)
        self.jobs.outbox_add(
            conn, topic, reply.model_dump_json().encode(), correlation, request_id=request_id, refusal=refusal
        )

    def send(self, topic: str, reply: Reply, correlation: bytes | None) -> None:
        with self.replying() as conn:
            self.add(conn, topic, reply, correlation)

    def notify(self, job: Job, reply: Reply) -> None:
        """A progress reply, best effort: stored and sent like every reply, or — when the queue database cannot
        take it (a full disk) — published at once; never an exception into the run."""
        try:
            self.send(job.reply_topic, reply, job.correlation)
        except Exception as exc:
            if disk_full(exc) is None:
                log.exception("could not store a progress reply for job %s", job.job_id)
            self.publish_now(job.reply_topic, reply, job.correlation)

    def _watch_backlog(self) -> None:
        """Twice a second: a session backlog at `BACKLOG_NEAR` of the broker's queue limit turns the status to
        `degraded: session queue` (the broker is about to drop requests after their PUBACK: it holds no more
        than max_queued_messages for a session); a pause in the deliveries turns it back."""
        limit = self.m.broker_queue_limit
        while limit and not self.stopping.wait(0.5):
            # a run seen since the last look counts even if it ended meanwhile: a burst of the broker's whole queue
            # takes milliseconds, and a look half a second later (a loaded machine: later) would miss it
            peak = self.intake.take_backlog_peak()
            recent = time.monotonic() - self.intake.backlog_at < 2 * BACKLOG_GAP_S
            run = max(peak, self.intake.backlog if recent else 0)
            near = run >= BACKLOG_NEAR * limit
            if near != self._queue_near:
                self._queue_near = near
                if near:
                    log.warning(
                        "session queue: %d requests delivered without a pause, near the broker's limit of "
                        "%d (mqtt.broker_queue_limit): requests beyond it are dropped by the broker",
                        run,
                        limit,
                    )
                self.set_status(self._outage_status)

    def set_status(self, status: str) -> None:
        """The retained status (`B/status`): online; `degraded: skyspark` while an outage is waited out;
        `degraded: session queue` while the broker's queue for the daemon's session is near its limit."""
        self._outage_status = status
        if status == ONLINE and self._queue_near:
            status = QUEUE_NEAR
        if status != self._status:
            self._status = status
            log.warning("status: %s", status) if status != ONLINE else log.info("status: %s", status)
            self.client.publish(self.topics.status, status, qos=1, retain=True)
