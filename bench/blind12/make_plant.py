"""Make the blind-12 plant: plant.json (Haystack 4 JSON grid) and plant.csv.gz (15-minute histories).

Three sites of new kinds, Mon 2026-10-19 00:00 to Mon 2026-11-09 00:00 site-local (3 weeks):
  Lakeshore General Hospital  a hospital central utility plant: steam boilers, chillers (kW, tons, kW/ton), chilled-
                              water pumps, a medical-air compressor, operating-theatre AHUs, an emergency generator,
                              the main electric meter (America/Toronto, SI with tons; -04:00, clocks go BACK on
                              Sun 1 Nov 2026 02:00 -> 01:00: a 25-hour day, then -05:00)
  Valby District Heating      a district-heating plant: wood-chip boilers, a bio-oil peak boiler, a heat pump, an
                              accumulator tank, the network heat meter (Europe/Copenhagen, SI; +02:00, clocks go BACK
                              on Sun 25 Oct 2026 03:00 -> 02:00: a 25-hour day, then +01:00)
  Hsinchu Fab 3 Utilities     a semiconductor fab's utilities: ultrapure-water skids, process cooling water loops,
                              clean-dry-air compressors, exhaust scrubbers, the nitrogen header (Asia/Taipei, SI,
                              +08:00 all along)

Fixed seed; the same run gives byte-identical files (gzip mtime 0, no file name in the header).
Usage: python bench/blind12/make_plant.py
"""

from __future__ import annotations

import datetime as dt
import math
import sys
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))
from blindkit.plant import Plant, bump, by_date, daily, keep_gap, put, register  # noqa: E402

SEED = 20261101
START = dt.date(2026, 10, 19)
END = dt.date(2026, 11, 9)
D = dt.date


G = Plant(SEED, START, END)
Site, noise, clipn, per_day, equip, point = G.site, G.noise, G.clipn, G.per_day, G.equip, G.point


def week_of(site: Site) -> np.ndarray:
    """0: 19-25 Oct, 1: 26 Oct - 1 Nov, 2: 2-8 Nov."""
    return site.day_i // 7


# ---------------------------------------------------------------------------------------------------------------
lg = Site("lgh", "Lakeshore General Hospital", "America/Toronto", "Toronto", "Toronto")
vb = Site("vdh", "Valby District Heating", "Europe/Copenhagen", "Copenhagen", "Copenhagen")
hf = Site("hf3", "Hsinchu Fab 3 Utilities", "Asia/Taipei", "Taipei", "Hsinchu")
SITES = [lg, vb, hf]


# ----- Lakeshore General Hospital (Toronto, SI with tons) --------------------------------------------------------
s = lg
weekday = s.wday < 5
ALL = np.ones(s.n, bool)

# Chillers: load in tons (a daily swing peaking mid-afternoon), efficiency in kW/ton, power = load x efficiency.
# Thu 29 Oct: Chiller 2's condenser tubes are fouled (0.82 kW/ton) and the plant unloads it to about 400 tons.
D29 = D(2026, 10, 29)
chiller_kw = np.zeros(s.n)
for code, name, tons0, eff0 in (("e01", "Chiller 1", 600.0, 0.60), ("e02", "Chiller 2", 450.0, 0.64),
                                ("e03", "Chiller 3", 350.0, 0.66)):  # fmt: skip
    c = equip(s, code, name, ["chiller", "chilled", "water"])
    tons = tons0 * (1.0 + 0.15 * np.cos((s.hour - 15.0) / 24 * 2 * math.pi)) + noise(s, 6.0)
    eff = eff0 + clipn(s, 0.006, 0.015)
    mon26 = np.array([d == D(2026, 10, 26) for d in s.date])
    if name == "Chiller 2":  # Mon 26 Oct: Chiller 2 carries part of Chiller 3's load (Chiller 3's leak check)
        tons = np.where(mon26, tons * 520.0 / 450.0, tons)
    if name == "Chiller 3":
        tons = np.where(mon26, tons * 250.0 / 350.0, tons)
    if name == "Chiller 2":
        foul = np.array([d == D29 for d in s.date])
        tons = np.where(foul, 400.0 * (1.0 + 0.15 * np.cos((s.hour - 15.0) / 24 * 2 * math.pi)) + noise(s, 6.0), tons)
        eff = np.where(foul, 0.82 + clipn(s, 0.006, 0.015), eff)
    kw = tons * eff
    chiller_kw += kw
    point(c, "Power Input", "Number", "kW", ["elec", "power", "sensor"], kw)
    point(c, "Cooling Load", "Number", "tonref", ["cool", "power", "sensor"], tons)
    point(c, "Efficiency", "Number", "kW/ton", ["efficiency", "sensor"], eff)
    sup = 6.7 + clipn(s, 0.08, 0.25)
    if name == "Chiller 3":  # Tue 20 Oct: low evaporator flow, the supply rises to 9.6 degC at 15:30
        sup = sup + 2.4 * bump(s, D(2026, 10, 20), 14.0, 17.0)
        put(s, sup, D(2026, 10, 20), {15.5: 9.6})
    point(c, "CHW Supply Temp", "Number", "°C", ["chilled", "water", "leaving", "temp", "sensor"], sup)
    point(c, "CHW Supply Temp Setpoint", "Number", "°C", ["chilled", "water", "leaving", "temp", "sp"],
          np.full(s.n, 6.7))  # fmt: skip
    point(c, "Run Status", "Bool", None, ["run", "sensor"], ALL)

