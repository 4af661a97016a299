"""Make the blind-13 plant: plant.json (Haystack 4 JSON grid) and plant.csv.gz (15-minute histories).

Three sites of new kinds, Mon 2026-10-19 00:00 to Mon 2026-11-09 00:00 site-local (3 weeks):
  Naaldwijk Greenhouse     a Dutch greenhouse / vertical farm: grow-light zones, growing compartments (air temp, RH,
                           CO2 and their setpoints, screens, vents), CO2 dosing, heating pipe loops, irrigation,
                           dehumidifiers, a gas CHP (WKK) and the grid connection whose net power is signed (+ import,
                           - export) (Europe/Amsterdam; +02:00, clocks go BACK on Sun 25 Oct 2026 03:00 -> 02:00: a
                           25-hour day, then +01:00)
  Santos Reefer Terminal   a container terminal's reefer yard and shore power: reefer stacks (power, plugs in use,
                           supply air and its setpoint), two shore-power feeders (a trip), two substation transformers,
                           the main incomer (America/Sao_Paulo, -03:00 all along: Brazil keeps no summer time)
  Westbrook Research Labs  a university research lab building: fume hoods (face velocity and its setpoint, sash,
                           exhaust flow), lab exhaust fans, VAV boxes (measured and setpoint airflow), a heat-recovery
                           chiller, the domestic hot water plant, the building meter (America/Vancouver; -07:00, clocks
                           go BACK on Sun 1 Nov 2026 02:00 -> 01:00: a 25-hour day, then -08:00)

Fixed seed; the same run gives byte-identical files (gzip mtime 0, no file name in the header).
Usage: python bench/blind13/make_plant.py
"""

from __future__ import annotations

import datetime as dt
import sys
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))
from blindkit.plant import Plant, bump, by_date, daily, keep_gap, put, register  # noqa: E402

SEED = 20261113
START = dt.date(2026, 10, 19)
END = dt.date(2026, 11, 9)
D = dt.date


G = Plant(SEED, START, END)
NDAYS = G.ndays
Site, noise, clipn, per_day, equip, point = G.site, G.noise, G.clipn, G.per_day, G.equip, G.point


def week_of(site: Site) -> np.ndarray:
    """0: 19-25 Oct, 1: 26 Oct - 1 Nov, 2: 2-8 Nov."""
    return site.day_i // 7


# ---------------------------------------------------------------------------------------------------------------
nl = Site("nlg", "Naaldwijk Greenhouse", "Europe/Amsterdam", "Amsterdam", "Naaldwijk")
sp = Site("srt", "Santos Reefer Terminal", "America/Sao_Paulo", "Sao_Paulo", "Santos")
wb = Site("wrl", "Westbrook Research Labs", "America/Vancouver", "Vancouver", "Vancouver")
SITES = [nl, sp, wb]


def on_day(site: Site, day: dt.date) -> np.ndarray:
    return np.array([d == day for d in site.date])


# ----- Naaldwijk Greenhouse (Amsterdam, SI) ----------------------------------------------------------------------
s = nl
LIGHT = s.hours(2.0, 18.0)  # the photoperiod of the tomato compartments (zones 1, 2)

lamp_kw = np.zeros(s.n)
for code, name, kw0, on in (("e01", "Grow Lights Zone 1", 900.0, LIGHT), ("e02", "Grow Lights Zone 2", 850.0, LIGHT),
                            ("e03", "Grow Lights Zone 3", 800.0, s.hours(0.0, 20.0))):  # fmt: skip
    # zone 3 is the vertical-farm lettuce room: a 20-hour photoperiod at a lower installed load
    g = equip(s, code, name, ["lightsGroup", "lights", "elec"])
    kw = np.where(on, kw0 + noise(s, 4.0), 0.0)
    lamp_kw += kw
    point(g, "Lamp Power", "Number", "kW", ["lights", "elec", "power", "sensor"], kw)
    point(g, "Lights Cmd", "Bool", None, ["lights", "cmd"], on)
    point(g, "Dimming Level", "Number", "%", ["lights", "level", "cmd"], np.where(on, 100.0, 0.0))

