"""Make the blind-8 plant: plant.json (Haystack 4 JSON grid) and plant.csv.gz (15-minute histories).

Three sites of new kinds, Mon 2025-10-13 00:00 to Wed 2025-11-05 00:00 site-local (3 weeks and 2 days):
  Kivikoski Saha              a sawmill with lumber drying kilns and a bark-fired steam plant (Europe/Helsinki, SI,
                              Finnish names; +03:00, clocks go BACK on Sun 26 Oct 2025 04:00 -> 03:00: a 25-hour
                              day, then +02:00)
  Cerro Blanco Concentrator   a copper concentrator: grinding mills, flotation blowers, tailings pumps
                              (America/Santiago, SI, SCADA codes; -03:00 all along)
  ship_creek_mrf              a recycling materials recovery facility (America/Anchorage, US units, lower_case names;
                              -08:00, clocks go BACK on Sun 2 Nov 2025 02:00 -> 01:00: a 25-hour day, then -09:00)

Fixed seed; the same run gives byte-identical files (gzip mtime 0, no file name in the header).
Usage: python bench/blind8/make_plant.py
"""

from __future__ import annotations

import datetime as dt
import math
import sys
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))
from blindkit.plant import Plant, daily, keep_gap, register  # noqa: E402

SEED = 20251026
START = dt.date(2025, 10, 13)
END = dt.date(2025, 11, 5)
D = dt.date


G = Plant(SEED, START, END)
rng = G.rng
Site, noise, clipn, per_day, equip, point = G.site, G.noise, G.clipn, G.per_day, G.equip, G.point


def bump(site: Site, day: dt.date, h0: float, hp: float, h1: float, height: float) -> np.ndarray:
    out = np.zeros(site.n)
    for i, (d, h) in enumerate(zip(site.date, site.hour)):
        if d == day and h0 <= h <= h1:
            out[i] = height * ((h - h0) / (hp - h0) if h <= hp else (h1 - h) / (h1 - hp))
    return out


def week_of(site: Site) -> np.ndarray:
    """0: 13-19 Oct, 1: 20-26 Oct, 2: 27 Oct-2 Nov, 3: 3-4 Nov."""
    return site.day_i // 7


# ---------------------------------------------------------------------------------------------------------------
ks = Site("kvk", "Kivikoski Saha", "Europe/Helsinki", "Helsinki", "Kouvola")
cb = Site("cbc", "Cerro Blanco Concentrator", "America/Santiago", "Santiago", "Los Andes")
mr = Site("scm", "ship_creek_mrf", "America/Anchorage", "Anchorage", "Anchorage")
SITES = [ks, cb, mr]


# ----- Kivikoski Saha (Helsinki, SI, Finnish names) --------------------------------------------------------------
s = ks
wk = week_of(s)
oat = np.array([6.0, 3.0, -4.0, 0.5])[wk] + per_day(s, 1.2) + daily(s, 2.5, 14.0) + noise(s, 0.4)
# the saw line and the debarker: two shifts Mon-Fri, and one Saturday overtime shift (Sat 1 Nov)
saw = ((s.wday < 5) & s.hours(6.0, 22.0)) | s.mask(D(2025, 11, 1), 6.0, 14.0)
JAM = s.mask(D(2025, 10, 30), 9.25, 11.0)  # the debarker jams, Thu 30 Oct 09:15-11:00
charge = (s.wday == 6) & s.hours(0.0, 6.0)  # kiln charges changed every Sunday 00:00-06:00: the fans stop

