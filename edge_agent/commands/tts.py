"""`edge-agent tts`: list, show and check the Tiny Trajectory Store; `generate` runs Algorithm 2.

Exit codes: 0 success; 1 an id is unknown or the generation could not run; 2 bad usage, bad
config, a broken trajectory file or a bad task file (the message names the file).
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import click

from edge_agent.commands.options import config_option, max_steps_option, max_trials_option, tasks_option
from edge_agent.config import STRATEGIES, ConfigError, load_settings

EXIT_OK, EXIT_FAIL, EXIT_USAGE = 0, 1, 2


def _fail(message: str, code: int = EXIT_USAGE) -> None:
    click.echo(f"edge-agent: {message}", err=True)
    sys.exit(code)


def _settings(config: str | None, overrides: dict | None = None):
    try:
        return load_settings(config, overrides=overrides)
    except ConfigError as exc:
        _fail(str(exc))


def _store(settings, *, handcrafted: bool = True):
    from edge_agent.toolkit import ToolLoadError, ToolRegistry
    from edge_agent.trajectory_store import TrajectoryLoadError, TrajectoryStore

    try:
        tools = ToolRegistry.from_dir(settings.plugins_dir)
        return tools, TrajectoryStore.open(settings, tools, handcrafted=handcrafted)
    except (TrajectoryLoadError, ToolLoadError) as exc:
        _fail(str(exc))


@click.group("tts")
def tts() -> None:
    """Manage the Tiny Trajectory Store (hand-crafted examples in tts/, generated ones in the state db)."""


@tts.command("list")
@config_option()
@click.option("--json", "as_json", is_flag=True, help="Print JSON.")
def list_cmd(config: str | None, as_json: bool) -> None:
    """List every trajectory (all are validated against the tools first)."""
    _, store = _store(_settings(config))
    items = store.all()
    if as_json:
        click.echo(
            json.dumps(
                [
                    {
                        "id": t.id,
                        "category": t.category,
                        "core": t.core,
                        "steps": len(t.steps),
                        "question": t.question,
                        "actions": [s.action for s in t.steps],
                        "source": t.source,
                    }
                    for t in items
                ],
                ensure_ascii=False,
            )
        )
        return
    click.echo(f"{'id':32}  {'category':9}  core  steps  actions{'':26}  question")
    for t in items:
        actions = " → ".join(s.action for s in t.steps)
        click.echo(
            f"{t.id:32}  {t.category:9}  {'yes' if t.core else '':4}  {len(t.steps):5}  {actions:33}  {t.question[:70]}"
        )
    counts = {c: sum(1 for t in items if t.category == c) for c in ("tool", "entity", "workflow", "generated")}
    click.echo(f"{len(items)} trajectories: " + ", ".join(f"{n} {c}" for c, n in counts.items()))


@tts.command("show")
@click.argument("traj_id")
@config_option()
def show_cmd(traj_id: str, config: str | None) -> None:
    """Show one trajectory exactly as the model sees it, with where it came from."""
    _, store = _store(_settings(config))
    traj = store.get(traj_id)
    if traj is None:
        _fail(f"no trajectory {traj_id!r}; see `edge-agent tts list`", EXIT_FAIL)
    click.echo(f"# {traj.id} ({traj.category}) from {traj.source}")
    if traj.teaches:
        click.echo(f"# teaches: {traj.teaches}")
    click.echo(traj.render())


@tts.command("check")
@config_option()
def check_cmd(config: str | None) -> None:
    """Validate every trajectory against the tools (exit 2 naming the first broken file)."""
    settings = _settings(config)
    tools, store = _store(settings)
    click.echo(
        f"ok: {len(store)} trajectories valid against {len(tools)} tools "
        f"({sum(len(t.render()) for t in store.all())} characters in all)"
    )


@tts.command("generate")
@tasks_option(
    type=click.Path(exists=True, dir_okay=False, path_type=Path),
    help="A task file (bench/tasks/*.yaml): tasks with id, question and now.",
)
@click.option("--rounds", type=click.IntRange(1, 50), default=5, show_default=True)
@click.option(
    "--max-examples",
    type=click.IntRange(1, 500),
    default=17,
    show_default=True,
    help="Stop once this many generated trajectories are stored.",
)
@click.option(
    "--strategy",
    type=click.Choice(STRATEGIES),
    default="react-review",
    show_default=True,
    help="How tasks are solved (the paper: ReAct + Review).",
)
@max_trials_option(default=2, show_default=True)
@max_steps_option()
@click.option("--with-handcrafted", is_flag=True, help="Also use the hand-crafted examples (the paper starts empty).")
@click.option("--limit", type=click.IntRange(1, 100_000), help="Use only the first N tasks.")
@click.option("--model", help="A model name from the model catalog.")
@click.option("--out", type=click.Path(dir_okay=False), help="Write the per-round report as JSON here.")
@config_option()
def generate_cmd(
    tasks_file: Path,
    rounds: int,
    max_examples: int,
    strategy: str,
    max_trials: int,
    max_steps: int | None,
    with_handcrafted: bool,
    limit: int | None,
    model: str | None,
    out: str | None,
    config: str | None,
) -> None:
    """Algorithm 2: solve tasks, compact each solved trajectory to ≤ 3 steps, store it, reuse it next round."""
    from edge_agent.tts_autogen import GenTaskFileError, generate, load_gen_tasks, solved_trial

    try:
        tasks = load_gen_tasks(tasks_file)
    except GenTaskFileError as exc:
        _fail(str(exc))
    tasks = tasks[:limit] if limit else tasks
    settings = _settings(config, {"model": {"name": model}} if model else None)
    tools, store = _store(settings, handcrafted=with_handcrafted)
    from edge_agent.app import EdgeAgent

    try:
        agent = EdgeAgent(settings, tools=tools)
    except Exception as exc:
        _fail(f"could not start the agent: {type(exc).__name__}: {exc}", EXIT_FAIL)

    def progress(round_no, task, result):
        mark = "solved" if solved_trial(result) is not None else "-"
        click.echo(
            f"round {round_no}  {task.id:16}  {result.status:9}  {mark:7}  "
            f"{result.metrics.wall_s:6.1f}s  run={result.run_id}"
        )

    reports = generate(
        agent,
        tasks,
        store,
        rounds=rounds,
        max_examples=max_examples,
        strategy=strategy,
        max_trials=max_trials,
        max_steps=max_steps,
        on_result=progress,
    )
    click.echo(f"{'round':>5}  {'examples':>8}  {'attempted':>9}  {'newly solved':>12}  added")
    for r in reports:
        click.echo(f"{r.round:5}  {r.examples_before:8}  {r.attempted:9}  {len(r.solved):12}  {', '.join(r.added)}")
    if out:
        with open(out, "w", encoding="utf-8") as fh:
            json.dump([r.model_dump() for r in reports], fh, indent=2)
