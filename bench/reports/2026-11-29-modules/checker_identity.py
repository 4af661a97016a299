"""Re-check the stored runs of bench reports with the checker of the tree this runs in, and write every verdict.

    cd TREE && PYTHONPATH=TREE python bench/reports/2026-11-29-modules/checker_identity.py OUT.jsonl REPORT...

Run once in a checkout of the old code and once in the new one, then `diff` the two OUT.jsonl files: a
behaviour-preserving change of the checker leaves them byte-identical. For every run set in a report's
runs.tar.xz (a folder holding results.jsonl, and report.md naming its task file) every stored run is checked again
as `edge_agent.bench.runner.evaluate` checks it: the final answer with the run's tool calls and final status, then
each trial's answer as it stood (the run's result JSON, where the tarball keeps it; else the final answer only,
tool calls not known). Stored runs keep no result files, so a `file` check sees none (it still computes its expected
rows) — so, for every task with a `file` check, three made-up runs are checked too: the expected rows written as one
file and named in the answer, the same file less its last row, and the same file with one value off by 1. Each task
of a task file is also validated (`validate_task`). The task files and plants are the tree's.
One line per task file (its problems) and per run (every check's status and detail); a summary on stderr.
"""

from __future__ import annotations

import json
import re
import sys
import tarfile
import tempfile
from collections import defaultdict
from pathlib import Path

ROOT = Path.cwd()
sys.path.insert(0, str(ROOT))

from edge_agent.bench.checker import Evidence, check_task, expected_rows, validate_task  # noqa: E402
from edge_agent.bench.tasks import load_tasks  # noqa: E402
from edge_agent.bench.truth import CachedTruth, SkySparkTruth  # noqa: E402
from edge_agent.commands.bench import embedded_simulator  # noqa: E402
from edge_agent.config import load_settings  # noqa: E402
from edge_agent.skyspark.client import SkySparkClient  # noqa: E402

TASK_FILE = re.compile(r"^- task file: `([^`]+)`", re.M)


def verdict_of(task, evidence, truth) -> list:
    v = check_task(task, evidence, truth)
    return [v.passed, [[c.check, c.status, c.detail] for c in v.checks]]


def run_sets(folder: Path):
    """(name, task file, results.jsonl) of every run set under `folder`."""
    for results in sorted(folder.rglob("results.jsonl")):
        report = results.parent / "report.md"
        m = TASK_FILE.search(report.read_text(encoding="utf-8")) if report.is_file() else None
        yield results.parent.relative_to(folder).as_posix(), (m.group(1) if m else None), results


def main(out: Path, reports: list[Path]) -> int:
    by_file: dict[str, list] = defaultdict(list)
    skipped = []
    with tempfile.TemporaryDirectory() as tmp:
        for report in reports:
            dest = Path(tmp) / report.name
            with tarfile.open(report / "runs.tar.xz") as tar:
                tar.extractall(dest, filter="data")
            for name, task_file, results in run_sets(dest):
                if task_file is None or not (ROOT / task_file).is_file():
                    skipped.append(f"{report.name}/{name} ({task_file or 'no report.md'})")
                    continue
                by_file[task_file].append((f"{report.name}/{name}", results))
        lines, totals = [], defaultdict(lambda: [0, 0, 0])
        for task_file in sorted(by_file):
            tf = load_tasks(ROOT / task_file)
            tasks = {t.id: t for t in tf.tasks}
            with embedded_simulator(load_settings(None), tf.dataset) as settings:
                truth = CachedTruth(SkySparkTruth(SkySparkClient.from_settings(settings.skyspark)))
                problems = [p for t in tf.tasks for p in validate_task(t, truth)]
                lines.append({"task_file": task_file, "problems": problems})
                for task in tf.tasks:
                    for i, spec in enumerate(task.expect.file or []):
                        try:
                            rows = [
                                {"asset": a, "sensor": s, "timestamp": ts.isoformat(), "value": v}
                                for (a, s, ts), v in expected_rows(spec, truth).items()
                            ]
                        except Exception as exc:
                            lines.append({"file_task": task.id, "spec": i, "error": repr(exc)})
                            continue
                        off = [dict(r) for r in rows]
                        off[0]["value"] = (off[0]["value"] or 0) + 1
                        for how, data in (("exact", rows), ("short", rows[:-1]), ("off", off)):
                            name = f"history_{task.id}_{i}_{how}.json"
                            ev = Evidence(f"saved to {name}", {name: data}, task.question, [], status="answered")
                            verdict = verdict_of(task, ev, truth)
                            lines.append({"file_task": task.id, "spec": i, "how": how, "verdict": verdict})
                            totals[f"(made-up file runs) {task_file}"][0] += 1
                            totals[f"(made-up file runs) {task_file}"][1] += verdict[0]
                            totals[f"(made-up file runs) {task_file}"][2] += len(verdict[1])
                for set_name, results in by_file[task_file]:
                    for row in map(json.loads, results.read_text(encoding="utf-8").splitlines()):
                        task = tasks.get(row["task_id"])
                        if task is None:
                            continue
                        path = results.parent / "runs" / f"{row['run_id']}.json"
                        result = json.loads(path.read_text(encoding="utf-8")) if path.is_file() else None
                        trials = result["trials"] if result else []
                        calls = [
                            [s["action"] for s in t["steps"] if s["kind"] in ("tool", "failure", "recovery") and s["action"]]
                            for t in trials
                        ]
                        final = verdict_of(
                            task,
                            Evidence(
                                row["answer"],
                                {},
                                task.question,
                                [c for t in calls for c in t] if result else None,
                                status=row["status"],
                            ),
                            truth,
                        )
                        rounds = [
                            verdict_of(
                                task,
                                Evidence(t["answer"], {}, task.question, [c for ts in calls[: i + 1] for c in ts]),
                                truth,
                            )
                            for i, t in enumerate(trials)
                            if (t.get("answer") or "").strip()
                        ]
                        lines.append({"set": set_name, "run": row["run_id"], "final": final, "rounds": rounds})
                        tot = totals[set_name]
                        tot[0] += 1
                        tot[1] += final[0]
                        tot[2] += sum(1 for r in [final, *rounds] for c in r[1])
    with out.open("w", encoding="utf-8") as f:
        for line in lines:
            f.write(json.dumps(line, ensure_ascii=False, sort_keys=True) + "\n")
    for name in sorted(totals):
        runs, passed, checks = totals[name]
        print(f"{name}\t{runs} runs\t{passed} pass\t{checks} checks", file=sys.stderr)
    for s in skipped:
        print(f"skipped: {s}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main(Path(sys.argv[1]), [Path(p).resolve() for p in sys.argv[2:]]))
