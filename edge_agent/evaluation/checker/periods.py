"""`periods`: the answer names the winning one of two periods first (by date or label) and says the statistic compared
(or states the figures).
"""

from __future__ import annotations

import re

from edge_agent.evaluation import conclusions as cc
from edge_agent.evaluation.answer_text import numbers_in
from edge_agent.evaluation.answer_times import dates_in
from edge_agent.evaluation.checker.base import CheckStatus, Evidence, TruthError, series_of
from edge_agent.evaluation.checker.words import close, names_statistic
from edge_agent.evaluation.tasks import PeriodRef, PeriodsCheck
from edge_agent.evaluation.truth import Truth


def expected_periods(spec: PeriodsCheck, truth: Truth) -> tuple[list[str], float, float]:
    """(the winning period(s) of "first"/"second", the first's value, the second's value)."""
    vals = []
    for p in (spec.first, spec.second):
        series, unit = series_of(truth, spec.site, spec.asset, spec.sensor, p.start, p.end)
        if spec.by == "energy" and series and cc.power_scale(unit) is None:
            raise TruthError(f"{spec.sensor} is in {unit or 'no unit'}, not power: no energy to compare")
        vals.append(cc.aggregate(series, spec.by, unit))
    first, second = vals
    won = cc.winners({"first": first, "second": second}, spec.order)
    if not won or first is None or second is None:
        raise TruthError(f"no values of {spec.asset} {spec.sensor} in one of the two periods")
    return won, first, second


def period_named_at(answer: str, period: PeriodRef) -> int | None:
    """Where `answer` first names `period`: its first date in any common form, or one of its labels."""
    local = period.start
    at = [pos for pos, d in dates_in(answer, local.year) if d == local.date()]
    at += [
        m.start()
        for label in period.labels
        if label.strip()
        for m in re.finditer(r"(?<![a-z0-9])" + re.escape(label.casefold()) + r"(?![a-z0-9])", answer.casefold())
    ]
    return min(at) if at else None


def _check_periods(spec: PeriodsCheck, ev: Evidence, truth: Truth) -> tuple[CheckStatus, str]:
    won, a, b = expected_periods(spec, truth)
    answer = ev.answer or ""
    named = [
        (pos, which)
        for which, p in (("first", spec.first), ("second", spec.second))
        if (pos := period_named_at(answer, p)) is not None
    ]
    show = f"first {a:.6g}, second {b:.6g}"
    if not named:
        return "fail", f"the answer names neither period ({show}; {spec.order} {spec.by}: {' or '.join(won)})"
    first = min(named)[1]
    if first not in won:
        return "fail", f"the answer names the {first} period first; the {spec.order} {spec.by} is the {won[0]} ({show})"
    got = numbers_in(answer, [spec.site, spec.asset, spec.sensor])
    if spec.figures:
        missing = [
            f"{w} {v:.6g}"
            for w, v in (("first", a), ("second", b))
            if not any(close(x, v, spec.rel_tol, spec.abs_tol) for x in got)
        ]
        if missing:
            return "fail", f"the {first} period is named first, but the answer does not state {', '.join(missing)}"
    elif not names_statistic(answer, spec.by) and not any(
        close(x, v, spec.rel_tol, spec.abs_tol) for x in got for v in (a, b)
    ):
        return "fail", f"the answer does not say it compares the {spec.by} (no {spec.by} word and no figure; {show})"
    return "pass", f"{first} ({show})"


def _clear_periods(spec: PeriodsCheck, truth: Truth) -> None:
    won, _, _ = expected_periods(spec, truth)
    if len(won) > 1:
        raise TruthError(f"the two periods of {spec.asset} {spec.sensor} tie by {spec.by}")
