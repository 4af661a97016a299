"""Make the blind-17 plant: plant.json (Haystack 4 JSON grid) and plant.csv.gz (15-minute histories).

Three sites of new kinds, Mon 2026-03-23 00:00 to Mon 2026-04-13 00:00 site-local (3 weeks, Easter in the middle):
  Ol Kalou Dairy            a milk processing plant in Kenya's highlands: milk reception (an intake totaliser in L),
                            three raw milk silos, two HTST pasteurisers (holding tube temp and its setpoint), a
                            homogeniser, two CIP sets (terse instrument names TT01 / QT02 / FT03), three ammonia screw
                            compressors, the ice water tank, the cold store, a steam boiler on fuel oil, the NH3 plant
                            sub-meter and the main incomer (kWh registers)
                            (Africa/Nairobi, SI; +03:00 all along)
  Shek Mun Aquatic Centre   an indoor aquatic centre: three pools (water temp and its setpoint, free chlorine, pH),
                            three filter pumps, two pool hall dehumidifying AHUs (terse BMS names RAT, RAH, RAH_SP...),
                            two LTHW boilers on town gas, the main pool PHE, the main electricity meter and the gas
                            meter (registers) (Asia/Hong_Kong, SI; +08:00 all along)
  Tyenna Pumped Storage     a pumped-storage hydro station in Tasmania: three reversible units (signed Active Power in
                            MW: + generating, - pumping; Gen Energy / Pump Energy registers in MWh), the upper and the
                            lower reservoir (level in m, storage in %), the penstock, the station service meter
                            (Australia/Hobart, SI; +11:00, clocks go BACK on Sun 5 Apr 2026 03:00 -> 02:00: a 25-hour
                            day, then +10:00)

Fixed seed; the same run gives byte-identical files (gzip mtime 0, no file name in the header).
Usage: python bench/blind17/make_plant.py
"""

from __future__ import annotations

import datetime as dt
import sys
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))
from blindkit.plant import Plant, by_date, centred, daily, keep_gap, lag, put, register  # noqa: E402

SEED = 20260405
START = dt.date(2026, 3, 23)
END = dt.date(2026, 4, 13)
D = dt.date


G = Plant(SEED, START, END)
Site, noise, clipn, per_day, equip, point = G.site, G.noise, G.clipn, G.per_day, G.equip, G.point

okd = Site("okd", "Ol Kalou Dairy", "Africa/Nairobi", "Nairobi", "Ol Kalou")
sma = Site("sma", "Shek Mun Aquatic Centre", "Asia/Hong_Kong", "Hong_Kong", "Hong Kong")
tps = Site("tps", "Tyenna Pumped Storage", "Australia/Hobart", "Hobart", "Maydena")
SITES = [okd, sma, tps]


def between(s, d0: dt.date, d1: dt.date) -> np.ndarray:
    """Samples of the local days d0 .. d1, both included."""
    return np.array([d0 <= d <= d1 for d in s.date])


# ----- Ol Kalou Dairy (Nairobi, SI) ----------------------------------------------------------------------------------
s = okd
MAR26, MAR28 = D(2026, 3, 26), D(2026, 3, 28)
APR7, APR8, APR9, APR10 = D(2026, 4, 7), D(2026, 4, 8), D(2026, 4, 9), D(2026, 4, 10)

# milk reception 05:00-13:00 every day (the cows do not keep Easter)
recv = s.hours(5.0, 13.0)
intake = np.where(recv, 31000.0 + noise(s, 900.0), 0.0)
mr = equip(s, "e01", "Milk Reception", ["milkReception", "milk"])
point(mr, "Intake Flow", "Number", "L/h", ["milk", "entering", "flow", "sensor"], intake)
point(mr, "Intake Total", "Number", "L", ["milk", "volume", "sensor"], register(s, intake, 48_512_330.0))
point(mr, "Intake Temp", "Number", "°C", ["milk", "entering", "temp", "sensor"],
      np.where(recv, 15.5 + daily(s, 1.5, 12.0) + noise(s, 0.3), 11.0 + noise(s, 0.2)))  # fmt: skip

