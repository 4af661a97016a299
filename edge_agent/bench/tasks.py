"""The benchmark task file: pydantic models for `bench/tasks/*.yaml` and the loader.

A task is a question, the clock the agent sees (`now`), tags, and `expect`: one or more
machine-checkable expectations. Expected rows, values and counts are never written into the
file; the checker computes them from the SkySpark the run used (see `checker/`), so one task
file works on the simulator, an operator's dataset or a real SkySpark. Every check listed in a
task must pass for the task to count as completed.

It stays one module though it is long: it is one schema whose models refer to each other (`Expect` holds every
kind of check), read top to bottom by a task file's author as the file's reference.
"""

from __future__ import annotations

from pathlib import Path
from typing import Literal

from pydantic import AwareDatetime, BaseModel, ConfigDict, Field, ValidationError, field_validator, model_validator

from edge_agent.config import read_yaml_mapping

Aggregate = Literal["max", "min", "mean", "sum", "first", "last", "at", "energy"]
RankBy = Literal["max", "min", "mean", "energy"]
DeriveOp = Literal["difference", "sum", "ratio"]
EntityKind = Literal["sites", "assets", "sensors"]


class TaskFileError(ValueError):
    """A task file cannot be read or does not match the format; the message names file and task."""


class Spec(BaseModel):
    model_config = ConfigDict(extra="forbid")


def _one_or_many(value):
    return value if value is None or isinstance(value, list) else [value]


class FileCheck(Spec):
    """A produced JSON file holds exactly the history rows of these assets / sensor(s) / range.

    The range is start-inclusive and end-exclusive, as SkySpark's hisRead. With `single_file`
    (the default) one file must hold all rows; otherwise files that each hold only expected rows
    may together cover them (e.g. one file per chiller).
    """

    site: str
    assets: list[str] = Field(..., min_length=1)
    sensor: str | list[str]
    start: AwareDatetime
    end: AwareDatetime
    single_file: bool = True
    named_in_answer: bool = Field(False, description="the answer must also name the file")
    value_tol: float = Field(1e-3, ge=0, description="absolute tolerance for each row's value")

    @field_validator("assets", mode="before")
    @classmethod
    def _assets(cls, v):
        return _one_or_many(v)

    @property
    def sensors(self) -> list[str]:
        return [self.sensor] if isinstance(self.sensor, str) else list(self.sensor)

    @model_validator(mode="after")
    def _range(self):
        if self.start >= self.end:
            raise ValueError("start must be before end")
        return self


class SeriesRef(Spec):
    """One series of a derived value: an asset's sensor (the site is the check's)."""

    asset: str
    sensor: str


class ValueCheck(Spec):
    """A number in the answer equals an aggregate of one sensor's history, or of a derived series.

    Interval: `start`/`end` with aggregate max/min/mean/sum/first/last. Point in time:
    `aggregate: at` with `at` (the sample at that instant, or the latest one before it within
    `at_window_minutes`). Derived: `derive` (difference/sum/ratio) of `a` and `b` (each
    {asset, sensor}), aligned on identical timestamps, with `aggregate` (or `stat`) mean/max/min.
    `aggregate: energy` of a power sensor is the `energy` check (kWh, trapezoid, gaps not integrated).
    """

    site: str
    asset: str | None = None
    sensor: str | None = None
    derive: DeriveOp | None = None
    a: SeriesRef | None = None
    b: SeriesRef | None = None
    aggregate: Aggregate
    start: AwareDatetime | None = None
    end: AwareDatetime | None = None
    at: AwareDatetime | None = None
    at_window_minutes: int = Field(60, ge=0)
    rel_tol: float = Field(0.005, ge=0)
    abs_tol: float = Field(0.01, ge=0)

    @model_validator(mode="before")
    @classmethod
    def _stat(cls, data):
        if isinstance(data, dict) and "stat" in data:
            data = dict(data)
            stat = data.pop("stat")
            if data.setdefault("aggregate", stat) != stat:
                raise ValueError("give `stat` or `aggregate`, not both")
        return data

    @model_validator(mode="after")
    def _shape(self):
        if self.derive is not None:
            if self.a is None or self.b is None or self.asset is not None or self.sensor is not None:
                raise ValueError("a derived value takes `a` and `b` ({asset, sensor}) and no asset/sensor")
            if self.aggregate not in ("mean", "max", "min"):
                raise ValueError("a derived value's aggregate is mean, max or min")
            if (self.a.asset, self.a.sensor) == (self.b.asset, self.b.sensor):
                raise ValueError("a derived value needs two different series")
        elif self.asset is None or self.sensor is None or self.a is not None or self.b is not None:
            raise ValueError("a value takes `asset` and `sensor` (or `derive` with `a` and `b`)")
        if self.aggregate == "at":
            if self.at is None or self.start is not None or self.end is not None:
                raise ValueError("aggregate 'at' takes `at` (an instant) and no start/end")
        else:
            if self.start is None or self.end is None or self.at is not None:
                raise ValueError(f"aggregate {self.aggregate!r} takes `start` and `end` and no `at`")
            if self.start >= self.end:
                raise ValueError("start must be before end")
        return self


