"""The assembled agent: settings → model, tools, examples, run log; `EdgeAgent.ask` answers one question.

The CLI (`edge-agent ask`), the MQTT daemon and the benchmark all answer questions through here. Whoever
watches the agent (the daemon's metrics) sets `EdgeAgent.observer` (`edge_agent.observers`): it is told of
every recorded run and every SkySpark operation of the agent's own clients.
"""

from __future__ import annotations

import threading
import time
import uuid
from collections.abc import Callable
from typing import Any

from edge_agent.agent.prompting import PromptParts
from edge_agent.agent.react import react_prompt
from edge_agent.agent.runtime import AgentRuntime
from edge_agent.agent.trajectory import AgentEvent, RunMetrics, RunResult
from edge_agent.agent.xen import solve
from edge_agent.clock import Clock
from edge_agent.config import Settings, Strategy
from edge_agent.costmodel import run_costs
from edge_agent.failures import disk_full
from edge_agent.filestore import FileStore
from edge_agent.grounding.catalog import CatalogCache
from edge_agent.grounding.run import ANALYSIS_TOOLS
from edge_agent.llm.base import LLM, MeteredLLM, Usage
from edge_agent.llm.models import load_model
from edge_agent.observers import NO_OBSERVER, Observer, notify
from edge_agent.runlog import RunLog
from edge_agent.skyspark.client import SkySparkClient
from edge_agent.tabular import FileFormat, format_asked
from edge_agent.toolkit import AGENT_ASK_TOOL, ToolContext, ToolRegistry
from edge_agent.trajectory_store import TrajectoryStore


def load_llm(settings: Settings, model: str | None = None) -> LLM:
    return load_model(settings, model or settings.model.name)


