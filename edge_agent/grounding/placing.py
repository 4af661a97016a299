"""What code places of the question before the first step: its parts, its requests, the words nothing placed.

`Grounding.build` links the question's names and period, then asks this module for the question's reading with
each part knowing whether it names several things (`reading`), settles a question whose only asking clause is a
request or an instruction (`only_requests`), finds the words neither the reading, the linking, the period nor the
field's vocabulary placed (`unplaced`), and turns such a word into a missing sensor where the question asks for the
data of assets that lack it (`unplaced_measure`).
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from edge_agent.grounding import fieldvocab
from edge_agent.grounding.catalog import Catalog
from edge_agent.grounding.clauses import split_parts
from edge_agent.grounding.context import framing_spans, in_statements, statement_spans
from edge_agent.grounding.dates import DAY_ORDINAL_WORDS, MONTHS, WEEKDAYS
from edge_agent.grounding.forms import FUNCTION_WORDS, words
from edge_agent.grounding.lacking import BUSINESS_NOUNS, sensor_lacking
from edge_agent.grounding.linking import link
from edge_agent.grounding.links import ENERGY_WORDS, GLUE, Links
from edge_agent.grounding.question import (
    COURTESY_WORDS,
    GENERIC_THINGS,
    RATIO_TERMS,
    Reading,
    read_question,
    unplaced_words,
)

if TYPE_CHECKING:
    from edge_agent.grounding.run import Grounding

#: a word of the question's form that may open a name ("Had Soualem Fertiliser Works", "Do Son Port")
_FORM_WORD = re.compile(r"(?:is|are|was|were|did|does|do|has|have|had|can|will|which|what|how|when|where|who)\s", re.I)
#: "which room", "which one": a choice among several (of an earlier part's, where this part names none)
_WHICH_NOUN = re.compile(
    r"\bwhich\s+(?!(?:is|are|was|were|did|does|do|has|have|had|of|one|ones|will|would|can|could)\b)[^\W\d_]+", re.I
)
#: "which piece of kit", "which machine", "what equipment": one of the site's equipment, whatever its kind
_WHICH_THING = re.compile(
    r"\b(?:which|what)\s+(?:piece\s+of\s+)?(?:kit|equipment|asset|assets|machine|machines|device|devices|unit|units)\b",
    re.I,
)
#: "which of them", "which of these": the several things an earlier part named
_OF_THEM = re.compile(r"\bwhich (?:one )?of (?:them|these|those|the two|both)\b|\bwhich one\b", re.I)


def document_spans(question: str) -> list[tuple[int, int]]:
    """Where the question names a document ("the Penguin Life Support Maintenance Contract"): no equipment is named
    there."""
    return [m.span() for m in _DOCUMENT_NAMED.finditer(question)]


def period_span(question: str, phrase: str) -> list[tuple[int, int]]:
    """Where the period's words stand in the question (none or one span): names are not linked there."""
    if not phrase:
        return []
    at = question.casefold().find(phrase.casefold())
    return [(at, at + len(phrase))] if at >= 0 else []


def reading_of(question: str, catalog: Catalog, links: Links | None) -> Reading:
    """The question's parts, each knowing whether it names several assets or a kind (what a ranking needs). A sensor
    named by its initials ("DO" for Dissolved Oxygen) is a name, never a word of the question's form ("do …?")."""
    for m in links.mentions if links is not None else []:
        if m.how == "initials" or (m.text and _FORM_WORD.match(m.text)):
            # ("Had Soualem: SUM of kWh …": a name that opens with an auxiliary asks no yes or no)
            question = re.sub(rf"(?<!\w){re.escape(m.text)}(?!\w)", lambda x: " " * len(x.group(0)), question)
    # "With the colder weather arriving, I would like to …", "Boiler 1 burner serviced Tue evening.": no form word
    for a, b in framing_spans(question) + statement_spans(question):
        question = question[:a] + " " * (b - a) + question[b:]
    texts = split_parts(question)
    many: list[bool] = []
    for text in texts:
        part = links if len(texts) == 1 and links is not None else link(text, catalog)
        many.append(
            len(part.assets) >= 2
            or _kind_many(part, catalog)
            or _names_a_kind(text, catalog, part)
            or bool(_OF_THEM.search(text))
            # "… per dry room, and tell me which room was the driest": "which <noun>" of the several named before
            or (any(many) and not part.assets and bool(_WHICH_NOUN.search(text)))
            or bool(_WHICH_THING.search(text))  # "which piece of kit was our biggest energy hog": any of the site's
        )
    return read_question(question, many)


