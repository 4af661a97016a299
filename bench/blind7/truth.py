"""Compute every answer of blind.yaml from plant.json + plant.csv.gz alone, check that each is clear-cut and the one
intended, that each task's windows are what its words say (resolved here from the task's `now`), and write truth.md.
Exit 1 when anything is not clear-cut or disagrees.

Usage: python bench/blind7/truth.py
"""

from __future__ import annotations

import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))
from blindkit.truth import Truth  # noqa: E402

# What each question's words mean, written from the question alone (not from its expect block). Phrases:
#   "yesterday", "today", "last week", "week before last", "weekday:N" (the latest such weekday before today,
#   Monday = 0), "monthday:N" (that day of this month, before today); "at": (day phrase, clock time or "now").
WORDS = {
    "b7-05": {"at": ("yesterday", "15:00")},
    "b7-06": {"win": "weekday:0"},
    "b7-07": {"win": "monthday:14"},
    "b7-08": {"win": "last week"},
    "b7-09": {"win": "yesterday"},
    "b7-10": {"periods": ("last week", "week before last")},
    "b7-11": {"win": "monthday:10"},
    "b7-12": {"win": "weekday:3"},
    "b7-13": {"win": "yesterday"},
    "b7-17": {"at": ("today", "now")},
    "b7-19": {"win": "last week"},
    "b7-20": {"win": "last week"},
    "b7-21": {"at": ("today", "06:00")},
    "b7-23": {"at": ("today", "08:00")},
    "b7-27": {"at": ("today", "07:15")},
    "b7-28": {"win": "yesterday"},
    "b7-29": {"win": "yesterday"},
    "b7-30": {"win": "last week"},
    "b7-31": {"win": "weekday:5"},
    "b7-32": {"win": "yesterday"},
    "b7-33": {"win": "last week"},
    "b7-34": {"periods": ("last week", "week before last")},
    "b7-35": {"win": "last week"},
    "b7-36": {"win": "monthday:20"},
    "b7-41": {"win": "yesterday"},
    "b7-42": {"at": ("today", "00:00")},
    "b7-45": {"at": ("today", "12:30")},
    "b7-46": {"win": "yesterday"},
    "b7-47": {"win": "weekday:5"},
    "b7-48": {"win": "last week"},
    "b7-49": {"win": "yesterday"},
    "b7-50": {"win": "weekday:4"},
    "b7-51": {"win": "weekday:2"},
    "b7-52": {"periods": ("yesterday", "weekday:1")},
    "b7-53": {"win": "last week"},
    "b7-59": {"win": "last week"},
    "b7-60": {"at": ("today", "now")},
    "b7-61": {"win": "last week"},
    "b7-62": {"win": "weekday:6"},
}

