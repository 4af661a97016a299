"""Make the blind-19 plant: plant.json (Haystack 4 JSON grid) and plant.csv.gz (15-minute histories).

Three sites of new kinds, Thu 2026-10-01 00:00 to Thu 2026-11-05 00:00 site-local (35 days):
  Restigouche Paper Mill    an integrated pulp and paper mill in northern New Brunswick: two paper machines (PM1,
                            PM2: reel speed, production rate and a tonnage register, reel moisture and its setpoint,
                            dryer steam, steam per tonne, drive power), the kraft recovery boiler (terse DCS names:
                            STM-FLOW, FG-TRS, FG-SO2 ...), the hog-fuel power boiler, the turbine generator TG1 (kW, a
                            MWh register), three TMP refiners, the effluent treatment, the mill substation with a
                            signed tie-line power (+ import from NB Power, - export) and import / export registers
                            (America/Moncton, SI; -03:00, clocks go BACK on Sun 1 Nov 2026 02:00 -> 01:00: a 25-hour
                            day, then -04:00)
  Lisbon Atlantic Aquarium  a public aquarium's life-support systems: five exhibits (water temp and its setpoint,
                            dissolved oxygen, pH, ORP), four sand filters (terse SF-01 ... with DP), three shark tank
                            circulation pumps, two chillers, a heat pump, the ozone generator, the seawater intake
                            (flow and a volume register), the main meter (Europe/Lisbon, SI; +01:00, clocks go BACK on
                            Sun 25 Oct 2026 02:00 -> 01:00: a 25-hour day, then +00:00)
  Ashanti Ridge Gold Mine   an underground gold mine's ventilation, dewatering and hoisting: the surface main vent
                            fan, three underground booster fans, two environmental monitors (terse ENV-15L / ENV-20L:
                            WBT, DBT, VEL, CO, NO2), three dewatering pumps on the main sump and the rising main (a
                            volume register), the rock hoist (t/h and a tonnage register) and the man-cage hoist, the
                            mine incomer (a MWh register) (Africa/Accra, SI; +00:00 all along, no DST)

Fixed seed; the same run gives byte-identical files (gzip mtime 0, no file name in the header).
Usage: python bench/blind19/make_plant.py
"""

from __future__ import annotations

import datetime as dt
import sys
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))
from blindkit.plant import Plant, daily, keep_gap, put, register, triangle  # noqa: E402

SEED = 20261119
START = dt.date(2026, 10, 1)
END = dt.date(2026, 11, 5)
D = dt.date

G = Plant(SEED, START, END)
Site, noise, clipn, per_day, equip, point = G.site, G.noise, G.clipn, G.per_day, G.equip, G.point

rst = Site("rst", "Restigouche Paper Mill", "America/Moncton", "Moncton", "Dalhousie")
aal = Site("aal", "Lisbon Atlantic Aquarium", "Europe/Lisbon", "Lisbon", "Lisbon")
asr = Site("asr", "Ashanti Ridge Gold Mine", "Africa/Accra", "Accra", "Obuasi")
SITES = [rst, aal, asr]


def after(site, d0: dt.date, h0: float) -> np.ndarray:
    """Samples from local (d0, h0) to the end of the data."""
    return site.span(d0, h0, END, 0.0)


# ----- Restigouche Paper Mill (Moncton, SI) ------------------------------------------------------------------------
s = rst
h, wd = s.hour, s.wday
OCT20, OCT22, OCT23, OCT25 = D(2026, 10, 20), D(2026, 10, 22), D(2026, 10, 23), D(2026, 10, 25)
OCT28, OCT29, NOV1, NOV2, NOV3 = D(2026, 10, 28), D(2026, 10, 29), D(2026, 11, 1), D(2026, 11, 2), D(2026, 11, 3)
# PM2's weekly wash-up: Sundays 06:00-14:00 (Sun 25 Oct to 15:30: a felt change as well); PM1 runs through
wash = (wd == 6) & s.hours(6.0, 14.0) | s.mask(OCT25, 14.0, 15.5)
sunday = wd == 6
wash_end = np.where(s.day(OCT25), 15.5, 14.0)
after_wash = (sunday & (h >= wash_end)) | ((wd == 0) & (h < 6.0))
# PM1: Tue 20 Oct 10:15-20:45 a sheet break and a felt change (down 10.5 h); Sun 1 Nov 09:00-09:30 a sheet break
pm1_down = s.mask(OCT20, 10.25, 20.75) | s.mask(NOV1, 9.0, 9.5)
pm2_down = wash

