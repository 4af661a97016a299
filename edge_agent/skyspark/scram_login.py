"""SkySpark's login, server side, as the simulator answers it: the HELLO / SCRAM-SHA-256 exchange and the auth tokens.

`about` with `Authorization: HELLO username=…` answers 401 with a `handshakeToken` and `hash=SHA-256`; the
SCRAM-SHA-256 client-first and client-final messages follow (server side by `scramp`); a good proof gets
`Authentication-Info: authToken=…, data=…`, a bad one 403. Every other request needs
`Authorization: BEARER authToken=…`. Base64 in these headers is the standard alphabet without padding, as
SkyFoundry servers send. `Logins` keeps the open handshakes and the tokens issued, under one lock (the server
answers each request on its own thread).
"""

from __future__ import annotations

import base64
import hashlib
import re
import secrets
import threading
import time
from dataclasses import dataclass
from typing import Any

import scramp

ITERATIONS = 10000
MECH = scramp.ScramMechanism("SCRAM-SHA-256")
#: how long an unfinished handshake is kept, in seconds
HANDSHAKE_S = 300

#: an HTTP answer to a step of the login: status, body, headers
Reply = tuple[int, bytes, dict[str, str]]


def b64(data: bytes | str) -> str:
    """Standard base64 without padding (never `-` or `_`), as SkyFoundry servers write it."""
    if isinstance(data, str):
        data = data.encode("utf-8")
    return base64.b64encode(data).decode("ascii").rstrip("=")


def unb64(text: str) -> str:
    text = text.strip().replace("-", "+").replace("_", "/")
    return base64.b64decode(text + "=" * (-len(text) % 4)).decode("utf-8")


def header_params(value: str) -> tuple[str, dict[str, str]]:
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


class Logins:
    """The users the simulator knows, the handshakes under way and the auth tokens it issued."""

    def __init__(self, users: dict[str, str] | None = None):
        self._lock = threading.Lock()
        self._auth = {name: MECH.make_auth_info(pw, iteration_count=ITERATIONS) for name, pw in (users or {}).items()}
        self._handshakes: dict[str, _Handshake] = {}
        self._tokens: dict[str, str] = {}

    def _auth_info(self, username: str) -> Any:
        info = self._auth.get(username)
        if info is None:  # unknown user: a fake but stable salt, so the exchange fails only at the proof
            salt = hashlib.sha256(b"edge-agent-sim|" + username.encode()).digest()[:16]
            info = MECH.make_auth_info(secrets.token_hex(16), iteration_count=ITERATIONS, salt=salt)
        return info

    def start_handshake(self, username: str) -> str:
        token = secrets.token_hex(16)
        server = MECH.make_server(self._auth_info)
        with self._lock:
            cutoff = time.monotonic() - HANDSHAKE_S
            for key in [k for k, h in self._handshakes.items() if h.created < cutoff]:
                del self._handshakes[key]
            self._handshakes[token] = _Handshake(username, server, time.monotonic())
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

    def answer(self, scheme: str, params: dict[str, str]) -> Reply:
        """The answer to one step of the login (`about` with a HELLO or SCRAM `Authorization`)."""
        if scheme == "HELLO":
            try:
                username = unb64(params["username"])
            except Exception:
                return 400, b"bad HELLO message", {}
            token = self.start_handshake(username)
            return 401, b"", {"WWW-Authenticate": f"SCRAM handshakeToken={token}, hash=SHA-256"}
        hs = self.handshake(params.get("handshakeToken", ""))
        if hs is None or "data" not in params:
            return 403, b"unknown handshake", {}
        token = params["handshakeToken"]
        try:
            message = unb64(params["data"])
        except Exception:
            return 400, b"bad SCRAM data", {}
        try:
            if hs.server.stage is None:
                hs.server.set_client_first(message)
                if hs.server.client_first_bare.split(",")[0] != "n=" + hs.username:
                    raise scramp.ScramException("username differs from the HELLO message")
                first = hs.server.get_server_first()
                return 401, b"", {"WWW-Authenticate": f"SCRAM handshakeToken={token}, hash=SHA-256, data={b64(first)}"}
            # phable (like SkyFoundry's own clients) sends the proof without base64 padding; RFC 5802
            # and scramp want it padded, and SkySpark accepts both.
            message = re.sub(
                r"(,p=)([A-Za-z0-9+/]+)$", lambda m: m.group(1) + m.group(2) + "=" * (-len(m.group(2)) % 4), message
            )
            hs.server.set_client_final(message)
            final = hs.server.get_server_final()
        except scramp.ScramException:
            self.finish_handshake(token, None)
            return 403, b"authentication failed", {}
        auth_token = self.finish_handshake(token, hs.username)
        return 200, b"", {"Authentication-Info": f"authToken={auth_token}, data={b64(final)}"}
