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
_HUNDREDS = rf"(?:(?:{_SMALL}|a)\s+hundred(?:\s+(?:and\s+)?{_SMALL})?|{_SMALL})"
_DIGIT = rf"(?:{'|'.join(_ONES[:10])}|oh)"
#: a number in words up to 999,999, with its decimals said digit by digit: "seven", "twenty-one", "two hundred and
#: fifty", "two thousand five hundred", "a thousand", "seven point five", "zero point two five"
NUMBER = (
    rf"(?:(?:{_HUNDREDS}|a)\s+thousand(?:\s+(?:and\s+)?{_HUNDREDS})?|{_HUNDREDS})"
    rf"(?:\s+point(?:\s+{_DIGIT})+)?"
)
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


#: a clock time said as two numbers, hour then minutes, where a part of the day or a day follows ("six thirty this
#: morning", "seven forty-five pm", "five oh five yesterday evening")
_CLOCK_MINUTES = re.compile(
    rf"\b({'|'.join(_ONES[1:13])})[\s-]+((?:o[h']?\s+)?{_SMALL})"
    r"(?=\s+(?:a\.?m\.?|p\.?m\.?|this\s+(?:morning|afternoon|evening)|in\s+the\s+(?:morning|afternoon|evening)|"
    r"tonight|last\s+night|yesterday|today|on\b))",
    re.I,
)


def ordinal_value(words: str) -> int:
    """The value of an ordinal in words ("twenty-third" → 23)."""
    parts = re.split(r"[\s-]+", words.casefold())
    return sum(_TENS.get(p, 0) for p in parts[:-1]) + _ORDS[parts[-1]]


def _ordinal(n: int) -> str:
    return f"{n}{'th' if 10 <= n % 100 <= 20 else {1: 'st', 2: 'nd', 3: 'rd'}.get(n % 10, 'th')}"


def value(words: str) -> int | float:
    """The value of a number in words ("twenty-one" → 21, "two hundred and five" → 205, "two thousand five hundred"
    → 2500, "seven point five" → 7.5)."""
    whole, _, decimals = re.sub(r"\s+", " ", words.casefold()).partition(" point ")
    total, current = 0, 0
    for w in re.split(r"[\s-]+", whole):
        if w in _ONES:
            current += _ONES.index(w)
        elif w in _TENS:
            current += _TENS[w]
        elif w == "hundred":
            current = max(current, 1) * 100
        elif w == "thousand":
            total, current = total + max(current, 1) * 1000, 0
    if not decimals:
        return total + current
    digits = "".join("0" if d == "oh" else str(_ONES.index(d)) for d in decimals.split())
    return float(f"{total + current}.{digits}")


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


#: a number (in words or digits) and the up to four words after it (not taken: the next number may be among them)
_A_NUMBER_THEN_WORDS = re.compile(
    rf"(?<![\d.,])\b({NUMBER}|(?:\d{{1,3}}(?:,\d{{3}})+|\d+)(?:\.\d+)?)\s+"
    r"(?=([\w.'%°/³²]+(?:\s+[^\W\d_]+){0,3}))",
    re.I,
)
_HOMOPHONES = {"to": 2, "too": 2, "for": 4}
#: the words after "boiler to" that make it Boiler 2 (a verb of its state or nothing), never "to the", "for last week"
_AFTER_A_NAME = frozenset("was is were has had did does running tripped trip at in on and or ? . !".split()) | {""}


