"""The Distill agent on a scripted LLM: code-resolved dates, grounded entities, parts, safe fallback."""

from __future__ import annotations

import json

from edge_agent.agent.distill import distill, render_distilled
from tests.xen_helpers import RoleScript, ground, harness

TWO = "Get Chiller 6 and Chiller 9 Tonnage for last week at POKMAIN in a single file"


def test_dates_come_from_code_and_invented_names_are_dropped(tmp_path):
    reply = json.dumps(
        {
            "sites": ["POKMAIN", "NYC"],
            "assets": ["Chiller 6", "Chiller 12"],
            "sensors": ["Tonnage"],
            "goal": "Get the tonnage of two chillers in one file",
            "parts": ["chiller 6"],
        }
    )
    h = harness(tmp_path, RoleScript(distill=[reply]))
    ground(h, TWO)
    d = distill(TWO, h.rt)
    assert d.start == "2020-06-01T00:00:00" and d.end == "2020-06-08T00:00:00"
    assert d.period == "last week"
    assert d.sites == ["POKMAIN"]  # NYC is not in the question
    assert d.assets == ["Chiller 6", "Chiller 9"]  # Chiller 12 invented; Chiller 9 found by code
    assert d.sensors == ["Tonnage"] and d.goal == "Get the tonnage of two chillers in one file"
    assert len(d.parts) == 3 and "one file" in d.parts[-1]  # one part per chiller + the single file
    text = render_distilled(d)
    assert "start 2020-06-01, final 2020-06-08 (last week)" in text  # midnights as dates: half the tokens
    assert "site_name POKMAIN; asset_names Chiller 6, Chiller 9; sensor_name Tonnage" in text


def test_invalid_model_reply_keeps_the_code_facts(tmp_path):
    h = harness(tmp_path, RoleScript(distill=["nonsense", '{"sites": 3}']))
    ground(h, "What was the Supply Air Temp of B705 AHU 1 at POKMAIN at midnight?")
    d = distill("What was the Supply Air Temp of B705 AHU 1 at POKMAIN at midnight?", h.rt)
    assert h.roles() == ["distill", "distill"]
    assert d.assets == ["B705 AHU 1"] and d.sites == ["POKMAIN"] and d.sensors == ["Supply Air Temp"]
    assert d.start == d.end == "2020-06-08T00:00:00"
    assert "start 2020-06-08T00:00:00 and no final (at midnight, one moment)" in render_distilled(d)


def test_distill_is_constrained_to_json(tmp_path):
    h = harness(tmp_path, RoleScript(distill=['{"sites": [], "assets": [], "sensors": [], "goal": "", "parts": []}']))
    distill("What IoT sites are available?", h.rt)
    ((_, prompt, constraint),) = h.llm.prompts
    assert constraint is not None and "parts" in constraint.regex
    assert prompt.user.endswith("What IoT sites are available?")


def test_names_the_model_files_under_the_wrong_kind_are_sorted_by_shape(tmp_path):
    # what SmolLM2-135M really replied for this question (seen while writing the prompt)
    reply = json.dumps({"sites": ["B020", "POKMAIN"], "assets": ["POKMAIN"], "sensors": ["POKMAIN"], "goal": "POKMAIN"})
    h = harness(tmp_path, RoleScript(distill=[reply]))
    ground(h, "What is the power consumption of B020 at POKMAIN?")
    d = distill("What is the power consumption of B020 at POKMAIN?", h.rt)
    # the names come from the linking: B020 is no asset (the code's fact says so), POKMAIN the site
    assert (d.sites, d.assets, d.goal) == (["POKMAIN"], [], "")
    assert any("B020" in m for m in d.missing)


def test_code_parts_that_restate_the_facts_are_not_shown_again():
    from edge_agent.agent.distill import ONE_FILE_PART, default_parts
    from edge_agent.agent.trajectory import Distilled

    assets, sensors = ["Chiller 6", "Chiller 9"], ["Tonnage"]
    one_file = Distilled(assets=assets, sensors=sensors, parts=default_parts(TWO, assets, sensors))
    text = render_distilled(one_file)
    assert "Parts" not in text and f"Then {ONE_FILE_PART}" in text and "Tonnage of Chiller 6" not in text
    two_files = Distilled(
        assets=assets, sensors=sensors, parts=default_parts("Tonnage of Chiller 6 and 9", assets, sensors)
    )
    assert "Parts" not in render_distilled(two_files) and "one file" not in render_distilled(two_files)
    model = Distilled(assets=assets, sensors=sensors, parts=["read Chiller 6", "read Chiller 9", "compare them"])
    assert "Parts: (1) read Chiller 6; (2) read Chiller 9; (3) compare them" in render_distilled(model)
