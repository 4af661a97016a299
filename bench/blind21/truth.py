"""Compute every answer of blind.yaml from plant.json + plant.csv.gz alone, check that each is clear-cut and the one
intended, that each task's windows are what its words say (resolved here from the task's `now`), that each
slot-dependent question's wrong readings fail and its honest alternatives pass, and write truth.md. Exit 1 when
anything is not clear-cut or disagrees. The checks are the shared ones (bench/blindkit/truth.py); this file holds
the set's tables and a thin subclass for two wrong readings and the ambiguous questions' candidates.

Usage: python bench/blind21/truth.py
"""

from __future__ import annotations

import datetime as dt
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))
from blindkit.truth import T, Truth, whole_days  # noqa: E402

W = "Dwarsrivier Wine Estate"
Z = "Altstetten Chocolate Factory"
K = "Kodiak Harbor Seafoods"

# What each question's words mean, written from the question alone (not from its expect block).
WORDS = {
    "b21-01": {"at": ("today", "now")},
    "b21-02": {"win": "yesterday"},
    "b21-03": {"win": "yesterday"},
    "b21-04": {"win": "yesterday"},
    "b21-05": {"win": "yesterday"},
    "b21-06": {"win": "weekday:5"},
    "b21-07": {"periods": ("last week", "week before last")},
    "b21-08": {"win": "last week"},
    "b21-09": {"gap_at": ("yesterday", "10:30")},
    "b21-12": {"win": "yesterday"},
    "b21-13": {"win": "last week"},
    "b21-14": {"win": "yesterday"},
    "b21-15": {"win": "last week"},
    "b21-16": {"win": "yesterday"},
    "b21-17": {"win": "yesterday"},
    "b21-20": {"win": "dates:2026-03-09:2026-03-11"},
    "b21-21": {"win": "weekday:0"},
    "b21-22": {"win": "yesterday"},
    "b21-23": {"win": "yesterday"},
    "b21-25": {"at": ("today", "now")},
    "b21-26": {"win": "yesterday"},
    "b21-27": {"win": "dates:2026-03-08:2026-03-08"},
    "b21-28": {"win": "yesterday"},
    "b21-29": {"win": "yesterday"},
    "b21-30": {"win": "yesterday"},
    "b21-31": {"win": "last week"},
    "b21-33": {"periods": ("last week", "week before last")},
    "b21-34": {"win": "last week"},
}

# The answers the plant was designed to give (plant.yaml's events), to catch a plant that drifted from its design.
DESIGN = {
    "b21-02": "Tank 4",
    "b21-04": ("h", 4.25),
    "b21-07": "second",
    "b21-08": False,
    "b21-14": ("h", 6.0),
    "b21-15": "Conche 3",
    "b21-16": "2026-03-10 14:45",
    "b21-17": ("h", 2.25),
    "b21-22": ("h", 7.75),
    "b21-23": "Cooling Tunnel 2",
    "b21-26": "Plate Freezer 2",
    "b21-27": "2026-03-08 09:30",
    "b21-28": ("h", 3.5),
    "b21-30": ("h", 2.75),
    "b21-33": "second",
    "b21-35": 6,
}
#: samples a window must hold (Kodiak's 23-hour Sunday 8 Mar and the week holding it)
SAMPLES = {
    "b21-27": 92,
    "b21-31": 668,
    "b21-33": (672, 668),
}
#: aggregates whose misread window passes as well, and why that is kept
SAME_ANYWAY = {
    "b21-05": "a chiller's COP is steady from one day to the next; the slot here is the ratio's operands and order",
}
#: energy tasks checked against their register point
REGISTER = {"b21-20": "Energy"}


def _gc(n: int, sensor: str) -> dict:
    return {"asset": f"Glycol Chiller {n}", "sensor": sensor}


