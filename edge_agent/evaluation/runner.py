"""Runs a task set: every task, for every model and strategy, in a fresh agent state, then checks it.

Each task gets its own run id, so its own file store (`settings.files_dir / run_id`) and the task's
own clock (`now`). After the run the checker looks at the final answer and the files, and at each
trial on its own (trial k's answer with the files made up to trial k), which gives completion by
reflection round. Every finished task is appended to `results.jsonl` and `results.json` is rewritten,
so Ctrl-C loses nothing; the full `RunResult` of each run goes to `runs/<run_id>.json`.
"""

from __future__ import annotations

import json
import sys
import uuid
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING

from pydantic import BaseModel, Field

from edge_agent.agent.trajectory import RunResult
from edge_agent.config import Settings, Strategy
from edge_agent.costmodel import GatewayProfile
from edge_agent.evaluation.audit import audit_run
from edge_agent.evaluation.checker import Evidence, check_task, validate_task
from edge_agent.evaluation.results import BenchResults, TaskRun, read_jsonl
from edge_agent.evaluation.tasks import Task, TaskFile
from edge_agent.evaluation.truth import Truth
from edge_agent.filestore import slug
from edge_agent.llm.base import LLM

if TYPE_CHECKING:
    from edge_agent.app import EdgeAgent


_DEFAULT_STRATEGIES: list[Strategy] = ["reactxen"]


class BenchOptions(BaseModel):
    tasks_file: str
    strategies: list[Strategy] = Field(default_factory=lambda: _DEFAULT_STRATEGIES.copy())
    models: list[str] = Field(default_factory=list)  # empty: the configured model
    limit: int | None = Field(None, ge=1)
    only: list[str] = Field(default_factory=list, description="run only these task ids")
    out: Path
    max_steps: int | None = None
    max_trials: int | None = None
    resume: bool = False
    skyspark: str = ""
    progress: bool = True
    gateway: str = ""  # the gateway profile the report projects onto
    gateways: list[GatewayProfile] = Field(default_factory=list)  # all reference profiles (bench/gateways.yaml)
    strict_names: bool = True  # an answer naming a site/asset the SkySpark lacks fails (`--no-strict-names`)
    prefix_states: str = ""  # where the saved prompt-prefix states at start came from (`--prefix-states`)


def load_files(folder: Path) -> dict[str, object]:
    out: dict[str, object] = {}
    if folder.is_dir():
        for path in sorted(folder.iterdir()):
            if path.is_file() and not path.is_symlink() and path.suffix == ".json":
                try:
                    out[path.name] = json.loads(path.read_text(encoding="utf-8"))
                except (ValueError, OSError):
                    out[path.name] = None
    return out


def first_trial_of_files(result: RunResult, names: list[str]) -> dict[str, int]:
    """The trial in which each file first shows up in a step (observation or input); files never
    mentioned are given to the last trial."""
    last = max(1, len(result.trials))
    seen: dict[str, int] = {}
    for trial in result.trials:
        for step in trial.steps:
            text = step.observation + " " + json.dumps(step.action_input, ensure_ascii=False, default=str)
            for name in names:
                if name not in seen and name in text:
                    seen[name] = trial.number
    return {name: seen.get(name, last) for name in names}


def evaluate(
    task: Task, result: RunResult, files: dict[str, object], truth: Truth, model: str, *, strict_names: bool = True
) -> TaskRun:
    """Check one finished run: the final answer, and each trial as it stood; audit its names and claims."""
    calls = [
        [step.action for step in trial.steps if step.kind in ("tool", "failure", "recovery") and step.action]
        for trial in result.trials
    ]
    final = check_task(
        task,
        Evidence(result.answer, files, task.question, [c for t in calls for c in t], status=result.status),
        truth,
        strict_names=strict_names,
    )
    has_answer = bool((result.answer or "").strip())
    by_round: list[bool] = []
    born = first_trial_of_files(result, list(files))
    for trial in result.trials:
        if not (trial.answer or "").strip():
            by_round.append(False)
            continue
        if trial is result.trials[-1] and not has_answer:  # withheld (gave up): nothing of it was delivered
            by_round.append(False)
            continue
        if trial is result.trials[-1] and trial.answer == result.answer:
            by_round.append(final.passed)
            continue
        ev = Evidence(
            trial.answer,
            {n: d for n, d in files.items() if born[n] <= trial.number},
            task.question,
            [c for t in calls[: trial.number] for c in t],
        )
        by_round.append(check_task(task, ev, truth, strict_names=strict_names).passed)
    reviews = [t.review.status if t.review else None for t in result.trials]
    agreeing = sum(
        1 for status, ok in zip(reviews, by_round) if status is not None and (status == "Accomplished") == ok
    )
    return TaskRun(
        task_id=task.id,
        question=task.question,
        tags=task.tags,
        model=model,
        strategy=result.strategy,
        run_id=result.run_id,
        now=result.now,
        status=result.status,
        answer=result.answer,
        error=result.error,
        files=sorted(files),
        checker_by_round=by_round,
        answered_by_round=[bool((t.answer or "").strip()) for t in result.trials],
        checker_round1=bool(by_round[:1] and by_round[0]),
        checker_final=final.passed and has_answer,
        checks=final.checks,
        check_error=final.error,
        review_by_round=reviews,
        review_round1=result.metrics.completed_round1,
        review_final=result.metrics.completed_final,
        reviews=sum(s is not None for s in reviews),
        reviews_agreeing=agreeing,
        metrics=result.metrics,
        audit=audit_run(result, truth),
    )


