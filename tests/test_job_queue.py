"""The job queue's position of a new job: counted once per transaction, then kept by hand.

`JobQueue.active` must always equal a fresh COUNT of queued and running jobs, whatever mix of
inserts, finishes (a cancel in the same batch), rolled-back savepoints and new transactions came
before it; otherwise an `accepted` reply would tell a requester a wrong place in the queue."""

import uuid

from hypothesis import given, settings
from hypothesis import strategies as st

from edge_agent.mqtt.queue import JobQueue

OPS = st.lists(st.lists(st.sampled_from(["insert", "finish", "fail", "ask"]), max_size=8), max_size=6)


def _counted(conn) -> int:
    return conn.execute("SELECT COUNT(*) FROM jobs WHERE state IN ('queued','running')").fetchone()[0]


def _insert(q: JobQueue, conn):
    return q.insert(conn, job_id=uuid.uuid4().hex[:16], client_id="c", request_id=uuid.uuid4().hex, question="q",
                    options={}, reply_topic="t", correlation=None, body_correlation=None)


@settings(max_examples=60, deadline=None)
@given(transactions=OPS)
def test_active_is_always_the_real_count_of_jobs_ahead(tmp_path_factory, transactions):
    q = JobQueue(tmp_path_factory.mktemp("q") / "queue.db")
    try:
        for ops in transactions:
            with q.tx() as conn:
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
    finally:
        q.close()


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
