"""The console's read-only view of the run log (runs, trials, steps, LLM calls with prompt and reply text: read
with `runlog.reader.RunLogReader`, shaped here for the pages) and of the daemon's job queue (who asked: the console
user in `on_behalf_of`, else the broker client). Both SQLite files are opened read-only (`mode=ro`), per query, so
the console never writes to them or holds them open."""

from __future__ import annotations

import json
import sqlite3
from contextlib import closing
from pathlib import Path
from typing import Any

from edge_agent.agent.distill import render_distilled
from edge_agent.agent.trajectory import Distilled
from edge_agent.console.present import doing, tidy_masked
from edge_agent.runlog.reader import RunLogReader
from edge_agent.statuses import effective


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
        self.log = RunLogReader(runlog)
        self.queue = queue

    def _who(self, run_ids: list[str]) -> dict[str, str]:
        conn = _ro(self.queue)
        if conn is None or not run_ids:
            return {}
        with closing(conn):
            cols = {r[1] for r in conn.execute("PRAGMA table_info(jobs)")}
            who = "coalesce(on_behalf_of, client_id)" if "on_behalf_of" in cols else "client_id"
            marks = ",".join("?" * len(run_ids))
            return {
                r[0]: r[1] for r in conn.execute(f"SELECT job_id, {who} FROM jobs WHERE job_id IN ({marks})", run_ids)
            }

    def _cancelled_by(self, run_ids: list[str]) -> dict[str, str]:
        """Run id → its stored final reply's 'cancelled by …' sentence, for the cancelled ones among `run_ids`."""
        conn = _ro(self.queue)
        if conn is None or not run_ids:
            return {}
        with closing(conn):
            marks = ",".join("?" * len(run_ids))
            rows = conn.execute(
                f"SELECT job_id, final_payload FROM jobs WHERE final_kind='cancelled' AND job_id IN ({marks})", run_ids
            ).fetchall()
        return {r[0]: str(_loads(r[1], {}).get("message") or "cancelled") for r in rows}

    def runs(self, limit: int = 50, offset: int = 0, q: str = "") -> list[dict[str, Any]]:
        """A page of runs, newest first; `q` finds a text in the question or the answer, or a run id."""
        rows = [r.model_dump() for r in self.log.runs(limit, offset, q)]
        who = self._who([r["run_id"] for r in rows])
        cancelled = self._cancelled_by([r["run_id"] for r in rows if r.get("status") == "cancelled"])
        for r in rows:
            r["who"] = who.get(r["run_id"], "edge-agent ask")
            r["cancelled_note"] = cancelled.get(r["run_id"], "")
            r["shown_status"] = effective(r.get("status"), distilled=r.get("distilled"), answer=r.get("answer"))
        return rows

    def count(self, q: str = "") -> int:
        return self.log.count(q)

    def last_model(self) -> tuple[str | None, float | None] | None:
        """The model of the newest run, and when it ran."""
        newest = self.log.runs(1)
        return (newest[0].model, newest[0].created) if newest else None

    # the daemon's queue -------------------------------------------------------------------------
    def active(self) -> list[dict]:
        """Jobs queued or running in the daemon's queue, oldest first (any requester)."""
        conn = _ro(self.queue)
        if conn is None:
            return []
        with closing(conn):
            cols = {r[1] for r in conn.execute("PRAGMA table_info(jobs)")}
            who = "on_behalf_of" if "on_behalf_of" in cols else "NULL"
            return [
                dict(r)
                for r in conn.execute(
                    f"SELECT job_id, client_id, request_id, question, state, created, {who} AS on_behalf_of FROM jobs "
                    "WHERE state IN ('queued', 'running') ORDER BY created"
                )
            ]

    def job(self, client_id: str, request_id: str) -> dict | None:
        """One job of a requester by its request id (state, question, final reply), or None."""
        return self._job("client_id=? AND request_id=?", (client_id, request_id))

    def job_by_id(self, job_id: str) -> dict | None:
        return self._job("job_id=?", (job_id,))

    def _job(self, where: str, params: tuple) -> dict | None:
        conn = _ro(self.queue)
        if conn is None:
            return None
        with closing(conn):
            cols = {r[1] for r in conn.execute("PRAGMA table_info(jobs)")}
            who = "on_behalf_of" if "on_behalf_of" in cols else "NULL AS on_behalf_of"
            row = conn.execute(
                f"SELECT job_id, client_id, request_id, question, state, created, final_kind, "
                f"final_payload, {who} FROM jobs WHERE {where}",
                params,
            ).fetchone()
        return dict(row) if row else None

    def run(self, run_id: str) -> dict[str, Any] | None:
        """One run as the run page shows it: its trials (each with its steps), LLM calls with their whole prompt."""
        detail = self.log.detail(run_id, prompt_texts=True)
        if detail is None:
            return None
        run = detail.run.model_dump()
        run["trials"] = [t.model_dump() for t in detail.trials]
        steps = [s.model_dump() for s in detail.steps]
        run["calls"] = [c.model_dump() for c in detail.calls]
        for t in run["trials"]:
            t["steps"] = [s for s in steps if s["trial"] == t["number"]]
            t["review_obj"] = _loads(t.get("review"), {}) or {}
        run["file_list"] = _loads(run.get("files"), []) or []
        run["metrics_obj"] = _loads(run.get("metrics"), {}) or {}
        run["claims"] = _loads(run.get("provenance"), []) or []
        run["shown_status"] = effective(run.get("status"), distilled=run.get("distilled"), answer=run.get("answer"))
        run["distill_text"] = ""
        if run.get("distilled"):
            try:
                run["distill_text"] = render_distilled(Distilled.model_validate_json(run["distilled"]))
            except ValueError:
                pass
        for s in steps:  # the thought as the live page showed it (masked), where the run log has it
            s["shown"] = tidy_masked(s.get("shown_thought") if s.get("shown_thought") is not None else s.get("thought"))
            s["doing"] = doing(s.get("action"), s.get("action_input"), s.get("kind") or "tool")
        run["who"] = self._who([run_id]).get(run_id, "edge-agent ask")
        run["cancelled_note"] = self._cancelled_note(run_id)
        return run

    def _cancelled_note(self, job_id: str) -> str:
        """'cancelled by console:ada': who cancelled, from the job's stored final reply ('' if not cancelled)."""
        job = self.job_by_id(job_id)
        if job is None or job.get("final_kind") != "cancelled":
            return ""
        return str(_loads(job.get("final_payload"), {}).get("message") or "cancelled")
