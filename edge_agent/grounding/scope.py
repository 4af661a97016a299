"""Which site, asset and sensor names a tool call may write, as JSON-schema constraints.

A tool marks an argument that names something on the SkySpark with `SITE_REF`, `ASSET_REF` or
`SENSOR_REF` (see `edge_agent.toolkit`), and a period argument with `START_REF` / `FINAL_REF`, the way
`FILE_REF` marks a file name. `Scope.from_links` decides what may be written for one run:

- sites: the sites the question names, else every site;
- assets: per site, the assets the question names, else every asset of that site (at most
  `MAX_NAMES`; a larger site offers the assets named in the question and in this run's Observations);
  none at all when the question names only assets the SkySpark lacks — there is nothing to read;
- sensors: per site, the sensors the question names that exist on the allowed assets, else every
  sensor of those assets; where a call names both an asset and a sensor, the site's branch is split by
  the assets' sensor sets (`groups`), so a sensor is only ever paired with an asset that has it;
- an asset list (`asset_names`) is exactly the assets the question names, when it names some;
- an equipment-kind filter (`asset_type`) is the kind the question names ("the chillers"), else absent;
- start and final are the period worked out from the question, when there is one (no final for an
  instant);
- an analysis tool's statistic, order, operation, direction and limit (`x-question` marks) are what the question
  states, where it states them (`pins`, from `question.Part`); a limit sensor (`x-role: setpoint`) is one of the
  asset's setpoints, the sensor compared with it one that is not, a ranking by energy only a power sensor.

`Scope.constrain(schema)` rewrites a tool's argument schema into an `anyOf` over the allowed sites,
each with its own assets and sensors, so an asset of another site cannot be paired with a site.
"""

from __future__ import annotations

import copy
import json
import re
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from edge_agent.analysis import is_power
from edge_agent.grounding import fieldvocab
from edge_agent.grounding.catalog import Catalog, SensorName
from edge_agent.grounding.forms import FUNCTION_WORDS
from edge_agent.grounding.links import Links
from edge_agent.grounding.measures import counted_unit, fits, point_measure

MAX_NAMES = 400
MAX_MEMBERS = 8  # a kind named in the plural with at most this many assets is the list of its assets
MAX_GROUPS = 32  # more distinct sensor sets than this on one site: one branch for the site, the tool checks

SITE, ASSET, SENSOR, START, FINAL, ASSET_TYPE = "site", "asset", "sensor", "start", "final", "asset_type"
QUESTION_MARKS = (
    "statistic",
    "order",
    "op",
    "direction",
    "limit",
    "limit_unit",
    "report",
    "other_start",
    "other_final",
)
#: how point names write a setpoint (Haystack's `sp` marker, "Setpoint", "SP", "Setpt")
SETPOINT = re.compile(r"set\s*-?\s*p(?:oin)?t|(?:^|[\s_])sp(?:$|[\s_])", re.I)


@dataclass(frozen=True)
class SiteScope:
    assets: tuple[str, ...]
    sensors: tuple[str, ...]
    fixed_assets: tuple[str, ...] = ()  # the exact list for an asset-list argument
    types: tuple[str, ...] = ()  # the kinds of equipment the question names that the site has
    groups: tuple[tuple[tuple[str, ...], tuple[str, ...]], ...] = ()  # (assets, the sensors they all have)
    power: tuple[str, ...] = ()  # the sensors in scope whose unit is power (W, kW, MW)
    setpoints: tuple[str, ...] = ()  # the assets' setpoint sensors (a limit to compare a sensor with)
    # the measured sensors a named setpoint is of ("its holding temp setpoint": Holding Temp is compared with it)
    setpoint_of: tuple[str, ...] = ()
    # each fixed asset's own sensors among those measuring what is asked (two series of two assets: each its own)
    own: tuple[tuple[str, tuple[str, ...]], ...] = ()
    # the sensors a word of the question names among several that measure what is asked ("returned": Return Temp)
    worded: tuple[str, ...] = ()
    # the direction of a two-way flow the question asks (`export` / `import`): `sensors` are the points that carry its
    # marker (`directed`), or, where the assets have such points but none of the measure asked, the series left are
    # signed and which sign is that direction is unknown (`unsigned`)
    directed: str = ""
    unsigned: str = ""
    # a signed series whose points' description says which sign the direction asked is ("+ discharging, - charging"):
    # "+" or "-" (`fieldvocab.sign_convention`); `directed` is then that direction
    sign: str = ""

    def by_sensor_set(self) -> list[SiteScope]:
        """This scope split so that every asset in a part has every sensor of the part."""
        if self.fixed_assets or not self.groups or len(self.groups) > MAX_GROUPS:
            return [self]
        return [
            SiteScope(
                assets=a,
                sensors=s,
                types=self.types,
                power=self.power,
                setpoints=self.setpoints,
                setpoint_of=self.setpoint_of,
            )
            for a, s in self.groups
        ]


