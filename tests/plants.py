"""Small plants for tests, in two naming styles: a POKMAIN-style one ("POKMAIN", "Chiller 6", "Tonnage") and
one whose names look nothing like it ("Plant-North", "CH-01", "AHU_B2", "kW_total", "Werk_Süd", "Kühlturm 2").
`POK` and `OTHER` are grounding catalogs; `NamesOnly` is a bench Truth with names and no histories."""

from __future__ import annotations

from edge_agent.grounding.catalog import Catalog

POK_SENSORS = ["Tonnage", "Power", "Supply Temperature"]
POK = Catalog.of(
    {
        "POKMAIN": {
            "Chiller 3": POK_SENSORS,
            "Chiller 6": POK_SENSORS,
            "Chiller 9": POK_SENSORS,
            "AHU 1": ["Supply Temperature", "Fan Speed"],
        },
        "RCHMAIN": {"Chiller 1": POK_SENSORS, "AHU 2": POK_SENSORS},
    }
)

OTHER_SENSORS = ["SupplyTemp", "kW_total", "Flow Rate"]
OTHER = Catalog.of(
    {
        "Plant-North": {
            "CH-01": OTHER_SENSORS,
            "CH-02": OTHER_SENSORS,
            "CH-05": OTHER_SENSORS,
            "AHU_B2": ["SupplyTemp", "FanSpeed"],
            "Boiler House Pump P-3": ["kW_total", "Flow Rate"],
        },
        "Werk_Süd": {
            "Kessel 4": OTHER_SENSORS,
            "Kessel 7": OTHER_SENSORS,
            "Kühlturm 2": OTHER_SENSORS,
            "Kühlturm 3": OTHER_SENSORS,
        },
    }
)


class NamesOnly:
    """A bench Truth over `plant` (site -> asset -> sensor names), without histories."""

    def __init__(self, plant: dict[str, dict[str, list[str]]]):
        self.plant = plant

    def sites(self):
        return list(self.plant)

    def assets(self, site):
        return list(self.plant[site])

    def sensors(self, site, asset):
        return list(self.plant[site][asset])

    def history(self, *a):
        return []
