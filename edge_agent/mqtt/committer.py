"""Group commit for the daemon's incoming messages: a burst of requests costs one fsync, not one each.

paho's network thread only queues each message (`put`). One committer thread takes everything
that is waiting (at most `max_batch`), has `store` write the whole batch in ONE SQLite transaction
and commit it (one fsync), and only then acknowledges the stored messages, in arrival order. While
one batch is being committed the next one gathers, so the batch size follows the load without a
timer: a lone request pays one commit, as before; 100 requests sent back to back pay a handful.

`store` returns the messages it stored; one it could not store (a bug) is not acknowledged, and
the broker redelivers it at the next connect. A daemon killed between the commit and the PUBACKs
gets the batch redelivered: every message in it is then a duplicate by (client_id, request_id),
answered from the stored job, never a second job.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from typing import TypeVar

from edge_agent.mqtt.queuethread import QueueThread

log = logging.getLogger(__name__)

T = TypeVar("T")

RUN_GAP_S = 0.05  # batches taken less than this after the last one ended are one run of the intake
RUN_LEAST = 100  # a run of at least this many messages is a backlog being delivered: `busy` between its batches


class GroupCommitter(QueueThread[T]):
    def __init__(self, store: Callable[[list[T]], list[T]], ack: Callable[[T], None], *, max_batch: int = 256):
        super().__init__("committer")
        self.store = store
        self.ack = ack
        self.max_batch = max_batch
        self.messages = self.batches = self.largest = 0  # committed so far: for tests and the log
        self._storing = 0  # messages taken and not yet stored (`busy`)
        self._in_run, self._ended = 0, 0.0  # messages in the current run of batches; when the last batch ended

    def stop(self, timeout: float = 5.0) -> None:
        """Finish the batch being stored; messages still waiting stay unacknowledged (redelivered)."""
        super().stop(timeout)
        log.info(
            "group commit: %d message(s) in %d transaction(s), at most %d in one",
            self.messages,
            self.batches,
            self.largest,
        )

    def put(self, item: T) -> None:
        self._push(item)

    def busy(self) -> bool:
        """The intake is not done (`Worker._intake_first`): messages wait, a batch is being stored, or a backlog is
        being delivered — a run of `RUN_LEAST` messages whose last batch ended less than `RUN_GAP_S` ago (the broker
        hands its queue over in bursts, and between two a worker that took a job would hold the database lock)."""
        with self._cond:
            if self._items or self._storing:
                return True
            return self._in_run >= RUN_LEAST and time.monotonic() - self._ended < RUN_GAP_S

    def take(self) -> list[T]:
        """Wait for a message, then take everything waiting (at most `max_batch`); [] once stopped."""
        with self._cond:
            self._cond.wait_for(lambda: self._items or self._stop)
            if self._stop:
                return []
            n = min(len(self._items), self.max_batch)
            self._storing = n
            self._in_run = self._in_run + n if time.monotonic() - self._ended < RUN_GAP_S else n
            return [self._items.popleft() for _ in range(n)]

    def _run(self) -> None:
        while batch := self.take():
            try:
                stored = self.store(batch)
            except Exception:  # the commit itself failed: nothing acked, the broker redelivers
                log.exception("could not store a batch of %d message(s)", len(batch))
                continue
            finally:
                with self._cond:
                    self._storing, self._ended = 0, time.monotonic()  # (the PUBACKs below are only queued)
            self.messages += len(batch)
            self.batches += 1
            self.largest = max(self.largest, len(batch))
            for item in stored:
                try:
                    self.ack(item)
                except Exception:  # not acknowledged: redelivered, and then found a duplicate
                    log.exception("could not acknowledge a stored message")
