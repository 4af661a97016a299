#!/usr/bin/env python3
"""Draw the generated plants (bench/plants/<plant>.yaml on the plant generator) and write the questions over them
(issue 29 h): `bench/plants/<plant>.json` and `.csv.gz` (an operator's dataset: docs/skyspark.md), and
`bench/tasks/generated-<plant>.yaml`, each question with its truthful check.

The plants are data: each `bench/plants/<plant>.yaml` names its sites, equips, units and naming style and includes
the one recipe of the field's equipment classes, `bench/plants/field.yaml` (docs/plants.md). The questions' wordings
and families are `bench/questions/generated.yaml`; this module is what fills them: it picks an equip, a point, a day
and a wording with one seeded `random.Random` per plant, and keeps a value-bearing question only where the data makes
its answer clear (a ranking's runner-up >= 3 % behind, periods >= 3 % apart, a single time for the extreme). Every
task is validated by the checker against the plant as drawn. Deterministic: the same seed gives byte-identical files.

    python bench/generate_plants.py              # rewrite bench/plants/<plant>.json, .csv.gz and the task files
    python bench/generate_plants.py --check      # exit 1 if a committed file is not what the plant files draw
"""

from __future__ import annotations

import argparse
import random
import re
import sys
from collections.abc import Callable
from dataclasses import dataclass
from datetime import date, datetime, timedelta
from pathlib import Path
from typing import Any
from zoneinfo import ZoneInfo

import yaml

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from phable.kinds import Marker  # noqa: E402

from edge_agent.evaluation import checker as ck  # noqa: E402
from edge_agent.evaluation import taskgen  # noqa: E402
from edge_agent.evaluation.answer_text import norm  # noqa: E402
from edge_agent.evaluation.plantkit.generator import build_by_site  # noqa: E402
from edge_agent.evaluation.plantkit.plantfile import PlantFile  # noqa: E402
from edge_agent.evaluation.tasks import DurationCheck, ExcursionSpec, PeriodsCheck, RanksCheck, parse_tasks  # noqa: E402
from edge_agent.evaluation.truth import STRUCTURAL, Sample  # noqa: E402
from edge_agent.skyspark.haystack_json import json_to_grid  # noqa: E402

PLANTS_DIR = ROOT / "bench" / "plants"
TASKS_DIR = ROOT / "bench" / "tasks"
Q = yaml.safe_load((taskgen.QUESTIONS / "generated.yaml").read_text(encoding="utf-8"))
NAMES: list[str] = Q["plants"]
DEFAULT_SEED: int = Q["seed"]
STEP = timedelta(minutes=15)
CLEAR = 0.03
STAT_NOUN = {"max": "peak", "min": "minimum", "mean": "average"}
WEEK_BEFORE = ["the week before", "week before", "previous week", "the week before last"]  # its words a check accepts
TRANSLIT = str.maketrans(Q["translit"])
NO_TYPO = {w.casefold() for w in Q["no_typo"].split()}


# ── a plant as drawn ───────────────────────────────────────────────────────────────────────────────────────────────
@dataclass(frozen=True)
class SiteT:
    name: str
    tz: str
    city: str
    equips: tuple[tuple[str, str], ...]  # (name, kind)


@dataclass(frozen=True)
class PointT:
    name: str  # its English name (a plant renders it in its own style)
    tags: tuple[str, ...]
    quantity: str
    model: str


@dataclass
class Pt:
    id: str
    site: SiteT
    equip: str
    kind: str
    t: PointT
    name: str
    unit: str
    series: list[tuple[datetime, Any]]


class Plant:
    """One generated plant drawn from its plant file: its name, sites, points (with their samples as drawn), the
    records and the two files."""

    def __init__(self, name: str, seed: int | None = None):
        pf = PlantFile.load(PLANTS_DIR / f"{name}.yaml")
        if seed is not None:
            pf.doc["seed"] = seed
        self.seed: int = pf.doc["seed"]
        drawn, sites = pf.draw()
        self.json, self.gz = build_by_site(drawn, sites)
        self.records = [dict(r) for r in json_to_grid(self.json.decode()).rows]
        self.first, self.days = drawn.start, drawn.ndays
        t = pf.names
        self.name, self.units, self.style = t["plant"], t["system"], t["style"]
        self.manufacturer: tuple[str, str] = (t["manufacturer"][0], t["manufacturer"][1])
        self.missing_site: str = t["missing_site"]
        self.kinds: dict[str, dict] = t["kinds"]
        by_key = {s.key: s for s in sites}
        self.sites = tuple(
            SiteT(by_key[r["site"]].dis, by_key[r["site"]].tz.key, by_key[r["site"]].city, tuple(r["equips"].items()))
            for r in t["layout"]
        )
        drawn_points = iter(drawn.points)
        self.points: list[Pt] = []
        for row, site in zip(t["layout"], self.sites):
            local = by_key[row["site"]].local
            for ei, (equip, kind) in enumerate(site.equips):
                for pi, (pname, ptags, quantity, model, *_) in enumerate(self.kinds[kind]["points"]):
                    _, nav, pkind, unit, _, vals, keep, _ = next(drawn_points)
                    kept = [True] * len(local) if keep is None else keep
                    series = [
                        (t, bool(v) if pkind == "Bool" else v) for t, v, k in zip(local, vals.tolist(), kept) if k
                    ]
                    pt = PointT(pname, tuple(ptags), quantity, model)
                    self.points.append(Pt(f"{row['site']}.e{ei}.p{pi}", site, equip, kind, pt, nav, unit or "", series))


