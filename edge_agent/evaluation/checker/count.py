"""`count`: the answer states how many sites, assets or sensors there are, as a number bound to what is counted."""

from __future__ import annotations

import re

from edge_agent.evaluation.answer_text import NOT_NUMBERS, NUMBER_WORDS
from edge_agent.evaluation.checker.base import (
    CheckStatus,
    Evidence,
    TruthError,
    _canonical,
    catalog_names,
    list_entities,
)
from edge_agent.evaluation.tasks import CountCheck
from edge_agent.evaluation.truth import Truth

_COUNTED = {
    "sites": ["site", "location", "building", "campus", "facility", "facilities", "plant"],
    "assets": ["asset", "equip", "equipment", "unit", "device", "machine", "item", "piece"],
    "sensors": [
        "sensor",
        "point",
        "measurement",
        "signal",
        "reading",
        "channel",
        "datapoint",
        "data point",
        "trend",
        "variable",
        "tag",
    ],
}


_BOUND_BEFORE = re.compile(
    r"(?:\bthere (?:are|is|were|was)(?: only| just| exactly)?|\bfound(?: only| exactly)?"
    r"|\b(?:in )?total(?: of)?|\bcount(?:ed)?(?: is| of| was)?\s*:?|\bnumber of [^.;:]{1,40}?"
    r"(?:is|are|was|:)|\bhas|\bhave|\blists?)\s*$",
    re.I,
)


_BOUND_AFTER = re.compile(r"^\s*(?:in total|in all|altogether|total|of them)\b", re.I)


def count_nouns(spec: CountCheck) -> list[str]:
    """The words an answer may count the things by."""
    nouns = list(_COUNTED[spec.of]) + list(spec.noun)
    nouns += [w for w in (spec.name_contains, spec.kind) if w]
    return nouns


def _noun_after(tail: str, nouns: list[str]) -> bool:
    """Whether `tail` (the text after a number) begins, within three words, with one of `nouns`."""
    words = tail.split()[:4]
    head = " ".join(words)
    return any(re.match(rf"^(?:[\w%°/&'-]+\s+){{0,3}}?{_noun_pattern(n)}", head, re.I) for n in nouns)


def _noun_pattern(noun: str) -> str:
    parts = [w for w in re.split(r"[\s_\-]+|(?<=[a-z])(?=[A-Z])", noun.strip()) if w]
    return r"[\s_\-]*".join(re.escape(w) for w in parts) + r"(?:e?s|ies)?\b"


def stated_counts(answer: str, spec: CountCheck, names: list[str]) -> list[float]:
    """The counts `answer` states for the things `spec` counts: a number (digits or a word up to twenty) bound to
    a counted noun after it ("5 chillers", "five computer room AC units", "Found 5 chiller assets") or to a
    counting phrase ("there are 5", "a total of 5", "5 in total"), or the whole answer; never a digit inside a
    name of the catalog, a date or a time."""
    text = str(answer)
    for name in sorted(set(n for n in names if n), key=len, reverse=True):
        pattern = r"[\s_\-]*".join(re.escape(part) for part in re.split(r"[\s_\-]+", name.strip()) if part)
        text = re.sub(rf"(?<![A-Za-z0-9]){pattern}(?![A-Za-z0-9])", " <name> ", text, flags=re.I)
    for pattern in NOT_NUMBERS:
        text = re.sub(pattern, " <date> ", text, flags=re.I)
    if re.fullmatch(r"\W*(\d+|[a-z]+)\W*", text.strip(), re.I):
        m = re.search(r"\d+|[a-z]+", text, re.I)
        assert m is not None  # the fullmatch above holds one
        word = m.group(0).casefold()
        return [float(word)] if word.isdigit() else [float(NUMBER_WORDS[word])] if word in NUMBER_WORDS else []
    nouns = count_nouns(spec)
    out = []
    number = re.compile(r"(?<![\w.<])(\d+)(?![\w.]\d|\d)(?!\.\d)|\b(" + "|".join(NUMBER_WORDS) + r")\b", re.I)
    for m in number.finditer(text):
        value = float(m[1]) if m[1] else float(NUMBER_WORDS[m[2].casefold()])
        before, after = text[: m.start()], text[m.end() :]
        if before.rstrip().endswith("<name>") or after.lstrip().startswith("<name>") and not _noun_after(after, nouns):
            continue
        if _noun_after(after, nouns) or _BOUND_BEFORE.search(before) or _BOUND_AFTER.match(after):
            out.append(value)
    return out


def _check_count(spec: CountCheck, ev: Evidence, truth: Truth) -> tuple[CheckStatus, str]:
    want = len(list_entities(spec, truth))
    names = [n for n in (spec.site, spec.asset) if n] + catalog_names(truth)
    if spec.of == "sensors" and spec.site and spec.asset:
        try:
            site = _canonical(spec.site, truth.sites(), "site")
            names += truth.sensors(site, _canonical(spec.asset, truth.assets(site), "asset", site))
        except TruthError:
            pass
    got = stated_counts(ev.answer or "", spec, names)
    if float(want) in got:
        return "pass", f"{want} {spec.of}"
    return "fail", (
        f"expected {want} {spec.of} ({', '.join(count_nouns(spec)[:6])}, …); the answer states "
        f"{', '.join(f'{x:g}' for x in got[:6]) or 'no count bound to them'}"
    )
