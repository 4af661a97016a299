"""Make the blind-9 plant: plant.json (Haystack 4 JSON grid) and plant.csv.gz (15-minute histories).

Three sites of new kinds, Mon 2026-03-02 00:00 to Wed 2026-03-25 00:00 site-local (3 weeks and 2 days):
  Cementera Tepeaca       a cement works: rotary kiln, clinker cooler, raw and cement mills, baghouse, air compressors
                          (America/Mexico_City, SI, Spanish names; -06:00 all along: Mexico dropped summer time in 2022)
  eastgate_ice_arena      a two-sheet ice arena: ammonia compressors, brine pumps, ice sheets, a desiccant dehumidifier
                          (America/Indiana/Indianapolis, US units, lower_case names; -05:00, clocks go FORWARD on
                          Sun 8 Mar 2026 02:00 -> 03:00: a 23-hour day, then -04:00)
  Tanjong Kait Terminal   a container terminal: quay cranes, reefer racks, shore power, a standby generator
                          (Asia/Singapore, SI, asset codes with point names in words; +08:00 all along)

Fixed seed; the same run gives byte-identical files (gzip mtime 0, no file name in the header).
Usage: python bench/blind9/make_plant.py
"""

from __future__ import annotations

import datetime as dt
import math
import sys
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))
from blindkit.plant import Plant, daily, keep_gap, lag, put, register  # noqa: E402

SEED = 20260308
START = dt.date(2026, 3, 2)
END = dt.date(2026, 3, 25)
D = dt.date


G = Plant(SEED, START, END)
rng = G.rng
Site, noise, clipn, per_day, equip, point = G.site, G.noise, G.clipn, G.per_day, G.equip, G.point


def week_of(site: Site) -> np.ndarray:
    """0: 2-8 Mar, 1: 9-15 Mar, 2: 16-22 Mar, 3: 23-24 Mar."""
    return site.day_i // 7


# ---------------------------------------------------------------------------------------------------------------
tp = Site("tpq", "Cementera Tepeaca", "America/Mexico_City", "Mexico_City", "Tepeaca")
eg = Site("ega", "eastgate_ice_arena", "America/Indiana/Indianapolis", "Indianapolis", "Indianapolis")
tk = Site("tkt", "Tanjong Kait Terminal", "Asia/Singapore", "Singapore", "Singapore")
SITES = [tp, eg, tk]


# ----- Cementera Tepeaca (Mexico_City, SI, Spanish names) ---------------------------------------------------------
s = tp
wk = week_of(s)
# CFE's peak tariff ("punta"), Mon-Fri 18:00-22:00: the raw and cement mills are shed
punta = (s.wday < 5) & s.hours(18.0, 22.0)
# the cement mills' weekly inspection, Sundays 14:00-22:00
insp = (s.wday == 6) & s.hours(14.0, 22.0)
RING = s.mask(D(2026, 3, 19), 3.0, 8.75)  # a coating ring falls in the kiln, Thu 19 Mar 03:00-08:30
IDF = s.mask(D(2026, 3, 22), 13.0, 18.25)  # the ID fan's inlet damper sticks, Sun 22 Mar 13:00-18:00

k = equip(s, "e01", "Horno 1", ["kiln"])
bz = np.clip(1452.0 + noise(s, 3.0), 1441.0, 1463.0)
ring_shape = 1450.0 - 62.0 * np.sin(math.pi * np.clip(s.hour - 3.0, 0.0, 5.5) / 5.5) + noise(s, 0.5)
bz = np.where(RING, ring_shape, bz)
point(k, "Temperatura Zona de Quemado", "Number", "°C", ["temp", "sensor"], bz)
point(k, "Consigna Zona de Quemado", "Number", "°C", ["temp", "sp"], np.full(s.n, 1450.0))
feed = np.where(RING, 172.0 + noise(s, 2.0), 214.0 + per_day(s, 2.0) + noise(s, 2.5))
exh = 336.0 + 0.12 * (feed - 214.0) + daily(s, 2.0, 15.0) + noise(s, 1.6)
exh = exh + np.where(IDF, 48.0 * np.sin(math.pi * np.clip(s.hour - 13.0, 0.0, 5.25) / 5.25), 0.0)
exh[s.at(D(2026, 3, 22), 15.75)] += 3.5  # the one peak of the damper fault, Sun 22 Mar 15:45
point(k, "Temperatura Gases de Salida", "Number", "°C", ["exhaust", "temp", "sensor"], exh)
point(
    k,
    "Velocidad",
    "Number",
    "rpm",
    ["motor", "speed", "sensor"],
    np.where(RING, 3.2 + noise(s, 0.02), 3.8 + noise(s, 0.03)),
)
point(k, "Potencia Motor", "Number", "kW", ["motor", "elec", "power", "sensor"], 420.0 + noise(s, 8.0))
point(k, "Alimentación de Harina", "Number", "t/h", ["flow", "sensor"], feed)

