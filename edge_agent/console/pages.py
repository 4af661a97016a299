"""The pages that show: home (the gateway's status, what runs, the history), a run with its answer's provenance and
plots, a request this console follows (live, or found again after a restart), and a request that ended with no run.
"""

from __future__ import annotations

import asyncio
import hashlib
import json

from aiohttp import web

from edge_agent import config
from edge_agent.console.bridge import Asked, Bridge
from edge_agent.console.files import _store_file
from edge_agent.console.present import linked, shown_status, when
from edge_agent.console.refusals import as_ended
from edge_agent.console.security import Session
from edge_agent.console.state import RUN_ID_RE, Console, _console
from edge_agent.console.users import at_least


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
