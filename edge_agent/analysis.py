"""Conclusions computed in code from series: energy from power, ranking, two series aligned, excursions.

Pure functions over `Point`s (a time and a number); the analysis tools (`edge_agent/analysis_tools/`) feed them the
`hisRead` samples `histories` reads, and the rules are the contract in docs/analysis.md, which the benchmark's
checker implements on its own:

- a series is the numeric samples of a period, in time order; its *spacing* is the (lower) median interval between
  consecutive samples and an interval longer than `GAP_FACTOR` × the spacing is a gap;
- `energy_kwh`: the trapezoid over consecutive samples that are not a gap, values in kW (W ÷ 1000, MW × 1000);
  `amount`: the same trapezoid of a rate of an amount (`rate_unit`: t/h, m³/h, cfh) in that amount;
  `is_running_total`: a meter's register, whose count over a period is its `rise`;
- `rank`: an aggregate per series, highest or lowest first, series without numbers last, ties within 1e-9;
- `align`: two series on identical timestamps (an inner join), `combine`: difference, sum or ratio of the pairs
  (a pair whose divisor is 0 is dropped and counted);
- `excursions`: samples strictly above (below) a limit, share, time held (each until the next sample, at most one
  spacing), first and last, worst excess.
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from statistics import fmean, median, median_low
from typing import Literal

GAP_FACTOR = 3
TIE = 1e-9
POWER_UNITS = {"w": 1e-3, "kw": 1.0, "mw": 1e3}

Aggregate = Literal["max", "min", "mean", "median", "energy", "first", "last", "rise", "amount"]
Order = Literal["highest", "lowest"]
Operation = Literal["difference", "sum", "ratio"]
Direction = Literal["above", "below"]


@dataclass(frozen=True)
class Point:
    at: datetime
    value: float


def numeric(value) -> float | None:
    """A sample's value as a number, or None (booleans, strings, nulls and non-finite values are not numbers)."""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return None
    value = float(value)
    return value if math.isfinite(value) else None


def series(samples: Iterable[tuple[datetime, object]]) -> list[Point]:
    """The numeric samples in time order (a repeated timestamp keeps its first value)."""
    out: dict[float, Point] = {}  # keyed by instant: one ZoneInfo compares by wall clock (a DST change repeats an hour)
    for at, value in samples:
        v = numeric(value)
        if v is not None and at.timestamp() not in out:
            out[at.timestamp()] = Point(at, v)
    return [out[k] for k in sorted(out)]


def spacing(points: Sequence[Point]) -> timedelta | None:
    """The median interval between consecutive samples (None for fewer than two)."""
    steps = [(b.at - a.at).total_seconds() for a, b in zip(points, points[1:])]
    return timedelta(seconds=median_low(steps)) if steps else None


def is_power(unit: str | None) -> bool:
    return (unit or "").strip().casefold() in POWER_UNITS


@dataclass(frozen=True)
class Energy:
    kwh: float
    gaps: int = 0
    gap_hours: float = 0.0


def energy_kwh(points: Sequence[Point], unit: str | None) -> Energy:
    """The trapezoidal integral of power samples in kWh, gaps left out (docs/analysis.md): the `amount` of a rate
    per hour, in kW."""
    scale = POWER_UNITS[(unit or "").strip().casefold()]
    hourly = amount(points, 3600.0)
    return Energy(kwh=hourly.kwh * scale, gaps=hourly.gaps, gap_hours=hourly.gap_hours)


#: rate units written as one word: the amount they count and the seconds of their time unit
_RATE_WORDS = {
    "cfh": ("ft³", 3600.0),
    "scfh": ("ft³", 3600.0),
    "cfm": ("ft³", 60.0),
    "scfm": ("ft³", 60.0),
    "gpm": ("gal", 60.0),
    "gph": ("gal", 3600.0),
    "lps": ("L", 1.0),
}
_PER = {"h": 3600.0, "hr": 3600.0, "hour": 3600.0, "min": 60.0, "s": 1.0, "sec": 1.0, "d": 86400.0, "day": 86400.0}
_RATE = re.compile(r"(?P<amount>[^/\s][^/]*?)\s*/\s*(?P<per>h|hr|hour|min|s|sec|d|day)", re.I)


