"""What the analysis tools share: the period and the samples they read, the aggregate they compare, and the words
and file of their result.

A period is read in the site's time zone and must be a span, not an instant; the samples are read one `hisRead` per
call as `histories` makes. The aggregate compared is the one asked, except for a meter's running totals (compared
by their rise) and the amount a rate adds up to (`compared_by`). Every result is saved as a JSON file and said in a
head that names the file (`said`).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime
from typing import Any
from zoneinfo import ZoneInfo

from edge_agent import analysis as an
from edge_agent.grounding import fieldvocab
from edge_agent.grounding.measures import counted_unit
from edge_agent.skyspark.access import client_of, max_days, reading
from edge_agent.skyspark.window import parse_window
from edge_agent.toolkit import Said, Tool, ToolContext, ToolError, tool

#: an aggregate in words, as a head says it
LABEL = {
    "max": "maximum",
    "min": "minimum",
    "mean": "mean",
    "median": "median",
    "energy": "energy",
    "rise": "rise",
    "amount": "total",
}
#: how a register's rise and a rate's amount are said: (what, why)
COUNTED = {
    "rise": ("rise of", "a running total: what it counted in the period"),
    "amount": ("total", "its rate summed over the period"),
}


@dataclass(frozen=True)
class Period:
    """The span an analysis reads: [start, end) in the site's time zone."""

    start: datetime
    end: datetime


def analysis_tool(name: str, description: str) -> Callable[[Callable], Tool]:
    """`toolkit.tool` as every analysis tool is declared: it needs the question's period and its head answers it."""
    return tool(name, description, needs=("period",), answers=True)


def period_read(ctx: ToolContext, site: str, start: str, final: str) -> tuple[Any, Period]:
    """The run's SkySpark client and the period [start, final) in the site's time zone: a span, not an instant."""
    client = client_of(ctx)
    with reading():
        tz = ZoneInfo(client.site(site).tz)
        window = parse_window(start, final, tz, max_days(ctx))
    if window.end is None:  # (`Window.is_point`)
        raise ToolError("an analysis needs a period (start and final), not one instant")
    return client, Period(window.start, window.end)


def read_series(
    client: Any, site: str, assets: list[str], sensor: str, window: Period
) -> dict[str, tuple[list[an.Point], str | None, str]]:
    """asset → (its numeric series, unit, the sensor's full name), one hisRead per call as `histories` makes."""
    with reading():
        rows = client.history(site, assets, sensor, window.start, window.end)
    out: dict[str, list] = {a: [] for a in assets}
    units: dict[str, str | None] = {}
    names: dict[str, str] = {}
    for r in rows:
        out.setdefault(r.asset_name, []).append((datetime.fromisoformat(r.timestamp), r.value))
        units.setdefault(r.asset_name, r.unit)
        names.setdefault(r.asset_name, r.sensor_name)
    return {a: (an.series(s), units.get(a), names.get(a, sensor)) for a, s in out.items()}


def compared_by(by: str, unit: str | None, series: list[list[an.Point]]) -> str:
    """The aggregate that compares these series: `by`, except for a meter's running totals (a register in a unit that
    adds up: kWh, m³, kg), which compare by their rise over each period whatever statistic was asked (the mean of a
    register's readings, or its maximum, is not what the period used or made)."""
    quantity = fieldvocab.quantity_of_unit(unit)
    counted = [pts for pts in series if pts]
    if quantity is not None and quantity.summable and counted:
        if all(an.is_running_total([p.value for p in pts]) for pts in counted):
            return "rise"
    if by == "energy" and not an.is_power(unit):  # "burned more gas", "used more steam": a flow's amount
        if counted_unit(unit):
            return "amount"
        raise ToolError(
            f"energy (an amount used) is only computed from power (W, kW, MW), a rate of a volume or a mass (m³/h, "
            f"t/h, cfh, gpm) or a register; the series is in {unit or 'no unit'}"
        )
    return by


def value_unit(how: str, unit: str | None) -> str | None:
    """The unit of an aggregate's value: kWh for an energy, the counted amount's for a rate's amount."""
    return "kWh" if how == "energy" else counted_unit(unit) if how == "amount" else unit


def span(window: Period) -> str:
    return f"from {window.start.isoformat()} to {window.end.isoformat()}"


def figure(value: float | None) -> str:
    """A figure of a series that has one (a winner's, an aggregate of samples): `analysis.fmt`."""
    if value is None:
        raise ToolError("no figure was computed")  # (never: callers pass the aggregate of samples they hold)
    return an.fmt(value)


def stat(points: list[an.Point], how: an.Aggregate) -> tuple[float, datetime | None]:
    """The aggregate of a series that has samples, and its time (`analysis.aggregate`)."""
    got = an.aggregate(points, how)
    if got is None:
        raise ToolError("no samples to aggregate")  # (never: callers check the series has samples)
    return got


def when(at: datetime | None) -> str:
    return f" at {at.isoformat()[:16]}" if at is not None else ""


def unit_said(unit: str | None) -> str:
    return f" {unit}" if unit else ""


def said(ctx: ToolContext, head: str, data: dict, stem: str) -> Said:
    """The result saved as a JSON file, and the head that states it, naming the file (Observation and answer)."""
    name = ctx.files.write_json(data, stem)
    return Said(f"{head}; saved to {name}", answer=f"{head}; saved to {name}")
