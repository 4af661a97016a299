"""Compute every answer of blind.yaml from plant.json + plant.csv.gz alone, check that each is clear-cut and the one
intended, that each task's windows are what its words say (resolved here from the task's `now`), that each
slot-dependent question's wrong readings fail and its honest alternatives pass, and write truth.md. Exit 1 when
anything is not clear-cut or disagrees. The checks are the shared ones (bench/blindkit/truth.py); this file holds
the set's tables and a thin subclass for two things the shared checks do not cover.

Usage: python bench/blind22/truth.py
"""

from __future__ import annotations

import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))
from blind_truthlib import at  # noqa: E402
from blindkit.truth import T, Truth, whole_days  # noqa: E402

BG = "Bergen E-Ferry Terminal"
KK = "Kenkiyak Crude Pump Station"
BL = "Bac Lieu Shrimp Farm"
OSL, AQT, HCM = "+01:00", "+05:00", "+07:00"

# What each question's words mean, written from the question alone (not from its expect block).
WORDS = {
    "b22-01": {"win": "dates:2027-01-01:2027-01-31"},
    "b22-02": {"win": "dates:2027-01-01:2027-01-31"},
    "b22-03": {"win": "dates:2027-01-19:2027-01-19"},
    "b22-04": {"win": "last week"},
    "b22-05": {"win": "last week"},
    "b22-08": {"periods": ("dates:2027-01-11:2027-01-17", "dates:2027-01-25:2027-01-31")},
    "b22-09": {"win": "last week"},
    "b22-10": {"win": "last week"},
    "b22-12": {"at": ("today", "now")},
    "b22-13": {"win": "last week"},
    # "year to date" on Mon 8 Feb 00:45: 1 January 00:00 to today 00:00 (today's 45 minutes: see RIGHT_TOO)
    "b22-14": {"win": "dates:2027-01-01:2027-02-07"},
    "b22-15": {"win": "last week"},
    "b22-17": {"periods": ("dates:2027-01-18:2027-01-24", "dates:2027-01-25:2027-01-31")},
    "b22-18": {"win": "dates:2027-02-01:2027-02-07"},
    "b22-19": {"win": "dates:2027-01-25:2027-01-25"},
    "b22-21": {"win": "dates:2027-01-01:2027-01-31"},
    "b22-22": {"win": "last week"},
    "b22-23": {"win": "yesterday"},
    "b22-24": {"win": "last week"},
    "b22-25": {"win": "dates:2027-01-01:2027-01-31"},
    "b22-26": {"win": "dates:2027-01-28:2027-01-28"},
    "b22-27": {"win": "last week"},
    "b22-29": {"win": "last week"},
    "b22-30": {"periods": ("dates:2027-01-01:2027-01-15", "dates:2027-01-16:2027-01-31")},
    "b22-31": {"win": "dates:2027-01-27:2027-01-28"},
    "b22-33": {"win": "yesterday"},
    "b22-34": {"win": "weekday:5"},
    "b22-35": {"gap_at": ("today", "03:00")},
}

# The answers the plant was designed to give (plant.yaml's events), to catch a plant that drifted from its design.
DESIGN = {
    "b22-02": "2027-01-19 10:00",
    "b22-03": "2027-01-19 16:15",
    "b22-08": "first",
    "b22-09": {"instant of the extreme": "2027-02-03 07:00"},
    "b22-10": ("h", 5.5),
    "b22-17": "second",
    "b22-21": "P-101A",
    "b22-22": ("h", 163.25),
    "b22-24": False,
    "b22-25": "AER-8",
    "b22-26": ("h", 4.5),
    "b22-27": True,
    "b22-30": "second",
    "b22-33": ("h", 20.25),
    "b22-34": "2027-01-16 04:15",
}
#: energy tasks checked against their register point
REGISTER = {"b22-01": "Import Energy", "b22-14": "Import Energy"}
#: durations whose samples past the limit come in more than one run (a machine that stopped and started again)
MULTI_RUN = {"b22-22", "b22-33"}