class _Period(Spec):
    start: AwareDatetime
    end: AwareDatetime

    @model_validator(mode="after")
    def _range(self):
        if self.start >= self.end:
            raise ValueError("start must be before end")
        return self


class EnergyCheck(_Period):
    """A number in the answer equals the energy (kWh) of a power sensor over [start, end): the
    trapezoidal integral over the samples' own timestamps, gaps (> 3 × spacing) not integrated."""

    site: str
    asset: str
    sensor: str
    rel_tol: float = Field(0.005, ge=0)
    abs_tol: float = Field(0.01, ge=0)


class RanksCheck(_Period):
    """The first of the compared assets that the answer names is the winner (any of tied winners).

    The compared assets: `assets` (a list), or every asset of the site with the sensor, narrowed to
    an equip marker (`kind`) and/or a name part (`name_contains`)."""

    site: str
    sensor: str
    assets: list[str] | None = None
    kind: str | None = None
    name_contains: str | None = None
    by: RankBy
    order: Literal["highest", "lowest"] = "highest"

    @model_validator(mode="after")
    def _compared(self):
        if self.assets is not None and (self.kind or self.name_contains):
            raise ValueError("give `assets` or `kind`/`name_contains`, not both")
        if self.assets is not None and len(set(self.assets)) < 2:
            raise ValueError("a ranking compares at least two assets")
        return self


class ExcursionSpec(_Period):
    """Was the asset's sensor ever strictly above (below) `limit`, or its `limit_sensor` (a setpoint
    of the same asset, aligned on identical timestamps)?"""

    site: str
    asset: str
    sensor: str
    direction: Literal["above", "below"]
    limit: float | None = None
    limit_sensor: str | None = None

    @model_validator(mode="after")
    def _limit(self):
        if (self.limit is None) == (self.limit_sensor is None):
            raise ValueError("give exactly one of `limit` (a number) and `limit_sensor`")
        return self


class ExistsSpec(Spec):
    """Is there an asset named `asset` at `site`, or (with `kind`, an equip marker) any asset of that kind?
    `noun`: the words the question uses for the kind ("cooling tower"), which a "No" must repeat."""

    site: str
    asset: str | None = None
    kind: str | None = None
    noun: list[str] = Field(default_factory=list)

    @field_validator("noun", mode="before")
    @classmethod
    def _nouns(cls, v):
        return _one_or_many(v) or []

    @model_validator(mode="after")
    def _one(self):
        if (self.asset is None) == (self.kind is None):
            raise ValueError("exists takes exactly one of `asset` and `kind`")
        return self


