"""The question's form, read in code from one declarative table (`vocab/forms.yaml`): what it asks the gateway
to do, part by part, what it must refuse, and which of its words the reading placed.

`read_question(question)` returns a `Reading`:

- `intent`: "read" (a question about the SkySpark's data), "control" (only a request to operate equipment: the
  gateway only reads), "injection" (only an instruction to the agent written into the question) or "outside" (a
  topic with no place in a building's data: weather, mail, news, the gateway's own files, shell commands). Whether
  a question that names nothing on the SkySpark is outside is decided with the linking (`Grounding`);
- `also`: where a question asks for data AND requests an operation or carries an instruction, the intent stays
  "read" and `also` names each refused piece ("control: switch off Chiller 6", "injection"), `also_spans` their
  places in the question: the data is answered and the rest refused, in one answer;
- `parts`: the asking clauses a complete answer must each answer ("how many chillers are at S and what was the
  peak tonnage of Chiller 6?" is two), each with its `form` (yes/no, which, value, names, count) and its `ask` —
  what work answers it (the first form of the table, by precedence, whose cue matches and whose needs hold):
  `forecast` (the future: the gateway reads recorded data), `exists` (is there an X / a thing named X: `exists_of`
  says which), `attribute` (manufacturer, rating, install date…: not a history), `duration` (how long / what share
  of the day above or below a limit or setpoint), `periods` (two periods compared), `when_extreme` (when a peak or
  a low happened), `excursion` (was it ever above / below a limit or its setpoint), `derive` (difference, sum or
  ratio of two series), `rank` (which of several is highest / more), `count` / `names` (a listing), `data` (a
  series' figures) — and the arguments the question states for the tool (pinned by the scope: `x-question`);
- `placed_words`: the question's words (lower-case, see `words`) the reading used: function words, form cues,
  argument words, operating verbs and request words, the numbers it read as limits. The linking (entities) and
  the dates (periods) place the rest; `unplaced_words` names what nothing placed.

The table's cues are word sequences with optional words, gaps and slots (see the file's header), compiled to regular
expressions once (`grounding.forms`); the question's clauses are told apart in `grounding.clauses`. Everything in the
table is English question grammar and the field's generic words; nothing names a plant.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Literal

from pydantic import BaseModel, Field

from edge_agent.grounding import fieldvocab
from edge_agent.grounding.clauses import _Clause, _clauses, split_parts
from edge_agent.grounding.forms import (
    CUE_WORDS,
    FUNCTION_WORDS,
    TABLE,
    Ask,
    Cue,
    Form,
    FormSpec,
    Intent,
    TableForm,
    _normal,
    words,
)
from edge_agent.grounding.frame import Slot

# -- the reading --


class Part(BaseModel):
    text: str
    form: Form = "other"
    ask: Ask = "other"
    statistic: str | None = None  # max / min / mean / energy (a rank's aggregate)
    order: str | None = None  # highest / lowest
    op: str | None = None  # difference / sum / ratio
    direction: str | None = None  # above / below
    limit: float | None = None
    limit_unit: str | None = None  # the unit said with the limit ("40 %", "-18 °C"): the quantity the series must be
    setpoint: bool = False  # compared with a setpoint series, not a value
    exists_of: Literal["kind", "name"] | None = None  # an `exists` part: whether a kind or a named thing is asked
    attribute: str | None = None  # an `attribute` part: manufacturer / model / serial / rating / capacity / …
    periods: list[str] = Field(default_factory=list)  # a `periods` part: the period phrases compared, in order
    cue: str = ""  # the table's form that read it (its name), and the words that matched: "rank: which … highest"
    #: where each slot the part pins came from (`Slot`): the question's words, a documented rule, or nothing that
    #: settles it ("open": the question says a word whose reading code does not know, e.g. an unknown superlative)
    slots: dict[str, Slot] = Field(default_factory=dict)

    def open_slots(self) -> dict[str, Slot]:
        """The slots that change the answer and that nothing settled."""
        return {k: v for k, v in self.slots.items() if v.source == "open"}


class Reading(BaseModel):
    intent: Intent = "read"
    verb: str = ""  # the control verb phrase ("switch off")
    parts: list[Part] = Field(default_factory=list)
    also: list[str] = Field(default_factory=list)  # refused pieces of a question that also asks for data
    also_spans: list[tuple[int, int]] = Field(default_factory=list)  # where each refused piece stands
    placed_words: set[str] = Field(default_factory=set)  # the question's words the reading used (see `words`)

    @property
    def analysis(self) -> bool:
        """A part asks for a conclusion an analysis tool computes (a ranking, an excursion or its duration, a
        derived series, two periods compared)."""
        return any(p.ask in ("rank", "excursion", "derive", "duration", "periods") for p in self.parts)

    @property
    def by_parts(self) -> bool:
        """The answer must close each part with its own call: several parts, a conclusion, or two periods."""
        return len(self.parts) > 1 or self.analysis or any(p.ask == "periods" for p in self.parts)


# -- one part's form --


def _first(cues: tuple[Cue, ...], text: str) -> tuple[Cue, re.Match[str]] | None:
    for cue in cues:
        m = cue.search(text)
        if m:
            return cue, m
    return None


def _argument(name: str, text: str) -> str | None:
    if name == "direction":
        return _direction(text)
    hit = _argument_hit(name, text)
    return hit[0] if hit else None


#: a direction word denied ("below, sorry, not above"; "under it, not over it")
_DENIED = re.compile(r"\b(?:not|never|n't)\s+(?:\w+\s+)?$", re.I)


def _direction(text: str) -> str | None:
    """The side of a limit the text asks: the direction words' (a word the text denies is none: "below, sorry, not
    above" is below), else a comparative's by its order ("slower than 20 %")."""
    said = []
    for value, cues in TABLE.arguments["direction"]:
        for cue in cues:
            for m in cue.regex.finditer(text):
                if not _DENIED.search(text[max(0, m.start() - 12) : m.start()]):
                    said.append(value)
    if said:
        return said[0] if len(set(said)) == 1 else next(v for v, _ in TABLE.arguments["direction"] if v in said)
    return _compared_direction(text)


