"""The outbox publisher: hands stored replies to paho in order and deletes each when the broker acks it.

Two ways out, one order. A thread that commits replies publishes them itself right after its commit
(`claim` inside the transaction, `release` after it): a burst's `accepted` replies go out as each
batch is stored, not after the outbox thread has waited for the database lock through the next
batch's commit. Everything else (replies left over by a crash or a broker outage, rows a releaser
had no room for) is handed by the outbox thread, which reads the table in id order and stops at the
first row another thread has claimed, so a topic's replies never overtake each other. The outbox
thread alone turns PUBACKs (paho calls `on_publish` while holding its own locks; the callback only
queues the id) into deletes. Rows stay in SQLite until their PUBACK arrives, so a reply survives a
broker outage and a daemon crash; paho itself re-sends its in-flight messages after a reconnect
within one process. A row larger than the broker's Maximum Packet Size would get the client
disconnected on every reconnect, forever, so such a row is dropped with an error log. Deleting
acknowledged rows is not fsync'd (it would cost as much as storing the requests): a crash may bring a
few back, and they are published again with their `reply_id`, which clients deduplicate.
"""

from __future__ import annotations

import logging
import queue as stdqueue
import threading
from typing import Callable

import paho.mqtt.client as mqtt
from paho.mqtt.packettypes import PacketTypes
from paho.mqtt.properties import Properties

from edge_agent.mqtt.queue import JobQueue, OutboxRow

log = logging.getLogger(__name__)

PACKET_OVERHEAD = 256  # fixed header, topic length, packet id, properties
ACK_DELAY_S = 0.05  # PUBACKs collected this long become one delete (a burst's 100: a few, not 100)
IDLE_S = 0.5


def correlation_props(correlation: bytes | None) -> Properties | None:
    """PUBLISH properties carrying a request's MQTT v5 Correlation Data (None when it has none)."""
    if not correlation:
        return None
    props = Properties(PacketTypes.PUBLISH)
    props.CorrelationData = correlation
    return props


