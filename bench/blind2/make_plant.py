"""Blind plant #2: a deterministic generator for three sites the agent's code has never seen.

- Millbrook WRF   (America/Chicago, US units): a municipal water reclamation (wastewater) works —
  influent pumps, aeration blowers, aeration basins, digester boiler, sludge heat exchanger, UV channels,
  meters, wet well.
- Hopwell Brewery (Europe/London, SI units): fermenters, steam boiler, glycol chiller, air compressors,
  CIP pump, wort cooler, hot/cold liquor tanks, meters.
- Kestrel Ridge   (America/Denver, US units): a ski area before opening — snowmaking pumps, air compressors,
  lift drives, lodge boiler, weather station, service meter, snowmaking pond.

Data: 15-minute samples from 2026-10-12 00:00 to 2026-11-02 00:00 site-local (three calendar weeks,
Monday to Monday). London's clocks go back on Sunday 25 October 2026, Chicago's and Denver's on Sunday
1 November 2026, so both DST changes lie inside the range. A few 4-hour gaps.

Writes plant.json (a Haystack 4 JSON grid of site, equip and point records) and plant.csv.gz
(id,ts,val; ts ISO 8601 with the site's UTC offset, so the repeated hour of a fall-back day is unambiguous).
The same run gives byte-identical files (numpy seed 20261102, gzip mtime 0).

    /work/main/.venv/bin/python bench/blind2/make_plant.py
"""

from __future__ import annotations

import gzip
import io
import json
from datetime import datetime, timedelta, timezone
from pathlib import Path
from zoneinfo import ZoneInfo

import numpy as np

HERE = Path(__file__).resolve().parent
SEED = 20261102
START = (2026, 10, 12)
END = (2026, 11, 2)
STEP = timedelta(minutes=15)

M = {"_kind": "marker"}


def ref(val: str, dis: str) -> dict:
    return {"_kind": "ref", "val": val, "dis": dis}


class Site:
    def __init__(self, key: str, dis: str, tz: str, hay_tz: str, markers: list[str], extra: dict):
        self.key, self.dis, self.tz, self.hay_tz = key, dis, ZoneInfo(tz), hay_tz
        self.rec = {"id": ref(key, dis), "dis": dis, "site": M, "tz": hay_tz, **{m: M for m in markers}, **extra}
        start = datetime(*START, tzinfo=self.tz).astimezone(timezone.utc)
        end = datetime(*END, tzinfo=self.tz).astimezone(timezone.utc)
        n = int((end - start) / STEP)
        self.utc = [start + i * STEP for i in range(n)]
        self.local = [t.astimezone(self.tz) for t in self.utc]
        self.hour = np.array([t.hour + t.minute / 60 for t in self.local])
        self.day = np.array([(t.date() - datetime(*START).date()).days for t in self.local])
        self.wday = np.array([t.weekday() for t in self.local])
        self.n = n
        self.ts = [t.isoformat() for t in self.local]