# dehumidifiers: after lights-off the crop transpires into a closed screen; DH-1/2 run 20:00-02:00, DH-3 22:00-02:00
dh_kw = np.zeros(s.n)
for code, name, h0 in (("e04", "DH-1", 20.0), ("e05", "DH-2", 20.0), ("e06", "DH-3", 22.0)):
    d_ = equip(s, code, name, ["dehumidifier", "air"])
    run = s.hours(h0, 24.0) | s.hours(0.0, 2.0)
    kw = np.where(run, 55.0 + noise(s, 1.0), 0.4)
    dh_kw += kw
    point(d_, "Power", "Number", "kW", ["elec", "power", "sensor"], kw)
    point(d_, "Run Cmd", "Bool", None, ["run", "cmd"], run)
    point(d_, "Condensate Flow", "Number", "L/h", ["condensate", "water", "flow", "sensor"],
          np.where(run, 38.0 + noise(s, 2.0), 0.0))  # fmt: skip

# growing compartments: air temp 21 / 18 degC (lights on / off), RH by compartment (B the driest), CO2 1000 / 500 ppm.
# Sat 31 Oct: a sunny afternoon warms Compartment A to its peak (about 26.9 degC) at 14:15.
# Wed 28 Oct 05:00-12:00: Compartment B's CO2 dosing valve sticks shut; CO2 falls from 955 to ambient (742 at 06:00)
D28, D31 = D(2026, 10, 28), D(2026, 10, 31)
for code, name, rh0 in (("e07", "Compartment A", 79.0), ("e08", "Compartment B", 73.5), ("e09", "Compartment C", 81.0),
                        ("e10", "Compartment D", 77.0)):  # fmt: skip
    c = equip(s, code, name, ["greenhouse", "compartment"])
    tsp = np.where(LIGHT, 21.0, 18.0)
    tair = tsp + 0.3 + clipn(s, 0.25, 0.6)
    if name == "Compartment A":
        tair = tair + 5.0 * bump(s, D31, 11.0, 17.0)
        sat = on_day(s, D31)
        tair[s.at(D31, 14.25)] = float(np.max(np.where(sat, tair, -np.inf))) + 0.6
    rh = rh0 + daily(s, 4.0, 4.0) + noise(s, 1.0)
    co2sp = np.where(LIGHT, 1000.0, 500.0)
    co2 = co2sp - 20.0 + noise(s, 12.0)
    if name == "Compartment B":
        stuck = s.mask(D28, 5.0, 12.0)
        co2 = np.where(stuck, 470.0 + noise(s, 10.0), co2)
        put(s, co2, D28, {5.0: 955.0, 5.25: 901.0, 5.5: 842.0, 5.75: 790.0, 6.0: 742.0, 6.25: 701.0, 6.5: 667.0,
                          6.75: 640.0, 7.0: 612.0, 7.25: 585.0, 7.5: 561.0, 7.75: 540.0, 8.0: 522.0})  # fmt: skip
    point(c, "Air Temp", "Number", "°C", ["air", "temp", "sensor"], tair)
    point(c, "Air Temp SP", "Number", "°C", ["air", "temp", "sp"], tsp)
    point(c, "RH", "Number", "%RH", ["air", "humidity", "sensor"], rh,
          keep_gap(s, D(2026, 11, 5), 10.0) if name == "Compartment D" else None)  # fmt: skip
    point(c, "CO2", "Number", "ppm", ["air", "co2", "sensor"], co2)
    point(c, "CO2 SP", "Number", "ppm", ["air", "co2", "sp"], co2sp)
    point(
        c, "Screen Pos", "Number", "%", ["screen", "cmd"], np.where(s.hours(17.0, 24.0) | s.hours(0.0, 7.0), 95.0, 0.0)
    )
    point(c, "Vent Pos", "Number", "%", ["vent", "cmd"], np.clip(np.where(LIGHT, 8.0, 2.0) + noise(s, 1.0), 0.0, 100.0))

co2u = equip(s, "e11", "CO2 Dosing Unit", ["co2", "dosing"])
co2kg = np.where(LIGHT, 45.0 + noise(s, 2.0), 0.0)
point(co2u, "CO2 Flow", "Number", "kg/h", ["co2", "flow", "sensor"], co2kg)
point(co2u, "Dosing Valve", "Number", "%", ["co2", "valve", "cmd"], np.where(LIGHT, 60.0 + noise(s, 3.0), 0.0))
point(co2u, "CO2 Total", "Number", "kg", ["co2", "sensor"], register(s, co2kg, 118_402.0))

