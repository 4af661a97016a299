"""Make the blind-4 plant: plant.json (Haystack 4 JSON grid) and plant.csv.gz (15-minute histories).

Three sites of kinds not used by the earlier sets, from Mon 19 Oct 2026 00:00 site-local up to each site's "now"
(the clock its questions are asked at), so the server holds no sample after the operator's present:
  Millbrook WwTW        wastewater treatment works (Europe/London, SI; clocks back on Sun 25 Oct 2026: 25-hour day)
                        data to Wed 4 Nov 2026 09:00 GMT
  Copper Ridge Brewing  craft brewery (America/Denver, US units; clocks back on Sun 1 Nov 2026: 25-hour day)
                        data to Fri 6 Nov 2026 14:15 MST
  Kawana Glasshouse     commercial greenhouse (Asia/Tokyo, SI, no clock change)
                        data to Sat 7 Nov 2026 10:00 JST

Fixed seed; the same run gives byte-identical files (gzip mtime 0, no file name in the header).
Usage: python bench/blind4/make_plant.py
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

SEED = 20261025
START = dt.date(2026, 10, 19)
END = None  # each site's data runs up to its own last sample (its `last`)
D = dt.date


G = Plant(SEED, START, END)
Site, noise, equip, point = G.site, G.noise, G.equip, G.point


ww = Site(
    "mbk",
    "Millbrook WwTW",
    "Europe/London",
    "London",
    "Millbrook",
    last=dt.datetime(2026, 11, 4, 9, 0),
    tags={"area": {"_kind": "number", "val": 41000, "unit": "m²"}},
)
br = Site(
    "crb",
    "Copper Ridge Brewing",
    "America/Denver",
    "Denver",
    "Golden",
    last=dt.datetime(2026, 11, 6, 14, 15),
    tags={"area": {"_kind": "number", "val": 18500, "unit": "ft²"}},
)
gh = Site(
    "kgh",
    "Kawana Glasshouse",
    "Asia/Tokyo",
    "Tokyo",
    "Kisarazu",
    last=dt.datetime(2026, 11, 7, 10, 0),
    tags={"area": {"_kind": "number", "val": 12000, "unit": "m²"}},
)
SITES = [ww, br, gh]

# ----- Millbrook WwTW (Europe/London, SI) --------------------------------------------------------------------------
s = ww
inw = equip(s, "e01", "Inlet Works", ["inletWorks", "screen", "water"])
inflow = 205 + daily(s, 62, 11) + noise(s, 5)
inflow = inflow + triangle(s, D(2026, 10, 21), 9.0, 13.0, 19.0, 190.0)  # a wet Wednesday the week before
inflow = inflow + triangle(s, D(2026, 10, 29), 11.0, 15.5, 22.0, 360.0)  # the storm of Thu 29 Oct: peak 15:30
inflow[s.at(D(2026, 10, 29), 15.5)] += 18.0
point(inw, "Flow to Treatment", "Number", "L/s", ["water", "flow", "sensor"], np.clip(inflow, 60, None))
point(inw, "pH", "Number", "pH", ["water", "ph", "sensor"], 7.35 + noise(s, 0.05))

blw_kw = {}
for code, name, kw0 in (("e02", "BLW-01", 63.0), ("e03", "BLW-02", 74.0), ("e04", "BLW-03", 0.0)):
    b = equip(s, code, name, ["blower", "aeration"])
    if name == "BLW-03":  # standby: started by hand on Mon 2 Nov after BLW-01 tripped
        run = s.mask(D(2026, 11, 2), 5.25, 12.0)
        kw = np.where(run, 61.0 + noise(s, 1.2), 0.0)
    else:
        kw = kw0 + daily(s, 6.0, 11) + noise(s, 1.4)
        run = np.ones(s.n, bool)
        if name == "BLW-01":  # tripped 01:45 on Mon 2 Nov, reset at noon
            run &= ~s.mask(D(2026, 11, 2), 1.75, 12.0)
            kw = np.where(run, kw, 0.0)
    blw_kw[name] = kw
    point(b, "Air Flow", "Number", "m³/h", ["air", "flow", "sensor"], np.where(run, kw * 52 + noise(s, 40), 0.0))
    point(
        b,
        "Discharge Pressure",
        "Number",
        "mbar",
        ["discharge", "air", "pressure", "sensor"],
        np.where(run, 538 + noise(s, 4), 3 + noise(s, 0.5)),
    )
    point(b, "Motor Power", "Number", "kW", ["elec", "power", "sensor"], kw)
    point(b, "Drive Frequency", "Number", "Hz", ["freq", "sensor"], np.where(run, 50 * (kw / 90) ** (1 / 3), 0.0))
    if name == "BLW-03":
        point(b, "Run", "Bool", None, ["run", "sensor"], run)

for code, name, do0 in (("e05", "Aeration Lane 1", 2.0), ("e06", "Aeration Lane 2", 2.05)):
    ln = equip(s, code, name, ["aerationTank", "tank"])
    do = do0 + daily(s, -0.12, 11) + noise(s, 0.11)
    if name == "Aeration Lane 1":  # BLW-01 trip: below 1 mg/L 02:00-05:30 on Mon 2 Nov (14 samples, 3.5 h)
        low = s.mask(D(2026, 11, 2), 2.0, 5.5)
        do = np.where(low, np.clip(0.55 + noise(s, 0.08), 0.3, 0.88), do)
        do[s.at(D(2026, 11, 2), 1.75)] = 1.42
        do[s.at(D(2026, 11, 2), 5.5)] = 1.31
    else:  # a dip in the small hours of Sun 25 Oct (after the clock change): the day's minimum at 04:15 GMT
        do = do - triangle(s, D(2026, 10, 25), 3.25, 4.25, 5.5, 0.95)
        do[s.at(D(2026, 10, 25), 4.25)] -= 0.2
    point(ln, "Dissolved Oxygen", "Number", "mg/L", ["water", "oxygen", "sensor"], np.clip(do, 0.05, None))
    point(ln, "DO Setpoint", "Number", "mg/L", ["water", "oxygen", "sp"], np.full(s.n, 2.0))
    point(ln, "MLSS", "Number", "mg/L", ["solids", "concentration", "sensor"], 3180 + daily(s, 60, 18) + noise(s, 35))

for code, name, lvl, ntu, g in (
    ("e07", "North Clarifier", 1.1, 2.2, None),
    ("e08", "South Clarifier", 1.35, 2.6, None),
    ("e09", "FST-3", 0.95, None, keep_gap(s, D(2026, 10, 28), 4.0)),
):
    c = equip(s, code, name, ["clarifier", "tank"])
    point(
        c, "Sludge Blanket", "Number", "m", ["sludge", "level", "sensor"], lvl + daily(s, 0.15, 13) + noise(s, 0.04), g
    )
    if ntu is not None:
        point(
            c,
            "Effluent Turbidity",
            "Number",
            "NTU",
            ["water", "turbidity", "sensor"],
            np.clip(ntu + noise(s, 0.25), 0.3, None),
        )

for code, name, q0, rpm0 in (("e10", "RAS Pump 1", 312.0, 1085.0), ("e11", "RAS Pump 2", 296.0, 1052.0)):
    p = equip(s, code, name, ["pump", "sludge", "ras"])
    run = np.ones(s.n, bool)
    if name == "RAS Pump 2":
        run &= ~s.mask(D(2026, 10, 31), 10.0, 11.0)  # maintenance
    point(p, "Flow", "Number", "m³/h", ["sludge", "flow", "sensor"], np.where(run, q0 + noise(s, 7), 0.0))
    point(p, "Speed", "Number", "rpm", ["speed", "sensor"], np.where(run, rpm0 + noise(s, 9), 0.0))
    point(p, "Run Status", "Bool", None, ["run", "sensor"], run)

fe = equip(s, "e12", "Final Effluent", ["effluent", "analyzer", "water"])
nh4 = 0.62 + daily(s, 0.18, 14) + noise(s, 0.04)
nh4 = nh4 + triangle(s, D(2026, 11, 2), 5.0, 9.0, 15.0, 2.6)  # after Lane 1's low DO
nh4 = nh4 + triangle(s, D(2026, 11, 3), 10.0, 13.5, 17.0, 1.9)  # yesterday's (Tue 3 Nov) peak
point(fe, "Ammonia", "Number", "mg/L", ["water", "ammonia", "sensor"], np.clip(nh4, 0.05, None))
turb = np.clip(3.0 + noise(s, 0.3), 0.4, 4.6)
turb = turb + triangle(s, D(2026, 11, 3), 10.5, 11.75, 13.25, 5.0)  # above 5 NTU around 11:00-12:30 on Tue 3 Nov
point(fe, "Turbidity", "Number", "NTU", ["water", "turbidity", "sensor"], turb)
point(fe, "Flow", "Number", "m³/h", ["water", "flow", "sensor"], np.clip(inflow, 60, None) * 3.6 * 0.97)

chp = equip(s, "e13", "CHP-1", ["chp", "generator"])
chp_run = ~s.mask(D(2026, 10, 22), 8.0, 16.0)  # service
chp_kw = np.where(chp_run, 186 + daily(s, 5, 16) + noise(s, 3.5), 0.0)
point(chp, "Electrical Output", "Number", "kW", ["elec", "power", "export", "sensor"], chp_kw)
point(chp, "Generated Energy", "Number", "kWh", ["elec", "energy", "sensor"], register(s, chp_kw, 2_406_118.0, 1.0))
point(chp, "Biogas Flow", "Number", "m³/h", ["gas", "flow", "sensor"], np.where(chp_run, chp_kw * 0.45, 0.0))
point(chp, "Run Status", "Bool", None, ["run", "sensor"], chp_run)

inc = equip(s, "e14", "Site Incomer", ["elecMeter", "meter", "elec"])
wk1 = s.between(D(2026, 10, 19), D(2026, 10, 26))
imp = 262 + sum(blw_kw.values()) + daily(s, 28, 11) + np.where(wk1, 42.0, 0.0) + noise(s, 5)
point(inc, "Import Power", "Number", "kW", ["elec", "power", "import", "sensor"], imp)

# ----- Copper Ridge Brewing (America/Denver, US units) ---------------------------------------------------------------
s = br
for code, name, sp0 in (
    ("e01", "FV-101", 68.0),
    ("e02", "FV-102", 50.0),
    ("e03", "FV-103", 64.0),
    ("e04", "FV-104", 66.0),
):
    f = equip(s, code, name, ["fermenter", "tank"])
    sp = np.full(s.n, sp0)
    t = sp0 - 0.3 + noise(s, 0.14)
    valve = np.clip(35 + noise(s, 6), 0, 100)
    if name == "FV-102":  # glycol valve stuck shut on Thu 5 Nov: peak 16:45
        up = triangle(s, D(2026, 11, 5), 13.0, 16.75, 21.0, 6.8)
        t = t + up
        t[s.at(D(2026, 11, 5), 16.75)] += 0.3
        valve = np.where(up > 0, 0.0, valve)
    if name == "FV-104":  # crashed from Sat 24 Oct: setpoint 34 °F, the beer follows over 36 h and stays below
        crash = s.day_i >= (D(2026, 10, 24) - START).days
        sp = np.where(crash, 34.0, sp0)
        hrs = np.array([(t_ - dt.datetime(2026, 10, 24, tzinfo=s.tz)).total_seconds() / 3600 for t_ in s.local])
        frac = np.clip(hrs / 36, 0, 1)
        target = 33.3 + (sp0 - 0.3 - 33.3) * (1 - frac)
        t = np.where(crash, target + noise(s, 0.11), t)
        t = np.where(crash & (frac >= 1), np.minimum(t, 33.75), t)
        valve = np.where(crash & (frac < 1), 100.0, valve)
    point(f, "Beer Temp", "Number", "°F", ["temp", "sensor"], t)
    point(f, "Beer Temp Setpoint", "Number", "°F", ["temp", "sp"], sp)
    point(f, "Glycol Valve", "Number", "%", ["valve", "cmd"], valve)
    if name in ("FV-101", "FV-102"):
        point(f, "Head Pressure", "Number", "psi", ["pressure", "sensor"], 12.0 + noise(s, 0.25))

for code, name, g in (("e05", "Brite Tank 1", None), ("e06", "Brite Tank 2", keep_gap(s, D(2026, 10, 30), 13.0))):
    bt = equip(s, code, name, ["briteTank", "tank"])
    point(bt, "Beer Temp", "Number", "°F", ["temp", "sensor"], 33.6 + noise(s, 0.12))
    point(bt, "CO2 Pressure", "Number", "psi", ["co2", "pressure", "sensor"], 13.5 + noise(s, 0.2), g)

gc = equip(s, "e07", "Glycol Chiller", ["chiller", "glycol"])
gly = 27.2 + daily(s, 0.1, 15) + noise(s, 0.13)
gly = np.minimum(gly, 27.78)
gly = gly - triangle(s, D(2026, 11, 2), 6.5, 7.25, 8.0, 1.9)  # brew-day overcooling, Mon 2 Nov: minimum at 07:15
trip = s.mask(D(2026, 11, 4), 10.25, 14.75)  # compressor trip, Wed 4 Nov: above setpoint 10:15-14:45 (4.5 h)
rise = 28.5 + triangle(s, D(2026, 11, 4), 10.25, 12.5, 14.5, 4.6)
gly = np.where(trip, rise, gly)
point(gc, "Glycol Supply Temp", "Number", "°F", ["glycol", "leaving", "temp", "sensor"], gly)
point(gc, "Glycol Supply Temp Setpoint", "Number", "°F", ["glycol", "leaving", "temp", "sp"], np.full(s.n, 28.0))
cpkw = np.where(s.mask(D(2026, 11, 4), 10.0, 14.25), 0.0, 44 + daily(s, 7, 15) + noise(s, 1.6))
point(gc, "Compressor Power", "Number", "kW", ["elec", "power", "sensor"], cpkw)

brew = np.isin(s.wday, [0, 2, 4]) & (s.hour >= 6) & (s.hour < 14)  # brew days Mon, Wed, Fri
boil = equip(s, "e08", "Boiler B-1", ["boiler", "steam"])
point(
    boil,
    "Steam Pressure",
    "Number",
    "psi",
    ["steam", "pressure", "sensor"],
    np.where(brew, 13.4, 11.8) + noise(s, 0.25),
)
gas_in = np.where(brew, 2_400_000 + noise(s, 60_000), 340_000 + noise(s, 25_000))
point(boil, "Gas Input", "Number", "BTU/h", ["gas", "power", "sensor"], gas_in)
point(boil, "Burner On", "Bool", None, ["fire", "run", "sensor"], brew)

ac = equip(s, "e09", "Air Comp 1", ["airCompressor", "compressor"])
ackw = 27.5 + daily(s, 6, 12) + np.where(np.isin(s.wday, [5, 6]), -6.0, 0.0) + noise(s, 1.1)
point(ac, "Discharge Pressure", "Number", "psi", ["discharge", "air", "pressure", "sensor"], 112 + noise(s, 1.2))
point(ac, "Power", "Number", "kW", ["elec", "power", "sensor"], ackw)
point(ac, "Airflow", "Number", "ft³/min", ["air", "flow", "sensor"], ackw * 4.1 + noise(s, 3))

gm = equip(s, "e10", "Gas Main", ["gasMeter", "meter", "naturalGas"])
cfh = gas_in / 1030 + 60 + noise(s, 8)
point(gm, "Gas Flow", "Number", "ft³/h", ["naturalGas", "flow", "sensor"], cfh)
point(gm, "Gas Total", "Number", "therm", ["naturalGas", "volume", "sensor"], register(s, cfh, 184_220.0, 0.01037))

em = equip(s, "e11", "Electric Service", ["elecMeter", "meter", "elec"])
point(em, "Power", "Number", "kW", ["elec", "power", "sensor"], 96 + cpkw + ackw + daily(s, 18, 13) + noise(s, 3))

# ----- Kawana Glasshouse (Asia/Tokyo, SI) -----------------------------------------------------------------------------
s = gh
dayt = (s.hour >= 6) & (s.hour < 18)
sunny = np.ones(s.n)
sunny = np.where(s.between(D(2026, 10, 19), D(2026, 10, 26)), 0.52, sunny)  # a dull, wet week
sunny = np.where(s.between(D(2026, 10, 26), D(2026, 11, 2)), 0.9, sunny)  # a bright one
sunny = np.where(s.between(D(2026, 11, 2), D(2026, 11, 8)), 0.7, sunny)
sunny = np.where(s.day(D(2026, 11, 6)), 0.25, sunny)  # rain on Fri 6 Nov
solar = np.clip(np.sin((s.hour - 6) / 11 * math.pi), 0, None) * 620 * sunny
solar = np.clip(solar * (1 + noise(s, 0.08)), 0, None)

for code, name, sp_day, sp_night in (
    ("e01", "Bay A", 23.0, 17.0),
    ("e02", "Bay B", 23.0, 17.0),
    ("e03", "Bay C", 21.0, 15.0),
):
    z = equip(s, code, name, ["growZone", "space"])
    sp = np.where(dayt, sp_day, sp_night)
    t = sp + 0.4 + solar / 620 * 2.2 + noise(s, 0.22)
    if name == "Bay C":
        t = t - triangle(s, D(2026, 11, 6), 2.0, 4.5, 6.5, 1.3)  # heating slow to follow on Fri 6 Nov: 13-ish °C
    point(z, "Air Temp", "Number", "°C", ["air", "temp", "sensor"], t)
    point(z, "Air Temp Setpoint", "Number", "°C", ["air", "temp", "sp"], sp)
    rh = 74 + daily(s, -5, 14) + noise(s, 0.7)
    rh = np.minimum(rh, 83.5)
    if name == "Bay A":  # condensation after the rain, Fri 6 Nov: above 85 %RH 03:00-07:30 (18 of 96 samples)
        wet = s.mask(D(2026, 11, 6), 3.0, 7.5)
        rh = np.where(wet, np.clip(87.4 + noise(s, 0.6), 85.6, 90), rh)
        rh[s.at(D(2026, 11, 6), 2.75)] = 82.9
        rh[s.at(D(2026, 11, 6), 7.5)] = 83.6
    point(z, "Humidity", "Number", "%RH", ["air", "humidity", "sensor"], rh)
    co2 = np.where((s.hour >= 7) & (s.hour < 16), 820.0, 450.0) + noise(s, 14)
    if name == "Bay A":  # doser valve stuck open late morning on Fri 6 Nov: a single peak at 11:15
        co2 = co2 + triangle(s, D(2026, 11, 6), 10.0, 11.25, 12.75, 640.0)
        co2[s.at(D(2026, 11, 6), 11.25)] += 25
    point(z, "CO2", "Number", "ppm", ["air", "co2", "sensor"], co2)
    if name != "Bay C":
        point(z, "Light Level", "Number", "lux", ["light", "sensor"], solar * 95)

hb = equip(s, "e04", "HW Boiler 1", ["boiler", "hotWaterPlant"])
night = ~dayt
point(
    hb,
    "Flow Temp",
    "Number",
    "°C",
    ["hot", "water", "leaving", "temp", "sensor"],
    np.where(night, 72, 55) + noise(s, 0.6),
)
point(
    hb,
    "Return Temp",
    "Number",
    "°C",
    ["hot", "water", "entering", "temp", "sensor"],
    np.where(night, 60, 47) + noise(s, 0.6),
)
point(hb, "Gas Rate", "Number", "m³/h", ["naturalGas", "flow", "sensor"], np.where(night, 44, 9) + noise(s, 1.5))
point(hb, "Burner On", "Bool", None, ["fire", "run", "sensor"], night | (solar < 150))

tk = equip(s, "e05", "Buffer Tank", ["tank", "thermalStorage"])
point(tk, "Top Temp", "Number", "°C", ["hot", "water", "temp", "sensor"], 68 + daily(s, 4, 4) + noise(s, 0.4))
point(tk, "Bottom Temp", "Number", "°C", ["hot", "water", "temp", "sensor"], 49 + daily(s, 5, 4) + noise(s, 0.5))

for code, name, q, g in (("e06", "IRR-P1", 182.0, None), ("e07", "IRR-P2", 164.0, keep_gap(s, D(2026, 11, 3), 9.0))):
    p = equip(s, code, name, ["pump", "irrigation"])
    run = np.isin(s.hour, [8.0, 10.0, 12.0, 14.0, 16.0]) | (name == "IRR-P2") & np.isin(s.hour, [9.0, 13.0])
    point(p, "Flow", "Number", "L/min", ["water", "flow", "sensor"], np.where(run, q + noise(s, 4), 0.0), g)
    point(
        p,
        "Discharge Pressure",
        "Number",
        "bar",
        ["discharge", "water", "pressure", "sensor"],
        np.where(run, 3.2, 0.4) + noise(s, 0.04),
    )
    point(p, "Run", "Bool", None, ["run", "sensor"], run)

wx = equip(s, "e08", "Weather Station", ["weatherStation"])
otemp = 15.5 + daily(s, 4.2, 14) + (sunny - 0.7) * 4 + noise(s, 0.35)
otemp = otemp - 0.12 * s.day_i  # autumn
otemp = otemp + triangle(s, D(2026, 10, 28), 10.0, 13.75, 17.0, 4.5)  # a warm Wednesday: last week's peak at 13:45
otemp[s.at(D(2026, 10, 28), 13.75)] += 0.4
point(
    wx,
    "Outside Temp",
    "Number",
    "°C",
    ["outside", "air", "temp", "sensor"],
    otemp,
    keep_gap(s, D(2026, 10, 27), 1.0),
)
point(wx, "Solar Radiation", "Number", "W/m²", ["solar", "irradiance", "sensor"], solar)
rain = np.zeros(s.n)
for day, h0, h1, mm in (
    (D(2026, 10, 20), 4.0, 11.0, 0.6),
    (D(2026, 10, 22), 13.0, 22.0, 0.9),
    (D(2026, 10, 24), 0.0, 8.0, 0.4),
    (D(2026, 11, 3), 18.0, 20.0, 0.3),
    (D(2026, 11, 6), 1.5, 9.5, 0.7),
):
    w = s.mask(day, h0, h1)
    rain = np.where(w, np.round(np.clip(mm + noise(s, 0.25), 0.1, None), 1), rain)
point(wx, "Rainfall", "Number", "mm", ["weather", "precipitation", "sensor"], rain)
point(
    wx,
    "Wind Speed",
    "Number",
    "m/s",
    ["wind", "speed", "sensor"],
    np.clip(2.6 + daily(s, 1.2, 14) + noise(s, 0.6), 0, None),
    keep_gap(s, D(2026, 11, 1), 10.0),
)

cd = equip(s, "e09", "CO2 Doser", ["co2Doser", "dosing"])
dosing = (s.hour >= 7) & (s.hour < 16)
point(cd, "Dosing Rate", "Number", "kg/h", ["co2", "flow", "sensor"], np.where(dosing, 12 + noise(s, 0.6), 0.0))
point(cd, "Valve Open", "Bool", None, ["co2", "valve", "sensor"], dosing)

# ---------------------------------------------------------------------------------------------------------------


if __name__ == "__main__":
    G.write(HERE, SITES, sort_equips=False)
