"""Compute the true answer of every blind2 question from plant.json + plant.csv.gz alone, and write truth.md.

Independent of edge_agent: reads the files with truthlib (docs/bench.md's definitions re-implemented), walks
blind.yaml's expects and, per check, states the answer and how clear it is (ranking runner-up margin, the two
periods' gap, the extreme's instants, samples equal to a limit, gaps next to an excursion). Exit 1 when a
value-bearing question is not clear-cut.

    /work/main/.venv/bin/python bench/blind2/truth.py          # writes bench/blind2/truth.md
"""

from __future__ import annotations

import sys
from datetime import datetime, timedelta
from pathlib import Path

import yaml

sys.path.insert(0, str(Path(__file__).resolve().parent))
import truthlib as T  # noqa: E402

HERE = Path(__file__).resolve().parent
problems: list[str] = []


def dt(s: str) -> datetime:
    return datetime.fromisoformat(str(s))


def loc(t: datetime, site: str) -> str:
    tz = next(p.tz for p in T.catalog()[2].values() if p.site == site)
    return t.astimezone(tz).strftime("%a %d %b %Y %H:%M %Z")


def unit(site, asset, sensor):
    return T.find(site, asset, sensor).unit or ""


def fmt(v: float) -> str:
    return f"{v:,.4f}".rstrip("0").rstrip(".")


def check_value(tid, c) -> str:
    site, asset, sensor = c["site"], c["asset"], c["sensor"]
    u = unit(site, asset, sensor)
    how = c.get("aggregate") or c.get("stat")
    if how == "at":
        got = T.at(site, asset, sensor, dt(c["at"]), c.get("at_window_minutes", 60))
        if got is None:
            problems.append(f"{tid}: no sample at {c['at']}")
            return "no sample"
        return f"{asset} {sensor} at {loc(dt(c['at']), site)}: **{fmt(got[1])} {u}** (sample of {loc(got[0], site)})"
    s = T.series(site, asset, sensor, dt(c["start"]), dt(c["end"]))
    if how == "energy":
        return check_energy(tid, c)
    v = T.agg(s, how)
    out = f"{how} of {asset} {sensor} over [{loc(dt(c['start']), site)}, {loc(dt(c['end']), site)}) " \
          f"({len(s)} samples): **{fmt(v)} {u}**"
    if how in ("max", "min"):
        _, inst = T.extreme_instants(s, how)
        out += " at " + ", ".join(loc(t, site) for t in inst)
    return out


def check_energy(tid, c) -> str:
    site, asset, sensor = c["site"], c["asset"], c["sensor"]
    s = T.series(site, asset, sensor, dt(c["start"]), dt(c["end"]))
    e = T.energy_kwh(s, unit(site, asset, sensor))
    gaps = [(a[0], b[0]) for a, b in zip(s, s[1:]) if b[0] - a[0] > 3 * T.spacing(s)]
    g = "; gaps not counted: " + ", ".join(f"{loc(a, site)} → {loc(b, site)}" for a, b in gaps) if gaps else ""
    hours = (dt(c["end"]) - dt(c["start"])).total_seconds() / 3600
    return f"energy of {asset} {sensor} over {hours:g} h ({len(s)} samples): **{e:,.2f} kWh**{g}"


def ranked(c):
    site, sensor = c["site"], c["sensor"]
    if "assets" in c:
        assets = c["assets"]
    else:
        assets = [a for a in T.equips_of(site, c.get("kind")) if sensor in T.points_of(site, a)]
        if c.get("name_contains"):
            assets = [a for a in assets if c["name_contains"].lower() in a.lower()]
    rows = []
    for a in assets:
        s = T.series(site, a, sensor, dt(c["start"]), dt(c["end"]))
        if not s:
            continue
        v = T.energy_kwh(s, unit(site, a, sensor)) if c["by"] == "energy" else T.agg(s, c["by"])
        rows.append((v, a))
    rows.sort(reverse=c["order"] == "highest")
    return rows


def check_ranks(tid, c) -> str:
    rows = ranked(c)
    u = "kWh" if c["by"] == "energy" else unit(c["site"], rows[0][1], c["sensor"])
    if len(rows) > 1:
        margin = abs(rows[0][0] - rows[1][0]) / max(abs(rows[0][0]), 1e-9)
        if margin < 0.03:
            problems.append(f"{tid}: ranking runner-up within {margin:.1%}")
    listing = ", ".join(f"{a} {v:,.2f}" for v, a in rows)
    return f"{c['order']} {c['by']} of {c['sensor']} ({u}): **{rows[0][1]}** — {listing}"