pm_drive = []
for i, (nm, prod0, steam0, spd0, bw0, msp, drive0) in enumerate(
    (("PM1", 38.0, 62.0, 1_050.0, 170.0, 7.5, 9_000.0), ("PM2", 22.0, 41.0, 920.0, 48.8, 8.0, 6_500.0)), start=1
):
    down = pm1_down if i == 1 else pm2_down
    e = equip(s, f"e{i:02d}", nm, ["paperMachine"])
    prod = np.where(down, 0.0, prod0 + clipn(s, 0.5, 1.2))
    steam = np.where(down, 5.0 + clipn(s, 0.3, 0.6), steam0 + clipn(s, 0.7, 1.6))
    moist_sp = np.full(s.n, msp)
    moist = msp - 0.05 + clipn(s, 0.12, 0.3)
    if i == 2:  # Mon 2 Nov 00:00 to Tue 3 Nov 12:00: a steam-box valve fails: the sheet runs about 0.9 % wet
        moist = np.where(s.span(NOV2, 0.0, NOV3, 12.0), moist + 0.95, moist)
    moist = np.where(down, 0.0, moist)  # the scanner parks off-sheet
    drive = np.where(down, 600.0 if i == 1 else 400.0, drive0) + noise(s, 0.012 * drive0)
    pm_drive.append(drive)
    point(e, "Reel Speed", "Number", "m/min", ["speed", "sensor"], np.where(down, 0.0, spd0 + clipn(s, 3.0, 8.0)))
    point(e, "Production Rate", "Number", "t/h", ["production", "sensor"], prod)
    point(e, "Production", "Number", "t", ["production", "mass", "sensor"], register(s, prod, 812_400.0 * i + 3_117.0))
    point(e, "Basis Weight", "Number", "g/m²", ["basisWeight", "sensor"], np.where(down, 0.0, bw0 + clipn(s, 0.4, 1.0)))
    point(e, "Reel Moisture", "Number", "%", ["moisture", "sensor"], moist)
    point(e, "Reel Moisture SP", "Number", "%", ["moisture", "sp"], moist_sp)
    point(e, "Dryer Steam Flow", "Number", "t/h", ["steam", "flow", "sensor"], steam)
    point(e, "Specific Steam", "Number", "t/t", ["steam", "efficiency", "sensor"],
          np.where(down, 0.0, steam / np.maximum(prod, 1e-9)))  # fmt: skip
    point(e, "Drive Power", "Number", "kW", ["elec", "power", "sensor"], drive)

# the recovery boiler: Thu 22 Oct 06:00 to Fri 23 Oct 18:00 plugged liquor guns hold the firing back (steam ~150 t/h)
rb_low = s.span(OCT22, 6.0, OCT23, 18.0)
rb_steam = np.where(rb_low, 150.0, 182.0) + per_day(s, 0.8) + clipn(s, 1.5, 3.5)
trs = 1.7 + clipn(s, 0.35, 0.9)
trs = np.where(s.mask(OCT28, 13.0, 15.0), 3.4 + clipn(s, 0.2, 0.45), trs)  # a smelt-spout blockage: TRS up to ~3.9
e = equip(s, "e03", "Recovery Boiler", ["boiler", "steam", "recovery"])
point(e, "STM-FLOW", "Number", "t/h", ["steam", "flow", "sensor"], rb_steam,
      desc="Main steam flow leaving the recovery boiler")  # fmt: skip
point(e, "STM-PRESS", "Number", "kPa", ["steam", "pressure", "sensor"], 6_200.0 + clipn(s, 20.0, 50.0))
point(e, "BLS-FLOW", "Number", "t/h", ["blackLiquor", "flow", "sensor"],
      np.where(rb_low, 38.0, 46.0) + clipn(s, 0.6, 1.5), desc="Black liquor solids fired (dry)")  # fmt: skip
