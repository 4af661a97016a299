"""The IoT tools (sites, assets, sensors, histories) against the real simulator."""

from __future__ import annotations

import re
import socket
from datetime import datetime
from pathlib import Path
from zoneinfo import ZoneInfo

import pytest

from edge_agent import PROJECT_ROOT
from edge_agent.skyspark.client import SkySparkClient
from edge_agent.skyspark.dataset import expected_history
from edge_agent.toolkit import ToolRegistry

NY = ZoneInfo("America/New_York")


@pytest.fixture(scope="module")
def tools():
    return ToolRegistry.from_dir(
        PROJECT_ROOT / "plugins", builtins=False, only=["sites", "assets", "sensors", "histories"]
    )


def run(tools, ctx, name, **args):
    result = tools.get(name).run(args, ctx)
    return result.ok, result.observation


def saved(ctx, observation):
    name = re.search(r"(?:to|saved \d+ rows to) (\S+\.json)", observation).group(1).rstrip(";,")
    return ctx.files.read_json(name)


def test_descriptions_are_one_verb_first_sentence(tools):
    for t in tools:
        assert t.description[0].isupper() and t.description.endswith(".") and t.description.count(". ") == 0
        assert t.description.split()[0] in {"List", "Read"}


def test_sites_assets_sensors_write_files(tools, iot_ctx):
    ok, obs = run(tools, iot_ctx, "sites")
    assert ok and obs.startswith("found 6 sites") and "POKMAIN" in obs
    assert {"site_name": "POKMAIN", "timezone": "America/New_York"} in saved(iot_ctx, obs)

    ok, obs = run(tools, iot_ctx, "assets", site_name="POKMAIN")
    rows = saved(iot_ctx, obs)
    assert ok and obs.startswith(f"found {len(rows)} assets at POKMAIN") and len(rows) > 50
    assert {"site_name": "POKMAIN", "asset_name": "Chiller 6", "asset_type": "chiller"} in rows
    assert "more)" in obs and len(obs) < 300

    ok, obs = run(tools, iot_ctx, "sensors", site_name="POKMAIN", asset_name="Chiller 6")
    rows = saved(iot_ctx, obs)
    assert ok and obs.startswith("found 11 sensors on Chiller 6") and "Tonnage" in obs  # short names shown
    assert {
        "site_name": "POKMAIN",
        "asset_name": "Chiller 6",
        "sensor_name": "Chiller 6 Tonnage",
        "short_name": "Tonnage",
        "unit": "tonref",
    } in rows


def test_short_lists_are_shown_whole_long_ones_cut(tools, iot_ctx):
    ok, obs = run(tools, iot_ctx, "sites")
    assert ok and obs.startswith("found 6 sites: AUSWEST, DUBMAIN, HQ1ARM3, HQ3SBY, POKMAIN, RCHMAIN; saved to ")
    assert "more" not in obs  # the names come first, then the file
    ok, obs = run(tools, iot_ctx, "assets", site_name="POKMAIN")
    shown = obs.split(": ", 1)[1].rsplit("; saved to ", 1)[0].rsplit(", ... (", 1)
    names = [r["asset_name"] for r in saved(iot_ctx, obs)]
    assert shown[0].split(", ") == names[: len(shown[0].split(", "))]
    assert shown[1] == f"{len(names) - len(shown[0].split(', '))} more)"


