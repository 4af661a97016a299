"""Checks of the figures and rows an answer gives from histories: `file` (a result file's rows), `value` (an
aggregate of one series or of a derived one) and `energy` (kWh of a power sensor)."""

from __future__ import annotations

from pydantic import AwareDatetime, Field, field_validator, model_validator

from edge_agent.evaluation.tasks.base import Aggregate, DeriveOp, SeriesSpec, Spec, one_or_many, start_before_end


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
        return one_or_many(v)

    @property
    def sensors(self) -> list[str]:
        return [self.sensor] if isinstance(self.sensor, str) else list(self.sensor)

    _range = model_validator(mode="after")(start_before_end)  # (its own fields first: no PeriodSpec)


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


class EnergyCheck(SeriesSpec):
    """A number in the answer equals the energy (kWh) of a power sensor over [start, end): the
    trapezoidal integral over the samples' own timestamps, gaps (> 3 × spacing) not integrated."""

    rel_tol: float = Field(0.005, ge=0)
    abs_tol: float = Field(0.01, ge=0)
