#!/usr/bin/env python3
"""Re-judge the answers stored in benchmark reports with today's checker, without their files or a model.

For each report folder (results.json of an `edge-agent bench` run), every run of a task without a `file` check is
checked again — its stored answer and final status against the SkySpark its task file names (`dataset:`, served by
the embedded simulator) — and each run whose verdict flips is printed with the failing check. Tool calls are not
stored in results.json, so `refuses` does not see them here. This is how a stricter checker (issue 29: a count bound
to its noun, a ranking that names its statistic, a yes/no about the series asked) is measured on old runs.

    python bench/recheck_answers.py bench/reports/2026-11-25-analysis/base-analysis [more folders…]
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from edge_agent.commands.bench import embedded_simulator  # noqa: E402
from edge_agent.config import load_settings  # noqa: E402
from edge_agent.evaluation.checker import Evidence, check_task  # noqa: E402
from edge_agent.evaluation.tasks import load_tasks  # noqa: E402
from edge_agent.evaluation.truth import CachedTruth, SkySparkTruth  # noqa: E402
from edge_agent.skyspark.client import SkySparkClient  # noqa: E402


def recheck(folder: Path) -> tuple[int, list[tuple]]:
    res = json.loads((folder / "results.json").read_text(encoding="utf-8"))
    tf = load_tasks(ROOT / res["tasks_file"] if not Path(res["tasks_file"]).is_absolute() else res["tasks_file"])
    tasks = {t.id: t for t in tf.tasks}
    with embedded_simulator(load_settings(None), tf.dataset) as settings:
        truth = CachedTruth(SkySparkTruth(SkySparkClient.from_settings(settings.skyspark)))
        n, flips = 0, []
        for run in res["runs"]:
            task = tasks.get(run["task_id"])
            if task is None or task.expect.file:
                continue
            n += 1
            verdict = check_task(task, Evidence(run["answer"], {}, run["question"], None, status=run["status"]), truth)
            if verdict.passed != run["checker_final"]:
                flips.append(
                    (
                        run["strategy"],
                        run["task_id"],
                        run["status"],
                        run["checker_final"],
                        verdict.passed,
                        (run["answer"] or "")[:160],
                        [f"{c.check}: {c.detail}" for c in verdict.checks if not c.passed],
                    )
                )
    return n, flips


def main(argv: list[str]) -> int:
    if not argv:
        print(__doc__)
        return 2
    for folder in map(Path, argv):
        n, flips = recheck(folder)
        print(f"{folder}: {n} runs re-judged, {len(flips)} flip")
        for strategy, task, status, before, after, answer, why in flips:
            print(
                f"  {strategy} {task} ({status}): {'pass' if before else 'fail'} -> {'pass' if after else 'fail'}"
                f" | {answer!r} | {'; '.join(why)}"
            )
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