# The slot-dependent questions: readings a program could silently default to. Each must give a DIFFERENT verdict from
# the true one. Each entry: (what the wrong reading is, overrides merged into the check).
WRONG = {
    "b22-01": [
        ("January without the 31st (the end read as exclusive)", whole_days("2027-01-01", "2027-01-31", OSL)),
        ("from 2 January (the start read as exclusive)", whole_days("2027-01-02", "2027-02-01", OSL)),
        ("January up to now (into 8 February)", {"end": "2027-02-08T09:30:00+01:00"}),
    ],
    "b22-02": [
        ("the minimum demand's time", {"extreme": "min"}),
        (
            "Shore Charger 1's own peak (a charge the battery shaved)",
            {"asset": "Shore Charger 1", "sensor": "Output Power"},
        ),
        ("the battery buffer's peak discharge", {"asset": "Battery Buffer", "sensor": "Battery Power"}),
    ],
    "b22-03": [
        ("the max of the signed Battery Power (its peak discharge)", {"extreme": "max"}),
        (
            "the grid connection's peak that day (the import, not the battery)",
            {"asset": "Grid Connection", "sensor": "Active Power", "extreme": "max"},
        ),
    ],
    "b22-04": [
        (
            "the inverse (electrical input over heat output)",
            {
                "a": {"asset": "Terminal Heat Pump", "sensor": "Electrical Power"},
                "b": {"asset": "Terminal Heat Pump", "sensor": "Heating Output"},
            },
        ),
        ("the difference (heat - electricity, kW)", {"derive": "difference"}),
        ("the week before (25-31 Jan, mild)", whole_days("2027-01-25", "2027-02-01", OSL)),
        ("the cold-spell week (11-17 Jan)", whole_days("2027-01-11", "2027-01-18", OSL)),
    ],
    "b22-08": [("order lowest (the week that consumed less)", {"order": "lowest"})],
    "b22-09": [
        ("the Power Limit (the setpoint, not the output)", {"sensor": "Power Limit"}),
        ("Shore Charger 2", {"asset": "Shore Charger 2"}),
        ("the mean output instead of the peak", {"aggregate": "mean"}),
    ],
    "b22-10": [
        ("below instead of above", {"direction": "below"}),
        ("a fixed 25 °C (a manufacturer's limit) instead of the setpoint", {"limit_sensor": None, "limit": 25.0}),
        ("the Cell Temp Max against the container setpoint", {"sensor": "Cell Temp Max"}),
    ],
    "b22-13": [
        (
            "the inverse (m³ per kWh)",
            {
                "a": {"asset": "Station Meter", "sensor": "Flow"},
                "b": {"asset": "Main Switchboard", "sensor": "Active Power"},
            },
        ),
        ("the grid import only (Grid Incomer) per m³", {"a": {"asset": "Grid Incomer", "sensor": "Active Power"}}),
        ("one pump's motor power (P-101A) per m³", {"a": {"asset": "P-101A", "sensor": "Motor Power"}}),
        ("the difference (kW - m³/h)", {"derive": "difference"}),
        ("the week before (25-31 Jan, the January nomination)", whole_days("2027-01-25", "2027-02-01", AQT)),
    ],
    "b22-14": [
        ("January only", whole_days("2027-01-01", "2027-02-01", AQT)),
        ("February to date only (month to date)", whole_days("2027-02-01", "2027-02-08", AQT)),
        ("the past 30 days", whole_days("2027-01-09", "2027-02-08", AQT)),
    ],
    "b22-17": [("order highest (the week that burned more)", {"order": "highest"})],
    "b22-18": [
        ("the Oil Temp's mean alone", {"derive": None, "asset": "TK-202", "sensor": "Oil Temp"}),
        ("the ratio setpoint / temperature", {"derive": "ratio"}),
        ("the sum", {"derive": "sum"}),
        (
            "TK-201 (the neighbouring tank)",
            {"a": {"asset": "TK-201", "sensor": "Oil Temp Setpoint"}, "b": {"asset": "TK-201", "sensor": "Oil Temp"}},
        ),
        ("the week before (25-31 Jan)", whole_days("2027-01-25", "2027-02-01", AQT)),
    ],
    "b22-21": [
        ("ranked by the mean vibration instead of the peak", {"by": "mean"}),
        ("order lowest", {"order": "lowest"}),
    ],
    "b22-22": [
        ("below instead of above (the hours off-line)", {"direction": "below"}),
        ("EDG-1 (the other generator)", {"asset": "EDG-1"}),
        ("every hour of the week (168 h: the trip missed)", {"limit": -1.0}),
    ],
    "b22-23": [
        ("the Speed Cmd (the command, not the feedback)", {"sensor": "Speed Cmd"}),
        ("VFD-101A", {"asset": "VFD-101A"}),
    ],
    "b22-24": [
        ("the Bearing Temp (°C) over 7.1", {"sensor": "Bearing Temp"}),
        ("the Discharge Pressure (bar) over 7.1", {"sensor": "Discharge Pressure"}),
        ("the Suction Pressure (bar) over 7.1", {"sensor": "Suction Pressure"}),
    ],
    "b22-25": [
        ("order highest (the most electricity)", {"order": "highest"}),
        ("the lowest peak kW instead of the energy", {"by": "max"}),
    ],
    "b22-26": [
        ("above instead of below", {"direction": "above"}),
        ("Pond 2", {"asset": "Pond 2"}),
        ("the Water Temp (°C) below 4", {"sensor": "Water Temp"}),
        ("the Salinity (ppt) below 4", {"sensor": "Salinity"}),
    ],
    "b22-27": [
        ("a fixed 32.5 °C instead of the setpoint", {"limit_sensor": None, "limit": 32.5}),
        ("the Water Temp Setpoint read as the measurement", {"sensor": "Water Temp Setpoint"}),
    ],
    "b22-30": [("order lowest", {"order": "lowest"})],
    "b22-31": [
        ("27 Jan only", whole_days("2027-01-27", "2027-01-28", HCM)),
        ("28 Jan only", whole_days("2027-01-28", "2027-01-29", HCM)),
        ("28-29 Jan", whole_days("2027-01-28", "2027-01-30", HCM)),
        ("Pond 3 alone (the pond of the incident)", {"assets": ["Pond 3"]}),
    ],
    "b22-33": [
        ("below instead of above (the hours stopped)", {"direction": "below"}),
        ("AER-4 (the other aerator of Pond 2)", {"asset": "AER-4"}),
        ("every hour of the day (24 h: the trip missed)", {"limit": -1.0}),
    ],
    "b22-34": [
        ("the minimum's time", {"extreme": "min"}),
        ("DG-1's Active Power peak (the load pick-up)", {"sensor": "Active Power"}),
    ],
}
#: other readings that must PASS the check too (an honest alternative computation)
RIGHT_TOO = {
    "b22-01": [("the Import Energy register's difference, 1 Jan 00:00 to 1 Feb 00:00", {"_register": "Import Energy"})],
    "b22-04": [("the ratio of the week's means (heat delivered / electricity used)", {"_ratio_of_means": True})],
    "b22-13": [("the ratio of the week's means (energy / volume)", {"_ratio_of_means": True})],
    "b22-14": [
        ("the Import Energy register's difference, 1 Jan 00:00 to 8 Feb 00:00", {"_register": "Import Energy"}),
        ("up to now (today's first 45 minutes included)", {"end": "2027-02-08T00:45:00+05:00"}),
    ],
    "b22-22": [("GTG-1's Run Hours counter, 1 Feb 00:00 to 8 Feb 00:00", {"_counter": "Run Hours"})],
    "b22-33": [("AER-3's Run Hours counter, 7 Feb 00:00 to 8 Feb 00:00", {"_counter": "Run Hours"})],
}
#: slot-dependent questions checked otherwise than by WRONG (the gap question: the check demands status `partial`)
SLOT_OTHER = {"b22-35"}
#: the point a `partial` gap question asks about
GAP_POINT = {"b22-35": (BL, "Pond 2", "Dissolved Oxygen")}

