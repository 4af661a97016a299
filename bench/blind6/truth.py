"""Compute every answer of blind.yaml from plant.json + plant.csv.gz alone, check it is clear-cut and that each
task's windows are what its words say, and write truth.md. Exit 1 when any task is not clear-cut or disagrees.

Usage: python bench/blind6/truth.py
"""

from __future__ import annotations

import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))
from blind_truthlib import aggregate, local  # noqa: E402
from blindkit.first import FirstTruth  # noqa: E402
from blindkit.truth import fmtv  # noqa: E402

# What each question's words mean, written independently of the expect blocks: relative dates resolved below from
# the task's `now` in site time, then compared with the expect's windows.
INTENT = {
    "b6-08": {"at": ("today", "06:00")},
    "b6-09": {"at": ("yesterday", "15:00")},
    "b6-10": {"at": ("today", "04:15")},
    "b6-11": {"win": "yesterday"},
    "b6-12": {"win": "monthday:8"},
    "b6-13": {"win": "last week"},
    "b6-14": {"win": "weekday:1"},
    "b6-15": {"win": "yesterday"},
    "b6-16": {"win": "yesterday"},
    "b6-17": {"win": "last week"},
    "b6-18": {"win": "yesterday"},
    "b6-19": {"win": "weekday:1"},
    "b6-20": {"win": "yesterday"},
    "b6-21": {"win": "last week"},
    "b6-22": {"win": "yesterday"},
    "b6-23": {"win": "last week"},
    "b6-24": {"win": "yesterday"},
    "b6-25": {"periods": ("last week", "week before last")},
    "b6-26": {"periods": ("yesterday", "weekday:2")},
    "b6-27": {"win": "yesterday", "yes": True},
    "b6-28": {"win": "last week", "yes": False},
    "b6-29": {"win": "yesterday", "yes": True},
    "b6-30": {"win": "weekday:5", "yes": False},
    "b6-31": {"win": "yesterday"},
    "b6-32": {"win": "weekday:2"},
    "b6-33": {"win": "weekday:0"},
    "b6-34": {"win": "weekday:5"},
    "b6-35": {"win": "yesterday"},
    "b6-36": {"win": "monthday:2"},
    "b6-46": {"at": ("today", "now")},
    "b6-47": {"win": "yesterday"},
    "b6-48": {"yes": True},
    "b6-49": {"yes": False},
}
EXPECTED_ANSWER = {  # the intended answers, to catch a plant that drifted from its design
    "b6-02": 3,
    "b6-03": 3,
    "b6-04": 5,
    "b6-05": ["North Reservoir", "South Reservoir"],
    "b6-06": ["Air Temp", "Air Temp Setpoint", "Belt Speed"],
    "b6-07": ["BHS-01", "BHS-02", "BHS-03"],
    "b6-22": "BP-01",
    "b6-23": "PCA-B5",
    "b6-24": "deck_oven_3",
    "b6-18": "2026-04-01 03:15",
    "b6-19": "2026-03-31 16:45",
    "b6-20": "2026-04-10 17:30",
    "b6-21": "2026-04-04 10:15",
    "b6-31": {"h": 2.5},
    "b6-32": {"h": 4.0},
    "b6-33": {"%": 7 / 96 * 100},
    "b6-25": "second",
    "b6-26": "first",
    "b6-34": 96,
    "b6-35": 96,
    "b6-36": 96,
}
#: samples a window must hold (Adelaide's 25-hour Sunday, 5 Apr 2026, and the weeks that hold it)
SAMPLES = {"b6-16": 100, "b6-13": 676, "b6-21": 676}
#: the energy task checked against its register point
REGISTER = {"b6-16": "Energy Total"}

HEAD = [
    "# Blind set 6: the true answers",
    "",
    "Written by `python bench/blind6/truth.py` from `plant.json` and `plant.csv.gz` alone (never the agent's",
    "code or the checker). Times are site-local unless an offset is shown.",
    "",
    "## Definitions",
    "",
    "- Windows are [start, end): a day is [00:00, next 00:00) in site time, a week starts on Monday; "
    "'yesterday', 'last week', 'the week before last', 'on Monday' (the most recent Monday before today) "
    "resolve from the task's `now` in the site's zone.",
    "- Adelaide's clocks go BACK on Sun 5 Apr 2026 (03:00 ACDT → 02:00 ACST, +10:30 → +09:30): that day "
    "has 25 hours (100 samples; 02:00-02:45 happen twice) and the week of 30 Mar holds it (676 samples). "
    "Sao Paulo (-03:00) and Phoenix (-07:00) keep one offset over the whole period. 'On the 8th' is the 8th of "
    "the current month; 'this morning at 6' / 'at quarter past four this morning' is that clock time today; "
    "'right now' is the task's `now` (a sample lies exactly there); 'the week before' is the week before "
    "last week.",
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
    "(never the repeated hour); 'missing' things missing; 'not recorded' assets existing and without the "
    "attribute's tags; every `now` carries its site's own offset and every window lies before it.",
    "",
]


class Blind6(FirstTruth):
    """The register is read on the 25-hour day: to the last sample, and 24 x the mean power must fail."""

    def register_lines(self, tid, c, ser, kwh, tz) -> None:
        reg, r0, r_last, r1, full, inwin = self.register_reading(tid, c, ser[-1][0])
        mean24 = aggregate(ser, "mean") * 24
        self.out.append(
            f"  {self.REGISTER[tid]} register ({reg.unit}): {fmtv(r0[1])} at {local(r0[0], tz)}, {fmtv(r_last[1])} "
            f"at {local(r_last[0], tz)}, {fmtv(r1[1])} at {local(r1[0], tz)}: midnight to midnight (25 h) "
            f"**{fmtv(full)} kWh**, first to last sample {fmtv(inwin)} kWh; 24 x the day's mean power "
            f"{fmtv(mean24)} kWh (wrong: the day has 25 hours)"
        )
        self.registers_pass(tid, c, kwh, {"midnight-to-midnight register": full, "first-to-last register": inwin})
        if abs(mean24 - kwh) <= c["rel_tol"] * kwh:
            self.bad(tid, "24 x mean power would pass: the 25-hour day is not tested")


if __name__ == "__main__":
    sys.exit(Blind6(HERE, globals()).main())
