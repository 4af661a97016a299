"""The login page, logging in (CSRF cookie, the limiter on failures, the session cookie) and logging out."""

from __future__ import annotations

import asyncio
import logging

from aiohttp import web

from edge_agent.console.client_address import client_address
from edge_agent.console.security import same
from edge_agent.console.state import LOGIN_COOKIE, LOGIN_ERRORS, SESSION_COOKIE, _console

log = logging.getLogger("edge_agent.console.web")  # one logger for the console (its log lines stay the same)


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
