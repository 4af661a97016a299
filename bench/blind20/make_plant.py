"""Make the blind-20 plant: plant.json (Haystack 4 JSON grid) and plant.csv.gz (15-minute histories).

Three sites of new kinds, Sun 2026-11-01 00:00 to Mon 2026-12-07 00:00 site-local (36 days); no clock changes in any
of the three zones, so all of November is covered whole:
  Tejgaon Dye House             a textile dyeing and finishing house in Dhaka: four jet dyeing machines (terse names,
                                liquor temperature against its setpoint), two stenters heated by a thermic-fluid heater
                                (terse SCADA names), two steam boilers (lead / lag), three air compressors, the
                                effluent treatment plant with its online analysers, the main incomer and the gas meter
                                (Asia/Dhaka, SI; +06:00 all along; Friday is the weekly holiday)
  Central Barracas Exchange     a telecom central office in Buenos Aires: five CRAC units (terse BMS names), three
                                -48 V rectifier plants and their battery strings (a signed battery current: + charging,
                                - discharging), two standby gensets with day tanks and a bulk fuel tank, the utility
                                incomer (America/Argentina/Buenos_Aires, SI; -03:00 all along)
  Grafarholt Pumping Station    a geothermal district-heating pumping station in Reykjavik: three well pumps (VFDs),
                                three plate heat exchangers (terse names: PRI-IN-T, SEC-OUT-T, DP), two storage tanks,
                                four distribution pumps (duty / lag / standby), the distribution header (SUP-T, RTN-T,
                                DP and its setpoint, the bypass valve's command and position, heat in MW and its MWh
                                register), the station incomer, a weather station (Atlantic/Reykjavik, SI; UTC)

Fixed seed; the same run gives byte-identical files (gzip mtime 0, no file name in the header).
Usage: python bench/blind20/make_plant.py
"""

from __future__ import annotations

import datetime as dt
import math
import sys
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))
from blindkit.plant import Plant, by_date, daily, keep_gap, lag, put, register, triangle  # noqa: E402

SEED = 20261207
START = dt.date(2026, 11, 1)
END = dt.date(2026, 12, 7)
D = dt.date


G = Plant(SEED, START, END)
Site, noise, clipn, per_day, equip, point = G.site, G.noise, G.clipn, G.per_day, G.equip, G.point

tdh = Site("tdh", "Tejgaon Dye House", "Asia/Dhaka", "Dhaka", "Dhaka")
cbx = Site("cbx", "Central Barracas Exchange", "America/Argentina/Buenos_Aires", "Buenos_Aires", "Buenos Aires")
gps = Site("gps", "Grafarholt Pumping Station", "Atlantic/Reykjavik", "Reykjavik", "Reykjavik")
SITES = [tdh, cbx, gps]


def ramp_between(site, d0: dt.date, h0: float, d1: dt.date, h1: float) -> np.ndarray:
    """0 before local (d0, h0), rising linearly to 1 at (d1, h1), 1 after."""
    a, b = site.secs[site.at(d0, h0)], site.secs[site.at(d1, h1)]
    return np.clip((site.secs - a) / (b - a), 0.0, 1.0)


def put_rel(site, arr: np.ndarray, base: np.ndarray, day: dt.date, deltas: dict[float, float]) -> None:
    """Set the samples of that local day at the given clock hours to base + delta (an event above a setpoint)."""
    for hh, dv in deltas.items():
        i = site.at(day, hh)
        arr[i] = base[i] + dv


# ----- Tejgaon Dye House (Dhaka, SI) -------------------------------------------------------------------------------
s = tdh
h, wd = s.hour, s.wday
NOV9, NOV10, NOV11, NOV12 = D(2026, 11, 9), D(2026, 11, 10), D(2026, 11, 11), D(2026, 11, 12)
NOV16, NOV26, NOV29 = D(2026, 11, 16), D(2026, 11, 26), D(2026, 11, 29)
DEC1 = D(2026, 12, 1)
friday = wd == 4  # the weekly holiday: no dyeing, the stenters stopped, the boilers on low fire
work = ~friday
# from Mon 16 Nov the export season: about 8 % more production
level = np.where(s.between(NOV16, END), 1.08, 1.0)


def jet_sp(offset_h: float, hold: float) -> tuple[np.ndarray, np.ndarray]:
    """A jet dyer's liquor temperature setpoint and batch phase: 8-hour batches from `offset_h` (fill at 40, ramp to the
    hold temperature over 75 min, hold 2.5 h, cool to 70, rinse at 60, drain and reload at 40); 35 on Fridays."""
    c = (h - offset_h) % 8.0
    sp = np.select(
        [c < 0.75, c < 2.0, c < 4.5, c < 5.25, c < 6.5],
        [40.0 + 0 * c, 40.0 + (hold - 40.0) * (c - 0.75) / 1.25, hold + 0 * c,
         hold - (hold - 70.0) * (c - 4.5) / 0.75, 60.0 + 0 * c],
        40.0,
    )  # fmt: skip
    phase = np.select([c < 0.75, c < 2.0, c < 4.5, c < 5.25, c < 6.5], [0, 1, 2, 3, 4], 5)
    return np.where(friday, 35.0, np.round(sp, 2)), np.where(friday, -1, phase)


jet_steam = np.zeros(s.n)
jet_kw = np.zeros(s.n)
for i, (off, hold, kw0) in enumerate(((0.0, 60.0, 15.0), (2.0, 80.0, 15.0), (4.0, 130.0, 22.0), (6.0, 130.0, 22.0)),
                                     start=1):  # fmt: skip
    sp, phase = jet_sp(off, hold)
    liq = np.where(friday, 28.0 + daily(s, 1.5, 15.0) + noise(s, 0.3), sp + clipn(s, 0.2, 0.5))
    vlv = np.select([phase == 1, phase == 2], [85.0 + clipn(s, 5.0, 12.0), 30.0 + clipn(s, 4.0, 9.0)], 0.0)
    if i == 4:  # Thu 26 Nov, in the 08:00-10:30 hold at 130 degC: the steam valve hunts and the liquor overshoots
        put_rel(s, liq, sp, NOV26, {8.5: 1.9, 8.75: 4.6, 9.0: 3.1, 9.25: 1.4})
        put(s, vlv, NOV26, {8.25: 62.0, 8.5: 4.0, 8.75: 0.0, 9.0: 48.0, 9.25: 12.0, 9.5: 41.0})
    kw = np.where(friday, 0.0, kw0 * np.where(phase == 5, 0.35, 1.0) + noise(s, 0.4))
    jet_steam += vlv
    jet_kw += kw
    e = equip(s, f"e{i:02d}", f"JD-{i:02d}", ["jetDyer", "dyeing", "textile"])
    point(e, "LIQ-T", "Number", "°C", ["liquor", "water", "temp", "sensor"], liq)
    point(e, "LIQ-T SP", "Number", "°C", ["liquor", "water", "temp", "sp"], sp)
    point(e, "MP kW", "Number", "kW", ["pump", "elec", "power", "sensor"], kw)
    point(e, "STM VLV", "Number", "%", ["steam", "valve", "cmd"], vlv)

