"""The console's MQTT v5 client of the daemon's API: it asks, answers and cancels like any requester (its own
broker user, `console.mqtt_username`; the daemon's ACL, queue and exactly-once path apply), naming the logged-in
person in `on_behalf_of`. Replies arrive on paho's thread; `Bridge` wakes the asyncio handlers that stream them
(server-sent events) with `call_soon_threadsafe`.
"""

from __future__ import annotations

import asyncio
import time
import uuid
from dataclasses import dataclass, field

from edge_agent.config import Settings
from edge_agent.mqtt.client import RequestClient
from edge_agent.mqtt.protocol import Reply, is_final


@dataclass
class Asked:
    request_id: str
    user: str
    question: str
    created: float = field(default_factory=time.time)


def console_settings(settings: Settings) -> Settings:
    """The settings the console logs in to the broker with: its own user and password (else the daemon's)."""
    c = settings.console
    if not c.mqtt_username:
        return settings
    mqtt = settings.mqtt.model_copy(update={"username": c.mqtt_username, "client_id": None,
                                            "password": c.mqtt_password, "password_file": c.mqtt_password_file})
    return settings.model_copy(update={"mqtt": mqtt})


class _Client(RequestClient):
    def __init__(self, *args, wake, **kw):
        super().__init__(*args, **kw)
        self._wake = wake

    def _on_message(self, client, userdata, msg) -> None:
        super()._on_message(client, userdata, msg)
        self._wake()


class Bridge:
    """One connection to the broker for the whole console; `asked` remembers this process's requests."""

    def __init__(self, settings: Settings, *, client_id: str | None = None):
        self.settings = console_settings(settings)
        self.client = _Client(self.settings, client_id=client_id, wake=self._wake_all)
        self.asked: dict[str, Asked] = {}
        self._waiters: set[tuple[asyncio.AbstractEventLoop, asyncio.Event]] = set()

    def start(self, timeout: float = 15.0) -> "Bridge":
        self.client.connect(timeout)
        return self

    def stop(self) -> None:
        self.client.close()

    @property
    def connected(self) -> bool:
        return self.client.connected.is_set()

    def _wake_all(self) -> None:
        for loop, event in list(self._waiters):
            loop.call_soon_threadsafe(event.set)

    async def changed(self, timeout: float) -> None:
        """Return when any reply arrives (or after `timeout`)."""
        event = asyncio.Event()
        key = (asyncio.get_running_loop(), event)
        self._waiters.add(key)
        try:
            await asyncio.wait_for(event.wait(), timeout)
        except asyncio.TimeoutError:
            pass
        finally:
            self._waiters.discard(key)

    # requests --------------------------------------------------------------------------------
    def ask(self, user: str, question: str, options: dict) -> str:
        request_id = uuid.uuid4().hex[:16]
        self.asked[request_id] = Asked(request_id, user, question)
        self.client.send(question, request_id=request_id, options=options, on_behalf_of=user)
        return request_id

    def answer(self, request_id: str, text: str) -> None:
        self.client.answer(request_id, text)

    def cancel(self, request_id: str) -> None:
        self.client.cancel(request_id)

    def replies(self, request_id: str) -> list[Reply]:
        return self.client.replies(request_id)

    def final(self, request_id: str) -> Reply | None:
        return next((r for r in self.replies(request_id) if is_final(r)), None)

    async def first_reply(self, request_id: str, timeout: float) -> Reply | None:
        deadline = time.monotonic() + timeout
        while not self.replies(request_id):
            left = deadline - time.monotonic()
            if left <= 0:
                return None
            await self.changed(min(left, 1.0))
        return self.replies(request_id)[0]
