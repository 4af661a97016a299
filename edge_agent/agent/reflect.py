"""The Reflect agent: after a failed trial, a one-sentence diagnosis and a short plan for the next one.

It runs after every failed trial but the last. When code already knows why the trial failed (it ran
out of steps or tokens, was stopped for looping, or its answers were refused as ungrounded), the
diagnosis and plan are written by code, with no model call. Only a trial that finished with a
Partially/Not Accomplished review is diagnosed by the model (role "reflect", under the
`ReflectReply` JSON constraint); its text is kept as "Diagnosis: … Plan: …" unless it echoes the
prompt's worked example or names what the trial never saw (`echo`), or is not valid after one
retry — then the code's diagnosis is used, so the next trial always gets some guidance.
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, Field

from edge_agent.agent.distill import render_distilled
from edge_agent.agent.prompting import make_prompt, trial_scratchpad
from edge_agent.agent.review import echo_of, trial_texts
from edge_agent.agent.runtime import AgentRuntime
from edge_agent.agent.steps import one_line
from edge_agent.agent.structured import ask_json
from edge_agent.agent.trajectory import AgentEvent, Distilled, Trial
from edge_agent.llm.base import Prompt
from edge_agent.toolkit import ToolRegistry

MAX_TOKENS = 160
SCRATCHPAD_CHARS = 2400
REFLECTION_MAX_CHARS = 480


class ReflectReply(BaseModel):
    """The model's reply (its JSON schema is the constraint)."""

    diagnosis: str = Field(..., min_length=1, max_length=200)
    plan: str = Field(..., min_length=1, max_length=200)


def how_it_ended(trial: Trial, max_steps: int) -> str:
    """One sentence on how the trial ended, written by code."""
    if trial.outcome == "max_steps":
        return f"It used all {max_steps} steps without calling Finish."
    if trial.outcome == "loop":
        last = next((s for s in reversed(trial.steps) if s.kind == "loop"), None)
        what = f" ({one_line(last.action, 40)} with the same input)" if last and last.action else ""
        return f"It was stopped because it kept repeating itself{what}."
    if trial.outcome == "token_budget":
        return "It used up its token budget before finishing."
    if trial.outcome == "error":
        return "It ended with an error of the model runtime."
    if trial.review is not None:
        text = f"It finished, but the review said {trial.review.status}: {trial.review.reasoning}"
        if trial.review.suggestions:
            text += f" Suggestion: {trial.review.suggestions}"
        return text
    return "It finished without a usable answer."


def fallback_reflection(trial: Trial, max_steps: int) -> str:
    """A diagnosis and plan written by code, for when the model gives no valid reply."""
    ending = how_it_ended(trial, max_steps)
    errors = [s for s in trial.steps if not s.ok and s.observation and s.kind != "loop"]
    repeated = any(s.kind == "loop" for s in trial.steps)
    plan = "Do each part of the question with the tools, check each Observation, then call Finish naming the result."
    if trial.review is not None and trial.review.suggestions:
        plan = trial.review.suggestions
    elif repeated:
        plan = "Do not repeat a call whose result you already have; take the next step of the task or call Finish."
    elif errors:
        plan = f'Read the error "{one_line(errors[-1].observation, 120)}" and change that call accordingly.'
    return one_line(f"Diagnosis: {ending} Plan: {plan}", REFLECTION_MAX_CHARS)


def reflect_prompt(
    question: str, trial: Trial, max_steps: int, distilled_text: str = "", tools: ToolRegistry | None = None
) -> Prompt:
    steps = trial_scratchpad(trial, max_chars=SCRATCHPAD_CHARS).strip() or "(no steps)"
    known = f"\n{distilled_text}" if distilled_text else ""
    answer = f"\nFinal answer given: {trial.answer}" if trial.answer else ""
    user = (
        f"Question: {question.strip()}{known}\n\nSteps of the last attempt:\n{steps}{answer}\n\n"
        f"How it ended: {how_it_ended(trial, max_steps)}"
    )
    return make_prompt("reflect", user=user, tools=tools)  # the tool list is part of the stable prefix


def reflect(question: str, trial: Trial, rt: AgentRuntime, distilled: Distilled | None = None) -> str:
    """The reflection for a failed trial (plain text), and a `reflect` event."""
    text, why, attempts = "", "", 0
    by: Literal["model", "code"] = "code"
    if trial.outcome == "finished" and trial.review is not None:
        # only a finished trial's failure needs the model's diagnosis; for a loop stop, steps or tokens
        # used up or refused answers, code already knows why it failed
        distilled_text = render_distilled(distilled) if distilled is not None else ""
        prompt = reflect_prompt(question, trial, rt.settings.max_steps, distilled_text, rt.tools)
        reply = ask_json(rt, prompt, ReflectReply, role="reflect", max_tokens=MAX_TOKENS)
        attempts = reply.attempts
        if reply.value is not None:
            text = one_line(
                f"Diagnosis: {reply.value.diagnosis.strip()} Plan: {reply.value.plan.strip()}", REFLECTION_MAX_CHARS
            )
            why = echo_of(text, "reflect", trial_texts(question, trial, distilled) + [t.name for t in rt.tools], rt)
            by = "code" if why else "model"
    if by == "code":
        text = fallback_reflection(trial, rt.settings.max_steps)
    trial.reflection_by, trial.reflection_copied = by, bool(why)
    rt.emit(
        AgentEvent(
            kind="reflect",
            trial=trial.number,
            text=rt.vetted(text),
            data={"from_model": by == "model", "attempts": attempts, "echo": why},
        )
    )
    return text
