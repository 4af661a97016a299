"""`edge-agent bench`: run an IoT task set on one or more models and strategies, check every answer exactly.

Without `--skyspark` the embedded simulator (the synthetic plant, or the task file's `dataset:`) is started on a
free loopback port for the duration; with it, the given SkySpark is used with the configured project, user and
password. The checker reads the same SkySpark through the same client. Output in `--out`:
`results.json`, `results.jsonl`, `report.md`, `completion.png`, `rounds.png`, `trajectory.png`,
`runs/<run_id>.json`, and `state/` (the run log and result files of every run).
Exit codes: 0 done, 1 the SkySpark or a model could not be used, 2 bad usage or a bad task file,
130 interrupted (finished results and the report are kept).
"""

from __future__ import annotations

import contextlib
import secrets
import sys
import time
from collections.abc import Iterator
from datetime import datetime
from pathlib import Path

import click
from pydantic import SecretStr

from edge_agent.commands.options import config_option, max_steps_option, max_trials_option, tasks_option
from edge_agent.config import STRATEGIES, ConfigError, Settings, load_settings


def _usage(message: str) -> None:
    click.echo(f"edge-agent bench: {message}", err=True)
    sys.exit(2)


@contextlib.contextmanager
def embedded_simulator(settings: Settings, dataset: str = "") -> Iterator[Settings]:
    """Start the simulator on a free 127.0.0.1 port with a one-off password, serving `dataset` (a built-in
    plant's name or a records file; default: the synthetic plant); yields settings pointing at it."""
    from edge_agent.skyspark.plants import open_dataset
    from edge_agent.skyspark.simulator import serve

    password = secrets.token_hex(12)
    server = serve(
        "127.0.0.1",
        0,
        project=settings.skyspark.project,
        users={settings.skyspark.username: password},
        dataset=open_dataset(dataset or None),
    )
    try:
        sky = settings.skyspark.model_copy(
            update={"url": server.url, "password": SecretStr(password), "password_file": None}
        )
        yield settings.model_copy(update={"skyspark": sky})
    finally:
        server.shutdown()
        server.server_close()


def default_out(tasks: Path) -> Path:
    return Path("bench") / "results" / f"{tasks.stem}-{datetime.now().strftime('%Y%m%d-%H%M%S')}"


@click.command("bench")
@tasks_option()
@click.option(
    "--strategy",
    "strategies",
    multiple=True,
    type=click.Choice(STRATEGIES),
    help="strategy to run (repeatable; default: the configured one). `react` is the plain baseline",
)
@click.option("--model", "models", multiple=True, help="catalog model name (repeatable; default: the configured one)")
@click.option("--limit", type=click.IntRange(min=1), help="run only the first N tasks")
@click.option("--task", "only", multiple=True, help="run only this task id (repeatable)")
@click.option(
    "--skyspark", "skyspark_url", default=None, help="SkySpark base URL (default: start the embedded simulator)"
)
@click.option(
    "--out",
    type=click.Path(file_okay=False, path_type=Path),
    default=None,
    help="output folder (default: bench/results/<tasks>-<time>)",
)
@max_steps_option()
@max_trials_option(help="Trials (reflection rounds) per task.")
@click.option("--resume", is_flag=True, help="keep the runs already in OUT/results.jsonl and run only the rest")
@click.option("--check-tasks", is_flag=True, help="only check that the tasks fit the SkySpark, run nothing")
@click.option("--quiet", is_flag=True, help="no progress bar")
@click.option(
    "--gateway",
    default=None,
    help="reference gateway profile for projected seconds (bench/gateways.yaml; default: its `default`)",
)
@click.option(
    "--no-strict-names",
    "strict_names",
    is_flag=True,
    flag_value=False,
    default=True,
    help="do not fail answers that name a site or asset the SkySpark lacks (the checker before issue 11)",
)
@click.option(
    "--prefix-states",
    "prefix_states",
    default=None,
    type=click.Path(exists=True, file_okay=False, path_type=Path),
    help="start with the saved prompt-prefix KV states of an earlier run (its OUT or OUT/state/kv), as a "
    "restarted gateway finds them; default: none, every prefix is evaluated in this run",
)
@config_option()
def bench(
    tasks_file,
    strategies,
    models,
    limit,
    only,
    skyspark_url,
    out,
    max_steps,
    max_trials,
    resume,
    check_tasks,
    quiet,
    gateway,
    strict_names,
    prefix_states,
    config,
) -> None:
    """Run an IoT task set and check every answer exactly (report with plots in --out)."""
    from edge_agent.costmodel import ProfileError, load_profiles
    from edge_agent.evaluation.runner import BenchOptions
    from edge_agent.evaluation.tasks import TaskFileError, load_tasks

    try:
        task_file = load_tasks(tasks_file)
        profiles = load_profiles()
        chosen = profiles.get(gateway)
    except (TaskFileError, ProfileError) as exc:
        _usage(str(exc))
    out = (out or default_out(tasks_file)).resolve()
    try:
        overrides: dict = {"paths": {"state_dir": str(out / "state")}}
        if skyspark_url:
            overrides["skyspark"] = {"url": skyspark_url}
        settings = load_settings(config, overrides=overrides)
    except ConfigError as exc:
        _usage(str(exc))
    copied = copy_prefix_states(prefix_states, settings.kv_cache_dir) if prefix_states else []
    states_label = f"{len(copied)} saved states copied from {prefix_states}" if prefix_states else ""
    stack = contextlib.ExitStack()
    with stack:
        if not skyspark_url:
            try:
                settings = stack.enter_context(embedded_simulator(settings, task_file.dataset))
            except KeyError as exc:
                _usage(f"{tasks_file}: dataset: {exc.args[0]}")
        options = BenchOptions(
            tasks_file=str(tasks_file),
            strategies=list(strategies) or [settings.agent.strategy],
            models=list(models),
            limit=limit,
            only=list(only),
            out=out,
            max_steps=max_steps,
            max_trials=max_trials,
            resume=resume,
            skyspark=skyspark_url
            or f"embedded simulator ({settings.skyspark.url}"
            f"{', dataset ' + task_file.dataset if task_file.dataset else ''})",
            progress=not quiet,
            gateway=chosen.name,
            gateways=profiles.profiles,
            strict_names=strict_names,
            prefix_states=states_label,
        )
        sys.exit(_run(task_file, settings, options, check_tasks))


