"""Prompt assembly shared by every agent role, laid out stable-first so llama.cpp reuses the KV prefix.

A `Prompt` has three parts (see `edge_agent.llm.base.Prompt`):

- `system`: the role's instructions, then the tool descriptions, then the examples. It depends only
  on the role, the tool registry and the example text, so it is byte-identical across the steps of
  a trial, across trials and (with the same examples) across questions.
- `user`: what changes per request: feedback from earlier trials first, then the question.
- `assistant_prefix`: what changes per step: the scratchpad, which the model's next step continues.

Nothing time-dependent (dates, run ids) goes into `system`; the agent asks the `currentdatetime`
tool instead. Observations are summarised here before they enter the scratchpad.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

from edge_agent.agent.steps import ACTION, ACTION_INPUT, OBSERVATION, THOUGHT, one_line, render_step
from edge_agent.agent.trajectory import StepRecord, Trial
from edge_agent.filestore import FileStore, FileStoreError
from edge_agent.llm.base import Prompt
from edge_agent.toolkit import ToolRegistry

PROMPTS_DIR = Path(__file__).with_name("prompts")

TOOLS_HEADING = "Tools you can call:"
EXAMPLES_HEADING = "Examples of solved tasks (they show the format; their names and values are not yours):"
EXAMPLES_END = "(end of examples)"
FEEDBACK_HEADING = "Feedback on your earlier attempts at this question (act on it):"
QUESTION_LABEL = "Question: "


@dataclass(frozen=True)
class PromptParts:
    """What the react role's stable prefix is made of: the tools offered, the examples (rendered Tiny Trajectory
    Store) and the start of them every question shares. An `AgentRuntime` carries the same three for a run;
    this is them without a run (`EdgeAgent.warm` brings the prefix into the KV cache before any question)."""

    tools: ToolRegistry
    examples: str = ""
    core_examples: str = ""


@cache
def load_prompt(name: str) -> str:
    """The text of `prompts/<name>.txt`, without trailing whitespace."""
    return (PROMPTS_DIR / f"{name}.txt").read_text(encoding="utf-8").rstrip()


def stable_system(instructions: str, tools: ToolRegistry | None = None, examples: str = "") -> str:
    """The stable prefix: instructions, then tool descriptions, then examples (each only if present)."""
    parts = [instructions.rstrip()]
    if tools is not None and len(tools):
        parts.append(f"{TOOLS_HEADING}\n{tools.describe()}")
    if examples.strip():
        parts.append(f"{EXAMPLES_HEADING}\n\n{examples.strip()}\n{EXAMPLES_END}")
    return "\n\n".join(parts)


def question_block(question: str, feedback: str = "") -> str:
    """The variable user part: feedback (if any) BEFORE the question (early-feedback placement)."""
    question = question.strip()
    if feedback.strip():
        return f"{FEEDBACK_HEADING}\n{feedback.strip()}\n\n{QUESTION_LABEL}{question}"
    return f"{QUESTION_LABEL}{question}"


def render_record(step: StepRecord) -> str:
    """One step of the scratchpad. A step without an action (an unusable reply) shows only its
    Observation, so the model sees what went wrong without copying a malformed step."""
    if not step.action:
        return f"{OBSERVATION}{one_line(step.observation, 10_000)}\n"
    return render_step(step.thought, step.action, step.action_input, step.observation)


def render_scratchpad(steps: Sequence[StepRecord], *, max_chars: int | None = None) -> str:
    """Thought / Action / Action Input / Observation text of the given steps, in order.

    With `max_chars`, the oldest steps are dropped first (a note says how many) so the most recent
    work stays visible; review and reflect use this to fit their prompts.
    """
    rendered = [render_record(s) for s in steps]
    text = "".join(rendered)
    if max_chars is None or len(text) <= max_chars:
        return text
    kept: list[str] = []
    size = 0
    for piece in reversed(rendered):
        if size + len(piece) > max_chars and kept:
            break
        kept.append(piece)
        size += len(piece)
    dropped = len(rendered) - len(kept)
    return f"({dropped} earlier step{'s' if dropped != 1 else ''} left out)\n" + "".join(reversed(kept))


def trial_scratchpad(trial: Trial, *, max_chars: int | None = None) -> str:
    """A trial's scratchpad, ending with its Finish answer if it gave one (for review/reflect)."""
    return render_scratchpad(trial.steps, max_chars=max_chars)


def make_prompt(
    role_prompt: str, *, user: str, tools: ToolRegistry | None = None, examples: str = "", assistant_prefix: str = ""
) -> Prompt:
    """A prompt for any role, stable-first: `role_prompt` names a file in prompts/ (without .txt)."""
    return Prompt(
        system=stable_system(load_prompt(role_prompt), tools, examples), user=user, assistant_prefix=assistant_prefix
    )


# --- observations ------------------------------------------------------------------------------


def _json_payload(text: str) -> Any:
    stripped = text.strip()
    if not stripped or stripped[0] not in "[{":
        return None
    try:
        return json.loads(stripped)
    except json.JSONDecodeError:
        return None


def _files_named(text: str, files: FileStore | None) -> list[str]:
    if files is None:
        return []
    try:
        names = files.names()
    except OSError:
        return []
    return [n for n in names if n in text]


def summarise_observation(text: str, limit: int, *, files: FileStore | None = None, tool: str = "") -> str:
    """`text` if it fits in `limit` characters, otherwise a summary that fits (plus a short note).

    The note says how much was left out (rows for a JSON array, characters otherwise) and where the
    full data is: a result file the observation names, or else a new file in the store holding the
    whole observation. Nothing large is ever pasted whole into the prompt.
    """
    text = str(text)
    if len(text) <= limit:
        return text
    payload = _json_payload(text)
    where = _files_named(text, files)
    saved = None
    if not where and files is not None:
        try:
            data = payload if payload is not None else {"tool": tool, "observation": text}
            saved = files.write_json(data, f"{tool or 'observation'}-full")
        except (FileStoreError, OSError, TypeError, ValueError):
            saved = None
    if where:
        location = f"the full data is in {', '.join(where[:3])}"
    elif saved:
        location = f"the full text is saved as {saved} (read it with jsonreader)"
    else:
        location = "the full text was not kept"

    if isinstance(payload, list) and payload:
        budget = max(40, limit - 40)
        shown: list[str] = []
        size = 2
        for row in payload:
            piece = json.dumps(row, ensure_ascii=False, separators=(",", ":"))
            if size + len(piece) + 1 > budget and shown:
                break
            shown.append(piece[:budget])
            size += len(piece) + 1
        head = "[" + ",".join(shown) + ",...]"
        left = len(payload) - len(shown)
        return f"{head} ({len(shown)} of {len(payload)} rows shown, {left} left out; {location})"

    cut = text[:limit]
    space = cut.rfind(" ")
    if space > limit * 0.6:
        cut = cut[:space]
    left = len(text) - len(cut)
    return f"{cut.rstrip()} ... ({left} more characters left out; {location})"


__all__ = [
    "ACTION",
    "ACTION_INPUT",
    "OBSERVATION",
    "THOUGHT",
    "load_prompt",
    "stable_system",
    "question_block",
    "render_record",
    "render_scratchpad",
    "trial_scratchpad",
    "make_prompt",
    "summarise_observation",
]
