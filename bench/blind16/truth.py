"""Compute every answer of blind.yaml from plant.json + plant.csv.gz alone, check that each is clear-cut and the one
intended, that each task's windows are what its words say (resolved here from the task's `now`), and write truth.md.
Exit 1 when anything is not clear-cut or disagrees.

Usage: python bench/blind16/truth.py
"""

from __future__ import annotations

import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))
from blindkit.truth import Truth, whole_days  # noqa: E402

# What each question's words mean, written from the question alone (not from its expect block). Phrases:
#   "yesterday", "today", "last week", "week before last", "weekday:N" (the latest such weekday before today,
#   Monday = 0), "dates:D0:D1" (both days included), "mtd" (the 1st of this month 00:00 to today 00:00), "weekend"
#   (the latest Saturday 00:00 to the Monday 00:00 after it);
#   "at": (day phrase, clock time).
WORDS = {
    "b16-01": {"win": "last week"},
    "b16-02": {"win": "weekday:1"},
    "b16-03": {"win": "last week"},
    "b16-04": {"win": "weekday:2"},
    "b16-05": {"win": "last week"},
    "b16-06": {"win": "last week"},
    "b16-07": {"win": "mtd"},
    "b16-08": {"at": ("today", "00:00")},
    "b16-10": {"gap_at": ("yesterday", "15:00")},
    "b16-12": {"win": "yesterday"},
    "b16-14": {"win": "weekday:6"},
    "b16-15": {"win": "dates:2026-10-19:2026-10-21"},
    "b16-16": {"win": "last week"},
    "b16-17": {"win": "last week"},
    "b16-18": {"periods": ("last week", "week before last")},
    "b16-19": {"win": "yesterday"},
    "b16-20": {"win": "weekday:3"},
    "b16-21": {"win": "last week"},
    "b16-22": {"win": "yesterday"},
    "b16-24": {"win": "weekend"},
    "b16-26": {"win": "last week"},
    "b16-27": {"win": "last week"},
    "b16-28": {"win": "last week"},
    "b16-29": {"win": "yesterday"},
    "b16-30": {"win": "yesterday"},
    "b16-31": {"at": ("today", "00:00")},
    "b16-33": {"win": "yesterday"},
    "b16-35": {"win": "last week"},
    "b16-36": {"win": "yesterday"},
}

# The answers the plant was designed to give (plant.yaml's events), to catch a plant that drifted from its design.
DESIGN = {
    "b16-01": {"list": ["Blower 1", "Blower 2", "Blower 3", "Blower 4"], "winner": "Blower 2"},
    "b16-02": ("h", 4.5),
    "b16-03": False,
    "b16-04": ("h", 6.25),
    "b16-05": "2026-11-01 04:15",
    "b16-09": 3,
    "b16-13": ["BHS Line 1", "BHS Line 2", "BHS Line 3"],
    "b16-16": "Boiler 2",
    "b16-17": "Escalator 3",
    "b16-18": "first",
    "b16-20": ("h", 4.0),
    "b16-21": False,
    "b16-22": {"instant": "2026-11-02 07:45", "instant of the extreme": "2026-11-02 07:45"},
    "b16-23": False,
    "b16-25": ["Make-up Water Flow", "Make-up Water Total", "Fan Power", "Leaving Water Temp", "Conductivity"],
    "b16-26": "Cooling Tower 2",
    "b16-27": "Main Pool",
    "b16-28": True,
    "b16-29": False,
    "b16-35": {"instant of the extreme": "2026-10-29 21:30"},
}
#: value-at tasks whose series is flat around the instant (so a misread instant passes too), and why that is kept
FLAT: dict[str, str] = {}
#: aggregate tasks whose misread window would pass as well, and why that is kept
SAME_ANYWAY: dict[str, str] = {
    "b16-30": "the laundry runs 06:00-22:00 only, so a UTC day (04:00 to 04:00 local) holds the same working samples",
}
#: samples a window must hold (London's 25-hour Sun 25 Oct and the week holding it)
SAMPLES = {
    "b16-14": 100,
    "b16-18": (672, 676),
}
#: energy tasks checked against their register point; on a day that is not 24 hours long, 24 x the mean power must fail
REGISTER = {"b16-06": "Export Energy", "b16-14": "Energy"}
#: value-at tasks on a register: the samples 15 minutes either side must fail the tolerance too
REGISTER_AT = {"b16-08", "b16-31"}
#: 'missing' sensors: tags no point of the asset may carry either
MISSING_TAGS: dict[str, set[str]] = {}
#: the least margin of an excursion answered Yes, where the series' unit is small; elsewhere max(0.5, 2 % of the limit)
MARGIN_FLOOR: dict[str, float] = {}
#: durations whose samples past the limit come in more than one run
MULTI_RUN: set[str] = set()

