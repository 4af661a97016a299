"""Independent computation of the blind test's truth from plant.json + plant.csv.gz.

Definitions (docs/analysis.md):
  series   = numeric samples of one point with start <= ts < end, ordered by time
  spacing  = lower median of the intervals between consecutive samples
  gap      = an interval longer than 3 x spacing
  energy   = sum over consecutive non-gap pairs of (v_i + v_i+1)/2 * dt_hours (kW -> kWh)
  excursion: strictly above / below; duration: each sample past the limit holds until the
             next sample, at most one spacing; the last sample holds one spacing, cut at `end`
  derive   = inner join on identical timestamps
"""
import csv
import gzip
import json
import os
from datetime import datetime, timedelta

HERE = os.path.dirname(os.path.abspath(__file__))


def _load():
    with open(os.path.join(HERE, "plant.json"), encoding="utf-8") as f:
        grid = json.load(f)
    sites, equips, points = {}, {}, {}
    for r in grid["rows"]:
        if "site" in r:
            sites[r["id"]["val"]] = r
        elif "equip" in r:
            equips[r["id"]["val"]] = r
        elif "point" in r:
            points[r["id"]["val"]] = r
    his = {}
    with gzip.open(os.path.join(HERE, "plant.csv.gz"), "rt", encoding="utf-8") as f:
        rd = csv.reader(f)
        next(rd)
        for pid, ts, val in rd:
            t = datetime.fromisoformat(ts)
            if val in ("true", "false"):
                v = val
            else:
                v = float(val)
            his.setdefault(pid, []).append((t, v))
    for k in his:
        his[k].sort(key=lambda x: x[0])
    return sites, equips, points, his


SITES, EQUIPS, POINTS, HIS = _load()


def pid_of(site, asset, sensor):
    sid = [k for k, s in SITES.items() if s["dis"] == site][0]
    eid = [k for k, e in EQUIPS.items() if e["dis"] == asset and e["siteRef"]["val"] == sid][0]
    return [k for k, p in POINTS.items() if p["equipRef"]["val"] == eid and p["navName"] == sensor][0]


def unit_of(site, asset, sensor):
    return POINTS[pid_of(site, asset, sensor)].get("unit", "")


def series(site, asset, sensor, start, end):
    s = datetime.fromisoformat(start)
    e = datetime.fromisoformat(end)
    return [(t, v) for t, v in HIS[pid_of(site, asset, sensor)] if s <= t < e and isinstance(v, float)]


def spacing(ser):
    iv = sorted((ser[i + 1][0] - ser[i][0]).total_seconds() for i in range(len(ser) - 1))
    n = len(iv)
    return iv[(n - 1) // 2]  # lower median


def agg(ser, how):
    if how == "max":
        m = max(v for _, v in ser)
        return m, next(t for t, v in ser if v == m)
    if how == "min":
        m = min(v for _, v in ser)
        return m, next(t for t, v in ser if v == m)
    if how == "mean":
        return sum(v for _, v in ser) / len(ser), None
    if how == "first":
        return ser[0][1], ser[0][0]
    if how == "last":
        return ser[-1][1], ser[-1][0]
    raise ValueError(how)


def gaps(ser):
    sp = spacing(ser)
    out = []
    for i in range(len(ser) - 1):
        dt = (ser[i + 1][0] - ser[i][0]).total_seconds()
        if dt > 3 * sp:
            out.append((ser[i][0], ser[i + 1][0]))
    return out


def energy(ser, unit="kW"):
    f = {"W": 0.001, "kW": 1.0, "MW": 1000.0}[unit]
    sp = spacing(ser)
    tot = 0.0
    for i in range(len(ser) - 1):
        dt = (ser[i + 1][0] - ser[i][0]).total_seconds()
        if dt > 3 * sp:
            continue
        tot += (ser[i][1] + ser[i + 1][1]) / 2 * dt / 3600
    return tot * f


def value_at(site, asset, sensor, at, window_min=60):
    a = datetime.fromisoformat(at)
    best = None
    for t, v in HIS[pid_of(site, asset, sensor)]:
        if t <= a and (a - t) <= timedelta(minutes=window_min):
            best = (t, v)
    return best


def align(a, b):
    db = dict(b)
    return [(t, v, db[t]) for t, v in a if t in db]


def derive(sa, sb, op="difference"):
    out = []
    for t, x, y in align(sa, sb):
        if op == "difference":
            out.append((t, x - y))
        elif op == "sum":
            out.append((t, x + y))
        elif op == "ratio" and y != 0:
            out.append((t, x / y))
    return out


def excursions(ser, direction, end, limit=None, limit_ser=None):
    end = datetime.fromisoformat(end)
    sp = spacing(ser)
    if limit_ser is not None:
        pairs = align(ser, limit_ser)
    else:
        pairs = [(t, v, limit) for t, v in ser]
    hits = []
    for t, v, l in pairs:
        exc = v - l if direction == "above" else l - v
        if exc > 0:
            hits.append((t, v, l, exc))
    # duration: each hit holds until the next sample of the series, at most one spacing
    times = [t for t, _ in ser]
    idx = {t: i for i, t in enumerate(times)}
    dur = 0.0
    for t, *_ in hits:
        i = idx[t]
        if i + 1 < len(times):
            d = min((times[i + 1] - t).total_seconds(), sp)
        else:
            d = min(sp, (end - t).total_seconds())
        dur += d
    worst = max(hits, key=lambda h: h[3]) if hits else None
    return dict(n=len(pairs), above=len(hits), share=len(hits) / len(pairs) if pairs else None,
                hours=dur / 3600, first=hits[0][0] if hits else None, last=hits[-1][0] if hits else None,
                worst=worst)


def runs(ser, direction, limit, end):
    """Contiguous episodes past the limit: (first sample, end of its holding time)."""
    end = datetime.fromisoformat(end)
    sp = spacing(ser)
    out = []
    cur = None
    for i, (t, v) in enumerate(ser):
        past = v > limit if direction == "above" else v < limit
        nxt = ser[i + 1][0] if i + 1 < len(ser) else end
        hold_end = min(nxt, t + timedelta(seconds=sp))
        if past:
            if cur and cur[1] == t:
                cur[1] = hold_end
            else:
                if cur:
                    out.append(tuple(cur))
                cur = [t, hold_end]
        else:
            if cur:
                out.append(tuple(cur))
                cur = None
    if cur:
        out.append(tuple(cur))
    return out
