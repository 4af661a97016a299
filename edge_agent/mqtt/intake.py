"""The daemon's intake: every message that arrives, from paho's callback to the SQLite commit.

Which thread: `on_message` runs on paho's network thread of the session connection and only counts the
session backlog and queues the message for the group committer (`committer.py`); `store` and everything it
calls run on the committer thread (with `mqtt.group_commit: false`, on paho's network thread): validation
(`incoming.parse_incoming`, reply topics checked against what Mosquitto takes), then ONE transaction that
inserts the jobs (the per-requester quota: `quota_exceeded`) and their `accepted` replies, handles cancels
and answers (handing them to the worker's current job: `Worker.cancel` / `Worker.deliver_answer`), and keeps
a message that raises as a dead letter; the replies are published right after the commit (the gateway's
`replying`), then the PUBACKs go out. So an acknowledged request is always on disk, a duplicate (client_id,
request_id) never becomes a second job, and no message is left unacknowledged.

What it needs of the daemon is `IntakeGateway` (gateway.py; `GatewayService` is one): it is handed that, not the
service.

Where errors go: a reply goes to the request's Response Topic (or body `reply_to`) only if it lies under
`B/response/<client_id>/` and is a topic the broker takes; otherwise — and for payloads that name no reply
topic — it goes to `B/response/<client_id>/default`, a topic only that client may read. A request topic with
an empty client id is acked, logged and dropped (there is nowhere safe to answer).
"""

from __future__ import annotations

import logging
import sqlite3
import time
import uuid
from contextlib import nullcontext
from typing import NamedTuple

import paho.mqtt.client as mqtt

from edge_agent.mqtt.gateway import IntakeGateway
from edge_agent.mqtt.incoming import Incoming, _peek_on_behalf_of, _peek_reply_to, _peek_request_id, parse_incoming
from edge_agent.mqtt.protocol import AcceptedReply, Answer, Cancel, CancelledReply, ErrorCode, ErrorReply, Request
from edge_agent.mqtt.replies import stored_chunks
from edge_agent.mqtt.topics import IncomingKind, valid_client_id

log = logging.getLogger("edge_agent.mqtt.service")  # one logger for the daemon (its journal lines stay the same)

BACKLOG_GAP_S = 0.25  # messages less than this apart are one run: a backlog the broker delivers back to back


def _topic_of(msg: mqtt.MQTTMessage) -> str:
    """A message's topic for logs and dead letters, even one that is not UTF-8."""
    try:
        return msg.topic
    except UnicodeDecodeError:
        return bytes(msg._topic).decode("utf-8", "backslashreplace")


class Parsed(NamedTuple):
    """One incoming message, read and validated (`Intake._parse`) before the transaction that stores it."""

    kind: IncomingKind
    client_id: str
    parsed: Incoming | ErrorReply  # the message, or the error that refuses it
    raw: bytes
    response_topic: str | None
    correlation: bytes | None


