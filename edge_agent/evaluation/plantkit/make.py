"""Draw a plant from its plant.yaml (docs/plants.md): write plant.json and plant.csv.gz beside it (from X.yaml: X.json
and X.csv.gz), or with --check only compare what it draws with the files there (sha256; exit 1 on a difference).

Usage: python bench/blindkit/make.py bench/blind18 [bench/blind17 ...] [bench/plants/depot.yaml ...] [--check]
(bench/blindkit/make.py runs `main` here.)
"""

from __future__ import annotations

import argparse
import hashlib
import sys
from pathlib import Path

from edge_agent.evaluation.plantkit.expr import ExprError
from edge_agent.evaluation.plantkit.plantfile import PlantFile, PlantFileError


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("sets", nargs="+", type=Path, help="a blind set's folder (holding plant.yaml) or a plant.yaml")
    ap.add_argument("--check", action="store_true", help="compare with the files there, write nothing")
    args = ap.parse_args(argv)
    bad = 0
    for p in args.sets:
        yml = p if p.suffix == ".yaml" else p / "plant.yaml"
        here = yml.parent
        try:
            js, gz = PlantFile.load(yml).build()
        except (PlantFileError, ExprError) as e:
            print(f"{yml}: {e}", file=sys.stderr)
            return 2
        name_json, name_gz = yml.with_suffix(".json").name, yml.with_suffix(".csv.gz").name
        if not args.check:
            (here / name_json).write_bytes(js)
            (here / name_gz).write_bytes(gz)
        for name, data in ((name_json, js), (name_gz, gz)):
            new = hashlib.sha256(data).hexdigest()
            if args.check:
                old_file = here / name
                old = hashlib.sha256(old_file.read_bytes()).hexdigest() if old_file.exists() else "(none)"
                same = "same" if new == old else f"DIFFERS from {old}"
                bad += new != old
                print(f"{here / name}: {new} {same}")
            else:
                print(f"{here / name}: {new} ({len(data)} bytes)")
    return 1 if bad else 0