def test_range_observation_summarises_each_series(tools, iot_ctx):
    from math import fsum
    from statistics import fmean

    ok, obs = run(
        tools,
        iot_ctx,
        "histories",
        site_name="POKMAIN",
        asset_names=["Chiller 6", "Chiller 9"],
        sensor_name="Power",
        start="2024-07-15",
        final="2024-07-16",
    )
    rows = saved(iot_ctx, obs)
    assert ok
    for asset in ("Chiller 6", "Chiller 9"):
        mine = [r for r in rows if r["asset_name"] == asset]
        values = [r["value"] for r in mine]
        high = max(mine, key=lambda r: r["value"])
        low = min(mine, key=lambda r: r["value"])
        clause = re.search(
            rf"{asset} Power \(kW\): max (\S+) at (\S+), min (\S+) at (\S+), "
            rf"mean (\S+), energy ([\d.]+) kWh, (\d+) values",
            obs,
        )
        assert clause, obs
        vmax, tmax, vmin, tmin, mean, total, n = clause.groups()
        assert int(n) == 96 and float(vmin) == pytest.approx(low["value"], abs=1e-4)
        assert tmin.rstrip(",") == low["timestamp"][:16]
        assert float(vmax) == pytest.approx(high["value"], abs=1e-4) and tmax.rstrip(",") == high["timestamp"][:16]
        assert float(mean) == pytest.approx(fmean(values), abs=1e-4)
        hours = 0.25  # a power series states its energy (trapezoid over 15-minute samples), never a sum of kW
        assert float(total) == pytest.approx(fsum((a + b) / 2 * hours for a, b in zip(values, values[1:])), abs=1e-3)
        assert "sum" not in obs
    chillers = [
        r["asset_name"]
        for r in saved(iot_ctx, run(tools, iot_ctx, "assets", site_name="POKMAIN")[1])
        if r["asset_type"] == "chiller"
    ]
    ok, obs = run(
        tools,
        iot_ctx,
        "histories",
        site_name="POKMAIN",
        asset_names=chillers,
        sensor_name="Tonnage",
        start="2024-07-15",
        final="2024-07-16",
    )
    assert ok and len(chillers) >= 4 and len(obs) <= 500  # fits the prompt's observation limit unsummarised
    shown = len(re.findall(r"\(tonref\): max ", obs))
    assert 1 <= shown < len(chillers) and obs.endswith(f"... ({len(chillers) - shown} more series in the file)")


def test_near_miss_names_get_suggestions(tools, iot_ctx):
    ok, obs = run(
        tools,
        iot_ctx,
        "histories",
        site_name="POKMAIN",
        asset_names=["Chiller 6"],
        sensor_name="Chiller 6 Tonage",
        start="2024-07-15T12:00:00",
    )
    assert not ok and obs.startswith("Error:") and "closest: 'Chiller 6 Tonnage'" in obs
    ok, obs = run(tools, iot_ctx, "sensors", site_name="POKMAIN", asset_name="Chiler 6")
    assert not ok and "closest: 'Chiller 6'" in obs
    ok, obs = run(tools, iot_ctx, "assets", site_name="RCH MAIN")
    assert ok and "at RCHMAIN" in obs  # space-insensitive match


def test_multi_asset_histories_merge_by_time(tools, iot_ctx):
    ok, obs = run(
        tools,
        iot_ctx,
        "histories",
        site_name="POKMAIN",
        asset_names=["Chiller 6", "Chiller 9"],
        sensor_name="Tonnage",
        start="2024-07-15T12:00:00",
        final="2024-07-15T13:00:00",
    )
    rows = saved(iot_ctx, obs)
    assert (
        ok
        and obs.startswith("2 series from 15 July 2024 12:00 to 15 July 2024 13:00 (site time)")
        and obs.count(", 4 values") == 2
        and "sum" not in obs
    )  # tonnage does not add up
    assert [(r["timestamp"], r["asset_name"]) for r in rows[:4]] == [
        ("2024-07-15T12:00:00-04:00", "Chiller 6"),
        ("2024-07-15T12:00:00-04:00", "Chiller 9"),
        ("2024-07-15T12:15:00-04:00", "Chiller 6"),
        ("2024-07-15T12:15:00-04:00", "Chiller 9"),
    ]
    start, end = datetime(2024, 7, 15, 12, tzinfo=NY), datetime(2024, 7, 15, 13, tzinfo=NY)
    for asset in ("Chiller 6", "Chiller 9"):
        mine = [(r["timestamp"], r["value"]) for r in rows if r["asset_name"] == asset]
        assert mine == [(t.isoformat(), v) for t, v in expected_history("POKMAIN", asset, "Tonnage", start, end)]
        assert all(
            r["sensor_name"] == f"{asset} Tonnage" and r["unit"] == "tonref" for r in rows if r["asset_name"] == asset
        )
    assert set(rows[0]) == {"site_name", "asset_name", "sensor_name", "timestamp", "value", "unit"}