# raw milk silos: filled 05:00-13:00, drawn by the pasteurisers 06:00-22:00; warm milk in lifts the temp a little.
# Sat 28 Mar: the ice bank runs out at midday, Silo 2's milk climbs above 6 degC 14:00-17:15 (14 samples, 3.5 h)
prod = s.hours(6.0, 22.0)
for i, (lvl0, amp) in enumerate(((35.0, 40.0), (30.0, 45.0), (40.0, 30.0)), start=1):
    si = equip(s, f"e{1 + i:02d}", f"Silo {i}", ["tank", "milk"])
    fill = np.clip((s.hour - 5.0) / 8.0, 0.0, 1.0)
    draw = np.clip((s.hour - 13.0) / 9.0, 0.0, 1.0)
    level = lvl0 + amp * (fill - draw) + noise(s, 0.4)
    temp = 3.9 + 0.5 * np.where(recv, 1.0, 0.0) + clipn(s, 0.12, 0.3)
    if i == 2:
        put(s, temp, MAR28, {12.0: 4.6, 12.25: 4.8, 12.5: 5.0, 12.75: 5.2, 13.0: 5.4, 13.25: 5.6, 13.5: 5.8,
                             13.75: 5.85, 14.0: 6.3, 14.25: 6.6, 14.5: 6.9, 14.75: 7.1, 15.0: 7.3, 15.25: 7.4,
                             15.5: 7.3, 15.75: 7.2, 16.0: 7.0, 16.25: 6.8, 16.5: 6.6, 16.75: 6.4, 17.0: 6.3,
                             17.25: 6.2, 17.5: 5.8, 17.75: 5.4, 18.0: 5.0, 18.25: 4.6})  # fmt: skip
    point(si, "Level", "Number", "%", ["milk", "level", "sensor"], level)
    point(si, "Milk Temp", "Number", "°C", ["milk", "temp", "sensor"], temp)
    point(si, "Agitator Run", "Bool", None, ["agitator", "run", "sensor"], level > 20.0)

# HTST pasteurisers, 06:00-22:00; the holding tube stays hot overnight (CIP 22:00-24:00, then on hot water).
# Pasteuriser 2: ESL product from Wed 1 Apr 06:00, its holding tube setpoint 73.0 -> 75.0 degC; Thu 9 Apr 10:15-11:00
# a hot-water set upset takes it down to 74.2 (below its setpoint, above the old one and the legal 72).
# Pasteuriser 1: Tue 7 Apr 08:00-14:00 stopped for a leaking PHE gasket.
for i, flow0 in ((1, 18500.0), (2, 14200.0)):
    p = equip(s, f"e{4 + i:02d}", f"Pasteuriser {i}", ["heatExchanger", "pasteuriser", "milk"])
    run = prod.copy()
    if i == 1:
        run = run & ~s.mask(APR7, 8.0, 14.0)
    sp = np.full(s.n, 73.0)
    if i == 2:
        sp = np.where(s.span(D(2026, 4, 1), 6.0, END, 0.0), 75.0, sp)
    tube = np.where(run, sp + 0.5 + clipn(s, 0.08, 0.2), 80.0 + clipn(s, 0.6, 1.5))
    if i == 2:
        put(s, tube, APR9, {10.0: 75.3, 10.25: 74.6, 10.5: 74.2, 10.75: 74.4, 11.0: 74.7, 11.25: 75.3})
    flow = np.where(run, flow0 + noise(s, 250.0), 0.0)
    point(p, "Milk Flow", "Number", "L/h", ["milk", "flow", "sensor"], flow)
    point(p, "Holding Tube Temp", "Number", "°C", ["milk", "temp", "sensor"], tube)
    point(p, "Holding Tube Temp SP", "Number", "°C", ["milk", "temp", "sp"], sp)
    point(p, "Hot Water Temp", "Number", "°C", ["hot", "water", "temp", "sensor"], tube + 2.4 + noise(s, 0.15))
    point(p, "Outlet Temp", "Number", "°C", ["milk", "leaving", "temp", "sensor"],
          np.where(run, 4.1 + clipn(s, 0.15, 0.4), 20.0 + noise(s, 0.5)))  # fmt: skip
    point(p, "Flow Diversion", "Bool", None, ["valve", "divert", "sensor"], ~run)

hom = equip(s, "e07", "Homogeniser 1", ["homogeniser", "milk"])
hom_run = prod & ~s.mask(APR7, 8.0, 14.0)
point(hom, "Motor Power", "Number", "kW", ["elec", "power", "sensor"], np.where(hom_run, 110.0 + noise(s, 2.5), 0.0))
point(hom, "Homogenising Pressure", "Number", "bar", ["milk", "pressure", "sensor"],
      np.where(hom_run, 180.0 + noise(s, 2.0), 0.0))  # fmt: skip


def cip_profile(site, starts: np.ndarray):
    """A CIP cycle of 2 h from every sample where `starts` is true: pre-rinse, caustic 45 min, rinse, acid 30 min,
    final rinse. Returns (supply temp, return conductivity, supply flow, stage index or -1)."""
    stage = np.full(site.n, -1)
    for k in np.flatnonzero(starts):
        for j in range(8):
            if k + j < site.n:
                stage[k + j] = j
    temp = np.select([stage == 0, (stage >= 1) & (stage <= 3), stage == 4, (stage == 5) | (stage == 6), stage == 7],
                     [24.0, 78.0, 30.0, 65.0, 24.0], 21.0)  # fmt: skip
    cond = np.select([stage == 0, (stage >= 1) & (stage <= 3), stage == 4, (stage == 5) | (stage == 6), stage == 7],
                     [1.2, 86.0, 4.0, 38.0, 0.8], 0.3)  # fmt: skip
    flow = np.where(stage >= 0, 24.0, 0.0)
    return temp, cond, flow, stage


