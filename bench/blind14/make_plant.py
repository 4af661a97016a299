"""Make the blind-14 plant: plant.json (Haystack 4 JSON grid) and plant.csv.gz (15-minute histories).

Three sites of new kinds, Mon 2026-08-24 00:00 to Mon 2026-09-14 00:00 site-local (3 weeks):
  Kwinana SWRO Plant      a seawater reverse-osmosis desalination plant near Perth: seawater intake pumps, high-
                          pressure pumps, pressure-exchanger energy recovery devices, four RO trains, the product-
                          water reservoir, the HV main meter (kWh register), the product water meter (m³ register)
                          (Australia/Perth, SI with bar and µS/cm; +08:00 all along)
  Pajaritos Metro Depot   a metro rail depot: tunnel ventilation fans, reversible traction substations (signed
                          active power: regenerative braking returns energy to the grid), a train wash, the depot
                          main meter (America/Santiago, SI; -04:00, clocks go FORWARD on Sun 6 Sep 2026 00:00 ->
                          01:00: a 23-hour day, then -03:00)
  Oakwood Poultry Plant   a poultry processing plant in Georgia: glycol chillers with leaving temp and its setpoint,
                          ammonia screw compressors, scalders, blast freezers, the wastewater DAF, the plant main
                          meter (America/New_York, US units: °F, psi, gpm, tons, BTU/h, lb/h; -04:00 all along)

Fixed seed; the same run gives byte-identical files (gzip mtime 0, no file name in the header).
Usage: python bench/blind14/make_plant.py
"""

from __future__ import annotations

import datetime as dt
import math
import sys
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))
from blindkit.plant import Plant, bump, centred, daily, keep_gap, put, register  # noqa: E402

SEED = 20260906
START = dt.date(2026, 8, 24)
END = dt.date(2026, 9, 14)
D = dt.date


G = Plant(SEED, START, END)
Site, noise, clipn, per_day, equip, point = G.site, G.noise, G.clipn, G.per_day, G.equip, G.point


ksw = Site("ksw", "Kwinana SWRO Plant", "Australia/Perth", "Perth", "Perth")
pmd = Site("pmd", "Pajaritos Metro Depot", "America/Santiago", "Santiago", "Santiago")
opp = Site("opp", "Oakwood Poultry Plant", "America/New_York", "New_York", "Oakwood")
SITES = [ksw, pmd, opp]


# ----- Kwinana SWRO Plant (Perth, SI) ------------------------------------------------------------------------------
s = ksw
ON = np.ones(s.n, bool)
SEP2, SEP3, SEP4, SEP7 = D(2026, 9, 2), D(2026, 9, 3), D(2026, 9, 4), D(2026, 9, 7)
# production target per train: 1,500 m3/h of permeate; from Mon 7 Sep the water utility asks for 1,400
target = np.where(np.array([d >= SEP7 for d in s.date]), 1400.0, 1500.0)
# Wed 2 Sep 03:15: Intake Pump 2 trips; the standby Intake Pump 3 is on line from 03:45; Intake Pump 2 is back
# Fri 4 Sep 12:00 (the WO closed) and Intake Pump 3 goes back to standby
trip = s.span(SEP2, 3.25, SEP4, 12.0)
short = s.mask(SEP2, 3.25, 3.75)  # the two samples the trains run short of feed
standby_on = s.span(SEP2, 3.75, SEP4, 12.0)
# RO Train 4: Thu 3 Sep 10:15-15:30 the cartridge filters foul, DP up to ~3 bar, the train is turned down;
# Fri 4 Sep 08:00-20:00 the CIP (train off line)
dp_event = s.mask(SEP3, 10.25, 15.5)
cip = s.mask(SEP4, 8.0, 20.0)