def check_excursion(tid, c) -> str:
    site, asset, sensor = c["site"], c["asset"], c["sensor"]
    pairs, hits, equal = T.excursions(site, asset, sensor, dt(c["start"]), dt(c["end"]), c["direction"],
                                      c.get("limit"), c.get("limit_sensor"))
    if equal:
        problems.append(f"{tid}: {len(equal)} samples equal to the limit")
    lim = f"{c['limit']} {unit(site, asset, sensor)}" if "limit" in c else f"its {c['limit_sensor']}"
    vals = [v for _, v, _ in pairs]
    ans = "Yes" if hits else "No"
    extra = f"; first at {loc(hits[0][0], site)}" if hits else ""
    return (f"**{ans}** — {asset} {sensor} {c['direction']} {lim}: {len(hits)} of {len(pairs)} samples"
            f" (range {min(vals):g} … {max(vals):g}; {len(equal)} equal){extra}")


def check_exists(tid, c) -> str:
    site = c["site"]
    if "asset" in c:
        found = c["asset"] in T.equips_of(site)
        return f"**{'Yes' if found else 'No'}** — asset {c['asset']}"
    found = T.equips_of(site, c["kind"])
    return f"**{'Yes' if found else 'No'}** — {c['kind']} at {site}: {', '.join(found) or 'none'}"


def check_duration(tid, c) -> str:
    site, asset, sensor = c["site"], c["asset"], c["sensor"]
    start, end = dt(c["start"]), dt(c["end"])
    hours, share, n_hit, n = T.duration(site, asset, sensor, start, end, c["direction"], c.get("limit"),
                                        c.get("limit_sensor"))
    pairs, hits, equal = T.excursions(site, asset, sensor, start, end, c["direction"], c.get("limit"),
                                      c.get("limit_sensor"))
    if equal:
        problems.append(f"{tid}: {len(equal)} samples equal to the limit")
    sp = T.spacing([(t, v) for t, v, _ in pairs])
    times = [t for t, _, _ in pairs]
    hit_t = {t for t, _, _ in hits}
    for i, t in enumerate(times[:-1]):
        if times[i + 1] - t > 3 * sp and t in hit_t:
            problems.append(f"{tid}: an excursion sample borders a gap at {t}")
    lim = f"{c['limit']} {unit(site, asset, sensor)}" if "limit" in c else f"its {c['limit_sensor']}"
    return (f"{asset} {sensor} {c['direction']} {lim}: **{hours:g} h**, **{n_hit} of {n} samples = {share:.2f} %**")


def check_periods(tid, c) -> str:
    site, asset, sensor = c["site"], c["asset"], c["sensor"]
    out = []
    vals = []
    for key in ("first", "second"):
        p = c[key]
        s = T.series(site, asset, sensor, dt(p["start"]), dt(p["end"]))
        v = T.energy_kwh(s, unit(site, asset, sensor)) if c["by"] == "energy" else T.agg(s, c["by"])
        vals.append(v)
        out.append(f"{key} {p.get('labels', [''])[0] or ''} [{loc(dt(p['start']), site)}, {loc(dt(p['end']), site)}):"
                   f" {fmt(v)}")
    gap = abs(vals[0] - vals[1]) / max(abs(vals[0]), abs(vals[1]))
    if gap < 0.03:
        problems.append(f"{tid}: periods within {gap:.1%}")
    hi = 0 if (vals[0] > vals[1]) == (c["order"] == "highest") else 1
    return (f"{c['by']} {sensor}: " + "; ".join(out) + f" → **the {('first', 'second')[hi]} period** is "
            f"{c['order']} (difference {fmt(abs(vals[0] - vals[1]))} {unit(site, asset, sensor)})")


def check_extreme(tid, c) -> str:
    site, asset, sensor = c["site"], c["asset"], c["sensor"]
    s = T.series(site, asset, sensor, dt(c["start"]), dt(c["end"]))
    v, inst = T.extreme_instants(s, c["extreme"])
    if len(inst) > 1:
        problems.append(f"{tid}: extreme at {len(inst)} instants")
    return (f"{c['extreme']} {fmt(v)} {unit(site, asset, sensor)} at **"
            + ", ".join(loc(t, site) for t in inst) + "**")


