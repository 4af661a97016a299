"""The outbox publisher's two ways out: a committing thread publishes its own replies right after its
commit (claim → release), the outbox thread hands on everything else, and a topic's replies never
overtake each other. paho's client is replaced by a recorder (the unit under test is the ordering and
bookkeeping; the real broker path is in test_mqtt_service / test_mqtt_group_commit); the SQLite queue is real."""

import threading
import time

import paho.mqtt.client as mqtt
import pytest
from paho.mqtt.packettypes import PacketTypes
from paho.mqtt.properties import Properties

from edge_agent.mqtt import outbox as outbox_module
from edge_agent.mqtt.connection import honour_receive_maximum
from edge_agent.mqtt.outbox import OutboxPublisher
from edge_agent.mqtt.queue import JobQueue


class Info:
    def __init__(self, mid: int, rc=mqtt.MQTT_ERR_SUCCESS):
        self.mid, self.rc = mid, rc


class Recorder:
    """Stands in for paho: records what is published, in order; `full` makes paho's queue refuse."""

    def __init__(self):
        self.sent: list[tuple[str, bytes]] = []
        self.mids = 0
        self.full = False
        self.lock = threading.Lock()

    def publish(self, topic, payload, qos=1, retain=False, properties=None):
        with self.lock:
            if self.full:
                return Info(0, mqtt.MQTT_ERR_QUEUE_SIZE)
            self.mids += 1
            self.sent.append((topic, payload))
            return Info(self.mids)


@pytest.fixture
def outbox(tmp_path, monkeypatch):
    monkeypatch.setattr(outbox_module, "IDLE_S", 60.0)  # no idle re-reads: only wake-ups deliver
    jobs = JobQueue(tmp_path / "queue.db")
    client = Recorder()
    # unpaced: the recorder never acknowledges on its own (the pace has tests of its own, below)
    box = OutboxPublisher(jobs, client, lambda: 10_000, window=50, paced=False)  # type: ignore[arg-type]
    box.on_connect()  # as paho's on_connect of the reply connection would
    yield box, jobs, client
    box.stop()
    jobs.close()


def _commit(box, jobs, payloads: list[bytes], topic="t"):
    """What the service's `_replying` does: add rows, claim them inside the transaction."""
    with jobs.tx() as conn:
        for p in payloads:
            jobs.outbox_add(conn, topic, p)
        return box.claim(jobs.added())


def _wait(cond, timeout=5.0) -> bool:
    deadline = time.monotonic() + timeout
    while not cond() and time.monotonic() < deadline:
        time.sleep(0.01)
    return cond()


def _caught_up(box) -> None:
    """The outbox thread has read the (empty) table once: releasers may publish themselves from now on (before
    that, rows a crash left could wait unread, and a release must not overtake them)."""
    box.start()
    assert _wait(lambda: not box._behind)


def test_a_release_publishes_at_once_without_the_outbox_thread(outbox):
    box, jobs, client = outbox
    _caught_up(box)  # the thread then sleeps (IDLE_S 60): only the release can publish
    rows = _commit(box, jobs, [b"a1", b"a2", b"a3"])
    assert client.sent == []
    box.release(rows)
    assert [p for _, p in client.sent] == [b"a1", b"a2", b"a3"]
    box.release(rows)  # a second release of the same rows publishes nothing twice
    assert len(client.sent) == 3


def test_the_outbox_thread_leaves_claimed_rows_and_what_follows_them(outbox):
    box, jobs, client = outbox
    with jobs.tx() as conn:
        jobs.outbox_add(conn, "t", b"left over by a crash")
    claimed = _commit(box, jobs, [b"claimed"])
    with jobs.tx() as conn:  # stored without a release (as after a restart)
        jobs.outbox_add(conn, "t", b"after")
    box.start()
    box.wake()
    assert _wait(lambda: len(client.sent) == 1)
    time.sleep(0.2)
    assert [p for _, p in client.sent] == [b"left over by a crash"]  # stops at the claimed row
    box.release(claimed)  # the claimer publishes its row and wakes the thread for the one behind it
    assert _wait(lambda: len(client.sent) == 3)
    assert [p for _, p in client.sent] == [b"left over by a crash", b"claimed", b"after"]