# CIP Set 1: Pasteuriser 1 at 22:00 every day, the silos at 14:00 on Mon / Wed / Fri; CIP Set 2: Pasteuriser 2 at
# 22:00, the tanker bay at 09:00. Fri 10 Apr: CIP Set 2's caustic dosing overshoots on the 22:00 clean (138 mS/cm)
for i in (1, 2):
    c = equip(s, f"e{7 + i:02d}", f"CIP Set {i}", ["cip"])
    extra = (s.hour == 14.0) & np.isin(s.wday, [0, 2, 4]) if i == 1 else s.hour == 9.0
    starts = (s.hour == 22.0) | extra
    temp, cond, flow, stage = cip_profile(s, starts)
    temp = temp + np.where(stage >= 0, clipn(s, 0.6, 1.5), clipn(s, 0.3, 0.8))
    cond = cond * (1.0 + clipn(s, 0.03, 0.07))
    if i == 2:
        put(s, cond, APR10, {22.25: 92.4, 22.5: 138.0, 22.75: 121.5})
    flow = np.where(stage >= 0, flow + noise(s, 0.5), 0.0)
    point(c, "TT01", "Number", "°C", ["supply", "water", "temp", "sensor"], temp)
    point(c, "QT02", "Number", "mS/cm", ["return", "water", "conductivity", "sensor"], cond)
    point(c, "FT03", "Number", "m³/h", ["supply", "water", "flow", "sensor"], flow)

# ammonia screw compressors: slide valves about 55 / 70 / 85 %, rated 250 / 160 / 110 kW (the smallest works hardest,
# the largest draws the most); they load up with the milk coming in and the production
comp_kw = np.zeros(s.n)
load = np.where(prod, 1.0, 0.0) + 0.6 * recv
for i, (sv0, rated) in enumerate(((44.0, 250.0), (59.0, 160.0), (74.0, 110.0)), start=1):
    c = equip(s, f"e{9 + i:02d}", f"Ammonia Compressor {i}", ["compressor", "refrig", "ammonia"])
    sv = np.clip(sv0 + 14.0 * load + noise(s, 1.5), 10.0, 100.0)
    kw = rated * (0.3 + 0.7 * sv / 100.0) + noise(s, 1.5)
    comp_kw += kw
    suction = 1.9 + clipn(s, 0.05, 0.12)
    point(c, "Suction Pressure", "Number", "bar", ["refrig", "suction", "pressure", "sensor"], suction)
    point(c, "Discharge Pressure", "Number", "bar", ["refrig", "discharge", "pressure", "sensor"],
          11.4 + daily(s, 0.5, 14.0) + noise(s, 0.1))  # fmt: skip
    point(c, "Slide Valve", "Number", "%", ["capacity", "sensor"], sv)
    point(c, "Motor Power", "Number", "kW", ["elec", "power", "sensor"], kw)
    point(c, "Run", "Bool", None, ["run", "sensor"], np.ones(s.n, bool))

# the ice water tank: Sat 28 Mar the ice bank runs out 12:00-19:00
iw = equip(s, "e13", "Ice Water Tank", ["tank", "chilled", "water"])
iwt = 0.9 + clipn(s, 0.12, 0.3) + 3.4 * np.where(s.mask(MAR28, 12.0, 19.0), np.sin(
    np.pi * np.clip((s.hour - 12.0) / 7.0, 0.0, 1.0)), 0.0)  # fmt: skip
point(iw, "Ice Water Temp", "Number", "°C", ["chilled", "water", "temp", "sensor"], iwt)
point(iw, "Ice Water Temp SP", "Number", "°C", ["chilled", "water", "temp", "sp"], np.full(s.n, 1.0))

# the cold store: the logger drops out Tue 7 Apr 01:00-05:00
cs = equip(s, "e14", "Cold Store", ["coldRoom", "refrig"])
point(cs, "Room Temp", "Number", "°C", ["air", "temp", "sensor"], 3.1 + daily(s, 0.5, 15.0) + clipn(s, 0.15, 0.4),
      keep_gap(s, APR7, 1.0))  # fmt: skip
point(cs, "Room Temp SP", "Number", "°C", ["air", "temp", "sp"], np.full(s.n, 3.0))

# the steam boiler on fuel oil: kg of steam per litre of oil 13.5 until the burner service Tue 7 Apr 18:00, 14.6 after;
# Thu 9 Apr 00:00-03:00 on low fire with a fouled atomiser, 12.8
b = equip(s, "e15", "Boiler 1", ["boiler", "steam"])
steam = np.where(prod, 3600.0, 1400.0) + np.where(s.hours(22.0, 24.0), 1100.0, 0.0) + noise(s, 60.0)
ratio = 13.5 + clipn(s, 0.04, 0.1)
ratio = np.where(s.span(APR7, 18.0, END, 0.0), 14.6 + clipn(s, 0.04, 0.1), ratio)
ratio = np.where(s.mask(APR9, 0.0, 3.0), 12.8 + clipn(s, 0.04, 0.1), ratio)
point(b, "Steam Pressure", "Number", "bar", ["steam", "pressure", "sensor"], 10.2 + clipn(s, 0.08, 0.2))
point(b, "Steam Flow", "Number", "kg/h", ["steam", "flow", "sensor"], steam)
point(b, "Fuel Flow", "Number", "L/h", ["fuelOil", "flow", "sensor"], steam / ratio)
point(b, "Stack Temp", "Number", "°C", ["exhaust", "temp", "sensor"], 205.0 + 0.004 * steam + noise(s, 1.5))

