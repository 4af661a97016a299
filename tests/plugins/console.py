"""Fixtures for the console tests: the console (`serve_console`) in a thread of its own, on a free loopback
port, beside a daemon and a real Mosquitto; users made with the users file; an HTTP session that logs in."""

from __future__ import annotations

import http.cookiejar
import json
import re
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
    return {
        "paths": {"state_dir": str(state_dir)},
        "mqtt": {
            "host": broker.host,
            "port": broker.port,
            "keepalive_s": 5,
            "ask_timeout_s": 5.0,
            "trusted_consoles": ["edge-agent-console"],
        },
        "console": {"host": "127.0.0.1", "port": 0, **extra},
    }


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

    def request(
        self,
        method: str,
        path: str,
        *,
        data: dict | None = None,
        json_body=None,
        headers: dict | None = None,
        follow: bool = True,
    ) -> Response:
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


# ------------------------------------------------------------------------------ statuses, provenance, restarts
#: the refusal the grounding writes in code for a control request (edge_agent/grounding/run.py)
REFUSAL = (
    "This gateway only reads data; it cannot turn off Chiller 6 or change anything on the plant. "
    "It can answer questions about the sites, equipment and sensor data on the SkySpark."
)


def status_runner(settings):
    """The daemon's script runner, recording each run in the real run log as the agent does, with more outcomes:
    `[as=refused]` (a code-written refusal delivered as `answered`, as today's agent does), `[as=partial]`,
    `[as=gave_up]`, and
    `[as=provenance]` (an answer whose names and figures carry provenance, a thought with a masked guess, distill
    facts sent live)."""
    from edge_agent.agent.distill import render_distilled
    from edge_agent.agent.trajectory import AgentEvent, Distilled
    from edge_agent.grounding.provenance import Claim
    from edge_agent.mqtt.runner import ScriptRunner, directives
    from edge_agent.runlog import RunLog

    class StatusRunner(ScriptRunner):
        def run(self, question, options, *, run_id, on_event, cancel, ask_requester):
            _, d = directives(question)
            how = d.get("as", "")
            distilled = None
            if how == "provenance":
                distilled = Distilled(sites=["POKMAIN"], assets=["Chiller 4", "Chiller 12"], goal="name the chillers")
                on_event(AgentEvent(kind="distill", text=render_distilled(distilled)))

            def event(e):
                if how == "provenance" and e.step is not None and e.step.index == 1:
                    e.step.thought = "Chiller 9 is probably one of them; list the assets"
                    e.step.unverified = ["Chiller 9"]
                on_event(e)

            result = super().run(
                question, options, run_id=run_id, on_event=event, cancel=cancel, ask_requester=ask_requester
            )
            if result.status == "answered":
                if how == "refused":
                    result.distilled = Distilled(answered=REFUSAL)
                    result.answer = result.trials[0].answer = REFUSAL
                elif how == "partial":
                    result.status, result.reason = "partial", "unestablished"
                    result.answer = result.trials[0].answer = (
                        "Chiller 4 ran at 412 tonref at its highest; whether Chiller 12 ran could not be established"
                    )
                elif how == "gave_up":
                    result.status, result.answer, result.reason = "gave_up", None, "unverified"
                    result.error = "no evidence of this run supports an answer"
                elif how == "provenance":
                    result.distilled = distilled
                    result.answer = "Found 2 chillers at POKMAIN: Chiller 4, Chiller 12 (2 in all)"
                    result.provenance = [
                        Claim(text="4", what="number", source="observation", trial=1, step=1, tool="sites"),
                        Claim(text="Chiller 4", what="name", source="observation", trial=1, step=1, tool="sites"),
                        Claim(text="Chiller 12", what="name", source="observation", trial=1, step=2, tool="sites"),
                        Claim(text="POKMAIN", what="name", source="question"),
                        Claim(text="2", what="number", source="observation", trial=1, step=2, tool="sites"),
                    ]
            RunLog(self.settings.db_path).record(result, [])
            return result

    return StatusRunner(settings)


@pytest.fixture
def console_env(tmp_path, mosquitto):
    """Factory: the daemon (the status runner) and a console on one state directory; `make(**console)` passes
    console settings; `.restart_console()` stops the console and starts a new one on the same settings."""
    from edge_agent.config import load_settings
    from edge_agent.mqtt.service import GatewayService

    made: list = []

    class Env:
        def __init__(self, sections: dict | None = None, **console):
            overrides = console_overrides(tmp_path / "state", mosquitto, **console)
            for name, values in (sections or {}).items():  # other settings sections (skyspark, agent, ...)
                overrides[name] = {**overrides.get(name, {}), **values}
            self.settings = load_settings(overrides=overrides, environ={})
            store = UserStore(self.settings.state_dir / self.settings.console.users_file)
            for name, role in {**USERS, "olga": "operator"}.items():
                store.add(name, PASSWORD, role)
            self.daemon = GatewayService(self.settings, status_runner(self.settings))
            self.daemon.start()
            assert self.daemon.connected.wait(10)
            self.console = ConsoleThread(self.settings).start()
            made.append(self)

        @property
        def url(self) -> str:
            return self.console.url

        def restart_console(self) -> None:
            self.console.stop()
            self.console = ConsoleThread(self.settings).start()

        def stop(self) -> None:
            self.console.stop()
            self.daemon.stop(timeout=5)

    yield Env
    for env in made:
        env.stop()
