"""Make the blind-6 plant: plant.json (Haystack 4 JSON grid) and plant.csv.gz (15-minute histories).

Three sites of different kinds, Mon 2026-03-23 00:00 to Mon 2026-04-13 00:00 site-local (3 weeks):
  Saltbush Bakehouse (Australia/Adelaide, SI; +10:30, clocks go BACK on Sun 5 Apr 2026 03:00 -> 02:00: a 25-hour day)
  EEA Jaguari        (America/Sao_Paulo, SI; -03:00, no clock change)
  SGR Terminal       (America/Phoenix, US units; -07:00, no clock change)

Fixed seed; the same run gives byte-identical files (gzip mtime 0, no file name in the header).
Usage: python bench/blind6/make_plant.py
"""

from __future__ import annotations

import datetime as dt
import math
import sys
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))
from blindkit.plant import Plant, daily, keep_gap, register, triangle  # noqa: E402

SEED = 20260405
START = dt.date(2026, 3, 23)
END = dt.date(2026, 4, 13)
D = dt.date


G = Plant(SEED, START, END, require_unit=False)  # the Power Factor points have no unit
rng = G.rng
Site, noise, equip, point = G.site, G.noise, G.equip, G.point


bk = Site("sbh", "Saltbush Bakehouse", "Australia/Adelaide", "Adelaide", "Adelaide")
jg = Site("eej", "EEA Jaguari", "America/Sao_Paulo", "Sao_Paulo", "Sao Paulo")
tm = Site("sgr", "SGR Terminal", "America/Phoenix", "Phoenix", "Phoenix")
SITES = [bk, jg, tm]

# ----- Saltbush Bakehouse (Adelaide, SI) -------------------------------------------------------------------------
s = bk
GOOD_FRIDAY = D(2026, 4, 3)
workday = (s.wday < 6) & ~s.days([GOOD_FRIDAY])  # Mon-Sat, closed Sunday and Good Friday
prod = workday & s.hours(1.0, 15.0)  # the bake shift 01:00-15:00

to1 = equip(s, "e01", "Tunnel Oven 1", ["oven"])
point(to1, "Bake Temp", "Number", "°C", ["air", "temp", "sensor"], np.maximum(237.0 + noise(s, 0.5), 235.9))
point(to1, "Bake Temp Setpoint", "Number", "°C", ["air", "temp", "sp"], np.full(s.n, 235.0))
to1_gas = np.where(prod, 38.0 + noise(s, 1.2), 9.0 + noise(s, 0.4))
point(to1, "Gas Flow", "Number", "m³/h", ["gas", "flow", "sensor"], to1_gas)
to1_kw = np.where(prod, 96.0 + noise(s, 2.5), 22.0 + noise(s, 0.8))
point(to1, "Power", "Number", "kW", ["elec", "power", "sensor"], to1_kw)

to2 = equip(s, "e02", "Tunnel Oven 2", ["oven"])
trip = s.mask(D(2026, 4, 9), 5.0, 7.5)  # burner trip: 05:00-07:15 samples under the 220 °C setpoint (2.5 h)
to2_t = np.maximum(222.0 + noise(s, 0.45), 220.8)
to2_t = np.where(trip, 205.0 + noise(s, 1.2), to2_t)
point(to2, "Bake Temp", "Number", "°C", ["air", "temp", "sensor"], to2_t)
point(to2, "Bake Temp Setpoint", "Number", "°C", ["air", "temp", "sp"], np.full(s.n, 220.0))
to2_gas = np.where(prod, 31.0 + noise(s, 1.0), 8.0 + noise(s, 0.4))
point(to2, "Gas Flow", "Number", "m³/h", ["gas", "flow", "sensor"], np.where(trip, 0.0, to2_gas))
to2_kw = np.where(prod, 78.0 + noise(s, 2.0), 18.0 + noise(s, 0.7))
point(to2, "Power", "Number", "kW", ["elec", "power", "sensor"], to2_kw)