kiln_kw = np.zeros(s.n)
for code, name, sp, fan in (
    ("e01", "Kuivaamo 1", 70.0, 55.0),
    ("e02", "Kuivaamo 2", 72.0, 70.0),
    ("e03", "Kuivaamo 3", 68.0, 45.0),
):
    k = equip(s, code, name, ["lumberKiln"])
    on = ~charge
    t = np.clip(sp + 1.2 + noise(s, 0.25), sp + 0.35, sp + 2.1)
    t = np.where(on, t, 32.0 + noise(s, 1.0))
    if name == "Kuivaamo 2":  # a stuck steam-coil valve, Mon 20 Oct 06:00-09:30: 14 samples under the setpoint
        day = D(2025, 10, 20)
        ev = s.mask(day, 6.0, 9.5)
        dip = sp - 0.9 - 7.5 * np.sin(math.pi * np.clip(s.hour - 6.0, 0.0, 3.5) / 3.75) + noise(s, 0.1)
        t = np.where(ev, np.minimum(dip, sp - 0.6), t)
    point(k, "Kuivalämpötila", "Number", "°C", ["air", "temp", "sensor"], t)
    sp_vals = np.where(on, sp, 20.0)  # the idle setpoint while the charge is changed
    point(k, "Kuivalämpötilan asetusarvo", "Number", "°C", ["air", "temp", "sp"], sp_vals)
    point(k, "Kosteus", "Number", "%RH", ["air", "humidity", "sensor"], 46.0 - 0.3 * (s.day_i % 7) + noise(s, 1.5))
    kw = np.where(on, fan + noise(s, 1.5), 0.0)
    kiln_kw += kw
    point(k, "Puhallinteho", "Number", "kW", ["fan", "elec", "power", "sensor"], kw)

steam = 14.0 + 0.35 * (8.0 - oat) + 1.5 * saw + noise(s, 0.3)  # t/h: the kilns, the log pond, the buildings
TRIP = s.mask(D(2025, 10, 28), 13.0, 15.5)  # K1's grate trips, Tue 28 Oct 13:00-15:30; K2 takes the load
k1_flow = np.where(TRIP, 3.0 + noise(s, 0.3), 0.6 * steam)
k2_flow = steam - k1_flow
trip_p = {13.0: 10.82, 13.25: 10.55, 13.5: 10.31, 13.75: 10.12, 14.0: 9.97, 14.25: 9.71, 14.5: 9.88, 14.75: 10.14,
          15.0: 10.43, 15.25: 10.74}  # fmt: skip
for code, name, flow, p0 in (("e04", "Höyrykattila K1", k1_flow, 11.45), ("e05", "Höyrykattila K2", k2_flow, 11.40)):
    b = equip(s, code, name, ["boiler", "steam", "biomass"])
    p = np.clip(p0 + noise(s, 0.06), p0 - 0.2, p0 + 0.2)
    if name.endswith("K1"):
        for hh, v in trip_p.items():
            p[s.at(D(2025, 10, 28), hh)] = v
    point(b, "Höyrynpaine", "Number", "bar", ["steam", "pressure", "sensor"], p)
    point(b, "Höyrynpaineen asetusarvo", "Number", "bar", ["steam", "pressure", "sp"], np.full(s.n, 11.0))
    point(b, "Höyryvirtaus", "Number", "t/h", ["steam", "flow", "sensor"], flow)
    point(b, "Polttoaineteho", "Number", "MW", ["biomass", "power", "sensor"], flow * 0.86 + noise(s, 0.05))
    point(b, "Savukaasun lämpötila", "Number", "°C", ["exhaust", "temp", "sensor"], 140.0 + 2.2 * flow + noise(s, 1.0))

hm = equip(s, "e06", "Höyrymittari", ["meter", "steam", "steamMeter"])
point(hm, "Höyryvirtaus", "Number", "t/h", ["steam", "flow", "sensor"], steam)
point(hm, "Höyryn kulutus", "Number", "t", ["steam", "mass", "sensor"], register(s, steam, 512_384.0))

ku = equip(s, "e07", "Kuorimo", ["debarker", "motor"])
ku_run = saw & ~JAM
ku_kw = np.where(ku_run, 320.0 + noise(s, 8.0), 15.0 + noise(s, 0.5))
point(ku, "Käyttöteho", "Number", "kW", ["elec", "power", "sensor"], ku_kw)
point(
    ku, "Roottorin nopeus", "Number", "rpm", ["motor", "speed", "sensor"], np.where(ku_run, 240.0 + noise(s, 2.0), 0.0)
)
point(ku, "Käynnissä", "Bool", None, ["run", "sensor"], ku_run)