CF = "Cactus Flats Water Reclamation Plant"
TA = "Thameside Airport Terminal"
AN = "Al Noor Resort & Casino"


# The slot-dependent questions: readings a program could silently default to. Each must give a DIFFERENT verdict from
# the true one (a ranks winner, a yes/no, hours past a limit, a number outside the tolerance, an instant outside the
# tolerance, the other period, other rows of a file). Each entry: (what the wrong reading is, overrides merged into the
# check).
WRONG = {
    "b16-01": [("order lowest (the blower that worked least)", {"order": "lowest"})],
    "b16-02": [
        ("above instead of below", {"direction": "above"}),
        ("Aeration Basin 2 instead of 1", {"asset": "Aeration Basin 2"}),
    ],
    "b16-03": [
        ("a fixed 2.0 mg/L (the setpoint before the trial's change)", {"limit_sensor": None, "limit": 2.0}),
        ("above instead of below", {"direction": "above"}),
    ],
    "b16-04": [
        ("the blower's Speed (%)", {"sensor": "Speed"}),
        ("the blower's Motor Power (kW)", {"sensor": "Motor Power"}),
        ("the blower's Air Flow (scfm)", {"sensor": "Air Flow"}),
        ("below instead of above", {"direction": "below"}),
    ],
    "b16-05": [
        ("the max of the signed Net Power (the peak imported)", {"sensor": "Net Power"}),
        ("the min of Export Power", {"extreme": "min"}),
    ],
    "b16-06": [
        ("the energy of the signed Net Power (net imported)", {"sensor": "Net Power"}),
        ("the CHP engine's generation", {"asset": "CHP Engine", "sensor": "Electrical Output"}),
    ],
    "b16-07": [
        (
            "October's data (19-31 Oct: the data's first day to the month's end)",
            whole_days("2026-10-19", "2026-11-01", "-07:00"),
        ),
        ("from the data's first day (19 Oct) to today", whole_days("2026-10-19", "2026-11-06", "-07:00")),
        ("yesterday only", whole_days("2026-11-05", "2026-11-06", "-07:00")),
        ("the last 7 days", whole_days("2026-10-30", "2026-11-06", "-07:00")),
    ],
    "b16-14": [
        ("24 x the day's mean power (a 24-hour day assumed)", {"_mean24": True}),
        ("24 hours from midnight (00:00 BST to 23:00 GMT)", {"end": "2026-10-25T23:00:00+00:00"}),
    ],
    "b16-15": [
        ("19 Oct only", whole_days("2026-10-19", "2026-10-20", "+01:00")),
        ("20 Oct only", whole_days("2026-10-20", "2026-10-21", "+01:00")),
        ("21 Oct only", whole_days("2026-10-21", "2026-10-22", "+01:00")),
        ("19-20 Oct (the 21st read as exclusive)", whole_days("2026-10-19", "2026-10-21", "+01:00")),
        ("20-21 Oct", whole_days("2026-10-20", "2026-10-22", "+01:00")),
    ],
    "b16-16": [
        ("order lowest (the least efficient)", {"order": "lowest"}),
        ("ranked by the least gas burnt (Gas Flow)", {"sensor": "Gas Flow", "order": "lowest"}),
    ],
    "b16-17": [("order highest (the most used)", {"order": "highest"})],
    "b16-19": [
        (
            "the inverse (the terminal over the BHS)",
            {
                "a": {"asset": "Terminal Main Meter", "sensor": "Active Power"},
                "b": {"asset": "BHS Sub-Meter", "sensor": "Active Power"},
            },
        ),
        ("the difference (kW)", {"derive": "difference"}),
        ("the sum", {"derive": "sum"}),
    ],
    "b16-20": [
        ("below instead of above", {"direction": "below"}),
        ("AHU-01 instead of AHU-03", {"asset": "AHU-01"}),
    ],
    "b16-21": [("the PCA's CMP-KW (kW) instead of its discharge air (°C)", {"sensor": "CMP-KW"})],
    "b16-24": [
        ("Saturday only", whole_days("2026-10-31", "2026-11-01", "+00:00")),
        ("Sunday only", whole_days("2026-11-01", "2026-11-02", "+00:00")),
        ("Friday to Sunday", whole_days("2026-10-30", "2026-11-02", "+00:00")),
        ("the weekend before (24-25 Oct)", whole_days("2026-10-24", "2026-10-26", "+01:00", "+00:00")),
    ],
    "b16-26": [
        ("order lowest", {"order": "lowest"}),
        ("ranked by Fan Power (kW) instead of the make-up water", {"sensor": "Fan Power"}),
    ],
    "b16-27": [
        ("order lowest", {"order": "lowest"}),
        ("ranked by the warmest water (mean Water Temp)", {"sensor": "Water Temp", "by": "mean"}),
        ("ranked by the setpoint", {"sensor": "Water Temp Setpoint", "by": "mean"}),
    ],
    "b16-28": [
        ("the Main Pool instead of the Family Pool", {"asset": "Main Pool"}),
        ("a fixed 28 °C instead of its setpoint", {"limit_sensor": None, "limit": 28.0}),
    ],
    "b16-29": [("the calorifier's DHW Flow (L/min) instead of its outlet temperature", {"sensor": "DHW Flow"})],
    "b16-30": [
        (
            "the inverse (linen per kg of steam)",
            {
                "a": {"asset": "Laundry", "sensor": "Linen Throughput"},
                "b": {"asset": "Laundry", "sensor": "Steam Flow"},
            },
        ),
        ("the difference (kg/h)", {"derive": "difference"}),
    ],
    "b16-36": [
        (
            "the reversed difference (Water Temp - setpoint, negative)",
            {
                "a": {"asset": "Spa Pool", "sensor": "Water Temp"},
                "b": {"asset": "Spa Pool", "sensor": "Water Temp Setpoint"},
            },
        ),
        ("the Water Temp's mean alone", {"derive": None, "asset": "Spa Pool", "sensor": "Water Temp"}),
        ("the ratio", {"derive": "ratio"}),
        ("the sum", {"derive": "sum"}),
    ],
}
#: other readings that must PASS the check too (an honest alternative computation)
RIGHT_TOO = {
    "b16-05": [("the min of the signed Net Power", {"sensor": "Net Power", "extreme": "min"})],
    "b16-06": [("the Export Energy register's difference, Mon 00:00 to Mon 00:00", {"_register": "Export Energy"})],
    "b16-14": [("the Energy register's difference, 00:00 BST to 00:00 GMT", {"_register": "Energy"})],
    "b16-19": [
        ("the ratio of the day's means", {"_ratio_of_means": True}),
        (
            "the registers: BHS Energy difference ÷ terminal Energy difference, 00:00 to 00:00",
            {"_registers": ("BHS Sub-Meter", "Energy", "Terminal Main Meter", "Energy")},
        ),
    ],
    "b16-30": [("the ratio of the day's means (total steam ÷ total linen)", {"_ratio_of_means": True})],
    "b16-07": [("up to now (09:00) instead of today's 00:00", {"end": "2026-11-06T09:00:00-07:00"})],
}
#: slot-dependent questions checked otherwise than by WRONG (the gap question: the check demands status `partial`)
SLOT_OTHER = {"b16-10"}