def test_full_sensor_name_of_one_asset_applies_to_others(tools, iot_ctx):
    ok, obs = run(
        tools,
        iot_ctx,
        "histories",
        site_name="POKMAIN",
        asset_names=["Chiller 6", "Chiller 9"],
        sensor_name="Chiller 6 % Loaded",
        start="2024-07-15T12:00:00",
    )
    rows = saved(iot_ctx, obs)
    assert ok and [r["sensor_name"] for r in rows] == ["Chiller 6 % Loaded", "Chiller 9 % Loaded"]


def test_point_versus_interval(tools, iot_ctx):
    ok, point = run(
        tools,
        iot_ctx,
        "histories",
        site_name="POKMAIN",
        asset_names=["Chiller 6"],
        sensor_name="Power",
        start="2024-07-15T12:10:00",
    )
    assert ok and point.startswith("value at 2024-07-15T12:10:00-04:00: Chiller 6 Power = ")
    assert "recorded 2024-07-15T12:00:00-04:00" in point
    assert len(saved(iot_ctx, point)) == 1
    ok, same = run(
        tools,
        iot_ctx,
        "histories",
        site_name="POKMAIN",
        asset_names=["Chiller 6"],
        sensor_name="Power",
        start="2024-07-15T12:10:00",
        final="2024-07-15T12:10:00",
    )
    assert ok and same.startswith("value at")
    ok, interval = run(
        tools,
        iot_ctx,
        "histories",
        site_name="POKMAIN",
        asset_names=["Chiller 6"],
        sensor_name="Power",
        start="2024-07-15",
        final="2024-07-16",
    )
    assert ok and interval.startswith("Chiller 6 Power on 15 July 2024 (site time)")
    assert interval.endswith(", 96 values")
    rows = saved(iot_ctx, interval)
    assert rows[0]["timestamp"] == "2024-07-15T00:00:00-04:00" and rows[-1]["timestamp"] == "2024-07-15T23:45:00-04:00"


def test_dates_in_other_timezones(tools, iot_ctx):
    # 16:00Z is noon in New York (EDT) — the same instant as the naive site-local time.
    ok, utc = run(
        tools,
        iot_ctx,
        "histories",
        site_name="POKMAIN",
        asset_names=["Chiller 6"],
        sensor_name="Tonnage",
        start="2024-07-15T16:00:00Z",
        final="2024-07-15T17:00:00+00:00",
    )
    ok2, local = run(
        tools,
        iot_ctx,
        "histories",
        site_name="POKMAIN",
        asset_names=["Chiller 6"],
        sensor_name="Tonnage",
        start="2024-07-15T12:00:00",
        final="2024-07-15T13:00:00",
    )
    assert ok and ok2 and saved(iot_ctx, utc) == saved(iot_ctx, local)
    assert saved(iot_ctx, utc)[0]["timestamp"] == "2024-07-15T12:00:00-04:00"
    # A Chicago site: naive dates are Chicago time, timestamps carry Chicago's offset.
    ok, obs = run(
        tools,
        iot_ctx,
        "histories",
        site_name="RCHMAIN",
        asset_names=["Chiller 1"],
        sensor_name="Tonnage",
        start="2024-01-10",
        final="2024-01-10T01:00:00",
    )
    assert ok and saved(iot_ctx, obs)[0]["timestamp"] == "2024-01-10T00:00:00-06:00"
    # Dublin in summer (IST, +01:00).
    ok, obs = run(
        tools,
        iot_ctx,
        "histories",
        site_name="DUBMAIN",
        asset_names=["B3_Total"],
        sensor_name="Power",
        start="2024-07-01T09:00:00",
        final="2024-07-01T09:30:00",
    )
    assert ok and [r["timestamp"] for r in saved(iot_ctx, obs)] == [
        "2024-07-01T09:00:00+01:00",
        "2024-07-01T09:15:00+01:00",
    ]


