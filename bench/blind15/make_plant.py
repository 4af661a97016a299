"""Make the blind-15 plant: plant.json (Haystack 4 JSON grid) and plant.csv.gz (15-minute histories).

Three sites of new kinds, Mon 2026-09-14 00:00 to Mon 2026-10-05 00:00 site-local (3 weeks):
  Larimer Street Brewery      a craft brewery in Denver: eight fermentation vessels (FV-01 ... FV-08) on glycol with
                              their beer temp and its setpoint, the glycol chiller, the brewhouse (mash tun, brew
                              kettle on steam), CO2 recovery (terse BMS point names), the bottling line, the main
                              electric meter (kWh register) and the water meter (gal register)
                              (America/Denver, US units; -06:00 all along)
  Griesheim Data Centre       a hyperscale-style data hall in Frankfurt: six CRAHs (supply air and its setpoint, raised
                              22 -> 24 degC on Mon 28 Sep), three chillers with free cooling, four UPS modules (signed
                              battery power: + discharging, - charging; state of charge; discharge / charge registers),
                              six PDUs, two diesel gensets (a black-building test on Wed 30 Sep), the utility incomer
                              and the IT meter (kWh registers), a heat-recovery heat pump
                              (Europe/Berlin, SI; +02:00 all along)
  Skippers Ridge Ski Area     a ski area near Queenstown: six fan snow guns, three air compressors, two pumping
                              stations (kWh registers), the snowmaking pond, the snowmaking water meter (m3 register),
                              three chairlifts, the base substation, a weather station
                              (Pacific/Auckland, SI; +12:00, clocks go FORWARD on Sun 27 Sep 2026 02:00 -> 03:00: a
                              23-hour day, then +13:00)

Fixed seed; the same run gives byte-identical files (gzip mtime 0, no file name in the header).
Usage: python bench/blind15/make_plant.py
"""

from __future__ import annotations

import datetime as dt
import math
import sys
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))
from blindkit.plant import Plant, by_date, daily, keep_gap, put, register, since  # noqa: E402

SEED = 20260927
START = dt.date(2026, 9, 14)
END = dt.date(2026, 10, 5)
D = dt.date


G = Plant(SEED, START, END)
Site, noise, clipn, equip, point = G.site, G.noise, G.clipn, G.equip, G.point


lsb = Site("lsb", "Larimer Street Brewery", "America/Denver", "Denver", "Denver")
gdc = Site("gdc", "Griesheim Data Centre", "Europe/Berlin", "Berlin", "Frankfurt am Main")
srs = Site("srs", "Skippers Ridge Ski Area", "Pacific/Auckland", "Auckland", "Queenstown")
SITES = [lsb, gdc, srs]

