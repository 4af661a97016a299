"""What a log or a radio call shortens (issue 40, a shift supervisor's handover voice): a name by its first letters and
number ("U1"), a name's words cut short ("upper res", "thrust brg temp"), a log's heading before the ask ("Turnover
sheet:"), a limit with a rate's unit glued on ("4.5mm/s"), and a series a loose word linked that the limit's unit
does not fit. Each on a small catalog of its own."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from edge_agent.grounding.abbrev import cut_words, kind_numbers, numbered_ranges, short_codes, slashed_siblings
from edge_agent.grounding.catalog import Catalog, SensorName
from edge_agent.grounding.context import label_lead
from edge_agent.grounding.dates import resolve_period
from edge_agent.grounding.question import read_part, read_question
from edge_agent.grounding.run import Grounding

NOW = datetime(2026, 4, 9, 10, 0, tzinfo=UTC)
ASSETS = ["Unit 1", "Unit 2", "Upper Reservoir", "Lower Reservoir", "Pasteuriser 2", "Pump 2", "QT02 Panel"]
NAMES = [*ASSETS, "Thrust Bearing Temp", "Guide Vane Opening", "Vibration", "Steam Pressure", "QT02"]


def _p(name: str, unit: str, *tags: str) -> SensorName:
    return SensorName(name, name, unit, tags)


def _station() -> Catalog:
    cat = Catalog.of({"Station": {"Unit 1": [], "Unit 2": [], "Upper Reservoir": [], "Lower Reservoir": []}})
    st = cat.site("Station")
    for a in ("Unit 1", "Unit 2"):
        st.types[a] = ["turbine"]
        st.sensors[a] = [
            _p("Thrust Bearing Temp", "°C", "temp", "sensor"),
            _p("Guide Vane Opening", "%", "sensor"),
            _p("Vibration", "mm/s", "sensor"),
        ]
    for a in ("Upper Reservoir", "Lower Reservoir"):
        st.types[a] = ["tank"]
        st.sensors[a] = [_p("Level", "m", "level", "sensor")]
    return cat


@pytest.mark.parametrize(
    ("said", "name"),
    [("U1 tripped", "Unit 1"), ("what was U-2 doing", "Unit 2"), ("PS2 status", None), ("QT02 reading", None)],
)
def test_a_name_said_by_its_initials_and_number(said, name):
    found = short_codes(said, ASSETS, NAMES)
    assert list(found.values()) == ([name] if name else [])


def test_a_code_two_names_fit_is_left_as_written():
    assert short_codes("P2 on ESL", ASSETS, NAMES) == {}  # Pasteuriser 2 and Pump 2


def test_words_cut_short_as_engineers_write_them():
    assert cut_words("avg of upper res level", ASSETS, NAMES)["upper res"] == "Upper Reservoir"
    assert cut_words("U2 thrust brg temp", ASSETS, NAMES) == {"thrust brg temp": "Thrust Bearing Temp"}
    assert cut_words("kg steam per litre", ASSETS, NAMES) == {}  # "per" is a word of English, never a cut one


def test_a_logs_heading_is_set_aside_unless_it_names_what_is_asked():
    keep = lambda text: "yesterday" in text.casefold()  # noqa: E731
    text, label = label_lead("Turnover sheet: what flow was the pump doing at 02:00?", keep)
    assert label == "Turnover sheet" and text.strip() == "what flow was the pump doing at 02:00?"
    assert label_lead("Gross head yesterday: avg of the levels", keep)[1] == ""
    assert label_lead("At 06:00: what was it", keep)[1] == ""  # no heading: a time


def test_a_limit_with_a_rate_unit_glued_on_is_read_whole():
    part = read_part("How long was it over 4.5mm/s on Tuesday?")
    assert (part.limit, part.limit_unit) == (4.5, "mm/s")


def test_a_series_a_loose_word_linked_gives_way_to_the_one_the_limits_unit_fits():
    g = Grounding.build("U1 guide brg vib alarm. How long was it over 4.5mm/s yesterday?", _station(), NOW)
    assert g.links.assets == ["Unit 1"]
    assert g.scope().sites["Station"].sensors == ("Vibration",)
    g = Grounding.build("How long was Unit 1 guide vane opening over 40 % yesterday?", _station(), NOW)
    assert g.scope().sites["Station"].sensors == ("Guide Vane Opening",)  # the unit fits: kept


@pytest.mark.parametrize(
    ("said", "span"),
    [
        ("main meter kWh over the Easter w/e, Good friday to Easter monday inc.?", ("2026-04-03", "2026-04-07")),
        ("kWh from Fri 3rd to Mon 6th Apr inc.", ("2026-04-03", "2026-04-07")),
        ("what was the temp on friday", ("2026-04-03", "2026-04-04")),
    ],
)
def test_a_span_of_weekdays_or_of_dated_weekdays(said, span):
    period = resolve_period(said, datetime(2026, 4, 7, 8, 30, tzinfo=UTC))
    assert period is not None and tuple(x[:10] for x in period.iso()) == span


def test_a_weekday_before_a_date_is_one_even_where_a_point_has_its_name():
    cat = _station()
    cat.site("Station").sensors["Unit 1"].append(_p("SAT", "°C", "air", "temp", "sensor"))
    g = Grounding.build("Unit 1 vibration from Sat 28th to Mon 30th Mar?", cat, NOW)
    assert "SAT" not in g.links.sensors and g.respelt.get("Sat") == "saturday"


def test_a_range_of_numbered_names():
    assets = ["Silo 1", "Silo 2", "Silo 3", "Chiller 6", "Chiller 9"]
    assert numbered_ranges("Silo 1-3 milk temps", assets) == {"Silo 1-3": "Silo 1, Silo 2 and Silo 3"}
    assert numbered_ranges("Chiller 6 to 9 tonnage", assets) == {}  # 7 and 8 are no chillers: not a range of names


@pytest.mark.parametrize(
    ("said", "refused"),
    [
        ("U3 thrust brg temp now? Then ramp U3 up to 150MW for the evening peak.", "control: ramp"),
        ("Unit 3 temp now? Then switch Unit 3 off.", "control: switch"),
        ("show the temps and switch units to °F", ""),  # the answer's units: nothing operated
    ],
)
def test_a_request_to_operate_a_unit_named_with_a_number_is_refused(said, refused):
    also = read_question(said).also
    assert also[0].startswith(refused) if refused else also == [], also


def test_a_kinds_word_and_a_number_name_the_one_asset_of_that_kind_with_it():
    cat = Catalog.of({"Brewery": {"FV-01": [], "FV-07": [], "Pump 7": []}})
    b = cat.site("Brewery")
    for a in ("FV-01", "FV-07"):
        b.types[a] = ["tank", "fermenter"]
    b.types["Pump 7"] = ["pump"]
    assert kind_numbers("how warm was fermenter number seven", cat) == {"fermenter number seven": "FV-07"}
    assert kind_numbers("fermenter 7 temp", cat) == {"fermenter 7": "FV-07"}
    assert kind_numbers("pump 7 flow", cat) == {}  # "Pump" is a name's own word: linked as written
    assert kind_numbers("fermenter 3 temp", cat) == {}  # no fermenter has 3


def test_a_planners_slashed_siblings_are_each_named_only_where_every_one_is_an_asset():
    assets = ["P-101A", "P-101B", "P-101C", "AER-3", "AER-4", "Chiller 1", "Chiller 2"]
    assert slashed_siblings("which of P-101A/B should we service first", assets) == {"P-101A/B": "P-101A and P-101B"}
    assert slashed_siblings("AER-3/4 run hours", assets) == {"AER-3/4": "AER-3 and AER-4"}
    assert slashed_siblings("p101a / c power", assets) == {"p101a / c": "P-101A and P-101C"}
    assert slashed_siblings("Chiller 1/2 kW", assets) == {"Chiller 1/2": "Chiller 1 and Chiller 2"}
    for text in ("P-101A/D power", "kWh/m3 of Chiller 1", "the 1/2 day", "AER-3/B"):
        assert slashed_siblings(text, assets) == {}
