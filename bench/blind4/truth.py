"""Compute every answer of blind.yaml from plant.json + plant.csv.gz alone, check it is clear-cut and that each
task's windows are what its words say, and write truth.md. Exit 1 when any task is not clear-cut or disagrees.

Usage: python bench/blind4/truth.py
"""

from __future__ import annotations

import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))
import datetime as dt  # noqa: E402

from blindkit.first import FirstTruth  # noqa: E402
from blindkit.truth import T  # noqa: E402

# What each question's words mean, written independently of the expect blocks: relative dates resolved below from
# the task's `now` in site time, then compared with the expect's windows.
INTENT = {
    "b4-03": {"at": ("today", "07:00")},
    "b4-04": {"win": "yesterday"},
    "b4-05": {"win": "date:2026-10-25"},
    "b4-06": {"win": "yesterday"},
    "b4-07": {"win": "yesterday"},
    "b4-08": {"win": "day before yesterday"},
    "b4-09": {"win": "last week"},
    "b4-10": {"win": "yesterday"},
    "b4-11": {"periods": ("last week", "week before last")},
    "b4-12": {"win": "yesterday", "yes": True},
    "b4-13": {"win": "weekday:0"},
    "b4-14": {"win": "last week"},
    "b4-15": {"win": "date:2026-10-25"},
    "b4-17": {"at": ("now", None)},
    "b4-21": {"at": ("yesterday", "18:00")},
    "b4-22": {"win": "weekday:0"},
    "b4-23": {"win": "last week"},
    "b4-24": {"win": "monthday:3"},
    "b4-25": {"win": "yesterday"},
    "b4-26": {"win": "yesterday"},
    "b4-27": {"win": "last week", "yes": False},
    "b4-28": {"win": "weekday:2"},
    "b4-29": {"win": "yesterday"},
    "b4-34": {"at": ("monthday:5", "12:00")},
    "b4-35": {"win": "last week"},
    "b4-36": {"win": "yesterday"},
    "b4-37": {"win": "yesterday"},
    "b4-38": {"periods": ("last week", "week before last")},
    "b4-39": {"win": "yesterday"},
    "b4-40": {"win": "day before yesterday"},
    "b4-43": {"win": "yesterday"},
}
EXPECTED_ANSWER = {  # the intended answers, to catch a plant that drifted from its design
    "b4-01": ["BLW-01", "BLW-02", "BLW-03"],
    "b4-02": 3,
    "b4-19": 4,
    "b4-20": 3,
    "b4-33": ["Flow Temp", "Return Temp", "Gas Rate", "Burner On"],
    "b4-44": ["Millbrook WwTW", "Copper Ridge Brewing", "Kawana Glasshouse"],
    "b4-06": "2026-10-25 04:15",
    "b4-22": "2026-11-02 07:15",
    "b4-43": "2026-11-06 11:15",
    "b4-09": "2026-10-29 15:30",
    "b4-25": "2026-11-05 16:45",
    "b4-10": "BLW-02",
    "b4-26": "FV-101",
    "b4-37": "Bay C",
    "b4-11": "second",
    "b4-38": "first",
    "b4-13": {"h": 3.5},
    "b4-28": {"h": 4.5},
    "b4-39": {"h": 4.5, "%": 18.75},
}

GAP_INSIDE = {"b4-35"}  # Outside Temp's night-time gap on Tue 27 Oct lies inside last week
#: the energy task checked against its register point
REGISTER = {"b4-08": "Generated Energy"}

HEAD = [
    "# Blind set 4: the true answers",
    "",
    "Written by `python bench/blind4/truth.py` from `plant.json` and `plant.csv.gz` alone (never the agent's",
    "code or the checker). Times are site-local unless an offset is shown.",
    "",
    "## Definitions",
    "",
    "- Windows are [start, end): a day is [00:00, next 00:00) in site time, a week starts on Monday; "
    "'yesterday', 'the day before yesterday', 'last week', 'the week before', 'on Monday' (the most recent "
    "Monday before today), 'on the 3rd' (the most recent 3rd of a month before today) resolve from the task's "
    "`now` in the site's zone.",
    "- London's clocks go back on Sun 25 Oct 2026 (02:00 BST → 01:00 GMT) and Denver's on Sun 1 Nov 2026 "
    "(02:00 MDT → 01:00 MST): those days have 25 hours (100 samples, the 01:00-01:45 clock hour twice); their "
    "windows run 00:00+01:00→00:00+00:00 (London) and 00:00-06:00→00:00-07:00 (Denver). Tokyo has no clock "
    "change.",
    "- Each site's histories end at its questions' `now` (the last sample at or just before it): the server "
    "holds nothing from the operator's future. b4-06 alone is asked earlier (the morning after London's clock "
    "change), so later samples exist for it; it asks only about the day before.",
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

#: the site of a task that names none, by the offset of its now
SITE_BY_OFFSET = {"+00:00": "Millbrook WwTW", "-07:00": "Copper Ridge Brewing", "+09:00": "Kawana Glasshouse"}
#: asked before its site's data ends (the morning after London's clock change)
ASKED_EARLIER = {"b4-06"}


class Blind4(FirstTruth):
    """Lists say each site's zone and each asset's markers; a count of a kind shows the names holding its word; each
    site's data ends at its questions' now."""

    def chk_count(self, tid, c):
        if c["of"] == "assets":
            site = self.site_of(c)
            named = [e.dis for e in site.equips.values() if c.get("kind", "").lower() in e.dis.lower()]
            self.out.append(f"  (names that contain the marker's word: {', '.join(named) or 'none'})")
        super().chk_count(tid, c)

    def chk_lists(self, tid, c):
        if c["of"] == "sites":
            names = [x.dis for x in self.P.sites.values()]
            n = [f"{x.dis} ({x.tz.key})" for x in self.P.sites.values()]
        elif c["of"] == "assets":
            site = self.site_of(c)
            names = [e.dis for e in site.equips.values() if c.get("name_contains", "").lower() in e.dis.lower()]
            n = [f"{e.dis} ({', '.join(sorted(e.markers))})" for e in site.equips.values() if e.dis in names]
        else:
            e = self.P.equip(c["site"], c["asset"])
            names = [p.nav for p in e.points.values()]
            n = [f"{p.nav} ({p.kind}{', ' + p.unit if p.unit else ''})" for p in e.points.values()]
        self.out.append(f"- lists: **{', '.join(n)}**")
        if self.EXPECTED.get(tid) not in (None, names):
            self.bad(tid, f"the listed names {names} are not the intended {self.EXPECTED[tid]}")

    def check_now(self, task) -> None:
        """Also: the site's last sample is the one just before now."""
        super().check_now(task)
        now = T(task["now"])
        named = [x["site"] for x in self.checks_of(task) if "site" in x and self.P.site(x["site"]) is not None]
        site = self.P.site(named[0] if named else SITE_BY_OFFSET[task["now"][-6:]])
        last = max(p.ts[-1] for e in site.equips.values() for p in e.points.values())
        if task["id"] not in ASKED_EARLIER and not (dt.timedelta(0) <= now - last < dt.timedelta(minutes=15)):
            self.bad(task["id"], f"the site's last sample {last} is not the one just before now {now}")

    @staticmethod
    def checks_of(task):
        for c in task["expect"].values():
            for cc in c if isinstance(c, list) else [c]:
                if isinstance(cc, dict):
                    yield from [cc, *(v for v in cc.values() if isinstance(v, dict))]


if __name__ == "__main__":
    sys.exit(Blind4(HERE, globals()).main())
