"""Schema-constrained JSON replies for the Review, Reflect and Distill roles.

One path for all three: the reply's pydantic model → `json_constraint(model)` (the same
pydantic-model → constraint path as the ReAct steps) → generation → validation with the same
model. A reply that still fails validation (cut off at `max_tokens`, or a constraint that silently
did not apply) is retried once with the error named in the prompt; if that fails too the caller
gets `None` and the error text, and uses its safe default. Nothing here raises on bad model output.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Generic, TypeVar

from pydantic import BaseModel, ValidationError

from edge_agent.agent.runtime import AgentRuntime
from edge_agent.agent.steps import one_line
from edge_agent.failures import Interrupted
from edge_agent.llm.base import Constraint, Prompt
from edge_agent.llm.constraints import json_constraint

M = TypeVar("M", bound=BaseModel)


@dataclass
class StructuredReply(Generic[M]):
    value: M | None
    attempts: int
    errors: list[str]


def string_limit(model: type[BaseModel], default: int = 400) -> int:
    """The tightest `maxLength` in the model's schema: the decoder bounds every free string by it, so
    a reply cut by the decoder still validates (the regex itself carries no lengths)."""
    limits: list[int] = []

    def walk(node: object) -> None:
        if isinstance(node, dict):
            if isinstance(node.get("maxLength"), int):
                limits.append(node["maxLength"])
            for v in node.values():
                walk(v)
        elif isinstance(node, list):
            for v in node:
                walk(v)

    walk(model.model_json_schema())
    return min(limits, default=default)


def constraint_for(model: type[BaseModel]) -> Constraint:
    """The JSON constraint for `model`, from its pydantic JSON schema."""
    return json_constraint(model, string_limit=string_limit(model))


def _validate(model: type[M], text: str) -> M:
    text = text.strip()
    start = text.find("{")
    if start > 0:  # tolerate a preamble only if the constraint did not apply; validation decides
        text = text[start:]
    return model.model_validate_json(text)


def ask_json(rt: AgentRuntime, prompt: Prompt, model: type[M], *, role: str, max_tokens: int) -> StructuredReply[M]:
    """Generate a `model` instance under its JSON constraint; retry once; `value` is None on failure."""
    constraint = constraint_for(model)
    errors: list[str] = []
    for attempt in (1, 2):
        if rt.cancelled:
            break
        current = prompt
        if errors:
            note = (
                f"\n\nYour previous reply could not be used ({errors[-1]}). Reply again with one complete "
                f"JSON object and keep every text short."
            )
            current = replace(prompt, user=prompt.user + note)
        try:
            out = rt.llm.complete(current, role=role, constraint=constraint, max_tokens=max_tokens)
        except Interrupted:  # cancelled: no retry; the caller falls back to its default
            errors.append("the model call was interrupted")
            break
        except Exception as exc:  # the runtime failed; the caller falls back to its default
            errors.append(f"the model call failed: {type(exc).__name__}: {one_line(str(exc), 160)}")
            continue
        try:
            return StructuredReply(_validate(model, out.text), attempt, errors)
        except (ValidationError, ValueError) as exc:
            detail = exc.errors()[0]["msg"] if isinstance(exc, ValidationError) else str(exc)
            cut = " (cut off at the token limit)" if out.finish_reason == "length" else ""
            errors.append(one_line(f"not valid {model.__name__} JSON{cut}: {detail}", 200))
    return StructuredReply(None, len(errors), errors)
