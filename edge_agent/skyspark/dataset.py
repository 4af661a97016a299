"""The deterministic synthetic plant the simulator serves by default.

Six sites (POKMAIN, RCHMAIN, HQ3SBY, HQ1ARM3, AUSWEST, DUBMAIN), each with its own timezone and
climate, hold chillers, AHUs, pumps, meters, FCUs and lighting controllers (~300 equips, ~2000
points). Naming: an equip is named like "Chiller 6" or "B705 AHU 1"; each point has a short
`navName` ("Tonnage") and a full `dis` = "<equip> <navName>" ("Chiller 6 Tonnage").

Histories exist at 15-minute resolution from 2020-01-01 to 2026-12-31 (site local time) and are a
pure function of (point, instant): `SyntheticPlant.value(point_id, instant)`. The shape follows
the site's weather (seasonal and daily), occupancy (working hours, weekends), equipment staging,
and hash-seeded noise (splitmix64 of the point's seed and the slot number; no global RNG); about
0.3 % of 4-hour blocks per equip are missing (gaps). Nothing is stored, so a benchmark can compute
any expected answer exactly with `expected_history`.

An operator's own records and histories are `skyspark.filedataset.FileDataset`.
"""

from __future__ import annotations

import hashlib
import math
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import date, datetime, timedelta
from typing import Any, Protocol
from zoneinfo import ZoneInfo

from phable.kinds import Marker, Number, Ref

from edge_agent.skyspark.encoding import haystack_tz_name
from edge_agent.skyspark.plant_layout import EQUIP_TAGS, POINTS, SITES, PointSpec, SiteSpec, equip_names

STEP = timedelta(minutes=15)
STEP_S = 900
FIRST_DAY = date(2020, 1, 1)
END_DAY = date(2027, 1, 1)  # exclusive: the data ends 2026-12-31 24:00 local
GAP_BLOCK_SLOTS = 16  # 4 hours
GAP_RATE = 0.003
M = Marker()


class Dataset(Protocol):
    """What the simulator needs from a dataset."""

    records: list[dict]

    def rec(self, rec_id: str) -> dict | None: ...

    def his(self, point_id: str, start: datetime, end: datetime) -> list[tuple[datetime, Any]]: ...


# ── hashing ───────────────────────────────────────────────────────────────────

_MASK = (1 << 64) - 1


