"""`edge-agent ask`: answer one question, showing each step live (`edge-agent logs` reads the run log after).

Exit codes: 0 the agent answered; 1 it gave up, was cancelled or hit an error (or a run id is unknown);
2 bad usage or bad configuration (the message names the key); 3 something outside the gateway failed (the
SkySpark unreachable, its login refused, a full disk: status `failed`, the message names the server or path,
and `reason` says what — `edge_agent.failures`); 4 a partial answer (status `partial`: what the run established,
and what it could not); 5 a refusal (status `refused`: the gateway only reads). With `--json`, stdout carries exactly
one JSON object (schema in docs/cli.md); everything else, even output of native libraries, goes to
stderr.
"""

from __future__ import annotations

import contextlib
import json
import os
import sys
from collections.abc import Iterator
from typing import Any

import click

from edge_agent.agent.trajectory import AgentEvent, RunResult
from edge_agent.clock import parse_instant
from edge_agent.commands.options import config_option, max_steps_option, max_trials_option
from edge_agent.config import STRATEGIES, ConfigError, Settings, Strategy, load_settings

EXIT_OK, EXIT_GAVE_UP, EXIT_USAGE, EXIT_FAILED, EXIT_PARTIAL, EXIT_REFUSED = 0, 1, 2, 3, 4, 5
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
        reason = (result.error or (result.trials[-1].outcome if result.trials else "no trial ran")).removeprefix(
            "no answer: "
        )
        status = f"{result.status}: {result.reason}" if result.reason else result.status
        click.echo(f"No answer ({status}): {reason}")
    for f in result.files:
        click.echo(f"File: {f.name} ({f.size} bytes, sha256 {f.sha256[:12]}…)")
    m = result.metrics
    click.echo(
        f"status={result.status} trials={m.trials} steps={m.trajectory_length} llm_calls={m.llm_calls} "
        f"tokens sent={m.tokens_sent} evaluated={m.tokens_evaluated} received={m.tokens_received} "
        f"wall={m.wall_s:.1f}s run={result.run_id}"
    )
    click.echo(
        f"time here: eval={m.eval_ms / 1000:.1f}s gen={m.gen_ms / 1000:.1f}s state={m.state_ms / 1000:.1f}s "
        f"tools={m.tool_ms / 1000:.1f}s python={m.python_ms / 1000:.1f}s"
        + (
            "; projected with an 8B Q4_K_M: " + ", ".join(f"{name} {s:.0f}s" for name, s in m.projected_s.items())
            if m.projected_s
            else ""
        )
    )


def result_json(result: RunResult) -> dict:
    """The `--json` object: the RunResult plus a flat `steps` list (each step with its trial number)."""
    data = result.model_dump(mode="json")
    data["steps"] = [{"trial": t["number"], **s} for t in data["trials"] for s in t["steps"]]
    return data


def exit_code(result: RunResult) -> int:
    if result.status == "failed":
        return EXIT_FAILED
    if result.status in ("partial", "refused") and result.answer:
        return EXIT_PARTIAL if result.status == "partial" else EXIT_REFUSED
    return EXIT_OK if result.status == "answered" and result.answer else EXIT_GAVE_UP


# --- ask ----------------------------------------------------------------------------------------


@click.command("ask")
@click.argument("question")
@click.option("--now", callback=_check_now, help="Fix 'now' (ISO 8601) for a reproducible run.")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object (schema: docs/cli.md) and nothing else.")
@config_option()
@click.option("--model", help="A model name from the model catalog (default: model.name).")
@max_steps_option()
@click.option("--strategy", type=click.Choice(STRATEGIES), help="Agent strategy.")
@max_trials_option(help="Trials (reflection rounds) per question.")
@click.option("--no-distill", is_flag=True, help="Skip the Distill agent.")
def ask(
    question: str,
    now: str | None,
    as_json: bool,
    config: str | None,
    model: str | None,
    max_steps: int | None,
    strategy: Strategy | None,
    max_trials: int | None,
    no_distill: bool,
) -> None:
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
        result = agent.ask(
            question,
            now=now,
            strategy=strategy,
            max_steps=max_steps,
            max_trials=max_trials,
            distill=False if no_distill else None,
            on_event=printer,
        )
    if as_json:
        click.echo(json.dumps(result_json(result), ensure_ascii=False))
    else:
        _print_result(result)
    sys.exit(exit_code(result))
