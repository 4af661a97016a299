"""Compute every answer of blind.yaml from plant.json + plant.csv.gz alone, check that each is clear-cut and the one
intended, that each task's windows are what its words say (resolved here from the task's `now`), and write truth.md.
Exit 1 when anything is not clear-cut or disagrees.

Usage: python bench/blind12/truth.py
"""

from __future__ import annotations

import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))
from blindkit.truth import Truth  # noqa: E402

# What each question's words mean, written from the question alone (not from its expect block). Phrases:
#   "yesterday", "today", "last week", "week before last", "weekday:N" (the latest such weekday before today,
#   Monday = 0), "weekday:N:-1" (the one a week before that); "at": (day phrase, clock time).
WORDS = {
    "b12-03": {"win": "yesterday"},
    "b12-04": {"at": ("today", "00:00")},
    "b12-05": {"win": "yesterday"},
    "b12-06": {"win": "yesterday"},
    "b12-07": {"win": "last week"},
    "b12-08": {"win": "weekday:0"},
    "b12-09": {"win": "yesterday"},
    "b12-10": {"periods": ("weekday:5", "weekday:6")},
    "b12-11": {"win": "yesterday"},
    "b12-12": {"win": "weekday:4"},
    "b12-15": {"win": "yesterday"},
    "b12-17": {"win": "weekday:2"},
    "b12-18": {"win": "yesterday"},
    "b12-19": {"win": "last week"},
    "b12-20": {"win": "last week"},
    "b12-21": {"win": "weekday:6"},
    "b12-22": {"win": "weekday:1"},
    "b12-23": {"periods": ("last week", "week before last")},
    "b12-25": {"win": "dates:2026-10-25:2026-10-25"},
    "b12-27": {"win": "dates:2026-11-03:2026-11-05"},
    "b12-28": {"win": "weekday:3"},
    "b12-29": {"win": "last week"},
    "b12-30": {"win": "yesterday"},
    "b12-31": {"win": "yesterday"},
    "b12-32": {"gap_at": ("dates:2026-10-28:2026-10-28", "14:00")},
    "b12-33": {"win": "last week"},
}

# The answers the plant was designed to give (plant.yaml's events), to catch a plant that drifted from its design.
DESIGN = {
    "b12-01": ["Chiller 1", "Chiller 2", "Chiller 3"],
    "b12-02": ["Supply Air Temp", "Supply Air Temp Setpoint", "Supply Airflow", "Return Air Humidity", "Fan Power"],
    "b12-03": {"count": 3, "instant of the extreme": "2026-10-20 15:30"},
    "b12-05": "Chiller 2",
    "b12-06": "Theatre AHU 1",
    "b12-07": False,
    "b12-10": "second",
    "b12-11": ("h", 2.5),
    "b12-12": True,
    "b12-16": ["Top Temp", "Middle Temp", "Bottom Temp", "Level"],
    "b12-18": ("h", 2.75),
    "b12-19": True,
    "b12-20": "Wood Chip Boiler 2",
    "b12-21": "2026-10-25 16:30",
    "b12-22": ("h", 10.0),
    "b12-23": "first",
    "b12-26": ["CDA Compressor 1", "CDA Compressor 2", "CDA Compressor 3"],
    "b12-28": "CDA Compressor 3",
    "b12-29": "PCW Loop 1",
    "b12-30": False,
    "b12-31": ("h", 2.0),
    "b12-33": {"list": ["UPW Skid A", "UPW Skid B", "UPW Skid C"], "winner": "UPW Skid B"},
    "b12-34": False,
}
#: value-at tasks whose series is flat around the instant (so a misread instant passes too), and why that is kept
FLAT: dict[str, str] = {}
#: aggregate tasks whose misread window would pass as well, and why that is kept
SAME_ANYWAY: dict[str, str] = {}
#: samples a window must hold (the 25-hour days: Copenhagen Sun 25 Oct, Toronto Sun 1 Nov, and the weeks holding them)
SAMPLES = {
    "b12-09": 100,
    "b12-10": (96, 100),
    "b12-21": 100,
    "b12-23": (672, 676),
    "b12-25": 100,
    "b12-07": 676,
}
#: energy tasks checked against their meter's register (the register point); on a day that is not 24 hours long,
#: 24 x the mean power must fail
REGISTER = {"b12-09": "Energy"}
#: 'missing' sensors: tags no point of the asset may carry either
MISSING_TAGS = {"b12-24": {"pressure", "refrig"}, "b12-36": {"silica"}}
#: the least margin of an excursion answered Yes, where the series' unit is small; elsewhere max(0.5, 2 % of the limit)
MARGIN_FLOOR: dict[str, float] = {}
#: durations whose samples past the limit come in more than one run (the heat pump's night and evening hours)
MULTI_RUN = {"b12-22"}

