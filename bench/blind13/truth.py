"""Compute every answer of blind.yaml from plant.json + plant.csv.gz alone, check that each is clear-cut and the one
intended, that each task's windows are what its words say (resolved here from the task's `now`), and write truth.md.
Exit 1 when anything is not clear-cut or disagrees.

Usage: python bench/blind13/truth.py
"""

from __future__ import annotations

import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))
from blindkit.truth import Truth  # noqa: E402

# What each question's words mean, written from the question alone (not from its expect block). Phrases:
#   "yesterday", "today", "last week", "week before last", "weekday:N" (the latest such weekday before today,
#   Monday = 0), "weekday:N:-1" (the one a week before that), "dates:D0:D1" (both days included); "at": (day phrase,
#   clock time).
WORDS = {
    "b13-04": {"at": ("today", "06:00")},
    "b13-05": {"win": "last week"},
    "b13-06": {"win": "weekday:1"},
    "b13-07": {"win": "yesterday"},
    "b13-08": {"win": "yesterday"},
    "b13-09": {"win": "weekday:5"},
    "b13-10": {"win": "yesterday"},
    "b13-11": {"win": "dates:2026-10-27:2026-10-29"},
    "b13-13": {"win": "yesterday"},
    "b13-14": {"win": "last week"},
    "b13-16": {"at": ("yesterday", "14:00")},
    "b13-17": {"win": "last week"},
    "b13-18": {"win": "weekday:3"},
    "b13-19": {"win": "last week"},
    "b13-20": {"win": "weekday:1"},
    "b13-21": {"win": "last week"},
    "b13-22": {"win": "yesterday"},
    "b13-24": {"gap_at": ("weekday:2", "03:00")},
    "b13-25": {"periods": ("weekday:5", "weekday:6")},
    "b13-29": {"win": "yesterday"},
    "b13-30": {"win": "weekday:2"},
    "b13-31": {"win": "yesterday"},
    "b13-32": {"win": "yesterday"},
    "b13-33": {"at": ("today", "00:00")},
    "b13-34": {"win": "weekday:6"},
    "b13-35": {"win": "yesterday"},
}

# The answers the plant was designed to give (plant.yaml's events), to catch a plant that drifted from its design.
DESIGN = {
    "b13-01": ["DH-1", "DH-2", "DH-3"],
    "b13-02": ["Electrical Output", "Heat Output", "Gas Flow", "Generated Energy", "Jacket Water Temp", "Engine Run"],
    "b13-03": 4,
    "b13-05": "Compartment B",
    "b13-06": ("h", 3.5),
    "b13-08": False,
    "b13-09": "2026-10-31 14:15",
    "b13-14": "Grow Lights Zone 3",
    "b13-15": ["Reefer Stack R1", "Reefer Stack R2", "Reefer Stack R3", "Reefer Stack R4"],
    "b13-17": "TR-2",
    "b13-18": ("h", 2.5),
    "b13-19": "SP Feeder 1",
    "b13-20": "2026-10-27 13:30",
    "b13-21": False,
    "b13-25": "first",
    "b13-26": False,
    "b13-27": ["FH-2-101", "FH-2-104", "FH-3-210", "FH-3-214"],
    "b13-28": ["DP", "DP SP", "Speed Cmd", "Power", "Run Cmd"],
    "b13-29": "VAV-3-12",
    "b13-30": ("h", 2.25),
    "b13-31": {"count": 4, "winner": "VAV-2-07"},
    "b13-32": False,
    "b13-34": "2026-11-01 19:30",
    "b13-35": "FH-2-101",
}
#: value-at tasks whose series is flat around the instant (so a misread instant passes too), and why that is kept
FLAT: dict[str, str] = {}
#: aggregate tasks whose misread window would pass as well, and why that is kept
SAME_ANYWAY: dict[str, str] = {}
#: samples a window must hold (the 25-hour days: Amsterdam Sun 25 Oct, Vancouver Sun 1 Nov, and the week holding
#: Amsterdam's)
SAMPLES = {
    "b13-05": 676,
    "b13-07": 100,
    "b13-34": 100,
    "b13-14": 672,
    "b13-11": 288,
}
#: energy tasks checked against their meter's register (the register point); on a day that is not 24 hours long,
#: 24 x the mean power must fail
REGISTER = {"b13-07": "Generated Energy"}
#: 'missing' sensors: tags no point of the asset may carry either
MISSING_TAGS = {"b13-36": {"noise", "sound", "acoustic"}}
#: the least margin of an excursion answered Yes, where the series' unit is small; elsewhere max(0.5, 2 % of the limit)
MARGIN_FLOOR: dict[str, float] = {}
#: the least distance of any compared sample from a duration's limit, where the unit is small (m/s); elsewhere 0.1
NEAR: dict[str, float] = {"b13-30": 0.03}
#: durations whose samples past the limit come in more than one run
MULTI_RUN: set[str] = set()