def test_a_younger_release_waits_for_an_older_claim(outbox):
    box, jobs, client = outbox
    older = _commit(box, jobs, [b"accepted"])
    younger = _commit(box, jobs, [b"progress"])
    box.start()
    box.release(younger)  # must not overtake the older row another thread still holds
    time.sleep(0.2)
    assert client.sent == []
    box.release(older)
    assert _wait(lambda: len(client.sent) == 2)
    assert [p for _, p in client.sent] == [b"accepted", b"progress"]


def test_a_failed_commit_unclaims_and_publishes_nothing(outbox):
    box, jobs, client = outbox
    claimed = []
    with pytest.raises(RuntimeError):
        with jobs.tx() as conn:
            jobs.outbox_add(conn, "t", b"never stored")
            claimed = box.claim(jobs.added())
            raise RuntimeError("the commit fails")
    box.unclaim(claimed)
    box.start()
    box.wake()
    time.sleep(0.2)
    assert client.sent == [] and jobs.outbox_size() == 0 and not box._claimed


def test_a_rolled_back_savepoint_takes_its_rows_out_of_the_release(outbox):
    box, jobs, client = outbox
    _caught_up(box)
    with jobs.tx() as conn:
        jobs.outbox_add(conn, "t", b"kept")
        with pytest.raises(ValueError):
            with jobs.savepoint(conn):
                jobs.outbox_add(conn, "t", b"undone")
                raise ValueError("a bad message")
        rows = box.claim(jobs.added())
    box.release(rows)
    assert [p for _, p in client.sent] == [b"kept"]


def test_pubacks_delete_rows_in_groups_and_the_outbox_goes_idle(outbox):
    box, jobs, client = outbox
    _caught_up(box)
    rows = _commit(box, jobs, [f"r{i}".encode() for i in range(30)])
    box.release(rows)
    assert len(client.sent) == 30 and jobs.outbox_size() == 30
    for mid in range(1, 31):
        box.on_publish(mid)
    assert box.wait_idle(5.0)
    assert jobs.outbox_size() == 0 and box.in_flight() == 0


def test_a_full_window_or_paho_queue_leaves_rows_to_the_thread_in_order(outbox):
    box, jobs, client = outbox  # window 50
    _caught_up(box)
    rows = _commit(box, jobs, [f"r{i:02}".encode() for i in range(60)])
    box.release(rows)
    assert len(client.sent) == 50  # the window is full; ten wait in the table
    client.full = True
    for mid in range(1, 11):
        box.on_publish(mid)  # room for ten, but paho refuses for now
    time.sleep(0.3)
    assert len(client.sent) == 50
    client.full = False
    box.on_publish(11)
    assert _wait(lambda: len(client.sent) == 60)
    assert [p for _, p in client.sent] == [f"r{i:02}".encode() for i in range(60)]


def test_many_threads_releasing_at_once_keep_id_order_and_publish_each_row_once(outbox):
    box, jobs, client = outbox
    box.window = 10_000
    box.start()

    def writer(k):
        for i in range(20):
            rows = _commit(box, jobs, [f"{k}-{i}".encode()])
            box.release(rows)

    threads = [threading.Thread(target=writer, args=(k,)) for k in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert _wait(lambda: len(client.sent) == 80)
    time.sleep(0.1)
    ids = {r.payload: r.id for r in jobs.outbox_pending(limit=1000)}
    order = [ids[p] for _, p in client.sent]
    assert order == sorted(order) and len(set(order)) == 80


def test_the_client_keeps_to_the_brokers_receive_maximum():
    client = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2, protocol=mqtt.MQTTv5)
    props = Properties(PacketTypes.CONNACK)
    props.ReceiveMaximum = 10
    assert honour_receive_maximum(client, 100, props) == 10
    assert client.max_inflight_messages == 10
    assert honour_receive_maximum(client, 100, Properties(PacketTypes.CONNACK)) == 100  # absent: 65535
    assert honour_receive_maximum(client, 100, None) == 100
    assert client.max_inflight_messages == 100