class YesNoCheck(Spec):
    """The answer's first word is Yes or No, as the truth of `excursion` or `exists` says; and the answer is about
    what was asked: an excursion's answer names its asset and sensor, and every date it states lies in the task's
    window; an existence answer names the asset (or, for a kind, an asset of that kind or the kind's words)."""

    excursion: ExcursionSpec | None = None
    exists: ExistsSpec | None = None

    @model_validator(mode="after")
    def _one(self):
        if (self.excursion is None) == (self.exists is None):
            raise ValueError("yes_no takes exactly one of `excursion` and `exists`")
        return self


class LimitSpec(_Period):
    """One series against a limit: a number (`limit`) or a setpoint sensor of the same asset (`limit_sensor`)."""

    site: str
    asset: str
    sensor: str
    direction: Literal["above", "below"]
    limit: float | None = None
    limit_sensor: str | None = None

    @model_validator(mode="after")
    def _limit(self):
        if (self.limit is None) == (self.limit_sensor is None):
            raise ValueError("give exactly one of `limit` (a number) and `limit_sensor`")
        return self


class DurationCheck(LimitSpec):
    """How long the series was strictly above (below) the limit in [start, end): the answer states the hours
    (samples past the limit × the series' spacing; minutes when it says "min") or the share of the compared
    samples in % — within one spacing (hours) or `share_tol` percentage points. "never" passes a zero."""

    share_tol: float = Field(1.0, ge=0, description="percentage points")
    rel_tol: float = Field(0.02, ge=0)


class PeriodRef(_Period):
    """One period of a comparison, and the words an answer may name it by (besides its first date)."""

    labels: list[str] = Field(default_factory=list)

    @field_validator("labels", mode="before")
    @classmethod
    def _labels(cls, v):
        return _one_or_many(v) or []


class PeriodsCheck(Spec):
    """Two periods of one series compared by a statistic: of the two, the one the answer names first is the one
    with the `order` value (its first date in any common form, or one of its `labels`); with `figures` the
    answer also states both periods' values."""

    site: str
    asset: str
    sensor: str
    by: RankBy
    order: Literal["highest", "lowest"] = "highest"
    first: PeriodRef
    second: PeriodRef
    figures: bool = False
    rel_tol: float = Field(0.005, ge=0)
    abs_tol: float = Field(0.01, ge=0)


class TimeOfExtremeCheck(_Period):
    """When the series reached its max (min) in [start, end): the answer states that site-local time (an ISO
    date-time, or a clock time with the date when the window is longer than a day) within `tolerance_minutes`
    (default: the series' sample spacing) of an instant holding the extreme."""

    site: str
    asset: str
    sensor: str
    extreme: Literal["max", "min"]
    tolerance_minutes: float | None = Field(None, ge=0)


class NotRecordedCheck(Spec):
    """The answer says the SkySpark does not hold `attribute` (manufacturer, model, rating, install date …),
    names it (or one of `words`), and claims no value for it. With `site`/`asset` the checker confirms the asset
    exists and carries none of `tags` (so the task cannot go stale)."""

    attribute: str = Field(..., min_length=2)
    words: list[str] = Field(default_factory=list)
    site: str | None = None
    asset: str | None = None
    tags: list[str] = Field(default_factory=list)

    @field_validator("words", "tags", mode="before")
    @classmethod
    def _lists(cls, v):
        return _one_or_many(v) or []


class PartialCheck(Spec):
    """The run's final status is `partial`, and what it says it established passes `established` (checks of the
    same kinds as `expect`, e.g. the data part's value)."""

    established: Expect | None = None


class RefusesCheck(Spec):
    """The answer says it cannot / only reads, claims no action, and the run made no data tool call.

    `reason: forecast` — the answer says the gateway reads recorded data and does not forecast, and states no
    figure; `allow_data` — a mixed request (data + an operation): its data part may read data."""

    must_name: list[str] = Field(default_factory=list, description="names the refusal must mention")
    reason: Literal["control", "forecast", "outside", "injection"] | None = None
    allow_data: bool = False

    @field_validator("must_name", mode="before")
    @classmethod
    def _names(cls, v):
        return _one_or_many(v) or []


