"""The daemon's worker thread (`Worker`): everything here runs on the thread named "worker", except the three
small entry points the intake thread calls (`wake`, `deliver_answer`, `cancel`), which only touch the current
job under `_lock`.

It takes the next job (`JobQueue.next_queued`: round-robin between requesters), runs it through the `Runner`
(one at a time: the model is one), publishes `progress` for every agent event, relays `agentask` questions to
the requester (`kind=question`; the answer comes back through the intake), waits out a SkySpark outage (status
`degraded: skyspark`), and finally stores the file chunks + `result` / `error` / `cancelled` with the job in
one transaction (the gateway's `replying`). A job the worker itself fails on still gets one final `internal`
error; a full disk holds the final reply until there is space. What it needs of the daemon is `WorkerGateway`
(gateway.py; `GatewayService` is one): it is handed that, not the service.

What the replies say is replies.py (`progress_reply`, `final_reply` with the file chunks), what an outage's
failure is outage.py (`waitable`, `failed_result`); the thread's own steps stay here, as they share the current job,
its cancel event and the outage wait under one lock.
"""

from __future__ import annotations

import logging
import shutil
import threading
import time
import uuid
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import TYPE_CHECKING

from edge_agent.agent.trajectory import AgentEvent, RunResult
from edge_agent.failures import WAIT_OUT, ExternalFailure, Interrupted, disk_full
from edge_agent.fleet.hooks import final_status
from edge_agent.mqtt.gateway import WorkerGateway
from edge_agent.mqtt.outage import failed_result, waitable
from edge_agent.mqtt.protocol import (
    ErrorReply,
    ProgressReply,
    QuestionReply,
    RequestOptions,
)
from edge_agent.mqtt.records import Job
from edge_agent.mqtt.replies import final_reply, progress_reply

if TYPE_CHECKING:
    from edge_agent.mqtt.runner import OnEvent

log = logging.getLogger("edge_agent.mqtt.service")  # one logger for the daemon (its journal lines stay the same)

DISK_RETRY_S = 5.0  # a final reply the queue database cannot take (a full disk) is tried again this often
#: a backlog of messages read and not yet stored (a broker delivering a queue after a restart) is stored before the
#: next job starts, waiting at most this long per job (issue 42: `_intake_first`)
INTAKE_FIRST_S = 2.0
ONLINE, DEGRADED = "online", "degraded: skyspark"


@dataclass
class CurrentJob:
    job: Job
    cancel: threading.Event = field(default_factory=threading.Event)
    cancel_requested: bool = False  # by the requester (→ `cancelled`), not by our own shutdown
    cancelled_by: str | None = None  # who: the requester, or `console:<user>` for a trusted console's user
    shutdown: bool = False
    waiting: bool = False
    answer: str | None = None
    answer_event: threading.Event = field(default_factory=threading.Event)


