"""`Expect`: the checks a task lists, one field per kind of check, every one of which must pass; with the two checks
of how a run ended — `refuses` (the gateway declined) and `partial` (what it established, itself checked by the
kinds of `Expect`)."""

from __future__ import annotations

from typing import Literal

from pydantic import Field, field_validator, model_validator

from edge_agent.evaluation.tasks.base import Spec, Words, one_or_many
from edge_agent.evaluation.tasks.catalog_checks import CountCheck, ListCheck, MissingCheck, NotRecordedCheck
from edge_agent.evaluation.tasks.conclusion_checks import (
    DurationCheck,
    PeriodsCheck,
    RanksCheck,
    TimeOfExtremeCheck,
    YesNoCheck,
)
from edge_agent.evaluation.tasks.figure_checks import EnergyCheck, FileCheck, ValueCheck


class RefusesCheck(Spec):
    """The answer says it cannot / only reads, claims no action, and the run made no data tool call.

    `reason: forecast` — the answer says the gateway reads recorded data and does not forecast, and states no
    figure; `allow_data` — a mixed request (data + an operation): its data part may read data."""

    must_name: Words = Field(default_factory=list, description="names the refusal must mention")
    reason: Literal["control", "forecast", "outside", "injection"] | None = None
    allow_data: bool = False


class PartialCheck(Spec):
    """The run's final status is `partial`, and what it says it established passes `established` (checks of the
    same kinds as `expect`, e.g. the data part's value)."""

    established: Expect | None = None


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
        return one_or_many(v)

    @model_validator(mode="after")
    def _not_empty(self):
        if not any(getattr(self, name) for name in type(self).model_fields):
            raise ValueError("expect needs at least one check")
        return self

    def kinds(self) -> list[str]:
        return [name for name in type(self).model_fields if getattr(self, name)]


PartialCheck.model_rebuild()
