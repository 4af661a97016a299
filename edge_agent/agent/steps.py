"""The ReAct step format: how a step is written in the scratchpad and how model output is parsed.

    Thought: <one line>
    Action: <a registered tool name>
    Action Input: <a JSON object valid for that tool's argument model>

After each step the runtime (never the model) appends `Observation: <text>`.
`render_step` writes a step (scratchpad, examples), `parse_step` reads and validates one, and `step_constraint`
is the same language as a constraint for the decoder: an alternation over the registered tools, each with its
own argument schema (built with `edge_agent.llm.constraints`' JSON machinery), narrowed by what the run's
grounding allows. A step the constraint accepts always parses: its validator is `parse_step`.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from edge_agent.grounding.allowed import StepGrounding
from edge_agent.grounding.provenance import answer_pattern
from edge_agent.grounding.scope import drop_calls, fold_fixed, pinned_calls
from edge_agent.llm.constraints import (
    DEFAULT_STRING_LIMIT,
    StructuredConstraint,
    cached,
    literal,
    max_lengths,
    schema_regex,
)
from edge_agent.toolkit import FINISH, ToolArgs, ToolError, ToolRegistry

THOUGHT = "Thought: "
ACTION = "Action: "
ACTION_INPUT = "Action Input: "
OBSERVATION = "Observation: "

#: A thought: one line, no control characters, not starting with a blank.
THOUGHT_FIRST = r"[^\x00-\x1F\x7F ]"
THOUGHT_REST = r"[^\x00-\x1F\x7F]*"
#: what a Finish answer may add after the fact code makes it start with (`answer_prefix`): room for a
#: clause ("; the Tonnage of Chiller 6 peaked at 283.2 at 2024-07-15T15:45."), not for a tiny model to ramble
ANSWER_TAIL_CHARS = 100

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
    action_input: dict[str, Any]
    args: ToolArgs


def parse_step(text: str, tools: ToolRegistry, fixed: dict[str, dict[str, Any]] | None = None) -> ParsedStep:
    """Parse one generated step and validate its action and arguments against the registry. `fixed` (per tool):
    the arguments the step's language left out because they had one possible value, written in here."""
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
    if fixed and action in fixed and isinstance(data, dict):
        data = {**data, **{k: v for k, v in fixed[action].items() if k not in data}}
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


# --- the step language as a constraint -----------------------------------------------------------


def _grounded_answer(
    schema: dict[str, Any], tokens: Iterable[str], prefix: str = "", closed: bool = False
) -> dict[str, Any]:
    """Finish's schema with the answer limited to free words and the given figures and codes."""
    out: dict[str, Any] = json.loads(json.dumps(schema))
    prop = out["properties"]["answer"]
    out["properties"]["answer"] = {k: v for k, v in prop.items() if k not in ("minLength", "maxLength")}
    out["properties"]["answer"]["pattern"] = answer_pattern(tokens, prefix, closed)
    return out