point(e, "FG-O2", "Number", "%", ["exhaust", "o2", "sensor"], 2.9 + clipn(s, 0.2, 0.5))
point(e, "FG-SO2", "Number", "ppm", ["exhaust", "so2", "sensor"], 48.0 + clipn(s, 8.0, 20.0),
      desc="Stack sulphur dioxide, ppm dry at 8 % O2")  # fmt: skip
point(e, "FG-TRS", "Number", "ppm", ["exhaust", "trs", "sensor"], trs,
      desc="Stack total reduced sulphur (TRS), ppm dry at 8 % O2")  # fmt: skip

e = equip(s, "e04", "Power Boiler", ["boiler", "steam", "biomass"])
pb_steam = 95.0 + daily(s, 3.0, 8.0) + clipn(s, 1.5, 3.5)
point(e, "Steam Flow", "Number", "t/h", ["steam", "flow", "sensor"], pb_steam)
point(e, "Steam Pressure", "Number", "kPa", ["steam", "pressure", "sensor"], 6_150.0 + clipn(s, 25.0, 60.0))
point(e, "Hog Fuel Feed", "Number", "t/h", ["biomass", "fuel", "flow", "sensor"], pb_steam * 0.3 + noise(s, 0.4))
point(e, "Flue Gas O2", "Number", "%", ["exhaust", "o2", "sensor"], 5.8 + clipn(s, 0.3, 0.8))

# TG1: on the Sunday wash-ups more steam goes to the condenser (its output climbs 4 -> 9 MW over the eight hours);
# after the wash-up PM2's restart draws extraction steam and the output sags 4 MW until Monday 06:00
boost = np.where(wash, 4_000.0 + 5_000.0 * np.clip((h - 6.0) / 8.0, 0.0, 1.0), 0.0)
tg = 31_000.0 + daily(s, 800.0, 15.0) + per_day(s, 400.0) + clipn(s, 250.0, 600.0) + boost
tg = np.where(after_wash, tg - 4_000.0, tg)
e = equip(s, "e05", "TG1", ["steamTurbine", "generator", "elec"])
point(e, "Gross Output", "Number", "kW", ["elec", "power", "export", "sensor"], tg)
point(e, "Energy", "Number", "MWh", ["elec", "energy", "export", "sensor"], register(s, tg, 1_902_655.0, scale=0.001))
point(e, "Inlet Steam Flow", "Number", "t/h", ["steam", "flow", "sensor"], tg / 1000.0 * 6.9 + noise(s, 1.0))

# three TMP refiners: Refiner 2's plates are changed Wed 28 Oct 06:00 to Thu 29 Oct 18:00 (36 h down)
plates = s.span(OCT28, 6.0, OCT29, 18.0)
ref_kw = []
for i, (kw0, se0) in enumerate(((5_500.0, 2_150.0), (5_800.0, 2_240.0), (4_900.0, 2_080.0)), start=1):
    e = equip(s, f"e{5 + i:02d}", f"Refiner {i}", ["refiner"])
    off = plates if i == 2 else np.zeros(s.n, bool)
    kw = np.where(off, 0.0, kw0 + clipn(s, 70.0, 180.0))
    se = np.where(off, 0.0, se0 + clipn(s, 25.0, 60.0))
    ref_kw.append(kw)
    point(e, "Motor Load", "Number", "kW", ["elec", "power", "sensor"], kw)
    point(e, "Throughput", "Number", "t/h", ["pulp", "flow", "sensor"], np.where(off, 0.0, kw / np.maximum(se, 1.0)))
    point(e, "Specific Energy", "Number", "kWh/t", ["elec", "efficiency", "sensor"], se)
    point(e, "Plate Gap", "Number", "mm", ["gap", "sensor"], np.where(off, 0.0, 0.42 + 0.03 * i + clipn(s, 0.01, 0.03)))

e = equip(s, "e09", "Effluent Treatment", ["water", "effluent"])
point(e, "Effluent Flow", "Number", "m³/h", ["water", "flow", "sensor"], 2_100.0 + daily(s, 80.0, 16.0)
      + noise(s, 25.0))  # fmt: skip
