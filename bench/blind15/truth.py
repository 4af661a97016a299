"""Compute every answer of blind.yaml from plant.json + plant.csv.gz alone, check that each is clear-cut and the one
intended, that each task's windows are what its words say (resolved here from the task's `now`), and write truth.md.
Exit 1 when anything is not clear-cut or disagrees.

Usage: python bench/blind15/truth.py
"""

from __future__ import annotations

import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))
from blindkit.truth import Truth, whole_days  # noqa: E402

# What each question's words mean, written from the question alone (not from its expect block). Phrases:
#   "yesterday", "today", "day before yesterday", "last week", "week before last", "last weekend" (the latest whole
#   Saturday + Sunday before today), "past:N" (the N whole days before today), "weekday:N" (the latest such weekday
#   before today, Monday = 0), "dates:D0:D1" (both days included), "night" (last night: yesterday 18:00 to today
#   06:00; other readings of it are shown and must agree); "at": (day phrase, clock time).
WORDS = {
    "b15-01": {"win": "yesterday"},
    "b15-02": {"win": "weekday:1"},
    "b15-03": {"win": "last week"},
    "b15-04": {"win": "weekday:0"},
    "b15-05": {"win": "yesterday"},
    "b15-06": {"periods": ("last week", "week before last")},
    "b15-07": {"at": ("today", "06:00")},
    "b15-10": {"win": "dates:2026-09-21:2026-09-23"},
    "b15-12": {"win": "last weekend"},
    "b15-13": {"win": "last week"},
    "b15-14": {"win": "last week"},
    "b15-15": {"win": "yesterday"},
    "b15-16": {"win": "weekday:2"},
    "b15-17": {"win": "weekday:2"},
    "b15-18": {"win": "weekday:2"},
    "b15-19": {"win": "yesterday"},
    "b15-20": {"win": "dates:2026-09-21:2026-09-24"},
    "b15-21": {"win": "last week"},
    "b15-22": {"gap_at": ("weekday:1", "03:00")},
    "b15-23": {"win": "weekday:2"},
    "b15-24": {"win": "weekday:6"},
    "b15-25": {"win": "weekday:6"},
    "b15-26": {"win": "last week"},
    "b15-27": {"win": "last weekend"},
    "b15-28": {"win": "yesterday"},
    "b15-29": {"win": "day before yesterday"},
    "b15-30": {"win": "yesterday"},
    "b15-31": {"win": "past:3"},
    "b15-32": {"win": "night"},
}

# The answers the plant was designed to give (plant.yaml's events), to catch a plant that drifted from its design.
DESIGN = {
    "b15-01": {"list": [f"FV-{i:02d}" for i in range(1, 9)], "winner": "FV-03"},
    "b15-02": ("h", 16.0),
    "b15-03": "FV-02",
    "b15-04": {"instant of the extreme": "2026-09-28 09:00", "instant": "2026-09-28 09:00"},
    "b15-06": "first",
    "b15-11": ["CO2_RR", "CMP_KW", "TK_LVL", "TK_PRS", "PUR"],
    "b15-12": False,
    "b15-13": {"count": 6, "winner": "CRAH-05"},
    "b15-14": "Chiller 2",
    "b15-16": ("h", 2.0),
    "b15-17": "2026-09-30 10:30",
    "b15-18": ("h", 1.0),
    "b15-19": False,
    "b15-23": {"instant of the extreme": "2026-09-30 11:00"},
    "b15-26": "Snow Gun 6",
    "b15-27": "Air Compressor 1",
    "b15-29": ("h", 3.5),
    "b15-30": ("h", 3.5),
    "b15-32": {"count": 6, "instant of the extreme": "2026-10-04 04:30"},
    "b15-36": False,
}
#: value-at tasks whose series is flat around the instant (so a misread instant passes too), and why that is kept
FLAT: dict[str, str] = {}
#: aggregate tasks whose misread window would pass as well, and why that is kept
SAME_ANYWAY: dict[str, str] = {
    "b15-23": "the genset ran only in the test, 10:30-12:15, which a day shifted by the UTC offset holds as well",
}
#: samples a window must hold (Queenstown's 23-hour Sunday 27 Sep, the weekend and the week holding it)
SAMPLES = {
    "b15-24": 92,
    "b15-25": 92,
    "b15-26": 668,
    "b15-27": 188,
}
#: energy tasks checked against their register point; on a day that is not 24 hours long, 24 x the mean power must fail
REGISTER = {"b15-24": "Energy"}
#: 'missing' sensors: tags no point of the asset may carry either
MISSING_TAGS: dict[str, set[str]] = {}
#: the least margin of an excursion answered Yes, where the series' unit is small; elsewhere max(0.5, 2 % of the limit)
MARGIN_FLOOR: dict[str, float] = {}
#: durations whose samples past the limit come in more than one run
MULTI_RUN: set[str] = set()

