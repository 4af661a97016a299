"""Constrained vs unconstrained decoding speed on SmolLM2, side by side in one run.

Same model file, same thread count, same prompt, greedy. For each method: the prompt is evaluated
afresh, then up to N tokens are generated; tokens/s counts generated tokens over the generation time
(the wall time minus the median prompt-evaluation time, measured in the same run). Methods:

  unconstrained/llama-cpp-python   Llama.create_completion (the library's own sampler chain)
  unconstrained/edge-agent         our decode loop without a constraint (what unconstrained calls use)
  json/edge-agent                  our decoder: outlines-core regex from the pydantic schema, lazy token index
  step/edge-agent                  our decoder: the ReAct step constraint over the tools in tools/
  json/outlines                    outlines 1.3.3's own llama.cpp integration (logits processor)
  json/llama-grammar               llama.cpp GBNF (LlamaGrammar.from_json_schema of the same schema)

Prints ratios constrained/unconstrained and writes bench/results/constrained_decoding.json.
Run: .venv/bin/python bench/constrained_decoding.py [--threads 2] [--tokens 160] [--repeats 3]
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import statistics
import sys
import time
from pathlib import Path
from typing import Literal

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from pydantic import BaseModel, Field  # noqa: E402

from edge_agent.config import load_settings  # noqa: E402
from edge_agent.llm.base import Prompt  # noqa: E402
from edge_agent.llm.constraints import json_constraint, step_constraint  # noqa: E402
from edge_agent.llm.llama import LlamaRuntime  # noqa: E402
from edge_agent.llm.models import load_catalog, catalog_path, verify  # noqa: E402
from edge_agent.toolkit import ToolRegistry  # noqa: E402


class Inspection(BaseModel):
    """A JSON reply long enough to time: free strings, an enum, a list.

    No maxLength on the strings: outlines compiles lengths into its automaton, and a counted repetition
    of JSON string characters does not compile in reasonable time (measured: minutes, gigabytes).
    Our decoder bounds strings itself (400 characters here)."""

    status: Literal["Accomplished", "Partially Accomplished", "Not Accomplished"]
    reasoning: str
    findings: list[str] = Field(..., max_length=4)
    next_step: str


SYSTEM = ("You are the maintenance assistant of a chiller plant. Reply with a JSON object with the keys status, "
          "reasoning, findings (a list of short strings) and next_step. Explain in detail.")
USER = ("Chiller 6 at POKMAIN tripped three times this week on low refrigerant pressure; the condenser water "
        "temperature was normal and the compressor current spiked before each trip. Assess the situation.")
REACT_SYSTEM = "Answer by steps: Thought, Action, Action Input (JSON). Tools:\n"


def median(xs):
    return statistics.median(xs) if xs else float("nan")


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--tokens", type=int, default=160)
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--model", default="smollm2-135m")
    ap.add_argument("--out", type=Path, default=ROOT / "bench" / "results" / "constrained_decoding.json")
    ap.add_argument("--skip", action="append", default=[], help="method name to skip (repeatable)")
    args = ap.parse_args()

    import llama_cpp

    settings = load_settings(environ={})
    entry = load_catalog(catalog_path(settings)).get(args.model)
    path = verify(settings, entry)
    n_ctx = 2048
    rt = LlamaRuntime(path, model_name=entry.name, sha256=entry.sha256 or "", n_ctx=n_ctx, threads=args.threads,
                      persist_prefix_cache=False)
    lib = llama_cpp.Llama(str(path), n_ctx=n_ctx, n_threads=args.threads, n_threads_batch=args.threads,
                          verbose=False, seed=0)
    prompt = Prompt(system=SYSTEM, user=USER)
    text_prompt = rt.chat.render(prompt)
    prompt_tokens = rt.tokenize_prompt(prompt)[0]
    tools = ToolRegistry.from_dir(ROOT / "tools")
    step_prompt = Prompt(system=REACT_SYSTEM + tools.describe(), user="Question: " + USER)
    schema = Inspection.model_json_schema()
    jc = json_constraint(Inspection)
    sc = step_constraint(tools, thought_max_chars=240, answer_max_chars=600)
    N = args.tokens

    # --- compile / index costs (first use) --------------------------------------------------
    from edge_agent.llm.decoding import automaton_for

    compile_ms = {}
    for name, c in (("json", jc), ("step", sc)):
        t = time.perf_counter()
        auto = automaton_for(c)
        compile_ms[f"{name}_automaton"] = (time.perf_counter() - t) * 1000
        t = time.perf_counter()
        visited = 0
        for s in range(auto.n_states):
            rt.table.state_info(auto, s)
            visited += 1
        compile_ms[f"{name}_token_index_all_{visited}_states"] = (time.perf_counter() - t) * 1000

    # --- prompt evaluation time (subtracted from every method) ------------------------------
    pe = []
    for _ in range(args.repeats):
        rt.reset_context()
        t = time.perf_counter()
        rt.feed(prompt_tokens)
        pe.append(time.perf_counter() - t)
    prompt_eval_s = median(pe)
    step_tokens = rt.tokenize_prompt(step_prompt)[0]
    pe = []
    for _ in range(args.repeats):
        rt.reset_context()
        t = time.perf_counter()
        rt.feed(step_tokens)
        pe.append(time.perf_counter() - t)
    step_prompt_eval_s = median(pe)

    results: dict[str, dict] = {}

    def record(name, runs, eval_s):
        rates = [n / max(1e-6, s - eval_s) for n, s, _ in runs]
        results[name] = {"tokens": [n for n, _, _ in runs], "seconds": [round(s, 4) for _, s, _ in runs],
                         "tokens_per_s": round(median(rates), 2), "sample": runs[-1][2][:300]}
        print(f"{name:34s} {median(rates):7.1f} tok/s  ({runs[-1][0]} tokens)", flush=True)

    def ours(name, c, p, eval_s):
        runs = []
        for _ in range(args.repeats + 1):
            rt.reset_context()
            t = time.perf_counter()
            out = rt.complete(p, role="bench", constraint=c, max_tokens=N)
            runs.append((out.usage.generated_tokens, time.perf_counter() - t, out.text))
            if c is not None and out.finish_reason == "stop":
                c.check(out.text)  # validity, independently
        record(name, runs[1:], eval_s)
        results[name]["finish_reason"] = out.finish_reason

    def library(name, **kw):
        runs = []
        for _ in range(args.repeats + 1):
            lib.reset()
            t = time.perf_counter()
            out = lib.create_completion(prompt_tokens, max_tokens=N, temperature=0.0, **kw)
            dt = time.perf_counter() - t
            runs.append((out["usage"]["completion_tokens"], dt, out["choices"][0]["text"]))
        record(name, runs[1:], prompt_eval_s)

    print(f"model {entry.name}, {args.threads} threads, prompt {len(prompt_tokens)} tokens "
          f"(eval {prompt_eval_s * 1000:.0f} ms), up to {N} generated tokens, {args.repeats} repeats", flush=True)
    library("unconstrained/llama-cpp-python")
    ours("unconstrained/edge-agent", None, prompt, prompt_eval_s)
    ours("json/edge-agent", jc, prompt, prompt_eval_s)
    ours("step/edge-agent", sc, step_prompt, step_prompt_eval_s)
    if "outlines" not in args.skip:
        try:
            import outlines

            model = outlines.from_llamacpp(lib, chat_mode=False)
            gen = outlines.Generator(model, Inspection)
            runs = []
            for _ in range(args.repeats + 1):
                lib.reset()
                t = time.perf_counter()
                text = gen(text_prompt, max_tokens=N, temperature=0.0)
                dt = time.perf_counter() - t
                runs.append((len(lib.tokenize(text.encode(), add_bos=False, special=False)), dt, text))
            record("json/outlines", runs[1:], prompt_eval_s)
            try:
                Inspection.model_validate_json(runs[-1][2])
                results["json/outlines"]["valid"] = True
            except Exception as exc:
                results["json/outlines"]["valid"] = False
                results["json/outlines"]["invalid_because"] = str(exc)[:200]
        except Exception as exc:
            results["json/outlines"] = {"error": f"{type(exc).__name__}: {exc}"[:300]}
            print(f"json/outlines: did not run: {exc}", flush=True)
    if "llama-grammar" not in args.skip:
        grammar = llama_cpp.LlamaGrammar.from_json_schema(json.dumps(schema), verbose=False)
        library("json/llama-grammar", grammar=grammar)

    base = results["unconstrained/llama-cpp-python"]["tokens_per_s"]
    own = results["unconstrained/edge-agent"]["tokens_per_s"]
    ratios = {}
    for name, res in results.items():
        if "tokens_per_s" in res and not name.startswith("unconstrained"):
            ratios[name] = {"vs_llama_cpp_python": round(res["tokens_per_s"] / base, 3),
                            "vs_edge_agent_unconstrained": round(res["tokens_per_s"] / own, 3)}
    print("\nconstrained / unconstrained (llama-cpp-python | our loop):")
    for name, r in ratios.items():
        print(f"  {name:32s} {r['vs_llama_cpp_python']:.2f}x | {r['vs_edge_agent_unconstrained']:.2f}x")
    print("compile/index costs (ms):", {k: round(v, 1) for k, v in compile_ms.items()})
    report = {
        "model": entry.name, "threads": args.threads, "max_tokens": N, "repeats": args.repeats,
        "prompt_tokens": len(prompt_tokens), "prompt_eval_ms": round(prompt_eval_s * 1000, 1),
        "load_average": os.getloadavg(), "machine": platform.machine(), "cpus": os.cpu_count(),
        "results": results, "ratios": ratios, "compile_ms": compile_ms,
    }
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(report, indent=2))
    print(f"wrote {args.out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