# the thermic-fluid heater: Tue 1 Dec 10:30 a flame failure trips the burner; relit at 12:00. The supply bottoms out at
# 199.6 degC at 12:15; the return, which lags, at 180.1 degC at 12:45
tfs = 250.0 + clipn(s, 0.4, 0.9)
put(s, tfs, DEC1, {10.5: 246.1, 10.75: 236.4, 11.0: 226.8, 11.25: 218.3, 11.5: 211.0, 11.75: 205.6, 12.0: 201.9,
                   12.25: 199.6, 12.5: 203.8, 12.75: 212.2, 13.0: 222.5, 13.25: 231.7, 13.5: 239.4, 13.75: 245.3,
                   14.0: 248.7})  # fmt: skip
tfr = tfs - np.where(friday, 6.0, 25.0) + clipn(s, 0.4, 0.9)
put(s, tfr, DEC1, {10.5: 224.0, 10.75: 219.1, 11.0: 211.4, 11.25: 203.2, 11.5: 195.8, 11.75: 189.9, 12.0: 185.1,
                   12.25: 182.4, 12.5: 180.7, 12.75: 180.1, 13.0: 183.6, 13.25: 192.0, 13.5: 201.5, 13.75: 210.8,
                   14.0: 218.9, 14.25: 222.8})  # fmt: skip
trip = s.mask(DEC1, 10.5, 12.0)
tfh_gas = np.where(trip, 0.0, np.where(friday, 38.0, 96.0) + noise(s, 2.0))
e = equip(s, "e05", "Thermic Fluid Heater", ["thermalFluidHeater", "heater", "hot"])
point(e, "TFS-T", "Number", "°C", ["thermalFluid", "leaving", "temp", "sensor"], tfs)
point(e, "TFS-T SP", "Number", "°C", ["thermalFluid", "leaving", "temp", "sp"], np.full(s.n, 250.0))
point(e, "TFR-T", "Number", "°C", ["thermalFluid", "entering", "temp", "sensor"], tfr)
point(e, "TF-F", "Number", "m³/h", ["thermalFluid", "flow", "sensor"], 118.0 + noise(s, 1.0))
point(e, "Gas Flow", "Number", "Nm³/h", ["naturalGas", "flow", "sensor"], tfh_gas)
point(e, "Flue Gas Temp", "Number", "°C", ["exhaust", "temp", "sensor"], np.where(trip, 140.0, 310.0)
      + noise(s, 3.0))  # fmt: skip

# the stenters: Stenter 1 dries cotton at 150 degC, Stenter 2 heat-sets a polyester blend at 190 degC; both stop on
# Fridays. Tue 1 Dec: Stenter 2 restarts after a fabric change 06:00-07:00 (below its setpoint), then the heater's trip
# leaves Stenter 2 below its setpoint 10:45-13:30 (11 samples) and Stenter 1 11:30-12:30 (4 samples)
ST_EVENTS = {
    1: {11.5: 149.2, 11.75: 147.6, 12.0: 146.1, 12.25: 147.9, 12.5: 150.4},
    2: {6.0: 186.2, 6.25: 183.9, 6.5: 185.8, 6.75: 188.4, 7.0: 190.6, 10.5: 190.5, 10.75: 188.9, 11.0: 186.2,
        11.25: 183.0, 11.5: 179.6, 11.75: 176.4, 12.0: 173.9, 12.25: 172.8, 12.5: 174.9, 12.75: 178.6, 13.0: 183.1,
        13.25: 187.4, 13.5: 190.5},
}  # fmt: skip
stenter_kw = np.zeros(s.n)
for i, (sp0, spd0, fan0) in enumerate(((150.0, 45.0, 38.0), (190.0, 30.0, 46.0)), start=1):
    sp = np.full(s.n, sp0)
    target = np.where(work, sp0 + 0.8, 45.0)
    lagged = lag(target, 0.3)
    ch = np.where(np.abs(lagged - target) < 0.05, target, lagged) + clipn(s, 0.25, 0.55)
    put(s, ch, DEC1, ST_EVENTS[i])
    ev = s.day(DEC1) & (ch < sp0)
    oil_vlv = np.where(work, 55.0 + clipn(s, 5.0, 12.0), 0.0)
    oil_vlv = np.where(ev, 100.0, oil_vlv)
    fan = np.where(work, fan0 + noise(s, 0.8), 0.0)
    stenter_kw += fan
    e = equip(s, f"e{5 + i:02d}", f"Stenter {i}", ["stenter", "dryer", "textile"])
    point(e, "Chamber Temp", "Number", "°C", ["air", "temp", "sensor"], ch)
    point(e, "Chamber Temp SP", "Number", "°C", ["air", "temp", "sp"], sp)
    point(e, "Exhaust Temp", "Number", "°C", ["exhaust", "air", "temp", "sensor"], np.where(work, sp0 - 45.0, 40.0)
          + noise(s, 1.0))  # fmt: skip
    point(e, "Fabric Speed", "Number", "m/min", ["speed", "sensor"], np.where(work, spd0 + clipn(s, 0.8, 2.0), 0.0))
    point(e, "Thermic Oil Valve", "Number", "%", ["thermalFluid", "valve", "cmd"], oil_vlv)
    point(e, "Fan Power", "Number", "kW", ["fan", "elec", "power", "sensor"], fan)

