"""The benchmark's records: one `TaskRun` per (model, strategy, task), and the whole `BenchResults`.

`results.json` is `BenchResults`; `results.jsonl` holds one `TaskRun` per line, appended as each
task finishes, so an interrupted benchmark keeps what it finished (and `--resume` skips it).
`summarise` aggregates runs into the rows of the report's tables; with gateway profiles
(`edge_agent.costmodel`) each row also gets the projected seconds per answer on each profile,
computed from the runs' token counts, so results from before a profile change can be re-projected.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from pathlib import Path
from statistics import fmean

from pydantic import BaseModel, Field

from edge_agent.agent.review import pick_answer
from edge_agent.agent.trajectory import RunMetrics
from edge_agent.costmodel import GatewayProfile, TimeSplit, project_seconds
from edge_agent.evaluation.audit import RunAudit
from edge_agent.evaluation.checker import CheckResult


class TaskRun(BaseModel):
    task_id: str
    question: str
    tags: list[str] = Field(default_factory=list)
    model: str
    strategy: str
    run_id: str
    now: str
    status: str  # the agent's RunStatus: answered | partial | refused | gave_up | cancelled | error
    answer: str | None = None
    error: str | None = None
    files: list[str] = Field(default_factory=list)
    # the checker
    checker_by_round: list[bool] = Field(default_factory=list)  # trial k's answer + files of trials <= k
    answered_by_round: list[bool] = Field(default_factory=list)  # trial k gave an answer
    checker_round1: bool = False
    checker_final: bool = False
    checks: list[CheckResult] = Field(default_factory=list)  # the final verdict, check by check
    check_error: bool = False  # the task does not fit this SkySpark (see the check details)
    # the agent's own verdict (Review; for plain react: "it finished")
    review_by_round: list[str | None] = Field(default_factory=list)  # per trial: review status or None
    review_round1: bool = False
    review_final: bool = False
    reviews: int = 0  # trials that got a review verdict
    reviews_agreeing: int = 0  # ... whose verdict (Accomplished or not) matched the checker on that trial
    metrics: RunMetrics = RunMetrics()
    audit: RunAudit = RunAudit()  # names that do not exist, claims no evidence held (evaluation.audit)

    def key(self) -> tuple[str, str, str]:
        return (self.model, self.strategy, self.task_id)

    def completed_by(self, rounds: int) -> bool:
        """Whether the checker passes the answer the agent would have returned with `rounds` trials
        allowed: picked among trials 1..rounds the way the agent picks (`pick_answer`)."""
        n = min(rounds, len(self.checker_by_round))
        if n == len(self.checker_by_round):
            return self.checker_final
        pick = pick_answer(self.answered_by_round[:n], self.review_by_round[:n])
        return pick is not None and self.checker_by_round[pick]


class BenchResults(BaseModel):
    tasks_file: str
    task_set: str = ""
    skyspark: str = ""
    started: str = ""
    finished: str | None = None
    interrupted: bool = False
    max_steps: int = 0
    max_trials: int = 0
    models: list[str] = Field(default_factory=list)
    strategies: list[str] = Field(default_factory=list)
    n_tasks: int = 0
    invalid_tasks: list[str] = Field(default_factory=list)
    gateway: str = ""  # the profile the report projects onto (`--gateway`)
    gateways: list[GatewayProfile] = Field(default_factory=list)  # the profiles file as the run read it
    strict_names: bool = True  # the checker failed answers naming what the SkySpark lacks
    #: saved prompt-prefix KV states the run started with (`--prefix-states`); empty: none, every role and
    #: example prefix was evaluated in this run (a first start)
    prefix_states: str = ""
    #: per model, the usage of `EdgeAgent.warm` before the first task (the react prefixes brought into the KV
    #: cache, as the daemon does while idle after a start); counted in no task
    warmup: dict[str, dict[str, float]] = Field(default_factory=dict)
    runs: list[TaskRun] = Field(default_factory=list)


class Summary(BaseModel):
    """One row of the summary table: a (model, strategy) pair over the tasks it ran."""

    model: str
    strategy: str
    tasks: int
    checker_round1: int
    checker_final: int
    review_round1: int
    review_final: int
    reviews: int
    reviews_agreeing: int
    check_errors: int
    agent_errors: int
    answered_wrong: int = 0  # runs whose status is `answered` while a check fails (delivered as right, wrong)
    tokens_sent: float
    tokens_received: float
    tokens_evaluated: float
    tokens_forced: float = 0.0  # of tokens_received, fixed by the constraint (evaluated in a batch)
    tokens_tail: float = 0.0  # of tokens_received, never evaluated by their call (recorded since session 7)
    tokens_tail_forced: float = 0.0
    llm_calls: float
    wall_s: float
    trajectory_length: float
    reflections: int
    trials: float
    parse_failures: int
    loops_caught: int
    invented_calls: int = 0  # tool calls naming a site/asset/sensor the SkySpark lacks
    runs_inventing: int = 0  # runs with at least one such call
    ungrounded_answers: int = 0  # final answers stating a figure or name no evidence held
    refused_answers: int = 0  # Finish answers the runtime refused (ungrounded) before one was accepted
    copied_reviews: int = 0  # review verdicts that echoed their prompt (replaced by code)
    unverified_thoughts: int = 0  # steps whose thought stated what nothing held yet (masked in progress)
    by_round: list[int]  # tasks the checker passes with k = 1..max rounds allowed
    split: TimeSplit = TimeSplit()  # mean per task, this machine
    projected_s: dict[str, float] = Field(default_factory=dict)  # mean per task, per gateway profile

    @property
    def label(self) -> str:
        return f"{self.model} / {self.strategy}"


def answered_but_wrong(run: TaskRun) -> bool:
    """The run was delivered as `answered` while the checker fails it (a task that does not fit the SkySpark
    aside): what an operator would take as right and is not."""
    return run.status == "answered" and not run.checker_final and not run.check_error


def groups(runs: list[TaskRun]) -> dict[tuple[str, str], list[TaskRun]]:
    out: dict[tuple[str, str], list[TaskRun]] = defaultdict(list)
    for run in runs:
        out[(run.model, run.strategy)].append(run)
    return dict(out)


def split_of(metrics: RunMetrics) -> TimeSplit:
    return TimeSplit(**metrics.model_dump(include=set(TimeSplit.model_fields)))


def projected(metrics: RunMetrics, profile: GatewayProfile) -> float:
    """The run's projected seconds on `profile` (its tokens at the profile's rates + its measured
    non-LLM time)."""
    return project_seconds(
        profile,
        metrics.tokens_evaluated,
        metrics.tokens_received,
        split_of(metrics).other_s,
        metrics.tokens_forced,
        metrics.tokens_tail,
        metrics.tokens_tail_forced,
    )


def summarise(runs: list[TaskRun], max_rounds: int, profiles: Sequence[GatewayProfile] = ()) -> list[Summary]:
    rows = []
    for (model, strategy), rs in groups(runs).items():

        def avg(attr: str, rs: list[TaskRun] = rs) -> float:  # this group's runs, bound now
            return round(fmean(getattr(r.metrics, attr) for r in rs), 2) if rs else 0.0

        rows.append(
            Summary(
                model=model,
                strategy=strategy,
                tasks=len(rs),
                checker_round1=sum(r.checker_round1 for r in rs),
                checker_final=sum(r.checker_final for r in rs),
                review_round1=sum(r.review_round1 for r in rs),
                review_final=sum(r.review_final for r in rs),
                reviews=sum(r.reviews for r in rs),
                reviews_agreeing=sum(r.reviews_agreeing for r in rs),
                check_errors=sum(r.check_error for r in rs),
                agent_errors=sum(r.status == "error" for r in rs),
                answered_wrong=sum(answered_but_wrong(r) for r in rs),
                tokens_sent=avg("tokens_sent"),
                tokens_received=avg("tokens_received"),
                tokens_evaluated=avg("tokens_evaluated"),
                tokens_forced=avg("tokens_forced"),
                tokens_tail=avg("tokens_tail"),
                tokens_tail_forced=avg("tokens_tail_forced"),
                llm_calls=avg("llm_calls"),
                wall_s=avg("wall_s"),
                trajectory_length=avg("trajectory_length"),
                trials=avg("trials"),
                reflections=sum(r.metrics.reflections for r in rs),
                parse_failures=sum(r.metrics.parse_failures for r in rs),
                loops_caught=sum(r.metrics.loops_caught for r in rs),
                invented_calls=sum(r.audit.invented_calls for r in rs),
                runs_inventing=sum(r.audit.invented_calls > 0 for r in rs),
                ungrounded_answers=sum(r.audit.ungrounded_answer for r in rs),
                refused_answers=sum(r.audit.refused_answers for r in rs),
                copied_reviews=sum(r.audit.copied_reviews for r in rs),
                unverified_thoughts=sum(r.audit.unverified_thoughts for r in rs),
                by_round=[sum(r.completed_by(k) for r in rs) for k in range(1, max(1, max_rounds) + 1)],
                split=TimeSplit(**{f: avg(f) for f in TimeSplit.model_fields}),
                projected_s={p.name: round(fmean(projected(r.metrics, p) for r in rs), 1) for p in profiles},
            )
        )
    return rows


def read_jsonl(path: Path) -> list[TaskRun]:
    """Finished runs from an earlier (possibly interrupted) benchmark; a torn last line is skipped."""
    runs: list[TaskRun] = []
    if not path.exists():
        return runs
    for line in path.read_text(encoding="utf-8").splitlines():
        if line.strip():
            try:
                runs.append(TaskRun.model_validate_json(line))
            except ValueError:
                continue
    return runs
