"""Failures outside the gateway that end a run at once, with a reason a requester and an operator can act on.

A SkySpark that cannot be reached, refuses the login or answers too slowly, and a disk that is full are not
things the model can work around: a tool that meets one raises `ExternalFailure` (never an Observation), the
trial and the run end without another model call, and the run's status is `failed` with the `reason`:

| reason | what failed | the daemon |
|---|---|---|
| `skyspark_unavailable` | connection refused, DNS, network, HTTP 5xx (after the client's retries) | waits it out |
| `skyspark_timeout` | no (complete) answer within `skyspark.timeout_s` (after the retries) | waits it out |
| `skyspark_auth` | the login was refused, or no password is configured | error at once |
| `skyspark_tls` | the TLS handshake or the server's certificate failed | error at once |
| `skyspark_config` | the server answered, but not as a Haystack API at that url/project (HTTP 404, …) | error at once |
| `disk_full` | the file store, the run log or the queue database could not be written: no space | error at once |

"Waits it out": the daemon keeps the job queued and runs it again when the SkySpark answers, up to
`skyspark.outage_wait_s` (`edge_agent.mqtt.service`).

`Interrupted` is not a failure but a stop: work given an `interrupt` event (a model call, a SkySpark read, a
tool) raises it once the event is set (a cancel, the daemon stopping). It lives here, at the bottom of the
house, because every layer that does long work raises or catches it (docs/architecture.md).
"""

from __future__ import annotations

import errno
import sqlite3
from typing import Literal

FailureReason = Literal[
    "skyspark_unavailable", "skyspark_timeout", "skyspark_auth", "skyspark_tls", "skyspark_config", "disk_full"
]
#: failures that end when the server comes back: the daemon retries the job until `skyspark.outage_wait_s`
WAIT_OUT: frozenset[str] = frozenset({"skyspark_unavailable", "skyspark_timeout"})


class ExternalFailure(Exception):
    """Something outside the gateway failed; `reason` is one of `FailureReason`, the message names what and where."""

    reason: FailureReason = "skyspark_unavailable"

    def __init__(self, message: str, reason: FailureReason | None = None):
        super().__init__(message)
        if reason is not None:
            self.reason = reason


class Interrupted(Exception):
    """Work stopped because its `interrupt` event was set. For a model call, `usage` is what it spent until then
    (an `edge_agent.llm.base.Usage`; None elsewhere), and the runtime stays usable: its KV cache holds what was
    evaluated, and the next call reuses it."""

    def __init__(self, usage: object | None = None):
        super().__init__("interrupted: a cancel, or the daemon stopping")
        self.usage = usage


def disk_full(exc: BaseException) -> ExternalFailure | None:
    """`exc` as a `disk_full` failure when it says the disk (or quota) is full — an OSError ENOSPC/EDQUOT or
    SQLite's "database or disk is full" — else None."""
    if isinstance(exc, ExternalFailure):
        return exc if exc.reason == "disk_full" else None
    if isinstance(exc, OSError) and exc.errno in (errno.ENOSPC, errno.EDQUOT):
        where = f" writing {exc.filename}" if exc.filename else ""
        return ExternalFailure(f"the gateway's disk is full{where}: {exc.strerror or exc}", "disk_full")
    if isinstance(exc, sqlite3.OperationalError) and "full" in str(exc).lower():
        return ExternalFailure(f"the gateway's disk is full: SQLite: {exc}", "disk_full")
    return None
