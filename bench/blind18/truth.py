"""Compute every answer of blind.yaml from plant.json + plant.csv.gz alone, check that each is clear-cut and the one
intended, that each task's windows are what its words say (resolved here from the task's `now`), that each
slot-dependent question's wrong readings fail and its honest alternatives pass, and write truth.md. Exit 1 when
anything is not clear-cut or disagrees. The checks are the shared ones (bench/blindkit/truth.py); this file holds
only the set's tables.

Usage: python bench/blind18/truth.py
"""

from __future__ import annotations

import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))
from blindkit.truth import T, Truth  # noqa: E402

AL = "Aliaga Steel Mini-Mill"
KP = "Kedron Park Shopping Centre"
SK = "Skierniewice Mushroom Farm"

# What each question's words mean, written from the question alone (not from its expect block).
WORDS = {
    "b18-01": {"win": "dates:2026-10-01:2026-10-31"},
    "b18-02": {"win": "last week"},
    "b18-03": {"win": "last week"},
    "b18-04": {"periods": ("dates:2026-10-19:2026-10-25", "dates:2026-10-26:2026-11-01")},
    "b18-05": {"win": "dates:2026-10-30:2026-10-30"},
    "b18-06": {"win": "last week"},
    "b18-07": {"win": "dates:2026-10-22:2026-10-22"},
    "b18-08": {"gap_at": ("dates:2026-10-20:2026-10-20", "11:30")},
    "b18-10": {"win": "yesterday"},
    "b18-11": {"win": "dates:2026-10-19:2026-10-19"},
    "b18-12": {"win": "last week"},
    "b18-14": {"win": "last week"},
    "b18-15": {"win": "dates:2026-10-20:2026-10-22"},
    "b18-16": {"win": "dates:2026-10-27:2026-10-29"},
    "b18-17": {"win": "last week"},
    "b18-18": {"win": "last week"},
    # b18-19: "Wednesday 28 October from 09:00 to 17:30" (clock times: no day phrase; the window is checked below)
    "b18-20": {"win": "last week"},
    "b18-22": {"win": "dates:2026-11-01:2026-11-01"},
    "b18-23": {"win": "dates:2026-10-25:2026-10-25"},
    "b18-26": {"win": "yesterday"},
    "b18-27": {"periods": ("dates:2026-10-19:2026-10-25", "last week")},
    "b18-28": {"at": ("monthday:1", "00:00")},
    "b18-30": {"win": "last week"},
    "b18-31": {"win": "dates:2026-10-28:2026-10-28"},
    "b18-32": {"win": "dates:2026-10-29:2026-10-29"},
    "b18-33": {"win": "dates:2026-10-30:2026-10-30"},
    "b18-34": {"win": "yesterday"},
}

# The answers the plant was designed to give (plant.yaml's events), to catch a plant that drifted from its design.
DESIGN = {
    "b18-04": "second",
    "b18-05": "2026-10-30 14:15",
    "b18-06": False,
    "b18-07": ("h", 3.5),
    "b18-09": ["Dust", "CO", "NOx", "O2", "Flue Gas Temp", "Flue Gas Flow"],
    "b18-10": "ID Fan 1",
    "b18-11": ("h", 4.0),
    "b18-12": "Air Compressor 2",
    "b18-14": "Supermarket Sub-Meter",
    "b18-17": "ESC-04",
    "b18-18": "AHU-04",
    "b18-20": True,
    "b18-21": 3,
    "b18-22": "2026-11-01 08:45",
    "b18-27": "first",
    "b18-29": 6,
    "b18-30": "Growing Room 2",
    "b18-31": ("h", 5.75),
    "b18-32": False,
    "b18-33": "2026-10-30 11:45",
    "b18-34": {"instant of the extreme": "2026-10-30 05:30"},
}
#: value-at tasks whose series is flat around the instant (so a misread instant passes too), and why that is kept
FLAT: dict[str, str] = {}
#: aggregate tasks whose misread window would pass as well, and why that is kept
SAME_ANYWAY: dict[str, str] = {}
#: samples a window must hold (Warsaw's 25-hour Sunday 25 Oct and the week holding it)
SAMPLES = {
    "b18-26": 100,
    "b18-27": (676, 672),
}
#: energy tasks checked against their register point; on a day that is not 24 hours long, 24 x the mean power must fail
REGISTER = {"b18-01": "Energy", "b18-15": "Energy", "b18-26": "Energy"}
#: durations whose samples past the limit come in more than one run
MULTI_RUN: set[str] = set()


