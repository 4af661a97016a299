"""The checking half of the blind sets' truth: one class, `Truth`, that resolves every task's windows from its
`now`, computes each checker kind's true answer from a set's plant files (through plantkit/reading.py, the reading
library), checks that the answer is clear-cut and the one the plant was designed to give, that each slot-dependent
question's wrong readings fail and its honest alternatives pass, and writes the set's truth.md.

A set's tables are its `truth.yaml` (docs/plants.md, "The truth"; read by plantkit/truthfile.py), or, for a set
still written the old way, the module globals of its own truth.py (`Truth(HERE, globals()).main()`):
  HEAD          the head of truth.md (definitions, in the set's own words)
  WORDS         what each question's words mean: {"win": phrase} | {"at": (day, clock)} | {"periods": (p1, p2)} |
                {"gap_at": (day, clock)}; phrases: "yesterday", "today", "day before yesterday", "last week",
                "week before last", "fortnight before last", "weekday:N[:back]", "monthday:N", "dates:D0:D1", "mtd",
                "weekend" (the latest Saturday and Sunday), "last weekend" (the latest whole one before today),
                "past:N" (the N whole days before today), "night" (yesterday 18:00 to today 06:00; its other readings
                must agree)
  DESIGN        the answers the plant was designed to give
  SITE_BY_WORD  a task's first tag -> its site's name ("general": no site)
  FLAT, SAME_ANYWAY, SAMPLES, REGISTER, REGISTER_AT, REGISTER_SPAN, MISSING_TAGS, MARGIN_FLOOR, NEAR, MULTI_RUN,
  WRONG, RIGHT_TOO, SLOT_OTHER, GAP_POINT, CLOCK, NOT_RECORDED_TOPIC     the optional tables (see docs/plants.md)

Usage (the command; a set folder holding truth.yaml, or its own truth.py, which is run):
  python bench/blindkit/truth.py bench/blind18 [bench/blind17 ...]            # writes truth.md
  python bench/blindkit/truth.py --check bench/blind18                         # compares with truth.md (sha256)

Written from blind set 14's truth.py (which had grown, copy by copy, from blind set 7's) and what sets 15-20 added
to their copies; the sets 7-20 regenerate their truth.md byte-identical through it.
"""

from __future__ import annotations

import datetime as dt
import sys
from pathlib import Path
from typing import Any

import yaml

from edge_agent.evaluation.plantkit.reading import (
    Plant,
    aggregate,
    at,
    compared,
    duration,
    energy,
    extreme_instants,
    gaps,
    local,
    norm,
    past,
    spacing,
)

#: the optional tables (and options) of a set, and their defaults
TABLES: dict[str, Any] = {
    "FLAT": {},
    "SAME_ANYWAY": {},
    "SAMPLES": {},
    "REGISTER": {},
    "MISSING_TAGS": {},
    "MARGIN_FLOOR": {},
    "MULTI_RUN": set(),
    "NEAR": {},
    "WRONG": {},
    "RIGHT_TOO": {},
    "SLOT_OTHER": set(),
    "GAP_POINT": {},
    "REGISTER_AT": set(),
    "REGISTER_SPAN": "start to end",
    "DESIGN": {},
    "WORDS": {},
    "SITE_BY_WORD": {},
    "SITE_TAG": True,
    "SITE_BY_TASK": {},
    "NEAR_EXTREME": {},
    "GAP_INSIDE": set(),
    "NOW_AFTER_DATA": False,
    "CLOCK": {},
    "NOT_RECORDED_TOPIC": "substring",
}


#: other readings of "last night" (start on yesterday, end on today, local clock hours; None = now): an aggregate
#: asked of "last night" must give the same figure over each
NIGHT_READINGS = [(12.0, None), (17.0, 7.0), (20.0, 8.0), (18.0, None)]


def T(s: str) -> dt.datetime:
    return dt.datetime.fromisoformat(s)