cl = equip(s, "e02", "Enfriador de Clínker", ["clinkerCooler"])
# worn grate plates from Mon 16 Mar: the clinker leaves the cooler hotter, until the repair on Mon 23 Mar
clk = np.array([103.0, 104.0, 113.0, 106.0])[wk] + per_day(s, 1.0) + daily(s, 1.5, 15.0) + noise(s, 1.2)
point(cl, "Temperatura de Clínker", "Number", "°C", ["temp", "sensor"], clk)
point(
    cl,
    "Presión Bajo Parrilla",
    "Number",
    "mbar",
    ["air", "pressure", "sensor"],
    58.0 + noise(s, 1.2),
    keep_gap(s, D(2026, 3, 6), 14.0),
)
cool_kw = 640.0 + noise(s, 10.0)
point(cl, "Potencia Ventiladores", "Number", "kW", ["fan", "elec", "power", "sensor"], cool_kw)

rm = equip(s, "e03", "Molino de Crudo", ["rawMill", "mill", "motor"])
rm_run = ~punta
rm_kw = np.where(rm_run, 2900.0 + noise(s, 40.0), 35.0 + noise(s, 1.0))
point(rm, "Potencia", "Number", "kW", ["elec", "power", "sensor"], rm_kw)
point(rm, "Producción", "Number", "t/h", ["flow", "sensor"], np.where(rm_run, 330.0 + noise(s, 6.0), 0.0))
vib = np.where(rm_run, np.clip(3.4 + noise(s, 0.15), 2.9, 3.9), 0.4 + noise(s, 0.03))
put(s, vib, D(2026, 3, 11), {2.0: 5.2, 2.25: 7.9, 2.5: 9.6, 2.75: 11.26, 3.0: 8.3, 3.25: 5.0})  # a loose roller bolt
point(rm, "Vibración", "Number", "mm/s", ["vibration", "sensor"], vib)
point(rm, "En Marcha", "Bool", None, ["run", "sensor"], rm_run)

LINER = s.span(D(2026, 3, 10), 6.0, D(2026, 3, 12), 6.0)  # Molino de Cemento 2's liner change
MC2_TRIP = s.mask(D(2026, 3, 17), 13.0, 17.0)  # Molino de Cemento 2 trips on a hot bearing, Tue 17 Mar
mill_kw = rm_kw.copy()
for code, name, kw0, tph, brg0 in (
    ("e04", "Molino de Cemento 1", 3300.0, 112.0, 61.0),
    ("e05", "Molino de Cemento 2", 4100.0, 141.0, 59.0),
):
    m = equip(s, code, name, ["cementMill", "mill", "motor"])
    run = ~punta & ~insp
    if name.endswith("2"):
        run = run & ~LINER & ~MC2_TRIP
    kw = np.where(run, kw0 + noise(s, 50.0), 40.0 + noise(s, 1.0))
    mill_kw += kw
    point(m, "Potencia", "Number", "kW", ["elec", "power", "sensor"], kw)
    point(m, "Producción", "Number", "t/h", ["flow", "sensor"], np.where(run, tph + noise(s, 2.5), 0.0))
    brg = lag(np.where(run, brg0, 38.0), 0.25) + noise(s, 0.4)
    if name.endswith("2"):
        pre = s.mask(D(2026, 3, 17), 10.0, 13.0)
        brg = np.where(pre, brg0 + 9.0 * (s.hour - 10.0) + noise(s, 0.4), brg)
    point(m, "Temperatura de Cojinete", "Number", "°C", ["bearing", "temp", "sensor"], brg)

