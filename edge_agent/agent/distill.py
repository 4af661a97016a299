"""The Distill agent: before the first trial, turn the question into entities, a resolved period, a goal and parts.

Work is split by what each side does reliably:

* code links the question's names to the SkySpark the run uses (`edge_agent.grounding.linking`):
  sites, assets and sensors as the SkySpark names them, near misses corrected, names that do not
  exist reported with the ones that do. Names come from there only: without a catalog code names nothing;
* code resolves the date phrase against the clock (`edge_agent.grounding.dates`) — never the model;
* the model (role "distill", JSON constrained by `DistillReply`) states only the goal and the parts,
  and only under the `reactxen` strategy; it names nothing;
* parts are completed in code: one per asset whose data is wanted, plus "one file" when asked.

`render_distilled` writes the result as the short block appended to the question in every trial
(the paper's Q'), after the prompt's stable prefix.
"""

from __future__ import annotations

import re
from datetime import datetime

from pydantic import BaseModel, Field

from edge_agent.agent.prompting import make_prompt
from edge_agent.agent.runtime import AgentRuntime
from edge_agent.agent.structured import ask_json
from edge_agent.agent.trajectory import AgentEvent, Distilled
from edge_agent.grounding.dates import DateRange, resolve_period
from edge_agent.grounding.question import wants_single_file
from edge_agent.llm.base import Prompt

MAX_TOKENS = 200


class DistillReply(BaseModel):
    """What the model is asked for (its JSON schema is the constraint): the goal and the parts, no names."""

    goal: str = Field("", max_length=160)
    parts: list[str] = Field(default_factory=list, max_length=4)


def _norm(text: str) -> str:
    return re.sub(r"[\s_\-]+", " ", text.strip().lower())


def _dedupe(names: list[str]) -> list[str]:
    seen, out = set(), []
    for n in names:
        n = " ".join(n.split()).strip(" ,.;:?!'\"")
        if n and _norm(n) not in seen:
            seen.add(_norm(n))
            out.append(n)
    return out


def mentioned(question: str, now: datetime | None = None) -> Distilled:
    """The code-only reading of a question without a catalog (no model): only the period, given `now` — names
    come from the linking (`edge_agent.grounding`), never from patterns here."""
    result = Distilled()
    period = resolve_period(question, now) if now is not None else None
    if period is not None:
        result.start, result.end = period.iso()
        result.period = period.phrase
    return result


#: the part code adds when one file is asked for; the only one of code's parts the facts do not already say
ONE_FILE_PART = "put all of it in one file (one histories call with every asset, or jsonmerge)"


def default_parts(question: str, assets: list[str], sensors: list[str]) -> list[str]:
    """One part per asset when several are named, plus combining them when one file is asked for."""
    if len(assets) < 2:
        return []
    parts = [_asset_part(a, sensors) for a in assets]
    if wants_single_file(question):
        parts.append(ONE_FILE_PART)
    return parts


def _asset_part(asset: str, sensors: list[str]) -> str:
    return f"{' and '.join(sensors) if sensors else 'the requested data'} of {asset}"


def distill_prompt(question: str) -> Prompt:
    return make_prompt("distill", user=f"Question: {question.strip()}")


def facts_from(question: str, rt: AgentRuntime) -> Distilled:
    """What code reads from the question: names linked to the SkySpark (patterns without a catalog) and
    the period; no model call."""
    g = rt.grounding
    if g is None or g.links is None:
        return mentioned(question, rt.ctx.clock.now())
    links = g.links
    result = Distilled(
        sites=links.sites,
        assets=links.assets,
        sensors=links.sensors,
        missing=links.notes(),
        spelled=links.corrections(),
        parts=default_parts(question, links.assets, links.sensors),
        answered=g.in_code,
    )
    if g.start is not None:
        result.start, result.end = g.start, g.final
        period = resolve_period(question, rt.ctx.clock.now())
        result.period = period.phrase if period is not None else ""
    return result


def distill(question: str, rt: AgentRuntime, *, ask_model: bool = True) -> Distilled:
    """The code facts, plus (with `ask_model`) the model's goal and parts; never raises on bad model output."""
    base = facts_from(question, rt)
    if not ask_model:
        return base
    reply = ask_json(rt, distill_prompt(question), DistillReply, role="distill", max_tokens=MAX_TOKENS).value
    goal, parts = "", []
    if reply is not None:
        goal = " ".join(reply.goal.split()) if len(reply.goal.split()) >= 3 else ""
        parts = _dedupe([p for p in reply.parts if isinstance(p, str) and len(p.split()) >= 2])
    if len(parts) < len(base.parts):
        parts = base.parts
    return base.model_copy(update={"goal": goal, "parts": parts})


def render_distilled(d: Distilled) -> str:
    """The distilled facts for the trial prompt ('' when nothing was found), written with the tools'
    argument names (the paper's distiller ends with "input parameters") so a small model can copy them."""
    facts = []
    for label, names in (
        ("site_name", d.sites),
        ("asset_names" if len(d.assets) > 1 else "asset_name", d.assets),
        ("sensor_name", d.sensors),
    ):
        if names:
            facts.append(f"{label} {', '.join(names)}")
    if d.start and d.end and d.start == d.end:
        facts.append(f"start {d.start} and no final ({d.period}, one moment)")
    elif d.start and d.end:
        facts.append(f"start {_moment(d.start)}, final {_moment(d.end)} ({d.period})")
    lines = [f"Worked out from the question: {'; '.join(facts)}"] if facts else []
    if d.spelled:
        lines.append("Spelled differently in the question: " + "; ".join(d.spelled))
    if d.missing:
        lines.append("Not on the SkySpark: " + "; ".join(d.missing))
    if d.answered:
        lines.append(f"Answered in code: {d.answered}")
    if d.goal:
        lines.append(f"Goal: {d.goal}")
    restated = {_asset_part(a, d.sensors) for a in d.assets}  # code's per-asset parts: the names above again
    if [p for p in d.parts if p not in restated] == [ONE_FILE_PART]:
        lines.append(f"Then {ONE_FILE_PART}")
    elif d.parts and not set(d.parts) <= restated:
        lines.append("Parts: " + "; ".join(f"({n}) {p}" for n, p in enumerate(d.parts, start=1)))
    return "\n".join(lines)


def _moment(iso: str) -> str:
    """A range's end as the facts show it: a midnight as its date alone ("2020-06-01", 10 tokens instead of
    19; the step constraint still writes the argument in full). An instant keeps its time."""
    return iso[: -len("T00:00:00")] if iso.endswith("T00:00:00") else iso


def run_distill(question: str, rt: AgentRuntime, *, ask_model: bool = True) -> Distilled:
    """`distill` plus its progress event."""
    result = distill(question, rt, ask_model=ask_model)
    rt.emit(AgentEvent(kind="distill", text=render_distilled(result), data=result.model_dump()))
    return result


__all__ = [
    "DistillReply",
    "distill",
    "run_distill",
    "render_distilled",
    "mentioned",
    "wants_single_file",
    "default_parts",
    "facts_from",
    "DateRange",
]
