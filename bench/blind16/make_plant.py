"""Make the blind-16 plant: plant.json (Haystack 4 JSON grid) and plant.csv.gz (15-minute histories).

Three sites of new kinds, Mon 2026-10-19 00:00 to Mon 2026-11-09 00:00 site-local (3 weeks):
  Cactus Flats Water Reclamation Plant   a municipal wastewater treatment plant: influent pumps and the wet well,
                          aeration blowers, aeration basins (dissolved oxygen and its setpoint), secondary clarifiers
                          (terse instrument tags as point names), the anaerobic digester, the digester-gas CHP engine,
                          the plant main meter (signed net grid power: - when the CHP exports), the influent flow meter
                          (America/Phoenix, US units: MGD, gpm, scfm, psi, °F, ft, NTU; -07:00 all along, no DST)
  Thameside Airport Terminal             an airport terminal: baggage handling lines and the BHS sub-meter, jet
                          bridges' pre-conditioned air units, terminal AHUs, escalators, the central plant's boilers,
                          the gas meter, the terminal main meter, the weather station (Europe/London, SI; +01:00, the
                          clocks go BACK on Sun 25 Oct 2026 02:00 BST -> 01:00 GMT: a 25-hour day, then +00:00)
  Al Noor Resort & Casino                a hotel and casino resort's water systems: three pools (water temp and its
                          setpoint, heater power), domestic hot water calorifiers, cooling towers with make-up water
                          meters, chillers, the laundry and its steam boiler, the resort main meter, the domestic water
                          meter (Asia/Dubai, SI; +04:00 all along)

Fixed seed; the same run gives byte-identical files (gzip mtime 0, no file name in the header).
Usage: python bench/blind16/make_plant.py
"""

from __future__ import annotations

import datetime as dt
import math
import sys
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))
from blindkit.plant import Plant, centred, daily, keep_gap, put, register  # noqa: E402

SEED = 20261025
START = dt.date(2026, 10, 19)
END = dt.date(2026, 11, 9)
D = dt.date


G = Plant(SEED, START, END)
rng = G.rng
Site, noise, clipn, equip, point = G.site, G.noise, G.clipn, G.equip, G.point


cfw = Site("cfw", "Cactus Flats Water Reclamation Plant", "America/Phoenix", "Phoenix", "Phoenix")
tat = Site("tat", "Thameside Airport Terminal", "Europe/London", "London", "London")
anr = Site("anr", "Al Noor Resort & Casino", "Asia/Dubai", "Dubai", "Dubai")
SITES = [cfw, tat, anr]

# ----- Cactus Flats Water Reclamation Plant (Phoenix, US units) ----------------------------------------------------
s = cfw
h = s.hour
wd = s.wday
OCT28, NOV1, NOV2, NOV3, NOV4, NOV5 = D(2026, 10, 28), D(2026, 11, 1), D(2026, 11, 2), D(2026, 11, 3), D(2026, 11, 4), \
    D(2026, 11, 5)  # fmt: skip
# influent: a diurnal sewage curve (low before dawn, a late-morning peak, an evening shoulder), later on weekends;
# a storm Mon 2 Nov 14:00 to Tue 3 Nov 20:00 (the collection system's inflow and infiltration)
peak_h = np.where(wd >= 5, 12.0, 10.5)
infl = 31.0 + 6.0 * np.cos((h - peak_h) / 24 * 2 * math.pi) + 1.5 * np.cos((h - 20.0) / 12 * 2 * math.pi)
infl = infl * s.by_day(1.0 + rng.normal(0.0, 0.012, (END - START).days))
storm = s.span(NOV2, 14.0, NOV3, 20.0)
infl = infl + 16.0 * np.where(storm, np.sin(math.pi * np.clip((s.secs - s.secs[storm.argmax()]) / (30 * 3600), 0, 1)),
                              0.0)  # fmt: skip
infl = infl + noise(s, 0.35)
gpm = infl * 694.444

# three influent pumps: 1 and 2 share the flow; 3 joins above 36 MGD
p3_on = infl > 36.0
pump_kw_sum = np.zeros(s.n)
for i in (1, 2, 3):
    ip = equip(s, f"e{i:02d}", f"Influent Pump {i}", ["pump", "wasteWater"])
    if i == 3:
        share = np.where(p3_on, 1 / 3, 0.0)
    else:
        share = np.where(p3_on, 1 / 3, 0.5)
    q = gpm * share
    run = q > 0
    kw = np.where(run, 28.0 + q * 0.0075 + noise(s, 1.2), 0.0)
    pump_kw_sum += kw
    point(ip, "Flow", "Number", "gpm", ["wasteWater", "flow", "sensor"], q + np.where(run, noise(s, 40.0), 0.0))
    point(ip, "Motor Power", "Number", "kW", ["elec", "power", "sensor"], kw)
    point(ip, "Speed", "Number", "%", ["speed", "sensor"], np.where(run, 55.0 + q / 300.0 + noise(s, 0.5), 0.0))
    point(ip, "Run Status", "Bool", None, ["run", "sensor"], run)

