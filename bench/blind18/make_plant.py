"""Make the blind-18 plant: plant.json (Haystack 4 JSON grid) and plant.csv.gz (15-minute histories).

Three sites of new kinds, Thu 2026-10-01 00:00 to Tue 2026-11-03 00:00 site-local (33 days):
  Aliaga Steel Mini-Mill       an electric arc furnace melt shop on the Aegean coast: the EAF and the ladle furnace
                               (kW, MWh registers), the continuous caster (t/h, a tonnage register), the baghouse and
                               its two ID fans, the stack CEMS (dust, CO, NOx in mg/Nm³), the furnace cooling-water
                               circuit (terse SCADA names, a supply setpoint reset on 15 Oct) with two cooling towers
                               and three pumps, three air compressors, the 154 kV main incomer (MWh register)
                               (Europe/Istanbul, SI; +03:00 all along)
  Kedron Park Shopping Centre  a regional shopping centre in Brisbane: three chillers, six AHUs (terse BMS point names),
                               five tenancy sub-meters, four escalators, three car park exhaust fans and the car park
                               air-quality monitors (CO, NO2), a rooftop PV array, the main switchboard with a signed
                               net grid power (+ import, - export) (Australia/Brisbane, SI; +10:00 all along, no DST)
  Skierniewice Mushroom Farm   a mushroom farm in central Poland: six growing rooms in staggered crops (air temp, CO2
                               and their setpoints, humidity, compost temp, irrigation), a cook-out steam generator and
                               an LTHW boiler, two chillers, a weather station, the electricity, gas and water meters
                               (Europe/Warsaw, SI; +02:00, clocks go BACK on Sun 25 Oct 2026 03:00 -> 02:00: a 25-hour
                               day, then +01:00)

Fixed seed; the same run gives byte-identical files (gzip mtime 0, no file name in the header).
Usage: python bench/blind18/make_plant.py
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

SEED = 20261102
START = dt.date(2026, 10, 1)
END = dt.date(2026, 11, 3)
D = dt.date


G = Plant(SEED, START, END)
Site, noise, clipn, per_day, equip, point = G.site, G.noise, G.clipn, G.per_day, G.equip, G.point

als = Site("als", "Aliaga Steel Mini-Mill", "Europe/Istanbul", "Istanbul", "Aliaga")
kps = Site("kps", "Kedron Park Shopping Centre", "Australia/Brisbane", "Brisbane", "Brisbane")
smf = Site("smf", "Skierniewice Mushroom Farm", "Europe/Warsaw", "Warsaw", "Skierniewice")
SITES = [als, kps, smf]


def since(site, d0: dt.date, h0: float) -> np.ndarray:
    """Samples from local (d0, h0) to the end of the data."""
    return site.span(d0, h0, END, 0.0)


def ramp_between(site, d0: dt.date, h0: float, d1: dt.date, h1: float) -> np.ndarray:
    """0 before local (d0, h0), rising linearly to 1 at (d1, h1), 1 after."""
    a, b = site.secs[site.at(d0, h0)], site.secs[site.at(d1, h1)]
    return np.clip((site.secs - a) / (b - a), 0.0, 1.0)


# ----- Aliaga Steel Mini-Mill (Istanbul, SI) -----------------------------------------------------------------------
s = als
OCT7, OCT15, OCT19, OCT20 = D(2026, 10, 7), D(2026, 10, 15), D(2026, 10, 19), D(2026, 10, 20)
OCT21, OCT22, OCT26, OCT30 = D(2026, 10, 21), D(2026, 10, 22), D(2026, 10, 26), D(2026, 10, 30)
# the fortnightly maintenance stop: Wed 7 and Wed 21 Oct 06:00-14:00 (electrodes, shell, caster segments); the melt
# shop and the caster are down together
stop = s.mask(OCT7, 6.0, 14.0) | s.mask(OCT21, 6.0, 14.0)
prod = ~stop
# from Mon 26 Oct the furnace runs a hot heel with more chemical energy: about 56 MW a quarter-hour instead of 62
hot_heel = since(s, OCT26, 0.0)
eaf = np.where(prod, np.where(hot_heel, 56_000.0, 62_000.0) + clipn(s, 3_500.0, 8_000.0), 0.0)
lf = np.where(prod, 11_000.0 + clipn(s, 1_500.0, 3_000.0), 0.0)
# Fri 30 Oct: the EAF's own highest quarter-hour at 03:30 (a heavy charge bored in while the LF idles between heats);
# the site's maximum demand at 14:15 (a heavy heat while the LF superheats a ladle for a sequence restart)
put(s, eaf, OCT30, {3.5: 68_800.0, 14.25: 66_500.0})
put(s, lf, OCT30, {3.5: 1_500.0, 14.25: 14_600.0})
cast = np.where(prod, 158.0 + clipn(s, 2.0, 4.5), 0.0)

e = equip(s, "e01", "Electric Arc Furnace", ["furnace", "arcFurnace", "elec"])
point(e, "Active Power", "Number", "kW", ["elec", "power", "sensor"], eaf)
point(e, "Energy", "Number", "MWh", ["elec", "energy", "import", "sensor"], register(s, eaf, 402_118.0, 0.001))
point(e, "Oxygen Flow", "Number", "Nm³/h", ["oxygen", "flow", "sensor"], np.where(prod, 2_900.0 + clipn(s, 180.0,
      450.0), 0.0))  # fmt: skip
point(e, "Natural Gas Flow", "Number", "Nm³/h", ["naturalGas", "flow", "sensor"], np.where(prod, 420.0 + clipn(s,
      25.0, 60.0), 0.0))  # fmt: skip
point(e, "Power On", "Bool", None, ["elec", "run", "sensor"], prod)
point(e, "Transformer Oil Temp", "Number", "°C", ["transformer", "oil", "temp", "sensor"],
      np.where(prod, 61.0, 38.0) + noise(s, 0.8))  # fmt: skip

e = equip(s, "e02", "Ladle Furnace", ["furnace", "ladleFurnace", "elec"])
point(e, "Active Power", "Number", "kW", ["elec", "power", "sensor"], lf)
point(e, "Transformer Oil Temp", "Number", "°C", ["transformer", "oil", "temp", "sensor"],
      np.where(prod, 52.0, 36.0) + noise(s, 0.8))  # fmt: skip

e = equip(s, "e03", "Continuous Caster", ["caster", "steel"])
point(e, "Casting Rate", "Number", "t/h", ["steel", "flow", "sensor"], cast)
point(e, "Cast Tonnage", "Number", "t", ["steel", "mass", "sensor"], register(s, cast, 1_655_420.0))
point(e, "Mould Water Flow", "Number", "m³/h", ["water", "flow", "sensor"], np.where(prod, 420.0, 160.0)
      + noise(s, 3.0))  # fmt: skip
point(e, "Mould Water Outlet Temp", "Number", "°C", ["water", "leaving", "temp", "sensor"],
      np.where(prod, 42.0, 31.0) + noise(s, 0.4))  # fmt: skip

# the baghouse: Thu 22 Oct 10:45 a bag row in compartment 3 bursts; the compartment is isolated at 14:15
burst = s.mask(OCT22, 10.75, 14.25)
e = equip(s, "e04", "Baghouse", ["baghouse", "filter", "exhaust"])
point(e, "Differential Pressure", "Number", "Pa", ["exhaust", "pressure", "delta", "sensor"],
      np.where(burst, 1_140.0, np.where(prod, 1_450.0, 620.0)) + noise(s, 30.0))  # fmt: skip
point(e, "Inlet Gas Temp", "Number", "°C", ["exhaust", "entering", "temp", "sensor"],
      np.where(prod, 108.0, 45.0) + noise(s, 3.0))  # fmt: skip

idf_kw = []
for i, (kw0, spd0) in enumerate(((2_450.0, 86.0), (2_150.0, 78.0)), start=1):
    e = equip(s, f"e{4 + i:02d}", f"ID Fan {i}", ["fan", "exhaust"])
    kw = np.where(prod, kw0, 700.0) + noise(s, 35.0)
    idf_kw.append(kw)
    point(e, "Motor Power", "Number", "kW", ["elec", "power", "sensor"], kw)
    point(e, "Speed", "Number", "%", ["speed", "sensor"], np.where(prod, spd0, 45.0) + noise(s, 0.6))
    point(e, "Bearing Temp", "Number", "°C", ["bearing", "temp", "sensor"], 64.0 + 4.0 * i + noise(s, 0.6))
    point(e, "Vibration", "Number", "mm/s", ["vibration", "sensor"], 2.1 + 0.5 * i + clipn(s, 0.2, 0.5))

# the stack CEMS: an analyser-cabinet fault Tue 20 Oct 09:00-13:00 leaves the dust, CO, NOx and O2 records empty
cems_gap = keep_gap(s, OCT20, 9.0, 4.0)
dust = np.where(prod, 1.6 + clipn(s, 0.35, 0.9), 0.6 + clipn(s, 0.1, 0.2))
put(s, dust, OCT22, {10.5: 3.4, 10.75: 6.1, 11.0: 8.9, 11.25: 11.6, 11.5: 13.2, 11.75: 12.4, 12.0: 12.9, 12.25: 11.8,
                     12.5: 10.7, 12.75: 10.1, 13.0: 9.4, 13.25: 8.8, 13.5: 8.1, 13.75: 7.2, 14.0: 6.3, 14.25: 3.9,
                     14.5: 2.6})  # fmt: skip
e = equip(s, "e07", "Stack CEMS", ["stack", "emissions", "exhaust"])
point(e, "Dust", "Number", "mg/Nm³", ["exhaust", "dust", "particulate", "sensor"], dust, cems_gap)
point(e, "CO", "Number", "mg/Nm³", ["exhaust", "co", "sensor"], np.where(prod, 140.0 + clipn(s, 30.0, 75.0),
      18.0 + clipn(s, 3.0, 6.0)), cems_gap)  # fmt: skip
point(e, "NOx", "Number", "mg/Nm³", ["exhaust", "nox", "sensor"], np.where(prod, 95.0 + clipn(s, 15.0, 35.0),
      12.0 + clipn(s, 2.0, 4.0)), cems_gap)  # fmt: skip
point(e, "O2", "Number", "%", ["exhaust", "o2", "sensor"], np.where(prod, 15.6, 20.2) + clipn(s, 0.3, 0.7), cems_gap)
point(e, "Flue Gas Temp", "Number", "°C", ["exhaust", "temp", "sensor"], np.where(prod, 92.0, 38.0) + noise(s, 2.0))
point(e, "Flue Gas Flow", "Number", "Nm³/h", ["exhaust", "flow", "sensor"],
      np.where(prod, 1_180_000.0, 420_000.0) + noise(s, 15_000.0))  # fmt: skip

# the cooling towers: Mon 19 Oct 13:00-17:30 Cooling Tower 2's fan VFD faults (fan stopped)
ct_fault = s.mask(OCT19, 13.0, 17.5)
ct_kw = []
for i in (1, 2):
    e = equip(s, f"e{7 + i:02d}", f"Cooling Tower {i}", ["coolingTower"])
    spd = np.where(prod, 72.0, 40.0) + noise(s, 1.5)
    if i == 2:
        spd = np.where(ct_fault, 0.0, spd)
    kw = np.where(spd > 0, 75.0 * (spd / 100.0) ** 3 + 1.5, 0.0)
    ct_kw.append(kw)
    point(e, "Fan Power", "Number", "kW", ["fan", "elec", "power", "sensor"], kw)
    point(e, "Fan Speed", "Number", "%", ["fan", "speed", "sensor"], spd)

# the furnace cooling-water circuit (SCADA tags): the supply setpoint is reset from 32 to 30 degC on Thu 15 Oct 08:00;
# Mon 19 Oct, with Cooling Tower 2 down, the supply runs above it 13:15-17:00 (16 samples, 4 h), at most 31.6 degC
cws_sp = np.where(since(s, OCT15, 8.0), 30.0, 32.0)
cws = cws_sp + np.where(prod, -0.9, -2.4) + clipn(s, 0.2, 0.45)
put(s, cws, OCT19, {13.0: 29.4, 13.25: 30.3, 13.5: 30.8, 13.75: 31.1, 14.0: 31.3, 14.25: 31.5, 14.5: 31.4, 14.75: 31.6,
                    15.0: 31.5, 15.25: 31.3, 15.5: 31.4, 15.75: 31.2, 16.0: 31.0, 16.25: 30.9, 16.5: 30.6, 16.75: 30.4,
                    17.0: 30.2, 17.25: 29.6, 17.5: 29.3})  # fmt: skip
e = equip(s, "e10", "Furnace Cooling Circuit", ["water", "coolingWater", "plant"])
point(e, "CWS-T", "Number", "°C", ["water", "supply", "temp", "sensor"], cws)
point(e, "CWS-T SP", "Number", "°C", ["water", "supply", "temp", "sp"], cws_sp)
point(e, "CWR-T", "Number", "°C", ["water", "return", "temp", "sensor"], cws + np.where(prod, 8.5, 1.5)
      + noise(s, 0.2))  # fmt: skip
point(e, "CW-F", "Number", "m³/h", ["water", "flow", "sensor"], 2_400.0 + noise(s, 15.0))

pump_kw = []
for i in (1, 2, 3):
    e = equip(s, f"e{10 + i:02d}", f"CW Pump {i}", ["pump", "water"])
    run = np.ones(s.n, bool) if i < 3 else np.zeros(s.n, bool)
    kw = np.where(run, 110.0 + noise(s, 1.5), 0.0)
    pump_kw.append(kw)
    point(e, "Motor Power", "Number", "kW", ["elec", "power", "sensor"], kw)
    point(e, "Run Status", "Bool", None, ["run", "sensor"], run)

ac_kw = []
for i, (kw0, fad0) in enumerate(((78.0, 13.2), (128.0, 19.0), (205.0, 37.5)), start=1):
    e = equip(s, f"e{13 + i:02d}", f"Air Compressor {i}", ["compressor", "air"])
    kw = np.where(prod, kw0, 0.55 * kw0) + noise(s, 0.02 * kw0)
    fad = np.where(prod, fad0, 0.5 * fad0) + noise(s, 0.01 * fad0)
    ac_kw.append(kw)
    point(e, "Motor Power", "Number", "kW", ["elec", "power", "sensor"], kw)
    point(e, "Free Air Delivery", "Number", "m³/min", ["air", "flow", "sensor"], fad)
    point(e, "Specific Power", "Number", "kW/(m³/min)", ["air", "efficiency", "sensor"], kw / fad)
    point(e, "Discharge Pressure", "Number", "bar", ["air", "discharge", "pressure", "sensor"], 7.2 + noise(s, 0.05))

base = 2_600.0 + np.where(prod, 900.0, 300.0) + daily(s, 250.0, 14.0) + noise(s, 120.0)
incomer = eaf + lf + sum(idf_kw) + sum(ct_kw) + sum(pump_kw) + sum(ac_kw) + base
e = equip(s, "e17", "Main Incomer", ["elecMeter", "meter", "elec", "siteMeter"])
point(e, "Active Power", "Number", "kW", ["elec", "power", "sensor"], incomer)
point(e, "Energy", "Number", "MWh", ["elec", "energy", "import", "sensor"], register(s, incomer, 1_284_330.0, 0.001))
point(e, "Power Factor", "Number", "pf", ["elec", "pf", "sensor"], 0.93 + clipn(s, 0.008, 0.02))


# ----- Kedron Park Shopping Centre (Brisbane, SI) ------------------------------------------------------------------
s = kps
h, wd = s.hour, s.wday
OCT26K, OCT29K, OCT30K = D(2026, 10, 26), D(2026, 10, 29), D(2026, 10, 30)
# centre trading: Mon-Wed and Fri 09:00-17:30, Thu late night to 21:00, Sat 09:00-17:00, Sun 10:00-16:00
op = np.array([{6: 10.0}.get(w, 9.0) for w in wd])
cl = np.array([{3: 21.0, 5: 17.0, 6: 16.0}.get(w, 17.5) for w in wd])
trading = (h >= op) & (h < cl)
hvac_on = (h >= np.where(wd == 6, op - 0.5, op - 1.0)) & (h < cl + 0.5)
precool = (wd < 6) & (h >= 6.0) & (h < 8.0)  # the chillers pre-cool the malls on Mon-Sat mornings
occ = np.where(trading, 0.55 + 0.45 * np.sin(math.pi * np.clip((h - op) / (cl - op), 0.0, 1.0)), 0.0)
t_out = 21.0 + daily(s, 5.0, 14.5) + per_day(s, 1.5) + noise(s, 0.3)

ch_kw = []
for i in (1, 2, 3):
    e = equip(s, f"e{i:02d}", f"Chiller {i}", ["chiller"])
    if i == 1:
        kw = np.where(hvac_on, 250.0 + 14.0 * (t_out - 20.0) + 80.0 * occ, np.where(precool, 330.0, 0.0))
    elif i == 2:
        kw = np.where(hvac_on & (t_out > 24.0), 170.0 + 10.0 * (t_out - 24.0) + 60.0 * occ, 0.0)
    else:
        kw = np.zeros(s.n)
    kw = np.where(kw > 0, kw + noise(s, 5.0), 0.0)
    ch_kw.append(kw)
    lt = np.where(kw > 0, 6.6 + clipn(s, 0.12, 0.3), 12.5 + daily(s, 0.8, 15.0) + noise(s, 0.1))
    point(e, "CHW Leaving Temp", "Number", "°C", ["chilled", "water", "leaving", "temp", "sensor"], lt)
    point(e, "CHW Leaving Temp SP", "Number", "°C", ["chilled", "water", "leaving", "temp", "sp"], np.full(s.n, 6.5))
    point(e, "Electrical Power", "Number", "kW", ["elec", "power", "sensor"], kw)

# the AHUs: AHU-01 (food court) runs 06:30-21:30 daily, the others with the centre; AHU-04's chilled-water valve
# actuator fails Mon 26 Oct 14:00 and is replaced Fri 30 Oct 12:00: its supply air drifts 6.5 -> 9 K above setpoint
ahu_fault = s.span(OCT26K, 14.0, OCT30K, 12.0)
ahu_ramp = ramp_between(s, OCT26K, 14.0, OCT30K, 12.0)
fan_sum = np.zeros(s.n)
for i, sp0 in enumerate((14.0, 14.5, 13.5, 14.0, 15.5, 14.0), start=1):
    e = equip(s, f"e{3 + i:02d}", f"AHU-{i:02d}", ["ahu"])
    on = s.hours(6.5, 21.5) if i == 1 else hvac_on
    ambient = 24.0 + daily(s, 1.0, 15.0) + noise(s, 0.3)
    sat = np.where(on, sp0 + 0.2 + clipn(s, 0.25, 0.6), ambient)
    vlv = np.where(on, np.clip(35.0 + 2.5 * (t_out - 20.0) + 20.0 * occ + noise(s, 3.0), 5.0, 100.0), 0.0)
    if i == 4:
        sat = np.where(on & ahu_fault, sat + 6.5 + 2.5 * ahu_ramp, sat)
        vlv = np.where(on & ahu_fault, 100.0, vlv)
    fan = np.where(on, 22.0 + 6.0 * occ + noise(s, 0.5), 0.0)
    fan_sum += fan
    point(e, "SAT", "Number", "°C", ["discharge", "air", "temp", "sensor"], sat)
    point(e, "SAT SP", "Number", "°C", ["discharge", "air", "temp", "sp"], np.full(s.n, sp0))
    point(e, "RA CO2", "Number", "ppm", ["return", "air", "co2", "sensor"], np.where(on, 480.0 + 380.0 * occ,
          430.0) + noise(s, 12.0))  # fmt: skip
    point(e, "SF kW", "Number", "kW", ["discharge", "fan", "elec", "power", "sensor"], fan)
    point(e, "CHW VLV", "Number", "%", ["chilled", "water", "valve", "cmd"], vlv)

# tenancy sub-meters
sm_open = (h >= np.where(wd == 6, 8.0, 7.0)) & (h < np.where(wd == 6, 20.0, 22.0))
fc_open = (h >= np.where(wd == 6, 9.0, 6.5)) & (h < np.where(wd == 6, 17.0, np.where(wd == 3, 21.5, 21.0)))
tenants = {
    "Supermarket": 190.0 + daily(s, 15.0, 15.0) + 210.0 * sm_open,
    "Department Store": np.where(trading | (hvac_on & (h >= op - 0.5)), 320.0 + 30.0 * occ, 55.0),
    "Cinema": np.where(
        s.hours(10.0, 23.5), np.where(s.hours(18.0, 23.0), 520.0, np.where(wd >= 5, 400.0, 150.0)), 30.0
    ),  # fmt: skip
    "Food Court": np.where(fc_open, 250.0 + 40.0 * occ, 35.0),
    "Specialty Retail": np.where(trading, 230.0 + 20.0 * occ, 40.0),
}
tenant_sum = np.zeros(s.n)
for i, (name, kw) in enumerate(tenants.items(), start=1):
    e = equip(s, f"e{9 + i:02d}", f"{name} Sub-Meter", ["elecMeter", "meter", "elec", "submeter", "tenant"])
    kw = kw + noise(s, 6.0)
    tenant_sum += kw
    point(e, "Active Power", "Number", "kW", ["elec", "power", "sensor"], kw)
    point(
        e, "Energy", "Number", "kWh", ["elec", "energy", "import", "sensor"], register(s, kw, 310_000.0 * i + 4_518.0)
    )

esc_sum = np.zeros(s.n)
esc_run = (h >= op - 0.5) & (h < cl + 0.25)
for i, f in enumerate((0.8, 0.95, 0.7, 0.35), start=1):
    e = equip(s, f"e{14 + i:02d}", f"ESC-{i:02d}", ["escalator", "elec"])
    kw = np.where(esc_run, 2.4 + 7.5 * f * occ + noise(s, 0.3), 0.0)
    esc_sum += kw
    point(e, "Motor Power", "Number", "kW", ["elec", "power", "sensor"], kw)
    point(e, "Run Status", "Bool", None, ["run", "sensor"], esc_run)

# the car park: Thu 29 Oct (late-night trading) CP Exhaust Fan 2 trips 18:00-21:30; the other two run flat out and CO
# on level B2 rises above 30 ppm 19:00-21:00 (47.9 ppm at 19:45)
trip = s.mask(OCT29K, 18.0, 21.5)
cp_kw = np.zeros(s.n)
for i in (1, 2, 3):
    e = equip(s, f"e{18 + i:02d}", f"CP Exhaust Fan {i}", ["fan", "exhaust", "carPark"])
    spd = np.where(hvac_on | trading, 35.0 + 25.0 * occ, 20.0) + noise(s, 1.0)
    spd = np.where(trip, 0.0, spd) if i == 2 else np.where(s.mask(OCT29K, 18.5, 21.75), 100.0, spd)
    kw = np.where(spd > 0, 45.0 * (spd / 100.0) ** 3 + 0.8, 0.0)
    cp_kw += kw
    point(e, "Speed", "Number", "%", ["fan", "speed", "sensor"], spd)
    point(e, "Motor Power", "Number", "kW", ["elec", "power", "sensor"], kw)
    point(e, "Run Status", "Bool", None, ["run", "sensor"], spd > 0)

for lvl in ("B1", "B2"):
    e = equip(s, f"e{22 if lvl == 'B1' else 23}", f"Car Park {lvl}", ["carPark", "airQuality"])
    co = 3.5 + 10.0 * occ + clipn(s, 1.2, 3.0)
    no2 = 0.08 + 0.35 * occ + clipn(s, 0.03, 0.08)
    if lvl == "B2":
        put(s, co, OCT29K, {18.0: 14.0, 18.25: 19.1, 18.5: 24.0, 18.75: 28.5, 19.0: 33.2, 19.25: 38.6, 19.5: 44.1,
                            19.75: 47.9, 20.0: 45.2, 20.25: 41.8, 20.5: 37.5, 20.75: 33.9, 21.0: 31.2, 21.25: 27.4,
                            21.5: 21.0, 21.75: 15.2})  # fmt: skip
        no2 = no2 + 1.4 * np.where(s.mask(OCT29K, 18.0, 22.0), np.sin(math.pi * np.clip((h - 18.0) / 4.0, 0, 1)), 0)
    point(e, "CO", "Number", "ppm", ["air", "co", "sensor"], co)
    point(e, "NO2", "Number", "ppm", ["air", "no2", "sensor"], no2)
    point(e, "Air Temp", "Number", "°C", ["air", "temp", "sensor"], 24.0 + daily(s, 2.5, 15.0) + noise(s, 0.3))

# the rooftop PV (about 2 MWp): clear on Sundays; the centre exports before it opens on Sunday mornings
cloud = np.where(wd == 6, 1.0, np.clip(0.9 + per_day(s, 0.06), 0.72, 1.0))
shape = np.clip(np.sin(math.pi * (h - 5.0) / 13.5), 0.0, None) ** 1.3 * ((h > 5.0) & (h < 18.5))
pv = 1_600.0 * shape * cloud * (1.0 + clipn(s, 0.02, 0.05))
e = equip(s, "e24", "PV Array", ["pv", "solar", "elec"])
point(e, "Active Power", "Number", "kW", ["elec", "power", "sensor"], pv)
point(e, "Energy", "Number", "kWh", ["elec", "energy", "sensor"], register(s, pv, 1_905_233.0))

load = tenant_sum + fan_sum + sum(ch_kw) + esc_sum + cp_kw + np.where(hvac_on, 130.0, 45.0) + noise(s, 10.0)
net = load - pv
e = equip(s, "e25", "Main Switchboard", ["elecMeter", "meter", "elec", "siteMeter"])
point(e, "Net Grid Power", "Number", "kW", ["elec", "power", "net", "sensor"], net,
      desc="Signed: + importing from the grid, - exporting to the grid (rooftop PV surplus)")  # fmt: skip
point(e, "Import Energy", "Number", "kWh", ["elec", "energy", "import", "sensor"],
      register(s, np.maximum(net, 0.0), 14_220_961.0))  # fmt: skip
point(e, "Export Energy", "Number", "kWh", ["elec", "energy", "export", "sensor"],
      register(s, np.maximum(-net, 0.0), 402_117.0))  # fmt: skip
point(e, "Power Factor", "Number", "pf", ["elec", "pf", "sensor"], 0.97 + clipn(s, 0.005, 0.012))


# ----- Skierniewice Mushroom Farm (Warsaw, SI) ---------------------------------------------------------------------
s = smf
h = s.hour
OCT25W, OCT27W, OCT28W, OCT30W = D(2026, 10, 25), D(2026, 10, 27), D(2026, 10, 28), D(2026, 10, 30)
# a cold front arrives Sun 25 Oct from 15:00: 7 K colder over six hours, and stays
t_out = 10.0 + daily(s, 4.0, 14.5) + per_day(s, 1.0) + noise(s, 0.25)
t_out = t_out - 7.0 * ramp_between(s, OCT25W, 15.0, OCT25W, 21.0)

e = equip(s, "e20", "Weather Station", ["weatherStation"])
point(e, "Outside Air Temp", "Number", "°C", ["outside", "air", "temp", "sensor"], t_out)
point(e, "Outside Humidity", "Number", "%RH", ["outside", "air", "humidity", "sensor"],
      np.clip(82.0 - daily(s, 10.0, 14.5) + noise(s, 2.0), 30.0, 100.0))  # fmt: skip

# a crop: fill (1 d), case run (8 d), airing / pinning (4 d), 1st flush (6 d), 2nd flush (7 d less 2 h), cook-out
# (06:00-18:00), empty, the next fill; every stage starts at 08:00 but the cook-out's. The rooms' airing days:
AIRING = {1: D(2026, 10, 21), 2: D(2026, 10, 15), 3: D(2026, 10, 4), 4: D(2026, 10, 27), 5: D(2026, 10, 22),
          6: D(2026, 10, 13)}  # fmt: skip
#            air SP, CO2 SP, RH,  irrigation (L/h a day's mean), compost above air
STAGE = {"fill": (20.0, 5000.0, 92.0, 0.0, 1.0), "case": (24.0, 6000.0, 95.0, 20.0, 2.0),
         "air": (17.5, 1200.0, 90.0, 6.0, 1.8), "fl1": (17.5, 1100.0, 88.0, 28.0, 1.8),
         "fl2": (18.0, 1100.0, 87.0, 40.0, 1.8), "cook": (70.0, 1100.0, 99.0, 0.0, 0.0),
         "empty": (20.0, 1100.0, 75.0, 0.0, 0.0)}  # fmt: skip


def stages(site, airing: dt.date) -> list[str]:
    """Each sample's crop stage for a room whose airing starts at 08:00 on `airing` (a cycle of 28 days: the day of the
    cycle c runs from -9, the fill, to 18, the day after the cook-out)."""
    out = []
    for t in site.local:
        c = (t.date() - airing).days % 28
        c = c if c <= 18 else c - 28
        am = t.hour + t.minute / 60 < 8.0
        if c == -9:
            out.append("empty" if am else "fill")
        elif c == -8:
            out.append("fill" if am else "case")
        elif c < 0 or (c == 0 and am):
            out.append("case")
        elif c < 4 or (c == 4 and am):
            out.append("air")
        elif c < 10 or (c == 10 and am):
            out.append("fl1")
        elif c < 17:
            out.append("fl2")
        elif c == 17:
            hh = t.hour + t.minute / 60
            out.append("fl2" if hh < 6.0 else "cook" if hh < 18.0 else "empty")
        else:
            out.append("empty")
    return out


cooking = np.zeros(s.n, bool)
room_kw = np.zeros(s.n)
water_sum = np.zeros(s.n)
watering = s.hours(8.0, 14.0)
for i in range(1, 7):
    st = stages(s, AIRING[i])
    air_sp = np.array([STAGE[x][0] for x in st])
    co2_sp = np.array([STAGE[x][1] for x in st])
    rh_sp = np.array([STAGE[x][2] for x in st])
    irr_lvl = np.array([STAGE[x][3] for x in st])
    comp_off = np.array([STAGE[x][4] for x in st])
    cook = np.array([x == "cook" for x in st])
    cooking |= cook
    # the room air follows its setpoint (faster when cooling, slower when steaming up)
    tgt = np.where(cook, air_sp + 0.3, air_sp - 0.35)
    air = np.empty(s.n)
    cur = tgt[0]
    for k in range(s.n):
        cur += (0.12 if tgt[k] > cur + 5.0 else 0.3) * (tgt[k] - cur)
        air[k] = cur
    air = air + clipn(s, 0.1, 0.22)
    if i == 6:  # the cook-out's overshoot: 71.9 degC at 11:45
        put(s, air, OCT30W, {11.75: 71.9})
    compost = lag(air, 0.04) + lag(comp_off, 0.05) + noise(s, 0.05)
    co2 = lag(co2_sp - 150.0 + clipn(s, 60.0, 130.0), 0.3)
    if i == 4:  # Wed 28 Oct: the fresh-air damper actuator sticks 09:00-15:00 (above the SP 09:15-14:45, 5.75 h)
        put(s, co2, OCT28W, {9.0: 1_108.0, 9.25: 1_290.0, 9.5: 1_480.0, 9.75: 1_705.0, 10.0: 1_930.0, 10.25: 2_120.0,
                             10.5: 2_280.0, 10.75: 2_410.0, 11.0: 2_505.0, 11.25: 2_570.0, 11.5: 2_615.0,
                             11.75: 2_640.0, 12.0: 2_650.0, 12.25: 2_610.0, 12.5: 2_540.0, 12.75: 2_450.0,
                             13.0: 2_310.0, 13.25: 2_140.0, 13.5: 1_950.0, 13.75: 1_760.0, 14.0: 1_580.0,
                             14.25: 1_420.0, 14.5: 1_310.0, 14.75: 1_240.0, 15.0: 1_120.0})  # fmt: skip
    irr = np.where(watering, 4.0 * irr_lvl, 0.0) * (1.0 + clipn(s, 0.1, 0.25))
    water_sum += irr
    room_kw += np.where(cook, 4.0, 11.0) + 0.4 * (air_sp < 19.0)
    e = equip(s, f"e{i:02d}", f"Growing Room {i}", ["ahu", "growingRoom"])
    point(e, "Air Temp", "Number", "°C", ["zone", "air", "temp", "sensor"], air)
    point(e, "Air Temp Setpoint", "Number", "°C", ["zone", "air", "temp", "sp"], air_sp)
    point(e, "Relative Humidity", "Number", "%RH", ["zone", "air", "humidity", "sensor"],
          lag(rh_sp - 1.0 + clipn(s, 0.6, 1.4), 0.3))  # fmt: skip
    point(e, "CO2", "Number", "ppm", ["zone", "air", "co2", "sensor"], co2)
    point(e, "CO2 Setpoint", "Number", "ppm", ["zone", "air", "co2", "sp"], co2_sp)
    point(e, "Compost Temp", "Number", "°C", ["compost", "temp", "sensor"], compost)
    point(e, "Irrigation Flow", "Number", "L/h", ["water", "irrigation", "flow", "sensor"], irr)

# the LTHW boiler heats the rooms and the packhouse; weather-compensated flow setpoint 55-78 degC. Fri 30 Oct
# 05:00-06:00 its burner control overshoots: 84.6 degC at 05:30
lthw_sp = np.clip(60.0 + 1.2 * (15.0 - t_out), 55.0, 78.0)
flow_t = lthw_sp - 0.5 + clipn(s, 0.4, 1.0)
put(s, flow_t, OCT30W, {5.0: 79.9, 5.25: 82.7, 5.5: 84.6, 5.75: 81.3, 6.0: 78.9})
lthw_gas = np.maximum(4.0, 6.0 + 2.2 * (15.0 - t_out)) + noise(s, 0.8)
e = equip(s, "e07", "LTHW Boiler", ["boiler", "hot", "water"])
point(e, "Flow Temp", "Number", "°C", ["hot", "water", "leaving", "temp", "sensor"], flow_t)
point(e, "Flow Temp Setpoint", "Number", "°C", ["hot", "water", "leaving", "temp", "sp"], lthw_sp)
point(e, "Return Temp", "Number", "°C", ["hot", "water", "entering", "temp", "sensor"], flow_t - 12.0
      + noise(s, 0.3))  # fmt: skip
point(e, "Gas Flow", "Number", "m³/h", ["naturalGas", "flow", "sensor"], lthw_gas)
point(e, "Firing Rate", "Number", "%", ["fire", "sensor"], np.clip(lthw_gas / 60.0 * 100.0, 0.0, 100.0))

steam_gas = np.where(cooking, 32.0 + noise(s, 1.0), 1.2 + clipn(s, 0.1, 0.2))
e = equip(s, "e08", "Steam Generator", ["boiler", "steam"])
point(e, "Steam Pressure", "Number", "bar", ["steam", "pressure", "sensor"], np.where(cooking, 6.5, 0.4)
      + clipn(s, 0.05, 0.12))  # fmt: skip
point(e, "Steam Flow", "Number", "kg/h", ["steam", "flow", "sensor"], np.where(cooking, 380.0 + noise(s, 8.0), 0.0))
point(e, "Gas Flow", "Number", "m³/h", ["naturalGas", "flow", "sensor"], steam_gas)

chill_kw = np.zeros(s.n)
for i in (1, 2):
    e = equip(s, f"e{8 + i:02d}", f"Chiller {i}", ["chiller"])
    kw = np.maximum(8.0, 70.0 + 9.0 * (t_out - 4.0)) + noise(s, 3.0)
    chill_kw += kw
    point(e, "Leaving Temp", "Number", "°C", ["chilled", "water", "leaving", "temp", "sensor"], 6.1
          + clipn(s, 0.12, 0.3))  # fmt: skip
    point(e, "Leaving Temp Setpoint", "Number", "°C", ["chilled", "water", "leaving", "temp", "sp"], np.full(s.n, 6.0))
    point(e, "Electrical Power", "Number", "kW", ["elec", "power", "sensor"], kw)

farm_kw = chill_kw + room_kw + np.where(s.hours(6.0, 15.0), 85.0, 35.0) + 45.0 + noise(s, 6.0)
e = equip(s, "e11", "Main Meter", ["elecMeter", "meter", "elec", "siteMeter"])
point(e, "Active Power", "Number", "kW", ["elec", "power", "sensor"], farm_kw)
point(e, "Energy", "Number", "kWh", ["elec", "energy", "import", "sensor"], register(s, farm_kw, 3_412_880.0))

gas = lthw_gas + steam_gas + 0.8 + noise(s, 0.1)
e = equip(s, "e12", "Gas Meter", ["gasMeter", "meter", "naturalGas"])
point(e, "Flow", "Number", "m³/h", ["naturalGas", "flow", "sensor"], gas)
point(e, "Volume", "Number", "m³", ["naturalGas", "volume", "sensor"], register(s, gas, 845_210.0))

water = water_sum / 1000.0 + np.where(s.hours(15.0, 17.0), 0.6, 0.0) + 0.2 + clipn(s, 0.02, 0.05)
e = equip(s, "e13", "Water Meter", ["waterMeter", "meter", "water"])
point(e, "Flow", "Number", "m³/h", ["water", "flow", "sensor"], water)
point(e, "Volume", "Number", "m³", ["water", "volume", "sensor"], register(s, water, 61_774.0))


if __name__ == "__main__":
    G.write(HERE, SITES)
