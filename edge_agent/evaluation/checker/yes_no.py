"""`yes_no`: the answer starts with the right Yes or No (a series past a limit; an asset or kind that exists), and is
about the series, asset and window asked.
"""

from __future__ import annotations

import re

from edge_agent.evaluation import conclusions as cc
from edge_agent.evaluation.answer_text import mentions, norm
from edge_agent.evaluation.answer_times import dates_outside
from edge_agent.evaluation.checker.base import (
    CheckStatus,
    Evidence,
    TruthError,
    _canonical,
    assets_of_kind,
    catalog_names,
    limit_pairs,
)
from edge_agent.evaluation.checker.words import noun_named
from edge_agent.evaluation.tasks import ExcursionSpec, YesNoCheck
from edge_agent.evaluation.truth import Truth


def expected_excursion(spec: ExcursionSpec, truth: Truth) -> tuple[bool, int, int]:
    """(any sample strictly past the limit, how many, how many compared)."""
    pairs = limit_pairs(spec, truth)
    if not pairs:
        raise TruthError(f"no samples of {spec.asset} {spec.sensor} to compare from {spec.start} to {spec.end}")
    past = cc.crossed(pairs, spec.direction)
    return bool(past), len(past), len(pairs)


def expected_yes(spec: YesNoCheck, truth: Truth) -> tuple[bool, str]:
    if spec.excursion is not None:
        yes, n, of = expected_excursion(spec.excursion, truth)
        return yes, f"{n} of {of} samples {spec.excursion.direction}"
    assert spec.exists is not None
    site = _canonical(spec.exists.site, truth.sites(), "site")
    if spec.exists.kind is not None:
        found = assets_of_kind(truth, site, spec.exists.kind)
        return bool(found), f"{len(found)} {spec.exists.kind} asset(s) at {site}"
    assert spec.exists.asset is not None  # ExistsSpec holds exactly one of `asset` and `kind`
    there = any(norm(a) == norm(spec.exists.asset) for a in truth.assets(site))
    return there, f"{spec.exists.asset} {'is' if there else 'is not'} an asset at {site}"


_FIRST_WORD = re.compile(r"[A-Za-z]+")


def first_word(answer: str) -> str:
    m = _FIRST_WORD.search(answer or "")
    return m.group(0).casefold() if m else ""


def _check_yes_no(spec: YesNoCheck, ev: Evidence, truth: Truth) -> tuple[CheckStatus, str]:
    yes, why = expected_yes(spec, truth)
    answer = ev.answer or ""
    word = first_word(answer)
    want = "yes" if yes else "no"
    if word != want:
        return "fail", f"the answer starts with {word or 'nothing'!r}; the truth is {want.title()} ({why})"
    about = _about_what_was_asked(spec, answer, truth, yes)
    return ("fail", f"{want.title()}, but {about}") if about else ("pass", why)


def _words(text: str) -> list[str]:
    """Lower-case words, camelCase split ("LeavingWaterTemp" → leaving, water, temp)."""
    return re.findall(r"[a-z0-9%°]+", re.sub(r"(?<=[a-z])(?=[A-Z])", " ", text).casefold())


def sensor_named(text: str, sensor: str) -> bool:
    """Every word of `sensor` appears in `text`, a word also matching its abbreviation or long form ("Temp" and
    "temperature", "Humidity" and "humid")."""
    have = _words(text)
    joined = {"".join(_words(text)[i : i + n]) for n in (2, 3, 4) for i in range(len(have))}
    if "".join(_words(sensor)) in joined | set(have):
        return True  # "LeavingWaterTemp" named as "leaving water temp", or the other way round
    for word in _words(sensor):
        if not any(
            h == word or (min(len(h), len(word)) >= 3 and (h.startswith(word) or word.startswith(h))) for h in have
        ):
            return False
    return True


def _about_what_was_asked(spec: YesNoCheck, answer: str, truth: Truth, yes: bool) -> str:
    """Why the answer is not about the task's series and window ('' when it is)."""
    others = catalog_names(truth)
    if spec.excursion is not None:
        x = spec.excursion
        if not mentions(answer, x.asset, others):
            return f"it does not name {x.asset}"
        if not sensor_named(answer, x.sensor):
            return f"it does not name the sensor {x.sensor}"
        outside = dates_outside(answer, x.start, x.end)
        if outside:
            return f"it is about {outside[0]}, outside the task's window {x.start.date()} – {x.end.date()}"
        return ""
    e = spec.exists
    assert e is not None
    site = _canonical(e.site, truth.sites(), "site")
    if e.kind is None:
        if yes:
            real = next(a for a in truth.assets(site) if norm(a) == norm(e.asset or ""))
            return "" if mentions(answer, real, others) else f"it does not name {real}"
        return "" if mentions(answer, e.asset or "", others) else f"it does not name {e.asset}"
    words = list(e.noun) + [e.kind]
    if yes and any(mentions(answer, a, others) for a in assets_of_kind(truth, site, e.kind)):
        return ""
    if any(noun_named(answer, w) for w in words):
        return ""
    return f"it names neither an asset of kind {e.kind} nor the kind ({', '.join(words)})"