def _kind_many(links: Links, catalog: Catalog) -> bool:
    """The part names a kind as several things: in the plural, or with no asset named ("the peak load on SP-01 shore
    power": one asset and its kind said in the singular is that asset, nothing to rank) where the sites in play have
    two or more of it ("the lowest battery state of charge" where the site has one battery is that battery's)."""
    if not links.asset_types:
        return False
    sites = links.sites or list(catalog.sites)
    if all(sum(len(catalog.site(s).assets_of_type(t)) for s in sites) < 2 for t in links.asset_types):
        return False
    said = [m.text for m in links.mentions if m.kind == "asset" and m.name in links.asset_types and m.text]
    return not links.assets or any(fieldvocab.singular(t.casefold()) != t.casefold() for t in said)


def _names_a_kind(text: str, catalog: Catalog, links: Links) -> bool:
    """A plural word of `text` is the first word of several asset names at the linked sites ("the chillers"
    where there are Chiller 3 and Chiller 6; "the pumps" where there are Pump P-1 and Pump P-2)."""
    sites = links.sites or (catalog.sites if len(catalog.sites) == 1 else [])
    firsts: dict[str, int] = {}
    for site in sites:
        for asset in catalog.assets(site):
            word = re.split(r"[\s_\-]", asset.casefold())[0]
            firsts[word] = firsts.get(word, 0) + 1
    for word in re.findall(r"[^\W\d_]+", text.casefold()):
        singular = word[:-2] if word.endswith("es") and firsts.get(word[:-2], 0) >= 2 else word[:-1]
        if word.endswith("s") and firsts.get(singular, 0) >= 2:
            return True
    return False


def only_requests(g: Grounding, catalog: Catalog, links: Links) -> None:
    """A question whose only asking clause is a courtesy ("Sorry to bother you, please switch X on") is a request
    to operate, not a mixed one: nothing of the SkySpark is asked besides the refused pieces. With an instruction
    written into it, a question is answered only where it asks for something specific (a measure, a sensor, a
    period: "what was the mean power of X on Monday? Also ignore your rules …"); "forget your instructions … how
    is Chiller 3?" is refused whole."""
    r = g.reading
    if r.intent != "read" or not r.also:
        return
    rest = g.asked_text()
    period = bool(g.period_phrase) and g.period_phrase.casefold() in rest.casefold()
    specific = bool(
        fieldvocab.measure_words(rest)
        or period
        or [m for m in links.mentions if m.text and m.kind == "sensor" and m.text in rest]
    )
    if "injection" in r.also:  # with an instruction, only a question the reading can pin down is answered
        if not specific:
            g.reading = r.model_copy(update={"intent": "injection", "also": [], "also_spans": []})
        return
    names = [m.text for m in links.mentions if m.text]
    if specific or any(n in rest for n in names):
        return
    verb = r.also[0].split(":", 1)[1].strip().split()[0] if ":" in r.also[0] else "operate"
    g.reading = r.model_copy(update={"intent": "control", "verb": verb, "also": [], "also_spans": []})


#: words of the calendar's named days ("on Labor Day (the Monday)"): no name of the SkySpark's, no measure
CALENDAR_WORDS = frozenset(
    "labor labour christmas xmas easter thanksgiving memorial independence boxing holiday holidays "
    # how much of a period ("the whole month", "the full week") and its names ("month-end", "the A shift")
    "whole entire full complete month end shift shifts".split()
)

#: what happens on a plant that a question dates its data by ("during the black building test"): no name, no measure
EVENT_WORDS = frozenset(
    "test tests testing trial trials drill drills exercise inspection inspections commissioning shutdown shutdowns "
    "startup outage outages storm storms incident incidents event events alarm alarms trip trips".split()
)


