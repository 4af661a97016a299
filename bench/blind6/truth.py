"""Compute every answer of blind.yaml from plant.json + plant.csv.gz alone, check it is clear-cut and that each
task's windows are what its words say, and write truth.md. Exit 1 when any task is not clear-cut or disagrees.

Usage: python bench/blind6/truth.py
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

# What each question's words mean, written independently of the expect blocks: relative dates resolved below from
# the task's `now` in site time, then compared with the expect's windows.
INTENT = {
    "b6-08": {"at": ("today", "06:00")},
    "b6-09": {"at": ("yesterday", "15:00")},
    "b6-10": {"at": ("today", "04:15")},
    "b6-11": {"win": "yesterday"},
    "b6-12": {"win": "monthday:8"},
    "b6-13": {"win": "last week"},
    "b6-14": {"win": "weekday:1"},
    "b6-15": {"win": "yesterday"},
    "b6-16": {"win": "yesterday"},
    "b6-17": {"win": "last week"},
    "b6-18": {"win": "yesterday"},
    "b6-19": {"win": "weekday:1"},
    "b6-20": {"win": "yesterday"},
    "b6-21": {"win": "last week"},
    "b6-22": {"win": "yesterday"},
    "b6-23": {"win": "last week"},
    "b6-24": {"win": "yesterday"},
    "b6-25": {"periods": ("last week", "week before last")},
    "b6-26": {"periods": ("yesterday", "weekday:2")},
    "b6-27": {"win": "yesterday", "yes": True},
    "b6-28": {"win": "last week", "yes": False},
    "b6-29": {"win": "yesterday", "yes": True},
    "b6-30": {"win": "weekday:5", "yes": False},
    "b6-31": {"win": "yesterday"},
    "b6-32": {"win": "weekday:2"},
    "b6-33": {"win": "weekday:0"},
    "b6-34": {"win": "weekday:5"},
    "b6-35": {"win": "yesterday"},
    "b6-36": {"win": "monthday:2"},
    "b6-46": {"at": ("today", "now")},
    "b6-47": {"win": "yesterday"},
    "b6-48": {"yes": True},
    "b6-49": {"yes": False},
}
EXPECTED_ANSWER = {  # the intended answers, to catch a plant that drifted from its design
    "b6-02": 3,
    "b6-03": 3,
    "b6-04": 5,
    "b6-05": ["North Reservoir", "South Reservoir"],
    "b6-06": ["Air Temp", "Air Temp Setpoint", "Belt Speed"],
    "b6-07": ["BHS-01", "BHS-02", "BHS-03"],
    "b6-22": "BP-01",
    "b6-23": "PCA-B5",
    "b6-24": "deck_oven_3",
    "b6-18": "2026-04-01 03:15",
    "b6-19": "2026-03-31 16:45",
    "b6-20": "2026-04-10 17:30",
    "b6-21": "2026-04-04 10:15",
    "b6-31": ("h", 2.5),
    "b6-32": ("h", 4.0),
    "b6-33": ("%", 7 / 96 * 100),
    "b6-25": "second",
    "b6-26": "first",
    "b6-34": 96,
    "b6-35": 96,
    "b6-36": 96,
}
#: samples a window must hold (Adelaide's 25-hour Sunday, 5 Apr 2026, and the weeks that hold it)
SAMPLES = {"b6-16": 100, "b6-13": 676, "b6-21": 676}

problems: list[str] = []
out: list[str] = []


def bad(tid: str, msg: str) -> None:
    problems.append(f"{tid}: {msg}")
    out.append(f"- **NOT CLEAR-CUT**: {msg}")


def T(s: str) -> dt.datetime:
    return dt.datetime.fromisoformat(s)


def midnight(day: dt.date, tz) -> dt.datetime:
    return dt.datetime.combine(day, dt.time(0), tz)


def resolve(phrase: str, now: dt.datetime, tz):
    today = now.astimezone(tz).date()
    if phrase == "yesterday":
        d0 = today - dt.timedelta(days=1)
        return midnight(d0, tz), midnight(today, tz)
    if phrase == "day before yesterday":
        d0 = today - dt.timedelta(days=2)
        return midnight(d0, tz), midnight(d0 + dt.timedelta(days=1), tz)
    if phrase.startswith("monthday:"):  # "on the 3rd": that day of this month, before today
        d0 = today.replace(day=int(phrase[9:]))
        assert d0 < today
        return midnight(d0, tz), midnight(d0 + dt.timedelta(days=1), tz)
    if phrase.startswith("date:"):
        d0 = dt.date.fromisoformat(phrase[5:])
        return midnight(d0, tz), midnight(d0 + dt.timedelta(days=1), tz)
    if phrase.startswith("weekday:"):  # the most recent such weekday before today
        wd = int(phrase[8:])
        d0 = today - dt.timedelta(days=(today.weekday() - wd) % 7 or 7)
        return midnight(d0, tz), midnight(d0 + dt.timedelta(days=1), tz)
    monday = today - dt.timedelta(days=today.weekday())
    if phrase == "last week":
        return midnight(monday - dt.timedelta(days=7), tz), midnight(monday, tz)
    if phrase == "week before last":
        return midnight(monday - dt.timedelta(days=14), tz), midnight(monday - dt.timedelta(days=7), tz)
    raise ValueError(phrase)


def same(a: dt.datetime, b: dt.datetime) -> bool:
    return a == b and a.utcoffset() == b.utcoffset()


def check_window(tid: str, spec: dict, start: str, end: str, now, tz, which: str = "win") -> None:
    phrase = INTENT.get(tid, {}).get(which)
    if phrase is None:
        return
    s, e = resolve(phrase, now, tz)
    if not (same(T(start), s) and same(T(end), e)):
        bad(tid, f"window {start}..{end} is not '{phrase}' ({s.isoformat()}..{e.isoformat()})")


def fmtv(v: float) -> str:
    return f"{v:,.3f}".rstrip("0").rstrip(".")


def hours(td: dt.timedelta) -> str:
    h = td.total_seconds() / 3600
    return f"{h:g} h"


def no_gaps(tid: str, ser, what: str) -> None:
    g = gaps(ser)
    if g:
        bad(tid, f"{what}: gap inside the window {g}")


def n_samples(tid: str, ser) -> None:
    want = SAMPLES.get(tid)
    if want is not None and len(ser) != want:
        bad(tid, f"{len(ser)} samples in the window, not the designed {want}")


def margin(tid: str, comp, what: str, eps: float) -> float:
    m = min(abs(v - lim) for _, v, lim in comp)
    if m < eps:
        bad(tid, f"{what}: a sample lies within {eps} of the limit ({m:.4f})")
    return m


def do_check(tid: str, kind: str, c, task) -> None:
    now = T(task["now"])
    site = P.site(c["site"]) if isinstance(c, dict) and "site" in c else None
    tz = site.tz if site else None
    if kind == "value":
        p = P.point(c["site"], c["asset"], c["sensor"])
        if c.get("aggregate") == "at":
            inst = T(c["at"])
            intent = INTENT.get(tid, {}).get("at")
            if intent:
                day, clock = intent
                want = (
                    now
                    if clock == "now"
                    else dt.datetime.combine(
                        now.astimezone(tz).date() - dt.timedelta(days=day == "yesterday"),
                        dt.time.fromisoformat(clock),
                        tz,
                    )
                )
                if not same(inst, want):
                    bad(tid, f"instant {inst} is not the asked {want}")
            hit = at(p, inst, c.get("at_window_minutes", 60))
            if hit is None or hit[0] != inst:
                bad(tid, f"no sample exactly at {inst} ({hit})")
            else:
                out.append(f"- value: {c['asset']} {c['sensor']} at {local(inst, tz)} = **{fmtv(hit[1])} {p.unit}**")
            return
        ser = P.series(c["site"], c["asset"], c["sensor"], T(c["start"]), T(c["end"]))
        check_window(tid, c, c["start"], c["end"], now, tz)
        agg = c["aggregate"]
        n_samples(tid, ser)
        no_gaps(tid, ser, "value")
        v = aggregate(ser, agg)
        out.append(
            f"- value: {agg} of {c['asset']} {c['sensor']} in [{local(T(c['start']), tz)}, "
            f"{local(T(c['end']), tz)}) = **{fmtv(v)} {p.unit}** ({len(ser)} samples)"
        )
        if agg in ("max", "min"):
            _, inst = extreme_instants(ser, agg)
            out.append(f"  (at {', '.join(local(t, tz) for t in inst)})")
        return
    if kind == "energy":
        p = P.point(c["site"], c["asset"], c["sensor"])
        ser = P.series(c["site"], c["asset"], c["sensor"], T(c["start"]), T(c["end"]))
        check_window(tid, c, c["start"], c["end"], now, tz)
        if len(ser) < 2 or p.unit not in ("W", "kW", "MW"):
            bad(tid, "energy not computable")
            return
        kwh = energy(ser, p.unit)
        n_samples(tid, ser)
        span = (T(c["end"]) - T(c["start"])).total_seconds() / 3600
        out.append(
            f"- energy: {c['asset']} {c['sensor']} ({p.unit}) in [{local(T(c['start']), tz)}, "
            f"{local(T(c['end']), tz)}) ({span:g} h, {len(ser)} samples) = **{fmtv(kwh)} kWh** "
            f"(tolerance {c.get('rel_tol', 0.005) * 100:g} %)"
        )
        no_gaps(tid, ser, "energy")
        if tid == "b6-16":
            reg = P.point(c["site"], c["asset"], "Energy Total")
            r0 = at(reg, T(c["start"]), 0)
            r1 = at(reg, T(c["end"]), 0)
            r_last = at(reg, ser[-1][0], 0)
            full = r1[1] - r0[1]
            inwin = r_last[1] - r0[1]
            out.append(
                f"  Energy Total register (kWh): {fmtv(r0[1])} at {local(r0[0], tz)}, {fmtv(r_last[1])} at "
                f"{local(r_last[0], tz)}, {fmtv(r1[1])} at {local(r1[0], tz)}: midnight to midnight (25 h) "
                f"**{fmtv(full)} kWh**, first to last sample {fmtv(inwin)} kWh; 24 x the day's mean power "
                f"{fmtv(aggregate(ser, 'mean') * 24)} kWh (wrong: the day has 25 hours)"
            )
            for lab, val in (("midnight-to-midnight register", full), ("first-to-last register", inwin)):
                if abs(val - kwh) > c["rel_tol"] * kwh:
                    bad(tid, f"{lab} {val:.1f} outside the tolerance of {kwh:.1f}")
            if abs(aggregate(ser, "mean") * 24 - kwh) <= c["rel_tol"] * kwh:
                bad(tid, "24 x mean power would pass: the 25-hour day is not tested")
        return
    if kind == "ranks":
        check_window(tid, c, c["start"], c["end"], now, tz)
        if "assets" in c:
            names = c["assets"]
        else:
            names = [
                e.dis
                for e in site.equips.values()
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
        out.append(
            f"- ranks by {c['by']} ({c['order']}): "
            + ", ".join(f"{n} {fmtv(vals[n])}" for n in order)
            + f" → **{order[0]}** (runner-up {rel * 100:.1f} % away)"
        )
        if rel < 0.03:
            bad(tid, f"runner-up only {rel * 100:.2f} % away")
        if EXPECTED_ANSWER.get(tid) not in (None, order[0]):
            bad(tid, f"winner {order[0]} is not the intended {EXPECTED_ANSWER[tid]}")
        return
    if kind == "yes_no":
        if "excursion" in c:
            x = c["excursion"]
            tz = P.site(x["site"]).tz
            check_window(tid, x, x["start"], x["end"], now, tz)
            ser = P.series(x["site"], x["asset"], x["sensor"], T(x["start"]), T(x["end"]))
            lim_ser = (
                P.series(x["site"], x["asset"], x["limit_sensor"], T(x["start"]), T(x["end"]))
                if "limit_sensor" in x
                else None
            )
            comp = compared(ser, x.get("limit"), lim_ser)
            hits = [(t, v, lim) for t, v, lim in comp if past(v, lim, x["direction"])]
            ans = bool(hits)
            lim_txt = x.get("limit", x.get("limit_sensor"))
            m = min(abs(v - lim) for _, v, lim in comp)
            over = max((v - lim) if x["direction"] == "above" else (lim - v) for _, v, lim in comp)
            if m == 0:
                bad(tid, "excursion: a sample equals the limit")
            if (over > 0 and over < 0.1) or (over <= 0 and over > -0.05):
                bad(tid, f"excursion: the extreme is only {over:.3f} past/short of the limit")
            no_gaps(tid, ser, "excursion")
            ext = max if x["direction"] == "above" else min
            peak = ext(comp, key=lambda r: r[1])
            out.append(
                f"- excursion {x['direction']} {lim_txt}: **{'Yes' if ans else 'No'}** — {len(hits)} of "
                f"{len(comp)} compared samples past it; extreme {fmtv(peak[1])} (limit {fmtv(peak[2])}) at "
                f"{local(peak[0], tz)}; closest sample to the limit {m:.3f} away"
            )
            if hits:
                out.append(f"  first {local(hits[0][0], tz)}, last {local(hits[-1][0], tz)}")
        else:
            x = c["exists"]
            s = P.site(x["site"])
            if "kind" in x:
                have = [e.dis for e in s.equips.values() if x["kind"] in e.markers]
                elsewhere = [
                    f"{e.dis} ({t.dis})"
                    for t in P.sites.values()
                    for e in t.equips.values()
                    if x["kind"] in e.markers and t is not s
                ]
                ans = bool(have)
                out.append(
                    f"- exists {x['kind']} at {s.dis}: **{'Yes' if ans else 'No'}** "
                    f"({', '.join(have) or 'none'}; elsewhere: {', '.join(elsewhere) or 'none'})"
                )
            else:
                ans = P.equip(x["site"], x["asset"]) is not None
                out.append(f"- exists asset {x['asset']} at {s.dis}: **{'Yes' if ans else 'No'}**")
        want = INTENT.get(tid, {}).get("yes")
        if want is not None and want != ans:
            bad(tid, f"answer {ans} is not the intended {want}")
        return
    if kind == "duration":
        check_window(tid, c, c["start"], c["end"], now, tz)
        ser = P.series(c["site"], c["asset"], c["sensor"], T(c["start"]), T(c["end"]))
        lim_ser = (
            P.series(c["site"], c["asset"], c["limit_sensor"], T(c["start"]), T(c["end"]))
            if "limit_sensor" in c
            else None
        )
        comp = compared(ser, c.get("limit"), lim_ser)
        tot, n_past, n = duration(ser, comp, c["direction"], T(c["end"]))
        m = margin(tid, comp, "duration", 0.05)
        no_gaps(tid, ser, "duration")
        pts = [t for t, v, lim in comp if past(v, lim, c["direction"])]
        h = tot.total_seconds() / 3600
        out.append(
            f"- duration {c['direction']} {c.get('limit', c.get('limit_sensor'))}: **{hours(tot)}** "
            f"({n_past} of {n} samples, **{n_past / n * 100:.2f} %**), from {local(pts[0], tz)} to "
            f"the sample at {local(pts[-1], tz)}; spacing {spacing(ser)}; closest sample {m:.3f} from the limit"
        )
        want = EXPECTED_ANSWER.get(tid)
        if want and want[0] == "%" and abs(n_past / n * 100 - want[1]) > 1e-9:
            bad(tid, f"share {n_past / n * 100} is not {want[1]}")
        if want and want[0] == "h" and abs(h - want[1]) > 1e-9:
            bad(tid, f"hours {h} is not {want[1]}")
        if any(b < a for a, b in zip(pts, pts[1:])):
            bad(tid, "unordered")
        return
    if kind == "periods":
        tz = P.site(c["site"]).tz
        ph = INTENT.get(tid, {}).get("periods")
        if ph:
            for which, phrase in zip(("first", "second"), ph):
                s, e = resolve(phrase, now, tz)
                if not (same(T(c[which]["start"]), s) and same(T(c[which]["end"]), e)):
                    bad(tid, f"{which} period is not '{phrase}'")
        vals = {}
        unit = P.point(c["site"], c["asset"], c["sensor"]).unit
        for which in ("first", "second"):
            ser = P.series(c["site"], c["asset"], c["sensor"], T(c[which]["start"]), T(c[which]["end"]))
            vals[which] = energy(ser, unit) if c["by"] == "energy" else aggregate(ser, c["by"])
        win = max(vals, key=vals.get) if c["order"] == "highest" else min(vals, key=vals.get)
        rel = abs(vals["first"] - vals["second"]) / max(abs(vals["first"]), abs(vals["second"]))
        u = "kWh" if c["by"] == "energy" else unit
        out.append(
            f"- periods by {c['by']}: {', '.join(c['first']['labels'])} "
            f"[{local(T(c['first']['start']), tz)}, {local(T(c['first']['end']), tz)}) = "
            f"{fmtv(vals['first'])} {u}; {', '.join(c['second']['labels'])} "
            f"[{local(T(c['second']['start']), tz)}, {local(T(c['second']['end']), tz)}) = "
            f"{fmtv(vals['second'])} {u} → **{c[win]['labels'][0]}** is {c['order']} ({rel * 100:.1f} % apart)"
        )
        if rel < 0.03:
            bad(tid, f"periods only {rel * 100:.2f} % apart")
        if EXPECTED_ANSWER.get(tid) not in (None, win):
            bad(tid, f"winner {win} is not intended")
        return
    if kind == "time_of_extreme":
        check_window(tid, c, c["start"], c["end"], now, tz)
        ser = P.series(c["site"], c["asset"], c["sensor"], T(c["start"]), T(c["end"]))
        n_samples(tid, ser)
        no_gaps(tid, ser, "time of extreme")
        best, inst = extreme_instants(ser, c["extreme"])
        rest = sorted((v for _, v in ser), reverse=c["extreme"] == "max")
        runner = next(v for v in rest if v != best)
        unit = P.point(c["site"], c["asset"], c["sensor"]).unit
        out.append(
            f"- {c['extreme']} {fmtv(best)} {unit} at **{', '.join(local(t, tz) for t in inst)}** "
            f"(next best value {fmtv(runner)})"
        )
        if len(inst) != 1:
            bad(tid, "extreme at more than one instant")
        if abs(best - runner) < max(0.05, 0.005 * abs(best)):
            bad(tid, f"runner-up {runner} too close to {best}")
        want = EXPECTED_ANSWER.get(tid)
        if want and inst[0].astimezone(tz).strftime("%Y-%m-%d %H:%M") != want:
            bad(tid, f"instant is not the intended {want}")
        return
    if kind == "count":
        if c["of"] == "assets":
            n = [e.dis for e in site.equips.values() if c.get("kind") is None or c["kind"] in e.markers]
        else:
            n = list(P.equip(c["site"], c["asset"]).points)
        out.append(f"- count: **{len(n)}** ({', '.join(n)})")
        if EXPECTED_ANSWER.get(tid) not in (None, len(n)):
            bad(tid, f"count {len(n)} is not the intended {EXPECTED_ANSWER[tid]}")
        return
    if kind == "answer_lists":
        if c["of"] == "sites":
            n = [s.dis for s in P.sites.values()]
        elif c["of"] == "assets":
            n = [e.dis for e in site.equips.values() if c.get("name_contains", "").lower() in e.dis.lower()]
        else:
            e = P.equip(c["site"], c["asset"])
            n = [f"{p.nav} ({p.kind}{', ' + p.unit if p.unit else ''})" for p in e.points.values()]
        out.append(f"- lists: **{', '.join(n)}**")
        if c["of"] == "assets" and "name_contains" in c:
            exact = [e.dis for e in site.equips.values() if c["name_contains"] in e.dis]
            if exact != n:
                bad(tid, f"name_contains matches differ by case: {exact} vs {n}")
        want = EXPECTED_ANSWER.get(tid)
        if want is not None:
            got = [x.split(" (")[0] for x in n]
            if got != want:
                bad(tid, f"listed {got}, not the intended {want}")
        return
    if kind == "answer_says_missing":
        k = c["kind"]
        if k == "site":
            missing = P.site(c["name"]) is None and not any(norm(c["name"]) in norm(s.dis) for s in P.sites.values())
            near = [s.dis for s in P.sites.values()]
        elif k == "asset":
            missing = P.equip(c["site"], c["name"]) is None
            near = list(site.equips)
        else:
            e = P.equip(c["site"], c["asset"])
            missing = all(norm(p.nav) != norm(c["name"]) for p in e.points.values())
            near = list(e.points)
        out.append(
            f"- missing {k} '{c['name']}': **{'missing' if missing else 'EXISTS'}** (what there is: {', '.join(near)})"
        )
        if not missing:
            bad(tid, "the 'missing' thing exists")
        return
    if kind == "not_recorded":
        for x in c if isinstance(c, list) else [c]:
            e = P.equip(x["site"], x["asset"])
            attr_tags = set(x.get("tags", [])) | {"manufacturer", "model", "serial", "installDate", "rating"}
            have = attr_tags & set(e.record)
            out.append(
                f"- not recorded: {x['attribute']} of {e.dis}: the record holds only "
                f"{', '.join(sorted(e.record))} → **not recorded**"
            )
            if have:
                bad(tid, f"record holds {have}")
        return
    if kind == "file":
        check_window(tid, c, c["start"], c["end"], now, tz)
        parts = []
        sensors = c["sensor"] if isinstance(c["sensor"], list) else [c["sensor"]]
        for a in c["assets"]:
            for sn in sensors:
                ser = P.series(c["site"], a, sn, T(c["start"]), T(c["end"]))
                parts.append(f"{a} {sn}: {len(ser)} rows, {local(ser[0][0], tz)} … {local(ser[-1][0], tz)}")
                no_gaps(tid, ser, "file")
                want = EXPECTED_ANSWER.get(tid)
                if want and len(ser) != want:
                    bad(tid, f"{len(ser)} rows, not the intended {want}")
        out.append(f"- file ({'one file' if c.get('single_file', True) else 'files'}): **" + "; ".join(parts) + "**")
        return
    if kind == "refuses":
        if c is True:
            out.append("- refuses: **says it cannot; no data read; no action claimed**")
        elif c.get("reason") == "forecast":
            out.append("- refuses: **reads recorded data only, no forecast; states no figure; no data read**")
        else:
            extra = " (data part may be read and is checked beside)" if c.get("allow_data") else "; no data read"
            names = f"; names {', '.join(c['must_name'])}" if c.get("must_name") else ""
            out.append(f"- refuses: **says it cannot operate equipment; no action claimed{names}{extra}**")
        return
    bad(tid, f"unhandled check {kind}")


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
        lines += [
            "",
            f"### {s.dis} ({s.tz.key})",
            "",
            "| equip | markers | points (unit, kind) | gaps |",
            "|---|---|---|---|",
        ]
        for e in s.equips.values():
            pts = ", ".join(f"{p.nav} ({p.unit or p.kind})" for p in e.points.values())
            gp = []
            for p in e.points.values():
                for a, b in gaps(list(zip(p.ts, p.vals))):
                    gp.append(f"{p.nav}: {local(a, s.tz)} → {local(b, s.tz)}")
            lines.append(f"| {e.dis} | {', '.join(sorted(e.markers))} | {pts} | {'; '.join(gp) or '—'} |")
    return lines


def _windows(x):
    if isinstance(x, dict):
        if "start" in x and "end" in x:
            yield x.get("site"), T(x["start"]), T(x["end"])
        if "at" in x and isinstance(x["at"], str):
            yield x.get("site"), T(x["at"]), T(x["at"])
        for v in x.values():
            if isinstance(v, (dict, list)):
                for site, a, b in _windows(v):
                    yield site or x.get("site"), a, b
    elif isinstance(x, list):
        for v in x:
            yield from _windows(v)


def check_now(task) -> None:
    """`now` carries the site's own UTC offset at that instant, and every window lies before it."""
    tid = task["id"]
    now = T(task["now"])
    sites = {c.get("site") for c in task["expect"].values() if isinstance(c, dict)} - {None}
    for k in ("yes_no",):
        x = task["expect"].get(k)
        if isinstance(x, dict):
            sites |= {v.get("site") for v in x.values() if isinstance(v, dict)} - {None}
    for sn in sites:
        s = P.site(sn)
        if s is not None and now.astimezone(s.tz).utcoffset() != now.utcoffset():
            bad(tid, f"now {now} does not carry {s.dis}'s offset {now.astimezone(s.tz).utcoffset()}")
    for sn, a, b in _windows(task["expect"]):
        if b > now:
            bad(tid, f"a window ends after now ({b} > {now})")
        if sn and P.site(sn) is not None:
            tz = P.site(sn).tz
            for t in (a, b):
                if t.astimezone(tz).utcoffset() != t.utcoffset():
                    bad(tid, f"{t} does not carry {sn}'s offset")