# The slot-dependent questions: readings a program could silently default to. Each must give a DIFFERENT verdict from
# the true one (a ranks winner, a yes/no, hours past a limit, a number outside the tolerance, an instant outside the
# tolerance, the other period). Each entry: (what the wrong reading is, overrides merged into the check).
DAY = {
    "27": ("2026-10-27T00:00:00+01:00", "2026-10-28T00:00:00+01:00"),
    "28": ("2026-10-28T00:00:00+01:00", "2026-10-29T00:00:00+01:00"),
    "29": ("2026-10-29T00:00:00+01:00", "2026-10-30T00:00:00+01:00"),
}
WRONG = {
    "b13-04": [("the compartment's CO2 SP at 06:00", {"sensor": "CO2 SP"})],
    "b13-05": [("order highest (the dampest)", {"order": "highest"})],
    "b13-06": [
        ("above 0 (the hours importing)", {"direction": "above"}),
        (
            "the CHP's running hours (Electrical Output above 0)",
            {"asset": "WKK-1", "sensor": "Electrical Output", "direction": "above"},
        ),
    ],  # fmt: skip
    "b13-08": [
        ("the loop's Return Temp against the SP", {"sensor": "Return Temp"}),
        ("above instead of below", {"direction": "above"}),
    ],
    "b13-10": [
        (
            "the inverse ratio (electrical / heat)",
            {"a": {"asset": "WKK-1", "sensor": "Electrical Output"}, "b": {"asset": "WKK-1", "sensor": "Heat Output"}},
        ),
        ("the difference (heat - electrical)", {"derive": "difference"}),
    ],  # fmt: skip
    "b13-11": [
        ("27 Oct only", {"start": DAY["27"][0], "end": DAY["27"][1]}),
        ("28 Oct only", {"start": DAY["28"][0], "end": DAY["28"][1]}),
        ("29 Oct only", {"start": DAY["29"][0], "end": DAY["29"][1]}),
        ("27-28 Oct (the 29th read as exclusive)", {"start": DAY["27"][0], "end": DAY["28"][1]}),
        ("28-29 Oct", {"start": DAY["28"][0], "end": DAY["29"][1]}),
    ],
    "b13-17": [
        ("order highest (the most loaded)", {"order": "highest"}),
        ("the coolest oil instead of the load", {"sensor": "Oil Temp"}),
    ],
    "b13-21": [
        ("the stack's Power (kW) against -15", {"sensor": "Power"}),
        ("the stack's Plugs In Use against -15", {"sensor": "Plugs In Use"}),
    ],
    "b13-22": [
        ("R1's mean alone", {"derive": None, "asset": "Reefer Stack R1", "sensor": "Power"}),
        ("the ratio R1 / R2", {"derive": "ratio"}),
        ("the sum R1 + R2", {"derive": "sum"}),
    ],
    "b13-29": [
        ("the lowest Airflow SP instead of the measured airflow", {"sensor": "Airflow SP"}),
        ("order highest (the best supplied)", {"order": "highest"}),
        (
            "the widest damper command (Damper Cmd highest)",
            {"sensor": "Damper Cmd", "order": "highest", "_same_ok": True},
        ),
    ],  # fmt: skip
    "b13-30": [
        ("the hood's Sash Position (%) under 0.4", {"sensor": "Sash Position"}),
        ("the hood's Exhaust Flow (L/s) under 0.4", {"sensor": "Exhaust Flow"}),
        ("the Face Velocity SP under 0.4", {"sensor": "Face Velocity SP"}),
        ("above instead of below", {"direction": "above"}),
    ],
    "b13-32": [
        ("the plant's Gas Valve (%) under 55", {"sensor": "Gas Valve"}),
        ("the Recirc Temp (°C) under 55", {"sensor": "Recirc Temp", "_same_ok": True}),
    ],
    "b13-35": [
        ("order lowest", {"order": "lowest"}),
        ("the higher Face Velocity instead of the sash", {"sensor": "Face Velocity"}),
    ],
}
#: other readings that must PASS the check too (an honest alternative computation)
RIGHT_TOO = {
    "b13-10": [("the ratio of the day's means", {"_ratio_of_means": True})],
}


#: the point a `partial` gap question asks about
GAP_POINT = {"b13-24": ("Santos Reefer Terminal", "TR-2", "Oil Temp")}


