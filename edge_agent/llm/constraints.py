"""Constraints built from pydantic models: JSON replies as regular languages, and the machinery every
constrained language shares.

`json_constraint(Model)` turns the model's JSON schema into a regex with
`outlines_core.json_schema.build_regex_from_schema` (`schema_regex`), with the whitespace fixed to what
`json.dumps` writes (`{"a": 1, "b": "x"}`), so the scratchpad, the examples and the model's output share one
spelling and the model cannot pad with blanks. The ReAct step's language (Thought / Action / Action Input, an
alternation over the registered tools) is the agent's: `edge_agent.agent.steps.step_constraint` builds it
from the pieces here (`schema_regex`, `literal`, `StructuredConstraint`, `cached`).

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
from collections.abc import Callable, Hashable
from dataclasses import dataclass, field
from typing import Any

from outlines_core.json_schema import STRING_INNER, build_regex_from_schema
from pydantic import BaseModel

from edge_agent.llm.base import Constraint
from edge_agent.llm.lru import LRU

#: What `json.dumps(..., ensure_ascii=False)` can write inside a string: any character but `"`,
#: `\\` and controls, the short escapes, and `\\u00XX` for the other control characters.
JSON_STRING_INNER = r'([^"\\\x00-\x1F]|\\["\\/bfnrt]|\\u00[01][0-9a-f])'
DEFAULT_STRING_LIMIT = 200

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
    #: per tool, the arguments the language leaves out because they have one possible value (code writes them)
    fixed: dict[str, dict[str, Any]] = field(default_factory=dict, compare=False, hash=False, repr=False)

    def check(self, text: str) -> Any:
        """Raise ValueError unless `text` is in the language (and valid for its pydantic model)."""
        if _compiled(self.regex).fullmatch(text) is None:
            raise ValueError(f"output does not match the {self.name} constraint: {text[:120]!r}")
        return self.validator(text) if self.validator is not None else None


_RE_CACHE: LRU[re.Pattern[str]] = LRU(64)


def _compiled(regex: str) -> re.Pattern[str]:
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


def schema_regex(schema: dict[str, Any]) -> str:
    """The regex of every JSON text `json.dumps(..., ensure_ascii=False)` writes for `schema`."""
    raw: str = build_regex_from_schema(json.dumps(_strip_lengths(schema)), whitespace_pattern=_WS)
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


def cached(key: Hashable, make: Callable[[], StructuredConstraint]) -> StructuredConstraint:
    """The constraint cached under `key`, made (and kept, the 64 most recent) the first time: compiling a
    language costs milliseconds to seconds, and every step of every run asks again."""
    return _CACHE.get_or_make(key, make)


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
    return _CACHE.get_or_make(
        ("json", model_cls, string_limit),
        lambda: StructuredConstraint(
            name=f"json:{model_cls.__name__}",
            regex=schema_regex(schema),
            default_limit=string_limit,
            validator=_json_validator(model_cls),
        ),
    )
