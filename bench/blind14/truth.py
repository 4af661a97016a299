"""Compute every answer of blind.yaml from plant.json + plant.csv.gz alone, check that each is clear-cut and the one
intended, that each task's windows are what its words say (resolved here from the task's `now`), and write truth.md.
Exit 1 when anything is not clear-cut or disagrees.

Usage: python bench/blind14/truth.py
"""

from __future__ import annotations

import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))
from blindkit.truth import Truth, whole_days  # noqa: E402

# What each question's words mean, written from the question alone (not from its expect block). Phrases:
#   "yesterday", "today", "last week", "week before last", "weekday:N" (the latest such weekday before today,
#   Monday = 0), "dates:D0:D1" (both days included), "mtd" (the 1st of this month 00:00 to today 00:00);
#   "at": (day phrase, clock time).
WORDS = {
    "b14-01": {"win": "last week"},
    "b14-02": {"win": "last week"},
    "b14-03": {"win": "yesterday"},
    "b14-04": {"win": "weekday:1"},
    "b14-05": {"gap_at": ("yesterday", "12:00")},
    "b14-06": {"win": "dates:2026-09-03:2026-09-03"},
    "b14-07": {"win": "last week"},
    "b14-08": {"at": ("today", "00:00")},
    "b14-09": {"win": "dates:2026-09-01:2026-09-03"},
    "b14-10": {"win": "last week"},
    "b14-12": {"win": "mtd"},
    "b14-15": {"win": "yesterday"},
    "b14-16": {"win": "weekday:3"},
    "b14-17": {"win": "last week"},
    "b14-18": {"win": "last week"},
    "b14-19": {"win": "weekday:1"},
    "b14-20": {"win": "dates:2026-09-06:2026-09-06"},
    "b14-21": {"periods": ("last week", "week before last")},
    "b14-24": {"win": "dates:2026-09-08:2026-09-10"},
    "b14-25": {"win": "last week"},
    "b14-26": {"win": "yesterday"},
    "b14-27": {"win": "weekday:3"},
    "b14-28": {"win": "weekday:1"},
    "b14-29": {"win": "last week"},
    "b14-30": {"win": "last week"},
    "b14-31": {"win": "yesterday"},
    "b14-32": {"win": "weekday:0"},
    "b14-33": {"win": "weekday:3"},
    "b14-35": {"win": "yesterday"},
    "b14-36": {"win": "yesterday"},
}

# The answers the plant was designed to give (plant.yaml's events), to catch a plant that drifted from its design.
DESIGN = {
    "b14-01": {"list": ["RO Train 1", "RO Train 2", "RO Train 3", "RO Train 4"], "winner": "RO Train 2"},
    "b14-02": "ERD 3",
    "b14-06": ("h", 5.25),
    "b14-07": False,
    "b14-10": "HP Pump 4",
    "b14-13": ["TVF-01", "TVF-02", "TVF-03", "TVF-04"],
    "b14-14": ["Active Power", "Regen Power", "Import Energy", "Export Energy", "DC Bus Voltage", "Transformer Temp"],
    "b14-16": "2026-09-03 18:15",
    "b14-17": "TSS-2",
    "b14-18": "TVF-02",
    "b14-19": ("h", 5.75),
    "b14-21": "first",
    "b14-22": False,
    "b14-25": "Glycol Chiller 3",
    "b14-26": "Blast Freezer 1",
    "b14-27": True,
    "b14-28": ("h", 3.5),
    "b14-29": "NH3 Compressor 3",
    "b14-30": False,
    "b14-31": {"count": 3, "instant of the extreme": "2026-09-04 14:30"},
    "b14-36": {"instant of the extreme": "2026-09-11 15:15", "instant": "2026-09-11 15:15"},
}
#: value-at tasks whose series is flat around the instant (so a misread instant passes too), and why that is kept
FLAT: dict[str, str] = {}
#: aggregate tasks whose misread window would pass as well, and why that is kept
SAME_ANYWAY: dict[str, str] = {}
#: samples a window must hold (Santiago's 23-hour Sunday 6 Sep and the week holding it)
SAMPLES = {
    "b14-15": 92,
    "b14-17": 668,
    "b14-20": 92,
    "b14-21": (668, 672),
}
#: energy tasks checked against their register point; on a day that is not 24 hours long, 24 x the mean power must fail
REGISTER = {"b14-15": "Export Energy"}
#: 'missing' sensors: tags no point of the asset may carry either
MISSING_TAGS: dict[str, set[str]] = {}
#: the least margin of an excursion answered Yes, where the series' unit is small; elsewhere max(0.5, 2 % of the limit)
MARGIN_FLOOR: dict[str, float] = {}
#: durations whose samples past the limit come in more than one run
MULTI_RUN: set[str] = set()

KW = "Kwinana SWRO Plant"
PJ = "Pajaritos Metro Depot"
OK = "Oakwood Poultry Plant"


