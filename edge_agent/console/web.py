"""The console's aiohttp application: login, ask (live steps over server-sent events), answers with provenance
links, plots, downloads from the file store, history from the run log, users (admin).

Every page needs a session (else the login page; JSON, events and files answer 401); every POST needs the
session's CSRF token (else 403); roles: viewer (history, answers, files, every request live, read-only), operator
(+ ask; cancel and answer the agent's question for its own requests), admin (+ any request's cancel and answer,
users). Everything the page shows that came from a person or the model is escaped by Jinja2 (autoescape) or set
as DOM text by console.js, never parsed as HTML. Responses carry a strict Content-Security-Policy (scripts and
styles from the console itself only), `Cache-Control: no-store` (pages and files hold answers), HSTS over TLS, and
a Server header without a version; no text from the address bar is ever shown back (the login page takes codes).

It stays one module though it is long: the routes, their role and CSRF checks and the pages they render are one
aiohttp application, read route by route; what stands alone is beside it (security, users, bridge, history,
present).
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import logging
import re
from pathlib import Path

import jinja2
from aiohttp import web

from edge_agent import config, statuses
from edge_agent.config import Settings
from edge_agent.console.bridge import Asked, Bridge
from edge_agent.console.client_address import client_address, networks
from edge_agent.console.history import History
from edge_agent.console.present import linked, shown_status, site_instant, when
from edge_agent.console.refusals import Refusals, as_ended, refused_first
from edge_agent.console.security import LoginLimiter, Session, Sessions, same
from edge_agent.console.sitezone import SiteZone
from edge_agent.console.users import ROLES, UserError, UserStore, at_least
from edge_agent.filestore import NAME_RE
from edge_agent.mqtt.client import RequestError
from edge_agent.mqtt.protocol import is_final

log = logging.getLogger(__name__)

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


# ------------------------------------------------------------------------------------------------ login
async def login_page(request: web.Request) -> web.Response:
    import secrets

    console = _console(request)
    token = secrets.token_urlsafe(24)
    response = console.page(
        "login.html", request, login_csrf=token, error=LOGIN_ERRORS.get(request.query.get("error", ""), "")
    )
    response.set_cookie(LOGIN_COOKIE, token, httponly=True, samesite="Strict", secure=console.secure, path="/login")
    return response


async def login(request: web.Request) -> web.Response:
    console = _console(request)
    data = dict(await request.post())
    csrf = data.get("csrf")
    if not same(request.cookies.get(LOGIN_COOKIE), csrf if isinstance(csrf, str) else None):
        raise web.HTTPForbidden(text="missing or wrong CSRF token: reload the login page")
    user, password = str(data.get("username", ""))[:64], str(data.get("password", ""))[:1024]
    address = client_address(request.remote, request.headers.get("X-Forwarded-For"), console.proxies)
    keys = console.limiter.keys(user, address)
    wait = console.limiter.retry_after(*keys)
    if wait > 0:
        log.warning("login for %r from %s delayed %.0f s: too many failed logins", user, address, wait)
        response = console.page(
            "login.html",
            request,
            status=429,
            login_csrf=data.get("csrf"),
            error=LOGIN_ERRORS["wait"] + f" (about {max(1, round(wait))} s)",
        )
        response.headers["Retry-After"] = str(max(1, round(wait)))
        return response
    role = await asyncio.get_running_loop().run_in_executor(None, console.users.verify, user, password)
    if role is None:
        console.limiter.failed(*keys)
        log.info("failed login for %r from %s", user, address)
        return console.page("login.html", request, status=401, login_csrf=data.get("csrf"), error=LOGIN_ERRORS["wrong"])
    console.limiter.succeeded(*keys)
    token, _ = console.sessions.create(user, role)
    response = web.HTTPSeeOther("/")
    response.set_cookie(
        SESSION_COOKIE,
        token,
        httponly=True,
        samesite="Strict",
        secure=console.secure,
        path="/",
        max_age=int(console.settings.console.session_ttl_s),
    )
    response.del_cookie(LOGIN_COOKIE, path="/login")
    log.info("%s logged in (%s) from %s", user, role, address)
    raise response


async def logout(request: web.Request) -> web.Response:
    console = _console(request)
    console.require(request)
    await console.form(request)
    console.sessions.drop(request.cookies.get(SESSION_COOKIE))
    response = web.HTTPSeeOther("/login")
    response.del_cookie(SESSION_COOKIE, path="/")
    raise response


# ------------------------------------------------------------------------------------------------ pages
def gateway_status(console: Console) -> dict:
    """What the home page says of the gateway: broker, daemon and SkySpark, model, queue depth."""
    bridge = console.bridge
    daemon = ""
    if bridge is not None:
        daemon = bridge.client.status.get(bridge.client.topics.status, "")
    active = console.history.active()
    last = console.history.last_model()
    return {
        "broker": bool(bridge and bridge.connected),
        "problem": bridge.problem if bridge else "",
        "daemon": daemon or "unknown",
        "skyspark": "unknown"
        if not daemon or daemon == "offline"
        else ("unreachable (the daemon waits for it)" if "skyspark" in daemon else "reachable"),
        "model": console.settings.model.name,
        "last_model": last[0] if last else "",
        "last_model_when": when(last[1], console.zone) if last else "",
        "queue_depth": len(active),
        "active": active,
    }


def _page_number(text: str | None) -> int:
    try:
        return max(1, min(int(text or 1), 100000))
    except ValueError:
        return 1


async def home(request: web.Request) -> web.Response:
    console = _console(request)
    session = console.require(request)
    q = request.query.get("q", "").strip()[:200]
    size = console.settings.console.history_page_size
    loop = asyncio.get_running_loop()
    total = await loop.run_in_executor(None, console.history.count, q)
    pages = max(1, -(-total // size))
    page = min(_page_number(request.query.get("page")), pages)  # "page 99999 of 1" is the last page
    runs = await loop.run_in_executor(None, console.history.runs, size, (page - 1) * size, q)
    status = await loop.run_in_executor(None, gateway_status, console)
    refused = await loop.run_in_executor(None, console.refusals.recent, q)
    own = console.bridge.client_id if console.bridge else None
    running = [
        dict(
            job,
            who=job.get("on_behalf_of") or job["client_id"],
            href=f"/requests/{job['request_id']}" if job["client_id"] == own else "",
        )
        for job in status["active"]
    ]
    return console.page(
        "home.html",
        request,
        runs=runs,
        refused=refused,
        strategies=config.STRATEGIES,
        q=q,
        page=page,
        pages=pages,
        total=total,
        running=running,
        gateway=status,
        default_strategy=console.settings.agent.strategy,
        default_steps=console.settings.agent.max_steps,
        connected=console.bridge is not None and console.bridge.connected,
        me=session.user,
    )


async def run_page(request: web.Request) -> web.Response:
    console = _console(request)
    console.require(request)
    run_id = request.match_info["run_id"]
    run = None
    loop = asyncio.get_running_loop()
    if RUN_ID_RE.fullmatch(run_id):
        run = await loop.run_in_executor(None, console.history.run, run_id)
    if run is None:
        job = (
            await loop.run_in_executor(None, console.history.job_by_id, run_id) if RUN_ID_RE.fullmatch(run_id) else None
        )
        if job is not None and job["state"] == "done":  # ended with no run (cancelled before it started, refused)
            return console.page("ended.html", request, job=_ended(job))
        raise web.HTTPNotFound(text="no such run in the run log")
    plots = _plots(console, run_id)
    listed = {f["name"] for f in run["file_list"]}
    run["file_list"] += [p for p in plots if p["name"] not in listed]  # drawn after the run log was written
    pieces = linked(run.get("answer") or "", run["claims"], run_id)
    return console.page("run.html", request, run=run, plots=[p["name"] for p in plots], pieces=pieces)


def _ended(job: dict) -> dict:
    """A finished job's final reply, for a page (no run in the run log)."""
    try:
        final = json.loads(job.get("final_payload") or "{}")
    except ValueError:
        final = {}
    shown = shown_status({"kind": job.get("final_kind"), **final})
    return dict(
        job,
        final=final,
        shown_status=shown,
        message=final.get("message") or final.get("error") or final.get("answer") or "",
    )


