"""The first generation of the blind sets' truth (sets 3-6): `FirstTruth`, the checks those sets were written with,
in their own words in truth.md. The definitions are the same as `Truth`'s (plantkit/reading.py: spacing, gap,
energy, excursion, "at"); what differs is what truth.md says and which clear-cut checks run: no misread windows, no
slot readings, a limit margin of 0.05.

A set's truth.yaml (`truth: first`; docs/plants.md) holds only its tables:
  HEAD             the head of truth.md (a string; a list of lines in a truth.py)
  INTENT           what each question's words mean: {"win": phrase} | {"at": (day, clock)} ("now": the task's now;
                   day "now": the latest sample, the right-now question) | {"periods": (p1, p2)}, and {"yes": bool},
                   the designed yes/no; phrases: "today", "yesterday", "day before yesterday", "date:D",
                   "weekday:N" (the latest such weekday before today), "monthday:N" (the latest day N before today),
                   "last week", "week before last"
  EXPECTED_ANSWER  the answers the plant was designed to give (a winner, a count, a list, an instant, a period;
                   a duration as {"h": hours, "%": share})
  SAMPLES, REGISTER, GAP_INSIDE  samples a window must hold; energy tasks checked against a kWh register point
                   (task -> the point); value tasks whose window is meant to hold a gap
and the options where a set's checks read differently:
  REGISTER_LINES   how an energy's register is shown and checked: "plain" (its kWh readings, midnight to midnight
                   and 00:00 to 23:45 must pass), "named" (the same, the register named with its unit), "long_day"
                   (read to the day's last sample; on the 25-hour day 24 x the mean power must fail)
  LISTS_DETAIL     lists say each site's zone, each asset's markers, each point's kind and unit
  COUNT_WORD_NAMES a count of assets of a kind also shows the names that hold the marker's word
  DATA_ENDS_AT_NOW each site's data ends at its questions' now (the last sample within 15 minutes before it), the
                   site a task names or SITE_BY_OFFSET[its now's offset]; ASKED_EARLIER the tasks asked before that

Written from the copies in bench/blind3/ ... bench/blind6/truth.py (each grew from the one before; set 4 branched);
the sets 3-6 regenerate their truth.md byte-identical through it.
"""

from __future__ import annotations

import datetime as dt
from typing import Any

from edge_agent.evaluation.plantkit.firstcatalog import FirstCatalogChecks
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
from edge_agent.evaluation.plantkit.truth import Truth
from edge_agent.evaluation.plantkit.truthbase import T, fmtv, same