class Intake:
    """Messages in → validated → stored with their replies (one transaction per batch) → acknowledged."""

    def __init__(self, gw: IntakeGateway):
        self.gw = gw
        self.backlog, self.backlog_at = 0, 0.0  # the session backlog (`GatewayService._watch_backlog`)
        self.backlog_peak = 0  # the longest run since the watcher last looked (`take_backlog_peak`)

    def on_message(self, client: mqtt.Client, userdata: object, msg: mqtt.MQTTMessage) -> None:
        now = time.monotonic()  # the session backlog: messages in one run without a pause (`_watch_backlog`)
        self.backlog = self.backlog + 1 if now - self.backlog_at < BACKLOG_GAP_S else 1
        self.backlog_at = now
        if self.backlog > self.backlog_peak:
            self.backlog_peak = self.backlog
        if self.gw.committer is not None:
            self.gw.committer.put(msg)  # stored with whatever else arrives meanwhile, then acked
            return
        for stored in self.store([msg]):  # no group commit: one transaction per message
            client.ack(stored.mid, stored.qos)

    def take_backlog_peak(self) -> int:
        """The longest run of back-to-back deliveries since the last call (the watcher's, twice a second): a run
        that began and ended between two of its looks still shows once. (A run counted on paho's thread meanwhile
        is lost only if it is no longer than the one returned.)"""
        peak, self.backlog_peak = self.backlog_peak, 0
        return peak

    def store(self, msgs: list[mqtt.MQTTMessage]) -> list[mqtt.MQTTMessage]:
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
        self.gw.worker.wake()
        self.gw.fleet.stored(stored)
        return stored

    def _store_parsed(
        self, parsed: list[tuple[mqtt.MQTTMessage, Parsed | Exception | None]], *, alone: bool
    ) -> list[mqtt.MQTTMessage]:
        """One transaction; `alone`: each message in its own savepoint, one that raises becomes a dead letter."""
        stored: list[mqtt.MQTTMessage] = []
        requests = [
            (p.client_id, p.parsed.request_id)
            for _, p in parsed
            if isinstance(p, Parsed) and p.kind == "request" and isinstance(p.parsed, Request)
        ]
        with self.gw.replying() as conn:
            self.gw.jobs.prefetch(conn, requests)  # one query for the batch's requests, not one each (`_on_request`)
            for msg, incoming in parsed:
                try:
                    with self.gw.jobs.savepoint(conn) if alone else nullcontext():
                        if isinstance(incoming, Exception):
                            raise incoming
                        if incoming is not None:
                            self._handle(conn, incoming)
                except Exception as exc:
                    if not alone:
                        raise
                    log.exception("failed to handle a message on %s; keeping it as a dead letter", _topic_of(msg))
                    with self.gw.jobs.savepoint(conn):  # raises only if the database fails: see `_store`
                        self._dead_letter(conn, msg, exc)
                stored.append(msg)
        return stored

    def _error_topic(self, msg: mqtt.MQTTMessage) -> tuple[str, str, bytes | None] | None:
        """Where an error about `msg` may go, whatever it holds: (kind, topic, correlation) — its Response
        Topic when that lies in its client's subtree, else the client's default reply topic; None when the
        topic names no client (nowhere safe to answer)."""
        split = self.gw.topics.split(_topic_of(msg))
        if split is None or not valid_client_id(split[1]):
            return None
        props = msg.properties
        response = getattr(props, "ResponseTopic", None) if props is not None else None
        correlation = getattr(props, "CorrelationData", None) if props is not None else None
        if response is None or self.gw.topics.check_reply_topic(split[1], response) is not None:
            response = self.gw.topics.default_reply(split[1])
        return split[0], response, correlation

    def _dead_letter(self, conn: sqlite3.Connection, msg: mqtt.MQTTMessage, exc: Exception) -> None:
        """Keep a message the daemon failed on (a bug) and tell its requester, inside the transaction."""
        why = f"{type(exc).__name__}: {exc}"
        n = self.gw.jobs.dead_letter(conn, _topic_of(msg), bytes(msg.payload), why)
        self.gw.fleet.dead_letter()
        where = self._error_topic(msg)
        if where is not None:
            kind, topic, correlation = where
            err = ErrorReply(
                code="internal",
                request_id=_peek_request_id(bytes(msg.payload)),
                final=kind == "request",
                message=f"the daemon failed on this message ({ascii(why)[1:-1][:200]}); it was kept "
                f"for the administrator as dead letter {n}",
                reply_id=uuid.uuid4().hex,
            )
            self.gw.add(conn, topic, err, correlation, refusal=True)

    def _refuse_unstored(
        self, parsed: list[tuple[mqtt.MQTTMessage, Parsed | Exception | None]], exc: Exception
    ) -> None:
        """The database failed: each message gets a `not_stored` error at once (not from the outbox, which is
        in that database); nothing of them was stored, so a request sent again later is new."""
        why = ascii(f"{type(exc).__name__}: {exc}")[1:-1][:200]
        for msg, _ in parsed:
            where = self._error_topic(msg)
            if where is None:
                continue
            kind, topic, correlation = where
            err = ErrorReply(
                code="not_stored",
                request_id=_peek_request_id(bytes(msg.payload)),
                final=kind == "request",
                message=f"the gateway could not store this message ({why}); nothing was queued: send it again later",
                reply_id=uuid.uuid4().hex,
            )
            try:
                self.gw.publish_now(topic, err, correlation)
            except Exception:
                log.exception("could not publish a not_stored error on %s", topic)

    def _parse(self, msg: mqtt.MQTTMessage) -> Parsed | Exception | None:
        """The message read and validated; None: ack and drop; an exception: this message could not even be
        read (it becomes a dead letter). Never raises."""
        try:
            split = self.gw.topics.split(msg.topic)
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
            raw = bytes(msg.payload)  # paho's received payloads are bytes already: no copy
            parsed = parse_incoming(raw, kind, self.gw.limits)
            return Parsed(kind, client_id, parsed, raw, response_topic, correlation)
        except Exception as exc:
            return exc

    def _handle(self, conn: sqlite3.Connection, incoming: Parsed) -> None:
        kind, client_id, parsed, raw, response_topic, correlation = incoming
        if isinstance(parsed, ErrorReply):
            if kind == "answer" and self.gw.topics.shared_group:
                return  # a forwarded message another member may own; nothing to say
            topic = response_topic or _peek_reply_to(raw)
            if topic is None or self.gw.topics.check_reply_topic(client_id, topic) is not None:
                topic = self.gw.topics.default_reply(client_id)
            parsed.reply_id = uuid.uuid4().hex
            self.gw.add(conn, topic, parsed, correlation, refusal=True)
            # a trusted console's refused request or cancel is the person's, as its accepted ones are (the audit's
            # `console:<user>`); `on_behalf_of` from anyone else is not even read
            person = (
                _peek_on_behalf_of(raw, self.gw.limits.max_payload_bytes)
                if client_id in self.gw.m.trusted_consoles and kind in ("request", "cancel")
                else None
            )
            self.gw.fleet.refused(conn, kind, client_id, parsed, person)
            log.info(
                "refused a %s from %s: %s (%s)",
                kind,
                self.gw.fleet.who(client_id, person) + (f" via {client_id}" if person else ""),
                parsed.code,
                parsed.message,
            )
        elif isinstance(parsed, Request):
            self._on_request(conn, client_id, parsed, response_topic, correlation)
        elif isinstance(parsed, Answer):
            self._on_answer(conn, kind, client_id, parsed, raw, correlation)
        elif isinstance(parsed, Cancel):
            self._on_cancel(conn, client_id, parsed, correlation)

    def _on_request(
        self,
        conn: sqlite3.Connection,
        client_id: str,
        req: Request,
        response_topic: str | None,
        correlation: bytes | None,
    ) -> None:
        default = self.gw.topics.default_reply(client_id)
        # an empty Response Topic or reply_to is a reply topic outside the client's subtree: refused, not ignored
        reply_topic = next((t for t in (response_topic, req.reply_to) if t is not None), default)
        # both are checked (by what MQTT and Mosquitto take in a topic), each error naming its field
        problem = self.gw.topics.check_reply_topic(
            client_id, response_topic, "Response Topic (MQTT property)"
        ) or self.gw.topics.check_reply_topic(client_id, req.reply_to, "reply_to")
        if problem:
            err = ErrorReply(
                code="bad_response_topic",
                request_id=req.request_id,
                correlation=req.correlation,
                message=f"refused: {problem}; this error is published on {default}",
                reply_id=uuid.uuid4().hex,
            )
            self.gw.add(conn, default, err, correlation, refusal=True)
            self.gw.fleet.request(conn, client_id, req, None, "refused: bad_response_topic")
            return
        if req.on_behalf_of is not None and client_id not in self.gw.m.trusted_consoles:
            err = ErrorReply(
                code="invalid_field",
                request_id=req.request_id,
                correlation=req.correlation,
                message=f"on_behalf_of: only a trusted console may name the person it asks for "
                f"({client_id!r} is not in mqtt.trusted_consoles)",
                reply_id=uuid.uuid4().hex,
            )
            self.gw.add(conn, reply_topic, err, correlation, refusal=True)
            self.gw.fleet.request(conn, client_id, req, None, "refused: on_behalf_of_untrusted")
            return
        job = self.gw.jobs.get(client_id, req.request_id)  # sees this batch's own inserts: same transaction
        if job is not None and job.state == "done":
            payload = job.final_bytes()
            # a retry gets the files again too (no Correlation Data: the topic names the request)
            for topic, data in stored_chunks(job, self.gw.settings.files_dir):
                self.gw.jobs.outbox_add(conn, topic, data, request_id=req.request_id)
        elif job is not None:
            payload = (
                AcceptedReply(
                    request_id=req.request_id,
                    state=job.state,
                    position=self.gw.jobs.position(job),
                    duplicate=True,
                    correlation=req.correlation,
                    reply_id=uuid.uuid4().hex,
                )
                .model_dump_json()
                .encode()
            )
        if job is not None:
            self.gw.fleet.request(conn, client_id, req, job, "duplicate")
        else:
            quota = self.gw.m.max_queued_per_client
            if quota and self.gw.jobs.client_active(conn, client_id) >= quota:
                err = ErrorReply(
                    code="quota_exceeded",
                    request_id=req.request_id,
                    correlation=req.correlation,
                    message=f"{client_id} already has {quota} jobs queued or running (the gateway's "
                    f"mqtt.max_queued_per_client); nothing was queued: send it again once "
                    f"some have finished",
                    reply_id=uuid.uuid4().hex,
                )
                self.gw.add(conn, reply_topic, err, correlation, refusal=True)
                self.gw.fleet.request(conn, client_id, req, None, "refused: quota_exceeded")
                return
            position = self.gw.jobs.fair_position(conn, client_id)  # round-robin: see JobQueue.next_queued
            job = self.gw.jobs.insert(
                conn,
                job_id=uuid.uuid4().hex[:16],
                client_id=client_id,
                request_id=req.request_id,
                question=req.question,
                options=req.options.model_dump(),
                reply_topic=reply_topic,
                correlation=correlation,
                body_correlation=req.correlation,
                on_behalf_of=req.on_behalf_of,
            )
            payload = (
                AcceptedReply(
                    request_id=req.request_id,
                    position=position,
                    correlation=req.correlation,
                    reply_id=f"{job.job_id}.accepted",
                )
                .model_dump_json()
                .encode()
            )
            self.gw.fleet.request(conn, client_id, req, job, "accepted")
        self.gw.jobs.outbox_add(conn, reply_topic, payload, correlation, request_id=req.request_id)

    def _on_answer(
        self, conn: sqlite3.Connection, kind: str, client_id: str, ans: Answer, raw: bytes, correlation: bytes | None
    ) -> None:
        if ans.on_behalf_of is not None and client_id not in self.gw.m.trusted_consoles:
            self.gw.fleet.answer(
                conn, client_id, ans.request_id, ans.answer, "refused: on_behalf_of_untrusted", ans.on_behalf_of
            )
            self._untrusted(conn, client_id, ans.request_id)
            return
        if self.gw.worker.deliver_answer(client_id, ans.request_id, ans.answer):
            self.gw.fleet.answer(conn, client_id, ans.request_id, ans.answer, "delivered", ans.on_behalf_of)
            return
        if self.gw.topics.shared_group:
            if kind == "request":  # maybe another member runs that job: pass it on to all members
                self.gw.client.publish(self.gw.topics.answer(client_id), raw, qos=1)
            return
        job = self.gw.jobs.get(client_id, ans.request_id)
        self.gw.fleet.answer(
            conn,
            client_id,
            ans.request_id,
            ans.answer,
            "unknown_request" if job is None else "no_question_pending",
            ans.on_behalf_of,
        )
        if job is None:
            self._unknown(conn, client_id, ans.request_id, correlation)
        else:
            err = ErrorReply(
                code="no_question_pending",
                request_id=ans.request_id,
                final=False,
                message="the job is not waiting for an answer (it timed out or never asked)",
                correlation=job.body_correlation,
                reply_id=uuid.uuid4().hex,
            )
            self.gw.add(conn, job.reply_topic, err, job.correlation)

    def _on_cancel(self, conn: sqlite3.Connection, client_id: str, c: Cancel, correlation: bytes | None) -> None:
        job = self.gw.jobs.get(client_id, c.request_id)
        if c.on_behalf_of is not None and client_id not in self.gw.m.trusted_consoles:
            self.gw.fleet.cancel(conn, client_id, c.request_id, job, "refused: on_behalf_of_untrusted", c.on_behalf_of)
            self._untrusted(conn, client_id, c.request_id)
            return
        by = self.gw.fleet.who(client_id, c.on_behalf_of)
        self.gw.fleet.cancel(
            conn, client_id, c.request_id, job, "unknown_request" if job is None else job.state, c.on_behalf_of
        )
        if job is not None and job.state == "queued":
            reply = CancelledReply(
                request_id=job.request_id,
                correlation=job.body_correlation,
                message=f"cancelled by {by} before it started",
                reply_id=f"{job.job_id}.final",
            )
            payload = reply.model_dump_json()
            self.gw.jobs.finish(conn, job.job_id, "cancelled", payload)
            self.gw.jobs.outbox_add(conn, job.reply_topic, payload.encode(), job.correlation, request_id=job.request_id)
            self.gw.fleet.final(conn, job, "cancelled", cancelled_by=by, detail="before it started")
            self.gw.fleet.finished(job, "cancelled")
        elif job is not None and job.state == "done":  # idempotent: the stored outcome again
            self.gw.jobs.outbox_add(
                conn, job.reply_topic, job.final_bytes(), job.correlation, request_id=job.request_id
            )
        if job is None:
            if not self.gw.topics.shared_group:  # in a group, another member may own it
                self._unknown(conn, client_id, c.request_id, correlation)
        elif job.state == "running":
            self.gw.worker.cancel(job.job_id, by)

    def _untrusted(self, conn: sqlite3.Connection, client_id: str, request_id: str) -> None:
        """A cancel or answer naming a person from a client that may not: refused, with a side error."""
        message = (
            f"on_behalf_of: only a trusted console may name the person it acts for "
            f"({client_id!r} is not in mqtt.trusted_consoles)"
        )
        self._side_error(conn, client_id, request_id, "invalid_field", message, None)

    def _unknown(self, conn: sqlite3.Connection, client_id: str, request_id: str, correlation: bytes | None) -> None:
        """A cancel or answer for a request this gateway does not know: a side error."""
        message = f"no request {request_id!r} from {client_id} is known here"
        self._side_error(conn, client_id, request_id, "unknown_request", message, correlation)

    def _side_error(
        self,
        conn: sqlite3.Connection,
        client_id: str,
        request_id: str,
        code: ErrorCode,
        message: str,
        correlation: bytes | None,
    ) -> None:
        """An error that ends nothing (`final` false), on the client's default reply topic, in the refusals lane."""
        err = ErrorReply(code=code, request_id=request_id, final=False, message=message, reply_id=uuid.uuid4().hex)
        self.gw.add(conn, self.gw.topics.default_reply(client_id), err, correlation, refusal=True)