# ----- Larimer Street Brewery (Denver, US units) -------------------------------------------------------------------
s = lsb
h = s.hour
wd = s.wday
SEP22, SEP26, SEP28, SEP29, SEP30 = D(2026, 9, 22), D(2026, 9, 26), D(2026, 9, 28), D(2026, 9, 29), D(2026, 9, 30)
OCT1, OCT2 = D(2026, 10, 1), D(2026, 10, 2)
valve_sum = np.zeros(s.n)
ferment_act = np.zeros(s.n)  # how much CO2 the cellar gives off (arbitrary units)
# (setpoint degF, glycol valve base %, gravity degP at the start, daily drop)
FVS = (
    (50.0, 30.0, 6.5, 0.15),  # FV-01 a lager
    (67.0, 22.0, 2.8, 0.0),  # FV-02 an ale; knocked out fresh Tue 22 Sep 10:00
    (68.0, 18.0, 4.2, 0.08),  # FV-03 an ale; its glycol valve sticks shut Tue 29 Sep 20:00 - Thu 1 Oct 06:00
    (66.0, 20.0, 5.1, 0.12),  # FV-04 an ale
    (70.0, 12.0, 7.9, 0.25),  # FV-05 a saison, fermented warm
    (52.0, 32.0, 5.6, 0.10),  # FV-06 a lager
    (66.0, 20.0, 3.9, 0.05),  # FV-07 an ale; crashed Tue 29 Sep 08:00 (setpoint 66 -> 34 degF)
    (34.0, 15.0, 2.4, 0.0),  # FV-08 conditioning cold
)
for i, (sp0, v0, g0, gdrop) in enumerate(FVS, start=1):
    fv = equip(s, f"e{i:02d}", f"FV-{i:02d}", ["tank", "fermenter"])
    sp = np.full(s.n, sp0)
    beer = sp - 0.5 + clipn(s, 0.15, 0.35)
    valve = np.clip(v0 + daily(s, 4.0, 16.0) + noise(s, 3.0), 0.0, 100.0)
    grav = g0 - gdrop * (s.secs / 86400.0) + noise(s, 0.03)
    act = np.full(s.n, 0.4 + 0.1 * gdrop * 10)
    pres = 1.5 + clipn(s, 0.1, 0.3)
    if i == 2:  # fresh wort knocked out Tue 22 Sep 10:00 at 64 degF; a vigorous ferment until Sat 26 Sep
        t = since(s, SEP22, 10.0)
        fresh = t >= 0
        active = (t >= 0) & (t < 110.0)
        beer = np.where(fresh, np.minimum(64.0 + t / 4.0, sp - 0.5) + clipn(s, 0.15, 0.35), beer)
        valve = np.where(active, np.clip(68.0 + noise(s, 4.0), 0.0, 100.0), valve)
        grav = np.where(fresh, np.maximum(14.5 - 2.4 * np.clip(t, 0, None) / 24.0, 3.1) + noise(s, 0.03), grav)
        act = np.where(active, 3.0, np.where(fresh, 0.6, 0.2))
        pres = np.where(fresh, 12.0 + clipn(s, 0.3, 0.8), pres)
    if i == 3:  # the valve's actuator sticks shut: the controller asks 100 %, the beer warms; freed Thu 1 Oct 06:00
        t = since(s, SEP29, 20.0)
        t1 = since(s, OCT1, 6.0)
        stuck = (t >= 0) & (t1 < 0)
        peak = 78.0 - (78.0 - 67.5) * math.exp(-34.0 / 20.0)
        beer = np.where(stuck, 78.0 - (78.0 - 67.5) * np.exp(-np.clip(t, 0, None) / 20.0) + clipn(s, 0.1, 0.25), beer)
        after = t1 >= 0
        beer = np.where(after, 67.5 + (peak - 67.5) * np.exp(-np.clip(t1, 0, None) / 3.0) + clipn(s, 0.1, 0.25), beer)
        beer = np.where(after & (t1 > 12.0), sp - 0.5 + clipn(s, 0.15, 0.35), beer)
        valve = np.where(stuck, 100.0, valve)
        valve = np.where(after & (t1 < 8.0), 100.0, valve)
    if i == 7:  # the crash: setpoint 66 -> 34 degF Tue 29 Sep 08:00; the beer reaches the new setpoint Wed ~04:50
        t = since(s, SEP29, 8.0)
        crash = t >= 0
        sp = np.where(crash, 34.0, sp)
        beer = np.where(crash, 33.0 + (65.4 - 33.0) * np.exp(-np.clip(t, 0, None) / 6.0) + clipn(s, 0.04, 0.1), beer)
        reached = crash & (beer < 34.0)
        beer = np.where(reached | (t > 21.0), 33.6 + clipn(s, 0.08, 0.2), beer)
        valve = np.where(crash & (t <= 21.0), 100.0, np.where(crash, np.clip(45.0 + noise(s, 3.0), 0, 100), valve))
        pres = np.where(crash, 12.0 + clipn(s, 0.2, 0.5), pres)
    keep = keep_gap(s, D(2026, 9, 19), 8.0) if i == 6 else None  # the gravity probe's cable, Sat 19 Sep 08-12
    point(fv, "Beer Temp", "Number", "°F", ["beer", "temp", "sensor"], beer)
    point(fv, "Beer Temp SP", "Number", "°F", ["beer", "temp", "sp"], sp)
    point(fv, "Glycol Valve", "Number", "%", ["glycol", "valve", "cmd"], valve)
    point(fv, "Gravity", "Number", "°P", ["beer", "gravity", "sensor"], grav, keep)
    point(fv, "Tank Pressure", "Number", "psi", ["pressure", "sensor"], pres)
    valve_sum += valve
    ferment_act += act

gc = equip(s, "e09", "Glycol Chiller", ["chiller", "glycol"])
gly_load = valve_sum / 100.0
point(gc, "Supply Temp", "Number", "°F", ["glycol", "leaving", "temp", "sensor"], 28.0 - 0.6 + clipn(s, 0.12, 0.3))
point(gc, "Supply Temp SP", "Number", "°F", ["glycol", "leaving", "temp", "sp"], np.full(s.n, 28.0))
point(gc, "Return Temp", "Number", "°F", ["glycol", "entering", "temp", "sensor"],
      30.5 + 0.6 * gly_load + clipn(s, 0.15, 0.4))  # fmt: skip
gly_kw = 22.0 + 6.5 * gly_load + noise(s, 0.6)
point(gc, "Power", "Number", "kW", ["elec", "power", "sensor"], gly_kw)
point(gc, "Run Status", "Bool", None, ["run", "sensor"], np.ones(s.n, bool))

