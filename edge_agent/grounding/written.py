"""The answers code writes before any step: a refusal, a yes/no on existence, an attribute, a kind's listing.

`Grounding.build` asks `written_in_code` once the question is linked and read. Where it returns a sentence, that
sentence is the whole answer (`Grounding.in_code`) and the agent's model writes no word of it: a request to operate
equipment, an instruction written into the question, a topic outside the SkySpark's data or a forecast is refused
(saying what the gateway can do instead); "is there an X at S?", "who made X?" and "list the chillers at S" are
answered from the catalog. `declined` is the sentence that refuses the rest of a question that also asks for data.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from edge_agent.grounding import fieldvocab
from edge_agent.grounding.catalog import Catalog
from edge_agent.grounding.forms import FUNCTION_WORDS, TABLE, words
from edge_agent.grounding.links import SENSOR_THINGS, Links, Missing, alike
from edge_agent.grounding.measures import kind_label, kind_names
from edge_agent.grounding.question import attribute_words, attributes_asked, outside_topic

if TYPE_CHECKING:
    from edge_agent.grounding.run import Grounding

#: words of building data: a question with one of them, or a linked name, is about the SkySpark
_PLANT_WORDS = re.compile(
    r"\b(?:sites?|plants?|assets?|equipment|sensors?|points?|buildings?|skyspark|haystack|"
    r"readings?|measurements?|metrics?|values?|data|history|histories|trend|series|units?|"
    r"hvac|bms|kw|kwh|setpoints?|files?|json|csv|downloads?)\b",
    re.I,
)
_TIME_QUESTION = re.compile(
    r"\b(?:what(?:'s| is)? (?:the )?(?:time|date|day)|today'?s date|current (?:time|date))\b", re.I
)
#: "an asset called Boiler East at S", "named 'AHU 9' in S"
_CALLED = re.compile(r"\b(?:named|called)\s+(.+?)(?=\s+(?:at|in|on)\s|\s*[?.!]|$)", re.I)
#: how an answer names the attributes the question reading knows (`question.Part.attribute`)
_ATTRIBUTE_NAMES = {
    "installed": "install date",
    "serial": "serial number",
    "lifespan": "expected lifespan",
    "maintenance": "maintenance record",
    "recipe": "recipe or product",
}


#: attributes said in the question's own words: a category names them too loosely ("the harvest tonnage", not "the
#: production"; "the grid emission factor")
_SAID_AS_ASKED = frozenset({"production", "emission factor", "recipe"})


def _named(attribute: str, question: str) -> str:
    """How an answer names an attribute the question asks: its label, or, for a category, the question's words."""
    if attribute in _SAID_AS_ASKED and (said := attribute_words(question, attribute)):
        return said.replace("_", " ")
    return _ATTRIBUTE_NAMES.get(attribute, attribute)


def _same_words(asked: str, tag: str) -> bool:
    """An attribute the question asks for and a tag's name are one thing ("install date", `installDate`;
    "manufacturer", `manufacturer`; "serial number", `serialNum`): their words share their stems (5 letters)."""
    a = {w[:5] for w in fieldvocab.normalize(asked).split() if len(w) >= 4}
    t = {w[:5] for w in fieldvocab.marker_words(tag) if len(w) >= 4}
    return bool(a & t) and bool(a) and (a <= t or t <= a)


