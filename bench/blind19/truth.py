"""Compute every answer of blind.yaml from plant.json + plant.csv.gz alone, check that each is clear-cut and the one
intended, that each task's windows are what its words say (resolved here from the task's `now`), that each
slot-dependent question's wrong readings fail and its honest alternatives pass, and write truth.md. Exit 1 when
anything is not clear-cut or disagrees. The checks are the shared ones (bench/blindkit/truth.py); this file holds
only the set's tables and a thin subclass.

Usage: python bench/blind19/truth.py
"""

from __future__ import annotations

import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))
from blind_truthlib import at  # noqa: E402
from blindkit.truth import T, Truth, whole_days  # noqa: E402

RS = "Restigouche Paper Mill"
AQ = "Lisbon Atlantic Aquarium"
MN = "Ashanti Ridge Gold Mine"

# What each question's words mean, written from the question alone (not from its expect block).
WORDS = {
    "b19-01": {"win": "last week"},
    "b19-02": {"win": "yesterday"},
    "b19-03": {"win": "dates:2026-10-25:2026-10-25"},
    "b19-04": {"win": "yesterday"},
    "b19-05": {"win": "yesterday"},
    "b19-06": {"win": "last week"},
    "b19-07": {"periods": ("dates:2026-10-19:2026-10-25", "dates:2026-10-26:2026-11-01")},
    "b19-08": {"win": "dates:2026-10-19:2026-10-23"},
    "b19-12": {"win": "last week"},
    "b19-13": {"win": "weekday:3"},
    "b19-14": {"win": "yesterday"},
    "b19-15": {"win": "last week"},
    "b19-17": {"win": "last week"},
    "b19-18": {"win": "weekday:5"},
    "b19-19": {"gap_at": ("dates:2026-10-28:2026-10-28", "03:00")},
    "b19-20": {"win": "last week"},
    "b19-23": {"win": "dates:2026-10-19:2026-10-25"},
    "b19-24": {"at": ("today", "now")},
    "b19-25": {"win": "yesterday"},
    "b19-26": {"win": "yesterday"},
    "b19-27": {"win": "weekday:3"},
    "b19-28": {"win": "weekday:3"},
    "b19-29": {"win": "weekday:3"},
    "b19-30": {"win": "last week"},
    "b19-31": {"win": "yesterday"},
    "b19-32": {"win": "dates:2026-10-12:2026-10-14"},
    "b19-33": {"periods": ("last week", "week before last")},
}

# The answers the plant was designed to give (make_plant.py's events), to catch a plant that drifted from its design.
DESIGN = {
    "b19-01": "PM2",
    "b19-02": "2026-11-01 09:00",
    "b19-03": ("h", 9.5),
    "b19-06": False,
    "b19-07": "second",
    "b19-12": "Refiner 2",
    "b19-13": ("h", 6.5),
    "b19-14": "SF-03",
    "b19-15": ("h", 58.0),
    "b19-17": "Jellyfish Tank",
    "b19-18": "2026-10-31 14:30",
    "b19-23": "Chiller 1",
    "b19-26": False,
    "b19-27": "2026-10-29 03:00",
    "b19-28": ("h", 3.25),
    "b19-29": True,
    "b19-30": "Dewatering Pump 2",
    "b19-33": "second",
    "b19-36": {"count": 3, "list": ["Booster Fan 10L", "Booster Fan 15L", "Booster Fan 20L"]},
}
#: samples a window must hold (Moncton's 25-hour Sun 1 Nov and the week holding it; Lisbon's week holding Sun 25 Oct)
SAMPLES = {
    "b19-01": 676,
    "b19-04": 100,
    "b19-07": (672, 676),
    "b19-12": 676,
    "b19-23": 676,
    "b19-25": 96,
}
#: energy tasks checked against their register point; on a day that is not 24 hours long, 24 x the mean power must fail
REGISTER = {"b19-04": "Energy", "b19-32": "Energy"}
#: a smaller least margin of a Yes (a 0.5 m/s limit: the default floor of 0.5 cannot be met below it)
MARGIN_FLOOR = {"b19-29": 0.1}