# the brewhouse: one brew a weekday (mash in 05:30, boil 08:45-10:15), a second on Mon / Wed / Thu (boil 13:15-14:45)
brewday = wd < 5
second = np.isin(wd, [0, 2, 3])
mash = brewday & (s.hours(5.5, 7.0) | (second & s.hours(10.0, 11.5)))
mashout = brewday & (s.hours(7.0, 7.5) | (second & s.hours(11.5, 12.0)))
heatup = brewday & (s.hours(8.75, 9.25) | (second & s.hours(13.25, 13.75)))
boil = brewday & (s.hours(9.25, 10.25) | (second & s.hours(13.75, 14.75)))
mt = equip(s, "e10", "Mash Tun", ["tank", "mashTun"])
point(mt, "Mash Temp", "Number", "°F", ["mash", "temp", "sensor"],
      np.where(mash, 152.0, np.where(mashout, 168.0, 74.0)) + noise(s, 0.4))  # fmt: skip
point(mt, "Steam Valve", "Number", "%", ["steam", "valve", "cmd"],
      np.where(mash, 35.0, np.where(mashout, 80.0, 0.0)) + np.where(mash | mashout, noise(s, 2.0), 0.0))  # fmt: skip
bk = equip(s, "e11", "Brew Kettle", ["kettle", "steam"])
steam = np.where(heatup, 2100.0, np.where(boil, 1600.0, 0.0)) + np.where(heatup | boil, noise(s, 20.0), 0.0)
put(s, steam, SEP28, {9.0: 2460.0})  # Mon 28 Sep: the first wort came in cold, the valve ran wide open
point(bk, "Wort Temp", "Number", "°F", ["wort", "temp", "sensor"],
      np.where(boil, 212.0, np.where(heatup, 195.0, 76.0)) + noise(s, 0.5))  # fmt: skip
point(bk, "Steam Flow", "Number", "lb/h", ["steam", "flow", "sensor"], steam)
point(bk, "Steam Valve", "Number", "%", ["steam", "valve", "cmd"], steam / 26.0)

# CO2 recovery (the integrator's terse names): lb of CO2 per kWh of the compressor is about 5.6, but on Thu 1 Oct the
# purifier's purge valve stuck open (purity down, the compressor works on air): 4.8
co2 = equip(s, "e12", "CO2 Recovery", ["co2Recovery"])
rr = 14.0 * ferment_act + daily(s, 2.0, 14.0) + noise(s, 0.8)
spec = by_date(s, {SEP30: 5.55, OCT1: 4.8, OCT2: 5.62}, 5.6)
cmp_kw = rr / spec * (1.0 + clipn(s, 0.006, 0.015))
# Sat 26 Sep: an overtime shift 06:00-18:00; Fri 18 Sep the line stopped at 14:00 for the filler's CIP
bottling = ((brewday & s.hours(6.0, 22.0)) | s.mask(SEP26, 6.0, 18.0)) & ~s.mask(D(2026, 9, 18), 14.0, 22.0)
level = np.zeros(s.n)
lv = 62.0
for k in range(s.n):
    level[k] = lv
    lv = min(92.0, max(15.0, lv + (rr[k] / 63.0 * 1.35 - 0.3 - (1.8 if bottling[k] else 0.0)) * 0.25))
point(co2, "CO2_RR", "Number", "lb/h", ["co2", "flow", "sensor"], rr)
point(co2, "CMP_KW", "Number", "kW", ["elec", "power", "sensor"], cmp_kw)
point(co2, "TK_LVL", "Number", "%", ["co2", "tank", "level", "sensor"], level + noise(s, 0.05))
point(co2, "TK_PRS", "Number", "psi", ["co2", "tank", "pressure", "sensor"], 250.0 + noise(s, 2.0))
point(co2, "PUR", "Number", "%", ["co2", "purity", "sensor"],
      np.where(s.day(OCT1), 99.2, 99.95) + clipn(s, 0.01, 0.03))  # fmt: skip

# the bottling line: weekdays 06:00-22:00; bottles per hour by the day's package
bl = equip(s, "e13", "Bottling Line", ["bottlingLine", "packaging"])
bph_day = by_date(s, {D(2026, 9, 21): 9000.0, SEP22: 5200.0, D(2026, 9, 23): 8600.0, D(2026, 9, 24): 9100.0,
                      D(2026, 9, 25): 9100.0}, 8800.0)  # fmt: skip
