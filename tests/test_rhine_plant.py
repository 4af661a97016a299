"""The second built-in plant `rhine`: served by name (simulate --dataset rhine, a task file's `dataset:`), other
names, kinds and time zone than the default plant; its generated task sets are current and fit it."""

from __future__ import annotations

import importlib.util
from collections import Counter
from datetime import datetime
from zoneinfo import ZoneInfo

import pytest
from click.testing import CliRunner

from edge_agent import PROJECT_ROOT
from edge_agent.evaluation.checker import Evidence, check_task, validate_task
from edge_agent.evaluation.tasks import Task, load_tasks
from edge_agent.evaluation.truth import CachedTruth, SkySparkTruth
from edge_agent.skyspark.client import SkySparkClient
from edge_agent.skyspark.plants import builtin, open_dataset

TASKS = PROJECT_ROOT / "bench" / "tasks"
BERLIN = ZoneInfo("Europe/Berlin")


@pytest.fixture(scope="module")
def rhine_client():
    from tests.plugins.skyspark import _start

    sim = _start(dataset=builtin("rhine"))
    client = SkySparkClient(sim.url, sim.project, sim.username, sim.password)
    yield client
    client.close()
    sim.stop()


def test_builtin_names_and_files(tmp_path):
    assert builtin("rhine") is builtin("RHINE") is open_dataset("rhine")
    assert open_dataset(None) is builtin("default")
    with pytest.raises(KeyError, match="rhine"):
        open_dataset("no-such-plant")
    # a name that is a file is an operator's own records (histories from the file beside it with .csv), not a plant
    from tests.test_skyspark_simulator import CSV_HISTORY, ZINC_RECORDS

    (tmp_path / "rhine").write_text(ZINC_RECORDS)
    (tmp_path / "rhine.csv").write_text(CSV_HISTORY)
    own = open_dataset(str(tmp_path / "rhine"))
    assert own is not builtin("rhine") and own.series and {r["dis"] for r in own.records} >= {"Plant A", "CH-1"}


def test_the_plant_has_another_style(rhine_client):
    sites = rhine_client.sites()
    assert sorted(s.name for s in sites) == ["BER-ADLERSHOF", "FRA-OSTHAFEN"]
    assert {s.tz for s in sites} == {"Europe/Berlin"}
    assets = {a.name: a.types for a in rhine_client.assets("FRA-OSTHAFEN")}
    assert {"Chiller 1", "North Chiller 1", "Boiler-1", "HW-Pump-1", "VAV-2-14", "Meter Hall-A"} <= set(assets)
    assert Counter(t for ts in assets.values() for t in ts) >= Counter({"boiler": 3, "pump": 4, "vav": 5, "meter": 3})
    sensors = {s.short_name: s.unit for s in rhine_client.sensors("FRA-OSTHAFEN", "VAV-2-14")}
    assert sensors["Room Temp"] == sensors["Room Temp Setpoint"] == "°C"
    rows = rhine_client.history(
        "FRA-OSTHAFEN",
        ["Main Meter"],
        "Active Power",
        datetime(2024, 3, 4, tzinfo=BERLIN),
        datetime(2024, 3, 5, tzinfo=BERLIN),
    )
    assert 90 <= len(rows) <= 96 and rows[0].unit == "kW" and rows[0].timestamp.endswith("+01:00")
    assert all(r.value > 0 for r in rows)


def test_north_chiller_1_is_not_chiller_1(rhine_client):
    truth = CachedTruth(SkySparkTruth(rhine_client))
    now = "2024-03-05T09:00:00+01:00"
    task = Task.model_validate(
        {
            "id": "x",
            "question": "Is there a Chiller 2 at FRA-OSTHAFEN?",
            "now": now,
            "expect": {"yes_no": {"exists": {"site": "FRA-OSTHAFEN", "asset": "Chiller 2"}}},
        }
    )
    no = Evidence("No: there is no asset Chiller 2 at FRA-OSTHAFEN", {}, task.question)
    assert check_task(task, no, truth).passed
    assert not check_task(task, Evidence("Yes: North Chiller 2", {}, task.question), truth).passed
    listing = Task.model_validate(
        {
            "id": "y",
            "question": "List the chillers at FRA-OSTHAFEN",
            "now": now,
            "expect": {"answer_lists": {"of": "assets", "site": "FRA-OSTHAFEN", "name_contains": "Chiller"}},
        }
    )
    assert not check_task(listing, Evidence("North Chiller 1 and North Chiller 2"), truth).passed
    assert check_task(listing, Evidence("Chiller 1, North Chiller 1 and North Chiller 2"), truth).passed


def _generator():
    spec = importlib.util.spec_from_file_location("generate_rhine", PROJECT_ROOT / "bench" / "generate_rhine.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_rhine_task_files_are_current():
    gen = _generator()
    for which in ("analysis", "synthetic"):
        text = gen.render(gen.DEFAULT_SEED, which)
        assert text == gen.render(gen.DEFAULT_SEED, which)
        assert (TASKS / f"{which}-rhine.yaml").read_text(encoding="utf-8") == text, (
            "stale: run python bench/generate_rhine.py"
        )


def test_every_rhine_task_fits_the_rhine_plant_and_not_the_default(rhine_client, skyspark_client):
    truth = CachedTruth(SkySparkTruth(rhine_client))
    ana, syn = load_tasks(TASKS / "analysis-rhine.yaml"), load_tasks(TASKS / "synthetic-rhine.yaml")
    assert ana.dataset == syn.dataset == "rhine"
    assert len(ana.tasks) >= 60 and len(syn.tasks) >= 40
    problems = [p for tf in (ana, syn) for task in tf.tasks for p in validate_task(task, truth)]
    assert problems == []
    default = CachedTruth(SkySparkTruth(skyspark_client))
    assert validate_task(ana.tasks[0], default)  # the names are not the default plant's


def test_simulate_accepts_a_builtin_name(monkeypatch):
    from edge_agent.commands import simulate as sim_cmd
    from edge_agent.skyspark import simulator

    seen = {}

    class Fake:
        url = "http://x"

        def __init__(self, addr, **kw):
            seen.update(kw)

        def serve_forever(self):
            raise KeyboardInterrupt

        def server_close(self):
            pass

    monkeypatch.setattr(simulator, "SimulatorServer", Fake)
    result = CliRunner().invoke(sim_cmd.simulate, ["--dataset", "rhine", "--password", "pw", "--port", "0"])
    assert result.exit_code == 0, result.output
    assert seen["dataset"] is builtin("rhine")
    bad = CliRunner().invoke(sim_cmd.simulate, ["--dataset", "atlantis", "--password", "pw"])
    assert bad.exit_code == 2 and "atlantis" in bad.output
