"""The records of an agent run: steps, trials, verdicts, the final result and its metrics.

These pydantic models are the boundary between the agent, the run log, the CLI `--json`
output, the MQTT replies and the benchmark: one shape everywhere.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, Field

from edge_agent.failures import FailureReason
from edge_agent.filestore import FileInfo
from edge_agent.grounding.frame import ReadAs
from edge_agent.grounding.provenance import Claim, mask
from edge_agent.llm.base import Usage

StepKind = Literal["tool", "self_ask", "ask_requester", "finish", "invalid", "loop", "recovery", "failure"]
#: failed: something outside the gateway failed (`edge_agent.failures`): the trial ends at once
TrialOutcome = Literal["finished", "max_steps", "loop", "token_budget", "cancelled", "error", "failed"]
ReviewStatus = Literal["Accomplished", "Partially Accomplished", "Not Accomplished"]
#: failed: the run could not do its work because something outside the gateway failed (`RunResult.reason`)
#: answered: code closed every part of the question with the right measure (or wrote the answer from the catalog);
#: partial: some parts were established, others not (the answer says which); refused: the gateway will not do what
#: was asked (operate equipment, follow an instruction, a topic outside the data, forecast); gave_up: nothing the run
#: established answers it (`reason` says why); failed: something outside the gateway; cancelled; error: a bug
RunStatus = Literal["answered", "partial", "refused", "gave_up", "cancelled", "error", "failed"]


class StepRecord(BaseModel):
    index: int  # 1-based within the trial
    thought: str
    action: str
    action_input: Any = None
    observation: str = ""
    kind: StepKind = "tool"
    ok: bool = True
    usage: Usage = Usage()
    ms: float = 0.0
    #: figures and names the thought states that no evidence held when it was written (`Grounding.unverified`)
    unverified: list[str] = Field(default_factory=list)
    #: who wrote the step: the model, or code (a Finish whose action and answer nothing was left to choose)
    by: Literal["model", "code"] = "model"

    @property
    def shown_thought(self) -> str:
        """The thought as published (progress, live view): each unverified figure or name masked."""
        return mask(self.thought, self.unverified) if self.unverified else self.thought


class Review(BaseModel):
    """The Review agent's verdict on a finished trial (its JSON schema constrains the model)."""

    status: ReviewStatus
    reasoning: str = Field(..., max_length=600)
    suggestions: str = Field("", max_length=600)
    by: Literal["model", "code"] = "model"  # code: the model's reply was unusable or an echo
    copied: bool = False  # the model's reply echoed the prompt's example or named what the trial never saw


class Distilled(BaseModel):
    """The Distill agent's reading of the question before the first trial."""

    sites: list[str] = Field(default_factory=list)
    assets: list[str] = Field(default_factory=list)
    sensors: list[str] = Field(default_factory=list)
    start: str | None = None  # ISO 8601, resolved against the clock
    end: str | None = None
    period: str = ""  # the phrase start/end were resolved from ("last week"); start == end: an instant
    goal: str = ""
    parts: list[str] = Field(default_factory=list)
    missing: list[str] = Field(default_factory=list)  # "there is no asset Chiller 7 at POKMAIN; there are: ..."
    spelled: list[str] = Field(default_factory=list)  # '"Tonage" is Tonnage'
    #: the whole answer code wrote from the catalog before any step (a refusal, an existence yes/no): a fact of the run
    answered: str = ""


class Failure(BaseModel):
    """Something outside the gateway that ended a run (`edge_agent.failures.ExternalFailure`)."""

    reason: FailureReason
    message: str  # names the server or the path, and the error


class Trial(BaseModel):
    number: int  # 1-based
    steps: list[StepRecord] = Field(default_factory=list)
    answer: str | None = None
    outcome: TrialOutcome = "finished"
    review: Review | None = None
    reflection: str | None = None
    reflection_by: Literal["model", "code", ""] = ""
    reflection_copied: bool = False
    loops_caught: int = 0
    parse_failures: int = 0
    claims: list[Claim] = Field(default_factory=list)  # the answer's figures and names, with their sources
    ungrounded_answers: int = 0  # Finish answers refused because they stated what no source held
    invented_names: int = 0  # names in tool calls that the SkySpark does not have
    failure: Failure | None = None  # outcome failed: what failed

    @property
    def unverified_thoughts(self) -> int:
        """Steps whose thought stated a figure or name nothing held (masked wherever it is published)."""
        return sum(1 for s in self.steps if s.unverified)


class RunMetrics(BaseModel):
    """Per request: the columns of the paper's Table 3 and the KV-reuse figures."""

    completed_round1: bool = False
    completed_final: bool = False
    trials: int = 0
    reflections: int = 0
    llm_calls: int = 0
    tokens_sent: int = 0
    tokens_received: int = 0
    tokens_forced: int = 0  # of tokens_received, those the constraint fixed (evaluated in a batch, not sampled)
    tokens_tail: int = 0  # of tokens_received, each reply's last ones, never evaluated by that call (costmodel)
    tokens_tail_forced: int = 0  # of tokens_tail, the forced ones
    tokens_evaluated: int = 0
    trajectory_length: int = 0  # steps across all trials
    parse_failures: int = 0
    loops_caught: int = 0
    wall_s: float = 0.0
    # where wall_s went on this machine, in ms (python: the rest), and the projected seconds on each
    # reference gateway profile (bench/gateways.yaml; edge_agent/costmodel.py, docs/bench.md)
    eval_ms: float = 0.0
    gen_ms: float = 0.0
    state_ms: float = 0.0
    tool_ms: float = 0.0
    python_ms: float = 0.0
    projected_s: dict[str, float] = Field(default_factory=dict)
    calls_by_role: dict[str, int] = Field(default_factory=dict)  # react, self-ask, review, reflect, distill
    final_review: ReviewStatus | None = None  # the last trial's verdict (None: not reviewed)
    ungrounded_answers: int = 0  # Finish answers refused: they stated a figure or name no source held
    invented_names: int = 0  # names in tool calls that the SkySpark does not have
    unverified_thoughts: int = 0  # steps whose thought stated what nothing held (masked in progress)


class RunResult(BaseModel):
    run_id: str
    question: str
    strategy: str
    model: str
    now: str  # the clock the agent saw (ISO 8601)
    status: RunStatus
    answer: str | None = None
    files: list[FileInfo] = Field(default_factory=list)
    distilled: Distilled | None = None
    trials: list[Trial] = Field(default_factory=list)
    metrics: RunMetrics = RunMetrics()
    error: str | None = None
    #: status failed: what failed (`edge_agent.failures.FailureReason`: skyspark_unavailable, disk_full, …);
    #: `error` then names the server or the path and the error
    reason: str | None = None
    #: each figure and name of `answer` with the step (trial, step, tool) or fact it came from
    provenance: list[Claim] = Field(default_factory=list)
    #: how the question was read, said back (`grounding.frame.ReadAs`, written by `grounding.readas`: the line, each
    #: part, slots nothing settled)
    reading: ReadAs | None = None


class AgentEvent(BaseModel):
    """Progress while the agent works, for the CLI's live view and MQTT `progress` replies."""

    kind: Literal["distill", "trial_start", "step", "review", "reflect", "final"]
    trial: int = 0
    step: StepRecord | None = None
    text: str = ""
    data: dict[str, Any] = Field(default_factory=dict)
