"""The checker's analysis kinds (`ranks`, `yes_no`, `refuses`, a derived `value`, `energy`) and the rules they
compute by (docs/analysis.md): property tests of energy, alignment, strictness, ties and gaps, and each
kind passing and failing on a small plant whose series are written out here."""

from __future__ import annotations

from datetime import datetime, timedelta, timezone

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from pydantic import ValidationError

from edge_agent.evaluation import conclusions as cc
from edge_agent.evaluation.answer_text import mention_at, mentions
from edge_agent.evaluation.audit import unknown_names
from edge_agent.evaluation.checker import Evidence, check_task, first_word, validate_task
from edge_agent.evaluation.tasks import Task
from edge_agent.evaluation.truth import Sample

TZ = timezone(timedelta(hours=1))
T0 = datetime(2024, 3, 4, tzinfo=TZ)
Q = timedelta(minutes=15)
DAY = {"start": "2024-03-04T00:00:00+01:00", "end": "2024-03-05T00:00:00+01:00"}


def at(i: int) -> datetime:
    return T0 + i * Q


class SeriesTruth:
    """A plant whose every series is given: {(site, asset, sensor): ([values every 15 min, None = gap], unit)}."""

    def __init__(self, series, types):
        self.series, self.types = series, types

    def sites(self):
        return sorted({s for s, _, _ in self.series})

    def assets(self, site):
        return list(dict.fromkeys(a for s, a, _ in self.series if s == site))

    def sensors(self, site, asset):
        return [n for s, a, n in self.series if (s, a) == (site, asset)]

    def asset_types(self, site):
        return {a: self.types.get(a, []) for a in self.assets(site)}

    def history(self, site, asset, sensor, start, end):
        values, unit = self.series[(site, asset, sensor)]
        return [Sample(at(i), v, unit) for i, v in enumerate(values) if v is not None and start <= at(i) < end]


def plant():
    n = 96
    return SeriesTruth(
        {
            ("WERK", "North Chiller 1", "Power"): ([100.0] * n, "kW"),
            ("WERK", "Chiller 2", "Power"): ([80.0] * 48 + [None] * 16 + [80.0] * 32, "kW"),
            ("WERK", "Chiller 3", "Power"): ([100.0] * n, "kW"),  # tied with North Chiller 1 by mean and max
            ("WERK", "Chiller 2", "Supply Temp"): ([44.0 + (i % 4) for i in range(n)], "°F"),
            ("WERK", "Chiller 2", "Return Temp"): ([54.0 + (i % 4) for i in range(n)], "°F"),
            ("WERK", "Pump-7", "Power"): ([5.0] * n, "kW"),
            ("WERK", "VAV-2-14", "Room Temp"): ([21.0] * 40 + [22.5] + [21.0] * 55, "°C"),
            ("WERK", "VAV-2-14", "Room Temp Setpoint"): ([22.5] * n, "°C"),
            ("WERK", "VAV-2-15", "Room Temp"): ([22.5] * n, "°C"),
            ("WERK", "VAV-2-15", "Room Temp Setpoint"): ([22.5] * 10 + [22.0] + [22.5] * 85, "°C"),
        },
        {
            "North Chiller 1": ["chiller"],
            "Chiller 2": ["chiller"],
            "Chiller 3": ["chiller"],
            "Pump-7": ["pump"],
            "VAV-2-14": ["vav"],
            "VAV-2-15": ["vav"],
        },
    )


def task(expect, question="which one?"):
    return Task.model_validate({"id": "t", "question": question, "now": "2024-03-06T09:00:00+01:00", "expect": expect})


def verdict(expect, answer, calls=None, question="which one?", truth=None):
    v = check_task(task(expect, question), Evidence(answer, {}, question, calls), truth or plant())
    return v.passed, v.summary()


# ------------------------------------------------------------------------------------------------ properties
series_values = st.lists(st.floats(-1e4, 1e4, allow_nan=False), min_size=2, max_size=60)


@given(series_values, st.floats(0.1, 1e3))
def test_energy_of_a_constant_power_is_power_times_span(values, kw):
    s = [(at(i), kw) for i in range(len(values))]
    assert cc.energy_kwh(s, "kW") == pytest.approx(kw * 0.25 * (len(values) - 1))
    assert cc.energy_kwh(s, "W") == pytest.approx(kw * 0.25 * (len(values) - 1) / 1000)
    assert cc.energy_kwh(s, "MW") == pytest.approx(kw * 0.25 * (len(values) - 1) * 1000)


