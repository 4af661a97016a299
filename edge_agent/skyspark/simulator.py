"""An HTTP server that speaks the Project Haystack API as SkySpark does, over a dataset.

Endpoints: `/api/{project}/{op}` for `about`, `ops`, `formats`, `read`, `hisRead`, `eval`, `close`
(POST with a Zinc or Haystack-JSON request grid, or GET with query parameters); responses in the
format the `Accept` header asks for (Zinc by default).

Authentication is SkySpark's: `about` with `Authorization: HELLO username=…` answers 401 with a
`handshakeToken` and `hash=SHA-256`; the SCRAM-SHA-256 client-first and client-final messages
follow (server side by `scramp`); a good proof gets `Authentication-Info: authToken=…, data=…`,
a bad one 403. Every other request needs `Authorization: BEARER authToken=…` (401 otherwise).
Base64 in these headers is the standard alphabet without padding, as SkyFoundry servers send.

Errors are error grids (HTTP 200, `err` marker, `dis`) for bad filters, unknown ids and
unsupported expressions. Test knobs: `delay_s` (answer every data request slowly) and
`expire_tokens()` (forget issued tokens, as after a server restart).
"""

from __future__ import annotations

import base64
import hashlib
import re
import secrets
import threading
import time as _time
import traceback
from dataclasses import dataclass
from datetime import datetime
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any
from urllib.parse import parse_qs, unquote, urlparse

import scramp
from phable.kinds import Grid, GridCol, Marker, Number, Ref

from edge_agent import __version__
from edge_agent.skyspark import filters
from edge_agent.skyspark.axon import OpError, axon_range, parse_axon, parse_range
from edge_agent.skyspark.dataset import Dataset, plant
from edge_agent.skyspark.encoding import EncodingError, grid_to_zinc, make_grid, zone
from edge_agent.skyspark.haystack_json import grid_to_json, json_to_grid
from edge_agent.skyspark.zinc_reader import Scanner, zinc_to_grid

ITERATIONS = 10000
MECH = scramp.ScramMechanism("SCRAM-SHA-256")
OPS = ("about", "close", "eval", "formats", "hisRead", "ops", "read")


def b64(data: bytes | str) -> str:
    """Standard base64 without padding (never `-` or `_`), as SkyFoundry servers write it."""
    if isinstance(data, str):
        data = data.encode("utf-8")
    return base64.b64encode(data).decode("ascii").rstrip("=")


def unb64(text: str) -> str:
    text = text.strip().replace("-", "+").replace("_", "/")
    return base64.b64decode(text + "=" * (-len(text) % 4)).decode("utf-8")


def error_grid(msg: str, trace: str = "") -> Grid:
    return Grid(meta={"ver": "3.0", "err": Marker(), "dis": msg, "errTrace": trace or msg}, cols=[], rows=[])


def _header_params(value: str) -> tuple[str, dict[str, str]]:
    """'SCRAM data=abc, handshakeToken=xyz' → ('SCRAM', {'data': 'abc', 'handshakeToken': 'xyz'})."""
    scheme, _, rest = value.strip().partition(" ")
    params = {}
    for part in rest.split(","):
        key, sep, val = part.strip().partition("=")
        if sep:
            params[key.strip()] = val.strip()
    return scheme.upper(), params


@dataclass
class _Handshake:
    username: str
    server: Any
    created: float


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
        self._lock = threading.Lock()
        self._auth = {name: MECH.make_auth_info(pw, iteration_count=ITERATIONS) for name, pw in (users or {}).items()}
        self._handshakes: dict[str, _Handshake] = {}
        self._tokens: dict[str, str] = {}

    @property
    def url(self) -> str:
        host, port = self.server_address[:2]
        return f"http://{host.decode() if isinstance(host, bytes) else host}:{port}"

    # auth state
    def _auth_info(self, username: str):
        info = self._auth.get(username)
        if info is None:  # unknown user: a fake but stable salt, so the exchange fails only at the proof
            salt = hashlib.sha256(b"edge-agent-sim|" + username.encode()).digest()[:16]
            info = MECH.make_auth_info(secrets.token_hex(16), iteration_count=ITERATIONS, salt=salt)
        return info

    def start_handshake(self, username: str) -> str:
        token = secrets.token_hex(16)
        server = MECH.make_server(self._auth_info)
        with self._lock:
            cutoff = _time.monotonic() - 300
            for key in [k for k, h in self._handshakes.items() if h.created < cutoff]:
                del self._handshakes[key]
            self._handshakes[token] = _Handshake(username, server, _time.monotonic())
        return token

    def handshake(self, token: str) -> _Handshake | None:
        with self._lock:
            return self._handshakes.get(token)

    def finish_handshake(self, token: str, username: str | None) -> str | None:
        with self._lock:
            self._handshakes.pop(token, None)
            if username is None:
                return None
            auth_token = "web-" + secrets.token_hex(20)
            self._tokens[auth_token] = username
            return auth_token

    def user_for(self, auth_token: str) -> str | None:
        with self._lock:
            return self._tokens.get(auth_token)

    def drop_token(self, auth_token: str) -> None:
        with self._lock:
            self._tokens.pop(auth_token, None)

    def expire_tokens(self) -> None:
        """Forget every issued auth token (clients must log in again)."""
        with self._lock:
            self._tokens.clear()

    def now(self) -> datetime:
        return self.fixed_now or datetime.now().astimezone()


