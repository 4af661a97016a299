"""Run observers: `EdgeAgent.ask` calls `run_recorded(result, llm_calls)` once per finished run.

The daemon's metrics register an observer here (LLM calls, tokens and seconds by role, tool calls and
errors by tool); `edge-agent ask` registers none, so a run outside the daemon costs one empty loop.
"""

from __future__ import annotations

import logging
from typing import Callable

log = logging.getLogger(__name__)

Observer = Callable[[object, list], None]
_observers: list[Observer] = []


def add(observer: Observer) -> None:
    if observer not in _observers:
        _observers.append(observer)


def remove(observer: Observer) -> None:
    if observer in _observers:
        _observers.remove(observer)


def run_recorded(result, calls: list) -> None:
    """Tell every observer about a finished run; an observer's failure is logged, never raised into the run."""
    for observer in list(_observers):
        try:
            observer(result, calls)
        except Exception:
            log.exception("run observer %r failed", observer)
