"""What a SkySpark failure is: `SkySparkError` and its kinds, each message a sentence the model (and an operator)
can act on. The unreachable, refused, TLS and misconfigured kinds are `ExternalFailure`s: the run ends at once and
the daemon waits the outage out (`reason` names it in the reply).
"""

from __future__ import annotations

from edge_agent.failures import ExternalFailure


class SkySparkError(Exception):
    """Any SkySpark failure; the message is a sentence the model (and an operator) can act on."""


class SkySparkUnavailable(SkySparkError, ExternalFailure):
    """The server could not be reached or kept failing after the retries (`reason` skyspark_unavailable), or
    answered too slowly (skyspark_timeout). The run ends at once; the daemon waits it out."""

    reason = "skyspark_unavailable"


class SkySparkTimeout(SkySparkUnavailable):
    """No complete answer within the timeout, after the retries."""

    reason = "skyspark_timeout"


class SkySparkAuthError(SkySparkError, ExternalFailure):
    """The login was refused or could not be completed."""

    reason = "skyspark_auth"


class SkySparkTLSError(SkySparkError, ExternalFailure):
    """The TLS handshake or the server's certificate failed."""

    reason = "skyspark_tls"


class SkySparkConfigError(SkySparkError, ExternalFailure):
    """The server answered, but not as a Haystack API at the configured url, project and api_path."""

    reason = "skyspark_config"


class SkySparkCallError(SkySparkError):
    """The server answered with an error grid (bad filter, unknown id, …)."""


class UnknownName(SkySparkError):
    """A site, asset or sensor name matched nothing; `suggestions` are the closest existing names."""

    def __init__(self, msg: str, suggestions: list[str]):
        super().__init__(msg)
        self.suggestions = suggestions