def rate_unit(unit: str | None) -> tuple[str, float] | None:
    """A unit of an amount per time ("t/h", "m³/h", "cfh", "gal/min") as (the amount's unit, seconds per time
    unit); None for any other unit. Whether the amount adds up (a volume, a mass, not a distance) is the caller's to
    say (`fieldvocab.quantity_of_unit`)."""
    text = (unit or "").strip()
    if text.casefold() in _RATE_WORDS:
        return _RATE_WORDS[text.casefold()]
    m = _RATE.fullmatch(text)
    return (m["amount"].strip(), _PER[m["per"].casefold()]) if m else None


def amount(points: Sequence[Point], per_seconds: float, sign: int = 0) -> Energy:
    """The trapezoidal integral of a rate's samples (in its amount per `per_seconds`), gaps left out like an
    energy's: what a flow of steam, gas or water delivered over the period. With `sign` +1 (-1), only the part above
    (below) zero of a signed series, as a magnitude: the line between two samples of opposite signs crosses zero
    where it does (a battery's energy discharged, its energy charged)."""
    step = spacing(points)
    total, gaps, gap_s = 0.0, 0, 0.0
    for a, b in zip(points, points[1:]):
        seconds = (b.at - a.at).total_seconds()
        if step is not None and seconds > GAP_FACTOR * step.total_seconds():
            gaps += 1
            gap_s += seconds
            continue
        total += _part(a.value * (sign or 1), b.value * (sign or 1), bool(sign)) * seconds / per_seconds
    return Energy(kwh=total, gaps=gaps, gap_hours=gap_s / 3600)


def _part(a: float, b: float, above_only: bool) -> float:
    """The mean over an interval of the line from `a` to `b` (only of its part above zero, with `above_only`)."""
    if not above_only or (a >= 0 and b >= 0):
        return (a + b) / 2
    if a <= 0 and b <= 0:
        return 0.0
    high = max(a, b)
    return high * high / (2 * (high - min(a, b)))  # the triangle above zero, over the whole interval


def energy_by_sign(points: Sequence[Point], unit: str | None) -> tuple[float, float] | None:
    """A signed power series' energy above zero and below zero (kWh, both magnitudes), where its samples have both
    signs; None where they do not (its energy is all of one direction)."""
    if not points or min(p.value for p in points) >= 0 or max(p.value for p in points) <= 0:
        return None
    scale = POWER_UNITS[(unit or "").strip().casefold()]
    return amount(points, 3600.0, 1).kwh * scale, amount(points, 3600.0, -1).kwh * scale


#: SI prefixes a unit symbol may carry before one base symbol ("MWh" is 1000 "kWh")
_SI_PREFIX = {"": 1.0, "k": 1e3, "M": 1e6, "G": 1e9, "m": 1e-3}
#: units that are a prefixed base under another symbol
_AS_PREFIXED = {"t": "Mg", "tonne": "Mg", "L": "dm³"}


def unit_factor(unit: str | None, to: str | None) -> float | None:
    """How many `to` one `unit` is, where both are one base symbol with SI prefixes ("MWh" → "kWh": 1000, "kW" →
    "W": 1000, "t" → "kg": 1000); None where they are not (another base, or no unit)."""
    if not unit or not to:
        return None
    a, b = _AS_PREFIXED.get(unit, unit), _AS_PREFIXED.get(to, to)
    for pa, fa in _SI_PREFIX.items():
        for pb, fb in _SI_PREFIX.items():
            if a.startswith(pa) and b.startswith(pb) and a[len(pa) :] == b[len(pb) :] and a[len(pa) :]:
                return fa / fb
    return None


def aggregate(points: Sequence[Point], how: Aggregate, unit: str | None = None) -> tuple[float, datetime | None] | None:
    """The aggregate of a series and, for max/min/first/last, the time of (the first occurrence of) it."""
    if not points:
        return None
    if how == "max":
        best = max(points, key=lambda p: p.value)  # max() keeps the first of equals
        return best.value, best.at
    if how == "min":
        best = min(points, key=lambda p: p.value)
        return best.value, best.at
    if how == "mean":
        return fmean(p.value for p in points), None
    if how == "median":  # the middle sample's value (the mean of the two middle ones)
        return median(p.value for p in points), None
    if how == "first":
        return points[0].value, points[0].at
    if how == "last":
        return points[-1].value, points[-1].at
    if how == "energy":
        if len(points) < 2:
            return None
        return energy_kwh(points, unit).kwh, None
    if how == "amount":  # a rate's integral over the period, in the amount its unit counts
        rate = rate_unit(unit)
        if rate is None or len(points) < 2:
            return None
        return amount(points, rate[1]).kwh, None
    if how == "rise":  # a running total's count over the period: its last reading less its first
        return (points[-1].value - points[0].value, None) if len(points) > 1 else None
    raise ValueError(f"unknown aggregate {how!r}")


