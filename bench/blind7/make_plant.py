"""Make the blind-7 plant: plant.json (Haystack 4 JSON grid) and plant.csv.gz (15-minute histories).

Three sites of new kinds, Mon 2027-03-08 00:00 to Wed 2027-03-31 00:00 site-local (3 weeks and 2 days):
  Warren Paint Shop        a car plant's paint shop  (America/Detroit, US units; -05:00, clocks go FORWARD on
                           Sun 14 Mar 2027 02:00 -> 03:00: a 23-hour day, then -04:00)
  Fjordlaks Settefisk      a land-based salmon smolt hatchery (Europe/Oslo, SI, Norwegian names; +01:00, clocks go
                           FORWARD on Sun 28 Mar 2027 02:00 -> 03:00: a 23-hour day, then +02:00)
  Patan Heritage Archive   a museum archive (Asia/Kathmandu, SI, lower_case names; +05:45 all along)

Fixed seed; the same run gives byte-identical files (gzip mtime 0, no file name in the header).
Usage: python bench/blind7/make_plant.py
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

SEED = 20270314
START = dt.date(2027, 3, 8)
END = dt.date(2027, 3, 31)
D = dt.date


G = Plant(SEED, START, END, require_unit=False)
rng = G.rng
Site, noise, clipn, per_day, equip, point = G.site, G.noise, G.clipn, G.per_day, G.equip, G.point


def bump(site: Site, day: dt.date, h0: float, hp: float, h1: float, height: float) -> np.ndarray:
    out = np.zeros(site.n)
    for i, (d, h) in enumerate(zip(site.date, site.hour)):
        if d == day and h0 <= h <= h1:
            out[i] = height * ((h - h0) / (hp - h0) if h <= hp else (h1 - h) / (h1 - hp))
    return out


def hours_since(site: Site, on: np.ndarray) -> np.ndarray:
    """Hours since `on` was last true (0 while on)."""
    out = np.zeros(site.n)
    last = -1e9
    for i in range(site.n):
        if on[i]:
            last = site.secs[i]
        out[i] = (site.secs[i] - last) / 3600
    return np.minimum(out, 500.0)


# ---------------------------------------------------------------------------------------------------------------
wp = Site("wps", "Warren Paint Shop", "America/Detroit", "Detroit", "Warren")
fs = Site("fjl", "Fjordlaks Settefisk", "Europe/Oslo", "Oslo", "Rissa")
ar = Site("pha", "Patan Heritage Archive", "Asia/Kathmandu", "Kathmandu", "Lalitpur")
SITES = [wp, fs, ar]


# ----- Warren Paint Shop (Detroit, US units) ---------------------------------------------------------------------
s = wp
prod = ((s.wday < 5) & s.hours(6.0, 22.0)) | ((s.wday == 5) & s.hours(6.0, 14.0))  # two shifts, Saturday overtime
day_base = 24.0 + 1.0 * s.day_i + rng.normal(0.0, 2.0, 23)[s.day_i]  # a March warming up
oat_f = day_base + daily(s, 8.0, 15.0) + noise(s, 1.0)

mau_gas = np.zeros(s.n)
for code, name, cfm, ev in (
    ("e01", "MAU-1 Basecoat", 60000.0, None),
    ("e02", "MAU-2 Clearcoat", 55000.0, s.mask(D(2027, 3, 18), 10.0, 13.5)),
    ("e03", "MAU-3 Sealer", 30000.0, None),
):
    m = equip(s, code, name, ["mau"])
    sat = np.where(prod, 72.0 + noise(s, 0.4), 58.0 + 0.2 * (oat_f - 30.0) + noise(s, 0.3))
    point(m, "Supply Air Temp", "Number", "°F", ["discharge", "air", "temp", "sensor"], sat)
    point(m, "Supply Air Temp SP", "Number", "°F", ["discharge", "air", "temp", "sp"], np.full(s.n, 72.0))
    rh = np.clip(60.5 + noise(s, 0.8), 57.0, 63.6)
    if ev is not None:  # a stuck humidifier valve, Thu 18 Mar 10:00-13:15: 14 samples over the 65 %RH setpoint
        rh = np.where(ev, np.maximum(68.4 + noise(s, 0.5), 66.0), rh)
    point(m, "Booth RH", "Number", "%RH", ["zone", "air", "humidity", "sensor"], rh)
    point(m, "Booth RH SP", "Number", "%RH", ["zone", "air", "humidity", "sp"], np.full(s.n, 65.0))
    press = np.where(prod, 0.035 + noise(s, 0.002), 0.002 + noise(s, 0.001))
    point(m, "Booth Pressure", "Number", "inH₂O", ["zone", "air", "pressure", "sensor"], press)
    gas = np.where(prod, cfm * 1.08 * np.maximum(72.0 - oat_f, 0.0) / 1000.0 * 1.1 * (1 + noise(s, 0.02)), 0.0)
    mau_gas += gas
    point(m, "Burner Gas Flow", "Number", "cfh", ["naturalGas", "flow", "sensor"], gas)

ov = equip(s, "e04", "Topcoat Cure Oven", ["oven"])
ov_on = prod | ((s.wday < 6) & s.hours(5.0, 6.0))
off_h = hours_since(s, ov_on)
swing = 4.0 * np.sin(2 * math.pi * (s.hour - 5.0) / 6.0)  # the load of bodies through the oven
z1 = np.where(ov_on, 285.0 + swing + noise(s, 0.8), 75.0 + 210.0 * np.exp(-off_h / 2.0) + noise(s, 0.5))
point(ov, "Zone 1 Temp", "Number", "°F", ["air", "temp", "sensor"], z1)
z2 = np.where(ov_on, 320.0 + noise(s, 1.5), 75.0 + 245.0 * np.exp(-off_h / 2.0) + noise(s, 0.5))
z2 = z2 + bump(s, D(2027, 3, 15), 11.0, 11.75, 12.5, 18.0)  # a stuck gas valve: the one peak, Mon 15 Mar 11:45
z2[s.at(D(2027, 3, 15), 11.75)] += 0.6
point(ov, "Zone 2 Temp", "Number", "°F", ["air", "temp", "sensor"], z2)
point(ov, "Zone 2 Temp SP", "Number", "°F", ["air", "temp", "sp"], np.full(s.n, 320.0))
point(
    ov,
    "Exhaust Fan Amps",
    "Number",
    "A",
    ["exhaust", "fan", "elec", "current", "sensor"],
    np.where(ov_on, 42.0 + noise(s, 0.8), 0.0),
)

rto = equip(s, "e05", "RTO-1", ["thermalOxidizer"])
ch = np.clip(1552.0 + noise(s, 4.0), 1531.0, 1575.0)
flame_out = {5.5: 1491.8, 5.75: 1466.3, 6.0: 1441.7, 6.25: 1479.2, 6.5: 1518.5}  # Tue 16 Mar: burner flame-out
for hh, v in flame_out.items():
    ch[s.at(D(2027, 3, 16), hh)] = v
point(rto, "Combustion Chamber Temp", "Number", "°F", ["combustion", "temp", "sensor"], ch)
point(
    rto, "Inlet Pressure", "Number", "inH₂O", ["air", "pressure", "sensor"], np.where(prod, -2.0, -1.2) + noise(s, 0.05)
)
rto_gas = np.where(prod, 420.0 + noise(s, 15.0), 300.0 + noise(s, 10.0))
rto_gas = np.where(s.mask(D(2027, 3, 16), 5.5, 6.25), 0.0, rto_gas)
point(rto, "Burner Gas Flow", "Number", "cfh", ["naturalGas", "flow", "sensor"], rto_gas)
point(rto, "LEL", "Number", "%LEL", ["voc", "sensor"], np.where(prod, 9.0 + noise(s, 1.2), 1.0 + noise(s, 0.3)))

tk = equip(s, "e06", "E-Coat Tank", ["tank"])
point(tk, "Bath Temp", "Number", "°F", ["water", "temp", "sensor"], 90.0 + noise(s, 0.3))
cond = 1450.0 + 4.0 * (s.day_i % 6) + noise(s, 12.0)
point(
    tk, "Conductivity", "Number", "µS/cm", ["water", "conductivity", "sensor"], cond, keep_gap(s, D(2027, 3, 11), 8.0)
)
point(tk, "pH", "Number", "pH", ["water", "ph", "sensor"], 5.8 + noise(s, 0.04))
point(tk, "Level", "Number", "in", ["water", "level", "sensor"], 96.0 + noise(s, 0.4))

comp_kw = {}
for code, name, kw_on, kw_off, always in (
    ("e07", "Compressor 3", 62.0, 0.0, False),  # trim machine: stopped off shift
    ("e08", "Compressor 4", 88.0, 34.0, True),  # base machine: runs around the clock
):
    c = equip(s, code, name, ["airCompressor", "compressor"])
    p = np.where(prod, 105.0 + 3.0 * np.sin(2 * math.pi * (s.hour - 6.0) / 8.0), 96.0) + noise(s, 0.5)
    point(c, "Discharge Pressure", "Number", "psi", ["air", "discharge", "pressure", "sensor"], p)
    kw = np.where(prod, kw_on + noise(s, 5.0 if not always else 2.5), np.maximum(kw_off + noise(s, 2.0), 0.0) * always)
    comp_kw[name] = kw
    point(c, "Power", "Number", "kW", ["elec", "power", "sensor"], kw)
    point(c, "Running", "Bool", None, ["run", "sensor"], prod | always)

sp7 = equip(s, "e09", "Sludge Pump P-7", ["pump"])
point(
    sp7,
    "Vibration",
    "Number",
    "in/s",
    ["vibration", "sensor"],
    np.where(prod, 0.11 + noise(s, 0.01), 0.005),
    keep_gap(s, D(2027, 3, 13), 6.0),
)
point(sp7, "Motor Current", "Number", "A", ["elec", "current", "sensor"], np.where(prod, 17.5 + noise(s, 0.4), 0.0))
point(sp7, "Run", "Bool", None, ["run", "sensor"], prod)

mm = equip(s, "e10", "Sub 4 Main Meter", ["elecMeter", "meter", "elec"])
demand = 650.0 + np.where(prod, 1500.0, 0.0) + comp_kw["Compressor 3"] + comp_kw["Compressor 4"] + 60.0 * ov_on
demand = demand + noise(s, 15.0)
point(mm, "Demand", "Number", "kW", ["elec", "power", "sensor"], demand)
point(mm, "kWh Total", "Number", "kWh", ["elec", "energy", "sensor"], register(s, demand, 48_210_355.0))
point(mm, "Power Factor", "Number", "pf", ["elec", "pf", "sensor"], 0.91 + noise(s, 0.01))
point(mm, "Voltage L-L", "Number", "V", ["elec", "volt", "sensor"], 480.0 + noise(s, 2.0))

gm = equip(s, "e11", "Gas Meter GM-1", ["gasMeter", "meter", "naturalGas"])
gas_cfh = mau_gas + rto_gas + np.where(ov_on, 900.0, 150.0) + 120.0 + noise(s, 20.0)
point(gm, "Gas Flow", "Number", "cfh", ["naturalGas", "flow", "sensor"], gas_cfh)
point(gm, "Gas Volume", "Number", "ft³", ["naturalGas", "volume", "sensor"], register(s, gas_cfh, 91_880_400.0))

lift = equip(s, "e12", "Body Lift L2", ["verticalTransport"])
moving = prod & (rng.random(s.n) < 0.55)
point(lift, "Motor Current", "Number", "A", ["elec", "current", "sensor"], np.where(moving, 24.0 + noise(s, 1.0), 0.0))
point(lift, "In Motion", "Bool", None, ["run", "sensor"], moving)

# ----- Fjordlaks Settefisk (Oslo, SI, Norwegian names) -----------------------------------------------------------
s = fs
week_oat = np.select([s.day_i < 7, s.day_i < 14, s.day_i < 21], [1.0, -3.0, 5.0], 6.0)  # a cold snap 15-21 Mar
oat_c = week_oat + rng.normal(0.0, 2.0, 23)[s.day_i] + daily(s, 3.0, 14.0) + noise(s, 0.5)
feeding = s.hours(8.0, 16.0)

for code, name, temp0, ev in (
    ("e01", "Kar 1", 12.0, None),
    ("e02", "Kar 2", 12.4, None),
    ("e03", "Kar 3", 11.8, s.mask(D(2027, 3, 20), 2.0, 4.0)),
    ("e04", "Kar 4", 13.1, None),
):
    k = equip(s, code, name, ["tank"])
    o2 = np.clip(10.2 - 0.4 * feeding + noise(s, 0.15), 9.35, 11.2)
    if ev is not None:  # a blocked oxygen diffuser, Sat 20 Mar 02:00-03:45: 8 samples under the 9.0 mg/L setpoint
        o2 = np.where(ev, np.minimum(7.7 + noise(s, 0.15), 8.3), o2)
    point(k, "Oksygen", "Number", "mg/L", ["water", "oxygen", "sensor"], o2)
    point(k, "Oksygen settpunkt", "Number", "mg/L", ["water", "oxygen", "sp"], np.full(s.n, 9.0))
    drift = 0.03 * s.day_i + rng.normal(0.0, 0.12, 23)[s.day_i]  # a slow warming and day-to-day make-up water
    wt = temp0 + drift + daily(s, 0.15, 16.0) + noise(s, 0.05)
    point(
        k,
        "Vanntemperatur",
        "Number",
        "°C",
        ["water", "temp", "sensor"],
        wt,
        keep_gap(s, D(2027, 3, 9), 10.0) if name == "Kar 2" else None,
    )

bf = equip(s, "e05", "Biofilter BF-1", ["filter", "water"])
point(bf, "Redoks", "Number", "mV", ["water", "orp", "sensor"], 260.0 + noise(s, 8.0))
point(bf, "Nitritt", "Number", "mg/L", ["water", "nitrite", "sensor"], np.maximum(0.08 + noise(s, 0.008), 0.02))

pump_kw = np.zeros(s.n)
for code, name, kw0, q0, vib0, vmax in (
    ("e06", "Sirkulasjonspumpe P1", 22.0, 420.0, 2.1, 2.9),
    ("e07", "Sirkulasjonspumpe P2", 18.5, 350.0, 2.4, 3.2),
):
    p = equip(s, code, name, ["pump", "water"])
    run = np.ones(s.n, bool)
    vib = np.clip(vib0 + noise(s, 0.12), 1.2, vmax)
    if name.endswith("P2"):  # a failing bearing: the one peak Wed 17 Mar 03:30, then stopped 09:00-11:00 to check it
        for hh, v in {3.0: 3.9, 3.25: 5.6, 3.5: 7.14, 3.75: 4.8, 4.0: 3.5}.items():
            vib[s.at(D(2027, 3, 17), hh)] = v
        run = ~s.mask(D(2027, 3, 17), 9.0, 11.0)
        vib = np.where(run, vib, 0.1)
    kw = np.where(run, kw0 + noise(s, 0.4), 0.0)
    pump_kw += kw
    point(p, "Effekt", "Number", "kW", ["elec", "power", "sensor"], kw)
    point(p, "Vannmengde", "Number", "m³/h", ["water", "flow", "sensor"], np.where(run, q0 + noise(s, 4.0), 0.0))
    point(p, "Vibrasjon", "Number", "mm/s", ["vibration", "sensor"], vib)
    point(p, "Drift", "Bool", None, ["run", "sensor"], run)

vp = equip(s, "e08", "Varmepumpe VP1", ["heatPump"])
vp_kw = 38.0 - 1.6 * oat_c + noise(s, 1.0)
point(vp, "Effekt", "Number", "kW", ["elec", "power", "sensor"], vp_kw)
point(vp, "Turtemperatur", "Number", "°C", ["leaving", "water", "temp", "sensor"], 16.0 + noise(s, 0.15))
point(vp, "COP", "Number", None, ["cop", "sensor"], 3.4 + 0.04 * oat_c + noise(s, 0.05))

lox = equip(s, "e09", "Oksygentank LOX", ["tank"])
lvl = np.zeros(s.n)
cur = 60.0
refills = {(D(2027, 3, 12), 10.0), (D(2027, 3, 20), 11.0), (D(2027, 3, 28), 12.0)}
for i in range(s.n):
    if i > 0:
        cur -= 0.3 * (s.secs[i] - s.secs[i - 1]) / 3600 * (1.0 + 0.1 * math.sin(i / 7.0))
    if (s.date[i], s.hour[i]) in refills:
        cur = 90.0
    lvl[i] = cur
point(lox, "Nivå", "Number", "%", ["oxygen", "level", "sensor"], lvl)
point(lox, "Trykk", "Number", "bar", ["oxygen", "pressure", "sensor"], 8.5 + noise(s, 0.05))

fd = equip(s, "e10", "Fôringsanlegg", ["feeder"])
feed = np.where(feeding, 14.0 + noise(s, 1.0), 0.0)
point(fd, "Fôr rate", "Number", "kg/h", ["feed", "flow", "sensor"], feed)
point(fd, "Fôr totalt", "Number", "kg", ["feed", "mass", "sensor"], register(s, feed, 184_220.0))

hm = equip(s, "e11", "Hovedmåler", ["elecMeter", "meter", "elec"])
site_kw = 35.0 + pump_kw + vp_kw + 12.0 * feeding + noise(s, 1.5)
point(hm, "Effekt", "Number", "kW", ["elec", "power", "sensor"], site_kw)
point(hm, "Energi", "Number", "kWh", ["elec", "energy", "sensor"], register(s, site_kw, 3_912_040.0))
point(hm, "Spenning L1-N", "Number", "V", ["elec", "volt", "sensor"], 230.0 + noise(s, 1.2))

va = equip(s, "e12", "Ventilasjon VA01", ["ahu"])
point(va, "Tilluftstemperatur", "Number", "°C", ["discharge", "air", "temp", "sensor"], 17.5 + noise(s, 0.3))
point(va, "CO2 hall", "Number", "ppm", ["zone", "air", "co2", "sensor"], 520.0 + 150.0 * feeding + noise(s, 25.0))
point(va, "Relativ fuktighet", "Number", "%RH", ["zone", "air", "humidity", "sensor"], 72.0 + noise(s, 2.0))

# ----- Patan Heritage Archive (Kathmandu, SI, lower_case) --------------------------------------------------------
s = ar
open_h = (s.wday != 5) & s.hours(10.0, 17.0)  # open Sunday to Friday; Saturday is the weekend
OUTAGE = D(2027, 3, 16)
outage = s.mask(OUTAGE, 18.0, 21.0)  # load shedding, Tue 16 Mar 18:00-21:00

ahu = equip(s, "e01", "ahu_01", ["ahu"])
point(
    ahu,
    "supply_air_temp",
    "Number",
    "°C",
    ["discharge", "air", "temp", "sensor"],
    np.where(open_h, 15.5, 18.0) + noise(s, 0.3),
)
zt = 20.0 + noise(s, 0.3) + bump(s, D(2027, 3, 21), 0.0, 5.0, 8.0, -3.5)  # no reheat overnight into Sun 21 Mar
point(ahu, "zone_temp", "Number", "°C", ["zone", "air", "temp", "sensor"], zt)
point(ahu, "zone_temp_sp", "Number", "°C", ["zone", "air", "temp", "sp"], np.full(s.n, 20.0))
point(ahu, "zone_rh", "Number", "%RH", ["zone", "air", "humidity", "sensor"], 47.0 + noise(s, 1.2))
point(ahu, "co2", "Number", "ppm", ["zone", "air", "co2", "sensor"], 430.0 + 350.0 * open_h + noise(s, 20.0))

dh_kw = np.zeros(s.n)
for code, name, kw0 in (("e02", "dh_vault_a", 3.2), ("e03", "dh_vault_b", 4.3)):
    d = equip(s, code, name, ["dessicantDehumidifier"])
    rh = np.clip(45.0 + noise(s, 0.7), 42.5, 47.6)
    regen = 118.0 + noise(s, 2.5)
    kw = kw0 + noise(s, 0.25)
    if name == "dh_vault_b":  # regeneration heater fault, Fri 12 Mar 08:00-15:00; vault RH over 50 % 10:30-16:15
        day = D(2027, 3, 12)
        fault = s.mask(day, 8.0, 15.0)
        regen = np.where(fault, 22.0 + 96.0 * np.exp(-(s.hour - 8.0) * 2.0) + noise(s, 0.5), regen)
        kw = np.where(fault, 0.9 + noise(s, 0.05), kw)
        up = s.mask(day, 8.0, 10.5)
        high = s.mask(day, 10.5, 16.5)
        down = s.mask(day, 16.5, 19.0)
        h = s.hour
        rh = np.where(up, 46.0 + (h - 8.0) / 2.5 * 3.2, rh)
        rh = np.where(high, np.maximum(52.0 + 5.0 * np.sin(math.pi * (h - 10.5) / 6.0) + noise(s, 0.3), 50.6), rh)
        rh = np.where(down, 49.0 - (h - 16.5) * 1.6, rh)
    dh_kw += kw
    point(d, "vault_rh", "Number", "%RH", ["zone", "air", "humidity", "sensor"], rh)
    point(d, "vault_rh_sp", "Number", "%RH", ["zone", "air", "humidity", "sp"], np.full(s.n, 50.0))
    point(d, "vault_temp", "Number", "°C", ["zone", "air", "temp", "sensor"], 18.0 + noise(s, 0.15))
    point(d, "regen_temp", "Number", "°C", ["regen", "air", "temp", "sensor"], regen)
    point(d, "power", "Number", "kW", ["elec", "power", "sensor"], kw)
    point(d, "run", "Bool", None, ["run", "sensor"], np.ones(s.n, bool))

lg = equip(s, "e04", "lighting_gallery", ["luminaire"])
shoot = s.mask(D(2027, 3, 24), 14.0, 16.0)  # a photo shoot, Wed 24 Mar 14:00-16:00
late = s.mask(D(2027, 3, 18), 17.0, 20.0)  # a late opening, Thu 18 Mar to 20:00
lux = np.where(open_h | late, np.minimum(42.0 + noise(s, 1.5), 46.5), np.maximum(1.5 + noise(s, 0.3), 0.0))
lux = np.where(shoot, 185.0 + noise(s, 5.0), lux)
point(lg, "illuminance", "Number", "lx", ["light", "illuminance", "sensor"], lux)
point(lg, "dimming_level", "Number", "%", ["light", "cmd"], np.where(shoot, 100.0, np.where(open_h | late, 60.0, 0.0)))
watts = np.where(open_h | late, 1800.0 + noise(s, 30.0), 45.0 + noise(s, 3.0))
watts = np.where(shoot, 3000.0 + noise(s, 40.0), watts)
point(lg, "power", "Number", "W", ["elec", "power", "sensor"], watts)

pv = equip(s, "e05", "solar_inverter", ["inverter", "pv"])
cloud = 0.9 + 0.1 * rng.random(23)
cloud[(D(2027, 3, 23) - START).days] = 0.42  # an overcast Tuesday
sun = np.clip(np.sin(math.pi * (s.hour - 6.25) / 12.0), 0.0, None) ** 1.2
ac_kw = np.where(sun > 0, np.maximum(32.0 * sun * cloud[s.day_i] + noise(s, 0.4), 0.0), 0.0)
point(pv, "ac_power", "Number", "kW", ["elec", "power", "sensor"], ac_kw)
point(pv, "energy_total", "Number", "kWh", ["elec", "energy", "sensor"], register(s, ac_kw, 212_480.0))
point(
    pv, "dc_voltage", "Number", "V", ["dc", "elec", "volt", "sensor"], np.where(ac_kw > 0.5, 610.0 + noise(s, 8.0), 0.0)
)

bt = equip(s, "e06", "battery_bank", ["battery"])
soc = np.clip(94.0 + daily(s, 4.0, 15.0) + noise(s, 0.3), 85.0, 100.0)
i0 = s.at(OUTAGE, 18.0)
start_soc = soc[i0 - 1]
for k in range(12):  # 18:00 .. 20:45: discharging down to the one low, 41.3 % at 20:45
    soc[i0 + k] = start_soc - (start_soc - 41.3) * (k + 1) / 12
for k in range(12, 40):  # from 21:00: recharging from the grid until back on the normal curve
    soc[i0 + k] = min(soc[i0 + k], 41.3 + 1.7 * (k - 11))
point(bt, "state_of_charge", "Number", "%", ["dc", "elec", "stateOfCharge", "sensor"], soc)
point(
    bt,
    "battery_temp",
    "Number",
    "°C",
    ["battery", "temp", "sensor"],
    24.0 + noise(s, 0.4),
    keep_gap(s, D(2027, 3, 18), 12.0),
)
bt_kw = np.where(s.hours(9.0, 16.0), -2.0, 1.0) + noise(s, 0.3)
bt_kw = np.where(outage, 28.0 + noise(s, 1.0), bt_kw)
point(bt, "dc_power", "Number", "kW", ["dc", "elec", "power", "sensor"], bt_kw)

dg = equip(s, "e07", "dg_set", ["generator", "diesel"])
dg_run = s.mask(OUTAGE, 18.25, 21.0) | ((s.wday == 4) & s.hours(11.0, 11.5))  # the outage; a Friday test run
dg_kw = np.where(outage & dg_run, 36.0 + noise(s, 2.0), np.where(dg_run, 12.0 + noise(s, 0.8), 0.0))
point(dg, "output_power", "Number", "kW", ["elec", "power", "sensor"], dg_kw)
fuel = np.zeros(s.n)
f = 78.0
refill_i = s.at(D(2027, 3, 22), 10.0)
for i in range(s.n):
    if dg_run[i]:
        f -= 0.6
    if i == refill_i:
        f = 95.0
    fuel[i] = f
point(dg, "fuel_level", "Number", "%", ["diesel", "level", "sensor"], fuel + noise(s, 0.05))
point(dg, "running", "Bool", None, ["run", "sensor"], dg_run)

mt = equip(s, "e08", "main_meter", ["elecMeter", "meter", "elec"])
grid_kw = 25.0 + 18.0 * open_h + dh_kw + watts / 1000.0 - ac_kw * 0.6 + noise(s, 1.0)
grid_kw = np.where(outage, 0.0, np.maximum(grid_kw, 2.0))
point(mt, "kw", "Number", "kW", ["elec", "power", "sensor"], grid_kw)
point(mt, "kwh", "Number", "kWh", ["elec", "energy", "sensor"], register(s, grid_kw, 1_045_310.0))
point(mt, "voltage_ll", "Number", "V", ["elec", "volt", "sensor"], np.where(outage, 0.0, 398.0 + noise(s, 4.0)))
point(mt, "frequency", "Number", "Hz", ["elec", "freq", "sensor"], np.where(outage, 0.0, 50.0 + noise(s, 0.08)))

pt = equip(s, "e09", "pani_tanki", ["tank", "water"])
point(pt, "level", "Number", "%", ["water", "level", "sensor"], 65.0 + daily(s, 12.0, 6.0) + noise(s, 1.0))

ws = equip(s, "e10", "mausam_station", ["weatherStation"])
oat = 16.5 + 0.1 * s.day_i + daily(s, 8.5, 14.0) + noise(s, 0.4)
point(ws, "outside_temp", "Number", "°C", ["outside", "air", "temp", "sensor"], oat)
point(
    ws,
    "outside_rh",
    "Number",
    "%RH",
    ["outside", "air", "humidity", "sensor"],
    55.0 - daily(s, 22.0, 14.0) + noise(s, 2.0),
    keep_gap(s, D(2027, 3, 15), 2.0),
)
pm = 55.0 + 25.0 * np.exp(-(((s.hour - 8.0) / 1.5) ** 2)) + 20.0 * np.exp(-(((s.hour - 19.0) / 2.0) ** 2))
pm = np.maximum(pm + noise(s, 6.0), 8.0)
pm = pm + bump(s, D(2027, 3, 20), 6.0, 8.25, 10.5, 230.0)  # forest-fire smoke: the one peak, Sat 20 Mar 08:15
pm[s.at(D(2027, 3, 20), 8.25)] += 6.0
point(ws, "pm25", "Number", "µg/m³", ["outside", "air", "pm25", "sensor"], pm)

# ---------------------------------------------------------------------------------------------------------------


if __name__ == "__main__":
    G.write(HERE, SITES, sort_equips=False)
