"""The frame of a question (issue 40): each slot says where it came from, a word of degree the reading does not know
leaves the order open (never "highest" by default), the Read-as line says what the answering calls computed, and the
frame's checks hold back a setpoint read for a measured value and a series of another quantity than the limit's."""

from __future__ import annotations

import json
from datetime import UTC, datetime

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from edge_agent.grounding.catalog import Catalog, SensorName
from edge_agent.grounding.question import read_question
from edge_agent.grounding.readas import open_slots, read_as, wrong_series
from edge_agent.grounding.run import Grounding
from edge_agent.toolkit import ToolRegistry
from plugins.iot_analysis import derive

NOW = datetime(2024, 5, 6, 9, 0, tzinfo=UTC)


def _part(question: str):
    r = read_question(question)
    return next(p for p in r.parts if p.ask in ("rank", "when_extreme", "periods"))


@pytest.mark.parametrize(
    ("question", "order", "word"),
    [
        ("which pump ran slowest yesterday?", "lowest", "slowest"),
        ("which of the freezers was warmest last week?", "highest", "warmest"),
        ("which chiller was the busiest on monday?", "highest", "busiest"),
        ("which AHU had the least busy fan yesterday?", "lowest", "least"),
        ("which meter was quietest yesterday?", "lowest", "quietest"),
    ],
)
def test_a_word_of_degree_sets_the_order_from_the_words(question, order, word):
    part = _part(question)
    assert part.order == order
    assert part.slots["order"].source == "words" and word in part.slots["order"].said


@pytest.mark.parametrize(
    ("question", "word"),
    [
        ("which compressor did best last week?", "best"),
        ("which of the pumps ran sweetest yesterday?", "sweetest"),
        ("which boiler was the sleepiest yesterday?", "sleepiest"),
        ("which pump at AUSWEST ran sweetest?", "sweetest"),  # the site's name in capitals is no superlative
        ("which chiller performed worst yesterday?", "worst"),
    ],
)
def test_a_word_of_degree_the_reading_does_not_know_leaves_the_order_open(question, word):
    part = _part(question)
    assert part.order is None  # never "highest" by default
    assert part.slots["order"].source == "open" and part.slots["order"].said.casefold() == word


def test_no_order_word_is_the_documented_rule_and_says_so():
    part = read_question("rank the pumps by energy for last week").parts[0]
    assert part.ask == "rank" and part.order == "highest"
    assert part.slots["order"].source == "rule" and "highest first" in part.slots["order"].said
    assert part.slots["statistic"].source == "words"


def test_the_statistic_left_to_the_order_says_its_rule():
    part = _part("which pump was slowest yesterday?")
    assert part.statistic == "min" and part.slots["statistic"].source == "rule"
    ran = _part("which pump ran slowest yesterday?")  # how it ran over the day: its mean (blind sets' readers)
    assert ran.statistic == "mean" and ran.slots["statistic"].source == "rule"


@pytest.mark.parametrize(
    ("question", "limit", "unit"),
    [
        ("was Tank 1 below 40 % yesterday?", 40.0, "%"),
        ("did Freezer 2 go above -18 °C last week?", -18.0, "°C"),
        ("was Chiller 6 above 300 yesterday?", 300.0, None),
    ],
)
def test_a_limit_keeps_its_unit(question, limit, unit):
    part = read_question(question).parts[0]
    assert part.limit == limit and part.limit_unit == unit


@settings(max_examples=150, deadline=None)
@given(st.text(alphabet=st.characters(codec="utf-8", exclude_categories=("Cs",)), max_size=120))
def test_every_slot_says_where_it_came_from(text):
    for part in read_question(text).parts:
        for slot in part.slots.values():
            assert slot.source in ("words", "rule", "catalog", "model", "open")
        assert set(part.open_slots()) <= set(part.slots)


# -- the Read-as line and the frame's checks, over a catalog with units and tags --


def _catalog() -> Catalog:
    def temp(name: str, unit: str, *tags: str) -> SensorName:
        return SensorName(name, name, unit, tags)

    sites = {
        "DC-1": {
            "Freezer 1": [
                temp("Air Temp", "°F", "air", "temp", "sensor"),
                temp("Air Temp SP", "°F", "air", "temp", "sp"),
            ],
            "Freezer 2": [
                temp("Air Temp", "°F", "air", "temp", "sensor"),
                temp("Air Temp SP", "°F", "air", "temp", "sp"),
            ],
            "Battery 1": [temp("Power", "kW", "elec", "power", "sensor"), temp("SOC", "%", "battery", "sensor")],
            "Pump 1": [temp("Power", "kW", "elec", "power", "sensor"), temp("Flow", "m³/h", "water", "flow", "sensor")],
        }
    }
    cat = Catalog.of({s: {a: [p.short for p in ps] for a, ps in assets.items()} for s, assets in sites.items()})
    for s, assets in sites.items():
        for a, ps in assets.items():
            cat.site(s).sensors[a] = ps
            cat.site(s).types[a] = [a.split()[0].casefold()]
    return cat


def _observe(g: Grounding, tool: str, args: dict, head: str, answers: bool = False) -> None:
    g.observe(1, 1, tool, head, head=head, answers=answers, args=args)


def test_read_as_says_what_the_ranking_computed_and_the_rule_it_took():
    g = Grounding.build("rank the freezers at DC-1 by their mean air temp yesterday", _catalog(), NOW)
    args = {
        "site_name": "DC-1",
        "sensor_name": "Air Temp",
        "by": "mean",
        "order": "highest",
        "start": "2024-05-05T00:00:00+00:00",
        "final": "2024-05-06T00:00:00+00:00",
        "asset_names": ["Freezer 1", "Freezer 2"],
    }
    _observe(
        g, "rank", args, "Freezer 2 had the highest mean Air Temp on Sun 5 May 2024: -3.1 °F (then Freezer 1 -6.0)"
    )
    said = read_as(g, 1)
    assert said.line.startswith("Read as: which of Freezer 1, Freezer 2 at DC-1 had the highest mean Air Temp on Sun")
    assert "highest first, the question names no order" in said.line and not said.open
    assert said.parts[0].tool == "rank" and said.parts[0].arguments["by"] == "mean"