def _mix(x: int) -> int:
    """splitmix64 finaliser: a well-spread 64-bit hash of an integer."""
    x = (x + 0x9E3779B97F4A7C15) & _MASK
    x = ((x ^ (x >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
    x = ((x ^ (x >> 27)) * 0x94D049BB133111EB) & _MASK
    return x ^ (x >> 31)


def _u(seed: int, k: int) -> float:
    """A uniform number in [0, 1) that depends only on (seed, k)."""
    return _mix(seed ^ ((k * 0xD1B54A32D192ED03) & _MASK)) / 18446744073709551616.0


def _seed(*parts: str) -> int:
    return int.from_bytes(hashlib.sha256("|".join(parts).encode()).digest()[:8], "big")


def make_id(*parts: str) -> str:
    h = hashlib.sha1("|".join(parts).encode()).hexdigest()
    return f"{h[:8]}-{h[8:16]}"


def _clamp(x: float, lo: float = 0.0, hi: float = 1.0) -> float:
    return lo if x < lo else hi if x > hi else x


def site_record(site_ref: Ref, spec: SiteSpec, tzname: str, area: Number, *, state: bool = True) -> dict[str, Any]:
    """A site's record as the built-in plants write it: its name, zone, place (`geoState` unless `state` is False,
    empty where the site has none) and area."""
    rec: dict[str, Any] = {"id": site_ref, "dis": spec.name, "site": M, "tz": tzname, "geoCity": spec.city}
    if state:
        rec["geoState"] = spec.state
    rec.update({"geoCountry": spec.country, "area": area})
    return rec


def equip_record(eq_ref: Ref, name: str, site_ref: Ref, tags: Iterable[str]) -> dict[str, Any]:
    """An equipment's record as the built-in plants write it: its name, the `equip` marker, its site, its kind's
    markers."""
    rec: dict[str, Any] = {"id": eq_ref, "dis": name, "navName": name, "equip": M, "siteRef": site_ref}
    rec.update({t: M for t in tags})
    return rec


def point_record(pid: str, equip: str, ps: PointSpec, tzname: str, eq_ref: Ref, site_ref: Ref) -> dict[str, Any]:
    """A point's record as the built-in plants write it: historized every 15 minutes in the site's zone, its unit
    (none for a Bool, which is off/on), its role's marker and its tags."""
    full = f"{equip} {ps.nav}"
    prec: dict[str, Any] = {
        "id": Ref(pid, full),
        "dis": full,
        "navName": ps.nav,
        "point": M,
        "his": M,
        ps.role: M,
        "kind": ps.kind,
        "tz": tzname,
        "equipRef": eq_ref,
        "siteRef": site_ref,
        "hisInterval": Number(15.0, "min"),
    }
    if ps.unit:
        prec["unit"] = ps.unit
    if ps.kind == "Bool":
        prec["enum"] = "off,on"
    prec.update({t: M for t in ps.tags})
    return prec


# ── the model of the plant in time ────────────────────────────────────────────


@dataclass
class _Equip:
    id: str
    name: str
    type: str
    site: SiteSpec
    seed: int
    rank: int  # position among equips of its type on the site (chiller staging order)
    size: float  # capacity: tons, cfm, kW …


@dataclass
class _Point:
    id: str
    equip: _Equip
    spec: PointSpec
    seed: int


def _features(spec: SiteSpec, local: datetime) -> tuple[float, float, float]:
    """(outside air °F, cooling demand 0..1, occupancy 0..1) at a local time."""
    doy = local.timetuple().tm_yday
    hour = local.hour + local.minute / 60.0
    north = spec.country != "AU"
    season = -math.cos(2 * math.pi * (doy - 20) / 365.25) * (1 if north else -1)
    daily = -math.cos(2 * math.pi * (hour - 4.5) / 24.0)
    oat = spec.mean_f + spec.swing_f * season + 8.0 * daily
    cool = _clamp((oat - 52.0) / 38.0)
    weekday = local.weekday() < 5
    if weekday:
        occ = 0.15 + 0.85 * _clamp((hour - 6.0) / 2.0) * _clamp((19.0 - hour) / 2.0)
    else:
        occ = 0.15 + 0.15 * _clamp((hour - 9.0) / 2.0) * _clamp((15.0 - hour) / 2.0)
    return oat, cool, occ


def _state(eq: _Equip, local: datetime, slot: int) -> dict[str, Any]:
    """Every point value of one equip at one instant (noise added per point by the caller)."""
    oat, cool, occ = _features(eq.site, local)
    day = slot // 96
    drift = _u(eq.seed, day) - 0.5  # slow per-day variation of this equip
    t = eq.type
    if t == "chiller":
        plant = _clamp(0.08 + 0.8 * cool * (0.65 + 0.35 * occ) + 0.06 * drift)
        threshold = min(0.12 * eq.rank, 0.6)
        on = plant > threshold or (eq.rank == 0 and plant > 0.05)
        load = _clamp((plant - threshold) / (1.0 - threshold) * 1.1 + 0.25, 0.2, 1.0) if on else 0.0
        tons = eq.size * load
        kw = tons * (0.52 + 0.12 * (1 - load)) if on else 0.0
        chws = 44.0 + 1.5 * (1 - load) if on else 52.0 + 0.1 * (oat - 50)
        return {
            "Run Status": on,
            "Tonnage": tons,
            "% Loaded": 100 * load,
            "Power": kw,
            "Efficiency": kw / tons if on else 0.0,
            "Chilled Water Supply Temp": chws,
            "Chilled Water Return Temp": chws + (10.0 * load if on else 0.5),
            "Condenser Water Supply Temp": (68.0 + 16.0 * cool) if on else 60.0 + 0.2 * (oat - 50),
            "Condenser Water Return Temp": (68.0 + 16.0 * cool + 9.5 * load) if on else 60.5 + 0.2 * (oat - 50),
            "Chilled Water Flow": 2.4 * eq.size if on else 0.0,
            "Supply Temp Setpoint": 44.0,
        }
    if t == "ahu":
        on = occ > 0.3 or (local.weekday() < 5 and 5 <= local.hour < 21)
        rat = 71.0 + 2.5 * cool + 1.0 * drift
        mat = 0.75 * rat + 0.25 * oat if on else rat
        fan = 35.0 + 50.0 * cool * occ + 5 * drift if on else 0.0
        return {
            "Fan Run Status": on,
            "Supply Air Temp": 55.0 if on else rat - 1.0,
            "Return Air Temp": rat,
            "Mixed Air Temp": mat,
            "Supply Air Temp Setpoint": 55.0,
            "Supply Fan Speed": fan,
            "Duct Static Pressure": 1.5 * fan / 100.0,
            "Cooling Valve": 100 * _clamp((mat - 55.0) / 25.0) if on else 0.0,
            "Heating Valve": 100 * _clamp((50.0 - mat) / 20.0) if on else 0.0,
            "Outside Air Damper": (20.0 + 60.0 * _clamp((65.0 - oat) / 15.0) * _clamp((oat - 45.0) / 10.0))
            if on
            else 0.0,
            "Supply Air Flow": eq.size * fan / 100.0,
        }
    if t == "pump":
        plant = _clamp(0.08 + 0.8 * cool * (0.65 + 0.35 * occ) + 0.06 * drift)
        on = plant > 0.05 + 0.1 * eq.rank
        speed = 30.0 + 60.0 * plant if on else 0.0
        return {
            "Run Status": on,
            "Speed": speed,
            "Power": eq.size * (speed / 100.0) ** 3,
            "Differential Pressure": 4.0 + 12.0 * (speed / 100.0) ** 2 if on else 0.0,
            "Flow": 12.0 * eq.size * speed / 100.0,
        }
    if t == "meter":
        kw = eq.size * (0.35 + 0.4 * occ + 0.25 * cool) * (1 + 0.05 * drift)
        return {"Power": kw, "Energy": kw * 0.25, "Power Factor": 0.86 + 0.06 * occ}
    if t == "fcu":
        occupied = occ > 0.5
        sp = 72.0 if occupied else 78.0
        zone_t = sp - 1.0 + 2.5 * cool + 1.5 * drift
        fan = occupied or zone_t > sp + 1.0
        valve = 100 * _clamp((zone_t - sp + 1.0) / 3.0) if fan else 0.0
        return {
            "Zone Temp": zone_t,
            "Zone Temp Setpoint": sp,
            "Fan Status": fan,
            "Valve Position": valve,
            "Discharge Air Temp": 57.0 + (100 - valve) / 10.0 if fan else zone_t,
        }
    if t == "lighting":
        occupied = occ > 0.5
        level = 70.0 + 10 * drift if occupied else 5.0
        return {"Lighting Power": eq.size * level / 100.0, "Occupancy Status": occupied, "Light Level": level}
    raise ValueError(t)


_NOISE = {"Tonnage": 0.015, "Power": 0.015, "% Loaded": 1.2, "Efficiency": 0.01}
_TEMP_NOISE = 0.35


class SlotPlant:
    """What the built-in plants share: their records by id, and histories on 15-minute slots from `FIRST_DAY` to
    `END_DAY` in each site's zone, a value a pure function of (point, slot) (`_value_at_slot`), gaps left out."""

    def __init__(self) -> None:
        self.records: list[dict] = []
        self._by_id: dict[str, dict] = {}
        self._points: dict[str, Any] = {}

    def _add(self, rec: dict) -> None:
        self.records.append(rec)
        self._by_id[rec["id"].val] = rec

    def rec(self, rec_id: str) -> dict | None:
        return self._by_id.get(rec_id)

    def _zone(self, p: Any) -> ZoneInfo:
        """The zone of point `p`'s site."""
        raise NotImplementedError

    def _value_at_slot(self, p: Any, slot: int, tz: ZoneInfo) -> Any:
        raise NotImplementedError

    @staticmethod
    def _bounds(tz: ZoneInfo) -> tuple[int, int]:
        first = datetime(FIRST_DAY.year, FIRST_DAY.month, FIRST_DAY.day, tzinfo=tz).timestamp()
        last = datetime(END_DAY.year, END_DAY.month, END_DAY.day, tzinfo=tz).timestamp()
        return math.ceil(first / STEP_S), math.ceil(last / STEP_S)

    def his(self, point_id: str, start: datetime, end: datetime) -> list[tuple[datetime, Any]]:
        """(timestamp in the point's timezone, value) for start <= ts < end, gaps left out."""
        p = self._points.get(point_id)
        if p is None:
            raise KeyError(point_id)
        tz = self._zone(p)
        lo, hi = self._bounds(tz)
        first = max(lo, math.ceil(start.timestamp() / STEP_S))
        last = min(hi, math.ceil(end.timestamp() / STEP_S))
        out = []
        for slot in range(first, last):
            val = self._value_at_slot(p, slot, tz)
            if val is not None:
                out.append((datetime.fromtimestamp(slot * STEP_S, tz), val))
        return out


class SyntheticPlant(SlotPlant):
    """The synthetic plant: Haystack records plus `value(point_id, instant)`, a pure function."""

    def __init__(self, sites: Iterable[SiteSpec] = SITES):
        super().__init__()
        self._points: dict[str, _Point] = {}
        self._equips: dict[str, _Equip] = {}
        for spec in sites:
            self._add_site(spec)

    # records
    def _add_site(self, spec: SiteSpec) -> None:
        site_id = make_id(spec.name)
        tzname = haystack_tz_name(spec.tz)
        site_ref = Ref(site_id, spec.name)
        self._add(site_record(site_ref, spec, tzname, Number(float(50000 + _seed(spec.name) % 20 * 25000), "ft²")))
        ranks: dict[str, int] = {}
        for name, etype in equip_names(spec):
            rank = ranks.get(etype, 0)
            ranks[etype] = rank + 1
            seed = _seed(spec.name, name)
            size = {
                "chiller": 400.0 + 200.0 * (seed % 5),
                "ahu": 8000.0 + 2000.0 * (seed % 7),
                "pump": 15.0 + 5.0 * (seed % 6),
                "meter": 250.0 + 125.0 * (seed % 10),
                "fcu": 1.0,
                "lighting": 4.0 + (seed % 9),
            }[etype]
            eq = _Equip(make_id(spec.name, name), name, etype, spec, seed, rank, size)
            self._equips[eq.id] = eq
            eq_ref = Ref(eq.id, name)
            self._add(equip_record(eq_ref, name, site_ref, EQUIP_TAGS[etype]))
            for ps in POINTS[etype]:
                pid = make_id(spec.name, name, ps.nav)
                self._points[pid] = _Point(pid, eq, ps, _seed(spec.name, name, ps.nav))
                self._add(point_record(pid, name, ps, tzname, eq_ref, site_ref))

    # histories
    def _zone(self, p: _Point) -> ZoneInfo:
        return ZoneInfo(p.equip.site.tz)

    def _value_at_slot(self, p: _Point, slot: int, tz: ZoneInfo) -> Any:
        if _u(p.equip.seed ^ 0x6A9, slot // GAP_BLOCK_SLOTS) < GAP_RATE:
            return None
        local = datetime.fromtimestamp(slot * STEP_S, tz)
        raw = _state(p.equip, local, slot)[p.spec.nav]
        if isinstance(raw, bool):
            return raw
        n = _u(p.seed, slot) - 0.5
        if p.spec.role == "sp":
            val = raw
        elif p.spec.unit == "°F":
            val = raw + 2 * _TEMP_NOISE * n
        elif p.spec.nav in _NOISE:
            scale = _NOISE[p.spec.nav]
            val = raw + 2 * scale * n * (raw if p.spec.nav in ("Tonnage", "Power") else 1.0)
            if raw == 0.0:
                val = 0.0
        elif raw == 0.0:
            val = 0.0
        else:
            val = raw * (1 + 0.02 * n)
        if p.spec.unit == "%":
            val = min(max(val, 0.0), 100.0)
        return round(val, 2) if p.spec.nav != "Power Factor" else round(val, 3)

    def value(self, point_id: str, instant: datetime) -> Any:
        """The value recorded at `instant` (must be on a 15-minute slot), or None (gap / no data)."""
        p = self._points.get(point_id)
        if p is None:
            raise KeyError(point_id)
        ts = instant.timestamp()
        if ts % STEP_S:
            return None
        slot = int(ts // STEP_S)
        tz = ZoneInfo(p.equip.site.tz)
        lo, hi = self._bounds(tz)
        if not lo <= slot < hi:
            return None
        return self._value_at_slot(p, slot, tz)


_PLANT: SyntheticPlant | None = None


def plant() -> SyntheticPlant:
    """The default synthetic plant (built once per process)."""
    global _PLANT
    if _PLANT is None:
        _PLANT = SyntheticPlant()
    return _PLANT


def find_point(site_name: str, asset_name: str, point_name: str, ds: SyntheticPlant | None = None) -> str:
    """The id of a point by exact site, equip and (short or full) point name."""
    ds = ds or plant()
    for p in ds._points.values():
        if (
            p.equip.site.name == site_name
            and p.equip.name == asset_name
            and point_name in (p.spec.nav, f"{asset_name} {p.spec.nav}")
        ):
            return p.id
    raise KeyError(f"{site_name}/{asset_name}/{point_name}")


def expected_history(
    site_name: str, asset_name: str, point_name: str, start: datetime, end: datetime, ds: SyntheticPlant | None = None
) -> list[tuple[datetime, Any]]:
    """What the simulator serves for one point over [start, end): for benchmarks computing answers."""
    ds = ds or plant()
    return ds.his(find_point(site_name, asset_name, point_name, ds), start, end)