def check_missing(tid, c) -> str:
    if isinstance(c, str):
        return f"says {c} does not exist"
    kind, name = c.get("kind"), c["name"]
    sites = [r["dis"] for r in T.catalog()[0].values()]
    if kind == "site":
        ok = name not in sites
    elif kind == "asset":
        ok = name not in T.equips_of(c["site"])
    elif kind == "sensor":
        ok = name not in T.points_of(c["site"], c["asset"])
    else:
        ok = True
    if not ok:
        problems.append(f"{tid}: {name} exists")
    return f"**{name} does not exist** ({kind})" + ("" if ok else " — BUT IT EXISTS")


def check_not_recorded(tid, c) -> str:
    if isinstance(c, str):
        return f"{c}: not recorded"
    eq = next(r for r in T.catalog()[1].values() if r["dis"] == c["asset"])
    held = [t for t in c.get("tags", []) if t in eq]
    if held:
        problems.append(f"{tid}: {c['asset']} holds {held}")
    return f"**{c['attribute']} not recorded** — {c['asset']}'s tags: {', '.join(sorted(k for k in eq if k not in ('id', 'siteRef')))}"


def check_file(tid, c) -> str:
    site = c["site"]
    sensors = c["sensor"] if isinstance(c["sensor"], list) else [c["sensor"]]
    parts = []
    for a in c["assets"]:
        for s in sensors:
            n = len(T.series(site, a, s, dt(c["start"]), dt(c["end"])))
            parts.append(f"{a} {s}: {n} rows")
    return "a JSON file with exactly " + "; ".join(parts) + f" in [{loc(dt(c['start']), site)}, {loc(dt(c['end']), site)})"


def one(tid, kind, c) -> list[str]:
    if isinstance(c, list) and kind not in ("answer_mentions_all", "answer_mentions_any"):
        return [x for item in c for x in one(tid, kind, item)]
    if kind == "answer_mentions_all":
        names = set(T.equips_of_all())
        miss = [n for n in c if n not in names]
        if miss:
            problems.append(f"{tid}: not in the plant: {miss}")
        return ["names all of: **" + ", ".join(c) + "**"]
    if kind == "answer_mentions_any":
        return ["names one of: " + ", ".join(c)]
    if kind == "answer_lists":
        pts = T.points_of(c["site"], c["asset"]) if c["of"] == "sensors" else T.equips_of(c["site"])
        return ["lists: **" + ", ".join(pts) + "**"]
    if kind == "count":
        if c["of"] == "sensors":
            items = T.points_of(c["site"], c["asset"])
        elif c["of"] == "sites":
            items = [r["dis"] for r in T.catalog()[0].values()]
        else:
            items = T.equips_of(c["site"], c.get("kind"))
        return [f"count: **{len(items)}** ({', '.join(items)})"]
    if kind == "value":
        return [check_value(tid, c)]
    if kind == "energy":
        return [check_energy(tid, c)]
    if kind == "ranks":
        return [check_ranks(tid, c)]
    if kind == "yes_no":
        return [check_excursion(tid, c["excursion"]) if "excursion" in c else check_exists(tid, c["exists"])]
    if kind == "duration":
        return [check_duration(tid, c)]
    if kind == "periods":
        return [check_periods(tid, c)]
    if kind == "time_of_extreme":
        return [check_extreme(tid, c)]
    if kind == "answer_says_missing":
        return [check_missing(tid, c)]
    if kind == "not_recorded":
        return [check_not_recorded(tid, c)]
    if kind == "refuses":
        if c is True:
            return ["**refuses** (cannot; no data tool)"]
        if c.get("reason") == "forecast":
            return ["**refuses: reads recorded data, does not forecast; no figure**"]
        what = "refuses the operation/instruction" + (", may read data for the data part" if c.get("allow_data") else
                                                       "; no data tool")
        if c.get("must_name"):
            what += "; names " + ", ".join(c["must_name"])
        return [f"**{what}**"]
    if kind == "file":
        return [check_file(tid, c)]
    raise SystemExit(f"{tid}: check kind {kind} not handled")


def equips_of_all():
    return [r["dis"] for r in T.catalog()[1].values()]


T.equips_of_all = equips_of_all


