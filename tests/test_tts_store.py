"""The Tiny Trajectory Store: shipped trajectories validate, broken ones name their file, selection fits the budget."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from hypothesis import given, settings as hsettings, strategies as st

from edge_agent import PROJECT_ROOT
from edge_agent.agent.steps import parse_step
from edge_agent.config import AgentSettings
from edge_agent.toolkit import ToolRegistry
from edge_agent.trajectory_store import (MAX_STEPS, TinyTrajectory, TrajectoryLoadError, TrajectoryStore,
                                         load_handcrafted)

TTS = PROJECT_ROOT / "tts"
TOOLS = ToolRegistry.from_dir(PROJECT_ROOT / "tools")
SHIPPED = load_handcrafted(TTS, TOOLS)
STORE = TrajectoryStore(SHIPPED)
CORE = ["tool/finish", "tool/histories_range", "tool/self_ask", "tool/sites"]
CORE_TEXT = "\n\n".join(STORE.get(i).render() for i in CORE)


def chars4(text: str) -> int:
    return max(1, len(text) // 4)


def words(text: str) -> int:
    return len(text.split())


def test_every_shipped_trajectory_loads_and_covers_every_tool_and_category():
    assert len(SHIPPED) >= 17
    assert {t.category for t in SHIPPED} == {"tool", "entity", "workflow"}
    used = {s.action for t in SHIPPED for s in t.steps}
    for name in ("sites", "assets", "sensors", "histories", "jsonreader", "jsonmerge", "currentdatetime", "Self-Ask",
                 "Finish"):
        assert name in used, f"no trajectory teaches {name}"
    assert set(TOOLS.names) <= used
    assert all(1 <= len(t.steps) <= MAX_STEPS for t in SHIPPED)
    assert sum(1 for t in SHIPPED if t.category == "workflow" and len({s.action for s in t.steps}) >= 2) >= 4


@pytest.mark.parametrize("traj", SHIPPED, ids=lambda t: t.id)
def test_rendered_steps_parse_as_real_steps(traj):
    """Each example step, as rendered into the prompt, is exactly what the step parser accepts."""
    text = traj.render()
    assert text.startswith(f"Question: {traj.question.strip()}")
    blocks = text.split("Thought: ")[1:]
    assert len(blocks) == len(traj.steps)
    for block, step in zip(blocks, traj.steps):
        body = "Thought: " + block.split("\nObservation: ")[0].rstrip("\n")
        parsed = parse_step(body, TOOLS)
        assert parsed.action == step.action and parsed.action_input == step.action_input


def _write(folder: Path, rel: str, text: str) -> Path:
    path = folder / rel
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


BROKEN = {
    "unknown_tool": ("question: q\nsteps:\n  - {thought: t, action: weather, action_input: {}, observation: o}\n",
                     "unknown tool 'weather'"),
    "bad_args": ("question: q\nsteps:\n  - {thought: t, action: assets, action_input: {site: X}, observation: o}\n",
                 "invalid arguments for assets"),
    "missing_arg": ("question: q\nsteps:\n  - {thought: t, action: sensors, action_input: {site_name: X}, "
                    "observation: o}\n", "asset_name"),
    "no_observation": ("question: q\nsteps:\n  - {thought: t, action: sites, action_input: {}}\n",
                       "needs its Observation"),
    "finish_not_last": ("question: q\nsteps:\n  - {thought: t, action: Finish, action_input: {answer: a}}\n"
                        "  - {thought: t, action: sites, action_input: {}, observation: o}\n", "must be the last"),
    "too_long": ("question: q\nsteps:\n" + "  - {thought: t, action: sites, action_input: {}, observation: o}\n" * 4,
                 "steps"),
    "not_yaml": ("question: [unclosed\n", "cannot read YAML"),
    "extra_key": ("question: q\nanswer: x\nsteps:\n  - {thought: t, action: sites, action_input: {}, "
                  "observation: o}\n", "answer"),
}


@pytest.mark.parametrize("name", sorted(BROKEN))
def test_a_broken_trajectory_is_rejected_naming_its_file(tmp_path, name):
    shutil.copytree(TTS, tmp_path / "tts")
    text, expected = BROKEN[name]
    bad = _write(tmp_path / "tts", f"workflow/{name}.yaml", text)
    with pytest.raises(TrajectoryLoadError) as err:
        load_handcrafted(tmp_path / "tts", TOOLS)
    assert str(bad) in str(err.value) and expected in str(err.value)


def test_a_trajectory_outside_the_three_folders_is_rejected(tmp_path):
    bad = _write(tmp_path / "tts", "misc/x.yaml", "question: q\nsteps:\n  - {thought: t, action: sites, "
                                                   "action_input: {}, observation: o}\n")
    with pytest.raises(TrajectoryLoadError, match="misc"):
        load_handcrafted(tmp_path / "tts", TOOLS)
    assert bad.exists()


def test_a_tool_missing_from_the_registry_fails_the_load():
    only_json = ToolRegistry.from_dir(PROJECT_ROOT / "tools", only=["jsonreader", "jsonmerge", "currentdatetime"])
    with pytest.raises(TrajectoryLoadError, match="unknown tool"):
        load_handcrafted(TTS, only_json)


@hsettings(max_examples=200, deadline=None)
@given(budget=st.integers(min_value=0, max_value=5000), question=st.text(max_size=200),
       counter=st.sampled_from([chars4, words]))
def test_selection_stays_within_budget_and_in_stable_order(budget, question, counter):
    chosen = STORE.select(question, budget, counter)
    text = "\n\n".join(t.render() for t in chosen)
    if chosen:
        assert counter(text) <= budget
    assert [t.id for t in chosen] == sorted((t.id for t in chosen), key=lambda i: (i not in CORE, i))
    assert STORE.select(question, budget, counter) == chosen  # deterministic
    if counter(CORE_TEXT) + len(CORE) <= budget:  # the core block (+ separators) leads every question's examples
        assert [t.id for t in chosen[:len(CORE)]] == CORE


@hsettings(max_examples=50, deadline=None)
@given(q1=st.text(max_size=120), q2=st.text(max_size=120))
def test_questions_share_the_core_prefix_under_the_default_budget(q1, q2):
    budget = AgentSettings().examples_token_budget
    one, two = STORE.render_for(q1, _Counter(), budget), STORE.render_for(q2, _Counter(), budget)
    assert one.startswith(CORE_TEXT) and two.startswith(CORE_TEXT)


@hsettings(max_examples=50, deadline=None)
@given(q=st.text(max_size=120))
def test_the_react_prompt_marks_the_part_every_question_shares(q):
    """`Prompt.shared` covers instructions, tools and the core examples, and no question's own examples."""
    from types import SimpleNamespace

    from edge_agent.agent.react import react_prompt, react_system

    budget = AgentSettings().examples_token_budget
    core = STORE.render_core(_Counter(), budget)
    assert core == CORE_TEXT
    rt = SimpleNamespace(tools=TOOLS, examples=STORE.render_for(q, _Counter(), budget), core_examples=core)
    prompt = react_prompt("Which sites are there?", rt, [])
    shared = prompt.system[:prompt.shared]
    assert shared == react_system(TOOLS, core)[:prompt.shared] and shared.rstrip().endswith(CORE_TEXT.rstrip()[-40:])
    assert len(shared) >= len(react_system(TOOLS, "")) + len(core) - 40


