"""Numbers written in words (`edge_agent.grounding.numbers`): read as digits only where they stand for a number."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
from hypothesis import given
from hypothesis import strategies as st

from edge_agent.grounding.catalog import Catalog, SensorName
from edge_agent.grounding.numbers import numbered_words, spelled_numbers, value
from edge_agent.grounding.run import Grounding

NOW = datetime(2024, 5, 6, 9, 0, tzinfo=UTC)
_ONES = "zero one two three four five six seven eight nine".split()
_TEENS = "ten eleven twelve thirteen fourteen fifteen sixteen seventeen eighteen nineteen".split()
_TENS = "twenty thirty forty fifty sixty seventy eighty ninety".split()


def _words(n: int) -> str:
    if n < 10:
        return _ONES[n]
    if n < 20:
        return _TEENS[n - 10]
    if n < 100:
        return _TENS[n // 10 - 2] + ("" if n % 10 == 0 else f"-{_ONES[n % 10]}")
    rest = n % 100
    return f"{_ONES[n // 100]} hundred" + (f" and {_words(rest)}" if rest else "")


@given(st.integers(min_value=0, max_value=999))
def test_every_number_in_words_reads_as_its_value(n):
    assert value(_words(n)) == n
    assert spelled_numbers(f"was it above {_words(n)} degrees", frozenset()) == {f"{_words(n)} degrees": f"{n} degrees"}


def test_numbered_words_are_those_before_a_number_in_a_name():
    assert numbered_words(["Chiller 2", "AHU-3", "Fermenter 07", "Main Meter"]) == {"chiller", "ahu", "fermenter"}


@pytest.mark.parametrize(
    "text",
    ["which one was warmest", "one of the pumps", "the one chiller", "is it the two of them", "at one point"],
)
def test_a_number_word_that_stands_for_no_number_stays_a_word(text):
    assert spelled_numbers(text, frozenset({"chiller", "pump"})) == {}


def _brewery() -> Catalog:
    cat = Catalog.of({"Brewery": {"Fermenter 7": [], "Fermenter 2": [], "Chiller 2": []}})
    for a in ("Fermenter 7", "Fermenter 2"):
        cat.site("Brewery").types[a] = ["tank"]
        cat.site("Brewery").sensors[a] = [
            SensorName("Tank Temp", "Tank Temp", "°C", ("temp", "sensor")),
            SensorName("Tank Temp SP", "Tank Temp SP", "°C", ("temp", "sp")),
        ]
    cat.site("Brewery").types["Chiller 2"] = ["chiller"]
    cat.site("Brewery").sensors["Chiller 2"] = [SensorName("Power", "Power", "kW", ("elec", "power", "sensor"))]
    return cat


def test_dictated_numbers_name_assets_limits_and_times_and_are_said():
    g = Grounding.build("was fermenter number two ever below minus two degrees yesterday", _brewery(), NOW)
    assert g.links.assets == ["Fermenter 2"] and g.reading.parts[0].limit == -2.0
    assert g.respelt == {"fermenter number two": "Fermenter 2", "minus two": "-2"}  # the name as the SkySpark spells it
    g = Grounding.build("what was chiller two power at three pm yesterday", _brewery(), NOW)
    assert g.links.assets == ["Chiller 2"] and g.start == g.final == "2024-05-05T15:00:00"


def test_a_filler_after_and_does_not_keep_a_second_part_from_starting():
    q = "okay so which fermenter was warmest yesterday and um how long was fermenter seven above its setpoint"
    g = Grounding.build(q, _brewery(), NOW)
    assert [p.ask for p in g.reading.parts] == ["rank", "duration"] and g.unplaced == []


def _big(n: int) -> str:
    thousands, rest = divmod(n, 1000)
    if not thousands:
        return _words(rest)
    return f"{_words(thousands)} thousand" + (f" {_words(rest)}" if rest else "")


@given(st.integers(min_value=1000, max_value=999_999), st.integers(min_value=0, max_value=99))
def test_thousands_and_decimals_said_digit_by_digit_read_as_their_value(n, cents):
    assert value(_big(n)) == n
    digits = " ".join(_ONES[int(d)] for d in f"{cents:02d}")
    assert value(f"{_words(n % 1000)} point {digits}") == float(f"{n % 1000}.{cents:02d}")


@pytest.mark.parametrize(
    ("said", "read"),
    [
        ("was it above two thousand five hundred kilowatts", {"two thousand five hundred kilowatts": "2500 kW"}),
        ("was it below seven point five bar", {"seven point five bar": "7.5 bar"}),
        ("did it draw more than forty amps", {"forty amps": "40 amps"}),
        ("did it draw more than forty amperes", {"forty amperes": "40 A"}),
        ("was it under 400 gallons per minute", {"400 gallons per minute": "400 gal/min"}),
        ("was it over 12 kilo pascals", {"12 kilo pascals": "12 kPa"}),
        ("what was it at six thirty yesterday evening", {"six thirty": "6:30"}),
        ("what was it at seven forty-five this morning", {"seven forty-five": "7:45"}),
        ("how long did it run in the past three days", {"three days": "3 days"}),
    ],
)
def test_a_unit_said_by_its_name_is_written_as_its_symbol_and_a_clock_as_hh_mm(said, read):
    assert spelled_numbers(said, frozenset()) == read


def test_dictated_limits_in_unit_names_are_the_limit_and_a_span_of_days_is_none():
    g = Grounding.build("was chiller two above two thousand kilowatts yesterday", _brewery(), NOW)
    assert (g.reading.parts[0].limit, g.reading.parts[0].limit_unit) == (2000.0, "kW")
    g = Grounding.build("how many hours did chiller two run in the past three days", _brewery(), NOW)
    assert g.reading.parts[0].limit is None and g.start == "2024-05-03T00:00:00"


def test_a_dictated_homophone_after_a_name_is_its_number_only_before_a_point_word_or_a_verb():
    points = frozenset({"power", "tank", "temp"})
    read = spelled_numbers("what was chiller to power yesterday", frozenset({"chiller"}), ["Chiller 2"], points)
    assert read == {"chiller to": "Chiller 2"}
    assert spelled_numbers("is fermenter for running", frozenset({"fermenter"}), ["Fermenter 4"], points) == {
        "fermenter for": "Fermenter 4"
    }
    for text in ("send the chiller to maintenance", "the chiller for last week", "chiller to the tank"):
        assert spelled_numbers(text, frozenset({"chiller"}), ["Chiller 2", "Chiller 4"], points) == {}
    assert spelled_numbers("what was chiller to power", frozenset({"chiller"}), ["Chiller 1"], points) == {}


def test_a_learners_singular_and_a_measures_adjective_with_a_degree_are_read():
    g = Grounding.build("how many hour the chiller to was run yesterday", _brewery(), NOW)
    assert g.reading.parts[0].ask == "duration" and g.links.assets == ["Chiller 2"]
    cat = _brewery()
    cat.site("Brewery").types["Fermenter 7"] = ["tank", "hot"]  # a marker that is also a measure's adjective
    g = Grounding.build("which fermenter was the least hot yesterday", cat, NOW)
    assert "hot" not in g.links.asset_types and g.links.measures == ["temperature"]
    assert g.reading.parts[0].order == "lowest"
