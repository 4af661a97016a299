"""The analysis rules (docs/analysis.md) as properties: energy, gaps, alignment, strictness, ties."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from edge_agent import analysis as an

T0 = datetime(2024, 7, 1, tzinfo=UTC)
values = st.floats(-1e4, 1e4, allow_nan=False, allow_infinity=False)


def regular(vals, minutes=15, start=T0):
    return [an.Point(start + timedelta(minutes=minutes * n), v) for n, v in enumerate(vals)]


@given(p=st.floats(0, 5000, allow_nan=False), n=st.integers(2, 200), minutes=st.sampled_from([1, 5, 15, 60]))
def test_constant_power_gives_power_times_span(p, n, minutes):
    e = an.energy_kwh(regular([p] * n, minutes), "kW")
    assert e.kwh == pytest.approx(p * (n - 1) * minutes / 60, rel=1e-9, abs=1e-9)
    assert e.gaps == 0


@given(vals=st.lists(values, min_size=2, max_size=60))
def test_units_scale_energy_and_the_trapezoid_is_linear(vals):
    kw = an.energy_kwh(regular(vals), "kW").kwh
    assert an.energy_kwh(regular([v * 1000 for v in vals]), "W").kwh == pytest.approx(kw, rel=1e-9, abs=1e-6)
    assert an.energy_kwh(regular([v / 1000 for v in vals]), "MW").kwh == pytest.approx(kw, rel=1e-9, abs=1e-6)
    doubled = an.energy_kwh(regular([2 * v for v in vals]), "kW").kwh
    assert doubled == pytest.approx(2 * kw, rel=1e-9, abs=1e-6)


@given(n=st.integers(4, 50), gap_steps=st.integers(4, 40), p=st.floats(1, 1000))
def test_a_gap_is_not_integrated(n, gap_steps, p):
    """An interval longer than 3 spacings is left out: the energy is that of the two runs, and the gap counted."""
    first = regular([p] * n)
    second = regular([p] * n, start=first[-1].at + timedelta(minutes=15 * gap_steps))
    e = an.energy_kwh(first + second, "kW")
    assert e.gaps == 1 and e.gap_hours == pytest.approx(gap_steps * 0.25)
    assert e.kwh == pytest.approx(2 * p * (n - 1) * 0.25)


def test_a_sum_of_power_samples_is_not_energy():
    pts = regular([100.0] * 96)  # a day of 15-minute samples at 100 kW
    assert an.energy_kwh(pts, "kW").kwh == pytest.approx(100 * 23.75)
    assert sum(p.value for p in pts) == 9600  # what a "sum" would wrongly call a total


@given(a=st.lists(st.integers(0, 40), unique=True), b=st.lists(st.integers(0, 40), unique=True))
def test_alignment_is_an_inner_join_with_counts(a, b):
    sa = [an.Point(T0 + timedelta(minutes=15 * i), float(i)) for i in sorted(a)]
    sb = [an.Point(T0 + timedelta(minutes=15 * i), float(-i)) for i in sorted(b)]
    aligned = an.align(sa, sb)
    assert [p[0] for p in aligned.pairs] == [T0 + timedelta(minutes=15 * i) for i in sorted(set(a) & set(b))]
    assert aligned.only_a == len(set(a) - set(b)) and aligned.only_b == len(set(b) - set(a))
    diff, dropped = an.combine(aligned, "difference")
    assert all(p.value == 2 * (p.at - T0).total_seconds() / 900 for p in diff) and dropped == 0


def test_a_ratio_drops_zero_divisors():
    aligned = an.align(regular([1.0, 2.0, 3.0]), regular([1.0, 0.0, 2.0]))
    out, dropped = an.combine(aligned, "ratio")
    assert [p.value for p in out] == [1.0, 1.5] and dropped == 1


@given(
    vals=st.lists(st.integers(-5, 5).map(float), min_size=1, max_size=60),
    limit=st.integers(-5, 5).map(float),
    direction=st.sampled_from(["above", "below"]),
)
def test_excursions_are_strict(vals, limit, direction):
    pts = regular(vals)
    found = an.excursions([(p.at, p.value, limit) for p in pts], direction)
    past = [v for v in vals if (v > limit if direction == "above" else v < limit)]
    assert len(found.crossing) == len(past) and found.any == bool(past)
    assert found.share == pytest.approx(len(past) / len(vals))
    assert found.held <= timedelta(minutes=15) * len(past)
    if past:
        worst = max(abs(v - limit) for v in past)
        assert found.worst[1] == pytest.approx(worst)


def test_time_held_never_counts_a_gap():
    pts = regular([10.0, 10.0]) + regular([10.0], start=T0 + timedelta(hours=5))
    found = an.excursions([(p.at, p.value, 0.0) for p in pts], "above", period_end=T0 + timedelta(hours=24))
    assert found.held == timedelta(minutes=45)  # three samples, one spacing each at most


@given(
    scores=st.dictionaries(
        st.sampled_from(list("ABCDEF")), st.lists(st.integers(0, 3).map(float), max_size=4), min_size=1
    )
)
@settings(max_examples=200)
def test_rank_winners_are_the_tied_best_and_empty_series_never_win(scores):
    series = {k: regular(v) for k, v in scores.items()}
    ranked = an.rank(series, "max", "highest")
    best = max((max(v) for v in scores.values() if v), default=None)
    assert set(ranked.winners) == {k for k, v in scores.items() if v and max(v) == best}
    assert [r[0] for r in ranked.rows if r[1] is None] == [k for k, v in scores.items() if not v]
    low = an.rank(series, "min", "lowest")
    least = min((min(v) for v in scores.values() if v), default=None)
    assert set(low.winners) == {k for k, v in scores.items() if v and min(v) == least}


def test_series_keeps_numbers_only():
    got = an.series(
        [
            (T0, True),
            (T0 + timedelta(minutes=1), "x"),
            (T0 + timedelta(minutes=2), None),
            (T0 + timedelta(minutes=3), float("nan")),
            (T0 + timedelta(minutes=4), 3),
        ]
    )
    assert got == [an.Point(T0 + timedelta(minutes=4), 3.0)]


@pytest.mark.parametrize(
    "unit, to, factor",
    [("MWh", "kWh", 1e3), ("kWh", "MWh", 1e-3), ("kW", "W", 1e3), ("t", "kg", 1e3), ("Wh", "kWh", 1e-3)],
)
def test_a_unit_converts_to_another_of_its_base_by_its_si_prefixes(unit, to, factor):
    from edge_agent.analysis import unit_factor

    assert unit_factor(unit, to) == pytest.approx(factor)


@pytest.mark.parametrize(
    "unit, to", [("kWh", "kW"), ("ft³", "m³"), ("gal", "L"), ("min", "s"), (None, "kWh"), ("", "")]
)
def test_units_of_other_bases_do_not_convert(unit, to):
    from edge_agent.analysis import unit_factor

    assert unit_factor(unit, to) is None