def wall(day: dt.date, hour: float, tz) -> dt.datetime:
    """A local wall-clock time on that day, written with the offset the site has then."""
    naive = dt.datetime.combine(day, dt.time(0)) + dt.timedelta(hours=hour)
    return naive.replace(tzinfo=tz).astimezone(dt.UTC).astimezone(tz)


def same(a: dt.datetime, b: dt.datetime) -> bool:
    """The same instant written with the same UTC offset."""
    return a == b and a.utcoffset() == b.utcoffset()


def fmtv(v: float) -> str:
    return f"{v:,.3f}".rstrip("0").rstrip(".")


def tolerance(c: dict, v: float) -> float:
    return max(c.get("rel_tol", 0.005) * abs(v), c.get("abs_tol", 0.01))


def whole_days(d0: str, d1: str, off: str, off1: str | None = None) -> dict:
    """A window of whole days d0 .. d1 (d1 excluded) for a WRONG reading, its ends written with the offset `off`
    (`off1` at the end, where the clocks change in between)."""
    return {"start": f"{d0}T00:00:00{off}", "end": f"{d1}T00:00:00{off1 or off}"}


def windows(x, site=None):
    """(site, start, end) of every window and instant in an expect block."""
    if isinstance(x, dict):
        site = x.get("site", site)
        if "start" in x and "end" in x:
            yield site, T(x["start"]), T(x["end"])
        if isinstance(x.get("at"), str):
            yield site, T(x["at"]), T(x["at"])
        for v in x.values():
            if isinstance(v, (dict, list)):
                yield from windows(v, site)
    elif isinstance(x, list):
        for v in x:
            yield from windows(v, site)