@hsettings(max_examples=50, deadline=None)
@given(q1=st.text(max_size=80), q2=st.text(max_size=80))
def test_with_room_for_everything_every_question_gets_the_same_prefix(q1, q2):
    big = 10 ** 6
    assert STORE.render_for(q1, _Counter(), big) == STORE.render_for(q2, _Counter(), big)


class _Counter:
    model_name = "chars4"

    def count_tokens(self, text: str) -> int:
        return chars4(text)


def test_the_most_relevant_example_wins_under_a_small_budget():
    core = chars4(CORE_TEXT) + 1
    budget = core + chars4(STORE.get("tool/jsonmerge").render()) + 5
    chosen = STORE.select("merge two json files into one file", budget, chars4)
    assert [t.id for t in chosen] == CORE + ["tool/jsonmerge"]
    chosen = STORE.select("what was the value at midnight, a point in time", core + chars4(
        STORE.get("tool/histories_point").render()) + 5, chars4)
    assert [t.id for t in chosen] == CORE + ["tool/histories_point"]


def test_render_for_uses_the_configured_budget(settings):
    store = TrajectoryStore.open(settings, TOOLS)
    text = store.render_for("Get Chiller 6 Tonnage", _Counter())
    assert 0 < chars4(text) <= settings.agent.examples_token_budget
    small = TrajectoryStore.open(settings.model_copy(update={"agent": settings.agent.model_copy(
        update={"examples_token_budget": 200})}), TOOLS)
    assert chars4(small.render_for("Get Chiller 6 Tonnage", _Counter())) <= 200


def test_generated_trajectories_persist_with_provenance(settings):
    store = TrajectoryStore.open(settings, TOOLS, handcrafted=False)
    assert len(store) == 0
    traj = TinyTrajectory(question="List the sites", steps=[
        {"thought": "I list them.", "action": "sites", "action_input": {}, "observation": "found 6 sites"},
        {"thought": "Done.", "action": "Finish", "action_input": {"answer": "6 sites"}}])
    stored = store.add_generated(traj, {"task_id": "t1", "model": "m", "round": 2, "run_id": "r1",
                                        "strategy": "react-review"})
    assert stored.id == "gen/1" and stored.category == "generated"
    again = TrajectoryStore.open(settings, TOOLS)
    loaded = again.get("gen/1")
    assert loaded is not None and loaded.render() == traj.render()
    assert '"task_id": "t1"' in loaded.source and '"round": 2' in loaded.source
    assert len(again) == len(SHIPPED) + 1
    with pytest.raises(TrajectoryLoadError, match="unknown tool"):
        store.add_generated(TinyTrajectory(question="q", steps=[
            {"thought": "t", "action": "nope", "action_input": {}, "observation": "o"}]), {})