# The slot-dependent questions: readings a program could silently default to. Each must give a DIFFERENT verdict from
# the true one (a ranks winner, a yes/no, hours past a limit, a number outside the tolerance, an instant outside the
# tolerance, the other period). Each entry: (what the wrong reading is, overrides merged into the check).
WRONG = {
    "b21-02": [
        (
            "ranked by the setpoint Must Temp Setpoint instead of the measured Must Temp",
            {"sensor": "Must Temp Setpoint"},
        ),
        ("ranked by the peak (max) instead of the average", {"by": "max"}),
        ("order lowest (the coolest)", {"order": "lowest"}),
    ],
    "b21-03": [
        ("the valve's command Glycol Valve Cmd instead of its position feedback", {"sensor": "Glycol Valve Cmd"}),
        ("the day before, Wed 11 Mar (the valve seized at 16:00)", whole_days("2026-03-11", "2026-03-12", "+02:00")),
    ],
    "b21-04": [
        ("above 0 (discharging or on standby) instead of below 0 (charging)", {"direction": "above"}),
    ],
    "b21-05": [
        (
            "the inverse (electrical power over cooling output)",
            {"a": _gc(2, "Electrical Power"), "b": _gc(2, "Cooling Output")},
        ),
        ("Glycol Chiller 1's COP", {"a": _gc(1, "Cooling Output"), "b": _gc(1, "Electrical Power")}),
        ("the mean Cooling Output alone", {"derive": None, "asset": "Glycol Chiller 2", "sensor": "Cooling Output"}),
        ("the difference (kW - kW)", {"derive": "difference"}),
    ],
    "b21-06": [
        ("the Must Temp's mean alone", {"derive": None, "asset": "Tank 6", "sensor": "Must Temp"}),
        ("the ratio Must Temp / Must Temp Setpoint", {"derive": "ratio"}),
        (
            "the setpoint minus the temperature (the sign reversed)",
            {"a": {"asset": "Tank 6", "sensor": "Must Temp Setpoint"}, "b": {"asset": "Tank 6", "sensor": "Must Temp"}},
        ),
        (
            "Tank 5 (another white)",
            {"a": {"asset": "Tank 5", "sensor": "Must Temp"}, "b": {"asset": "Tank 5", "sensor": "Must Temp Setpoint"}},
        ),
        ("Sunday 15 Mar instead of Saturday", whole_days("2026-03-15", "2026-03-16", "+02:00")),
    ],
    "b21-07": [("order highest (the week that used more)", {"order": "highest"})],
    "b21-08": [
        ("the barrel hall's Air Temp (°C) below 70", {"sensor": "Air Temp"}),
        ("the Humidifier Valve (%) below 70", {"sensor": "Humidifier Valve"}),
        ("below its Humidity Setpoint instead of below 70 %", {"limit": None, "limit_sensor": "Humidity Setpoint"}),
    ],
    "b21-14": [
        ("the Mass Temp (°C) over 75 instead of the Motor Power (kW)", {"sensor": "Mass Temp"}),
        ("the Shaft Speed (rpm) over 75", {"sensor": "Shaft Speed"}),
        ("below 75 instead of above", {"direction": "below"}),
    ],
    "b21-15": [
        ("ranked by the peak kW instead of the energy", {"by": "max"}),
        ("order lowest (the least electricity)", {"order": "lowest"}),
    ],
    "b21-16": [
        ("the minimum's time", {"extreme": "min"}),
        ("the Cooling Water Temp's peak (the other °C point)", {"sensor": "Cooling Water Temp"}),
        ("the Line 2 Temperer", {"asset": "Line 2 Temperer"}),
    ],
    "b21-17": [
        ("above 6 bar instead of below", {"direction": "above"}),
        ("Air Compressor 1's Discharge Pressure (bar)", {"asset": "Air Compressor 1", "sensor": "Discharge Pressure"}),
        ("the receiver's Dew Point (°C) below 6", {"sensor": "Dew Point"}),
    ],
    "b21-20": [
        ("9 Mar only", whole_days("2026-03-09", "2026-03-10", "+01:00")),
        ("11 Mar only", whole_days("2026-03-11", "2026-03-12", "+01:00")),
        ("9-10 Mar (the 11th read as excluded)", whole_days("2026-03-09", "2026-03-11", "+01:00")),
        ("10-11 Mar (the 9th read as excluded)", whole_days("2026-03-10", "2026-03-12", "+01:00")),
        ("a sum of the kW samples (not energy)", {"_sum_kw": True}),
    ],
    "b21-21": [
        (
            "reversed (Conche 2 - Conche 1)",
            {"a": {"asset": "Conche 2", "sensor": "Mass Temp"}, "b": {"asset": "Conche 1", "sensor": "Mass Temp"}},
        ),
        ("Conche 1's mean alone", {"derive": None, "asset": "Conche 1", "sensor": "Mass Temp"}),
        ("the ratio", {"derive": "ratio"}),
        ("the sum", {"derive": "sum"}),
    ],
    "b21-22": [
        ("Air Compressor 1 (the lead)", {"asset": "Air Compressor 1"}),
        ("the hours stopped (below)", {"direction": "below"}),
    ],
    "b21-23": [
        ("ranked by the mean instead of the peak", {"by": "mean"}),
        ("ranked by the setpoint", {"sensor": "Tunnel Air Temp Setpoint"}),
        ("order lowest", {"order": "lowest"}),
    ],
    "b21-26": [
        ("ranked by the setpoint (the deepest Plate Temp Setpoint)", {"sensor": "Plate Temp Setpoint"}),
        ("order highest (the warmest)", {"order": "highest"}),
    ],
    "b21-27": [
        ("read with the winter offset -09:00 (an hour early on the clock)", {"_shift_h": -1}),
        ("the minimum's time", {"extreme": "min"}),
        ("the engine room's Room Temp peak", {"sensor": "Room Temp"}),
    ],
    "b21-28": [
        ("the Discharge Pressure (psi) over 400", {"sensor": "Discharge Pressure"}),
        ("the Motor Power (kW) over 400", {"sensor": "Motor Power"}),
        ("Seawater Pump 1", {"asset": "Seawater Pump 1"}),
        ("below 400 instead of above", {"direction": "below"}),
    ],
    "b21-29": [
        ("the command Slide Valve Cmd instead of the position feedback", {"sensor": "Slide Valve Cmd"}),
        ("Booster Compressor 1's slide valve", {"asset": "Booster Compressor 1"}),
    ],
    "b21-30": [
        ("below its setpoint instead of above", {"direction": "below"}),
        ("above a fixed 0 °F instead of its setpoint", {"limit_sensor": None, "limit": 0.0}),
    ],
    "b21-33": [("order lowest (the week that used less)", {"order": "lowest"})],
}
#: other readings that must PASS the check too (an honest alternative computation)
RIGHT_TOO = {
    "b21-05": [("the ratio of the day's means", {"_ratio_of_means": True})],
    "b21-15": [("ranked by the mean Motor Power (the same week, no gaps)", {"by": "mean"})],
    "b21-20": [("the Energy register's difference, 9 Mar 00:00 to 12 Mar 00:00", {"_register": "Energy"})],
}
#: slot-dependent questions checked otherwise than by WRONG (the gap question: the check demands status `partial`)
SLOT_OTHER = {"b21-09"}
#: the point a `partial` gap question asks about
GAP_POINT = {"b21-09": (W, "Bottling Line", "Bottle Rate")}