@dataclass(frozen=True)
class Scope:
    sites: dict[str, SiteScope] = field(default_factory=dict)
    start: str | None = None
    final: str | None = None
    period: bool = False  # start/final are fixed (final None: an instant)
    pins: dict[str, Any] = field(default_factory=dict)  # what the question states for `x-question` arguments
    named_sensors: tuple[str, ...] = ()  # the sensors the question names, in its order

    @classmethod
    def from_links(
        cls,
        links: Links,
        catalog: Catalog,
        *,
        start: str | None = None,
        final: str | None = None,
        seen: frozenset[str] = frozenset(),
        pins: dict[str, Any] | None = None,
        setpoint_said: bool = True,
        feedback_asked: bool = False,
        kind_listed: bool = False,
        qualified: dict[str, list[str]] | None = None,
        asked: str = "",
        peak_asked: bool = False,
    ) -> Scope:
        """`kind_listed`: the question asks for the series of a kind it names in the plural at one site (no ranking,
        no comparison): the kind's assets (those whose names hold the words that narrow the kind: `qualified`, "NH3
        compressors") are the exact list an asset-list argument takes."""
        sites = links.sites or list(catalog.sites)
        named_missing = any(m.kind == "asset" for m in links.missing)
        out: dict[str, SiteScope] = {}
        for site in sites:
            every = catalog.assets(site)
            linked = [a for a in links.assets if links.asset_sites.get(a) == site]
            if linked:
                assets = linked
            elif links.assets or named_missing:
                assets = []  # the question names assets elsewhere, or only ones that do not exist
            elif site_meters := _site_meters(catalog, site, links):
                assets = site_meters  # "did fresno use more electricity": the site's electricity meters
            elif len(every) <= MAX_NAMES:
                assets = every
            else:
                assets = [a for a in every if a in seen][:MAX_NAMES]
            kinds = [a for t in links.asset_types for a in catalog.site(site).assets_of_type(t)] if not linked else []
            shorts: dict[str, None] = {}
            for asset in kinds or assets:  # "the power meters": the sensors the meters have
                for s in catalog.sensors(site, asset):
                    shorts.setdefault(s.short, None)
            wanted = [s for s in links.sensors if s in shorts]
            sensors = (
                wanted
                if links.sensors
                else _measuring(catalog, site, kinds or assets, links.measures, list(shorts))[:MAX_NAMES]
            )
            directed, unsigned, sign = "", "", ""
            if direction := fieldvocab.flow_direction(_without_names(asked, catalog, site)):
                # a rate, never a register, unless an amount is asked ("how long was it exporting", "when was it
                # discharging the hardest": the power; "how much energy did it give back": the register too)
                amount = {"energy", "volume", "mass"} & set(links.measures) or (pins or {}).get("statistic") in (
                    "energy",
                    "sum",
                )
                # a peak or its time is a rate's too ("the time at which the export to the grid peaked")
                rates = bool((pins or {}).get("report")) or not amount or bool(_PEAKED.search(asked))
                directed, unsigned, sensors = _directed(catalog, site, kinds or assets, sensors, direction, rates)
                timed = (pins or {}).get("report") and (pins or {}).get("limit") in (None, 0.0)
                if unsigned and (timed or (amount and not rates)):
                    # "how many hours was the battery charging" of a series whose description says "- charging": the
                    # time it was below 0; "how much did it discharge": its energy above 0 (a signed power's energy
                    # is said by sign, `analysis.energy_by_sign`)
                    sign = _sign_said(catalog, site, kinds or assets, sensors, unsigned)
                    directed, unsigned = (unsigned, "") if sign else (directed, unsigned)
            if (
                feedback_asked and len(sensors) > 1 and not _COMMAND_SAID.search(asked)
            ):  # "where was the valve sitting":
                # its position (the feedback), not the command sent to it, unless the question says command or signal
                fed = [x for x in sensors if not _has_feedback(catalog, site, kinds or assets, x, sensors)]
                sensors = fed or sensors
            worded: list[str] = []
            if not links.sensors and len(sensors) > 1:  # "returned the coolest water": of the temperatures, the one
                # the question's words name ("discharge rate": Discharge Power); never by a word of a name ("Heat Pump")
                said = _without_names(asked, catalog, site, sensors, links.assets)
                for m in links.mentions:  # "the air handling units": a kind's words name no series of it
                    if m.kind == "asset" and m.name in links.asset_types and m.text and not links.assets:
                        said = re.sub(re.escape(m.text), " ", said, flags=re.I)
                worded = said_among(said, sensors)
                if not links.measures and (
                    len(worded) != 1 or _is_setpoint(catalog, site, kinds or assets, worded[0])
                ):  # no measure word: only a word that names one measured series ("the least loaded transformer":
                    worded = []  # Load; "its speed": Speed Cmd; never "its sp", the limit of a comparison)
                if not worded and not links.measures:  # "the water meter reading at 6pm": its running total
                    worded = _register_read(catalog, site, kinds or assets, sensors, asked)
                sensors = worded or sensors
            if not links.sensors and not setpoint_said:  # "what's freezer room 2 at": its measured series
                measured = [x for x in sensors if not _is_setpoint(catalog, site, kinds or assets, x)]
                sensors = measured or sensors
            if (unit := (pins or {}).get("limit_unit")) and not links.sensors:  # "below 30 %": the series in %
                # (the limit's unit selects it)
                sensors = _in_unit(catalog, site, kinds or assets, sensors, unit, links.measures)
            elif (
                unit
                and (
                    fitting := _fitting(catalog, site, kinds or assets, sensors, unit)
                    or _fitting(catalog, site, kinds or assets, list(shorts), unit)
                )
                and set(fitting) != set(sensors)
                and all(m.how in ("loose", "part", "near") for m in links.mentions if m.kind == "sensor")
            ):
                # "guide brg vib … over 4.5 mm/s": series linked by loose words ("guide": Guide Vane Opening, %; "brg":
                # Thrust Bearing Temp) that the limit's unit does not fit give way to the series it fits (Vibration)
                sensors = fitting
            elif (
                (said_in := _unit_asked(asked))
                and not links.sensors
                and len(sensors) > 1
                and not ({"energy"} & set(links.measures) or (pins or {}).get("statistic") in ("energy", "sum"))
            ):  # "how low did the pond get in m³": its Volume (an amount "in kWh" is computed from the rate, as ever)
                sensors = _in_unit(catalog, site, kinds or assets, sensors, said_in)
            if (
                not links.sensors
                and len(sensors) > 1
                and (peak_asked or (pins or {}).get("statistic") in ("max", "min"))
                and not fieldvocab.summable_unit(_unit_asked(asked) or "")
            ):  # "when did its maximum demand on the grid occur": a peak is a rate's, never a register's (whose
                # highest reading is its last); an interval's amount peaks where its rate does
                points = {x.short: x for a in kinds or assets for x in catalog.sensors(site, a)}
                flows = [x for x in sensors if x in points and not _adds_up(points[x])]
                sensors = flows or sensors
            if linked:  # a sensor every named asset has, where there is one
                owned = [{s.short for s in catalog.sensors(site, a)} for a in linked]
                common = [s for s in sensors if all(s in own for own in owned)]
                sensors = common or sensors
            types = tuple(t for t in links.asset_types if t in catalog.types(site))
            units = {s.short: s.unit for a in assets for s in catalog.sensors(site, a)}
            # energy is computed from power: every power sensor of the assets compared (of the kinds the question
            # names, where it names kinds and no asset), whatever measurement word the question used
            pool = kinds or assets
            power = tuple(dict.fromkeys(x.short for a in pool for x in catalog.sensors(site, a) if is_power(x.unit)))
            if directed:  # "how much energy did it export": from the power of that direction alone
                power = tuple(p for p in power if p in sensors) or power
            # no power to compute an energy from: a sensor the question names that an amount is computed from ("did
            # boiler_1 burn more gas": its gas_flow in cfh; "use more steam": the steam meter's running total)
            if (pins or {}).get("statistic") == "energy":  # a named sensor an amount is computed from comes first
                named_amount = tuple(  # a rate (never a series already in an amount's unit: kWh per interval)
                    n
                    for n in links.sensors
                    if n in units and _gives_amount(units[n]) and not fieldvocab.summable_unit(units[n])
                )
                power = named_amount or power  # ("did the terminal burn more gas": its Gas Flow, not a fan's power)
            swap = _rates_for_amounts(sensors, units, power) if (pins or {}).get("op") == "ratio" else {}
            sensors = list(dict.fromkeys(swap.get(x, x) for x in sensors))  # "MWh of DC energy per tonne": DC Power
            tagged_sp = {x.short for a in assets for x in catalog.sensors(site, a) if point_measure(x).setpoint}
            setpoints = _setpoints(list(units), links.sensors, tagged_sp)
            # the series the setpoints in play are of: those among the sensors, else the assets' own ("colder than its
            # setpoint": space_temp of space_temp_sp, not the supply air temp the measure also fits)
            setpoint_of = _measured_of(list(units), [n for n in sensors if SETPOINT.search(n) or n in tagged_sp])
            if not setpoint_of and all(_measured_of(list(units), [p]) for p in setpoints):
                setpoint_of = _measured_of(list(units), list(setpoints))  # where every setpoint's series is known
            # "vault_rh of both dehumidifiers": the kind named in the plural, no asset named, is its assets (those
            # with the series asked for), the exact list for an asset-list argument
            members = [a for a in kinds if all(catalog.has_sensor(site, a, x) for x in links.sensors)]
            narrowing = (qualified or {}).get(links.asset_types[0], []) if len(links.asset_types) == 1 else []
            members = [a for a in members if all(w.casefold() in a.casefold() for w in narrowing)]
            listed = kind_listed and len(links.sites) == 1 and 2 <= len(members) <= MAX_MEMBERS
            listed = listed and len(links.asset_types) == 1
            fixed = linked or (members if listed else [])
            named = {swap.get(x, x) for x in links.sensors}
            own = tuple(  # an asset that has none of the named sensors: its own ("the HV meter kW over the … flow")
                (a, tuple(_measuring(catalog, site, [a], links.measures, mine)))
                for a in fixed
                if (mine := [x.short for x in catalog.sensors(site, a) if x.short in named])
                or (mine := [x.short for x in catalog.sensors(site, a)])
            )
            out[site] = SiteScope(
                assets=tuple(assets),
                sensors=tuple(sensors),
                fixed_assets=tuple(fixed),
                types=types,
                groups=_groups(catalog, site, assets, sensors),
                power=power,
                setpoints=setpoints,
                setpoint_of=setpoint_of,
                own=own,
                worded=tuple(worded),
                directed=directed,
                unsigned=unsigned,
                sign=sign,
            )
        signs = {v.sign for v in out.values() if v.sensors}
        settled = next(iter(signs)) if len(signs) == 1 else ""
        if settled:  # the crossing of 0 the sign is: above it "+", below it "-"
            pins = {**(pins or {}), "direction": "above" if settled == "+" else "below", "limit": 0.0}
        return cls(
            sites=out,
            start=start,
            final=final if final != start else None,
            period=start is not None,
            pins=dict(pins or {}),
            named_sensors=tuple(links.sensors),
        )

    def without(self, sensors: set[str]) -> Scope:
        """This scope with no sensor of `sensors` where a site's scope keeps another (what a Review found wrong)."""
        if not sensors:
            return self

        def keep(names: tuple[str, ...]) -> tuple[str, ...]:
            return tuple(n for n in names if n not in sensors) or names

        sites = {
            k: replace(
                v,
                sensors=keep(v.sensors),
                own=tuple((a, keep(o)) for a, o in v.own),
                groups=tuple((a, keep(g)) for a, g in v.groups),
                setpoint_of=keep(v.setpoint_of),
            )
            for k, v in self.sites.items()
        }
        return replace(self, sites=sites)

    def signature(self) -> str:
        return json.dumps(
            [
                sorted(
                    (k, v.assets, v.sensors, v.fixed_assets, v.types, v.groups, v.power, v.setpoints)
                    for k, v in self.sites.items()
                ),
                self.start,
                self.final,
                self.period,
                sorted(self.pins.items()),
                self.named_sensors,
            ]
        )

    def constrain(self, schema: dict[str, Any]) -> dict[str, Any] | None:
        """`schema` with its marked arguments limited to this scope; None when no call can be written
        (e.g. an asset argument and no asset in scope)."""
        props = schema.get("properties", {})
        marks = {
            name: p.get("x-catalog") or p.get("x-period") or p.get("x-question")
            for name, p in props.items()
            if p.get("x-catalog") or p.get("x-period") or p.get("x-question")
        }
        if not marks:
            return schema
        needs_site = any(m in (SITE, ASSET, SENSOR, ASSET_TYPE) for m in marks.values())
        pairs = ASSET in marks.values() and SENSOR in marks.values()
        branches = []
        for site, whole in self.sites.items() if needs_site else [("", SiteScope((), ()))]:
            for scope in whole.by_sensor_set() if pairs else [whole]:
                branch = self._branch(schema, marks, site, scope)
                if branch is not None:
                    branches.append(branch)
        if not branches:
            return None
        if len(branches) == 1:
            return branches[0]
        defs = {k: v for k, v in schema.items() if k.startswith("$defs")}
        return {"anyOf": branches, **defs}

    def _branch(
        self, schema: dict[str, Any], marks: dict[str, str], site: str, scope: SiteScope
    ) -> dict[str, Any] | None:
        out = copy.deepcopy(schema)
        props, required = out["properties"], list(out.get("required", []))
        pins = self.pins
        for name, mark in marks.items():
            prop = props[name]
            if mark in QUESTION_MARKS:
                value = pins.get(mark)
                if mark == "limit" and pins.get("setpoint"):  # compared with a setpoint series, not a number
                    del props[name]
                    required = [r for r in required if r != name]
                elif value is not None:
                    props[name] = {"enum": [value]}
                    if name not in required:
                        required.append(name)
                continue
            if mark == SENSOR and prop.get("x-role") == "setpoint":
                if "limit" in pins or not pins.get("setpoint"):
                    del props[name]
                    required = [r for r in required if r != name]
                    continue
                setpoints = list(scope.setpoints)
                if not setpoints:
                    return None
                props[name] = {"enum": setpoints}
                if name not in required:
                    required.append(name)
                continue
            if mark == SENSOR and prop.get("x-role") == "measured" and pins.get("setpoint"):
                measured = [s for s in scope.sensors if not SETPOINT.search(s) and s not in scope.setpoints] or list(
                    scope.setpoint_of
                )
                if not self.named_sensors and scope.setpoint_of:  # "below setpoint": the series a setpoint is of
                    measured = list(scope.setpoint_of)
                # "the mixing valve was sticking — did the flow temp dip below its setpoint": only a series a setpoint
                # is of is compared with one (never the valve's %)
                measured = [s for s in measured if s in scope.setpoint_of] or measured
                if not measured:
                    return None
                props[name] = {"enum": measured}
                continue
            if (
                mark == SENSOR
                and pins.get("statistic") == "energy"
                and any(p.get("x-question") == "statistic" for p in schema["properties"].values())
            ):
                if not scope.power:
                    return None
                # of the power series, those the question's words kept ("used the most electricity": the CRACs' Input
                # kW, not their Cooling kW)
                props[name] = {"enum": [p for p in scope.power if p in scope.sensors] or list(scope.power)}
                continue
            role = prop.get("x-role")
            one_asset = len(set(scope.fixed_assets)) <= 1
            apart = pins.get("setpoint") and one_asset and scope.setpoints
            if role in ("first", "second") and mark == SENSOR and apart:
                # "how far above its setpoint": the measured series first, the setpoint it is of second; "how far
                # below" / "fall short of": the setpoint first, so the shortfall is positive, as it is said
                measured = list(scope.setpoint_of) or [s for s in scope.sensors if s not in scope.setpoints]
                first, second = (
                    (list(scope.setpoints), measured)
                    if pins.get("direction") == "below"
                    else (
                        measured,
                        list(scope.setpoints),
                    )
                )
                props[name] = {"enum": first if role == "first" else second}
                continue
            if role in ("first", "second"):  # two series: the question's two sensors, or its two assets, in its order
                n = 0 if role == "first" else 1
                if pins.get("op") == "difference" and pins.get("direction") == "below":
                    n = 1 - n  # "X fell short of Y": Y less X, the shortfall positive as it is said
                pool = list(scope.fixed_assets) if mark == ASSET else list(self.named_sensors) if mark == SENSOR else []
                if mark == ASSET and len(pool) == 1:
                    pool = pool * 2  # two sensors of one asset
                if mark == SENSOR and len(pool) == 1:
                    pool = pool * 2  # one sensor of two assets
                if len(pool) == 2 and (mark == ASSET or pool[n] in scope.sensors):
                    props[name] = {"enum": [pool[n]]}
                    continue
                two = scope.fixed_assets
                mine = dict(scope.own).get(two[n]) if mark == SENSOR and len(two) == 2 and two[0] != two[1] else None
                if mine:  # "the ratio of INV-02's output to PV Block 2's DC": each series of its own asset's sensors
                    props[name] = {"enum": list(mine)}
                    continue
            if mark == ASSET and prop.get("x-role") == "optional-list" and not scope.fixed_assets:
                del props[name]  # every asset (of the kind named) is compared: no subset for the model to pick
                required = [r for r in required if r != name]
                continue
            if mark == SITE:
                props[name] = {"enum": [site]}
            elif mark == ASSET:
                if not scope.assets:
                    return None
                if prop.get("type") == "array" or "items" in prop or prop.get("x-role") == "optional-list":
                    if scope.fixed_assets and name not in required:
                        required.append(name)
                    if scope.fixed_assets:
                        n = len(scope.fixed_assets)
                        props[name] = {
                            "type": "array",
                            "prefixItems": [{"enum": [a]} for a in scope.fixed_assets],
                            "items": False,
                            "minItems": n,
                            "maxItems": n,
                        }
                    else:
                        props[name] = {"type": "array", "items": {"enum": list(scope.assets)}, "minItems": 1}
                else:
                    props[name] = {"enum": list(scope.assets)}
            elif mark == SENSOR:
                if not scope.sensors:
                    return None
                props[name] = {"enum": list(scope.sensors)}
            elif mark == ASSET_TYPE:  # only the kind the question names; no free filter to fill with junk
                if scope.types:
                    props[name] = {"enum": list(scope.types)}
                    required.append(name)
                else:
                    del props[name]
                    required = [r for r in required if r != name]
                    continue
            elif mark == START and self.period:
                props[name] = {"enum": [self.start]}
            elif mark == FINAL and self.period:
                if self.final is None:
                    del props[name]
                    required = [r for r in required if r != name]
                    continue
                props[name] = {"enum": [self.final]}
                if name not in required:
                    required.append(name)
        out["required"] = [r for r in list(props) if r in required]
        out["additionalProperties"] = False
        return out


