"""Two periods a question compares ("last week or the week before", "on 22 March than on 29 March").

`two_periods(text, now)` splits the question at a word that sets one period against another (or, vs, than,
compared with, against, and) and resolves a period on each side with `dates.resolve_period`. A second side that
speaks of a period relative to the first ("the week before", "the previous day", "the same day last week", "the
saturday before") is
the first shifted back by that unit, on the wall clock (a DST change inside keeps midnights midnights). The pair
is the question's order: the first period named first. None where the question does not name two distinct
periods (a single instant is no period to compare).
"""

from __future__ import annotations

import calendar
import re
from datetime import datetime, timedelta

from edge_agent.grounding.dates import WEEKDAYS, DateRange, resolve_period

#: the words that set one period against another
_VERSUS = re.compile(r"\b(?:or|vs\.?|versus|against|than|compared?\s+(?:to|with)|and)\b")
#: the week a day named after a first day belongs to ("tuesday or wednesday last week": both of last week)
_WEEK = re.compile(r"\b(?:last|previous|prior|this)\s+week\b")
#: a second period stated relative to the first
_RELATIVE = re.compile(
    r"^\W*(?:\w+\W+){0,3}?(?:the\s+)?(?:"
    r"(?P<unit1>day|week|month|year)\s+(?:before|prior|earlier)"
    r"|(?:previous|prior|preceding|earlier)\s+(?P<unit2>day|week|month|year)"
    r"|same\s+(?:day|time|hours?|period|week|month)\s+(?:last|a|the\s+previous|the\s+prior)\s+(?P<unit3>week|month|year)"
    r"|(?:(?:"
    + "|".join(WEEKDAYS)
    + r")\s+(?:before|prior|earlier)|(?:previous|prior|preceding|earlier)\s+(?:"
    + "|".join(WEEKDAYS)
    + r"))(?P<unit4>)"  # "this past saturday or the saturday before": that weekday a week earlier
    r")\b"
)


#: an alternative of direction, not of periods ("is it trending up or down", "higher or lower")
_ALTERNATIVE = re.compile(
    r"\b(?:up|upward|rising|increasing|higher|better|more)\s+or\s+(?:down|downward|falling|decreasing|lower|worse|less)\b"
)


def _back(period: DateRange, unit: str) -> DateRange:
    """`period` one `unit` earlier on the wall clock (months and years by the calendar)."""

    def shift(at: datetime) -> datetime:
        if unit == "day":
            return at - timedelta(days=1)
        if unit == "week":
            return at - timedelta(days=7)
        months = 1 if unit == "month" else 12
        year, month = divmod(at.year * 12 + at.month - 1 - months, 12)
        day = min(at.day, calendar.monthrange(year, month + 1)[1])
        return at.replace(year=year, month=month + 1, day=day)

    return DateRange(
        shift(period.start), shift(period.end), f"the {unit} before", point=period.point, absolute=period.absolute
    )


def _relative(text: str, first: DateRange) -> DateRange | None:
    m = _RELATIVE.search(text)
    if m is None:
        return None
    unit = m["unit1"] or m["unit2"] or m["unit3"] or ("week" if m["unit4"] is not None else "")
    return _back(first, unit)


def _other_half(text: str, first: DateRange) -> DateRange | None:
    """ "the first half of November or the second half": the rest of the month the first half is of."""
    if not re.search(r"\b(?:second|latter|other|2nd)\s+half\b", text) or "first half" not in first.phrase.replace(
        "1st", "first"
    ):
        return None
    start = first.end
    year, month = divmod(start.year * 12 + start.month, 12)  # the first day of the next month
    end = start.replace(year=year, month=month + 1, day=1)
    return DateRange(start, end, "the second half", point=False, absolute=first.absolute)


#: "week over week", "month-on-month": the last whole unit against the one before it, where no period is named
_OVER = re.compile(r"\b(?P<unit>day|week|month|year)[\s-]+(?:over|on)[\s-]+(?P=unit)\b")


def two_periods(text: str, now: datetime) -> tuple[DateRange, DateRange] | None:
    """The two periods `text` compares, in its order, or None."""
    lowered = " ".join(text.lower().split())
    over = _OVER.search(lowered)
    if over is not None:
        unit = over["unit"]
        rest = lowered[: over.start()] + " " + lowered[over.end() :]
        last = resolve_period(rest, now) or resolve_period(f"{'yesterday' if unit == 'day' else 'last ' + unit}", now)
        if last is not None and not last.point:
            return last, _back(last, unit)
    whole = resolve_period(lowered, now, join_days=False)
    at = lowered.find(whole.phrase) if whole is not None and whole.phrase else -1
    span = (at, at + len(whole.phrase)) if whole is not None and at >= 0 else (0, 0)
    for m in _VERSUS.finditer(lowered):
        if span[0] < m.start() < span[1]:  # "from 1 March to 5 March", "between … and …": one range, not two
            continue
        if _ALTERNATIVE.search(lowered[max(0, m.start() - 12) : m.end() + 12]):  # "up or down?": no two periods
            continue
        left, right = lowered[: m.start()], lowered[m.end() :]
        first = resolve_period(left, now, join_days=False)
        week = _WEEK.search(right)
        if week and re.search(rf"\b(?:{'|'.join(WEEKDAYS)})\W*$", left):  # "tuesday or wednesday last week": one week
            first = resolve_period(f"{left.rstrip()} {week.group(0)}", now)
        if first is None or first.point:
            continue
        second = _relative(right, first) or _other_half(right, first) or resolve_period(right, now)
        if second is None or second.point:
            continue
        if (second.start, second.end) == (first.start, first.end):
            continue
        return first, second
    return None
