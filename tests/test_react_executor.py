"""Every branch of the ReAct executor, driven by the scripted LLM (control flow only, no model)."""

from __future__ import annotations

import json
import re
import threading

import pytest
from pydantic import Field

from edge_agent.agent.prompting import FEEDBACK_HEADING, QUESTION_LABEL
from edge_agent.agent.react import SEED_THOUGHT, react_system, run_trial, scratchpad
from edge_agent.agent.runtime import AgentRuntime
from edge_agent.agent.steps import parse_step
from edge_agent.agent.trajectory import AgentEvent
from edge_agent.clock import Clock
from edge_agent.config import AgentSettings
from edge_agent.failures import Interrupted
from edge_agent.filestore import FileStore
from edge_agent.llm.base import MeteredLLM, Usage
from edge_agent.llm.scripted import ScriptedLLM
from edge_agent.toolkit import AGENT_ASK_TOOL, FILE_REF, ToolArgs, ToolContext, ToolError, ToolRegistry, tool

NOW = "2024-06-14T10:30:00+00:00"


class SiteArgs(ToolArgs):
    site_name: str


CALLS: list[str] = []


@tool("sites", "List the sites this gateway can see.")
def sites_tool(args, ctx) -> str:
    CALLS.append("sites")
    return "sites: POKMAIN, RCHMAIN"


@tool("assets", "List the assets of one site.", SiteArgs)
def assets_tool(args: SiteArgs, ctx) -> str:
    CALLS.append(f"assets:{args.site_name}")
    if args.site_name not in ("POKMAIN", "RCHMAIN"):
        raise ToolError(f"no site named {args.site_name!r}; the closest is 'POKMAIN'")
    return f"assets of {args.site_name}: Chiller 1, AHU 2"


@tool("broken", "Fail every time.")
def broken_tool(args, ctx) -> str:
    CALLS.append("broken")
    raise RuntimeError("disk on fire")


@tool("bigtext", "Return a very long text.")
def bigtext_tool(args, ctx) -> str:
    return " ".join(f"word{i}" for i in range(2000))


@tool("bigrows", "Return a long JSON array.")
def bigrows_tool(args, ctx) -> str:
    return json.dumps([{"ts": f"2024-06-{d:02d}", "value": d * 1.5} for d in range(1, 31)] * 4)


@tool("stopper", "Ask the runtime to cancel the request.")
def stopper_tool(args, ctx) -> str:
    ctx.cancel.set()
    return "stopping"


def step(thought: str, action: str, args: dict | None = None) -> str:
    return f"Thought: {thought}\nAction: {action}\nAction Input: {json.dumps(args or {})}"


def finish(answer: str, thought: str = "I have the answer.") -> str:
    return step(thought, "Finish", {"answer": answer})


@pytest.fixture(autouse=True)
def _clear_calls():
    CALLS.clear()


@pytest.fixture
def make_rt(tmp_path):
    def make(replies, *, examples: str = "", ask_requester=None, events=None, **agent):
        llm = ScriptedLLM(replies)
        reg = ToolRegistry([sites_tool, assets_tool, broken_tool, bigtext_tool, bigrows_tool, stopper_tool])
        if ask_requester is not None:
            reg = reg.with_tool(AGENT_ASK_TOOL)
        ctx = ToolContext(
            files=FileStore(tmp_path / "files"), clock=Clock(NOW), ask_requester=ask_requester, cancel=threading.Event()
        )
        settings = AgentSettings(**{"max_steps": 6, **agent})
        sink = events if events is not None else []
        rt = AgentRuntime(
            llm=MeteredLLM(llm), tools=reg, ctx=ctx, settings=settings, examples=examples, emit=sink.append
        )
        return rt, llm

    return make


def react_prompts(llm: ScriptedLLM):
    return [p for role, p, _ in llm.prompts if role == "react"]


