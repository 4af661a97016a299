"""Does the Review prompt's worked example help or hurt the model's verdict? Side by side, one run.

Takes the finished trials of earlier `edge-agent bench` runs (their output folders: runs/*.json and
results.jsonl with the checker's verdict on each trial) and asks the review model about each trial twice,
with the prompt as shipped (instructions + one worked example) and with the example left out, in
alternating order, on the same loaded model. The evidence facts the prompt carries are gathered by the
same code as in a run (`review.gather_evidence`; the files are the run's recorded files). For each
variant it prints and writes:

  * model agrees    — the model's own verdict (Accomplished or not) matches the checker on that trial;
  * copied          — replies that repeat the worked example (`echo.copies_example`), which a run discards;
  * final agrees    — the verdict a run would give (echo → code verdict; else the worse of model and evidence);
  * tokens evaluated / generated per review.

    flock /tmp/edge-model.lock .venv/bin/python bench/review_examples.py FOLDER [FOLDER …] [--model NAME] --out FILE
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from datetime import datetime
from pathlib import Path
from types import SimpleNamespace

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from edge_agent.agent.echo import copies_example  # noqa: E402
from edge_agent.agent.prompting import load_prompt, stable_system  # noqa: E402
from edge_agent.agent.review import (  # noqa: E402
    ReviewReply,
    code_verdict,
    combine,
    gather_evidence,
    review_prompt,
)
from edge_agent.agent.trajectory import Trial  # noqa: E402
from edge_agent.config import load_settings  # noqa: E402
from edge_agent.llm.base import Prompt  # noqa: E402
from edge_agent.llm.constraints import json_constraint  # noqa: E402
from edge_agent.llm.models import load_model  # noqa: E402

EXAMPLE_MARK = "\n\nExample:"
MAX_TOKENS = 220


class _Files:
    def __init__(self, names: list[str]):
        self._names = names

    def names(self) -> list[str]:
        return list(self._names)

    def exists(self, name: str) -> bool:
        return name in self._names


def reviewed_trials(folder: Path) -> list[dict]:
    """Every answered trial of the folder's runs with the checker's verdict on it."""
    if (folder / "results.jsonl").exists():  # a bench output folder
        runs = [json.loads(line) for line in (folder / "results.jsonl").read_text(encoding="utf-8").splitlines()]
    else:  # a report folder keeps results.json only
        runs = json.loads((folder / "results.json").read_text(encoding="utf-8"))["runs"]
    checker = {r["run_id"]: r["checker_by_round"] for r in runs}
    out = []
    for path in sorted((folder / "runs").glob("*.json")):
        run = json.loads(path.read_text(encoding="utf-8"))
        verdicts = checker.get(run["run_id"])
        if verdicts is None or run.get("strategy") == "react":  # react alone is never reviewed
            continue
        files = [f["name"] for f in run.get("files", [])]
        for i, raw in enumerate(run["trials"]):
            if (raw.get("answer") or "").strip() and i < len(verdicts):
                out.append(
                    {
                        "run_id": run["run_id"],
                        "question": run["question"],
                        "now": run["now"],
                        "files": files,
                        "trial": Trial.model_validate(raw),
                        "checker": bool(verdicts[i]),
                    }
                )
    return out


def variants() -> dict[str, str]:
    shipped = load_prompt("review")
    return {"with example": shipped, "without example": shipped.split(EXAMPLE_MARK)[0].rstrip()}


def ask(llm, role: str, system: str, item: dict) -> dict:
    now = datetime.fromisoformat(item["now"])
    rt = SimpleNamespace(
        ctx=SimpleNamespace(files=_Files(item["files"]), clock=SimpleNamespace(now=lambda: now)), grounding=None
    )
    evidence = gather_evidence(item["question"], item["trial"], rt)
    base = review_prompt(item["question"], item["trial"], evidence)
    prompt = Prompt(system=stable_system(system), user=base.user, assistant_prefix=base.assistant_prefix)
    out = llm.complete(prompt, role=role, constraint=json_constraint(ReviewReply), max_tokens=MAX_TOKENS)
    try:
        reply = ReviewReply.model_validate_json(out.text)
    except ValueError:
        reply = None
    copied = reply is not None and copies_example(f"{reply.reasoning} {reply.suggestions}", load_prompt("review"))
    if reply is None or copied:
        final = code_verdict(evidence, "unusable reply").status
    else:
        final = combine(reply, evidence).status
    return {
        "model_status": reply.status if reply else None,
        "copied": copied,
        "final": final,
        "evaluated": out.usage.evaluated_tokens,
        "generated": out.usage.generated_tokens,
    }


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("folders", nargs="+", type=Path)
    ap.add_argument("--model", default=None)
    ap.add_argument("--out", type=Path, required=True)
    args = ap.parse_args()
    settings = load_settings()
    llm = load_model(settings, args.model)
    items = [it for folder in args.folders for it in reviewed_trials(folder)]
    prompts = variants()
    rows: dict[str, list[dict]] = {name: [] for name in prompts}
    started = time.time()
    for k, item in enumerate(items):
        order = list(prompts) if k % 2 == 0 else list(reversed(prompts))
        for name in order:
            role = "review-bench-" + ("ex" if name == "with example" else "noex")
            res = ask(llm, role, prompts[name], item)
            res.update(run_id=item["run_id"], trial=item["trial"].number, checker=item["checker"])
            rows[name].append(res)
    summary = {}
    for name, rs in rows.items():
        n = len(rs)
        summary[name] = {
            "trials": n,
            "model_agrees": sum((r["model_status"] == "Accomplished") == r["checker"] for r in rs),
            "copied": sum(r["copied"] for r in rs),
            "invalid": sum(r["model_status"] is None for r in rs),
            "final_agrees": sum((r["final"] == "Accomplished") == r["checker"] for r in rs),
            "evaluated_per_review": round(sum(r["evaluated"] for r in rs) / max(1, n), 1),
            "generated_per_review": round(sum(r["generated"] for r in rs) / max(1, n), 1),
        }
    print(
        f"{len(items)} answered trials from {', '.join(map(str, args.folders))}; model {llm.model_name}; "
        f"{time.time() - started:.0f} s"
    )
    print("| prompt | trials | model agrees | copied | invalid | final agrees | eval / review | gen / review |")
    print("|---|---|---|---|---|---|---|---|")
    for name, s in summary.items():
        print(
            f"| {name} | {s['trials']} | {s['model_agrees']} | {s['copied']} | {s['invalid']} | "
            f"{s['final_agrees']} | {s['evaluated_per_review']} | {s['generated_per_review']} |"
        )
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(
        json.dumps(
            {"command": " ".join(sys.argv), "model": llm.model_name, "summary": summary, "rows": rows}, indent=1
        ),
        encoding="utf-8",
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
