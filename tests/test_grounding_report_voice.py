"""A compliance officer's report questions (issue 40, blind 18's classes): a purpose said before the ask, "identify the
… that …" and "the time at which … peaked", an efficiency said as input per output of any unit, a grid emission
factor that no SkySpark holds."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from edge_agent.grounding.catalog import Catalog, SensorName
from edge_agent.grounding.context import label_lead
from edge_agent.grounding.dates import resolve_period
from edge_agent.grounding.question import read_part
from edge_agent.grounding.run import Grounding
from edge_agent.grounding.unitnamed import lower_is_better

NOW = datetime(2026, 11, 2, 9, 0, tzinfo=UTC)


def _mill() -> Catalog:
    cat = Catalog.of({"Mill": {"Air Compressor 1": [], "Air Compressor 2": [], "Main Incomer": []}})
    mill = cat.site("Mill")
    for a in ("Air Compressor 1", "Air Compressor 2"):
        mill.types[a] = ["compressor", "air"]
        mill.sensors[a] = [
            SensorName("Motor Power", "Motor Power", "kW", ("elec", "power", "sensor")),
            SensorName("Specific Power", "Specific Power", "kW/(m³/min)", ("sensor",)),
        ]
    mill.types["Main Incomer"] = ["elecMeter", "meter"]
    mill.sensors["Main Incomer"] = [SensorName("Active Power", "Active Power", "kW", ("elec", "power", "sensor"))]
    return cat


def test_a_purpose_said_before_the_ask_is_context():
    text, label = label_lead("For the compressed-air section of the audit, please identify the worst one.", bool)
    assert label == ""  # kept where it names something (here: anything)
    text, label = label_lead("For the compressed-air section of the audit, please identify it.", lambda _: False)
    assert label == "For the compressed-air section of the audit" and text.strip() == "please identify it."
    assert label_lead("For 2 hours, was it above 40?", lambda _: False)[1] == ""  # no article: no purpose


@pytest.mark.parametrize(
    ("said", "ask"),
    [
        ("please report the time at which the export to the grid peaked on Sunday", "when_extreme"),
        ("please identify the air handling unit that delivered the warmest supply air last week", "rank"),
    ],
)
def test_report_wordings_of_a_time_of_extreme_and_a_ranking(said, ask):
    assert read_part(said).ask == ask


@pytest.mark.parametrize(
    ("unit", "lower"),
    [("kW/(m³/min)", True), ("kWh/t", True), ("kW/ton", True), ("kW/kW", False), ("%", False), ("m³/h", False)],
)
def test_an_input_per_output_of_any_unit_is_better_lower(unit, lower):
    assert lower_is_better(unit) is lower


def test_the_least_efficient_by_input_per_output_is_its_highest_mean():
    q = "Which air compressor was the least efficient last week, in terms of electricity consumed per unit of air?"
    g = Grounding.build(q, _mill(), NOW)
    part = g.reading.parts[0]
    assert (part.ask, part.order, part.statistic) == ("rank", "highest", "mean")
    assert g.links.sensors == ["Specific Power"]


def test_a_grid_emission_factor_is_said_not_recorded():
    g = Grounding.build(
        "Please report the grid emission factor (kg CO2e per kWh) for the Mill's purchased electricity.", _mill(), NOW
    )
    assert "emission factor is not recorded" in g.in_code and "price" not in g.in_code


@pytest.mark.parametrize(
    ("said", "span"),
    [
        ("during October 2026 (1 to 31 October inclusive), in kWh", ("2026-10-01T00:00:00", "2026-11-01T00:00:00")),
        ("on Wednesday 28 October, that is from 09:00 to 17:30.", ("2026-10-28T09:00:00", "2026-10-28T17:30:00")),
        ("on 28 October between 9am and 5:30pm", ("2026-10-28T09:00:00", "2026-10-28T17:30:00")),
        ("yesterday from 22:00 to 06:00", ("2026-11-01T22:00:00", "2026-11-02T06:00:00")),
    ],
)
def test_a_report_names_a_month_by_its_days_and_hours_of_one_day(said, span):
    period = resolve_period(said, datetime(2026, 11, 2, 9, 10, tzinfo=UTC))
    assert period is not None and period.iso() == span