ww = equip(s, "e04", "Wet Well", ["tank", "wasteWater"])
point(ww, "Level", "Number", "ft", ["wasteWater", "level", "sensor"], 9.0 + 0.08 * (infl - 31.0) + noise(s, 0.15))

# aeration blowers: 1-3 duty (shares 0.29 / 0.42 / 0.29), 4 standby; total air follows the load with a lag;
# Sun 1 Nov 03:00-05:00 the air is cut back 40 % for a diffuser inspection
air_total = 11500.0 + 420.0 * (np.roll(infl, 8) - 31.0) + noise(s, 60.0)
air_total = np.where(s.mask(NOV1, 3.0, 5.0), air_total * 0.6, air_total)
blower_kw_sum = np.zeros(s.n)
for i, share in enumerate((0.29, 0.42, 0.29, 0.0), start=1):
    b = equip(s, f"e{4 + i:02d}", f"Blower {i}", ["blower", "fan", "air"])
    run = np.full(s.n, share > 0)
    q = air_total * share
    dp = np.where(run, 6.8 + clipn(s, 0.08, 0.2), 0.2 + clipn(s, 0.03, 0.06))
    if i == 2:  # Wed 4 Nov 10:30-16:45: fouled diffusers in Basin 2's grid push Blower 2's discharge pressure up
        dp = np.where(s.mask(NOV4, 10.5, 16.75), 7.95 + clipn(s, 0.08, 0.2), dp)
    kw = np.where(run, q * dp / 245.0 + noise(s, 0.8), 0.0)
    blower_kw_sum += kw
    point(b, "Air Flow", "Number", "scfm", ["air", "flow", "sensor"], np.where(run, q + noise(s, 15.0), 0.0))
    point(b, "Motor Power", "Number", "kW", ["elec", "power", "sensor"], kw)
    point(b, "Discharge Pressure", "Number", "psi", ["air", "discharge", "pressure", "sensor"], dp)
    point(b, "Speed", "Number", "%", ["speed", "sensor"], np.where(run, 40.0 + q / 110.0 + noise(s, 0.4), 0.0))
    point(b, "Inlet Temp", "Number", "°F", ["air", "entering", "temp", "sensor"], 72.0 + daily(s, 12.0, 15.0)
          + noise(s, 0.4))  # fmt: skip
    point(b, "Run Status", "Bool", None, ["run", "sensor"], run)

# aeration basins: dissolved oxygen held 0.3 mg/L over its setpoint (2.0 mg/L); Basin 3's setpoint lowered to
# 1.5 mg/L Wed 28 Oct 08:00 (the energy-saving trial); Tue 3 Nov 13:00-17:30 an industrial slug: Basin 1's DO under
# its setpoint (18 samples)
for i in (1, 2, 3):
    ab = equip(s, f"e{8 + i:02d}", f"Aeration Basin {i}", ["tank", "wasteWater", "aerationBasin"])
    sp = np.full(s.n, 2.0)
    if i == 3:
        sp = np.where(s.span(OCT28, 8.0, END, 0.0), 1.5, sp)
    do = sp + 0.32 + clipn(s, 0.06, 0.15)
    if i == 3:  # the blowers' control follows the new setpoint over an hour and a half
        ramp = s.mask(OCT28, 8.0, 9.5)
        do = np.where(ramp, 2.3 - (h - 8.0) / 1.5 * 0.45 + clipn(s, 0.03, 0.05), do)
    if i == 1:
        put(s, do, NOV3, {12.75: 2.16, 13.0: 1.84, 13.25: 1.66, 13.5: 1.49, 13.75: 1.37, 14.0: 1.28, 14.25: 1.19,
                          14.5: 1.13, 14.75: 1.08, 15.0: 1.11, 15.25: 1.17, 15.5: 1.26, 15.75: 1.35, 16.0: 1.46,
                          16.25: 1.58, 16.5: 1.69, 16.75: 1.77, 17.0: 1.83, 17.25: 1.88, 17.5: 2.17})  # fmt: skip
    valve = np.clip(55.0 + 10.0 * (np.roll(infl, 8) - 31.0) / 6.0 + noise(s, 1.0), 5.0, 100.0)
    point(ab, "Dissolved Oxygen", "Number", "mg/L", ["wasteWater", "oxygen", "concentration", "sensor"], do)
    point(ab, "DO Setpoint", "Number", "mg/L", ["wasteWater", "oxygen", "concentration", "sp"], sp)
    point(ab, "Air Valve", "Number", "%", ["air", "valve", "cmd"], valve)
    point(ab, "MLSS", "Number", "mg/L", ["wasteWater", "solids", "concentration", "sensor"],
          2800.0 + 150.0 * i + noise(s, 25.0))  # fmt: skip
    point(ab, "Ammonia", "Number", "mg/L", ["wasteWater", "ammonia", "concentration", "sensor"],
          np.clip(0.6 + 0.05 * (infl - 31.0) + noise(s, 0.05), 0.05, None))  # fmt: skip

