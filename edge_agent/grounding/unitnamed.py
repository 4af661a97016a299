"""A point named by its unit: "judged by its average kW per ton" names the chillers' point in kW/ton, and which end
of such a series is the efficient one.

A compound unit the question writes ("kW per ton", "kWh/m3", "kW/TR") is read against the units of the points in
play; where points of the linked assets (or of the kinds named, at the sites named) are in that unit, the question
names them, as it would by their name. A unit of input per output (`vocab/words.yaml` `input_per_output_units`:
kW/ton, kWh/m³ …) is lower the more efficient the equipment: "least efficiently" is then its highest value, and the
reading says so as a rule. Field vocabulary, not one plant's: the units come from the catalog and the table.
"""

from __future__ import annotations

import re
from functools import cache
from pathlib import Path

import yaml

from edge_agent.grounding import fieldvocab
from edge_agent.grounding.catalog import Catalog
from edge_agent.grounding.frame import Slot
from edge_agent.grounding.links import Links
from edge_agent.grounding.question import Part, Reading

WORDS_FILE = Path(__file__).with_name("vocab") / "words.yaml"

#: "kW per ton", "kWh/m3", "kW / TR": two unit words with "per" or a slash between them
_COMPOUND = re.compile(r"(?<![\w/])([A-Za-z°³²]{1,6})\s*(?:/|\bper\b)\s*([A-Za-z°³²0-9]{1,8})(?![\w/])", re.I)
#: the same unit as points and operators write it: "ton" of refrigeration, "m3" for m³
_SAME = {
    "tonref": "ton",
    "tons": "ton",
    "tr": "ton",
    "rt": "ton",
    "t": "ton",
    "tonne": "ton",
    "tonnes": "ton",
    "m3": "m³",
}
_EFFICIENT = re.compile(
    r"\befficient(?:ly)?\b|\bperform\w*", re.I
)  # the adjective: "least efficiently", not "Efficiency"
#: a point that is an efficiency by its name ("Efficiency", "Pump Eff", "COP")
_EFFICIENCY = re.compile(r"\befficiency\b|\beff\b|\bcop\b", re.I)
#: which end "best" and "worst" are of an input per output
_BEST = {"best": "lowest", "better": "lowest", "worst": "highest", "worse": "highest"}


def _key(unit: str) -> str:
    parts = re.split(r"\s*/\s*", "".join(unit.split()).casefold(), maxsplit=1)
    return "/".join(_SAME.get(p, p) for p in parts)


@cache
def _input_per_output() -> frozenset[str]:
    words = yaml.safe_load(WORDS_FILE.read_text(encoding="utf-8"))
    return frozenset(_key(u) for u in words.get("input_per_output_units", []))


def lower_is_better(unit: str | None) -> bool:
    """`unit` is an input per output (kW/ton, kWh/m³): the lower its value, the more efficient the equipment."""
    if not unit:
        return False
    if _key(unit) in _input_per_output():
        return True
    # any power or energy per an amount or a rate of what the equipment delivers ("kW/(m³/min)" of a compressor's
    # specific power): the field's list written as a rule; never per a power or an energy (kW/kW is a COP's)
    top, _, bottom = unit.partition("/")
    q_top = fieldvocab.quantity_of_unit(top.strip())
    q_bottom = fieldvocab.quantity_of_unit(bottom.strip().strip("()").strip())
    return (
        q_top is not None
        and q_top.name in ("power", "energy")
        and q_bottom is not None
        and q_bottom.name not in ("power", "energy", "time")
    )


def named_by_unit(question: str, catalog: Catalog, links: Links) -> list[str]:
    """The points (short names) of the assets in play whose unit the question writes as a compound unit; [] where
    it writes none, or no point in play has it."""
    written = {_key(f"{a}/{b}") for a, b in _COMPOUND.findall(question)}
    if not written:
        return []
    out: dict[str, None] = {}
    for site in links.sites or list(catalog.sites):
        assets = [a for a in links.assets if links.asset_sites.get(a) == site] or [
            a for t in links.asset_types for a in catalog.site(site).assets_of_type(t)
        ]
        for asset in assets:
            for p in catalog.sensors(site, asset):
                if p.unit and _key(p.unit) in written:
                    out.setdefault(p.short, None)
    return list(out)