#: a comparative before "than" ("slower than 20 percent", "damper than -35", "more humid than 60 %")
_COMPARED = re.compile(r"\b(?P<word>(?:more|less)\s+[a-z]+|[a-z]{3,}er)\s+than\b", re.I)


def _compared_direction(text: str) -> str | None:
    """The side of a limit a comparative says by its order ("slower than 20 %": below; "damper than -35": above), where
    the direction words do not: the order table's words of degree, by the end they rank first."""
    for m in _COMPARED.finditer(text):
        hit = _argument_hit("order", m["word"])
        if hit is not None and hit[0] in ("lowest", "highest") and _first(TABLE.limit, text[m.start() :]):
            return "below" if hit[0] == "lowest" else "above"
    return None


def _argument_hit(name: str, text: str) -> tuple[str, str] | None:
    """The value of argument `name` the text states, and the words that state it. Of the order's values the longest
    words win ("the most cold" is lowest, though "most" alone is highest; "the least cold" highest)."""
    hits = []
    for value, cues in TABLE.arguments[name]:
        hit = _first(cues, text)
        if hit:
            if name != "order":
                return value, hit[1].group(0).strip()
            hits.append((value, hit[1].group(0).strip()))
    return max(hits, key=lambda h: len(h[1].split()), default=None)


#: a superlative or comparative the order table does not know ("which pump ran idlest"): the order is then open
_DEGREE = re.compile(r"(?<![\w-])(?:[a-z]{3,}(?:iest|est)(?<!west)|(?:most|least)\s+[a-z]{4,})(?![\w-])")  # lower case:
# a name in capitals ("AUSWEST") is no superlative
#: words ending like a superlative that are none
_NOT_DEGREE = frozenset(
    "latest interest interests request requests forest honest modest harvest protest suggest digest manifest contest "
    "earliest test tests attest invest arrest chest nearest west supplier suppliers carrier carriers earlier barrier "
    "frontier cashier premier courier".split()
)


def _unknown_degree(text: str) -> str | None:
    """A superlative or comparative of the text whose direction the order table does not say."""
    for m in _DEGREE.finditer(text):
        w = m.group(0).casefold()
        if w.split()[-1] in _NOT_DEGREE or w in _NOT_DEGREE:
            continue
        return m.group(0)
    return None


def _limit(text: str) -> float | None:
    """The number a threshold question compares with ("above 45 °F", "over 80%"), not a date, time or name's."""
    hit = _first(TABLE.limit, text)
    return float(hit[1].group("limit").replace(",", "")) if hit else None  # "3,000 kW": thousands separated


def _basis(text: str) -> str | None:
    """The word after what names the aggregate compared ("going by the average …", "by minimum …"), if any."""
    hit = _first(TABLE.basis, text)
    if hit is None:
        return None
    after = re.match(r"\W*(\w+)", text[hit[1].end() :])
    return after.group(1) if after else None


def _setpoint(text: str) -> bool:
    return TABLE.setpoint.search(text) is not None


def _periods(text: str) -> list[str]:
    return [m.group(0) for m in TABLE.period.finditer(text)]


def _form_of(spec: TableForm, yes_no: bool) -> Form:
    """A form of the table as one clause takes it: "yes_no|value" is yes_no where the clause asks yes or no."""
    if spec == "yes_no|value":
        return "yes_no" if yes_no else "value"
    if spec == "yes_no|which":
        return "yes_no" if yes_no else "which"
    return spec


