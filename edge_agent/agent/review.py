"""The Review agent: is a finished trial's answer really Accomplished, Partially Accomplished or Not Accomplished?

Two sources are combined (see docs/reactxen.md, "How review evidence works"):

1. **Evidence** gathered by code (`agent.evidence`) from what the runtime knows — the trial's tool calls and whether
   they succeeded, the files really present in the run's file store, the entities and period the
   question names (`distill.mentioned`). Each failed check is a `Finding` with the worst verdict it
   allows (a *cap*): the answer names a file that does not exist, or claims a download when no file
   was written → Not Accomplished; no tool was called for a question about named equipment or a
   period → Not Accomplished; an asset the question names appears in no successful call (and the
   answer does not report it missing), or one file was asked for and none holds every asset →
   Partially Accomplished.
2. **The model's verdict** (role "review"), constrained to the `ReviewReply` JSON schema and given
   the evidence as "facts the system recorded", so even a small model sees the early victory. It is
   asked only where the evidence does not settle the verdict (`settled`): not when a check failed (the
   model could only lower the verdict, and the next step is the same for Partially and Not
   Accomplished), nor when the answer is the one code wrote from the trial's calls and every check
   passed. A data question's answer must also give a figure or file of a data call.

The final verdict is the *worse* of the two: evidence can only lower the model's verdict, never
raise it. A reply that repeats the prompt's worked example or names what the trial never saw
(`echo`) is not used: the verdict is then written by code from the evidence alone (`by="code"`,
`copied=True`), as it is when the model gives no valid reply after one retry. When evidence lowers
the verdict, its reasons lead the reasoning and its fixes lead the suggestions, so the next trial
gets concrete feedback.
"""

from __future__ import annotations

import json
from collections.abc import Sequence

from pydantic import BaseModel, Field

from edge_agent.agent.distill import render_distilled
from edge_agent.agent.echo import copies_example, foreign
from edge_agent.agent.evidence import RANK, Evidence, gather_evidence
from edge_agent.agent.prompting import load_prompt, make_prompt, trial_scratchpad
from edge_agent.agent.runtime import AgentRuntime
from edge_agent.agent.steps import one_line
from edge_agent.agent.structured import ask_json
from edge_agent.agent.trajectory import AgentEvent, Distilled, Review, ReviewStatus, Trial
from edge_agent.llm.base import Prompt

#: what callers import from here (the evidence lives in `agent.evidence`)
__all__ = [
    "RANK",
    "Evidence",
    "ReviewReply",
    "code_verdict",
    "combine",
    "echo_of",
    "gather_evidence",
    "pick_answer",
    "review",
    "review_prompt",
    "settled",
    "trial_texts",
]

MAX_TOKENS = 220
SCRATCHPAD_CHARS = 2400


def pick_answer(answered: Sequence[bool], reviews: Sequence[str | None]) -> int | None:
    """Which trial's answer to return (index): among the trials that answered, the best reviewed (no
    review counts as Partially Accomplished), the latest on ties; None if none answered."""
    scored = [
        (RANK[r] if r else RANK["Partially Accomplished"], i) for i, (ok, r) in enumerate(zip(answered, reviews)) if ok
    ]
    return max(scored)[1] if scored else None


class ReviewReply(BaseModel):
    """The model's reply (its JSON schema is the constraint); shorter than `Review` to bound generation."""

    status: ReviewStatus
    reasoning: str = Field(..., max_length=240)
    suggestions: str = Field("", max_length=240)


def review_prompt(question: str, trial: Trial, evidence: Evidence) -> Prompt:
    steps = trial_scratchpad(trial, max_chars=SCRATCHPAD_CHARS).strip() or "(no steps)"
    user = (
        f"Question: {question.strip()}\n\nSteps:\n{steps}\n\nFinal answer: {trial.answer or '(none)'}\n\n"
        f"Facts the system recorded:\n{evidence.facts()}"
    )
    return make_prompt("review", user=user)


def combine(reply: ReviewReply | None, evidence: Evidence, failure: str = "") -> Review:
    """The worse of the model's verdict and the evidence cap, with the evidence's reasons first."""
    if reply is None:
        reasoning = (
            f"The review could not be produced ({failure or 'no valid reply'}), so the task is not counted as done."
        )
        reasoning = " ".join([*(f.problem[:1].upper() + f.problem[1:] + "." for f in evidence.findings), reasoning])
        return Review(
            status="Not Accomplished",
            reasoning=_cut(reasoning, 600),
            suggestions=_cut(" ".join(f.fix[:1].upper() + f.fix[1:] + "." for f in evidence.findings), 600),
        )
    status = reply.status
    reasoning, suggestions = reply.reasoning.strip(), reply.suggestions.strip()
    if RANK[evidence.cap] < RANK[status]:
        status = evidence.cap
        problems = " ".join(f.problem[:1].upper() + f.problem[1:] + "." for f in evidence.findings)
        fixes = " ".join(f.fix[:1].upper() + f.fix[1:] + "." for f in evidence.findings)
        reasoning = f"{problems} (The reviewer model said: {reply.status}.)"
        suggestions = f"{fixes} {suggestions}".strip()
    return Review(status=status, reasoning=_cut(reasoning or status, 600), suggestions=_cut(suggestions, 600))


