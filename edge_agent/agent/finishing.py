"""A ReAct trial's Finish: accepted when every figure and name in the answer has a source in the run, refused
otherwise; and the Finish of an answer in hand, written by code without a model call.

The answer is in hand (`answer_in_hand`) when the grounding writes all of it from the trial's calls (or from the
linking facts, when all the question names is missing) and the Review's evidence checks pass on it; the Finish
step then has one possible action and one possible answer, so code writes it (`StepRecord.by` "code").
"""

from __future__ import annotations

import time
from typing import Any

from edge_agent.agent.evidence import gather_evidence
from edge_agent.agent.steps import ParsedStep, one_line
from edge_agent.agent.trajectory import StepRecord
from edge_agent.agent.trial_state import Call, Outcome, TrialState
from edge_agent.llm.base import Usage
from edge_agent.toolkit import FINISH

#: refused (ungrounded) answers after which the trial ends
MAX_REFUSED = 3
#: the thought of a Finish step written by code: the answer is in hand and every check of it passes
ANSWER_IN_HAND = "The Observations above answer every part of the question."


def finish_step(
    t: TrialState, index: int, started: float, usage: Usage, thought: str, parsed: ParsedStep
) -> StepRecord:
    """The model's Finish: its words bounded to `answer_max_chars`, the start code wrote never cut."""
    g = t.rt.grounding
    limit = t.rt.settings.answer_max_chars + (len(g.answer_prefix(t.trial.number)) if g else 0)
    answer = one_line(getattr(parsed.args, "answer", ""), limit)
    return finish(t, index, started, usage, thought, parsed.action_input, answer)


def finish(
    t: TrialState,
    index: int,
    started: float,
    usage: Usage,
    thought: str,
    action_input: Any,
    answer: str,
    by: str = "model",
) -> StepRecord:
    """Accept a Finish whose every figure and name has a source in this run; refuse it otherwise."""
    g = t.rt.grounding
    claims = g.check(answer) if g is not None else []
    made_up = [c.text for c in claims if not c.grounded]
    if made_up and g is not None:  # (claims, and so made-up ones, come only from a grounding)
        t.trial.ungrounded_answers += 1
        g.refuse(claims)
        if t.finish_only or t.trial.ungrounded_answers >= MAX_REFUSED:
            t.trial.outcome = "loop"
        return t.record(
            index,
            started,
            usage,
            Call(thought, FINISH, action_input),
            Outcome(
                "invalid",
                False,
                f"Error: the answer states {', '.join(made_up[:5])}, which no "
                f"Observation, fact or the question holds. Answer only with what the "
                f"Observations say.",
            ),
        )
    t.trial.answer, t.trial.claims = answer, claims
    return t.record(index, started, usage, Call(thought, FINISH, action_input), Outcome("finish", True, ""), by=by)


def answer_in_hand(t: TrialState) -> str:
    """The answer, where nothing is left for the model to choose ('' otherwise): the grounding writes the
    whole answer from this trial's calls (`Grounding.answer_closed`) and the Review's evidence checks all
    pass on it (every named asset and sensor read over the period asked, one file where one was asked
    for). A Finish step then has one possible action and one possible answer, so asking the model for it
    would only buy a thought at the price of evaluating the last Observation."""
    # (not `grounded_answer`: its tokens are not needed here, and cost a pass over the evidence)
    g = t.rt.grounding
    if g is None or not g.answer_closed(t.trial.number):
        return ""
    answer = " ".join(g.answer_prefix(t.trial.number).split())  # code's, never cut: at most MAX_HEADS heads
    if not answer:
        return ""
    claims = g.check(answer)
    if not all(c.grounded for c in claims):
        return ""
    draft = t.trial.model_copy(update={"answer": answer, "claims": claims})
    return answer if not gather_evidence(t.question, draft, t.rt).findings else ""


def finish_in_code(t: TrialState, index: int, answer: str) -> StepRecord:
    """The Finish step of an answer in hand, written without a model call (`StepRecord.by` "code")."""
    return finish(t, index, time.monotonic(), Usage(), ANSWER_IN_HAND, {"answer": answer}, answer, by="code")
