"""Make the blind-5 plant: plant.json (Haystack 4 JSON grid) and plant.csv.gz (15-minute histories).

Three sites of kinds no earlier set used, Mon 2026-02-23 00:00 to Mon 2026-03-16 00:00 site-local:
  Copper Ridge Ski Resort (America/Denver, US units, clocks forward on Sun 8 Mar 2026: a 23-hour day)
  Lindholm Dairy          (Europe/Copenhagen, SI incl. bar, t/h, m³/h, MWh register; no clock change in the period)
  Aoba Grand Hotel        (Asia/Tokyo, SI incl. kPa, ppm, Hz, kVA, V, A; no DST at all)

Fixed seed; the same run gives byte-identical files (gzip mtime 0, no file name in the header).
Usage: python bench/blind5/make_plant.py
"""

from __future__ import annotations

import datetime as dt
import math
import sys
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))
from blindkit.plant import Plant, daily, keep_gap, peak_once, register, triangle  # noqa: E402

SEED = 20260308
START = dt.date(2026, 2, 23)
END = dt.date(2026, 3, 16)
D = dt.date


G = Plant(SEED, START, END)
rng = G.rng
Site, noise, equip, point = G.site, G.noise, G.equip, G.point


sk = Site("crsr", "Copper Ridge Ski Resort", "America/Denver", "Denver", "Frisco")
dy = Site("lhd", "Lindholm Dairy", "Europe/Copenhagen", "Copenhagen", "Roskilde")
ht = Site("agh", "Aoba Grand Hotel", "Asia/Tokyo", "Tokyo", "Sendai")
SITES = [sk, dy, ht]

# ----- Copper Ridge Ski Resort (America/Denver, US units) --------------------------------------------------------
s = sk
# snowmaking runs at night; pump 1 19:00-07:00, pump 2 21:00-04:00 (local clock)
run1 = s.hours(19.0, 7.0)
run2 = s.hours(21.0, 4.0)
p1 = equip(s, "e01", "Snowmaking Pump 1", ["pump", "water", "snowmaking"])
point(
    p1,
    "Discharge Pressure",
    "Number",
    "psi",
    ["discharge", "water", "pressure", "sensor"],
    np.where(run1, 455 + noise(s, 5), 42 + noise(s, 1.5)),
)
point(
    p1,
    "Flow",
    "Number",
    "gal/min",
    ["water", "flow", "sensor"],
    np.where(run1, 1150 + noise(s, 20), 0.0),
    keep_gap(s, D(2026, 2, 27), 9.0),
)
p1_kw = np.where(run1, 186 + noise(s, 3), 0.4)
point(p1, "Motor Power", "Number", "kW", ["elec", "power", "sensor"], p1_kw)

p2 = equip(s, "e02", "Snowmaking Pump 2", ["pump", "water", "snowmaking"])
point(
    p2,
    "Discharge Pressure",
    "Number",
    "psi",
    ["discharge", "water", "pressure", "sensor"],
    np.where(run2, 440 + noise(s, 5), 40 + noise(s, 1.5)),
)
point(p2, "Flow", "Number", "gal/min", ["water", "flow", "sensor"], np.where(run2, 905 + noise(s, 18), 0.0))
p2_kw = np.where(run2, 148 + noise(s, 3), 0.4)
point(p2, "Motor Power", "Number", "kW", ["elec", "power", "sensor"], p2_kw)
point(p2, "Run Status", "Bool", None, ["run", "sensor"], run2)

ac_kw = {}
for code, name in (("e03", "AC-1"), ("e04", "AC-2")):
    ac = equip(s, code, name, ["compressor", "air", "snowmaking"])
    pr = 112 + noise(s, 1.0)
    if name == "AC-1":  # a pressure spike at 06:15 on Tue 10 Mar (the period's only one)
        b = triangle(s, D(2026, 3, 10), 5.5, 6.25, 7.0, 14.0)
        pr = peak_once(pr + b, b > 0, 0.6)
    if name == "AC-2":  # a leak on Tue 10 Mar 13:00-16:30: under 100 psi for 3.5 h
        pr = np.where(s.mask(D(2026, 3, 10), 13.0, 16.5), 93 + noise(s, 0.8), pr)
    point(ac, "Discharge Pressure", "Number", "psi", ["discharge", "air", "pressure", "sensor"], pr)
    ac_kw[name] = np.where(run1, 160 + noise(s, 4), 38 + noise(s, 2))
    point(ac, "Power", "Number", "kW", ["elec", "power", "sensor"], ac_kw[name])