def _plots(console: Console, run_id: str) -> list[dict]:
    """The run's plot files in the file store (the daemon adds them to the result after the run is logged)."""
    folder = console.settings.files_dir / run_id
    if not folder.is_dir() or folder.is_symlink():
        return []
    out = []
    for path in sorted(folder.glob("*.svg")):
        if _store_file(console, run_id, path.name) is not None:
            data = path.read_bytes()
            out.append({"name": path.name, "size": len(data), "sha256": hashlib.sha256(data).hexdigest()})
    return out


def _bridge(console: Console) -> Bridge:
    """The console's connection to the daemon; a console without one follows no request."""
    if console.bridge is None:
        raise web.HTTPNotFound(text="no such request in this console")
    return console.bridge


def _find(console: Console, rid: str) -> Asked:
    """The request this console follows: in memory, or found again in the daemon's queue (a console restart);
    a finished one no longer in memory redirects to its run."""
    bridge = _bridge(console)
    if not RUN_ID_RE.fullmatch(rid):
        raise web.HTTPNotFound(text="no such request in this console")
    asked = bridge.asked.get(rid)
    if asked is not None:
        return asked
    job = console.history.job(bridge.client_id, rid)
    if job is None:
        raise web.HTTPNotFound(text="no such request in this console")
    if job["state"] == "done":
        raise web.HTTPSeeOther(f"/runs/{job['job_id']}")
    return bridge.adopt(rid, job.get("on_behalf_of") or job["client_id"], job["question"], job["created"])