# secondary clarifiers: the integrator's instrument tags as point names; the tags say what they are
for i, (code, blanket, ntu) in enumerate(((30, 2.4, 1.7), (31, 2.9, 2.1)), start=1):
    cl = equip(s, f"e{11 + i:02d}", f"Clarifier {i}", ["clarifier", "tank", "wasteWater"])
    keep = keep_gap(s, NOV5, 14.0) if i == 1 else None  # the turbidimeter's wiper serviced, Thu 5 Nov 14-18
    point(cl, f"LIT-{code}1", "Number", "ft", ["wasteWater", "sludge", "level", "sensor"],
          blanket + 0.1 * (infl - 31.0) / 6.0 + clipn(s, 0.08, 0.2))  # fmt: skip
    point(cl, f"AIT-{code}2", "Number", "NTU", ["wasteWater", "leaving", "turbidity", "sensor"],
          ntu + 0.25 * (infl - 31.0) / 6.0 + clipn(s, 0.12, 0.3), keep)  # fmt: skip
    point(cl, f"FIT-{code}3", "Number", "gpm", ["wasteWater", "return", "sludge", "flow", "sensor"],
          5200.0 + 600.0 * i + noise(s, 40.0))  # fmt: skip

dg = equip(s, "e14", "Digester 1", ["tank", "digester"])
gas = 310.0 + daily(s, 12.0, 16.0) + noise(s, 5.0)
point(dg, "Sludge Temp", "Number", "°F", ["sludge", "temp", "sensor"], 97.5 + clipn(s, 0.25, 0.6))
point(dg, "Biogas Flow", "Number", "scfm", ["biogas", "flow", "sensor"], gas)
point(dg, "Gas Pressure", "Number", "inH₂O", ["biogas", "pressure", "sensor"], 8.2 + noise(s, 0.15))

# the digester-gas CHP engine: about 985 kW (955 kW until Sun 25 Oct, while a digester mixer was out and the gas was
# short), off for its 2,000-hour service Thu 29 Oct 08:00-16:00
chp = equip(s, "e15", "CHP Engine", ["chp", "genset", "elec"])
chp_on = ~s.mask(D(2026, 10, 29), 8.0, 16.0)
chp_base = np.where(np.array([d < D(2026, 10, 26) for d in s.date]), 955.0, 985.0)
chp_kw = np.where(chp_on, chp_base + clipn(s, 8.0, 20.0), 0.0)
point(chp, "Electrical Output", "Number", "kW", ["elec", "power", "generation", "sensor"], chp_kw)
point(chp, "Generated Energy", "Number", "kWh", ["elec", "energy", "generation", "sensor"],
      register(s, chp_kw, 14_286_530.0))  # fmt: skip
point(chp, "Gas Consumption", "Number", "scfm", ["biogas", "flow", "sensor"], np.where(chp_on, gas * 0.94, 0.0))
point(chp, "Jacket Water Temp", "Number", "°F", ["water", "temp", "sensor"],
      np.where(chp_on, 190.0, 120.0) + noise(s, 0.8))  # fmt: skip
point(chp, "Run Status", "Bool", None, ["run", "sensor"], chp_on)

# the plant main meter: net = load - CHP (+ import, - export); the biggest export Sun 1 Nov 04:15
load = 255.0 + pump_kw_sum + blower_kw_sum + 40.0 * (wd < 5) * s.hours(7.0, 16.0) + noise(s, 6.0)
put(s, load, NOV1, {4.25: 395.0})  # the UV banks switched to one channel during the inspection
net = load - chp_kw
mm = equip(s, "e16", "Plant Main Meter", ["elecMeter", "meter", "elec", "siteMeter"])
point(mm, "Net Power", "Number", "kW", ["elec", "power", "net", "sensor"], net)
point(mm, "Export Power", "Number", "kW", ["elec", "power", "export", "sensor"], np.maximum(-net, 0.0))
point(mm, "Import Energy", "Number", "kWh", ["elec", "energy", "import", "sensor"],
      register(s, np.maximum(net, 0.0), 6_402_117.0))  # fmt: skip
