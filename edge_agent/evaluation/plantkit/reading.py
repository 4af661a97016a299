"""The kit's reading library (docs/plants.md; bench/blind_truthlib.py until issue 43), independent of the agent: reads a
set's plant.json and plant.csv.gz only. Written by blind set 3's writer; the later writers used it unchanged.

Definitions (docs/bench.md, docs/analysis.md as documented there):
- a window is [start, end) in absolute time; days are [00:00, next 00:00) in site time; weeks start on Monday;
- a series is the numeric samples of one point in the window; the spacing is the LOWER median of the intervals;
  an interval longer than 3 x spacing is a gap;
- energy (kWh) = sum over consecutive samples that are not a gap of (v_i + v_{i+1}) / 2 x hours; W / 1000, MW x 1000;
- an excursion is a sample strictly past the limit (a number, or the same asset's setpoint at the same instant;
  instants without a partner are not compared);
- time past a limit: each sample past it holds until the next compared sample, at most one spacing, the last one cut
  at the window's end; the share is past samples / compared samples;
- "at" = the sample at that instant, else the latest one before it within the window (minutes).
"""

from __future__ import annotations

import csv
import datetime as dt
import gzip
import json
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from zoneinfo import ZoneInfo

#: the Haystack time zone names of the blind sets' sites (set 6 added Adelaide, Sao_Paulo, Phoenix; set 7 Detroit,
#: Oslo, Kathmandu; set 8 Helsinki, Santiago, Anchorage; set 9 Mexico_City, Indianapolis, Singapore)
HS_TZ = {
    "Sydney": "Australia/Sydney",
    "Chicago": "America/Chicago",
    "Auckland": "Pacific/Auckland",
    "London": "Europe/London",
    "Denver": "America/Denver",
    "Tokyo": "Asia/Tokyo",
    "Copenhagen": "Europe/Copenhagen",
    "Adelaide": "Australia/Adelaide",
    "Sao_Paulo": "America/Sao_Paulo",
    "Phoenix": "America/Phoenix",
    "Detroit": "America/Detroit",
    "Oslo": "Europe/Oslo",
    "Kathmandu": "Asia/Kathmandu",
    "Helsinki": "Europe/Helsinki",
    "Santiago": "America/Santiago",
    "Anchorage": "America/Anchorage",
    "Mexico_City": "America/Mexico_City",
    "Indianapolis": "America/Indiana/Indianapolis",
    "Singapore": "Asia/Singapore",
    "Rome": "Europe/Rome",
    "Puerto_Rico": "America/Puerto_Rico",
    "Johannesburg": "Africa/Johannesburg",
    "Dublin": "Europe/Dublin",
    "Toronto": "America/Toronto",
    "Taipei": "Asia/Taipei",
    "Perth": "Australia/Perth",
    "New_York": "America/New_York",
    "Amsterdam": "Europe/Amsterdam",
    "Vancouver": "America/Vancouver",
    "Dubai": "Asia/Dubai",
    "Berlin": "Europe/Berlin",
    "Nairobi": "Africa/Nairobi",
    "Hong_Kong": "Asia/Hong_Kong",
    "Hobart": "Australia/Hobart",
    "Istanbul": "Europe/Istanbul",
    "Brisbane": "Australia/Brisbane",
    "Warsaw": "Europe/Warsaw",
    "Dhaka": "Asia/Dhaka",
    "Buenos_Aires": "America/Argentina/Buenos_Aires",
    "Reykjavik": "Atlantic/Reykjavik",
    "Moncton": "America/Moncton",
    "Lisbon": "Europe/Lisbon",
    "Accra": "Africa/Accra",
    "Zurich": "Europe/Zurich",
    "Aqtobe": "Asia/Aqtobe",
    "Ho_Chi_Minh": "Asia/Ho_Chi_Minh",
    "Kolkata": "Asia/Kolkata",
    "Casablanca": "Africa/Casablanca",
    "Los_Angeles": "America/Los_Angeles",
    "Stockholm": "Europe/Stockholm",
    "Manaus": "America/Manaus",
    "Tehran": "Asia/Tehran",
    "Riyadh": "Asia/Riyadh",
    "St_Johns": "America/St_Johns",
    "Lagos": "Africa/Lagos",
    "Lord_Howe": "Australia/Lord_Howe",
    "Madrid": "Europe/Madrid",
    "Karachi": "Asia/Karachi",
    "Chatham": "Pacific/Chatham",
    "Yangon": "Asia/Yangon",
    "Bogota": "America/Bogota",
    "Cairo": "Africa/Cairo",
    "Honolulu": "Pacific/Honolulu",
    "Eucla": "Australia/Eucla",
}
STRUCTURAL = {"id", "dis", "navName", "equip", "siteRef", "site", "tz", "geoCity"}


def norm(s: str) -> str:
    return "".join(c for c in s.lower() if c not in " _-")


@dataclass
class Point:
    id: str
    nav: str
    kind: str
    unit: str | None
    tags: set[str]
    ts: list[dt.datetime]
    vals: list[float]


@dataclass
class Equip:
    id: str
    dis: str
    markers: set[str]
    record: dict
    points: dict[str, Point]


@dataclass
class Site:
    id: str
    dis: str
    tz: ZoneInfo
    equips: dict[str, Equip]


