"""Running a ReAct step's action: Self-Ask, a question to the requester, or a tool — each gives an `Outcome`.

Self-Ask is answered by a separate LLM call (role "self-ask") over the question and the scratchpad, cut to its first
paragraph; `agentask` asks the person who asked (`ToolContext.ask_requester`); any other action runs its tool with
`tool.run(args, ctx)`. Observations come only from here, never from the model; a failure the model can act on
becomes an error Observation.
"""

from __future__ import annotations

from typing import Any

from edge_agent.agent.stepio import self_ask_prompt
from edge_agent.agent.steps import one_line
from edge_agent.agent.trial_state import Outcome, TrialState
from edge_agent.failures import Interrupted
from edge_agent.toolkit import ASK_REQUESTER, SELF_ASK

SELF_ASK_MAX_TOKENS = 80
SELF_ASK_MAX_CHARS = 300
SELF_ASK_STOP = ("\n\n", "\nSub-question", "\nTask:", "\nThought:", "\nObservation:")


def run_action(t: TrialState, action: str, args: Any, raw: Any) -> Outcome:
    """Run a step's action (Self-Ask, a question to the requester, or a tool): a typed `Outcome`."""
    if action == SELF_ASK:
        return self_ask(t, args.question)
    if action == ASK_REQUESTER:
        return ask_requester(t, args.question)
    tool = t.rt.tools.get(action)
    if tool is None or tool.fn is None:
        return Outcome("tool", False, f"Error: {action} cannot be run here.")
    result = tool.run(raw, t.rt.ctx)
    return Outcome("tool", result.ok, result.observation, head=result.answer if result.ok else "", answers=tool.answers)


def ask_requester(t: TrialState, question: str) -> Outcome:
    """Ask the person who asked; no reply (or nobody to ask) is an Observation the model continues from."""
    requester = t.rt.ctx.ask_requester
    if requester is None:
        return Outcome("ask_requester", False, "Error: nobody can be asked here; continue without asking.")
    try:
        reply = requester(question)
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


def self_ask(t: TrialState, sub_question: str) -> Outcome:
    """Answer the model's sub-question with a separate LLM call over the question and the scratchpad."""
    prompt = self_ask_prompt(t.question, sub_question, t.trial.steps)
    try:
        out = t.call(prompt, role="self-ask", constraint=None, max_tokens=SELF_ASK_MAX_TOKENS, stop=SELF_ASK_STOP)
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
