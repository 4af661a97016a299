"""How the console words things for people: site-local readable times, what a step does in words, the answer
cut into text and provenance links (whole names first). The live page's script (console.js) does the same for
steps as they arrive; the run page uses these, so both show a run the same way."""

from __future__ import annotations

import json
import re
from datetime import UTC, datetime, tzinfo
from typing import Any, get_args
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from edge_agent import statuses
from edge_agent.failures import FailureReason

#: a final error with one of these codes ended a run that failed outside the gateway (the SkySpark, the disk)
FAILURE_CODES = frozenset(get_args(FailureReason))


def site_zone(name: str | None) -> tzinfo | None:
    """The site's timezone (`agent.timezone`), or None for the gateway's local time."""
    if not name:
        return None
    try:
        return ZoneInfo(name)
    except (ZoneInfoNotFoundError, ValueError):
        return None


def when(t: float | str | None, zone: tzinfo | None = None) -> str:
    """`1 Jun 2020, 16:15 (site time)` from Unix seconds or an ISO 8601 instant; '' for nothing."""
    if t in (None, ""):
        return ""
    try:
        if isinstance(t, str):
            moment = datetime.fromisoformat(t.replace("Z", "+00:00"))
            if moment.tzinfo is None:
                moment = moment.replace(tzinfo=zone) if zone else moment.astimezone()
        else:
            moment = datetime.fromtimestamp(float(t), UTC)
    except (TypeError, ValueError, OverflowError, OSError):
        return str(t)
    moment = moment.astimezone(zone) if zone else moment.astimezone()
    return f"{moment.day} {moment:%b %Y, %H:%M} (site time)"


def _value(v: Any) -> str:
    if isinstance(v, list):
        return ", ".join(_value(x) for x in v)
    if isinstance(v, dict):
        return json.dumps(v, ensure_ascii=False)
    text = str(v)
    return text if len(text) <= 80 else text[:77] + "..."


def doing(action: str | None, action_input: Any, kind: str = "tool") -> str:
    """What a step does, in words: `Calls assets with site name POKMAIN, asset type chiller`."""
    if isinstance(action_input, str):
        try:
            action_input = json.loads(action_input)
        except ValueError:
            pass
    if not action:
        return "No action"
    if action == "Finish" or kind == "finish":
        return "Writes the answer"
    if kind == "self_ask" or action.lower().replace("-", "") == "selfask":
        q = action_input.get("question") if isinstance(action_input, dict) else action_input
        return f"Asks itself: {_value(q)}" if q else "Asks itself a question"
    if kind == "ask_requester":
        return "Asks the requester a question"
    if isinstance(action_input, dict) and action_input:
        args = "; ".join(
            f"{str(k).replace('_', ' ')} {_value(v)}" for k, v in action_input.items() if v not in (None, "", [])
        )
        return f"Calls {action} with {args}" if args else f"Calls {action}"
    return f"Calls {action}"


def linked(text: str, claims: list[dict], run_id: str) -> list[dict]:
    """The answer cut into pieces: plain text, or a figure/name with where it came from. Longer claims are placed
    first, so a whole name ('Chiller 4') is one link, not its number alone."""
    spans: list[tuple[int, int, dict]] = []
    for c in sorted((c for c in claims or [] if c.get("text")), key=lambda c: -len(c["text"])):
        start = 0
        while (at := text.find(c["text"], start)) >= 0:
            end = at + len(c["text"])
            if not any(at < e and end > s for s, e, _ in spans):
                spans.append((at, end, c))
                break
            start = at + 1
    spans.sort(key=lambda s: s[0])
    out, pos = [], 0

    def plain(t: str) -> dict:
        return {"text": t, "claim": False, "href": "", "title": "", "ungrounded": False}

    for s, e, c in spans:
        if s > pos:
            out.append(plain(text[pos:s]))
        piece = plain(text[s:e]) | {"claim": True}
        if c.get("source") == "observation" and c.get("trial") and c.get("step") is not None:
            piece["href"] = f"/runs/{run_id}#step-{c['trial']}-{c['step']}"
            piece["title"] = f"from trial {c['trial']}, step {c['step']} ({c.get('tool') or 'observation'})"
        elif c.get("source"):
            piece["title"] = f"from the {c['source']}"
        else:
            piece["ungrounded"] = True
            piece["title"] = "no evidence of this run"
        out.append(piece)
        pos = e
    if pos < len(text):
        out.append(plain(text[pos:]))
    return out


def site_instant(text: str, zone: tzinfo | None) -> str:
    """The ask form's "now" as the daemon reads it: a time without a zone is site time (`zone`), sent with its
    offset so the daemon reads it the same whatever its own zone; ValueError for what is no date or time."""
    moment = datetime.fromisoformat(text.strip().replace("Z", "+00:00"))
    if moment.tzinfo is None and zone is not None:
        moment = moment.replace(tzinfo=zone)
    return moment.isoformat()


def shown_status(reply: dict[str, Any]) -> str:
    """The status a final reply shows, as the run page shows its run: a final error whose code is an outside
    failure (`skyspark_unavailable`, `disk_full`, ...) is the run's `failed`, not `error` (the request itself)."""
    status = reply.get("status")
    if reply.get("kind") == "error" and not status and reply.get("code") in FAILURE_CODES:
        status = "failed"
    return statuses.effective(status, kind=reply.get("kind"), answer=reply.get("answer"))


MASK = "[unverified]"
_QUOTED_MASK = re.compile(r"""["'“‘«]\s*\[unverified\]\s*["'”’»]""")
_MASK_RUN = re.compile(r"\[unverified\](?:(?:\s*[,;/]\s*|\s+(?:and|or)\s+|\s+)\[unverified\])+")
_MASKED_KIND = re.compile(r"\b(a|an|the) \[unverified\] (\w+)")


def tidy_masked(text: str | None) -> str:
    """A published thought with its masked guesses read as phrases, not as quoted tokens: `called "[unverified]"`
    → `called [unverified]`, `[unverified] and [unverified]` → `[unverified]`, `a [unverified] file` → `a file of
    an [unverified] kind` (console.js `tidyMasked` does the same on the live page)."""
    if not text or MASK not in text:
        return text or ""
    text = _QUOTED_MASK.sub(MASK, text)
    text = _MASK_RUN.sub(MASK, text)
    return _MASKED_KIND.sub(lambda m: f"{_article(m.group(1), m.group(2))} {m.group(2)} of an {MASK} kind", text)


def _article(said: str, noun: str) -> str:
    if said == "the":
        return said
    return "an" if noun[:1].lower() in "aeiou" else "a"
