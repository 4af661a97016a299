"""The checker on hand-made right and wrong answers and files, for every check type.

Truth here is a small in-memory plant (so each case is obvious by reading it); the same checks run
against the real simulator over HTTP in test_bench_skyspark.py.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta, timezone

import pytest
from hypothesis import given
from hypothesis import strategies as st

from edge_agent.evaluation.answer_text import mentions, numbers_in
from edge_agent.evaluation.checker import Evidence, check_task, says_missing, validate_task
from edge_agent.evaluation.tasks import Task, TaskFileError, parse_tasks
from edge_agent.evaluation.truth import CachedTruth, Sample
from tests.plants import NamesOnly

TZ = timezone(timedelta(hours=-4))
T0 = datetime(2020, 6, 1, tzinfo=TZ)


class PlantTruth(NamesOnly):
    """Two chillers and a meter at POKMAIN, hourly samples; value = a simple function of asset and hour."""

    def __init__(self):
        super().__init__(
            {
                "POKMAIN": {
                    "Chiller 6": ["Tonnage", "Power", "% Loaded"],
                    "Chiller 9": ["Tonnage", "Power", "% Loaded"],
                    "B020_Total": ["Power", "Energy"],
                },
                "RCHMAIN": {"B705 AHU 1": ["Supply Air Temp"]},
            }
        )
        self.calls = 0

    @staticmethod
    def value(asset, sensor, ts):
        base = {"Chiller 6": 300.0, "Chiller 9": 500.0, "B020_Total": 1000.0, "B705 AHU 1": 55.0}[asset]
        hours = (ts - T0).total_seconds() / 3600
        return round(base + (hours % 24) * 10 + (7 if sensor == "Power" else 0), 3)

    def history(self, site, asset, sensor, start, end):
        self.calls += 1
        out, ts = [], max(start, T0 - timedelta(days=30))
        ts = ts.replace(minute=0, second=0, microsecond=0) + (
            timedelta(hours=1) if ts.minute or ts.second else timedelta()
        )
        while ts < end:
            out.append(Sample(ts, self.value(asset, sensor, ts), "tons"))
            ts += timedelta(hours=1)
        return out


@pytest.fixture
def truth():
    return PlantTruth()


def rows(truth, assets, sensor, start, end, tz=TZ):
    return [
        {
            "site_name": "POKMAIN",
            "asset_name": a,
            "sensor_name": sensor,
            "timestamp": s.ts.astimezone(tz).isoformat(),
            "value": s.value,
            "unit": "tons",
        }
        for a in assets
        for s in truth.history("POKMAIN", a, sensor, start, end)
    ]


def task(expect, **kw):
    return Task.model_validate(
        {"id": "t", "question": "what?", "now": "2020-06-08T09:00:00-04:00", "expect": expect, **kw}
    )


FILE = {
    "site": "POKMAIN",
    "assets": ["Chiller 6", "Chiller 9"],
    "sensor": "Tonnage",
    "start": "2020-06-01T00:00:00-04:00",
    "end": "2020-06-08T00:00:00-04:00",
}
END = datetime(2020, 6, 8, tzinfo=TZ)


# ------------------------------------------------------------------------------------------ file
def test_file_exact_rows_pass(truth):
    t = task({"file": FILE})
    data = rows(truth, ["Chiller 6", "Chiller 9"], "Tonnage", T0, END)
    assert len(data) == 2 * 7 * 24
    v = check_task(t, Evidence("Saved to merged-1.json", {"merged-1.json": data}), truth)
    assert v.passed, v.summary()


def test_file_other_timezone_and_order_pass(truth):
    data = rows(truth, ["Chiller 9", "Chiller 6"], "Tonnage", T0, END, tz=UTC)[::-1]
    assert check_task(task({"file": FILE}), Evidence("done", {"f.json": data}), truth).passed


def test_file_missing_asset_fails(truth):
    data = rows(truth, ["Chiller 6"], "Tonnage", T0, END)
    v = check_task(task({"file": FILE}), Evidence("done", {"c6.json": data}), truth)
    assert not v.passed
    assert "168 missing rows" in v.checks[0].detail and "chiller 9" in v.checks[0].detail


def test_file_wrong_range_fails(truth):
    shifted = rows(truth, ["Chiller 6", "Chiller 9"], "Tonnage", T0 - timedelta(days=7), END - timedelta(days=7))
    v = check_task(task({"file": FILE}), Evidence("done", {"f.json": shifted}), truth)
    assert not v.passed and "extra rows" in v.checks[0].detail
    one_day_short = rows(truth, ["Chiller 6", "Chiller 9"], "Tonnage", T0, END - timedelta(days=1))
    assert not check_task(task({"file": FILE}), Evidence("done", {"f.json": one_day_short}), truth).passed
    one_hour_over = rows(truth, ["Chiller 6", "Chiller 9"], "Tonnage", T0, END + timedelta(hours=1))
    assert not check_task(task({"file": FILE}), Evidence("done", {"f.json": one_hour_over}), truth).passed


def test_file_wrong_sensor_value_or_duplicates_fail(truth):
    power = rows(truth, ["Chiller 6", "Chiller 9"], "Power", T0, END)
    for r in power:
        r["sensor_name"] = "Tonnage"  # right labels, wrong numbers
    assert not check_task(task({"file": FILE}), Evidence("done", {"f.json": power}), truth).passed
    good = rows(truth, ["Chiller 6", "Chiller 9"], "Tonnage", T0, END)
    assert not check_task(task({"file": FILE}), Evidence("done", {"f.json": good + good[:3]}), truth).passed
    honest_other_sensor = rows(truth, ["Chiller 6", "Chiller 9"], "Power", T0, END)
    assert not check_task(task({"file": FILE}), Evidence("done", {"f.json": honest_other_sensor}), truth).passed


def test_file_single_vs_split(truth):
    c6 = rows(truth, ["Chiller 6"], "Tonnage", T0, END)
    c9 = rows(truth, ["Chiller 9"], "Tonnage", T0, END)
    files = {"c6.json": c6, "c9.json": c9}
    assert not check_task(task({"file": FILE}), Evidence("done", files), truth).passed
    split = dict(FILE, single_file=False)
    assert check_task(task({"file": split}), Evidence("done", files), truth).passed
    # a clean file per asset, plus a wrong-range one that is ignored, still covers the rows
    wrong = rows(truth, ["Chiller 9"], "Tonnage", T0, END + timedelta(days=1))
    assert check_task(task({"file": split}), Evidence("done", {**files, "bad.json": wrong}), truth).passed
    assert not check_task(task({"file": split}), Evidence("done", {"c6.json": c6, "bad.json": wrong}), truth).passed


def test_file_named_in_answer(truth):
    data = rows(truth, ["Chiller 6", "Chiller 9"], "Tonnage", T0, END)
    t = task({"file": dict(FILE, named_in_answer=True)})
    assert check_task(t, Evidence("The data is in merged-ab12.json", {"merged-ab12.json": data}), truth).passed
    assert not check_task(t, Evidence("The data is in a file", {"merged-ab12.json": data}), truth).passed


def test_file_not_history_rows_fails(truth):
    v = check_task(task({"file": FILE}), Evidence("done", {"sites.json": [{"site_name": "POKMAIN"}]}), truth)
    assert not v.passed and "no history file" in v.checks[0].detail


# ------------------------------------------------------------------------------------------ value
VALUE = {
    "site": "POKMAIN",
    "asset": "Chiller 6",
    "sensor": "Power",
    "aggregate": "max",
    "start": "2020-06-01T00:00:00-04:00",
    "end": "2020-06-02T00:00:00-04:00",
    "rel_tol": 0.005,
}


@pytest.mark.parametrize(
    "aggregate,expected",
    [("max", 537.0), ("min", 307.0), ("mean", 422.0), ("first", 307.0), ("last", 537.0), ("sum", 10128.0)],
)
def test_value_aggregates(truth, aggregate, expected):
    t = task({"value": dict(VALUE, aggregate=aggregate)})
    assert check_task(
        t, Evidence(f"The {aggregate} Power of Chiller 6 on 2020-06-01 was {expected:,.1f} kW"), truth
    ).passed


def test_value_within_and_outside_tolerance(truth):
    t = task({"value": VALUE})  # max 537.0, tolerance ±2.685
    assert check_task(t, Evidence("Highest power was 535 kW at 23:00 on 2020-06-01."), truth).passed
    v = check_task(t, Evidence("Highest power was 530 kW at 23:00 on 2020-06-01."), truth)
    assert not v.passed and "expected max 537" in v.checks[0].detail
    assert not check_task(t, Evidence("The highest power of Chiller 6 was recorded on June 1, 2020."), truth).passed


def test_value_ignores_dates_times_and_names(truth):
    t = task(
        {"value": dict(VALUE, asset="Chiller 6", aggregate="at", at="2020-06-01T06:00:00-04:00", start=None, end=None)}
    )
    # expected 300 + 60 + 7 = 367
    assert check_task(t, Evidence("Chiller 6 Power at 06:00 on 6/1/20 was 367.0 kW"), truth).passed
    # the only numbers are the date, the time and the asset's own number: none is a reading
    assert not check_task(
        t, Evidence("Chiller 6 Power at 06:00 on 2020-06-01T06:00:00-04:00 was recorded"), truth
    ).passed
    assert numbers_in("Chiller 6 had 367 kW on jan 13 '23 at 3:15 pm (file c6-1a2b.json)", ["Chiller 6"]) == [367.0]


def test_value_point_uses_last_sample_before(truth):
    t = task(
        {
            "value": {
                "site": "POKMAIN",
                "asset": "Chiller 9",
                "sensor": "Tonnage",
                "aggregate": "at",
                "at": "2020-06-02T00:30:00-04:00",
            }
        }
    )
    assert check_task(t, Evidence("It was 500 tons."), truth).passed  # the midnight sample
    assert not check_task(t, Evidence("It was 510 tons."), truth).passed


def test_value_several_must_all_match(truth):
    t = task({"value": [VALUE, dict(VALUE, asset="Chiller 9")]})  # 537 and 737
    assert check_task(t, Evidence("Chiller 6: 537 kW, Chiller 9: 737 kW"), truth).passed
    v = check_task(t, Evidence("Chiller 6: 537 kW, Chiller 9: 700 kW"), truth)
    assert not v.passed and [c.status for c in v.checks] == ["pass", "fail", "pass"]  # the last: names_exist


# ------------------------------------------------------------------------------------------ count, lists, mentions
def test_count(truth):
    t = task({"count": {"of": "sensors", "site": "POKMAIN", "asset": "Chiller 6"}})
    assert check_task(t, Evidence("Chiller 6 has 3 sensors: Tonnage, Power and % Loaded."), truth).passed
    assert check_task(t, Evidence("There are three sensors on Chiller 6."), truth).passed
    assert not check_task(t, Evidence("Chiller 6 has 4 sensors."), truth).passed
    assert not check_task(t, Evidence("Chiller 6 has sensors."), truth).passed
    chillers = task({"count": {"of": "assets", "site": "POKMAIN", "name_contains": "chiller"}})
    assert check_task(chillers, Evidence("POKMAIN has 2 chillers"), truth).passed
    assert not check_task(chillers, Evidence("POKMAIN has 3 assets"), truth).passed


def test_answer_lists(truth):
    t = task({"answer_lists": {"of": "sensors", "site": "POKMAIN", "asset": "B020_Total"}})
    assert check_task(t, Evidence("B020_Total measures power and energy"), truth).passed
    assert not check_task(t, Evidence("B020_Total measures Power"), truth).passed
    sites = task({"answer_lists": {"of": "sites"}})
    assert check_task(sites, Evidence("Sites: POKMAIN, RCHMAIN."), truth).passed
    assert not check_task(sites, Evidence("Sites: POKMAIN."), truth).passed


def test_mentions_all_and_any(truth):
    t = task({"answer_mentions_all": ["Chiller 6", "Chiller 9"]})
    assert check_task(t, Evidence("chiller_6 and CHILLER-9"), truth).passed
    assert not check_task(t, Evidence("Chiller 6 and Chiller 90"), truth).passed
    anyt = task({"answer_mentions_any": ["Chiller 6", "Chiller 9"]})
    assert check_task(anyt, Evidence("It was Chiller 9."), truth).passed
    assert not check_task(anyt, Evidence("It was Chiller 7."), truth).passed


def test_says_missing(truth):
    t = task({"answer_says_missing": {"name": "B020", "kind": "asset", "site": "POKMAIN"}})
    assert check_task(t, Evidence("There is no asset named B020 at POKMAIN; did you mean B020_Total?"), truth).passed
    assert check_task(t, Evidence("B020 was not found at POKMAIN."), truth).passed
    assert not check_task(t, Evidence("The power consumption of B020 is 1007 kW."), truth).passed
    assert not check_task(t, Evidence("That asset does not exist."), truth).passed  # does not name it
    loose = task({"answer_says_missing": "B020"})
    assert check_task(loose, Evidence("I couldn't find B020."), truth).passed
    stale = task({"answer_says_missing": {"name": "Chiller 6", "kind": "asset", "site": "POKMAIN"}})
    v = check_task(stale, Evidence("Chiller 6 does not exist"), truth)
    assert not v.passed and v.error


def test_no_answer_fails_everything(truth):
    v = check_task(task({"answer_mentions_any": ["POKMAIN"], "count": {"of": "sites"}}), Evidence(None), truth)
    assert not v.passed and all(c.status == "fail" for c in v.checks)


def test_unknown_entity_is_a_task_error_not_a_pass(truth):
    t = task({"value": dict(VALUE, asset="Chiller 7")})
    v = check_task(t, Evidence("537"), truth)
    assert not v.passed and v.error and "no asset 'Chiller 7'" in v.checks[0].detail
    assert validate_task(t, truth) and not validate_task(task({"value": VALUE}), truth)


def test_cached_truth_memoises(truth):
    cached = CachedTruth(truth)
    t = task({"value": VALUE})
    for _ in range(3):
        assert check_task(t, Evidence("537"), cached).passed
    assert truth.calls == 1


# ------------------------------------------------------------------------------------------ task file format
def test_task_file_errors_name_the_task():
    good = {"id": "a", "question": "what?", "now": "2020-06-08T09:00:00-04:00", "expect": {"count": {"of": "sites"}}}
    with pytest.raises(TaskFileError, match="task b"):
        parse_tasks({"tasks": [good, {**good, "id": "b", "expect": {}}]})
    with pytest.raises(TaskFileError, match="used twice"):
        parse_tasks({"tasks": [good, good]})
    with pytest.raises(TaskFileError, match="timezone|tz"):
        parse_tasks({"tasks": [{**good, "now": "2020-06-08T09:00:00"}]})
    with pytest.raises(TaskFileError, match="start must be before end"):
        parse_tasks({"tasks": [{**good, "expect": {"file": dict(FILE, end=FILE["start"])}}]})
    with pytest.raises(TaskFileError, match="extra|not permitted"):
        parse_tasks({"tasks": [{**good, "expect": {"answer_mentions_al": ["x"]}}]})
    tf = parse_tasks(
        {"defaults": {"now": "2020-06-08T09:00:00-04:00"}, "tasks": [{k: v for k, v in good.items() if k != "now"}]}
    )
    assert tf.tasks[0].now.utcoffset() == timedelta(hours=-4)


@given(st.floats(min_value=-1e6, max_value=1e6, allow_nan=False).map(lambda x: round(x, 2)))
def test_numbers_in_finds_any_stated_reading(x):
    assert x in numbers_in(f"The reading of Chiller 6 on 2020-06-01 at 14:00 was {x} kW.", ["Chiller 6"])
    assert x in numbers_in(f"Value: {x:,.2f}", [])


@given(st.text(min_size=1, max_size=30))
def test_mentions_finds_itself(name):
    if any(ch.isalnum() for ch in name):
        assert mentions(f"answer: {name}.", name)


def test_missing_phrases():
    for text in [
        "No such asset B1",
        "B1 does not exist",
        "B1 wasn't found",
        "I could not find B1",
        "unknown asset B1",
        "B1 is not an asset at POKMAIN",
        "there is no B1",
        "AHU 1 has no Power sensor",
        "AHU 1 does not have a Power sensor",
        "AHU 1 doesn't have Power",
    ]:
        assert says_missing(text), text
    for text in ["B1 used 40 kW", "Found B1: 40 kW"]:
        assert not says_missing(text), text


# ------------------------------------------------------------------------------------------ count binds its noun
class KindsTruth(NamesOnly):
    """A site whose asset names carry digits, with equip markers (the `kind` of a count)."""

    def __init__(self):
        super().__init__(
            {
                "DEPOT": {
                    "EV Charger 2": ["Power"],
                    "EV Charger 5": ["Power"],
                    "CRAC-03": ["Return Temp"],
                    "Computer Room AC 4": ["Return Temp"],
                    "Main Meter": ["Power", "Energy"],
                }
            }
        )

    def asset_types(self, site):
        return {
            "EV Charger 2": ["evse"],
            "EV Charger 5": ["evse"],
            "CRAC-03": ["crac"],
            "Computer Room AC 4": ["crac"],
            "Main Meter": ["elecMeter", "meter"],
        }


@pytest.mark.parametrize(
    "answer, ok",
    [
        ("There are 2 computer room AC units at DEPOT: CRAC-03 and Computer Room AC 4.", True),
        ("Found 2 crac assets at DEPOT: CRAC-03, Computer Room AC 4", True),
        ("two CRAC units", True),
        ("2", True),
        ("DEPOT has a total of 2.", True),
        ("The CRAC units at DEPOT are CRAC-03 and Computer Room AC 4.", False),  # no count
        ("EV Charger 2 is at DEPOT.", False),  # a digit inside a name is not a count
        ("CRAC-03 reported 2 alarms on 2024-03-02", False),  # a number of something else
        ("There are 5 assets at DEPOT, among them CRAC-03 and Computer Room AC 4", False),
    ],
)
def test_count_binds_the_number_to_what_is_counted(answer, ok):
    t = task({"count": {"of": "assets", "site": "DEPOT", "kind": "crac", "noun": ["computer room AC", "CRAC"]}})
    v = check_task(t, Evidence(answer), KindsTruth(), strict_names=False)
    assert v.passed is ok, v.summary()


def test_count_of_a_kind_is_read_from_the_markers():
    t = task({"count": {"of": "assets", "site": "DEPOT", "kind": "evse", "noun": ["EV chargers", "charging points"]}})
    assert check_task(t, Evidence("DEPOT has 2 EV chargers: EV Charger 2 and EV Charger 5"), KindsTruth()).passed
    assert not check_task(t, Evidence("EV Charger 2 and EV Charger 5 are the chargers"), KindsTruth()).passed
    with pytest.raises(TaskFileError):
        parse_tasks(
            {
                "tasks": [
                    {
                        "id": "x",
                        "question": "how many?",
                        "now": "2024-01-01T00:00:00Z",
                        "expect": {"count": {"of": "sensors", "site": "DEPOT", "asset": "Main Meter", "kind": "crac"}},
                    }
                ]
            }
        )


@given(st.integers(0, 20), st.sampled_from(["EV Charger", "Chiller", "AHU-", "Kühlturm "]), st.integers(0, 99))
def test_a_number_inside_a_name_is_never_a_count(n, stem, k):
    name = f"{stem}{k}"
    truth = NamesOnly({"S": {name: ["Power"], **{f"Other {i}": ["Power"] for i in range(n)}}})
    t = task({"count": {"of": "assets", "site": "S"}})
    assert not check_task(t, Evidence(f"{name} is the one you want."), truth, strict_names=False).passed
    assert check_task(t, Evidence(f"There are {n + 1} assets at S, e.g. {name}."), truth, strict_names=False).passed


def test_day_first_dates_are_no_numbers():

    text = "The highest Chiller 6 Tonnage on 1 June 2020 was 265.22 tonref, at 16:15; from 1 Jun 2020 to 7 June 2020"
    assert numbers_in(text, ["Chiller 6", "Tonnage"]) == [265.22]
    assert numbers_in("on June 1, 2020 it was 5", []) == [5.0]


def test_a_withheld_last_trial_answer_counts_as_not_right_for_the_review_agreement():
    # a run that gave up delivered nothing: its last trial's prose (which the status withheld) is not judged right,
    # so a Review that called it "Partially Accomplished" agrees with what the run delivered
    from edge_agent.agent.trajectory import Review, RunResult, Trial
    from edge_agent.evaluation.runner import evaluate

    t = task({"count": {"of": "assets", "site": "DEPOT", "kind": "crac", "noun": ["CRAC"]}})
    trial = Trial(number=1, answer="2", review=Review(status="Partially Accomplished", reasoning="r"))
    result = RunResult(
        run_id="r", question="q", strategy="reactxen", model="m", now="x", status="gave_up", trials=[trial]
    )
    run = evaluate(t, result, {}, KindsTruth(), "m", strict_names=False)
    assert run.checker_by_round == [False] and run.reviews_agreeing == 1 and not run.checker_final
    delivered = result.model_copy(update={"status": "answered", "answer": "2"})
    run = evaluate(t, delivered, {}, KindsTruth(), "m", strict_names=False)
    assert run.checker_by_round == [True] and run.reviews_agreeing == 0 and run.checker_final
