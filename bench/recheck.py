"""Re-check stored benchmark results with the strict-names checker (what issue 11 changed in the checker).

    .venv/bin/python bench/recheck.py bench/reports/2026-11-21-pokmain-issue4 bench/reports/2026-11-21-pokmain-issue6 \
        --out bench/reports/2026-11-23-grounding-issue11/recheck
    .venv/bin/python bench/recheck.py OUT_OF_A_BENCH_RUN --full --out FOLDER
    .venv/bin/python bench/recheck.py REPORT_FOLDER --audit --out FOLDER

`--full` takes the output folder of an `edge-agent bench` run (results.json, runs/ with every run's
result, state/files/ with the files each run wrote) and evaluates every run again with today's checker
and audit (`edge_agent.bench.runner.evaluate`): the runs are not repeated, their metrics are kept, and
results.json and report.md are written into `--out` as if the run had been made today. This is how the
old code's runs get the grounding columns (invented calls, ungrounded answers) of a new report.

`--audit` takes a report folder (results.json and runs/, no files needed) and runs only today's audit
(`edge_agent.bench.audit`) over its stored runs: the checker's verdicts and the metrics are kept, the grounding
columns are today's (e.g. thoughts that guessed a figure or name, counted since session 7).

The strict checker adds one check to every task with an answer, `names_exist`: the answer may not name
a site or asset the SkySpark does not have (`edge_agent/bench/audit.py`; names the question wrote are
allowed). Stored reports keep the answers but not the result files, so a run's other checks keep their
recorded status and the new check is applied to the answer, against the embedded simulator the runs
used. Prints, per report and model × strategy, the final completion before and after, and each run that
flips; writes `recheck.json` and `recheck.md` into `--out`.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from edge_agent.commands.bench import embedded_simulator  # noqa: E402
from edge_agent.config import load_settings  # noqa: E402
from edge_agent.evaluation.audit import unknown_names  # noqa: E402
from edge_agent.evaluation.results import BenchResults  # noqa: E402
from edge_agent.evaluation.truth import skyspark_truth  # noqa: E402


def recheck(folder: Path, truth) -> dict:
    results = BenchResults.model_validate_json((folder / "results.json").read_text(encoding="utf-8"))
    rows: dict[tuple[str, str], dict] = defaultdict(lambda: {"tasks": 0, "before": 0, "after": 0})
    flips = []
    for run in results.runs:
        unknown = unknown_names(run.answer or "", truth, run.question) if (run.answer or "").strip() else []
        after = run.checker_final and not unknown
        row = rows[(run.model, run.strategy)]
        row["tasks"] += 1
        row["before"] += run.checker_final
        row["after"] += after
        if unknown:
            flips.append(
                {
                    "task": run.task_id,
                    "model": run.model,
                    "strategy": run.strategy,
                    "passed_before": run.checker_final,
                    "unknown_names": unknown,
                    "answer": run.answer,
                }
            )
    return {
        "report": str(folder),
        "rows": [{"model": m, "strategy": s, **v} for (m, s), v in rows.items()],
        "answers_naming_what_does_not_exist": flips,
    }


def reaudit(folder: Path, truth, out: Path) -> Path:
    """The runs of a report folder audited again by today's audit; checker verdicts and metrics kept."""
    from edge_agent.agent.trajectory import RunResult
    from edge_agent.evaluation.audit import audit_run
    from edge_agent.evaluation.report import write_report

    results = BenchResults.model_validate_json((folder / "results.json").read_text(encoding="utf-8"))
    runs = []
    for old in results.runs:
        result = RunResult.model_validate_json((folder / "runs" / f"{old.run_id}.json").read_text(encoding="utf-8"))
        runs.append(old.model_copy(update={"audit": audit_run(result, truth)}))
    results = results.model_copy(update={"runs": runs})
    out.mkdir(parents=True, exist_ok=True)
    (out / "results.json").write_text(results.model_dump_json(indent=1), encoding="utf-8")
    return write_report(results, out)


