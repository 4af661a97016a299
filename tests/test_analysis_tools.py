"""The analysis tools (rank, derive, excursions, compare_periods) against the real simulator, checked with the
simulator's own data computed here by the rules of docs/analysis.md."""

from __future__ import annotations

import re
from datetime import datetime, timedelta
from statistics import fmean
from zoneinfo import ZoneInfo

import pytest

from edge_agent import PROJECT_ROOT
from edge_agent.skyspark.dataset import expected_history
from edge_agent.toolkit import ToolRegistry

NY = ZoneInfo("America/New_York")
DAY = dict(start="2020-06-03", final="2020-06-04")
START, END = datetime(2020, 6, 3, tzinfo=NY), datetime(2020, 6, 4, tzinfo=NY)
CHILLERS = ["Chiller 3", "Chiller 4", "Chiller 6", "Chiller 9", "Chiller 12"]


@pytest.fixture(scope="module")
def tools():
    return ToolRegistry.from_dir(
        PROJECT_ROOT / "plugins", builtins=False, only=["rank", "derive", "excursions", "compare_periods"]
    )


def test_the_tools_folder_registers_the_tools_in_the_order_the_prompt_shows_them():
    """The registry's order is the order of the tools in the model's prompt and step grammar (and its cached
    prefix): the analysis tools' plugin binds the four, from their two families, in this order."""
    assert ToolRegistry.from_dir(PROJECT_ROOT / "plugins").names == [
        "currentdatetime",
        "sites",
        "assets",
        "sensors",
        "histories",
        "rank",
        "derive",
        "excursions",
        "compare_periods",
        "jsonreader",
        "jsonmerge",
        "Finish",
        "Self-Ask",
    ]


def call(tools, ctx, name, **args):
    result = tools.get(name).run(args, ctx)
    return result


def numbers(asset, sensor):
    return [
        (t, float(v))
        for t, v in expected_history("POKMAIN", asset, sensor, START, END)
        if isinstance(v, (int, float)) and not isinstance(v, bool)
    ]


def file_of(ctx, text):
    return ctx.files.read_json(re.search(r"saved to (\S+\.json)", text).group(1))


def test_descriptions_are_one_verb_first_sentence(tools):
    for t in tools:
        assert t.description[0].isupper() and t.description.endswith(".") and t.description.count(". ") == 0
        assert t.answers and t.needs == ("period",)


@pytest.mark.parametrize("by,order", [("max", "highest"), ("mean", "highest"), ("min", "lowest"), ("mean", "lowest")])
def test_rank_names_the_winner_first(tools, iot_ctx, by, order):
    out = call(
        tools,
        iot_ctx,
        "rank",
        site_name="POKMAIN",
        sensor_name="Tonnage",
        asset_type="chiller",
        by=by,
        order=order,
        **DAY,
    )
    assert out.ok, out.observation
    agg = {"max": max, "min": min, "mean": fmean}[by]
    scores = {a: agg(v for _, v in numbers(a, "Tonnage")) for a in CHILLERS if numbers(a, "Tonnage")}
    best = (max if order == "highest" else min)(scores.values())
    winners = [a for a, s in scores.items() if abs(s - best) <= 1e-9 * max(1, abs(best))]
    assert any(out.answer.startswith(w) for w in winners), out.answer
    data = file_of(iot_ctx, out.answer)
    assert set(data["winners"]) == set(winners) and len(data["ranking"]) == len(CHILLERS)


def test_rank_by_energy_integrates_power_and_refuses_other_units(tools, iot_ctx):
    out = call(
        tools,
        iot_ctx,
        "rank",
        site_name="POKMAIN",
        sensor_name="Power",
        asset_names=["Chiller 6", "Chiller 9"],
        by="energy",
        order="highest",
        **DAY,
    )
    assert out.ok, out.observation
    energy = {}
    for a in ("Chiller 6", "Chiller 9"):
        pts = numbers(a, "Power")
        energy[a] = sum((v1 + v2) / 2 * (t2 - t1).total_seconds() / 3600 for (t1, v1), (t2, v2) in zip(pts, pts[1:]))
    winner = max(energy, key=energy.get)
    assert out.answer.startswith(winner) and "kWh" in out.answer
    assert f"{round(energy[winner], 4)!r}" in out.answer
    bad = call(
        tools,
        iot_ctx,
        "rank",
        site_name="POKMAIN",
        sensor_name="Tonnage",
        asset_names=["Chiller 6", "Chiller 9"],
        by="energy",
        order="highest",
        **DAY,
    )
    assert not bad.ok and "only computed from power" in bad.observation  # tonnage is no rate of an amount