lift_kw = np.zeros(s.n)
for code, name, kw0, marks in (
    ("e05", "Eagle Express Lift", 300, ["lift", "chairlift"]),
    ("e06", "Aspen Quad Lift", 205, ["lift", "chairlift"]),
    ("e07", "Magic Carpet Lift", 22, ["lift", "conveyor"]),
):
    lf = equip(s, code, name, marks)
    run = s.hours(8.5, 16.0)
    if name != "Magic Carpet Lift":  # wind hold on Tue 10 Mar 11:00-14:00
        run = run & ~s.mask(D(2026, 3, 10), 11.0, 14.0)
    crowd = np.where(s.wday >= 5, 1.08, 1.0)
    kw = np.where(run, kw0 * crowd + noise(s, kw0 * 0.04), kw0 * 0.005)
    lift_kw += kw
    point(lf, "Drive Power", "Number", "kW", ["elec", "power", "sensor"], kw)
    if name != "Magic Carpet Lift":
        point(lf, "Line Speed", "Number", "ft/min", ["speed", "sensor"], np.where(run, 1000 + noise(s, 8), 0.0))
    point(lf, "Run Status", "Bool", None, ["run", "sensor"], run)

ahu = equip(s, "e08", "Base Lodge AHU", ["ahu"])
occ = s.hours(7.0, 22.0)
lodge_sp = np.where(occ, 70.0, 64.0)
point(ahu, "Supply Air Temp", "Number", "°F", ["discharge", "air", "temp", "sensor"], 58 + noise(s, 0.8))
point(
    ahu, "Zone Temp", "Number", "°F", ["zone", "air", "temp", "sensor"], lodge_sp - 0.4 + daily(s, 1.0) + noise(s, 0.3)
)
point(ahu, "Zone Temp Setpoint", "Number", "°F", ["zone", "air", "temp", "sp"], lodge_sp)

blr = equip(s, "e09", "Lodge Boiler", ["boiler", "hotWater"])
point(blr, "HW Supply Temp", "Number", "°F", ["hot", "water", "leaving", "temp", "sensor"], 171 + noise(s, 1.2))
point(blr, "HW Supply Temp Setpoint", "Number", "°F", ["hot", "water", "leaving", "temp", "sp"], np.full(s.n, 168.0))
point(blr, "Gas Flow", "Number", "ft³/h", ["gas", "flow", "sensor"], 900 + daily(s, -250, 4) + noise(s, 20))

wx = equip(s, "e10", "Summit Weather", ["weatherStation"])
day_off = np.array([(d - START).days for d in s.date])
walk = np.cumsum(rng.normal(0, 2.0, 21))
oat = 18 + walk[day_off] + daily(s, 8, 14) + noise(s, 0.6)
point(wx, "Outside Air Temp", "Number", "°F", ["outside", "air", "temp", "sensor"], oat)
point(wx, "Wet Bulb Temp", "Number", "°F", ["outside", "air", "wetBulb", "temp", "sensor"], oat - 1.6 + noise(s, 0.2))
wind = np.clip(12 + noise(s, 4), 0, None)
wind = np.where(s.mask(D(2026, 3, 10), 10.5, 14.5), 46 + noise(s, 3), wind)
point(wx, "Wind Speed", "Number", "mph", ["wind", "speed", "sensor"], wind, keep_gap(s, D(2026, 3, 5), 10.0))

res = equip(s, "e11", "Snowmaking Reservoir", ["tank", "water"])
point(res, "Level", "Number", "ft", ["water", "level", "sensor"], 12.5 + daily(s, 1.6, 17) + noise(s, 0.05))
point(res, "Water Temp", "Number", "°F", ["water", "temp", "sensor"], 34.5 + noise(s, 0.3))

