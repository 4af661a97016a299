"""What a run's tool calls may be: the tools worth offering, and the checks of a call's arguments.

Before each step `Grounding.offered` names the tools worth offering (`offered`, from what the grounding already
`known`s and the parts of the question still open); before a call runs, `wrong_measure` says why its series is not
the measure asked for and `invented_names` which of its names the SkySpark lacks. `pins` are the analysis arguments
the question states; `call_key` and `named_in` are what an Observation records of its call.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

from edge_agent.grounding.catalog import Catalog, key
from edge_agent.grounding.dates import mentions_time
from edge_agent.grounding.forms import TABLE
from edge_agent.grounding.measures import Measure, comparable, fits, point_measure
from edge_agent.grounding.question import Reading, wants_single_file
from edge_agent.grounding.status import ANALYSIS_TOOLS, ANSWERED_BY, listed_asks, open_parts
from edge_agent.toolkit import Tool

if TYPE_CHECKING:
    from edge_agent.grounding.run import Grounding


def known(g: Grounding) -> set[str]:
    """What the question's grounding already tells, in the words tools use for `provides`/`needs`:
    "site", "asset", "sensor" (the question names one that exists; "asset" also where code's scope leaves exactly
    one asset, as a site's one electricity meter), "period" (worked out), "clock"
    (the period is worked out, or the question speaks of no time), "linking" (names and dates are
    worked out in code: always, with a catalog), "one_file" (one file is asked for), "file" (the
    question speaks of files)."""
    if g.links is None:
        return set()
    out = {
        kind
        for kind, names in (
            ("site", g.links.sites),
            ("asset", g.links.assets),
            ("sensor", g.links.sensors),
        )
        if names
    }
    scope = g.scope()
    if scope is not None and "asset" not in out and sum(len(s.assets) for s in scope.sites.values()) == 1:
        out.add("asset")  # "how much electricity did the dairy take": the site's one meter, found in code
    out.add("linking")
    if g.start is not None:
        out |= {"period", "clock"}
    elif not mentions_time(g.question):
        out.add("clock")
    if wants_single_file(g.question):
        out.add("one_file")
    if re.search(r"\bfiles?\b|\.json\b", g.question, re.I):
        out.add("file")
    return out


def offered(g: Grounding, tools: Iterable[Tool], trial: int | None = None) -> list[str] | None:
    """The tools worth offering (None: all): not one whose findings the grounding already has, nor one
    that needs what it lacks, nor an analysis tool no open part of the question asks for (and, while a part
    asking for a conclusion is open, not `histories`: its figures are not the conclusion). Finish is always
    among them."""
    if g.catalog is None or g.links is None:
        return None
    have = known(g)
    asks = {p.ask for p in open_parts(g, trial)} or {p.ask for p in g.reading.parts}
    wanted = {t for a in asks for t in ANSWERED_BY.get(a, ())}
    data_open = bool(asks - set(ANSWERED_BY) - {"exists"})
    if wanted and not data_open:  # only conclusions are left: their tools read what they need themselves
        return [
            t.name
            for t in tools
            if (t.name in wanted and set(t.needs) <= have)
            or (t.builtin and not (t.provides and set(t.provides) <= have))
        ]
    listed = listed_asks(g, trial) if len(g.reading.parts) > 1 else set()
    out = []
    for t in tools:
        if (t.provides and set(t.provides) <= have and not set(t.provides) & listed) or not set(t.needs) <= have:
            continue
        if t.name in ANALYSIS_TOOLS and t.name not in wanted:
            continue
        if t.answers and t.name not in ANALYSIS_TOOLS and wanted and not data_open:
            continue
        out.append(t.name)
    return out


def wrong_measure(g: Grounding, tool: str, args: Any) -> str:
    """Why a call reads the wrong measure ('' when it does not): its series is not the measure the question asks
    for (an energy question reads an energy or a power sensor; "temperature" a temperature), the series compared
    with a limit is itself a setpoint, or two series are subtracted, added or compared that are not one quantity
    in one unit (a ratio may cross kinds: kW per ton). Checked before the call runs; the Observation says which
    sensors would do."""
    if g.catalog is None or g.links is None or not isinstance(args, dict):
        return ""
    site = g.catalog.canonical_site(str(args.get("site_name", "")))
    sensor = args.get("sensor_name")
    if site is None or not isinstance(sensor, str):
        return ""
    names = args.get("asset_names") or ([args["asset_name"]] if isinstance(args.get("asset_name"), str) else [])
    assets = [a for n in names if isinstance(n, str) and (a := g.catalog.canonical_asset(site, n))]
    if not assets and isinstance(args.get("asset_type"), str):
        assets = g.catalog.site(site).assets_of_type(args["asset_type"])
    first = _measure(g.catalog, site, assets, sensor)
    if first is None:
        return ""
    if first.setpoint and sensor not in g.links.sensors and not TABLE.setpoint.search(g.asked_text()):
        # "what's freezer room 2 at right now" (the setpoint said only in a refused piece): the measured value
        measured = [
            s.short
            for a in assets[:1]
            for s in g.catalog.sensors(site, a)
            if not (m := point_measure(s)).setpoint and m.quantity == first.quantity
        ]
        offer = f"; the measured series: {', '.join(measured[:8])}" if measured else ""
        return f"{sensor} is a setpoint, and the question does not ask for a setpoint{offer}."
    wanted = g.links.measures
    if wanted and not fits(wanted, first) and sensor not in g.links.sensors:  # a series the words named is asked
        good = [
            s.short
            for a in assets[:1]
            for s in g.catalog.sensors(site, a)
            if fits(wanted, m := point_measure(s)) and m.quantity is not None and not m.setpoint
        ]
        offer = f"; the sensors that measure it: {', '.join(good[:8])}" if good else ""
        return (
            f"{sensor} measures {first.quantity or 'something else'}, and the question asks for "
            f"{' or '.join(wanted)}{offer}."
        )
    if wanted == ["energy"] and first.quantity == "power" and not args.get("final") and assets:
        # a reading at one instant ("what did the kWh register read at midnight"): a power sample is no energy
        registers = [s.short for s in g.catalog.sensors(site, assets[0]) if point_measure(s).quantity == "energy"]
        if registers:
            return (
                f"{sensor} measures power; an energy reading at one instant is read from the energy sensor: "
                f"{', '.join(registers[:4])}."
            )
    other = args.get("limit_sensor") or (args.get("other_sensor") if args.get("op") in ("difference", "sum") else None)
    if isinstance(other, str):
        owner = args.get("other_asset") if isinstance(args.get("other_asset"), str) else None
        second = _measure(
            g.catalog, site, [g.catalog.canonical_asset(site, owner) or owner] if owner else assets, other
        )
        if second is not None and not comparable(first, second):
            return (
                f"{sensor} ({first.quantity or '?'}, {first.unit or 'no unit'}) and {other} "
                f"({second.quantity or '?'}, {second.unit or 'no unit'}) are not one quantity in one unit: "
                f"they cannot be subtracted, added or compared."
            )
        if tool == "excursions" and first.setpoint and second is not None and not second.setpoint:
            return f"{sensor} is a setpoint: compare the measured series with it, not the other way round."
    return ""


def _measure(catalog: Catalog, site: str, assets: list[str], sensor: str) -> Measure | None:
    """The measure of `sensor` (full or short name) on the first of `assets` that has it."""
    for asset in assets:
        for s in catalog.sensors(site, asset):
            if key(sensor) in (key(s.short), key(s.name)):
                return point_measure(s)
    return None


def call_key(tool: str, step: int, args: Any) -> str:
    """A call's identity (tool and arguments): a call made again replaces the earlier one's head."""
    return f"{tool} {json.dumps(args, sort_keys=True, default=str)}" if args is not None else f"{tool} {step}"


def named_in(args: Any) -> list[str]:
    """The site and asset names a call's arguments give ({site_name, asset_name(s)})."""
    if not isinstance(args, dict):
        return []
    out = []
    for k in ("site_name", "asset_name", "asset_names"):
        v = args.get(k)
        out += [v] if isinstance(v, str) else [x for x in v if isinstance(x, str)] if isinstance(v, list) else []
    return out


def invented_names(catalog: Catalog, args: Any) -> list[str]:
    """The names in tool arguments ({site_name, asset_name(s), sensor_name}) that `catalog` lacks."""
    if not isinstance(args, dict):
        return []
    out: list[str] = []
    site = args.get("site_name")
    if not isinstance(site, str):
        return out
    canonical = catalog.canonical_site(site)
    if canonical is None:
        return [site]
    assets = args.get("asset_names", args.get("asset_name"))
    assets = [assets] if isinstance(assets, str) else [a for a in assets or [] if isinstance(a, str)]
    found = []
    for asset in assets:
        name = catalog.canonical_asset(canonical, asset)
        if name is None:
            out.append(asset)
        else:
            found.append(name)
    sensor = args.get("sensor_name")
    if isinstance(sensor, str) and found:
        for asset in found:
            if not catalog.has_sensor(canonical, asset, sensor) and not _prefixed_sensor(
                catalog, canonical, asset, sensor, found
            ):
                out.append(sensor)
                break
    return out


def _prefixed_sensor(catalog: Catalog, site: str, asset: str, sensor: str, assets: list[str]) -> bool:
    """ "Chiller 6 Tonnage" asked of Chiller 9 too: the part after any listed asset's name."""
    for other in assets:
        m = re.match(re.escape(other) + r"[\s_]+(.+)$", sensor, re.I)
        if m and catalog.has_sensor(site, asset, m.group(1)):
            return True
    return False


def pins(reading: Reading, other: tuple[str, str] | None = None, energy_asked: bool = False) -> dict[str, Any]:
    """The analysis arguments the question states (`x-question` marks): those of its first analysis part (and the
    second of two periods compared). `energy_asked`: the question's measure is an energy its words name and no sensor
    holds ("import more electricity"): two periods are compared by it."""
    part = next((p for p in reading.parts if p.ask in ANSWERED_BY), None)
    if part is None:
        return {}
    # two periods compared with no aggregate said ("was the humidity higher last week or the week before") are
    # compared by their means: what "higher" of a whole period says; a maximum or minimum is said when meant
    statistic = part.statistic or (("energy" if energy_asked else "mean") if part.ask == "periods" else None)
    stated = {
        "statistic": statistic,
        "order": part.order,
        "op": part.op,
        "direction": part.direction,
        "limit": part.limit,
        "limit_unit": part.limit_unit if part.limit is not None else None,  # selects the series compared (`scope`)
        "setpoint": part.setpoint,
        "report": {"duration": "how_long", "excursion": "whether"}.get(part.ask),
        "other_start": other[0] if other else None,
        "other_final": other[1] if other else None,
    }
    return {k: v for k, v in stated.items() if v is not None}
