"""`energy`: the kWh a power point integrates to over a window, stated in the answer."""

from __future__ import annotations

from edge_agent.evaluation import conclusions as cc
from edge_agent.evaluation.checker.base import CheckStatus, Evidence, TruthError, series_of
from edge_agent.evaluation.checker.words import _number_check
from edge_agent.evaluation.tasks import EnergyCheck
from edge_agent.evaluation.truth import Truth


def expected_energy(spec: EnergyCheck, truth: Truth) -> float:
    series, unit = series_of(truth, spec.site, spec.asset, spec.sensor, spec.start, spec.end)
    if cc.power_scale(unit) is None:
        raise TruthError(f"{spec.asset} {spec.sensor} is in {unit or 'no unit'}, not power: it has no energy")
    kwh = cc.energy_kwh(series, unit)
    if kwh is None:
        raise TruthError(f"fewer than two samples of {spec.asset} {spec.sensor} from {spec.start} to {spec.end}")
    return kwh


def _check_energy(spec: EnergyCheck, ev: Evidence, truth: Truth) -> tuple[CheckStatus, str]:
    want = expected_energy(spec, truth)
    return _number_check(ev, [spec.site, spec.asset, spec.sensor], want, "energy (kWh)", spec.rel_tol, spec.abs_tol)
