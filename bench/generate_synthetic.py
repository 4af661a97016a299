#!/usr/bin/env python3
"""Generate `bench/tasks/synthetic.yaml`: IoT tasks from templates with paraphrases, across HQ3SBY, HQ1ARM3, AUSWEST.

Deterministic: the same `--seed` gives a byte-identical file (one `random.Random(seed)`, fixed
iteration order, no clock, no set ordering). Entity names come from the synthetic plant's layout
(`edge_agent.skyspark.dataset`), and candidate value/point tasks are kept only where the plant has
data (a reading exactly at a point in time, a non-zero peak), so every task is answerable on the
simulator. Expected answers are NOT stored: the checker computes them from the SkySpark a run uses.

Twelve families (each phrased several ways): list assets of a kind, count assets of a kind,
sensors of an asset, one-asset data file, multi-asset file in a single file, multi-sensor file,
aggregate over a day, value at a point in time, two-asset comparison, missing entity (asset,
sensor or site), near-miss names, and long multi-part requests that combine a file and a value.

    python bench/generate_synthetic.py            # rewrite bench/tasks/synthetic.yaml
    python bench/generate_synthetic.py --check    # exit 1 if the committed file is not up to date
"""

from __future__ import annotations

import random
import sys
from datetime import date, datetime, time, timedelta
from pathlib import Path
from zoneinfo import ZoneInfo

import yaml

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

import taskgen  # noqa: E402

from edge_agent.skyspark.dataset import expected_history  # noqa: E402
from edge_agent.skyspark.plant_layout import POINTS, SITES, equip_names  # noqa: E402

DEFAULT_SEED = 20250611
DEFAULT_OUT = ROOT / "bench" / "tasks" / "synthetic.yaml"
SYN_SITES = ("HQ3SBY", "HQ1ARM3", "AUSWEST")
PER_FAMILY_PER_SITE = 5

KIND_WORDS = {  # equip type -> (singular, plural, name fragment that selects it)
    "chiller": ("chiller", "chillers", "Chiller"),
    "ahu": ("air handling unit", "air handling units", "AHU"),
    "meter": ("electric meter", "electric meters", "_Total"),
    "fcu": ("fan coil unit", "fan coil units", "FCU"),
    "lighting": ("lighting controller", "lighting controllers", "_LC"),
}
DATA_SENSORS = {  # numeric, non-setpoint sensors per equip type
    t: [p.nav for p in specs if p.kind == "Number" and p.role != "sp"] for t, specs in POINTS.items()
}
AGG_WORDS = {
    "max": ["highest", "peak", "maximum"],
    "min": ["lowest", "minimum"],
    "mean": ["average", "mean"],
    "sum": ["total"],
}
TYPOS = {
    "Tonnage": "Tonage",
    "Supply Air Temp": "Supply Air Temperature",
    "% Loaded": "percent loaded",
    "Power": "power",
    "Zone Temp": "Zone Temperature",
    "Chilled Water Supply Temp": "chilled water supply temp",
    "Supply Fan Speed": "Supply Fan Spd",
    "Energy": "energy",
    "Light Level": "light level",
}


