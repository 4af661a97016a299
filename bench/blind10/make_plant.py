"""Make the blind-10 plant: plant.json (Haystack 4 JSON grid) and plant.csv.gz (15-minute histories).

Three sites of new kinds, Mon 2026-10-12 00:00 to Wed 2026-11-04 00:00 site-local (3 weeks and 2 days):
  Vetreria Valdelsa        a glass-container works: melting furnace, forehearths, IS machines, annealing lehrs, air
                           compressors, flue-gas filter (Europe/Rome, SI, Italian names; +02:00, clocks go BACK on
                           Sun 25 Oct 2026 03:00 -> 02:00: a 25-hour day, then +01:00)
  Caguas Sterile Products  a sterile fill-finish pharmaceutical plant: cleanrooms, AHUs, WFI still and loop,
                           autoclaves, a lyophilizer, steam boiler (America/Puerto_Rico, US units, English words;
                           -04:00 all along: Puerto Rico keeps Atlantic Standard Time when the US mainland falls back
                           on Sun 1 Nov 2026)
  Springs AD Plant         an anaerobic-digestion biogas plant: digesters, CHP gas engines, gasholder, flare, H2S
                           scrubber, sludge pumps (Africa/Johannesburg, SI, UPPER_SNAKE codes for assets and points;
                           +02:00 all along)

Fixed seed; the same run gives byte-identical files (gzip mtime 0, no file name in the header).
Usage: python bench/blind10/make_plant.py
"""

from __future__ import annotations

import datetime as dt
import math
import sys
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))
from blindkit.plant import Plant, bump, daily, keep_gap, lag, put, register  # noqa: E402

SEED = 20261025
START = dt.date(2026, 10, 12)
END = dt.date(2026, 11, 4)
D = dt.date


G = Plant(SEED, START, END)
rng = G.rng
Site, noise, clipn, per_day, equip, point = G.site, G.noise, G.clipn, G.per_day, G.equip, G.point


def week_of(site: Site) -> np.ndarray:
    """0: 12-18 Oct, 1: 19-25 Oct, 2: 26 Oct - 1 Nov, 3: 2-3 Nov."""
    return site.day_i // 7


# ---------------------------------------------------------------------------------------------------------------
vv = Site("vvd", "Vetreria Valdelsa", "Europe/Rome", "Rome", "Colle di Val d'Elsa")
cg = Site("csp", "Caguas Sterile Products", "America/Puerto_Rico", "Puerto_Rico", "Caguas")
sp = Site("spr", "Springs AD Plant", "Africa/Johannesburg", "Johannesburg", "Springs")
SITES = [vv, cg, sp]


# ----- Vetreria Valdelsa (Rome, SI, Italian names) ----------------------------------------------------------------
s = vv
wk = week_of(s)
D25 = D(2026, 10, 25)  # the clock change: 03:00 CEST -> 02:00 CET, 100 samples
weekday = s.wday < 5
# the batch house and cullet crusher: Mon 00:00 - Fri 22:00 on three shifts, Saturday morning shift
batch = (weekday & ~((s.wday == 4) & s.hours(22.0, 24.0))) | ((s.wday == 5) & s.hours(6.0, 14.0))

f = equip(s, "e01", "Forno Fusorio 1", ["furnace", "glassFurnace"])
crown = np.clip(1562.0 + noise(s, 2.0), 1556.0, 1568.0)
# a reversal valve sticks, Wed 28 Oct 10:00-14:00: the crown overheats (over 1580 degC 11:00-13:00, 9 samples)
CROWN = s.mask(D(2026, 10, 28), 10.0, 14.0)
crown = np.where(CROWN, 1562.0 + 30.0 * bump(s, D(2026, 10, 28), 10.0, 14.0) + noise(s, 0.3), crown)
point(f, "Temperatura Volta", "Number", "°C", ["temp", "sensor"], crown)
point(f, "Setpoint Volta", "Number", "°C", ["temp", "sp"], np.full(s.n, 1565.0))
fumi = 471.0 + daily(s, 4.0, 15.0) + per_day(s, 1.5) + noise(s, 1.8)
# a regenerator checker pack collapses, Sun 25 Oct 15:00-18:00 (after the clock change): flue gas peaks 16:30 CET
fumi = fumi + 40.0 * bump(s, D25, 15.0, 18.0)
fumi[s.at(D25, 16.5)] += 8.0
point(f, "Temperatura Fumi", "Number", "°C", ["exhaust", "temp", "sensor"], fumi)
point(f, "Portata Gas", "Number", "m³/h", ["naturalGas", "flow", "sensor"],
      1480.0 + per_day(s, 10.0) + noise(s, 12.0))  # fmt: skip
