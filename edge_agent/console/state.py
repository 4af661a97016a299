"""What the console's handlers share: `Console` (the settings, users, sessions, login limiter, history, the
bridge to the daemon and the page templates), the request's session key, and the headers every response carries.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import jinja2
from aiohttp import web

from edge_agent import statuses
from edge_agent.config import Settings
from edge_agent.console.bridge import Bridge
from edge_agent.console.client_address import networks
from edge_agent.console.history import History
from edge_agent.console.present import when
from edge_agent.console.refusals import Refusals
from edge_agent.console.security import LoginLimiter, Session, Sessions, same
from edge_agent.console.sitezone import SiteZone
from edge_agent.console.users import ROLES, UserStore, at_least

HERE = Path(__file__).parent
SESSION_COOKIE, LOGIN_COOKIE = "ea_session", "ea_login"
#: where the middleware leaves the request's session (a typed key where aiohttp has them)
SESSION = web.RequestKey("session", object) if hasattr(web, "RequestKey") else "session"
RUN_ID_RE = re.compile(r"^[A-Za-z0-9_-]{1,64}$")
CSP = (
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self'; connect-src 'self'; "
    "object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'"
)
FILE_CSP = "default-src 'none'; style-src 'unsafe-inline'; sandbox"
SERVER = "edge-agent-console"
HSTS = "max-age=31536000"
#: what the login page may say, by code (`/login?error=<code>`): nothing typed into the address bar is shown
LOGIN_ERRORS = {
    "expired": "Your session has ended: log in again.",
    "wrong": "Wrong user name or password.",
    "wait": "Too many failed logins from here: wait a moment and try again.",
}


class Console:
    """State shared by the handlers."""

    def __init__(self, settings: Settings, bridge: Bridge | None):
        self.settings = settings
        c = settings.console
        self.bridge = bridge
        self.users = UserStore(c.users_file if c.users_file.is_absolute() else settings.state_dir / c.users_file)
        self.sessions = Sessions(c.session_ttl_s)
        self.limiter = LoginLimiter(
            c.login_failures, c.login_window_s, c.login_delay_s, c.login_max_delay_s, c.login_address_failures
        )
        self.proxies = networks(c.trusted_proxies)
        self.history = History(settings.db_path, settings.state_dir / "queue.db")
        self.refusals = Refusals(settings.state_dir / "console-refusals.jsonl")
        self.secure = bool(c.tls_cert_file)
        self.site_zone = SiteZone(settings).start()  # agent.timezone, else the SkySpark site's tz
        self.env = jinja2.Environment(
            loader=jinja2.FileSystemLoader(HERE / "templates"), autoescape=True, undefined=jinja2.StrictUndefined
        )
        self.env.filters["when"] = lambda t: when(t, self.zone)
        self.env.filters["status_label"] = statuses.label
        self.env.filters["status_css"] = statuses.css
        self.env.filters["status_meaning"] = statuses.meaning
        self.env.globals["STATUSES"] = statuses.STATUSES
        self.env.filters["pretty"] = lambda v: (
            json.dumps(json.loads(v), indent=1, ensure_ascii=False) if isinstance(v, str) and v[:1] in "[{" else v
        )

    @property
    def zone(self):
        return self.site_zone.zone

    # helpers ---------------------------------------------------------------------------------
    def page(self, name: str, request: web.Request, status: int = 200, **ctx) -> web.Response:
        session: Session | None = request.get(SESSION)
        html = self.env.get_template(name).render(session=session, roles=ROLES, site_zone=self.site_zone, **ctx)
        return web.Response(text=html, content_type="text/html", status=status)

    def session_of(self, request: web.Request) -> Session | None:
        return self.sessions.get(request.cookies.get(SESSION_COOKIE))

    def require(self, request: web.Request, role: str = "viewer", *, html: bool = True) -> Session:
        session = request.get(SESSION)
        if session is None:
            if html:  # a session cookie that no longer opens a session: it ended (expiry, restart, logout elsewhere)
                raise web.HTTPSeeOther("/login?error=expired" if request.cookies.get(SESSION_COOKIE) else "/login")
            raise web.HTTPUnauthorized(text="log in first")
        if not at_least(session.role, role):
            raise web.HTTPForbidden(text=f"this needs the {role} role; you are {session.role}")
        return session

    async def form(self, request: web.Request) -> dict:
        """The POST's fields (form or JSON), after checking its CSRF token against the session's."""
        if request.content_type == "application/json":
            try:
                data = await request.json()
            except ValueError:
                raise web.HTTPBadRequest(text="the body is not JSON") from None
            data = data if isinstance(data, dict) else {}
        else:
            data = dict(await request.post())
        session = request.get(SESSION)
        token = request.headers.get("X-CSRF-Token") or data.get("csrf")
        if session is None or not same(session.csrf, token if isinstance(token, str) else None):
            raise web.HTTPForbidden(text="missing or wrong CSRF token: reload the page and try again")
        return data


CONSOLE = web.AppKey("console", Console)


def _console(request: web.Request) -> Console:
    return request.app[CONSOLE]


def secure_headers(headers, tls: bool, static: bool = False) -> None:
    """The headers every response carries (the event stream sets them itself, before it starts)."""
    headers.setdefault("Content-Security-Policy", CSP)
    headers["X-Content-Type-Options"] = "nosniff"
    headers["Referrer-Policy"] = "same-origin"
    headers["Server"] = SERVER
    if not static:  # pages, JSON, events and files hold answers: never kept by a browser or a proxy
        headers["Cache-Control"] = "no-store"
    if tls:
        headers["Strict-Transport-Security"] = HSTS