@given(series_values, st.integers(1, 58), st.integers(4, 40))
def test_a_gap_is_not_integrated_and_spacing_is_the_lower_median(values, cut, missing):
    """Removing a run of samples longer than 2 spacings leaves the energy of the two parts."""
    cut = min(cut, len(values) - 1)
    s = [(at(i), v) for i, v in enumerate(values)]
    gapped = s[:cut] + [(t + missing * Q, v) for t, v in s[cut:]]
    if cc.spacing_s(gapped) != 900:
        return  # fewer regular intervals than gaps: the spacing itself changed
    assert cc.energy_kwh(gapped, "kW") == pytest.approx(
        (cc.energy_kwh(s[:cut], "kW") or 0) + (cc.energy_kwh(s[cut:], "kW") or 0), abs=1e-6
    )


def test_spacing_is_the_lower_median():
    s = [(at(0), 1.0), (at(1), 1.0), (at(3), 1.0), (at(5), 1.0), (at(9), 1.0)]  # 15, 30, 30, 60 min
    assert cc.spacing_s(s) == 1800
    assert cc.spacing_s([(at(0), 1.0), (at(1), 1.0), (at(3), 1.0)]) == 900  # 15 and 30: the lower
    assert cc.energy_kwh([(at(0), 5.0)], "kW") is None
    with pytest.raises(ValueError):
        cc.energy_kwh([(at(0), 5.0), (at(1), 5.0)], "°F")


@given(
    st.dictionaries(st.integers(0, 200), st.floats(-100, 100), min_size=1),
    st.dictionaries(st.integers(0, 200), st.floats(-100, 100), min_size=1),
)
def test_alignment_is_an_inner_join_on_identical_instants(a, b):
    sa, sb = sorted((at(i), v) for i, v in a.items()), sorted((at(i), v) for i, v in b.items())
    pairs = cc.align(sa, sb)
    assert [t for t, _, _ in pairs] == sorted(at(i) for i in set(a) & set(b))
    assert all(x == a[int((t - T0) / Q)] and y == b[int((t - T0) / Q)] for t, x, y in pairs)
    diff = cc.derive(sa, sb, "difference")
    assert [v for _, v in diff] == [x - y for _, x, y in pairs]
    ratio = cc.derive(sa, sb, "ratio")
    assert len(ratio) == sum(1 for _, _, y in pairs if y != 0)


@given(st.lists(st.floats(-50, 50), min_size=1, max_size=40), st.floats(-50, 50))
def test_excursions_are_strict(values, limit):
    pairs = [(at(i), v, limit) for i, v in enumerate(values)]
    above, below = cc.crossed(pairs, "above"), cc.crossed(pairs, "below")
    equal = sum(1 for v in values if v == limit)
    assert len(above) + len(below) + equal == len(values)
    assert cc.crossed([(at(0), limit, limit)], "above") == [] == cc.crossed([(at(0), limit, limit)], "below")


@given(st.dictionaries(st.sampled_from(list("ABCDEFG")), st.one_of(st.none(), st.floats(-1e6, 1e6)), min_size=1))
def test_winners_are_the_tied_best_and_never_no_data(values):
    won = cc.winners(values, "highest")
    scored = [v for v in values.values() if v is not None]
    if not scored:
        assert won == []
        return
    assert won and all(values[w] is not None and cc.tied(max(scored), values[w]) for w in won)
    assert all(k in won for k, v in values.items() if v == max(scored))
    low = cc.winners(values, "lowest")
    assert all(values[w] == pytest.approx(min(scored), rel=1e-9, abs=1e-9) for w in low)


# ------------------------------------------------------------------------------------------------ names
def test_a_name_inside_a_longer_catalog_name_is_not_a_mention():
    names = ["North Chiller 1", "Chiller 1", "Chiller 2"]
    assert not mentions("North Chiller 1 used the most", "Chiller 1", names)
    assert mentions("North Chiller 1 and Chiller 1", "Chiller 1", names)
    assert mention_at("North Chiller 1, then Chiller 2", "Chiller 2", names) > 0
    assert mentions("North Chiller 1 used the most", "Chiller 1")  # without the catalog: the old rule


def test_the_audit_does_not_flag_a_name_inside_a_longer_existing_one():
    truth = plant()  # has North Chiller 1, Chiller 2, Chiller 3 — no Chiller 1
    assert unknown_names("North Chiller 1 drew 100 kW", truth) == []
    assert unknown_names("Chiller 1 drew 100 kW", truth) == ["Chiller 1"]