bh = equip(s, "e06", "Filtro de Mangas", ["baghouse"])
dp = 1250.0 + noise(s, 20.0)
dust = np.clip(11.0 + noise(s, 2.5), 4.0, 19.0)
TEAR = {10.5: (1010.0, 22.4), 10.75: (930.0, 31.6), 11.0: (905.0, 38.2), 11.25: (890.0, 44.9), 11.5: (884.0, 49.3),
        11.75: (879.0, 51.1), 12.0: (876.0, 52.7), 12.25: (881.0, 50.2), 12.5: (889.0, 46.4), 12.75: (902.0, 41.8),
        13.0: (930.0, 36.5), 13.25: (975.0, 31.9), 13.5: (1040.0, 27.2), 13.75: (1110.0, 22.3),
        14.0: (1180.0, 18.1)}  # fmt: skip  # a torn bag, Wed 18 Mar, until the compartment is isolated
for hh, (d_, e_) in TEAR.items():
    i = s.at(D(2026, 3, 18), hh)
    dp[i], dust[i] = d_, e_
point(bh, "Presión Diferencial", "Number", "Pa", ["air", "pressure", "delta", "sensor"], dp)
point(bh, "Emisión de Polvo", "Number", "mg/m³", ["exhaust", "air", "dust", "sensor"], dust)

comp_kw = np.zeros(s.n)
for code, name, p0, kw0, sched in (
    ("e07", "Compresor 1", 7.2, 88.0, np.ones(s.n, bool)),
    ("e08", "Compresor 2", 6.8, 74.0, (s.wday < 6) & s.hours(6.0, 18.0)),
):
    c = equip(s, code, name, ["compressor"])
    point(
        c,
        "Presión de Descarga",
        "Number",
        "bar",
        ["air", "discharge", "pressure", "sensor"],
        np.clip(p0 + noise(s, 0.06), p0 - 0.2, p0 + 0.2),
    )
    kw = np.where(sched, kw0 + noise(s, 3.0), 0.0)
    comp_kw += kw
    point(c, "Potencia", "Number", "kW", ["elec", "power", "sensor"], kw)
    point(c, "En Marcha", "Bool", None, ["run", "sensor"], sched)

sl = equip(s, "e09", "Silo de Cemento", ["tank", "silo"])
lvl = 61.0 + 14.0 * np.sin(2 * math.pi * (s.hour - 8.0) / 24) + 4.0 * np.sin(2 * math.pi * s.secs / 86400 / 5.0)
lvl = lvl + noise(s, 0.3)
point(sl, "Nivel", "Number", "%", ["level", "sensor"], lvl)
point(sl, "Consigna Nivel Alto", "Number", "%", ["level", "sp"], np.full(s.n, 90.0))

se = equip(s, "e10", "Subestación Principal", ["elecMeter", "meter", "elec", "siteMeter"])
# kiln drive, cooler fans, ID fans (more while the damper sticks), mills, compressors, the rest of the works
idf_kw = 2400.0 + np.where(IDF, 180.0, 0.0)
demand = (420.0 + cool_kw + idf_kw + mill_kw + comp_kw + 2750.0 + noise(s, 60.0)) / 1000.0
point(se, "Demanda", "Number", "MW", ["elec", "power", "sensor"], demand)
point(
    se,
    "Energía Importada",
    "Number",
    "MWh",
    ["elec", "energy", "import", "sensor"],
    register(s, demand, 2_418_553.0),
)
point(
    se,
    "Factor de Potencia",
    "Number",
    "pf",
    ["elec", "pf", "sensor"],
    0.94 + noise(s, 0.004),
    keep_gap(s, D(2026, 3, 3), 9.0),
)

gm = equip(s, "e11", "Medidor de Gas", ["gasMeter", "meter", "naturalGas", "siteMeter"])
gas = 1900.0 + 6.0 * (feed - 214.0) + np.where(RING, 650.0, 0.0) + noise(s, 40.0)
point(gm, "Flujo de Gas", "Number", "m³/h", ["naturalGas", "flow", "sensor"], gas)
point(gm, "Volumen Acumulado", "Number", "m³", ["naturalGas", "volume", "sensor"], register(s, gas, 18_204_377.0))

# ----- eastgate_ice_arena (Indianapolis, US units, lower_case) ---------------------------------------------------
s = eg
wk = week_of(s)
oat = np.array([33.0, 46.0, 55.0, 50.0])[wk] + per_day(s, 3.0) + daily(s, 8.0, 15.0) + noise(s, 0.5)
cold = np.zeros(s.n)  # a clear, still night: the coldest, Thu 5 Mar
for i, (d, h) in enumerate(zip(s.date, s.hour)):
    if d == D(2026, 3, 5) and 0.0 <= h <= 11.0:
        cold[i] = -14.0 * (h / 6.5 if h <= 6.5 else (11.0 - h) / 4.5)
