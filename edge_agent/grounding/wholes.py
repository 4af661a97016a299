"""A part and its whole: the meter a system's code names, and the total a share is of.

- **A system said by its code.** "The BHS's electricity", where `BHS Line 1`, `BHS Line 2` and `BHS Sub-Meter` are
  assets: a capital-letter code that begins several names as a word of its own names the system they are parts of;
  what a meter measures of the system (electricity, water, gas) is read from the one of them that is that meter
  (Haystack's `elecMeter`, `waterMeter`, … markers), or the series named from the one meter that has it. Any other
  measure of the system stays unlinked (the reading
  says which words it could not place).
- **A share of a total.** "What share of the terminal's electricity went to the BHS": a ratio whose second series
  is the whole: the site's main meter (Haystack `siteMeter`) of that quantity, where the question names one asset
  (the part) and no second one. Both are linked, the part first, so the ratio is part ÷ whole; where both meters
  have one power series of the same name it is the series compared (a share of energy over a period is the ratio
  of the mean powers; a register's running total is no share).
"""

from __future__ import annotations

import re

from edge_agent.analysis import is_power
from edge_agent.grounding.catalog import Catalog
from edge_agent.grounding.links import Links, Mention
from edge_agent.grounding.question import Reading

#: the Haystack meter markers and the quantities each one measures (what "the X's electricity" is read from)
METERS: dict[str, frozenset[str]] = {
    "elecMeter": frozenset({"energy", "power"}),
    "waterMeter": frozenset({"volume", "volumetric flow"}),
    "gasMeter": frozenset({"volume", "volumetric flow"}),
    "steamMeter": frozenset({"mass", "mass flow"}),
}

#: "share of", "proportion of", …: the words that ask what part of a whole something is
SHARE = re.compile(r"\b(?:share|proportion|fraction|percentage|percent|portion|part)\s+of\b", re.I)

#: a code in capitals that stands alone (not glued to a number: "FV-01" is a name of its own)
_CODE = re.compile(r"(?<![\w-])([A-Z]{2,5})(?:['’]s)?(?![\w-])")


def _markers(catalog: Catalog, site: str, asset: str) -> set[str]:
    sc = catalog.site(site)
    return {*sc.markers.get(asset, ()), *sc.types.get(asset, [])}


def system_meter(question: str, links: Links, catalog: Catalog) -> None:
    """Link the meter of a system the question names by its code, where the question asks what such a meter
    measures (see the module's docstring)."""
    if links.assets or links.asset_types or not (links.measures or links.sensors):
        return  # ("which NH3 comp": a kind named, not the system's meter)
    taken = {m.text.casefold() for m in links.mentions if m.text}
    sites = links.sites or list(catalog.sites)
    for m in _CODE.finditer(question):
        code = m.group(1)
        if code.casefold() in taken:
            continue
        found = []
        for site in sites:
            sc = catalog.site(site)
            members = [a for a in sc.assets if a.startswith(f"{code} ")]
            if len(members) < 2:
                continue
            meters = [a for a in members if _markers(catalog, site, a) & set(METERS)]
            if links.measures:  # of the quantity asked ("its electricity": the electricity meter)
                meters = [
                    a
                    for a in meters
                    if any(set(links.measures) & METERS.get(mk, frozenset()) for mk in _markers(catalog, site, a))
                ]
            else:  # the series named ("the BHS's Active Power"): the meter that has it
                meters = [a for a in meters if all(catalog.has_sensor(site, a, x) for x in links.sensors)]
            if len(meters) == 1:
                found.append((site, meters[0]))
        if len(found) == 1:
            site, meter = found[0]
            links.assets.append(meter)
            links.asset_sites[meter] = site
            if site not in links.sites:
                links.sites.append(site)
            links.mentions.append(Mention(text=code, name=meter, kind="asset", site=site, how="part"))
            return


def share_of_total(reading: Reading, links: Links, catalog: Catalog) -> None:
    """Link the whole a share is of: the site's main meter, after the one asset the question names (see the
    module's docstring)."""
    part = next((p for p in reading.parts if p.ask == "derive" and p.op == "ratio"), None)
    if part is None or not SHARE.search(part.text) or len(links.assets) != 1 or len(links.sites) > 1:
        return
    asset = links.assets[0]
    site = links.asset_sites.get(asset) or (links.sites[0] if links.sites else "")
    if not site:
        return
    sc = catalog.site(site)
    wanted = set(links.measures)
    mains = [
        a
        for a in sc.assets
        if a != asset
        and "siteMeter" in _markers(catalog, site, a)
        and any(wanted & METERS.get(mk, frozenset()) for mk in _markers(catalog, site, a))
    ]
    if len(mains) != 1:
        return
    whole = mains[0]
    links.assets.append(whole)
    links.asset_sites[whole] = site
    links.mentions.append(Mention(text="", name=whole, kind="asset", site=site, how="only"))
    if links.sensors:
        return
    powers = [{x.short for x in catalog.sensors(site, a) if is_power(x.unit)} for a in (asset, whole)]
    common = powers[0] & powers[1]
    if wanted & {"energy", "power"} and len(common) == 1 and all(len(p) == 1 for p in powers):
        links.sensors.append(next(iter(common)))


def share_order(reading: Reading, links: Links, question: str) -> None:
    """ "What fraction of yesterday's main incomer load was the NH3 plant sub-meter": the whole is what "share of"
    names, the part the other asset; a ratio is the part over the whole, whatever order the question names them in
    (the two series' roles follow the linked assets' order)."""
    part = next((p for p in reading.parts if p.ask == "derive" and p.op == "ratio"), None)
    if part is None or len(links.assets) != 2:
        return
    m = SHARE.search(question)
    if m is None:
        return
    said = {x.name: question.casefold().find(x.text.casefold(), m.end()) for x in links.mentions if x.kind == "asset"}
    at = {a: said.get(a, -1) for a in links.assets}
    if any(v < 0 for v in at.values()):
        return
    whole = min(links.assets, key=lambda a: at[a])  # the one named right after "share of"
    if question[m.end() : at[whole]].count(" ") <= 5 and links.assets[0] == whole:
        links.assets.reverse()