class Gen:
    def __init__(self, seed: int):
        self.rng = random.Random(seed)
        self.specs = {s.name: s for s in SITES}
        self.equips = {s.name: equip_names(s) for s in SITES}
        self.all_sites = [s.name for s in SITES]

    # ── picking ────────────────────────────────────────────────────────────────
    def pick(self, seq):
        return seq[self.rng.randrange(len(seq))]

    def assets_of(self, site: str, etype: str) -> list[str]:
        return [n for n, t in self.equips[site] if t == etype]

    def tz(self, site: str) -> ZoneInfo:
        return ZoneInfo(self.specs[site].tz)

    def now(self, site: str, summer: bool = False) -> datetime:
        year = self.rng.randint(2021, 2025)
        month = self.rng.randint(5, 9) if summer else self.rng.randint(1, 12)
        day = self.rng.randint(1, 28)
        hour = self.rng.randint(7, 17)
        return datetime(year, month, day, hour, self.pick([0, 15, 30, 45]), tzinfo=self.tz(site))

    @staticmethod
    def midnight(d: date, tz: ZoneInfo) -> datetime:
        return datetime.combine(d, time(0), tz)

    # ── periods ───────────────────────────────────────────────────────────────
    def period(self, now: datetime) -> tuple[str, str, datetime, datetime]:
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
            return (
                "the day before yesterday",
                "the day before yesterday",
                self.midnight(d, tz),
                self.midnight(d + timedelta(days=1), tz),
            )
        if kind == "last-week":
            monday = today - timedelta(days=today.weekday())
            return (
                self.pick(["last week", "during last week", "for the previous week"]),
                "last week",
                self.midnight(monday - timedelta(days=7), tz),
                self.midnight(monday, tz),
            )
        if kind == "past-n":
            n = self.rng.randint(2, 5)
            return (
                self.pick([f"over the past {n} days", f"for the last {n} days"]),
                f"the past {n} days",
                self.midnight(today - timedelta(days=n), tz),
                self.midnight(today, tz),
            )
        if kind == "first-week":
            first = (today.replace(day=1) - timedelta(days=1)).replace(day=1)
            noun = f"the first week of {first.strftime('%B %Y')}"
            return f"during {noun}", noun, self.midnight(first, tz), self.midnight(first + timedelta(days=7), tz)
        d = today - timedelta(days=self.rng.randint(3, 40))
        words = self.day_words(d)
        return f"on {words}", words, self.midnight(d, tz), self.midnight(d + timedelta(days=1), tz)

    def day_words(self, d: date) -> str:
        style = self.rng.randrange(5)
        if style == 0:
            return d.isoformat()
        if style == 1:
            return f"{d.strftime('%B')} {d.day}, {d.year}"
        if style == 2:
            return f"{d.day} {d.strftime('%B')} {d.year}"
        if style == 3:
            return f"{d.strftime('%b').lower()} {d.day} '{d.strftime('%y')}"
        return f"{d.month}/{d.day}/{d.year}"

    # ── plant data (to keep only answerable tasks) ─────────────────────────────
    def values(self, site, asset, sensor, start, end) -> list[float]:
        return [v for _, v in expected_history(site, asset, sensor, start, end) if v is not None]

    def has_data(self, site, asset, sensor, start, end, nonzero=True) -> bool:
        vals = self.values(site, asset, sensor, start, end)
        return bool(vals) and (not nonzero or max(abs(v) for v in vals) > 0)

    # ── task builders (each returns question, tags, expect, now) ───────────────
    def f_list_assets(self, site):
        etype = self.pick(["chiller", "ahu", "meter"])
        one, many, frag = KIND_WORDS[etype]
        q = self.pick(
            [
                f"Which {many} are installed at {site}?",
                f"List every {one} at the {site} site.",
                f"I need the names of all {many} at {site}.",
                f"What {many} does {site} have?",
            ]
        )
        return (
            q,
            ["discovery", "assets"],
            {"answer_lists": {"of": "assets", "site": site, "name_contains": frag}},
            self.now(site),
        )

    def f_count_assets(self, site):
        etype = self.pick(["fcu", "lighting", "ahu", "chiller"])
        one, many, frag = KIND_WORDS[etype]
        q = self.pick(
            [
                f"How many {many} does {site} have?",
                f"Count the {many} at {site}.",
                f"What is the number of {many} on the {site} site?",
                f"At site {site}, how many {many} are there in total?",
            ]
        )
        return (
            q,
            ["discovery", "assets", "count"],
            {"count": {"of": "assets", "site": site, "name_contains": frag}},
            self.now(site),
        )

    def f_sensors(self, site):
        etype = self.pick(["chiller", "ahu", "meter", "fcu", "lighting"])
        asset = self.pick(self.assets_of(site, etype))
        if self.rng.random() < 0.5:
            q = self.pick(
                [
                    f"What sensors does {asset} at {site} have?",
                    f"List the points of {asset} at {site}.",
                    f"Which measurements are available for {asset} on the {site} site?",
                ]
            )
            return (
                q,
                ["discovery", "sensors"],
                {"answer_lists": {"of": "sensors", "site": site, "asset": asset}},
                self.now(site),
            )
        q = self.pick(
            [
                f"How many sensors are there on {asset} at {site}?",
                f"Count the sensors of {asset} ({site}).",
                f"What is the number of points on {asset} at {site}?",
            ]
        )
        return (
            q,
            ["discovery", "sensors", "count"],
            {"count": {"of": "sensors", "site": site, "asset": asset}},
            self.now(site),
        )

    def _asset_sensor(self, site, types=("chiller", "ahu", "pump", "meter", "fcu", "lighting")):
        etype = self.pick([t for t in types if self.assets_of(site, t)])
        return etype, self.pick(self.assets_of(site, etype)), self.pick(DATA_SENSORS[etype])

    def f_file_one(self, site):
        for _ in range(50):
            etype, asset, sensor = self._asset_sensor(site)
            now = self.now(site, summer=etype == "chiller")
            phrase, noun, start, end = self.period(now)
            if self.has_data(site, asset, sensor, start, end, nonzero=False):
                break
        q = self.pick(
            [
                f"Download the {sensor} of {asset} at {site} {phrase}.",
                f"Save the {sensor} readings of {asset} at {site} from {noun} to a file.",
                f"Get me {asset}'s {sensor} data at {site} {phrase}.",
                f"Export {sensor} for {asset} ({site}) {phrase}.",
            ]
        )
        return q, ["data", "interval", "file"], {"file": self._file(site, [asset], sensor, start, end)}, now

    @staticmethod
    def _file(site, assets, sensor, start, end, **kw):
        return {
            "site": site,
            "assets": assets,
            "sensor": sensor,
            "start": start.isoformat(),
            "end": end.isoformat(),
            **kw,
        }

    def f_file_merge(self, site):
        etype = self.pick([t for t in ("chiller", "ahu", "meter", "fcu") if len(self.assets_of(site, t)) >= 2])
        a1, a2 = self.rng.sample(self.assets_of(site, etype), 2)
        sensor = self.pick(DATA_SENSORS[etype])
        now = self.now(site, summer=etype == "chiller")
        phrase, noun, start, end = self.period(now)
        q = self.pick(
            [
                f"Get {sensor} for {a1} and {a2} at {site} {phrase} in a single file.",
                f"Put the {sensor} of {a1} and of {a2} from {noun} into one file ({site}).",
                f"I want one file with {a1} and {a2} {sensor} at {site} {phrase}.",
                f"Merge the {sensor} data of {a1} and {a2} at {site} from {noun} into a single file.",
            ]
        )
        return (
            q,
            ["data", "multi-asset", "merge", "interval"],
            {"file": self._file(site, [a1, a2], sensor, start, end)},
            now,
        )

    def f_file_sensors(self, site):
        etype, asset, _ = self._asset_sensor(site, ("chiller", "ahu", "pump", "meter"))
        s1, s2 = self.rng.sample(DATA_SENSORS[etype], 2)
        now = self.now(site, summer=etype == "chiller")
        phrase, noun, start, end = self.period(now)
        q = self.pick(
            [
                f"Fetch both the {s1} and the {s2} of {asset} at {site} {phrase}.",
                f"I need {asset} {s1} and {s2} data at {site} {phrase}.",
                f"Get two series for {asset} at {site} {phrase}: {s1} and {s2}.",
            ]
        )
        return (
            q,
            ["data", "multi-sensor", "interval"],
            {"file": self._file(site, [asset], [s1, s2], start, end, single_file=False)},
            now,
        )

    def _aggregate_for(self, sensor):
        if sensor == "Energy":
            return "sum"
        return self.pick(["max", "max", "min", "mean"]) if "Temp" not in sensor else self.pick(["max", "min", "mean"])

    def f_aggregate(self, site):
        for _ in range(50):
            etype, asset, sensor = self._asset_sensor(site, ("chiller", "ahu", "pump", "meter", "fcu"))
            agg = self._aggregate_for(sensor)
            now = self.now(site, summer=etype in ("chiller", "pump"))
            d = now.date() - timedelta(days=self.rng.randint(1, 60))
            start, end = self.midnight(d, now.tzinfo), self.midnight(d + timedelta(days=1), now.tzinfo)
            if self.has_data(site, asset, sensor, start, end, nonzero=agg != "min"):
                break
        word = self.pick(AGG_WORDS[agg])
        when = self.day_words(d)
        q = self.pick(
            [
                f"What was the {word} {sensor} of {asset} at {site} on {when}?",
                f"On {when}, how {'high' if agg == 'max' else 'low'} did the {sensor} of {asset} at {site} go?"
                if agg in ("max", "min")
                else f"Give the {word} {sensor} of {asset} at {site} for {when}.",
                f"Tell me the {word} {sensor} recorded by {asset} ({site}) on {when}.",
            ]
        )
        return (
            q,
            ["data", "aggregate", "absolute-date", "interval"],
            {
                "value": {
                    "site": site,
                    "asset": asset,
                    "sensor": sensor,
                    "aggregate": agg,
                    "start": start.isoformat(),
                    "end": end.isoformat(),
                }
            },
            now,
        )

    def _point(self, site, summer):
        for _ in range(80):
            etype, asset, sensor = self._asset_sensor(site, ("chiller", "ahu", "meter", "fcu", "pump"))
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
                return etype, asset, sensor, now, at, words
        raise RuntimeError(f"no answerable point task found for {site}")

    def f_point(self, site):
        etype, asset, sensor, now, at, words = self._point(site, False)
        q = self.pick(
            [
                f"What was the {sensor} of {asset} at {site} {words}?",
                f"{words[0].upper() + words[1:]}, what did {asset} at {site} read for {sensor}?",
                f"Give me the {sensor} reading of {asset} ({site}) {words}.",
            ]
        )
        return (
            q,
            ["data", "point"],
            {"value": {"site": site, "asset": asset, "sensor": sensor, "aggregate": "at", "at": at.isoformat()}},
            now,
        )

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
        when = self.day_words(d)
        q = self.pick(
            [
                f"Which had the higher peak {sensor} on {when} at {site}, {a1} or {a2}? Give both values.",
                f"Compare the maximum {sensor} of {a1} and {a2} at {site} on {when}.",
                f"On {when} at {site}, what were the highest {sensor} readings of {a1} and of {a2}?",
            ]
        )
        checks = [
            {
                "site": site,
                "asset": a,
                "sensor": sensor,
                "aggregate": "max",
                "start": start.isoformat(),
                "end": end.isoformat(),
            }
            for a in (a1, a2)
        ]
        return q, ["data", "multi-asset", "comparison", "aggregate"], {"value": checks}, now

    def f_missing(self, site):
        kind = self.pick(["asset", "asset", "sensor", "site"])
        now = self.now(site)
        if kind == "asset":
            chillers = self.assets_of(site, "chiller")
            nums = [int(c.split()[-1]) for c in chillers]
            missing = f"Chiller {self.pick([n for n in range(1, 16) if n not in nums])}"
            q = self.pick(
                [
                    f"What was the Tonnage of {missing} at {site} yesterday?",
                    f"Show me {missing}'s Power at {site} for last week.",
                    f"How loaded was {missing} at {site} this morning?",
                ]
            )
            return (
                q,
                ["missing", "assets"],
                {"answer_says_missing": {"name": missing, "kind": "asset", "site": site}},
                now,
            )
        if kind == "sensor":
            etype = self.pick(["ahu", "fcu", "lighting"])
            asset = self.pick(self.assets_of(site, etype))
            absent = self.pick(
                [
                    s
                    for s in ("Tonnage", "Humidity", "CO2", "Condenser Water Supply Temp")
                    if s not in DATA_SENSORS[etype]
                ]
            )
            q = self.pick(
                [
                    f"What was the {absent} of {asset} at {site} yesterday?",
                    f"Get the {absent} readings of {asset} at {site} for last week.",
                ]
            )
            return (
                q,
                ["missing", "sensors"],
                {"answer_says_missing": {"name": absent, "kind": "sensor", "site": site, "asset": asset}},
                now,
            )
        fake = self.pick(["HQ2SBY", "AUSEAST", "HQ1ARM2", "POKWEST"])
        q = self.pick([f"List the chillers at site {fake}.", f"What assets does the {fake} site have?"])
        return q, ["missing", "sites"], {"answer_says_missing": {"name": fake, "kind": "site"}}, now

    def near_miss(self, name: str) -> str:
        if name.startswith("Chiller "):
            return self.pick([name.replace(" ", ""), name.lower()])
        if " AHU " in name:
            return self.pick([name.replace(" AHU ", " AHU"), name.replace(" ", "_")])
        if name.endswith("_Total"):
            return name.replace("_", " ")
        return name.lower()

    def f_near_miss(self, site):
        etype, asset, sensor, now, at, words = self._point(site, False)
        typo_asset = self.near_miss(asset)
        typo_sensor = TYPOS.get(sensor, sensor)
        if typo_asset == asset and typo_sensor == sensor:
            typo_sensor = sensor.lower()
        q = self.pick(
            [
                f"What was the {typo_sensor} of {typo_asset} at {site} {words}?",
                f"Read {typo_asset} {typo_sensor} at {site} {words}.",
            ]
        )
        return (
            q,
            ["data", "point", "near-miss"],
            {"value": {"site": site, "asset": asset, "sensor": sensor, "aggregate": "at", "at": at.isoformat()}},
            now,
        )

    def f_long(self, site):
        spec = self.specs[site]
        etype = self.pick([t for t in ("chiller", "ahu", "meter") if len(self.assets_of(site, t)) >= 2])
        for _ in range(50):
            a1, a2 = self.rng.sample(self.assets_of(site, etype), 2)
            s1, s2 = self.rng.sample(DATA_SENSORS[etype], 2)
            now = self.now(site, summer=etype == "chiller")
            phrase, bare, start, end = self.period(now)
            if self.has_data(site, a1, s2, start, end):
                break
        role = self.pick(
            ["the facilities engineer", "the energy manager", "on the night shift", "preparing the monthly review"]
        )
        q = self.pick(
            [
                f"I'm {role} at the {spec.city} campus ({site}). Pull the {s1} of {a1} and {a2} for {bare} into one "
                f"file so I can compare them, and also tell me the highest {s2} that {a1} reached over the same "
                "period.",
                f"For our {spec.city} site, {site}, we are reviewing {KIND_WORDS[etype][1]}: put {a1} and {a2} {s1} "
                f"data from {bare} in a single file, then report the peak {s2} of {a1} in that period.",
                f"As {role} for {site} ({spec.city}, {spec.state or spec.country}), I need two things: one file with "
                f"{s1} of both {a1} and {a2} covering {bare}, and the maximum {s2} of {a1} during that time.",
            ]
        )
        expect = {
            "file": self._file(site, [a1, a2], s1, start, end),
            "value": {
                "site": site,
                "asset": a1,
                "sensor": s2,
                "aggregate": "max",
                "start": start.isoformat(),
                "end": end.isoformat(),
            },
        }
        return q, ["data", "multi-asset", "merge", "aggregate", "long", "multi-part"], expect, now

    FAMILIES = (
        "list_assets",
        "count_assets",
        "sensors",
        "file_one",
        "file_merge",
        "file_sensors",
        "aggregate",
        "point",
        "compare",
        "missing",
        "near_miss",
        "long",
    )

    def generate(self) -> list[dict]:
        tasks = []
        for site in SYN_SITES:
            short = site.lower()
            n = 0
            for family in self.FAMILIES:
                for _ in range(PER_FAMILY_PER_SITE):
                    n += 1
                    q, tags, expect, now = getattr(self, f"f_{family}")(site)
                    tasks.append(
                        {
                            "id": f"syn-{short}-{n:03d}",
                            "question": q,
                            "now": now.isoformat(),
                            "tags": ["synthetic", family.replace("_", "-"), *tags],
                            "expect": expect,
                        }
                    )
        return tasks


def render(seed: int) -> str:
    tasks = Gen(seed).generate()
    doc = {
        "name": "synthetic",
        "description": f"{len(tasks)} generated tasks across {', '.join(SYN_SITES)} "
        f"(bench/generate_synthetic.py, seed {seed}); longer, multi-entity questions (D_Syn).",
        "tasks": tasks,
    }
    head = (
        "# GENERATED by bench/generate_synthetic.py — do not edit by hand; regenerate with\n"
        f"#   python bench/generate_synthetic.py --seed {seed}\n"
        "# Format: docs/bench.md. Expected answers are computed by the checker from the SkySpark a run uses.\n"
    )
    return head + yaml.safe_dump(doc, sort_keys=False, allow_unicode=True, width=120, default_flow_style=None)


def main(argv: list[str] | None = None) -> int:
    return taskgen.main(__doc__, "generate_synthetic.py", DEFAULT_SEED, lambda seed: {DEFAULT_OUT: render(seed)}, argv)


if __name__ == "__main__":
    sys.exit(main())