oat = oat + cold
oat[s.at(D(2026, 3, 5), 6.5)] -= 1.5

# the ice schedule: weekdays early figure skating, a noon public skate and evening hockey; weekends all day
sat, sun = s.wday == 5, s.wday == 6
wkday = s.wday < 5
load = np.full(s.n, 0.3)
load = np.where(wkday & s.hours(6.0, 8.0), 0.6, load)
load = np.where(wkday & s.hours(11.5, 13.5), 0.55, load)
load = np.where(wkday & s.hours(16.0, 23.0), 0.85, load)
load = np.where(sat & s.hours(7.0, 22.0), 1.0, load)
load = np.where(sun & s.hours(8.0, 21.0), 0.7, load)
TOURNEY = s.span(D(2026, 3, 14), 7.0, D(2026, 3, 14), 23.5)  # the spring tournament, Sat 14 Mar 07:00-23:30
load = np.where(TOURNEY, 1.0, load)
load = load + 0.05 * np.clip((oat - 40.0) / 20.0, -1.0, 1.0)
# resurfacing: a flood of hot water every two hours while the ice is in use, warming the surface for about an hour
open_ = s.hours(6.0, 23.0)
FLOODS_WEEKDAY = (8.0, 11.25, 13.5, 16.0, 18.0, 20.0, 22.0)
FLOODS_WEEKEND = (9.0, 11.0, 13.0, 15.0, 17.0, 19.0, 21.0)
flood = np.array([h in (FLOODS_WEEKDAY if w < 5 else FLOODS_WEEKEND) for h, w in zip(s.hour, s.wday)])
bumpv = np.zeros(s.n)
for i in np.nonzero(flood)[0]:
    for j, a in enumerate((1.6, 1.1, 0.6, 0.25)):
        if i + 1 + j < s.n:
            bumpv[i + 1 + j] = max(bumpv[i + 1 + j], a)

C1_OFF = s.mask(D(2026, 3, 17), 6.0, 20.0)  # ref_comp_1's oil change and coupling alignment, Tue 17 Mar
COND = s.mask(D(2026, 3, 12), 15.0, 17.25)  # ref_comp_2's condenser fan VFD fails, Thu 12 Mar 15:00
C2_TRIP = s.mask(D(2026, 3, 12), 17.25, 21.0)  # ... it trips on high head pressure at 17:15, reset at 21:00

c1_run = ~C1_OFF
c2_run = ((load >= 0.5) | C1_OFF | COND) & ~C2_TRIP
c3_run = (sat & s.hours(10.0, 20.0)) | TOURNEY | (C1_OFF & s.hours(16.0, 23.0)) | C2_TRIP
c1_kw = np.where(c1_run, 128.0 + 20.0 * load + noise(s, 4.0), 0.0)
c2_kw = np.where(c2_run, 105.0 + 18.0 * load + 12.0 * C1_OFF + noise(s, 3.5), 0.0)
c3_kw = np.where(c3_run, 80.0 + 22.0 * load + noise(s, 3.0), 0.0)
ref_kw = c1_kw + c2_kw + c3_kw
for code, name, run, kw in (
    ("e01", "ref_comp_1", c1_run, c1_kw),
    ("e02", "ref_comp_2", c2_run, c2_kw),
    ("e03", "ref_comp_3", c3_run, c3_kw),
):
    c = equip(s, code, name, ["compressor"])
    point(c, "kw", "Number", "kW", ["elec", "power", "sensor"], kw)
    suc = np.where(run, 20.0 + noise(s, 0.6), 31.0 + noise(s, 0.4))
    point(c, "suction_psi", "Number", "psi", ["refrig", "suction", "pressure", "sensor"], suc)
    dis = np.where(run, 148.0 + 0.35 * (oat - 45.0) + noise(s, 2.0), 118.0 + noise(s, 1.5))
    if name == "ref_comp_2":
        rise = 150.0 + 36.0 * (s.hour - 15.0) / 2.25 + noise(s, 0.8)
        dis = np.where(COND, rise, dis)
        dis[s.at(D(2026, 3, 12), 17.0)] = 187.3
    point(c, "discharge_psi", "Number", "psi", ["refrig", "discharge", "pressure", "sensor"], dis)
    point(c, "run", "Bool", None, ["run", "sensor"], run)