jam = s.mask(D(2026, 9, 23), 13.0, 15.0)  # Wed 23 Sep: the labeller jams
run_b = bottling & ~jam
bph = np.where(run_b, bph_day + noise(s, 120.0), 0.0)
bl_kw = np.where(run_b, 18.0 + 0.004 * bph + noise(s, 0.5), 2.5 + clipn(s, 0.1, 0.3))
point(bl, "Bottles Per Hour", "Number", "bottles/h", ["production", "rate", "sensor"], bph)
point(bl, "Line Speed", "Number", "%", ["speed", "sensor"], bph / 100.0)
point(bl, "Motor Power", "Number", "kW", ["elec", "power", "sensor"], bl_kw)
point(bl, "Filler Pressure", "Number", "psi", ["pressure", "sensor"], np.where(run_b, 15.0, 0.5) + noise(s, 0.1))
point(bl, "Run Status", "Bool", None, ["run", "sensor"], run_b)

mm = equip(s, "e14", "Main Meter", ["elecMeter", "meter", "elec", "siteMeter"])
demand = 120.0 + gly_kw + cmp_kw + bl_kw + 45.0 * (heatup | boil | mash) + daily(s, 15.0, 14.0) + noise(s, 3.0)
point(mm, "Demand", "Number", "kW", ["elec", "power", "sensor"], demand)
point(mm, "Energy", "Number", "kWh", ["elec", "energy", "import", "sensor"], register(s, demand, 1_486_220.0))
wm = equip(s, "e15", "Water Meter", ["waterMeter", "meter", "water"])
wflow = 12.0 + 40.0 * (mash | mashout) + 18.0 * run_b + 25.0 * boil + np.abs(noise(s, 2.0))
point(wm, "Flow", "Number", "gpm", ["water", "flow", "sensor"], wflow)
point(wm, "Volume Total", "Number", "gal", ["water", "volume", "sensor"], register(s, wflow, 31_804_552.0, 60.0))

# ----- Griesheim Data Centre (Frankfurt, SI) -----------------------------------------------------------------------
s = gdc
h = s.hour
SEP28G, SEP30G, OCT1G, OCT2G, OCT3G = D(2026, 9, 28), D(2026, 9, 30), D(2026, 10, 1), D(2026, 10, 2), D(2026, 10, 3)
day_off = by_date(s, {D(2026, 9, 17): -2.0, D(2026, 9, 23): 2.0, OCT1G: 1.0, OCT2G: 10.0, OCT3G: -2.0}, 0.0)
tout = 12.0 + daily(s, 5.5, 15.0) + day_off + noise(s, 0.3)
# the IT load grows about 40 kW a day (a tenant's migration)
it = 1520.0 + 40.0 * s.day_i + daily(s, 15.0, 14.0) + noise(s, 6.0)
# the black-building test, Wed 30 Sep: utility opened 10:00; Genset 1 failed to start; Genset 2 took the B side at
# 10:25 and the A side (through the tie) at 10:50; utility back at 12:00
test_off = s.mask(SEP30G, 10.0, 12.0)
pue = 1.15 + 0.011 * np.maximum(tout - 8.0, 0.0)
incomer = np.where(test_off, 0.0, it * pue * (1.0 + clipn(s, 0.003, 0.008)))

sp_change = s.span(SEP28G, 9.0, END, 0.0)
sat_sp = np.where(sp_change, 24.0, 22.0)
crah_fan_sum = np.zeros(s.n)
for i, spd0 in enumerate((62.0, 58.0, 66.0, 60.0, 44.0, 63.0), start=1):
    c = equip(s, f"e{i:02d}", f"CRAH-{i:02d}", ["crah"])
    sat = sat_sp - 0.4 + clipn(s, 0.1, 0.25)
    spd = spd0 + daily(s, 3.0, 15.0) + noise(s, 1.2)
    fan_kw = 11.0 * (spd / 100.0) ** 3 + 0.2 + noise(s, 0.05)
    crah_fan_sum += fan_kw
    point(c, "Supply Air Temp", "Number", "°C", ["air", "discharge", "temp", "sensor"], sat)
    point(c, "Supply Air Temp Setpoint", "Number", "°C", ["air", "discharge", "temp", "sp"], sat_sp)
    point(c, "Return Air Temp", "Number", "°C", ["air", "return", "temp", "sensor"], sat + 11.0 + noise(s, 0.3))
    point(c, "Fan Speed", "Number", "%", ["fan", "speed", "sensor"], spd)
    point(c, "Fan Power", "Number", "kW", ["fan", "elec", "power", "sensor"], fan_kw)
    point(c, "CHW Valve", "Number", "%", ["chilled", "water", "valve", "cmd"], np.clip(55.0 + noise(s, 4.0), 0, 100))

