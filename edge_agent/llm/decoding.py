"""Constrained (and plain) token generation on llama.cpp, with our own decode loop over the automaton and token
table of `llm.automaton`.

How a constrained call runs:
- The constraint's regex is a byte-level DFA, and the model's vocabulary is walked through it lazily, state by
  state (`llm.automaton`: `automaton_for`, `TokenTable.state_info`): each allowed token's next state and its cost.
- Each step takes the greedy token (or a temperature sample) among the allowed ids only: the global
  argmax is checked first, and only if it is not allowed are the allowed ids' logits gathered.
- Where the DFA allows exactly one byte (fixed text such as "\\nAction Input: {\\"answer\\": \\""), the
  whole forced run is tokenized and appended without sampling, and evaluated in one batch.
- Each free-text loop has a character budget (`StructuredConstraint.limits`); when it runs low only
  tokens that fit are allowed, so a tiny model cannot ramble forever. A `shared` probe's budget is spent
  by every loop reachable after it (a Finish answer whose words, figures and units are different loops
  of the automaton has one budget, not one per loop).
- The token budget is respected structurally: each DFA state knows the fewest bytes to a final state
  (an upper bound on the tokens needed, as every vocabulary here spells single bytes), and once
  `max_tokens` runs short only tokens after which the text can still be completed are allowed —
  a thought that loops on "000…" is cut so the Action lines still fit.
- Generation stops when the DFA is final and no continuation exists, or the model picks end-of-text
  in a final state. If `max_tokens` ends first, finish_reason is "length".

The caller validates every finished output again (`StructuredConstraint.check`), so a decoder bug
cannot pass invalid output off as valid: the silent failure measured with outlines' llama.cpp
logits processor (constraint not applied, no error) cannot happen unnoticed here.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol

import numpy as np

from edge_agent.llm.automaton import ByteAutomaton, TokenTable, automaton_for

#: the decode loops, and the automaton's entry points their callers need with them
__all__ = ["DecodeTarget", "Generated", "TokenTable", "automaton_for", "generate_constrained", "generate_free"]


class DecodeTarget(Protocol):
    """What the decode loop needs from a runtime: evaluate tokens, read the last logits."""

    def feed(self, tokens: list[int]) -> None: ...

    def logits(self) -> np.ndarray: ...


@dataclass
class Generated:
    tokens: list[int]
    text: str
    finish_reason: str  # stop | length | constraint
    forced: int = 0  # tokens of `tokens` the automaton fixed (appended without sampling)
    #: the last tokens, chosen but never evaluated in this call (nothing was sampled after them): the next
    #: prompt that continues the text evaluates them, or nobody does; `tail_forced` of them were forced
    tail: int = 0
    tail_forced: int = 0


class _Picker:
    def __init__(self, temperature: float, seed: int):
        self.temperature = temperature
        self.rng = np.random.default_rng(seed)

    def pick(self, logits: np.ndarray, ids: np.ndarray | None = None) -> int:
        values = logits if ids is None else logits[ids]
        if self.temperature <= 0:
            best = int(np.argmax(values))
        else:
            z = values.astype(np.float64) / self.temperature
            z = np.exp(z - z.max())
            best = int(self.rng.choice(len(z), p=z / z.sum()))
        return best if ids is None else int(ids[best])


def generate_free(
    target: DecodeTarget,
    table: TokenTable,
    *,
    max_tokens: int,
    temperature: float = 0.0,
    seed: int = 0,
    stop: Sequence[str] = (),
) -> Generated:
    """Plain generation: until end-of-text, a stop string, or `max_tokens`."""
    picker = _Picker(temperature, seed)
    eog = set(table.eog_ids.tolist())
    out: list[int] = []
    data = bytearray()
    stops = [s.encode("utf-8") for s in stop if s]
    longest = max((len(s) for s in stops), default=0)
    while len(out) < max_tokens:
        tok = picker.pick(target.logits())
        if tok in eog:
            return Generated(out, data.decode("utf-8", "replace"), "stop")
        out.append(tok)
        piece = table.pieces[tok] or b""
        start = max(0, len(data) - longest)
        data += piece
        if stops:
            window = bytes(data[start:])
            hits = [window.find(s) for s in stops]
            hits = [h for h in hits if h >= 0]
            if hits:
                del data[start + min(hits) :]
                return Generated(out, data.decode("utf-8", "replace"), "stop")
        if len(out) < max_tokens:
            target.feed([tok])
    return Generated(out, data.decode("utf-8", "replace"), "length")


def generate_constrained(
    target: DecodeTarget,
    table: TokenTable,
    auto: ByteAutomaton,
    *,
    max_tokens: int,
    temperature: float = 0.0,
    seed: int = 0,
) -> Generated:
    """Generation inside the automaton's language (see module docstring)."""
    picker = _Picker(temperature, seed)
    eog = set(table.eog_ids.tolist())
    state = auto.initial
    out: list[int] = []
    pending: list[int] = []  # chosen, not yet evaluated
    used = np.zeros(auto.n_states + 1, dtype=np.int32)
    limit, field, counts, dead, slot = auto.limit, auto.field, auto.counts, auto.dead, auto.slot

    def advance(tok: int) -> int:
        cur = state
        for byte in table.pieces[tok] or b"":
            if counts[cur, byte]:
                used[slot[cur]] += 1
            cur = int(auto.table[cur, byte])
        return cur

    forced_count = 0
    pending_forced = 0  # of `pending`, the forced ones

    def text() -> str:
        return b"".join(table.pieces[t] or b"" for t in out).decode("utf-8", "replace")

    def done(reason: str) -> Generated:
        return Generated(out, text(), reason, forced_count, len(pending), pending_forced)

    while True:
        forced = auto.forced(state)
        if forced:
            toks = table.tokens_for(forced)
            room = max_tokens - len(out)
            for tok in toks[:room]:
                state = advance(tok)
                out.append(tok)
                pending.append(tok)
            forced_count += min(len(toks), room)
            pending_forced += min(len(toks), room)
            if len(toks) > room:
                return done("length")
        if auto.final[state] and not auto.has_out[state]:
            return done("stop")
        if len(out) >= max_tokens:
            return done("length")
        if pending:
            target.feed(pending)
            pending, pending_forced = [], 0
        info = table.state_info(auto, state)
        if not len(info.ids):
            return done("constraint")
        loop = int(field[state])
        loop = int(slot[loop]) if loop >= 0 else loop
        remaining = int(limit[loop] - used[loop]) if loop >= 0 and limit[loop] > 0 else 1 << 30
        logits = target.logits()
        tokens_left = max_tokens - len(out) - 1  # after this token
        if tokens_left < info.max_need:  # only tokens after which the structure can still be completed
            ok = info.need <= tokens_left
            if remaining < info.max_cost:
                ok &= info.cost <= remaining
            fits = info.ids[ok]
            if not len(fits):  # no single-byte token to progress with: let the budget end it ("length")
                fits = info.ids[info.cost <= remaining] if remaining < info.max_cost else info.ids
            if not len(fits):
                return done("constraint")
            tok = picker.pick(logits, fits)
        elif remaining >= info.max_cost:
            tok = -1
            if picker.temperature <= 0:
                best = int(np.argmax(logits))
                if info.mask[best]:
                    tok = best
            if tok < 0:
                tok = picker.pick(logits, info.ids)
        else:
            fits = info.ids[info.cost <= remaining]
            if not len(fits):
                return done("constraint")
            tok = picker.pick(logits, fits)
        if tok in eog:
            return done("stop" if auto.final[state] else "constraint")
        state = advance(tok)
        if state == dead:  # cannot happen: the token was allowed
            return done("constraint")
        out.append(tok)
        pending.append(tok)
