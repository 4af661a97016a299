"""IoT tools over SkySpark: `sites`, `assets`, `sensors`, `histories`.

Each writes its full result as a JSON array to the file store and returns a short observation:
the count, the file name, as many names as fit in a couple of lines, and for a history over a
range the max and min (with their times), mean, sum (for power: the energy in kWh, never a sum) and count of each
series — the statistic the question asks for first ("highest", "average", "total") — so questions about a peak,
an average or a total are answered from the observation itself. Each also says (`Said.answer`) what a Finish answer
states of the call: the names it found, or each series' statistics and the file. Row formats (documented in
docs/skyspark.md):
  sites      {"site_name", "timezone"}
  assets     {"site_name", "asset_name", "asset_type"}
  sensors    {"site_name", "asset_name", "sensor_name", "short_name", "unit"}
  histories  {"site_name", "asset_name", "sensor_name", "timestamp", "value", "unit"}
Names are resolved by the client (exact, then ignoring case/spaces/underscores, else the closest
names are offered); a SkySpark error the model can act on becomes an error observation, never a crash, and
one it cannot (the server unreachable, the login refused: `edge_agent.failures`) ends the run (`reading`).
"""

from __future__ import annotations

import math
import re
from datetime import datetime, timedelta
from statistics import fmean, median
from zoneinfo import ZoneInfo

from pydantic import Field, field_validator

from edge_agent import analysis as an
from edge_agent.grounding import fieldvocab
from edge_agent.grounding.question import stated_first
from edge_agent.grounding.readas import GAP
from edge_agent.skyspark.access import client_of, max_days, reading
from edge_agent.skyspark.window import parse_window
from edge_agent.tabular import saved_as, series_stem
from edge_agent.toolkit import (
    ASSET_REF,
    FINAL_REF,
    SENSOR_REF,
    SITE_REF,
    START_REF,
    TYPE_REF,
    NoArgs,
    Said,
    ToolArgs,
    ToolContext,
    tool,
)

PREVIEW_CHARS = 200  # names shown in an observation: as many as fit in this many characters
PREVIEW_SERIES = 4  # values shown for a point in time
STATS_CHARS = 300  # per-series statistics of a range: as many series as fit in this many characters


class SiteArgs(ToolArgs):
    site_name: str = Field(..., description="a site name as listed by sites, e.g. POKMAIN", json_schema_extra=SITE_REF)


class AssetListArgs(SiteArgs):
    asset_type: str | None = Field(
        None, description="only assets of this kind (an equip marker such as chiller)", json_schema_extra=TYPE_REF
    )


class AssetArgs(ToolArgs):
    site_name: str = Field(..., description="a site name, e.g. POKMAIN", json_schema_extra=SITE_REF)
    asset_name: str = Field(
        ..., description="an asset name as listed by assets, e.g. Chiller 6", json_schema_extra=ASSET_REF
    )


class HistoryArgs(ToolArgs):
    site_name: str = Field(..., description="a site name, e.g. POKMAIN", json_schema_extra=SITE_REF)
    asset_names: list[str] = Field(
        ...,
        min_length=1,
        max_length=50,
        json_schema_extra=ASSET_REF,
        description='one or more asset names, e.g. ["Chiller 6", "Chiller 9"]',
    )
    sensor_name: str = Field(
        ..., description="a sensor name, full (Chiller 6 Tonnage) or short (Tonnage)", json_schema_extra=SENSOR_REF
    )
    start: str = Field(
        ...,
        description="ISO 8601 date or date-time; alone it asks for the value at that time",
        json_schema_extra=START_REF,
    )
    final: str | None = Field(
        None, description="ISO 8601 end of the range (exclusive); omit for one value", json_schema_extra=FINAL_REF
    )

    @field_validator("asset_names", mode="before")
    @classmethod
    def _one_name(cls, value):
        return [value] if isinstance(value, str) else value


