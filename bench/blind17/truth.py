"""Compute every answer of blind.yaml from plant.json + plant.csv.gz alone, check that each is clear-cut and the one
intended, that each task's windows are what its words say (resolved here from the task's `now`), that every slot's
wrong readings fail and its honest alternatives pass, and write truth.md. Exit 1 when anything is not clear-cut or
disagrees.

Usage: python bench/blind17/truth.py
"""

from __future__ import annotations

import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))
from blind_truthlib import energy  # noqa: E402
from blindkit.truth import T, Truth  # noqa: E402

OK = "Ol Kalou Dairy"
SM = "Shek Mun Aquatic Centre"
TY = "Tyenna Pumped Storage"

# What each question's words mean, written from the question alone (not from its expect block). Phrases:
#   "yesterday", "today", "last week", "week before last", "weekday:N" (the latest such weekday before today,
#   Monday = 0), "dates:D0:D1" (both days included); "at": (day phrase, clock time or "now"); "gap_at" likewise.
WORDS = {
    "b17-01": {"win": "last week"},
    "b17-02": {"win": "weekday:1"},
    "b17-03": {"win": "yesterday"},
    "b17-04": {"win": "weekday:5"},
    "b17-05": {"win": "yesterday"},
    "b17-06": {"win": "yesterday"},
    "b17-07": {"at": ("today", "06:00")},
    "b17-08": {"win": "dates:2026-03-28:2026-03-30"},
    "b17-10": {"gap_at": ("today", "03:00")},
    "b17-11": {"win": "yesterday"},
    "b17-15": {"win": "yesterday"},
    "b17-16": {"win": "last week"},
    "b17-17": {"periods": ("last week", "week before last")},
    "b17-18": {"win": "dates:2026-04-01:2026-04-03"},
    "b17-19": {"win": "dates:2026-04-03:2026-04-06"},
    "b17-22": {"win": "weekday:2"},
    "b17-26": {"win": "yesterday"},
    "b17-27": {"win": "last week"},
    "b17-28": {"win": "weekday:1"},
    "b17-29": {"win": "dates:2026-04-05:2026-04-05"},
    "b17-30": {"periods": ("last week", "week before last")},
    "b17-31": {"win": "dates:2026-04-05:2026-04-05"},
    "b17-33": {"win": "weekday:3"},
    "b17-34": {"win": "last week"},
    "b17-35": {"win": "yesterday"},
    "b17-36": {"at": ("today", "now")},
}

# The answers the plant was designed to give (plant.yaml's events), to catch a plant that drifted from its design.
DESIGN = {
    "b17-01": "Ammonia Compressor 3",
    "b17-02": "Pasteuriser 1",
    "b17-03": True,
    "b17-04": ("h", 3.5),
    "b17-11": {"instant of the extreme": "2026-04-10 22:30"},
    "b17-15": ("h", 5.5),
    "b17-16": "Boiler 1",
    "b17-17": "first",
    "b17-21": 3,
    "b17-24": False,
    "b17-25": "Unit 1",
    "b17-26": "2026-03-26 05:15",
    "b17-27": True,
    "b17-28": ("h", 3.25),
    "b17-30": "first",
    "b17-33": {"instant of the extreme": "2026-04-09 16:30", "instant": "2026-04-09 16:30"},
    "b17-34": "Unit 3",
}
#: value-at tasks whose series is flat around the instant (so a misread instant passes too), and why that is kept
FLAT: dict[str, str] = {}
#: aggregate tasks whose misread window would pass as well, and why that is kept
SAME_ANYWAY: dict[str, str] = {}
#: samples a window must hold (Hobart's 25-hour Sunday 5 Apr and the week holding it)
SAMPLES = {
    "b17-29": 100,
    "b17-30": (676, 672),
    "b17-31": 100,
    "b17-34": 676,
}
#: energy tasks checked against their register point; on a day that is not 24 hours long, 24 x the mean power must fail
REGISTER = {"b17-19": "Energy", "b17-29": "Energy"}
#: the least margin of an excursion answered Yes where a small dip is the point; elsewhere max(0.5, 2 % of the limit)
MARGIN_FLOOR = {"b17-03": 0.5}