mtr = equip(s, "e12", "Main Electric Meter", ["elecMeter", "meter", "elec"])
dem = 240 + p1_kw + p2_kw + ac_kw["AC-1"] + ac_kw["AC-2"] + lift_kw + noise(s, 6)
point(mtr, "Demand", "Number", "kW", ["elec", "power", "sensor"], dem)
point(mtr, "Energy", "Number", "kWh", ["elec", "energy", "sensor"], register(s, dem, 5_204_118.0))

# ----- Lindholm Dairy (Europe/Copenhagen, SI) ---------------------------------------------------------------------
s = dy
prod = s.hours(5.0, 21.0) & (s.wday < 6)
past = equip(s, "e01", "PAST-1", ["pasteurizer", "heatExchanger", "milk"])
hold = 72.6 + noise(s, 0.08)
hold = np.where(s.mask(D(2026, 3, 12), 9.25, 10.0), 71.4 + noise(s, 0.1), hold)  # 3 samples under setpoint
point(past, "Holding Temp", "Number", "°C", ["milk", "temp", "sensor"], hold)
point(past, "Holding Temp Setpoint", "Number", "°C", ["milk", "temp", "sp"], np.full(s.n, 72.0))
point(past, "Product Flow", "Number", "m³/h", ["milk", "flow", "sensor"], np.where(prod, 24 + noise(s, 0.6), 0.0))

for code, name, t0, g in (
    ("e02", "Raw Milk Silo 1", 3.6, keep_gap(s, D(2026, 3, 4), 9.0)),
    ("e03", "Raw Milk Silo 2", 3.9, None),
    ("e04", "Raw Milk Silo 3", 4.5, None),
):
    si = equip(s, code, name, ["tank", "milk", "silo"])
    t = t0 + daily(s, 0.2, 8) + noise(s, 0.08)
    if name == "Raw Milk Silo 3":  # agitator stopped on Mon 9 Mar 02:00-05:00: above 6 °C for 3 h
        t = np.where(s.mask(D(2026, 3, 9), 2.0, 5.0), 6.6 + noise(s, 0.1), t)
    point(si, "Milk Temp", "Number", "°C", ["milk", "temp", "sensor"], t)
    lvl = np.clip(55 + daily(s, 30, 4 + int(code[-1])) + noise(s, 0.8), 0, 100)
    point(si, "Level", "Number", "%", ["milk", "level", "sensor"], lvl, g)

cs = equip(s, "e05", "Cream Silo", ["tank", "cream", "silo"])
point(cs, "Product Temp", "Number", "°C", ["cream", "temp", "sensor"], 4.1 + noise(s, 0.08))
point(cs, "Level", "Number", "%", ["cream", "level", "sensor"], np.clip(48 + daily(s, 20, 18) + noise(s, 0.8), 0, 100))

sb = equip(s, "e06", "Steam Boiler", ["boiler", "steam"])
week_base = np.select(
    [s.between(D(2026, 2, 23), D(2026, 3, 2)), s.between(D(2026, 3, 2), D(2026, 3, 9))], [6.9, 5.8], 6.3
)
steam = np.where(prod, week_base + noise(s, 0.25), 1.2 + noise(s, 0.1))
point(sb, "Steam Pressure", "Number", "bar", ["steam", "pressure", "sensor"], 10.2 + noise(s, 0.1))
point(sb, "Steam Flow", "Number", "t/h", ["steam", "flow", "sensor"], steam)
point(sb, "Firing Rate", "Number", "%", ["fire", "sensor"], np.clip(steam / 9 * 100, 0, 100))