def test_empty_results(tools, iot_ctx):
    ok, obs = run(
        tools,
        iot_ctx,
        "histories",
        site_name="POKMAIN",
        asset_names=["Chiller 6"],
        sensor_name="Tonnage",
        start="2019-06-01",
        final="2019-06-02",
    )
    assert ok and obs.startswith("no values of Tonnage") and saved(iot_ctx, obs) == []
    ok, obs = run(
        tools,
        iot_ctx,
        "histories",
        site_name="POKMAIN",
        asset_names=["Chiller 6"],
        sensor_name="Tonnage",
        start="2019-06-01T10:00:00",
    )
    assert ok and obs.startswith("no value of Tonnage at or before")


@pytest.mark.parametrize(
    "start,final,message",
    [
        ("yesterday", None, "not an ISO 8601 date"),
        ("2024-13-01", None, "not an ISO 8601 date"),
        ("2024-07-16", "2024-07-15", "is after final"),
        ("2020-01-01", "2024-01-01", "at most 400 days"),
        ("", None, "start is empty"),
    ],
)
def test_bad_dates_give_clear_observations(tools, iot_ctx, start, final, message):
    args = {"site_name": "POKMAIN", "asset_names": ["Chiller 6"], "sensor_name": "Tonnage", "start": start}
    if final:
        args["final"] = final
    result = tools.get("histories").run(args, iot_ctx)
    assert not result.ok and message in result.observation


def test_hallucinated_argument_is_refused(tools, iot_ctx):
    ok, obs = run(tools, iot_ctx, "assets", site_name="POKMAIN", building="B705")
    assert not ok and "building" in obs


def test_single_asset_name_string_is_accepted(tools, iot_ctx):
    ok, obs = run(
        tools,
        iot_ctx,
        "histories",
        site_name="POKMAIN",
        asset_names="Chiller 9",
        sensor_name="Tonnage",
        start="2024-07-15T12:00:00",
    )
    assert ok and "Chiller 9 Tonnage" in obs


def test_skyspark_down_ends_the_run_and_no_skyspark_is_an_observation(tools, settings, tmp_path):
    """A SkySpark that cannot be reached is nothing the model can work around: the tool raises the failure
    (the run ends `failed`, `skyspark_unavailable`, naming the server); a gateway without one configured is an
    Observation."""
    from edge_agent.clock import Clock
    from edge_agent.filestore import FileStore
    from edge_agent.skyspark.errors import SkySparkUnavailable
    from edge_agent.toolkit import ToolContext

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    client = SkySparkClient(f"http://127.0.0.1:{port}", "demo", "operator", "pw", retries=1, backoff_s=0.01)
    ctx = ToolContext(
        files=FileStore(tmp_path / "f"), clock=Clock(), settings=settings, skyspark_factory=lambda: client
    )
    with pytest.raises(SkySparkUnavailable) as exc:
        run(tools, ctx, "sites")
    assert exc.value.reason == "skyspark_unavailable" and f"127.0.0.1:{port}" in str(exc.value)
    assert "cannot connect" in str(exc.value) and "after 2 attempts" in str(exc.value)
    ok, obs = run(tools, ToolContext(files=FileStore(tmp_path / "g"), clock=Clock()), "sites")
    assert not ok and "not configured" in obs


def test_a_refused_login_ends_the_run(tools, simulator, settings, tmp_path):
    from edge_agent.clock import Clock
    from edge_agent.filestore import FileStore
    from edge_agent.skyspark.errors import SkySparkAuthError
    from edge_agent.toolkit import ToolContext

    client = SkySparkClient(simulator.url, simulator.project, simulator.username, "wrong", retries=0)
    ctx = ToolContext(
        files=FileStore(tmp_path / "f"), clock=Clock(), settings=settings, skyspark_factory=lambda: client
    )
    with pytest.raises(SkySparkAuthError) as exc:
        run(tools, ctx, "assets", site_name="POKMAIN")
    assert exc.value.reason == "skyspark_auth" and "refused the login" in str(exc.value)
    assert not list(Path(tmp_path / "f").iterdir())  # nothing half-written


