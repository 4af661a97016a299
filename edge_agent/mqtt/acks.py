"""The PUBACKs of stored requests, paced so that the session connection's keep-alive is never stuck behind them.

Why (issue 42, measured): Mosquitto reads one packet per connection per turn of its loop and, with the gateway's
persistence settings (`autosave_on_changes`), saves its database after each turn. After a restart with 10,000
requests queued for the daemon's session, the broker delivers them all in seconds, the daemon stores them and
writes 10,000 PUBACKs — which the broker then reads at ~100 a second. paho's PINGREQ, sent once nothing had
come in for `keepalive_s`, sat behind thousands of them; its PINGRESP came too late, paho closed the connection
("Keep alive timeout") and the broker delivered every request not yet acknowledged again (answered as duplicates).

So at most `FENCE` PUBACKs are ever written ahead of what the broker has read: after each `FENCE`, a PINGREQ,
and the next PUBACKs wait for its PINGRESP, which proves the broker read everything before it. A PINGREQ (paho's
own, at `keepalive_s`, or ours) then waits behind at most `FENCE` packets. The committer hands the PUBACKs over
(`put`) and goes on storing; this thread ("acks") writes them, in order. paho has no public ping: its
`_send_pingreq` and `_ping_t` are used where present (paho 2.x), else PUBACKs go out unpaced, as before.
"""

from __future__ import annotations

import logging
import time

import paho.mqtt.client as mqtt

from edge_agent.mqtt.queuethread import QueueThread

log = logging.getLogger(__name__)

FENCE = 200  # PUBACKs written ahead of the broker at most: ~2 s of its turns under a 10,000-message backlog
PING_WAIT_S = 10.0  # a PINGRESP that never comes (a dropped connection): go on unpaced, paho's keep-alive decides


class AckPacer(QueueThread[tuple[int, int, int]]):
    """PUBACKs of stored messages out in order, at most `fence` ahead of the broker (see the module's docstring).
    Items are (connection generation, mid, qos); `stop` writes what is queued (unpaced), then ends the thread."""

    def __init__(self, client: mqtt.Client, *, fence: int = FENCE, ping_wait_s: float = PING_WAIT_S):
        super().__init__("acks")
        self.client = client
        self.fence = fence
        self.ping_wait_s = ping_wait_s
        self.pings = 0  # fences that waited for a PINGRESP (for tests and the log)
        self._gen = 0
        self._unconfirmed = 0
        self._can_ping = hasattr(client, "_send_pingreq") and hasattr(client, "_ping_t")

    def put(self, msg: mqtt.MQTTMessage) -> None:
        """A stored message to acknowledge (the committer's thread)."""
        with self._cond:
            self._items.append((self._gen, msg.mid, msg.qos))
            self._cond.notify()

    def reconnected(self) -> None:
        """The session connection is new (paho's on_connect): PUBACKs of the old one are dropped — their message ids
        meant the old connection's deliveries, which the broker delivers again (found duplicates, never run twice)."""
        with self._cond:
            self._gen += 1
            self._items.clear()
            self._unconfirmed = 0
            self._cond.notify_all()

    def _take(self) -> list[tuple[int, int, int]]:
        with self._cond:
            self._cond.wait_for(lambda: self._items or self._stop)
            room = len(self._items) if self._stop else max(1, self.fence - self._unconfirmed)
            taken = [self._items.popleft() for _ in range(min(room, len(self._items)))]
            self._unconfirmed += len(taken)
            return taken

    def _run(self) -> None:
        while True:
            taken = self._take()
            if not taken:
                return
            for gen, mid, qos in taken:
                if gen != self._gen:
                    continue
                try:
                    self.client.ack(mid, qos)
                except Exception:  # not acknowledged: redelivered at the next connect, then found a duplicate
                    log.exception("could not acknowledge a stored message")
            if self._unconfirmed >= self.fence and self._can_ping and not self._stop:
                self._fence()

    def _fence(self) -> None:
        """A PINGREQ after the PUBACKs written so far; wait for its PINGRESP (paho's loop thread clears `_ping_t`)."""
        client = self.client
        gen = self._gen
        try:
            if getattr(client, "_ping_t", 0) == 0:
                client._send_pingreq()  # (paho's own keep-alive ping, if one is out, serves as well)
        except Exception:
            log.debug("no PINGREQ (the connection is down)", exc_info=True)
        deadline = time.monotonic() + self.ping_wait_s
        self.pings += 1
        while getattr(client, "_ping_t", 0) != 0 and time.monotonic() < deadline:
            with self._cond:
                if self._stop or self._gen != gen:
                    break
                self._cond.wait(0.005)
        with self._cond:
            self._unconfirmed = 0