def _cut(text: str, limit: int) -> str:
    return one_line(text, limit)


def code_verdict(evidence: Evidence, why: str) -> Review:
    """The verdict written by code from the evidence alone (the model's reply was unusable)."""
    problems = " ".join(f.problem[:1].upper() + f.problem[1:] + "." for f in evidence.findings)
    fixes = " ".join(f.fix[:1].upper() + f.fix[1:] + "." for f in evidence.findings)
    reasoning = (
        problems
        or "The system's checks found every named asset covered, every file named in the "
        "answer written and every figure of the answer in an Observation."
    )
    return Review(
        status=evidence.cap,
        reasoning=_cut(f"{reasoning} ({why})", 600),
        suggestions=_cut(fixes, 600),
        by="code",
        copied=why.startswith("the reviewer"),
    )


def trial_texts(question: str, trial: Trial, distilled: Distilled | None) -> list[str]:
    """Everything a judgement of the trial may refer to: question, facts, steps and the answer."""
    texts = [question, trial.answer or "", render_distilled(distilled) if distilled is not None else ""]
    for s in trial.steps:
        texts += [s.thought, s.action, json.dumps(s.action_input, ensure_ascii=False), s.observation]
    return texts


def echo_of(text: str, role_prompt: str, texts: list[str], rt: AgentRuntime) -> str:
    """Why a role's reply is an echo ('' if it is not): it repeats the worked example, or names what
    the trial never saw."""
    if copies_example(text, load_prompt(role_prompt)):
        return f"the {role_prompt}er repeated its prompt's example"
    names = rt.grounding.names() if rt.grounding is not None else set()
    made_up = foreign(text, texts, names)
    if made_up:
        return f"the {role_prompt}er named {', '.join(made_up[:3])}, which the attempt never saw"
    return ""


def settled(trial: Trial, evidence: Evidence, rt: AgentRuntime) -> str:
    """Why the evidence alone decides the verdict ('' where the model is asked): a check failed (the model
    could only lower the verdict further, which changes no next step), or the answer is the one code wrote
    from the trial's calls (`Grounding.answer_closed`) and every check passed."""
    if evidence.findings:
        return "decided by the checks; the review model was not asked"
    g = rt.grounding
    prefix = g.answer_prefix(trial.number) if g is not None else ""
    if (
        g is not None
        and prefix
        and g.answer_closed(trial.number)
        and (trial.answer or "").strip() in (prefix, prefix + ".")
    ):
        return "the answer was written by code from the tool results; the review model was not asked"
    return ""


def review(question: str, trial: Trial, rt: AgentRuntime, distilled: Distilled | None = None) -> Review:
    """Review a finished trial (one with an answer) and emit a `review` event. The model is asked only
    where the evidence does not settle the verdict (`settled`)."""
    evidence = gather_evidence(question, trial, rt, distilled)
    why = settled(trial, evidence, rt)
    reply = None
    if why:
        verdict = code_verdict(evidence, why)
    else:
        reply = ask_json(
            rt, review_prompt(question, trial, evidence), ReviewReply, role="review", max_tokens=MAX_TOKENS
        )
        why = (
            echo_of(
                f"{reply.value.reasoning} {reply.value.suggestions}",
                "review",
                trial_texts(question, trial, distilled) + [evidence.facts()],
                rt,
            )
            if reply.value
            else ""
        )
        if why or reply.value is None:
            verdict = code_verdict(evidence, why or f"the review model gave no valid reply: {'; '.join(reply.errors)}")
        else:
            verdict = combine(reply.value, evidence, "; ".join(reply.errors))
    model_status = reply.value.status if reply is not None and reply.value else None
    shown = rt.vetted(f"{verdict.status}: {verdict.reasoning}")
    rt.emit(
        AgentEvent(
            kind="review",
            trial=trial.number,
            text=shown,
            data={
                **verdict.model_dump(),
                "model_status": model_status,
                "evidence_cap": evidence.cap,
                "attempts": reply.attempts if reply is not None else 0,
            },
        )
    )
    return verdict