# the electric boost is cut for a transformer inspection on the night of the clock change, Sun 25 Oct 00:00-06:00
BOOST_OFF = s.mask(D25, 0.0, 6.0)
boost = np.where(BOOST_OFF, 20.0 + noise(s, 1.0), 1800.0 + noise(s, 15.0))
point(f, "Potenza Boosting", "Number", "kW", ["elec", "power", "sensor"], boost)
point(f, "Pressione Forno", "Number", "Pa", ["air", "pressure", "sensor"], 8.0 + noise(s, 0.4),
      keep_gap(s, D(2026, 10, 15), 10.0))  # fmt: skip
point(f, "Livello Vetro", "Number", "mm", ["level", "sensor"], 1200.0 + noise(s, 0.3))

fh_kw = np.zeros(s.n)
for code, name, base, spv in (("e02", "Canale 1", 1148.0, 1145.0), ("e03", "Canale 2", 1163.0, 1160.0)):
    c = equip(s, code, name, ["forehearth"])
    gob = np.clip(base + noise(s, 0.6), base - 1.6, base + 1.6)
    kw = 85.0 + noise(s, 2.0)
    if name == "Canale 2":
        # a heating element zone fails, Mon 26 Oct: the gob runs cold 13:00-15:45 (12 samples under 1160 degC)
        put(s, gob, D(2026, 10, 26), {12.75: 1161.3, 13.0: 1158.9, 13.25: 1157.2, 13.5: 1155.8, 13.75: 1154.9,
                                      14.0: 1154.3, 14.25: 1154.1, 14.5: 1154.6, 14.75: 1155.4, 15.0: 1156.5,
                                      15.25: 1157.6, 15.5: 1158.6, 15.75: 1159.4, 16.0: 1160.9})  # fmt: skip
        kw = np.where(s.mask(D(2026, 10, 26), 12.75, 15.75), 42.0 + noise(s, 1.0), kw)
    fh_kw += kw
    point(c, "Temperatura Goccia", "Number", "°C", ["temp", "sensor"], gob)
    point(c, "Setpoint Goccia", "Number", "°C", ["temp", "sp"], np.full(s.n, spv))
    point(c, "Potenza Resistenze", "Number", "kW", ["elec", "power", "heating", "sensor"], kw)

is_kw = np.zeros(s.n)
for code, name, kw0, cpm, stop in (
    ("e04", "Macchina IS 1", 310.0, 130.0, s.mask(D(2026, 10, 15), 8.0, 12.0)),  # job change
    ("e05", "Macchina IS 2", 345.0, 150.0, s.mask(D(2026, 10, 20), 6.0, 14.0)),  # job change
    ("e06", "Macchina IS 3", 380.0, 165.0, s.mask(D(2026, 10, 30), 4.0, 16.0)),  # mould change, Fri 30 Oct
):
    m = equip(s, code, name, ["isMachine", "motor"])
    run = ~stop
    kw = np.where(run, kw0 + noise(s, 6.0), 25.0 + noise(s, 0.8))
    is_kw += kw
    point(m, "Potenza", "Number", "kW", ["elec", "power", "sensor"], kw)
    point(m, "Velocità", "Number", "1/min", ["speed", "sensor"], np.where(run, cpm + noise(s, 0.5), 0.0))
    scarto = np.clip(3.8 + noise(s, 0.5), 2.6, 5.2)
    if name == "Macchina IS 2":  # a worn blank mould set the week of 19 Oct: rejects about 7 %
        scarto = np.where(wk == 1, np.clip(7.1 + noise(s, 0.6), 5.6, 8.6), scarto)
    point(m, "Scarto", "Number", "%", ["sensor"], np.where(run, scarto, 0.0))
    point(m, "In Marcia", "Bool", None, ["run", "sensor"], run)

lehr_kw = np.zeros(s.n)
for code, name, kw0 in (("e07", "Arca di Ricottura 1", 210.0), ("e08", "Arca di Ricottura 2", 190.0)):
    a = equip(s, code, name, ["lehr"])
    zt = np.clip(545.0 + noise(s, 1.2), 541.0, 549.0)
    if name.endswith("2"):  # the zone controller overshoots, Sat 31 Oct 11:00-13:00, peak 571.4 degC at 12:00
        zt = zt + 26.0 * bump(s, D(2026, 10, 31), 11.0, 13.0)
        put(s, zt, D(2026, 10, 31), {12.0: 571.4})
    point(a, "Temperatura Zona Ricottura", "Number", "°C", ["temp", "sensor"], zt)
    kw = kw0 + noise(s, 4.0)
    lehr_kw += kw
    point(a, "Potenza", "Number", "kW", ["elec", "power", "sensor"], kw)