def _site_meters(catalog: Catalog, site: str, links: Links) -> list[str]:
    """A site's electricity meters (Haystack `elecMeter`), where the question asks a site's energy or power and names
    no asset and no kind of equipment: what a site uses is what its meters measure, not one machine's series."""
    if links.assets or links.asset_types or not {"energy", "power"} & set(links.measures):
        return []
    meters = catalog.site(site).assets_of_type("elecMeter")
    main = [m for m in meters if "siteMeter" in catalog.site(site).markers.get(m, ())]  # Haystack: the site's main
    return main or meters  # meter, where one is marked so (not the sub-meters of one system)


def _measuring(catalog: Catalog, site: str, assets: list[str], wanted: list[str], shorts: list[str]) -> list[str]:
    """The sensors of `shorts` that measure what the question asks for (`Links.measures`: its quantity kinds; an
    energy also from power), setpoints and commands aside; all of them where it asks for no measure or none fits
    (the linking then says what is missing)."""
    if not wanted:
        return shorts
    points = [
        s
        for a in assets
        for s in catalog.sensors(site, a)
        if (m := point_measure(s)).quantity is not None
        and fits(wanted, m)
        and m.function != "setpoint"
        and m.function != "command"
    ]
    if "energy" in wanted and any("elec" in s.tags for s in points):  # energy asked: the electricity a thing uses,
        points = [s for s in points if "elec" in s.tags or "energy" in s.tags]  # not its cooling or heating output
    fitting = {s.short for s in points}
    return [s for s in shorts if s in fitting] or shorts