# The slot-dependent questions: readings a program could silently default to. Each must give a DIFFERENT verdict from
# the true one (a ranks winner, a yes/no, hours past a limit, a number outside the tolerance, an instant outside the
# tolerance, the other period). Each entry: (what the wrong reading is, overrides merged into the check).
WRONG = {
    "b19-01": [
        ("order lowest (the thriftiest per tonne)", {"order": "lowest"}),
        ("ranked by Dryer Steam Flow (the most steam, not per tonne)", {"sensor": "Dryer Steam Flow"}),
        ("ranked by Production Rate (the bigger machine)", {"sensor": "Production Rate"}),
    ],
    "b19-02": [
        ("the peak import (the max of the signed Tie Line Power)", {"extreme": "max"}),
        ("TG1's peak output", {"asset": "TG1", "sensor": "Gross Output", "extreme": "max"}),
    ],
    "b19-03": [
        ("above 0 (the hours importing)", {"direction": "above"}),
        ("TG1 generating (Gross Output above 0)", {"asset": "TG1", "sensor": "Gross Output", "direction": "above"}),
        ("'sun' read as the latest Sunday, 1 Nov", whole_days("2026-11-01", "2026-11-02", "-03:00", "-04:00")),
    ],
    "b19-04": [
        ("24 x the day's mean power (a 24-hour day assumed)", {"_mean24": True}),
        ("00:00 to 23:00 by the clock (24 hours)", {"end": "2026-11-01T23:00:00-04:00"}),
        ("a sum of the kW samples (not energy)", {"_sum_kw": True}),
    ],
    "b19-05": [
        ("the mean of Reel Moisture alone", {"derive": None, "asset": "PM2", "sensor": "Reel Moisture"}),
        ("the ratio Reel Moisture / SP", {"derive": "ratio"}),
        (
            "PM1's difference to its SP",
            {"a": {"asset": "PM1", "sensor": "Reel Moisture"}, "b": {"asset": "PM1", "sensor": "Reel Moisture SP"}},
        ),
    ],
    "b19-06": [
        ("FG-SO2 (also in ppm)", {"sensor": "FG-SO2"}),
        ("below instead of above", {"direction": "below"}),
    ],
    "b19-07": [("order lowest (the week that made less)", {"order": "lowest"})],
    "b19-08": [
        ("19-22 Oct (the 23rd read as exclusive)", whole_days("2026-10-19", "2026-10-23", "-03:00")),
        ("23 Oct only", whole_days("2026-10-23", "2026-10-24", "-03:00")),
        ("20-23 Oct (the 19th read as exclusive)", whole_days("2026-10-20", "2026-10-24", "-03:00")),
        ("the Power Boiler's Steam Flow", {"asset": "Power Boiler", "sensor": "Steam Flow"}),
    ],
    "b19-12": [
        ("order highest (the hardest-working)", {"order": "highest"}),
        ("ranked by the lowest peak (max) instead of the mean", {"by": "max"}),
    ],
    "b19-13": [
        ("below instead of above", {"direction": "below"}),
        ("a fixed 15 °C instead of its setpoint", {"limit_sensor": None, "limit": 15.0}),
        ("the Jellyfish Tank", {"asset": "Jellyfish Tank"}),
    ],
    "b19-14": [
        ("order lowest (the cleanest)", {"order": "lowest"}),
        ("ranked by Filtrate Flow (the most water through)", {"sensor": "Filtrate Flow"}),
    ],
    "b19-15": [
        ("Filtrate Flow (m³/h) over 70", {"sensor": "Filtrate Flow"}),
        ("SF-02's DP", {"asset": "SF-02"}),
        ("below instead of above", {"direction": "below"}),
    ],
    "b19-17": [
        ("ranked by the mean instead of the peak", {"by": "mean"}),
        ("order lowest", {"order": "lowest"}),
    ],
    "b19-18": [
        ("the minimum's time", {"extreme": "min"}),
        ("the Shark Tank's ORP peak", {"asset": "Shark Tank"}),
        ("the Jellyfish Tank's pH peak", {"sensor": "pH"}),
    ],
    "b19-20": [
        (
            "the inverse (m³ per kWh)",
            {
                "a": {"asset": "Seawater Intake", "sensor": "Flow"},
                "b": {"asset": "Main Meter", "sensor": "Active Power"},
            },
        ),
        ("the difference (kW - m³/h)", {"derive": "difference"}),
        ("Chiller 1 per m³ instead of the site", {"a": {"asset": "Chiller 1", "sensor": "Electrical Power"}}),
        ("the meter's mean kW alone", {"derive": None, "asset": "Main Meter", "sensor": "Active Power"}),
    ],
    "b19-23": [
        ("order lowest (the laziest)", {"order": "lowest"}),
        ("ranked by the peak (max kW) instead of the energy", {"by": "max"}),
    ],
    "b19-26": [
        ("Bearing Temp (°C) over 7", {"sensor": "Bearing Temp"}),
        ("Motor Power (kW) over 7", {"sensor": "Motor Power"}),
        ("Airflow (m³/s) over 7", {"sensor": "Airflow"}),
    ],
    "b19-27": [
        ("the minimum's time (the trip)", {"extreme": "min"}),
        ("the Bearing Temp's peak", {"sensor": "Bearing Temp"}),
    ],
    "b19-28": [
        ("DBT (the dry bulb, also °C) over 28", {"sensor": "DBT"}),
        ("ENV-15L's wet bulb", {"asset": "ENV-15L"}),
        ("below instead of above", {"direction": "below"}),
    ],
    "b19-29": [
        ("CO (ppm) under 0.5", {"sensor": "CO"}),
        ("NO2 (ppm) under 0.5", {"sensor": "NO2"}),
        ("ENV-20L's VEL", {"asset": "ENV-20L"}),
        ("above instead of below", {"direction": "above", "limit": 2.0}),
    ],
    "b19-30": [
        ("order highest (the hardest-working)", {"order": "highest"}),
        ("ranked by Motor Power (the least power)", {"sensor": "Motor Power"}),
    ],
    "b19-31": [
        (
            "the inverse (the incomer over the fan)",
            {
                "a": {"asset": "Mine Incomer", "sensor": "Active Power"},
                "b": {"asset": "Main Vent Fan", "sensor": "Motor Power"},
            },
        ),
        ("the fan's mean kW alone", {"derive": None, "asset": "Main Vent Fan", "sensor": "Motor Power"}),
        ("Booster Fan 20L's share instead", {"a": {"asset": "Booster Fan 20L", "sensor": "Motor Power"}}),
        ("the difference (incomer - fan, kW)", {"derive": "difference"}),
    ],
    "b19-32": [
        ("12-13 Oct (the 14th read as exclusive)", whole_days("2026-10-12", "2026-10-14", "+00:00")),
        ("14 Oct only", whole_days("2026-10-14", "2026-10-15", "+00:00")),
        ("13-14 Oct (the 12th read as exclusive)", whole_days("2026-10-13", "2026-10-15", "+00:00")),
        ("a sum of the kW samples (not energy)", {"_sum_kw": True}),
    ],
    "b19-33": [("order lowest (the week that hoisted less)", {"order": "lowest"})],
}
#: other readings that must PASS the check too (an honest alternative computation)
RIGHT_TOO = {
    "b19-04": [("the Energy register's difference (MWh x 1000)", {"_register_mwh": "Energy"})],
    "b19-20": [
        ("the ratio of the week's means", {"_ratio_of_means": True}),
        (
            "the registers: the Main Meter's Energy difference / the Seawater Intake's Volume difference",
            {"_registers": ("Main Meter", "Energy", "Seawater Intake", "Volume")},
        ),
    ],
    "b19-31": [("the ratio of the day's means", {"_ratio_of_means": True})],
    "b19-32": [("the Energy register's difference (MWh x 1000)", {"_register_mwh": "Energy"})],
}
#: slot-dependent questions checked otherwise than by WRONG (the gap question: the check demands status `partial`)
SLOT_OTHER = {"b19-19"}
#: the point a `partial` gap question asks about
GAP_POINT = {"b19-19": (AQ, "Penguin Pool", "Dissolved Oxygen")}

