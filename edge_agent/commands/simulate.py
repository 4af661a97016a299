"""`edge-agent simulate`: run the embedded SkySpark simulator (Haystack HTTP + SCRAM) in the foreground.

By default it serves the synthetic plant; `--dataset F` serves an operator's own records (a
Haystack JSON or Zinc grid) with histories from a CSV file (`id,ts,val`; default: F with `.csv`);
`--dataset NAME`, a name that is not a file, serves a built-in plant (`rhine`: edge_agent/skyspark/plants.py).
The password comes from `--password`, `EDGE_AGENT_SKYSPARK__PASSWORD` or the config's
`skyspark.password` / `password_file`, so `edge-agent ask` on the same machine logs in unchanged.
"""

from __future__ import annotations

import sys
from pathlib import Path

import click

from edge_agent.commands.options import config_option
from edge_agent.config import ConfigError, load_settings, resolve_secret


@click.command("simulate")
@click.option(
    "--dataset",
    default=None,
    help="records as a Haystack JSON or Zinc grid, or the name of a built-in plant (rhine); "
    "default: the synthetic plant",
)
@click.option(
    "--histories",
    type=click.Path(exists=True, dir_okay=False, path_type=Path),
    help="CSV with columns id,ts,val for --dataset (default: the dataset file with .csv)",
)
@click.option("--host", default="127.0.0.1", show_default=True, help="address to bind (keep it local)")
@click.option("--port", default=8911, show_default=True, type=click.IntRange(0, 65535))
@click.option("--project", default=None, help="project name in /api/{project}/ (default: skyspark.project)")
@click.option("--user", "username", default=None, help="login name (default: skyspark.username)")
@click.option("--password", default=None, help="login password (default: EDGE_AGENT_SKYSPARK__PASSWORD / config)")
@click.option(
    "--delay",
    default=0.0,
    type=click.FloatRange(0, 600),
    help="answer every data request this many seconds late (for timeout tests)",
)
@config_option(help="A YAML file overriding config/edge-agent.yaml (for the project, user and password defaults).")
@click.option("-v", "--verbose", is_flag=True, help="log every request")
def simulate(dataset, histories, host, port, project, username, password, delay, config, verbose) -> None:
    """Serve the Haystack API as SkySpark does, with SCRAM login, until interrupted."""
    from edge_agent.skyspark.encoding import EncodingError
    from edge_agent.skyspark.filedataset import FileDataset
    from edge_agent.skyspark.plants import open_dataset
    from edge_agent.skyspark.simulator import SimulatorServer

    try:
        settings = load_settings(config)
    except ConfigError as exc:
        click.echo(f"edge-agent: {exc}", err=True)
        sys.exit(2)
    sky = settings.skyspark
    project = project or sky.project
    username = username or sky.username
    if password is None:
        try:
            password = resolve_secret(sky.password, sky.password_file, "skyspark-password")
        except OSError as exc:
            click.echo(f"edge-agent: cannot read skyspark.password_file: {exc}", err=True)
            sys.exit(2)
    if not password:
        click.echo(
            "edge-agent: the simulator needs a password: --password, EDGE_AGENT_SKYSPARK__PASSWORD, "
            "or skyspark.password_file",
            err=True,
        )
        sys.exit(2)
    if histories and not dataset:
        click.echo("edge-agent: --histories needs --dataset", err=True)
        sys.exit(2)
    try:
        if histories and not Path(dataset).is_file():
            raise OSError(f"--histories needs --dataset to be a records file, not {dataset!r}")
        data = FileDataset.load(Path(dataset), histories) if histories else open_dataset(dataset)
    except (EncodingError, OSError, KeyError) as exc:
        click.echo(f"edge-agent: cannot load the dataset: {exc}", err=True)
        sys.exit(2)
    try:
        server = SimulatorServer(
            (host, port), project=project, users={username: password}, dataset=data, delay_s=delay, quiet=not verbose
        )
    except OSError as exc:
        click.echo(f"edge-agent: cannot listen on {host}:{port}: {exc}", err=True)
        sys.exit(1)
    equips = sum(1 for r in data.records if "equip" in r)
    click.echo(
        f"SkySpark simulator: {server.url}/api/{project}/ ({len(data.records)} records, {equips} equips), "
        f"user {username!r}; Ctrl-C stops",
        err=True,
    )
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        server.server_close()