for code, name in (("e04", "Steam Boiler 1"), ("e05", "Steam Boiler 2")):
    b = equip(s, code, name, ["boiler", "steam"])
    flow = 5200.0 + daily(s, 600.0, 7.0) + noise(s, 80.0) - (1200.0 if name.endswith("2") else 0.0)
    point(b, "Steam Pressure", "Number", "kPa", ["steam", "pressure", "sensor"], 860.0 + noise(s, 4.0))
    point(b, "Steam Flow", "Number", "kg/h", ["steam", "flow", "sensor"], flow)
    point(b, "Firing Rate", "Number", "%", ["naturalGas", "heating", "sensor"], np.clip(flow / 80.0, 0.0, 100.0))
    point(b, "Stack Temp", "Number", "°C", ["exhaust", "temp", "sensor"], 185.0 + noise(s, 3.0))

# CHW pumps: 1 and 2 run, 3 is the standby (static pressure when off)
pump_kw = np.zeros(s.n)
for code, name, run in (("e06", "CHW Pump 1", ALL), ("e07", "CHW Pump 2", ALL), ("e08", "CHW Pump 3", ~ALL)):
    p = equip(s, code, name, ["pump", "chilled", "water"])
    spd = np.clip(68.0 + daily(s, 10.0, 15.0) + noise(s, 1.5), 55.0, 90.0)
    press = np.clip(455.0 + noise(s, 6.0), 440.0, 470.0)
    kw = 2.0 + 0.00012 * spd**3 * 0.9
    spd, press, kw = np.where(run, spd, 0.0), np.where(run, press, 180.0 + noise(s, 1.0)), np.where(run, kw, 0.0)
    pump_kw += kw
    point(p, "Discharge Pressure", "Number", "kPa", ["water", "discharge", "pressure", "sensor"], press)
    point(p, "Speed", "Number", "%", ["speed", "sensor"], spd)
    point(p, "Motor Power", "Number", "kW", ["elec", "power", "sensor"], kw)
    point(p, "Run Status", "Bool", None, ["run", "sensor"], run)

# Operating-theatre AHUs: supply air 0.4 degC under the setpoint (never above it) but for two events:
# Mon 26 Oct all day, Theatre AHU 2's chilled-water valve sticks (16.4 degC against its 15.0 setpoint);
# Fri 30 Oct 13:00-16:00, Theatre AHU 3's reheat valve leaks (up to about 19.1 degC against 17.0).
ahu_kw = np.zeros(s.n)
for code, name, sp_, lps in (("e09", "Theatre AHU 1", 16.0, 2400.0), ("e10", "Theatre AHU 2", 15.0, 2100.0),
                             ("e11", "Theatre AHU 3", 17.0, 2600.0)):  # fmt: skip
    a = equip(s, code, name, ["ahu"])
    sat = sp_ - 0.4 + clipn(s, 0.12, 0.3)
    if name == "Theatre AHU 2":
        sat = np.where(np.array([d == D(2026, 10, 26) for d in s.date]), 16.4 + clipn(s, 0.08, 0.2), sat)
    if name == "Theatre AHU 3":
        sat = sat + 2.5 * bump(s, D(2026, 10, 30), 13.0, 16.0)
    point(a, "Supply Air Temp", "Number", "°C", ["discharge", "air", "temp", "sensor"], sat)
    point(a, "Supply Air Temp Setpoint", "Number", "°C", ["discharge", "air", "temp", "sp"], np.full(s.n, sp_))
    point(a, "Supply Airflow", "Number", "L/s", ["discharge", "air", "flow", "sensor"], lps + noise(s, 25.0))
    point(a, "Return Air Humidity", "Number", "%RH", ["return", "air", "humidity", "sensor"],
          np.clip(45.0 + noise(s, 1.5), 38.0, 52.0))  # fmt: skip
    kw = 18.0 + noise(s, 0.4)
    ahu_kw += kw
    point(a, "Fan Power", "Number", "kW", ["fan", "elec", "power", "sensor"], kw)