perm_sum = np.zeros(s.n)
feed_sum = np.zeros(s.n)
hp_kw_sum = np.zeros(s.n)
feed_p_mean = 62.0 + daily(s, 1.2, 15.0)
for i, (rec, cond0, dp0, eta, erd_eff) in enumerate(
    (
        (0.445, 235.0, 1.6, 0.84, 96.4),
        (0.430, 310.0, 1.9, 0.85, 96.8),
        (0.440, 250.0, 1.7, 0.83, 91.8),
        (0.450, 265.0, 1.8, 0.79, 96.1),
    ),  # fmt: skip
    start=1,
):
    tr = equip(s, f"e{i:02d}", f"RO Train {i}", ["roTrain", "water"])
    perm = target + noise(s, 8.0)
    perm = np.where(short, perm * 0.85, perm)
    r = rec + clipn(s, 0.002, 0.005)
    if i == 2:  # Tue 25 Aug: a recovery trial on RO Train 2 (45 % instead of 43 %)
        r = np.where(s.day(D(2026, 8, 25)), 0.450 + clipn(s, 0.002, 0.005), r)
    fp = feed_p_mean + noise(s, 0.25)
    dp = dp0 + clipn(s, 0.03, 0.08)
    if i == 4:
        dp = dp + 0.4 * np.clip((s.secs - s.secs[0]) / (s.secs[s.day(SEP3).argmax()] - s.secs[0]), 0.0, 1.0)
        dp = np.where(np.array([d > SEP4 for d in s.date]), dp0 - 0.1 + clipn(s, 0.03, 0.08), dp)  # after the CIP
        dp = np.where(dp_event, 2.95 + clipn(s, 0.04, 0.09), dp)
        perm = np.where(dp_event, 1350.0 + noise(s, 8.0), perm)
        fp = np.where(dp_event, 64.6 + noise(s, 0.2), fp)
        perm = np.where(cip, 0.0, perm)
        fp = np.where(cip, 3.0 + clipn(s, 0.1, 0.2), fp)
        dp = np.where(cip, 0.2 + clipn(s, 0.02, 0.05), dp)
    feed = np.where(perm > 0, perm / r, 0.0)
    cond = cond0 + daily(s, 6.0, 15.0) + clipn(s, 4.0, 10.0)
    keep = keep_gap(s, D(2026, 9, 9), 10.0) if i == 3 else None  # the analyser's logger drops out, Wed 9 Sep 10-14
    point(tr, "Feed Pressure", "Number", "bar", ["water", "entering", "pressure", "sensor"], fp)
    point(tr, "Differential Pressure", "Number", "bar", ["water", "pressure", "delta", "sensor"], dp)
    point(tr, "Feed Flow", "Number", "m³/h", ["water", "entering", "flow", "sensor"], feed)
    point(tr, "Permeate Flow", "Number", "m³/h", ["water", "leaving", "flow", "sensor"], perm)
    point(tr, "Permeate Conductivity", "Number", "µS/cm", ["water", "leaving", "conductivity", "sensor"], cond, keep)
    point(tr, "Feed Temp", "Number", "°C", ["water", "entering", "temp", "sensor"], 19.4 + daily(s, 0.4, 16.0)
          + noise(s, 0.05))  # fmt: skip
    perm_sum += perm
    feed_sum += feed
    # the HP pump of this train: its flow is the permeate flow (the PX carries the brine's share)
    hp = equip(s, f"e{4 + i:02d}", f"HP Pump {i}", ["pump", "water"])
    running = perm > 0
    hp_kw = np.where(running, perm * (fp - 1.5) / 36.0 / (eta + clipn(s, 0.002, 0.005)), 0.0)
    hp_kw_sum += hp_kw
    point(hp, "Discharge Pressure", "Number", "bar", ["water", "discharge", "pressure", "sensor"],
          np.where(running, fp + 0.3, 1.2 + clipn(s, 0.05, 0.1)))  # fmt: skip
    point(hp, "Motor Power", "Number", "kW", ["elec", "power", "sensor"], hp_kw)
    point(hp, "Speed", "Number", "%", ["speed", "sensor"], np.where(running, 88.0 + perm / 300.0 + noise(s, 0.4), 0.0))
    point(hp, "Bearing Temp", "Number", "°C", ["bearing", "temp", "sensor"],
          np.where(running, 58.0, 30.0) + noise(s, 0.4))  # fmt: skip
    point(hp, "Run Status", "Bool", None, ["run", "sensor"], running)
    # the energy recovery device (pressure exchanger bank) of this train: the efficiency is the controller's
    # computed value, held at its last figure while the train is off line
    erd = equip(s, f"e{8 + i:02d}", f"ERD {i}", ["energyRecovery", "pressureExchanger"])
    point(erd, "Efficiency", "Number", "%", ["efficiency", "sensor"], erd_eff + clipn(s, 0.15, 0.4))
    point(erd, "HP Out Flow", "Number", "m³/h", ["water", "leaving", "flow", "sensor"], np.maximum(feed - perm, 0.0))
    point(erd, "Brine In Pressure", "Number", "bar", ["water", "entering", "pressure", "sensor"],
          np.where(running, fp - dp - 0.4, 1.0) + noise(s, 0.05))  # fmt: skip

