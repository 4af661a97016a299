"""Which of a run's calls answer which part of the question, and whether an answer may go out as answered.

Every Observation a `Grounding` records keeps its tool's head (`toolkit.Said`). From them this module works out
the heads a Finish answer must start with (`heads`), the call that answers each part of the question
(`assignment`), the parts still open (`open_parts`), whether code's start is the whole answer (`answer_closed`),
what a `partial` run established (`established`) and why an answer may not be delivered as answered
(`unsupported`, with `grounding.prose` for an answer code did not start).
"""

from __future__ import annotations

import json
import re
from typing import TYPE_CHECKING

from edge_agent.grounding.catalog import key
from edge_agent.grounding.forms import TABLE
from edge_agent.grounding.links import SENSOR_THINGS
from edge_agent.grounding.prose import unheld, well_formed, words_held
from edge_agent.grounding.provenance import Claim, Source, file_names
from edge_agent.grounding.question import Part, stated_first, wants_single_file
from edge_agent.grounding.scope import SETPOINT

if TYPE_CHECKING:
    from edge_agent.grounding.run import Grounding

#: the question asks for names or a count: "what are their names", "list the sensors", "what assets",
#: "which IoT sites", "how many chillers"
_ASKS_NAMES = re.compile(
    r"\b(?:names?|list|how many|count|number of|(?:what|which)(?: \w+){0,2} (?:sites|plants|"
    r"assets|equipment|sensors|points|measurements|readings|metrics|values))\b",
    re.I,
)
#: which tool's call answers a part that asks for this (`question.Part.ask`)
ANSWERED_BY = {
    "rank": ("rank",),
    "excursion": ("excursions",),
    "derive": ("derive",),
    "duration": ("excursions",),
    "periods": ("compare_periods",),  # two periods compared (`grounding.periods` reads them)
}
ANALYSIS_TOOLS = frozenset(t for tools in ANSWERED_BY.values() for t in tools)
#: with a kind of equipment linked ("air handling units"), "which"/"what" asks for names too
_WHICH = re.compile(r"\b(?:what|which)\b", re.I)
#: the general things a listing answers for (narrower than `placing.GENERIC_THINGS`, the general nouns a question may
#: use: "units", "machines", "data" are understood there, but a listing of everything does not answer for them)
_GENERIC_THINGS = re.compile(
    r"\b(?:sites?|plants?|buildings?|assets?|equipment|devices?|sensors?|points?|"
    r"measurements?|readings?|metrics?|values?)\b",
    re.I,
)
#: a listing's head ("found 5 chiller assets at POKMAIN: …"): what answers a question asking for names or a count
_LISTING = re.compile(r"found \d+ ", re.I)
#: what a listing lists and what a part counts, where either says it in generic words (else anything fits)
_THING_WORDS = {
    "sites": re.compile(r"\b(?:sites?|plants?|buildings?|locations?)\b", re.I),
    "sensors": SENSOR_THINGS,
}


def _thing(text: str) -> str | None:
    hits = [t for t, rx in _THING_WORDS.items() if rx.search(text)]
    return hits[0] if len(hits) == 1 else None


def _lists_what_is_counted(part: Part, head: str) -> bool:
    """A listing answers a count or a names part unless both say, in generic words, different things ("how many
    points are on the RTO" is no "found 3 sites")."""
    m = _COUNTED.search(part.text)
    counted = _thing(m.group(1)) if m else None
    listed = _thing(" ".join(head.split()[:4]))
    return counted is None or listed is None or counted == listed


#: heads a Finish answer starts with: at most this many, the latest calls first kept
MAX_HEADS = 3


def _sentence(head: str) -> str:
    """A head as an answer starts: its first word capitalised where it is a plain word ("found 5 …" → "Found 5 …"),
    never where it is a name ("rtu_3 zone_temp was …" stays: "Rtu_3" is no name on the SkySpark)."""
    first = head.split(" ", 1)[0]
    return head[0].upper() + head[1:] if first.isalpha() and first.islower() else head


