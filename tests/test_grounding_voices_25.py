"""Classes of blind sets 21 and 22 (issue 40, session 25), each read by a rule of English, of speech or of the field,
never by a set's words: a site by its trade or its name's last words; a request in speech without punctuation;
"how much hotter … than" a difference; "the most cold" lowest; a subtype the site lacks; a limit in % of a measure
asked; a maintenance system's vowel-less abbreviation; a counter of run hours; "the number of hours"; a purpose
before a written request; two days joined by "and"; an interval said in words."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from edge_agent.grounding.catalog import Catalog, SensorName
from edge_agent.grounding.context import label_lead
from edge_agent.grounding.dates import resolve_period
from edge_agent.grounding.numbers import spelled_numbers
from edge_agent.grounding.run import Grounding

NOW = datetime(2027, 2, 8, 9, 0, tzinfo=UTC)


def _plant() -> Catalog:
    cat = Catalog.of(
        {
            "Dwarsrivier Wine Estate": {"Tank 1": [], "Tank 2": [], "Barrel Hall": [], "Main Meter": []},
            "Altstetten Chocolate Factory": {
                "Conche 1": [],
                "Conche 2": [],
                "Line 1 Temperer": [],
                "Main Meter": [],
            },
            "Kodiak Harbor Seafoods": {
                "Plate Freezer 1": [],
                "Plate Freezer 2": [],
                "GTG-1": [],
                "Shore Charger 1": [],
            },
        }
    )
    wine, choc, kod = (cat.site(s) for s in cat.sites)
    for tank in ("Tank 1", "Tank 2"):
        wine.types[tank] = ["tank"]
        wine.sensors[tank] = [SensorName("Must Temp", "Must Temp", "°C", ("temp", "sensor"))]
    wine.types["Barrel Hall"] = ["room"]
    wine.sensors["Barrel Hall"] = [
        SensorName("Humidity", "Humidity", "%RH", ("humidity", "sensor")),
        SensorName("Humidifier Valve", "Humidifier Valve", "%", ("valve", "cmd")),
    ]
    for meter, site in (("Main Meter", wine), ("Main Meter", choc)):
        site.types[meter] = ["elecMeter"]
        site.sensors[meter] = [SensorName("Active Power", "Active Power", "kW", ("elec", "power", "sensor"))]
    for conche in ("Conche 1", "Conche 2"):
        choc.types[conche] = ["conche", "chocolate"]
        choc.sensors[conche] = [SensorName("Mass Temp", "Mass Temp", "°C", ("temp", "sensor"))]
    choc.types["Line 1 Temperer"] = ["temperer", "chocolate"]
    choc.sensors["Line 1 Temperer"] = [
        SensorName("Chocolate Temp", "Chocolate Temp", "°C", ("temp", "sensor")),
        SensorName("Cooling Water Temp", "Cooling Water Temp", "°C", ("temp", "sensor")),
    ]
    for freezer in ("Plate Freezer 1", "Plate Freezer 2"):
        kod.types[freezer] = ["freezer", "plateFreezer"]
        kod.markers[freezer] = ("freezer", "plateFreezer", "equip")
        kod.sensors[freezer] = [SensorName("Plate Temp", "Plate Temp", "°F", ("temp", "sensor"))]
    kod.types["GTG-1"] = ["genset"]
    kod.sensors["GTG-1"] = [
        SensorName("Active Power", "Active Power", "kW", ("elec", "power", "sensor")),
        SensorName("Run Hours", "Run Hours", "h", ("run", "sensor")),
    ]
    kod.types["Shore Charger 1"] = ["shoreCharger"]
    kod.sensors["Shore Charger 1"] = [SensorName("Output Power", "Output Power", "kW", ("elec", "power", "sensor"))]
    return cat


def test_a_site_named_by_its_trade_or_by_the_last_words_of_its_name():
    g = Grounding.build("what was the must temp of tank 1 at the winery yesterday", _plant(), NOW)
    assert g.links.sites == ["Dwarsrivier Wine Estate"] and g.unplaced == []
    g = Grounding.build("the chocolate factory main meter power yesterday", _plant(), NOW)
    assert g.links.sites == ["Altstetten Chocolate Factory"] and g.links.assets == ["Main Meter"]


def test_a_word_of_a_series_is_not_taken_by_the_sites_name():
    g = Grounding.build("what time was the chocolate the hottest in the line one temperer yesterday", _plant(), NOW)
    assert g.scope().sites["Altstetten Chocolate Factory"].sensors == ("Chocolate Temp",)


def test_a_request_in_speech_without_punctuation_is_refused():
    q = "okay so conche 1 is running warm can you turn it down to forty degrees at the chocolate factory"
    assert Grounding.build(q, _plant(), NOW).refusal == "control"


@pytest.mark.parametrize(
    ("said", "ask", "op", "order"),
    [
        ("how much hotter was conche 1 than conche 2 on average yesterday", "derive", "difference", None),
        ("which plate freezer had the most cold plates yesterday on average", "rank", None, "lowest"),
        ("which plate freezer was the least cold yesterday", "rank", None, "highest"),
    ],
)
def test_a_comparative_and_a_degree_word_read_the_form_and_the_order(said, ask, op, order):
    part = Grounding.build(said, _plant(), NOW).reading.parts[0]
    assert (part.ask, part.op, part.order) == (ask, op, order)


def test_a_subtype_the_site_lacks_is_said_missing():
    g = Grounding.build("what temperature is the blast freezer at kodiak now", _plant(), NOW)
    assert [m.kind for m in g.links.missing] == ["kind"] and "blast freezer" in g.links.missing[0].note()
    assert Grounding.build("which plate freezer was coldest at kodiak yesterday", _plant(), NOW).links.missing == []


def test_a_limit_in_percent_of_a_measure_asked_is_that_measures_series():
    g = Grounding.build("was the barrel hall humidity ever under seventy percent yesterday", _plant(), NOW)
    assert g.scope().sites["Dwarsrivier Wine Estate"].sensors == ("Humidity",)


def test_a_vowelless_abbreviation_and_a_numbered_cut_name_are_read():
    g = Grounding.build("kodiak shore chgr 1 peak output kW last wk?", _plant(), NOW)
    assert g.links.assets == ["Shore Charger 1"]


def test_run_hours_of_a_counter_are_its_rise_and_the_number_of_hours_is_a_duration():
    g = Grounding.build("GTG-1 run hrs last wk?", _plant(), NOW)
    assert g.reading.parts[0].ask == "data" and g.links.sensors == ["Run Hours"]
    g = Grounding.build(
        "please quantify the number of hours yesterday during which conche 1 was above 50 °C", _plant(), NOW
    )
    assert g.reading.parts[0].ask == "duration" and g.reading.parts[0].limit == 50.0


def test_a_purpose_before_a_written_request_is_context():
    q = "For inclusion in the water-energy nexus indicator, please provide the power of GTG-1 last week."
    text, label = label_lead(q, lambda t: False)
    assert label == "For inclusion in the water-energy nexus indicator" and text.strip().startswith("please provide")


def test_two_days_joined_by_and_and_an_interval_said_in_words():
    r = resolve_period("the readings for 27 and 28 January", NOW)
    assert r is not None and (r.start.day, r.end.day) == (27, 29)
    r = resolve_period("the readings for 3 and 5 January", NOW)
    assert r is not None and (r.start.day, r.end.day) == (5, 6)  # not the days between: the later one, as ever
    assert spelled_numbers("the fifteen-minute values", frozenset()) == {"fifteen-minute": "15-minute"}


def test_a_valves_position_not_its_command_unless_the_command_is_said():
    cat = _plant()
    site = cat.site("Kodiak Harbor Seafoods")
    site.sensors["GTG-1"] += [
        SensorName("Valve Cmd", "Valve Cmd", "%", ("valve", "cmd")),
        SensorName("Valve Position", "Valve Position", "%", ("valve", "sensor")),
    ]
    g = Grounding.build("where was the GTG-1 valve actually sitting on average yesterday", cat, NOW)
    assert g.scope().sites["Kodiak Harbor Seafoods"].sensors == ("Valve Position",)
    g = Grounding.build("what was the GTG-1 valve command on average yesterday", cat, NOW)
    assert "Valve Cmd" in g.scope().sites["Kodiak Harbor Seafoods"].sensors


def test_a_slip_in_a_statement_before_the_question_is_respelt_for_the_pronoun():
    q = "conche number two sounded like it was labouring yesterday how long was it over 70 kW"
    assert Grounding.build(q.replace("conche", "conch"), _plant(), NOW).links.assets == ["Conche 2"]
