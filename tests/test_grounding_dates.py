"""The date-phrase resolver the Distill agent uses instead of the model's date arithmetic."""

from __future__ import annotations

from datetime import date, datetime, time, timedelta
from zoneinfo import ZoneInfo

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from edge_agent.grounding.dates import resolve_period

NY = ZoneInfo("America/New_York")
NOW = datetime(2020, 6, 8, 9, 0, tzinfo=NY)  # a Monday


def iso(text: str) -> tuple[str, str]:
    r = resolve_period(text, NOW)
    assert r is not None, text
    return r.start.isoformat(), r.end.isoformat()


@pytest.mark.parametrize(
    "text,start,end",
    [
        (
            "Get Chiller 6 and Chiller 9 Tonnage for last week at POKMAIN",
            "2020-06-01T00:00:00-04:00",
            "2020-06-08T00:00:00-04:00",
        ),
        ("power of B020_Total on jan 13 '23", "2023-01-13T00:00:00-05:00", "2023-01-14T00:00:00-05:00"),
        ("the first week of June 2020", "2020-06-01T00:00:00-04:00", "2020-06-08T00:00:00-04:00"),
        ("the last week of May 2020", "2020-05-25T00:00:00-04:00", "2020-06-01T00:00:00-04:00"),
        # the year left out: the latest such month that has begun, its week (never "last week", never the month)
        ("in the first week of March", "2020-03-01T00:00:00-05:00", "2020-03-08T00:00:00-05:00"),
        ("P-101A power in the last week of May", "2020-05-25T00:00:00-04:00", "2020-06-01T00:00:00-04:00"),
        ("the second week of april", "2020-04-08T00:00:00-04:00", "2020-04-15T00:00:00-04:00"),
        ("yesterday", "2020-06-07T00:00:00-04:00", "2020-06-08T00:00:00-04:00"),
        ("the day before yesterday", "2020-06-06T00:00:00-04:00", "2020-06-07T00:00:00-04:00"),
        ("at midnight", "2020-06-08T00:00:00-04:00", "2020-06-08T00:00:00-04:00"),
        ("at midnight on jan 13 '23", "2023-01-13T00:00:00-05:00", "2023-01-13T00:00:00-05:00"),
        ("yesterday at 3pm", "2020-06-07T15:00:00-04:00", "2020-06-07T15:00:00-04:00"),
        # a night runs past its midnight: "midnight last night" is today's 00:00, "3am last night" today's 03:00
        ("at midnight last night", "2020-06-08T00:00:00-04:00", "2020-06-08T00:00:00-04:00"),
        ("at 3am last night", "2020-06-08T03:00:00-04:00", "2020-06-08T03:00:00-04:00"),
        ("at 11pm last night", "2020-06-07T23:00:00-04:00", "2020-06-07T23:00:00-04:00"),
        ("noon on March 3rd, 2021", "2021-03-03T12:00:00-05:00", "2021-03-03T12:00:00-05:00"),
        ("past 3 days", "2020-06-05T00:00:00-04:00", "2020-06-08T00:00:00-04:00"),
        ("the last 12 hours", "2020-06-07T21:00:00-04:00", "2020-06-08T09:00:00-04:00"),
        ("last month", "2020-05-01T00:00:00-04:00", "2020-06-01T00:00:00-04:00"),
        ("this week", "2020-06-08T00:00:00-04:00", "2020-06-08T09:00:00-04:00"),
        ("today", "2020-06-08T00:00:00-04:00", "2020-06-08T09:00:00-04:00"),
        ("last year", "2019-01-01T00:00:00-05:00", "2020-01-01T00:00:00-05:00"),
        ("2 days ago", "2020-06-06T00:00:00-04:00", "2020-06-07T00:00:00-04:00"),
        ("last friday", "2020-06-05T00:00:00-04:00", "2020-06-06T00:00:00-04:00"),
        ("on 13 January 2023", "2023-01-13T00:00:00-05:00", "2023-01-14T00:00:00-05:00"),
        ("on 5/4/2020", "2020-05-04T00:00:00-04:00", "2020-05-05T00:00:00-04:00"),
        ("June 2019", "2019-06-01T00:00:00-04:00", "2019-07-01T00:00:00-04:00"),
        ("from jan 1 to jan 5 2021 at POKMAIN", "2021-01-01T00:00:00-05:00", "2021-01-06T00:00:00-05:00"),
        ("between 2020-05-01 and 2020-05-03", "2020-05-01T00:00:00-04:00", "2020-05-04T00:00:00-04:00"),
        ("at 2020-06-01T10:15:00", "2020-06-01T10:15:00-04:00", "2020-06-01T10:15:00-04:00"),
        ("on may 30", "2020-05-30T00:00:00-04:00", "2020-05-31T00:00:00-04:00"),
        ("on dec 25", "2019-12-25T00:00:00-05:00", "2019-12-26T00:00:00-05:00"),  # most recent, not future
    ],
)
def test_phrases(text, start, end):
    assert iso(text) == (start, end)