def answered_by_links(g: Grounding) -> bool:
    """Everything the question names is missing: no asset, or assets lacking every sensor asked for (an
    asset lacking one of two sensors still has the other to read) — or code wrote the whole answer (a
    refusal, an existence yes/no). Then no tool has anything to read."""
    if g.in_code:
        return True
    if g.links is None or not g.links.missing:
        return False
    if not g.links.assets:
        return True
    lacking = {(m.asset, m.text) for m in g.links.missing if m.kind == "sensor"}
    asked = dict.fromkeys([*g.links.sensors, *(text for _, text in lacking)])
    return all((a, s) in lacking for a in g.links.assets for s in asked) and bool(asked)


def heads(g: Grounding, trial: int | None = None) -> list[str]:
    """The heads of `trial`'s calls that answer the question (all trials' with None), in call order, a
    call made again counting once: a data call's (`answers` tools: each series' figures and the file)
    always, a listing's ("found 5 chiller assets at POKMAIN: Chiller 3, …") where the question asks for
    names or a count and the listing is of what the question names (the sites, or the assets of a site
    or the sensors of an asset it names: not the assets of another site). At most MAX_HEADS, the latest."""
    if g.links is None:
        return []
    names = _names_asked(g)
    named = {key(n) for n in [*g.links.sites, *g.links.assets]}
    latest: dict[str, str] = {}
    for s in g.sources:
        if s.kind != "observation" or not s.head or trial not in (None, s.trial):
            continue
        if s.tool == "jsonmerge" and not _merges_data(g, s):
            continue  # two listings merged are no data in one file
        if s.answers or (
            names
            and _LISTING.match(s.head)
            and all(key(n) in named for n in s.about)
            and all(_lists_what_is_counted(p, s.head) for p in g.reading.parts if p.ask in ("names", "count"))
        ):
            latest.pop(s.call, None)
            latest[s.call] = _sentence(s.head)
    heads = list(dict.fromkeys(latest.values()))[-MAX_HEADS:]
    if g.reading.by_parts:  # the answer goes part by part, in the question's order
        # each part's head, in the part's order: what answers the question and nothing else
        heads = list(dict.fromkeys(_sentence(s.head) for s in assignment(g, trial) if s is not None))
    return heads


def answer_closed(g: Grounding, trial: int | None = None) -> bool:
    """The start written by code is the whole answer: everything the question names is missing, or the
    trial's calls answered every part of it (a tiny model asked to go on after that only repeats its pieces)."""
    return answered_by_links(g) or (bool(heads(g, trial)) and not open_parts(g, trial))


def listed_asks(g: Grounding, trial: int | None) -> set[str]:
    """What the open listing parts of a question in several parts ask to list ("site", "sensor" or "asset"):
    the linking knowing the names does not answer "how many" or "which"."""
    out = set()
    for part in open_parts(g, trial):
        if part.ask in ("names", "count"):
            text = part.text.casefold()
            out.add(
                "site"
                if re.search(r"\b(?:sites|plants)\b", text)
                else "sensor"
                if re.search(r"\b(?:sensors|points|measurements|readings|metrics)\b", text)
                else "asset"
            )
    return out


def answering(g: Grounding, trial: int | None) -> list[Source]:
    """The trial's successful calls whose heads answer something, in call order (a repeated call once)."""
    latest: dict[str, Source] = {}
    for s in g.sources:
        if s.kind == "observation" and s.head and trial in (None, s.trial):
            latest.pop(s.call, None)
            latest[s.call] = s
    return list(latest.values())


