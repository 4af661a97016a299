"""Numbers written in words, read as the digits they stand for where they stand for one.

Dictated questions (voice to text) and many operators write numbers in words: "fermenter number seven", "chiller
two", "below minus two degrees", "at three pm", "the past three days". The reading and the linking know digits, so
`spelled_numbers` gives each such phrase and what it is read as, for `respelling.apply` (the Read-as line then says
"words read: "chiller two" as "chiller 2""). A number word is read as a number only where the text says it is one:
after a word that a SkySpark name holds before a number ("Chiller 2", "AHU-3": "chiller two", "ahu three"), with or
without "number"/"no" between; after "minus"/"negative"; before a unit, a clock word or a unit of time; a clock hour
("three in the morning", "at six this morning"); a day of the month said as an ordinal in a date ("from the twenty
first to the twenty third of september"). Elsewhere
("which one", "the one with", "one of the pumps") a number word stays a word.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from edge_agent.grounding import fieldvocab

_ONES = "zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen sixteen".split()
_ONES += "seventeen eighteen nineteen".split()
_TENS = {"twenty": 20, "thirty": 30, "forty": 40, "fifty": 50, "sixty": 60, "seventy": 70, "eighty": 80, "ninety": 90}
_UNIT = "|".join(_ONES[1:10])
_SMALL = rf"(?:(?:{'|'.join(_TENS)})(?:[\s-](?:{_UNIT}))?|{'|'.join(_ONES)})"
#: a number in words up to 999: "seven", "twenty one", "twenty-one", "two hundred and fifty"
NUMBER = rf"(?:(?:{_SMALL}\s+hundred(?:\s+(?:and\s+)?{_SMALL})?)|{_SMALL})"
_WORDS_AFTER = frozenset(
    "am pm a.m. p.m. o'clock oclock degree degrees deg percent pct hour hours hr hrs minute minutes min mins "
    "second seconds day days week weeks month months year years".split()
)


_ORDS = dict(
    zip(
        "first second third fourth fifth sixth seventh eighth ninth tenth eleventh twelfth thirteenth fourteenth "
        "fifteenth sixteenth seventeenth eighteenth nineteenth twentieth".split(),
        range(1, 21),
    )
)
_ORDS["thirtieth"] = 30
#: a day of the month in words: "first" … "thirty-first"
ORDINAL = rf"(?:(?:twenty|thirty)[\s-](?:{'|'.join(list(_ORDS)[:9])})|{'|'.join(_ORDS)})"
_MONTH = r"(?:jan|feb|mar|apr|may|jun|jul|aug|sep|sept|oct|nov|dec)[a-z]*"
#: ordinals in words in a date: "the twenty first to the twenty third of september", "october the first"
_ORDINAL_DATE = re.compile(
    rf"\b(?:the\s+)?{ORDINAL}(?:\s+(?:to|through|till|until|and|-)\s+(?:the\s+)?{ORDINAL})?\s+(?:of\s+)?{_MONTH}\b"
    rf"|\b{_MONTH}\s+(?:the\s+)?{ORDINAL}\b",
    re.I,
)


def ordinal_value(words: str) -> int:
    """The value of an ordinal in words ("twenty-third" → 23)."""
    parts = re.split(r"[\s-]+", words.casefold())
    return sum(_TENS.get(p, 0) for p in parts[:-1]) + _ORDS[parts[-1]]


def _ordinal(n: int) -> str:
    return f"{n}{'th' if 10 <= n % 100 <= 20 else {1: 'st', 2: 'nd', 3: 'rd'}.get(n % 10, 'th')}"


def value(words: str) -> int:
    """The value of a number in words ("twenty-one" → 21, "two hundred and five" → 205)."""
    total, current = 0, 0
    for w in re.split(r"[\s-]+", words.casefold()):
        if w in _ONES:
            current += _ONES.index(w)
        elif w in _TENS:
            current += _TENS[w]
        elif w == "hundred":
            current = max(current, 1) * 100
    return total + current


#: units as a voice writes them out → their symbols ("kilowatt hours" → kWh, "cubic meters" → m³)
_UNITS_SAID = (
    (r"kilo\s?watt[\s-]+hours?", "kWh"),
    (r"mega\s?watt[\s-]+hours?", "MWh"),
    (r"cubic\s+met(?:er|re)s?", "m³"),
    (r"cubic\s+f(?:ee|oo)t", "ft³"),
    (r"degrees?\s+(?:celsius|centigrade)", "°C"),
    (r"degrees?\s+fahrenheit", "°F"),
)


def spelled_units(question: str) -> dict[str, str]:
    """The units the question writes out in words → their symbols, as a SkySpark writes them."""
    out = {}
    for pattern, symbol in _UNITS_SAID:
        for m in re.finditer(rf"\b{pattern}\b", question, re.I):
            out[m.group(0)] = symbol
    return out


def numbered_words(names: Iterable[str]) -> frozenset[str]:
    """The words that stand right before a number in the names ("Chiller 2", "AHU-3", "Fermenter 07")."""
    return frozenset(
        m.group(1).casefold() for n in names for m in re.finditer(r"([^\W\d_]+)[\s_\-.#]*\d+(?![^\W\d_])", n)
    )


def spelled_numbers(question: str, numbered: frozenset[str], names: Iterable[str] = ()) -> dict[str, str]:
    """The phrases of `question` that write a number in words where it stands for one → the same with digits (a name's
    own spelling where `names` holds one with that word and number: "CRAH three" → "CRAH-03")."""
    out: dict[str, str] = {}
    spelt: dict[tuple[str, int], str] = {}
    for name in names:
        if code := re.fullmatch(r"([^\W\d_]+)[\s_\-.#]*(\d+)", name):
            spelt.setdefault((code.group(1).casefold(), int(code.group(2))), name)
    for m in re.finditer(rf"\b([^\W\d_]+)\s+(?:(?:number|no\.?|num|#)\s*)?({NUMBER})\b", question, re.I):
        if m.group(1).casefold() in numbered:  # "fermenter number seven", "chiller two"
            number = value(m.group(2))
            out[m.group(0)] = spelt.get((m.group(1).casefold(), number), f"{m.group(1)} {number}")
    for m in re.finditer(rf"\b(?:minus|negative)\s+({NUMBER})\b", question, re.I):  # "minus two degrees"
        out[m.group(0)] = f"-{value(m.group(1))}"
    clock = rf"\b({NUMBER})\s+(?:o['’]?clock\s+)?in\s+the\s+(morning|afternoon|evening)\b"
    for m in re.finditer(clock, question, re.I):  # "three in the morning": 3 am
        out[m.group(0)] = f"{value(m.group(1))} {'am' if m.group(2).casefold() == 'morning' else 'pm'}"
    for m in re.finditer(  # "at six this morning", "at seven tonight": the clock hour
        rf"\b(?:at|by|around|about)\s+({NUMBER})(?=\s+(?:this\s+(?:morning|afternoon|evening)|tonight|last\s+night|"
        r"yesterday|today|on\b|o['’]?clock))",
        question,
        re.I,
    ):
        if not any(m.group(1).casefold() in k.casefold() for k in out):
            out[m.group(0)] = f"{m.group(0)[: m.start(1) - m.start()]}{value(m.group(1))}"
    for m in re.finditer(_ORDINAL_DATE, question):  # "the twenty first to the twenty third of september"
        out[m.group(0)] = re.sub(ORDINAL, lambda o: _ordinal(ordinal_value(o.group(0))), m.group(0), flags=re.I)
    for m in re.finditer(rf"\b({NUMBER})\s+([\w.'%°/³²]+)", question, re.I):  # "three pm", "forty kW", "two days"
        if any(m.group(1).casefold() in k.casefold() for k in out):
            continue  # "minus two degrees": read as a whole above
        if m.group(2).casefold() in _WORDS_AFTER or fieldvocab.quantity_of_unit(m.group(2)) is not None:
            out[m.group(0)] = f"{value(m.group(1))} {m.group(2)}"
    return {k: v for k, v in out.items() if k != v}
