"""The blind sets' checks of figures (a part of `Truth`): a value, an energy, a ranking, two periods, an excursion, a
duration, the time of an extreme, a derived series, a partial answer, a file; each the true answer from the plant and
whether it is clear-cut."""

from __future__ import annotations

import datetime as dt

from edge_agent.evaluation.plantkit.reading import (
    aggregate,
    at,
    duration,
    energy,
    extreme_instants,
    gaps,
    local,
    past,
    spacing,
)
from edge_agent.evaluation.plantkit.truthbase import (
    NIGHT_READINGS,
    Parts,
    T,
    fmtv,
    same,
    tolerance,
    wall,
)


class FigureChecks(Parts):
    """Figure checks: a part of `Truth` (truth.py), on its tables and plant."""

    def derived(self, c, start=None, end=None):
        """The aligned derived series a - b, a + b or a / b (pairs with b = 0 dropped) in [start, end)."""
        s0, e0 = start or T(c["start"]), end or T(c["end"])
        sa = dict(self.P.series(c["site"], c["a"]["asset"], c["a"]["sensor"], s0, e0))
        sb = dict(self.P.series(c["site"], c["b"]["asset"], c["b"]["sensor"], s0, e0))
        out_ = []
        for t_ in sorted(set(sa) & set(sb)):
            x, y = sa[t_], sb[t_]
            if c["derive"] == "difference":
                out_.append((t_, x - y))
            elif c["derive"] == "sum":
                out_.append((t_, x + y))
            elif y != 0:
                out_.append((t_, x / y))
        return out_

    def chk_derive(self, tid, c, now):
        tz = self.site_of(c).tz
        self.window_matches(tid, c["start"], c["end"], now, tz)
        for side in ("a", "b"):
            self.no_gaps(
                tid, self.P.series(c["site"], c[side]["asset"], c[side]["sensor"], T(c["start"]), T(c["end"])), side
            )
        agg = c.get("aggregate", c.get("stat"))
        ser = self.derived(c)
        v = aggregate(ser, agg)
        ua = self.P.point(c["site"], c["a"]["asset"], c["a"]["sensor"]).unit
        self.out.append(
            f"- {agg} of {c['derive']} ({c['a']['asset']} {c['a']['sensor']}, "
            f"{c['b']['asset']} {c['b']['sensor']}) over "
            f"[{local(T(c['start']), tz)}, {local(T(c['end']), tz)}) on {len(ser)} aligned instants = **{fmtv(v)}**"
            f"{' ' + ua if c['derive'] != 'ratio' else ''} (tolerance ±{fmtv(tolerance(c, v))})"
        )
        self.misread(tid, c, now, lambda a, b: aggregate(self.derived(c, a, b), agg), v, agg)

    def chk_partial(self, tid, c, task):
        """A `partial` task: here, an instant asked that lies inside a gap of the asked point's history."""
        words = self.WORDS.get(tid, {}).get("gap_at")
        if not words:
            self.out.append("- **the run must end `partial`**")
            return
        site, asset, sensor = self.GAP_POINT[tid]
        s = self.P.site(site)
        d0, _ = self.resolve(words[0], T(task["now"]), s.tz)
        inst = dt.datetime.combine(d0.date(), dt.time.fromisoformat(words[1]), s.tz)
        p = self.P.point(site, asset, sensor)
        ser = list(zip(p.ts, p.vals))
        hit = at(p, inst, 60)
        before = [t_ for t_ in p.ts if t_ <= inst]
        after = [t_ for t_ in p.ts if t_ > inst]
        inside = [(a, b) for a, b in gaps(ser) if a < inst < b]
        self.out.append(
            f"- {asset} {sensor} at {local(inst, s.tz)}: **no sample** — inside the gap "
            f"{', '.join(f'{local(a, s.tz)} → {local(b, s.tz)}' for a, b in inside) or '(none!)'}; "
            f"the last sample before "
            f"{local(before[-1], s.tz) if before else '—'}, the next {local(after[0], s.tz) if after else '—'}: the "
            f"**run must end `partial`** (saying the value was not recorded), not answer a figure"
        )
        if hit is not None or not inside:
            self.bad(tid, f"the instant {inst.isoformat()} is not inside a gap (a sample within 60 min: {hit})")
        if tid in self.SLOT_OTHER and before and after:
            vb = dict(ser)[before[-1]]
            va = dict(ser)[after[0]]
            w = (inst - before[-1]) / (after[0] - before[-1])
            self.out.append("- slot readings (the true one: not recorded → `partial`):")
            self.out.append(
                f"  - wrong: the last sample before the gap, {fmtv(vb)} at {local(before[-1], s.tz)} "
                f"(a look-back wider than an hour) — an answered figure fails `partial`"
            )
            self.out.append(f"  - wrong: the next sample, {fmtv(va)} at {local(after[0], s.tz)} — fails likewise")
            self.out.append(f"  - wrong: interpolated across the gap, {fmtv(vb + w * (va - vb))} — fails likewise")

    def chk_value(self, tid, c, now):
        if c.get("derive"):
            self.chk_derive(tid, c, now)
            return
        tz = self.site_of(c).tz
        p = self.P.point(c["site"], c["asset"], c["sensor"])
        unit = p.unit or ""
        if c.get("aggregate") == "at":
            inst = T(c["at"])
            words = self.WORDS.get(tid, {}).get("at")
            if words:
                day, clock = words
                want = (
                    now
                    if clock == "now"
                    else dt.datetime.combine(
                        self.day_of(day, now.astimezone(tz).date()), dt.time.fromisoformat(clock), tz
                    )
                )
                if not same(inst, want):
                    self.bad(tid, f"instant {inst.isoformat()} is not the asked {want.isoformat()}")
            hit = at(p, inst, c.get("at_window_minutes", 60))
            if hit is None or hit[0] != inst:
                self.bad(tid, f"no sample exactly at {inst.isoformat()} ({hit})")
                return
            prev = at(p, inst - dt.timedelta(minutes=15), 0)
            nxt = at(p, inst + dt.timedelta(minutes=15), 0)
            self.out.append(
                f"- value of {c['asset']} {c['sensor']} at {local(inst, tz)} = **{fmtv(hit[1])} {unit}** "
                f"(tolerance ±{fmtv(tolerance(c, hit[1]))}; the samples either side: {fmtv(prev[1]) if prev else '—'}, "
                f"{fmtv(nxt[1]) if nxt else '—'})"
            )
            # the instant misread: by one hour (a clock change) or by the site's whole UTC offset (local read as UTC)
            off = inst.astimezone(tz).utcoffset()
            shifts = {dt.timedelta(hours=1), off, -off, dt.timedelta(hours=-1)} - {dt.timedelta(0)}
            passing = []
            for sh in sorted(shifts):
                other = at(p, inst + sh, 0)
                if other and abs(other[1] - hit[1]) <= tolerance(c, hit[1]):
                    passing.append(f"{local(other[0], tz)} ({fmtv(other[1])})")
            if tid in self.REGISTER_AT:  # a register read one sample off must fail
                for sh in (dt.timedelta(minutes=-15), dt.timedelta(minutes=15)):
                    other = at(p, inst + sh, 0)
                    if other and abs(other[1] - hit[1]) <= tolerance(c, hit[1]):
                        passing.append(f"{local(other[0], tz)} ({fmtv(other[1])}, one sample off)")
                before_s, after_s = (fmtv(prev[1]) if prev else "—"), (fmtv(nxt[1]) if nxt else "—")
                diff_b = fmtv(hit[1] - prev[1]) if prev else "—"
                diff_a = fmtv(nxt[1] - hit[1]) if nxt else "—"
                self.out.append(
                    f"  the register one sample either side: {before_s}, {after_s} (differences {diff_b}, {diff_a})"
                    " — fail"
                )
            if passing and tid in self.FLAT:
                self.out.append(f"  the series is flat here: {', '.join(passing)} pass as well ({self.FLAT[tid]})")
            elif passing:
                self.bad(tid, f"the instant misread by an hour or by the UTC offset passes too: {', '.join(passing)}")
            return
        ser = self.P.series(c["site"], c["asset"], c["sensor"], T(c["start"]), T(c["end"]))
        self.window_matches(tid, c["start"], c["end"], now, tz)
        self.no_gaps(tid, ser, "value")
        self.n_samples(tid, ser)
        agg = c["aggregate"]
        v = aggregate(ser, agg)
        self.out.append(
            f"- {agg} of {c['asset']} {c['sensor']} over [{local(T(c['start']), tz)}, {local(T(c['end']), tz)}) = "
            f"**{fmtv(v)} {unit}** ({len(ser)} samples; tolerance ±{fmtv(tolerance(c, v))})"
        )
        self.misread(
            tid, c, now, lambda a, b: aggregate(self.P.series(c["site"], c["asset"], c["sensor"], a, b), agg), v, agg
        )
        if self.WORDS.get(tid, {}).get("win") == "night":
            self.night_readings(tid, c, now, tz, agg, v)
        if agg in ("max", "min"):
            _, inst = extreme_instants(ser, agg)
            self.out.append(f"  (at {', '.join(local(t, tz) for t in inst)})")
            self.design(tid, inst[0].astimezone(tz).strftime("%Y-%m-%d %H:%M"), "instant of the extreme")

    def night_readings(self, tid, c, now, tz, agg, v) -> None:
        """An aggregate asked of "last night": its other readings (NIGHT_READINGS) must give the same figure; the
        calendar days either side are shown."""
        today = now.astimezone(tz).date()
        agree: list[str] = []
        differ: list[str] = []
        for h0, h1 in NIGHT_READINGS:
            a = wall(today - dt.timedelta(days=1), h0, tz)
            b = now if h1 is None else wall(today, h1, tz)
            w = aggregate(self.P.series(c["site"], c["asset"], c["sensor"], a, b), agg)
            (agree if abs(w - v) <= tolerance(c, v) else differ).append(f"[{local(a, tz)}, {local(b, tz)}) {fmtv(w)}")
        cal = {}
        for what, d in (("yesterday's calendar day", today - dt.timedelta(days=1)), ("today so far", today)):
            a = self.midnight(d, tz)
            b = min(now, self.midnight(d + dt.timedelta(days=1), tz))
            cal[what] = aggregate(self.P.series(c["site"], c["asset"], c["sensor"], a, b), agg)
        self.out.append(f"  other readings of 'last night' that agree: {'; '.join(agree)}")
        self.out.append("  (" + "; ".join(f"{k}: {fmtv(x)}" for k, x in cal.items()) + ")")
        if differ:
            self.bad(tid, f"a reading of 'last night' gives another value: {'; '.join(differ)}")

    def chk_energy(self, tid, c, now):
        tz = self.site_of(c).tz
        p = self.P.point(c["site"], c["asset"], c["sensor"])
        ser = self.P.series(c["site"], c["asset"], c["sensor"], T(c["start"]), T(c["end"]))
        self.window_matches(tid, c["start"], c["end"], now, tz)
        self.no_gaps(tid, ser, "energy")
        self.n_samples(tid, ser)
        if p.unit not in ("W", "kW", "MW"):
            self.bad(tid, f"energy of a {p.unit} point")
            return
        kwh = energy(ser, p.unit)
        tol = c.get("rel_tol", 0.005)
        span = (T(c["end"]) - T(c["start"])).total_seconds() / 3600
        self.out.append(
            f"- energy of {c['asset']} {c['sensor']} ({p.unit}) over [{local(T(c['start']), tz)}, "
            f"{local(T(c['end']), tz)}) ({span:g} h, {len(ser)} samples) = **{fmtv(kwh)} kWh** "
            f"(tolerance {tol * 100:g} %: {fmtv(kwh * (1 - tol))} .. {fmtv(kwh * (1 + tol))})"
        )
        self.misread(
            tid,
            c,
            now,
            lambda a, b: energy(self.P.series(c["site"], c["asset"], c["sensor"], a, b), p.unit),
            kwh,
            "energy",
        )
        reg_name = self.REGISTER.get(tid)
        if reg_name:
            reg = self.P.point(c["site"], c["asset"], reg_name)
            scale = {"kWh": 1.0, "MWh": 1000.0}[reg.unit]
            r0, r1 = at(reg, T(c["start"]), 0), at(reg, T(c["end"]), 0)
            full = (r1[1] - r0[1]) * scale
            odd_day = span < 48 and span != 24
            line = (
                f"  {reg_name} register ({reg.unit}): {fmtv(r0[1])} at {local(r0[0], tz)}, {fmtv(r1[1])} at "
                f"{local(r1[0], tz)}: {self.REGISTER_SPAN} ({span:g} h) **{fmtv(full)} kWh** "
                f"({(full / kwh - 1) * 100:+.2f} %)"
            )
            if span < 48:
                mean24 = aggregate(ser, "mean") * 24 * (1000 if p.unit == "MW" else 0.001 if p.unit == "W" else 1)
                line += (
                    f"; 24 x the day's mean power = {fmtv(mean24)} kWh ({(mean24 / kwh - 1) * 100:+.2f} %"
                    f"{f', wrong: the day has {span:g} hours' if odd_day else ''})"
                )
                if odd_day and abs(mean24 - kwh) <= tol * kwh:
                    self.bad(tid, f"24 x mean power would pass: the {span:g}-hour day is not tested")
            self.out.append(line)
            if abs(full - kwh) > tol * kwh:
                self.bad(tid, f"the register's difference {full:.1f} is outside the tolerance of {kwh:.1f}")

    def chk_ranks(self, tid, c, now):
        s = self.site_of(c)
        self.window_matches(tid, c["start"], c["end"], now, s.tz)
        vals, order, rel = self.ranking(tid, c)
        u = "kWh" if c["by"] == "energy" else self.P.point(c["site"], order[0], c["sensor"]).unit
        self.out.append(
            f"- ranked by {c['by']} ({c['order']} first) over "
            f"[{local(T(c['start']), s.tz)}, {local(T(c['end']), s.tz)}): "
            + ", ".join(f"{n} {fmtv(vals[n])} {u}" for n in order)
            + f" → **{order[0]}** (the runner-up {rel * 100:.1f} % away)"
        )
        if rel < 0.03:
            self.bad(tid, f"the runner-up is only {rel * 100:.2f} % away")
        self.design(tid, order[0], "winner")

    def ranking(self, tid, c, count_samples: bool = True):
        """Each compared asset's value (its window without a gap; with `count_samples`, the designed samples), the
        assets in the ranking's order, how far the runner-up lies from the winner (relative)."""
        vals = {}
        for n in self.ranked_assets(c):
            ser = self.P.series(c["site"], n, c["sensor"], T(c["start"]), T(c["end"]))
            self.no_gaps(tid, ser, f"ranks {n}")
            if count_samples:
                self.n_samples(tid, ser)
            unit = self.P.point(c["site"], n, c["sensor"]).unit
            vals[n] = energy(ser, unit) if c["by"] == "energy" else aggregate(ser, c["by"])
        order = sorted(vals, key=lambda k: vals[k], reverse=c["order"] == "highest")
        return vals, order, abs(vals[order[0]] - vals[order[1]]) / abs(vals[order[0]])

    def chk_periods(self, tid, c, now):
        tz = self.site_of(c).tz
        words = self.WORDS.get(tid, {}).get("periods")
        if words:
            for which, phrase in zip(("first", "second"), words):
                self.window_matches(tid, c[which]["start"], c[which]["end"], now, tz, phrase)
        vals, win, rel, parts = self.period_values(tid, c, tz, " / ")
        self.out.append(
            f"- {c['by']} of {c['asset']} {c['sensor']}: {'; '.join(parts)} → **{c[win]['labels'][0]}** is "
            f"{c['order']} ({rel * 100:.1f} % apart)"
        )
        if rel < 0.03:
            self.bad(tid, f"the periods are only {rel * 100:.2f} % apart")
        self.design(tid, win, "period")

    def period_values(self, tid, c, tz, sep: str, checked: bool = True):
        """Two periods of a series compared: each one's value, the one with the `order` value, how far apart they lie
        (relative), and each period's labels (joined by `sep`), window and value in words; `checked`: each window
        has no gap and the designed samples."""
        unit = self.P.point(c["site"], c["asset"], c["sensor"]).unit
        vals = {}
        for k, which in enumerate(("first", "second")):
            ser = self.P.series(c["site"], c["asset"], c["sensor"], T(c[which]["start"]), T(c[which]["end"]))
            if checked:
                self.no_gaps(tid, ser, f"period {which}")
                self.n_samples(tid, ser, k)
            vals[which] = energy(ser, unit) if c["by"] == "energy" else aggregate(ser, c["by"])
        win = max(vals, key=lambda k: vals[k]) if c["order"] == "highest" else min(vals, key=lambda k: vals[k])
        rel = abs(vals["first"] - vals["second"]) / max(abs(vals["first"]), abs(vals["second"]))
        u = "kWh" if c["by"] == "energy" else unit
        parts = [
            f"{sep.join(c[w]['labels'])} [{local(T(c[w]['start']), tz)}, {local(T(c[w]['end']), tz)}) = "
            f"{fmtv(vals[w])} {u}"
            for w in ("first", "second")
        ]
        return vals, win, rel, parts

    def chk_excursion(self, tid, x, now):
        tz, ser, comp = self.limit_window(tid, x, now, "excursion")
        if not comp:
            self.bad(tid, "no samples to compare")
            return
        hits = [r for r in comp if past(r[1], r[2], x["direction"])]
        closest = min(abs(v - lim) for _, v, lim in comp)
        sign = 1 if x["direction"] == "above" else -1
        worst = max(comp, key=lambda r: sign * (r[1] - r[2]))
        ans = bool(hits)
        self.out.append(
            f"- {x['asset']} {x['sensor']} {x['direction']} {x.get('limit', x.get('limit_sensor'))} over "
            f"[{local(T(x['start']), tz)}, {local(T(x['end']), tz)}): **{'Yes' if ans else 'No'}** — {len(hits)} of "
            f"{len(comp)} compared samples past it; the most extreme {fmtv(worst[1])} (limit {fmtv(worst[2])}) at "
            f"{local(worst[0], tz)}; the closest sample {closest:.3f} from the limit"
        )
        if hits:
            self.out.append(f"  first past {local(hits[0][0], tz)}, last past {local(hits[-1][0], tz)}")
        if hits:  # a Yes: the most extreme sample well past the limit, and more than one sample past it
            margin = sign * (worst[1] - worst[2])
            floor = self.MARGIN_FLOOR.get(tid, max(0.5, 0.02 * abs(worst[2])))
            if margin < floor or len(hits) < 2:
                self.bad(
                    tid, f"a borderline Yes: {len(hits)} samples past, the most extreme {margin:.3f} past the limit"
                )
        elif closest < 0.1:  # a No: no sample near the limit
            self.bad(tid, f"a sample lies {closest:.3f} from the limit")
        self.design(tid, ans, "answer")

    def chk_duration(self, tid, c, now):
        tz, ser, comp = self.limit_window(tid, c, now, "duration")
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
        if closest < self.NEAR.get(tid, 0.1):
            self.bad(tid, f"a sample lies {closest:.3f} from the limit")
        self.runs_past(tid, pts)
        want = self.DESIGN.get(tid)
        if want and want[0] == "h" and abs(h - want[1]) > 1e-9:
            self.bad(tid, f"{h} h is not the designed {want[1]} h")
        if want and want[0] == "%" and abs(share - want[1]) > 1e-9:
            self.bad(tid, f"{share} % is not the designed {want[1]} %")

    def runs_past(self, tid: str, pts: list) -> None:
        """A duration's samples past the limit come in one run (MULTI_RUN: in several)."""
        if tid not in self.MULTI_RUN and any((b - a) != dt.timedelta(minutes=15) for a, b in zip(pts, pts[1:])):
            self.bad(tid, "the samples past the limit are not one run")

    def chk_extreme(self, tid, c, now):
        tz = self.site_of(c).tz
        self.window_matches(tid, c["start"], c["end"], now, tz)
        ser = self.P.series(c["site"], c["asset"], c["sensor"], T(c["start"]), T(c["end"]))
        self.no_gaps(tid, ser, "time of extreme")
        best, inst = extreme_instants(ser, c["extreme"])
        ranked = sorted({v for _, v in ser}, reverse=c["extreme"] == "max")
        runner = ranked[1]
        unit = self.P.point(c["site"], c["asset"], c["sensor"]).unit or ""
        self.out.append(
            f"- {c['extreme']} of {c['asset']} {c['sensor']} = {fmtv(best)} {unit} at "
            f"**{', '.join(local(t, tz) for t in inst)}** (the next value {fmtv(runner)})"
        )
        if len(inst) != 1:
            self.bad(tid, "the extreme is held at more than one instant")
        if abs(best - runner) < max(0.05, 0.005 * abs(best)) and tid in self.NEAR_EXTREME:
            self.out.append(f"  the next value is close: {fmtv(runner)} ({self.NEAR_EXTREME[tid]})")
        elif abs(best - runner) < max(0.05, 0.005 * abs(best)):
            self.bad(tid, f"the next value {runner} is too close to {best}")
        self.design(tid, inst[0].astimezone(tz).strftime("%Y-%m-%d %H:%M"), "instant")

    def clock_window(self, tid, c) -> None:
        """A window the question gives in clock times (CLOCK: day, from hour, to hour): the check's window is that,
        in the site's time, each end with the offset the site has then."""
        day, h0, h1 = self.CLOCK[tid]
        x = c.get("excursion", c)
        tz = self.site_of(x).tz
        want = tuple(wall(dt.date.fromisoformat(str(day)), hh, tz) for hh in (h0, h1))
        if not (same(T(x["start"]), want[0]) and same(T(x["end"]), want[1])):
            self.bad(tid, f"window {x['start']} .. {x['end']} is not {want[0].isoformat()} .. {want[1].isoformat()}")

    def chk_file(self, tid, c, now):
        tz = self.site_of(c).tz
        self.window_matches(tid, c["start"], c["end"], now, tz)
        sensors = c["sensor"] if isinstance(c["sensor"], list) else [c["sensor"]]
        parts = []
        for a in c["assets"]:
            for sn in sensors:
                ser = self.P.series(c["site"], a, sn, T(c["start"]), T(c["end"]))
                self.no_gaps(tid, ser, f"file {a} {sn}")
                self.n_samples(tid, ser)
                parts.append(f"{a} {sn}: {len(ser)} rows, {local(ser[0][0], tz)} … {local(ser[-1][0], tz)}")
        how = "one file" if c.get("single_file", True) else "one or more files"
        self.out.append(f"- {how}: **" + "; ".join(parts) + "**")
