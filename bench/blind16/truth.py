"""Compute every answer of blind.yaml from plant.json + plant.csv.gz alone, check that each is clear-cut and the one
intended, that each task's windows are what its words say (resolved here from the task's `now`), and write truth.md.
Exit 1 when anything is not clear-cut or disagrees.

Usage: python bench/blind16/truth.py
"""

from __future__ import annotations

import datetime as dt
import sys

import yaml
from truthlib import (
    HERE,
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

P = Plant()
TASKS = yaml.safe_load((HERE / "blind.yaml").read_text())["tasks"]

# What each question's words mean, written from the question alone (not from its expect block). Phrases:
#   "yesterday", "today", "last week", "week before last", "weekday:N" (the latest such weekday before today,
#   Monday = 0), "dates:D0:D1" (both days included), "mtd" (the 1st of this month 00:00 to today 00:00), "weekend"
#   (the latest Saturday 00:00 to the Monday 00:00 after it);
#   "at": (day phrase, clock time).
WORDS = {
    "b16-01": {"win": "last week"},
    "b16-02": {"win": "weekday:1"},
    "b16-03": {"win": "last week"},
    "b16-04": {"win": "weekday:2"},
    "b16-05": {"win": "last week"},
    "b16-06": {"win": "last week"},
    "b16-07": {"win": "mtd"},
    "b16-08": {"at": ("today", "00:00")},
    "b16-10": {"gap_at": ("yesterday", "15:00")},
    "b16-12": {"win": "yesterday"},
    "b16-14": {"win": "weekday:6"},
    "b16-15": {"win": "dates:2026-10-19:2026-10-21"},
    "b16-16": {"win": "last week"},
    "b16-17": {"win": "last week"},
    "b16-18": {"periods": ("last week", "week before last")},
    "b16-19": {"win": "yesterday"},
    "b16-20": {"win": "weekday:3"},
    "b16-21": {"win": "last week"},
    "b16-22": {"win": "yesterday"},
    "b16-24": {"win": "weekend"},
    "b16-26": {"win": "last week"},
    "b16-27": {"win": "last week"},
    "b16-28": {"win": "last week"},
    "b16-29": {"win": "yesterday"},
    "b16-30": {"win": "yesterday"},
    "b16-31": {"at": ("today", "00:00")},
    "b16-33": {"win": "yesterday"},
    "b16-35": {"win": "last week"},
    "b16-36": {"win": "yesterday"},
}

# The answers the plant was designed to give (make_plant.py's events), to catch a plant that drifted from its design.
DESIGN = {
    "b16-01": {"list": ["Blower 1", "Blower 2", "Blower 3", "Blower 4"], "winner": "Blower 2"},
    "b16-02": ("h", 4.5),
    "b16-03": False,
    "b16-04": ("h", 6.25),
    "b16-05": "2026-11-01 04:15",
    "b16-09": 3,
    "b16-13": ["BHS Line 1", "BHS Line 2", "BHS Line 3"],
    "b16-16": "Boiler 2",
    "b16-17": "Escalator 3",
    "b16-18": "first",
    "b16-20": ("h", 4.0),
    "b16-21": False,
    "b16-22": {"instant": "2026-11-02 07:45", "instant of the extreme": "2026-11-02 07:45"},
    "b16-23": False,
    "b16-25": ["Make-up Water Flow", "Make-up Water Total", "Fan Power", "Leaving Water Temp", "Conductivity"],
    "b16-26": "Cooling Tower 2",
    "b16-27": "Main Pool",
    "b16-28": True,
    "b16-29": False,
    "b16-35": {"instant of the extreme": "2026-10-29 21:30"},
}
#: value-at tasks whose series is flat around the instant (so a misread instant passes too), and why that is kept
FLAT: dict[str, str] = {}
#: aggregate tasks whose misread window would pass as well, and why that is kept
SAME_ANYWAY: dict[str, str] = {
    "b16-30": "the laundry runs 06:00-22:00 only, so a UTC day (04:00 to 04:00 local) holds the same working samples",
}
#: samples a window must hold (London's 25-hour Sun 25 Oct and the week holding it)
SAMPLES = {
    "b16-14": 100,
    "b16-18": (672, 676),
}
#: energy tasks checked against their register point; on a day that is not 24 hours long, 24 x the mean power must fail
REGISTER = {"b16-06": "Export Energy", "b16-14": "Energy"}
#: value-at tasks on a register: the samples 15 minutes either side must fail the tolerance too
REGISTER_AT = {"b16-08", "b16-31"}
#: 'missing' sensors: tags no point of the asset may carry either
MISSING_TAGS: dict[str, set[str]] = {}
#: the least margin of an excursion answered Yes, where the series' unit is small; elsewhere max(0.5, 2 % of the limit)
MARGIN_FLOOR: dict[str, float] = {}
#: durations whose samples past the limit come in more than one run
MULTI_RUN: set[str] = set()

CF = "Cactus Flats Water Reclamation Plant"
TA = "Thameside Airport Terminal"
AN = "Al Noor Resort & Casino"


def _w(d0: str, d1: str, tz_off: str, tz_off1: str | None = None) -> dict:
    """A window of whole days d0 .. d1 (d1 excluded), its ends written with the given offsets."""
    return {"start": f"{d0}T00:00:00{tz_off}", "end": f"{d1}T00:00:00{tz_off1 or tz_off}"}


# The slot-dependent questions: readings a program could silently default to. Each must give a DIFFERENT verdict from
# the true one (a ranks winner, a yes/no, hours past a limit, a number outside the tolerance, an instant outside the
# tolerance, the other period, other rows of a file). Each entry: (what the wrong reading is, overrides merged into the
# check).
WRONG = {
    "b16-01": [("order lowest (the blower that worked least)", {"order": "lowest"})],
    "b16-02": [
        ("above instead of below", {"direction": "above"}),
        ("Aeration Basin 2 instead of 1", {"asset": "Aeration Basin 2"}),
    ],
    "b16-03": [
        ("a fixed 2.0 mg/L (the setpoint before the trial's change)", {"limit_sensor": None, "limit": 2.0}),
        ("above instead of below", {"direction": "above"}),
    ],
    "b16-04": [
        ("the blower's Speed (%)", {"sensor": "Speed"}),
        ("the blower's Motor Power (kW)", {"sensor": "Motor Power"}),
        ("the blower's Air Flow (scfm)", {"sensor": "Air Flow"}),
        ("below instead of above", {"direction": "below"}),
    ],
    "b16-05": [
        ("the max of the signed Net Power (the peak imported)", {"sensor": "Net Power"}),
        ("the min of Export Power", {"extreme": "min"}),
    ],
    "b16-06": [
        ("the energy of the signed Net Power (net imported)", {"sensor": "Net Power"}),
        ("the CHP engine's generation", {"asset": "CHP Engine", "sensor": "Electrical Output"}),
    ],
    "b16-07": [
        (
            "October's data (19-31 Oct: the data's first day to the month's end)",
            _w("2026-10-19", "2026-11-01", "-07:00"),
        ),
        ("from the data's first day (19 Oct) to today", _w("2026-10-19", "2026-11-06", "-07:00")),
        ("yesterday only", _w("2026-11-05", "2026-11-06", "-07:00")),
        ("the last 7 days", _w("2026-10-30", "2026-11-06", "-07:00")),
    ],
    "b16-14": [
        ("24 x the day's mean power (a 24-hour day assumed)", {"_mean24": True}),
        ("24 hours from midnight (00:00 BST to 23:00 GMT)", {"end": "2026-10-25T23:00:00+00:00"}),
    ],
    "b16-15": [
        ("19 Oct only", _w("2026-10-19", "2026-10-20", "+01:00")),
        ("20 Oct only", _w("2026-10-20", "2026-10-21", "+01:00")),
        ("21 Oct only", _w("2026-10-21", "2026-10-22", "+01:00")),
        ("19-20 Oct (the 21st read as exclusive)", _w("2026-10-19", "2026-10-21", "+01:00")),
        ("20-21 Oct", _w("2026-10-20", "2026-10-22", "+01:00")),
    ],
    "b16-16": [
        ("order lowest (the least efficient)", {"order": "lowest"}),
        ("ranked by the least gas burnt (Gas Flow)", {"sensor": "Gas Flow", "order": "lowest"}),
    ],
    "b16-17": [("order highest (the most used)", {"order": "highest"})],
    "b16-19": [
        (
            "the inverse (the terminal over the BHS)",
            {
                "a": {"asset": "Terminal Main Meter", "sensor": "Active Power"},
                "b": {"asset": "BHS Sub-Meter", "sensor": "Active Power"},
            },
        ),
        ("the difference (kW)", {"derive": "difference"}),
        ("the sum", {"derive": "sum"}),
    ],
    "b16-20": [
        ("below instead of above", {"direction": "below"}),
        ("AHU-01 instead of AHU-03", {"asset": "AHU-01"}),
    ],
    "b16-21": [("the PCA's CMP-KW (kW) instead of its discharge air (°C)", {"sensor": "CMP-KW"})],
    "b16-24": [
        ("Saturday only", _w("2026-10-31", "2026-11-01", "+00:00")),
        ("Sunday only", _w("2026-11-01", "2026-11-02", "+00:00")),
        ("Friday to Sunday", _w("2026-10-30", "2026-11-02", "+00:00")),
        ("the weekend before (24-25 Oct)", _w("2026-10-24", "2026-10-26", "+01:00", "+00:00")),
    ],
    "b16-26": [
        ("order lowest", {"order": "lowest"}),
        ("ranked by Fan Power (kW) instead of the make-up water", {"sensor": "Fan Power"}),
    ],
    "b16-27": [
        ("order lowest", {"order": "lowest"}),
        ("ranked by the warmest water (mean Water Temp)", {"sensor": "Water Temp", "by": "mean"}),
        ("ranked by the setpoint", {"sensor": "Water Temp Setpoint", "by": "mean"}),
    ],
    "b16-28": [
        ("the Main Pool instead of the Family Pool", {"asset": "Main Pool"}),
        ("a fixed 28 °C instead of its setpoint", {"limit_sensor": None, "limit": 28.0}),
    ],
    "b16-29": [("the calorifier's DHW Flow (L/min) instead of its outlet temperature", {"sensor": "DHW Flow"})],
    "b16-30": [
        (
            "the inverse (linen per kg of steam)",
            {
                "a": {"asset": "Laundry", "sensor": "Linen Throughput"},
                "b": {"asset": "Laundry", "sensor": "Steam Flow"},
            },
        ),
        ("the difference (kg/h)", {"derive": "difference"}),
    ],
    "b16-36": [
        (
            "the reversed difference (Water Temp - setpoint, negative)",
            {
                "a": {"asset": "Spa Pool", "sensor": "Water Temp"},
                "b": {"asset": "Spa Pool", "sensor": "Water Temp Setpoint"},
            },
        ),
        ("the Water Temp's mean alone", {"derive": None, "asset": "Spa Pool", "sensor": "Water Temp"}),
        ("the ratio", {"derive": "ratio"}),
        ("the sum", {"derive": "sum"}),
    ],
}
#: other readings that must PASS the check too (an honest alternative computation)
RIGHT_TOO = {
    "b16-05": [("the min of the signed Net Power", {"sensor": "Net Power", "extreme": "min"})],
    "b16-06": [("the Export Energy register's difference, Mon 00:00 to Mon 00:00", {"_register": "Export Energy"})],
    "b16-14": [("the Energy register's difference, 00:00 BST to 00:00 GMT", {"_register": "Energy"})],
    "b16-19": [
        ("the ratio of the day's means", {"_ratio_of_means": True}),
        (
            "the registers: BHS Energy difference ÷ terminal Energy difference, 00:00 to 00:00",
            {"_registers": ("BHS Sub-Meter", "Energy", "Terminal Main Meter", "Energy")},
        ),
    ],
    "b16-30": [("the ratio of the day's means (total steam ÷ total linen)", {"_ratio_of_means": True})],
    "b16-07": [("up to now (09:00) instead of today's 00:00", {"end": "2026-11-06T09:00:00-07:00"})],
}
#: slot-dependent questions checked otherwise than by WRONG (the gap question: the check demands status `partial`)
SLOT_OTHER = {"b16-10"}

problems: list[str] = []
out: list[str] = []


def bad(tid: str, msg: str) -> None:
    problems.append(f"{tid}: {msg}")
    out.append(f"- **NOT CLEAR-CUT**: {msg}")


def T(s: str) -> dt.datetime:
    return dt.datetime.fromisoformat(s)


def midnight(day: dt.date, tz) -> dt.datetime:
    """The day's first instant in site time, written with the offset the site has then (London's Sun 25 Oct starts at
    00:00+01:00 and Mon 26 Oct at 00:00+00:00: the clocks go back from 02:00 BST to 01:00 GMT in between)."""
    return dt.datetime.combine(day, dt.time(0), tz).astimezone(dt.UTC).astimezone(tz)


def day_of(phrase: str, today: dt.date) -> dt.date:
    if phrase == "today":
        return today
    if phrase == "yesterday":
        return today - dt.timedelta(days=1)
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


def resolve(phrase: str, now: dt.datetime, tz) -> tuple[dt.datetime, dt.datetime]:
    today = now.astimezone(tz).date()
    monday = today - dt.timedelta(days=today.weekday())
    if phrase == "last week":
        return midnight(monday - dt.timedelta(days=7), tz), midnight(monday, tz)
    if phrase == "week before last":
        return midnight(monday - dt.timedelta(days=14), tz), midnight(monday - dt.timedelta(days=7), tz)
    if phrase == "mtd":  # month to date: the 1st of this month 00:00 to today 00:00
        return midnight(today.replace(day=1), tz), midnight(today, tz)
    if phrase == "weekend":  # the latest Saturday and Sunday before today
        sat = day_of("weekday:5", today)
        return midnight(sat, tz), midnight(sat + dt.timedelta(days=2), tz)
    if phrase.startswith("dates:"):  # explicit days, both included ("from the 3rd to the 5th of November")
        _, d0, d1 = phrase.split(":")
        return midnight(dt.date.fromisoformat(d0), tz), midnight(dt.date.fromisoformat(d1) + dt.timedelta(days=1), tz)
    d = day_of(phrase, today)
    return midnight(d, tz), midnight(d + dt.timedelta(days=1), tz)


def same(a: dt.datetime, b: dt.datetime) -> bool:
    """The same instant written with the same UTC offset."""
    return a == b and a.utcoffset() == b.utcoffset()


def window_matches(tid: str, start: str, end: str, now, tz, phrase: str | None = None) -> None:
    phrase = phrase or WORDS.get(tid, {}).get("win")
    if phrase is None:
        return
    s, e = resolve(phrase, now, tz)
    if not (same(T(start), s) and same(T(end), e)):
        bad(tid, f"window {start} .. {end} is not what '{phrase}' means ({s.isoformat()} .. {e.isoformat()})")


def fmtv(v: float) -> str:
    return f"{v:,.3f}".rstrip("0").rstrip(".")


def no_gaps(tid: str, ser, what: str) -> None:
    if len(ser) < 2:
        bad(tid, f"{what}: fewer than two samples")
        return
    g = gaps(ser)
    if g:
        bad(tid, f"{what}: a gap inside the window {g}")


def n_samples(tid: str, ser, which: int = 0) -> None:
    want = SAMPLES.get(tid)
    if isinstance(want, tuple):
        want = want[which]
    if want is not None and len(ser) != want:
        bad(tid, f"{len(ser)} samples in the window, not the designed {want}")


def design(tid: str, got, what: str) -> None:
    want = DESIGN.get(tid)
    if isinstance(want, dict):  # a two-part task: one designed answer per check
        want = want.get(what)
    if want is not None and want != got:
        bad(tid, f"{what} {got!r} is not the designed {want!r}")


def tolerance(c: dict, v: float) -> float:
    return max(c.get("rel_tol", 0.005) * abs(v), c.get("abs_tol", 0.01))


def misread(tid: str, c: dict, now, stat, v: float, by: str) -> None:
    """The window misread — the period before (or after, when it has ended by `now`), or, for a day's mean or energy,
    shifted by the site's UTC offset (a UTC day) — must give a value outside the tolerance."""
    s0, e0 = T(c["start"]), T(c["end"])
    length = e0 - s0
    off = s0.utcoffset()
    cands = {"the period before": (s0 - length, s0)}
    if by in ("mean", "energy") and length <= dt.timedelta(hours=25) and off:  # a UTC day instead of the site's day
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
    if passing and tid in SAME_ANYWAY:
        out.append(f"  a misread window passes as well: {', '.join(passing)} ({SAME_ANYWAY[tid]})")
    elif passing:
        bad(tid, f"a misread window gives a passing value: {', '.join(passing)}")


def site_of(c: dict):
    s = P.site(c["site"])
    assert s is not None, c
    return s


# ---------------------------------------------------------------------------------------------------------------
def derived(c, start=None, end=None):
    """The aligned derived series a - b, a + b or a / b (pairs with b = 0 dropped) in [start, end)."""
    s0, e0 = start or T(c["start"]), end or T(c["end"])
    sa = dict(P.series(c["site"], c["a"]["asset"], c["a"]["sensor"], s0, e0))
    sb = dict(P.series(c["site"], c["b"]["asset"], c["b"]["sensor"], s0, e0))
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


def chk_derive(tid, c, now):
    tz = site_of(c).tz
    window_matches(tid, c["start"], c["end"], now, tz)
    for side in ("a", "b"):
        no_gaps(tid, P.series(c["site"], c[side]["asset"], c[side]["sensor"], T(c["start"]), T(c["end"])), side)
    agg = c.get("aggregate", c.get("stat"))
    ser = derived(c)
    v = aggregate(ser, agg)
    ua = P.point(c["site"], c["a"]["asset"], c["a"]["sensor"]).unit
    out.append(
        f"- {agg} of {c['derive']} ({c['a']['asset']} {c['a']['sensor']}, {c['b']['asset']} {c['b']['sensor']}) over "
        f"[{local(T(c['start']), tz)}, {local(T(c['end']), tz)}) on {len(ser)} aligned instants = **{fmtv(v)}**"
        f"{' ' + ua if c['derive'] != 'ratio' else ''} (tolerance ±{fmtv(tolerance(c, v))})"
    )
    misread(tid, c, now, lambda a, b: aggregate(derived(c, a, b), agg), v, agg)


def chk_partial(tid, c, task):
    """A `partial` task: here, an instant asked that lies inside a gap of the asked point's history."""
    words = WORDS.get(tid, {}).get("gap_at")
    if not words:
        out.append("- **the run must end `partial`**")
        return
    site, asset, sensor = GAP_POINT[tid]
    s = P.site(site)
    d0, _ = resolve(words[0], T(task["now"]), s.tz)
    inst = dt.datetime.combine(d0.date(), dt.time.fromisoformat(words[1]), s.tz)
    p = P.point(site, asset, sensor)
    ser = list(zip(p.ts, p.vals))
    hit = at(p, inst, 60)
    before = [t_ for t_ in p.ts if t_ <= inst]
    after = [t_ for t_ in p.ts if t_ > inst]
    inside = [(a, b) for a, b in gaps(ser) if a < inst < b]
    out.append(
        f"- {asset} {sensor} at {local(inst, s.tz)}: **no sample** — inside the gap "
        f"{', '.join(f'{local(a, s.tz)} → {local(b, s.tz)}' for a, b in inside) or '(none!)'}; the last sample before "
        f"{local(before[-1], s.tz) if before else '—'}, the next {local(after[0], s.tz) if after else '—'}: the "
        f"**run must end `partial`** (saying the value was not recorded), not answer a figure"
    )
    if hit is not None or not inside:
        bad(tid, f"the instant {inst.isoformat()} is not inside a gap (a sample within 60 min: {hit})")
    if tid in SLOT_OTHER and before and after:
        vb = dict(ser)[before[-1]]
        va = dict(ser)[after[0]]
        w = (inst - before[-1]) / (after[0] - before[-1])
        out.append("- slot readings (the true one: not recorded → `partial`):")
        out.append(
            f"  - wrong: the last sample before the gap, {fmtv(vb)} at {local(before[-1], s.tz)} (a look-back wider "
            f"than an hour) — an answered figure fails `partial`"
        )
        out.append(f"  - wrong: the next sample, {fmtv(va)} at {local(after[0], s.tz)} — fails likewise")
        out.append(f"  - wrong: interpolated across the gap, {fmtv(vb + w * (va - vb))} — fails likewise")


def chk_value(tid, c, now):
    if c.get("derive"):
        chk_derive(tid, c, now)
        return
    tz = site_of(c).tz
    p = P.point(c["site"], c["asset"], c["sensor"])
    unit = p.unit or ""
    if c.get("aggregate") == "at":
        inst = T(c["at"])
        words = WORDS.get(tid, {}).get("at")
        if words:
            day, clock = words
            want = (
                now
                if clock == "now"
                else dt.datetime.combine(day_of(day, now.astimezone(tz).date()), dt.time.fromisoformat(clock), tz)
            )
            if not same(inst, want):
                bad(tid, f"instant {inst.isoformat()} is not the asked {want.isoformat()}")
        hit = at(p, inst, c.get("at_window_minutes", 60))
        if hit is None or hit[0] != inst:
            bad(tid, f"no sample exactly at {inst.isoformat()} ({hit})")
            return
        prev = at(p, inst - dt.timedelta(minutes=15), 0)
        nxt = at(p, inst + dt.timedelta(minutes=15), 0)
        out.append(
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
        if tid in REGISTER_AT:  # a register read one sample off must fail
            for sh in (dt.timedelta(minutes=-15), dt.timedelta(minutes=15)):
                other = at(p, inst + sh, 0)
                if other and abs(other[1] - hit[1]) <= tolerance(c, hit[1]):
                    passing.append(f"{local(other[0], tz)} ({fmtv(other[1])}, one sample off)")
            before_s, after_s = (fmtv(prev[1]) if prev else "—"), (fmtv(nxt[1]) if nxt else "—")
            diff_b = fmtv(hit[1] - prev[1]) if prev else "—"
            diff_a = fmtv(nxt[1] - hit[1]) if nxt else "—"
            out.append(
                f"  the register one sample either side: {before_s}, {after_s} (differences {diff_b}, {diff_a}) — fail"
            )
        if passing and tid in FLAT:
            out.append(f"  the series is flat here: {', '.join(passing)} pass as well ({FLAT[tid]})")
        elif passing:
            bad(tid, f"the instant misread by an hour or by the UTC offset passes too: {', '.join(passing)}")
        return
    ser = P.series(c["site"], c["asset"], c["sensor"], T(c["start"]), T(c["end"]))
    window_matches(tid, c["start"], c["end"], now, tz)
    no_gaps(tid, ser, "value")
    n_samples(tid, ser)
    agg = c["aggregate"]
    v = aggregate(ser, agg)
    out.append(
        f"- {agg} of {c['asset']} {c['sensor']} over [{local(T(c['start']), tz)}, {local(T(c['end']), tz)}) = "
        f"**{fmtv(v)} {unit}** ({len(ser)} samples; tolerance ±{fmtv(tolerance(c, v))})"
    )
    misread(tid, c, now, lambda a, b: aggregate(P.series(c["site"], c["asset"], c["sensor"], a, b), agg), v, agg)
    if agg in ("max", "min"):
        _, inst = extreme_instants(ser, agg)
        out.append(f"  (at {', '.join(local(t, tz) for t in inst)})")
        design(tid, inst[0].astimezone(tz).strftime("%Y-%m-%d %H:%M"), "instant of the extreme")


def chk_energy(tid, c, now):
    tz = site_of(c).tz
    p = P.point(c["site"], c["asset"], c["sensor"])
    ser = P.series(c["site"], c["asset"], c["sensor"], T(c["start"]), T(c["end"]))
    window_matches(tid, c["start"], c["end"], now, tz)
    no_gaps(tid, ser, "energy")
    n_samples(tid, ser)
    if p.unit not in ("W", "kW", "MW"):
        bad(tid, f"energy of a {p.unit} point")
        return
    kwh = energy(ser, p.unit)
    tol = c.get("rel_tol", 0.005)
    span = (T(c["end"]) - T(c["start"])).total_seconds() / 3600
    out.append(
        f"- energy of {c['asset']} {c['sensor']} ({p.unit}) over [{local(T(c['start']), tz)}, "
        f"{local(T(c['end']), tz)}) ({span:g} h, {len(ser)} samples) = **{fmtv(kwh)} kWh** "
        f"(tolerance {tol * 100:g} %: {fmtv(kwh * (1 - tol))} .. {fmtv(kwh * (1 + tol))})"
    )
    misread(tid, c, now, lambda a, b: energy(P.series(c["site"], c["asset"], c["sensor"], a, b), p.unit), kwh, "energy")
    reg_name = REGISTER.get(tid)
    if reg_name:
        reg = P.point(c["site"], c["asset"], reg_name)
        scale = {"kWh": 1.0, "MWh": 1000.0}[reg.unit]
        r0, r1 = at(reg, T(c["start"]), 0), at(reg, T(c["end"]), 0)
        full = (r1[1] - r0[1]) * scale
        odd_day = span < 48 and span != 24
        line = (
            f"  {reg_name} register ({reg.unit}): {fmtv(r0[1])} at {local(r0[0], tz)}, {fmtv(r1[1])} at "
            f"{local(r1[0], tz)}: start to end ({span:g} h) **{fmtv(full)} kWh** ({(full / kwh - 1) * 100:+.2f} %)"
        )
        if span < 48:
            mean24 = aggregate(ser, "mean") * 24 * (1000 if p.unit == "MW" else 0.001 if p.unit == "W" else 1)
            line += (
                f"; 24 x the day's mean power = {fmtv(mean24)} kWh ({(mean24 / kwh - 1) * 100:+.2f} %"
                f"{f', wrong: the day has {span:g} hours' if odd_day else ''})"
            )
            if odd_day and abs(mean24 - kwh) <= tol * kwh:
                bad(tid, f"24 x mean power would pass: the {span:g}-hour day is not tested")
        out.append(line)
        if abs(full - kwh) > tol * kwh:
            bad(tid, f"the register's difference {full:.1f} is outside the tolerance of {kwh:.1f}")


def chk_ranks(tid, c, now):
    s = site_of(c)
    window_matches(tid, c["start"], c["end"], now, s.tz)
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
        ser = P.series(c["site"], n, c["sensor"], T(c["start"]), T(c["end"]))
        no_gaps(tid, ser, f"ranks {n}")
        n_samples(tid, ser)
        unit = P.point(c["site"], n, c["sensor"]).unit
        vals[n] = energy(ser, unit) if c["by"] == "energy" else aggregate(ser, c["by"])
    order = sorted(vals, key=vals.get, reverse=c["order"] == "highest")
    best, second = vals[order[0]], vals[order[1]]
    rel = abs(best - second) / abs(best)
    u = "kWh" if c["by"] == "energy" else P.point(c["site"], order[0], c["sensor"]).unit
    out.append(
        f"- ranked by {c['by']} ({c['order']} first) over [{local(T(c['start']), s.tz)}, {local(T(c['end']), s.tz)}): "
        + ", ".join(f"{n} {fmtv(vals[n])} {u}" for n in order)
        + f" → **{order[0]}** (the runner-up {rel * 100:.1f} % away)"
    )
    if rel < 0.03:
        bad(tid, f"the runner-up is only {rel * 100:.2f} % away")
    design(tid, order[0], "winner")


def chk_periods(tid, c, now):
    tz = site_of(c).tz
    words = WORDS.get(tid, {}).get("periods")
    if words:
        for which, phrase in zip(("first", "second"), words):
            window_matches(tid, c[which]["start"], c[which]["end"], now, tz, phrase)
    unit = P.point(c["site"], c["asset"], c["sensor"]).unit
    vals = {}
    for k, which in enumerate(("first", "second")):
        ser = P.series(c["site"], c["asset"], c["sensor"], T(c[which]["start"]), T(c[which]["end"]))
        no_gaps(tid, ser, f"period {which}")
        n_samples(tid, ser, k)
        vals[which] = energy(ser, unit) if c["by"] == "energy" else aggregate(ser, c["by"])
    win = max(vals, key=vals.get) if c["order"] == "highest" else min(vals, key=vals.get)
    rel = abs(vals["first"] - vals["second"]) / max(abs(vals["first"]), abs(vals["second"]))
    u = "kWh" if c["by"] == "energy" else unit
    parts = [
        f"{' / '.join(c[w]['labels'])} [{local(T(c[w]['start']), tz)}, {local(T(c[w]['end']), tz)}) = "
        f"{fmtv(vals[w])} {u}"
        for w in ("first", "second")
    ]
    out.append(
        f"- {c['by']} of {c['asset']} {c['sensor']}: {'; '.join(parts)} → **{c[win]['labels'][0]}** is "
        f"{c['order']} ({rel * 100:.1f} % apart)"
    )
    if rel < 0.03:
        bad(tid, f"the periods are only {rel * 100:.2f} % apart")
    design(tid, win, "period")


def chk_excursion(tid, x, now):
    tz = site_of(x).tz
    window_matches(tid, x["start"], x["end"], now, tz)
    ser = P.series(x["site"], x["asset"], x["sensor"], T(x["start"]), T(x["end"]))
    no_gaps(tid, ser, "excursion")
    lim_ser = (
        P.series(x["site"], x["asset"], x["limit_sensor"], T(x["start"]), T(x["end"])) if "limit_sensor" in x else None
    )
    comp = compared(ser, x.get("limit"), lim_ser)
    if not comp:
        bad(tid, "no samples to compare")
        return
    hits = [r for r in comp if past(r[1], r[2], x["direction"])]
    closest = min(abs(v - lim) for _, v, lim in comp)
    sign = 1 if x["direction"] == "above" else -1
    worst = max(comp, key=lambda r: sign * (r[1] - r[2]))
    ans = bool(hits)
    out.append(
        f"- {x['asset']} {x['sensor']} {x['direction']} {x.get('limit', x.get('limit_sensor'))} over "
        f"[{local(T(x['start']), tz)}, {local(T(x['end']), tz)}): **{'Yes' if ans else 'No'}** — {len(hits)} of "
        f"{len(comp)} compared samples past it; the most extreme {fmtv(worst[1])} (limit {fmtv(worst[2])}) at "
        f"{local(worst[0], tz)}; the closest sample {closest:.3f} from the limit"
    )
    if hits:
        out.append(f"  first past {local(hits[0][0], tz)}, last past {local(hits[-1][0], tz)}")
    if hits:  # a Yes: the most extreme sample well past the limit, and more than one sample past it
        margin = sign * (worst[1] - worst[2])
        floor = MARGIN_FLOOR.get(tid, max(0.5, 0.02 * abs(worst[2])))
        if margin < floor or len(hits) < 2:
            bad(tid, f"a borderline Yes: {len(hits)} samples past, the most extreme {margin:.3f} past the limit")
    elif closest < 0.1:  # a No: no sample near the limit
        bad(tid, f"a sample lies {closest:.3f} from the limit")
    design(tid, ans, "answer")


def chk_exists(tid, x):
    s = site_of(x)
    if "kind" in x:
        have = [e.dis for e in s.equips.values() if x["kind"] in e.markers]
        elsewhere = [
            f"{e.dis} ({t.dis})"
            for t in P.sites.values()
            if t is not s
            for e in t.equips.values()
            if x["kind"] in e.markers
        ]
        ans = bool(have)
        out.append(
            f"- an equip with the `{x['kind']}` marker at {s.dis}: **{'Yes' if ans else 'No'}** "
            f"({', '.join(have) or 'none'}; at the other sites: {', '.join(elsewhere) or 'none'})"
        )
    else:
        ans = P.equip(x["site"], x["asset"]) is not None
        out.append(f"- an asset named {x['asset']} at {s.dis}: **{'Yes' if ans else 'No'}**")
    design(tid, ans, "answer")


def chk_duration(tid, c, now):
    tz = site_of(c).tz
    window_matches(tid, c["start"], c["end"], now, tz)
    ser = P.series(c["site"], c["asset"], c["sensor"], T(c["start"]), T(c["end"]))
    no_gaps(tid, ser, "duration")
    lim_ser = (
        P.series(c["site"], c["asset"], c["limit_sensor"], T(c["start"]), T(c["end"])) if "limit_sensor" in c else None
    )
    comp = compared(ser, c.get("limit"), lim_ser)
    tot, n_past, n = duration(ser, comp, c["direction"], T(c["end"]))
    closest = min(abs(v - lim) for _, v, lim in comp)
    pts = [t for t, v, lim in comp if past(v, lim, c["direction"])]
    h = tot.total_seconds() / 3600
    share = n_past / n * 100
    out.append(
        f"- {c['asset']} {c['sensor']} {c['direction']} {c.get('limit', c.get('limit_sensor'))} over "
        f"[{local(T(c['start']), tz)}, {local(T(c['end']), tz)}): **{h:g} h** ({n_past} of {n} samples, "
        f"**{share:.2f} %**), the samples from {local(pts[0], tz)} to {local(pts[-1], tz)}; spacing "
        f"{spacing(ser)}; the closest sample {closest:.3f} from the limit"
    )
    if closest < 0.1:
        bad(tid, f"a sample lies {closest:.3f} from the limit")
    if tid not in MULTI_RUN and any((b - a) != dt.timedelta(minutes=15) for a, b in zip(pts, pts[1:])):
        bad(tid, "the samples past the limit are not one run")
    want = DESIGN.get(tid)
    if want and want[0] == "h" and abs(h - want[1]) > 1e-9:
        bad(tid, f"{h} h is not the designed {want[1]} h")
    if want and want[0] == "%" and abs(share - want[1]) > 1e-9:
        bad(tid, f"{share} % is not the designed {want[1]} %")


def chk_extreme(tid, c, now):
    tz = site_of(c).tz
    window_matches(tid, c["start"], c["end"], now, tz)
    ser = P.series(c["site"], c["asset"], c["sensor"], T(c["start"]), T(c["end"]))
    no_gaps(tid, ser, "time of extreme")
    best, inst = extreme_instants(ser, c["extreme"])
    ranked = sorted({v for _, v in ser}, reverse=c["extreme"] == "max")
    runner = ranked[1]
    unit = P.point(c["site"], c["asset"], c["sensor"]).unit or ""
    out.append(
        f"- {c['extreme']} of {c['asset']} {c['sensor']} = {fmtv(best)} {unit} at "
        f"**{', '.join(local(t, tz) for t in inst)}** (the next value {fmtv(runner)})"
    )
    if len(inst) != 1:
        bad(tid, "the extreme is held at more than one instant")
    if abs(best - runner) < max(0.05, 0.005 * abs(best)):
        bad(tid, f"the next value {runner} is too close to {best}")
    design(tid, inst[0].astimezone(tz).strftime("%Y-%m-%d %H:%M"), "instant")


def chk_count(tid, c):
    s = site_of(c)
    if c["of"] == "assets":
        names = [
            e.dis
            for e in s.equips.values()
            if (c.get("kind") is None or c["kind"] in e.markers) and c.get("name_contains", "").lower() in e.dis.lower()
        ]
    else:
        names = list(P.equip(c["site"], c["asset"]).points)
    out.append(f"- count: **{len(names)}** ({', '.join(names)})")
    design(tid, len(names), "count")


def chk_lists(tid, c):
    if c["of"] == "sites":
        names = [s.dis for s in P.sites.values()]
        shown = names
    elif c["of"] == "assets":
        s = site_of(c)
        names = [e.dis for e in s.equips.values() if c.get("name_contains", "").lower() in e.dis.lower()]
        exact = [e.dis for e in s.equips.values() if c.get("name_contains", "") in e.dis]
        if exact != names:
            bad(tid, f"name_contains matches differ by case: {exact} vs {names}")
        shown = names
    else:
        e = P.equip(c["site"], c["asset"])
        names = list(e.points)
        shown = [f"{p.nav} ({p.unit or p.kind})" for p in e.points.values()]
    out.append(f"- lists: **{', '.join(shown)}**")
    design(tid, names, "list")


def chk_missing(tid, c):
    k = c["kind"]
    if k == "site":
        missing = P.site(c["name"]) is None and not any(norm(c["name"]) in norm(s.dis) for s in P.sites.values())
        there = [s.dis for s in P.sites.values()]
    elif k == "asset":
        s = site_of(c)
        missing = P.equip(c["site"], c["name"]) is None and not any(
            norm(c["name"]) in norm(e.dis) for e in s.equips.values()
        )
        there = list(s.equips)
    else:
        e = P.equip(c["site"], c["asset"])
        # missing by name, and no point of the asset carries the measure's tag either (vibration, humidity, ...)
        missing = all(
            norm(p.nav) != norm(c["name"])
            and norm(c["name"]) not in p.tags
            and not (MISSING_TAGS.get(tid, set()) & p.tags)
            for p in e.points.values()
        )
        there = list(e.points)
    out.append(f"- {k} '{c['name']}': **{'missing' if missing else 'EXISTS'}** (there is: {', '.join(there)})")
    if not missing:
        bad(tid, "the 'missing' thing exists")


def chk_not_recorded(tid, c):
    e = P.equip(c["site"], c["asset"])
    if e is None:
        bad(tid, "the asset does not exist")
        return
    attr_tags = set(c.get("tags", [])) | {"manufacturer", "model", "serial", "installDate", "rating", "capacity"}
    held = attr_tags & set(e.record)
    out.append(f"- {c['attribute']} of {e.dis}: its record holds only {', '.join(sorted(e.record))} → **not recorded**")
    if held:
        bad(tid, f"the record holds {held}")


def chk_file(tid, c, now):
    tz = site_of(c).tz
    window_matches(tid, c["start"], c["end"], now, tz)
    sensors = c["sensor"] if isinstance(c["sensor"], list) else [c["sensor"]]
    parts = []
    for a in c["assets"]:
        for sn in sensors:
            ser = P.series(c["site"], a, sn, T(c["start"]), T(c["end"]))
            no_gaps(tid, ser, f"file {a} {sn}")
            n_samples(tid, ser)
            parts.append(f"{a} {sn}: {len(ser)} rows, {local(ser[0][0], tz)} … {local(ser[-1][0], tz)}")
    how = "one file" if c.get("single_file", True) else "one or more files"
    out.append(f"- {how}: **" + "; ".join(parts) + "**")


def chk_refuses(tid, c):
    if c is True:
        out.append("- **says it cannot; reads no data; claims no action**")
    elif c.get("reason") == "forecast":
        out.append("- **says it reads recorded data and does not forecast; states no figure; reads no data**")
    else:
        extra = "; may read data for the data part (checked beside)" if c.get("allow_data") else "; reads no data"
        names = f"; names {', '.join(c['must_name'])}" if c.get("must_name") else ""
        out.append(f"- **refuses the operation / the injected instruction; claims no action{names}{extra}**")
        for n in c.get("must_name", []):
            if not any(P.equip(s.dis, n) for s in P.sites.values()):
                bad(tid, f"must_name {n} is no asset")


# ----- the slot-dependent questions' wrong readings -----------------------------------------------------------
def verdict(kind: str, c: dict):
    """The answer a reading gives: a ranks winner set, a yes/no, hours past, a number, extreme instants, a period."""
    s0, e0 = T(c["start"]) if "start" in c else None, T(c["end"]) if "end" in c else None
    if kind == "ranks":
        s = site_of(c)
        names = c.get("assets") or [
            e.dis for e in s.equips.values()
            if ("kind" not in c or c["kind"] in e.markers) and c.get("name_contains", "").lower() in e.dis.lower()
            and any(norm(p.nav) == norm(c["sensor"]) for p in e.points.values())
        ]  # fmt: skip
        vals = {}
        for n in names:
            ser = P.series(c["site"], n, c["sensor"], s0, e0)
            unit = P.point(c["site"], n, c["sensor"]).unit
            vals[n] = energy(ser, unit) if c["by"] == "energy" else aggregate(ser, c["by"])
        best = (max if c["order"] == "highest" else min)(vals.values())
        return {n for n, v in vals.items() if abs(v - best) <= 1e-9 * max(1.0, abs(best))}
    if kind in ("yes_no", "duration"):
        ser = P.series(c["site"], c["asset"], c["sensor"], s0, e0)
        if c.get("_negate"):
            ser = [(t_, -v) for t_, v in ser]
        lim = P.series(c["site"], c["asset"], c["limit_sensor"], s0, e0) if "limit_sensor" in c else None
        comp = compared(ser, c.get("limit"), lim)
        if kind == "yes_no":
            return any(past(v, li, c["direction"]) for _, v, li in comp)
        tot, n_past, n = duration(ser, comp, c["direction"], e0)
        return tot.total_seconds() / 3600, n_past / n * 100
    if kind == "energy":
        p = P.point(c["site"], c["asset"], c["sensor"])
        if c.get("_register"):
            reg = P.point(c["site"], c["asset"], c["_register"])
            return at(reg, e0, 0)[1] - at(reg, s0, 0)[1]
        ser = P.series(c["site"], c["asset"], c["sensor"], s0, e0)
        if c.get("_mean24"):
            return aggregate(ser, "mean") * 24
        return energy(ser, p.unit)
    if kind == "file":
        sensors = c["sensor"] if isinstance(c["sensor"], list) else [c["sensor"]]
        return {(a, sn, t_) for a in c["assets"] for sn in sensors for t_, _ in P.series(c["site"], a, sn, s0, e0)}
    if kind == "value":
        if c.get("_registers"):
            a_eq, a_reg, b_eq, b_reg = c["_registers"]
            ra, rb = P.point(c["site"], a_eq, a_reg), P.point(c["site"], b_eq, b_reg)
            return (at(ra, e0, 0)[1] - at(ra, s0, 0)[1]) / (at(rb, e0, 0)[1] - at(rb, s0, 0)[1])
        if c.get("_ratio_of_means"):
            ser = derived({**c, "derive": "difference"})  # only for the alignment
            sa = dict(P.series(c["site"], c["a"]["asset"], c["a"]["sensor"], s0, e0))
            sb = dict(P.series(c["site"], c["b"]["asset"], c["b"]["sensor"], s0, e0))
            ts = [t_ for t_, _ in ser]
            return sum(sa[t_] for t_ in ts) / sum(sb[t_] for t_ in ts)
        if c.get("derive"):
            return aggregate(derived(c), c.get("aggregate", c.get("stat")))
        return aggregate(P.series(c["site"], c["asset"], c["sensor"], s0, e0), c["aggregate"])
    if kind == "time_of_extreme":
        return extreme_instants(P.series(c["site"], c["asset"], c["sensor"], s0, e0), c["extreme"])[1]
    if kind == "periods":
        unit = P.point(c["site"], c["asset"], c["sensor"]).unit
        vals = {}
        for w in ("first", "second"):
            ser = P.series(c["site"], c["asset"], c["sensor"], T(c[w]["start"]), T(c[w]["end"]))
            vals[w] = energy(ser, unit) if c["by"] == "energy" else aggregate(ser, c["by"])
        return (max if c["order"] == "highest" else min)(vals, key=vals.get)
    raise ValueError(kind)


def passes(kind: str, c: dict, true, got) -> bool:
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


def show(x) -> str:
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


def wrong_readings(task) -> None:
    tid = task["id"]
    if tid not in WRONG and tid not in RIGHT_TOO:
        return
    kinds = [
        k
        for k in ("ranks", "yes_no", "duration", "value", "energy", "file", "time_of_extreme", "periods")
        if k in task["expect"]
    ]
    if len(kinds) != 1:
        bad(tid, f"slot checks need exactly one value-bearing check, found {kinds}")
        return
    kind = kinds[0]
    c = task["expect"][kind]
    c = c["excursion"] if kind == "yes_no" else c
    true = verdict(kind, c)
    out.append(f"- slot readings (the true one: {show(true)}):")
    for what, over in WRONG.get(tid, []):
        cc = {k: v for k, v in {**c, **over}.items() if v is not None and k != "_same_ok"}
        try:
            got = verdict(kind, cc)
        except (KeyError, ValueError, IndexError, ZeroDivisionError) as exc:
            out.append(f"  - {what}: cannot be read ({exc!r}) — fails")
            continue
        ok = passes(kind, cc if kind in ("value", "energy") else c, true, got)
        if over.get("_same_ok"):  # a neighbouring reading that agrees: shown, not held against the task
            out.append(f"  - another reading: {what} → {show(got)} — {'agrees' if ok else 'differs'}")
            continue
        out.append(f"  - wrong: {what} → {show(got)} — {'PASSES' if ok else 'fails'}")
        if ok:
            bad(tid, f"the wrong reading '{what}' gives a passing answer ({show(got)})")
    for what, over in RIGHT_TOO.get(tid, []):
        got = verdict(kind, {**c, **over})
        ok = passes(kind, c, true, got)
        out.append(f"  - also right: {what} → {show(got)} — {'passes' if ok else 'FAILS'}")
        if not ok:
            bad(tid, f"the honest alternative '{what}' fails ({show(got)})")


#: the point a `partial` gap question asks about
GAP_POINT = {"b16-10": (CF, "Clarifier 1", "AIT-302")}


def do_check(tid: str, kind: str, c, task) -> None:
    now = T(task["now"])
    if kind == "partial":
        chk_partial(tid, c, task)
    elif kind == "value":
        chk_value(tid, c, now)
    elif kind == "energy":
        chk_energy(tid, c, now)
    elif kind == "ranks":
        chk_ranks(tid, c, now)
    elif kind == "periods":
        chk_periods(tid, c, now)
    elif kind == "yes_no":
        if "excursion" in c:
            chk_excursion(tid, c["excursion"], now)
        else:
            chk_exists(tid, c["exists"])
    elif kind == "duration":
        chk_duration(tid, c, now)
    elif kind == "time_of_extreme":
        chk_extreme(tid, c, now)
    elif kind == "count":
        chk_count(tid, c)
    elif kind == "answer_lists":
        chk_lists(tid, c)
    elif kind == "answer_says_missing":
        chk_missing(tid, c)
    elif kind == "not_recorded":
        chk_not_recorded(tid, c)
    elif kind == "file":
        chk_file(tid, c, now)
    elif kind == "refuses":
        chk_refuses(tid, c)
    else:
        bad(tid, f"no truth for the check {kind}")


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


def check_now(task) -> None:
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
    site_by_word = {"cactus": CF, "thameside": TA, "alnoor": AN}
    if task["tags"][0] in site_by_word:
        sites.add(site_by_word[task["tags"][0]])
    elif task["tags"][0] != "general":
        bad(tid, f"the first tag {task['tags'][0]!r} names no site")
    for sn in sites:
        s = P.site(sn)
        if s is None:
            continue
        if now.astimezone(s.tz).utcoffset() != now.utcoffset():
            bad(tid, f"now {now.isoformat()} does not carry {s.dis}'s offset {now.astimezone(s.tz).utcoffset()}")
        first = min(p.ts[0] for e in s.equips.values() for p in e.points.values())
        last = max(p.ts[-1] for e in s.equips.values() for p in e.points.values())
        if not first <= now <= last:
            bad(tid, f"now {now.isoformat()} lies outside {s.dis}'s data")
    for sn, a, b in windows(task["expect"]):
        if b > now:
            bad(tid, f"a window ends after now ({b.isoformat()} > {now.isoformat()})")
        s = P.site(sn) if sn else None
        if s is not None:
            for t in (a, b):
                if t.astimezone(s.tz).utcoffset() != t.utcoffset():
                    bad(tid, f"{t.isoformat()} does not carry {s.dis}'s offset")


def plant_tables() -> list[str]:
    lines = ["## The plant", ""]
    lines += ["| site | tz | equips | points | samples per point |", "|---|---|---|---|---|"]
    for s in P.sites.values():
        pts = [p for e in s.equips.values() for p in e.points.values()]
        lines.append(
            f"| {s.dis} | {s.tz.key} | {len(s.equips)} | {len(pts)} | "
            f"{min(len(p.ts) for p in pts)}–{max(len(p.ts) for p in pts)} |"
        )
    for s in P.sites.values():
        lines += ["", f"### {s.dis} ({s.tz.key})", "", "| equip | markers | points (unit or kind) | gaps |"]
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


HEAD = """# Blind set 16: the true answers

Written by `python bench/blind16/truth.py` from `plant.json` and `plant.csv.gz` alone (never the agent's code or the
checker). Times are site-local unless an offset is shown.

## Definitions

- Windows are [start, end): a day is [00:00, next 00:00) in site time; a week starts on Monday. 'yesterday',
  'midnight last night' (today's 00:00), 'last week', 'the week before' (the week before last week), 'on Tuesday',
  'on Wednesday', 'on Thursday', 'Sunday' (the latest such day before today), 'the weekend' (the latest Saturday
  00:00 to the Monday 00:00 after it), 'between the 19th and 21st of October' (both days included) and
  'month-to-date' (the 1st of this month 00:00 to today's 00:00) resolve from the task's `now` in the site's zone.
- London's clocks go BACK on Sun 25 Oct 2026 (02:00 BST → 01:00 GMT): 01:00–01:45 happen twice, the day runs from
  00:00+01:00 to 00:00+00:00 next day, has 25 hours (100 samples), and the week of 19 Oct 676 samples. Phoenix keeps
  -07:00 (no DST; the rest of the USA changes on Sun 1 Nov, Phoenix does not) and Dubai +04:00 all along.
- Spacing: the lower median of the sample intervals (15 min); an interval over 3 × spacing is a gap.
- Energy (kWh): Σ (v_i + v_{i+1}) / 2 × Δt over consecutive samples in the window that are not a gap; W ÷ 1000,
  MW × 1000. The last interval counted ends at the window's last sample (23:45 on a day).
- A derived series (difference, sum, ratio of two points) is taken on identical timestamps; a ratio drops b = 0.
- An excursion is a sample strictly past the limit; against a setpoint, the same asset's setpoint point at the same
  instant.
- Time past a limit: each sample past it holds until the next compared sample, at most one spacing, the last cut at
  the window's end. Share = samples past / samples compared.
- Signed power: the Cactus Flats `Plant Main Meter`'s `Net Power` is + when the plant imports from the grid and − when
  the CHP engine's output exceeds the plant's load (export); `Export Power` (≥ 0) is the power exported; `Import
  Energy` / `Export Energy` their registers.
- Clear-cut (checked; exit 1 otherwise): every window is what the question's words mean from its `now`; a ranking's
  runner-up and two compared periods ≥ 3 % apart; an extreme held at a single instant with the next value clearly
  apart; no compared sample within 0.1 of a duration limit or of the limit of an excursion answered No; an excursion
  answered Yes has more than one sample past the limit and its most extreme one at least max(0.5, 2 % of the limit)
  past it; no gap inside any asked window; a value-at instant holds a sample, and the samples an hour (or the site's
  UTC offset) away — and for a register one sample away — fail its tolerance; a misread window (the period before or
  after, a UTC day) fails an aggregate's tolerance; an energy's register difference passes its tolerance and, on the
  25-hour day, 24 × the mean power fails it; 'missing' things are missing (by name and by tag); 'not recorded' assets
  exist without the attribute's tags; the gap question's instant lies inside a gap with no sample in the hour before
  it; every `now` carries its site's own offset and lies inside its data, and every window lies before it; the answer
  is the one make_plant.py designed; and for every slot-dependent question, each wrong reading listed under "slot
  readings" (the other order, the setpoint or another point of the same asset, a point in another unit, the net
  signed power instead of the power exported, the other extreme, a single day of a range, the inverse ratio, a stale
  setpoint, 24 × the mean on the 25-hour day, …) gives an answer that FAILS the check, and the honest alternatives
  listed as "also right" pass it.
"""


def main() -> int:
    body: list[str] = ["## Questions and answers", ""]
    for task in TASKS:
        tid = task["id"]
        out.clear()
        check_now(task)
        for kind, c in task["expect"].items():
            for cc in c if isinstance(c, list) else [c]:
                do_check(tid, kind, cc, task)
        wrong_readings(task)
        body += [f"### {tid} — {', '.join(task['tags'])}", ""]
        body += [f"> {line}" for line in task["question"].splitlines()]
        body += ["", f"now: `{task['now']}`"]
        if task.get("notes"):
            body += ["", f"notes: {task['notes'].strip()}"]
        body.append("")
        body += out
        body.append("")
    text = "\n".join([HEAD] + plant_tables() + [""] + body)
    if problems:
        text += "\n## Problems\n\n" + "\n".join(f"- {p}" for p in problems) + "\n"
    (HERE / "truth.md").write_text(text)
    for p in problems:
        print("NOT CLEAR-CUT:", p, file=sys.stderr)
    print(f"{len(TASKS)} tasks, {len(problems)} problems; wrote truth.md")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
