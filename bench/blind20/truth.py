"""Compute every answer of blind.yaml from plant.json + plant.csv.gz alone, check that each is clear-cut and the one
intended, that each task's windows are what its words say (resolved here from the task's `now`), that each
slot-dependent question's wrong readings fail and its honest alternatives pass, and write truth.md. Exit 1 when
anything is not clear-cut or disagrees. The checks are the shared ones (bench/blindkit/truth.py); this file holds
only the set's tables and a thin subclass (`Truth20`: "the fortnight before last", windows given in clock times, the
candidates of an ambiguous question).

Usage: python bench/blind20/truth.py
"""

from __future__ import annotations

import datetime as dt
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))
from blindkit.truth import T, Truth, whole_days  # noqa: E402

TD = "Tejgaon Dye House"
CB = "Central Barracas Exchange"
GR = "Grafarholt Pumping Station"

# What each question's words mean, written from the question alone (not from its expect block).
WORDS = {
    "b20-02": {"win": "dates:2026-12-01:2026-12-01"},
    "b20-03": {"win": "last week"},
    "b20-04": {"win": "dates:2026-12-02:2026-12-02"},
    "b20-05": {"gap_at": ("dates:2026-11-29:2026-11-29", "03:00")},
    "b20-06": {"win": "dates:2026-11-09:2026-11-12"},
    "b20-07": {"win": "last week"},
    "b20-08": {"periods": ("dates:2026-11-02:2026-11-05", "dates:2026-11-23:2026-11-26")},
    "b20-11": {"win": "dates:2026-11-01:2026-11-30"},
    "b20-12": {"win": "dates:2026-11-26:2026-11-26"},
    "b20-13": {"win": "dates:2026-11-26:2026-11-26"},
    "b20-14": {"win": "dates:2026-11-26:2026-11-26"},
    "b20-15": {"win": "last week"},
    "b20-16": {"win": "dates:2026-11-30:2026-12-02"},
    "b20-17": {"win": "dates:2026-12-02:2026-12-02"},
    "b20-22": {"periods": ("dates:2026-11-01:2026-11-15", "dates:2026-11-16:2026-11-30")},
    "b20-23": {"win": "yesterday"},
    "b20-24": {"win": "last week"},
    "b20-25": {"win": "last week"},
    "b20-26": {"win": "past:7"},
    "b20-28": {"win": "last week"},
    "b20-29": {"win": "last week"},
    "b20-30": {"win": "dates:2026-12-01:2026-12-01"},
    "b20-31": {"win": "fortnight before last"},
    "b20-33": {"win": "dates:2026-11-25:2026-11-25"},
    "b20-34": {"win": "last week"},
}
#: windows the question gives in clock times on one day: (day, from, to), checked against the task's window
CLOCK = {
    "b20-01": ("2026-12-01", 8.0, 16.0),
    "b20-18": ("2026-12-02", 10.0, 11.0),
    "b20-27": ("2026-12-01", 6.0, 12.0),
}

# The answers the plant was designed to give (make_plant.py's events), to catch a plant that drifted from its design.
DESIGN = {
    "b20-01": ("h", 2.75),
    "b20-02": "2026-12-01 12:15",
    "b20-04": False,
    "b20-07": "Air Compressor 3",
    "b20-08": "second",
    "b20-12": "2026-11-26 03:00",
    "b20-13": ("h", 1.25),
    "b20-14": {"instant of the extreme": "2026-11-26 03:45"},
    "b20-15": "Rectifier Plant C",
    "b20-17": ("h", 6.5),
    "b20-18": False,
    "b20-22": "second",
    "b20-24": "CRAC-05",
    "b20-26": "PHE-2",
    "b20-29": ("h", 80.0),
    "b20-30": False,
    "b20-31": {"instant of the extreme": "2026-11-12 08:00"},
    "b20-33": ("h", 8.75),
    "b20-34": "Well Pump 2",
}
#: energy tasks checked against their register point
REGISTER = {"b20-11": "Energy"}