point(e, "Effluent Temp", "Number", "°C", ["water", "temp", "sensor"], 33.5 + daily(s, 1.2, 16.0) + noise(s, 0.2))
point(e, "Effluent pH", "Number", "pH", ["water", "ph", "sensor"], 7.2 + clipn(s, 0.08, 0.2))
point(e, "TSS", "Number", "mg/L", ["water", "tss", "sensor"], 18.0 + clipn(s, 3.0, 7.0))

base = 18_000.0 + daily(s, 600.0, 14.0) + clipn(s, 300.0, 700.0) - np.where(wash, 12_000.0, 0.0)
load = sum(pm_drive) + sum(ref_kw) + base
net = load - tg
e = equip(s, "e10", "Mill Substation", ["elecMeter", "meter", "elec", "siteMeter"])
point(e, "Tie Line Power", "Number", "kW", ["elec", "power", "net", "sensor"], net,
      desc="Signed: + importing from NB Power, - exporting to NB Power (TG1 surplus)")  # fmt: skip
point(e, "Import Energy", "Number", "MWh", ["elec", "energy", "import", "sensor"],
      register(s, np.maximum(net, 0.0), 2_418_306.0, scale=0.001))  # fmt: skip
point(e, "Export Energy", "Number", "MWh", ["elec", "energy", "export", "sensor"],
      register(s, np.maximum(-net, 0.0), 31_774.0, scale=0.001))  # fmt: skip
point(e, "Power Factor", "Number", "pf", ["elec", "pf", "sensor"], 0.95 + clipn(s, 0.006, 0.015))


# ----- Lisbon Atlantic Aquarium (Lisbon, SI) ------------------------------------------------------------------------
s = aal
h, wd = s.hour, s.wday
OCT19L, OCT20L, OCT22L, OCT28L = D(2026, 10, 19), D(2026, 10, 20), D(2026, 10, 22), D(2026, 10, 28)
OCT29L, OCT30L, OCT31L, NOV3L = D(2026, 10, 29), D(2026, 10, 30), D(2026, 10, 31), D(2026, 11, 3)

# the exhibits: each tank's water held 0.16-0.44 K under its setpoint (the chillers / heat pump lead the setpoint)
TANKS = (("Shark Tank", 19.0, 7.2, 380.0), ("Kelp Forest Tank", 14.0, 8.3, 340.0), ("Coral Reef Tank", 25.5, 6.5,
         250.0), ("Jellyfish Tank", 17.0, 7.6, 300.0), ("Penguin Pool", 8.0, 9.6, 360.0))  # fmt: skip
valve_stuck = s.mask(OCT29L, 11.0, 17.0)
for i, (nm, sp, do0, orp0) in enumerate(TANKS, start=1):
    e = equip(s, f"e{i:02d}", nm, ["tank", "water", "exhibit"])
    temp = sp - 0.3 + clipn(s, 0.06, 0.14)
    if nm == "Kelp Forest Tank":  # Thu 29 Oct 11:00 its chilled-water valve sticks shut; freed at 17:00
        put(s, temp, OCT29L, {11.0: 13.72, 11.25: 13.8, 11.5: 13.86, 11.75: 14.15, 12.0: 14.31, 12.25: 14.46,
                              12.5: 14.6, 12.75: 14.72, 13.0: 14.84, 13.25: 14.95, 13.5: 15.05, 13.75: 15.14,
                              14.0: 15.22, 14.25: 15.29, 14.5: 15.35, 14.75: 15.4, 15.0: 15.45, 15.25: 15.49,
                              15.5: 15.52, 15.75: 15.55, 16.0: 15.57, 16.25: 15.59, 16.5: 15.6, 16.75: 15.62,
                              17.0: 15.55, 17.25: 15.2, 17.5: 14.8, 17.75: 14.42, 18.0: 14.12, 18.25: 13.86,
                              18.5: 13.74})  # fmt: skip
    do = do0 + clipn(s, 0.05, 0.12)
    if nm == "Shark Tank":  # the morning feed 10:00-11:15: the sharks' oxygen demand dips the DO
        for d in sorted(set(s.date)):
            do = do - triangle(s, d, 10.0, 10.5, 11.25, 0.45)
    orp = orp0 + clipn(s, 5.0, 12.0)
    if nm == "Jellyfish Tank":  # Sat 31 Oct the ozone controller overdoses: ORP up to ~450 mV at 14:30
        orp = orp + triangle(s, OCT31L, 12.75, 14.5, 16.5, 150.0)
    keep = keep_gap(s, OCT28L, 1.0, 4.0) if nm == "Penguin Pool" else None  # the DO transmitter drops out
    point(e, "Water Temp", "Number", "°C", ["water", "temp", "sensor"], temp)
    point(e, "Water Temp SP", "Number", "°C", ["water", "temp", "sp"], np.full(s.n, sp))
    point(e, "Dissolved Oxygen", "Number", "mg/L", ["water", "oxygen", "dissolved", "sensor"], do, keep)
    point(e, "pH", "Number", "pH", ["water", "ph", "sensor"], 8.1 + clipn(s, 0.03, 0.07))
    point(e, "ORP", "Number", "mV", ["water", "orp", "sensor"], orp)

