"""`time_of_extreme`: the answer states when a series held its max or min, site-local, within the sample spacing."""

from __future__ import annotations

from datetime import datetime, timedelta

from edge_agent.evaluation import conclusions as cc
from edge_agent.evaluation.answer_times import dates_in, times_in
from edge_agent.evaluation.checker.base import CheckStatus, Evidence, TruthError, series_of
from edge_agent.evaluation.tasks import TimeOfExtremeCheck
from edge_agent.evaluation.truth import Truth


def expected_extreme(spec: TimeOfExtremeCheck, truth: Truth) -> tuple[list[datetime], float, float]:
    """(the instants holding the extreme, site-local; its value; the tolerance in minutes)."""
    series, _ = series_of(truth, spec.site, spec.asset, spec.sensor, spec.start, spec.end)
    instants = cc.extreme_instants(series, spec.extreme)
    if not instants:
        raise TruthError(f"no values of {spec.asset} {spec.sensor} from {spec.start} to {spec.end}")
    tol = spec.tolerance_minutes if spec.tolerance_minutes is not None else (cc.spacing_s(series) or 0.0) / 60
    value = cc.aggregate(series, spec.extreme)
    if value is None:
        raise TruthError(f"no values of {spec.asset} {spec.sensor} from {spec.start} to {spec.end}")
    return instants, float(value), float(tol)


def _check_time_of_extreme(spec: TimeOfExtremeCheck, ev: Evidence, truth: Truth) -> tuple[CheckStatus, str]:
    instants, value, tol = expected_extreme(spec, truth)
    answer = ev.answer or ""
    stamps, clocks = times_in(answer)
    slack = timedelta(minutes=tol, seconds=1)
    for stamp in stamps:
        for at in instants:
            local = at.replace(tzinfo=None)
            if (abs(stamp - at) if stamp.tzinfo else abs(stamp - local)) <= slack:
                return "pass", f"{stamp.isoformat()} ≈ {at.isoformat()}"
    one_day = spec.end - spec.start <= timedelta(hours=25)
    said = {d for _, d in dates_in(answer, spec.start.year)}
    for clock in clocks:
        for at in instants:
            minute = at.hour * 60 + at.minute
            off = min(abs(clock - minute), 1440 - abs(clock - minute))
            if off <= tol + 1e-9 and (one_day or at.date() in said):
                return "pass", f"{clock // 60:02d}:{clock % 60:02d} ≈ {at.isoformat()}"
    shown = ", ".join([s.isoformat() for s in stamps] + [f"{c // 60:02d}:{c % 60:02d}" for c in clocks]) or "no time"
    where = " or ".join(a.isoformat()[:16] for a in instants[:3])
    return "fail", (
        f"the {spec.extreme} ({value:.6g}) was at {where} (±{tol:g} min, site-local"
        f"{'' if one_day else ', with its date'}); the answer has {shown}"
    )
