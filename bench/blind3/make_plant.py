"""Make the blind-3 plant: plant.json (Haystack 4 JSON grid) and plant.csv.gz (15-minute histories).

Three sites of different kinds, 2026-09-21 00:00 to 2026-10-12 00:00 site-local:
  Kestrel Cold Store     (Australia/Sydney, SI, clocks forward on Sun 4 Oct 2026)
  Lakeview Aquatic Center (America/Chicago, US units, no clock change in the period)
  Tamaki DC2             (Pacific/Auckland, SI incl. W and MW, clocks forward on Sun 27 Sep 2026)

Fixed seed; the same run gives byte-identical files (gzip mtime 0, no file name in the header).
Usage: python bench/blind3/make_plant.py
"""

from __future__ import annotations

import datetime as dt
import sys
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))
from blindkit.plant import Plant, daily, keep_gap, triangle  # noqa: E402

SEED = 20261004
START = dt.date(2026, 9, 21)
END = dt.date(2026, 10, 12)
D = dt.date


G = Plant(SEED, START, END)
Site, noise, equip, point = G.site, G.noise, G.equip, G.point


cs = Site("kcs", "Kestrel Cold Store", "Australia/Sydney", "Sydney", "Sydney")
aq = Site("lvac", "Lakeview Aquatic Center", "America/Chicago", "Chicago", "Naperville")
dc = Site("tdc2", "Tamaki DC2", "Pacific/Auckland", "Auckland", "Auckland")
SITES = [cs, aq, dc]

# ----- Kestrel Cold Store (SI) -----------------------------------------------------------------------------------
s = cs
fr1 = equip(s, "e01", "Freezer Room 1", ["coldRoom", "freezer"])
fr1_sp = np.full(s.n, -20.0)
fr1_t = -21.6 + daily(s, 0.35) + noise(s, 0.15)
door = triangle(s, D(2026, 10, 7), 14.0, 15.25, 16.75, 7.0)  # door left open: peak at 15:15
fr1_t = np.where(door > 0, -21.6 + door, fr1_t)
fr1_t[np.argmax(door)] += 0.35  # a single clear peak
point(fr1, "Room Temp", "Number", "°C", ["zone", "air", "temp", "sensor"], fr1_t)
point(fr1, "Room Temp Setpoint", "Number", "°C", ["zone", "air", "temp", "sp"], fr1_sp)
door_open = np.zeros(s.n, bool)
door_open |= s.mask(D(2026, 10, 7), 14.0, 16.0)
for d in range(21):
    day = START + dt.timedelta(days=d)
    if day.weekday() < 5:
        door_open |= s.mask(day, 6.0, 6.5) | s.mask(day, 11.0, 11.25)
point(fr1, "Door Open", "Bool", None, ["door", "sensor"], door_open)

fr2 = equip(s, "e02", "Freezer Room 2", ["coldRoom", "freezer"])
point(fr2, "Room Temp", "Number", "°C", ["zone", "air", "temp", "sensor"], -23.1 + daily(s, 0.4) + noise(s, 0.2))
point(fr2, "Room Temp Setpoint", "Number", "°C", ["zone", "air", "temp", "sp"], np.full(s.n, -20.0))

cr3 = equip(s, "e03", "Chill Room 3", ["coldRoom", "cooler"])
cr3_t = 2.4 + daily(s, 0.5) + noise(s, 0.15)
cr3_t = cr3_t + triangle(s, D(2026, 9, 30), 9.0, 10.5, 12.0, 3.8)  # a warm delivery, above 5 °C
cr3_t = cr3_t + triangle(s, D(2026, 10, 4), 3.0, 3.5, 5.0, 1.6)  # just after the skipped hour
point(cr3, "Room Temp", "Number", "°C", ["zone", "air", "temp", "sensor"], cr3_t)
point(cr3, "Room Temp Setpoint", "Number", "°C", ["zone", "air", "temp", "sp"], np.full(s.n, 3.0))