# Compressore 1 carries the base load; Compressore 2 trims; Compressore 3 is the standby. Compressore 1's service,
# Tue 27 Oct 09:00-17:00: Compressore 3 fails to start until 09:45 and the header sags (Compressore 2 under 6 bar)
C1_OFF = s.mask(D(2026, 10, 27), 9.0, 17.0)
C3_ON = s.mask(D(2026, 10, 27), 9.75, 17.0)
comp_kw = np.zeros(s.n)
for code, name, p0, run, kw in (
    ("e09", "Compressore 1", 7.0, ~C1_OFF, 160.0 + noise(s, 3.0)),
    ("e10", "Compressore 2", 6.9, np.ones(s.n, bool), 110.0 + 20.0 * (weekday & s.hours(6.0, 22.0)) + noise(s, 4.0)),
    ("e11", "Compressore 3", 6.95, C3_ON, 160.0 + noise(s, 3.0)),
):
    c = equip(s, code, name, ["compressor"])
    pr = np.clip(p0 + noise(s, 0.05), p0 - 0.15, p0 + 0.15)
    if name == "Compressore 2":
        put(s, pr, D(2026, 10, 27), {9.0: 5.7, 9.25: 5.4, 9.5: 5.6, 9.75: 6.3})
    pr = np.where(run, pr, 0.0)
    kw = np.where(run, kw, 0.0)
    comp_kw += kw
    point(c, "Pressione Mandata", "Number", "bar", ["air", "discharge", "pressure", "sensor"], pr)
    point(c, "Potenza", "Number", "kW", ["elec", "power", "sensor"], kw)
    point(c, "In Marcia", "Bool", None, ["run", "sensor"], run)

te = equip(s, "e12", "Torre Evaporativa", ["coolingTower"])
point(te, "Temperatura Acqua Fredda", "Number", "°C", ["cool", "water", "leaving", "temp", "sensor"],
      24.0 + daily(s, 1.5, 15.0) + noise(s, 0.3))  # fmt: skip
ct_kw = 30.0 + daily(s, 6.0, 15.0) + noise(s, 0.8)
point(te, "Potenza Ventilatore", "Number", "kW", ["fan", "elec", "power", "sensor"], ct_kw)

uf = equip(s, "e13", "Unità Filtrazione Fumi", ["dustFilter", "exhaust"])
point(uf, "Temperatura Ingresso", "Number", "°C", ["exhaust", "entering", "temp", "sensor"],
      fumi - 90.0 + noise(s, 2.0))  # fmt: skip
point(uf, "Polveri", "Number", "mg/m³", ["exhaust", "dust", "sensor"], np.clip(6.0 + noise(s, 1.5), 2.0, 13.0))
uf_kw = 95.0 + noise(s, 3.0)
point(uf, "Potenza", "Number", "kW", ["elec", "power", "sensor"], uf_kw)

cab = equip(s, "e14", "Cabina MT", ["elecMeter", "meter", "elec", "siteMeter"])
site_kw = boost + fh_kw + is_kw + lehr_kw + comp_kw + ct_kw + uf_kw + 900.0 * batch + 1100.0 + daily(s, 60.0, 14.0)
site_mw = (site_kw + noise(s, 25.0)) / 1000.0
point(cab, "Potenza Attiva", "Number", "MW", ["elec", "power", "sensor"], site_mw)
point(cab, "Energia Attiva", "Number", "MWh", ["elec", "energy", "import", "sensor"], register(s, site_mw, 1_284_517.0))
point(cab, "Fattore di Potenza", "Number", "pf", ["elec", "pf", "sensor"], 0.93 + noise(s, 0.005))

gm = equip(s, "e15", "Contatore Gas", ["gasMeter", "meter", "naturalGas", "siteMeter"])
gas = 1480.0 + 160.0 + per_day(s, 10.0) + noise(s, 14.0)
point(gm, "Portata", "Number", "m³/h", ["naturalGas", "flow", "sensor"], gas)
point(gm, "Volume Totale", "Number", "m³", ["naturalGas", "volume", "sensor"], register(s, gas, 48_112_904.0))

sr = equip(s, "e16", "Silo Rottame", ["tank", "silo"])
point(sr, "Livello", "Number", "%", ["level", "sensor"],
      55.0 + 15.0 * np.sin(2 * math.pi * (s.hour - 10.0) / 24) + noise(s, 0.4),
      keep_gap(s, D(2026, 10, 31), 2.0))  # fmt: skip

# ----- Caguas Sterile Products (Puerto_Rico, US units, English words) ---------------------------------------------
s = cg
wk = week_of(s)
weekday = s.wday < 5
prod = (weekday & s.hours(6.0, 22.0)) | ((s.wday == 5) & s.hours(6.0, 14.0))  # filling shifts

