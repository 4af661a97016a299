"""Compute every answer of blind.yaml from plant.json + plant.csv.gz alone, check that each is clear-cut and the one
intended, that each task's windows are what its words say (resolved here from the task's `now`), and write truth.md.
Exit 1 when anything is not clear-cut or disagrees.

Usage: python bench/blind8/truth.py
"""

from __future__ import annotations

import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))
from blindkit.truth import Truth  # noqa: E402

# What each question's words mean, written from the question alone (not from its expect block). Phrases:
#   "yesterday", "today", "last week", "week before last", "weekday:N" (the latest such weekday before today,
#   Monday = 0); "at": (day phrase, clock time or "now").
WORDS = {
    "b8-10": {"at": ("yesterday", "14:00")},
    "b8-11": {"at": ("today", "00:00")},
    "b8-12": {"at": ("today", "06:00")},
    "b8-13": {"at": ("today", "07:00")},
    "b8-14": {"win": "weekday:5"},
    "b8-15": {"win": "last week"},
    "b8-16": {"win": "yesterday"},
    "b8-17": {"win": "last week"},
    "b8-18": {"win": "yesterday"},
    "b8-19": {"win": "weekday:4"},
    "b8-20": {"win": "yesterday"},
    "b8-21": {"win": "yesterday"},
    "b8-22": {"win": "last week"},
    "b8-23": {"win": "yesterday"},
    "b8-24": {"win": "last week"},
    "b8-25": {"win": "yesterday"},
    "b8-26": {"win": "last week"},
    "b8-27": {"win": "last week"},
    "b8-28": {"win": "weekday:5"},
    "b8-29": {"win": "last week"},
    "b8-30": {"periods": ("last week", "week before last")},
    "b8-31": {"periods": ("last week", "week before last")},
    "b8-32": {"periods": ("last week", "week before last")},
    "b8-33": {"periods": ("weekday:3", "weekday:2")},
    "b8-34": {"periods": ("yesterday", "weekday:6")},
    "b8-35": {"win": "weekday:0"},
    "b8-36": {"win": "weekday:4"},
    "b8-37": {"win": "weekday:2"},
    "b8-38": {"win": "weekday:1"},
    "b8-39": {"win": "yesterday"},
    "b8-40": {"win": "last week"},
    "b8-41": {"win": "weekday:5"},
    "b8-42": {"win": "yesterday"},
    "b8-43": {"win": "weekday:2"},
    "b8-44": {"win": "last week"},
    "b8-45": {"win": "yesterday"},
    "b8-46": {"win": "last week"},
    "b8-47": {"win": "weekday:6"},
    "b8-57": {"at": ("today", "now")},
}

# The answers the plant was designed to give (plant.yaml's events), to catch a plant that drifted from its design.
DESIGN = {
    "b8-02": ["Kuivaamo 1", "Kuivaamo 2", "Kuivaamo 3"],
    "b8-03": ["BLW-01", "BLW-02", "BLW-03"],
    "b8-04": ["boiler_1", "boiler_2"],
    "b8-05": ["Höyrynpaine", "Höyrynpaineen asetusarvo", "Höyryvirtaus", "Polttoaineteho", "Savukaasun lämpötila"],
    "b8-06": ["MTR KW", "FEED RATE", "BRG TEMP", "VIB", "RUN"],
    "b8-07": 3,
    "b8-08": 4,
    "b8-09": 2,
    "b8-14": "2025-11-01 11:30",
    "b8-15": "2025-10-28 14:15",
    "b8-17": "2025-10-22 03:45",
    "b8-18": "2025-10-28 14:15",
    "b8-19": "2025-10-31 10:30",
    "b8-24": "Kuivaamo 2",
    "b8-25": "BLW-02",
    "b8-26": "baler_1",
    "b8-27": "Höyrykattila K1",
    "b8-28": "TP-01",
    "b8-29": "boiler_1",
    "b8-30": "first",
    "b8-31": "first",
    "b8-32": "first",
    "b8-33": "second",
    "b8-34": "second",
    "b8-35": ("h", 3.5),
    "b8-36": ("%", 12.5),
    "b8-37": ("h", 5.75),
    "b8-38": ("h", 1.75),
    "b8-39": True,
    "b8-40": False,
    "b8-41": True,
    "b8-42": False,
    "b8-43": False,
    "b8-44": True,
    "b8-48": False,
    "b8-49": True,
    "b8-50": True,
    "b8-51": False,
}
#: value-at tasks whose series is flat around the instant (so a misread instant passes too), and why that is kept
FLAT: dict[str, str] = {}
#: aggregate tasks whose misread window would pass as well, and why that is kept
SAME_ANYWAY: dict[str, str] = {}
#: samples a window must hold (the 25-hour days of Helsinki, 26 Oct, and Anchorage, 2 Nov, and the weeks holding them)
SAMPLES = {
    "b8-20": 100,
    "b8-21": 100,
    "b8-22": 676,
    "b8-30": (672, 676),
    "b8-32": (676, 672),
    "b8-34": (96, 100),
    "b8-47": 100,
}
#: energy tasks checked against their meter's register point (on a 25-hour day 24 x the mean power must fail), and
#: the words of its line
REGISTER_SPAN = "midnight to midnight"
REGISTER = {"b8-20": "Energia", "b8-21": "kwh", "b8-23": "IMPORT MWH"}


