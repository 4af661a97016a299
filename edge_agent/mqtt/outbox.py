"""The outbox publisher: hands stored replies to paho in order and deletes each when the broker acks it.

Two ways out, one order per requester (issue 42). Every row belongs to a stream (its requester) and a lane
(`records.ANSWERS` or `records.REFUSALS`); a stream's rows of one lane go out in id order, and a request's replies
are never split across lanes in a way that reorders them (`JobQueue._keep_request_order`). A thread that
commits replies publishes its answers itself right after its commit (`claim` inside the transaction,
`release` after it) — but only while no answer waits in the table (`_behind`): a burst's `accepted` replies
go out as each batch is stored, not after the outbox thread has waited for the database lock through the
next batch's commit. Everything else (replies left over by a crash or a broker outage, rows a releaser had
no room for, every refusal) is handed on by the outbox thread in `JobQueue.outbox_schedule` order: answers
first, round-robin between requesters, then refusals, of which at most `REFUSALS_IN_FLIGHT` are on the wire
at once, so a flood's 10,000 `quota_exceeded` never stand between another requester and its reply. A row
another thread has claimed holds back the rows behind it in its stream only. The outbox
thread alone turns PUBACKs (paho calls `on_publish` while holding its own locks; the callback only
queues the id) into deletes. Rows stay in SQLite until their PUBACK arrives, so a reply survives a
broker outage and a daemon crash; paho itself re-sends its in-flight messages after a reconnect
within one process.

No row can jam the outbox (issue 30). A row the broker would refuse outright — a topic holding a character
MQTT brokers refuse (controls, noncharacters), or a packet (topic, properties with the Correlation Data,
payload: `packets.publish_packet_size`) over the broker's Maximum Packet Size — is never sent: it is moved to
`dead_letters` with the reason, and its requester gets a `not_delivered` error on its default response topic
(`notice`). A row the broker refuses in its PUBACK (e.g. "Not authorized"), or that was on the wire when the
broker closed the connection, becomes a suspect: it is sent again alone (nothing else in flight), so a
connection the broker closes while it is alone is its fault; after `attempts` such failures (counted in the
table, so across restarts too) it is dead-lettered the same way. paho's own re-sending of its in-flight
messages after a reconnect is cut off (`on_connect`): the outbox alone decides what goes out again. The rows
behind a suspect wait one round trip for it, and then flow. Deleting
acknowledged rows is not fsync'd (it would cost as much as storing the requests): a crash may bring a
few back, and they are published again with their `reply_id`, which clients deduplicate.
"""

from __future__ import annotations

import logging
import queue as stdqueue
import threading
import time
from collections.abc import Callable

import paho.mqtt.client as mqtt
from paho.mqtt.reasoncodes import ReasonCode

from edge_agent.failures import disk_full
from edge_agent.mqtt.pace import Pace
from edge_agent.mqtt.packets import correlation_props, row_problem
from edge_agent.mqtt.queue import JobQueue
from edge_agent.mqtt.records import ANSWERS, REFUSALS, OutboxRow

log = logging.getLogger(__name__)

REFUSALS_IN_FLIGHT = 16  # refusals handed to paho at once (fewer while the window is paced): issue 42
ACK_DELAY_S = 0.05  # PUBACKs collected this long become one delete (a burst's 100: a few, not 100)
IDLE_S = 0.5
LOG_EVERY_S = 60.0  # the same database failure (a full disk) is logged once a minute, not at every turn

#: notice(row, reason, dead_letter_id) → (topic, payload, correlation) of the error its requester gets, or None
Notice = Callable[[OutboxRow, str, int], "tuple[str, bytes, bytes | None] | None"]