def _stem(word: str) -> str:
    """A word without its inflection ("returned", "returning", "returns" → "return"; "discharge" → "discharg")."""
    w = word.casefold()
    for end in ("ing", "ed", "es", "s", "e"):
        if w.endswith(end) and len(w) - len(end) >= 4:
            return w[: -len(end)]
    return w


def _without_names(
    asked: str, catalog: Catalog, site: str, sensors: Sequence[str] = (), named: Sequence[str] = ()
) -> str:
    """The asked text without the words of the site's asset names, the sites' names and the kinds ("Heat Pump 2",
    "Valby District Heating": no word of a series); a word of one of `sensors` that no asset the question `named`
    holds stays ("the chocolate the hottest in the line one temperer": Chocolate Temp, though the site is a chocolate
    factory)."""
    names = {w.casefold() for a in [*catalog.assets(site), *catalog.sites] for w in re.findall(r"[^\W\d_]+", a)}
    names |= {w.casefold() for t in catalog.types(site) for w in re.findall(r"[^\W\d_]+", t)}
    if named:
        own = {w.casefold() for a in named for w in re.findall(r"[^\W\d_]+", a)}
        names -= {w.casefold() for x in sensors for w in re.findall(r"[^\W\d_]+", x)} - own
    return " ".join(w for w in re.findall(r"[^\W\d_]+|\S", asked) if w.casefold() not in names)


