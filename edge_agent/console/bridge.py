"""The console's MQTT v5 client of the daemon's API: it asks, answers and cancels like any requester (its own
broker user, `console.mqtt_username`; the daemon's ACL, queue and exactly-once path apply), naming the logged-in
person in `on_behalf_of`. Replies arrive on paho's thread; `Bridge` wakes the asyncio handlers that stream them
(server-sent events) with `call_soon_threadsafe`.

Memory is bounded: a finished request stays here `console.answer_timeout_s` after its final reply (a reload, a
late event stream), and at most `console.keep_finished` finished requests stay (the oldest leave first), then it
is dropped with its replies and what was sent for it, and served from the run log. The session is persistent
(`clean_start=False`, a session expiry), so replies published while the console restarts wait at the broker, and
the requests still queued or running are found again in the daemon's queue (`History.active`).

A broker that refuses the console's login, or a second client that takes its client id (two consoles with one
broker user knock each other off: `takeover.TakeoverWatch`), is logged once when it starts and once when it ends,
and kept in `problem` for the page and `/healthz`; a clean stop of the console logs neither.
"""

from __future__ import annotations

import asyncio
import logging
import threading
import time
import uuid
from dataclasses import dataclass, field

from edge_agent.config import Settings
from edge_agent.console.takeover import TakeoverWatch
from edge_agent.mqtt.client import RequestClient, RequestError
from edge_agent.mqtt.connection import connect_properties
from edge_agent.mqtt.protocol import Reply, is_final

log = logging.getLogger(__name__)

UNKNOWN_KEEP_S = 3600.0  # replies of a request this console did not ask (yet) are dropped after this long


@dataclass
class Asked:
    request_id: str
    user: str
    question: str
    created: float = field(default_factory=time.time)
    ended: float | None = None  # when its final reply arrived
    restored: bool = False  # found again in the daemon's queue after a console restart


def console_settings(settings: Settings) -> Settings:
    """The settings the console logs in to the broker with: its own user and password (else the daemon's)."""
    c = settings.console
    if not c.mqtt_username:
        return settings
    mqtt = settings.mqtt.model_copy(
        update={
            "username": c.mqtt_username,
            "client_id": None,
            "password": c.mqtt_password,
            "password_file": c.mqtt_password_file,
        }
    )
    return settings.model_copy(update={"mqtt": mqtt})


class _Client(RequestClient):
    def __init__(self, *args, wake, bridge: Bridge, **kw):
        super().__init__(*args, **kw)
        self._wake, self._bridge = wake, bridge
        self._client.on_disconnect = self._on_disconnect

    def _on_connect(self, client, userdata, flags, reason_code, properties) -> None:
        if reason_code.is_failure:
            self._bridge._trouble(
                f"the broker at {self.host}:{self.port} refused the console's login as "
                f"{self.client_id!r}: {reason_code} (check console.mqtt_username and "
                f"console.mqtt_password_file, docs/console.md)"
            )
            return
        self._bridge._connected_ok()
        super()._on_connect(client, userdata, flags, reason_code, properties)

    def _on_disconnect(self, client, userdata, flags, reason_code, properties=None) -> None:
        was = self.connected.is_set()
        self.connected.clear()
        log.debug("console disconnected (%s, %s)", reason_code, getattr(reason_code, "value", None))
        if not was or self._bridge.stopping:  # a refused login (_on_connect said why), or our own clean stop
            self._wake()
            return
        self._bridge._dropped(reason_code)
        self._wake()

    def _on_message(self, client, userdata, msg) -> None:
        super()._on_message(client, userdata, msg)
        self._wake()

    def forget(self, request_id: str) -> None:
        """Drop everything kept for one request: its replies, their ids, file chunks, and what was sent (the
        request kept to send it again: its payload and MQTT properties, ~4 KiB an ask that stayed forever)."""
        with self._cond:
            for r in self._replies.pop(request_id, []):
                self._seen.discard(r.reply_id)
            self.raw_count.pop(request_id, None)
            self._sent.pop(request_id, None)
            self.resent.pop(request_id, None)
            for key in [k for k in self._chunks if k[0] == request_id]:
                del self._chunks[key]

    def request_ids(self) -> list[str]:
        with self._cond:
            return list(self._replies)