do3 = equip(s, "e03", "deck_oven_3", ["oven"])
deck_on = workday & s.hours(2.0, 10.0)
since_off = np.zeros(s.n)
last_on = -1e9
for i in range(s.n):
    if deck_on[i]:
        last_on = s.secs[i]
    since_off[i] = (s.secs[i] - last_on) / 3600
deck_t = np.where(deck_on, 250.0 + noise(s, 1.5), 38.0 + 212.0 * np.exp(-np.minimum(since_off, 200) / 2.5))
point(do3, "Deck Temp", "Number", "°C", ["temp", "sensor"], deck_t + np.where(deck_on, 0, noise(s, 0.5)))
deck_kw = np.where(deck_on, 64.0 + noise(s, 3.0), np.abs(0.3 + noise(s, 0.05)))
deck_kw[s.at(D(2026, 4, 1), 3.25)] = 91.4  # an element fault: the one peak, Wed 1 Apr 03:15
point(do3, "Power", "Number", "kW", ["elec", "power", "sensor"], deck_kw)
point(do3, "Door Open", "Bool", None, ["door", "sensor"], deck_on & np.isin(s.hour, [2.0, 4.0, 6.0, 8.0]))

for code, name, ev in (("e04", "Proofer P1", None), ("e05", "Proofer P2", s.mask(D(2026, 4, 7), 8.0, 9.25))):
    pr = equip(s, code, name, ["proofer"])
    point(pr, "Chamber Temp", "Number", "°C", ["air", "temp", "sensor"], np.where(prod, 38.0, 24.0) + noise(s, 0.3))
    hum = np.where(prod, np.maximum(82.5 + noise(s, 0.7), 80.6), np.maximum(55.0 + noise(s, 1.5), 50.6))
    if ev is not None:  # steam valve stuck: 08:00-09:00 samples at 71 %RH, under the 80 %RH setpoint (1.25 h)
        hum = np.where(ev, 71.0 + noise(s, 1.0), hum)
    point(pr, "Chamber Humidity", "Number", "%RH", ["air", "humidity", "sensor"], hum)
    point(pr, "Humidity Setpoint", "Number", "%RH", ["air", "humidity", "sp"], np.where(prod, 80.0, 50.0))

mix_kw = {}
for code, name, kw_on, kw_rest, dough, rpm in (
    ("e06", "Spiral Mixer A", 31.0, 4.0, 24.6, 210.0),
    ("e07", "Spiral Mixer B", 23.0, 3.0, 25.2, 180.0),
):
    mx = equip(s, code, name, ["mixer", "motor"])
    mixing = prod & (np.round(s.hour * 4) % 2 == 0)
    kw = np.where(mixing, kw_on + noise(s, 2.5), np.where(prod, kw_rest + noise(s, 0.4), 0.0))
    mix_kw[name] = kw
    point(mx, "Motor Power", "Number", "kW", ["elec", "power", "sensor"], kw)
    point(mx, "Dough Temp", "Number", "°C", ["temp", "sensor"], np.where(prod, dough, 20.5) + noise(s, 0.35))
    point(mx, "Bowl Speed", "Number", "rpm", ["speed", "sensor"], np.where(mixing, rpm + noise(s, 1.0), 0.0))

cv = equip(s, "e08", "CV-03", ["conveyor"])
point(cv, "Belt Speed", "Number", "m/min", ["speed", "sensor"], np.where(prod, 6.5 + noise(s, 0.05), 0.0))
cv_a = np.where(prod, 11.2 + noise(s, 0.3), 0.0)
point(cv, "Motor Current", "Number", "A", ["elec", "current", "sensor"], cv_a)
point(cv, "Run", "Bool", None, ["run", "sensor"], prod)

sf = equip(s, "e09", "Spiral Freezer SF-1", ["freezer"])
sf_t = np.minimum(-33.2 + noise(s, 0.4), -31.8)
sf_t = sf_t + triangle(s, D(2026, 4, 7), 13.0, 13.75, 14.5, 14.0)  # a jammed infeed door: up to about -19 °C at 13:45
point(sf, "Air Temp", "Number", "°C", ["air", "temp", "sensor"], sf_t)
point(sf, "Air Temp Setpoint", "Number", "°C", ["air", "temp", "sp"], np.full(s.n, -32.0))
point(sf, "Belt Speed", "Number", "m/min", ["speed", "sensor"], np.where(prod, 2.2 + noise(s, 0.03), 0.0))

