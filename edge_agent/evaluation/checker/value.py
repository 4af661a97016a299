"""`value`: one figure of a point over a window (an aggregate, the value at an instant, the energy) or of two points
derived together (difference, sum, ratio), stated in the answer.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from datetime import timedelta
from statistics import fmean

from edge_agent.evaluation import conclusions as cc
from edge_agent.evaluation.checker.base import CheckStatus, Evidence, TruthError, _resolve, series_of
from edge_agent.evaluation.checker.energy import expected_energy
from edge_agent.evaluation.checker.words import _number_check
from edge_agent.evaluation.tasks import EnergyCheck, ValueCheck
from edge_agent.evaluation.truth import Truth


def expected_derived(spec: ValueCheck, truth: Truth) -> float:
    assert spec.a and spec.b and spec.derive and spec.start and spec.end
    a, _ = series_of(truth, spec.site, spec.a.asset, spec.a.sensor, spec.start, spec.end)
    b, _ = series_of(truth, spec.site, spec.b.asset, spec.b.sensor, spec.start, spec.end)
    derived = cc.derive(a, b, spec.derive)
    if not derived:
        raise TruthError(
            f"no aligned samples of {spec.a.asset} {spec.a.sensor} and {spec.b.asset} {spec.b.sensor} "
            f"from {spec.start} to {spec.end}"
        )
    value = cc.aggregate(derived, spec.aggregate)
    if value is None:
        raise TruthError(f"no {spec.aggregate} of the {spec.derive} from {spec.start} to {spec.end}")
    return value


AGGREGATES: dict[str, Callable[[list[float]], float]] = {
    "max": max,
    "min": min,
    "mean": fmean,
    "sum": math.fsum,
    "first": lambda v: v[0],
    "last": lambda v: v[-1],
}


def expected_value(spec: ValueCheck, truth: Truth) -> float:
    if spec.derive is not None:
        return expected_derived(spec, truth)
    assert spec.asset is not None and spec.sensor is not None
    if spec.aggregate == "energy":
        return expected_energy(
            EnergyCheck(site=spec.site, asset=spec.asset, sensor=spec.sensor, start=spec.start, end=spec.end), truth
        )
    site, asset, sensor = _resolve(truth, spec.site, spec.asset, spec.sensor)
    if spec.aggregate == "at":
        assert spec.at is not None
        window = timedelta(minutes=spec.at_window_minutes)
        samples = [
            s.value
            for s in truth.history(site, asset, sensor, spec.at - window, spec.at + timedelta(seconds=1))
            if s.value is not None and s.ts <= spec.at
        ]
        if not samples:
            raise TruthError(
                f"no sample of {asset} {sensor} at or within {spec.at_window_minutes} min before {spec.at}"
            )
        return float(samples[-1])
    assert spec.start is not None and spec.end is not None
    values = [float(s.value) for s in truth.history(site, asset, sensor, spec.start, spec.end) if s.value is not None]
    if not values:
        raise TruthError(f"no data for {asset} {sensor} from {spec.start} to {spec.end}")
    return AGGREGATES[spec.aggregate](values)


def _check_value(spec: ValueCheck, ev: Evidence, truth: Truth) -> tuple[CheckStatus, str]:
    want = expected_value(spec, truth)
    if spec.derive is None:
        names = [spec.site, spec.asset, spec.sensor]
    else:
        assert spec.a is not None and spec.b is not None  # a derived value has both (`ValueCheck._shape`)
        names = [spec.site, spec.a.asset, spec.a.sensor, spec.b.asset, spec.b.sensor]
    what = spec.aggregate if spec.derive is None else f"{spec.aggregate} of the {spec.derive}"
    what = "energy (kWh)" if what == "energy" else what
    return _number_check(ev, names, want, what, spec.rel_tol, spec.abs_tol)