free = tout < 12.0
mech_share = np.where(free, 0.45, 1.0)
cooling = (it + 150.0) * mech_share
chillers_off = s.mask(SEP30G, 10.0, 11.0)  # the chillers are not on the UPS: they restart at 11:00
for i, (share, cop0) in enumerate(((0.45, 5.4), (0.30, 4.3), (0.25, 5.1)), start=1):
    c = equip(s, f"e{6 + i:02d}", f"Chiller {i}", ["chiller"])
    q = np.where(chillers_off, 0.0, cooling * share + noise(s, 5.0))
    cop = cop0 - 0.03 * (tout - 12.0) + clipn(s, 0.04, 0.1)
    kw = np.where(chillers_off, 0.0, q / cop)
    lwt = 18.0 + 0.1 + clipn(s, 0.08, 0.2)
    keep = keep_gap(s, D(2026, 9, 22), 1.0) if i == 3 else None  # the sensor's transmitter, Tue 22 Sep 01-05
    point(c, "Leaving Water Temp", "Number", "°C", ["chilled", "water", "leaving", "temp", "sensor"], lwt, keep)
    point(c, "Leaving Water Temp Setpoint", "Number", "°C", ["chilled", "water", "leaving", "temp", "sp"],
          np.full(s.n, 18.0))  # fmt: skip
    point(c, "Cooling Output", "Number", "kW", ["chilled", "water", "cool", "power", "sensor"], q)
    point(c, "Power", "Number", "kW", ["elec", "power", "sensor"], kw)
    point(c, "COP", "Number", "kW/kW", ["efficiency", "sensor"], cop)
    point(c, "Free Cooling Mode", "Bool", None, ["freeCooling", "enable", "sensor"], free)

# UPS modules: Battery Power + discharging, - charging (a float charge of about -0.8 kW otherwise)
UPS = (
    ("A1", 0.26, {10.0: 401.0, 10.25: 410.0, 10.5: 415.0, 10.75: 408.0}, 11.0, -90.0,
     {10.0: 96.8, 10.25: 88.5, 10.5: 79.6, 10.75: 71.0}, 5.5),
    ("A2", 0.24, {10.0: 385.0, 10.25: 398.0, 10.5: 412.0, 10.75: 404.0}, 11.0, -88.0,
     {10.0: 96.5, 10.25: 88.0, 10.5: 79.2, 10.75: 70.6}, 5.5),
    ("B1", 0.25, {10.0: 380.0, 10.25: 372.0}, 10.5, -70.0, {10.0: 97.0, 10.25: 89.1}, 6.0),
    ("B2", 0.25, {10.0: 376.0, 10.25: 369.0}, 10.5, -68.0, {10.0: 97.1, 10.25: 89.4}, 6.0),
)  # fmt: skip
ups_out = {}
for i, (code, share, dis_kw, chg_h, chg_kw, soc_pts, chg_rate) in enumerate(UPS, start=1):
    u = equip(s, f"e{9 + i:02d}", f"UPS-{code}", ["ups", "elec"])
    out_kw = it * share + noise(s, 2.0)
    ups_out[code] = out_kw
    bp = -0.8 + clipn(s, 0.1, 0.25)
    t = since(s, SEP30G, chg_h)
    charging = (t >= 0) & (t < 6.0)
    bp = np.where(charging, chg_kw * np.exp(-np.clip(t, 0, None) / 1.5) - 0.8, bp)
    put(s, bp, SEP30G, dis_kw)
    soc = np.full(s.n, 100.0)
    last = soc_pts[max(soc_pts)]
    t_last = since(s, SEP30G, max(soc_pts))
    soc = np.where(t_last > 0, np.minimum(100.0, last + chg_rate * np.clip(t_last, 0, None)), soc)
    put(s, soc, SEP30G, soc_pts)
    point(u, "Output Power", "Number", "kW", ["elec", "power", "sensor"], out_kw)
    point(u, "Battery Power", "Number", "kW", ["battery", "elec", "power", "sensor"], bp)
    point(u, "State of Charge", "Number", "%", ["battery", "charge", "sensor"], soc)
    point(u, "Battery Temp", "Number", "°C", ["battery", "temp", "sensor"], 24.0 + noise(s, 0.2))
    point(u, "Discharge Energy", "Number", "kWh", ["battery", "elec", "energy", "export", "sensor"],
          register(s, np.maximum(bp, 0.0), 18_400.0 + 1_000.0 * i))  # fmt: skip
    point(u, "Charge Energy", "Number", "kWh", ["battery", "elec", "energy", "import", "sensor"],
          register(s, np.maximum(-bp, 0.0), 21_900.0 + 1_000.0 * i))  # fmt: skip

