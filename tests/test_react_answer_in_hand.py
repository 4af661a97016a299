"""A Finish written by code once the answer is in hand (`finishing.answer_in_hand`), on two plant styles.

When the grounding writes the whole answer from the trial's calls and the Review's evidence checks pass on
it, the Finish step has one possible action and one possible answer: it is recorded without a model call
(`StepRecord.by == "code"`). Where anything is still open — a sensor or asset not read, a call over another
period, one file asked for and two written — the model is asked as before. Scripted LLM, real file store,
grounding over the test plants of `tests/plants.py`.
"""

from __future__ import annotations

from datetime import datetime
from zoneinfo import ZoneInfo

import pytest
from pydantic import Field

from edge_agent import PROJECT_ROOT
from edge_agent.agent.distill import facts_from, render_distilled
from edge_agent.agent.finishing import ANSWER_IN_HAND
from edge_agent.agent.react import run_trial
from edge_agent.grounding.run import Grounding
from edge_agent.toolkit import Said, ToolArgs, ToolContext, ToolRegistry, load_tools_from_file, tool
from tests.plants import OTHER, POK
from tests.xen_helpers import RoleScript, finish, harness, step

NOW = datetime(2020, 6, 8, 9, 0, tzinfo=ZoneInfo("America/New_York"))


class Hist(ToolArgs):
    site_name: str
    asset_names: list[str] = Field(..., min_length=1)
    sensor_name: str
    start: str
    final: str


class NoArgs(ToolArgs):
    pass


@tool("histories", "Read a sensor's history on assets.", Hist, needs=("period",), answers=True)
def histories(args: Hist, ctx: ToolContext) -> Said:
    name = ctx.files.write_json(
        [{"asset": a, "sensor": args.sensor_name, "val": 4.5} for a in args.asset_names], "history"
    )
    head = "; ".join(f"{a} {args.sensor_name}: max 4.5" for a in args.asset_names) + f"; saved to {name}"
    return Said(f"{len(args.asset_names)} series from {args.start} to {args.final}: {head}", head)


def _sites_tool(catalog):
    @tool("sites", "List the sites.", NoArgs, provides=("site",))
    def sites(args, ctx: ToolContext) -> Said:
        head = f"found {len(catalog.sites)} sites: {', '.join(catalog.sites)}"
        return Said(head, head)

    return sites


STYLES = {  # catalog, site, two assets, two sensors of both
    "pok": (POK, "POKMAIN", "Chiller 6", "Chiller 9", "Tonnage", "Power"),
    "other": (OTHER, "Plant-North", "CH-01", "CH-02", "kW_total", "Flow Rate"),
}


def _setup(tmp_path, style: str, question: str, *replies, **agent):
    """A react harness grounded on `style`'s plant; each reply is a step text or a function of the harness."""
    catalog = STYLES[style][0]
    tools = ToolRegistry(
        [histories, _sites_tool(catalog), *load_tools_from_file(PROJECT_ROOT / "plugins" / "jsonfiles.py")]
    )
    box = {}
    script = RoleScript(react=[(lambda p, r, c, f=f: f(box["h"])) if callable(f) else f for f in replies])
    h = box["h"] = harness(tmp_path, script, strategy="react", tools=tools, **agent)
    h.rt.grounding = Grounding.build(question, catalog, NOW)
    h.rt.grounding.set_facts(render_distilled(facts_from(question, h.rt)))  # as `xen.solve` does
    return h


def _read(h, site, assets, sensor, *, start=None, final=None):
    g = h.rt.grounding
    return step(
        "I read the history.",
        "histories",
        {
            "site_name": site,
            "asset_names": list(assets),
            "sensor_name": sensor,
            "start": start or g.start,
            "final": final or g.final,
        },
    )


def _saved(h) -> list[str]:
    return h.rt.ctx.files.names()