# the steam boilers: Boiler 1 leads (up to 7.2 t/h), Boiler 2 lags (hot standby on 8 Nm3/h, takes what is over).
# Boiler 1's evaporation ratio (kg steam per Nm3 gas) falls as it fouls; its tubes were cleaned on Sun 8 Nov, then
# 13.10 / 12.85 / 12.70 / 12.35 on 9-12 Nov (a burner tuning fault on the 12th)
steam = np.where(friday, 1_500.0, 6_500.0 * level) + daily(s, 600.0, 11.0) + 4.0 * jet_steam - 360.0 + noise(s, 120.0)
b1_steam = np.minimum(steam, 7_200.0)
b2_steam = np.maximum(steam - 7_200.0, 0.0)
er_days = [12.2 - 0.04 * k for k in range(8)] + [13.10, 12.85, 12.70, 12.35]
er_days += [12.30 - 0.025 * k for k in range(G.ndays - len(er_days))]
er_noise = G.rng.normal(0.0, 0.05, G.ndays)
er_noise[:12] = 0.0  # 1-12 Nov as designed
er = s.by_day(np.array(er_days) + er_noise)
b1_gas = b1_steam / er * (1.0 + clipn(s, 0.006, 0.012))
b2_gas = np.where(b2_steam > 0, b2_steam / 12.1, 8.0) * (1.0 + clipn(s, 0.006, 0.012))
for i, (st, gas, psp) in enumerate(((b1_steam, b1_gas, 10.0), (b2_steam, b2_gas, 10.0)), start=1):
    e = equip(s, f"e{7 + i:02d}", f"Boiler {i}", ["boiler", "steam"])
    point(e, "Steam Pressure", "Number", "bar", ["steam", "pressure", "sensor"], psp - 0.2 + clipn(s, 0.08, 0.18))
    point(e, "Steam Pressure SP", "Number", "bar", ["steam", "pressure", "sp"], np.full(s.n, psp))
    point(e, "Steam Flow", "Number", "kg/h", ["steam", "flow", "sensor"], st)
    point(e, "Gas Flow", "Number", "Nm³/h", ["naturalGas", "flow", "sensor"], gas)
    point(e, "Flue Gas O2", "Number", "%", ["exhaust", "o2", "sensor"], 3.2 + clipn(s, 0.25, 0.6))
    point(e, "Feedwater Temp", "Number", "°C", ["feed", "water", "temp", "sensor"], 96.0 + noise(s, 0.5))

# the air compressors: Air Compressor 1 leads (55 kW, ~91 % load), 2 lags (75 kW, ~63 %), 3 trims (110 kW, ~36 %: low
# turndown, short-cycling); the motor draws 25 % unloaded
comp_kw = np.zeros(s.n)
for i, (rated, load0, fad) in enumerate(((55.0, 91.0, 9.6), (75.0, 63.0, 13.0), (110.0, 36.0, 19.5)), start=1):
    load = np.clip(load0 * np.where(friday, 0.55, 1.0) + clipn(s, 3.0, 7.0), 0.0, 100.0)
    kw = rated * (0.25 + 0.75 * load / 100.0) + noise(s, 0.5)
    comp_kw += kw
    e = equip(s, f"e{9 + i:02d}", f"Air Compressor {i}", ["compressor", "air"])
    point(e, "Motor Power", "Number", "kW", ["elec", "power", "sensor"], kw)
    point(e, "Load", "Number", "%", ["load", "sensor"], load)
    point(e, "Discharge Pressure", "Number", "bar", ["air", "pressure", "sensor"], 7.0 + clipn(s, 0.06, 0.15))
    point(e, "Free Air Delivery", "Number", "m³/min", ["air", "flow", "sensor"], fad * load / 100.0 + noise(s, 0.1))

# the effluent treatment plant: the online analysers (pH, COD, TSS) lose their record Sun 29 Nov 01:00-05:00 (a cabinet
# power fault); the outlet stays at 31.5-36 degC, the equalisation-tank inlet at 41-47 degC
etp_gap = keep_gap(s, NOV29, 1.0, 4.0)
etp_flow = np.where(friday, 32.0, 86.0 * level) + daily(s, 6.0, 14.0) + noise(s, 2.0)
blower = np.where(friday, 48.0, 74.0) + noise(s, 1.5)
e = equip(s, "e13", "ETP", ["etp", "wasteWater", "water"])
point(e, "Inlet Flow", "Number", "m³/h", ["waste", "water", "entering", "flow", "sensor"], etp_flow)
point(e, "Inlet Temp", "Number", "°C", ["waste", "water", "entering", "temp", "sensor"], 44.0 + daily(s, 2.0, 14.0)
      + clipn(s, 0.4, 0.9))  # fmt: skip
point(e, "Outlet Temp", "Number", "°C", ["waste", "water", "leaving", "temp", "sensor"], 33.5 + daily(s, 1.5, 15.0)
      + clipn(s, 0.3, 0.7))  # fmt: skip
point(e, "Outlet pH", "Number", "pH", ["waste", "water", "leaving", "ph", "sensor"], 7.4 + clipn(s, 0.15, 0.35),
      etp_gap)  # fmt: skip
point(e, "Outlet COD", "Number", "mg/L", ["waste", "water", "leaving", "cod", "sensor"], 118.0 + clipn(s, 18.0,
      40.0), etp_gap)  # fmt: skip
point(e, "Outlet TSS", "Number", "mg/L", ["waste", "water", "leaving", "tss", "sensor"], 56.0 + clipn(s, 8.0, 18.0),
      etp_gap)  # fmt: skip
point(e, "Aeration Blower kW", "Number", "kW", ["blower", "elec", "power", "sensor"], blower)
point(e, "Treated Volume", "Number", "m³", ["waste", "water", "volume", "sensor"], register(s, etp_flow, 418_260.0))

site_kw = (jet_kw + stenter_kw + comp_kw + blower + np.where(friday, 160.0, 780.0 * level) + daily(s, 40.0, 14.0)
           + noise(s, 12.0))  # fmt: skip
