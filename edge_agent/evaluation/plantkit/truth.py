"""The checking half of the blind sets' truth: one class, `Truth`, that resolves every task's windows from its
`now`, computes each checker kind's true answer from a set's plant files (through plantkit/reading.py, the reading
library), checks that the answer is clear-cut and the one the plant was designed to give, that each slot-dependent
question's wrong readings fail and its honest alternatives pass, and writes the set's truth.md.

A set's tables are its `truth.yaml` (docs/plants.md, "The truth"; read by plantkit/truthfile.py), or, for a set
still written the old way, the module globals of its own truth.py (`Truth(HERE, globals()).main()`):
  HEAD          the head of truth.md (definitions, in the set's own words)
  WORDS         what each question's words mean: {"win": phrase} | {"at": (day, clock)} | {"periods": (p1, p2)} |
                {"gap_at": (day, clock)}; phrases: "yesterday", "today", "day before yesterday", "last week",
                "week before last", "fortnight before last", "weekday:N[:back]", "monthday:N", "dates:D0:D1", "mtd",
                "weekend" (the latest Saturday and Sunday), "last weekend" (the latest whole one before today),
                "past:N" (the N whole days before today), "night" (yesterday 18:00 to today 06:00; its other readings
                must agree)
  DESIGN        the answers the plant was designed to give
  SITE_BY_WORD  a task's first tag -> its site's name ("general": no site)
  FLAT, SAME_ANYWAY, SAMPLES, REGISTER, REGISTER_AT, REGISTER_SPAN, MISSING_TAGS, MARGIN_FLOOR, NEAR, MULTI_RUN,
  WRONG, RIGHT_TOO, SLOT_OTHER, GAP_POINT, CLOCK, NOT_RECORDED_TOPIC     the optional tables (see docs/plants.md)

Usage (the command; a set folder holding truth.yaml, or its own truth.py, which is run):
  python bench/blindkit/truth.py bench/blind18 [bench/blind17 ...]            # writes truth.md
  python bench/blindkit/truth.py --check bench/blind18                         # compares with truth.md (sha256)

The checks come in parts by job: figures.py (`FigureChecks`: value, energy, ranks, periods, excursion, duration, time
of extreme, derive, partial, file), catalogchecks.py (`CatalogChecks`: exists, count, lists, missing, not recorded,
mentions, refuses), readings.py (`Readings`: the wrong and right readings); truthbase.py holds what they share.

Written from blind set 14's truth.py (which had grown, copy by copy, from blind set 7's) and what sets 15-20 added
to their copies; the sets 7-20 regenerate their truth.md byte-identical through it.
"""

from __future__ import annotations

import datetime as dt
import sys
from pathlib import Path
from typing import Any

import yaml

from edge_agent.evaluation.plantkit.catalogchecks import CatalogChecks
from edge_agent.evaluation.plantkit.figures import FigureChecks
from edge_agent.evaluation.plantkit.reading import (
    Plant,
    compared,
    gaps,
    local,
    norm,
)
from edge_agent.evaluation.plantkit.readings import Readings
from edge_agent.evaluation.plantkit.truthbase import (
    TABLES,
    T,
    fmtv,
    same,
    tolerance,
    wall,
    windows,
)


