"""Speech repairs: a name the operator took back ("the chiller, no wait, Chiller 2", "Genset 1 yesterday, I mean
Genset 2", "CRAH-03, or maybe CRAH-04, actually CRAH-04").

Spoken and hurried questions correct themselves in flight. An editing term ("no wait", "I mean", "or rather",
"scratch that", "actually") followed by a name of the SkySpark replaces the names of the same class (a site, a piece
of equipment or a kind of it, a series) said before it in the same sentence: those are the reparandum. `take_back`
blanks them and the editing term (the length kept, so every span into the question still points where it did) and
says what it took back, which the Read-as line reports. Only an editing term with a name of the same class after it
repairs: "what was actually the peak" takes nothing back.
"""

from __future__ import annotations

import re

from edge_agent.grounding.catalog import Catalog
from edge_agent.grounding.context import _blank
from edge_agent.grounding.linking import link

#: an editing term of English speech: what stands between a name taken back and the one that replaces it
_EDITING = re.compile(
    r"(?:^|[\s,;:—–-])\s*(?P<term>no\s*,?\s*wait|wait\s*,?\s*no|no\s*,?\s*sorry|sorry\s*,?\s*i\s+mean[t]?|"
    r"scratch\s+that|no\s*,?\s*actually|my\s+bad|oops)\s*[,:;—–-]?\s+"
    # words that repair only where a pause sets them off ("Genset 1, I mean Genset 2"; not "have we actually got")
    r"|[,;—–]\s*(?P<term2>i\s+mean[t]?|or\s+rather|correction|actually|rather)\s*[,:;—–-]?\s+",
    re.I,
)
_SENTENCE_END = re.compile(r"[.?!](?=\s)")
_REACH = 24  # the repair follows its editing term closely: a name within this many characters


def _class(kind: str) -> str:
    return "equipment" if kind in ("asset", "kind") else kind


def _places(question: str, text: str) -> list[tuple[int, int]]:
    return [(m.start(), m.end()) for m in re.finditer(re.escape(text), question, re.I)] if text else []


def take_back(question: str, catalog: Catalog) -> tuple[str, list[str]]:
    """The question with the names the operator took back blanked, and what was taken back ("Genset 1, I mean")."""
    terms = list(_EDITING.finditer(question))
    if not terms:
        return question, []
    mentions = [(m, span) for m in link(question, catalog).mentions for span in _places(question, m.text)]
    text, taken = question, []
    for term in terms:
        which = "term" if term.group("term") else "term2"
        start, end = term.start(which), term.end()
        sentence = max((m.end() for m in _SENTENCE_END.finditer(question, 0, start)), default=0)
        after = {_class(m.kind) for m, (s, _) in mentions if end <= s <= end + _REACH}
        before = sorted(
            {span for m, span in mentions if _class(m.kind) in after and sentence <= span[0] and span[1] <= start}
        )
        if not before:
            continue
        for s, e in before:
            text = _blank(text, s, e)
        text = _blank(text, start, term.end(which))
        taken.append(f"{question[before[0][0] : term.end(which)].strip()}")
    return text, taken
