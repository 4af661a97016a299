"""The console's read-only view of the run log (runs, trials, steps, LLM calls with prompt and reply text) and
of the daemon's job queue (who asked: the console user in `on_behalf_of`, else the broker client). Both SQLite
files are opened read-only (`mode=ro`), per query, so the console never writes to them or holds them open."""

from __future__ import annotations

import json
import sqlite3
from contextlib import closing
from pathlib import Path
from typing import Any


def _ro(path: Path) -> sqlite3.Connection | None:
    if not path.is_file():
        return None
    conn = sqlite3.connect(f"file:{path}?mode=ro", uri=True, timeout=5)
    conn.row_factory = sqlite3.Row
    return conn


def _loads(text: str | None, default: Any = None) -> Any:
    try:
        return json.loads(text) if text else default
    except ValueError:
        return default


class History:
    def __init__(self, runlog: Path, queue: Path):
        self.runlog, self.queue = runlog, queue

    def _who(self, run_ids: list[str]) -> dict[str, str]:
        conn = _ro(self.queue)
        if conn is None or not run_ids:
            return {}
        with closing(conn):
            cols = {r[1] for r in conn.execute("PRAGMA table_info(jobs)")}
            who = "coalesce(on_behalf_of, client_id)" if "on_behalf_of" in cols else "client_id"
            marks = ",".join("?" * len(run_ids))
            return {r[0]: r[1] for r in conn.execute(
                f"SELECT job_id, {who} FROM jobs WHERE job_id IN ({marks})", run_ids)}

    def runs(self, limit: int = 50) -> list[dict]:
        conn = _ro(self.runlog)
        if conn is None:
            return []
        with closing(conn):
            rows = [dict(r) for r in conn.execute("SELECT * FROM runs ORDER BY created DESC LIMIT ?", (limit,))]
        who = self._who([r["run_id"] for r in rows])
        for r in rows:
            r["who"] = who.get(r["run_id"], "edge-agent ask")
            r["projected_s"] = (_loads(r.get("metrics"), {}) or {}).get("projected_s") or {}
        return rows

    def run(self, run_id: str) -> dict | None:
        conn = _ro(self.runlog)
        if conn is None:
            return None
        with closing(conn):
            row = conn.execute("SELECT * FROM runs WHERE run_id=?", (run_id,)).fetchone()
            if row is None:
                return None
            run = dict(row)
            run["trials"] = [dict(r) for r in conn.execute(
                "SELECT * FROM trials WHERE run_id=? ORDER BY number", (run_id,))]
            steps = [dict(r) for r in conn.execute(
                "SELECT * FROM steps WHERE run_id=? ORDER BY trial, idx", (run_id,))]
            tables = {r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type='table'")}
            sql = ("SELECT c.*, s.text AS prompt_system FROM llm_calls c LEFT JOIN prompt_systems s "
                   "ON s.sha256 = c.system_sha256 WHERE c.run_id=? ORDER BY c.id") if "prompt_systems" in tables \
                else "SELECT * FROM llm_calls WHERE run_id=? ORDER BY id"
            run["calls"] = [dict(r) for r in conn.execute(sql, (run_id,))]
        for t in run["trials"]:
            t["steps"] = [s for s in steps if s["trial"] == t["number"]]
            t["review_obj"] = _loads(t.get("review"), {}) or {}
        run["file_list"] = _loads(run.get("files"), []) or []
        run["metrics_obj"] = _loads(run.get("metrics"), {}) or {}
        run["who"] = self._who([run_id]).get(run_id, "edge-agent ask")
        return run