class Truth(FigureChecks, CatalogChecks, Readings):
    """One blind set's truth: `Truth(HERE, globals()).main()` from the set's truth.py (its folder; its HEAD and
    tables from its module globals)."""

    #: the plant table's column of points
    POINTS_HEAD = "points (unit or kind)"

    def __init__(self, here: Path, ns: dict[str, Any]):
        self.HERE = here
        self.HEAD: str = ns["HEAD"]
        for name, default in TABLES.items():
            setattr(self, name, ns.get(name, default))
        self.P = ns.get("P") or Plant(self.HERE / "plant.json", self.HERE / "plant.csv.gz")
        self.TASKS = ns.get("TASKS") or yaml.safe_load((self.HERE / "blind.yaml").read_text())["tasks"]
        self.problems: list[str] = []
        self.out: list[str] = []
        self.write = True  # False: finish() keeps truth.md's text in `text` and writes nothing (--check)
        self.text = ""

    def bad(self, tid: str, msg: str) -> None:
        self.problems.append(f"{tid}: {msg}")
        self.out.append(f"- **NOT CLEAR-CUT**: {msg}")

    def midnight(self, day: dt.date, tz) -> dt.datetime:
        """The day's first instant in site time, written with the offset the site has then: on Santiago's Sun 6 Sep
        00:00 does not exist (the clocks go from 24:00 to 01:00), so the day starts at 01:00-03:00."""
        return dt.datetime.combine(day, dt.time(0), tz).astimezone(dt.UTC).astimezone(tz)

    def day_of(self, phrase: str, today: dt.date) -> dt.date:
        if phrase == "today":
            return today
        if phrase == "yesterday":
            return today - dt.timedelta(days=1)
        if phrase == "day before yesterday":
            return today - dt.timedelta(days=2)
        if phrase.startswith("weekday:"):
            parts = phrase.split(":")
            wd = int(parts[1])
            back = -int(parts[2]) if len(parts) > 2 else 0
            return today - dt.timedelta(days=((today.weekday() - wd) % 7 or 7) + 7 * back)
        if phrase.startswith("monthday:"):
            d = today.replace(day=int(phrase.split(":")[1]))
            assert d < today, (phrase, today)
            return d
        raise ValueError(phrase)

    def resolve(self, phrase: str, now: dt.datetime, tz) -> tuple[dt.datetime, dt.datetime]:
        today = now.astimezone(tz).date()
        monday = today - dt.timedelta(days=today.weekday())
        if phrase == "last week":
            return self.midnight(monday - dt.timedelta(days=7), tz), self.midnight(monday, tz)
        if phrase == "week before last":
            return self.midnight(monday - dt.timedelta(days=14), tz), self.midnight(monday - dt.timedelta(days=7), tz)
        if phrase == "fortnight before last":  # the two calendar weeks before the last two
            return self.midnight(monday - dt.timedelta(days=28), tz), self.midnight(monday - dt.timedelta(days=14), tz)
        if phrase == "mtd":  # month to date: the 1st of this month 00:00 to today 00:00
            return self.midnight(today.replace(day=1), tz), self.midnight(today, tz)
        if phrase.startswith("dates:"):  # explicit days, both included ("from the 3rd to the 5th of November")
            _, d0, d1 = phrase.split(":")
            return self.midnight(dt.date.fromisoformat(d0), tz), self.midnight(
                dt.date.fromisoformat(d1) + dt.timedelta(days=1), tz
            )
        if phrase == "weekend":  # the latest Saturday before today 00:00 to the Monday 00:00 after it
            sat = self.day_of("weekday:5", today)
            return self.midnight(sat, tz), self.midnight(sat + dt.timedelta(days=2), tz)
        if phrase == "last weekend":  # the latest whole Saturday + Sunday before today
            sat = today - dt.timedelta(days=(today.weekday() - 5) % 7 or 7)
            if sat + dt.timedelta(days=1) >= today:
                sat -= dt.timedelta(days=7)
            return self.midnight(sat, tz), self.midnight(sat + dt.timedelta(days=2), tz)
        if phrase.startswith("past:"):  # the past N days: the N whole days before today
            n = int(phrase.split(":")[1])
            return self.midnight(today - dt.timedelta(days=n), tz), self.midnight(today, tz)
        if phrase == "night":  # last night: yesterday 18:00 to today 06:00
            return wall(today - dt.timedelta(days=1), 18.0, tz), wall(today, 6.0, tz)
        d = self.day_of(phrase, today)
        return self.midnight(d, tz), self.midnight(d + dt.timedelta(days=1), tz)

    def window_matches(self, tid: str, start: str, end: str, now, tz, phrase: str | None = None) -> None:
        phrase = phrase or self.WORDS.get(tid, {}).get("win")
        if phrase is None:
            return
        s, e = self.resolve(phrase, now, tz)
        if not (same(T(start), s) and same(T(end), e)):
            self.bad(tid, f"window {start} .. {end} is not what '{phrase}' means ({s.isoformat()} .. {e.isoformat()})")

    def no_gaps(self, tid: str, ser, what: str) -> None:
        if len(ser) < 2:
            self.bad(tid, f"{what}: fewer than two samples")
            return
        g = gaps(ser)
        if g and tid in self.GAP_INSIDE:  # a gap the question is meant to hold (set 1)
            held = ", ".join(f"{a.isoformat(timespec='minutes')} → {b.isoformat(timespec='minutes')}" for a, b in g)
            self.out.append(f"  ({what}: the window holds a gap, as designed: {held})")
        elif g:
            self.bad(tid, f"{what}: a gap inside the window {g}")

    def n_samples(self, tid: str, ser, which: int = 0) -> None:
        want = self.SAMPLES.get(tid)
        if isinstance(want, tuple):
            want = want[which]
        if want is not None and len(ser) != want:
            self.bad(tid, f"{len(ser)} samples in the window, not the designed {want}")

    def design(self, tid: str, got, what: str) -> None:
        want = self.DESIGN.get(tid)
        if isinstance(want, dict):  # a two-part task: one designed answer per check
            want = want.get(what)
        if want is not None and want != got:
            self.bad(tid, f"{what} {got!r} is not the designed {want!r}")

    def misread(self, tid: str, c: dict, now, stat, v: float, by: str) -> None:
        """The window misread — the period before (or after, when it has ended by `now`), or, for a day's mean or
        energy, shifted by the site's UTC offset (a UTC day) — must give a value outside the tolerance."""
        s0, e0 = T(c["start"]), T(c["end"])
        length = e0 - s0
        off = s0.utcoffset()
        cands = {"the period before": (s0 - length, s0)}
        if by in ("mean", "energy") and length <= dt.timedelta(hours=25) and off:  # a UTC day, not the site's
            cands["shifted by the UTC offset"] = (s0 + off, e0 + off)
        if e0 + length <= now:
            cands["the period after"] = (e0, e0 + length)
        passing = []
        for what, (a, b) in cands.items():
            try:
                w = stat(a, b)
            except (ValueError, ZeroDivisionError, IndexError):
                continue
            if abs(w - v) <= tolerance(c, v):
                passing.append(f"{what} ({fmtv(w)})")
        if passing and tid in self.SAME_ANYWAY:
            self.out.append(f"  a misread window passes as well: {', '.join(passing)} ({self.SAME_ANYWAY[tid]})")
        elif passing:
            self.bad(tid, f"a misread window gives a passing value: {', '.join(passing)}")

    def site_of(self, c: dict):
        s = self.P.site(c["site"])
        assert s is not None, c
        return s

    def ranked_assets(self, c: dict) -> list[str]:
        """The assets a ranking compares: its `assets`, or every asset of the site with the sensor, narrowed to the
        equip marker `kind` and to names holding `name_contains`."""
        if c.get("assets"):
            return list(c["assets"])
        return [
            e.dis
            for e in self.site_of(c).equips.values()
            if ("kind" not in c or c["kind"] in e.markers)
            and c.get("name_contains", "").lower() in e.dis.lower()
            and any(norm(p.nav) == norm(c["sensor"]) for p in e.points.values())
        ]

    def limit_window(self, tid: str, c: dict, now, what: str):
        """A limit check's window (its words checked, no gap in it): the site's zone, the series, its compared
        samples."""
        tz = self.site_of(c).tz
        self.window_matches(tid, c["start"], c["end"], now, tz)
        ser = self.P.series(c["site"], c["asset"], c["sensor"], T(c["start"]), T(c["end"]))
        self.no_gaps(tid, ser, what)
        return tz, ser, self.compared_of(c, ser)

    def compared_of(self, c: dict, ser, start: dt.datetime | None = None, end: dt.datetime | None = None):
        """A limit check's compared samples (`compared`): against its `limit`, or its `limit_sensor`'s samples in
        [start, end) (default the check's window)."""
        ls = c.get("limit_sensor")
        lim = self.P.series(c["site"], c["asset"], ls, start or T(c["start"]), end or T(c["end"])) if ls else None
        return compared(ser, c.get("limit"), lim)

    def do_check(self, tid: str, kind: str, c, task) -> None:
        now = T(task["now"])
        if tid in self.CLOCK and isinstance(c, dict):
            self.clock_window(tid, c)
        if kind == "partial":
            self.chk_partial(tid, c, task)
        elif kind == "value":
            self.chk_value(tid, c, now)
        elif kind == "energy":
            self.chk_energy(tid, c, now)
        elif kind == "ranks":
            self.chk_ranks(tid, c, now)
        elif kind == "periods":
            self.chk_periods(tid, c, now)
        elif kind == "yes_no":
            if "excursion" in c:
                self.chk_excursion(tid, c["excursion"], now)
            else:
                self.chk_exists(tid, c["exists"])
        elif kind == "duration":
            self.chk_duration(tid, c, now)
        elif kind == "time_of_extreme":
            self.chk_extreme(tid, c, now)
        elif kind == "count":
            self.chk_count(tid, c)
        elif kind == "answer_lists":
            self.chk_lists(tid, c)
        elif kind == "answer_says_missing":
            self.chk_missing(tid, c)
        elif kind == "not_recorded":
            self.chk_not_recorded(tid, c)
        elif kind == "file":
            self.chk_file(tid, c, now)
        elif kind == "refuses":
            self.chk_refuses(tid, c)
        elif kind == "answer_mentions_all":  # main() hands the candidates one by one
            self.chk_mentions(tid, c, task)
        else:
            self.bad(tid, f"no truth for the check {kind}")

    def check_now(self, task) -> None:
        """`now` carries its site's own offset at that instant; every window and instant lies at or before it and inside
        the data; every window's ends carry the site's offset at that instant."""
        tid = task["id"]
        now = T(task["now"])
        sites: set[Any] = {s for s, _, _ in windows(task["expect"])} | {
            v.get("site") for v in task["expect"].values() if isinstance(v, dict)
        }
        for k in ("yes_no",):
            x = task["expect"].get(k)
            if isinstance(x, dict):
                sites |= {v.get("site") for v in x.values() if isinstance(v, dict)}
        sites.discard(None)
        site_by_word = self.SITE_BY_WORD
        if not self.SITE_TAG:  # the first tag names the task's kind (set 1): its sites are those its checks name
            pass
        elif task["tags"][0] in site_by_word:
            sites.add(site_by_word[task["tags"][0]])
        elif task["tags"][0] != "general":
            self.bad(tid, f"the first tag {task['tags'][0]!r} names no site")
        for sn in sites:
            s = self.P.site(sn)
            if s is None:
                continue
            if now.astimezone(s.tz).utcoffset() != now.utcoffset():
                self.bad(
                    tid, f"now {now.isoformat()} does not carry {s.dis}'s offset {now.astimezone(s.tz).utcoffset()}"
                )
            first = min(p.ts[0] for e in s.equips.values() for p in e.points.values())
            last = max(p.ts[-1] for e in s.equips.values() for p in e.points.values())
            if not first <= now <= last and not (self.NOW_AFTER_DATA and first <= now):
                self.bad(tid, f"now {now.isoformat()} lies outside {s.dis}'s data")
        self.windows_before_now(tid, task, now)

    def windows_before_now(self, tid: str, task: dict, now: dt.datetime) -> None:
        """Every window of the task ends at or before now, and each end carries its site's offset at that instant."""
        for sn, a, b in windows(task["expect"]):
            if b > now:
                self.bad(tid, f"a window ends after now ({b.isoformat()} > {now.isoformat()})")
            s = self.P.site(sn) if sn else None
            if s is not None:
                for t in (a, b):
                    if t.astimezone(s.tz).utcoffset() != t.utcoffset():
                        self.bad(tid, f"{t.isoformat()} does not carry {s.dis}'s offset")

    def plant_tables(self) -> list[str]:
        lines = ["## The plant", ""]
        lines += ["| site | tz | equips | points | samples per point |", "|---|---|---|---|---|"]
        for s in self.P.sites.values():
            pts = [p for e in s.equips.values() for p in e.points.values()]
            lines.append(
                f"| {s.dis} | {s.tz.key} | {len(s.equips)} | {len(pts)} | "
                f"{min(len(p.ts) for p in pts)}–{max(len(p.ts) for p in pts)} |"
            )
        for s in self.P.sites.values():
            lines += ["", f"### {s.dis} ({s.tz.key})", "", f"| equip | markers | {self.POINTS_HEAD} | gaps |"]
            lines.append("|---|---|---|---|")
            for e in s.equips.values():
                listed = ", ".join(f"{p.nav} ({p.unit or p.kind})" for p in e.points.values())
                gp = [
                    f"{p.nav}: {local(a, s.tz)} → {local(b, s.tz)}"
                    for p in e.points.values()
                    for a, b in gaps(list(zip(p.ts, p.vals)))
                ]
                lines.append(f"| {e.dis} | {', '.join(sorted(e.markers))} | {listed} | {'; '.join(gp) or '—'} |")
        return lines

    def check_task(self, task) -> None:
        """Every check of the task (each entry of a list on its own), then its wrong and right readings."""
        for kind, c in task["expect"].items():
            for cc in c if isinstance(c, list) else [c]:
                self.do_check(task["id"], kind, cc, task)
        self.wrong_readings(task)

    def task_lines(self, task) -> list[str]:
        """The task's section of truth.md: its id and tags, the question, now, the notes, what the checks said."""
        lines = [f"### {task['id']} — {', '.join(task['tags'])}", ""]
        lines += [f"> {line}" for line in task["question"].splitlines()]
        lines += ["", f"now: `{task['now']}`"]
        if task.get("notes"):
            lines += ["", f"notes: {task['notes'].strip()}"]
        return lines + ["", *self.out, ""]

    def main(self) -> int:
        body: list[str] = ["## Questions and answers", ""]
        for task in self.TASKS:
            self.out.clear()
            self.check_now(task)
            self.check_task(task)
            body += self.task_lines(task)
        head = [self.HEAD] if isinstance(self.HEAD, str) else list(self.HEAD)
        return self.finish(head + self.plant_tables() + [""] + body)

    def finish(self, lines: list[str]) -> int:
        """Write truth.md (the lines, then the problems), say the problems; exit status 1 on any."""
        text = "\n".join(lines)
        if self.problems:
            text += "\n## Problems\n\n" + "\n".join(f"- {p}" for p in self.problems) + "\n"
        self.text = text
        if self.write:
            (self.HERE / "truth.md").write_text(text)
        for p in self.problems:
            print("NOT CLEAR-CUT:", p, file=sys.stderr)
        print(
            f"{len(self.TASKS)} tasks, {len(self.problems)} problems; {'wrote' if self.write else 'computed'} truth.md"
        )
        return 1 if self.problems else 0