HEAD = """# Blind set 19: the true answers

Written by `python bench/blind19/truth.py` from `plant.json` and `plant.csv.gz` alone (never the agent's code or the
checker). Times are site-local unless an offset is shown.

## Definitions

- Windows are [start, end): a day is [00:00, next 00:00) in site time; a week starts on Monday. 'ystdy', 'lst wk',
  'thurs', 'sat', 'sun the 25th', 'the wk of the 19th', 'from 19 to 23 October', '12th to 14th oct' (both ends
  included), 'last week' / 'the week before' resolve from the task's `now` in the site's zone; 'rn' / 'atm' is the
  task's `now`.
- Moncton's clocks go BACK on Sun 1 Nov 2026 (02:00 -03:00 → 01:00 -04:00): 01:00–01:45 happen twice, the day has 25
  hours (100 samples), and the week of 26 Oct 676 samples. Lisbon's go BACK on Sun 25 Oct 2026 (02:00 +01:00 → 01:00
  +00:00): that day has 25 hours, the week of 19 Oct 676 samples. Accra keeps +00:00 all along.
- Spacing: the lower median of the sample intervals (15 min); an interval over 3 × spacing is a gap.
- Energy (kWh): Σ (v_i + v_{i+1}) / 2 × Δt over consecutive samples in the window that are not a gap; W ÷ 1000,
  MW × 1000. The last interval counted ends at the window's last sample (23:45 on a day).
- A derived series (difference, ratio of two points) is taken on identical timestamps; a ratio drops b = 0. An
  intensity in kWh/m³ is kW ÷ (m³/h) at each instant; a share is the fan's kW ÷ the incomer's kW.
- An excursion is a sample strictly past the limit; against a setpoint, the same asset's setpoint point at the same
  instant.
- Time past a limit: each sample past it holds until the next compared sample, at most one spacing, the last cut at
  the window's end. Share = samples past / samples compared.
- Signed power: the mill's `Tie Line Power` is + when it imports from NB Power and − when TG1's surplus is exported
  (its `description` says so); 'exporting' is below 0 and the biggest export is the series' minimum.
- Clear-cut (checked; exit 1 otherwise): every window is what the question's words mean from its `now`; a ranking's
  runner-up and two compared periods ≥ 3 % apart; an extreme held at a single instant with the next value clearly
  apart; no compared sample within 0.1 of a duration limit or of the limit of an excursion answered No; an excursion
  answered Yes has more than one sample past the limit and its most extreme one well past it; no gap inside any asked
  window; a value-at instant holds a sample, and the samples an hour away fail its tolerance; a misread window (the
  period before or after, a UTC day) fails an aggregate's tolerance; an energy's register difference passes its
  tolerance and, on the 25-hour day, 24 × the mean power fails it; the gap question's instant lies inside a gap with
  no sample in the hour before it; every `now` carries its site's own offset and lies inside its data, and every
  window lies before it; the answer is the one make_plant.py designed; and for every slot-dependent question, each
  wrong reading listed under "slot readings" (the other order, another point of the same asset in the same or another
  unit, the setpoint's words read as a fixed number, the import instead of the export, the inverse ratio, one series'
  mean, the other statistic, a single day of a range, 24 × the mean on the 25-hour day, …) gives an answer that FAILS
  the check, and the honest alternatives listed as "also right" pass it.
"""

#: a task's first tag -> its site
SITE_BY_WORD = {"restigouche": RS, "lisboa": AQ, "ashanti": MN}


class Truth19(Truth):
    """The shared checks, with this set's own: two readings of an energy (a sum of kW samples taken for energy, a MWh
    register's difference in kWh), and the candidates an ambiguous question's answer must name."""

    def verdict(self, kind, c):
        if kind == "energy" and c.get("_sum_kw"):
            return sum(v for _, v in self.P.series(c["site"], c["asset"], c["sensor"], T(c["start"]), T(c["end"])))
        if kind == "energy" and c.get("_register_mwh"):
            reg = self.P.point(c["site"], c["asset"], c["_register_mwh"])
            assert reg.unit == "MWh", reg.unit
            return (at(reg, T(c["end"]), 0)[1] - at(reg, T(c["start"]), 0)[1]) * 1000.0
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
    sys.exit(Truth19(HERE, globals()).main())