for i, (code, share) in enumerate((("1A", 0.17), ("1B", 0.16), ("2A", 0.18), ("2B", 0.16), ("3A", 0.17),
                                   ("3B", 0.16)), start=1):  # fmt: skip
    p = equip(s, f"e{13 + i:02d}", f"PDU-{code}", ["pdu", "elec"])
    kw = it * share + noise(s, 1.5)
    keep = keep_gap(s, D(2026, 9, 14), 12.0) if code == "3B" else None  # Mon 14 Sep 12-16, a meter's firmware
    point(p, "Power", "Number", "kW", ["elec", "power", "sensor"], kw)
    point(p, "Current", "Number", "A", ["elec", "current", "sensor"], kw * 1000.0 / (math.sqrt(3) * 400.0 * 0.98),
          keep)  # fmt: skip
    point(p, "Load", "Number", "%", ["elec", "load", "sensor"], kw / 400.0 * 100.0)

SEP15G = D(2026, 9, 15)
monthly = s.mask(SEP15G, 9.0, 10.0)  # Tue 15 Sep: the monthly load-bank run of both gensets
for i in (1, 2):
    g = equip(s, f"e{19 + i:02d}", f"Genset {i}", ["generator", "diesel"])
    outp = np.where(monthly, 1000.0 + noise(s, 10.0), 0.0)
    if i == 2:
        put(s, outp, SEP30G, {10.5: 1046.0, 10.75: 1058.0, 11.0: 1912.0, 11.25: 1796.0, 11.5: 1788.0, 11.75: 1781.0,
                              12.0: 35.0, 12.25: 30.0})  # fmt: skip
    running = outp > 0
    fuel = 96.0 - 0.004 * np.cumsum(outp) * 0.25 / 10.0 + noise(s, 0.05)
    point(g, "Output Power", "Number", "kW", ["elec", "power", "sensor"], outp)
    point(g, "Fuel Level", "Number", "%", ["fuel", "level", "sensor"], fuel)
    point(g, "Coolant Temp", "Number", "°C", ["coolant", "temp", "sensor"],
          np.where(running, 82.0, 42.0) + noise(s, 0.4))  # fmt: skip
    point(g, "Run Status", "Bool", None, ["run", "sensor"], running)

um = equip(s, "e22", "Utility Incomer", ["elecMeter", "meter", "elec", "siteMeter"])
point(um, "Active Power", "Number", "kW", ["elec", "power", "sensor"], incomer)
point(um, "Energy", "Number", "kWh", ["elec", "energy", "import", "sensor"], register(s, incomer, 88_412_730.0))
itm = equip(s, "e23", "IT Meter", ["elecMeter", "meter", "elec"])
point(itm, "Active Power", "Number", "kW", ["elec", "power", "sensor"], it)
point(itm, "Energy", "Number", "kWh", ["elec", "energy", "sensor"], register(s, it, 61_075_118.0))
hp = equip(s, "e24", "Heat Recovery Heat Pump", ["heatPump"])
heat = 900.0 + daily(s, 120.0, 7.0) + noise(s, 10.0)
point(hp, "Heat Output", "Number", "kW", ["hot", "water", "heat", "power", "sensor"], heat)
point(hp, "Power", "Number", "kW", ["elec", "power", "sensor"], heat / 3.6 + noise(s, 2.0))
point(hp, "Flow Temp", "Number", "°C", ["hot", "water", "leaving", "temp", "sensor"], 72.0 + noise(s, 0.3))

# ----- Skippers Ridge Ski Area (Queenstown, SI) --------------------------------------------------------------------
s = srs
h = s.hour
SEP26S, SEP27S, SEP29S, SEP30S = D(2026, 9, 26), D(2026, 9, 27), D(2026, 9, 29), D(2026, 9, 30)
OCT2S, OCT4S = D(2026, 10, 2), D(2026, 10, 4)
# the night a sample belongs to: the date of its evening
night = np.array([d if hh >= 12.0 else d - dt.timedelta(days=1) for d, hh in zip(s.date, h)])
WARM = {D(2026, 9, 16), D(2026, 9, 19), D(2026, 9, 24), SEP27S}
VERY_COLD = {D(2026, 9, 21), D(2026, 9, 22), SEP26S, SEP30S, D(2026, 10, 3)}
cold = np.array([n not in WARM for n in night])
very = np.array([n in VERY_COLD for n in night])
snow = cold & ((h >= 20.0) | (h < 7.0)) & np.array([n >= START for n in night])
off_n = np.where(cold, np.where(very, -3.6, -3.0), 2.0)
wb = -1.0 + daily(s, 3.5, 15.0) + off_n + noise(s, 0.15)
put(s, wb, OCT4S, {4.5: -8.4})  # Sun 4 Oct: a clear, calm night, the coldest wet bulb of the month