def _val(v):
    if isinstance(v, dict):
        return v.get("val")
    return v


class Plant:
    def __init__(self, json_path: Path, csv_path: Path):
        grid = json.loads(json_path.read_text())
        self.sites: dict[str, Site] = {}
        equip_by_id: dict[str, Equip] = {}
        points: dict[str, Point] = {}
        pending = []
        for r in grid["rows"]:
            rid = _val(r["id"])
            if "site" in r:
                self.sites[rid] = Site(rid, r["dis"], ZoneInfo(HS_TZ[r["tz"]]), {})
            elif "equip" in r:
                markers = {k for k, v in r.items() if isinstance(v, dict) and v.get("_kind") == "marker"} - {"equip"}
                e = Equip(rid, r["dis"], markers, r, {})
                equip_by_id[rid] = e
                self.sites[_val(r["siteRef"])].equips[r["dis"]] = e
            elif "point" in r:
                tags = {k for k, v in r.items() if isinstance(v, dict) and v.get("_kind") == "marker"}
                p = Point(rid, r["navName"], r["kind"], r.get("unit"), tags, [], [])
                points[rid] = p
                pending.append((_val(r["equipRef"]), p))
        for eid, p in pending:
            equip_by_id[eid].points[p.nav] = p
        with gzip.open(csv_path, "rt", newline="") as f:
            for row in csv.DictReader(f):
                p = points[row["id"].lstrip("@")]
                p.ts.append(dt.datetime.fromisoformat(row["ts"]))
                v = row["val"]
                p.vals.append(1.0 if v == "true" else 0.0 if v == "false" else float(v))

    # -- catalog -------------------------------------------------------------------------------------------------
    def site(self, name: str) -> Site | None:
        for s in self.sites.values():
            if norm(s.dis) == norm(name):
                return s
        return None

    def equip(self, site: str, name: str) -> Equip | None:
        s = self.site(site)
        if s is None:
            return None
        for e in s.equips.values():
            if norm(e.dis) == norm(name):
                return e
        return None

    def point(self, site: str, asset: str, sensor: str) -> Point:
        e = self.equip(site, asset)
        assert e is not None, (site, asset)
        for p in e.points.values():
            if norm(p.nav) == norm(sensor):
                return p
        raise KeyError((site, asset, sensor))

    # -- series --------------------------------------------------------------------------------------------------
    def series(self, site: str, asset: str, sensor: str, start: dt.datetime, end: dt.datetime):
        p = self.point(site, asset, sensor)
        return [(t, v) for t, v in zip(p.ts, p.vals) if start <= t < end]


def spacing(ser) -> dt.timedelta:
    d = sorted(ser[i + 1][0] - ser[i][0] for i in range(len(ser) - 1))
    return d[(len(d) - 1) // 2]  # lower median


def gaps(ser) -> list[tuple[dt.datetime, dt.datetime]]:
    sp = spacing(ser)
    return [(a[0], b[0]) for a, b in zip(ser, ser[1:]) if b[0] - a[0] > 3 * sp]


def aggregate(ser, how: str) -> float:
    v = [x for _, x in ser]
    stats: dict[str, Callable[[list[float]], float]] = {
        "max": max,
        "min": min,
        "mean": lambda a: sum(a) / len(a),
        "sum": sum,
        "first": lambda a: a[0],
        "last": lambda a: a[-1],
    }
    return stats[how](v)


def at(point: Point, instant: dt.datetime, window_min: int = 60):
    best = None
    for t, v in zip(point.ts, point.vals):
        if t <= instant and instant - t <= dt.timedelta(minutes=window_min):
            best = (t, v)
    return best


SCALE = {"W": 0.001, "kW": 1.0, "MW": 1000.0}


def energy(ser, unit: str | None) -> float:
    sp = spacing(ser)
    tot = 0.0
    for (t0, v0), (t1, v1) in zip(ser, ser[1:]):
        if t1 - t0 > 3 * sp:
            continue
        tot += (v0 + v1) / 2 * (t1 - t0).total_seconds() / 3600
    return tot * SCALE[str(unit)]


def compared(ser, limit: float | None, limit_ser=None):
    """(t, value, limit-at-t) for the compared samples."""
    if limit_ser is None:
        return [(t, v, limit) for t, v in ser]
    lim = dict(limit_ser)
    return [(t, v, lim[t]) for t, v in ser if t in lim]


def past(v: float, lim: float, direction: str) -> bool:
    return v > lim if direction == "above" else v < lim


def duration(ser, comp, direction: str, end: dt.datetime):
    sp = spacing(ser)
    total = dt.timedelta(0)
    n_past = 0
    for i, (t, v, lim) in enumerate(comp):
        if not past(v, lim, direction):
            continue
        n_past += 1
        nxt = comp[i + 1][0] if i + 1 < len(comp) else end
        total += min(nxt - t, sp)
    return total, n_past, len(comp)


def extreme_instants(ser, how: str):
    best = aggregate(ser, how)
    return best, [t for t, v in ser if v == best]


def local(t: dt.datetime, tz: ZoneInfo) -> str:
    return t.astimezone(tz).strftime("%Y-%m-%d %H:%M %Z(%z)")
