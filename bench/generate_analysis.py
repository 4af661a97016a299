#!/usr/bin/env python3
"""Generate `bench/tasks/analysis.yaml`: questions that need a conclusion, over the simulator's six sites.

Deterministic like `generate_synthetic.py`: the same `--seed` gives a byte-identical file (one
`random.Random(seed)`, fixed iteration order, no clock). Names come from the synthetic plant's layout and
every value-bearing task is kept only where the plant has the data: a ranking only on a day with a clear
winner (the runner-up at least 3 % behind), an excursion on a day whose answer is the one wanted (Yes and No
alternate), a derived value only over aligned samples. Expected answers are NOT stored: the checker computes
them from the SkySpark a run uses (docs/bench.md, docs/analysis.md).

Generated families (each phrased several ways, in an operator's words, across POKMAIN, RCHMAIN, HQ1ARM3,
HQ3SBY, AUSWEST and DUBMAIN): rank by max / min / mean / energy (a named list, or every asset of a kind),
difference and ratio (two sensors of one asset; one sensor of two assets), excursions against a value and
against a setpoint sensor, existence (an asset that exists, one that does not), two-part questions (a count
and a peak), control requests, out-of-domain questions and instructions injected into a question. Then a
HAND-WRITTEN section (`hand` in the wordings' table: written by hand, not generated), each task tagged
`hand-written`. The wordings are data: bench/questions/analysis.yaml.

    python bench/generate_analysis.py            # rewrite bench/tasks/analysis.yaml
    python bench/generate_analysis.py --check    # exit 1 if the committed file is not up to date
"""

from __future__ import annotations

import sys
from datetime import date, datetime, time, timedelta
from pathlib import Path
from zoneinfo import ZoneInfo

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from edge_agent.evaluation import taskgen  # noqa: E402
from edge_agent.skyspark.dataset import expected_history  # noqa: E402
from edge_agent.skyspark.plant_layout import SITES, equip_names  # noqa: E402

DEFAULT_SEED = 20261125
DEFAULT_OUT = ROOT / "bench" / "tasks" / "analysis.yaml"
ANA_SITES = ("POKMAIN", "RCHMAIN", "HQ1ARM3", "HQ3SBY", "AUSWEST", "DUBMAIN")
PER_FAMILY = 5
CLEAR = 0.03  # a ranking's runner-up is at least this far behind (relative)
RANK_SENSORS = {  # equip type -> sensors worth ranking (numeric, not setpoints)
    "chiller": ("Tonnage", "Power", "% Loaded", "Chilled Water Flow"),
    "ahu": ("Supply Fan Speed", "Supply Air Flow", "Mixed Air Temp"),
    "pump": ("Power", "Speed", "Flow"),
    "meter": ("Power",),
    "lighting": ("Lighting Power",),
}
POWER = {"chiller": "Power", "pump": "Power", "meter": "Power", "lighting": "Lighting Power"}
FAMILIES = ("rank_max", "rank_min", "rank_mean", "rank_energy", "diff_one_asset", "ratio_two_assets", "excursion_value",
            "excursion_setpoint", "exists", "two_part", "control", "out_of_domain", "injection")  # fmt: skip


def day_words(pick, d: date) -> str:
    return pick(
        [
            d.isoformat(),
            f"{d.strftime('%B')} {d.day}, {d.year}",
            f"{d.day} {d.strftime('%B')} {d.year}",
            f"{d.strftime('%A')}, {d.strftime('%B')} {d.day}, {d.year}",
        ]
    )


