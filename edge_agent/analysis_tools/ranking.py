"""The ranking tools: which is highest or lowest — `rank` (one sensor across several assets) and `compare_periods`
(one sensor of one asset over two periods) — by an aggregate: max, min, mean or energy (a meter's running total by
its rise, a rate by the amount it adds up to: `common.compared_by`). The head names the winner first."""

from __future__ import annotations

import re
from datetime import datetime, timedelta
from typing import Any

from edge_agent import analysis as an
from edge_agent.analysis_tools.args import PeriodsArgs, RankArgs
from edge_agent.analysis_tools.common import (
    COUNTED,
    LABEL,
    Period,
    analysis_tool,
    compared_by,
    figure,
    period_read,
    read_series,
    said,
    span,
    unit_said,
    value_unit,
    when,
)
from edge_agent.skyspark.access import reading
from edge_agent.toolkit import Said, ToolContext, ToolError

SHOWN = 3  # assets named after the winner in a ranking's head

#: the words a head ranks with, (superlative, comparative) for the highest and the lowest end: energy is used
#: "the most"/"more", a counted figure (`COUNTED`) is "largest"/"larger", any other aggregate "highest"/"higher"
_DEGREES = {
    "energy": {"highest": ("the most", "more"), "lowest": ("the least", "less")},
    "counted": {"highest": ("largest", "larger"), "lowest": ("smallest", "smaller")},
    "other": {"highest": ("highest", "higher"), "lowest": ("lowest", "lower")},
}


def _degree(how: str, order: str) -> tuple[str, str]:
    """(superlative, comparative) for aggregate `how` ranked from `order`'s end."""
    kind = "energy" if how == "energy" else "counted" if how in COUNTED else "other"
    return _DEGREES[kind][order]


@analysis_tool(
    "rank",
    "Rank several assets by one sensor over a period (highest or lowest max, min, mean or energy).",
)
def rank(args: RankArgs, ctx: ToolContext) -> Said:
    client, window = period_read(ctx, args.site_name, args.start, args.final)
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
    read = read_series(client, site, assets, args.sensor_name, window)
    unit = next((u for _, u, _ in read.values() if u), None)
    how = compared_by(args.by, unit, [pts for pts, _, _ in read.values()])
    ranked = an.rank({a: pts for a, (pts, _, _) in read.items()}, how, args.order, unit)  # type: ignore[arg-type]
    if not ranked.winners:
        raise ToolError(f"no numeric values of {args.sensor_name} {span(window)} on {', '.join(assets)}")
    sensor = args.sensor_name
    rows = [{"asset_name": a, "value": v, "at": t.isoformat() if t else None} for a, v, t in ranked.rows]
    win = ranked.winners
    first = dict((a, (v, t)) for a, v, t in ranked.rows)
    v, t = first[win[0]]
    who = win[0] if len(win) == 1 else " and ".join(win) + " (tied)"
    most = _degree(how, args.order)[0]
    if how == "energy":
        head = f"{who} used {most} energy (from {sensor}) {span(window)}: {figure(v)} kWh"
    elif how in COUNTED:
        what, why = COUNTED[how]
        value = f"{figure(v)}{unit_said(value_unit(how, unit))}"
        head = f"{who} had the {most} {what} {sensor} ({why}) {span(window)}: {value}"
    else:
        value = f"{figure(v)}{unit_said(value_unit(how, unit))}{when(t)}"
        head = f"{who} had the {most} {LABEL[how]} {sensor} {span(window)}: {value}"
    rest = [f"{a} {an.fmt(x)}" if x is not None else f"{a} no data" for a, x, _ in ranked.rows if a not in win]
    if rest:
        head += f" (then {', '.join(rest[:SHOWN])}{', …' if len(rest) > SHOWN else ''})"
    data = {
        "site_name": site,
        "sensor_name": sensor,
        "by": how,
        "order": args.order,
        "unit": value_unit(how, unit),
        "start": window.start.isoformat(),
        "end": window.end.isoformat(),
        "winners": ranked.winners,
        "ranking": rows,
    }
    return said(ctx, head, data, f"rank_{site}_{sensor}")