def assignment(g: Grounding, trial: int | None = None) -> list[Source | None]:
    """For each part of the question, the call that answers it (None: none yet). A part asking for a
    conclusion needs its analysis tool's call; a data part any data call; a listing part a listing of what it
    names (or any listing); every call answers one part at most, the parts taken in order."""
    calls = answering(g, trial)
    used: set[int] = set()
    out: list[Source | None] = []
    names_asked = _names_asked(g)
    for part in g.reading.parts or [Part(text=g.question, ask="other")]:
        pick = None
        for n, s in enumerate(calls):
            if n in used:
                continue
            if part.ask in ANSWERED_BY:
                fits = s.tool in ANSWERED_BY[part.ask]
            elif part.ask in ("names", "count"):
                fits = not s.answers and bool(_LISTING.match(s.head)) and _lists_what_is_counted(part, s.head)
            elif part.ask == "exists":
                fits = False
            else:
                fits = (s.answers and s.tool not in ANALYSIS_TOOLS) or (
                    not s.answers and names_asked and len(g.reading.parts) == 1
                )
            if fits:
                pick = n
                break
        if pick is not None:
            if part.ask not in ("names", "count"):  # one listing tells both how many and which
                used.add(pick)
            out.append(calls[pick])
        else:
            out.append(None)
    return out


def established(g: Grounding, trial: int | None = None) -> str:
    """Where some parts of the question were answered by this run's calls and others not: what was established
    (each answered part's head, in the question's order) and what was not (the open parts, in the question's
    words) — the answer of a `partial` run. '' when no part, or every part, was answered."""
    if g.links is None or answered_by_links(g) or len(g.reading.parts) < 2:
        return ""
    picks = assignment(g, trial)
    done = [s for p, s in zip(g.reading.parts, picks) if s is not None]
    open_ = [p for p, s in zip(g.reading.parts, picks) if s is None and p.ask != "exists"]
    if not done or not open_:
        return ""
    heads = list(dict.fromkeys(_sentence(s.head) for s in done))
    missing = g.missing_prefix()
    said = "; ".join(x for x in [missing, *heads] if x)
    return f"{said}. Not established by this run: " + "; ".join(f'"{p.text}"' for p in open_)


def holds_finish(g: Grounding, trial: int | None = None) -> bool:
    """Finish waits: a question in several parts, or one asking for a conclusion, has a part no call answered; or
    a question for a measure over a period (only a data call reads one) has had none yet; or one that asks for data
    at all (a value now: "say again the amps on rectifier 9") has had no data call in this trial — a listing's head
    answers none of them, and an answer without one is refused (`unsupported`): a second attempt that was told what
    the first one's listings found had finished at once (b25-01 at F33)."""
    if g.reading.by_parts or _measure_over_period(g):
        return bool(open_parts(g, trial))
    return (
        g.links is not None
        and g.catalog is not None
        and not answered_by_links(g)
        and _data_asked(g)
        and not _data_read(g, trial)
    )


def _measure_over_period(g: Grounding) -> bool:
    """One part read from a series ("how much electricity … on Monday", "when did the mine hit its peak demand last
    week") asking for a measure over a period it states."""
    return (
        g.links is not None
        and g.start is not None
        and bool(g.links.sensors or g.links.measures)
        and len(g.reading.parts) == 1
        and g.reading.parts[0].ask in _READS_DATA
        and not _names_asked(g)
    )


#: what a count or a listing counts: the words after "how many", "number of", "count", "list", "which", "what"
_COUNTED = re.compile(
    r"\b(?:how\s+many|number\s+of|count(?:\s+the)?|list(?:\s+(?:all|the))*|which|what)\s+((?:\S+\s*){1,3})", re.I
)


def _kind_assets(g: Grounding) -> set[str]:
    """The loose keys of the assets of the kinds the question names, where it names a kind and no asset."""
    if g.links is None or g.catalog is None or g.links.assets or not g.links.asset_types:
        return set()
    return {key(a) for s in g.links.sites for t in g.links.asset_types for a in g.catalog.site(s).assets_of_type(t)}


def _outside_the_kind(g: Grounding, trial: int | None) -> list[str]:
    """The assets this trial's data calls read that are not of the kind the question names (and names no asset)."""
    kind = _kind_assets(g)
    if not kind or g.links is None:
        return []
    sites = {key(s) for s in g.links.sites}
    return list(
        dict.fromkeys(
            n
            for s in g.sources
            if s.kind == "observation" and s.answers and trial in (None, s.trial)
            for n in s.about
            if key(n) not in kind and key(n) not in sites
        )
    )