@pytest.mark.parametrize(
    "text",
    [
        "What IoT sites are available?",
        "list the sensors of B705 AHU 1 at POKMAIN",
        "Compare Chiller 6 and Chiller 9",
        "what is the B012 SCWP 1 Power",
    ],
)
def test_no_period(text):
    assert resolve_period(text, NOW) is None


nows = st.datetimes(
    min_value=datetime(2020, 3, 1),
    max_value=datetime(2026, 11, 30),
    timezones=st.sampled_from([NY, ZoneInfo("America/Chicago"), ZoneInfo("Europe/Dublin"), ZoneInfo("UTC")]),
)


@settings(max_examples=150, deadline=None)
@given(now=nows)
def test_last_week_is_the_previous_calendar_week(now):
    r = resolve_period("Tonnage for last week", now)
    assert r.start.weekday() == 0 and r.start.time() == time(0) and r.end.time() == time(0)
    assert (r.end.date() - r.start.date()).days == 7
    assert r.end.date() <= now.date() < r.end.date() + timedelta(days=7)
    assert r.start.tzinfo is now.tzinfo


@settings(max_examples=150, deadline=None)
@given(
    now=nows,
    phrase=st.sampled_from(
        [
            "yesterday",
            "last week",
            "past week",
            "last month",
            "last year",
            "past 3 days",
            "last 6 hours",
            "2 days ago",
            "last tuesday",
            "this week",
            "this month",
            "today",
            "at midnight",
            "at 3pm",
            "the day before yesterday",
            "last 2 weeks",
        ]
    ),
)
def test_relative_phrases_end_no_later_than_now(now, phrase):
    r = resolve_period(f"Chiller 6 Tonnage {phrase} at POKMAIN", now)
    assert r is not None
    assert r.start <= r.end <= now
    assert r.point == (r.start == r.end) or not r.point
    # its ISO form names the same instant (compared as instants: PEP 495 makes a time in a DST fold unequal to any
    # other zone's, the same instant included)
    assert datetime.fromisoformat(r.start.isoformat()).timestamp() == r.start.timestamp()


@settings(max_examples=150, deadline=None)
@given(
    day=st.dates(min_value=date(2020, 1, 1), max_value=date(2026, 12, 31)),
    fmt=st.sampled_from(
        [
            "{mon} {d} {y}",
            "{mon} {d}, {y}",
            "{d} {month} {y}",
            "{month} {d}th {y}",
            "{iso}",
            "{m}/{d}/{y}",
            "{mon} {d} '{yy}",
        ]
    ),
)
def test_absolute_days(day, fmt):
    text = fmt.format(
        mon=day.strftime("%b").lower(),
        month=day.strftime("%B"),
        d=day.day,
        y=day.year,
        yy=day.strftime("%y"),
        m=day.month,
        iso=day.isoformat(),
    )
    r = resolve_period(f"Power of B020_Total on {text}, site POKMAIN", NOW)
    assert r is not None, text
    assert r.start == datetime.combine(day, time(0), tzinfo=NY)
    assert r.end == datetime.combine(day + timedelta(days=1), time(0), tzinfo=NY)