sl = equip(s, "e08", "Sahalinja", ["sawLine"])
sl_kw = np.where(saw, 850.0 + noise(s, 20.0), 25.0 + noise(s, 1.0))
point(sl, "Käyttöteho", "Number", "kW", ["elec", "power", "sensor"], sl_kw)
oil = np.where(saw, 48.0 + noise(s, 0.5), 31.0 + noise(s, 0.5))
oil = oil + bump(s, D(2025, 11, 1), 8.0, 11.5, 14.0, 18.0)  # a fouled oil cooler: the one peak, Sat 1 Nov 11:30
oil[s.at(D(2025, 11, 1), 11.5)] += 0.8
point(sl, "Hydrauliöljyn lämpötila", "Number", "°C", ["hydraulic", "oil", "temp", "sensor"], oil)
point(sl, "Käynnissä", "Bool", None, ["run", "sensor"], saw)

pump_kw = np.zeros(s.n)
for code, name, kw0, sd in (("e09", "Lauhdepumppu P1", 18.5, 0.4), ("e10", "Syöttövesipumppu P2", 45.0, 2.0)):
    pp = equip(s, code, name, ["pump", "water"])
    kw = kw0 + noise(s, sd)
    pump_kw += kw
    point(pp, "Teho", "Number", "kW", ["elec", "power", "sensor"], kw)
    point(pp, "Käynnissä", "Bool", None, ["run", "sensor"], np.ones(s.n, bool))

pm = equip(s, "e11", "Päämittari", ["elecMeter", "meter", "elec", "siteMeter"])
site_kw = 380.0 + kiln_kw + ku_kw + sl_kw + pump_kw + 4.0 * steam + 120.0 * saw + noise(s, 10.0)
point(pm, "Pätöteho", "Number", "kW", ["elec", "power", "sensor"], site_kw)
point(pm, "Energia", "Number", "kWh", ["elec", "energy", "sensor"], register(s, site_kw, 21_607_455.0))
point(
    pm,
    "Tehokerroin",
    "Number",
    "pf",
    ["elec", "pf", "sensor"],
    0.93 + noise(s, 0.005),
    keep_gap(s, D(2025, 10, 16), 10.0),
)

# ----- Cerro Blanco Concentrator (Santiago, SI, SCADA codes) -----------------------------------------------------
s = cb
sunday = s.wday == 6
CRUSHER_STOP = s.mask(D(2025, 10, 28), 15.5, 17.0)  # the crusher stopped for a bag change, Tue 28 Oct

sag = equip(s, "e01", "SAG-01", ["grindingMill", "motor"])
feed = 2450.0 + per_day(s, 40.0) + noise(s, 30.0)
sag_kw = 11_800.0 + 1.5 * (feed - 2450.0) + noise(s, 60.0)
point(sag, "MTR KW", "Number", "kW", ["elec", "power", "sensor"], sag_kw)
point(sag, "FEED RATE", "Number", "t/h", ["ore", "flow", "sensor"], feed)
point(sag, "BRG TEMP", "Number", "°C", ["bearing", "temp", "sensor"], 58.0 + noise(s, 0.4))
vib = np.clip(2.3 + noise(s, 0.12), 1.8, 3.0)
spike = {3.0: 3.9, 3.25: 5.7, 3.5: 7.6, 3.75: 9.84, 4.0: 6.1, 4.25: 3.7}  # a loose liner bolt, Wed 22 Oct
for hh, v in spike.items():
    vib[s.at(D(2025, 10, 22), hh)] = v
point(sag, "VIB", "Number", "mm/s", ["vibration", "sensor"], vib)
point(sag, "RUN", "Bool", None, ["run", "sensor"], np.ones(s.n, bool))