class _Handler(BaseHTTPRequestHandler):
    server: SimulatorServer
    protocol_version = "HTTP/1.1"
    server_version = "SkySparkSimulator/" + __version__

    def log_message(self, fmt: str, *args: Any) -> None:
        if not self.server.quiet:
            super().log_message(fmt, *args)

    # plumbing
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
        scheme, params = _header_params(auth) if auth else ("", {})
        if op == "about" and scheme in ("HELLO", "SCRAM"):
            self._scram(scheme, params)
            return
        token = params.get("authToken") if scheme == "BEARER" else None
        user = self.server.user_for(token) if token else None
        if user is None:
            self._send(401, b"authentication required", headers={"WWW-Authenticate": "SCRAM hash=SHA-256"})
            return
        if op not in OPS:
            self._send_grid(error_grid(f"sys::UnknownNameErr: unknown op {op!r}"), 404)
            return
        if self.server.delay_s:
            _time.sleep(self.server.delay_s)
        try:
            req = self._request_grid(body, parse_qs(url.query), op)
            grid = getattr(self, "op_" + op)(req, token)
        except (OpError, filters.FilterError, EncodingError) as exc:
            grid = error_grid(str(exc), traceback.format_exc(limit=2))
        except Exception as exc:  # the server answers, it does not die
            grid = error_grid(f"sys::Err: {type(exc).__name__}: {exc}", traceback.format_exc())
        self._send_grid(grid)

    def _request_grid(self, body: bytes, query: dict[str, list[str]], op: str) -> Grid:
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

    # authentication
    def _scram(self, scheme: str, params: dict[str, str]) -> None:
        if scheme == "HELLO":
            try:
                username = unb64(params["username"])
            except Exception:
                self._send(400, b"bad HELLO message")
                return
            token = self.server.start_handshake(username)
            self._send(401, headers={"WWW-Authenticate": f"SCRAM handshakeToken={token}, hash=SHA-256"})
            return
        hs = self.server.handshake(params.get("handshakeToken", ""))
        if hs is None or "data" not in params:
            self._send(403, b"unknown handshake")
            return
        token = params["handshakeToken"]
        try:
            message = unb64(params["data"])
        except Exception:
            self._send(400, b"bad SCRAM data")
            return
        try:
            if hs.server.stage is None:
                hs.server.set_client_first(message)
                if hs.server.client_first_bare.split(",")[0] != "n=" + hs.username:
                    raise scramp.ScramException("username differs from the HELLO message")
                first = hs.server.get_server_first()
                self._send(
                    401, headers={"WWW-Authenticate": f"SCRAM handshakeToken={token}, hash=SHA-256, data={b64(first)}"}
                )
                return
            # phable (like SkyFoundry's own clients) sends the proof without base64 padding; RFC 5802
            # and scramp want it padded, and SkySpark accepts both.
            message = re.sub(
                r"(,p=)([A-Za-z0-9+/]+)$", lambda m: m.group(1) + m.group(2) + "=" * (-len(m.group(2)) % 4), message
            )
            hs.server.set_client_final(message)
            final = hs.server.get_server_final()
        except scramp.ScramException:
            self.server.finish_handshake(token, None)
            self._send(403, b"authentication failed")
            return
        auth_token = self.server.finish_handshake(token, hs.username)
        self._send(200, headers={"Authentication-Info": f"authToken={auth_token}, data={b64(final)}"})

    # ops
    def op_about(self, req: Grid, token: str) -> Grid:
        now = self.server.now()
        return make_grid(
            [
                {
                    "haystackVersion": "4.0",
                    "serverName": self.server.server_address[0],
                    "serverTime": now,
                    "serverBootTime": self.server.boot,
                    "productName": "SkySpark",
                    "productUri": "https://skyfoundry.com/",
                    "productVersion": "3.1.10",
                    "vendorName": "edge-agent simulator",
                    "vendorUri": "https://example.invalid/",
                    "moduleName": "edge_agent.skyspark.simulator",
                    "moduleVersion": __version__,
                    "tz": "UTC",
                    "whoami": self.server.user_for(token) or "",
                }
            ]
        )

    def op_ops(self, req: Grid, token: str) -> Grid:
        return make_grid([{"name": op, "summary": op} for op in OPS])

    def op_formats(self, req: Grid, token: str) -> Grid:
        return make_grid(
            [
                {"mime": "text/zinc", "receive": Marker(), "send": Marker()},
                {"mime": "application/json", "receive": Marker(), "send": Marker()},
            ]
        )

    def op_close(self, req: Grid, token: str) -> Grid:
        self.server.drop_token(token)
        return make_grid([])

    def op_read(self, req: Grid, token: str) -> Grid:
        if not req.rows:
            raise OpError("read needs a filter or ids", "ArgErr")
        row0 = req.rows[0]
        if "filter" in row0:
            limit = row0.get("limit")
            return self._read_filter(row0["filter"], int(limit.val) if isinstance(limit, Number) else None)
        if "id" in row0:
            recs = []
            for row in req.rows:
                ref = row.get("id")
                rec = self.server.dataset.rec(ref.val) if isinstance(ref, Ref) else None
                recs.append(rec or {})
            return make_grid(recs)
        raise OpError("read needs a filter or ids", "ArgErr")

    def _read_filter(self, text: Any, limit: int | None) -> Grid:
        if not isinstance(text, str):
            raise OpError("filter must be a string", "ArgErr")
        node = filters.parse(text)
        ds = self.server.dataset
        out = []
        for rec in ds.records:
            if filters.matches(node, rec, ds.rec):
                out.append(rec)
                if limit is not None and len(out) >= limit:
                    break
        return make_grid(out)

    def op_hisRead(self, req: Grid, token: str) -> Grid:
        if not req.rows:
            raise OpError("hisRead needs an id and a range", "ArgErr")
        ids = [row.get("id") for row in req.rows]
        rng = req.rows[0].get("range", req.meta.get("range"))
        if not isinstance(rng, str):
            raise OpError("hisRead needs a range string", "ArgErr")
        for ref in ids:
            if not isinstance(ref, Ref):
                raise OpError("hisRead needs id refs", "ArgErr")
        refs = [ref.val for ref in ids if isinstance(ref, Ref)]  # all of them (checked above)
        return self._his_read(refs, lambda tz: parse_range(rng, tz, self.server.now()))

    def _his_read(self, ids: list[str], span) -> Grid:
        ds = self.server.dataset
        recs = []
        for pid in ids:
            rec = ds.rec(pid)
            if rec is None:
                raise OpError(f"@{pid}", "UnknownRecErr")
            if "his" not in rec:
                raise OpError(f"@{pid} is not a historized point", "HisErr")
            recs.append(rec)
        tz = zone(recs[0].get("tz", "UTC"))
        start, end = span(tz)
        if len(recs) == 1:
            rec = recs[0]
            unit = rec.get("unit")
            rows = [{"ts": ts, "val": _his_val(v, unit)} for ts, v in ds.his(ids[0], start, end)]
            return Grid(
                meta={"ver": "3.0", "id": rec["id"], "hisStart": start, "hisEnd": end},
                cols=[GridCol("ts"), GridCol("val")],
                rows=rows,
            )
        merged: dict[float, dict] = {}  # keyed by instant (DST: one ZoneInfo compares by wall clock)
        for i, (pid, rec) in enumerate(zip(ids, recs)):
            for ts, v in ds.his(pid, start, end):
                merged.setdefault(ts.timestamp(), {"ts": ts})[f"v{i}"] = _his_val(v, rec.get("unit"))
        cols = [GridCol("ts")] + [GridCol(f"v{i}", {"id": rec["id"]}) for i, rec in enumerate(recs)]
        return Grid(
            meta={"ver": "3.0", "hisStart": start, "hisEnd": end}, cols=cols, rows=[merged[k] for k in sorted(merged)]
        )

    def op_eval(self, req: Grid, token: str) -> Grid:
        if not req.rows or not isinstance(req.rows[0].get("expr"), str):
            raise OpError("eval needs an expr string", "ArgErr")
        call = parse_axon(req.rows[0]["expr"])
        if call.his_range is None:
            grid = self._read_filter(call.filter, 1 if call.func == "read" else None)
            if call.func == "read" and not grid.rows:
                raise OpError(call.filter, "UnknownRecErr")
            return grid
        recs = self._read_filter(call.filter, 1 if call.func == "read" else None).rows
        if not recs:
            raise OpError(call.filter, "UnknownRecErr")
        now = self.server.now()
        return self._his_read([r["id"].val for r in recs], lambda tz: axon_range(call.his_range, tz, now))


def _his_val(v: Any, unit: str | None) -> Any:
    if isinstance(v, bool) or v is None or isinstance(v, str):
        return v
    return Number(float(v), unit)


# ── running ───────────────────────────────────────────────────────────────────


def serve(host: str = "127.0.0.1", port: int = 8911, **kwargs: Any) -> SimulatorServer:
    """A started server (in a background thread); call `.shutdown()` and `.server_close()` to stop it."""
    server = SimulatorServer((host, port), **kwargs)
    thread = threading.Thread(target=server.serve_forever, name=f"skyspark-sim:{server.server_address[1]}", daemon=True)
    thread.start()
    return server
