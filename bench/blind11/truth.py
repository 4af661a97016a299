"""Compute every answer of blind.yaml from plant.json + plant.csv.gz alone, check that each is clear-cut and the one
intended, that each task's windows are what its words say (resolved here from the task's `now`), that the reading a
program could silently default to (setpoint for measured, the other order, the signed net for one direction, the
series of another unit, the operands swapped) gives an answer that fails, and write truth.md.
Exit 1 when anything is not clear-cut or disagrees.

Usage: python bench/blind11/truth.py
"""

from __future__ import annotations

import datetime as dt
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))
from blind_truthlib import aggregate, at, compared, duration, energy, extreme_instants, gaps, local, past, spacing  # noqa: E402
from blindkit.truth import T, Truth, fmtv, tolerance  # noqa: E402

# What each question's words mean, written from the question alone (not from its expect block). Phrases:
#   "yesterday", "today", "last week", "weekday:N" (the latest such weekday before today, Monday = 0);
#   "at": (day phrase, clock time).
WORDS = {
    "b11-03": {"at": ("yesterday", "14:00")},
    "b11-04": {"win": "last week"},
    "b11-05": {"win": "yesterday"},
    "b11-06": {"win": "yesterday"},
    "b11-07": {"win": "last week"},
    "b11-08": {"win": "yesterday"},
    "b11-09": {"win": "yesterday"},
    "b11-10": {"win": "last week"},
    "b11-11": {"win": "yesterday"},
    "b11-12": {"win": "yesterday"},
    "b11-17": {"at": ("today", "19:00")},
    "b11-18": {"win": "yesterday"},
    "b11-19": {"win": "weekday:6"},
    "b11-20": {"win": "yesterday"},
    "b11-21": {"win": "yesterday"},
    "b11-22": {"win": "yesterday"},
    "b11-23": {"win": "yesterday"},
    "b11-24": {"win": "yesterday"},
    "b11-28": {"win": "yesterday"},
    "b11-29": {"win": "yesterday"},
    "b11-30": {"win": "last week"},
    "b11-31": {"win": "yesterday"},
    "b11-32": {"win": "yesterday"},
    "b11-33": {"at": ("yesterday", "18:00")},
    "b11-34": {"periods": ("weekday:0", "weekday:1")},
    "b11-35": {"gap_at": ("today", "03:00")},
    "b11-36": {"win": "yesterday"},
}

# The answers the plant was designed to give (plant.yaml's events), to catch a plant that drifted from its design.
DESIGN = {
    "b11-01": ["NH3 Comp 1", "NH3 Comp 2", "NH3 Comp 3"],
    "b11-02": 6,
    "b11-04": "2026-09-29 15:15",
    "b11-06": "Freezer 1",
    "b11-07": "Freezer 2",
    "b11-08": "NH3 Comp 2",
    "b11-09": ("h", 2.75),
    "b11-10": False,
    "b11-11": "2026-10-06 10:45",
    "b11-16": [
        "Active Power",
        "Discharge Power",
        "Charge Power",
        "State of Charge",
        "Discharge Energy",
        "Charge Energy",
        "Cell Temp",
    ],
    "b11-23": "INV-01",
    "b11-25": False,
    "b11-27": 4,
    "b11-28": False,
    "b11-29": "Washer 2",
    "b11-30": "Tunnel Dryer 1",
    "b11-31": ("%", 56 / 96 * 100),
    "b11-34": "second",
    "b11-36": "2026-10-08 11:15",
}
#: value-at tasks whose series is flat around the instant (so a misread instant passes too), and why that is kept
FLAT: dict[str, str] = {}
#: aggregate tasks whose misread window would pass as well, and why that is kept
SAME_ANYWAY: dict[str, str] = {
    "b11-18": "the battery discharges only 17:00-23:00 local, which the site's day and the UTC day both hold in full",
    "b11-24": "the inverter's efficiency is constant by design, so the ratio is the same on any day; the slot tested "
    "is the operands' order",
}
#: samples a window must hold (Adelaide's 23-hour Sunday, 4 Oct 2026)
SAMPLES = {"b11-19": 92, "b11-18": 96, "b11-05": 96, "b11-32": 96}
#: energy tasks checked against their meter's register (the register point); on a day that is not 24 hours long,
#: 24 x the mean power must fail
REGISTER = {"b11-05": "kWh", "b11-18": "Discharge Energy", "b11-19": "Charge Energy"}
#: 'missing' sensors: tags no point of the asset may carry either
MISSING_TAGS = {"b11-15": {"humidity", "humid"}}
#: the least margin of an excursion answered Yes where the usual one does not fit the unit
MARGIN_FLOOR: dict[str, float] = {}
#: duration tasks whose samples past the limit come in more than one run, and how many
RUNS = {"b11-31": 2}


