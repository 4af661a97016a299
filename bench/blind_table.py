#!/usr/bin/env python3
"""The blind set's questions, their truth and the answers of each run, side by side (a Markdown table to read by
hand): `python bench/blind_table.py TRUTH.md RESULTS.jsonl [RESULTS.jsonl …] > table.md`."""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path


def truths(path: Path) -> dict[str, tuple[str, str]]:
    """id → (question, the correct answer) from the blind writer's truth.md."""
    out, text = {}, path.read_text()
    for block in re.split(r"^### ", text, flags=re.M)[1:]:
        tid = block.split("\n", 1)[0].strip().split()[0]  # "bl-01-x" or "b2-01 — tags"
        # the first blind set writes **Q** (now): … and **Answer:** …; the second "> question" and "in words: …"
        q = re.search(r"\*\*Q\*\*\s*\([^)]*\):\s*(.+)", block) or re.search(r"^>\s*(.+)", block, re.M)
        a = re.search(r"\*\*Answer:\*\*\s*(.+)", block) or re.search(r"^in words:\s*(.+)", block, re.M)
        # the third writes each expected fact as a bullet ("- count: **2** (EVAP-F1A, EVAP-F2A)")
        bullets = " ".join(m.group(1).strip() for m in re.finditer(r"^- (.+)", block, re.M))
        if q:
            out[tid] = (q.group(1).strip(), a.group(1).strip() if a else bullets)
    return out


def cell(text: str | None, n: int = 400) -> str:
    text = " ".join((text or "").split()).replace("|", "\\|")
    return text if len(text) <= n else text[:n] + " …"


def main() -> None:
    truth = truths(Path(sys.argv[1]))
    runs = [{json.loads(line)["task_id"]: json.loads(line) for line in open(f)} for f in sys.argv[2:]]
    names = [json.loads(open(f).readline())["strategy"] for f in sys.argv[2:]]
    print("| id | question | truth | " + " | ".join(f"{n}: status, checker, answer" for n in names) + " |")
    print("|---|---|---|" + "---|" * len(names))
    for tid, (q, a) in truth.items():
        cols = []
        for r in runs:
            x = r.get(tid)
            if x is None:
                cols.append("–")
                continue
            said = x.get("answer") or f"(no answer: {x.get('error') or ''})"
            cols.append(f"**{x['status']}**, {'pass' if x['checker_final'] else 'FAIL'}: {cell(said)}")
        print(f"| {tid} | {cell(q, 200)} | {cell(a, 300)} | " + " | ".join(cols) + " |")


if __name__ == "__main__":
    main()
