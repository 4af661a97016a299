"""The Review agent: is a finished trial's answer really Accomplished, Partially Accomplished or Not Accomplished?

Two sources are combined (see docs/reactxen.md, "How review evidence works"):

1. **Evidence** gathered by code from what the runtime knows — the trial's tool calls and whether
   they succeeded, the files really present in the run's file store, the entities and period the
   question names (`distill.mentioned`). Each failed check is a `Finding` with the worst verdict it
   allows (a *cap*): the answer names a file that does not exist, or claims a download when no file
   was written → Not Accomplished; no tool was called for a question about named equipment or a
   period → Not Accomplished; an asset the question names appears in no successful call (and the
   answer does not report it missing), or one file was asked for and none holds every asset →
   Partially Accomplished.
2. **The model's verdict** (role "review"), constrained to the `ReviewReply` JSON schema and given
   the evidence as "facts the system recorded", so even a small model sees the early victory. It is
   asked only where the evidence does not settle the verdict (`settled`): not when a check failed (the
   model could only lower the verdict, and the next step is the same for Partially and Not
   Accomplished), nor when the answer is the one code wrote from the trial's calls and every check
   passed. A data question's answer must also give a figure or file of a data call.

The final verdict is the *worse* of the two: evidence can only lower the model's verdict, never
raise it. A reply that repeats the prompt's worked example or names what the trial never saw
(`echo`) is not used: the verdict is then written by code from the evidence alone (`by="code"`,
`copied=True`), as it is when the model gives no valid reply after one retry. When evidence lowers
the verdict, its reasons lead the reasoning and its fixes lead the suggestions, so the next trial
gets concrete feedback.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from pydantic import BaseModel, Field

from edge_agent.agent.distill import mentioned, render_distilled
from edge_agent.agent.echo import copies_example, foreign
from edge_agent.agent.prompting import load_prompt, make_prompt, trial_scratchpad
from edge_agent.agent.runtime import AgentRuntime
from edge_agent.agent.steps import one_line
from edge_agent.agent.structured import ask_json
from edge_agent.agent.trajectory import AgentEvent, Distilled, Review, ReviewStatus, StepRecord, Trial
from edge_agent.grounding.question import wants_single_file
from edge_agent.grounding.run import Grounding
from edge_agent.llm.base import Prompt

MAX_TOKENS = 220
SCRATCHPAD_CHARS = 2400
RANK: dict[str, int] = {"Not Accomplished": 0, "Partially Accomplished": 1, "Accomplished": 2}


def pick_answer(answered: Sequence[bool], reviews: Sequence[str | None]) -> int | None:
    """Which trial's answer to return (index): among the trials that answered, the best reviewed (no
    review counts as Partially Accomplished), the latest on ties; None if none answered."""
    scored = [
        (RANK[r] if r else RANK["Partially Accomplished"], i) for i, (ok, r) in enumerate(zip(answered, reviews)) if ok
    ]
    return max(scored)[1] if scored else None


_FILE_RE = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]*\.json\b")
_CLAIMS_FILE_RE = re.compile(r"\b(?:file|files|downloaded|saved|written|stored|exported)\b", re.I)
_MISSING_RE = re.compile(
    r"\b(?:not|no|none|missing|unknown|cannot|can't|couldn't|could not|does ?n[o']t|"
    r"doesn't|isn't|unavailable|failed)\b",
    re.I,
)


class ReviewReply(BaseModel):
    """The model's reply (its JSON schema is the constraint); shorter than `Review` to bound generation."""

    status: ReviewStatus
    reasoning: str = Field(..., max_length=240)
    suggestions: str = Field("", max_length=240)


@dataclass
class Finding:
    cap: ReviewStatus  # the best verdict this finding still allows
    problem: str
    fix: str


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
    sensors = g.links.sensors
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


def review_prompt(question: str, trial: Trial, evidence: Evidence) -> Prompt:
    steps = trial_scratchpad(trial, max_chars=SCRATCHPAD_CHARS).strip() or "(no steps)"
    user = (
        f"Question: {question.strip()}\n\nSteps:\n{steps}\n\nFinal answer: {trial.answer or '(none)'}\n\n"
        f"Facts the system recorded:\n{evidence.facts()}"
    )
    return make_prompt("review", user=user)


