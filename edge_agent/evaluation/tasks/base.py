"""What every part of a task file's schema shares: the strict base model, a period's validation, one series over a
period, a list that may be written as one item, the kinds of aggregate, and the error a bad file raises."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import AwareDatetime, BaseModel, BeforeValidator, ConfigDict, model_validator

Aggregate = Literal["max", "min", "mean", "sum", "first", "last", "at", "energy"]
RankBy = Literal["max", "min", "mean", "energy"]
DeriveOp = Literal["difference", "sum", "ratio"]
EntityKind = Literal["sites", "assets", "sensors"]


class TaskFileError(ValueError):
    """A task file cannot be read or does not match the format; the message names file and task."""


class Spec(BaseModel):
    model_config = ConfigDict(extra="forbid")


def one_or_many(value: Any) -> Any:
    """A list as written, or one item as a list of one (None stays None)."""
    return value if value is None or isinstance(value, list) else [value]


#: words a task lists (names, nouns, labels): a list, or one word as a list of one; none written is an empty list
Words = Annotated[list[str], BeforeValidator(lambda v: one_or_many(v) or [])]


def start_before_end(spec: Any) -> Any:
    """A period's check (`model_validator(mode="after")`): its start comes before its end."""
    if spec.start >= spec.end:
        raise ValueError("start must be before end")
    return spec


def exactly_one(first: str, second: str, message: str) -> Any:
    """A model's check (a `model_validator(mode="after")`, assigned in its class): exactly one of the fields `first`
    and `second` is given; else `message`."""

    def check(spec: Any) -> Any:
        if (getattr(spec, first) is None) == (getattr(spec, second) is None):
            raise ValueError(message)
        return spec

    return model_validator(mode="after")(check)


class PeriodSpec(Spec):
    """A check over the period [start, end): start-inclusive and end-exclusive, as SkySpark's hisRead."""

    start: AwareDatetime
    end: AwareDatetime

    _range = model_validator(mode="after")(start_before_end)


class SeriesSpec(PeriodSpec):
    """One series over the period: a sensor of an asset at a site."""

    site: str
    asset: str
    sensor: str