point(mm, "Export Energy", "Number", "kWh", ["elec", "energy", "export", "sensor"],
      register(s, np.maximum(-net, 0.0), 2_915_884.0))  # fmt: skip

fm = equip(s, "e17", "Influent Flow Meter", ["meter", "wasteWater", "flow"])
point(fm, "Flow", "Number", "MGD", ["wasteWater", "entering", "flow", "sensor"], infl)
point(fm, "Volume Total", "Number", "Mgal", ["wasteWater", "entering", "volume", "sensor"],
      register(s, infl, 51_240.0, per_hour=1 / 24))  # fmt: skip

# ----- Thameside Airport Terminal (London, SI) --------------------------------------------------------------------
s = tat
h = s.hour
wd = s.wday
OCT19, OCT20, OCT21, OCT24, OCT25, OCT28, OCT29 = (D(2026, 10, d) for d in (19, 20, 21, 24, 25, 28, 29))
NOV2 = D(2026, 11, 2)
ndays = (END - START).days
# outside air: mild in the week of 19 Oct, colder from 26 Oct
oat_day = np.array([13.5, 13.0, 14.2, 12.8, 13.6, 12.9, 12.1, 8.6, 7.9, 8.8, 7.4, 8.2, 7.7, 8.9, 9.1, 8.4, 7.2,
                    8.0, 8.8, 9.3, 8.1])  # fmt: skip
oat = s.by_day(oat_day) + daily(s, 3.0, 15.0) + noise(s, 0.3)
wx = equip(s, "e30", "Weather Station", ["weatherStation"])
point(wx, "Outside Air Temp", "Number", "°C", ["outside", "air", "temp", "sensor"], oat)

# flights: the first wave from 04:30, peaks 06:00-09:00 and 16:00-19:00, the last departures 22:30; half-term (26-30
# Oct) busier; Sat 24 Oct's delayed arrivals keep the terminal busy until 01:00 BST on Sunday
ops = np.select(
    [h < 4.5, h < 6.0, h < 9.0, h < 16.0, h < 19.0, h < 22.5],
    [0.0, 0.55, 1.0, 0.7, 0.95, 0.5],
    0.0,
)
day_f = np.ones(ndays)
day_f[(OCT19 - START).days] = 1.0
day_f[(OCT20 - START).days] = 1.18
day_f[(OCT21 - START).days] = 0.84
for k in range(7, 12):
    day_f[k] = 1.1
day_f[(OCT24 - START).days] = 0.93
day_f = day_f * (1.0 + rng.normal(0.0, 0.02, ndays))
bags = 2400.0 * ops * s.by_day(day_f)
late = s.span(OCT24, 22.5, OCT25, 1.0)
bags = np.where(late, 1500.0, bags)
bags = np.clip(bags * (1.0 + clipn(s, 0.04, 0.1)), 0.0, None)
line3_down = s.mask(OCT21, 6.0, 18.0)  # Line 3's belt and tracking photocells replaced
# Wed 28 Oct: a sorter fault recirculates the bags all day, the lines and the BHS draw 16 % more
sorter = np.where(s.day(OCT28), 1.16, 1.0)
bhs_lines = np.zeros(s.n)
for i, share in enumerate((0.4, 0.35, 0.25), start=1):
    ln = equip(s, f"e{i:02d}", f"BHS Line {i}", ["conveyor", "baggage"])
    sh = np.full(s.n, share)
    if i == 3:
        sh = np.where(line3_down, 0.0, sh)
    else:
        sh = np.where(line3_down, share + 0.125, sh)
    b_ = bags * sh
    run = (b_ > 0) | s.hours(4.0, 23.0) & ~(line3_down & (i == 3))
    kw = np.where(run, 22.0 + 0.16 * b_ + noise(s, 0.6), 0.0) * sorter
    bhs_lines += kw
    point(ln, "Motor Power", "Number", "kW", ["elec", "power", "sensor"], kw)
    point(ln, "Belt Speed", "Number", "m/s", ["speed", "sensor"], np.where(run, 2.0 + clipn(s, 0.01, 0.03), 0.0))
    point(ln, "Bags Handled", "Number", "bags/h", ["baggage", "flow", "sensor"], b_)
    point(ln, "Run Status", "Bool", None, ["run", "sensor"], run)