@settings(max_examples=300, deadline=None)
@given(text=st.text(max_size=120), now=nows)
def test_never_raises_and_ranges_are_ordered(text, now):
    r = resolve_period(text, now)
    if r is not None:
        assert r.start <= r.end


WORDS = [
    "from",
    "to",
    "between",
    "and",
    "jan",
    "13",
    "'23",
    "2020",
    "-",
    "05",
    "/",
    "at",
    "midnight",
    "last",
    "week",
    "3pm",
    "13pm",
    "first",
    "of",
    "june",
    "12:30",
    "25:99",
    "past",
    "ago",
    "days",
    "2020-06-01",
    "2020-02-30",
    "99",
    "feb",
    "30",
    "31",
    "yesterday",
    "month",
    "4th",
    "1/45/2020",
    "2020-06-01T10:00",
    "noon",
    "0",
]


@settings(max_examples=400, deadline=None)
@given(words=st.lists(st.sampled_from(WORDS), max_size=10), now=nows)
def test_date_like_garbage_never_raises(words, now):
    r = resolve_period(" ".join(words), now)
    if r is not None:
        assert r.start <= r.end


@pytest.mark.parametrize(
    "text,start,end",
    [
        ("last week", "2020-06-01T00:00:00", "2020-06-08T00:00:00"),  # wall clock: the tool reads it in site time
        ("at midnight", "2020-06-08T00:00:00", "2020-06-08T00:00:00"),
        ("today", "2020-06-08T00:00:00", "2020-06-08T09:00:00-04:00"),  # ends now: an instant
        ("the last 12 hours", "2020-06-07T21:00:00-04:00", "2020-06-08T09:00:00-04:00"),
        ("at 2020-06-01T10:15:00Z", "2020-06-01T10:15:00+00:00", "2020-06-01T10:15:00+00:00"),
        ("at 2020-06-01T10:15:00", "2020-06-01T10:15:00", "2020-06-01T10:15:00"),
        ("on 2024-06-26: Power", "2024-06-26T00:00:00", "2024-06-27T00:00:00"),
    ],
)
def test_iso_texts_are_wall_clock_unless_measured_from_now(text, start, end):
    assert resolve_period(text, NOW).iso() == (start, end)


def _bench_expectations():
    """(task id, question, now, expected start, expected end) of every dated check in bench/tasks."""
    import yaml

    from edge_agent import PROJECT_ROOT

    out = []
    for path in sorted((PROJECT_ROOT / "bench" / "tasks").glob("*.yaml")):
        doc = yaml.safe_load(path.read_text()) or {}
        records = PROJECT_ROOT / str(doc.get("dataset", ""))
        if doc.get("dataset") and records.is_file():  # an operator's dataset: its sites' time zones
            import json

            grid = json.loads(records.read_text())
            from edge_agent.skyspark.encoding import zone

            ZONES.update({r["dis"]: zone(r["tz"]).key for r in grid.get("rows", []) if "site" in r and "tz" in r})
        for task in doc.get("tasks", []):
            for check in (task.get("expect") or {}).values():
                if isinstance(check, dict) and "site" in check and ("start" in check or "at" in check):
                    start, end = (check["start"], check["end"]) if "start" in check else (check["at"], check["at"])
                    out.append((task["id"], task["question"], str(task["now"]), check["site"], str(start), str(end)))
    return out


ZONES: dict[str, str] = {}  # sites of operators' datasets the task files use -> their time zones
BENCH = _bench_expectations()


@pytest.mark.skipif(not BENCH, reason="no benchmark task files")
@pytest.mark.parametrize("task_id,question,now,site,start,end", BENCH, ids=[b[0] for b in BENCH])
def test_the_benchmark_periods_are_resolved_exactly(task_id, question, now, site, start, end):
    """Cross-check with the benchmark's hand-written expectations, read in the site's timezone as the
    histories tool reads a naive date-time."""
    from edge_agent.clock import Clock, parse_instant
    from edge_agent.skyspark.plant_layout import SITES
    from edge_agent.skyspark.plants import RHINE_SITES

    zones = {s.name: s.tz for s in SITES} | {spec.name: spec.tz for spec, _ in RHINE_SITES} | ZONES
    tz = ZoneInfo(zones.get(site, "America/New_York"))
    r = resolve_period(question, Clock(now).now())
    assert r is not None, question
    got = tuple(parse_instant(t, tz) for t in r.iso())
    assert got == (datetime.fromisoformat(start), datetime.fromisoformat(end)), (question, r.iso())


