"""The benchmark task file: pydantic models for `bench/tasks/*.yaml` and the loader.

A task is a question, the clock the agent sees (`now`), tags, and `expect`: one or more
machine-checkable expectations. Expected rows, values and counts are never written into the
file; the checker computes them from the SkySpark the run used (see `checker/`), so one task
file works on the simulator, an operator's dataset or a real SkySpark. Every check listed in a
task must pass for the task to count as completed.

Read top to bottom by a task file's author as the file's reference:

  `taskfile`           the file and its tasks (`Task`, `TaskFile`), `parse_tasks`, `load_tasks`
  `expect`             `Expect`: one field per kind of check; `refuses` and `partial` (how the run ended)
  `figure_checks`      `file`, `value`, `energy`: figures and rows read from histories
  `conclusion_checks`  `ranks`, `yes_no`, `duration`, `periods`, `time_of_extreme`: an answer's conclusion
  `catalog_checks`     `answer_lists`, `count`, `answer_says_missing`, `not_recorded`: what the SkySpark holds
  `base`               the strict base model, a period, a series over it, a list written as one item,
                       `TaskFileError`

Every name is importable from here (`from edge_agent.evaluation.tasks import Task, load_tasks`).
"""

from edge_agent.evaluation.tasks.base import (
    Aggregate,
    DeriveOp,
    EntityKind,
    PeriodSpec,
    RankBy,
    SeriesSpec,
    Spec,
    TaskFileError,
    Words,
)
from edge_agent.evaluation.tasks.catalog_checks import (
    CountCheck,
    EntityQuery,
    ListCheck,
    MissingCheck,
    NotRecordedCheck,
)
from edge_agent.evaluation.tasks.conclusion_checks import (
    DurationCheck,
    ExcursionSpec,
    ExistsSpec,
    LimitSpec,
    PeriodRef,
    PeriodsCheck,
    RanksCheck,
    TimeOfExtremeCheck,
    YesNoCheck,
)
from edge_agent.evaluation.tasks.expect import Expect, PartialCheck, RefusesCheck
from edge_agent.evaluation.tasks.figure_checks import EnergyCheck, FileCheck, SeriesRef, ValueCheck
from edge_agent.evaluation.tasks.taskfile import Task, TaskFile, load_tasks, parse_tasks

__all__ = [
    "Aggregate",
    "CountCheck",
    "DeriveOp",
    "DurationCheck",
    "EnergyCheck",
    "EntityKind",
    "EntityQuery",
    "ExcursionSpec",
    "ExistsSpec",
    "Expect",
    "FileCheck",
    "LimitSpec",
    "ListCheck",
    "MissingCheck",
    "NotRecordedCheck",
    "PartialCheck",
    "PeriodRef",
    "PeriodSpec",
    "PeriodsCheck",
    "RankBy",
    "RanksCheck",
    "RefusesCheck",
    "SeriesRef",
    "SeriesSpec",
    "Spec",
    "Task",
    "TaskFile",
    "TaskFileError",
    "TimeOfExtremeCheck",
    "ValueCheck",
    "Words",
    "YesNoCheck",
    "load_tasks",
    "parse_tasks",
]
