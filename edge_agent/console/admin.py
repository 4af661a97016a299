"""The users page (admin): add a user, change a password or role, remove one (their sessions end)."""

from __future__ import annotations

from aiohttp import web

from edge_agent.console.state import _console
from edge_agent.console.users import UserError


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