bhs_kw = (120.0 + noise(s, 2.0)) * sorter + bhs_lines
bm = equip(s, "e04", "BHS Sub-Meter", ["elecMeter", "meter", "elec"])
point(bm, "Active Power", "Number", "kW", ["elec", "power", "sensor"], bhs_kw)
point(bm, "Energy", "Number", "kWh", ["elec", "energy", "import", "sensor"], register(s, bhs_kw, 4_802_331.0))

# pre-conditioned air at four stands: heating mode, discharge air held at 26 °C while an aircraft is on stand
for k, (stand, f_) in enumerate(((11, 1.0), (12, 0.9), (14, 0.8), (15, 0.7))):
    pc = equip(s, f"e{5 + k:02d}", f"PCA Stand {stand}", ["pca", "hvac"])
    on_stand = (ops > 0) & (rng.random(s.n) < 0.55 + 0.3 * f_) & s.hours(5.0, 22.5)
    sp = np.full(s.n, 26.0)
    dat = np.where(on_stand, sp + clipn(s, 0.5, 1.3), oat + 0.6 + noise(s, 0.2))
    point(pc, "Discharge Air Temp", "Number", "°C", ["discharge", "air", "temp", "sensor"], dat)
    point(pc, "Discharge Air Temp Setpoint", "Number", "°C", ["discharge", "air", "temp", "sp"], sp)
    point(pc, "CMP-KW", "Number", "kW", ["elec", "power", "sensor"],
          np.where(on_stand, 30.0 + 1.6 * (26.0 - oat) + noise(s, 1.5), 0.4))  # fmt: skip
    point(pc, "SF-Q", "Number", "m³/s", ["discharge", "air", "flow", "sensor"],
          np.where(on_stand, 1.15 + noise(s, 0.03), 0.0))  # fmt: skip
    point(pc, "RUN", "Bool", None, ["run", "sensor"], on_stand)

# terminal AHUs (24 h); AHU-03's heating valve sticks open Thu 29 Oct 10:15-14:15 (supply air over its setpoint)
ahu_kw = np.zeros(s.n)
for i in (1, 2, 3, 4):
    ah = equip(s, f"e{8 + i:02d}", f"AHU-{i:02d}", ["ahu"])
    sp = np.full(s.n, 18.0)
    sat = sp - 0.4 + clipn(s, 0.1, 0.24)
    hv = np.clip(40.0 + 3.0 * (14.0 - oat) + noise(s, 1.5), 0.0, 100.0)
    if i == 3:
        stuck = s.mask(OCT29, 10.25, 14.25)
        sat = np.where(stuck, 22.6 + clipn(s, 0.6, 1.3), sat)
        hv = np.where(stuck, 100.0, hv)
    spd = np.clip(55.0 + 25.0 * ops + noise(s, 0.8), 30.0, 100.0)
    kw = 45.0 * (spd / 100.0) ** 3 + noise(s, 0.3)
    ahu_kw += kw
    co2 = 480.0 + 420.0 * ops + noise(s, 15.0)
    keep = keep_gap(s, OCT24, 10.0) if i == 2 else None  # the CO2 sensor recalibrated, Sat 24 Oct 10-14
    point(ah, "Supply Air Temp", "Number", "°C", ["discharge", "air", "temp", "sensor"], sat)
    point(ah, "Supply Air Temp Setpoint", "Number", "°C", ["discharge", "air", "temp", "sp"], sp)
    point(ah, "Supply Fan Power", "Number", "kW", ["discharge", "fan", "elec", "power", "sensor"], kw)
    point(ah, "Supply Fan Speed", "Number", "%", ["discharge", "fan", "speed", "sensor"], spd)
    point(ah, "Heating Valve", "Number", "%", ["heating", "valve", "cmd"], hv)
    point(ah, "Return Air CO2", "Number", "ppm", ["return", "air", "co2", "sensor"], co2, keep)

# escalators: idle creep, power with passengers; Escalator 3 serves Pier C (few flights)
esc_kw = np.zeros(s.n)
for i, use in enumerate((1.0, 0.85, 0.3, 0.7), start=1):
    es = equip(s, f"e{12 + i:02d}", f"Escalator {i}", ["escalator"])
    run = s.hours(4.0, 23.5) | late
    kw = np.where(run, 3.2 + 8.5 * use * np.maximum(ops, np.where(late, 0.6, 0.0)) * s.by_day(day_f)
                  * (1.0 + clipn(s, 0.08, 0.2)), 0.0)  # fmt: skip
    esc_kw += kw
    point(es, "Motor Power", "Number", "kW", ["elec", "power", "sensor"], kw)
    point(es, "Step Speed", "Number", "m/s", ["speed", "sensor"], np.where(run, 0.5, 0.0))
    point(es, "Run Status", "Bool", None, ["run", "sensor"], run)

