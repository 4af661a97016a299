"""Classes blind sets 25 and 26 left open (issue 40, session 27), each read by a rule of English, of radio procedure, of
a letter or of the field, never by a set's words: a radio call (its opening, its procedure words, its spoken digits);
a night said as "overnight"; days of a month in words; "ran warmest" over a period; a name called before a request; a
future said with "going to get"; British and American spellings of a kind; a topic word beside equipment; a
customer's name before "order"; absence claims for verbs and a site's words; "confirm whether"; a limit named before
its figure; a duration said as a length of time; SI prefixes on units; clock windows after a day and in apposition;
"the extent to which … fell short of"; a ratio of an energy is one of its power; slang for a generator."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from edge_agent.grounding.catalog import Catalog, SensorName
from edge_agent.grounding.dates import resolve_period
from edge_agent.grounding.radio import radio_call
from edge_agent.grounding.run import Grounding

NOW = datetime(2031, 6, 12, 9, 30, tzinfo=UTC)


def _plant() -> Catalog:
    cat = Catalog.of(
        {
            "Harrow Dairy": {"Blast Freezer": [], "Pasteurizer 1": [], "Pasteurizer 2": [], "Pump 3": [], "Pump 4": []},
            "Quarry Lane Works": {"Electrolyser 1": [], "Standby Genset": [], "Main Incomer": []},
        }
    )
    dairy = cat.site("Harrow Dairy")
    dairy.types["Blast Freezer"] = ["freezer"]
    dairy.sensors["Blast Freezer"] = [
        SensorName("Air Temp", "Air Temp", "°C", ("air", "temp", "sensor")),
        SensorName("Product Temp", "Product Temp", "°C", ("temp", "sensor")),
    ]
    for p in ("Pasteurizer 1", "Pasteurizer 2"):
        dairy.types[p] = ["pasteurizer"]
        dairy.sensors[p] = [
            SensorName("Holding Temp", "Holding Temp", "°C", ("temp", "sensor")),
            SensorName("Drive Speed", "Drive Speed", "m/min", ("speed", "sensor")),
        ]
    for p in ("Pump 3", "Pump 4"):
        dairy.types[p] = ["pump"]
        dairy.sensors[p] = [
            SensorName("Speed Feedback", "Speed Feedback", "%", ("speed", "sensor")),
            SensorName("Speed Command", "Speed Command", "%", ("speed", "cmd")),
        ]
    works = cat.site("Quarry Lane Works")
    works.types["Electrolyser 1"] = ["electrolyser"]
    works.sensors["Electrolyser 1"] = [
        SensorName("Stack Current", "Stack Current", "kA", ("current", "elec", "sensor")),
        SensorName("Stack Power", "Stack Power", "MW", ("elec", "power", "sensor")),
        SensorName("Stack Energy", "Stack Energy", "MWh", ("elec", "energy", "sensor")),
        SensorName("Hydrogen Output", "Hydrogen Output", "kg/h", ("flow", "sensor")),
    ]
    works.types["Standby Genset"] = ["genset"]
    works.sensors["Standby Genset"] = [SensorName("Active Power", "Active Power", "kW", ("elec", "power", "sensor"))]
    works.types["Main Incomer"] = ["elecMeter", "meter"]
    works.sensors["Main Incomer"] = [SensorName("Active Power", "Active Power", "kW", ("elec", "power", "sensor"))]
    return cat


def _g(question: str) -> Grounding:
    return Grounding.build(question, _plant(), NOW)


@pytest.mark.parametrize(
    ("call", "asked"),
    [
        (
            "Base, dairy office. Say again the speed feedback on pump fower, over.",
            "what is the speed feedback on pump 4",
        ),
        (
            "Control, this is the blast freezer. Read me the holding temp on pasteurizer too, over.",
            "what is the holding temp on pasteurizer 2",
        ),
        (
            "Control, engine bay, roger. Request the average stack current for last week, over.",
            "the average stack current for last week",
        ),
        (
            "Control, dairy. Copy the alarm. And pump figures three, how fast overnight, over.",
            "And pump three, how fast overnight",
        ),
    ],
)
def test_a_radio_call_is_read_as_the_question_it_asks(call, asked):
    text, aside = radio_call(call)
    assert len(text) == len(call) and " ".join(text.split()) == asked
    assert aside and aside[0].startswith("a radio call to ")
    assert radio_call("Is the dairy over its limit?") == ("Is the dairy over its limit?", [])


def test_the_caller_of_a_radio_call_is_who_asks_never_what_is_asked_about():
    g = _g("Control, this is the blast freezer. What is the holding temp of pasteurizer 1, over.")
    assert g.links is not None and g.links.assets == ["Pasteurizer 1"] and g.links.sensors == ["Holding Temp"]
    assert any("from the blast freezer" in a for a in g.aside)


def test_a_name_called_before_a_request_to_operate_is_its_object():
    g = _g("Control, dairy office. Pump tree, start her up from your end, over.")
    assert g.refusal == "control"
    read = _g("Pump 3 speed feedback yesterday, and turn off pump 4")  # a question beside a request: still read
    assert read.reading.intent == "read"


@pytest.mark.parametrize(
    ("phrase", "start", "end"),
    [
        ("how cold did the freezer get overnight", "2031-06-11T18:00", "2031-06-12T06:00"),
        ("a file from the second to the fourth inclusive", "2031-06-02T00:00", "2031-06-05T00:00"),
        ("from the twenty-first to the twenty-third of May", "2031-05-21T00:00", "2031-05-24T00:00"),
        ("which pump used most over the shift today (06:00 to 09:00)", "2031-06-12T06:00", "2031-06-12T09:00"),
        (
            "as an average over the period, namely 09:00 to 15:00 on Monday 9 June",
            "2031-06-09T09:00",
            "2031-06-09T15:00",
        ),
    ],
)
def test_periods_said_in_words_and_in_apposition(phrase, start, end):
    span = resolve_period(phrase, NOW)
    assert span is not None and span.start.isoformat()[:16] == start and span.end.isoformat()[:16] == end
    assert resolve_period("the second week of May", NOW).start.isoformat()[:10] == "2031-05-08"  # a week, no day


def test_a_superlative_of_how_it_ran_is_its_mean_over_the_period():
    part = _g("which pasteurizer ran hottest last week?").reading.parts[0]
    assert part.ask == "rank" and part.statistic == "mean"
    assert _g("which pasteurizer reached the highest temperature last week?").reading.parts[0].statistic == "max"


def test_the_future_said_with_going_to_get_is_a_forecast():
    assert _g("Is it going to get colder in the blast freezer this afternoon?").refusal == "forecast"


def test_a_kind_in_british_spelling_is_the_kind():
    g = _g("what is the holding temp on the pasteuriser at Harrow Dairy?")
    assert g.links is not None and g.links.asset_types == ["pasteurizer"] and not g.unplaced


def test_a_topic_word_beside_equipment_is_the_plants_own():
    g = _g("Was the temperature of the stock in the Blast Freezer above -18 °C at any time yesterday?")
    assert g.refusal == "" and g.reading.parts[0].ask == "excursion"
    assert _g("what is the stock price of gold?").refusal == "outside"


def test_a_customers_name_before_order_is_no_missing_site():
    g = _g("For the Marbella Foods order costing, which pump at Harrow Dairy used the most power yesterday?")
    assert g.links is not None and not [m for m in g.links.missing if m.kind == "site"] and not g.unplaced


def test_no_absence_claim_for_a_verb_or_a_sites_words():
    g = _g("At Quarry Lane Works, how many kg of hydrogen did Electrolyser 1 make for each MWh burned last week?")
    assert g.links is not None and not any("burned" in m.note() for m in g.links.missing)


def test_confirm_whether_asks_yes_or_no_and_a_named_limit_is_its_figure():
    part = _g(
        "Please confirm whether the holding temp of Pasteurizer 2 fell below the statutory minimum of 72 °C at any "
        "time yesterday."
    ).reading.parts[0]
    assert (part.ask, part.form, part.direction, part.limit) == ("excursion", "yes_no", "below", 72.0)


@pytest.mark.parametrize("said", ["the total length of time", "the aggregate duration"])
def test_a_duration_said_as_a_length_of_time(said):
    g = _g(f"Please state {said} yesterday during which the stack current of Electrolyser 1 was below 12 kA.")
    part = g.reading.parts[0]
    assert (part.ask, part.direction, part.limit, part.limit_unit) == ("duration", "below", 12.0, "kA")
    assert not g.unplaced  # kA: an SI prefix on the ampere


def test_the_extent_to_which_one_fell_short_of_another_is_their_difference():
    part = _g(
        "Please quantify, as an average over yesterday, the extent to which the speed feedback of Pump 3 fell short "
        "of its speed command."
    ).reading.parts[0]
    assert part.ask == "derive" and part.op == "difference" and part.statistic == "mean"


def test_a_ratio_of_an_energy_is_one_of_its_power():
    g = _g("What was Electrolyser 1's specific energy last week, in MWh of stack energy per kg of hydrogen output?")
    scope = g.scope().sites["Quarry Lane Works"]
    assert "Stack Power" in scope.sensors and "Stack Energy" not in scope.sensors


def test_genny_is_a_generator():
    g = _g("How much load was the genny at Quarry Lane Works carrying at 05:00?")
    assert g.links is not None and g.links.assets == ["Standby Genset"] and "genny" not in g.unplaced


def test_an_alternative_set_aside_is_no_subject():
    g = _g(
        "Was the temperature of the product in the Blast Freezer, as distinct from that of the air, above -18 °C at "
        "any time yesterday?"
    )
    assert g.links is not None and "Air Temp" not in g.links.sensors
    assert any(a.startswith("as distinct from") for a in g.aside)


def test_a_letters_salutation_opens_a_statement_whose_words_are_context():
    g = _g(
        "Dear colleagues at the dairy, in my day the old ammonia plant simply had to be nursed through August. "
        "How many hours was the Blast Freezer above -18 °C yesterday?"
    )
    assert g.reading.parts[0].ask == "duration" and "simply" not in g.unplaced and "nursed" not in g.unplaced


def test_a_range_in_brackets_runs_from_its_first_time():
    span = resolve_period("last night's shift (20:00 tuesday to 08:00 this morning): how many hours", NOW)
    assert span is not None and (span.start.isoformat()[:16], span.end.isoformat()[:16]) == (
        "2031-06-10T20:00",
        "2031-06-12T08:00",
    )


def test_a_topic_with_a_measure_but_no_equipment_is_still_another_topic():
    assert _g("Email the energy report to the dairy manager.").refusal == "outside"
    assert _g("Send an e-mail saying the pumps are fine.").refusal == "outside"


def test_a_value_asked_in_the_present_with_no_time_is_the_value_now():
    g = _g("what's the holding temp on Pasteurizer 2 at Harrow Dairy?")
    assert g.start is not None and g.start == g.final  # now: the latest reading
    assert _g("what was the holding temp on Pasteurizer 2 at Harrow Dairy?").start is None  # the past: not now
    assert _g("what sensors does Pasteurizer 2 at Harrow Dairy have?").start is None  # no measure: a listing