def test_dotted_dates_put_the_day_first():
    from datetime import datetime
    from zoneinfo import ZoneInfo

    from edge_agent.grounding.dates import resolve_period

    now = datetime(2023, 5, 20, 10, tzinfo=ZoneInfo("Europe/Berlin"))
    got = resolve_period("Active Power of Main Meter on Tuesday 2.5.2023?", now)
    assert got.iso() == ("2023-05-02T00:00:00", "2023-05-03T00:00:00")


def test_a_day_of_the_month_alone_is_the_latest_such_day():
    from datetime import datetime
    from zoneinfo import ZoneInfo

    from edge_agent.grounding.dates import resolve_period

    now = datetime(2024, 4, 5, 10, 0, tzinfo=ZoneInfo("America/Los_Angeles"))
    assert resolve_period("on the 3rd", now).iso() == ("2024-04-03T00:00:00", "2024-04-04T00:00:00")
    assert resolve_period("during the pump test on the 28th", now).iso()[0] == "2024-03-28T00:00:00"
    assert resolve_period("on the 31st", now).iso()[0] == "2024-03-31T00:00:00"  # April has none yet: March's
    assert resolve_period("the 6th", now).iso()[0] == "2024-03-06T00:00:00"  # not yet this month
    assert resolve_period("the 3rd of april", now).iso()[0] == "2024-04-03T00:00:00"


def test_two_days_of_one_month_written_once():
    from datetime import datetime
    from zoneinfo import ZoneInfo

    from edge_agent.grounding.dates import resolve_period

    now = datetime(2024, 4, 5, 10, 0, tzinfo=ZoneInfo("America/Los_Angeles"))
    got = resolve_period("export ripening rm 1 ethylene, 25th to 27th march inclusive", now)
    assert got.iso() == ("2024-03-25T00:00:00", "2024-03-28T00:00:00")
    assert resolve_period("from 3 - 5 april 2024", now).iso() == ("2024-04-03T00:00:00", "2024-04-06T00:00:00")
    assert resolve_period("Chiller 6 to 9 march", now).iso() == ("2024-03-09T00:00:00", "2024-03-10T00:00:00")


def test_a_month_and_day_in_figures_is_read_only_where_one_order_is_a_date():
    now = datetime(2026, 11, 2, 7, 0, tzinfo=ZoneInfo("America/Denver"))
    assert resolve_period("highest wind speed at kestrel on 10/31", now).iso()[0] == "2026-10-31T00:00:00"
    assert resolve_period("the data for 21/10 please", now).iso()[0] == "2026-10-21T00:00:00"
    assert resolve_period("what happened on 10/11", now) is None  # 10 Nov or 11 Oct: not said which
    assert resolve_period("3/4 of the day", now) is None  # no preposition: a fraction, not a date


def test_a_weekday_of_a_named_week_is_that_day_of_that_week():
    now = datetime(2024, 4, 9, 10, 0, tzinfo=ZoneInfo("Europe/Amsterdam"))  # a Tuesday
    assert resolve_period("wednesday last week", now).iso()[0] == "2024-04-03T00:00:00"
    assert resolve_period("last week's tuesday", now).iso()[0] == "2024-04-02T00:00:00"
    assert resolve_period("friday of last week", now).iso() == ("2024-04-05T00:00:00", "2024-04-06T00:00:00")
    assert resolve_period("last week", now).iso() == ("2024-04-01T00:00:00", "2024-04-08T00:00:00")