def test_range_observation_states_the_asked_statistic_first(tools, iot_ctx):
    iot_ctx.question = "What was the average power of Chiller 6 on 2024-07-15?"
    ok, obs = run(
        tools,
        iot_ctx,
        "histories",
        site_name="POKMAIN",
        asset_names=["Chiller 6"],
        sensor_name="Power",
        start="2024-07-15",
        final="2024-07-16",
    )
    assert ok and re.search(r"Chiller 6 Power \(kW\): mean [\d.]+, max ", obs), obs
    iot_ctx.question = "What was the lowest power of Chiller 6 on 2024-07-15?"
    ok, obs = run(
        tools,
        iot_ctx,
        "histories",
        site_name="POKMAIN",
        asset_names=["Chiller 6"],
        sensor_name="Power",
        start="2024-07-15",
        final="2024-07-16",
    )
    assert ok and re.search(r"Chiller 6 Power \(kW\): min [\d.]+ at \S+, max ", obs), obs


def test_each_call_says_what_an_answer_states_of_it(tools, iot_ctx):
    """`Said.answer`: the names found, or each series' figures and the file — every figure in it is one
    the Observation (or the file) holds, so an answer that is this head needs no word of the model's."""
    listing = tools.get("assets").run({"site_name": "POKMAIN", "asset_type": "chiller"}, iot_ctx)
    assert listing.ok and listing.answer.startswith("found ") and "Chiller 6" in listing.answer
    assert listing.observation.startswith(listing.answer + "; saved to ")
    data = tools.get("histories").run(
        {
            "site_name": "POKMAIN",
            "asset_names": ["Chiller 6", "Chiller 9"],
            "sensor_name": "Power",
            "start": "2024-07-15",
            "final": "2024-07-16",
        },
        iot_ctx,
    )
    stats, file = data.answer.rsplit("; saved to ", 1)
    # read as an answer: the statistic in words, readable site-local times, the file last, no sum of kW
    assert data.ok and stats.startswith("The highest Chiller 6 Power on 15 July 2024 was ")
    assert "The highest Chiller 9 Power on 15 July 2024 was " in stats and "sum" not in stats and "energy " in stats
    figures = re.findall(r"(?<![\d:])\d+\.\d+(?![\d:])", stats)
    assert figures and all(f in data.observation for f in figures) and saved(iot_ctx, f"saved to {file}")
    iot_ctx.question = "what was the mean power"
    mean = tools.get("histories").run(
        {
            "site_name": "POKMAIN",
            "asset_names": ["Chiller 6"],
            "sensor_name": "Power",
            "start": "2024-07-15",
            "final": "2024-07-17",
        },
        iot_ctx,
    )
    assert mean.answer.startswith("The mean Chiller 6 Power from 15 July 2024 to 16 July 2024 was ")
    assert re.search(r"highest [\d.]+ kW, at \d\d:\d\d on 1[56] July 2024", mean.answer), mean.answer
    point = tools.get("histories").run(
        {"site_name": "POKMAIN", "asset_names": ["Chiller 6"], "sensor_name": "Power", "start": "2024-07-15T12:10:00"},
        iot_ctx,
    )
    assert re.match(r"Chiller 6 Power was [\d.]+ kW at 12:\d\d on 15 July 2024; saved to ", point.answer), point.answer
    empty = tools.get("histories").run(
        {
            "site_name": "POKMAIN",
            "asset_names": ["Chiller 6"],
            "sensor_name": "Tonnage",
            "start": "2019-06-01",
            "final": "2019-06-02",
        },
        iot_ctx,
    )
    assert empty.ok and empty.answer.startswith("no values of Tonnage of Chiller 6 are recorded from 2019-06-01")
    bad = tools.get("histories").run(
        {"site_name": "POKMAIN", "asset_names": ["Chiller 6"], "sensor_name": "Tonnage", "start": "yesterday"}, iot_ctx
    )
    assert not bad.ok and bad.answer == ""