def test_a_full_disk_is_logged_once_not_at_every_turn(outbox, monkeypatch, caplog):
    """The outbox thread tries again twice a second; a full disk is one log line a minute, not a traceback a turn."""
    import logging
    import sqlite3

    box, jobs, client = outbox
    monkeypatch.setattr(outbox_module, "IDLE_S", 0.05)

    def full(*a, **kw):
        raise sqlite3.OperationalError("database or disk is full")

    monkeypatch.setattr(jobs, "outbox_pending", full)
    monkeypatch.setattr(jobs, "outbox_schedule", full)
    with caplog.at_level(logging.ERROR, logger="edge_agent.mqtt.outbox"):
        box.start()
        time.sleep(1.0)
    records = [r for r in caplog.records if r.name == "edge_agent.mqtt.outbox"]
    assert len(records) == 1 and "disk is full" in records[0].getMessage() and records[0].exc_info is None


def test_rows_the_broker_would_refuse_are_dead_lettered_and_the_rest_flows(outbox):
    """A row whose topic holds U+0001 and one over the packet limit, between good rows: the good ones are
    published in order, the bad ones never reach paho and end in dead_letters with the reason; `notice` is asked
    for each (what the requester is told)."""
    box, jobs, client = outbox
    told = []
    box.notice = lambda row, reason, n: told.append((row.topic, reason, n)) or ("t/default", b"told", None)
    with jobs.tx() as conn:
        jobs.outbox_add(conn, "t", b"g1")
        jobs.outbox_add(conn, "t/bad\x01", b"b1")
        jobs.outbox_add(conn, "t", b"x" * 20_000)
        jobs.outbox_add(conn, "t", b"g2")
    box.start()
    box.wake()  # what the reply connection's CONNACK does
    assert _wait(lambda: [p for _, p in client.sent] == [b"g1", b"g2", b"told", b"told"]), client.sent
    dead = jobs.dead_letters()
    assert [d["topic"] for d in dead] == ["t/bad\\x01", "t"]
    assert "U+0001" in dead[0]["error"] and "over the broker's maximum packet size 10000" in dead[1]["error"]
    assert len(told) == 2


def test_a_disconnect_makes_the_rows_on_the_wire_suspects_sent_alone_and_the_guilty_one_is_dead_lettered(outbox):
    """Three rows on the wire when the connection drops: after the reconnect each goes alone (nothing else in
    flight until its PUBACK); the one on the wire alone at the next drop is counted, and at `attempts` it is
    dead-lettered; the others are delivered."""
    box, jobs, client = outbox
    box.attempts = 2
    box._behind = False  # as once the thread has read an empty table (it is started below)
    rows = _commit(box, jobs, [b"a", b"bad", b"c"])
    box.release(rows)
    assert len(client.sent) == 3
    box.on_disconnect("Malformed packet")
    box.on_connect()
    box.start()
    assert _wait(lambda: len(client.sent) == 4) and client.sent[-1][1] == b"a"  # alone: a waits for its PUBACK
    time.sleep(0.2)
    assert len(client.sent) == 4
    box.on_publish(4)  # a acknowledged: bad goes, alone
    assert _wait(lambda: len(client.sent) == 5) and client.sent[-1][1] == b"bad"
    box.on_disconnect("Malformed packet")  # the broker closes the connection: bad was alone → counted
    box.on_connect()
    assert _wait(lambda: len(client.sent) == 6) and client.sent[-1][1] == b"bad"
    box.on_disconnect("Malformed packet")
    box.on_connect()
    assert _wait(lambda: len(jobs.dead_letters()) == 1) and jobs.dead_letters()[0]["payload"] == b"bad"
    assert _wait(lambda: len(client.sent) == 7) and client.sent[-1][1] == b"c"
    box.on_publish(7)
    assert _wait(lambda: jobs.outbox_size() == 0), [(r.id, r.payload) for r in jobs.outbox_pending()]


