"""The SkySpark outage the daemon waits out: since when, until when jobs wait, when to ask the server again.

A job that fails because the SkySpark cannot be reached (`edge_agent.failures.WAIT_OUT`) is not answered with
that failure at once: the worker keeps it (and every job behind it, in order) and asks the SkySpark again after
5 s, then twice as long each time, at most `skyspark.outage_retry_s`; once it answers, the job runs again. The
wait is counted from the outage's start (the earliest failure the daemon knows of, kept with the job so that a
restart does not start it over), up to `skyspark.outage_wait_s`; past it, each job gets one error at once. While
an outage lasts, a job asks the SkySpark before it runs, so no model call is spent on a run that would fail.
`waitable` tells such a failure in a run's result; `failed_result` is the outcome of a job the outage kept from
running until the wait was over.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, cast

from edge_agent.agent.trajectory import RunResult
from edge_agent.failures import WAIT_OUT, ExternalFailure
from edge_agent.mqtt.records import Job

if TYPE_CHECKING:
    from edge_agent.failures import FailureReason

FIRST_PAUSE_S = 5.0


@dataclass
class Outage:
    wait_s: float
    retry_max_s: float
    clock: Callable[[], float] = time.time
    since: float | None = None  # None: no outage known
    failure: ExternalFailure | None = None  # the latest failure seen
    pause: float = field(default=FIRST_PAUSE_S)
    next_ping: float = 0.0

    @property
    def active(self) -> bool:
        return self.since is not None

    def begin(self, failure: ExternalFailure, since: float | None = None) -> None:
        """A failure seen now (or, `since`, a job's recorded outage start): the outage starts at the earliest."""
        now = self.clock()
        start = min(x for x in (since, self.since, now) if x is not None)
        if self.since is None:
            self.pause = min(FIRST_PAUSE_S, self.retry_max_s)
            self.next_ping = now + self.pause
        self.since, self.failure = start, failure

    def failed_again(self, failure: ExternalFailure) -> None:
        """A ping failed: the next one after twice the pause (at most `retry_max_s`)."""
        self.failure = failure
        self.pause = min(self.pause * 2, self.retry_max_s)
        self.next_ping = self.clock() + self.pause

    def end(self) -> None:
        self.since, self.failure = None, None

    @property
    def deadline(self) -> float:
        return (self.since if self.since is not None else self.clock()) + self.wait_s

    def expired(self) -> bool:
        return self.active and self.clock() >= self.deadline

    def due(self) -> bool:
        """Time to ask the SkySpark again."""
        return self.active and self.clock() >= self.next_ping


def waitable(result: RunResult | None) -> ExternalFailure | None:
    """The failure of a run that the daemon waits out (the SkySpark unreachable or too slow), else None."""
    if result is None or result.status != "failed" or result.reason not in WAIT_OUT:
        return None
    reason = cast("FailureReason", result.reason)  # one of WAIT_OUT
    return ExternalFailure(result.error or reason, reason)


def failed_result(job: Job, failure: ExternalFailure | None) -> RunResult:
    """The outcome of a job that never ran: the outage outlasted `skyspark.outage_wait_s` before it could."""
    return RunResult(
        run_id=job.job_id,
        question=job.question,
        strategy="",
        model="",
        now="",
        status="failed",
        reason=failure.reason if failure else "skyspark_unavailable",
        error=str(failure) if failure else "the SkySpark could not be reached",
    )