def step_constraint(
    tools: ToolRegistry,
    thought_max_chars: int,
    answer_max_chars: int,
    *,
    after_thought_prefix: str | None = None,
    string_limit: int = DEFAULT_STRING_LIMIT,
    files: Sequence[str] | None = None,
    grounded: StepGrounding | None = None,
    only: Sequence[str] | None = None,
    made: dict[str, list[dict[str, Any]]] | None = None,
    finish_alone: bool = False,
) -> StructuredConstraint:
    """The language of one ReAct step for `tools` (see module docstring); parseable by `parse_step` by construction.

    With `after_thought_prefix` (the prompt already ends in `Thought: <prefix>`), the language is the
    rest of that thought line followed by the Action lines, and the thought budget shrinks by the prefix.
    With `files` (the run's file names), an argument that names a file (`FILE_REF`) can only be one
    of them, and a tool that needs a file is left out while there is none: a made-up file name
    cannot be written.
    With `grounded` (what the run's grounding allows this step, `Grounding.for_step`): site, asset, sensor and
    period arguments can only be what its `scope` allows, and a tool none of whose calls fits is left out; the
    Finish answer can only write figures and codes from its `answer.tokens` (`grounding.provenance.answer_pattern`),
    starting with `answer.prefix` where there is one, and nothing else after it where `answer.closed`; only the
    tools it `offered` are offered. With `only`, just those tools are offered instead (e.g. only Finish once the
    answer is in hand). With `made` (tool → argument objects of the calls whose results are in hand), those calls
    cannot be written again where a tool's calls can be listed. With `finish_alone` (or where the grounding found
    everything the question names and no call is made yet), Finish is offered only when no other tool is; it is
    held back too while a tool marked `answers` has calls left whose every argument the scope pins, and while a
    part of the question no call has answered yet is open (`hold_finish`) and any other tool is offered.
    """
    scope = grounded.scope if grounded is not None else None
    answer = grounded.answer if grounded is not None else None
    hold_finish = grounded is not None and grounded.hold_finish
    if only is None and grounded is not None:
        only = grounded.offered
    finish_alone = finish_alone or (grounded is not None and grounded.all_found and not made)
    files = tuple(sorted(files)) if files is not None else None
    schemas = []
    for t in tools:
        if (files is not None and not files and t.file_args()) or (only is not None and t.name not in only):
            continue
        schema = t.schema(files, scope)
        if schema is not None and made and made.get(t.name):
            schema = drop_calls(schema, made[t.name])
        if schema is None:
            continue
        if t.name == FINISH and answer is not None:
            schema = _grounded_answer(schema, answer.tokens, answer.prefix, answer.closed)
        schemas.append((t, schema))
    held = scope is not None and any(t.answers and pinned_calls(sc) for t, sc in schemas)
    if (finish_alone or held or hold_finish) and len(schemas) > 1:
        schemas = [(t, sc) for t, sc in schemas if t.name != FINISH]
    fixed: dict[str, dict[str, Any]] = {}
    if scope is not None:  # an argument with one possible value costs the model no token: code writes it
        folded = []
        for t, sc in schemas:
            if t.name != FINISH:
                sc, fixed_here = fold_fixed(sc)
                if fixed_here:
                    fixed[t.name] = fixed_here
            folded.append((t, sc))
        schemas = folded
    signature = tuple((t.name, json.dumps(schema, sort_keys=True)) for t, schema in schemas)
    signature += (("fixed", json.dumps(fixed, sort_keys=True, default=str)),)
    key = (
        "step",
        signature,
        thought_max_chars,
        answer_max_chars,
        after_thought_prefix,
        string_limit,
        answer.prefix if answer is not None else "",
    )
    if not schemas:
        raise ValueError("a step constraint needs at least one tool")

    def make() -> StructuredConstraint:
        branches = [f"{literal(t.name)}\\nAction Input: {schema_regex(schema)}" for t, schema in schemas]
        actions = "\\nAction: (" + "|".join(branches) + ")"
        if after_thought_prefix is None:
            head, probe = f"Thought: {THOUGHT_FIRST}{THOUGHT_REST}", "Thought: a"
            thought_budget = thought_max_chars - 1
        else:
            head, probe = THOUGHT_REST, "a"
            thought_budget = thought_max_chars - len(after_thought_prefix) - 1
        limits = [(probe, max(1, thought_budget))]
        if FINISH in tools:  # the answer is the step's last field: every loop after its start shares its budget
            limits.append((f'{probe}\nAction: {FINISH}\nAction Input: {{"answer": "a', max(1, answer_max_chars - 1)))
            if answer is not None and answer.prefix:  # after a fact written in code, a short tail
                limits.append(
                    (
                        f'{probe}\nAction: {FINISH}\nAction Input: {{"answer": "{answer.prefix} a',
                        max(1, min(ANSWER_TAIL_CHARS, answer_max_chars - len(answer.prefix)) - 1),
                    )
                )

        def validate(text: str) -> ParsedStep:
            full = f"Thought: {after_thought_prefix}{text}" if after_thought_prefix is not None else text
            try:
                return parse_step(full, tools, fixed)
            except ValueError as exc:
                raise ValueError(f"output is not a valid step: {exc}") from None

        return StructuredConstraint(
            name="step" if after_thought_prefix is None else "step-rest",
            regex=head + actions,
            limits=tuple(limits),
            shared=tuple(p for p, _ in limits[1:]),
            default_limit=max(1, min([string_limit] + [n for _, sc in schemas for n in max_lengths(sc)]) - 1),
            validator=validate,
            fixed=fixed,
        )

    return cached(key, make)
