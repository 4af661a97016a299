"""A task file (`bench/tasks/*.yaml`): its tasks — each a question, the clock the agent sees, tags and `expect` —
with defaults copied into every task; read and validated, a bad file named with its first errors."""

from __future__ import annotations

from pathlib import Path

from pydantic import AwareDatetime, Field, ValidationError, model_validator

from edge_agent.config import read_yaml_mapping
from edge_agent.evaluation.tasks.base import Spec, TaskFileError
from edge_agent.evaluation.tasks.expect import Expect


class Task(Spec):
    id: str = Field(..., pattern=r"^[A-Za-z0-9][A-Za-z0-9_.-]*$")
    question: str = Field(..., min_length=3)
    now: AwareDatetime = Field(..., description="the clock the agent sees")
    tags: list[str] = Field(default_factory=list)
    expect: Expect
    notes: str = ""


class TaskFile(Spec):
    name: str = ""
    description: str = ""
    dataset: str = Field(
        "",
        description="the simulator dataset the tasks are written for (a built-in plant's name "
        "or a records file); `bench` serves it when no --skyspark is given",
    )
    defaults: dict = Field(default_factory=dict, description="keys copied into every task that lacks them")
    tasks: list[Task] = Field(..., min_length=1)

    @model_validator(mode="before")
    @classmethod
    def _defaults(cls, data):
        if isinstance(data, dict) and isinstance(data.get("defaults"), dict) and isinstance(data.get("tasks"), list):
            data = dict(data)
            data["tasks"] = [({**data["defaults"], **t} if isinstance(t, dict) else t) for t in data["tasks"]]
        return data

    @model_validator(mode="after")
    def _unique(self):
        seen: set[str] = set()
        for task in self.tasks:
            if task.id in seen:
                raise ValueError(f"task id {task.id!r} is used twice")
            seen.add(task.id)
        return self


def parse_tasks(data: object, source: str = "<tasks>") -> TaskFile:
    try:
        return TaskFile.model_validate(data)
    except ValidationError as exc:
        lines = []
        tasks = data.get("tasks") if isinstance(data, dict) else None
        for err in exc.errors()[:5]:
            loc = list(err["loc"])
            where = ".".join(str(p) for p in loc)
            if len(loc) >= 2 and loc[0] == "tasks" and isinstance(loc[1], int) and isinstance(tasks, list):
                item = tasks[loc[1]] if loc[1] < len(tasks) else None
                if isinstance(item, dict) and "id" in item:
                    where += f" (task {item['id']})"
            lines.append(f"{where}: {err['msg']}")
        more = f"\n  … and {exc.error_count() - 5} more" if exc.error_count() > 5 else ""
        raise TaskFileError(f"{source}: invalid task file:\n  " + "\n  ".join(lines) + more) from None


def load_tasks(path: Path | str) -> TaskFile:
    """Read and validate a task file; any problem raises TaskFileError naming the file."""
    path = Path(path)
    data = read_yaml_mapping(path, TaskFileError, "task file", "a mapping with a `tasks` list")
    return parse_tasks(data, str(path))
