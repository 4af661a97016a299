"""Side-by-side table of several bench output folders (e.g. the old code's runs and the new code's).

    .venv/bin/python bench/compare.py old-pokmain=PATH new-pokmain=PATH ... --out FOLDER

Each argument is LABEL=FOLDER, a folder holding a `results.json` written by `edge-agent bench` (or by
`bench/recheck.py --full`, which gives old runs today's checker and audit). Per label × model × strategy
it prints: strict-checker completion, answers delivered as `answered` while the checker fails them (answered but
wrong), the grounding columns (tool calls naming what does not exist,
final answers stating what no evidence held), review agreement with the checker, and the cost per task
(tokens sent, evaluated — and evaluated / sent — and generated, LLM calls, projected seconds on each reference
gateway from `bench/gateways.yaml`). Writes `compare.md` and `compare.json` into `--out`.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from edge_agent.costmodel import reference_profiles  # noqa: E402
from edge_agent.evaluation.results import BenchResults, summarise  # noqa: E402


def rows_of(label: str, folder: Path, profiles) -> list[dict]:
    results = BenchResults.model_validate_json((folder / "results.json").read_text(encoding="utf-8"))
    out = []
    for r in summarise(results.runs, results.max_trials, profiles):
        out.append(
            {
                "label": label,
                "task_set": results.task_set,
                "model": r.model,
                "strategy": r.strategy,
                "tasks": r.tasks,
                "checker_final": r.checker_final,
                "answered_wrong": r.answered_wrong,
                "invented_calls": r.invented_calls,
                "runs_inventing": r.runs_inventing,
                "ungrounded_answers": r.ungrounded_answers,
                "reviews": r.reviews,
                "reviews_agreeing": r.reviews_agreeing,
                "tokens_sent": r.tokens_sent,
                "tokens_evaluated": r.tokens_evaluated,
                "tokens_generated": r.tokens_received,
                "prefix_states": results.prefix_states,
                "tokens_forced": r.tokens_forced,
                "tokens_tail": r.tokens_tail,
                "llm_calls": r.llm_calls,
                "wall_s": r.wall_s,
                "projected_s": r.projected_s,
                "unverified_thoughts": r.unverified_thoughts,
                "steps": round(r.trajectory_length * r.tasks),
            }
        )
    return out


def _forced(row: dict) -> str:
    """Forced tokens (since session 5) and never-evaluated tails (session 7) apart; older runs show "–"."""
    forced = f"{row['tokens_forced']:.0f}" if row.get("tokens_forced") else "–"
    return f"{forced}; {row['tokens_tail']:.0f}" if row.get("tokens_tail") else f"{forced}; –"


def render(rows: list[dict], names: list[str], command: str) -> str:
    head = (
        "| run | model | strategy | checker @end (strict) | answered but wrong "
        "| tool calls naming what does not exist "
        "| answers stating what no evidence held | thoughts guessing (masked) / steps | review agrees "
        "| tokens sent / task | tokens eval / task "
        "| eval / sent | tokens gen / task (of them forced; never evaluated) "
        "| LLM calls / task | s / task here | " + " | ".join(f"projected s {n}" for n in names) + " |"
    )
    lines = [f"Made by `{command}`.", "", head, "|" + "|".join(["---"] * (15 + len(names))) + "|"]
    for r in rows:
        agree = f"{r['reviews_agreeing']}/{r['reviews']}" if r["reviews"] else "–"
        proj = " | ".join(f"{r['projected_s'].get(n, 0):.0f}" for n in names)
        lines.append(
            f"| {r['label']} | {r['model']} | {r['strategy']} | {r['checker_final']}/{r['tasks']} | "
            f"{r.get('answered_wrong', 0)} | {r['invented_calls']} ({r['runs_inventing']} runs) | "
            f"{r['ungrounded_answers']}/{r['tasks']} | "
            f"{r['unverified_thoughts']}/{r['steps']} | "
            f"{agree} | {r['tokens_sent']:.0f} | {r['tokens_evaluated']:.0f} | "
            f"{r['tokens_evaluated'] / max(r['tokens_sent'], 1):.3f} | "
            f"{r['tokens_generated']:.0f} ({_forced(r)}) | {r['llm_calls']:.1f} | "
            f"{r['wall_s']:.1f} | {proj} |"
        )
    return "\n".join(lines) + "\n"


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("runs", nargs="+", help="LABEL=FOLDER (a folder with results.json)")
    ap.add_argument("--out", type=Path, required=True)
    args = ap.parse_args()
    profiles = reference_profiles()
    plist = list(profiles.profiles) if profiles else []
    rows = []
    for item in args.runs:
        label, _, folder = item.partition("=")
        if not folder:
            ap.error(f"{item!r} is not LABEL=FOLDER")
        rows += rows_of(label, Path(folder), plist)
    args.out.mkdir(parents=True, exist_ok=True)
    (args.out / "compare.json").write_text(json.dumps(rows, indent=1), encoding="utf-8")
    text = render(rows, [p.name for p in plist], "python bench/compare.py " + " ".join(sys.argv[1:]))
    (args.out / "compare.md").write_text(text, encoding="utf-8")
    print(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