def _has_sensor(client: Any, site: str, asset: str, sensor: str) -> bool:
    key = re.sub(r"[\s_\-]", "", sensor).casefold()
    return any(
        re.sub(r"[\s_\-]", "", s.short_name).casefold() == key or s.name.casefold() == sensor.casefold()
        for s in client.sensors(site, asset)
    )


def _period_words(window: Period) -> str:
    """A period in words, its first day first (what an operator and the checker read): "22 March 2026", "the week
    from 23 March 2026 to 29 March 2026", "from 1 March 2026 06:00 to 1 March 2026 18:00"."""
    start, end = window.start, window.end

    def day(at: datetime) -> str:
        return f"{at.day} {at:%B %Y}"

    midnights = start.time() == end.time() == datetime.min.time()
    if midnights:
        last = end - timedelta(days=1)
        days = (end.date() - start.date()).days
        if days == 1:
            return day(start)
        return f"{'the week' if days == 7 else 'the period'} from {day(start)} to {day(last)}"
    return f"from {day(start)} {start:%H:%M} to {day(end)} {end:%H:%M}"


@analysis_tool(
    "compare_periods",
    "Compare one sensor of one asset over two periods (which had the higher or lower max, min, mean or energy).",
)
def compare_periods(args: PeriodsArgs, ctx: ToolContext) -> Said:
    client, first = period_read(ctx, args.site_name, args.start, args.final)
    _, second = period_read(ctx, args.site_name, args.other_start, args.other_final)
    if (first.start, first.end) == (second.start, second.end):
        raise ToolError("compare_periods needs two different periods")
    site = client.site(args.site_name).name
    asset, sensor = args.asset_name, args.sensor_name
    a_pts, unit, _ = read_series(client, site, [asset], sensor, first)[asset]
    b_pts, b_unit, _ = read_series(client, site, [asset], sensor, second)[asset]
    unit = unit or b_unit
    how = compared_by(args.by, unit, [a_pts, b_pts])
    labels = {_period_words(first): a_pts, _period_words(second): b_pts}
    ranked = an.rank(labels, how, args.order, unit)  # type: ignore[arg-type]
    missing = [name for name, v, _ in ranked.rows if v is None]
    if missing:
        raise ToolError(f"no numeric values of {sensor} on {asset} for {' and '.join(missing)}")
    (win, v, t), (lose, w, u) = ranked.rows
    where = f"{sensor} of {asset}"
    if len(ranked.winners) > 1:
        head = f"{win} and {lose} had the same {LABEL[how]} {where}: {figure(v)}{unit_said(value_unit(how, unit))}"
    else:
        lead, other = win[:1].upper() + win[1:], f"{'on ' if lose[:1].isdigit() else ''}{lose}"
        more = _degree(how, args.order)[1]
        if how == "energy":
            head = f"{lead} used {more} energy ({where}): {figure(v)} kWh, against {figure(w)} kWh {other}"
        elif how in COUNTED:
            what, why = COUNTED[how]
            counted = unit_said(value_unit(how, unit))
            head = (
                f"{lead} had the {more} {what} {where} ({why}): {figure(v)}{counted}, "
                f"against {figure(w)}{counted} {other}"
            )
        else:
            head = (
                f"{lead} had the {more} {LABEL[how]} {where}: {figure(v)}{unit_said(unit)}{when(t)}, "
                f"against {figure(w)}{unit_said(unit)}{when(u)} {other}"
            )
    data = {
        "site_name": site,
        "asset_name": asset,
        "sensor_name": sensor,
        "by": how,
        "order": args.order,
        "unit": value_unit(how, unit),
        "periods": [
            {
                "start": wd.start.isoformat(),
                "end": wd.end.isoformat(),
                "value": val,
                "at": at.isoformat() if at else None,
            }
            for wd, (_, val, at) in zip((first, second), sorted(ranked.rows, key=lambda r: list(labels).index(r[0])))
        ],
        "winners": ranked.winners,
    }
    return said(ctx, head, data, f"periods_{asset}_{sensor}")
