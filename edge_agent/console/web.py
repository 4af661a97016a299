"""The console's aiohttp application: login, ask (live steps over server-sent events), answers with provenance
links, plots, downloads from the file store, history from the run log, users (admin).

Every page needs a session (else the login page; JSON, events and files answer 401); every POST needs the
session's CSRF token (else 403); roles: viewer (history, answers, files, every request live, read-only), operator
(+ ask; cancel and answer the agent's question for its own requests), admin (+ any request's cancel and answer,
users). Everything the page shows that came from a person or the model is escaped by Jinja2 (autoescape) or set
as DOM text by console.js, never parsed as HTML. Responses carry a strict Content-Security-Policy (scripts and
styles from the console itself only), `Cache-Control: no-store` (pages and files hold answers), HSTS over TLS, and
a Server header without a version; no text from the address bar is ever shown back (the login page takes codes).

This module is the application: its routes, the middleware that finds the session and sets the headers, and the
health check. The handlers are by page: `login.py`, `pages.py` (home, a run, a request), `asking.py` (ask, a
request's replies live, cancel, answer), `files.py` (downloads), `admin.py` (users); what they share is
`state.py` (`Console`, the session key, the headers); what stands alone is beside them (security, users, bridge,
history, present).
"""

from __future__ import annotations

from aiohttp import web

from edge_agent.config import Settings
from edge_agent.console.admin import users_page, users_post
from edge_agent.console.asking import answer, ask, cancel, events, request_state
from edge_agent.console.bridge import Bridge
from edge_agent.console.files import download
from edge_agent.console.login import login, login_page, logout
from edge_agent.console.pages import home, request_page, run_page
from edge_agent.console.state import CONSOLE, HERE, SESSION, Console, _console, secure_headers


@web.middleware
async def _session_and_headers(request: web.Request, handler):
    console = _console(request)
    request[SESSION] = console.session_of(request)
    try:
        response = await handler(request)
    except web.HTTPException as exc:
        response = exc
    secure_headers(response.headers, console.secure, static=request.path.startswith("/static/"))
    if isinstance(response, web.HTTPException):
        raise response
    return response


async def health(request: web.Request) -> web.Response:
    """200 and `status: ok` while the console is connected to its broker; 503 and `status: degraded`, with the
    reasons, while the broker refuses it or is gone. The broker's own words (its address, the user refused) are
    shown only to a logged-in session (`problem`)."""
    bridge = _console(request).bridge
    up = bool(bridge and bridge.connected)
    body: dict[str, object] = {
        "status": "ok" if up else "degraded",
        "broker": up,
        "following": len(bridge.asked) if bridge else 0,
    }
    if not up:
        body["reasons"] = ["the console is not connected to the MQTT broker: questions cannot be sent"]
    if request[SESSION] is not None:
        body["problem"] = bridge.problem if bridge else ""
    return web.json_response(body, status=200 if up else 503)


def make_app(settings: Settings, bridge: Bridge | None) -> web.Application:
    app = web.Application(middlewares=[_session_and_headers], client_max_size=256 * 1024)
    app[CONSOLE] = Console(settings, bridge)

    async def stop_zone(app: web.Application) -> None:
        app[CONSOLE].site_zone.stop()

    app.on_cleanup.append(stop_zone)
    app.add_routes(
        [
            web.get("/login", login_page),
            web.post("/login", login),
            web.post("/logout", logout),
            web.get("/", home),
            web.post("/ask", ask),
            web.get("/requests/{request_id}", request_page),
            web.get("/api/requests/{request_id}", request_state),
            web.get("/api/requests/{request_id}/events", events),
            web.post("/api/requests/{request_id}/cancel", cancel),
            web.post("/api/requests/{request_id}/answer", answer),
            web.get("/runs/{run_id}", run_page),
            web.get("/files/{run_id}/{name}", download),
            web.get("/users", users_page),
            web.post("/users", users_post),
            web.get("/healthz", health),
            web.static("/static", HERE / "static"),
        ]
    )
    return app