@pytest.mark.parametrize("style", STYLES)
def test_a_data_answer_in_hand_is_finished_by_code_without_a_model_call(tmp_path, style):
    _, site, a, b, sensor, _ = STYLES[style]
    question = f"Get {a} and {b} {sensor} from last week at {site} in a single file."
    h = _setup(tmp_path, style, question, lambda h: _read(h, site, [a, b], sensor))
    trial = run_trial(question, h.rt)
    assert trial.outcome == "finished" and len(h.prompts("react")) == 1  # the data call only
    last = trial.steps[-1]
    assert (last.action, last.by, last.kind, last.thought) == ("Finish", "code", "finish", ANSWER_IN_HAND)
    assert last.usage.prompt_tokens == 0 and last.usage.generated_tokens == 0
    assert trial.answer == h.rt.grounding.answer_prefix(1) and _saved(h)[0] in trial.answer
    assert f"{a} {sensor}: max 4.5" in trial.answer and f"{b} {sensor}: max 4.5" in trial.answer
    assert all(c.grounded for c in trial.claims)
    assert [s.by for s in trial.steps] == ["model", "code"]


@pytest.mark.parametrize("style", STYLES)
def test_a_second_sensor_not_yet_read_leaves_the_choice_to_the_model(tmp_path, style):
    _, site, a, _, s1, s2 = STYLES[style]
    question = f"What were the {s1} and {s2} of {a} at {site} last week?"
    h = _setup(tmp_path, style, question, lambda h: _read(h, site, [a], s1), lambda h: _read(h, site, [a], s2))
    trial = run_trial(question, h.rt)
    assert len(h.prompts("react")) == 2 and trial.steps[-1].by == "code"
    assert f"{a} {s1}: max 4.5" in trial.answer and f"{a} {s2}: max 4.5" in trial.answer


@pytest.mark.parametrize("style", STYLES)
def test_an_asset_not_yet_read_leaves_the_choice_to_the_model(tmp_path, style):
    _, site, a, b, sensor, _ = STYLES[style]
    question = f"What was the {sensor} of {a} and {b} at {site} last week?"
    h = _setup(tmp_path, style, question, lambda h: _read(h, site, [a], sensor), lambda h: _read(h, site, [b], sensor))
    trial = run_trial(question, h.rt)
    assert len(h.prompts("react")) == 2 and [s.by for s in trial.steps] == ["model", "model", "code"]


@pytest.mark.parametrize("style", STYLES)
def test_a_call_over_another_period_is_not_the_answer(tmp_path, style):
    _, site, a, _, sensor, _ = STYLES[style]
    question = f"What was the {sensor} of {a} at {site} last week?"
    h = _setup(
        tmp_path,
        style,
        question,
        lambda h: _read(h, site, [a], sensor, start="2020-05-01T00:00:00", final="2020-05-08T00:00:00"),
        lambda h: finish(h.rt.grounding.answer_prefix(1)),
    )
    trial = run_trial(question, h.rt)
    assert len(h.prompts("react")) == 2 and trial.steps[-1].by == "model"  # the model was asked to finish


@pytest.mark.parametrize("style", STYLES)
def test_two_files_for_one_file_asked_wait_for_the_merge(tmp_path, style):
    _, site, a, b, sensor, _ = STYLES[style]
    question = f"Get {a} and {b} {sensor} from last week at {site} in one file."

    def merge(h):
        first, second = sorted(_saved(h))
        return step("I merge them.", "jsonmerge", {"file_name_1": first, "file_name_2": second})

    h = _setup(
        tmp_path, style, question, lambda h: _read(h, site, [a], sensor), lambda h: _read(h, site, [b], sensor), merge
    )
    trial = run_trial(question, h.rt)
    assert len(h.prompts("react")) == 3 and [s.action for s in trial.steps] == [
        "histories",
        "histories",
        "jsonmerge",
        "Finish",
    ]
    merged = trial.steps[2].observation
    assert trial.steps[-1].by == "code" and any(name in trial.answer and name in merged for name in _saved(h))