class PlantTruth:
    """The checker's `Truth` over a generated plant in memory (what the simulator serves of its files)."""

    def __init__(self, plant: Plant):
        self.plant = plant
        self._pts = {(p.site.name, p.equip, p.name): p for p in plant.points}
        self._recs = {r["dis"]: r for r in plant.records if "equip" in r}

    def sites(self):
        return [s.name for s in self.plant.sites]

    def assets(self, site):
        return [e for s in self.plant.sites if s.name == site for e, _ in s.equips]

    def sensors(self, site, asset):
        return [p.name for p in self.plant.points if p.site.name == site and p.equip == asset]

    def asset_types(self, site):
        return {
            a: [t for t, v in self._recs[a].items() if isinstance(v, Marker) and t not in STRUCTURAL]
            for a in self.assets(site)
        }

    def asset_tags(self, site, asset):
        return dict(self._recs[asset])

    def history(self, site, asset, sensor, start, end):
        p = self._pts[(site, asset, sensor)]
        unit = None if p.t.quantity == "bool" else (p.unit or None)
        return [Sample(ts, float(v), unit) for ts, v in p.series if start <= ts < end]


def build(seed: int | None = None) -> list[Plant]:
    return [Plant(name, seed) for name in NAMES]


# ── questions ──────────────────────────────────────────────────────────────────────────────────────────────────────
def typo(text: str, rng: random.Random, protect: list[str]) -> str:
    """One plausible typo (two letters swapped) in a plain word of `text`, never inside a protected name (case
    ignored), a day or a month."""
    folded = text.casefold()
    spans = [(m.start(), m.end()) for p in protect if p for m in re.finditer(re.escape(p.casefold()), folded)]
    words = [
        (m.start(), m.end())
        for m in re.finditer(r"(?<![A-Za-z])[a-z]{5,}(?![A-Za-z])", text)
        if not any(a <= m.start() < b for a, b in spans) and m.group(0) not in NO_TYPO
    ]
    if not words:
        return text
    a, b = words[rng.randrange(len(words))]
    w = text[a:b]
    i = rng.randrange(1, len(w) - 2)
    return text[:a] + w[:i] + w[i + 1] + w[i] + w[i + 2 :] + text[b:]


class Lazy(dict):
    """A wording's fields, a callable among them called at each use (drawn per wording, in the wording's order)."""

    def __getitem__(self, key: str) -> Any:
        v = super().__getitem__(key)
        return v() if callable(v) else v