def _w(d0: str, d1: str, off: str) -> dict:
    """A window of whole days d0 .. d1 (d1 excluded) at a site whose offset is `off` all along."""
    return {"start": f"{d0}T00:00:00{off}", "end": f"{d1}T00:00:00{off}"}


def _p(d0: str, d1: str, off0: str, off1: str) -> dict:
    """A period [d0 00:00, d1 00:00) whose ends carry their own offsets."""
    return {"start": f"{d0}T00:00:00{off0}", "end": f"{d1}T00:00:00{off1}"}


# The slot-dependent questions: readings a program could silently default to. Each must give a DIFFERENT verdict from
# the true one (a ranks winner, a yes/no, hours past a limit, a number outside the tolerance, an instant outside the
# tolerance, the other period, other rows of a file). Each entry: (what the wrong reading is, overrides merged into the
# check).
WRONG = {
    "b17-01": [
        ("order lowest (the least loaded)", {"order": "lowest"}),
        ("ranked by Motor Power (kW) instead of the slide valve", {"sensor": "Motor Power"}),
    ],
    "b17-02": [
        ("order highest (the most productive)", {"order": "highest"}),
        ("Monday instead of Tuesday", _w("2026-04-06", "2026-04-07", "+03:00")),
    ],
    "b17-03": [
        ("a fixed 73.0 °C (the setpoint before the ESL change)", {"limit_sensor": None, "limit": 73.0}),
        ("the legal minimum 72 °C instead of its setpoint", {"limit_sensor": None, "limit": 72.0}),
        ("Pasteuriser 1 against its own setpoint", {"asset": "Pasteuriser 1"}),
    ],
    "b17-04": [
        ("the silo's Level (%) instead of the milk temp (°C)", {"sensor": "Level"}),
        ("below instead of above", {"direction": "below"}),
        ("Silo 1 instead of Silo 2", {"asset": "Silo 1"}),
    ],
    "b17-05": [
        (
            "the inverse (main incomer over the NH3 plant)",
            {
                "a": {"asset": "Main Incomer", "sensor": "Active Power"},
                "b": {"asset": "NH3 Plant Meter", "sensor": "Active Power"},
            },
        ),
        ("the difference (kW)", {"derive": "difference"}),
        ("the NH3 plant's mean kW alone", {"derive": None, "asset": "NH3 Plant Meter", "sensor": "Active Power"}),
    ],
    "b17-06": [
        (
            "the inverse (litres of oil per kg of steam)",
            {"a": {"asset": "Boiler 1", "sensor": "Fuel Flow"}, "b": {"asset": "Boiler 1", "sensor": "Steam Flow"}},
        ),
        ("the Steam Flow's mean alone", {"derive": None, "asset": "Boiler 1", "sensor": "Steam Flow"}),
        ("the difference", {"derive": "difference"}),
        ("the day before (Tuesday, before the burner service)", _w("2026-04-07", "2026-04-08", "+03:00")),
    ],
    "b17-08": [
        ("28 Mar only", _w("2026-03-28", "2026-03-29", "+03:00")),
        ("30 Mar only", _w("2026-03-30", "2026-03-31", "+03:00")),
        ("28-29 Mar (the 30th read as exclusive)", _w("2026-03-28", "2026-03-30", "+03:00")),
        ("29-30 Mar", _w("2026-03-29", "2026-03-31", "+03:00")),
    ],
    "b17-15": [
        ("below instead of above", {"direction": "below"}),
        ("PHAHU-1 instead of PHAHU-2", {"asset": "PHAHU-1"}),
        ("the return air temp RAT (°C) against the RH setpoint", {"sensor": "RAT"}),
        ("a fixed 65 %RH instead of its setpoint", {"limit_sensor": None, "limit": 65.0}),
    ],
    "b17-16": [
        ("order lowest (the least gas)", {"order": "lowest"}),
        ("ranked by Firing Rate (%) instead of gas", {"sensor": "Firing Rate"}),
    ],
    "b17-17": [
        ("order highest (the week with the higher chlorine)", {"order": "highest"}),
        ("the teaching pool instead of the main pool", {"asset": "Teaching Pool"}),
    ],
    "b17-18": [
        ("1 Apr only", _w("2026-04-01", "2026-04-02", "+08:00")),
        ("3 Apr only", _w("2026-04-03", "2026-04-04", "+08:00")),
        ("1-2 Apr (the 3rd read as exclusive)", _w("2026-04-01", "2026-04-03", "+08:00")),
        ("2-3 Apr", _w("2026-04-02", "2026-04-04", "+08:00")),
    ],
    "b17-19": [
        ("Sat-Sun only (the plain weekend)", _w("2026-04-04", "2026-04-06", "+08:00")),
        ("Fri-Sun (Easter Monday left out)", _w("2026-04-03", "2026-04-06", "+08:00")),
        ("Sat-Mon (Good Friday left out)", _w("2026-04-04", "2026-04-07", "+08:00")),
    ],
    "b17-25": [("order highest (the least pumping)", {"order": "highest"})],
    "b17-26": [("the max of the signed Active Power (the peak generated)", {"extreme": "max"})],
    "b17-27": [("the reservoir's Level (m) instead of its Storage (%)", {"sensor": "Level"})],
    "b17-28": [
        ("the unit's Speed (rpm)", {"sensor": "Speed"}),
        ("the unit's Thrust Bearing Temp (°C)", {"sensor": "Thrust Bearing Temp"}),
        ("below instead of above", {"direction": "below"}),
    ],
    "b17-29": [("24 x the day's mean power (a 24-hour day assumed)", {"_mean24": True})],
    "b17-30": [
        ("gross generation (the positive part only, as the Gen Energy register)", {"_gross": True}),
        ("order lowest", {"order": "lowest"}),
    ],
    "b17-31": [
        ("24 hours from 00:00+11:00 (the last hour left out)", _p("2026-04-05", "2026-04-06", "+11:00", "+11:00")),
        ("from 00:00+10:00 (the first hour left out)", _p("2026-04-05", "2026-04-06", "+10:00", "+10:00")),
    ],
    "b17-34": [
        ("ranked by the mean instead of the peak", {"by": "mean"}),
        ("order lowest", {"order": "lowest"}),
    ],
    "b17-35": [
        ("the upper reservoir's mean Level alone", {"derive": None, "asset": "Upper Reservoir", "sensor": "Level"}),
        ("the ratio", {"derive": "ratio"}),
        ("the sum", {"derive": "sum"}),
        (
            "the Storage (%) difference",
            {
                "a": {"asset": "Upper Reservoir", "sensor": "Storage"},
                "b": {"asset": "Lower Reservoir", "sensor": "Storage"},
            },
        ),
    ],
}
#: other readings that must PASS the check too (an honest alternative computation)
RIGHT_TOO = {
    "b17-05": [
        ("the ratio of the day's means (the energy share)", {"_ratio_of_means": True}),
        (
            "the registers: NH3 Energy difference ÷ Main Incomer Energy difference, 00:00 to 00:00",
            {"_registers": ("NH3 Plant Meter", "Energy", "Main Incomer", "Energy")},
        ),
    ],
    "b17-06": [("the ratio of the day's means", {"_ratio_of_means": True})],
    "b17-19": [("the Energy register's difference, Fri 00:00 to Tue 00:00", {"_register": "Energy"})],
    "b17-29": [("the Energy register's difference, 00:00+11:00 to 00:00+10:00", {"_register": "Energy"})],
}
#: slot-dependent questions checked otherwise than by WRONG: the gap question and the ambiguous asset (the check
#: demands status `partial`), what the SkySpark does not record, the forecast
SLOT_OTHER = {"b17-09", "b17-10", "b17-14", "b17-20", "b17-32"}
#: the point a `partial` gap question asks about
GAP_POINT = {"b17-10": (OK, "Cold Store", "Room Temp")}