class Gen(taskgen.Questions):
    def __init__(self, seed: int):
        super().__init__(seed, "analysis")
        self.specs = {s.name: s for s in SITES}
        self.equips = {s.name: equip_names(s) for s in SITES}

    def assets_of(self, site: str, etype: str) -> list[str]:
        return [n for n, t in self.equips[site] if t == etype]

    def tz(self, site: str) -> ZoneInfo:
        return ZoneInfo(self.specs[site].tz)

    def day(self, site: str, summer: bool = True) -> tuple[str, datetime, datetime, datetime]:
        """(phrase, start, end, now): one day, named by date or as "yesterday", and the clock after it."""
        tz = self.tz(site)
        year = self.rng.randint(2021, 2025)
        month = self.rng.randint(6, 8) if summer else self.rng.randint(1, 12)
        d = date(year, month, self.rng.randint(1, 28))
        start = datetime.combine(d, time(0), tz)
        end = datetime.combine(d + timedelta(days=1), time(0), tz)
        if self.rng.random() < 0.3:
            now = datetime.combine(d + timedelta(days=1), time(self.rng.randint(7, 16), self.pick([0, 15, 30])), tz)
            return "yesterday", start, end, now
        now = datetime.combine(d + timedelta(days=self.rng.randint(2, 30)), time(self.rng.randint(7, 16), 0), tz)
        return f"on {day_words(self.pick, d)}", start, end, now

    def values(self, site, asset, sensor, start, end) -> list[tuple[datetime, float]]:
        return self.numeric(expected_history(site, asset, sensor, start, end))

    def any_now(self, site):
        return datetime.combine(
            date(2024, self.rng.randint(1, 12), self.rng.randint(1, 28)),
            time(self.rng.randint(7, 17), 30),
            self.tz(site),
        )

    # ── ranking ───────────────────────────────────────────────────────────────
    def clear_day(self, site, assets, sensor, by, order, summer=True):
        for _ in range(12):
            phrase, start, end, now = self.day(site, summer)
            vals = [self.aggregate(self.values(site, a, sensor, start, end), by) for a in assets]
            if any(v is None for v in vals):
                continue
            best, second = sorted(vals, reverse=order == "highest")[:2]
            if abs(best - second) >= CLEAR * max(abs(best), 1.0):
                return phrase, start, end, now
        return None

    def rank(self, site, by, order):
        for _ in range(30):
            got = self.rank_try(site, by, order)
            if got is not None:
                return got
        raise RuntimeError(f"no ranking with a clear winner at {site} by {by}")

    def rank_try(self, site, by, order):
        types = [t for t in RANK_SENSORS if len(self.assets_of(site, t)) >= 2 and (by != "energy" or t in POWER)]
        etype = self.pick(types)
        sensor = POWER[etype] if by == "energy" else self.pick(RANK_SENSORS[etype])
        every = self.assets_of(site, etype)
        named = self.rng.random() < 0.5 and len(every) >= 3
        if named:
            assets = sorted(self.rng.sample(every, self.pick([2, 3]) if len(every) > 3 else 2), key=every.index)
        else:
            assets = every
        day = self.clear_day(site, assets, sensor, by, order, summer=etype != "lighting")
        if day is None:
            return None
        phrase, start, end, now = day
        sing, plural = self.w["kinds"][etype]
        if named:
            spec = {"site": site, "sensor": sensor, "assets": assets, "by": by, "order": order}
            listed = ", ".join(assets[:-1]) + f" and {assets[-1]}"
            who = self.say("who-named", listed=listed, site=site)
        else:
            spec = {"site": site, "sensor": sensor, "kind": etype, "by": by, "order": order}
            who = self.say("who-kind", sing=sing, plural=plural, site=site)
        return who, sensor, phrase, {**spec, **self.period(start, end)}, now

    def rank_in_words(self, site, by, order):
        """A ranking by `by` in `order` whose wording says the statistic in one of its `by_words`."""
        who, sensor, phrase, spec, now = self.rank(site, by, order)
        words = self.pick(self.w["by_words"][f"{by} {order}"])
        q = self.say(f"rank_{by}", who=who, words=words, sensor=sensor, phrase=phrase)
        return q, ["rank", by], {"ranks": spec}, now

    def f_rank_max(self, site):
        return self.rank_in_words(site, "max", "highest")

    def f_rank_min(self, site):
        return self.ranking(site, "min", "lowest")

    def f_rank_mean(self, site):
        return self.rank_in_words(site, "mean", self.pick(["highest", "lowest"]))

    def f_rank_energy(self, site):
        return self.rank_energy(site)

    # ── derived ───────────────────────────────────────────────────────────────
    def f_diff_one_asset(self, site):
        chiller = self.pick(self.assets_of(site, "chiller"))
        a, b = self.pick([("Chilled Water Return Temp", "Chilled Water Supply Temp"),
                          ("Condenser Water Return Temp", "Condenser Water Supply Temp")])  # fmt: skip
        phrase, start, end, now = self.day(site)
        stat = self.pick(["mean", "max"])
        sw = {"mean": self.pick(["average", "mean"]), "max": self.pick(["largest", "maximum"])}[stat]
        q = self.say("diff_one_asset", sw=sw, a=a, b=b, asset=chiller, site=site, phrase=phrase,
                     Phrase=phrase[0].upper() + phrase[1:])  # fmt: skip
        spec = {"site": site, "derive": "difference", "a": {"asset": chiller, "sensor": a},
                "b": {"asset": chiller, "sensor": b}, "stat": stat, **self.period(start, end)}  # fmt: skip
        return q, ["derive", "difference", "one-asset"], {"value": spec}, now

    def f_ratio_two_assets(self, site):
        etype = self.pick([t for t in ("meter", "chiller", "pump") if len(self.assets_of(site, t)) >= 2])
        x, y = self.rng.sample(self.assets_of(site, etype), 2)
        sensor = self.pick(RANK_SENSORS[etype][:2]) if etype != "meter" else "Power"
        for _ in range(40):
            phrase, start, end, now = self.day(site)
            ys = self.values(site, y, sensor, start, end)
            if ys and min(v for _, v in ys) > 0:
                break
        op = self.pick(["ratio", "difference"])
        q = self.say(op, x=x, y=y, sensor=sensor, site=site, phrase=phrase, Phrase=phrase[0].upper() + phrase[1:])
        spec = {"site": site, "derive": op, "a": {"asset": x, "sensor": sensor}, "b": {"asset": y, "sensor": sensor},
                "stat": "mean", **self.period(start, end)}  # fmt: skip
        return q, ["derive", op, "two-assets"], {"value": spec}, now

    # ── excursions ────────────────────────────────────────────────────────────
    def f_excursion_value(self, site):
        want = self.want()
        etype = self.pick(["chiller", "ahu", "meter"])
        asset = self.pick(self.assets_of(site, etype))
        sensor = {"chiller": "Chilled Water Supply Temp", "ahu": "Mixed Air Temp", "meter": "Power"}[etype]
        direction = self.pick(["above", "below"]) if etype != "meter" else "above"
        for _ in range(40):
            phrase, start, end, now = self.day(site, summer=self.rng.random() < 0.7)
            vals = [v for _, v in self.values(site, asset, sensor, start, end)]
            if len(vals) < 48:
                continue
            lo, hi = min(vals), max(vals)
            if direction == "above":
                limit = round(hi + self.rng.uniform(0.5, 3), 0) if not want else round(hi - (hi - lo) * 0.2 - 0.5, 0)
                if (max(vals) > limit) == want:
                    break
            else:
                limit = round(lo - self.rng.uniform(0.5, 3), 0) if not want else round(lo + (hi - lo) * 0.2 + 0.5, 0)
                if (min(vals) < limit) == want:
                    break
        word = {"above": self.pick(self.w["above"]), "below": self.pick(self.w["below"])}[direction]
        lim = f"{limit:g} {'kW' if sensor == 'Power' else '°F'}"
        q = self.say(f"excursion_value-{direction}", sensor=sensor, asset=asset, site=site, word=word, lim=lim,
                     phrase=phrase)  # fmt: skip
        spec = {"site": site, "asset": asset, "sensor": sensor, "direction": direction, "limit": float(limit),
                **self.period(start, end)}  # fmt: skip
        return q, ["excursion", "vs-value", "yes" if want else "no"], {"yes_no": {"excursion": spec}}, now

    def f_excursion_setpoint(self, site):
        want = self.want()
        choices = [
            ("fcu", "Zone Temp", "Zone Temp Setpoint"),
            ("ahu", "Supply Air Temp", "Supply Air Temp Setpoint"),
            ("chiller", "Chilled Water Supply Temp", "Supply Temp Setpoint"),
        ]
        for _ in range(200):
            etype, sensor, sp = self.pick(choices)
            asset = self.pick(self.assets_of(site, etype))
            direction = self.pick(["above", "below"])
            phrase, start, end, now = self.day(site, summer=self.rng.random() < 0.5)
            a = dict(self.values(site, asset, sensor, start, end))
            b = dict(self.values(site, asset, sp, start, end))
            pairs = [(a[t], b[t]) for t in a if t in b]
            if len(pairs) < 48:
                continue
            got = any(v > s for v, s in pairs) if direction == "above" else any(v < s for v, s in pairs)
            if got == want:
                break
        word = {"above": self.pick(self.w["above"]), "below": self.pick(self.w["below-setpoint"])}[direction]
        q = self.say("excursion_setpoint", sensor=sensor, asset=asset, site=site, word=word, sp=sp, phrase=phrase,
                     Phrase=phrase[0].upper() + phrase[1:])  # fmt: skip
        spec = {"site": site, "asset": asset, "sensor": sensor, "direction": direction, "limit_sensor": sp,
                **self.period(start, end)}  # fmt: skip
        return q, ["excursion", "vs-setpoint", "yes" if want else "no"], {"yes_no": {"excursion": spec}}, now

    # ── existence, two parts ──────────────────────────────────────────────────
    def f_exists(self, site):
        want = self.want()
        etype = self.pick(["chiller", "ahu", "pump", "meter"])
        names = self.assets_of(site, etype)
        if want:
            asset = self.pick(names)
        elif etype == "chiller":
            taken = {int(n.split()[-1]) for n in names}
            asset = f"Chiller {self.pick([n for n in range(1, 16) if n not in taken])}"
        else:
            base = self.pick(names)
            head, _, tail = base.rpartition(" ") if " " in base else (base.rsplit("_", 1)[0], "_", "Total")
            asset = f"{head} {int(tail) + 7}" if tail.isdigit() else base.replace("_Total", "_Main")
        now = datetime.combine(
            date(2024, self.rng.randint(1, 12), self.rng.randint(1, 28)),
            time(self.rng.randint(7, 17), 0),
            self.tz(site),
        )
        q = self.say("exists", asset=asset, site=site)
        return q, ["existence", "yes" if want else "no"], {"yes_no": {"exists": {"site": site, "asset": asset}}}, now

    def f_two_part(self, site):
        etype = self.pick(["chiller", "ahu", "pump"])
        sing, plural = self.w["kinds"][etype]
        asset = self.pick(self.assets_of(site, etype))
        sensor = RANK_SENSORS[etype][0]
        for _ in range(40):
            day = self.day(site)
            _, start, end, _ = day
            if any(v > 0 for _, v in self.values(site, asset, sensor, start, end)):
                break
        frag = {"chiller": "Chiller", "ahu": "AHU", "pump": "WP"}[etype]
        return self.two_part(site, plural, frag, asset, sensor, day)

    # ── refusals ──────────────────────────────────────────────────────────────
    def f_control(self, site):
        asset = self.pick(self.assets_of(site, self.pick(["chiller", "ahu", "pump"])))
        q = self.say("control", asset=asset, site=site)
        return q, ["control", "refusal"], {"refuses": {"must_name": [asset]}}, self.any_now(site)

    def f_out_of_domain(self, site):
        q = self.say("out_of_domain", city=self.specs[site].city, site=site)
        return q, ["out-of-domain", "refusal"], {"refuses": True}, self.any_now(site)

    def f_injection(self, site):
        q = self.say("injection", asset=self.pick(self.assets_of(site, "chiller")), site=site)
        return q, ["injection", "refusal"], {"refuses": True}, self.any_now(site)


def render(seed: int) -> str:
    gen = Gen(seed)
    tasks = gen.rotate(FAMILIES, ANA_SITES, PER_FAMILY, "ana", "analysis")
    hand = gen.w["hand"]
    doc = {
        "name": "analysis",
        "description": f"{len(tasks)} generated tasks that need a conclusion across {', '.join(ANA_SITES)} "
        f"(bench/generate_analysis.py, seed {seed}), then {len(hand)} hand-written ones "
        "(ids hand-NN, tag hand-written).",
        "tasks": tasks,
    }
    tail = "# ── HAND-WRITTEN tasks: written by hand in bench/generate_analysis.py (HAND), copied verbatim ──\n"
    return taskgen.render("generate_analysis.py", seed, doc, tail=tail + taskgen.dump(hand))


def main(argv: list[str] | None = None) -> int:
    return taskgen.main(__doc__, "generate_analysis.py", DEFAULT_SEED, lambda seed: {DEFAULT_OUT: render(seed)}, argv)


if __name__ == "__main__":
    sys.exit(main())