pump_kw = np.zeros(s.n)
for code, name, kw0, q0 in (("e04", "brine_pump_1", 22.0, 1150.0), ("e05", "brine_pump_2", 18.5, 940.0)):
    p = equip(s, code, name, ["pump"])
    kw = kw0 + noise(s, 0.4)
    pump_kw += kw
    point(p, "kw", "Number", "kW", ["elec", "power", "sensor"], kw)
    point(p, "brine_flow", "Number", "gal/min", ["flow", "sensor"], q0 + noise(s, 12.0))

for code, name, sp, base in (("e06", "rink_1", 22.0, 21.55), ("e07", "rink_2", 24.0, 23.35)):
    r = equip(s, code, name, ["iceRink"])
    if name == "rink_1":
        ice = base + bumpv + 0.15 * load + noise(s, 0.08)
    else:  # the figure-skating sheet: floods are lighter and the ice is kept under its setpoint
        ice = np.minimum(base + 0.35 * bumpv + noise(s, 0.08), sp - 0.15)
        warm = s.mask(D(2026, 3, 12), 17.25, 21.5)  # ref_comp_2 down: the sheet warms
        prof = sp + 0.3 + 1.9 * np.sin(math.pi * np.clip(s.hour - 17.3, 0.0, 3.6) / 3.6) + noise(s, 0.05)
        ice = np.where(warm & (s.hour >= 17.5) & (s.hour < 21.0), prof, ice)
    point(r, "ice_temp", "Number", "°F", ["ice", "temp", "sensor"], ice)
    point(r, "ice_temp_sp", "Number", "°F", ["ice", "temp", "sp"], np.full(s.n, sp))
    sup = 15.6 + 0.8 * (load - 0.5) + noise(s, 0.15)
    point(r, "brine_supply_temp", "Number", "°F", ["brine", "leaving", "temp", "sensor"], sup)
    point(
        r,
        "brine_return_temp",
        "Number",
        "°F",
        ["brine", "entering", "temp", "sensor"],
        sup + 2.6 * load + 0.6 + noise(s, 0.1),
    )

dh = equip(s, "e08", "dehumidifier_1", ["dehumidifier"])
rh = np.clip(42.0 + 3.0 * load + noise(s, 1.6), 36.0, 48.0)
WHEEL = s.mask(D(2026, 3, 16), 12.0, 18.0)  # the desiccant wheel's drive belt breaks, Mon 16 Mar 12:00-18:00
rh = np.where(WHEEL, 51.4 + 11.0 * np.sin(math.pi * np.clip(s.hour - 12.0, 0.0, 5.75) / 5.75) + noise(s, 0.2), rh)
point(dh, "rink_rh", "Number", "%RH", ["air", "humidity", "sensor"], rh)
point(dh, "rink_rh_sp", "Number", "%RH", ["air", "humidity", "sp"], np.full(s.n, 50.0))
dh_kw = np.where(WHEEL, 9.0, 34.0 + 6.0 * load) + noise(s, 0.8)
point(dh, "kw", "Number", "kW", ["elec", "power", "sensor"], dh_kw)

rt = equip(s, "e09", "rtu_lobby", ["rtu", "ahu"])
point(
    rt,
    "supply_air_temp",
    "Number",
    "°F",
    ["discharge", "air", "temp", "sensor"],
    88.0 - 0.4 * (oat - 40.0) + noise(s, 1.0),
    keep_gap(s, D(2026, 3, 4), 10.0),
)
point(rt, "space_temp", "Number", "°F", ["zone", "air", "temp", "sensor"], np.clip(69.0 + noise(s, 0.3), 68.3, 69.8))
point(rt, "space_temp_sp", "Number", "°F", ["zone", "air", "temp", "sp"], np.full(s.n, 68.0))
fan_kw = np.where(open_, 7.5, 3.0) + noise(s, 0.2)
point(rt, "fan_kw", "Number", "kW", ["fan", "elec", "power", "sensor"], fan_kw)
point(rt, "outside_air_temp", "Number", "°F", ["outside", "air", "temp", "sensor"], oat)