# the sand filters: DP from 22 kPa after a backwash, +3.8 kPa a day; each backwashes weekly at 09:00 on its own day.
# SF-03's Tue 27 Oct backwash is skipped (a valve-controller fault); Fri 30 Oct 14:00 skimmer foam carries over
# into it (+11 kPa); it is backwashed by hand Tue 3 Nov 09:00
sf_pump = np.zeros(s.n)
for i, bw_day in enumerate((0, 2, 1, 4), start=1):
    e = equip(s, f"e{5 + i:02d}", f"SF-{i:02d}", ["filter", "water", "sand"])
    last = np.zeros(s.n)
    t_last = None
    for k in range(s.n):
        if s.wday[k] == bw_day and abs(s.hour[k] - 9.0) < 1e-9:
            skip = i == 3 and s.date[k] == D(2026, 10, 27)
            if not skip:
                t_last = s.secs[k]
        if i == 3 and s.date[k] == NOV3L and abs(s.hour[k] - 9.0) < 1e-9:
            t_last = s.secs[k]
        last[k] = (s.secs[k] - t_last) / 86_400.0 if t_last is not None else (k % (7 * 96)) / 96.0
    dp = 22.0 + 3.8 * last + clipn(s, 0.25, 0.6)
    if i == 3:
        dp = np.where(s.span(OCT30L, 14.0, NOV3L, 9.0), dp + 11.0, dp)
    flow = 250.0 - 0.5 * (dp - 22.0) + clipn(s, 2.0, 5.0)
    point(e, "DP", "Number", "kPa", ["water", "pressure", "delta", "sensor"], dp,
          desc="Differential pressure across the sand bed")  # fmt: skip
    point(e, "Filtrate Flow", "Number", "m³/h", ["water", "flow", "sensor"], flow)

for i in (1, 2, 3):
    e = equip(s, f"e{9 + i:02d}", f"Shark Tank Pump {i}", ["pump", "water"])
    run = ~s.mask(OCT19L, 15.0, 16.25) if i == 2 else np.ones(s.n, bool)  # Pump 2 trips Mon 19 Oct 15:00-16:15
    kw = np.where(run, 42.0 + clipn(s, 0.6, 1.5), 0.0)
    sf_pump += kw
    point(e, "Flow", "Number", "m³/h", ["water", "flow", "sensor"], np.where(run, 620.0 + clipn(s, 6.0, 15.0), 0.0))
    point(e, "Motor Power", "Number", "kW", ["elec", "power", "sensor"], kw)
    point(e, "Run Status", "Bool", None, ["run", "sensor"], run)

# the chillers: Chiller 1 the cold loop (kelp, jellyfish, penguins), Chiller 2 the shark tank; Thu 22 Oct a warm
# afternoon on the shark tank's heat exchanger: Chiller 2 up to ~150 kW
ch1 = 85.0 + daily(s, 8.0, 15.0) + clipn(s, 3.0, 7.0) - np.where(valve_stuck, 15.0, 0.0)
ch2 = 70.0 + daily(s, 10.0, 15.0) + clipn(s, 3.0, 7.0) + triangle(s, OCT22L, 12.0, 15.0, 18.0, 72.0)
for i, kw in enumerate((ch1, ch2), start=1):
    e = equip(s, f"e{12 + i:02d}", f"Chiller {i}", ["chiller"])
    point(e, "Electrical Power", "Number", "kW", ["elec", "power", "sensor"], kw)
    point(e, "CHW Supply Temp", "Number", "°C", ["chilled", "water", "leaving", "temp", "sensor"],
          (4.0 if i == 1 else 9.0) + clipn(s, 0.12, 0.3))  # fmt: skip
    point(e, "CHW Supply Temp SP", "Number", "°C", ["chilled", "water", "leaving", "temp", "sp"],
          np.full(s.n, 4.0 if i == 1 else 9.0))  # fmt: skip

