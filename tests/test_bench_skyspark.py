"""The checker against the real simulator and the real `histories` tool: the truth it computes is
what a correct tool call produces, and near-misses of it (range, asset, value) fail."""

from __future__ import annotations

from datetime import datetime
from zoneinfo import ZoneInfo

import pytest

from edge_agent import PROJECT_ROOT
from edge_agent.evaluation.checker import Evidence, check_task
from edge_agent.evaluation.tasks import Task
from edge_agent.evaluation.truth import CachedTruth, SkySparkTruth
from edge_agent.skyspark.dataset import expected_history
from edge_agent.toolkit import ToolRegistry

NY = ZoneInfo("America/New_York")


@pytest.fixture
def truth(skyspark_client):
    return CachedTruth(SkySparkTruth(skyspark_client))


@pytest.fixture
def histories():
    return ToolRegistry.from_dir(PROJECT_ROOT / "plugins").get("histories")


def run_tool(tool, ctx, **args):
    result = tool.run({"site_name": "POKMAIN", **args}, ctx)
    assert result.ok, result.observation
    name = ctx.files.created[-1]
    return name, ctx.files.read_json(name)


FILE_TASK = Task.model_validate(
    {
        "id": "pok-06",
        "question": "Get Chiller 6 and Chiller 9 Tonnage from last week at POKMAIN in a single file.",
        "now": "2020-06-08T09:00:00-04:00",
        "expect": {
            "file": {
                "site": "POKMAIN",
                "assets": ["Chiller 6", "Chiller 9"],
                "sensor": "Tonnage",
                "start": "2020-06-01T00:00:00-04:00",
                "end": "2020-06-08T00:00:00-04:00",
            }
        },
    }
)


def test_file_from_the_real_tool(truth, histories, iot_ctx):
    good = run_tool(
        histories,
        iot_ctx,
        asset_names=["Chiller 6", "Chiller 9"],
        sensor_name="Tonnage",
        start="2020-06-01",
        final="2020-06-08",
    )
    # the tool's rows are full point names ("Chiller 6 Tonnage") with offsets: the checker still matches them
    assert good[1][0]["sensor_name"] == "Chiller 6 Tonnage"
    assert check_task(FILE_TASK, Evidence("done", dict([good])), truth).passed

    utc = run_tool(
        histories,
        iot_ctx,
        asset_names=["chiller 9", "Chiller 6"],
        sensor_name="Chiller 6 Tonnage",
        start="2020-06-01T04:00:00Z",
        final="2020-06-08T04:00:00Z",
    )
    assert check_task(FILE_TASK, Evidence("done", dict([utc])), truth).passed

    wrong_range = run_tool(
        histories,
        iot_ctx,
        asset_names=["Chiller 6", "Chiller 9"],
        sensor_name="Tonnage",
        start="2020-06-01",
        final="2020-06-09",
    )
    one_asset = run_tool(
        histories, iot_ctx, asset_names=["Chiller 6"], sensor_name="Tonnage", start="2020-06-01", final="2020-06-08"
    )
    other_sensor = run_tool(
        histories,
        iot_ctx,
        asset_names=["Chiller 6", "Chiller 9"],
        sensor_name="Power",
        start="2020-06-01",
        final="2020-06-08",
    )
    utc_midnights = run_tool(
        histories,
        iot_ctx,
        asset_names=["Chiller 6", "Chiller 9"],
        sensor_name="Tonnage",
        start="2020-06-01T00:00:00Z",
        final="2020-06-08T00:00:00Z",
    )
    for bad in (wrong_range, one_asset, other_sensor, utc_midnights):
        verdict = check_task(FILE_TASK, Evidence("done", dict([bad])), truth)
        assert not verdict.passed, bad[0]
    detail = check_task(FILE_TASK, Evidence("done", dict([one_asset])), truth).checks[0].detail
    assert "missing rows" in detail and "chiller 9" in detail


def test_value_and_point_from_the_real_tool(truth, histories, iot_ctx):
    name, rows = run_tool(
        histories, iot_ctx, asset_names=["B020_Total"], sensor_name="Power", start="2023-01-13", final="2023-01-14"
    )
    peak = max(r["value"] for r in rows)
    direct = max(
        v
        for _, v in expected_history(
            "POKMAIN", "B020_Total", "Power", datetime(2023, 1, 13, tzinfo=NY), datetime(2023, 1, 14, tzinfo=NY)
        )
    )
    assert peak == direct
    task = Task.model_validate(
        {
            "id": "v",
            "question": "highest power?",
            "now": "2023-02-01T10:00:00-05:00",
            "expect": {
                "value": {
                    "site": "POKMAIN",
                    "asset": "B020_Total",
                    "sensor": "Power",
                    "aggregate": "max",
                    "start": "2023-01-13T00:00:00-05:00",
                    "end": "2023-01-14T00:00:00-05:00",
                }
            },
        }
    )
    assert check_task(task, Evidence(f"The peak was {peak:.1f} kW on jan 13 '23."), truth).passed
    assert not check_task(task, Evidence(f"The peak was {peak * 1.01:.1f} kW on jan 13 '23."), truth).passed

    _, point = run_tool(
        histories, iot_ctx, asset_names=["Chiller 6"], sensor_name="Tonnage", start="2020-06-10T00:00:00"
    )
    at = Task.model_validate(
        {
            "id": "p",
            "question": "at midnight?",
            "now": "2020-06-10T14:30:00-04:00",
            "expect": {
                "value": {
                    "site": "POKMAIN",
                    "asset": "Chiller 6",
                    "sensor": "Tonnage",
                    "aggregate": "at",
                    "at": "2020-06-10T00:00:00-04:00",
                }
            },
        }
    )
    assert len(point) == 1
    assert check_task(at, Evidence(f"It was {point[0]['value']} tons at midnight."), truth).passed


def test_counts_and_lists_come_from_the_server(truth, skyspark_client):
    sensors = skyspark_client.sensors("POKMAIN", "Chiller 9")
    task = Task.model_validate(
        {
            "id": "c",
            "question": "how many?",
            "now": "2020-06-08T09:00:00-04:00",
            "expect": {
                "count": {"of": "sensors", "site": "POKMAIN", "asset": "Chiller 9"},
                "answer_lists": {"of": "sites"},
            },
        }
    )
    sites = ", ".join(s.name for s in skyspark_client.sites())
    assert check_task(task, Evidence(f"Chiller 9 has {len(sensors)} sensors. Sites: {sites}."), truth).passed
    assert not check_task(task, Evidence(f"Chiller 9 has {len(sensors) + 1} sensors. Sites: {sites}."), truth).passed
