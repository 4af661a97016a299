"""The frame of a run as records, said back: `Slot` (where one slot came from), `PartRead` (one part as read and
answered) and `ReadAs` (the Read-as line, each part, the slots nothing settled).

Plain pydantic models and nothing else: the run's result (`agent.trajectory.RunResult.reading`), the MQTT result and
the run log carry them, and the daemon imports them at start-up. So this module loads no table: the readers that
fill them (`grounding.question`, `grounding.readas`) compile the forms table at import (~0.5 s of CPU), which a
daemon that only accepts and stores requests does not need before its first reply (issue 42).
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, Field


class Slot(BaseModel):
    """Where one slot of a part's frame came from: `words` (the question's words, `said`), `requester` (asked back:
    the person who sent the question chose among code's choices), `rule` (a documented
    default, `said` names it: "highest first"), `catalog` (the only candidate), `model` (chosen by the model among
    candidates code enumerated) or `open` (the question says `said`, and code does not know which value it means)."""

    source: Literal["words", "requester", "rule", "catalog", "model", "open"]
    said: str = ""


class PartRead(BaseModel):
    """One part of the question as it was read and answered."""

    text: str  # the part in the operator's words
    ask: str
    form: str
    tool: str | None = None  # the call that answered it (None: none did)
    arguments: dict[str, Any] = Field(default_factory=dict)
    slots: dict[str, Slot] = Field(default_factory=dict)
    said: str = ""  # this part's piece of the line


class ReadAs(BaseModel):
    """The frame of a run, said back: the line, each part, and the slots nothing settled."""

    line: str = ""
    intent: str = "read"
    parts: list[PartRead] = Field(default_factory=list)
    open: list[str] = Field(default_factory=list)  # "order: 'quietest'"