def test_derive_aligns_and_follows_the_question_order(tools, iot_ctx):
    iot_ctx.question = (
        "What was the mean difference between the Chilled Water Return Temp and the Chilled Water "
        "Supply Temp of Chiller 6?"
    )
    out = call(
        tools,
        iot_ctx,
        "derive",
        site_name="POKMAIN",
        asset_name="Chiller 6",
        sensor_name="Chilled Water Supply Temp",
        other_asset="Chiller 6",
        other_sensor="Chilled Water Return Temp",
        op="difference",
        **DAY,
    )
    assert out.ok, out.observation
    ret, sup = (
        dict(numbers("Chiller 6", "Chilled Water Return Temp")),
        dict(numbers("Chiller 6", "Chilled Water Supply Temp")),
    )
    diffs = [ret[t] - sup[t] for t in ret if t in sup]
    assert f"mean {round(fmean(diffs), 4)!r}" in out.answer  # return − supply: the question's order
    assert out.answer.startswith("difference Chilled Water Return Temp − Chilled Water Supply Temp of Chiller 6")
    same = call(
        tools,
        iot_ctx,
        "derive",
        site_name="POKMAIN",
        asset_name="Chiller 6",
        sensor_name="Tonnage",
        other_asset="Chiller 6",
        other_sensor="Tonnage",
        op="difference",
        **DAY,
    )
    assert not same.ok and "two different series" in same.observation


def test_excursions_say_yes_or_no_first(tools, iot_ctx):
    values = [v for _, v in numbers("Chiller 6", "Tonnage")]
    high = max(values)
    yes = call(
        tools,
        iot_ctx,
        "excursions",
        site_name="POKMAIN",
        asset_name="Chiller 6",
        sensor_name="Tonnage",
        direction="above",
        limit=high - 1,
        **DAY,
    )
    assert yes.ok and yes.answer.startswith("Yes: ")
    above = [v for v in values if v > high - 1]
    assert f"in {len(above)} of {len(values)} samples" in yes.answer
    equal = call(
        tools,
        iot_ctx,
        "excursions",
        site_name="POKMAIN",
        asset_name="Chiller 6",
        sensor_name="Tonnage",
        direction="above",
        limit=high,
        **DAY,
    )
    assert equal.ok and equal.answer.startswith("No: ")  # equal to the limit is not above it
    data = file_of(iot_ctx, yes.answer)
    assert data["answer"] is True and data["compared"] == len(values)


def test_excursions_asked_how_long_lead_with_the_time(tools, iot_ctx):
    values = [v for _, v in numbers("Chiller 6", "Tonnage")]
    high = max(values)
    args = dict(site_name="POKMAIN", asset_name="Chiller 6", sensor_name="Tonnage", direction="above", **DAY)
    long = call(tools, iot_ctx, "excursions", limit=high - 1, report="how_long", **args)
    above = [v for v in values if v > high - 1]
    assert (
        long.ok and not long.answer.startswith("Yes") and f"was above {high - 1:g}" in long.answer.replace(".0 ", " ")
    )
    assert " for " in long.answer.split("(")[0] and f"{len(above)} of {len(values)}" in long.answer
    never = call(tools, iot_ctx, "excursions", limit=high, report="how_long", **args)
    assert never.ok and "was never above" in never.answer and ": 0 h" in never.answer


def test_excursions_against_a_setpoint_series(tools, iot_ctx):
    out = call(
        tools,
        iot_ctx,
        "excursions",
        site_name="POKMAIN",
        asset_name="B705 AHU 1",
        sensor_name="Supply Air Temp Setpoint",
        limit_sensor="Supply Air Temp",
        direction="above",
        **DAY,
    )
    assert out.ok, out.observation
    sat, sp = dict(numbers("B705 AHU 1", "Supply Air Temp")), dict(numbers("B705 AHU 1", "Supply Air Temp Setpoint"))
    above = [t for t in sat if t in sp and sat[t] > sp[t]]
    # the setpoint is the limit whichever argument named it
    assert out.answer.startswith("Yes" if above else "No")
    assert "Supply Air Temp of B705 AHU 1" in out.answer and "its Supply Air Temp Setpoint" in out.answer


