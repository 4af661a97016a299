"""Built-in plants beside the default one, served by name: `edge-agent simulate --dataset rhine`, or a task
file's `dataset: rhine` for `edge-agent bench`.

`rhine` is a plant in another style than the default six sites, so a benchmark on it shows that the agent's
examples and rules carry no knowledge of the default plant: two German sites in Europe/Berlin
("FRA-OSTHAFEN", "BER-ADLERSHOF"), metric units, hyphenated names, names that contain other names
("North Chiller 1" beside "Chiller 1"), and other kinds — boilers, hot- and chilled-water pumps, VAV boxes
with a room temperature and its setpoint, power meters in kW. Like the default plant its histories are a
pure function of (point, instant) at 15-minute resolution from 2020-01-01, with hash-seeded noise and about
0.3 % of 4-hour blocks missing (`edge_agent.skyspark.dataset` supplies the hashing and the weather model).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Any
from zoneinfo import ZoneInfo

from phable.kinds import Number, Ref

from edge_agent import PROJECT_ROOT
from edge_agent.skyspark.dataset import (
    GAP_BLOCK_SLOTS,
    GAP_RATE,
    STEP_S,
    SlotPlant,
    _clamp,
    _features,
    _seed,
    _u,
    equip_record,
    make_id,
    plant,
    point_record,
    site_record,
)
from edge_agent.skyspark.encoding import haystack_tz_name
from edge_agent.skyspark.filedataset import FileDataset
from edge_agent.skyspark.plant_layout import PointSpec, SiteSpec


def _site(name: str, city: str, mean_f: float, swing_f: float) -> SiteSpec:
    return SiteSpec(name, "Europe/Berlin", city, "", "DE", mean_f, swing_f, (), (), (), (), ("", 0, 0), ("", 0))


RHINE_SITES: tuple[tuple[SiteSpec, tuple[tuple[str, str], ...]], ...] = (
    (
        _site("FRA-OSTHAFEN", "Frankfurt am Main", 51, 16),
        (
            ("Chiller 1", "chiller"),
            ("North Chiller 1", "chiller"),
            ("North Chiller 2", "chiller"),
            ("Boiler-1", "boiler"),
            ("Boiler-2", "boiler"),
            ("Boiler-3", "boiler"),
            ("HW-Pump-1", "pump"),
            ("HW-Pump-2", "pump"),
            ("CHW-Pump-1", "pump"),
            ("CHW-Pump-2", "pump"),
            ("VAV-2-14", "vav"),
            ("VAV-2-15", "vav"),
            ("VAV-2-16", "vav"),
            ("VAV-3-01", "vav"),
            ("VAV-3-02", "vav"),
            ("Main Meter", "meter"),
            ("Meter Hall-A", "meter"),
            ("Meter Hall-B", "meter"),
        ),
    ),
    (
        _site("BER-ADLERSHOF", "Berlin", 49, 18),
        (
            ("Chiller A", "chiller"),
            ("Chiller B", "chiller"),
            ("Boiler North", "boiler"),
            ("Boiler South", "boiler"),
            ("HW-Pump-A", "pump"),
            ("HW-Pump-B", "pump"),
            ("VAV-1-01", "vav"),
            ("VAV-1-02", "vav"),
            ("VAV-1-03", "vav"),
            ("VAV-1-04", "vav"),
            ("Main Meter", "meter"),
            ("Lab Meter", "meter"),
        ),
    ),
)

RHINE_POINTS: dict[str, tuple[PointSpec, ...]] = {
    "chiller": (
        PointSpec("Status", None, ("run",), "Bool"),
        PointSpec("Cooling Output", "kW", ("cool", "capacity")),
        PointSpec("Electrical Power", "kW", ("elec", "power")),
        PointSpec("Leaving Water Temp", "°C", ("chilled", "water", "leaving", "temp"), noise=0.15),
        PointSpec("Entering Water Temp", "°C", ("chilled", "water", "entering", "temp"), noise=0.15),
        PointSpec("Leaving Water Temp Setpoint", "°C", ("chilled", "water", "leaving", "temp"), role="sp", noise=0),
    ),
    "boiler": (
        PointSpec("Status", None, ("run",), "Bool"),
        PointSpec("Flow Temp", "°C", ("hot", "water", "leaving", "temp"), noise=0.3),
        PointSpec("Return Temp", "°C", ("hot", "water", "entering", "temp"), noise=0.3),
        PointSpec("Flow Temp Setpoint", "°C", ("hot", "water", "leaving", "temp"), role="sp", noise=0),
        PointSpec("Firing Rate", "%", ("fire", "rate")),
        PointSpec("Gas Input", "kW", ("gas", "power")),
    ),
    "pump": (
        PointSpec("Status", None, ("run",), "Bool"),
        PointSpec("Speed", "%", ("speed",)),
        PointSpec("Power", "kW", ("elec", "power")),
        PointSpec("Flow", "m³/h", ("water", "flow")),
    ),
    "vav": (
        PointSpec("Room Temp", "°C", ("zone", "air", "temp"), noise=0.15),
        PointSpec("Room Temp Setpoint", "°C", ("zone", "air", "temp"), role="sp", noise=0),
        PointSpec("Airflow", "L/s", ("discharge", "air", "flow")),
        PointSpec("Damper Position", "%", ("damper",), role="cmd"),
    ),
    "meter": (
        PointSpec("Active Power", "kW", ("elec", "power")),
        PointSpec("Power Factor", None, ("elec", "pf"), noise=0.005),
    ),
}
RHINE_TAGS = {
    "chiller": ("chiller",),
    "boiler": ("boiler", "hot", "water"),
    "pump": ("pump", "water"),
    "vav": ("vav", "airTerminalUnit"),
    "meter": ("elec", "meter"),
}


def _state(etype: str, site: SiteSpec, local: datetime, slot: int, seed: int, rank: int, size: float) -> dict:
    oat, cool, occ = _features(site, local)
    heat = _clamp((60.0 - oat) / 40.0)
    drift = _u(seed, slot // 96) - 0.5
    if etype == "chiller":
        plant = _clamp(0.05 + 0.85 * cool * (0.6 + 0.4 * occ) + 0.08 * drift)
        on = plant > 0.1 * rank
        load = _clamp(plant * (1.1 - 0.15 * rank), 0.2, 1.0) if on else 0.0
        lwt = 6.0 + 1.5 * (1 - load) if on else 12.0 + 0.05 * (oat - 50)
        return {
            "Status": on,
            "Cooling Output": size * load,
            "Electrical Power": size * load / (3.2 + 0.8 * load) if on else 0.0,
            "Leaving Water Temp": lwt,
            "Entering Water Temp": lwt + (5.5 * load if on else 0.3),
            "Leaving Water Temp Setpoint": 6.0,
        }
    if etype == "boiler":
        demand = _clamp(0.05 + 0.9 * heat * (0.7 + 0.3 * occ) + 0.06 * drift)
        on = demand > 0.12 * rank
        rate = 100 * _clamp(demand * (1.15 - 0.2 * rank), 0.15, 1.0) if on else 0.0
        sp = 55.0 + 20.0 * heat
        flow = sp - 1.0 + 2.0 * drift if on else 25.0
        return {
            "Status": on,
            "Flow Temp": flow,
            "Return Temp": flow - (12.0 * rate / 100 if on else 1.0),
            "Flow Temp Setpoint": sp,
            "Firing Rate": rate,
            "Gas Input": size * rate / 100,
        }
    if etype == "pump":
        demand = max(heat, cool) * (0.6 + 0.4 * occ)
        on = demand > 0.05 + 0.08 * rank
        speed = 30.0 + 65.0 * _clamp(demand + 0.1 * drift) if on else 0.0
        return {"Status": on, "Speed": speed, "Power": size * (speed / 100.0) ** 3, "Flow": 4.0 * size * speed / 100}
    if etype == "vav":
        occupied = occ > 0.5
        sp = 21.0 if occupied else 17.0
        room = sp - 0.6 + 1.6 * cool + 1.2 * drift + (0.8 if not occupied and heat < 0.2 else 0.0)
        damper = 100 * _clamp((room - sp + 0.5) / 2.0) if occupied else 10.0
        return {
            "Room Temp": room,
            "Room Temp Setpoint": sp,
            "Airflow": size * (0.2 + 0.8 * damper / 100),
            "Damper Position": damper,
        }
    if etype == "meter":
        kw = size * (0.3 + 0.45 * occ + 0.15 * cool + 0.1 * heat) * (1 + 0.05 * drift)
        return {"Active Power": kw, "Power Factor": 0.88 + 0.06 * occ}
    raise ValueError(etype)


_SIZE = {
    "chiller": lambda s: 600.0 + 150.0 * (s % 5),
    "boiler": lambda s: 400.0 + 100.0 * (s % 6),
    "pump": lambda s: 5.0 + 2.5 * (s % 5),
    "vav": lambda s: 200.0 + 50.0 * (s % 5),
    "meter": lambda s: 300.0 + 80.0 * (s % 9),
}


@dataclass
class _P:
    id: str
    etype: str
    site: SiteSpec
    spec: PointSpec
    equip_seed: int
    seed: int
    rank: int
    size: float


class RhinePlant(SlotPlant):
    """The `rhine` plant: Haystack records plus `value(point_id, instant)`, a pure function (as `SyntheticPlant`)."""

    def __init__(self) -> None:
        super().__init__()
        self._points: dict[str, _P] = {}
        for spec, equips in RHINE_SITES:
            self._add_site(spec, equips)

    def _add_site(self, spec: SiteSpec, equips) -> None:
        tzname = haystack_tz_name(spec.tz)
        site_ref = Ref(make_id("rhine", spec.name), spec.name)
        area = Number(float(12000 + _seed(spec.name) % 9 * 1500), "m²")
        self._add(site_record(site_ref, spec, tzname, area, state=False))  # (German sites: no state)
        ranks: dict[str, int] = {}
        for name, etype in equips:
            rank = ranks.get(etype, 0)
            ranks[etype] = rank + 1
            seed = _seed("rhine", spec.name, name)
            eq_ref = Ref(make_id("rhine", spec.name, name), name)
            self._add(equip_record(eq_ref, name, site_ref, RHINE_TAGS[etype]))
            for pt in RHINE_POINTS[etype]:
                pid = make_id("rhine", spec.name, name, pt.nav)
                self._points[pid] = _P(
                    pid, etype, spec, pt, seed, _seed("rhine", spec.name, name, pt.nav), rank, _SIZE[etype](seed)
                )
                self._add(point_record(pid, name, pt, tzname, eq_ref, site_ref))

    def _zone(self, p: _P) -> ZoneInfo:
        return ZoneInfo(p.site.tz)

    def _value_at_slot(self, p: _P, slot: int, tz: ZoneInfo) -> Any:
        if _u(p.equip_seed ^ 0x6A9, slot // GAP_BLOCK_SLOTS) < GAP_RATE:
            return None
        local = datetime.fromtimestamp(slot * STEP_S, tz)
        raw = _state(p.etype, p.site, local, slot, p.equip_seed, p.rank, p.size)[p.spec.nav]
        if isinstance(raw, bool):
            return raw
        n = _u(p.seed, slot) - 0.5
        if p.spec.unit == "°C":
            val = raw + 2 * p.spec.noise * n
        elif raw == 0.0:
            val = 0.0
        else:
            val = raw * (1 + 2 * p.spec.noise * n)
        if p.spec.unit == "%":
            val = min(max(val, 0.0), 100.0)
        return round(val, 2) if p.spec.nav != "Power Factor" else round(val, 3)

    # layout, for generators
    def equips(self, site: str) -> list[tuple[str, str]]:
        return [e for spec, equips in RHINE_SITES if spec.name == site for e in equips]

    def points(self, etype: str) -> tuple[PointSpec, ...]:
        return RHINE_POINTS[etype]

    def history(self, site: str, asset: str, nav: str, start: datetime, end: datetime) -> list[tuple[datetime, Any]]:
        return self.his(make_id("rhine", site, asset, nav), start, end)


_BUILT: dict[str, Any] = {}


def builtin(name: str):
    """A built-in plant by name (`default` / `synthetic`: the six default sites; `rhine`), built once."""
    makers: dict[str, Callable[[], Any]] = {"default": plant, "synthetic": plant, "rhine": RhinePlant}
    key = name.strip().casefold()
    if key not in makers:
        raise KeyError(f"no built-in dataset {name!r} (built-in: {', '.join(sorted(makers))})")
    if key not in _BUILT:
        _BUILT[key] = makers[key]()
    return _BUILT[key]


BUILTIN_NAMES = ("default", "synthetic", "rhine")


def open_dataset(name: str | None):
    """What `--dataset` names: None → the default plant; an existing file → its records (and histories from
    the file with `.csv`); else a built-in plant by name (KeyError when there is none)."""
    if not name:
        return builtin("default")
    for path in (Path(name), PROJECT_ROOT / name):  # a path relative to here, or to the project (a task file's)
        if path.is_file():
            return FileDataset.load(path)
    return builtin(name)