def _needs_hold(needs: Sequence[str], text: str, many: bool) -> bool:
    for need in needs:
        if need == "direction" and _argument("direction", text) is None:
            return False
        if need == "limit_or_setpoint" and _limit(text) is None and not _setpoint(text):
            return False
        if need == "setpoint_no_limit" and (_limit(text) is not None or not _setpoint(text)):
            return False  # the amount between a series and its setpoint: no number to compare with
        if need == "many" and not many:
            return False
        if need == "no_excursion" and _argument("direction", text) is not None and _limit(text) is not None:
            return False  # "any PM10 over 50 at DC-01": a limit crossed, not whether a thing exists
        if need == "counted_thing" and not _counts_things(text):
            return False
        if need == "kind_plural" and not (_lists_kind(text) or (many and _no_measure(text))):
            return False  # (a kind the SkySpark marks that the field's vocabulary does not define: "blowers")
    return True


#: the general nouns for the things a catalog lists ("chiller units", "which devices"), never a name or a kind
GENERIC_THINGS = frozenset(
    "site sites plant plants building buildings asset assets equipment equipments device devices unit units "
    "machine machines system systems sensor sensors point points measurement measurements reading readings "
    "metric metrics value values data kit piece pieces consumer consumers user users hog hogs guzzler guzzlers "
    "bms scada skyspark".split()  # "how many chillers are on the BMS": the system the data is on
)


#: the word after "how many" (after "of the" / "of our" where they stand)
_HOW_MANY = re.compile(r"\bhow\s+many\s+(?:of\s+(?:the|our|its|their|these|those)\s+)?([^\W\d_][\w'’-]*)", re.I)
#: the things a SkySpark's catalog counts, said in general ("how many points", "how many sites")
_COUNTED = GENERIC_THINGS | frozenset("meter meters things items of are is do does have were was".split())
#: informal units after "how many" ("how many kilos", "how many degrees warmer"): an amount, never a count
_INFORMAL_UNITS = frozenset(
    "kilo kilos kg degree degrees deg tonne tonnes ton tons litre litres liter liters gallon gallons cube cubes "
    "bags loaves crates".split()
)


def _counts_things(text: str) -> bool:
    """A count asks how many of the catalog's things there are: "how many" is followed by a kind of equipment, a
    general word for the catalog's things, or nothing it could be an amount of (a unit, a measure word)."""
    m = _HOW_MANY.search(text)
    if m is None:
        return True  # "count the …", "the number of …"
    w = m.group(1).casefold()
    after = [w, *(x.casefold() for x in re.findall(r"[^\W\d_]+", text[m.end() :])[:2])]
    phrases = [" ".join(after[:k]) for k in (3, 2, 1)] + after[1:2]  # "how many power meters", "… plate freezer"
    if w in _COUNTED or any(
        fieldvocab.kinds_named(p) or fieldvocab.kinds_named(fieldvocab.singular(p)) for p in phrases
    ):
        return True
    if w in _INFORMAL_UNITS or fieldvocab.measure_words(w) or fieldvocab.quantity_of_unit(w) is not None:
        return False
    # a word of no unit, no measure and no kind the field knows ("crayfish"): a thing the catalog may name (a marker
    # of its own, "roasters"), unless an amount word or a comparative follows it ("crayfish died", "kilos an hour")
    rest = text[m.end() :].split()
    return not (rest and re.fullmatch(r"(?:died|were\s+lost|[a-z]+er|an?|per|of)", rest[0].casefold()))


def _no_measure(text: str) -> bool:
    """No word of the text (nor its singular: "speeds") is a measure word."""
    return not any(fieldvocab.measure_words(w) or fieldvocab.measure_words(fieldvocab.singular(w)) for w in words(text))


def _lists_kind(text: str) -> bool:
    """The part names a kind of equipment in the plural ("the tunnel ventilation fans") and no measure ("the list of
    the chiller temps" asks for figures)."""
    ws = words(text)
    if not _no_measure(text):
        return False
    return any(len(w) > 3 and w.endswith("s") and fieldvocab.kinds_named(fieldvocab.singular(w)) for w in ws)


def _symbols(text: str) -> str:
    """Comparison signs before a number read as words ("Power > 365 kW": above 365 kW); "# of" is "number of"; the
    minus sign (U+2212) and dashes before a digit are the ASCII minus ("above −300 Pa")."""
    text = re.sub(r"[\u2212\u2013\u2014](?=\d)", "-", text)
    text = re.sub(r"(?<=/)\s*min\b", "minute", text, flags=re.I)  # "L/min": per minute, no minimum
    text = re.sub(r"(?<!\w)#\s*(?=of\b)", "number ", text, flags=re.I)
    text = re.sub(r"\s*(?:>=|≥|>)\s*(?=[-+]?\d)", " above ", text)
    return re.sub(r"\s*(?:<=|≤|<)\s*(?=[-+]?\d)", " below ", text)


#: "kWh per m³", "kW/ton": one measure or unit per another (a rate per unit of time is a unit of its own: kWh per day)
_PER = re.compile(r"([^\W_]+)\s*(?:\bper\b|/)\s*(?:an?\s+|one\s+)?([^\W_]+)", re.I)