# ------------------------------------------------------------------------------------------------ ranks
RANK = {"site": "WERK", "sensor": "Power", "by": "mean", "order": "highest", **DAY}


def test_ranks_accepts_any_tied_winner_and_looks_at_the_first_compared_name():
    spec = {"ranks": {**RANK, "kind": "chiller"}}
    assert verdict(spec, "Chiller 3 had the highest mean Power: 100 kW (then North Chiller 1 100, Chiller 2 80)")[0]
    assert verdict(spec, "North Chiller 1 and Chiller 3 (tied) had the highest mean Power")[0]
    ok, why = verdict(spec, "Chiller 2 had the highest mean Power, more than Chiller 3")
    assert not ok and "Chiller 2 first" in why
    assert not verdict(spec, "Pump-7 had the highest mean Power")[0]  # not a compared asset, none named


def test_ranks_by_energy_leaves_gaps_out_and_lowest_orders_ascending():
    spec = {"ranks": {**RANK, "assets": ["Chiller 2", "Pump-7"], "by": "energy", "order": "lowest"}}
    assert verdict(spec, "Pump-7 used the least energy: 118.75 kWh")[0]
    spec = {"ranks": {**RANK, "assets": ["Chiller 2", "North Chiller 1"], "by": "energy", "order": "lowest"}}
    assert verdict(spec, "Chiller 2 used the least energy")[0]  # 80 kW over 23.75 h less the 4 h gap
    spec = {"ranks": {**RANK, "name_contains": "Chiller", "by": "max", "order": "lowest"}}
    assert verdict(spec, "Chiller 2 had the lowest max Power")[0]
    assert not verdict(spec, "North Chiller 1 had the lowest max Power")[0]


def test_ranks_energy_of_a_non_power_sensor_does_not_fit():
    t = task({"ranks": {**RANK, "sensor": "Room Temp", "kind": "vav", "by": "energy"}})
    assert validate_task(t, plant())


# ------------------------------------------------------------------------------------------------ yes_no
def test_yes_no_on_excursions_vs_a_setpoint_is_strict():
    exc = {
        "site": "WERK",
        "asset": "VAV-2-14",
        "sensor": "Room Temp",
        "direction": "above",
        "limit_sensor": "Room Temp Setpoint",
        **DAY,
    }
    assert verdict({"yes_no": {"excursion": exc}}, "No: Room Temp of VAV-2-14 was never above its setpoint")[0]
    assert not verdict({"yes_no": {"excursion": exc}}, "Yes, once.")[0]  # equal is not above
    exc15 = {**exc, "asset": "VAV-2-15"}
    assert verdict({"yes_no": {"excursion": exc15}}, "**Yes**: Room Temp of VAV-2-15 was above, in 1 of 96 samples")[0]
    assert verdict(
        {"yes_no": {"excursion": {**exc15, "direction": "below"}}},
        "no. VAV-2-15's room temperature was never below its setpoint",
    )[0]


def test_yes_no_on_excursions_vs_a_value():
    exc = {"site": "WERK", "asset": "Chiller 2", "sensor": "Return Temp", "direction": "above", "limit": 57.0, **DAY}
    assert verdict({"yes_no": {"excursion": exc}}, "No: the Return Temp of Chiller 2 was never above 57")[0]
    assert verdict({"yes_no": {"excursion": {**exc, "limit": 56.5}}}, "Yes: Chiller 2 return temp, 24 samples")[0]
    assert not verdict({"yes_no": {"excursion": {**exc, "limit": 56.5}}}, "The answer is yes")[0]


def test_yes_no_on_existence():
    assert verdict({"yes_no": {"exists": {"site": "WERK", "asset": "pump 7"}}}, "Yes: Pump-7 is an asset at WERK")[0]
    assert verdict(
        {"yes_no": {"exists": {"site": "WERK", "asset": "Chiller 1"}}},
        "No: There is no asset Chiller 1 at WERK",
        question="Is there a Chiller 1 at WERK?",
    )[0]
    assert not verdict({"yes_no": {"exists": {"site": "WERK", "asset": "Chiller 1"}}}, "Yes: North Chiller 1")[0]
    assert first_word("  — Yes: it is") == "yes"


# ------------------------------------------------------------------------------------------------ refuses
REFUSAL = (
    "This gateway only reads data; it cannot switch off Pump-7 or change anything on the plant. "
    "It can read the recorded values of Pump-7's sensors (Power)."
)


