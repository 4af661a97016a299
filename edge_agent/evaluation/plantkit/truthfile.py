"""A blind set's truth as data: read its truth.yaml (docs/plants.md, "The truth") into the tables the truth classes
check by, and the command that computes truth.md (`python bench/blindkit/truth.py bench/blindN`).

A truth.yaml is one mapping: `truth` (which checks: `shared`, the default, `Truth`; `first`, sets 3-6's `FirstTruth`;
`slots`, set 11's `SlotTruth`), `head` (the head of truth.md) and the set's tables, each under its name in lower case
(`words` is WORDS). TABLES below says which there are, what each becomes and which checks read it; a key it does not
name is refused, so a misspelt table is not silently left out.
"""

from __future__ import annotations

import argparse
import datetime as dt
import hashlib
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import yaml

from edge_agent.evaluation.plantkit.first import FirstTruth
from edge_agent.evaluation.plantkit.slots import SlotTruth
from edge_agent.evaluation.plantkit.truth import Truth
from edge_agent.evaluation.plantkit.truthbase import whole_days

#: the checks a truth.yaml's `truth` names
GENERATIONS: dict[str, type[Truth]] = {"shared": Truth, "first": FirstTruth, "slots": SlotTruth}


class TruthFileError(ValueError):
    pass


def _plain(x: Any) -> Any:
    """Dates and times as their ISO text (YAML reads 2026-10-01 as a date), everywhere in a value."""
    if isinstance(x, dt.datetime | dt.date):
        return x.isoformat()
    if isinstance(x, dict):
        return {_plain(k): _plain(v) for k, v in x.items()}
    if isinstance(x, list):
        return [_plain(v) for v in x]
    return x


def _tuples(table: dict) -> dict:
    """Each list value a tuple (a pair of periods, a point's (site, asset, sensor), a window's samples)."""
    return {k: tuple(v) if isinstance(v, list) else v for k, v in table.items()}


def _words(table: dict) -> dict:
    return {tid: _tuples(w) for tid, w in table.items()}


def _sets(table: dict) -> dict:
    return {k: set(v) for k, v in table.items()}


def reading(r: dict) -> tuple[str, dict]:
    """A reading of a check (WRONG, RIGHT_TOO, SLOT): `what` it is in words, and the overrides merged into the check;
    `whole_days: [d0, d1, offset(, offset at d1)]` is the window of whole days d0 .. d1 (d1 excluded)."""
    over = {k: v for k, v in r.items() if k not in ("what", "whole_days")}
    if "whole_days" in r:
        over.update(whole_days(*(str(x) for x in r["whole_days"])))
    return r["what"], over


def _readings(table: dict) -> dict:
    return {tid: [reading(r) for r in rs] for tid, rs in table.items()}


def _slots(table: dict) -> dict:
    return {tid: {**e, "wrong": [reading(r) for r in e.get("wrong", [])]} for tid, e in table.items()}


SHARED = ("shared", "slots")
ALL = ("shared", "first", "slots")
#: a truth.yaml's keys: (what the value becomes, the checks that read it)
TABLES: dict[str, tuple[Callable[..., Any], tuple[str, ...]]] = {
    "head": (str, ALL),
    "words": (_words, SHARED),
    "design": (dict, SHARED),
    "site_by_word": (dict, SHARED),
    "site_tag": (bool, SHARED),
    "site_by_task": (dict, SHARED),
    "near_extreme": (dict, SHARED),
    "now_after_data": (bool, SHARED),
    "samples": (_tuples, ALL),
    "register": (dict, ALL),
    "register_span": (str, SHARED),
    "register_at": (set, SHARED),
    "flat": (dict, SHARED),
    "same_anyway": (dict, SHARED),
    "missing_tags": (_sets, SHARED),
    "margin_floor": (dict, SHARED),
    "near": (dict, SHARED),
    "multi_run": (set, SHARED),
    "wrong": (_readings, SHARED),
    "right_too": (_readings, SHARED),
    "slot_other": (set, SHARED),
    "gap_point": (_tuples, SHARED),
    "clock": (_tuples, SHARED),
    "not_recorded_topic": (str, SHARED),
    # the first generation (sets 3-6)
    "intent": (_words, ("first",)),
    "expected_answer": (dict, ("first",)),
    "gap_inside": (set, ALL),
    "register_lines": (str, ("first",)),
    "lists_detail": (bool, ("first",)),
    "count_word_names": (bool, ("first",)),
    "data_ends_at_now": (bool, ("first",)),
    "site_by_offset": (dict, ("first",)),
    "asked_earlier": (set, ("first",)),
    # the second generation (set 11)
    "slot": (_slots, ("slots",)),
    "runs": (dict, ("slots",)),
}


