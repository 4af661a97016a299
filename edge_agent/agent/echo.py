"""Is a Review or Reflect reply the role's own judgement, or an echo?

A small model often copies its prompt's worked example ("Only the Power of Chiller 1 was read…") or
names sites, assets and figures that appear nowhere in the trial it judges. Such a reply is not
used: the caller falls back to the verdict or diagnosis written by code. Two checks:

- `copies_example(reply, prompt_text)`: the reply shares a run of `RUN_WORDS` words with a worked
  example's reply in the prompt (the lines that start with "{" after an "Example:"), or is as a whole
  close to one;
- `foreign(reply, evidence)`: figures, codes and catalog names in the reply that no evidence text holds.
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Iterable

from edge_agent.grounding.provenance import Source, trace

RUN_WORDS = 6
CLOSE = 0.6


def _words(text: str) -> list[str]:
    return re.findall(r"[a-z0-9]+", text.casefold())


def example_replies(prompt_text: str) -> list[str]:
    """The worked examples' replies in a role prompt: JSON lines that follow an "Example:" heading."""
    out, in_example = [], False
    for line in prompt_text.splitlines():
        if line.strip().startswith("Example"):
            in_example = True
        elif in_example and line.strip().startswith("{"):
            out.append(line.strip())
    return out


def copies_example(reply: str, prompt_text: str) -> bool:
    words = _words(reply)
    if not words:
        return False
    runs = {tuple(words[i : i + RUN_WORDS]) for i in range(max(1, len(words) - RUN_WORDS + 1))}
    for example in example_replies(prompt_text):
        ex = _words(example)
        ex_runs = {tuple(ex[i : i + RUN_WORDS]) for i in range(max(1, len(ex) - RUN_WORDS + 1))}
        if runs & ex_runs:
            return True
        if difflib.SequenceMatcher(None, " ".join(words), " ".join(ex)).ratio() >= CLOSE:
            return True
    return False


def foreign(reply: str, evidence: Iterable[str], names: Iterable[str] = ()) -> list[str]:
    """What the reply states that none of the evidence texts holds."""
    sources = [Source(kind="observation", text=t) for t in evidence if t]
    return [c.text for c in trace(reply, sources, names) if not c.grounded]