GAP_POINT = {"b11-35": ("Ballymount Laundry", "Hot Water Tank", "Water Temp")}


# ---------------------------------------------------------------------------------------------------------------
# The slots a program could silently default wrongly: each wrong reading's answer, which must fail the check.


#: the slot each slot-dependent task depends on (README's table); checked below where a wrong answer can fail
SLOT = {
    "b11-06": "measured vs setpoint; order word 'warmest'",
    "b11-07": "order word 'coldest'",
    "b11-08": "order word 'ran hardest'",
    "b11-09": "measured vs setpoint",
    "b11-11": "time of an extreme; 'warmest' = max",
    "b11-12": "form: amount of difference",
    "b11-18": "signed series: discharge only",
    "b11-19": "signed series: charge only (on the 23-hour day)",
    "b11-20": "signed series: the largest discharge, not the largest magnitude",
    "b11-21": "a limit's unit selects the series (% → State of Charge)",
    "b11-22": "signed series: export = Net Power above 0",
    "b11-23": "order word 'idlest'",
    "b11-24": "ratio: 'ratio of X to Y' = X / Y",
    "b11-28": "a limit's unit selects the series (°C → Water Temp, not Level %)",
    "b11-29": "order word 'quietest'",
    "b11-30": "order word 'least busy'",
    "b11-31": "form: a share of the time",
}


HEAD = """# Blind set 11: the true answers

Written by `python bench/blind11/truth.py` from `plant.json` and `plant.csv.gz` alone (never the agent's code or the
checker). Times are site-local unless an offset is shown.

## Definitions

- Windows are [start, end): a day is [00:00, next 00:00) in site time; a week starts on Monday. 'yday' (yesterday),
  'at 7pm' / 'at 3am' (today, from `now`), 'last wk' (the previous calendar week), 'on sunday', 'mon vs tue' (the
  latest Monday / Tuesday before today) resolve from the task's `now` in the site's zone.
- Adelaide's clocks go FORWARD on Sun 4 Oct 2026 (02:00 ACST → 03:00 ACDT, +09:30 → +10:30): that day has 23 hours
  (92 samples; 02:00–02:45 do not exist). Chicago keeps -05:00 (CDT) and Dublin +01:00 (IST) through the data.
- Spacing: the lower median of the sample intervals (15 min); an interval over 3 × spacing is a gap.
- Energy (kWh): Σ (v_i + v_{i+1}) / 2 × Δt over consecutive samples in the window that are not a gap; W ÷ 1000,
  MW × 1000. The last interval counted ends at the window's last sample (23:45 on a day).
- Derived series: a − b or a ÷ b on identical timestamps (a ratio's pairs with b = 0 dropped), then the aggregate.
- An excursion is a sample strictly past the limit; against a setpoint, the same asset's setpoint point at the same
  instant.
- Time past a limit: each sample past it holds until the next compared sample, at most one spacing, the last cut at
  the window's end. Share = samples past / samples compared.
- Signed points (their `description` says so): BESS 1 `Active Power` is + discharging / − charging; Grid Connection
  `Net Power` is + export / − import. `Discharge Power` and `Charge Power` are the one-direction parts (never
  negative), `Discharge Energy` / `Charge Energy` and `Export Energy` / `Import Energy` their registers.
- Clear-cut (checked; exit 1 otherwise): every window is what the question's words mean from its `now`; a ranking's
  runner-up and two compared periods ≥ 3 % apart; an extreme held at a single instant with the next value clearly
  apart; no compared sample within 0.1 of a duration limit or of the limit of an excursion answered No; an excursion
  answered Yes well past its limit; no gap inside any asked window; a value-at instant holds a sample, and the
  samples an hour (or the site's UTC offset) away fail its tolerance; a misread window (the period before or after,
  a UTC day) fails an aggregate's tolerance unless noted why not; an energy's register difference passes its
  tolerance and, on the 23-hour day, 24 × the mean power fails it; a ratio's mean of ratios and ratio of means agree
  within its tolerance; the instant asked inside a gap has no sample within the hour before it; 'missing' things are
  missing (by name and by tag); 'not recorded' assets exist without the attribute's tags; every `now` carries its
  site's own offset and lies inside its data, and every window lies before it; the answer is the one make_plant.py
  designed; and for every slot-dependent question, the reading a program could default to (the setpoint for the
  measured value, the other order, the signed net for one direction, the series of the other unit, the operands
  swapped, the other extreme) gives an answer that fails the check (the one exception, a share asked, is said).
"""

