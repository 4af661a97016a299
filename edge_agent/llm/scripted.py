"""A scripted LLM for unit tests of control flow: replies come from a list or a function, never a model.

It records every prompt it was given, so tests can check prompt layout (e.g. that feedback
comes before the question). It is never used in an end-to-end test.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from edge_agent.failures import Interrupted
from edge_agent.llm.base import Completer, Completion, Constraint, Prompt, Request, Usage

Reply = str | Callable[[Prompt, str, Constraint | None], str]


class ScriptExhausted(AssertionError):
    """The code under test asked for more completions than the script holds."""


class ScriptedLLM(Completer):
    model_name = "scripted"

    def __init__(self, replies: Sequence[Reply] | Callable[[Prompt, str, Constraint | None], str]):
        self._fn = replies if callable(replies) else None
        self._replies = list(replies) if not callable(replies) else []
        self.prompts: list[tuple[str, Prompt, Constraint | None]] = []

    def _answer(self, prompt: Prompt, request: Request) -> Completion:
        role, constraint = request.role, request.constraint
        if request.interrupt is not None and request.interrupt.is_set():  # as a runtime does before its first token
            raise Interrupted()
        self.prompts.append((role, prompt, constraint))
        n_prompt = self.count_tokens(prompt.system + prompt.user + prompt.assistant_prefix)
        if request.max_tokens == 0:  # a warm-up: the prompt is evaluated, nothing is generated, no reply is used
            return Completion(
                text="", usage=Usage(prompt_tokens=n_prompt, evaluated_tokens=n_prompt), finish_reason="length"
            )
        if self._fn is not None:
            text = self._fn(prompt, role, constraint)
        else:
            if not self._replies:
                raise ScriptExhausted(f"no scripted reply left for a {role!r} call")
            reply = self._replies.pop(0)
            text = reply(prompt, role, constraint) if callable(reply) else reply
        return Completion(
            text=text,
            usage=Usage(prompt_tokens=n_prompt, evaluated_tokens=n_prompt, generated_tokens=self.count_tokens(text)),
        )

    def count_tokens(self, text: str) -> int:
        return max(1, len(text) // 4)

    def roles(self) -> list[str]:
        return [role for role, _, _ in self.prompts]
