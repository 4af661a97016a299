"""The generator of the blind sets' plants: a site's 15-minute sample grid in its own zone, the seeded signal pieces
every plant is drawn from, the equips and points a plant declares, and the writer of the two files the simulator
serves (plant.json, a Haystack 4 JSON grid; plant.csv.gz, the histories `id,ts,val`).

A set's plant.yaml (read by plantkit/plantfile.py) is drawn on it, and so is a set still written as a Python
script on this API: the sites, and for each equip its markers and its points' units, tags and signals, drawn in order
from one `Plant(seed, start, end)` (the draws' order is the plant: the same order gives byte-identical files).
docs/plants.md describes the pieces and the files.

Written from the copies in bench/blind3/ ... bench/blind16/make_plant.py (since issue 43 each set's plant.yaml, drawing
the same bytes through it).
"""

from __future__ import annotations

import datetime as dt
import gzip
import io
import json
import math
from pathlib import Path
from zoneinfo import ZoneInfo

import numpy as np

M = {"_kind": "marker"}
STEP = dt.timedelta(minutes=15)


def ref(val: str, dis: str) -> dict:
    return {"_kind": "ref", "val": val, "dis": dis}


class Site:
    """One site's samples, [start 00:00, end 00:00) in its own zone, every `step` (in absolute time: a day whose
    clocks change holds 92 or 100 samples); or, with `last` (a naive site-local time), from start 00:00 up to and
    including that sample (blind set 4: each site's data ends at its own "now"). `tags`: more tags of the site's record
    (written after `geoCity`)."""

    def __init__(self, key: str, dis: str, tz: str, hs_tz: str, city: str, *, start: dt.date, end: dt.date | None,
                 step: dt.timedelta = STEP, last: dt.datetime | None = None, tags: dict | None = None):  # fmt: skip
        self.key, self.dis, self.tz, self.hs_tz, self.city = key, dis, ZoneInfo(tz), hs_tz, city
        self.tags = tags or {}
        t0 = dt.datetime.combine(start, dt.time(0), self.tz).astimezone(dt.UTC)
        if last is None:
            assert end is not None
            t1 = dt.datetime.combine(end, dt.time(0), self.tz).astimezone(dt.UTC)
            n = int((t1 - t0) / step)
        else:
            n = int((last.replace(tzinfo=self.tz).astimezone(dt.UTC) - t0) / step) + 1
        self.utc = [t0 + i * step for i in range(n)]
        self.local = [t.astimezone(self.tz) for t in self.utc]
        #: the local clock hour (a fraction), the same in UTC, the local date, weekday (Monday 0), day index
        self.hour = np.array([t.hour + t.minute / 60 for t in self.local])
        self.uhour = np.array([t.hour + t.minute / 60 for t in self.utc])
        self.date = [t.date() for t in self.local]
        self.wday = np.array([d.weekday() for d in self.date])
        self.day_i = np.array([(d - start).days for d in self.date])
        self.n = n
        self.secs = np.array([(t - self.utc[0]).total_seconds() for t in self.utc])

    def day(self, day: dt.date) -> np.ndarray:
        return np.array([d == day for d in self.date])

    def days(self, days: list[dt.date]) -> np.ndarray:
        return np.array([d in days for d in self.date])

    def between(self, d0: dt.date, d1: dt.date) -> np.ndarray:
        """Samples of the local days d0 <= day < d1."""
        return np.array([d0 <= d < d1 for d in self.date])

    def mask(self, day: dt.date, h0: float, h1: float) -> np.ndarray:
        """Samples of that local day whose local clock hour is in [h0, h1) (on a 25-hour day both 02:xx; on a 23-hour
        day the skipped hour does not exist)."""
        return self.day(day) & (self.hour >= h0) & (self.hour < h1)

    def span(self, d0: dt.date, h0: float, d1: dt.date, h1: float) -> np.ndarray:
        """Samples from local (d0, h0) up to, not including, local (d1, h1), by the wall clock."""
        a = dt.datetime.combine(d0, dt.time(0), self.tz) + dt.timedelta(hours=h0)
        b = dt.datetime.combine(d1, dt.time(0), self.tz) + dt.timedelta(hours=h1)
        return np.array([a <= t < b for t in self.local])

    def hours(self, h0: float, h1: float) -> np.ndarray:
        """Every day's samples whose local clock hour is in [h0, h1) (h0 > h1: over midnight, [h0, 24) and [0, h1))."""
        if h0 <= h1:
            return (self.hour >= h0) & (self.hour < h1)
        return (self.hour >= h0) | (self.hour < h1)

    def at(self, day: dt.date, hour: float) -> int:
        """The index of the one sample at that local day and clock hour."""
        hits = [i for i, (d, h) in enumerate(zip(self.date, self.hour)) if d == day and abs(h - hour) < 1e-9]
        if len(hits) != 1:
            raise KeyError((day, hour, len(hits)))
        return hits[0]

    def by_day(self, vals) -> np.ndarray:
        """A value per local day (vals[k] for the k-th day of the plant), spread over that day's samples."""
        return np.asarray(vals)[self.day_i]


