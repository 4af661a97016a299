"""Make the blind-11 plant: plant.json (Haystack 4 JSON grid) and plant.csv.gz (15-minute histories).

Three sites of new kinds, Mon 2026-09-21 00:00 to Mon 2026-10-12 00:00 site-local (3 weeks):
  Joliet Cold Storage      a frozen-food distribution centre: freezer rooms (air temp + setpoint), blast cells,
                           ammonia compressors, evaporators with defrost, dock doors, main electric meter
                           (America/Chicago, US units, -05:00 all along: CDT ends 1 Nov)
  Murray Plains Energy Park a grid-scale battery + solar site: BESS with a SIGNED active power (+ discharge,
                           - charge), state of charge, PV blocks, inverters, grid connection meter with signed net
                           power (+ export, - import) and separate export / import kWh registers
                           (Australia/Adelaide: +09:30, clocks go FORWARD on Sun 4 Oct 2026 02:00 -> 03:00, a
                           23-hour day, then +10:30)
  Ballymount Laundry       a commercial laundry: washers (run status + motor power), tunnel dryers (gas flow),
                           steam boiler, water meter with a volume register, hot-water tank (temp + level)
                           (Europe/Dublin, SI, +01:00 all along: IST ends 25 Oct)

Fixed seed; the same run gives byte-identical files (gzip mtime 0, no file name in the header).
Usage: python bench/blind11/make_plant.py
"""

from __future__ import annotations

import datetime as dt
import math
import sys
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))
from blindkit.plant import Plant, daily, keep_gap, put, register  # noqa: E402

SEED = 20261004
START = dt.date(2026, 9, 21)
END = dt.date(2026, 10, 12)
D = dt.date


G = Plant(SEED, START, END)
Site, noise, clipn, per_day, equip, point = G.site, G.noise, G.clipn, G.per_day, G.equip, G.point


def bump_h(site: Site, h0: float, h1: float) -> np.ndarray:
    """A half-sine over local hours [h0, h1) on every day (0 outside)."""
    x = np.clip((site.hour - h0) / (h1 - h0), 0.0, 1.0)
    return np.where(site.hours(h0, h1), np.sin(math.pi * x), 0.0)


# ---------------------------------------------------------------------------------------------------------------
jo = Site("jcs", "Joliet Cold Storage", "America/Chicago", "Chicago", "Joliet")
mp = Site("mpe", "Murray Plains Energy Park", "Australia/Adelaide", "Adelaide", "Murray Bridge")
bl = Site("bly", "Ballymount Laundry", "Europe/Dublin", "Dublin", "Dublin")
SITES = [jo, mp, bl]


# ----- Joliet Cold Storage (Chicago, US units) ----------------------------------------------------------------
s = jo
weekday = s.wday < 5
T6 = D(2026, 10, 6)  # Tue 6 Oct: the night shift's "yesterday" on Wed 7 Oct