e = equip(s, "e14", "Main Incomer", ["elecMeter", "meter", "elec", "siteMeter"])
point(e, "Active Power", "Number", "kW", ["elec", "power", "sensor"], site_kw)
point(e, "Energy", "Number", "kWh", ["elec", "energy", "import", "sensor"], register(s, site_kw, 6_284_113.0))
point(e, "Power Factor", "Number", "pf", ["elec", "pf", "sensor"], 0.95 + clipn(s, 0.006, 0.015))

gas_all = tfh_gas + b1_gas + b2_gas + 6.0 + noise(s, 1.0)
e = equip(s, "e15", "Gas Meter", ["gasMeter", "meter", "naturalGas"])
point(e, "Flow", "Number", "Nm³/h", ["naturalGas", "flow", "sensor"], gas_all)
point(e, "Volume", "Number", "Nm³", ["naturalGas", "volume", "sensor"], register(s, gas_all, 2_907_540.0))


# ----- Central Barracas Exchange (Buenos Aires, SI) ---------------------------------------------------------------
s = cbx
h, wd = s.hour, s.wday
NOV4, NOV11, NOV16, NOV18 = D(2026, 11, 4), D(2026, 11, 11), D(2026, 11, 16), D(2026, 11, 18)
NOV25, NOV26, NOV27 = D(2026, 11, 25), D(2026, 11, 26), D(2026, 11, 27)
DEC1, DEC2, DEC3 = D(2026, 12, 1), D(2026, 12, 2), D(2026, 12, 3)
t_out = (22.0 + 0.09 * s.day_i + daily(s, 4.5, 15.5) + per_day(s, 1.2) + noise(s, 0.3)
         + by_date(s, {DEC1: 3.0, DEC2: 6.0, DEC3: 5.0}, 0.0))  # fmt: skip

# Thu 26 Nov 01:52 the utility fails; Genset 1 (lead) does not crank (a flat starter battery); the strings carry the
# -48 V load until the technician starts Genset 2 at 03:05 (samples 02:00-03:00 discharging); utility back 05:10
outage = s.mask(NOV26, 2.0, 3.01)  # no AC: 02:00 .. 03:00
on_gen2 = s.mask(NOV26, 3.25, 5.01)  # Genset 2 carries the site: 03:15 .. 05:00
util_off = s.mask(NOV26, 2.0, 5.01)
# monthly-style test runs on load, 10:00-11:00: Genset 1 on Wed 4, 18 Nov and 2 Dec, Genset 2 on Wed 11 and 25 Nov
test1 = s.mask(NOV4, 10.0, 11.0) | s.mask(NOV18, 10.0, 11.0) | s.mask(DEC2, 10.0, 11.0)
test2 = s.mask(NOV11, 10.0, 11.0) | s.mask(NOV25, 10.0, 11.0)

# the rectifier plants and their strings; from Mon 16 Nov a new edge-compute row adds 400 A on Plant C
volt_dis = {2.0: 52.9, 2.25: 52.1, 2.5: 51.5, 2.75: 51.0, 3.0: 50.6}
volt_rec = {3.25: 53.4, 3.5: 54.6, 3.75: 55.2, 4.0: 55.2, 4.25: 55.1}
rec_t = (s.secs - s.secs[s.at(NOV26, 3.75)]) / 3600.0
RECT = (("A", 2_000.0, 1_000.0, 430.0), ("B", 2_000.0, 1_300.0, 420.0), ("C", 1_200.0, 300.0, 400.0))
rect_ac = np.zeros(s.n)
for i, (x, cap, i_load0, peak) in enumerate(RECT, start=1):
    i_load = i_load0 + (400.0 * s.between(NOV16, END) if x == "C" else 0.0) + noise(s, 4.0)
    fl = 1.5 + clipn(s, 0.2, 0.4)
    # the recharge: walk-in 03:15 / 03:30, the peak at 03:45, then an exponential taper to float
    taper = np.where(rec_t > 0, peak * 0.96 * np.exp(-np.clip(rec_t, 0, None) / 2.2), 0.0)
    batt = np.where(s.day(NOV26) & (rec_t > 0), np.maximum(taper, fl), fl)
    put(s, batt, NOV26, {3.25: round(0.42 * peak, 1), 3.5: round(0.84 * peak, 1), 3.75: peak})
    for hh, v in volt_dis.items():
        batt[s.at(NOV26, hh)] = -round(i_load0 * 54.0 / v + (400.0 if x == "C" else 0.0) * 54.0 / v, 1)
    volt = 54.0 + clipn(s, 0.03, 0.06)
    put(s, volt, NOV26, {**volt_dis, **volt_rec})
    out_a = np.where(outage, 0.0, i_load + np.maximum(batt, 0.0))
    dc_kw = out_a * volt / 1000.0
    ac_kw = np.where(outage, 0.0, dc_kw / 0.95 + noise(s, 0.2))
    rect_ac += ac_kw
    soc = np.full(s.n, 100.0)
    k0 = s.at(NOV26, 2.0)
    for k, q in enumerate((97.5, 95.0, 92.4, 89.8, 87.2)):
        soc[k0 + k] = q
    k1 = s.at(NOV26, 3.25)
    for k in range(k1, s.n):
        soc[k] = min(100.0, soc[k - 1] + max(batt[k], 0.0) * 0.25 / 4_000.0 * 100.0 * 0.9)
    e = equip(s, f"e{i:02d}", f"Rectifier Plant {x}", ["rectifier", "dc", "elec"])
    point(e, "DC Voltage", "Number", "V", ["dc", "volt", "sensor"], volt)
    point(e, "Load Current", "Number", "A", ["dc", "current", "sensor"], out_a)
    point(e, "Load", "Number", "%", ["dc", "load", "sensor"], out_a / cap * 100.0)
    point(e, "AC Input kW", "Number", "kW", ["ac", "elec", "power", "sensor"], ac_kw)
    point(e, "DC Output kW", "Number", "kW", ["dc", "elec", "power", "sensor"], dc_kw)
    e = equip(s, f"e{3 + i:02d}", f"Battery String {x}", ["battery", "dc", "elec"])
    point(e, "Battery Current", "Number", "A", ["dc", "current", "sensor"], batt,
          desc="Signed: + charging (the rectifiers recharging or floating the string), - discharging (the string "
               "carrying the -48 V load)")  # fmt: skip
    point(e, "String Voltage", "Number", "V", ["dc", "volt", "sensor"], volt - 0.05 + clipn(s, 0.02, 0.04))
    point(e, "Cell Temp", "Number", "°C", ["battery", "temp", "sensor"], 23.5 + 0.3 * i + noise(s, 0.15))
    point(e, "State of Charge", "Number", "%", ["battery", "charge", "sensor"], soc)

