"""The Tiny Trajectory Store: shipped trajectories validate, broken ones name their file, selection fits the budget."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import settings as hsettings
from hypothesis import strategies as st

from edge_agent import PROJECT_ROOT
from edge_agent.agent.steps import parse_step
from edge_agent.config import AgentSettings
from edge_agent.toolkit import ToolRegistry
from edge_agent.trajectory_store import (
    MAX_STEPS,
    TinyTrajectory,
    TrajectoryLoadError,
    TrajectoryStore,
    load_handcrafted,
)

TTS = PROJECT_ROOT / "tts"
TOOLS = ToolRegistry.from_dir(PROJECT_ROOT / "plugins")
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
    for name in (
        "sites",
        "assets",
        "sensors",
        "histories",
        "jsonreader",
        "jsonmerge",
        "currentdatetime",
        "Self-Ask",
        "Finish",
    ):
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
    "unknown_tool": (
        "question: q\nsteps:\n  - {thought: t, action: weather, action_input: {}, observation: o}\n",
        "unknown tool 'weather'",
    ),
    "bad_args": (
        "question: q\nsteps:\n  - {thought: t, action: assets, action_input: {site: X}, observation: o}\n",
        "invalid arguments for assets",
    ),
    "missing_arg": (
        "question: q\nsteps:\n  - {thought: t, action: sensors, action_input: {site_name: X}, observation: o}\n",
        "asset_name",
    ),
    "no_observation": (
        "question: q\nsteps:\n  - {thought: t, action: sites, action_input: {}}\n",
        "needs its Observation",
    ),
    "finish_not_last": (
        "question: q\nsteps:\n  - {thought: t, action: Finish, action_input: {answer: a}}\n"
        "  - {thought: t, action: sites, action_input: {}, observation: o}\n",
        "must be the last",
    ),
    "too_long": (
        "question: q\nsteps:\n" + "  - {thought: t, action: sites, action_input: {}, observation: o}\n" * 4,
        "steps",
    ),
    "not_yaml": ("question: [unclosed\n", "cannot read YAML"),
    "extra_key": (
        "question: q\nanswer: x\nsteps:\n  - {thought: t, action: sites, action_input: {}, observation: o}\n",
        "answer",
    ),
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
    bad = _write(
        tmp_path / "tts",
        "misc/x.yaml",
        "question: q\nsteps:\n  - {thought: t, action: sites, action_input: {}, observation: o}\n",
    )
    with pytest.raises(TrajectoryLoadError, match="misc"):
        load_handcrafted(tmp_path / "tts", TOOLS)
    assert bad.exists()


def test_a_tool_missing_from_the_registry_fails_the_load():
    only_json = ToolRegistry.from_dir(PROJECT_ROOT / "plugins", only=["jsonreader", "jsonmerge", "currentdatetime"])
    with pytest.raises(TrajectoryLoadError, match="unknown tool"):
        load_handcrafted(TTS, only_json)


@hsettings(max_examples=200, deadline=None)
@given(
    budget=st.integers(min_value=0, max_value=5000),
    question=st.text(max_size=200),
    counter=st.sampled_from([chars4, words]),
)
def test_selection_stays_within_budget_and_in_stable_order(budget, question, counter):
    chosen = STORE.select(question, budget, counter)
    text = "\n\n".join(t.render() for t in chosen)
    if chosen:
        assert counter(text) <= budget
    assert [t.id for t in chosen] == sorted((t.id for t in chosen), key=lambda i: (i not in CORE, i))
    assert STORE.select(question, budget, counter) == chosen  # deterministic
    if counter(CORE_TEXT) + len(CORE) <= budget:  # the core block (+ separators) leads every question's examples
        assert [t.id for t in chosen[: len(CORE)]] == CORE


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
    shared = prompt.system[: prompt.shared]
    assert shared == react_system(TOOLS, core)[: prompt.shared]
    if rt.examples == core:  # core examples only: the whole system part is shared
        assert shared == react_system(TOOLS, core)
    else:
        assert shared.rstrip().endswith(CORE_TEXT.rstrip()[-40:])
    assert len(shared) >= len(react_system(TOOLS, "")) + len(core) - 40


class _Counter:
    model_name = "chars4"

    def count_tokens(self, text: str) -> int:
        return chars4(text)


def test_the_group_of_the_most_relevant_example_is_shown_whole_in_its_fixed_order():
    big = 10**6
    merge = STORE.select("merge two json files into one file", big, chars4)
    assert [t.id for t in merge] == CORE + [t.id for t in STORE.members("files")]
    assert "tool/jsonmerge" in [t.id for t in merge]
    point = STORE.select("what was the value at midnight, a point in time", big, chars4)
    assert "tool/histories_point" in [t.id for t in point]
    assert {t.group for t in point[len(CORE) :]} == {STORE.get("tool/histories_point").group}


def test_a_tight_budget_trims_a_group_the_same_way_for_every_question():
    group = STORE.get("tool/jsonmerge").group
    budget = chars4(CORE_TEXT) + len(CORE) + chars4(STORE.members(group)[0].render()) + 2
    one = STORE.select("merge two json files into one file", budget, chars4)
    two = STORE.select("Put the Power of Chiller 1 and Chiller 2 in a single file", budget, chars4)
    assert STORE.group_for("Put the Power of Chiller 1 and Chiller 2 in a single file") == group
    assert one == two and [t.id for t in one] == CORE + [STORE.members(group)[0].id]


def test_every_shipped_example_belongs_to_a_named_group_that_fits_the_default_budget():
    budget = AgentSettings().examples_token_budget
    groups = {t.group for t in SHIPPED if not t.core}
    assert "" not in groups and len(groups) >= 4
    for group in groups:
        text = "\n\n".join(t.render() for t in [*(STORE.get(i) for i in CORE), *STORE.members(group)])
        assert chars4(text) <= budget, group


@hsettings(max_examples=100, deadline=None)
@given(questions=st.lists(st.text(max_size=120), min_size=1, max_size=12))
def test_questions_get_one_examples_text_per_group(questions):
    """However many questions, there are at most as many examples texts (KV prefixes) as groups + 1."""
    budget = AgentSettings().examples_token_budget
    texts = {STORE.render_for(q, _Counter(), budget) for q in questions}
    groups = {STORE.group_for(q) for q in questions}
    assert len(texts) <= len(groups)


def test_render_for_uses_the_configured_budget(settings):
    store = TrajectoryStore.open(settings, TOOLS)
    text = store.render_for("Get Chiller 6 Tonnage", _Counter())
    assert 0 < chars4(text) <= settings.agent.examples_token_budget
    small = TrajectoryStore.open(
        settings.model_copy(update={"agent": settings.agent.model_copy(update={"examples_token_budget": 200})}), TOOLS
    )
    assert chars4(small.render_for("Get Chiller 6 Tonnage", _Counter())) <= 200


def test_generated_trajectories_persist_with_provenance(settings):
    store = TrajectoryStore.open(settings, TOOLS, handcrafted=False)
    assert len(store) == 0
    traj = TinyTrajectory(
        question="List the sites",
        steps=[
            {"thought": "I list them.", "action": "sites", "action_input": {}, "observation": "found 6 sites"},
            {"thought": "Done.", "action": "Finish", "action_input": {"answer": "6 sites"}},
        ],
    )
    stored = store.add_generated(
        traj, {"task_id": "t1", "model": "m", "round": 2, "run_id": "r1", "strategy": "react-review"}
    )
    assert stored.id == "gen/1" and stored.category == "generated"
    assert stored.group == "generated"  # no hand-crafted example to be near
    again = TrajectoryStore.open(settings, TOOLS)
    loaded = again.get("gen/1")
    assert loaded is not None and loaded.render() == traj.render()
    assert '"task_id": "t1"' in loaded.source and '"round": 2' in loaded.source
    assert len(again) == len(SHIPPED) + 1
    with pytest.raises(TrajectoryLoadError, match="unknown tool"):
        store.add_generated(
            TinyTrajectory(
                question="q", steps=[{"thought": "t", "action": "nope", "action_input": {}, "observation": "o"}]
            ),
            {},
        )


def test_a_generated_trajectory_joins_the_group_of_the_nearest_hand_crafted_example(settings):
    store = TrajectoryStore.open(settings, TOOLS)
    traj = TinyTrajectory(
        question="Which sensors does Chiller 4 at POKMAIN have?",
        steps=[
            {
                "thought": "I list them.",
                "action": "sensors",
                "action_input": {"site_name": "POKMAIN", "asset_name": "Chiller 4"},
                "observation": "found 3 sensors",
            },
            {"thought": "Done.", "action": "Finish", "action_input": {"answer": "3 sensors"}},
        ],
    )
    stored = store.add_generated(traj, {"task_id": "t2"})
    expected = STORE.group_for(traj.question)
    assert expected and stored.group == expected
    again = TrajectoryStore.open(
        settings.model_copy(update={"agent": settings.agent.model_copy(update={"examples": "grouped"})}), TOOLS
    )
    assert again.get(stored.id).group == expected
    # it comes first among its group's members (this plant's own solved task), so it is shown
    assert again.members(expected)[0].id == stored.id
    assert stored.id in [t.id for t in again.select(traj.question, 10**6, chars4)]


@hsettings(max_examples=200, deadline=None)
@given(q=st.text(max_size=200))
def test_kind_words_keep_only_words_of_the_question_that_are_not_spelt_like_names(q):
    from edge_agent.trajectory_store import kind_words

    kept = kind_words(q).split()
    assert all(w in q for w in kept)
    assert not any(ch.isdigit() or ch == "_" for w in kept for ch in w)
    assert not any(len(w) > 1 and w.isupper() for w in kept)


@pytest.mark.parametrize(
    "one, two",
    [
        ("What sensors does Chiller 6 at POKMAIN have?", "What sensors does B040 AHU 1 at RCHMAIN have?"),
        (
            "How much Energy did the B705_Total meter at POKMAIN record yesterday?",
            "How much Energy did the B050_Total meter at RCHMAIN record yesterday?",
        ),
        (
            "How much power did B002 AHU 2-1-1 use on 6/14/22 at the POKMAIN site?",
            "How much power did CTA-07 use on 6/14/22 at the LYON2 site?",
        ),
    ],
)
def test_the_same_question_about_differently_named_plants_gets_the_same_examples(one, two):
    """Names in the question (and a name that happens to be in an example) do not pick the group."""
    assert STORE.group_for(one) == STORE.group_for(two) is not None
    assert STORE.render_for(one, _Counter(), 10**6) == STORE.render_for(two, _Counter(), 10**6)


def test_a_question_that_shares_no_word_with_any_example_gets_the_largest_group():
    sizes = {}
    for t in SHIPPED:
        if not t.core:
            sizes[t.group] = sizes.get(t.group, 0) + 1
    assert STORE.group_for("zzz qqq") == max(sizes, key=sizes.get)
    assert STORE.render_for("zzz qqq", _Counter(), 10**6) == STORE.render_for("", _Counter(), 10**6)
    assert TrajectoryStore([t for t in SHIPPED if t.core]).group_for("anything") is None


@hsettings(max_examples=30, deadline=None)
@given(q=st.text(max_size=120))
def test_core_mode_shows_the_core_examples_only(q):
    core_only = TrajectoryStore(SHIPPED, grouped=False)
    budget = AgentSettings().examples_token_budget
    assert core_only.render_for(q, _Counter(), budget) == core_only.render_core(_Counter(), budget) == CORE_TEXT


def test_the_examples_setting_reaches_the_store(settings):
    grouped = settings.model_copy(update={"agent": settings.agent.model_copy(update={"examples": "grouped"})})
    assert TrajectoryStore.open(settings, TOOLS).render_for("List the sites", _Counter()) == CORE_TEXT  # default
    assert TrajectoryStore.open(grouped, TOOLS).render_for("List the sites", _Counter()) != CORE_TEXT