# The slot-dependent questions: readings a program could silently default to. Each must give a DIFFERENT verdict from
# the true one (a ranks winner, a yes/no, hours past a limit, a number outside the tolerance, an instant outside the
# tolerance, the other period). Each entry: (what the wrong reading is, overrides merged into the check).
WRONG = {
    "b12-05": [
        ("order lowest (most efficient)", {"order": "lowest"}),
        ("ranked by Power Input instead of kW/ton", {"sensor": "Power Input"}),
    ],
    "b12-06": [
        ("the setpoint instead of the measured air", {"sensor": "Supply Air Temp Setpoint"}),
        ("order highest (warmest)", {"order": "highest"}),
        ("by min instead of mean", {"by": "min", "_same_ok": True}),
    ],
    "b12-07": [("the pump's Speed (%) instead of its pressure", {"sensor": "Speed"})],
    "b12-08": [
        ("Chiller 1's mean alone", {"derive": None, "asset": "Chiller 1", "sensor": "Power Input"}),
        ("the ratio", {"derive": "ratio"}),
        ("the sum", {"derive": "sum"}),
    ],
    "b12-10": [("order highest (more heavily loaded)", {"order": "highest"})],
    "b12-17": [
        (
            "the inverse ratio (input / output)",
            {
                "a": {"asset": "Heat Pump 1", "sensor": "Electric Input"},
                "b": {"asset": "Heat Pump 1", "sensor": "Heat Output"},
            },
        ),
        ("the difference", {"derive": "difference"}),
    ],
    "b12-18": [
        ("the tank's Bottom Temp", {"sensor": "Bottom Temp"}),
        ("above instead of below", {"direction": "above"}),
    ],
    "b12-19": [
        ("the tank's Top Temp (°C)", {"sensor": "Top Temp"}),
        ("the tank's Bottom Temp (°C)", {"sensor": "Bottom Temp"}),
    ],
    "b12-20": [("order highest (most efficient)", {"order": "highest"})],
    "b12-21": [("the time of the maximum", {"extreme": "max"})],
    "b12-27": [
        ("3 Nov only", {"start": "2026-11-03T00:00:00+08:00", "end": "2026-11-04T00:00:00+08:00"}),
        ("5 Nov only", {"start": "2026-11-05T00:00:00+08:00", "end": "2026-11-06T00:00:00+08:00"}),
        ("4 Nov only", {"start": "2026-11-04T00:00:00+08:00", "end": "2026-11-05T00:00:00+08:00"}),
        (
            "3-4 Nov (the 5th read as exclusive)",
            {"start": "2026-11-03T00:00:00+08:00", "end": "2026-11-05T00:00:00+08:00"},
        ),
        ("4-5 Nov", {"start": "2026-11-04T00:00:00+08:00", "end": "2026-11-06T00:00:00+08:00"}),
    ],
    "b12-28": [("order highest (most heavily loaded)", {"order": "highest"})],
    "b12-29": [
        ("the Supply Temp instead of the Return Temp", {"sensor": "Supply Temp"}),
        ("order highest (warmest return)", {"order": "highest"}),
    ],
    "b12-30": [
        ("the magnitude compared (|p| above 300)", {"_negate": True, "limit": 300}),
        ("Scrubber SC-1 instead of SC-2", {"asset": "Scrubber SC-1"}),
    ],
    "b12-31": [("the skid's TOC (ppb) instead of its resistivity", {"sensor": "TOC"})],
}
#: other readings that must PASS the check too (an honest alternative computation)
RIGHT_TOO = {
    "b12-17": [("the ratio of the day's means", {"_ratio_of_means": True})],
}


