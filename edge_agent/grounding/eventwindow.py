"""A window named by an event whose times the message says in another clause: "yesterday's batch that started at six
in the morning (we unloaded it at 16:30). What moisture did that batch get down to?" reads 06:00 to 16:30 of
yesterday; "the changeover finished at 06:00. What has the gas flow been since the changeover?" reads 06:00 to now.

An event is a noun the message says beside a verb that starts it ("started", "began", "went in", "loaded", "came
on") or ends it ("finished", "ended", "unloaded", "came out", "was done") with a clock time after "at"; the question
refers back to it ("that batch", "during the run", "since the changeover"). Nothing is read where the question does not
refer back to a noun of the event's sentence, or where no time goes with the verb (`event_window` is None). An end
before its start runs past midnight.
"""

from __future__ import annotations

import re
from datetime import datetime, timedelta

from edge_agent.grounding.dates import DateRange, resolve_period

_STARTS = (
    r"started|starts|began|begun|commenced|went\s+in|was\s+loaded|were\s+loaded|loaded|came\s+on|kicked\s+off|"
    r"arrived|docked|tied\s+up"
)
_ENDS = (
    r"finished|ended|completed|unloaded|emptied|came\s+out|was\s+done|were\s+done|wrapped\s+up|was\s+over|"
    r"stopped|discharged|departed|left|sailed"
)
#: a verb that starts or ends an event, then its time: "started at six in the morning", "finished at 06:00"
_TIMED = re.compile(
    rf"\b(?:(?P<start>{_STARTS})|(?P<end>{_ENDS}))\b(?:\s+(?:it|them|up|off|out|on\s+site|in|back))?\s+at\s+"
    r"(?P<t>\d{1,2}(?::\d{2})?\s*(?:am|pm)?|[a-z]+(?:\s+in\s+the\s+(?:morning|afternoon|evening))?|noon|midnight)",
    re.I,
)
#: the question referring back to an event: "that batch", "since the changeover", "during the run"
_REFERS = re.compile(
    r"\b(?P<since>since\s+)?(?:that|this|the|its|their)\s+(?P<noun>[a-z]+)\b(?!\s+(?:that|which)\s+(?:"
    + _STARTS
    + "))",
    re.I,
)
_SENTENCE = re.compile(r"[^.?!;]+[.?!;]?")


def _sentence_at(text: str, at: int) -> tuple[int, int]:
    for m in _SENTENCE.finditer(text):
        if m.start() <= at < m.end():
            return m.start(), m.end()
    return 0, len(text)


def event_window(text: str, now: datetime) -> DateRange | None:
    """The window of the event the question refers back to, from the times said of it (None where none)."""
    starts: list[tuple[datetime, str, int]] = []
    ends: list[tuple[datetime, str, int]] = []
    verbs: list[str] = []
    days: list[str] = []
    for m in _TIMED.finditer(text):
        a, b = _sentence_at(text, m.start())
        # the day its sentence says, the times set aside ("yesterday's batch that started … (we unloaded it …)")
        whole = resolve_period(_TIMED.sub(" ", text[a:b]), now)
        said = f"{whole.phrase} at {m['t']}" if whole is not None and not whole.point else f"at {m['t']}"
        days.append(whole.phrase if whole is not None and not whole.point else "")
        at = resolve_period(said, now)
        if at is None or not at.point:
            continue
        (starts if m["start"] else ends).append((at.start, text[a:b], a))
        verbs.append(" ".join((m["start"] or m["end"]).split()).casefold())
    day = next((f" {d}" for d in days if d), "")
    if not starts and not ends:
        return None
    told = " ".join(t for _, t, _ in starts + ends).casefold()
    told_at = {a for _, _, a in starts + ends}
    for ref in _REFERS.finditer(text):
        noun = ref["noun"].casefold()
        if _sentence_at(text, ref.start())[0] in told_at or not re.search(rf"\b{noun}\b", told):
            continue  # the event's own clause, or a noun the clauses with times never say
        since = bool(ref["since"])
        if starts and ends and not since:
            begin, end = starts[0][0], ends[0][0]
            if end <= begin:  # "unloaded it at 16:30" of a batch started that morning: the same day's clock
                end = datetime.combine(begin.date(), end.timetz()).replace(tzinfo=begin.tzinfo)
                end += timedelta(days=1) if end <= begin else timedelta(0)
            return DateRange(begin, end, f"the {noun} ({verbs[0]} {begin:%H:%M}, {verbs[-1]} {end:%H:%M}{day})")
        if since:
            begin = (ends or starts)[0][0]
            if begin < now:
                return DateRange(
                    begin, now, f"since the {noun} ({verbs[0]} {begin:%H:%M}{day})", absolute=(False, True)
                )
    return None