class BenchWriter:
    """Keeps results.json / results.jsonl current after every task."""

    def __init__(self, out: Path, results: BenchResults):
        self.out = out
        self.results = results
        out.mkdir(parents=True, exist_ok=True)
        (out / "runs").mkdir(exist_ok=True)
        self.jsonl = out / "results.jsonl"

    def add(self, run: TaskRun, result: RunResult | None = None) -> None:
        self.results.runs.append(run)
        with self.jsonl.open("a", encoding="utf-8") as fh:
            fh.write(run.model_dump_json() + "\n")
        if result is not None:
            (self.out / "runs" / f"{run.run_id}.json").write_text(result.model_dump_json(indent=1), encoding="utf-8")
        self.save()

    def save(self) -> None:
        tmp = self.out / "results.json.tmp"
        tmp.write_text(self.results.model_dump_json(indent=1), encoding="utf-8")
        tmp.replace(self.out / "results.json")


def warm_up(agent: EdgeAgent) -> dict[str, float]:
    """What a daemon does while idle after a start, before its first task (`EdgeAgent.warm`): the prefix every
    question's first step shares is then evaluated (or restored) once, not charged to whichever task came first."""
    warm = getattr(agent, "warm", None)  # an agent a test scripts may have none
    usage = warm() if callable(warm) else {}
    return {k: float(v) for k, v in usage.items() if isinstance(v, (int, float))}


def select_tasks(task_file: TaskFile, options: BenchOptions) -> list[Task]:
    tasks = task_file.tasks
    if options.only:
        unknown = sorted(set(options.only) - {t.id for t in tasks})
        if unknown:
            raise ValueError(f"no task with id {', '.join(unknown)} in {options.tasks_file}")
        tasks = [t for t in tasks if t.id in options.only]
    return tasks[: options.limit] if options.limit else tasks


def run_bench(
    options: BenchOptions,
    task_file: TaskFile,
    settings: Settings,
    truth: Truth,
    make_llm: Callable[[str], LLM],
    make_agent: Callable[[Settings, LLM], EdgeAgent] | None = None,
) -> BenchResults:
    """Run every selected task for every model × strategy; returns the results (also on disk).

    `make_llm(name)` loads a model; `make_agent(settings, llm)` builds the agent (default
    `EdgeAgent`). KeyboardInterrupt stops after writing what finished (results.interrupted)."""
    from tqdm import tqdm

    if make_agent is None:
        from edge_agent.app import EdgeAgent

        make_agent = lambda s, llm: EdgeAgent(s, llm=llm)  # noqa: E731
    tasks = select_tasks(task_file, options)
    models = options.models or [settings.model.name]
    agent_settings = settings.agent
    results = BenchResults(
        tasks_file=options.tasks_file,
        task_set=task_file.name,
        skyspark=options.skyspark,
        started=datetime.now(UTC).isoformat(timespec="seconds"),
        max_steps=options.max_steps or agent_settings.max_steps,
        max_trials=options.max_trials or agent_settings.max_trials,
        models=models,
        strategies=list(options.strategies),
        n_tasks=len(tasks),
        gateway=options.gateway,
        gateways=options.gateways,
        strict_names=options.strict_names,
        prefix_states=options.prefix_states,
    )
    for task in tasks:
        results.invalid_tasks += validate_task(task, truth)
    done: dict[tuple[str, str, str], TaskRun] = {}
    if options.resume:
        done = {r.key(): r for r in read_jsonl(options.out / "results.jsonl")}
    elif (options.out / "results.jsonl").exists():
        (options.out / "results.jsonl").unlink()
    writer = BenchWriter(options.out, results)
    results.runs = []
    total = len(models) * len(options.strategies) * len(tasks)
    bar = tqdm(
        total=total, desc="bench", unit="task", file=sys.stderr, disable=not options.progress, dynamic_ncols=True
    )
    passed = 0
    try:
        for model in models:
            agent: EdgeAgent | None = None
            for strategy in options.strategies:
                for task in tasks:
                    bar.set_description(f"{model}/{strategy} {task.id}")
                    previous = done.get((model, strategy, task.id))
                    if previous is not None:
                        results.runs.append(previous)
                        passed += previous.checker_final
                        bar.update(1)
                        continue
                    if agent is None:
                        agent = make_agent(settings, make_llm(model))
                        results.warmup[model] = warm_up(agent)
                    run_id = f"{slug(model, 24)}-{strategy}-{slug(task.id, 32)}-{uuid.uuid4().hex[:6]}"
                    result = agent.ask(
                        task.question,
                        now=task.now.isoformat(),
                        strategy=strategy,
                        run_id=run_id,
                        max_steps=options.max_steps,
                        max_trials=options.max_trials,
                    )
                    files = load_files(settings.files_dir / run_id)
                    run = evaluate(task, result, files, truth, model, strict_names=options.strict_names)
                    writer.add(run, result)
                    passed += run.checker_final
                    bar.update(1)
                    bar.set_postfix(passed=f"{passed}/{bar.n}")
    except KeyboardInterrupt:
        results.interrupted = True
    finally:
        bar.close()
        results.finished = datetime.now(UTC).isoformat(timespec="seconds")
        writer.save()
    return results