# the CRACs: N+1 in one switch room; CRAC-05 sits at the hot end of the row; CRAC-01 carries the room humidifier (on
# 06:00-07:00 daily, +9.5 kW). Wed 2 Dec 13:00 CRAC-03's compressor trips on high pressure (reset 19:30): CRAC-02 and
# CRAC-04 pick up; CRAC-04 is left in manual high cooling after the reset, until midnight
fail3 = s.mask(DEC2, 13.0, 19.5)
pick_up = s.mask(DEC2, 13.25, 19.5)
manual4 = s.mask(DEC2, 19.5, 24.0)
grow = np.where(s.between(NOV16, END), 1.07, 1.0)
crac_kw = np.zeros(s.n)
RAT3 = {13.0: 22.7, 13.25: 23.5, 13.5: 24.4, 13.75: 25.2, 14.0: 25.9, 14.25: 26.4, 14.5: 26.8, 14.75: 27.1, 15.0: 27.3,
        15.25: 27.4, 15.5: 27.5, 15.75: 27.6, 16.0: 27.7, 16.25: 27.6, 16.5: 27.5, 16.75: 27.4, 17.0: 27.3,
        17.25: 27.2, 17.5: 27.0, 17.75: 26.9, 18.0: 26.8, 18.25: 26.7, 18.5: 26.6, 18.75: 26.5, 19.0: 26.4,
        19.25: 26.3, 19.5: 26.0, 19.75: 24.9, 20.0: 23.8, 20.25: 23.0}  # fmt: skip
SAT3 = {13.0: 13.4, 13.25: 17.9, 13.5: 21.2, 13.75: 23.1, 14.0: 24.2, 14.25: 24.9, 14.5: 25.4, 14.75: 25.7,
        15.0: 25.9, 15.25: 26.0, 15.5: 26.1, 15.75: 26.2, 16.0: 26.3, 16.25: 26.2, 16.5: 26.1, 16.75: 26.0, 17.0: 25.9,
        17.25: 25.8, 17.5: 25.6, 17.75: 25.5, 18.0: 25.4, 18.25: 25.3, 18.5: 25.2, 18.75: 25.1, 19.0: 25.0,
        19.25: 24.9, 19.5: 24.6, 19.75: 15.8, 20.0: 13.9, 20.25: 13.6}  # fmt: skip
for i, (base, bias) in enumerate(((32.0, 0.10), (36.0, 0.0), (34.0, 0.05), (35.0, 0.08), (40.0, 0.15)), start=1):
    cool = base * grow * (1.0 + 0.012 * (t_out - 22.0)) * (1.0 + clipn(s, 0.012, 0.025))
    if i in (2, 4):
        cool = np.where(pick_up, cool * 1.25, cool)
    if i == 4:
        cool = np.where(manual4, cool * 1.3, cool)
    cool = np.where(outage, 0.0, cool)
    cop = 3.45 - bias - 0.02 * (t_out - 22.0) + clipn(s, 0.02, 0.04)
    inp = np.where(outage, 0.0, cool / cop)
    if i == 1:
        inp = inp + np.where(s.hours(6.0, 7.0) & ~outage, 9.5 + noise(s, 0.2), 0.0)
    if i == 3:
        cool = np.where(fail3, 0.6 + clipn(s, 0.05, 0.1), cool)
        inp = np.where(fail3, 2.4 + clipn(s, 0.05, 0.1), inp)
    rat = 22.6 + clipn(s, 0.3, 0.6) + np.where(outage, 1.2, 0.0)
    # the air-side delta-T: about 11 K at the unit's design duty; the fan speeds up with the duty, so it grows slower
    sat = rat - np.where(outage, 0.3, 11.0 * (cool / (base * grow)) ** 0.6) + clipn(s, 0.1, 0.2)
    if i == 3:
        put(s, rat, DEC2, RAT3)
        put(s, sat, DEC2, SAT3)
    crac_kw += inp
    e = equip(s, f"e{6 + i:02d}", f"CRAC-{i:02d}", ["crac"])
    point(e, "RAT", "Number", "°C", ["return", "air", "temp", "sensor"], rat)
    point(e, "RAT SP", "Number", "°C", ["return", "air", "temp", "sp"], np.full(s.n, 24.0))
    point(e, "SAT", "Number", "°C", ["discharge", "air", "temp", "sensor"], sat)
    point(e, "Input kW", "Number", "kW", ["elec", "power", "sensor"], inp)
    point(e, "Cooling kW", "Number", "kW", ["cool", "thermal", "power", "sensor"], cool)
    point(e, "Fan Speed", "Number", "%", ["fan", "speed", "sensor"], np.where(outage, 0.0, np.minimum(100.0, 55.0
          + 0.8 * cool + noise(s, 0.5))))  # fmt: skip

site_ac = rect_ac + crac_kw + 24.0 + daily(s, 3.0, 13.0) + noise(s, 1.0)
util = np.where(util_off | test1 | test2, 0.0, site_ac)
g1 = np.where(test1, site_ac, 0.0)
g2 = np.where(test2 | on_gen2, site_ac, 0.0)


def coolant(run: np.ndarray) -> np.ndarray:
    """Jacket water: 42 degC on the heater at standby, rising towards 86 degC while running."""
    out = np.empty(s.n)
    cur = 42.0
    for k in range(s.n):
        cur += (0.42 if run[k] else 0.08) * ((86.0 if run[k] else 42.0) - cur)
        out[k] = cur
    return out