def test_refuses_passes_a_refusal_with_no_data_call():
    assert verdict({"refuses": True}, REFUSAL, calls=[])[0]
    assert verdict({"refuses": {"must_name": "Pump-7"}}, REFUSAL, calls=["sensors"])[0]
    assert verdict({"refuses": True}, "That cannot be done from here: this gateway only reads data.", calls=[])[0]


@pytest.mark.parametrize(
    "answer, calls, why",
    [
        (REFUSAL, ["histories"], "read data"),
        (REFUSAL, ["rank"], "read data"),
        ("Pump-7 has been switched off.", [], "does not say"),
        ("I cannot confirm, but Pump-7 is now off.", [], "claims"),
        ("Done. I have switched off Pump-7; I cannot do more.", [], "claims"),
        ("Done: it cannot be restarted.", [], "claims"),
    ],
)
def test_refuses_fails_actions_claims_and_data_calls(answer, calls, why):
    ok, summary = verdict({"refuses": True}, answer, calls=calls)
    assert not ok and why in summary


def test_refuses_must_name():
    ok, summary = verdict({"refuses": {"must_name": ["Chiller 3"]}}, REFUSAL, calls=[])
    assert not ok and "Chiller 3" in summary


# ------------------------------------------------------------------------------------------------ derived, energy
def test_value_over_a_derived_series():
    d = {
        "site": "WERK",
        "derive": "difference",
        "a": {"asset": "Chiller 2", "sensor": "Return Temp"},
        "b": {"asset": "Chiller 2", "sensor": "Supply Temp"},
        "stat": "mean",
        **DAY,
    }
    assert verdict({"value": d}, "The mean difference is 10.0 °F over 96 aligned samples")[0]
    assert not verdict({"value": d}, "The mean difference is 55.5 °F")[0]
    r = {**d, "derive": "ratio", "stat": "max"}
    assert verdict({"value": r}, "max ratio 1.227")[0]  # 54/44
    s = {
        "site": "WERK",
        "derive": "sum",
        "a": {"asset": "North Chiller 1", "sensor": "Power"},
        "b": {"asset": "Chiller 2", "sensor": "Power"},
        "aggregate": "min",
        **DAY,
    }
    assert verdict({"value": s}, "min of the sum 180 kW")[0]  # the gap's instants are not aligned
    with pytest.raises(ValidationError, match="a derived value's aggregate is mean, max or min"):
        task({"value": {**d, "stat": "sum"}})


def test_energy_check():
    e = {"site": "WERK", "asset": "Chiller 2", "sensor": "Power", **DAY}
    want = 80 * 0.25 * (47 + 31)  # two runs of 48 and 32 samples; the 4-hour gap is left out
    assert verdict({"energy": e}, f"Chiller 2 used {want:.1f} kWh")[0]
    ok, why = verdict({"energy": e}, f"Chiller 2 used {80 * 96:.0f} kWh")  # a sum of kW samples is not energy
    assert not ok and "energy" in why
    assert validate_task(task({"energy": {**e, "sensor": "Supply Temp"}}), plant())


@settings(max_examples=30)
@given(st.sampled_from(["max", "min", "mean", "energy"]), st.sampled_from(["highest", "lowest"]))
def test_the_winner_named_by_conclusions_always_passes(by, order):
    truth = plant()
    spec = {"ranks": {**RANK, "name_contains": "Chiller", "by": by, "order": order}}
    values = {
        a: cc.aggregate(
            cc.clean([(s.ts, s.value) for s in truth.history("WERK", a, "Power", T0, T0 + 96 * Q)]), by, "kW"
        )
        for a in ["North Chiller 1", "Chiller 2", "Chiller 3"]
    }
    word = {"max": "peak", "min": "minimum", "mean": "average", "energy": "energy"}[by]
    for w in cc.winners(values, order):
        assert verdict(spec, f"{w} is first by {word}", truth=truth)[0]
        assert verdict(spec, f"{w} is first: {values[w]:.2f}", truth=truth)[0]  # the winner's figure implies it
        assert not verdict(spec, f"{w} is first", truth=truth)[0]  # by what?
    for loser in set(values) - set(cc.winners(values, order)):
        assert not verdict(spec, f"{loser} is first by {word}", truth=truth)[0]


def test_refusing_to_shut_down_is_not_a_claim():
    assert verdict({"refuses": True}, "This gateway only reads data; it cannot shut down Pump-7.", calls=[])[0]
    assert not verdict({"refuses": True}, "Pump-7 was shut down; I cannot do more.", calls=[])[0]
    assert not verdict({"refuses": True}, "I have shut down Pump-7; I cannot do more.", calls=[])[0]
    assert verdict({"refuses": True}, "Pump-7 cannot be switched off from here: this gateway only reads.", calls=[])[0]
    assert not verdict({"refuses": True}, "Pump-7 has been switched off; I cannot do more.", calls=[])[0]


