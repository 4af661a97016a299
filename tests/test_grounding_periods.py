"""Two periods a question compares (`grounding.periods`): both read in the question's order, a second period
stated relative to the first shifted on the wall clock, a range never split in two."""

from __future__ import annotations

from datetime import date, datetime, timedelta
from zoneinfo import ZoneInfo

import pytest
from hypothesis import given
from hypothesis import strategies as st

from edge_agent.grounding.periods import two_periods

BERLIN = ZoneInfo("Europe/Berlin")
NOW = datetime(2026, 4, 6, 8, 0, tzinfo=BERLIN)  # a Monday; the clocks went forward on Sunday 29 March


def iso(pair):
    return [p.iso() for p in pair] if pair else None


@pytest.mark.parametrize(
    "question,first,second",
    [
        (
            "compare fcu_1_02's peak fan speed on Mon, Mar 23 vs on March 22, 2026 - which is lower?",
            "2026-03-23",
            "2026-03-22",
        ),
        ("was the peak firing_rate of boiler_1 higher last week or the week before?", "2026-03-30", "2026-03-23"),
        ("CH-1 Power: which was lower, the average on 2026-04-01 or on March 31", "2026-04-01", "2026-03-31"),
        ("more kWh on 22 March 2026 than on 29 March 2026?", "2026-03-22", "2026-03-29"),
        ("was yesterday's mean higher than the same day last week?", "2026-04-05", "2026-03-29"),
        ("How did the Power of Pump 3 on April 2 compare with April 3?", "2026-04-02", "2026-04-03"),
        ("less energy this month than the previous month?", "2026-04-01", "2026-03-01"),
        ("Was the incomer load higher Tuesday or Wednesday last week?", "2026-03-31", "2026-04-01"),
        ("did we use more electricity this past saturday or the saturday before?", "2026-04-04", "2026-03-28"),
        ("was it colder on thursday than the previous thursday?", "2026-04-02", "2026-03-26"),
    ],
)
def test_two_periods_in_the_question_order(question, first, second):
    got = two_periods(question, NOW)
    assert got is not None, question
    assert got[0].iso()[0][:10] == first and got[1].iso()[0][:10] == second


@pytest.mark.parametrize(
    "question",
    [
        "what was the max power of CH-1 from 1 March to 5 March 2026",  # one range, not two periods
        "what was the mean power of CH-1 last week?",
        "power of CH-1 now or at 10:00?",  # instants, no periods
        "which is higher, Pump 1 or Pump 2, last week?",  # two assets over one period
    ],
)
def test_no_two_periods(question):
    assert two_periods(question, NOW) is None


def test_the_week_before_across_a_dst_change_keeps_midnights():
    got = two_periods("more energy last week than the week before?", datetime(2026, 4, 1, 9, tzinfo=BERLIN))
    # last week is 23–30 March (the 29th has 23 hours); the week before 16–23 March: wall-clock midnights
    assert iso(got) == [
        ("2026-03-23T00:00:00", "2026-03-30T00:00:00"),
        ("2026-03-16T00:00:00", "2026-03-23T00:00:00"),
    ]


@given(st.dates(min_value=date(2001, 1, 1), max_value=date(2098, 12, 31)), st.sampled_from(["day", "week", "month"]))
def test_a_period_before_is_as_long_as_its_unit_and_ends_where_the_first_starts(day, unit):
    now = datetime.combine(day + timedelta(days=40), datetime.min.time(), BERLIN).replace(hour=9)
    first = {"day": f"on {day.isoformat()}", "week": "last week", "month": "last month"}[unit]
    got = two_periods(f"more energy {first} than the {unit} before?", now)
    assert got is not None
    a, b = (datetime.fromisoformat(x) for x in got[0].iso()), (datetime.fromisoformat(x) for x in got[1].iso())
    (a0, a1), (b0, b1) = a, b
    assert b1 == a0 and b0 < b1 and b0.time() == a0.time()
    if unit != "month":
        assert b1 - b0 == a1 - a0
    else:
        assert b0.day == 1 and (b1 - b0).days in (28, 29, 30, 31)