mill_kw = sag_kw.copy()
for code, name, kw0, brg in (("e02", "BM-01", 7200.0, None), ("e03", "BM-02", 7600.0, "trend")):
    bm = equip(s, code, name, ["grindingMill", "motor"])
    run = ~sunday if name == "BM-01" else np.ones(s.n, bool)  # BM-01 stops on Sundays for the liner inspection
    kw = np.where(run, kw0 + noise(s, 50.0), 0.0)
    mill_kw += kw
    point(bm, "MTR KW", "Number", "kW", ["elec", "power", "sensor"], kw)
    # BM-02's pinion bearing runs hotter day by day (a lubrication problem)
    t = 60.0 + (0.45 * s.day_i if brg else 0.0) + noise(s, 0.4)
    t = np.where(run, t, 36.0 + noise(s, 0.5))
    point(bm, "BRG TEMP", "Number", "°C", ["bearing", "temp", "sensor"], t)
    point(bm, "RUN", "Bool", None, ["run", "sensor"], run)

blw_kw = np.zeros(s.n)
BLW_STOP = s.mask(D(2025, 10, 30), 8.0, 16.0)  # BLW-03 stopped for an inlet-guide-vane repair, Thu 30 Oct
for code, name, kw0, q0 in (
    ("e04", "BLW-01", 410.0, 21_500.0),
    ("e05", "BLW-02", 520.0, 27_800.0),
    ("e06", "BLW-03", 360.0, 18_900.0),
):
    bl = equip(s, code, name, ["fan", "blower"])
    run = np.ones(s.n, bool)
    if name == "BLW-03":
        run = ~BLW_STOP
    kw = np.where(run, kw0 + noise(s, 6.0), 0.0)
    blw_kw += kw
    point(bl, "MTR KW", "Number", "kW", ["elec", "power", "sensor"], kw)
    point(bl, "AIRFLOW", "Number", "m³/h", ["air", "flow", "sensor"], np.where(run, q0 + noise(s, 250.0), 0.0))
    point(bl, "RUN", "Bool", None, ["run", "sensor"], run)

TP_TRIP = s.mask(D(2025, 11, 1), 0.0, 12.0)  # TP-02 trips on a seal-water fault, Sat 1 Nov 00:00-12:00
sm = equip(s, "e07", "SMP-01", ["tank", "sump"])
lvl = 54.0 + 3.0 * np.sin(2 * math.pi * s.hour / 6.0) + noise(s, 0.7)
i0 = s.at(D(2025, 11, 1), 0.0)
for k in range(48):  # the spillage sump fills while TP-02 is down ...
    lvl[i0 + k] = 54.0 + 0.78 * (k + 1) + rng.normal(0.0, 0.05)
top = lvl[i0 + 47]
for k in range(48, 72):  # ... and is pumped down again
    lvl[i0 + k] = max(top - 1.6 * (k - 47), 54.0 + rng.normal(0.0, 0.7))
point(sm, "LEVEL", "Number", "%", ["water", "level", "sensor"], lvl)
point(sm, "LEVEL HI SP", "Number", "%", ["water", "level", "sp"], np.full(s.n, 80.0))

tp_kw = np.zeros(s.n)
for code, name, kw0, q0, p0 in (("e08", "TP-01", 640.0, 1850.0, 18.5), ("e09", "TP-02", 760.0, 2150.0, 19.2)):
    tp = equip(s, code, name, ["pump", "slurry"])
    run = np.ones(s.n, bool) if name == "TP-01" else ~TP_TRIP
    kw = np.where(run, kw0 + noise(s, 9.0), 0.0)
    tp_kw += kw
    point(tp, "MTR KW", "Number", "kW", ["elec", "power", "sensor"], kw)
    point(tp, "FLOW", "Number", "m³/h", ["slurry", "flow", "sensor"], np.where(run, q0 + noise(s, 20.0), 0.0))
    point(
        tp,
        "DISCH PRESS",
        "Number",
        "bar",
        ["slurry", "discharge", "pressure", "sensor"],
        np.where(run, p0 + noise(s, 0.2), 0.4),
    )
    point(tp, "RUN", "Bool", None, ["run", "sensor"], run)