def written_in_code(g: Grounding, catalog: Catalog, links: Links) -> str:
    """A refusal (operating equipment, an instruction in the question, a topic outside the data) or the
    yes/no of an existence question; '' where the agent has work to do."""
    r = g.reading
    intent: str = r.intent
    if intent == "read" and (g.future or (r.parts and all(p.ask == "forecast" for p in r.parts))):
        intent = "forecast"  # before the outside topics: a plant's forecast is no weather question
    if intent == "read" and (_outside(g, catalog, links) or _attribute_of_nothing(g, links)):
        intent = "outside"
    can = _can(g, catalog, links)
    if intent in ("control", "injection", "outside", "forecast"):
        g.refusal = intent
    if intent == "control":
        target = ", ".join(_operated(g, links)) or ", ".join(links.sites) or "equipment"
        verb = r.verb or "operate"
        return f"This gateway only reads data; it cannot {verb} {target} or change anything on the plant. {can}"
    if intent == "injection":
        return (
            f"This gateway answers questions about the data on the SkySpark and does not follow instructions "
            f"written into a question. {can}"
        )
    if intent == "forecast":
        when = f" for {g.future}" if g.future else ""
        return f"This gateway cannot forecast: it reads recorded data, and none is recorded{when} yet. {can}"
    if intent == "outside":
        asked = [a for p in r.parts if p.ask == "attribute" for a in attributes_asked(p.text) or [p.attribute or ""]]
        said = [_named(a, g.asked_text()) for a in dict.fromkeys(asked) if a]
        verb = "are" if len(said) > 1 else "is"
        unrecorded = f"The {' and '.join(said)} {verb} not recorded on the SkySpark. " if said else ""  # "the price"
        return (
            f"{unrecorded}This gateway cannot answer that: it only answers questions about the sites, equipment and "
            f"sensor data on the SkySpark. {can}"
        )
    if len(r.parts) == 1 and r.parts[0].ask == "exists":
        return _exists(g, catalog, links)
    if r.parts and all(p.ask == "attribute" for p in r.parts):
        return _attributes(g, catalog, links)
    return _kind_listing(g, catalog, links) or _name_listing(g, catalog, links) or _sensor_listing(g, catalog, links)


def _sensor_listing(g: Grounding, catalog: Catalog, links: Links) -> str:
    """The series of equipment a question names by its kind only, for a question that only lists or counts them
    ("list every measurement the stack emissions monitoring system records at Aliaga", "how many points are on the
    MAUs"): read from the catalog, each with its unit, no model or tool call. Three assets at most."""
    r = g.reading
    if len(r.parts) != 1 or r.parts[0].ask not in ("names", "count") or not SENSOR_THINGS.search(r.parts[0].text):
        return ""
    if len(links.sites) != 1 or links.sensors or links.measures or links.missing or g.unplaced or r.also:
        return ""
    site = links.sites[0]
    assets = list(dict.fromkeys(a for k in links.asset_types for a in catalog.site(site).assets_of_type(k)))
    if links.assets or not assets or len(assets) > 3 or g.start is not None:  # a named asset: the sensors tool's
        return ""
    said = []
    for asset in assets:
        points = catalog.sensors(site, asset)
        listed = ", ".join(f"{p.short} ({p.unit})" if p.unit else p.short for p in points)
        said.append(f"Found {len(points)} sensors on {asset} at {site}: {listed}")
    return "; ".join(said)


def _kind_listing(g: Grounding, catalog: Catalog, links: Links) -> str:
    """The assets of a kind at a site, for a question that asks for nothing else ("electricity meters at S?",
    "how many UPSs does DC1 have", "list the chillers at S"): read from the catalog, no model or tool call."""
    if not _only_a_listing(g, links, ("names", "count", "data"), grouped=True) or len(links.asset_types) != 1:
        return ""  # ("the tunnel ventilation fans (TVF)": the fans the code groups)
    said = g.asked_text_less_names()  # "Count the elec meters in Harbour Point": a site's name counts nothing
    if SENSOR_THINGS.search(said):
        return ""  # "how many points are on the MAUs": their sensors are counted, not the MAUs
    site, kind = links.sites[0], links.asset_types[0]
    found = catalog.site(site).assets_of_type(kind)
    if links.assets and _group_word(links):  # the kind's assets the code names, where it names some of them
        found = [a for a in found if a in links.assets] or found
    narrowing = g.kind_narrowing().get(kind, [])  # "exhaust fans", "the NH3 compressors", "CDA compressors"
    named = [a for a in found if narrowing and all(w.casefold() in a.casefold() for w in narrowing)]
    if not found:
        return ""
    if narrowing and named:  # "exhaust fans": the fans whose names say exhaust
        found = named
    said = f"Found {len(found)} {kind_label(kind, len(found))} at {site}: {', '.join(found)}"
    if narrowing and not named:  # said, so nobody takes every fan for an exhaust fan unawares
        said += (
            f" (the SkySpark marks them {kind}; neither a marker nor a name says which are "
            f"{' '.join(narrowing)} {kind_label(kind, 2)})"
        )
    return said