LS = "Larimer Street Brewery"
GD = "Griesheim Data Centre"
SR = "Skippers Ridge Ski Area"


# The slot-dependent questions: readings a program could silently default to. Each must give a DIFFERENT verdict from
# the true one (a ranks winner, a yes/no, hours past a limit, a number outside the tolerance, an instant outside the
# tolerance, the other period, other rows of a file). Each entry: (what the wrong reading is, overrides merged into the
# check).
WRONG = {
    "b15-01": [
        ("the setpoint point instead of the beer (Beer Temp SP)", {"sensor": "Beer Temp SP"}),
        ("order lowest (the coldest)", {"order": "lowest"}),
    ],
    "b15-02": [
        ("a fixed 66 °F (the setpoint before Tuesday's crash)", {"limit_sensor": None, "limit": 66.0}),
        ("below instead of above", {"direction": "below"}),
    ],
    "b15-03": [
        ("order lowest (the least glycol)", {"order": "lowest"}),
        ("ranked by the warmest beer instead of the glycol valve", {"sensor": "Beer Temp"}),
    ],
    "b15-05": [
        (
            "the inverse (kWh per lb)",
            {"a": {"asset": "CO2 Recovery", "sensor": "CMP_KW"}, "b": {"asset": "CO2 Recovery", "sensor": "CO2_RR"}},
        ),
        ("the difference (lb/h − kW)", {"derive": "difference"}),
    ],
    "b15-10": [
        ("21 Sep only", whole_days("2026-09-21", "2026-09-22", "-06:00")),
        ("23 Sep only", whole_days("2026-09-23", "2026-09-24", "-06:00")),
        ("21-22 Sep (the 23rd read as exclusive)", whole_days("2026-09-21", "2026-09-23", "-06:00")),
        ("22-23 Sep", whole_days("2026-09-22", "2026-09-24", "-06:00")),
    ],
    "b15-12": [("the Return Temp instead of the supply", {"sensor": "Return Temp"})],
    "b15-13": [("order highest (the busiest)", {"order": "highest"})],
    "b15-14": [
        ("order highest (the most efficient)", {"order": "highest"}),
        ("ranked by the kW drawn (Power), most first", {"sensor": "Power", "order": "highest"}),
    ],
    "b15-15": [
        (
            "the inverse (IT over the incomer: DCiE)",
            {
                "a": {"asset": "IT Meter", "sensor": "Active Power"},
                "b": {"asset": "Utility Incomer", "sensor": "Active Power"},
            },
        ),
        ("the difference (incomer − IT, kW)", {"derive": "difference"}),
    ],
    "b15-16": [
        ("the Battery Power (kW) below 80", {"sensor": "Battery Power"}),
        ("the Output Power (kW) below 80", {"sensor": "Output Power"}),
        ("above instead of below", {"direction": "above"}),
    ],
    "b15-17": [
        ("the min of Battery Power (the hardest charge)", {"extreme": "min"}),
        ("the max of Output Power", {"sensor": "Output Power"}),
    ],
    "b15-18": [("below 0 (charging, the float charge too)", {"direction": "below"})],
    "b15-19": [
        ("a fixed 22 °C (the setpoint before Monday's change)", {"limit_sensor": None, "limit": 22.0}),
        ("the Return Air Temp instead of the supply air", {"sensor": "Return Air Temp"}),
    ],
    "b15-20": [
        ("21 Sep only", whole_days("2026-09-21", "2026-09-22", "+02:00")),
        ("24 Sep only", whole_days("2026-09-24", "2026-09-25", "+02:00")),
        ("21-23 Sep (the 24th read as exclusive)", whole_days("2026-09-21", "2026-09-24", "+02:00")),
        ("22-24 Sep", whole_days("2026-09-22", "2026-09-25", "+02:00")),
    ],
    "b15-24": [
        ("24 x the day's mean power (a 24-hour day assumed)", {"_mean24": True}),
        (
            "the day started at 00:00+13:00 (the new offset all day: 26 Sep 23:00 local)",
            {"start": "2026-09-27T00:00:00+13:00"},
        ),
    ],
    "b15-25": [
        ("the day written +12:00 at both ends (to Mon 01:00 local)", whole_days("2026-09-27", "2026-09-28", "+12:00")),
        (
            "the day written +13:00 at both ends (from Sat 23:00 local)",
            whole_days("2026-09-27", "2026-09-28", "+13:00"),
        ),
    ],
    "b15-26": [("order highest (the best fed)", {"order": "highest"})],
    "b15-27": [("order lowest (the laziest)", {"order": "lowest"})],
    "b15-28": [
        (
            "the inverse (m³/min per kW)",
            {
                "a": {"asset": "Air Compressor 2", "sensor": "Air Flow"},
                "b": {"asset": "Air Compressor 2", "sensor": "Motor Power"},
            },
        ),
        ("the difference (kW − m³/min)", {"derive": "difference"}),
    ],
    "b15-29": [
        ("the gun's Water Flow (L/s)", {"sensor": "Water Flow"}),
        ("the gun's Fan Power (kW)", {"sensor": "Fan Power"}),
        ("below instead of above", {"direction": "below"}),
    ],
    "b15-30": [
        ("the lift's Drive Power (kW)", {"sensor": "Drive Power"}),
        ("the lift's Line Speed (m/s)", {"sensor": "Line Speed"}),
        ("below instead of above", {"direction": "below"}),
    ],
    "b15-31": [("the pond's Level (m) instead of its Volume (m³)", {"sensor": "Level"})],
}
#: other readings that must PASS the check too (an honest alternative computation)
RIGHT_TOO = {
    "b15-05": [("the ratio of the day's means", {"_ratio_of_means": True})],
    "b15-13": [("ranked by the lowest mean Fan Power", {"sensor": "Fan Power"})],
    "b15-15": [
        ("the ratio of the day's means", {"_ratio_of_means": True}),
        (
            "the registers: Energy difference ÷ Energy difference, 00:00 to 00:00",
            {"_registers": ("Utility Incomer", "Energy", "IT Meter", "Energy")},
        ),
    ],
    "b15-24": [("the Energy register's difference, 00:00+12:00 to 00:00+13:00", {"_register": "Energy"})],
    "b15-26": [("ranked by the lowest mean Water Pressure", {"sensor": "Water Pressure"})],
    "b15-27": [
        ("ranked by energy (kWh)", {"by": "energy"}),
        ("ranked by the most air (Air Flow)", {"sensor": "Air Flow"}),
    ],
    "b15-28": [("the ratio of the day's means", {"_ratio_of_means": True})],
}
#: slot-dependent questions checked otherwise than by WRONG (the gap question: the check demands status `partial`)
SLOT_OTHER = {"b15-22"}


