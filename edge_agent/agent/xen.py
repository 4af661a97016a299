"""ReActXen's control loop: the paper's Algorithm 1 ("reinforcement via multiple verbal feedback").

    ground → distill → repeat { ReAct trial → review if it finished → stop on Accomplished → reflect →
                       review + reflection go into the next trial's prompt before the question;
                       a series the Review found read wrongly is not offered to the next trial's calls }

Strategies (`agent.strategy`, `--strategy`), all on the same model with the same examples:

| strategy       | distill (model) | review | reflect | trials             |
|----------------|-----------------|--------|---------|--------------------|
| `react`        | no              | no     | no      | 1                  |
| `react-review` | no              | yes    | no      | up to `max_trials` |
| `reactxen`     | if `agent.distill` | yes | yes    | up to `max_trials` |

Distill's model call is skipped where the linking facts are the whole answer (`Grounding.answered_by_links`:
the question names only what the SkySpark lacks); code then writes the Finish with no model call at all.

Every strategy is grounded first, in code and without the model: the question's names are linked to the
SkySpark and its period resolved (`edge_agent.grounding`); those facts go with the question into every
trial, tool arguments are constrained to them, and the answer may state only what the run has seen.

A trial that finished is reviewed; one that ran out of steps/tokens or was stopped for looping is
not (there is nothing to review) and goes straight to reflection. A failure outside the gateway (the SkySpark
unreachable — at the catalog load or in a tool call —, a full disk) ends the run at once with status `failed`
and its reason, without another model call (`edge_agent.failures`). No reflection is written after
the last trial (nothing would read it). Cancellation is checked before every role.
"""

from __future__ import annotations

import json
from dataclasses import dataclass

from edge_agent.agent.distill import render_distilled, run_distill
from edge_agent.agent.evidence import gather_evidence
from edge_agent.agent.react import run_trial
from edge_agent.agent.reflect import how_it_ended, reflect
from edge_agent.agent.review import pick_answer, review
from edge_agent.agent.runtime import AgentRuntime
from edge_agent.agent.steps import one_line
from edge_agent.agent.trajectory import Distilled, RunStatus, Trial
from edge_agent.agent.trial_state import listed
from edge_agent.failures import ExternalFailure
from edge_agent.grounding.frame import ReadAs
from edge_agent.grounding.language import foreign_language, sentence
from edge_agent.grounding.readas import ask_back, open_slots, read_as, wrong_sensors
from edge_agent.grounding.run import ANALYSIS_TOOLS, Grounding

#: how many earlier attempts the feedback block describes (the most recent ones)
FEEDBACK_ATTEMPTS = 2


@dataclass
class XenOutcome:
    answer: str | None
    status: RunStatus
    trials: list[Trial]
    distilled: Distilled | None
    failure: ExternalFailure | None = None  # status failed: what failed
    # status gave_up: "unverified" (an answer held back), "not_understood", "ambiguous", "language" (not English);
    # none where no trial answered (the detail says why: `why_none`)
    reason: str | None = None
    detail: str = ""  # what the evidence lacked
    reading: ReadAs | None = None  # how the question was read, said back (`grounding.readas`)


@dataclass(frozen=True)
class Plan:
    distill: bool
    review: bool
    reflect: bool
    max_trials: int

    @classmethod
    def of(cls, rt: AgentRuntime) -> Plan:
        s = rt.settings
        if s.strategy == "react":
            return cls(distill=False, review=False, reflect=False, max_trials=1)
        if s.strategy == "react-review":
            return cls(distill=False, review=True, reflect=False, max_trials=s.max_trials)
        return cls(distill=s.distill, review=True, reflect=True, max_trials=s.max_trials)


def solve(question: str, rt: AgentRuntime) -> XenOutcome:
    """Answer `question` with the strategy in `rt.settings` (Algorithm 1), and say how it was read."""
    outcome = _solve(question, rt)
    if rt.grounding is not None:
        best = next((t for t in outcome.trials if outcome.answer and t.answer == outcome.answer), None)
        number = best.number if best is not None else (outcome.trials[-1].number if outcome.trials else None)
        outcome.reading = read_as(rt.grounding, number, answered=outcome.status in ("answered", "refused"))
    return outcome