# Medical air: load by day (elective surgery on weekdays), Sat 48 %, Sun 40 %; the desiccant dryer fails
# Wed 21 Oct 10:00-13:00, dew point above +2 degC 10:15-12:30 (10 samples)
ma = equip(s, "e12", "Medical Air Compressor", ["compressor", "air"])
load = np.where(weekday, 58.0, np.where(s.wday == 5, 48.0, 40.0)) + daily(s, 8.0, 11.0) + noise(s, 2.0)
point(ma, "Discharge Pressure", "Number", "kPa", ["air", "discharge", "pressure", "sensor"],
      690.0 + noise(s, 3.0))  # fmt: skip
dew = np.clip(-38.0 + noise(s, 1.2), -41.0, -35.0)
put(s, dew, D(2026, 10, 21), {10.0: -8.0, 10.25: 3.1, 10.5: 4.6, 10.75: 5.5, 11.0: 6.2, 11.25: 6.4, 11.5: 6.1,
                              11.75: 5.3, 12.0: 4.4, 12.25: 3.5, 12.5: 2.6, 12.75: -4.0, 13.0: -20.0})  # fmt: skip
point(ma, "Dew Point", "Number", "°C", ["air", "dewPoint", "sensor"], dew)
point(ma, "Load", "Number", "%", ["sensor"], load)
ma_kw = 11.0 + 0.9 * load + noise(s, 0.5)
point(ma, "Motor Power", "Number", "kW", ["elec", "power", "sensor"], ma_kw)
point(ma, "Run Status", "Bool", None, ["run", "sensor"], ALL)

# the monthly generator test, Thu 22 Oct 10:00-11:00, and the annual emergency-power transfer test on the quiet
# Sunday evening after the clock change, Sun 1 Nov 19:00-23:00 EST: the generator carries 800 kW of the hospital
gen = equip(s, "e13", "Emergency Generator", ["genset"])
test = s.mask(D(2026, 10, 22), 10.0, 11.0) | s.mask(D(2026, 11, 1), 19.0, 23.0)
point(gen, "Output Power", "Number", "kW", ["elec", "power", "sensor"], np.where(test, 800.0 + noise(s, 10.0), 0.0))
point(gen, "Fuel Level", "Number", "%", ["diesel", "level", "sensor"], 94.0 - 0.6 * np.cumsum(test) + noise(s, 0.1))
point(gen, "Coolant Temp", "Number", "°C", ["coolant", "temp", "sensor"],
      np.where(test, 85.0, 40.0) + noise(s, 0.5))  # fmt: skip
point(gen, "Run Status", "Bool", None, ["run", "sensor"], test)

mm = equip(s, "e14", "Main Electric Meter", ["elecMeter", "meter", "elec", "siteMeter"])
demand = 2100.0 + chiller_kw + pump_kw + ahu_kw + ma_kw + 250.0 * weekday + daily(s, 300.0, 13.0) + noise(s, 20.0)
demand = np.where(test, demand - 800.0, demand)
point(mm, "Demand", "Number", "kW", ["elec", "power", "sensor"], demand)
point(mm, "Energy", "Number", "kWh", ["elec", "energy", "import", "sensor"], register(s, demand, 41_806_233.0))
point(mm, "Power Factor", "Number", "pf", ["elec", "pf", "sensor"], 0.94 + noise(s, 0.004))

# ----- Valby District Heating (Copenhagen, SI) -------------------------------------------------------------------
s = vb
wk = week_of(s)
D25 = D(2026, 10, 25)  # the clock change: 03:00 CEST -> 02:00 CET, 100 samples

