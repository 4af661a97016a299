"""Auditing runs against the SkySpark they used: names that do not exist, and claims no evidence held.

Needs nothing of the agent's own bookkeeping (only a `RunResult`'s steps and answer, and the `Truth`
the checker reads), so it audits runs of any version of the agent, old reports included.

- `unknown_names(text, truth, allowed)`: the sites and assets an answer names that the SkySpark does
  not have. A name is recognised by the shape of the plant's own names, never by a list written for a
  task file: a *site-shaped code* (an upper-case token with the characters and length of this plant's
  site codes, e.g. "DUBMAIN" beside POKMAIN and RCHMAIN; a short one, of four characters or fewer, only in
  the exact letter/digit shape of a code: "DC3" beside "DC1", never "AHU" or "UTC"), and an *asset-shaped name*:
  the stem of an existing asset name followed by an id ("Chiller 5" where the plant has "Chiller 6", "AHU-7" beside
  "AHU-1"). Names the question itself wrote are allowed (an answer may say "there is no Chiller 7").
- `audit_run(result, truth)`: per run, tool calls naming a site, asset or sensor that does not exist;
  whether the final answer states a figure, code or name that neither the question, the worked-out
  facts nor any Observation held; answers the runtime refused; review verdicts that copied a prompt;
  thoughts that stated a figure or name nothing before their step held (progress masks them).
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from functools import lru_cache

from pydantic import BaseModel

from edge_agent.agent.trajectory import RunResult
from edge_agent.evaluation.truth import Truth
from edge_agent.grounding.catalog import Catalog, SensorName, SiteCatalog, key
from edge_agent.grounding.provenance import Source, trace
from edge_agent.grounding.run import invented_names

_ID = r"\d+[A-Za-z]?"
_STEM_ID = re.compile(rf"^(.*?[A-Za-z])[\s_\-]*({_ID})$")  # "Chiller 6" -> ("Chiller", "6")
_UPPER = re.compile(r"(?<![A-Za-z0-9_])[A-Z][A-Z0-9]+(?![A-Za-z0-9_])")
DATA_TOOLS_ARGS = ("site_name", "asset_name", "asset_names", "sensor_name")


def _shape(code: str) -> str:
    """Letters and digits of a code as L and D: "DC1" → "LLD"."""
    return "".join("D" if c.isdigit() else "L" for c in code)


class NameShapes:
    """The shapes of one plant's names: site codes, and asset stems with the full names they take."""

    def __init__(self, sites: list[str], assets: Iterable[str]):
        self.sites = {key(s) for s in sites}
        codes = [s for s in sites if re.fullmatch(r"[A-Z][A-Z0-9]+", s)]
        self.code_len = (min(map(len, codes)), max(map(len, codes))) if codes else None
        self.code_shapes = {_shape(c) for c in codes}
        self.assets = {key(a) for a in assets}
        stems: dict[str, str] = {}
        for name in assets:
            m = _STEM_ID.match(name.strip())
            if m:
                stems.setdefault(key(m.group(1)), m.group(1))
        self.stems = sorted(stems.values(), key=len, reverse=True)
        self.parts = {p for a in list(assets) + sites for p in re.split(r"[\s_\-]+", a.casefold()) if p}
        self.names = [n for n in dict.fromkeys(assets) if n.strip()]

    def known_spans(self, text: str) -> list[tuple[int, int]]:
        """Where `text` names an existing asset as a whole name (a shorter name inside one is not flagged)."""
        spans = []
        for name in self.names:
            words = r"[\s_\-]*".join(re.escape(w) for w in re.split(r"[\s_\-]+", name.strip()) if w)
            spans += [m.span() for m in re.finditer(rf"(?<![A-Za-z0-9]){words}(?![A-Za-z0-9])", text, re.I)]
        return spans

    def unknown(self, text: str, allowed: str = "") -> list[str]:
        out: list[str] = []
        allowed_keys = key(allowed)
        if self.code_len is not None:
            lo, hi = self.code_len
            for m in _UPPER.finditer(text):
                code = m.group(0)
                short = len(code) <= 4  # a short capital word (AHU, VFD, UTC) is a code only in a code's exact shape
                if short and _shape(code) not in self.code_shapes:
                    continue
                if (
                    (short or (lo - 1 <= len(code) <= hi + 1 and sum(c.isalpha() for c in code) >= 3))
                    and key(code) not in self.sites
                    and code.casefold() not in self.parts
                    and key(code) not in allowed_keys
                    and not any(key(code) in a for a in self.assets)
                ):
                    out.append(code)
        known = self.known_spans(text) if self.stems else []
        for stem in self.stems:
            words = r"[\s_\-]*".join(re.escape(w) for w in re.split(r"[\s_\-]+", stem))
            for m in re.finditer(rf"(?<![A-Za-z0-9]){words}[\s_\-]*({_ID})(?![A-Za-z0-9]|\.\d)", text, re.I):
                inside = any(a <= m.start() and m.end() <= b and (a, b) != m.span() for a, b in known)
                if key(m.group(0)) not in self.assets and key(m.group(0)) not in allowed_keys and not inside:
                    out.append(m.group(0))
        return list(dict.fromkeys(out))