hp = 22.0 - daily(s, 3.0, 15.0) + clipn(s, 1.0, 2.5)
e = equip(s, "e15", "Heat Pump", ["heatPump"])
point(e, "Electrical Power", "Number", "kW", ["elec", "power", "sensor"], hp)
point(e, "Heating Output", "Number", "kW", ["heating", "power", "sensor"], hp * 3.6 + noise(s, 1.0))

e = equip(s, "e16", "Ozone Generator", ["ozone"])
point(e, "Ozone Output", "Number", "g/h", ["ozone", "flow", "sensor"], 120.0 + clipn(s, 4.0, 10.0))
point(e, "Electrical Power", "Number", "kW", ["elec", "power", "sensor"], 9.5 + clipn(s, 0.3, 0.7))

# from Mon 26 Oct 00:00 the intake runs 110 m³/h instead of 95 (the new quarantine system is being filled)
intake = np.where(after(s, D(2026, 10, 26), 0.0), 110.0, 95.0) + clipn(s, 1.2, 3.0)
e = equip(s, "e17", "Seawater Intake", ["pump", "water", "intake"])
point(e, "Flow", "Number", "m³/h", ["water", "flow", "sensor"], intake)
point(e, "Volume", "Number", "m³", ["water", "volume", "sensor"], register(s, intake, 4_871_220.0))
point(e, "Motor Power", "Number", "kW", ["elec", "power", "sensor"], 18.0 + clipn(s, 0.4, 1.0))

open_hours = s.hours(9.5, 20.0)
meter = ch1 + ch2 + hp + sf_pump + 18.0 + 9.5 + 95.0 + np.where(open_hours, 70.0, 30.0) + noise(s, 5.0)
e = equip(s, "e18", "Main Meter", ["elecMeter", "meter", "elec", "siteMeter"])
point(e, "Active Power", "Number", "kW", ["elec", "power", "sensor"], meter)
point(e, "Energy", "Number", "kWh", ["elec", "energy", "import", "sensor"], register(s, meter, 7_305_118.0))


# ----- Ashanti Ridge Gold Mine (Accra, SI) -------------------------------------------------------------------------
s = asr
h, wd = s.hour, s.wday
OCT27A, OCT29A = D(2026, 10, 27), D(2026, 10, 29)
# Thu 29 Oct: the main vent fan's bearing fails: vibration from 01:30 to 11.8 mm/s at 03:00; it trips 03:45 and is
# restarted 06:30 (the boosters on 10L and 15L interlock off with it; 20L's keeps running); the mine is evacuated and
# hoisting stops 03:45-10:00
fan_off = s.mask(OCT29A, 3.75, 6.5)
evac = s.mask(OCT29A, 3.75, 10.0)
fan_kw = np.where(fan_off, 0.0, 2_400.0 + per_day(s, 25.0) + clipn(s, 20.0, 50.0))
vib = np.where(fan_off, 0.0, 2.9 + clipn(s, 0.22, 0.55))
put(s, vib, OCT29A, {1.5: 3.8, 1.75: 4.6, 2.0: 5.3, 2.25: 6.4, 2.5: 7.6, 2.75: 9.8, 3.0: 11.8, 3.25: 10.9, 3.5: 11.2})
brg = 64.0 + clipn(s, 0.4, 1.0)
put(s, brg, OCT29A, {2.0: 66.0, 2.25: 68.5, 2.5: 71.2, 2.75: 74.8, 3.0: 77.9, 3.25: 80.2, 3.5: 81.6, 3.75: 79.0,
                     4.0: 74.5, 4.25: 70.6, 4.5: 67.2, 4.75: 64.3, 5.0: 61.9, 5.25: 59.8, 5.5: 58.1, 5.75: 56.7,
                     6.0: 55.6, 6.25: 54.8, 6.5: 55.9, 6.75: 58.4, 7.0: 60.9, 7.25: 62.7})  # fmt: skip
