"""The outbox publisher: hands stored replies to paho in order and deletes each when the broker acks it.

One thread does both the handing and the deleting, so it can map paho message ids to outbox rows
without locks shared with paho's network thread (paho calls `on_publish` while holding its own
locks; this callback only queues the id). Rows stay in SQLite until their PUBACK arrives, so a
reply survives a broker outage and a daemon crash; paho itself re-sends its in-flight messages
after a reconnect within one process. A row larger than the broker's Maximum Packet Size would
get the client disconnected on every reconnect, forever, so such a row is dropped with an error log.
Deleting acknowledged rows is not fsync'd (it would cost as much as storing the requests): a crash
may bring a few back, and they are published again with their `reply_id`, which clients deduplicate.
"""

from __future__ import annotations

import logging
import queue as stdqueue
import threading
from typing import Callable

import paho.mqtt.client as mqtt
from paho.mqtt.packettypes import PacketTypes
from paho.mqtt.properties import Properties

from edge_agent.mqtt.queue import JobQueue

log = logging.getLogger(__name__)

PACKET_OVERHEAD = 256  # fixed header, topic length, packet id, properties


class OutboxPublisher:
    def __init__(self, jobs: JobQueue, client: mqtt.Client, max_packet: Callable[[], int], window: int = 200):
        self.jobs = jobs
        self.client = client
        self.max_packet = max_packet
        self.window = window
        self._acks: stdqueue.SimpleQueue[int] = stdqueue.SimpleQueue()
        self._wake = threading.Event()
        self._stop = threading.Event()
        self._mid_row: dict[int, int] = {}
        self._handed: set[int] = set()
        self._idle = threading.Event()
        self._thread = threading.Thread(target=self._run, name="outbox", daemon=True)

    def start(self) -> None:
        self._thread.start()

    def stop(self, timeout: float = 2.0) -> None:
        self._stop.set()
        self._wake.set()
        self._thread.join(timeout)

    def wake(self) -> None:
        self._idle.clear()
        self._wake.set()

    def on_publish(self, mid: int) -> None:
        """paho's on_publish (network thread): only queue the id."""
        self._acks.put(mid)
        self._wake.set()

    def in_flight(self) -> int:
        return len(self._handed)

    def wait_idle(self, timeout: float) -> bool:
        """True once every stored reply has been acknowledged (used on clean stop)."""
        self.wake()
        return self._idle.wait(timeout)

    def _run(self) -> None:
        while not self._stop.is_set():
            self._wake.wait(0.5)
            self._wake.clear()
            try:
                self._process_acks()
                self._hand_pending()
                if not self._handed and self.jobs.outbox_size() == 0:
                    self._idle.set()
            except Exception:  # a DB hiccup must not kill the publisher
                log.exception("outbox publisher error")

    def _process_acks(self) -> None:
        done: list[int] = []
        while True:
            try:
                mid = self._acks.get_nowait()
            except stdqueue.Empty:
                break
            row_id = self._mid_row.pop(mid, None)
            if row_id is not None:
                done.append(row_id)
                self._handed.discard(row_id)
        if done:  # not fsync'd: a delete lost in a crash only re-sends a reply with the same reply_id
            with self.jobs.tx(durable=False) as conn:
                conn.executemany("DELETE FROM outbox WHERE id=?", [(r,) for r in done])

    def _hand_pending(self) -> None:
        room = self.window - len(self._handed)
        if room <= 0:
            return
        for row in self.jobs.outbox_pending(exclude=self._handed, limit=room):
            if len(row.payload) + len(row.topic.encode()) + PACKET_OVERHEAD > self.max_packet():
                log.error("dropping a %d-byte reply on %s: over the broker's maximum packet size %d",
                          len(row.payload), row.topic, self.max_packet())
                self.jobs.outbox_done(row.id)
                continue
            props = None
            if row.correlation:
                props = Properties(PacketTypes.PUBLISH)
                props.CorrelationData = row.correlation
            info = self.client.publish(row.topic, row.payload, qos=1, retain=row.retain, properties=props)
            if info.rc == mqtt.MQTT_ERR_QUEUE_SIZE:
                break
            self._mid_row[info.mid] = row.id
            self._handed.add(row.id)