# heating pipe loops: the flow temperature rides 0.2-1.0 K above its setpoint (never below); the return 9 K under it
for code, name, sp_day, sp_night in (("e12", "Pipe Rail Loop 1", 40.0, 55.0), ("e13", "Pipe Rail Loop 2", 42.0, 58.0),
                                     ("e14", "Grow Pipe Loop", 35.0, 45.0)):  # fmt: skip
    lp = equip(s, code, name, ["heating", "hot", "water", "loop"])
    fsp = np.where(LIGHT, sp_day, sp_night)
    flow = fsp + 0.6 + clipn(s, 0.15, 0.4)
    point(lp, "Flow Temp", "Number", "°C", ["hot", "water", "leaving", "temp", "sensor"], flow)
    point(lp, "Flow Temp SP", "Number", "°C", ["hot", "water", "leaving", "temp", "sp"], fsp)
    point(lp, "Return Temp", "Number", "°C", ["hot", "water", "entering", "temp", "sensor"], flow - 9.0 + noise(s, 0.4),
          keep_gap(s, D(2026, 10, 19), 3.0) if name == "Grow Pipe Loop" else None)  # fmt: skip
    point(lp, "Mixing Valve", "Number", "%", ["hot", "water", "valve", "cmd"],
          np.clip(30.0 + (fsp - 40.0) * 2.0 + noise(s, 3.0), 0.0, 100.0))  # fmt: skip
    point(lp, "Pump Cmd", "Bool", None, ["pump", "run", "cmd"], np.ones(s.n, bool))

# irrigation: 06:00-18:00 at a daily rate (27 Oct 14, 28 Oct 21, 29 Oct 12 m3/h, else 16), 0.5 m3/h at night
irr = equip(s, "e15", "Irrigation Unit", ["water", "irrigation"])
lvl = by_date(s, {D(2026, 10, 27): 14.0, D(2026, 10, 28): 21.0, D(2026, 10, 29): 12.0}, 16.0)
iflow = np.clip(np.where(s.hours(6.0, 18.0), lvl + noise(s, 0.6), 0.5 + noise(s, 0.05)), 0.0, None)
point(irr, "Supply Flow", "Number", "m³/h", ["water", "flow", "sensor"], iflow)
point(irr, "Water Volume", "Number", "m³", ["water", "volume", "sensor"], register(s, iflow, 48_213.0))
point(irr, "Drain EC", "Number", "mS/cm", ["water", "conductivity", "sensor"], 3.2 + noise(s, 0.08))

# the CHP (WKK): weekdays 05:00-23:00 at 2000 kW (Tue 27 Oct it stops at 21:30: the gas price), weekends
# 07:00-21:00 at 1500 kW; on the 25-hour Sunday 25 Oct a cold night: 00:00-19:00 at 1800 kW; Mon 2 Nov it starts
# at 00:00 (cold). Heat 1.22 x power once warm.
sched = {}
for k in range(NDAYS):
    d_ = START + dt.timedelta(days=k)
    sched[d_] = (5.0, 23.0, 2000.0) if d_.weekday() < 5 else (7.0, 21.0, 1500.0)
sched[D(2026, 10, 27)] = (5.0, 21.5, 2000.0)
sched[D(2026, 10, 25)] = (0.0, 19.0, 1800.0)
sched[D(2026, 11, 2)] = (0.0, 23.0, 2000.0)  # Mon 2 Nov: a cold night, a start at midnight on a cold engine
chp_on = np.zeros(s.n, bool)
chp_lvl = np.zeros(s.n)
for d_, (h0, h1, kw) in sched.items():
    m = s.mask(d_, h0, h1)
    chp_on |= m
    chp_lvl = np.where(m, kw, chp_lvl)