def test_nothing_is_handed_on_before_the_reply_connection_is_up_and_then_against_its_packet_limit(tmp_path):
    """Rows waiting at start are not handed to paho before the reply connection's CONNACK (paho would queue them
    and send them at the CONNACK, checked against the default limit, not the broker's): a row too large for the
    broker's limit is set aside, the rest go out, once `on_connect` ran."""
    jobs = JobQueue(tmp_path / "queue.db")
    client = Recorder()
    limit = [1_000_000]  # the configured default, before the broker's CONNACK said otherwise
    box = OutboxPublisher(jobs, client, lambda: limit[0], window=50, paced=False)  # type: ignore[arg-type]
    with jobs.tx() as conn:
        jobs.outbox_add(conn, "t", b"small")
        jobs.outbox_add(conn, "t", b"x" * 5_000)
        jobs.outbox_add(conn, "t", b"after")
    try:
        box.start()
        rows = _commit(box, jobs, [b"released"])
        box.release(rows)
        time.sleep(0.3)
        assert client.sent == []
        limit[0] = 1_000  # the broker's Maximum Packet Size, read at CONNACK
        box.on_connect()
        assert _wait(lambda: len(client.sent) == 3)
        time.sleep(0.2)
        assert [p for _, p in client.sent] == [b"small", b"after", b"released"]
        box.on_disconnect("gone")
        with jobs.tx() as conn:
            jobs.outbox_add(conn, "t", b"while down")
        box.wake()
        time.sleep(0.3)
        assert len(client.sent) == 3
    finally:
        box.stop()
        jobs.close()


def test_the_pace_is_what_the_broker_acknowledges_in_its_target_time():
    from edge_agent.mqtt.pace import Pace

    pace = Pace(200, least=8, target_s=0.1, over_s=1.0)
    assert pace.window(now=0.0) == 8  # nothing measured yet: a few rows, never none
    for i in range(60):  # a slow broker: 60 PUBACKs a second
        pace.acked(now=i / 60)
    assert pace.window(now=1.0) == 8 + 6  # what it takes in 0.1 s, on top of the least
    for i in range(5000):  # a fast one: the whole window
        pace.acked(now=1.0 + i / 5000)
    assert pace.window(now=2.0) == 200
    assert pace.window(now=3.5) == 8  # a second without a PUBACK: back to the least


def test_a_paced_window_keeps_a_new_requesters_answer_ahead_of_another_requesters_backlog(tmp_path, monkeypatch):
    """Issue 42: what is handed to paho is out of the outbox's order. With the broker slow, only the paced window of
    one requester's 100 replies is handed on; another requester's answer, stored after them, goes out at the first
    PUBACK, before the rest of the 100 (answers round-robin between requesters in the table)."""
    monkeypatch.setattr(outbox_module, "IDLE_S", 60.0)
    jobs = JobQueue(tmp_path / "queue.db")
    client = Recorder()
    box = OutboxPublisher(jobs, client, lambda: 10_000, window=200)  # type: ignore[arg-type]
    box.on_connect()
    try:
        _caught_up(box)
        rows = _commit(box, jobs, [f"f{i}".encode() for i in range(100)], topic="gw/response/flood/r")
        box.release(rows)
        assert len(client.sent) == box.pace.least  # not 100: the broker has shown no pace yet
        rows = _commit(box, jobs, [b"victim"], topic="gw/response/victim/r")
        box.release(rows)
        box.on_publish(1)  # the broker takes the first one
        assert _wait(lambda: len(client.sent) == box.pace.least + 1)
        assert client.sent[-1][1] == b"victim"
        acked, deadline = 1, time.monotonic() + 10
        while len(client.sent) < 101 and time.monotonic() < deadline:  # the broker takes each as it comes
            while acked < client.mids:
                acked += 1
                box.on_publish(acked)
            time.sleep(0.01)
        assert [p for _, p in client.sent if p != b"victim"] == [f"f{i}".encode() for i in range(100)]
    finally:
        box.stop()
        jobs.close()
