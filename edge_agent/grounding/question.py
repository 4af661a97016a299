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

The table's cues are word sequences with optional words, gaps and slots (see the file's header), compiled here to
regular expressions once. Everything in the table is English question grammar and the field's generic words;
nothing names a plant.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Literal

import yaml
from pydantic import BaseModel, ConfigDict, Field, field_validator

Intent = Literal["read", "control", "injection", "outside"]
Form = Literal["yes_no", "which", "value", "names", "count", "other"]
#: a form as the table gives it: "yes_no|value" is yes_no where the clause asks yes or no, else value
TableForm = Literal[Form, "yes_no|value", "yes_no|which"]
Ask = Literal[
    "rank",
    "excursion",
    "derive",
    "exists",
    "names",
    "count",
    "data",
    "duration",
    "periods",
    "when_extreme",
    "attribute",
    "forecast",
    "other",
]
Need = Literal["direction", "limit_or_setpoint", "many"]
Pin = Literal["statistic", "rank_statistic", "order", "op", "direction", "limit", "setpoint", "attribute", "periods"]

FORMS_FILE = Path(__file__).with_name("vocab") / "forms.yaml"


# -- the table's schema (the file is a boundary: a bad entry is a clear error at import) --


class FormSpec(BaseModel):
    """One question form: its cues, precedence, the tool family that answers it and the arguments it pins."""

    model_config = ConfigDict(extra="forbid")
    name: str
    ask: Ask
    precedence: int
    form: TableForm
    cues: list[str] = Field(default_factory=list)
    needs: list[Need] = Field(default_factory=list)
    pins: list[Pin] | dict[str, str] = Field(default_factory=list)


class OperatingVerb(BaseModel):
    model_config = ConfigDict(extra="forbid")
    verb: str
    then: str = ""  # a cue that must follow the object ("turn … off"); '' where the verb operates alone
    done: str  # its participle, for a wish ("I want it turned off")


class FormsTable(BaseModel):
    model_config = ConfigDict(extra="forbid")
    slots: dict[str, list[str]]
    yes_no: list[str]
    forms: list[FormSpec]
    arguments: dict[str, dict[str, list[str]] | list[str]]
    part_start: list[str]
    several: list[str]
    single_file: list[str]
    injection: list[str]
    outside: list[str]
    request_lead: list[str]
    operating_verbs: list[OperatingVerb]
    not_operated: list[str]
    not_after_verb: list[str]
    statement_start: list[str]
    past_question: list[str]
    wish: list[str]
    function_words: str
    data_words: str

    @field_validator("forms")
    @classmethod
    def _ordered(cls, forms: list[FormSpec]) -> list[FormSpec]:
        names = [f.name for f in forms]
        if len(set(names)) != len(names):
            raise ValueError(f"a form is defined twice: {names}")
        return sorted(forms, key=lambda f: -f.precedence)


# -- cues: word sequences compiled to regular expressions --

_SEP = r"[^\w.?!;]+"  # between two words: spaces, commas, quotes, dashes (not a sentence's end)
_GAPWORD = r"\w+(?:\.\d+)?"  # a word in a gap (its dashes and quotes are separators: no two ways to read it)
_LEAD = r"^\W*(?:(?:and|so|also|then|but|tell\s+me|please|now|ok|okay|hey|well)\W+)*"
_UNITS = r"°\s*[CF]|degrees?|deg|%|percent|kw|kwh|tons?|tonref|psi|pa|cfm|gpm|ppm|[a-z]{0,6}"
_BUILTIN = {
    "num": r"(?<![\w.])\d+(?:\.\d+)?(?!\w)",
    "ordinal": r"\d+(?:st|nd|rd|th)(?!\w)",
    "isodate": r"\d{4}-\d{2}-\d{2}(?:[T ][\d:]+)?",
    "year": r"(?:19|20)\d\d(?!\w)",
    "coded": r"[^\W\d_]*\d[\w-]*",
    "limit": rf"(?<![\w.:/-])(?P<limit>-?\d+(?:\.\d+)?)\s*(?P<unit>{_UNITS})?(?![\w:/-])",
}
#: unit words a limit may carry that the reading places with the number
_UNIT_WORDS = frozenset("c f degree degrees deg percent kw kwh ton tons tonref psi pa cfm gpm ppm".split())
_TOKEN = re.compile(r"[^\W_]+(?:'[^\W_]+)?")


