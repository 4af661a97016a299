"""Checks of an answer's conclusion: `ranks` (which asset wins), `yes_no` (an excursion or whether a thing exists),
`duration` (how long past a limit), `periods` (which of two periods) and `time_of_extreme` (when the max or min was
reached)."""

from __future__ import annotations

from typing import Literal

from pydantic import Field, model_validator

from edge_agent.evaluation.tasks.base import PeriodSpec, RankBy, SeriesSpec, Spec, Words, exactly_one


class RanksCheck(PeriodSpec):
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


class LimitSpec(SeriesSpec):
    """One series against a limit: a number (`limit`) or a setpoint sensor of the same asset (`limit_sensor`)."""

    direction: Literal["above", "below"]
    limit: float | None = None
    limit_sensor: str | None = None

    _limit = exactly_one("limit", "limit_sensor", "give exactly one of `limit` (a number) and `limit_sensor`")


class ExcursionSpec(LimitSpec):
    """Was the asset's sensor ever strictly above (below) `limit`, or its `limit_sensor` (a setpoint
    of the same asset, aligned on identical timestamps)?"""


class ExistsSpec(Spec):
    """Is there an asset named `asset` at `site`, or (with `kind`, an equip marker) any asset of that kind?
    `noun`: the words the question uses for the kind ("cooling tower"), which a "No" must repeat."""

    site: str
    asset: str | None = None
    kind: str | None = None
    noun: Words = Field(default_factory=list)

    _one = exactly_one("asset", "kind", "exists takes exactly one of `asset` and `kind`")


class YesNoCheck(Spec):
    """The answer's first word is Yes or No, as the truth of `excursion` or `exists` says; and the answer is about
    what was asked: an excursion's answer names its asset and sensor, and every date it states lies in the task's
    window; an existence answer names the asset (or, for a kind, an asset of that kind or the kind's words)."""

    excursion: ExcursionSpec | None = None
    exists: ExistsSpec | None = None

    _one = exactly_one("excursion", "exists", "yes_no takes exactly one of `excursion` and `exists`")


class DurationCheck(LimitSpec):
    """How long the series was strictly above (below) the limit in [start, end): the answer states the hours
    (samples past the limit × the series' spacing; minutes when it says "min") or the share of the compared
    samples in % — within one spacing (hours) or `share_tol` percentage points. "never" passes a zero."""

    share_tol: float = Field(1.0, ge=0, description="percentage points")
    rel_tol: float = Field(0.02, ge=0)


class PeriodRef(PeriodSpec):
    """One period of a comparison, and the words an answer may name it by (besides its first date)."""

    labels: Words = Field(default_factory=list)


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


class TimeOfExtremeCheck(SeriesSpec):
    """When the series reached its max (min) in [start, end): the answer states that site-local time (an ISO
    date-time, or a clock time with the date when the window is longer than a day) within `tolerance_minutes`
    (default: the series' sample spacing) of an instant holding the extreme."""

    extreme: Literal["max", "min"]
    tolerance_minutes: float | None = Field(None, ge=0)
