"""How the question was read, said back: the "Read as" line every answer carries, and the frame checks on it.

The reading (`question.Reading`: each part's ask, form and slots, with where each slot came from) and the calls that
answered each part (`status.assignment`) are the frame of a run. `read_as(g, trial)` turns them into one line in the
operator's terms ("Read as: which of the ahus at Site had the highest mean Supply Air Temp on Mon 4 May 2024") and a
structured `ReadAs` (for the MQTT result, the run log and the console). The line is written by code from the
arguments the answering calls really ran with, so it says what was computed, never what the model meant. A slot
that no word of the question settled is said with its source: a documented rule ("highest first, the question names
no order"), the catalog's only candidate, the model's choice among the candidates code offered, or nothing
(`open`: a word whose direction code does not know). `open_slots` names those last: a run with one is `partial`.

`wrong_series(g, trial)` is the frame's check on a call's series: a setpoint read where the question asks no setpoint,
or a series of another quantity than the limit's unit ("below 40 %" compared with a kW series).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from datetime import datetime, timedelta
from typing import TYPE_CHECKING, Any

from edge_agent.analysis import is_power
from edge_agent.grounding import fieldvocab
from edge_agent.grounding.forms import TABLE
from edge_agent.grounding.frame import PartRead, ReadAs, Slot
from edge_agent.grounding.measures import point_measure
from edge_agent.grounding.question import Part, stated_first
from edge_agent.grounding.status import ANSWERED_BY, assignment, open_parts

if TYPE_CHECKING:
    from edge_agent.grounding.provenance import Source
    from edge_agent.grounding.run import Grounding

REFUSALS = {
    "control": "a request to operate equipment (this gateway only reads)",
    "injection": "an instruction to the agent (not followed)",
    "outside": "a topic outside the SkySpark's data",
    "forecast": "a question about the future (this gateway reads recorded data)",
}
#: how a data call's head says that the value asked at an instant falls in a gap of the history (plugins/iot.py)
GAP = "a gap in the history"
_STAT = {"max": "maximum", "min": "minimum", "mean": "mean", "median": "median", "energy": "energy", "sum": "total"}


def _args(source: Source | None) -> dict[str, Any]:
    return source.arguments() if source is not None else {}


def _when(start: str | None, final: str | None) -> str:
    """A period in words: "on Mon 4 May 2024", "at 14:30 on 4 May 2024", "from 4 May 2024 to 10 May 2024"."""
    if not start:
        return ""
    try:
        a = datetime.fromisoformat(start)
        b = datetime.fromisoformat(final) if final else None
    except ValueError:
        return f"from {start}" + (f" to {final}" if final else "")
    day = f"{a:%a} {a.day} {a:%b %Y}"
    if b is None or b == a:
        return f"at {a:%H:%M} on {day}"
    if a.time() == b.time() == datetime.min.time():
        if b - a == timedelta(days=1) or (b.date() - a.date()).days == 1:
            return f"on {day}"
        last = b - timedelta(days=1)
        return f"from {day} to {last:%a} {last.day} {last:%b %Y}"
    return f"from {a:%H:%M} {day} to {b:%H:%M} {b:%a} {b.day} {b:%b %Y}"


def _one_amount(g: Grounding, args: dict[str, Any], mine: tuple[str, ...] | list[str]) -> bool:
    """An amount of energy asked of one asset whose candidate series are its power and its energy register (b18-27:
    "the farm's electricity consumption", Active Power and Energy): either gives the same energy, so the pick changes
    no answer. A series with no unit (a run state) gives no energy and is no candidate."""
    asset, site = args.get("asset_name", ""), args.get("site_name", "")
    if args.get("by") not in ("energy", "amount") or not asset or g.catalog is None or site not in g.catalog.sites:
        return False
    units = {p.short: p.unit for p in g.catalog.sensors(site, asset)}
    kinds = []
    for unit in (units.get(s) for s in mine):
        if unit is None:
            continue
        q = fieldvocab.quantity_of_unit(unit)
        kinds.append("power" if is_power(unit) else q.name if q is not None and q.summable else "other")
    return sorted(kinds) in (["energy", "power"], ["power"], ["energy"])


def _measure_slot(g: Grounding, args: dict[str, Any]) -> Slot | None:
    """Where the series of a call came from: the question named it, a measure word it says, the catalog's only
    candidate, or the model's choice among several."""
    sensor = args.get("sensor_name")
    if not sensor or g.links is None:
        return None
    scope = g.scope()
    site = scope.sites.get(args.get("site_name", "")) if scope is not None else None
    if site is not None and site.unsigned and sensor in site.sensors:  # "exporting", and the series the words name is
        return Slot(source="model", said=f"{sensor}, {SIGNED.format(direction=site.unsigned)}")  # signed: unsettled
    if sensor in g.links.sensors:
        return Slot(source="words", said=sensor)
    if site is None:
        return Slot(source="model", said=f"{sensor}, {NO_MEASURE}")
    mine = dict(site.own).get(args.get("asset_name", ""), site.sensors)  # two assets' series: each its own's
    if site.sign and sensor in site.sensors:  # "charging" of a signed series whose description says "- charging"
        way = "above" if site.sign == "+" else "below"
        return Slot(source="catalog", said=f"{sensor} {way} 0: its description says {site.sign} is {site.directed}")
    if site.directed and sensor in site.sensors:  # "exported": of the series the measure fits, those marked export
        return Slot(source="words", said=f"{sensor}, the words name the {site.directed} direction its point is tagged")
    if site.unsigned and sensor in site.sensors:  # a signed series: which sign is "exported" is not recorded
        return Slot(source="model", said=f"{sensor}, {SIGNED.format(direction=site.unsigned)}")
    if len(site.sensors) <= 1 or len(mine) <= 1:
        return Slot(source="catalog", said=sensor)
    paired = args.get("limit_sensor") or args.get("other_sensor")
    if paired in site.setpoints and sensor in site.setpoint_of:  # "above its sp": the series its setpoint is of
        return Slot(source="catalog", said=f"{sensor}, the series {paired} is the setpoint of")
    if sensor in site.setpoints and paired in site.setpoint_of:  # "how far short of its setpoint": setpoint first
        return Slot(source="catalog", said=f"{sensor}, the setpoint of {paired}")
    if site.worded == (sensor,):  # the one series a word names, as the scope found it (never a name's word); of two a
        # word names ("energy": Import and Export Energy) the model picked
        of = ", ".join(g.links.measures) or "asset's"
        return Slot(source="words", said=f"{sensor}, of the {of} series the one the words name")
    if _one_amount(g, args, mine):  # power or its register: the same energy
        return Slot(source="rule", said=f"{sensor}, {ONE_AMOUNT}")
    if g.links.measures:  # the question's measure word fits several series, and no word names one: the model's pick
        return Slot(source="model", said=f"{sensor}, {MODEL_PICK} {', '.join(g.links.measures)} series")
    return Slot(source="model", said=f"{sensor}, {NO_MEASURE}")


