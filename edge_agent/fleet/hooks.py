"""`FleetHooks`: the daemon's one handle on metrics, audit and Home Assistant (each off unless configured).

What the agent does (runs, SkySpark operations) reaches the metrics through the agent's own hooks
(`edge_agent.observers`): `start` attaches the metrics as the observer of the runner's agent, `stop` detaches
them. The daemon calls: `start` / `stop`; `stored(msgs)` after a batch of messages is committed (request →
accepted latency); `request`, `refused`, `cancel`, `answer` and `final` inside the transaction that stores
what they record (one audit INSERT each); `finished(job, status)` after a final reply is stored
(counters, request → final latency, Home Assistant's state); `dead_letter()`. Each is a counter, a
histogram observation or one INSERT: nothing here queries or publishes on the request path.
"""

from __future__ import annotations

import logging
import sqlite3
import threading
import time
from collections.abc import Callable
from typing import Any

from edge_agent.config import Settings
from edge_agent.fleet import audit
from edge_agent.fleet.homeassistant import ClientFactory, HomeAssistant
from edge_agent.fleet.metrics import Metrics, _Live
from edge_agent.observers import NO_OBSERVER
from edge_agent.statuses import effective

log = logging.getLogger(__name__)

PRUNE_EVERY_S = 86400.0


def final_status(kind: str, result: Any = None) -> str:
    """A job's final status for metrics, the audit and Home Assistant: the run's status where a run decided it
    (answered, refused, partial, gave_up, failed — as `edge_agent.statuses.effective` reads it, so a refusal an
    older agent recorded as answered is `refused`), else the reply's kind (error, cancelled)."""
    if kind == "cancelled":
        return "cancelled"
    status = getattr(result, "status", None) if result is not None else None
    if status and status not in ("error", "cancelled"):
        return effective(status, distilled=getattr(result, "distilled", None), answer=getattr(result, "answer", None))
    return "error" if kind in ("error", "result") else kind


def model_of(runner: Any) -> str | None:
    """The loaded model's name (the real agent's runner), else None (the script runner: no model)."""
    llm = getattr(getattr(runner, "agent", None), "llm", None)
    return getattr(llm, "model_name", None)


