"""The ReAct executor: one trial of Thought / Action / Action Input steps with runtime Observations.

`run_trial(question, rt, trial=1, feedback="")` runs one trial and returns a `Trial`. The loop below is the whole of
it; each part has its own module:

- `react_step`: one step — a constrained LLM call (role "react", the prompt laid out stable-first, `stepio`), the
  reply read back into a call (an empty or unusable one retried once with a seeded thought), checked for loops
  (repeated action, repeated thought, short cycles: feedback, then the trial ends, `loops`) and against the
  grounding, run, and recorded; unknown tools, invalid JSON, invalid arguments and tool errors become Observations
  the model can act on;
- `actions`: running a step's action — `Self-Ask` answered by a separate LLM call (role "self-ask"), `agentask`
  asking the requester, any other tool `tool.run(args, rt.ctx)`; Observations come only from the runtime;
- `finishing`: `Finish` accepted only when every figure and name in it has a source in the run; once the answer is
  in hand (the grounding writes all of it from the trial's calls, or from the linking facts when all the question
  names is missing, and the Review's evidence checks pass on it) the Finish step is written by code, without a
  model call;
- `trial_state`: what all of them read and update (the trial, the loop detector, the tokens spent).

`max_steps`, `trial_token_budget` and `rt.cancelled` bound the trial; long observations are summarised to
`observation_max_chars`. A failure outside the gateway (`edge_agent.failures.ExternalFailure`: the SkySpark
unreachable, a full disk) ends the trial at once with outcome "failed": no model can work around it, and asking the
model again would only make it call the same tool (it once looped on `sites` while the SkySpark was down). A step
that repeats the broken step before it, or a call that failed in an earlier attempt and fails again, ends the trial
as a loop. `trial_start` and `step` events are emitted as they happen.
"""

from __future__ import annotations

import time

from edge_agent.agent.finishing import answer_in_hand, finish_in_code
from edge_agent.agent.loops import signature
from edge_agent.agent.prompting import trial_scratchpad
from edge_agent.agent.react_step import take_step
from edge_agent.agent.runtime import AgentRuntime
from edge_agent.agent.stepio import SEED_THOUGHT, THOUGHT_OPEN, react_prompt, react_system, scratchpad, self_ask_prompt
from edge_agent.agent.steps import one_line
from edge_agent.agent.trajectory import AgentEvent, Failure, StepRecord, Trial
from edge_agent.agent.trial_state import NO_CALL, Outcome, TrialState, failed
from edge_agent.failures import ExternalFailure, Interrupted
from edge_agent.llm.base import Usage
from edge_agent.toolkit import FINISH

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


def run_trial(
    question: str, rt: AgentRuntime, *, trial: int = 1, feedback: str = "", earlier: list[Trial] | None = None
) -> Trial:
    """Run one ReAct trial; `feedback` (review/reflection text) goes into the prompt before the question. A call that
    failed in one of the `earlier` attempts and fails again, written word for word, ends this one as a loop: the
    reflection changed nothing, and the same call gives the same error (in the stored runs of sessions 17 and 18,
    8 later attempts began so, each spent three more steps, and none was answered)."""
    t = TrialState(question, rt, trial, feedback, earlier or [])
    data = {"feedback": rt.vetted(feedback)} if feedback else {}
    rt.emit(AgentEvent(kind="trial_start", trial=trial, text=question, data=data))
    for index in range(1, rt.settings.max_steps + 1):
        if rt.cancelled:
            return t.end("cancelled")
        if t.spent >= rt.settings.trial_token_budget:
            return t.end("token_budget")
        step = attempt(t, index)
        if step is None:  # cancelled, or failed outside the gateway or in the model runtime
            return t.trial
        if same_invalid_again(t, step) or failed_before(t, step):
            t.trial.loops_caught += 1  # greedy decoding writes the same broken step again: nothing new will come
            return t.end("loop")
        if step.kind == "tool" and step.ok and (answer := answer_in_hand(t)):
            step = finish_in_code(t, index + 1, answer)
        if step.kind == "finish":
            return t.end("finished")
        if t.trial.outcome == "loop":
            return t.trial
        if t.finish_only and step.action != FINISH and step.kind != "loop":
            t.finish_only = False
    return t.end("max_steps")


def attempt(t: TrialState, index: int) -> StepRecord | None:
    """Step `index` (written by code where the answer is in hand before any step: the question names only what the
    SkySpark lacks); None where the trial ended in it: cancelled, a failure outside the gateway, or the model
    runtime failing (e.g. context full), each recorded — a trial ends, it never crashes."""
    try:
        if index == 1 and (answer := answer_in_hand(t)):
            return finish_in_code(t, index, answer)
        return take_step(t, index)
    except Interrupted:  # cancelled (or the daemon stopping) while the model or a tool was at work
        t.end("cancelled")
    except ExternalFailure as exc:  # the SkySpark unreachable, a full disk: no model can work around it
        t.trial.outcome, t.trial.failure = "failed", Failure(reason=exc.reason, message=str(exc))
        said = f"Failed ({exc.reason}): {one_line(str(exc), 300)}"
        t.record(index, time.monotonic(), Usage(), NO_CALL, Outcome("failure", False, said))
    except Exception as exc:  # the model runtime failed (e.g. context full): end, never crash
        t.end("error")
        said = f"Error: the model call failed: {type(exc).__name__}: {one_line(str(exc), 200)}"
        t.record(index, time.monotonic(), Usage(), NO_CALL, Outcome("recovery", False, said))
    return None


def same_invalid_again(t: TrialState, step: StepRecord) -> bool:
    """The step is the same invalid step as the one before it (the same action, input and error): a Finish cut at
    the token limit, written again word for word after its error was shown."""
    steps = t.trial.steps
    if len(steps) < 2 or steps[-1] is not step:
        return False
    before = steps[-2]
    return before.kind == "invalid" and (before.action, str(before.action_input), before.observation) == (
        step.action,
        str(step.action_input),
        step.observation,
    )


def failed_before(t: TrialState, step: StepRecord) -> bool:
    """The step failed, and an earlier attempt made this same call and failed too: the reflection changed
    nothing, and the same call gives the same error."""
    return failed(step) and signature(step.action, step.action_input) in t.failed_before