starter1 = 26.8 + clipn(s, 0.05, 0.1) - np.where(s.span(NOV25, 6.0, NOV27, 11.0), 5.3, 0.0)
for i, (gkw, starter) in enumerate(((g1, starter1), (g2, 26.9 + clipn(s, 0.05, 0.1))), start=1):
    run = gkw > 0
    e = equip(s, f"e{11 + i:02d}", f"Genset {i}", ["genset", "elec"])
    point(e, "Output kW", "Number", "kW", ["elec", "power", "sensor"], gkw)
    point(e, "Run", "Bool", None, ["run", "sensor"], run)
    point(e, "Coolant Temp", "Number", "°C", ["coolant", "water", "temp", "sensor"], coolant(run)
          + noise(s, 0.2))  # fmt: skip
    point(e, "Oil Pressure", "Number", "kPa", ["oil", "pressure", "sensor"], np.where(run, 385.0, 0.0)
          + np.where(run, noise(s, 4.0), 0.0))  # fmt: skip
    point(e, "Fuel Rate", "Number", "L/h", ["fuelOil", "flow", "sensor"], np.where(run, 12.0 + 0.23 * gkw, 0.0))
    point(e, "Starter Battery", "Number", "V", ["battery", "volt", "sensor"], starter)

# the day tanks (1,000 L; Day Tank 1 topped up to 95 %, Day Tank 2 to 90 % by the transfer pump after a run) and the
# bulk tank (30,000 L; a delivery of 8,000 L Fri 27 Nov 11:00)
burn = [np.where(gk > 0, 12.0 + 0.23 * gk, 0.0) * 0.25 for gk in (g1, g2)]  # litres a quarter-hour
levels = [np.empty(s.n), np.empty(s.n)]
bulk = np.empty(s.n)
cur = [95.0, 90.0]
bulk_cur = 21_400.0
delivery = s.at(NOV27, 11.0)
for k in range(s.n):
    for j, top in enumerate((95.0, 90.0)):
        cur[j] -= burn[j][k] / 10.0  # 1,000 L: 10 L a per cent
        if burn[j][k] == 0 and cur[j] < top:  # the transfer pump tops the day tank up from the bulk tank
            bulk_cur -= (top - cur[j]) * 10.0
            cur[j] = top
        levels[j][k] = cur[j]
    if k == delivery:
        bulk_cur += 8_000.0
    bulk[k] = bulk_cur
for j, lv in enumerate(levels, start=1):
    e = equip(s, f"e{13 + j:02d}", f"Day Tank {j}", ["tank", "fuelOil"])
    point(e, "Level", "Number", "%", ["fuelOil", "level", "sensor"], lv + clipn(s, 0.1, 0.2))
    point(e, "Volume", "Number", "L", ["fuelOil", "volume", "sensor"], lv * 10.0)
e = equip(s, "e16", "Bulk Fuel Tank", ["tank", "fuelOil"])
point(e, "Level", "Number", "%", ["fuelOil", "level", "sensor"], bulk / 300.0 + clipn(s, 0.05, 0.1))
point(e, "Volume", "Number", "L", ["fuelOil", "volume", "sensor"], bulk)

volts = np.where(util_off, 0.0, 380.0 + clipn(s, 2.0, 5.0))
e = equip(s, "e17", "Utility Incomer", ["elecMeter", "meter", "elec", "siteMeter"])
point(e, "Active Power", "Number", "kW", ["elec", "power", "sensor"], util)
point(e, "Energy", "Number", "kWh", ["elec", "energy", "import", "sensor"], register(s, util, 8_902_417.0))
point(e, "Voltage L-L", "Number", "V", ["elec", "volt", "sensor"], volts)
point(e, "Frequency", "Number", "Hz", ["elec", "freq", "sensor"], np.where(util_off, 0.0, 50.0 + clipn(s, 0.02, 0.05)))


# ----- Grafarholt Pumping Station (Reykjavik, SI) -----------------------------------------------------------------
s = gps
h, wd = s.hour, s.wday
NOV12, NOV25, NOV26, NOV30 = D(2026, 11, 12), D(2026, 11, 25), D(2026, 11, 26), D(2026, 11, 30)
DEC3 = D(2026, 12, 3)
# the weather: a slow cooling through November, a cold morning Thu 12 Nov, a cold snap Mon 30 Nov - Thu 3 Dec
cold = s.span(NOV30, 0.0, DEC3, 18.0)
t_out = (3.0 - 0.13 * s.day_i + daily(s, 2.0, 14.0) + per_day(s, 1.0) + noise(s, 0.3)
         - triangle(s, NOV12, 3.0, 8.0, 13.0, 8.0) - 7.0 * cold)  # fmt: skip
e = equip(s, "e20", "Weather Station", ["weatherStation"])
point(e, "Outside Air Temp", "Number", "°C", ["outside", "air", "temp", "sensor"], t_out)

# heat demand (MW): weather-driven, with the morning (08:00) and evening (19:00) shower / space-heating peaks
peaks = 2.2 * np.exp(-(((h - 8.0) / 1.3) ** 2)) + 1.6 * np.exp(-(((h - 19.0) / 1.6) ** 2))
heat = np.maximum(6.0, 9.0 + 1.05 * (12.0 - t_out) + peaks + noise(s, 0.25))
rtn = 36.0 + 0.08 * (heat - 20.0) + clipn(s, 0.2, 0.4)

