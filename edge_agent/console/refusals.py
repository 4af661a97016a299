"""Requests of the console's people that the gateway refused before they became a job (too long, an invalid
field, ...): the daemon's queue and run log hold no job or run of them, so the console keeps them itself, in
`<state_dir>/console-refusals.jsonl` (one JSON object a line, the newest `keep` kept), to list them in the
history under the person who asked and to show their page after they leave memory.

A refusal holds the person, the time, the daemon's error code and sentence, and the question's first
`QUESTION_KEPT` characters with its whole length (a refused question may be very long; the start says which it was).
"""

from __future__ import annotations

import json
import threading
import time
from pathlib import Path

from pydantic import BaseModel, ValidationError

QUESTION_KEPT = 2000


class Refusal(BaseModel):
    request_id: str
    user: str
    created: float
    question: str  # its first QUESTION_KEPT characters
    length: int  # the whole question's length
    code: str
    message: str


class Refusals:
    def __init__(self, path: Path, keep: int = 500):
        self.path, self.keep = path, keep
        self._lock = threading.Lock()

    def add(self, request_id: str, user: str, question: str, code: str, message: str) -> Refusal:
        entry = Refusal(
            request_id=request_id,
            user=user,
            created=time.time(),
            question=question[:QUESTION_KEPT],
            length=len(question),
            code=code,
            message=message,
        )
        with self._lock:
            lines = self._lines()[-(self.keep - 1) :] if self.keep > 1 else []
            lines.append(entry.model_dump_json())
            self.path.parent.mkdir(parents=True, exist_ok=True)
            tmp = self.path.with_suffix(".tmp")
            tmp.write_text("".join(line + "\n" for line in lines), encoding="utf-8")
            tmp.replace(self.path)
        return entry

    def _lines(self) -> list[str]:
        try:
            return [line for line in self.path.read_text(encoding="utf-8").splitlines() if line.strip()]
        except FileNotFoundError:
            return []

    def recent(self, q: str = "", limit: int = 20) -> list[Refusal]:
        """The newest refusals first; `q` finds a text in the question, the person or the request id."""
        out: list[Refusal] = []
        needle = q.lower()
        for line in reversed(self._lines()):
            try:
                entry = Refusal.model_validate(json.loads(line))
            except (ValueError, ValidationError):
                continue
            if needle and needle not in f"{entry.question}\n{entry.user}\n{entry.request_id}".lower():
                continue
            out.append(entry)
            if len(out) >= limit:
                break
        return out

    def get(self, request_id: str) -> Refusal | None:
        for line in reversed(self._lines()):
            if f'"{request_id}"' in line:
                try:
                    entry = Refusal.model_validate(json.loads(line))
                except (ValueError, ValidationError):
                    continue
                if entry.request_id == request_id:
                    return entry
        return None


def as_ended(entry: Refusal) -> dict:
    """A refusal as the ended-request page shows a job that never ran (templates/ended.html)."""
    return {
        "question": entry.question,
        "length": entry.length,
        "created": entry.created,
        "on_behalf_of": entry.user,
        "client_id": "",
        "shown_status": "error",
        "message": f"{entry.code}: {entry.message}",
        "refused": True,
    }


def refused_first(first: object) -> tuple[str, str] | None:
    """(code, message) when the daemon's first reply to a request is its final error: refused before a job."""
    if getattr(first, "kind", None) == "error" and getattr(first, "final", True):
        return str(getattr(first, "code", "error")), str(getattr(first, "message", ""))
    return None