# the NH3 plant sub-meter: the compressors, the evaporative condensers and the ice bank agitators; Thu 26 Mar the ice
# bank is rebuilt after Wednesday's record intake, the second condenser on all day (+60 kW)
nh3 = comp_kw + 35.0 + 12.0 + 60.0 * s.day(MAR26) + noise(s, 3.0)
nm = equip(s, "e16", "NH3 Plant Meter", ["elecMeter", "meter", "elec"])
point(nm, "Active Power", "Number", "kW", ["elec", "power", "sensor"], nh3)
point(nm, "Energy", "Number", "kWh", ["elec", "energy", "import", "sensor"], register(s, nh3, 3_104_877.0))

# the site load: the NH3 plant is about 36 % of it (the process loads follow the same production), 39 % on Thu 26 Mar
share = by_date(s, {MAR26: 0.39}, 0.36) + clipn(s, 0.004, 0.01)
main = nh3 / share
mi = equip(s, "e17", "Main Incomer", ["elecMeter", "meter", "elec", "siteMeter"])
point(mi, "Active Power", "Number", "kW", ["elec", "power", "sensor"], main)
point(mi, "Energy", "Number", "kWh", ["elec", "energy", "import", "sensor"], register(s, main, 11_862_415.0))
point(mi, "Power Factor", "Number", "pf", ["elec", "pf", "sensor"], 0.94 + noise(s, 0.004))


# ----- Shek Mun Aquatic Centre (Hong Kong, SI) ------------------------------------------------------------------------
s = sma
MAR31, APR1, APR2, APR3 = D(2026, 3, 31), D(2026, 4, 1), D(2026, 4, 2), D(2026, 4, 3)
open_ = s.hours(6.5, 22.0)
bathers = np.where(s.hours(10.0, 20.0), 1.0, np.where(open_, 0.5, 0.0))

# pools: setpoints 27.0 / 30.0 / 29.0 degC. The teaching pool: 1 Apr 30.0, 2 Apr 30.8, 3 Apr (Good Friday: the swim
# school's warm-water sessions) 32.8 degC daily means; its setpoint 31.0 from 2 Apr 06:00, 33.0 on 3 Apr.
# Main pool free chlorine: the hypochlorite dosing pump air-locks Tue 31 Mar 14:00 until Thu 2 Apr 10:00
# (down to about 0.6 mg/L); the teaching pool's dosing rate raised from Mon 30 Mar (1.45 -> 1.8 mg/L)
fc_main = 1.6 - 0.2 * bathers + clipn(s, 0.05, 0.12)
t_lock = (s.secs - s.secs[s.at(MAR31, 14.0)]) / 3600.0
lock = s.span(MAR31, 14.0, APR2, 10.0)
fc_main = np.where(lock, 0.55 + (1.5 - 0.55) * np.exp(-np.maximum(t_lock, 0.0) / 9.0) + clipn(s, 0.03, 0.08), fc_main)
t_back = (s.secs - s.secs[s.at(APR2, 10.0)]) / 3600.0
recover = s.span(APR2, 10.0, APR2, 18.0)
fc_main = np.where(recover, 0.6 + 1.0 * np.clip(t_back / 8.0, 0.0, 1.0) + clipn(s, 0.03, 0.08), fc_main)
fc_teach = np.where(np.array([d >= D(2026, 3, 30) for d in s.date]), 1.8, 1.45) - 0.15 * bathers + clipn(s, 0.05, 0.12)
fc_leis = 1.5 - 0.2 * bathers + clipn(s, 0.05, 0.12)

teach_means = {APR1: 30.0, APR2: 30.8, APR3: 32.8}
tt = by_date(s, teach_means, 30.2) + np.where(between(s, APR1, APR3), 0.0, per_day(s, 0.06))
tn = clipn(s, 0.08, 0.2) + daily(s, 0.1, 17.0)
for d in teach_means:
    tn = centred(s, tn, d)
teach_sp = np.full(s.n, 30.0)
teach_sp = np.where(s.span(APR2, 6.0, APR3, 0.0), 31.0, teach_sp)
teach_sp = np.where(s.day(APR3), 33.0, teach_sp)

