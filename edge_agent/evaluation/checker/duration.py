"""`duration`: how long (or what share of the samples) a series was past a limit, stated in hours, minutes, a percentage
or "n of m samples".
"""

from __future__ import annotations

import re

from edge_agent.evaluation import conclusions as cc
from edge_agent.evaluation.answer_text import mentions
from edge_agent.evaluation.answer_times import ISO_DATETIME
from edge_agent.evaluation.checker.base import CheckStatus, Evidence, TruthError, catalog_names, limit_pairs
from edge_agent.evaluation.tasks import DurationCheck
from edge_agent.evaluation.truth import Truth


def expected_duration(spec: DurationCheck, truth: Truth) -> tuple[float, float, int, int, float]:
    """(hours past the limit, share in %, samples past, samples compared, spacing in hours)."""
    pairs = limit_pairs(spec, truth)
    if len(pairs) < 2:
        raise TruthError(
            f"fewer than two samples of {spec.asset} {spec.sensor} to compare from {spec.start} to {spec.end}"
        )
    past = cc.crossed(pairs, spec.direction)
    hours = cc.held_s(pairs, spec.direction, spec.end) / 3600
    step_h = (cc.spacing_s([(at, v) for at, v, _ in pairs]) or 0.0) / 3600
    return hours, 100.0 * len(past) / len(pairs), len(past), len(pairs), step_h


_NEVER = re.compile(r"\b(?:never|not once|at no (?:time|point)|no time|none of the|0 (?:samples|hours?|h)\b)", re.I)


def durations_in(answer: str) -> tuple[list[float], list[float]]:
    """(hours, shares in %) an answer states: "3 h 15 min", "3.25 hours", "195 minutes", "12.5 %", "13 of 96
    samples"."""
    text = re.sub(ISO_DATETIME, " ", answer)
    hours, shares = [], []
    spans = []
    for m in re.finditer(
        r"(\d+(?:\.\d+)?)\s*(?:h|hrs?|hours?)\b(?:,?\s*(?:and\s*)?(\d+(?:\.\d+)?)\s*(?:min|mins|minutes?)\b)?",
        text,
        re.I,
    ):
        hours.append(float(m[1]) + (float(m[2]) / 60 if m[2] else 0.0))
        spans.append(m.span())
    for m in re.finditer(r"(\d+(?:\.\d+)?)\s*(?:min|mins|minutes?)\b", text, re.I):
        if not any(a <= m.start() < b for a, b in spans):
            hours.append(float(m[1]) / 60)
    for m in re.finditer(r"(\d+(?:\.\d+)?)\s*(?:%|percent\b|per cent\b)", text, re.I):
        shares.append(float(m[1]))
    for m in re.finditer(r"(\d+) (?:out )?of (?:the )?(\d+) (?:samples|readings|values|intervals)", text, re.I):
        if int(m[2]):
            shares.append(100.0 * int(m[1]) / int(m[2]))
    return hours, shares


def _check_duration(spec: DurationCheck, ev: Evidence, truth: Truth) -> tuple[CheckStatus, str]:
    hours, share, n, of, step_h = expected_duration(spec, truth)
    answer = ev.answer or ""
    others = catalog_names(truth)
    if not mentions(answer, spec.asset, others):
        return "fail", f"the answer does not name {spec.asset}"
    stated_h, stated_share = durations_in(answer)
    tol_h = max(step_h, spec.rel_tol * hours) + 1e-9
    want = f"{hours:.4g} h ({share:.3g} %, {n} of {of} samples) {spec.direction}"
    if any(abs(h - hours) <= tol_h for h in stated_h) or any(
        abs(x - share) <= spec.share_tol + 1e-9 for x in stated_share
    ):
        return "pass", want
    if n == 0 and _NEVER.search(answer) and not [h for h in stated_h if h > tol_h]:
        return "pass", want
    shown = ", ".join([f"{h:.4g} h" for h in stated_h] + [f"{x:.3g} %" for x in stated_share]) or "no duration"
    return "fail", f"expected {want} (±{tol_h:.3g} h or ±{spec.share_tol:g} points); the answer has {shown}"