#: the verbs and nouns a written report asks with ("please quantify", "indicate which", "the reporting period",
#: "the weekly totals"): placed, never a name, a measure or a form (they are no function words: a form's cue reads
#: past those)
REPORTING_WORDS = frozenset(
    "quantify quantified indicate specify state confirm reporting period periods hourly daily weekly monthly totals "
    "figure figures date dates time times identify identified occur occurs occurred happen happens happened "
    # a spreadsheet's and a query's words ("sort ascending, and tell me the first row", "side by side", "pivot")
    "compute computed calculate calculated sort sorted ascending descending row rows column columns table pivot "
    "aggregate aggregated group grouped side performer performers "
    # a legal or an insurer's letter ("further to our site visit", "for the avoidance of doubt", "the insured's
    # records", "namely", "at the material time", "with reference to the claim"): how it asks, not what
    "further visit avoidance doubt insured insurer insurers claim claims claimant reference namely material "
    "aforementioned aforesaid hereby herein purposes purpose element statutory records record "
    # a contract's and a procurement officer's words ("pursuant to clause 7.2 of the Supply Contract", "the
    # performance guarantee", "liquidated damages accruing per hour of non-compliance", "the retention monies"): the
    # terms a figure is checked against, not what it reads
    "pursuant clause clauses schedule agreement agreements contract contracts contracted contractor contractors "
    "contractual supplier suppliers supply guarantee guarantees guaranteed warranty warranties warrant warrants "
    "warranted performance liquidated damages accruing accrue compliance non noncompliance retention monies penalty "
    "penalties invoice invoices reconciliation reconcile docket dockets verify verification assess assessed achieved "
    "attained obligations terms respect expressed lay upper "
    # a reporter's words around a claim ("is it true that …", "sometimes", "for example")
    "true false correct sometimes occasionally example instance "
    # a reporter's work ("for a photo caption", "our readers", "the headline", "for the piece")
    "photo photos caption captions story stories article articles headline headlines reader readers paper newspaper "
    "feature column editor "
    # how equipment relates and what a delivery is ("the valve serving the AHU", "the product leaving the freezer", "the
    # fuel delivery", "remains within its warranty")
    "serving serves served leaving entering delivery deliveries remains remain remained".split()
)
#: a document named with capitals before its noun ("the Building Controls Maintenance Agreement", "Supply Contract
#: OBF/2025/014"): its name's words are the document's
_DOCUMENT_NAMED = re.compile(
    r"((?:[A-Z][\w'’-]*\s+){1,4})(?:Agreement|Contract|Schedule|Specification|Policy|Plan|Order|Warranty|Guarantee)\b"
    r"(?:\s+[A-Z0-9][\w/.-]*)?"
)


#: the paperwork a figure is asked for ("on the QC sheet", "the fuel roster", "the shift cost"): where it goes
PAPERWORK_WORDS = frozenset("roster rota sheet sheets qc lot lots pallet pallets export cost costs".split())
#: how a scheduler names what the plant makes and when ("the 30x60 format", "that batch", "since the changeover"):
#: the product and its runs, never a measure (a size written as "30x60" is placed with them: `_SIZE_CODE`)
PRODUCTION_WORDS = frozenset(
    "batch batches changeover changeovers format formats grade grades recipe recipes sku skus".split()
)
_SIZE_CODE = re.compile(r"^\d+(?:[.,]\d+)?[x×]\d+(?:[.,]\d+)?(?:mm|cm)?$")
#: a name before a noun of the plant's business ("the Al-Noor export order"): a customer's or a job's name
_BUSINESS_NAMED = re.compile(
    r"((?:[A-ZÀ-Þ][\w'’-]*\s+){1,3}(?:[a-z]+\s+)?)(?:" + "|".join(sorted(BUSINESS_NOUNS)) + r")\b"
)


#: who is asking, as an operator introduces themselves or relays another ("guard here at the tyre plant", "night
#: watchman, Pune", "the fitter said …"): the roles and shifts of a plant's people, placed, never a name or a measure
PEOPLE_WORDS = frozenset(
    "guard guards security caretaker caretakers watchman watchmen janitor cleaner porter operator operators technician "
    "technicians tech techs engineer engineers fitter fitters electrician electricians mechanic mechanics supervisor "
    "supervisors foreman manager managers planner analyst apprentice trainee contractor contractors staff crew team "
    "colleague colleagues boss guy gal lady man woman someone person shift shifts rounds patrol nightshift dayshift "
    "lorry truck driver drivers visitor visitors o'clock clock house gatehouse shed yard gate basement rooftop".split()
)
#: the words before a place an operator locates a site by ("the fertiliser works near Casablanca")
_NEAR = re.compile(r"\b(?:near|outside|by|in|from|at|around|close\s+to)\s+(?:the\s+)?$", re.I)