def _per_ratio(text: str) -> str | None:
    """The words of a ratio of two measures the text asks for ("kWh per m3", "kW per ton"), or None: both sides are
    units or measure words of the field, and the second is no unit of time."""
    for m in _PER.finditer(text):
        a, b = m.group(1), m.group(2)
        if _distributes(text[m.start(2) :]):
            continue  # "the mean dew point per dry room": for each room, no measure divided by another
        if "/" in m.group(0) and fieldvocab.quantity_of_unit(m.group(0).replace(" ", "")) is not None:
            continue  # "10 mg/l", "m3/h": a unit of its own, not one measure per another
        qa, qb = fieldvocab.quantity_of_unit(a), fieldvocab.quantity_of_unit(b)
        if "/" in m.group(0) and (qa is None or qb is None):
            continue  # "the gas/power settlement", "heating/cooling": a slash between words is "and/or"
        before = text[: m.start(1)].split()[-1:]  # "electricity use per m³": the measure said just before "use"
        said_a = fieldvocab.names_a_measure(a) or bool(before and fieldvocab.measure_words(f"{before[0]} {a}"))
        if (qa is not None or said_a) and (qb is not None or fieldvocab.names_a_measure(b)):
            if qb is not None and qb.name == "time" or b.casefold() in _TIME_WORDS:
                continue
            return m.group(0)
    for m in _OF_PER.finditer(text):  # "how many kilograms of steam did it use per kilogram of linen"
        qa, qb = unit_quantity(m.group(1)), unit_quantity(m.group(2))
        if qa is not None and qb is not None and qb.name != "time" and m.group(2).casefold() not in _TIME_WORDS:
            return m.group(0)
    term = RATIO_TERMS.search(text)  # "the PUE", "its specific power", "the SEC": ratios by the field's definition
    return term.group(0) if term else None


#: what "per" goes through one by one rather than divides by ("per dry room", "per site", "per press", "per each")
_EACH_OF = frozenset(
    "each every site sites plant plants building buildings room rooms zone zones floor floors hall halls area areas "
    "space spaces line lines asset assets machine machines equipment device devices".split()
)


def _distributes(after: str) -> bool:
    """The words after "per" name things to go through one by one: a kind of equipment the field names or a place or
    a thing of a plant, within two words ("per dry room", "per curing press")."""
    ws = words(after)[:2]
    return any(w in _EACH_OF or fieldvocab.kinds_named(w) or fieldvocab.kinds_named(fieldvocab.singular(w)) for w in ws)


def unit_quantity(word: str) -> fieldvocab.Quantity | None:
    """The quantity of a unit written as a word, in the singular or the plural ("kilograms", "kW")."""
    return fieldvocab.quantity_of_unit(word) or fieldvocab.quantity_of_unit(fieldvocab.singular(word.casefold()))


#: a unit of something, then "per" a unit (of another thing) further on
_OF_PER = re.compile(r"\b([^\W\d_]+)\s+of\s+\w+\b.{0,60}?\b(?:per|for\s+every)\s+(?:an?\s+|one\s+)?([^\W\d_]+)", re.I)
#: the field's names of one measure per another (Green Grid's PUE; a compressor's or a plant's specific power or
#: energy; a chiller's or a heat pump's COP and EER are points where the SkySpark has them, named so)
RATIO_TERMS = re.compile(
    r"\b(?:pue|power\s+usage\s+effectiveness|specific\s+(?:power|energy(?:\s+consumption)?)|sec|energy\s+intensity"
    # "the specific gas consumption", "specific fuel consumption" (SFC): an amount used per unit of output
    r"|specific\s+(?:\w+\s+)?consumption"
    # a chiller's or a heat pump's efficiency: its thermal output over its electrical input
    r"|cop|coefficient\s+of\s+performance|eer|energy\s+efficiency\s+ratio)\b",
    re.I,
)


_TIME_WORDS = frozenset("second sec s minute min hour hr h day week month year shift batch cycle".split())


#: "whether" or "if" that asks yes or no again after a request ("could you tell me if …"), not a courtesy ("sorry if
#: that's a lot", "if possible", "if you can")
_ASKS_WHETHER = re.compile(
    r"(?<!sorry )\b(?:whether|if)\b(?!\s+(?:possible|you\s+can|you\s+could|that['’]s|that\s+is|this\s+is|not|so))", re.I
)