hpu = equip(s, "e10", "HPU-01", ["lubeSystem"])
ot = np.clip(41.0 + daily(s, 0.6, 16.0) + noise(s, 0.25), 39.8, 42.6)
HOT = s.mask(D(2025, 10, 31), 13.0, 16.0)  # the lube-oil cooler's water valve sticks, Fri 31 Oct 13:00-16:00
hot = 44.0 + 3.2 * np.sin(math.pi * np.clip(s.hour - 12.75, 0.0, 3.5) / 3.5) + noise(s, 0.15)
ot = np.where(HOT, hot, ot)
point(hpu, "OIL TEMP", "Number", "°C", ["lube", "oil", "temp", "sensor"], ot)
point(hpu, "OIL TEMP SP", "Number", "°C", ["lube", "oil", "temp", "sp"], np.full(s.n, 43.5))
point(hpu, "PUMP KW", "Number", "kW", ["pump", "elec", "power", "sensor"], 37.0 + noise(s, 0.6))
point(hpu, "OIL PRESS", "Number", "bar", ["lube", "oil", "pressure", "sensor"], 3.4 + noise(s, 0.04))

dc = equip(s, "e11", "DC-01", ["dustCollector"])
dp = 1400.0 + noise(s, 18.0)
pm10 = np.clip(14.0 + noise(s, 3.0), 5.0, 26.0)
tear = {13.5: (1010.0, 38.0), 13.75: (905.0, 57.0), 14.0: (880.0, 66.0), 14.25: (862.0, 71.5), 14.5: (871.0, 68.0),
        14.75: (884.0, 63.0), 15.0: (896.0, 58.5), 15.25: (930.0, 54.0)}  # fmt: skip
for hh, (d_, p_) in tear.items():  # a torn filter bag, Tue 28 Oct from 13:30; spotted, the crusher stops at 15:30
    i = s.at(D(2025, 10, 28), hh)
    dp[i], pm10[i] = d_, p_
pm10 = np.where(CRUSHER_STOP, 6.0 + noise(s, 0.5), pm10)
point(dc, "DP", "Number", "Pa", ["air", "pressure", "delta", "sensor"], dp, keep_gap(s, D(2025, 10, 14), 20.0))
point(dc, "PM10", "Number", "µg/m³", ["exhaust", "air", "pm10", "sensor"], pm10)
point(dc, "FAN KW", "Number", "kW", ["fan", "elec", "power", "sensor"], 185.0 + noise(s, 3.0))

ss = equip(s, "e12", "SS-01", ["elecMeter", "meter", "elec", "siteMeter"])
# Sundays: the regrind and the filter plant stop for the weekly maintenance (3.2 MW less)
demand = (mill_kw + blw_kw + tp_kw + 9_400.0 - 3_200.0 * sunday + noise(s, 40.0)) / 1000.0
point(ss, "DEMAND", "Number", "MW", ["elec", "power", "sensor"], demand)
point(ss, "IMPORT MWH", "Number", "MWh", ["elec", "energy", "import", "sensor"], register(s, demand, 1_284_611.0))
point(ss, "PF", "Number", "pf", ["elec", "pf", "sensor"], 0.95 + noise(s, 0.004), keep_gap(s, D(2025, 10, 18), 3.0))

# ----- ship_creek_mrf (Anchorage, US units, lower_case) ---------------------------------------------------------
s = mr
wk = week_of(s)
oat_f = np.array([36.0, 32.0, 15.0, 26.0])[wk] + per_day(s, 2.0) + daily(s, 5.0, 15.0) + noise(s, 0.6)
oat_f = oat_f + bump(s, D(2025, 10, 30), 0.0, 6.0, 11.0, -9.0)  # a clear, still night: the coldest, Thu 30 Oct
line = ((s.wday < 5) & s.hours(6.0, 22.0)) | ((s.wday == 5) & s.hours(6.0, 18.0))  # the sort line
day_shift = (s.wday < 5) & s.hours(6.0, 14.0)

