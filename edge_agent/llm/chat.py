"""Rendering a `Prompt` with the model's own chat template, split into stable prefix and variable rest.

The GGUF's `tokenizer.chat_template` (jinja2, as Hugging Face renders it) is applied to a system
and a user message with `add_generation_prompt`; the assistant prefix (the scratchpad) is appended
raw so the model continues it. Templates that refuse a system role (or drop it) get the system text
folded into the first user turn. Models without a template (base models) use a plain layout.

`split()` returns (prefix, rest): the prefix is everything before the user's text — identical
for every call of a role — so its tokens (and KV state) can be reused. `segments()` returns the same text
as `Segment`s that say which part the template wrote and which is content (system text, the user's text,
the scratchpad): only the template's own text may become the model's control tokens (`<|im_end|>` written
in a question, an Observation or a generated step stays text — the runtime tokenizes content without
special tokens).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Literal, NoReturn

import jinja2
from jinja2.sandbox import ImmutableSandboxedEnvironment

from edge_agent.llm.base import Prompt

PLAIN = "plain"
_MARK = "\x1eEDGE_AGENT_USER\x1e"
_SYSTEM = "\x1eEDGE_AGENT_SYSTEM\x1e"


@dataclass(frozen=True)
class Segment:
    """A piece of a rendered prompt: text the chat template wrote (`template`), or content."""

    text: str
    kind: Literal["template", "system", "user", "assistant"]


class TemplateError(ValueError):
    """The chat template could not be rendered."""


def _raise(message: str) -> NoReturn:
    raise jinja2.exceptions.TemplateError(message)


class ChatFormat:
    """`template`: a jinja chat template, or None / "plain" for the plain layout."""

    def __init__(self, template: str | None, bos_token: str = "", eos_token: str = ""):
        self.source = template
        self.plain = not template or template.strip() == PLAIN
        self.bos_token = bos_token
        self.eos_token = eos_token
        self.fold_system = False
        if not self.plain:
            env = ImmutableSandboxedEnvironment(trim_blocks=True, lstrip_blocks=True)
            env.globals["raise_exception"] = _raise
            env.globals["strftime_now"] = lambda fmt: datetime.now().strftime(fmt)
            try:
                self._template = env.from_string(template or "")  # not plain: there is one
            except jinja2.exceptions.TemplateError as exc:
                raise TemplateError(f"the chat template does not compile: {exc}") from None
            self._probe()

    @property
    def kind(self) -> str:
        if self.plain:
            return "plain"
        return "template (system folded into user)" if self.fold_system else "template"

    def _render(self, messages: list[dict[str, str]]) -> str:
        return self._template.render(
            messages=messages, add_generation_prompt=True, bos_token=self.bos_token, eos_token=self.eos_token
        )

    def _probe(self) -> None:
        """Decide once whether the template takes a system message."""
        system = "\x1eSYSTEM\x1e"
        try:
            text = self._render([{"role": "system", "content": system}, {"role": "user", "content": _MARK}])
            ok = system in text and text.count(_MARK) == 1
        except Exception:
            ok = False
        if not ok:
            self.fold_system = True
            try:
                text = self._render([{"role": "user", "content": f"{system}\n\n{_MARK}"}])
            except Exception as exc:
                raise TemplateError(f"the chat template cannot render a user message: {exc}") from None
            if text.count(_MARK) != 1:
                raise TemplateError("the chat template does not show the user message verbatim")

    def split(self, prompt: Prompt) -> tuple[str, str]:
        """(stable prefix, rest) whose concatenation is the full prompt text."""
        segments = self.segments(prompt)
        at = next(i for i, seg in enumerate(segments) if seg.kind == "user")
        return "".join(s.text for s in segments[:at]), "".join(s.text for s in segments[at:])

    def segments(self, prompt: Prompt) -> list[Segment]:
        """The full prompt as template text and content, in order (empty pieces left out, but always one
        "user" segment: the stable prefix ends where it starts)."""
        if self.plain:
            parts = [
                Segment(prompt.system, "system"),
                Segment("\n\n", "template"),
                Segment("", "user"),
                Segment("### Input\n", "template"),
                Segment(prompt.user, "user"),
                Segment("\n\n### Response\n", "template"),
                Segment(prompt.assistant_prefix, "assistant"),
            ]
        else:
            if self.fold_system:
                content = f"{_SYSTEM}\n\n{_MARK}" if prompt.system else _MARK
                messages = [{"role": "user", "content": content}]
            else:
                messages = [{"role": "system", "content": _SYSTEM}, {"role": "user", "content": _MARK}]
            try:
                text = self._render(messages)
            except Exception as exc:
                raise TemplateError(f"the chat template failed: {exc}") from None
            before, _, after = text.partition(_MARK)
            pre, found, between = before.partition(_SYSTEM)
            if not found:  # no system text to place (folded with an empty system)
                pre, between = before, ""
            parts = [
                Segment(pre, "template"),
                Segment(prompt.system if found else "", "system"),
                Segment(between, "template"),
                Segment(prompt.user, "user"),
                Segment(after, "template"),
                Segment(prompt.assistant_prefix, "assistant"),
            ]
        return [seg for seg in parts if seg.text or seg.kind == "user"]

    def render(self, prompt: Prompt) -> str:
        return "".join(seg.text for seg in self.segments(prompt))