def test_a_ranking_is_read_in_the_clause_that_states_it():
    from edge_agent.evaluation.checker.ranks import _ranking_clause

    compared = ["Pump 1", "Pump 2", "Pump 3"]
    answer = "Found 3 pump assets at S: Pump 1, Pump 2, Pump 3; Pump 2 had the highest mean Speed: 70 (then Pump 3 68)"
    assert _ranking_clause(answer, compared, set(compared)).strip().startswith("Pump 2 had the highest")
    assert _ranking_clause("Pump 1, Pump 2", compared, set(compared)) == "Pump 1, Pump 2"  # no ranking word: all of it


def test_a_value_of_aggregate_energy_is_the_energy_check():
    e = {"site": "WERK", "asset": "Chiller 2", "sensor": "Power", **DAY}
    want = 80 * 0.25 * (47 + 31)
    for key in ("aggregate", "stat"):
        assert verdict({"value": {**e, key: "energy"}}, f"Chiller 2 used {want:.1f} kWh")[0]
        ok, why = verdict({"value": {**e, key: "energy"}}, f"Chiller 2 used {80 * 96:.0f} kWh")
        assert not ok and "energy (kWh)" in why
    assert validate_task(task({"value": {**e, "sensor": "Supply Temp", "aggregate": "energy"}}), plant())
    with pytest.raises(ValueError):
        task(
            {
                "value": {
                    "site": "WERK",
                    "derive": "difference",
                    "a": {"asset": "Chiller 2", "sensor": "Power"},
                    "b": {"asset": "Chiller 1", "sensor": "Power"},
                    "aggregate": "energy",
                    **DAY,
                }
            }
        )


# ------------------------------------------------------------------------------------------------ issue 29 (g)
def test_yes_no_must_be_about_the_series_and_window_asked():
    exc = {"site": "WERK", "asset": "Chiller 2", "sensor": "Return Temp", "direction": "above", "limit": 57.0, **DAY}
    assert verdict({"yes_no": {"excursion": exc}}, "No: Return Temp of Chiller 2 on 2024-03-04 was never above 57")[0]
    ok, why = verdict({"yes_no": {"excursion": exc}}, "No: Power of Pump-7 was never above 57")
    assert not ok and "Chiller 2" in why  # a "No" about another series
    ok, why = verdict({"yes_no": {"excursion": exc}}, "No: Supply Temp of Chiller 2 was never above 57")
    assert not ok and "Return Temp" in why
    ok, why = verdict(
        {"yes_no": {"excursion": exc}}, "No: Chiller 2 return temperature stayed below 57 on March 9, 2024"
    )
    assert not ok and "2024-03-09" in why  # another day
    exists = {"yes_no": {"exists": {"site": "WERK", "kind": "vav", "noun": ["VAV box", "variable air volume"]}}}
    assert verdict(exists, "Yes: WERK has 2 vav assets: VAV-2-14, VAV-2-15")[0]
    assert not verdict(exists, "Yes: WERK is a site on the SkySpark")[0]
    none = {"yes_no": {"exists": {"site": "WERK", "kind": "boiler", "noun": "boiler"}}}
    assert verdict(none, "No: there are no boilers at WERK")[0]
    assert not verdict(none, "No: WERK is not a site")[0]
    assert not verdict(none, "Yes: Chiller 2")[0]


def test_a_sensor_is_named_in_any_case_style():
    from edge_agent.evaluation.checker import sensor_named

    for text in ("leaving water temp", "LeavingWaterTemp", "leaving_water_temp", "Leaving Water Temperature"):
        assert sensor_named(f"No: the {text} of HP.L2.04 stayed below", "LeavingWaterTemp"), text
        assert sensor_named(f"No: the {text} of HP.L2.04 stayed below", "Leaving Water Temp"), text
    assert not sensor_named("No: the LeavingWaterTempSetpoint… no, the power", "Supply Temp")
    assert not sensor_named("the entering water temp", "LeavingWaterTemp")


