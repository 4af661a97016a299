"""What a second attempt learns from the first (issue 40 (g), session 27): a call refused before it ran is not offered
again, in the same attempt or the next; the listings an attempt made are told to the next as facts and not offered
again, so it goes on to the call that reads the data; a refusal for what the attempt's calls did is worth a retry even
where the question has words nothing placed; and Finish waits for a data call where one part asks for a series'
figure over a period (the time of a peak too)."""

from __future__ import annotations

from datetime import UTC, datetime
from types import SimpleNamespace

from edge_agent.agent.stepio import calls_in_hand
from edge_agent.agent.trajectory import StepRecord, Trial
from edge_agent.agent.trial_state import TrialState, listed
from edge_agent.agent.xen import feedback_from, learned, unplaceable
from edge_agent.grounding.catalog import Catalog, SensorName
from edge_agent.grounding.run import Grounding
from tests.plants import POK

NOW = datetime(2030, 2, 12, 9, 0, tzinfo=UTC)
RANK = {"site_name": "POKMAIN", "sensor_name": "Supply Temperature", "by": "mean", "order": "highest"}
LISTING = {"site_name": "POKMAIN", "asset_name": "Chiller 6"}


def _refused() -> StepRecord:
    return StepRecord(
        index=1,
        thought="Rank them.",
        action="rank",
        action_input=RANK,
        observation="Error: Supply Temperature measures temperature, and the question asks for energy. Nothing was run",
        kind="invalid",
        ok=False,
    )


def _listing(n: int = 1) -> StepRecord:
    return StepRecord(
        index=n,
        thought="What does it have?",
        action="sensors",
        action_input=LISTING,
        observation="found 3 sensors on Chiller 6: Tonnage, Power, Supply Temperature; saved to sensors_Chiller_6.json",
    )


def test_a_call_refused_before_it_ran_is_not_offered_again_in_the_same_attempt():
    assert calls_in_hand([_refused()]) == {"rank": [RANK]}
    unknown = _refused().model_copy(update={"action_input": "not json"})  # nothing to leave out of a schema
    assert calls_in_hand([unknown]) == {}


def test_the_next_attempt_is_told_what_the_listings_found_and_is_not_offered_them_again():
    first = Trial(number=1, answer="Chiller 6 has three sensors.", steps=[_listing(), _refused()])
    assert listed(first.steps[0]) and not listed(first.steps[1])
    rt = SimpleNamespace(settings=SimpleNamespace(loop_repeats=3))
    state = TrialState("q", rt, 2, "", [first])  # type: ignore[arg-type]
    assert calls_in_hand([], state.failed_steps) == {"sensors": [LISTING], "rank": [RANK]}
    facts = learned([first, Trial(number=2, steps=[_listing()])])
    assert facts == [f"Known from attempt 1: {_listing().observation}"]  # said once, by the attempt that found it
    assert feedback_from([first], 8).startswith("Known from attempt 1: found 3 sensors on Chiller 6")


def test_a_refusal_for_the_attempts_calls_is_retried_though_words_were_not_placed():
    g = Grounding.build("what was the mean Tonnage of Chiller 6 at POKMAIN last week, asks the gubbins", POK, NOW)
    assert "gubbins" in g.unplaced
    g.observe(1, 1, "sensors", _listing().observation, head="found 3 sensors on Chiller 6", call="sensors")
    prose = Trial(number=1, answer="Chiller 6 has Tonnage.")
    prose.claims = g.check(prose.answer)
    assert "no data call" in g.unsupported(1, prose.answer or "", prose.claims)
    assert not unplaceable(prose, SimpleNamespace(grounding=g))  # the model's to mend: a second attempt is made


def test_finish_waits_for_a_data_call_where_the_time_of_a_peak_is_asked():
    g = Grounding.build("When did Chiller 6 at POKMAIN reach its highest Power last week?", POK, NOW)
    assert [p.ask for p in g.reading.parts] == ["when_extreme"]
    assert g.holds_finish(1)  # a listing's head is no time of a peak
    listing = Grounding.build("What sensors does Chiller 6 at POKMAIN have?", POK, NOW)
    assert not listing.holds_finish(1)