pool_heat = np.zeros(s.n)
for i, (name, sp0, temp, fc, ph0) in enumerate(
    (
        ("Main Pool", 27.0, None, fc_main, 7.4),
        ("Teaching Pool", 30.0, tt + tn, fc_teach, 7.35),
        ("Leisure Pool", 29.0, None, fc_leis, 7.45),
    ),
    start=1,
):
    pe = equip(s, f"e{i:02d}", name, ["pool", "water"])
    sp = teach_sp if name == "Teaching Pool" else np.full(s.n, sp0)
    wt = temp if temp is not None else sp + 0.2 + daily(s, 0.12, 17.0) + clipn(s, 0.06, 0.15)
    keep = keep_gap(s, D(2026, 3, 26), 9.0) if name == "Leisure Pool" else None  # the pH probe recalibrated
    point(pe, "Water Temp", "Number", "°C", ["water", "temp", "sensor"], wt)
    point(pe, "Water Temp SP", "Number", "°C", ["water", "temp", "sp"], sp)
    point(pe, "Free Chlorine", "Number", "mg/L", ["water", "chlorine", "sensor"], fc)
    point(pe, "pH", "Number", "pH", ["water", "ph", "sensor"], ph0 + clipn(s, 0.03, 0.08), keep)

# filter pumps (one per pool, the names do not say which): 24 h; backwash Mon and Thu 06:00 resets the filter DP
fp_kw = np.zeros(s.n)
backwash = np.isin(s.wday, [0, 3]) & (s.hour == 6.0)
since = np.zeros(s.n)
for k in range(1, s.n):
    since[k] = 0.0 if backwash[k] else since[k - 1] + 0.25
for i, (q0, kw0, dp0) in enumerate(((450.0, 30.0, 28.0), (95.0, 6.0, 22.0), (170.0, 12.0, 25.0)), start=1):
    fp = equip(s, f"e{3 + i:02d}", f"Filter Pump {i}", ["pump", "water"])
    dp = dp0 + 0.12 * since + clipn(s, 0.3, 0.8)
    q = q0 * (1.0 - 0.0015 * since) + noise(s, q0 * 0.006)
    kw = kw0 + clipn(s, 0.2, 0.5)
    fp_kw += kw
    point(fp, "Flow", "Number", "m³/h", ["water", "flow", "sensor"], q)
    point(fp, "Motor Power", "Number", "kW", ["elec", "power", "sensor"], kw)
    point(fp, "Filter DP", "Number", "kPa", ["water", "filter", "pressure", "delta", "sensor"], dp)
    point(fp, "Run", "Bool", None, ["run", "sensor"], np.ones(s.n, bool))

# pool hall dehumidifying AHUs: return RH setpoint 60 %RH. PHAHU-2's compressor fails Wed 8 Apr 11:30-17:30: its return
# RH above 60 from 12:00 to 17:15 (22 samples, 5.5 h), up to 66.4
ahu_kw = np.zeros(s.n)
for i in (1, 2):
    a = equip(s, f"e{6 + i:02d}", f"PHAHU-{i}", ["ahu", "dehumidifier"])
    rh = 55.8 + 0.8 * bathers + daily(s, 0.6, 15.0) + clipn(s, 0.35, 0.9)
    comp = 38.0 + 6.0 * bathers + noise(s, 0.8)
    if i == 2:
        fault = s.mask(APR8, 11.5, 17.5)
        comp = np.where(fault, 0.0, comp)
        put(s, rh, APR8, {11.5: 58.3, 11.75: 59.4, 12.0: 60.5, 12.25: 61.2, 12.5: 61.9, 12.75: 62.4, 13.0: 63.0,
                          13.25: 63.6, 13.5: 64.1, 13.75: 64.5, 14.0: 64.9, 14.25: 65.3, 14.5: 65.6, 14.75: 65.9,
                          15.0: 66.2, 15.25: 66.4, 15.5: 66.1, 15.75: 65.7, 16.0: 65.0, 16.25: 64.2, 16.5: 63.4,
                          16.75: 62.5, 17.0: 61.6, 17.25: 60.7, 17.5: 59.6, 17.75: 58.7})  # fmt: skip
    rat = 29.6 + 0.4 * bathers + clipn(s, 0.12, 0.3)
    fan = 18.0 + 3.0 * np.where(open_, 1.0, 0.0) + noise(s, 0.3)
    ahu_kw += comp + fan
    point(a, "RAT", "Number", "°C", ["return", "air", "temp", "sensor"], rat)
    point(a, "RAH", "Number", "%RH", ["return", "air", "humidity", "sensor"], rh)
    point(a, "RAH_SP", "Number", "%RH", ["return", "air", "humidity", "sp"], np.full(s.n, 60.0))
    point(a, "SAT", "Number", "°C", ["discharge", "air", "temp", "sensor"], 33.5 + clipn(s, 0.3, 0.7))
    point(a, "SF_KW", "Number", "kW", ["discharge", "fan", "elec", "power", "sensor"], fan)
    point(a, "COMP_KW", "Number", "kW", ["compressor", "elec", "power", "sensor"], comp)