# The answers the plant was designed to give (plant.yaml's events), to catch a plant that drifted from its design.
DESIGN = {
    "b7-02": ["MAU-1 Basecoat", "MAU-2 Clearcoat", "MAU-3 Sealer"],
    "b7-03": 2,
    "b7-04": 4,
    "b7-06": "2027-03-15 11:45",
    "b7-08": "2027-03-16 06:00",
    "b7-09": "Compressor 4",
    "b7-10": "second",
    "b7-11": False,
    "b7-12": ("h", 3.5),
    "b7-22": True,
    "b7-24": 5,
    "b7-25": ["Kar 1", "Kar 2", "Kar 3", "Kar 4"],
    "b7-26": 4,
    "b7-30": "Kar 3",
    "b7-31": ("h", 2.0),
    "b7-32": False,
    "b7-33": "2027-03-17 03:30",
    "b7-34": "second",
    "b7-40": False,
    "b7-43": ["vault_rh", "vault_rh_sp", "vault_temp", "regen_temp", "power", "run"],
    "b7-44": 2,
    "b7-47": "2027-03-20 08:15",
    "b7-49": "dh_vault_b",
    "b7-50": ("%", 25.0),
    "b7-51": True,
    "b7-52": "first",
    "b7-58": True,
    "b7-59": "2027-03-16 20:45",
    "b7-61": False,
}
#: value-at tasks whose series is flat around the instant (so a misread instant passes too), and why that is kept
FLAT = {"b7-60": "the fuel level holds still while the set is stopped; the task tests the refusal beside a reading"}
#: aggregate tasks whose misread window would pass as well, and why that is kept
SAME_ANYWAY = {
    "b7-07": "the paint shop idles all Sunday and Saturday evening alike: a UTC day holds the same idle load; the "
    "Saturday before differs",
    "b7-29": "Oslo is one hour from UTC: a UTC day moves one hour of a steady load, within the 1.5 % that the "
    "register's midnight-to-midnight answer needs; the Saturday before differs",
}
#: samples a window must hold (the 23-hour days of Detroit, 14 Mar, and Oslo, 28 Mar, and the weeks holding them)
SAMPLES = {"b7-07": 92, "b7-29": 92, "b7-10": (672, 668), "b7-34": (668, 672)}
#: energy tasks on a 23-hour day: the register point whose midnight-to-midnight difference must pass (24 x the mean
#: power must not), and the words of its line
REGISTER_SPAN = "midnight to midnight"
REGISTER = {"b7-07": "kWh Total", "b7-29": "Energi"}


HEAD = """# Blind set 7: the true answers

Written by `python bench/blind7/truth.py` from `plant.json` and `plant.csv.gz` alone (never the agent's code or the
checker). Times are site-local unless an offset is shown.

## Definitions

- Windows are [start, end): a day is [00:00, next 00:00) in site time; a week starts on Monday. 'yesterday',
  'today', 'this morning', 'at midnight' (today's 00:00), 'last week', 'the week before' (the week before last week),
  'on monday' (the latest Monday before today), 'the 14th' (that day of the current month) resolve from the task's
  `now` in the site's zone; 'right now' is the task's `now` (a sample lies exactly there).
- Detroit's clocks go FORWARD on Sun 14 Mar 2027 (02:00 EST → 03:00 EDT, -05:00 → -04:00): that day has 23 hours
  (92 samples) and the week of 8 Mar 668. Oslo's clocks go FORWARD on Sun 28 Mar 2027 (02:00 CET → 03:00 CEST,
  +01:00 → +02:00): that day has 23 hours and the week of 22 Mar 668 samples. Kathmandu keeps +05:45.
- Spacing: the lower median of the sample intervals (15 min); an interval over 3 × spacing is a gap.
- Energy (kWh): Σ (v_i + v_{i+1}) / 2 × Δt over consecutive samples in the window that are not a gap; W ÷ 1000,
  MW × 1000. The last interval counted ends at the window's last sample (23:45 on a day).
- An excursion is a sample strictly past the limit; against a setpoint, the same asset's setpoint point at the same
  instant.
- Time past a limit: each sample past it holds until the next compared sample, at most one spacing, the last cut at
  the window's end. Share = samples past / samples compared.
- Clear-cut (checked; exit 1 otherwise): every window is what the question's words mean from its `now`; a ranking's
  runner-up and two compared periods ≥ 3 % apart; an extreme held at a single instant with the next value clearly
  apart; no compared sample within 0.1 of an excursion or duration limit; no gap inside any asked window; a
  value-at instant holds a sample; 'missing' things are missing; 'not recorded' assets exist without the attribute's
  tags; every `now` carries its site's own offset and lies inside its data, and every window lies before it; the
  answer is the one make_plant.py designed.
"""

#: a task's first tag -> its site
SITE_BY_WORD = {
    "warren": "Warren Paint Shop",
    "fjordlaks": "Fjordlaks Settefisk",
    "patan": "Patan Heritage Archive",
}


if __name__ == "__main__":
    sys.exit(Truth(HERE, globals()).main())