def test_an_open_order_is_said_and_named_open():
    g = Grounding.build("which freezer at DC-1 was sweetest yesterday", _catalog(), NOW)
    assert open_slots(g) == ["order: 'sweetest'"]
    args = {
        "site_name": "DC-1",
        "sensor_name": "Air Temp",
        "by": "max",
        "order": "highest",
        "start": "2024-05-05T00:00:00+00:00",
        "final": "2024-05-06T00:00:00+00:00",
        "asset_type": "freezer",
    }
    _observe(g, "rank", args, "Freezer 2 had the highest maximum Air Temp on Sun 5 May 2024: -1 °F")
    said = read_as(g, 1)
    assert "'sweetest' does not say which end; the model chose" in said.line
    assert said.open == ["order: 'sweetest'"]


def test_a_setpoint_read_for_a_measured_value_is_held_back():
    g = Grounding.build("which freezer at DC-1 was coldest yesterday", _catalog(), NOW)
    args = {
        "site_name": "DC-1",
        "sensor_name": "Air Temp SP",
        "by": "min",
        "order": "lowest",
        "start": "2024-05-05T00:00:00+00:00",
        "final": "2024-05-06T00:00:00+00:00",
        "asset_names": ["Freezer 1", "Freezer 2"],
    }
    _observe(g, "rank", args, "Freezer 1 had the lowest minimum Air Temp SP on Sun 5 May 2024: -10 °F")
    assert "a setpoint" in wrong_series(g, 1)
    head = "Freezer 1 had the lowest minimum Air Temp SP on Sun 5 May 2024: -10 °F"
    assert "a setpoint" in g.unsupported(1, head, [])
    args["sensor_name"] = "Air Temp"
    g2 = Grounding.build("which freezer at DC-1 was coldest yesterday", _catalog(), NOW)
    _observe(g2, "rank", args, "Freezer 1 had the lowest minimum Air Temp on Sun 5 May 2024: -9 °F")
    assert wrong_series(g2, 1) == ""


def test_a_limit_in_percent_is_never_compared_with_a_power():
    g = Grounding.build("was Battery 1 at DC-1 below 20 % yesterday?", _catalog(), NOW)
    args = {
        "site_name": "DC-1",
        "asset_name": "Battery 1",
        "sensor_name": "Power",
        "direction": "below",
        "limit": 20,
        "start": "2024-05-05T00:00:00+00:00",
        "final": "2024-05-06T00:00:00+00:00",
        "report": "whether",
    }
    _observe(g, "excursions", args, "Yes: Battery 1 Power went below 20 on Sun 5 May 2024 (min -250 kW)")
    reason = wrong_series(g, 1)
    assert "20 %" in reason and "Power (kW)" in reason
    args["sensor_name"] = "SOC"
    g2 = Grounding.build("was Battery 1 at DC-1 below 20 % yesterday?", _catalog(), NOW)
    _observe(g2, "excursions", args, "No: Battery 1 SOC never went below 20 on Sun 5 May 2024 (min 31 %)")
    assert wrong_series(g2, 1) == ""
    assert "whether Battery 1 SOC at DC-1 went below 20" in read_as(g2, 1).line


def test_a_refusal_reads_as_its_kind():
    g = Grounding.build("switch off Freezer 1 at DC-1", _catalog(), NOW)
    assert read_as(g, None).line == "Read as: a request to operate equipment (this gateway only reads)."


def test_the_structured_reading_travels_in_the_result():
    from edge_agent.mqtt.protocol import ResultReply

    g = Grounding.build("which freezer at DC-1 was sweetest yesterday", _catalog(), NOW)
    reply = ResultReply(request_id="r1", status="partial", answer="x", reading=read_as(g, None))
    back = json.loads(reply.model_dump_json())
    assert back["reading"]["open"] == ["order: 'sweetest'"] and back["reading"]["line"].startswith("Read as:")


# -- absence claims only for words the field knows as a measure (issue 40 e) --


@pytest.mark.parametrize("word", ["pressure", "humidity", "level", "voltage", "torque", "co2", "amps", "vibration"])
def test_the_fields_measure_words_name_a_measure(word):
    from edge_agent.grounding.fieldvocab import names_a_measure

    assert names_a_measure(word)


@pytest.mark.parametrize("word", ["exceed", "nearly", "reading", "daily", "final", "vibe", ""])
def test_other_words_name_no_measure(word):
    from edge_agent.grounding.fieldvocab import names_a_measure

    assert not names_a_measure(word)


def test_a_word_that_is_no_measure_is_never_said_missing():
    cat = _catalog()
    g = Grounding.build("did Freezer 1 at DC-1 exceed yesterday", cat, NOW)
    assert not [m for m in g.links.missing if m.kind == "sensor"]
    g = Grounding.build("max pressure for Freezer 1 at DC-1 yesterday", cat, NOW)
    assert [m.text for m in g.links.missing if m.kind == "sensor"] == ["pressure"]


# -- a date range with the month said once (issue 40 f) --


@pytest.mark.parametrize(
    ("text", "start", "end"),
    [
        ("energy on 3-5 May", "2026-05-03", "2026-05-06"),
        ("peak over 3–5 may please", "2026-05-03", "2026-05-06"),
        ("May 3-5 energy", "2026-05-03", "2026-05-06"),
        ("the mean for May 3 to 5", "2026-05-03", "2026-05-06"),
        ("march 3rd through 7th 2025", "2025-03-03", "2025-03-08"),
        ("from the 3rd to the 5th of May", "2026-05-03", "2026-05-06"),
    ],
)
def test_days_of_one_month_said_once_are_the_whole_range(text, start, end):
    from edge_agent.grounding.dates import resolve_period

    got = resolve_period(text, datetime(2026, 5, 20, 9, 0, tzinfo=UTC))
    assert got is not None and got.iso() == (f"{start}T00:00:00", f"{end}T00:00:00")


