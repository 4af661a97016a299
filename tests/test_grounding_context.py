"""Context in an operator's message (`grounding.context`): a relayed request's lead and remarks after the question are
set aside before the question is read, and said; a request of the operator's own, a name, a question are never."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from edge_agent.grounding.catalog import Catalog, SensorName
from edge_agent.grounding.context import set_aside
from edge_agent.grounding.question import read_question
from edge_agent.grounding.readas import open_slots, read_as
from edge_agent.grounding.run import Grounding

NOW = datetime(2026, 11, 5, 9, 0, tzinfo=UTC)


@pytest.mark.parametrize(
    ("message", "question", "aside"),
    [
        (
            "quick one from the night shift: what time did Compartment A hit its warmest on Saturday? they think the "
            "screens opened late",
            "what time did Compartment A hit its warmest on Saturday?",
            ["from the night shift", "they think the screens opened late"],
        ),
        (
            "hiya — the grower's asking which compartment was the driest last week",
            "which compartment was the driest last week",
            ["the grower's asking"],
        ),
        (
            "hi! the maintenance planner's asking what TR-2's oil temp was at 3 in the morning, the alarm log looks "
            "odd",
            "what TR-2's oil temp was at 3 in the morning",
            ["the maintenance planner's asking", "the alarm log looks odd"],
        ),
        (
            "The energy trader's on the phone: for how many hours was the grid connection exporting? roughly is fine",
            "for how many hours was the grid connection exporting?",
            ["The energy trader's on the phone", "roughly is fine"],
        ),
        (
            "which transformer was the least loaded last week — he's planning an outage",
            "which transformer was the least loaded last week",
            ["he's planning an outage"],
        ),
    ],
)
def test_a_relays_lead_and_remarks_after_the_question_are_set_aside(message, question, aside):
    text, said = set_aside(message)
    assert " ".join(text.split()) == question and said == aside
    assert len(text) == len(message)  # spans into the question still point where they did


@pytest.mark.parametrize(
    "message",
    [
        "I need chiller 6 turned off now",
        "can you tell me the max of AHU-2 SAT yesterday, the supply air",
        "what was the CHW supply temp yesterday at POKMAIN, and the max?",
        "what was the max of AHU 1? and the min?",
        "Freezer? no: Main Meter Active Power and Power yesterday at B",
        "any unit heaters at MRF, or is it all boilers?",
    ],
)
def test_requests_names_and_questions_are_never_set_aside(message):
    assert set_aside(message) == (message, [])


def test_what_was_set_aside_is_said_and_a_statement_before_the_question_places_its_words():
    cat = Catalog.of({"N": {"Pipe Rail Loop 2": ["Flow Temp", "Flow Temp SP"]}})
    q = "grower reckons the mixing valve on Pipe Rail Loop 2 was sticking yesterday — did its flow temp dip below sp?"
    g = Grounding.build(q, cat, NOW)
    assert g.aside == ["grower reckons"] and g.unplaced == [] and g.links.assets == ["Pipe Rail Loop 2"]
    assert 'set aside as context: "grower reckons"' in read_as(g, None, answered=False).line


@pytest.mark.parametrize(
    ("question", "ask", "op"),
    [
        ("how much more power did Reefer Stack R1 draw than R2 yesterday, on average", "derive", "difference"),
        ("how many kWh did the CHP generate yesterday, for the gas/power settlement", "data", None),  # "/": and/or
        ("wich compartment was the driest on average last week", "rank", None),
    ],
)
def test_forms_of_the_help_desk_voice(question, ask, op):
    part = read_question(question).parts[0]
    assert (part.ask, part.op) == (ask, op)


def test_most_starved_of_air_is_the_lowest_airflow_and_no_missing_kind():
    cat = Catalog.of({"W": {"VAV 1": ["Airflow", "Zone Temp"], "VAV 2": ["Airflow", "Zone Temp"]}, "S": {"CDA 1": []}})
    for a in ("VAV 1", "VAV 2"):
        cat.site("W").types[a] = ["vav"]
    cat.site("S").types["CDA 1"] = ["air", "compressor"]
    g = Grounding.build("which VAV box at W was the most starved of air yesterday, on average?", cat, NOW)
    assert g.reading.parts[0].order == "lowest" and not g.links.missing
    assert g.scope().sites["W"].sensors == ("Airflow",)


def test_how_many_of_what_a_point_counts_is_its_value():
    cat = Catalog.of(
        {"S": {"Reefer Stack R3": ["Power", "Plugs In Use"], "Reefer Stack R4": ["Power", "Plugs In Use"]}}
    )
    g = Grounding.build("how many reefer plugs were in use on Reefer Stack R3 at S at 2pm yesterday?", cat, NOW)
    assert (g.reading.parts[0].ask, g.reading.parts[0].form) == ("data", "value")
    g = Grounding.build("how many reefer stacks are there at S?", cat, NOW)
    assert g.reading.parts[0].ask == "count"


@pytest.mark.parametrize(
    ("question", "order"),
    [
        ("HP pump 2 or HP pump 4, which one is the hungriest? avg motor kW of last week", "highest"),
        ("Last week the least loaded NH3 compressor, by avg slide valve %?", "lowest"),
    ],
)
def test_orders_of_the_engineers_voice(question, order):
    part = read_question(question).parts[0]
    assert (part.ask, part.order) == ("rank", order)


def test_a_rate_per_minute_is_no_minimum():
    question = "The train wash fresh water, avg L/min of last week against the week before: which was higher?"
    part = read_question(question).parts[0]
    assert (part.ask, part.statistic) == ("periods", "mean")


def test_the_worst_by_an_efficiency_in_percent_is_its_lowest():
    cat = Catalog.of({"K": {f"ERD {i}": ["Efficiency", "Flow"] for i in (1, 2)}})
    for a in cat.assets("K"):
        cat.site("K").types[a] = ["erd"]
    g = Grounding.build("last week which ERD at K was the worst one, by avg efficiency?", cat, NOW)
    assert g.reading.parts[0].order == "lowest" and not g.reading.parts[0].open_slots()


def test_a_holidays_name_is_no_missing_sensor():
    cat = Catalog.of({"O": {"Plant Main Meter": ["Demand", "Energy"]}})
    g = Grounding.build("Plant Main Meter at O on Labor Day (the Monday): the avg kW of the day?", cat, NOW)
    assert not g.links.missing and "labor" not in g.unplaced


def test_a_limit_in_degrees_is_a_temperature():
    cat = Catalog.of({"S": {"DIG_02": ["TEMP", "PH", "LEVEL"]}})
    cat.site("S").sensors["DIG_02"] = [
        SensorName("TEMP", "TEMP", "°C", ("temp", "sensor")),
        SensorName("PH", "PH", "pH", ("ph", "sensor")),
        SensorName("LEVEL", "LEVEL", "%", ("level", "sensor")),
    ]
    g = Grounding.build("how many hours was DIG_02 at S below 37 deg on thursday?", cat, NOW)
    assert g.scope().sites["S"].sensors == ("TEMP",)


def test_i_need_is_a_request_not_a_remark():
    assert set_aside("how far apart were the two temps on 18 August? I need the largest difference.")[1] == []
    cat = Catalog.of({"H": {"B001_Total": ["Power"], "B003_Total": ["Power"]}})
    for a in cat.assets("H"):
        cat.site("H").types[a] = ["meter"]
    g = Grounding.build("I need the names of all electric meters at H.", cat, NOW)
    assert g.qualified == {"meter": ["electric"]}


def test_how_many_of_a_kind_is_a_count_even_where_a_point_shares_a_word():
    cat = Catalog.of({"B": {"Meter 1": ["Power"], "Meter 2": ["Power"]}})
    for a in cat.assets("B"):
        cat.site("B").types[a] = ["elecMeter", "meter"]
    assert Grounding.build("How many power meters are there at B?", cat, NOW).reading.parts[0].ask == "count"


def test_only_a_series_a_setpoint_is_of_is_compared_with_it():
    from edge_agent.toolkit import ToolRegistry
    from plugins.iot_analysis import excursions

    cat = Catalog.of({"N": {"Pipe Rail Loop 2": ["Flow Temp", "Flow Temp SP", "Mixing Valve"]}})
    q = "grower reckons the mixing valve on Pipe Rail Loop 2 at N was sticking — did its flow temp dip below its sp?"
    g = Grounding.build(q, cat, NOW)
    schema = g.scope().constrain(ToolRegistry([excursions]).get("excursions").schema())
    branch = schema["anyOf"][0] if "anyOf" in schema else schema
    assert branch["properties"]["sensor_name"] == {"enum": ["Flow Temp"]}


def test_two_series_a_measure_fits_leave_the_pick_open_unless_a_direction_settles_it():
    cat = Catalog.of({"P": {"TSS-2": []}})
    cat.site("P").sensors["TSS-2"] = [
        SensorName("Import Energy", "Import Energy", "kWh", ("elec", "energy", "import", "sensor")),
        SensorName("Export Energy", "Export Energy", "kWh", ("elec", "energy", "export", "sensor")),
        SensorName("Active Power", "Active Power", "kW", ("elec", "power", "sensor")),
    ]
    g = Grounding.build("How much energy did the TSS-2 at P log yesterday?", cat, NOW)
    assert {"Import Energy", "Export Energy"} <= set(g.scope().sites["P"].sensors)
    head = "The rise TSS-2 Import Energy on 4 November 2026 was 12375.3 kWh"
    args = {"site_name": "P", "asset_names": ["TSS-2"], "sensor_name": "Import Energy"}
    g.observe(1, 1, "histories", head, head=head, answers=True, args=args)
    assert open_slots(g, 1) == ["measure: Import Energy, chosen by the model among the energy series"]
    g = Grounding.build(
        "How much energy the TSS-2 at P gave back to the grid yesterday by regenerative braking?", cat, NOW
    )
    assert g.scope().sites["P"].sensors == ("Export Energy",)  # the direction asked, as the points' tags say it


def test_a_word_of_an_assets_name_never_settles_its_series():
    cat = Catalog.of({"H": {"Heat Pump 1": ["Heating Output", "Power"]}})
    g = Grounding.build("what was Heat Pump 1 at H doing at 3am yesterday", cat, NOW)
    head = "Heat Pump 1 Heating Output was 410 kW at 03:00 on 4 November 2026"
    args = {"site_name": "H", "asset_names": ["Heat Pump 1"], "sensor_name": "Heating Output"}
    g.observe(1, 1, "histories", head, head=head, answers=True, args=args)
    assert open_slots(g, 1) == ["measure: Heating Output, chosen by the model: the question names no measure"]
