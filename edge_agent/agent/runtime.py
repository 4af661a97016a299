"""What every agent role needs to do its work, bundled once per request."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from edge_agent.agent.trajectory import AgentEvent
from edge_agent.config import AgentSettings
from edge_agent.grounding.catalog import Catalog
from edge_agent.grounding.provenance import mask
from edge_agent.grounding.run import Grounding
from edge_agent.llm.base import LLM
from edge_agent.toolkit import ToolContext, ToolRegistry


@dataclass
class AgentRuntime:
    llm: LLM  # usually a MeteredLLM, so every call is accounted for
    tools: ToolRegistry
    ctx: ToolContext
    settings: AgentSettings
    examples: str = ""  # rendered Tiny Trajectory Store examples (stable across steps and trials)
    core_examples: str = ""  # the start of `examples` that every question shares (`TrajectoryStore.render_core`)
    emit: Callable[[AgentEvent], None] = field(default=lambda event: None)
    #: the SkySpark's catalog for this run (`edge_agent.grounding.catalog.Catalog`); None: no grounding in names
    catalog: Callable[[], Catalog] | None = None
    #: set by `xen.solve` before the first step (`edge_agent.grounding.run.Grounding`)
    grounding: Grounding | None = None

    def vetted(self, text: str) -> str:
        """`text` (a review, a reflection) as it may be published: each figure or name in it that no evidence
        of the run held is masked (`grounding.provenance.mask`)."""
        g = self.grounding
        return mask(text, g.unverified(text)) if g is not None and text else text

    @property
    def cancelled(self) -> bool:
        return self.ctx.cancel.is_set()
