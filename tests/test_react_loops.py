"""Loop detection and observation summaries: direct tests and hypothesis properties."""

from __future__ import annotations

import json

from hypothesis import given, settings
from hypothesis import strategies as st

from edge_agent.agent.loops import LoopDetector, normalise_thought, signature
from edge_agent.agent.prompting import question_block, render_scratchpad, summarise_observation
from edge_agent.agent.trajectory import StepRecord
from edge_agent.filestore import FileStore


def feed(det: LoopDetector, seq):
    verdicts = []
    for thought, action, args in seq:
        verdicts.append(det.check(thought, action, args))
        det.record(thought, action, args)
    return verdicts


def test_repeat_counts_grow():
    det = LoopDetector(2)
    v = feed(det, [("a", "sites", {}), ("b", "sites", {}), ("c", "sites", {})])
    assert v[0] is None
    assert (v[1].kind, v[1].repeats, v[1].first_step) == ("repeat_action", 1, 1)
    assert v[2].repeats == 2


def test_argument_order_does_not_hide_a_repeat():
    assert signature("t", {"a": 1, "b": 2}) == signature("t", {"b": 2, "a": 1})
    det = LoopDetector(1)
    v = feed(det, [("x", "t", {"a": 1, "b": 2}), ("y", "t", {"b": 2, "a": 1})])
    assert v[1] is not None and v[1].kind == "repeat_action"


def test_thought_repeat_ignores_case_and_punctuation():
    assert normalise_thought("I need the  SITES!") == normalise_thought("i need the sites")
    det = LoopDetector(1)
    v = feed(
        det,
        [
            ("I need the sites.", "sites", {}),
            ("i need the SITES", "assets", {"site_name": "X"}),
            ("I NEED the sites", "assets", {"site_name": "X"}),
        ],
    )
    assert v[1].kind == "repeat_thought" and v[1].repeats == 0  # a new call: a note, not a loop
    assert v[2].repeats >= 1  # the same call again


def test_two_and_three_cycles():
    det = LoopDetector(1)
    a, b, c = ("p", "a", {}), ("q", "b", {}), ("r", "c", {})
    v = feed(det, [a, b, a, b])
    assert v[3].kind == "cycle" and "a, b" in v[3].detail and v[3].first_step == 1
    det = LoopDetector(1)
    v = feed(det, [a, b, c, a, b, c])
    assert v[5].kind == "cycle" and "a, b, c" in v[5].detail


def test_feedback_text():
    det = LoopDetector(1)
    v = feed(det, [("x", "sites", {}), ("y", "sites", {})])[1]
    assert "Change course" in v.feedback() and "stopped" in v.feedback(final=True)


@settings(max_examples=60, deadline=None)
@given(st.lists(st.text(min_size=1, max_size=12), min_size=1, max_size=12, unique=True))
def test_distinct_steps_are_never_loops(names):
    # distinct actions, inputs and thoughts: nothing may be flagged
    thoughts = [f"step {i} {'x' * i}" for i in range(len(names))]
    det = LoopDetector(1)
    assert all(v is None for v in feed(det, [(t, "tool", {"arg": n}) for t, n in zip(thoughts, names)]))


@settings(max_examples=60, deadline=None)
@given(st.lists(st.sampled_from(["a", "b", "c"]), min_size=2, max_size=15))
def test_any_repeated_call_is_flagged(actions):
    det = LoopDetector(1)
    verdicts = feed(det, [(f"t{i}", a, {}) for i, a in enumerate(actions)])
    for i, (a, v) in enumerate(zip(actions, verdicts)):
        assert (v is not None) == (a in actions[:i])


@settings(max_examples=80, deadline=None)
@given(text=st.text(max_size=3000), limit=st.integers(min_value=80, max_value=600))
def test_summary_is_bounded_and_says_what_was_left_out(tmp_path_factory, text, limit):
    store = FileStore(tmp_path_factory.mktemp("fs"))
    out = summarise_observation(text, limit, files=store, tool="t")
    if len(text) <= limit:
        assert out == text
    else:
        assert len(out) <= limit + 160
        assert "left out" in out
        saved = store.names()
        assert len(saved) == 1 and saved[0] in out


@settings(max_examples=40, deadline=None)
@given(
    rows=st.lists(
        st.fixed_dictionaries({"ts": st.text(max_size=30), "v": st.floats(allow_nan=False)}), min_size=1, max_size=80
    ),
    limit=st.integers(min_value=80, max_value=400),
)
def test_row_summary_counts_rows(tmp_path_factory, rows, limit):
    text = json.dumps(rows)
    store = FileStore(tmp_path_factory.mktemp("fs"))
    out = summarise_observation(text, limit, files=store, tool="rows")
    if len(text) > limit:
        assert f"of {len(rows)} rows shown" in out
        assert len(out) <= limit + 160
        assert store.read_json(store.names()[0]) == rows


def test_summary_points_at_an_existing_result_file(tmp_path):
    store = FileStore(tmp_path)
    name = store.write_json([1, 2, 3], "history")
    out = summarise_observation(f"wrote {name}: " + "x" * 900, 100, files=store, tool="history")
    assert f"the full data is in {name}" in out
    assert store.names() == [name]  # nothing extra saved


def test_question_block_and_scratchpad_layout():
    assert question_block("Q?") == "Question: Q?"
    assert question_block("Q?", "fix it").endswith("fix it\n\nQuestion: Q?")
    steps = [
        StepRecord(index=1, thought="t", action="sites", action_input={}, observation="o"),
        StepRecord(
            index=2,
            thought="",
            action="",
            action_input=None,
            observation="Error: not a step",
            kind="recovery",
            ok=False,
        ),
    ]
    assert render_scratchpad(steps) == (
        "Thought: t\nAction: sites\nAction Input: {}\nObservation: o\nObservation: Error: not a step\n"
    )