@pytest.mark.parametrize("text", ["Chiller 6 to 9 March", "may 3 to 5 pm"])
def test_a_name_or_a_time_is_no_range(text):
    from edge_agent.grounding.dates import resolve_period

    got = resolve_period(text, datetime(2026, 5, 20, 9, 0, tzinfo=UTC))
    assert got is not None and (got.point or (got.end - got.start).days == 1)


# -- a ratio asked as one measure per another (issue 40 f) --


@pytest.mark.parametrize(
    "question",
    ["what was the kWh per m3 of Pump 2 yesterday", "kW per ton for Chiller 6 last week", "gallons per ton at Tower 1"],
)
def test_one_measure_per_another_is_a_ratio_of_two_series(question):
    part = read_question(question).parts[0]
    assert (part.ask, part.op, part.statistic) == ("derive", "ratio", "mean")
    assert part.slots["op"].source == "words" and part.slots["statistic"].source == "rule"


@pytest.mark.parametrize(
    "question",
    [
        "kWh per day for Chiller 6",
        "flow in gallons per minute at Pump 2",
        "show m3/h on pump 2",
        "raise kar 3 oxygen setpoint to 10 mg/l",  # a unit of its own
        "the kw/ton of chiller 1",  # an efficiency's unit: a point in it is the measure
    ],
)
def test_a_rate_per_unit_of_time_is_no_ratio(question):
    assert read_question(question).parts[0].ask != "derive"


def test_no_catalog_no_line():
    g = Grounding.build("which freezer was coldest yesterday", None, NOW)
    assert read_as(g, None).line == ""


# -- the status: an open slot is never delivered as answered --


def _ranked(question: str, order: str):
    from edge_agent.agent.trajectory import Trial

    g = Grounding.build(question, _catalog(), NOW)
    args = {
        "site_name": "DC-1",
        "sensor_name": "Air Temp",
        "by": "max",
        "order": order,
        "start": "2024-05-05T00:00:00+00:00",
        "final": "2024-05-06T00:00:00+00:00",
        "asset_type": "freezer",
    }
    head = f"Freezer 2 had the {order} maximum Air Temp on Sun 5 May 2024: -1 °F (then Freezer 1 -3)"
    g.observe(1, 1, "rank", f"{head}; saved to r.json", head=head, args=args)
    trial = Trial(number=1, answer=head, outcome="finished")
    trial.claims = g.check(head)
    return g, trial


def test_an_open_order_ends_partial_with_the_choice_said():
    from types import SimpleNamespace

    from edge_agent.agent.xen import conclude

    g, trial = _ranked("which freezer at DC-1 was sweetest yesterday", "highest")
    out = conclude([trial], None, SimpleNamespace(cancelled=False, grounding=g))
    assert out.status == "partial" and "order: 'sweetest'" in out.detail
    g2, trial2 = _ranked("which freezer at DC-1 was warmest yesterday", "highest")
    assert conclude([trial2], None, SimpleNamespace(cancelled=False, grounding=g2)).status == "answered"


def test_the_fix_names_the_call_the_frame_misses():
    from edge_agent.grounding.readas import fix_for

    g = Grounding.build("what was the kW per m3 of Pump 1 at DC-1 yesterday", _catalog(), NOW)
    g.observe(1, 1, "histories", "Pump 1 Power: mean 5 kW", head="Pump 1 Power: mean 5 kW", answers=True)
    assert fix_for(g, 1) == 'call derive with op ratio for "what was the kW per m3 of Pump 1 at DC-1 yesterday"'
    g, _ = _ranked("which freezer at DC-1 was coldest yesterday", "lowest")
    assert fix_for(g, 1) == ""


# -- a question in another language (issue 40 f) --


def test_unplaced_words_in_another_language_name_it():
    from edge_agent.grounding.language import foreign_language

    assert foreign_language(["cual", "fue", "la", "temperatura", "maxima", "del", "ayer"]) == "Spanish"
    assert foreign_language(["wie", "hoch", "war", "die", "im", "gestern"]) == "German"
    assert foreign_language(["sorta", "kinda", "maybe"]) is None  # English words nothing placed
    assert foreign_language(["hier", "du"]) is None  # too few words to tell


def test_a_question_in_another_language_gives_up_saying_which_without_a_model_call(tmp_path):
    from edge_agent.agent.xen import solve
    from tests.xen_helpers import RoleScript, harness

    h = harness(tmp_path, RoleScript(), strategy="reactxen")  # nothing scripted: any model call fails the test
    h.rt.catalog = _catalog
    out = solve("cual fue la temperatura maxima del Freezer 1 ayer", h.rt)
    assert h.roles() == [] and out.status == "gave_up" and out.reason == "language"
    assert out.detail.startswith("The question reads as Spanish; this gateway reads questions in English.")


def test_a_value_in_a_gap_is_never_answered():
    from types import SimpleNamespace

    from edge_agent.agent.trajectory import Trial
    from edge_agent.agent.xen import conclude

    g = Grounding.build("what was the Air Temp of Freezer 1 at DC-1 at 3am yesterday", _catalog(), NOW)
    head = (
        "no value of Air Temp of Freezer 1 was recorded at 03:00 on 5 May 2024, a gap in the history (the last value "
        "before it, -5 °F, was recorded at 00:45 on 5 May 2024); saved to h.json"
    )
    g.observe(
        1, 1, "histories", head, head=head, answers=True, args={"site_name": "DC-1", "asset_names": ["Freezer 1"]}
    )
    assert open_slots(g, 1) == ["value: a gap in the history at the instant asked"]
    trial = Trial(number=1, answer=g.answer_prefix(1), outcome="finished")
    trial.claims = g.check(trial.answer)
    out = conclude([trial], None, SimpleNamespace(cancelled=False, grounding=g))
    assert out.status == "partial" and "a gap in the history" in out.detail


