"""`not_recorded`: the answer says the SkySpark does not hold an attribute (manufacturer, model, rating, install
date, …) and claims no value for it.
"""

from __future__ import annotations

import re

from edge_agent.evaluation.answer_text import numbers_in
from edge_agent.evaluation.answer_times import dates_in
from edge_agent.evaluation.checker.base import CheckStatus, Evidence, TruthError, _canonical, catalog_names
from edge_agent.evaluation.checker.words import noun_named
from edge_agent.evaluation.tasks import NotRecordedCheck
from edge_agent.evaluation.truth import Truth

_NOT_HELD = re.compile(
    r"\b(?:not|n't|never|no)\b[^.;]{0,40}?\b(?:record\w*|held|hold|holds|stored?|store|kept|keep|available|tagged|tag"
    r"|known|listed|contain\w*|have|has|provide\w*|include\w*|track\w*|carr(?:y|ies))\b"
    r"|\bno (?:record|tag|data|information|entry|field)\b|\bunknown\b|\bnot (?:in|on) the skyspark\b"
    r"|\b(?:holds?|has|have|keeps?|stores?|records?|carr(?:y|ies)|lists?)\s+no\b",
    re.I,
)


_ATTRIBUTE_WORDS = {
    "manufacturer": ["manufacturer", "make", "brand", "vendor", "maker", "made by"],
    "model": ["model"],
    "rating": ["rating", "rated", "capacity", "nameplate", "size"],
    "install date": ["install", "installed", "installation", "commissioned", "age", "how old"],
    "serial number": ["serial"],
}


def _check_not_recorded(spec: NotRecordedCheck, ev: Evidence, truth: Truth) -> tuple[CheckStatus, str]:
    _confirm_not_recorded(spec, truth)
    answer = ev.answer or ""
    words = spec.words or _ATTRIBUTE_WORDS.get(spec.attribute.casefold(), [spec.attribute])
    if not any(noun_named(answer, w) or re.search(rf"\b{re.escape(w.casefold())}", answer.casefold()) for w in words):
        return "fail", f"the answer does not name the {spec.attribute}"
    if not _NOT_HELD.search(answer):
        return "fail", f"the answer does not say the SkySpark does not hold the {spec.attribute}"
    claim = _claimed_value(answer, words, spec, truth, ev.question)
    if claim:
        return "fail", f"the answer claims a value: {claim!r}"
    return "pass", ""


def _claimed_value(answer: str, words: list[str], spec: NotRecordedCheck, truth: Truth, question: str) -> str:
    for w in words:  # "the manufacturer (of Chiller 2) is Trane", "made by Trane": a capitalised name or a code
        m = re.search(
            rf"(?i:\b{re.escape(w)}\w*(?:\s+(?:of|for)\s+[^.;:]{{1,40}}?)?\s+(?:is|was|:|=|by))\s+"
            r"(?!(?:The|This|That|It|Not|Unknown|None|N/?A|Missing|SkySpark)\b)([A-Z0-9][\w.-]*)",
            answer,
        )
        if m:
            return m.group(0)
    m = re.search(
        r"(?i:\b(?:made|manufactured|built|produced|supplied|installed) by)\s+(?!(?:The|Not|Unknown)\b)"
        r"([A-Z0-9][\w.-]*)",
        answer,
    )
    if m:
        return m.group(0)
    names = [n for n in (spec.site, spec.asset) if n] + catalog_names(truth)
    if spec.attribute.casefold() in ("rating", "capacity"):
        figures = [x for x in numbers_in(answer, names) if x not in numbers_in(question, names)]
        if figures:
            return f"{figures[0]:g}"
    if spec.attribute.casefold() in ("install date", "installation date", "age"):
        said = [d for _, d in dates_in(answer, 2000)] + [int(y) for y in re.findall(r"\b(19\d\d|20\d\d)\b", answer)]
        asked = [d for _, d in dates_in(question, 2000)] + [
            int(y) for y in re.findall(r"\b(19\d\d|20\d\d)\b", question)
        ]
        new = [d for d in said if d not in asked]
        if new:
            return str(new[0])
    return ""


def _confirm_not_recorded(spec: NotRecordedCheck, truth: Truth) -> None:
    if not spec.site:
        return
    site = _canonical(spec.site, truth.sites(), "site")
    if not spec.asset:
        return
    asset = _canonical(spec.asset, truth.assets(site), "asset", site)
    tags = getattr(truth, "asset_tags", None)
    if tags is not None and spec.tags:
        held = [t for t in spec.tags if t in tags(site, asset)]
        if held:
            raise TruthError(f"{asset} carries {', '.join(held)}: the SkySpark does record its {spec.attribute}")
