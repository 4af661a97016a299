"""Constrained vs unconstrained decoding speed on SmolLM2, side by side in one run.

Same model file, same thread count, same prompt, greedy. For each method: the prompt is evaluated
afresh, then up to N tokens are generated; tokens/s counts generated tokens over the generation time
(the prompt is evaluated before the clock starts; a warm-up run is not timed). Methods:

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

from edge_agent.agent.steps import step_constraint  # noqa: E402
from edge_agent.config import load_settings  # noqa: E402
from edge_agent.llm.base import Prompt  # noqa: E402
from edge_agent.llm.constraints import json_constraint  # noqa: E402
from edge_agent.llm.llama import LlamaRuntime  # noqa: E402
from edge_agent.llm.models import catalog_path, load_catalog, verify  # noqa: E402
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


SYSTEM = (
    "You are the maintenance assistant of a chiller plant. Reply with a JSON object with the keys status, "
    "reasoning, findings (a list of short strings) and next_step. Explain in detail."
)
USER = (
    "Chiller 6 at POKMAIN tripped three times this week on low refrigerant pressure; the condenser water "
    "temperature was normal and the compressor current spiked before each trip. Assess the situation."
)
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
    rt = LlamaRuntime(
        path,
        model_name=entry.name,
        sha256=entry.sha256 or "",
        n_ctx=n_ctx,
        threads=args.threads,
        persist_prefix_cache=False,
    )
    lib = llama_cpp.Llama(
        str(path), n_ctx=n_ctx, n_threads=args.threads, n_threads_batch=args.threads, verbose=False, seed=0
    )
    prompt = Prompt(system=SYSTEM, user=USER)
    text_prompt = rt.chat.render(prompt)
    prompt_tokens = rt.tokenize_prompt(prompt)[0]
    tools = ToolRegistry.from_dir(ROOT / "plugins")
    step_prompt = Prompt(system=REACT_SYSTEM + tools.describe(), user="Question: " + USER)
    schema = Inspection.model_json_schema()
    jc = json_constraint(Inspection)
    sc = step_constraint(tools, thought_max_chars=240, answer_max_chars=600)
    N = args.tokens

    from edge_agent.llm.automaton import automaton_for
    from edge_agent.llm.decoding import generate_constrained, generate_free

    compile_ms = {}
    for name, c in (("json", jc), ("step", sc)):
        t = time.perf_counter()
        automaton_for(c)
        compile_ms[f"{name}_automaton"] = round((time.perf_counter() - t) * 1000, 1)

    lib_tokens = lib.tokenize(text_prompt.encode("utf-8"), add_bos=False, special=True)
    step_tokens = rt.tokenize_prompt(step_prompt)[0]
    results: dict[str, dict] = {}

    class Timed:
        """Wraps the runtime so decode time (inside llama.cpp) and decode calls are counted."""

        def __init__(self):
            self.decode_s = 0.0
            self.calls = 0

        def feed(self, tokens):
            t = time.perf_counter()
            rt.feed(tokens)
            self.decode_s += time.perf_counter() - t
            self.calls += 1

        def logits(self):
            return rt.logits()

    def ours(c, ptoks):
        def run():
            rt.reset_context()
            rt.feed(ptoks)  # the prompt is evaluated before the clock starts
            target = Timed()
            t = time.perf_counter()
            if c is None:
                out = generate_free(target, rt.table, max_tokens=N)
            else:
                out = generate_constrained(target, rt.table, automaton_for(c), max_tokens=N)
            dt = time.perf_counter() - t
            valid = None
            if c is not None:
                valid = out.finish_reason == "stop"
                if valid:
                    c.check(out.text)  # validity, independently (raises if invalid)
            return (
                len(out.tokens),
                dt,
                out.text,
                {"decode_calls": target.calls, "valid": valid, "overhead_s": dt - target.decode_s},
            )

        return run

    def library(**kw):
        def run():
            lib.reset()
            lib.eval(lib_tokens)  # prompt evaluated before the clock; create_completion sees a full cache hit
            t = time.perf_counter()
            out = lib.create_completion(lib_tokens, max_tokens=N, temperature=0.0, **kw)
            dt = time.perf_counter() - t
            return out["usage"]["completion_tokens"], dt, out["choices"][0]["text"], {}

        return run

    methods = {
        "unconstrained/llama-cpp-python": library(),
        "unconstrained/edge-agent": ours(None, prompt_tokens),
        "json/edge-agent": ours(jc, prompt_tokens),
        "step/edge-agent": ours(sc, step_tokens),
    }
    if "outlines" not in args.skip:
        try:
            import outlines

            model = outlines.from_llamacpp(lib, chat_mode=False)
            t = time.perf_counter()
            gen = outlines.Generator(model, Inspection)
            compile_ms["outlines_generator"] = round((time.perf_counter() - t) * 1000, 1)

            def outlines_run():
                lib.reset()
                lib.eval(lib_tokens)
                t = time.perf_counter()
                text = gen(text_prompt, max_tokens=N, temperature=0.0)
                dt = time.perf_counter() - t
                try:
                    Inspection.model_validate_json(text)
                    valid = True
                except Exception:
                    valid = False
                return len(lib.tokenize(text.encode(), add_bos=False, special=False)), dt, text, {"valid": valid}

            methods["json/outlines"] = outlines_run
        except Exception as exc:
            results["json/outlines"] = {"error": f"{type(exc).__name__}: {exc}"[:300]}
            print(f"json/outlines: did not run: {exc}", flush=True)
    if "llama-grammar" not in args.skip:
        t = time.perf_counter()
        grammar = llama_cpp.LlamaGrammar.from_json_schema(json.dumps(schema), verbose=False)
        compile_ms["llama_grammar"] = round((time.perf_counter() - t) * 1000, 1)
        methods["json/llama-grammar"] = library(grammar=grammar)

    print(
        f"model {entry.name}, {args.threads} threads, prompt {len(prompt_tokens)} tokens, up to {N} generated "
        f"tokens, {args.repeats} timed rounds (+1 warm-up), methods interleaved round by round, greedy",
        flush=True,
    )
    runs: dict[str, list] = {name: [] for name in methods}
    for rnd in range(args.repeats + 1):
        for name, fn in methods.items():
            try:
                n, dt, text, extra = fn()
            except Exception as exc:
                results[name] = {"error": f"{type(exc).__name__}: {exc}"[:300]}
                print(f"{name}: failed: {exc}", flush=True)
                continue
            if rnd == 0:
                results.setdefault(name, {})["first_run_seconds"] = round(dt, 3)  # incl. lazy index building
                continue
            runs[name].append((n, dt, text, extra))
            print(f"  round {rnd} {name:32s} {n / dt:7.1f} tok/s ({n} tokens)", flush=True)
    for name, rs in runs.items():
        if not rs:
            continue
        rates = [n / max(1e-6, dt) for n, dt, _, _ in rs]
        res = results.setdefault(name, {})
        res.update(
            {
                "tokens": [n for n, *_ in rs],
                "seconds": [round(dt, 4) for _, dt, _, _ in rs],
                "tokens_per_s": round(median(rates), 2),
                "sample": rs[-1][2][:300],
            }
        )
        extra = rs[-1][3]
        if "decode_calls" in extra:
            res["decode_calls_per_token"] = round(median([e["decode_calls"] / max(1, n) for n, _, _, e in rs]), 3)
            res["python_overhead_ms_per_token"] = round(
                median([e["overhead_s"] * 1000 / max(1, n) for n, _, _, e in rs]), 3
            )
        if extra.get("valid") is not None:
            res["valid"] = all(e["valid"] for *_, e in rs)
    print()
    for name, res in results.items():
        if "tokens_per_s" in res:
            more = ""
            if "decode_calls_per_token" in res:
                more = (
                    f"  decode calls/token {res['decode_calls_per_token']:.2f}, "
                    f"python overhead {res['python_overhead_ms_per_token']:.2f} ms/token"
                )
            print(f"{name:34s} {res['tokens_per_s']:7.1f} tok/s{more}")

    base = results["unconstrained/llama-cpp-python"]["tokens_per_s"]
    own = results["unconstrained/edge-agent"]["tokens_per_s"]
    ratios = {}
    for name, res in results.items():
        if "tokens_per_s" in res and not name.startswith("unconstrained"):
            ratios[name] = {
                "vs_llama_cpp_python": round(res["tokens_per_s"] / base, 3),
                "vs_edge_agent_unconstrained": round(res["tokens_per_s"] / own, 3),
            }
    print("\nconstrained / unconstrained (llama-cpp-python | our loop):")
    for name, r in ratios.items():
        print(f"  {name:32s} {r['vs_llama_cpp_python']:.2f}x | {r['vs_edge_agent_unconstrained']:.2f}x")
    print("compile costs (ms):", compile_ms)
    report = {
        "model": entry.name,
        "threads": args.threads,
        "max_tokens": N,
        "repeats": args.repeats,
        "prompt_tokens": len(prompt_tokens),
        "load_average": os.getloadavg(),
        "machine": platform.machine(),
        "cpus": os.cpu_count(),
        "results": results,
        "ratios": ratios,
        "compile_ms": compile_ms,
    }
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(report, indent=2))
    print(f"wrote {args.out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