def test_errors_are_observations(tools, iot_ctx):
    out = call(
        tools,
        iot_ctx,
        "excursions",
        site_name="POKMAIN",
        asset_name="Chiller 6",
        sensor_name="Tonnage",
        direction="above",
        **DAY,
    )
    assert not out.ok and "needs a limit" in out.observation
    out = call(
        tools,
        iot_ctx,
        "rank",
        site_name="POKMAIN",
        sensor_name="Tonnage",
        asset_names=["Chiller 6"],
        by="max",
        order="highest",
        **DAY,
    )
    assert not out.ok and "at least two assets" in out.observation


def _day_series(asset, sensor, day):
    start = datetime(2020, 6, day, tzinfo=NY)
    return [
        (t, float(v))
        for t, v in expected_history("POKMAIN", asset, sensor, start, start + timedelta(days=1))
        if isinstance(v, (int, float)) and not isinstance(v, bool)
    ]


def compare(tools, ctx, **over):
    """compare_periods on Chiller 6 at POKMAIN, 3 June 2020 against 4 June (Tonnage, max, highest) unless `over`."""
    args = dict(site_name="POKMAIN", asset_name="Chiller 6", sensor_name="Tonnage", by="max", order="highest")
    args.update(start="2020-06-03", final="2020-06-04", other_start="2020-06-04", other_final="2020-06-05")
    return call(tools, ctx, "compare_periods", **{**args, **over})


@pytest.mark.parametrize("by,order", [("max", "highest"), ("mean", "lowest"), ("energy", "highest")])
def test_compare_periods_names_the_winning_period_first(tools, iot_ctx, by, order):
    sensor = "Power" if by == "energy" else "Tonnage"
    out = compare(tools, iot_ctx, sensor_name=sensor, by=by, order=order)
    assert out.ok, out.observation

    def score(day):
        pts = _day_series("Chiller 6", sensor, day)
        if by == "energy":
            return sum((v1 + v2) / 2 * (t2 - t1).total_seconds() / 3600 for (t1, v1), (t2, v2) in zip(pts, pts[1:]))
        return {"max": max, "mean": fmean}[by](v for _, v in pts)

    a, b = score(3), score(4)
    win, lose = ("3 June 2020", "4 June 2020") if (a > b) == (order == "highest") else ("4 June 2020", "3 June 2020")
    assert out.answer.startswith(win), out.answer
    assert out.answer.index(win) < out.answer.index(lose)
    assert f"{round(max(a, b) if order == 'highest' else min(a, b), 4)!r}" in out.answer
    data = file_of(iot_ctx, out.answer)
    assert [p["start"][:10] for p in data["periods"]] == ["2020-06-03", "2020-06-04"]
    assert data["periods"][0]["value"] == pytest.approx(a) and data["periods"][1]["value"] == pytest.approx(b)


def test_compare_periods_refuses_one_period_twice_and_energy_of_a_non_power(tools, iot_ctx):
    same = compare(tools, iot_ctx, other_start="2020-06-03", other_final="2020-06-04")
    assert not same.ok and "two different periods" in same.observation
    energy = compare(tools, iot_ctx, by="energy")
    assert not energy.ok and "only computed from power" in energy.observation


# --- a meter's running total (a register in kWh): compared by its rise over each period -----------------------------

REGISTERS = """ver:"3.0"
id,dis,site,equip,point,his,siteRef,equipRef,navName,kind,unit,tz,elecMeter,energy
@s-1,"Plant R",M,,,,,,,,,"Chicago",,
@e-1,"M-1",,M,,,@s-1,,,,,,M,
@e-2,"M-2",,M,,,@s-1,,,,,,M,
@p-1,"M-1 kWh Total",,,M,M,@s-1,@e-1,"kWh Total","Number","kWh","Chicago",,M
@p-2,"M-2 kWh Total",,,M,M,@s-1,@e-2,"kWh Total","Number","kWh","Chicago",,M
"""