def read_part(text: str, *, plural_or_many: bool = True) -> Part:
    """One clause's form and ask: the first form of the table (by precedence) whose cue matches and whose needs
    hold. `plural_or_many`: the clause names several assets or a kind of equipment (a ranking needs something to
    rank)."""
    # "the electricity supplier's invoice", "the proofer manufacturer's guarantee": a party named as the owner of
    # something else is not asked about (its attribute words cue nothing)
    norm = _PARTY_OWNS.sub(lambda m: " " * len(m.group(0)), _symbols(_normal(text)))
    yes_no = _first(TABLE.yes_no, norm) is not None and (
        _first(TABLE.not_yes_no, norm) is None or _ASKS_WHETHER.search(norm) is not None
    )
    for f in TABLE.forms:
        hit = _first(f.cues, norm)
        if f.spec.cues and hit is None:
            continue
        if not _needs_hold(f.spec.needs, norm, plural_or_many):
            continue
        form = _form_of(f.spec.form, yes_no)
        part = Part(
            text=text, form=form, ask=f.spec.ask, cue=f.spec.name + (f": {hit[1].group(0).strip()}" if hit else "")
        )
        _pin(part, f.spec, norm)
        _flowing(part, norm)
        return _as_ratio(part, norm)
    return _as_ratio(Part(text=text, form="yes_no" if yes_no else "value", ask="data"), norm)


_PARTY_OWNS = re.compile(
    r"\b(?:manufacturer|maker|vendor|supplier|installer|contractor|owner)s?['’]s?(?=\s+[a-z])", re.I
)


#: words of degree that say how something ran over a period (ranked by the mean), not its extreme sample
_OVER_THE_PERIOD = re.compile(
    r"\b(?:busiest|busier|laziest|lazier|idlest|thirstiest|thirstier|hungriest|hungrier|hardest|harder|starved|"
    r"deprived|(?:most|least|more|less)\s+(?:heavily\s+|lightly\s+)?(?:loaded|efficient(?:ly)?|economical(?:ly)?|"
    r"used|utili[sz]ed|busy|active|idle|[a-z]+-intensive|intensive|productive|wasteful|hungry|thirsty)|"
    # "which tunnel ran warmest last week": a superlative of how it ran, over the period
    r"(?:ran|runs|running|run)\s+(?:the\s+)?(?:[a-z]+est|(?:most|least)\s+[a-z]+))\b",
    re.I,
)


def _flowing(part: Part, text: str) -> None:
    """ "For how many hours was the grid connection exporting", "was TSS-1 regenerating at all": the time a flow of
    that direction ran is the time its series was above 0 (a documented rule, said: no number is written)."""
    if part.ask not in ("duration", "excursion") or part.limit is not None or part.setpoint:
        return
    phrases = fieldvocab.flow_direction_phrases(text)
    if not phrases or fieldvocab.flow_direction(text) is None:
        return
    part.limit, part.direction = 0.0, part.direction or "above"
    part.slots["limit"] = Slot(source="rule", said=f"'{phrases[0]}' timed as the time its flow ran (its series past 0)")


def _as_ratio(part: Part, text: str) -> Part:
    """A data part that asks one measure per another ("the kWh per m3 of Pump 2") is a ratio of two series, never
    one series' figures."""
    said = _per_ratio(text) if part.ask == "data" else None
    if said is None:
        return part
    return part.model_copy(
        update={
            "ask": "derive",
            "form": "value",
            "op": "ratio",
            "statistic": "mean",
            "cue": f"derive: {said}",
            "slots": {
                "op": Slot(source="words", said=said),
                "statistic": Slot(source="rule", said="the mean of the ratio at each instant"),
            },
        }
    )


#: a day's words after a figure ("over 120 sat or sun"): when, never the limit's unit
_DAY_WORDS = frozenset("mon tue tues wed thu thur thurs fri sat sun today tonight yesterday yday tmrw tomorrow".split())


#: the first of two series said to be less than the second: "fell short of", "lagged", "how far below"
_SHORTFALL = re.compile(
    r"\b(?:short\s+of|shy\s+of|lagged|lagging|lags|trailed|trailing|trails|fell\s+behind|below)\b", re.I
)


