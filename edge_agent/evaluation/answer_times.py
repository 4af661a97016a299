"""The dates and times an answer states, as the checker reads them: calendar dates in ISO and written forms
(`dates_in`, `dates_outside` a window) and instants (`times_in`: ISO date-times, clock times such as "4:15 pm",
"noon"). Pure functions of text.
"""

from __future__ import annotations

import re
from datetime import date, datetime

_MONTHS = {m: i + 1 for i, m in enumerate("jan feb mar apr may jun jul aug sep oct nov dec".split())}
_MONTH_NAME = r"(jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\.?"
_DATE_FORMS = [
    (re.compile(r"(?<!\d)(\d{4})-(\d{1,2})-(\d{1,2})(?!\d)"), lambda m: (int(m[1]), int(m[2]), int(m[3]))),
    (
        re.compile(rf"\b{_MONTH_NAME}\s+(\d{{1,2}})(?:st|nd|rd|th)?\b(?:,?\s+'?(\d{{4}}|\d{{2}})\b)?", re.I),
        lambda m: (m[3], _MONTHS[m[1][:3].casefold()], int(m[2])),
    ),
    (
        re.compile(rf"\b(\d{{1,2}})(?:st|nd|rd|th)?\s+(?:of\s+)?{_MONTH_NAME}(?:,?\s+'?(\d{{4}}|\d{{2}})\b)?", re.I),
        lambda m: (m[3], _MONTHS[m[2][:3].casefold()], int(m[1])),
    ),
]


def dates_in(text: str, year: int) -> list[tuple[int, date]]:
    """The calendar dates `text` states (ISO, "June 1, 2020", "1 June 2020", "1st of June"), with their
    positions; a date without a year is in `year`."""
    out = []
    for pattern, parts in _DATE_FORMS:
        for m in pattern.finditer(text):
            y, mo, d = parts(m)
            y = year if y is None else int(y) if len(str(y)) == 4 else 2000 + int(y)
            try:
                out.append((m.start(), date(int(y), mo, d)))
            except ValueError:
                continue
    return sorted(set(out))


def dates_outside(answer: str, start: datetime, end: datetime) -> list[date]:
    """Dates the answer states that lie outside [start's date, end's date] (each in its own offset)."""
    lo, hi = start.date(), end.date()
    return [d for _, d in dates_in(answer, start.year) if not lo <= d <= hi]


ISO_DATETIME = re.compile(r"(\d{4}-\d{2}-\d{2})[T ](\d{1,2}):(\d{2})(?::\d{2}(?:\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?")
_CLOCK = re.compile(
    r"(?<![\d:])(\d{1,2})(?::(\d{2}))(?::\d{2})?\s*(?:([ap])\.?\s?m\.?\b)?|(?<![\d:])(\d{1,2})\s*([ap])\.?\s?m\b\.?"
    r"|\b(noon|midday|midnight)\b",
    re.I,
)


def times_in(text: str) -> tuple[list[datetime], list[int]]:
    """The instants `text` states: ISO date-times (naive = site-local wall time; with an offset: aware) and
    clock times without a date (minutes after midnight: "16:15", "4:15 pm", "4 pm", "noon")."""
    instants = []
    for m in ISO_DATETIME.finditer(text):
        stamp = f"{m[1]}T{int(m[2]):02d}:{m[3]}" + ((m[4].replace("Z", "+00:00")) if m[4] else "")
        try:
            instants.append(datetime.fromisoformat(stamp))
        except ValueError:
            continue
    rest = ISO_DATETIME.sub(" ", text)
    clocks = []
    for m in _CLOCK.finditer(rest):
        if m[6]:
            clocks.append(0 if m[6].casefold() == "midnight" else 720)
            continue
        h = int(m[1] or m[4])
        minute = int(m[2] or 0)
        half = (m[3] or m[5] or "").casefold()
        if h > 23 or minute > 59 or (half and not 1 <= h <= 12):
            continue
        if half:
            h = h % 12 + (12 if half == "p" else 0)
        clocks.append(h * 60 + minute)
    return instants, clocks