class EdgeAgent:
    """Holds what outlives a request (model, tools, examples, log); `ask` runs one request."""

    def __init__(
        self,
        settings: Settings,
        llm: LLM | None = None,
        tools: ToolRegistry | None = None,
        skyspark: Callable[[], Any] | None = None,
    ):
        self.settings = settings
        self.llm = llm if llm is not None else load_llm(settings)
        self.tools = tools if tools is not None else ToolRegistry.from_dir(settings.plugins_dir)
        #: makes a run's SkySpark client (default: the configured SkySpark, `skyspark_client`)
        self.skyspark: Callable[[], Any] = skyspark if skyspark is not None else self.skyspark_client
        #: told of every recorded run and of the SkySpark operations of `skyspark_client`'s clients
        self.observer: Observer = NO_OBSERVER
        self.runlog = RunLog(settings.db_path)
        self.catalogs = CatalogCache()
        self._store: TrajectoryStore | None = None

    def skyspark_client(self) -> SkySparkClient:
        """A client of the configured SkySpark that reports its operations to `observer`."""
        return SkySparkClient.from_settings(self.settings.skyspark, observer=self.observer)

    @property
    def trajectory_store(self) -> TrajectoryStore:
        if self._store is None:
            self._store = TrajectoryStore.open(self.settings, self.tools)
        return self._store

    @trajectory_store.setter
    def trajectory_store(self, store: TrajectoryStore) -> None:
        """Use another store (e.g. Algorithm 2 grows one from generated trajectories only)."""
        self._store = store

    def warm(self, interrupt: threading.Event | None = None) -> dict[str, Any]:
        """Bring the react role's stable prefixes (instructions, tools, the examples every question shares) into
        the model's KV cache before the first question: restored from their saved states, or evaluated and saved
        where there are none (a new model, an empty state dir). There are two: the prompt of a question that asks
        for a conclusion describes the analysis tools, every other one does not; the latter goes last, as the one
        the live cache then holds. The daemon does this while idle after a start, so the first question after a
        restart is answered at the steady-state speed; the bench does it before its first task. Returns the calls'
        usage summed (tokens evaluated, milliseconds evaluating and restoring). Raises `Interrupted` once
        `interrupt` is set (the daemon stopping during a long prefill)."""
        core = self.trajectory_store.render_core(self.llm)
        plain = self.tools.without(ANALYSIS_TOOLS)  # as every question asking for no conclusion sees them
        usage = Usage()
        for tools in ([self.tools] if len(plain) < len(self.tools) else []) + [plain]:
            prompt = react_prompt("", PromptParts(tools=tools, examples=core, core_examples=core), [])
            out = self.llm.complete(prompt, role="react", constraint=None, max_tokens=0, interrupt=interrupt)
            usage = usage + out.usage
        return usage.model_dump()

    def ask(
        self,
        question: str,
        *,
        now: str | None = None,
        strategy: Strategy | None = None,
        max_steps: int | None = None,
        max_trials: int | None = None,
        distill: bool | None = None,
        on_event: Callable[[AgentEvent], None] | None = None,
        cancel: threading.Event | None = None,
        ask_requester: Callable[[str], str | None] | None = None,
        run_id: str | None = None,
        use_examples: bool = True,
        file_format: FileFormat | None = None,
    ) -> RunResult:
        started = time.monotonic()
        run_id = run_id or uuid.uuid4().hex[:12]
        agent_settings = self.settings.agent.model_copy(
            update={
                k: v
                for k, v in {
                    "max_steps": max_steps,
                    "max_trials": max_trials,
                    "distill": distill,
                    "strategy": strategy,
                }.items()
                if v is not None
            }
        )
        clock = Clock(now, agent_settings.timezone)
        try:
            files = FileStore(self.settings.files_dir / run_id)
        except OSError as exc:
            raise (disk_full(exc) or exc) from None
        ctx = ToolContext(
            files=files,
            clock=clock,
            settings=self.settings,
            skyspark_factory=self.skyspark,
            ask_requester=ask_requester,
            cancel=cancel or threading.Event(),
            question=question,
            file_format=format_asked(question, file_format),
        )
        tools = self.tools.with_tool(AGENT_ASK_TOOL) if ask_requester else self.tools
        metered = MeteredLLM(self.llm, interrupt=ctx.cancel)  # a cancel stops the model call under way
        rt = AgentRuntime(
            llm=metered,
            tools=tools,
            ctx=ctx,
            settings=agent_settings,
            emit=on_event or (lambda event: None),
            catalog=lambda: self.catalogs.get(lambda: ctx.skyspark),
        )
        result = RunResult(
            run_id=run_id,
            question=question,
            strategy=agent_settings.strategy,
            model=self.llm.model_name,
            now=clock.now().isoformat(),
            status="error",
        )
        try:  # a broken example file or a model failure still ends in exactly one recorded result
            rt.examples = self.trajectory_store.render_for(question, metered) if use_examples else ""
            rt.core_examples = self.trajectory_store.render_core(metered) if use_examples else ""
            outcome = solve(question, rt)
            result.answer, result.trials, result.distilled = outcome.answer, outcome.trials, outcome.distilled
            result.status = outcome.status
            result.provenance = next((t.claims for t in outcome.trials if t.answer == outcome.answer), [])
            if outcome.failure is not None:
                result.reason, result.error = outcome.failure.reason, str(outcome.failure)
            elif outcome.reason is not None:  # an answer held back: no evidence of this run supports it
                result.reason, result.error = outcome.reason, outcome.detail
            elif outcome.detail:  # no trial answered: why, in a line (the refused call's reason, how it ended)
                result.error = outcome.detail
            result.reading = outcome.reading
            if result.answer and outcome.reading is not None and outcome.reading.line:  # every answer says how it
                result.answer = f"{result.answer.rstrip()}\n\n{outcome.reading.line}"  # read the question
        except Exception as exc:  # the request still gets exactly one answer
            failure = disk_full(exc)
            if failure is not None:
                result.status, result.reason, result.error = "failed", failure.reason, str(failure)
            else:
                result.status, result.error = "error", f"{type(exc).__name__}: {exc}"
        result.files = files.manifest()
        result.metrics = compute_metrics(result, metered, time.monotonic() - started)
        costs = run_costs(result.trials, metered.total(), result.metrics.wall_s)  # time split, projections
        result.metrics = result.metrics.model_copy(update=costs)
        try:
            self.runlog.record(result, metered.calls)
        except Exception as exc:  # a run that cannot be logged is not delivered as if it had been (a full disk)
            failure = disk_full(exc)
            if failure is None:
                raise
            result.status, result.reason, result.error = "failed", failure.reason, f"{failure} (the run log)"
        notify(self.observer.run_recorded, result, metered.calls)  # the daemon's metrics (edge_agent/observers.py)
        rt.emit(AgentEvent(kind="final", text=result.answer or result.error or "", data={"status": result.status}))
        return result


def compute_metrics(result: RunResult, llm: MeteredLLM, wall_s: float) -> RunMetrics:
    total = llm.total()
    trials = result.trials
    accomplished = [
        t.review is not None and t.review.status == "Accomplished" or (t.review is None and t.outcome == "finished")
        for t in trials
    ]
    return RunMetrics(
        completed_round1=bool(accomplished[:1] and accomplished[0]),
        completed_final=bool(accomplished and accomplished[-1]),
        trials=len(trials),
        reflections=sum(1 for t in trials if t.reflection),
        llm_calls=len(llm.calls),
        tokens_sent=total.prompt_tokens,
        tokens_received=total.generated_tokens,
        tokens_forced=total.forced_tokens,
        tokens_tail=total.tail_tokens,
        tokens_tail_forced=total.tail_forced,
        tokens_evaluated=total.evaluated_tokens,
        trajectory_length=sum(len(t.steps) for t in trials),
        parse_failures=sum(t.parse_failures for t in trials),
        loops_caught=sum(t.loops_caught for t in trials),
        wall_s=round(wall_s, 3),
        calls_by_role={
            role: sum(1 for c in llm.calls if c.role == role) for role in dict.fromkeys(c.role for c in llm.calls)
        },
        final_review=trials[-1].review.status if trials and trials[-1].review else None,
        ungrounded_answers=sum(t.ungrounded_answers for t in trials),
        invented_names=sum(t.invented_names for t in trials),
        unverified_thoughts=sum(t.unverified_thoughts for t in trials),
    )
