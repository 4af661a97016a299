"""The job queue's bookkeeping that code keeps by hand, checked against what SQLite holds.

`JobQueue.active` must always equal a fresh COUNT of queued and running jobs, whatever mix of
inserts, finishes (a cancel in the same batch), rolled-back savepoints and new transactions came
before it; otherwise an `accepted` reply would tell a requester a wrong place in the queue.
A transaction's outbox rows are written together (multi-row INSERTs, when `added()` is asked or at
the commit): the ids handed out must be those of the rows with that topic and payload, in order,
and a rolled-back savepoint's rows must be gone from both the table and `added()`."""

import uuid

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from edge_agent.mqtt import outboxtable as outboxtable_module
from edge_agent.mqtt.queue import JobQueue

# transactions: the operations inside, and what follows: a commit, a commit and the worker taking the
# next job (queued → running), or a rollback of the whole transaction (a batch whose COMMIT fails)
OPS = st.lists(
    st.tuples(
        st.lists(st.sampled_from(["insert", "finish", "fail", "ask"]), max_size=8),
        st.sampled_from(["commit", "run", "abort"]),
    ),
    max_size=6,
)


def _counted(conn) -> int:
    return conn.execute("SELECT COUNT(*) FROM jobs WHERE state IN ('queued','running')").fetchone()[0]


def _insert(q: JobQueue, conn):
    return q.insert(
        conn,
        job_id=uuid.uuid4().hex[:16],
        client_id="c",
        request_id=uuid.uuid4().hex,
        question="q",
        options={},
        reply_topic="t",
        correlation=None,
        body_correlation=None,
    )


@settings(max_examples=60, deadline=None)
@given(transactions=OPS)
def test_active_is_always_the_real_count_of_jobs_ahead(tmp_path_factory, transactions):
    q = JobQueue(tmp_path_factory.mktemp("q") / "queue.db")
    try:
        for ops, end in transactions:
            try:
                with q.tx() as conn:
                    _apply(q, conn, ops)
                    if end == "abort":
                        raise RuntimeError("the commit fails")
            except RuntimeError:
                assert end == "abort"
            if end == "run" and (queued := q.next_queued()) is not None:
                q.mark_running(queued.job_id)
            with q.tx() as conn:  # the count kept from one transaction to the next is still right
                assert q.active(conn) == _counted(conn)
    finally:
        q.close()


def _apply(q: JobQueue, conn, ops: list[str]) -> None:
    for op in ops:
        if op == "ask":
            assert q.active(conn) == _counted(conn)
        elif op == "insert":
            ahead = q.active(conn)
            job = _insert(q, conn)
            assert ahead == q.position(job)  # the general query agrees
        elif op == "finish" and (queued := q.next_queued()) is not None:
            q.finish(conn, queued.job_id, "cancelled", "{}")
        elif op == "fail":  # one message of a batch raises: its part is undone alone
            try:
                with q.savepoint(conn):
                    _insert(q, conn)
                    raise RuntimeError("a bad message")
            except RuntimeError:
                pass
    assert q.active(conn) == _counted(conn)


def test_a_burst_into_a_long_queue_gets_consecutive_positions(tmp_path):
    q = JobQueue(tmp_path / "queue.db")
    with q.tx() as conn:
        for _ in range(50):
            _insert(q, conn)
    running = q.next_queued()
    q.mark_running(running.job_id)
    with q.tx() as conn:
        positions = []
        for _ in range(5):
            positions.append(q.active(conn))
            _insert(q, conn)
    assert positions == [50, 51, 52, 53, 54]
    q.close()


# one transaction's outbox work: rows added, `added()` asked (which writes them), parts rolled back
OUTBOX_OPS = st.lists(
    st.one_of(
        st.integers(min_value=1, max_value=9).map(lambda n: ("add", n)),
        st.just(("added", 0)),
        st.integers(min_value=0, max_value=4).map(lambda n: ("undone", n)),
    ),
    max_size=12,
)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(transactions=st.lists(OUTBOX_OPS, min_size=1, max_size=4))
def test_outbox_rows_written_together_keep_their_ids_order_and_rollbacks(tmp_path_factory, monkeypatch, transactions):
    monkeypatch.setattr(outboxtable_module, "OUTBOX_ROWS_PER_INSERT", 4)  # several INSERTs per write (same each input)
    q = JobQueue(tmp_path_factory.mktemp("q") / "queue.db")
    kept: list[bytes] = []
    try:
        for t, ops in enumerate(transactions):
            with q.tx() as conn:
                mine: list[bytes] = []
                for i, (op, n) in enumerate(ops):
                    payloads = [f"{t}.{i}.{k}".encode() for k in range(n)]
                    if op == "add":
                        for p in payloads:
                            q.outbox_add(conn, "t", p)
                        mine += payloads
                    elif op == "added":
                        assert [r.payload for r in q.added()] == mine
                    else:  # a message whose rows (some already written by `added()`) are rolled back
                        with pytest.raises(RuntimeError):
                            with q.savepoint(conn):
                                for p in payloads:
                                    q.outbox_add(conn, "t", p)
                                q.added()
                                raise RuntimeError("a bad message")
                rows = q.added()
                assert [r.payload for r in rows] == mine
                ids = [r.id for r in rows]
                assert ids == sorted(ids) and len(set(ids)) == len(ids)
                stored = dict(conn.execute("SELECT id, payload FROM outbox").fetchall())
                assert all(stored[r.id] == r.payload for r in rows)
            kept += mine
        assert [r.payload for r in q.outbox_pending(limit=10_000)] == kept
    finally:
        q.close()


def test_outbox_rows_need_a_transaction(tmp_path):
    q = JobQueue(tmp_path / "queue.db")
    with pytest.raises(RuntimeError, match="outside a transaction"):
        q.outbox_add(q._conn, "t", b"lost")
    q.close()