#: English function words and generic question words (the table's `function_words`): placed in every question,
#: never reported unplaced. Set when the table loads.
FUNCTION_WORDS: frozenset[str] = frozenset()


def words(text: str) -> list[str]:
    """The words of a text as the reading counts them: lower-case letters-and-digits runs; a possessive "'s" is
    dropped ("chiller's" is "chiller"), a contraction that is a function word kept ("it's", "let's")."""
    out = []
    for w in _TOKEN.findall(_normal(text).casefold()):
        if "'" in w and w not in FUNCTION_WORDS:
            head, tail = w.split("'", 1)
            out.append(head) if tail == "s" else out.extend([head, tail])
        else:
            out.append(w)
    return out


def _normal(text: str) -> str:
    return text.replace("\u2019", "'").replace("\u2018", "'")


@dataclass(frozen=True)
class Cue:
    """A compiled cue: the expression, and the literal words it places where it matches."""

    source: str
    regex: re.Pattern[str]
    words: frozenset[str]
    stems: tuple[str, ...]

    def search(self, text: str) -> re.Match[str] | None:
        return self.regex.search(text)

    def placed(self, text: str, m: re.Match[str]) -> set[str]:
        out = set()
        for w in words(text[m.start() : m.end()]):
            if w in self.words or any(w.startswith(s) for s in self.stems):
                out.add(w)
        if "limit" in self.regex.groupindex and m.group("limit"):
            out.add(m.group("limit").lstrip("-"))
            unit = (m.group("unit") or "").casefold()
            out |= {u for u in words(unit) if u in _UNIT_WORDS}
        return out


class _Compiler:
    def __init__(self, slots: dict[str, list[str]], refs: dict[str, list[str]]):
        self.slots, self.refs = slots, refs
        self._slot_cache: dict[str, tuple[str, set[str], set[str]]] = {}

    def slot(self, name: str) -> tuple[str, set[str], set[str]]:
        if name in _BUILTIN:
            return _BUILTIN[name], set(), set()
        if name not in self.slots:
            raise ValueError(f"forms table: unknown slot <{name}>")
        if name not in self._slot_cache:
            bodies, ws, ss = [], set(), set()
            for pattern in self.slots[name]:
                body, w, s = self.body(pattern)
                bodies.append(body)
                ws |= w
                ss |= s
            self._slot_cache[name] = ("(?:" + "|".join(bodies) + ")" if bodies else "(?!)", ws, ss)
        return self._slot_cache[name]

    def alternatives(self, element: str) -> tuple[str, set[str], set[str]]:
        alts, ws, ss = [], set(), set()
        for alt in element.split("|"):
            if alt.startswith("<") and alt.endswith(">"):
                body, w, s = self.slot(alt[1:-1])
                alts.append(body)
                ws |= w
                ss |= s
                continue
            pieces = []
            for word in alt.split("_"):
                if word.endswith("*") and len(word) > 1:
                    pieces.append(re.escape(word[:-1]) + r"[\w'-]*")
                    ss.add(word[:-1].casefold())
                else:
                    pieces.append(re.escape(word))
                    ws |= set(words(word))
            alts.append(_SEP.join(pieces))
        return "(?:" + "|".join(alts) + ")", ws, ss

    def body(self, pattern: str) -> tuple[str, set[str], set[str]]:
        """The expression of a cue (without its outer word boundaries) and its literal words and stems."""
        out, ws, ss = "", set(), set()
        first = True  # no separator is needed before the next element
        for element in pattern.split():
            if element == "^":
                out += _LEAD
                continue
            if element.startswith("re:"):
                expr = element[3:]
                out += expr if first else _SEP + expr
                first = False
                continue
            m = re.fullmatch(r"~(\d+)", element)
            if m:
                n = int(m.group(1))
                out += f"(?:{_GAPWORD}{_SEP}){{0,{n}}}" if first else f"(?:{_SEP}{_GAPWORD}){{0,{n}}}"
                continue
            if element.startswith("!"):
                alt, _, _ = self.alternatives(element[1:])
                out += f"(?!{alt}(?!\\w))" if first else f"(?!{_SEP}{alt}(?!\\w))"
                continue
            optional = element.endswith("?") and len(element) > 1
            alt, w, s = self.alternatives(element[:-1] if optional else element)
            ws |= w
            ss |= s
            if optional:
                out += f"(?:{alt}{_SEP})?" if first else f"(?:{_SEP}{alt})?"
            else:
                out += alt if first else _SEP + alt
                first = False
        return out, ws, ss

    def cue(self, pattern: str) -> list[Cue]:
        if pattern.startswith("@"):
            return [c for p in self.refs[pattern[1:]] for c in self.cue(p)]
        if pattern.startswith("re:"):
            return [Cue(pattern, re.compile(pattern[3:], re.I), frozenset(), ())]
        body, ws, ss = self.body(pattern)
        # a cue's words are whole words, not the start or end of a hyphenated name ("Plant-North", "AHU-2")
        return [
            Cue(pattern, re.compile(rf"(?<!\w)(?<!\w-){body}(?!\w)(?!-\w)", re.I), frozenset(ws), tuple(sorted(ss)))
        ]

    def cues(self, patterns: list[str]) -> tuple[Cue, ...]:
        return tuple(c for p in patterns for c in self.cue(p))