e = equip(s, "e01", "Main Vent Fan", ["fan", "exhaust", "ventilation"])
point(e, "Motor Power", "Number", "kW", ["elec", "power", "sensor"], fan_kw)
point(e, "Airflow", "Number", "m³/s", ["air", "flow", "sensor"], np.where(fan_off, 35.0, 420.0) + clipn(s, 3.0, 7.0))
point(e, "Fan Static Pressure", "Number", "kPa", ["air", "pressure", "sensor"],
      np.where(fan_off, 0.1, 3.1) + clipn(s, 0.03, 0.07))  # fmt: skip
point(e, "Vibration", "Number", "mm/s", ["vibration", "sensor"], vib)
point(e, "Bearing Temp", "Number", "°C", ["bearing", "temp", "sensor"], brg)

bf_kw = []
for i, (lvl, kw0, q0) in enumerate((("10L", 110.0, 45.0), ("15L", 160.0, 60.0), ("20L", 200.0, 70.0)), start=1):
    e = equip(s, f"e{1 + i:02d}", f"Booster Fan {lvl}", ["fan", "ventilation", "underground"])
    off = fan_off if lvl != "20L" else np.zeros(s.n, bool)
    kw = np.where(off, 0.0, kw0 + clipn(s, 2.0, 5.0))
    bf_kw.append(kw)
    point(e, "Motor Power", "Number", "kW", ["elec", "power", "sensor"], kw)
    point(e, "Airflow", "Number", "m³/s", ["air", "flow", "sensor"], np.where(off, 0.0, q0 + clipn(s, 0.8, 2.0)))

for lvl in ("15L", "20L"):
    e = equip(s, f"e{5 if lvl == '15L' else 6:02d}", f"ENV-{lvl}", ["airQuality", "underground"])
    if lvl == "15L":
        wbt = 25.5 + clipn(s, 0.15, 0.35)
        dbt = 29.5 + clipn(s, 0.3, 0.7)
        vel = np.where(fan_off, 0.35, 1.6) + clipn(s, 0.03, 0.07)
    else:
        wbt = 27.0 + clipn(s, 0.15, 0.35)
        put(s, wbt, OCT29A, {3.75: 27.3, 4.0: 27.6, 4.25: 27.85, 4.5: 28.2, 4.75: 28.6, 5.0: 28.9, 5.25: 29.2,
                             5.5: 29.4, 5.75: 29.6, 6.0: 29.7, 6.25: 29.8, 6.5: 29.6, 6.75: 29.2, 7.0: 28.8, 7.25: 28.4,
                             7.5: 28.15, 7.75: 27.8, 8.0: 27.5})  # fmt: skip
        dbt = 31.5 + clipn(s, 0.3, 0.7)
        vel = np.where(fan_off, 0.72, 1.25) + clipn(s, 0.03, 0.07)
    point(e, "WBT", "Number", "°C", ["air", "temp", "wetBulb", "sensor"], wbt, desc="Wet-bulb temperature")
    point(e, "DBT", "Number", "°C", ["air", "temp", "sensor"], dbt, desc="Dry-bulb temperature")
    point(e, "VEL", "Number", "m/s", ["air", "velocity", "sensor"], vel, desc="Air velocity in the drive")
    point(e, "CO", "Number", "ppm", ["air", "co", "sensor"], 9.0 + clipn(s, 1.5, 3.5))
    point(e, "NO2", "Number", "ppm", ["air", "no2", "sensor"], 1.25 + clipn(s, 0.12, 0.3))

# the 20 Level pump station: three dewatering pumps on duty; Pump 2's impeller is worn (less water, more power)
pump_q = []
pump_kw = []
for i, (q0, kw0) in enumerate(((55.0, 410.0), (41.0, 445.0), (54.0, 398.0)), start=1):
    e = equip(s, f"e{6 + i:02d}", f"Dewatering Pump {i}", ["pump", "water", "dewatering"])
    q = q0 + clipn(s, 0.6, 1.5)
    kw = kw0 + clipn(s, 4.0, 10.0)
    pump_q.append(q)
    pump_kw.append(kw)
    point(e, "Flow", "Number", "L/s", ["water", "flow", "sensor"], q)
    point(e, "Motor Power", "Number", "kW", ["elec", "power", "sensor"], kw)
    point(e, "Discharge Pressure", "Number", "bar", ["water", "discharge", "pressure", "sensor"],
          62.0 + clipn(s, 0.3, 0.7))  # fmt: skip
    point(e, "Run Status", "Bool", None, ["run", "sensor"], np.ones(s.n, bool))