intake_kw_sum = np.zeros(s.n)
for i, run in ((1, ON), (2, ~trip), (3, standby_on)):
    ip = equip(s, f"e{12 + i:02d}", f"Intake Pump {i}", ["pump", "water"])
    flow = np.where(run, feed_sum / 2.0 * 1.04 + noise(s, 20.0), 0.0)
    kw = np.where(run, 760.0 + noise(s, 8.0), 0.0)
    intake_kw_sum += kw
    keep = keep_gap(s, D(2026, 8, 27), 14.0) if i == 1 else None  # a transmitter swap, Thu 27 Aug 14-18
    point(ip, "Flow", "Number", "m³/h", ["water", "flow", "sensor"], flow)
    point(ip, "Discharge Pressure", "Number", "kPa", ["water", "discharge", "pressure", "sensor"],
          np.where(run, 340.0 + noise(s, 4.0), 35.0 + noise(s, 1.0)), keep)  # fmt: skip
    point(ip, "Motor Power", "Number", "kW", ["elec", "power", "sensor"], kw)
    point(ip, "Run Status", "Bool", None, ["run", "sensor"], run)

# the product-water reservoir: a daily draw-down cycle; the trip and the CIP draw it lower; September's lower demand
res = equip(s, "e16", "Product Water Reservoir", ["tank", "water"])
vol = 51.0 + 5.0 * np.sin((s.hour - 4.0) / 24 * 2 * math.pi) + noise(s, 0.08)
vol = vol - 1.5 * bump(s, SEP2, 4.0, 16.0) - 3.2 * bump(s, SEP4, 9.0, 23.0)
point(res, "Volume", "Number", "ML", ["water", "volume", "sensor"], vol)
point(res, "Level", "Number", "m", ["water", "level", "sensor"], vol * 0.105)
point(res, "Outlet Flow", "Number", "m³/h", ["water", "leaving", "flow", "sensor"],
      5900.0 + daily(s, 900.0, 18.0) + noise(s, 30.0))  # fmt: skip

hv = equip(s, "e17", "HV Main Meter", ["elecMeter", "meter", "elec", "siteMeter"])
site_kw = hp_kw_sum + intake_kw_sum + 1750.0 + daily(s, 40.0, 14.0) + noise(s, 20.0)
site_kw = site_kw + 900.0 * s.day(D(2026, 9, 10))  # Thu 10 Sep: the transfer pumps refill the city's tank all day
point(hv, "Active Power", "Number", "kW", ["elec", "power", "sensor"], site_kw)
point(hv, "Energy", "Number", "kWh", ["elec", "energy", "import", "sensor"], register(s, site_kw, 52_418_906.0))
point(hv, "Power Factor", "Number", "pf", ["elec", "pf", "sensor"], 0.96 + noise(s, 0.003))

