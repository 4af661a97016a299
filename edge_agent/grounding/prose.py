"""The prose check: whether the words of an answer are held by the run's evidence.

A Finish answer that code did not write (no head of a call starts it) is delivered as answered only where it is a
statement (`well_formed`) and its content words come from the question, the facts code worked out or this trial's
Observations (`words_held`); `unheld` names the words that do not. `grounding.status.unsupported` asks these.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from edge_agent.grounding.forms import FUNCTION_WORDS as QUESTION_FUNCTION_WORDS
from edge_agent.grounding.provenance import Source

#: the words an answer uses besides the reading's English function words (`question.FUNCTION_WORDS`): they say how a
#: figure stands, not what it is
ANSWER_WORDS = QUESTION_FUNCTION_WORDS | frozenset(
    "above below answers data question read reads recorded sees sum there're total value values".split()
)


def _code_facts(text: str) -> str:
    """Distill's facts without the lines its model wrote (the goal, the parts)."""
    return "\n".join(line for line in text.splitlines() if not line.startswith(("Goal:", "Parts:")))


def well_formed(answer: str) -> bool:
    """No clause said twice ("SITE-A, SITE-B, found 2 sites, found 2 sites, …" is pieces of tool output repeated,
    not an answer), no item listed three times, and something said."""
    if not re.search(r"\w", answer):
        return False
    pieces = [" ".join(c.casefold().split()) for c in re.split(r"[,;.:!?\n]+(?:\s|$)|\s-\s", answer)]
    clauses = [c for c in pieces if len(c.split()) >= 2]
    if len(clauses) != len(set(clauses)):
        return False
    counts: dict[str, int] = {}
    for c in pieces:  # one item listed three times ("UPS, UPS, UPS"): output run on, not a list
        if c:
            counts[c] = counts.get(c, 0) + 1
    return max(counts.values(), default=0) < 3


def evidence_text(sources: Sequence[Source], trial: int) -> str:
    """The words that may hold an answer's prose: the question, the facts code worked out (not the Distill
    model's own goal and parts: words the model wrote are no evidence for words the model writes) and this
    trial's Observations."""
    texts = [
        _code_facts(s.text) if s.kind == "facts" else s.text
        for s in sources
        if s.kind != "observation" or s.trial == trial
    ]
    return " ".join(texts).casefold()


def unheld(sources: Sequence[Source], trial: int, answer: str) -> list[str]:
    """The answer's content words (three letters or more, not English function words) that neither this
    trial's Observations, the facts nor the question hold."""
    seen = evidence_text(sources, trial)
    words = dict.fromkeys(w.casefold() for w in re.findall(r"[^\W\d_]{3,}", answer))
    return [w for w in words if w not in ANSWER_WORDS and not re.search(rf"\b{re.escape(w)}", seen)]


def words_held(sources: Sequence[Source], trial: int, answer: str, *, every: bool) -> bool:
    """`every`: each content word of the answer is held by the evidence (prose is delivered as answered only
    where the run's facts support it whole); else: at least one word of this trial's Observations is in it."""
    if every:
        return not unheld(sources, trial, answer)
    seen = " ".join(s.text for s in sources if s.kind == "observation" and s.trial == trial).casefold()
    words = {w.casefold() for w in re.findall(r"[^\W\d_]{3,}", answer)} - ANSWER_WORDS
    return any(re.search(rf"\b{re.escape(w)}\b", seen) for w in words)
