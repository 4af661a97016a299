"""`answer_says_missing`: the answer says the thing asked about does not exist (and names it), and the SkySpark
indeed lacks it.
"""

from __future__ import annotations

import re

from edge_agent.evaluation.answer_text import mentions, norm
from edge_agent.evaluation.checker.base import CheckStatus, Evidence, TruthError, _canonical, catalog_names
from edge_agent.evaluation.tasks import MissingCheck
from edge_agent.evaluation.truth import Truth

_MISSING_RE = re.compile(
    r"no such|(?:not|n't) (?:be )?found|could ?n[o']t (?:be )?(?:find|found|locate)|cannot (?:find|locate)"
    r"|can't (?:find|locate)|unable to (?:find|locate)|does ?n[o']t exist|do ?n[o']t exist|not exist|non-?existent"
    r"|no (?:asset|sensor|site|point|equip\w*|data|record|match|entry)|not available|unavailable|unknown|missing"
    r"|there is no|there are no|not (?:present|listed|part of|among|one of|a valid|recogni[sz]ed|in the list)"
    r"|is ?n[o']t (?:an? )?(?:asset|sensor|site)"
    r"|none (?:named|called)|did ?n[o']t find|no results?|invalid (?:asset|sensor|site)|not an? (?:existing|known)"
    r"|ha(?:s|ve) no\b|(?:does|do|did) ?n[o']t have|not have|lacks?\b|is not (?:one of|among|on|at)",
    re.I,
)


def says_missing(answer: str) -> bool:
    return _MISSING_RE.search(str(answer)) is not None


def _check_missing(spec: MissingCheck, ev: Evidence, truth: Truth) -> tuple[CheckStatus, str]:
    _confirm_missing(spec, truth)
    answer = ev.answer or ""
    if not says_missing(answer):
        return "fail", "the answer does not say that anything is missing"
    if spec.must_name and not mentions(answer, spec.name, catalog_names(truth)):
        return "fail", f"the answer does not name {spec.name!r}"
    return "pass", ""


def _confirm_missing(spec: MissingCheck, truth: Truth) -> None:
    if spec.kind is None:
        return
    if spec.kind == "site":
        names = truth.sites()
    elif spec.kind == "asset":
        names = truth.assets(_canonical(spec.site, truth.sites(), "site"))
    else:
        site = _canonical(spec.site, truth.sites(), "site")
        names = truth.sensors(site, _canonical(spec.asset, truth.assets(site), "asset", site))
    if any(norm(n) == norm(spec.name) for n in names):
        raise TruthError(f"{spec.name!r} exists on this SkySpark, so the task expecting it missing does not fit")
