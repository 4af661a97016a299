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

# The answers the plant was designed to give (make_plant.py's events), to catch a plant that drifted from its design.
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

problems: list[str] = []
out: list[str] = []


def bad(tid: str, msg: str) -> None:
    problems.append(f"{tid}: {msg}")
    out.append(f"- **NOT CLEAR-CUT**: {msg}")


def T(s: str) -> dt.datetime:
    return dt.datetime.fromisoformat(s)


def midnight(day: dt.date, tz) -> dt.datetime:
    return dt.datetime.combine(day, dt.time(0), tz)


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
    if by in ("mean", "energy") and length <= dt.timedelta(hours=25):  # a UTC day instead of the site's day
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
def derived(c, start, end):
    """The aligned pointwise a - b or a / b (pairs with b = 0 dropped) over [start, end)."""
    sa = P.series(c["site"], c["a"]["asset"], c["a"]["sensor"], start, end)
    sb = dict(P.series(c["site"], c["b"]["asset"], c["b"]["sensor"], start, end))
    if c["derive"] == "difference":
        return [(t, v - sb[t]) for t, v in sa if t in sb], sa, sb
    if c["derive"] == "sum":
        return [(t, v + sb[t]) for t, v in sa if t in sb], sa, sb
    return [(t, v / sb[t]) for t, v in sa if t in sb and sb[t] != 0], sa, sb


def chk_derive(tid, c, now):
    tz = site_of(c).tz
    window_matches(tid, c["start"], c["end"], now, tz)
    agg = c.get("aggregate", c.get("stat"))
    ser, sa, sb = derived(c, T(c["start"]), T(c["end"]))
    no_gaps(tid, sa, "derive a")
    no_gaps(tid, list(sb.items()), "derive b")
    v = aggregate(ser, agg)
    op = {"difference": "-", "sum": "+", "ratio": "/"}[c["derive"]]
    out.append(
        f"- {agg} of {c['a']['asset']} {c['a']['sensor']} {op} {c['b']['asset']} {c['b']['sensor']} over "
        f"[{local(T(c['start']), tz)}, {local(T(c['end']), tz)}) = **{v:,.4f}** ({len(ser)} aligned pairs used of "
        f"{len(sa)}; tolerance ±{tolerance(c, v):.4f})"
    )
    misread(tid, c, now, lambda a, b: aggregate(derived(c, a, b)[0], agg), v, agg)
    if c["derive"] == "ratio":
        ma = aggregate([(t, x) for t, x in sa if sb.get(t)], "mean")
        mb = aggregate([(t, sb[t]) for t, x in sa if sb.get(t)], "mean")
        rom = ma / mb
        out.append(f"  the ratio of the means {rom:.4f} ({(rom / v - 1) * 100:+.3f} % from the mean of the ratios)")
        if abs(rom - v) > tolerance(c, v):
            bad(tid, f"the ratio of the means {rom:.4f} fails the tolerance of the mean ratio {v:.4f}")
    return v


def chk_value(tid, c, now):
    if "derive" in c:
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
    runs = 1 + sum((b - a) != dt.timedelta(minutes=15) for a, b in zip(pts, pts[1:]))
    if runs != RUNS.get(tid, 1):
        bad(tid, f"the samples past the limit come in {runs} runs, not the designed {RUNS.get(tid, 1)}")
    elif runs > 1:
        out.append(f"  ({runs} runs of samples past the limit, as designed)")
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
        names = [e.dis for e in s.equips.values() if c.get("kind") is None or c["kind"] in e.markers]
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


GAP_POINT = {"b11-35": ("Ballymount Laundry", "Hot Water Tank", "Water Temp")}


