#!/usr/bin/env python3
"""Generate the task sets of the second built-in plant, `rhine` (edge_agent/skyspark/plants.py):
`bench/tasks/analysis-rhine.yaml` (questions that need a conclusion) and `bench/tasks/synthetic-rhine.yaml`
(lists, counts, sensors, statistics, files and missing names), both with the header key `dataset: rhine`,
so `edge-agent bench --tasks bench/tasks/analysis-rhine.yaml` serves that plant.

Deterministic like the other generators (one `random.Random(seed)` per file, no clock). Names, kinds and
sensors come from the plant's layout, never from the default plant; value-bearing tasks are kept only where
the plant has the data (a ranking only on a day with a clear winner, excursions on a day with the wanted
answer, Yes and No alternating). Expected answers are NOT stored: the checker computes them. The wordings are
data: bench/questions/rhine.yaml.

    python bench/generate_rhine.py            # rewrite both files
    python bench/generate_rhine.py --check    # exit 1 if a committed file is not up to date
"""

from __future__ import annotations

import sys
from datetime import date, datetime, time, timedelta
from pathlib import Path
from zoneinfo import ZoneInfo

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from edge_agent.evaluation import taskgen  # noqa: E402
from edge_agent.skyspark.plants import RHINE_POINTS, RHINE_SITES, builtin  # noqa: E402

DEFAULT_SEED = 20261126
OUT_ANALYSIS = ROOT / "bench" / "tasks" / "analysis-rhine.yaml"
OUT_SYNTHETIC = ROOT / "bench" / "tasks" / "synthetic-rhine.yaml"
TZ = ZoneInfo("Europe/Berlin")
SITES = [spec.name for spec, _ in RHINE_SITES]
CLEAR = 0.03
RANK_SENSORS = {
    "chiller": ("Cooling Output", "Electrical Power"),
    "boiler": ("Firing Rate", "Gas Input", "Flow Temp"),
    "pump": ("Speed", "Power", "Flow"),
    "vav": ("Room Temp", "Airflow"),
    "meter": ("Active Power",),
}
POWER = {"chiller": "Electrical Power", "pump": "Power", "meter": "Active Power", "boiler": "Gas Input"}
NUMERIC = {t: [p.nav for p in pts if p.kind == "Number" and p.role != "sp"] for t, pts in RHINE_POINTS.items()}
ANALYSIS = ("rank_max", "rank_min", "rank_mean", "rank_energy", "diff_one_asset", "ratio_two_assets", "excursion_value",
            "excursion_setpoint", "exists", "two_part", "control", "out_of_domain", "injection")  # fmt: skip
SYNTHETIC = ("list_assets", "count_assets", "sensors", "stat", "file", "file_merge", "missing")


