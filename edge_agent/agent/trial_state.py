"""One running ReAct trial's state, and how a step is recorded into it.

`TrialState` is what every part of a step reads and updates (`react_step`, `actions`, `finishing`, the loop in
`react`): the `Trial` being written, the loop detector, the tokens spent against the trial's budget, the calls that
failed in earlier attempts, and whether only Finish is offered. `Call` is what a step's reply asked for, `Outcome`
what running it gave; `TrialState.record` appends the step they make and publishes it (a `step` event).
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Any

from edge_agent.agent.loops import LoopDetector, signature
from edge_agent.agent.runtime import AgentRuntime
from edge_agent.agent.trajectory import AgentEvent, StepKind, StepRecord, Trial, TrialOutcome
from edge_agent.grounding.status import LISTINGS
from edge_agent.llm.base import Completion, Constraint, Prompt, Usage


@dataclass(frozen=True)
class Call:
    """What a step's reply asked for: its thought, action and arguments (empty where the reply was unusable)."""

    thought: str
    action: str
    action_input: Any = None


#: the call of a step that has none: the reply was not a step, or the trial failed before one was read
NO_CALL = Call("", "", None)


@dataclass(frozen=True)
class Outcome:
    """What running a step's action gave: its kind, success and Observation, the LLM usage it cost (Self-Ask), and
    for a tool call the head a Finish answer states of it (`toolkit.Said`) and whether its tool answers questions."""

    kind: StepKind
    ok: bool
    observation: str
    usage: Usage = field(default_factory=Usage)
    head: str = ""
    answers: bool = False


class TrialState:
    """The state of one running trial."""

    def __init__(self, question: str, rt: AgentRuntime, number: int, feedback: str, earlier: list[Trial]):
        self.question, self.rt, self.feedback = question, rt, feedback
        self.trial = Trial(number=number)
        self.failed_before = failed_calls(earlier)
        # the calls an earlier attempt made that are not to be written again: those that failed or were refused, and
        # the listings whose results the feedback already carries (`xen.learned`)
        self.failed_steps = [s for t in earlier for s in t.steps if failed(s) or listed(s)]
        self.loops = LoopDetector(rt.settings.loop_repeats)
        self.spent = 0  # prompt + generated tokens of this trial
        self.finish_only = False  # the answer is in hand: the next step can only be Finish
        self.fixed: dict[str, dict[str, Any]] = {}  # the last step language's arguments written by code

    def call(
        self, prompt: Prompt, *, role: str, constraint: Constraint | None, max_tokens: int, stop: tuple[str, ...] = ()
    ) -> Completion:
        """One LLM call of this trial, its tokens counted against the trial's budget."""
        out = self.rt.llm.complete(prompt, role=role, constraint=constraint, max_tokens=max_tokens, stop=stop)
        self.spent += out.usage.prompt_tokens + out.usage.generated_tokens
        return out

    def record(
        self, index: int, started: float, usage: Usage, call: Call, done: Outcome, by: str = "model"
    ) -> StepRecord:
        """Append the step (what the model wrote, what running it gave) to the trial and publish it."""
        ms = (time.monotonic() - started) * 1000.0
        g = self.rt.grounding
        unverified = g.unverified(call.thought, self.trial.number, index) if g is not None else []
        step = StepRecord(
            index=index,
            thought=call.thought,
            action=call.action,
            action_input=call.action_input,
            observation=done.observation,
            kind=done.kind,
            ok=done.ok,
            usage=usage,
            ms=round(ms, 1),
            unverified=unverified,
            by=by,
        )
        self.trial.steps.append(step)
        self.rt.emit(AgentEvent(kind="step", trial=self.trial.number, step=step))
        return step

    def end(self, outcome: TrialOutcome) -> Trial:
        """The trial, ended with `outcome`."""
        self.trial.outcome = outcome
        return self.trial


def failed(step: StepRecord) -> bool:
    """The step is a call that failed: a tool's error, or a step refused before it ran."""
    return step.kind in ("tool", "invalid") and not step.ok and bool(step.action)


def listed(step: StepRecord) -> bool:
    """The step is a listing call that succeeded (`status.LISTINGS`: what it found goes into the next attempt's
    feedback, `xen.learned`)."""
    return step.kind == "tool" and step.ok and step.action in LISTINGS


def failed_calls(trials: list[Trial]) -> set[str]:
    """The signatures of the calls `trials` made that failed."""
    return {signature(s.action, s.action_input) for t in trials for s in t.steps if failed(s)}