def is_running_total(values: Sequence[float]) -> bool:
    """The readings of a meter's register (a running total: it never falls, and it rose), whose count over a period
    is its rise; their mean, maximum or sum says nothing about the period. Readings per interval go up and down."""
    return len(values) >= 3 and values[-1] > values[0] and all(b >= a for a, b in zip(values, values[1:]))


def tied(a: float, b: float) -> bool:
    return abs(a - b) <= TIE * max(1.0, abs(a))


@dataclass
class Ranked:
    """The assets in order: each with its aggregate (None: no data) and time; `winners` are the tied first."""

    rows: list[tuple[str, float | None, datetime | None]]

    @property
    def winners(self) -> list[str]:
        scored = [(name, v) for name, v, _ in self.rows if v is not None]
        if not scored:
            return []
        return [name for name, v in scored if tied(v, scored[0][1])]


def rank(by_name: dict[str, Sequence[Point]], how: Aggregate, order: Order, unit: str | None = None) -> Ranked:
    """Rank series by an aggregate; series without a value come last, in the given order."""
    scored: list[tuple[str, float, datetime | None]] = []
    empty: list[tuple[str, float | None, datetime | None]] = []
    for name, points in by_name.items():
        got = aggregate(points, how, unit)
        if got is not None:
            scored.append((name, *got))
        else:
            empty.append((name, None, None))
    scored.sort(key=lambda r: r[1], reverse=order == "highest")  # stable: ties keep the given order
    return Ranked(rows=scored + empty)


@dataclass
class Aligned:
    pairs: list[tuple[datetime, float, float]]
    only_a: int = 0
    only_b: int = 0


def align(a: Sequence[Point], b: Sequence[Point]) -> Aligned:
    """Pairs of samples at identical timestamps (an inner join), with the counts of samples left unpaired."""
    bs = {p.at: p.value for p in b}
    pairs = [(p.at, p.value, bs[p.at]) for p in a if p.at in bs]
    return Aligned(pairs=pairs, only_a=len(a) - len(pairs), only_b=len(b) - len(pairs))


def combine(aligned: Aligned, op: Operation) -> tuple[list[Point], int]:
    """The derived series of aligned pairs, and how many pairs were dropped (a ratio's zero divisor)."""
    out, dropped = [], 0
    for at, x, y in aligned.pairs:
        if op == "difference":
            out.append(Point(at, x - y))
        elif op == "sum":
            out.append(Point(at, x + y))
        elif y == 0:
            dropped += 1
        else:
            out.append(Point(at, x / y))
    return out, dropped


@dataclass
class Excursions:
    compared: int
    crossing: list[tuple[datetime, float]] = field(default_factory=list)  # (time, excess) of each sample past it
    held: timedelta = timedelta(0)

    @property
    def any(self) -> bool:
        return bool(self.crossing)

    @property
    def share(self) -> float:
        return len(self.crossing) / self.compared if self.compared else 0.0

    @property
    def worst(self) -> tuple[datetime, float] | None:
        return max(self.crossing, key=lambda c: c[1]) if self.crossing else None


def excursions(
    pairs: Sequence[tuple[datetime, float, float]], direction: Direction, period_end: datetime | None = None
) -> Excursions:
    """Samples strictly past their limit (value, limit pairs in time order); each holds until the next sample,
    at most one spacing (the last one spacing, cut at `period_end`)."""
    step = spacing([Point(at, v) for at, v, _ in pairs]) or timedelta(0)
    out = Excursions(compared=len(pairs))
    for n, (at, value, limit) in enumerate(pairs):
        excess = value - limit if direction == "above" else limit - value
        if excess <= 0:
            continue
        out.crossing.append((at, excess))
        until = pairs[n + 1][0] if n + 1 < len(pairs) else at + step
        if period_end is not None:
            until = min(until, period_end)
        out.held += max(timedelta(0), min(until - at, step))
    return out


def fmt(value: float) -> str:
    """A figure as answers write it: at most 4 decimals, no trailing zeros beyond one."""
    return repr(round(value, 4)) if abs(value) < 1e15 else f"{value:g}"


def hours(delta: timedelta) -> str:
    h = delta.total_seconds() / 3600
    return f"{fmt(h)} h"