def plant_listing() -> list[str]:
    sites, equips, points = T.catalog()
    out = []
    for sid, s in sites.items():
        tzname = T.HAY_TZ[s["tz"]]
        markers = [k for k, v in s.items() if v == {"_kind": "marker"} and k != "site"]
        out.append(f"### {s['dis']} — `tz: {s['tz']}` ({tzname}); markers: {', '.join(markers)}\n")
        out.append("| equip | markers | points (unit) |\n|---|---|---|")
        for eid, e in equips.items():
            if e["siteRef"]["val"] != sid:
                continue
            em = [k for k, v in e.items() if v == {"_kind": "marker"} and k != "equip"]
            pts = [f"{p.nav} ({p.unit or p.kind})" for p in points.values() if p.equip == e["dis"] and p.site == s["dis"]]
            out.append(f"| {e['dis']} | {' '.join(em)} | {', '.join(pts)} |")
        out.append("")
    return out


def main():
    doc = yaml.safe_load((HERE / "blind.yaml").read_text(encoding="utf-8"))
    lines = [
        "# Blind set 2 — the truth",
        "",
        "Computed by `bench/blind2/truth.py` from `plant.json` and `plant.csv.gz` alone (no edge_agent code); "
        "the plant is made by `bench/blind2/make_plant.py` (numpy seed 20261102, byte-identical on every run).",
        "",
        "## Definitions (as docs/bench.md's checker computes them)",
        "",
        "- **Series**: the numeric samples of one point with start ≤ t < end (start inclusive, end exclusive).",
        "- **Day**: [00:00, next 00:00) in the site's own time zone. A fall-back day has 25 hours "
        "(London 25 Oct 2026, Chicago and Denver 1 Nov 2026: 100 samples at 15 min).",
        "- **Week**: Monday 00:00 to the next Monday 00:00, site time; \"last week\" = the previous calendar week; "
        "\"the past 7 days\" = the 7 complete days before today.",
        "- **Spacing**: the lower median of the intervals between consecutive samples (15 min here); an interval "
        "longer than 3 × spacing is a **gap** (the plant has 4-hour gaps).",
        "- **Energy** (kWh): Σ (v_i + v_{i+1}) / 2 × (t_{i+1} − t_i) in hours over consecutive samples that are "
        "not a gap (kW; W ÷ 1000; MW × 1000). Never a sum of kW samples.",
        "- **Excursion**: a sample strictly above (below) the limit, or the same asset's setpoint point at the "
        "same instant (series aligned on identical timestamps). Equal is neither.",
        "- **Time past a limit**: each sample past it holds until the next compared sample, at most one spacing, "
        "the last one cut at the end; a gap never counts. **Share** = samples past ÷ samples compared.",
        "- **Time of an extreme**: the site-local instant(s) holding the max (min); tolerance one spacing.",
        "- **Ranking**: each compared asset's aggregate over the window (energy as above); the winner is the best; "
        "every ranking here has its runner-up ≥ 3 % away.",
        "- **Two periods**: the same statistic over each; every pair here differs by ≥ 3 %.",
        "",
        "**Served order.** On the fall-back days the simulator serves the repeated hour sorted by wall-clock time, "
        "not by instant (`check_served.py`; README). The answers here are computed in time order, as a real SkySpark "
        "serves them.",
        "",
        "## The plant",
        "",
        "Three sites, 12 Oct 2026 00:00 → 2 Nov 2026 00:00 site-local, 15-minute samples; 4-hour gaps on "
        "IPS-P2 (15 Oct 02:00), Blower 3 (23 Oct 13:00), Digester Boiler (29 Oct 06:00), Main Switchgear Meter "
        "(19 Oct 20:00), FV-04 (21 Oct 08:00), Incomer Meter (24 Oct 03:00), Weather Station (17 Oct 10:00), "
        "Main Service Meter (28 Oct 01:00), all site-local. Point `dis` = \"<equip> <navName>\".",
        "",
        *plant_listing(),
        "## Questions and true answers",
        "",
    ]
    for t in doc["tasks"]:
        lines.append(f"### {t['id']} — {', '.join(t['tags'])}")
        lines.append("")
        lines.append(f"> {t['question']}")
        lines.append("")
        lines.append(f"now: `{t['now']}`  ")
        lines.append(f"in words: {t.get('notes', '')}")
        lines.append("")
        for kind, c in t["expect"].items():
            for line in one(t["id"], kind, c):
                lines.append(f"- `{kind}`: {line}")
        lines.append("")
    if problems:
        lines += ["## Problems", ""] + [f"- {p}" for p in problems]
    (HERE / "truth.md").write_text("\n".join(lines) + "\n", encoding="utf-8")
    print(f"{len(doc['tasks'])} tasks -> {HERE / 'truth.md'}")
    for p in problems:
        print("PROBLEM:", p)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