def main() -> int:
    head = [
        "# Blind set 6: the true answers",
        "",
        "Written by `python bench/blind6/truth.py` from `plant.json` and `plant.csv.gz` alone (never the agent's",
        "code or the checker). Times are site-local unless an offset is shown.",
        "",
        "## Definitions",
        "",
        "- Windows are [start, end): a day is [00:00, next 00:00) in site time, a week starts on Monday; "
        "'yesterday', 'last week', 'the week before last', 'on Monday' (the most recent Monday before today) "
        "resolve from the task's `now` in the site's zone.",
        "- Adelaide's clocks go BACK on Sun 5 Apr 2026 (03:00 ACDT → 02:00 ACST, +10:30 → +09:30): that day "
        "has 25 hours (100 samples; 02:00-02:45 happen twice) and the week of 30 Mar holds it (676 samples). "
        "Sao Paulo (-03:00) and Phoenix (-07:00) keep one offset over the whole period. 'On the 8th' is the 8th of "
        "the current month; 'this morning at 6' / 'at quarter past four this morning' is that clock time today; "
        "'right now' is the task's `now` (a sample lies exactly there); 'the week before' is the week before "
        "last week.",
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
        "(never the repeated hour); 'missing' things missing; 'not recorded' assets existing and without the "
        "attribute's tags; every `now` carries its site's own offset and every window lies before it.",
        "",
    ]
    body: list[str] = ["## Questions and answers", ""]
    for task in TASKS:
        tid = task["id"]
        out.clear()
        check_now(task)
        for kind, c in task["expect"].items():
            checks = c if isinstance(c, list) and kind in ("value", "count", "file", "energy") else [c]
            for cc in checks:
                do_check(tid, kind, cc, task)
        body.append(f"### {tid} — {', '.join(task['tags'][1:])}")
        body.append("")
        body.append(f"> {task['question']}")
        body.append("")
        body.append(f"now: `{task['now']}`")
        if task.get("notes"):
            body.append(f"; notes: {task['notes'].strip()}")
        body.append("")
        body += out
        body.append("")
    text = "\n".join(head + plant_tables() + [""] + body)
    if problems:
        text += "\n## Problems\n\n" + "\n".join(f"- {p}" for p in problems) + "\n"
    (HERE / "truth.md").write_text(text)
    for p in problems:
        print("NOT CLEAR-CUT:", p, file=sys.stderr)
    print(f"{len(TASKS)} tasks, {len(problems)} problems; wrote truth.md")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