def _fitting(parts: list[str], limit: int, sep: str = ", ", more: str = "more", whole: int = 0) -> str:
    """`a, b, ... (N more)`: the parts joined in order while they fit `limit` characters (at least one);
    all of them when no more than `whole` would be left out (never hide one or two behind "(1 more)")."""
    shown: list[str] = []
    for part in parts:
        if shown and len(sep.join(shown + [part])) > limit:
            break
        shown.append(part)
    if len(parts) - len(shown) <= whole:
        shown = list(parts)
    rest = len(parts) - len(shown)
    return sep.join(shown) + (f"{sep}... ({rest} {more})" if rest else "")


def _preview(names: list[str]) -> str:
    return _fitting(names, PREVIEW_CHARS, whole=2)


def _listing(head: str, names: list[str], file: str) -> Said:
    """ "found 5 chiller assets at POKMAIN: Chiller 3, … ; saved to F"; the answer is the part before the file."""
    found = f"{head}: {_preview(names)}"
    return Said(f"{found}; saved to {file}", answer=found)


@tool("sites", "List the sites (plants) that SkySpark knows.", provides=("site",))
def sites(args: NoArgs, ctx: ToolContext) -> Said:
    with reading():
        found = client_of(ctx).sites()
    rows = [{"site_name": s.name, "timezone": s.tz} for s in found]
    name = ctx.files.write_json(rows, "sites")
    return _listing(f"found {len(rows)} sites", [s.name for s in found], name)


@tool("assets", "List the assets (equipment) of one site.", provides=("asset",))
def assets(args: AssetListArgs, ctx: ToolContext) -> Said:
    with reading():
        found = client_of(ctx).assets(args.site_name)
    site = found[0].site_name if found else args.site_name
    kind = (args.asset_type or "").strip()
    if kind:
        found = [a for a in found if kind.casefold() in (t.casefold() for t in a.types)]
    rows = [
        {"site_name": a.site_name, "asset_name": a.name, "asset_type": a.types[0] if a.types else None} for a in found
    ]
    name = ctx.files.write_json(rows, f"assets_{site}{'_' + kind if kind else ''}")
    what = f"{kind} assets" if kind else "assets"
    return _listing(f"found {len(rows)} {what} at {site}", [a.name for a in found], name)


@tool("sensors", "List the sensors (points) of one asset at a site.", provides=("sensor",), needs=("asset",))
def sensors(args: AssetArgs, ctx: ToolContext) -> Said:
    with reading():
        found = client_of(ctx).sensors(args.site_name, args.asset_name)
    asset = found[0].asset_name if found else args.asset_name
    rows = [
        {
            "site_name": s.site_name,
            "asset_name": s.asset_name,
            "sensor_name": s.name,
            "short_name": s.short_name,
            "unit": s.unit,
        }
        for s in found
    ]
    name = ctx.files.write_json(rows, f"sensors_{asset}")
    return _listing(f"found {len(rows)} sensors on {asset}", [s.short_name for s in found], name)


