"""The ReAct step format: how a step is written in the scratchpad and how model output is parsed.

    Thought: <one line>
    Action: <a registered tool name>
    Action Input: <a JSON object valid for that tool's argument model>

After each step the runtime (never the model) appends `Observation: <text>`.
The step constraint in `edge_agent.llm.constraints` generates exactly this language.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import Any

from edge_agent.toolkit import ToolError, ToolRegistry, ToolArgs

THOUGHT = "Thought: "
ACTION = "Action: "
ACTION_INPUT = "Action Input: "
OBSERVATION = "Observation: "

_STEP_RE = re.compile(
    r"^\s*Thought:[ \t]*(?P<thought>[^\n]*)\n+Action:[ \t]*(?P<action>[^\n]*?)[ \t]*\n+"
    r"Action Input:[ \t]*(?P<input>.*?)\s*$",
    re.S,
)


class StepParseError(ValueError):
    """The text is not a usable step; the message says what is wrong, for the model's feedback."""


@dataclass(frozen=True)
class ParsedStep:
    thought: str
    action: str
    action_input: dict
    args: ToolArgs


def parse_step(text: str, tools: ToolRegistry) -> ParsedStep:
    """Parse one generated step and validate its action and arguments against the registry."""
    match = _STEP_RE.match(text)
    if not match:
        raise StepParseError("the reply is not in the Thought / Action / Action Input format")
    thought = match["thought"].strip()
    action = match["action"].strip()
    tool = tools.get(action)
    if tool is None:
        raise StepParseError(f"there is no tool named {action!r}; the tools are {', '.join(tools.names)}")
    raw = match["input"].strip()
    try:
        data: Any = json.loads(raw) if raw else {}
    except json.JSONDecodeError as exc:
        raise StepParseError(f"Action Input is not valid JSON ({exc.msg})") from None
    try:
        args = tool.parse_args(data)
    except ToolError as exc:
        raise StepParseError(str(exc)) from None
    return ParsedStep(thought=thought, action=action, action_input=data, args=args)


def one_line(text: str, limit: int) -> str:
    """Collapse whitespace to one line and cut it to `limit` characters."""
    flat = " ".join(str(text).split())
    return flat if len(flat) <= limit else flat[: max(0, limit - 3)] + "..."


def render_step(thought: str, action: str, action_input: Any, observation: str | None = None) -> str:
    """A step as it appears in the scratchpad (and in Tiny Trajectory Store examples)."""
    text = (
        f"{THOUGHT}{one_line(thought, 10_000)}\n{ACTION}{action}\n"
        f"{ACTION_INPUT}{json.dumps(action_input, ensure_ascii=False)}\n"
    )
    if observation is not None:
        text += f"{OBSERVATION}{one_line(observation, 10_000)}\n"
    return text