nh3_kw = {}
for code, name, suct, kw_on, kw_off in (("e07", "NH3 Comp 1", 1.9, 215, 120), ("e08", "NH3 Comp 2", 2.05, 165, 40)):
    c = equip(s, code, name, ["compressor", "refrig", "ammonia"])
    point(
        c,
        "Suction Pressure",
        "Number",
        "bar",
        ["refrig", "suction", "pressure", "sensor"],
        suct + daily(s, 0.1) + noise(s, 0.04),
    )
    point(
        c,
        "Discharge Pressure",
        "Number",
        "bar",
        ["refrig", "discharge", "pressure", "sensor"],
        11.5 + daily(s, 0.8) + noise(s, 0.1),
    )
    nh3_kw[name] = np.where(prod, kw_on + noise(s, 5), kw_off + noise(s, 4))
    point(c, "Power", "Number", "kW", ["elec", "power", "sensor"], nh3_kw[name])

air = equip(s, "e09", "air_comp_1", ["compressor", "air"])
point(air, "Pressure", "Number", "bar", ["air", "pressure", "sensor"], 7.1 + noise(s, 0.05))
air_kw = 38 + noise(s, 3)
point(air, "Power", "Number", "kW", ["elec", "power", "sensor"], air_kw)

cip = equip(s, "e10", "CIP Station", ["cip"])
wash = s.hours(21.0, 23.0)
point(
    cip,
    "Return Temp",
    "Number",
    "°C",
    ["return", "water", "temp", "sensor"],
    np.where(wash, 75.0, 20.0) + noise(s, 0.5),
)
point(cip, "Conductivity", "Number", "mS/cm", ["conductivity", "sensor"], np.where(wash, 58.0, 0.6) + noise(s, 0.3))

inc = equip(s, "e11", "Main Incomer", ["elecMeter", "meter", "elec"])
inc_kw = 420 + np.where(prod, 610, 0) + nh3_kw["NH3 Comp 1"] + nh3_kw["NH3 Comp 2"] + air_kw + noise(s, 12)
point(inc, "Active Power", "Number", "kW", ["elec", "power", "sensor"], inc_kw)
point(inc, "Apparent Power", "Number", "kVA", ["elec", "apparent", "power", "sensor"], inc_kw / 0.93)
point(inc, "Frequency", "Number", "Hz", ["elec", "freq", "sensor"], 50 + noise(s, 0.02))
point(inc, "Energy Import", "Number", "MWh", ["elec", "energy", "import", "sensor"],
      register(s, inc_kw, 18_422.0, scale=0.001))  # fmt: skip

pw = equip(s, "e12", "Process Water", ["waterMeter", "meter", "water"])
point(pw, "Flow", "Number", "m³/h", ["water", "flow", "sensor"], np.where(prod, 38, 6) + noise(s, 1.2))

# ----- Aoba Grand Hotel (Asia/Tokyo, SI) ---------------------------------------------------------------------------
s = ht
a1 = equip(s, "e01", "AHU-L1-01", ["ahu"])
point(a1, "Supply Air Temp", "Number", "°C", ["discharge", "air", "temp", "sensor"], 16.5 + noise(s, 0.3))
point(a1, "Lobby Temp", "Number", "°C", ["zone", "air", "temp", "sensor"], 22.3 + daily(s, 0.6) + noise(s, 0.15))
point(a1, "Lobby Temp Setpoint", "Number", "°C", ["zone", "air", "temp", "sp"], np.full(s.n, 22.0))
co2 = 600 + daily(s, 170, 19) + noise(s, 15)
co2 = co2 + triangle(s, D(2026, 3, 6), 17.0, 20.5, 23.0, 520)  # a wedding on Fri 6 Mar
point(a1, "Lobby CO2", "Number", "ppm", ["zone", "air", "co2", "sensor"], co2)

a2 = equip(s, "e02", "AHU-L2-03", ["ahu"])
point(a2, "Supply Air Temp", "Number", "°C", ["discharge", "air", "temp", "sensor"], 15.8 + noise(s, 0.3))
point(a2, "Return Air Temp", "Number", "°C", ["return", "air", "temp", "sensor"], 23.1 + daily(s, 0.7) + noise(s, 0.2))
point(a2, "Supply Fan Speed", "Number", "Hz", ["discharge", "fan", "speed", "sensor"], 42 + noise(s, 1.0))