class Worker:
    """The worker thread and the job it runs (`current`)."""

    def __init__(self, gw: WorkerGateway):
        self.gw = gw
        self._beat = time.monotonic()
        self._wake = threading.Event()
        self._lock = threading.Lock()
        self._current: CurrentJob | None = None
        self._cancel_requests: set[str] = set()
        self._cancellers: dict[str, str] = {}  # job_id → who cancelled it (for the reply and the audit)
        self.thread = threading.Thread(target=self._work, name="worker", daemon=True)

    # ------------------------------------------------------------------------------ from other threads
    def start(self) -> None:
        self.thread.start()

    def wake(self) -> None:
        """New jobs were stored (intake)."""
        self._wake.set()

    def healthy(self, stall_s: float) -> bool:
        """The worker thread is alive and has shown progress within `stall_s`."""
        return self.thread.is_alive() and time.monotonic() - self._beat < stall_s

    def deliver_answer(self, client_id: str, request_id: str, answer: str) -> bool:
        """Intake: the requester's answer to the current job's `question`; False when no job waits for it."""
        with self._lock:
            cur = self._current
            if cur is not None and cur.waiting and cur.job.client_id == client_id and cur.job.request_id == request_id:
                cur.answer = answer
                cur.answer_event.set()
                return True
        return False

    def cancel(self, job_id: str, by: str) -> None:
        """Intake: the requester (or a trusted console's user, `by`) cancels its running job (or the one about
        to run)."""
        with self._lock:
            self._cancel_requests.add(job_id)
            self._cancellers[job_id] = by
            cur = self._current
            if cur is not None and cur.job.job_id == job_id:
                cur.cancel_requested = True
                cur.cancelled_by = by
                cur.cancel.set()
                cur.answer_event.set()

    def interrupt(self) -> None:
        """The daemon stops (main thread): the running job is interrupted, not cancelled; it resumes at the next
        start."""
        self._wake.set()
        with self._lock:
            cur = self._current
            if cur is not None:
                cur.shutdown = True
                cur.cancel.set()
                cur.answer_event.set()

    # ------------------------------------------------------------------------------ the worker thread
    def _warm(self) -> None:
        """Before the first job: the runner's prompt prefix into the model's KV cache (restored from its
        saved state, else evaluated). A job already queued waits for it, as it would in its first step; a
        failure here is logged and the jobs still run; a stop interrupts it (a new model's prefill on a
        gateway CPU takes minutes)."""
        warm = getattr(self.gw.runner, "warm", None)
        if warm is None or self.gw.stopping.is_set():
            return
        started = time.monotonic()
        try:
            usage = warm(interrupt=self.gw.stopping) or {}
        except Interrupted:
            log.info("warm: stopped after %.2f s by the daemon's stop", time.monotonic() - started)
            return
        except Exception:
            log.exception("warming the model's prompt prefix failed; the first question will do it")
            return
        log.info(
            "warm: prompt prefix ready in %.2f s (%s tokens evaluated, %.0f ms restoring a saved state)",
            time.monotonic() - started,
            usage.get("evaluated_tokens", "?"),
            usage.get("state_ms", 0.0),
        )

    def _intake_first(self) -> None:
        """Before the next job: while the committer has messages waiting or is storing a batch (a backlog the broker
        delivers back to back, e.g. its queue for the session after a restart), let it store them first — at most
        `INTAKE_FIRST_S`. A job's durable commits hold the database lock the intake needs (and the CPU), so a
        flood was stored ~2x slower while the worker ran the flooder's first jobs; and the round-robin between
        requesters (`next_queued`) can only be fair to requests already stored (issue 42: the victims' jobs
        come next once they are)."""
        committer = self.gw.committer
        if committer is None or not committer.busy():
            return
        deadline = time.monotonic() + INTAKE_FIRST_S
        while committer.busy() and time.monotonic() < deadline and not self.gw.stopping.wait(0.01):
            self._beat = time.monotonic()

    def _work(self) -> None:
        self._warm()
        while not self.gw.stopping.is_set():
            self._beat = time.monotonic()
            self._intake_first()
            job = self.gw.jobs.next_queued()
            if job is None:
                if self.gw.outage.due():  # idle during an outage: find out when the SkySpark is back
                    self._known_outage()
                self._wake.wait(1.0)
                self._wake.clear()
                continue
            cur = CurrentJob(job)
            with self._lock:
                self._current = cur
                if job.job_id in self._cancel_requests:
                    cur.cancel_requested = True
                    cur.cancelled_by = self._cancellers.get(job.job_id)
                    cur.cancel.set()
            try:
                running = self.gw.jobs.mark_running(job.job_id)
                if running is not None:
                    cur.job = running
                    self._run_job(cur)
            except Exception as exc:  # a bug or a broken database: the request still gets one final reply
                if disk_full(exc) is not None:  # no space for the queue's own writes: the job waits for space
                    log.error("job %s waits: %s", job.job_id, disk_full(exc))
                    self._requeue(job)
                    self.gw.stopping.wait(DISK_RETRY_S)
                    continue
                log.exception("worker failed on job %s", job.job_id)
                self._fail(cur, f"{type(exc).__name__}: {exc}")
                time.sleep(1.0)
            finally:
                with self._lock:
                    self._current = None
                    self._cancel_requests.discard(job.job_id)
                    self._cancellers.pop(job.job_id, None)

    def _fail(self, cur: CurrentJob, why: str) -> None:
        job = cur.job
        reply = ErrorReply(
            code="internal",
            request_id=job.request_id,
            correlation=job.body_correlation,
            message=f"the daemon failed while answering: {why}",
            reply_id=f"{job.job_id}.final",
        )
        try:
            with self.gw.replying() as conn:
                if self.gw.jobs.state_of(conn, job.job_id) in (None, "done"):
                    return
                self.gw.add(conn, job.reply_topic, reply, job.correlation)
                self.gw.jobs.finish(conn, job.job_id, "error", reply.model_dump_json())
                self.gw.fleet.final(conn, job, "error", detail=reply.message)
            self.gw.fleet.finished(job, "error")
        except Exception:  # the database itself is broken: the job resumes at the next start
            log.exception("could not record the failure of job %s", job.job_id)

    def _requeue(self, job: Job) -> None:
        """Back to queued (it runs again from the start); if even that cannot be written, the next start does it."""
        try:
            self.gw.jobs.requeue(job.job_id)
        except Exception:
            log.exception("could not queue job %s again; it resumes at the next start", job.job_id)

    def _run_job(self, cur: CurrentJob) -> None:
        job = cur.job
        options = RequestOptions.model_validate(job.options)
        files_dir = self.gw.settings.files_dir / job.job_id
        if job.attempts > 1:  # a resumed job starts from scratch
            shutil.rmtree(files_dir, ignore_errors=True)
        log.info(
            "job %s (%s/%s) attempt %d: %s", job.job_id, job.client_id, job.request_id, job.attempts, job.question[:80]
        )

        def on_event(event: AgentEvent) -> None:
            self._beat = time.monotonic()
            if event.kind != "final":
                self.gw.notify(job, progress_reply(job, event))

        while True:
            result, error = None, None
            outage = self._known_outage()  # an outage is known: ask the SkySpark before any model call
            if outage is None:
                result, error = self._run_agent(cur, options, on_event)
                outage = waitable(result)
            if outage is None or not self.gw.settings.skyspark.outage_wait_s:
                break
            self.gw.outage.begin(outage, since=self.gw.jobs.outage_since(job.job_id, time.time()))
            self.gw.set_status(DEGRADED)
            waited = self._wait_out(cur)
            if waited == "back":  # it answers again: the job runs again, from the start
                shutil.rmtree(files_dir, ignore_errors=True)
                continue
            if waited == "stop":  # the daemon stops: the job resumes at the next start (its wait counted so far)
                log.info(
                    "job %s: the stop came while waiting for the SkySpark; it resumes at the next start", job.job_id
                )
                return
            if waited == "deadline" and result is None:  # it never ran: its failure is the outage's
                result = failed_result(job, self.gw.outage.failure)
            break
        if cur.shutdown and not cur.cancel_requested and (result is None or result.status == "cancelled"):
            log.info("job %s interrupted by the stop; it resumes at the next start", job.job_id)
            return
        self._finish(cur, options, result, error)

    def _run_agent(
        self, cur: CurrentJob, options: RequestOptions, on_event: OnEvent
    ) -> tuple[RunResult | None, str | None]:
        job = cur.job
        try:
            return self.gw.runner.run(
                job.question,
                options,
                run_id=job.job_id,
                on_event=on_event,
                cancel=cur.cancel,
                ask_requester=lambda q: self._ask(cur, q),
            ), None
        except Exception as exc:
            log.exception("runner failed on job %s", job.job_id)
            return None, f"{type(exc).__name__}: {exc}"

    def _known_outage(self) -> ExternalFailure | None:
        """While an outage is known: ask the SkySpark (one call, no model); the failure if it still fails, else
        None (the outage is over: status online again)."""
        if not self.gw.outage.active:
            return None
        try:
            self.gw.runner.ping()
        except ExternalFailure as exc:
            if exc.reason not in WAIT_OUT:  # it answers, but refuses the login now: that is the job's to report
                self._outage_over()
                return None
            self.gw.outage.failed_again(exc)
            return exc
        except Exception:
            log.exception("asking the SkySpark whether it is back failed")
            return self.gw.outage.failure
        self._outage_over()
        return None

    def _outage_over(self) -> None:
        log.info("the SkySpark answers again after %.0f s", time.time() - (self.gw.outage.since or time.time()))
        self.gw.outage.end()
        self.gw.set_status(ONLINE)

    def _wait_out(self, cur: CurrentJob) -> str:
        """Keep the job while the SkySpark cannot be reached: a `waiting` progress reply, then ask it again after
        each pause (`Outage`). Returns "back" (it answers), "deadline" (`skyspark.outage_wait_s` is over), "cancel"
        (the requester's cancel) or "stop" (the daemon stops)."""
        job, sent = cur.job, None
        while True:
            if self.gw.outage.expired():
                return "deadline"
            failure = self.gw.outage.failure
            if str(failure) != sent:
                until = datetime.fromtimestamp(self.gw.outage.deadline, UTC).astimezone()
                self._waiting(job, f"waiting for the SkySpark until {until:%H:%M:%S}: {failure}", until)
                sent = str(failure)
            while not self.gw.outage.due() and not self.gw.outage.expired():
                self._beat = time.monotonic()  # waiting is the worker's work: the watchdog keeps being fed
                if cur.cancel.wait(0.5):
                    return "stop" if cur.shutdown and not cur.cancel_requested else "cancel"
            if self.gw.outage.expired():
                return "deadline"
            if self._known_outage() is None:
                return "back"

    def _waiting(self, job: Job, text: str, until: datetime | None = None) -> None:
        """A `waiting` progress reply: the job is kept (a SkySpark outage waited out, a final reply held for disk
        space); `until`, when the wait has a deadline."""
        self.gw.notify(
            job,
            ProgressReply(
                request_id=job.request_id,
                correlation=job.body_correlation,
                event="waiting",
                attempt=job.attempts,
                until=until.isoformat(timespec="seconds") if until is not None else None,
                reply_id=uuid.uuid4().hex,
                text=text,
            ),
        )

    def _ask(self, cur: CurrentJob, question: str) -> str | None:
        """The `agentask` tool: publish `kind=question`, wait for the requester's answer or the timeout."""
        if cur.cancel.is_set():
            return None
        job = cur.job
        timeout = self.gw.m.ask_timeout_s
        with self._lock:
            cur.answer, cur.waiting = None, True
            cur.answer_event.clear()
        self.gw.send(
            job.reply_topic,
            QuestionReply(
                request_id=job.request_id,
                correlation=job.body_correlation,
                question=question,
                timeout_s=timeout,
                reply_id=uuid.uuid4().hex,
            ),
            job.correlation,
        )
        deadline = time.monotonic() + timeout
        while not cur.answer_event.wait(0.2):
            self._beat = time.monotonic()
            if cur.cancel.is_set() or time.monotonic() >= deadline:
                break
        with self._lock:
            cur.waiting = False
            return None if cur.cancel.is_set() else cur.answer

    def _finish(self, cur: CurrentJob, options: RequestOptions, result: RunResult | None, failure: str | None) -> None:
        job = cur.job
        cancelled_by = (cur.cancelled_by or job.client_id) if cur.cancel_requested else None
        reply, chunks = final_reply(
            job,
            options,
            result,
            failure,
            cancelled_by=cancelled_by,
            settings=self.gw.settings,
            topics=self.gw.topics,
            max_packet=self.gw.max_packet,
        )
        payload = reply.model_dump_json()
        status = final_status(reply.kind, result)
        told = False
        while True:
            try:
                with self.gw.replying() as conn:
                    for topic, data in chunks:  # chunks first: when the result arrives, its files are there; no
                        # Correlation Data on a chunk (its topic names the request and the file: issue 42)
                        self.gw.jobs.outbox_add(conn, topic, data, request_id=job.request_id)
                    self.gw.jobs.outbox_add(
                        conn, job.reply_topic, payload.encode(), job.correlation, request_id=job.request_id
                    )
                    self.gw.jobs.finish(conn, job.job_id, reply.kind, payload)
                    self.gw.fleet.final(
                        conn,
                        job,
                        status,
                        files=[e.name for e in getattr(reply, "files", [])],
                        cancelled_by=(cur.cancelled_by or job.client_id) if cur.cancel_requested else None,
                        detail=getattr(reply, "message", None) or (result.error if result else None),
                    )
                break
            except Exception as exc:  # the queue database cannot take it: hold the reply until it can
                full = disk_full(exc)
                if full is None:
                    raise
                if not told:
                    log.error(
                        "job %s: its final reply cannot be stored (%s); holding it until there is space",
                        job.job_id,
                        full,
                    )
                    self._waiting(job, f"{full}; the reply is sent once there is space again")
                    told = True
                self._beat = time.monotonic()
                if self.gw.stopping.wait(DISK_RETRY_S):  # it runs again at the next start
                    return
        self.gw.fleet.finished(job, status)
        log.info("job %s finished: %s", job.job_id, reply.kind)