def combine(reply: ReviewReply | None, evidence: Evidence, failure: str = "") -> Review:
    """The worse of the model's verdict and the evidence cap, with the evidence's reasons first."""
    if reply is None:
        reasoning = (
            f"The review could not be produced ({failure or 'no valid reply'}), so the task is not counted as done."
        )
        reasoning = " ".join([*(f.problem[:1].upper() + f.problem[1:] + "." for f in evidence.findings), reasoning])
        return Review(
            status="Not Accomplished",
            reasoning=_cut(reasoning, 600),
            suggestions=_cut(" ".join(f.fix[:1].upper() + f.fix[1:] + "." for f in evidence.findings), 600),
        )
    status = reply.status
    reasoning, suggestions = reply.reasoning.strip(), reply.suggestions.strip()
    if RANK[evidence.cap] < RANK[status]:
        status = evidence.cap
        problems = " ".join(f.problem[:1].upper() + f.problem[1:] + "." for f in evidence.findings)
        fixes = " ".join(f.fix[:1].upper() + f.fix[1:] + "." for f in evidence.findings)
        reasoning = f"{problems} (The reviewer model said: {reply.status}.)"
        suggestions = f"{fixes} {suggestions}".strip()
    return Review(status=status, reasoning=_cut(reasoning or status, 600), suggestions=_cut(suggestions, 600))


def _cut(text: str, limit: int) -> str:
    return one_line(text, limit)


def code_verdict(evidence: Evidence, why: str) -> Review:
    """The verdict written by code from the evidence alone (the model's reply was unusable)."""
    problems = " ".join(f.problem[:1].upper() + f.problem[1:] + "." for f in evidence.findings)
    fixes = " ".join(f.fix[:1].upper() + f.fix[1:] + "." for f in evidence.findings)
    reasoning = (
        problems
        or "The system's checks found every named asset covered, every file named in the "
        "answer written and every figure of the answer in an Observation."
    )
    return Review(
        status=evidence.cap,
        reasoning=_cut(f"{reasoning} ({why})", 600),
        suggestions=_cut(fixes, 600),
        by="code",
        copied=why.startswith("the reviewer"),
    )


def trial_texts(question: str, trial: Trial, distilled: Distilled | None) -> list[str]:
    """Everything a judgement of the trial may refer to: question, facts, steps and the answer."""
    texts = [question, trial.answer or "", render_distilled(distilled) if distilled is not None else ""]
    for s in trial.steps:
        texts += [s.thought, s.action, json.dumps(s.action_input, ensure_ascii=False), s.observation]
    return texts


def echo_of(text: str, role_prompt: str, texts: list[str], rt: AgentRuntime) -> str:
    """Why a role's reply is an echo ('' if it is not): it repeats the worked example, or names what
    the trial never saw."""
    if copies_example(text, load_prompt(role_prompt)):
        return f"the {role_prompt}er repeated its prompt's example"
    names = rt.grounding.names() if rt.grounding is not None else set()
    made_up = foreign(text, texts, names)
    if made_up:
        return f"the {role_prompt}er named {', '.join(made_up[:3])}, which the attempt never saw"
    return ""


def settled(trial: Trial, evidence: Evidence, rt: AgentRuntime) -> str:
    """Why the evidence alone decides the verdict ('' where the model is asked): a check failed (the model
    could only lower the verdict further, which changes no next step), or the answer is the one code wrote
    from the trial's calls (`Grounding.answer_closed`) and every check passed."""
    if evidence.findings:
        return "decided by the checks; the review model was not asked"
    g = rt.grounding
    prefix = g.answer_prefix(trial.number) if g is not None else ""
    if (
        g is not None
        and prefix
        and g.answer_closed(trial.number)
        and (trial.answer or "").strip() in (prefix, prefix + ".")
    ):
        return "the answer was written by code from the tool results; the review model was not asked"
    return ""


def review(question: str, trial: Trial, rt: AgentRuntime, distilled: Distilled | None = None) -> Review:
    """Review a finished trial (one with an answer) and emit a `review` event. The model is asked only
    where the evidence does not settle the verdict (`settled`)."""
    evidence = gather_evidence(question, trial, rt, distilled)
    why = settled(trial, evidence, rt)
    reply = None
    if why:
        verdict = code_verdict(evidence, why)
    else:
        reply = ask_json(
            rt, review_prompt(question, trial, evidence), ReviewReply, role="review", max_tokens=MAX_TOKENS
        )
        why = (
            echo_of(
                f"{reply.value.reasoning} {reply.value.suggestions}",
                "review",
                trial_texts(question, trial, distilled) + [evidence.facts()],
                rt,
            )
            if reply.value
            else ""
        )
        if why or reply.value is None:
            verdict = code_verdict(evidence, why or f"the review model gave no valid reply: {'; '.join(reply.errors)}")
        else:
            verdict = combine(reply.value, evidence, "; ".join(reply.errors))
    model_status = reply.value.status if reply is not None and reply.value else None
    shown = rt.vetted(f"{verdict.status}: {verdict.reasoning}")
    rt.emit(
        AgentEvent(
            kind="review",
            trial=trial.number,
            text=shown,
            data={
                **verdict.model_dump(),
                "model_status": model_status,
                "evidence_cap": evidence.cap,
                "attempts": reply.attempts if reply is not None else 0,
            },
        )
    )
    return verdict