HEAD = """# Blind set 8: the true answers

Written by `python bench/blind8/truth.py` from `plant.json` and `plant.csv.gz` alone (never the agent's code or the
checker). Times are site-local unless an offset is shown.

## Definitions

- Windows are [start, end): a day is [00:00, next 00:00) in site time; a week starts on Monday. 'yesterday',
  'today', 'this morning', 'at midnight' (today's 00:00), 'last week', 'the week before' (the week before last week),
  'on monday' (the latest Monday before today) resolve from the task's `now` in the site's zone; 'right now' is the
  task's `now` (a sample lies exactly there).
- Helsinki's clocks go BACK on Sun 26 Oct 2025 (04:00 EEST → 03:00 EET, +03:00 → +02:00): that day has 25 hours
  (100 samples; the local hour 03:00–03:45 comes twice) and the week of 20 Oct 676. Anchorage's clocks go BACK on
  Sun 2 Nov 2025 (02:00 AKDT → 01:00 AKST, -08:00 → -09:00): that day has 25 hours (100 samples; 01:00–01:45 comes
  twice) and the week of 27 Oct 676. Santiago keeps -03:00 (its summer time began on 7 Sep 2025).
- Spacing: the lower median of the sample intervals (15 min); an interval over 3 × spacing is a gap.
- Energy (kWh): Σ (v_i + v_{i+1}) / 2 × Δt over consecutive samples in the window that are not a gap; W ÷ 1000,
  MW × 1000. The last interval counted ends at the window's last sample (23:45 on a day).
- An excursion is a sample strictly past the limit; against a setpoint, the same asset's setpoint point at the same
  instant.
- Time past a limit: each sample past it holds until the next compared sample, at most one spacing, the last cut at
  the window's end. Share = samples past / samples compared.
- Clear-cut (checked; exit 1 otherwise): every window is what the question's words mean from its `now`; a ranking's
  runner-up and two compared periods ≥ 3 % apart; an extreme held at a single instant with the next value clearly
  apart; no compared sample within 0.1 of a duration limit or of the limit of an excursion answered No; an excursion
  answered Yes has more than one sample past the limit and its most extreme one at least max(0.5, 2 % of the limit)
  past it; no gap inside any asked window; a
  value-at instant holds a sample, and the samples an hour (or the site's UTC offset) away fail its tolerance; a
  misread window (the period before or after, a UTC day) fails an aggregate's tolerance; 'missing' things are
  missing (by name and by tag); 'not recorded' assets exist without the attribute's tags; every `now` carries its
  site's own offset and lies inside its data, and every window lies before it; the answer is the one make_plant.py
  designed.
"""

#: a task's first tag -> its site
SITE_BY_WORD = {
    "kivikoski": "Kivikoski Saha",
    "cerro": "Cerro Blanco Concentrator",
    "shipcreek": "ship_creek_mrf",
}


if __name__ == "__main__":
    sys.exit(Truth(HERE, globals()).main())
