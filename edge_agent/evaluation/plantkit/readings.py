"""The readings a blind set's slot-dependent question must fail or pass (a part of `Truth`; a truth.yaml's `wrong` and
`right_too`): each reading's verdict computed as the checker would judge an answer that read the question so."""

from __future__ import annotations

import datetime as dt
from typing import Any

from edge_agent.evaluation.plantkit.reading import (
    aggregate,
    at,
    duration,
    energy,
    extreme_instants,
    past,
)
from edge_agent.evaluation.plantkit.truthbase import Parts, T, fmtv, tolerance


class Readings(Parts):
    """Readings: a part of `Truth` (truth.py), on its tables and plant."""

    def verdict(self, kind: str, c: dict):
        """The answer a reading gives: a ranks winner set, a yes/no, hours past, a number, extreme instants, a
        period."""
        # the window (None where the check has none: then no branch that reads it is taken)
        s0: Any = T(c["start"]) if "start" in c else None
        e0: Any = T(c["end"]) if "end" in c else None
        if c.get("_plus"):  # the reading plus the same reading with these overrides (two loads' shares together)
            rest = {k: v for k, v in c.items() if k != "_plus"}
            return self.verdict(kind, rest) + self.verdict(kind, {**rest, **c["_plus"]})
        if kind == "time_of_extreme" and c.get("_shift_h"):  # the instants read with an offset `_shift_h` hours off
            base = {k: v for k, v in c.items() if k != "_shift_h"}
            return [t_ + dt.timedelta(hours=c["_shift_h"]) for t_ in self.verdict(kind, base)]
        if kind == "duration" and c.get("_counter"):  # a run-hours counter's difference, and its share of the window
            reg = self.P.point(c["site"], c["asset"], c["_counter"])
            hours = at(reg, e0, 0)[1] - at(reg, s0, 0)[1]
            return hours, hours / ((e0 - s0).total_seconds() / 3600) * 100
        if kind == "ranks":
            names = self.ranked_assets(c)
            vals = {}
            for n in names:
                ser = self.P.series(c["site"], n, c["sensor"], s0, e0)
                unit = self.P.point(c["site"], n, c["sensor"]).unit
                vals[n] = energy(ser, unit) if c["by"] == "energy" else aggregate(ser, c["by"])
            best = (max if c["order"] == "highest" else min)(vals.values())
            return {n for n, v in vals.items() if abs(v - best) <= 1e-9 * max(1.0, abs(best))}
        if kind in ("yes_no", "duration"):
            ser = self.P.series(c["site"], c["asset"], c["sensor"], s0, e0)
            if c.get("_negate"):
                ser = [(t_, -v) for t_, v in ser]
            comp = self.compared_of(c, ser, s0, e0)
            if kind == "yes_no":
                return any(past(v, li, c["direction"]) for _, v, li in comp)
            tot, n_past, n = duration(ser, comp, c["direction"], e0)
            return tot.total_seconds() / 3600, n_past / n * 100
        if kind == "energy":
            p = self.P.point(c["site"], c["asset"], c["sensor"])
            if c.get("_sum_kw"):  # a plain sum of the power samples taken for the energy
                return sum(v for _, v in self.P.series(c["site"], c["asset"], c["sensor"], s0, e0))
            if c.get("_register_mwh"):  # a MWh register's difference, in kWh
                reg = self.P.point(c["site"], c["asset"], c["_register_mwh"])
                assert reg.unit == "MWh", reg.unit
                return (at(reg, e0, 0)[1] - at(reg, s0, 0)[1]) * 1000.0
            if c.get("_register"):
                reg = self.P.point(c["site"], c["asset"], c["_register"])
                return at(reg, e0, 0)[1] - at(reg, s0, 0)[1]
            ser = self.P.series(c["site"], c["asset"], c["sensor"], s0, e0)
            if c.get("_mean24"):
                return aggregate(ser, "mean") * 24
            return energy(ser, p.unit)
        if kind == "file":
            sensors = c["sensor"] if isinstance(c["sensor"], list) else [c["sensor"]]
            return {
                (a, sn, t_) for a in c["assets"] for sn in sensors for t_, _ in self.P.series(c["site"], a, sn, s0, e0)
            }
        if kind == "value":
            if c.get("_registers"):
                a_eq, a_reg, b_eq, b_reg = c["_registers"]
                ra, rb = self.P.point(c["site"], a_eq, a_reg), self.P.point(c["site"], b_eq, b_reg)
                return (at(ra, e0, 0)[1] - at(ra, s0, 0)[1]) / (at(rb, e0, 0)[1] - at(rb, s0, 0)[1])
            if c.get("_ratio_of_means"):
                ser = self.derived({**c, "derive": "difference"})  # only for the alignment
                sa = dict(self.P.series(c["site"], c["a"]["asset"], c["a"]["sensor"], s0, e0))
                sb = dict(self.P.series(c["site"], c["b"]["asset"], c["b"]["sensor"], s0, e0))
                ts = [t_ for t_, _ in ser]
                return sum(sa[t_] for t_ in ts) / sum(sb[t_] for t_ in ts)
            if c.get("derive"):
                return aggregate(self.derived(c), c.get("aggregate") or c["stat"])
            if c.get("aggregate") == "at":
                hit = at(self.P.point(c["site"], c["asset"], c["sensor"]), T(c["at"]), c.get("at_window_minutes", 60))
                if hit is None:
                    raise ValueError("no sample")
                return hit[1]
            return aggregate(self.P.series(c["site"], c["asset"], c["sensor"], s0, e0), c["aggregate"])
        if kind == "time_of_extreme":
            return extreme_instants(self.P.series(c["site"], c["asset"], c["sensor"], s0, e0), c["extreme"])[1]
        if kind == "periods":
            unit = self.P.point(c["site"], c["asset"], c["sensor"]).unit
            vals = {}
            for w in ("first", "second"):
                ser = self.P.series(c["site"], c["asset"], c["sensor"], T(c[w]["start"]), T(c[w]["end"]))
                if c.get("_gross"):  # the positive part only (the gross a one-direction register counts)
                    ser = [(t_, max(v, 0.0)) for t_, v in ser]
                vals[w] = energy(ser, unit) if c["by"] == "energy" else aggregate(ser, c["by"])
            return (max if c["order"] == "highest" else min)(vals, key=lambda k: vals[k])
        raise ValueError(kind)

    def passes(self, kind: str, c: dict, true, got) -> bool:
        """Would an answer stating `got` pass the check whose true answer is `true`?"""
        if kind == "ranks":
            return bool(got & true)
        if kind in ("yes_no", "periods"):
            return got == true
        if kind == "duration":
            return abs(got[0] - true[0]) <= max(0.25, 0.02 * true[0]) or abs(got[1] - true[1]) <= 1.0
        if kind in ("value", "energy"):
            return abs(got - true) <= tolerance(c, true)
        if kind == "file":
            return got == true
        if kind == "time_of_extreme":
            return any(abs(a - b) <= dt.timedelta(minutes=15) for a in got for b in true)
        raise ValueError(kind)

    def show(self, x) -> str:
        if isinstance(x, set) and x and isinstance(next(iter(x)), tuple):  # a file's rows
            ts = sorted(t_ for _, _, t_ in x)
            return f"{len(x)} rows, {ts[0].isoformat()} … {ts[-1].isoformat()}"
        if isinstance(x, set):
            return ", ".join(sorted(x))
        if isinstance(x, tuple):
            return f"{x[0]:g} h ({x[1]:.2f} %)"
        if isinstance(x, list):
            return ", ".join(t_.isoformat() for t_ in x)
        if isinstance(x, bool):
            return "Yes" if x else "No"
        if isinstance(x, float):
            return fmtv(x)
        return str(x)

    def wrong_readings(self, task) -> None:
        tid = task["id"]
        if tid not in self.WRONG and tid not in self.RIGHT_TOO:
            return
        kinds = [
            k
            for k in ("ranks", "yes_no", "duration", "value", "energy", "file", "time_of_extreme", "periods")
            if k in task["expect"]
        ]
        if len(kinds) != 1:
            self.bad(tid, f"slot checks need exactly one value-bearing check, found {kinds}")
            return
        kind = kinds[0]
        c = task["expect"][kind]
        c = c["excursion"] if kind == "yes_no" else c
        true = self.verdict(kind, c)
        self.out.append(f"- slot readings (the true one: {self.show(true)}):")
        for what, over in self.WRONG.get(tid, []):
            cc = {k: v for k, v in {**c, **over}.items() if v is not None and k != "_same_ok"}
            try:
                got = self.verdict(kind, cc)
            except (KeyError, ValueError, IndexError, ZeroDivisionError) as exc:
                self.out.append(f"  - {what}: cannot be read ({exc!r}) — fails")
                continue
            ok = self.passes(kind, cc if kind in ("value", "energy") else c, true, got)
            if over.get("_same_ok"):  # a neighbouring reading that agrees: shown, not held against the task
                self.out.append(f"  - another reading: {what} → {self.show(got)} — {'agrees' if ok else 'differs'}")
                continue
            self.out.append(f"  - wrong: {what} → {self.show(got)} — {'PASSES' if ok else 'fails'}")
            if ok:
                self.bad(tid, f"the wrong reading '{what}' gives a passing answer ({self.show(got)})")
        for what, over in self.RIGHT_TOO.get(tid, []):
            got = self.verdict(kind, {**c, **over})
            ok = self.passes(kind, c, true, got)
            self.out.append(f"  - also right: {what} → {self.show(got)} — {'passes' if ok else 'FAILS'}")
            if not ok:
                self.bad(tid, f"the honest alternative '{what}' fails ({self.show(got)})")
