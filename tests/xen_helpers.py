"""Helpers for the ReActXen tests: a role-scripted fake LLM, small test tools and a runtime builder."""

from __future__ import annotations

import json
import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from pydantic import Field

from edge_agent.agent.runtime import AgentRuntime
from edge_agent.agent.trajectory import AgentEvent
from edge_agent.clock import Clock
from edge_agent.config import AgentSettings
from edge_agent.filestore import FileStore
from edge_agent.llm.base import MeteredLLM
from edge_agent.llm.scripted import ScriptedLLM, ScriptExhausted
from edge_agent.toolkit import ToolArgs, ToolContext, ToolError, ToolRegistry, tool

NOW = "2020-06-08T09:00:00-04:00"


class HistArgs(ToolArgs):
    site_name: str
    asset_names: list[str] = Field(..., min_length=1)
    sensor_name: str
    start: str
    final: str


@tool("sites", "List the sites.")
def fake_sites(args, ctx: ToolContext) -> str:
    name = ctx.files.write_json([{"site_name": "POKMAIN"}, {"site_name": "RCHMAIN"}], "sites")
    return f"found 2 sites, listed in file {name}: POKMAIN, RCHMAIN"


@tool("histories", "Get sensor histories of assets.", HistArgs)
def fake_histories(args: HistArgs, ctx: ToolContext) -> str:
    for asset in args.asset_names:
        if asset not in ("Chiller 6", "Chiller 9"):
            raise ToolError(f"no asset named {asset!r} at {args.site_name}; closest: Chiller 6, Chiller 9")
    rows = [{"asset": a, "sensor": args.sensor_name, "ts": args.start, "val": 1.0} for a in args.asset_names]
    name = ctx.files.write_json(rows, "histories")
    return f"found {len(rows)} values, written to {name}"


def registry() -> ToolRegistry:
    return ToolRegistry([fake_sites, fake_histories])


def step(thought: str, action: str, args: dict) -> str:
    return f"Thought: {thought}\nAction: {action}\nAction Input: {json.dumps(args)}"


def finish(answer: str, thought: str = "I have the answer.") -> str:
    return step(thought, "Finish", {"answer": answer})


def review_json(status: str, reasoning: str = "checked", suggestions: str = "") -> str:
    return json.dumps({"status": status, "reasoning": reasoning, "suggestions": suggestions})


def reflect_json(diagnosis: str = "It stopped early.", plan: str = "Do every part, then Finish.") -> str:
    return json.dumps({"diagnosis": diagnosis, "plan": plan})


DISTILL_OK = json.dumps(
    {"sites": ["POKMAIN"], "assets": ["Chiller 6"], "sensors": ["Tonnage"], "goal": "get tonnage", "parts": []}
)


class RoleScript:
    """Replies per role, in order; a callable reply gets (prompt, role, constraint)."""

    def __init__(self, **by_role: list):
        self.by_role = {k.replace("_", "-"): list(v) for k, v in by_role.items()}

    def __call__(self, prompt, role, constraint):
        queue = self.by_role.get(role)
        if not queue:
            raise ScriptExhausted(f"no scripted reply left for a {role!r} call")
        reply = queue.pop(0)
        return reply(prompt, role, constraint) if callable(reply) else reply


@dataclass
class Harness:
    rt: AgentRuntime
    llm: ScriptedLLM
    metered: MeteredLLM
    events: list[AgentEvent] = field(default_factory=list)

    def roles(self) -> list[str]:
        return self.llm.roles()

    def prompts(self, role: str):
        return [p for r, p, _ in self.llm.prompts if r == role]


def harness(
    tmp_path: Path,
    script: Callable,
    *,
    strategy: str = "reactxen",
    tools: ToolRegistry | None = None,
    cancel: threading.Event | None = None,
    **agent,
) -> Harness:
    settings = AgentSettings(strategy=strategy, **{"max_steps": 4, "max_trials": 3, **agent})
    llm = ScriptedLLM(script)
    metered = MeteredLLM(llm)
    events: list[AgentEvent] = []
    ctx = ToolContext(files=FileStore(tmp_path / "files"), clock=Clock(NOW), cancel=cancel or threading.Event())
    rt = AgentRuntime(llm=metered, tools=tools or registry(), ctx=ctx, settings=settings, emit=events.append)
    return Harness(rt=rt, llm=llm, metered=metered, events=events)


#: a small POKMAIN-style catalog: the linking (not patterns) names what a question names
PLANT = None


def ground(h: Harness, question: str):
    """Link `question` to a small POKMAIN-style catalog, as `xen.ground` does with the SkySpark's, for tests that
    call distill or review directly."""
    from edge_agent.grounding.catalog import Catalog
    from edge_agent.grounding.run import Grounding

    global PLANT
    if PLANT is None:
        chiller = ["Tonnage", "Power", "Chilled Water Supply Temp"]
        PLANT = Catalog.of(
            {
                "POKMAIN": {
                    "Chiller 3": chiller,
                    "Chiller 6": chiller,
                    "Chiller 9": chiller,
                    "B705 AHU 1": ["Supply Air Temp", "Supply Fan Speed"],
                    "B020_Total": ["Power", "Energy"],
                    "B020 CWP 1": ["Power"],
                }
            }
        )
    h.rt.grounding = Grounding.build(question, PLANT, h.rt.ctx.clock.now())
    return h.rt.grounding
