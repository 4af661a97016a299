"""Compute every answer of blind.yaml from plant.json + plant.csv.gz alone, check it is clear-cut and that each
task's windows are what its words say, and write truth.md. Exit 1 when any task is not clear-cut or disagrees.

Usage: python bench/blind3/truth.py
"""

from __future__ import annotations

import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))
from blindkit.first import FirstTruth  # noqa: E402

# What each question's words mean, written independently of the expect blocks: relative dates resolved below from
# the task's `now` in site time, then compared with the expect's windows.
INTENT = {
    "b3-04": {"at": ("today", "06:30")},
    "b3-05": {"win": "date:2026-10-04"},
    "b3-06": {"win": "last week"},
    "b3-07": {"win": "yesterday"},
    "b3-08": {"win": "yesterday"},
    "b3-09": {"win": "weekday:1"},
    "b3-10": {"win": "last week"},
    "b3-11": {"win": "yesterday", "yes": True},
    "b3-12": {"win": "last week", "yes": False},
    "b3-13": {"win": "yesterday", "yes": False},
    "b3-14": {"yes": False},
    "b3-17": {"at": ("today", "now")},
    "b3-18": {"win": "yesterday"},
    "b3-19": {"at": ("yesterday", "14:00")},
    "b3-20": {"win": "yesterday"},
    "b3-21": {"win": "last week", "yes": True},
    "b3-23": {"win": "weekday:1"},
    "b3-24": {"periods": ("last week", "week before last")},
    "b3-25": {"yes": True},
    "b3-30": {"win": "yesterday"},
    "b3-34": {"win": "last week"},
    "b3-35": {"win": "date:2026-09-27"},
    "b3-36": {"win": "yesterday"},
    "b3-37": {"win": "yesterday"},
    "b3-38": {"win": "yesterday"},
    "b3-39": {"win": "date:2026-10-01"},
    "b3-40": {"periods": ("last week", "week before last")},
    "b3-45": {"win": "yesterday"},
}
EXPECTED_ANSWER = {  # the intended answers, to catch a plant that drifted from its design
    "b3-02": 2,
    "b3-31": 3,
    "b3-32": 3,
    "b3-33": 3,
    "b3-10": "Comp Rack A",
    "b3-37": "CRAC-02",
    "b3-07": "2026-10-07 15:15",
    "b3-34": "2026-10-01 14:30",
    "b3-23": {"h": 5.0},
    "b3-39": {"%": 25.0},
    "b3-24": "first",
    "b3-40": "first",
}
#: the energy task checked against its register point
REGISTER = {"b3-09": "Energy Register"}

HEAD = [
    "# Blind set 3: the true answers",
    "",
    "Written by `python bench/blind3/truth.py` from `plant.json` and `plant.csv.gz` alone (never the agent's",
    "code or the checker). Times are site-local unless an offset is shown.",
    "",
    "## Definitions",
    "",
    "- Windows are [start, end): a day is [00:00, next 00:00) in site time, a week starts on Monday; "
    "'yesterday', 'last week', 'the week before last', 'on Tuesday' (the most recent Tuesday before today) "
    "resolve from the task's `now` in the site's zone.",
    "- Sydney's clocks go forward on Sun 4 Oct 2026 (02:00 → 03:00) and Auckland's on Sun 27 Sep 2026: "
    "those days have 23 hours (92 samples); their windows run 00:00+10:00→00:00+11:00 (Sydney) and "
    "00:00+12:00→00:00+13:00 (Auckland).",
    "- Spacing: the lower median of the sample intervals (15 min); an interval over 3 × spacing is a gap.",
    "- Energy (kWh): Σ (v_i + v_{i+1}) / 2 × Δt over consecutive samples in the window that are not a gap; "
    "W ÷ 1000, MW × 1000. The last interval counted ends at the window's last sample (23:45 on a day).",
    "- An excursion is a sample strictly past the limit; against a setpoint, the same asset's setpoint point "
    "at the same instant.",
    "- Time past a limit: each sample past it holds until the next compared sample, at most one spacing, "
    "the last cut at the window's end. Share = samples past / samples compared.",
    "- 'Clear-cut' (checked, exit 1 otherwise): a ranking's runner-up and two compared periods ≥ 3 % apart; "
    "an extreme at a single instant with the next value clearly lower; no compared sample within 0.05 of "
    "an excursion or duration limit and no gap in those windows; a value-at instant holding a sample "
    "(never the skipped hour); 'missing' things missing; 'not recorded' assets existing and without the "
    "attribute's tags.",
    "",
]


if __name__ == "__main__":
    sys.exit(FirstTruth(HERE, globals()).main())