# The slot-dependent questions: readings a program could silently default to. Each must give a DIFFERENT verdict from
# the true one (a ranks winner, a yes/no, hours past a limit, a number outside the tolerance, an instant outside the
# tolerance, the other period, other rows of a file). Each entry: (what the wrong reading is, overrides merged into the
# check).
WRONG = {
    "b14-01": [("order lowest (the best permeate)", {"order": "lowest"})],
    "b14-02": [("order highest (the best ERD)", {"order": "highest"})],
    "b14-03": [
        (
            "the inverse (m³ of permeate per kWh)",
            {
                "a": {"asset": "Product Water Meter", "sensor": "Flow"},
                "b": {"asset": "HV Main Meter", "sensor": "Active Power"},
            },
        ),
        ("the difference (kW − m³/h)", {"derive": "difference"}),
        ("the sum", {"derive": "sum"}),
    ],
    "b14-04": [
        (
            "the inverse (feed over permeate)",
            {
                "a": {"asset": "RO Train 2", "sensor": "Feed Flow"},
                "b": {"asset": "RO Train 2", "sensor": "Permeate Flow"},
            },
        ),
        ("the difference (permeate − feed)", {"derive": "difference"}),
    ],
    "b14-06": [
        ("the train's Feed Pressure (also in bar)", {"sensor": "Feed Pressure"}),
        ("below instead of above", {"direction": "below"}),
    ],
    "b14-07": [("the reservoir's Level (m) instead of its Volume (ML)", {"sensor": "Level"})],
    "b14-09": [
        ("1 Sep only", whole_days("2026-09-01", "2026-09-02", "+08:00")),
        ("3 Sep only", whole_days("2026-09-03", "2026-09-04", "+08:00")),
        ("1-2 Sep (the 3rd read as exclusive)", whole_days("2026-09-01", "2026-09-03", "+08:00")),
        ("2-3 Sep", whole_days("2026-09-02", "2026-09-04", "+08:00")),
    ],
    "b14-10": [("order lowest (the lighter pump)", {"order": "lowest"})],
    "b14-12": [
        ("from the data's first day (24 Aug)", whole_days("2026-08-24", "2026-09-11", "+08:00")),
        ("August (the month before)", whole_days("2026-08-01", "2026-09-01", "+08:00")),
        ("yesterday only", whole_days("2026-09-10", "2026-09-11", "+08:00")),
    ],
    "b14-15": [
        ("the energy of the signed Active Power (net drawn)", {"sensor": "Active Power"}),
        ("24 x the day's mean Regen Power (a 24-hour day assumed)", {"_mean24": True}),
    ],
    "b14-16": [
        ("the max of the signed Active Power (the peak drawn)", {"sensor": "Active Power"}),
        ("the min of Regen Power", {"extreme": "min"}),
    ],
    "b14-17": [
        ("ranked by the energy of the signed Active Power (drawn)", {"sensor": "Active Power"}),
        ("order lowest", {"order": "lowest"}),
    ],
    "b14-18": [("order highest (the most loaded)", {"order": "highest"})],
    "b14-19": [
        ("the fan's Speed (%)", {"sensor": "Speed"}),
        ("the fan's Motor Power (kW)", {"sensor": "Motor Power"}),
        ("below instead of above", {"direction": "below"}),
    ],
    "b14-24": [
        ("8 Sep only", whole_days("2026-09-08", "2026-09-09", "-03:00")),
        ("9 Sep only", whole_days("2026-09-09", "2026-09-10", "-03:00")),
        ("10 Sep only", whole_days("2026-09-10", "2026-09-11", "-03:00")),
        ("8-9 Sep (the 10th read as exclusive)", whole_days("2026-09-08", "2026-09-10", "-03:00")),
        ("9-10 Sep", whole_days("2026-09-09", "2026-09-11", "-03:00")),
    ],
    "b14-25": [
        ("order highest (the least efficient)", {"order": "highest"}),
        ("ranked by the kW drawn (Power) instead of kW/ton", {"sensor": "Power"}),
    ],
    "b14-26": [
        ("the setpoint instead of the measured air", {"sensor": "Air Temp Setpoint"}),
        ("order highest (the warmest)", {"order": "highest"}),
    ],
    "b14-27": [
        ("a fixed 134 °F (the setpoint before Wednesday's change)", {"limit_sensor": None, "limit": 134.0}),
        ("Scalder 1 instead of Scalder 2", {"asset": "Scalder 1"}),
    ],
    "b14-28": [
        ("below instead of above", {"direction": "below"}),
        ("a fixed 0 °F instead of its setpoint", {"limit_sensor": None, "limit": 0.0}),
    ],
    "b14-29": [
        ("order highest (the most loaded)", {"order": "highest"}),
        ("ranked by Motor Power (kW) instead of the slide valve", {"sensor": "Motor Power"}),
    ],
    "b14-30": [("the Suction Temp (°F) instead of the suction pressure", {"sensor": "Suction Temp"})],
    "b14-35": [
        ("the Leaving Temp's mean alone", {"derive": None, "asset": "Glycol Chiller 2", "sensor": "Leaving Temp"}),
        ("the ratio", {"derive": "ratio"}),
        ("the sum", {"derive": "sum"}),
    ],
}
#: other readings that must PASS the check too (an honest alternative computation)
RIGHT_TOO = {
    "b14-03": [
        ("the ratio of the day's means", {"_ratio_of_means": True}),
        (
            "the registers: Energy difference ÷ Volume Total difference, 00:00 to 00:00",
            {"_registers": ("HV Main Meter", "Energy", "Product Water Meter", "Volume Total")},
        ),
    ],
    "b14-04": [("the ratio of the day's means", {"_ratio_of_means": True})],
    "b14-12": [("up to now (07:10) instead of today's 00:00", {"end": "2026-09-11T07:10:00+08:00"})],
    "b14-15": [("the Export Energy register's difference, 01:00 to 00:00", {"_register": "Export Energy"})],
    "b14-16": [("the min of the signed Active Power", {"sensor": "Active Power", "extreme": "min"})],
}
#: slot-dependent questions checked otherwise than by WRONG (the gap question: the check demands status `partial`)
SLOT_OTHER = {"b14-05"}


