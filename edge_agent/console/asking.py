"""Asking and following a request: the ask form, the request's replies as JSON and as server-sent events, and the
cancel and answer its asker (or an admin) may send.
"""

from __future__ import annotations

import asyncio
import json
import logging

from aiohttp import web

from edge_agent import config, statuses
from edge_agent.console.pages import _bridge, _find, _may_act
from edge_agent.console.present import shown_status, site_instant
from edge_agent.console.refusals import refused_first
from edge_agent.console.state import _console, secure_headers
from edge_agent.mqtt.client import RequestError
from edge_agent.mqtt.protocol import is_final

log = logging.getLogger("edge_agent.console.web")  # one logger for the console (its log lines stay the same)


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