def _only_a_listing(g: Grounding, links: Links, asks: tuple[str, ...], *, grouped: bool = False) -> bool:
    """The question asks for one listing at one site and nothing else: no asset, sensor, measure or period named,
    nothing missing, no word left unplaced, no refused piece; its one part asks one of `asks`. `grouped`: assets
    named together by the code their names begin with (`linking._match_group`) are what is listed, not named."""
    r = g.reading
    assets = [a for a in links.assets if not (grouped and _group_word(links))]
    return (
        len(links.sites) == 1
        and not (assets or links.sensors or links.measures or links.missing or g.unplaced or r.also)
        and g.start is None
        and len(r.parts) == 1
        and r.parts[0].ask in asks
    )


def _group_word(links: Links) -> str:
    """The one word that named every linked asset as a group ("FV" of "how many FVs"), else ''."""
    named = [m for m in links.mentions if m.kind == "asset" and m.name not in links.asset_types]  # not the kind
    said = {m.text for m in named}
    hows = {m.how for m in named}
    return next(iter(said)) if len(said) == 1 and hows == {"group"} else ""


def _name_listing(g: Grounding, catalog: Catalog, links: Links) -> str:
    """The assets a word of their names groups, for a question that counts or lists them by it ("count the Kessel"
    where Kessel 1 and Kessel 2 are the site's boilers, "how many FVs" where FV-01 … FV-06 are): read from the
    catalog, no model or tool call. Only where the word begins two names or more and nothing else of the question
    is left to read."""
    r = g.reading
    if not _only_a_listing(g, links, ("names", "count"), grouped=True) or links.asset_types:
        return ""
    site = links.sites[0]
    every = catalog.assets(site)
    code = _group_word(links)
    for w in [code] if code else re.findall(r"[^\W\d_]{3,}", r.parts[0].text):
        if w.casefold() in r.placed_words and w.casefold() not in {x.casefold() for x in site.split()} and not code:
            continue  # a word of the question's form ("count", "list"), not of the names
        group = (
            list(links.assets)
            if code
            else [a for a in every if re.split(r"[\s_\-.]+", a)[0].casefold() == w.casefold()]
        )
        if len(group) < 2:
            continue
        kinds = set.intersection(*(set(catalog.site(site).types.get(a, [])) for a in group))
        kind = next((k for k in catalog.site(site).types.get(group[0], []) if k in kinds), None)
        label = kind_label(kind, len(group)) if kind else "assets"
        named = re.split(r"[\s_\-.]+", group[0])[0] if code else w  # "FVs" said: the names begin FV
        if not all(re.split(r"[\s_\-.]+", a)[0].casefold() == named.casefold() for a in group):
            return f"Found {len(group)} {label} at {site}: {', '.join(group)}"  # "the reservoirs": their last word
        return f"Found {len(group)} {label} named {named} at {site}: {', '.join(group)}"
    return ""


def _attributes(g: Grounding, catalog: Catalog, links: Links) -> str:
    """What the SkySpark records of an asset beyond its histories, for a question that asks for such a thing (a
    manufacturer, a model, a rating, an install date): the tag that holds it, where the asset has one; else that
    the SkySpark does not record it, and what it does hold."""
    out = []
    assets = [(links.asset_sites[a], a) for a in links.assets] or [
        (s, a) for s in links.sites for t in links.asset_types for a in catalog.site(s).assets_of_type(t)
    ][:3]
    wanted = [a for part in g.reading.parts for a in attributes_asked(part.text) or [part.attribute or "that"]]
    for attribute in dict.fromkeys(wanted):  # "the manufacturer …, and their install date": both
        asked = _named(attribute, g.asked_text())
        unrecorded = []
        for site, asset in assets or [("", "")]:
            tags = catalog.site(site).attrs.get(asset, {}) if site else {}
            held = next(((k, v) for k, v in tags.items() if _same_words(asked, k)), None)
            if held:
                out.append(
                    f"The {' '.join(fieldvocab.marker_words(held[0]))} of {asset} recorded on the SkySpark is {held[1]}"
                )
            else:
                unrecorded.append(asset)
        if unrecorded:
            names = [a for a in unrecorded if a]
            what = (
                f" of {', '.join(names[:-1])} and {names[-1]}" if len(names) > 1 else f" of {names[0]}" if names else ""
            )
            out.append(f"The {asked}{what} is not recorded on the SkySpark")
    if not out:
        return ""
    return "; ".join(dict.fromkeys(out)) + f". {_can(g, catalog, links)}"