@tool(
    "histories",
    "Read the recorded values of one sensor on one or more assets over a time range or at one time.",
    needs=("period",),
    answers=True,
)
def histories(args: HistoryArgs, ctx: ToolContext) -> Said:
    client = client_of(ctx)
    with reading():
        site = client.site(args.site_name)
        window = parse_window(args.start, args.final, ZoneInfo(site.tz), max_days(ctx))
        rows = client.history(site.name, args.asset_names, args.sensor_name, window.start, window.end)
    data = [r.model_dump() for r in rows]
    stem = series_stem("history", data) if data else f"history_{'_'.join(args.asset_names)}_{args.sensor_name}"
    name = saved_as(ctx, data, stem)
    sensors_seen = list(dict.fromkeys(r.sensor_name for r in rows))
    assets = ", ".join(args.asset_names)
    if window.is_point:
        when = window.start.isoformat()
        if not rows:
            return Said(
                f"no value of {args.sensor_name} at or before {when} (site time); the data may not cover "
                f"it. Saved an empty list to {name}",
                answer=f"no value of {args.sensor_name} of {assets} at or before {when} is recorded",
            )
        gapped = _in_a_gap(client, site.name, rows[:PREVIEW_SERIES], window.start)
        parts = "; ".join(
            f"{r.sensor_name} = {_fmt(r.value)}{_unit(r.unit)} (recorded {r.timestamp})"
            + (f", {GAP}: nothing was recorded between then and {when}" if r in gapped else "")
            for r in rows[:PREVIEW_SERIES]
        )
        said = "; ".join(
            f"no value of {r.sensor_name} of {r.asset_name} was recorded at {_readable(when)}, {GAP} (the last value "
            f"before it, {_fmt(r.value)}{_unit(r.unit)}, was recorded at {_readable(r.timestamp)})"
            if r in gapped
            else f"{r.sensor_name} was {_fmt(r.value)}{_unit(r.unit)} at {_readable(r.timestamp)}"
            for r in rows[:PREVIEW_SERIES]
        )
        return Said(f"value at {when}: {parts}; saved {len(rows)} rows to {name}", answer=f"{said}; saved to {name}")
    span = f"from {window.start.isoformat()} to {window.end.isoformat()} (end exclusive)"
    if not rows:
        return Said(
            f"no values of {args.sensor_name} {span}; the data may not cover that period. Saved an empty "
            f"list to {name}",
            answer=f"no values of {args.sensor_name} of {assets} are recorded {span}",
        )
    what = sensors_seen[0] if len(sensors_seen) == 1 else f"{len(sensors_seen)} series"
    order = _asked_first(ctx.question)
    stats = _series_stats(rows, order)
    return Said(
        f"{what} {_readable_period(window.start, window.end)} (site time), saved to {name}: {stats}",
        answer=f"{_said_series(rows, order, window, _unit_asked(ctx.question))}; saved to {name}",
    )


_STATS = ("max", "min", "mean", "sum")

#: how far before its last sample a point query reads to learn the series' spacing
SPACING_LOOKBACK = timedelta(hours=12)