# AHU-1 serves the fill suite; its HEPA/bag filters are changed Sat 31 Oct 06:00-18:00 at reduced airflow
FILTERS = s.mask(D(2026, 10, 31), 6.0, 18.0)
PURGE = s.mask(D(2026, 11, 2), 10.0, 11.0)  # AHU-2: a formulation-room decontamination purge, Mon 2 Nov
ahu_kw = np.zeros(s.n)
for code, name, sat, cfm, kw0 in (
    ("e01", "AHU-1", 58.0, 24000.0, 42.0),
    ("e02", "AHU-2", 56.0, 19000.0, 36.0),
    ("e03", "AHU-3", 60.0, 12000.0, 22.0),
):
    a = equip(s, code, name, ["ahu"])
    if name == "AHU-3":  # packaging and warehouse: set back outside the shifts
        cfm_v = np.where(prod, cfm, 6500.0) + noise(s, 120.0)
        kw = np.where(prod, kw0, 12.0) + noise(s, 0.5)
    else:
        cfm_v = cfm + noise(s, 150.0)
        kw = kw0 + noise(s, 0.7)
    if name == "AHU-1":
        cfm_v = np.where(FILTERS, 9600.0 + noise(s, 100.0), cfm_v)
        kw = np.where(FILTERS, 14.0 + noise(s, 0.4), kw)
    if name == "AHU-2":
        kw = np.where(PURGE, 47.0 + noise(s, 0.3), kw)
        cfm_v = np.where(PURGE, 23500.0 + noise(s, 100.0), cfm_v)
    ahu_kw += kw
    point(a, "Supply Air Temp", "Number", "°F", ["discharge", "air", "temp", "sensor"],
          sat + 1.2 * daily(s, 1.0, 15.0) + noise(s, 0.4))  # fmt: skip
    point(a, "Supply Airflow", "Number", "cfm", ["discharge", "air", "flow", "sensor"], cfm_v)
    point(a, "Fan kW", "Number", "kW", ["fan", "elec", "power", "sensor"], kw)
    fdp = 0.62 + 0.25 * (name == "AHU-1") + 0.004 * s.day_i + noise(s, 0.008)
    if name == "AHU-1":
        fdp = np.where(s.span(D(2026, 10, 31), 18.0, END, 0.0), 0.45 + noise(s, 0.008), fdp)
    point(a, "Filter DP", "Number", "inH₂O", ["air", "filter", "pressure", "delta", "sensor"], fdp)

for code, name, dp0, dpsp, rh0 in (
    ("e04", "Fill Room 1", 0.062, 0.050, 42.0),
    ("e05", "Fill Room 2", 0.060, 0.050, 42.0),
    ("e06", "Gowning Room", 0.035, 0.025, 46.0),
):
    r = equip(s, code, name, ["cleanroom"])
    point(r, "Room Temp", "Number", "°F", ["zone", "air", "temp", "sensor"], 66.0 + noise(s, 0.3),
          keep_gap(s, D(2026, 10, 29), 12.0) if name == "Gowning Room" else None)  # fmt: skip
    rh = np.clip(rh0 + 2.0 * prod + noise(s, 1.5), rh0 - 4.0, rh0 + 7.0)
    point(r, "Room RH", "Number", "%RH", ["zone", "air", "humidity", "sensor"], rh)
    dp = np.clip(dp0 + noise(s, 0.002), dp0 - 0.005, dp0 + 0.005)
    if name == "Fill Room 1":  # a door interlock fails, Wed 21 Oct 10:15-11:00: the room loses its cascade
        put(s, dp, D(2026, 10, 21), {10.25: 0.044, 10.5: 0.012, 10.75: 0.018, 11.0: 0.031, 11.25: 0.057})
    point(r, "Room Pressure", "Number", "inH₂O", ["zone", "air", "pressure", "delta", "sensor"], dp)
    point(r, "Room Pressure SP", "Number", "inH₂O", ["zone", "air", "pressure", "delta", "sp"], np.full(s.n, dpsp))
    pc = np.where(prod, 35.0 + np.abs(noise(s, 12.0)), 8.0 + np.abs(noise(s, 4.0)))
    if name == "Fill Room 2":  # an aseptic intervention on the filling line, Wed 14 Oct 10:30
        put(s, pc, D(2026, 10, 14), {10.5: 2240.0, 10.75: 1880.0, 11.0: 420.0})
    point(r, "Particle Count", "Number", "particles/ft³", ["zone", "air", "particulate", "sensor"], np.round(pc))

# WFI still: weekdays 05:00-21:00, Saturday 06:00-12:00; descaled Thu 22 Oct 06:00-22:00
STILL_DOWN = s.mask(D(2026, 10, 22), 6.0, 22.0)
still = ((weekday & s.hours(5.0, 21.0)) | ((s.wday == 5) & s.hours(6.0, 12.0))) & ~STILL_DOWN
ws = equip(s, "e07", "WFI Still", ["wfiStill"])
point(ws, "Distillate Flow", "Number", "gal/min", ["water", "flow", "sensor"],
      np.where(still, 8.2 + noise(s, 0.1), 0.0))  # fmt: skip
