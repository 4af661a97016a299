"""Resolve the date phrases operators write ("last week", "jan 13 '23", "first week of June 2020",
"midnight") into concrete ISO ranges against the agent's clock, in code, deterministically.

A 135M model cannot do date arithmetic; the Distill agent uses this module instead and hands the
ReAct agent ready ISO 8601 values. Conventions (documented in docs/reactxen.md):

* A day is [00:00, next day 00:00); ranges are start-inclusive, end-exclusive, in the clock's timezone.
* Weeks start on Monday. "last week" is the previous calendar week; "this week" runs from Monday to now.
* "past/last N days" (and "past week" = 7 days) are the N complete days before today.
* "last N hours/minutes" end now. "today" ends now. "this month/year" end now, as "month/year/week to date" (MTD,
  YTD, WTD) do.
* A day without a year is its most recent occurrence that is not in the future.
* A time of day ("at midnight", "at 3pm", "at 14:30") gives a point in time (start == end); without a
  day it is the most recent such moment. "Last night" is yesterday 18:00 to today 06:00. "Midnight / 3am last
  night" is in the night's small hours, after its midnight (today's 00:00, 03:00).
* "now", "current", "latest" (and no other period) is the instant now: the latest value.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import date, datetime, time, timedelta

from rapidfuzz.distance import DamerauLevenshtein

from edge_agent.clock import parse_instant

MONTHS = {
    "jan": 1,
    "january": 1,
    "feb": 2,
    "february": 2,
    "mar": 3,
    "march": 3,
    "apr": 4,
    "april": 4,
    "may": 5,
    "jun": 6,
    "june": 6,
    "jul": 7,
    "july": 7,
    "aug": 8,
    "august": 8,
    "sep": 9,
    "sept": 9,
    "september": 9,
    "oct": 10,
    "october": 10,
    "nov": 11,
    "november": 11,
    "dec": 12,
    "december": 12,
}
WEEKDAYS = {"monday": 0, "tuesday": 1, "wednesday": 2, "thursday": 3, "friday": 4, "saturday": 5, "sunday": 6}
#: a weekday's short forms, read only after "on"/"last"/"past" ("on wed": "wed", "sat", "sun" alone are other words)
_WEEKDAY_SHORT = {"mon": 0, "tue": 1, "tues": 1, "wed": 2, "weds": 2, "thu": 3, "thur": 3, "thurs": 3, "fri": 4}
_WEEKDAY_SHORT |= {"sat": 5, "sun": 6}
_WEEKDAY_ANY = WEEKDAYS | _WEEKDAY_SHORT
ORDINALS = {"first": 1, "1st": 1, "second": 2, "2nd": 2, "third": 3, "3rd": 3, "fourth": 4, "4th": 4}
ORDINALS_AND_LAST = frozenset(ORDINALS) | {"last", "final"}
NUMBER_WORDS = {
    "one": 1,
    "two": 2,
    "three": 3,
    "four": 4,
    "five": 5,
    "six": 6,
    "seven": 7,
    "eight": 8,
    "nine": 9,
    "ten": 10,
    "twelve": 12,
    "fourteen": 14,
    "thirty": 30,
    "a": 1,
    "an": 1,
}

_MON = r"(?P<mon>" + "|".join(sorted(MONTHS, key=len, reverse=True)) + r")\.?"
_YEAR = r"(?:,?\s*(?P<year>'\d{2}|\d{4}))"
_MON_WORD = r"(?:" + "|".join(sorted(MONTHS, key=len, reverse=True)) + r")\b"
_DAY = r"(?P<day>\d{1,2})(?:st|nd|rd|th)?"
_NUM = r"(?P<n>\d+|" + "|".join(NUMBER_WORDS) + r")"
_UNIT = r"(?P<unit>minutes?|mins?|hours?|hrs?|days?|weeks?|wks?|months?|years?)"

# One calendar day, in the spellings operators use.
_DAY_PATTERNS = [
    re.compile(r"\b(?P<iso>\d{4})-(?P<m>\d{1,2})-(?P<d>\d{1,2})(?![\dtT]|:\d)"),
    re.compile(r"\b" + _MON + r"\s+" + _DAY + r"\b" + _YEAR + r"?"),
    re.compile(r"\b" + _DAY + r"(?:\s+of)?\s+" + _MON + r"\b" + _YEAR + r"?"),
    re.compile(r"\b(?P<um>\d{1,2})/(?P<ud>\d{1,2})/(?P<uy>\d{4}|\d{2})\b"),
    # dots put the day first (the European custom: "Tuesday 2.5.2023" is 2 May 2023)
    re.compile(r"\b(?P<ed>\d{1,2})\.(?P<em>\d{1,2})\.(?P<ey>\d{4})\b"),
    # a month and a day in figures without a year, after a preposition ("on 10/21", "for 21/10"): only where one
    # order of the two gives a date (the other has a month over 12); "10/11" is either, and is left unread
    re.compile(
        r"(?i:\b(?:on|for|from|to|since|until|till|of|between|and|by)\s+)(?P<xa>\d{1,2})/(?P<xb>\d{1,2})\b(?![/.]\d)"
        r"(?!\s*(?:" + "|".join(sorted(MONTHS, key=len, reverse=True)) + r")\b)"
    ),
    # a day of the month alone, said as an ordinal ("on the 28th", "Sunday the 31st"): the latest such day
    re.compile(r"\bthe\s+(?P<od>\d{1,2})(?:st|nd|rd|th)\b(?!\s+(?:of\s+)?" + _MON + ")"),
]
_ISO_INSTANT = re.compile(r"\b\d{4}-\d{2}-\d{2}[tT ]\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:[zZ]|[+-]\d{2}:?\d{2})?")
_TIME = re.compile(
    r"\b(?:at\s+)?(?:(?P<word>midnight|noon|midday)|(?P<h>\d{1,2})(?::(?P<mi>\d{2}))?\s*(?P<ampm>am|pm)"
    r"|(?P<h24>[01]?\d|2[0-3]):(?P<m24>[0-5]\d)(?!-))\b"
)
_MONTH_YEAR = re.compile(
    r"\b(?:(?P<ord>first|1st|second|2nd|third|3rd|fourth|4th|last|final)\s+week\s+of\s+)?"
    + _MON
    + r"(?:\s+(?:of\s+)?(?P<year>\d{4}))\b"
)
#: two days of one month, the month (and year) written once: "25th to 27th march", "from 3 - 5 april 2024" (a bare
#: first number only after from/between: "Chiller 6 to 9 March" is no range)
_DAYS_OF_ONE_MONTH = re.compile(
    r"(?:(?:\b(?:from|between)\s+(?:the\s+)?|\(\s*|(?:^\s*|(?<=[—–:,;])|(?<=[—–:,;]\s))(?=\d))(?P<d1>\d{1,2})(?:st|nd|rd|th)?"
    r"|\b(?P<o1>\d{1,2})(?:st|nd|rd|th)"
    # "on 3-5 may", "for 27 and 28 jan", "for 23 to 29 March"
    r"|(?:on|for|over|during|in)\s+(?P<h1>\d{1,2})(?=\s*[-–]\s*\d|\s+(?:and|to|until|till|through)\s+\d))"
    r"\s*(?:to|until|till|through|-|–|and)\s*(?:the\s+)?"  # "the 27th to the 29th of Oct"
    r"(?P<d2>\d{1,2})(?:st|nd|rd|th)?\s+(?:of\s+)?" + _MON + _YEAR + "?"
)
#: two whole dates and no "from": "26 october to 1 november" (not after "compare": "compare 19 october to 26 october"
#: sets one day against another)
_DATES_RANGE = re.compile(
    r"(?<!\w)(?P<a>\d{1,2}(?:st|nd|rd|th)?\s+(?:of\s+)?(?:"
    + "|".join(sorted(MONTHS, key=len, reverse=True))
    + r")\.?)\s*(?:to|until|till|through|-|–|(?P<joined>and|or|&))\s*(?P<b>\d{1,2}(?:st|nd|rd|th)?\s+(?:of\s+)?(?:"
    + "|".join(sorted(MONTHS, key=len, reverse=True))
    + r")\.?"
    + r"(?:,?\s*\d{4})?)(?!\w)"
)
#: the month written first, once: "may 3-5", "may 3 to 5 2024", "march 3rd through 7th" (not "may 3 to 5 pm", not
#: "may 3 to june 5", which `_RANGE` reads)
_MONTH_THEN_DAYS = re.compile(
    r"\b"
    + _MON
    + r"\s+(?P<d1>\d{1,2})(?:st|nd|rd|th)?\s*(?:to|until|till|through|-|–)\s*(?P<d2>\d{1,2})(?:st|nd|rd|th)?"
    + r"(?!\s*(?:am|pm|h\b|:|"
    + "|".join(sorted(MONTHS, key=len, reverse=True))
    + r"))"
    + _YEAR
    + "?"
)
_RANGE = re.compile(
    r"\b(?:from|between)\s+(?P<a>.+?)\s+(?:to|and|until|till|through|-)\s+"
    r"(?P<b>.+?)(?=$|[?.!;]|\s+(?:at|for|in|on|of)\s)"
)


#: two clock times of one day ("from 09:00 to 17:30", "between 9am and 5:30pm")
_CLOCK_SPAN = re.compile(
    r"(?:\b(?:from|between)\s+|\(\s*|(?<=\btoday\s)|(?<=\byesterday\s)|\b(?=\d{1,2}:\d{2}\s*(?:to|until|till|-|–)\s*\d{1,2}:\d{2}))(?P<h1>\d{1,2})(?::(?P<m1>\d{2}))?\s*(?P<p1>am|pm)?\s*(?:to|and|until|till|-|–)\s*"
    r"(?P<h2>\d{1,2})(?::(?P<m2>\d{2}))?\s*(?P<p2>am|pm)?\b"
)


def _clock_window(text: str, now: datetime) -> DateRange | None:
    """ "on Wednesday 28 October, that is from 09:00 to 17:30": the hours of the one day the rest of the text names
    (a time written with a colon or am/pm; an end before the start runs past midnight)."""
    m = _CLOCK_SPAN.search(text)
    if m is None or not ((m["m1"] or m["p1"]) and (m["m2"] or m["p2"])):
        return None
    day = resolve_period(text[: m.start()] + " " + text[m.end() :], now)
    if (
        day is None
        or day.point
        or day.start.time() != time(0)
        or not 0 < (day.end - day.start).total_seconds() / 3600 <= 25  # (today so far, too)
    ):
        return None

    def clock(h: str, mins: str | None, half: str | None) -> time | None:
        hour = int(h) % 12 + (12 if half == "pm" else 0) if half else int(h)
        return time(hour, int(mins or 0)) if hour < 24 and int(mins or 0) < 60 else None

    t1, t2 = clock(m["h1"], m["m1"], m["p1"]), clock(m["h2"], m["m2"], m["p2"])
    if t1 is None or t2 is None:
        return None
    start = datetime.combine(day.start.date(), t1, day.start.tzinfo)
    end = datetime.combine(day.start.date() + timedelta(days=1 if t2 <= t1 else 0), t2, day.start.tzinfo)
    return DateRange(start, end, f"{day.phrase} {m.group(0)}", absolute=day.absolute)


#: two weekdays joined by "and"/"or" ("on Saturday and Sunday", "at any time on sat or sun", "fri & sat"): one span
#: where the second is the day after the first (`_joined_days`); short forms count here, "sat"/"sun" too
_WEEKDAY_PAIR = re.compile(
    rf"\b(?P<a>(?:last\s+)?(?:{'|'.join(WEEKDAYS)}|{'|'.join(_WEEKDAY_SHORT)}|sat|sun))\.?\s*(?:and|or|&|\+|/)\s*"
    rf"(?P<b>(?:{'|'.join(WEEKDAYS)}|{'|'.join(_WEEKDAY_SHORT)}|sat|sun))\b\.?"
)
_WEEKDAY_NUMBER = WEEKDAYS | _WEEKDAY_SHORT | {"sat": 5, "sun": 6}


#: words that set one day against another ("higher tuesday or wednesday", "compare saturday and sunday"): two days
#: joined by "or"/"and" there are two periods, never one span
_COMPARING = re.compile(
    r"\b(?:compar\w*|which|whichever|more|less|higher|lower|greater|fewer|bigger|smaller|hotter|colder|warmer|"
    r"cooler|better|worse|busier|longer|shorter|vs|versus|than|difference)\b"
)


def _joined_days(lowered: str) -> str:
    """ "saturday and sunday" → "from saturday to sunday" where the second day follows the first (never "monday or
    thursday", two days apart: no one span)."""

    def span(m: re.Match[str]) -> str:
        a, b = m["a"].split()[-1], m["b"]
        if (_WEEKDAY_NUMBER[a] + 1) % 7 != _WEEKDAY_NUMBER[b]:
            return m.group(0)
        last = "last " if m["a"].startswith("last") else ""
        full = {n: w for w, n in WEEKDAYS.items()}
        return f"from {last}{full[_WEEKDAY_NUMBER[a]]} to {full[_WEEKDAY_NUMBER[b]]}"

    return _WEEKDAY_PAIR.sub(span, lowered, count=1)


_WEEKDAY_SPAN = re.compile(
    rf"\b(?:[a-z]+\s+)?(?P<a>(?:last\s+)?(?:{'|'.join(WEEKDAYS)}))\s+(?:to|until|till|through|-|–)\s+(?:[a-z]+\s+)?"
    rf"(?P<b>(?:{'|'.join(WEEKDAYS)}))\b"
)


@dataclass(frozen=True)
class DateRange:
    """A resolved period; `point` means a single instant (start == end)."""

    start: datetime
    end: datetime
    phrase: str
    point: bool = False
    #: which ends are instants measured from now (or given with an offset) rather than wall-clock times
    absolute: tuple[bool, bool] = (False, False)

    def iso(self) -> tuple[str, str]:
        """ISO 8601 texts: wall-clock boundaries (midnights, times of day, calendar dates) without an
        offset, so a tool reads them in the *site's* timezone (right across DST and sites); instants
        measured from now with the clock's offset."""
        return (
            self.start.isoformat() if self.absolute[0] else self.start.replace(tzinfo=None).isoformat(),
            self.end.isoformat() if self.absolute[1] else self.end.replace(tzinfo=None).isoformat(),
        )

    def describe(self) -> str:
        if self.point:
            return f"{self.phrase!r} = the instant {self.start.isoformat()}"
        return f"{self.phrase!r} = from {self.start.isoformat()} to {self.end.isoformat()} (end exclusive)"


def _midnight(day: date, now: datetime) -> datetime:
    return datetime.combine(day, time(0), tzinfo=now.tzinfo)


def _day_range(day: date, now: datetime, phrase: str) -> DateRange:
    return DateRange(_midnight(day, now), _midnight(day + timedelta(days=1), now), phrase)


def _add_months(day: date, months: int) -> date:
    total = day.year * 12 + (day.month - 1) + months
    return date(total // 12, total % 12 + 1, 1)


def _year(text: str | None, now: datetime) -> int | None:
    return _year_of(text) if text else None


def _year_of(text: str) -> int:
    """A year as written: "2024", "24", "'24"."""
    if text.startswith("'") or len(text) == 2:
        return 2000 + int(text.strip("'"))
    return int(text)


def _past_day(month: int, day: int, now: datetime) -> date:
    """The most recent `month/day` that is not after today."""
    for year in (now.year, now.year - 1, now.year - 2, now.year - 3, now.year - 4):
        try:
            candidate = date(year, month, day)
        except ValueError:
            continue
        if candidate <= now.date():
            return candidate
    raise ValueError(f"no such day: {month}/{day}")


def _find_day(text: str, now: datetime) -> tuple[date, re.Match[str]] | None:
    """The first explicit calendar day in `text`, with the match that named it."""
    found: list[tuple[int, date, re.Match[str]]] = []
    for pattern in _DAY_PATTERNS:
        for m in pattern.finditer(text):
            try:
                groups = m.groupdict()
                if groups.get("iso"):
                    day = date(int(groups["iso"]), int(groups["m"]), int(groups["d"]))
                elif groups.get("ed"):
                    day = date(int(groups["ey"]), int(groups["em"]), int(groups["ed"]))
                elif groups.get("od"):
                    day = _latest_day_of_month(int(groups["od"]), now)
                elif groups.get("xa"):
                    a, b = int(groups["xa"]), int(groups["xb"])
                    if (a <= 12) == (b <= 12) or min(a, b) < 1:
                        continue  # both orders are dates (or neither): which one is meant is not said
                    day = _past_day(a, b, now) if a <= 12 else _past_day(b, a, now)
                elif groups.get("um"):
                    day = date(_year_of(groups["uy"]), int(groups["um"]), int(groups["ud"]))
                else:
                    month, dom = MONTHS[groups["mon"]], int(groups["day"])
                    year = _year(groups.get("year"), now)
                    day = date(year, month, dom) if year else _past_day(month, dom, now)
            except (ValueError, KeyError):
                continue
            found.append((m.start(), day, m))
    if not found:
        return None
    found.sort(key=lambda f: f[0])
    return found[0][1], found[0][2]


def _latest_day_of_month(dom: int, now: datetime) -> date:
    """The latest day numbered `dom` on or before today: this month's, else the month before's (ValueError: none)."""
    year, month = now.year, now.month
    for _ in range(12):
        if dom <= now.day or (year, month) != (now.year, now.month):
            try:
                return date(year, month, dom)
            except ValueError:
                pass  # no such day this month ("the 31st" in April): the month before
        year, month = (year, month - 1) if month > 1 else (year - 1, 12)
    raise ValueError(f"no day {dom} of a month")


#: "at 7 this morning", "at 3 in the afternoon", "at 9 tonight": a bare hour whose part of the day says am or pm
_HOUR_OF_PART = re.compile(
    r"\b(?:at|around|about|since|from|after|before|till|until)\s+(?P<h>\d{1,2})(?::(?P<mi>\d{2}))?(?=\s+(?:o'?clock\s+)?(?:(?:this|in\s+the|yesterday|last|that)\s+)?"
    r"(?P<part>morning|afternoon|evening|night|tonight)\b)",
    re.I,
)


_CLOCK_WORDS = {w: n for w, n in NUMBER_WORDS.items() if 1 <= n <= 12} | {"eleven": 11}
#: a time said the spoken way, "quarter past four this morning", "half past 7 in the evening": am or pm from the part
#: of the day after it (without one it is no time: "half past four" could be either)
_SPOKEN_TIME = re.compile(
    r"\b(?:at\s+)?(?:a\s+)?(?P<q>quarter|half)\s+(?P<rel>past|after|to|before)\s+(?P<h>\d{1,2}|"
    + "|".join(_CLOCK_WORDS)
    + r")(?=\s+(?:o'?clock\s+)?(?:(?:this|in\s+the|yesterday|last|that)\s+)?"
    r"(?P<part>morning|afternoon|evening|night|tonight)\b)",
    re.I,
)


def _spoken_time(text: str) -> tuple[time, str] | None:
    m = _SPOKEN_TIME.search(text)
    if not m:
        return None
    h = int(m["h"]) if m["h"].isdigit() else _CLOCK_WORDS[m["h"].casefold()]
    if not 1 <= h <= 12:
        return None
    minutes = (h % 12) * 60 + (12 * 60 if m["part"].casefold() != "morning" else 0)
    minutes += {"quarter": 15, "half": 30}[m["q"].casefold()] * (-1 if m["rel"].casefold() in ("to", "before") else 1)
    minutes %= 24 * 60
    return time(minutes // 60, minutes % 60), m.group(0).strip()


def _time_of_day(text: str) -> tuple[time, str] | None:
    spoken = _spoken_time(text)
    if spoken is not None:
        return spoken
    m = _TIME.search(text)
    bare = _HOUR_OF_PART.search(text)
    if bare and (not m or bare.start() <= m.start()) and 1 <= int(bare["h"]) <= 11 and int(bare["mi"] or 0) <= 59:
        night = bare["part"].casefold() in ("night", "tonight") and int(bare["h"]) < 6  # "3 in the night": 03:00
        hour = int(bare["h"]) % 12 + (0 if bare["part"].casefold() == "morning" or night else 12)
        return time(hour, int(bare["mi"] or 0)), bare.group(0).strip()
    if not m:
        return _bare_hour(text)
    if m["word"]:
        return (time(0) if m["word"] == "midnight" else time(12)), m.group(0).strip()
    if m["h"] is not None:
        hour, minute = int(m["h"]), int(m["mi"] or 0)
        if not 1 <= hour <= 12 or minute > 59:
            return None
        pm = m["ampm"].startswith("p")
        hour = (hour % 12) + (12 if pm else 0)
        return time(hour, minute), m.group(0).strip()
    return time(int(m["h24"]), int(m["m24"])), m.group(0).strip()


#: an hour said with no am, pm or part of the day ("since I came on at 10", "what did it read at 3"): a clock time, the
#: latest of the two it can be (`_single`)
_BARE_HOUR = re.compile(
    r"\b(?:at|around|about|since|from|after|till|until)\s+(?P<h>\d{1,2})(?::(?P<mi>[0-5]\d))?(?:\s*o'?clock)?"
    r"(?!\s*(?:am|pm|a\.m|p\.m|h\b|hrs?\b|hours?\b|%|[a-z°/]))(?![\d.,:])",
    re.I,
)


def _bare_hour(text: str) -> tuple[time, str] | None:
    """A bare clock hour (1 to 12) as the morning's: `_single` takes the latest past one of it or twelve hours on."""
    m = _BARE_HOUR.search(text)
    if not m or not 1 <= int(m["h"]) <= 12:
        return None
    return time(int(m["h"]) % 12, int(m["mi"] or 0)), m.group(0).strip()


def _number(text: str) -> int:
    return int(text) if text.isdigit() else NUMBER_WORDS[text]


def _relative(text: str, now: datetime) -> DateRange | None:
    """Phrases relative to now: yesterday, last week, past 3 days, last month, N days ago, ..."""
    today = now.date()
    monday = today - timedelta(days=today.weekday())

    m = re.search(r"\b(?:the\s+)?(?:last|past|previous|preceding)\s+" + _NUM + r"\s+" + _UNIT, text)
    if m:
        n, unit = _number(m["n"]), m["unit"].rstrip("s").replace("wk", "week")
        if unit in ("minute", "min"):
            return DateRange(now - timedelta(minutes=n), now, m.group(0), absolute=(True, True))
        if unit in ("hour", "hr"):
            return DateRange(now - timedelta(hours=n), now, m.group(0), absolute=(True, True))
        if unit == "day":
            return DateRange(_midnight(today - timedelta(days=n), now), _midnight(today, now), m.group(0))
        if unit == "week":
            return DateRange(_midnight(today - timedelta(days=7 * n), now), _midnight(today, now), m.group(0))
        if unit == "month":
            first = today.replace(day=1)
            return DateRange(_midnight(_add_months(first, -n), now), _midnight(first, now), m.group(0))
        return DateRange(_midnight(date(today.year - n, 1, 1), now), _midnight(date(today.year, 1, 1), now), m.group(0))

    m = re.search(_NUM + r"\s+" + _UNIT + r"\s+ago\b", text)
    if m:
        n, unit = _number(m["n"]), m["unit"].rstrip("s")
        if unit in ("minute", "min", "hour", "hr"):
            delta = timedelta(minutes=n) if unit in ("minute", "min") else timedelta(hours=n)
            return DateRange(now - delta, now - delta, m.group(0), point=True, absolute=(True, True))
        if unit == "day":
            return _day_range(today - timedelta(days=n), now, m.group(0))
        if unit == "week":
            start = monday - timedelta(days=7 * n)
            return DateRange(_midnight(start, now), _midnight(start + timedelta(days=7), now), m.group(0))

    m = re.search(r"\b(?:last|previous|past)\s+weekend\b|\b(?:over|on|at|during|for|from)\s+the\s+weekend\b", text)
    if m:  # the latest whole Saturday and Sunday before today
        saturday = today - timedelta(days=(today.weekday() - 5) % 7 or 7)
        if saturday + timedelta(days=2) > today:
            saturday -= timedelta(days=7)
        return DateRange(_midnight(saturday, now), _midnight(saturday + timedelta(days=2), now), m.group(0))
    m = re.search(r"\b(?:the\s+)?day\s+before\s+yesterday\b", text)
    if m:
        return _day_range(today - timedelta(days=2), now, m.group(0))
    m = re.search(r"\blast\s+night\b", text)
    if m:  # the night: yesterday 18:00 to today 06:00 (or now, if earlier)
        start = datetime.combine(today - timedelta(days=1), time(18), tzinfo=now.tzinfo)
        return DateRange(start, min(datetime.combine(today, time(6), tzinfo=now.tzinfo), now), m.group(0))
    m = re.search(r"\byesterday\b", text)
    if m:
        return _day_range(today - timedelta(days=1), now, m.group(0))
    m = re.search(r"\b(?:past|last)\s+(?:week|wk|7\s+days)\b", text)
    if m and m.group(0).startswith("past"):
        return DateRange(_midnight(today - timedelta(days=7), now), _midnight(today, now), m.group(0))
    wd = "|".join(WEEKDAYS)
    m = re.search(
        rf"\b(?:on\s+)?(?P<wd>{wd})\s+(?:of\s+)?(?P<w>last|previous|prior|this)\s+week\b"
        rf"|\b(?P<w2>last|previous|prior|this)\s+week(?:'s)?\s+(?:on\s+)?(?P<wd2>{wd})\b",
        text,
    )
    if m:  # "Wednesday last week", "last week's Tuesday": that day of that week
        week = monday - timedelta(days=0 if (m["w"] or m["w2"]) == "this" else 7)
        day = week + timedelta(days=WEEKDAYS[m["wd"] or m["wd2"]])
        if day <= today:
            return _day_range(day, now, m.group(0))
    m = re.search(
        r"\b(?:the\s+)?fortnight\s+before\s+(?:last|that)\b|\b(?:last|previous|prior|past)\s+fortnight\b", text
    )
    if m:  # two calendar weeks: the last fortnight ends this Monday, the one before last two weeks earlier
        end = monday - timedelta(days=14 if "before" in m.group(0) else 0)
        return DateRange(_midnight(end - timedelta(days=14), now), _midnight(end, now), m.group(0))
    m = re.search(r"\b(?:last|previous|prior)\s+(?:week|wk)\b", text)  # "last wk"
    if m:
        return DateRange(_midnight(monday - timedelta(days=7), now), _midnight(monday, now), m.group(0))
    m = re.search(r"\bthis\s+(?:week|wk)\b|\bweek[\s-]+to[\s-]+date\b|\bwtd\b", text)
    if m:
        return DateRange(_midnight(monday, now), now, m.group(0), absolute=(False, True))
    m = re.search(r"\b(?:last|previous|prior)\s+month\b", text)
    if m:
        first = today.replace(day=1)
        return DateRange(_midnight(_add_months(first, -1), now), _midnight(first, now), m.group(0))
    # a quarter of the calendar year: "Q3" (the latest one not after now), "this quarter", "quarter to date", "since the
    # start of the quarter", "last quarter"
    quarter_start = date(today.year, 3 * ((today.month - 1) // 3) + 1, 1)
    m = re.search(
        r"\bq(?P<q>[1-4])(?:\s+(?P<y>(?:19|20)\d\d))?\b|\b(?P<nth>first|second|third|fourth|1st|2nd|3rd|4th)\s+quarter\b",
        text,
    )
    if m:
        n = (
            int(m["q"])
            if m["q"]
            else ("first second third fourth".split() + "1st 2nd 3rd 4th".split()).index(m["nth"]) % 4 + 1
        )
        year = int(m["y"]) if m["y"] else today.year
        start = date(year, 3 * (n - 1) + 1, 1)
        if not m["y"] and start > today:  # "Q3" said in Q2: last year's
            start = date(year - 1, 3 * (n - 1) + 1, 1)
        return DateRange(_midnight(start, now), _midnight(_add_months(start, 3), now), m.group(0))
    m = re.search(r"\b(?:last|previous|prior)\s+quarter\b", text)
    if m:
        return DateRange(_midnight(_add_months(quarter_start, -3), now), _midnight(quarter_start, now), m.group(0))
    m = re.search(
        r"\bthis\s+quarter\b|\bquarter[\s-]+to[\s-]+date\b|\bqtd\b|\bsince\s+the\s+(?:start|beginning)\s+of\s+the\s+quarter\b",
        text,
    )
    if m:
        return DateRange(_midnight(quarter_start, now), now, m.group(0), absolute=(False, True))
    m = re.search(r"\bsince\s+the\s+(?:start|beginning)\s+of\s+the\s+(?P<u>month|year|week)\b", text)
    if m:
        first = {
            "month": today.replace(day=1),
            "year": date(today.year, 1, 1),
            "week": today - timedelta(days=today.weekday()),
        }[m["u"]]
        return DateRange(_midnight(first, now), now, m.group(0), absolute=(False, True))
    m = re.search(r"\bthis\s+month\b|\bmonth[\s-]+to[\s-]+date\b|\bmtd\b", text)  # "MTD": month to date
    if m:
        return DateRange(_midnight(today.replace(day=1), now), now, m.group(0), absolute=(False, True))
    m = re.search(r"\b(?:last|previous|prior)\s+year\b", text)
    if m:
        return DateRange(_midnight(date(today.year - 1, 1, 1), now), _midnight(date(today.year, 1, 1), now), m.group(0))
    m = re.search(r"\bthis\s+year\b|\byear[\s-]+to[\s-]+date\b|\bytd\b", text)
    if m:
        return DateRange(_midnight(date(today.year, 1, 1), now), now, m.group(0), absolute=(False, True))
    m = re.search(
        r"\b(?:last|on|past)\s+(?P<wd>" + "|".join(sorted(_WEEKDAY_ANY, key=len, reverse=True)) + r")\b", text
    )
    if m:
        back = (today.weekday() - _WEEKDAY_ANY[m["wd"]]) % 7 or 7
        return _day_range(today - timedelta(days=back), now, m.group(0))
    m = re.search(r"\btoday\b", text)
    if m:
        return DateRange(_midnight(today, now), now, m.group(0), absolute=(False, True))
    return _future(text, now) or _bare_weekday(text, now)


def _bare_weekday(text: str, now: datetime) -> DateRange | None:
    """A weekday with no word before it that places it ("for Sunday", "what share of monday", "monday's peak"):
    recorded data is asked about, so it is the latest such day before today (as "on Sunday" is)."""
    m = re.search(r"\b(?P<wd>" + "|".join(WEEKDAYS) + r")(?:'s)?\b", text)
    if not m:
        return None
    today = now.date()
    back = (today.weekday() - WEEKDAYS[m["wd"]]) % 7 or 7
    return _day_range(today - timedelta(days=back), now, m.group(0))


def _future(text: str, now: datetime) -> DateRange | None:
    """Phrases of the future ("tomorrow", "next week", "next Monday", "in 3 days"): resolved like the past, so the
    grounding sees a period that starts after now — recorded data holds none of it (no forecast)."""
    today = now.date()
    monday = today - timedelta(days=today.weekday())
    m = re.search(r"(?:the\s+)?day\s+after\s+tomorrow\b", text)
    if m:
        return _day_range(today + timedelta(days=2), now, m.group(0))
    m = re.search(r"\btomorrow\b", text)
    if m:
        return _day_range(today + timedelta(days=1), now, m.group(0))
    m = re.search(r"\b(?:next|coming|upcoming)\s+week\b", text)
    if m:
        return DateRange(
            _midnight(monday + timedelta(days=7), now), _midnight(monday + timedelta(days=14), now), m.group(0)
        )
    m = re.search(r"\b(?:next|coming|upcoming)\s+month\b", text)
    if m:
        first = _add_months(today.replace(day=1), 1)
        return DateRange(_midnight(first, now), _midnight(_add_months(first, 1), now), m.group(0))
    m = re.search(r"\b(?:next|coming|this\s+coming)\s+(?P<wd>" + "|".join(WEEKDAYS) + r")\b", text)
    if m:
        ahead = (WEEKDAYS[m["wd"]] - today.weekday()) % 7 or 7
        return _day_range(today + timedelta(days=ahead), now, m.group(0))
    m = re.search(r"\bin\s+" + _NUM + r"\s+(?P<unit>days?|weeks?)\b", text)
    if m:
        n = _number(m["n"]) * (7 if m["unit"].startswith("week") else 1)
        return _day_range(today + timedelta(days=n), now, m.group(0))
    return None


def _month_year(text: str, now: datetime) -> DateRange | None:
    m = _MONTH_YEAR.search(text)
    if not m:
        return None
    first = date(int(m["year"]), MONTHS[m["mon"]], 1)
    next_month = _add_months(first, 1)
    if m["ord"] in ("last", "final"):
        return DateRange(_midnight(next_month - timedelta(days=7), now), _midnight(next_month, now), m.group(0))
    if m["ord"]:
        start = first + timedelta(days=7 * (ORDINALS[m["ord"]] - 1))
        return DateRange(_midnight(start, now), _midnight(min(start + timedelta(days=7), next_month), now), m.group(0))
    return DateRange(_midnight(first, now), _midnight(next_month, now), m.group(0))


#: a month named alone ("in November", "for the month of March", "November's bill"): no day, no year
_MONTH_ALONE = re.compile(
    r"\b(?:(?P<ord>first|1st|second|2nd|third|3rd|fourth|4th|last|final)\s+week\s+of\s+|"
    r"(?:in|during|for|over|of|throughout|across|through)\s+(?:the\s+(?:whole\s+|entire\s+)?month\s+of\s+)?)"
    + _MON
    + r"(?:'s)?(?!\s*(?:\d|')|\w)"
)


def _month_alone(text: str, now: datetime) -> DateRange | None:
    """The latest such month that has begun: "in November" said on 3 December is November of this year; said in
    November, this month so far."""
    m = _MONTH_ALONE.search(text)
    if m is None or m["mon"] == "may" and not re.search(r"\bmay\s*(?:'s)?\s*[,.?!]|\bmay$", text):
        return None  # "may" is a verb more often than a month
    month = MONTHS[m["mon"]]
    first = date(now.year if month <= now.month else now.year - 1, month, 1)
    next_month = _add_months(first, 1)
    if m["ord"] in ("last", "final"):  # "the last week of October": its last seven days
        return DateRange(_midnight(next_month - timedelta(days=7), now), _midnight(next_month, now), m.group(0))
    if m["ord"]:  # "the first week of April": its first seven days (as with a year, `_month_year`)
        start = first + timedelta(days=7 * (ORDINALS[m["ord"]] - 1))
        return DateRange(_midnight(start, now), _midnight(min(start + timedelta(days=7), next_month), now), m.group(0))
    return DateRange(_midnight(first, now), _midnight(next_month, now), m.group(0))


def _single(text: str, now: datetime) -> DateRange | None:
    """One period (no 'from … to …'): an instant, a day (optionally at a time), a month, or a relative phrase."""
    m = _ISO_INSTANT.search(text)
    if m:
        try:
            instant = parse_instant(m.group(0).upper().replace(" ", "T"), now.tzinfo)
            given = bool(re.search(r"(?:[zZ]|[+-]\d{2}:?\d{2})$", m.group(0)))
            return DateRange(instant, instant, m.group(0), point=True, absolute=(given, given))
        except ValueError:
            pass
    tod = _time_of_day(text)
    found = _find_day(text, now)
    if found is None:
        span = _month_year(text, now)
        if span is None:
            alone = _month_alone(text, now)  # "the last week of April" before "last week"
            span = (alone if alone is not None and alone.phrase.split()[0] in ORDINALS_AND_LAST else None) or (
                _relative(text, now) or alone
            )
        if span is not None and tod is None:
            return span
        if tod is not None:
            base = span.start.date() if span is not None and span.end - span.start <= timedelta(days=1) else None
            if base is None or span is None:  # (span is None only where base is)
                # "at midnight" alone: the most recent such moment; a bare hour ("at 10"): the latest past of its two
                instant = datetime.combine(now.date(), tod[0], tzinfo=now.tzinfo)
                if instant > now:
                    instant -= timedelta(days=1)
                later = instant + timedelta(hours=12)
                bare = _BARE_HOUR.search(text)
                if bare is not None and bare.group(0).strip() == tod[1] and later <= now:
                    instant = later
                return DateRange(instant, instant, tod[1], point=True)
            if tod[0] < time(6) and re.search(r"\bnight\b", span.phrase):  # "midnight / 3am last night": the night
                base += timedelta(days=1)  # runs past midnight, into today's small hours (not the day before's)
            instant = datetime.combine(base, tod[0], tzinfo=now.tzinfo)
            return DateRange(instant, instant, f"{span.phrase} {tod[1]}", point=True)
        return None
    day, match = found
    if tod is not None:
        instant = datetime.combine(day, tod[0], tzinfo=now.tzinfo)
        return DateRange(instant, instant, f"{match.group(0)} {tod[1]}", point=True)
    week = re.search(
        r"\b(?:the\s+)?(?:week|wk)\s+(?P<w>[a-z]+)\s+(?:on\s+)?(?:(?:" + "|".join(WEEKDAYS) + r"),?\s+)?$",
        text[: match.start()],
    )
    if week and (
        week["w"] in ("from", "of")
        or any(DamerauLevenshtein.distance(week["w"], w) <= 2 for w in ("starting", "beginning", "commencing"))
    ):
        # "the week starting Monday March 30": seven days from that day
        return DateRange(_midnight(day, now), _midnight(day + timedelta(days=7), now), text[week.start() : match.end()])
    return _day_range(day, now, match.group(0))


#: half a month: "the first half of November" (the 1st to the 15th), "the second half" (the 16th to its end)
_HALF_MONTH = re.compile(
    r"\b(?P<half>first|1st|second|2nd|latter|last)\s+half\s+of\s+(?:the\s+month\s+of\s+)?" + _MON + _YEAR + "?"
)


def _half_month(lowered: str, now: datetime) -> DateRange | None:
    m = _HALF_MONTH.search(lowered)
    if m is None:
        return None
    month, year = MONTHS[m["mon"]], _year(m["year"], now)
    first = date(year, month, 1) if year else _past_day(month, 1, now)
    middle, end = first + timedelta(days=15), _add_months(first, 1)
    a, b = (first, middle) if m["half"] in ("first", "1st") else (middle, end)
    return DateRange(_midnight(a, now), _midnight(b, now), m.group(0))


def _days_of_one_month(lowered: str, now: datetime) -> DateRange | None:
    """ "25th to 27th march (inclusive)": the month and year written once, after the second day."""
    m = _DAYS_OF_ONE_MONTH.search(lowered) or _MONTH_THEN_DAYS.search(lowered)
    if m is None:
        return None
    try:
        month, year = MONTHS[m["mon"]], _year(m["year"], now)
        # "from 3 …", "3rd …" or "on 3-5 …": a bare number may be a name's ("Chiller 6")
        d1 = int(next(v for k in ("d1", "o1", "h1") if (v := m.groupdict().get(k))))
        first = date(year, month, d1) if year else _past_day(month, d1, now)
        last = date(first.year, month, int(m["d2"]))
    except (ValueError, KeyError):
        return None  # no such day: read on as if nothing matched
    joined = re.search(r"\d\s+and\s+(?:the\s+)?\d", m.group(0)) and not m.group(0).startswith("between")
    if first > last or (joined and (last - first).days != 1):
        return None  # "27 and 28 january": two days that follow each other (never "3 and 5 may": a day between)
    return DateRange(_midnight(first, now), _midnight(last + timedelta(days=1), now), m.group(0))


_SINCE = re.compile(r"\bsince\b")


_ORDINAL_WORDS = (
    "first second third fourth fifth sixth seventh eighth ninth tenth eleventh twelfth thirteenth fourteenth "
    "fifteenth sixteenth seventeenth eighteenth nineteenth twentieth"
).split()


def _suffixed(n: int) -> str:
    """1 → "1st", 12 → "12th", 23 → "23rd"."""
    last = n % 10 if n not in (11, 12, 13) else 0
    return f"{n}{ {1: 'st', 2: 'nd', 3: 'rd'}.get(last, 'th') }"


#: the days of a month said as ordinal words ("the second", "the twenty-third"), each → "2nd", "23rd"
_DAY_ORDINALS = {w: _suffixed(n) for n, w in enumerate(_ORDINAL_WORDS, 1)}
_DAY_ORDINALS |= {
    f"twenty-{w}": f"{20 + n}{_DAY_ORDINALS[w][len(str(n)) :]}" for n, w in enumerate(_ORDINAL_WORDS[:9], 1)
}
_DAY_ORDINALS |= {"thirtieth": "30th", "thirty-first": "31st"}
#: the words of those, each ("twenty", "third" of "twenty-third"): placed where the question names a period
DAY_ORDINAL_WORDS = frozenset(w for said in _DAY_ORDINALS for w in said.split("-"))
#: a day of the month in words where it is one end of a range ("from the second to the fourth", "the 2nd to the
#: fourth"), never "the second week" or "the first of the two pumps"
_DAY_WORDS = re.compile(
    r"\bthe\s+(?P<w>" + "|".join(sorted(map(re.escape, _DAY_ORDINALS), key=len, reverse=True)) + r")\b"
    r"(?=\s*(?:to|till|until|through|thru|and|-|–)\s+the\s+(?:\d|[a-z-]+\b)|\s+(?:inclusive|of\s+(?:"
    + "|".join(MONTHS)
    + r")\b))"
    r"|(?<=\bto\s)the\s+(?P<w2>" + "|".join(sorted(map(re.escape, _DAY_ORDINALS), key=len, reverse=True)) + r")\b",
)
#: "overnight", "over night", "through the night": the most recent night, where no day is said
_OVERNIGHT = re.compile(r"\b(?:overnight|over\s+night|through\s+the\s+night)\b")


def resolve_period(text: str, now: datetime, join_days: bool = True) -> DateRange | None:
    """The period a question talks about, resolved against `now` (aware), or None if it names none. Two days that
    follow each other joined by "and"/"or" are one span unless `join_days` is False (where two periods are set
    against each other: `periods.two_periods`)."""
    lowered = " ".join(text.lower().split())
    if join_days and "from " not in lowered and "between " not in lowered and not _COMPARING.search(lowered):
        lowered = _joined_days(lowered)
    lowered = re.sub(rf"\b({'|'.join(WEEKDAYS)})s\b", r"\1", lowered)  # "in wednesdays test": Wednesday's
    # "from the second to the fourth inclusive": days of the month in words, as figures
    lowered = _DAY_WORDS.sub(lambda m: f"the {_DAY_ORDINALS[m['w'] or m['w2']]}", lowered)
    # "last night's shift (20:00 friday to 08:00 this morning)": a range in brackets, from its first time
    lowered = re.sub(r"\(\s*(?=\d{1,2}:\d{2}\b[^()]*?\b(?:to|until|till)\b[^()]*\))", "(from ", lowered)
    if _OVERNIGHT.search(lowered) and _find_day(lowered, now) is None:  # "how warm did it get overnight": last night
        lowered = _OVERNIGHT.sub("last night", lowered)
    # "from fri 3rd to mon 6th apr", "saturday 31 october": the day's number says the day, its weekday only names it
    # again
    lowered = re.sub(
        rf"\b(?:{'|'.join(WEEKDAYS)}|{'|'.join(w[:3] for w in WEEKDAYS)}),?\.?\s+"
        rf"(?=\d{{1,2}}(?:st|nd|rd|th)\b|\d{{1,2}}\s+(?:of\s+)?{_MON_WORD})",
        "",
        lowered,
    )
    # "good friday to easter monday", "sat to mon": two weekdays, a word before each at most, are a range as after
    # "from" ("from friday to monday")
    lowered = (
        _WEEKDAY_SPAN.sub(lambda m: f"from {m['a']} to {m['b']}", lowered, count=1)
        if "from " not in lowered
        else lowered
    )
    if (window := _clock_window(lowered, now)) is not None:
        return window
    days = _days_of_one_month(lowered, now) or _half_month(lowered, now)
    if days is not None:
        return days
    m = _RANGE.search(lowered)
    if (
        m is None
        and (d := _DATES_RANGE.search(lowered))
        and not re.search(r"\bcompar", lowered[: d.start()])
        and (not d["joined"] or (join_days and not _COMPARING.search(lowered)))
    ):
        m = d
    if m:
        # A year written once at the end applies to both ends ("from jan 1 to jan 5 2021").
        year = re.search(r"(\d{4})\s*$", m["b"])
        left = m["a"] if re.search(r"\d{4}|'\d{2}", m["a"]) or not year else f"{m['a']} {year.group(1)}"
        a, b = _single(left, now), _single(m["b"], now)
        if m.groupdict().get("joined") and a is not None and b is not None and b.start - a.start > timedelta(days=1):
            a = None  # "31 october and 2 november": two days apart are two days, no span (two days that follow
            # each other are one: "saturday 31 october and sunday 1 november")
        if a is not None and b is not None and a.start <= b.end:
            return DateRange(
                a.start, b.end if not b.point else b.start, m.group(0).strip(), absolute=(a.absolute[0], b.absolute[1])
            )
    found = _single(lowered, now)
    since = _SINCE.search(lowered)
    if (
        found is not None
        and since is not None
        and found.start < now
        and (
            found.phrase.startswith("since")
            or found.phrase in lowered[since.end() : since.end() + 60 + len(found.phrase)]
        )
    ):  # "since I came on at 10", "since monday": from then until now
        phrase = found.phrase if found.phrase.startswith("since") else f"since {found.phrase}"
        return DateRange(found.start, now, phrase, absolute=(found.absolute[0], True))
    if found is None:
        m = _NOW.search(lowered)
        if m:  # "the current Tonnage", "right now": the latest value, an instant measured from now
            return DateRange(now, now, m.group(0), point=True, absolute=(True, True))
    return found


_TIME_WORDS = re.compile(
    r"\b(?:now|current(?:ly)?|latest|today|tonight|yesterday|tomorrow|ago|"
    r"morning|afternoon|evening|night|midnight|noon|hours?|days?|weeks?|weekend|months?|years?|"
    + "|".join(sorted(MONTHS, key=len, reverse=True))
    + "|"
    + "|".join(WEEKDAYS)
    + r"|\d{1,2}\s*(?:am|pm)|\d{1,2}:\d{2}|\d{4}-\d{1,2}-\d{1,2}|\d{1,2}/\d{1,2}/\d{2,4}|(?:19|20)\d{2})\b",
    re.I,
)


def mentions_time(text: str) -> bool:
    """Whether a question speaks of a time at all (resolvable or not)."""
    return _TIME_WORDS.search(text) is not None


_NOW = re.compile(r"\b(?:right now|now|currently|current|latest|at the moment|at present|presently)\b")