# the central plant: three gas boilers; Boiler 2 condensing (the most efficient), Boiler 3 old and small
heat = np.clip(2600.0 - 120.0 * oat + 300.0 * ops + noise(s, 30.0), 600.0, None)  # kW of heat
gas_sum = np.zeros(s.n)
for i, (share, eff0) in enumerate(((0.46, 88.6), (0.42, 94.4), (0.12, 84.3)), start=1):
    bo = equip(s, f"e{16 + i:02d}", f"Boiler {i}", ["boiler", "hot", "water"])
    eff = eff0 + clipn(s, 0.25, 0.6)
    q = heat * share
    g = q / (eff / 100.0) / 10.55  # m³/h of natural gas
    gas_sum += g
    point(bo, "Flow Temp", "Number", "°C", ["hot", "water", "leaving", "temp", "sensor"], 78.0 + noise(s, 0.5))
    point(bo, "Return Temp", "Number", "°C", ["hot", "water", "entering", "temp", "sensor"],
          (58.0 if i == 2 else 64.0) + noise(s, 0.5))  # fmt: skip
    point(bo, "Gas Flow", "Number", "m³/h", ["naturalGas", "flow", "sensor"], g)
    point(bo, "Efficiency", "Number", "%", ["efficiency", "sensor"], eff)
    point(bo, "Firing Rate", "Number", "%", ["fire", "sensor"], np.clip(q / (2200.0 * share) * 100.0, 0.0, 100.0))
gmt = equip(s, "e20", "Gas Meter", ["gasMeter", "meter", "naturalGas"])
site_gas = gas_sum + 14.0 + 10.0 * ops + noise(s, 1.0)  # the kitchens
point(gmt, "Gas Flow", "Number", "m³/h", ["naturalGas", "flow", "sensor"], site_gas)
point(gmt, "Volume Total", "Number", "m³", ["naturalGas", "volume", "sensor"], register(s, site_gas, 3_118_460.0))

# the terminal main meter: the rest of the terminal follows the flights, so the BHS is 20.5 % of the terminal's load
# (Wed 28 Oct, the sorter fault: about 23 %); Mon 2 Nov 07:45 the demand peak (the de-icing rig's test in the morning
# wave)
bhs_normal = bhs_kw / sorter
term = bhs_normal / 0.205 * (1.0 + clipn(s, 0.004, 0.01)) + (bhs_kw - bhs_normal)
put(s, term, NOV2, {7.75: 3350.0})
tm = equip(s, "e21", "Terminal Main Meter", ["elecMeter", "meter", "elec", "siteMeter"])
point(tm, "Active Power", "Number", "kW", ["elec", "power", "sensor"], term)
point(tm, "Energy", "Number", "kWh", ["elec", "energy", "import", "sensor"], register(s, term, 61_904_127.0))