ac = equip(s, "e10", "Air Comp 1", ["airCompressor", "compressor", "air"])
ac_p = np.where(prod, 7.2, 6.9) + noise(s, 0.04)
ac_p[s.at(D(2026, 4, 4), 10.25)] = 5.1  # a burst hose: the one low, Sat 4 Apr 10:15
point(ac, "Discharge Pressure", "Number", "bar", ["air", "discharge", "pressure", "sensor"], ac_p)
ac_kw = np.where(prod, 45.0 + noise(s, 2.0), 14.0 + noise(s, 1.0))
point(ac, "Power", "Number", "kW", ["elec", "power", "sensor"], ac_kw)
point(ac, "Loaded", "Bool", None, ["run", "sensor"], prod)

df = equip(s, "e11", "Flour Silo Dust Fan", ["fan", "exhaust"])
fan_pct = np.where(prod, 78.0 + noise(s, 2.0), 30.0 + noise(s, 1.0))
point(df, "Fan Speed", "Number", "%", ["fan", "speed", "sensor"], fan_pct)
days_in = np.array([(d - START).days for d in s.date]) + s.hour / 24
point(
    df,
    "Filter Diff Pressure",
    "Number",
    "Pa",
    ["filter", "pressure", "sensor"],
    420.0 + (days_in % 7) * 15.0 + noise(s, 5.0),
    keep_gap(s, D(2026, 4, 1), 8.0),
)

msb = equip(s, "e12", "Main Switchboard", ["elecMeter", "meter", "elec"])
msb_kw = (
    38.0
    + to1_kw
    + to2_kw
    + deck_kw
    + mix_kw["Spiral Mixer A"]
    + mix_kw["Spiral Mixer B"]
    + cv_a * 0.4
    + np.where(prod, 40.0, 25.0)
    + ac_kw
    + fan_pct * 0.15
    + noise(s, 2.0)
)
point(msb, "Active Power", "Number", "kW", ["elec", "power", "sensor"], msb_kw)
point(msb, "Energy Total", "Number", "kWh", ["elec", "energy", "sensor"], register(s, msb_kw, 2_318_440.0))
point(msb, "Voltage L1-N", "Number", "V", ["elec", "voltage", "sensor"], 239.0 + noise(s, 1.2))
point(msb, "Frequency", "Number", "Hz", ["elec", "freq", "sensor"], 50.0 + noise(s, 0.02))

# ----- EEA Jaguari (Sao Paulo, SI) --------------------------------------------------------------------------------
s = jg
h = s.hour
demand = (
    0.82
    + 0.22 * np.exp(-(((h - 7.5) / 2.0) ** 2))
    + 0.16 * np.exp(-(((h - 19.0) / 2.2) ** 2))
    - 0.08 * ((h < 5) | (h >= 23))
)
STORM = D(2026, 3, 31)
grid_out = s.mask(STORM, 17.0, 19.0)  # the storm takes the grid: the generator carries the station 17:00-19:00