def _stems(text: str) -> set[str]:
    """The stems of a text's words; a two-letter word only where it is no function word ("ac", "dc", not "at")."""
    return {_stem(w) for w in re.findall(r"[^\W\d_]{2,}", text) if len(w) > 2 or w.casefold() not in FUNCTION_WORDS}


def said_among(asked: str, sensors: list[str]) -> list[str]:
    """Of several series that measure what is asked, those a word of the question names by a word of their own that
    the others lack ("returned the coolest water": Return Temp of Supply Temp and Return Temp); [] where none is."""
    said = _stems(asked)
    own = {s: _stems(s) for s in sensors}
    shared = set.intersection(*own.values()) if own else set()
    return [s for s in sensors if (own[s] - shared) & said]


#: "what did the meter read", "the water meter reading": a meter's running total
_READ = re.compile(r"\bmeter\s+reading\b|\bread(?:ing)?\s+(?:of|on)\b|\bdid\b.{1,60}\bread\b", re.I)


#: the equipment markers of storage, whose electrical series flow both ways (Haystack `battery`, Brick's Energy_Storage)
_STORES = frozenset({"battery", "bess", "energyStorage", "ess"})


def _electrical(x: SensorName) -> bool:
    """A power or a current series (what a battery's charge and discharge flow through)."""
    q = fieldvocab.quantity_of_unit(x.unit)
    return is_power(x.unit) or (q is not None and q.name == "electric current")


