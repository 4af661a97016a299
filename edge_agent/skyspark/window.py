"""The time window of a histories request: ISO 8601 text in, a checked [start, end) or a point instant out.

Dates and date-times are ISO 8601; naive ones are read in the site's timezone, ones with an offset
(or Z) keep it. A `start` alone, or `final` equal to `start`, is a point query (the value at or just
before that instant). Otherwise the window is start inclusive, final exclusive, and may span at
most `max_days` days. Every problem is a `WindowError` with a sentence the model can act on.
"""

from __future__ import annotations

from datetime import datetime, timedelta
from zoneinfo import ZoneInfo

from pydantic import BaseModel

from edge_agent.clock import parse_instant


class WindowError(ValueError):
    """A bad date, a start after the end, or a range that is too long."""


class Window(BaseModel):
    start: datetime
    end: datetime | None = None  # None: point query at `start`

    @property
    def is_point(self) -> bool:
        return self.end is None


def parse_when(text: str, tz: ZoneInfo, what: str) -> datetime:
    if not isinstance(text, str) or not text.strip():
        raise WindowError(
            f"{what} is empty; give an ISO 8601 date or date-time such as 2024-07-15 or 2024-07-15T13:00:00"
        )
    try:
        return parse_instant(text.strip(), tz).astimezone(tz)
    except (ValueError, OverflowError):
        raise WindowError(
            f"{what} {text.strip()!r} is not an ISO 8601 date or date-time; use e.g. 2024-07-15 or 2024-07-15T13:00:00"
        ) from None


def parse_window(start: str, final: str | None, tz: ZoneInfo, max_days: int) -> Window:
    begin = parse_when(start, tz, "start")
    if final is None or not str(final).strip():
        return Window(start=begin)
    end = parse_when(final, tz, "final")
    if end == begin:
        return Window(start=begin)
    if end < begin:
        raise WindowError(f"start {begin.isoformat()} is after final {end.isoformat()}; swap them or fix the dates")
    if end - begin > timedelta(days=max_days):
        days = (end - begin) / timedelta(days=1)
        raise WindowError(
            f"the range from {begin.date()} to {end.date()} is {days:.1f} days; at most {max_days} "
            "days may be read at once, so split it into shorter ranges"
        )
    return Window(start=begin, end=end)