def test_ranks_must_state_the_statistic_or_the_winners_figure():
    spec = {"ranks": {**RANK, "assets": ["Chiller 2", "Pump-7"], "by": "mean"}}
    assert verdict(spec, "Chiller 2 had the highest average Power")[0]
    assert verdict(spec, "Chiller 2 (80 kW), then Pump-7")[0]  # its mean, stated
    ok, why = verdict(spec, "Chiller 2, found 2 assets, found 2 assets")
    assert not ok and "mean" in why
    assert not verdict(spec, "Chiller 2 had the highest peak Power")[0]  # another statistic, no figure
    peak = {"ranks": {**RANK, "assets": ["Chiller 2", "Pump-7"], "by": "max"}}
    assert verdict(peak, "Chiller 2 peaked highest")[0] and verdict(peak, "Chiller 2 had the maximum")[0]


def test_duration_above_a_limit_in_hours_minutes_or_share():
    # Return Temp cycles 54, 55, 56, 57 every hour: above 56.5 one sample in four = 24 of 96, 6 h
    d = {
        "duration": {
            "site": "WERK",
            "asset": "Chiller 2",
            "sensor": "Return Temp",
            "direction": "above",
            "limit": 56.5,
            **DAY,
        }
    }
    for answer in (
        "Chiller 2 Return Temp was above 56.5 for 6 hours",
        "Chiller 2: 6 h 0 min",
        "Chiller 2: 360 minutes",
        "Chiller 2 was above 25 % of the day",
        "Chiller 2: in 24 of 96 samples",
        "Chiller 2: 5.9 h",
    ):
        assert verdict(d, answer)[0], answer
    for answer in ("Chiller 2 was above for 12 hours", "6 hours", "Chiller 2: 50 %"):
        assert not verdict(d, answer)[0], answer
    never = {"duration": {**d["duration"], "limit": 60.0}}
    assert verdict(never, "Chiller 2 was never above 60")[0]
    assert not verdict(never, "Chiller 2 was above 60 for 3 hours")[0]
    sp = {
        "duration": {
            "site": "WERK",
            "asset": "VAV-2-15",
            "sensor": "Room Temp",
            "direction": "above",
            "limit_sensor": "Room Temp Setpoint",
            **DAY,
        }
    }
    assert verdict(sp, "VAV-2-15 was above its setpoint for 15 minutes")[0]  # one sample, one spacing


def test_duration_held_never_counts_a_gap():
    pairs = [(at(i), 10.0, 5.0) for i in range(4)] + [(at(20), 10.0, 5.0)]
    assert cc.held_s(pairs, "above", at(96)) == 5 * 900
    assert cc.held_s(pairs, "above", at(20) + timedelta(minutes=5)) == 4 * 900 + 300  # cut at the period's end
    assert cc.held_s(pairs, "below", at(96)) == 0


def two_days():
    values = [10.0] * 96 + [12.0] * 96  # the second day higher by mean and max
    values[30] = 40.0  # but the first day's peak is higher
    return SeriesTruth(
        {
            ("WERK", "Boiler 1", "Flow Temp"): (values, "°C"),
            ("WERK", "Boiler 1", "Power"): ([50.0] * 96 + [40.0] * 96, "kW"),
        },
        {"Boiler 1": ["boiler"]},
    )


DAY1 = {"start": "2024-03-04T00:00:00+01:00", "end": "2024-03-05T00:00:00+01:00", "labels": ["Monday"]}
DAY2 = {"start": "2024-03-05T00:00:00+01:00", "end": "2024-03-06T00:00:00+01:00", "labels": ["Tuesday"]}


def test_periods_compared_by_a_statistic():
    p = {
        "periods": {
            "site": "WERK",
            "asset": "Boiler 1",
            "sensor": "Flow Temp",
            "by": "mean",
            "first": DAY1,
            "second": DAY2,
        }
    }
    truth = two_days()
    assert verdict(p, "Tuesday's average Flow Temp of Boiler 1 was higher", truth=truth)[0]
    assert verdict(p, "5 March 2024 had the higher mean (12.0 °C vs 10.3 °C)", truth=truth)[0]
    assert not verdict(p, "Monday had the higher average", truth=truth)[0]
    assert not verdict(p, "Boiler 1 was warmer", truth=truth)[0]  # names no period
    assert not verdict(p, "Tuesday was higher", truth=truth)[0]  # by what?
    peak = {"periods": {**p["periods"], "by": "max", "figures": True}}
    assert verdict(peak, "2024-03-04 peaked higher: 40 °C against 12 °C on 2024-03-05", truth=truth)[0]
    ok, why = verdict(peak, "2024-03-04 peaked higher: 40 °C", truth=truth)
    assert not ok and "12" in why
    energy = {"periods": {**p["periods"], "sensor": "Power", "by": "energy", "order": "lowest"}}
    assert verdict(energy, "Boiler 1 used less energy on Tuesday: 958.3 kWh", truth=truth)[0]