pump_kw = {}
pump_flow = {}
for code, name, q0, kw0, p0, on in (
    ("e01", "BP-01", 430.0, 88.0, 5.4, np.ones(s.n, bool)),
    ("e02", "BP-02", 310.0, 66.0, 5.3, s.hours(6.0, 22.0) & ~s.mask(D(2026, 4, 4), 9.0, 13.0)),
    ("e03", "BP-03", 240.0, 52.0, 5.2, ~s.hours(6.0, 22.0)),
):
    bp = equip(s, code, name, ["pump", "water"])
    scale = demand if name != "BP-03" else np.ones(s.n)
    point(
        bp,
        "Discharge Pressure",
        "Number",
        "bar",
        ["water", "discharge", "pressure", "sensor"],
        np.where(on, p0 + noise(s, 0.05), 0.4 + noise(s, 0.02)),
    )
    q = np.where(on, q0 * scale + noise(s, 5.0), 0.0)
    pump_flow[name] = q
    point(
        bp,
        "Flow",
        "Number",
        "m³/h",
        ["water", "flow", "sensor"],
        q,
        keep_gap(s, D(2026, 3, 26), 10.0) if name == "BP-03" else None,
    )
    kw = np.where(on, kw0 * scale + noise(s, 1.2), 0.0)
    pump_kw[name] = kw
    point(bp, "Motor Power", "Number", "kW", ["elec", "power", "sensor"], kw)
    point(bp, "Run Status", "Bool", None, ["run", "sensor"], on)
    point(bp, "VFD Speed", "Number", "Hz", ["motor", "freq", "sensor"], np.where(on, 50.0 * np.sqrt(scale), 0.0))

for code, name, lvl, amps, ev in (
    ("e04", "Poço 4", 21.0, 38.0, True),
    ("e05", "Poço 7", 26.0, 31.0, False),
):
    w = equip(s, code, name, ["well", "water"])
    level = lvl + daily(s, 0.6, 4.0) + noise(s, 0.08)
    if ev:  # heavy draw on Wed 8 Apr: the one low, 14:30
        level = level - triangle(s, D(2026, 4, 8), 10.0, 14.5, 19.0, 4.4)
        level[s.at(D(2026, 4, 8), 14.5)] -= 0.3
    point(w, "Water Level", "Number", "m", ["water", "level", "sensor"], level)
    point(w, "Pump Current", "Number", "A", ["elec", "current", "sensor"], amps + noise(s, 1.0))

nr = equip(s, "e06", "North Reservoir", ["tank", "water"])
nr_l = 3.6 + daily(s, 0.35, 3.0) + noise(s, 0.03)
low = s.mask(D(2026, 4, 8), 16.0, 20.0)  # draw-down: 16:00-19:45 samples under 2.0 m (4 h)
ramp = s.mask(D(2026, 4, 8), 14.0, 16.0) | s.mask(D(2026, 4, 8), 20.0, 22.0)
nr_l = np.where(low, np.minimum(1.78 + noise(s, 0.03), 1.9), nr_l)
nr_l = np.where(ramp, np.maximum(2.45 + noise(s, 0.05), 2.2), nr_l)
point(nr, "Level", "Number", "m", ["water", "level", "sensor"], nr_l)

sr = equip(s, "e07", "South Reservoir", ["tank", "water"])
point(sr, "Level", "Number", "m", ["water", "level", "sensor"], 4.1 + daily(s, 0.3, 5.0) + noise(s, 0.03))

vv = equip(s, "e08", "Inlet Valve V-101", ["valve", "water"])
vcmd = np.round((45.0 + 40.0 * (demand - 0.74)) / 5.0) * 5.0
point(vv, "Position", "Number", "%", ["valve", "position", "sensor"], vcmd + noise(s, 0.5))
point(vv, "Position Command", "Number", "%", ["valve", "position", "cmd"], vcmd)

cd = equip(s, "e09", "Chlorine Dosing CD-1", ["dosing", "chemical"])
cl = 1.25 + noise(s, 0.06)
cl = np.where(s.mask(D(2026, 3, 29), 3.0, 4.0), 2.6 + noise(s, 0.05), cl)  # an overdose, Sun 29 Mar 03:00-04:00
point(cd, "Free Chlorine", "Number", "mg/L", ["water", "chlorine", "sensor"], cl)
point(cd, "Dosing Rate", "Number", "L/h", ["flow", "sensor"], 4.2 * demand + noise(s, 0.1))

gg = equip(s, "e10", "Gerador GG-1", ["generator", "diesel"])
test = (s.wday == 1) & s.hours(10.0, 10.5)
grun = test | grid_out
point(gg, "Running", "Bool", None, ["run", "sensor"], grun)
point(
    gg,
    "Output Power",
    "Number",
    "kW",
    ["elec", "power", "sensor"],
    np.where(grid_out, 182.0 + noise(s, 4.0), np.where(test, 40.0 + noise(s, 2.0), 0.0)),
)
point(gg, "Fuel Level", "Number", "%", ["fuel", "level", "sensor"], 92.0 - np.cumsum(grun) * 0.4 + noise(s, 0.1))

