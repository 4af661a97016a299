"""The model interface every agent role talks to, and the per-call accounting.

`LLM.complete(prompt, role=..., constraint=...)` renders a `Prompt` (stable system part first,
then the variable user part, then an optional assistant prefix that the model continues) and
returns a `Completion` with exact token figures. `role` names the reusable prefix slot
(react, self-ask, review, reflect, distill), so each role's stable prefix stays in the KV cache.
`Completer` writes `complete` once for this package's LLMs: each answers a `Request` (the call's keywords).
`MeteredLLM` wraps any LLM and records every call for the run log and run metrics. A call given an
`interrupt` event stops soon after it is set (a cancel, the daemon's stop) by raising `Interrupted`.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol

from pydantic import BaseModel

from edge_agent.failures import Interrupted


class Usage(BaseModel):
    prompt_tokens: int = 0  # tokens in the rendered prompt
    evaluated_tokens: int = 0  # prompt tokens actually run through the model (after KV prefix reuse)
    generated_tokens: int = 0
    #: of the generated tokens, those the constraint fixed (only one text possible): appended without
    #: sampling and evaluated in a batch, so they cost what prompt tokens cost, not generation steps
    forced_tokens: int = 0
    #: the last generated tokens, which the call never evaluated (nothing was sampled after them; a next
    #: prompt continuing the text evaluates them, counted in its `evaluated_tokens`), and how many of them
    #: were forced: a gateway spends nothing on them in this call
    tail_tokens: int = 0
    tail_forced: int = 0
    ms: float = 0.0  # wall time of the call
    # where `ms` went (runtimes that measure it; the scripted LLM leaves them 0):
    eval_ms: float = 0.0  # evaluating prompt tokens (llama.cpp decode of the prompt)
    gen_ms: float = 0.0  # generating: model steps plus the (constrained) decoder's own work
    state_ms: float = 0.0  # saving / restoring role prefix KV states

    def __add__(self, other: Usage) -> Usage:
        return Usage(**{name: getattr(self, name) + getattr(other, name) for name in Usage.model_fields})


class Completion(BaseModel):
    text: str
    usage: Usage = Usage()
    finish_reason: str = "stop"  # stop | length | constraint


@dataclass(frozen=True)
class Prompt:
    """`system` is the stable prefix (instructions, tools, examples); `user` holds feedback then the
    question; `assistant_prefix` (the scratchpad) is text the model's answer continues."""

    system: str
    user: str
    assistant_prefix: str = ""
    #: how many characters of `system` are the same for every question (instructions, tools, the core
    #: examples); the runtime keeps that part's state too, so a new question evaluates only the rest
    shared: int = 0


@dataclass(frozen=True)
class Constraint:
    """A regular language the completion must belong to (built from pydantic models)."""

    name: str
    regex: str


class LLM(Protocol):
    model_name: str

    def complete(
        self,
        prompt: Prompt,
        *,
        role: str,
        constraint: Constraint | None = None,
        max_tokens: int = 256,
        stop: Sequence[str] = (),
        interrupt: threading.Event | None = None,
    ) -> Completion:
        """Complete `prompt` as `role`. `max_tokens=0` is a warm-up: the role's stable prefix (`Prompt.system`
        with the chat template's head) is brought into the KV cache, from its saved state or evaluated and
        saved, and nothing after it is evaluated or generated. Once `interrupt` is set the call raises
        `Interrupted` within a few tokens' work (a chunk of the prompt, one generated token)."""

    def count_tokens(self, text: str) -> int: ...


@dataclass(frozen=True)
class Request:
    """What one `complete` call asks besides the prompt: its keywords, as `LLM.complete` takes them."""

    role: str
    constraint: Constraint | None
    max_tokens: int
    stop: Sequence[str]
    interrupt: threading.Event | None


class Completer:
    """`LLM.complete` for the LLMs of this package (`MeteredLLM`, `ScriptedLLM`, `LlamaRuntime`): the call's keywords
    gathered in a `Request`, which each one answers in `_answer`."""

    def complete(
        self,
        prompt: Prompt,
        *,
        role: str,
        constraint: Constraint | None = None,
        max_tokens: int = 256,
        stop: Sequence[str] = (),
        interrupt: threading.Event | None = None,
    ) -> Completion:
        return self._answer(prompt, Request(role, constraint, max_tokens, stop, interrupt))

    def _answer(self, prompt: Prompt, request: Request) -> Completion:
        raise NotImplementedError


class LLMCall(BaseModel):
    role: str
    constraint: str | None
    usage: Usage
    finish_reason: str
    started_at: float
    #: the texts, for the run log (`prompt_system` is the same for many calls: the run log keeps it once)
    prompt_system: str = ""
    prompt_user: str = ""
    prompt_prefix: str = ""
    reply: str = ""


def _texts(prompt: Prompt) -> dict[str, str]:
    return {"prompt_system": prompt.system, "prompt_user": prompt.user, "prompt_prefix": prompt.assistant_prefix}


class MeteredLLM(Completer):
    """Passes calls through to `inner` and keeps an `LLMCall` record of each one (an interrupted call too,
    with what it spent). `interrupt`: the run's stop event, given to every call that does not bring its own."""

    def __init__(self, inner: LLM, interrupt: threading.Event | None = None):
        self.inner = inner
        self.model_name = inner.model_name
        self.interrupt = interrupt
        self.calls: list[LLMCall] = []

    def _answer(self, prompt: Prompt, request: Request) -> Completion:
        started = time.time()
        role, constraint = request.role, request.constraint
        name = constraint.name if constraint else None
        try:
            out = self.inner.complete(
                prompt,
                role=role,
                constraint=constraint,
                max_tokens=request.max_tokens,
                stop=request.stop,
                interrupt=request.interrupt or self.interrupt,
            )
        except Interrupted as exc:
            spent = exc.usage if isinstance(exc.usage, Usage) else Usage()
            self.calls.append(
                LLMCall(
                    role=role,
                    constraint=name,
                    usage=spent,
                    finish_reason="interrupted",
                    started_at=started,
                    **_texts(prompt),
                )
            )
            raise
        self.calls.append(
            LLMCall(
                role=role,
                constraint=name,
                usage=out.usage,
                finish_reason=out.finish_reason,
                started_at=started,
                reply=out.text,
                **_texts(prompt),
            )
        )
        return out

    def count_tokens(self, text: str) -> int:
        return self.inner.count_tokens(text)

    def total(self) -> Usage:
        total = Usage()
        for call in self.calls:
            total = total + call.usage
        return total