@pytest.mark.parametrize(("reply", "order"), [("lowest", "lowest"), ("the HIGHEST one", "highest"), ("no idea", None)])
def test_an_open_order_asked_back_is_settled_by_the_reply(reply, order):
    from edge_agent.grounding.readas import ask_back

    g = Grounding.build("which freezer at DC-1 was sweetest yesterday", _catalog(), NOW)
    asked: list[str] = []
    ask_back(g, lambda q: asked.append(q) or reply)
    assert asked == [
        "In \"which freezer at DC-1 was sweetest yesterday\", does 'sweetest' mean the highest or the lowest value? "
        "Reply highest or lowest."
    ]
    part = g.reading.parts[0]
    assert part.order == order
    assert (open_slots(g) == []) == (order is not None)
    if order:
        assert part.slots["order"].source == "requester"
        assert g.scope().pins["order"] == order  # the ranking's order is pinned from the reply


@pytest.mark.parametrize(
    ("question", "written"),
    [
        ("how long was Freezer 1 at DC-1 above 0 F yday", {"yday": "yesterday"}),
        ("dl Freezer 1 air temp at DC-1 yday", {"dl": "download", "yday": "yesterday"}),
        ("Freezer 2 air temp at DC-1 rn", {"rn": "right now"}),
    ],
)
def test_short_forms_of_general_words_are_read_written_out_and_said(question, written):
    g = Grounding.build(question, _catalog(), NOW)
    assert g.unplaced == [] and g.respelt == written and g.start is not None
    for a, b in written.items():
        assert f'"{a}" as "{b}"' in read_as(g, None, answered=False).line


def test_a_series_the_model_chose_where_no_measure_was_named_is_not_settled():
    g = Grounding.build("what was Pump 1 at DC-1 doing at 3am yesterday", _catalog(), NOW)
    head = "Pump 1 Flow was 12 m³/h at 03:00 on 5 May 2024; saved to h.json"
    g.observe(
        1,
        1,
        "histories",
        head,
        head=head,
        answers=True,
        args={"site_name": "DC-1", "asset_names": ["Pump 1"], "sensor_name": "Flow", "start": "2024-05-05T03:00:00"},
    )
    assert open_slots(g, 1) == ["measure: Flow, chosen by the model: the question names no measure"]
    named = Grounding.build("what was the Flow of Pump 1 at DC-1 at 3am yesterday", _catalog(), NOW)
    named.observe(1, 1, "histories", head, head=head, answers=True, args={"site_name": "DC-1", "sensor_name": "Flow"})
    assert open_slots(named, 1) == []


# -- classes blind set 11 showed (run once at ce20048; fixed after, as classes) --


def _yard() -> Catalog:
    cat = Catalog.of(
        {
            "Yard": {
                "BESS 1": ["State of Charge", "Active Power", "Cell Temp"],
                "NH3 Comp 1": ["kW"],
                "NH3 Comp 2": ["kW"],
                "Hot Water Tank": ["Water Temp", "Level"],
                "Washer 1": ["Motor Power"],
                "Washer 2": ["Motor Power"],
            }
        }
    )
    kinds = {"BESS 1": "battery", "Hot Water Tank": "tank", "Washer 1": "washer", "Washer 2": "washer"}
    for a in cat.assets("Yard"):
        cat.site("Yard").types[a] = [kinds.get(a, "compressor")]
    return cat


def test_a_point_named_by_its_initials_in_lower_case():
    g = Grounding.build("bess soc at 7pm", _yard(), NOW)
    assert g.links.sensors == ["State of Charge"] and not g.unplaced
    assert Grounding.build("do the washers run at 7pm", _yard(), NOW).links.sensors == []  # "do" is no initials


def test_who_makes_asks_the_manufacturer():
    g = Grounding.build("who makes NH3 Comp 2", _yard(), NOW)
    assert g.reading.parts[0].ask == "attribute" and "manufacturer" in g.in_code


def test_comp_is_a_compressor_and_hw_is_hot_water():
    g = Grounding.build("which nh3 comp ran hardest yday (avg kw)", _yard(), NOW)
    assert g.links.asset_types == ["compressor"] and not g.links.missing and g.reading.parts[0].ask == "rank"
    assert Grounding.build("lowest hw tank temp yday", _yard(), NOW).links.assets == ["Hot Water Tank"]


@pytest.mark.parametrize(
    ("question", "ask"),
    [
        ("quietest washer yday by kwh", "rank"),  # a superlative first, a kind of several: a ranking
        ("lowest battery state of charge yesterday", "data"),  # the site's one battery: its minimum
    ],
)
def test_a_superlative_first_ranks_only_a_kind_of_several(question, ask):
    assert Grounding.build(question, _yard(), NOW).reading.parts[0].ask == ask


# -- classes blind set 12 showed (run once at ce20048; fixed after, as classes) --


@pytest.mark.parametrize(
    ("question", "direction", "limit"),
    [
        ("What proportion of Tuesday did Heat Pump 1 deliver more than 3,000 kW of heat?", "above", 3000.0),
        ("Did the inlet pressure of Scrubber SC-2 rise above −300 Pa at any time yesterday?", "above", -300.0),
    ],
)
def test_a_limit_written_with_thousands_or_a_minus_sign(question, direction, limit):
    part = read_question(question).parts[0]
    assert (part.direction, part.limit) == (direction, limit)


@pytest.mark.parametrize(
    "question",
    [
        "Was the Medical Air Compressor more lightly loaded on Saturday or on Sunday?",
        "Which of the compressors was most lightly loaded on Thursday, on average?",
    ],
)
def test_more_lightly_is_the_lower(question):
    assert read_question(question).parts[0].order == "lowest"