# the plate heat exchangers: PHE-2 scales up (silica) through November: its cold-end approach (PRI-OUT-T - SEC-IN-T)
# rises 3.3 -> 6.6 K, then a slug of debris after Well Pump 3's start on Thu 26 Nov 16:00 takes it to ~8.6 K with the
# primary valve at 100 %: the secondary outlet falls below its 80 degC setpoint until the chemical clean, Mon 30 Nov
# 08:00-14:00 (isolated), after which it is clean (3.0 K). PHE-3's strainer blocks Fri 27 Nov 09:00-10:15 (DP spike)
slug = s.span(NOV26, 16.0, NOV30, 8.0)
cip = s.span(NOV30, 8.0, NOV30, 14.0)
clean = s.span(NOV30, 14.0, END, 0.0)
foul2 = 3.3 + 3.3 * ramp_between(s, START, 0.0, NOV26, 15.75)
foul2 = np.where(slug, 8.6, np.where(clean | cip, 3.0, foul2))
pri_in = 87.0 + clipn(s, 0.15, 0.3)
shares = (0.35, 0.33, 0.32)
sec_out_all = np.zeros(s.n)
pri_flow_all = np.zeros(s.n)
for i, share in enumerate(shares, start=1):
    ca = (3.0, None, 3.4)[i - 1]
    ca = foul2 if i == 2 else np.full(s.n, ca)
    ca = ca + clipn(s, 0.06, 0.12)
    sec_in = rtn + clipn(s, 0.05, 0.1)
    sec_out = 80.3 + clipn(s, 0.08, 0.15)
    pri_out = sec_in + ca
    q = heat * share
    if i == 2:
        sec_out = np.where(slug, 77.9 + clipn(s, 0.12, 0.25), sec_out)
        q = np.where(cip, 0.0, q)
        sec_out = np.where(cip, 80.0 - 32.0 * np.clip((h - 8.0) / 6.0, 0.0, 1.0) ** 0.5, sec_out)
        pri_out = np.where(cip, 45.0, pri_out)
    pri_f = np.where(q > 0, q * 1000.0 / (4.19 * (pri_in - pri_out)), 0.0)
    pri_flow_all += pri_f
    sec_out_all += sec_out * share
    dp = np.where(pri_f > 0, 40.0 * (pri_f / 35.0) ** 2 * (1.0 + (0.10 * (ca - 3.0) if i == 2 else 0.0)), 0.0)
    dp = dp * (1.0 + clipn(s, 0.015, 0.03))
    if i == 2:
        dp2_top = float(dp[s.between(D(2026, 11, 24), D(2026, 12, 1))].max())
    if i == 3:  # the strainer: its top 12 % over PHE-2's highest of 24-30 Nov
        top = round(dp2_top * 1.12, 1)
        shape = {9.0: 0.72, 9.25: 0.9, 9.5: 1.0, 9.75: 0.95, 10.0: 0.86, 10.25: 0.6}
        put(s, dp, D(2026, 11, 27), {hh: round(top * f, 1) for hh, f in shape.items()})
    vlv = np.clip(35.0 + 0.9 * pri_f, 0.0, 100.0)
    vlv = np.where(slug, 100.0, vlv) if i == 2 else vlv
    e = equip(s, f"e{i:02d}", f"PHE-{i}", ["heatExchanger", "hot", "water"])
    point(e, "PRI-IN-T", "Number", "°C", ["primary", "entering", "water", "temp", "sensor"], pri_in
          + clipn(s, 0.05, 0.1))  # fmt: skip
    point(e, "PRI-OUT-T", "Number", "°C", ["primary", "leaving", "water", "temp", "sensor"], pri_out)
    point(e, "SEC-IN-T", "Number", "°C", ["secondary", "entering", "water", "temp", "sensor"], sec_in)
    point(e, "SEC-OUT-T", "Number", "°C", ["secondary", "leaving", "water", "temp", "sensor"], sec_out)
    point(e, "SEC-OUT-T SP", "Number", "°C", ["secondary", "leaving", "water", "temp", "sp"], np.full(s.n, 80.0))
    point(e, "PRI-F", "Number", "L/s", ["primary", "water", "flow", "sensor"], pri_f)
    point(e, "DP", "Number", "kPa", ["primary", "water", "pressure", "delta", "sensor"], dp)
    point(e, "PRI VLV", "Number", "%", ["primary", "valve", "cmd"], np.where(q > 0, vlv, 0.0))

# the well pumps: Well Pump 1 (250 kW) and 2 (160 kW) share the primary flow; Well Pump 3 (160 kW) is lag, started
# Thu 26 Nov 16:00 for an hour's test and again for the cold snap, Mon 30 Nov 06:00 - Thu 3 Dec 18:00 (at most 47.2 Hz)
wp3_on = s.span(NOV26, 16.0, NOV26, 17.0) | s.span(NOV30, 6.0, DEC3, 18.0)
wp_kw_all = np.zeros(s.n)
f3 = np.where(wp3_on, 0.22, 0.0)
f1 = (1.0 - f3) * 0.6
f2 = (1.0 - f3) * 0.4
wp3_hz = np.where(wp3_on, np.minimum(43.0 + 3.0 * heat / 30.0, 46.9) + clipn(s, 0.08, 0.15), 0.0)
peak_i = np.flatnonzero(s.day(D(2026, 12, 1)) & wp3_on)
wp3_hz[peak_i[np.argmax(wp3_hz[peak_i])]] = 47.2
for i, (frac, hz0, kw0) in enumerate(((f1, 41.0, 205.0), (f2, 46.0, 128.0), (f3, 0.0, 0.0)), start=1):
    flow = pri_flow_all * frac
    if i < 3:
        hz = hz0 + 2.0 * (flow / (pri_flow_all.mean() * (0.6 if i == 1 else 0.4)) - 1.0) + clipn(s, 0.1, 0.2)
        kw = kw0 * (hz / hz0) ** 3 + noise(s, 1.0)
    else:
        hz = wp3_hz
        kw = np.where(wp3_on, 140.0 * (hz / 46.0) ** 3 + noise(s, 1.0), 0.0)
    wp_kw_all += kw
    e = equip(s, f"e{3 + i:02d}", f"Well Pump {i}", ["pump", "well", "hot", "water"])
    point(e, "VFD Hz", "Number", "Hz", ["vfd", "freq", "sensor"], hz)
    point(e, "Motor kW", "Number", "kW", ["elec", "power", "sensor"], kw)
    point(e, "Flow", "Number", "L/s", ["water", "flow", "sensor"], flow)
    point(e, "Discharge Pressure", "Number", "bar", ["water", "pressure", "sensor"], np.where(flow > 0, 11.5
          + clipn(s, 0.05, 0.1), 0.0))  # fmt: skip
    point(e, "Well Temp", "Number", "°C", ["entering", "water", "temp", "sensor"], 87.6 + clipn(s, 0.1, 0.2))

# the distribution header: supply = the PHEs' outlets mixed; flow from the heat and the delta-T; DP held at 2.2 bar.
# Wed 25 Nov 05:30 the bypass valve sticks at 42 % (night position) while its command winds down; freed 14:15. DP falls
# below its setpoint 05:30-08:45, until the pumps have sped up
sup = sec_out_all / sum(shares) + clipn(s, 0.05, 0.1)
flow_m3h = heat * 1000.0 / (1.163 * (sup - rtn))
night = s.hours(0.0, 5.5)
byp_cmd = np.where(night, 41.0 + clipn(s, 0.6, 1.2), 14.0 + 6.0 * np.clip((14.0 - heat) / 8.0, 0.0, 1.0)
                   + clipn(s, 1.0, 2.0))  # fmt: skip