station_kw = pump_kw["BP-01"] + pump_kw["BP-02"] + pump_kw["BP-03"] + 45.0 + noise(s, 1.5)
q = equip(s, "e11", "QGBT Incomer", ["elecMeter", "meter", "elec"])
point(q, "Active Power", "Number", "kW", ["elec", "power", "sensor"], np.where(grid_out, 0.0, station_kw))
volts = np.where(grid_out, 0.0, 381.0 + noise(s, 2.0))
point(q, "Voltage", "Number", "V", ["elec", "voltage", "sensor"], volts)
pf = 0.93 + noise(s, 0.01)
point(q, "Power Factor", "Number", None, ["elec", "pf", "sensor"], np.where(grid_out, 0.0, pf))
amps = np.where(grid_out, 0.0, station_kw * 1000 / (math.sqrt(3) * 381.0 * pf))
point(q, "Current", "Number", "A", ["elec", "current", "sensor"], amps)

ft = equip(s, "e12", "FT-200 Outlet", ["waterMeter", "meter", "water"])
out_ls = (pump_flow["BP-01"] + pump_flow["BP-02"] + pump_flow["BP-03"]) / 3.6 + noise(s, 1.0)
point(ft, "Flow Rate", "Number", "L/s", ["water", "flow", "sensor"], out_ls)
point(ft, "Totalizer", "Number", "m³", ["water", "volume", "sensor"], register(s, out_ls, 9_381_204.0, 3.6))

rg = equip(s, "e13", "RG-1 Rain Gauge", ["weatherStation"])
rain = np.zeros(s.n)
rain += triangle(s, D(2026, 3, 26), 14.0, 15.0, 16.0, 4.0)
rain += triangle(s, STORM, 15.0, 16.75, 18.5, 58.0)
rain[s.at(STORM, 16.75)] += 0.4  # the storm's one peak, Tue 31 Mar 16:45
rain += triangle(s, D(2026, 4, 7), 18.0, 19.0, 20.5, 6.0)
rain = np.where(rain > 0, rain + np.abs(noise(s, 0.15)), 0.0)
point(rg, "Precipitation", "Number", "mm/h", ["weather", "precipitation", "sensor"], rain)
oat = 22.0 + daily(s, 5.0, 15.0) + noise(s, 0.3) - np.where(s.mask(STORM, 15.0, 24.0), 5.0, 0.0)
point(rg, "Outside Air Temp", "Number", "°C", ["outside", "air", "temp", "sensor"], oat)

# ----- SGR Terminal (Phoenix, US units) ---------------------------------------------------------------------------
s = tm
h = s.hour
banks = s.hours(6.0, 9.0) | s.hours(11.0, 14.0) | s.hours(16.0, 20.0)
open_hours = s.hours(4.5, 23.0)
activity = np.where(banks, 1.0, np.where(open_hours, 0.3, 0.05))
day_i = np.array([(d - START).days for d in s.date])
peak_f = 84.0 + day_i * 0.4  # a warming spring
peak_f = np.where(s.days([D(2026, 4, 8)]), 86.0, peak_f)  # a cool Wednesday
peak_f = np.where(s.days([D(2026, 4, 9)]), 99.0, peak_f)  # the first 99 °F day
oat_f = peak_f - 11.0 + daily(s, 11.0, 16.0) + noise(s, 0.5)

