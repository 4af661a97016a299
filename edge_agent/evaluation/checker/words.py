"""Readings of an answer that more than one kind of check makes: a number close to the expected one, the statistic a
clause names, a noun named in its plural or run together.
"""

from __future__ import annotations

import re

from edge_agent.evaluation.answer_text import numbers_in
from edge_agent.evaluation.checker.base import CheckStatus, Evidence


def close(x: float, expected: float, rel_tol: float, abs_tol: float) -> bool:
    return abs(x - expected) <= max(rel_tol * abs(expected), abs_tol)


def _number_check(
    ev: Evidence, names: list[str | None], want: float, what: str, rel_tol: float, abs_tol: float
) -> tuple[CheckStatus, str]:
    got = numbers_in(ev.answer or "", [n for n in names if n])
    hit = [x for x in got if close(x, want, rel_tol, abs_tol)]
    if hit:
        return "pass", f"{hit[0]:g} ≈ {what} {want:.6g}"
    shown = ", ".join(f"{x:g}" for x in got[:6]) or "no number"
    return "fail", f"expected {what} {want:.6g} (±{max(rel_tol * abs(want), abs_tol):.3g}); answer has {shown}"


_STAT_WORDS = {
    "max": re.compile(
        r"\b(?:max(?:imum|ima|imal)?|peak(?:s|ed|ing)?|highest (?:single )?(?:value|reading|sample|level|point)s?"
        r"|top (?:value|reading)s?)\b",
        re.I,
    ),
    "min": re.compile(
        r"(?<!\d )(?<!\d)\b(?:min(?:imum|ima|imal)?(?! ?\d)|lowest (?:single )?(?:value|reading|sample|level|point)s?"
        r"|trough)\b",
        re.I,
    ),
    "mean": re.compile(r"\b(?:mean|average(?:d|s)?|avg)\b", re.I),
    "energy": re.compile(r"\b(?:energy|k?wh|mwh|consum\w*|electricity|used (?:the )?(?:most|least))\b", re.I),
}


def names_statistic(clause: str, by: str) -> bool:
    """Whether `clause` names or implies the statistic `by` (max: max/peak/highest value; min; mean/average;
    energy/kWh/consumption)."""
    return _STAT_WORDS[by].search(clause) is not None


def noun_named(text: str, noun: str) -> bool:
    """`noun` (one or more words, e.g. "cooling tower", "coolingTower") occurs in `text`, each word also in its
    plural or run together."""
    words = [w for w in re.split(r"[\s_\-]+|(?<=[a-z])(?=[A-Z])", noun.strip()) if w]
    if not words:
        return False
    pattern = r"[\s_\-]*".join(re.escape(w.casefold()) + r"(?:e?s)?" for w in words)
    return re.search(rf"(?<![a-z0-9]){pattern}(?![a-z0-9])", text.casefold()) is not None