# The slot-dependent questions: readings a program could silently default to. Each must give a DIFFERENT verdict from
# the true one (a ranks winner, a yes/no, hours past a limit, a number outside the tolerance, an instant outside the
# tolerance, the other period, other rows of a file). Each entry: (what the wrong reading is, overrides merged into the
# check).
WRONG = {
    "b20-01": [
        ("above instead of below", {"direction": "above"}),
        ("Stenter 1 instead of Stenter 2", {"asset": "Stenter 1"}),
        ("the whole day (with the 06:00 restart)", whole_days("2026-12-01", "2026-12-02", "+06:00")),
    ],
    "b20-02": [
        ("the maximum's time", {"extreme": "max"}),
        ("the return TFR-T's minimum (it lags the supply)", {"sensor": "TFR-T"}),
    ],
    "b20-03": [
        ("the max of LIQ-T itself", {"derive": None, "asset": "JD-04", "sensor": "LIQ-T"}),
        (
            "the setpoint minus the measurement (SP - PV)",
            {"a": {"asset": "JD-04", "sensor": "LIQ-T SP"}, "b": {"asset": "JD-04", "sensor": "LIQ-T"}},
        ),
        ("the mean of the difference", {"aggregate": "mean"}),
        ("the min of the difference", {"aggregate": "min"}),
        (
            "JD-03's overshoot",
            {"a": {"asset": "JD-03", "sensor": "LIQ-T"}, "b": {"asset": "JD-03", "sensor": "LIQ-T SP"}},
        ),
    ],
    "b20-04": [
        ("the Outlet COD (mg/L) over 40", {"sensor": "Outlet COD"}),
        ("the Outlet TSS (mg/L) over 40", {"sensor": "Outlet TSS"}),
        ("the Inlet Temp (the equalisation tank) over 40 °C", {"sensor": "Inlet Temp"}),
    ],
    "b20-06": [
        (
            "the inverse (Nm³ per kg)",
            {"a": {"asset": "Boiler 1", "sensor": "Gas Flow"}, "b": {"asset": "Boiler 1", "sensor": "Steam Flow"}},
        ),
        (
            "Boiler 2's ratio",
            {"a": {"asset": "Boiler 2", "sensor": "Steam Flow"}, "b": {"asset": "Boiler 2", "sensor": "Gas Flow"}},
        ),
        ("9-11 Nov (the 12th read as exclusive)", whole_days("2026-11-09", "2026-11-12", "+06:00")),
        ("10-12 Nov (the 9th read as exclusive)", whole_days("2026-11-10", "2026-11-13", "+06:00")),
        ("the mean Steam Flow alone", {"derive": None, "asset": "Boiler 1", "sensor": "Steam Flow"}),
    ],
    "b20-07": [
        ("order highest (the most loaded)", {"order": "highest"}),
        ("ranked by Motor Power (the least power)", {"sensor": "Motor Power"}),
    ],
    "b20-08": [("order lowest (the lower period)", {"order": "lowest"})],
    "b20-11": [
        ("November without the 30th (the end read as exclusive)", whole_days("2026-11-01", "2026-11-30", "+06:00")),
        ("from 2 November", whole_days("2026-11-02", "2026-12-01", "+06:00")),
        ("November up to now (into 2 December)", {"end": "2026-12-02T11:15:00+06:00"}),
    ],
    "b20-12": [("the maximum's time (the peak recharge)", {"extreme": "max"})],
    "b20-13": [
        ("above 0 (the hours charging or floating)", {"direction": "above"}),
        ("the day before (no outage)", whole_days("2026-11-25", "2026-11-26", "-03:00")),
    ],
    "b20-14": [
        ("the min (the peak discharge, signed)", {"aggregate": "min"}),
        ("Battery String A", {"asset": "Battery String A"}),
        ("the day before", whole_days("2026-11-25", "2026-11-26", "-03:00")),
    ],
    "b20-15": [
        ("ranked by the mean Load", {"by": "mean"}),
        ("order lowest", {"order": "lowest"}),
    ],
    "b20-16": [
        (
            "the inverse (kW in per kW out)",
            {"a": {"asset": "CRAC-02", "sensor": "Input kW"}, "b": {"asset": "CRAC-02", "sensor": "Cooling kW"}},
        ),
        ("the mean Cooling kW alone", {"derive": None, "asset": "CRAC-02", "sensor": "Cooling kW"}),
        ("30 Nov - 1 Dec (the 2nd read as exclusive)", whole_days("2026-11-30", "2026-12-02", "-03:00")),
        (
            "CRAC-03's COP",
            {"a": {"asset": "CRAC-03", "sensor": "Cooling kW"}, "b": {"asset": "CRAC-03", "sensor": "Input kW"}},
        ),
    ],
    "b20-17": [
        ("below instead of above", {"direction": "below"}),
        ("CRAC-02 (it picked up the load)", {"asset": "CRAC-02"}),
        ("the supply air SAT against RAT SP", {"sensor": "SAT"}),
        ("a fixed 27 °C (the recommended inlet limit)", {"limit_sensor": None, "limit": 27.0}),
    ],
    "b20-18": [
        ("Output kW over 95", {"sensor": "Output kW"}),
        ("Oil Pressure (kPa) over 95", {"sensor": "Oil Pressure"}),
    ],
    "b20-22": [("order lowest (the half that used less)", {"order": "lowest"})],
    "b20-23": [
        ("SAT minus RAT", {"a": {"asset": "CRAC-04", "sensor": "SAT"}, "b": {"asset": "CRAC-04", "sensor": "RAT"}}),
        ("the mean RAT alone", {"derive": None, "asset": "CRAC-04", "sensor": "RAT"}),
        ("RAT minus RAT SP", {"b": {"asset": "CRAC-04", "sensor": "RAT SP"}}),
        ("CRAC-03's delta-T", {"a": {"asset": "CRAC-03", "sensor": "RAT"}, "b": {"asset": "CRAC-03", "sensor": "SAT"}}),
    ],
    "b20-24": [
        ("ranked by the peak kW", {"by": "max"}),
        ("order lowest", {"order": "lowest"}),
    ],
    "b20-25": [
        (
            "reversed (SEC-IN-T - PRI-OUT-T)",
            {"a": {"asset": "PHE-2", "sensor": "SEC-IN-T"}, "b": {"asset": "PHE-2", "sensor": "PRI-OUT-T"}},
        ),
        (
            "the hot end (PRI-IN-T - SEC-OUT-T)",
            {"a": {"asset": "PHE-2", "sensor": "PRI-IN-T"}, "b": {"asset": "PHE-2", "sensor": "SEC-OUT-T"}},
        ),
        (
            "PHE-1's cold-end approach",
            {"a": {"asset": "PHE-1", "sensor": "PRI-OUT-T"}, "b": {"asset": "PHE-1", "sensor": "SEC-IN-T"}},
        ),
        (
            "the primary delta-T (PRI-IN-T - PRI-OUT-T)",
            {"a": {"asset": "PHE-2", "sensor": "PRI-IN-T"}, "b": {"asset": "PHE-2", "sensor": "PRI-OUT-T"}},
        ),
    ],
    "b20-26": [
        ("ranked by the max DP (the strainer spike)", {"by": "max"}),
        ("order lowest", {"order": "lowest"}),
    ],
    "b20-27": [
        ("the whole day", whole_days("2026-12-01", "2026-12-02", "+00:00")),
        ("06:00 to 12:00 with the 12:00 sample (the end read as inclusive)", {"end": "2026-12-01T12:15:00+00:00"}),
        ("SUP-T only", {"sensor": ["SUP-T"]}),
    ],
    "b20-28": [
        (
            "the inverse (m³ per kWh)",
            {"a": {"asset": "Dist Pump 2", "sensor": "Flow"}, "b": {"asset": "Dist Pump 2", "sensor": "Motor kW"}},
        ),
        (
            "Dist Pump 1",
            {"a": {"asset": "Dist Pump 1", "sensor": "Motor kW"}, "b": {"asset": "Dist Pump 1", "sensor": "Flow"}},
        ),
        ("the mean Motor kW alone", {"derive": None, "asset": "Dist Pump 2", "sensor": "Motor kW"}),
        ("the week before", whole_days("2026-11-16", "2026-11-23", "+00:00")),
    ],
    "b20-29": [
        ("above instead of below", {"direction": "above"}),
        ("PHE-1", {"asset": "PHE-1"}),
        ("the week before", whole_days("2026-11-16", "2026-11-23", "+00:00")),
    ],
    "b20-30": [
        ("Motor kW over 48", {"sensor": "Motor kW"}),
        ("Well Temp (°C) over 48", {"sensor": "Well Temp"}),
    ],
    "b20-31": [
        ("the last fortnight (16-29 Nov)", whole_days("2026-11-16", "2026-11-30", "+00:00")),
        ("the week before last (16-22 Nov)", whole_days("2026-11-16", "2026-11-23", "+00:00")),
        ("the fortnight's first week only (2-8 Nov)", whole_days("2026-11-02", "2026-11-09", "+00:00")),
    ],
    "b20-33": [
        ("below instead of above", {"direction": "below"}),
        ("the header DP below DP SP", {"sensor": "DP", "limit_sensor": "DP SP", "direction": "below"}),
        ("the day after", whole_days("2026-11-26", "2026-11-27", "+00:00")),
    ],
    "b20-34": [
        ("ranked by Motor kW", {"sensor": "Motor kW"}),
        ("ranked by Flow", {"sensor": "Flow"}),
        ("order lowest", {"order": "lowest"}),
    ],
}
#: other readings that must PASS the check too (an honest alternative computation)
RIGHT_TOO = {
    "b20-06": [("the ratio of the window's means", {"_ratio_of_means": True})],
    "b20-11": [("the Energy register's difference, 1 Nov 00:00 to 1 Dec 00:00", {"_register": "Energy"})],
    "b20-16": [("the ratio of the window's means", {"_ratio_of_means": True})],
    "b20-28": [("the ratio of the week's means", {"_ratio_of_means": True})],
}
#: slot-dependent questions checked otherwise than by WRONG (the gap question: the check demands status `partial`)
SLOT_OTHER = {"b20-05"}
#: the point a `partial` gap question asks about
GAP_POINT = {"b20-05": (TD, "ETP", "Outlet pH")}