class OutboxPublisher:
    def __init__(
        self,
        jobs: JobQueue,
        client: mqtt.Client,
        max_packet: Callable[[], int],
        window: int = 200,
        *,
        attempts: int = 3,
        notice: Notice | None = None,
        on_dead: Callable[[], None] | None = None,
        paced: bool = True,
    ):
        self.jobs = jobs
        self.client = client
        self.max_packet = max_packet
        self.window = window  # rows handed to paho at most; fewer while the broker is slow (`pace`)
        self.pace = Pace(window) if paced else None
        self.attempts = attempts  # a row the broker refuses or disconnects on this often is dead-lettered
        self.notice = notice
        self.on_dead = on_dead
        self._acks: stdqueue.SimpleQueue[tuple[int, object]] = stdqueue.SimpleQueue()
        self._wake = threading.Event()
        self._stop = threading.Event()
        self._lock = threading.Lock()  # the state below: the outbox thread, releasing threads, paho's callbacks
        self._mid_row: dict[int, int] = {}
        self._handed: set[int] = set()
        self._handed_refusals: set[int] = set()  # the refusals among `_handed` (`REFUSALS_IN_FLIGHT`)
        self._behind = True  # answers may wait in the table unhanded: releasers leave theirs to the outbox thread
        self._gen = 0  # bumped whenever rows may have been left behind (`_hand_pending` clears `_behind` only if not)
        self._claimed: set[int] = set()
        self._blocked = False  # rows wait behind a claimed one or a full window: wake the thread later
        self._unread = True  # the table may hold rows nobody has handed on: `_hand_pending` reads it
        self._undeleted: set[int] = set()  # acknowledged, but their delete failed (a full disk): not sent again
        self._resolved: list[tuple[int, object]] = []  # (row id, PUBACK reason code) taken out of `_acks`
        self._suspects: set[int] = set()  # on the wire at a disconnect, or refused: sent again alone
        self._probe: int | None = None  # the suspect on the wire alone; nothing else goes until its PUBACK
        self._failed: list[tuple[int, str]] = []  # attributed failures, for the outbox thread to count
        self._doomed: dict[int, str] = {}  # rows the broker would refuse outright: dead-lettered by the thread
        self._logged: dict[str, float] = {}
        self._online = False  # the reply connection's CONNACK was handled (its packet size limit is known)
        self._idle = threading.Event()
        self._thread = threading.Thread(target=self._run, name="outbox", daemon=True)

    def start(self) -> None:
        self._wake.set()  # read the table at once: until then releasers leave their rows to the thread (`_behind`)
        self._thread.start()

    def stop(self, timeout: float = 2.0) -> None:
        self._stop.set()
        self._wake.set()
        if self._thread.is_alive():
            self._thread.join(timeout)

    def wake(self) -> None:
        """There may be rows to hand on (stored without a release, a reconnect, rows left behind)."""
        with self._lock:
            self._left_behind()
        self._poke()

    def _left_behind(self) -> None:
        """Under `_lock`: answers may wait in the table; releasers leave theirs to the outbox thread until it has
        handed on everything it read."""
        self._behind = True
        self._gen += 1

    def _poke(self) -> None:
        self._idle.clear()
        self._unread = True
        self._wake.set()

    def on_publish(self, mid: int, reason_code: ReasonCode | None = None) -> None:
        """paho's on_publish (network thread): only queue the id (and the PUBACK's reason code). The outbox
        thread deletes acknowledged rows in groups (`ACK_DELAY_S`), not one transaction and one thread
        wake-up per PUBACK, unless rows are waiting for room in the window."""
        self._acks.put((mid, reason_code))
        if self.pace is not None:
            self.pace.acked()
        if self._behind or self._probe is not None or getattr(reason_code, "is_failure", False):
            self._wake.set()  # answers wait for room: at once (refusals wait for the next turn, `ACK_DELAY_S`)

    def on_disconnect(self, reason: object) -> None:
        """paho's on_disconnect of the connection replies go out on: every row on the wire is a suspect; the one
        that was on the wire alone (a suspect sent again) is held responsible."""
        with self._lock:
            self._take_acks()
            if self._probe is not None and self._probe in self._handed:
                self._failed.append((self._probe, f"the broker closed the connection when it was sent ({reason})"))
            self._probe = None
            self._suspects |= self._handed
            self._online = False
        self._wake.set()

    def on_connect(self) -> None:
        """paho's on_connect of the reply connection, before paho sends its in-flight messages again: the
        outbox's are taken out of paho's queue (the outbox hands them on again, suspects alone)."""
        with self._lock:
            self._take_acks()
            out = getattr(self.client, "_out_messages", None)
            mutex = getattr(self.client, "_out_message_mutex", None)
            if out is not None and mutex is not None:
                with mutex:  # (paho's in-flight count was reset by its reconnect; its CONNACK loop recounts)
                    for mid in self._mid_row:
                        out.pop(mid, None)
            self._mid_row.clear()
            self._handed.clear()
            self._handed_refusals.clear()
            self._probe = None
            self._online = True  # only now: the limit rows are checked against is this connection's
        self.wake()

    def _take_acks(self) -> None:
        """Under `_lock`: queued PUBACKs → (row, reason code), before their message ids are forgotten."""
        while True:
            try:
                mid, rc = self._acks.get_nowait()
            except stdqueue.Empty:
                return
            row_id = self._mid_row.pop(mid, None)
            if row_id is not None:
                self._resolved.append((row_id, rc))

    def in_flight(self) -> int:
        return len(self._handed)

    def _limit(self) -> int:
        """Under `_lock`: the rows that may be handed to paho now — the window, as the broker's recent pace allows
        (pace.py: a row handed on is out of reach of the answers-first order)."""
        return self.window if self.pace is None else min(self.window, self.pace.window())

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

    def release(self, rows: list[OutboxRow], *, promoted: bool = False) -> None:
        """Right after the commit that stored `rows` (claimed): publish its answers now, in order, from this
        thread, unless answers wait in the table (`_behind`: rows left by a full window, a reconnect, another
        thread), an older row is still claimed by another thread, or the commit moved waiting refusals among
        the answers (`promoted`); then the outbox thread hands them on in its order instead. Refusals always go
        through the outbox thread (`REFUSALS_IN_FLIGHT`)."""
        if not rows:
            return
        answers = [row for row in rows if row.lane == ANSWERS]
        with self._lock:
            self._claimed.difference_update(row.id for row in rows)
            if self._behind or promoted or any(c < rows[0].id for c in self._claimed):
                self._left_behind()  # (an older row's claimer wakes the outbox thread too)
                wake = True
            else:
                was, self._blocked = self._blocked, False
                self._publish_in_order(answers)
                if self._blocked:
                    self._left_behind()
                wake = self._blocked or bool(self._doomed) or len(answers) < len(rows)
                self._blocked = was or self._blocked
        if wake:
            self._poke()

    def _publish_in_order(self, rows: list[OutboxRow]) -> None:
        """Under `_lock`: hand `rows` to paho in their order; a stream whose row cannot go yet (claimed by
        another thread) holds back its later rows only; everything stops at a full window, paho's queue full, a
        suspect alone on the wire, or `REFUSALS_IN_FLIGHT` refusals (rows come answers first): `_blocked`. A row
        the broker would refuse is set aside for the outbox thread to dead-letter (`_doomed`). Nothing is handed
        on before the reply connection's CONNACK was handled (`on_connect`): paho would queue the rows and send
        them at its CONNACK, checked against a packet size limit the broker had not given yet."""
        if not self._online:
            self._left_behind()  # `on_connect` wakes the outbox thread, which reads the table
            return
        limit, window = self.max_packet(), self._limit()
        held: set[str] = set()
        for row in rows:
            if row.id in self._handed or row.id in self._doomed:
                continue
            if row.stream in held:
                continue
            if row.id in self._claimed:
                held.add(row.stream)
                self._blocked = True
                continue
            if len(self._handed) >= window or self._probe is not None:
                self._blocked = True
                break
            if row.lane == REFUSALS and len(self._handed_refusals) >= min(REFUSALS_IN_FLIGHT, window):
                self._blocked = True
                break
            problem = row_problem(row, limit)
            if problem:
                self._doomed[row.id] = problem
                continue
            suspect = row.id in self._suspects or row.attempts > 0
            if suspect and self._handed:  # a suspect goes alone: wait until nothing else is in flight
                self._blocked = True
                break
            info = self.client.publish(
                row.topic, row.payload, qos=1, retain=row.retain, properties=correlation_props(row.correlation)
            )
            if info.rc == mqtt.MQTT_ERR_QUEUE_SIZE:
                self._blocked = True
                break
            self._mid_row[info.mid] = row.id
            self._handed.add(row.id)
            if row.lane == REFUSALS:
                self._handed_refusals.add(row.id)
            if suspect:
                self._probe = row.id
                self._blocked = True
                break

    def wait_idle(self, timeout: float) -> bool:
        """True once every stored reply has been acknowledged (used on clean stop)."""
        self.wake()
        return self._idle.wait(timeout)

    def _run(self) -> None:
        while not self._stop.is_set():
            busy = not self._acks.empty() or self._unread  # `_unread` here: rows wait (e.g. refusals, a few a turn)
            if not self._wake.wait(ACK_DELAY_S if busy else IDLE_S) and self._acks.empty():
                self._unread = True  # idle: look at the table anyway, twice a second
            self._wake.clear()
            try:
                self._process_acks()
                self._settle()
                if self._unread:
                    self._unread = False
                    self._hand_pending()
                    if self._blocked:  # a full window or a claimed row: read again at the next wake
                        self._unread = True
                if self._doomed:
                    self._settle()
                if not self._handed and self.jobs.outbox_size() == 0:
                    self._idle.set()
            except Exception as exc:  # a DB hiccup must not kill the publisher
                self._log_failure(exc)

    def _log_failure(self, exc: Exception) -> None:
        """A full disk is logged once a minute as one line (the thread tries again twice a second); anything
        else with its traceback, also once a minute per kind."""
        full = disk_full(exc)
        key = "disk_full" if full else f"{type(exc).__name__}: {exc}"[:200]
        now = time.monotonic()
        if now - self._logged.get(key, -LOG_EVERY_S) < LOG_EVERY_S:
            return
        self._logged[key] = now
        if full:
            log.error("outbox: %s; replies wait in the outbox until there is space", full)
        else:
            log.exception("outbox publisher error")

    def _process_acks(self) -> None:
        done: list[int] = []
        with self._lock:  # a releaser registers a row's mid before we can see its PUBACK
            self._take_acks()
            resolved, self._resolved = self._resolved, []
            for row_id, rc in resolved:
                self._handed.discard(row_id)
                self._handed_refusals.discard(row_id)
                if self._probe == row_id:
                    self._probe = None
                    self._blocked = True  # what waited behind the suspect goes on now
                    self._unread = True
                if getattr(rc, "is_failure", False):  # the broker refused it (e.g. "Not authorized")
                    self._failed.append((row_id, f"the broker refused it ({rc})"))
                    self._suspects.add(row_id)
                    self._unread = True
                else:
                    done.append(row_id)
                    self._suspects.discard(row_id)
        done += self._undeleted
        if done:  # not fsync'd: a delete lost in a crash only re-sends a reply with the same reply_id
            try:
                with self.jobs.tx(durable=False) as conn:
                    self.jobs.outbox_delete(conn, done)
                self._undeleted = set()
            except Exception:  # e.g. a full disk: delivered all the same; deleted when it can be
                self._undeleted = set(done)
                raise

    def _settle(self) -> None:
        """Count the attributed failures (the table keeps the count), and dead-letter the rows that reached
        `attempts` and those the broker would refuse outright; their requesters are told (`notice`)."""
        with self._lock:
            failed, self._failed = self._failed, []
            doomed = dict(self._doomed)
        for row_id, reason in failed:
            n = self.jobs.outbox_failed(row_id, reason)
            log.warning("outbox row %d: %s (failure %d of %d)", row_id, reason, n, self.attempts)
            if n >= self.attempts:
                doomed[row_id] = f"{reason}, {n} times"
        for row_id, reason in doomed.items():
            self._dead_letter(row_id, reason)
            with self._lock:
                self._doomed.pop(row_id, None)
                self._suspects.discard(row_id)
                self._unread = True
                self._left_behind()  # its notice is an answer the table holds
            self._wake.set()  # the notice, and what waited behind the row, go out at the next turn

    def _dead_letter(self, row_id: int, reason: str) -> None:
        with self.jobs.tx() as conn:
            row = self.jobs.outbox_row(conn, row_id)
            if row is None:
                return
            n = self.jobs.dead_letter(conn, row.topic, row.payload, f"reply not delivered: {reason}")
            self.jobs.outbox_delete(conn, [row_id])
            told = self.notice(row, reason, n) if self.notice is not None else None
            if told is not None:
                self.jobs.outbox_add(conn, *told)
        log.error(
            "outbox: a %d-byte reply on %s was not delivered (%s); kept as dead letter %d%s",
            len(row.payload),
            ascii(row.topic)[1:-1][:200],
            reason,
            n,
            f", its requester told on {told[0]}" if told else "",
        )
        if self.on_dead is not None:
            self.on_dead()

    def _hand_pending(self) -> None:
        """Read the waiting rows in `outbox_schedule` order and hand on what the window takes; `_behind` is cleared
        when every answer read went out and nothing was left behind meanwhile (`_gen`)."""
        if not self._online:
            return  # `_behind` stays: `on_connect` wakes the thread
        with self._lock:
            room = self._limit() - len(self._handed)
            if room <= 0:
                self._blocked = True
                return
            gen = self._gen
            skip = self._handed | self._undeleted | set(self._doomed)
        # not under `_lock`: a claimer holds the database lock while it waits for ours
        limit = room + len(skip)
        order = self.jobs.outbox_schedule(
            per_stream=self.window + 1, answers=limit, refusals=REFUSALS_IN_FLIGHT + len(self._handed_refusals)
        )
        wanted, refusals = [], 0
        for row_id, _, lane in order:
            if row_id in skip:
                continue
            if lane == REFUSALS:
                if refusals >= REFUSALS_IN_FLIGHT:
                    break
                refusals += 1
            wanted.append(row_id)
        found = self.jobs.outbox_rows(wanted)
        rows = [found[i] for i in wanted if i in found]
        with self._lock:
            self._blocked = False
            self._publish_in_order(rows)
            gone = skip | self._handed | set(self._doomed)
            waiting = [lane for row_id, _, lane in order if row_id not in gone]
            truncated = sum(1 for _, _, lane in order if lane == ANSWERS) >= limit
            if waiting or truncated or any(lane == REFUSALS for _, _, lane in order):
                self._blocked = True  # read again at the next turn (refusals: every ACK_DELAY_S at most)
            if ANSWERS in waiting or truncated or self._gen != gen:
                self._behind = True
            else:
                self._behind = False