e = equip(s, "e10", "Main Sump", ["tank", "water", "sump"])
point(e, "Level", "Number", "%", ["water", "level", "sensor"], 48.0 + daily(s, 3.0, 18.0) + clipn(s, 0.5, 1.2))
point(e, "Inflow", "Number", "L/s", ["water", "flow", "entering", "sensor"], 150.0 + clipn(s, 3.0, 7.0))

main_q = sum(pump_q)
e = equip(s, "e11", "Rising Main", ["waterMeter", "meter", "water"])
point(e, "Flow", "Number", "L/s", ["water", "flow", "sensor"], main_q)
point(e, "Volume", "Number", "m³", ["water", "volume", "sensor"], register(s, main_q, 3_318_450.0, per_hour=3.6))

# the rock hoist: stops at the shift changes (06:00, 14:00, 22:00 for 30 min), Tue 27 Oct 08:00-14:00 for the rope
# inspection and Thu 29 Oct 03:45-10:00 with the evacuation
hoisting = ~(s.hours(6.0, 6.5) | s.hours(14.0, 14.5) | s.hours(22.0, 22.5) | s.mask(OCT27A, 8.0, 14.0) | evac)
rate = np.where(hoisting, 320.0 + per_day(s, 8.0) + clipn(s, 10.0, 25.0), 0.0)
hoist_kw = np.where(hoisting, 1_900.0 + 2.0 * (rate - 320.0) + noise(s, 20.0), 90.0 + clipn(s, 3.0, 7.0))
e = equip(s, "e12", "Rock Hoist", ["hoist", "elec"])
point(e, "Hoisting Rate", "Number", "t/h", ["ore", "flow", "sensor"], rate)
point(e, "Tonnes Hoisted", "Number", "t", ["ore", "mass", "sensor"], register(s, rate, 6_120_775.0))
point(e, "Hoist Power", "Number", "kW", ["elec", "power", "sensor"], hoist_kw)
point(e, "Rope Speed", "Number", "m/s", ["speed", "sensor"], np.where(hoisting, 14.0 + clipn(s, 0.1, 0.25), 0.0))

shift = s.hours(5.5, 6.5) | s.hours(13.5, 14.5) | s.hours(21.5, 22.5)
cage_kw = np.where(shift, 300.0, 40.0) + clipn(s, 5.0, 12.0)
e = equip(s, "e13", "Man Cage Hoist", ["hoist", "elec"])
point(e, "Hoist Power", "Number", "kW", ["elec", "power", "sensor"], cage_kw)
point(e, "Rope Speed", "Number", "m/s", ["speed", "sensor"], np.where(shift, 8.0 + clipn(s, 0.1, 0.25), 0.0))

# Sundays the surface workshops, the backfill plant and the offices are shut: 1.8 MW less all day
mine_kw = (
    fan_kw + sum(bf_kw) + sum(pump_kw) + hoist_kw + cage_kw + 7_800.0 + daily(s, 400.0, 13.0) + per_day(s, 500.0)
    - np.where(wd == 6, 1_800.0, 0.0) + noise(s, 120.0)
)  # fmt: skip
e = equip(s, "e14", "Mine Incomer", ["elecMeter", "meter", "elec", "siteMeter"])
point(e, "Active Power", "Number", "kW", ["elec", "power", "sensor"], mine_kw)
point(e, "Energy", "Number", "MWh", ["elec", "energy", "import", "sensor"],
      register(s, mine_kw, 884_120.0, scale=0.001))  # fmt: skip
point(e, "Power Factor", "Number", "pf", ["elec", "pf", "sensor"], 0.94 + clipn(s, 0.006, 0.015))


if __name__ == "__main__":
    G.write(HERE, SITES)
