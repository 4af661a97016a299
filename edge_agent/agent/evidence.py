"""The Review's evidence: what code knows of a finished trial, and the checks that failed on its answer.

`gather_evidence` reads the trial's tool calls and whether they succeeded, the files really present in the run's file
store and what the question names (`distill.mentioned`, the run's `Grounding`); each failed check is a `Finding` with
the worst verdict it still allows (its cap; see `agent.review` for how the cap and the model's verdict combine, and
docs/reactxen.md, "How review evidence works"). `agent.react` asks it too before writing an answer in hand.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from edge_agent.agent.distill import mentioned
from edge_agent.agent.runtime import AgentRuntime
from edge_agent.agent.steps import one_line
from edge_agent.agent.trajectory import Distilled, ReviewStatus, StepRecord, Trial
from edge_agent.grounding.question import wants_single_file
from edge_agent.grounding.readas import fix_for
from edge_agent.grounding.run import Grounding

RANK: dict[str, int] = {"Not Accomplished": 0, "Partially Accomplished": 1, "Accomplished": 2}

_FILE_RE = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]*\.json\b")
_CLAIMS_FILE_RE = re.compile(r"\b(?:file|files|downloaded|saved|written|stored|exported)\b", re.I)
_MISSING_RE = re.compile(
    r"\b(?:not|no|none|missing|unknown|cannot|can't|couldn't|could not|does ?n[o']t|"
    r"doesn't|isn't|unavailable|failed)\b",
    re.I,
)


@dataclass
class Finding:
    cap: ReviewStatus  # the best verdict this finding still allows
    problem: str
    fix: str
    #: a fact about the run that holds the answer back whatever the strategy (a series asked and never read, an asset
    #: named and never covered, no call at all, a file never written); False for a reading of the answer's words
    #: ("states nothing a tool returned"), which only guides the Review
    holds: bool = True


@dataclass
class Evidence:
    """What the runtime knows about a finished trial, and the checks that failed."""

    calls: list[str] = field(default_factory=list)  # "histories {...} -> ok"
    files_written: list[str] = field(default_factory=list)
    answer_files: dict[str, bool] = field(default_factory=dict)  # named in the answer -> exists
    findings: list[Finding] = field(default_factory=list)

    @property
    def cap(self) -> ReviewStatus:
        return min((f.cap for f in self.findings), key=RANK.__getitem__, default="Accomplished")

    def facts(self) -> str:
        lines = []
        if self.calls:
            lines.append(f"- tool calls ({len(self.calls)}): " + "; ".join(self.calls[-8:]))
        else:
            lines.append("- no tool was called: the answer was written without any tool result")
        lines.append("- files in this run's file store: " + (", ".join(self.files_written[-6:]) or "none"))
        for name, exists in self.answer_files.items():
            lines.append(f"- the answer names {name}: " + ("it exists" if exists else "NO such file exists"))
        for f in self.findings:
            lines.append(f"- check failed: {f.problem}")
        if not self.findings:
            lines.append("- every automatic check passed")
        return "\n".join(lines)


def _values(value: Any) -> Iterable[str]:
    if isinstance(value, dict):
        for v in value.values():
            yield from _values(v)
    elif isinstance(value, (list, tuple)):
        for v in value:
            yield from _values(v)
    elif value is not None:
        yield str(value)


def _name_pattern(name: str) -> re.Pattern[str]:
    parts = [re.escape(p) for p in re.split(r"[\s_\-]+", name.strip().lower()) if p]
    return re.compile(r"(?<![a-z0-9])" + r"[\s_\-]*".join(parts) + r"(?![0-9])")


def _mentions(texts: Iterable[str], name: str) -> bool:
    pattern = _name_pattern(name)
    return any(pattern.search(t.lower()) for t in texts)


def _has_date_arg(action_input: Any) -> bool:
    return isinstance(action_input, dict) and any(
        k.lower() in ("start", "end", "final", "date", "start_date", "end_date") for k in action_input
    )


def _reads_period(action_input: Any, g: Grounding | None) -> bool:
    """A call with date arguments; where the grounding worked the period out, those of that period (the
    values the step constraint allows), so a call over another day covers nothing."""
    if not _has_date_arg(action_input):
        return False
    if g is None or g.start is None:
        return True
    wanted = {_moment(g.start)} | ({_moment(g.final)} if g.final and g.final != g.start else set())
    return wanted <= {_moment(v) for v in _values(action_input)}


def _moment(text: str) -> datetime | str:
    """An ISO date or date-time as a wall-clock moment ("2020-06-01" is "2020-06-01T00:00:00"; the offset
    is dropped: the period and the call are both in the site's time); other text as it is."""
    try:
        return datetime.fromisoformat(text.strip()).replace(tzinfo=None)
    except ValueError:
        return text


def gather_evidence(question: str, trial: Trial, rt: AgentRuntime, distilled: Distilled | None = None) -> Evidence:
    """Run the deterministic checks over a finished trial (see the module docstring)."""
    ev = Evidence()
    answer = trial.answer or ""
    tool_steps = [s for s in trial.steps if s.kind == "tool" and s.action]
    for s in tool_steps:
        ev.calls.append(
            f"{s.action} {one_line(_short_args(s.action_input), 120)} -> "
            f"{'ok' if s.ok else 'error: ' + one_line(s.observation, 80)}"
        )
    files = rt.ctx.files
    try:
        ev.files_written = files.names()
    except OSError:
        ev.files_written = []
    for name in dict.fromkeys(_FILE_RE.findall(answer)):
        ev.answer_files[name] = files.exists(name)

    facts = mentioned(question, rt.ctx.clock.now())
    g = rt.grounding
    if g is not None and g.links is not None:  # the assets the SkySpark has, as it names them ("B705 AHU 1")
        facts = facts.model_copy(update={"assets": list(g.links.assets), "sites": list(g.links.sites)})
    elif distilled is not None:
        facts = facts.model_copy(
            update={"assets": _union(facts.assets, distilled.assets), "sites": _union(facts.sites, distilled.sites)}
        )
    ok_steps = [s for s in tool_steps if s.ok]
    period_asked = facts.start is not None

    missing = [n for n, exists in ev.answer_files.items() if not exists]
    if missing:
        ev.findings.append(
            Finding(
                "Not Accomplished",
                f"the answer names {', '.join(missing)}, but no such file was written",
                "name only files that a tool reported writing",
            )
        )
    elif _CLAIMS_FILE_RE.search(answer) and not ev.files_written and not _MISSING_RE.search(answer):
        ev.findings.append(
            Finding(
                "Not Accomplished",
                "the answer speaks of a file or download, but no file was written in this run",
                "call the tool that writes the data before finishing",
            )
        )
    refused = g.unsupported(trial.number, answer, trial.claims) if g is not None and answer else ""
    if refused:  # what code will not deliver as answered is no accomplished answer, whatever the model thinks of it
        ev.findings.append(
            Finding(
                "Partially Accomplished",
                f"code cannot stand behind this answer: {refused}",
                (fix_for(g, trial.number) if g is not None else "")
                or "answer with what this trial's tool calls found, for every part of the question",
            )
        )
    prefix = g.missing_prefix() if g is not None else ""
    # a question about what the SkySpark lacks, and nothing it has, is answered by the linking fact alone
    from_links = g is not None and bool(prefix) and answer.startswith(prefix) and g.answered_by_links()
    if not tool_steps and (facts.assets or facts.sites or period_asked) and not from_links:
        ev.findings.append(
            Finding(
                "Not Accomplished",
                "the answer was given without calling any tool",
                "look the data up with the tools before calling Finish",
            )
        )
    elif tool_steps:
        data_steps = [s for s in ok_steps if _reads_period(s.action_input, g)] if period_asked else ok_steps
        for asset, sensor in _unread_sensors(g, data_steps) if period_asked and not from_links else []:
            on = f" of {asset}" if asset else ""
            ev.findings.append(
                Finding(
                    "Partially Accomplished",
                    f"the question asks for {sensor}{on}, but no data call read it",
                    f"read {sensor}{on} as well",
                )
            )
        for asset in facts.assets:
            covered = any(_mentions(_values(s.action_input), asset) for s in data_steps)
            tried = any(_mentions(_values(s.action_input), asset) for s in tool_steps)
            reported = tried and _mentions([answer], asset) and _MISSING_RE.search(answer)
            if not covered and not reported:
                what = "data call over the period asked" if period_asked else "successful tool call"
                ev.findings.append(
                    Finding(
                        "Partially Accomplished",
                        f"{asset} is named in the question but no {what} covered it",
                        f"get the data of {asset} as well",
                    )
                )
        from_tools = [c for c in trial.claims if c.source == "observation"]
        if (
            ok_steps
            and g is not None
            and g.catalog is not None
            and not from_tools
            and not g.answer_prefix(trial.number)
        ):
            ev.findings.append(
                Finding(
                    "Partially Accomplished",
                    "the answer states nothing that a tool returned",
                    "answer with the names and figures of the Observations",
                    holds=False,
                )
            )
        elif g is not None and g.catalog is not None and period_asked and data_steps and not from_links:
            answering = {s.index for s in ok_steps if (t := rt.tools.get(s.action)) is not None and t.answers}
            if not _states_data(trial, {s.index for s in data_steps} | answering, f"{question} {g.facts}"):
                ev.findings.append(
                    Finding(
                        "Partially Accomplished",
                        "the answer gives no figure or file of the data that was read",
                        "answer with the figures of the data call's Observation",
                        holds=False,
                    )
                )
        if len(facts.assets) > 1 and wants_single_file(question) and not _one_file_for_all(facts.assets, ok_steps):
            ev.findings.append(
                Finding(
                    "Partially Accomplished",
                    "one file was asked for, but no file holds every asset",
                    "call histories once with every asset in asset_names, or jsonmerge "
                    "the files into one, and name that file in the answer",
                )
            )
    return ev


def _unread_sensors(g: Grounding | None, data_steps: Sequence[StepRecord]) -> list[tuple[str, str]]:
    """(asset, sensor) pairs the question asks for that no data call read: every sensor it names on every
    asset it names that has it (the SkySpark's names, as linked), or the sensor alone where it names no
    asset. Pairs the SkySpark lacks are facts of the answer, not reads to make."""
    if g is None or g.links is None or not g.links.sensors:
        return []
    scope = g.scope()
    in_play = {x for site in scope.sites.values() for x in site.sensors} if scope is not None else set()
    # the series the scope kept: "guide brg vib … over 4.5 mm/s" reads Vibration, the one the limit's unit fits, not
    # every series a loose word linked
    sensors = [s for s in g.links.sensors if s in in_play] or g.links.sensors
    lacking = {(m.asset, m.text) for m in g.links.missing if m.kind == "sensor"}
    pairs = [(a, s) for s in sensors for a in (g.links.assets or [""]) if (a, s) not in lacking]

    def read(step: StepRecord, asset: str, sensor: str) -> bool:
        values = [v.lower().strip() for v in _values(step.action_input)]
        return any(_name_pattern(sensor).fullmatch(v) for v in values) and (not asset or _mentions(values, asset))

    return [(a, s) for a, s in pairs if not any(read(st, a, s) for st in data_steps)]


def _states_data(trial: Trial, read: set[int], asked: str) -> bool:
    """The answer states a file or a figure that a data call of the trial (steps `read`) returned: not a
    number the question or facts hold already ("13" of "January 13"), nor one inside a name ("Chiller 6")."""
    names = [c.text for c in trial.claims if c.what == "name"]
    for c in trial.claims:
        if c.source != "observation" or c.trial != trial.number or c.step not in read:
            continue
        if c.what == "file":
            return True
        if (
            c.what == "number"
            and not any(c.text in n.split() for n in names)
            and not re.search(rf"(?<![\w.]){re.escape(c.text)}(?![\w.])", asked)
        ):
            return True
    return False


def _union(a: list[str], b: list[str]) -> list[str]:
    out = list(a)
    for name in b:
        if not any(_name_pattern(name).fullmatch(x.lower()) for x in out):
            out.append(name)
    return out


def _short_args(action_input: Any) -> str:
    if isinstance(action_input, dict):
        return ", ".join(f"{k}={v}" for k, v in action_input.items())
    return str(action_input)


def _one_file_for_all(assets: list[str], ok_steps: Sequence[StepRecord]) -> bool:
    """A successful call that wrote a file and covers every asset, or a merge of two files."""
    for s in ok_steps:
        values = list(_values(s.action_input))
        if all(_mentions(values, a) for a in assets) and _FILE_RE.search(s.observation or ""):
            return True
        if sum(1 for v in values if _FILE_RE.fullmatch(v.strip())) >= 2 and _FILE_RE.search(s.observation or ""):
            return True
    return False
