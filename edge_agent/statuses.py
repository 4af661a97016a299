"""What a request came to, in one word: the one place that maps what the run log, a result reply or a job's final
reply says onto the statuses operators see (`edge-agent ask`, the console, the audit trail, Home Assistant).

answered, refused, partial, gave_up, failed, cancelled — and `error` (the daemon refused or could not run the
request at all: a bad field, a full disk before any run). A status string this module does not know (one a newer
daemon writes) is shown as it is, with a neutral look, never turned into another.

Run logs and replies written before the agent had a `refused` status carry a code-written refusal as `answered`;
`effective` recognises it by the refusal the grounding wrote before any step (`Distilled.answered`, recorded in
the run log's `distilled` and in the answer itself), so old rows show `refused` too. When the agent sets
`refused` (or `partial`) itself, that string is taken as it is.
"""

from __future__ import annotations

import json
from typing import Any

#: the final statuses, in the order the console's legend lists them
STATUSES: tuple[str, ...] = ("answered", "refused", "partial", "gave_up", "failed", "cancelled", "error")

#: how a status reads in a sentence or a table cell
LABELS: dict[str, str] = {
    "answered": "answered",
    "refused": "refused",
    "partial": "partial",
    "gave_up": "gave up",
    "failed": "failed",
    "cancelled": "cancelled",
    "error": "error",
}

#: what each one means, for a tooltip and the docs
MEANINGS: dict[str, str] = {
    "answered": "code closed every part of the question with evidence from this run",
    "refused": "the gateway does not do this (operate equipment, follow instructions in a question, answer outside "
    "its data); the answer says what it can do instead",
    "partial": "what was established, and what was not",
    "gave_up": "no answer that evidence supports; the reason says why",
    "failed": "something outside the gateway failed (the SkySpark, the disk)",
    "cancelled": "stopped by a person before it ended",
    "error": "the request itself was refused or could not be run",
}

#: the beginnings of the answers the grounding writes in code when it refuses (edge_agent/grounding/written.py,
#: `written_in_code`): how a refusal recorded as `answered` by an older agent is recognised
_REFUSAL_OPENINGS = (
    "This gateway only reads data",
    "This gateway answers questions about the data",
    "This gateway cannot answer that",
)


def is_refusal_text(text: str | None) -> bool:
    return text is not None and text.lstrip().startswith(_REFUSAL_OPENINGS)


def _in_code(distilled: Any) -> str:
    if isinstance(distilled, str):
        try:
            distilled = json.loads(distilled)
        except ValueError:
            return ""
    if isinstance(distilled, dict):
        return str(distilled.get("answered") or "")
    return str(getattr(distilled, "answered", "") or "")


def effective(status: str | None, *, distilled: Any = None, answer: str | None = None, kind: str | None = None) -> str:
    """The status to show for a run or a final reply.

    `status`: the run log's or the result's status; `kind`: the final reply's kind when there is no status
    (cancelled, error); `distilled`: the run's Distilled (model, dict or JSON); `answer`: the delivered answer.
    """
    if kind == "cancelled":
        return "cancelled"
    if kind == "error" and not status:
        return "error"
    status = (status or kind or "error").strip()
    if status == "answered":
        code = _in_code(distilled)
        if is_refusal_text(code) or (not code and is_refusal_text(answer)):
            return "refused"
    return status


def label(status: str) -> str:
    return LABELS.get(status, status.replace("_", " "))


def css(status: str) -> str:
    """The CSS class of a status: `status-<known>`, or `status-other` for a string this module does not know."""
    return f"status-{status}" if status in LABELS else "status-other"


def meaning(status: str) -> str:
    return MEANINGS.get(status, "")