ahu_kw = np.zeros(s.n)
for code, name, kw0 in (("e01", "ahu_sort_room", 11.0), ("e02", "ahu_tipping_floor", 15.0)):
    a = equip(s, code, name, ["ahu"])
    sat = 86.0 - 0.25 * (oat_f - 30.0) + noise(s, 0.8)
    zt = np.clip(67.2 + noise(s, 0.35), 65.9, 68.5)
    if name == "ahu_tipping_floor":  # the heating coil's freeze-stat trips, Wed 29 Oct 16:00-21:45
        ev = s.mask(D(2025, 10, 29), 16.0, 21.75)
        sag_t = 64.6 - 6.0 * np.sin(math.pi * np.clip(s.hour - 16.0, 0.0, 5.75) / 5.9) + noise(s, 0.1)
        zt = np.where(ev, np.minimum(sag_t, 64.4), zt)
        sat = np.where(ev, 48.0 + noise(s, 0.8), sat)
    point(a, "supply_air_temp", "Number", "°F", ["discharge", "air", "temp", "sensor"], sat)
    point(a, "space_temp", "Number", "°F", ["zone", "air", "temp", "sensor"], zt)
    point(a, "space_temp_sp", "Number", "°F", ["zone", "air", "temp", "sp"], np.full(s.n, 65.0))
    kw = kw0 + noise(s, 0.3)
    ahu_kw += kw
    point(a, "fan_kw", "Number", "kW", ["fan", "elec", "power", "sensor"], kw)

fire1 = np.clip(30.0 + 1.4 * (45.0 - oat_f) + noise(s, 1.5), 10.0, 100.0)
fire2 = np.clip(0.45 * fire1 + noise(s, 1.0), 5.0, 100.0)
for code, name, fire, t0 in (("e03", "boiler_1", fire1, 182.6), ("e04", "boiler_2", fire2, 182.0)):
    b = equip(s, code, name, ["boiler", "hotWater"])
    point(
        b,
        "hw_supply_temp",
        "Number",
        "°F",
        ["leaving", "hot", "water", "temp", "sensor"],
        np.clip(t0 + noise(s, 0.5), t0 - 1.5, t0 + 1.5),
    )
    point(b, "hw_supply_temp_sp", "Number", "°F", ["leaving", "hot", "water", "temp", "sp"], np.full(s.n, 180.0))
    point(b, "firing_rate", "Number", "%", ["naturalGas", "heating", "sensor"], fire)
    point(b, "gas_flow", "Number", "cfh", ["naturalGas", "flow", "sensor"], fire * 32.0 + noise(s, 10.0))

ac_kw = np.zeros(s.n)
for code, name, on_kw, off_kw in (("e05", "air_comp_1", 58.0, 22.0), ("e06", "air_comp_2", 41.0, 0.0)):
    c = equip(s, code, name, ["compressor", "airCompressor"])
    psi = (
        np.clip(118.0 + noise(s, 1.0), 115.5, 120.5)
        if name == "air_comp_1"
        else np.clip(117.0 + noise(s, 1.0), 114.5, 119.5)
    )
    if name == "air_comp_1":  # a sticking unloader valve, Fri 31 Oct 10:00-11:00: the one peak at 10:30
        for hh, v in {10.0: 123.5, 10.25: 130.2, 10.5: 138.6, 10.75: 128.9, 11.0: 121.7}.items():
            psi[s.at(D(2025, 10, 31), hh)] = v
    point(c, "discharge_psi", "Number", "psi", ["air", "discharge", "pressure", "sensor"], psi)
    kw = np.where(line, on_kw + noise(s, 2.0), np.maximum(off_kw + noise(s, 1.5), 0.0) * (off_kw > 0))
    ac_kw += kw
    point(c, "kw", "Number", "kW", ["elec", "power", "sensor"], kw)
    point(c, "run", "Bool", None, ["run", "sensor"], line | (off_kw > 0))

