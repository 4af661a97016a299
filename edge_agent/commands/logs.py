"""`edge-agent logs`: the run log (SQLite) read back: recent runs, or one run's trials, steps and LLM calls.

Exit codes: 0 shown; 1 no run has that id; 2 bad usage (an ambiguous id prefix) or bad configuration.
"""

from __future__ import annotations

import json
import sys
from datetime import datetime

import click

from edge_agent.commands.ask import EXIT_GAVE_UP, _fail_usage, _load, _short
from edge_agent.commands.options import config_option
from edge_agent.runlog.reader import RunLogReader, RunRecord


def _when(ts: float | None) -> str:
    return datetime.fromtimestamp(ts).strftime("%Y-%m-%d %H:%M:%S") if ts else "-"


def _find_run(log: RunLogReader, run: str) -> RunRecord | None:
    rows = log.find(run)
    if len(rows) > 1:
        _fail_usage(f"run id {run!r} is ambiguous: {', '.join(r.run_id for r in rows[:5])}")
    return rows[0] if rows else None


@click.command("logs")
@click.option(
    "--last",
    "last",
    type=click.IntRange(1, 10_000),
    default=10,
    show_default=True,
    help="How many recent runs to list.",
)
@click.option("--run", "run", help="Show one run (id or unique prefix): its trials, steps and LLM calls.")
@click.option("--json", "as_json", is_flag=True, help="Print JSON instead of text.")
@config_option()
def logs(last: int, run: str | None, as_json: bool, config: str | None) -> None:
    """Show recent runs from the run log (SQLite), or one run in detail."""
    settings = _load(config)
    log = RunLogReader(settings.db_path)
    if run is None:
        runs = log.runs(last)
        if as_json:
            click.echo(json.dumps([r.model_dump() for r in runs], ensure_ascii=False))
            return
        if not runs:
            click.echo(f"no runs recorded yet in {settings.db_path}")
            return
        click.echo(
            f"{'run':12}  {'when':19}  {'status':9}  {'strategy':12}  trials  calls  "
            f"{'sent':>7}  {'evald':>7}  {'recv':>6}  {'wall s':>7}  question"
        )
        for r in runs:
            click.echo(
                f"{r.run_id[:12]:12}  {_when(r.created):19}  {r.status or '-':9}  "
                f"{r.strategy or '-':12}  {r.trials or 0:6}  {r.llm_calls or 0:5}  "
                f"{r.tokens_sent or 0:7}  {r.tokens_evaluated or 0:7}  {r.tokens_received or 0:6}  "
                f"{r.wall_s or 0:7.1f}  {_short(r.question, 60)}"
            )
        return

    row = _find_run(log, run)
    detail = log.detail(row.run_id) if row is not None else None
    if detail is None:
        click.echo(f"edge-agent: no run {run!r} in {settings.db_path}", err=True)
        sys.exit(EXIT_GAVE_UP)
    r, trials, steps, calls = detail.run, detail.trials, detail.steps, detail.calls
    if as_json:
        click.echo(
            json.dumps(
                {
                    "run": r.model_dump(),
                    "trials": [t.model_dump() for t in trials],
                    "steps": [s.model_dump() for s in steps],
                    "llm_calls": [c.model_dump(exclude={"prompt_system"}) for c in calls],
                },
                ensure_ascii=False,
            )
        )
        return
    click.echo(
        f"run {r.run_id}  {_when(r.created)}  status={r.status}  strategy={r.strategy}  model={r.model}  now={r.now}"
    )
    click.echo(f"question: {r.question}")
    click.echo(f"answer:   {r.answer or '-'}")
    if r.error:
        click.echo(f"error:    {r.error}")
    for t in trials:
        click.echo(
            f"── trial {t.number}: {t.outcome}  review={t.review_status or '-'}  "
            f"loops_caught={t.loops_caught}  parse_failures={t.parse_failures}"
        )
        if t.reflection:
            click.echo(f"   reflection: {_short(t.reflection)}")
        for s in (s for s in steps if s.trial == t.number):
            click.echo(
                f"  {s.idx:2}. {s.kind:13} {s.action or '-':16} {_short(s.action_input, 60):60}  "
                f"prompt={s.prompt_tokens} evald={s.evaluated_tokens} gen={s.generated_tokens} "
                f"{(s.ms or 0) / 1000:.1f}s"
            )
            if s.thought:
                click.echo(f"      Thought: {_short(s.thought, 200)}")
            if s.observation:
                click.echo(f"      Observation: {_short(s.observation, 200)}")
    click.echo(f"llm calls ({len(calls)}):")
    click.echo(f"  {'#':>3}  {'role':9}  {'constraint':18}  {'prompt':>6}  {'evald':>6}  {'gen':>5}  {'ms':>8}  finish")
    for i, c in enumerate(calls, 1):
        click.echo(
            f"  {i:3}  {c.role:9}  {c.constraint_name or '-':18}  {c.prompt_tokens:6}  "
            f"{c.evaluated_tokens:6}  {c.generated_tokens:5}  {c.ms or 0:8.0f}  {c.finish_reason}"
        )
    click.echo(
        f"  total prompt={sum(c.prompt_tokens or 0 for c in calls)} "
        f"evaluated={sum(c.evaluated_tokens or 0 for c in calls)} "
        f"generated={sum(c.generated_tokens or 0 for c in calls)} wall={r.wall_s or 0:.1f}s"
    )