#: the point a `partial` gap question asks about
GAP_POINT = {"b14-05": ("Kwinana SWRO Plant", "RO Train 3", "Permeate Conductivity")}


HEAD = """# Blind set 14: the true answers

Written by `python bench/blind14/truth.py` from `plant.json` and `plant.csv.gz` alone (never the agent's code or the
checker). Times are site-local unless an offset is shown.

## Definitions

- Windows are [start, end): a day is [00:00, next 00:00) in site time; a week starts on Monday. 'yesterday',
  'midnight last night' (today's 00:00), 'last week', 'the week before' (the week before last week), 'on Tuesday',
  'on Thursday', 'last Thursday', 'Labor Day (the Monday)' (the latest such day before today), 'Thursday 3 Sep',
  'Sunday 6 Sep', 'from the 1 to the 3 of September' and 'from the 8 to the 10 of September' (both days included),
  'MTD' (the 1st of this month 00:00 to today's 00:00; up to `now` passes too) resolve from the task's `now` in the
  site's zone.
- Santiago's clocks go FORWARD on Sun 6 Sep 2026 (24:00 -04:00 → 01:00 -03:00): 00:00–00:45 do not exist, the day
  starts at 01:00-03:00 (the same instant as 00:00-04:00), has 23 hours (92 samples), and the week of 31 Aug 668
  samples. Perth keeps +08:00 and New York -04:00 (EDT) all along.
- Spacing: the lower median of the sample intervals (15 min); an interval over 3 × spacing is a gap.
- Energy (kWh): Σ (v_i + v_{i+1}) / 2 × Δt over consecutive samples in the window that are not a gap; W ÷ 1000,
  MW × 1000. The last interval counted ends at the window's last sample (23:45 on a day).
- A derived series (difference, sum, ratio of two points) is taken on identical timestamps; a ratio drops b = 0.
- An excursion is a sample strictly past the limit; against a setpoint, the same asset's setpoint point at the same
  instant.
- Time past a limit: each sample past it holds until the next compared sample, at most one spacing, the last cut at
  the window's end. Share = samples past / samples compared.
- Signed power: a traction substation's `Active Power` is + when it draws from the grid and − when regenerative
  braking returns more than the trains draw; `Regen Power` (≥ 0) is the power returned; `Export Energy` its register.
- Clear-cut (checked; exit 1 otherwise): every window is what the question's words mean from its `now`; a ranking's
  runner-up and two compared periods ≥ 3 % apart; an extreme held at a single instant with the next value clearly
  apart; no compared sample within 0.1 of a duration limit or of the limit of an excursion answered No; an excursion
  answered Yes has more than one sample past the limit and its most extreme one at least max(0.5, 2 % of the limit)
  past it; no gap inside any asked window; a value-at instant holds a sample, and the samples an hour (or the site's
  UTC offset) away fail its tolerance; a misread window (the period before or after, a UTC day) fails an aggregate's
  tolerance; an energy's register difference passes its tolerance and, on the 23-hour day, 24 × the mean power fails
  it; 'missing' things are missing (by name and by tag); 'not recorded' assets exist without the attribute's tags;
  the gap question's instant lies inside a gap with no sample in the hour before it; every `now` carries its site's
  own offset and lies inside its data, and every window lies before it; the answer is the one make_plant.py designed;
  and for every slot-dependent question, each wrong reading listed under "slot readings" (the other order, the
  setpoint or another point of the same asset, a point in another unit, the net signed power instead of the power
  returned, the other extreme, a single day of a range, the inverse ratio, a stale setpoint, …) gives an answer that
  FAILS the check, and the honest alternatives listed as "also right" pass it.
"""

#: a task's first tag -> its site
SITE_BY_WORD = {"kwinana": KW, "pajaritos": PJ, "oakwood": OK}


if __name__ == "__main__":
    sys.exit(Truth(HERE, globals()).main())