still_steam = np.where(still, 2400.0 + noise(s, 30.0), 0.0)
point(ws, "Steam Flow", "Number", "lb/h", ["steam", "flow", "sensor"], still_steam)
point(ws, "Conductivity", "Number", "µS/cm", ["water", "conductivity", "sensor"], 0.45 + noise(s, 0.03))
point(ws, "Running", "Bool", None, ["run", "sensor"], still)

wl = equip(s, "e08", "WFI Loop", ["wfiLoop", "water"])
lt = np.clip(178.0 + noise(s, 0.5), 176.6, 179.4)
# the loop heat exchanger's steam valve actuator fails, Tue 27 Oct 13:00-16:00 (under 170 degF 13:45-15:15)
LOOP = s.mask(D(2026, 10, 27), 13.0, 16.0)
lt = np.where(LOOP, 178.0 - 14.0 * bump(s, D(2026, 10, 27), 13.0, 16.0) + noise(s, 0.1), lt)
point(wl, "Loop Temp", "Number", "°F", ["water", "temp", "sensor"], lt)
point(wl, "Loop Temp SP", "Number", "°F", ["water", "temp", "sp"], np.full(s.n, 176.0))
point(wl, "Return Flow", "Number", "gal/min", ["water", "flow", "entering", "sensor"], 42.0 + noise(s, 0.8))
toc = np.array([110.0, 112.0, 156.0, 118.0])[wk] + noise(s, 8.0)  # a leaching gasket the week of 26 Oct
point(wl, "TOC", "Number", "ppb", ["water", "toc", "sensor"], toc)
point(wl, "Conductivity", "Number", "µS/cm", ["water", "conductivity", "sensor"], 0.6 + noise(s, 0.04))

ac_active = np.zeros(s.n, bool)
for code, name, starts in (
    ("e09", "Autoclave 1", (7.0, 10.0, 13.0, 16.0, 19.0)),
    ("e10", "Autoclave 2", (8.0, 11.0, 14.0, 17.0, 20.0)),
):
    a = equip(s, code, name, ["autoclave", "sterilizer"])
    temp = 100.0 + noise(s, 1.5)
    psi = np.abs(noise(s, 0.1))
    active = np.zeros(s.n, bool)
    prof_t = (190.0, 249.5, 251.0, 251.0, 212.0)
    prof_p = (3.0, 14.5, 15.2, 15.2, 4.0)
    for i in range(s.n):
        w = s.wday[i]
        todays = starts if w < 5 else starts[:2] if w == 5 else ()
        for st in todays:
            k = round((s.hour[i] - st) * 4)
            if 0 <= k < 5 and abs(s.hour[i] - st - k / 4) < 1e-9:
                temp[i] = prof_t[k] + (rng.normal(0.0, 0.3) if k in (2, 3) else rng.normal(0.0, 1.0))
                psi[i] = prof_p[k] + rng.normal(0.0, 0.05)
                active[i] = True
    if name == "Autoclave 2":  # a faulty steam pressure regulator, Tue 20 Oct: the 14:00 cycle overshoots
        put(s, temp, D(2026, 10, 20), {14.5: 256.1, 14.75: 258.6})
        put(s, psi, D(2026, 10, 20), {14.5: 18.1, 14.75: 19.6})
    ac_active |= active
    point(a, "Chamber Temp", "Number", "°F", ["temp", "sensor"], temp)
    point(a, "Chamber Pressure", "Number", "psi", ["steam", "pressure", "sensor"], psi)
    point(a, "Cycle Active", "Bool", None, ["run", "sensor"], active)

ly = equip(s, "e11", "Lyophilizer 1", ["freezeDryer"])
shelf = np.full(s.n, 70.0)
cond = np.full(s.n, 72.0)
lkw = np.full(s.n, 9.0)
in_cycle = np.zeros(s.n, bool)
for i, t in enumerate(s.local):
    # cycles load and start Mondays and Thursdays 05:00 and last 60 hours
    back = (t.weekday() - (0 if t.weekday() < 3 else 3)) * 24 + t.hour + t.minute / 60 - 5.0
    if not 0.0 <= back < 60.0:
        continue
    e = back
    in_cycle[i] = True
    if e < 3.0:
        shelf[i] = 68.0 - 36.0 * e
    elif e < 7.0:
        shelf[i] = -40.0
    elif e < 8.0:
        shelf[i] = -40.0 + 30.0 * (e - 7.0)
    elif e < 37.0:
        shelf[i] = -10.0
    elif e < 39.0:
        shelf[i] = -10.0 + 48.0 * (e - 37.0)
    elif e < 57.0:
        shelf[i] = 86.0
    else:
        shelf[i] = 68.0
    cond[i] = -76.0 if 2.0 <= e < 57.0 else 72.0
    lkw[i] = 185.0 if e < 7.0 else 120.0 if e < 57.0 else 9.0