# LTHW boilers on town gas: Boiler 1 the larger (60 m3/h at full fire) at 30-45 %, Boiler 2 (30 m3/h) at 50-65 %
gas = np.zeros(s.n)
heat = 0.5 + daily(s, 0.25, 5.0) + per_day(s, 0.04)
for i, (full, fire0) in enumerate(((60.0, 37.0), (30.0, 57.0)), start=1):
    bo = equip(s, f"e{8 + i:02d}", f"Boiler {i}", ["boiler", "hotWater"])
    fire = np.clip(fire0 + 14.0 * (heat - 0.5) + noise(s, 1.5), 5.0, 100.0)
    g = full * fire / 100.0
    gas += g
    point(bo, "Flow Temp", "Number", "°C", ["hot", "water", "leaving", "temp", "sensor"], 80.0 + clipn(s, 0.4, 1.0))
    point(bo, "Flow Temp SP", "Number", "°C", ["hot", "water", "leaving", "temp", "sp"], np.full(s.n, 80.0))
    point(bo, "Return Temp", "Number", "°C", ["hot", "water", "entering", "temp", "sensor"], 64.0 + clipn(s, 0.6, 1.5))
    point(bo, "Gas Flow", "Number", "m³/h", ["naturalGas", "flow", "sensor"], g)
    point(bo, "Firing Rate", "Number", "%", ["fire", "sensor"], fire)

phe = equip(s, "e11", "Main Pool PHE", ["heatExchanger"])
primary = 79.0 + clipn(s, 0.4, 1.0)
point(phe, "Primary Flow Temp", "Number", "°C", ["hot", "water", "entering", "temp", "sensor"], primary)
point(phe, "Secondary Out Temp", "Number", "°C", ["water", "leaving", "temp", "sensor"], 29.5 + clipn(s, 0.2, 0.5))
point(phe, "Control Valve", "Number", "%", ["valve", "cmd"], np.clip(40.0 + 20.0 * (heat - 0.5) + noise(s, 2.0),
      0.0, 100.0))  # fmt: skip

# the main electricity meter: pumps, AHUs, lighting when open, the cafe and the offices; Sat 4 and Sun 5 Apr the
# Easter swimming gala (competition lighting, timing, the PA: +70 kW 07:00-21:00)
gala = s.days([D(2026, 4, 4), D(2026, 4, 5)]) & s.hours(7.0, 21.0)
elec = fp_kw + ahu_kw + np.where(open_, 95.0, 30.0) + 70.0 * gala + 22.0 + daily(s, 6.0, 14.0) + noise(s, 3.0)
em = equip(s, "e12", "Main Meter", ["elecMeter", "meter", "elec", "siteMeter"])
point(em, "Active Power", "Number", "kW", ["elec", "power", "sensor"], elec)
point(em, "Energy", "Number", "kWh", ["elec", "energy", "import", "sensor"], register(s, elec, 2_418_660.0))
gm_flow = gas + np.where(open_, 1.8, 0.3) + clipn(s, 0.1, 0.25)
gm = equip(s, "e13", "Gas Meter", ["gasMeter", "meter", "naturalGas"])
point(gm, "Gas Flow", "Number", "m³/h", ["naturalGas", "flow", "sensor"], gm_flow)
point(gm, "Gas Volume", "Number", "m³", ["naturalGas", "volume", "sensor"], register(s, gm_flow, 905_233.0))


# ----- Tyenna Pumped Storage (Hobart, SI) -----------------------------------------------------------------------------
s = tps
MAR26T, MAR31T, APR1T, APR2T, APR3T = D(2026, 3, 26), D(2026, 3, 31), D(2026, 4, 1), D(2026, 4, 2), D(2026, 4, 3)
APR7T, APR8T, APR9T = D(2026, 4, 7), D(2026, 4, 8), D(2026, 4, 9)
WEEK0 = between(s, D(2026, 3, 23), D(2026, 3, 29))
WEEK1 = between(s, D(2026, 3, 30), D(2026, 4, 5))


def runs(site, spans: list[tuple[float, float]]) -> np.ndarray:
    """Every day's samples inside any of the clock-hour spans."""
    m = np.zeros(site.n, bool)
    for h0, h1 in spans:
        m |= site.hours(h0, h1)
    return m