def _w(d0: str, d1: str, off: str) -> dict:
    """A window of whole days d0 .. d1 (d1 excluded) at a site whose offset is `off` all along."""
    return {"start": f"{d0}T00:00:00{off}", "end": f"{d1}T00:00:00{off}"}


# The slot-dependent questions: readings a program could silently default to. Each must give a DIFFERENT verdict from
# the true one (a ranks winner, a yes/no, hours past a limit, a number outside the tolerance, an instant outside the
# tolerance, the other period, other rows of a file). Each entry: (what the wrong reading is, overrides merged into the
# check).
WRONG = {
    "b18-01": [
        ("October without the 31st (the end read as exclusive)", _w("2026-10-01", "2026-10-31", "+03:00")),
        ("from 2 October (the start read as exclusive)", _w("2026-10-02", "2026-11-01", "+03:00")),
        ("October up to now (into 2 November)", {"end": "2026-11-02T09:10:00+03:00"}),
    ],
    "b18-02": [
        (
            "the inverse (the incomer over the furnace)",
            {
                "a": {"asset": "Main Incomer", "sensor": "Active Power"},
                "b": {"asset": "Electric Arc Furnace", "sensor": "Active Power"},
            },
        ),
        ("the difference (furnace - incomer, kW)", {"derive": "difference"}),
        (
            "the ladle furnace's share instead",
            {"a": {"asset": "Ladle Furnace", "sensor": "Active Power"}},
        ),
        (
            "both furnaces together (EAF + LF) over the incomer",
            {"_both_furnaces": True},
        ),
    ],
    "b18-03": [
        (
            "the inverse (tonnes per kWh)",
            {
                "a": {"asset": "Continuous Caster", "sensor": "Casting Rate"},
                "b": {"asset": "Electric Arc Furnace", "sensor": "Active Power"},
            },
        ),
        ("the whole site (the main incomer) per tonne", {"a": {"asset": "Main Incomer", "sensor": "Active Power"}}),
        ("the difference (kW - t/h)", {"derive": "difference"}),
        ("the week before (19-25 Oct, before the hot heel)", _w("2026-10-19", "2026-10-26", "+03:00")),
    ],
    "b18-04": [("order highest (the week that consumed more)", {"order": "highest"})],
    "b18-05": [
        ("the minimum demand's time", {"extreme": "min"}),
        ("the furnace's own peak instead of the incomer's", {"asset": "Electric Arc Furnace"}),
    ],
    "b18-06": [
        ("CO (also in mg/Nm³)", {"sensor": "CO"}),
        ("NOx (also in mg/Nm³)", {"sensor": "NOx"}),
        ("the baghouse's differential pressure (Pa)", {"asset": "Baghouse", "sensor": "Differential Pressure"}),
    ],
    "b18-07": [
        ("CO (also in mg/Nm³)", {"sensor": "CO"}),
        ("below instead of above", {"direction": "below"}),
    ],
    "b18-11": [
        ("below instead of above", {"direction": "below"}),
        ("a fixed 32 °C (the setpoint before the 15 Oct reset)", {"limit_sensor": None, "limit": 32.0}),
        ("the return temperature CWR-T against the supply setpoint", {"sensor": "CWR-T"}),
    ],
    "b18-12": [
        ("order lowest (the most efficient)", {"order": "lowest"}),
        ("ranked by Motor Power (the biggest consumer)", {"sensor": "Motor Power"}),
        ("ranked by Free Air Delivery (the most air)", {"sensor": "Free Air Delivery"}),
    ],
    "b18-14": [
        ("ranked by the peak (max kW) instead of the energy", {"by": "max"}),
        ("order lowest", {"order": "lowest"}),
    ],
    "b18-15": [
        ("20 Oct only", _w("2026-10-20", "2026-10-21", "+10:00")),
        ("22 Oct only", _w("2026-10-22", "2026-10-23", "+10:00")),
        ("20-21 Oct (the 22nd read as exclusive)", _w("2026-10-20", "2026-10-22", "+10:00")),
        ("21-22 Oct", _w("2026-10-21", "2026-10-23", "+10:00")),
        ("a sum of the kW samples (not energy)", {"_sum_kw": True}),
    ],
    "b18-16": [
        ("27 Oct only", _w("2026-10-27", "2026-10-28", "+10:00")),
        ("27-28 Oct (the 29th read as exclusive)", _w("2026-10-27", "2026-10-29", "+10:00")),
        ("28-29 Oct", _w("2026-10-28", "2026-10-30", "+10:00")),
        ("the Food Court alone", {"assets": ["Food Court Sub-Meter"]}),
    ],
    "b18-17": [("order highest (the busiest)", {"order": "highest"})],
    "b18-18": [
        ("ranked by the setpoint SAT SP instead of the measured SAT", {"sensor": "SAT SP"}),
        ("order lowest (the coolest)", {"order": "lowest"}),
    ],
    "b18-19": [
        ("the SAT's mean alone", {"derive": None, "asset": "AHU-04", "sensor": "SAT"}),
        ("the ratio SAT / SAT SP", {"derive": "ratio"}),
        ("the sum", {"derive": "sum"}),
        ("the whole day", _w("2026-10-28", "2026-10-29", "+10:00")),
    ],
    "b18-20": [
        ("NO2 (also in ppm)", {"sensor": "NO2"}),
        ("car park level B1", {"asset": "Car Park B1"}),
        ("the car park's Air Temp", {"sensor": "Air Temp"}),
    ],
    "b18-22": [
        ("the peak import (max of the signed Net Grid Power)", {"extreme": "max"}),
        ("the PV array's peak output", {"asset": "PV Array", "sensor": "Active Power", "extreme": "max"}),
    ],
    "b18-23": [
        ("above 0 (the hours importing)", {"direction": "above"}),
        ("the PV array generating (above 0)", {"asset": "PV Array", "sensor": "Active Power", "direction": "above"}),
    ],
    "b18-26": [
        ("24 x the day's mean power (a 24-hour day assumed)", {"_mean24": True}),
        ("00:00 to 23:00 by the clock (24 hours)", {"end": "2026-10-25T23:00:00+01:00"}),
    ],
    "b18-30": [("order lowest (the least water)", {"order": "lowest"})],
    "b18-31": [
        ("below instead of above", {"direction": "below"}),
        ("a fixed 6,000 ppm (the case-run setpoint before the airing)", {"limit_sensor": None, "limit": 6000.0}),
        ("Growing Room 3", {"asset": "Growing Room 3"}),
    ],
    "b18-32": [
        ("the Compost Temp against the air setpoint", {"sensor": "Compost Temp"}),
    ],
    "b18-33": [
        ("the Compost Temp's peak (it lags the air)", {"sensor": "Compost Temp"}),
        ("the minimum's time", {"extreme": "min"}),
    ],
    "b18-34": [
        ("the max of the Flow Temp Setpoint", {"sensor": "Flow Temp Setpoint"}),
        ("the max of the Return Temp", {"sensor": "Return Temp"}),
        (
            "the Steam Generator's steam pressure (another boiler)",
            {"asset": "Steam Generator", "sensor": "Steam Pressure"},
        ),
    ],
}
#: other readings that must PASS the check too (an honest alternative computation)
RIGHT_TOO = {
    "b18-02": [
        ("the ratio of the week's means (the energy share)", {"_ratio_of_means": True}),
        (
            "the registers: the EAF's Energy difference / the incomer's Energy difference",
            {"_registers": ("Electric Arc Furnace", "Energy", "Main Incomer", "Energy")},
        ),
    ],
    "b18-03": [("the ratio of the week's means", {"_ratio_of_means": True})],
    "b18-15": [("the Energy register's difference, 20 Oct 00:00 to 23 Oct 00:00", {"_register": "Energy"})],
    "b18-26": [("the Energy register's difference, 00:00+02:00 to 00:00+01:00", {"_register": "Energy"})],
}
#: slot-dependent questions checked otherwise than by WRONG (the gap question: the check demands status `partial`)
SLOT_OTHER = {"b18-08"}
#: the point a `partial` gap question asks about
GAP_POINT = {"b18-08": (AL, "Stack CEMS", "Dust")}

