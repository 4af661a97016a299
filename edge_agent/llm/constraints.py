"""Constraints built from pydantic models: JSON replies and ReAct steps as regular languages.

`json_constraint(Model)` and `step_constraint(tools, ...)` turn the models' JSON schemas into
regexes with `outlines_core.json_schema.build_regex_from_schema`, with the whitespace fixed to what
`json.dumps` writes (`{"a": 1, "b": "x"}`), so the scratchpad (`render_step`), the examples and the
model's output share one spelling and the model cannot pad with blanks. The step language is

    Thought: <one line>\\nAction: <tool>\\nAction Input: <JSON for THAT tool's argument model>

an alternation over the registered tools, each with its own argument schema.

Free strings stay unbounded in the regex (`*`): a counted repetition such as `{0,600}` over
JSON string characters makes the automaton explode (measured: minutes and gigabytes to compile),
so lengths are bounded by the decoder instead (`edge_agent.llm.decoding`): each free-text loop of
the automaton gets a character budget. `limits` names them by a probe (a prefix of an accepted
string that ends inside that loop); every other loop gets `default_limit`. A probe in `shared` makes
every loop reachable after it spend that one budget (the Finish answer, the step's last field).
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from typing import Any, Callable, Iterable, Sequence

from outlines_core.json_schema import STRING_INNER, build_regex_from_schema
from pydantic import BaseModel

from edge_agent.llm.base import Constraint
from edge_agent.llm.lru import LRU
from edge_agent.toolkit import FINISH, ToolRegistry

#: What `json.dumps(..., ensure_ascii=False)` can write inside a string: any character but `"`,
#: `\\` and controls, the short escapes, and `\\u00XX` for the other control characters.
JSON_STRING_INNER = r'([^"\\\x00-\x1F]|\\["\\/bfnrt]|\\u00[01][0-9a-f])'
#: A thought: one line, no control characters, not starting with a blank.
THOUGHT_FIRST = r"[^\x00-\x1F\x7F ]"
THOUGHT_REST = r"[^\x00-\x1F\x7F]*"
DEFAULT_STRING_LIMIT = 200
#: what a Finish answer may add after the fact code makes it start with (`answer_prefix`): room for a
#: clause ("; the Tonnage of Chiller 6 peaked at 283.2 at 2024-07-15T15:45."), not for a tiny model to ramble
ANSWER_TAIL_CHARS = 100

_WS = "\x00ws\x00"  # sentinel whitespace pattern, replaced by json.dumps' separators


@dataclass(frozen=True)
class StructuredConstraint(Constraint):
    """A `Constraint` plus the decoder's length budgets and an independent validator.

    `limits`: (probe, max characters) pairs, see the module docstring. `validator` raises
    ValueError for a completed text that is not acceptable (regex and pydantic), and is used after
    every constrained generation, so a decoder bug can never pass off invalid output as valid.
    """

    limits: tuple[tuple[str, int], ...] = ()
    shared: tuple[str, ...] = ()  # probes of `limits` whose budget every later loop spends
    default_limit: int = DEFAULT_STRING_LIMIT
    validator: Callable[[str], Any] | None = field(default=None, compare=False, hash=False, repr=False)

    def check(self, text: str) -> Any:
        """Raise ValueError unless `text` is in the language (and valid for its pydantic model)."""
        if _compiled(self.regex).fullmatch(text) is None:
            raise ValueError(f"output does not match the {self.name} constraint: {text[:120]!r}")
        return self.validator(text) if self.validator is not None else None


_RE_CACHE: LRU[re.Pattern] = LRU(64)


def _compiled(regex: str) -> re.Pattern:
    return _RE_CACHE.get_or_make(regex, lambda: re.compile(regex, re.S))


def literal(text: str) -> str:
    """A regex matching exactly `text`, valid for both Rust's regex crate and Python's re."""
    out = []
    for ch in text:
        if ch.isalnum() or ch in " _":
            out.append(ch)
        elif ord(ch) < 0x80:
            out.append(f"\\x{ord(ch):02X}")
        else:
            out.append(ch)
    return "".join(out)


def _strip_lengths(schema: Any) -> Any:
    """Drop maxLength (the decoder bounds strings; counted repetitions explode the automaton)."""
    if isinstance(schema, dict):
        return {k: _strip_lengths(v) for k, v in schema.items() if k != "maxLength"}
    if isinstance(schema, list):
        return [_strip_lengths(v) for v in schema]
    return schema


def schema_regex(schema: dict) -> str:
    """The regex of every JSON text `json.dumps(..., ensure_ascii=False)` writes for `schema`."""
    raw = build_regex_from_schema(json.dumps(_strip_lengths(schema)), whitespace_pattern=_WS)
    raw = raw.replace(f"{_WS}:{_WS}", ": ")
    raw = raw.replace(f",({_WS}", ",( ").replace(f",{_WS}", ", ")
    raw = raw.replace(_WS, "")
    return raw.replace(STRING_INNER, JSON_STRING_INNER)


def _json_validator(model_cls: type[BaseModel]) -> Callable[[str], BaseModel]:
    def validate(text: str) -> BaseModel:
        try:
            return model_cls.model_validate_json(text)
        except Exception as exc:  # pydantic.ValidationError is a ValueError
            raise ValueError(f"output is not a valid {model_cls.__name__}: {exc}") from None

    return validate


_CACHE: LRU[StructuredConstraint] = LRU(64)


def max_lengths(schema: Any) -> list[int]:
    """Every `maxLength` in a JSON schema."""
    found: list[int] = []
    if isinstance(schema, dict):
        if isinstance(schema.get("maxLength"), int):
            found.append(schema["maxLength"])
        for value in schema.values():
            found.extend(max_lengths(value))
    elif isinstance(schema, list):
        for value in schema:
            found.extend(max_lengths(value))
    return found


def json_constraint(model_cls: type[BaseModel], *, string_limit: int | None = None) -> StructuredConstraint:
    """The JSON texts of `model_cls` (properties in schema order, `json.dumps` spacing).

    Every free string is bounded by the decoder to `string_limit` characters (default: the schema's
    tightest `maxLength`, else 400), so a reply the decoder completes also validates.
    """
    schema = model_cls.model_json_schema()
    if string_limit is None:
        string_limit = min([400] + max_lengths(schema))
    string_limit = max(1, string_limit - 1)  # the first character of a min_length=1 string is not in the loop
    return _CACHE.get_or_make(("json", model_cls, string_limit), lambda: StructuredConstraint(
        name=f"json:{model_cls.__name__}",
        regex=schema_regex(schema),
        default_limit=string_limit,
        validator=_json_validator(model_cls),
    ))


def _grounded_answer(schema: dict, tokens: Iterable[str], prefix: str = "", closed: bool = False) -> dict:
    """Finish's schema with the answer limited to free words and the given figures and codes."""
    from edge_agent.grounding.provenance import answer_pattern

    out = json.loads(json.dumps(schema))
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
    scope: Any = None,
    answer_tokens: Iterable[str] | None = None,
    answer_prefix: str = "",
    answer_closed: bool = False,
    only: Sequence[str] | None = None,
    made: dict[str, list[dict]] | None = None,
    finish_alone: bool = False,
    hold_finish: bool = False,
) -> StructuredConstraint:
    """One ReAct step for `tools` (see module docstring); parseable by `parse_step` by construction.

    With `after_thought_prefix` (the prompt already ends in `Thought: <prefix>`), the language is the
    rest of that thought line followed by the Action lines, and the thought budget shrinks by the prefix.
    With `files` (the run's file names), an argument that names a file (`FILE_REF`) can only be one
    of them, and a tool that needs a file is left out while there is none: a made-up file name
    cannot be written.
    With `scope` (`edge_agent.grounding.scope.Scope`), site, asset, sensor and period arguments can only
    be what the scope allows, and a tool none of whose calls fits is left out. With `answer_tokens`, the
    Finish answer can only write figures and codes from that set (`grounding.provenance.answer_pattern`),
    starting with `answer_prefix` where there is one, and nothing else after it with `answer_closed`.
    With `only`, just those tools are offered (e.g. only Finish once the answer is in hand). With `made`
    (tool → argument objects of the calls whose results are in hand), those calls cannot be written again
    where a tool's calls can be listed. With `finish_alone`, Finish is offered only when no other tool is;
    it is held back too while a tool marked `answers` has calls left whose every argument the scope pins, and
    with `hold_finish` (a part of the question no call has answered yet) while any other tool is offered.
    """
    from edge_agent.grounding.scope import drop_calls, pinned_calls

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
        if t.name == FINISH and answer_tokens is not None:
            schema = _grounded_answer(schema, answer_tokens, answer_prefix, answer_closed)
        schemas.append((t, schema))
    held = scope is not None and any(t.answers and pinned_calls(sc) for t, sc in schemas)
    if (finish_alone or held or hold_finish) and len(schemas) > 1:
        schemas = [(t, sc) for t, sc in schemas if t.name != FINISH]
    signature = tuple((t.name, json.dumps(schema, sort_keys=True)) for t, schema in schemas)
    key = ("step", signature, thought_max_chars, answer_max_chars, after_thought_prefix, string_limit,
           answer_prefix if answer_tokens is not None else "")
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
            if answer_prefix and answer_tokens is not None:  # after a fact written in code, a short tail
                limits.append((f'{probe}\nAction: {FINISH}\nAction Input: {{"answer": "{answer_prefix} a',
                               max(1, min(ANSWER_TAIL_CHARS, answer_max_chars - len(answer_prefix)) - 1)))

        def validate(text: str):
            from edge_agent.agent.steps import parse_step  # late: agent imports llm

            full = f"Thought: {after_thought_prefix}{text}" if after_thought_prefix is not None else text
            try:
                return parse_step(full, tools)
            except ValueError as exc:
                raise ValueError(f"output is not a valid step: {exc}") from None

        return StructuredConstraint(
            name="step" if after_thought_prefix is None else "step-rest",
            regex=head + actions,
            limits=tuple(limits),
            shared=tuple(p for p, _ in limits[1:]),
            default_limit=max(1, min([string_limit] + [n for _, sc in schemas for n in max_lengths(sc)]) - 1),
            validator=validate,
        )

    return _CACHE.get_or_make(key, make)