@pytest.mark.parametrize("style", STYLES)
def test_a_names_question_answered_by_a_listing_is_finished_by_code(tmp_path, style):
    catalog = STYLES[style][0]
    question = "What IoT sites are available?"
    h = _setup(tmp_path, style, question, step("I list the sites.", "sites", {}))
    trial = run_trial(question, h.rt)
    assert len(h.prompts("react")) == 1 and trial.steps[-1].by == "code"
    assert trial.answer == f"Found {len(catalog.sites)} sites: {', '.join(catalog.sites)}"


def test_without_a_catalog_the_model_finishes(tmp_path):
    question = "Get Chiller 6 Tonnage from last week at POKMAIN."
    h = _setup(
        tmp_path,
        "pok",
        question,
        lambda h: _read(h, "POKMAIN", ["Chiller 6"], "Tonnage"),
        finish("Chiller 6 Tonnage was read."),
    )
    h.rt.grounding = Grounding.build(question, None, NOW)
    trial = run_trial(question, h.rt)
    assert len(h.prompts("react")) == 2 and trial.steps[-1].by == "model"


@pytest.mark.parametrize("style, missing", [("pok", "Chiller 7"), ("other", "CH-09")])
def test_a_question_about_what_the_skyspark_lacks_needs_no_model_call(tmp_path, style, missing):
    _, site, _, _, sensor, _ = STYLES[style]
    question = f"Get {missing} {sensor} from last week at {site}."
    h = _setup(tmp_path, style, question)  # no reply scripted: a model call would fail the test
    trial = run_trial(question, h.rt)
    assert h.prompts("react") == [] and trial.outcome == "finished"
    (only,) = trial.steps
    assert (only.action, only.by) == ("Finish", "code") and trial.answer.startswith(f"There is no asset {missing}")


def test_code_writes_no_answer_that_states_what_no_evidence_holds(tmp_path):
    """Without the facts line (the names the SkySpark has instead) the linking fact's suggestions have no
    source: code does not write that answer, the model is asked."""
    question = "Get Chiller 7 Tonnage from last week at POKMAIN."
    h = _setup(tmp_path, "pok", question, finish("There is no asset Chiller 7 at POKMAIN."))
    h.rt.grounding.set_facts("")
    trial = run_trial(question, h.rt)
    assert len(h.prompts("react")) == 1 and trial.steps[0].by == "model"


@pytest.mark.parametrize("style", STYLES)
def test_an_answer_code_wrote_is_never_cut_to_the_models_budget(tmp_path, style):
    """`answer_max_chars` bounds what the model writes; heads of two calls may be longer, and cutting them
    would cut a figure in half (and the cut answer would be refused as stating what nobody said)."""
    _, site, a, b, s1, s2 = STYLES[style]
    question = f"What were the {s1} and {s2} of {a} and {b} at {site} last week?"
    h = _setup(
        tmp_path,
        style,
        question,
        lambda h: _read(h, site, [a, b], s1),
        lambda h: _read(h, site, [a, b], s2),
        answer_max_chars=40,
    )
    trial = run_trial(question, h.rt)
    assert trial.steps[-1].by == "code" and len(trial.answer) > 40
    assert trial.answer == h.rt.grounding.answer_prefix(1) and all(c.grounded for c in trial.claims)


@pytest.mark.parametrize("style, lacking", [("pok", "Fan Speed"), ("other", "FanSpeed")])
def test_an_asset_lacking_one_of_two_sensors_still_has_the_other_read(tmp_path, style, lacking):
    """The missing sensor is a fact of the answer, not all of it: the model reads the one the asset has."""
    _, site, a, _, sensor, _ = STYLES[style]
    question = f"Get the {lacking} and {sensor} of {a} at {site} for last week."
    h = _setup(tmp_path, style, question, lambda h: _read(h, site, [a], sensor))
    assert not h.rt.grounding.answered_by_links()
    trial = run_trial(question, h.rt)
    assert len(h.prompts("react")) == 1 and trial.steps[-1].by == "code"
    assert trial.answer.startswith(f"There is no sensor {lacking} on {a}") and f"{a} {sensor}: max 4.5" in trial.answer