for code, name, base in (("e04", "EVAP-F1A", -28.0), ("e05", "EVAP-F2A", -29.5)):
    ev = equip(s, code, name, ["evaporator", "refrig"])
    defrost = np.isin(np.round(s.hour % 6, 2), [0.0, 0.25])
    coil = base + noise(s, 0.4) + np.where(defrost, 30.0, 0.0)
    point(ev, "Coil Temp", "Number", "°C", ["coil", "temp", "sensor"], coil)
    point(ev, "Fan Speed", "Number", "%", ["fan", "speed", "sensor"], np.clip(72 + daily(s, 8) + noise(s, 3), 0, 100))

rack_a_kw = 86 + daily(s, 14) + noise(s, 3)
rack_b_kw = 61 + daily(s, 10) + noise(s, 3)
for code, name, suct, kw, g in (
    ("e06", "Comp Rack A", 108, rack_a_kw, None),
    ("e07", "Comp Rack B", 116, rack_b_kw, keep_gap(s, D(2026, 10, 2), 9.0)),
):
    cp = equip(s, code, name, ["compressor", "refrig"])
    point(
        cp,
        "Suction Pressure",
        "Number",
        "kPa",
        ["suction", "pressure", "sensor"],
        suct + daily(s, -4) + noise(s, 1.5),
        g,
    )
    run = np.ones(s.n, bool)
    if name == "Comp Rack B":
        run &= ~s.mask(D(2026, 9, 24), 1.0, 2.5)
    point(cp, "Power", "Number", "kW", ["elec", "power", "sensor"], np.where(run, kw, 0.8))
    point(cp, "Run Status", "Bool", None, ["run", "sensor"], run)

dh = equip(s, "e08", "Dock DH-1", ["dehumidifier"])
hum = 52 + daily(s, 6, 14) + noise(s, 1.2)
point(dh, "Dock Humidity", "Number", "%RH", ["air", "humidity", "sensor"], hum)
point(dh, "Humidity Setpoint", "Number", "%RH", ["air", "humidity", "sp"], np.full(s.n, 60.0))

msb = equip(s, "e09", "MSB Main", ["elecMeter", "meter", "elec"])
msb_kw = 40 + rack_a_kw + rack_b_kw + daily(s, 12, 13) + noise(s, 2)
point(msb, "Active Power", "Number", "kW", ["elec", "power", "sensor"], msb_kw)
secs = np.array([(t - s.utc[0]).total_seconds() for t in s.utc])
reg = 1_284_377.0 + np.concatenate([[0.0], np.cumsum((msb_kw[1:] + msb_kw[:-1]) / 2 * np.diff(secs) / 3600)])
point(msb, "Energy Register", "Number", "kWh", ["elec", "energy", "sensor"], reg)

wm = equip(s, "e10", "Town Water", ["waterMeter", "meter", "water"])
week2 = np.array([D(2026, 9, 28) <= d < D(2026, 10, 5) for d in s.date])
flow = np.clip(
    0.9 + np.where((s.hour >= 6) & (s.hour < 18), 1.4, 0.0) + np.where(week2, 0.35, 0.0) + noise(s, 0.12), 0, None
)
point(wm, "Flow", "Number", "L/s", ["water", "flow", "sensor"], flow)
vol = 8_412.0 + np.concatenate([[0.0], np.cumsum((flow[1:] + flow[:-1]) / 2 * np.diff(secs) / 1000)])
point(wm, "Total Volume", "Number", "m³", ["water", "volume", "sensor"], vol)