# mode per unit: +1 generating, -1 pumping, 0 standstill; the gen setpoint in MW
mode = {u: np.zeros(s.n, int) for u in (1, 2, 3)}
gen_mw = {1: 150.0, 2: 140.0, 3: 120.0}
sp_mw = {u: np.full(s.n, gen_mw[u]) for u in (1, 2, 3)}
# the usual day: pump overnight, generate at the morning (Unit 1) and the evening peaks
pump = {1: runs(s, [(0.0, 5.5)]), 2: runs(s, [(0.5, 4.0)]), 3: runs(s, [(1.0, 5.0)])}
gen = {1: runs(s, [(7.0, 9.5), (17.0, 20.5)]), 2: runs(s, [(17.0, 20.5)]), 3: runs(s, [(17.5, 20.0)])}
# the week of 23 Mar: Unit 1 the lead unit both ways (pumps 00:00-06:30, generates 07:00-10:00 and 16:30-20:30)
pump[1] = np.where(WEEK0, runs(s, [(0.0, 6.5)]), pump[1])
gen[1] = np.where(WEEK0, runs(s, [(7.0, 10.0), (16.5, 20.5)]), gen[1])
# the week of 30 Mar: Unit 1 pumps less (01:00-05:30); the others take more of the pumping
pump[1] = np.where(WEEK1, runs(s, [(1.0, 5.5)]), pump[1])
pump[2] = np.where(WEEK1, runs(s, [(0.0, 4.5)]), pump[2])
pump[3] = np.where(WEEK1, runs(s, [(0.5, 5.5)]), pump[3])
# Thu 2 and Fri 3 Apr (Good Friday): a cold snap and a Basslink export; Unit 2 generates most of the day, Unit 3 longer
for d in (APR2T, APR3T):
    gen[2] = gen[2] | s.mask(d, 7.0, 12.0) | s.mask(d, 15.5, 17.0)
    gen[3] = gen[3] | s.mask(d, 16.0, 17.5)
# Sat 4 Apr: refilling the upper reservoir, Units 1 and 2 pump 00:00-07:00, no morning generation
for d in (D(2026, 4, 4),):
    for u in (1, 2):
        pump[u] = pump[u] | s.mask(d, 0.0, 7.0)
        gen[u] = gen[u] & ~s.mask(d, 7.0, 10.0)
# Tue 31 Mar: Unit 3 held at part load (70 MW) 17:00-21:00 in its rough zone
gen[3] = gen[3] | s.mask(MAR31T, 17.0, 21.0)
sp_mw[3] = np.where(s.mask(MAR31T, 17.0, 21.0), 70.0, sp_mw[3])
# the night of Tue 7 to Wed 8 Apr: Unit 1 pumps 23:00-05:30, Unit 3 00:00-05:00, Unit 2 only 01:00-03:30
pump[1] = pump[1] | s.mask(APR7T, 23.0, 24.0)
pump[2] = np.where(s.day(APR8T), s.mask(APR8T, 1.0, 3.5), pump[2])
pump[3] = np.where(s.day(APR8T), s.mask(APR8T, 0.0, 5.0), pump[3])
# Wed 8 Apr: Unit 3 on at 17:00 for the evening peak
gen[3] = gen[3] | s.mask(APR8T, 17.0, 20.0)
# Thu 9 Apr: Unit 2 on at 15:00; its thrust bearing runs away, it trips at 16:45 and stays off
gen[2] = np.where(s.day(APR9T), s.mask(APR9T, 15.0, 16.75), gen[2])
trip2 = s.mask(APR9T, 16.75, 18.75)
for u in (1, 2, 3):
    mode[u] = np.where(gen[u], 1, np.where(pump[u], -1, 0))

# the reservoirs: the upper one's storage (%) falls by 1 % per 75 MWh generated and rises by 0.78 % per 75 MWh
# pumped; its level 805 m + 0.2 m per %; the lower one mirrors it
storage = np.zeros(s.n)
head = np.zeros(s.n)
mw = {u: np.zeros(s.n) for u in (1, 2, 3)}
pn = {u: clipn(s, 0.6, 1.4) for u in (1, 2, 3)}
gn = {u: clipn(s, 0.8, 2.0) for u in (1, 2, 3)}
cur = 63.4
for k in range(s.n):
    up_level = 805.0 + 0.2 * cur
    low_level = 300.0 + 0.08 * (100.0 - cur)
    hd = up_level - low_level
    head[k] = hd
    storage[k] = cur
    net = 0.0
    for u in (1, 2, 3):
        if mode[u][k] > 0:
            mw[u][k] = sp_mw[u][k] + gn[u][k]
        elif mode[u][k] < 0:
            mw[u][k] = -(163.0 + 0.25 * (hd - 505.0)) + pn[u][k]
        net += mw[u][k]
    # 15 minutes of generation (MW x 0.25 h) and pumping at 78 % round trip
    gen_mwh = sum(max(mw[u][k], 0.0) for u in (1, 2, 3)) * 0.25
    pump_mwh = sum(max(-mw[u][k], 0.0) for u in (1, 2, 3)) * 0.25
    cur = cur - gen_mwh / 75.0 + 0.78 * pump_mwh / 75.0
# Unit 1's deepest pumping draw: Thu 26 Mar 05:15
put(s, mw[1], MAR26T, {5.25: -176.4})