#: where a refused request's words end: a statement after a comma ("shut it down, we're done for the day"), or a
#: dictated reply ("… and confirm with DONE")
_REQUEST_ENDS = re.compile(
    r",\s+(?=(?:" + "|".join(re.escape(w) for w in sorted(TABLE.statement_start, key=len, reverse=True)) + r")\b)"
    r"|\s+(?:and|then)\s+(?:reply|respond|confirm|answer|say)\b",
    re.I,
)


def declined(g: Grounding) -> str:
    """For a question that asks for data and also to operate something or carries an instruction: the sentence
    that refuses the rest, which the answer starts with ('' where there is none)."""
    out = []
    for piece in g.reading.also:
        if piece.startswith("control"):
            verb = piece.split(":", 1)[1].strip() if ":" in piece else "operate equipment"
            verb = _REQUEST_ENDS.split(verb, maxsplit=1)[0].rstrip(" ,;.") or verb  # not "…, we're done for the day"
            first = verb.split(" ", 1)[0]
            if first.istitle() and first.isalpha():  # "Open the CO2 Doser valve": a sentence's verb, not a name
                verb = verb[0].lower() + verb[1:]
            out.append(f"This gateway only reads data; it cannot {verb} (it changes nothing on the plant)")
        elif piece.startswith("injection"):
            out.append("It does not follow instructions written into a question")
    return "; ".join(dict.fromkeys(out))


def _outside(g: Grounding, catalog: Catalog, links: Links) -> bool:
    """Nothing the question says is on the SkySpark and it speaks of another topic (or of nothing of a
    building's data at all, and not of the time)."""
    linked = [m for m in links.mentions if m.text and m.how != "city"]  # "a pizza place near Davis": a town, no data
    rest = g.asked_text_less_names()  # the refused pieces are no topic, nor a place it lacks ("the Eastgate Hotel")
    # a series read of equipment ("the temperature of the stock in the cold store") is the plant's, whatever topic
    # word it holds; "the weather at POKMAIN", "send an e-mail … saying the chillers are fine", "email the energy
    # report" read none: another topic
    measured = links.sensors or (links.measures and (links.assets or links.asset_types))
    if not measured and outside_topic(rest, _held_words(catalog)):
        return True
    if linked or links.missing or _TIME_QUESTION.search(g.question):
        return False
    if g.start is not None and not g.unplaced:  # "what was the max yesterday?": a plant's question, said short
        return False
    words = {w.casefold() for w in re.findall(r"[\w%]+", g.question)}
    vocabulary = {w.casefold() for t in catalog.kinds() for n in kind_names(t) for w in n.split()} - FUNCTION_WORDS
    plural = {w[:-1] for w in words if w.endswith("s")}
    return not (
        _PLANT_WORDS.search(g.question)
        or (words | plural) & vocabulary
        or fieldvocab.measure_words(g.question)
        or fieldvocab.kinds_named(g.question)
    )


def _attribute_of_nothing(g: Grounding, links: Links) -> bool:
    """An attribute asked of nothing the SkySpark has or lacks ("whats the copper price on the LME today"): another
    topic than the plant's, whatever period it names."""
    r = g.reading
    return (
        bool(r.parts)
        and all(p.ask == "attribute" for p in r.parts)
        and not [m for m in links.mentions if m.text]
        and not links.asset_types
        and not links.missing
    )


def _operated(g: Grounding, links: Links) -> list[str]:
    """The assets a request operates: those named after its verb ("North reservoir is going down fast. Start BP-03":
    BP-03, the reservoir is the reason), else every asset named ("tunnel oven 2 is cold, bump its setpoint")."""
    at = g.question.casefold().find((g.reading.verb or "\0").casefold())
    after = [
        m.name
        for m in links.mentions
        if m.kind == "asset"
        and m.name in links.assets
        and m.text
        and at >= 0
        and g.question.casefold().find(m.text.casefold(), at) >= 0
    ]
    return list(dict.fromkeys(after)) or list(links.assets)


def _held_words(catalog: Catalog) -> frozenset[str]:
    """The words of the SkySpark's names (sites, assets, sensors) and of its kinds' names: a topic they name is
    this plant's ("rain" of RG-1 Rain Gauge, "weather" of a weather station), not another."""
    names = [
        *catalog.sites,
        *(a for site in catalog.sites for a in catalog.assets(site)),
        *(p.short for site in catalog.sites for a in catalog.assets(site) for p in catalog.sensors(site, a)),
        *(n for t in catalog.kinds() for n in kind_names(t)),
    ]
    return frozenset(w for n in names for w in words(n))