shelf = shelf + noise(s, 0.3)
point(ly, "Shelf Temp", "Number", "°F", ["temp", "sensor"], shelf)
point(ly, "Condenser Temp", "Number", "°F", ["refrig", "temp", "sensor"], cond + noise(s, 0.5))
lkw = lkw + noise(s, 1.0)
point(ly, "kW", "Number", "kW", ["elec", "power", "sensor"], lkw)

bo = equip(s, "e12", "Boiler 1", ["boiler", "steam"])
steam = 1100.0 + still_steam + 500.0 * ac_active + 200.0 * prod + noise(s, 50.0)
point(bo, "Steam Pressure", "Number", "psi", ["steam", "pressure", "sensor"], 125.0 + noise(s, 0.8))
point(bo, "Steam Flow", "Number", "lb/h", ["steam", "flow", "sensor"], steam)
point(bo, "Firing Rate", "Number", "%", ["naturalGas", "heating", "sensor"], np.clip(steam / 55.0, 0.0, 100.0))

pc_ = equip(s, "e13", "Process Chiller", ["chiller"])
point(pc_, "CHW Supply Temp", "Number", "°F", ["chilled", "water", "leaving", "temp", "sensor"], 44.0 + noise(s, 0.3))
ch_kw = 150.0 + 30.0 * in_cycle + 25.0 * prod + daily(s, 15.0, 15.0) + noise(s, 4.0)
point(pc_, "kW", "Number", "kW", ["elec", "power", "sensor"], ch_kw)

gen = equip(s, "e15", "Emergency Generator", ["genset"])
test = (s.wday == 2) & s.hours(10.0, 10.5)  # the weekly load test, Wednesdays 10:00-10:30

msw = equip(s, "e14", "Main Switchgear", ["elecMeter", "meter", "elec", "siteMeter"])
lines = 620.0 * (weekday & s.hours(6.0, 22.0)) + 300.0 * ((s.wday == 5) & s.hours(6.0, 14.0))
mkw = 950.0 + ahu_kw + ch_kw + lkw + lines + daily(s, 60.0, 15.0) + noise(s, 12.0)
mkw = np.where(test, mkw - 600.0, mkw)  # the generator carries part of the plant during its test
# Thu 22 Oct 14:45: the lyophilizer's second vacuum pump and the stoppering press with the filling lines: the peak
mkw[s.at(D(2026, 10, 22), 14.75)] += 140.0
point(msw, "kW", "Number", "kW", ["elec", "power", "sensor"], mkw)
point(msw, "kWh", "Number", "kWh", ["elec", "energy", "sensor"], register(s, mkw, 23_604_118.0))
point(msw, "Power Factor", "Number", "pf", ["elec", "pf", "sensor"], 0.91 + noise(s, 0.006))

point(gen, "Output kW", "Number", "kW", ["elec", "power", "sensor"], np.where(test, 600.0 + noise(s, 10.0), 0.0))
point(gen, "Fuel Level", "Number", "%", ["diesel", "level", "sensor"],
      91.0 - 0.4 * np.cumsum(test) / 2.0 + noise(s, 0.1))  # fmt: skip
point(gen, "Running", "Bool", None, ["run", "sensor"], test)

wm = equip(s, "e16", "City Water Meter", ["waterMeter", "meter", "water"])
wflow = np.clip(40.0 + 60.0 * prod + 30.0 * still + noise(s, 5.0), 0.0, None)
point(wm, "Flow", "Number", "gal/min", ["water", "flow", "sensor"], wflow, keep_gap(s, D(2026, 10, 18), 1.0))
point(wm, "Total", "Number", "gal", ["water", "volume", "sensor"], register(s, wflow, 18_442_906.0, per_hour=60.0))

# ----- Springs AD Plant (Johannesburg, SI, UPPER_SNAKE codes) -----------------------------------------------------
s = sp
wk = week_of(s)
weekday = s.wday < 5

pump_kw = np.zeros(s.n)
for code, name, sched, q0, kw0 in (
    ("e09", "FEED_PMP_01", (weekday & s.hours(6.0, 18.0)) | (~weekday & s.hours(8.0, 12.0)), 32.0, 11.0),
    ("e10", "FEED_PMP_02", (weekday & s.hours(7.0, 19.0)) | (~weekday & s.hours(9.0, 13.0)), 28.0, 9.5),
    ("e11", "RECIRC_PMP_01", np.ones(s.n, bool), 120.0, 18.5),
    ("e12", "DGST_PMP_01", s.hours(2.0, 6.0), 45.0, 15.0),
):
    p = equip(s, code, name, ["pump"])
    point(p, "FLOW", "Number", "m³/h", ["flow", "sensor"], np.where(sched, q0 + noise(s, 1.0), 0.0))
    kw = np.where(sched, kw0 + noise(s, 0.3), 0.2 + noise(s, 0.02))
    pump_kw += kw
    point(p, "KW", "Number", "kW", ["elec", "power", "sensor"], kw)