# Freezer 1 (-10 F), Freezer 2 (-20 F), Freezer 3 (-5 F). Freezer 1's evaporator fan motor fails Tue 6 Oct 01:00,
# replaced 21:00: the room warms to about +3.5 F. Freezer 3's defrost termination fails Tue 6 Oct 13:00: the room
# is over 0 F from 13:15 to 15:45 (11 samples, 2.75 h). Freezer 2 is held 0.2-1.8 F under its setpoint.
F1_FAIL = s.mask(T6, 1.0, 23.0)
evap_kw = np.zeros(s.n)
for code, name, sp, evap in (("e01", "Freezer 1", -10.0, "e04"), ("e02", "Freezer 2", -20.0, "e05"),
                             ("e03", "Freezer 3", -5.0, "e06")):  # fmt: skip
    f = equip(s, code, name, ["freezer", "coldRoom"])
    if name == "Freezer 2":
        air = sp - np.clip(1.0 + noise(s, 0.35), 0.2, 1.8)
    else:
        air = sp + np.clip(noise(s, 0.6), -1.5, 1.5)
    defrost = np.zeros(s.n, bool)
    for h in (0.0, 6.0, 12.0, 18.0):
        defrost |= s.hours(h + (0.5 if name == "Freezer 2" else 1.0 if name == "Freezer 3" else 0.0),
                           h + (1.0 if name == "Freezer 2" else 1.5 if name == "Freezer 3" else 0.5))  # fmt: skip
    if name == "Freezer 1":
        h = s.hour
        rise = np.where(h < 8.0, -10.0 + 13.5 * (h - 1.0) / 7.0, np.where(h < 21.0, 3.5, 3.5 - 13.5 * (h - 21.0) / 2.0))
        air = np.where(F1_FAIL, rise + noise(s, 0.3), air)
    if name == "Freezer 3":
        put(s, air, T6, {13.0: -2.1, 13.25: 0.7, 13.5: 2.6, 13.75: 4.1, 14.0: 5.3, 14.25: 6.0, 14.5: 6.2,
                         14.75: 5.6, 15.0: 4.4, 15.25: 2.9, 15.5: 1.6, 15.75: 0.5, 16.0: -1.3, 16.25: -3.2})  # fmt: skip  # noqa: E501
    point(f, "Air Temp", "Number", "°F", ["air", "temp", "sensor"], air)
    point(f, "Air Temp SP", "Number", "°F", ["air", "temp", "sp"], np.full(s.n, sp))
    point(f, "Door Open", "Bool", None, ["door", "sensor"], weekday & s.hours(7.0, 7.25) | s.hours(15.0, 15.25))
    ev = equip(s, evap, f"Evap {code[-1]}", ["evaporator", "coil", "refrig"])
    coil = np.where(defrost, 45.0 + noise(s, 3.0), sp - 12.0 + noise(s, 0.8))
    point(ev, "Coil Temp", "Number", "°F", ["coil", "temp", "sensor"], coil)
    point(ev, "Defrost", "Bool", None, ["defrost", "sensor"], defrost)
    fan = np.where(defrost, 0.0, 22.0 + noise(s, 0.4))
    if name == "Freezer 1":
        fan = np.where(s.mask(T6, 1.0, 21.0), 0.0, fan)
    evap_kw += fan
    point(ev, "Fan kW", "Number", "kW", ["fan", "elec", "power", "sensor"], fan)

# blast cells: warm product loaded at 06:00 and 17:00 every day. Tue 6 Oct 10:30 a door is left open on Blast
# Cell 2: 26.4 F at 10:45, its day's maximum (the loads reach about 14 F)
blast_kw = np.zeros(s.n)
for code, name, base in (("e07", "Blast Cell 1", -30.0), ("e08", "Blast Cell 2", -28.0)):
    b = equip(s, code, name, ["blastFreezer"])
    air = base + np.clip(noise(s, 0.6), -1.6, 1.6)
    for h0 in (6.0, 17.0):
        dtn = s.hour - h0
        air = np.where((dtn >= 0) & (dtn < 4.0), air + 42.0 * np.exp(-dtn / 0.9) * (1 + noise(s, 0.02)), air)
    if name == "Blast Cell 2":
        put(s, air, T6, {10.5: 8.9, 10.75: 26.4, 11.0: 19.8, 11.25: 6.1, 11.5: -9.7, 11.75: -19.5})
    point(b, "Air Temp", "Number", "°F", ["air", "temp", "sensor"], air)
    fk = 55.0 + noise(s, 1.0)
    blast_kw += fk
    point(b, "Fan kW", "Number", "kW", ["fan", "elec", "power", "sensor"], fk)

# ammonia compressors: NH3 Comp 1 carries the base load, NH3 Comp 2 trims (more by day), NH3 Comp 3 is the standby.
# Tue 6 Oct 06:00-18:00 NH3 Comp 1's oil change: Comp 2 runs up to 300 kW, Comp 3 starts at 220 kW
C1_OFF = s.mask(T6, 6.0, 18.0)
comp_kw = np.zeros(s.n)
for code, name, kw, run in (
    ("e09", "NH3 Comp 1", np.where(C1_OFF, 0.0, 280.0 + noise(s, 5.0)), ~C1_OFF),
    (
        "e10",
        "NH3 Comp 2",
        np.where(C1_OFF, 300.0, np.where(s.hours(6.0, 22.0), 200.0, 150.0)) + noise(s, 5.0),
        np.ones(s.n, bool),
    ),
    ("e11", "NH3 Comp 3", np.where(C1_OFF, 220.0 + noise(s, 4.0), 0.0), C1_OFF),
):
    c = equip(s, code, name, ["compressor", "refrig", "ammonia"])
    comp_kw += kw
    point(c, "Suction Pressure", "Number", "psi", ["refrig", "suction", "pressure", "sensor"],
          np.where(run, 8.5 + noise(s, 0.2), 14.0 + noise(s, 0.2)))  # fmt: skip
    point(c, "Discharge Pressure", "Number", "psi", ["refrig", "discharge", "pressure", "sensor"],
          np.where(run, 155.0 + daily(s, 8.0, 15.0) + noise(s, 1.5), 120.0 + noise(s, 1.0)))  # fmt: skip
    point(c, "Motor kW", "Number", "kW", ["elec", "power", "sensor"], kw)
    point(c, "Capacity", "Number", "%", ["capacity", "sensor"], np.clip(kw / 3.5, 0.0, 100.0))
    point(c, "Running", "Bool", None, ["run", "sensor"], run)