heat = np.zeros(s.n)
for code, name, out0, eff0 in (("e01", "Wood Chip Boiler 1", (6000.0, 7000.0, 7200.0), 88.5),
                               ("e02", "Wood Chip Boiler 2", (5500.0, 5500.0, 5600.0), 87.5)):  # fmt: skip
    b = equip(s, code, name, ["boiler", "hot", "water", "biomass"])
    q = np.array(out0)[wk] + daily(s, 400.0, 7.0) + noise(s, 80.0)
    heat += q
    point(b, "Heat Output", "Number", "kW", ["hot", "water", "power", "sensor"], q)
    point(b, "Flow Temp", "Number", "°C", ["hot", "water", "leaving", "temp", "sensor"], 85.0 + noise(s, 0.5))
    point(b, "Return Temp", "Number", "°C", ["hot", "water", "entering", "temp", "sensor"], 45.0 + noise(s, 0.5))
    eff = eff0 + clipn(s, 0.4, 1.0)
    if name.endswith("2"):  # the week of 26 Oct: wet chips from a new supplier
        eff = np.where(wk == 1, 84.0 + clipn(s, 0.5, 1.2), eff)
    point(b, "Efficiency", "Number", "%", ["efficiency", "sensor"], eff)
    point(b, "Flue Gas Temp", "Number", "°C", ["exhaust", "temp", "sensor"], 150.0 + noise(s, 3.0))

# the bio-oil peak boiler runs in the cold snap, Thu 29 Oct 17:00-21:00
pk = equip(s, "e03", "Peak Oil Boiler", ["boiler", "hot", "water", "fuelOil"])
peak_on = s.mask(D(2026, 10, 29), 17.0, 21.0)
pq = np.where(peak_on, 8000.0 + noise(s, 100.0), 0.0)
heat += pq
point(pk, "Heat Output", "Number", "kW", ["hot", "water", "power", "sensor"], pq)
point(pk, "Flow Temp", "Number", "°C", ["hot", "water", "leaving", "temp", "sensor"],
      np.where(peak_on, 88.0, 30.0) + noise(s, 0.5))  # fmt: skip
point(pk, "Run Status", "Bool", None, ["run", "sensor"], peak_on)

# the heat pump follows the electricity price: hard at night, light in the day; COP about 3.2 all along
hp = equip(s, "e04", "Heat Pump 1", ["heatPump"])
sched = np.select(
    [s.hours(0.0, 6.0), s.hours(6.0, 8.0), s.hours(8.0, 12.0), s.hours(12.0, 16.0), s.hours(16.0, 20.0),
     s.hours(20.0, 24.0)],
    [1150.0, 850.0, 750.0, 850.0, 700.0, 1000.0],
)  # fmt: skip
# Wed 28 Oct: a flat electricity price, the heat pump runs at 900 kW all day; storm water cools the sewage source
# 00:00-10:00 and the COP falls to about 2.3
wed28 = np.array([d == D(2026, 10, 28) for d in s.date])
STORM = s.mask(D(2026, 10, 28), 0.0, 10.0)
e_in = np.where(wed28, 900.0, sched) + clipn(s, 12.0, 30.0)
cop = np.where(STORM, 2.3, 3.2) + clipn(s, 0.02, 0.05)
hq = e_in * cop
heat += hq
point(hp, "Heat Output", "Number", "kW", ["hot", "water", "power", "sensor"], hq)
point(hp, "Electric Input", "Number", "kW", ["elec", "power", "sensor"], e_in)
point(hp, "Flow Temp", "Number", "°C", ["hot", "water", "leaving", "temp", "sensor"], 75.0 + noise(s, 0.5))
point(hp, "Source Temp", "Number", "°C", ["wasteWater", "entering", "temp", "sensor"],
      np.where(STORM, 6.0, 11.0) + noise(s, 0.3))  # fmt: skip
point(hp, "Run Status", "Bool", None, ["run", "sensor"], np.ones(s.n, bool))