@pytest.mark.parametrize(
    "question,at",
    [
        ("DO in aeration lane 2 at 7 this morning?", datetime(2020, 6, 8, 7, 0)),
        ("pump flow at 3 yesterday afternoon", datetime(2020, 6, 7, 15, 0)),
        ("pump flow at 8:30 yesterday evening", datetime(2020, 6, 7, 20, 30)),
    ],
)
def test_a_bare_hour_takes_am_or_pm_from_the_part_of_the_day(question, at):
    p = resolve_period(question, NOW)
    assert p is not None and p.start.replace(tzinfo=None) == at == p.end.replace(tzinfo=None)


def test_a_bare_hour_with_no_part_of_the_day_is_no_time():
    p = resolve_period("pump 2 at 7 yesterday", NOW)
    assert p is not None and p.start.time() == time(0)  # the day, not a guessed hour


@pytest.mark.parametrize(
    "text,day",
    [
        ("export the outside air temperature for Sunday to a file", date(2020, 6, 7)),
        ("what percentage of thursday was the tank above 6 °C", date(2020, 6, 4)),
        ("friday's peak demand", date(2020, 6, 5)),
        ("tank level monday", date(2020, 6, 1)),  # today is a Monday: the one before
    ],
)
def test_a_bare_weekday_is_the_latest_such_day_before_today(text, day):
    r = resolve_period(text, NOW)
    assert r is not None and (r.start.date(), r.end.date()) == (day, day + timedelta(days=1))


def test_a_weekday_ahead_is_still_the_future():
    r = resolve_period("what will the load be next monday", NOW)
    assert r is not None and r.start.date() == date(2020, 6, 15)


@pytest.mark.parametrize(
    "text,at",
    [
        ("gas flow at quarter past four this morning?", datetime(2020, 6, 8, 4, 15, tzinfo=NY)),
        ("level at half past 7 yesterday evening", datetime(2020, 6, 7, 19, 30, tzinfo=NY)),
        ("at quarter to five this afternoon", datetime(2020, 6, 7, 16, 45, tzinfo=NY)),  # today's is still to come
    ],
)
def test_a_spoken_time_with_its_part_of_the_day(text, at):
    r = resolve_period(text, NOW)
    assert r is not None and r.point and r.start == at


def test_a_spoken_time_without_a_part_of_the_day_is_no_time_and_wk_is_a_week():
    assert resolve_period("quarter past four", NOW) is None
    assert iso("avg flow last wk?") == ("2020-06-01T00:00:00-04:00", "2020-06-08T00:00:00-04:00")


@pytest.mark.parametrize(
    "said, day", [("on wed", 18), ("on Weds.", 18), ("last thurs", 19), ("on sat", 21), ("on tue", 17)]
)
def test_a_weekdays_short_form_after_on_or_last_is_that_day(said, day):
    now = datetime(2026, 3, 23, 9, tzinfo=ZoneInfo("America/Indiana/Indianapolis"))  # a Monday
    found = resolve_period(f"did boiler_1 drop below 120F {said}?", now)
    assert found is not None and found.iso() == (f"2026-03-{day:02d}T00:00:00", f"2026-03-{day + 1:02d}T00:00:00")


def test_a_short_weekday_alone_is_another_word():
    now = datetime(2026, 3, 23, 9, tzinfo=ZoneInfo("America/Indiana/Indianapolis"))
    assert resolve_period("was the sun out while the panels sat idle", now) is None


def test_days_of_one_month_with_the_second_day_after_the():
    now = datetime(2026, 11, 5, 9, 0, tzinfo=ZoneInfo("Europe/Amsterdam"))
    found = resolve_period("the average flow for the 27th to the 29th of Oct", now)
    assert found is not None and (found.start.day, found.end.day, found.end.month) == (27, 30, 10)


@pytest.mark.parametrize(
    "text, start",
    [
        ("MTD avg flow", "2026-09-01T00:00:00"),
        ("the mean flow month to date", "2026-09-01T00:00:00"),
        ("year-to-date energy", "2026-01-01T00:00:00"),
        ("WTD energy", "2026-09-07T00:00:00"),
    ],
)
def test_to_date_periods_start_at_the_periods_first_day_and_end_now(text, start):
    now = datetime(2026, 9, 10, 9, 0)
    found = resolve_period(text, now)
    assert found is not None and found.iso()[0] == start and found.end == now