def test_a_limit_in_a_unit_the_field_lacks_selects_the_point_written_in_it():
    cat = Catalog.of({"Fab": {"UPW Skid A": ["Resistivity", "Product Temp"]}})
    cat.site("Fab").sensors["UPW Skid A"] = [
        SensorName("Resistivity", "Resistivity", "MΩ·cm", ("sensor",)),
        SensorName("Product Temp", "Product Temp", "°C", ("temp", "sensor")),
    ]
    g = Grounding.build("For how long yesterday was UPW Skid A at Fab below 18.0 MΩ·cm?", cat, NOW)
    args = {"site_name": "Fab", "asset_name": "UPW Skid A", "sensor_name": "Product Temp", "direction": "below"}
    head = "Product Temp of UPW Skid A was never below 18.0 °C: 0 h"
    g.observe(1, 1, "excursions", head, head=head, args={**args, "limit": 18.0, "report": "how_long"})
    assert "in the unit of Resistivity" in wrong_series(g, 1)


def test_a_capitalised_word_inside_a_sentence_is_said_missing_as_a_name():
    g = Grounding.build("what was the Volumenstrom of Pump 1 at DC-1 yesterday", _catalog(), NOW)
    assert [m.text for m in g.links.missing if m.kind == "sensor"] == ["Volumenstrom"]
    g = Grounding.build("what was the volumenstrom of Pump 1 at DC-1 yesterday", _catalog(), NOW)
    assert not [m for m in g.links.missing if m.kind == "sensor"]  # a plain word the field does not know: unplaced


@pytest.mark.parametrize(("limit", "unit"), [("44 F", "°F"), ("40 %", "%RH"), ("5 C", "°C")])
def test_a_limit_written_as_the_series_own_unit_selects_it(limit, unit):
    cat = Catalog.of({"S": {"CH-2": ["Temp"]}})
    cat.site("S").sensors["CH-2"] = [SensorName("Temp", "Temp", unit, ("sensor",))]
    g = Grounding.build(f"how long was CH-2 at S above {limit} yesterday", cat, NOW)
    args = {"site_name": "S", "asset_name": "CH-2", "sensor_name": "Temp", "direction": "above", "limit": 1.0}
    g.observe(1, 1, "excursions", "CH-2 Temp was above for 1 h", head="CH-2 Temp was above for 1 h", args=args)
    assert wrong_series(g, 1) == ""


# -- classes blind sets 11 and 12 still showed at 3164fce (fixed as classes, session 21) --


@pytest.mark.parametrize(
    "question",
    [
        "how many deg was freezer 1 above its sp on avg yday",
        "On average, how far below its setpoint was the supply temp of Chiller 2 yesterday?",
        "by how much was AHU 1's supply air above its set point last week, on average?",
    ],
)
def test_the_amount_between_a_series_and_its_setpoint_is_a_difference(question):
    part = read_question(question).parts[0]
    assert (part.ask, part.op, part.form) == ("derive", "difference", "value")


@pytest.mark.parametrize(
    ("question", "ask"),
    [
        ("how many times did freezer 2 go above its setpoint yesterday", "excursion"),
        ("was freezer 2 above its sp yesterday", "excursion"),
        ("how many hours was freezer 2 above its setpoint yesterday", "duration"),
        ("by how much did chiller 1 exceed 50 kW yesterday", "excursion"),  # a number: its "worst by" says how far
    ],
)
def test_a_crossing_counted_or_timed_is_no_difference(question, ask):
    assert read_question(question).parts[0].ask == ask


@pytest.mark.parametrize(
    "question",
    [
        "Would you prepare a single file with yesterday's supply air temperature for the AHUs?",
        "Could you please generate a file of last week's chiller power?",
        "Can you compare the two boilers' gas flow yesterday?",
    ],
)
def test_a_polite_request_asks_for_the_thing_not_yes_or_no(question):
    assert all(p.form != "yes_no" for p in read_question(question).parts)


def test_ran_hardest_is_the_highest():
    assert _part("which nh3 comp ran hardest yday (avg kw)").order == "highest"


def test_short_weekdays_are_read_as_the_days():
    cat = Catalog.of({"Laundry": {"Steam Boiler": ["Steam Flow"]}})
    g = Grounding.build("steam flow mon vs tue at Laundry, which was higher avg", cat, NOW)
    assert g.respelt == {"mon": "monday", "tue": "tuesday"}
    assert g.reading.parts[0].ask == "periods" and g.other is not None


def _chillers() -> Catalog:
    cat = Catalog.of({"Fab": {f"Loop {i}": ["Supply Temp", "Return Temp", "Flow"] for i in (1, 2, 3)}})
    for a in cat.assets("Fab"):
        cat.site("Fab").types[a] = ["pcwLoop"]
        cat.site("Fab").sensors[a] = [
            SensorName("Supply Temp", "Supply Temp", "°C", ("temp", "sensor", "supply")),
            SensorName("Return Temp", "Return Temp", "°C", ("temp", "sensor", "return")),
            SensorName("Flow", "Flow", "L/s", ("flow", "sensor")),
        ]
    return cat


def _loops_ranked(g: Grounding, sensor: str) -> None:
    head = f"Loop 2 had the lowest mean {sensor} last week: 16 °C"
    args = {"site_name": "Fab", "sensor_name": sensor, "by": "mean", "order": "lowest", "asset_type": "pcwLoop"}
    g.observe(1, 1, "rank", head, head=head, answers=True, args=args)


def test_a_verb_of_the_question_names_one_of_the_series_its_measure_fits():
    q = "Which of the loops at Fab returned the coolest water last week, on average?"
    g = Grounding.build(q, _chillers(), NOW)
    assert g.scope().sites["Fab"].sensors == ("Return Temp",)  # the calls are offered the series the words name
    _loops_ranked(g, "Return Temp")
    assert open_slots(g, 1) == [] and "lowest mean Return Temp" in read_as(g, 1).line


def test_a_measure_word_that_fits_several_series_leaves_the_pick_open():
    g = Grounding.build("Which of the loops at Fab had the coolest water last week, on average?", _chillers(), NOW)
    assert set(g.scope().sites["Fab"].sensors) == {"Supply Temp", "Return Temp"}
    _loops_ranked(g, "Supply Temp")
    assert open_slots(g, 1) == ["measure: Supply Temp, chosen by the model among the temperature series"]