def _one_of_a_kind(g: Grounding, trial: int | None) -> bool:
    """The question names a kind of several assets and no asset, and this trial's data calls read one of them."""
    kind = _kind_assets(g)
    read = {
        key(n)
        for s in g.sources
        if s.kind == "observation" and s.answers and trial in (None, s.trial)
        for n in s.about
        if key(n) in kind
    }
    return len(kind) >= 2 and len(read) == 1


def _counted_unplaced(g: Grounding, text: str) -> bool:
    """What a count or a listing counts is a word nothing placed ("how many aeration blowers …", "count the
    Kessel"), or the part names nothing general to count (no "sites", "assets", "sensors" …) while a word is left."""
    m = _COUNTED.search(text)
    counted = {w.casefold().strip("?,.!") for w in m.group(1).split()} if m else set()
    if _GENERIC_THINGS.search(" ".join(counted)):
        return False  # "what IoT sites": the sites are counted, whatever word stands before them
    return bool(counted & set(g.unplaced)) or not _GENERIC_THINGS.search(text)


def _names_asked(g: Grounding) -> bool:
    """A listing may answer: the question asks for names or a count, or "which"/"what" of a kind it names ("which
    lifts do we have") — not where it names a measure of them ("what was the snowmaking pump pressure", "what was the
    mean steam flow from the boiler": a data question, which no listing answers)."""
    if g.links is None:
        return False
    if _asks_names(g):
        return True
    # a measure, or a period: "what was the day tank level at 06:00" asks a value of a time, which no listing holds
    measured = bool(g.links.sensors or g.links.measures or g.start is not None)
    return bool(g.links.asset_types and _WHICH.search(g.question)) and not measured


def _asks_names(g: Grounding) -> bool:
    """The question asks for names or a count: in its words, or as the reading read it (a slip corrected: "what data
    pionts")."""
    if any(p.ask in ("names", "count") for p in g.reading.parts):
        return True
    return bool(_ASKS_NAMES.search(g.question)) and not TABLE.amount.search(g.question)  # not "how many kwh"


def _asks_yes_no(g: Grounding) -> bool:
    """The question is one yes/no question (its answer must start with Yes or No); two periods compared ("more on
    Monday or on Tuesday?", "more than the week before?") are answered by naming the period that wins."""
    return len(g.reading.parts) == 1 and g.reading.parts[0].form == "yes_no" and g.reading.parts[0].ask != "periods"