ws = equip(s, "e01", "Weather Station", ["weatherStation"])
point(ws, "Outside Air Temp", "Number", "°C", ["air", "outside", "temp", "sensor"], wb + 2.2 + noise(s, 0.1))
point(ws, "Wet Bulb Temp", "Number", "°C", ["air", "outside", "wetBulb", "temp", "sensor"], wb)
point(ws, "Humidity", "Number", "%", ["air", "outside", "humidity", "sensor"],
      np.clip(68.0 + daily(s, -10.0, 15.0) + noise(s, 2.0), 5, 100))  # fmt: skip
point(ws, "Wind Speed", "Number", "km/h", ["air", "outside", "wind", "speed", "sensor"],
      np.abs(10.0 + daily(s, 4.0, 14.0) + noise(s, 2.5)))  # fmt: skip

gun_flow_sum = np.zeros(s.n)
gun_kw_sum = np.zeros(s.n)
blocked = s.mask(SEP29S, 2.0, 5.5)  # Tue 29 Sep 02:00-05:15: ice in Snow Gun 3's nozzle ring
for i, (q, p0) in enumerate(((7.2, 32.0), (6.8, 31.0), (7.0, 31.0), (6.5, 29.0), (6.2, 27.0), (4.3, 18.0)),
                            start=1):  # fmt: skip
    g = equip(s, f"e{1 + i:02d}", f"Snow Gun {i}", ["snowGun"])
    flow = np.where(snow, q + noise(s, 0.12), 0.0)
    pres = np.where(snow, p0 + clipn(s, 0.4, 1.0), 2.0 + clipn(s, 0.05, 0.1))
    if i == 3:
        flow = np.where(blocked, 3.9 + noise(s, 0.1), flow)
        put(s, pres, SEP29S, {2.0: 42.3, 2.25: 43.1, 2.5: 43.6, 2.75: 44.0, 3.0: 44.4, 3.25: 44.8, 3.5: 44.5,
                              3.75: 44.1, 4.0: 43.8, 4.25: 43.9, 4.5: 43.2, 4.75: 42.7, 5.0: 42.1,
                              5.25: 41.4})  # fmt: skip
    kw = np.where(snow, 18.5 + noise(s, 0.3), 0.0)
    gun_flow_sum += flow
    gun_kw_sum += kw
    keep = keep_gap(s, D(2026, 9, 17), 10.0) if i == 5 else None  # the pressure transmitter, Thu 17 Sep 10-14
    point(g, "Water Flow", "Number", "L/s", ["water", "flow", "sensor"], flow)
    point(g, "Water Pressure", "Number", "bar", ["water", "pressure", "sensor"], pres, keep)
    point(g, "Wet Bulb Temp", "Number", "°C", ["air", "wetBulb", "temp", "sensor"], wb + 0.1 * i + noise(s, 0.1))
    point(g, "Fan Power", "Number", "kW", ["fan", "elec", "power", "sensor"], kw)
    point(g, "Run Status", "Bool", None, ["run", "sensor"], snow)

comp_kw_sum = np.zeros(s.n)
clog = s.mask(OCT2S, 0.0, 12.0)  # Fri 2 Oct: Air Compressor 2's inlet filter clogged, changed at noon
for i, (rated, load, spec) in enumerate(((250.0, 0.90, 6.3), (250.0, 0.70, 6.9), (160.0, 0.80, 6.6)), start=1):
    c = equip(s, f"e{7 + i:02d}", f"Air Compressor {i}", ["compressor", "air"])
    run = snow & (very if i == 3 else True)
    kw = np.where(run, rated * load + noise(s, 2.0), 0.0)
    sp_ = np.where(clog, 7.6, spec) if i == 2 else np.full(s.n, spec)
    flow = np.where(run, kw / sp_ * (1.0 + clipn(s, 0.004, 0.01)), 0.0)
    comp_kw_sum += kw
    point(c, "Discharge Pressure", "Number", "bar", ["air", "discharge", "pressure", "sensor"],
          np.where(run, 7.0, 0.3) + noise(s, 0.05))  # fmt: skip
    point(c, "Air Flow", "Number", "m³/min", ["air", "flow", "sensor"], flow)
    point(c, "Motor Power", "Number", "kW", ["elec", "power", "sensor"], kw)
    point(c, "Run Status", "Bool", None, ["run", "sensor"], run)

