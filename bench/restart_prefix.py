"""Restart to the first ReAct step: with the saved role prefix state vs evaluating the prefix again; peak RSS.

    flock /tmp/edge-model.lock .venv/bin/python bench/restart_prefix.py --repeats 3

A gateway process that restarts (crash, update, reboot) must answer its next question. Its react prompt
starts with a long stable prefix (instructions, tool descriptions, Tiny Trajectory Store examples) whose
KV state `LlamaRuntime` saved under `kv_cache_dir` the first time it evaluated it (`prefix_cache.py`).
This benchmark starts fresh processes, each doing what a restarted daemon does up to its first step: load
the model, start (the embedded simulator as) SkySpark, warm the react prefix into the KV cache
(`EdgeAgent.warm`, what the daemon's worker does before its first job), then ask the question with the
`react` strategy, so the first step is the agent's own (its prompt with the resolved facts, its grounded
step constraint), timed to the moment that step is recorded, in two ways, alternating:

- `saved`: the state dir holds the react prefix state (written once by a `prepare` process);
- `prefill`: an empty state dir, so the prefix is evaluated (and saved) again.

Per process it records the time from spawn to the end of the warm-up (the daemon answers at its
steady-state speed from then on) and to the first step's completion (a question already waiting at the
restart), its phases (interpreter, imports, model load, agent start, warm-up, then the first step with its
LLM call's prompt-eval / generation / state split) and RSS after each phase, and its peak RSS (VmHWM) against
the model file + the KV cache (n_ctx x n_layer x (n_embd_k_gqa + n_embd_v_gqa) x 2 bytes, f16). It prints the
ratios and writes JSON to `bench/results/` (or `--out`). No timed assertions: a benchmark reports.
"""

from __future__ import annotations

import time

T0 = time.time()  # before any heavy import: the interpreter's start-up is spawn -> T0

import argparse  # noqa: E402
import json  # noqa: E402
import os  # noqa: E402
import resource  # noqa: E402
import shutil  # noqa: E402
import statistics  # noqa: E402
import subprocess  # noqa: E402
import sys  # noqa: E402
import tempfile  # noqa: E402
from datetime import datetime  # noqa: E402
from pathlib import Path  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
QUESTION = "Get Chiller 6 and Chiller 9 Tonnage from last week at POKMAIN in a single file."
NOW = "2020-06-08T09:00:00-04:00"  # the clock of the agent's run (pokmain's tasks use it too)
MODES = ("saved", "prefill")
SLACK_MB = 300  # the issue's target: peak RSS <= model file + KV cache + 300 MB


def _status() -> dict[str, int]:
    """VmRSS and VmHWM (peak) of this process, in kB."""
    out = {}
    with open("/proc/self/status") as fh:
        for line in fh:
            if line.startswith(("VmRSS:", "VmHWM:")):
                key, value = line.split(":", 1)
                out[key] = int(value.split()[0])
    return out


class Phases:
    def __init__(self):
        self.rows: list[dict] = [{"phase": "start", "t": T0, "rss_mb": _status()["VmRSS"] / 1024}]

    def mark(self, phase: str) -> None:
        self.rows.append({"phase": phase, "t": time.time(), "rss_mb": round(_status()["VmRSS"] / 1024, 1)})

    def durations_ms(self) -> dict[str, float]:
        return {b["phase"]: round((b["t"] - a["t"]) * 1000, 1) for a, b in zip(self.rows, self.rows[1:])}


def kv_geometry(llm) -> dict:
    """The KV cache llama.cpp allocates for this context (f16 K and V, every layer, n_ctx cells)."""
    from llama_cpp import llama_cpp as C

    model = llm._llm.model
    n_layer, n_embd = C.llama_model_n_layer(model), C.llama_model_n_embd(model)
    n_head, n_head_kv = C.llama_model_n_head(model), C.llama_model_n_head_kv(model)
    n_embd_gqa = n_embd // n_head * n_head_kv  # = n_embd_k_gqa = n_embd_v_gqa for these models
    per_token = n_layer * 2 * n_embd_gqa * 2
    return {
        "n_ctx": llm.n_ctx,
        "n_layer": n_layer,
        "n_embd": n_embd,
        "n_head": n_head,
        "n_head_kv": n_head_kv,
        "n_embd_k_gqa": n_embd_gqa,
        "n_embd_v_gqa": n_embd_gqa,
        "type": "f16",
        "bytes_per_token": per_token,
        "kv_bytes": per_token * llm.n_ctx,
    }


