"""The series tools: one series against another or a limit — `derive` (two series aligned on their timestamps →
their difference, sum or ratio, and its statistics) and `excursions` (a series against a value or another series,
a setpoint: Yes/No, the share of the samples, the time held, the worst)."""

from __future__ import annotations

import re

from edge_agent import analysis as an
from edge_agent.analysis_tools.args import DeriveArgs, ExcursionArgs
from edge_agent.analysis_tools.common import analysis_tool, period_read, read_series, said, span, stat, unit_said, when
from edge_agent.grounding import fieldvocab
from edge_agent.toolkit import Said, ToolContext, ToolError

_SETPOINT = re.compile(r"(?:set\s*point|\bsp\b|setpt|_sp\b|\bsp_)", re.I)


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


@analysis_tool(
    "derive",
    "Combine two series aligned on their timestamps (difference, sum or ratio) and give its statistics.",
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
    client, window = period_read(ctx, args.site_name, args.start, args.final)
    site = client.site(args.site_name).name
    a_pts, a_unit, _ = read_series(client, site, [a_asset], a_sensor, window)[a_asset]
    b_pts, b_unit, _ = read_series(client, site, [b_asset], b_sensor, window)[b_asset]
    aligned = an.align(a_pts, b_pts)
    derived, dropped = an.combine(aligned, args.op)
    a_name = a_sensor if a_asset == b_asset else f"{a_asset} {a_sensor}"
    b_name = b_sensor if a_asset == b_asset else f"{b_asset} {b_sensor}"
    sign = {"difference": "−", "sum": "+", "ratio": "÷"}[args.op]
    what = f"{a_name} {sign} {b_name}" + (f" of {a_asset}" if a_asset == b_asset else "")
    unit = a_unit if args.op != "ratio" and a_unit == b_unit else None
    if not derived:
        raise ToolError(f"{a_name} and {b_name} have no samples at the same instants {span(window)}")
    mean = stat(derived, "mean")[0]
    hi, hi_at = stat(derived, "max")
    lo, lo_at = stat(derived, "min")
    u = unit_said(unit)
    stats = (
        f"mean {an.fmt(mean)}{u}, max {an.fmt(hi)}{u}{when(hi_at)}, min {an.fmt(lo)}{u}{when(lo_at)}, "
        f"{len(derived)} aligned samples"
    )
    left = aligned.only_a + aligned.only_b + dropped
    if left:
        stats += f" ({left} samples without a partner left out)"
    data = {
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
    }
    return said(ctx, f"{args.op} {what} {span(window)}: {stats}", data, f"derive_{a_asset}_{args.op}")


def _unit_key(unit: str) -> str:
    return "".join(unit.split()).casefold().lstrip("°")


@analysis_tool(
    "excursions",
    "Check whether a sensor went above or below a value or another sensor (a setpoint) over a period.",
)
def excursions(args: ExcursionArgs, ctx: ToolContext) -> Said:
    sensor, limit_sensor = args.sensor_name, args.limit_sensor
    if limit_sensor and _SETPOINT.search(sensor) and not _SETPOINT.search(limit_sensor):
        sensor, limit_sensor = limit_sensor, sensor  # the setpoint is the limit, whichever slot it came in
    if limit_sensor is None and args.limit is None:
        raise ToolError("excursions needs a limit: a value (limit) or a sensor to compare with (limit_sensor)")
    if limit_sensor == sensor:
        raise ToolError("a sensor cannot be compared with itself; give another sensor or a value")
    client, window = period_read(ctx, args.site_name, args.start, args.final)
    site = client.site(args.site_name).name
    pts, unit, _ = read_series(client, site, [args.asset_name], sensor, window)[args.asset_name]
    if not pts:
        raise ToolError(f"no numeric values of {sensor} on {args.asset_name} {span(window)}")
    if limit_sensor:
        lim_pts, _, _ = read_series(client, site, [args.asset_name], limit_sensor, window)[args.asset_name]
        aligned = an.align(pts, lim_pts)
        pairs = aligned.pairs
        against = f"its {limit_sensor}"
    else:
        limit = float(args.limit)  # type: ignore[arg-type]  # (a limit or a limit sensor: checked above)
        against = f"{an.fmt(limit)}{unit_said(unit)}"
        said_in = args.limit_unit
        if said_in and unit and _unit_key(said_in) != _unit_key(unit):
            converted = fieldvocab.convert(limit, said_in, unit)  # "above 150 psi" of a series in bar: 10.342 bar
            if converted is not None:
                against = f"{an.fmt(converted)}{unit_said(unit)} ({an.fmt(limit)} {said_in})"
                limit = converted
        pairs = [(p.at, p.value, limit) for p in pts]
    if not pairs:
        raise ToolError(f"{sensor} and {limit_sensor} have no samples at the same instants {span(window)}")
    found = an.excursions(pairs, args.direction, window.end)
    where = f"{sensor} of {args.asset_name} {span(window)}"
    if (worst := found.worst) is not None:  # (there is a worst crossing where there is any)
        at, excess = worst
        first, last = found.crossing[0][0], found.crossing[-1][0]
        share = f"{an.fmt(100 * found.share)} %"
        tail = (
            f"first at {first.isoformat()[:16]}, last at {last.isoformat()[:16]}, worst by {an.fmt(excess)}"
            f"{unit_said(unit)} at {at.isoformat()[:16]}"
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
    data = {
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
    }
    return said(ctx, head, data, f"excursions_{args.asset_name}_{sensor}")