pw = equip(s, "e18", "Product Water Meter", ["waterMeter", "meter", "water"])
pflow = perm_sum * 0.998 + noise(s, 6.0)
point(pw, "Flow", "Number", "m³/h", ["water", "flow", "sensor"], pflow)
point(pw, "Volume Total", "Number", "m³", ["water", "volume", "sensor"], register(s, pflow, 186_240_113.0))

# ----- Pajaritos Metro Depot (Santiago, SI) ------------------------------------------------------------------------
s = pmd
SUN6 = D(2026, 9, 6)
THU3 = D(2026, 9, 3)
TUE8, WED9, THU10 = D(2026, 9, 8), D(2026, 9, 9), D(2026, 9, 10)
h = s.hour
wd = s.wday
traffic = np.select(
    [
        (wd < 5) & (h >= 6.0) & (h < 7.0),
        (wd < 5) & (h >= 7.0) & (h < 9.5),
        (wd < 5) & (h >= 9.5) & (h < 17.5),
        (wd < 5) & (h >= 17.5) & (h < 20.5),
        (wd < 5) & (h >= 20.5) & (h < 23.0),
        (wd == 5) & (h >= 6.5) & (h < 23.0),
        (wd == 6) & (h >= 8.0) & (h < 22.5),
    ],
    [0.5, 1.0, 0.6, 0.8, 0.45, 0.5, 0.4],
    0.0,
)
tss_import_sum = np.zeros(s.n)
for i, (b_imp, r_regen) in enumerate(((2200.0, 650.0), (1900.0, 1050.0), (2400.0, 500.0)), start=1):
    t = equip(s, f"e{i:02d}", f"TSS-{i}", ["elec", "substation", "traction"])
    imp = 60.0 + b_imp * traffic * (1.0 + clipn(s, 0.03, 0.07))
    reg = r_regen * traffic * (1.0 + clipn(s, 0.05, 0.12))
    if i == 2:  # Thu 3 Sep 18:15: TSS-2 isolated for a breaker test
        put(s, imp, THU3, {18.25: 0.0})
        put(s, reg, THU3, {18.25: 0.0})
    if i == 1:  # ... TSS-1 takes the downhill section's braking trains: its regen peak, the net power negative
        put(s, imp, THU3, {18.25: 2080.0})
        put(s, reg, THU3, {18.25: 2640.0})
    if i == 3:  # Wed 9 Sep 07:45-09:30: TSS-3 trips (rectifier protection); TSS-1 and TSS-2 carry its section
        out = s.mask(WED9, 7.75, 9.5)
        imp, reg = np.where(out, 0.0, imp), np.where(out, 0.0, reg)
    else:
        out = s.mask(WED9, 7.75, 9.5)
        imp = np.where(out, imp * 1.3, imp)
    tss_import_sum += imp
    net = imp - reg
    point(t, "Active Power", "Number", "kW", ["elec", "power", "sensor"], net)
    point(t, "Regen Power", "Number", "kW", ["elec", "power", "export", "sensor"], reg)
    point(t, "Import Energy", "Number", "kWh", ["elec", "energy", "import", "sensor"],
          register(s, imp, 8_120_455.0 + 1_000_000.0 * i))  # fmt: skip
    point(t, "Export Energy", "Number", "kWh", ["elec", "energy", "export", "sensor"],
          register(s, reg, 1_904_310.0 + 400_000.0 * i))  # fmt: skip
    point(t, "DC Bus Voltage", "Number", "V", ["elec", "dc", "volt", "sensor"],
          np.where(imp > 0, 790.0 - 0.03 * imp + 0.04 * reg, 0.0) + noise(s, 2.0))  # fmt: skip
    point(t, "Transformer Temp", "Number", "°C", ["elec", "temp", "sensor"], 42.0 + 22.0 * traffic + noise(s, 0.6))

