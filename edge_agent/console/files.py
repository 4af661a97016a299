"""Downloads from the file store: plain names of a run's folder only, no links, nothing outside it; served under a
sandboxing Content-Security-Policy."""

from __future__ import annotations

from pathlib import Path

from aiohttp import web

from edge_agent.console.state import FILE_CSP, RUN_ID_RE, Console, _console
from edge_agent.filestore import NAME_RE


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