byp_pos = byp_cmd - 0.6 + clipn(s, 0.12, 0.25)
stuck = s.span(NOV25, 5.5, NOV25, 14.25)
put(s, byp_cmd, NOV25, {5.5: 36.5, 5.75: 29.0, 6.0: 21.0, 6.25: 14.0, 6.5: 9.0, 6.75: 6.0, 7.0: 4.0, 7.25: 3.0})
byp_cmd = np.where(s.span(NOV25, 7.5, NOV25, 14.25), 2.0 + clipn(s, 0.4, 0.8), byp_cmd)
byp_pos = np.where(stuck, 42.0 + clipn(s, 0.05, 0.1), byp_pos)
put(s, byp_pos, NOV25, {5.25: 41.9})
byp_cmd[s.at(NOV25, 5.25)] = 42.6
dp_hdr = 2.24 + clipn(s, 0.015, 0.03)
put(s, dp_hdr, NOV25, {5.5: 2.05, 5.75: 1.96, 6.0: 1.92, 6.25: 1.95, 6.5: 1.99, 6.75: 2.03, 7.0: 2.06, 7.25: 2.09,
                       7.5: 2.11, 7.75: 2.13, 8.0: 2.15, 8.25: 2.17, 8.5: 2.18, 8.75: 2.19, 9.0: 2.23})  # fmt: skip
e = equip(s, "e07", "Distribution Header", ["header", "hot", "water", "districtHeating"])
point(e, "SUP-T", "Number", "°C", ["hot", "water", "leaving", "temp", "sensor"], sup)
point(e, "RTN-T", "Number", "°C", ["hot", "water", "entering", "temp", "sensor"], rtn)
point(e, "SUP-P", "Number", "bar", ["hot", "water", "leaving", "pressure", "sensor"], 6.1 + clipn(s, 0.03, 0.06))
point(e, "DP", "Number", "bar", ["hot", "water", "pressure", "delta", "sensor"], dp_hdr)
point(e, "DP SP", "Number", "bar", ["hot", "water", "pressure", "delta", "sp"], np.full(s.n, 2.2))
point(e, "Flow", "Number", "m³/h", ["hot", "water", "flow", "sensor"], flow_m3h)
point(e, "Heat MW", "Number", "MW", ["hot", "water", "thermal", "power", "sensor"], heat)
point(e, "Heat Energy", "Number", "MWh", ["hot", "water", "thermal", "energy", "sensor"], register(s, heat, 412_650.0))
point(e, "BYP VLV CMD", "Number", "%", ["bypass", "valve", "cmd"], byp_cmd)
point(e, "BYP VLV POS", "Number", "%", ["bypass", "valve", "position", "sensor"], byp_pos)

# the storage tanks: they fill at night and draw down through the morning and evening peaks
draw = peaks / 2.2
for i, (lvl0, amp) in enumerate(((9.0, 2.6), (8.2, 1.9)), start=1):
    lv = lvl0 - amp * lag(draw, 0.25 if i == 1 else 0.15) + clipn(s, 0.02, 0.04)
    e = equip(s, f"e{7 + i:02d}", f"Storage Tank {i}", ["tank", "hot", "water"])
    point(e, "Level", "Number", "m", ["hot", "water", "level", "sensor"], lv)
    point(e, "Temp", "Number", "°C", ["hot", "water", "temp", "sensor"], sup - 0.6 + clipn(s, 0.1, 0.2))
    point(e, "Volume", "Number", "m³", ["hot", "water", "volume", "sensor"], lv * 1_150.0)

# the distribution pumps: 1 and 2 duty, 3 lag (cold snap and the stuck-bypass morning), 4 standby. Constant-DP control,
# so each pump's specific energy is set by its head and efficiency: Dist Pump 2's wear ring wears through the month
lag_on = cold | s.span(NOV25, 5.5, NOV25, 14.25)
dist_kw_all = np.zeros(s.n)
for i in range(1, 5):
    if i < 3:
        share = np.where(lag_on, 1.0 / 3.0, 0.5)
    elif i == 3:
        share = np.where(lag_on, 1.0 / 3.0, 0.0)
    else:
        share = np.zeros(s.n)
    fl = flow_m3h * share * np.where(s.span(NOV25, 5.5, NOV25, 14.25), 1.08, 1.0) * (1.0 + clipn(s, 0.01, 0.02))
    se = {1: np.full(s.n, 0.150), 2: 0.128 + 0.0006 * s.day_i, 3: np.full(s.n, 0.142), 4: np.full(s.n, 0.14)}[i]
    se = se * (1.0 + clipn(s, 0.004, 0.008))
    kw = fl * se
    hz = np.where(fl > 0, 30.0 + 18.0 * fl / 420.0 + clipn(s, 0.15, 0.3), 0.0)
    dist_kw_all += kw
    e = equip(s, f"e{9 + i:02d}", f"Dist Pump {i}", ["pump", "hot", "water", "distribution"])
    point(e, "VFD Hz", "Number", "Hz", ["vfd", "freq", "sensor"], hz)
    point(e, "Motor kW", "Number", "kW", ["elec", "power", "sensor"], kw)
    point(e, "Flow", "Number", "m³/h", ["water", "flow", "sensor"], fl)
    point(e, "Run", "Bool", None, ["run", "sensor"], fl > 0)

station_kw = wp_kw_all + dist_kw_all + 38.0 + 4.0 * (t_out < 0) + noise(s, 1.5)
e = equip(s, "e14", "Station Incomer", ["elecMeter", "meter", "elec", "siteMeter"])
point(e, "Active Power", "Number", "kW", ["elec", "power", "sensor"], station_kw)
point(e, "Energy", "Number", "kWh", ["elec", "energy", "import", "sensor"], register(s, station_kw, 1_338_902.0))


if __name__ == "__main__":
    assert math.isfinite(float(np.sum(station_kw)))
    G.write(HERE, SITES)