def test_finish_on_first_step(make_rt):
    rt, llm = make_rt([finish("There are two sites.")])
    trial = run_trial("How many sites are there?", rt)
    assert trial.outcome == "finished"
    assert trial.answer == "There are two sites."
    assert [s.kind for s in trial.steps] == ["finish"]
    assert trial.parse_failures == 0 and trial.loops_caught == 0
    assert llm.roles() == ["react"]


def test_tool_call_observation_comes_from_runtime(make_rt):
    rt, llm = make_rt(
        [step("List the sites.", "sites") + "\nObservation: sites: FAKESITE", finish("POKMAIN and RCHMAIN")]
    )
    trial = run_trial("Which sites exist?", rt)
    assert trial.outcome == "finished"
    first = trial.steps[0]
    assert (first.kind, first.ok, first.action) == ("tool", True, "sites")
    assert first.observation == "sites: POKMAIN, RCHMAIN"
    assert "FAKESITE" not in react_prompts(llm)[1].assistant_prefix
    assert "Observation: sites: POKMAIN, RCHMAIN" in react_prompts(llm)[1].assistant_prefix
    assert CALLS == ["sites"]


def test_tool_error_becomes_observation_and_model_recovers(make_rt):
    rt, _ = make_rt(
        [
            step("Assets of POK.", "assets", {"site_name": "POK"}),
            step("Use the suggested name.", "assets", {"site_name": "POKMAIN"}),
            finish("Chiller 1 and AHU 2"),
        ]
    )
    trial = run_trial("What assets does POKMAIN have?", rt)
    assert trial.outcome == "finished"
    bad = trial.steps[0]
    assert not bad.ok and bad.kind == "tool"
    assert bad.observation.startswith("Error: no site named 'POK'") and "POKMAIN" in bad.observation
    assert trial.steps[1].ok and "Chiller 1" in trial.steps[1].observation


def test_tool_crash_is_an_observation(make_rt):
    rt, _ = make_rt([step("Try it.", "broken"), finish("It failed.")])
    trial = run_trial("Run the broken tool.", rt)
    assert trial.outcome == "finished"
    assert not trial.steps[0].ok
    assert "failed" in trial.steps[0].observation and "disk on fire" in trial.steps[0].observation


def test_invalid_arguments_are_not_run(make_rt):
    rt, llm = make_rt([step("Assets.", "assets", {"site": "POKMAIN"}), finish("done")])
    trial = run_trial("Assets of POKMAIN?", rt)
    bad = trial.steps[0]
    assert bad.kind == "invalid" and not bad.ok
    assert "invalid arguments for assets" in bad.observation and "site_name" in bad.observation
    assert bad.action == "assets" and bad.action_input == {"site": "POKMAIN"}
    assert CALLS == []
    assert trial.parse_failures == 1
    # the model sees the error in its scratchpad
    assert "invalid arguments for assets" in react_prompts(llm)[1].assistant_prefix


def test_invalid_json_input(make_rt):
    rt, _ = make_rt(["Thought: x\nAction: assets\nAction Input: {site_name: POKMAIN}", finish("ok")])
    trial = run_trial("Assets?", rt)
    assert trial.steps[0].kind == "invalid"
    assert "not valid JSON" in trial.steps[0].observation
    assert CALLS == []


def test_unknown_tool_lists_the_real_ones(make_rt):
    rt, _ = make_rt([step("Use the weather.", "weather", {"city": "Paris"}), finish("no weather tool")])
    trial = run_trial("Weather?", rt)
    bad = trial.steps[0]
    assert bad.kind == "invalid" and bad.action == "weather"
    assert "no tool named 'weather'" in bad.observation and "sites" in bad.observation
    assert trial.outcome == "finished"


