"""What the task-file generators share (bench/generate_*.py): write a generated file, or check it is current."""

from __future__ import annotations

import argparse
from collections.abc import Callable
from pathlib import Path


def write_or_check(out: Path, text: str, regenerate: str, check: bool) -> int:
    """Write `text` to `out` (0), or with `check` say whether the committed file is `text` (0) or stale (1);
    `regenerate` is the command that rewrites it."""
    if check:
        if not out.exists() or out.read_text(encoding="utf-8") != text:
            print(f"{out} is not up to date: run {regenerate}")
            return 1
        print(f"{out} is up to date")
        return 0
    out.write_text(text, encoding="utf-8")
    print(f"wrote {text.count('- id: ')} tasks to {out}")
    return 0


def main(
    doc: str,
    script: str,
    default_seed: int,
    default_out: Path,
    render: Callable[[int], str],
    argv: list[str] | None = None,
) -> int:
    """The command line of a one-file generator: --seed, --out, --check."""
    ap = argparse.ArgumentParser(description=doc.splitlines()[0])
    ap.add_argument("--seed", type=int, default=default_seed)
    ap.add_argument("--out", type=Path, default=default_out)
    ap.add_argument("--check", action="store_true", help="exit 1 if --out differs from what --seed generates")
    args = ap.parse_args(argv)
    return write_or_check(args.out, render(args.seed), f"python bench/{script} --seed {args.seed}", args.check)
