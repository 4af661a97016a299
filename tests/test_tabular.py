"""Result files in the format asked (issue 40 f): CSV beside the JSON where the operator says CSV, spreadsheet or
Excel, or the request sets `options.format`; site-local times with the offset in the header (or a column across a
clock change), units in a column, a byte-order mark so a spreadsheet shows °C as written."""

from __future__ import annotations

import csv
import io

import pytest
from hypothesis import given
from hypothesis import strategies as st

from edge_agent.tabular import format_asked, history_csv


@pytest.mark.parametrize(
    ("question", "requested", "fmt"),
    [
        ("send me a CSV of Chiller 6 tonnage last week", None, "csv"),
        ("put it in a spreadsheet please", None, "csv"),
        ("can I get that in Excel", None, "csv"),
        ("download Chiller 6 tonnage for last week", None, "json"),
        ("download Chiller 6 tonnage for last week", "csv", "csv"),
        ("a CSV of it", "json", "json"),  # the request's own setting wins
    ],
)
def test_the_format_asked(question, requested, fmt):
    assert format_asked(question, requested) == fmt


def _row(ts: str, value, unit="°C"):
    return {
        "site_name": "S",
        "asset_name": "Forno 1",
        "sensor_name": "Temp",
        "timestamp": ts,
        "value": value,
        "unit": unit,
    }


def test_one_offset_goes_in_the_header():
    data = history_csv([_row("2026-10-24T23:45:00+02:00", 1510.5), _row("2026-10-25T00:00:00+02:00", True, None)])
    assert data.startswith("\ufeff".encode())
    rows = list(csv.reader(io.StringIO(data.decode("utf-8-sig"))))
    assert rows[0] == ["time (UTC+02:00)", "site", "asset", "sensor", "value", "unit"]
    assert rows[1] == ["2026-10-24 23:45:00", "S", "Forno 1", "Temp", "1510.5", "°C"]
    assert rows[2][4:] == ["true", ""]


def test_a_clock_change_gets_an_offset_column():
    rows = list(
        csv.reader(
            io.StringIO(
                history_csv([_row("2026-10-25T02:30:00+02:00", 1), _row("2026-10-25T02:30:00+01:00", 2)]).decode(
                    "utf-8-sig"
                )
            )
        )
    )
    assert rows[0][:2] == ["time (site time)", "utc offset"]
    assert [r[:2] for r in rows[1:]] == [["2026-10-25 02:30:00", "UTC+02:00"], ["2026-10-25 02:30:00", "UTC+01:00"]]


@given(st.lists(st.tuples(st.floats(allow_nan=False, allow_infinity=False), st.text(max_size=8)), max_size=20))
def test_every_row_reads_back(values):
    data = [_row("2026-01-01T00:00:00+00:00", v, u) for v, u in values]
    back = list(csv.reader(io.StringIO(history_csv(data).decode("utf-8-sig"), newline="")))
    assert len(back) == len(data) + 1
    assert [float(r[4]) for r in back[1:]] == [v for v, _ in values]
    assert [r[5] for r in back[1:]] == [u for _, u in values]


def test_a_history_file_is_named_for_every_series_it_holds():
    """Issue 41, 8: a merged file was named after its first series only."""
    from edge_agent.tabular import series_stem

    def rows(*pairs):
        return [{"asset_name": a, "sensor_name": s} for a, s in pairs for _ in range(2)]

    assert series_stem("history", rows(("Chiller 6", "Tonnage"))) == "history_Chiller 6_Tonnage"
    assert series_stem("history", rows(("Chiller 6", "Tonnage"), ("Chiller 9", "Tonnage"))) == (
        "history_Chiller 6_Chiller 9_Tonnage"
    )
    assert series_stem("merged", rows(("AHU 1", "SAT"), ("AHU 2", "RAT"))) == "merged_AHU 1_SAT_AHU 2_RAT"
    many = rows(*((f"Chiller {n}", "Tonnage") for n in range(1, 8)))
    assert series_stem("history", many) == "history_7_series_Tonnage"  # never the first alone
    mixed = rows(("Chiller 6", "Chilled Water Supply Temp"), ("Chiller 9", "Condenser Water Return Temp"))
    assert series_stem("merged", mixed) == "merged_2_series"


def test_one_series_is_named_once_however_long():
    from edge_agent.tabular import series_stem

    rows = [{"asset_name": "Compartment A", "sensor_name": "Compartment A Air Temp"}]
    assert series_stem("history", rows) == "history_Compartment A Air Temp"
    rows = [{"asset_name": "TR-2", "sensor_name": "Oil Temp"}]
    assert series_stem("history", rows) == "history_TR-2_Oil Temp"