def child(
    mode: str,
    state_dir: Path,
    model: str | None,
    threads: int | None,
    question: str,
    model_overrides: dict | None = None,
) -> dict:
    """One restarted agent up to its first step (runs in its own process)."""
    phases = Phases()
    from types import SimpleNamespace

    from edge_agent.agent.react import react_prompt
    from edge_agent.app import EdgeAgent
    from edge_agent.commands.bench import embedded_simulator
    from edge_agent.config import load_settings
    from edge_agent.llm.models import load_model

    phases.mark("imports")

    overrides: dict = {
        "paths": {"state_dir": str(state_dir)},
        "model": {"persist_prefix_cache": True, **(model_overrides or {})},
    }
    if model:
        overrides["model"]["name"] = model
    if threads:
        overrides["model"]["threads"] = threads
    settings = load_settings(overrides=overrides)
    llm = load_model(settings)
    phases.mark("model_load")

    saved_states = sorted(p.name for p in settings.kv_cache_dir.glob("*-react-*.kv"))
    first: dict = {}

    def on_event(event) -> None:
        if event.kind == "step" and not first:
            first.update(t=time.time(), step=event.step, rss=_status()["VmRSS"])

    with embedded_simulator(settings) as live:
        agent = EdgeAgent(live, llm=llm)
        phases.mark("agent_start")
        warm = agent.warm()
        phases.mark("warm")
        result = agent.ask(question, now=NOW, strategy="react", max_steps=1, max_trials=1, on_event=on_event)
    if not first:
        raise SystemExit(f"the agent recorded no step: {result.status} {result.error}")
    phases.rows.append({"phase": "first_step", "t": first["t"], "rss_mb": round(first["rss"] / 1024, 1)})
    step = first["step"]

    # the prompt's size and its stable prefix, for the report (after the clock stopped)
    store, tools = agent.trajectory_store, agent.tools
    prompt = react_prompt(
        question,
        SimpleNamespace(tools=tools, examples=store.render_for(question, llm), core_examples=store.render_core(llm)),
        [],
    )
    tokens, n_prefix = llm.tokenize_prompt(prompt)

    status = _status()
    kv_files = sorted(settings.kv_cache_dir.glob("*.kv"))
    return {
        "mode": mode,
        "t0": T0,
        "first_step_done": phases.rows[-1]["t"],
        "phases_ms": phases.durations_ms(),
        "rss_mb": {r["phase"]: r["rss_mb"] for r in phases.rows},
        "peak_rss_mb": round(status["VmHWM"] / 1024, 1),
        "ru_maxrss_mb": round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, 1),
        "warm_done": next(r["t"] for r in phases.rows if r["phase"] == "warm"),
        "warm_usage": warm,
        "usage": step.usage.model_dump(),
        "first_step": {"action": step.action, "input": step.action_input, "thought": step.thought, "ok": step.ok},
        "prompt_tokens": step.usage.prompt_tokens,
        "prefix_tokens": n_prefix,
        "bare_prompt_tokens": len(tokens),
        "saved_states_at_start": saved_states,
        "model": llm.model_name,
        "model_file": str(llm.path),
        "model_bytes": os.path.getsize(llm.path),
        "threads": settings.model.threads or os.cpu_count(),
        "flash_attn": settings.model.flash_attn,
        "n_ubatch": settings.model.n_ubatch or settings.model.n_batch,
        "kv": kv_geometry(llm),
        "state_file_bytes": {p.name: p.stat().st_size for p in kv_files},
    }