#: the point a `partial` gap question asks about
GAP_POINT = {"b15-22": ("Griesheim Data Centre", "Chiller 3", "Leaving Water Temp")}


HEAD = """# Blind set 15: the true answers

Written by `python bench/blind15/truth.py` from `plant.json` and `plant.csv.gz` alone (never the agent's code or the
checker). Times are site-local unless an offset is shown.

## Definitions

- Windows are [start, end): a day is [00:00, next 00:00) in site time; a week starts on Monday. 'yesterday', 'the day
  before yesterday', 'this morning' (today), 'last week', 'the week before' (the week before last week), 'last
  weekend' (the latest whole Saturday and Sunday before today), 'the past three days' (the three whole days before
  today), 'on Monday', 'on Tuesday', 'on Wednesday', 'on Sunday', 'last Tuesday' (the latest such day before today;
  'last Tuesday' is asked on a Monday, so the previous week's Tuesday is the same day), 'from the twenty first to the
  twenty third of September' and 'from the twenty first to the twenty fourth of September' (both days included)
  resolve from the task's `now` in the site's zone. 'last night' is yesterday 18:00 to today 06:00; the answer is
  chosen so that other readings of it (from noon, to now, 17:00-07:00, 20:00-08:00) give the same figure.
- Queenstown's clocks go FORWARD on Sun 27 Sep 2026 (02:00 +12:00 → 03:00 +13:00): 02:00–02:45 do not exist, the day
  runs from 00:00+12:00 to 00:00+13:00, has 23 hours (92 samples), the weekend of 26–27 Sep 188 samples and the week
  of 21 Sep 668. Denver keeps -06:00 (MDT) and Frankfurt +02:00 (CEST) all along.
- Spacing: the lower median of the sample intervals (15 min); an interval over 3 × spacing is a gap.
- Energy (kWh): Σ (v_i + v_{i+1}) / 2 × Δt over consecutive samples in the window that are not a gap; W ÷ 1000,
  MW × 1000. The last interval counted ends at the window's last sample (23:45 on a day).
- A derived series (difference, sum, ratio of two points) is taken on identical timestamps; a ratio drops b = 0.
- An excursion is a sample strictly past the limit; against a setpoint, the same asset's setpoint point at the same
  instant.
- Time past a limit: each sample past it holds until the next compared sample, at most one spacing, the last cut at
  the window's end. Share = samples past / samples compared.
- Signed power: a UPS module's `Battery Power` is + while its battery discharges (carries the load) and − while it
  charges (about −0.8 kW of float charge otherwise); `Discharge Energy` / `Charge Energy` are its registers.
- Clear-cut (checked; exit 1 otherwise): every window is what the question's words mean from its `now`; a ranking's
  runner-up and two compared periods ≥ 3 % apart; an extreme held at a single instant with the next value clearly
  apart; no compared sample within 0.1 of a duration limit or of the limit of an excursion answered No; an excursion
  answered Yes has more than one sample past the limit and its most extreme one at least max(0.5, 2 % of the limit)
  past it; no gap inside any asked window; a value-at instant holds a sample, and the samples an hour (or the site's
  UTC offset) away fail its tolerance; a misread window (the period before or after, a UTC day) fails an aggregate's
  tolerance; an energy's register difference passes its tolerance and, on the 23-hour day, 24 × the mean power fails
  it; 'missing' things are missing; 'not recorded' topics have no point about them; the gap question's instant lies
  inside a gap with no sample in the hour before it; every `now` carries its site's own offset and lies inside its
  data, and every window lies before it; the answer is the one make_plant.py designed; and for every slot-dependent
  question, each wrong reading listed under "slot readings" (the other order, the setpoint or another point of the
  same asset, a point in another unit, the signed power's other direction, the other extreme, a single day of a
  range, the inverse ratio, a stale setpoint, a 23-hour day read as 24 hours or with one offset, …) gives an answer
  that FAILS the check, and the honest alternatives listed as "also right" pass it.
"""

#: a task's first tag -> its site
SITE_BY_WORD = {"larimer": LS, "griesheim": GD, "skippers": SR}


if __name__ == "__main__":
    sys.exit(Truth(HERE, globals()).main())