class FirstTruth(FirstCatalogChecks, Truth):
    """One first-generation blind set's truth: `FirstTruth(HERE, globals()).main()` from its truth.py."""

    POINTS_HEAD = "points (unit, kind)"

    def __init__(self, here, ns: dict[str, Any]):
        super().__init__(here, ns)
        self.INTENT: dict[str, dict] = ns.get("INTENT", {})
        self.EXPECTED: dict[str, Any] = ns.get("EXPECTED_ANSWER", {})
        self.GAP_INSIDE: set[str] = ns.get("GAP_INSIDE", set())
        self.REGISTER_LINES: str = ns.get("REGISTER_LINES", "plain")
        self.LISTS_DETAIL: bool = ns.get("LISTS_DETAIL", False)
        self.COUNT_WORD_NAMES: bool = ns.get("COUNT_WORD_NAMES", False)
        self.DATA_ENDS_AT_NOW: bool = ns.get("DATA_ENDS_AT_NOW", False)
        self.SITE_BY_OFFSET: dict[str, str] = ns.get("SITE_BY_OFFSET", {})
        self.ASKED_EARLIER: set[str] = ns.get("ASKED_EARLIER", set())

    # ----- the words ------------------------------------------------------------------------------------------------
    def midnight(self, day: dt.date, tz) -> dt.datetime:
        return dt.datetime.combine(day, dt.time(0), tz)

    def day_of(self, phrase: str, today: dt.date) -> dt.date:
        """The local day a phrase names: the shared phrases, and this generation's `date:D` and `monthday:N` (the
        latest such day before today, perhaps last month's)."""
        if phrase.startswith("date:"):
            return dt.date.fromisoformat(phrase[5:])
        if phrase.startswith("monthday:"):
            n = int(phrase[9:])
            d0 = today - dt.timedelta(days=1)
            while d0.day != n:
                d0 -= dt.timedelta(days=1)
            return d0
        return super().day_of(phrase, today)

    def check_window(self, tid: str, start: str, end: str, now, tz) -> None:
        phrase = self.INTENT.get(tid, {}).get("win")
        if phrase is None:
            return
        s, e = self.resolve(phrase, now, tz)
        if not (same(T(start), s) and same(T(end), e)):
            self.bad(tid, f"window {start}..{end} is not '{phrase}' ({s.isoformat()}..{e.isoformat()})")

    def margin(self, tid: str, comp, what: str, eps: float) -> float:
        m = min(abs(v - lim) for _, v, lim in comp)
        if m < eps:
            self.bad(tid, f"{what}: a sample lies within {eps} of the limit ({m:.4f})")
        return m

    # ----- the checks -----------------------------------------------------------------------------------------------
    def chk_value(self, tid, c, now):
        tz = self.site_of(c).tz
        p = self.P.point(c["site"], c["asset"], c["sensor"])
        if c.get("aggregate") == "at":
            self.value_at(tid, c, now, tz, p)
            return
        ser = self.P.series(c["site"], c["asset"], c["sensor"], T(c["start"]), T(c["end"]))
        self.check_window(tid, c["start"], c["end"], now, tz)
        self.n_samples(tid, ser)
        if tid in self.GAP_INSIDE:  # a gap the question is meant to hold (it cannot change the answer)
            held = ", ".join(f"{local(a, tz)} → {local(b, tz)}" for a, b in gaps(ser))
            self.out.append(f"  (the window holds a gap: {held})")
        else:
            self.no_gaps(tid, ser, "value")
        agg = c["aggregate"]
        v = aggregate(ser, agg)
        self.out.append(
            f"- value: {agg} of {c['asset']} {c['sensor']} in [{local(T(c['start']), tz)}, "
            f"{local(T(c['end']), tz)}) = **{fmtv(v)} {p.unit}** ({len(ser)} samples)"
        )
        if agg in ("max", "min"):
            _, inst = extreme_instants(ser, agg)
            self.out.append(f"  (at {', '.join(local(t, tz) for t in inst)})")
            want = self.EXPECTED.get(tid)
            if want and (len(inst) != 1 or inst[0].astimezone(tz).strftime("%Y-%m-%d %H:%M") != want):
                self.bad(tid, f"the {agg} is not at the single intended instant {want}")
        if agg == "sum":
            self.out.append(f"  ({len([x for _, x in ser if x])} samples above zero)")
        # a 24-hour window on a 25-hour day (a reading that ignores the clock change) must give another answer
        s0 = T(c["start"])
        if T(c["end"]) - s0 == dt.timedelta(hours=25) and agg in ("mean", "sum"):
            end24 = s0 + dt.timedelta(hours=24)
            v24 = aggregate([x for x in ser if x[0] < end24], agg)
            rel = abs(v24 - v) / abs(v)
            self.out.append(
                f"  (a 24-hour window, 00:00 to {end24.astimezone(tz).strftime('%H:%M %Z')}, would give "
                f"{fmtv(v24)}: {rel * 100:.2f} % off)"
            )
            if rel < 0.01:
                self.bad(tid, "a 24-hour window is within 1 % of the 25-hour day's answer")

    def value_at(self, tid, c, now, tz, p) -> None:
        inst = T(c["at"])
        win = c.get("at_window_minutes", 60)
        intent = self.INTENT.get(tid, {}).get("at")
        if intent:
            day, clock = intent
            if day == "now" or clock == "now":
                want = now
            else:
                day_ = self.day_of(day, now.astimezone(tz).date())
                want = dt.datetime.combine(day_, dt.time.fromisoformat(clock), tz)
            if not same(inst, want):
                self.bad(tid, f"instant {inst} is not the asked {want}")
        hit = at(p, inst, win)
        if intent and intent[0] == "now":  # "right now": the latest sample the server holds, within the window
            if hit is None or hit[0] != p.ts[-1]:
                self.bad(tid, f"the latest sample {p.ts[-1]} is not within {win} min before now ({hit})")
            else:
                self.out.append(
                    f"- value: {c['asset']} {c['sensor']} right now ({local(inst, tz)}): the latest sample, "
                    f"at {local(hit[0], tz)} = **{fmtv(hit[1])} {p.unit}** (the server holds none later)"
                )
        elif hit is None or hit[0] != inst:
            self.bad(tid, f"no sample exactly at {inst} ({hit})")
        else:
            self.out.append(f"- value: {c['asset']} {c['sensor']} at {local(inst, tz)} = **{fmtv(hit[1])} {p.unit}**")

    def chk_energy(self, tid, c, now):
        tz = self.site_of(c).tz
        p = self.P.point(c["site"], c["asset"], c["sensor"])
        ser = self.P.series(c["site"], c["asset"], c["sensor"], T(c["start"]), T(c["end"]))
        self.check_window(tid, c["start"], c["end"], now, tz)
        if len(ser) < 2 or p.unit not in ("W", "kW", "MW"):
            self.bad(tid, "energy not computable")
            return
        kwh = energy(ser, p.unit)
        self.n_samples(tid, ser)
        span = (T(c["end"]) - T(c["start"])).total_seconds() / 3600
        self.out.append(
            f"- energy: {c['asset']} {c['sensor']} ({p.unit}) in [{local(T(c['start']), tz)}, "
            f"{local(T(c['end']), tz)}) ({span:g} h, {len(ser)} samples) = **{fmtv(kwh)} kWh** "
            f"(tolerance {c.get('rel_tol', 0.005) * 100:g} %)"
        )
        self.no_gaps(tid, ser, "energy")
        if tid in self.REGISTER:
            self.register_lines(tid, c, ser, kwh, tz)

    def register_reading(self, tid, c, last: dt.datetime):
        """The task's register point and its readings at the window's start, at `last` and at its end, and the
        energy (kWh) from the start to the end and to `last`."""
        reg = self.P.point(c["site"], c["asset"], self.REGISTER[tid])
        scale = 1000.0 if reg.unit == "MWh" else 1.0
        r0, r_last, r1 = (at(reg, t, 0) for t in (T(c["start"]), last, T(c["end"])))
        return reg, r0, r_last, r1, (r1[1] - r0[1]) * scale, (r_last[1] - r0[1]) * scale

    def register_lines(self, tid, c, ser, kwh, tz) -> None:
        """The energy against its kWh register: midnight to midnight and 00:00 to 23:45 must both pass (REGISTER_LINES
        "plain" and "named"); or midnight to midnight and the first to the last sample, and on the 25-hour day 24 x
        the mean power must fail ("long_day")."""
        if self.REGISTER_LINES == "long_day":
            self.register_long_day(tid, c, ser, kwh, tz)
            return
        reg, r0, r_last, r1, full, inwin = self.register_reading(tid, c, T(c["end"]) - dt.timedelta(minutes=15))
        if self.REGISTER_LINES == "named":
            head = f"  {self.REGISTER[tid]} register ({reg.unit}): {fmtv(r0[1])} at"
        else:
            head = f"  register: {fmtv(r0[1])} kWh at"
        self.out.append(
            f"{head} {local(r0[0], tz)}, {fmtv(r_last[1])} at "
            f"{local(r_last[0], tz)}, {fmtv(r1[1])} at {local(r1[0], tz)}: midnight to midnight "
            f"**{fmtv(full)} kWh**, 00:00 to 23:45 {fmtv(inwin)} kWh"
        )
        self.registers_pass(tid, c, kwh, {"midnight-to-midnight register": full, "00:00-23:45 register": inwin})

    def register_long_day(self, tid, c, ser, kwh, tz) -> None:
        reg, r0, r_last, r1, full, inwin = self.register_reading(tid, c, ser[-1][0])
        mean24 = aggregate(ser, "mean") * 24
        self.out.append(
            f"  {self.REGISTER[tid]} register ({reg.unit}): {fmtv(r0[1])} at {local(r0[0], tz)}, {fmtv(r_last[1])} "
            f"at {local(r_last[0], tz)}, {fmtv(r1[1])} at {local(r1[0], tz)}: midnight to midnight (25 h) "
            f"**{fmtv(full)} kWh**, first to last sample {fmtv(inwin)} kWh; 24 x the day's mean power "
            f"{fmtv(mean24)} kWh (wrong: the day has 25 hours)"
        )
        self.registers_pass(tid, c, kwh, {"midnight-to-midnight register": full, "first-to-last register": inwin})
        if abs(mean24 - kwh) <= c["rel_tol"] * kwh:
            self.bad(tid, "24 x mean power would pass: the 25-hour day is not tested")

    def registers_pass(self, tid, c, kwh: float, readings: dict[str, float]) -> None:
        for lab, val in readings.items():
            if abs(val - kwh) > c["rel_tol"] * kwh:
                self.bad(tid, f"{lab} {val:.1f} outside the tolerance of {kwh:.1f}")

    def chk_ranks(self, tid, c, now):
        s = self.site_of(c)
        self.check_window(tid, c["start"], c["end"], now, s.tz)
        vals, order, rel = self.ranking(tid, c, count_samples=False)
        self.out.append(
            f"- ranks by {c['by']} ({c['order']}): "
            + ", ".join(f"{n} {fmtv(vals[n])}" for n in order)
            + f" → **{order[0]}** (runner-up {rel * 100:.1f} % away)"
        )
        if rel < 0.03:
            self.bad(tid, f"runner-up only {rel * 100:.2f} % away")
        if self.EXPECTED.get(tid) not in (None, order[0]):
            self.bad(tid, f"winner {order[0]} is not the intended {self.EXPECTED[tid]}")

    def compared_window(self, tid, c, now):
        """An excursion's or a duration's window checked against now: the site's zone, the series, the samples
        compared with the limit."""
        tz = self.site_of(c).tz
        self.check_window(tid, c["start"], c["end"], now, tz)
        ser = self.P.series(c["site"], c["asset"], c["sensor"], T(c["start"]), T(c["end"]))
        return tz, ser, self.compared_of(c, ser)

    def chk_excursion(self, tid, x, now):
        tz, ser, comp = self.compared_window(tid, x, now)
        hits = [(t, v, lim) for t, v, lim in comp if past(v, lim, x["direction"])]
        m = min(abs(v - lim) for _, v, lim in comp)
        over = max((v - lim) if x["direction"] == "above" else (lim - v) for _, v, lim in comp)
        if m == 0:
            self.bad(tid, "excursion: a sample equals the limit")
        if (over > 0 and over < 0.1) or (over <= 0 and over > -0.05):
            self.bad(tid, f"excursion: the extreme is only {over:.3f} past/short of the limit")
        self.no_gaps(tid, ser, "excursion")
        peak = (max if x["direction"] == "above" else min)(comp, key=lambda r: r[1])
        self.out.append(
            f"- excursion {x['direction']} {x.get('limit', x.get('limit_sensor'))}: "
            f"**{'Yes' if hits else 'No'}** — {len(hits)} of {len(comp)} compared samples past it; extreme "
            f"{fmtv(peak[1])} (limit {fmtv(peak[2])}) at {local(peak[0], tz)}; closest sample to the limit {m:.3f} away"
        )
        if hits:
            self.out.append(f"  first {local(hits[0][0], tz)}, last {local(hits[-1][0], tz)}")
        self.intended_yes(tid, bool(hits))

    def intended_yes(self, tid: str, ans: bool) -> None:
        want = self.INTENT.get(tid, {}).get("yes")
        if want is not None and want != ans:
            self.bad(tid, f"answer {ans} is not the intended {want}")

    def chk_duration(self, tid, c, now):
        tz, ser, comp = self.compared_window(tid, c, now)
        tot, n_past, n = duration(ser, comp, c["direction"], T(c["end"]))
        m = self.margin(tid, comp, "duration", 0.05)
        self.no_gaps(tid, ser, "duration")
        pts = [t for t, v, lim in comp if past(v, lim, c["direction"])]
        h = tot.total_seconds() / 3600
        share = n_past / n * 100
        self.out.append(
            f"- duration {c['direction']} {c.get('limit', c.get('limit_sensor'))}: **{h:g} h** "
            f"({n_past} of {n} samples, **{share:.2f} %**), from {local(pts[0], tz)} to "
            f"the sample at {local(pts[-1], tz)}; spacing {spacing(ser)}; closest sample {m:.3f} from the limit"
        )
        want = self.EXPECTED.get(tid) or {}
        if "h" in want and abs(h - want["h"]) > 1e-9:
            self.bad(tid, f"hours {h} are not the intended {want['h']}")
        if "%" in want and abs(share - want["%"]) > 1e-9:
            self.bad(tid, f"share {share} is not the intended {want['%']}")
        if pts and (pts[-1] - pts[0]) + spacing(ser) != tot:
            self.bad(tid, "the samples past the limit are not one unbroken run")

    def chk_periods(self, tid, c, now):
        tz = self.site_of(c).tz
        for which, phrase in zip(("first", "second"), self.INTENT.get(tid, {}).get("periods") or ()):
            s, e = self.resolve(phrase, now, tz)
            if not (same(T(c[which]["start"]), s) and same(T(c[which]["end"]), e)):
                self.bad(tid, f"{which} period is not '{phrase}'")
        vals, win, rel, parts = self.period_values(tid, c, tz, ", ", checked=False)
        self.out.append(
            f"- periods by {c['by']}: {'; '.join(parts)} → **{c[win]['labels'][0]}** is {c['order']} "
            f"({rel * 100:.1f} % apart)"
        )
        if rel < 0.03:
            self.bad(tid, f"periods only {rel * 100:.2f} % apart")
        if self.EXPECTED.get(tid) not in (None, win):
            self.bad(tid, f"winner {win} is not intended")

    def chk_extreme(self, tid, c, now):
        tz = self.site_of(c).tz
        self.check_window(tid, c["start"], c["end"], now, tz)
        ser = self.P.series(c["site"], c["asset"], c["sensor"], T(c["start"]), T(c["end"]))
        self.n_samples(tid, ser)
        self.no_gaps(tid, ser, "time of extreme")
        best, inst = extreme_instants(ser, c["extreme"])
        rest = sorted((v for _, v in ser), reverse=c["extreme"] == "max")
        runner = next(v for v in rest if v != best)
        unit = self.P.point(c["site"], c["asset"], c["sensor"]).unit
        self.out.append(
            f"- {c['extreme']} {fmtv(best)} {unit} at **{', '.join(local(t, tz) for t in inst)}** "
            f"(next best value {fmtv(runner)})"
        )
        if len(inst) != 1:
            self.bad(tid, "extreme at more than one instant")
        if abs(best - runner) < max(0.05, 0.005 * abs(best)):
            self.bad(tid, f"runner-up {runner} too close to {best}")
        want = self.EXPECTED.get(tid)
        if want and inst[0].astimezone(tz).strftime("%Y-%m-%d %H:%M") != want:
            self.bad(tid, f"instant is not the intended {want}")

    def chk_file(self, tid, c, now):
        tz = self.site_of(c).tz
        self.check_window(tid, c["start"], c["end"], now, tz)
        parts = []
        quarters = (T(c["end"]) - T(c["start"])).total_seconds() / 900
        for a in c["assets"]:
            for sn in c["sensor"] if isinstance(c["sensor"], list) else [c["sensor"]]:
                ser = self.P.series(c["site"], a, sn, T(c["start"]), T(c["end"]))
                parts.append(f"{a} {sn}: {len(ser)} rows, {local(ser[0][0], tz)} … {local(ser[-1][0], tz)}")
                self.no_gaps(tid, ser, "file")
                want = self.EXPECTED.get(tid)
                if want and len(ser) != want:
                    self.bad(tid, f"{len(ser)} rows, not the intended {want}")
                if len(ser) != quarters or len({t for t, _ in ser}) != len(ser):
                    self.bad(tid, f"{a} {sn}: {len(ser)} rows for {quarters:g} quarter hours")
        self.out.append(
            f"- file ({'one file' if c.get('single_file', True) else 'files'}): **" + "; ".join(parts) + "**"
        )

    def check_now(self, task) -> None:
        """`now` carries the site's own UTC offset at that instant, and every window lies before it."""
        tid = task["id"]
        now = T(task["now"])
        sites: set[Any] = {c.get("site") for c in task["expect"].values() if isinstance(c, dict)} - {None}
        x = task["expect"].get("yes_no")
        if isinstance(x, dict):
            sites |= {v.get("site") for v in x.values() if isinstance(v, dict)} - {None}
        for sn in sites:
            s = self.P.site(sn)
            if s is not None and now.astimezone(s.tz).utcoffset() != now.utcoffset():
                self.bad(tid, f"now {now} does not carry {s.dis}'s offset {now.astimezone(s.tz).utcoffset()}")
        self.windows_before_now(tid, task, now)
        if self.DATA_ENDS_AT_NOW:
            self.ends_at_now(task)

    def ends_at_now(self, task) -> None:
        """The site's last sample is the one just before now (DATA_ENDS_AT_NOW; not for ASKED_EARLIER)."""
        now = T(task["now"])
        named = [x["site"] for x in self.checks_of(task) if "site" in x and self.P.site(x["site"]) is not None]
        site = self.P.site(named[0] if named else self.SITE_BY_OFFSET[task["now"][-6:]])
        assert site is not None, task["id"]
        last = max(p.ts[-1] for e in site.equips.values() for p in e.points.values())
        if task["id"] not in self.ASKED_EARLIER and not (dt.timedelta(0) <= now - last < dt.timedelta(minutes=15)):
            self.bad(task["id"], f"the site's last sample {last} is not the one just before now {now}")

    @staticmethod
    def checks_of(task):
        """Every check of a task, and every mapping inside one (an excursion's)."""
        for c in task["expect"].values():
            for cc in c if isinstance(c, list) else [c]:
                if isinstance(cc, dict):
                    yield from [cc, *(v for v in cc.values() if isinstance(v, dict))]

    def check_task(self, task) -> None:
        """Every check (a list's entries one by one only for value, count, file and energy), no readings."""
        for kind, c in task["expect"].items():
            checks = c if isinstance(c, list) and kind in ("value", "count", "file", "energy") else [c]
            for cc in checks:
                if kind == "not_recorded":
                    for x in cc if isinstance(cc, list) else [cc]:
                        self.chk_not_recorded(task["id"], x)
                else:
                    self.do_check(task["id"], kind, cc, task)

    def task_lines(self, task) -> list[str]:
        lines = [f"### {task['id']} — {', '.join(task['tags'][1:])}", "", f"> {task['question']}", ""]
        lines.append(f"now: `{task['now']}`")
        if task.get("notes"):
            lines.append(f"; notes: {task['notes'].strip()}")
        return lines + ["", *self.out, ""]
