"""The synthetic plant: layout, and histories as a pure, plausible function of point and time."""

from __future__ import annotations

from collections import Counter
from datetime import datetime, timedelta
from zoneinfo import ZoneInfo

from hypothesis import given, settings
from hypothesis import strategies as st

from edge_agent.skyspark.dataset import SyntheticPlant, expected_history, find_point, plant
from edge_agent.skyspark.plant_layout import SITES

NY = ZoneInfo("America/New_York")


def test_layout():
    p = plant()
    sites = [r for r in p.records if "site" in r]
    equips = [r for r in p.records if "equip" in r]
    assert {"POKMAIN", "RCHMAIN", "HQ3SBY", "HQ1ARM3", "AUSWEST"} <= {s["dis"] for s in sites}
    assert len(equips) >= 250 and len({e["id"].val for e in equips}) == len(equips)
    for site in sites:
        mine = [e for e in equips if e["siteRef"].val == site["id"].val]
        kinds = Counter(next(k for k in ("chiller", "ahu", "pump", "meter", "fcu", "lighting") if k in e) for e in mine)
        assert set(kinds) == {"chiller", "ahu", "pump", "meter", "fcu", "lighting"}, site["dis"]
    tonnage = next(r for r in p.records if r.get("dis") == "Chiller 6 Tonnage")
    assert tonnage["navName"] == "Tonnage" and tonnage["unit"] == "tonref" and tonnage["tz"] == "New_York"
    assert p.rec(tonnage["equipRef"].val)["dis"] == "Chiller 6"
    assert len({r["id"].val for r in p.records}) == len(p.records)


@settings(max_examples=40, deadline=None)
@given(
    minutes=st.integers(0, (7 * 365 - 1) * 96).map(lambda k: k * 15),
    which=st.sampled_from(["Tonnage", "% Loaded", "Power", "Run Status", "Chilled Water Supply Temp"]),
)
def test_values_are_a_pure_function(minutes, which):
    instant = datetime(2020, 1, 1, 5, tzinfo=ZoneInfo("UTC")) + timedelta(minutes=minutes)
    pid = find_point("POKMAIN", "Chiller 9", which)
    fresh = SyntheticPlant()
    a, b = plant().value(pid, instant), fresh.value(pid, instant)
    assert a == b
    window = fresh.his(pid, instant, instant + timedelta(minutes=15))
    assert window == ([] if a is None else [(instant.astimezone(NY), a)])


def test_shapes_and_ranges():
    summer = expected_history(
        "POKMAIN", "Chiller 6", "% Loaded", datetime(2024, 7, 8, tzinfo=NY), datetime(2024, 7, 15, tzinfo=NY)
    )
    winter = expected_history(
        "POKMAIN", "Chiller 6", "% Loaded", datetime(2024, 1, 8, tzinfo=NY), datetime(2024, 1, 15, tzinfo=NY)
    )
    assert all(0 <= v <= 100 for _, v in summer + winter)
    assert sum(v for _, v in summer) / len(summer) > 2 * (sum(v for _, v in winter) / len(winter) + 1)
    meter = expected_history(
        "POKMAIN", "B020_Total", "Power", datetime(2024, 7, 8, tzinfo=NY), datetime(2024, 7, 15, tzinfo=NY)
    )
    by_hour = lambda h, wd: [v for t, v in meter if t.hour == h and (t.weekday() < 5) == wd]  # noqa: E731
    assert min(by_hour(14, True)) > max(by_hour(3, True))  # working afternoons above nights
    assert sum(by_hour(14, True)) / len(by_hour(14, True)) > sum(by_hour(14, False)) / len(by_hour(14, False))
    chicago = ZoneInfo("America/Chicago")
    austin = expected_history(
        "AUSWEST", "Chiller 8", "Tonnage", datetime(2024, 1, 8, tzinfo=chicago), datetime(2024, 1, 15, tzinfo=chicago)
    )
    assert any(v > 0 for _, v in austin)  # a warm site cools even in January
    run = expected_history(
        "POKMAIN", "B705 AHU 1", "Fan Run Status", datetime(2024, 7, 8, tzinfo=NY), datetime(2024, 7, 9, tzinfo=NY)
    )
    assert {v for _, v in run} == {True, False}


def test_gaps_and_bounds():
    p = plant()
    pid = find_point("RCHMAIN", "B040_Total", "Power")
    tz = ZoneInfo("America/Chicago")
    year = p.his(pid, datetime(2022, 1, 1, tzinfo=tz), datetime(2023, 1, 1, tzinfo=tz))
    assert 365 * 96 - 40 * 16 < len(year) < 365 * 96  # a few 4-hour gaps, not many
    steps = Counter((b[0] - a[0]) for a, b in zip(year, year[1:]))
    assert steps[timedelta(minutes=15)] > 0.99 * len(year) and max(steps) >= timedelta(hours=4)
    assert p.his(pid, datetime(2019, 12, 1, tzinfo=tz), datetime(2020, 1, 1, tzinfo=tz)) == []
    assert p.his(pid, datetime(2027, 1, 1, tzinfo=tz), datetime(2027, 2, 1, tzinfo=tz)) == []
    last = p.his(pid, datetime(2026, 12, 31, 23, tzinfo=tz), datetime(2027, 1, 2, tzinfo=tz))
    assert last and last[-1][0] <= datetime(2026, 12, 31, 23, 45, tzinfo=tz)
    assert p.value(pid, datetime(2024, 7, 1, 12, 7, tzinfo=tz)) is None  # not on a 15-minute slot


def test_every_site_has_its_timezone():
    p = plant()
    for spec in SITES:
        rec = next(r for r in p.records if r.get("dis") == spec.name and "site" in r)
        assert spec.tz.endswith(rec["tz"])