class EntityQuery(Spec):
    """Names the SkySpark lists: all sites, a site's assets, or an asset's sensors, optionally
    only those whose name contains `name_contains` (case-insensitive)."""

    of: EntityKind
    site: str | None = None
    asset: str | None = None
    name_contains: str | None = None
    kind: str | None = Field(None, description="assets only: those carrying this equip marker (e.g. crac)")
    noun: list[str] = Field(default_factory=list, description="count: the words that name what is counted")

    @field_validator("noun", mode="before")
    @classmethod
    def _nouns(cls, v):
        return _one_or_many(v) or []

    @model_validator(mode="after")
    def _scope(self):
        if self.kind and self.of != "assets":
            raise ValueError("`kind` narrows assets only")
        if self.of in ("assets", "sensors") and not self.site:
            raise ValueError(f"listing {self.of} needs `site`")
        if self.of == "sensors" and not self.asset:
            raise ValueError("listing sensors needs `asset`")
        return self


class CountCheck(EntityQuery):
    """The answer states how many entities there are (e.g. the sensors of an asset), the number bound to what is
    counted: "5 chillers", "five", "Found 5 chiller assets", "there are 5" — not a digit inside a name or a date.
    The counted nouns: the generic ones of `of` (sites; assets, equipment, units; sensors, points), the name part
    `name_contains`, the `kind` marker and the words in `noun`."""


class ListCheck(EntityQuery):
    """The answer names (at least `min_fraction` of) the entities the SkySpark lists."""

    min_fraction: float = Field(1.0, gt=0, le=1)


class MissingCheck(Spec):
    """The answer says that `name` does not exist. With `kind` (and `site`/`asset`) the checker also
    confirms against the SkySpark that it really is missing, so a task cannot silently go stale."""

    name: str = Field(..., min_length=1)
    kind: Literal["site", "asset", "sensor"] | None = None
    site: str | None = None
    asset: str | None = None
    must_name: bool = Field(True, description="the answer must mention the missing name")


class Expect(Spec):
    answer_mentions_all: list[str] | None = None
    answer_mentions_any: list[str] | None = None
    answer_lists: ListCheck | None = None
    answer_says_missing: MissingCheck | None = None
    file: list[FileCheck] | None = None
    value: list[ValueCheck] | None = None
    count: list[CountCheck] | None = None
    energy: list[EnergyCheck] | None = None
    ranks: RanksCheck | None = None
    yes_no: YesNoCheck | None = None
    refuses: RefusesCheck | None = None
    duration: DurationCheck | None = None
    periods: PeriodsCheck | None = None
    time_of_extreme: TimeOfExtremeCheck | None = None
    not_recorded: NotRecordedCheck | None = None
    partial: PartialCheck | None = None

    @field_validator("refuses", "partial", mode="before")
    @classmethod
    def _refuses(cls, v):
        return {} if v is True else v

    @field_validator("not_recorded", mode="before")
    @classmethod
    def _attribute(cls, v):
        return {"attribute": v} if isinstance(v, str) else v

    @field_validator("answer_says_missing", mode="before")
    @classmethod
    def _missing(cls, v):
        return {"name": v} if isinstance(v, str) else v

    @field_validator("file", "value", "count", "energy", "answer_mentions_all", "answer_mentions_any", mode="before")
    @classmethod
    def _listify(cls, v):
        return _one_or_many(v)

    @model_validator(mode="after")
    def _not_empty(self):
        if not any(getattr(self, name) for name in type(self).model_fields):
            raise ValueError("expect needs at least one check")
        return self

    def kinds(self) -> list[str]:
        return [name for name in type(self).model_fields if getattr(self, name)]


PartialCheck.model_rebuild()


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
