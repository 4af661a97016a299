#!/usr/bin/env python3
"""Blind test plant: a two-site cold-chain / produce logistics operator.

Writes /work/blind/plant.json (Haystack 4 JSON grid of sites, equips, points)
and /work/blind/plant.csv (histories: id,ts,val; ts ISO 8601 with the site's UTC offset).
Deterministic: the same files byte for byte on every run (numpy PCG64, fixed seed).

Sites
  Botlek Cold Store   (tz Amsterdam, Europe/Amsterdam; DST change Sun 2024-03-31 02:00 -> 03:00)
  Fresno Produce Hub  (tz Los_Angeles, America/Los_Angeles; already on PDT, UTC-7, all range)
Data from local 2024-03-18 00:00, 15-minute samples, to (end exclusive) local 2024-04-08 00:00 at Botlek
and local 2024-04-05 10:00 at Fresno (the questions' clocks are just after the data ends).
"""
import json
import os
import sys
from datetime import datetime, timedelta, timezone
from zoneinfo import ZoneInfo

import numpy as np

OUT = os.path.dirname(os.path.abspath(__file__))
STEP = timedelta(minutes=15)

SITES = {
    "botlek": dict(dis="Botlek Cold Store", tz="Amsterdam", zone="Europe/Amsterdam", end=(2024, 4, 8, 0, 0),
                   geoCity="Rotterdam", geoCountry="NL"),
    "fresno": dict(dis="Fresno Produce Hub", tz="Los_Angeles", zone="America/Los_Angeles", end=(2024, 4, 5, 10, 0),
                   geoCity="Fresno", geoCountry="US"),
}

# equips: key -> (site, dis, markers)
EQUIPS = [
    ("fza", "botlek", "FZ-A Deepfreeze Hall", ["freezer"]),
    ("fzb", "botlek", "FZ-B Deepfreeze Hall", ["freezer"]),
    ("fzc", "botlek", "FZ-C Blast Freezer", ["freezer"]),
    ("cr1", "botlek", "CR-1 Chill Room", ["coldRoom"]),
    ("cr2", "botlek", "CR-2 Chill Room", ["coldRoom"]),
    ("c1", "botlek", "NH3 Screw Comp 1", ["compressor", "refrig"]),
    ("c2", "botlek", "NH3 Screw Comp 2", ["compressor", "refrig"]),
    ("c3", "botlek", "NH3 Screw Comp 3", ["compressor", "refrig"]),
    ("ec1", "botlek", "Evap Condenser EC-1", ["coolingTower"]),
    ("m1", "botlek", "Grid Incomer M1", ["meter", "elec", "elecMeter", "siteMeter"]),
    ("tk1", "botlek", "Sprinkler Tank T1", ["tank", "water"]),
    ("ups", "botlek", "Dock UPS", ["ups"]),
    ("rr1", "fresno", "Ripening Rm 1", ["ripeningRoom"]),
    ("rr2", "fresno", "Ripening Rm 2", ["ripeningRoom"]),
    ("rr3", "fresno", "Ripening Rm 3", ["ripeningRoom"]),
    ("pct", "fresno", "Pre-Cool Tunnel", ["coldRoom"]),
    ("gp1", "fresno", "Glycol Pump GP-1", ["pump", "glycol"]),
    ("gp2", "fresno", "Glycol Pump GP-2", ["pump", "glycol"]),
    ("rtu", "fresno", "Office RTU", ["rtu", "ahu"]),
    ("um", "fresno", "Utility Meter", ["meter", "elec", "elecMeter", "siteMeter"]),
    ("wm", "fresno", "Well Water Meter", ["meter", "water", "waterMeter"]),
]