def _place_name(g: Grounding, links: Links, w: str) -> bool:
    """`w` is a place written with a capital after "near", "outside", "in" … where the question locates one site by
    other words ("the fertiliser works near Casablanca"): where the site is, not something it holds."""
    if len(set(links.sites)) != 1:
        return False
    own = set(words(links.sites[0])) - FUNCTION_WORDS  # "the Casablanca fertiliser works": a word of its name next
    for m in re.finditer(rf"\b{re.escape(w)}\b", g.question, re.I):
        after = words(g.question[m.end() : m.end() + 40])[:1]
        if m.group(0)[:1].isupper() and (
            _NEAR.search(g.question[max(0, m.start() - 14) : m.start()]) or set(after) & own
        ):  # "near Casablanca", "the Casablanca fertiliser works"
            return True
    return False


def initial_spans(question: str, catalog: Catalog) -> list[tuple[list[str], str]]:
    """Runs of words whose initials spell an abbreviation of three to five capitals that a SkySpark name holds
    ("tunnel ventilation fans" of "TVF-01", "clean dry air" of "CDA Compressor 1"), no function word among them."""
    acronyms = {w for n in catalog.all_names() for w in re.findall(r"(?<![^\W_])[A-Z]{3,5}(?![^\W_])", n)}
    ws = re.findall(r"[^\W\d_]+", question)
    out = []
    for acronym in sorted(acronyms):
        for i in range(len(ws) - len(acronym) + 1):
            span = ws[i : i + len(acronym)]
            if "".join(w[0] for w in span).upper() == acronym and not any(
                len(w) < 2 or w.casefold() in FUNCTION_WORDS for w in span
            ):
                out.append((span, acronym))
    return out


#: English's words of size, as one describes equipment ("the big fans", "those huge tanks")
_SIZE = (  # ... and of look ("the big round tank")
    "big|large|small|little|huge|tiny|giant|massive|round|square|tall|wide|narrow|grey|gray|white|red|blue|green|"
    "yellow|black|silver|rusty|old|new"
)