# ----- Al Noor Resort & Casino (Dubai, SI) ------------------------------------------------------------------------
s = anr
h = s.hour
wd = s.wday
OCT30, NOV1, NOV3, NOV4, NOV7 = D(2026, 10, 30), D(2026, 11, 1), D(2026, 11, 3), D(2026, 11, 4), D(2026, 11, 7)
ndays = (END - START).days
# the weather cools through the period (the cooling load falls); nights cool the pools
amb_day = 31.0 - 0.22 * np.arange(ndays) + rng.normal(0.0, 0.6, ndays)
amb = s.by_day(amb_day) + daily(s, 4.5, 14.5) + noise(s, 0.2)
night = s.hours(0.0, 7.0) | s.hours(20.0, 24.0)
for k, (name, sp0, kw_day, kw_night) in enumerate(
    (("Main Pool", 28.0, 35.0, 150.0), ("Family Pool", 30.0, 22.0, 80.0), ("Spa Pool", 36.0, 38.0, 52.0))
):
    pl = equip(s, f"e{1 + k:02d}", name, ["pool", "water"])
    sp = np.full(s.n, sp0)
    wt = sp + 0.33 + clipn(s, 0.07, 0.17)
    heat_f = s.by_day(1.0 + 0.09 * (29.0 - amb_day) + rng.normal(0.0, 0.05, ndays))
    hp = np.where(night, kw_night, kw_day) * heat_f * (1.0 + clipn(s, 0.06, 0.15))
    if name == "Family Pool":  # Fri 30 Oct 01:00-06:30: the heat pump trips on high pressure; the water cools
        trip = s.mask(OCT30, 1.0, 6.5)
        hp = np.where(trip, 0.0, hp)
        put(s, wt, OCT30, {1.0: 30.21, 1.25: 30.05, 1.5: 29.91, 1.75: 29.78, 2.0: 29.66, 2.25: 29.55, 2.5: 29.46,
                           2.75: 29.38, 3.0: 29.31, 3.25: 29.25, 3.5: 29.2, 3.75: 29.16, 4.0: 29.13, 4.25: 29.11,
                           4.5: 29.1, 4.75: 29.12, 5.0: 29.15, 5.25: 29.19, 5.5: 29.24, 5.75: 29.3, 6.0: 29.37,
                           6.25: 29.45, 6.5: 29.62, 6.75: 29.83, 7.0: 30.06, 7.25: 30.24})  # fmt: skip
    if name == "Spa Pool":  # Sun 1 Nov: the heat exchanger scaled, the spa 1.2 °C short of its setpoint all day
        wt = np.where(s.day(NOV1), sp - 1.2 + centred(s, clipn(s, 0.12, 0.3), NOV1), wt)
        hp = np.where(s.day(NOV1), 60.0 + noise(s, 1.0), hp)
    point(pl, "Water Temp", "Number", "°C", ["water", "temp", "sensor"], wt)
    point(pl, "Water Temp Setpoint", "Number", "°C", ["water", "temp", "sp"], sp)
    point(pl, "Heater Power", "Number", "kW", ["heating", "elec", "power", "sensor"], hp)
    point(pl, "Circulation Flow", "Number", "m³/h", ["water", "flow", "sensor"],
          (420.0, 160.0, 40.0)[k] + noise(s, 3.0))  # fmt: skip
    point(pl, "Free Chlorine", "Number", "mg/L", ["water", "chlorine", "sensor"], 1.6 + clipn(s, 0.1, 0.3))

# guest occupancy drives hot water, laundry and the domestic water meter
occ = s.by_day(0.78 + 0.08 * ((np.arange(ndays) + 2) % 7 >= 5) + rng.normal(0.0, 0.02, ndays))
dhw_use = occ * np.select([h < 5.0, h < 10.0, h < 17.0, h < 23.0], [0.15, 1.0, 0.5, 0.85], 0.3)
dhw_steam = np.zeros(s.n)
for i in (1, 2):
    cz = equip(s, f"e{3 + i:02d}", f"DHW Calorifier {i}", ["calorifier", "heatExchanger", "domestic", "hot", "water"])
    flow = 20.0 + 130.0 * dhw_use + noise(s, 3.0)
    st = 40.0 + 2.9 * flow + noise(s, 4.0)
    dhw_steam += st
    point(cz, "Outlet Temp", "Number", "°C", ["domestic", "hot", "water", "leaving", "temp", "sensor"],
          61.4 + clipn(s, 0.5, 1.2) - 0.8 * dhw_use)  # fmt: skip
    point(cz, "Outlet Temp Setpoint", "Number", "°C", ["domestic", "hot", "water", "leaving", "temp", "sp"],
          np.full(s.n, 61.0))  # fmt: skip
    point(cz, "DHW Flow", "Number", "L/min", ["domestic", "hot", "water", "flow", "sensor"], flow)
    point(cz, "Steam Flow", "Number", "kg/h", ["steam", "flow", "sensor"], st)

# cooling towers: Cooling Tower 2's drift eliminators are damaged (the thirstiest); Cooling Tower 1 has the biggest fan
cool = s.by_day(amb_day / 31.0) * (0.75 + 0.25 * (amb - amb.mean()) / 4.5 + 0.2) + noise(s, 0.01)
for i, (mu0, fan0) in enumerate(((9.4, 41.0), (14.6, 30.0), (7.6, 26.0)), start=1):
    ct = equip(s, f"e{5 + i:02d}", f"Cooling Tower {i}", ["coolingTower"])
    mu = mu0 * cool + noise(s, 0.25)
    keep = keep_gap(s, D(2026, 10, 26), 8.0) if i == 3 else None  # the conductivity probe cleaned, Mon 26 Oct 08-12
    point(ct, "Make-up Water Flow", "Number", "m³/h", ["water", "makeup", "flow", "sensor"], mu)
    point(ct, "Make-up Water Total", "Number", "m³", ["water", "makeup", "volume", "sensor"],
          register(s, mu, 184_000.0 + 21_345.0 * i))  # fmt: skip
    point(ct, "Fan Power", "Number", "kW", ["fan", "elec", "power", "sensor"], fan0 * cool + noise(s, 0.4))
    point(ct, "Leaving Water Temp", "Number", "°C", ["condenser", "water", "leaving", "temp", "sensor"],
          amb - 3.5 + noise(s, 0.2))  # fmt: skip
    point(ct, "Conductivity", "Number", "µS/cm", ["water", "conductivity", "sensor"], 1850.0 + noise(s, 30.0), keep)