#: the point a `partial` gap question asks about
GAP_POINT = {"b16-10": (CF, "Clarifier 1", "AIT-302")}


HEAD = """# Blind set 16: the true answers

Written by `python bench/blind16/truth.py` from `plant.json` and `plant.csv.gz` alone (never the agent's code or the
checker). Times are site-local unless an offset is shown.

## Definitions

- Windows are [start, end): a day is [00:00, next 00:00) in site time; a week starts on Monday. 'yesterday',
  'midnight last night' (today's 00:00), 'last week', 'the week before' (the week before last week), 'on Tuesday',
  'on Wednesday', 'on Thursday', 'Sunday' (the latest such day before today), 'the weekend' (the latest Saturday
  00:00 to the Monday 00:00 after it), 'between the 19th and 21st of October' (both days included) and
  'month-to-date' (the 1st of this month 00:00 to today's 00:00) resolve from the task's `now` in the site's zone.
- London's clocks go BACK on Sun 25 Oct 2026 (02:00 BST → 01:00 GMT): 01:00–01:45 happen twice, the day runs from
  00:00+01:00 to 00:00+00:00 next day, has 25 hours (100 samples), and the week of 19 Oct 676 samples. Phoenix keeps
  -07:00 (no DST; the rest of the USA changes on Sun 1 Nov, Phoenix does not) and Dubai +04:00 all along.
- Spacing: the lower median of the sample intervals (15 min); an interval over 3 × spacing is a gap.
- Energy (kWh): Σ (v_i + v_{i+1}) / 2 × Δt over consecutive samples in the window that are not a gap; W ÷ 1000,
  MW × 1000. The last interval counted ends at the window's last sample (23:45 on a day).
- A derived series (difference, sum, ratio of two points) is taken on identical timestamps; a ratio drops b = 0.
- An excursion is a sample strictly past the limit; against a setpoint, the same asset's setpoint point at the same
  instant.
- Time past a limit: each sample past it holds until the next compared sample, at most one spacing, the last cut at
  the window's end. Share = samples past / samples compared.
- Signed power: the Cactus Flats `Plant Main Meter`'s `Net Power` is + when the plant imports from the grid and − when
  the CHP engine's output exceeds the plant's load (export); `Export Power` (≥ 0) is the power exported; `Import
  Energy` / `Export Energy` their registers.
- Clear-cut (checked; exit 1 otherwise): every window is what the question's words mean from its `now`; a ranking's
  runner-up and two compared periods ≥ 3 % apart; an extreme held at a single instant with the next value clearly
  apart; no compared sample within 0.1 of a duration limit or of the limit of an excursion answered No; an excursion
  answered Yes has more than one sample past the limit and its most extreme one at least max(0.5, 2 % of the limit)
  past it; no gap inside any asked window; a value-at instant holds a sample, and the samples an hour (or the site's
  UTC offset) away — and for a register one sample away — fail its tolerance; a misread window (the period before or
  after, a UTC day) fails an aggregate's tolerance; an energy's register difference passes its tolerance and, on the
  25-hour day, 24 × the mean power fails it; 'missing' things are missing (by name and by tag); 'not recorded' assets
  exist without the attribute's tags; the gap question's instant lies inside a gap with no sample in the hour before
  it; every `now` carries its site's own offset and lies inside its data, and every window lies before it; the answer
  is the one make_plant.py designed; and for every slot-dependent question, each wrong reading listed under "slot
  readings" (the other order, the setpoint or another point of the same asset, a point in another unit, the net
  signed power instead of the power exported, the other extreme, a single day of a range, the inverse ratio, a stale
  setpoint, 24 × the mean on the 25-hour day, …) gives an answer that FAILS the check, and the honest alternatives
  listed as "also right" pass it.
"""

#: a task's first tag -> its site
SITE_BY_WORD = {"cactus": CF, "thameside": TA, "alnoor": AN}


if __name__ == "__main__":
    sys.exit(Truth(HERE, globals()).main())
