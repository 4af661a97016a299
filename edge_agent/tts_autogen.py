"""Algorithm 2 of the paper: grow the Tiny Trajectory Store from the agent's own solved tasks.

    for round in 1..R:
        solve the unsolved tasks with the current store as examples (ReAct + Review)
        compact each solved (Accomplished) trajectory to ≤ 3 steps and add it to the store
        stop when the store holds `max_examples` or a round solved nothing

Compaction is done by code, not by the model: keep the successful tool / Self-Ask steps whose
results the answer (or a later kept step) uses — a file named in its Observation, traced backwards
from the Finish answer — then the steps just before them as context, at most two, then Finish.
Observations are shortened. Each stored trajectory carries its provenance (task id, model, round,
run id, strategy, date) in the state database (`tts_generated`).
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from pathlib import Path

import yaml
from pydantic import BaseModel, ConfigDict, Field, ValidationError

from edge_agent.agent.loops import signature
from edge_agent.agent.steps import one_line
from edge_agent.agent.trajectory import RunResult, StepRecord, Trial
from edge_agent.config import load_yaml
from edge_agent.trajectory_store import MAX_STEPS, TinyTrajectory, TrajectoryStore, TTSStep

OBSERVATION_CHARS = 300
_FILE_RE = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]*\.json\b")


class GenTaskFileError(ValueError):
    """A task file Algorithm 2 cannot use (`load_gen_tasks`); the message names the file (and the task)."""


class GenTask(BaseModel):
    """The fields Algorithm 2 needs from a benchmark task (`bench/tasks/*.yaml`); others are ignored."""

    model_config = ConfigDict(extra="ignore")

    id: str = Field(..., min_length=1)
    question: str = Field(..., min_length=1)
    now: str | None = None


class RoundReport(BaseModel):
    round: int
    examples_before: int
    attempted: int
    solved: list[str] = Field(default_factory=list)  # task ids
    added: list[str] = Field(default_factory=list)  # trajectory ids
    run_ids: dict[str, str] = Field(default_factory=dict)  # task id -> run id


def load_gen_tasks(path: Path) -> list[GenTask]:
    """`tasks: [{id, question, now, ...}]` (or a bare list) from a YAML file."""
    path = Path(path)
    try:
        data = load_yaml(path.read_text(encoding="utf-8"))
    except (OSError, yaml.YAMLError) as exc:
        raise GenTaskFileError(f"{path}: cannot read: {exc}") from None
    items = data.get("tasks") if isinstance(data, dict) else data
    if not isinstance(items, list) or not items:
        raise GenTaskFileError(f"{path}: expected a non-empty list under 'tasks'")
    tasks = []
    for n, item in enumerate(items, start=1):
        try:
            task = GenTask.model_validate(item)
        except ValidationError as exc:
            first = exc.errors()[0]
            raise GenTaskFileError(f"{path}: task {n}: {'.'.join(map(str, first['loc']))}: {first['msg']}") from None
        if task.now is not None and not isinstance(task.now, str):
            task.now = str(task.now)
        tasks.append(task)
    ids = [t.id for t in tasks]
    dupes = sorted({i for i in ids if ids.count(i) > 1})
    if dupes:
        raise GenTaskFileError(f"{path}: duplicate task ids: {', '.join(dupes)}")
    return tasks


def solved_trial(result: RunResult) -> Trial | None:
    """The trial the run was accepted on: reviewed Accomplished (or finished, for a strategy without review)."""
    for trial in result.trials:
        if trial.answer and (trial.review.status == "Accomplished" if trial.review else trial.outcome == "finished"):
            return trial
    return None


def compact(trial: Trial, question: str, limit: int = MAX_STEPS) -> TinyTrajectory | None:
    """A solved trial as a trajectory of at most `limit` steps ending in Finish (None if it has no answer)."""
    finish = next((s for s in trial.steps if s.kind == "finish"), None)
    if finish is None or not trial.answer:
        return None
    work: list[StepRecord] = []
    for s in trial.steps:
        if s.kind in ("tool", "self_ask") and s.ok and s.action:
            sig = signature(s.action, s.action_input)
            work = [w for w in work if signature(w.action, w.action_input) != sig] + [s]
    room = limit - 1
    needed: list[StepRecord] = []
    refs = trial.answer
    for s in reversed(work):
        produced = _FILE_RE.findall(s.observation or "")
        if any(name in refs for name in produced):
            needed.insert(0, s)
            refs += " " + json.dumps(s.action_input)
    if not needed and work:
        needed = [work[-1]]
    needed = needed[-room:] if room > 0 else []
    if needed and len(needed) < room:
        first = work.index(needed[0])
        context = [s for s in work[:first] if s not in needed][-(room - len(needed)) :]
        needed = context + needed
    steps = [
        TTSStep(
            thought=one_line(s.thought or f"I call {s.action}.", 400),
            action=s.action,
            action_input=s.action_input if isinstance(s.action_input, dict) else {},
            observation=one_line(s.observation, OBSERVATION_CHARS),
        )
        for s in needed
    ]
    steps.append(
        TTSStep(
            thought=one_line(finish.thought or "I have the answer.", 400),
            action=finish.action,
            action_input={"answer": trial.answer},
        )
    )
    return TinyTrajectory(question=question, steps=steps, teaches="generated from a solved task")


def generate(
    agent,
    tasks: list[GenTask],
    store: TrajectoryStore,
    *,
    rounds: int = 5,
    max_examples: int = 17,
    strategy: str = "react-review",
    max_trials: int = 2,
    max_steps: int | None = None,
    on_result: Callable[[int, GenTask, RunResult], None] | None = None,
) -> list[RoundReport]:
    """Run Algorithm 2 with `agent` (an EdgeAgent whose examples come from `store`)."""
    store.grouped = True  # Algorithm 2 is about examples: shown by group whatever `agent.examples` says
    agent.trajectory_store = store
    unsolved = list(tasks)
    reports: list[RoundReport] = []
    generated = lambda: sum(1 for t in store.all() if t.category == "generated")  # noqa: E731
    for number in range(1, rounds + 1):
        report = RoundReport(round=number, examples_before=len(store), attempted=len(unsolved))
        found: list[tuple[GenTask, RunResult, Trial]] = []
        for task in unsolved:
            result = agent.ask(
                task.question,
                now=task.now,
                strategy=strategy,
                max_trials=max_trials,
                max_steps=max_steps,
                distill=False,
            )
            report.run_ids[task.id] = result.run_id
            if on_result is not None:
                on_result(number, task, result)
            trial = solved_trial(result)
            if trial is not None:
                found.append((task, result, trial))
        for task, result, trial in found:  # examples of this round are used from the next round on
            report.solved.append(task.id)
            traj = compact(trial, task.question)
            if traj is None or generated() >= max_examples:
                continue
            stored = store.add_generated(
                traj,
                {
                    "task_id": task.id,
                    "model": result.model,
                    "round": number,
                    "run_id": result.run_id,
                    "strategy": strategy,
                },
            )
            report.added.append(stored.id)
        solved_ids = set(report.solved)
        unsolved = [t for t in unsolved if t.id not in solved_ids]
        reports.append(report)
        if generated() >= max_examples or not report.solved or not unsolved:
            break
    return reports