def _asset_slot(g: Grounding, args: dict[str, Any]) -> Slot | None:
    """Where the equipment of a call came from, when the question names none (no asset, no kind, no missing name):
    the only one in play that has the series (the catalog), or the model's pick among several (open: `open_slots`)
    — "the average flow coming into the plant" read from one of five pumps is no answer about the plant."""
    picked = [args["asset_name"]] if args.get("asset_name") else list(args.get("asset_names") or [])
    sensor, site_name = args.get("sensor_name"), args.get("site_name", "")
    if not picked or not sensor or g.links is None or g.catalog is None:
        return None
    if g.links.assets or g.links.missing:
        return None
    if g.links.asset_types:  # "the filter pump", "fermenter number seven": one of a kind said in the singular
        return _one_of_a_kind(g, picked, sensor, site_name)
    if not g.links.sites and len(g.catalog.sites) > 1 and site_name:  # "what was the t bar drawing yesterday"
        return Slot(source="model", said=f"{site_name}, {NO_SITE} ({len(g.catalog.sites)} sites)")
    scope = g.scope()
    site = scope.sites.get(site_name) if scope is not None else None
    if site is None or site_name not in g.catalog.sites:
        return None
    having = [a for a in site.assets if g.catalog.has_sensor(site_name, a, sensor)]
    if len(having) <= 1 or set(picked) >= set(having):
        return None
    which = _listed(having) if len(having) <= 6 else str(len(having))  # the candidates, where they are few
    return Slot(source="model", said=f"{', '.join(picked)}, {NO_EQUIPMENT} ({which} have {sensor})")