def tables(data: dict, where: str = "truth.yaml") -> tuple[type[Truth], dict[str, Any]]:
    """The truth class a truth.yaml names and its tables, as the class reads them (WORDS, DESIGN, ...)."""
    if not isinstance(data, dict) or "head" not in data:
        raise TruthFileError(f"{where}: a mapping with at least `head`")
    gen = data.get("truth", "shared")
    if gen not in GENERATIONS:
        raise TruthFileError(f"{where}: truth: {gen!r} is none of {', '.join(GENERATIONS)}")
    ns: dict[str, Any] = {}
    for key, value in data.items():
        if key == "truth":
            continue
        if key not in TABLES:
            raise TruthFileError(f"{where}: no table {key!r} (docs/plants.md lists them)")
        conv, gens = TABLES[key]
        if gen not in gens:
            raise TruthFileError(f"{where}: {key!r} is read by the checks {', '.join(gens)}, not by {gen!r}")
        ns[key.upper()] = conv(_plain(value)) if value is not None else conv()
    return GENERATIONS[gen], ns


def load(path: Path) -> Truth:
    """The truth of the set whose truth.yaml is `path` (its plant files and blind.yaml beside it)."""
    cls, ns = tables(yaml.safe_load(path.read_text(encoding="utf-8")), str(path))
    return cls(path.parent, ns)


def run(here: Path, check: bool) -> tuple[int, bytes]:
    """Compute a set's truth.md: from its truth.yaml, or by running its own truth.py (a set still written the old way;
    with `check` its truth.md is put back as it was). The exit status and the text."""
    yml, py, md = here / "truth.yaml", here / "truth.py", here / "truth.md"
    if yml.exists():
        t = load(yml)
        t.write = not check
        return t.main(), t.text.encode()
    if not py.exists():
        raise TruthFileError(f"{here}: neither truth.yaml nor truth.py")
    old = md.read_bytes() if md.exists() else None
    rc = subprocess.run([sys.executable, str(py)], check=False).returncode
    text = md.read_bytes() if md.exists() else b""
    if check and old is not None:
        md.write_bytes(old)
    return rc, text


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description="Compute blind sets' truth.md from their truth.yaml (or own truth.py).")
    ap.add_argument("sets", nargs="+", type=Path, help="a blind set's folder (holding truth.yaml), or a truth.yaml")
    ap.add_argument("--check", action="store_true", help="compare with the truth.md there (sha256), write nothing")
    args = ap.parse_args(argv)
    status = 0
    for p in args.sets:
        here = p.parent if p.suffix == ".yaml" else p
        try:
            rc, text = run(here, args.check)
        except (TruthFileError, yaml.YAMLError) as e:
            print(e, file=sys.stderr)
            return 2
        new = hashlib.sha256(text).hexdigest()
        md = here / "truth.md"
        if args.check:
            old = hashlib.sha256(md.read_bytes()).hexdigest() if md.exists() else "(none)"
            print(f"{md}: {new} {'same' if new == old else f'DIFFERS from {old}'}")
            rc = rc or int(new != old)
        else:
            print(f"{md}: {new} ({len(text)} bytes)")
        status = status or rc
    return status