for i in range(1, 7):
    dd = equip(s, f"e{11 + i}", f"Dock Door {i}", ["door", "dockDoor"])
    open_ = weekday & (s.hours(5.0 + i * 0.25, 7.0 + i * 0.25) | s.hours(13.0 + i * 0.5, 14.0 + i * 0.5))
    point(dd, "Open", "Bool", None, ["door", "open", "sensor"], open_)

mm = equip(s, "e18", "Main Meter", ["elecMeter", "meter", "elec", "siteMeter"])
chargers = 120.0 * (weekday & s.hours(6.0, 22.0))  # forklift chargers on the shipping shifts
mkw = comp_kw + evap_kw + blast_kw + chargers + 180.0 + daily(s, 25.0, 15.0) + per_day(s, 20.0) + noise(s, 12.0)
mkw[s.at(D(2026, 9, 29), 15.25)] += 260.0  # Tue 29 Sep 15:15: hot-gas defrost of all coils with the chargers
mkw = mkw + 200.0 * s.mask(T6, 17.0, 24.0)  # Tue 6 Oct 17:00: eight reefer trailers plugged in for the night
point(mm, "kW", "Number", "kW", ["elec", "power", "sensor"], mkw)
point(mm, "kWh", "Number", "kWh", ["elec", "energy", "import", "sensor"], register(s, mkw, 9_318_442.0))
point(mm, "Power Factor", "Number", "pf", ["elec", "pf", "sensor"], 0.88 + noise(s, 0.006))

# ----- Murray Plains Energy Park (Adelaide) ----------------------------------------------------------------------
s = mp
W7 = D(2026, 10, 7)  # Wed 7 Oct: "yesterday" on Thu 8 Oct
# the sun: solar noon about 02:36 UTC (12:06 ACST, 13:06 ACDT); twelve hours of daylight
x = ((s.uhour - 2.6 + 12.0) % 24.0) - 12.0
clear = np.clip(np.cos(math.pi * x / 12.0), 0.0, None) ** 1.3
cloud = np.clip(0.85 + per_day(s, 0.1), 0.55, 1.0) * np.clip(1.0 + noise(s, 0.03), 0.85, 1.1)
met = equip(s, "e10", "Met Station", ["weatherStation"])
point(met, "Irradiance", "Number", "W/m²", ["solar", "irradiance", "sensor"], 1050.0 * clear * cloud)
point(met, "Ambient Temp", "Number", "°C", ["air", "outside", "temp", "sensor"],
      17.0 + daily(s, 6.0, 15.0) + per_day(s, 2.0) + noise(s, 0.3))  # fmt: skip

# INV-01 trips on an AC over-voltage Wed 7 Oct 10:00-14:00 (its block is open-circuit: DC 0)
INV1_TRIP = s.mask(W7, 10.0, 14.0)
ac_sum = np.zeros(s.n)
for k, size in ((1, 5000.0), (2, 5200.0), (3, 4800.0)):
    blk = equip(s, f"e0{k + 3}", f"PV Block {k}", ["pv", "solar", "panel"])
    dc = size * clear * cloud * np.clip(1.0 + noise(s, 0.01), 0.97, 1.03)
    if k == 1:
        dc = np.where(INV1_TRIP, 0.0, dc)
    dc = np.where(clear > 0, dc, 0.0)
    point(blk, "DC Power", "Number", "kW", ["dc", "elec", "power", "sensor"], dc)
    point(blk, "Module Temp", "Number", "°C", ["solar", "temp", "sensor"], 15.0 + 30.0 * clear * cloud + noise(s, 0.4))
    inv = equip(s, f"e0{k + 6}", f"INV-0{k}", ["inverter"])
    ac = dc * 0.975 * np.clip(1.0 + noise(s, 0.001), 0.997, 1.003)
    ac_sum += ac
    point(inv, "AC Power", "Number", "kW", ["ac", "elec", "power", "sensor"], ac)
    point(inv, "Cabinet Temp", "Number", "°C", ["temp", "sensor"], 25.0 + 12.0 * clear + noise(s, 0.5))