chp = equip(s, "e16", "WKK-1", ["chp", "genset", "elec", "heating"])
e_out = np.where(chp_on, chp_lvl + noise(s, 15.0), 0.0)
h_out = np.where(chp_on, e_out * 1.22 + noise(s, 8.0), 0.0)
# the cold start: for its first two hours the engine's jacket heat warms the engine itself (heat 0.5 -> 1.1 x power)
warm = s.mask(D(2026, 11, 2), 0.0, 2.0)
h_out = np.where(warm, e_out * (0.5 + 0.3 * s.hour) + noise(s, 8.0), h_out)
point(chp, "Electrical Output", "Number", "kW", ["elec", "power", "sensor"], e_out)
point(chp, "Heat Output", "Number", "kW", ["hot", "water", "power", "sensor"], h_out)
point(chp, "Gas Flow", "Number", "m³/h", ["naturalGas", "flow", "sensor"], np.where(chp_on, e_out / 4.3, 0.0))
point(chp, "Generated Energy", "Number", "kWh", ["elec", "energy", "sensor"], register(s, e_out, 7_215_880.0))
point(chp, "Jacket Water Temp", "Number", "°C", ["coolant", "temp", "sensor"],
      np.where(chp_on, 88.0, 60.0) + noise(s, 0.5))  # fmt: skip
point(chp, "Engine Run", "Bool", None, ["run", "sensor"], chp_on)

# the grid connection: net power, + import / - export (the CHP exports once the lamps are off)
gc = equip(s, "e17", "Grid Connection", ["elecMeter", "meter", "elec", "siteMeter"])
net = 250.0 + lamp_kw + dh_kw + noise(s, 10.0) - e_out
point(gc, "Net Power", "Number", "kW", ["elec", "power", "sensor"], net)
point(gc, "Import Energy", "Number", "kWh", ["elec", "energy", "import", "sensor"],
      register(s, np.maximum(net, 0.0), 25_310_442.0))  # fmt: skip
point(gc, "Export Energy", "Number", "kWh", ["elec", "energy", "export", "sensor"],
      register(s, np.maximum(-net, 0.0), 9_884_105.0))  # fmt: skip

# ----- Santos Reefer Terminal (Sao Paulo, SI) --------------------------------------------------------------------
s = sp
D27, D29, D31, N1 = D(2026, 10, 27), D(2026, 10, 29), D(2026, 10, 31), D(2026, 11, 1)
reefer_kw = np.zeros(s.n)
for code, name, sp_, base, kwpp in (("e01", "Reefer Stack R1", -18.0, 180.0, 3.4),
                                    ("e02", "Reefer Stack R2", -20.0, 160.0, 3.5),
                                    ("e03", "Reefer Stack R3", 13.3, 150.0, 2.6),
                                    ("e04", "Reefer Stack R4", 4.0, 130.0, 2.9)):  # fmt: skip
    r = equip(s, code, name, ["reeferStack", "elec"])
    lv = by_date(s, {D31: 176.0, N1: 148.0}, base) if name.endswith("R1") else np.full(s.n, base)
    if name.endswith("R1"):  # Wed 4 Nov 06:00: a vessel's 40 frozen boxes go onto R1 for three days
        lv = lv + np.where(s.span(D(2026, 11, 4), 6.0, D(2026, 11, 7), 0.0), 40.0, 0.0)
    plugs = np.round(lv + per_day(s, 4.0) + daily(s, 6.0, 15.0) + noise(s, 1.5))
    if name.endswith("R3"):  # Wed 21 Oct: a vessel's reefers come ashore 13:00-15:00, plugs go in one by one
        w21 = D(2026, 10, 21)
        plugs = np.where(s.span(w21, 0.0, w21, 13.0), np.round(134.0 + noise(s, 1.0)), plugs)
        plugs = np.where(s.span(w21, 15.25, D(2026, 10, 22), 0.0), np.round(169.0 + noise(s, 1.0)), plugs)
        put(s, plugs, D(2026, 10, 21), {13.0: 138.0, 13.25: 142.0, 13.5: 147.0, 13.75: 151.0, 14.0: 156.0,
                                        14.25: 160.0, 14.5: 163.0, 14.75: 166.0, 15.0: 168.0})  # fmt: skip
    kw = plugs * kwpp + noise(s, 6.0)
    sat = sp_ - 0.3 + clipn(s, 0.2, 0.5)
    if name.endswith("R4"):  # Tue 27 Oct 10:00-13:30: the stack's supply cable fails, the reefers warm up
        kw = np.where(s.mask(D27, 10.0, 13.5), 0.0, kw)
        put(s, sat, D27, {10.0: 4.6, 10.25: 5.3, 10.5: 6.0, 10.75: 6.6, 11.0: 7.2, 11.25: 7.7, 11.5: 8.2, 11.75: 8.7,
                          12.0: 9.1, 12.25: 9.5, 12.5: 9.9, 12.75: 10.2, 13.0: 10.5, 13.25: 10.8, 13.5: 11.0,
                          13.75: 9.6, 14.0: 8.1, 14.25: 6.9, 14.5: 5.9, 14.75: 5.0, 15.0: 4.4})  # fmt: skip
    reefer_kw += kw
    point(r, "Power", "Number", "kW", ["elec", "power", "sensor"], kw)
    point(r, "Plugs In Use", "Number", "plugs", ["reefer", "count", "sensor"], plugs)
    point(r, "Supply Air Temp", "Number", "°C", ["discharge", "air", "temp", "sensor"], sat,
          keep_gap(s, D(2026, 10, 22), 2.0) if name.endswith("R2") else None)  # fmt: skip
    point(r, "Supply Air SP", "Number", "°C", ["discharge", "air", "temp", "sp"], np.full(s.n, sp_))

