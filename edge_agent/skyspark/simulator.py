"""An HTTP server that speaks the Project Haystack API as SkySpark does, over a dataset.

Endpoints: `/api/{project}/{op}` for `about`, `ops`, `formats`, `read`, `hisRead`, `eval`, `close`
(POST with a Zinc or Haystack-JSON request grid, or GET with query parameters); responses in the
format the `Accept` header asks for (Zinc by default). The ops are answered in `haystack_ops`.

Authentication is SkySpark's (`scram_login`): `about` with `Authorization: HELLO username=…` starts a
SCRAM-SHA-256 exchange that ends in an auth token; every other request needs `Authorization: BEARER
authToken=…` (401 otherwise).

Errors are error grids (HTTP 200, `err` marker, `dis`) for bad filters, unknown ids and
unsupported expressions. Test knobs: `delay_s` (answer every data request slowly), `trickle_bps` (send answers
slowly) and `expire_tokens()` (forget issued tokens, as after a server restart).
"""

from __future__ import annotations

import re
import threading
import time as _time
import traceback
from datetime import datetime
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any
from urllib.parse import parse_qs, unquote, urlparse

from phable.kinds import Grid

from edge_agent import __version__
from edge_agent.skyspark import filters
from edge_agent.skyspark.axon import OpError
from edge_agent.skyspark.dataset import Dataset, plant
from edge_agent.skyspark.encoding import EncodingError, grid_to_zinc, make_grid
from edge_agent.skyspark.haystack_json import grid_to_json, json_to_grid
from edge_agent.skyspark.haystack_ops import ANSWERS, error_grid
from edge_agent.skyspark.scram_login import Logins, header_params
from edge_agent.skyspark.zinc_reader import Scanner, zinc_to_grid


class SimulatorServer(ThreadingHTTPServer):
    """The simulator: `SimulatorServer(("127.0.0.1", 8911), project="demo", users={"operator": "pw"})`."""

    daemon_threads = True
    allow_reuse_address = True

    def __init__(
        self,
        address: tuple[str, int],
        *,
        project: str = "demo",
        users: dict[str, str] | None = None,
        dataset: Dataset | None = None,
        delay_s: float = 0.0,
        quiet: bool = True,
        now: datetime | None = None,
        trickle_bps: int = 0,
    ):
        super().__init__(address, _Handler)
        self.project = project
        self.dataset = dataset if dataset is not None else plant()
        self.delay_s = delay_s  # a slow server: every op answers this much later
        self.trickle_bps = trickle_bps  # a slow link: op answers are sent at this many bytes a second (0: at once)
        self.quiet = quiet
        self.fixed_now = now
        self.boot = datetime.now().astimezone()
        self.logins = Logins(users)

    @property
    def url(self) -> str:
        host, port = self.server_address[:2]
        return f"http://{host.decode() if isinstance(host, bytes) else host}:{port}"

    def expire_tokens(self) -> None:
        """Forget every issued auth token (clients must log in again)."""
        self.logins.expire_tokens()

    def now(self) -> datetime:
        return self.fixed_now or datetime.now().astimezone()


class _Handler(BaseHTTPRequestHandler):
    server: SimulatorServer
    protocol_version = "HTTP/1.1"
    server_version = "SkySparkSimulator/" + __version__

    def log_message(self, fmt: str, *args: Any) -> None:
        if not self.server.quiet:
            super().log_message(fmt, *args)

    def _send(
        self,
        status: int,
        body: bytes = b"",
        content_type: str = "text/plain; charset=utf-8",
        headers: dict[str, str] | None = None,
    ) -> None:
        self.send_response(status)
        for key, val in (headers or {}).items():
            self.send_header(key, val)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(body)

    def _send_grid(self, grid: Grid, status: int = 200) -> None:
        accept = (self.headers.get("Accept") or "").lower()
        if "json" in accept:
            body, kind = grid_to_json(grid).encode("utf-8"), "application/json; charset=utf-8"
        else:
            body, kind = grid_to_zinc(grid).encode("utf-8"), "text/zinc; charset=utf-8"
        if not self.server.trickle_bps:
            self._send(status, body, kind)
            return
        self.send_response(status)  # the headers at once, the body a little at a time (a slow link)
        self.send_header("Content-Type", kind)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        piece = max(1, self.server.trickle_bps // 10)
        for at in range(0, len(body), piece):
            self.wfile.write(body[at : at + piece])
            self.wfile.flush()
            _time.sleep(0.1)

    def do_GET(self) -> None:
        self._dispatch()

    def do_POST(self) -> None:
        self._dispatch()

    def _dispatch(self) -> None:
        length = int(self.headers.get("Content-Length") or 0)
        body = self.rfile.read(length) if length > 0 else b""
        url = urlparse(self.path)
        m = re.fullmatch(r"/api/([^/]+)/([A-Za-z]+)/?", url.path)
        if not m or unquote(m.group(1)) != self.server.project:
            self._send(404, b"not found: use /api/" + self.server.project.encode() + b"/{op}")
            return
        op = m.group(2)
        auth = self.headers.get("Authorization") or ""
        scheme, params = header_params(auth) if auth else ("", {})
        if op == "about" and scheme in ("HELLO", "SCRAM"):
            status, reply, headers = self.server.logins.answer(scheme, params)
            self._send(status, reply, headers=headers)
            return
        token = params.get("authToken") if scheme == "BEARER" else None
        user = self.server.logins.user_for(token) if token else None
        if token is None or user is None:
            self._send(401, b"authentication required", headers={"WWW-Authenticate": "SCRAM hash=SHA-256"})
            return
        answer = ANSWERS.get(op)
        if answer is None:
            self._send_grid(error_grid(f"sys::UnknownNameErr: unknown op {op!r}"), 404)
            return
        if self.server.delay_s:
            _time.sleep(self.server.delay_s)
        try:
            grid = answer(self.server, self._request_grid(body, parse_qs(url.query)), token)
        except (OpError, filters.FilterError, EncodingError) as exc:
            grid = error_grid(str(exc), traceback.format_exc(limit=2))
        except Exception as exc:  # the server answers, it does not die
            grid = error_grid(f"sys::Err: {type(exc).__name__}: {exc}", traceback.format_exc())
        self._send_grid(grid)

    def _request_grid(self, body: bytes, query: dict[str, list[str]]) -> Grid:
        if self.command == "POST" and body.strip():
            text = body.decode("utf-8")
            ctype = (self.headers.get("Content-Type") or "").lower()
            if "json" in ctype or text.lstrip().startswith("{"):
                return json_to_grid(text)
            return zinc_to_grid(text)
        row: dict[str, Any] = {}
        for key, vals in query.items():
            val = vals[0]
            if key in ("filter", "expr"):
                row[key] = val
            elif key == "range" and not val.startswith('"'):
                row[key] = val
            else:
                row[key] = Scanner(val).literal()
        return make_grid([row] if row else [])


# ── running ───────────────────────────────────────────────────────────────────


def serve(host: str = "127.0.0.1", port: int = 8911, **kwargs: Any) -> SimulatorServer:
    """A started server (in a background thread); call `.shutdown()` and `.server_close()` to stop it."""
    server = SimulatorServer((host, port), **kwargs)
    thread = threading.Thread(target=server.serve_forever, name=f"skyspark-sim:{server.server_address[1]}", daemon=True)
    thread.start()
    return server