bo = equip(s, "e10", "boiler_1", ["boiler", "hotWater"])
LOCK = s.mask(D(2026, 3, 18), 4.0, 6.75)  # flame-failure lockout, Wed 18 Mar 04:00, reset at 06:45
hw = np.clip(140.0 + noise(s, 1.0), 137.5, 142.5)
fall = 140.0 - 45.0 * np.sin(math.pi / 2 * np.clip((s.hour - 4.0) / 2.5, 0.0, 1.0)) + noise(s, 0.3)
hw = np.where(LOCK, fall, hw)
rec = s.mask(D(2026, 3, 18), 6.75, 8.0)  # reset at 06:45: the loop warms up again
hw = np.where(rec, 95.0 + 45.0 * (s.hour - 6.5) / 1.5 + noise(s, 0.3), hw)
point(bo, "hw_supply_temp", "Number", "°F", ["leaving", "hot", "water", "temp", "sensor"], hw)
fire = np.where(LOCK, 0.0, np.clip(35.0 + 1.0 * (50.0 - oat) + noise(s, 1.5), 12.0, 100.0))
point(bo, "firing_rate", "Number", "%", ["naturalGas", "heating", "sensor"], fire)

mm = equip(s, "e11", "main_meter", ["elecMeter", "meter", "elec", "siteMeter"])
lights = np.where(open_, 62.0, 9.0)
mkw = 26.0 + ref_kw + pump_kw + dh_kw + fan_kw + lights + noise(s, 2.0)
mkw[s.at(D(2026, 3, 21), 18.75)] += 48.0  # the concession ovens and the rink-side heaters together, Sat 21 Mar
point(mm, "kw", "Number", "kW", ["elec", "power", "sensor"], mkw)
point(mm, "kwh", "Number", "kWh", ["elec", "energy", "sensor"], register(s, mkw, 1_872_406.0))
point(mm, "pf", "Number", "pf", ["elec", "pf", "sensor"], 0.88 + noise(s, 0.01))

ga = equip(s, "e12", "gas_meter", ["gasMeter", "meter", "naturalGas", "siteMeter"])
gflow = fire * 42.0 + 60.0 + noise(s, 8.0)
point(
    ga,
    "gas_flow",
    "Number",
    "cfh",
    ["naturalGas", "flow", "sensor"],
    gflow,
    keep_gap(s, D(2026, 3, 10), 1.0),
)
point(ga, "gas_volume", "Number", "ft³", ["naturalGas", "volume", "sensor"], register(s, gflow, 40_551_290.0))

# ----- Tanjong Kait Terminal (Singapore, SI, asset codes, point names in words) -----------------------------------
s = tk
wk = week_of(s)


def calls(site: Site, windows: list[tuple[dt.date, float, dt.date, float]]) -> np.ndarray:
    out = np.zeros(site.n, bool)
    for d0, h0, d1, h1 in windows:
        out |= site.span(d0, h0, d1, h1)
    return out


wind = np.clip(4.2 + daily(s, 2.0, 15.0) + per_day(s, 0.6) + noise(s, 0.8), 0.3, 9.5)
put(s, wind, D(2026, 3, 14), {15.0: 12.1, 15.25: 19.4, 15.5: 23.8, 15.75: 27.4, 16.0: 25.1, 16.25: 21.3, 16.5: 15.6,
                              16.75: 10.2})  # fmt: skip  # a Sumatra squall, Sat 14 Mar
put(s, wind, D(2026, 3, 19), {5.0: 9.5, 5.25: 16.8, 5.5: 21.6, 5.75: 24.9, 6.0: 23.3, 6.25: 20.8, 6.5: 17.2,
                              6.75: 11.0})  # fmt: skip  # another, Thu 19 Mar before dawn
windstop = wind > 20.0
windstop = windstop | np.concatenate([[False], windstop[:-1]])  # the cranes restart a quarter-hour after