# shore power: a ship on the berth draws its hotel load through the feeder; SP Feeder 2 trips Thu 29 Oct 20:15-22:45
CALLS = {
    "SP Feeder 1": [((D(2026, 10, 19), 10.0), (D(2026, 10, 20), 16.0), 2800.0),
                    ((D(2026, 10, 23), 7.0), (D(2026, 10, 23), 22.0), 1500.0),
                    ((D(2026, 10, 26), 6.0), (D27, 18.0), 3500.0),
                    ((D31, 8.0), (D31, 20.0), 3000.0),
                    ((D(2026, 11, 4), 5.0), (D(2026, 11, 5), 12.0), 2600.0)],
    "SP Feeder 2": [((D(2026, 10, 21), 12.0), (D(2026, 10, 22), 9.0), 1800.0),
                    ((D(2026, 10, 28), 8.0), (D(2026, 10, 30), 14.0), 2200.0),
                    ((D(2026, 11, 7), 6.0), (D(2026, 11, 7), 18.0), 2000.0)],
}  # fmt: skip
feeder_kw = np.zeros(s.n)
for code, name in (("e05", "SP Feeder 1"), ("e06", "SP Feeder 2")):
    f = equip(s, code, name, ["elecMeter", "meter", "elec", "shorePower"])
    kw = np.zeros(s.n)
    for (d0, h0), (d1, h1), lvl_ in CALLS[name]:
        kw = np.where(s.span(d0, h0, d1, h1), lvl_ + daily(s, 120.0, 14.0) + noise(s, 30.0), kw)
    closed = np.ones(s.n, bool)
    if name == "SP Feeder 2":
        closed = ~s.mask(D29, 20.25, 22.75)
        kw = np.where(closed, kw, 0.0)
    feeder_kw += kw
    point(f, "Active Power", "Number", "kW", ["elec", "power", "sensor"], kw)
    point(
        f,
        "Energy",
        "Number",
        "kWh",
        ["elec", "energy", "sensor"],
        register(s, kw, 3_118_950.0 if code == "e05" else 2_407_711.0),
    )
    point(f, "Voltage", "Number", "V", ["elec", "volt", "sensor"], np.where(closed, 6600.0 + noise(s, 15.0), 0.0))
    point(f, "Breaker Status", "Bool", None, ["breaker", "sensor"], closed)

# substation SE-2: two 2.5 MVA transformers, TR-1 carries more (62 % against 48 %) but TR-2's cooling fan is out,
# so its oil runs hotter; TR-2's oil-temperature transducer drops out Wed 4 Nov 01:00-05:00
for code, name, load0, oil0 in (("e07", "TR-1", 62.0, 55.0), ("e08", "TR-2", 48.0, 68.0)):
    t_ = equip(s, code, name, ["transformer", "elec"])
    load = load0 + daily(s, 6.0, 14.0) + noise(s, 1.5)
    point(t_, "Load", "Number", "%", ["elec", "load", "sensor"], load)
    point(t_, "Oil Temp", "Number", "°C", ["oil", "temp", "sensor"], oil0 + 0.1 * (load - load0) + noise(s, 0.4),
          keep_gap(s, D(2026, 11, 4), 1.0) if name == "TR-2" else None)  # fmt: skip
    point(t_, "Winding Temp", "Number", "°C", ["winding", "temp", "sensor"], oil0 + 12.0 + noise(s, 0.6))
    point(t_, "Active Power", "Number", "kW", ["elec", "power", "sensor"], load * 25.0 * 0.95)

