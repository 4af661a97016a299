"""The question forms table (`vocab/forms.yaml`) as the reading uses it: its schema, its cues compiled to regular
expressions, and the words it knows.

The file is a boundary: `FormsTable` validates it at import, so a bad entry is a clear error naming it. Its cues are
word sequences with optional words, gaps and slots (see the file's header), compiled once by `_Compiler` into `Cue`s;
`TABLE` holds the compiled table, `CUE_WORDS` every literal word of its cues, `FUNCTION_WORDS` the English function
words it lists, and `words` splits a text into words as the reading counts them. `grounding.question` reads a
question with it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

import yaml
from pydantic import BaseModel, ConfigDict, Field, field_validator

from edge_agent.grounding.fieldvocab import kinds_named, unit_words

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
Need = Literal[
    "direction", "limit_or_setpoint", "setpoint_no_limit", "many", "no_excursion", "kind_plural", "counted_thing"
]
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
    not_yes_no: list[str] = []  # an auxiliary that opens a request, not a yes/no question ("could you tell me …")
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
    statement_verb: list[str]
    past_question: list[str]
    wish: list[str]
    function_words: str
    data_words: str
    #: what a speaker says while thinking ("and um how long …"): placed, and no obstacle to a new part
    fillers: list[str] = []
    informal: dict[str, list[str]] = {}  # a word as operators type it in a hurry ("wat", "r"): read as the word
    #: general words' short forms ("yday", "thru", "pts"): a question whose words nothing placed holds one is read again
    #: with the words written out (`grounding.run.Grounding.build`), and the run says so
    short_forms: dict[str, list[str]] = {}

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
_LEAD = (
    r"^\W*(?:(?:and|so|also|then|but|tell\s+me|please|pls|plz|now|ok|okay|hey|hi|hello|hiya|sorry|um+|uh+|er+|erm|oh|"
    r"well)\W+)*"
)
_UNITS = r"°\s*[CF]|degrees?|deg|%|percent|kw|kwh|tons?|tonref|psi|pa|cfm|gpm|ppm|[a-z]{0,6}"
_BUILTIN = {
    "num": r"(?<![\w.])\d+(?:\.\d+)?(?!\w)",
    "ordinal": r"\d+(?:st|nd|rd|th)(?!\w)",
    "isodate": r"\d{4}-\d{2}-\d{2}(?:[T ][\d:]+)?",
    "year": r"(?:19|20)\d\d(?!\w)",
    "coded": r"[^\W\d_]*\d[\w-]*",
    # a rate's unit glued on ("4.5mm/s"), never a number cut before its decimals ("4" of "4.5mm/s")
    # "in the past 3 days": a span of time, never a limit
    "limit": rf"(?<![\w.:/,-])(?P<limit>-?(?:\d{{1,3}}(?:,\d{{3}})+|\d+)(?:\.\d+)?)"
    r"(?!\s*(?:days?|weeks?|wks?|fortnights?|months?|years?)\b)\s*"
    rf"(?P<unit>(?:{_UNITS})(?:/[a-z]{{1,3}})?)?(?![\w:/-]|\.\d)",
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


#: a superlative that opens a compound ("hardest-working", "best-performing", "least-loaded"): read as two words
_SUPERLATIVE_COMPOUND = re.compile(r"(?<=[a-z](?:est|ost))-(?=[a-z])|(?<=\bleast)-(?=[a-z])", re.I)


def _normal(text: str) -> str:
    """The text as cues read it (the same length: spans into it point into the question as written)."""
    return _SUPERLATIVE_COMPOUND.sub(" ", text.replace("\u2019", "'").replace("\u2018", "'"))


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
            if w in self.words or any(w.startswith(s) or (s[:1] == "*" and s[1:] in w) for s in self.stems):
                out.add(w)
        if "limit" in self.regex.groupindex and m.group("limit"):
            out.add(m.group("limit").lstrip("-"))
            out.update(p for p in re.split(r"[,.]", m.group("limit").lstrip("-")) if p)  # "3,000": words 3 and 000
            unit = (m.group("unit") or "").casefold()
            out |= {u for u in words(unit) if u in _UNIT_WORDS}
        return out


class _Compiler:
    def __init__(
        self, slots: dict[str, list[str]], refs: dict[str, list[str]], informal: dict[str, list[str]] | None = None
    ):
        self.slots, self.refs, self.informal = slots, refs, informal or {}
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
                if alt == "<period>":  # "what fraction of yesterday's load": a possessive period qualifies a noun
                    body = rf"(?:{body})(?!'s\b)"
                alts.append(body)
                ws |= w
                ss |= s
                continue
            pieces = []
            for word in alt.split("_"):
                if (
                    word.startswith("*") and len(word) > 1
                ):  # "*setpoint*": a word holding it ("leavingwatertempsetpoint")
                    core = word.strip("*")
                    pieces.append(r"[\w'-]*" + re.escape(core) + (r"[\w'-]*" if word.endswith("*") else ""))
                    ss.add("*" + core.casefold())
                elif word.endswith("*") and len(word) > 1:
                    pieces.append(re.escape(word[:-1]) + r"[\w'-]*")
                    ss.add(word[:-1].casefold())
                else:
                    typed = self.informal.get(word.casefold(), [])
                    pieces.append(
                        "(?:" + "|".join(re.escape(w) for w in [word, *typed]) + ")" if typed else re.escape(word)
                    )
                    ws |= set(words(word)) | set(typed)
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
    not_yes_no: tuple[Cue, ...]
    arguments: dict[str, tuple[tuple[str, tuple[Cue, ...]], ...]]
    limit: tuple[Cue, ...]
    basis: tuple[Cue, ...]  # "going by the", "by": the aggregate named after it is the one compared
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
    statement_verb: frozenset[str]
    past_question: Cue
    wish: tuple[Cue, ...]
    participles: dict[str, str]
    function_words: frozenset[str]
    setpoint: re.Pattern[str]
    period: re.Pattern[str]
    verb_forms: frozenset[str]  # every form of the operating verbs: base, -s, -ing, participle
    data_words: frozenset[str]
    amount: Cue  # "how many kwh", "how many gallons": an amount in a unit, not a count of things
    short_forms: dict[str, str]  # a short form as typed → the words it stands for


def _load(path: Path = FORMS_FILE) -> _Table:
    global FUNCTION_WORDS
    raw = FormsTable.model_validate(yaml.safe_load(path.read_text(encoding="utf-8")))
    FUNCTION_WORDS = frozenset(raw.function_words.split()) | frozenset(
        raw.fillers
    )  # before any cue: `words` keeps their contractions
    FUNCTION_WORDS |= {t for w, typed in raw.informal.items() if w in FUNCTION_WORDS for t in typed}
    slots = dict(raw.slots)
    slots["done"] = [v.done for v in raw.operating_verbs]
    slots["unit"] = _unit_words()
    op, limit, basis = raw.arguments["op"], raw.arguments["limit"], raw.arguments["basis"]
    if not isinstance(op, dict) or not isinstance(limit, list) or not isinstance(basis, list):
        raise ValueError(
            "forms table: `arguments.op` maps each operation to its cues; `arguments.limit`, `.basis` list cues"
        )
    op_cues = [c for cues in op.values() for c in cues]
    comp = _Compiler(slots, {"yes_no": raw.yes_no, "op": op_cues}, raw.informal)
    args: dict[str, tuple[tuple[str, tuple[Cue, ...]], ...]] = {}
    for name, values in raw.arguments.items():
        if isinstance(values, dict):
            args[name] = tuple((value, comp.cues(cues)) for value, cues in values.items())
    starts = "|".join(re.escape(w) for w in raw.part_start if not w.startswith("the "))
    # a noun phrase ("the number of …", "the highest …") starts a part only after a comma: "the number of AHUs,
    # and the highest fan speed" is two; "the highest and the lowest temperature" is one
    phrases = "|".join(re.escape(w) for w in raw.part_start if w.startswith("the "))
    part_start = re.compile(rf"(?:{starts}{'|' + phrases if phrases else ''})\b", re.I)
    fill = rf"(?:(?:{'|'.join(re.escape(w) for w in raw.fillers)})\W+)*" if raw.fillers else ""
    split = re.compile(
        rf"(?:\?\s+|;\s*|,?\s+(?:and|also|then|plus|n|&)\s+(?:also\s+)?{fill}(?=(?:{starts})\b)"
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
        not_yes_no=comp.cues(raw.not_yes_no),
        arguments=args,
        limit=comp.cues(limit),
        basis=comp.cues(basis),
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
        statement_verb=frozenset(raw.statement_verb),
        past_question=past,
        wish=comp.cues(raw.wish),
        participles={v.done: v.verb for v in raw.operating_verbs},
        function_words=function_words,
        setpoint=re.compile(rf"(?<!\w){comp.slot('setpoint')[0]}(?!\w)", re.I),
        period=re.compile(rf"(?<!\w){comp.slot('period')[0]}(?!\w)", re.I),
        data_words=frozenset(raw.data_words.split()),
        amount=comp.cue("how many <unit>")[0],
        verb_forms=frozenset(f for v in raw.operating_verbs for f in _inflections(v.verb, v.done)),
        short_forms={typed.casefold(): word for word, forms in raw.short_forms.items() for typed in forms},
    )


def _unit_words() -> list[str]:
    """The `<unit>` slot: every unit the field's unit database names in letters ("kwh", "gallons", "tonref"),
    singular and plural ("how many kwh", "how many gallons" ask an amount, not a count of things)."""
    # a unit that is also a kind of equipment is the equipment after "how many": "how many meters does S have"
    return sorted({w for u in unit_words() for w in (u, u + "s") if not kinds_named(w)})


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
            TABLE.basis,
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

#: the literal words of the cues of topics no building's data holds ("hotel", "weather"): in a capitalised place name
#: ("the Eastgate Hotel") they are part of the name
OUTSIDE_WORDS: frozenset[str] = frozenset(w for c in TABLE.outside for w in c.words)