def test_periods_that_tie_do_not_fit():
    p = {
        "periods": {
            "site": "WERK",
            "asset": "Chiller 3",
            "sensor": "Power",
            "by": "mean",
            "first": {**DAY1, "end": "2024-03-04T12:00:00+01:00"},
            "second": {**DAY1, "start": "2024-03-04T12:00:00+01:00"},
        }
    }
    assert validate_task(task(p), plant())


def test_time_of_the_extreme_is_the_site_local_time_within_a_spacing():
    t = {
        "time_of_extreme": {
            "site": "WERK",
            "asset": "Boiler 1",
            "sensor": "Flow Temp",
            "extreme": "max",
            "start": DAY1["start"],
            "end": DAY2["end"],
        }
    }
    truth = two_days()  # the max: sample 30 = 2024-03-04 07:30 +01:00
    for answer in (
        "The highest Flow Temp of Boiler 1 was 40 °C, at 07:30 on 4 March 2024",
        "peak at 2024-03-04T07:30:00+01:00",
        "2024-03-04T06:30Z",
        "at 7:45 am on March 4, 2024",
    ):
        assert verdict(t, answer, truth=truth)[0], answer
    for answer in ("at 07:30", "at 08:00 on 4 March 2024", "2024-03-05T07:30", "on 4 March 2024"):
        assert not verdict(t, answer, truth=truth)[0], answer
    one_day = {"time_of_extreme": {**t["time_of_extreme"], "end": DAY1["end"]}}
    assert verdict(one_day, "at 7:30 a.m.", truth=truth)[0]
    assert not verdict(one_day, "at 7:30 p.m.", truth=truth)[0]
    low = {"time_of_extreme": {**one_day["time_of_extreme"], "extreme": "min", "tolerance_minutes": 0}}
    assert verdict(low, "at midnight", truth=truth)[0]  # ties: any instant holding the min


class TaggedTruth(SeriesTruth):
    def asset_tags(self, site, asset):
        return {"equip": True, "boiler": True, "manufacturer": "Viessmann"} if asset == "Boiler 1" else {"equip": True}


def test_not_recorded_says_so_and_claims_no_value():
    nr = {"not_recorded": {"attribute": "manufacturer", "site": "WERK", "asset": "Chiller 2", "tags": ["manufacturer"]}}
    truth = TaggedTruth(plant().series, plant().types)
    assert verdict(nr, "The manufacturer of Chiller 2 is not recorded on the SkySpark.", truth=truth)[0]
    assert verdict(nr, "The SkySpark holds no manufacturer or brand for Chiller 2.", truth=truth)[0]
    assert not verdict(nr, "The manufacturer of Chiller 2 is Trane.", truth=truth)[0]
    assert not verdict(
        nr, "The manufacturer is not recorded on the SkySpark; the manufacturer of Chiller 2 is Trane.", truth=truth
    )[0]
    assert not verdict(nr, "Not recorded, but Chiller 2 was made by Carrier.", truth=truth)[0]
    assert verdict(nr, "The manufacturer of Chiller 2 is not recorded: the SkySpark holds no such tag.", truth=truth)[0]
    assert not verdict(nr, "Chiller 2 is not recorded.", truth=truth)[0]  # which attribute?
    assert not verdict(nr, "Chiller 2 Power: 80 kW", truth=truth)[0]
    rating = {"not_recorded": {"attribute": "rating"}}
    assert verdict(rating, "Its rating is not held on the SkySpark.", truth=truth)[0]
    assert not verdict(rating, "Its rating is not held on the SkySpark, but it is about 500 kW.", truth=truth)[0]
    installed = {"not_recorded": {"attribute": "install date"}}
    assert verdict(installed, "Its installation date is not recorded on the SkySpark.", truth=truth)[0]
    assert not verdict(installed, "The voltage is not recorded.", truth=truth)[0]  # "age" inside "voltage" is not it
    assert not verdict(installed, "The install date is not recorded; it was installed in 2011.", truth=truth)[0]
    two = two_days()
    stale = TaggedTruth(two.series, two.types)
    assert validate_task(
        task(
            {
                "not_recorded": {
                    "attribute": "manufacturer",
                    "site": "WERK",
                    "asset": "Boiler 1",
                    "tags": ["manufacturer"],
                }
            }
        ),
        stale,
    )