def spawn(mode: str, state_dir: Path, args) -> dict:
    with tempfile.NamedTemporaryFile("r", suffix=".json", delete=False) as fh:
        result = Path(fh.name)
    cmd = [
        sys.executable,
        str(Path(__file__).resolve()),
        "--child",
        mode,
        "--state-dir",
        str(state_dir),
        "--result",
        str(result),
        "--question",
        args.question,
    ]
    if args.model:
        cmd += ["--model", args.model]
    if args.threads:
        cmd += ["--threads", str(args.threads)]
    if args.flash_attn:
        cmd += ["--flash-attn", args.flash_attn]
    if args.n_ubatch:
        cmd += ["--n-ubatch", str(args.n_ubatch)]
    spawned = time.time()
    proc = subprocess.run(cmd, cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    ended = time.time()
    if proc.returncode != 0:
        raise SystemExit(f"{mode} process failed ({proc.returncode}):\n{proc.stderr[-3000:]}")
    data = json.loads(result.read_text())
    result.unlink()
    data["restart_to_first_step_s"] = round(data["first_step_done"] - spawned, 3)
    data["restart_to_warm_s"] = round(data["warm_done"] - spawned, 3)
    data["interpreter_ms"] = round((data["t0"] - spawned) * 1000, 1)
    data["process_s"] = round(ended - spawned, 3)
    return data


def _median(runs: list[dict], get) -> float:
    return round(statistics.median(get(r) for r in runs), 3)


def summarise(runs: list[dict]) -> dict:
    by = {m: [r for r in runs if r["mode"] == m] for m in MODES}
    s = {
        m: {
            "restart_to_first_step_s": _median(rs, lambda r: r["restart_to_first_step_s"]),
            "restart_to_warm_s": _median(rs, lambda r: r["restart_to_warm_s"]),
            "warm_ms": _median(rs, lambda r: r["warm_usage"]["ms"]),
            "warm_evaluated_tokens": _median(rs, lambda r: r["warm_usage"]["evaluated_tokens"]),
            "warm_state_ms": _median(rs, lambda r: r["warm_usage"]["state_ms"]),
            "first_call_ms": _median(rs, lambda r: r["usage"]["ms"]),
            "eval_ms": _median(rs, lambda r: r["usage"]["eval_ms"]),
            "gen_ms": _median(rs, lambda r: r["usage"]["gen_ms"]),
            "state_ms": _median(rs, lambda r: r["usage"]["state_ms"]),
            "evaluated_tokens": _median(rs, lambda r: r["usage"]["evaluated_tokens"]),
            "generated_tokens": _median(rs, lambda r: r["usage"]["generated_tokens"]),
            "forced_tokens": _median(rs, lambda r: r["usage"].get("forced_tokens", 0)),
            "tail_tokens": _median(rs, lambda r: r["usage"].get("tail_tokens", 0)),
            "tail_forced": _median(rs, lambda r: r["usage"].get("tail_forced", 0)),
            "startup_s": _median(rs, lambda r: r["restart_to_warm_s"] - r["warm_usage"]["ms"] / 1000),
            "step_other_s": _median(
                rs, lambda r: r["restart_to_first_step_s"] - r["restart_to_warm_s"] - r["usage"]["ms"] / 1000
            ),
            "peak_rss_mb": max(r["peak_rss_mb"] for r in rs),
        }
        for m, rs in by.items()
    }
    first = runs[0]
    model_mb, kv_mb = first["model_bytes"] / 2**20, first["kv"]["kv_bytes"] / 2**20
    peak = max(r["peak_rss_mb"] for r in runs)

    def ratio(key: str) -> float:
        return round(s["prefill"][key] / s["saved"][key], 2)

    return {
        "by_mode": s,
        "ratio_restart_to_first_step": ratio("restart_to_first_step_s"),
        "ratio_restart_to_warm": ratio("restart_to_warm_s"),
        "ratio_warm_call": ratio("warm_ms"),
        "prompt_tokens": first["prompt_tokens"],
        "prefix_tokens": first["prefix_tokens"],
        "model_mb": round(model_mb, 1),
        "kv_mb": round(kv_mb, 1),
        "rss_budget_mb": round(model_mb + kv_mb + SLACK_MB, 1),
        "peak_rss_mb": peak,
        "peak_rss_over_model_plus_kv_mb": round(peak - model_mb - kv_mb, 1),
        "rss_within_budget": peak <= model_mb + kv_mb + SLACK_MB,
    }


def projections(summary: dict) -> dict:
    """Restart to warm and to the first step with an 8B Q4_K_M on each reference gateway, with and without
    the saved prefix (this run's token counts; the time outside the LLM kept as measured here)."""
    from edge_agent.costmodel import load_profiles, project_seconds

    out = {}
    by = summary["by_mode"]
    for p in load_profiles().profiles:
        warm = {
            m: by[m]["startup_s"] + by[m]["warm_state_ms"] / 1000 + p.llm_seconds(by[m]["warm_evaluated_tokens"], 0)
            for m in MODES
        }
        first = {
            m: warm[m]
            + project_seconds(
                p,
                by[m]["evaluated_tokens"],
                by[m]["generated_tokens"],
                by[m]["step_other_s"],
                by[m]["forced_tokens"],
                by[m]["tail_tokens"],
                by[m]["tail_forced"],
            )
            for m in MODES
        }
        out[p.name] = {
            "warm_saved_s": round(warm["saved"], 1),
            "warm_prefill_s": round(warm["prefill"], 1),
            "warm_ratio": round(warm["prefill"] / warm["saved"], 1),
            "saved_s": round(first["saved"], 1),
            "prefill_s": round(first["prefill"], 1),
            "ratio": round(first["prefill"] / first["saved"], 1),
        }
    return out


def render(summary: dict, runs: list[dict], projected: dict) -> str:
    s = summary["by_mode"]
    lines = [
        f"prompt {summary['prompt_tokens']} tokens, stable react prefix {summary['prefix_tokens']} tokens; "
        f"{len(runs)} fresh processes ({', '.join(r['mode'] for r in runs)}); flash attention "
        f"{'on' if runs[0]['flash_attn'] else 'off'}, n_ubatch {runs[0]['n_ubatch']}",
        "",
        "| mode | restart -> warm s | restart -> first step s | startup s | warm ms (evaluated, restore ms) "
        "| first call ms | eval ms | gen ms | evaluated | generated | peak RSS MB |",
        "|---|---|---|---|---|---|---|---|---|---|---|",
    ]
    for m in MODES:
        r = s[m]
        lines.append(
            f"| {m} | {r['restart_to_warm_s']:.2f} | {r['restart_to_first_step_s']:.2f} | "
            f"{r['startup_s']:.2f} | {r['warm_ms']:.0f} ({r['warm_evaluated_tokens']:.0f}, "
            f"{r['warm_state_ms']:.0f}) | {r['first_call_ms']:.0f} | {r['eval_ms']:.0f} | {r['gen_ms']:.0f} | "
            f"{r['evaluated_tokens']:.0f} | {r['generated_tokens']:.0f} | {r['peak_rss_mb']:.0f} |"
        )
    lines += [
        "",
        f"ratio prefill / saved, restart to warm (ready at steady-state speed): "
        f"{summary['ratio_restart_to_warm']:.2f}x (the warm-up call alone: {summary['ratio_warm_call']:.2f}x)",
        f"ratio prefill / saved, restart to the first step of a question waiting at the restart: "
        f"{summary['ratio_restart_to_first_step']:.2f}x",
        f"peak RSS {summary['peak_rss_mb']:.0f} MB vs model file {summary['model_mb']:.0f} MB + KV cache "
        f"{summary['kv_mb']:.0f} MB + {SLACK_MB} MB = {summary['rss_budget_mb']:.0f} MB: "
        f"{'within' if summary['rss_within_budget'] else 'OVER'} "
        f"(model + KV + {summary['peak_rss_over_model_plus_kv_mb']:.0f} MB)",
        "",
        "RSS after each phase (MB, first process of each mode):",
    ]
    for m in MODES:
        r = next(x for x in runs if x["mode"] == m)
        lines.append(
            f"  {m}: "
            + ", ".join(f"{k} {v:.0f}" for k, v in r["rss_mb"].items())
            + "; phases ms: "
            + ", ".join(f"{k} {v:.0f}" for k, v in r["phases_ms"].items())
            + f"; interpreter {r['interpreter_ms']:.0f}"
        )
    lines += ["", "projected with an 8B Q4_K_M (this run's tokens, time outside the LLM as measured here):"]
    lines += [
        f"  {name}: restart -> warm: saved {p['warm_saved_s']} s, prefill {p['warm_prefill_s']} s, ratio "
        f"{p['warm_ratio']}x; restart -> first step: saved {p['saved_s']} s, prefill {p['prefill_s']} s, "
        f"ratio {p['ratio']}x"
        for name, p in projected.items()
    ]
    return "\n".join(lines)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--repeats", type=int, default=3, help="processes per mode (alternating)")
    ap.add_argument("--model", default=None, help="catalog model name (default: the configured one)")
    ap.add_argument("--threads", type=int, default=None)
    ap.add_argument("--question", default=QUESTION)
    ap.add_argument("--flash-attn", choices=("on", "off"), default=None, help="override model.flash_attn")
    ap.add_argument("--n-ubatch", type=int, default=None, help="override model.n_ubatch")
    ap.add_argument(
        "--out", type=Path, default=None, help="JSON output (default bench/results/restart-prefix-<time>.json)"
    )
    ap.add_argument("--child", choices=("prepare",) + MODES, help=argparse.SUPPRESS)
    ap.add_argument("--state-dir", type=Path, help=argparse.SUPPRESS)
    ap.add_argument("--result", type=Path, help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.child:
        sys.stdout = sys.stderr  # native libraries' chatter stays off the result
        model_overrides = {
            k: v
            for k, v in {
                "flash_attn": {"on": True, "off": False}.get(args.flash_attn),
                "n_ubatch": args.n_ubatch,
            }.items()
            if v is not None
        }
        args.result.write_text(
            json.dumps(child(args.child, args.state_dir, args.model, args.threads, args.question, model_overrides))
        )
        return

    # bytecode as an installed gateway has it (docs/gateway-install.md: compileall after every update), so no
    # process pays for compiling the sources, whatever PYTHONDONTWRITEBYTECODE says here
    subprocess.run(
        [sys.executable, "-m", "compileall", "-q", "edge_agent", "plugins"],
        cwd=ROOT,
        check=True,
        stdout=subprocess.DEVNULL,
    )
    with tempfile.TemporaryDirectory(prefix="restart-prefix-") as tmp:
        warm = Path(tmp) / "warm"
        prepared = spawn("prepare", warm, args)
        if not prepared["state_file_bytes"]:
            raise SystemExit("the prepare process saved no prefix state")
        runs = []
        for i in range(args.repeats):
            for mode in MODES if i % 2 == 0 else MODES[::-1]:
                state = warm if mode == "saved" else Path(tmp) / f"cold-{i}"
                if mode == "prefill":  # the vocabulary is kept in both: only the prefix states differ
                    (state / "kv").mkdir(parents=True, exist_ok=True)
                    for vocab in (warm / "kv").glob("*-vocab.npz"):
                        shutil.copy2(vocab, state / "kv" / vocab.name)
                runs.append(spawn(mode, state, args))
                print(
                    f"{mode:8} restart -> warm {runs[-1]['restart_to_warm_s']:.2f} s, "
                    f"-> first step {runs[-1]['restart_to_first_step_s']:.2f} s, "
                    f"peak RSS {runs[-1]['peak_rss_mb']:.0f} MB",
                    file=sys.stderr,
                )
    for r in runs:
        if r["mode"] == "saved" and not r["saved_states_at_start"]:
            raise SystemExit("a saved-mode process found no saved state")
    summary = summarise(runs)
    projected = projections(summary)
    print(render(summary, runs, projected))
    out = args.out or ROOT / "bench" / "results" / f"restart-prefix-{datetime.now():%Y%m%d-%H%M%S}.json"
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(
        json.dumps(
            {
                "question": args.question,
                "repeats": args.repeats,
                "summary": summary,
                "projected_first_step": projected,
                "prepare": prepared,
                "runs": runs,
            },
            indent=1,
        )
    )
    print(f"\nJSON: {out}")


if __name__ == "__main__":
    main()