def _site_slot(g: Grounding) -> str:
    """The site code took as the only one with what the question names, where the question also has words nothing
    placed ("any heat pumps up the hill": 'hill' may name another site, one with none): said, never answered as
    settled ('' where the site was named, or every word was placed)."""
    if g.links is None or not g.unplaced or len(g.links.sites) != 1:
        return ""
    named = [m for m in g.links.mentions if m.kind == "site"]
    if not named or any(m.how != "only" for m in named):
        return ""
    places = [w for w in g.unplaced if re.search(rf"{_WHERE}\s+(?:the\s+|our\s+)?{re.escape(w)}\b", g.question, re.I)]
    return f"{g.links.sites[0]}, {ONLY_SITE} (words not placed: {', '.join(places)})" if places else ""


#: words that say where: an unplaced word after one of them may name a place ("up the hill", "over at the depot")
_WHERE = r"\b(?:up|down|over|out|at|in|across|round|around)"


#: how a site code took as the only candidate is said where words of the question were not placed
ONLY_SITE = "the only site with what the question names"


def _one_of_a_kind(g: Grounding, picked: list[str], sensor: str, site_name: str) -> Slot | None:
    """The model's pick of one asset where the question names a kind in the singular ("what flow was the filter pump
    doing", three filter pumps) and several of the kind have the series: open (a ranking, a count or a list of the
    kind names no one of them)."""
    assert g.links is not None and g.catalog is not None
    if site_name not in g.catalog.sites or not picked:
        return None
    kinds = [m for m in g.links.mentions if m.kind == "asset" and m.name in g.links.asset_types and m.text]
    plural = [m for m in kinds if _said_plural(m.text)]  # not "the stenter's", not "the press"
    if not kinds or plural:
        return None  # "the filter pumps": the kind, all of it
    sc = g.catalog.site(site_name)
    having = [
        a for k in g.links.asset_types for a in sc.assets_of_type(k) if g.catalog.has_sensor(site_name, a, sensor)
    ]
    having = list(dict.fromkeys(having))
    if len(having) <= 1 or not set(picked) <= set(having):
        return None
    if len(picked) > 1:  # "the station's generator" read of both: the question names one, not which
        return Slot(source="model", said=f"{', '.join(picked)}, {ONE_NAMED.format(kind=kinds[0].text, n=len(having))}")
    which = _listed(having) if len(having) <= 6 else f"{len(having)} {kinds[0].text}"
    return Slot(source="model", said=f"{picked[0]}, {NO_EQUIPMENT} ({which} have {sensor})")


def _said_plural(text: str) -> bool:
    """Whether a kind's words end in a plural ("the filter pumps", "AHUs"; never "the press", "the stenter's")."""
    last = re.sub(r"['’]s\b", "", text).split()[-1] if text.split() else ""
    return fieldvocab.singular(last) != last


#: how equipment the model chose where the question named none is said (such a run is partial: `open_slots`)
NO_EQUIPMENT = "chosen by the model: the question names no equipment"


def _listed(names: list[str]) -> str:
    return names[0] if len(names) == 1 else f"{', '.join(names[:-1])} and {names[-1]}"


#: ... and several read where the question names one of a kind in the singular
ONE_NAMED = "the question names one {kind}, not which of the {n}"
#: ... and the site, where the question names no site, nothing of one, and the SkySpark has several
NO_SITE = "chosen by the model: the question names no site"
#: how a series the model chose where the question named no measure is said (such a run is partial: `open_slots`)
NO_MEASURE = "chosen by the model: the question names no measure"
#: how the power series picked beside an energy register (or the register beside the power) is said: either gives the
#: same energy
ONE_AMOUNT = "the asset's power and its energy register give the same energy"
#: ... and where the question's measure word fits several series and no word of it names one
MODEL_PICK = "chosen by the model among the"
#: ... and a signed series, where the question asks one direction of its flow and no point is tagged with it
SIGNED = (
    "a signed series: the SkySpark does not record which sign is {direction}, so its figures are not the {direction}"
    " alone"
)