def unsupported(g: Grounding, trial: int, answer: str, claims: list[Claim]) -> str:
    """Why `answer` (trial `trial`'s) may not be delivered as answered ('' when it may): code's answer before
    any step must be what it says; otherwise every part of the question needs a call of this trial that
    answers it, and the answer must state what code wrote of those calls — or, where code wrote nothing,
    at least one figure or name an Observation of this trial holds. Prose alone is never an answer."""
    if g.catalog is None or g.links is None:
        return ""
    if answered_by_links(g):
        return "" if answer.startswith(g.missing_prefix()) else "the answer is not the one the facts give"
    if (
        g.unplaced
        and not g.links.asset_types
        and any(p.ask in ("count", "names") and _counted_unplaced(g, p.text) for p in g.reading.parts)
    ):
        # "count the Kessel": what is to be counted or listed is a word nothing placed; a listing of everything
        # at the site does not answer it
        return "what the question asks to count or list is not understood: " + ", ".join(g.unplaced)
    named = g.links.sites or g.links.assets or g.links.asset_types or g.links.sensors
    if g.unplaced and not named and not any(p.ask in ("names", "count") for p in g.reading.parts):
        # "how many hours was the pool heater below its setpoint": nothing of the plant is named but a word nothing
        # placed; whatever a call read (another site's CRAC), it is not known to be what was asked about
        return "what the question asks about is not understood: " + ", ".join(g.unplaced)
    open_ = open_parts(g, trial) if g.reading.by_parts else []
    if open_:
        return "no call of this run answered: " + "; ".join(f'"{p.text}"' for p in open_)
    unread = _unread_sensors(g, trial)
    if unread:  # "SM Pump 1 flow and discharge pressure … in one file": the flow alone answers half of it
        return "no call of this run read " + ", ".join(unread)
    prefix = g.answer_prefix(trial)
    if prefix and g.reading.also and g.reading.parts and not heads(g, trial):
        # "pond level at midnight? and start pump 2": the refusal of the piece is said, the data is not; what the model
        # writes after the refusal is no reading of the data
        return "no call of this run answered: " + "; ".join(f'"{p.text}"' for p in g.reading.parts)
    scattered = _files_apart(g, trial, prefix)
    if scattered:  # "… together in one file": two files are not one
        return f"one file was asked for, and this run's data is in {len(scattered)}: " + ", ".join(scattered)
    outside = _outside_the_kind(g, trial)
    if prefix and outside:  # "out of the influent pumps, …": the switchgear meter's figures are no pump's
        return f"this run read {', '.join(outside)}, which is not of the kind the question names"
    if prefix and g.unplaced and _one_of_a_kind(g, trial):
        # "out of the influent pumps, who is working hardest?": words nothing placed ask something of the kind; one
        # pump's figures do not answer it
        return "what the question asks of them is not understood: " + ", ".join(g.unplaced)
    if prefix and _total_unstated(g, prefix):  # "how many mm of rain fell in total": the day's figures are no total
        return "the question asks for a total, and this run's figures state none (the series' values do not add up)"
    if prefix and _data_asked(g) and not _data_read(g, trial):
        return "no data call of this run read what the question asks for"  # a listing's head is no value
    if prefix:
        if _asks_yes_no(g) and not re.match(r"\W*(?:yes|no)\b", prefix, re.I):
            return "the question asks yes or no; this run's calls found figures, which say neither"
        return (
            ""
            if " ".join(answer.split()).startswith(" ".join(prefix.split()))
            else "the answer does not state what this run's calls found"
        )
    if _data_asked(g):
        # a series asked over a period (or a sensor named: "avg burner gas flow on the MAUs"): its figures or its file
        # come from a data call's head, never from prose or a listing
        return "no data call of this run read what the question asks for"
    if not well_formed(answer):
        return "the answer repeats itself, not a statement"
    if _asks_yes_no(g) and not re.match(r"\W*(?:yes|no)\b", answer, re.I):
        return "the question asks yes or no, and the answer says neither"
    if g.unplaced:  # what the model writes about a question code could not read whole is no answer
        return "the question has words this gateway could not place (" + ", ".join(g.unplaced) + "); prose is no answer"
    echoed = [c.text for c in claims if c.what == "number" and c.source == "question"]
    if echoed:  # "the 10 assets …" of "on 10/31": a figure only the question holds is no finding of this run
        return "the answer's figures come from the question, not from what this run read: " + ", ".join(echoed[:4])
    if not any(
        c.grounded and c.source == "observation" and c.trial in (None, trial) for c in claims
    ) and not words_held(g.sources, trial, answer, every=False):
        return "no figure, name or word of the answer comes from this run's Observations"
    if not words_held(g.sources, trial, answer, every=True):
        return "the answer says what this run's Observations do not: " + ", ".join(unheld(g.sources, trial, answer)[:6])
    return ""


#: the asks whose answer is read from a series ("what time did the arena hit peak demand": never a listing's prose)
_READS_DATA = frozenset({"data", "when_extreme", "duration", "excursion", "rank", "derive", "periods"})

#: a total as a data call's head states it (plugins/iot.py: an energy, a register's rise, a total of what adds up)
_TOTAL_STATED = re.compile(r"\b(?:energy|rise|total)\b[^;]*?\d", re.I)


def _data_read(g: Grounding, trial: int | None) -> bool:
    """A call of `trial` read data (a tool whose head answers: histories, the analysis tools, a merge of data)."""
    return any(
        s.kind == "observation" and s.head and (s.answers or s.tool not in LISTINGS) and trial in (None, s.trial)
        for s in g.sources
    )


#: the calls that list what the SkySpark has (their heads name things, they read no data)
LISTINGS = frozenset({"sites", "assets", "sensors"})


