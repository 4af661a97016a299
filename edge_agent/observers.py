"""Hooks: the points where the runtime tells whoever watches it what happened.

This is the one way the fleet side (`edge_agent/fleet/`) sees the runtime: an object it watches holds an
`Observer` and calls it — the SkySpark client after each Haystack operation (`SkySparkClient(observer=…)`),
`EdgeAgent.ask` after each recorded run (`EdgeAgent.observer`). The daemon attaches its metrics
(`fleet.metrics.Metrics` is an `Observer`) when it starts serving them (`fleet.hooks.FleetHooks.start`);
everything else (`edge-agent ask`, the benchmark) keeps `NO_OBSERVER`, whose hooks do nothing. What only the
daemon knows (a request stored, a job finished) it tells `FleetHooks` itself, by calling it.

A hook runs on the thread doing the work (the daemon's worker), so it must be quick (a counter, a histogram
observation); `notify` logs an exception from it and carries on: watching never breaks the work.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Sequence
from typing import Any

log = logging.getLogger(__name__)


class Observer:
    """Every hook, doing nothing: subclass it and override what you watch."""

    def skyspark_call(self, what: str, seconds: float, error: Exception | None) -> None:
        """One SkySpark (Haystack) operation ended, retries included. `what` describes it, its first word being
        the operation ("read site", "hisRead @p:demo:r:1", "about"); `error` is what it raised (None: success)."""

    def run_recorded(self, result: Any, calls: Sequence[Any]) -> None:
        """A run ended and is in the run log: `result` is its `RunResult`, `calls` its model calls (`LLMCall`).
        (Typed loosely: those types live in the layers above this module.)"""


#: the observer of whatever nobody watches
NO_OBSERVER = Observer()


def notify(hook: Callable[..., None], *args: Any) -> None:
    """Call an observer's hook; its failure is logged, never raised into the work it watches."""
    try:
        hook(*args)
    except Exception:
        log.exception("observer hook %r failed", hook)