# BESS 1 (20 MWh): charges 10:00-15:00 local at up to about 4.8 MW (4.2 MW on Sun 4 Oct), discharges 17:00-23:00 at up to about 3.6 MW,  # noqa: E501
# the discharge sized each day to bring the state of charge back (95 % one-way efficiency). Wed 7 Oct: an evening
# price spike, discharge 20 % harder: the state of charge ends the day about 13 %, under 20 % from about 22:00
bess = equip(s, "e01", "BESS 1", ["battery"])
ch_peak = 4800.0 + per_day(s, 60.0)
ch_peak = np.where(s.day(D(2026, 10, 4)), 4200.0, ch_peak)  # Sun 4 Oct: a network constraint caps charging
charge = ch_peak * bump_h(s, 10.0, 15.0)
dis_peak = 0.9025 * ch_peak * 5.0 / 6.0 * np.where(np.array([d == W7 for d in s.date]), 1.2, 1.0)
discharge = dis_peak * bump_h(s, 17.0, 23.0)
p_batt = discharge - charge  # + discharge (export), - charge (import)
soc = 27.0 + np.cumsum((charge * 0.95 - discharge / 0.95) * 0.25) / 20000.0 * 100.0
soc = soc + noise(s, 0.03)
point(bess, "Active Power", "Number", "kW", ["elec", "power", "sensor"], p_batt,
      desc="signed: positive = discharging (export to the grid), negative = charging (import)")  # fmt: skip
point(bess, "Discharge Power", "Number", "kW", ["elec", "power", "export", "sensor"], discharge,
      desc="discharge only, never negative")  # fmt: skip
point(bess, "Charge Power", "Number", "kW", ["elec", "power", "import", "sensor"], charge,
      desc="charge only, never negative")  # fmt: skip
point(bess, "State of Charge", "Number", "%", ["battery", "charge", "level", "sensor"], soc)
point(bess, "Discharge Energy", "Number", "kWh", ["elec", "energy", "export", "sensor"],
      register(s, discharge, 4_812_006.0))  # fmt: skip
point(bess, "Charge Energy", "Number", "kWh", ["elec", "energy", "import", "sensor"], register(s, charge, 5_327_451.0))
point(bess, "Cell Temp", "Number", "°C", ["battery", "temp", "sensor"],
      24.0 + 3.0 * (charge + discharge) / 4800.0 + noise(s, 0.2))  # fmt: skip

gc = equip(s, "e02", "Grid Connection", ["elecMeter", "meter", "elec", "siteMeter"])
aux = 80.0 + noise(s, 4.0)
net = ac_sum + p_batt - aux  # + export, - import
point(gc, "Net Power", "Number", "kW", ["elec", "power", "sensor"], net,
      desc="signed: positive = export to the grid, negative = import from the grid")  # fmt: skip
point(gc, "Export Energy", "Number", "kWh", ["elec", "energy", "export", "sensor"],
      register(s, np.clip(net, 0.0, None), 31_550_210.0))  # fmt: skip
point(gc, "Import Energy", "Number", "kWh", ["elec", "energy", "import", "sensor"],
      register(s, np.clip(-net, 0.0, None), 2_104_877.0))  # fmt: skip
point(gc, "Frequency", "Number", "Hz", ["elec", "freq", "sensor"], 50.0 + noise(s, 0.02))

# ----- Ballymount Laundry (Dublin, SI) -------------------------------------------------------------------------
s = bl
shift = (s.wday < 6) & s.hours(6.0, 22.0)  # Mon-Sat 06:00-22:00
TH8 = D(2026, 10, 8)  # Thu 8 Oct: "yesterday" on Fri 9 Oct
TUE6 = D(2026, 10, 6)
extra = s.mask(TUE6, 22.0, 24.0) | s.mask(TUE6, 4.0, 6.0)  # Tue 6 Oct: a hospital contract's overflow shift
work = shift | extra
slot = np.round(s.hour * 4).astype(int) % 4  # 45 min washing, 15 min load/unload
wash_kw = np.zeros(s.n)
for k, kw0 in ((1, 18.0), (2, 18.5), (3, 17.5), (4, 25.0)):
    w = equip(s, f"e0{k}", f"Washer {k}", ["washer"])
    run = work & (slot != (k - 1))
    if k == 2:  # Thu 8 Oct 08:00-16:00: Washer 2's drum bearing is changed
        run = run & ~s.mask(TH8, 8.0, 16.0)
    kw = np.where(run, kw0 + noise(s, 0.6), 0.3 + noise(s, 0.02))
    wash_kw += kw
    point(w, "Running", "Bool", None, ["run", "sensor"], run)
    point(w, "Motor Power", "Number", "kW", ["motor", "elec", "power", "sensor"], kw)
    point(w, "Water Temp", "Number", "°C", ["water", "temp", "sensor"], np.where(run, 62.0 + noise(s, 1.5), 30.0))