# the accumulator: a daily charge cycle 40-80 %; Thu 29 Oct evening the cold snap draws it down to 24 %;
# Mon 2 Nov 14:30-17:00 a deep discharge takes the top under 80 degC (11 samples)
tk = equip(s, "e05", "Accumulator Tank", ["tank", "hot", "water", "thermalStorage"])
lvl = 60.0 + 20.0 * np.sin((s.hour - 6.0) / 24 * 2 * math.pi) + noise(s, 0.5)
lvl = lvl - 26.0 * bump(s, D(2026, 10, 29), 16.0, 24.0)
top = 88.0 + clipn(s, 0.5, 1.2)
put(s, top, D(2026, 11, 2), {13.75: 84.6, 14.0: 82.1, 14.25: 80.4, 14.5: 79.3, 14.75: 77.8, 15.0: 76.5, 15.25: 75.9,
                             15.5: 75.6, 15.75: 75.8, 16.0: 76.6, 16.25: 77.7, 16.5: 78.6, 16.75: 79.2, 17.0: 79.6,
                             17.25: 80.5, 17.5: 82.4, 17.75: 85.1})  # fmt: skip
point(tk, "Top Temp", "Number", "°C", ["hot", "water", "temp", "sensor"], top)
point(tk, "Middle Temp", "Number", "°C", ["hot", "water", "temp", "sensor"], 70.0 + clipn(s, 1.0, 2.5))
point(tk, "Bottom Temp", "Number", "°C", ["hot", "water", "temp", "sensor"], 48.0 + clipn(s, 1.0, 2.5))
point(tk, "Level", "Number", "%", ["level", "sensor"], lvl)

# the network heat meter: supply temperature with a morning peak; Sun 25 Oct 15:00-18:00 (after the change, CET) a
# wood-chip grate jams and the supply sags to its lowest, 16:30
hm = equip(s, "e06", "Heat Meter", ["heatMeter", "meter", "hot", "water", "siteMeter"])
sup = 82.0 + daily(s, 1.0, 7.0) + noise(s, 0.2)
sup = sup - 6.0 * bump(s, D25, 15.0, 18.0)
d25 = np.array([d == D25 for d in s.date])
i_min = s.at(D25, 16.5)
sup[i_min] = np.min(np.where(d25 & (np.arange(s.n) != i_min), sup, np.inf)) - 0.8
point(hm, "Supply Temp", "Number", "°C", ["hot", "water", "leaving", "temp", "sensor"], sup)
point(hm, "Return Temp", "Number", "°C", ["hot", "water", "entering", "temp", "sensor"], 44.0 + noise(s, 0.5))
mw = (heat + noise(s, 50.0)) / 1000.0
point(hm, "Flow", "Number", "m³/h", ["hot", "water", "flow", "sensor"], mw * 1000.0 * 3600.0 / (4.19 * 38.0 * 1000.0))
point(hm, "Heat Power", "Number", "MW", ["hot", "water", "power", "sensor"], mw)
point(hm, "Heat Energy", "Number", "MWh", ["hot", "water", "energy", "sensor"], register(s, mw, 318_552.0))

# ----- Hsinchu Fab 3 Utilities (Taipei, SI) ----------------------------------------------------------------------
s = hf
wk = week_of(s)

for code, name, toc0, q0 in (("e01", "UPW Skid A", 0.8, 120.0), ("e02", "UPW Skid B", 1.0, 110.0),
                             ("e03", "UPW Skid C", 0.9, 100.0)):  # fmt: skip
    u = equip(s, code, name, ["upwSkid", "water"])
    res = 18.18 + clipn(s, 0.008, 0.02)
    if name == "UPW Skid A":  # Thu 29 Oct: a mixed-bed polisher exhausts, under 18.0 MOhm.cm 09:30-11:00 (7 samples)
        put(s, res, D(2026, 10, 29), {9.0: 18.11, 9.25: 17.88, 9.5: 17.62, 9.75: 17.41, 10.0: 17.25, 10.25: 17.2,
                                      10.5: 17.33, 10.75: 17.56, 11.0: 17.84, 11.25: 18.11})  # fmt: skip
    toc = toc0 + clipn(s, 0.05, 0.12)
    if name == "UPW Skid B":  # the week of 26 Oct: the UV lamps age, TOC about 1.4 ppb
        toc = np.where(wk == 1, 1.4 + clipn(s, 0.06, 0.15), toc)
    point(u, "Resistivity", "Number", "MΩ·cm", ["water", "resistivity", "sensor"], res)
    point(u, "TOC", "Number", "ppb", ["water", "toc", "sensor"], toc)
    point(u, "Product Flow", "Number", "m³/h", ["water", "leaving", "flow", "sensor"], q0 + noise(s, 1.5))
    point(u, "Product Temp", "Number", "°C", ["water", "leaving", "temp", "sensor"], 25.0 + noise(s, 0.2))