def _solve(question: str, rt: AgentRuntime) -> XenOutcome:
    plan = Plan.of(rt)
    try:
        rt.grounding = ground(question, rt)
    except ExternalFailure as exc:  # the catalog cannot be read: nothing to answer with, and no model call made
        return XenOutcome(answer=None, status="failed", trials=[], distilled=None, failure=exc)
    if (which := rt.grounding.ambiguity()) and not rt.grounding.in_code:  # one site's figures are no answer about
        # another's: the operator says which (no model call)
        return XenOutcome(answer=None, status="gave_up", trials=[], distilled=None, reason="ambiguous", detail=which)
    if not rt.grounding.in_code and (
        language := foreign_language(rt.grounding.unplaced, rt.grounding.question)
    ):  # a question in another
        # language: said plainly, no model call (the reading and the model read English)
        return XenOutcome(
            answer=None, status="gave_up", trials=[], distilled=None, reason="language", detail=sentence(language)
        )
    if rt.ctx.ask_requester is not None and open_slots(rt.grounding):  # a slot nothing settled: asked back, with
        ask_back(rt.grounding, rt.ctx.ask_requester)  # code's choices, before any model call (docs/grounding.md §11)
    if not rt.grounding.reading.analysis:  # the analysis tools are described only where a conclusion is asked for:
        rt.tools = rt.tools.without(ANALYSIS_TOOLS)  # every other question keeps its prompt (and cached prefix)
    # an answer the linking facts make whole (only what the SkySpark lacks is named) needs no goal from the model
    asked = rt.grounding.prompt_text()  # without the pieces code refused, nor sentences that only frame it
    distilled = run_distill(
        asked, rt, ask_model=plan.distill and not rt.cancelled and not rt.grounding.answered_by_links()
    )
    task = with_distilled(asked, distilled)  # the paper's Q'
    rt.grounding.set_facts(render_distilled(distilled))
    trials: list[Trial] = []
    for number in range(1, plan.max_trials + 1):
        if rt.cancelled:
            break
        trial = run_trial(task, rt, trial=number, feedback=feedback_from(trials, rt.settings.max_steps), earlier=trials)
        trials.append(trial)
        if trial.outcome in ("cancelled", "error", "failed") or rt.cancelled:
            break
        if plan.review and trial.outcome == "finished" and trial.answer:
            trial.review = review(question, trial, rt, distilled)
            if trial.review.status == "Accomplished" or unplaceable(trial, rt):
                break
        if nothing_new(trial, trials[:-1]):  # the reflection changed no call: another trial would repeat these
            break
        if plan.reflect and number < plan.max_trials and not rt.cancelled:
            trial.reflection = reflect(question, trial, rt, distilled)
            if rt.grounding is not None:  # the series the Review found read for a part that does not ask for them:
                rt.grounding.avoid(wrong_sensors(rt.grounding, trial.number))  # the next trial is offered the others
    return conclude(trials, distilled, rt)


def unplaceable(trial: Trial, rt: AgentRuntime) -> bool:
    """Code refused the trial's answer for words nothing placed: another trial reads the same words (a Reflect cannot
    place them), so it would pay for a second trial to be refused the same way. A refusal for what the trial's calls
    did ("no data call of this run read what the question asks for") is the model's to mend, unplaced words or not:
    the second attempt is made (b24-06 at F29: "hangs" unplaced, the model had listed sensors and stopped)."""
    g = rt.grounding
    if g is None or not g.unplaced:
        return False
    why = g.unsupported(trial.number, trial.answer or "", trial.claims)
    return any(said in why for said in _FOR_WORDS)


#: what `Grounding.unsupported` says where the refusal is for words nothing placed (`grounding.status`)
_FOR_WORDS = ("is not understood: ", "words this gateway could not place")


