"""Prometheus metrics of the daemon (`metrics.enabled`), served by prometheus-client's own HTTP server.

Exposition only: on the request path the daemon increments counters and observes histograms, nothing
more. What needs a query (queue depth) or a look at shared state (broker connected, model loaded) is
read when Prometheus scrapes, by the `_Live` collector. `Metrics` is an `edge_agent.observers.Observer`:
SkySpark latency and errors come from its `skyspark_call` hook (every Haystack operation, retries included),
LLM and tool figures from its `run_recorded` hook (each finished run); `FleetHooks.start` attaches it to the
agent while the metrics are served. Every metric is described in docs/metrics.md; `METRICS` lists their names
(the test checks both against a real scrape).
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable, Iterator, Sequence
from typing import Any

from prometheus_client import CollectorRegistry, Counter, Gauge, Histogram, start_http_server
from prometheus_client.core import GaugeMetricFamily

from edge_agent.observers import Observer
from edge_agent.statuses import STATUSES

log = logging.getLogger(__name__)

NS = "edge_agent"
#: final statuses of a job: a run's status, or the reply's kind when no run decided it (edge_agent/statuses.py)
JOB_STATUSES = STATUSES
ROLES = ("react", "review", "reflect", "distill", "self-ask")
#: request → accepted is milliseconds (one fsync); request → final is seconds to many minutes on a CPU
ACCEPTED_BUCKETS = (0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0)
FINAL_BUCKETS = (0.1, 0.5, 1, 2.5, 5, 10, 30, 60, 120, 300, 600, 1200, 1800, 3600)
SKYSPARK_BUCKETS = (0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0, 30.0)

#: every metric family the daemon exposes (docs/metrics.md documents each)
METRICS = (
    "edge_agent_requests",
    "edge_agent_jobs",
    "edge_agent_dead_letters",
    "edge_agent_queue_depth",
    "edge_agent_request_accepted_seconds",
    "edge_agent_request_final_seconds",
    "edge_agent_llm_calls",
    "edge_agent_llm_tokens_evaluated",
    "edge_agent_llm_tokens_generated",
    "edge_agent_llm_seconds",
    "edge_agent_tool_calls",
    "edge_agent_tool_errors",
    "edge_agent_skyspark_request_seconds",
    "edge_agent_skyspark_errors",
    "edge_agent_skyspark_last_success_timestamp_seconds",
    "edge_agent_model_loaded",
    "edge_agent_broker_connected",
    "edge_agent_session_backlog",
    "edge_agent_session_queue_limit",
)


def _op(what: str) -> str:
    """The Haystack operation of a client call's description ("read site" → read, "hisRead @p" → hisRead)."""
    return what.split(" ", 1)[0] or "other"


class _Live:
    """Gauges read at scrape time: queue depth by state, broker connected, model loaded."""

    def __init__(
        self,
        queue_counts: Callable[[], dict],
        connected: Callable[[], bool],
        model: Callable[[], str | None],
        backlog: Callable[[], tuple[int, int]] = lambda: (0, 0),
    ):
        self.queue_counts, self.connected, self.model, self.backlog = queue_counts, connected, model, backlog

    def describe(self) -> list[Any]:
        return []  # no up-front collect at registration (the queue may not be open yet)

    def collect(self) -> Iterator[GaugeMetricFamily]:
        depth = GaugeMetricFamily(f"{NS}_queue_depth", "Jobs in the queue by state (queued, running)", labels=["state"])
        try:
            counts = self.queue_counts()
        except Exception:  # a closed or busy database must not break the scrape
            counts = {}
        for state in ("queued", "running"):
            depth.add_metric([state], counts.get(state, 0))
        yield depth
        yield GaugeMetricFamily(
            f"{NS}_broker_connected",
            "1 while every MQTT connection of the daemon is up",
            value=1.0 if self.connected() else 0.0,
        )
        model = self.model()
        loaded = GaugeMetricFamily(
            f"{NS}_model_loaded",
            "1 when a model is loaded (label: its name); 0 for the script runner",
            labels=["model"],
        )
        loaded.add_metric([model or ""], 1.0 if model else 0.0)
        yield loaded
        backlog, limit = self.backlog()
        yield GaugeMetricFamily(
            f"{NS}_session_backlog",
            "Requests the broker delivered to the daemon's session "
            "in one run without a pause (after a reconnect: what it had queued); near "
            "session_queue_limit the broker starts dropping requests",
            value=float(backlog),
        )
        yield GaugeMetricFamily(
            f"{NS}_session_queue_limit",
            "The broker's max_queued_messages as configured (mqtt.broker_queue_limit; 0: not watched)",
            value=float(limit),
        )


