"""Answers with provenance: every figure and name in a final answer must come from this run's evidence.

Evidence is the question, the facts worked out in code, and the Observations of every step of the run
(each a `Source`). Two guarantees, one while the answer is written and one after:

- `answer_pattern(texts)` is the regex of the answer's JSON string: free words, but every token that
  holds a digit ("246.4", "2021-03-01", "Chiller 6"'s "6") and every upper-case code of three letters or
  more ("POKMAIN") must be one the evidence holds. The step constraint puts it on Finish's `answer`, so a
  figure nobody read cannot be generated;
- `trace(answer, sources, names)` finds, for each claim of the answer (those tokens, the file names and
  the catalog names it mentions), the source it came from: the latest Observation that holds it, else the
  facts, else the question. A claim without a source makes the answer ungrounded; the runtime refuses it.

What the agent publishes while it works (a step's thought, a review's reasoning) is free text no constraint
bounds; `mask(text, made_up)` writes `UNVERIFIED` in place of each of its claims that has no source, so progress
never shows an operator a figure or a name nobody read.
"""

from __future__ import annotations

import json
import re
import unicodedata
from collections.abc import Iterable, Sequence
from typing import Any, Literal

from pydantic import BaseModel

#: a token that holds a digit: "246.4", "2021-03-01T22:00", "B705_Total", "-3.5", "history_x-1a2b.json"
_DIGIT_TOKEN = re.compile(r"[A-Za-z0-9_.:+\-/]*\d[A-Za-z0-9_.:+\-/]*")
#: an upper-case code: "POKMAIN", "AHU"
_CODE = re.compile(r"(?<![A-Za-z0-9])[A-Z][A-Z0-9]{2,}(?![A-Za-z0-9])")
_TRAIL = ".:-/+_"
_FILE = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.\-]*\.json\b")


def file_names(text: str) -> list[str]:
    """The result files a text names ("history_Chiller_6_Tonnage-1a2b.json"), in order, each once."""
    return list(dict.fromkeys(_FILE.findall(text)))


_PARTS = re.compile(r"[_/\s]|(?<=\d)T(?=\d)")  # "2021-03-01T22:00" → "2021-03-01", "22:00"


class Source(BaseModel):
    kind: Literal["question", "facts", "observation"]
    text: str
    trial: int | None = None
    step: int | None = None
    tool: str = ""
    head: str = ""  # what a Finish answer states of this call, written by the tool (`toolkit.Said`)
    answers: bool = False  # the call's tool is marked `answers`: its head is the answer to a data question
    call: str = ""  # the call (tool and arguments): a call made again replaces the earlier head
    about: list[str] = []  # the site and asset names the call's arguments give (a listing is about them)

    def arguments(self) -> dict[str, Any]:
        """The arguments of the call this Observation records (`call` is "tool {json}"); {} where it has none."""
        try:
            args = json.loads(self.call.split(" ", 1)[1])
        except (IndexError, ValueError):
            return {}
        return args if isinstance(args, dict) else {}


class Claim(BaseModel):
    """One figure or name of an answer, and where it came from (kind None: nowhere — made up)."""

    text: str
    what: Literal["number", "code", "name", "file"]
    source: Literal["question", "facts", "observation"] | None = None
    trial: int | None = None
    step: int | None = None
    tool: str = ""

    @property
    def grounded(self) -> bool:
        return self.source is not None


def _clean(tok: str) -> str:
    return tok.strip(_TRAIL)


def digit_tokens(text: str) -> list[str]:
    return [t for t in (_clean(m.group(0)) for m in _DIGIT_TOKEN.finditer(text)) if any(c.isdigit() for c in t)]


_ISO = re.compile(r"(\d{4})-(\d{2})-(\d{2})(?:T(\d{2}):(\d{2}))?")


def _instant_words(tok: str) -> list[str]:
    """The pieces an answer writes of an ISO 8601 date or instant when it writes it in words ("16:15 on 1 June
    2020" of 2020-06-01T16:15): the year, the day of the month without its zero, the time of day."""
    m = _ISO.match(tok)
    if not m:
        return []
    out = [m.group(1), str(int(m.group(3)))]
    if m.group(4):
        out.append(f"{m.group(4)}:{m.group(5)}")
    return out


def codes(text: str) -> list[str]:
    return [m.group(0) for m in _CODE.finditer(text) if sum(c.isalpha() for c in m.group(0)) >= 3]


def evidence_tokens(texts: Iterable[str]) -> set[str]:
    """What an answer may write of the texts: their digit tokens with their pieces, and their codes."""
    out: set[str] = set()
    for text in texts:
        for tok in digit_tokens(text):
            out.add(tok)
            out.update(p for p in (_clean(part) for part in _PARTS.split(tok)) if p)
            out.update(_instant_words(tok))
        out.update(codes(text))
        out.update(_FILE.findall(text))
    return out


def _literal(text: str) -> str:
    return "".join(ch if ch.isalnum() else f"\\x{ord(ch):02X}" if ord(ch) < 0x80 else ch for ch in text)


def _other_digits() -> str:
    """Every non-ASCII decimal digit (full-width, Arabic-Indic, …) as regex class ranges."""
    out: list[list[int]] = []  # [first, last] of each run of digits
    for cp in range(0x80, 0x1FC00):
        if unicodedata.category(chr(cp)) != "Nd":
            continue
        if out and cp == out[-1][1] + 1:
            out[-1][1] = cp
        else:
            out.append([cp, cp])
    return "".join(f"{chr(a)}-{chr(b)}" for a, b in out)