#: a peak asked, or its time ("when did the export peak", "the maximum discharge"): a rate's, never a running total's
_PEAKED = re.compile(r"\b(?:peak(?:s|ed|ing)?|max(?:imum)?|highest|hardest|fastest)\b", re.I)


def _directed(
    catalog: Catalog, site: str, assets: list[str], sensors: list[str], direction: str, rates: bool = False
) -> tuple[str, str, list[str]]:
    """A direction of a two-way flow asked ("exported", "regenerative"): of the electrical series that measure what is
    asked, those whose points carry its Haystack marker (`export`, `import`) → (direction, "", them). Where the assets
    have points marked with a direction but none of these is marked, the series are signed and which sign is the
    direction asked is not recorded → ("", direction, sensors). Assets with no such points: nothing to settle.
    `rates`: the part times or tests a crossing ("for how many hours was it exporting"), which only a rate answers."""
    points = [x for a in assets for x in catalog.sensors(site, a)]
    ways = {m for x in points for m in ("export", "import") if m in x.tags}
    described = [
        s
        for s in sensors
        if any(x.short == s and direction in fieldvocab.sign_convention(x.description) for x in points)
    ]
    if described and direction not in ways:  # "Signed: + motoring, - regenerating": a signed series whose description
        return "", direction, described  # says which sign is which (a point tagged with the direction comes first)
    storage = any(m in _STORES for a in assets for m in catalog.site(site).markers.get(a, ()))
    if not ways and storage:  # a battery's current or power flows both ways, and no point says which sign is which
        flowing = [s for s in sensors if any(x.short == s and _electrical(x) for x in points)]
        if flowing:
            return "", direction, flowing
    if direction not in ways and len(ways) < 2:  # the assets record one direction (a meter's import): no other
        return "", "", sensors
    if rates:  # a duration or a crossing: a running total is never "above 0" only while it flows
        kept = [s for s in sensors if not any(x.short == s and fieldvocab.summable_unit(x.unit) for x in points)]
        sensors = kept or sensors
    marked = [s for s in sensors if any(x.short == s and direction in x.tags for x in points)]
    if marked:
        return direction, "", marked
    electrical = any(x.short in sensors and ("elec" in x.tags or is_power(x.unit)) for x in points)
    return "", direction if electrical else "", sensors


def _rates_for_amounts(sensors: list[str], units: dict[str, str | None], power: tuple[str, ...]) -> dict[str, str]:
    """In a ratio, an energy series (MWh: a register or an interval's amount) → the power of the same assets it is the
    amount of: a ratio is taken at each instant, of rates ("MWh of DC energy per tonne of aluminium": DC Power ÷ Metal
    Production, MW ÷ t/h = MWh/t); the power whose name shares a word with the energy's where there are several."""
    out: dict[str, str] = {}
    for x in sensors:
        q = fieldvocab.quantity_of_unit(units.get(x) or "")
        if q is None or q.name != "energy" or not power:
            continue
        words = set(x.casefold().split()) - {"energy"}
        out[x] = next((p for p in power if words & set(p.casefold().split())), power[0])
    return out


def _adds_up(point: SensorName) -> bool:
    """A point whose values add up: a running total (`hisTotalized`) or a unit of an amount (kWh, m³)."""
    return "hisTotalized" in point.tags or ((q := fieldvocab.quantity_of_unit(point.unit)) is not None and q.summable)


def _sign_said(catalog: Catalog, site: str, assets: list[str], sensors: list[str], direction: str) -> str:
    """The sign of `direction` ("import") that every one of `sensors`' points' descriptions state ('' where one says
    nothing, or they differ)."""
    said = {
        fieldvocab.sign_convention(x.description).get(direction, "")
        for a in assets
        for x in catalog.sensors(site, a)
        if x.short in sensors
    }
    return next(iter(said)) if len(said) == 1 else ""


def _register_read(catalog: Catalog, site: str, assets: list[str], sensors: list[str], asked: str) -> list[str]:
    """A meter's reading asked, no measure named: its running total (a point whose unit adds up, or `hisTotalized`)."""
    if not _READ.search(asked) or not all(
        any("meter" in t.casefold() for t in catalog.site(site).types.get(a, [])) for a in assets
    ):
        return []
    totals = {p.short for a in assets for p in catalog.sensors(site, a) if _adds_up(p)}
    return [s for s in sensors if s in totals]