class Plant:
    def __init__(self):
        self.rng = np.random.default_rng(SEED)
        self.records: list[dict] = []
        self.rows: list[str] = []
        self.sites: dict[str, Site] = {}

    def site(self, s: Site):
        self.sites[s.key] = s
        self.records.append(s.rec)
        return s

    def equip(self, s: Site, key: str, dis: str, markers: list[str], **extra) -> dict:
        rec = {"id": ref(key, dis), "dis": dis, "navName": dis, "equip": M, "siteRef": ref(s.key, s.dis),
               **{m: M for m in markers}, **extra}
        self.records.append(rec)
        rec["_site"] = s
        rec["_gaps"] = []
        return rec

    def noise(self, n, sd):
        return self.rng.normal(0.0, sd, n)

    def point(self, e: dict, short: str, nav: str, markers: list[str], unit: str | None, values, digits=2,
              kind="Number"):
        s: Site = e["_site"]
        pid = f"{e['id']['val']}.{short}"
        dis = f"{e['dis']} {nav}"
        rec = {"id": ref(pid, dis), "dis": dis, "navName": nav, "point": M, "his": M, "kind": kind,
               "tz": s.hay_tz, "siteRef": ref(s.key, s.dis), "equipRef": ref(e["id"]["val"], e["dis"]),
               **{m: M for m in markers}}
        if unit:
            rec["unit"] = unit
        self.records.append(rec)
        keep = np.ones(s.n, bool)
        for g0, g1 in e["_gaps"]:
            keep[g0:g1] = False
        for i in range(s.n):
            if not keep[i]:
                continue
            v = values[i]
            if kind == "Bool":
                txt = "true" if v else "false"
            else:
                txt = f"{round(float(v), digits):.{digits}f}"
            self.rows.append(f"{pid},{s.ts[i]},{txt}")

    def gap(self, e: dict, local_start: tuple, hours: int):
        s: Site = e["_site"]
        t0 = datetime(*local_start, tzinfo=s.tz).astimezone(timezone.utc)
        i0 = s.utc.index(t0)
        e["_gaps"].append((i0, i0 + hours * 4))

    def write(self):
        recs = [{k: v for k, v in r.items() if not k.startswith("_")} for r in self.records]
        cols = []
        for r in recs:
            for k in r:
                if k not in cols:
                    cols.append(k)
        grid = {"_kind": "grid", "meta": {"ver": "3.0"}, "cols": [{"name": c} for c in cols], "rows": recs}
        (HERE / "plant.json").write_text(json.dumps(grid, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
        buf = io.BytesIO()
        with gzip.GzipFile(filename="plant.csv", mode="wb", fileobj=buf, mtime=0) as gz:
            gz.write(("id,ts,val\n" + "\n".join(self.rows) + "\n").encode())
        (HERE / "plant.csv.gz").write_bytes(buf.getvalue())


def smooth(rng, n, sd, keep=0.97):
    """A slowly wandering AR(1) series of stationary standard deviation sd."""
    x = np.zeros(n)
    e = rng.normal(0, sd * np.sqrt(1 - keep**2), n)
    for i in range(1, n):
        x[i] = keep * x[i - 1] + e[i]
    return x


def ambient(s: Site, rng, mean, amp, front_day, front_drop, peak_hour=15):
    """Outside temperature: daily cycle, a cold front from front_day, weather noise."""
    daily = amp * np.cos((s.hour - peak_hour) / 24 * 2 * np.pi)
    front = -front_drop * np.clip((s.day + s.hour / 24 - front_day) / 1.5, 0, 1) * np.exp(
        -np.clip(s.day + s.hour / 24 - front_day - 1.5, 0, None) / 4)
    trend = -0.25 * s.day * (amp / 8)
    return mean + daily + front + trend + smooth(rng, s.n, amp * 0.35, 0.985)


def millbrook(p: Plant):
    s = p.site(Site("mbw", "Millbrook WRF", "America/Chicago", "Chicago", ["wwtp"],
                    {"geoCity": "Millbrook", "geoState": "IL", "area": {"_kind": "number", "val": 41.5,
                                                                       "unit": "acre"}}))
    rng, n = p.rng, s.n
    oat = ambient(s, rng, 54, 8, 9.3, 16)
    # influent flow, gal/min: diurnal with morning and evening peaks, weekend shift, a storm on 20-21 Oct
    h = s.hour
    diurnal = (0.75 + 0.30 * np.exp(-((h - 10) ** 2) / 8) + 0.18 * np.exp(-((h - 20) ** 2) / 6)
               - 0.15 * np.exp(-((h - 4) ** 2) / 5))
    weekend = np.where(s.wday >= 5, np.exp(-((h - 12) ** 2) / 10) * 0.08 - 0.04, 0)
    storm = 1.9 * np.exp(-(((s.day + h / 24) - 8.75) ** 2) / 0.35)
    inflow = 5200 * (diurnal + weekend + storm) * (1 + smooth(rng, n, 0.04)) + p.noise(n, 60)

    # influent pumps: P1 lead (VFD), P2 lag above 5600 gpm, P3 standby for the storm and P1's outage
    p1_out = np.zeros(n, bool)
    t_out = datetime(2026, 10, 27, 9, tzinfo=s.tz).astimezone(timezone.utc)
    i_out = s.utc.index(t_out)
    p1_out[i_out:i_out + 6 * 4] = True  # P1 off for maintenance 27 Oct 09:00-15:00
    share = {}
    lag_on = inflow > 5600
    storm_on = inflow > 9800
    n_run = 1 + lag_on + storm_on
    for name in ("P1", "P2", "P3"):
        share[name] = np.zeros(n)
    for i in range(n):
        runners = ["P1", "P2", "P3"][: n_run[i]] if not p1_out[i] else ["P2", "P3"][: max(1, n_run[i])]
        if p1_out[i] and n_run[i] >= 2:
            runners = ["P2", "P3"]
        for r in runners:
            share[r][i] = inflow[i] / len(runners)
    sizes = {"P1": (1.00, 1.0), "P2": (0.97, 1.04), "P3": (1.02, 0.96)}
    for k, name in enumerate(("P1", "P2", "P3")):
        e = p.equip(s, f"mbw.ips{k + 1}", f"IPS-P{k + 1}", ["pump", "motor", "influent", "water"],
                    equipClass="Influent pump")
        q = share[name]
        on = q > 0
        eff, kwf = sizes[name]
        speed = np.where(on, np.clip(48 + q / 5200 * 44 * eff + p.noise(n, 0.8), 40, 100), 0)
        dp = np.where(on, 31 + 14 * (speed / 100) ** 2 + p.noise(n, 0.4), 0.4 + p.noise(n, 0.05))
        kw = np.where(on, kwf * (18 + 92 * (speed / 100) ** 3) + p.noise(n, 0.9), 0.0)
        if name == "P2":
            p.gap(e, (2026, 10, 15, 2), 4)
        p.point(e, "run", "Run Status", ["cmd", "run"], None, on, kind="Bool")
        p.point(e, "speed", "Speed", ["sensor", "motor", "speed"], "%", speed, 1)
        p.point(e, "flow", "Flow", ["sensor", "water", "flow"], "gal/min", np.where(on, q, 0.0), 0)
        p.point(e, "dp", "Discharge Pressure", ["sensor", "discharge", "water", "pressure"], "psi", dp, 2)
        p.point(e, "kw", "Power", ["sensor", "elec", "power"], "kW", kw, 2)

    # aeration: oxygen demand follows the load with ~3 h lag
    padded = np.concatenate([np.full(11, inflow[0] / 5200), inflow / 5200])
    load = np.convolve(padded, np.ones(12) / 12, mode="valid")
    demand = np.concatenate([np.full(12, load[0]), load[:-12]])
    blower_kw_total = np.zeros(n)
    bl_info = [("Blower 1", 1.00, 0.0), ("Blower 2", 1.06, 0.0), ("Blower 3", 0.94, 0.0)]
    total_scfm = 5400 * demand * (1 + smooth(rng, n, 0.03))
    for k, (name, kwf, _) in enumerate(bl_info):
        e = p.equip(s, f"mbw.bl{k + 1}", name, ["blower", "motor", "aeration", "air"],
                    equipClass="Aeration blower")
        if k < 2:
            on = np.ones(n, bool)
        else:
            on = total_scfm > 6400  # third blower only at high load
        nrun = 2 + (total_scfm > 6400)
        cfm = np.where(on, total_scfm / nrun * (1 + 0.03 * (k - 1)) + p.noise(n, 25), 0.0)
        spd = np.where(on, np.clip(35 + cfm / 3600 * 60 + p.noise(n, 0.5), 30, 100), 0.0)
        psi = np.where(on, 7.6 + 0.25 * demand + p.noise(n, 0.05), 0.1 + p.noise(n, 0.02))
        kw = np.where(on, kwf * (22 + 0.028 * cfm * (psi / 7.8)) + p.noise(n, 0.7), 0.0)
        bearing = 78 + np.where(on, 60 + cfm / 200, 5) + 0.3 * (oat - 54) + smooth(rng, n, 1.0)
        if name == "Blower 2":
            bearing += np.where((s.day >= 16) & (s.day <= 18), 14 * np.exp(-((s.hour - 14) ** 2) / 18), 0)
        if name == "Blower 3":
            p.gap(e, (2026, 10, 23, 13), 4)
        blower_kw_total += kw
        p.point(e, "cfm", "Air Flow", ["sensor", "air", "flow"], "cfm", cfm, 0)
        p.point(e, "psi", "Discharge Pressure", ["sensor", "discharge", "air", "pressure"], "psi", psi, 2)
        p.point(e, "kw", "Power", ["sensor", "elec", "power"], "kW", kw, 2)
        p.point(e, "spd", "Speed", ["sensor", "motor", "speed"], "%", spd, 1)
        p.point(e, "brg", "Bearing Temp", ["sensor", "temp", "bearing"], "°F", bearing, 1)

    for k, (name, bias) in enumerate((("Aeration Basin A", 0.0), ("Aeration Basin B", -0.25))):
        e = p.equip(s, f"mbw.ab{'ab'[k]}", name, ["tank", "aerationBasin", "water"])
        sp = np.where((s.hour >= 6) & (s.hour < 22), 2.0, 1.5)
        if k == 1:
            sp = np.full(n, 2.0)
        do = sp + bias + 0.9 * (1.05 - demand) + smooth(rng, n, 0.18, 0.95) + p.noise(n, 0.05)
        do = np.clip(do, 0.05, None)
        lvl = 14.2 + 0.5 * (inflow / 5200 - 1) + smooth(rng, n, 0.05)
        mlt = 0.35 * oat + 46 + smooth(rng, n, 0.3, 0.995) - 0.05 * s.day
        p.point(e, "do", "DO", ["sensor", "water", "dissolved", "oxygen", "concentration"], "mg/L", do, 2)
        p.point(e, "dosp", "DO Setpoint", ["sp", "water", "dissolved", "oxygen", "concentration"], "mg/L", sp, 2)
        p.point(e, "lvl", "Level", ["sensor", "water", "level"], "ft", lvl, 2)
        p.point(e, "mlt", "Mixed Liquor Temp", ["sensor", "water", "temp"], "°F", mlt, 1)

    # digester boiler: 140 °F setpoint (reset to 145 °F from 26 Oct); sags below setpoint in the cold snap
    e = p.equip(s, "mbw.blr", "Digester Boiler", ["boiler", "hot", "water", "naturalGas"])
    sp = np.where(s.day >= 14, 145.0, 140.0)
    cold = np.clip(50 - oat, 0, None)
    sag = np.where((s.day >= 9) & (s.day <= 11), 3.5 + 0.35 * cold, 0.0)
    sup = sp - 1.6 - sag + smooth(rng, n, 0.9, 0.9) + p.noise(n, 0.15)
    ret = sup - 11 - 0.2 * cold + p.noise(n, 0.3)
    fire = np.clip(38 + 2.2 * cold + 18 * (sag > 0) + smooth(rng, n, 4), 15, 100)
    gas = 22 * fire + p.noise(n, 15)
    p.gap(e, (2026, 10, 29, 6), 4)
    p.point(e, "hws", "HW Supply Temp", ["sensor", "leaving", "hot", "water", "temp"], "°F", sup, 1)
    p.point(e, "hwsp", "HW Supply Temp Setpoint", ["sp", "leaving", "hot", "water", "temp"], "°F", sp, 1)
    p.point(e, "hwr", "HW Return Temp", ["sensor", "entering", "hot", "water", "temp"], "°F", ret, 1)
    p.point(e, "fire", "Firing Rate", ["sensor", "fire", "rate"], "%", fire, 1)
    p.point(e, "gas", "Gas Flow", ["sensor", "naturalGas", "flow"], "ft³/h", gas, 0)

    e = p.equip(s, "mbw.hx", "Sludge Heat Exchanger", ["heatExchanger", "sludge"])
    sin = 88 + 0.3 * (oat - 54) + smooth(rng, n, 0.6)
    p.point(e, "sin", "Sludge Inlet Temp", ["sensor", "entering", "temp"], "°F", sin, 1)
    p.point(e, "sout", "Sludge Outlet Temp", ["sensor", "leaving", "temp"], "°F", sin + 8.5 + (sup - 140) * 0.2, 1)

    for k in (1, 2):
        e = p.equip(s, f"mbw.uv{k}", f"UV Channel {k}", ["uvDisinfection"])
        inten = 82 - 4 * storm / 1.9 + smooth(rng, n, 2.0) - (k - 1) * 6
        kw = 31 + 0.2 * inten + p.noise(n, 0.4) + (k - 1) * 1.5
        uvt = 66 - 9 * storm / 1.9 + smooth(rng, n, 1.2)
        p.point(e, "int", "UV Intensity", ["sensor", "uv", "intensity"], "%", inten, 1)
        p.point(e, "uvt", "UVT", ["sensor", "uv", "transmittance"], "%", uvt, 1)
        p.point(e, "kw", "Power", ["sensor", "elec", "power"], "kW", kw, 2)

    e = p.equip(s, "mbw.wetwell", "Wet Well", ["tank", "water", "sewage"])
    p.point(e, "lvl", "Level", ["sensor", "water", "level"], "ft",
            9.5 + 1.8 * np.sin(s.hour / 24 * 2 * np.pi * 3) * 0.5 + 1.2 * storm + smooth(rng, n, 0.3, 0.9), 2)

    e = p.equip(s, "mbw.effmeter", "Effluent Flow Meter", ["meter", "water", "effluent"])
    eff = np.roll(inflow, 8) * 0.985 + p.noise(n, 40)
    eff[:8] = inflow[:8]
    p.point(e, "flow", "Flow", ["sensor", "water", "flow"], "gal/min", eff, 0)
    p.point(e, "tot", "Totalizer", ["sensor", "water", "volume"], "gal", 18_400_000 + np.cumsum(eff * 15), 0)

    e = p.equip(s, "mbw.main", "Main Switchgear Meter", ["meter", "elec", "siteMeter"])
    kw = 210 + blower_kw_total * 1.02 + 0.012 * inflow + 6 * np.exp(-((s.hour - 13) ** 2) / 12) + p.noise(n, 3)
    p.gap(e, (2026, 10, 19, 20), 4)
    p.point(e, "kw", "Power", ["sensor", "elec", "power"], "kW", kw, 1)
    p.point(e, "kwh", "Energy", ["sensor", "elec", "energy"], "kWh", 3_112_000 + np.cumsum(kw / 4), 0)


def hopwell(p: Plant):
    s = p.site(Site("hpb", "Hopwell Brewery", "Europe/London", "London", ["brewery"],
                    {"geoCity": "Hopwell", "geoCountry": "GB"}))
    rng, n = p.rng, s.n
    oat = ambient(s, rng, 12, 3.5, 12.5, 6, 14)
    t = s.day + s.hour / 24
    # fermenter schedules (day offsets from 12 Oct 00:00): fill, ferment at 19/20 °C, diacetyl rest 21, crash 2, empty
    sched = {
        "FV-01": [(-3, 19.0), (5.5, 21.0), (7.5, 2.0), (12.0, None), (13.5, 19.0)],
        "FV-02": [(-1, None), (2.0, 18.0), (9.0, 21.0), (10.8, 2.0), (16.0, None)],
        "FV-03": [(-6, 20.0), (1.2, 2.0), (6.0, None), (7.6, 20.0), (14.6, 22.0), (16.5, 2.0)],
        "FV-04": [(-2, 12.0), (9.5, 2.0), (15.5, None), (18.3, 12.0)],
        "FV-05": [(-1, None), (4.3, 19.5), (11.0, 21.0), (13.0, 2.0), (19.2, None)],
        "FV-06": [(-8, 2.0), (3.0, None), (6.5, 19.0), (13.4, 21.0), (15.0, 2.0)],
    }
    glycol_load = np.zeros(n)
    for k, (name, steps) in enumerate(sched.items()):
        e = p.equip(s, f"hpb.fv{k + 1}", name, ["tank", "fermenter"])
        sp = np.full(n, np.nan)
        for d0, val in steps:
            sp[t >= d0] = np.nan if val is None else val
        empty = np.isnan(sp)
        amb = 16 + 0.25 * (oat - 12)
        temp = np.zeros(n)
        cur = sp[0] if not empty[0] else amb[0]
        heat = np.zeros(n)
        fill_t = -99.0
        for i in range(n):
            if i > 0 and empty[i - 1] and not empty[i]:
                fill_t = t[i]
            target = amb[i] if empty[i] else sp[i]
            # exothermic activity 0.5-3 days after filling
            act = 0.0
            if not empty[i] and sp[i] > 10:
                age = t[i] - fill_t
                act = 1.3 * np.exp(-((age - 1.6) ** 2) / 0.6) if fill_t > -50 else 0.0
            heat[i] = act
            rate = 0.08 if not empty[i] else 0.03
            cur = cur + rate * (target - cur) + 0.05 * act
            temp[i] = cur
        temp = temp + heat * (0.3 if name != "FV-05" else 1.6) + p.noise(n, 0.06)
        valve = np.where(empty, 0.0, np.clip(40 * (temp - np.nan_to_num(sp, nan=99)) + 25 * heat + 8, 0, 100))
        press = np.clip(np.where(empty, 0.02, 0.4 + 0.6 * heat + smooth(rng, n, 0.05)) + p.noise(n, 0.01), 0.0, 1.2)
        glycol_load += np.where(empty, 0, 3 + valve * 0.12)
        sp_w = np.where(empty, 16.0, sp)
        if name == "FV-04":
            p.gap(e, (2026, 10, 21, 8), 4)
        p.point(e, "t", "Temp", ["sensor", "temp"], "°C", temp, 2)
        p.point(e, "tsp", "Temp Setpoint", ["sp", "temp"], "°C", sp_w, 1)
        p.point(e, "p", "Pressure", ["sensor", "pressure"], "bar", press, 3)
        p.point(e, "gv", "Glycol Valve", ["cmd", "valve", "glycol"], "%", valve, 1)

    brew = (s.wday < 5) & (s.hour >= 6) & (s.hour < 16)  # brew days Mon-Fri
    e = p.equip(s, "hpb.boiler", "Steam Boiler", ["boiler", "steam", "naturalGas"])
    fire = np.where(brew, 62, 18) + smooth(rng, n, 5) + 0.8 * (12 - oat)
    fire = np.clip(fire, 8, 100)
    p.point(e, "sp", "Steam Pressure", ["sensor", "steam", "pressure"], "bar",
            np.where(brew, 9.6, 8.2) + smooth(rng, n, 0.15, 0.9), 2)
    p.point(e, "fr", "Firing Rate", ["sensor", "fire", "rate"], "%", fire, 1)
    gas_boiler = 1.45 * fire + p.noise(n, 0.8)
    p.point(e, "gas", "Gas Flow", ["sensor", "naturalGas", "flow"], "m³/h", gas_boiler, 2)
    p.point(e, "fw", "Feedwater Temp", ["sensor", "water", "temp"], "°C", 82 + smooth(rng, n, 1.5), 1)

    e = p.equip(s, "hpb.gch", "Glycol Chiller", ["chiller", "glycol"])
    gsp = np.full(n, -4.0)
    gsup = gsp + 0.35 + 0.03 * glycol_load + smooth(rng, n, 0.25, 0.93)
    gsup += np.where((s.day == 17) & (s.hour >= 11) & (s.hour < 18), 2.6, 0.0)  # fault 29 Oct afternoon
    gret = gsup + 1.2 + 0.08 * glycol_load + p.noise(n, 0.1)
    gkw = 14 + 0.75 * glycol_load + 0.4 * (oat - 12) + p.noise(n, 0.6)
    p.point(e, "gst", "Glycol Supply Temp", ["sensor", "leaving", "glycol", "temp"], "°C", gsup, 2)
    p.point(e, "gsp", "Glycol Supply Temp Setpoint", ["sp", "leaving", "glycol", "temp"], "°C", gsp, 1)
    p.point(e, "grt", "Glycol Return Temp", ["sensor", "entering", "glycol", "temp"], "°C", gret, 2)
    p.point(e, "kw", "Power", ["sensor", "elec", "power"], "kW", gkw, 2)

    comp_total = np.zeros(n)
    for k in (1, 2):
        e = p.equip(s, f"hpb.ac{k}", f"Air Compressor {k}", ["compressor", "air"])
        demand = np.where(brew, 0.75, 0.35) + smooth(rng, n, 0.08)
        if k == 1:
            load = np.clip(demand * 100 + p.noise(n, 3), 20, 100)
        else:
            load = np.clip((demand - 0.55) * 160 + p.noise(n, 3), 0, 100)
        kw = np.clip(np.where(load > 0, 6 + 0.31 * load, 0.4) + p.noise(n, 0.2), 0.05, None)
        comp_total += kw
        p.point(e, "p", "Discharge Pressure", ["sensor", "discharge", "air", "pressure"], "bar",
                7.1 + smooth(rng, n, 0.08) - 0.1 * k, 2)
        p.point(e, "kw", "Power", ["sensor", "elec", "power"], "kW", kw, 2)
        p.point(e, "load", "Load", ["sensor", "load"], "%", load, 1)

    e = p.equip(s, "hpb.cip", "CIP Pump", ["pump", "cip"])
    cip = np.zeros(n, bool)
    for d in range(21):
        if d % 7 < 5:
            st = 16.5 + (d % 3) * 0.5
            cip |= (s.day == d) & (s.hour >= st) & (s.hour < st + 2.0)
    cflow = np.where(cip, 24 + smooth(rng, n, 1.0), 0.0)
    p.point(e, "q", "Flow", ["sensor", "water", "flow"], "m³/h", cflow, 2)
    p.point(e, "kw", "Power", ["sensor", "elec", "power"], "kW", np.where(cip, 7.5 + 0.05 * cflow, 0.0), 2)
    p.point(e, "t", "Supply Temp", ["sensor", "water", "temp"], "°C",
            np.where(cip, 78 + smooth(rng, n, 1.0), 18 + smooth(rng, n, 1.0)), 1)

    e = p.equip(s, "hpb.wc", "Wort Cooler", ["heatExchanger", "wort"])
    p.point(e, "wo", "Wort Outlet Temp", ["sensor", "leaving", "temp"], "°C",
            np.where(brew & (s.hour >= 11) & (s.hour < 13), 17.5, 24) + smooth(rng, n, 0.6), 2)
    p.point(e, "cl", "Cold Liquor Flow", ["sensor", "water", "flow"], "m³/h",
            np.where(brew & (s.hour >= 11) & (s.hour < 13), 14.0, 0.0) + np.abs(p.noise(n, 0.2)), 2)

    for key, name, base, lvl in (("hlt", "HLT", 80, 72), ("clt", "CLT", 3.5, 64)):
        e = p.equip(s, f"hpb.{key}", name, ["tank", "water", "hot" if key == "hlt" else "cold"])
        draw = np.where(brew & (s.hour >= 7) & (s.hour < 13), -28, 4)
        level = np.clip(lvl + np.cumsum(draw / 96.0 * 0.5) % 30 + smooth(rng, n, 1.0), 5, 98)
        p.point(e, "t", "Temp", ["sensor", "water", "temp"], "°C", base + smooth(rng, n, 0.4, 0.9), 2)
        p.point(e, "lvl", "Level", ["sensor", "water", "level"], "%", level, 1)

    e = p.equip(s, "hpb.inc", "Incomer Meter", ["meter", "elec", "siteMeter"])
    kw = 38 + gkw + comp_total + 22 * brew + np.where(cip, 8, 0) + 6 * ((s.hour > 7) & (s.hour < 18)) + p.noise(n, 1.5)
    p.gap(e, (2026, 10, 24, 3), 4)
    p.point(e, "kw", "Power", ["sensor", "elec", "power"], "kW", kw, 2)
    p.point(e, "kwh", "Energy", ["sensor", "elec", "energy"], "kWh", 884_210 + np.cumsum(kw / 4), 1)

    e = p.equip(s, "hpb.gas", "Gas Meter", ["meter", "naturalGas"])
    p.point(e, "q", "Flow", ["sensor", "naturalGas", "flow"], "m³/h", gas_boiler + 2.5 + p.noise(n, 0.3), 2)
    e = p.equip(s, "hpb.water", "Mains Water Meter", ["meter", "water"])
    p.point(e, "q", "Flow", ["sensor", "water", "flow"], "m³/h",
            np.clip(1.2 + 9 * (brew & (s.hour >= 7) & (s.hour < 13)) + 3 * cip + smooth(rng, n, 0.4), 0, None), 2)


def kestrel(p: Plant):
    s = p.site(Site("krs", "Kestrel Ridge", "America/Denver", "Denver", ["skiArea"],
                    {"geoCity": "Kestrel", "geoState": "CO"}))
    rng, n = p.rng, s.n
    oat = ambient(s, rng, 36, 9, 12.2, 18, 14)
    rh = np.clip(55 - 1.1 * (oat - 36) + smooth(rng, n, 8, 0.98), 12, 100)
    wet_bulb = oat - (100 - rh) / 8
    snowmaking = (wet_bulb < 27) & (s.day >= 7)
    e = p.equip(s, "krs.wx", "Weather Station", ["weatherStation"])
    p.point(e, "oat", "Outside Air Temp", ["sensor", "outside", "air", "temp"], "°F", oat, 1)
    p.point(e, "rh", "Relative Humidity", ["sensor", "outside", "air", "humidity"], "%RH", rh, 1)
    p.point(e, "wind", "Wind Speed", ["sensor", "wind", "speed"], "mph",
            np.abs(12 + smooth(rng, n, 7, 0.95) + 6 * np.sin(s.hour / 24 * 2 * np.pi)), 1)
    snow = np.clip(np.cumsum(np.where(s.day >= 12, 0.012, 0.0) * (oat < 30)) + 1.0 + smooth(rng, n, 0.1, 0.9)
                   - 0.004 * np.arange(n) * (s.day < 12), 0, None)
    p.point(e, "snow", "Snow Depth", ["sensor", "snow", "depth"], "in", snow, 1)
    p.gap(e, (2026, 10, 17, 10), 4)

    pump_total = np.zeros(n)
    for k in (1, 2):
        e = p.equip(s, f"krs.smp{k}", f"SM Pump {k}", ["pump", "snowmaking", "water"])
        on = snowmaking & ((k == 1) | (wet_bulb < 21))
        q = np.where(on, (1400 if k == 1 else 1250) + smooth(rng, n, 40) + 15 * (27 - wet_bulb), 0.0)
        psi = np.where(on, 455 + 0.02 * q + smooth(rng, n, 6), 12 + p.noise(n, 0.5))
        kw = np.where(on, 0.22 * q + 0.4 * (psi - 455) + p.noise(n, 2.0), 0.0)
        pump_total += kw
        p.point(e, "q", "Flow", ["sensor", "water", "flow"], "gal/min", q, 0)
        p.point(e, "psi", "Discharge Pressure", ["sensor", "discharge", "water", "pressure"], "psi", psi, 1)
        p.point(e, "kw", "Power", ["sensor", "elec", "power"], "kW", kw, 2)

    comp_total = np.zeros(n)
    for k, name in enumerate(("Air Comp A", "Air Comp B")):
        e = p.equip(s, f"krs.ac{'ab'[k]}", name, ["compressor", "air"])
        on = snowmaking if k == 0 else (snowmaking & (wet_bulb < 23))
        kw = np.where(on, (230 if k == 0 else 205) + smooth(rng, n, 6), 3 + p.noise(n, 0.2))
        comp_total += kw
        p.point(e, "psi", "Discharge Pressure", ["sensor", "discharge", "air", "pressure"], "psi",
                np.where(on, 112 + smooth(rng, n, 1.5), 0.5 + np.abs(p.noise(n, 0.2))), 1)
        p.point(e, "kw", "Power", ["sensor", "elec", "power"], "kW", kw, 2)

    lift_total = np.zeros(n)
    for k, (name, fpm, kwr) in enumerate((("Summit Express Drive", 1000, 410), ("Bunny Lift Drive", 400, 55))):
        e = p.equip(s, f"krs.lift{k + 1}", name, ["motor", "liftDrive", "vfd"])
        # load tests: Saturdays 10:00-13:00 (Summit), Sundays 11:00-12:30 (Bunny)
        test = ((s.wday == 5) & (s.hour >= 10) & (s.hour < 13)) if k == 0 else \
            ((s.wday == 6) & (s.hour >= 11) & (s.hour < 12.5))
        spd = np.where(test, fpm * (0.8 + 0.2 * (s.hour % 1 < 0.5)), 0.0)
        kw = np.where(test, kwr * (0.55 + 0.25 * spd / fpm) + p.noise(n, kwr * 0.01), 0.0)
        lift_total += kw
        p.point(e, "spd", "Line Speed", ["sensor", "speed"], "ft/min", spd, 0)
        p.point(e, "kw", "Power", ["sensor", "elec", "power"], "kW", kw, 2)
        p.point(e, "mt", "Motor Temp", ["sensor", "motor", "temp"], "°F",
                oat + 20 + np.where(test, 45, 0) + smooth(rng, n, 1.0), 1)

    e = p.equip(s, "krs.boiler", "Lodge Boiler", ["boiler", "hot", "water", "propane"])
    p.point(e, "st", "Supply Temp", ["sensor", "leaving", "hot", "water", "temp"], "°F",
            165 + 0.4 * np.clip(45 - oat, 0, None) + smooth(rng, n, 1.5, 0.9), 1)
    p.point(e, "rt", "Return Temp", ["sensor", "entering", "hot", "water", "temp"], "°F",
            140 + smooth(rng, n, 2.0, 0.9), 1)
    p.point(e, "fr", "Firing Rate", ["sensor", "fire", "rate"], "%",
            np.clip(20 + 1.6 * np.clip(50 - oat, 0, None) + smooth(rng, n, 4), 5, 100), 1)

    e = p.equip(s, "krs.pond", "Snowmaking Pond", ["tank", "water", "pond"])
    p.point(e, "lvl", "Level", ["sensor", "water", "level"], "ft",
            np.clip(18.0 - np.cumsum(pump_total) / 60000 + 0.01 * np.arange(n) / 96 + smooth(rng, n, 0.03), 2, None), 2)

    e = p.equip(s, "krs.main", "Main Service Meter", ["meter", "elec", "siteMeter"])
    kw = 85 + pump_total + comp_total + lift_total + 12 * np.exp(-((s.hour - 12) ** 2) / 10) + p.noise(n, 2.0)
    p.gap(e, (2026, 10, 28, 1), 4)
    p.point(e, "kw", "Power", ["sensor", "elec", "power"], "kW", kw, 1)
    p.point(e, "kwh", "Energy", ["sensor", "elec", "energy"], "kWh", 1_204_500 + np.cumsum(kw / 4), 0)


def main():
    p = Plant()
    millbrook(p)
    hopwell(p)
    kestrel(p)
    p.write()
    n_eq = sum(1 for r in p.records if "equip" in r)
    n_pt = sum(1 for r in p.records if "point" in r)
    print(f"{len(p.sites)} sites, {n_eq} equips, {n_pt} points, {len(p.rows)} samples -> {HERE}")


if __name__ == "__main__":
    main()