# ----- Lakeview Aquatic Center (US units) ------------------------------------------------------------------------
s = aq
for code, name, p0, q0, marks, g in (
    ("e01", "Pool Filter 1", 13.5, 420, ["poolFilter", "filter"], None),
    ("e02", "Pool Filter 2", 12.0, 381, ["poolFilter", "filter"], keep_gap(s, D(2026, 10, 1), 2.0)),
    ("e03", "Spa Filter", 9.5, 96, ["poolFilter", "filter"], None),
):
    f = equip(s, code, name, marks)
    days = np.array([(d - START).days for d in s.date]) + s.hour / 24
    clog = (days % 7) * (0.9 if name == "Pool Filter 1" else 0.45)  # backwash every Monday
    point(f, "Filter Pressure", "Number", "psi", ["filter", "pressure", "sensor"], p0 + clog + noise(s, 0.2))
    point(f, "Flow", "Number", "gal/min", ["water", "flow", "sensor"], q0 - clog * 4 + noise(s, 4), g)

htr = equip(s, "e04", "POOL HTR-1", ["boiler", "hotWaterPlant"])
htr_sp = np.full(s.n, 84.0)
htr_t = 85.6 + noise(s, 0.25)
low = s.mask(D(2026, 10, 6), 5.0, 10.0)  # a cold-start morning: 5 h below setpoint
htr_t = np.where(low, 81.2 + noise(s, 0.4), htr_t)
point(htr, "Supply Temp", "Number", "°F", ["hot", "water", "leaving", "temp", "sensor"], htr_t)
point(htr, "Supply Temp Setpoint", "Number", "°F", ["hot", "water", "leaving", "temp", "sp"], htr_sp)
fire = np.clip(38 + daily(s, -12, 5) + np.where(low, 55, 0) + noise(s, 3), 0, 100)
point(htr, "Firing Rate", "Number", "%", ["fire", "sensor"], fire)
point(htr, "Gas Input", "Number", "kBtu/h", ["gas", "power", "sensor"], fire * 20)

nat = equip(s, "e05", "Natatorium AHU", ["ahu"])
lastwk = np.array([D(2026, 9, 28) <= d < D(2026, 10, 5) for d in s.date])
nhum = 51.0 + daily(s, 3.0, 16) + np.where(lastwk, 3.4, 0.0) + noise(s, 0.8)
point(nat, "Space Temp", "Number", "°F", ["zone", "air", "temp", "sensor"], 85.5 + daily(s, 1.2) + noise(s, 0.3))
point(nat, "Space Humidity", "Number", "%RH", ["zone", "air", "humidity", "sensor"], nhum)
point(nat, "Space Humidity Setpoint", "Number", "%RH", ["zone", "air", "humidity", "sp"], np.full(s.n, 60.0))
point(nat, "Supply Airflow", "Number", "cfm", ["discharge", "air", "flow", "sensor"], 18000 + noise(s, 250))

lob = equip(s, "e06", "AHU-2 Lobby", ["ahu"])
point(lob, "Space Temp", "Number", "°F", ["zone", "air", "temp", "sensor"], 71.2 + daily(s, 1.5) + noise(s, 0.3))
point(lob, "Space Temp Setpoint", "Number", "°F", ["zone", "air", "temp", "sp"], np.full(s.n, 72.0))
point(
    lob, "Supply Airflow", "Number", "cfm", ["discharge", "air", "flow", "sensor"], 6200 + daily(s, 900) + noise(s, 120)
)

ch = equip(s, "e07", "Chiller 1", ["chiller"])
load = np.clip(70 + daily(s, 30) + noise(s, 4), 0, None)
load = load + triangle(s, D(2026, 10, 1), 13.0, 15.5, 18.0, 22.0)
point(ch, "Cooling Load", "Number", "tons", ["cool", "sensor"], load)
point(ch, "Leaving Water Temp", "Number", "°F", ["chilled", "water", "leaving", "temp", "sensor"], 44.2 + noise(s, 0.3))

svc = equip(s, "e08", "Main Service", ["elecMeter", "meter", "elec"])
point(svc, "Demand", "Number", "kW", ["elec", "power", "sensor"], 240 + load * 0.7 + daily(s, 30) + noise(s, 6))

