"""`answer_lists`, `answer_mentions_all`, `answer_mentions_any`: the answer names the entities a query lists, or the
names a task gives.
"""

from __future__ import annotations

import math

from edge_agent.evaluation.answer_text import mentions
from edge_agent.evaluation.checker.base import CheckStatus, Evidence, TruthError, catalog_names, list_entities
from edge_agent.evaluation.tasks import ListCheck
from edge_agent.evaluation.truth import Truth


def _check_list(spec: ListCheck, ev: Evidence, truth: Truth) -> tuple[CheckStatus, str]:
    names = list_entities(spec, truth)
    if not names:
        raise TruthError(f"the SkySpark lists no {spec.of} for this query")
    others = catalog_names(truth)
    found = [n for n in names if mentions(ev.answer or "", n, others)]
    need = math.ceil(spec.min_fraction * len(names))
    status: CheckStatus = "pass" if len(found) >= need else "fail"
    missing = [n for n in names if n not in found][:5]
    return status, f"{len(found)}/{len(names)} named" + (f"; not named: {', '.join(missing)}" if missing else "")


def _mentions_all(names: list[str], ev: Evidence, truth: Truth) -> tuple[CheckStatus, str]:
    others = catalog_names(truth)
    missing = [n for n in names if not mentions(ev.answer or "", n, others)]
    return ("fail", f"not named: {', '.join(missing)}") if missing else ("pass", "")


def _mentions_any(names: list[str], ev: Evidence, truth: Truth) -> tuple[CheckStatus, str]:
    others = catalog_names(truth)
    found = [n for n in names if mentions(ev.answer or "", n, others)]
    return ("pass", found[0]) if found else ("fail", f"none of {', '.join(names)} named")
