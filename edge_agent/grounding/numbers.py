"""Numbers written in words, read as the digits they stand for where they stand for one.

Dictated questions (voice to text) and many operators write numbers in words: "fermenter number seven", "chiller
two", "below minus two degrees", "at three pm", "the past three days". The reading and the linking know digits, so
`spelled_numbers` gives each such phrase and what it is read as, for `respelling.apply` (the Read-as line then says
"words read: "chiller two" as "chiller 2""). A number word is read as a number only where the text says it is one:
after a word that a SkySpark name holds before a number ("Chiller 2", "AHU-3": "chiller two", "ahu three"), with or
without "number"/"no" between; after "minus"/"negative"; before a unit, a clock word or a unit of time. Elsewhere
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


def numbered_words(names: Iterable[str]) -> frozenset[str]:
    """The words that stand right before a number in the names ("Chiller 2", "AHU-3", "Fermenter 07")."""
    return frozenset(
        m.group(1).casefold() for n in names for m in re.finditer(r"([^\W\d_]+)[\s_\-.#]*\d+(?![^\W\d_])", n)
    )


def spelled_numbers(question: str, numbered: frozenset[str]) -> dict[str, str]:
    """The phrases of `question` that write a number in words where it stands for one → the same with digits."""
    out: dict[str, str] = {}
    for m in re.finditer(rf"\b([^\W\d_]+)\s+(?:(?:number|no\.?|num|#)\s*)?({NUMBER})\b", question, re.I):
        if m.group(1).casefold() in numbered:  # "fermenter number seven", "chiller two"
            out[m.group(0)] = f"{m.group(1)} {value(m.group(2))}"
    for m in re.finditer(rf"\b(?:minus|negative)\s+({NUMBER})\b", question, re.I):  # "minus two degrees"
        out[m.group(0)] = f"-{value(m.group(1))}"
    for m in re.finditer(rf"\b({NUMBER})\s+([\w.'%°/³²]+)", question, re.I):  # "three pm", "forty kW", "two days"
        if any(m.group(1).casefold() in k.casefold() for k in out):
            continue  # "minus two degrees": read as a whole above
        if m.group(2).casefold() in _WORDS_AFTER or fieldvocab.quantity_of_unit(m.group(2)) is not None:
            out[m.group(0)] = f"{value(m.group(1))} {m.group(2)}"
    return {k: v for k, v in out.items() if k != v}