def test_the_limits_unit_selects_the_series_offered():
    cat = Catalog.of({"V": {"Accumulator Tank": ["Top Temp", "Level"]}})
    cat.site("V").sensors["Accumulator Tank"] = [
        SensorName("Top Temp", "Top Temp", "°C", ("temp", "sensor")),
        SensorName("Level", "Level", "%", ("level", "sensor")),
    ]
    g = Grounding.build("Did the Accumulator Tank at V fall below 30 % at any point last week?", cat, NOW)
    assert g.scope().sites["V"].sensors == ("Level",)
    g = Grounding.build("Was the Accumulator Tank at V above 90 °C at any point last week?", cat, NOW)
    assert g.scope().sites["V"].sensors == ("Top Temp",)


def test_two_series_of_two_assets_are_each_offered_their_own_assets_sensors():
    cat = Catalog.of({"M": {"INV-02": ["AC Power", "DC Power"], "PV Block 2": ["DC Power"]}})
    g = Grounding.build("ratio of inv-02 ac output to pv block 2 dc at M yesterday", cat, NOW)
    own = dict(g.scope().sites["M"].own)
    assert own["PV Block 2"] == ("DC Power",) and "AC Power" in own["INV-02"]


def test_a_series_a_review_found_wrong_is_not_offered_again():
    cat = Catalog.of({"V": {"Accumulator Tank": ["Top Temp", "Level"]}})
    g = Grounding.build("what was the Accumulator Tank at V doing yesterday", cat, NOW)
    assert set(g.scope().sites["V"].sensors) == {"Top Temp", "Level"}
    g.avoid(["Top Temp"])
    assert g.scope().sites["V"].sensors == ("Level",)
    g.avoid(["Level"])  # never none at all: where every series was found wrong, the model chooses among them again
    assert set(g.scope().sites["V"].sensors) == {"Top Temp", "Level"}


def test_the_amount_above_its_setpoint_is_offered_the_measured_series_then_its_setpoint():
    cat = Catalog.of({"J": {"Freezer 1": ["Air Temp", "Air Temp SP", "Door Open"]}})
    g = Grounding.build("how many deg was freezer 1 at J above its sp on avg yday", cat, NOW)
    schema = g.scope().constrain(ToolRegistry([derive]).get("derive").schema())
    branch = schema["anyOf"][0] if "anyOf" in schema else schema
    assert branch["properties"]["sensor_name"] == {"enum": ["Air Temp"]}
    assert branch["properties"]["other_sensor"] == {"enum": ["Air Temp SP"]}


def _chiller_plant() -> Catalog:
    cat = Catalog.of({"L": {f"Chiller {i}": ["Power Input", "Cooling Load", "Efficiency"] for i in (1, 2, 3)}})
    for a in cat.assets("L"):
        cat.site("L").types[a] = ["chiller"]
        cat.site("L").sensors[a] = [
            SensorName("Power Input", "Power Input", "kW", ("elec", "power", "sensor")),
            SensorName("Cooling Load", "Cooling Load", "tonref", ("cool", "power", "sensor")),
            SensorName("Efficiency", "Efficiency", "kW/ton", ("efficiency", "sensor")),
        ]
    return cat


@pytest.mark.parametrize(
    ("question", "order"),
    [
        ("Which of the chillers at L ran least efficiently yesterday, judged by its average kW per ton?", "highest"),
        ("which chiller at L ran most efficiently yesterday (kW/TR)?", "lowest"),
        ("which chiller at L was the best performing yesterday by kW/ton?", "lowest"),
        ("which chiller at L had the highest kW/ton yesterday", "highest"),  # the unit's own end: as said
    ],
)
def test_a_point_named_by_its_unit_and_the_efficient_end_of_an_input_per_output(question, order):
    g = Grounding.build(question, _chiller_plant(), NOW)
    part = g.reading.parts[0]
    assert g.links.sensors == ["Efficiency"] and g.scope().sites["L"].sensors == ("Efficiency",)
    assert part.order == order and not part.open_slots()


def test_a_plain_measure_word_keeps_its_series():
    g = Grounding.build("which chiller at L used the most power yesterday", _chiller_plant(), NOW)
    assert g.links.sensors == [] and g.reading.parts[0].order == "highest"


def _bess() -> Catalog:
    cat = Catalog.of({"M": {"BESS 1": []}, "L": {"Water Meter": []}})
    cat.site("M").types["BESS 1"] = ["battery"]
    cat.site("M").sensors["BESS 1"] = [
        SensorName("Active Power", "Active Power", "kW", ("elec", "power", "sensor")),
        SensorName("Discharge Power", "Discharge Power", "kW", ("elec", "power", "sensor")),
        SensorName("Charge Power", "Charge Power", "kW", ("elec", "power", "sensor")),
        SensorName("Discharge Energy", "Discharge Energy", "kWh", ("elec", "energy", "sensor")),
        SensorName("Cell Temp", "Cell Temp", "°C", ("temp", "sensor")),
    ]
    cat.site("L").types["Water Meter"] = ["waterMeter", "meter"]
    cat.site("L").sensors["Water Meter"] = [
        SensorName("Flow", "Flow", "m³/h", ("water", "flow", "sensor")),
        SensorName("Volume", "Volume", "m³", ("water", "volume", "sensor")),
    ]
    return cat


def test_a_rate_of_discharge_is_the_discharge_power_and_said_so():
    g = Grounding.build("max discharge rate on the bess 1 at M yday", _bess(), NOW)
    assert g.scope().sites["M"].sensors == ("Discharge Power",)
    head = "The highest BESS 1 Discharge Power on 5 May 2024 was 4378.5 kW"
    args = {"site_name": "M", "asset_names": ["BESS 1"], "sensor_name": "Discharge Power"}
    g.observe(1, 1, "histories", head, head=head, answers=True, args=args)
    assert open_slots(g, 1) == []


def test_a_meters_reading_is_its_running_total():
    g = Grounding.build("water meter reading at L at 6pm yday", _bess(), NOW)
    assert g.scope().sites["L"].sensors == ("Volume",)
    g = Grounding.build("what was the water meter at L doing at 6pm yday", _bess(), NOW)
    assert set(g.scope().sites["L"].sensors) == {"Flow", "Volume"}  # no reading asked: the model's pick, said open