def _may_act(session: Session, asked) -> bool:
    """Cancel and answer the agent's question: the person who asked, or an admin."""
    return session.role == "admin" or (at_least(session.role, "operator") and session.user == asked.user)


async def request_page(request: web.Request) -> web.Response:
    console = _console(request)
    session = console.require(request)
    rid = request.match_info["request_id"]
    loop = asyncio.get_running_loop()
    try:
        asked = await loop.run_in_executor(None, _find, console, rid)
    except web.HTTPNotFound:  # refused before it was queued, and no longer in memory: the console's own record
        entry = await loop.run_in_executor(None, console.refusals.get, rid) if RUN_ID_RE.fullmatch(rid) else None
        if entry is None:
            raise
        return console.page("ended.html", request, job=as_ended(entry))
    return console.page("request.html", request, asked=asked, may_act=_may_act(session, asked))


# ------------------------------------------------------------------------------------------------ asking
def _options(data: dict, zone=None) -> dict:
    options: dict = {"files": "manifest", "plots": True}
    strategy = data.get("strategy")
    if strategy not in (None, ""):
        if strategy not in config.STRATEGIES:
            raise web.HTTPBadRequest(text=f"strategy must be one of {', '.join(config.STRATEGIES)}, not {strategy!r}")
        options["strategy"] = strategy
    for key in ("max_steps", "max_trials"):
        value = data.get(key)
        if value not in (None, ""):
            try:
                options[key] = int(value)
            except (TypeError, ValueError):
                raise web.HTTPBadRequest(text=f"{key} must be a whole number") from None
    if data.get("now"):
        try:
            options["now"] = site_instant(str(data["now"]), zone)
        except ValueError:
            raise web.HTTPBadRequest(text="now must be a date and time, like 2024-06-14 10:00 (site time)") from None
    options["ask"] = str(data.get("ask", "")).lower() in ("1", "true", "on", "yes")
    return options


async def _publishing(send, *args):
    """Run a bridge call that publishes (ask, cancel, answer) off the event loop; the broker refusing the message
    (its PUBACK: `RequestError`, e.g. the console's user may not publish there) is a 502 naming why."""
    try:
        return await asyncio.get_running_loop().run_in_executor(None, send, *args)
    except RequestError as exc:
        log.warning("the broker refused the console's message: %s", exc)
        raise web.HTTPBadGateway(text=f"the broker refused the message: {exc}") from None


async def ask(request: web.Request) -> web.Response:
    console = _console(request)
    wants_json = request.content_type == "application/json"
    session = console.require(request, "operator", html=not wants_json)
    data = await console.form(request)
    question = data.get("question")
    if not isinstance(question, str):
        raise web.HTTPBadRequest(text="a question is needed")
    if console.bridge is None or not console.bridge.connected:
        raise web.HTTPServiceUnavailable(
            text="the console is not connected to the broker"
            + (f": {console.bridge.problem}" if console.bridge and console.bridge.problem else "")
        )
    options = _options(data, console.zone)
    rid = await _publishing(console.bridge.ask, session.user, question, options)
    first = await console.bridge.first_reply(rid, 10.0)
    refusal = refused_first(first)
    if refusal is not None:  # no job, no run: the history has it from the console's own record, under the person
        await asyncio.get_running_loop().run_in_executor(
            None, console.refusals.add, rid, session.user, question, *refusal
        )
    if wants_json:
        return web.json_response({"request_id": rid, "first": first.model_dump(mode="json") if first else None})
    raise web.HTTPSeeOther(f"/requests/{rid}")


def _json(reply) -> dict:
    """A reply as the page gets it: the daemon's payload, with the status as operators read it."""
    data = reply.model_dump(mode="json")
    if data["kind"] in ("result", "cancelled") or (data["kind"] == "error" and data.get("final", True)):
        shown = shown_status(data)
        data.update(shown_status=shown, status_label=statuses.label(shown), status_meaning=statuses.meaning(shown))
    return data


async def request_state(request: web.Request) -> web.Response:
    console = _console(request)
    console.require(request, html=False)
    rid = request.match_info["request_id"]
    asked = await asyncio.get_running_loop().run_in_executor(None, _find, console, rid)
    replies = [_json(r) for r in _bridge(console).replies(rid)]
    return web.json_response(
        {
            "request_id": rid,
            "question": asked.question,
            "user": asked.user,
            "replies": replies,
            "final": next((r for r in replies if "shown_status" in r), None),
        }
    )


