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