def _pin(part: Part, spec: FormSpec, text: str) -> None:
    if isinstance(spec.pins, dict):
        for k, v in spec.pins.items():
            setattr(part, k, v)
        return
    pins = set(spec.pins)
    if "direction" in pins:
        part.direction = _argument("direction", text)
        lim = _first(TABLE.limit, text)  # "drawn down hard over Easter … drop under 45%": the limit's own word wins
        said = _argument("direction", words(lim[1].group(0))[0]) if lim and words(lim[1].group(0)) else None
        part.direction = said or part.direction
    if "limit" in pins and part.direction is not None:
        part.limit = _limit(text)
        lim = _first(TABLE.limit, text)
        part.limit_unit = ((lim[1].groupdict().get("unit") or "").strip() or None) if lim else None
        if part.limit_unit and (
            part.limit_unit.casefold() in FUNCTION_WORDS or part.limit_unit.casefold() in _DAY_WORDS
        ):  # "-35 at any point", "over 120 sat or sun": no unit
            part.limit_unit = None
        if part.limit_unit and part.limit_unit.casefold() in ("c", "f"):  # "over 220c", "44 F": degrees, never a
            part.limit_unit = "°" + part.limit_unit.upper()  # coulomb or a farad
        after = re.match(r"\s*([^\s,;?!]+)", text[lim[1].end() :]) if lim and part.limit_unit is None else None
        if after and not re.fullmatch(r"[A-Za-z]+", after.group(1)):  # "18.0 MΩ·cm", "5 mg/m³": a unit the table
            part.limit_unit = after.group(1)  # does not list, written as a symbol
    if "setpoint" in pins and part.direction is not None:
        part.setpoint = _setpoint(text) and part.limit is None
    if "op" in pins:
        part.op = _argument("op", text)
        if part.op == "difference" and part.direction is None and _SHORTFALL.search(text):
            # "the extent to which the feedback fell short of the command", "how far below the return was the
            # supply": the shortfall, the second named less the first, positive as it is said (`scope`)
            part.direction = "below"
    if "order" in pins:  # "rank them by minimum speed": the aggregate after "by" is the criterion, not the order
        criterion = re.sub(r"\bby\s+(?:the\s+)?(?:min(?:imum)?|max(?:imum)?|lowest|highest)\b", "by", text, flags=re.I)
        # "the highest minimum power": the statistic right after the order word is the criterion, not the order
        criterion = re.sub(
            r"\b(highest|lowest|most|least|largest|smallest|greatest|top|bottom)\s+(?:min(?:imum)?|max(?:imum)?|peak)\b",
            r"\1",
            criterion,
            flags=re.I,
        )
        said_by = _argument_hit("order", criterion)
        unknown = _unknown_degree(criterion) if said_by is None or said_by[0] == "highest" else None
        if (
            unknown
            and (said_by is None or said_by[1].casefold() in ("most", "more"))
            and not _argument("order", unknown)
        ):
            # "which pump ran quietest": a word of degree the table has no direction for; "highest" would be a guess
            part.order = None
            part.slots["order"] = Slot(source="open", said=unknown)
        elif said_by and said_by[0] == "open":  # "which chiller did best": which end is better depends on the measure
            part.order = None
            part.slots["order"] = Slot(source="open", said=said_by[1])
        elif said_by:
            part.order = said_by[0]
            part.slots["order"] = Slot(source="words", said=said_by[1])
        else:
            part.order = "highest"
            part.slots["order"] = Slot(source="rule", said="highest first, the question names no order")
    if "rank_statistic" in pins:  # the aggregate after "by" is the criterion ("by minimum X … which one is top")
        by = _basis(text)
        said_by = (_argument_hit("rank_statistic", by) if by else None) or _argument_hit("rank_statistic", text)
        if said_by:
            part.statistic = said_by[0]
            part.slots["statistic"] = Slot(source="words", said=said_by[1])
        elif over := _OVER_THE_PERIOD.search(text):  # "the busiest", "the least loaded", "most economical": how it
            part.statistic = "mean"  # ran over the period, not its one extreme sample
            part.slots["statistic"] = Slot(
                source="rule", said=f"the mean: '{over.group(0)}' says how it ran over the period"
            )
        else:
            part.statistic = "max" if part.order != "lowest" else "min"
            if part.order is not None:
                part.slots["statistic"] = Slot(
                    source="rule", said=f"the {part.statistic}imum: '{part.order}' with no statistic named"
                )
    if "statistic" in pins:  # "was steam use higher …, going by the average steam flow": the mean is compared
        by = _basis(text)
        part.statistic = (
            (_argument("statistic", by) if by else None)
            or _argument("statistic", text)
            or ("mean" if spec.ask == "derive" else None)
        )
        if part.op == "ratio" and part.statistic == "energy":  # "kilos of steam it uses for every kilo": the ratio
            part.statistic = "mean"  # at each instant, averaged (a ratio is no amount)
    if "attribute" in pins:
        part.attribute = _argument("attribute", text)
    if "periods" in pins:
        part.periods = _periods(text)


def _placed(question: str, parts: list[Part], clauses: tuple[_Clause, ...]) -> set[str]:
    """The question's words the reading used: function words, the words of every cue that matches (forms,
    arguments, yes/no, several, one file), limits and their units, and the refused clauses' request words."""
    text = _normal(question)
    ws = set(words(text))
    out = ws & FUNCTION_WORDS
    groups = (
        [f.cues for f in TABLE.forms]
        + [TABLE.yes_no, TABLE.limit, TABLE.basis, TABLE.several, TABLE.single_file]
        + [c for vals in TABLE.arguments.values() for _, c in vals]
    )
    for piece in {text, *(_normal(p.text) for p in parts)}:
        for cues in groups:
            for cue in cues:
                for m in cue.regex.finditer(piece):
                    out |= cue.placed(piece, m)
    for c in clauses:
        out |= set(c.placed)
    for cue in (*TABLE.outside, *TABLE.injection):  # understood: as what is refused
        for m in cue.regex.finditer(text):
            out |= cue.placed(text, m)
    out |= ws & TABLE.data_words
    out |= ws & TABLE.verb_forms  # a request is refused; a past fact ("when was it turned on") asks for a status
    for m in TABLE.setpoint.finditer(text):
        out |= set(words(m.group(0)))
    for m in re.finditer(r"\b(?:most|least)\s+([a-z]+)\b", text, re.I):  # "most strong": a superlative
        out.add(m.group(1).casefold())
    for p in parts:  # a word of degree whose direction the reading does not know is read as one: its slot is open
        out |= {w for s in p.slots.values() if s.source in ("words", "open") for w in words(s.said)}
    return out & ws