bal_kw = np.zeros(s.n)
for code, name, on, kw0, start in (
    ("e07", "baler_1", line, 75.0, 2_210_480.0),
    ("e08", "baler_2", day_shift, 90.0, 1_377_902.0),
):
    bb = equip(s, code, name, ["baler"])
    kw = np.where(on, kw0 + noise(s, 4.0), 0.6 + noise(s, 0.05))
    bal_kw += kw
    point(bb, "kw", "Number", "kW", ["elec", "power", "sensor"], kw)
    point(bb, "kwh", "Number", "kWh", ["elec", "energy", "sensor"], register(s, kw, start))

tr = equip(s, "e09", "trommel_screen", ["trommel", "motor"])
tr_on = line & ~s.mask(D(2025, 10, 29), 10.0, 14.0)  # a screen-panel change, Wed 29 Oct 10:00-14:00
tr_kw = np.where(tr_on, 55.0 + noise(s, 2.0), 0.0)
point(tr, "motor_kw", "Number", "kW", ["elec", "power", "sensor"], tr_kw)
point(tr, "drum_rpm", "Number", "rpm", ["motor", "speed", "sensor"], np.where(tr_on, 12.0 + noise(s, 0.2), 0.0))
mt = np.where(tr_on, 150.0 + noise(s, 2.0), 45.0 + 0.5 * oat_f + noise(s, 1.0))
point(tr, "motor_temp", "Number", "°F", ["motor", "temp", "sensor"], mt, keep_gap(s, D(2025, 10, 17), 8.0))

pt = equip(s, "e10", "propane_tank_1", ["tank", "propane"])
vol = np.zeros(s.n)
cur = 1_460.0
deliveries = {(D(2025, 10, 21), 10.0): 720.0, (D(2025, 10, 28), 10.0): 760.0}
draw = np.where(line, 4.0, 1.5) * (1.0 + 0.25 * rng.random(s.n))  # forklifts on shift, unit heaters around the clock
draw = draw * np.where(oat_f < 20.0, 1.3, 1.0)
for i in range(s.n):
    if i > 0:
        cur -= draw[i] * (s.secs[i] - s.secs[i - 1]) / 3600
    add = deliveries.get((s.date[i], s.hour[i]))
    if add:
        cur += add
    vol[i] = cur
point(pt, "tank_volume", "Number", "gal", ["propane", "volume", "sensor"], vol)
point(pt, "tank_temp", "Number", "°F", ["propane", "temp", "sensor"], 0.6 * oat_f + 14.0 + noise(s, 0.3))

mm = equip(s, "e11", "main_meter", ["elecMeter", "meter", "elec", "siteMeter"])
lights = np.where(line, 70.0, 12.0)
mkw = 48.0 + ahu_kw + ac_kw + bal_kw + tr_kw + lights + 0.08 * (fire1 + fire2) + noise(s, 3.0)
point(mm, "kw", "Number", "kW", ["elec", "power", "sensor"], mkw)
point(mm, "kwh", "Number", "kWh", ["elec", "energy", "sensor"], register(s, mkw, 3_866_210.0))
point(mm, "pf", "Number", "pf", ["elec", "pf", "sensor"], 0.9 + noise(s, 0.008))

yw = equip(s, "e12", "yard_weather", ["weatherStation"])
point(yw, "outside_air_temp", "Number", "°F", ["outside", "air", "temp", "sensor"], oat_f)
point(
    yw,
    "wind_speed",
    "Number",
    "mph",
    ["wind", "speed", "sensor"],
    np.maximum(8.0 + noise(s, 3.0), 0.0),
    keep_gap(s, D(2025, 10, 15), 12.0),
)

# ---------------------------------------------------------------------------------------------------------------


if __name__ == "__main__":
    G.write(HERE, SITES, sort_equips=False)
