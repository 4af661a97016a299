"""Options several commands share, defined once: the settings file, a task file, and the agent's limits (the same
ranges a request's options allow, `mqtt.protocol.RequestOptions`). Each factory takes click's keywords to change
a default or the help for one command."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

import click

F = TypeVar("F", bound=Callable[..., Any])


def _option(decls: tuple[str, ...], defaults: dict[str, Any], kw: dict[str, Any]) -> Callable[[F], F]:
    return click.option(*decls, **{**defaults, **kw})


def config_option(**kw: Any) -> Callable[[F], F]:
    help_ = "A YAML file overriding config/edge-agent.yaml."
    return _option(("--config",), {"type": click.Path(dir_okay=False), "help": help_}, kw)


def tasks_option(**kw: Any) -> Callable[[F], F]:
    """`--tasks`, read into the parameter `tasks_file` (a path)."""
    help_ = "A task file, e.g. bench/tasks/pokmain.yaml."
    return _option(
        ("--tasks", "tasks_file"),
        {"required": True, "type": click.Path(dir_okay=False, path_type=Path), "help": help_},
        kw,
    )


def max_steps_option(**kw: Any) -> Callable[[F], F]:
    return _option(("--max-steps",), {"type": click.IntRange(1, 100), "help": "ReAct steps per trial."}, kw)


def max_trials_option(**kw: Any) -> Callable[[F], F]:
    return _option(("--max-trials",), {"type": click.IntRange(1, 20), "help": "Trials (reflection rounds)."}, kw)