HX = s.mask(D(2026, 10, 22), 2.0, 10.0)  # DIG_02's sludge heat exchanger blocks, Thu 22 Oct 02:00-10:00
MIX1 = s.span(D(2026, 11, 1), 22.0, D(2026, 11, 3), 10.0)  # DIG_01's mixer gearbox fails, Sun 1 Nov 22:00
mix_kw = np.zeros(s.n)
gas_total = np.zeros(s.n)
for code, name, q in (
    ("e01", "DIG_01", np.array([360.0, 400.0, 400.0, 400.0])[wk]),  # a new food-waste contract from Mon 19 Oct
    ("e02", "DIG_02", np.full(s.n, 380.0)),
    ("e03", "DIG_03", np.full(s.n, 320.0)),
):
    d_ = equip(s, code, name, ["digester", "tank"])
    temp = np.clip(38.0 + noise(s, 0.15), 37.6, 38.4)
    if name == "DIG_02":
        temp = np.where(HX, 38.0 - 3.0 * bump(s, D(2026, 10, 22), 2.0, 10.0) + noise(s, 0.02), temp)
    point(d_, "TEMP", "Number", "°C", ["temp", "sensor"], temp)
    point(d_, "TEMP_SP", "Number", "°C", ["temp", "sp"], np.full(s.n, 38.0))
    if name == "DIG_03":
        ph = np.clip(7.25 + noise(s, 0.03), 7.16, 7.34)
        # a slug of fats overloads DIG_03, Tue 20 Oct 13:00-19:00: pH down to 7.02 at 16:00
        ph = ph - 0.23 * bump(s, D(2026, 10, 20), 13.0, 19.0)
    else:
        ph = np.clip(7.32 + noise(s, 0.03), 7.23, 7.41)
    point(d_, "PH", "Number", "pH", ["ph", "sensor"], ph)
    point(d_, "LEVEL", "Number", "%", ["level", "sensor"], 82.0 + noise(s, 0.4),
          keep_gap(s, D(2026, 10, 28), 9.0) if name == "DIG_03" else None)  # fmt: skip
    flow = q + per_day(s, 4.0) + daily(s, 8.0, 14.0) + noise(s, 5.0)
    if name == "DIG_02":
        flow = np.where(HX, flow * 0.92, flow)
    run = np.ones(s.n, bool)
    if name == "DIG_01":
        flow = np.where(MIX1, flow - 115.0, flow)
        run = ~MIX1
    gas_total += flow
    point(d_, "BIOGAS_FLOW", "Number", "m³/h", ["biogas", "flow", "sensor"], flow)
    kw = np.where(run, 15.0 + noise(s, 0.3), 0.0)
    mix_kw += kw
    point(d_, "MIXER_KW", "Number", "kW", ["elec", "power", "sensor"], kw)
    point(d_, "MIXER_RUN", "Bool", None, ["run", "sensor"], run)

C2_TRIP = s.mask(D(2026, 10, 27), 9.5, 15.0)  # CHP_02 trips on high jacket-water temperature, Tue 27 Oct 09:30
C1_SVC = s.mask(D(2026, 10, 29), 8.0, 20.0)  # CHP_01's 2,000-hour service, Thu 29 Oct 08:00-20:00
LOWGAS = s.mask(D(2026, 10, 15), 6.25, 8.0)  # the gasholder's low-level interlock cuts CHP_02 back, Thu 15 Oct
chp_kw = np.zeros(s.n)
for code, name, kw0, off, start in (
    ("e04", "CHP_01", 1160.0, C1_SVC, 8_214_339.0),
    ("e05", "CHP_02", 1050.0, C2_TRIP, 7_905_112.0),
):
    c = equip(s, code, name, ["chp", "engine"])
    run = ~off
    kw = np.where(run, kw0 + noise(s, 8.0), 0.0)
    if name == "CHP_02":
        kw = np.where(LOWGAS, 650.0 + noise(s, 8.0), kw)
    chp_kw += kw
    point(c, "GEN_KW", "Number", "kW", ["elec", "power", "export", "sensor"], kw)
    point(c, "GEN_KWH", "Number", "kWh", ["elec", "energy", "export", "sensor"], register(s, kw, start))
    point(c, "GAS_IN", "Number", "m³/h", ["biogas", "flow", "entering", "sensor"],
          np.where(run, kw * 0.46 + noise(s, 3.0), 0.0))  # fmt: skip
    point(c, "EXH_TEMP", "Number", "°C", ["exhaust", "temp", "sensor"],
          lag(np.where(run, 468.0, 60.0), 0.35) + noise(s, 3.0))  # fmt: skip
    jw = np.where(run, 88.0 + noise(s, 0.5), 45.0)
    if name == "CHP_02":
        pre = s.mask(D(2026, 10, 27), 7.5, 9.5)
        jw = np.where(pre, 88.0 + 9.5 * (s.hour - 7.5) / 2.0 + noise(s, 0.2), jw)
        jw = np.where(C2_TRIP, lag(np.where(C2_TRIP, 45.0, 97.5), 0.15), jw)
    point(c, "JW_TEMP", "Number", "°C", ["water", "temp", "sensor"], jw)
    point(c, "RUN", "Bool", None, ["run", "sensor"], run)