class Truth17(Truth):
    """Blind 17's one addition: a wrong reading of two periods' net energy that takes the positive part only (the
    gross generation a Gen Energy register counts), `_gross`."""

    def verdict(self, kind: str, c: dict):
        if kind == "periods" and c.get("_gross"):
            unit = self.P.point(c["site"], c["asset"], c["sensor"]).unit
            vals = {}
            for w in ("first", "second"):
                ser = self.P.series(c["site"], c["asset"], c["sensor"], T(c[w]["start"]), T(c[w]["end"]))
                vals[w] = energy([(t, max(v, 0.0)) for t, v in ser], unit)
            return (max if c["order"] == "highest" else min)(vals, key=vals.get)
        return super().verdict(kind, c)


HEAD = """# Blind set 17: the true answers

Written by `python bench/blind17/truth.py` from `plant.json` and `plant.csv.gz` alone (never the agent's code or the
checker). Times are site-local unless an offset is shown.

## Definitions

- Windows are [start, end): a day is [00:00, next 00:00) in site time; a week starts on Monday. 'yesterday', 'this
  morning' (today), 'last week', 'the week before' (the week before last week), 'Tues', 'Wed', 'Thurs', 'Sat' (the
  latest such day before today), 'Sat 28th to Mon 30th Mar inc.', '1st-3rd Apr inc.', 'Good Fri to Easter Mon inc.'
  (both days included) and 'Easter Sunday (the 5th)' resolve from the task's `now` in the site's zone; 'o/n between
  22:00 and 06:00' is [yesterday 22:00, today 06:00).
- Hobart's clocks go BACK on Sun 5 Apr 2026 (03:00 +11:00 → 02:00 +10:00): 02:00–02:45 happen twice, the day has 25
  hours (100 samples) and the week of 30 Mar 676 samples. Nairobi keeps +03:00 and Hong Kong +08:00 all along.
- Spacing: the lower median of the sample intervals (15 min); an interval over 3 × spacing is a gap.
- Energy (kWh): Σ (v_i + v_{i+1}) / 2 × Δt over consecutive samples in the window that are not a gap; W ÷ 1000,
  MW × 1000. The last interval counted ends at the window's last sample (23:45 on a day).
- A derived series (difference, ratio of two points) is taken on identical timestamps; a ratio drops b = 0.
- An excursion is a sample strictly past the limit; against a setpoint, the same asset's setpoint point at the same
  instant.
- Time past a limit: each sample past it holds until the next compared sample, at most one spacing, the last cut at
  the window's end. Share = samples past / samples compared.
- Signed power: a hydro unit's `Active Power` (MW) is + when it generates (export) and − when it pumps (import);
  `Gen Energy` and `Pump Energy` (MWh) are the registers of each part. 'The most pumping' is the most negative energy
  of `Active Power` over a window where no unit generates; 'the heaviest pumping draw' its minimum; 'net of pumping'
  the energy of the signed series.
- Clear-cut (checked; exit 1 otherwise): every window is what the question's words mean from its `now`; a ranking's
  runner-up and two compared periods ≥ 3 % apart; an extreme held at a single instant with the next value clearly
  apart; no compared sample within 0.1 of a duration limit or of the limit of an excursion answered No; an excursion
  answered Yes has more than one sample past the limit and its most extreme one at least max(0.5, 2 % of the limit)
  past it (0.5 °C for the pasteuriser's holding tube); no gap inside any asked window; a value-at instant holds a
  sample, and the samples an hour (or the site's UTC offset) away fail its tolerance; a misread window (the period
  before or after, a UTC day) fails an aggregate's tolerance; an energy's register difference passes its tolerance and,
  on the 25-hour day, 24 × the mean power fails it; 'missing' things are missing; 'not recorded' assets exist without
  the attribute's tags; the gap question's instant lies inside a gap with no sample in the hour before it; every `now`
  carries its site's own offset and lies inside its data, and every window lies before it; the answer is the one
  make_plant.py designed; and for every slot-dependent question, each wrong reading listed under "slot readings" (the
  other order, another point of the same asset, a point in another unit, a stale or fixed setpoint, the gross instead
  of the net, the other extreme, a part of a date range, the inverse ratio, 24 × the mean on the 25-hour day, …) gives
  an answer that FAILS the check, and the honest alternatives listed as "also right" pass it.
"""

#: a task's first tag -> its site
SITE_BY_WORD = {"olkalou": OK, "shekmun": SM, "tyenna": TY}


if __name__ == "__main__":
    sys.exit(Truth17(HERE, globals()).main())
