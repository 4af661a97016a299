"""The synthetic plant's layout, as data: its six `SITES` (`SiteSpec`: timezone, climate, which equipment), the
`POINTS` of each equipment kind (`PointSpec`: navName, unit, tags, kind, role), the `EQUIP_TAGS` of each kind and
`equip_names` (a site's equipment, in a stable order). `skyspark.dataset` computes the plant's values from it;
`skyspark.plants` builds its other plants from the same two specs; the benchmark's generators read it.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class SiteSpec:
    name: str
    tz: str
    city: str
    state: str
    country: str
    mean_f: float  # annual mean outside temperature, °F
    swing_f: float  # seasonal half-range, °F
    chillers: tuple[int, ...]
    ahus: tuple[str, ...]
    pumps: tuple[str, ...]
    meters: tuple[str, ...]
    fcus: tuple[str, int, int]  # building, floor, count
    lcs: tuple[str, int]  # building, count


SITES: tuple[SiteSpec, ...] = (
    SiteSpec(
        "POKMAIN",
        "America/New_York",
        "Poughkeepsie",
        "NY",
        "US",
        50,
        22,
        (3, 4, 6, 9, 12),
        (
            "B705 AHU 1",
            "B705 AHU 2",
            "B705 AHU 3",
            "B002 AHU 2-1-1",
            "B002 AHU 2-1-2",
            "B002 AHU 2-2-1",
            "B006 AHU 1",
            "B006 AHU 2",
        ),
        ("B012 SCWP 1", "B012 SCWP 2", "B012 PCWP 1", "B012 PCWP 2", "B020 CWP 1"),
        ("B002_Total", "B012_Total", "B020_Total", "B705_Total", "B710_Total"),
        ("B710", 1, 39),
        ("B706", 26),
    ),
    SiteSpec(
        "RCHMAIN",
        "America/Chicago",
        "Rochester",
        "MN",
        "US",
        45,
        28,
        (1, 2, 5, 7),
        ("B040 AHU 1", "B040 AHU 2", "B050 AHU 1-1", "B050 AHU 1-2", "B110 AHU 4"),
        ("B040 SCWP 1", "B040 SCWP 2", "B040 CWP 1"),
        ("B040_Total", "B050_Total", "B110_Total"),
        ("B050", 2, 30),
        ("B110", 12),
    ),
    SiteSpec(
        "HQ3SBY",
        "America/New_York",
        "Somers",
        "NY",
        "US",
        51,
        22,
        (1, 2, 3),
        ("B001 AHU 1", "B001 AHU 2", "B003 AHU 1"),
        ("B001 SCWP 1", "B001 SCWP 2"),
        ("B001_Total", "B003_Total"),
        ("B003", 1, 24),
        ("B001", 10),
    ),
    SiteSpec(
        "HQ1ARM3",
        "America/New_York",
        "Armonk",
        "NY",
        "US",
        51,
        22,
        (1, 2),
        ("B1 AHU 1", "B1 AHU 2", "B1 AHU 3"),
        ("B1 SCWP 1",),
        ("B1_Total",),
        ("B1", 3, 20),
        ("B1", 8),
    ),
    SiteSpec(
        "AUSWEST",
        "America/Chicago",
        "Austin",
        "TX",
        "US",
        69,
        16,
        (8, 10, 11),
        ("B045 AHU 1", "B045 AHU 2", "B902 AHU 1-1"),
        ("B045 SCWP 1", "B045 SCWP 2", "B045 CWP 1"),
        ("B045_Total", "B902_Total"),
        ("B902", 1, 28),
        ("B045", 12),
    ),
    SiteSpec(
        "DUBMAIN",
        "Europe/Dublin",
        "Dublin",
        "",
        "IE",
        50,
        8,
        (1, 2),
        ("B3 AHU 1", "B3 AHU 2"),
        ("B3 SCWP 1",),
        ("B3_Total",),
        ("B3", 0, 16),
        ("B3", 6),
    ),
)


@dataclass(frozen=True)
class PointSpec:
    """One point of an equipment kind, in every plant (this one's `POINTS`, `plants.RHINE_POINTS`): its navName,
    unit, marker tags, Haystack kind, role (sensor, sp, cmd) and relative noise (temperatures: absolute °C; the
    Rhine plant's model reads it, this one's has its own)."""

    nav: str
    unit: str | None
    tags: tuple[str, ...]
    kind: str = "Number"
    role: str = "sensor"
    noise: float = 0.01


POINTS: dict[str, tuple[PointSpec, ...]] = {
    "chiller": (
        PointSpec("Run Status", None, ("run",), "Bool"),
        PointSpec("Tonnage", "tonref", ("cool", "capacity")),
        PointSpec("% Loaded", "%", ("load",)),
        PointSpec("Power", "kW", ("elec", "power")),
        PointSpec("Efficiency", "kW/tonref", ("efficiency",)),
        PointSpec("Chilled Water Supply Temp", "°F", ("chilled", "water", "leaving", "temp")),
        PointSpec("Chilled Water Return Temp", "°F", ("chilled", "water", "entering", "temp")),
        PointSpec("Condenser Water Supply Temp", "°F", ("condenser", "water", "entering", "temp")),
        PointSpec("Condenser Water Return Temp", "°F", ("condenser", "water", "leaving", "temp")),
        PointSpec("Chilled Water Flow", "gal/min", ("chilled", "water", "flow")),
        PointSpec("Supply Temp Setpoint", "°F", ("chilled", "water", "leaving", "temp"), role="sp"),
    ),
    "ahu": (
        PointSpec("Fan Run Status", None, ("fan", "run"), "Bool"),
        PointSpec("Supply Air Temp", "°F", ("discharge", "air", "temp")),
        PointSpec("Return Air Temp", "°F", ("return", "air", "temp")),
        PointSpec("Mixed Air Temp", "°F", ("mixed", "air", "temp")),
        PointSpec("Supply Air Temp Setpoint", "°F", ("discharge", "air", "temp"), role="sp"),
        PointSpec("Supply Fan Speed", "%", ("fan", "speed")),
        PointSpec("Duct Static Pressure", "inH₂O", ("duct", "air", "pressure")),
        PointSpec("Cooling Valve", "%", ("cool", "valve"), role="cmd"),
        PointSpec("Heating Valve", "%", ("heat", "valve"), role="cmd"),
        PointSpec("Outside Air Damper", "%", ("outside", "damper"), role="cmd"),
        PointSpec("Supply Air Flow", "cfm", ("discharge", "air", "flow")),
    ),
    "pump": (
        PointSpec("Run Status", None, ("run",), "Bool"),
        PointSpec("Speed", "%", ("speed",)),
        PointSpec("Power", "kW", ("elec", "power")),
        PointSpec("Differential Pressure", "psi", ("water", "pressure")),
        PointSpec("Flow", "gal/min", ("water", "flow")),
    ),
    "meter": (
        PointSpec("Power", "kW", ("elec", "power")),
        PointSpec("Energy", "kWh", ("elec", "energy")),
        PointSpec("Power Factor", None, ("elec", "pf")),
    ),
    "fcu": (
        PointSpec("Zone Temp", "°F", ("zone", "air", "temp")),
        PointSpec("Zone Temp Setpoint", "°F", ("zone", "air", "temp"), role="sp"),
        PointSpec("Fan Status", None, ("fan", "run"), "Bool"),
        PointSpec("Valve Position", "%", ("valve",), role="cmd"),
        PointSpec("Discharge Air Temp", "°F", ("discharge", "air", "temp")),
    ),
    "lighting": (
        PointSpec("Lighting Power", "kW", ("elec", "power", "light")),
        PointSpec("Occupancy Status", None, ("occupied",), "Bool"),
        PointSpec("Light Level", "%", ("light", "level")),
    ),
}
EQUIP_TAGS = {
    "chiller": ("chiller",),
    "ahu": ("ahu", "airHandlingEquip"),
    "pump": ("pump", "chilled", "water"),
    "meter": ("elec", "meter"),
    "fcu": ("fcu", "airTerminalUnit"),
    "lighting": ("lighting",),
}


def equip_names(spec: SiteSpec) -> list[tuple[str, str]]:
    """(equip name, equip type) for one site, in a stable order."""
    out = [(f"Chiller {n}", "chiller") for n in spec.chillers]
    out += [(n, "ahu") for n in spec.ahus]
    out += [(n, "pump") for n in spec.pumps]
    out += [(n, "meter") for n in spec.meters]
    bldg, floor, count = spec.fcus
    out += [(f"{bldg} FCU {floor}-{i}", "fcu") for i in range(1, count + 1)]
    lbldg, lcount = spec.lcs
    out += [(f"{lbldg}_LC{i}", "lighting") for i in range(1, lcount + 1)]
    return out