def name_by_unit(question: str, catalog: Catalog, links: Links, reading: Reading) -> None:
    """Where the question names points by their unit and no point by name: those points are what it asks for (the
    unit's words are no measure word of their own), and a part ranking them by efficiency takes the efficient end
    of an input-per-output unit (said as a rule)."""
    named = [] if links.sensors else named_by_unit(question, catalog, links)
    if not named and not links.sensors and re.search(r"\befficien(?:t|tly|cy)\b", question, re.I):
        named = _efficiencies(catalog, links)  # "which chiller was the least efficient": its COP
    if named:
        links.sensors = named
        links.measures = []
    named = named or list(links.sensors)
    if not named:
        return
    points = [
        p
        for site in links.sites or list(catalog.sites)
        for a in catalog.assets(site)
        for p in catalog.sensors(site, a)
        if p.short in named
    ]
    if points and all(_EFFICIENCY.search(p.short) or "efficiency" in p.tags for p in points):
        units_said = {p.unit for p in points if p.unit}
        if not any(lower_is_better(u) for u in units_said):  # "the worst ERD by efficiency" (%, COP): the lowest
            for part in reading.parts:
                _higher_is_better(part, points[0].short)
    units = {
        p.unit
        for site in links.sites or list(catalog.sites)
        for a in catalog.assets(site)
        for p in catalog.sensors(site, a)
        if p.short in named
    }
    if units and all(lower_is_better(u) for u in units):
        for part in reading.parts:
            _efficient_end(part, sorted(u for u in units if u)[0])


def _efficiencies(catalog: Catalog, links: Links) -> list[str]:
    """The points of the assets in play that are an efficiency: by name ("Efficiency", "COP"), by the `efficiency`
    tag, or in a unit of input per output (kW/ton); where every asset in play has one, else []."""
    out: dict[str, None] = {}
    for site in links.sites or list(catalog.sites):
        assets = [a for a in links.assets if links.asset_sites.get(a) == site] or [
            a for t in links.asset_types for a in catalog.site(site).assets_of_type(t)
        ]
        for asset in assets:
            mine = [
                p.short
                for p in catalog.sensors(site, asset)
                if _EFFICIENCY.search(p.short) or "efficiency" in p.tags or lower_is_better(p.unit)
            ]
            if not mine:
                return []
            out.update(dict.fromkeys(mine))
    return list(out)


def _higher_is_better(part: Part, name: str) -> None:
    """ "the worst one by efficiency" of a series that is an efficiency in %, or a COP: its lowest value."""
    said = part.slots.get("order")
    if said is not None and said.source == "open" and said.said.casefold() in _BEST:
        part.order = "highest" if _BEST[said.said.casefold()] == "lowest" else "lowest"
        part.slots["order"] = Slot(
            source="rule", said=f"'{said.said}' as the {part.order} {name}: the higher an efficiency, the better"
        )


def _efficient_end(part: Part, unit: str) -> None:
    """ "least efficiently" of a series in kW/ton: its highest value (the order read from the words is flipped)."""
    said = part.slots.get("order")
    if said is None:
        return
    if said.source == "open" and said.said.casefold() in _BEST:  # "the best performing chiller": the lowest kW/ton
        part.order = _BEST[said.said.casefold()]
        part.slots["order"] = Slot(
            source="rule", said=f"'{said.said}' as the {part.order} {unit}: the lower the {unit}, the more efficient"
        )
        return
    if part.order not in ("highest", "lowest") or said.source != "words" or not _EFFICIENT.search(part.text):
        return
    part.order = "lowest" if part.order == "highest" else "highest"
    part.slots["order"] = Slot(
        source="rule",
        said=f"'{said.said} efficient' as the {part.order} {unit}: the lower the {unit}, the more efficient",
    )
    if part.statistic in ("energy", "sum"):  # "electricity consumed per unit of air": a ratio is no amount to add
        part.statistic = "mean"  # up over the period; its mean over it ranks them
        part.slots["statistic"] = Slot(
            source="rule", said=f"the mean {unit} over the period: a ratio adds up to nothing"
        )