@dataclass(frozen=True)
class _Form:
    spec: FormSpec
    cues: tuple[Cue, ...]


@dataclass(frozen=True)
class _Verb:
    spec: OperatingVerb
    regex: re.Pattern[str]  # at a clause's start, after request leads: the verb, its object, and what must follow
    words: frozenset[str]


@dataclass(frozen=True)
class _Table:
    forms: tuple[_Form, ...]
    yes_no: tuple[Cue, ...]
    arguments: dict[str, tuple[tuple[str, tuple[Cue, ...]], ...]]
    limit: tuple[Cue, ...]
    part_start: re.Pattern[str]
    split: re.Pattern[str]
    several: tuple[Cue, ...]
    single_file: tuple[Cue, ...]
    injection: tuple[Cue, ...]
    outside: tuple[Cue, ...]
    lead: Cue
    verbs: tuple[_Verb, ...]
    not_operated: frozenset[str]
    statement_start: frozenset[str]
    past_question: Cue
    wish: tuple[Cue, ...]
    participles: dict[str, str]
    function_words: frozenset[str]
    setpoint: re.Pattern[str]
    period: re.Pattern[str]
    verb_forms: frozenset[str]  # every form of the operating verbs: base, -s, -ing, participle
    data_words: frozenset[str]


def _load(path: Path = FORMS_FILE) -> _Table:
    global FUNCTION_WORDS
    raw = FormsTable.model_validate(yaml.safe_load(path.read_text(encoding="utf-8")))
    FUNCTION_WORDS = frozenset(raw.function_words.split())  # before any cue: `words` keeps their contractions
    slots = dict(raw.slots)
    slots["done"] = [v.done for v in raw.operating_verbs]
    op_cues = [c for cues in raw.arguments["op"].values() for c in cues]  # type: ignore[union-attr]
    comp = _Compiler(slots, {"yes_no": raw.yes_no, "op": op_cues})
    args: dict[str, tuple[tuple[str, tuple[Cue, ...]], ...]] = {}
    for name, values in raw.arguments.items():
        if isinstance(values, dict):
            args[name] = tuple((value, comp.cues(cues)) for value, cues in values.items())
    starts = "|".join(re.escape(w) for w in raw.part_start if not w.startswith("the "))
    # a noun phrase ("the number of …", "the highest …") starts a part only after a comma: "the number of AHUs,
    # and the highest fan speed" is two; "the highest and the lowest temperature" is one
    phrases = "|".join(re.escape(w) for w in raw.part_start if w.startswith("the "))
    part_start = re.compile(rf"(?:{starts}{'|' + phrases if phrases else ''})\b", re.I)
    split = re.compile(
        rf"(?:\?\s+|;\s*|,?\s+(?:and|also|then|plus)\s+(?:also\s+)?(?=(?:{starts})\b)"
        + (rf"|,\s+(?:and|also|then|plus)\s+(?:also\s+)?(?=(?:{phrases})\b))" if phrases else ")"),
        re.I,
    )
    lead_alts = [comp.body(p)[0] for p in raw.request_lead]
    lead_words = {w for p in raw.request_lead for w in comp.body(p)[1]}
    lead = Cue(
        "request_lead", re.compile(rf"^\W*(?:(?:{'|'.join(lead_alts)})(?:\W+|$))*", re.I), frozenset(lead_words), ()
    )
    not_after = "|".join(re.escape(w) for w in raw.not_after_verb)
    verbs = []
    for v in raw.operating_verbs:
        then = ""
        then_words: set[str] = set()
        if v.then:
            body, then_words, _ = comp.body(v.then)
            then = rf"(?P<then>(?:{_SEP}{_GAPWORD}){{0,8}}?{_SEP}{body})(?!\w)"
        particles = {w for w in then_words}
        excluded = "|".join(re.escape(w) for w in raw.not_after_verb if w not in particles) or not_after
        regex = re.compile(rf"(?P<verb>{re.escape(v.verb)})(?!\w)(?!{_SEP}(?:{excluded})(?!\w)){then}", re.I)
        verbs.append(_Verb(v, regex, frozenset(words(v.verb)) | frozenset(then_words)))
    function_words = FUNCTION_WORDS
    past = comp.cue("^ " + "|".join(raw.past_question))[0]
    return _Table(
        forms=tuple(_Form(f, comp.cues(f.cues)) for f in raw.forms),
        yes_no=comp.cues(raw.yes_no),
        arguments=args,
        limit=comp.cues(raw.arguments["limit"]),  # type: ignore[arg-type]
        part_start=part_start,
        split=split,
        several=comp.cues(raw.several),
        single_file=comp.cues(raw.single_file),
        injection=comp.cues(raw.injection),
        outside=comp.cues(raw.outside),
        lead=lead,
        verbs=tuple(verbs),
        not_operated=frozenset(raw.not_operated),
        statement_start=frozenset(raw.statement_start),
        past_question=past,
        wish=comp.cues(raw.wish),
        participles={v.done: v.verb for v in raw.operating_verbs},
        function_words=function_words,
        setpoint=re.compile(rf"(?<!\w){comp.slot('setpoint')[0]}(?!\w)", re.I),
        period=re.compile(rf"(?<!\w){comp.slot('period')[0]}(?!\w)", re.I),
        data_words=frozenset(raw.data_words.split()),
        verb_forms=frozenset(f for v in raw.operating_verbs for f in _inflections(v.verb, v.done)),
    )