class FleetHooks:
    """`mqtt_client(settings, client_id, username=…)` makes the MQTT connections of the fleet's own threads
    (Home Assistant's): the daemon passes its own factory (`edge_agent.mqtt.connection.mqtt_client`)."""

    def __init__(
        self,
        settings: Settings,
        *,
        jobs: Any,
        topics: Any,
        connected: Callable[[], bool],
        runner: Any,
        client_id: str,
        mqtt_client: ClientFactory,
    ):
        self.settings, self.jobs, self.topics = settings, jobs, topics
        self.connected, self.runner, self.client_id = connected, runner, client_id
        self.mqtt_client = mqtt_client
        self.metrics = Metrics() if settings.metrics.enabled else None
        self.auditing = settings.audit.enabled
        self.ha: HomeAssistant | None = None
        self.backlog: Callable[[], tuple[int, int]] = lambda: (0, 0)  # the service's session backlog, limit
        self._stop = threading.Event()
        self._pruner: threading.Thread | None = None

    # ------------------------------------------------------------------------------ lifecycle
    def start(self) -> None:
        if self.auditing:
            schema = sqlite3.connect(str(self.jobs.path), isolation_level=None, timeout=10)
            try:  # DDL on its own connection (executescript commits as it goes)
                audit.ensure_schema(schema)
            finally:
                schema.close()
            with self.jobs.tx() as conn:
                pruned = audit.prune(conn, self.settings.audit.retention_days)
            if pruned:
                log.info(
                    "audit: %d row(s) past the retention of %g days deleted", pruned, self.settings.audit.retention_days
                )
            if self.settings.audit.retention_days:
                self._pruner = threading.Thread(target=self._prune_daily, name="audit-retention", daemon=True)
                self._pruner.start()
        if self.metrics is not None:
            m = self.settings.metrics
            self.metrics.serve(
                m.host,
                m.port,
                _Live(self.jobs.counts, self.connected, lambda: model_of(self.runner), lambda: self.backlog()),
            )
            self._observe(self.metrics)
        if self.settings.homeassistant.enabled:
            self.ha = HomeAssistant(
                self.settings,
                self.topics.status,
                self.topics.base,
                self.jobs.path,
                lambda: model_of(self.runner) or self.settings.model.name,
                self.client_id,
                self.mqtt_client,
            )
            self.ha.start()

    def stop(self) -> None:
        self._stop.set()
        if self.ha is not None:
            self.ha.stop()
        if self.metrics is not None:
            self._observe(NO_OBSERVER)
            self.metrics.close()

    def _observe(self, observer: Any) -> None:
        """Make `observer` the hooks of the runner's agent (`EdgeAgent.observer`: its runs, its SkySpark clients);
        the script runner has no agent, nothing to watch."""
        agent = getattr(self.runner, "agent", None)
        if agent is not None:
            agent.observer = observer

    def _prune_daily(self) -> None:
        while not self._stop.wait(PRUNE_EVERY_S):
            try:
                with self.jobs.tx() as conn:
                    audit.prune(conn, self.settings.audit.retention_days)
            except Exception:
                log.exception("audit retention failed; it is tried again tomorrow")

    # ------------------------------------------------------------------------------ request path
    def _record(self, conn: sqlite3.Connection, event: str, who: str, **fields: Any) -> None:
        """One audit row in the transaction `conn` is in: handed to the queue (`JobQueue.add_row`), which writes a
        batch's rows in one INSERT before the commit (issue 42: a flood of 10,000 requests was 10,000 INSERTs)."""
        self.jobs.add_row(conn, audit.INSERT, audit.row(event, who, **fields))

    def who(self, client_id: str, on_behalf_of: str | None) -> str:
        """The audit's `who`: `console:<user>` for a person a trusted console names, else the broker identity."""
        if on_behalf_of and client_id in self.settings.mqtt.trusted_consoles:
            return f"console:{on_behalf_of}"
        return client_id

    def stored(self, msgs: list) -> None:
        """A batch of messages is committed and its replies published: request → accepted, per request."""
        if self.metrics is None:
            return
        now, observe = time.monotonic(), self.metrics.accepted.observe
        for msg in msgs:
            if b"/request/" in msg._topic:
                observe(now - msg.timestamp)

    def request(self, conn, client_id: str, req, job, outcome: str) -> None:
        """A request stored: `accepted` (a new job), `duplicate`, or `refused: <code>`."""
        if outcome == "accepted" and self.metrics is not None:
            self.metrics.requests.inc()
        if self.auditing:
            person = getattr(req, "on_behalf_of", None)
            who = self.who(client_id, person) if outcome != "refused: on_behalf_of_untrusted" else client_id
            self._record(
                conn,
                "request",
                who,
                on_behalf_of=person,
                request_id=req.request_id,
                job_id=job.job_id if job is not None else None,
                question=req.question,
                options=req.options,
                outcome=outcome,
                detail=f"via {client_id}" if who != client_id else None,
            )

    def refused(self, conn, kind: str, client_id: str, error, person: str | None = None) -> None:
        """A request or cancel that could not be read (too long, bad JSON, ...): who sent it, and why; `person`:
        the `on_behalf_of` a trusted console's message names (Intake reads it only from those), recorded as
        `console:<user>` like that console's accepted requests."""
        if self.auditing and kind in ("request", "cancel"):
            who = self.who(client_id, person)
            self._record(
                conn,
                kind,
                who,
                on_behalf_of=person if who != client_id else None,
                request_id=error.request_id,
                outcome=f"refused: {error.code}",
                detail=f"via {client_id}: {error.message}" if who != client_id else error.message,
            )

    def cancel(self, conn, client_id: str, request_id: str, job, outcome: str, person: str | None = None) -> None:
        """A cancel; `person`: who a console cancels for (its `on_behalf_of`)."""
        if self.auditing:
            who = client_id if outcome.startswith("refused") else self.who(client_id, person)
            self._record(
                conn,
                "cancel",
                who,
                on_behalf_of=person,
                request_id=request_id,
                job_id=job.job_id if job is not None else None,
                outcome=outcome,
                cancelled_by=who,
                detail=(
                    f"asked by {self.who(job.client_id, job.on_behalf_of)}"
                    if job is not None and job.on_behalf_of and job.on_behalf_of != person
                    else None
                ),
            )

    def answer(self, conn, client_id: str, request_id: str, text: str, outcome: str, person: str | None = None) -> None:
        """An Agent-Ask answer from the requester (the `agentask` tool's question); `person` as for cancel."""
        if self.auditing:
            who = client_id if outcome.startswith("refused") else self.who(client_id, person)
            self._record(conn, "answer", who, on_behalf_of=person, request_id=request_id, outcome=outcome, detail=text)

    def final(
        self,
        conn,
        job,
        status: str,
        *,
        files: list[str] | None = None,
        cancelled_by: str | None = None,
        detail: str | None = None,
    ) -> None:
        """The final reply is stored (same transaction): its outcome row."""
        if self.auditing:
            self._record(
                conn,
                "final",
                self.who(job.client_id, job.on_behalf_of),
                on_behalf_of=job.on_behalf_of,
                request_id=job.request_id,
                job_id=job.job_id,
                outcome=status,
                files=files,
                cancelled_by=cancelled_by,
                detail=detail,
            )

    def finished(self, job, status: str) -> None:
        """After the final reply's commit: the job counters, request → final, Home Assistant's figures."""
        if self.metrics is not None:
            self.metrics.jobs.labels(status).inc()
            self.metrics.final.observe(max(0.0, time.time() - job.created))
        if self.ha is not None:
            self.ha.state_changed()

    def dead_letter(self) -> None:
        if self.metrics is not None:
            self.metrics.dead_letters.inc()
