"""The HTTP transport under `SkySparkClient`, over phable 0.1.29: phable's SCRAM-SHA-256 exchange with a timeout
(`ScramLogin`) and a logged-in `HaystackSession` whose calls have a timeout on the whole answer (`read_body`), read
error grids from 4xx/5xx bodies and log in again once when a token has expired. phable's own transport has no
timeout; retries and the mapping of failures to `SkySparkError`s are the client's (`skyspark.client`).
"""

from __future__ import annotations

import importlib.metadata
import threading
import time
import urllib.request
from collections.abc import Callable
from urllib.error import HTTPError

from phable import CallError, HaxallClient
from phable.auth.scram import AuthError, ScramScheme
from phable.kinds import Grid, GridCol

from edge_agent.failures import Interrupted
from edge_agent.skyspark.encoding import grid_to_zinc
from edge_agent.skyspark.errors import SkySparkAuthError, SkySparkCallError

EMPTY_GRID = Grid(meta={"ver": "3.0"}, cols=[GridCol("empty")], rows=[])
READ_CHUNK = 65536  # a body is read in pieces: the timeout bounds the whole answer, and a cancel stops it


class _Unauthorized(Exception):
    pass


def _user_agent() -> str:
    try:
        return f"edge-agent phable/{importlib.metadata.version('phable')}"
    except importlib.metadata.PackageNotFoundError:
        return "edge-agent"


class ScramLogin(ScramScheme):
    """phable's SCRAM exchange with a timeout, the real media type, and clear HTTP failures."""

    def __init__(self, uri: str, username: str, password: str, media_type: str, timeout: float):
        super().__init__(uri, username, password, media_type)
        self._timeout = timeout

    def _ph_scram_get(self, url, headers, context=None):
        req = urllib.request.Request(
            url, headers={**headers, "Content-Type": self._content_type, "User-Agent": _user_agent()}, method="GET"
        )
        try:
            with urllib.request.urlopen(req, timeout=self._timeout) as resp:
                resp.read()
                return resp.headers
        except HTTPError as exc:
            if exc.code == 403:
                raise AuthError("Unable to authenticate with the server using the credentials provided.") from None
            if exc.code == 401:
                return exc.headers
            raise


class HaystackSession(HaxallClient):
    """A logged-in phable client whose `call` uses our transport (timeout, error grids, re-login)."""

    def __init__(
        self,
        uri: str,
        token: str,
        encoding: str,
        timeout: float,
        relogin: Callable[[], str],
        interrupt: threading.Event | None = None,
    ):
        super().__init__(uri, token, content_type=encoding)
        self._encoding = encoding
        self._timeout = timeout
        self._relogin = relogin
        self._interrupt = interrupt

    def call(self, path: str, data: Grid = EMPTY_GRID, method: str = "POST") -> Grid:
        try:
            return self._call_once(path, data, method)
        except _Unauthorized:
            self._auth_token = self._relogin()
        try:
            return self._call_once(path, data, method)
        except _Unauthorized:
            raise SkySparkAuthError("SkySpark refused the session even after logging in again") from None

    def _call_once(self, path: str, data: Grid, method: str) -> Grid:
        # Zinc requests are written by our encoder: phable 0.1.29's writes non-ASCII characters as "\u" plus
        # unpadded hex ("°" → "\ub0"), which no Zinc reader can decode, and ends with a blank line, which
        # shaystack refuses. Haystack JSON requests use phable's encoder (json.dumps escapes correctly).
        body = grid_to_zinc(data) if self._encoding == "zinc" else self._encoder(data)
        req = urllib.request.Request(
            f"{self.uri}/{path}",
            data=body.encode("utf-8"),
            method=method,
            headers={
                "Authorization": f"BEARER authToken={self._auth_token}",
                "Accept": self._content_type,
                "Content-Type": self._content_type,
                "User-Agent": _user_agent(),
            },
        )
        try:
            with urllib.request.urlopen(req, timeout=self._timeout) as resp:
                text = read_body(resp, self._timeout, self._interrupt).decode("utf-8")
        except HTTPError as exc:
            if exc.code in (401, 403):
                raise _Unauthorized() from None
            text = exc.read().decode("utf-8", "replace")
            grid = self._try_decode(text)
            if grid is not None and "err" in grid.meta:
                raise CallError(grid) from None
            raise
        grid = self._try_decode(text)
        if grid is None:
            raise SkySparkCallError(f"SkySpark sent a reply that is not a Haystack grid: {text[:120]!r}")
        if "err" in grid.meta:
            raise CallError(grid)
        return grid

    def _try_decode(self, text: str) -> Grid | None:
        try:
            value = self._decoder(text)
        except Exception:
            return None
        if isinstance(value, dict):
            value = Grid.to_grid(rows=value)
        return value if isinstance(value, Grid) else None


def read_body(resp, timeout: float, interrupt: threading.Event | None = None) -> bytes:
    """A response's body, whole within `timeout` seconds of the first byte asked for: the socket's own timeout
    bounds each read only, so a server that trickles a large answer would otherwise hold a run forever. A set
    `interrupt` (the request's cancel) stops it between pieces (`Interrupted`)."""
    deadline = time.monotonic() + timeout
    parts: list[bytes] = []
    while True:
        if interrupt is not None and interrupt.is_set():
            raise Interrupted()
        if time.monotonic() > deadline:
            raise TimeoutError(f"the answer did not arrive whole within {timeout:g} s")
        part = resp.read1(READ_CHUNK)
        if not part:
            return b"".join(parts)
        parts.append(part)
