"""A run's grounding: what the question names on the SkySpark, what a call may write, and the evidence so far.

`Grounding.build(question, catalog, now)` links the question's names (`linking.link`) and its period
(`agent.dates.resolve_period`) in code before the first step. The agent then asks it for

- `scope()`: the names and period tool arguments are constrained to (`scope.Scope`);
- `answer_tokens()`: the figures and codes a Finish answer may write (`provenance.answer_pattern`);
- `answer_prefix(trial)`: what a Finish answer must start with, written by code: the facts of what the
  SkySpark lacks, and the heads (`toolkit.Said.answer`) of the trial's calls that answer the question —
  the names a listing found where the question asks for names, each series' figures and file of a data
  call. Where that is the whole answer (`answer_closed`) the model writes no word of it;
- `check(answer)`: the answer's claims traced to their sources, after it is written;
- `invented(tool, args)`: the names of a call that the SkySpark does not have (counted, never hidden);
- `unverified(text)`: the figures and names of published free text (thoughts, reviews) nothing held.

Every Observation is recorded with `observe`, so claims can name the step they came from. Without a
catalog (SkySpark down) there is no scope and names are not checked against it, but figures still are.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from edge_agent.grounding.catalog import Catalog, key
from edge_agent.grounding.linking import Links, link
from edge_agent.grounding.provenance import Claim, Source, codes, digit_tokens, evidence_tokens, trace, ungrounded
from edge_agent.grounding.scope import Scope


def _period_span(question: str, phrase: str) -> list[tuple[int, int]]:
    if not phrase:
        return []
    at = question.casefold().find(phrase.casefold())
    return [(at, at + len(phrase))] if at >= 0 else []


#: the question asks for names or a count: "what are their names", "list the sensors", "what assets",
#: "which IoT sites", "how many chillers"
_ASKS_NAMES = re.compile(r"\b(?:names?|list|how many|count|number of|(?:what|which)(?: \w+){0,2} (?:sites|plants|"
                         r"assets|equipment|sensors|points|measurements|readings))\b", re.I)
#: with a kind of equipment linked ("air handling units"), "which"/"what" asks for names too
_WHICH = re.compile(r"\b(?:what|which)\b", re.I)
#: heads a Finish answer starts with: at most this many, the latest calls first kept
MAX_HEADS = 3


@dataclass
class Grounding:
    question: str
    catalog: Catalog | None = None
    links: Links | None = None
    start: str | None = None
    final: str | None = None
    facts: str = ""
    sources: list[Source] = field(default_factory=list)
    note: str = ""  # why there is no catalog
    refused: set[str] = field(default_factory=set)  # tokens of refused answers
    _scope: Scope | None = None

    @classmethod
    def build(cls, question: str, catalog: Catalog | None, now: datetime | None = None, note: str = "") -> "Grounding":
        from edge_agent.agent.dates import resolve_period

        period = resolve_period(question, now) if now is not None else None
        start, final = period.iso() if period is not None else (None, None)
        links = None
        if catalog is not None:
            links = link(question, catalog, exclude=_period_span(question, period.phrase if period else ""))
        g = cls(question=question, catalog=catalog, links=links, start=start, final=final, note=note)
        g.sources.append(Source(kind="question", text=question))
        return g

    def set_facts(self, text: str) -> None:
        self.facts = text
        self.sources = [s for s in self.sources if s.kind != "facts"]
        if text:
            self.sources.append(Source(kind="facts", text=text))

    def scope(self) -> Scope | None:
        if self.catalog is None or self.links is None:
            return None
        if self._scope is None:
            self._scope = Scope.from_links(self.links, self.catalog, start=self.start, final=self.final)
        return self._scope

    def known(self) -> set[str]:
        """What the question's grounding already tells, in the words tools use for `provides`/`needs`:
        "site", "asset", "sensor" (the question names one that exists), "period" (worked out), "clock"
        (the period is worked out, or the question speaks of no time), "linking" (names and dates are
        worked out in code: always, with a catalog), "one_file" (one file is asked for), "file" (the
        question speaks of files)."""
        if self.links is None:
            return set()
        from edge_agent.agent.dates import mentions_time
        from edge_agent.agent.distill import wants_single_file

        out = {kind for kind, names in (("site", self.links.sites), ("asset", self.links.assets),
                                        ("sensor", self.links.sensors)) if names}
        out.add("linking")
        if self.start is not None:
            out |= {"period", "clock"}
        elif not mentions_time(self.question):
            out.add("clock")
        if wants_single_file(self.question):
            out.add("one_file")
        if re.search(r"\bfiles?\b|\.json\b", self.question, re.I):
            out.add("file")
        return out

    def offered(self, tools: Any) -> list[str] | None:
        """The tools worth offering (None: all): not one whose findings the grounding already has, nor one
        that needs what it lacks. Finish is always among them."""
        if self.catalog is None or self.links is None:
            return None
        known = self.known()
        return [t.name for t in tools
                if not (t.provides and set(t.provides) <= known) and set(t.needs) <= known]

    def observe(self, trial: int, step: int, tool: str, text: str, *, head: str = "", answers: bool = False,
                call: str = "", args: Any = None) -> None:
        """Record an Observation (and its tool's head, see `toolkit.Said`, and its call's arguments) as
        evidence of `trial`."""
        if head and head not in text:  # the head's figures are evidence even where the Observation was cut
            text = f"{text}\n{head}"
        if text:
            self.sources.append(Source(kind="observation", text=text, trial=trial, step=step, tool=tool,
                                       head=head, answers=answers, call=call or _call_key(tool, step, args),
                                       about=_named_in(args)))

    def answer_tokens(self) -> set[str]:
        """The figures, codes and file names an answer may write: the evidence's, less those of answers
        already refused in this run (so a refused answer is not written again word for word)."""
        return evidence_tokens(s.text for s in self.sources) - self.refused

    def missing_prefix(self) -> str:
        """The facts of what the question names and the SkySpark does not have ("There is no asset …")."""
        if self.links is None or not self.links.missing:
            return ""
        return "; ".join(m.sentence() for m in self.links.missing)

    def answered_by_links(self) -> bool:
        """Everything the question names is missing: no asset, or assets lacking every sensor asked for (an
        asset lacking one of two sensors still has the other to read). Then the linking facts are the whole
        answer and no tool has anything to read."""
        if self.links is None or not self.links.missing:
            return False
        if not self.links.assets:
            return True
        lacking = {(m.asset, m.text) for m in self.links.missing if m.kind == "sensor"}
        asked = dict.fromkeys([*self.links.sensors, *(text for _, text in lacking)])
        return all((a, s) in lacking for a in self.links.assets for s in asked) and bool(asked)

    def heads(self, trial: int | None = None) -> list[str]:
        """The heads of `trial`'s calls that answer the question (all trials' with None), in call order, a
        call made again counting once: a data call's (`answers` tools: each series' figures and the file)
        always, a listing's ("found 5 chiller assets at POKMAIN: Chiller 3, …") where the question asks for
        names or a count and the listing is of what the question names (the sites, or the assets of a site
        or the sensors of an asset it names: not the assets of another site). At most MAX_HEADS, the latest."""
        if self.links is None:
            return []
        names = bool(_ASKS_NAMES.search(self.question) or (self.links.asset_types and _WHICH.search(self.question)))
        named = {key(n) for n in [*self.links.sites, *self.links.assets]}
        latest: dict[str, str] = {}
        for s in self.sources:
            if s.kind != "observation" or not s.head or trial not in (None, s.trial):
                continue
            if s.answers or (names and all(key(n) in named for n in s.about)):
                latest.pop(s.call, None)
                latest[s.call] = s.head[0].upper() + s.head[1:]
        return list(dict.fromkeys(latest.values()))[-MAX_HEADS:]

    def answer_closed(self, trial: int | None = None) -> bool:
        """The start written by code is the whole answer: everything the question names is missing, or the
        trial's calls answered it (a tiny model asked to go on after that only repeats its pieces)."""
        return self.answered_by_links() or bool(self.heads(trial))

    def answer_prefix(self, trial: int | None = None) -> str:
        """What the answer must start with: the facts of what the SkySpark lacks, and the heads of the calls."""
        return "; ".join(p for p in [self.missing_prefix(), *self.heads(trial)] if p)

    def refuse(self, claims: list[Claim]) -> None:
        """Remember the made-up figures of a refused answer (names without digits cannot be banned)."""
        for c in claims:
            if not c.grounded and c.what != "name":  # a name put together from real pieces: the pieces stay
                self.refused.update(digit_tokens(c.text) + codes(c.text))

    def names(self) -> set[str]:
        return self.catalog.all_names() if self.catalog is not None else set()

    def check(self, answer: str) -> list[Claim]:
        """The answer's claims with their sources; a site or asset name the answer puts together that the
        SkySpark lacks ("B705 AHU 4" from "B705", "AHU" and "4", each seen) is a claim without a source."""
        claims = trace(answer, self.sources, self.names())
        if self.catalog is not None and self.links is not None:
            asked = {key(m.text) for m in self.links.missing}
            seen = {c.text for c in claims}
            for m in link(answer, self.catalog).missing:
                if m.kind in ("site", "asset") and key(m.text) not in asked and m.text not in seen:
                    claims.append(Claim(text=m.text, what="name"))
        return claims

    def unverified(self, text: str, trial: int | None = None, step: int | None = None) -> list[str]:
        """The figures and names of free text the agent publishes (a thought, a review) that no evidence held;
        with `trial` and `step`, evidence recorded before that step's Observation only (a thought is written
        before its step runs: a figure it states is a guess even where the call then reads it)."""
        sources = self.sources
        if trial is not None and step is not None:
            sources = [s for s in sources if not (s.kind == "observation" and s.trial == trial
                                                  and s.step is not None and s.step >= step)]
        return ungrounded(trace(text, sources, self.names())) if text else []

    def invented(self, tool: str, args: Any) -> list[str]:
        """Site, asset and sensor names in a call's arguments that the SkySpark does not have."""
        return invented_names(self.catalog, args) if self.catalog is not None else []