def _run(task_file, settings, options, check_tasks: bool) -> int:
    from edge_agent.evaluation.checker import validate_task
    from edge_agent.evaluation.report import cost_table, grounding_table, headline, summary_table, write_report
    from edge_agent.evaluation.results import summarise
    from edge_agent.evaluation.runner import run_bench, select_tasks
    from edge_agent.evaluation.truth import skyspark_truth
    from edge_agent.skyspark.errors import SkySparkError

    truth = skyspark_truth(settings)
    try:
        truth.sites()
    except SkySparkError as exc:
        click.echo(f"edge-agent bench: {exc}", err=True)
        return 1
    try:
        tasks = select_tasks(task_file, options)
    except ValueError as exc:
        _usage(str(exc))
    if check_tasks:
        problems = [p for t in tasks for p in validate_task(t, truth)]
        for p in problems:
            click.echo(p)
        click.echo(f"{len(tasks) - len({p.split(':')[0] for p in problems})}/{len(tasks)} tasks fit {options.skyspark}")
        return 1 if problems else 0

    def make_llm(name: str):
        from edge_agent.app import load_llm

        return load_llm(settings, name)

    started = time.monotonic()
    try:
        results = run_bench(options, task_file, settings, truth, make_llm)
    except Exception as exc:  # a model that cannot be loaded, a broken tool folder …
        click.echo(f"edge-agent bench: {type(exc).__name__}: {exc}", err=True)
        return 1
    report = write_report(results, options.out)
    rows = summarise(results.runs, results.max_trials, results.gateways)
    click.echo(headline(rows) + "\n")
    click.echo(summary_table(rows))
    click.echo("\nWhat was made up (every column but reviews and thoughts should be 0):")
    click.echo(grounding_table(rows))
    click.echo(
        f"\nProjected seconds per answer (8B Q4_K_M; chosen gateway: {options.gateway}) and this machine's split:"
    )
    click.echo(cost_table(rows, results.gateways, options.gateway))
    click.echo(f"\n{len(results.runs)} runs in {time.monotonic() - started:.0f} s; report: {report}")
    if results.invalid_tasks:
        click.echo(f"warning: {len(results.invalid_tasks)} task(s) do not fit this SkySpark (see the report)", err=True)
    if results.interrupted:
        click.echo("interrupted: the finished runs are kept (rerun with --resume to continue)", err=True)
        return 130
    return 0


def copy_prefix_states(source: Path, kv_dir: Path) -> list[Path]:
    """Copy the `*.kv` prefix states of an earlier run (`source`: its OUT, its state dir or its kv dir)
    into this run's `kv_dir`. Exits with usage error 2 when there are none."""
    import shutil

    for folder in (source / "state" / "kv", source / "kv", source):
        files = sorted(folder.glob("*.kv"))
        if files:
            break
    else:
        _usage(f"--prefix-states: no saved prefix states (*.kv) under {source}")
    kv_dir.mkdir(parents=True, exist_ok=True)
    return [Path(shutil.copy2(f, kv_dir / f.name)) for f in files]