for code, name, t0 in (
    ("e03", "FCU-1205", 22.8),
    ("e04", "FCU-1206", 23.1),
    ("e05", "FCU-0810", 23.4),
    ("e06", "FCU-0302", 22.5),
):
    f = equip(s, code, name, ["fcu"])
    t = t0 + daily(s, 0.6) + noise(s, 0.15)
    if name == "FCU-0810":  # afternoon sun with the balcony door open on Mon 9 Mar
        t = t + triangle(s, D(2026, 3, 9), 12.0, 15.0, 17.0, 4.0)
    point(f, "Room Temp", "Number", "°C", ["zone", "air", "temp", "sensor"], t)
    point(f, "Room Temp Setpoint", "Number", "°C", ["zone", "air", "temp", "sp"], np.full(s.n, 23.0))

kef = equip(s, "e07", "Kitchen Extract Fan", ["fan", "exhaust"])
krun = s.hours(6.0, 23.0)
point(kef, "Motor Current", "Number", "A", ["elec", "current", "sensor"], np.where(krun, 14.5 + noise(s, 0.3), 0.0))
point(kef, "Fan Speed", "Number", "%", ["fan", "speed", "sensor"], np.where(krun, 85 + noise(s, 1.0), 0.0))
point(kef, "Run Status", "Bool", None, ["run", "sensor"], krun)

ch = equip(s, "e08", "CH-1", ["chiller"])
point(ch, "CHW Supply Temp", "Number", "°C", ["chilled", "water", "leaving", "temp", "sensor"], 7.0 + noise(s, 0.12))
point(
    ch,
    "CHW Return Temp",
    "Number",
    "°C",
    ["chilled", "water", "entering", "temp", "sensor"],
    12.0 + daily(s, 0.8) + noise(s, 0.15),
    keep_gap(s, D(2026, 3, 1), 2.0),
)
ch_kw = 95 + daily(s, 35, 14) + noise(s, 4)
point(ch, "Power", "Number", "kW", ["elec", "power", "sensor"], ch_kw)

dhw = equip(s, "e09", "DHW Calorifier", ["heatExchanger", "domestic", "hotWater"])
dt_ = 61.4 + noise(s, 0.25)
dt_ = np.where(s.mask(D(2026, 3, 8), 6.0, 8.5), 57.8 + noise(s, 0.3), dt_)  # Sunday morning showers: 2.5 h under
point(dhw, "DHW Temp", "Number", "°C", ["domestic", "hot", "water", "temp", "sensor"], dt_)
point(dhw, "DHW Temp Setpoint", "Number", "°C", ["domestic", "hot", "water", "temp", "sp"], np.full(s.n, 60.0))

for code, name, p0 in (("e10", "pump_a", 480), ("e11", "pump_b", 474)):
    pm = equip(s, code, name, ["pump", "domestic", "water"])
    point(pm, "Discharge Pressure", "Number", "kPa", ["discharge", "water", "pressure", "sensor"], p0 + noise(s, 5))
    point(pm, "Speed", "Number", "Hz", ["speed", "sensor"], 40 + daily(s, 6, 8) + noise(s, 0.5))

msb = equip(s, "e12", "Main Switchboard", ["elecMeter", "meter", "elec"])
kw = 520 + daily(s, 180, 19) + ch_kw + noise(s, 10)
b = triangle(s, D(2026, 3, 5), 18.0, 19.5, 21.0, 260)  # a banquet on Thu 5 Mar
kw = peak_once(kw + b, b > 0, 8.0)
point(msb, "Active Power", "Number", "kW", ["elec", "power", "sensor"], kw)
point(msb, "Apparent Power", "Number", "kVA", ["elec", "apparent", "power", "sensor"], kw / 0.95)
point(msb, "Voltage L1-L2", "Number", "V", ["elec", "volt", "sensor"], 415 + noise(s, 1.5))
point(msb, "Current L1", "Number", "A", ["elec", "current", "sensor"], kw * 1000 / (math.sqrt(3) * 415 * 0.95))

# ---------------------------------------------------------------------------------------------------------------


if __name__ == "__main__":
    G.write(HERE, SITES, sort_equips=False)