def test_self_ask_is_a_separate_call(make_rt):
    def self_ask_reply(prompt, role, constraint):
        assert role == "self-ask"
        assert "What is the day before 2024-06-14?" in prompt.user
        assert "Observation: sites: POKMAIN, RCHMAIN" in prompt.user  # the scratchpad so far
        assert "Which day" in prompt.user  # the task
        assert "Tools you can call" not in prompt.system
        return "2024-06-13\n\nTask: more text the model should not keep"

    rt, llm = make_rt(
        [
            step("Sites first.", "sites"),
            step("Work out yesterday.", "Self-Ask", {"question": "What is the day before 2024-06-14?"}),
            self_ask_reply,
            finish("2024-06-13"),
        ]
    )
    trial = run_trial("Which day was yesterday?", rt)
    assert llm.roles() == ["react", "react", "self-ask", "react"]
    sa = trial.steps[1]
    assert sa.kind == "self_ask" and sa.ok and sa.observation == "2024-06-13"
    assert sa.usage.generated_tokens > 0  # the self-ask call is accounted to its step
    assert trial.answer == "2024-06-13"


def test_agentask_with_reply(make_rt):
    asked = []

    def requester(question):
        asked.append(question)
        return "POKMAIN please"

    rt, llm = make_rt(
        [step("Which site?", "agentask", {"question": "Which site do you mean?"}), finish("POKMAIN")],
        ask_requester=requester,
    )
    trial = run_trial("Show the chillers.", rt)
    assert asked == ["Which site do you mean?"]
    s = trial.steps[0]
    assert s.kind == "ask_requester" and s.ok and "POKMAIN please" in s.observation
    assert "agentask" in react_prompts(llm)[0].system


def test_agentask_without_reply(make_rt):
    rt, _ = make_rt(
        [step("Which site?", "agentask", {"question": "Which site?"}), finish("assumed POKMAIN")],
        ask_requester=lambda q: None,
    )
    trial = run_trial("Show the chillers.", rt)
    s = trial.steps[0]
    assert s.kind == "ask_requester" and not s.ok
    assert "No reply came" in s.observation
    assert trial.outcome == "finished"


def test_agentask_absent_without_requester(make_rt):
    rt, llm = make_rt([step("Which site?", "agentask", {"question": "Which site?"}), finish("x")])
    trial = run_trial("Show the chillers.", rt)
    assert "agentask" not in react_prompts(llm)[0].system
    assert trial.steps[0].kind == "invalid" and "no tool named 'agentask'" in trial.steps[0].observation


def test_repeated_action_gets_feedback_then_ends_trial(make_rt):
    # a failing call repeated: run once more with a note, then loop feedback, then the trial stops
    bad = lambda t: step(t, "assets", {"site_name": "NOPE"})  # noqa: E731
    rt, llm = make_rt(
        [bad("Start by listing."), bad("Again."), bad("Once more."), bad("And again.")], loop_repeats=2, max_steps=8
    )
    trial = run_trial("Which sites?", rt)
    kinds = [s.kind for s in trial.steps]
    assert kinds == ["tool", "tool", "loop", "loop"]
    assert "Do not repeat it" in trial.steps[1].observation  # first repeat: run, with a note
    assert "Loop detected" in trial.steps[2].observation and "Change course" in trial.steps[2].observation
    assert "stopped" in trial.steps[3].observation
    assert CALLS == ["assets:NOPE", "assets:NOPE"]  # the caught repeats were not run
    assert trial.outcome == "loop" and trial.loops_caught == 2
    assert "Loop detected" in react_prompts(llm)[3].assistant_prefix


def test_repeating_a_successful_call_offers_finish_then_stops(make_rt):
    rt, llm = make_rt(
        [step("Start by listing.", "sites"), step("Again.", "sites"), step("Once more.", "sites")],
        loop_repeats=2,
        max_steps=8,
    )
    trial = run_trial("Which sites?", rt)
    assert [s.kind for s in trial.steps] == ["tool", "loop", "loop"]
    assert "same call as step 1" in trial.steps[1].observation and "POKMAIN, RCHMAIN" in trial.steps[1].observation
    assert "Finish" in trial.steps[1].observation
    assert "stopped" in trial.steps[2].observation
    assert CALLS == ["sites"]  # the result was in hand: never run again
    assert trial.outcome == "loop" and trial.loops_caught == 2