# vessels alongside: berth 1 (QC-01, QC-02), berth 2 (QC-03)
b1 = calls(
    s,
    [
        (D(2026, 3, 2), 6.0, D(2026, 3, 3), 2.0),
        (D(2026, 3, 4), 14.0, D(2026, 3, 5), 12.0),
        (D(2026, 3, 7), 8.0, D(2026, 3, 8), 6.0),
        (D(2026, 3, 9), 20.0, D(2026, 3, 10), 18.0),
        (D(2026, 3, 12), 4.0, D(2026, 3, 13), 0.0),
        (D(2026, 3, 14), 9.0, D(2026, 3, 15), 10.0),
        (D(2026, 3, 16), 6.0, D(2026, 3, 16), 22.0),
        (D(2026, 3, 18), 2.0, D(2026, 3, 18), 20.0),
        (D(2026, 3, 19), 6.0, D(2026, 3, 19), 18.0),
        (D(2026, 3, 20), 12.0, D(2026, 3, 21), 12.0),
        (D(2026, 3, 22), 5.0, D(2026, 3, 23), 3.0),
        (D(2026, 3, 24), 7.0, D(2026, 3, 24), 23.0),
    ],
)
b2 = calls(
    s,
    [
        (D(2026, 3, 3), 0.0, D(2026, 3, 4), 4.0),
        (D(2026, 3, 6), 6.0, D(2026, 3, 7), 6.0),
        (D(2026, 3, 10), 8.0, D(2026, 3, 11), 12.0),
        (D(2026, 3, 13), 10.0, D(2026, 3, 14), 8.0),
        (D(2026, 3, 16), 10.0, D(2026, 3, 17), 8.0),
        (D(2026, 3, 18), 20.0, D(2026, 3, 20), 4.0),
        (D(2026, 3, 21), 14.0, D(2026, 3, 22), 18.0),
        (D(2026, 3, 23), 9.0, D(2026, 3, 24), 9.0),
    ],
)
qc_kw_total = np.zeros(s.n)
for code, name, work in (
    # QC-01 leaves its vessel early on Mon 16 Mar (15:00) and Thu 19 Mar (14:00) for the crane maintenance crew
    ("e01", "QC-01", b1 & ~s.mask(D(2026, 3, 16), 15.0, 22.0) & ~s.mask(D(2026, 3, 19), 14.0, 24.0)),
    ("e02", "QC-02", b1),
    ("e03", "QC-03", b2),
):
    q = equip(s, code, name, ["crane", "quayCrane"])
    run = work & ~windstop
    kw = np.where(run, 385.0 + per_day(s, 15.0) + noise(s, 55.0), 18.0 + noise(s, 1.5))
    qc_kw_total += kw
    point(q, "Drive Power", "Number", "kW", ["elec", "power", "sensor"], kw)
    mt = lag(np.where(run, 71.0, 34.0), 0.2) + noise(s, 0.6)
    point(q, "Hoist Motor Temp", "Number", "°C", ["motor", "temp", "sensor"], mt)
    point(q, "Running", "Bool", None, ["run", "sensor"], run)

air = 27.6 + daily(s, 3.0, 14.0) + per_day(s, 0.5) + noise(s, 0.25)
air = air - 4.0 * (wind > 15.0)
rf_kw_total = np.zeros(s.n)
# reefers plugged in: they follow the vessels; RF-B takes a pull-down of warm boxes on Fri 13 Mar
for code, name, base, steps, start in (
    ("e04", "RF-A", 92.0, [(D(2026, 3, 5), 12.0, 14.0), (D(2026, 3, 10), 18.0, -18.0), (D(2026, 3, 17), 8.0, 12.0)],
     3_661_045.0),
    ("e05", "RF-B", 71.0, [(D(2026, 3, 7), 6.0, 9.0), (D(2026, 3, 14), 8.0, -6.0), (D(2026, 3, 20), 4.0, 8.0)],
     2_904_517.0),
):  # fmt: skip
    rf = equip(s, code, name, ["reeferRack"])
    plugged = np.full(s.n, base)
    for d0, h0, delta in steps:
        plugged = plugged + delta * s.span(d0, h0, END, 0.0)
    kw = plugged * (3.6 + 0.09 * (air - 27.0)) + noise(s, 6.0)
    if name == "RF-B":
        pull = s.mask(D(2026, 3, 13), 9.0, 15.0)
        kw = kw + np.where(pull, 210.0 * np.sin(math.pi * np.clip(s.hour - 9.0, 0.0, 6.0) / 6.0), 0.0)
    rf_kw_total += kw
    point(rf, "Load", "Number", "kW", ["elec", "power", "sensor"], kw)
    point(rf, "Energy", "Number", "kWh", ["elec", "energy", "sensor"], register(s, kw, start))