day_hours = s.hours(7.0, 21.0)
tvf_kw_sum = np.zeros(s.n)
fan_stop = s.span(TUE8, 16.25, WED9, 10.0)  # TVF-03 stopped for its bearing, Tue 8 Sep 16:15 to Wed 9 Sep 10:00
for i, (rated, sp_day, sp_night, q100) in enumerate(
    ((250.0, 75.0, 50.0, 60.0), (160.0, 60.0, 40.0, 45.0), (250.0, 70.0, 45.0, 60.0), (200.0, 72.0, 48.0, 55.0)),
    start=1,
):
    f = equip(s, f"e{3 + i:02d}", f"TVF-{i:02d}", ["fan"])
    spd = np.where(day_hours, sp_day, sp_night) + noise(s, 0.8)
    vib = 2.4 + clipn(s, 0.25, 0.6)
    if i == 3:
        spd = np.where(fan_stop, 0.0, spd)
        # the bearing: vibration over 7.1 mm/s 10:30-16:00 (23 samples), the fan stopped at 16:15
        put(s, vib, TUE8, {9.5: 3.1, 9.75: 3.6, 10.0: 4.4, 10.25: 5.6, 10.5: 7.6, 10.75: 8.1, 11.0: 8.4, 11.25: 8.2,
                           11.5: 8.8, 11.75: 9.1, 12.0: 8.9, 12.25: 9.4, 12.5: 9.8, 12.75: 9.6, 13.0: 10.1, 13.25: 9.9,
                           13.5: 10.4, 13.75: 10.2, 14.0: 10.6, 14.25: 10.3, 14.5: 10.8, 14.75: 10.5, 15.0: 10.7,
                           15.25: 10.4, 15.5: 10.9, 15.75: 10.6, 16.0: 9.9})  # fmt: skip
        vib = np.where(fan_stop, 0.4 + clipn(s, 0.05, 0.1), vib)
    kw = np.where(spd > 0, rated * (spd / 100.0) ** 3 + 2.0, 0.0) + np.where(spd > 0, noise(s, 0.5), 0.0)
    tvf_kw_sum += kw
    keep = keep_gap(s, D(2026, 8, 28), 2.0) if i == 4 else None  # the vibration transmitter's loop, Fri 28 Aug 02-06
    point(f, "Airflow", "Number", "m³/s", ["air", "flow", "sensor"], q100 * spd / 100.0 + np.where(spd > 0,
          noise(s, 0.3), 0.0))  # fmt: skip
    point(f, "Motor Power", "Number", "kW", ["elec", "power", "sensor"], kw)
    point(f, "Speed", "Number", "%", ["speed", "sensor"], spd)
    point(f, "Vibration", "Number", "mm/s", ["vibration", "sensor"], vib, keep)
    point(f, "Winding Temp", "Number", "°C", ["motor", "temp", "sensor"], np.where(spd > 0, 55.0 + 0.3 * spd, 22.0)
          + noise(s, 0.5))  # fmt: skip
    point(f, "Run Status", "Bool", None, ["run", "sensor"], spd > 0)

# the train wash: Mon-Sat 09:00-15:00; the reclaim filter is blocked Tue 1 - Fri 4 Sep, so fresh water makes up
tw = equip(s, "e08", "Train Wash", ["trainWash", "water"])
wash = (wd < 6) & s.hours(9.0, 15.0)
fault = np.array([D(2026, 9, 1) <= d <= D(2026, 9, 4) for d in s.date])
fresh = np.where(wash, np.where(fault, 420.0, 180.0) + noise(s, 6.0), 0.0)
reclaim = np.where(wash, np.where(fault, 10.0, 250.0) + noise(s, 5.0), 0.0)
point(tw, "Fresh Water Flow", "Number", "L/min", ["water", "domestic", "flow", "sensor"], fresh)
point(tw, "Reclaimed Water Flow", "Number", "L/min", ["water", "flow", "sensor"], np.maximum(reclaim, 0.0))
point(tw, "Reclaim Tank Level", "Number", "%", ["water", "level", "sensor"],
      np.where(fault, 92.0, 64.0) + daily(s, 8.0, 8.0) + noise(s, 0.5))  # fmt: skip