# ----- Tamaki DC2 (SI, W and MW) ---------------------------------------------------------------------------------
s = dc
for code, name, base in (("e01", "CRAC-01", 24.4), ("e02", "CRAC-02", 24.9), ("e03", "CRAC-03", 25.1)):
    c = equip(s, code, name, ["crac", "cooling"])
    rat = base + daily(s, 0.6) + noise(s, 0.2)
    if name == "CRAC-02":
        rat = rat + triangle(s, D(2026, 10, 5), 12.75, 14.75, 17.0, 4.6)  # a failed fan: above 27 °C in the afternoon
    if name == "CRAC-03":
        rat = np.where(s.mask(D(2026, 10, 1), 10.0, 16.0), 26.6 + noise(s, 0.12), rat)  # 6 h above 26 °C
        rat = np.minimum(rat, np.where(s.mask(D(2026, 10, 1), 10.0, 16.0), 99, 25.85))
    point(c, "Return Air Temp", "Number", "°C", ["return", "air", "temp", "sensor"], rat)
    keep = keep_gap(s, D(2026, 9, 30), 3.0) if name == "CRAC-01" else None
    point(c, "Supply Air Temp", "Number", "°C", ["discharge", "air", "temp", "sensor"], 18.1 + noise(s, 0.2), keep)
    point(c, "Supply Air Temp Setpoint", "Number", "°C", ["discharge", "air", "temp", "sp"], np.full(s.n, 18.0))

for code, name, kw0, g in (("e04", "UPS A", 312, None), ("e05", "UPS B", 268, keep_gap(s, D(2026, 9, 25), 20.0))):
    u = equip(s, code, name, ["ups"])
    kw = kw0 + daily(s, 18, 14) + noise(s, 5)
    point(u, "Output Power", "Number", "kW", ["elec", "power", "sensor"], kw)
    point(u, "Load", "Number", "%", ["load", "sensor"], kw / 500 * 100)
    point(u, "Battery Charge", "Number", "%", ["battery", "sensor"], np.clip(99.2 + noise(s, 0.3), 0, 100), g)

for code, name, w0 in (("e06", "PDU-A1", 6400), ("e07", "PDU-B1", 5150)):
    p = equip(s, code, name, ["pdu"])
    point(p, "Power", "Number", "W", ["elec", "power", "sensor"], w0 + daily(s, 500, 14) + noise(s, 80))

gen = equip(s, "e08", "GEN-1", ["generator", "diesel"])
grun = np.zeros(s.n, bool)
for d in range(21):
    day = START + dt.timedelta(days=d)
    if day.weekday() == 3:
        grun |= s.mask(day, 10.0, 10.5)
point(gen, "Run Status", "Bool", None, ["run", "sensor"], grun)
fuel = 96.0 - np.cumsum(grun) * 0.35 + noise(s, 0.1)
point(gen, "Fuel Level", "Number", "%", ["fuel", "level", "sensor"], fuel)

ct = equip(s, "e09", "CT-1", ["coolingTower"])
point(
    ct,
    "Leaving Water Temp",
    "Number",
    "°C",
    ["condenser", "water", "leaving", "temp", "sensor"],
    27.5 + daily(s, 1.8) + noise(s, 0.3),
)
point(ct, "Fan Speed", "Number", "%", ["fan", "speed", "sensor"], np.clip(55 + daily(s, 15) + noise(s, 3), 0, 100))

inc = equip(s, "e10", "DC Incomer", ["elecMeter", "meter", "elec"])
wk1 = np.array([d < D(2026, 9, 28) for d in s.date])
mw = 0.93 + daily(s, 0.06, 15) + np.where(wk1, -0.05, 0.0) + noise(s, 0.008)
pk = s.mask(D(2026, 10, 1), 14.5, 14.75)  # 1 Oct 14:30 local: the period's peak
mw = np.where(pk, mw.max() + 0.05, mw)
point(inc, "Total Power", "Number", "MW", ["elec", "power", "sensor"], mw)

# ---------------------------------------------------------------------------------------------------------------


if __name__ == "__main__":
    G.write(HERE, SITES, sort_equips=False)