def test_finish_after_a_repeated_call_answers_from_the_evidence(make_rt):
    rt, _ = make_rt(
        [step("List.", "sites"), step("List again.", "sites"), finish("POKMAIN and RCHMAIN")], loop_repeats=2
    )
    trial = run_trial("Which sites?", rt)
    assert [s.kind for s in trial.steps] == ["tool", "loop", "finish"]
    assert trial.outcome == "finished" and trial.answer == "POKMAIN and RCHMAIN"


def test_loop_feedback_lets_the_model_change_course(make_rt):
    rt, _ = make_rt(
        [
            step("List.", "sites"),
            step("List again.", "sites"),
            step("Change course.", "assets", {"site_name": "POKMAIN"}),
            finish("Chiller 1"),
        ],
        loop_repeats=1,
    )
    trial = run_trial("Assets?", rt)
    assert [s.kind for s in trial.steps] == ["tool", "loop", "tool", "finish"]
    assert trial.outcome == "finished" and trial.loops_caught == 1


def test_a_repeated_thought_over_a_new_call_runs_with_a_note(make_rt):
    rt, _ = make_rt(
        [
            step("I should look at the assets.", "assets", {"site_name": "POKMAIN"}),
            step("I should look at the assets!", "assets", {"site_name": "RCHMAIN"}),
            finish("Done."),
        ],
        loop_repeats=1,
    )
    trial = run_trial("Assets?", rt)
    assert trial.steps[1].kind == "tool" and trial.steps[1].ok
    assert "Note: this Thought was already written at step 1" in trial.steps[1].observation
    assert trial.outcome == "finished"


def test_a_repeated_thought_over_a_repeated_call_is_a_loop(make_rt):
    rt, _ = make_rt(
        [
            step("I should look at the assets.", "assets", {"site_name": "POKMAIN"}),
            step("I should look at the assets!", "assets", {"site_name": "POKMAIN"}),
            step("i should LOOK at the assets", "assets", {"site_name": "POKMAIN"}),
        ],
        loop_repeats=1,
    )
    trial = run_trial("Assets?", rt)
    assert [s.kind for s in trial.steps[1:]] == ["loop", "loop"] and trial.outcome == "loop"


def test_short_cycle_is_caught(make_rt):
    # two failing calls in turn (a successful one repeated is caught earlier, as "the same call")
    a = lambda t: step(t, "assets", {"site_name": "NOPE1"})  # noqa: E731
    b = lambda t: step(t, "assets", {"site_name": "NOPE2"})  # noqa: E731
    rt, _ = make_rt([a("one"), b("two"), a("three"), b("four"), a("five"), b("six")], loop_repeats=2, max_steps=10)
    trial = run_trial("Assets?", rt)
    assert "cycle" in trial.steps[3].observation
    assert trial.outcome == "loop"
    assert len(trial.steps) == 6


def test_empty_reply_is_retried_with_a_seeded_thought(make_rt):
    rt, llm = make_rt(["", " list the sites.\nAction: sites\nAction Input: {}", finish("two")])
    trial = run_trial("Sites?", rt)
    prompts = react_prompts(llm)
    assert prompts[1].assistant_prefix.endswith(f"Thought: {SEED_THOUGHT}")
    assert trial.steps[0].thought == f"{SEED_THOUGHT} list the sites."
    assert trial.steps[0].kind == "tool" and trial.steps[0].ok
    assert trial.parse_failures == 1 and trial.outcome == "finished"


def test_garbage_twice_becomes_a_recovery_step(make_rt):
    rt, llm = make_rt(["```python\nprint('hi')\n```", "!!!", finish("gave an answer")])
    trial = run_trial("Sites?", rt)
    rec = trial.steps[0]
    assert rec.kind == "recovery" and not rec.ok and "was not a step" in rec.observation
    assert trial.parse_failures == 2
    assert trial.outcome == "finished" and trial.answer == "gave an answer"
    # the scratchpad shows the error, not the garbage as a step
    assert "Observation: Error: the reply" in react_prompts(llm)[2].assistant_prefix
    assert "Action: \n" not in react_prompts(llm)[2].assistant_prefix