sp = equip(s, "e06", "SP-01", ["shorePower"])
shore = calls(
    s,
    [
        (D(2026, 3, 4), 16.0, D(2026, 3, 5), 10.0),
        (D(2026, 3, 11), 9.0, D(2026, 3, 12), 6.0),
        (D(2026, 3, 16), 14.0, D(2026, 3, 17), 10.0),
        (D(2026, 3, 19), 8.0, D(2026, 3, 19), 20.0),
        (D(2026, 3, 22), 8.0, D(2026, 3, 22), 20.0),
    ],
)
ship_kw = np.where(shore, 2150.0 + 2.0 * wk * 100.0 + per_day(s, 60.0) + noise(s, 70.0), 3.0 + noise(s, 0.3))
point(sp, "Load", "Number", "kW", ["elec", "power", "sensor"], ship_kw)
point(sp, "Energy", "Number", "kWh", ["elec", "energy", "sensor"], register(s, ship_kw, 488_902.0))
point(sp, "Frequency", "Number", "Hz", ["elec", "freq", "sensor"], np.where(shore, 60.0 + noise(s, 0.02), 0.0))

gen = equip(s, "e09", "GEN-01", ["genset"])
test = (s.wday == 4) & s.hours(10.0, 10.75)  # the weekly load test, Fridays 10:00-10:45
gen_kw = np.where(test, 420.0 + noise(s, 12.0), 0.0)

ah = equip(s, "e08", "AHU-OB", ["ahu"])
zbase = np.array([23.2, 23.3, 23.7, 23.5])[wk]
zt = np.minimum(zbase + daily(s, 0.25, 15.0) + noise(s, 0.12), 23.85)
STUCK = s.mask(D(2026, 3, 17), 13.0, 16.25)  # the chilled-water valve sticks, Tue 17 Mar 13:00
zt = np.where(STUCK, 24.3 + 2.6 * np.sin(math.pi * np.clip(s.hour - 13.0, 0.0, 3.25) / 3.25) + noise(s, 0.05), zt)
point(ah, "Supply Air Temp", "Number", "°C", ["discharge", "air", "temp", "sensor"],
      np.where(STUCK, 19.5, 13.5) + noise(s, 0.3))  # fmt: skip
point(ah, "Zone Temp", "Number", "°C", ["zone", "air", "temp", "sensor"], zt)
point(ah, "Zone Temp SP", "Number", "°C", ["zone", "air", "temp", "sp"], np.full(s.n, 24.0))
ahu_kw = 22.0 + noise(s, 0.5)
point(ah, "Fan Power", "Number", "kW", ["fan", "elec", "power", "sensor"], ahu_kw)

fuel = 74.0 - 0.0009 * np.arange(s.n) - 0.8 * np.cumsum(test) / 3.0 + noise(s, 0.15)
point(gen, "Fuel Level", "Number", "%", ["diesel", "level", "sensor"], fuel)
point(gen, "Output Power", "Number", "kW", ["elec", "power", "sensor"], gen_kw)
point(gen, "Running", "Bool", None, ["run", "sensor"], test)

ws = equip(s, "e10", "WS-01", ["weatherStation"])
point(ws, "Wind Speed", "Number", "m/s", ["wind", "speed", "sensor"], wind)
point(ws, "Air Temp", "Number", "°C", ["outside", "air", "temp", "sensor"], air)
rain = np.where(rng.random(s.n) < 0.04, rng.gamma(1.5, 1.2, s.n), 0.0) + 9.0 * (wind > 20.0)
point(ws, "Rainfall", "Number", "mm", ["precipitation", "sensor"], rain, keep_gap(s, D(2026, 3, 4), 2.0))

wm = equip(s, "e11", "WM-01", ["waterMeter", "meter", "water"])
wflow = np.clip(6.0 + noise(s, 1.2) + 55.0 * (b2 & s.hours(8.0, 12.0)), 0.0, None)  # water for the berth-2 ships
point(wm, "Flow", "Number", "m³/h", ["water", "flow", "sensor"], wflow, keep_gap(s, D(2026, 3, 12), 20.0))
point(wm, "Total", "Number", "m³", ["water", "volume", "sensor"], register(s, wflow, 982_114.0))

su = equip(s, "e07", "SUB-01", ["elecMeter", "meter", "elec", "siteMeter"])
site_mw = (qc_kw_total + rf_kw_total + ship_kw + ahu_kw + 1650.0 + daily(s, 180.0, 14.0) + noise(s, 25.0)) / 1000.0
point(su, "Demand", "Number", "MW", ["elec", "power", "sensor"], site_mw)
point(su, "Import Energy", "Number", "MWh", ["elec", "energy", "import", "sensor"], register(s, site_mw, 306_774.0))
point(su, "Power Factor", "Number", "pf", ["elec", "pf", "sensor"], 0.955 + noise(s, 0.004))

# ---------------------------------------------------------------------------------------------------------------


if __name__ == "__main__":
    G.write(HERE, SITES)