HEAD = """# Blind set 13: the true answers

Written by `python bench/blind13/truth.py` from `plant.json` and `plant.csv.gz` alone (never the agent's code or the
checker). Times are site-local unless an offset is shown.

## Definitions

- Windows are [start, end): a day is [00:00, next 00:00) in site time; a week starts on Monday. 'yesterday',
  'this morning at 6am' and 'midnight last night' (today's 06:00 / 00:00), '2pm yesterday', 'last week', 'on Tuesday',
  'on Wednesday', 'on Thursday', 'on Saturday', 'on Sunday', 'at 3 in the morning on Wednesday' (the latest such day
  before today), 'on Saturday or on Sunday' (the latest of each before today) and 'the 27th to the 29th of Oct' (both
  days included: three whole days) resolve from the task's `now` in the site's zone.
- Amsterdam's clocks go BACK on Sun 25 Oct 2026 (03:00 CEST → 02:00 CET, +02:00 → +01:00): that day has 25 hours
  (100 samples; 02:00–02:45 come twice) and the week of 19 Oct 676 samples. Vancouver's go BACK on Sun 1 Nov 2026
  (02:00 PDT → 01:00 PST, -07:00 → -08:00): 25 hours (01:00–01:45 twice). São Paulo keeps -03:00 (no summer time).
- Spacing: the lower median of the sample intervals (15 min); an interval over 3 × spacing is a gap.
- Energy (kWh): Σ (v_i + v_{i+1}) / 2 × Δt over consecutive samples in the window that are not a gap; W ÷ 1000,
  MW × 1000. The last interval counted ends at the window's last sample (23:45 on a day).
- A derived series (difference, sum, ratio of two points) is taken on identical timestamps; a ratio drops b = 0.
- An excursion is a sample strictly past the limit; against a setpoint, the same asset's setpoint point at the same
  instant.
- Time past a limit: each sample past it holds until the next compared sample, at most one spacing, the last cut at
  the window's end. Share = samples past / samples compared.
- Signed series: Naaldwijk's Grid Connection `Net Power` is + import, - export; exporting is `below 0`.
- Clear-cut (checked; exit 1 otherwise): every window is what the question's words mean from its `now`; a ranking's
  runner-up and two compared periods ≥ 3 % apart; an extreme held at a single instant with the next value clearly
  apart; no compared sample within 0.1 of a duration limit (0.03 m/s for the face-velocity limit) or of the limit of
  an excursion answered No; an excursion answered Yes has more than one sample past the limit and its most extreme one
  at least max(0.5, 2 % of the limit) past it; no gap inside any asked window; a value-at instant holds a sample, and
  the samples an hour (or the site's UTC offset) away fail its tolerance; a misread window (the period before or
  after, a UTC day) fails an aggregate's tolerance; an energy's register difference passes its tolerance and, on a
  25-hour day, 24 × the mean power fails it; 'missing' things are missing (by name and by tag); 'not recorded' assets
  exist without the attribute's tags; the gap question's instant lies inside a gap with no sample in the hour before
  it; every `now` carries its site's own offset and lies inside its data, and every window lies before it; the answer
  is the one make_plant.py designed; and for every slot-dependent question, each wrong reading listed under "slot
  readings" (the other order, the setpoint or another point of the same asset, the other direction of a signed flow,
  a single day of a range, the inverse ratio, a series of another unit, …) gives an answer that FAILS the check, and
  the honest alternatives listed as "also right" pass it.
"""

#: a task's first tag -> its site
SITE_BY_WORD = {
    "naaldwijk": "Naaldwijk Greenhouse",
    "santos": "Santos Reefer Terminal",
    "westbrook": "Westbrook Research Labs",
}


class Blind13(Truth):
    """The checks of blind set 13 that read differently from the shared ones."""

    def chk_not_recorded(self, tid, c):
        """A thing outside the building's data: no record anywhere names it or carries its tag (in this set's words)."""
        if "asset" in c:
            super().chk_not_recorded(tid, c)
            return
        words = {w.lower() for w in [c["attribute"], *c.get("words", [])] for w in w.split()}
        hits = [
            f"{e.dis} {p.nav}"
            for s in self.P.sites.values()
            for e in s.equips.values()
            for p in e.points.values()
            if words & ({w.lower() for w in p.nav.split()} | {t_.lower() for t_ in p.tags})
        ]
        self.out.append(
            f"- {c['attribute']}: no point of any site is named or tagged for it → **not recorded** (says so, "
            f"claims no value)"
        )
        if hits:
            self.bad(tid, f"points mention it: {hits}")


if __name__ == "__main__":
    sys.exit(Blind13(HERE, globals()).main())