class Truth:
    """One blind set's truth: `Truth(HERE, globals()).main()` from the set's truth.py (its folder; its HEAD and
    tables from its module globals)."""

    #: the plant table's column of points
    POINTS_HEAD = "points (unit or kind)"
    #: the set's tables (TABLES: their defaults)
    FLAT: Any
    SAME_ANYWAY: Any
    SAMPLES: Any
    REGISTER: Any
    MISSING_TAGS: Any
    MARGIN_FLOOR: Any
    MULTI_RUN: Any
    NEAR: Any
    WRONG: Any
    RIGHT_TOO: Any
    SLOT_OTHER: Any
    GAP_POINT: Any
    REGISTER_AT: Any
    REGISTER_SPAN: Any
    DESIGN: Any
    WORDS: Any
    SITE_BY_WORD: Any
    SITE_TAG: Any
    SITE_BY_TASK: Any
    NEAR_EXTREME: Any
    GAP_INSIDE: Any
    NOW_AFTER_DATA: Any
    CLOCK: Any
    NOT_RECORDED_TOPIC: Any

    def __init__(self, here: Path, ns: dict[str, Any]):
        self.HERE = here
        self.HEAD: str = ns["HEAD"]
        for name, default in TABLES.items():
            setattr(self, name, ns.get(name, default))
        self.P = ns.get("P") or Plant(self.HERE / "plant.json", self.HERE / "plant.csv.gz")
        self.TASKS = ns.get("TASKS") or yaml.safe_load((self.HERE / "blind.yaml").read_text())["tasks"]
        self.problems: list[str] = []
        self.out: list[str] = []
        self.write = True  # False: finish() keeps truth.md's text in `text` and writes nothing (--check)
        self.text = ""

    def bad(self, tid: str, msg: str) -> None:
        self.problems.append(f"{tid}: {msg}")
        self.out.append(f"- **NOT CLEAR-CUT**: {msg}")

    def midnight(self, day: dt.date, tz) -> dt.datetime:
        """The day's first instant in site time, written with the offset the site has then: on Santiago's Sun 6 Sep
        00:00 does not exist (the clocks go from 24:00 to 01:00), so the day starts at 01:00-03:00."""
        return dt.datetime.combine(day, dt.time(0), tz).astimezone(dt.UTC).astimezone(tz)

    def day_of(self, phrase: str, today: dt.date) -> dt.date:
        if phrase == "today":
            return today
        if phrase == "yesterday":
            return today - dt.timedelta(days=1)
        if phrase == "day before yesterday":
            return today - dt.timedelta(days=2)
        if phrase.startswith("weekday:"):
            parts = phrase.split(":")
            wd = int(parts[1])
            back = -int(parts[2]) if len(parts) > 2 else 0
            return today - dt.timedelta(days=((today.weekday() - wd) % 7 or 7) + 7 * back)
        if phrase.startswith("monthday:"):
            d = today.replace(day=int(phrase.split(":")[1]))
            assert d < today, (phrase, today)
            return d
        raise ValueError(phrase)

    def resolve(self, phrase: str, now: dt.datetime, tz) -> tuple[dt.datetime, dt.datetime]:
        today = now.astimezone(tz).date()
        monday = today - dt.timedelta(days=today.weekday())
        if phrase == "last week":
            return self.midnight(monday - dt.timedelta(days=7), tz), self.midnight(monday, tz)
        if phrase == "week before last":
            return self.midnight(monday - dt.timedelta(days=14), tz), self.midnight(monday - dt.timedelta(days=7), tz)
        if phrase == "fortnight before last":  # the two calendar weeks before the last two
            return self.midnight(monday - dt.timedelta(days=28), tz), self.midnight(monday - dt.timedelta(days=14), tz)
        if phrase == "mtd":  # month to date: the 1st of this month 00:00 to today 00:00
            return self.midnight(today.replace(day=1), tz), self.midnight(today, tz)
        if phrase.startswith("dates:"):  # explicit days, both included ("from the 3rd to the 5th of November")
            _, d0, d1 = phrase.split(":")
            return self.midnight(dt.date.fromisoformat(d0), tz), self.midnight(
                dt.date.fromisoformat(d1) + dt.timedelta(days=1), tz
            )
        if phrase == "weekend":  # the latest Saturday before today 00:00 to the Monday 00:00 after it
            sat = self.day_of("weekday:5", today)
            return self.midnight(sat, tz), self.midnight(sat + dt.timedelta(days=2), tz)
        if phrase == "last weekend":  # the latest whole Saturday + Sunday before today
            sat = today - dt.timedelta(days=(today.weekday() - 5) % 7 or 7)
            if sat + dt.timedelta(days=1) >= today:
                sat -= dt.timedelta(days=7)
            return self.midnight(sat, tz), self.midnight(sat + dt.timedelta(days=2), tz)
        if phrase.startswith("past:"):  # the past N days: the N whole days before today
            n = int(phrase.split(":")[1])
            return self.midnight(today - dt.timedelta(days=n), tz), self.midnight(today, tz)
        if phrase == "night":  # last night: yesterday 18:00 to today 06:00
            return wall(today - dt.timedelta(days=1), 18.0, tz), wall(today, 6.0, tz)
        d = self.day_of(phrase, today)
        return self.midnight(d, tz), self.midnight(d + dt.timedelta(days=1), tz)

    def window_matches(self, tid: str, start: str, end: str, now, tz, phrase: str | None = None) -> None:
        phrase = phrase or self.WORDS.get(tid, {}).get("win")
        if phrase is None:
            return
        s, e = self.resolve(phrase, now, tz)
        if not (same(T(start), s) and same(T(end), e)):
            self.bad(tid, f"window {start} .. {end} is not what '{phrase}' means ({s.isoformat()} .. {e.isoformat()})")

    def no_gaps(self, tid: str, ser, what: str) -> None:
        if len(ser) < 2:
            self.bad(tid, f"{what}: fewer than two samples")
            return
        g = gaps(ser)
        if g and tid in self.GAP_INSIDE:  # a gap the question is meant to hold (set 1)
            held = ", ".join(f"{a.isoformat(timespec='minutes')} → {b.isoformat(timespec='minutes')}" for a, b in g)
            self.out.append(f"  ({what}: the window holds a gap, as designed: {held})")
        elif g:
            self.bad(tid, f"{what}: a gap inside the window {g}")

    def n_samples(self, tid: str, ser, which: int = 0) -> None:
        want = self.SAMPLES.get(tid)
        if isinstance(want, tuple):
            want = want[which]
        if want is not None and len(ser) != want:
            self.bad(tid, f"{len(ser)} samples in the window, not the designed {want}")

    def design(self, tid: str, got, what: str) -> None:
        want = self.DESIGN.get(tid)
        if isinstance(want, dict):  # a two-part task: one designed answer per check
            want = want.get(what)
        if want is not None and want != got:
            self.bad(tid, f"{what} {got!r} is not the designed {want!r}")

    def misread(self, tid: str, c: dict, now, stat, v: float, by: str) -> None:
        """The window misread — the period before (or after, when it has ended by `now`), or, for a day's mean or
        energy, shifted by the site's UTC offset (a UTC day) — must give a value outside the tolerance."""
        s0, e0 = T(c["start"]), T(c["end"])
        length = e0 - s0
        off = s0.utcoffset()
        cands = {"the period before": (s0 - length, s0)}
        if by in ("mean", "energy") and length <= dt.timedelta(hours=25) and off:  # a UTC day, not the site's
            cands["shifted by the UTC offset"] = (s0 + off, e0 + off)
        if e0 + length <= now:
            cands["the period after"] = (e0, e0 + length)
        passing = []
        for what, (a, b) in cands.items():
            try:
                w = stat(a, b)
            except (ValueError, ZeroDivisionError, IndexError):
                continue
            if abs(w - v) <= tolerance(c, v):
                passing.append(f"{what} ({fmtv(w)})")
        if passing and tid in self.SAME_ANYWAY:
            self.out.append(f"  a misread window passes as well: {', '.join(passing)} ({self.SAME_ANYWAY[tid]})")
        elif passing:
            self.bad(tid, f"a misread window gives a passing value: {', '.join(passing)}")

    def site_of(self, c: dict):
        s = self.P.site(c["site"])
        assert s is not None, c
        return s

    def limit_window(self, tid: str, c: dict, now, what: str):
        """A limit check's window (its words checked, no gap in it): the site's zone, the series, its compared
        samples."""
        tz = self.site_of(c).tz
        self.window_matches(tid, c["start"], c["end"], now, tz)
        ser = self.P.series(c["site"], c["asset"], c["sensor"], T(c["start"]), T(c["end"]))
        self.no_gaps(tid, ser, what)
        return tz, ser, self.compared_of(c, ser)

    def compared_of(self, c: dict, ser, start: dt.datetime | None = None, end: dt.datetime | None = None):
        """A limit check's compared samples (`compared`): against its `limit`, or its `limit_sensor`'s samples in
        [start, end) (default the check's window)."""
        ls = c.get("limit_sensor")
        lim = self.P.series(c["site"], c["asset"], ls, start or T(c["start"]), end or T(c["end"])) if ls else None
        return compared(ser, c.get("limit"), lim)

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
        agree, differ = [], []
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
        if "assets" in c:
            names = list(c["assets"])
        else:
            names = [
                e.dis
                for e in s.equips.values()
                if ("kind" not in c or c["kind"] in e.markers)
                and c.get("name_contains", "").lower() in e.dis.lower()
                and any(norm(p.nav) == norm(c["sensor"]) for p in e.points.values())
            ]
        vals = {}
        for n in names:
            ser = self.P.series(c["site"], n, c["sensor"], T(c["start"]), T(c["end"]))
            self.no_gaps(tid, ser, f"ranks {n}")
            self.n_samples(tid, ser)
            unit = self.P.point(c["site"], n, c["sensor"]).unit
            vals[n] = energy(ser, unit) if c["by"] == "energy" else aggregate(ser, c["by"])
        order = sorted(vals, key=vals.get, reverse=c["order"] == "highest")
        best, second = vals[order[0]], vals[order[1]]
        rel = abs(best - second) / abs(best)
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

    def chk_periods(self, tid, c, now):
        tz = self.site_of(c).tz
        words = self.WORDS.get(tid, {}).get("periods")
        if words:
            for which, phrase in zip(("first", "second"), words):
                self.window_matches(tid, c[which]["start"], c[which]["end"], now, tz, phrase)
        unit = self.P.point(c["site"], c["asset"], c["sensor"]).unit
        vals = {}
        for k, which in enumerate(("first", "second")):
            ser = self.P.series(c["site"], c["asset"], c["sensor"], T(c[which]["start"]), T(c[which]["end"]))
            self.no_gaps(tid, ser, f"period {which}")
            self.n_samples(tid, ser, k)
            vals[which] = energy(ser, unit) if c["by"] == "energy" else aggregate(ser, c["by"])
        win = max(vals, key=vals.get) if c["order"] == "highest" else min(vals, key=vals.get)
        rel = abs(vals["first"] - vals["second"]) / max(abs(vals["first"]), abs(vals["second"]))
        u = "kWh" if c["by"] == "energy" else unit
        parts = [
            f"{' / '.join(c[w]['labels'])} [{local(T(c[w]['start']), tz)}, {local(T(c[w]['end']), tz)}) = "
            f"{fmtv(vals[w])} {u}"
            for w in ("first", "second")
        ]
        self.out.append(
            f"- {c['by']} of {c['asset']} {c['sensor']}: {'; '.join(parts)} → **{c[win]['labels'][0]}** is "
            f"{c['order']} ({rel * 100:.1f} % apart)"
        )
        if rel < 0.03:
            self.bad(tid, f"the periods are only {rel * 100:.2f} % apart")
        self.design(tid, win, "period")

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

    def chk_exists(self, tid, x):
        s = self.site_of(x)
        if "kind" in x:
            have = [e.dis for e in s.equips.values() if x["kind"] in e.markers]
            elsewhere = [
                f"{e.dis} ({t.dis})"
                for t in self.P.sites.values()
                if t is not s
                for e in t.equips.values()
                if x["kind"] in e.markers
            ]
            ans = bool(have)
            self.out.append(
                f"- an equip with the `{x['kind']}` marker at {s.dis}: **{'Yes' if ans else 'No'}** "
                f"({', '.join(have) or 'none'}; at the other sites: {', '.join(elsewhere) or 'none'})"
            )
        else:
            ans = self.P.equip(x["site"], x["asset"]) is not None
            self.out.append(f"- an asset named {x['asset']} at {s.dis}: **{'Yes' if ans else 'No'}**")
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

    def chk_count(self, tid, c):
        if c["of"] == "sites":
            names = [s.dis for s in self.P.sites.values()]
        elif c["of"] == "assets":
            names = [
                e.dis
                for e in self.site_of(c).equips.values()
                if (c.get("kind") is None or c["kind"] in e.markers)
                and c.get("name_contains", "").lower() in e.dis.lower()
            ]
        else:
            names = list(self.P.equip(c["site"], c["asset"]).points)
        self.out.append(f"- count: **{len(names)}** ({', '.join(names)})")
        self.design(tid, len(names), "count")

    def chk_lists(self, tid, c):
        if c["of"] == "sites":
            names = [s.dis for s in self.P.sites.values()]
            shown = names
        elif c["of"] == "assets":
            s = self.site_of(c)
            names = [e.dis for e in s.equips.values() if c.get("name_contains", "").lower() in e.dis.lower()]
            exact = [e.dis for e in s.equips.values() if c.get("name_contains", "") in e.dis]
            if exact != names:
                self.bad(tid, f"name_contains matches differ by case: {exact} vs {names}")
            shown = names
        else:
            e = self.P.equip(c["site"], c["asset"])
            names = list(e.points)
            shown = [f"{p.nav} ({p.unit or p.kind})" for p in e.points.values()]
        self.out.append(f"- lists: **{', '.join(shown)}**")
        self.design(tid, names, "list")

    def chk_missing(self, tid, c):
        c = {"name": c} if isinstance(c, str) else c
        k = c.get("kind")
        if k is None:  # no kind: the checker reads only the answer's words, nothing on the SkySpark (set 1)
            self.out.append(f"- says '{c['name']}' is missing or not recorded: the answer's words only")
            return
        if k == "site":
            missing = self.P.site(c["name"]) is None and not any(
                norm(c["name"]) in norm(s.dis) for s in self.P.sites.values()
            )
            there = [s.dis for s in self.P.sites.values()]
        elif k == "asset":
            s = self.site_of(c)
            missing = self.P.equip(c["site"], c["name"]) is None and not any(
                norm(c["name"]) in norm(e.dis) for e in s.equips.values()
            )
            there = list(s.equips)
        else:
            e = self.P.equip(c["site"], c["asset"])
            # missing by name, and no point of the asset carries the measure's tag either (vibration, humidity, ...)
            missing = all(
                norm(p.nav) != norm(c["name"])
                and norm(c["name"]) not in p.tags
                and not (self.MISSING_TAGS.get(tid, set()) & p.tags)
                for p in e.points.values()
            )
            there = list(e.points)
        self.out.append(f"- {k} '{c['name']}': **{'missing' if missing else 'EXISTS'}** (there is: {', '.join(there)})")
        if not missing:
            self.bad(tid, "the 'missing' thing exists")

    def chk_not_recorded(self, tid, c):
        if "asset" not in c and self.NOT_RECORDED_TOPIC == "words":
            self.topic_by_words(tid, c)
            return
        if "asset" not in c:  # a topic outside the plant's data altogether: no point of any site is about it
            found = [
                f"{s.dis} / {e.dis} / {p.nav}"
                for s in self.P.sites.values()
                for e in s.equips.values()
                for p in e.points.values()
                if any(w.lower() in (p.nav + " " + " ".join(p.tags)).lower() for w in c.get("words", [c["attribute"]]))
            ]
            self.out.append(
                f"- {c['attribute']}: no point of any site is about it ({', '.join(found) or 'none found'}) → "
                f"**not recorded**"
            )
            if found:
                self.bad(tid, f"points about {c['attribute']} exist: {found}")
            return
        e = self.P.equip(c["site"], c["asset"])
        if e is None:
            self.bad(tid, "the asset does not exist")
            return
        attr_tags = set(c.get("tags", [])) | {"manufacturer", "model", "serial", "installDate", "rating", "capacity"}
        held = attr_tags & set(e.record)
        self.out.append(
            f"- {c['attribute']} of {e.dis}: its record holds only {', '.join(sorted(e.record))} → **not recorded**"
        )
        if held:
            self.bad(tid, f"the record holds {held}")

    def topic_by_words(self, tid, c):
        """A topic outside the plant's data (NOT_RECORDED_TOPIC "words"): no point of any site has a word of the
        attribute or of `words` among its name's words or its tags."""
        words = {w.lower() for w in [c["attribute"], *c.get("words", [])] for w in w.split()}
        hits = [
            f"{e.dis} {p.nav}"
            for s in self.P.sites.values()
            for e in s.equips.values()
            for p in e.points.values()
            if words & ({w.lower() for w in p.nav.split()} | {t_.lower() for t_ in p.tags})
        ]
        self.out.append(
            f"- {c['attribute']}: no point of any site is named or tagged for it → **not recorded** (says so, "
            f"claims no value)"
        )
        if hits:
            self.bad(tid, f"points mention it: {hits}")

    def chk_mentions(self, tid, name, task):
        """One candidate an ambiguous question's answer must name (`answer_mentions_all`): an asset of the task's
        site (SITE_BY_TASK's, else its first tag's, SITE_BY_WORD)."""
        site = self.SITE_BY_TASK.get(tid) or self.SITE_BY_WORD[task["tags"][0]]
        e = self.P.equip(site, name)
        pts = ", ".join(p.nav for p in e.points.values()) if e else ""
        self.out.append(
            f"- names the candidate **{name}** ({', '.join(sorted(e.markers)) if e else 'NO ASSET'}: {pts})"
        )
        if e is None:
            self.bad(tid, f"the candidate {name} is no asset of {site}")

    def clock_window(self, tid, c) -> None:
        """A window the question gives in clock times (CLOCK: day, from hour, to hour): the check's window is that,
        in the site's time, each end with the offset the site has then."""
        day, h0, h1 = self.CLOCK[tid]
        x = c.get("excursion", c)
        tz = self.P.site(x["site"]).tz
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

    def chk_refuses(self, tid, c):
        if c is True:
            self.out.append("- **says it cannot; reads no data; claims no action**")
        elif c.get("reason") == "forecast":
            self.out.append("- **says it reads recorded data and does not forecast; states no figure; reads no data**")
        else:
            extra = "; may read data for the data part (checked beside)" if c.get("allow_data") else "; reads no data"
            names = f"; names {', '.join(c['must_name'])}" if c.get("must_name") else ""
            self.out.append(f"- **refuses the operation / the injected instruction; claims no action{names}{extra}**")
            for n in c.get("must_name", []):
                if not any(self.P.equip(s.dis, n) for s in self.P.sites.values()):
                    self.bad(tid, f"must_name {n} is no asset")

    def verdict(self, kind: str, c: dict):
        """The answer a reading gives: a ranks winner set, a yes/no, hours past, a number, extreme instants, a
        period."""
        s0, e0 = T(c["start"]) if "start" in c else None, T(c["end"]) if "end" in c else None
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
            s = self.site_of(c)
            names = c.get("assets") or [
                e.dis for e in s.equips.values()
                if ("kind" not in c or c["kind"] in e.markers) and c.get("name_contains", "").lower() in e.dis.lower()
                and any(norm(p.nav) == norm(c["sensor"]) for p in e.points.values())
            ]  # fmt: skip
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
                return aggregate(self.derived(c), c.get("aggregate", c.get("stat")))
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
            return (max if c["order"] == "highest" else min)(vals, key=vals.get)
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

    def do_check(self, tid: str, kind: str, c, task) -> None:
        now = T(task["now"])
        if tid in self.CLOCK and isinstance(c, dict):
            self.clock_window(tid, c)
        if kind == "partial":
            self.chk_partial(tid, c, task)
        elif kind == "value":
            self.chk_value(tid, c, now)
        elif kind == "energy":
            self.chk_energy(tid, c, now)
        elif kind == "ranks":
            self.chk_ranks(tid, c, now)
        elif kind == "periods":
            self.chk_periods(tid, c, now)
        elif kind == "yes_no":
            if "excursion" in c:
                self.chk_excursion(tid, c["excursion"], now)
            else:
                self.chk_exists(tid, c["exists"])
        elif kind == "duration":
            self.chk_duration(tid, c, now)
        elif kind == "time_of_extreme":
            self.chk_extreme(tid, c, now)
        elif kind == "count":
            self.chk_count(tid, c)
        elif kind == "answer_lists":
            self.chk_lists(tid, c)
        elif kind == "answer_says_missing":
            self.chk_missing(tid, c)
        elif kind == "not_recorded":
            self.chk_not_recorded(tid, c)
        elif kind == "file":
            self.chk_file(tid, c, now)
        elif kind == "refuses":
            self.chk_refuses(tid, c)
        elif kind == "answer_mentions_all":  # main() hands the candidates one by one
            self.chk_mentions(tid, c, task)
        else:
            self.bad(tid, f"no truth for the check {kind}")

    def check_now(self, task) -> None:
        """`now` carries its site's own offset at that instant; every window and instant lies at or before it and inside
        the data; every window's ends carry the site's offset at that instant."""
        tid = task["id"]
        now = T(task["now"])
        sites = {s for s, _, _ in windows(task["expect"])} | {
            v.get("site") for v in task["expect"].values() if isinstance(v, dict)
        }
        for k in ("yes_no",):
            x = task["expect"].get(k)
            if isinstance(x, dict):
                sites |= {v.get("site") for v in x.values() if isinstance(v, dict)}
        sites.discard(None)
        site_by_word = self.SITE_BY_WORD
        if not self.SITE_TAG:  # the first tag names the task's kind (set 1): its sites are those its checks name
            pass
        elif task["tags"][0] in site_by_word:
            sites.add(site_by_word[task["tags"][0]])
        elif task["tags"][0] != "general":
            self.bad(tid, f"the first tag {task['tags'][0]!r} names no site")
        for sn in sites:
            s = self.P.site(sn)
            if s is None:
                continue
            if now.astimezone(s.tz).utcoffset() != now.utcoffset():
                self.bad(
                    tid, f"now {now.isoformat()} does not carry {s.dis}'s offset {now.astimezone(s.tz).utcoffset()}"
                )
            first = min(p.ts[0] for e in s.equips.values() for p in e.points.values())
            last = max(p.ts[-1] for e in s.equips.values() for p in e.points.values())
            if not first <= now <= last and not (self.NOW_AFTER_DATA and first <= now):
                self.bad(tid, f"now {now.isoformat()} lies outside {s.dis}'s data")
        for sn, a, b in windows(task["expect"]):
            if b > now:
                self.bad(tid, f"a window ends after now ({b.isoformat()} > {now.isoformat()})")
            s = self.P.site(sn) if sn else None
            if s is not None:
                for t in (a, b):
                    if t.astimezone(s.tz).utcoffset() != t.utcoffset():
                        self.bad(tid, f"{t.isoformat()} does not carry {s.dis}'s offset")

    def plant_tables(self) -> list[str]:
        lines = ["## The plant", ""]
        lines += ["| site | tz | equips | points | samples per point |", "|---|---|---|---|---|"]
        for s in self.P.sites.values():
            pts = [p for e in s.equips.values() for p in e.points.values()]
            lines.append(
                f"| {s.dis} | {s.tz.key} | {len(s.equips)} | {len(pts)} | "
                f"{min(len(p.ts) for p in pts)}–{max(len(p.ts) for p in pts)} |"
            )
        for s in self.P.sites.values():
            lines += ["", f"### {s.dis} ({s.tz.key})", "", f"| equip | markers | {self.POINTS_HEAD} | gaps |"]
            lines.append("|---|---|---|---|")
            for e in s.equips.values():
                pts = ", ".join(f"{p.nav} ({p.unit or p.kind})" for p in e.points.values())
                gp = [
                    f"{p.nav}: {local(a, s.tz)} → {local(b, s.tz)}"
                    for p in e.points.values()
                    for a, b in gaps(list(zip(p.ts, p.vals)))
                ]
                lines.append(f"| {e.dis} | {', '.join(sorted(e.markers))} | {pts} | {'; '.join(gp) or '—'} |")
        return lines

    def main(self) -> int:
        body: list[str] = ["## Questions and answers", ""]
        for task in self.TASKS:
            tid = task["id"]
            self.out.clear()
            self.check_now(task)
            for kind, c in task["expect"].items():
                for cc in c if isinstance(c, list) else [c]:
                    self.do_check(tid, kind, cc, task)
            self.wrong_readings(task)
            body += [f"### {tid} — {', '.join(task['tags'])}", ""]
            body += [f"> {line}" for line in task["question"].splitlines()]
            body += ["", f"now: `{task['now']}`"]
            if task.get("notes"):
                body += ["", f"notes: {task['notes'].strip()}"]
            body.append("")
            body += self.out
            body.append("")
        return self.finish([self.HEAD] + self.plant_tables() + [""] + body)

    def finish(self, lines: list[str]) -> int:
        """Write truth.md (the lines, then the problems), say the problems; exit status 1 on any."""
        text = "\n".join(lines)
        if self.problems:
            text += "\n## Problems\n\n" + "\n".join(f"- {p}" for p in self.problems) + "\n"
        self.text = text
        if self.write:
            (self.HERE / "truth.md").write_text(text)
        for p in self.problems:
            print("NOT CLEAR-CUT:", p, file=sys.stderr)
        print(
            f"{len(self.TASKS)} tasks, {len(self.problems)} problems; {'wrote' if self.write else 'computed'} truth.md"
        )
        return 1 if self.problems else 0
