"""The domain's own words, shared by every plant: how questions name BMS points and Haystack equipment.

Nothing here is one site's list. `SENSOR_WORDS` is a generic vocabulary of building-management point
names (what an operator calls a measurement, whatever the SkySpark names it); `TYPE_NAMES` spells out the
Haystack equip markers the client reads (`skyspark.client`: chiller, ahu, fcu, vav, …) the way people write
them, after the Haystack definitions ("ahu": Air Handling Unit, "fcu": Fan Coil Unit, "vav": Variable Air
Volume terminal unit). The linker uses both to read a question; every name it resolves still comes from
the catalog.
"""

from __future__ import annotations

SENSOR_WORDS = (  # longest first
    "chilled water supply temperature",
    "chilled water return temperature",
    "condenser water supply temperature",
    "condenser water return temperature",
    "chilled water supply temp",
    "chilled water return temp",
    "condenser water supply temp",
    "condenser water return temp",
    "condenser water temperature",
    "condenser water temp",
    "supply air temp setpoint",
    "supply temp setpoint",
    "zone temp setpoint",
    "chilled water flow",
    "supply air temperature",
    "return air temperature",
    "mixed air temperature",
    "discharge air temperature",
    "supply air temp",
    "return air temp",
    "mixed air temp",
    "discharge air temp",
    "duct static pressure",
    "differential pressure",
    "supply fan speed",
    "fan run status",
    "supply air flow",
    "outside air damper",
    "occupancy status",
    "lighting power",
    "power consumption",
    "energy consumption",
    "supply temperature",
    "return temperature",
    "supply temp",
    "return temp",
    "zone temperature",
    "zone temp",
    "valve position",
    "cooling valve",
    "heating valve",
    "power factor",
    "light level",
    "fan status",
    "run status",
    "% loaded",
    "percent loaded",
    "tonnage",
    "efficiency",
    "power",
    "energy",
    "temperature",
    "humidity",
    "pressure",
    "flow",
    "setpoint",
    "status",
    "speed",
    "occupancy",
    "kwh",
    "kw",
    "co2",
)

#: Haystack equip marker -> how a question names one (singular; plurals are derived)
TYPE_NAMES: dict[str, tuple[str, ...]] = {
    "ahu": ("air handling unit", "air handler", "air handling equipment"),
    "fcu": ("fan coil unit", "fan coil"),
    "vav": ("variable air volume box", "variable air volume unit", "vav box", "vav terminal"),
    "rtu": ("rooftop unit", "roof top unit"),
    "meter": ("electric meter", "electricity meter", "power meter", "energy meter"),
    "coolingTower": ("cooling tower",),
    "lighting": ("lighting controller", "light"),
    "pump": ("pump",),
    "chiller": ("chiller",),
    "boiler": ("boiler",),
}
