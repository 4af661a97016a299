"""What the blind sets' truth checks share (edge_agent/evaluation/plantkit/truth.py): the tables a set may give and
their defaults, ISO times and wall-clock times, the tolerance of a figure, and every window and instant of a check."""

from __future__ import annotations

import datetime as dt
from typing import TYPE_CHECKING, Any

from edge_agent.evaluation.plantkit.reading import Plant

#: the optional tables (and options) of a set, and their defaults
TABLES: dict[str, Any] = {
    "FLAT": {},
    "SAME_ANYWAY": {},
    "SAMPLES": {},
    "REGISTER": {},
    "MISSING_TAGS": {},
    "MARGIN_FLOOR": {},
    "MULTI_RUN": set(),
    "NEAR": {},
    "WRONG": {},
    "RIGHT_TOO": {},
    "SLOT_OTHER": set(),
    "GAP_POINT": {},
    "REGISTER_AT": set(),
    "REGISTER_SPAN": "start to end",
    "DESIGN": {},
    "WORDS": {},
    "SITE_BY_WORD": {},
    "SITE_TAG": True,
    "SITE_BY_TASK": {},
    "NEAR_EXTREME": {},
    "GAP_INSIDE": set(),
    "NOW_AFTER_DATA": False,
    "CLOCK": {},
    "NOT_RECORDED_TOPIC": "substring",
}


#: other readings of "last night" (start on yesterday, end on today, local clock hours; None = now): an aggregate
#: asked of "last night" must give the same figure over each
NIGHT_READINGS = [(12.0, None), (17.0, 7.0), (20.0, 8.0), (18.0, None)]


def T(s: str) -> dt.datetime:
    return dt.datetime.fromisoformat(s)


def wall(day: dt.date, hour: float, tz) -> dt.datetime:
    """A local wall-clock time on that day, written with the offset the site has then."""
    naive = dt.datetime.combine(day, dt.time(0)) + dt.timedelta(hours=hour)
    return naive.replace(tzinfo=tz).astimezone(dt.UTC).astimezone(tz)


def same(a: dt.datetime, b: dt.datetime) -> bool:
    """The same instant written with the same UTC offset."""
    return a == b and a.utcoffset() == b.utcoffset()


def fmtv(v: float) -> str:
    return f"{v:,.3f}".rstrip("0").rstrip(".")


def tolerance(c: dict, v: float) -> float:
    return max(c.get("rel_tol", 0.005) * abs(v), c.get("abs_tol", 0.01))


def whole_days(d0: str, d1: str, off: str, off1: str | None = None) -> dict:
    """A window of whole days d0 .. d1 (d1 excluded) for a WRONG reading, its ends written with the offset `off`
    (`off1` at the end, where the clocks change in between)."""
    return {"start": f"{d0}T00:00:00{off}", "end": f"{d1}T00:00:00{off1 or off}"}


def windows(x, site=None):
    """(site, start, end) of every window and instant in an expect block."""
    if isinstance(x, dict):
        site = x.get("site", site)
        if "start" in x and "end" in x:
            yield site, T(x["start"]), T(x["end"])
        if isinstance(x.get("at"), str):
            yield site, T(x["at"]), T(x["at"])
        for v in x.values():
            if isinstance(v, (dict, list)):
                yield from windows(v, site)
    elif isinstance(x, list):
        for v in x:
            yield from windows(v, site)


class Parts:
    """What the parts of a truth (figures.py, catalogchecks.py, readings.py) read of the whole: the plant, the lines
    being written, the set's tables and the whole's own checks. `Truth` (truth.py) holds and defines them; this class
    only declares them, for the type checker."""

    P: Plant
    out: list[str]
    #: the set's tables (TABLES: their defaults)
    FLAT: Any
    SAME_ANYWAY: Any
    SAMPLES: Any
    REGISTER: Any
    MISSING_TAGS: Any
    MARGIN_FLOOR: Any
    MULTI_RUN: Any
    NEAR: Any
    WRONG: Any
    RIGHT_TOO: Any
    SLOT_OTHER: Any
    GAP_POINT: Any
    REGISTER_AT: Any
    REGISTER_SPAN: Any
    DESIGN: Any
    WORDS: Any
    SITE_BY_WORD: Any
    SITE_TAG: Any
    SITE_BY_TASK: Any
    NEAR_EXTREME: Any
    GAP_INSIDE: Any
    NOW_AFTER_DATA: Any
    CLOCK: Any
    NOT_RECORDED_TOPIC: Any

    if TYPE_CHECKING:

        def bad(self, tid: str, msg: str) -> None: ...
        def design(self, tid: str, got: Any, what: str) -> None: ...
        def midnight(self, day: dt.date, tz: Any) -> dt.datetime: ...
        def no_gaps(self, tid: str, ser: Any, what: str) -> None: ...
        def n_samples(self, tid: str, ser: Any, which: int = 0) -> None: ...
        def ranked_assets(self, c: dict) -> list[str]: ...
        def site_of(self, c: dict) -> Any: ...
        def assets_named(self, tid: str, c: dict) -> list[str]: ...
        def compared_of(
            self, c: dict, ser: Any, start: dt.datetime | None = None, end: dt.datetime | None = None
        ) -> Any: ...
        def derived(self, c: Any, start: Any = None, end: Any = None) -> Any: ...