def _call_key(tool: str, step: int, args: Any) -> str:
    """A call's identity (tool and arguments): a call made again replaces the earlier one's head."""
    return f"{tool} {json.dumps(args, sort_keys=True, default=str)}" if args is not None else f"{tool} {step}"


def _named_in(args: Any) -> list[str]:
    """The site and asset names a call's arguments give ({site_name, asset_name(s)})."""
    if not isinstance(args, dict):
        return []
    out = []
    for k in ("site_name", "asset_name", "asset_names"):
        v = args.get(k)
        out += [v] if isinstance(v, str) else [x for x in v if isinstance(x, str)] if isinstance(v, list) else []
    return out


def invented_names(catalog: Catalog, args: Any) -> list[str]:
    """The names in tool arguments ({site_name, asset_name(s), sensor_name}) that `catalog` lacks."""
    if not isinstance(args, dict):
        return []
    out: list[str] = []
    site = args.get("site_name")
    if not isinstance(site, str):
        return out
    canonical = catalog.canonical_site(site)
    if canonical is None:
        return [site]
    assets = args.get("asset_names", args.get("asset_name"))
    assets = [assets] if isinstance(assets, str) else [a for a in assets or [] if isinstance(a, str)]
    found = []
    for asset in assets:
        name = catalog.canonical_asset(canonical, asset)
        if name is None:
            out.append(asset)
        else:
            found.append(name)
    sensor = args.get("sensor_name")
    if isinstance(sensor, str) and found:
        for asset in found:
            if not catalog.has_sensor(canonical, asset, sensor) and not _prefixed_sensor(catalog, canonical, asset,
                                                                                         sensor, found):
                out.append(sensor)
                break
    return out


def _prefixed_sensor(catalog: Catalog, site: str, asset: str, sensor: str, assets: list[str]) -> bool:
    """"Chiller 6 Tonnage" asked of Chiller 9 too: the part after any listed asset's name."""
    for other in assets:
        m = re.match(re.escape(other) + r"[\s_]+(.+)$", sensor, re.I)
        if m and catalog.has_sensor(site, asset, m.group(1)):
            return True
    return False