up_lvl = 805.0 + 0.2 * storage
low_lvl = 300.0 + 0.08 * (100.0 - storage)
desc = "Net active power at the generator terminals: positive when generating (export), negative when pumping (import)"
aux_running = np.zeros(s.n)
q_total = np.zeros(s.n)
for u in (1, 2, 3):
    un = equip(s, f"e{u:02d}", f"Unit {u}", ["hydro", "turbine", "generator", "motor"])
    p = mw[u]
    on = p != 0.0
    aux_running += on
    q = np.abs(p) * 1e6 / (1000.0 * 9.81 * head * 0.9)
    q_total += q
    gvo = np.where(p > 0, 20.0 + 0.45 * p, np.where(p < 0, 72.0, 0.0)) + np.where(on, noise(s, 0.6), 0.0)
    target = np.where(on, 57.0 + (1.5 if u == 1 else 0.0), 38.0)
    thrust = lag(target, 0.12) + clipn(s, 0.15, 0.4)
    vib = np.where(on, 2.1 + clipn(s, 0.25, 0.6), 0.25 + clipn(s, 0.05, 0.1))
    if u == 3:
        put(s, vib, MAR31T, {17.0: 4.7, 17.25: 4.9, 17.5: 5.1, 17.75: 5.3, 18.0: 5.2, 18.25: 5.5, 18.5: 5.4,
                             18.75: 5.6, 19.0: 5.3, 19.25: 5.1, 19.5: 4.9, 19.75: 4.8, 20.0: 4.7, 20.25: 4.2,
                             20.5: 3.6, 20.75: 3.1})  # fmt: skip
        put(s, thrust, APR1T, {18.75: 61.5, 19.0: 65.8, 19.25: 69.4, 19.5: 71.2, 19.75: 68.3, 20.0: 63.9})
    if u == 2:
        put(s, thrust, APR9T, {15.5: 60.2, 15.75: 64.5, 16.0: 69.8, 16.25: 77.1, 16.5: 78.4, 16.75: 77.6, 17.0: 75.8,
                               17.25: 73.5, 17.5: 70.9, 17.75: 68.0, 18.0: 65.2, 18.25: 62.6, 18.5: 60.1, 18.75: 57.8,
                               19.0: 55.6, 19.25: 53.5})  # fmt: skip
    stator = lag(np.where(on, 68.0 + 0.06 * np.abs(p), 30.0), 0.1) + clipn(s, 0.3, 0.7)
    point(un, "Active Power", "Number", "MW", ["elec", "power", "sensor"], p, desc=desc)
    point(un, "Gen Energy", "Number", "MWh", ["elec", "energy", "export", "sensor"],
          register(s, np.maximum(p, 0.0), 412_800.0 + 35_000.0 * u))  # fmt: skip
    point(un, "Pump Energy", "Number", "MWh", ["elec", "energy", "import", "sensor"],
          register(s, np.maximum(-p, 0.0), 530_150.0 + 41_000.0 * u))  # fmt: skip
    point(un, "Guide Vane Opening", "Number", "%", ["position", "sensor"], gvo)
    point(un, "Speed", "Number", "rpm", ["speed", "sensor"], np.where(on, 428.6 + noise(s, 0.3), 0.0))
    point(un, "Stator Temp", "Number", "°C", ["stator", "temp", "sensor"], stator)
    point(un, "Thrust Bearing Temp", "Number", "°C", ["bearing", "temp", "sensor"], thrust)
    point(un, "Vibration", "Number", "mm/s", ["vibration", "sensor"], vib)
    point(un, "Trip", "Bool", None, ["fault", "sensor"], trip2 if u == 2 else np.zeros(s.n, bool))

ur = equip(s, "e04", "Upper Reservoir", ["reservoir", "water"])
point(ur, "Level", "Number", "m", ["water", "level", "sensor"], up_lvl + clipn(s, 0.01, 0.03))
point(ur, "Storage", "Number", "%", ["water", "volume", "sensor"], storage + clipn(s, 0.03, 0.08))
lr = equip(s, "e05", "Lower Reservoir", ["reservoir", "water"])
point(lr, "Level", "Number", "m", ["water", "level", "sensor"], low_lvl + clipn(s, 0.01, 0.03),
      keep_gap(s, D(2026, 3, 28), 10.0))  # fmt: skip
point(lr, "Storage", "Number", "%", ["water", "volume", "sensor"], 100.0 - storage + clipn(s, 0.03, 0.08))
pk = equip(s, "e06", "Penstock", ["pipe", "water"])
point(pk, "Pressure", "Number", "bar", ["water", "pressure", "sensor"], 0.0981 * (up_lvl - 292.0) - 0.012 * q_total
      + noise(s, 0.05))  # fmt: skip
point(pk, "Flow", "Number", "m³/s", ["water", "flow", "sensor"], q_total + np.where(q_total > 0, noise(s, 0.3), 0.0))

# station service: Easter Sunday 09:00-13:00 the standby diesel's load-bank test runs through the station board
# (+300 kW)
aux = 420.0 + 85.0 * aux_running + 300.0 * s.mask(D(2026, 4, 5), 9.0, 13.0) + daily(s, 30.0, 14.0) + noise(s, 8.0)
sm = equip(s, "e07", "Station Service Meter", ["elecMeter", "meter", "elec"])
point(sm, "Active Power", "Number", "kW", ["elec", "power", "sensor"], aux)
point(sm, "Energy", "Number", "kWh", ["elec", "energy", "import", "sensor"], register(s, aux, 6_551_204.0))


if __name__ == "__main__":
    G.write(HERE, SITES)