class Metrics(Observer):
    """The daemon's metrics in their own registry (several daemons in one test process do not collide)."""

    def __init__(self) -> None:
        r = self.registry = CollectorRegistry(auto_describe=True)
        self.requests = Counter(
            f"{NS}_requests", "Requests stored (new jobs); duplicates and refusals excluded", registry=r
        )
        self.jobs = Counter(f"{NS}_jobs", "Jobs by final status", ["status"], registry=r)
        self.dead_letters = Counter(
            f"{NS}_dead_letters", "Messages the daemon failed on, kept as dead letters", registry=r
        )
        self.accepted = Histogram(
            f"{NS}_request_accepted_seconds",
            "Request received → its `accepted` reply committed and published",
            buckets=ACCEPTED_BUCKETS,
            registry=r,
        )
        self.final = Histogram(
            f"{NS}_request_final_seconds",
            "Request stored → its final reply stored (queue wait included)",
            buckets=FINAL_BUCKETS,
            registry=r,
        )
        self.llm_calls = Counter(f"{NS}_llm_calls", "Model calls by role", ["role"], registry=r)
        self.llm_evaluated = Counter(
            f"{NS}_llm_tokens_evaluated",
            "Prompt tokens evaluated (after KV prefix reuse) by role",
            ["role"],
            registry=r,
        )
        self.llm_generated = Counter(f"{NS}_llm_tokens_generated", "Tokens generated by role", ["role"], registry=r)
        self.llm_seconds = Counter(f"{NS}_llm_seconds", "Seconds spent in model calls by role", ["role"], registry=r)
        self.tool_calls = Counter(f"{NS}_tool_calls", "Tool calls by tool", ["tool"], registry=r)
        self.tool_errors = Counter(
            f"{NS}_tool_errors", "Tool calls whose Observation was an error, by tool", ["tool"], registry=r
        )
        self.skyspark_seconds = Histogram(
            f"{NS}_skyspark_request_seconds",
            "SkySpark (Haystack) operations, retries included, by operation",
            ["op"],
            buckets=SKYSPARK_BUCKETS,
            registry=r,
        )
        self.skyspark_errors = Counter(
            f"{NS}_skyspark_errors",
            "SkySpark operations that failed, by operation and error class",
            ["op", "error"],
            registry=r,
        )
        self.skyspark_last = Gauge(
            f"{NS}_skyspark_last_success_timestamp_seconds",
            "Unix time of the last successful SkySpark operation (0: none since start)",
            registry=r,
        )
        for status in JOB_STATUSES:
            self.jobs.labels(status)
        for role in ROLES:
            for family in (self.llm_calls, self.llm_evaluated, self.llm_generated, self.llm_seconds):
                family.labels(role)
        self._server: Any = None  # prometheus-client's WSGIServer
        self.port: int | None = None

    # ---------------------------------------------------------------- lifecycle
    def serve(self, host: str, port: int, live: _Live) -> int:
        """Register the scrape-time gauges and start the HTTP server; returns the port."""
        self.registry.register(live)
        self._server, _thread = start_http_server(port, addr=host, registry=self.registry)
        self.port = self._server.server_port
        log.info("metrics on http://%s:%d/metrics", host, self.port)
        return self.port

    def close(self) -> None:
        if self._server is not None:
            self._server.shutdown()
            self._server.server_close()
            self._server = None

    # ---------------------------------------------------------------- hooks (edge_agent.observers)
    def skyspark_call(self, what: str, seconds: float, error: Exception | None) -> None:
        """One SkySpark operation, retries included: its time by operation, an error by operation and class."""
        op = _op(what)
        self.skyspark_seconds.labels(op).observe(seconds)
        if error is not None:
            self.skyspark_errors.labels(op, type(error).__name__).inc()
        else:
            self.skyspark_last.set(time.time())

    def run_recorded(self, result: Any, calls: Sequence[Any]) -> None:
        """A finished run: its model calls by role, its tool calls by tool (after the run, off the request path)."""
        for call in calls:
            role, usage = call.role, call.usage
            self.llm_calls.labels(role).inc()
            self.llm_evaluated.labels(role).inc(usage.evaluated_tokens)
            self.llm_generated.labels(role).inc(usage.generated_tokens)
            self.llm_seconds.labels(role).inc(usage.ms / 1000.0)
        for trial in getattr(result, "trials", []):
            for step in trial.steps:
                if step.kind != "tool":
                    continue
                self.tool_calls.labels(step.action).inc()
                if not step.ok:
                    self.tool_errors.labels(step.action).inc()