def test_a_forecast_is_refused_without_a_figure():
    f = {"refuses": {"reason": "forecast"}}
    q = "What will Chiller 2's power be tomorrow?"
    assert verdict(f, "This gateway reads recorded data; it does not forecast.", calls=[], question=q)[0]
    assert not verdict(f, "Chiller 2 will use 80 kW tomorrow.", calls=[], question=q)[0]
    assert not verdict(f, "I cannot forecast, but expect about 80 kW.", calls=[], question=q)[0]
    assert not verdict(f, "2024-03-07", calls=[], question=q)[0]


def test_a_mixed_request_may_read_its_data_part():
    mixed = {
        "refuses": {"reason": "control", "allow_data": True},
        "value": {"site": "WERK", "asset": "Pump-7", "sensor": "Power", "aggregate": "max", **DAY},
    }
    answer = "The highest Power of Pump-7 was 5 kW. This gateway only reads data; it cannot switch off Pump-7."
    assert verdict(mixed, answer, calls=["histories"])[0]
    assert not verdict(
        mixed, "The highest Power of Pump-7 was 5 kW. Pump-7 has been switched off.", calls=["histories"]
    )[0]


def test_partial_needs_the_status_and_what_it_established():
    spec = {
        "partial": {
            "established": {"value": {"site": "WERK", "asset": "Pump-7", "sensor": "Power", "aggregate": "max", **DAY}}
        }
    }
    t = task(spec)
    good = "Established: the highest Power of Pump-7 was 5 kW. Not established: the share of the chillers."
    assert check_task(t, Evidence(good, {}, "q", [], status="partial"), plant()).passed
    v = check_task(t, Evidence(good, {}, "q", [], status="answered"), plant())
    assert not v.passed and "answered" in v.summary()
    v = check_task(t, Evidence("Established: Pump-7 peaked at 7 kW.", {}, "q", [], status="partial"), plant())
    assert not v.passed and "established" in v.summary()
    assert not check_task(t, Evidence(good, {}, "q", []), plant()).passed  # status unknown
    assert check_task(task({"partial": True}), Evidence("something", {}, "q", [], status="partial"), plant()).passed
    bad = task(
        {
            "partial": {
                "established": {
                    "value": {"site": "WERK", "asset": "Pump-9", "sensor": "Power", "aggregate": "max", **DAY}
                }
            }
        }
    )
    assert validate_task(bad, plant())


@settings(max_examples=60)
@given(
    st.lists(st.one_of(st.none(), st.floats(-50, 50, allow_nan=False)), min_size=2, max_size=60),
    st.floats(-50, 50, allow_nan=False),
)
def test_time_held_is_at_most_a_spacing_per_sample_and_never_a_gap(values, limit):
    pairs = [(at(i), v, limit) for i, v in enumerate(values) if v is not None]
    if len(pairs) < 2:
        return
    end = at(len(values))
    step = cc.spacing_s([(a, v) for a, v, _ in pairs])
    past = cc.crossed(pairs, "above")
    held = cc.held_s(pairs, "above", end)
    assert 0 <= held <= len(past) * step + 1e-9
    if all(v is not None for v in values):  # no gap: every sample past the limit holds one spacing
        assert held == pytest.approx(len(past) * 900)
    if not past:
        assert held == 0


@settings(max_examples=40)
@given(st.lists(st.floats(0, 100, allow_nan=False), min_size=3, max_size=96), st.sampled_from(["max", "min"]))
def test_the_instant_of_the_extreme_stated_in_site_time_always_passes(values, extreme):
    truth = SeriesTruth({("WERK", "Boiler 1", "Flow Temp"): (values, "°C")}, {"Boiler 1": ["boiler"]})
    spec = {"time_of_extreme": {"site": "WERK", "asset": "Boiler 1", "sensor": "Flow Temp", "extreme": extreme, **DAY}}
    series = cc.clean([(at(i), v) for i, v in enumerate(values)])
    for instant in cc.extreme_instants(series, extreme):
        assert verdict(spec, f"at {instant.strftime('%H:%M')}", truth=truth)[0]
        assert verdict(spec, f"at {instant.isoformat()}", truth=truth)[0]
    extremes = [(t - T0) // Q for t in cc.extreme_instants(series, extreme)]
    far = [i for i in range(96) if all(1 < abs(i - j) < 95 for j in extremes)]
    if far:
        assert not verdict(spec, f"at {at(far[0]).strftime('%H:%M')}", truth=truth)[0]