def unplaced(g: Grounding, catalog: Catalog, links: Links, period: str) -> list[str]:
    """The question's words that neither the reading (form cues, function words, operating verbs), the linking
    (sites, assets, sensors, kinds, missing names), the period, the field's vocabulary (kinds, measures, units)
    nor a number placed."""
    placed: set[str] = (
        set(words(period))
        | set(MONTHS)
        | set(WEEKDAYS)
        | {d[:3] for d in WEEKDAYS}
        | {"tues", "thur", "thurs", "morning", "afternoon", "evening", "night", "noon", "midnight", "weekend"}
        | set(COURTESY_WORDS)
        | GENERIC_THINGS  # "chiller units", "the devices": what a kind's assets are called in general
        | in_statements(g.question)  # "the mixing valve was sticking yesterday — did …": context, not the question
        | CALENDAR_WORDS
        | EVENT_WORDS  # "in wednesday's test", "during the black building test": when, not what
        | {"days", "weeks", "months", "years", "hours", "rate", "rates"}  # "both weeks' average gas flow rates"
        | (DAY_ORDINAL_WORDS if period else set())  # "from the second to the fourth": days of a month
        | {f"{d}s" for d in WEEKDAYS}  # "wednesdays test": Wednesday's
        | REPORTING_WORDS  # "please quantify …", "for the reporting period": how a report asks, not what
        | PEOPLE_WORDS  # "guard here at the tyre plant": who asks, not what
        | BUSINESS_NOUNS
        | PAPERWORK_WORDS  # "for the QC sheet", "the fuel roster": where the answer goes, not what it reads
        | PRODUCTION_WORDS
        | {w for w in words(g.question) if _SIZE_CODE.match(w)}
        | FUNCTION_WORDS  # (fillers among them: "uh, what's …", "er, Main Vent Fan 2's speed")
    )
    for m in links.mentions:
        placed |= set(words(m.text))
    for named in _BUSINESS_NAMED.finditer(g.question):  # "the Cerámicas Levante order": a customer's name
        placed |= set(words(named.group(1)))
    for named in _DOCUMENT_NAMED.finditer(g.question):  # "the Building Controls Maintenance Agreement"
        placed |= set(words(named.group(0)))
    if re.search(r"\bclocks?\b", g.question, re.I):  # "the clocks went forward last Sunday", "as the wall clocks show"
        placed |= {"clock", "clocks", "forward", "forwards", "back", "wall", "daylight", "saving", "savings", "summer"}
    for phrase in fieldvocab.flow_direction_phrases(g.question):  # "exporting back to the grid": which way it flows
        placed |= set(words(phrase))
    for term in RATIO_TERMS.finditer(g.question):  # "the PUE", "its specific power": a ratio the field defines
        placed |= set(words(term.group(0)))
    if any(p.op == "ratio" for p in g.reading.parts) and len(links.sensors) >= 2:
        # "its evaporation ratio, kg steam per litre of fuel oil": the ratio's name, its two series named by the words
        for named in re.finditer(r"\b([^\W\d_]+)\s+(?:ratio|factor|index)\b", g.question, re.I):
            placed |= set(words(named.group(1)))
    for a, b in fieldvocab.event_spans(g.question):  # "during Tuesday's power cut": an event, placed
        placed |= set(words(g.question[a:b]))
    for named in re.finditer(rf"((?:[^\W\d_]+\s+){{1,2}})(?:{'|'.join(EVENT_WORDS)})\b", g.question, re.I):
        placed |= set(words(named.group(1)))  # "the black building test": the event's name
    said_kinds = [m.text.split()[0] for m in links.mentions if m.name in links.asset_types and m.text.split()]
    for kind in links.asset_types:  # "those big exhaust fans": a size that describes the kind's equipment, not a name
        for first in [*" ".join(fieldvocab.marker_words(kind)).split()[:1], *said_kinds]:  # "the giant washing machine"
            sized = rf"\b({_SIZE})\W+(?:\w+\W+){{0,2}}?{re.escape(first)}"
            placed |= {
                w for m in re.finditer(sized, g.question, re.I) for w in words(m.group(0)) if re.fullmatch(_SIZE, w)
            }  # "the big round tank": each word of its look
    for span, _ in initial_spans(g.question, catalog):  # "the tunnel ventilation fans (TVF)": a name spelled out
        placed |= set(words(" ".join(span)))
    for missing in links.missing:
        placed |= set(words(missing.text))
    for kind in links.asset_types:  # "all four grow-out ponds": a compound that says which of the kind, no name
        label = " ".join(fieldvocab.marker_words(kind)).split()[-1:]
        if label:
            compound = rf"\b([^\W\d_]+)-([^\W\d_]+)\s+{re.escape(label[0])}"
            placed |= {w.casefold() for m in re.finditer(compound, g.question, re.I) for w in m.groups()}
    for said in fieldvocab.measure_words(g.question):  # "the average electrical output": a measure's phrase
        placed |= set(words(said.phrase))
    left = []
    for w in unplaced_words(g.question, g.reading, placed):
        if (
            re.fullmatch(r"[\d.,:%-]+|\d+\w{0,2}", w)
            or fieldvocab.measure_words(w)
            or fieldvocab.kinds_named(w)
            or fieldvocab.quantity_of_unit(w) is not None
            or any((p.limit_unit or "").casefold() == w for p in g.reading.parts)  # "below 100 kA": the limit's unit
            or _qualifier(g, links, w)
            or _compound_of_a_marker(catalog, links, w)
            or _place_name(g, links, w)
            or _in_catalog(g, catalog, links, w)
        ):
            continue
        left.append(w)
    return left


def _compound_of_a_marker(catalog: Catalog, links: Links, w: str) -> bool:
    """`w` is a compound whose last part is a marker the equipment in play carries ("seawater" of intake pumps marked
    `water`, "groundwater" of a well marked `water`): it says which of the kind, no name."""
    sites = links.sites or list(catalog.sites)
    marks = {
        m.casefold()
        for site in sites
        for a in (links.assets or [x for k in links.asset_types for x in catalog.site(site).assets_of_type(k)])
        for m in catalog.site(site).markers.get(a, ())
    }
    return any(len(m) >= 4 and len(w) - len(m) >= 3 and w.endswith(m) for m in marks)


def _qualifier(g: Grounding, links: Links, w: str) -> bool:
    """`w` qualifies a kind the question names into a narrower kind the field defines and the SkySpark does not
    mark ("exhaust" in "exhaust fans" where the equip records say `fan`; Brick's Exhaust_Fan is a Fan): placed,
    and remembered in `g.qualified` so the listing says what the SkySpark does and does not record."""
    for kind in links.asset_types:
        label = " ".join(fieldvocab.marker_words(kind))
        if not label or not re.search(
            rf"\b{re.escape(w)}\W+(?:\w+\W+){{0,2}}?{re.escape(label.split()[0])}", g.question, re.I
        ):
            continue
        if any(kind in fieldvocab.kind_parents(m) for m in fieldvocab.kinds_named(f"{w} {label}")):
            g.qualified.setdefault(kind, []).append(w)
            return True
    return False