refill = s.hours(9.0, 18.0)
ps1_flow = np.where(refill, 380.0 + noise(s, 5.0), 0.0)
ps1_kw = np.where(refill, 210.0 + noise(s, 3.0), 6.0 + clipn(s, 0.3, 0.8))
ps2_flow = np.where(snow, 420.0 + noise(s, 5.0), 3.0 + clipn(s, 0.3, 0.8))
ps2_kw = np.where(snow, 450.0 + noise(s, 6.0), 8.0 + clipn(s, 0.3, 0.8))
for i, (fl, kw, dp_run, dp_idle, run, r0) in enumerate(
    ((ps1_flow, ps1_kw, 6.0, 1.2, refill, 2_204_118.0), (ps2_flow, ps2_kw, 42.0, 5.0, snow, 5_871_403.0)), start=1
):
    p = equip(s, f"e{10 + i:02d}", f"Pump Station {i}", ["pump", "water"])
    point(p, "Flow", "Number", "m³/h", ["water", "flow", "sensor"], fl)
    point(p, "Discharge Pressure", "Number", "bar", ["water", "discharge", "pressure", "sensor"],
          np.where(run, dp_run, dp_idle) + noise(s, 0.1))  # fmt: skip
    point(p, "Motor Power", "Number", "kW", ["elec", "power", "sensor"], kw)
    point(p, "Energy", "Number", "kWh", ["elec", "energy", "import", "sensor"], register(s, kw, r0))
    point(p, "Run Status", "Bool", None, ["run", "sensor"], run)

pond = equip(s, "e13", "Snowmaking Pond", ["tank", "water"])
vol = np.zeros(s.n)
v = 26_000.0
for k in range(s.n):
    vol[k] = v
    v = min(30_000.0, max(4_000.0, v + (ps1_flow[k] - ps2_flow[k] + 20.0) * 0.25))
vol = vol + noise(s, 8.0)
point(pond, "Volume", "Number", "m³", ["water", "volume", "sensor"], vol)
point(pond, "Level", "Number", "m", ["water", "level", "sensor"], 0.45 + vol / 9_000.0)

swm = equip(s, "e14", "Snowmaking Water Meter", ["waterMeter", "meter", "water"])
point(swm, "Flow", "Number", "m³/h", ["water", "flow", "sensor"], ps2_flow + noise(s, 1.0))
point(swm, "Volume Total", "Number", "m³", ["water", "volume", "sensor"], register(s, ps2_flow, 1_208_334.0))

open_ = s.hours(8.75, 16.0)
lift_kw_sum = np.zeros(s.n)
hold = s.mask(SEP30S, 12.0, 13.5)  # Wed 30 Sep: the Skyline Express on wind hold 12:00-13:30
for i, (name, rated, speed, wind0) in enumerate(
    (("Skyline Express", 600.0, 6.0, 22.0), ("Ridge Quad", 300.0, 5.0, 18.0), ("Nursery Chair", 75.0, 2.0, 8.0)),
    start=1,
):
    lf = equip(s, f"e{14 + i:02d}", name, ["chairlift"])
    run = open_ & ~hold if i == 1 else open_
    kw = np.where(run, rated * (0.45 + 0.15 * np.clip(np.sin((h - 8.75) / 7.25 * math.pi), 0, 1)) + noise(s, 4.0),
                  0.0)  # fmt: skip
    wind = np.clip(wind0 + daily(s, 6.0, 14.0) + noise(s, 3.0), 1.0, 45.0)
    if i == 1:  # Wed 30 Sep 11:00-14:15: a nor'wester at the top station, over 60 km/h
        put(s, wind, SEP30S, {10.75: 48.5, 11.0: 61.5, 11.25: 64.0, 11.5: 66.8, 11.75: 69.2, 12.0: 72.5, 12.25: 75.1,
                              12.5: 78.0, 12.75: 76.4, 13.0: 73.3, 13.25: 70.2, 13.5: 67.0, 13.75: 64.6, 14.0: 62.8,
                              14.25: 61.2, 14.5: 52.4})  # fmt: skip
    lift_kw_sum += kw
    point(lf, "Drive Power", "Number", "kW", ["elec", "power", "sensor"], kw)
    point(lf, "Line Speed", "Number", "m/s", ["speed", "sensor"], np.where(run, speed + noise(s, 0.03), 0.0))
    point(lf, "Wind Speed", "Number", "km/h", ["wind", "speed", "sensor"], wind)
    point(lf, "Motor Temp", "Number", "°C", ["motor", "temp", "sensor"], np.where(run, 58.0, 12.0) + noise(s, 0.5))
    point(lf, "Run Status", "Bool", None, ["run", "sensor"], run)

bs = equip(s, "e18", "Base Substation", ["elecMeter", "meter", "elec", "siteMeter"])
sub_kw = 180.0 + ps1_kw + ps2_kw + comp_kw_sum + gun_kw_sum + lift_kw_sum + daily(s, 20.0, 12.0) + noise(s, 4.0)
point(bs, "Active Power", "Number", "kW", ["elec", "power", "sensor"], sub_kw)
point(bs, "Energy", "Number", "kWh", ["elec", "energy", "import", "sensor"], register(s, sub_kw, 9_330_871.0))


if __name__ == "__main__":
    G.write(HERE, SITES)
