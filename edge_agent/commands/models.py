"""`edge-agent models list|verify|add`: show the catalog, check model files, pin a placed GGUF."""

from __future__ import annotations

import sys
from pathlib import Path

import click

from edge_agent.commands.options import config_option
from edge_agent.config import ConfigError, load_settings


def _settings(config: str | None):
    try:
        return load_settings(config)
    except ConfigError as exc:
        click.echo(f"error: {exc}", err=True)
        sys.exit(2)


def _catalog(settings):
    """The model catalog, or exit 1 with the reason."""
    from edge_agent.llm.models import ModelError, catalog_path, load_catalog

    try:
        return load_catalog(catalog_path(settings))
    except ModelError as exc:
        click.echo(f"error: {exc}", err=True)
        sys.exit(1)


@click.group()
def models() -> None:
    """List the model catalog, verify model files, pin a new GGUF."""


@models.command("list")
@config_option()
def list_models(config: str | None) -> None:
    """Show every catalog entry and whether its file is present (no hashing)."""
    from edge_agent.llm.models import ModelError, model_path

    settings = _settings(config)
    catalog = _catalog(settings)
    for entry in catalog.models:
        default = " (default)" if entry.name == settings.model.name else ""
        try:
            where = str(model_path(settings, entry)) if not entry.parts else "parts: " + ", ".join(entry.parts)
            status = "present" if entry.sha256 else "present, sha256 not pinned"
        except ModelError:
            where = entry.file or entry.package or ""
            status = "missing"
        click.echo(f"{entry.name}{default}: {status}; n_ctx {entry.n_ctx}; {where}")
        if entry.description:
            click.echo(f"    {entry.description}")


@models.command("verify")
@click.argument("names", nargs=-1)
@config_option()
def verify_models(names: tuple[str, ...], config: str | None) -> None:
    """Check the sha256 of NAMES (default: every entry whose file is present). Exit 1 on a problem."""
    from edge_agent.llm.models import ModelError, model_path, verify

    settings = _settings(config)
    catalog = _catalog(settings)
    failed = False
    for entry in catalog.models:
        if names and entry.name not in names:
            continue
        if not names:
            try:
                model_path(settings, entry)
            except ModelError:
                click.echo(f"{entry.name}: skipped (file not placed)")
                continue
        try:
            path = verify(settings, entry)
            click.echo(f"{entry.name}: ok ({path})")
        except ModelError as exc:
            failed = True
            click.echo(f"{entry.name}: FAILED: {exc}", err=True)
    unknown = set(names) - set(catalog.names)
    for name in sorted(unknown):
        failed = True
        click.echo(f"{name}: no such model in the catalog", err=True)
    sys.exit(1 if failed else 0)


@models.command("add")
@click.argument("name")
@click.argument("file", type=click.Path(exists=True, dir_okay=False, path_type=Path))
@click.option("--n-ctx", type=int, default=None, help="context length to use (default 8192)")
@click.option("--source", default="", help="where the file came from")
@click.option("--description", default="", help="one line about the model")
@click.option("--chat-template", default=None, help='"plain", or a jinja template overriding the GGUF\'s')
@config_option()
def add(
    name: str,
    file: Path,
    n_ctx: int | None,
    source: str,
    description: str,
    chat_template: str | None,
    config: str | None,
) -> None:
    """Hash FILE (a GGUF) and write catalog entry NAME pinning its sha256."""
    from edge_agent.llm.models import ModelError, add_model, catalog_path

    settings = _settings(config)
    try:
        entry = add_model(
            settings, name, file, n_ctx=n_ctx, source=source, description=description, chat_template=chat_template
        )
    except ModelError as exc:
        click.echo(f"error: {exc}", err=True)
        sys.exit(1)
    click.echo(f"{entry.name}: pinned sha256 {entry.sha256} for {entry.file} in {catalog_path(settings)}")