def read_intent(question: str) -> tuple[Intent, str]:
    """ "control" (with the verb phrase) where the question only requests an operation, "injection" where it only
    instructs the agent, else "read" (a question that also asks for data stays "read": see `Reading.also`);
    "outside" needs the linking (`outside_topic`)."""
    clauses = _clauses(question)
    refused = [c for c in clauses if c.kind in ("control", "injection")]
    verb = next((c.verb for c in clauses if c.kind == "control"), "")
    if not refused or any(c.kind == "ask" for c in clauses):
        return "read", verb
    if any(c.kind == "injection" for c in refused):
        return "injection", ""
    return "control", verb


def outside_topic(question: str, held: frozenset[str] = frozenset()) -> bool:
    """The question is about something no building's data holds (weather, mail, shell, the gateway's files) — unless
    the words that say so are words of the SkySpark's own names and kinds (`held`: "rain" where there is a Rain
    Gauge, "terminal" where a site is a terminal, "weather" where a weather station is)."""
    text = _normal(question)
    for cue in TABLE.outside:
        for m in cue.regex.finditer(text):
            if not (cue.placed(text, m) or set(words(m.group(0)))) <= held:
                return True
    return False


#: the words a typo of which is read as the word itself: the table's words (cues, operating verbs, request words)
_SPELLED = frozenset(w for w in CUE_WORDS | TABLE.verb_forms | TABLE.data_words if w.isalpha() and len(w) >= 5)
_BY_LENGTH: dict[int, tuple[str, ...]] = {}
for _w in sorted(_SPELLED):
    _BY_LENGTH[len(_w)] = _BY_LENGTH.get(len(_w), ()) + (_w,)


def _one_slip(a: str, b: str) -> bool:
    """`a` is `b` with two neighbouring letters swapped (the typing slip: "swtich"; a changed letter is often another
    real word — "manufactured", "lower" — and is left alone)."""
    diff = [i for i in range(len(a)) if a[i] != b[i]]
    return len(diff) == 2 and diff[1] == diff[0] + 1 and a[diff[0]] == b[diff[1]] and a[diff[1]] == b[diff[0]]


def spelled(question: str) -> str:
    """The question with each slip (two letters swapped) of one of the table's words corrected ("swtich" →
    "switch", "retsart" → "restart", "rgiht" → "right", "ingore" → "ignore"): lower-case words of five letters or
    more (capitalised ones only where a sentence starts) that are no word of the table themselves, each only by a
    word of the same length, so character positions stay where they were (the refused pieces' spans point into the
    question as written). Names are never touched: a name with digits or capitals inside it is no plain word."""

    def fix(m: re.Match[str]) -> str:
        w = m.group(0)
        low = w.casefold()
        first = not question[: m.start()].strip() or question[: m.start()].rstrip()[-1] in ".!?;:,"
        if low in _SPELLED or low in FUNCTION_WORDS or not (w.islower() or (w.istitle() and first)):
            return w  # a capitalised word inside a sentence is a name ("Cooling Tower 1"), never corrected
        hit = next((c for c in _BY_LENGTH.get(len(low), ()) if _one_slip(low, c)), None)
        return w if hit is None else (hit.capitalize() if w.istitle() else hit)

    return _signed(re.sub(r"(?<![\w.-])[A-Za-z]{5,}(?![\w.-])", fix, question))


#: a number said with its sign in words: "minus 18", "negative 5.5" (a limit below zero, not an operation)
_SIGN_WORD = re.compile(r"\b(?:minus|negative)(\s+)(?=\d)", re.I)


def _signed(question: str) -> str:
    """ "minus 18 degrees" read as "-18 degrees", the length kept (the word blanked before the sign)."""
    return _SIGN_WORD.sub(lambda m: " " * (len(m.group(0)) - 1) + "-", question)


COURTESY_WORDS = frozenset(
    "hello hi hey morning good afternoon evening quick one question sorry to bother you there dear "
    "team folks all please thanks thank cheers ok okay so much lot appreciated ps regards kind best "
    # greetings an operator brings from another language ("Hola, pls list …")
    "hiya howdy greetings gday g'day hola buenas buenos dias bonjour salut hallo moin ciao ola oi namaste "
    # a formal writer's courtesy ("I'd be grateful for …", "preferably as a CSV")
    "grateful appreciate appreciated preferably ideally possible if convenient "
    # an apology for cutting in ("sorry to butt in —", "sorry to jump in,")
    "interrupt butt jump barge chime in "
    # a letter's opening and closing ("Dear colleagues, I hope this finds you well", "Yours sincerely", "With thanks
    # and kind regards", "Many thanks")
    "colleagues sincerely faithfully truly warmest wishes many yours".split()
)


