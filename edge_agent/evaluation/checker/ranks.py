"""`ranks`: the answer names the winner of a ranking first, and says the statistic it ranks by (or states the winner's
figure).
"""

from __future__ import annotations

import re

from edge_agent.evaluation import conclusions as cc
from edge_agent.evaluation.answer_text import mention_at, numbers_in
from edge_agent.evaluation.checker.base import (
    CheckStatus,
    Evidence,
    TruthError,
    _canonical,
    _resolve,
    assets_of_kind,
    catalog_names,
    series_of,
)
from edge_agent.evaluation.checker.words import close, names_statistic
from edge_agent.evaluation.tasks import RanksCheck
from edge_agent.evaluation.truth import Truth


def compared_assets(spec: RanksCheck, truth: Truth) -> tuple[str, list[str]]:
    """The site and the assets a ranking compares (each resolved; those of a kind or name part that have
    the sensor)."""
    site = _canonical(spec.site, truth.sites(), "site")
    if spec.assets is not None:
        return site, [_canonical(a, truth.assets(site), "asset", site) for a in dict.fromkeys(spec.assets)]
    names = truth.assets(site)
    if spec.kind:
        names = assets_of_kind(truth, site, spec.kind, names)
    if spec.name_contains:
        names = [n for n in names if spec.name_contains.casefold() in n.casefold()]
    out = []
    for name in names:
        try:
            _resolve(truth, site, name, spec.sensor)
        except TruthError:
            continue
        out.append(name)
    if len(out) < 2:
        raise TruthError(f"fewer than two assets at {site} to rank by {spec.sensor}: {out}")
    return site, out


def expected_ranking(spec: RanksCheck, truth: Truth) -> tuple[list[str], dict[str, float | None]]:
    """The winners (tied ones together) and every compared asset's value."""
    site, assets = compared_assets(spec, truth)
    values: dict[str, float | None] = {}
    for asset in assets:
        series, unit = series_of(truth, site, asset, spec.sensor, spec.start, spec.end)
        if spec.by == "energy" and series and cc.power_scale(unit) is None:
            raise TruthError(f"{spec.sensor} is in {unit or 'no unit'}, not power: no energy to rank")
        values[asset] = cc.aggregate(series, spec.by, unit)
    won = cc.winners(values, spec.order)
    if not won:
        raise TruthError(f"no values of {spec.sensor} at {site} from {spec.start} to {spec.end}")
    return won, values


_RANKING_WORDS = re.compile(
    r"\b(?:highest|lowest|most|least|more|less|higher|lower|largest|smallest|top|best|worst|"
    r"biggest|greatest)\b",
    re.I,
)


def _ranking_clause(answer: str, compared: list[str], others) -> str:
    """The part of a multi-part answer that states the ranking: the first clause (split at ";") that has a ranking
    word and names a compared asset; the whole answer where none does (a one-part answer, or free prose). So "Found 3
    pumps: A, B, C; B had the highest mean Speed" is judged on its second clause, as its reader would."""
    for clause in answer.split(";"):
        if _RANKING_WORDS.search(clause) and any(mention_at(clause, a, others) is not None for a in compared):
            return clause
    return answer


def _check_ranks(spec: RanksCheck, ev: Evidence, truth: Truth) -> tuple[CheckStatus, str]:
    won, values = expected_ranking(spec, truth)
    answer = _ranking_clause(ev.answer or "", list(values), catalog_names(truth))
    others = catalog_names(truth)
    named = [(at, a) for a in values if (at := mention_at(answer, a, others)) is not None]
    if not named:
        return "fail", f"the answer names none of the compared assets; {' or '.join(won)} won"
    first = min(named)[1]
    if first not in won:
        show = ", ".join(f"{a} {v:.6g}" if v is not None else f"{a} no data" for a, v in values.items())
        return "fail", f"the answer names {first} first; the {spec.order} {spec.by} is {' or '.join(won)} ({show})"
    figure = values[first]
    stated = figure is not None and any(
        close(x, figure, 0.005, 0.01) for x in numbers_in(answer, [spec.site, spec.sensor] + list(values))
    )
    if not names_statistic(answer, spec.by) and not stated:
        return "fail", (
            f"{first} is first, but the ranking does not say it is by {spec.by} "
            f"(no {spec.by} word, and not its figure {figure:.6g})"
            if figure is not None
            else ""
        )
    return "pass", first + (" (tied)" if len(won) > 1 else "")