HEAD = """# Blind set 18: the true answers

Written by `python bench/blind18/truth.py` from `plant.json` and `plant.csv.gz` alone (never the agent's code or the
checker). Times are site-local unless an offset is shown.

## Definitions

- Windows are [start, end): a day is [00:00, next 00:00) in site time; a week starts on Monday. 'yesterday', 'last
  week', 'the week of 19 October', 'Friday 30 October', 'from 20 to 22 October inclusive', 'October 2026 (1 to 31
  October inclusive)', '00:00 on 1 November' resolve from the task's `now` in the site's zone; b18-19's window is the
  clock times the question gives (09:00 to 17:30 on Wed 28 Oct).
- Warsaw's clocks go BACK on Sun 25 Oct 2026 (03:00 +02:00 → 02:00 +01:00): 02:00–02:45 happen twice, the day has 25
  hours (100 samples), and the week of 19 Oct 676 samples. Istanbul keeps +03:00 and Brisbane +10:00 all along.
- Spacing: the lower median of the sample intervals (15 min); an interval over 3 × spacing is a gap.
- Energy (kWh): Σ (v_i + v_{i+1}) / 2 × Δt over consecutive samples in the window that are not a gap; W ÷ 1000,
  MW × 1000. The last interval counted ends at the window's last sample (23:45 on a day).
- A derived series (difference, ratio of two points) is taken on identical timestamps; a ratio drops b = 0.
- An excursion is a sample strictly past the limit; against a setpoint, the same asset's setpoint point at the same
  instant.
- Time past a limit: each sample past it holds until the next compared sample, at most one spacing, the last cut at
  the window's end. Share = samples past / samples compared.
- Signed power: the shopping centre's `Net Grid Power` is + when it imports from the grid and − when the rooftop PV's
  surplus is exported (its `description` says so); the export peaks at the series' minimum.
- Clear-cut (checked; exit 1 otherwise): every window is what the question's words mean from its `now`; a ranking's
  runner-up and two compared periods ≥ 3 % apart; an extreme held at a single instant with the next value clearly
  apart; no compared sample within 0.1 of a duration limit or of the limit of an excursion answered No; an excursion
  answered Yes has more than one sample past the limit and its most extreme one well past it; no gap inside any asked
  window; a value-at instant holds a sample, and the samples an hour (or the site's UTC offset) away fail its
  tolerance; a misread window (the period before or after, a UTC day) fails an aggregate's tolerance; an energy's
  register difference passes its tolerance and, on the 25-hour day, 24 × the mean power fails it; 'missing' things
  are missing; the gap question's instant lies inside a gap with no sample in the hour before it; every `now` carries
  its site's own offset and lies inside its data, and every window lies before it; the answer is the one
  make_plant.py designed; and for every slot-dependent question, each wrong reading listed under "slot readings" (the
  other order, the setpoint or another point of the same asset, a point in the same unit that the words do not name,
  the import instead of the export, a stale setpoint, the inverse ratio, a share of another load, a single day of a
  range, 24 × the mean on the 25-hour day, …) gives an answer that FAILS the check, and the honest alternatives listed
  as "also right" pass it.
"""

#: a task's first tag -> its site
SITE_BY_WORD = {"aliaga": AL, "kedron": KP, "skierniewice": SK}


class Truth18(Truth):
    """The shared checks, with this set's own: two wrong readings (the share of both furnaces together, a sum of kW
    samples taken for energy), b18-19's clock-time window checked against its words, and the candidates an ambiguous
    question's answer must name."""

    def verdict(self, kind, c):
        if kind == "value" and c.get("_both_furnaces"):
            lf = {**c, "a": {"asset": "Ladle Furnace", "sensor": "Active Power"}}
            return super().verdict(kind, c) + super().verdict(kind, lf)
        if kind == "energy" and c.get("_sum_kw"):
            return sum(v for _, v in self.P.series(c["site"], c["asset"], c["sensor"], T(c["start"]), T(c["end"])))
        return super().verdict(kind, c)

    def do_check(self, tid, kind, c, task):
        if tid == "b18-19":
            want = ("2026-10-28T09:00:00+10:00", "2026-10-28T17:30:00+10:00")
            if (c["start"], c["end"]) != want:
                self.bad(tid, f"window {c['start']} .. {c['end']} is not 09:00 to 17:30 on Wed 28 Oct")
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
    sys.exit(Truth18(HERE, globals()).main())