HEAD = """# Blind set 21: the true answers

Written by `python bench/blind21/truth.py` from `plant.json` and `plant.csv.gz` alone (never the agent's code or the
checker). Times are site-local unless an offset is shown.

## Definitions

- Windows are [start, end): a day is [00:00, next 00:00) in site time; a week starts on Monday. 'yesterday', 'last
  week', 'the week before', 'on saturday', 'on monday', 'sunday the eighth', 'from the ninth to the eleventh of march
  including the eleventh', 'right now', 'half past ten yesterday morning' resolve from the task's `now` in the site's
  zone.
- Kodiak's clocks go FORWARD on Sun 8 Mar 2026 (02:00 AKST -09:00 → 03:00 AKDT -08:00): the day has 23 hours (92
  samples), the week of 2 Mar 668 samples. Johannesburg keeps +02:00 and Zurich +01:00 all along (Zurich's change is
  on 29 Mar, after the data).
- Spacing: the lower median of the sample intervals (15 min); an interval over 3 × spacing is a gap.
- Energy (kWh): Σ (v_i + v_{i+1}) / 2 × Δt over consecutive samples in the window that are not a gap; W ÷ 1000,
  MW × 1000. The last interval counted ends at the window's last sample (23:45 on a day).
- A derived series (difference, ratio of two points) is taken on identical timestamps; a ratio drops b = 0.
- An excursion is a sample strictly past the limit; against a setpoint, the same asset's setpoint point at the same
  instant.
- Time past a limit: each sample past it holds until the next compared sample, at most one spacing, the last cut at
  the window's end. Share = samples past / samples compared.
- Signed power: the wine estate's `Battery Power` is + when the battery discharges (carrying the cellar through load
  shedding) and − when it charges from the grid (its `description` says so); 'charging' is the time below 0.
- Command and feedback: a tank's `Glycol Valve Cmd` is what the controller asks, `Glycol Valve Position` where the
  valve is; the same for the ammonia compressors' `Slide Valve Cmd` and `Slide Valve Position`.
- Clear-cut (checked; exit 1 otherwise): every window is what the question's words mean from its `now`; a ranking's
  runner-up and two compared periods ≥ 3 % apart; an extreme held at a single instant with the next value clearly
  apart; no compared sample within 0.1 of a duration limit or of the limit of an excursion answered No; no gap inside
  any asked window; a value-at instant holds a sample, and the samples an hour (or the site's UTC offset) away fail its
  tolerance; a misread window (the period before or after, a UTC day) fails an aggregate's tolerance; an energy's
  register difference passes its tolerance; 'missing' things are missing; the gap question's instant lies inside a
  gap with no sample in the hour before it; every `now` carries its site's own offset and lies inside its data, and
  every window lies before it; the answer is the one plant.yaml designed; and for every slot-dependent question, each
  wrong reading listed under "slot readings" (the other order, the setpoint or the command instead of the measured
  value, another point of the same asset in another unit, the discharging hours instead of the charging ones, the
  inverse ratio, the reversed difference, a single day of a range, a sum of kW samples, the time read in the winter
  offset, …) gives an answer that FAILS the check, and the honest alternatives listed as "also right" pass it.
"""

