"""The ReAct executor: one trial of Thought / Action / Action Input steps with runtime Observations.

`run_trial(question, rt, trial=1, feedback="")` runs one trial and returns a `Trial`:

- every step is one constrained LLM call (role "react") whose prompt is laid out stable-first
  (see `prompting.py`); the reply is parsed with `parse_step`;
- `Finish` ends the trial with the answer; `Self-Ask` is answered by a separate LLM call (role
  "self-ask") over the question and the scratchpad; `agentask` asks the requester; any other tool
  runs with `tool.run(args, rt.ctx)`. Observations come only from the runtime;
- unknown tools, invalid JSON, invalid arguments and tool errors become Observations the model can
  act on; an empty or unusable reply is retried once with a seeded thought (`parse_failures`);
- loops (repeated action, repeated thought, short cycles) get feedback and end the trial if they
  persist (`loops_caught`, outcome "loop");
- once the answer is in hand (`answer_in_hand`: the grounding writes all of it from the trial's calls, or
  from the linking facts when all the question names is missing, and the Review's evidence checks pass on
  it) the Finish step is written by code, without a model call;
- `max_steps`, `trial_token_budget` and `rt.cancelled` bound the trial; long observations are
  summarised to `observation_max_chars`;
- a failure outside the gateway (`edge_agent.failures.ExternalFailure`: the SkySpark unreachable, a full
  disk) ends the trial at once with outcome "failed": no model can work around it, and asking the model again
  would only make it call the same tool (it once looped on `sites` while the SkySpark was down);
- `trial_start` and `step` events are emitted as they happen.

What a step sends the model and how its reply is read back are in `agent.stepio`. The executor (`_Trial`) stays one
piece: every branch of a step reads and updates the same trial state (the loop detector, the token budget, the
refused answers, the grounding's evidence), so splitting it would pass that state around rather than simplify it.
"""

from __future__ import annotations

import json
import time
from dataclasses import dataclass, field
from typing import Any

from edge_agent.agent.evidence import gather_evidence
from edge_agent.agent.loops import LoopDetector, signature
from edge_agent.agent.prompting import (
    summarise_observation,
    trial_scratchpad,
)
from edge_agent.agent.runtime import AgentRuntime
from edge_agent.agent.stepio import (
    SEED_THOUGHT,
    STOP,
    THOUGHT_OPEN,
    is_step_shaped,
    react_prompt,
    react_system,
    reply_field,
    scratchpad,
    self_ask_prompt,
    step_grammar,
    trim_reply,
)
from edge_agent.agent.steps import ACTION_INPUT, THOUGHT, StepParseError, one_line, parse_step
from edge_agent.agent.trajectory import AgentEvent, Failure, StepKind, StepRecord, Trial
from edge_agent.failures import ExternalFailure, Interrupted
from edge_agent.llm.base import Completion, Constraint, Prompt, Usage
from edge_agent.toolkit import ASK_REQUESTER, FINISH, SELF_ASK

SELF_ASK_MAX_TOKENS = 80
SELF_ASK_MAX_CHARS = 300
SELF_ASK_STOP = ("\n\n", "\nSub-question", "\nTask:", "\nThought:", "\nObservation:")
#: refused (ungrounded) answers after which the trial ends
MAX_REFUSED = 3
#: the thought of a Finish step written by code: the answer is in hand and every check of it passes
ANSWER_IN_HAND = "The Observations above answer every part of the question."

__all__ = [
    "run_trial",
    "react_system",
    "react_prompt",
    "self_ask_prompt",
    "scratchpad",
    "trial_scratchpad",
    "SEED_THOUGHT",
    "THOUGHT_OPEN",
]


# --- the executor -------------------------------------------------------------------------------


@dataclass(frozen=True)
class Call:
    """What a step's reply asked for: its thought, action and arguments (empty where the reply was unusable)."""

    thought: str
    action: str
    action_input: Any = None


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


