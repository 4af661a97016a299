"""The cost model: how long an answer would take on a reference gateway, and where this machine's time went.

On a gateway CPU an answer's time is about `evaluated / pp_rate + generated / tg_rate`: prompt tokens
actually evaluated (after KV prefix reuse) at the board's prompt-processing rate, plus generated tokens
at its generation rate. Generated tokens that the constraint fixed (`Usage.forced_tokens`: structure such
as "\nAction Input: {", or an answer written by code) are evaluated in a batch without sampling, so they
count at the prompt rate. A reply's last tokens after its last sampled one (`Usage.tail_tokens`: typically
a whole code-written action or answer) are not evaluated by that call at all: the next step's prompt
evaluates them (counted in its `evaluated_tokens`), or nobody does (the end of a Finish), so they count 0.
The rates of a few reference boards, each figure with its public source, live
in `bench/gateways.yaml` (`GatewayProfiles`). `project_seconds` adds the measured non-LLM time (tools,
Python) of the run as it was measured here. `TimeSplit` is the measured split of a run's wall time on
this machine: prompt eval, generation, KV state save/restore, tools and the rest (Python).
"""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

from edge_agent import PROJECT_ROOT
from edge_agent.config import read_yaml_model

PROFILES_FILE = PROJECT_ROOT / "bench" / "gateways.yaml"


class ProfileError(ValueError):
    """The profiles file cannot be read or does not match the format, or a profile is unknown."""


class FigureSource(BaseModel):
    """Where a gateway profile's figure comes from: measured exactly, on a close machine, or derived."""

    model_config = ConfigDict(extra="forbid")

    basis: Literal["exact", "close", "derived"]
    url: str = Field(..., pattern=r"^https?://")
    note: str = Field(..., min_length=1, description="what was measured, or how the figure was derived")


class GatewayProfile(BaseModel):
    """One reference board running an 8B Q4_K_M model: its prompt-eval and generation rates."""

    model_config = ConfigDict(extra="forbid")

    name: str = Field(..., pattern=r"^[a-z0-9][a-z0-9_-]*$")
    label: str
    backend: str
    model: str
    pp_tps: float = Field(..., gt=0, description="prompt processing, tokens/s")
    pp_source: FigureSource
    tg_tps: float = Field(..., gt=0, description="text generation, tokens/s")
    tg_source: FigureSource

    def llm_seconds(self, evaluated: int | float, generated: int | float) -> float:
        return evaluated / self.pp_tps + generated / self.tg_tps


class GatewayProfiles(BaseModel):
    model_config = ConfigDict(extra="forbid")

    default: str
    profiles: list[GatewayProfile] = Field(..., min_length=1)

    @model_validator(mode="after")
    def _names(self) -> GatewayProfiles:
        names = [p.name for p in self.profiles]
        if len(set(names)) != len(names):
            raise ValueError(f"duplicate profile names in {names}")
        if self.default not in names:
            raise ValueError(f"default {self.default!r} is not one of the profiles {names}")
        return self

    @property
    def names(self) -> list[str]:
        return [p.name for p in self.profiles]

    def get(self, name: str | None = None) -> GatewayProfile:
        name = name or self.default
        for profile in self.profiles:
            if profile.name == name:
                return profile
        raise ProfileError(f"unknown gateway profile {name!r}; known: {', '.join(self.names)}")


def load_profiles(path: Path | str | None = None) -> GatewayProfiles:
    path = Path(path) if path else PROFILES_FILE
    return read_yaml_model(path, GatewayProfiles, ProfileError, "gateway profiles file", "a mapping with `profiles`")


@lru_cache(maxsize=4)
def _cached(path: str) -> GatewayProfiles | None:
    try:
        return load_profiles(path)
    except ProfileError:
        return None


def reference_profiles() -> GatewayProfiles | None:
    """The project's profiles file, read once; None when it is missing or broken (a deployed
    gateway without `bench/`): projections are then simply left out."""
    return _cached(str(PROFILES_FILE))


def project_seconds(
    profile: GatewayProfile,
    evaluated: int | float,
    generated: int | float,
    other_s: float = 0.0,
    forced: int | float = 0,
    tail: int | float = 0,
    tail_forced: int | float = 0,
) -> float:
    """Projected seconds on `profile`: the LLM part at the board's rates (`forced` of the `generated`
    tokens at the prompt rate; the `tail` never evaluated, `tail_forced` of it forced, not at all) plus
    `other_s` (non-LLM time as measured, e.g. tools and Python)."""
    forced = min(max(0, forced), generated)
    tail_forced = min(max(0, tail_forced), forced)
    tail_sampled = min(max(0, tail - tail_forced), generated - forced)
    llm = profile.llm_seconds(evaluated + forced - tail_forced, generated - forced - tail_sampled)
    return llm + max(0.0, other_s)


def project_all(profiles: GatewayProfiles | None, *counts: float) -> dict[str, float]:
    """`project_seconds` on every profile (`counts`: its arguments after the profile), rounded; {} without profiles."""
    if profiles is None:
        return {}
    return {p.name: round(project_seconds(p, *counts), 2) for p in profiles.profiles}


class TimeSplit(BaseModel):
    """Where a run's wall time went on this machine, in milliseconds (`python` is the rest)."""

    eval_ms: float = 0.0
    gen_ms: float = 0.0
    state_ms: float = 0.0
    tool_ms: float = 0.0
    python_ms: float = 0.0

    @classmethod
    def of(cls, wall_ms: float, eval_ms: float, gen_ms: float, state_ms: float, tool_ms: float) -> TimeSplit:
        parts = [max(0.0, x) for x in (eval_ms, gen_ms, state_ms, tool_ms)]
        return cls(
            eval_ms=round(parts[0], 1),
            gen_ms=round(parts[1], 1),
            state_ms=round(parts[2], 1),
            tool_ms=round(parts[3], 1),
            python_ms=round(max(0.0, wall_ms - sum(parts)), 1),
        )

    @property
    def other_s(self) -> float:
        """The non-LLM time (tools and Python), the part a projection keeps as measured."""
        return (self.tool_ms + self.python_ms) / 1000.0


def run_costs(trials, total, wall_s: float, profiles: GatewayProfiles | None = None) -> dict:
    """RunMetrics fields for one run: the time split and the projected seconds per profile.

    `trials` are the run's `Trial`s, `total` the `Usage` summed over all its LLM calls. Tool time is
    each tool step's time minus the LLM time inside that step (so it also holds the step's own
    bookkeeping, a few ms)."""
    tool_ms = sum(max(0.0, s.ms - s.usage.ms) for t in trials for s in t.steps if s.kind == "tool")
    split = TimeSplit.of(wall_s * 1000.0, total.eval_ms, total.gen_ms, total.state_ms, tool_ms)
    projected = project_all(
        profiles if profiles is not None else reference_profiles(),
        total.evaluated_tokens,
        total.generated_tokens,
        split.other_s,
        total.forced_tokens,
        total.tail_tokens,
        total.tail_forced,
    )
    return {**split.model_dump(), "projected_s": projected}