DRY1_OFF = s.mask(D(2026, 9, 29), 0.0, 24.0) | s.mask(D(2026, 9, 30), 0.0, 24.0)  # burner fault, Tue-Wed 29-30 Sep
WET = s.mask(TH8, 14.0, 16.0)  # Thu 8 Oct 14:00-16:00: wet loads from a failed press, Dryer 1 throttled
gas_dry = np.zeros(s.n)
for k, g0 in ((1, 160.0), (2, 140.0)):
    dr = equip(s, f"e0{4 + k}", f"Tunnel Dryer {k}", ["dryer", "tunnelDryer"])
    run = work & ~(DRY1_OFF if k == 1 else np.zeros(s.n, bool))
    g = np.where(run, g0 + np.clip(noise(s, 4.0), -8.0, 8.0), 0.0)
    if k == 1:
        g = np.where(WET & run, 120.0 + noise(s, 3.0), g)
    gas_dry += g
    point(dr, "Gas Flow", "Number", "m³/h", ["naturalGas", "flow", "sensor"], g)
    point(dr, "Exhaust Temp", "Number", "°C", ["exhaust", "temp", "sensor"], np.where(run, 135.0 + noise(s, 2.0), 22.0))
    point(dr, "Running", "Bool", None, ["run", "sensor"], run)

bo = equip(s, "e07", "Steam Boiler", ["boiler", "steam"])
steam = np.where(work, 2400.0 + per_day(s, 60.0) + noise(s, 80.0), 300.0 + noise(s, 20.0))
point(bo, "Steam Pressure", "Number", "bar", ["steam", "pressure", "sensor"], np.where(work, 10.0, 8.0) + noise(s, 0.1))
point(bo, "Steam Flow", "Number", "kg/h", ["steam", "flow", "sensor"], steam)
point(bo, "Gas Flow", "Number", "m³/h", ["naturalGas", "flow", "sensor"], steam * 0.075 + noise(s, 2.0))

wm = equip(s, "e08", "Water Meter", ["waterMeter", "meter", "water"])
wflow = np.clip(np.where(work, 22.0 + noise(s, 1.5), 0.4 + noise(s, 0.1)), 0.0, None)
point(wm, "Flow", "Number", "m³/h", ["water", "flow", "sensor"], wflow)
point(wm, "Volume", "Number", "m³", ["water", "volume", "sensor"], register(s, wflow, 1_206_334.0))

hw = equip(s, "e09", "Hot Water Tank", ["tank", "hot", "water"])
# the level is drawn down through each shift and refilled at night; the temperature dips on heavy draws but stays
# over 60 C (Thu 8 Oct lowest 61.0 C); the sensor's logger drops out Fri 9 Oct 01:00-05:00
lvl = np.where(work, 85.0 - 45.0 * np.clip((s.hour - 6.0) / 16.0, 0.0, 1.0), 40.0 + 45.0 * np.clip(
    ((s.hour - 22.0) % 24.0) / 8.0, 0.0, 1.0)) + noise(s, 0.5)  # fmt: skip
temp = 65.0 - 2.0 * work + np.clip(noise(s, 0.5), -1.2, 1.2)
put(s, temp, TH8, {11.0: 61.9, 11.25: 61.0, 11.5: 61.6})
point(hw, "Water Temp", "Number", "°C", ["hot", "water", "temp", "sensor"], temp, keep_gap(s, D(2026, 10, 9), 1.0))
point(hw, "Level", "Number", "%", ["hot", "water", "level", "sensor"], lvl)

# ---------------------------------------------------------------------------------------------------------------


if __name__ == "__main__":
    G.write(HERE, SITES)