class TaskGen(taskgen.Questions):
    """The task file of one plant: every family, each task checked against the plant as it is drawn."""

    FAMILIES: dict[str, int] = Q["families"]

    def __init__(self, plant: Plant, seed: int):
        super().__init__(f"{seed}|{plant.name}|tasks", "generated")
        self.plant = plant
        self.truth = PlantTruth(plant)
        self.tasks: list[dict] = []
        self.flip = 0
        self.first, self.days = plant.first, plant.days

    # ── wordings
    def wording(self, key: str) -> str:
        return self.pick(self.w[key])

    def choose(self, key: str, **fields: Any) -> str:
        """Each wording of `key` filled in order (a callable field drawn at each use), then one chosen."""
        return self.pick([w.format_map(Lazy(fields)) for w in self.w[key]])

    # ── days and words
    def tz(self, site: SiteT) -> ZoneInfo:
        return ZoneInfo(site.tz)

    def day(self, site: SiteT, d: date) -> tuple[datetime, datetime]:
        tz = self.tz(site)
        return datetime(d.year, d.month, d.day, tzinfo=tz), datetime.combine(
            d + timedelta(days=1), datetime.min.time(), tzinfo=tz
        )

    def dst_day(self, site: SiteT) -> date | None:
        for i in range(1, self.days):
            d = self.first + timedelta(days=i)
            a, b = self.day(site, d)
            if (b - a) != timedelta(days=1) or a.utcoffset() != b.utcoffset():
                return d
        return None

    def pick_day(self, site: SiteT, prefer_dst: bool = False) -> date:
        dst = self.dst_day(site)
        if prefer_dst and dst is not None:
            return dst
        return self.first + timedelta(days=self.rng.randrange(1, self.days - 1))

    def some_day(self, lo: int = 3) -> date:
        return self.first + timedelta(days=self.rng.randrange(lo, self.days))

    def now_after(self, site: SiteT, d: date, days: int | None = None) -> datetime:
        days = self.rng.randrange(1, 4) if days is None else days
        target = min(d + timedelta(days=days), self.first + timedelta(days=self.days))
        h, m = self.rng.choice([7, 8, 9, 10, 13, 15, 16]), self.rng.choice([0, 15, 30, 45])
        return datetime(target.year, target.month, target.day, h, m, tzinfo=self.tz(site))

    def day_words(self, d: date, now: datetime) -> str:
        if (now.date() - d).days == 1 and self.rng.random() < 0.3:
            return "yesterday"
        style = self.rng.randrange(5)
        us = self.plant.units == "us"
        b, bb, a, aa = d.strftime("%B"), d.strftime("%b"), d.strftime("%a"), d.strftime("%A")
        if style == 0:
            return d.isoformat()
        if style == 1:
            return f"{b} {d.day}" if us else f"{d.day} {b}"
        if style == 2:
            return f"{b} {d.day}, {d.year}" if us else f"{d.day} {b} {d.year}"
        if style == 3:
            return f"{a} {d.day} {bb}" if not us else f"{a}, {bb} {d.day}"
        return f"{aa}, {b} {d.day}, {d.year}"

    def on_day(self, words: str) -> str:
        return words if words == "yesterday" else f"on {words}"

    def dd(self, d: date, now: datetime) -> str:
        return self.on_day(self.day_words(d, now))

    def clock(self, h: int, m: int) -> str:
        if self.plant.units == "us" and self.rng.random() < 0.6:
            half = "am" if h < 12 else "pm"
            hh = h % 12 or 12
            return self.rng.choice([f"{hh}:{m:02d} {half}", f"{hh}:{m:02d}{half}", f"{hh}:{m:02d} {half.upper()}"])
        return f"{h:02d}:{m:02d}"

    def equip_words(self, name: str) -> str:
        r = self.rng.random()
        if r < 0.12:
            return name.lower()
        if r < 0.2 and name != name.translate(TRANSLIT):
            return name.translate(TRANSLIT)
        return name

    def sensor_words(self, name: str) -> str:
        r = self.rng.random()
        if "_" in name and r < 0.4:
            return name.replace("_", " ")
        if r < 0.25:
            return name.lower()
        return name

    def unit_words(self, unit: str) -> str:
        return self.rng.choice(self.w["unit_words"].get(unit, [f" {unit}" if unit else ""]))

    def dress(self, text: str, protect: list[str]) -> tuple[str, str]:
        """The question in one of an operator's styles: plain, chatty, with a typo, lower-case terse. A name at the
        start keeps its case."""
        style = self.rng.choice(["plain", "plain", "chatty", "typo", "terse"])
        first = text.split()[0] if text.split() else ""
        keep = any(text.casefold().startswith(p.casefold()) for p in protect if p) or first[:2].isupper()
        lower = (lambda t: t) if keep else (lambda t: t[0].lower() + t[1:])
        if style == "chatty":
            text = self.rng.choice(self.w["chatty_head"]) + lower(text) + self.rng.choice(self.w["chatty_tail"])
        elif style == "typo":
            typed = typo(text, self.rng, protect)
            style, text = ("typo", typed) if typed != text else ("plain", text)
        elif style == "terse":
            text = lower(text.rstrip("?.!").replace("Please ", "").replace("please", ""))
        return " ".join(text.split()), style

    def unique(self, equip: str) -> bool:
        return sum(e == equip for s in self.plant.sites for e, _ in s.equips) == 1

    def where(self, site: SiteT, equip: str | None = None) -> str:
        """The site as the question names it: usually ' at SITE', sometimes nothing when the equip is unique."""
        if equip is not None and self.unique(equip) and self.rng.random() < 0.12:
            return ""
        return self.rng.choice([f" at {site.name}", f" at {site.name}", f" ({site.name})", f" in {site.name}"])

    def noun(self, kind: str) -> tuple[str, str]:
        return self.rng.choice(self.noun_pairs(kind))

    def noun_pairs(self, kind: str) -> list[tuple[str, str]]:
        """The kind's words in this plant's language (German ones only on a German plant)."""
        every = [(sing, plural) for sing, plural in self.plant.kinds[kind]["nouns"]]
        pairs = [n for n in every if self.plant.style == "de" or n[0] not in self.w["german"]]
        return pairs or every

    def nouns(self, kind: str) -> list[str]:
        return [s for s, _ in self.noun_pairs(kind)]

    def marker(self, kind: str) -> str:
        return self.plant.kinds[kind]["markers"][0]

    def round_limit(self, x: float, scale: float) -> float:
        step = 0.5 if scale < 20 else 1.0 if scale < 200 else 5.0 if scale < 2000 else 50.0
        return round(round(x / step) * step, 2)

    # ── the plant's points
    def equips(self, pred: Callable[[SiteT, str, str], bool] = lambda s, e, k: True) -> list[tuple[SiteT, str, str]]:
        return [(s, e, k) for s in self.plant.sites for e, k in s.equips if pred(s, e, k)]

    def kinds_at(self, site: SiteT) -> list[str]:
        return list(dict.fromkeys(k for _, k in site.equips))

    def points_of(self, site: SiteT, equip: str) -> list[Pt]:
        """An equip's numeric readings: no Bool, setpoint, register or count."""
        return [
            p
            for p in self.plant.points
            if p.site is site
            and p.equip == equip
            and p.t.quantity not in ("bool", "count")
            and "sp" not in p.t.tags
            and p.t.model != "totalizer"
        ]

    def points_of_any(self) -> list[Pt]:
        return [
            p
            for p in self.plant.points
            if p.t.quantity not in ("bool", "count") and "sp" not in p.t.tags and p.t.model != "totalizer"
        ]

    def power_points(self) -> list[Pt]:
        return [p for p in self.plant.points if p.t.quantity == "power" and p.unit == "kW"]

    def setpoint_pairs(self) -> list[tuple[Pt, Pt]]:
        out = []
        for sp in self.plant.points:
            if "sp" not in sp.t.tags:
                continue
            want = (set(sp.t.tags) - {"sp"}) | {"sensor"}
            for p in self.plant.points:
                if p.site is sp.site and p.equip == sp.equip and set(p.t.tags) == want:
                    out.append((p, sp))
        return out

    def values(self, p: Pt, start: datetime, end: datetime) -> list[tuple[datetime, float]]:
        return [(ts, float(v)) for ts, v in p.series if start <= ts < end]

    def day_values(self, p: Pt, d: date) -> tuple[datetime, datetime, list[float]]:
        start, end = self.day(p.site, d)
        return start, end, sorted(v for _, v in self.values(p, start, end))

    def limit_question(self, key: str, p: Pt, d: date, limit: float, **more: str) -> tuple[str, datetime]:
        """A wording of `key` about point `p` against `limit` on day `d` (the limit said in the point's unit), and the
        now it is asked at; `more`: the wording's other fields."""
        now = self.now_after(p.site, d)
        dd = self.dd(d, now)
        lim = f"{limit:g}{self.unit_words(p.unit)}"
        q = self.wording(key)
        q = q.format(s=self.sensor_words(p.name), e=self.equip_words(p.equip), w=self.where(p.site, p.equip),
                     w2=f" ({p.site.name})", lim=lim, dd=dd, **more)  # fmt: skip
        return q, now

    # ── a task
    def add(self, family: str, question: str, now: datetime, expect: dict, protect: list[str], extra_tags=()):
        protect = [
            v
            for x in protect + [s.name for s in self.plant.sites]
            if x
            for v in (x, x.translate(TRANSLIT), x.replace("_", " "))
        ]
        text, style = self.dress(question, protect)
        task = {
            "id": f"{self.plant.name}-{len(self.tasks) + 1:03d}",
            "question": text,
            "now": now.isoformat(),
            "tags": ["generated", self.plant.name, family, style, *extra_tags],
            "expect": expect,
        }
        problems = ck.validate_task(parse_tasks({"tasks": [task]}).tasks[0], self.truth)
        if problems:
            raise AssertionError(f"generated a task that does not fit: {problems}")
        self.tasks.append(task)
        return True

    def generate(self) -> list[dict]:
        for family, n in self.FAMILIES.items():
            fn = getattr(self, "f_" + family.replace("-", "_"))
            made, tries = 0, 0
            while made < n:
                tries += 1
                if tries > 400:
                    raise AssertionError(f"{self.plant.name}: cannot generate {family}")
                if fn(made):
                    made += 1
        return self.tasks

    # ── the families (each returns whether it made a task)
    def f_list_kind(self, i: int) -> bool:
        site = self.plant.sites[i % len(self.plant.sites)]
        kind = self.rng.choice(self.kinds_at(site))
        sing, plural = self.noun(kind)
        q = self.wording("list-kind").format(p=plural, sing=sing, w=self.where(site), site=site.name)
        now = self.now_after(site, self.some_day())
        expect = {"answer_lists": {"of": "assets", "site": site.name, "kind": self.marker(kind)}}
        return self.add("list-kind", q, now, expect, [site.name, plural, sing], [kind])

    def f_count_kind(self, i: int) -> bool:
        site = self.plant.sites[i % len(self.plant.sites)]
        kind = self.rng.choice(self.kinds_at(site))
        sing, plural = self.noun(kind)
        q = self.wording("count-kind").format(p=plural, w=self.where(site), site=site.name)
        now = self.now_after(site, self.some_day())
        expect = {"count": {"of": "assets", "site": site.name, "kind": self.marker(kind), "noun": self.nouns(kind)}}
        return self.add("count-kind", q, now, expect, [site.name, plural], [kind])

    def pick_point(self, moving: bool = False):
        """A random equip and one of its points (`moving`: not a constant), or None where it has none."""
        site, equip, kind = self.rng.choice(self.equips())
        pts = [p for p in self.points_of(site, equip) if not moving or p.t.model != "const"]
        if not pts:
            return None
        return site, equip, kind, self.rng.choice(pts)

    def f_points(self, i: int) -> bool:
        site, equip, kind = self.rng.choice(self.equips())
        q = self.wording("points").format(e=self.equip_words(equip), w=self.where(site, equip))
        now = self.now_after(site, self.some_day())
        expect = {"answer_lists": {"of": "sensors", "site": site.name, "asset": equip}}
        return self.add("points", q, now, expect, [equip], [kind])

    def f_value_at(self, i: int) -> bool:
        if (picked := self.pick_point()) is None:
            return False
        site, equip, kind, p = picked
        d = self.pick_day(site, prefer_dst=i == 0)
        h, m = self.rng.choice([(2, 30), (6, 0), (9, 15), (11, 45), (14, 30), (16, 0), (18, 15), (22, 0)])
        at = datetime(d.year, d.month, d.day, h, m, tzinfo=self.tz(site))
        if at.astimezone(ZoneInfo("UTC")).astimezone(self.tz(site)).replace(tzinfo=None) != at.replace(tzinfo=None):
            return False  # a clock time the DST change skips
        if not any(ts == at for ts, _ in self.values(p, at - STEP, at + STEP)):
            return False
        now = self.now_after(site, d)
        dw = self.day_words(d, now)
        q = self.wording("value-at")
        q = q.format(
            s=self.sensor_words(p.name),
            e=self.equip_words(equip),
            w=self.where(site, equip),
            t=self.clock(h, m),
            dd=self.on_day(dw),
        )
        value = {"site": site.name, "asset": equip, "sensor": p.name, "aggregate": "at", "at": at.isoformat()}
        return self.add("value-at", q, now, {"value": value}, [equip, p.name], [kind])

    def f_day_stat(self, i: int) -> bool:
        if (picked := self.pick_point()) is None:
            return False
        site, equip, kind, p = picked
        stat = ["max", "min", "mean"][i % 3]
        d = self.pick_day(site, prefer_dst=i == 1)
        start, end, vals = self.day_values(p, d)
        if len(vals) < 40:
            return False
        now = self.now_after(site, d)
        dw = self.day_words(d, now)
        word = self.rng.choice(self.w["stat_words"][stat])
        q = self.wording("day-stat")
        q = q.format(
            st=word,
            s=self.sensor_words(p.name),
            e=self.equip_words(equip),
            w=self.where(site, equip),
            dd=self.on_day(dw),
        )
        value = {"site": site.name, "asset": equip, "sensor": p.name, "aggregate": stat, **self.period(start, end)}
        return self.add("day-stat", q, now, {"value": value}, [equip, p.name], [kind, stat])

    def f_week_stat(self, i: int) -> bool:
        if (picked := self.pick_point()) is None:
            return False
        site, equip, kind, p = picked
        stat = self.rng.choice(["max", "mean"])
        monday = self.first + timedelta(days=7 * self.rng.randrange(1, 3))
        start, end = self.day(site, monday)[0], self.day(site, monday + timedelta(days=7))[0]
        if self.rng.random() < 0.5:
            now = self.now_after(site, monday + timedelta(days=7), days=self.rng.randrange(0, 3))
            period = "last week"
        else:
            now = self.now_after(site, monday + timedelta(days=8))
            period = f"in the week starting Monday {monday.strftime('%B')} {monday.day}"
        word = self.rng.choice(self.w["stat_words"][stat])
        q = self.wording("week-stat")
        q = q.format(st=word, s=self.sensor_words(p.name), e=self.equip_words(equip), w=self.where(site, equip),
                     dd=period)  # fmt: skip
        value = {"site": site.name, "asset": equip, "sensor": p.name, "aggregate": stat, **self.period(start, end)}
        return self.add("week-stat", q, now, {"value": value}, [equip, p.name], [kind, stat])

    def last_week(self, site: SiteT, back: int = 7) -> tuple[datetime, datetime, datetime]:
        """Monday `back` days after the first day to the next Monday, and a now 0-2 days after that week."""
        monday = self.first + timedelta(days=back)
        start, end = self.day(site, monday)[0], self.day(site, monday + timedelta(days=7))[0]
        return start, end, self.now_after(site, monday + timedelta(days=7), days=self.rng.randrange(0, 3))

    def f_energy(self, i: int) -> bool:
        p = self.rng.choice(self.power_points())
        site = p.site
        if i == 0:
            d = self.pick_day(site)
            start, end = self.day(site, d)
            now = self.now_after(site, d)
            when = self.dd(d, now)
        else:
            start, end, now = self.last_week(site)
            when = "last week"
        q = self.wording("energy").format(e=self.equip_words(p.equip), w=self.where(site, p.equip), dd=when)
        energy = {"site": site.name, "asset": p.equip, "sensor": p.name, **self.period(start, end)}
        return self.add("energy", q, now, {"energy": energy}, [p.equip], [p.kind])

    def f_rank(self, i: int) -> bool:
        site = self.rng.choice(self.plant.sites)
        kinds = [k for k in self.kinds_at(site) if sum(kk == k for _, kk in site.equips) >= 2]
        if not kinds:
            return False
        kind = self.rng.choice(kinds)
        equip = next(e for e, k in site.equips if k == kind)
        pts = self.points_of(site, equip)
        if not pts:
            return False
        p = self.rng.choice(pts)
        power = p.t.quantity == "power" and p.unit == "kW"
        by = ["mean", "max", "min", "energy"][i % 4] if power else ["mean", "max", "min"][i % 3]
        order = self.rng.choice(["highest", "highest", "lowest"])
        d = self.pick_day(site)
        start, end = self.day(site, d)
        spec = {"site": site.name, "sensor": p.name, "kind": self.marker(kind), "by": by, "order": order,
                **self.period(start, end)}  # fmt: skip
        try:
            won, values = ck.expected_ranking(RanksCheck.model_validate(spec), self.truth)
        except ck.TruthError:
            return False
        scored = sorted((v for v in values.values() if v is not None), reverse=order == "highest")
        if len(won) != 1 or len(scored) < 2 or abs(scored[0] - scored[1]) < CLEAR * max(abs(scored[0]), 1e-9):
            return False
        if set(ck.assets_of_kind(self.truth, site.name, self.marker(kind))) != set(values):
            return False  # every asset of the kind has the sensor, so "which <kind>" means these
        now = self.now_after(site, d)
        dd = self.dd(d, now)
        sing, plural = self.noun(kind)
        s = self.sensor_words(p.name)
        fields = {"sing": sing, "p": plural, "w": lambda: self.where(site), "dd": dd, "s": s}
        if by == "energy":
            q = self.choose("rank-energy", most="the most" if order == "highest" else "the least", **fields)
        else:
            word = f"{order} {STAT_NOUN[by]}"
            top = "top" if order == "highest" else "bottom"
            q = self.choose("rank", word=word, by=word.split()[1], top=top, **fields)
        return self.add("rank", q, now, {"ranks": spec}, [site.name, p.name, plural, sing], [kind, by])

    def f_excursion_limit(self, i: int) -> bool:
        quantities = ("temp", "pressure", "power", "humidity", "pct")
        p = self.rng.choice([p for p in self.plant.points if p.t.quantity in quantities and "sp" not in p.t.tags])
        site = p.site
        d = self.pick_day(site, prefer_dst=i == 0 and self.rng.random() < 0.5)
        start, end, vals = self.day_values(p, d)
        if len(vals) < 40 or vals[-1] - vals[0] < 1e-6:
            return False
        want_yes = self.flip % 2 == 0
        self.flip += 1
        direction = self.rng.choice(["above", "below"])
        spread = vals[-1] - vals[0]
        if direction == "above":
            limit = self.round_limit(
                vals[int(len(vals) * 0.9)] if want_yes else vals[-1] + 0.15 * spread + 0.5, vals[-1]
            )
        else:
            limit = self.round_limit(
                vals[int(len(vals) * 0.1)] if want_yes else vals[0] - 0.15 * spread - 0.5, vals[-1]
            )
        spec = {"site": site.name, "asset": p.equip, "sensor": p.name, "direction": direction, "limit": limit,
                **self.period(start, end)}  # fmt: skip
        yes, _, _ = ck.expected_excursion(ExcursionSpec.model_validate(spec), self.truth)
        if yes != want_yes or any(v == limit for v in vals) or (limit < 0 <= vals[0]):
            return False
        go = "over" if direction == "above" else "under"
        q, now = self.limit_question("excursion-limit", p, d, limit, over=direction, go=go)
        tags = [p.kind, "yes" if yes else "no"]
        return self.add("excursion-limit", q, now, {"yes_no": {"excursion": spec}}, [p.equip, p.name], tags)

    def f_excursion_setpoint(self, i: int) -> bool:
        p, sp = self.rng.choice(self.setpoint_pairs())
        site = p.site
        d = self.pick_day(site)
        start, end = self.day(site, d)
        direction = self.rng.choice(["above", "below"])
        spec = {"site": site.name, "asset": p.equip, "sensor": p.name, "direction": direction, "limit_sensor": sp.name,
                **self.period(start, end)}  # fmt: skip
        try:
            yes, _, _ = ck.expected_excursion(ExcursionSpec.model_validate(spec), self.truth)
        except ck.TruthError:
            return False
        want_yes = self.flip % 2 == 0
        if yes != want_yes and self.rng.random() < 0.8:
            return False
        self.flip += 1
        now = self.now_after(site, d)
        dd = self.dd(d, now)
        q = self.wording("excursion-setpoint")
        cross = "exceed its setpoint" if direction == "above" else "drop below its setpoint"
        q = q.format(s=self.sensor_words(p.name), e=self.equip_words(p.equip), w=self.where(site, p.equip),
                     sp=self.sensor_words(sp.name), dd=dd, cross=cross, over=direction)  # fmt: skip
        tags = [p.kind, "yes" if yes else "no"]
        return self.add("excursion-setpoint", q, now, {"yes_no": {"excursion": spec}}, [p.equip, p.name, sp.name], tags)

    def f_duration(self, i: int) -> bool:
        quantities = ("temp", "power", "pct", "humidity", "pressure")
        p = self.rng.choice([p for p in self.plant.points if p.t.quantity in quantities and "sp" not in p.t.tags])
        site = p.site
        d = self.pick_day(site, prefer_dst=i == 0)
        start, end, vals = self.day_values(p, d)
        if len(vals) < 40 or vals[-1] - vals[0] < 1e-6:
            return False
        limit = self.round_limit(vals[int(len(vals) * self.rng.uniform(0.3, 0.85))], vals[-1])
        spec = {"site": site.name, "asset": p.equip, "sensor": p.name, "direction": "above", "limit": limit,
                **self.period(start, end)}  # fmt: skip
        _, share, _, _, _ = ck.expected_duration(DurationCheck.model_validate(spec), self.truth)
        if not 0.1 <= share / 100 <= 0.8 or any(v == limit for v in vals):
            return False
        q, now = self.limit_question("duration", p, d, limit)
        return self.add("duration", q, now, {"duration": spec}, [p.equip, p.name], [p.kind])

    def f_periods(self, i: int) -> bool:
        if (picked := self.pick_point()) is None:
            return False
        site, equip, kind, p = picked
        by = self.rng.choice(["mean", "max"] + (["energy"] if p.t.quantity == "power" and p.unit == "kW" else []))
        order = self.rng.choice(["highest", "highest", "lowest"])
        if i == 0:
            d1 = self.pick_day(site)
            d2 = d1 + timedelta(days=self.rng.choice([1, 7, -1, -7]))
            if not (self.first < d2 < self.first + timedelta(days=self.days - 1)):
                return False
            a, b = self.day(site, d1), self.day(site, d2)
            now = self.now_after(site, max(d1, d2))
            w1, w2 = self.day_words(d1, now), self.day_words(d2, now)
            if w1 == w2:
                return False
            first = {**self.period(*a), "labels": [w1] if not w1[0].isdigit() else []}
            second = {**self.period(*b), "labels": [w2] if not w2[0].isdigit() else []}
            p1, p2 = self.on_day(w1), self.on_day(w2)
        else:
            start, end, now = self.last_week(site, 14)
            first = {**self.period(start, end), "labels": ["last week"]}
            second = {**self.period(self.day(site, start.date() - timedelta(days=7))[0], start), "labels": WEEK_BEFORE}
            p1, p2 = "last week", "the week before"
        spec = {"site": site.name, "asset": equip, "sensor": p.name, "by": by, "order": order, "first": first,
                "second": second}  # fmt: skip
        try:
            won, x, y = ck.expected_periods(PeriodsCheck.model_validate(spec), self.truth)
        except ck.TruthError:
            return False
        if len(won) != 1 or abs(x - y) < CLEAR * max(abs(x), abs(y), 1e-9):
            return False
        s = self.sensor_words(p.name)
        if by == "energy":
            key, more = "periods-energy", {"use": "more" if order == "highest" else "less"}
        else:
            word = {"mean": self.rng.choice(["average", "mean"]), "max": self.rng.choice(["peak", "maximum"])}[by]
            key, more = "periods", {"word": word, "more": "higher" if order == "highest" else "lower"}
        q = self.wording(key).format(e=self.equip_words(equip), w=self.where(site, equip), s=s, p1=p1, p2=p2, **more)
        return self.add("periods", q, now, {"periods": spec}, [equip, p.name], [kind, by])

    def f_time_of_extreme(self, i: int) -> bool:
        if (picked := self.pick_point(moving=True)) is None:
            return False
        site, equip, kind, p = picked
        extreme = ["max", "min"][i % 2]
        d = self.pick_day(site, prefer_dst=i == 0)
        start, end, vals = self.day_values(p, d)
        if len(vals) < 40:
            return False
        best = vals[-1] if extreme == "max" else vals[0]
        if vals.count(best) != 1:
            return False
        now = self.now_after(site, d)
        dd = self.dd(d, now)
        s = self.sensor_words(p.name)
        q = self.wording(f"time-of-{extreme}")
        q = q.format(e=self.equip_words(equip), w=self.where(site, equip), w2=f" ({site.name})", s=s, dd=dd)
        spec = {"site": site.name, "asset": equip, "sensor": p.name, "extreme": extreme, **self.period(start, end)}
        return self.add("time-of-extreme", q, now, {"time_of_extreme": spec}, [equip, p.name], [kind, extreme])

    def f_exists_yes(self, i: int) -> bool:
        site = self.plant.sites[i % len(self.plant.sites)]
        return self.exists(site, self.rng.choice(self.kinds_at(site)), "exists-yes")

    def f_exists_no(self, i: int) -> bool:
        site = self.plant.sites[i % len(self.plant.sites)]
        kinds = self.plant.kinds
        present = {m for _, k in site.equips for m in kinds[k]["markers"]}
        absent = [
            k
            for k in kinds
            if kinds[k]["markers"][0] not in present and not (set(kinds[k]["markers"]) & {"meter", "ahu"} & present)
        ]
        other = [k for k in absent if any(k == kk for s in self.plant.sites for _, kk in s.equips)]
        kind = self.rng.choice(other if other and self.rng.random() < 0.6 else absent)
        return self.exists(site, kind, "exists-no")

    def exists(self, site: SiteT, kind: str, family: str) -> bool:
        sing, plural = self.noun(kind)
        a = "an" if sing[0].lower() in "aeiou" or sing[:2] in ("HP", "HX", "EV") else "a"
        q = self.choose("exists", a=a, sing=sing, p=plural, w=lambda: self.where(site), site=site.name)
        now = self.now_after(site, self.some_day())
        expect = {"yes_no": {"exists": {"site": site.name, "kind": self.marker(kind), "noun": self.nouns(kind)}}}
        return self.add(family, q, now, expect, [site.name, sing, plural], [kind])

    def fake_equip(self, site: SiteT) -> str:
        names = [e for s in self.plant.sites for e, _ in s.equips]
        for _ in range(50):
            base = self.rng.choice([e for e, _ in site.equips])
            m = list(re.finditer(r"\d+", base))
            if not m:
                continue
            last = m[-1]
            n = int(last.group(0)) + self.rng.randrange(3, 9)
            fake = base[: last.start()] + str(n).zfill(len(last.group(0))) + base[last.end() :]
            if all(norm(fake) != norm(x) for x in names):
                return fake
        raise AssertionError("no fake equip name")

    def f_missing_asset(self, i: int) -> bool:
        site = self.rng.choice(self.plant.sites)
        fake = self.fake_equip(site)
        d = self.pick_day(site)
        now = self.now_after(site, d)
        q = self.choose(
            "missing-asset", fake=fake, site=site.name, dd=lambda: self.dd(d, now), w=lambda: self.where(site)
        )
        expect = {"answer_says_missing": {"name": fake, "kind": "asset", "site": site.name}}
        return self.add("missing-asset", q, now, expect, [fake, site.name])

    def f_missing_sensor(self, i: int) -> bool:
        site, equip, kind = self.rng.choice(self.equips())
        mine = [p for p in self.plant.points if p.site is site and p.equip == equip]
        have = {norm(p.name) for p in mine}
        measures = {p.t.quantity for p in mine} | {"energy", "volume", "power", "thermal", "bool", "count"}
        others = sorted(
            {
                p.name
                for p in self.plant.points
                if norm(p.name) not in have
                and p.t.quantity not in measures
                and not any(norm(p.name) in h or h in norm(p.name) for h in have)
            }
        )
        if not others:
            return False
        fake = self.rng.choice(others)
        d = self.pick_day(site)
        now = self.now_after(site, d)
        q = self.choose("missing-sensor", fake=fake, e=equip, w=lambda: self.where(site), dd=lambda: self.dd(d, now))
        expect = {"answer_says_missing": {"name": fake, "kind": "sensor", "site": site.name, "asset": equip}}
        return self.add("missing-sensor", q, now, expect, [fake, equip], [kind])

    def f_missing_site(self, i: int) -> bool:
        site = self.plant.sites[0]
        fake = self.plant.missing_site
        _, plural = self.noun(self.rng.choice(self.kinds_at(site)))
        now = self.now_after(site, self.first + timedelta(days=10))
        q = self.wording("missing-site").format(p=plural, fake=fake)
        return self.add("missing-site", q, now, {"answer_says_missing": {"name": fake, "kind": "site"}}, [fake, plural])

    def f_not_recorded(self, i: int) -> bool:
        attribute = self.rng.choice(sorted(self.w["not-recorded"]))
        wordings, tags = self.w["not-recorded"][attribute]
        site, equip, kind = self.rng.choice(self.equips(lambda s, e, k: e != self.plant.manufacturer[0]))
        q = self.rng.choice(wordings).format(equip=self.equip_words(equip), site=site.name)
        now = self.now_after(site, self.some_day())
        expect = {"not_recorded": {"attribute": attribute, "site": site.name, "asset": equip, "tags": tags}}
        return self.add("not-recorded", q, now, expect, [equip], [kind, attribute.replace(" ", "-")])

    def f_forecast(self, i: int) -> bool:
        p = self.rng.choice(self.points_of_any())
        now = self.now_after(p.site, self.first + timedelta(days=self.days - 1), days=0)
        q = self.wording("forecast").format(
            equip=p.equip,
            site=p.site.name,
            sensor=self.sensor_words(p.name),
            value=f"{self.round_limit(float(p.series[0][1]), 100):g}",
            unit=self.unit_words(p.unit),
        )
        return self.add("forecast", q, now, {"refuses": {"reason": "forecast"}}, [p.equip, p.name])

    def f_control(self, i: int) -> bool:
        p = self.rng.choice(self.points_of_any())
        q = self.w["control"][(i + len(self.tasks)) % len(self.w["control"])].format(
            equip=self.equip_words(p.equip),
            site=p.site.name,
            sensor=self.sensor_words(p.name),
            value=self.rng.choice([18, 45, 60, 80]),
            unit=self.unit_words(p.unit),
        )
        now = self.now_after(p.site, self.some_day())
        return self.add(
            "control", q, now, {"refuses": {"reason": "control", "must_name": [p.equip]}}, [p.equip, p.name]
        )

    def f_outside(self, i: int) -> bool:
        site = self.rng.choice(self.plant.sites)
        kind = self.rng.choice(self.kinds_at(site))
        q = self.wording("outside").format(city=site.city, site=site.name, noun_pl=self.noun(kind)[1])
        now = self.now_after(site, self.some_day())
        return self.add("outside", q, now, {"refuses": {"reason": "outside"}}, [site.name, site.city])

    def data_part(self) -> tuple[str, datetime, dict, Pt] | None:
        """The data half of a mixed question: a day's max or mean of a reading."""
        p = self.rng.choice(self.points_of_any())
        site = p.site
        d = self.pick_day(site)
        start, end, vals = self.day_values(p, d)
        if len(vals) < 40:
            return None
        now = self.now_after(site, d)
        stat = self.rng.choice(["max", "mean"])
        q = self.w["data-part"].format_map(
            Lazy(
                st=lambda: self.rng.choice(self.w["stat_words"][stat]),
                s=lambda: self.sensor_words(p.name),
                e=lambda: self.equip_words(p.equip),
                w=lambda: self.where(site, p.equip),
                dd=lambda: self.dd(d, now),
            )
        )
        return (
            q,
            now,
            {"site": site.name, "asset": p.equip, "sensor": p.name, "aggregate": stat, **self.period(start, end)},
            p,
        )

    def f_mixed(self, i: int) -> bool:
        part = self.data_part()
        if part is None:
            return False
        q, now, value, p = part
        q += self.wording("mixed-tail").format(equip=p.equip)
        expect = {"value": value, "refuses": {"reason": "control", "allow_data": True, "must_name": [p.equip]}}
        return self.add("mixed", q, now, expect, [p.equip, p.name], [p.kind])

    def f_injection(self, i: int) -> bool:
        if i % 2 == 0:
            p = self.rng.choice(self.points_of_any())
            q = self.wording("injection").format(equip=p.equip, site=p.site.name)
            now = self.now_after(p.site, self.some_day())
            return self.add("injection", q, now, {"refuses": {"reason": "injection"}}, [p.equip, p.site.name])
        part = self.data_part()
        if part is None:
            return False
        q, now, value, p = part
        q += self.wording("injection-tail").format(equip=p.equip)
        expect = {"value": value, "refuses": {"reason": "injection", "allow_data": True}}
        return self.add("injection", q, now, expect, [p.equip, p.name], [p.kind, "mixed"])