gh = equip(s, "e06", "GASHOLDER_01", ["gasHolder", "tank"])
lvl = 55.0 + 18.0 * np.sin(2 * math.pi * (s.hour - 16.0) / 24) + noise(s, 0.4)
for day, h0, h1 in ((D(2026, 10, 27), 9.5, 15.0), (D(2026, 10, 29), 8.0, 20.0)):  # an engine down: it fills
    m = s.mask(day, h0, h1)
    lvl = np.where(m, np.minimum(95.5 + noise(s, 0.3), lvl + 14.0 * (s.hour - h0)), lvl)
# Thu 15 Oct: both engines at full load overnight while the feed was paused; the interlock trips at 06:15
dip = s.mask(D(2026, 10, 15), 3.25, 9.25)
lvl = np.where(dip, lvl - 22.0 * (1.0 - np.abs(s.hour - 6.25) / 3.0), lvl)
i_min = s.at(D(2026, 10, 15), 6.25)
day15 = np.array([d == D(2026, 10, 15) for d in s.date])
lvl[i_min] = np.min(np.where(day15 & (np.arange(s.n) != i_min), lvl, np.inf)) - 1.2
point(gh, "LEVEL", "Number", "%", ["biogas", "level", "sensor"], lvl)
point(gh, "PRESS", "Number", "mbar", ["biogas", "pressure", "sensor"], 22.0 + noise(s, 0.4))
point(gh, "CH4", "Number", "%", ["biogas", "methane", "sensor"], 61.0 + noise(s, 0.5))

fl = equip(s, "e07", "FLARE_01", ["flare"])
flare = s.mask(D(2026, 10, 27), 11.0, 15.25) | s.mask(D(2026, 10, 29), 10.0, 20.25)
point(fl, "FLOW", "Number", "m³/h", ["biogas", "flow", "sensor"],
      np.where(flare, 480.0 + 40.0 * (s.day_i == 17) + noise(s, 15.0), 0.0))  # fmt: skip
point(fl, "FLAME_TEMP", "Number", "°C", ["temp", "sensor"],
      np.where(flare, 880.0 + noise(s, 20.0), 25.0 + noise(s, 1.0)), keep_gap(s, D(2026, 10, 17), 3.0))  # fmt: skip
point(fl, "RUN", "Bool", None, ["run", "sensor"], flare)

sc = equip(s, "e08", "SCRUB_01", ["h2sScrubber"])
point(sc, "H2S_IN", "Number", "ppm", ["biogas", "h2s", "entering", "sensor"], 1850.0 + noise(s, 60.0))
h2s = np.clip(40.0 + noise(s, 6.0), 22.0, 62.0)
BREAK = s.mask(D(2026, 10, 30), 8.0, 16.0)  # the iron-oxide media is spent, Fri 30 Oct; changed at 16:00
h2s = np.where(BREAK, 40.0 + 230.0 * ((s.hour - 8.0) / 8.0) ** 2 + noise(s, 1.0), h2s)
h2s = np.where(s.mask(D(2026, 10, 30), 16.0, 18.0), 30.0 + noise(s, 2.0), h2s)
point(sc, "H2S_OUT", "Number", "ppm", ["biogas", "h2s", "leaving", "sensor"], h2s)

ht = equip(s, "e13", "HYD_TK_01", ["tank", "hydrolysisTank"])
point(ht, "LEVEL", "Number", "%", ["level", "sensor"], 60.0 + 20.0 * np.sin(2 * math.pi * (s.hour - 12.0) / 24)
      + noise(s, 0.5))  # fmt: skip
point(ht, "TEMP", "Number", "°C", ["temp", "sensor"], 42.0 + noise(s, 0.4))

mv = equip(s, "e14", "MV_INCOMER", ["elecMeter", "meter", "elec", "siteMeter"])
export = (chp_kw - mix_kw - pump_kw - 160.0 - daily(s, 20.0, 14.0) + noise(s, 8.0)) / 1000.0
point(mv, "EXPORT_MW", "Number", "MW", ["elec", "power", "export", "sensor"], export)
point(mv, "EXPORT_MWH", "Number", "MWh", ["elec", "energy", "export", "sensor"], register(s, export, 61_407.0))
point(mv, "PF", "Number", "pf", ["elec", "pf", "sensor"], 0.97 + noise(s, 0.005), keep_gap(s, D(2026, 10, 19), 13.0))

# ---------------------------------------------------------------------------------------------------------------


if __name__ == "__main__":
    G.write(HERE, SITES)
