"""One ReAct step: ask the model, read its reply back into a call, check it, run it, record it.

- the reply is one constrained LLM call (role "react") whose prompt is laid out stable-first (`stepio.react_prompt`);
  an empty or unusable reply is retried once with a seeded thought (`Trial.parse_failures`), and a reply that is
  still not a step, or not a valid one (unknown tool, invalid JSON or arguments), is recorded as an error
  Observation the model can act on;
- `Finish` goes to `finishing` (accepted only when every figure and name in it has a source);
- a call is checked before it runs: the same call as an earlier step of the trial (its result is in hand: Finish is
  offered, once), a repeated action, thought or short cycle (`loops`: feedback, then the trial ends), and against
  the grounding (a name the SkySpark lacks is counted; a measure the question does not ask for is refused);
- the call runs (`actions`), its Observation is summarised to `observation_max_chars` and handed to the grounding.
"""

from __future__ import annotations

import json
import time
from typing import Any

from edge_agent.agent.actions import run_action
from edge_agent.agent.finishing import finish_step
from edge_agent.agent.loops import Verdict
from edge_agent.agent.prompting import summarise_observation
from edge_agent.agent.stepio import (
    SEED_THOUGHT,
    STOP,
    THOUGHT_OPEN,
    is_step_shaped,
    react_prompt,
    reply_field,
    step_grammar,
    trim_reply,
)
from edge_agent.agent.steps import ACTION_INPUT, THOUGHT, ParsedStep, StepParseError, one_line, parse_step
from edge_agent.agent.trajectory import StepRecord
from edge_agent.agent.trial_state import NO_CALL, Call, Outcome, TrialState
from edge_agent.llm.base import Completion, Usage
from edge_agent.toolkit import ASK_REQUESTER, FINISH, SELF_ASK


def take_step(t: TrialState, index: int) -> StepRecord:
    """Ask the model for step `index`, run what it asks for, and record the step."""
    started = time.monotonic()
    read = read_reply(t, index, started)
    if isinstance(read, StepRecord):  # not a step, or not a valid one: recorded with its error
        return read
    parsed, usage = read
    thought = one_line(parsed.thought, t.rt.settings.thought_max_chars)
    if parsed.action == FINISH:
        return finish_step(t, index, started, usage, thought, parsed)
    call = Call(thought, parsed.action, parsed.action_input)
    verdict = t.loops.check(parsed.thought, parsed.action, parsed.action_input)
    earlier = same_call(t, parsed.action, parsed.action_input)
    t.loops.record(parsed.thought, parsed.action, parsed.action_input)
    if (caught := loop_caught(t, earlier, verdict)) is not None:
        return t.record(index, started, usage, call, caught)
    return run_call(t, index, started, usage, parsed, call, verdict)


def generate(t: TrialState, seeded: bool) -> Completion:
    """The model's reply to the step prompt, its Thought label (and the seed, if any) put back in front."""
    seed = SEED_THOUGHT if seeded else ""
    prompt = react_prompt(t.question, t.rt, t.trial.steps, feedback=t.feedback, seed=seed)
    only = (FINISH,) if t.finish_only else None
    g = t.rt.grounding
    grounded = g.for_step(t.rt.tools, t.trial.number) if g is not None else None
    # the answer's start written by code
    forced = len(grounded.answer.prefix) if grounded is not None and grounded.answer is not None else 0
    constraint = step_grammar(t.rt, seed, t.trial.steps, only, grounded, t.failed_steps)
    t.fixed = getattr(constraint, "fixed", {})  # arguments with one possible value: code writes them
    out = t.call(
        prompt,
        role="react",
        constraint=constraint,
        max_tokens=t.rt.settings.step_max_tokens + forced,
        stop=STOP,
    )
    cont = out.text
    if cont.lstrip().startswith(THOUGHT_OPEN):  # an unconstrained model may write the label again
        return out
    if seeded:
        joiner = "" if not cont or cont[0] in " \n" else " "
        text = f"{THOUGHT}{seed}{joiner}{cont}"
    else:
        text = f"{THOUGHT}{cont.lstrip(' ')}"
    return out.model_copy(update={"text": text})