# points: (equip key, pointKey, navName, kind, unit, tags)
T_SENS = ["air", "temp", "sensor"]
T_SP = ["air", "temp", "sp"]
POINTS = [
    ("fza", "airTemp", "Air Temp", "Number", "°C", T_SENS),
    ("fza", "airTempSp", "Air Temp Sp", "Number", "°C", T_SP),
    ("fza", "door", "Dock Door Open", "Bool", None, ["door", "sensor"]),
    ("fzb", "airTemp", "Air Temp", "Number", "°C", T_SENS),
    ("fzb", "airTempSp", "Air Temp Sp", "Number", "°C", T_SP),
    ("fzc", "airTemp", "Air Temp", "Number", "°C", T_SENS),
    ("fzc", "airTempSp", "Air Temp Sp", "Number", "°C", T_SP),
    ("cr1", "airTemp", "Air Temp", "Number", "°C", T_SENS),
    ("cr1", "airTempSp", "Air Temp Sp", "Number", "°C", T_SP),
    ("cr1", "humidity", "Humidity", "Number", "%RH", ["air", "humidity", "sensor"]),
    ("cr2", "airTemp", "Air Temp", "Number", "°C", T_SENS),
    ("cr2", "airTempSp", "Air Temp Sp", "Number", "°C", T_SP),
    ("c1", "power", "Power", "Number", "kW", ["elec", "power", "sensor"]),
    ("c1", "suct", "Suction Pressure", "Number", "bar", ["refrig", "suction", "pressure", "sensor"]),
    ("c1", "dischTemp", "Discharge Temp", "Number", "°C", ["refrig", "discharge", "temp", "sensor"]),
    ("c2", "power", "Power", "Number", "kW", ["elec", "power", "sensor"]),
    ("c2", "suct", "Suction Pressure", "Number", "bar", ["refrig", "suction", "pressure", "sensor"]),
    ("c2", "dischTemp", "Discharge Temp", "Number", "°C", ["refrig", "discharge", "temp", "sensor"]),
    ("c3", "power", "Power", "Number", "kW", ["elec", "power", "sensor"]),
    ("c3", "suct", "Suction Pressure", "Number", "bar", ["refrig", "suction", "pressure", "sensor"]),
    ("c3", "dischTemp", "Discharge Temp", "Number", "°C", ["refrig", "discharge", "temp", "sensor"]),
    ("ec1", "fanSpeed", "Fan Speed", "Number", "%", ["fan", "speed", "sensor"]),
    ("ec1", "condPress", "Condensing Pressure", "Number", "bar", ["refrig", "condenser", "pressure", "sensor"]),
    ("ec1", "sumpTemp", "Sump Water Temp", "Number", "°C", ["water", "temp", "sensor"]),
    ("m1", "power", "Power", "Number", "kW", ["elec", "power", "sensor"]),
    ("m1", "energy", "Energy", "Number", "kWh", ["elec", "energy", "sensor"]),
    ("tk1", "level", "Level", "Number", "%", ["water", "level", "sensor"]),
    ("tk1", "waterTemp", "Water Temp", "Number", "°C", ["water", "temp", "sensor"]),
    ("ups", "load", "Load", "Number", "%", ["load", "sensor"]),
    ("ups", "batt", "Battery Charge", "Number", "%", ["battery", "charge", "sensor"]),
    ("ups", "power", "Output Power", "Number", "kW", ["elec", "power", "output", "sensor"]),
    ("rr1", "airTemp", "Air Temp", "Number", "°F", T_SENS),
    ("rr1", "airTempSp", "Air Temp Sp", "Number", "°F", T_SP),
    ("rr1", "ethylene", "Ethylene", "Number", "ppm", ["air", "ethylene", "concentration", "sensor"]),
    ("rr1", "humidity", "Humidity", "Number", "%RH", ["air", "humidity", "sensor"]),
    ("rr2", "airTemp", "Air Temp", "Number", "°F", T_SENS),
    ("rr2", "airTempSp", "Air Temp Sp", "Number", "°F", T_SP),
    ("rr2", "ethylene", "Ethylene", "Number", "ppm", ["air", "ethylene", "concentration", "sensor"]),
    ("rr2", "humidity", "Humidity", "Number", "%RH", ["air", "humidity", "sensor"]),
    ("rr3", "airTemp", "Air Temp", "Number", "°F", T_SENS),
    ("rr3", "airTempSp", "Air Temp Sp", "Number", "°F", T_SP),
    ("rr3", "ethylene", "Ethylene", "Number", "ppm", ["air", "ethylene", "concentration", "sensor"]),
    ("rr3", "humidity", "Humidity", "Number", "%RH", ["air", "humidity", "sensor"]),
    ("pct", "airTemp", "Air Temp", "Number", "°F", T_SENS),
    ("pct", "fanPower", "Fan Power", "Number", "kW", ["fan", "elec", "power", "sensor"]),
    ("gp1", "power", "Power", "Number", "kW", ["elec", "power", "sensor"]),
    ("gp1", "flow", "Flow", "Number", "gal/min", ["glycol", "flow", "sensor"]),
    ("gp2", "power", "Power", "Number", "kW", ["elec", "power", "sensor"]),
    ("gp2", "flow", "Flow", "Number", "gal/min", ["glycol", "flow", "sensor"]),
    ("rtu", "dat", "Discharge Air Temp", "Number", "°F", ["discharge", "air", "temp", "sensor"]),
    ("rtu", "rat", "Return Air Temp", "Number", "°F", ["return", "air", "temp", "sensor"]),
    ("rtu", "datSp", "Discharge Air Temp Sp", "Number", "°F", ["discharge", "air", "temp", "sp"]),
    ("um", "power", "Power", "Number", "kW", ["elec", "power", "sensor"]),
    ("wm", "flow", "Flow", "Number", "gal/min", ["water", "flow", "sensor"]),
    ("wm", "volume", "Volume", "Number", "gal", ["water", "volume", "sensor"]),
]


