#!/usr/bin/env python3
"""How the question's form is read (`grounding/question.py` and its table `grounding/vocab/forms.yaml`) on every
question of the task files, and what changed against another commit's reading. No model, no SkySpark.

Prints per task file the intents, the asks of the parts, the questions with refused pieces (`Reading.also`) and
the time per reading; with `--against REV`, every question whose reading (intent, verb, parts and their pins,
`asks_conclusion`) differs from REV's, side by side.

    python bench/question_forms.py bench/tasks/*.yaml
    python bench/question_forms.py --against main bench/tasks/*.yaml
"""

from __future__ import annotations

import argparse
import importlib.util
import subprocess
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path
from types import ModuleType

import yaml

ROOT = Path(__file__).resolve().parent.parent
FIELDS = ("form", "ask", "statistic", "order", "op", "direction", "limit", "setpoint")


def load_module(path: Path, name: str) -> ModuleType:
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module  # pydantic resolves the module's annotations through sys.modules
    spec.loader.exec_module(module)
    return module


def module_at(rev: str, into: Path) -> ModuleType:
    """grounding/question.py (and its vocab folder, where it has one) as of `rev`."""
    into.mkdir(parents=True, exist_ok=True)

    def show(path: str) -> subprocess.CompletedProcess:
        return subprocess.run(
            ["git", "-C", str(ROOT), "show", f"{rev}:{path}"], capture_output=True, text=True, check=False
        )

    (into / "question.py").write_text(show("edge_agent/grounding/question.py").stdout, encoding="utf-8")
    vocab = show("edge_agent/grounding/vocab/forms.yaml")
    if vocab.returncode == 0:
        (into / "vocab").mkdir(exist_ok=True)
        (into / "vocab" / "forms.yaml").write_text(vocab.stdout, encoding="utf-8")
    return load_module(into / "question.py", f"question_at_{rev.replace('-', '_')}")


def questions(path: Path) -> list[str]:
    data = yaml.safe_load(path.read_text(encoding="utf-8"))
    tasks = data.get("tasks", []) if isinstance(data, dict) else data
    return list(dict.fromkeys(t["question"] for t in tasks if isinstance(t, dict) and "question" in t))


def summary(module: ModuleType, text: str) -> dict:
    r = module.read_question(text)
    return {
        "intent": r.intent,
        "verb": r.verb,
        "conclusion": module.asks_conclusion(text),
        "also": list(getattr(r, "also", [])),
        "parts": [{k: getattr(p, k) for k in FIELDS} | {"text": p.text} for p in r.parts],
    }


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("tasks", nargs="+", type=Path)
    ap.add_argument("--against", help="a git revision whose reading to compare with")
    args = ap.parse_args()
    here = load_module(ROOT / "edge_agent" / "grounding" / "question.py", "question_here")
    other = module_at(args.against, Path(tempfile.mkdtemp()) / "q") if args.against else None
    changed = 0
    for path in args.tasks:
        qs = questions(path)
        start = time.perf_counter()
        now = [summary(here, q) for q in qs]
        per = (time.perf_counter() - start) / max(len(qs), 1) * 1000
        intents = Counter(s["intent"] for s in now)
        asks = Counter(p["ask"] for s in now for p in s["parts"])
        print(f"{path}: {len(qs)} questions, {per:.2f} ms per reading; intents {dict(intents)}; asks {dict(asks)}")
        for q, s in zip(qs, now):
            if s["also"]:
                print(f"  also {s['also']}: {q}")
        if other is None:
            continue
        for q, s in zip(qs, now):
            before = summary(other, q)
            here_s = {k: v for k, v in s.items() if k != "also"}
            if before | {"also": []} != here_s | {"also": []}:
                changed += 1
                print(f"  CHANGED {q}\n    {args.against}: {before}\n    here: {s}")
    if other is not None:
        print(f"{changed} readings changed against {args.against}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