HEAD = """# Blind set 20: the true answers

Written by `python bench/blind20/truth.py` from `plant.json` and `plant.csv.gz` alone (never the agent's code or the
checker). Times are site-local unless an offset is shown.

## Definitions

- Windows are [start, end): a day is [00:00, next 00:00) in site time; a week starts on Monday. 'yesterday', 'last
  week', 'the past 7 days' (the 7 whole days before today), 'the fortnight before last' (the two calendar weeks before
  last fortnight: with `now` on Mon 30 Nov, 2 to 16 Nov), 'from 9 to 12 November', '2–5 November', '30 November to
  2 December inclusive', 'the first / second half of November' (1–15, 16–30), 'November' (1 Nov 00:00 to 1 Dec 00:00),
  'Tuesday 1 December' resolve from the task's `now` in the site's zone; b20-01's, b20-18's and b20-27's windows are
  the clock times the question gives.
- No clock changes: Dhaka keeps +06:00, Buenos Aires -03:00 and Reykjavik +00:00 (UTC) all along.
- Spacing: the lower median of the sample intervals (15 min); an interval over 3 × spacing is a gap.
- Energy (kWh): Σ (v_i + v_{i+1}) / 2 × Δt over consecutive samples in the window that are not a gap; W ÷ 1000,
  MW × 1000. The last interval counted ends at the window's last sample (23:45 on a day).
- A derived series (difference, ratio of two points) is taken on identical timestamps; a ratio drops b = 0. COP =
  Cooling kW ÷ Input kW; an evaporation ratio = Steam Flow (kg/h) ÷ Gas Flow (Nm³/h); a specific energy (kWh/m³) =
  Motor kW ÷ Flow (m³/h); the cold-end approach of a PHE = PRI-OUT-T − SEC-IN-T; a CRAC's air-side delta-T = RAT − SAT.
- An excursion is a sample strictly past the limit; against a setpoint (or a valve's command), the same asset's point at
  the same instant.
- Time past a limit: each sample past it holds until the next compared sample, at most one spacing, the last cut at
  the window's end. Share = samples past / samples compared.
- Signed current: a battery string's `Battery Current` is + when the rectifiers charge (or float) it and − when it
  discharges, carrying the -48 V load (its `description` says so); the peak discharge is the series' minimum.
- Clear-cut (checked; exit 1 otherwise): every window is what the question's words mean from its `now`; a ranking's
  runner-up and two compared periods ≥ 3 % apart; an extreme held at a single instant with the next value clearly
  apart; no compared sample within 0.1 of a duration limit or of the limit of an excursion answered No; no gap inside
  any asked window; a misread window (the period before or after, a UTC day) fails an aggregate's tolerance; an
  energy's register difference passes its tolerance; 'missing' things are missing; the gap question's instant lies
  inside a gap with no sample in the hour before it; every `now` carries its site's own offset and lies inside its
  data, and every window lies before it; the answer is the one make_plant.py designed; and for every slot-dependent
  question, each wrong reading listed under "slot readings" (the other order, the setpoint or another point of the
  same asset, a point in another unit that the limit's unit does not fit, the charge instead of the discharge, the
  inverse ratio, one series' mean instead of a ratio or a difference, the other end of a heat exchanger, another
  statistic of a ranking, a range read without its last or first day, the last fortnight instead of the one before,
  …) gives an answer that FAILS the check, and the honest alternatives listed as "also right" pass it.
"""