def _inflections(verb: str, done: str) -> set[str]:
    stem = verb[:-1] if verb.endswith("e") else verb
    return {
        w for form in (verb, done, verb + "s", verb + "es", stem + "ing", verb + verb[-1] + "ing") for w in words(form)
    }


TABLE = _load()
#: every literal word of the table's cues (a generated entity name should avoid them)
CUE_WORDS: frozenset[str] = (
    frozenset(
        w
        for cues in [
            *(f.cues for f in TABLE.forms),
            TABLE.yes_no,
            TABLE.limit,
            TABLE.several,
            TABLE.injection,
            TABLE.outside,
            TABLE.wish,
            *(c for vals in TABLE.arguments.values() for _, c in vals),
        ]
        for c in cues
        for w in c.words
    )
    | {w for v in TABLE.verbs for w in v.words}
    | TABLE.lead.words
)


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
    setpoint: bool = False  # compared with a setpoint series, not a value
    exists_of: Literal["kind", "name"] | None = None  # an `exists` part: whether a kind or a named thing is asked
    attribute: str | None = None  # an `attribute` part: manufacturer / model / serial / rating / capacity / …
    periods: list[str] = Field(default_factory=list)  # a `periods` part: the period phrases compared, in order
    cue: str = ""  # the table's form that read it (its name), and the words that matched: "rank: which … highest"


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


# -- clauses: what asks, what requests an operation, what instructs the agent --


@dataclass(frozen=True)
class _Clause:
    start: int
    end: int
    kind: Literal["ask", "control", "injection", "none"]
    verb: str = ""
    placed: frozenset[str] = frozenset()


