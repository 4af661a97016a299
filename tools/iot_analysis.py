"""Analysis tools over SkySpark: `rank`, `derive`, `excursions` — conclusions computed in code.

The model picks the tool and its arguments (constrained like the IoT tools' to the catalog, the worked-out
period and, for the statistic, order, operation, direction and limit, to what the question says where it says
it: `x-question` marks, see `edge_agent.grounding.scope`); the tool reads the same `hisRead` samples
`histories` reads, computes the conclusion by the rules of docs/analysis.md (`edge_agent.analysis`), saves it
as a JSON file and states it in its head, so an answer starts with the winner or with "Yes"/"No":

  rank        one sensor across several assets (a named list, or every asset of a kind at a site) by an aggregate
  derive      two series aligned on timestamps → their difference, sum or ratio, and its statistics
  excursions  a series against a value or against another series (a setpoint): Yes/No, share, time, worst
  compare_periods  one sensor of one asset over two periods by an aggregate: which period had the higher/lower
"""

from __future__ import annotations

import re
from datetime import datetime, timedelta
from typing import Literal
from zoneinfo import ZoneInfo

from pydantic import Field

from edge_agent import analysis as an
from edge_agent.grounding import fieldvocab
from edge_agent.grounding.measures import counted_unit
from edge_agent.skyspark.access import client_of, max_days, reading
from edge_agent.skyspark.window import parse_window
from edge_agent.toolkit import (
    ASSET_REF,
    FINAL_REF,
    SENSOR_REF,
    SITE_REF,
    START_REF,
    TYPE_REF,
    Said,
    ToolArgs,
    ToolContext,
    ToolError,
    tool,
)

#: arguments whose value the question itself may state (pinned by the scope when it does)
STATISTIC = {"x-question": "statistic"}
ORDER = {"x-question": "order"}
OPERATION = {"x-question": "op"}
DIRECTION = {"x-question": "direction"}
LIMIT = {"x-question": "limit"}
#: what an excursion's answer leads with (whether it happened, or for how long): set by code from the question's form,
#: never written by the model (`x-hidden`: left out of the step's grammar, filled in before the call runs)
REPORT = {"x-question": "report", "x-hidden": True}
OTHER_START = {"x-question": "other_start"}  # the second period the question compares (`grounding.periods`)
OTHER_FINAL = {"x-question": "other_final"}
SHOWN = 3  # assets named after the winner in a ranking's head


def _start():
    return Field(..., description="ISO 8601 start of the period", json_schema_extra=START_REF)


def _final():
    return Field(..., description="ISO 8601 end of the period (exclusive)", json_schema_extra=FINAL_REF)


# required arguments first, optional ones last (the step grammar writes the optional ones at the end)
class RankArgs(ToolArgs):
    site_name: str = Field(..., description="a site name, e.g. POKMAIN", json_schema_extra=SITE_REF)
    sensor_name: str = Field(..., description="the sensor to compare, e.g. Tonnage", json_schema_extra=SENSOR_REF)
    by: Literal["max", "min", "mean", "energy"] = Field(
        ..., description="the aggregate compared", json_schema_extra=STATISTIC
    )
    order: Literal["highest", "lowest"] = Field(..., description="which end wins", json_schema_extra=ORDER)
    start: str = _start()
    final: str = _final()
    asset_names: list[str] | None = Field(
        None,
        json_schema_extra={**ASSET_REF, "x-role": "optional-list"},
        description="the assets to compare (omit: every asset with the sensor)",
    )
    asset_type: str | None = Field(
        None, description="compare every asset of this kind (an equip marker)", json_schema_extra=TYPE_REF
    )