def nothing_new(trial: Trial, earlier: list[Trial]) -> bool:
    """`trial` (not the first) made only tool calls an earlier trial made, with the same arguments, and none at all
    is no news either: after a reflection, the model went the same way again."""
    if not earlier:
        return False

    def calls(t: Trial) -> set[str]:
        return {
            f"{s.action} {json.dumps(s.action_input, sort_keys=True, default=str)}"
            for s in t.steps
            if s.kind == "tool" and s.action not in ("Finish", "Self-Ask")
        }

    before = set().union(*(calls(t) for t in earlier))
    return calls(trial) <= before


def ground(question: str, rt: AgentRuntime) -> Grounding:
    """Link the question to the SkySpark's catalog (when it can be read) and resolve its period."""
    catalog, note = None, ""
    if rt.catalog is not None:
        try:
            catalog = rt.catalog()
        except ExternalFailure:  # the SkySpark unreachable, the login refused: the run ends, before any model call
            raise
        except Exception as exc:  # another failure reading it: the tools will say so; names are then not constrained
            note = f"the SkySpark catalog could not be read: {type(exc).__name__}: {one_line(str(exc), 160)}"
    return Grounding.build(question, catalog, rt.ctx.clock.now(), note=note)


def with_distilled(question: str, distilled: Distilled | None) -> str:
    """The question as each trial sees it: the original, then the distilled facts (if any)."""
    block = render_distilled(distilled) if distilled is not None else ""
    return f"{question.strip()}\n{block}" if block else question.strip()


def feedback_from(trials: list[Trial], max_steps: int) -> str:
    """The feedback block for the next trial: how recent attempts ended, their review and reflection."""
    lines = learned(trials)
    for trial in trials[-FEEDBACK_ATTEMPTS:]:
        if trial.review is not None:
            head = (
                f'Attempt {trial.number} answered "{one_line(trial.answer or "", 160)}"; the review said '
                f"{trial.review.status}: {trial.review.reasoning}"
            )
            if trial.review.suggestions:
                head += f" Suggestion: {trial.review.suggestions}"
        else:
            head = f"Attempt {trial.number}: {how_it_ended(trial, max_steps)}"
        lines.append(one_line(head, 700))
        if trial.reflection:
            lines.append(f"Reflection on attempt {trial.number}: {trial.reflection}")
    return "\n".join(lines)


def learned(trials: list[Trial]) -> list[str]:
    """What earlier attempts' listings found, told to the next one as facts: it is not offered those calls again
    (`trial_state.listed`), so it goes on from them to the call that reads the data."""
    seen: dict[str, str] = {}
    for trial in trials:
        for s in trial.steps:
            if listed(s):
                key = f"{s.action} {json.dumps(s.action_input, sort_keys=True, default=str)}"
                seen.setdefault(key, f"Known from attempt {trial.number}: {one_line(s.observation, 300)}")
    return list(seen.values())


def conclude(trials: list[Trial], distilled: Distilled | None, rt: AgentRuntime) -> XenOutcome:
    """The answer to return: the accomplished one, else the best-reviewed (latest on ties); and the status."""
    pick = pick_answer([bool(t.answer) for t in trials], [t.review.status if t.review else None for t in trials])
    best = trials[pick] if pick is not None else None
    if rt.cancelled or any(t.outcome == "cancelled" for t in trials):
        status: RunStatus = "cancelled"
    elif trials and (failed := trials[-1].failure) is not None and trials[-1].outcome == "failed":
        # what the earlier trials answered was not accepted
        return XenOutcome(
            answer=None,
            status="failed",
            trials=trials,
            distilled=distilled,
            failure=ExternalFailure(failed.message, failed.reason),
        )
    elif best is not None:
        lacking = unverified(best, rt)
        if lacking:  # nothing of this run supports it whole: never delivered as answered
            return short_of(trials, distilled, rt, lacking)
        g = rt.grounding
        status = "refused" if g is not None and g.refusal and g.answered_by_links() else "answered"
        unsettled = open_slots(g, best.number) if g is not None and status == "answered" else []
        if unsettled:  # a word the reading has no value for: the model's choice is said, never delivered as answered
            why = "not settled: " + "; ".join(unsettled) + " (the answer and its Read-as line say what was taken)"
            return XenOutcome(best.answer, "partial", trials, distilled, reason="partial", detail=why)
        if status == "answered" and (found := checks_found(best, rt, distilled)):
            # the Review's checks (code, no model) found the answer short: "the question asks for Specific Power,
            # but no data call read it" is said with the answer, never delivered as answered (every strategy)
            why = f"the checks found: {found}"
            return XenOutcome(best.answer, "partial", trials, distilled, reason="partial", detail=why)
    elif trials and trials[-1].outcome == "error":
        status = "error"
    else:
        return short_of(trials, distilled, rt, "")
    return XenOutcome(answer=best.answer if best else None, status=status, trials=trials, distilled=distilled)


