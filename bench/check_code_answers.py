#!/usr/bin/env python3
"""Check the answers code writes before any model step (refusals, existence Yes/No) against the checker.

No model runs: for every task of a task file whose check is `refuses` or `yes_no: {exists: …}`, the agent's
grounding (`Grounding.build`, as `ask` does it) writes its answer, and the benchmark's checker judges it with
no tool call. A task listed as WRONG fails on every model (code's answer is wrong); one listed as LEFT had no
code-written answer, so a model must refuse or answer it (the linking or the question's reading did not see it).
Exit 1 when any answer is WRONG. Serves the task file's `dataset:` (default: the synthetic plant) in the simulator.

    python bench/check_code_answers.py bench/tasks/analysis.yaml bench/tasks/analysis-rhine.yaml
"""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from edge_agent.evaluation.checker import Evidence, check_task  # noqa: E402
from edge_agent.evaluation.tasks import load_tasks  # noqa: E402
from edge_agent.evaluation.truth import CachedTruth, SkySparkTruth  # noqa: E402
from edge_agent.grounding.catalog import Catalog  # noqa: E402
from edge_agent.grounding.run import Grounding  # noqa: E402
from edge_agent.skyspark.client import SkySparkClient  # noqa: E402
from edge_agent.skyspark.plants import open_dataset  # noqa: E402
from edge_agent.skyspark.simulator import serve  # noqa: E402


def main(paths: list[str]) -> int:
    failing = 0
    for path in paths:
        tf = load_tasks(path)
        server = serve(
            "127.0.0.1", 0, project="demo", users={"bench": "bench-pw"}, dataset=open_dataset(tf.dataset or None)
        )
        try:
            client = SkySparkClient(server.url, "demo", "bench", "bench-pw")
            truth, catalog = CachedTruth(SkySparkTruth(client)), Catalog.from_client(client)
            ok = 0
            for task in tf.tasks:
                e = task.expect
                if not (e.refuses or (e.yes_no and e.yes_no.exists)):
                    continue
                answer = Grounding.build(task.question, catalog, task.now).in_code
                verdict = check_task(task, Evidence(answer or None, {}, task.question, []), truth)
                if verdict.passed:
                    ok += 1
                    continue
                if answer:
                    failing += 1
                    print(f"WRONG {path} {task.id}: {task.question}\n    code wrote: {answer}\n    {verdict.summary()}")
                else:
                    print(f"LEFT  {path} {task.id}: {task.question}")
            print(f"{path}: {ok} code-written answers pass")
        finally:
            server.shutdown()
            server.server_close()
    return 1 if failing else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:] or [str(ROOT / "bench" / "tasks" / "analysis.yaml")]))