point(tw, "Pump Pressure", "Number", "bar", ["water", "discharge", "pressure", "sensor"],
      np.where(wash, 12.0, 0.2) + noise(s, 0.1))  # fmt: skip
point(tw, "Run Status", "Bool", None, ["run", "sensor"], wash)

dm = equip(s, "e09", "Depot Main Meter", ["elecMeter", "meter", "elec", "siteMeter"])
workshop = np.where((wd < 5) & s.hours(8.0, 17.0), 280.0, np.where((wd == 5) & s.hours(8.0, 13.0), 120.0, 0.0))
workshop = workshop + 300.0 * s.mask(WED9, 8.0, 17.0)  # the wheel lathe reprofiles a train's wheelsets
workshop = workshop - 100.0 * s.mask(THU10, 8.0, 17.0)  # Thursday: the workshop's training day
depot_kw = 380.0 + workshop + tvf_kw_sum + 75.0 * wash + 0.02 * tss_import_sum + noise(s, 12.0)
point(dm, "Active Power", "Number", "kW", ["elec", "power", "sensor"], depot_kw)
point(dm, "Energy", "Number", "kWh", ["elec", "energy", "import", "sensor"], register(s, depot_kw, 3_775_102.0))
point(dm, "Power Factor", "Number", "pf", ["elec", "pf", "sensor"], 0.93 + noise(s, 0.004))

# ----- Oakwood Poultry Plant (New York, US units) ------------------------------------------------------------------
s = opp
LABOR = D(2026, 9, 7)
h = s.hour
wd = s.wday
holiday = s.day(LABOR)
prod = np.where((wd < 5) & (h >= 5.0) & (h < 22.0) & ~holiday, 1.0, np.where((wd == 5) & (h >= 5.0) & (h < 13.0),
                0.5, 0.0))  # fmt: skip
# Sunday: a maintenance shift 07:00-15:00 and the sanitation crew's pre-wash 18:00-24:00 (compressors for the cold
# rooms are always on); on Labor Day (Mon 7 Sep) nothing runs but the refrigeration
maint = (wd == 6) & s.hours(7.0, 15.0)
sunday_wash = (wd == 6) & s.hours(18.0, 24.0)

chiller_kw = np.zeros(s.n)
AUG24, AUG25, AUG26 = D(2026, 8, 24), D(2026, 8, 25), D(2026, 8, 26)
for i, (tons0, eff0) in enumerate(((130.0, 0.95), (260.0, 0.88), (310.0, 0.72)), start=1):
    c = equip(s, f"e{i:02d}", f"Glycol Chiller {i}", ["chiller", "glycol"])
    tons = tons0 * (0.55 + 0.45 * prod) + noise(s, 3.0)
    eff = eff0 + clipn(s, 0.006, 0.015)
    kw = tons * eff
    chiller_kw += kw
    lt_sp = np.full(s.n, 28.0)
    off = np.full(s.n, 0.3)
    if i == 2:  # a refrigerant leak: the leaving glycol drifts above its setpoint until recharged Wed 26 Aug 10:00
        off = np.where(s.day(AUG24), 1.0, off)
        off = np.where(s.day(AUG25), 1.6, off)
        off = np.where(s.mask(AUG26, 0.0, 10.0), 2.0, off)
        off = np.where(s.span(AUG26, 10.0, END, 0.0), 0.4, off)
        lt = lt_sp + off + centred(s, clipn(s, 0.12, 0.3), AUG25)
    else:
        lt = lt_sp + off + clipn(s, 0.12, 0.3)
    point(c, "Leaving Temp", "Number", "°F", ["glycol", "leaving", "temp", "sensor"], lt)
    point(c, "Leaving Temp Setpoint", "Number", "°F", ["glycol", "leaving", "temp", "sp"], lt_sp)
    point(c, "Load", "Number", "tons", ["cool", "power", "sensor"], tons)
    point(c, "Power", "Number", "kW", ["elec", "power", "sensor"], kw)
    point(c, "Efficiency", "Number", "kW/ton", ["efficiency", "sensor"], eff)