def read_reply(t: TrialState, index: int, started: float) -> tuple[ParsedStep, Usage] | StepRecord:
    """The model's step, parsed and validated, with the usage it cost; or the recorded step that says why the reply
    was not one (an empty or unusable reply after the seeded retry, an unknown tool, invalid JSON or arguments)."""
    out = generate(t, seeded=False)
    usage = Usage() + out.usage
    text = trim_reply(out.text)
    if not is_step_shaped(text):  # empty or unusable: retry once with a seeded thought
        t.trial.parse_failures += 1
        out = generate(t, seeded=True)
        usage = usage + out.usage
        text = trim_reply(out.text)
        if not is_step_shaped(text):
            t.trial.parse_failures += 1
            shown = one_line(out.text, 80) or "an empty reply"
            return t.record(
                index,
                started,
                usage,
                NO_CALL,
                Outcome(
                    "recovery",
                    False,
                    f"Error: the reply ({shown!r}) was not a step. Write exactly "
                    f"three lines: Thought: ..., Action: <tool name>, "
                    f"Action Input: {{JSON arguments}}.",
                ),
            )
    try:
        return parse_step(text, t.rt.tools, t.fixed), usage
    except StepParseError as exc:
        t.trial.parse_failures += 1
        raw_input = text.split(ACTION_INPUT, 1)[1].strip() if ACTION_INPUT in text else ""
        try:
            action_input: Any = json.loads(raw_input) if raw_input else {}
        except json.JSONDecodeError:
            action_input = raw_input
        return t.record(
            index,
            started,
            usage,
            Call(reply_field("Thought", text), reply_field("Action", text), action_input),
            Outcome("invalid", False, f"Error: {exc}. Nothing was run; correct the step."),
        )


def same_call(t: TrialState, action: str, action_input: Any) -> StepRecord | None:
    """The earlier successful step of this trial with exactly this call (tools only)."""
    if action in (SELF_ASK, ASK_REQUESTER):
        return None
    return next(
        (
            s
            for s in t.trial.steps
            if s.kind == "tool" and s.ok and s.action == action and s.action_input == action_input
        ),
        None,
    )


def loop_caught(t: TrialState, earlier: StepRecord | None, verdict: Verdict | None) -> Outcome | None:
    """The feedback for a call that repeats (None: it runs). The same call as an earlier step: its result is in hand,
    so Finish is offered over the evidence, once; a repeat after that ends the trial. A repeated action, thought or
    cycle seen `loop_repeats` times: feedback, and the trial ends if it is caught again after that."""
    if earlier is not None:
        t.trial.loops_caught += 1
        if t.finish_only:  # offered Finish and repeated a call instead: the trial stops here
            t.trial.outcome = "loop"
            return Outcome(
                "loop",
                False,
                f"Loop: step {earlier.index} made this call already and Finish was not called; the trial is stopped.",
            )
        t.finish_only = True
        return Outcome(
            "loop",
            False,
            f"This is the same call as step {earlier.index}; its result is above: "
            f"{one_line(earlier.observation, 300)} Now call Finish and answer "
            f"from the Observations.",
        )
    if verdict is not None and verdict.repeats >= t.loops.repeats_allowed:
        t.trial.loops_caught += 1
        final = t.loops.warned
        t.loops.warned = True
        if final:
            t.trial.outcome = "loop"
        return Outcome("loop", False, verdict.feedback(final=final))
    return None


def run_call(
    t: TrialState, index: int, started: float, usage: Usage, parsed: ParsedStep, call: Call, verdict: Verdict | None
) -> StepRecord:
    """Check the call against the grounding, run it, and record it with its (summarised) Observation."""
    g = t.rt.grounding
    if g is not None and (invented := g.invented(parsed.action, parsed.action_input)):
        t.trial.invented_names += len(invented)
    if g is not None and (wrong := g.wrong_measure(parsed.action, parsed.action_input)):
        refused = f"Error: {wrong} Nothing was run; call it with the measure the question asks for."
        return t.record(index, started, usage, call, Outcome("invalid", False, refused))
    raw = parsed.action_input
    if g is not None and (tool := t.rt.tools.get(parsed.action)) is not None:
        raw = g.complete_call(tool, raw)  # what code sets from the question's form (never the model's tokens)
    done = run_action(t, parsed.action, parsed.args, raw)
    usage = usage + done.usage
    observation = summarise_observation(
        done.observation, t.rt.settings.observation_max_chars, files=t.rt.ctx.files, tool=parsed.action
    )
    if g is not None:
        g.observe(
            t.trial.number,
            index,
            parsed.action,
            observation,
            head=done.head,
            answers=done.answers,
            args=parsed.action_input,
        )
    if verdict is not None:
        observation = f"{observation} {verdict.note()}"
    return t.record(index, started, usage, call, Outcome(done.kind, done.ok, observation))