def render_tasks(plant: Plant, seed: int) -> str:
    tasks = TaskGen(plant, seed).generate()
    zones = sorted({s.tz for s in plant.sites})
    doc = {
        "name": f"generated-{plant.name}",
        "description": (
            f"{len(tasks)} generated questions over the generated plant {plant.name} "
            f"({', '.join(s.name for s in plant.sites)}; {', '.join(zones)}; {plant.units.upper()} units; "
            f"bench/generate_plants.py, seed {seed})."
        ),
        "dataset": f"bench/plants/{plant.name}.json",
        "tasks": tasks,
    }
    return taskgen.render("generate_plants.py", seed, doc)


def outputs(seed: int | None = None) -> dict[Path, bytes]:
    """Every file the generator writes, by path: each plant's records and histories, and its task file."""
    out: dict[Path, bytes] = {}
    for plant in build(seed):
        out[PLANTS_DIR / f"{plant.name}.json"] = plant.json
        out[PLANTS_DIR / f"{plant.name}.csv.gz"] = plant.gz
        out[TASKS_DIR / f"generated-{plant.name}.yaml"] = render_tasks(plant, plant.seed).encode("utf-8")
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seed", type=int, default=None, help=f"another seed than the plant files' ({DEFAULT_SEED})")
    ap.add_argument("--check", action="store_true", help="exit 1 if a committed file differs from what is drawn")
    args = ap.parse_args(argv)
    return taskgen.write_files(outputs(args.seed), "python bench/generate_plants.py", args.check)


if __name__ == "__main__":
    sys.exit(main())
