"""One ReAct step's exchange with the model: the prompts it sends (`react_prompt`, `self_ask_prompt`), the grammar
the rest of the step is decoded under (`step_grammar`: `steps.step_constraint` over what the run's grounding allows),
and how a reply is cut back to one step (`trim_reply`) or its fields read when it is not one (`reply_field`).
`agent.react` runs the steps.
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import Sequence
from typing import Any

from edge_agent.agent.prompting import (
    PromptParts,
    load_prompt,
    question_block,
    render_scratchpad,
    stable_system,
    trial_scratchpad,
)
from edge_agent.agent.runtime import AgentRuntime
from edge_agent.agent.steps import ACTION_INPUT, THOUGHT, step_constraint
from edge_agent.agent.trajectory import StepRecord, Trial
from edge_agent.grounding.allowed import StepGrounding
from edge_agent.llm.base import Constraint, Prompt
from edge_agent.toolkit import FINISH, ToolRegistry

#: the thought a retry after an unusable reply starts with
SEED_THOUGHT = "I need to"
#: the assistant prefix of every step ends here; the model continues with " <thought>"
THOUGHT_OPEN = THOUGHT.rstrip()
#: a reply is cut here: the model never writes Observations, and one reply holds one step
STOP = ("\nObservation:", "\nObservation", "\nThought:")


# --- prompts ------------------------------------------------------------------------------------


def react_system(tools: ToolRegistry, examples: str = "") -> str:
    """The react role's stable prefix: instructions, tool descriptions, examples."""
    return stable_system(load_prompt("react_system"), tools, examples)


def react_prompt(
    question: str, rt: AgentRuntime | PromptParts, steps: list[StepRecord], *, feedback: str = "", seed: str = ""
) -> Prompt:
    """The prompt for the next step: the scratchpad, then the open "Thought:" the model continues.

    The prefix ends in "Thought:" without the blank, so the model writes the blank together with
    its first word (" The", " I"), as its tokenizer would; a forced lone " " token makes a small
    model's thought degenerate. `seed` (a retry) is put after "Thought: " for the model to continue.
    """
    prefix = render_scratchpad(steps) + THOUGHT_OPEN
    if seed:
        prefix += f" {seed}"
    system = react_system(rt.tools, rt.examples)
    return Prompt(
        system=system,
        user=question_block(question, feedback),
        assistant_prefix=prefix,
        shared=len(os.path.commonprefix([system, react_system(rt.tools, rt.core_examples)])),
    )


def self_ask_prompt(question: str, sub_question: str, steps: list[StepRecord]) -> Prompt:
    """The self-ask role's prompt: stable instructions; the task, the work so far and the sub-question."""
    work = render_scratchpad(steps, max_chars=3000).strip() or "(nothing yet)"
    user = f"Task: {question.strip()}\n\nWork so far:\n{work}\n\nSub-question: {sub_question.strip()}"
    return Prompt(system=stable_system(load_prompt("self_ask")), user=user, assistant_prefix="Answer: ")


def scratchpad(trial: Trial, *, max_chars: int | None = None) -> str:
    """The Thought / Action / Action Input / Observation text of a trial (for review and reflect)."""
    return trial_scratchpad(trial, max_chars=max_chars)


def step_grammar(
    rt: AgentRuntime,
    seed: str,
    steps: list[StepRecord],
    only: tuple[str, ...] | None = None,
    grounded: StepGrounding | None = None,
    failed_before: Sequence[StepRecord] = (),
) -> Constraint:
    """The grammar for the rest of a step whose prompt ends in "Thought:" (+ " " + seed, if any):
    file-name arguments may only name the files this run has made so far; site, asset, sensor and
    period arguments only what the run's grounding allows; a tool whose findings the grounding already
    has is not offered, nor a call whose result (or error) is in hand; Finish comes once a tool has
    answered (or when nothing else is left, or the question names what does not exist), and its answer
    may only state figures and codes this run has seen (`steps.step_constraint`, which caches them): all of it
    from `grounded`, what the run's grounding allows this step (`Grounding.for_step`)."""
    return step_constraint(
        rt.tools,
        rt.settings.thought_max_chars,
        rt.settings.answer_max_chars,
        after_thought_prefix=seed,
        files=rt.ctx.files.names(),
        grounded=grounded,
        only=only,
        made=calls_in_hand(steps, failed_before),
    )


def calls_in_hand(
    steps: Sequence[StepRecord], failed_before: Sequence[StepRecord] = ()
) -> dict[str, list[dict[str, Any]]]:
    """Tool → the argument objects of the calls not to write again: those of `steps` (this trial) whose result,
    error or refusal is in hand, and those of `failed_before` (earlier trials' failed calls and listings). The same
    call gives the same error: in the stored runs a second trial after a reflection began with the first one's failed
    call again."""
    made: dict[str, list[dict[str, Any]]] = {}
    for s in [*failed_before, *steps]:
        # a call refused before it ran ("Bake Zone Temp measures temperature, and the question asks for energy") gives
        # the same refusal again: greedy decoding wrote it a second time and the trial ended as a loop (b24-26, F32)
        # (a refused answer is no call: it may be written better)
        called = s.kind == "tool" or (s.kind == "invalid" and s.action != FINISH)
        if called and bool(s.action) and isinstance(s.action_input, dict):
            if s.action_input not in made.get(s.action, []):
                made.setdefault(s.action, []).append(s.action_input)
    return made


# --- parsing ------------------------------------------------------------------------------------

_LINE = {name: re.compile(rf"^\s*{name}:[ \t]*(.*)$", re.M) for name in ("Thought", "Action")}


def trim_reply(text: str) -> str:
    """One step only: drop any preamble before "Thought:" and anything after the Action Input's JSON."""
    start = text.find(THOUGHT.strip())
    if start > 0:
        text = text[start:]
    for stop in STOP:
        cut = text.find(stop, 1)
        if cut >= 0:
            text = text[:cut]
    pos = text.find(ACTION_INPUT)
    if pos >= 0:
        rest = text[pos + len(ACTION_INPUT) :]
        stripped = rest.lstrip()
        try:
            _, end = json.JSONDecoder().raw_decode(stripped)
            text = text[: pos + len(ACTION_INPUT)] + stripped[:end]
        except json.JSONDecodeError:
            pass
    return text.strip()


def is_step_shaped(text: str) -> bool:
    return bool(_LINE["Thought"].search(text) and _LINE["Action"].search(text) and ACTION_INPUT in text)


def reply_field(name: str, text: str) -> str:
    m = _LINE[name].search(text)
    return m.group(1).strip() if m else ""