def _unit_asked(asked: str) -> str | None:
    """The unit an answer is asked in ("how low did the pond get in m³", "in kWh"), where it is one the field knows."""
    m = re.search(r"\bin\s+([^\s,;?!]+)", asked)
    if m is None or fieldvocab.quantity_of_unit(m.group(1)) is None:
        return None
    return m.group(1)


def _in_unit(
    catalog: Catalog, site: str, assets: list[str], sensors: list[str], unit: str, measures: list[str] | None = None
) -> list[str]:
    """The sensors of `sensors` in the limit's `unit` ("44 F" of a °F series), else of its quantity ("30 %" of a %RH
    one); all of them where none is. Of those, the ones of a measure the question names: "humidity … under 70
    percent" is the Humidity series (%RH), not a valve's %."""
    points = {x.short: x for a in assets for x in catalog.sensors(site, a)}
    units = {name: x.unit or "" for name, x in points.items()}

    def ukey(u: str) -> str:  # "80 percent" is in %
        return re.sub(r"^(?:percent|per\s*cent|pct)$", "%", "".join(u.split()).casefold().lstrip("°"))

    same = [s for s in sensors if ukey(unit) and ukey(units.get(s, "")) == ukey(unit)]
    want = fieldvocab.quantity_of_limit_unit(unit)
    alike = [
        s
        for s in sensors
        if want is not None
        and (q := fieldvocab.quantity_of_unit(units.get(s))) is not None
        and _fits_limit(q.name, want.name)
    ]
    named = [
        s for s in dict.fromkeys(same + alike) if measures and s in points and fits(measures, point_measure(points[s]))
    ]
    return [s for s in named if s in same] or named or same or alike or sensors


#: the quantities whose unit is a percent of something ("%RH", "%LEL"): a limit in "%" is one of theirs too
_PERCENT_OF = frozenset({"relative humidity", "concentration"})


def _fits_limit(quantity: str, limit: str) -> bool:
    """A series of `quantity` is compared with a limit of quantity `limit` (a "%" limit fits a %RH series too)."""
    return quantity == limit or (limit == "dimensionless" and quantity in _PERCENT_OF)


def _fitting(catalog: Catalog, site: str, assets: list[str], sensors: list[str], unit: str) -> list[str]:
    """The sensors of `sensors` in the limit's unit or of its quantity ([] where none is), where the unit is no
    single letter ("k" of "sixty k an hour" is no kelvin)."""
    want = fieldvocab.quantity_of_limit_unit(unit)
    if len(unit.strip()) < 2 or want is None:
        return []
    units = {x.short: x.unit or "" for a in assets for x in catalog.sensors(site, a)}
    return [
        s
        for s in sensors
        if "".join(units.get(s, "").split()).casefold() == "".join(unit.split()).casefold()
        or ((q := fieldvocab.quantity_of_unit(units.get(s))) is not None and _fits_limit(q.name, want.name))
    ]


#: the words that ask for what a controller sent, not what the equipment did ("the valve command", "the cooling signal")
_COMMAND_SAID = re.compile(r"\b(?:command(?:ed|s)?|cmd|signal|demand(?:ed)?|requested|output\s+to|told\s+to)\b", re.I)


def _is_command(catalog: Catalog, site: str, assets: list[str], short: str) -> bool:
    """The point `short` of `assets` is a command (Haystack `cmd`, or "Cmd"/"Command" in its name)."""
    return any(
        point_measure(x).function == "command" for a in assets for x in catalog.sensors(site, a) if x.short == short
    )


def _has_feedback(catalog: Catalog, site: str, assets: list[str], short: str, among: list[str]) -> bool:
    """The point `short` of `assets` is a command and `among` holds its feedback: a point that is no command and
    whose name holds every other word of the command's ("Slide Valve Cmd" and "Slide Valve Position", "Run Cmd" and
    "Run Status"; "Speed Cmd" alone has none, and stays)."""
    if not _is_command(catalog, site, assets, short):
        return False
    own = {w.casefold() for w in re.findall(r"[^\W\d_]+", short)} - {"cmd", "command", "commanded"}
    return bool(own) and any(
        y != short
        and own <= {w.casefold() for w in re.findall(r"[^\W\d_]+", y)}
        and not _is_command(catalog, site, assets, y)
        for y in among
    )


def _is_setpoint(catalog: Catalog, site: str, assets: list[str], short: str) -> bool:
    """The point `short` of `assets` is a setpoint (by its tags or its name, as the field's vocabulary reads it)."""
    return any(point_measure(x).setpoint for a in assets for x in catalog.sensors(site, a) if x.short == short)


def _setpoints(
    sensors: list[str], named: list[str], tagged: set[str] | frozenset[str] = frozenset()
) -> tuple[str, ...]:
    """The setpoint sensors among `sensors`; those of a sensor the question names first ("Room Temp" → "Room Temp
    Setpoint"), and only those where there are some."""
    points = [s for s in sensors if SETPOINT.search(s) or s in tagged]  # "Oksygen settpunkt": its `sp` tag

    def key(s: str) -> str:
        return re.sub(r"[\s_\-]", "", s).casefold()

    own = [p for p in points if any(key(n) in key(p) for n in named if not SETPOINT.search(n))]
    return tuple(own or points)


def _gives_amount(unit: str | None) -> bool:
    """An amount over a period is computed from a series in this unit: a power (its energy), a rate of a volume or a
    mass (t/h, cfh: its amount), or a unit that adds up (a register's rise)."""
    quantity = fieldvocab.quantity_of_unit(unit)
    return is_power(unit) or (quantity is not None and quantity.summable) or bool(counted_unit(unit))


