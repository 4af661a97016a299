"""What it costs to make a model call stoppable: prompt evaluation in chunks vs in one piece, side by side.

    flock /tmp/edge-model.lock .venv/bin/python bench/interrupt_chunks.py --repeats 3

A call given an `interrupt` event (every agent run's cancel, the daemon's stop during its warm-up) evaluates
its prompt in chunks of `model.interrupt_tokens` and looks at the event before each one, so a cancel or a
stop waits for at most one chunk instead of the whole call. Smaller chunks stop sooner but hand llama.cpp
smaller batches. This benchmark loads the configured model once and evaluates, alternating the order in
each round, (a) the react role's real stable prefix (instructions, tools, core examples: what a new model's
warm-up or a restart without saved states evaluates) from an empty cache and (b) a question of the usual
size after it (what an agent step evaluates), in one piece (no interrupt event, as before) and in chunks of
each size. It prints the medians, each chunk size's ratio to one piece, and the longest a stop waits on the
reference gateways (`bench/gateways.yaml`: chunk / prompt rate), and writes JSON to `bench/results/` (or
`--out`). No timed assertions: a benchmark reports.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import threading
from datetime import datetime
from pathlib import Path
from types import SimpleNamespace

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from edge_agent.costmodel import load_profiles  # noqa: E402

QUESTION = (
    "Get Chiller 6 and Chiller 9 Tonnage from last week at POKMAIN in a single file.\n"
    "Worked out: last week is 2020-06-01 to 2020-06-08; site POKMAIN; assets Chiller 6, Chiller 9; "
    "sensor Chiller 6 Tonnage, Chiller 9 Tonnage. The answer names the file written."
)


def prompts(settings, llm):
    """The react prefix as a user message (so no large prefix state is saved between measurements) and
    the same with a question after it."""
    from edge_agent.agent.react import react_prompt
    from edge_agent.llm.base import Prompt
    from edge_agent.toolkit import ToolRegistry
    from edge_agent.trajectory_store import TrajectoryStore

    tools = ToolRegistry.from_dir(settings.plugins_dir)
    core = TrajectoryStore.open(settings, tools).render_core(llm)
    prefix = react_prompt("", SimpleNamespace(tools=tools, examples=core, core_examples=core), []).system
    return Prompt(system="", user=prefix), Prompt(system="", user=f"{prefix}\n\nQuestion: {QUESTION}")


def measure(llm, prefill, step, chunk: int | None) -> dict:
    """Evaluate `prefill` from an empty cache, then `step` after it; `chunk` None: in one piece."""
    interrupt = None if chunk is None else threading.Event()
    if chunk is not None:
        llm.interrupt_tokens = chunk
    llm.reset_context()
    a = llm.complete(prefill, role="bench-chunks", max_tokens=1, interrupt=interrupt).usage
    b = llm.complete(step, role="bench-chunks", max_tokens=1, interrupt=interrupt).usage
    return {
        "prefill_tokens": a.evaluated_tokens,
        "prefill_ms": a.eval_ms,
        "step_tokens": b.evaluated_tokens,
        "step_ms": b.eval_ms,
    }


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--chunks", default="256,128,64,32", help="chunk sizes, comma-separated")
    ap.add_argument("--out", type=Path, default=None)
    args = ap.parse_args()

    from edge_agent.config import load_settings
    from edge_agent.llm.models import load_model

    settings = load_settings(overrides={"model": {"persist_prefix_cache": False}})
    llm = load_model(settings)
    prefill, step = prompts(settings, llm)
    sizes: list[int | None] = [None] + [int(c) for c in args.chunks.split(",")]
    measure(llm, prefill, step, None)  # a first pass: page the model in, size the buffers
    runs: dict[str, list[dict]] = {str(s): [] for s in sizes}
    for i in range(args.repeats):
        for size in sizes if i % 2 == 0 else sizes[::-1]:
            runs[str(size)].append(measure(llm, prefill, step, size))
            r = runs[str(size)][-1]
            print(
                f"round {i + 1} chunk {size or 'one piece':>9}: prefill {r['prefill_ms']:.0f} ms "
                f"({r['prefill_tokens']} tokens), step {r['step_ms']:.0f} ms ({r['step_tokens']})",
                file=sys.stderr,
            )

    profiles = load_profiles(ROOT / "bench" / "gateways.yaml")
    whole = {k: statistics.median(r[k] for r in runs["None"]) for k in ("prefill_ms", "step_ms")}
    rows = []
    for size in sizes:
        med = {k: statistics.median(r[k] for r in runs[str(size)]) for k in ("prefill_ms", "step_ms")}
        longest = runs[str(size)][0]["prefill_tokens"] if size is None else size
        rows.append(
            {
                "chunk": size,
                **med,
                "prefill_ratio": med["prefill_ms"] / whole["prefill_ms"],
                "step_ratio": med["step_ms"] / whole["step_ms"],
                "stop_wait_s": {p.name: round(longest / p.pp_tps, 1) for p in profiles.profiles},
            }
        )
    first = runs["None"][0]
    print(
        f"\n{llm.model_name}, {settings.model.threads or 'all'} threads, n_ubatch {settings.model.n_ubatch}; "
        f"prefill {first['prefill_tokens']} tokens, step {first['step_tokens']} tokens; medians of "
        f"{args.repeats}, alternating\n"
    )
    names = [p.name for p in profiles.profiles]
    print(
        "| chunk | prefill ms | × one piece | step ms | × one piece | "
        + " | ".join(f"longest stop wait {n} s" for n in names)
        + " |"
    )
    print("|---|---|---|---|---|" + "---|" * len(names))
    for r in rows:
        print(
            f"| {r['chunk'] or 'one piece (no interrupt)'} | {r['prefill_ms']:.0f} | {r['prefill_ratio']:.3f} | "
            f"{r['step_ms']:.0f} | {r['step_ratio']:.3f} | "
            + " | ".join(f"{r['stop_wait_s'][n]}" for n in names)
            + " |"
        )
    out = args.out or ROOT / "bench" / "results" / f"interrupt-chunks-{datetime.now():%Y%m%d-%H%M%S}.json"
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(
        json.dumps(
            {
                "model": llm.model_name,
                "threads": settings.model.threads,
                "n_ubatch": settings.model.n_ubatch,
                "repeats": args.repeats,
                "rows": rows,
                "runs": runs,
            },
            indent=1,
        )
    )
    print(f"\nJSON: {out}")


if __name__ == "__main__":
    main()