# ----- signal pieces without randomness ---------------------------------------------------------------------------
def daily(site: Site, amp: float, peak_hour: float = 15.0) -> np.ndarray:
    """A daily cosine of amplitude `amp` peaking at the local clock hour `peak_hour`."""
    return amp * np.cos((site.hour - peak_hour) / 24 * 2 * math.pi)


def since(site: Site, day: dt.date, hour: float) -> np.ndarray:
    """Hours elapsed (absolute time) since that local day and clock hour; negative before it."""
    t0 = (dt.datetime.combine(day, dt.time(0), site.tz) + dt.timedelta(hours=hour)).astimezone(dt.UTC)
    return np.array([(t - t0).total_seconds() / 3600 for t in site.utc])


def keep_gap(site: Site, day: dt.date, h0: float, hours: float = 4.0) -> np.ndarray:
    """True where samples are kept: a gap of `hours` from local hour h0 on that day."""
    return ~site.mask(day, h0, h0 + hours)


def register(site: Site, rate: np.ndarray, start: float, per_hour: float = 1.0, scale: float = 1.0) -> np.ndarray:
    """A cumulative register: `start` + the running trapezoid of `rate` x hours x per_hour (each step scaled), the
    running total x `scale` (blind set 5's MWh registers: scale 0.001)."""
    inc = (rate[1:] + rate[:-1]) / 2 * np.diff(site.secs) / 3600 * per_hour
    return start + scale * np.concatenate([[0.0], np.cumsum(inc)])


def put(site: Site, arr: np.ndarray, day: dt.date, values: dict[float, float]) -> None:
    """Set the samples of that local day at the given clock hours (an event drawn sample by sample)."""
    for hh, v in values.items():
        arr[site.at(day, hh)] = v


def bump(site: Site, day: dt.date, h0: float, h1: float) -> np.ndarray:
    """A half-sine from 0 at local hour h0 to 1 in the middle and back to 0 at h1 (0 outside that day's window)."""
    m = site.mask(day, h0, h1)
    return np.where(m, np.sin(math.pi * np.clip((site.hour - h0) / (h1 - h0), 0.0, 1.0)), 0.0)


def triangle(site: Site, day: dt.date, h_start: float, h_peak: float, h_end: float, height: float) -> np.ndarray:
    """A triangle of `height` from local hour h_start up to h_peak and down to h_end on that local day (0 elsewhere)."""
    out = np.zeros(site.n)
    for i, (d, h) in enumerate(zip(site.date, site.hour)):
        if d != day or not (h_start <= h <= h_end):
            continue
        if h <= h_peak:
            out[i] = height * (h - h_start) / (h_peak - h_start)
        else:
            out[i] = height * (h_end - h) / (h_end - h_peak)
    return out


def peak_once(vals: np.ndarray, mask: np.ndarray, extra: float) -> np.ndarray:
    """Lift the largest value inside `mask` by `extra`, so an event has one clear top."""
    out = vals.copy()
    idx = np.flatnonzero(mask)
    out[idx[np.argmax(vals[idx])]] += extra
    return out


def centred(site: Site, x: np.ndarray, day: dt.date) -> np.ndarray:
    """x with its mean over that local day removed on that day (so a designed daily mean is exact)."""
    m = site.day(day)
    return np.where(m, x - x[m].mean(), x)


def lag(x: np.ndarray, k: float) -> np.ndarray:
    """First-order lag: each sample moves the fraction k towards the input."""
    out = np.empty_like(x)
    cur = x[0]
    for i, v in enumerate(x):
        cur = cur + k * (v - cur)
        out[i] = cur
    return out


def by_date(site: Site, table: dict[dt.date, float], default: float) -> np.ndarray:
    """A value per local date (a setpoint schedule, a day's production), `default` on the dates not in `table`."""
    return np.array([table.get(d, default) for d in site.date])