def _measured_of(sensors: list[str], setpoints: list[str]) -> tuple[str, ...]:
    """The measured sensors among `sensors` whose name is within a setpoint's of `setpoints` ("Holding Temp" of
    "Holding Temp Setpoint"): what "did it go under its holding temp setpoint" compares with that setpoint."""

    def key(s: str) -> str:
        return re.sub(r"[\s_\-]", "", s).casefold()

    return tuple(
        s for s in sensors if not SETPOINT.search(s) and s not in setpoints and any(key(s) in key(p) for p in setpoints)
    )


def _groups(
    catalog: Catalog, site: str, assets: list[str], sensors: list[str]
) -> tuple[tuple[tuple[str, ...], tuple[str, ...]], ...]:
    """The assets grouped by which of `sensors` they have, in catalog order."""
    out: dict[tuple[str, ...], list[str]] = {}
    for asset in assets:
        own = {s.short for s in catalog.sensors(site, asset)}
        has = tuple(s for s in sensors if s in own)
        if has:
            out.setdefault(has, []).append(asset)
    return tuple((tuple(a), s) for s, a in out.items())


# --- calls already made -------------------------------------------------------------------------

MAX_CALLS = 64  # a branch with more possible calls than this is left as it is


def _values(prop: dict[str, Any]) -> list[Any] | None:
    """The finite values an argument can take, or None."""
    if "enum" in prop:
        return list(prop["enum"])
    items = prop.get("prefixItems")
    if items is not None and prop.get("items") is False and all(len(i.get("enum", [])) == 1 for i in items):
        return [[i["enum"][0] for i in items]]
    return None


def _calls(branch: dict[str, Any]) -> list[dict[str, Any]] | None:
    """Every call a branch allows, when they are few and all arguments are required; else None."""
    props = branch.get("properties", {})
    if set(props) - set(branch.get("required", [])):
        return None
    combos: list[dict[str, Any]] = [{}]
    for name, prop in props.items():
        values = _values(prop)
        if values is None or len(combos) * len(values) > MAX_CALLS:
            return None
        combos = [{**c, name: v} for c in combos for v in values]
    return combos


def fold_fixed(schema: dict[str, Any]) -> tuple[dict[str, Any], dict[str, Any]]:
    """The schema without the required arguments that have one possible value in every branch (the one site, the
    period the question settled, the series the words name), and those values: the model spends no token on them;
    code writes them into the call (`steps.parse_step`). A call whose every argument is fixed is written `{}`."""
    branches = schema["anyOf"] if "anyOf" in schema else [schema]
    fixed: dict[str, Any] = {}
    for name in branches[0].get("properties", {}) if branches else {}:
        values = []
        for branch in branches:
            prop = branch.get("properties", {}).get(name)
            one = _values(prop) if prop is not None and name in branch.get("required", []) else None
            if one is None or len(one) != 1:
                break
            values.append(json.dumps(one[0], sort_keys=True))
        else:
            if len(set(values)) == 1:
                fixed[name] = json.loads(values[0])
    if not fixed:
        return schema, {}
    out = copy.deepcopy(schema)
    for branch in out["anyOf"] if "anyOf" in out else [out]:
        for name in fixed:
            branch.get("properties", {}).pop(name, None)
            if "required" in branch:
                branch["required"] = [r for r in branch["required"] if r != name]
    return out, fixed


def hidden_pins(args_schema: dict[str, Any], call: Any, pins: dict[str, Any]) -> Any:
    """The call's arguments with those the model never writes (`x-hidden` question marks, left out of the step's
    grammar) set from what the question states (`Scope.pins`)."""
    if not isinstance(call, dict):
        return call
    out = dict(call)
    for name, prop in args_schema.get("properties", {}).items():
        mark = prop.get("x-question")
        if prop.get("x-hidden") and mark in pins and name not in out:
            out[name] = pins[mark]
    return out


def _pinned(branch: dict[str, Any], call: dict[str, Any]) -> dict[str, Any]:
    out = copy.deepcopy(branch)
    for name, value in call.items():
        if isinstance(value, list):
            out["properties"][name] = {
                "type": "array",
                "prefixItems": [{"enum": [v]} for v in value],
                "items": False,
                "minItems": len(value),
                "maxItems": len(value),
            }
        else:
            out["properties"][name] = {"enum": [value]}
    return out


def drop_calls(schema: dict[str, Any], made: list[dict[str, Any]]) -> dict[str, Any] | None:
    """`schema` without the calls already `made` (where its calls can be listed); None if none is left.
    A call whose result is in hand cannot be written again."""
    if not made:
        return schema
    branches = schema["anyOf"] if "anyOf" in schema else [schema]
    out = []
    for branch in branches:
        calls = _calls(branch)
        if calls is None:
            out.append(branch)
            continue
        left = [c for c in calls if c not in made]
        if len(left) == len(calls):
            out.append(branch)
        else:
            out += [_pinned(branch, c) for c in left]
    if not out:
        return None
    if len(out) == 1:
        return out[0]
    return {"anyOf": out, **{k: v for k, v in schema.items() if k.startswith("$defs")}}


def pinned_calls(schema: dict[str, Any]) -> list[dict[str, Any]] | None:
    """The calls a schema allows when every argument is pinned to a few values; None otherwise."""
    out: list[dict[str, Any]] = []
    for branch in schema["anyOf"] if "anyOf" in schema else [schema]:
        calls = _calls(branch)
        if calls is None:
            return None
        out += calls
    return out
