"""Compute every answer of blind.yaml from plant.json + plant.csv.gz alone, check that each is clear-cut and the one
intended, that each task's windows are what its words say (resolved here from the task's `now`), and write truth.md.
Exit 1 when anything is not clear-cut or disagrees.

Usage: python bench/blind10/truth.py
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
    "b10-10": {"at": ("today", "00:00")},
    "b10-11": {"at": ("today", "06:30")},
    "b10-12": {"at": ("today", "00:00")},
    "b10-13": {"at": ("yesterday", "15:00")},
    "b10-14": {"win": "yesterday"},
    "b10-15": {"win": "last week"},
    "b10-16": {"win": "yesterday"},
    "b10-17": {"win": "last week"},
    "b10-18": {"win": "yesterday"},
    "b10-19": {"win": "last week"},
    "b10-20": {"win": "last week"},
    "b10-21": {"win": "yesterday"},
    "b10-22": {"win": "yesterday"},
    "b10-23": {"win": "yesterday"},
    "b10-24": {"win": "yesterday"},
    "b10-25": {"win": "last week"},
    "b10-26": {"win": "last week"},
    "b10-27": {"win": "yesterday"},
    "b10-28": {"win": "weekday:5"},
    "b10-29": {"win": "yesterday"},
    "b10-30": {"win": "yesterday"},
    "b10-31": {"periods": ("weekday:5", "weekday:6")},
    "b10-32": {"periods": ("weekday:3", "weekday:3:-1")},
    "b10-33": {"periods": ("last week", "week before last")},
    "b10-34": {"win": "yesterday"},
    "b10-35": {"win": "weekday:0"},
    "b10-36": {"win": "yesterday"},
    "b10-37": {"win": "weekday:3"},
    "b10-38": {"win": "yesterday"},
    "b10-39": {"win": "last week"},
    "b10-40": {"win": "weekday:2"},
    "b10-41": {"win": "last week"},
    "b10-42": {"win": "yesterday"},
    "b10-43": {"win": "last week"},
    "b10-44": {"win": "weekday:6"},
    "b10-45": {"win": "yesterday"},
    "b10-46": {"win": "yesterday"},
    "b10-57": {"win": "yesterday"},
}

# The answers the plant was designed to give (plant.yaml's events), to catch a plant that drifted from its design.
DESIGN = {
    "b10-02": ["Macchina IS 1", "Macchina IS 2", "Macchina IS 3"],
    "b10-03": ["AHU-1", "AHU-2", "AHU-3"],
    "b10-04": ["DIG_01", "DIG_02", "DIG_03"],
    "b10-05": [
        "Temperatura Volta",
        "Setpoint Volta",
        "Temperatura Fumi",
        "Portata Gas",
        "Potenza Boosting",
        "Pressione Forno",
        "Livello Vetro",
    ],
    "b10-06": ["GEN_KW", "GEN_KWH", "GAS_IN", "EXH_TEMP", "JW_TEMP", "RUN"],
    "b10-07": 3,
    "b10-08": 5,
    "b10-09": 4,
    "b10-14": "2026-10-31 12:00",
    "b10-16": "2026-10-20 14:45",
    "b10-20": "2026-10-25 16:30",
    "b10-21": "2026-10-22 14:45",
    "b10-22": "2026-10-15 06:15",
    "b10-27": "Macchina IS 2",
    "b10-28": "AHU-2",
    "b10-29": "DIG_02",
    "b10-30": "Fill Room 2",
    "b10-31": "second",
    "b10-32": "first",
    "b10-33": "second",
    "b10-34": ("h", 2.25),
    "b10-35": ("%", 12.5),
    "b10-36": ("h", 1.75),
    "b10-37": ("h", 6.25),
    "b10-38": True,
    "b10-39": False,
    "b10-40": True,
    "b10-41": False,
    "b10-42": True,
    "b10-43": False,
    "b10-47": False,
    "b10-48": True,
    "b10-49": False,
}
#: value-at tasks whose series is flat around the instant (so a misread instant passes too), and why that is kept
FLAT: dict[str, str] = {}
#: aggregate tasks whose misread window would pass as well, and why that is kept
SAME_ANYWAY: dict[str, str] = {}
#: samples a window must hold (Rome's 25-hour Sunday, 25 Oct 2026, and the week holding it)
SAMPLES = {
    "b10-15": 676,
    "b10-20": 676,
    "b10-23": 100,
    "b10-25": 676,
    "b10-31": (96, 100),
    "b10-44": 100,
}
#: energy tasks checked against their meter's register (the register point); on a day that is not 24 hours long,
#: 24 x the mean power must fail
REGISTER = {"b10-23": "Energia Attiva", "b10-24": "kWh", "b10-26": "GEN_KWH"}
#: 'missing' sensors: tags no point of the asset may carry either
MISSING_TAGS = {"b10-58": {"vibration"}, "b10-59": {"pressure"}}
#: the least margin of an excursion answered Yes, where the series' unit is small (a room's pressure in inH2O:
#: 20 % of its 0.050 setpoint); elsewhere max(0.5, 2 % of the limit)
MARGIN_FLOOR = {"b10-40": 0.01}


HEAD = """# Blind set 10: the true answers

Written by `python bench/blind10/truth.py` from `plant.json` and `plant.csv.gz` alone (never the agent's code or the
checker). Times are site-local unless an offset is shown.

## Definitions

- Windows are [start, end): a day is [00:00, next 00:00) in site time; a week starts on Monday. 'yesterday',
  'today', 'this morning', 'at midnight' (today's 00:00), 'last week', 'the week before' (the week before last week),
  'on thursday' (the latest Thursday before today), 'this Thursday' / 'the Thursday before' (the latest Thursday
  before today and the one a week earlier), 'on Saturday or on Sunday' (the latest of each before today) resolve from
  the task's `now` in the site's zone.
- Rome's clocks go BACK on Sun 25 Oct 2026 (03:00 CEST → 02:00 CET, +02:00 → +01:00): that day has 25 hours
  (100 samples; 02:00–02:45 come twice, first at +02:00, then at +01:00) and the week of 19 Oct 676 samples.
  Puerto Rico keeps -04:00 (Atlantic Standard Time, no summer time: it does not fall back with the US mainland on
  Sun 1 Nov); Johannesburg keeps +02:00.
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
  past it (a room pressure in inH₂O: at least 0.01, a fifth of its setpoint); no gap inside any asked window; a
  value-at instant holds a sample, and the samples an hour (or the site's UTC offset) away fail its tolerance; a
  misread window (the period before or after, a UTC day) fails an aggregate's tolerance; an energy's register
  difference passes its tolerance and, on the 25-hour day, 24 × the mean power fails it; 'missing' things are missing
  (by name and by tag); 'not recorded' assets exist without the attribute's tags; every `now` carries its site's own
  offset and lies inside its data, and every window lies before it; the answer is the one make_plant.py designed.
"""

#: a task's first tag -> its site
SITE_BY_WORD = {
    "valdelsa": "Vetreria Valdelsa",
    "caguas": "Caguas Sterile Products",
    "springs": "Springs AD Plant",
}


if __name__ == "__main__":
    sys.exit(Truth(HERE, globals()).main())