def test_the_series_a_setpoint_is_of_is_settled_by_the_setpoint():
    cat = Catalog.of({"J": {"Freezer 1": ["Air Temp", "Air Temp SP", "Door Open"]}})
    g = Grounding.build("how many deg was freezer 1 at J above its sp on avg yday", cat, NOW)
    head = "Difference Air Temp − Air Temp SP of Freezer 1: mean 9.8 °F"
    args = {"site_name": "J", "asset_name": "Freezer 1", "sensor_name": "Air Temp", "other_asset": "Freezer 1"}
    g.observe(1, 1, "derive", head, head=head, answers=True, args={**args, "other_sensor": "Air Temp SP"})
    assert open_slots(g, 1) == []


def _fab() -> Catalog:
    cat = Catalog.of({"Fab": {name: ["Power"] for name in ("CDA Compressor 1", "CDA Compressor 2", "N2 Compressor")}})
    for a in cat.assets("Fab"):
        cat.site("Fab").types[a] = ["compressor"]
    return cat


def test_words_a_name_abbreviates_by_their_initials_are_read_as_it_and_narrow_the_kind():
    g = Grounding.build("Which clean dry air compressors are installed at Fab?", _fab(), NOW)
    assert g.respelt == {"clean dry air": "CDA"}
    assert g.in_code == "Found 2 compressors at Fab: CDA Compressor 1, CDA Compressor 2"
    assert '"clean dry air" as "CDA"' in read_as(g, None, answered=False).line or g.in_code


@pytest.mark.parametrize("question", ["Can dogs ask anything at Fab?", "Which air compressors are at Fab?"])
def test_function_words_and_the_fields_kinds_are_never_read_as_initials(question):
    assert Grounding.build(question, _fab(), NOW).respelt == {}


def _substations() -> Catalog:
    """Two traction substations whose braking trains return power: a signed net series, a series of the returned
    power alone (tagged `export`) and import / export registers; a grid connection with only a signed net series
    beside its registers."""

    def point(name: str, unit: str, *tags: str) -> SensorName:
        return SensorName(name, name, unit, tags)

    cat = Catalog.of({"D": {"TSS-1": [], "TSS-2": [], "Grid Connection": [], "Fan 1": []}})
    for a in ("TSS-1", "TSS-2"):
        cat.site("D").types[a] = ["substation"]
        cat.site("D").sensors[a] = [
            point("Active Power", "kW", "elec", "power", "sensor"),
            point("Regen Power", "kW", "elec", "power", "export", "sensor"),
            point("Import Energy", "kWh", "elec", "energy", "import", "sensor"),
            point("Export Energy", "kWh", "elec", "energy", "export", "sensor"),
        ]
    cat.site("D").types["Grid Connection"] = ["elecMeter"]
    cat.site("D").sensors["Grid Connection"] = [
        point("Net Power", "kW", "elec", "power", "sensor"),
        point("Import Energy", "kWh", "elec", "energy", "import", "sensor"),
        point("Export Energy", "kWh", "elec", "energy", "export", "sensor"),
    ]
    cat.site("D").types["Fan 1"] = ["fan"]
    cat.site("D").sensors["Fan 1"] = [point("Motor Power", "kW", "elec", "power", "sensor")]
    return cat


@pytest.mark.parametrize(
    "question",
    [
        "how much energy did TSS-2 at D give back to the grid yesterday by regenerative braking?",
        "how much energy did TSS-2 at D export yesterday",
    ],
)
def test_a_direction_of_a_two_way_flow_offers_the_series_tagged_with_it(question):
    g = Grounding.build(question, _substations(), NOW)
    site = g.scope().sites["D"]
    assert site.directed == "export" and "Import Energy" not in site.sensors and "Active Power" not in site.sensors
    assert g.unplaced == []
    head = "TSS-2 Export Energy rose 6037 kWh on Sun 5 May 2024"
    args = {"site_name": "D", "asset_names": ["TSS-2"], "sensor_name": site.sensors[0]}
    g.observe(1, 1, "histories", head, head=head, answers=True, args=args)
    line = read_as(g, 1).line
    assert open_slots(g, 1) == [] and ("export direction" in line or g.links.sensors == ["Export Energy"])


def test_which_of_a_code_asks_for_the_assets_it_begins_and_the_direction_ranks_by_its_series():
    g = Grounding.build("Last week, which TSS returned more energy to the grid at D?", _substations(), NOW)
    assert g.links.assets == ["TSS-1", "TSS-2"] and g.reading.parts[0].ask == "rank"
    assert set(g.scope().sites["D"].sensors) <= {"Regen Power", "Export Energy"}


def test_a_direction_asked_of_a_signed_series_alone_is_left_open():
    g = Grounding.build("for how many hours was the grid connection at D exporting yesterday?", _substations(), NOW)
    site = g.scope().sites["D"]
    assert site.unsigned == "export" and site.sensors == ("Net Power",)
    head = "Grid Connection Net Power was above 0 for 5.5 h on Sun 5 May 2024"
    args = {"site_name": "D", "asset_name": "Grid Connection", "sensor_name": "Net Power"}
    g.observe(1, 1, "excursions", head, head=head, answers=True, args=args)
    assert open_slots(g, 1) and "does not record which sign is export" in open_slots(g, 1)[0]


def test_a_direction_word_on_a_one_way_thing_changes_nothing():
    g = Grounding.build("what was the motor power of Fan 1 at D when it was discharging yesterday", _substations(), NOW)
    site = g.scope().sites["D"]
    assert site.directed == "" and site.unsigned == ""


