"""The second generation of the blind sets' truth (set 11, `truth: slots`): `SlotTruth`, the shared checks with the
words and the slot checks set 11 was written with. What differs from `Truth`: a derived value shows its aligned pairs
(and a ratio its ratio of means, which must pass too), a duration's runs are counted against RUNS (and said), the gap
question says the last sample, and the slot readings are SLOT's, one line each ("wrong default — …") in place of
WRONG and RIGHT_TOO.

The tables besides the shared ones (docs/plants.md):
  SLOT   per slot-dependent task: {"slot": the slot in words, "wrong": [(what, overrides), ...]}; the readings a
         program could default to, each of which must fail. Some come with the check's kind: a ranking's other order,
         a time of extreme's other extreme, a ratio's operands swapped. The listed ones are overrides merged into the
         check (a ranking's, a duration's, an energy's `sensor`, `direction`, `limit`, ...; an excursion's `sensor`),
         or for a value: `_a_alone` (a difference's first operand alone), `_swap` (a difference's operands swapped:
         the same figure with the other sign), `_magnitude` (the largest magnitude for the maximum). A duration with
         none listed says its form only (the checker passes the hours as well as the share).
  RUNS   duration tasks whose samples past the limit come in more than one run, and how many

Written from blind set 11's truth.py; the set regenerates its truth.md byte-identical through it.
"""

from __future__ import annotations

import datetime as dt
from typing import Any

from edge_agent.evaluation.plantkit.reading import aggregate, at, duration, energy, extreme_instants, gaps, local, past
from edge_agent.evaluation.plantkit.truth import Truth
from edge_agent.evaluation.plantkit.truthbase import T, fmtv, tolerance


