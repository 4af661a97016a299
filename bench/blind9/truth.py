"""Compute every answer of blind.yaml from plant.json + plant.csv.gz alone, check that each is clear-cut and the one
intended, that each task's windows are what its words say (resolved here from the task's `now`), and write truth.md.
Exit 1 when anything is not clear-cut or disagrees.

Usage: python bench/blind9/truth.py
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
    "b9-10": {"at": ("today", "06:00")},
    "b9-11": {"at": ("today", "00:00")},
    "b9-12": {"at": ("today", "08:30")},
    "b9-13": {"at": ("yesterday", "14:00")},
    "b9-14": {"win": "yesterday"},
    "b9-15": {"win": "last week"},
    "b9-16": {"win": "yesterday"},
    "b9-17": {"win": "last week"},
    "b9-18": {"win": "yesterday"},
    "b9-19": {"win": "last week"},
    "b9-20": {"win": "last week"},
    "b9-21": {"win": "weekday:5"},
    "b9-22": {"win": "last week"},
    "b9-23": {"win": "weekday:6"},
    "b9-24": {"win": "yesterday"},
    "b9-25": {"win": "last week"},
    "b9-26": {"win": "last week"},
    "b9-27": {"win": "last week"},
    "b9-28": {"win": "yesterday"},
    "b9-29": {"win": "yesterday"},
    "b9-30": {"win": "last week"},
    "b9-31": {"periods": ("weekday:0", "weekday:1")},
    "b9-32": {"periods": ("weekday:5", "weekday:5:-1")},
    "b9-33": {"periods": ("last week", "week before last")},
    "b9-34": {"win": "weekday:3"},
    "b9-35": {"win": "weekday:3"},
    "b9-36": {"win": "yesterday"},
    "b9-37": {"win": "weekday:3"},
    "b9-38": {"win": "weekday:2"},
    "b9-39": {"win": "last week"},
    "b9-40": {"win": "weekday:2"},
    "b9-41": {"win": "yesterday"},
    "b9-42": {"win": "weekday:1"},
    "b9-43": {"win": "last week"},
    "b9-44": {"win": "yesterday"},
    "b9-45": {"win": "weekday:6"},
    "b9-46": {"win": "yesterday"},
    "b9-57": {"win": "yesterday"},
}

# The answers the plant was designed to give (plant.yaml's events), to catch a plant that drifted from its design.
DESIGN = {
    "b9-02": ["Molino de Crudo", "Molino de Cemento 1", "Molino de Cemento 2"],
    "b9-03": ["ref_comp_1", "ref_comp_2", "ref_comp_3"],
    "b9-04": ["QC-01", "QC-02", "QC-03"],
    "b9-05": [
        "Temperatura Zona de Quemado",
        "Consigna Zona de Quemado",
        "Temperatura Gases de Salida",
        "Velocidad",
        "Potencia Motor",
        "Alimentación de Harina",
    ],
    "b9-06": ["Demand", "Import Energy", "Power Factor"],
    "b9-07": 2,
    "b9-08": 4,
    "b9-09": 3,
    "b9-14": "2026-03-22 15:45",
    "b9-16": "2026-03-12 17:00",
    "b9-17": "2026-03-05 06:30",
    "b9-20": "2026-03-11 02:45",
    "b9-21": "2026-03-21 18:45",
    "b9-22": "2026-03-14 15:45",
    "b9-27": "Molino de Cemento 1",
    "b9-28": "ref_comp_2",
    "b9-29": "QC-03",
    "b9-30": "RF-B",
    "b9-31": "first",
    "b9-32": "second",
    "b9-33": "first",
    "b9-34": ("h", 3.75),
    "b9-35": ("h", 3.5),
    "b9-36": ("%", 25.0),
    "b9-37": ("h", 1.0),
    "b9-38": True,
    "b9-39": False,
    "b9-40": True,
    "b9-41": False,
    "b9-42": True,
    "b9-43": False,
    "b9-47": False,
    "b9-48": False,
    "b9-49": True,
}
#: value-at tasks whose series is flat around the instant (so a misread instant passes too), and why that is kept
FLAT: dict[str, str] = {}
#: aggregate tasks whose misread window would pass as well, and why that is kept
SAME_ANYWAY: dict[str, str] = {}
#: samples a window must hold (Indianapolis' 23-hour Sunday, 8 Mar 2026, and the week holding it)
SAMPLES = {
    "b9-17": 668,
    "b9-24": 92,
    "b9-25": 668,
    "b9-45": 92,
}
#: energy tasks checked against their meter's register (the register point); on a day that is not 24 hours long,
#: 24 x the mean power must fail
REGISTER = {"b9-23": "Energía Importada", "b9-24": "kwh", "b9-26": "Energy"}
#: 'missing' sensors: tags no point of the asset may carry either
MISSING_TAGS = {"b9-58": {"bearing"}, "b9-59": {"coolant"}}


HEAD = """# Blind set 9: the true answers

Written by `python bench/blind9/truth.py` from `plant.json` and `plant.csv.gz` alone (never the agent's code or the
checker). Times are site-local unless an offset is shown.

## Definitions

- Windows are [start, end): a day is [00:00, next 00:00) in site time; a week starts on Monday. 'yesterday',
  'today', 'this morning', 'at midnight' (today's 00:00), 'last week', 'the week before' (the week before last week),
  'on thursday' (the latest Thursday before today), 'the saturday before' (the Saturday a week before the latest one)
  resolve from the task's `now` in the site's zone.
- Indianapolis' clocks go FORWARD on Sun 8 Mar 2026 (02:00 EST → 03:00 EDT, -05:00 → -04:00): that day has 23 hours
  (92 samples; there is no 02:00–02:45) and the week of 2 Mar 668 samples. Mexico City keeps -06:00 (Mexico dropped
  summer time in 2022); Singapore keeps +08:00.
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
  past it; no gap inside any asked window; a value-at instant holds a sample, and the samples an hour (or the site's
  UTC offset) away fail its tolerance; a misread window (the period before or after, a UTC day) fails an aggregate's
  tolerance; an energy's register difference passes its tolerance and, on the 23-hour day, 24 × the mean power fails
  it; 'missing' things are missing (by name and by tag); 'not recorded' assets exist without the attribute's tags;
  every `now` carries its site's own offset and lies inside its data, and every window lies before it; the answer is
  the one make_plant.py designed.
"""

#: a task's first tag -> its site
SITE_BY_WORD = {
    "tepeaca": "Cementera Tepeaca",
    "eastgate": "eastgate_ice_arena",
    "tanjong": "Tanjong Kait Terminal",
}


if __name__ == "__main__":
    sys.exit(Truth(HERE, globals()).main())