wx = equip(s, "e01", "Apron Weather Station", ["weatherStation"])
point(wx, "Outside Air Temp", "Number", "°F", ["outside", "air", "temp", "sensor"], oat_f)
gusty = np.where(s.days([D(2026, 4, 7)]), 9.0, 0.0) * np.clip(daily(s, 1.0, 15.0), 0, None)
point(
    wx,
    "Wind Speed",
    "Number",
    "mph",
    ["outside", "wind", "speed", "sensor"],
    np.clip(6.0 + daily(s, 4.0, 15.0) + gusty + noise(s, 1.5), 0.0, None),
)
point(wx, "Relative Humidity", "Number", "%RH", ["outside", "air", "humidity", "sensor"], 18.0 - daily(s, 6.0, 16.0))

for code, name, sp, co2_amp, fan0 in (
    ("e02", "AHU-1 Concourse", 55.0, 450.0, 55.0),
    ("e03", "AHU-2 Ticketing", 56.0, 300.0, 50.0),
):
    a = equip(s, code, name, ["ahu"])
    sat = np.minimum(sp - 0.9 + noise(s, 0.25), sp - 0.2)
    if name == "AHU-2 Ticketing":  # a stuck chilled-water valve, Thu 9 Apr 12:00-15:00
        sat = np.where(s.mask(D(2026, 4, 9), 12.0, 15.0), 61.5 + noise(s, 0.4), sat)
    point(a, "Supply Air Temp", "Number", "°F", ["discharge", "air", "temp", "sensor"], sat)
    point(a, "Supply Air Temp Setpoint", "Number", "°F", ["discharge", "air", "temp", "sp"], np.full(s.n, sp))
    co2 = 480.0 + co2_amp * activity + noise(s, 15.0)
    if name == "AHU-1 Concourse":  # a delayed wide-body and a full concourse: the one high, Fri 10 Apr 17:30
        co2 = co2 + triangle(s, D(2026, 4, 10), 16.0, 17.5, 19.0, 230.0)
        co2[s.at(D(2026, 4, 10), 17.5)] += 25.0
    point(a, "Return Air CO2", "Number", "ppm", ["return", "air", "co2", "sensor"], co2)
    point(
        a,
        "Return Air Humidity",
        "Number",
        "%RH",
        ["return", "air", "humidity", "sensor"],
        28.0 + noise(s, 1.5),
        keep_gap(s, D(2026, 3, 28), 2.0) if name == "AHU-1 Concourse" else None,
    )
    point(
        a,
        "Supply Fan Speed",
        "Number",
        "%",
        ["discharge", "fan", "speed", "sensor"],
        fan0 + 25.0 * activity + noise(s, 2.0),
    )

pca_kw_total = np.zeros(s.n)
for code, name, slots, kw0, cfm in (
    ("e04", "PCA-B4", [(6.0, 7.0), (11.0, 12.0), (16.5, 17.5)], 55.0, 5500.0),
    ("e05", "PCA-B5", [(7.0, 10.0), (17.0, 20.0)], 110.0, 11000.0),
    ("e06", "PCA-B6", [(8.0, 9.0), (13.0, 14.0), (19.0, 20.0)], 52.0, 5200.0),
):
    p = equip(s, code, name, ["pca"])
    at_gate = np.zeros(s.n, bool)
    for h0, h1 in slots:
        at_gate |= s.hours(h0, h1)
    point(
        p,
        "Discharge Air Temp",
        "Number",
        "°F",
        ["discharge", "air", "temp", "sensor"],
        np.where(at_gate, 38.0 + noise(s, 1.0), oat_f - 3.0 + noise(s, 0.5)),
    )
    kw = np.where(at_gate, kw0 + noise(s, 3.0), 1.2 + noise(s, 0.05))
    pca_kw_total += kw
    point(p, "Power", "Number", "kW", ["elec", "power", "sensor"], kw)
    point(p, "Airflow", "Number", "cfm", ["discharge", "air", "flow", "sensor"], np.where(at_gate, cfm, 0.0))