class OutboxPublisher:
    def __init__(self, jobs: JobQueue, client: mqtt.Client, max_packet: Callable[[], int], window: int = 200):
        self.jobs = jobs
        self.client = client
        self.max_packet = max_packet
        self.window = window
        self._acks: stdqueue.SimpleQueue[int] = stdqueue.SimpleQueue()
        self._wake = threading.Event()
        self._stop = threading.Event()
        self._lock = threading.Lock()  # the three below: the outbox thread and releasing threads
        self._mid_row: dict[int, int] = {}
        self._handed: set[int] = set()
        self._claimed: set[int] = set()
        self._blocked = False  # rows wait behind a claimed one or a full window: wake the thread later
        self._unread = True  # the table may hold rows nobody has handed on: `_hand_pending` reads it
        self._undeleted: set[int] = set()  # acknowledged, but their delete failed (a full disk): not sent again
        self._idle = threading.Event()
        self._thread = threading.Thread(target=self._run, name="outbox", daemon=True)

    def start(self) -> None:
        self._thread.start()

    def stop(self, timeout: float = 2.0) -> None:
        self._stop.set()
        self._wake.set()
        if self._thread.is_alive():
            self._thread.join(timeout)

    def wake(self) -> None:
        """There may be rows to hand on (stored without a release, a reconnect, rows left behind)."""
        self._idle.clear()
        self._unread = True
        self._wake.set()

    def on_publish(self, mid: int) -> None:
        """paho's on_publish (network thread): only queue the id. The outbox thread deletes acknowledged
        rows in groups (`ACK_DELAY_S`), not one transaction and one thread wake-up per PUBACK, unless
        rows are waiting for room in the window."""
        self._acks.put(mid)
        if self._blocked:
            self._wake.set()

    def in_flight(self) -> int:
        return len(self._handed)

    def claim(self, rows: list[OutboxRow]) -> list[OutboxRow]:
        """Inside the transaction that stores `rows` (so before the outbox thread can read them): the
        caller publishes them itself after the commit (`release`), or gives them back (`unclaim`)."""
        with self._lock:
            self._claimed.update(row.id for row in rows)
        return rows

    def unclaim(self, rows: list[OutboxRow]) -> None:
        """The commit failed (the rows do not exist) or the caller will not publish them."""
        with self._lock:
            self._claimed.difference_update(row.id for row in rows)
        self.wake()

    def release(self, rows: list[OutboxRow]) -> None:
        """Right after the commit that stored `rows` (claimed): publish them now, in order, from this
        thread, unless an older row is still claimed by another thread or the window is full; then
        the outbox thread hands them on in order instead."""
        if not rows:
            return
        with self._lock:
            self._claimed.difference_update(row.id for row in rows)
            if any(c < rows[0].id for c in self._claimed):
                self._blocked = True  # the older row's claimer wakes the outbox thread
                too_large: list[OutboxRow] = []
            else:
                too_large = self._publish_in_order(rows)
            wake, self._blocked = self._blocked, False
        self._drop(too_large)
        if wake:
            self.wake()

    def _publish_in_order(self, rows: list[OutboxRow]) -> list[OutboxRow]:
        """Under `_lock`: hand `rows` to paho until one cannot go (claimed by another thread, no room in
        the window, paho's queue full: `_blocked`). Returns the rows too large for the broker, to drop."""
        too_large = []
        for row in rows:
            if row.id in self._handed:
                continue
            if row.id in self._claimed or len(self._handed) >= self.window:
                self._blocked = True
                break
            if len(row.payload) + len(row.topic.encode()) + PACKET_OVERHEAD > self.max_packet():
                too_large.append(row)
                continue
            info = self.client.publish(row.topic, row.payload, qos=1, retain=row.retain,
                                       properties=correlation_props(row.correlation))
            if info.rc == mqtt.MQTT_ERR_QUEUE_SIZE:
                self._blocked = True
                break
            self._mid_row[info.mid] = row.id
            self._handed.add(row.id)
        return too_large

    def _drop(self, rows: list[OutboxRow]) -> None:
        """Outside `_lock` (it takes the database lock, which a claimer holds while it waits for ours)."""
        for row in rows:
            log.error("dropping a %d-byte reply on %s: over the broker's maximum packet size %d",
                      len(row.payload), row.topic, self.max_packet())
            self.jobs.outbox_done(row.id)

    def wait_idle(self, timeout: float) -> bool:
        """True once every stored reply has been acknowledged (used on clean stop)."""
        self.wake()
        return self._idle.wait(timeout)

    def _run(self) -> None:
        while not self._stop.is_set():
            if not self._wake.wait(IDLE_S if self._acks.empty() else ACK_DELAY_S) and self._acks.empty():
                self._unread = True  # idle: look at the table anyway, twice a second
            self._wake.clear()
            try:
                self._process_acks()
                if self._unread:
                    self._unread = False
                    self._hand_pending()
                    if self._blocked:  # a full window or a claimed row: read again at the next wake
                        self._unread = True
                if not self._handed and self.jobs.outbox_size() == 0:
                    self._idle.set()
            except Exception:  # a DB hiccup must not kill the publisher
                log.exception("outbox publisher error")

    def _process_acks(self) -> None:
        done: list[int] = []
        with self._lock:  # a releaser registers a row's mid before we can see its PUBACK
            while True:
                try:
                    mid = self._acks.get_nowait()
                except stdqueue.Empty:
                    break
                row_id = self._mid_row.pop(mid, None)
                if row_id is not None:
                    done.append(row_id)
                    self._handed.discard(row_id)
        done += self._undeleted
        if done:  # not fsync'd: a delete lost in a crash only re-sends a reply with the same reply_id
            try:
                with self.jobs.tx(durable=False) as conn:
                    conn.executemany("DELETE FROM outbox WHERE id=?", [(r,) for r in done])
                self._undeleted = set()
            except Exception:  # e.g. a full disk: delivered all the same; deleted when it can be
                self._undeleted = set(done)
                raise

    def _hand_pending(self) -> None:
        room = self.window - len(self._handed)
        if room <= 0:
            self._blocked = True
            return
        with self._lock:
            handed = self._handed | self._undeleted
        rows = self.jobs.outbox_pending(exclude=handed, limit=room)  # not under `_lock`: see `_drop`
        with self._lock:
            self._blocked = False
            too_large = self._publish_in_order(rows)
        self._drop(too_large)