def _said(part: Part, tool: str | None, a: dict[str, Any], answered: bool) -> str:
    """One part in the operator's terms, from the arguments its call ran with."""
    site = a.get("site_name", "")
    at = f" at {site}" if site else ""
    when = _when(a.get("start"), a.get("final"))
    sensor = a.get("sensor_name", "")
    if tool == "rank":
        if a.get("asset_names"):
            who = ", ".join(a["asset_names"])
        else:
            who = f"the {fieldvocab.kind_label(a['asset_type']).plural}" if a.get("asset_type") else "the assets"
        return f"which of {who}{at} had the {a.get('order')} {_STAT.get(a.get('by', ''), a.get('by'))} {sensor} {when}"
    if tool == "excursions":
        limit = a.get("limit") if a.get("limit") is not None else f"its {a.get('limit_sensor')}"
        if a.get("limit") is not None and a.get("limit_unit"):  # "above 150 psi": compared in the series' unit
            limit = f"{a['limit']:g} {a['limit_unit']}"
        lead = "how long" if a.get("report") == "how_long" else "whether"
        verb = "was" if lead == "how long" else "went"
        return f"{lead} {a.get('asset_name')} {sensor}{at} {verb} {a.get('direction')} {limit} {when}"
    if tool == "derive":
        stat = _STAT.get(part.statistic or "mean", "mean")
        return (
            f"the {stat} {a.get('op')} of {a.get('asset_name')} {sensor} and {a.get('other_asset')} "
            f"{a.get('other_sensor')}{at} {when}"
        )
    if tool == "compare_periods":
        other = _when(a.get("other_start"), a.get("other_final"))
        return (
            f"which period had the {a.get('order')} {_STAT.get(a.get('by', ''), a.get('by'))} of "
            f"{a.get('asset_name')} {sensor}{at}: {when} or {other}"
        )
    if tool == "histories":
        assets = ", ".join(a.get("asset_names") or [])
        if part.ask == "when_extreme":
            return f"when {assets} {sensor}{at} reached its {'minimum' if part.order == 'lowest' else 'maximum'} {when}"
        first = stated_first(part.text)
        lead = f"the {_STAT.get(first, first)} of " if first is not None else ""
        return f"{lead}{sensor} of {assets}{at} {when}"
    if tool in ("sites", "assets", "sensors"):
        of = a.get("asset_name") or site
        return f"the {tool} of {of}" if of else f"the {tool}"
    if tool:
        return f"{tool} {', '.join(f'{k}={v}' for k, v in a.items())}"
    ask = {"other": "", "data": ""}.get(part.ask, f" ({part.ask})")
    return f'"{part.text.strip()}"{ask}' + ("" if answered else ": not answered by this run")


def _by(calls: list[Source]) -> str:
    """The tools whose calls the answer rests on, where no part has its own: ", answered from currentdatetime"."""
    tools = list(dict.fromkeys(s.tool for s in calls if s.tool))
    return f", answered from {', '.join(tools)}" if tools else ""


def _slot_notes(slots: dict[str, Slot]) -> str:
    notes = []
    for name, slot in slots.items():
        if slot.source == "rule":
            notes.append(f"{name}: {slot.said}")
        elif slot.source in ("model", "requester") or "the words name" in slot.said:
            notes.append(f"{name}: {slot.said}")
        elif slot.source == "open":
            notes.append(f"{name}: '{slot.said}' does not say which end; the model chose")
    return f" ({'; '.join(notes)})" if notes else ""