def _can(g: Grounding, catalog: Catalog, links: Links) -> str:
    """What the gateway can do instead, about what the question names."""
    if links.assets:
        asset = links.assets[0]
        shorts = [s.short for s in catalog.sensors(links.asset_sites[asset], asset)]
        more = f" and {len(shorts) - 8} more" if len(shorts) > 8 else ""
        return f"It can read the recorded values of {asset}'s sensors ({', '.join(shorts[:8])}{more})."
    if links.sites:
        return f"It can list the assets and sensors of {links.sites[0]} and read their recorded values."
    return "It can list the sites, assets and sensors on the SkySpark and read their recorded values."


def _kind_present(catalog: Catalog, links: Links) -> str:
    """ "S has 2 boilers: boiler_1, boiler_2" for the kinds the question names at its site ('' where none)."""
    if not (links.asset_types and links.sites):
        return ""
    site = links.sites[0]
    of_kind = list(dict.fromkeys(a for t in links.asset_types for a in catalog.site(site).assets_of_type(t)))
    if not of_kind:
        return ""
    return f"{site} has {len(of_kind)} {kind_label(links.asset_types[0], len(of_kind))}: {', '.join(of_kind[:8])}"


def _at(question: str, text: str) -> int:
    """Where `text` (or its first word) first stands in the question; its length where it does not."""
    for probe in (text, text.split(" (")[0], text.split()[0] if text.split() else text):
        at = question.casefold().find(probe.casefold())
        if at >= 0:
            return at
    return len(question)


#: a name said in capitals after an article ("is there a Nitrogen Generator at …"): what is asked to exist
_NAME_ASKED = re.compile(r"\b(?:a|an|any)\s+((?:[A-Z][\w-]*)(?:\s+[A-Z0-9][\w-]*){1,3})\b")


def _asset_named(catalog: Catalog, site: str, name: str) -> str:
    """Yes or No to an asset of this name at `site`."""
    found = catalog.canonical_asset(site, name)
    if found:
        return f"Yes: {found} is an asset at {site}"
    return (
        "No: " + Missing(text=name, kind="asset", site=site, suggestions=alike(name, catalog.assets(site))).sentence()
    )


def _exists(g: Grounding, catalog: Catalog, links: Links) -> str:
    """Yes or No to "is there an X at S?", from the linking alone; a name the question spells out ("an asset
    called Boiler East") must be an asset's name, not merely start with a kind of equipment."""
    called = _CALLED.search(g.question)
    if called and links.sites:
        return _asset_named(catalog, links.sites[0], called.group(1).strip(" '\""))
    named = _NAME_ASKED.search(g.question)
    if (
        named
        and links.sites
        and not links.missing  # a name the linking already found missing is said as it found it
        and not any(named.group(1).casefold() in m.text.casefold() for m in links.mentions)
    ):
        # "is there a Nitrogen Generator at Manaus?": a name in capitals the site has no asset of
        return _asset_named(catalog, links.sites[0], named.group(1).strip())
    missing = [m for m in links.missing if m.kind in ("asset", "site", "kind")]
    present = _kind_present(catalog, links)
    if missing and present and all(m.kind == "kind" for m in missing):  # "any boilers at S or is it all unit
        # heaters?": each kind answered, the one the question names first leading
        absent = "; ".join(m.sentence() for m in missing)
        first_missing = min(_at(g.question, m.text) for m in missing)
        first_present = min(_at(g.question, m.text) for m in links.mentions if m.name in links.asset_types)
        if first_present <= first_missing:
            return f"Yes: {present}. {absent}"
        return f"No: {absent}. {present}"
    if missing:
        return "No: " + missing[0].sentence()
    if links.assets:
        return "Yes: " + "; ".join(f"{a} is an asset at {links.asset_sites[a]}" for a in links.assets)
    if present:
        return f"Yes: {present}"
    if (
        [m for m in links.mentions if m.kind == "site" and m.how != "only"] and not links.assets and not g.unplaced
    ):  # "does S have a Kessel?": a word nothing placed is no question about S
        return f"Yes: {links.sites[0]} is a site on the SkySpark"
    return ""