@pytest.fixture
def register_ctx(tmp_path, start_simulator, skyspark_settings):
    """Two meters' registers on 1 and 2 May 2024: M-1 counts 10 kWh a quarter-hour on the 1st and 4 on the 2nd, M-2
    counts 5 on both days from a lower reading (M-1's readings are the higher all along)."""
    from edge_agent.clock import Clock
    from edge_agent.filestore import FileStore
    from edge_agent.skyspark.client import SkySparkClient
    from edge_agent.skyspark.filedataset import FileDataset
    from edge_agent.toolkit import ToolContext

    chicago = ZoneInfo("America/Chicago")
    rows, m1, m2 = ["id,ts,val"], 50_000.0, 1_000.0
    for n in range(2 * 96 + 1):
        at = datetime(2024, 5, 1, tzinfo=chicago) + timedelta(minutes=15 * n)
        rows += [f"@p-1,{at.isoformat()},{m1}", f"@p-2,{at.isoformat()},{m2}"]
        m1 += 10 if n < 96 else 4
        m2 += 5
    (tmp_path / "plant.zinc").write_text(REGISTERS)
    (tmp_path / "plant.csv").write_text("\n".join(rows) + "\n")
    sim = start_simulator(dataset=FileDataset.load(tmp_path / "plant.zinc"))
    client = SkySparkClient(sim.url, sim.project, sim.username, sim.password)
    return ToolContext(
        files=FileStore(tmp_path / "files"),
        clock=Clock("2024-05-03T12:00:00", "America/Chicago"),
        settings=skyspark_settings,
        skyspark_factory=lambda: client,
    )


@pytest.mark.parametrize("by", ["mean", "max", "energy"])
def test_a_registers_periods_are_compared_by_its_rise_whatever_statistic_was_asked(tools, register_ctx, by):
    out = call(
        tools,
        register_ctx,
        "compare_periods",
        site_name="Plant R",
        asset_name="M-1",
        sensor_name="kWh Total",
        by=by,
        order="highest",
        start="2024-05-02",
        final="2024-05-03",
        other_start="2024-05-01",
        other_final="2024-05-02",
    )
    assert out.ok, out.observation
    # the 2nd's readings are all higher, but the 1st counted more: 95 quarter-hours × 10 (to 23:45) against × 4
    assert out.answer.startswith("1 May 2024 had the larger rise of kWh Total of M-1"), out.answer
    assert "950.0 kWh, against 380.0 kWh on 2 May 2024" in out.answer
    assert file_of(register_ctx, out.answer)["by"] == "rise"


def test_a_ranking_of_registers_is_by_their_rise(tools, register_ctx):
    out = call(
        tools,
        register_ctx,
        "rank",
        site_name="Plant R",
        sensor_name="kWh Total",
        asset_names=["M-1", "M-2"],
        by="mean",
        order="highest",
        start="2024-05-02",
        final="2024-05-03",
    )
    assert out.ok, out.observation
    assert out.answer.startswith("M-2 had the largest rise of kWh Total"), out.answer  # 475 kWh against M-1's 380
    assert ": 475.0 kWh (then M-1 380.0)" in out.answer


STEAM = """ver:"3.0"
id,dis,site,equip,point,his,siteRef,equipRef,navName,kind,unit,tz,steamMeter,steam,flow
@s-1,"Mill",M,,,,,,,,,"Chicago",,,
@e-1,"HM-1",,M,,,@s-1,,,,,,M,M,
@p-1,"HM-1 Steam Flow",,,M,M,@s-1,@e-1,"Steam Flow","Number","t/h","Chicago",,M,M
@p-2,"HM-1 Gas",,,M,M,@s-1,@e-1,"Gas","Number","cfh","Chicago",,,M
@p-3,"HM-1 Speed",,,M,M,@s-1,@e-1,"Speed","Number","km/h","Chicago",,,
"""