def read_as(g: Grounding, trial: int | None, answered: bool = True) -> ReadAs:
    """The frame of trial `trial`'s run said back (see the module's docstring); `answered`: the run's status is
    answered (a part no call answered is then one the answer's words closed, not one left open). Without a catalog
    (the SkySpark could not be read) nothing was linked: no line."""
    if g.links is None:
        return ReadAs(intent=g.reading.intent)
    if g.refusal and g.in_code and g.refusal in REFUSALS:
        return ReadAs(line=f"Read as: {REFUSALS[g.refusal]}.", intent=g.refusal)
    if g.in_code:
        kinds = ", ".join(p.ask for p in g.reading.parts) or "a question"
        return ReadAs(line=f"Read as: {kinds}, answered from the SkySpark's catalog.", intent=g.reading.intent)
    parts = g.reading.parts or [Part(text=g.question, ask="other")]
    picks = assignment(g, trial)
    out: list[PartRead] = []
    opened: list[str] = []
    for part, source in zip(parts, picks):
        args = _args(source)
        tool = source.tool if source is not None else None
        slots = dict(part.slots)
        measure = _measure_slot(g, args)
        if measure is not None and (measure.source != "words" or "the words name" in measure.said):
            slots["measure"] = measure
        if (equipment := _asset_slot(g, args)) is not None:
            slots["asset"] = equipment
        for name, slot in part.slots.items():
            if slot.source == "open":
                opened.append(f"{name}: '{slot.said}'")
        said = _said(part, tool, args, answered) + _slot_notes(slots)
        out.append(
            PartRead(text=part.text, ask=part.ask, form=part.form, tool=tool, arguments=args, slots=slots, said=said)
        )
    also = [f"refused: {a}" for a in g.reading.also]
    calls = [x for x in g.sources if x.kind == "observation" and trial in (None, x.trial)]
    by = _by(calls) if answered and not any(p.tool for p in out) else ""
    respelt = [f'"{a}" as "{b}"' for a, b in g.respelt.items()]
    words = f" (words read: {', '.join(respelt)})" if respelt else ""
    if g.aside:  # "the grower's asking", "they think the screens opened late": context, not the question
        words += " (set aside as context: " + ", ".join(f'"{a}"' for a in g.aside) + ")"
    line = "Read as: " + "; ".join([" ".join(p.said.split()) for p in out] + also) + by + words + "."
    return ReadAs(line=line, intent=g.reading.intent, parts=out, open=opened)


#: the choices code offers for an open order, and the words of a reply that pick each
ORDER_CHOICES = {"highest": ("high", "most", "max", "top", "largest", "biggest", "more"),
                 "lowest": ("low", "least", "min", "bottom", "smallest", "fewest", "less")}  # fmt: skip


def ask_back(g: Grounding, ask: Callable[[str], str | None]) -> list[str]:
    """Ask the requester, once per open slot, the multiple-choice question code writes ("In 'which pump ran
    sweetest', does 'sweetest' mean the highest or the lowest value? Reply highest or lowest."); a reply that picks
    one choice settles the slot (source `requester`), anything else leaves it open. Returns what was settled."""
    settled = []
    for part in g.reading.parts:
        slot = part.slots.get("order")
        if slot is None or slot.source != "open":
            continue
        reply = (ask(f"In \"{part.text.strip()}\", does '{slot.said}' mean the highest or the lowest value? "
                     "Reply highest or lowest.") or "").casefold()  # fmt: skip
        picked = [o for o, words in ORDER_CHOICES.items() if any(re.search(rf"\b{w}", reply) for w in words)]
        if len(picked) == 1:
            part.order = picked[0]
            part.slots["order"] = Slot(source="requester", said=f"'{slot.said}' as {picked[0]}, as the requester said")
            settled.append(f"order: {picked[0]}")
    return settled


def open_slots(g: Grounding, trial: int | None = None) -> list[str]:
    """The slots of the question's parts that change the answer and that nothing settled ("order: 'quietest'"), the
    series the model chose where the question names no measure and the asset has several, and the values asked at an
    instant that fall in a gap of the history (trial `trial`'s calls say so)."""
    out = [f"{n}: '{s.said}'" for p in g.reading.parts for n, s in p.open_slots().items()]
    if g.links is not None and g.catalog is not None:
        for source in assignment(g, trial):  # a series the question named no measure of: the model's guess
            measure = _measure_slot(g, _args(source))
            if measure is not None and measure.source == "model":
                out.append(f"measure: {measure.said}")
            if (equipment := _asset_slot(g, _args(source))) is not None:
                out.append(f"asset: {equipment.said}")
        if site := _site_slot(g):
            out.append(f"site: {site}")
    gaps = [
        x for x in g.sources if x.kind == "observation" and x.answers and trial in (None, x.trial) and GAP in x.head
    ]
    return out + [f"value: {GAP} at the instant asked" for _ in gaps[:1]]