bhs_a_total = np.zeros(s.n)
for code, name, a0 in (("e07", "BHS-01", 27.0), ("e08", "BHS-02", 29.0), ("e09", "BHS-03", 24.0)):
    b = equip(s, code, name, ["conveyor"])
    point(b, "Belt Speed", "Number", "ft/min", ["speed", "sensor"], np.where(open_hours, 90.0 + noise(s, 1.0), 0.0))
    amps = np.where(open_hours, a0 + noise(s, 1.2), 0.0)
    if name == "BHS-02":  # a bag jam, Mon 6 Apr: 07:15-08:45 samples over 40 A (7 of 96)
        amps = np.where(s.mask(D(2026, 4, 6), 7.25, 9.0), 46.0 + noise(s, 1.5), amps)
    bhs_a_total += amps
    point(b, "Motor Current", "Number", "A", ["elec", "current", "sensor"], amps)
    point(b, "Running", "Bool", None, ["run", "sensor"], open_hours)

es = equip(s, "e10", "Escalator 3", ["escalator"])
esc_on = s.hours(4.5, 23.5)
point(es, "Motor Power", "Number", "kW", ["elec", "power", "sensor"], np.where(esc_on, 7.5 + noise(s, 0.4), 0.0))
point(es, "Running", "Bool", None, ["run", "sensor"], esc_on)

hu = equip(s, "e11", "HUM-1", ["humidifier"])
point(hu, "Steam Output", "Number", "lb/h", ["steam", "flow", "sensor"], 45.0 + 30.0 * activity + noise(s, 2.0))
point(
    hu, "Space Humidity", "Number", "%RH", ["zone", "air", "humidity", "sensor"], np.maximum(32.5 + noise(s, 0.6), 30.8)
)
point(hu, "Space Humidity Setpoint", "Number", "%RH", ["zone", "air", "humidity", "sp"], np.full(s.n, 30.0))

ev_kw_total = np.zeros(s.n)
for code, name, kw_s, p_start, g in (
    ("e12", "Lot C Charger 1", 50.0, 0.10, None),
    ("e13", "Lot C Charger 2", 7.2, 0.06, keep_gap(s, D(2026, 4, 7), 12.0)),
):
    c = equip(s, code, name, ["evse"])
    active = np.zeros(s.n, bool)
    i = 0
    while i < s.n:
        if 6.0 <= s.hour[i] < 21.0 and rng.random() < p_start:
            length = int(rng.integers(2, 5)) if kw_s > 10 else int(rng.integers(6, 16))
            active[i : i + length] = True
            i += length + 1
        else:
            i += 1
    kw = np.where(active, kw_s * (0.85 + 0.15 * rng.random(s.n)), 0.0)
    ev_kw_total += kw
    point(c, "Charging Power", "Number", "kW", ["elec", "power", "sensor"], kw, g)
    point(c, "Session Active", "Bool", None, ["run", "sensor"], active)

ms = equip(s, "e14", "Main Electric Service", ["elecMeter", "meter", "elec"])
demand_kw = (
    620.0
    + 18.0 * np.clip(oat_f - 70.0, 0.0, None)
    + 180.0 * activity
    + pca_kw_total
    + bhs_a_total * 0.4
    + ev_kw_total
    + noise(s, 8.0)
)
point(ms, "Demand", "Number", "kW", ["elec", "power", "sensor"], demand_kw)
point(ms, "Voltage A-B", "Number", "V", ["elec", "voltage", "sensor"], 480.0 + noise(s, 2.0))

dw = equip(s, "e15", "DW Meter", ["waterMeter", "meter", "water", "domestic"])
gpm = np.clip(4.0 + 35.0 * activity + noise(s, 1.5), 0.0, None)
point(dw, "Flow", "Number", "gal/min", ["water", "flow", "sensor"], gpm)
point(dw, "Total Volume", "Number", "gal", ["water", "volume", "sensor"], register(s, gpm, 48_113_920.0, 60.0))

up = equip(s, "e16", "UPS-T2", ["ups"])
point(up, "Load", "Number", "%", ["load", "sensor"], 41.0 + 6.0 * activity + noise(s, 1.5))
point(up, "Battery Temp", "Number", "°F", ["battery", "temp", "sensor"], 77.0 + noise(s, 0.5))

# ---------------------------------------------------------------------------------------------------------------


if __name__ == "__main__":
    G.write(HERE, SITES, sort_equips=False)
