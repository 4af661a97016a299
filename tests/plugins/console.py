"""Fixtures for the console tests: the console (`serve_console`) in a thread of its own, on a free loopback
port, beside a daemon and a real Mosquitto; users made with the users file; an HTTP session that logs in."""

from __future__ import annotations

import asyncio
import http.cookiejar
import json
import re
import threading
import urllib.error
import urllib.parse
import urllib.request
from pathlib import Path

import pytest

from edge_agent.commands.console import ConsoleThread  # noqa: F401  (the tests import it from here)
from edge_agent.config import Settings  # noqa: F401
from edge_agent.console.users import UserStore

PASSWORD = "correct horse battery"
USERS = {"vera": "viewer", "otto": "operator", "ada": "admin"}


def console_overrides(state_dir: Path, broker, **extra) -> dict:
    return {"paths": {"state_dir": str(state_dir)},
            "mqtt": {"host": broker.host, "port": broker.port, "keepalive_s": 5, "ask_timeout_s": 5.0,
                     "trusted_consoles": ["edge-agent-console"]},
            "console": {"host": "127.0.0.1", "port": 0, **extra}}


@pytest.fixture
def console_stack(tmp_path, mosquitto):
    """The daemon (script runner) and the console sharing one state directory (run log, queue, file store), as
    on a gateway; users vera (viewer), otto (operator), ada (admin) with password PASSWORD."""
    from edge_agent.config import load_settings
    from edge_agent.mqtt.runner import ScriptRunner
    from edge_agent.mqtt.service import GatewayService

    settings = load_settings(overrides=console_overrides(tmp_path / "state", mosquitto), environ={})
    store = UserStore(settings.state_dir / settings.console.users_file)
    for name, role in USERS.items():
        store.add(name, PASSWORD, role)
    daemon = GatewayService(settings, ScriptRunner(settings))
    daemon.start()
    assert daemon.connected.wait(10)
    console = ConsoleThread(settings).start()
    console.daemon = daemon
    yield console
    console.stop()
    daemon.stop(timeout=5)


class _NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args, **kw):
        return None


class Response:
    def __init__(self, status: int, headers, body: bytes):
        self.status_code, self.headers, self.content = status, headers, body

    @property
    def text(self) -> str:
        return self.content.decode("utf-8", "replace")

    def json(self):
        return json.loads(self.content)


class Browser:
    """A tiny cookie-keeping HTTP client (stdlib), enough to drive the console like a form-posting browser."""

    def __init__(self, base: str):
        self.base = base
        self.jar = http.cookiejar.CookieJar()
        self.csrf: str | None = None

    def request(self, method: str, path: str, *, data: dict | None = None, json_body=None,
                headers: dict | None = None, follow: bool = True) -> Response:
        body, hdrs = None, dict(headers or {})
        if json_body is not None:
            body, hdrs["Content-Type"] = json.dumps(json_body).encode(), "application/json"
        elif data is not None:
            body = urllib.parse.urlencode(data).encode()
            hdrs["Content-Type"] = "application/x-www-form-urlencoded"
        handlers = [urllib.request.HTTPCookieProcessor(self.jar)] + ([] if follow else [_NoRedirect()])
        opener = urllib.request.build_opener(*handlers)
        req = urllib.request.Request(self.base + path, data=body, headers=hdrs, method=method)
        try:
            with opener.open(req, timeout=30) as r:
                return Response(r.status, r.headers, r.read())
        except urllib.error.HTTPError as exc:
            return Response(exc.code, exc.headers, exc.read())

    def get(self, path: str, **kw) -> Response:
        return self.request("GET", path, **kw)

    def post(self, path: str, **kw) -> Response:
        return self.request("POST", path, **kw)


def login(url: str, user: str, password: str = PASSWORD) -> tuple[Browser, Response]:
    """A client logged in as `user` (its session's CSRF token in `.csrf`), and the login's response."""
    b = Browser(url)
    page = b.get("/login")
    token = re.search(r'name="csrf" value="([^"]+)"', page.text).group(1)
    r = b.post("/login", data={"username": user, "password": password, "csrf": token}, follow=False)
    home = b.get("/")
    m = re.search(r'name="csrf-token" content="([^"]+)"', home.text)
    b.csrf = m.group(1) if m else None
    return b, r
