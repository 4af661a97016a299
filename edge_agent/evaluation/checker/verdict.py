"""A task's verdict: the table that dispatches each kind of `expect` to its check (`_expect_items`), `check_task`,
`validate_task` and its probes, and `partial`, which runs the same table over what a partial answer established.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from edge_agent.evaluation.checker.base import (
    CheckResult,
    CheckStatus,
    Evidence,
    TaskVerdict,
    TruthError,
    list_entities,
)
from edge_agent.evaluation.checker.count import _check_count
from edge_agent.evaluation.checker.duration import _check_duration, expected_duration
from edge_agent.evaluation.checker.energy import _check_energy, expected_energy
from edge_agent.evaluation.checker.file import _check_file, expected_rows
from edge_agent.evaluation.checker.lists import _check_list, _mentions_all, _mentions_any
from edge_agent.evaluation.checker.missing import _check_missing, _confirm_missing
from edge_agent.evaluation.checker.not_recorded import _check_not_recorded, _confirm_not_recorded
from edge_agent.evaluation.checker.periods import _check_periods, _clear_periods
from edge_agent.evaluation.checker.ranks import _check_ranks, expected_ranking
from edge_agent.evaluation.checker.refuses import _check_refuses
from edge_agent.evaluation.checker.time_of_extreme import _check_time_of_extreme, expected_extreme
from edge_agent.evaluation.checker.value import _check_value, expected_value
from edge_agent.evaluation.checker.yes_no import _check_yes_no, expected_yes
from edge_agent.evaluation.tasks import CountCheck, Expect, PartialCheck, Task
from edge_agent.evaluation.truth import Truth


def _check_partial(spec: PartialCheck, ev: Evidence, truth: Truth) -> tuple[CheckStatus, str]:
    if ev.status is None:
        return "fail", "the run's final status is not known"
    if ev.status != "partial":
        return "fail", f"the run ended {ev.status}, not partial"
    if spec.established is None:
        return "pass", ""
    results = [_run(label, fn, sub, ev, truth) for label, fn, sub in _expect_items(spec.established)]
    bad = [r for r in results if not r.passed]
    if any(r.status == "error" for r in bad):
        raise TruthError("; ".join(f"{r.check}: {r.detail}" for r in bad if r.status == "error"))
    if bad:
        return "fail", "partial, but what it established is wrong: " + "; ".join(f"{r.check}: {r.detail}" for r in bad)
    return "pass", "; ".join(r.check for r in results)


def _run(label: str, fn, spec, ev: Evidence, truth: Truth) -> CheckResult:
    try:
        status, detail = fn(spec, ev, truth)
    except TruthError as exc:
        status, detail = "error", str(exc)
    except Exception as exc:  # the SkySpark failed while checking: not the agent's fault, not a pass
        status, detail = "error", f"checking failed: {type(exc).__name__}: {exc}"
    return CheckResult(check=label, status=status, detail=detail)


def _items(task: Task):
    yield from _expect_items(task.expect)


def _expect_items(e: Expect):
    single: tuple[tuple[str, Callable[[Any, Evidence, Truth], tuple[CheckStatus, str]]], ...] = (
        ("answer_mentions_all", _mentions_all),
        ("answer_mentions_any", _mentions_any),
        ("answer_lists", _check_list),
        ("answer_says_missing", _check_missing),
        ("ranks", _check_ranks),
        ("yes_no", _check_yes_no),
        ("refuses", _check_refuses),
        ("duration", _check_duration),
        ("periods", _check_periods),
        ("time_of_extreme", _check_time_of_extreme),
        ("not_recorded", _check_not_recorded),
        ("partial", _check_partial),
    )
    for kind, fn in single:
        spec = getattr(e, kind)
        if spec:  # (a check's model is always true; an empty list of words checks nothing)
            yield kind, fn, spec
    listed: tuple[tuple[str, Callable[[Any, Evidence, Truth], tuple[CheckStatus, str]]], ...] = (
        ("file", _check_file),
        ("value", _check_value),
        ("count", _check_count),
        ("energy", _check_energy),
    )
    for kind, check in listed:
        specs = getattr(e, kind) or []
        for i, spec in enumerate(specs):
            yield (f"{kind}[{i}]" if len(specs) > 1 else kind), check, spec


def _names_exist(spec: None, ev: Evidence, truth: Truth) -> tuple[CheckStatus, str]:
    from edge_agent.evaluation.audit import unknown_names

    unknown = unknown_names(ev.answer or "", truth, ev.question)
    return ("fail", f"names what the SkySpark does not have: {', '.join(unknown[:5])}") if unknown else ("pass", "")


def check_task(task: Task, evidence: Evidence, truth: Truth, *, strict_names: bool = True) -> TaskVerdict:
    """Run every check of `task`; the task passes only if all of them pass. With `strict_names` (the
    default) an answer that names a site or asset the SkySpark does not have fails too (`names_exist`,
    see `evaluation.audit.unknown_names`); names the question wrote are allowed."""
    if not (evidence.answer or "").strip() and not evidence.files:
        results = [
            CheckResult(check=label, status="fail", detail="no answer and no file") for label, _, _ in _items(task)
        ]
        return TaskVerdict(passed=False, checks=results)
    results = [_run(label, fn, spec, evidence, truth) for label, fn, spec in _items(task)]
    if strict_names and (evidence.answer or "").strip():
        results.append(_run("names_exist", _names_exist, None, evidence, truth))
    return TaskVerdict(passed=all(r.passed for r in results), checks=results)


def validate_task(task: Task, truth: Truth) -> list[str]:
    """Problems that make `task` unanswerable on this SkySpark (unknown names, no data, a "missing"
    entity that exists); empty when the task fits."""
    problems = []
    for probe in _probes(task.expect, truth):
        try:
            probe()
        except TruthError as exc:
            problems.append(f"{task.id}: {exc}")
    return problems


def _probes(e: Expect, truth: Truth) -> list:
    probes: list = []
    for file_spec in e.file or []:
        probes.append(lambda s=file_spec: expected_rows(s, truth))
    for value_spec in e.value or []:
        probes.append(lambda s=value_spec: expected_value(s, truth))
    for spec in list(e.count or []) + ([e.answer_lists] if e.answer_lists else []):
        probes.append(
            lambda s=spec: (
                list_entities(s, truth)
                or (isinstance(s, CountCheck) and s.kind is not None)
                or (_ for _ in ()).throw(TruthError(f"no {s.of} match {s.name_contains or s.kind!r}"))
            )
        )
    if e.answer_says_missing:
        probes.append(lambda s=e.answer_says_missing: _confirm_missing(s, truth))
    for energy_spec in e.energy or []:
        probes.append(lambda s=energy_spec: expected_energy(s, truth))
    expected: tuple[tuple[str, Callable[[Any, Truth], object]], ...] = (
        ("ranks", expected_ranking),
        ("yes_no", expected_yes),
        ("duration", expected_duration),
        ("periods", _clear_periods),
        ("time_of_extreme", expected_extreme),
        ("not_recorded", _confirm_not_recorded),
    )
    for kind, fn in expected:
        if spec := getattr(e, kind):
            probes.append(lambda s=spec, fn=fn: fn(s, truth))
    if e.partial and e.partial.established:
        probes += _probes(e.partial.established, truth)
    return probes