def _in_a_gap(client, site: str, rows: list, at: datetime) -> list:
    """The rows of a point query whose sample is older than the history's gap rule allows: more than three times the
    series' spacing (the lower median interval of the samples before it) before the instant asked. Such a value is
    the last one before a gap, not the value at that instant."""
    out = []
    for r in rows:
        ts = datetime.fromisoformat(r.timestamp)
        if ts >= at:
            continue
        with reading():
            before = client.history(
                site, [r.asset_name], r.sensor_name, ts - SPACING_LOOKBACK, ts + timedelta(seconds=1)
            )
        times = sorted(datetime.fromisoformat(b.timestamp) for b in before)
        steps = sorted((b - a).total_seconds() for a, b in zip(times, times[1:]) if b > a)
        if steps and (at - ts).total_seconds() > 3 * steps[(len(steps) - 1) // 2]:
            out.append(r)
    return out


def _asked_first(question: str) -> tuple[str, ...]:
    """The statistics in the order to state them: the one the question asks for first (the forms table's
    `stated_first` cues: "avg", "in total", …)."""
    stat = stated_first(question or "")
    return _STATS if stat is None else (stat,) + tuple(s for s in _STATS if s != stat)


def _series_stats(rows: list, order: tuple[str, ...] = _STATS) -> str:
    """One clause per sensor series (max and min with their site-local times, mean, sum, in `order`, then
    the count), as many as fit in STATS_CHARS; the others are only counted."""
    series: dict[str, list] = {}
    for row in rows:
        series.setdefault(row.sensor_name, []).append(row)
    clauses = [_stats_clause(sensor, samples, order) for sensor, samples in series.items()]
    return _fitting(clauses, STATS_CHARS, "; ", "more series in the file")


def _stats_clause(sensor: str, samples: list, order: tuple[str, ...] = _STATS) -> str:
    numbers = [r for r in samples if isinstance(r.value, (int, float)) and not isinstance(r.value, bool)]
    if not numbers:
        return f"{sensor}: {len(samples)} values, none numeric"
    low = min(numbers, key=lambda r: r.value)
    high = max(numbers, key=lambda r: r.value)
    values = [float(r.value) for r in numbers]
    said = {
        "max": f"max {_fmt(high.value)} at {high.timestamp[:16]}",
        "min": f"min {_fmt(low.value)} at {low.timestamp[:16]}",
        "mean": f"mean {_fmt(fmean(values))}",
        "median": f"median {_fmt(median(values))}",
        "sum": f"sum {_fmt(math.fsum(values))}",
    }
    if an.is_power(samples[0].unit):  # a sum of power samples is no total: the energy is (docs/analysis.md)
        points = an.series((datetime.fromisoformat(r.timestamp), r.value) for r in numbers)
        energy = an.energy_kwh(points, samples[0].unit)
        gaps = f" over {energy.gaps} gap{'s' if energy.gaps > 1 else ''}" if energy.gaps else ""
        said["sum"] = (
            f"energy {_fmt(energy.kwh)} kWh{gaps}{_by_sign(points, samples[0].unit)}"
            if len(points) > 1
            else "energy n/a (one sample)"
        )
    elif _counts_up(samples[0].unit, numbers):  # a running total: its rise, not a sum
        said["sum"] = f"rise {_fmt(float(numbers[-1].value) - float(numbers[0].value))} (a register: first to last)"
    elif not _adds_up(samples[0].unit):  # a sum of temperatures, tonnages or percentages means nothing
        order = tuple(s for s in order if s != "sum")
    return (
        f"{sensor}{f' ({samples[0].unit})' if samples[0].unit else ''}: "
        f"{', '.join(said[s] for s in order)}, {len(samples)} values"
    )


def _adds_up(unit: str | None) -> bool:
    """Values in this unit may be added over time (an energy, a volume: the field's vocabulary says so)."""
    quantity = fieldvocab.quantity_of_unit(unit)
    return quantity is not None and quantity.summable


def _counts_up(unit: str | None, numbers: list) -> bool:
    """The series is a running total whose rise is what was used or done over the period: a register of what adds up
    (kWh, m³), or a counter of time (a Run Hours point in h: the hours it ran)."""
    quantity = fieldvocab.quantity_of_unit(unit)
    return quantity is not None and (quantity.summable or quantity.name == "time") and _is_register(numbers)


_WORDS = {"max": "highest", "min": "lowest", "mean": "mean", "median": "median"}


def _said_series(rows: list, order: tuple[str, ...], window, asked_unit: str = "") -> str:
    """Each series as an answer states it: the statistic the question asks for first, in words, with readable
    site-local times ("The highest Chiller 6 Tonnage on 1 June 2020 was 265.22 tonref, at 16:15"), then the other
    figures; a total only of what adds up (an energy, a volume; a power's energy by the trapezoid), never a sum of a
    temperature, a power or a percentage."""
    series: dict[str, list] = {}
    for row in rows:
        series.setdefault(row.sensor_name, []).append(row)
    period = _readable_period(window.start, window.end)
    out = []
    for sensor, samples in list(series.items())[:PREVIEW_SERIES]:
        numbers = [r for r in samples if isinstance(r.value, (int, float)) and not isinstance(r.value, bool)]
        unit = _unit(samples[0].unit)
        if not numbers:
            out.append(f"{sensor} {period}: {len(samples)} values, none numeric")
            continue
        high = max(numbers, key=lambda r: r.value)
        low = min(numbers, key=lambda r: r.value)
        figures = {
            "max": (high.value, high.timestamp),
            "min": (low.value, low.timestamp),
            "mean": (fmean(float(r.value) for r in numbers), None),
            "median": (median(float(r.value) for r in numbers), None),  # stated only where asked (`_asked_first`)
        }
        total = _total(samples, numbers, asked_unit)
        stats = [s for s in order if s in figures] + (["sum"] if total else [])
        if (order[0] == "sum" or (order == _STATS and total.startswith("rise"))) and total:  # a register: its rise
            stats = ["sum"] + [s for s in stats if s != "sum"]
        clauses = []
        for n, stat in enumerate(stats):
            if stat == "sum":
                text = total
            else:
                value, at = figures[stat]
                when = f", at {_readable(at, day=_day_of(window) is None)}" if at else ""
                text = f"{_WORDS[stat]} {_fmt(value)}{unit}{when}"
            clauses.append(f"The {text.replace(' ', f' {sensor} {period} was ', 1)}" if n == 0 else text)
        out.append("; ".join(clauses) + f"; {len(samples)} values")
    return "; ".join(out)


def _unit_asked(question: str | None) -> str:
    """The unit the question asks its amount in ("How many kWh did we import"), '' where it names none."""
    for word in re.findall(r"[^\W\d_][\w³²/]*", question or ""):
        quantity = fieldvocab.quantity_of_unit(word)
        if quantity is not None and quantity.summable and len(word) > 1:
            return word
    return ""


def _by_sign(points: list, unit: str | None) -> str:
    """ " net (above 0: 812.5 kWh, below 0: 301.25 kWh)": a signed series' energy of each direction, which its
    point's description names (a battery's "+ discharging"); '' where every sample has one sign."""
    parts = an.energy_by_sign(points, unit)
    return f" net (above 0: {_fmt(parts[0])} kWh, below 0: {_fmt(parts[1])} kWh)" if parts else ""


def _in_asked(value: float, unit: str | None, asked: str) -> str:
    """ " (920496.75 kWh)": the amount in the unit the question asked it in, where that is another of the same base."""
    factor = an.unit_factor(unit, asked) if asked and asked != unit else None
    return f" ({_fmt(value * factor)} {asked})" if factor else ""


def _total(samples: list, numbers: list, asked: str = "") -> str:
    unit = samples[0].unit
    if an.is_power(unit):
        points = an.series((datetime.fromisoformat(r.timestamp), r.value) for r in numbers)
        kwh = an.energy_kwh(points, unit).kwh
        return (
            f"energy {_fmt(kwh)} kWh{_in_asked(kwh, 'kWh', asked)}{_by_sign(points, unit)}" if len(points) > 1 else ""
        )
    if _counts_up(unit, numbers):
        used = float(numbers[-1].value) - float(numbers[0].value)
        return (
            f"rise {_fmt(used)}{_unit(unit)}{_in_asked(used, unit, asked)} (the register from "
            f"{_fmt(numbers[0].value)} to {_fmt(numbers[-1].value)}, first to last reading)"
        )
    if _adds_up(unit):
        total = math.fsum(float(r.value) for r in numbers)
        return f"total {_fmt(total)}{_unit(unit)}{_in_asked(total, unit, asked)}"
    return ""


def _is_register(numbers: list) -> bool:
    """The series is a meter's register, whose use over a period is its rise (`analysis.is_running_total`)."""
    return an.is_running_total([float(r.value) for r in numbers])


def _day_of(window):
    """The day a window covers exactly (00:00 to the next 00:00, site time), or None."""
    start, end = window.start, window.end
    if start.time() == end.time() == datetime.min.time() and (end.date() - start.date()).days == 1:
        return start.date()
    return None


def _readable_period(start: datetime, end: datetime) -> str:
    """ "on 1 June 2020", "from 1 June 2020 to 7 June 2020", "from 1 June 2020 06:00 to 1 June 2020 18:00"."""
    midnight = start.time() == end.time() == datetime.min.time()
    if midnight and (end.date() - start.date()).days == 1:
        return f"on {_date(start)}"
    if midnight:
        from datetime import timedelta

        return f"from {_date(start)} to {_date(end - timedelta(days=1))}"
    return f"from {_date(start)} {start:%H:%M} to {_date(end)} {end:%H:%M}"


def _date(at: datetime) -> str:
    return f"{at.day} {at:%B %Y}"


def _readable(timestamp: str, day: bool = True) -> str:
    """An ISO 8601 instant as site-local words: "16:15 on 1 June 2020" (or "16:15" within a day already said)."""
    at = datetime.fromisoformat(timestamp)
    return f"{at:%H:%M} on {_date(at)}" if day else f"{at:%H:%M}"


def _unit(unit: str | None) -> str:
    return f" {unit}" if unit else ""


def _fmt(value) -> str:
    """A value as the model should copy it: booleans lower-case, floats to at most 4 decimals."""
    if isinstance(value, bool):
        return str(value).lower()
    if isinstance(value, float):
        return repr(round(value, 4)) if abs(value) < 1e15 else f"{value:g}"
    return str(value)
