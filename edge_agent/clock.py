"""The agent's clock: real time, or a fixed "now" for reproducible runs (`--now`)."""

from __future__ import annotations

from datetime import datetime, tzinfo
from functools import lru_cache
from zoneinfo import ZoneInfo, available_timezones


def parse_instant(text: str, tz: tzinfo | None = None) -> datetime:
    """Parse an ISO 8601 date or date-time; naive values are placed in `tz` (default: local time)."""
    value = datetime.fromisoformat(text.strip().replace("Z", "+00:00"))
    if value.tzinfo is None:
        value = value.replace(tzinfo=tz) if tz is not None else value.astimezone()
    return value


def haystack_tz_name(tz: tzinfo | str) -> str:
    """Haystack names a timezone by its city: America/New_York → New_York; UTC → UTC."""
    name = tz if isinstance(tz, str) else str(getattr(tz, "key", tz))
    if name in ("UTC", "Etc/UTC", "Z"):
        return "UTC"
    return name.split("/")[-1]


@lru_cache(maxsize=1)
def _tz_table() -> dict[str, str]:
    table: dict[str, str] = {}
    for full in sorted(available_timezones(), key=lambda n: (n.count("/"), n)):
        if full.startswith(("posix/", "right/")) or "/" not in full:
            continue
        table.setdefault(haystack_tz_name(full), full)
    table["UTC"] = "UTC"
    return table


@lru_cache(maxsize=256)
def zone_named(name: str) -> ZoneInfo:
    """ZoneInfo for a Haystack city name ("New_York") or an IANA name ("America/New_York"); KeyError where neither."""
    if "/" in name:
        try:
            return ZoneInfo(name)
        except Exception:
            raise KeyError(name) from None
    return ZoneInfo(_tz_table()[name])


class Clock:
    """Tells the time in the site's timezone; `fixed` pins "now" (tests, benchmarks, `--now`)."""

    def __init__(self, fixed: datetime | str | None = None, timezone: str | None = None):
        self.tz: tzinfo | None = ZoneInfo(timezone) if timezone else None
        if isinstance(fixed, str):
            fixed = parse_instant(fixed, self.tz)
        elif fixed is not None and fixed.tzinfo is None:
            fixed = fixed.replace(tzinfo=self.tz) if self.tz else fixed.astimezone()
        self.fixed = fixed

    def now(self) -> datetime:
        if self.fixed is not None:
            return self.fixed
        return datetime.now(self.tz) if self.tz else datetime.now().astimezone()

    def parse(self, text: str) -> datetime:
        """Parse a model- or user-supplied ISO 8601 instant in this clock's timezone."""
        return parse_instant(text, self.tz or self.now().tzinfo)
