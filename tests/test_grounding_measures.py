"""Measure consistency in code: what a point measures (unit, tags, name, through the field's vocabulary), which
sensors a question's measure allows, and the calls refused before they run (another measure, a setpoint the wrong
way round, two series of different quantities subtracted or compared)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from edge_agent.grounding.catalog import Catalog, SensorName, SiteCatalog
from edge_agent.grounding.measures import Measure, comparable, equip_kinds, fits, point_measure
from edge_agent.grounding.run import Grounding


def _site() -> Catalog:
    s = lambda asset, short, unit, *tags: SensorName(f"{asset} {short}", short, unit, tuple(tags))  # noqa: E731
    sensors = {
        "Freezer 1": [
            s("Freezer 1", "Box Temp", "°C", "air", "temp", "sensor"),
            s("Freezer 1", "Box Temp SP", "°C", "air", "temp", "sp"),
            s("Freezer 1", "Compressor Power", "kW", "elec", "power", "sensor"),
            s("Freezer 1", "Door Open Count", None, "sensor"),
        ],
        "Freezer 2": [
            s("Freezer 2", "Box Temp", "°F", "air", "temp", "sensor"),
            s("Freezer 2", "Compressor Power", "kW", "elec", "power", "sensor"),
        ],
        "Charger 1": [s("Charger 1", "Vehicles", None, "sensor"), s("Charger 1", "Energy Delivered", "kWh", "energy")],
    }
    site = SiteCatalog(
        "DEPOT",
        "UTC",
        list(sensors),
        sensors,
        types={"Freezer 1": ["freezer"], "Freezer 2": ["freezer"], "Charger 1": ["evse"]},
    )
    return Catalog(sites=["DEPOT"], tz={"DEPOT": "UTC"}, _loaded={"DEPOT": site})


CAT = _site()
NOW = None


def test_a_points_measure_comes_from_its_unit_tags_and_name():
    box = CAT.sensors("DEPOT", "Freezer 1")
    assert point_measure(box[0]) == Measure("temperature", "sensor", "°C")
    assert point_measure(box[1]).setpoint
    assert point_measure(box[2]).quantity == "power"
    assert point_measure(CAT.sensors("DEPOT", "Charger 1")[1]).quantity == "energy"


def test_qualifier_markers_are_not_kinds_but_a_sites_own_marker_is():
    assert equip_kinds(["equip", "pump", "chilled", "water"]) == ["pump"]
    assert equip_kinds(["equip", "coldRoom"]) == ["coldRoom"]


def test_an_energy_question_is_answered_from_energy_or_power_never_from_a_count():
    assert fits(["energy"], Measure("power", "sensor", "kW")) and fits(["energy"], Measure("energy", None, "kWh"))
    assert not fits(["energy"], Measure("temperature", "sensor", "°C"))
    g = Grounding.build("How much electricity did Freezer 1 use at DEPOT last week?", CAT)
    assert g.links.measures == ["energy"]
    lacking = g.wrong_measure(
        "histories", {"site_name": "DEPOT", "asset_names": ["Freezer 1"], "sensor_name": "Box Temp"}
    )
    assert "Box Temp measures temperature" in lacking and "Compressor Power" in lacking
    assert (
        g.wrong_measure(
            "histories", {"site_name": "DEPOT", "asset_names": ["Freezer 1"], "sensor_name": "Compressor Power"}
        )
        == ""
    )


def test_the_sensors_offered_are_those_of_the_measure_asked():
    g = Grounding.build("what was the warmest temperature in Freezer 1 at DEPOT yesterday", CAT)
    assert g.scope().sites["DEPOT"].sensors == ("Box Temp",)


def test_a_setpoint_is_compared_with_the_measured_series_not_the_other_way_round():
    g = Grounding.build("Was Freezer 1's Box Temp above its setpoint at DEPOT yesterday?", CAT)
    args = {"site_name": "DEPOT", "asset_name": "Freezer 1", "direction": "above"}
    assert g.wrong_measure("excursions", {**args, "sensor_name": "Box Temp", "limit_sensor": "Box Temp SP"}) == ""
    assert "is a setpoint" in g.wrong_measure(
        "excursions", {**args, "sensor_name": "Box Temp SP", "limit_sensor": "Box Temp"}
    )


def test_two_series_of_different_quantities_or_units_are_not_subtracted():
    g = Grounding.build("difference between Box Temp and Compressor Power of Freezer 1 at DEPOT", CAT)
    base = {"site_name": "DEPOT", "asset_name": "Freezer 1", "other_asset": "Freezer 1"}
    said = g.wrong_measure(
        "derive", {**base, "sensor_name": "Box Temp", "other_sensor": "Compressor Power", "op": "difference"}
    )
    assert "not one quantity in one unit" in said
    assert (
        g.wrong_measure(
            "derive", {**base, "sensor_name": "Compressor Power", "other_sensor": "Box Temp", "op": "ratio"}
        )
        == ""
    )  # a ratio may cross kinds
    across = {
        "site_name": "DEPOT",
        "asset_name": "Freezer 1",
        "other_asset": "Freezer 2",
        "sensor_name": "Box Temp",
        "other_sensor": "Box Temp",
        "op": "difference",
    }
    assert "not one quantity in one unit" in g.wrong_measure("derive", across)  # °C minus °F


UNITS = st.sampled_from(["°C", "°F", "kW", "kWh", "%", None])
QUANTITIES = st.sampled_from(["temperature", "power", "energy", None])


@given(QUANTITIES, UNITS, QUANTITIES, UNITS)
def test_comparable_is_symmetric_and_needs_one_unit(qa, ua, qb, ub):
    a, b = Measure(qa, "sensor", ua), Measure(qb, "sensor", ub)
    assert comparable(a, b) == comparable(b, a)
    if comparable(a, b):
        assert (ua or "") == (ub or "")


@pytest.mark.parametrize(
    "question",
    ["How humid was Freezer 1 at DEPOT yesterday?", "humidity readings of Freezer 1 and Freezer 2 at DEPOT last week"],
)
def test_a_measure_no_named_asset_holds_is_missing(question):
    g = Grounding.build(question, CAT)
    assert [m.kind for m in g.links.missing] and all(m.kind == "sensor" for m in g.links.missing)


def test_an_energy_reading_at_an_instant_reads_the_energy_sensor_not_power():
    from datetime import UTC, datetime

    from edge_agent.grounding.catalog import Catalog, SensorName
    from edge_agent.grounding.run import Grounding

    cat = Catalog.of({"B": {"Grid Incomer M1": ["Power", "Energy"]}})
    cat.site("B").sensors["Grid Incomer M1"] = [
        SensorName("Grid Incomer M1 Power", "Power", "kW", ("power", "sensor")),
        SensorName("Grid Incomer M1 Energy", "Energy", "kWh", ("energy", "sensor")),
    ]
    g = Grounding.build(
        "What did the M1 incomer kWh register read at midnight going into 1 April?",
        cat,
        datetime(2024, 4, 8, tzinfo=UTC),
    )
    call = {
        "site_name": "B",
        "asset_names": ["Grid Incomer M1"],
        "sensor_name": "Power",
        "start": "2024-04-01T00:00:00",
    }
    assert "energy sensor: Energy" in g.wrong_measure("histories", call)
    assert g.wrong_measure("histories", {**call, "sensor_name": "Energy"}) == ""
    # over a period, energy is integrated from power: allowed
    assert g.wrong_measure("histories", {**call, "final": "2024-04-02T00:00:00"}) == ""


def test_a_setpoint_is_read_only_where_the_question_asks_for_one():
    args = {"site_name": "DEPOT", "asset_names": ["Freezer 1"]}
    g = Grounding.build("whats freezer 1 at right now at DEPOT, and drop its setpoint by 2 degrees", CAT)
    said = g.wrong_measure("histories", {**args, "sensor_name": "Box Temp SP"})
    assert "is a setpoint" in said and "Box Temp" in said.split("measured series:")[1]
    assert g.wrong_measure("histories", {**args, "sensor_name": "Box Temp"}) == ""
    asked = Grounding.build("freezer 1 box temp setpoint at DEPOT yesterday", CAT)
    assert asked.wrong_measure("histories", {**args, "sensor_name": "Box Temp SP"}) == ""


def test_the_sensors_offered_leave_the_setpoints_out_where_the_question_says_none():
    g = Grounding.build("whats freezer 1 at right now at DEPOT, and drop its setpoint by 2 degrees", CAT)
    assert "Box Temp SP" not in g.scope().sites["DEPOT"].sensors and "Box Temp" in g.scope().sites["DEPOT"].sensors
    asked = Grounding.build("freezer 1 setpoint at DEPOT right now", CAT)
    assert "Box Temp SP" in asked.scope().sites["DEPOT"].sensors