comp_kw = np.zeros(s.n)
for i, (sv0, rated) in enumerate(((85.0, 300.0), (72.0, 300.0), (48.0, 450.0), (64.0, 150.0)), start=1):
    c = equip(s, f"e{3 + i:02d}", f"NH3 Compressor {i}", ["compressor", "refrig", "ammonia"])
    sv = np.clip(sv0 + 6.0 * (prod - 0.5) + noise(s, 2.0), 0.0, 100.0)
    kw = rated * (0.25 + 0.75 * sv / 100.0) + noise(s, 2.0)
    comp_kw += kw
    point(c, "Suction Pressure", "Number", "psi", ["refrig", "suction", "pressure", "sensor"],
          22.0 + clipn(s, 0.6, 1.6))  # fmt: skip
    point(c, "Suction Temp", "Number", "°F", ["refrig", "suction", "temp", "sensor"], 10.0 + clipn(s, 0.6, 1.5))
    point(c, "Discharge Pressure", "Number", "psi", ["refrig", "discharge", "pressure", "sensor"],
          150.0 + daily(s, 8.0, 15.0) + noise(s, 2.0))  # fmt: skip
    point(c, "Slide Valve", "Number", "%", ["capacity", "sensor"], sv)
    point(c, "Motor Power", "Number", "kW", ["elec", "power", "sensor"], kw)
    point(c, "Oil Temp", "Number", "°F", ["oil", "temp", "sensor"], 122.0 + noise(s, 1.0))
    point(c, "Run Status", "Bool", None, ["run", "sensor"], np.ones(s.n, bool))

# scalders: Scalder 1 hard scald at 140 degF; Scalder 2's setpoint changes Wed 2 Sep 06:00 from 134 to 128 degF (a
# customer's air-chill spec); Thu 3 Sep 09:15-11:00 its steam valve sticks open, up to 131.6 degF
SEP2N, SEP3N = D(2026, 9, 2), D(2026, 9, 3)
for i in (1, 2):
    sc = equip(s, f"e{7 + i:02d}", f"Scalder {i}", ["scalder", "hot", "water"])
    if i == 1:
        sp = np.full(s.n, 140.0)
        wt = sp - 0.7 + clipn(s, 0.15, 0.4)
    else:
        after = s.span(SEP2N, 6.0, END, 0.0)
        sp = np.where(after, 128.0, 134.0)
        wt = sp - 0.7 + clipn(s, 0.15, 0.4)
        ramp = s.mask(SEP2N, 6.0, 7.75)  # the water cools to the new setpoint
        wt = np.where(ramp, 133.3 - (s.hour - 6.0) / 1.75 * 6.0, wt)
        put(s, wt, SEP3N, {9.0: 127.6, 9.25: 128.9, 9.5: 129.8, 9.75: 130.6, 10.0: 131.2, 10.25: 131.6, 10.5: 131.1,
                           10.75: 129.7, 11.0: 128.4, 11.25: 127.5})  # fmt: skip
    steam = np.where(prod > 0, 1800.0 * prod, 0.0) + 450.0 + noise(s, 25.0)
    point(sc, "Water Temp", "Number", "°F", ["hot", "water", "temp", "sensor"], wt)
    point(sc, "Water Temp Setpoint", "Number", "°F", ["hot", "water", "temp", "sp"], sp)
    point(sc, "Steam Flow", "Number", "lb/h", ["steam", "flow", "sensor"], steam)
    point(sc, "Heat Input", "Number", "BTU/h", ["steam", "heating", "power", "sensor"], steam * 970.0)
    point(sc, "Water Level", "Number", "in", ["water", "level", "sensor"], 30.0 + clipn(s, 0.3, 0.8))