#: a separator inside the sentence: anything but letters, digits (of any script: a figure in full-width
#: digits is a figure too), sentence ends, the characters that join a token ("_.:+-/", so a figure cannot be
#: assembled from pieces), the JSON string's quote and backslash, controls, and arithmetic ("*=")
_SEP = r'[^A-Za-z0-9.!?;_:+\-/*="\\\x00-\x1F' + _other_digits() + "]"
#: a free word: lower case, capitalised, or a unit-like mix ("kWh"), or one or two capitals ("I", "OK");
#: longer all-capital words are codes and must come from the evidence
_WORD = r"(?:[A-Z]?[a-z]+(?:[A-Z][a-z]*)?|[A-Z]{1,2})"


def answer_pattern(tokens: Iterable[str], prefix: str = "", closed: bool = False) -> str:
    """The regex of an answer string (JSON-string content, no escapes): one sentence whose digit tokens,
    codes and file names are all in `tokens`, free words and separators otherwise, and an optional end mark.
    With `prefix` (a fact worked out in code), the answer starts with it; `closed`: it is the whole answer,
    with no end mark to choose either, so once Finish is chosen nothing is left to sample and the answer's
    tokens are never evaluated (a choice after them made the model read the whole answer first: ~110
    tokens per answer, bench/reports/2026-11-24-code-finish)."""
    allowed = sorted({t for t in tokens if t and '"' not in t and "\\" not in t}, key=lambda t: (-len(t), t))
    unit = f"(?:{_WORD}|{'|'.join(_literal(t) for t in allowed)})" if allowed else _WORD
    if prefix and closed:
        return _literal(prefix)
    if prefix:
        return f"{_literal(prefix)}(?:{_SEP}+{unit})*[.!?]?"
    return f"{unit}(?:{_SEP}+{unit})*[.!?]?"


def _whole(needle: str, hay: str) -> bool:
    return re.search(r"(?<![A-Za-z0-9])" + re.escape(needle) + r"(?![A-Za-z0-9])", hay) is not None


def _whole_token(needle: str, hay: str) -> bool:
    """`needle` stands alone in `hay`: not a piece of a longer figure or name ("2" is not in "283.2";
    "283.2" is in "max 283.2.")."""
    return re.search(r"(?<![\w.:+\-/])" + re.escape(needle) + r"(?![\w:+\-/]|\.\w)", hay) is not None


def claims_of(answer: str, names: Iterable[str] = ()) -> list[Claim]:
    """The figures and names an answer states: its digit tokens (file names among them), its codes, and
    the catalog `names` it mentions."""
    found: dict[str, Claim] = {}
    for tok in digit_tokens(answer):
        found.setdefault(tok, Claim(text=tok, what="file" if tok.endswith(".json") else "number"))
    for code in codes(answer):
        found.setdefault(code, Claim(text=code, what="code"))
    for name in sorted(set(names), key=len, reverse=True):
        if len(name) >= 3 and name not in found and name in answer and _whole(name, answer):
            found.setdefault(name, Claim(text=name, what="name"))
    return list(found.values())


def _holds(source: Source, claim: Claim) -> bool:
    if claim.what in ("number", "file", "code"):
        return claim.text in evidence_tokens([source.text]) or _whole_token(claim.text, source.text)
    return _whole(claim.text, source.text) or claim.text.casefold() in source.text.casefold()


def trace(answer: str, sources: Sequence[Source], names: Iterable[str] = ()) -> list[Claim]:
    """Every claim of `answer` with its source: the latest Observation holding it, else facts, else question."""
    ranked = (
        [s for s in reversed(sources) if s.kind == "observation"]
        + [s for s in sources if s.kind == "facts"]
        + [s for s in sources if s.kind == "question"]
    )
    out = []
    for claim in claims_of(answer, names):
        src = next((s for s in ranked if _holds(s, claim)), None)
        if src is not None:
            claim = claim.model_copy(
                update={"source": src.kind, "trial": src.trial, "step": src.step, "tool": src.tool}
            )
        out.append(claim)
    return out


def ungrounded(claims: Sequence[Claim]) -> list[str]:
    return [c.text for c in claims if not c.grounded]


#: what a published text shows in place of a figure or name no source held
UNVERIFIED = "[unverified]"


def mask(text: str, made_up: Iterable[str]) -> str:
    """`text` with each `made_up` claim replaced by UNVERIFIED where it stands as a claim: a figure or file
    as a whole token (never a piece of a longer figure), a code as a whole code, a name as whole words."""
    bad = {c for c in made_up if c}
    if not bad:
        return text
    tokens = {c for c in bad if _DIGIT_TOKEN.fullmatch(c)}
    code_set = {c for c in bad - tokens if codes(c) == [c]}
    for name in sorted(bad - tokens - code_set, key=len, reverse=True):
        text = re.sub(r"(?<![A-Za-z0-9])" + re.escape(name) + r"(?![A-Za-z0-9])", UNVERIFIED, text)

    def token(m: re.Match[str]) -> str:
        whole = m.group(0)
        core = _clean(whole)
        if core not in tokens:
            return whole
        at = whole.find(core)
        return whole[:at] + UNVERIFIED + whole[at + len(core) :]

    text = _DIGIT_TOKEN.sub(token, text)
    return _CODE.sub(lambda m: UNVERIFIED if m.group(0) in code_set else m.group(0), text)