async def events(request: web.Request) -> web.StreamResponse:
    """Server-sent events: every reply of the request (the same payloads as over MQTT), from the first, then live."""
    console = _console(request)
    console.require(request, html=False)
    rid = request.match_info["request_id"]
    await asyncio.get_running_loop().run_in_executor(None, _find, console, rid)
    bridge = _bridge(console)
    response = web.StreamResponse(headers={"Content-Type": "text/event-stream", "X-Accel-Buffering": "no"})
    secure_headers(response.headers, console.secure)
    await response.prepare(request)
    sent = 0
    while True:
        replies = bridge.replies(rid)
        for reply in replies[sent:]:
            await response.write(f"event: reply\ndata: {json.dumps(_json(reply))}\n\n".encode())
            if is_final(reply):
                await response.write(b"event: end\ndata: {}\n\n")
                return response
        sent = len(replies)
        if rid not in bridge.asked:  # dropped from memory meanwhile: the run page has it
            await response.write(b"event: gone\ndata: {}\n\n")
            return response
        await bridge.changed(15.0, lambda n=sent: len(bridge.replies(rid)) != n)
        if len(bridge.replies(rid)) == sent:
            await response.write(b": keep-alive\n\n")


async def _acting(request: web.Request):
    console = _console(request)
    session = console.require(request, "operator", html=False)
    data = await console.form(request)
    rid = request.match_info["request_id"]
    asked = await asyncio.get_running_loop().run_in_executor(None, _find, console, rid)
    if not _may_act(session, asked):
        log.warning("%s (%s) may not act on request %s of %s", session.user, session.role, rid, asked.user)
        raise web.HTTPForbidden(text=f"only {asked.user}, who asked, or an admin may do this")
    return console, session, data, rid


async def cancel(request: web.Request) -> web.Response:
    console, session, _, rid = await _acting(request)
    await _publishing(console.bridge.cancel, rid, session.user)
    return web.json_response({"ok": True})


async def answer(request: web.Request) -> web.Response:
    console, session, data, rid = await _acting(request)
    text = data.get("answer")
    if not isinstance(text, str) or not text.strip():
        raise web.HTTPBadRequest(text="an answer is needed")
    await _publishing(console.bridge.answer, rid, text[:4000], session.user)
    return web.json_response({"ok": True})


# ------------------------------------------------------------------------------------------------ files
def _store_file(console: Console, run_id: str, name: str) -> Path | None:
    """The file `name` of run `run_id` in the file store, or None: plain names only, no links, nothing outside."""
    if not RUN_ID_RE.fullmatch(run_id) or not NAME_RE.fullmatch(name) or ".." in name:
        return None
    root = console.settings.files_dir
    folder, path = root / run_id, root / run_id / name
    try:
        if folder.is_symlink() or path.is_symlink() or not path.is_file() or path.lstat().st_nlink != 1:
            return None
        if path.resolve().parent != (root.resolve() / run_id):
            return None
    except OSError:
        return None
    return path


async def download(request: web.Request) -> web.StreamResponse:
    console = _console(request)
    console.require(request, html=False)
    path = _store_file(console, request.match_info["run_id"], request.match_info["name"])
    if path is None:
        raise web.HTTPNotFound(text="no such file in the file store")
    inline = request.query.get("inline") == "1" and path.suffix == ".svg"
    ctype = {".svg": "image/svg+xml", ".json": "application/json"}.get(path.suffix, "application/octet-stream")
    return web.FileResponse(
        path,
        headers={
            "Content-Type": ctype,
            "Content-Security-Policy": FILE_CSP,
            "Cache-Control": "no-store",
            "Content-Disposition": "inline" if inline else f'attachment; filename="{path.name}"',
        },
    )


# ------------------------------------------------------------------------------------------------ users
async def users_page(request: web.Request) -> web.Response:
    console = _console(request)
    console.require(request, "admin")
    return console.page(
        "users.html", request, users=console.users.load().users, message=request.query.get("message", "")
    )


async def users_post(request: web.Request) -> web.Response:
    console = _console(request)
    session = console.require(request, "admin")
    data = await console.form(request)
    action, name = data.get("action"), str(data.get("username", ""))
    try:
        if action == "add":
            console.users.add(name, str(data.get("password", "")), str(data.get("role", "viewer")))
        elif action == "passwd":
            console.users.passwd(name, str(data.get("password", "")), data.get("role") or None)
            console.sessions.drop_user(name)
        elif action == "remove":
            if name == session.user:
                raise UserError("you cannot remove yourself")
            console.users.remove(name)
            console.sessions.drop_user(name)
        else:
            raise UserError("unknown action")
        message = f"{action}: {name} done"
    except UserError as exc:
        message = str(exc)
    from urllib.parse import quote

    raise web.HTTPSeeOther(f"/users?message={quote(message)}")


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