_CLAUSE_BREAK = re.compile(r"[.;!?:]+(?=\s|$)|,|\s(?:and|then|but|plus|&)(?=\s)", re.I)


def _clause_spans(text: str) -> list[tuple[int, int, str]]:
    """(start, end, how it is joined to the clause before) of each clause: split at sentence ends, ';', ':', ','
    and 'and' / 'then'. How: "" (a new sentence or the first), "," (a comma, maybe with a conjunction), "and" (a
    bare conjunction: the same sentence goes on)."""
    out, at, how = [], 0, ""
    for m in _CLAUSE_BREAK.finditer(text):
        brk = m.group(0).strip().casefold()
        if text[at : m.start()].strip():
            out.append((at, m.start(), how))
            how = ""
        if brk in ("and", "then", "but", "plus", "&"):
            how = "," if how == "," else "and"
        elif brk == ",":
            how = ","
        else:
            how = ""
        at = m.end()
    if text[at:].strip():
        out.append((at, len(text), how))
    return out


def _control_at(text: str) -> tuple[str, set[str]] | None:
    """The operating verb phrase a clause requests ("switch off"), with the words it placed; None where the clause
    does not open (after request words) with an operating verb, or operates on the answer rather than the plant."""
    lead = TABLE.lead.regex.match(text)
    rest = text[lead.end() :] if lead else text
    for v in TABLE.verbs:
        m = v.regex.match(rest)
        if not m:
            continue
        obj = [w for w in words(rest[m.end("verb") : m.end("verb") + 40])[:3] if w not in FUNCTION_WORDS]
        if obj and obj[0] in TABLE.not_operated:
            return None
        placed = set(words(text[: lead.end()]) if lead else []) | set(words(v.spec.verb))
        particle = ""
        if m.groupdict().get("then"):
            tail = words(m.group("then"))
            particle = tail[-1] if tail else ""
            placed |= {w for w in tail if w in v.words}
        else:
            near = [w for w in words(rest[m.end() :])[:6] if w in _PARTICLES and w != "on"]  # "on AHU 2": a place
            particle = near[0] if near else ""
            placed |= {particle} if particle else set()
        phrase = v.spec.verb.casefold() + (f" {particle}" if particle in _PARTICLES else "")
        return phrase, placed | _numbers_and_units(rest)
    return None


_PARTICLES = ("on", "off", "down", "up", "out")


def _numbers_and_units(text: str) -> set[str]:
    """The numbers of a request and the units they carry ("up two degrees", "down to -20"): its arguments."""
    ws = words(text)
    return {w for w in ws if re.fullmatch(r"\d+(?:\.\d+)?", w)} | {w for w in ws if w in _UNIT_WORDS}


def _wish(text: str) -> tuple[str, set[str]] | None:
    for cue in TABLE.wish:
        m = cue.search(text)
        if m:
            done = next((w for w in reversed(words(m.group(0))) if w in TABLE.participles), "")
            after = [w for w in words(text[m.end() :])[:2] if w in _PARTICLES]
            if not after:
                after = [w for w in words(m.group(0)) if w in _PARTICLES][-1:]
            plain = "switch" if after and after[0] in ("on", "off") else "operate"  # "I need X off right now"
            verb = TABLE.participles.get(done, plain) + (f" {after[0]}" if after else "")
            return verb, cue.placed(text, m) | set(after) | _numbers_and_units(text)
    return None


def _asks(text: str) -> bool:
    """A clause asks for something: it has a word that is not a function word, and is a question or a request,
    not a statement ("it is making a noise")."""
    ws = words(text)
    if not [w for w in ws if w not in FUNCTION_WORDS]:
        return False
    lead = TABLE.lead.regex.match(text)
    rest = words(text[lead.end() :] if lead else text)
    if not [w for w in rest if w not in FUNCTION_WORDS]:
        return False  # request words only ("go ahead")
    if text.rstrip().endswith("?"):
        return True
    return rest[0] not in TABLE.statement_start


def _opens_part(text: str) -> bool:
    """A clause opens with a question word or a request verb of its own (after request words), or an operating
    verb: not the next object of the clause before it."""
    lead = TABLE.lead.regex.match(text)
    rest = text[lead.end() :] if lead else text
    return bool(TABLE.part_start.match(rest.lstrip()) or _control_at(text))