#: a task's first tag -> its site
SITE_BY_WORD = {"tejgaon": TD, "barracas": CB, "grafarholt": GR}


class Truth20(Truth):
    """The shared checks, with this set's own: 'the fortnight before last' resolved from `now`, the windows given in
    clock times checked against the question's words, and the candidates an ambiguous question's answer must name."""

    def resolve(self, phrase, now, tz):
        if phrase == "fortnight before last":  # the two calendar weeks before the last two
            today = now.astimezone(tz).date()
            monday = today - dt.timedelta(days=today.weekday())
            return self.midnight(monday - dt.timedelta(days=28), tz), self.midnight(monday - dt.timedelta(days=14), tz)
        return super().resolve(phrase, now, tz)

    def do_check(self, tid, kind, c, task):
        if tid in CLOCK and isinstance(c, dict):
            day, h0, h1 = CLOCK[tid]
            x = c.get("excursion", c)
            tz = self.P.site(x["site"]).tz
            want = tuple(
                dt.datetime.combine(dt.date.fromisoformat(day), dt.time(0), tz) + dt.timedelta(hours=hh)
                for hh in (h0, h1)
            )
            if (T(x["start"]), T(x["end"])) != want or T(x["start"]).utcoffset() != want[0].utcoffset():
                self.bad(tid, f"window {x['start']} .. {x['end']} is not {h0:g}:00 to {h1:g}:00 on {day}")
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
    sys.exit(Truth20(HERE, globals()).main())
