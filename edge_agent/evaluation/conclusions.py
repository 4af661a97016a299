"""The checker's own computations of the conclusions in docs/analysis.md, independent of the agent's tools.

Pure functions over a series given as (instant, value) pairs in time order, values already numbers:
the spacing (the lower median of the intervals), energy from power (trapezoid, gaps of more than
3 × the spacing not integrated), alignment on identical timestamps, derived series, strict excursions and the
time held past a limit, the instants of an extreme, and rankings with ties. `edge_agent/analysis.py` implements
the same contract for the tools; the benchmark deliberately does not import it, so a bug there cannot hide in
a checker that shares it.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from datetime import datetime
from statistics import fmean, median_low
from typing import Literal

Pair = tuple[datetime, float]
GAP_FACTOR = 3.0
TIE = 1e-9
KW_PER = {"w": 0.001, "kw": 1.0, "mw": 1000.0}


def clean(samples: Sequence[tuple[datetime, float | None]]) -> list[Pair]:
    """Numeric samples in time order, one per instant (the first kept)."""
    out: dict[float, Pair] = {}  # keyed by instant: one ZoneInfo compares by wall clock (DST repeats an hour)
    for at, value in samples:
        if value is not None and not isinstance(value, bool) and value == value and at.timestamp() not in out:
            out[at.timestamp()] = (at, float(value))
    return [out[k] for k in sorted(out)]


def spacing_s(series: Sequence[Pair]) -> float | None:
    """The lower median of the intervals between consecutive samples, in seconds (None for < 2 samples)."""
    steps = [(b[0] - a[0]).total_seconds() for a, b in zip(series, series[1:])]
    return float(median_low(steps)) if steps else None


def power_scale(unit: str | None) -> float | None:
    """kW per unit of a power point, None when the unit is not power."""
    return KW_PER.get((unit or "").strip().casefold())


def energy_kwh(series: Sequence[Pair], unit: str | None) -> float | None:
    """Trapezoidal kWh over consecutive samples that are not a gap; None for fewer than two samples."""
    scale = power_scale(unit)
    if scale is None:
        raise ValueError(f"energy needs a power unit (W, kW, MW), not {unit!r}")
    step = spacing_s(series)
    if step is None:
        return None
    total = 0.0
    for (t0, v0), (t1, v1) in zip(series, series[1:]):
        seconds = (t1 - t0).total_seconds()
        if seconds > GAP_FACTOR * step:
            continue
        total += (v0 + v1) / 2 * scale * seconds / 3600.0
    return total


def aggregate(series: Sequence[Pair], how: str, unit: str | None = None) -> float | None:
    """max / min / mean / sum / first / last / energy of a series; None when it has no value."""
    if not series:
        return None
    values = [v for _, v in series]
    if how == "energy":
        return energy_kwh(series, unit)
    ops: dict[str, Callable[[list[float]], float]] = {
        "max": max,
        "min": min,
        "mean": fmean,
        "sum": sum,
        "first": lambda v: v[0],
        "last": lambda v: v[-1],
    }
    return ops[how](values)


def align(a: Sequence[Pair], b: Sequence[Pair]) -> list[tuple[datetime, float, float]]:
    """Pairs at identical instants (an inner join), in a's order."""
    other = dict(b)
    return [(at, x, other[at]) for at, x in a if at in other]


def derive(a: Sequence[Pair], b: Sequence[Pair], op: Literal["difference", "sum", "ratio"]) -> list[Pair]:
    """a − b, a + b or a ÷ b on aligned instants; a ratio's pairs with b = 0 are dropped."""
    out = []
    for at, x, y in align(a, b):
        if op == "difference":
            out.append((at, x - y))
        elif op == "sum":
            out.append((at, x + y))
        elif y != 0:
            out.append((at, x / y))
    return out


def crossed(pairs: Sequence[tuple[datetime, float, float]], direction: Literal["above", "below"]) -> list[datetime]:
    """The instants whose value is strictly above (below) the limit at that instant."""
    if direction == "above":
        return [at for at, v, lim in pairs if v > lim]
    return [at for at, v, lim in pairs if v < lim]


def held_s(
    pairs: Sequence[tuple[datetime, float, float]], direction: Literal["above", "below"], end: datetime
) -> float:
    """Seconds past the limit: each sample past it holds until the next compared sample, at most one spacing
    (the last one holds one spacing, cut at `end`), so a gap never counts as time past the limit."""
    step = spacing_s([(at, v) for at, v, _ in pairs])
    if step is None:
        step = max(0.0, (end - pairs[0][0]).total_seconds()) if pairs else 0.0
    past = set(crossed(pairs, direction))
    total = 0.0
    for i, (at, _, _) in enumerate(pairs):
        if at in past:
            until = pairs[i + 1][0] if i + 1 < len(pairs) else end
            total += max(0.0, min((until - at).total_seconds(), step))
    return total


def extreme_instants(series: Sequence[Pair], extreme: Literal["max", "min"]) -> list[datetime]:
    """The instants holding the series' max (min), ties within TIE together; empty for an empty series."""
    if not series:
        return []
    best = max(v for _, v in series) if extreme == "max" else min(v for _, v in series)
    return [at for at, v in series if tied(best, v)]


def tied(a: float, b: float) -> bool:
    return abs(a - b) <= TIE * max(1.0, abs(a))


def winners(values: dict[str, float | None], order: Literal["highest", "lowest"]) -> list[str]:
    """The assets whose value is tied with the best one; assets without a value never win."""
    scored = {k: v for k, v in values.items() if v is not None}
    if not scored:
        return []
    best = max(scored.values()) if order == "highest" else min(scored.values())
    return [k for k, v in scored.items() if tied(best, v)]