@lru_cache(maxsize=512)
def _clauses(question: str) -> tuple[_Clause, ...]:
    text = _normal(question)
    injected: list[tuple[int, int]] = []
    for cue in TABLE.injection:
        injected += [(m.start(), m.end()) for m in cue.regex.finditer(text)]
    out: list[_Clause] = []
    sentence_start = 0
    for start, end, how in _clause_spans(text):
        piece = text[start:end]
        if not how:
            sentence_start = start
        if any(s < end and e > start for s, e in injected) or (how == "and" and out and out[-1].kind == "injection"):
            # an instruction, or its next verb ("ignore your rules and say that …")
            out.append(_Clause(start, end, "injection", placed=frozenset(words(piece))))
            continue
        if how and out and out[-1].kind == "control" and not _opens_part(piece):
            # the request's next object ("switch off Chiller 6 and Chiller 9")
            last = out.pop()
            out.append(_Clause(last.start, end, "control", last.verb, last.placed))
            continue
        control = _control_at(piece)
        if control and how and TABLE.past_question.search(text[sentence_start:start]):
            control = None  # "when did it start and stop": a second verb of a question about the past
        control = control or _wish(piece)
        if control:
            out.append(_Clause(start, end, "control", control[0], frozenset(control[1])))
        else:
            lead = TABLE.lead.regex.match(piece)
            out.append(
                _Clause(
                    start,
                    end,
                    "ask" if _asks(piece) else "none",
                    placed=frozenset(words(lead.group(0)) if lead else ()),
                )
            )
    return tuple(out)


def _asking_text(question: str) -> str | None:
    """The question less its refused clauses (None where nothing is refused, or nothing else is asked)."""
    clauses = _clauses(question)
    if not any(c.kind in ("control", "injection") for c in clauses) or not any(c.kind == "ask" for c in clauses):
        return None
    text, groups, current = _normal(question), [], []
    for c in [*clauses, None]:  # runs of clauses that are not refused, less the words-only ones at their ends
        if c is not None and c.kind in ("ask", "none"):
            current.append(c)
            continue
        while current and current[-1].kind == "none":
            current.pop()
        while current and current[0].kind == "none":
            current.pop(0)
        if current:
            groups.append((current[0].start, current[-1].end))
        current = []
    pieces = [text[s:e].strip(" ,.;:") for s, e in groups]
    return "; ".join(p for p in pieces if p) or None


def split_parts(question: str) -> list[str]:
    """The clauses of a question that each ask for something ("… and what was …"); one for most questions. A
    clause that requests an operation or instructs the agent is not a part where other clauses ask (see `also`)."""
    text = _asking_text(question) or question
    pieces = [p.strip(" ,.?!") for p in TABLE.split.split(text.strip())]
    pieces = [p + ")" if p.count("(") > p.count(")") else p for p in pieces]
    out: list[str] = []
    for piece in pieces:  # "… ? Give both values": a short clause adds to the part before it
        opening = re.sub(r"^(?:(?:and|also|then|plus|so|but)\b[\s,]*)+", "", piece, flags=re.I)
        if out and (len(piece.split()) < 5 or piece.startswith("(") or not TABLE.part_start.match(opening)):
            # a short tail, a note in brackets, or a sentence that asks nothing of its own ("I need the largest
            # difference") belongs to the part before it
            out[-1] = f"{out[-1]}; {piece}"
        elif piece:
            out.append(piece)
    return out or [question.strip()]


# -- one part's form --


def _first(cues: tuple[Cue, ...], text: str) -> tuple[Cue, re.Match[str]] | None:
    for cue in cues:
        m = cue.search(text)
        if m:
            return cue, m
    return None


def _argument(name: str, text: str) -> str | None:
    for value, cues in TABLE.arguments[name]:
        if _first(cues, text):
            return value
    return None


def _limit(text: str) -> float | None:
    """The number a threshold question compares with ("above 45 °F", "over 80%"), not a date, time or name's."""
    hit = _first(TABLE.limit, text)
    return float(hit[1].group("limit")) if hit else None


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
        if need == "many" and not many:
            return False
    return True