class DeriveArgs(ToolArgs):
    site_name: str = Field(..., description="a site name", json_schema_extra=SITE_REF)
    asset_name: str = Field(..., description="the (first) asset", json_schema_extra={**ASSET_REF, "x-role": "first"})
    sensor_name: str = Field(
        ..., description="the first series' sensor", json_schema_extra={**SENSOR_REF, "x-role": "first"}
    )
    other_asset: str = Field(
        ...,
        description="the second series' asset (the same asset for two of its sensors)",
        json_schema_extra={**ASSET_REF, "x-role": "second"},
    )
    other_sensor: str = Field(
        ..., description="the second series' sensor", json_schema_extra={**SENSOR_REF, "x-role": "second"}
    )
    op: Literal["difference", "sum", "ratio"] = Field(..., json_schema_extra=OPERATION)
    start: str = _start()
    final: str = _final()


class ExcursionArgs(ToolArgs):
    site_name: str = Field(..., description="a site name", json_schema_extra=SITE_REF)
    asset_name: str = Field(..., description="the asset", json_schema_extra=ASSET_REF)
    sensor_name: str = Field(
        ..., description="the series compared", json_schema_extra={**SENSOR_REF, "x-role": "measured"}
    )
    direction: Literal["above", "below"] = Field(..., json_schema_extra=DIRECTION)
    start: str = _start()
    final: str = _final()
    limit: float | None = Field(None, description="a fixed limit", json_schema_extra=LIMIT)
    limit_sensor: str | None = Field(
        None,
        description="or a sensor of the asset to compare with (a setpoint)",
        json_schema_extra={**SENSOR_REF, "x-role": "setpoint"},
    )
    report: Literal["whether", "how_long"] = Field(
        "whether", description="what the answer leads with: whether it happened, or how long", json_schema_extra=REPORT
    )


class PeriodsArgs(ToolArgs):
    site_name: str = Field(..., description="a site name", json_schema_extra=SITE_REF)
    asset_name: str = Field(..., description="the asset", json_schema_extra=ASSET_REF)
    sensor_name: str = Field(..., description="the sensor compared", json_schema_extra=SENSOR_REF)
    by: Literal["max", "min", "mean", "energy"] = Field(
        ..., description="the aggregate compared", json_schema_extra=STATISTIC
    )
    order: Literal["highest", "lowest"] = Field(..., description="which end wins", json_schema_extra=ORDER)
    start: str = _start()
    final: str = _final()
    other_start: str = Field(..., description="ISO 8601 start of the other period", json_schema_extra=OTHER_START)
    other_final: str = Field(
        ..., description="ISO 8601 end of the other period (exclusive)", json_schema_extra=OTHER_FINAL
    )


# --- reading ------------------------------------------------------------------------------------


def _window(ctx: ToolContext, site: str, start: str, final: str):
    client = client_of(ctx)
    with reading():
        tz = ZoneInfo(client.site(site).tz)
        window = parse_window(start, final, tz, max_days(ctx))
    if window.is_point:
        raise ToolError("an analysis needs a period (start and final), not one instant")
    return client, window


