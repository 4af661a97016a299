"""The day a site's clocks changed, said as an event ("the Sunday the clocks went back", "the week the clocks went
forward", "when daylight saving ended").

Operators name the day of a daylight-saving change by the change, not its date. Which day that is depends on the site's
time zone (the SkySpark's `tz`), so code reads it from the zone's own transitions: the latest change before now in the
direction said (back: the offset falls; forward: it rises). `dated` writes the date in place of the phrase, so the
period is resolved as if the question had said it ("the week of 25 October 2026"), and says what it read.
"""

from __future__ import annotations

import re
from datetime import date, datetime, timedelta
from zoneinfo import ZoneInfo

#: the change as people say it, with what it dates: a day (the default), or the week it fell in
_CHANGE = re.compile(  # a day or a week named by the change, or "when" it happened (not a statement that it did)
    r"(?:\bthe\s+)?(?:(?P<unit>sunday|day|date|night|weekend|week)\s+(?:(?:that|when|on\s+which|in\s+which)\s+)?"
    r"|(?:when|after|before|since)\s+)"
    r"(?:(?:the|our|its|their)\s+)?(?:clocks?\s+(?:went|go|were\s+put|got\s+put|changed|moved|sprang|sprung|fell|"
    r"jumped)\s+(?P<dir>back|forward|ahead)|(?P<dst>daylight\s+sav(?:ing|ings)|dst|summer\s+time)\s+"
    r"(?P<how>ended|ends|started|starts|began|begins|kicked\s+in))\b",
    re.I,
)
_BACK = ("back", "ended", "ends")


def names_a_change(question: str) -> bool:
    return _CHANGE.search(question) is not None


def _changes(tz: ZoneInfo, now: datetime) -> list[tuple[date, bool]]:
    """The days of the zone's offset changes in the 400 days before `now`, each with whether the clocks went back."""
    out = []
    day = (now.astimezone(tz) - timedelta(days=400)).date()
    last = datetime(day.year, day.month, day.day, 12, tzinfo=tz).utcoffset()
    while day <= now.astimezone(tz).date():
        day += timedelta(days=1)
        offset = datetime(day.year, day.month, day.day, 12, tzinfo=tz).utcoffset()
        if offset != last and offset is not None and last is not None:
            out.append((day, offset < last))
        last = offset
    return out


def dated(question: str, tz: ZoneInfo, now: datetime) -> tuple[str, str]:
    """The question with a clock change it names written as its date ("the Sunday the clocks went back" → "25 October
    2026", "the week the clocks went back" → "the week of 25 October 2026"), and what was read ('' where it names
    none, or the zone had no such change in the year before)."""
    m = _CHANGE.search(question)
    if m is None:
        return question, ""
    back = (m["dir"] or m["how"] or "").casefold().split()[0] in _BACK
    days = [d for d, went_back in _changes(tz, now) if went_back == back]
    if not days:
        return question, ""
    day = days[-1]
    unit = (m["unit"] or "").casefold()
    if unit == "week":  # the Monday-to-Sunday week it fell in
        monday = day - timedelta(days=day.weekday())
        written = f"the week of {monday.day} {monday.strftime('%B %Y')}"
    else:
        written = f"{day.day} {day.strftime('%B %Y')}"
    return question[: m.start()] + written + question[m.end() :], f"'{m.group(0).strip()}' read as {written}"