class _Trial:
    """The state of one running trial."""

    def __init__(self, question: str, rt: AgentRuntime, number: int, feedback: str, earlier: list[Trial]):
        self.question, self.rt, self.feedback = question, rt, feedback
        self.trial = Trial(number=number)
        self.failed_before = failed_calls(earlier)
        self.failed_steps = [s for t in earlier for s in t.steps if failed(s) and s.kind == "tool"]
        self.loops = LoopDetector(rt.settings.loop_repeats)
        self.spent = 0  # prompt + generated tokens of this trial
        self.finish_only = False  # the answer is in hand: the next step can only be Finish
        self._fixed: dict[str, dict[str, Any]] = {}  # the last step language's arguments written by code

    # -- LLM calls --
    def _call(
        self, prompt: Prompt, *, role: str, constraint: Constraint | None, max_tokens: int, stop: tuple[str, ...] = ()
    ) -> Completion:
        out = self.rt.llm.complete(prompt, role=role, constraint=constraint, max_tokens=max_tokens, stop=stop)
        self.spent += out.usage.prompt_tokens + out.usage.generated_tokens
        return out

    def _generate(self, seeded: bool) -> Completion:
        seed = SEED_THOUGHT if seeded else ""
        prompt = react_prompt(self.question, self.rt, self.trial.steps, feedback=self.feedback, seed=seed)
        only = (FINISH,) if self.finish_only else None
        g = self.rt.grounding
        grounded = g.for_step(self.rt.tools, self.trial.number) if g is not None else None
        # the answer's start written by code
        forced = len(grounded.answer.prefix) if grounded is not None and grounded.answer is not None else 0
        constraint = step_grammar(self.rt, seed, self.trial.steps, only, grounded, self.failed_steps)
        self._fixed = getattr(constraint, "fixed", {})  # arguments with one possible value: code writes them
        out = self._call(
            prompt,
            role="react",
            constraint=constraint,
            max_tokens=self.rt.settings.step_max_tokens + forced,
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

    # -- one step --
    def step(self, index: int) -> StepRecord:
        started = time.monotonic()
        usage = Usage()
        out = self._generate(seeded=False)
        usage = usage + out.usage
        text = trim_reply(out.text)
        if not is_step_shaped(text):
            # empty or unusable: retry once with a seeded thought
            self.trial.parse_failures += 1
            out = self._generate(seeded=True)
            usage = usage + out.usage
            text = trim_reply(out.text)
            if not is_step_shaped(text):
                self.trial.parse_failures += 1
                shown = one_line(out.text, 80) or "an empty reply"
                return self._record(
                    index,
                    started,
                    usage,
                    Call("", "", None),
                    Outcome(
                        "recovery",
                        False,
                        f"Error: the reply ({shown!r}) was not a step. Write exactly "
                        f"three lines: Thought: ..., Action: <tool name>, "
                        f"Action Input: {{JSON arguments}}.",
                    ),
                )
        try:
            parsed = parse_step(text, self.rt.tools, self._fixed)
        except StepParseError as exc:
            self.trial.parse_failures += 1
            action = reply_field("Action", text)
            raw_input = text.split(ACTION_INPUT, 1)[1].strip() if ACTION_INPUT in text else ""
            try:
                action_input: Any = json.loads(raw_input) if raw_input else {}
            except json.JSONDecodeError:
                action_input = raw_input
            return self._record(
                index,
                started,
                usage,
                Call(reply_field("Thought", text), action, action_input),
                Outcome("invalid", False, f"Error: {exc}. Nothing was run; correct the step."),
            )

        thought = one_line(parsed.thought, self.rt.settings.thought_max_chars)
        if parsed.action == FINISH:  # the model's words are bounded; the start code wrote is never cut
            g = self.rt.grounding
            limit = self.rt.settings.answer_max_chars + (len(g.answer_prefix(self.trial.number)) if g else 0)
            return self._finish(
                index, started, usage, thought, parsed.action_input, one_line(getattr(parsed.args, "answer", ""), limit)
            )

        verdict = self.loops.check(parsed.thought, parsed.action, parsed.action_input)
        earlier = self._same_call(parsed.action, parsed.action_input)
        self.loops.record(parsed.thought, parsed.action, parsed.action_input)
        if earlier is not None:  # its result is in hand: offer Finish over the evidence, once
            self.trial.loops_caught += 1
            if self.finish_only:  # offered Finish and repeated a call instead: the trial stops here
                self.trial.outcome = "loop"
                return self._record(
                    index,
                    started,
                    usage,
                    Call(thought, parsed.action, parsed.action_input),
                    Outcome(
                        "loop",
                        False,
                        f"Loop: step {earlier.index} made this call already and Finish "
                        f"was not called; the trial is stopped.",
                    ),
                )
            self.finish_only = True
            return self._record(
                index,
                started,
                usage,
                Call(thought, parsed.action, parsed.action_input),
                Outcome(
                    "loop",
                    False,
                    f"This is the same call as step {earlier.index}; its result is above: "
                    f"{one_line(earlier.observation, 300)} Now call Finish and answer "
                    f"from the Observations.",
                ),
            )
        if verdict is not None and verdict.repeats >= self.loops.repeats_allowed:
            self.trial.loops_caught += 1
            final = self.loops.warned
            self.loops.warned = True
            rec = self._record(
                index,
                started,
                usage,
                Call(thought, parsed.action, parsed.action_input),
                Outcome("loop", False, verdict.feedback(final=final)),
            )
            if final:
                self.trial.outcome = "loop"
            return rec

        g = self.rt.grounding
        if g is not None and (invented := g.invented(parsed.action, parsed.action_input)):
            self.trial.invented_names += len(invented)
        if g is not None and (wrong := g.wrong_measure(parsed.action, parsed.action_input)):
            return self._record(
                index,
                started,
                usage,
                Call(thought, parsed.action, parsed.action_input),
                Outcome(
                    "invalid", False, f"Error: {wrong} Nothing was run; call it with the measure the question asks for."
                ),
            )
        raw = parsed.action_input
        if g is not None and (tool := self.rt.tools.get(parsed.action)) is not None:
            raw = g.complete_call(tool, raw)  # what code sets from the question's form (never the model's tokens)
        done = self._execute(parsed.action, parsed.args, raw)
        usage = usage + done.usage
        observation = summarise_observation(
            done.observation, self.rt.settings.observation_max_chars, files=self.rt.ctx.files, tool=parsed.action
        )
        if g is not None:
            g.observe(
                self.trial.number,
                index,
                parsed.action,
                observation,
                head=done.head,
                answers=done.answers,
                args=parsed.action_input,
            )
        if verdict is not None:
            observation = f"{observation} {verdict.note()}"
        return self._record(
            index,
            started,
            usage,
            Call(thought, parsed.action, parsed.action_input),
            Outcome(done.kind, done.ok, observation),
        )

    def _same_call(self, action: str, action_input: Any) -> StepRecord | None:
        """The earlier successful step of this trial with exactly this call (tools only)."""
        if action in (SELF_ASK, ASK_REQUESTER):
            return None
        return next(
            (
                s
                for s in self.trial.steps
                if s.kind == "tool" and s.ok and s.action == action and s.action_input == action_input
            ),
            None,
        )

    def _finish(
        self, index: int, started: float, usage: Usage, thought: str, action_input: Any, answer: str, by: str = "model"
    ) -> StepRecord:
        """Accept a Finish whose every figure and name has a source in this run; refuse it otherwise."""
        g = self.rt.grounding
        claims = g.check(answer) if g is not None else []
        made_up = [c.text for c in claims if not c.grounded]
        if made_up and g is not None:  # (claims, and so made-up ones, come only from a grounding)
            self.trial.ungrounded_answers += 1
            g.refuse(claims)
            if self.finish_only or self.trial.ungrounded_answers >= MAX_REFUSED:
                self.trial.outcome = "loop"
            return self._record(
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
        self.trial.answer, self.trial.claims = answer, claims
        return self._record(
            index, started, usage, Call(thought, FINISH, action_input), Outcome("finish", True, ""), by=by
        )

    def _execute(self, action: str, args: Any, raw: Any) -> Outcome:
        """Run a step's action (Self-Ask, a question to the requester, or a tool): a typed `Outcome`."""
        if action == SELF_ASK:
            return self._self_ask(args.question)
        if action == ASK_REQUESTER:
            requester = self.rt.ctx.ask_requester
            if requester is None:
                return Outcome("ask_requester", False, "Error: nobody can be asked here; continue without asking.")
            try:
                reply = requester(args.question)
            except Exception as exc:  # the transport failed; the agent goes on
                return Outcome("ask_requester", False, f"Error: the question could not be sent ({exc}).")
            if reply is None or not str(reply).strip():
                return Outcome(
                    "ask_requester",
                    False,
                    "No reply came from the person who asked. Continue with what "
                    "you know, and state any assumption in the final answer.",
                )
            return Outcome("ask_requester", True, f"The person who asked replied: {str(reply).strip()}")
        tool = self.rt.tools.get(action)
        if tool is None or tool.fn is None:
            return Outcome("tool", False, f"Error: {action} cannot be run here.")
        result = tool.run(raw, self.rt.ctx)
        return Outcome(
            "tool", result.ok, result.observation, head=result.answer if result.ok else "", answers=tool.answers
        )

    def _self_ask(self, sub_question: str) -> Outcome:
        prompt = self_ask_prompt(self.question, sub_question, self.trial.steps)
        try:
            out = self._call(
                prompt, role="self-ask", constraint=None, max_tokens=SELF_ASK_MAX_TOKENS, stop=SELF_ASK_STOP
            )
        except Interrupted:
            raise
        except Exception as exc:
            return Outcome("self_ask", False, f"Error: Self-Ask could not be answered ({type(exc).__name__}).")
        text = out.text.strip()
        for stop in SELF_ASK_STOP:  # whatever runtime answered, keep only the first paragraph
            cut = text.find(stop)
            if cut > 0:
                text = text[:cut]
        answer = one_line(text, SELF_ASK_MAX_CHARS)
        if not answer:
            return Outcome("self_ask", False, "Self-Ask gave no answer; reason it out in the next Thought.", out.usage)
        return Outcome("self_ask", True, answer, out.usage)

    def _record(
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

    def answer_in_hand(self) -> str:
        """The answer, where nothing is left for the model to choose ('' otherwise): the grounding writes the
        whole answer from this trial's calls (`Grounding.answer_closed`) and the Review's evidence checks all
        pass on it (every named asset and sensor read over the period asked, one file where one was asked
        for). A Finish step then has one possible action and one possible answer, so asking the model for it
        would only buy a thought at the price of evaluating the last Observation."""
        # (not `grounded_answer`: its tokens are not needed here, and cost a pass over the evidence)
        g = self.rt.grounding
        if g is None or not g.answer_closed(self.trial.number):
            return ""
        answer = " ".join(g.answer_prefix(self.trial.number).split())  # code's, never cut: at most MAX_HEADS heads
        if not answer:
            return ""
        claims = g.check(answer)
        if not all(c.grounded for c in claims):
            return ""
        draft = self.trial.model_copy(update={"answer": answer, "claims": claims})
        return answer if not gather_evidence(self.question, draft, self.rt).findings else ""

    def _same_invalid_again(self, step: StepRecord) -> bool:
        """The step is the same invalid step as the one before it (the same action, input and error): a Finish cut at
        the token limit, written again word for word after its error was shown."""
        steps = self.trial.steps
        if len(steps) < 2 or steps[-1] is not step:
            return False
        before = steps[-2]
        return before.kind == "invalid" and (before.action, str(before.action_input), before.observation) == (
            step.action,
            str(step.action_input),
            step.observation,
        )

    def _failed_before(self, step: StepRecord) -> bool:
        """The step failed, and an earlier attempt made this same call and failed too: the reflection changed
        nothing, and the same call gives the same error."""
        return failed(step) and signature(step.action, step.action_input) in self.failed_before

    def finish_in_code(self, index: int, answer: str) -> StepRecord:
        """The Finish step of an answer in hand, written without a model call (`StepRecord.by` "code")."""
        return self._finish(index, time.monotonic(), Usage(), ANSWER_IN_HAND, {"answer": answer}, answer, by="code")

    # -- the loop --
    def run(self) -> Trial:
        rt, trial = self.rt, self.trial
        rt.emit(
            AgentEvent(
                kind="trial_start",
                trial=trial.number,
                text=self.question,
                data={"feedback": rt.vetted(self.feedback)} if self.feedback else {},
            )
        )
        for index in range(1, rt.settings.max_steps + 1):
            if rt.cancelled:
                trial.outcome = "cancelled"
                return trial
            if self.spent >= rt.settings.trial_token_budget:
                trial.outcome = "token_budget"
                return trial
            try:  # an answer in hand before any step: the question names only what the SkySpark lacks
                step = (
                    self.finish_in_code(index, answer)
                    if index == 1 and (answer := self.answer_in_hand())
                    else self.step(index)
                )
            except Interrupted:  # cancelled (or the daemon stopping) while the model or a tool was at work
                trial.outcome = "cancelled"
                return trial
            except ExternalFailure as exc:  # the SkySpark unreachable, a full disk: no model can work around it
                trial.outcome, trial.failure = "failed", Failure(reason=exc.reason, message=str(exc))
                self._record(
                    index,
                    time.monotonic(),
                    Usage(),
                    Call("", "", None),
                    Outcome("failure", False, f"Failed ({exc.reason}): {one_line(str(exc), 300)}"),
                )
                return trial
            except Exception as exc:  # the model runtime failed (e.g. context full): end, never crash
                trial.outcome = "error"
                self._record(
                    index,
                    time.monotonic(),
                    Usage(),
                    Call("", "", None),
                    Outcome(
                        "recovery",
                        False,
                        f"Error: the model call failed: {type(exc).__name__}: {one_line(str(exc), 200)}",
                    ),
                )
                return trial
            if self._same_invalid_again(step) or self._failed_before(step):
                trial.outcome = "loop"  # greedy decoding writes the same broken step again: nothing new will come
                trial.loops_caught += 1
                return trial
            if step.kind == "tool" and step.ok and (answer := self.answer_in_hand()):
                step = self.finish_in_code(index + 1, answer)
            if step.kind == "finish":
                trial.outcome = "finished"
                return trial
            if trial.outcome == "loop":
                return trial
            if self.finish_only and step.action != FINISH and step.kind != "loop":
                self.finish_only = False
        trial.outcome = "max_steps"
        return trial


def failed(step: StepRecord) -> bool:
    """The step is a call that failed: a tool's error, or a step refused before it ran."""
    return step.kind in ("tool", "invalid") and not step.ok and bool(step.action)


def failed_calls(trials: list[Trial]) -> set[str]:
    """The signatures of the calls `trials` made that failed."""
    return {signature(s.action, s.action_input) for t in trials for s in t.steps if failed(s)}


def run_trial(
    question: str, rt: AgentRuntime, *, trial: int = 1, feedback: str = "", earlier: list[Trial] | None = None
) -> Trial:
    """Run one ReAct trial; `feedback` (review/reflection text) goes into the prompt before the question. A call that
    failed in one of the `earlier` attempts and fails again, written word for word, ends this one as a loop: the
    reflection changed nothing, and the same call gives the same error (in the stored runs of sessions 17 and 18,
    8 later attempts began so, each spent three more steps, and none was answered)."""
    return _Trial(question, rt, trial, feedback, earlier or []).run()