mi = equip(s, "e09", "Main Incomer", ["elecMeter", "meter", "elec", "siteMeter"])
dem = reefer_kw + feeder_kw + 900.0 + daily(s, 200.0, 14.0) + noise(s, 20.0)
point(mi, "Demand", "Number", "kW", ["elec", "power", "sensor"], dem)
point(mi, "Energy", "Number", "kWh", ["elec", "energy", "import", "sensor"], register(s, dem, 61_004_317.0))

# ----- Westbrook Research Labs (Vancouver, SI) -------------------------------------------------------------------
s = wb
WORK = (s.wday < 5) & s.hours(8.0, 18.0)
W28 = D(2026, 10, 28)
for code, name, open_, fv0 in (("e01", "FH-2-101", 95.0, 0.48), ("e02", "FH-2-104", 55.0, 0.53),
                               ("e03", "FH-3-210", 70.0, 0.50), ("e04", "FH-3-214", 80.0, 0.51)):  # fmt: skip
    h = equip(s, code, name, ["fumeHood", "exhaust", "air"])
    sash = np.clip(np.where(WORK, open_ + clipn(s, 2.0, 4.0), 10.0 + clipn(s, 1.0, 2.0)), 0.0, 100.0)
    fv = fv0 + clipn(s, 0.01, 0.025)
    if name == "FH-3-214":  # Wed 28 Oct 13:00-15:15: a sash left up while EF-2 is throttled; 9 samples under 0.4
        fv = np.where(s.mask(W28, 13.0, 15.25), 0.31 + clipn(s, 0.015, 0.03), fv)
    point(h, "Face Velocity", "Number", "m/s", ["air", "velocity", "sensor"], fv)
    point(h, "Face Velocity SP", "Number", "m/s", ["air", "velocity", "sp"], np.full(s.n, 0.5))
    point(h, "Sash Position", "Number", "%", ["sash", "position", "sensor"], sash)
    point(
        h,
        "Exhaust Flow",
        "Number",
        "L/s",
        ["exhaust", "air", "flow", "sensor"],
        50.0 + sash / 100.0 * 1.35 * fv * 1000.0,
    )

ef_kw = np.zeros(s.n)
N1v = D(2026, 11, 1)
for code, name, dp0 in (("e05", "EF-1", 250.0), ("e06", "EF-2", 300.0), ("e07", "EF-3", 275.0)):
    f = equip(s, code, name, ["fan", "exhaust", "air"])
    spd = 60.0 + daily(s, 5.0, 14.0) + noise(s, 1.5)
    if name == "EF-2":  # Sun 1 Nov (the 25-hour day) evening: a lab purge, the fan peaks at 96 % at 19:30 PST
        spd = spd + 20.0 * bump(s, N1v, 18.5, 20.5)
        put(s, spd, N1v, {19.5: 96.0})
    kw = 45.0 * (spd / 100.0) ** 3 + noise(s, 0.3)
    ef_kw += kw
    point(f, "DP", "Number", "Pa", ["exhaust", "air", "pressure", "sensor"], dp0 + noise(s, 5.0),
          keep_gap(s, D(2026, 11, 5), 3.0) if name == "EF-1" else None)  # fmt: skip
    point(f, "DP SP", "Number", "Pa", ["exhaust", "air", "pressure", "sp"], np.full(s.n, dp0))
    point(f, "Speed Cmd", "Number", "%", ["fan", "speed", "cmd"], spd)
    point(f, "Power", "Number", "kW", ["elec", "power", "sensor"], kw)
    point(f, "Run Cmd", "Bool", None, ["fan", "run", "cmd"], np.ones(s.n, bool))