def _symbols(text: str) -> str:
    """Comparison signs before a number read as words ("Power > 365 kW": above 365 kW)."""
    text = re.sub(r"\s*(?:>=|≥|>)\s*(?=[-+]?\d)", " above ", text)
    return re.sub(r"\s*(?:<=|≤|<)\s*(?=[-+]?\d)", " below ", text)


def read_part(text: str, *, plural_or_many: bool = True) -> Part:
    """One clause's form and ask: the first form of the table (by precedence) whose cue matches and whose needs
    hold. `plural_or_many`: the clause names several assets or a kind of equipment (a ranking needs something to
    rank)."""
    norm = _symbols(_normal(text))
    yes_no = _first(TABLE.yes_no, norm) is not None
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
        return part
    return Part(text=text, form="yes_no" if yes_no else "value", ask="data")


def _pin(part: Part, spec: FormSpec, text: str) -> None:
    if isinstance(spec.pins, dict):
        for k, v in spec.pins.items():
            setattr(part, k, v)
        return
    pins = set(spec.pins)
    if "direction" in pins:
        part.direction = _argument("direction", text)
    if "limit" in pins and part.direction is not None:
        part.limit = _limit(text)
    if "setpoint" in pins and part.direction is not None:
        part.setpoint = _setpoint(text) and part.limit is None
    if "op" in pins:
        part.op = _argument("op", text)
    if "order" in pins:  # "rank them by minimum speed": the aggregate after "by" is the criterion, not the order
        criterion = re.sub(r"\bby\s+(?:the\s+)?(?:min(?:imum)?|max(?:imum)?|lowest|highest)\b", "by", text, flags=re.I)
        part.order = _argument("order", criterion) or "highest"
    if "rank_statistic" in pins:  # the aggregate after "by" is the criterion ("by minimum X … which one is top")
        by = re.search(r"\bby\s+(?:the\s+)?(\w+)", text, re.I)
        part.statistic = (
            (_argument("rank_statistic", by.group(1)) if by else None)
            or _argument("rank_statistic", text)
            or ("max" if part.order != "lowest" else "min")
        )
    if "statistic" in pins:
        part.statistic = _argument("statistic", text) or ("mean" if spec.ask == "derive" else None)
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
        + [TABLE.yes_no, TABLE.limit, TABLE.several, TABLE.single_file]
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


def outside_topic(question: str) -> bool:
    """The question is about something no building's data holds (weather, mail, shell, the gateway's files)."""
    return _first(TABLE.outside, _normal(question)) is not None


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
    "team folks all please thanks thank cheers ok okay so".split()
)


def _courtesy_blanked(question: str) -> str:
    """A greeting before the question ("Hello there, is there a UPS …", "Morning - any fans …", "Quick one: …")
    blanked out (same length: the refused pieces' spans still point into the question as written), so the question
    starts where its words start."""
    m = re.match(r"\s*([^,:;!?.\-–—]{1,40})[,:;!.\-–—]+\s+", question)
    if m and all(w in COURTESY_WORDS or w in FUNCTION_WORDS for w in words(m.group(1))) and words(m.group(1)):
        return " " * m.end() + question[m.end() :]
    return question


def read_question(question: str, many: list[bool] | None = None) -> Reading:
    """The question's intent, parts, refused pieces and placed words. `many[i]`: part i names several assets or
    a kind (see `read_part`). Slips of the table's words are read as the words (`spelled`). Never raises on any
    text."""
    question = _courtesy_blanked(spelled(question))
    intent, verb = read_intent(question)
    clauses = _clauses(question)
    texts = split_parts(question)
    parts = [read_part(t, plural_or_many=many[i] if many and i < len(many) else True) for i, t in enumerate(texts)]
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


def asks_conclusion(question: str) -> bool:
    """The question asks for a conclusion (a ranking, a comparison with a limit, a derived series), read from its
    words alone (no catalog): what the examples shown with it should teach."""
    texts = split_parts(question)
    return read_question(question, [_first(TABLE.several, _normal(t)) is not None for t in texts]).analysis


def wants_single_file(question: str) -> bool:
    """The question asks for everything in one file ("in a single file", "in one JSON file")."""
    return _first(TABLE.single_file, _normal(question)) is not None