def _kilns() -> Catalog:
    cat = Catalog.of({"Vila Tile Works": {"Kiln A": [], "Kiln B": [], "Press 1": []}})
    site = cat.site("Vila Tile Works")
    for kiln in ("Kiln A", "Kiln B"):
        site.types[kiln] = ["kiln"]
        site.sensors[kiln] = [
            SensorName("Firing Zone Temp", "Firing Zone Temp", "°C", ("temp", "sensor")),
            SensorName("Burner Gas Flow", "Burner Gas Flow", "m³/h", ("gas", "flow", "sensor")),
            SensorName("Roller Speed", "Roller Speed", "m/min", ("speed", "sensor")),
        ]
    site.types["Press 1"] = ["press"]
    site.sensors["Press 1"] = [SensorName("Hydraulic Power", "Hydraulic Power", "kW", ("elec", "power", "sensor"))]
    return cat


def test_a_kinds_point_is_named_by_one_word_of_its_name():
    g = Grounding.build("Which kiln at Vila Tile Works burnt the most gas last month?", _kilns(), NOW)
    assert g.links is not None and g.links.asset_types == ["kiln"] and g.links.sensors == ["Burner Gas Flow"]
    # a word before a measure's word still names no point of another quantity
    hot = Grounding.build("Which kiln at Vila Tile Works had the hottest gas temp last month?", _kilns(), NOW)
    assert hot.links is not None and "Burner Gas Flow" not in hot.links.sensors
    # only a word its point is tagged with: "roller" names no point of the kilns (Roller Speed is tagged `speed`)
    busy = Grounding.build("Which kiln at Vila Tile Works had the busiest roller last week?", _kilns(), NOW)
    assert busy.links is not None and "Roller Speed" not in busy.links.sensors
    # nor a word of the kind's phrase, or the one before it, said again elsewhere in the question
    again = Grounding.build("Which gas kiln at Vila Tile Works ran its rollers fastest per gas used?", _kilns(), NOW)
    assert again.links is not None and "Burner Gas Flow" not in again.links.sensors


def test_a_signed_series_energy_is_said_by_sign_and_the_description_says_which_is_asked():
    from datetime import timedelta

    from edge_agent import analysis as an

    start = datetime(2030, 1, 1)
    points = an.series((start + timedelta(hours=i), v) for i, v in enumerate([2.0, 2.0, -2.0, -2.0, 2.0]))
    assert an.energy_kwh(points, "kW").kwh == 0.0
    assert an.energy_by_sign(points, "kW") == (3.0, 3.0)  # the line crosses zero halfway: half a triangle each way
    assert an.energy_by_sign(points[:2], "kW") is None  # one sign: its energy is all of one direction
    assert an.energy_by_sign(points, "MW") == (3000.0, 3000.0)
    cat = Catalog.of({"Isla Grid": {"House Battery": []}})
    site = cat.site("Isla Grid")
    site.types["House Battery"] = ["battery"]
    site.markers["House Battery"] = ("battery", "elec", "equip")
    site.sensors["House Battery"] = [
        SensorName("Net Power", "Net Power", "kW", ("elec", "power", "sensor"), "+ = discharging, - = charging")
    ]
    g = Grounding.build("How much energy did the House Battery at Isla Grid discharge last week?", cat, NOW)
    scope = g.scope().sites["Isla Grid"]
    assert scope.sensors == ("Net Power",) and scope.sign == "+" and not scope.unsigned


def test_a_history_head_says_a_signed_powers_energy_by_sign():
    from datetime import timedelta

    from edge_agent import analysis as an
    from plugins.iot import _by_sign

    start = datetime(2030, 1, 1)
    points = an.series((start + timedelta(hours=i), v) for i, v in enumerate([4.0, 4.0, -4.0]))
    assert _by_sign(points, "kW") == " net (above 0: 5.0 kWh, below 0: 1.0 kWh)"
    assert _by_sign(points[:2], "kW") == ""


def test_finish_waits_for_a_data_call_where_a_value_now_is_asked():
    g = Grounding.build("What is the Tonnage of Chiller 6 at POKMAIN right now?", POK, NOW)
    assert g.holds_finish(1)  # no data call yet: a listing's head is no value
    g.observe(1, 1, "sensors", _listing().observation, head="found 3 sensors on Chiller 6", call="sensors")
    assert g.holds_finish(1)
    g.observe(
        1, 2, "histories", "Chiller 6 Tonnage = 412.5 tons at 08:45", head="Chiller 6 Tonnage = 412.5", answers=True
    )
    assert not g.holds_finish(1) and g.holds_finish(2)  # each attempt makes its own call
    missing = Grounding.build("What is the Humidity of Chiller 6 at POKMAIN right now?", POK, NOW)
    assert not missing.holds_finish(1)  # only what the SkySpark lacks is named: the facts answer