def test_the_list_of_a_kind_spelled_out_beside_its_code_is_a_listing():
    cat = Catalog.of({"D": {"TVF-01": ["Speed"], "TVF-02": ["Speed"], "Train Wash": ["Flow"]}})
    cat.site("D").types.update({"TVF-01": ["fan"], "TVF-02": ["fan"], "Train Wash": ["trainWash"]})
    g = Grounding.build("Pls give me the list of the tunnel ventilation fans (TVF) at D", cat, NOW)
    assert g.reading.parts[0].ask == "names" and g.unplaced == []
    g = Grounding.build("Pls give me the list of the fan power figures at D yesterday", cat, NOW)
    assert g.reading.parts[0].ask == "data"  # a measure of them: their figures


def test_a_series_and_its_setpoint_asked_for_a_file_are_both_read():
    cat = Catalog.of({"O": {"Scalder 1": [], "Scalder 2": []}})
    for a in ("Scalder 1", "Scalder 2"):
        cat.site("O").sensors[a] = [
            SensorName("Water Temp", "Water Temp", "°F", ("water", "temp", "sensor")),
            SensorName("Water Temp Setpoint", "Water Temp Setpoint", "°F", ("water", "temp", "sp")),
            SensorName("Steam Flow", "Steam Flow", "lb/h", ("steam", "flow", "sensor")),
        ]
    g = Grounding.build("a file with the water temp and the SP of scalder 1 and scalder 2 at O, yesterday", cat, NOW)
    assert g.links.sensors == ["Water Temp", "Water Temp Setpoint"]
    g = Grounding.build("was scalder 1 at O water temp above its SP yesterday", cat, NOW)
    assert "Water Temp Setpoint" not in g.links.sensors  # an excursion compares with its setpoint: not a series asked


def test_an_event_said_with_a_measures_word_is_no_measure():
    g = Grounding.build("how warm did Freezer 1 at DC-1 get during yesterday's power cut?", _catalog(), NOW)
    assert g.links.sensors == [] and "power" not in g.links.measures and g.unplaced == []


def test_an_operating_request_joined_after_another_is_refused_with_it():
    g = Grounding.build("Pump 1 at DC-1 just tripped, can you reset it and get it running again?", _catalog(), NOW)
    assert g.refusal == "control"


def test_the_time_a_flow_of_one_direction_ran_is_the_time_above_0_and_said():
    g = Grounding.build("for how many hours was TSS-1 at D regenerating yesterday?", _substations(), NOW)
    part = g.reading.parts[0]
    assert (part.ask, part.direction, part.limit) == ("duration", "above", 0.0)
    assert part.slots["limit"].source == "rule" and g.scope().sites["D"].sensors == ("Regen Power",)


def test_a_greeting_in_another_language_and_pls_open_a_listing():
    cat = Catalog.of({"K": {"RO Train 1": ["Feed Flow"], "RO Train 2": ["Feed Flow"]}})
    cat.site("K").types.update({"RO Train 1": ["roTrain"], "RO Train 2": ["roTrain"]})
    g = Grounding.build("Hola, pls list me the RO trains we have in K", cat, NOW)
    assert g.unplaced == [] and g.reading.parts[0].ask == "names"


@pytest.mark.parametrize(
    "question, single",
    [
        ("Pls a file with the water temp and the SP of scalder 1 and scalder 2", True),
        ("can you send me a file with chiller 1 and 2 power", True),
        ("a file for each chiller please", False),
    ],
)
def test_a_file_with_several_series_is_one_file(question, single):
    from edge_agent.grounding.question import wants_single_file

    assert wants_single_file(question) is single


def test_a_word_that_names_one_series_settles_it_without_a_measure_word_but_never_a_setpoint_or_a_site_word():
    cat = Catalog.of({"Valby Heating": {"TR-1": [], "TR-2": []}})
    for a in ("TR-1", "TR-2"):
        cat.site("Valby Heating").types[a] = ["transformer"]
        cat.site("Valby Heating").sensors[a] = [
            SensorName("Load", "Load", "%", ("load", "sensor")),
            SensorName("Oil Temp", "Oil Temp", "°C", ("temp", "sensor")),
            SensorName("Heat Loss", "Heat Loss", "kW", ("power", "sensor")),
            SensorName("Oil Temp SP", "Oil Temp SP", "°C", ("temp", "sp")),
        ]
    site = "Valby Heating"
    g = Grounding.build(f"which transformer at {site} was the least loaded last week", cat, NOW)
    assert g.scope().sites[site].sensors == ("Load",)
    g = Grounding.build(f"did TR-1 at {site} go over its sp at all last week", cat, NOW)
    assert "Oil Temp SP" not in g.scope().sites[site].worded
    g = Grounding.build(f"which transformer at {site} ran least efficiently last week", cat, NOW)
    assert g.scope().sites[site].worded == ()  # "Heating" is the site's word, not Heat Loss's


def test_a_ratio_of_one_assets_two_series_said_by_a_word_each_takes_the_pair_in_one_unit():
    cat = Catalog.of({"K": {"RO Train 2": []}})
    cat.site("K").sensors["RO Train 2"] = [
        SensorName("Feed Pressure", "Feed Pressure", "bar", ("pressure", "sensor")),
        SensorName("Feed Flow", "Feed Flow", "m³/h", ("flow", "sensor")),
        SensorName("Permeate Flow", "Permeate Flow", "m³/h", ("flow", "sensor")),
        SensorName("Permeate Conductivity", "Permeate Conductivity", "µS/cm", ("sensor",)),
    ]
    g = Grounding.build("recovery ratio of RO Train 2 at K yesterday? permeate over feed, as a fraction", cat, NOW)
    assert g.links.sensors == ["Permeate Flow", "Feed Flow"]  # in the question's order: numerator first


def test_a_signed_series_the_words_name_is_still_open_for_a_direction():
    g = Grounding.build(
        "how many hours was the grid connection at D exporting net power yesterday?", _substations(), NOW
    )
    head = "Grid Connection Net Power was above 0 for 5.5 h on Sun 5 May 2024"
    args = {"site_name": "D", "asset_name": "Grid Connection", "sensor_name": "Net Power"}
    g.observe(1, 1, "excursions", head, head=head, answers=True, args=args)
    assert any("does not record which sign is export" in s for s in open_slots(g, 1))
