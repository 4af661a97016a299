"""`edge-agent ask` (answer one question, showing each step live) and `edge-agent logs` (the run log).

Exit codes: 0 the agent answered; 1 it gave up, was cancelled or hit an error (or a run id is unknown);
2 bad usage or bad configuration (the message names the key); 3 something outside the gateway failed (the
SkySpark unreachable, its login refused, a full disk: status `failed`, the message names the server or path,
and `reason` says what — `edge_agent.failures`). With `--json`, stdout carries exactly
one JSON object (schema in docs/cli.md); everything else, even output of native libraries, goes to
stderr.
"""

from __future__ import annotations

import contextlib
import json
import os
import sys
from collections.abc import Iterator
from datetime import datetime
from typing import Any

import click

from edge_agent.agent.trajectory import AgentEvent, RunResult
from edge_agent.clock import parse_instant
from edge_agent.config import STRATEGIES, ConfigError, Settings, Strategy, load_settings

EXIT_OK, EXIT_GAVE_UP, EXIT_USAGE, EXIT_FAILED = 0, 1, 2, 3
WIDTH = 100


def _fail_usage(message: str) -> None:
    click.echo(f"edge-agent: {message}", err=True)
    sys.exit(EXIT_USAGE)


def _load(config: str | None, overrides: dict | None = None) -> Settings:
    try:
        return load_settings(config, overrides=overrides)
    except ConfigError as exc:
        _fail_usage(str(exc))
        raise  # unreachable


def _check_now(ctx, param, value: str | None) -> str | None:
    if value is None:
        return None
    try:
        parse_instant(value)
    except ValueError:
        raise click.BadParameter(f"{value!r} is not an ISO 8601 date or date-time (e.g. 2024-06-14T10:00:00)") from None
    return value


@contextlib.contextmanager
def _stdout_to_stderr() -> Iterator[None]:
    """Send everything written to stdout (Python or native code) to stderr for the duration."""
    sys.stdout.flush()
    try:
        saved = os.dup(1)
    except OSError:
        saved = None
    try:
        if saved is not None:
            os.dup2(2, 1)
        with contextlib.redirect_stdout(sys.stderr):
            yield
    finally:
        sys.stderr.flush()
        if saved is not None:
            os.dup2(saved, 1)
            os.close(saved)


# --- live view ---------------------------------------------------------------------------------

def _short(value: Any, limit: int = 300) -> str:
    text = value if isinstance(value, str) else json.dumps(value, ensure_ascii=False)
    text = " ".join(str(text).split())
    return text if len(text) <= limit else text[: limit - 3] + "..."


class Printer:
    """Prints agent events as they happen (the human-readable view of `ask`)."""

    def __init__(self, echo=click.echo):
        self.echo = echo

    def __call__(self, event: AgentEvent) -> None:
        kind = event.kind
        if kind == "distill":
            self.echo(f"Distilled: {_short(event.text or event.data)}")
        elif kind == "trial_start":
            self.echo(f"── trial {event.trial} " + "─" * 40)
            if event.data.get("feedback"):
                self.echo(f"   feedback: {_short(event.data['feedback'])}")
        elif kind == "step" and event.step is not None:
            s = event.step
            mark = "" if s.ok else "  [!]"
            tokens = s.usage.prompt_tokens + s.usage.generated_tokens
            cost = "written by code, no model call" if s.by == "code" else f"{s.ms / 1000:.1f} s, {tokens} tokens"
            self.echo(f"[trial {event.trial} step {s.index}] {s.kind}{mark}  ({cost})")
            if s.thought:
                self.echo(f"   Thought: {_short(s.shown_thought)}")
            if s.action:
                self.echo(f"   Action: {s.action}")
                self.echo(f"   Action Input: {_short(s.action_input)}")
            if s.observation:
                self.echo(f"   Observation: {_short(s.observation, 500)}")
        elif kind == "review":
            detail = event.text or (event.data.get("status", "") + " " + event.data.get("reasoning", "")).strip()
            self.echo(f"   Review: {_short(detail or event.data)}")
        elif kind == "reflect":
            self.echo(f"   Reflection: {_short(event.text or event.data)}")
        # "final" is printed by `ask` itself with the files and figures