def grid_times(zone, end_local):
    z = ZoneInfo(zone)
    t = datetime(2024, 3, 18, tzinfo=z).astimezone(timezone.utc)
    end = datetime(*end_local, tzinfo=z).astimezone(timezone.utc)
    out = []
    while t < end:
        out.append(t.astimezone(z))
        t += STEP
    return out


def local_features(times):
    hod = np.array([t.hour + t.minute / 60 for t in times])
    day = np.array([(t.date() - times[0].date()).days for t in times])
    dow = np.array([t.weekday() for t in times])  # Mon=0
    return hod, day, dow


def mask(times, start, end):
    """True for local times in [start, end) given as (y, m, d, H, M) local tuples."""
    z = times[0].tzinfo
    s = datetime(*start, tzinfo=z)
    e = datetime(*end, tzinfo=z)
    return np.array([s <= t < e for t in times])


def smooth(x, k):
    ker = np.ones(k) / k
    return np.convolve(np.pad(x, (k // 2, k - 1 - k // 2), mode="edge"), ker, mode="valid")


def bump(times, start, hours, height):
    """A raised-cosine bump starting at local start (tuple), lasting hours."""
    z = times[0].tzinfo
    s = datetime(*start, tzinfo=z)
    out = np.zeros(len(times))
    for i, t in enumerate(times):
        h = (t - s).total_seconds() / 3600
        if 0 <= h <= hours:
            out[i] = height * np.sin(np.pi * h / hours)
    return out


def make_botlek(rng, times):
    n = len(times)
    hod, day, dow = local_features(times)
    work = ((dow < 5) | ((dow == 5) & (hod < 14))) & (hod >= 6) & (hod < 22)
    s = {}
    # --- freezers: defrost every 6 h (00, 06, 12, 18) for 30 min, temperature rises
    defrost_phase = (hod % 6)
    dfr = np.where(defrost_phase < 0.5, 1.0, np.where(defrost_phase < 1.0, 0.45, 0.0))
    door = work & (rng.random(n) < 0.35)
    fza = -23.6 + rng.normal(0, 0.25, n) + 2.6 * dfr + 0.5 * door
    fza += bump(times, (2024, 3, 26, 9, 0), 4.5, 5.5)   # door left open on Tue 26 Mar
    fza += bump(times, (2024, 4, 4, 14, 0), 2.0, 2.0)
    s["fza.airTemp"] = fza
    s["fza.airTempSp"] = np.full(n, -24.0)
    s["fza.door"] = door
    fzb = -21.9 + rng.normal(0, 0.3, n) + 3.1 * dfr + 0.6 * door
    fzb += bump(times, (2024, 4, 3, 11, 0), 6.0, 6.0)   # evaporator icing, Wed 3 Apr
    fzb += bump(times, (2024, 3, 21, 15, 0), 3.0, 2.5)
    s["fzb.airTemp"] = fzb
    s["fzb.airTempSp"] = np.full(n, -22.0)
    load = np.zeros(n)
    for d in range(21):
        for h0 in (7.0, 13.0):
            if dow[np.argmax(day == d)] < 6:
                load += np.where((day == d) & (hod >= h0) & (hod < h0 + 1.5), 1.0, 0.0)
    fzc = -35.2 + rng.normal(0, 0.3, n) + 3.2 * smooth(load, 4)
    s["fzc.airTemp"] = np.minimum(fzc, -30.4)
    s["fzc.airTempSp"] = np.full(n, -35.0)
    # --- chill rooms
    cr1 = 3.0 + rng.normal(0, 0.18, n) + 0.6 * smooth(work.astype(float), 8) * (rng.random(n) < 0.6)
    s["cr1.airTemp"] = cr1
    s["cr1.airTempSp"] = np.full(n, 3.0)
    s["cr1.humidity"] = 88.0 + 2.5 * np.sin(2 * np.pi * (hod - 4) / 24) + rng.normal(0, 0.8, n) - 3.0 * work \
        + np.where(day >= 14, 1.5, 0.0)
    cr2sp = np.where(day < 10, 4.0, 5.0)
    cr2 = cr2sp - 0.4 + rng.normal(0, 0.15, n) + 1.1 * smooth(work.astype(float), 6) \
        + bump(times, (2024, 4, 2, 10, 0), 5.0, 1.8)
    s["cr2.airTemp"] = cr2
    s["cr2.airTempSp"] = cr2sp
    # --- compressors
    base_load = 0.55 + 0.25 * smooth(work.astype(float), 8) + 0.05 * np.sin(2 * np.pi * (hod - 15) / 24)
    c1 = 190 * base_load + rng.normal(0, 6, n) + 0.2 * day
    c2 = 150 * base_load + rng.normal(0, 6, n)
    c2 = np.where((dow >= 5), 0.35 * c2, c2)  # unloads at weekends
    c3on = np.zeros(n, bool)
    for start, hours in [((2024, 3, 21, 13, 0), 5), ((2024, 3, 26, 8, 0), 9), ((2024, 4, 3, 10, 0), 10),
                         ((2024, 4, 4, 12, 0), 4), ((2024, 3, 29, 14, 0), 3)]:
        st = datetime(*start, tzinfo=times[0].tzinfo)
        c3on |= np.array([st <= t < st + timedelta(hours=hours) for t in times])
    c3 = np.where(c3on, 120 + rng.normal(0, 5, n), 0.0)
    s["c1.power"] = np.maximum(c1, 0)
    s["c2.power"] = np.maximum(c2, 0)
    s["c3.power"] = c3
    for k, p in (("c1", s["c1.power"]), ("c2", s["c2.power"]), ("c3", c3)):
        s[k + ".suct"] = 1.20 + rng.normal(0, 0.02, n) - 0.0006 * (p - 100) * (p > 1) + 0.05 * (p <= 1)
        s[k + ".dischTemp"] = np.where(p > 1, 68 + 0.09 * p + rng.normal(0, 1.0, n), 24 + rng.normal(0, 0.5, n))
    s["c1.suct"] = s["c1.suct"] + bump(times, (2024, 4, 7, 4, 0), 3.0, 0.35)   # Sunday suction spike
    s["c3.dischTemp"] = s["c3.dischTemp"] + bump(times, (2024, 4, 3, 15, 0), 2.0, 12.0)
    # --- evaporative condenser
    total = s["c1.power"] + s["c2.power"] + c3
    fan = np.clip(25 + 0.18 * total + 10 * np.sin(2 * np.pi * (hod - 9) / 24) + rng.normal(0, 3, n), 15, 100)
    s["ec1.fanSpeed"] = fan
    s["ec1.condPress"] = 9.5 + 0.004 * total + 0.6 * np.sin(2 * np.pi * (hod - 10) / 24) + rng.normal(0, 0.1, n)
    s["ec1.sumpTemp"] = 14 + 3 * np.sin(2 * np.pi * (hod - 11) / 24) + 0.08 * day + rng.normal(0, 0.3, n)
    # --- UPS
    ups_load = 38 + 22 * smooth(work.astype(float), 4) + rng.normal(0, 2, n)
    s["ups.load"] = ups_load
    s["ups.power"] = ups_load / 100 * 40.0
    batt = np.full(n, 100.0)
    ev = mask(times, (2024, 4, 5, 21, 30), (2024, 4, 5, 22, 15))
    batt[ev] = [92, 84, 77]
    rec = mask(times, (2024, 4, 5, 22, 15), (2024, 4, 6, 4, 0))
    batt[rec] = np.linspace(80, 99.5, rec.sum())
    s["ups.batt"] = batt
    # --- site meter
    m1 = total + 95 + 45 * smooth(work.astype(float), 8) + 0.5 * fan + s["ups.power"] + rng.normal(0, 4, n)
    s["m1.power"] = m1
    # --- sprinkler tank
    lvl = 96.5 + rng.normal(0, 0.15, n)
    test = mask(times, (2024, 3, 28, 10, 0), (2024, 3, 28, 11, 0))
    lvl[test] -= np.array([4, 8, 12, 16])
    refill = mask(times, (2024, 3, 28, 11, 0), (2024, 3, 28, 17, 0))
    lvl[refill] -= np.linspace(15, 0.5, refill.sum())
    s["tk1.level"] = lvl
    s["tk1.waterTemp"] = 9 + 1.5 * np.sin(2 * np.pi * (hod - 15) / 24) + 0.05 * day + rng.normal(0, 0.1, n)
    return s


def make_fresno(rng, times):
    n = len(times)
    hod, day, dow = local_features(times)
    work = (dow < 6) & (hod >= 5) & (hod < 19)
    s = {}
    # --- ripening rooms: cycles of gassing (24 h ethylene ~100-150 ppm) then pull-down
    def room(cycle_starts, sp_hi, sp_lo, eth_peak, seed_off):
        sp = np.full(n, 56.0)
        eth = 0.4 + np.abs(rng.normal(0, 0.3, n))
        z = times[0].tzinfo
        for st in cycle_starts:
            t0 = datetime(*st, tzinfo=z)
            h = np.array([(t - t0).total_seconds() / 3600 for t in times])
            inc = (h >= 0) & (h < 96)
            sp = np.where(inc & (h < 24), sp_hi, np.where(inc & (h < 48), sp_hi - 2,
                          np.where(inc & (h < 72), sp_lo + 2, np.where(inc, sp_lo, sp))))
            gas = (h >= 0) & (h < 24)
            eth = np.where(gas, eth_peak * (1 - np.exp(-h / 1.5)) * np.exp(-np.maximum(h - 2, 0) / 30) + 0.5, eth)
            vent = (h >= 24) & (h < 30)
            eth = np.where(vent, eth_peak * 0.45 * np.exp(-(h - 24) / 1.2) + 0.5, eth)
        temp = sp + smooth(rng.normal(0, 0.5, n), 3) + 0.6 * work
        temp = smooth(temp, 4)
        return sp, temp, eth + rng.normal(0, 0.5, n).clip(-0.3, None)

    sp1, t1, e1 = room([(2024, 3, 18, 6, 0), (2024, 3, 23, 6, 0), (2024, 3, 28, 6, 0), (2024, 4, 2, 6, 0)],
                       64, 58, 140, 1)
    sp2, t2, e2 = room([(2024, 3, 19, 8, 0), (2024, 3, 25, 8, 0), (2024, 3, 31, 8, 0), (2024, 4, 4, 8, 0)],
                       62, 57, 110, 2)
    sp3, t3, e3 = room([(2024, 3, 20, 7, 0), (2024, 3, 26, 7, 0), (2024, 4, 1, 7, 0)],
                       63, 58, 125, 3)
    # room 3 overshoots low on 3 Apr (refrigeration valve stuck) and spikes of room 1 on 4 Apr
    t3 = t3 - bump(times, (2024, 4, 3, 9, 0), 6.0, 3.5)
    t1 = t1 + bump(times, (2024, 4, 4, 12, 0), 5.0, 3.2)
    e2 = e2 + bump(times, (2024, 4, 4, 9, 0), 6.0, 45)   # room 2 the highest peak on Thu 4 Apr
    for k, sp, t, e, hb in (("rr1", sp1, t1, e1, 90), ("rr2", sp2, t2, e2, 88), ("rr3", sp3, t3, e3, 91)):
        s[k + ".airTempSp"] = sp
        s[k + ".airTemp"] = t
        s[k + ".ethylene"] = np.maximum(e, 0.0)
        s[k + ".humidity"] = hb + rng.normal(0, 1.2, n) - 0.15 * (t - 58)
    # --- pre-cool tunnel: forced-air cooling of incoming field heat
    loads = work & (hod >= 7) & (hod < 17)
    pct = 35.5 + 7.5 * smooth(loads.astype(float), 6) + rng.normal(0, 0.5, n) + 0.08 * (day % 7)
    s["pct.airTemp"] = pct
    s["pct.fanPower"] = np.where(loads, 22 + rng.normal(0, 1.0, n), 6 + rng.normal(0, 0.4, n))
    # --- glycol pumps
    gp1 = 11.2 + 2.0 * smooth(work.astype(float), 6) + rng.normal(0, 0.3, n)
    gp2 = 7.5 + 1.5 * smooth(work.astype(float), 6) + rng.normal(0, 0.3, n)
    gp2 = np.where(mask(times, (2024, 3, 29, 9, 0), (2024, 3, 29, 15, 0)), 0.0, gp2)  # maintenance stop
    s["gp1.power"] = gp1
    s["gp2.power"] = gp2
    s["gp1.flow"] = 18.5 * gp1 + rng.normal(0, 3, n)
    s["gp2.flow"] = 19.5 * gp2 + rng.normal(0, 3, n)
    # --- office RTU: heating mornings, cooling afternoons
    dat_sp = np.where(hod < 10, 88.0, 55.0)
    occ = (dow < 5) & (hod >= 6) & (hod < 18)
    dat = np.where(occ, dat_sp + rng.normal(0, 1.2, n), 70 + rng.normal(0, 1.0, n))
    dat = smooth(dat, 2)
    dat = dat - bump(times, (2024, 4, 4, 13, 0), 3.0, 6.0)
    s["rtu.dat"] = dat
    s["rtu.datSp"] = dat_sp
    s["rtu.rat"] = 71.5 + 2.0 * np.sin(2 * np.pi * (hod - 15) / 24) + rng.normal(0, 0.4, n)
    # --- well water
    flow = np.where(work, 85 + 25 * rng.random(n), 12 + 4 * rng.random(n))
    wk2 = (day >= 7) & (day < 14)
    flow = np.where(wk2 & work, flow + 12, flow)
    s["wm.flow"] = flow
    # --- site utility meter
    s["um.power"] = 210 + 140 * smooth(work.astype(float), 6) + gp1 + gp2 + s["pct.fanPower"] \
        + 30 * np.sin(2 * np.pi * (hod - 15) / 24) + rng.normal(0, 6, n) - np.where(day < 7, 0, 12) \
        + np.where(day >= 14, -20, 0)
    return s


def cumulative(times, rate_per_hour, start):
    """A cumulative register from a rate (per hour): trapezoid, rounded at the end."""
    out = np.empty(len(times))
    acc = start
    out[0] = acc
    for i in range(1, len(times)):
        dt = (times[i] - times[i - 1]).total_seconds() / 3600
        acc += (rate_per_hour[i] + rate_per_hour[i - 1]) / 2 * dt
        out[i] = acc
    return out


# gaps: (point id, local start, local end) -> samples removed
GAPS = [
    ("botlek", "c2.power", (2024, 3, 27, 10, 0), (2024, 3, 27, 16, 0)),
    ("botlek", "c2.suct", (2024, 3, 27, 10, 0), (2024, 3, 27, 16, 0)),
    ("botlek", "c2.dischTemp", (2024, 3, 27, 10, 0), (2024, 3, 27, 16, 0)),
    ("botlek", "cr1.humidity", (2024, 4, 2, 13, 0), (2024, 4, 2, 19, 30)),
    ("botlek", "m1.power", (2024, 3, 20, 2, 0), (2024, 3, 20, 3, 30)),
    ("fresno", "rr2.ethylene", (2024, 3, 26, 20, 0), (2024, 3, 27, 3, 0)),
    ("fresno", "gp1.power", (2024, 3, 27, 11, 0), (2024, 3, 27, 14, 0)),
    ("fresno", "um.power", (2024, 4, 2, 0, 0), (2024, 4, 2, 2, 0)),
]

DECIMALS = {"°C": 2, "°F": 1, "%RH": 1, "%": 1, "kW": 2, "kWh": 1, "bar": 3, "ppm": 1, "gal/min": 1, "gal": 0}


def ref(i, dis):
    return {"_kind": "ref", "val": i, "dis": dis}


M = {"_kind": "marker"}


def main():
    rng = np.random.default_rng(20240331)
    rows = []
    site_rows = []
    for sk, sd in SITES.items():
        site_rows.append({"id": ref("s." + sk, sd["dis"]), "dis": sd["dis"], "navName": sd["dis"], "site": M,
                          "tz": sd["tz"], "geoCity": sd["geoCity"], "geoCountry": sd["geoCountry"]})
    rows += site_rows
    eq_site = {}
    eq_dis = {}
    for ek, sk, dis, markers in EQUIPS:
        r = {"id": ref("e." + ek, dis), "dis": dis, "navName": dis, "equip": M,
             "siteRef": ref("s." + sk, SITES[sk]["dis"])}
        for m in markers:
            r[m] = M
        rows.append(r)
        eq_site[ek] = sk
        eq_dis[ek] = dis
    series = {}
    times = {}
    for sk in SITES:
        times[sk] = grid_times(SITES[sk]["zone"], SITES[sk]["end"])
    series.update({("botlek", k): v for k, v in make_botlek(rng, times["botlek"]).items()})
    series.update({("fresno", k): v for k, v in make_fresno(rng, times["fresno"]).items()})
    # cumulative registers
    series[("botlek", "m1.energy")] = cumulative(times["botlek"], series[("botlek", "m1.power")], 4817250.0)
    series[("fresno", "wm.volume")] = cumulative(times["fresno"], series[("fresno", "wm.flow")] * 60, 12873400.0)
    keep = {}
    for sk in SITES:
        for ek, pk, *_ in POINTS:
            if eq_site[ek] != sk:
                continue
            keep[(sk, f"{ek}.{pk}")] = np.ones(len(times[sk]), bool)
    for sk, pid, st, en in GAPS:
        keep[(sk, pid)] &= ~mask(times[sk], st, en)
    lines = ["id,ts,val"]
    for ek, pk, nav, kind, unit, tags in POINTS:
        sk = eq_site[ek]
        sd = SITES[sk]
        pid = f"p.{sk}.{ek}.{pk}"
        r = {"id": ref(pid, f"{eq_dis[ek]} {nav}"), "dis": f"{eq_dis[ek]} {nav}", "navName": nav, "point": M,
             "his": M, "equipRef": ref("e." + ek, eq_dis[ek]), "siteRef": ref("s." + sk, sd["dis"]),
             "kind": kind, "tz": sd["tz"]}
        if unit:
            r["unit"] = unit
        for t in tags:
            r[t] = M
        rows.append(r)
        vals = series[(sk, f"{ek}.{pk}")]
        kp = keep[(sk, f"{ek}.{pk}")]
        for t, v, k in zip(times[sk], vals, kp):
            if not k:
                continue
            if kind == "Bool":
                sv = "true" if v else "false"
            else:
                d = DECIMALS[unit]
                x = round(float(v), d)
                if x == 0:
                    x = 0.0
                sv = f"{x:.{d}f}" if d else f"{int(round(x))}"
            lines.append(f"{pid},{t.isoformat()},{sv}")
    cols = []
    for r in rows:
        for k in r:
            if k not in cols:
                cols.append(k)
    grid = {"_kind": "grid", "meta": {"ver": "3.0"}, "cols": [{"name": c} for c in cols], "rows": rows}
    with open(os.path.join(OUT, "plant.json"), "w", encoding="utf-8", newline="\n") as f:
        json.dump(grid, f, ensure_ascii=False, indent=1)
        f.write("\n")
    with open(os.path.join(OUT, "plant.csv"), "w", encoding="utf-8", newline="\n") as f:
        f.write("\n".join(lines) + "\n")
    print(f"{len(rows)} records, {len(lines) - 1} samples", file=sys.stderr)


if __name__ == "__main__":
    main()
