#!/usr/bin/env python3
"""Generate `bench/tasks/synthetic.yaml`: IoT tasks from templates with paraphrases, across HQ3SBY, HQ1ARM3, AUSWEST.

Deterministic: the same `--seed` gives a byte-identical file (one `random.Random(seed)`, fixed
iteration order, no clock, no set ordering). Entity names come from the synthetic plant's layout
(`edge_agent.skyspark.dataset`), and candidate value/point tasks are kept only where the plant has
data (a reading exactly at a point in time, a non-zero peak), so every task is answerable on the
simulator. Expected answers are NOT stored: the checker computes them from the SkySpark a run uses.

Twelve families (each phrased several ways; the wordings are data: bench/questions/synthetic.yaml): list assets of
a kind, count assets of a kind, sensors of an asset, one-asset data file, multi-asset file in a single file,
multi-sensor file, aggregate over a day, value at a point in time, two-asset comparison, missing entity (asset,
sensor or site), near-miss names, and long multi-part requests that combine a file and a value.

    python bench/generate_synthetic.py            # rewrite bench/tasks/synthetic.yaml
    python bench/generate_synthetic.py --check    # exit 1 if the committed file is not up to date
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
from edge_agent.skyspark.plant_layout import POINTS, SITES, equip_names  # noqa: E402

DEFAULT_SEED = 20250611
DEFAULT_OUT = ROOT / "bench" / "tasks" / "synthetic.yaml"
SYN_SITES = ("HQ3SBY", "HQ1ARM3", "AUSWEST")
PER_FAMILY_PER_SITE = 5
DATA_SENSORS = {  # numeric, non-setpoint sensors per equip type
    t: [p.nav for p in specs if p.kind == "Number" and p.role != "sp"] for t, specs in POINTS.items()
}
FAMILIES = ("list_assets", "count_assets", "sensors", "file_one", "file_merge", "file_sensors", "aggregate", "point",
            "compare", "missing", "near_miss", "long")  # fmt: skip


class Gen(taskgen.Questions):
    def __init__(self, seed: int):
        super().__init__(seed, "synthetic")
        self.specs = {s.name: s for s in SITES}
        self.equips = {s.name: equip_names(s) for s in SITES}
        self.kind = self.w["kinds"]

    def assets_of(self, site: str, etype: str) -> list[str]:
        return [n for n, t in self.equips[site] if t == etype]

    def now(self, site: str, summer: bool = False) -> datetime:
        year = self.rng.randint(2021, 2025)
        month = self.rng.randint(5, 9) if summer else self.rng.randint(1, 12)
        day = self.rng.randint(1, 28)
        hour = self.rng.randint(7, 17)
        return datetime(year, month, day, hour, self.pick([0, 15, 30, 45]), tzinfo=ZoneInfo(self.specs[site].tz))

    @staticmethod
    def midnight(d: date, tz) -> datetime:
        return datetime.combine(d, time(0), tz)

    # ── periods ───────────────────────────────────────────────────────────────
    def words_of(self, now: datetime) -> tuple[str, str, datetime, datetime]:
        """(adverbial phrase, noun phrase, start, end): a period resolved against `now` by the
        conventions of docs/bench.md (days [00:00, next 00:00), weeks from Monday)."""
        tz, today = now.tzinfo, now.date()
        kind = self.pick(["yesterday", "day-before", "last-week", "past-n", "day", "day", "first-week"])
        if kind == "yesterday":
            d = today - timedelta(days=1)
            return (
                self.pick(["yesterday", "for yesterday"]),
                "yesterday",
                self.midnight(d, tz),
                self.midnight(today, tz),
            )
        if kind == "day-before":
            d = today - timedelta(days=2)
            noun = "the day before yesterday"
            return noun, noun, self.midnight(d, tz), self.midnight(d + timedelta(days=1), tz)
        if kind == "last-week":
            monday = today - timedelta(days=today.weekday())
            phrase = self.pick(["last week", "during last week", "for the previous week"])
            return phrase, "last week", self.midnight(monday - timedelta(days=7), tz), self.midnight(monday, tz)
        if kind == "past-n":
            n = self.rng.randint(2, 5)
            phrase = self.pick([f"over the past {n} days", f"for the last {n} days"])
            return phrase, f"the past {n} days", self.midnight(today - timedelta(days=n), tz), self.midnight(today, tz)
        if kind == "first-week":
            first = (today.replace(day=1) - timedelta(days=1)).replace(day=1)
            noun = f"the first week of {first.strftime('%B %Y')}"
            return f"during {noun}", noun, self.midnight(first, tz), self.midnight(first + timedelta(days=7), tz)
        d = today - timedelta(days=self.rng.randint(3, 40))
        words = self.day_words(d)
        return f"on {words}", words, self.midnight(d, tz), self.midnight(d + timedelta(days=1), tz)

    def day_words(self, d: date) -> str:
        return self.pick([d.isoformat(), f"{d:%B} {d.day}, {d.year}", f"{d.day} {d:%B} {d.year}",
                          f"{d.strftime('%b').lower()} {d.day} '{d:%y}", f"{d.month}/{d.day}/{d.year}"])  # fmt: skip

    # ── plant data (to keep only answerable tasks) ─────────────────────────────
    def has_data(self, site, asset, sensor, start, end, nonzero=True) -> bool:
        vals = [v for _, v in expected_history(site, asset, sensor, start, end) if v is not None]
        return bool(vals) and (not nonzero or max(abs(v) for v in vals) > 0)

    def asset_sensor(self, site, types=("chiller", "ahu", "pump", "meter", "fcu", "lighting")):
        etype = self.pick([t for t in types if self.assets_of(site, t)])
        return etype, self.pick(self.assets_of(site, etype)), self.pick(DATA_SENSORS[etype])

    @staticmethod
    def file(site, assets, sensor, start, end, **kw):
        return {"site": site, "assets": assets, "sensor": sensor, "start": start.isoformat(), "end": end.isoformat(),
                **kw}  # fmt: skip

    # ── task builders (each returns question, tags, expect, now) ───────────────
    def of_a_kind(self, key, kinds, tags, check, site):
        """A question of `key` about the assets of one of `kinds` (picked) at `site`, checked by `check`."""
        one, many, frag = self.kind[self.pick(kinds)]
        q = self.say(key, one=one, many=many, site=site)
        return q, tags, {check: {"of": "assets", "site": site, "name_contains": frag}}, self.now(site)

    def f_list_assets(self, site):
        return self.of_a_kind("list_assets", ["chiller", "ahu", "meter"], ["discovery", "assets"], "answer_lists", site)

    def f_count_assets(self, site):
        kinds = ["fcu", "lighting", "ahu", "chiller"]
        return self.of_a_kind("count_assets", kinds, ["discovery", "assets", "count"], "count", site)

    def f_sensors(self, site):
        etype = self.pick(["chiller", "ahu", "meter", "fcu", "lighting"])
        asset = self.pick(self.assets_of(site, etype))
        if self.rng.random() < 0.5:
            q = self.say("sensors-list", asset=asset, site=site)
            expect = {"answer_lists": {"of": "sensors", "site": site, "asset": asset}}
            return q, ["discovery", "sensors"], expect, self.now(site)
        q = self.say("sensors-count", asset=asset, site=site)
        return (
            q,
            ["discovery", "sensors", "count"],
            {"count": {"of": "sensors", "site": site, "asset": asset}},
            self.now(site),
        )

    def f_file_one(self, site):
        for _ in range(50):
            etype, asset, sensor = self.asset_sensor(site)
            now = self.now(site, summer=etype == "chiller")
            phrase, noun, start, end = self.words_of(now)
            if self.has_data(site, asset, sensor, start, end, nonzero=False):
                break
        q = self.say("file_one", sensor=sensor, asset=asset, site=site, phrase=phrase, noun=noun)
        return q, ["data", "interval", "file"], {"file": self.file(site, [asset], sensor, start, end)}, now

    def f_file_merge(self, site):
        etype = self.pick([t for t in ("chiller", "ahu", "meter", "fcu") if len(self.assets_of(site, t)) >= 2])
        a1, a2 = self.rng.sample(self.assets_of(site, etype), 2)
        sensor = self.pick(DATA_SENSORS[etype])
        now = self.now(site, summer=etype == "chiller")
        phrase, noun, start, end = self.words_of(now)
        q = self.say("file_merge", sensor=sensor, a1=a1, a2=a2, site=site, phrase=phrase, noun=noun)
        return (
            q,
            ["data", "multi-asset", "merge", "interval"],
            {"file": self.file(site, [a1, a2], sensor, start, end)},
            now,
        )

    def f_file_sensors(self, site):
        etype, asset, _ = self.asset_sensor(site, ("chiller", "ahu", "pump", "meter"))
        s1, s2 = self.rng.sample(DATA_SENSORS[etype], 2)
        now = self.now(site, summer=etype == "chiller")
        phrase, _, start, end = self.words_of(now)
        q = self.say("file_sensors", s1=s1, s2=s2, asset=asset, site=site, phrase=phrase)
        expect = {"file": self.file(site, [asset], [s1, s2], start, end, single_file=False)}
        return q, ["data", "multi-sensor", "interval"], expect, now

    def aggregate_for(self, sensor):
        if sensor == "Energy":
            return "sum"
        return self.pick(["max", "max", "min", "mean"]) if "Temp" not in sensor else self.pick(["max", "min", "mean"])

    def f_aggregate(self, site):
        for _ in range(50):
            etype, asset, sensor = self.asset_sensor(site, ("chiller", "ahu", "pump", "meter", "fcu"))
            agg = self.aggregate_for(sensor)
            now = self.now(site, summer=etype in ("chiller", "pump"))
            d = now.date() - timedelta(days=self.rng.randint(1, 60))
            start, end = self.midnight(d, now.tzinfo), self.midnight(d + timedelta(days=1), now.tzinfo)
            if self.has_data(site, asset, sensor, start, end, nonzero=agg != "min"):
                break
        word = self.pick(self.w["agg_words"][agg])
        when = self.day_words(d)
        key = "aggregate-max-min" if agg in ("max", "min") else "aggregate"
        q = self.say(
            key, word=word, sensor=sensor, asset=asset, site=site, when=when, how="high" if agg == "max" else "low"
        )
        value = {"site": site, "asset": asset, "sensor": sensor, "aggregate": agg, "start": start.isoformat(),
                 "end": end.isoformat()}  # fmt: skip
        return q, ["data", "aggregate", "absolute-date", "interval"], {"value": value}, now

    def point(self, site, summer):
        for _ in range(80):
            etype, asset, sensor = self.asset_sensor(site, ("chiller", "ahu", "meter", "fcu", "pump"))
            now = self.now(site, summer=summer or etype == "chiller")
            style = self.pick(["midnight", "yesterday-pm", "absolute"])
            if style == "midnight":
                at, words = self.midnight(now.date(), now.tzinfo), "at midnight"
            elif style == "yesterday-pm":
                h = self.rng.randint(1, 11)
                at = self.midnight(now.date() - timedelta(days=1), now.tzinfo) + timedelta(hours=12 + h)
                words = f"at {h} pm yesterday"
            else:
                d = now.date() - timedelta(days=self.rng.randint(2, 30))
                at = self.midnight(d, now.tzinfo) + timedelta(
                    hours=self.rng.randint(0, 23), minutes=self.pick([0, 15, 30, 45])
                )
                words = f"at {at.strftime('%H:%M')} on {self.day_words(d)}"
            if self.has_data(site, asset, sensor, at, at + timedelta(minutes=1), nonzero=True):
                value = {"site": site, "asset": asset, "sensor": sensor, "aggregate": "at", "at": at.isoformat()}
                return asset, sensor, now, words, {"value": value}
        raise RuntimeError(f"no answerable point task found for {site}")

    def f_point(self, site):
        asset, sensor, now, words, expect = self.point(site, False)
        q = self.say("point", sensor=sensor, asset=asset, site=site, words=words, Words=words[0].upper() + words[1:])
        return q, ["data", "point"], expect, now

    def f_compare(self, site):
        etype = self.pick([t for t in ("chiller", "ahu", "meter") if len(self.assets_of(site, t)) >= 2])
        for _ in range(50):
            a1, a2 = self.rng.sample(self.assets_of(site, etype), 2)
            sensor = self.pick(DATA_SENSORS[etype])
            now = self.now(site, summer=etype == "chiller")
            d = now.date() - timedelta(days=self.rng.randint(1, 30))
            start, end = self.midnight(d, now.tzinfo), self.midnight(d + timedelta(days=1), now.tzinfo)
            if all(self.has_data(site, a, sensor, start, end) for a in (a1, a2)):
                break
        q = self.say("compare", sensor=sensor, when=self.day_words(d), site=site, a1=a1, a2=a2)
        checks = [{"site": site, "asset": a, "sensor": sensor, "aggregate": "max", "start": start.isoformat(),
                   "end": end.isoformat()} for a in (a1, a2)]  # fmt: skip
        return q, ["data", "multi-asset", "comparison", "aggregate"], {"value": checks}, now

    def f_missing(self, site):
        kind = self.pick(["asset", "asset", "sensor", "site"])
        now = self.now(site)
        if kind == "asset":
            nums = [int(c.split()[-1]) for c in self.assets_of(site, "chiller")]
            name = f"Chiller {self.pick([n for n in range(1, 16) if n not in nums])}"
            q = self.say("missing-asset", name=name, site=site)
            return q, ["missing", "assets"], {"answer_says_missing": {"name": name, "kind": "asset", "site": site}}, now
        if kind == "sensor":
            etype = self.pick(["ahu", "fcu", "lighting"])
            asset = self.pick(self.assets_of(site, etype))
            name = self.pick([s for s in self.w["absent_sensors"] if s not in DATA_SENSORS[etype]])
            q = self.say("missing-sensor", name=name, asset=asset, site=site)
            expect = {"answer_says_missing": {"name": name, "kind": "sensor", "site": site, "asset": asset}}
            return q, ["missing", "sensors"], expect, now
        name = self.pick(self.w["fake_sites"])
        return (
            self.say("missing-site", name=name),
            ["missing", "sites"],
            {"answer_says_missing": {"name": name, "kind": "site"}},
            now,
        )

    def near_miss(self, name: str) -> str:
        if name.startswith("Chiller "):
            return self.pick([name.replace(" ", ""), name.lower()])
        if " AHU " in name:
            return self.pick([name.replace(" AHU ", " AHU"), name.replace(" ", "_")])
        if name.endswith("_Total"):
            return name.replace("_", " ")
        return name.lower()

    def f_near_miss(self, site):
        asset, sensor, now, words, expect = self.point(site, False)
        typo_asset = self.near_miss(asset)
        typo_sensor = self.w["typos"].get(sensor, sensor)
        if typo_asset == asset and typo_sensor == sensor:
            typo_sensor = sensor.lower()
        q = self.say("near_miss", sensor=typo_sensor, asset=typo_asset, site=site, words=words)
        return q, ["data", "point", "near-miss"], expect, now

    def f_long(self, site):
        spec = self.specs[site]
        etype = self.pick([t for t in ("chiller", "ahu", "meter") if len(self.assets_of(site, t)) >= 2])
        for _ in range(50):
            a1, a2 = self.rng.sample(self.assets_of(site, etype), 2)
            s1, s2 = self.rng.sample(DATA_SENSORS[etype], 2)
            now = self.now(site, summer=etype == "chiller")
            _, noun, start, end = self.words_of(now)
            if self.has_data(site, a1, s2, start, end):
                break
        q = self.say("long", role=self.pick(self.w["roles"]), city=spec.city, site=site, s1=s1, s2=s2, a1=a1, a2=a2,
                     noun=noun, many=self.kind[etype][1], where=spec.state or spec.country)  # fmt: skip
        value = {"site": site, "asset": a1, "sensor": s2, "aggregate": "max", "start": start.isoformat(),
                 "end": end.isoformat()}  # fmt: skip
        expect = {"file": self.file(site, [a1, a2], s1, start, end), "value": value}
        return q, ["data", "multi-asset", "merge", "aggregate", "long", "multi-part"], expect, now

    def generate(self) -> list[dict]:
        tasks = []
        for site in SYN_SITES:
            n = 0
            for family in FAMILIES:
                for _ in range(PER_FAMILY_PER_SITE):
                    n += 1
                    q, tags, expect, now = getattr(self, f"f_{family}")(site)
                    tags = ["synthetic", family.replace("_", "-"), *tags]
                    tasks.append({"id": f"syn-{site.lower()}-{n:03d}", "question": q, "now": now.isoformat(),
                                  "tags": tags, "expect": expect})  # fmt: skip
        return tasks


def render(seed: int) -> str:
    tasks = Gen(seed).generate()
    doc = {
        "name": "synthetic",
        "description": f"{len(tasks)} generated tasks across {', '.join(SYN_SITES)} "
        f"(bench/generate_synthetic.py, seed {seed}); longer, multi-entity questions (D_Syn).",
        "tasks": tasks,
    }
    return taskgen.render("generate_synthetic.py", seed, doc)


def main(argv: list[str] | None = None) -> int:
    return taskgen.main(__doc__, "generate_synthetic.py", DEFAULT_SEED, lambda seed: {DEFAULT_OUT: render(seed)}, argv)


if __name__ == "__main__":
    sys.exit(main())
