"""Compute every answer of blind.yaml from plant.json + plant.csv.gz alone, check it is clear-cut and that each
task's windows are what its words say, and write truth.md. Exit 1 when any task is not clear-cut or disagrees.

Usage: python bench/blind5/truth.py
"""

from __future__ import annotations

import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))
import datetime as dt  # noqa: E402

from blind_truthlib import local  # noqa: E402
from blindkit.first import FirstTruth  # noqa: E402
from blindkit.truth import T, fmtv  # noqa: E402

# What each question's words mean, written independently of the expect blocks: relative dates resolved below from
# the task's `now` in site time, then compared with the expect's windows.
INTENT = {
    "b5-03": {"at": ("yesterday", "05:00")},
    "b5-04": {"win": "weekday:6"},
    "b5-05": {"win": "last week"},
    "b5-06": {"win": "yesterday"},
    "b5-07": {"win": "yesterday"},
    "b5-08": {"win": "yesterday"},
    "b5-09": {"periods": ("yesterday", "day before yesterday")},
    "b5-10": {"win": "yesterday"},
    "b5-11": {"win": "weekday:6"},
    "b5-14": {"at": ("today", "now")},
    "b5-18": {"at": ("today", "10:30")},
    "b5-19": {"win": "yesterday"},
    "b5-20": {"win": "monthday:3"},
    "b5-21": {"win": "day before yesterday"},
    "b5-22": {"win": "weekday:0"},
    "b5-23": {"win": "yesterday"},
    "b5-24": {"periods": ("last week", "week before last")},
    "b5-25": {"win": "yesterday", "yes": True},
    "b5-26": {"win": "weekday:0"},
    "b5-27": {"win": "monthday:3"},
    "b5-28": {"win": "last week"},
    "b5-33": {"at": ("yesterday", "23:00")},
    "b5-34": {"win": "yesterday"},
    "b5-35": {"win": "last week"},
    "b5-36": {"win": "last week"},
    "b5-37": {"win": "last week"},
    "b5-38": {"win": "yesterday"},
    "b5-39": {"win": "weekday:5", "yes": False},
    "b5-40": {"win": "weekday:6"},
    "b5-41": {"win": "yesterday"},
    "b5-45": {"at": ("today", "06:00")},
}
EXPECTED_ANSWER = {  # the intended answers, to catch a plant that drifted from its design
    "b5-02": 4,
    "b5-17": 3,
    "b5-32": 4,
    "b5-08": "Snowmaking Pump 1",
    "b5-23": "Raw Milk Silo 3",
    "b5-38": "FCU-0810",
    "b5-07": "2026-03-10 06:15",
    "b5-37": "2026-03-05 19:30",
    "b5-10": {"h": 3.5},
    "b5-26": {"%": 12.5},
    "b5-40": {"h": 2.5},
    "b5-09": "second",
    "b5-24": "second",
    "b5-11": 92,
}
#: the energy task checked against its register point
REGISTER = {"b5-22": "Energy Import"}

HEAD = [
    "# Blind set 5: the true answers",
    "",
    "Written by `python bench/blind5/truth.py` from `plant.json` and `plant.csv.gz` alone (never the agent's",
    "code or the checker). Times are site-local unless an offset is shown.",
    "",
    "## Definitions",
    "",
    "- Windows are [start, end): a day is [00:00, next 00:00) in site time, a week starts on Monday; "
    "'yesterday', 'last week', 'the week before last', 'on Monday' (the most recent Monday before today) "
    "resolve from the task's `now` in the site's zone.",
    "- Denver's clocks go forward on Sun 8 Mar 2026 (02:00 → 03:00): that day has 23 hours (92 samples) and "
    "runs 00:00-07:00 → 00:00-06:00; the week of 2 Mar holds it (668 samples). Copenhagen (+01:00) and Tokyo "
    "(+09:00) keep one offset over the whole period. 'The day before yesterday' is two days before today; "
    "'on the 3rd' is the 3rd of the current month; 'last night at 11pm' is 23:00 of yesterday; 'right now' / "
    "'at the moment' is the task's `now` (a sample lies exactly there).",
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


class Blind5(FirstTruth):
    """The register is in MWh and named in truth.md."""

    def register_lines(self, tid, c, ser, kwh, tz) -> None:
        reg, r0, r_last, r1, full, inwin = self.register_reading(tid, c, T(c["end"]) - dt.timedelta(minutes=15))
        self.out.append(
            f"  {self.REGISTER[tid]} register ({reg.unit}): {fmtv(r0[1])} at {local(r0[0], tz)}, {fmtv(r_last[1])} "
            f"at {local(r_last[0], tz)}, {fmtv(r1[1])} at {local(r1[0], tz)}: midnight to midnight "
            f"**{fmtv(full)} kWh**, 00:00 to 23:45 {fmtv(inwin)} kWh"
        )
        self.registers_pass(tid, c, kwh, {"midnight-to-midnight register": full, "00:00-23:45 register": inwin})


if __name__ == "__main__":
    sys.exit(Blind5(HERE, globals()).main())