def spelled_numbers(
    question: str, numbered: frozenset[str], names: Iterable[str] = (), point_words: frozenset[str] = frozenset()
) -> dict[str, str]:
    """The phrases of `question` that write a number in words where it stands for one → the same with digits (a name's
    own spelling where `names` holds one with that word and number: "CRAH three" → "CRAH-03"). `point_words`: the
    words of the SkySpark's point names, after which a dictated "to" or "for" is a number ("boiler to steam flow")."""
    out: dict[str, str] = {}
    spelt: dict[tuple[str, int | float], str] = {}
    for name in names:
        if code := re.fullmatch(r"([^\W\d_]+)[\s_\-.#]*(\d+)", name):
            spelt.setdefault((code.group(1).casefold(), int(code.group(2))), name)
    for m in re.finditer(rf"\b([^\W\d_]+)\s+(?:(?:number|no\.?|num|#)\s*)?({NUMBER})\b", question, re.I):
        if m.group(1).casefold() in numbered:  # "fermenter number seven", "chiller two"
            number = value(m.group(2))
            out[m.group(0)] = spelt.get((m.group(1).casefold(), number), f"{m.group(1)} {number}")
    for m in re.finditer(r"\b([^\W\d_]+)\s+(to|too|for)\b\s*([^\W\d_]+|[?.!]|$)", question, re.I):
        # dictation's homophone of a number after a name's word ("boiler to steam flow", "is chiller for running"):
        # only where the SkySpark holds that name and a point's word or a verb follows
        heard = spelt.get((m.group(1).casefold(), _HOMOPHONES[m.group(2).casefold()]))
        after = m.group(3).casefold()
        if heard and m.group(1).casefold() in numbered and (after in _AFTER_A_NAME or after in point_words):
            out[f"{m.group(1)} {m.group(2)}"] = heard
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
    for m in re.finditer(rf"\b({NUMBER})-(minutes?|min|hours?|hr|seconds?|days?|weeks?)\b", question, re.I):
        out[m.group(0)] = f"{value(m.group(1))}-{m.group(2)}"  # "fifteen-minute values", "twenty-four-hour"
    for m in re.finditer(_CLOCK_MINUTES, question):  # "six thirty this morning", "seven forty-five pm": 6:30, 7:45
        hour, minutes = value(m.group(1)), value(m.group(2).replace("oh ", "").replace("o ", ""))
        if isinstance(hour, int) and 1 <= hour <= 12 and isinstance(minutes, int) and 0 < minutes < 60:
            out[m.group(0)] = f"{hour}:{minutes:02d}"
    for m in re.finditer(rf"\b(?:including|inclusive\s+of|incl\.?|up\s+to)\s+(?:the\s+)?({ORDINAL})\b", question, re.I):
        out[m.group(0)] = m.group(0).replace(m.group(1), _ordinal(ordinal_value(m.group(1))))  # "including the 11th"
    for m in re.finditer(_ORDINAL_DATE, question):  # "the twenty first to the twenty third of september"
        out[m.group(0)] = re.sub(ORDINAL, lambda o: _ordinal(ordinal_value(o.group(0))), m.group(0), flags=re.I)
    for m in re.finditer(_A_NUMBER_THEN_WORDS, question):
        if any(m.group(1).casefold() in k.casefold() for k in out):
            continue  # "minus two degrees": read as a whole above
        said_number = m.group(1) if m.group(1)[0].isdigit() else value(m.group(1))  # "three pm", "forty kW"
        if said := _unit_said(m.group(2)):  # "twenty five kilowatts", "2 gallons per minute": the unit's symbol
            out[f"{m.group(1)} {said[0]}"] = f"{said_number} {said[1]}"
        elif not m.group(1)[0].isdigit():
            unit = m.group(2).split()[0]
            if unit.casefold() in _WORDS_AFTER or fieldvocab.quantity_of_unit(unit) is not None:
                out[f"{m.group(1)} {unit}"] = f"{said_number} {unit}"
    return {k: v for k, v in out.items() if k != v and k in question}


def _unit_said(words: str) -> tuple[str, str] | None:
    """The longest run of `words`' first words that names a unit in letters ("kilowatts", "gallons per minute") and
    the unit's symbol; None where the words start with no unit's name (a symbol as written stays as it is)."""
    parts = words.split()
    if not parts or parts[0].casefold() in _WORDS_AFTER:  # "three days", "two hours": a time, not a unit's symbol
        return None
    for n in range(len(parts), 0, -1):
        said = " ".join(parts[:n])
        if len(said) < 5:  # "gpm", "amps": a short form the limit's reading knows as it is
            return None
        if said.isascii() and said.replace(" ", "").isalpha() and (symbol := fieldvocab.unit_symbol(said)):
            if symbol.casefold() != said.casefold():
                return said, symbol
    return None