def reevaluate(folder: Path, truth, out: Path) -> Path:
    """Every run of a bench output folder evaluated again by today's checker and audit; returns the report."""
    from edge_agent.agent.trajectory import RunResult
    from edge_agent.costmodel import reference_profiles
    from edge_agent.evaluation.report import write_report
    from edge_agent.evaluation.runner import evaluate, load_files
    from edge_agent.evaluation.tasks import load_tasks

    results = BenchResults.model_validate_json((folder / "results.json").read_text(encoding="utf-8"))
    tasks = {t.id: t for t in load_tasks(ROOT / "bench" / "tasks" / Path(results.tasks_file).name).tasks}
    runs = []
    for old in results.runs:
        result = RunResult.model_validate_json((folder / "runs" / f"{old.run_id}.json").read_text(encoding="utf-8"))
        files = load_files(folder / "state" / "files" / old.run_id)
        runs.append(evaluate(tasks[old.task_id], result, files, truth, old.model))
    profiles = reference_profiles()
    results = results.model_copy(
        update={
            "runs": runs,
            "strict_names": True,
            "gateways": list(profiles.profiles) if profiles else results.gateways,
            "gateway": profiles.default if profiles else results.gateway,
        }
    )
    out.mkdir(parents=True, exist_ok=True)
    (out / "results.json").write_text(results.model_dump_json(indent=1), encoding="utf-8")
    return write_report(results, out)


def render(checked: list[dict], command: str) -> str:
    out = [
        "# Old reports re-checked with the strict-names checker",
        "",
        f"Made by `{command}`.",
        "",
        "| report | model | strategy | tasks | checker @end before | after (strict names) "
        "| answers naming what does not exist |",
        "|---|---|---|---|---|---|---|",
    ]
    for c in checked:
        for r in c["rows"]:
            n = sum(
                1
                for f in c["answers_naming_what_does_not_exist"]
                if f["model"] == r["model"] and f["strategy"] == r["strategy"]
            )
            out.append(
                f"| {Path(c['report']).name} | {r['model']} | {r['strategy']} | {r['tasks']} | {r['before']} "
                f"| {r['after']} | {n} |"
            )
    out += ["", "## Answers naming what the SkySpark does not have", ""]
    for c in checked:
        for f in c["answers_naming_what_does_not_exist"]:
            verdict = "passed before, fails now" if f["passed_before"] else "failed before too"
            out.append(
                f"- {Path(c['report']).name} {f['model']}/{f['strategy']} {f['task']} ({verdict}): "
                f"{', '.join(f['unknown_names'])} — “{(f['answer'] or '')[:160]}”"
            )
    return "\n".join(out) + "\n"


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("reports", nargs="+", type=Path, help="report folders holding results.json")
    ap.add_argument("--out", type=Path, required=True)
    ap.add_argument("--full", action="store_true", help="evaluate every run of a bench output folder again")
    ap.add_argument(
        "--audit", action="store_true", help="audit the stored runs of report folders again (verdicts kept)"
    )
    ap.add_argument("--dataset", default="", help="the simulator dataset the runs used (a built-in plant, e.g. rhine)")
    args = ap.parse_args()
    settings = load_settings(None)
    with embedded_simulator(settings, args.dataset) as sim:
        truth = skyspark_truth(sim)
        if args.full or args.audit:
            again = reevaluate if args.full else reaudit
            for folder in args.reports:
                print(again(folder, truth, args.out if len(args.reports) == 1 else args.out / folder.name))
            return 0
        checked = [recheck(folder, truth) for folder in args.reports]
    args.out.mkdir(parents=True, exist_ok=True)
    (args.out / "recheck.json").write_text(json.dumps(checked, indent=1), encoding="utf-8")
    command = "python bench/recheck.py " + " ".join(sys.argv[1:])
    text = render(checked, command)
    (args.out / "recheck.md").write_text(text, encoding="utf-8")
    print(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