def add_tag(rec: dict, tag: str | dict) -> None:
    """A marker tag (a name) or valued tags ({name: value}, a manufacturer, a Bool point's enum) on a record."""
    if isinstance(tag, dict):
        rec.update(tag)
    else:
        rec[tag] = M


def fmt(v: float) -> str:
    """A sample as the CSV writes it: at most three decimals, no trailing zeros, never '-0'."""
    s = f"{v:.3f}".rstrip("0").rstrip(".")
    return "0" if s == "-0" else s


def site_row(st: Site) -> dict:
    return {"id": ref(st.key, st.dis), "dis": st.dis, "site": M, "tz": st.hs_tz, "geoCity": st.city, **st.tags}


def equip_row(st: Site, code: str, dis: str, marks: list[str | dict]) -> dict:
    eid = f"{st.key}.{code}"
    r = {"id": ref(eid, dis), "dis": dis, "navName": dis, "equip": M, "siteRef": ref(st.key, st.dis)}
    for mk in marks:
        add_tag(r, mk)
    return r


def point_row(pid: str, eid: str, edis: str, st: Site, nav: str, kind: str, unit: str | None, desc: str | None,
              tags: list[str | dict], tz_first: bool = False) -> dict:  # fmt: skip
    """A point's record; `tz_first`: its `tz` after `kind` (the operator layout), else after `siteRef`."""
    r = {"id": ref(pid, f"{edis} {nav}"), "dis": f"{edis} {nav}", "navName": nav, "point": M, "his": M, "kind": kind}
    if tz_first:
        r["tz"] = st.hs_tz
    r.update(equipRef=ref(eid, edis), siteRef=ref(st.key, st.dis), tz=st.hs_tz)
    r["hisInterval"] = {"_kind": "number", "val": 15, "unit": "min"}
    if unit:
        r["unit"] = unit
    if desc:
        r["description"] = desc
    for t in tags:
        add_tag(r, t)
    return r


def samples(out: io.StringIO, pid: str, st: Site, kind: str, vals, keep, number) -> None:
    """A point's history as CSV rows `id,ts,val` (a Bool true/false, a number as `number` writes it; not where `keep`
    is False)."""
    for i, t in enumerate(st.local):
        if keep is None or keep[i]:
            v = vals[i]
            txt = ("true" if v else "false") if kind == "Bool" else number(float(v))
            out.write(f"{pid},{t.isoformat(timespec='minutes')},{txt}\n")


def grid_json(rows: list[dict], tail: str = "") -> bytes:
    """The records as a compact Haystack JSON grid, the columns in the order the rows first name them."""
    cols: list[str] = []
    for r in rows:
        cols += [k for k in r if k not in cols]
    grid = {"_kind": "grid", "meta": {"ver": "3.0"}, "cols": [{"name": c} for c in cols], "rows": rows}
    return (json.dumps(grid, ensure_ascii=False, separators=(",", ":")) + tail).encode()