def chk_partial(tid, task, now):
    """A value asked at an instant inside a gap: no sample at it nor within the hour before; the run can only be
    partial (it cannot establish the value) and should say the history has a gap there."""
    site, asset, sensor = GAP_POINT[tid]
    s = P.site(site)
    day, clock = WORDS[tid]["gap_at"]
    inst = dt.datetime.combine(day_of(day, now.astimezone(s.tz).date()), dt.time.fromisoformat(clock), s.tz)
    p = P.point(site, asset, sensor)
    hit = at(p, inst, 60)
    ser = list(zip(p.ts, p.vals))
    g = [(a, b) for a, b in gaps(ser) if a < inst < b]
    before = max((t for t in p.ts if t <= inst), default=None)
    after = min((t for t in p.ts if t > inst), default=None)
    out.append(
        f"- {asset} {sensor} at {local(inst, s.tz)}: **no value** — the history has a gap from "
        f"{local(before, s.tz)} (the last sample, {fmtv(p.vals[p.ts.index(before)])}) to {local(after, s.tz)}; "
        "the expected answer says so and the run ends `partial`"
    )
    if hit is not None or not g:
        bad(tid, f"the instant is not inside a gap ({hit}, {g})")
    if after is None or after > now:
        bad(tid, "the gap does not end before now: the data would simply not be there yet")


def do_check(tid: str, kind: str, c, task) -> None:
    now = T(task["now"])
    if kind == "value":
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
    elif kind == "partial":
        chk_partial(tid, task, now)
    else:
        bad(tid, f"no truth for the check {kind}")


# ---------------------------------------------------------------------------------------------------------------
# The slots a program could silently default wrongly: each wrong reading's answer, which must fail the check.


def rank_vals(c, sensor=None, by=None):
    vals = {}
    for n in c["assets"]:
        sn = sensor or c["sensor"]
        ser = P.series(c["site"], n, sn, T(c["start"]), T(c["end"]))
        b = by or c["by"]
        vals[n] = energy(ser, P.point(c["site"], n, sn).unit) if b == "energy" else aggregate(ser, b)
    return vals


def winners(vals, order):
    best = max(vals.values()) if order == "highest" else min(vals.values())
    return [n for n, v in vals.items() if abs(v - best) <= 1e-9 * max(1, abs(best))]


def hours_past(c, sensor=None, direction=None, limit=None, limit_sensor=None):
    a, b = T(c["start"]), T(c["end"])
    ser = P.series(c["site"], c["asset"], sensor or c["sensor"], a, b)
    ls = limit_sensor or c.get("limit_sensor")
    lim_ser = P.series(c["site"], c["asset"], ls, a, b) if ls else None
    comp = compared(ser, c.get("limit") if limit is None else limit, lim_ser)
    tot, n_past, n = duration(ser, comp, direction or c["direction"], b)
    return tot.total_seconds() / 3600, n_past / n * 100


def wrong(tid: str, what: str, got: str, fails: bool, why: str = "") -> None:
    out.append(f"  wrong default — {what}: {got} → {'fails' if fails else 'WOULD PASS'}{f' ({why})' if why else ''}")
    if not fails:
        bad(tid, f"the wrong default ({what}) would pass: {got}")


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


