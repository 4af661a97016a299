"""Independent reading of the blind plant #2 (plant.json + plant.csv.gz) and the statistics its questions need.

Written from docs/bench.md's definitions only (not from edge_agent's code):
- a series is the numeric samples of one point in [start, end) (start inclusive, end exclusive);
- the spacing is the lower median of the intervals between consecutive samples; an interval longer than
  3 x the spacing is a gap;
- energy (kWh) = sum over consecutive samples that are not a gap of (v_i + v_{i+1}) / 2 x (t_{i+1} - t_i) in
  hours (kW; W / 1000, MW x 1000);
- an excursion is a sample strictly above (below) the limit, or the same asset's setpoint point at the same
  instant (aligned on identical timestamps);
- the time past a limit: each sample past it holds until the next compared sample, at most one spacing,
  the last one cut at `end`; a gap never counts. The share is samples past / samples compared.
"""

from __future__ import annotations

import csv
import gzip
import json
from dataclasses import dataclass
from datetime import datetime, timedelta
from functools import cache
from pathlib import Path
from zoneinfo import ZoneInfo

HERE = Path(__file__).resolve().parent
HAY_TZ = {"Chicago": "America/Chicago", "London": "Europe/London", "Denver": "America/Denver"}


@dataclass
class Point:
    id: str
    site: str
    equip: str
    nav: str
    unit: str | None
    kind: str
    tz: ZoneInfo


@cache
def catalog():
    grid = json.loads((HERE / "plant.json").read_text(encoding="utf-8"))
    rows = grid["rows"]
    sites = {r["id"]["val"]: r for r in rows if "site" in r}
    equips = {r["id"]["val"]: r for r in rows if "equip" in r}
    points = {}
    for r in rows:
        if "point" not in r:
            continue
        site = sites[r["siteRef"]["val"]]
        eq = equips[r["equipRef"]["val"]]
        points[r["id"]["val"]] = Point(r["id"]["val"], site["dis"], eq["dis"], r["navName"], r.get("unit"),
                                       r["kind"], ZoneInfo(HAY_TZ[site["tz"]]))
    return sites, equips, points


@cache
def histories() -> dict[str, list[tuple[datetime, float]]]:
    _, _, points = catalog()
    out: dict[str, list] = {pid: [] for pid in points}
    with gzip.open(HERE / "plant.csv.gz", "rt") as f:
        for row in csv.DictReader(f):
            p = points[row["id"]]
            v = row["val"]
            val = (1.0 if v == "true" else 0.0) if p.kind == "Bool" else float(v)
            out[row["id"]].append((datetime.fromisoformat(row["ts"]), val))
    for pid in out:
        out[pid].sort()
    return out


def find(site: str, equip: str, nav: str) -> Point:
    _, _, points = catalog()
    for p in points.values():
        if p.site == site and p.equip == equip and p.nav == nav:
            return p
    raise KeyError((site, equip, nav))


def series(site, equip, nav, start: datetime, end: datetime):
    p = find(site, equip, nav)
    return [(t, v) for t, v in histories()[p.id] if start <= t < end]


def spacing(s) -> timedelta:
    iv = sorted(s[i + 1][0] - s[i][0] for i in range(len(s) - 1))
    return iv[(len(iv) - 1) // 2]  # lower median


def agg(s, how: str) -> float:
    vals = [v for _, v in s]
    if how == "max":
        return max(vals)
    if how == "min":
        return min(vals)
    if how == "mean":
        return sum(vals) / len(vals)
    if how == "sum":
        return sum(vals)
    if how == "first":
        return vals[0]
    if how == "last":
        return vals[-1]
    raise ValueError(how)


def energy_kwh(s, unit="kW") -> float:
    sp = spacing(s)
    scale = {"W": 1 / 1000, "kW": 1.0, "MW": 1000.0}[unit]
    tot = 0.0
    for (t0, v0), (t1, v1) in zip(s, s[1:]):
        if t1 - t0 > 3 * sp:
            continue
        tot += (v0 + v1) / 2 * (t1 - t0).total_seconds() / 3600
    return tot * scale


def at(site, equip, nav, instant: datetime, window_min=60):
    s = series(site, equip, nav, instant - timedelta(minutes=window_min), instant + timedelta(seconds=1))
    return s[-1] if s else None


def extreme_instants(s, which: str):
    best = max(v for _, v in s) if which == "max" else min(v for _, v in s)
    return best, [t for t, v in s if v == best]


def aligned(a, b):
    bd = dict(b)
    return [(t, v, bd[t]) for t, v in a if t in bd]


def past(v, lim, direction):
    return v > lim if direction == "above" else v < lim


def excursions(site, equip, nav, start, end, direction, limit=None, limit_nav=None):
    s = series(site, equip, nav, start, end)
    if limit_nav:
        sp = series(site, equip, limit_nav, start, end)
        pairs = aligned(s, sp)
    else:
        pairs = [(t, v, limit) for t, v in s]
    hits = [(t, v, lim) for t, v, lim in pairs if past(v, lim, direction)]
    equal = [(t, v) for t, v, lim in pairs if v == lim]
    return pairs, hits, equal


def duration(site, equip, nav, start, end, direction, limit=None, limit_nav=None):
    pairs, hits, _ = excursions(site, equip, nav, start, end, direction, limit, limit_nav)
    sp = spacing([(t, v) for t, v, _ in pairs])
    held = timedelta(0)
    for i, (t, v, lim) in enumerate(pairs):
        if not past(v, lim, direction):
            continue
        nxt = pairs[i + 1][0] if i + 1 < len(pairs) else end
        d = nxt - t
        if i + 1 < len(pairs) and d > 3 * sp:
            continue  # a gap never counts
        held += min(d, sp)
    share = 100.0 * len(hits) / len(pairs)
    return held.total_seconds() / 3600, share, len(hits), len(pairs)


def equips_of(site: str, marker: str | None = None):
    sites, equips, _ = catalog()
    sid = next(k for k, r in sites.items() if r["dis"] == site)
    return [r["dis"] for r in equips.values() if r["siteRef"]["val"] == sid and (marker is None or marker in r)]


def points_of(site: str, equip: str):
    _, _, points = catalog()
    return [p.nav for p in points.values() if p.site == site and p.equip == equip]