def _courtesy_blanked(question: str) -> str:
    """A greeting before the question ("Hello there, is there a UPS …", "Morning - any fans …", "Quick one: …")
    blanked out (same length: the refused pieces' spans still point into the question as written), so the question
    starts where its words start."""
    m = re.match(r"\s*([^,:;!?.\-–—]{1,40})[,:;!.\-–—]+\s+", question)
    if m and all(w in COURTESY_WORDS or w in FUNCTION_WORDS for w in words(m.group(1))) and words(m.group(1)):
        return " " * m.end() + question[m.end() :]
    return question


#: "no. of", "num. of": number's abbreviations, whose period ends no sentence (the count cue "no of")
NUMBER_OF = re.compile(r"(?<!\w)(no|nos|num)\.\s*(?=of\b)", re.I)


def read_question(question: str, many: list[bool] | None = None) -> Reading:
    """The question's intent, parts, refused pieces and placed words. `many[i]`: part i names several assets or
    a kind (see `read_part`). Slips of the table's words are read as the words (`spelled`). Never raises on any
    text."""
    question = _courtesy_blanked(spelled(NUMBER_OF.sub(r"\1 ", question)))
    intent, verb = read_intent(question)
    clauses = _clauses(question)
    texts = split_parts(question)
    parts = [read_part(t, plural_or_many=many[i] if many and i < len(many) else True) for i, t in enumerate(texts)]
    for before, part in zip(texts, parts[1:]):  # "take the mean dew point per room and tell me which was driest"
        said = _argument_hit("rank_statistic", _normal(before))
        if part.ask == "rank" and said and part.slots.get("statistic", Slot(source="words")).source == "rule":
            part.statistic = said[0]
            part.slots["statistic"] = Slot(source="words", said=f"{said[1]} (said before)")
    also, spans = [], []
    if intent == "read":
        text = _normal(question)
        for c in clauses:
            if c.kind == "control":
                piece = text[c.start : c.end].strip(" ,.;:!?")
                lead = TABLE.lead.regex.match(piece)
                also.append("control: " + (piece[lead.end() :] if lead else piece).strip())
                spans.append((c.start, c.end))
            elif c.kind == "injection" and "injection" not in also:
                also.append("injection")
                spans.append((c.start, c.end))
            elif c.kind == "injection":
                i = also.index("injection")
                spans[i] = (min(spans[i][0], c.start), max(spans[i][1], c.end))
    return Reading(
        intent=intent,
        verb=verb,
        parts=parts,
        also=also,
        also_spans=spans,
        placed_words=_placed(question, parts, clauses),
    )


def unplaced_words(question: str, reading: Reading, *placed: set[str] | frozenset[str]) -> list[str]:
    """The question's words that neither the reading nor the other placements given (the linking's entity words,
    the dates' period words) placed, in the question's order; a slip the reading corrected ("befroe") is read as
    its correction, as the reading read it."""
    done = set(reading.placed_words).union(*placed) if placed else set(reading.placed_words)
    return list(dict.fromkeys(w for w in words(spelled(question)) if w not in done))


def asks_amount(text: str) -> bool:
    """The text asks what something used, burned or made (the table's energy words: "did the mill use more
    steam"): an amount over a period, not a rate's level."""
    return _argument("statistic", _symbols(_normal(text))) == "energy"


def asks_conclusion(question: str) -> bool:
    """The question asks for a conclusion (a ranking, a comparison with a limit, a derived series), read from its
    words alone (no catalog): what the examples shown with it should teach."""
    texts = split_parts(question)
    return read_question(question, [_first(TABLE.several, _normal(t)) is not None for t in texts]).analysis


def wants_single_file(question: str) -> bool:
    """The question asks for everything in one file ("in a single file", "in one JSON file")."""
    return _first(TABLE.single_file, _normal(question)) is not None


def stated_first(text: str) -> str | None:
    """The statistic a question about a series asks for first ("max", "min", "mean" or "sum": "avg steam pressure",
    "how many mm of rain in total"), from the forms table's `stated_first` cues; None where it names none."""
    return _argument("stated_first", _normal(text))


def attribute_words(text: str, attribute: str) -> str:
    """The question's own words for an attribute it asks ("harvest tonnage" of `production`), the longest its cues
    match; '' where none does."""
    normal = _normal(text)
    said = [
        m.group(0).strip()
        for value, cues in TABLE.arguments.get("attribute", ())
        if value == attribute
        for c in cues
        if (m := c.search(normal))
    ]
    return max(said, key=len, default="")


def attributes_asked(text: str) -> list[str]:
    """Every attribute (manufacturer, model, rating, install date, …) whose cue the text holds, in the table's order:
    one clause may ask for several ("the manufacturer of the compressors, and their install date")."""
    normal = _normal(text)
    return [value for value, cues in TABLE.arguments.get("attribute", ()) if any(c.search(normal) for c in cues)]
