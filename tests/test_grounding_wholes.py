"""A part and its whole (issue 40): a system said by its code read from its meter, a share of a total read as the
part's series over the site's main meter, a ratio said by units of amounts read from the series in their rates; and
what a second attempt may not write again (a call whose error is in hand). Each on a small catalog of its own."""

from __future__ import annotations

from datetime import UTC, datetime

from edge_agent.agent.stepio import calls_in_hand
from edge_agent.agent.trajectory import StepRecord
from edge_agent.grounding.catalog import Catalog, SensorName
from edge_agent.grounding.context import framing_spans
from edge_agent.grounding.readas import open_slots
from edge_agent.grounding.run import Grounding

NOW = datetime(2026, 10, 29, 9, 0, tzinfo=UTC)


def _point(name: str, unit: str, *tags: str) -> SensorName:
    return SensorName(name, name, unit, tags)


def _terminal() -> Catalog:
    """A terminal whose baggage system (BHS) is two lines and their sub-meter, beside the site's main meter; a
    brewery's CO2 recovery with terse point names; cooling towers with their make-up water."""
    cat = Catalog.of(
        {
            "Terminal": {"BHS Line 1": [], "BHS Line 2": [], "BHS Sub-Meter": [], "Main Meter": [], "Chiller 1": []},
            "Brewery": {"CO2 Recovery": [], "Cooling Tower 1": [], "Cooling Tower 2": []},
        }
    )
    t, b = cat.site("Terminal"), cat.site("Brewery")
    for a in ("BHS Line 1", "BHS Line 2"):
        t.types[a] = ["conveyor"]
        t.sensors[a] = [_point("Motor Power", "kW", "elec", "power", "sensor"), _point("Speed", "m/s", "sensor")]
    for a in ("BHS Sub-Meter", "Main Meter"):
        t.types[a] = ["elecMeter", "meter"]
        t.sensors[a] = [_point("Active Power", "kW", "elec", "power", "sensor"), _point("Energy", "kWh", "energy")]
    t.markers["Main Meter"] = ("equip", "elec", "meter", "elecMeter", "siteMeter")
    t.markers["BHS Sub-Meter"] = ("equip", "elec", "meter", "elecMeter")
    t.types["Chiller 1"] = ["chiller"]
    t.sensors["Chiller 1"] = [_point("Power", "kW", "elec", "power", "sensor")]
    b.types["CO2 Recovery"] = ["co2Recovery"]
    b.sensors["CO2 Recovery"] = [
        _point("CO2_RR", "lb/h", "co2", "flow", "sensor"),
        _point("CMP_KW", "kW", "elec", "power", "sensor"),
        _point("TK_PRS", "psi", "pressure", "sensor"),
    ]
    for a in ("Cooling Tower 1", "Cooling Tower 2"):
        b.types[a] = ["coolingTower"]
        b.sensors[a] = [_point("Make-up Water Flow", "m³/h", "water", "flow", "sensor")]
    return cat


def _g(question: str) -> Grounding:
    return Grounding.build(question, _terminal(), NOW)


def test_a_system_said_by_its_code_is_read_from_its_meter_for_what_a_meter_measures():
    g = _g("How much electricity did the BHS use yesterday?")
    assert g.links.assets == ["BHS Sub-Meter"]
    g = _g("What was the mean Active Power of the BHS yesterday?")
    assert g.links.assets == ["BHS Sub-Meter"]


def test_a_system_said_by_its_code_is_no_meter_for_what_no_meter_measures():
    assert "BHS Sub-Meter" not in _g("What was the speed of the BHS yesterday?").links.assets


def test_a_share_of_the_sites_electricity_is_the_part_over_the_main_meter():
    g = _g("What share of the terminal's electricity went to the BHS yesterday?")
    assert [(p.ask, p.op) for p in g.reading.parts] == [("derive", "ratio")]
    assert g.links.assets == ["BHS Sub-Meter", "Main Meter"]  # the part first: part ÷ whole
    assert g.links.sensors == ["Active Power"]  # the power both have, never the register


def test_a_share_of_the_sites_electricity_by_one_machine_and_no_share_asked():
    g = _g("What share of the terminal's electricity did Chiller 1 use yesterday?")
    assert g.links.assets == ["Chiller 1", "Main Meter"]
    assert g.links.sensors == []  # no power of one name: each asset's own series (Power, Active Power)
    g = _g("What was the ratio of Chiller 1 power to the BHS Line 1 motor power yesterday?")
    assert "Main Meter" not in g.links.assets  # no share asked: the two series named


def test_a_ratio_said_by_units_of_amounts_reads_the_series_in_their_rates():
    g = _g("How many pounds of CO2 are we getting back per kilowatt hour on the recovery unit yesterday?")
    assert [(p.ask, p.op) for p in g.reading.parts] == [("derive", "ratio")]
    assert g.links.sensors == ["CO2_RR", "CMP_KW"]  # lb/h over kW: pounds per kWh


def test_one_of_our_largest_costs_frames_and_asks_nothing():
    q = "Water is one of our largest costs here. Which cooling tower used the most make-up water last week?"
    assert framing_spans(q) == [(0, q.index(" Which"))]
    assert _g(q).links.asset_types == ["coolingTower"]


def test_a_reading_after_a_pronoun_is_no_name_the_answer_invents():
    g = _g("What was the Chiller 1 power at 3 am yesterday?")
    g.observe(1, 1, "histories", "value at 03:00: Chiller 1 Power = 18.217 kW (recorded 00:45), a gap", answers=True)
    claims = g.check("No value was recorded at 03:00 (the last value before it, 18.217 kW, was at 00:45).")
    assert all(c.grounded for c in claims), [c.text for c in claims if not c.grounded]


def _tool(action: str, args: dict, ok: bool) -> StepRecord:
    return StepRecord(index=1, thought="t", action=action, action_input=args, kind="tool", ok=ok)


def test_a_call_whose_error_is_in_hand_is_not_written_again_in_this_trial_or_the_next():
    bad = {"sensor_name": "A", "other_sensor": "A"}
    good = {"sensor_name": "A", "other_sensor": "B"}
    made = calls_in_hand([_tool("derive", bad, ok=False)])
    assert made == {"derive": [bad]}
    made = calls_in_hand([_tool("derive", good, ok=True)], failed_before=[_tool("derive", bad, ok=False)])
    assert made == {"derive": [bad, good]}
    finish = StepRecord(index=2, thought="t", action="Finish", action_input={"answer": "x"}, kind="invalid", ok=False)
    assert calls_in_hand([finish]) == {}  # a refused answer is no call: it may be written better


def test_a_site_taken_as_the_only_one_while_a_place_word_is_unplaced_is_an_open_slot():
    g = _g("Have we got any cooling towers up the hill?")
    assert g.links.sites == ["Brewery"]
    assert [s for s in open_slots(g) if s.startswith("site: Brewery")], open_slots(g)
    g = _g("Have we got any cooling towers at the Brewery?")
    assert not [s for s in open_slots(g) if s.startswith("site:")]


def test_the_prompt_carries_no_sentence_that_only_frames_the_question():
    q = "Water is one of our largest costs here. Which cooling tower used the most make-up water last week?"
    assert _g(q).prompt_text() == "Which cooling tower used the most make-up water last week?"
    q = "The Brewery had a busy month. Which cooling tower used the most make-up water last week?"
    assert _g(q).prompt_text() == q  # the framing names the site: kept
    q = "Last week was a busy one for us. Which cooling tower used the most make-up water then?"
    assert _g(q).prompt_text() == q  # the framing holds the period the question reads: kept