class Bridge:
    """One connection to the broker for the whole console; `asked` remembers the requests this console follows."""

    def __init__(self, settings: Settings, *, client_id: str | None = None):
        self.settings = console_settings(settings)
        self.keep_s = settings.console.answer_timeout_s
        self.keep_finished = settings.console.keep_finished
        self.client = _Client(
            self.settings,
            client_id=client_id,
            wake=self._wake_all,
            bridge=self,
            persistent=True,
            session_expiry_s=settings.mqtt.session_expiry_s,
        )
        self.asked: dict[str, Asked] = {}
        self._problem: str = ""  # the last connection problem
        self.watch = TakeoverWatch()
        self.stopping = False
        self.takeovers = 0  # drops counted as takeovers (each drop of a takeover, not only its start)
        self._first_seen: dict[str, float] = {}
        self._lock = threading.Lock()
        self._waiters: set[tuple[asyncio.AbstractEventLoop, asyncio.Event]] = set()

    @property
    def client_id(self) -> str:
        return self.client.client_id

    def start(self, timeout: float = 15.0) -> Bridge:
        self.client.connect(timeout)
        return self

    def start_async(self) -> Bridge:
        """Connect in the background: paho retries while the broker is away (the page says so meanwhile)."""
        c = self.client
        c._client.connect_async(
            c.host, c.port, keepalive=30, clean_start=False, properties=connect_properties(c.session_expiry_s)
        )
        c._client.loop_start()
        return self

    def stop(self) -> None:
        self.stopping = True  # the disconnect that follows is ours: no takeover, no error
        self.client.close()

    @property
    def connected(self) -> bool:
        return self.client.connected.is_set()

    # connection trouble ------------------------------------------------------------------------
    @property
    def problem(self) -> str:
        """What is wrong with the broker connection, for the page ('' while all is well). A takeover is shown
        until the console's connection has held for `TakeoverWatch.stable_s` (the second console is gone)."""
        if self._problem:
            return self._problem
        with self._lock:
            if self.watch.check(time.time(), self.connected):
                log.info(
                    "the console's broker connection has held for %.0f s: no other client takes its session any more",
                    self.watch.stable_s,
                )
            if self.watch.active:
                return self._takeover_text()
        return ""

    def _takeover_text(self) -> str:
        return (
            f"the broker keeps dropping the console's connection soon after it connects ({self.watch.count} times "
            f"so far): another client connects as {self.client_id!r} and takes its session. Is a second console "
            f"running with the same broker user? Give each console its own (console.mqtt_username)"
        )

    def _dropped(self, reason_code) -> None:
        """The broker dropped a connection that was up: a takeover starts (logged once), goes on, or not."""
        with self._lock:
            started = self.watch.dropped(time.time(), getattr(reason_code, "value", None))
            taken = self.watch.active
            if started:  # logged before counted: whoever watches the count finds the log line there
                log.error("%s", self._takeover_text())
            if taken:
                self.takeovers += 1
        if not taken and reason_code is not None and getattr(reason_code, "is_failure", False):
            self._trouble(f"the broker closed the console's connection: {reason_code}")

    def _trouble(self, text: str) -> None:
        if text != self._problem:
            log.error("%s", text)
        self._problem = text

    def _connected_ok(self) -> None:
        with self._lock:
            self.watch.connected(time.time())
        if self._problem:
            log.info("console connected to the broker as %r", self.client_id)
        self._problem = ""

    # waking the handlers ------------------------------------------------------------------------
    def _wake_all(self) -> None:
        for loop, event in list(self._waiters):
            loop.call_soon_threadsafe(event.set)

    async def changed(self, timeout: float, ready=None) -> None:
        """Return when any reply arrives (or after `timeout`); at once if `ready()` is already true once this
        waiter is registered (a reply that came between the caller's last look and now is not missed)."""
        event = asyncio.Event()
        key = (asyncio.get_running_loop(), event)
        self._waiters.add(key)
        try:
            if ready is not None and ready():
                return
            await asyncio.wait_for(event.wait(), timeout)
        except TimeoutError:
            pass
        finally:
            self._waiters.discard(key)

    # requests --------------------------------------------------------------------------------
    def ask(self, user: str, question: str, options: dict) -> str:
        self.sweep()
        request_id = uuid.uuid4().hex[:16]
        self.asked[request_id] = Asked(request_id, user, question)
        try:
            self.client.send(question, request_id=request_id, options=options, on_behalf_of=user)
        except RequestError:  # the broker refused it (its PUBACK): nothing was queued, nothing to follow
            self.asked.pop(request_id, None)
            raise
        return request_id

    def adopt(self, request_id: str, user: str, question: str, created: float) -> Asked:
        """A request of this console's broker user found in the daemon's queue (the console restarted)."""
        asked = self.asked.get(request_id)
        if asked is None:
            asked = self.asked[request_id] = Asked(request_id, user, question, created, restored=True)
        return asked

    def answer(self, request_id: str, text: str, user: str | None = None) -> None:
        body = {"request_id": request_id, "answer": text}
        if user:
            body["on_behalf_of"] = user
        self.client._publish(self.client.topics.request(self.client_id), body)

    def cancel(self, request_id: str, user: str | None = None) -> None:
        body = {"request_id": request_id}
        if user:
            body["on_behalf_of"] = user
        self.client._publish(self.client.topics.cancel(self.client_id), body)

    def replies(self, request_id: str) -> list[Reply]:
        return self.client.replies(request_id)

    def final(self, request_id: str) -> Reply | None:
        return next((r for r in self.replies(request_id) if is_final(r)), None)

    def running(self) -> list[Asked]:
        """The requests this console follows that have no final reply yet, oldest first."""
        self.sweep()
        return sorted(
            (a for a in list(self.asked.values()) if a.ended is None and self.final(a.request_id) is None),
            key=lambda a: a.created,
        )

    def sweep(self, now: float | None = None) -> int:
        """Forget finished requests `keep_s` after their final reply, and all but the newest `keep_finished` of
        them at once; replies of requests nobody asked here after an hour; returns how many were dropped."""
        now = time.time() if now is None else now
        _ = self.problem  # a takeover that has ended is logged as ended, whether or not a page asks
        dropped = 0
        finished = []
        for rid, asked in list(self.asked.items()):
            if asked.ended is None and self.final(rid) is not None:
                asked.ended = now
            if asked.ended is not None:
                finished.append(asked)
        finished.sort(key=lambda a: (a.ended or 0.0, a.created))
        over = len(finished) - self.keep_finished
        for i, asked in enumerate(finished):
            if i < over or now - (asked.ended or now) >= self.keep_s:
                self._drop(asked.request_id)
                dropped += 1
        for rid in self.client.request_ids():
            if rid in self.asked:
                continue
            with self._lock:
                first = self._first_seen.setdefault(rid, now)
            if now - first >= (self.keep_s if self.final(rid) is not None else UNKNOWN_KEEP_S):
                self._drop(rid)
                dropped += 1
        return dropped

    def _drop(self, request_id: str) -> None:
        self.asked.pop(request_id, None)
        self.client.forget(request_id)
        with self._lock:
            self._first_seen.pop(request_id, None)

    async def first_reply(self, request_id: str, timeout: float) -> Reply | None:
        deadline = time.monotonic() + timeout
        while not self.replies(request_id):
            left = deadline - time.monotonic()
            if left <= 0:
                return None
            await self.changed(min(left, 1.0), lambda: bool(self.replies(request_id)))
        return self.replies(request_id)[0]