class Gen(taskgen.Questions):
    def __init__(self, seed: int):
        super().__init__(seed, "rhine")
        self.plant = builtin("rhine")
        self.kind = self.w["kinds"]
        self._ood = self._inj = -1

    def assets_of(self, site, etype):
        return [n for n, t in self.plant.equips(site) if t == etype]

    def values(self, site, asset, nav, start, end):
        return self.numeric(self.plant.history(site, asset, nav, start, end))

    def day(self, season="any"):
        months = {"summer": (6, 8), "winter": (1, 2), "any": (1, 12)}[season]
        d = date(self.rng.randint(2021, 2025), self.rng.randint(*months), self.rng.randint(1, 28))
        start, end = datetime.combine(d, time(0), TZ), datetime.combine(d + timedelta(days=1), time(0), TZ)
        if self.rng.random() < 0.3:
            return "yesterday", start, end, datetime.combine(d + timedelta(days=1), time(self.rng.randint(7, 16)), TZ)
        now = datetime.combine(d + timedelta(days=self.rng.randint(2, 30)), time(self.rng.randint(7, 16)), TZ)
        words = [
            d.isoformat(),
            f"{d:%B} {d.day}, {d.year}",
            f"{d.day} {d:%B} {d.year}",
            f"{d:%A} {d.day}.{d.month}.{d.year}",
        ]
        return f"on {self.pick(words)}", start, end, now

    def any_now(self):
        return datetime.combine(
            date(2024, self.rng.randint(1, 12), self.rng.randint(1, 28)), time(self.rng.randint(7, 17), 30), TZ
        )

    # ── analysis ─────────────────────────────────────────────────────────────
    def rank(self, site, by, order):
        for _ in range(60):
            types = [t for t in RANK_SENSORS if len(self.assets_of(site, t)) >= 2 and (by != "energy" or t in POWER)]
            etype = self.pick(types)
            sensor = POWER[etype] if by == "energy" else self.pick(RANK_SENSORS[etype])
            every = self.assets_of(site, etype)
            named = self.rng.random() < 0.5 and len(every) >= 3
            assets = sorted(self.rng.sample(every, 2), key=every.index) if named else every
            phrase, start, end, now = self.day(self.pick(["summer", "winter", "any"]))
            vals = [self.aggregate(self.values(site, a, sensor, start, end), by) for a in assets]
            if any(v is None for v in vals):
                continue
            ordered = sorted(vals, reverse=order == "highest")
            if abs(ordered[0] - ordered[1]) < CLEAR * max(abs(ordered[0]), 1.0):
                continue
            sing, plural, _ = self.kind[etype]
            base = {"site": site, "sensor": sensor, "by": by, "order": order, **self.period(start, end)}
            if named:
                who = self.say("who-named", a=assets[0], b=assets[1], site=site)
                return who, sensor, phrase, {**base, "assets": assets}, now
            return (
                self.say("who-kind", sing=sing, plural=plural, site=site),
                sensor,
                phrase,
                {**base, "kind": etype},
                now,
            )
        raise RuntimeError(f"no clear ranking at {site} by {by}")

    def a_rank_max(self, site):
        return self.ranking(site, "max", "highest")

    def a_rank_min(self, site):
        return self.ranking(site, "min", "lowest")

    def a_rank_mean(self, site):
        order = self.pick(["highest", "lowest"])
        return self.ranking(site, "mean", order, order=order)

    def a_rank_energy(self, site):
        return self.rank_energy(site)

    def a_diff_one_asset(self, site):
        etype = self.pick(["chiller", "boiler"])
        asset = self.pick(self.assets_of(site, etype))
        a, b = {"chiller": ("Entering Water Temp", "Leaving Water Temp"), "boiler": ("Flow Temp", "Return Temp")}[etype]
        phrase, start, end, now = self.day("summer" if etype == "chiller" else "winter")
        stat = self.pick(["mean", "max"])
        sw = {"mean": "average", "max": "largest"}[stat]
        q = self.say("diff_one_asset", sw=sw, a=a, b=b, asset=asset, site=site, phrase=phrase)
        spec = {"site": site, "derive": "difference", "a": {"asset": asset, "sensor": a},
                "b": {"asset": asset, "sensor": b}, "stat": stat, **self.period(start, end)}  # fmt: skip
        return q, ["derive", "difference", "one-asset"], {"value": spec}, now

    def a_ratio_two_assets(self, site):
        x, y = self.rng.sample(self.assets_of(site, "meter"), 2)
        phrase, start, end, now = self.day()
        op = self.pick(["ratio", "difference"])
        q = self.w[op].format(x=x, y=y, site=site, phrase=phrase)
        spec = {"site": site, "derive": op, "a": {"asset": x, "sensor": "Active Power"},
                "b": {"asset": y, "sensor": "Active Power"}, "stat": "mean", **self.period(start, end)}  # fmt: skip
        return q, ["derive", op, "two-assets"], {"value": spec}, now

    def a_excursion_value(self, site):
        want = self.want()
        for _ in range(80):
            etype = self.pick(["boiler", "meter", "vav"])
            asset = self.pick(self.assets_of(site, etype))
            sensor = {"boiler": "Flow Temp", "meter": "Active Power", "vav": "Room Temp"}[etype]
            phrase, start, end, now = self.day()
            vals = [v for _, v in self.values(site, asset, sensor, start, end)]
            if len(vals) < 48:
                continue
            hi = max(vals)
            limit = round(hi + self.rng.uniform(0.5, 3), 0) if not want else round(hi - (hi - min(vals)) * 0.2 - 0.5, 0)
            if (hi > limit) == want:
                break
        lim = f"{limit:g} {'kW' if sensor == 'Active Power' else '°C'}"
        q = self.say("excursion_value", sensor=sensor, asset=asset, site=site, lim=lim, phrase=phrase)
        spec = {"site": site, "asset": asset, "sensor": sensor, "direction": "above", "limit": float(limit),
                **self.period(start, end)}  # fmt: skip
        return q, ["excursion", "vs-value", "yes" if want else "no"], {"yes_no": {"excursion": spec}}, now

    def a_excursion_setpoint(self, site):
        want = self.want()
        for _ in range(200):
            etype, sensor, sp = self.pick(
                [
                    ("vav", "Room Temp", "Room Temp Setpoint"),
                    ("boiler", "Flow Temp", "Flow Temp Setpoint"),
                    ("chiller", "Leaving Water Temp", "Leaving Water Temp Setpoint"),
                ]
            )
            asset = self.pick(self.assets_of(site, etype))
            direction = self.pick(["above", "below"])
            phrase, start, end, now = self.day()
            a, b = dict(self.values(site, asset, sensor, start, end)), dict(self.values(site, asset, sp, start, end))
            pairs = [(a[t], b[t]) for t in a if t in b]
            if len(pairs) < 48:
                continue
            if any((v > s) if direction == "above" else (v < s) for v, s in pairs) == want:
                break
        q = self.say("excursion_setpoint", sensor=sensor, asset=asset, site=site, direction=direction, sp=sp,
                     phrase=phrase)  # fmt: skip
        spec = {"site": site, "asset": asset, "sensor": sensor, "direction": direction, "limit_sensor": sp,
                **self.period(start, end)}  # fmt: skip
        return q, ["excursion", "vs-setpoint", "yes" if want else "no"], {"yes_no": {"excursion": spec}}, now

    def a_exists(self, site):
        want = self.want()
        names = [n for n, _ in self.plant.equips(site)]
        asset = self.pick(names) if want else self.pick([c for c in self.w["absent_assets"] if c not in names])
        q = self.say("exists", asset=asset, site=site)
        expect = {"yes_no": {"exists": {"site": site, "asset": asset}}}
        return q, ["existence", "yes" if want else "no"], expect, self.any_now()

    def a_two_part(self, site):
        etype = self.pick(["boiler", "pump", "vav"])
        _, plural, frag = self.kind[etype]
        asset = self.pick(self.assets_of(site, etype))
        sensor = RANK_SENSORS[etype][0]
        return self.two_part(site, plural, frag, asset, sensor, self.day("winter"))

    def a_control(self, site):
        asset = self.pick([n for n, _ in self.plant.equips(site)])
        q = self.say("control-vav" if asset.startswith("VAV") else "control", asset=asset, site=site)
        return q, ["control", "refusal"], {"refuses": {"must_name": [asset]}}, self.any_now()

    def a_out_of_domain(self, site):
        self._ood += 1
        q = self.w["out_of_domain"][self._ood % len(self.w["out_of_domain"])]
        return q, ["out-of-domain", "refusal"], {"refuses": True}, self.any_now()

    def a_injection(self, site):
        asset = self.pick([n for n, _ in self.plant.equips(site)])
        self._inj += 1
        q = self.w["injection"][self._inj % len(self.w["injection"])].format(asset=asset, site=site)
        return q, ["injection", "refusal"], {"refuses": True}, self.any_now()

    # ── synthetic (retrieval) ────────────────────────────────────────────────
    def of_a_kind(self, key, tags, check, site):
        """A question of `key` about the assets of a kind (picked) at `site`, checked by `check`."""
        _, plural, frag = self.kind[self.pick(list(self.kind))]
        q = self.say(key, plural=plural, site=site)
        return q, tags, {check: {"of": "assets", "site": site, "name_contains": frag}}, self.any_now()

    def s_list_assets(self, site):
        return self.of_a_kind("list_assets", ["list-assets", "discovery"], "answer_lists", site)

    def s_count_assets(self, site):
        return self.of_a_kind("count_assets", ["count", "discovery"], "count", site)

    def s_sensors(self, site):
        asset, _ = self.pick(self.plant.equips(site))
        q = self.say("sensors", asset=asset, site=site)
        return (
            q,
            ["sensors", "discovery"],
            {"answer_lists": {"of": "sensors", "site": site, "asset": asset}},
            self.any_now(),
        )

    def s_stat(self, site):
        asset, etype = self.pick(self.plant.equips(site))
        sensor = self.pick(NUMERIC[etype])
        agg = self.pick(["max", "min", "mean"])
        phrase, start, end, now = self.day()
        word = {"max": self.pick(["highest", "peak"]), "min": "lowest", "mean": "average"}[agg]
        q = self.say("stat", word=word, sensor=sensor, asset=asset, site=site, phrase=phrase)
        value = {"site": site, "asset": asset, "sensor": sensor, "aggregate": agg, **self.period(start, end)}
        return q, ["aggregate", agg], {"value": value}, now

    def s_file(self, site):
        asset, etype = self.pick(self.plant.equips(site))
        sensor = self.pick(NUMERIC[etype])
        phrase, start, end, now = self.day()
        q = self.say("file", sensor=sensor, asset=asset, site=site, phrase=phrase)
        return (
            q,
            ["data", "file"],
            {"file": {"site": site, "assets": [asset], "sensor": sensor, **self.period(start, end)}},
            now,
        )

    def s_file_merge(self, site):
        etype = self.pick(["boiler", "pump", "vav", "meter"])
        a, b = self.rng.sample(self.assets_of(site, etype), 2)
        sensor = self.pick(NUMERIC[etype])
        phrase, start, end, now = self.day()
        q = self.w["file_merge"].format(sensor=sensor, a=a, b=b, site=site, phrase=phrase)
        spec = {"site": site, "assets": [a, b], "sensor": sensor, **self.period(start, end)}
        return q, ["data", "multi-asset", "merge"], {"file": spec}, now

    def s_missing(self, site):
        names = [n for n, _ in self.plant.equips(site)]
        kind = self.pick(["asset", "asset", "sensor", "site"])
        if kind == "asset":
            name = self.pick([c for c in self.w["missing_asset_names"] if c not in names])
            q, spec = (
                self.w["missing_asset"].format(name=name, site=site),
                {"name": name, "kind": "asset", "site": site},
            )
        elif kind == "sensor":
            asset, etype = self.pick([e for e in self.plant.equips(site) if e[1] in ("vav", "meter")])
            name = "Tonnage" if etype == "meter" else "Gas Input"
            q = self.w["missing_sensor"].format(name=name, asset=asset, site=site)
            spec = {"name": name, "kind": "sensor", "site": site, "asset": asset}
        else:
            name = self.pick(self.w["missing_site_names"])
            q, spec = self.w["missing_site"].format(name=name), {"name": name, "kind": "site"}
        return q, ["missing", kind], {"answer_says_missing": spec}, self.any_now()


def render(seed: int, which: str) -> str:
    gen = Gen(seed if which == "analysis" else seed + 1)
    if which == "analysis":
        tasks = gen.rotate(ANALYSIS, SITES, 5, "ana-rhine", "ana", "a")
    else:
        tasks = gen.rotate(SYNTHETIC, SITES, 6, "syn-rhine", "syn", "s")
    doc = {
        "name": f"{which}-rhine",
        "dataset": "rhine",
        "description": f"{len(tasks)} generated {which} tasks on the built-in plant `rhine` ({', '.join(SITES)}, "
        f"Europe/Berlin) (bench/generate_rhine.py, seed {seed}).",
        "tasks": tasks,
    }
    return taskgen.render(
        "generate_rhine.py", seed, doc, "`dataset: rhine`: edge-agent bench serves that built-in plant."
    )


def main(argv: list[str] | None = None) -> int:
    outputs = lambda seed: {OUT_ANALYSIS: render(seed, "analysis"), OUT_SYNTHETIC: render(seed, "synthetic")}  # noqa: E731
    return taskgen.main(__doc__, "generate_rhine.py", DEFAULT_SEED, outputs, argv)


if __name__ == "__main__":
    sys.exit(main())