#: a task's first tag -> its site
SITE_BY_WORD = {"winery": W, "zurich": Z, "kodiak": K}


class Truth21(Truth):
    """The shared checks, with this set's own: two wrong readings (a sum of kW samples taken for energy; the time of
    an extreme read with the winter offset on the day the clocks go forward) and the candidates an ambiguous
    question's answer must name."""

    def verdict(self, kind, c):
        if kind == "energy" and c.get("_sum_kw"):
            return sum(v for _, v in self.P.series(c["site"], c["asset"], c["sensor"], T(c["start"]), T(c["end"])))
        if kind == "time_of_extreme" and c.get("_shift_h"):
            base = {k: v for k, v in c.items() if k != "_shift_h"}
            return [t + dt.timedelta(hours=c["_shift_h"]) for t in super().verdict(kind, base)]
        return super().verdict(kind, c)

    def do_check(self, tid, kind, c, task):
        if kind == "answer_mentions_all":  # the ambiguous question's candidates (main() hands them one by one)
            site = self.SITE_BY_WORD[task["tags"][0]]
            e = self.P.equip(site, c)
            pts = ", ".join(p.nav for p in e.points.values()) if e else ""
            self.out.append(
                f"- names the candidate **{c}** ({', '.join(sorted(e.markers)) if e else 'NO ASSET'}: {pts})"
            )
            if e is None:
                self.bad(tid, f"the candidate {c} is no asset of {site}")
            return
        super().do_check(tid, kind, c, task)


if __name__ == "__main__":
    sys.exit(Truth21(HERE, globals()).main())