def _print_result(result: RunResult) -> None:
    click.echo("═" * 60)
    if result.answer:
        click.echo(f"Answer: {result.answer}")
    else:
        reason = result.error or (result.trials[-1].outcome if result.trials else "no trial ran")
        status = f"{result.status}: {result.reason}" if result.reason else result.status
        click.echo(f"No answer ({status}): {reason}")
    for f in result.files:
        click.echo(f"File: {f.name} ({f.size} bytes, sha256 {f.sha256[:12]}…)")
    m = result.metrics
    click.echo(f"status={result.status} trials={m.trials} steps={m.trajectory_length} llm_calls={m.llm_calls} "
               f"tokens sent={m.tokens_sent} evaluated={m.tokens_evaluated} received={m.tokens_received} "
               f"wall={m.wall_s:.1f}s run={result.run_id}")
    click.echo(f"time here: eval={m.eval_ms / 1000:.1f}s gen={m.gen_ms / 1000:.1f}s state={m.state_ms / 1000:.1f}s "
               f"tools={m.tool_ms / 1000:.1f}s python={m.python_ms / 1000:.1f}s"
               + ("; projected with an 8B Q4_K_M: " + ", ".join(f"{name} {s:.0f}s" for name, s in m.projected_s.items())
                  if m.projected_s else ""))


def result_json(result: RunResult) -> dict:
    """The `--json` object: the RunResult plus a flat `steps` list (each step with its trial number)."""
    data = result.model_dump(mode="json")
    data["steps"] = [{"trial": t["number"], **s} for t in data["trials"] for s in t["steps"]]
    return data


def exit_code(result: RunResult) -> int:
    if result.status == "failed":
        return EXIT_FAILED
    return EXIT_OK if result.status == "answered" and result.answer else EXIT_GAVE_UP


# --- ask ----------------------------------------------------------------------------------------

@click.command("ask")
@click.argument("question")
@click.option("--now", callback=_check_now, help="Fix 'now' (ISO 8601) for a reproducible run.")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object (schema: docs/cli.md) and nothing else.")
@click.option("--config", type=click.Path(dir_okay=False), help="A YAML file overriding config/edge-agent.yaml.")
@click.option("--model", help="A model name from the model catalog (default: model.name).")
@click.option("--max-steps", type=click.IntRange(1, 100), help="ReAct steps per trial.")
@click.option("--strategy", type=click.Choice(STRATEGIES), help="Agent strategy.")
@click.option("--max-trials", type=click.IntRange(1, 20), help="Trials (reflection rounds) per question.")
@click.option("--no-distill", is_flag=True, help="Skip the Distill agent.")
def ask(question: str, now: str | None, as_json: bool, config: str | None, model: str | None,
        max_steps: int | None, strategy: Strategy | None, max_trials: int | None, no_distill: bool) -> None:
    """Answer QUESTION with the local model, printing each step as it happens."""
    if not question.strip():
        _fail_usage("the question is empty")
    settings = _load(config, {"model": {"name": model}} if model else None)
    from edge_agent.app import EdgeAgent
    from edge_agent.llm.models import ModelError, catalog_path, load_catalog

    try:  # an unknown model name is bad usage, found before anything is loaded
        load_catalog(catalog_path(settings)).get(settings.model.name)
    except ModelError as exc:
        _fail_usage(str(exc))

    printer = (lambda event: None) if as_json else Printer()
    redirect = _stdout_to_stderr() if as_json else contextlib.nullcontext()
    with redirect:
        try:
            agent = EdgeAgent(settings)
        except ConfigError as exc:
            _fail_usage(str(exc))
        except Exception as exc:
            click.echo(f"edge-agent: could not start the agent: {type(exc).__name__}: {exc}", err=True)
            sys.exit(EXIT_GAVE_UP)
        result = agent.ask(question, now=now, strategy=strategy, max_steps=max_steps, max_trials=max_trials,
                           distill=False if no_distill else None, on_event=printer)
    if as_json:
        click.echo(json.dumps(result_json(result), ensure_ascii=False))
    else:
        _print_result(result)
    sys.exit(exit_code(result))


# --- logs ---------------------------------------------------------------------------------------

def _when(ts: float | None) -> str:
    return datetime.fromtimestamp(ts).strftime("%Y-%m-%d %H:%M:%S") if ts else "-"


def _find_run(log, run: str) -> dict | None:
    rows = list(log.db.query("select * from runs where run_id = ?", [run]))
    if not rows:
        rows = list(log.db.query("select * from runs where run_id like ? order by created desc", [run + "%"]))
        if len(rows) > 1:
            _fail_usage(f"run id {run!r} is ambiguous: {', '.join(r['run_id'] for r in rows[:5])}")
    return rows[0] if rows else None