for code, name, sp_, dt_, q0 in (("e04", "PCW Loop 1", 18.0, 3.5, 800.0), ("e05", "PCW Loop 2", 16.0, 6.6, 1200.0),
                                 ("e06", "PCW Loop 3", 20.0, 4.5, 600.0)):  # fmt: skip
    lp = equip(s, code, name, ["pcwLoop", "water", "cool"])
    st = sp_ + clipn(s, 0.1, 0.25)
    rt = st + dt_ + daily(s, 0.3, 14.0) + noise(s, 0.15)
    gap = keep_gap(s, D(2026, 10, 28), 12.0) if name == "PCW Loop 2" else None  # a logger fault, Wed 28 Oct 12-16
    point(lp, "Supply Temp", "Number", "°C", ["water", "leaving", "temp", "sensor"], st, gap)
    point(lp, "Return Temp", "Number", "°C", ["water", "entering", "temp", "sensor"], rt)
    point(lp, "Supply Temp Setpoint", "Number", "°C", ["water", "leaving", "temp", "sp"], np.full(s.n, sp_))
    point(lp, "Flow", "Number", "m³/h", ["water", "flow", "sensor"], q0 + noise(s, 8.0))
    point(lp, "Supply Pressure", "Number", "kPa", ["water", "leaving", "pressure", "sensor"], 450.0 + noise(s, 4.0))

for code, name, load0 in (("e07", "CDA Compressor 1", 88.0), ("e08", "CDA Compressor 2", 72.0),
                          ("e09", "CDA Compressor 3", 45.0)):  # fmt: skip
    c = equip(s, code, name, ["compressor", "air"])
    load = np.clip(load0 + daily(s, 3.0, 15.0) + noise(s, 2.5), 0.0, 100.0)
    point(c, "Load", "Number", "%", ["sensor"], load)
    point(c, "Power", "Number", "kW", ["elec", "power", "sensor"], 5.0 + 3.0 * load + noise(s, 2.0))
    point(c, "Discharge Pressure", "Number", "kPa", ["air", "discharge", "pressure", "sensor"], 750.0 + noise(s, 5.0))
    point(c, "Dew Point", "Number", "°C", ["air", "dewPoint", "sensor"], -70.0 + noise(s, 1.0))
    point(c, "Run Status", "Bool", None, ["run", "sensor"], np.ones(s.n, bool))

# scrubbers' inlet (negative) pressure; Tue 3 Nov 10:00-11:00 Scrubber SC-1's fan trips (suction lost)
for code, name, p0 in (("e10", "Scrubber SC-1", -450.0), ("e11", "Scrubber SC-2", -480.0)):
    sc = equip(s, code, name, ["scrubber", "exhaust"])
    pr = p0 + clipn(s, 10.0, 30.0)
    if name == "Scrubber SC-1":
        trip = s.mask(D(2026, 11, 3), 10.0, 11.0)
        pr = np.where(trip, -120.0 + noise(s, 8.0), pr)
    point(sc, "Inlet Pressure", "Number", "Pa", ["exhaust", "air", "pressure", "sensor"], pr)
    point(sc, "pH", "Number", "pH", ["water", "ph", "sensor"], 7.5 + noise(s, 0.1))
    point(sc, "Recirculation Flow", "Number", "m³/h", ["water", "flow", "sensor"], 40.0 + noise(s, 0.8))
    point(sc, "Fan Power", "Number", "kW", ["fan", "elec", "power", "sensor"], 55.0 + noise(s, 1.0))

# the nitrogen header: a new etch tool's qualification on Wed 4 Nov
n2 = equip(s, "e12", "N2 Header", ["nitrogen", "header"])
n2flow = by_date(s, {D(2026, 11, 3): 1800.0, D(2026, 11, 4): 2300.0, D(2026, 11, 5): 1950.0}, 1750.0)
n2flow = n2flow + daily(s, 40.0, 14.0) + noise(s, 15.0)
point(n2, "Flow", "Number", "Nm³/h", ["nitrogen", "flow", "sensor"], n2flow)
point(n2, "Pressure", "Number", "kPa", ["nitrogen", "pressure", "sensor"], 800.0 + noise(s, 3.0))


if __name__ == "__main__":
    G.write(HERE, SITES)