def test_a_flows_periods_compared_by_what_they_used_are_compared_by_its_amount(
    tmp_path, start_simulator, skyspark_settings, tools
):
    """ "Did the mill use more steam last week": the flow's rate summed over each period (t/h over hours: t)."""
    from edge_agent.clock import Clock
    from edge_agent.filestore import FileStore
    from edge_agent.skyspark.client import SkySparkClient
    from edge_agent.skyspark.filedataset import FileDataset
    from edge_agent.toolkit import ToolContext

    chicago = ZoneInfo("America/Chicago")
    rows = ["id,ts,val"]
    for n in range(2 * 96):  # 10 t/h and 1000 cfh on the 1st, 4 t/h and 3000 cfh on the 2nd
        at = datetime(2024, 5, 1, tzinfo=chicago) + timedelta(minutes=15 * n)
        rows += [f"@p-1,{at.isoformat()},{10 if n < 96 else 4}", f"@p-2,{at.isoformat()},{1000 if n < 96 else 3000}"]
        rows += [f"@p-3,{at.isoformat()},5"]
    (tmp_path / "plant.zinc").write_text(STEAM)
    (tmp_path / "plant.csv").write_text("\n".join(rows) + "\n")
    sim = start_simulator(dataset=FileDataset.load(tmp_path / "plant.zinc"))
    client = SkySparkClient(sim.url, sim.project, sim.username, sim.password)
    ctx = ToolContext(
        files=FileStore(tmp_path / "files"),
        clock=Clock("2024-05-03T12:00:00", "America/Chicago"),
        settings=skyspark_settings,
        skyspark_factory=lambda: client,
    )
    days = dict(start="2024-05-01", final="2024-05-02", other_start="2024-05-02", other_final="2024-05-03")
    args = dict(site_name="Mill", asset_name="HM-1", by="energy", order="highest", **days)
    out = call(tools, ctx, "compare_periods", sensor_name="Steam Flow", **args)
    assert out.ok, out.observation
    # 95 quarter-hours of 10 t/h (to 23:45) is 237.5 t; 95 of 4 t/h is 95 t
    assert out.answer.startswith("1 May 2024 had the larger total Steam Flow of HM-1 (its rate summed over the period)")
    assert "237.5 t, against 95.0 t on 2 May 2024" in out.answer
    assert file_of(ctx, out.answer)["unit"] == "t" and file_of(ctx, out.answer)["by"] == "amount"
    gas = call(tools, ctx, "compare_periods", sensor_name="Gas", **args)
    assert gas.ok and gas.answer.startswith("2 May 2024 had the larger total Gas") and "ft³" in gas.answer
    speed = call(tools, ctx, "compare_periods", sensor_name="Speed", **args)  # a distance adds up to nothing used
    assert not speed.ok and "only computed from power" in speed.observation


def test_a_registers_rise_is_also_said_in_the_unit_the_question_asks(register_ctx):
    from edge_agent.toolkit import ToolRegistry

    histories = ToolRegistry.from_dir(PROJECT_ROOT / "plugins", builtins=False, only=["histories"])
    register_ctx.question = "how many MWh did M-1 count on the 1st?"
    args = dict(
        site_name="Plant R", asset_names=["M-1"], sensor_name="kWh Total", start="2024-05-01", final="2024-05-02"
    )
    out = call(histories, register_ctx, "histories", **args)
    assert out.ok and "was 950.0 kWh (0.95 MWh) (the register" in out.answer, out.answer
    register_ctx.question = "how many kWh did M-1 count on the 1st?"
    assert "was 950.0 kWh (the register" in call(histories, register_ctx, "histories", **args).answer


def test_excursions_compare_a_limit_said_in_another_unit_in_the_series_unit(tools, iot_ctx):
    values = [v for _, v in numbers("Chiller 6", "Power")]
    high = max(values)
    args = dict(site_name="POKMAIN", asset_name="Chiller 6", sensor_name="Power", direction="above", **DAY)
    in_kw = call(tools, iot_ctx, "excursions", limit=high - 1, **args)
    in_mw = call(tools, iot_ctx, "excursions", limit=(high - 1) / 1000, limit_unit="MW", **args)
    above = [v for v in values if v > high - 1]
    assert in_kw.ok and in_mw.ok and f"in {len(above)} of {len(values)} samples" in in_mw.answer
    assert " MW)" in in_mw.answer and " kW (" in in_mw.answer  # compared in kW, the limit as said beside it
    other = call(tools, iot_ctx, "excursions", limit=high - 1, limit_unit="°C", **args)  # no conversion across
    assert other.ok and f"in {len(above)} of {len(values)} samples" in other.answer  # quantities: as said