#: the point a `partial` gap question asks about
GAP_POINT = {"b12-32": ("Hsinchu Fab 3 Utilities", "PCW Loop 2", "Supply Temp")}


HEAD = """# Blind set 12: the true answers

Written by `python bench/blind12/truth.py` from `plant.json` and `plant.csv.gz` alone (never the agent's code or the
checker). Times are site-local unless an offset is shown.

## Definitions

- Windows are [start, end): a day is [00:00, next 00:00) in site time; a week starts on Monday. 'yesterday',
  'last night at midnight' (today's 00:00), 'last week', 'the week before' (the week before last week), 'on Monday',
  'on Wednesday', 'on Friday', 'on Thursday', 'on Sunday', 'Tuesday' (the latest such day before today),
  'on Saturday or on Sunday' (the latest of each before today), 'Sunday 25 October' and 'from the 3rd to the 5th of
  November' (both days included: three whole days) resolve from the task's `now` in the site's zone.
- Toronto's clocks go BACK on Sun 1 Nov 2026 (02:00 EDT → 01:00 EST, -04:00 → -05:00): that day has 25 hours
  (100 samples; 01:00–01:45 come twice) and the week of 26 Oct 676 samples. Copenhagen's go BACK on Sun 25 Oct 2026
  (03:00 CEST → 02:00 CET, +02:00 → +01:00): 25 hours, and the week of 19 Oct 676 samples. Taipei keeps +08:00.
- Spacing: the lower median of the sample intervals (15 min); an interval over 3 × spacing is a gap.
- Energy (kWh): Σ (v_i + v_{i+1}) / 2 × Δt over consecutive samples in the window that are not a gap; W ÷ 1000,
  MW × 1000. The last interval counted ends at the window's last sample (23:45 on a day).
- A derived series (difference, sum, ratio of two points) is taken on identical timestamps; a ratio drops b = 0.
- An excursion is a sample strictly past the limit; against a setpoint, the same asset's setpoint point at the same
  instant.
- Time past a limit: each sample past it holds until the next compared sample, at most one spacing, the last cut at
  the window's end. Share = samples past / samples compared.
- Clear-cut (checked; exit 1 otherwise): every window is what the question's words mean from its `now`; a ranking's
  runner-up and two compared periods ≥ 3 % apart; an extreme held at a single instant with the next value clearly
  apart; no compared sample within 0.1 of a duration limit or of the limit of an excursion answered No; an excursion
  answered Yes has more than one sample past the limit and its most extreme one at least max(0.5, 2 % of the limit)
  past it; no gap inside any asked window; a value-at instant holds a sample, and the samples an hour (or the site's
  UTC offset) away fail its tolerance; a misread window (the period before or after, a UTC day) fails an aggregate's
  tolerance; an energy's register difference passes its tolerance and, on a 25-hour day, 24 × the mean power fails
  it; 'missing' things are missing (by name and by tag); 'not recorded' assets exist without the attribute's tags;
  the gap question's instant lies inside a gap with no sample in the hour before it; every `now` carries its site's
  own offset and lies inside its data, and every window lies before it; the answer is the one make_plant.py designed;
  and for every slot-dependent question, each wrong reading listed under "slot readings" (the other order, the
  setpoint or another point of the same asset, the other extreme, a single day of a range, the inverse ratio, …)
  gives an answer that FAILS the check, and the honest alternatives listed as "also right" pass it.
"""

#: a task's first tag -> its site
SITE_BY_WORD = {
    "lakeshore": "Lakeshore General Hospital",
    "valby": "Valby District Heating",
    "hsinchu": "Hsinchu Fab 3 Utilities",
}


if __name__ == "__main__":
    sys.exit(Truth(HERE, globals()).main())
