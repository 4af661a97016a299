"""A run's grounding: what the question names on the SkySpark, what a call may write, and the evidence so far.

`Grounding.build(question, catalog, now)` links the question's names (`linking.link`) and its period
(`dates.resolve_period`) in code before the first step. The agent then asks it for

- `scope()`: the names and period tool arguments are constrained to (`scope.Scope`);
- `answer_tokens()`: the figures and codes a Finish answer may write (`provenance.answer_pattern`);
- `answer_prefix(trial)`: what a Finish answer must start with, written by code: the facts of what the
  SkySpark lacks, and the heads (`toolkit.Said.answer`) of the trial's calls that answer the question —
  the names a listing found where the question asks for names, each series' figures and file of a data
  call. Where that is the whole answer (`answer_closed`) the model writes no word of it;
- `check(answer)`: the answer's claims traced to their sources, after it is written;
- `invented(tool, args)`: the names of a call that the SkySpark does not have (counted, never hidden);
- `unverified(text)`: the figures and names of published free text (thoughts, reviews) nothing held.

Every Observation is recorded with `observe`, so claims can name the step they came from. Without a
catalog (SkySpark down) there is no scope and names are not checked against it, but figures still are.

The work is split by job: `placing` reads the question before the first step, `written` writes the answers code
gives whole, `calls` offers tools and checks a call's arguments, `status` decides which call answers which part
and whether an answer may go out as answered, `prose` checks the words of an answer code did not start.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from edge_agent.clock import zone_named
from edge_agent.grounding import clockchange, fieldvocab, respelling
from edge_agent.grounding.abbrev import cut_words, kind_numbers, numbered_ranges, short_codes, slashed_siblings
from edge_agent.grounding.allowed import GroundedAnswer, StepGrounding
from edge_agent.grounding.calls import call_key, invented_names, known, named_in, offered, pins, wrong_measure
from edge_agent.grounding.catalog import Catalog, key
from edge_agent.grounding.context import (
    circumstance_tail,
    framing_spans,
    in_statements,
    label_lead,
    parentheticals,
    sentence_spans,
    set_aside,
    statement_spans,
)
from edge_agent.grounding.dates import DateRange, mentions_time, resolve_period
from edge_agent.grounding.eventwindow import event_window
from edge_agent.grounding.forms import FUNCTION_WORDS, TABLE
from edge_agent.grounding.frame import Slot
from edge_agent.grounding.linking import link
from edge_agent.grounding.links import Links, Mention
from edge_agent.grounding.numbers import numbered_words, spelled_numbers, spelled_units
from edge_agent.grounding.periods import two_periods
from edge_agent.grounding.placing import (
    document_spans,
    initial_spans,
    only_requests,
    period_span,
    reading_of,
    unplaced,
    unplaced_measure,
)
from edge_agent.grounding.prose import ANSWER_WORDS, well_formed
from edge_agent.grounding.provenance import Claim, Source, codes, digit_tokens, evidence_tokens, trace, ungrounded
from edge_agent.grounding.question import Part, Reading, spelled, unit_quantity
from edge_agent.grounding.radio import radio_call
from edge_agent.grounding.readas import wrong_series
from edge_agent.grounding.repairs import take_back
from edge_agent.grounding.scope import SETPOINT, Scope, hidden_pins, said_among
from edge_agent.grounding.status import (
    ANALYSIS_TOOLS,
    ANSWERED_BY,
    MAX_HEADS,
    _sentence,
    answer_closed,
    answered_by_links,
    assignment,
    established,
    heads,
    holds_finish,
    open_parts,
    unsupported,
)
from edge_agent.grounding.unitnamed import name_by_unit
from edge_agent.grounding.wholes import share_of_total, share_order, system_meter
from edge_agent.grounding.written import declined, written_in_code
from edge_agent.toolkit import Tool

#: what callers import from here (the parts' names stay importable where they were)
__all__ = [
    "ANALYSIS_TOOLS",
    "ANSWERED_BY",
    "ANSWER_WORDS",
    "MAX_HEADS",
    "Grounding",
    "_sentence",
    "invented_names",
    "well_formed",
]


def _kind_slips(question: str) -> dict[str, str]:
    """Words of the question the reading corrects by one slip (`question.spelled`: two letters swapped) into a word
    that names a kind of equipment ("boliers" → "boilers"), as written → as read."""
    out: dict[str, str] = {}
    for (a, _, _), (b, _, _) in zip(_word_spans(question), _word_spans(spelled(question))):
        if a != b and fieldvocab.kinds_named(b.casefold()):
            out[a] = b
    return out


def _short_forms(question: str, catalog: Catalog) -> dict[str, str]:
    """The short forms of general words the question writes ("yday", "thru", "pts": the forms table's `short_forms`)
    → the words they stand for; never a word of one of the SkySpark's names (a site "RN", an asset "DL 2")."""
    typed = dict.fromkeys(  # in the question's order: the Read-as says them so
        w for w in re.findall(r"(?<![\w-])[A-Za-z0-9/]+(?![\w-])", question) if w.casefold() in TABLE.short_forms
    )
    if not typed and not _DAY_BEFORE_DATE.search(question):
        return {}
    names = {w.casefold() for n in catalog.all_names() for w in re.findall(r"[^\W_]+", n)}
    out = {w: TABLE.short_forms[w.casefold()] for w in typed if w.casefold() not in names}
    for m in _DAY_BEFORE_DATE.finditer(question):  # "Sat 28th": a weekday, even where SAT names a point
        out[m.group(1)] = _WEEKDAY_SHORT[m.group(1).casefold()]
    return out


#: the weekdays' short forms (the forms table's, and "sat", "sun": words of their own save before a date)
_WEEKDAY_SHORT = {
    **{
        w: full
        for w, full in TABLE.short_forms.items()
        if full in ("monday", "tuesday", "wednesday", "thursday", "friday")
    },
    "sat": "saturday",
    "sun": "sunday",
}
#: a weekday's short form before the day's number ("Sat 28th", "Sun 5"): a date, whatever else the word names
_DAY_BEFORE_DATE = re.compile(
    rf"\b({'|'.join(_WEEKDAY_SHORT)})\b\.?(?=\s+\d{{1,2}}(?:st|nd|rd|th)?\b(?!\s*(?:%|°|kw|c\b)))", re.I
)


def _spaced_letters(question: str, names: list[str]) -> dict[str, str]:
    """Capitals a voice-to-text writes apart ("the I T load", "U P S A2") → the code they spell, where one of the
    asset `names` holds it as a word."""
    codes = {w.casefold() for n in names for w in re.findall(r"[^\W\d_]+", n) if w.isupper()}
    out = {}
    for m in re.finditer(r"(?<![\w-])[A-Z](?:\s[A-Z]){1,3}(?![\w-])", question):
        joined = m.group(0).replace(" ", "")
        if joined.casefold() in codes:
            out[m.group(0)] = joined
    return out


def _spelled_initials(question: str, catalog: Catalog) -> dict[str, str]:
    """Words the question spells out that one of the SkySpark's names abbreviates by their initials ("clean dry air"
    of "CDA Compressor 1", "air handling unit" of "AHU-2") → the abbreviation; three letters or more."""
    out: dict[str, str] = {}
    for span, acronym in initial_spans(question, catalog):
        if (
            not fieldvocab.kinds_named(" ".join(span))  # "air handling units": the field's kind, read as such
            and not fieldvocab.kinds_named(span[-1])  # "tunnel ventilation fans": fans, which the listing reads
            and not re.search(rf"\b{acronym}\b", question)  # "(TVF)": the operator wrote it too
        ):
            out[" ".join(span)] = acronym
    return out


def _with_setpoints(question: str, reading: Reading, links: Links, catalog: Catalog) -> None:
    """ "A file with the water temp and the SP of scalder 1 and 2": a question that asks for data (no comparison, no
    analysis) and says "setpoint" beside a series it names asks for that series' setpoint too — the point of each named
    asset whose name holds the series' name and is a setpoint (its name or its `sp` tag) is linked as well."""
    if not links.assets or not links.sensors or not TABLE.setpoint.search(question):
        return
    if not reading.parts or any(p.ask != "data" for p in reading.parts):
        return

    points = [x for a in links.assets for x in catalog.sensors(links.asset_sites.get(a, ""), a)]
    setpoint = {x.short for x in points if SETPOINT.search(x.short) or "sp" in x.tags}
    if setpoint & set(links.sensors):
        return  # the question names a setpoint itself
    for sensor in list(links.sensors):
        of = sorted({x.short for x in points if x.short in setpoint and key(sensor) in key(x.short)}, key=len)
        if of and of[0] not in links.sensors:
            links.sensors.append(of[0])


_OVER = re.compile(
    r"\b([^\W\d_]{3,})\s+(?:over|to|divided\s+by|vs\.?|versus)\s+(?:the\s+|its\s+)?([^\W\d_]{3,})\b", re.I
)


def _ratio_pair(reading: Reading, links: Links, catalog: Catalog) -> None:
    """A ratio of one asset's two series, each said by one word ("the recovery of RO Train 2, permeate over feed, as a
    fraction"): of the series each word names, the one pair in the same unit (a fraction of like things) is linked."""
    part = next((p for p in reading.parts if p.ask == "derive" and p.op == "ratio"), None)
    if part is None or len(links.assets) != 1 or len(links.sensors) > 1:
        return
    named = list(links.sensors)  # one series the words named ("specific power": Motor Power) is one of the pair
    asset = links.assets[0]
    points = catalog.sensors(links.asset_sites.get(asset, ""), asset)
    units = {x.short: x.unit for x in points}
    for m in _OVER.finditer(part.text):
        tops, bottoms = said_among(m.group(1), list(units)), said_among(m.group(2), list(units))
        pairs = [(a, b) for a in tops for b in bottoms if a != b and units[a] and units[a] == units[b]]
        if len(pairs) == 1 and set(named) <= set(pairs[0]):
            links.sensors[:] = pairs[0]
            return
    for m in _PER_UNIT.finditer(part.text):  # "kilowatts per m³ a minute": the point in kW over the one in m³/min
        # the unit said before "per" (next to it, or a few words back: "pounds of CO2 are we getting back per kWh")
        before = [w for w in re.findall(r"[^\W\d_]+|[^\s\w]+", part.text[: m.start(2)])[-10:] if unit_quantity(w)]
        for top in dict.fromkeys([m.group(1), *reversed(before)]):
            tops, bottoms = _in_unit_of(top, units), _in_unit_of(m.group(2), units)
            if len(tops) == 1 and len(bottoms) == 1 and tops != bottoms and set(named) <= {*tops, *bottoms}:
                links.sensors[:] = [*tops, *bottoms]
                return


#: a machine's efficiency as the field defines it: thermal output over electrical input (COP, EER)
_EFFICIENCY = re.compile(r"\b(?:cop|coefficient\s+of\s+performance|eer|energy\s+efficiency\s+ratio)\b", re.I)


def _efficiency_pair(reading: Reading, links: Links, catalog: Catalog) -> None:
    """ "Chiller 1 COP yesterday": its one thermal power series (tagged `cool`, `heat` or `thermal`) over its one
    electrical power series (`elec`), where the asset has exactly one of each."""
    part = next((p for p in reading.parts if p.ask == "derive" and p.op == "ratio"), None)
    if part is None or len(links.assets) != 1 or not _EFFICIENCY.search(part.text):
        return
    if any(_EFFICIENCY.search(s) for s in links.sensors):  # the SkySpark has the COP as a point: read it
        part.ask, part.op, part.statistic, part.slots = "data", None, None, {}
        return
    asset = links.assets[0]
    points = catalog.sensors(links.asset_sites.get(asset, ""), asset)
    power = [x for x in points if (q := fieldvocab.quantity_of_unit(x.unit)) is not None and q.name == "power"]
    thermal = [x.short for x in power if {"cool", "heat", "thermal"} & set(x.tags) and "elec" not in x.tags]
    electric = [x.short for x in power if "elec" in x.tags]
    if len(thermal) == 1 and len(electric) == 1:
        links.sensors[:] = [thermal[0], electric[0]]


#: lay words for the two ends of a flow through equipment: what goes in (Haystack `entering`) and what comes out
#: (`leaving`) — "the seawater going into the chiller", "the water coming back out of it"
_INTO = re.compile(
    r"\b(?:going\s+in(?:to)?|coming\s+in(?:to)?|flowing\s+in(?:to)?|fed\s+in(?:to)?|inlet|entering)\b", re.I
)
_OUT_OF = re.compile(r"\b(?:coming\s+(?:back\s+)?out|going\s+out|flowing\s+out|out\s+of\s+it|outlet|leaving)\b", re.I)


def _ends_of_a_flow(reading: Reading, links: Links, catalog: Catalog, question: str) -> None:
    """A difference of what goes into and what comes out of one asset ("how many degrees warmer was the seawater going
    into the tank chiller than the water coming back out of it"): its `entering` and `leaving` points of one
    quantity, in the order the question says them."""
    part = next((p for p in reading.parts if p.ask == "derive" and p.op == "difference"), None)
    into, out = _INTO.search(question), _OUT_OF.search(question)
    if part is None or into is None or out is None or len(links.sensors) > 1:
        return
    assets = list(links.assets) or [
        a for site in links.sites for k in links.asset_types for a in catalog.site(site).assets_of_type(k)
    ]
    found = []
    for asset in dict.fromkeys(assets):
        site = links.asset_sites.get(asset) or next((s for s in links.sites if asset in catalog.assets(s)), "")
        points = catalog.sensors(site, asset) if site else []
        ends = [x for x in points if "sp" not in x.tags]
        rest = {x.short: set(x.tags) - {"entering", "leaving"} for x in ends}
        found += [  # the two ends of one flow: the same tags but which end (entering water temp, leaving water temp)
            (asset, a.short, b.short)
            for a in ends
            if "entering" in a.tags
            for b in ends
            if "leaving" in b.tags and rest[a.short] == rest[b.short]
        ]
    if len(found) != 1:
        return
    asset, ins_point, outs_point = found[0]
    links.sensors[:] = [ins_point, outs_point] if into.start() < out.start() else [outs_point, ins_point]
    if asset not in links.assets:
        links.assets.append(asset)
        links.asset_sites[asset] = next(s for s in links.sites if asset in catalog.assets(s))


_MINUS = re.compile(r"\b([^\W\d_]{3,})\s+(?:minus|less)\s+([^\W\d_]{3,})\b", re.I)


def _minus_operands(reading: Reading, links: Links, catalog: Catalog, question: str) -> None:
    """ "ch2 delta t avg yday, return minus supply": each side of "minus" is the one point of the named asset whose
    name holds that word (CHW Return Temp, CHW Supply Temp), in that order, whatever else the words can be."""
    part = next((p for p in reading.parts if p.ask == "derive" and p.op == "difference"), None)
    m = _MINUS.search(question)
    if part is None or m is None or len(links.assets) != 1:
        return
    asset = links.assets[0]
    points = [x.short for x in catalog.sensors(links.asset_sites.get(asset, ""), asset) if "sp" not in x.tags]

    def one(word: str) -> str | None:
        fits = [p for p in points if word.casefold() in p.casefold().split()]
        return fits[0] if len(fits) == 1 else None

    first, second = one(m.group(1)), one(m.group(2))
    if first and second and first != second:
        links.sensors[:] = [first, second]


def _point_words(catalog: Catalog) -> frozenset[str]:
    """The words of every point's name on the SkySpark, case-folded ("supply", "temp", "steam", "flow")."""
    return frozenset(
        w.casefold()
        for site in catalog.sites
        for asset in catalog.assets(site)
        for point in catalog.sensors(site, asset)
        for w in re.findall(r"[^\W\d_]+", point.short)
    )


def _names_something(text: str, catalog: Catalog, now: datetime | None) -> bool:
    """`text` names a site or equipment of the SkySpark, or a period ("Gross head yesterday")."""
    links = link(text, catalog)  # "Dairy:", "For the Cinema's statement,", "For the tenant comfort summary," (the
    # one site with tenants): it says where, which the question may say nowhere else
    said = [m for m in links.mentions if m.kind != "site" or m.how != "only"]  # the one site of a gateway: no word
    return bool(said or links.assets or (now is not None and resolve_period(text, now) is not None))


def _settled_by_unit(reading: Reading, links: Links, catalog: Catalog) -> None:
    """A limit with its unit ("above 48 Hz", "above 40 °C") says what is measured: where the one named asset has a
    series in that unit (or of its quantity), a plain word of the question claimed as a series the asset lacks ("did
    Well Pump 3 *run* above 48 Hz": its Run; "ETP final *discharge*") is no measure asked, and the claim is dropped
    with any series of another asset that word linked."""
    part = next((p for p in reading.parts if p.limit is not None and p.limit_unit), None)
    if part is None or len(links.assets) != 1 or not links.missing:
        return
    asset = links.assets[0]
    site = links.asset_sites.get(asset, "")
    want = fieldvocab.quantity_of_limit_unit(part.limit_unit or "")
    if want is None or not site:
        return
    units = [x.unit for x in catalog.sensors(site, asset)]
    if not any((q := fieldvocab.quantity_of_unit(u)) is not None and q.name == want.name for u in units):
        return
    plain = [
        m
        for m in links.missing
        if m.kind == "sensor" and m.asset == asset and re.fullmatch(r"[a-z]+", m.text.strip(), re.I)
    ]
    own = {x.short for x in catalog.sensors(site, asset)}
    for m in plain:
        links.missing.remove(m)
        links.sensors[:] = [s for s in links.sensors if s in own or s.casefold() != m.text.casefold()]


#: the forms that read a series' values (a command gives way to its feedback there, never in a listing)
_READS_A_VALUE = frozenset({"data", "rank", "duration", "excursion", "derive", "periods", "when_extreme"})
_TIME_UNITS = frozenset({"h", "hr", "hrs", "hour", "hours", "min", "s", "sec", "day", "days"})


def _time_counted(reading: Reading, links: Links, catalog: Catalog) -> None:
    """ "GTG-1 run hrs last week" where GTG-1 has a Run Hours point (a counter in hours): how long it ran is what the
    counter rose over the period (its rise, a data part: the histories' head states it), not a time past a limit."""
    for i, part in enumerate(reading.parts):
        if part.ask != "duration" or part.limit is not None or part.setpoint or len(links.sensors) != 1:
            continue
        sensor = links.sensors[0]
        points = [
            x for a in links.assets for x in catalog.sensors(links.asset_sites.get(a, ""), a) if x.short == sensor
        ]
        if points and all((x.unit or "").strip().casefold() in _TIME_UNITS for x in points):
            reading.parts[i] = part.model_copy(
                update={
                    "ask": "data",
                    "form": "value",
                    "direction": None,
                    "slots": {
                        **part.slots,
                        "statistic": Slot(source="rule", said=f"the rise of {sensor}, a counter of the time it ran"),
                    },
                }
            )


#: a relative clause about a noun of the request, not the data: "the disclosure that is due this week", "the
#: report which was filed last month"
_ABOUT_A_NOUN = re.compile(
    r"\b(?:that|which)\s+(?:is|are|was|were|will\s+be|has\s+been|had\s+been)\s+(?:due|filed|sent|submitted|"
    r"published|issued|held|scheduled|planned|expected)\b[^,.;?!]*",
    re.I,
)


def _clock_change_dated(question: str, catalog: Catalog, now: datetime | None) -> tuple[str, str]:
    """The question with a daylight-saving change it names written as its date, in the time zone of the one site it
    names (or the SkySpark's only zone), and what was read (`grounding.clockchange`)."""
    if now is None or not clockchange.names_a_change(question):
        return question, ""
    sites = link(question, catalog).sites or list(catalog.sites)
    zones = {catalog.site(s).tz for s in sites}
    if len(zones) != 1:
        return question, ""
    try:
        tz = zone_named(next(iter(zones)))
    except Exception:
        return question, ""
    return clockchange.dated(question, tz, now)


def _one_by_its_number(question: str, period: str, links: Links, catalog: Catalog) -> None:
    """A kind named with a number of three digits or more that the name of exactly one of its assets holds ("the
    booster fan on the 1365 level": Booster Fan L1365 of two booster fans), or with a name that exactly one of its
    assets' names holds ("the dehumidifier for dry room 3": Dry Room 3 Dehumidifier, not the room): that asset."""
    if not links.asset_types:
        return
    of_kind = {
        (site, a)
        for site in links.sites or list(catalog.sites)
        for kind in links.asset_types
        for a in catalog.site(site).assets_of_type(kind)
    }
    if links.assets:
        for named in list(links.assets):
            within = re.compile(rf"(?<![\w-]){re.escape(named)}(?![\w-])", re.I)  # not "HW-Pump-2" in "CHW-Pump-2"
            holding = {(site, a) for site, a in of_kind if a != named and within.search(a)}
            if len(holding) == 1:
                site, asset = holding.pop()
                links.assets = [asset if x == named else x for x in links.assets]
                links.asset_sites[asset] = site
                links.mentions.append(Mention(text="", name=asset, kind="asset", site=site, how="within"))
        return
    text = question.replace(period, " ") if period else question
    said = {
        m.group(1): m.group(0).strip()  # with the word after it ("the 1365 level"), placed with it
        for m in re.finditer(r"(?<![\w.,])(\d{3,})(?![\w.,%°])(?:\s+([^\W\d_]+))?", text)
        if not (m.group(2) and fieldvocab.quantity_of_unit(m.group(2)))  # "1365 kW" is a value, no name
    }
    for number, words_said in said.items():
        fits = [(site, a) for site, a in of_kind if re.search(rf"(?<!\d){number}(?!\d)", a)]
        if len(fits) == 1:
            site, asset = fits[0]
            links.assets, links.asset_sites[asset] = [asset], site
            links.mentions.append(Mention(text=words_said, name=asset, kind="asset", site=site, how="part"))
            return


def _present_value(g: Grounding, question: str) -> bool:
    """A value of a measure asked in the present tense with no time said ("Say again the amps on rectifier 9",
    "what's the bath temp in the pot room"): its value now, the latest reading (a documented rule: the Read-as says
    "now"). Never a question that says any time, asks anything but one value, or names no measure."""
    r = g.reading
    return (
        g.start is None
        and g.links is not None
        and bool(g.links.sensors or g.links.measures)
        and r.intent == "read"
        and not r.also
        and len(r.parts) == 1
        and r.parts[0].ask == "data"
        and r.parts[0].form == "value"
        and not mentions_time(question)
        and not _PAST.search(question)
    )


#: a question about the past ("what was …", "did it …"): no value now
_PAST = re.compile(r"\b(?:was|were|did|had|been|ago|last|yesterday|earlier|previous|before)\b", re.I)


def _amount_of_a_flow(reading: Reading, links: Links, catalog: Catalog) -> None:
    """ "Which dryer burnt the most gas last week": the amount a verb of using up asks of a flow (kg/h, m³/h) that is
    no power is compared by the flow's mean (one period for every asset: the same order as their totals), said as a
    rule; an energy is asked of power alone."""
    if not links.sensors:
        return
    units = [
        x.unit
        for site in links.sites
        for asset in catalog.assets(site)
        for x in catalog.sensors(site, asset)
        if x.short in links.sensors
    ]
    quantities = {q.name for u in units if (q := fieldvocab.quantity_of_unit(u)) is not None}
    if not quantities or quantities & {"power", "energy"}:
        return
    for part in reading.parts:
        if part.ask == "rank" and part.statistic == "energy":
            part.statistic = "mean"
            part.slots["statistic"] = Slot(
                source="rule", said="the mean flow: over one period, the same order as the amounts used"
            )


#: a part that asks a limit it does not state: "that figure", "the guaranteed maximum", "too warm", "too dry"
_LIMIT_REFERRED = re.compile(
    r"\b(?:(?:that|this|the\s+(?:guaranteed|contractual|agreed|stated|permitted|specified|required))\s+"
    r"(?:figure|limit|value|level|maximum|minimum|threshold)|too\s+(?:warm|hot|cold|cool|high|low|dry|humid|damp))\b",
    re.I,
)
#: a limit stated in the message: "should never go over 55 degrees", "would at no time exceed 0.25 mS/cm", "has to stay
#: at 5 degrees or under"
_LIMIT_STATED = re.compile(
    r"\b(?:go\s+(?:over|above|under|below)|exceed|rise\s+above|fall\s+below|drop\s+below|no\s+more\s+than|"
    r"not\s+more\s+than|at\s+most|at\s+least|stay\s+(?:at|below|under|above)|be\s+kept\s+(?:below|under|above))"
    r"\s+(?P<num>-?\d+(?:\.\d+)?)\s*(?P<unit>°\s*[CF]\b|degrees?\b|%|percent\b|[a-zA-Zµμ°/³²]+(?:/[a-zA-Z³²]+)?)?",
    re.I,
)


def _limit_said_elsewhere(reading: Reading, question: str) -> None:
    """A part that asks whether or how long a limit was crossed, where the limit is said in another sentence of the
    message ("Was the cool room too warm at any point yesterday? The card says it has to stay at 5 degrees or
    under"; "the contractor guaranteed the permeate would at no time exceed 0.25 mS/cm … how many hours it exceeded
    that figure"): that limit, and the part asks of it."""
    for part in reading.parts:
        referred = _LIMIT_REFERRED.search(part.text)
        if part.limit is not None or part.setpoint or referred is None:
            continue
        stated = list(_LIMIT_STATED.finditer(question))
        if len(stated) != 1:
            continue
        m = stated[0]
        part.limit = float(m["num"])
        unit = (m["unit"] or "").strip()
        part.limit_unit = unit if unit and unit.casefold() not in ("degrees", "degree") else None
        said = referred.group(0).casefold()
        if said.startswith("too"):  # "too warm": above the limit; "too cold", "too dry": below it
            part.direction = "below" if re.search(r"cold|cool|low|dry", said) else "above"
        elif part.direction is None:
            continue
        if part.ask == "data":
            part.ask = "excursion"
            part.cue = f"excursion: {m.group(0)}"
            if re.search(r"(?:^|[.?!,]\s+)(?:were|was|is|are|did|does|do|has|have|had)\b", part.text, re.I):
                part.form = "yes_no"  # "Were the penguins too warm at any point?": whether


#: a band of two figures ("the contractual comfort band of 5 °C to 7 °C", "a range of 40-60 %RH")
_BAND = re.compile(
    r"\b(?:band|range|window|envelope)\s+(?:of\s+|between\s+|from\s+)?(?P<lo>-?\d+(?:\.\d+)?)\s*(?P<u1>[^\s\d,.;]*)\s*"
    r"(?:to|and|-|–)\s*(?P<hi>-?\d+(?:\.\d+)?)\s*(?P<u2>[^\s,.;?]*)",
    re.I,
)
#: a part that names one end of such a band ("lay above the upper limit of that band", "below its lower end")
_BAND_END = re.compile(r"\b(?P<end>upper|top|higher|lower|bottom)\s+(?:limit|end|bound|edge)\b", re.I)


def _band_limit(reading: Reading, question: str) -> None:
    """A part whose limit is one end of a band the message states: that end's figure and unit."""
    band = _BAND.search(question)
    if band is None:
        return
    for part in reading.parts:
        end = _BAND_END.search(part.text)
        if part.direction is None or part.limit is not None or end is None:
            continue
        upper = end["end"].casefold() in ("upper", "top", "higher")
        part.limit = float(band["hi"] if upper else band["lo"])
        part.limit_unit = (band["u2"] or band["u1"] or None) if upper else (band["u1"] or band["u2"] or None)


#: the site as a whole, the subject of a sentence ("was the works sending …", "did the plant use …")
_SITE_SUBJECT = re.compile(
    r"\b(?:was|were|is|are|did|does|has|had)\s+(?:the|our|this)\s+(?:works|plant|site|mill|factory|facility|station)\b"
    r"|\b(?:the|our|this)\s+(?:works|plant|site|mill|factory|facility|station)(?:'s)?\s+(?:was|were|is|are|did|does|has|had)\b"
    # "how many hours were we sending power back out to the grid": the operator's "we", the site
    r"|\b(?:were|was|are|is|did|do|have|had)\s+we\b|\bwe\s+(?:were|are|did|have|had)\b",
    re.I,
)


def _site_as_subject(question: str, frames: list[tuple[int, int]]) -> bool:
    """The message's asking part (outside the framing sentences) has the site as a whole for its subject."""
    asking = question
    for a, b in sorted(frames, reverse=True):
        asking = asking[:a] + " " * (b - a) + asking[b:]
    return _SITE_SUBJECT.search(asking) is not None


def _asked_period(question: str, now: datetime) -> DateRange | None:
    """The period of the one sentence that asks ("P2 on ESL since the 1st with its SP raised. Did the holding tube temp
    dip below SP at any point yesterday?": yesterday), where the message has others before it that ask nothing; else
    the period of the whole message. A period said of a document ("the disclosure that is due this week") is not the
    data's, where the question names another."""
    if (event := event_window(question, now)) is not None:  # "that batch", "since the changeover": its times
        return event
    whole = resolve_period(question, now)
    if whole is not None and (about := _ABOUT_A_NOUN.search(question)) and whole.phrase in about.group(0).casefold():
        other = resolve_period(question[: about.start()] + " " + question[about.end() :], now)
        whole = other or whole
    sentences = [t for a, b in sentence_spans(question) if (t := question[a:b].strip())]
    asking = [s for s in sentences if s.rstrip().endswith("?")]
    if len(sentences) < 2 or len(asking) != 1 or whole is None:
        return whole
    own = resolve_period(asking[0], now)
    return own if own is not None and own.phrase and own.phrase in question.casefold() else whole


def _read_in(text: str, catalog: Catalog, now: datetime | None) -> bool:
    """`text` says something the question's reading needs: a site, equipment, a series, a measure, a period, or an
    operation on series ("(primary outlet minus secondary inlet)", "(return minus supply)")."""
    return (
        _names_something(text, catalog, now)
        or _names_equipment(text, catalog)
        or bool(fieldvocab.measure_words(text))
        or any(c.search(text.casefold()) for _, cues in TABLE.arguments["op"] for c in cues)
    )


def _names_equipment(text: str, catalog: Catalog) -> bool:
    """`text` names equipment, a kind of it or a series of the SkySpark."""
    links = link(text, catalog)
    return bool(links.assets or links.asset_types or links.sensors)


def _not_a_name(text: str) -> bool:
    """A piece of an answer the linking took for a name that is none: a decimal reading ("it 18.217") or a function
    word before a number ("was 3")."""
    first = text.split()[0].casefold() if text.split() else ""
    return bool(re.search(r"\d[.,]\d", text)) or first in FUNCTION_WORDS


_PER_UNIT = re.compile(r"([^\s/]+)\s*(?:\bper\b|\bfor\s+every\b|/)\s*(?:an?\s+|one\s+)?([^\s/,;?!]+)", re.I)


def _in_unit_of(word: str, units: dict[str, str | None]) -> list[str]:
    """The points whose unit is the unit `word` writes, else those in a rate of it ("m³" of a point in m³/min,
    "pounds" of one in lb/h, "kWh" of one in kW)."""
    q = unit_quantity(word)
    if q is None:
        return []
    exact, rates = [], []
    for point, unit in units.items():
        of_unit = fieldvocab.quantity_of_unit(unit) if unit else None
        if (of_unit is not None and of_unit.name == q.name) or (unit or "").casefold().startswith(
            f"{word.casefold()}/"
        ):
            exact.append(point)
        elif of_unit is not None and of_unit.name == fieldvocab.RATE_OF.get(q.name):
            rates.append(point)
    return exact or rates


def _ranked_kind_site(reading: Reading, links: Links, catalog: Catalog) -> None:
    """ "Which chiller was the least efficient last week", no site named: a ranking is among several, so the site is
    the one site that has two or more of the kind (said in the run as the only candidate); none or several: as it
    was (the scope spans the sites)."""
    if links.sites or links.assets or len(links.asset_types) != 1 or not any(p.ask == "rank" for p in reading.parts):
        return
    kind = links.asset_types[0]
    several = [s for s in catalog.sites if len(catalog.site(s).assets_of_type(kind)) >= 2]
    if len(several) == 1:
        links.sites = several
        links.mentions.append(Mention(text="", name=several[0], kind="site", how="only"))


def _count_of_a_point(reading: Reading, links: Links) -> None:
    """ "How many reefer plugs were in use on stack R3 at 2pm": the things counted are what a point of the asset
    counts (its name holds the counted word: Plugs In Use), so the part asks for that point's value, not a count of
    equipment."""
    names = {fieldvocab.singular(w.casefold()) for s in links.sensors for w in re.findall(r"[^\W\d_]+", s)}
    for part in reading.parts:
        counted = re.search(r"\bhow\s+many\s+((?:[^\W\d_]+\s+){0,2}[^\W\d_]+)", part.text, re.I)
        if counted is None or part.ask != "count":
            continue
        phrase = [w for w in counted.group(1).split() if w.casefold() not in FUNCTION_WORDS]
        head = fieldvocab.singular(phrase[-1].casefold()) if phrase else ""  # "how many power meters": meters
        if head in names - {"in", "use"}:
            part.ask, part.form = "data", "value"
            part.cue = f"data: {counted.group(0)} (a point counts them)"


def _linked(links: Links | None) -> int:
    """How many kinds and assets the linking found."""
    return len(links.asset_types) + len(links.assets) if links is not None else 0


def _word_spans(text: str) -> list[tuple[str, int, int]]:
    return [(m.group(0), m.start(), m.end()) for m in re.finditer(r"[^\W\d_]+", text)]


@dataclass
class Grounding:
    question: str
    catalog: Catalog | None = None
    links: Links | None = None
    start: str | None = None
    final: str | None = None
    facts: str = ""
    sources: list[Source] = field(default_factory=list)
    note: str = ""  # why there is no catalog
    refused: set[str] = field(default_factory=set)  # tokens of refused answers
    reading: Reading = field(default_factory=Reading)  # the question's intent and parts (`question.read_question`)
    in_code: str = ""  # the whole answer written by code before any step: a refusal, or a yes/no on existence
    refusal: str = ""  # why code refused (control, injection, outside, forecast); '' where it did not
    future: str = ""  # the question's period lies after the clock ("tomorrow", "next week"): its phrase
    unplaced: list[str] = field(default_factory=list)  # words of the question nothing could place (named in the run)
    period_phrase: str = ""  # the words the period was read from
    qualified: dict[str, list[str]] = field(default_factory=dict)  # kind → the question's narrowing words
    # a `periods` part: the second period compared (start, final); start/final are the first
    other: tuple[str, str] | None = None
    _scope: Scope | None = None
    # sensors a Review found read for a part that does not ask for them (a setpoint for the measured value, a series
    # of another quantity than the limit's): the next trial's calls are offered the others only (`avoid`)
    avoided: set[str] = field(default_factory=set)
    names_words: set[str] | None = None  # the words of the names in play: a cache of `placing.unplaced`
    respelt: dict[str, str] = field(default_factory=dict)  # misspelt words of the question → the words read
    aside: list[str] = field(default_factory=list)  # context set aside: a relay's lead, remarks (`grounding.context`)

    @classmethod
    def build(cls, question: str, catalog: Catalog | None, now: datetime | None = None, note: str = "") -> Grounding:
        """The grounding of a question; where words nothing placed are misspellings of the catalog's or the field's
        words ("clarifers", "temprature"), of the question with them respelt (`grounding.respelling`), which the run's
        note names."""
        question, called = radio_call(
            question
        )  # "Control, rectifier yard. Say again the amps on rectifier niner, over."
        question, aside = set_aside(question)  # "the grower's asking …", "…? they think the screens opened late"
        aside = [*called, *aside]
        if catalog is not None:  # "Turnover sheet: what flow …": a log's heading, unless it names what is asked
            question, label = label_lead(question, lambda t: _names_something(t, catalog, now))
            aside = [label, *aside] if label else aside
            # "…, when Cooling Tower 2's fan was out of service": context, where the rest names what is read
            question, why = circumstance_tail(question, lambda t: _names_equipment(t, catalog))
            aside = [*aside, why] if why else aside
            question, brackets = parentheticals(question, lambda t: _read_in(t, catalog, now))
            aside = [*aside, *brackets]  # "(the day Morocco's clocks went forward)": an aside
            question, changed = _clock_change_dated(question, catalog, now)  # "the Sunday the clocks went back"
            aside = [*aside, changed] if changed else aside
            question, repaired = take_back(question, catalog)  # "Genset 1 yesterday, I mean Genset 2": Genset 2
            aside = [*aside, *(f"taken back: {r}" for r in repaired)]
        short = cls._shortened(question, catalog)
        question = respelling.apply(question, short) if short else question
        g = cls._build(question, catalog, now, note)
        g.respelt, g.aside = dict(short), aside
        if catalog is None:
            return g
        # a statement's words are context, placed as such; a slip among them is still one ("conch number two was
        # labouring … how long was it over 75 kW": the subject "it" refers to is Conche 2)
        slipped = g.unplaced + [w for w in in_statements(question) if w not in g.unplaced]
        fixes = respelling.respelt(question, slipped, catalog) if slipped else {}
        slips = _kind_slips(question)  # "boliers": the reading read "boilers"; the linking must too
        if not fixes and not slips:
            return g
        respelt = respelling.apply(question, {**slips, **fixes})
        more = cls._shortened(respelt, catalog)  # "conch one", respelt "conche one": Conche 1
        again = cls._build(respelling.apply(respelt, more) if more else respelt, catalog, now, note)
        if len(again.unplaced) > len(g.unplaced) or (
            len(again.unplaced) == len(g.unplaced) and _linked(again.links) <= _linked(g.links)
        ):
            return g
        again.respelt, again.aside = {**short, **slips, **fixes, **more}, aside
        return again

    @staticmethod
    def _shortened(question: str, catalog: Catalog | None) -> dict[str, str]:
        """The question's short, spoken and shorthand forms of what the catalog names, each → its full form."""
        if catalog is None:
            return {}
        # "yday": yesterday, written out; "clean dry air": the CDA its names abbreviate it to
        assets = [a for site in catalog.sites for a in catalog.assets(site)]
        names = catalog.all_names()  # listed once for the readers below
        return {
            **_short_forms(question, catalog),
            **_spelled_initials(question, catalog),
            # "chiller two", "CRAH three" (CRAH-03), "boiler to steam flow" (Boiler 2)
            **spelled_numbers(question, numbered_words(assets), assets, _point_words(catalog)),
            **_spaced_letters(question, assets),  # "the I T load": the IT Meter's
            **spelled_units(question),  # "kilowatt hours": kWh
            **short_codes(question, assets, names),  # "U1": Unit 1
            **cut_words(question, assets, names),  # "upper res": Upper Reservoir
            **numbered_ranges(question, assets),  # "Silo 1-3": Silo 1, Silo 2 and Silo 3
            **slashed_siblings(question, assets),  # "P-101A/B": P-101A and P-101B
            **kind_numbers(question, catalog),  # "fermenter number seven": FV-07
        }

    @classmethod
    def _build(cls, question: str, catalog: Catalog | None, now: datetime | None = None, note: str = "") -> Grounding:
        period = _asked_period(question, now) if now is not None else None
        start, final = period.iso() if period is not None else (None, None)
        phrase = period.phrase if period is not None else ""
        events = fieldvocab.event_spans(question)  # "during the power cut": no Power series
        events += document_spans(question)  # "the Penguin Life Support Maintenance Contract": no equipment named
        links = link(question, catalog, exclude=[*period_span(question, phrase), *events]) if catalog else None
        # the sentences that frame the question or report before it ("Comp 1 sounding laboured. Which NH3 comp …?")
        frames = framing_spans(question) + statement_spans(question) if catalog else []
        if (
            frames and catalog and links is not None
        ):  # "Our insurer asks us to confirm that the domestic hot water …. Did DHW Calorifier 1
            # drop below 55 °C …?": where the asking sentence names the equipment, the framing names none of it
            asked = link(question, catalog, exclude=[*period_span(question, phrase), *events, *frames])
            if asked.assets or asked.asset_types or (asked.sites and not links.assets):
                links = asked
            elif _site_as_subject(question, frames) and (asked.sensors or asked.measures):
                # "I understand the tile works sells the engine's surplus to the grid. At what time was the works
                # sending the most power out?": the asking sentence is about the site as a whole, not the framing's
                # equipment; the framing's site stays
                asked.sites = asked.sites or list(links.sites)
                links = asked
        g = cls(question=question, catalog=catalog, links=links, start=start, final=final, note=note)
        g.period_phrase = phrase
        if period is not None and now is not None and period.start > now:
            g.future = period.phrase
        g.sources.append(Source(kind="question", text=question))
        if catalog is not None and links is not None:
            system_meter(question, links, catalog)  # "the BHS's electricity": what the BHS Sub-Meter measures
            _one_by_its_number(question, phrase, links, catalog)  # "the booster fan on the 1365 level": L1365
            g.reading = reading_of(question, catalog, links)
            if g.reading.also_spans:  # the names in a refused piece ("… and shut its ethylene injection off") are
                spans = [*period_span(question, phrase), *events, *g.reading.also_spans]  # not what the data part asks
                g.links = links = link(question, catalog, exclude=spans)
                system_meter(question, links, catalog)
                g.reading = reading_of(question, catalog, links)
            if now is not None and any(p.ask == "periods" for p in g.reading.parts):
                pair = two_periods(spelled(question), now)
                if pair is not None:
                    (g.start, g.final), g.other = pair[0].iso(), pair[1].iso()
            if now is not None and _present_value(g, question):  # "what's the bath temp in the pot room": now
                g.start, g.final = DateRange(now, now, "now", point=True).iso()
                g.period_phrase = phrase = ""
            _band_limit(g.reading, question)  # "above the upper limit of that band" of "a band of 5 °C to 7 °C"
            _limit_said_elsewhere(g.reading, question)  # "too warm? … it has to stay at 5 degrees or under"
            _amount_of_a_flow(g.reading, links, catalog)  # "burnt the most gas": ranked by the mean Gas Flow
            _ranked_kind_site(g.reading, links, catalog)  # "which chiller …": the one site with several chillers
            name_by_unit(question, catalog, links, g.reading)  # "judged by its kW per ton": the point in kW/ton
            _count_of_a_point(g.reading, links)  # "how many plugs were in use": the Plugs In Use point's value
            _with_setpoints(g.asked_text(), g.reading, links, catalog)  # "a file with the water temp and the SP"
            _ratio_pair(g.reading, links, catalog)  # "permeate over feed, as a fraction": Permeate / Feed Flow
            _efficiency_pair(g.reading, links, catalog)  # "chiller 1 cop": Cooling Output ÷ Input Power
            _ends_of_a_flow(g.reading, links, catalog, question)  # "the water going in … than coming out": its ends
            _minus_operands(g.reading, links, catalog, question)  # "delta t, return minus supply": the two series
            share_of_total(g.reading, links, catalog)  # "what share of the site's electricity went to X": X ÷ main
            share_order(
                g.reading, links, question
            )  # "what fraction of the incomer's load was the NH3 meter": NH3 first
            _settled_by_unit(g.reading, links, catalog)  # "did Well Pump 3 run above 48 Hz": no Run it lacks
            _time_counted(g.reading, links, catalog)  # "GTG-1 run hrs last week": the rise of its Run Hours
            only_requests(g, catalog, links)
            g.unplaced = unplaced(g, catalog, links, phrase)
            unplaced_measure(g, catalog, links)
            g.in_code = written_in_code(g, catalog, links)
            if g.in_code:  # what code read from the catalog to write it is a fact of this run
                g.sources.append(Source(kind="facts", text=g.in_code))
        return g

    def ambiguity(self) -> str:
        """The question names equipment at several sites and names none of them: which one it means ('' where it
        is clear)."""
        return " ".join(a.sentence() for a in self.links.ambiguous) if self.links is not None else ""

    def kind_narrowing(self) -> dict[str, list[str]]:
        """Per kind the question names, the words that narrow it: a narrower kind's word the field defines
        (`qualified`: "exhaust fans"), or the word said just before the kind where it is a word of some, not all, of
        the kind's asset names ("NH3 compressors": NH3 Comp 1 and 2, not air_comp_1)."""
        out = {k: list(v) for k, v in self.qualified.items()}
        if self.links is None or self.catalog is None:
            return out
        for m in self.links.mentions:
            if m.kind != "asset" or m.name not in self.links.asset_types or not m.text:
                continue
            before = re.search(rf"([\w.\-]+)\W+{re.escape(m.text)}", self.question, re.I)
            if before is None:
                continue
            word = before.group(1).casefold()
            names = [a for site in self.links.sites for a in self.catalog.site(site).assets_of_type(m.name)]
            holding = [a for a in names if word in re.split(r"[\s_\-./]+", a.casefold())]
            if holding and len(holding) < len(names):
                out.setdefault(m.name, []).append(word)
        return out

    def asked_text(self) -> str:
        """The question as the agent's model reads it: without the pieces code refused (a request to operate
        equipment, an instruction), which never reach the prompt."""
        text = self.question
        for a, b in sorted(self.reading.also_spans, reverse=True):
            text = text[:a] + " " + text[b:]
        return " ".join(text.split()) or self.question

    def prompt_text(self) -> str:
        """The asked text as the model's prompt carries it: without the sentences that only frame it (context the
        reading never reads for the form, `context.framing_spans`) where they name nothing linked and hold no period:
        tokens a gateway's CPU would evaluate for nothing. The reading and the evidence keep the whole question."""
        text = self.asked_text()
        frames = framing_spans(text)
        if not frames or self.links is None:
            return text
        names = [m.text for m in self.links.mentions if m.text] + [m.text for m in self.links.missing if m.text]
        for a, b in sorted(frames, reverse=True):
            piece = text[a:b].casefold()
            if any(n.casefold() in piece for n in names) or (
                self.period_phrase and self.period_phrase.casefold() in piece
            ):
                continue
            if self.catalog is not None and (named := link(text[a:b], self.catalog)) and (named.sites or named.assets):
                continue  # it names a site or equipment: the model reads it
            text = text[:a] + " " + text[b:]
        return " ".join(text.split()) or self.asked_text()

    def asked_text_less_names(self) -> str:
        """The asked text without the words that name something, on the SkySpark or missing from it ("B045 Total",
        "the Eastgate Hotel"): what is left says what is asked of them."""
        text = self.asked_text()
        if self.links is None:
            return text
        for name in [m.text for m in self.links.mentions if m.text] + [m.text for m in self.links.missing]:
            text = re.sub(re.escape(name), " ", text, flags=re.I)
        return text

    def set_facts(self, text: str) -> None:
        self.facts = text
        self.sources = [s for s in self.sources if s.kind != "facts" or (self.in_code and s.text == self.in_code)]
        if text:
            self.sources.append(Source(kind="facts", text=text))

    def scope(self) -> Scope | None:
        if self.catalog is None or self.links is None:
            return None
        if self._scope is None:
            self._scope = Scope.from_links(
                self.links,
                self.catalog,
                start=self.start,
                final=self.final,
                pins=pins(
                    self.reading, self.other, energy_asked=self.links.measures == ["energy"] and not self.links.sensors
                ),
                setpoint_said=bool(TABLE.setpoint.search(self.asked_text())),
                # a value read ("where was the valve sitting"), not the points listed: a command gives way to feedback
                feedback_asked=bool(self.reading.parts)
                and not self.links.sensors
                and all(p.ask in _READS_A_VALUE for p in self.reading.parts),
                # only a reading that placed every word: "who is working hardest?" may be a ranking it did not read
                kind_listed=bool(self.reading.parts)
                and all(p.ask == "data" for p in self.reading.parts)
                and not self.unplaced,
                qualified=self.kind_narrowing(),
                asked=self.asked_text(),
                peak_asked=any(p.ask == "when_extreme" or p.statistic in ("max", "min") for p in self.reading.parts),
            ).without(self.avoided)
        return self._scope

    def avoid(self, sensors: Iterable[str]) -> None:
        """Offer later trials' calls no series of `sensors` where another fits (what a Review found wrong)."""
        new = set(sensors) - self.avoided
        if new:
            self.avoided |= new
            self._scope = None

    def observe(
        self,
        trial: int,
        step: int,
        tool: str,
        text: str,
        *,
        head: str = "",
        answers: bool = False,
        call: str = "",
        args: Any = None,
    ) -> None:
        """Record an Observation (and its tool's head, see `toolkit.Said`, and its call's arguments) as
        evidence of `trial`."""
        if head and head not in text:  # the head's figures are evidence even where the Observation was cut
            text = f"{text}\n{head}"
        if text:
            self.sources.append(
                Source(
                    kind="observation",
                    text=text,
                    trial=trial,
                    step=step,
                    tool=tool,
                    head=head,
                    answers=answers,
                    call=call or call_key(tool, step, args),
                    about=named_in(args),
                )
            )

    def answer_tokens(self) -> set[str]:
        """The figures, codes and file names an answer may write: the evidence's, less those of answers
        already refused in this run (so a refused answer is not written again word for word)."""
        return evidence_tokens(s.text for s in self.sources) - self.refused

    def missing_prefix(self) -> str:
        """The facts of what the question names and the SkySpark does not have ("There is no asset …"), or the
        whole answer code wrote before any step (a refusal, a yes/no on existence)."""
        if self.in_code:
            return self.in_code
        facts = [declined(self)] + [m.sentence() for m in (self.links.missing if self.links is not None else [])]
        return "; ".join(f for f in facts if f)

    def grounded_answer(self, trial: int | None = None) -> GroundedAnswer:
        """What a Finish answer of `trial` may write: the evidence's figures and codes, code's start, whether that
        start is the whole answer."""
        return GroundedAnswer(
            tokens=frozenset(self.answer_tokens()),
            prefix=self.answer_prefix(trial),
            closed=self.answer_closed(trial),
        )

    def for_step(self, tools: Iterable[Tool], trial: int | None = None) -> StepGrounding:
        """What the next step of `trial` may write (`agent.steps.step_constraint` and the grounded answer)."""
        offered = self.offered(tools, trial)
        return StepGrounding(
            scope=self.scope(),
            answer=self.grounded_answer(trial),
            offered=tuple(offered) if offered is not None else None,
            hold_finish=self.holds_finish(trial),
            all_found=self.links is not None and not self.links.missing,
        )

    def answer_prefix(self, trial: int | None = None) -> str:
        """What the answer must start with: the facts of what the SkySpark lacks, and the heads of the calls."""
        return "; ".join(p for p in [self.missing_prefix(), *self.heads(trial)] if p)

    def refuse(self, claims: list[Claim]) -> None:
        """Remember the made-up figures of a refused answer (names without digits cannot be banned)."""
        for c in claims:
            if not c.grounded and c.what != "name":  # a name put together from real pieces: the pieces stay
                self.refused.update(digit_tokens(c.text) + codes(c.text))

    def names(self) -> set[str]:
        return self.catalog.all_names() if self.catalog is not None else set()

    def check(self, answer: str) -> list[Claim]:
        """The answer's claims with their sources; a site or asset name the answer puts together that the
        SkySpark lacks ("B705 AHU 4" from "B705", "AHU" and "4", each seen) is a claim without a source."""
        claims = trace(answer, self.sources, self.names())
        if self.catalog is not None and self.links is not None:
            asked = {key(m.text) for m in self.links.missing}
            seen = {c.text for c in claims}
            for m in link(answer, self.catalog).missing:
                if _not_a_name(m.text):  # "before it, 18.217 °C": a word and a reading, never a name
                    continue
                if m.kind in ("site", "asset") and key(m.text) not in asked and m.text not in seen:
                    claims.append(Claim(text=m.text, what="name"))
        return claims

    def unverified(self, text: str, trial: int | None = None, step: int | None = None) -> list[str]:
        """The figures and names of free text the agent publishes (a thought, a review) that no evidence held;
        with `trial` and `step`, evidence recorded before that step's Observation only (a thought is written
        before its step runs: a figure it states is a guess even where the call then reads it)."""
        sources = self.sources
        if trial is not None and step is not None:
            sources = [
                s
                for s in sources
                if not (s.kind == "observation" and s.trial == trial and s.step is not None and s.step >= step)
            ]
        return ungrounded(trace(text, sources, self.names())) if text else []

    # -- the tools offered and the checks of a call (`grounding.calls`) --
    def known(self) -> set[str]:
        """What the question's grounding already tells, in the words tools use for `provides`/`needs`."""
        return known(self)

    def offered(self, tools: Iterable[Tool], trial: int | None = None) -> list[str] | None:
        """The tools worth offering (None: all); Finish is always among them."""
        return offered(self, tools, trial)

    def complete_call(self, tool: Tool, args: Any) -> Any:
        """A call's arguments with those code sets from the question and the model never writes (`x-hidden`)."""
        scope = self.scope()
        return hidden_pins(tool.args_model.model_json_schema(), args, scope.pins) if scope is not None else args

    def wrong_measure(self, tool: str, args: Any) -> str:
        """Why a call reads the wrong measure ('' when it does not)."""
        return wrong_measure(self, tool, args)

    def invented(self, tool: str, args: Any) -> list[str]:
        """Site, asset and sensor names in a call's arguments that the SkySpark does not have."""
        return invented_names(self.catalog, args) if self.catalog is not None else []

    # -- which call answers which part, and the answer's status (`grounding.status`) --
    def declined(self) -> str:
        """The sentence that refuses the pieces of a question code declined ('' where there is none)."""
        return declined(self)

    def answered_by_links(self) -> bool:
        """Everything the question names is missing, or code wrote the whole answer."""
        return answered_by_links(self)

    def heads(self, trial: int | None = None) -> list[str]:
        """The heads of `trial`'s calls that answer the question (all trials' with None)."""
        return heads(self, trial)

    def open_parts(self, trial: int | None = None) -> list[Part]:
        """The parts of the question no call of the trial has answered yet."""
        return open_parts(self, trial)

    def assignment(self, trial: int | None = None) -> list[Source | None]:
        """For each part of the question, the call that answers it (None: none yet)."""
        return assignment(self, trial)

    def answer_closed(self, trial: int | None = None) -> bool:
        """The start written by code is the whole answer."""
        return answer_closed(self, trial)

    def established(self, trial: int | None = None) -> str:
        """What a `partial` run established and what it did not ('' when no part, or every part, was answered)."""
        return established(self, trial)

    def holds_finish(self, trial: int | None = None) -> bool:
        """Finish waits: a part no call answered is open."""
        return holds_finish(self, trial)

    def unsupported(self, trial: int, answer: str, claims: list[Claim]) -> str:
        """Why `answer` may not be delivered as answered ('' when it may): the evidence (`status.unsupported`), then the
        frame (`readas.wrong_series`: a setpoint read for a measured value, a series of another quantity than the
        limit's unit)."""
        return unsupported(self, trial, answer, claims) or wrong_series(self, trial)