@click.command("logs")
@click.option("--last", "last", type=click.IntRange(1, 10_000), default=10, show_default=True,
              help="How many recent runs to list.")
@click.option("--run", "run", help="Show one run (id or unique prefix): its trials, steps and LLM calls.")
@click.option("--json", "as_json", is_flag=True, help="Print JSON instead of text.")
@click.option("--config", type=click.Path(dir_okay=False), help="A YAML file overriding config/edge-agent.yaml.")
def logs(last: int, run: str | None, as_json: bool, config: str | None) -> None:
    """Show recent runs from the run log (SQLite), or one run in detail."""
    settings = _load(config)
    from edge_agent.runlog import RunLog

    log = RunLog(settings.db_path)
    if run is None:
        runs = log.last_runs(last)
        if as_json:
            click.echo(json.dumps(runs, ensure_ascii=False))
            return
        if not runs:
            click.echo(f"no runs recorded yet in {settings.db_path}")
            return
        click.echo(f"{'run':12}  {'when':19}  {'status':9}  {'strategy':12}  trials  calls  "
                   f"{'sent':>7}  {'evald':>7}  {'recv':>6}  {'wall s':>7}  question")
        for r in runs:
            click.echo(f"{r['run_id'][:12]:12}  {_when(r['created']):19}  {r['status'] or '-':9}  "
                       f"{r['strategy'] or '-':12}  {r['trials'] or 0:6}  {r['llm_calls'] or 0:5}  "
                       f"{r['tokens_sent'] or 0:7}  {r['tokens_evaluated'] or 0:7}  {r['tokens_received'] or 0:6}  "
                       f"{r['wall_s'] or 0:7.1f}  {_short(r['question'], 60)}")
        return

    row = _find_run(log, run)
    if row is None:
        click.echo(f"edge-agent: no run {run!r} in {settings.db_path}", err=True)
        sys.exit(EXIT_GAVE_UP)
    run_id = row["run_id"]
    trials = list(log.db.query("select * from trials where run_id = ? order by number", [run_id]))
    steps, calls = log.steps(run_id), log.calls(run_id)
    if as_json:
        click.echo(json.dumps({"run": row, "trials": trials, "steps": steps, "llm_calls": calls}, ensure_ascii=False))
        return
    click.echo(f"run {run_id}  {_when(row['created'])}  status={row['status']}  strategy={row['strategy']}  "
               f"model={row['model']}  now={row['now']}")
    click.echo(f"question: {row['question']}")
    click.echo(f"answer:   {row['answer'] or '-'}")
    if row.get("error"):
        click.echo(f"error:    {row['error']}")
    for t in trials:
        click.echo(f"── trial {t['number']}: {t['outcome']}  review={t['review_status'] or '-'}  "
                   f"loops_caught={t['loops_caught']}  parse_failures={t['parse_failures']}")
        if t.get("reflection"):
            click.echo(f"   reflection: {_short(t['reflection'])}")
        for s in (s for s in steps if s["trial"] == t["number"]):
            click.echo(f"  {s['idx']:2}. {s['kind']:13} {s['action'] or '-':16} {_short(s['action_input'], 60):60}  "
                       f"prompt={s['prompt_tokens']} evald={s['evaluated_tokens']} gen={s['generated_tokens']} "
                       f"{s['ms'] / 1000:.1f}s")
            if s["thought"]:
                click.echo(f"      Thought: {_short(s['thought'], 200)}")
            if s["observation"]:
                click.echo(f"      Observation: {_short(s['observation'], 200)}")
    click.echo(f"llm calls ({len(calls)}):")
    click.echo(f"  {'#':>3}  {'role':9}  {'constraint':18}  {'prompt':>6}  {'evald':>6}  {'gen':>5}  {'ms':>8}  finish")
    for i, c in enumerate(calls, 1):
        click.echo(f"  {i:3}  {c['role']:9}  {c['constraint_name'] or '-':18}  {c['prompt_tokens']:6}  "
                   f"{c['evaluated_tokens']:6}  {c['generated_tokens']:5}  {c['ms'] or 0:8.0f}  {c['finish_reason']}")
    total = {k: sum(c[k] or 0 for c in calls) for k in ("prompt_tokens", "evaluated_tokens", "generated_tokens")}
    click.echo(f"  total prompt={total['prompt_tokens']} evaluated={total['evaluated_tokens']} "
               f"generated={total['generated_tokens']} wall={row['wall_s'] or 0:.1f}s")

