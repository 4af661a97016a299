"""Loop detection for the ReAct executor: repeated actions, repeated thoughts and short cycles.

Each proposed step is checked BEFORE it runs against the steps of the same trial:

- the same action with the same input (compared as canonical JSON) as an earlier step;
- the same thought (compared without case, punctuation or extra spaces) as an earlier step;
- a short cycle: the last steps repeat a block of 2 or 3 different calls (A, B, A, B).

`Verdict.repeats` says how often the pattern was already seen (1 = this is its first repeat); a repeated
thought over a call not made before counts 0: the call runs, with a note (measured on the synthetic plant:
SmolLM2 writes one stock thought for every read of a two-part question, and stopping there lost the answer).
The executor runs a step normally while `repeats < loop_repeats` (adding a note), answers it with
feedback instead of running it once `repeats >= loop_repeats`, and ends the trial if a loop is
caught again after that feedback. `Finish` is never a loop.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from typing import Any, Literal

LoopKind = Literal["repeat_action", "repeat_thought", "cycle"]
CYCLE_LENGTHS = (2, 3)


def signature(action: str, action_input: Any) -> str:
    try:
        args = json.dumps(action_input, sort_keys=True, ensure_ascii=False, separators=(",", ":"))
    except (TypeError, ValueError):
        args = repr(action_input)
    return f"{action} {args}"


def normalise_thought(thought: str) -> str:
    return " ".join(re.sub(r"[^\w\s]", " ", thought.lower()).split())


@dataclass(frozen=True)
class Verdict:
    kind: LoopKind
    repeats: int  # how many times the pattern was seen before this step
    first_step: int  # the step (1-based) where it was first seen
    detail: str  # what repeats, in words, for the feedback

    def feedback(self, final: bool = False) -> str:
        if final:
            return f"Loop detected again: {self.detail}. The attempt is stopped here because it is not making progress."
        return (
            f"Loop detected: {self.detail}. Repeating it will not give anything new, so it was not run. "
            f"Change course: use the Observations you already have, try a different tool or different "
            f"arguments, or call Finish with what you know."
        )

    def note(self) -> str:
        return f"(Note: {self.detail}. Do not repeat it; move on.)"


@dataclass
class LoopDetector:
    repeats_allowed: int  # settings.loop_repeats
    _sigs: list[str] = field(default_factory=list)
    _thoughts: list[str] = field(default_factory=list)
    _actions: list[str] = field(default_factory=list)
    warned: bool = False  # loop feedback has been given in this trial

    def check(self, thought: str, action: str, action_input: Any) -> Verdict | None:
        """The strongest repetition this step would make, or None."""
        sig = signature(action, action_input)
        found: list[Verdict] = []
        if sig in self._sigs:
            found.append(
                Verdict(
                    "repeat_action",
                    self._sigs.count(sig),
                    self._sigs.index(sig) + 1,
                    f"{action} was already called with this same Action Input at step {self._sigs.index(sig) + 1}",
                )
            )
        norm = normalise_thought(thought)
        if norm and norm in self._thoughts:  # over a call not made before it is a note, never a stop: the
            first = self._thoughts.index(norm) + 1  # call is progress, whatever a small model's stock thought says
            found.append(
                Verdict(
                    "repeat_thought",
                    self._thoughts.count(norm) if sig in self._sigs else 0,
                    first,
                    f"this Thought was already written at step {first}",
                )
            )
        cycle = self._cycle(sig)
        if cycle is not None:
            found.append(cycle)
        if not found:
            return None
        # strongest first; on a tie prefer the most informative description (cycle, action, thought)
        order = {"cycle": 0, "repeat_action": 1, "repeat_thought": 2}
        return sorted(found, key=lambda v: (-v.repeats, order[v.kind]))[0]

    def _cycle(self, sig: str) -> Verdict | None:
        seq = self._sigs + [sig]
        for k in CYCLE_LENGTHS:
            block = seq[-k:]
            if len(set(block)) < 2 or len(seq) < 2 * k:
                continue
            reps = 0
            pos = len(seq) - 2 * k
            while pos >= 0 and seq[pos : pos + k] == block:
                reps += 1
                pos -= k
            if reps:
                names = [self._actions[i] if i < len(self._actions) else "" for i in range(len(seq) - k, len(seq) - 1)]
                names.append(sig.split(" ", 1)[0])
                first = len(seq) - k * (reps + 1) + 1
                return Verdict(
                    "cycle",
                    reps,
                    first,
                    f"the same {k} calls ({', '.join(names)}) keep repeating in a cycle since step {first}",
                )
        return None

    def record(self, thought: str, action: str, action_input: Any) -> None:
        self._sigs.append(signature(action, action_input))
        self._thoughts.append(normalise_thought(thought))
        self._actions.append(action)