def test_max_steps_bounds_the_trial(make_rt):
    replies = [step(f"Try site {i}.", "assets", {"site_name": f"S{i}"}) for i in range(10)]
    rt, llm = make_rt(replies, max_steps=3)
    trial = run_trial("Assets?", rt)
    assert trial.outcome == "max_steps" and len(trial.steps) == 3 and trial.answer is None
    assert len(llm.prompts) == 3


def test_token_budget_bounds_the_trial(make_rt):
    replies = [step(f"Try site {i}.", "assets", {"site_name": f"S{i}"}) for i in range(10)]
    rt, llm = make_rt(replies, max_steps=10, trial_token_budget=1000)
    per_call = llm.count_tokens(react_system(rt.tools))
    trial = run_trial("Assets?", rt)
    assert trial.outcome == "token_budget"
    assert len(trial.steps) == len(llm.prompts) < 10
    assert len(trial.steps) <= 1000 // per_call + 1


def test_cancel_between_steps(make_rt):
    rt, llm = make_rt([step("Stop.", "stopper"), finish("never")])
    trial = run_trial("Anything", rt)
    assert trial.outcome == "cancelled"
    assert len(trial.steps) == 1 and len(llm.prompts) == 1


def test_cancelled_before_start(make_rt):
    rt, llm = make_rt([finish("never")])
    rt.ctx.cancel.set()
    trial = run_trial("Anything", rt)
    assert trial.outcome == "cancelled" and trial.steps == [] and llm.prompts == []


def _cancelled_mid_call(box: dict):
    """A model call that the request's cancel stopped half-way (as `LlamaRuntime` does between chunks);
    `box["rt"]` is the runtime, set once it is made."""

    def reply(prompt, role, constraint):
        box["rt"].ctx.cancel.set()
        raise Interrupted(Usage(prompt_tokens=900, evaluated_tokens=128))

    return reply


def test_a_cancel_during_a_model_call_ends_the_trial_with_no_step_made_up(make_rt):
    """The call stops, nothing is retried and no recovery step is recorded; the call's partial cost is
    accounted for."""
    box: dict = {}
    rt, llm = make_rt([step("List the sites.", "sites"), _cancelled_mid_call(box)])
    box["rt"] = rt
    trial = run_trial("Anything", rt)
    assert trial.outcome == "cancelled" and len(trial.steps) == 1 and trial.parse_failures == 0
    assert llm.roles() == ["react", "react"]
    last = rt.llm.calls[-1]
    assert last.finish_reason == "interrupted" and last.usage.evaluated_tokens == 128


def test_a_cancel_during_self_ask_ends_the_trial_without_its_step(make_rt):
    box: dict = {}
    rt, llm = make_rt(
        [
            step("Work out yesterday.", "Self-Ask", {"question": "What is the day before 2024-06-14?"}),
            _cancelled_mid_call(box),
        ]
    )
    box["rt"] = rt
    trial = run_trial("Anything", rt)
    assert trial.outcome == "cancelled" and trial.steps == [] and llm.roles() == ["react", "self-ask"]


def test_the_runs_cancel_reaches_every_model_call(make_rt):
    """`MeteredLLM` hands its interrupt event (the run's cancel) to the model: a call made after a cancel
    stops before evaluating anything."""
    rt, llm = make_rt([finish("never")])
    rt.llm = MeteredLLM(llm, interrupt=rt.ctx.cancel)
    rt.ctx.cancel.set()
    with pytest.raises(Interrupted):
        rt.llm.complete(react_prompt_for(rt), role="react")
    assert llm.prompts == [] and rt.llm.calls[-1].finish_reason == "interrupted"