@lru_cache(maxsize=8)
def _shapes(truth: Truth) -> NameShapes:
    sites = truth.sites()
    return NameShapes(sites, [a for s in sites for a in truth.assets(s)])


def unknown_names(text: str, truth: Truth, allowed: str = "") -> list[str]:
    """Site- and asset-shaped names in `text` that the SkySpark of `truth` lacks (see the module doc); a file the
    answer names ("history_DAF_Unit_Effluent_TSS-26312196.json") is a file's name, not a name of the SkySpark's."""
    text = _FILE_NAME.sub(" ", text or "")
    return _shapes(truth).unknown(text, allowed)


#: a file's name in an answer: letters, digits and separators up to its extension
_FILE_NAME = re.compile(r"[\w.\-]+\.(?:json|csv|png|svg|txt)\b", re.I)


@lru_cache(maxsize=8)
def catalog_of(truth: Truth) -> Catalog:
    """A `Catalog` read through the checker's `Truth` (sites now, each site when first asked for)."""

    def load(site: str) -> SiteCatalog:
        assets = truth.assets(site)
        return SiteCatalog(
            site, "UTC", assets, {a: [SensorName(f"{a} {s}", s) for s in truth.sensors(site, a)] for a in assets}
        )

    return Catalog(sites=truth.sites(), _load_site=load)


class RunAudit(BaseModel):
    invented_calls: int = 0  # tool calls naming a site/asset/sensor the SkySpark lacks
    invented: list[str] = []  # those names
    ungrounded_answer: bool = False  # the final answer states something no evidence held
    ungrounded: list[str] = []  # those claims
    refused_answers: int = 0  # Finish answers the runtime refused as ungrounded
    copied_reviews: int = 0  # review verdicts that echoed their prompt (replaced by code)
    unverified_thoughts: int = 0  # steps whose thought stated a figure or name nothing before it held
    unverified: list[str] = []  # those figures and names (masked in every progress message)


def audit_run(result: RunResult, truth: Truth) -> RunAudit:
    catalog = catalog_of(truth)
    audit = RunAudit()
    sources = [Source(kind="question", text=result.question)]
    if result.distilled is not None:
        from edge_agent.agent.distill import render_distilled

        sources.append(Source(kind="facts", text=render_distilled(result.distilled)))
    for trial in result.trials:
        audit.refused_answers += trial.ungrounded_answers
        audit.copied_reviews += bool(trial.review is not None and trial.review.copied)
        for step in trial.steps:
            guessed = [c.text for c in trace(step.thought, sources, catalog_names(catalog)) if not c.grounded]
            audit.unverified_thoughts += bool(guessed)
            audit.unverified += [g for g in guessed if g not in audit.unverified]
            if (
                step.kind == "tool"
                and isinstance(step.action_input, dict)
                and any(k in step.action_input for k in DATA_TOOLS_ARGS)
            ):
                names = invented_names(catalog, step.action_input)
                if names:
                    audit.invented_calls += 1
                    audit.invented += [n for n in names if n not in audit.invented]
            if step.observation and step.kind != "finish":
                sources.append(
                    Source(
                        kind="observation", text=step.observation, trial=trial.number, step=step.index, tool=step.action
                    )
                )
    if result.answer:
        made_up = [c.text for c in trace(result.answer, sources, catalog_names(catalog)) if not c.grounded]
        made_up += [n for n in unknown_names(result.answer, truth, result.question) if n not in made_up]
        audit.ungrounded, audit.ungrounded_answer = made_up, bool(made_up)
    return audit


def catalog_names(catalog: Catalog) -> set[str]:
    """Sites and the names of the sites loaded so far (what an answer's names are traced against)."""
    return catalog.all_names()
