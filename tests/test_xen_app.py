"""The ReActXen loop through `EdgeAgent.ask` (scripted LLM): metrics, run log, events, strategies."""

from __future__ import annotations

import json
import os

import pytest

from edge_agent import PROJECT_ROOT
from edge_agent.app import EdgeAgent
from edge_agent.llm.scripted import ScriptedLLM
from edge_agent.runlog.reader import RunLogReader
from edge_agent.toolkit import ToolRegistry
from tests.xen_helpers import DISTILL_OK, NOW, RoleScript, finish, reflect_json, registry, review_json, step

Q = "Get Chiller 6 Tonnage for last week at POKMAIN"
HIST = step(
    "I read the history.",
    "histories",
    {
        "site_name": "POKMAIN",
        "asset_names": ["Chiller 6"],
        "sensor_name": "Tonnage",
        "start": "2020-06-01T00:00:00-04:00",
        "final": "2020-06-08T00:00:00-04:00",
    },
)


def test_reactxen_run_records_the_table_3_metrics(settings):
    script = RoleScript(
        distill=[DISTILL_OK],
        react=[finish("done, I think"), HIST, finish("Chiller 6 data written.")],
        review=[review_json("Accomplished")],  # trial 1 is settled by the checks
        reflect=[reflect_json("It answered without data.", "Call histories first.")],
    )
    agent = EdgeAgent(settings, llm=ScriptedLLM(script), tools=registry(), skyspark=lambda: None)
    events = []
    result = agent.ask(Q, now=NOW, strategy="reactxen", use_examples=False, on_event=events.append)
    m = result.metrics
    assert result.status == "answered" and result.answer == "Chiller 6 data written."  # no catalog: nothing to say
    # trial 1: early victory without any tool call → evidence says Not Accomplished despite the model
    assert result.trials[0].review.status == "Not Accomplished"
    assert (m.completed_round1, m.completed_final, m.trials, m.reflections) == (False, True, 2, 1)
    assert m.calls_by_role == {"distill": 1, "react": 3, "review": 1, "reflect": 1}
    assert m.llm_calls == 6 and m.trajectory_length == 3 and m.final_review == "Accomplished"
    assert m.tokens_sent > 0 and m.tokens_received > 0 and m.tokens_evaluated > 0
    assert [e.kind for e in events if e.kind != "step"] == [
        "distill",
        "trial_start",
        "review",
        "reflect",
        "trial_start",
        "review",
        "final",
    ]

    detail = RunLogReader(settings.db_path).detail(result.run_id)
    assert detail is not None
    row = detail.run
    assert row.completed_final == 1 and row.completed_round1 == 0
    assert json.loads(row.metrics or "{}")["reflections"] == 1
    assert [t.review_status for t in detail.trials] == ["Not Accomplished", "Accomplished"]
    assert (detail.trials[0].reflection or "").startswith("Diagnosis: It answered without data.")
    assert json.loads(row.distilled or "{}")["period"] == "last week"
    assert {c.role for c in detail.calls} == {"distill", "react", "review", "reflect"}


@pytest.mark.parametrize(
    "examples, shown",
    [
        ("core", "Question: What IoT sites are available?"),  # a core example (the default: core examples only)
        ("grouped", "Question: Get the Energy of B045_Total at AUSWEST for last week."),  # of the question's group
    ],
)
def test_same_question_same_examples_for_every_strategy(settings, examples, shown):
    """The baseline gets the same model and the same examples; only the loop around it differs."""
    tools = ToolRegistry.from_dir(PROJECT_ROOT / "plugins")  # the shipped examples validate against these
    settings = settings.model_copy(update={"agent": settings.agent.model_copy(update={"examples": examples})})
    systems = {}
    for strategy in ("react", "react-review", "reactxen"):
        llm = ScriptedLLM(
            RoleScript(
                distill=[DISTILL_OK],
                react=[finish("Chiller 6 data written.")],
                review=[review_json("Accomplished")],
                reflect=[reflect_json()],
            )
        )
        agent = EdgeAgent(settings, llm=llm, tools=tools, skyspark=lambda: None)
        agent.ask(Q, now=NOW, strategy=strategy, max_trials=1)
        systems[strategy] = [p.system for r, p, _ in llm.prompts if r == "react"][0]
    assert systems["react"] == systems["react-review"] == systems["reactxen"]
    assert shown in systems["react"]
    if examples == "core":
        assert "Question: Get the Energy of B045_Total at AUSWEST for last week." not in systems["react"]


@pytest.mark.parametrize("examples", ["core", "grouped"])
def test_warm_evaluates_the_stable_part_every_question_starts_with(settings, examples):
    """`EdgeAgent.warm` (the daemon, before its first job): react calls with no token generated over the
    instructions, tools and core examples, with the analysis tools and then without (the one a plain question
    uses last, so the live cache holds it); a question's react prompt starts with that very text."""
    tools = ToolRegistry.from_dir(PROJECT_ROOT / "plugins")
    settings = settings.model_copy(update={"agent": settings.agent.model_copy(update={"examples": examples})})
    llm = ScriptedLLM(RoleScript(react=[finish("Chiller 6 data written.")]))
    agent = EdgeAgent(settings, llm=llm, tools=tools, skyspark=lambda: None)
    usage = agent.warm()
    assert llm.roles() == ["react", "react"] and usage["generated_tokens"] == 0 and usage["evaluated_tokens"] > 0
    agent.ask(Q, now=NOW, strategy="react", max_trials=1)
    (_, analysis, _), (_, warm, _), (_, first, _) = llm.prompts
    assert "rank" in analysis.system and "rank" not in warm.system
    assert len(os.path.commonprefix([first.system, warm.system])) >= first.shared > 0  # the part KV reuse keeps
    if examples == "core":
        assert first.system == warm.system
