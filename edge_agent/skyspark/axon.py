"""The part of Axon and of hisRead ranges the simulator evaluates: `parse_range` (a hisRead range → [start, end)),
`parse_axon` (`read(f)`, `readAll(f)`, `….hisRead(r)`; anything else refused) and `axon_range`. Pure functions of
text, a time zone and the simulator's clock; a bad expression raises `OpError`, which the simulator
(`skyspark.simulator`) answers as an error grid.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import date, datetime, timedelta
from zoneinfo import ZoneInfo

from edge_agent.skyspark.encoding import EncodingError
from edge_agent.skyspark.zinc_reader import Scanner


class OpError(Exception):
    """Answered as an error grid; `kind` is the SkySpark error type named in `dis`."""

    def __init__(self, msg: str, kind: str = "Err"):
        super().__init__(f"sys::{kind}: {msg}")


# ── ranges ────────────────────────────────────────────────────────────────────


def _midnight(d: date, tz: ZoneInfo) -> datetime:
    return datetime(d.year, d.month, d.day, tzinfo=tz)


def _range_part(text: str, tz: ZoneInfo, now: datetime, is_end: bool) -> datetime:
    text = text.strip()
    today = now.astimezone(tz).date()
    if text in ("today", "yesterday"):
        d = today if text == "today" else today - timedelta(days=1)
        return _midnight(d + timedelta(days=1) if is_end else d, tz)
    sc = Scanner(text)
    try:
        val = sc.literal()
    except EncodingError:
        val = None
    if sc.pos != len(text) or not isinstance(val, (date, datetime)):
        raise OpError(f"invalid range part {text!r}: expected today, yesterday, a date or a dateTime", "ParseErr")
    if isinstance(val, datetime):
        return val
    return _midnight(val + timedelta(days=1) if is_end else val, tz)


def parse_range(text: str, tz: ZoneInfo, now: datetime) -> tuple[datetime, datetime]:
    """A hisRead range → [start, end). Dates cover whole days in `tz` (a `date,date` span includes its
    end date, as in haystack-java); dateTimes are exact, start inclusive and end exclusive."""
    text = text.strip()
    if not text:
        raise OpError("empty range", "ParseErr")
    if "," in text:
        first, second = text.split(",", 1)
        start = _range_part(first, tz, now, False)
        end = _range_part(second, tz, now, True)
        if _range_part(second, tz, now, False) < start:
            raise OpError(f"range {text!r} ends before it starts", "ParseErr")
    else:
        start = _range_part(text, tz, now, False)
        end = _range_part(text, tz, now, True) if not re.search(r"T\d", text) else datetime(2100, 1, 1, tzinfo=tz)
    if end < start:
        raise OpError(f"range {text!r} ends before it starts", "ParseErr")
    return start, end


# ── the eval subset ───────────────────────────────────────────────────────────


@dataclass
class AxonCall:
    func: str  # read | readAll
    filter: str
    his_range: str | None = None


def _balanced(text: str, start: int) -> int:
    """Index of the ')' closing the '(' at `start`, skipping string and uri literals."""
    depth, i = 0, start
    while i < len(text):
        ch = text[i]
        if ch in '"`':
            j = i + 1
            while j < len(text) and text[j] != ch:
                j += 2 if text[j] == "\\" else 1
            i = j + 1
            continue
        if ch == "(":
            depth += 1
        elif ch == ")":
            depth -= 1
            if depth == 0:
                return i
        i += 1
    raise OpError("unbalanced parentheses", "ParseErr")


def parse_axon(expr: str) -> AxonCall:
    """`readAll(f)`, `read(f)`, `read(f).hisRead(r)`, `readAll(f).hisRead(r)`; anything else is refused."""
    text = expr.strip()
    m = re.match(r"(readAll|read)\s*\(", text)
    if not m:
        raise OpError(
            "the simulator evaluates only readAll(filter), read(filter) and read(filter).hisRead(range)", "EvalErr"
        )
    close = _balanced(text, m.end() - 1)
    call = AxonCall(m.group(1), text[m.end() : close].strip())
    rest = text[close + 1 :].strip()
    if rest:
        h = re.match(r"\.\s*hisRead\s*\(", rest)
        if not h:
            raise OpError(f"unsupported expression after {m.group(1)}(...): {rest[:30]!r}", "EvalErr")
        hclose = _balanced(rest, h.end() - 1)
        if rest[hclose + 1 :].strip():
            raise OpError("unsupported expression after hisRead(...)", "EvalErr")
        call.his_range = rest[h.end() : hclose].strip()
    return call


def axon_range(text: str, tz: ZoneInfo, now: datetime) -> tuple[datetime, datetime]:
    """Axon range: today, yesterday, a date, `date..date` (inclusive), `dateTime..dateTime`, or a string
    holding a Haystack hisRead range."""
    text = text.strip()
    if text.startswith('"'):
        sc = Scanner(text)
        val = sc.literal()
        if sc.pos != len(text):
            raise OpError(f"bad range {text!r}", "ParseErr")
        return parse_range(val, tz, now)
    if ".." in text:
        first, second = text.split("..", 1)
        return _range_part(first, tz, now, False), _range_part(second, tz, now, True)
    return parse_range(text, tz, now)