HEAD = """# Blind set 22: the true answers

Written by `python bench/blind22/truth.py` from `plant.json` and `plant.csv.gz` alone (never the agent's code or the
checker). Times are site-local unless an offset is shown.

## Definitions

- Windows are [start, end): a day is [00:00, next 00:00) in site time; a week starts on Monday. 'yesterday', 'last
  week', 'last wk', 'last month', 'the week of 11 January', 'the week commencing 1 February', '18 to 24 January',
  'the reporting period of January 2027 (1 to 31 January inclusive)', '1 to 15 January', '27 and 28 January',
  'Sat ... (16 Jan)', 'this morning' resolve from the task's `now` in the site's zone. 'Year to date' on Mon 8 Feb
  at 00:45 is 1 January 00:00 to 8 February 00:00 (the kit's month-to-date convention); the 45 minutes of today are
  also accepted (they change the figure by under 0.1 %).
- No clock changes inside the data: Oslo keeps +01:00 (winter), Aqtobe +05:00 and Ho Chi Minh City +07:00 all along.
- Spacing: the lower median of the sample intervals (15 min); an interval over 3 x spacing is a gap.
- Energy (kWh): sum of (v_i + v_{i+1}) / 2 x dt over consecutive samples in the window that are not a gap. The last
  interval counted ends at the window's last sample (23:45 on a day).
- A derived series (difference, ratio of two points) is taken on identical timestamps; a ratio drops b = 0.
- An excursion is a sample strictly past the limit; against a setpoint, the same asset's setpoint point at the same
  instant.
- Time past a limit: each sample past it holds until the next compared sample, at most one spacing, the last cut at
  the window's end. Share = samples past / samples compared. Run hours are the time the machine's power is above a
  threshold well below its running load (GTG-1 100 kW, an aerator 0.5 kW; stopped, both read 0); the machine's
  `Run Hours` counter (h) gives the same hours.
- Signed power: the ferry terminal's `Battery Power` is + when the buffer discharges to the shore chargers and - when
  it recharges from the grid (its `description` says so); its highest recharging rate is the series' minimum.
- Clear-cut (checked; exit 1 otherwise): every window is what the question's words mean from its `now`; a ranking's
  runner-up and two compared periods >= 3 % apart; an extreme held at a single instant with the next value clearly
  apart; no compared sample within 0.1 of a duration limit or of the limit of an excursion answered No; an excursion
  answered Yes has more than one sample past the limit and its most extreme one well past it; no gap inside any asked
  window; a value-at instant holds a sample, and the samples an hour away fail its tolerance; a misread window (the
  period before or after, a UTC day) fails an aggregate's tolerance; an energy's register difference passes its
  tolerance; 'missing' and 'not recorded' things are so; the gap question's instant lies inside a gap with no sample
  in the hour before it; every `now` carries its site's own offset and lies inside its data, and every window lies
  before it; the answer is the one plant.yaml designed; and for every slot-dependent question, each wrong reading
  listed under "slot readings" gives an answer that FAILS the check, and the honest alternatives listed as "also
  right" pass it.
"""

#: a task's first tag -> its site
SITE_BY_WORD = {"bergen": BG, "kenkiyak": KK, "baclieu": BL}


class Truth22(Truth):
    """The shared checks, with this set's own: a machine's run hours read from its `Run Hours` counter (an honest
    alternative to the time above a threshold), and the candidates an ambiguous question's answer must name."""

    def verdict(self, kind, c):
        if kind == "duration" and c.get("_counter"):
            s0, e0 = T(c["start"]), T(c["end"])
            reg = self.P.point(c["site"], c["asset"], c["_counter"])
            hours = at(reg, e0, 0)[1] - at(reg, s0, 0)[1]
            return hours, hours / ((e0 - s0).total_seconds() / 3600) * 100
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
    sys.exit(Truth22(HERE, globals()).main())