def slot_checks(tid: str, task) -> None:
    if tid not in SLOT:
        return
    out.append(f"- slot: {SLOT[tid]}")
    ex = task["expect"]
    if "ranks" in ex:
        c = ex["ranks"]
        right = winners(rank_vals(c), c["order"])
        other = "lowest" if c["order"] == "highest" else "highest"
        alts = [(f"the other order ({other})", winners(rank_vals(c), other))]
        if tid == "b11-06":
            sp = rank_vals(c, sensor="Air Temp SP")
            alts.append(("the setpoints (Air Temp SP) ranked", winners(sp, c["order"])))
        for what, w in alts:
            wrong(tid, what, ", ".join(w), not set(w) & set(right), f"the right winner: {', '.join(right)}")
    elif "duration" in ex:
        c = ex["duration"]
        h, share = hours_past(c)
        alt = {
            "b11-09": ("the setpoint (Air Temp SP) above 0", dict(sensor="Air Temp SP")),
            "b11-21": ("the battery's Active Power (kW) below 20", dict(sensor="Active Power")),
            "b11-22": ("the other sign (Net Power below 0)", dict(direction="below")),
        }.get(tid)
        if alt is None:
            out.append(
                f"  (the form only: the checker passes the hours as well as the share; {h:g} h = {share:.2f} % "
                "of the day's samples — a wrong form cannot fail here)"
            )
            return
        ha, sa = hours_past(c, **alt[1])
        fails = abs(ha - h) > max(0.25, 0.02 * h) and abs(sa - share) > 1.0
        wrong(tid, alt[0], f"{ha:g} h ({sa:.2f} %)", fails, f"the right: {h:g} h ({share:.2f} %)")
    elif "time_of_extreme" in ex:
        c = ex["time_of_extreme"]
        ser = P.series(c["site"], c["asset"], c["sensor"], T(c["start"]), T(c["end"]))
        tz = site_of(c).tz
        _, right = extreme_instants(ser, c["extreme"])
        other = "min" if c["extreme"] == "max" else "max"
        _, alt = extreme_instants(ser, other)
        near = any(abs(a - r) <= dt.timedelta(minutes=15) for a in alt for r in right)
        wrong(tid, f"the time of the {other}", ", ".join(local(t, tz) for t in alt), not near)
    elif "energy" in ex:
        c = ex["energy"]
        a, b = T(c["start"]), T(c["end"])
        kwh = energy(P.series(c["site"], c["asset"], c["sensor"], a, b), "kW")
        tol = max(c.get("rel_tol", 0.005) * abs(kwh), c.get("abs_tol", 0.01))
        other = "Charge Power" if c["sensor"] == "Discharge Power" else "Discharge Power"
        for what, sn in (("the signed Active Power's net integral", "Active Power"), (f"the {other}", other)):
            v = energy(P.series(c["site"], c["asset"], sn, a, b), "kW")
            wrong(tid, what, f"{fmtv(v)} kWh", abs(v - kwh) > tol, f"the right: {fmtv(kwh)} kWh")
    elif "value" in ex and "derive" in ex["value"]:
        c = ex["value"]
        agg = c.get("aggregate", c.get("stat"))
        v = aggregate(derived(c, T(c["start"]), T(c["end"]))[0], agg)
        tol = tolerance(c, v)
        if c["derive"] == "ratio":
            sw = dict(c, a=c["b"], b=c["a"])
            alt = aggregate(derived(sw, T(c["start"]), T(c["end"]))[0], agg)
            wrong(tid, "the operands swapped (Y / X)", f"{alt:.4f}", abs(alt - v) > tol, f"the right: {v:.4f}")
        else:
            ser = P.series(c["site"], c["a"]["asset"], c["a"]["sensor"], T(c["start"]), T(c["end"]))
            alt = aggregate(ser, agg)
            wrong(tid, "the room's mean temperature alone", f"{alt:.3f}", abs(alt - v) > tol, f"the right: {v:.3f}")
            wrong(tid, "the operands swapped (SP - air)", f"{-v:.3f}", abs(-v - v) > tol,
                  "only if the checker reads the sign")  # fmt: skip
    elif "value" in ex and tid == "b11-20":
        c = ex["value"]
        ser = P.series(c["site"], c["asset"], c["sensor"], T(c["start"]), T(c["end"]))
        v = aggregate(ser, "max")
        mag = max(abs(x) for _, x in ser)
        wrong(tid, "the largest magnitude (a charge)", f"{fmtv(mag)} kW", abs(mag - v) > tolerance(c, v),
              f"the right: {fmtv(v)} kW")  # fmt: skip
    elif "yes_no" in ex and "excursion" in ex["yes_no"]:
        x = ex["yes_no"]["excursion"]
        ser = P.series(x["site"], x["asset"], x["sensor"], T(x["start"]), T(x["end"]))
        lvl = P.series(x["site"], x["asset"], "Level", T(x["start"]), T(x["end"]))
        right = any(past(v, x["limit"], x["direction"]) for _, v in ser)
        alt = [v for _, v in lvl if past(v, x["limit"], x["direction"])]
        got = f"{'Yes' if alt else 'No'} ({len(alt)} samples of Level under {x['limit']} %, min {fmtv(min(v for _, v in lvl))})"  # noqa: E501
        wrong(tid, "the tank's Level (%)", got, bool(alt) != right, f"the right: {'Yes' if right else 'No'}")
    else:
        bad(tid, "a slot without a check")


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
    site_by_word = {
        "joliet": "Joliet Cold Storage",
        "murray": "Murray Plains Energy Park",
        "ballymount": "Ballymount Laundry",
    }
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


def main() -> int:
    body: list[str] = ["## Questions and answers", ""]
    for task in TASKS:
        tid = task["id"]
        out.clear()
        check_now(task)
        for kind, c in task["expect"].items():
            for cc in c if isinstance(c, list) else [c]:
                do_check(tid, kind, cc, task)
        slot_checks(tid, task)
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