def _unit_key(unit: str | None) -> str:
    return "".join((unit or "").split()).casefold()


def wrong_series(g: Grounding, trial: int) -> str:
    """Why a call answering a part read a series the part does not ask for ('' where none did): a setpoint where the
    question names no setpoint and no point by name, or a series whose quantity is not that of the limit's unit."""
    return next((why for why, _ in _wrong(g, trial)), "")


def wrong_sensors(g: Grounding, trial: int) -> list[str]:
    """The sensors that `wrong_series` found read for a part that does not ask for them (a next trial goes without)."""
    return list(dict.fromkeys(sensor for _, sensor in _wrong(g, trial)))


def _wrong(g: Grounding, trial: int) -> Iterator[tuple[str, str]]:
    """(why, sensor) for each call answering a part that read a series the part does not ask for."""
    if g.catalog is None or g.links is None:
        return
    setpoint_said = TABLE.setpoint.search(g.asked_text()) is not None
    for part, source in zip(g.reading.parts, assignment(g, trial)):
        args = _args(source)
        site, sensor = args.get("site_name"), args.get("sensor_name")
        if not site or not sensor:
            continue
        assets = [args["asset_name"]] if args.get("asset_name") else list(args.get("asset_names") or [])
        points = [
            x
            for asset in assets
            if asset in g.catalog.site(site).assets
            for x in g.catalog.sensors(site, asset)
            if x.short == sensor
        ]
        if not points:
            continue
        if not setpoint_said and sensor not in g.links.sensors and any(point_measure(x).setpoint for x in points):
            yield f"this run read {sensor}, a setpoint, and the question asks for the measured value", sensor
            continue
        unit = part.limit_unit or ""
        if unit and part.limit is not None:
            want = fieldvocab.quantity_of_limit_unit(unit)
            have = fieldvocab.quantity_of_unit(points[0].unit)
            written = _unit_key(unit).lstrip("°")  # "44 F" of a °F series, "40 %" of a %RH one: the series' own unit
            if (
                want is not None
                and have is not None
                and want.name != have.name
                and written not in _unit_key(points[0].unit)
            ):
                yield (
                    (
                        f"the limit {part.limit:g} {unit} is a {want.name}, and this run compared {sensor} "
                        f"({points[0].unit}), a {have.name}"
                    ),
                    sensor,
                )
                continue
            same = [x.short for a in assets for x in g.catalog.sensors(site, a) if _unit_key(x.unit) == _unit_key(unit)]
            if want is None and same and _unit_key(points[0].unit) != _unit_key(unit):  # "18.0 MΩ·cm": a unit the
                # field's database lacks, written as one of the asset's points has it
                yield (
                    f"the limit {part.limit:g} {unit} is in the unit of {same[0]}, and this run compared {sensor}",
                    (sensor),
                )


def fix_for(g: Grounding, trial: int) -> str:
    """What the next trial should call to close what the frame found open or wrong in trial `trial` (the Review's
    suggestion, and so the next trial's feedback): the analysis call a part asks for, by name; the measured series
    where a setpoint was read; a series in the limit's unit. '' where the frame names nothing."""
    wrong = wrong_series(g, trial)
    if "a setpoint" in wrong:
        return "call the same tool again with the measured sensor, not its setpoint"
    if wrong:
        return "call the same tool again with the sensor whose unit is the limit's"
    fixes = []
    for part in open_parts(g, trial) if g.links is not None else []:
        tools = ANSWERED_BY.get(part.ask)
        if tools:
            how = f" with op {part.op}" if part.ask == "derive" and part.op else ""
            fixes.append(f'call {tools[0]}{how} for "{part.text.strip()}"')
    return "; ".join(fixes)