def checks_found(trial: Trial, rt: AgentRuntime, distilled: Distilled | None) -> str:
    """What the Review's checks (code alone, no model call: `evidence.gather_evidence`) found that holds `trial`'s
    answer back ('' where none did): a series the question asks for that no call read, an asset it names that no call
    covered, no call at all, a file never written."""
    if rt.grounding is None or getattr(rt, "ctx", None) is None:  # (a bare runtime: no file store to check)
        return ""
    evidence = gather_evidence(rt.grounding.question, trial, rt, distilled)
    return " ".join(f"{f.problem}." for f in evidence.findings if f.holds and f.cap != "Accomplished")


def short_of(trials: list[Trial], distilled: Distilled | None, rt: AgentRuntime, lacking: str) -> XenOutcome:
    """A run that did not answer the whole question: `partial` with what a trial's calls established (the latest
    trial that established some part), else `gave_up` with the reason (`unverified` where an answer was held back)."""
    g = rt.grounding
    for trial in reversed(trials):
        said = g.established(trial.number) if g is not None else ""
        if said:
            return XenOutcome(
                answer=said,
                status="partial",
                trials=trials,
                distilled=distilled,
                reason="partial",
                detail=lacking or "some parts of the question were not established",
            )
    if g is not None and g.unplaced:  # the question has words nothing could place: say which
        said = f"words of the question this gateway could not place: {', '.join(g.unplaced)}"
        return XenOutcome(
            answer=None,
            status="gave_up",
            trials=trials,
            distilled=distilled,
            reason="not_understood",
            detail=f"{said}; {lacking}" if lacking else said,
        )
    if lacking:
        return XenOutcome(
            answer=None, status="gave_up", trials=trials, distilled=distilled, reason="unverified", detail=lacking
        )
    return XenOutcome(answer=None, status="gave_up", trials=trials, distilled=distilled, detail=why_none(trials))


def why_none(trials: list[Trial]) -> str:
    """Why no trial answered, in a line: the last refused call's reason ("Humidifier Valve measures dimensionless, and
    the question asks for relative humidity"), else how the last trial ended."""
    for trial in reversed(trials):
        refused = [
            s for s in trial.steps if s.observation and (s.kind == "invalid" or s.observation.startswith("Error:"))
        ]
        if refused:
            reason = one_line(refused[-1].observation.removeprefix("Error:").strip(), 300)
            return f"no answer: the tool calls written were refused ({reason})"
    return f"no answer: the last trial ended {trials[-1].outcome}" if trials else "no answer: no trial ran"


def unverified(trial: Trial, rt: AgentRuntime) -> str:
    """What the evidence of this run lacks for `trial`'s answer ('' when it supports it): see
    `Grounding.unsupported`; a Review that found the answer Not Accomplished caps an answer code did not close."""
    g = rt.grounding
    if g is None:
        return ""
    lacking = g.unsupported(trial.number, trial.answer or "", trial.claims)
    if (
        not lacking
        and trial.review is not None
        and trial.review.status == "Not Accomplished"
        and not g.answer_closed(trial.number)
    ):
        lacking = f"the Review found it Not Accomplished: {trial.review.reasoning}"
    return lacking