ch_kw = np.zeros(s.n)
for i in (1, 2):
    ch = equip(s, f"e{8 + i:02d}", f"Chiller {i}", ["chiller"])
    load_pct = np.clip(70.0 * cool + noise(s, 1.0), 10.0, 100.0)
    kw = 9.2 * load_pct + noise(s, 5.0)
    ch_kw += kw
    point(ch, "Power", "Number", "kW", ["elec", "power", "sensor"], kw)
    point(ch, "Load", "Number", "%", ["capacity", "sensor"], load_pct)
    point(ch, "Chilled Water Leaving Temp", "Number", "°C", ["chilled", "water", "leaving", "temp", "sensor"],
          6.7 + clipn(s, 0.1, 0.25))  # fmt: skip
    point(ch, "Run Status", "Bool", None, ["run", "sensor"], np.ones(s.n, bool))

# the laundry: 06:00-22:00, about 1.9 kg of steam per kg of linen; Tue 3 Nov a steam trap failed open (2.35 kg/kg)
la = equip(s, "e11", "Laundry", ["laundry"])
lrun = s.hours(6.0, 22.0)
linen = np.where(lrun, (430.0 + 120.0 * np.sin((h - 6.0) / 16.0 * math.pi)) * occ / 0.8 * (1.0 + clipn(s, 0.05, 0.12)),
                 0.0)  # fmt: skip
k_steam = np.where(s.day(NOV3), 2.35, 1.9)
lsteam = linen * k_steam * (1.0 + clipn(s, 0.004, 0.01))
point(la, "Linen Throughput", "Number", "kg/h", ["laundry", "flow", "sensor"], linen)
point(la, "Steam Flow", "Number", "kg/h", ["steam", "flow", "sensor"], lsteam)
point(la, "Washer Power", "Number", "kW", ["elec", "power", "sensor"], np.where(lrun, 40.0 + 0.12 * linen, 3.0)
      + noise(s, 0.8))  # fmt: skip
point(la, "Water Flow", "Number", "m³/h", ["water", "flow", "sensor"], linen * 0.009 + noise(s, 0.05).clip(-0.1, 0.1)
      + 0.1)  # fmt: skip
sb = equip(s, "e12", "Laundry Steam Boiler", ["boiler", "steam"])
steam_out = lsteam + dhw_steam + 80.0 + noise(s, 5.0)
point(sb, "Steam Output", "Number", "kg/h", ["steam", "leaving", "flow", "sensor"], steam_out)
point(sb, "Gas Flow", "Number", "m³/h", ["naturalGas", "flow", "sensor"], steam_out * 0.078 + noise(s, 0.5))
point(sb, "Steam Pressure", "Number", "bar", ["steam", "pressure", "sensor"], 8.0 + clipn(s, 0.1, 0.3))

rm = equip(s, "e13", "Resort Main Meter", ["elecMeter", "meter", "elec", "siteMeter"])
res_kw = 2650.0 + ch_kw + 900.0 * occ * np.select([h < 6.0, h < 22.0], [0.6, 1.0], 0.8) + noise(s, 20.0)
put(s, res_kw, D(2026, 10, 29), {21.5: 5480.0})  # Thu 29 Oct: the ballroom's event lighting and rigging test
point(rm, "Active Power", "Number", "kW", ["elec", "power", "sensor"], res_kw)
point(rm, "Energy", "Number", "kWh", ["elec", "energy", "import", "sensor"], register(s, res_kw, 38_551_209.0))

dw = equip(s, "e14", "Domestic Water Meter", ["waterMeter", "meter", "water", "domestic"])
dflow = 45.0 + 110.0 * dhw_use + noise(s, 2.0)
point(dw, "Flow", "Number", "m³/h", ["domestic", "water", "flow", "sensor"], dflow)
point(dw, "Volume Total", "Number", "m³", ["domestic", "water", "volume", "sensor"], register(s, dflow, 2_407_315.0))


if __name__ == "__main__":
    G.write(HERE, SITES)