def test_a_meter_register_is_used_by_its_rise_never_summed():
    """A running total (an energy meter's register) never falls: its use over a period is the rise from the first to
    the last reading; readings per interval go up and down and are summed."""
    import importlib.util
    from types import SimpleNamespace

    spec = importlib.util.spec_from_file_location("iot_tools_module", PROJECT_ROOT / "plugins" / "iot.py")
    iot = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(iot)
    row = lambda v: SimpleNamespace(value=v, unit="kWh", timestamp="2026-10-27T00:00:00-05:00")  # noqa: E731
    register = [row(v) for v in (3280101.0, 3280500.5, 3281002.0, 3290295.0)]
    assert iot._total(register, register).startswith("rise 10194.0 kWh (the register from 3280101.0")
    interval = [row(v) for v in (162.07, 162.28, 161.08, 157.87)]
    assert iot._total(interval, interval) == "total 643.3 kWh"
    hours = [
        SimpleNamespace(value=v, unit="h", timestamp="2027-02-01T00:00:00+05:00") for v in (23859.0, 23950.0, 24022.0)
    ]
    assert iot._total(hours, hours).startswith("rise 163.0 h (the register from 23859.0")  # a Run Hours counter
    temps = [SimpleNamespace(value=v, unit="°C", timestamp="2027-02-01T00:00:00+05:00") for v in (20.0, 21.0, 22.0)]
    assert iot._total(temps, temps) == ""  # a rising temperature is no counter


def test_a_value_asked_inside_a_gap_says_there_is_a_gap(tools, iot_ctx):
    """The last sample before an instant that falls in a gap of the history is said as such, not as the value then
    (issue 40 f: gap-aware instants); an instant between two samples is the earlier one, as before."""
    from datetime import datetime, timedelta

    gap = None
    day = datetime(2024, 6, 1)
    while gap is None and day < datetime(2024, 12, 1):  # the simulator leaves about 0.3 % of 4-hour blocks out
        ok, obs = run(
            tools,
            iot_ctx,
            "histories",
            site_name="POKMAIN",
            asset_names=["Chiller 6"],
            sensor_name="Power",
            start=day.strftime("%Y-%m-%d"),
            final=(day + timedelta(days=14)).strftime("%Y-%m-%d"),
        )
        times = [datetime.fromisoformat(r["timestamp"]) for r in saved(iot_ctx, obs)]
        gap = next((a for a, b in zip(times, times[1:]) if b - a > timedelta(hours=1)), None)
        day += timedelta(days=14)
    assert gap is not None
    inside = (gap + timedelta(hours=2)).replace(tzinfo=None).isoformat()
    ok, obs = run(
        tools, iot_ctx, "histories", site_name="POKMAIN", asset_names=["Chiller 6"], sensor_name="Power", start=inside
    )
    assert ok and "a gap in the history: nothing was recorded between then and" in obs
    assert f"recorded {gap.isoformat()}" in obs
    ok, obs = run(
        tools,
        iot_ctx,
        "histories",
        site_name="POKMAIN",
        asset_names=["Chiller 6"],
        sensor_name="Power",
        start="2024-07-15T12:10:00",
    )
    assert ok and "gap" not in obs


def test_a_csv_asked_is_written_beside_the_json_and_named(tools, iot_ctx):
    iot_ctx.file_format = "csv"
    try:
        ok, obs = run(
            tools,
            iot_ctx,
            "histories",
            site_name="POKMAIN",
            asset_names=["Chiller 6"],
            sensor_name="Power",
            start="2024-07-15",
            final="2024-07-16",
        )
    finally:
        iot_ctx.file_format = "json"
    assert ok
    sheet, table = re.search(r"saved to (\S+\.csv) \(and (\S+\.json)\)", obs).groups()
    text = iot_ctx.files.read_bytes(sheet).decode("utf-8-sig").splitlines()
    assert text[0] == "time (UTC-04:00),site,asset,sensor,value,unit"
    assert len(text) == 1 + len(iot_ctx.files.read_json(table)) == 97
    assert text[1].startswith("2024-07-15 00:00:00,POKMAIN,Chiller 6,Chiller 6 Power,") and text[1].endswith(",kW")