class Plant:
    """One plant being drawn: the seeded random source, and the equips and points in the order they are declared."""

    def __init__(self, seed: int, start: dt.date, end: dt.date | None, step: dt.timedelta = STEP,
                 require_unit: bool = True):  # fmt: skip
        """`require_unit`: every Number point must carry a unit (blind set 7 has a COP without one); `end` None: each
        site gives its `last` sample."""
        self.rng = np.random.default_rng(seed)
        self.require_unit = require_unit
        self.start, self.end, self.step = start, end, step
        self.ndays = (end - start).days if end else 0
        self.equips: list[tuple[Site, str, str, list[str | dict]]] = []
        self.points: list[
            tuple[str, str, str, str | None, list[str | dict], np.ndarray, np.ndarray | None, str | None]
        ] = []

    def site(self, key: str, dis: str, tz: str, hs_tz: str, city: str, last: dt.datetime | None = None,
             tags: dict | None = None) -> Site:  # fmt: skip
        """A site: `tz` the IANA zone, `hs_tz` its Haystack name (the part after the last '/'); `last`, `tags`: see
        Site."""
        return Site(key, dis, tz, hs_tz, city, start=self.start, end=self.end, step=self.step, last=last, tags=tags)

    # ----- random signal pieces (each call draws: the order of the calls is part of the plant) ------------------------
    def noise(self, site: Site, sd: float) -> np.ndarray:
        return self.rng.normal(0.0, sd, site.n)

    def clipn(self, site: Site, sd: float, lim: float) -> np.ndarray:
        return np.clip(self.noise(site, sd), -lim, lim)

    def per_day(self, site: Site, sd: float) -> np.ndarray:
        """One random offset per local day."""
        return self.rng.normal(0.0, sd, self.ndays)[site.day_i]

    # ----- the records ----------------------------------------------------------------------------------------------
    def equip(self, site: Site, code: str, dis: str, markers: list[str | dict]) -> str:
        self.equips.append((site, code, dis, markers))
        return f"{site.key}.{code}"

    def point(self, eq: str, nav: str, kind: str, unit: str | None, tags: list[str | dict], vals, keep=None,
              desc: str | None = None) -> None:  # fmt: skip
        """A point of equip `eq`: kind Number (with a unit) or Bool; `keep` False where a sample is missing (a gap);
        `desc` its Haystack `description`."""
        assert kind == "Bool" or unit or not self.require_unit, (eq, nav)
        self.points.append((eq, nav, kind, unit, tags, np.asarray(vals), keep, desc))

    def build(self, sites: list[Site], sort_equips: bool = True) -> tuple[bytes, bytes]:
        """plant.json and plant.csv.gz as bytes: sites, then equips (by site and code where `sort_equips`, else as
        declared), then points as declared; point ids `<equip id>.p<n>`; gzip without a name or a time."""
        rows = [site_row(st) for st in sites]
        equips = sorted(self.equips, key=lambda e: (sites.index(e[0]), e[1])) if sort_equips else self.equips
        rows += [equip_row(st, code, dis, marks) for st, code, dis, marks in equips]
        out = io.StringIO()
        out.write("id,ts,val\n")
        for pid, (st, edis), (eid, nav, kind, unit, tags, vals, keep, desc) in self.numbered():
            rows.append(point_row(pid, eid, edis, st, nav, kind, unit, desc, tags))
            samples(out, pid, st, kind, vals, keep, fmt)
        buf = io.BytesIO()
        with gzip.GzipFile(filename="", mode="wb", fileobj=buf, mtime=0, compresslevel=9) as gz:
            gz.write(out.getvalue().encode())
        return grid_json(rows), buf.getvalue()

    def numbered(self) -> list[tuple[str, tuple[Site, str], tuple]]:
        """Each point as declared with its id (`<equip id>.p<n>`, n counted per equip) and its equip's site and dis."""
        eq = {f"{st.key}.{code}": (st, dis) for st, code, dis, _ in self.equips}
        counts: dict[str, int] = {}
        out = []
        for pt in self.points:
            n = counts[pt[0]] = counts.get(pt[0], -1) + 1
            out.append((f"{pt[0]}.p{n}", eq[pt[0]], pt))
        return out

    def write(self, here: Path, sites: list[Site], sort_equips: bool = True) -> None:
        """Write here/plant.json and here/plant.csv.gz."""
        js, gz = self.build(sites, sort_equips)
        (here / "plant.json").write_bytes(js)
        (here / "plant.csv.gz").write_bytes(gz)
        print(f"plant.json {len(js)} bytes, plant.csv.gz {len(gz)} bytes, {len(self.equips)} equips, "
              f"{len(self.points)} points")  # fmt: skip


# ----- the operator layout (`format: operator`, docs/plants.md) ------------------------------------------------------
def build_by_site(plant: Plant, sites: list[Site]) -> tuple[bytes, bytes]:
    """plant.json and plant.csv.gz in the operator layout (the generated plants of bench/plants/): records by site (a
    site, then each of its equips in the order declared, each followed by its points), a point's `tz` after its
    `kind`, a sample in Python's `g` format (six significant digits: a recipe rounds its own values), a newline after
    the JSON; the histories gzip-compressed by `gzip.compress` (no name, no time)."""
    numbered = plant.numbered()
    rows: list[dict] = []
    for st in sites:
        rows.append(site_row(st))
        for est, code, dis, marks in plant.equips:
            if est is st:
                rows.append(equip_row(st, code, dis, marks))
                for pid, (_, edis), (eid, nav, kind, unit, tags, _v, _k, desc) in numbered:
                    if eid == f"{st.key}.{code}":
                        rows.append(point_row(pid, eid, edis, st, nav, kind, unit, desc, tags, tz_first=True))
    out = io.StringIO()
    out.write("id,ts,val\n")
    for pid, (st, _), (_e, _n, kind, _u, _t, vals, keep, _d) in numbered:
        samples(out, pid, st, kind, vals, keep, lambda v: f"{v:g}")
    return grid_json(rows, "\n"), gzip.compress(out.getvalue().encode(), compresslevel=9, mtime=0)