def unplaced_measure(g: Grounding, catalog: Catalog, links: Links) -> None:
    """A question that names assets and asks for their data, but names no sensor of theirs and no measure, while a
    word of it stands unplaced ("max Level for Chiller B", where Chiller B has no level): that word is the
    measure asked for, and the assets do not have it. Said as a missing sensor, so no other series stands in."""
    r = g.reading
    if (
        not g.unplaced
        or not links.assets
        or links.sensors
        or links.measures
        or links.missing
        or r.also
        or g.start is None
    ):  # a data question names its period; "which company made X?" is none
        return
    if not r.parts or not all(
        p.ask in ("data", "rank", "excursion", "derive", "duration", "when_extreme") for p in r.parts
    ):
        return
    if ENERGY_WORDS.search(g.question) or any(p.statistic == "energy" for p in r.parts):
        return  # energy is asked: it is computed from power where no energy sensor is (no word stands for it)
    words = re.findall(r"[\w%°.-]+", g.question)
    formed = {(m.group(1) or m.group(2)).casefold() for m in _FORM_PHRASE.finditer(g.question)}  # "what time"
    words = [w for w in words if w.casefold() not in formed]
    near = _near_assets(g.question, links)
    text = next((w for w in words if w.casefold() in g.unplaced and w.casefold() in near), "")
    if not text:  # only a word beside an asset's name is read as its measure ("max Level for Chiller B")
        return
    if not (fieldvocab.names_a_measure(text) or _name_shaped(text, g.question)):  # "exceed", "nearly": a word the
        return  # field knows as no measure is never said missing; it stays a word nothing placed
    for asset in links.assets:
        site = links.asset_sites[asset]
        links.missing.append(sensor_lacking(catalog, site, asset, text))


#: the words of a question's form, never the measure it asks for ("what time was …", "how low did the pond get")
_FORM_PHRASE = re.compile(r"\b(?:what|which|wat)\s+(time|hour|day|date)\b|\bhow\s+(\w+)\b", re.I)


def _name_shaped(word: str, question: str) -> bool:
    """The operator wrote the word as a point's name: with a digit, an underscore or capitals ("PRESS", "kW_2"), or
    capitalised inside a sentence ("what was the Volumenstrom of Wärmepumpe 2")."""
    if word.casefold() in CALENDAR_WORDS:
        return False  # "on Labor Day": a day's name
    if re.search(r"\d|_", word) or (len(word) > 1 and word.isupper()):
        return True
    at = question.find(word)
    before = question[:at].rstrip()
    return word[:1].isupper() and at > 0 and not before.endswith((".", "?", "!", ":", ";"))


def _near_assets(question: str, links: Links, reach: int = 2) -> set[str]:
    """The question's words (case-folded) within `reach` words of where it names an asset, glue words skipped."""
    tokens = [(m.group(0).casefold(), m.start(), m.end()) for m in re.finditer(r"[\w%°.-]+", question)]
    out: set[str] = set()
    for mention in (m for m in links.mentions if m.kind == "asset" and m.text):
        at = question.casefold().find(mention.text.casefold())
        if at < 0:
            continue
        before = [t for t, _, e in tokens if e <= at and t not in GLUE]
        after = [t for t, s, _ in tokens if s >= at + len(mention.text) and t not in GLUE]
        out |= set(before[-reach:]) | set(after[:reach])
    return out


def _in_catalog(g: Grounding, catalog: Catalog, links: Links, word: str) -> bool:
    """The word is part of a name on the SkySpark (a site, an asset or a sensor of the sites in play)."""
    if g.names_words is None:
        names = set(catalog.sites)
        linked = [(links.asset_sites[a], a) for a in links.assets]
        for site in links.sites or (catalog.sites if len(catalog.sites) <= 12 else []):
            for a in catalog.assets(site):
                names.add(a)
                if not linked:  # with assets named, only their own sensors place a word
                    names.update(s.short for s in catalog.sensors(site, a))
        tags: set[str] = set()
        for site, a in linked:
            names.update(s.short for s in catalog.sensors(site, a))
            # a marker of the named assets' points ("the air in dry room 1": its points are tagged `air`)
            tags.update(
                t.casefold() for s in catalog.sensors(site, a) for t in s.tags if t not in fieldvocab.RECORD_TAGS
            )
        g.names_words = (
            {w for n in names for w in words(n)} | {w for n in names for w in fieldvocab.normalize(n).split()} | tags
        )
    return word in g.names_words or fieldvocab.singular(word) in g.names_words  # "the bag belt lines": BHS Line 1