def _read(
    client, site: str, assets: list[str], sensor: str, window
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


def _span(window) -> str:
    return f"from {window.start.isoformat()} to {window.end.isoformat()}"


def _when(at: datetime | None) -> str:
    return f" at {at.isoformat()[:16]}" if at is not None else ""


def _unit(unit: str | None) -> str:
    return f" {unit}" if unit else ""


def _how(by: str, unit: str | None, series: list[list[an.Point]]) -> str:
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


def _unit_of(how: str, unit: str | None) -> str | None:
    """The unit of an aggregate's value: kWh for an energy, the counted amount's for a rate's amount."""
    return "kWh" if how == "energy" else counted_unit(unit) if how == "amount" else unit


#: how a register's rise and a rate's amount are said: (what, why)
COUNTED = {
    "rise": ("rise of", "a running total: what it counted in the period"),
    "amount": ("total", "its rate summed over the period"),
}


def _save(ctx: ToolContext, data: dict, stem: str) -> str:
    return ctx.files.write_json(data, stem)


# --- rank ---------------------------------------------------------------------------------------


@tool(
    "rank",
    "Rank several assets by one sensor over a period (highest or lowest max, min, mean or energy).",
    needs=("period",),
    answers=True,
)
def rank(args: RankArgs, ctx: ToolContext) -> Said:
    client, window = _window(ctx, args.site_name, args.start, args.final)
    with reading():
        site = client.site(args.site_name).name
        every = client.assets(site)
    if args.asset_names:
        assets = list(dict.fromkeys(args.asset_names))
    else:
        kind = (args.asset_type or "").strip().casefold()
        assets = [a.name for a in every if not kind or kind in (t.casefold() for t in a.types)]
        with reading():
            assets = [a for a in assets if _has_sensor(client, site, a, args.sensor_name)]
    if len(assets) < 2:
        raise ToolError(f"a ranking needs at least two assets with {args.sensor_name}; found {len(assets)}")
    read = _read(client, site, assets, args.sensor_name, window)
    unit = next((u for _, u, _ in read.values() if u), None)
    how = _how(args.by, unit, [pts for pts, _, _ in read.values()])
    ranked = an.rank({a: pts for a, (pts, _, _) in read.items()}, how, args.order, unit)  # type: ignore[arg-type]
    if not ranked.winners:
        raise ToolError(f"no numeric values of {args.sensor_name} {_span(window)} on {', '.join(assets)}")
    label = {"max": "maximum", "min": "minimum", "mean": "mean", "energy": "energy", "rise": "rise", "amount": "total"}[
        how
    ]
    sensor = args.sensor_name
    rows = [{"asset_name": a, "value": v, "at": t.isoformat() if t else None} for a, v, t in ranked.rows]
    name = _save(
        ctx,
        {
            "site_name": site,
            "sensor_name": sensor,
            "by": how,
            "order": args.order,
            "unit": _unit_of(how, unit),
            "start": window.start.isoformat(),
            "end": window.end.isoformat(),
            "winners": ranked.winners,
            "ranking": rows,
        },
        f"rank_{site}_{sensor}",
    )
    win = ranked.winners
    first = dict((a, (v, t)) for a, v, t in ranked.rows)
    v, t = first[win[0]]
    who = win[0] if len(win) == 1 else " and ".join(win) + " (tied)"
    if how == "energy":
        most = "the most" if args.order == "highest" else "the least"
        head = f"{who} used {most} energy (from {sensor}) {_span(window)}: {an.fmt(v)} kWh"
    elif how in COUNTED:
        most = "largest" if args.order == "highest" else "smallest"
        what, why = COUNTED[how]
        head = f"{who} had the {most} {what} {sensor} ({why}) {_span(window)}: {an.fmt(v)}{_unit(_unit_of(how, unit))}"
    else:
        said = f"{an.fmt(v)}{_unit(_unit_of(how, unit))}{_when(t)}"
        head = f"{who} had the {args.order} {label} {sensor} {_span(window)}: {said}"
    rest = [f"{a} {an.fmt(x)}" if x is not None else f"{a} no data" for a, x, _ in ranked.rows if a not in win]
    if rest:
        head += f" (then {', '.join(rest[:SHOWN])}{', …' if len(rest) > SHOWN else ''})"
    return Said(f"{head}; saved to {name}", answer=f"{head}; saved to {name}")


def _has_sensor(client, site: str, asset: str, sensor: str) -> bool:
    key = re.sub(r"[\s_\-]", "", sensor).casefold()
    return any(
        re.sub(r"[\s_\-]", "", s.short_name).casefold() == key or s.name.casefold() == sensor.casefold()
        for s in client.sensors(site, asset)
    )


# --- derive -------------------------------------------------------------------------------------


def _question_order(question: str, first: str, second: str) -> bool:
    """True when the question puts `second` before `first` (then the two are swapped: a − b in its order): an
    explicit "B / A", "B divided by A", "B minus A", "ratio of B to A" first, else the first mention."""
    q = question.casefold()
    f, s = re.escape(first.casefold()), re.escape(second.casefold())
    between = r"\s*(?:/|÷|divided by|over|minus|-|−|to)\s*"
    if re.search(f + between + s, q):
        return False
    if re.search(s + between + f, q):
        return True
    a, b = q.find(first.casefold()), q.find(second.casefold())
    return a >= 0 and b >= 0 and b < a


@tool(
    "derive",
    "Combine two series aligned on their timestamps (difference, sum or ratio) and give its statistics.",
    needs=("period",),
    answers=True,
)
def derive(args: DeriveArgs, ctx: ToolContext) -> Said:
    if (args.asset_name, args.sensor_name) == (args.other_asset, args.other_sensor):
        raise ToolError("derive needs two different series (another sensor, or another asset)")
    a_asset, a_sensor, b_asset, b_sensor = args.asset_name, args.sensor_name, args.other_asset, args.other_sensor
    if (
        a_asset == b_asset
        and _question_order(ctx.question, a_sensor, b_sensor)
        or a_sensor == b_sensor
        and _question_order(ctx.question, a_asset, b_asset)
    ):
        a_asset, a_sensor, b_asset, b_sensor = b_asset, b_sensor, a_asset, a_sensor
    client, window = _window(ctx, args.site_name, args.start, args.final)
    site = client.site(args.site_name).name
    a_pts, a_unit, _ = _read(client, site, [a_asset], a_sensor, window)[a_asset]
    b_pts, b_unit, _ = _read(client, site, [b_asset], b_sensor, window)[b_asset]
    aligned = an.align(a_pts, b_pts)
    derived, dropped = an.combine(aligned, args.op)
    a_name = a_sensor if a_asset == b_asset else f"{a_asset} {a_sensor}"
    b_name = b_sensor if a_asset == b_asset else f"{b_asset} {b_sensor}"
    sign = {"difference": "−", "sum": "+", "ratio": "÷"}[args.op]
    what = f"{a_name} {sign} {b_name}" + (f" of {a_asset}" if a_asset == b_asset else "")
    unit = a_unit if args.op != "ratio" and a_unit == b_unit else None
    if not derived:
        raise ToolError(f"{a_name} and {b_name} have no samples at the same instants {_span(window)}")
    mean = an.aggregate(derived, "mean")[0]
    hi, hi_at = an.aggregate(derived, "max")
    lo, lo_at = an.aggregate(derived, "min")
    u = _unit(unit)
    stats = (
        f"mean {an.fmt(mean)}{u}, max {an.fmt(hi)}{u}{_when(hi_at)}, min {an.fmt(lo)}{u}{_when(lo_at)}, "
        f"{len(derived)} aligned samples"
    )
    left = aligned.only_a + aligned.only_b + dropped
    if left:
        stats += f" ({left} samples without a partner left out)"
    name = _save(
        ctx,
        {
            "site_name": site,
            "a": {"asset_name": a_asset, "sensor_name": a_sensor, "unit": a_unit},
            "b": {"asset_name": b_asset, "sensor_name": b_sensor, "unit": b_unit},
            "op": args.op,
            "unit": unit,
            "start": window.start.isoformat(),
            "end": window.end.isoformat(),
            "mean": mean,
            "max": hi,
            "min": lo,
            "unpaired": left,
            "series": [{"timestamp": p.at.isoformat(), "value": p.value} for p in derived],
        },
        f"derive_{a_asset}_{args.op}",
    )
    head = f"{args.op} {what} {_span(window)}: {stats}"
    return Said(f"{head}; saved to {name}", answer=f"{head}; saved to {name}")


# --- excursions ---------------------------------------------------------------------------------

_SETPOINT = re.compile(r"(?:set\s*point|\bsp\b|setpt|_sp\b|\bsp_)", re.I)


@tool(
    "excursions",
    "Check whether a sensor went above or below a value or another sensor (a setpoint) over a period.",
    needs=("period",),
    answers=True,
)
def excursions(args: ExcursionArgs, ctx: ToolContext) -> Said:
    sensor, limit_sensor = args.sensor_name, args.limit_sensor
    if limit_sensor and _SETPOINT.search(sensor) and not _SETPOINT.search(limit_sensor):
        sensor, limit_sensor = limit_sensor, sensor  # the setpoint is the limit, whichever slot it came in
    if limit_sensor is None and args.limit is None:
        raise ToolError("excursions needs a limit: a value (limit) or a sensor to compare with (limit_sensor)")
    if limit_sensor == sensor:
        raise ToolError("a sensor cannot be compared with itself; give another sensor or a value")
    client, window = _window(ctx, args.site_name, args.start, args.final)
    site = client.site(args.site_name).name
    pts, unit, _ = _read(client, site, [args.asset_name], sensor, window)[args.asset_name]
    if not pts:
        raise ToolError(f"no numeric values of {sensor} on {args.asset_name} {_span(window)}")
    if limit_sensor:
        lim_pts, _, _ = _read(client, site, [args.asset_name], limit_sensor, window)[args.asset_name]
        aligned = an.align(pts, lim_pts)
        pairs = aligned.pairs
        against = f"its {limit_sensor}"
    else:
        pairs = [(p.at, p.value, float(args.limit)) for p in pts]
        against = f"{an.fmt(float(args.limit))}{_unit(unit)}"
    if not pairs:
        raise ToolError(f"{sensor} and {limit_sensor} have no samples at the same instants {_span(window)}")
    found = an.excursions(pairs, args.direction, window.end)
    where = f"{sensor} of {args.asset_name} {_span(window)}"
    if found.any:
        at, excess = found.worst
        first, last = found.crossing[0][0], found.crossing[-1][0]
        share = f"{an.fmt(100 * found.share)} %"
        tail = (
            f"first at {first.isoformat()[:16]}, last at {last.isoformat()[:16]}, worst by {an.fmt(excess)}"
            f"{_unit(unit)} at {at.isoformat()[:16]}"
        )
        if args.report == "how_long":  # "how long was it below …": the time leads, then the share and the samples
            head = (
                f"{where} was {args.direction} {against} for {an.hours(found.held)} ({share} of the samples: "
                f"{len(found.crossing)} of {found.compared}), {tail}"
            )
        else:
            head = (
                f"Yes: {where} was {args.direction} {against} in {len(found.crossing)} of {found.compared} samples "
                f"({share}, {an.hours(found.held)}), {tail}"
            )
    elif args.report == "how_long":
        head = f"{where} was never {args.direction} {against}: 0 h ({found.compared} samples compared)"
    else:
        head = f"No: {where} was never {args.direction} {against} ({found.compared} samples compared)"
    name = _save(
        ctx,
        {
            "site_name": site,
            "asset_name": args.asset_name,
            "sensor_name": sensor,
            "unit": unit,
            "direction": args.direction,
            "limit": args.limit,
            "limit_sensor": limit_sensor,
            "start": window.start.isoformat(),
            "end": window.end.isoformat(),
            "answer": found.any,
            "compared": found.compared,
            "share": found.share,
            "hours": found.held.total_seconds() / 3600,
            "samples": [{"timestamp": t.isoformat(), "excess": e} for t, e in found.crossing],
        },
        f"excursions_{args.asset_name}_{sensor}",
    )
    return Said(f"{head}; saved to {name}", answer=f"{head}; saved to {name}")


# --- compare_periods ----------------------------------------------------------------------------


def _period_words(window) -> str:
    """A period in words, its first day first (what an operator and the checker read): "22 March 2026", "the week
    from 23 March 2026 to 29 March 2026", "from 1 March 2026 06:00 to 1 March 2026 18:00"."""
    start, end = window.start, window.end
    day = lambda at: f"{at.day} {at:%B %Y}"  # noqa: E731
    midnights = start.time() == end.time() == datetime.min.time()
    if midnights:
        last = end - timedelta(days=1)
        days = (end.date() - start.date()).days
        if days == 1:
            return day(start)
        return f"{'the week' if days == 7 else 'the period'} from {day(start)} to {day(last)}"
    return f"from {day(start)} {start:%H:%M} to {day(end)} {end:%H:%M}"


@tool(
    "compare_periods",
    "Compare one sensor of one asset over two periods (which had the higher or lower max, min, mean or energy).",
    needs=("period",),
    answers=True,
)
def compare_periods(args: PeriodsArgs, ctx: ToolContext) -> Said:
    client, first = _window(ctx, args.site_name, args.start, args.final)
    _, second = _window(ctx, args.site_name, args.other_start, args.other_final)
    if (first.start, first.end) == (second.start, second.end):
        raise ToolError("compare_periods needs two different periods")
    site = client.site(args.site_name).name
    asset, sensor = args.asset_name, args.sensor_name
    a_pts, unit, _ = _read(client, site, [asset], sensor, first)[asset]
    b_pts, b_unit, _ = _read(client, site, [asset], sensor, second)[asset]
    unit = unit or b_unit
    how = _how(args.by, unit, [a_pts, b_pts])
    labels = {_period_words(first): a_pts, _period_words(second): b_pts}
    ranked = an.rank(labels, how, args.order, unit)  # type: ignore[arg-type]
    missing = [name for name, v, _ in ranked.rows if v is None]
    if missing:
        raise ToolError(f"no numeric values of {sensor} on {asset} for {' and '.join(missing)}")
    (win, v, t), (lose, w, u) = ranked.rows
    label = {"max": "maximum", "min": "minimum", "mean": "mean", "energy": "energy", "rise": "rise", "amount": "total"}[
        how
    ]
    where = f"{sensor} of {asset}"
    if len(ranked.winners) > 1:
        head = f"{win} and {lose} had the same {label} {where}: {an.fmt(v)}{_unit(_unit_of(how, unit))}"
    else:
        lead, other = win[:1].upper() + win[1:], f"{'on ' if lose[:1].isdigit() else ''}{lose}"
        if how == "energy":
            more = "more" if args.order == "highest" else "less"
            head = f"{lead} used {more} energy ({where}): {an.fmt(v)} kWh, against {an.fmt(w)} kWh {other}"
        elif how in COUNTED:
            more = "larger" if args.order == "highest" else "smaller"
            what, why = COUNTED[how]
            counted = _unit(_unit_of(how, unit))
            head = (
                f"{lead} had the {more} {what} {where} ({why}): {an.fmt(v)}{counted}, "
                f"against {an.fmt(w)}{counted} {other}"
            )
        else:
            comparative = "higher" if args.order == "highest" else "lower"
            head = (
                f"{lead} had the {comparative} {label} {where}: {an.fmt(v)}{_unit(unit)}{_when(t)}, "
                f"against {an.fmt(w)}{_unit(unit)}{_when(u)} {other}"
            )
    name = _save(
        ctx,
        {
            "site_name": site,
            "asset_name": asset,
            "sensor_name": sensor,
            "by": how,
            "order": args.order,
            "unit": _unit_of(how, unit),
            "periods": [
                {
                    "start": wd.start.isoformat(),
                    "end": wd.end.isoformat(),
                    "value": val,
                    "at": at.isoformat() if at else None,
                }
                for wd, (_, val, at) in zip(
                    (first, second), sorted(ranked.rows, key=lambda r: list(labels).index(r[0]))
                )
            ],
            "winners": ranked.winners,
        },
        f"periods_{asset}_{sensor}",
    )
    return Said(f"{head}; saved to {name}", answer=f"{head}; saved to {name}")