def react_prompt_for(rt):
    from edge_agent.agent.react import react_prompt

    return react_prompt("Anything", rt, [])


def test_long_text_observation_is_summarised(make_rt, tmp_path):
    rt, _ = make_rt([step("Get the text.", "bigtext"), finish("long")], observation_max_chars=200)
    trial = run_trial("Text?", rt)
    obs = trial.steps[0].observation
    assert len(obs) < 400
    assert "more characters left out" in obs
    saved = [n for n in rt.ctx.files.names() if n.startswith("bigtext_full")]
    assert len(saved) == 1 and saved[0] in obs
    assert "word1999" in rt.ctx.files.read_json(saved[0])["observation"]


def test_long_rows_observation_says_rows_left_out(make_rt):
    rt, _ = make_rt([step("Get the rows.", "bigrows"), finish("rows")], observation_max_chars=300)
    trial = run_trial("Rows?", rt)
    obs = trial.steps[0].observation
    assert "of 120 rows shown" in obs and "left out" in obs
    assert len(obs) < 500
    saved = [n for n in rt.ctx.files.names() if n.startswith("bigrows_full")]
    assert len(rt.ctx.files.read_json(saved[0])) == 120


def test_events_are_emitted_as_steps_happen(make_rt):
    events: list[AgentEvent] = []
    seen_at_call: list[int] = []

    def reply(prompt, role, constraint):
        seen_at_call.append(len(events))
        return finish("done")

    rt, _ = make_rt([step("List.", "sites"), reply], events=events)
    trial = run_trial("Sites?", rt, trial=2)
    assert [e.kind for e in events] == ["trial_start", "step", "step"]
    assert events[0].trial == 2 and events[0].text == "Sites?"
    assert [e.step for e in events[1:]] == trial.steps
    assert seen_at_call == [2]  # the first step was emitted before the second was generated


def test_feedback_goes_before_the_question(make_rt):
    rt, llm = make_rt([finish("x")])
    run_trial("Which sites?", rt, trial=2, feedback="Review: Not Accomplished. Call sites first.")
    user = react_prompts(llm)[0].user
    assert user.index(FEEDBACK_HEADING) < user.index("Call sites first.") < user.index(QUESTION_LABEL + "Which sites?")
    assert "Call sites first." not in react_prompts(llm)[0].system


def test_stable_prefix_identical_across_steps_trials_and_questions(make_rt):
    examples = "Question: example\nThought: e\nAction: sites\nAction Input: {}\nObservation: sites: X\n"
    rt, llm = make_rt(
        [
            step("List.", "sites"),
            step("Assets.", "assets", {"site_name": "POKMAIN"}),
            finish("a"),
            finish("b"),
            step("List.", "sites"),
            finish("c"),
        ],
        examples=examples,
    )
    run_trial("Question one?", rt)
    run_trial("Question one?", rt, trial=2, feedback="Try harder.")
    run_trial("A different question?", rt)
    systems = {p.system for p in react_prompts(llm)}
    assert len(systems) == 1
    system = systems.pop()
    assert system.index("Thought:") < system.index("Tools you can call") < system.index(examples.strip())
    assert "- sites: List the sites" in system and "Question one" not in system
    # within a trial each step's prompt extends the previous one (KV prefix reuse)
    prompts = react_prompts(llm)[:3]
    for before, after in zip(prompts, prompts[1:]):
        assert after.assistant_prefix.startswith(before.assistant_prefix)
        assert after.user == before.user


def test_model_failure_ends_the_trial_without_crashing(make_rt):
    def boom(prompt, role, constraint):
        raise ValueError("Requested tokens exceed context window")

    rt, _ = make_rt([step("List.", "sites"), boom])
    trial = run_trial("Sites?", rt)
    assert trial.outcome == "error"
    assert "context window" in trial.steps[-1].observation


