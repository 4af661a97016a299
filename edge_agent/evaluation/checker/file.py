"""`file`: the result files hold exactly the history rows the task asks for."""

from __future__ import annotations

from collections import Counter
from datetime import UTC

from edge_agent.evaluation.answer_text import norm
from edge_agent.evaluation.checker.base import CheckStatus, Evidence, TruthError, _resolve
from edge_agent.evaluation.filerows import FileDiff, RowKey, diff_file, file_rows, sensor_key
from edge_agent.evaluation.tasks import FileCheck
from edge_agent.evaluation.truth import Truth


def expected_rows(spec: FileCheck, truth: Truth) -> dict[RowKey, float | None]:
    out: dict[RowKey, float | None] = {}
    for asset in spec.assets:
        for sensor in spec.sensors:
            site, a, s = _resolve(truth, spec.site, asset, sensor)
            for sample in truth.history(site, a, s, spec.start, spec.end):
                out[(norm(a), sensor_key(a, s), sample.ts.astimezone(UTC))] = sample.value
    if not out:
        raise TruthError(f"no data for {spec.assets} {spec.sensors} from {spec.start} to {spec.end}")
    return out


def _check_file(spec: FileCheck, ev: Evidence, truth: Truth) -> tuple[CheckStatus, str]:
    expected = expected_rows(spec, truth)
    diffs: list[tuple[FileDiff, Counter]] = []
    for name, data in ev.files.items():
        rows = file_rows(data, spec)
        if rows is not None:
            diffs.append((diff_file(name, rows, expected, spec.value_tol), rows))
    if not diffs:
        return "fail", f"no history file among {len(ev.files)} produced file(s)"
    answer = ev.answer or ""
    if spec.single_file:
        exact = [d for d, _ in diffs if d.exact]
        if spec.named_in_answer:
            named = [d for d in exact if d.name in answer]
            if exact and not named:
                return "fail", f"{exact[0].name} is right but the answer does not name it"
            exact = named
        if exact:
            return "pass", exact[0].name
        best = min((d for d, _ in diffs), key=lambda d: d.score)
        return "fail", f"{len(expected)} rows expected; closest file {best.describe()}"
    covered: set = set()
    used = []
    for d, rows in diffs:
        if d.extra == 0 and d.wrong_value == 0 and (not spec.named_in_answer or d.name in answer):
            covered |= {k[:3] for k in rows}
            used.append(d.name)
    left = len(set(expected) - covered)
    if left == 0:
        return "pass", ", ".join(used)
    return "fail", f"{left} of {len(expected)} expected rows are in no clean file ({', '.join(used) or 'none clean'})"