#: a task's first tag -> its site
SITE_BY_WORD = {
    "joliet": "Joliet Cold Storage",
    "murray": "Murray Plains Energy Park",
    "ballymount": "Ballymount Laundry",
}


class Blind11(Truth):
    """The checks of blind set 11 that read differently from the shared ones."""

    def derived(self, c, start, end):
        """The aligned pointwise a - b or a / b (pairs with b = 0 dropped) over [start, end)."""
        sa = self.P.series(c["site"], c["a"]["asset"], c["a"]["sensor"], start, end)
        sb = dict(self.P.series(c["site"], c["b"]["asset"], c["b"]["sensor"], start, end))
        if c["derive"] == "difference":
            return [(t, v - sb[t]) for t, v in sa if t in sb], sa, sb
        if c["derive"] == "sum":
            return [(t, v + sb[t]) for t, v in sa if t in sb], sa, sb
        return [(t, v / sb[t]) for t, v in sa if t in sb and sb[t] != 0], sa, sb

    def chk_derive(self, tid, c, now):
        tz = self.site_of(c).tz
        self.window_matches(tid, c["start"], c["end"], now, tz)
        agg = c.get("aggregate", c.get("stat"))
        ser, sa, sb = self.derived(c, T(c["start"]), T(c["end"]))
        self.no_gaps(tid, sa, "derive a")
        self.no_gaps(tid, list(sb.items()), "derive b")
        v = aggregate(ser, agg)
        op = {"difference": "-", "sum": "+", "ratio": "/"}[c["derive"]]
        self.out.append(
            f"- {agg} of {c['a']['asset']} {c['a']['sensor']} {op} {c['b']['asset']} {c['b']['sensor']} over "
            f"[{local(T(c['start']), tz)}, {local(T(c['end']), tz)}) = **{v:,.4f}** ({len(ser)} aligned pairs used of "
            f"{len(sa)}; tolerance ±{tolerance(c, v):.4f})"
        )
        self.misread(tid, c, now, lambda a, b: aggregate(self.derived(c, a, b)[0], agg), v, agg)
        if c["derive"] == "ratio":
            ma = aggregate([(t, x) for t, x in sa if sb.get(t)], "mean")
            mb = aggregate([(t, sb[t]) for t, x in sa if sb.get(t)], "mean")
            rom = ma / mb
            self.out.append(
                f"  the ratio of the means {rom:.4f} ({(rom / v - 1) * 100:+.3f} % from the mean of the ratios)"
            )
            if abs(rom - v) > tolerance(c, v):
                self.bad(tid, f"the ratio of the means {rom:.4f} fails the tolerance of the mean ratio {v:.4f}")
        return v

    def chk_duration(self, tid, c, now):
        tz = self.site_of(c).tz
        self.window_matches(tid, c["start"], c["end"], now, tz)
        ser = self.P.series(c["site"], c["asset"], c["sensor"], T(c["start"]), T(c["end"]))
        self.no_gaps(tid, ser, "duration")
        lim_ser = (
            self.P.series(c["site"], c["asset"], c["limit_sensor"], T(c["start"]), T(c["end"]))
            if "limit_sensor" in c
            else None
        )
        comp = compared(ser, c.get("limit"), lim_ser)
        tot, n_past, n = duration(ser, comp, c["direction"], T(c["end"]))
        closest = min(abs(v - lim) for _, v, lim in comp)
        pts = [t for t, v, lim in comp if past(v, lim, c["direction"])]
        h = tot.total_seconds() / 3600
        share = n_past / n * 100
        self.out.append(
            f"- {c['asset']} {c['sensor']} {c['direction']} {c.get('limit', c.get('limit_sensor'))} over "
            f"[{local(T(c['start']), tz)}, {local(T(c['end']), tz)}): **{h:g} h** ({n_past} of {n} samples, "
            f"**{share:.2f} %**), the samples from {local(pts[0], tz)} to {local(pts[-1], tz)}; spacing "
            f"{spacing(ser)}; the closest sample {closest:.3f} from the limit"
        )
        if closest < 0.1:
            self.bad(tid, f"a sample lies {closest:.3f} from the limit")
        runs = 1 + sum((b - a) != dt.timedelta(minutes=15) for a, b in zip(pts, pts[1:]))
        if runs != RUNS.get(tid, 1):
            self.bad(tid, f"the samples past the limit come in {runs} runs, not the designed {RUNS.get(tid, 1)}")
        elif runs > 1:
            self.out.append(f"  ({runs} runs of samples past the limit, as designed)")
        want = self.DESIGN.get(tid)
        if want and want[0] == "h" and abs(h - want[1]) > 1e-9:
            self.bad(tid, f"{h} h is not the designed {want[1]} h")
        if want and want[0] == "%" and abs(share - want[1]) > 1e-9:
            self.bad(tid, f"{share} % is not the designed {want[1]} %")

    def chk_partial(self, tid, c, task):
        """A value asked at an instant inside a gap: no sample at it nor within the hour before; the run can only be
        partial (it cannot establish the value) and should say the history has a gap there."""
        now = T(task["now"])
        site, asset, sensor = self.GAP_POINT[tid]
        s = self.P.site(site)
        day, clock = self.WORDS[tid]["gap_at"]
        inst = dt.datetime.combine(self.day_of(day, now.astimezone(s.tz).date()), dt.time.fromisoformat(clock), s.tz)
        p = self.P.point(site, asset, sensor)
        hit = at(p, inst, 60)
        ser = list(zip(p.ts, p.vals))
        g = [(a, b) for a, b in gaps(ser) if a < inst < b]
        before = max((t for t in p.ts if t <= inst), default=None)
        after = min((t for t in p.ts if t > inst), default=None)
        self.out.append(
            f"- {asset} {sensor} at {local(inst, s.tz)}: **no value** — the history has a gap from "
            f"{local(before, s.tz)} (the last sample, {fmtv(p.vals[p.ts.index(before)])}) to {local(after, s.tz)}; "
            "the expected answer says so and the run ends `partial`"
        )
        if hit is not None or not g:
            self.bad(tid, f"the instant is not inside a gap ({hit}, {g})")
        if after is None or after > now:
            self.bad(tid, "the gap does not end before now: the data would simply not be there yet")

    def rank_vals(self, c, sensor=None, by=None):
        vals = {}
        for n in c["assets"]:
            sn = sensor or c["sensor"]
            ser = self.P.series(c["site"], n, sn, T(c["start"]), T(c["end"]))
            b = by or c["by"]
            vals[n] = energy(ser, self.P.point(c["site"], n, sn).unit) if b == "energy" else aggregate(ser, b)
        return vals

    def winners(self, vals, order):
        best = max(vals.values()) if order == "highest" else min(vals.values())
        return [n for n, v in vals.items() if abs(v - best) <= 1e-9 * max(1, abs(best))]

    def hours_past(self, c, sensor=None, direction=None, limit=None, limit_sensor=None):
        a, b = T(c["start"]), T(c["end"])
        ser = self.P.series(c["site"], c["asset"], sensor or c["sensor"], a, b)
        ls = limit_sensor or c.get("limit_sensor")
        lim_ser = self.P.series(c["site"], c["asset"], ls, a, b) if ls else None
        comp = compared(ser, c.get("limit") if limit is None else limit, lim_ser)
        tot, n_past, n = duration(ser, comp, direction or c["direction"], b)
        return tot.total_seconds() / 3600, n_past / n * 100

    def wrong(self, tid: str, what: str, got: str, fails: bool, why: str = "") -> None:
        self.out.append(
            f"  wrong default — {what}: {got} → {'fails' if fails else 'WOULD PASS'}{f' ({why})' if why else ''}"
        )
        if not fails:
            self.bad(tid, f"the wrong default ({what}) would pass: {got}")

    def slot_checks(self, tid: str, task) -> None:
        if tid not in SLOT:
            return
        self.out.append(f"- slot: {SLOT[tid]}")
        ex = task["expect"]
        if "ranks" in ex:
            c = ex["ranks"]
            right = self.winners(self.rank_vals(c), c["order"])
            other = "lowest" if c["order"] == "highest" else "highest"
            alts = [(f"the other order ({other})", self.winners(self.rank_vals(c), other))]
            if tid == "b11-06":
                sp = self.rank_vals(c, sensor="Air Temp SP")
                alts.append(("the setpoints (Air Temp SP) ranked", self.winners(sp, c["order"])))
            for what, w in alts:
                self.wrong(tid, what, ", ".join(w), not set(w) & set(right), f"the right winner: {', '.join(right)}")
        elif "duration" in ex:
            c = ex["duration"]
            h, share = self.hours_past(c)
            alt = {
                "b11-09": ("the setpoint (Air Temp SP) above 0", dict(sensor="Air Temp SP")),
                "b11-21": ("the battery's Active Power (kW) below 20", dict(sensor="Active Power")),
                "b11-22": ("the other sign (Net Power below 0)", dict(direction="below")),
            }.get(tid)
            if alt is None:
                self.out.append(
                    f"  (the form only: the checker passes the hours as well as the share; {h:g} h = {share:.2f} % "
                    "of the day's samples — a wrong form cannot fail here)"
                )
                return
            ha, sa = self.hours_past(c, **alt[1])
            fails = abs(ha - h) > max(0.25, 0.02 * h) and abs(sa - share) > 1.0
            self.wrong(tid, alt[0], f"{ha:g} h ({sa:.2f} %)", fails, f"the right: {h:g} h ({share:.2f} %)")
        elif "time_of_extreme" in ex:
            c = ex["time_of_extreme"]
            ser = self.P.series(c["site"], c["asset"], c["sensor"], T(c["start"]), T(c["end"]))
            tz = self.site_of(c).tz
            _, right = extreme_instants(ser, c["extreme"])
            other = "min" if c["extreme"] == "max" else "max"
            _, alt = extreme_instants(ser, other)
            near = any(abs(a - r) <= dt.timedelta(minutes=15) for a in alt for r in right)
            self.wrong(tid, f"the time of the {other}", ", ".join(local(t, tz) for t in alt), not near)
        elif "energy" in ex:
            c = ex["energy"]
            a, b = T(c["start"]), T(c["end"])
            kwh = energy(self.P.series(c["site"], c["asset"], c["sensor"], a, b), "kW")
            tol = max(c.get("rel_tol", 0.005) * abs(kwh), c.get("abs_tol", 0.01))
            other = "Charge Power" if c["sensor"] == "Discharge Power" else "Discharge Power"
            for what, sn in (("the signed Active Power's net integral", "Active Power"), (f"the {other}", other)):
                v = energy(self.P.series(c["site"], c["asset"], sn, a, b), "kW")
                self.wrong(tid, what, f"{fmtv(v)} kWh", abs(v - kwh) > tol, f"the right: {fmtv(kwh)} kWh")
        elif "value" in ex and "derive" in ex["value"]:
            c = ex["value"]
            agg = c.get("aggregate", c.get("stat"))
            v = aggregate(self.derived(c, T(c["start"]), T(c["end"]))[0], agg)
            tol = tolerance(c, v)
            if c["derive"] == "ratio":
                sw = dict(c, a=c["b"], b=c["a"])
                alt = aggregate(self.derived(sw, T(c["start"]), T(c["end"]))[0], agg)
                self.wrong(tid, "the operands swapped (Y / X)", f"{alt:.4f}", abs(alt - v) > tol, f"the right: {v:.4f}")
            else:
                ser = self.P.series(c["site"], c["a"]["asset"], c["a"]["sensor"], T(c["start"]), T(c["end"]))
                alt = aggregate(ser, agg)
                self.wrong(
                    tid, "the room's mean temperature alone", f"{alt:.3f}", abs(alt - v) > tol, f"the right: {v:.3f}"
                )
                self.wrong(tid, "the operands swapped (SP - air)", f"{-v:.3f}", abs(-v - v) > tol,
                      "only if the checker reads the sign")  # fmt: skip
        elif "value" in ex and tid == "b11-20":
            c = ex["value"]
            ser = self.P.series(c["site"], c["asset"], c["sensor"], T(c["start"]), T(c["end"]))
            v = aggregate(ser, "max")
            mag = max(abs(x) for _, x in ser)
            self.wrong(tid, "the largest magnitude (a charge)", f"{fmtv(mag)} kW", abs(mag - v) > tolerance(c, v),
                  f"the right: {fmtv(v)} kW")  # fmt: skip
        elif "yes_no" in ex and "excursion" in ex["yes_no"]:
            x = ex["yes_no"]["excursion"]
            ser = self.P.series(x["site"], x["asset"], x["sensor"], T(x["start"]), T(x["end"]))
            lvl = self.P.series(x["site"], x["asset"], "Level", T(x["start"]), T(x["end"]))
            right = any(past(v, x["limit"], x["direction"]) for _, v in ser)
            alt = [v for _, v in lvl if past(v, x["limit"], x["direction"])]
            got = f"{'Yes' if alt else 'No'} ({len(alt)} samples of Level under {x['limit']} %, min {fmtv(min(v for _, v in lvl))})"  # noqa: E501
            self.wrong(tid, "the tank's Level (%)", got, bool(alt) != right, f"the right: {'Yes' if right else 'No'}")
        else:
            self.bad(tid, "a slot without a check")

    def main(self) -> int:
        body: list[str] = ["## Questions and answers", ""]
        for task in self.TASKS:
            tid = task["id"]
            self.out.clear()
            self.check_now(task)
            for kind, c in task["expect"].items():
                for cc in c if isinstance(c, list) else [c]:
                    self.do_check(tid, kind, cc, task)
            self.slot_checks(tid, task)
            body += [f"### {tid} — {', '.join(task['tags'])}", ""]
            body += [f"> {line}" for line in task["question"].splitlines()]
            body += ["", f"now: `{task['now']}`"]
            if task.get("notes"):
                body += ["", f"notes: {task['notes'].strip()}"]
            body.append("")
            body += self.out
            body.append("")
        text = "\n".join([self.HEAD] + self.plant_tables() + [""] + body)
        if self.problems:
            text += "\n## Problems\n\n" + "\n".join(f"- {p}" for p in self.problems) + "\n"
        (self.HERE / "truth.md").write_text(text)
        for p in self.problems:
            print("NOT CLEAR-CUT:", p, file=sys.stderr)
        print(f"{len(self.TASKS)} tasks, {len(self.problems)} problems; wrote truth.md")
        return 1 if self.problems else 0


if __name__ == "__main__":
    sys.exit(Blind11(HERE, globals()).main())