def test_scratchpad_helper_renders_the_trial(make_rt):
    rt, _ = make_rt([step("List.", "sites"), finish("POKMAIN and RCHMAIN")])
    trial = run_trial("Sites?", rt)
    text = scratchpad(trial)
    assert text.startswith("Thought: List.\nAction: sites\nAction Input: {}\nObservation: sites: POKMAIN")
    assert 'Action: Finish\nAction Input: {"answer": "POKMAIN and RCHMAIN"}' in text
    # each rendered step parses back to the same action
    first = text.split("Observation:")[0]
    assert parse_step(first, rt.tools).action == "sites"
    assert "earlier step left out" in scratchpad(trial, max_chars=60)


def test_finish_answer_is_bounded(make_rt):
    rt, _ = make_rt([finish("x" * 5000)], answer_max_chars=100)
    trial = run_trial("Long?", rt)
    assert len(trial.answer) <= 100


def test_step_constraint_is_used_and_seeded_retry_continues_it(make_rt):
    rt, llm = make_rt(
        [
            "",
            " list them.\nAction: sites\nAction Input: {}",
            ' I know.\nAction: Finish\nAction Input: {"answer": "two"}',
        ],
        thought_max_chars=100,
    )
    trial = run_trial("Sites?", rt)
    assert trial.outcome == "finished" and trial.answer == "two"
    assert trial.steps[1].thought == "I know."
    react = [(p, c) for role, p, c in llm.prompts if role == "react"]
    # every step prompt ends in the open "Thought:" and the model writes the blank with its first word
    assert [p.assistant_prefix[-18:] for p, _ in react][:2] == ["Thought:", "Thought: I need to"]
    assert react[2][0].assistant_prefix.endswith("Observation: sites: POKMAIN, RCHMAIN\nThought:")
    used = [c for _, c in react]
    assert all(c.name == "step-rest" and not c.regex.startswith("Thought") for c in used)
    # the constraints accept exactly what the executor parsed
    used[1].check(" list them.\nAction: sites\nAction Input: {}")
    used[2].check(' I know.\nAction: Finish\nAction Input: {"answer": "two"}')
    with pytest.raises(ValueError):
        used[2].check(" I know.\nAction: weather\nAction Input: {}")


class ReadArgs(ToolArgs):
    file_name: str = Field(..., json_schema_extra=FILE_REF)


@tool("saver", "Save a small file.")
def saver_tool(args, ctx) -> str:
    return f"saved to {ctx.files.write_json([1, 2], 'numbers')}"


@tool("reader", "Read a file.", ReadArgs)
def reader_tool(args: ReadArgs, ctx) -> str:
    return json.dumps(ctx.files.read_json(args.file_name))


def test_file_arguments_are_constrained_to_the_files_the_run_made(tmp_path):
    llm = ScriptedLLM(
        [
            step("Save.", "saver"),
            lambda prompt, role, c: step(
                "Read it.",
                "reader",
                {"file_name": re.search(r"numbers-[0-9a-f]{8}\.json", prompt.assistant_prefix).group(0)},
            ),
            finish("1 and 2"),
        ]
    )
    ctx = ToolContext(files=FileStore(tmp_path / "files"), clock=Clock(NOW))
    rt = AgentRuntime(
        llm=MeteredLLM(llm), tools=ToolRegistry([saver_tool, reader_tool]), ctx=ctx, settings=AgentSettings(max_steps=4)
    )
    trial = run_trial("Save and read numbers.", rt)
    assert trial.outcome == "finished" and trial.steps[1].observation == "[1, 2]"
    constraints = [c for role, _, c in llm.prompts if role == "react"]
    assert "reader" not in constraints[0].regex  # no file yet: the reader cannot be called
    (made,) = ctx.files.names()
    pattern = re.compile(constraints[1].regex, re.S)
    ok = step("Read it.", "reader", {"file_name": made})[len("Thought: ") :]
    made_up = step("Read it.", "reader", {"file_name": "numbers-00000000.json"})[len("Thought: ") :]
    assert pattern.fullmatch(ok) and not pattern.fullmatch(made_up)
