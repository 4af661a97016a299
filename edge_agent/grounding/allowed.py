"""What a run's grounding allows one step to write, as one typed value (`Grounding.for_step`).

The step grammar (`agent.steps.step_constraint`) and the grounded answer (`agent.react`: the Finish answer code
writes, its length, its checks) read the same value, so the two cannot disagree on what the answer must start
with or which tools are offered.
"""

from __future__ import annotations

from dataclasses import dataclass

from edge_agent.grounding.scope import Scope


@dataclass(frozen=True)
class GroundedAnswer:
    """What a Finish answer may write: figures, codes and file names only from `tokens` (the evidence's, less those
    of refused answers: `provenance.answer_pattern`), starting with `prefix` where code wrote one (the facts of
    what the SkySpark lacks, the heads of the calls that answer the question); `closed`: the prefix is the whole
    answer."""

    tokens: frozenset[str]
    prefix: str = ""
    closed: bool = False


@dataclass(frozen=True)
class StepGrounding:
    """What the grounding allows the next step of one trial to write."""

    #: the names and period tool arguments are limited to (None: no catalog, nothing limited)
    scope: Scope | None = None
    #: what a Finish answer may write (None: anything)
    answer: GroundedAnswer | None = None
    #: the tools worth offering (None: all), `Grounding.offered`
    offered: tuple[str, ...] | None = None
    #: a part of the question no call has answered yet: Finish waits while another tool is offered
    hold_finish: bool = False
    #: the question is linked and names nothing the SkySpark lacks: Finish waits for a first call
    all_found: bool = False