def _data_asked(g: Grounding) -> bool:
    """The question asks for data (a series over a period, a sensor named, a measure: "the acid tank, how full is it?"
    is now), so only a data call's head answers it, never a listing."""
    assert g.links is not None
    return bool(
        (g.start is not None or g.links.sensors or g.links.measures)
        # "what was the storage tank level at 07:00": equipment at a time, its measure a word the field lacks
        and (
            g.links.sensors
            or g.links.measures
            or (g.start is not None and (g.links.assets or g.links.asset_types or _sites_said(g)))
        )
        and all(p.ask in _READS_DATA for p in g.reading.parts)
        and not _names_asked(g)
    )


def _sites_said(g: Grounding) -> bool:
    """The question names a site in its words ("how did Kiruna do last month"): over a period, its data is asked."""
    return g.links is not None and any(m.kind == "site" and m.how != "only" for m in g.links.mentions)


def _total_unstated(g: Grounding, prefix: str) -> bool:
    """The question asks a series' total ("in total", "how much … used") and the heads answering it state none (a
    sum of a temperature, a level or a rate means nothing, so code writes none)."""
    return (
        bool(g.reading.parts)
        and all(p.ask == "data" for p in g.reading.parts)
        and stated_first(g.asked_text_less_names()) == "sum"  # "B045 Total" is a name, not a total asked
        and not _TOTAL_STATED.search(prefix)
    )


def _merged_inputs(source: Source) -> set[str]:
    """The files a jsonmerge call joined (its `file_name_*` arguments)."""
    return {str(v) for k, v in source.arguments().items() if k.startswith("file_name")}


def _merges_data(g: Grounding, merge: Source) -> bool:
    """A merge joins data files, not the files of listings (sites, assets, sensors) of the run (a later trial may
    merge what an earlier one listed)."""
    listed = {
        f
        for s in g.sources
        if s.kind == "observation" and s.head and _LISTING.match(s.head)
        for f in file_names(s.text)
    }
    inputs = _merged_inputs(merge)
    return bool(inputs) and not inputs & listed


def _files_apart(g: Grounding, trial: int, prefix: str) -> list[str]:
    """Where the question asks for one file: the files the answer's heads name that no merge of this trial joined,
    when they are two or more ([] otherwise)."""
    if not prefix or not wants_single_file(g.question):
        return []
    merged: set[str] = set()
    for s in g.sources:
        if s.kind == "observation" and s.tool == "jsonmerge" and s.trial == trial:
            merged |= _merged_inputs(s)
    files = [f for f in file_names(prefix) if f not in merged]
    return files if len(files) > 1 else []


def _unread_sensors(g: Grounding, trial: int) -> list[str]:
    """The sensors a question names two or more of that no data call of the trial read (a sensor every named asset
    lacks is a fact of the answer, not a read to make)."""
    if g.links is None or len(g.links.sensors) < 2 or any(p.ask in ANSWERED_BY for p in g.reading.parts):
        return []  # an analysis reads the series it compares itself
    lacking = {m.text for m in g.links.missing if m.kind == "sensor"}
    words = {n: set(key(w) for w in n.split()) for n in g.links.sensors}
    within = {  # "Power" of "Active Power"; not "Water Temp" of its "Water Temp Setpoint"
        n for n in words for o in words if o != n and words[n] < words[o] and not SETPOINT.search(o)
    }
    lacking |= within
    calls = [s.call for s in g.sources if s.kind == "observation" and s.answers and s.trial == trial]
    if not calls:
        return []  # nothing read at all: the other checks say so
    return [n for n in g.links.sensors if n not in lacking and not any(json.dumps(n) in c for c in calls)]


def open_parts(g: Grounding, trial: int | None = None) -> list[Part]:
    """The parts of the question no call of the trial has answered yet (none once code wrote the answer)."""
    if g.links is None or answered_by_links(g):
        return []
    parts = g.reading.parts
    if not g.reading.by_parts:  # one part: any answering head closes it, as before
        return [] if heads(g, trial) else list(parts)
    return [p for p, s in zip(parts, assignment(g, trial)) if s is None and p.ask != "exists"]
