"""How the checker reads an answer's words: a name mentioned as a whole name (`mention_at`, `mentions`: not inside
a longer name of the catalog), and the numbers an answer states (`numbers_in`: dates, times, file names and
entity names left out, so "Chiller 6" is not the number 6). Pure functions of text.
"""

from __future__ import annotations

import re
from collections.abc import Iterable


def norm(text: str) -> str:
    """Case-folded, with runs of spaces, underscores and hyphens made one space."""
    return re.sub(r"[\s_\-]+", " ", str(text).casefold()).strip()


def _spans(text_norm: str, needle: str) -> list[tuple[int, int]]:
    return [m.span() for m in re.finditer(r"(?<![a-z0-9])" + re.escape(needle) + r"(?![a-z0-9])", text_norm)]


def mention_at(answer: str, name: str, others: Iterable[str] = ()) -> int | None:
    """Where `answer` first names `name` as a whole name, or None. An occurrence inside an occurrence of a
    longer name among `others` (the catalog's names) is not a mention: "North Chiller 1" does not name
    "Chiller 1", and "Chiller 6" is not found in "Chiller 60"."""
    needle = norm(name)
    if not needle:
        return None
    text = norm(answer)
    found = _spans(text, needle)
    if not found:
        return None
    covers = [
        span
        for other in {norm(o) for o in others}
        if len(other) > len(needle) and needle in other
        for span in _spans(text, other)
    ]
    for start, end in found:
        if not any(a <= start and end <= b for a, b in covers):
            return start
    return None


def mentions(answer: str, name: str, others: Iterable[str] = ()) -> bool:
    """`name` occurs in `answer` as a whole name, not only inside a longer name of `others`."""
    return mention_at(answer, name, others) is not None


_MONTH = r"(?:jan|feb|mar|apr|may|jun|jul|aug|sep|sept|oct|nov|dec)[a-z]*\.?"
NOT_NUMBERS = [
    r"\d{4}-\d{1,2}-\d{1,2}(?:[T ]\d{1,2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:?\d{2})?)?",  # ISO dates
    r"\b\d{1,2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:\s*[ap]\.?m\.?)?",  # times of day
    r"\b\d{1,2}/\d{1,2}/\d{2,4}\b",  # 6/14/16
    # day first before month first: in "1 June 2020" the month-first form would take "June 20" and leave "20"
    rf"\b\d{{1,2}}(?:st|nd|rd|th)?\s+(?:of\s+)?{_MONTH}(?:,?\s+'?\d{{2,4}})?",  # 13 January 2023
    rf"\b{_MONTH}\s+\d{{1,2}}(?:st|nd|rd|th)?(?:,?\s+'?\d{{2,4}})?(?!\d)",  # jan 13 '23, June 1, 2020
    r"\b[\w.-]+\.json\b",  # file names
    r"UTC\s*[+-]\d{1,4}",
]
_NUMBER = re.compile(
    r"(?:(?<![\w.])-)?(?<![\w.])(?:\d{1,3}(?:,\d{3})+|\d+)(?:\.\d+)?(?:[eE][-+]?\d+)?(?!\d)"
    r"|(?:(?<![\w.])-)?(?<![\w\d])\.\d+"
)
NUMBER_WORDS = {
    w: i
    for i, w in enumerate(
        "zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen sixteen "
        "seventeen eighteen nineteen twenty".split()
    )
}


def numbers_in(answer: str, names: Iterable[str] = ()) -> list[float]:
    """The numbers an answer states, leaving out dates, times, file names and the given entity names
    (so "Chiller 6" or "B020_Total" do not count as the number 6 or 20)."""
    text = str(answer)
    for name in sorted(set(names), key=len, reverse=True):
        if name:
            pattern = r"[\s_\-]+".join(re.escape(part) for part in re.split(r"[\s_\-]+", name.strip()))
            text = re.sub(pattern, " ", text, flags=re.I)
    for pattern in NOT_NUMBERS:
        text = re.sub(pattern, " ", text, flags=re.I)
    out = [float(m.group(0).replace(",", "")) for m in _NUMBER.finditer(text)]
    out += [float(NUMBER_WORDS[w]) for w in re.findall(r"[a-z]+", text.casefold()) if w in NUMBER_WORDS]
    return out