# blast freezers: setpoints -20 / -25 / -15 degF; Blast Freezer 2's coil ices: a manual defrost Fri 4 Sep 14:00-15:15
# (max 6.8 degF at 14:30) and iced all of Wed 9 Sep (about -14.9); Blast Freezer 3's door left open at the restart
# after Labor Day, Tue 8 Sep 13:00-16:30 (above its setpoint 13:00-16:15, 14 samples)
SEP4N, SEP8N, SEP9N = D(2026, 9, 4), D(2026, 9, 8), D(2026, 9, 9)
for i, (sp0, off0) in enumerate(((-20.0, -1.5), (-25.0, -1.2), (-15.0, -1.8)), start=1):
    bf = equip(s, f"e{9 + i:02d}", f"Blast Freezer {i}", ["freezer", "refrig"])
    sp = np.full(s.n, sp0)
    at_ = sp + off0 + clipn(s, 0.2, 0.5)
    if i == 2:
        put(s, at_, SEP4N, {14.0: -12.5, 14.25: 1.9, 14.5: 6.8, 14.75: 4.2, 15.0: -3.3, 15.25: -14.1})
        at_ = np.where(s.day(SEP9N), -14.9 + clipn(s, 0.3, 0.7), at_)
    if i == 3:
        put(s, at_, SEP8N, {13.0: -11.2, 13.25: -8.4, 13.5: -6.3, 13.75: -4.9, 14.0: -4.1, 14.25: -3.8, 14.5: -4.0,
                            14.75: -4.6, 15.0: -5.9, 15.25: -7.2, 15.5: -8.8, 15.75: -10.6, 16.0: -12.3, 16.25: -13.9,
                            16.5: -15.8})  # fmt: skip
    point(bf, "Air Temp", "Number", "°F", ["air", "temp", "sensor"], at_)
    point(bf, "Air Temp Setpoint", "Number", "°F", ["air", "temp", "sp"], sp)
    point(bf, "Fan Power", "Number", "kW", ["fan", "elec", "power", "sensor"], 37.0 + noise(s, 0.8))
    point(bf, "Coil Temp", "Number", "°F", ["coil", "temp", "sensor"], sp - 12.0 + noise(s, 0.6))

# the wastewater DAF: Fri 11 Sep 13:30-17:00 the polymer pump fails, effluent TSS up to 286 mg/L at 15:15
daf = equip(s, "e13", "DAF Unit", ["daf", "wasteWater"])
SEP11N = D(2026, 9, 11)
sanit = s.hours(22.0, 24.0) | s.hours(0.0, 5.0)
inflow = np.where(prod > 0, 650.0 * prod + 100.0, np.where(sanit & (wd < 6) & ~holiday, 900.0, 150.0))
tss = 45.0 + clipn(s, 6.0, 14.0)
tss = tss + 200.0 * bump(s, SEP11N, 13.5, 17.0)
tss[s.at(SEP11N, 15.25)] = 286.0
point(daf, "Influent Flow", "Number", "gpm", ["wasteWater", "entering", "flow", "sensor"], inflow + noise(s, 10.0))
point(daf, "Effluent TSS", "Number", "mg/L", ["wasteWater", "leaving", "tss", "sensor"], tss)
point(daf, "pH", "Number", "pH", ["wasteWater", "ph", "sensor"], 6.8 + clipn(s, 0.12, 0.3),
      keep_gap(s, D(2026, 8, 30), 8.0))  # fmt: skip
point(daf, "Saturation Pressure", "Number", "psi", ["air", "pressure", "sensor"], 75.0 + noise(s, 1.2))

mm = equip(s, "e14", "Plant Main Meter", ["elecMeter", "meter", "elec", "siteMeter"])
demand = (
    650.0
    + chiller_kw
    + comp_kw
    + 1100.0 * prod
    + 260.0 * maint
    + 400.0 * sunday_wash
    + daily(s, 60.0, 15.0)
    + noise(s, 15.0)
)
point(mm, "Demand", "Number", "kW", ["elec", "power", "sensor"], demand)
point(mm, "Energy", "Number", "kWh", ["elec", "energy", "import", "sensor"], register(s, demand, 24_660_871.0))


if __name__ == "__main__":
    G.write(HERE, SITES)