class SlotTruth(Truth):
    """One second-generation blind set's truth (set 11's checks and words)."""

    def __init__(self, here, ns: dict[str, Any]):
        super().__init__(here, ns)
        self.SLOT: dict[str, dict] = ns.get("SLOT", {})
        self.RUNS: dict[str, int] = ns.get("RUNS", {})

    def derived(self, c, start=None, end=None):
        """The aligned pointwise a - b, a + b or a / b (pairs with b = 0 dropped) over [start, end), and a's and b's
        series."""
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

    def runs_past(self, tid: str, pts: list) -> None:
        """A duration's samples past the limit come in RUNS[tid] runs (default one), said where more than one."""
        runs = 1 + sum((b - a) != dt.timedelta(minutes=15) for a, b in zip(pts, pts[1:]))
        if runs != self.RUNS.get(tid, 1):
            self.bad(tid, f"the samples past the limit come in {runs} runs, not the designed {self.RUNS.get(tid, 1)}")
        elif runs > 1:
            self.out.append(f"  ({runs} runs of samples past the limit, as designed)")

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

    # ----- the slot readings ---------------------------------------------------------------------------------------
    def rank_vals(self, c):
        vals = {}
        for n in c["assets"]:
            ser = self.P.series(c["site"], n, c["sensor"], T(c["start"]), T(c["end"]))
            b = c["by"]
            vals[n] = energy(ser, self.P.point(c["site"], n, c["sensor"]).unit) if b == "energy" else aggregate(ser, b)
        return vals

    def winners(self, vals, order):
        best = max(vals.values()) if order == "highest" else min(vals.values())
        return [n for n, v in vals.items() if abs(v - best) <= 1e-9 * max(1, abs(best))]

    def hours_past(self, c):
        a, b = T(c["start"]), T(c["end"])
        ser = self.P.series(c["site"], c["asset"], c["sensor"], a, b)
        comp = self.compared_of(c, ser, a, b)
        tot, n_past, n = duration(ser, comp, c["direction"], b)
        return tot.total_seconds() / 3600, n_past / n * 100

    def wrong(self, tid: str, what: str, got: str, fails: bool, why: str = "") -> None:
        self.out.append(
            f"  wrong default — {what}: {got} → {'fails' if fails else 'WOULD PASS'}{f' ({why})' if why else ''}"
        )
        if not fails:
            self.bad(tid, f"the wrong default ({what}) would pass: {got}")

    def wrong_readings(self, task) -> None:
        """SLOT's readings of a slot-dependent task, each of which must fail (in place of WRONG and RIGHT_TOO)."""
        tid = task["id"]
        if tid not in self.SLOT:
            return
        self.out.append(f"- slot: {self.SLOT[tid]['slot']}")
        listed = self.SLOT[tid].get("wrong", [])
        ex = task["expect"]
        if "ranks" in ex:
            c = ex["ranks"]
            right = self.winners(self.rank_vals(c), c["order"])
            other = "lowest" if c["order"] == "highest" else "highest"
            alts = [(f"the other order ({other})", self.winners(self.rank_vals(c), other))]
            alts += [(what, self.winners(self.rank_vals({**c, **over}), c["order"])) for what, over in listed]
            for what, w in alts:
                self.wrong(tid, what, ", ".join(w), not set(w) & set(right), f"the right winner: {', '.join(right)}")
        elif "duration" in ex:
            c = ex["duration"]
            h, share = self.hours_past(c)
            if not listed:
                self.out.append(
                    f"  (the form only: the checker passes the hours as well as the share; {h:g} h = {share:.2f} % "
                    "of the day's samples — a wrong form cannot fail here)"
                )
            for what, over in listed:
                ha, sa = self.hours_past({**c, **over})
                fails = abs(ha - h) > max(0.25, 0.02 * h) and abs(sa - share) > 1.0
                self.wrong(tid, what, f"{ha:g} h ({sa:.2f} %)", fails, f"the right: {h:g} h ({share:.2f} %)")
        elif "time_of_extreme" in ex:
            c = ex["time_of_extreme"]
            ser = self.P.series(c["site"], c["asset"], c["sensor"], T(c["start"]), T(c["end"]))
            tz = self.site_of(c).tz
            _, right_at = extreme_instants(ser, c["extreme"])
            other = "min" if c["extreme"] == "max" else "max"
            _, alt = extreme_instants(ser, other)
            near = any(abs(a - r) <= dt.timedelta(minutes=15) for a in alt for r in right_at)
            self.wrong(tid, f"the time of the {other}", ", ".join(local(t, tz) for t in alt), not near)
        elif "energy" in ex:
            c = ex["energy"]
            a, b = T(c["start"]), T(c["end"])
            unit = self.P.point(c["site"], c["asset"], c["sensor"]).unit
            kwh = energy(self.P.series(c["site"], c["asset"], c["sensor"], a, b), unit)
            tol = max(c.get("rel_tol", 0.005) * abs(kwh), c.get("abs_tol", 0.01))
            for what, over in listed:
                cc = {**c, **over}
                ser = self.P.series(cc["site"], cc["asset"], cc["sensor"], a, b)
                v = energy(ser, self.P.point(cc["site"], cc["asset"], cc["sensor"]).unit)
                self.wrong(tid, what, f"{fmtv(v)} kWh", abs(v - kwh) > tol, f"the right: {fmtv(kwh)} kWh")
        elif "value" in ex and "derive" in ex["value"]:
            self.derive_readings(tid, ex["value"], listed)
        elif "value" in ex and listed:
            c = ex["value"]
            ser = self.P.series(c["site"], c["asset"], c["sensor"], T(c["start"]), T(c["end"]))
            unit = self.P.point(c["site"], c["asset"], c["sensor"]).unit
            v = aggregate(ser, "max")
            for what, over in listed:
                assert over.get("_magnitude"), (tid, over)
                mag = max(abs(x) for _, x in ser)
                self.wrong(
                    tid, what, f"{fmtv(mag)} {unit}", abs(mag - v) > tolerance(c, v), f"the right: {fmtv(v)} {unit}"
                )
        elif "yes_no" in ex and "excursion" in ex["yes_no"]:
            x = ex["yes_no"]["excursion"]
            below = x["direction"] == "below"
            right = any(past(v, x["limit"], x["direction"]) for _, v in self.P.series(
                x["site"], x["asset"], x["sensor"], T(x["start"]), T(x["end"])))  # fmt: skip
            for what, over in listed:
                sn = over["sensor"]
                other = self.P.series(x["site"], x["asset"], sn, T(x["start"]), T(x["end"]))
                unit = self.P.point(x["site"], x["asset"], sn).unit
                alt = [v for _, v in other if past(v, x["limit"], x["direction"])]
                ext = (min if below else max)(v for _, v in other)
                got = (
                    f"{'Yes' if alt else 'No'} ({len(alt)} samples of {sn} {'under' if below else 'over'} "
                    f"{x['limit']} {unit}, {'min' if below else 'max'} {fmtv(ext)})"
                )
                self.wrong(tid, what, got, bool(alt) != right, f"the right: {'Yes' if right else 'No'}")
        else:
            self.bad(tid, "a slot without a check")

    def derive_readings(self, tid, c, listed) -> None:
        """A derived value's slot readings: a ratio's operands swapped (always), and the listed `_a_alone`, `_swap`."""
        agg = c.get("aggregate", c.get("stat"))
        v = aggregate(self.derived(c, T(c["start"]), T(c["end"]))[0], agg)
        tol = tolerance(c, v)
        if c["derive"] == "ratio":
            sw = dict(c, a=c["b"], b=c["a"])
            alt = aggregate(self.derived(sw, T(c["start"]), T(c["end"]))[0], agg)
            self.wrong(tid, "the operands swapped (Y / X)", f"{alt:.4f}", abs(alt - v) > tol, f"the right: {v:.4f}")
            return
        for what, over in listed:
            if over.get("_a_alone"):
                ser = self.P.series(c["site"], c["a"]["asset"], c["a"]["sensor"], T(c["start"]), T(c["end"]))
                alt = aggregate(ser, agg)
                self.wrong(tid, what, f"{alt:.3f}", abs(alt - v) > tol, f"the right: {v:.3f}")
            elif over.get("_swap"):
                self.wrong(tid, what, f"{-v:.3f}", abs(-v - v) > tol, "only if the checker reads the sign")
            else:
                self.bad(tid, f"a derived value's reading is _a_alone or _swap, not {over}")