# VAV boxes: airflow within 3 % of the setpoint, but Tue 27 Oct VAV-3-12's damper actuator seizes: 90 L/s against 400
for code, name, sp0, zt0 in (("e08", "VAV-2-05", 150.0, 21.3), ("e09", "VAV-2-07", 300.0, 23.4),
                             ("e10", "VAV-3-11", 450.0, 21.8), ("e11", "VAV-3-12", 400.0, 22.1)):  # fmt: skip
    v = equip(s, code, name, ["vav", "air"])
    flow = sp0 * (1.0 + clipn(s, 0.012, 0.03))
    damper = np.clip(45.0 + noise(s, 3.0), 0.0, 100.0)
    if name == "VAV-3-12":
        seized = on_day(s, D(2026, 10, 27))
        flow = np.where(seized, 90.0 + noise(s, 3.0), flow)
        damper = np.where(seized, 100.0, damper)
    point(v, "Airflow", "Number", "L/s", ["discharge", "air", "flow", "sensor"], flow)
    point(v, "Airflow SP", "Number", "L/s", ["discharge", "air", "flow", "sp"], np.full(s.n, sp0))
    point(v, "Damper Cmd", "Number", "%", ["damper", "cmd"], damper)
    point(v, "Zone Temp", "Number", "°C", ["zone", "air", "temp", "sensor"], zt0 + daily(s, 0.4, 15.0) + noise(s, 0.15),
          keep_gap(s, D(2026, 10, 24), 8.0) if name == "VAV-2-05" else None)  # fmt: skip
    point(v, "Zone Temp SP", "Number", "°C", ["zone", "air", "temp", "sp"], np.full(s.n, 21.5))

hrc = equip(s, "e12", "HRC-1", ["chiller", "heatRecovery", "water"])
hkw = 180.0 + daily(s, 30.0, 15.0) + noise(s, 3.0)
point(hrc, "Power", "Number", "kW", ["elec", "power", "sensor"], hkw)
point(
    hrc, "CHW Supply Temp", "Number", "°C", ["chilled", "water", "leaving", "temp", "sensor"], 6.7 + clipn(s, 0.1, 0.3)
)
point(hrc, "CHW Supply Temp SP", "Number", "°C", ["chilled", "water", "leaving", "temp", "sp"], np.full(s.n, 6.7))
point(hrc, "HW Supply Temp", "Number", "°C", ["hot", "water", "leaving", "temp", "sensor"], 55.0 + clipn(s, 0.2, 0.5))
point(hrc, "HW Supply Temp SP", "Number", "°C", ["hot", "water", "leaving", "temp", "sp"], np.full(s.n, 55.0))
point(hrc, "Heating Output", "Number", "kW", ["hot", "water", "power", "sensor"], hkw * 3.1 + noise(s, 8.0))

# the domestic hot water plant: supply 58.5-61.5 degC (setpoint 60), recirculation return 56-58; the gas valve swings
dhw = equip(s, "e13", "DHW Plant", ["domestic", "hot", "water", "plant"])
dflow = np.clip(np.where(s.hours(7.0, 22.0), 4.2, 1.8) + noise(s, 0.2), 0.2, None)
point(dhw, "Supply Temp", "Number", "°C", ["domestic", "hot", "water", "leaving", "temp", "sensor"],
      60.0 + clipn(s, 0.6, 1.5))  # fmt: skip
point(dhw, "Supply Temp SP", "Number", "°C", ["domestic", "hot", "water", "leaving", "temp", "sp"], np.full(s.n, 60.0))
point(dhw, "Recirc Temp", "Number", "°C", ["domestic", "hot", "water", "entering", "temp", "sensor"],
      57.0 + clipn(s, 0.4, 1.0))  # fmt: skip
point(dhw, "Gas Valve", "Number", "%", ["naturalGas", "valve", "cmd"],
      np.clip(35.0 + daily(s, 20.0, 7.0) + noise(s, 5.0), 5.0, 95.0))  # fmt: skip
point(dhw, "Flow", "Number", "m³/h", ["domestic", "hot", "water", "flow", "sensor"], dflow)
point(dhw, "Hot Water Volume", "Number", "m³", ["domestic", "hot", "water", "volume", "sensor"],
      register(s, dflow, 21_406.0))  # fmt: skip

bm = equip(s, "e14", "Building Meter", ["elecMeter", "meter", "elec", "siteMeter"])
bdem = 620.0 + ef_kw + hkw + daily(s, 120.0, 14.0) + noise(s, 10.0)
point(bm, "Demand", "Number", "kW", ["elec", "power", "sensor"], bdem)
point(bm, "Energy", "Number", "kWh", ["elec", "energy", "import", "sensor"], register(s, bdem, 9_552_871.0))


if __name__ == "__main__":
    G.write(HERE, SITES)
