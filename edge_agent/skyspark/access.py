"""How a tool reaches the SkySpark: the run's client, the longest period it may read, and the error boundary.

Shared by the IoT tools (`plugins/iot.py`) and the analysis tools (`edge_agent/analysis_tools/`): a SkySpark error the
model can act on (an unknown name, a bad period, an error grid) becomes its Observation (`ToolError`); what it
cannot (the server unreachable, the login refused: `edge_agent.failures.ExternalFailure`) ends the run.
"""

from __future__ import annotations

from contextlib import contextmanager

from edge_agent.failures import ExternalFailure
from edge_agent.skyspark.errors import SkySparkError
from edge_agent.skyspark.window import WindowError
from edge_agent.toolkit import ToolContext, ToolError


def client_of(ctx: ToolContext):
    """The run's SkySpark client (made on first use)."""
    try:
        return ctx.skyspark
    except (ToolError, ExternalFailure):
        raise
    except Exception as exc:  # e.g. an unreadable password file
        raise ToolError(f"SkySpark is not usable: {type(exc).__name__}: {exc}") from None


def max_days(ctx: ToolContext) -> int:
    settings = getattr(ctx.settings, "skyspark", None)
    return getattr(settings, "max_history_days", 400)


@contextmanager
def reading():
    """A SkySpark read inside a tool: what the model can act on becomes its Observation; what it cannot ends
    the run."""
    try:
        yield
    except ExternalFailure:
        raise
    except (SkySparkError, WindowError) as exc:
        raise ToolError(str(exc)) from None
