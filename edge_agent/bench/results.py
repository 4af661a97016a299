"""The benchmark's records: one `TaskRun` per (model, strategy, task), and the whole `BenchResults`.

`results.json` is `BenchResults`; `results.jsonl` holds one `TaskRun` per line, appended as each
task finishes, so an interrupted benchmark keeps what it finished (and `--resume` skips it).
`summarise` aggregates runs into the rows of the report's tables.
"""

from __future__ import annotations

from collections import defaultdict
from pathlib import Path
from statistics import fmean

from pydantic import BaseModel, Field

from edge_agent.agent.trajectory import RunMetrics
from edge_agent.agent.review import pick_answer
from edge_agent.bench.checker import CheckResult


class TaskRun(BaseModel):
    task_id: str
    question: str
    tags: list[str] = Field(default_factory=list)
    model: str
    strategy: str
    run_id: str
    now: str
    status: str  # the agent's RunStatus: answered | gave_up | cancelled | error
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
    tokens_sent: float
    tokens_received: float
    tokens_evaluated: float
    llm_calls: float
    wall_s: float
    trajectory_length: float
    reflections: int
    trials: float
    parse_failures: int
    loops_caught: int
    by_round: list[int]  # tasks the checker passes with k = 1..max rounds allowed

    @property
    def label(self) -> str:
        return f"{self.model} / {self.strategy}"


def groups(runs: list[TaskRun]) -> dict[tuple[str, str], list[TaskRun]]:
    out: dict[tuple[str, str], list[TaskRun]] = defaultdict(list)
    for run in runs:
        out[(run.model, run.strategy)].append(run)
    return dict(out)


def summarise(runs: list[TaskRun], max_rounds: int) -> list[Summary]:
    rows = []
    for (model, strategy), rs in groups(runs).items():
        def avg(attr: str) -> float:
            return round(fmean(getattr(r.metrics, attr) for r in rs), 2) if rs else 0.0

        rows.append(Summary(
            model=model, strategy=strategy, tasks=len(rs),
            checker_round1=sum(r.checker_round1 for r in rs), checker_final=sum(r.checker_final for r in rs),
            review_round1=sum(r.review_round1 for r in rs), review_final=sum(r.review_final for r in rs),
            reviews=sum(r.reviews for r in rs), reviews_agreeing=sum(r.reviews_agreeing for r in rs),
            check_errors=sum(r.check_error for r in rs), agent_errors=sum(r.status == "error" for r in rs),
            tokens_sent=avg("tokens_sent"), tokens_received=avg("tokens_received"),
            tokens_evaluated=avg("tokens_evaluated"), llm_calls=avg("llm_calls"), wall_s=avg("wall_s"),
            trajectory_length=avg("trajectory_length"), trials=avg("trials"),
            reflections=sum(r.metrics.reflections for r in rs),
            parse_failures=sum(r.metrics.parse_failures for r in rs),
            loops_caught=sum(r.metrics.loops_caught for r in rs),
            by_round=[sum(r.completed_by(k) for r in rs) for k in range(1, max(1, max_rounds) + 1)],
        ))
    return rows


def read_jsonl(path: Path) -> list[TaskRun]:
    """Finished runs from an earlier (possibly interrupted) benchmark; a torn last line is skipped."""
    runs = []
    if not path.exists():
        return runs
    for line in path.read_text(encoding="utf-8").splitlines():
        if line.strip():
            try:
                runs.append(TaskRun.model_validate_json(line))
            except ValueError:
                continue
    return runs
