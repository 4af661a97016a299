"""A run's grounding: what the question names on the SkySpark, what a call may write, and the evidence so far.

`Grounding.build(question, catalog, now)` links the question's names (`linking.link`) and its period
(`dates.resolve_period`) in code before the first step. The agent then asks it for

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

from edge_agent.grounding import fieldvocab
from edge_agent.grounding.catalog import Catalog, key
from edge_agent.grounding.linking import Links, link
from edge_agent.grounding.measures import Measure, comparable, fits, kind_label, kind_names, point_measure
from edge_agent.grounding.periods import two_periods
from edge_agent.grounding.provenance import Claim, Source, codes, digit_tokens, evidence_tokens, trace, ungrounded
from edge_agent.grounding.question import FUNCTION_WORDS as QUESTION_FUNCTION_WORDS
from edge_agent.grounding.question import Part, Reading, outside_topic, read_question, spelled
from edge_agent.grounding.scope import Scope


def _period_span(question: str, phrase: str) -> list[tuple[int, int]]:
    if not phrase:
        return []
    at = question.casefold().find(phrase.casefold())
    return [(at, at + len(phrase))] if at >= 0 else []


#: the question asks for names or a count: "what are their names", "list the sensors", "what assets",
#: "which IoT sites", "how many chillers"
_ASKS_NAMES = re.compile(
    r"\b(?:names?|list|how many|count|number of|(?:what|which)(?: \w+){0,2} (?:sites|plants|"
    r"assets|equipment|sensors|points|measurements|readings|metrics|values))\b",
    re.I,
)
#: which tool's call answers a part that asks for this (`question.Part.ask`)
ANSWERED_BY = {
    "rank": ("rank",),
    "excursion": ("excursions",),
    "derive": ("derive",),
    "duration": ("excursions",),
    "periods": ("compare_periods",),  # two periods compared (`grounding.periods` reads them)
}
ANALYSIS_TOOLS = frozenset(t for tools in ANSWERED_BY.values() for t in tools)
#: words of building data: a question with one of them, or a linked name, is about the SkySpark
_PLANT_WORDS = re.compile(
    r"\b(?:sites?|plants?|assets?|equipment|sensors?|points?|buildings?|skyspark|haystack|"
    r"readings?|measurements?|metrics?|values?|data|history|histories|trend|series|units?|"
    r"hvac|bms|kw|kwh|setpoints?|files?|json|csv|downloads?)\b",
    re.I,
)
_TIME_QUESTION = re.compile(
    r"\b(?:what(?:'s| is)? (?:the )?(?:time|date|day)|today'?s date|current (?:time|date))\b", re.I
)
#: with a kind of equipment linked ("air handling units"), "which"/"what" asks for names too
_WHICH = re.compile(r"\b(?:what|which)\b", re.I)
#: the generic things a listing lists (what a question may ask to count or list without naming a kind)
_GENERIC_THINGS = re.compile(
    r"\b(?:sites?|plants?|buildings?|assets?|equipment|devices?|sensors?|points?|"
    r"measurements?|readings?|metrics?|values?)\b",
    re.I,
)
#: a listing's head ("found 5 chiller assets at POKMAIN: …"): what answers a question asking for names or a count
_LISTING = re.compile(r"found \d+ ", re.I)
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
    reading: Reading = field(default_factory=Reading)  # the question's intent and parts (`question.read_question`)
    in_code: str = ""  # the whole answer written by code before any step: a refusal, or a yes/no on existence
    refusal: str = ""  # why code refused (control, injection, outside, forecast); '' where it did not
    future: str = ""  # the question's period lies after the clock ("tomorrow", "next week"): its phrase
    unplaced: list[str] = field(default_factory=list)  # words of the question nothing could place (named in the run)
    period_phrase: str = ""  # the words the period was read from
    qualified: dict[str, list[str]] = field(default_factory=dict)  # kind → the question's narrowing words
    # a `periods` part: the second period compared (start, final); start/final are the first
    other: tuple[str, str] | None = None
    _scope: Scope | None = None
    _names_words: set[str] | None = None

    @classmethod
    def build(cls, question: str, catalog: Catalog | None, now: datetime | None = None, note: str = "") -> Grounding:
        from edge_agent.grounding.dates import resolve_period

        period = resolve_period(question, now) if now is not None else None
        start, final = period.iso() if period is not None else (None, None)
        links = None
        if catalog is not None:
            links = link(question, catalog, exclude=_period_span(question, period.phrase if period else ""))
        g = cls(question=question, catalog=catalog, links=links, start=start, final=final, note=note)
        g.period_phrase = period.phrase if period is not None else ""
        if period is not None and now is not None and period.start > now:
            g.future = period.phrase
        g.sources.append(Source(kind="question", text=question))
        if catalog is not None:
            g.reading = _reading(question, catalog, links)
            if now is not None and any(p.ask == "periods" for p in g.reading.parts):
                pair = two_periods(spelled(question), now)
                if pair is not None:
                    (g.start, g.final), g.other = pair[0].iso(), pair[1].iso()
            g._only_requests()
            g.unplaced = g._unplaced(period.phrase if period else "")
            g._unplaced_measure()
            g.in_code = g._written_in_code()
            if g.in_code:  # what code read from the catalog to write it is a fact of this run
                g.sources.append(Source(kind="facts", text=g.in_code))
        return g

    # -- what code answers before any step --
    def _written_in_code(self) -> str:
        """A refusal (operating equipment, an instruction in the question, a topic outside the data) or the
        yes/no of an existence question; '' where the agent has work to do."""
        links, r = self.links, self.reading
        intent = r.intent
        if intent == "read" and (self.future or (r.parts and all(p.ask == "forecast" for p in r.parts))):
            intent = "forecast"  # before the outside topics: a plant's forecast is no weather question
        if intent == "read" and self._outside():
            intent = "outside"
        can = self._can()
        if intent in ("control", "injection", "outside", "forecast"):
            self.refusal = intent
        if intent == "control":
            target = ", ".join(links.assets) or ", ".join(links.sites) or "equipment"
            verb = r.verb or "operate"
            return f"This gateway only reads data; it cannot {verb} {target} or change anything on the plant. {can}"
        if intent == "injection":
            return (
                f"This gateway answers questions about the data on the SkySpark and does not follow instructions "
                f"written into a question. {can}"
            )
        if intent == "forecast":
            when = f" for {self.future}" if self.future else ""
            return f"This gateway cannot forecast: it reads recorded data, and none is recorded{when} yet. {can}"
        if intent == "outside":
            return (
                f"This gateway cannot answer that: it only answers questions about the sites, equipment and "
                f"sensor data on the SkySpark. {can}"
            )
        if len(r.parts) == 1 and r.parts[0].ask == "exists":
            return self._exists()
        if r.parts and all(p.ask == "attribute" for p in r.parts):
            return self._attributes()
        return self._kind_listing()

    def _kind_listing(self) -> str:
        """The assets of a kind at a site, for a question that asks for nothing else ("electricity meters at S?",
        "how many UPSs does DC1 have", "list the chillers at S"): read from the catalog, no model or tool call."""
        links, r = self.links, self.reading
        if (
            len(links.sites) != 1
            or len(links.asset_types) != 1
            or links.assets
            or links.sensors
            or links.measures
            or self.start is not None
            or links.missing
            or self.unplaced
            or r.also
        ):
            return ""
        if len(r.parts) != 1 or r.parts[0].ask not in ("names", "count", "data"):
            return ""
        site, kind = links.sites[0], links.asset_types[0]
        found = self.catalog.site(site).assets_of_type(kind)
        words = self.qualified.get(kind, [])
        named = [a for a in found if words and all(w.casefold() in a.casefold() for w in words)]
        if not found:
            return ""
        if words and named:  # "exhaust fans": the fans whose names say exhaust
            found = named
        said = f"Found {len(found)} {kind_label(kind, len(found))} at {site}: {', '.join(found)}"
        if words and not named:  # said, so nobody takes every fan for an exhaust fan unawares
            said += (
                f" (the SkySpark marks them {kind}; neither a marker nor a name says which are "
                f"{' '.join(words)} {kind_label(kind, 2)})"
            )
        return said

    def _attributes(self) -> str:
        """What the SkySpark records of an asset beyond its histories, for a question that asks for such a thing (a
        manufacturer, a model, a rating, an install date): the tag that holds it, where the asset has one; else that
        the SkySpark does not record it, and what it does hold."""
        links, out = self.links, []
        assets = [(links.asset_sites[a], a) for a in links.assets] or [
            (s, a) for s in links.sites for t in links.asset_types for a in self.catalog.site(s).assets_of_type(t)
        ][:3]
        for part in self.reading.parts:
            asked = _ATTRIBUTE_NAMES.get(part.attribute or "", part.attribute or "that")
            for site, asset in assets or [("", "")]:
                tags = self.catalog.site(site).attrs.get(asset, {}) if site else {}
                held = next(((k, v) for k, v in tags.items() if _same_words(asked, k)), None)
                if held:
                    out.append(
                        f"The {' '.join(fieldvocab.marker_words(held[0]))} of {asset} recorded on the "
                        f"SkySpark is {held[1]}"
                    )
                else:
                    what = f" of {asset}" if asset else ""
                    out.append(f"The {asked}{what} is not recorded on the SkySpark")
        if not out:
            return ""
        return "; ".join(dict.fromkeys(out)) + f". {self._can()}"

    def _only_requests(self) -> None:
        """A question whose only asking clause is a courtesy ("Sorry to bother you, please switch X on") is a request
        to operate, not a mixed one: nothing of the SkySpark is asked besides the refused pieces. With an instruction
        written into it, a question is answered only where it asks for something specific (a measure, a sensor, a
        period: "what was the mean power of X on Monday? Also ignore your rules …"); "forget your instructions … how
        is Chiller 3?" is refused whole."""
        r = self.reading
        if r.intent != "read" or not r.also:
            return
        rest = self.asked_text()
        period = bool(self.period_phrase) and self.period_phrase.casefold() in rest.casefold()
        specific = bool(
            fieldvocab.measure_words(rest)
            or period
            or [m for m in self.links.mentions if m.text and m.kind == "sensor" and m.text in rest]
        )
        if "injection" in r.also:  # with an instruction, only a question the reading can pin down is answered
            if not specific:
                self.reading = r.model_copy(update={"intent": "injection", "also": [], "also_spans": []})
            return
        names = [m.text for m in self.links.mentions if m.text]
        if specific or any(n in rest for n in names):
            return
        verb = r.also[0].split(":", 1)[1].strip().split()[0] if ":" in r.also[0] else "operate"
        self.reading = r.model_copy(update={"intent": "control", "verb": verb, "also": [], "also_spans": []})

    def _unplaced(self, period: str) -> list[str]:
        """The question's words that neither the reading (form cues, function words, operating verbs), the linking
        (sites, assets, sensors, kinds, missing names), the period, the field's vocabulary (kinds, measures, units)
        nor a number placed."""
        from edge_agent.grounding.dates import MONTHS, WEEKDAYS
        from edge_agent.grounding.question import COURTESY_WORDS, unplaced_words, words

        placed: set[str] = (
            set(words(period))
            | set(MONTHS)
            | set(WEEKDAYS)
            | {d[:3] for d in WEEKDAYS}
            | {"tues", "thur", "thurs", "morning", "afternoon", "evening", "night", "noon", "midnight", "weekend"}
            | set(COURTESY_WORDS)
        )
        for m in self.links.mentions:
            placed |= set(words(m.text))
        for m in self.links.missing:
            placed |= set(words(m.text))
        left = []
        for w in unplaced_words(self.question, self.reading, placed):
            if (
                re.fullmatch(r"[\d.,:%-]+|\d+\w{0,2}", w)
                or fieldvocab.measure_words(w)
                or fieldvocab.kinds_named(w)
                or fieldvocab.quantity_of_unit(w) is not None
                or self._qualifier(w)
                or self._in_catalog(w)
            ):
                continue
            left.append(w)
        return left

    def _qualifier(self, w: str) -> bool:
        """`w` qualifies a kind the question names into a narrower kind the field defines and the SkySpark does not
        mark ("exhaust" in "exhaust fans" where the equip records say `fan`; Brick's Exhaust_Fan is a Fan): placed,
        and remembered so the listing says what the SkySpark does and does not record (`qualified`)."""
        for kind in self.links.asset_types:
            label = " ".join(fieldvocab.marker_words(kind))
            if not label or not re.search(
                rf"\b{re.escape(w)}\W+(?:\w+\W+){{0,2}}?{re.escape(label.split()[0])}", self.question, re.I
            ):
                continue
            if any(kind in fieldvocab.kind_parents(m) for m in fieldvocab.kinds_named(f"{w} {label}")):
                self.qualified.setdefault(kind, []).append(w)
                return True
        return False

    def _unplaced_measure(self) -> None:
        """A question that names assets and asks for their data, but names no sensor of theirs and no measure, while a
        word of it stands unplaced ("max Level for Chiller B", where Chiller B has no level): that word is the
        measure asked for, and the assets do not have it. Said as a missing sensor, so no other series stands in."""
        links, r = self.links, self.reading
        if (
            not self.unplaced
            or not links.assets
            or links.sensors
            or links.measures
            or links.missing
            or r.also
            or self.start is None
        ):  # a data question names its period; "which company made X?" is none
            return
        if not r.parts or not all(
            p.ask in ("data", "rank", "excursion", "derive", "duration", "when_extreme") for p in r.parts
        ):
            return
        from edge_agent.grounding.linking import Missing

        words = re.findall(r"[\w%°.-]+", self.question)
        text = next((w for w in words if w.casefold() in self.unplaced), self.unplaced[0])
        for asset in links.assets:
            site = links.asset_sites[asset]
            links.missing.append(
                Missing(
                    text=text,
                    kind="sensor",
                    site=site,
                    asset=asset,
                    suggestions=[s.short for s in self.catalog.sensors(site, asset)][:8],
                )
            )

    def _in_catalog(self, word: str) -> bool:
        """The word is part of a name on the SkySpark (a site, an asset or a sensor of the sites in play)."""
        if self._names_words is None:
            names = set(self.catalog.sites)
            linked = [(self.links.asset_sites[a], a) for a in self.links.assets]
            for site in self.links.sites or (self.catalog.sites if len(self.catalog.sites) <= 12 else []):
                for a in self.catalog.assets(site):
                    names.add(a)
                    if not linked:  # with assets named, only their own sensors place a word
                        names.update(s.short for s in self.catalog.sensors(site, a))
            for site, a in linked:
                names.update(s.short for s in self.catalog.sensors(site, a))
            from edge_agent.grounding.question import words

            self._names_words = {w for n in names for w in words(n)} | {
                w for n in names for w in fieldvocab.normalize(n).split()
            }
        return word in self._names_words

    def declined(self) -> str:
        """For a question that asks for data and also to operate something or carries an instruction: the sentence
        that refuses the rest, which the answer starts with ('' where there is none)."""
        out = []
        for piece in self.reading.also:
            if piece.startswith("control"):
                verb = piece.split(":", 1)[1].strip() if ":" in piece else "operate equipment"
                out.append(f"This gateway only reads data; it did not {verb}")
            elif piece.startswith("injection"):
                out.append("It does not follow instructions written into a question")
        return "; ".join(dict.fromkeys(out))

    def asked_text(self) -> str:
        """The question as the agent's model reads it: without the pieces code refused (a request to operate
        equipment, an instruction), which never reach the prompt."""
        text = self.question
        for a, b in sorted(self.reading.also_spans, reverse=True):
            text = text[:a] + " " + text[b:]
        return " ".join(text.split()) or self.question

    def _outside(self) -> bool:
        """Nothing the question says is on the SkySpark and it speaks of another topic (or of nothing of a
        building's data at all, and not of the time)."""
        linked = [m for m in self.links.mentions if m.text]
        rest = self.asked_text()  # the pieces refused already (an instruction, a request) are no topic
        for m in linked:
            rest = rest.replace(m.text, " ")
        if outside_topic(rest):
            return True
        if linked or self.links.missing or self.start is not None or _TIME_QUESTION.search(self.question):
            return False
        words = {w.casefold() for w in re.findall(r"[\w%]+", self.question)}
        vocabulary = {w.casefold() for t in self.catalog.kinds() for n in kind_names(t) for w in n.split()}
        plural = {w[:-1] for w in words if w.endswith("s")}
        return not (
            _PLANT_WORDS.search(self.question)
            or (words | plural) & vocabulary
            or fieldvocab.measure_words(self.question)
            or fieldvocab.kinds_named(self.question)
        )

    def _can(self) -> str:
        """What the gateway can do instead, about what the question names."""
        links, catalog = self.links, self.catalog
        if links.assets:
            asset = links.assets[0]
            shorts = [s.short for s in catalog.sensors(links.asset_sites[asset], asset)]
            more = f" and {len(shorts) - 8} more" if len(shorts) > 8 else ""
            return f"It can read the recorded values of {asset}'s sensors ({', '.join(shorts[:8])}{more})."
        if links.sites:
            return f"It can list the assets and sensors of {links.sites[0]} and read their recorded values."
        return "It can list the sites, assets and sensors on the SkySpark and read their recorded values."

    def _exists(self) -> str:
        """Yes or No to "is there an X at S?", from the linking alone; a name the question spells out ("an asset
        called Boiler East") must be an asset's name, not merely start with a kind of equipment."""
        links = self.links
        called = _CALLED.search(self.question)
        if called and links.sites:
            site, name = links.sites[0], called.group(1).strip(" '\"")
            found = self.catalog.canonical_asset(site, name)
            if found:
                return f"Yes: {found} is an asset at {site}"
            from edge_agent.grounding.linking import Missing, _alike

            return (
                "No: "
                + Missing(
                    text=name, kind="asset", site=site, suggestions=_alike(name, self.catalog.assets(site))
                ).sentence()
            )
        missing = [m for m in links.missing if m.kind in ("asset", "site", "kind")]
        if missing:
            return "No: " + missing[0].sentence()
        if links.assets:
            return "Yes: " + "; ".join(f"{a} is an asset at {links.asset_sites[a]}" for a in links.assets)
        if links.asset_types and links.sites:
            site = links.sites[0]
            found = list(dict.fromkeys(a for t in links.asset_types for a in self.catalog.site(site).assets_of_type(t)))
            if found:
                label = kind_label(links.asset_types[0], len(found))
                return f"Yes: {site} has {len(found)} {label}: {', '.join(found[:8])}"
        if (
            [m for m in links.mentions if m.kind == "site" and m.how != "only"]
            and not links.assets
            and not self.unplaced
        ):  # "does S have a Kessel?": a word nothing placed is no question about S
            return f"Yes: {links.sites[0]} is a site on the SkySpark"
        return ""

    def set_facts(self, text: str) -> None:
        self.facts = text
        self.sources = [s for s in self.sources if s.kind != "facts" or (self.in_code and s.text == self.in_code)]
        if text:
            self.sources.append(Source(kind="facts", text=text))

    def scope(self) -> Scope | None:
        if self.catalog is None or self.links is None:
            return None
        if self._scope is None:
            self._scope = Scope.from_links(
                self.links, self.catalog, start=self.start, final=self.final, pins=_pins(self.reading, self.other)
            )
        return self._scope

    def known(self) -> set[str]:
        """What the question's grounding already tells, in the words tools use for `provides`/`needs`:
        "site", "asset", "sensor" (the question names one that exists), "period" (worked out), "clock"
        (the period is worked out, or the question speaks of no time), "linking" (names and dates are
        worked out in code: always, with a catalog), "one_file" (one file is asked for), "file" (the
        question speaks of files)."""
        if self.links is None:
            return set()
        from edge_agent.grounding.dates import mentions_time
        from edge_agent.grounding.question import wants_single_file

        out = {
            kind
            for kind, names in (
                ("site", self.links.sites),
                ("asset", self.links.assets),
                ("sensor", self.links.sensors),
            )
            if names
        }
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

    def offered(self, tools: Any, trial: int | None = None) -> list[str] | None:
        """The tools worth offering (None: all): not one whose findings the grounding already has, nor one
        that needs what it lacks, nor an analysis tool no open part of the question asks for (and, while a part
        asking for a conclusion is open, not `histories`: its figures are not the conclusion). Finish is always
        among them."""
        if self.catalog is None or self.links is None:
            return None
        known = self.known()
        asks = {p.ask for p in self.open_parts(trial)} or {p.ask for p in self.reading.parts}
        wanted = {t for a in asks for t in ANSWERED_BY.get(a, ())}
        data_open = bool(asks - set(ANSWERED_BY) - {"exists"})
        if wanted and not data_open:  # only conclusions are left: their tools read what they need themselves
            return [
                t.name
                for t in tools
                if (t.name in wanted and set(t.needs) <= known)
                or (t.builtin and not (t.provides and set(t.provides) <= known))
            ]
        listed = self._listed(trial) if len(self.reading.parts) > 1 else set()
        out = []
        for t in tools:
            if (t.provides and set(t.provides) <= known and not set(t.provides) & listed) or not set(t.needs) <= known:
                continue
            if t.name in ANALYSIS_TOOLS and t.name not in wanted:
                continue
            if t.answers and t.name not in ANALYSIS_TOOLS and wanted and not data_open:
                continue
            out.append(t.name)
        return out

    def observe(
        self,
        trial: int,
        step: int,
        tool: str,
        text: str,
        *,
        head: str = "",
        answers: bool = False,
        call: str = "",
        args: Any = None,
    ) -> None:
        """Record an Observation (and its tool's head, see `toolkit.Said`, and its call's arguments) as
        evidence of `trial`."""
        if head and head not in text:  # the head's figures are evidence even where the Observation was cut
            text = f"{text}\n{head}"
        if text:
            self.sources.append(
                Source(
                    kind="observation",
                    text=text,
                    trial=trial,
                    step=step,
                    tool=tool,
                    head=head,
                    answers=answers,
                    call=call or _call_key(tool, step, args),
                    about=_named_in(args),
                )
            )

    def answer_tokens(self) -> set[str]:
        """The figures, codes and file names an answer may write: the evidence's, less those of answers
        already refused in this run (so a refused answer is not written again word for word)."""
        return evidence_tokens(s.text for s in self.sources) - self.refused

    def missing_prefix(self) -> str:
        """The facts of what the question names and the SkySpark does not have ("There is no asset …"), or the
        whole answer code wrote before any step (a refusal, a yes/no on existence)."""
        if self.in_code:
            return self.in_code
        facts = [self.declined()] + [m.sentence() for m in (self.links.missing if self.links is not None else [])]
        return "; ".join(f for f in facts if f)

    def answered_by_links(self) -> bool:
        """Everything the question names is missing: no asset, or assets lacking every sensor asked for (an
        asset lacking one of two sensors still has the other to read) — or code wrote the whole answer (a
        refusal, an existence yes/no). Then no tool has anything to read."""
        if self.in_code:
            return True
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
            if s.answers or (names and _LISTING.match(s.head) and all(key(n) in named for n in s.about)):
                latest.pop(s.call, None)
                latest[s.call] = _sentence(s.head)
        heads = list(dict.fromkeys(latest.values()))[-MAX_HEADS:]
        if self.reading.by_parts:  # the answer goes part by part, in the question's order
            # each part's head, in the part's order: what answers the question and nothing else
            heads = list(dict.fromkeys(_sentence(s.head) for s in self.assignment(trial) if s is not None))
        return heads

    def answer_closed(self, trial: int | None = None) -> bool:
        """The start written by code is the whole answer: everything the question names is missing, or the
        trial's calls answered every part of it (a tiny model asked to go on after that only repeats its pieces)."""
        return self.answered_by_links() or (bool(self.heads(trial)) and not self.open_parts(trial))

    def _listed(self, trial: int | None) -> set[str]:
        """What the open listing parts of a question in several parts ask to list ("site", "sensor" or "asset"):
        the linking knowing the names does not answer "how many" or "which"."""
        out = set()
        for part in self.open_parts(trial):
            if part.ask in ("names", "count"):
                text = part.text.casefold()
                out.add(
                    "site"
                    if re.search(r"\b(?:sites|plants)\b", text)
                    else "sensor"
                    if re.search(r"\b(?:sensors|points|measurements|readings|metrics)\b", text)
                    else "asset"
                )
        return out

    def _answering(self, trial: int | None) -> list[Source]:
        """The trial's successful calls whose heads answer something, in call order (a repeated call once)."""
        latest: dict[str, Source] = {}
        for s in self.sources:
            if s.kind == "observation" and s.head and trial in (None, s.trial):
                latest.pop(s.call, None)
                latest[s.call] = s
        return list(latest.values())

    def assignment(self, trial: int | None = None) -> list[Source | None]:
        """For each part of the question, the call that answers it (None: none yet). A part asking for a
        conclusion needs its analysis tool's call; a data part any data call; a listing part a listing of what it
        names (or any listing); every call answers one part at most, the parts taken in order."""
        calls = self._answering(trial)
        used: set[int] = set()
        out: list[Source | None] = []
        names_asked = bool(
            self.links is not None
            and (_ASKS_NAMES.search(self.question) or (self.links.asset_types and _WHICH.search(self.question)))
        )
        for part in self.reading.parts or [Part(text=self.question, ask="other")]:
            pick = None
            for n, s in enumerate(calls):
                if n in used:
                    continue
                if part.ask in ANSWERED_BY:
                    fits = s.tool in ANSWERED_BY[part.ask]
                elif part.ask in ("names", "count"):
                    fits = not s.answers and bool(_LISTING.match(s.head))
                elif part.ask == "exists":
                    fits = False
                else:
                    fits = (s.answers and s.tool not in ANALYSIS_TOOLS) or (
                        not s.answers and names_asked and len(self.reading.parts) == 1
                    )
                if fits:
                    pick = n
                    break
            if pick is not None:
                if part.ask not in ("names", "count"):  # one listing tells both how many and which
                    used.add(pick)
                out.append(calls[pick])
            else:
                out.append(None)
        return out

    def established(self, trial: int | None = None) -> str:
        """Where some parts of the question were answered by this run's calls and others not: what was established
        (each answered part's head, in the question's order) and what was not (the open parts, in the question's
        words) — the answer of a `partial` run. '' when no part, or every part, was answered."""
        if self.links is None or self.answered_by_links() or len(self.reading.parts) < 2:
            return ""
        picks = self.assignment(trial)
        done = [s for p, s in zip(self.reading.parts, picks) if s is not None]
        open_ = [p for p, s in zip(self.reading.parts, picks) if s is None and p.ask != "exists"]
        if not done or not open_:
            return ""
        heads = list(dict.fromkeys(_sentence(s.head) for s in done))
        missing = self.missing_prefix()
        said = "; ".join(x for x in [missing, *heads] if x)
        return f"{said}. Not established by this run: " + "; ".join(f'"{p.text}"' for p in open_)

    def holds_finish(self, trial: int | None = None) -> bool:
        """Finish waits: a question in several parts, or one asking for a conclusion, has a part no call answered."""
        return self.reading.by_parts and bool(self.open_parts(trial))

    def unsupported(self, trial: int, answer: str, claims: list[Claim]) -> str:
        """Why `answer` (trial `trial`'s) may not be delivered as answered ('' when it may): code's answer before
        any step must be what it says; otherwise every part of the question needs a call of this trial that
        answers it, and the answer must state what code wrote of those calls — or, where code wrote nothing,
        at least one figure or name an Observation of this trial holds. Prose alone is never an answer."""
        if self.catalog is None or self.links is None:
            return ""
        if self.answered_by_links():
            return "" if answer.startswith(self.missing_prefix()) else "the answer is not the one the facts give"
        if (
            self.unplaced
            and not self.links.asset_types
            and any(p.ask in ("count", "names") and not _GENERIC_THINGS.search(p.text) for p in self.reading.parts)
        ):
            # "count the Kessel": what is to be counted or listed is a word nothing placed; a listing of everything
            # at the site does not answer it
            return "what the question asks to count or list is not understood: " + ", ".join(self.unplaced)
        open_ = self.open_parts(trial) if self.reading.by_parts else []
        if open_:
            return "no call of this run answered: " + "; ".join(f'"{p.text}"' for p in open_)
        prefix = self.answer_prefix(trial)
        if prefix:
            return (
                ""
                if " ".join(answer.split()).startswith(" ".join(prefix.split()))
                else "the answer does not state what this run's calls found"
            )
        if not well_formed(answer):
            return "the answer repeats itself, not a statement"
        if (
            len(self.reading.parts) == 1
            and self.reading.parts[0].form == "yes_no"
            and not re.match(r"\W*(?:yes|no)\b", answer, re.I)
        ):
            return "the question asks yes or no, and the answer says neither"
        if not any(
            c.grounded and c.source == "observation" and c.trial in (None, trial) for c in claims
        ) and not self._words_held(trial, answer, every=False):
            return "no figure, name or word of the answer comes from this run's Observations"
        if not self._words_held(trial, answer, every=True):
            return "the answer says what this run's Observations do not: " + ", ".join(self._unheld(trial, answer)[:6])
        return ""

    def _evidence_text(self, trial: int) -> str:
        """The words that may hold an answer's prose: the question, the facts code worked out (not the Distill
        model's own goal and parts: words the model wrote are no evidence for words the model writes) and this
        trial's Observations."""
        texts = [
            _code_facts(s.text) if s.kind == "facts" else s.text
            for s in self.sources
            if s.kind != "observation" or s.trial == trial
        ]
        return " ".join(texts).casefold()

    def _unheld(self, trial: int, answer: str) -> list[str]:
        """The answer's content words (three letters or more, not English function words) that neither this
        trial's Observations, the facts nor the question hold."""
        seen = self._evidence_text(trial)
        words = dict.fromkeys(w.casefold() for w in re.findall(r"[^\W\d_]{3,}", answer))
        return [w for w in words if w not in ANSWER_WORDS and not re.search(rf"\b{re.escape(w)}", seen)]

    def _words_held(self, trial: int, answer: str, *, every: bool) -> bool:
        """`every`: each content word of the answer is held by the evidence (prose is delivered as answered only
        where the run's facts support it whole); else: at least one word of this trial's Observations is in it."""
        if every:
            return not self._unheld(trial, answer)
        seen = " ".join(s.text for s in self.sources if s.kind == "observation" and s.trial == trial).casefold()
        words = {w.casefold() for w in re.findall(r"[^\W\d_]{3,}", answer)} - ANSWER_WORDS
        return any(re.search(rf"\b{re.escape(w)}\b", seen) for w in words)

    def open_parts(self, trial: int | None = None) -> list[Part]:
        """The parts of the question no call of the trial has answered yet (none once code wrote the answer)."""
        if self.links is None or self.answered_by_links():
            return []
        parts = self.reading.parts
        if not self.reading.by_parts:  # one part: any answering head closes it, as before
            return [] if self.heads(trial) else list(parts)
        return [p for p, s in zip(parts, self.assignment(trial)) if s is None and p.ask != "exists"]

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
            sources = [
                s
                for s in sources
                if not (s.kind == "observation" and s.trial == trial and s.step is not None and s.step >= step)
            ]
        return ungrounded(trace(text, sources, self.names())) if text else []

    def wrong_measure(self, tool: str, args: Any) -> str:
        """Why a call reads the wrong measure ('' when it does not): its series is not the measure the question asks
        for (an energy question reads an energy or a power sensor; "temperature" a temperature), the series compared
        with a limit is itself a setpoint, or two series are subtracted, added or compared that are not one quantity
        in one unit (a ratio may cross kinds: kW per ton). Checked before the call runs; the Observation says which
        sensors would do."""
        if self.catalog is None or self.links is None or not isinstance(args, dict):
            return ""
        site = self.catalog.canonical_site(str(args.get("site_name", "")))
        sensor = args.get("sensor_name")
        if site is None or not isinstance(sensor, str):
            return ""
        names = args.get("asset_names") or ([args["asset_name"]] if isinstance(args.get("asset_name"), str) else [])
        assets = [a for n in names if isinstance(n, str) and (a := self.catalog.canonical_asset(site, n))]
        if not assets and isinstance(args.get("asset_type"), str):
            assets = self.catalog.site(site).assets_of_type(args["asset_type"])
        first = self._measure(site, assets, sensor)
        if first is None:
            return ""
        wanted = self.links.measures
        if wanted and not fits(wanted, first):
            good = [
                s.short
                for a in assets[:1]
                for s in self.catalog.sensors(site, a)
                if fits(wanted, m := point_measure(s)) and m.quantity is not None and not m.setpoint
            ]
            offer = f"; the sensors that measure it: {', '.join(good[:8])}" if good else ""
            return (
                f"{sensor} measures {first.quantity or 'something else'}, and the question asks for "
                f"{' or '.join(wanted)}{offer}."
            )
        other = args.get("limit_sensor") or (
            args.get("other_sensor") if args.get("op") in ("difference", "sum") else None
        )
        if isinstance(other, str):
            owner = args.get("other_asset") if isinstance(args.get("other_asset"), str) else None
            second = self._measure(
                site, [self.catalog.canonical_asset(site, owner) or owner] if owner else assets, other
            )
            if second is not None and not comparable(first, second):
                return (
                    f"{sensor} ({first.quantity or '?'}, {first.unit or 'no unit'}) and {other} "
                    f"({second.quantity or '?'}, {second.unit or 'no unit'}) are not one quantity in one unit: "
                    f"they cannot be subtracted, added or compared."
                )
            if tool == "excursions" and first.setpoint and not second.setpoint:
                return f"{sensor} is a setpoint: compare the measured series with it, not the other way round."
        return ""

    def _measure(self, site: str, assets: list[str], sensor: str) -> Measure | None:
        """The measure of `sensor` (full or short name) on the first of `assets` that has it."""
        for asset in assets:
            for s in self.catalog.sensors(site, asset):
                if key(sensor) in (key(s.short), key(s.name)):
                    return point_measure(s)
        return None

    def invented(self, tool: str, args: Any) -> list[str]:
        """Site, asset and sensor names in a call's arguments that the SkySpark does not have."""
        return invented_names(self.catalog, args) if self.catalog is not None else []


#: the words an answer uses besides the reading's English function words (`question.FUNCTION_WORDS`): they say how a
#: figure stands, not what it is
ANSWER_WORDS = QUESTION_FUNCTION_WORDS | frozenset(
    "above below answers data question read reads recorded sees sum there're total value values".split()
)


def _code_facts(text: str) -> str:
    """Distill's facts without the lines its model wrote (the goal, the parts)."""
    return "\n".join(line for line in text.splitlines() if not line.startswith(("Goal:", "Parts:")))


def _sentence(head: str) -> str:
    """A head as an answer starts: its first word capitalised where it is a plain word ("found 5 …" → "Found 5 …"),
    never where it is a name ("rtu_3 zone_temp was …" stays: "Rtu_3" is no name on the SkySpark)."""
    first = head.split(" ", 1)[0]
    return head[0].upper() + head[1:] if first.isalpha() and first.islower() else head


def well_formed(answer: str) -> bool:
    """No clause said twice ("SITE-A, SITE-B, found 2 sites, found 2 sites, …" is pieces of tool output repeated,
    not an answer), no item listed three times, and something said."""
    if not re.search(r"\w", answer):
        return False
    pieces = [" ".join(c.casefold().split()) for c in re.split(r"[,;.:!?\n]+(?:\s|$)|\s-\s", answer)]
    clauses = [c for c in pieces if len(c.split()) >= 2]
    if len(clauses) != len(set(clauses)):
        return False
    counts: dict[str, int] = {}
    for c in pieces:  # one item listed three times ("UPS, UPS, UPS"): output run on, not a list
        if c:
            counts[c] = counts.get(c, 0) + 1
    return max(counts.values(), default=0) < 3


#: how an answer names the attributes the question reading knows (`question.Part.attribute`)
_ATTRIBUTE_NAMES = {
    "installed": "install date",
    "serial": "serial number",
    "lifespan": "expected lifespan",
    "maintenance": "maintenance record",
}


def _same_words(asked: str, tag: str) -> bool:
    """An attribute the question asks for and a tag's name are one thing ("install date", `installDate`;
    "manufacturer", `manufacturer`; "serial number", `serialNum`): their words share their stems (5 letters)."""
    a = {w[:5] for w in fieldvocab.normalize(asked).split() if len(w) >= 4}
    t = {w[:5] for w in fieldvocab.marker_words(tag) if len(w) >= 4}
    return bool(a & t) and bool(a) and (a <= t or t <= a)


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
            if not catalog.has_sensor(canonical, asset, sensor) and not _prefixed_sensor(
                catalog, canonical, asset, sensor, found
            ):
                out.append(sensor)
                break
    return out


def _prefixed_sensor(catalog: Catalog, site: str, asset: str, sensor: str, assets: list[str]) -> bool:
    """ "Chiller 6 Tonnage" asked of Chiller 9 too: the part after any listed asset's name."""
    for other in assets:
        m = re.match(re.escape(other) + r"[\s_]+(.+)$", sensor, re.I)
        if m and catalog.has_sensor(site, asset, m.group(1)):
            return True
    return False


def _reading(question: str, catalog: Catalog, links: Links | None) -> Reading:
    """The question's parts, each knowing whether it names several assets or a kind (what a ranking needs)."""
    from edge_agent.grounding.question import split_parts

    texts = split_parts(question)
    many = []
    for text in texts:
        part = links if len(texts) == 1 and links is not None else link(text, catalog)
        many.append(
            len(part.assets) >= 2
            or bool(part.asset_types)
            or _names_a_kind(text, catalog, part)
            or bool(_OF_THEM.search(text))
        )
    return read_question(question, many)


#: "an asset called Boiler East at S", "named 'AHU 9' in S"
_CALLED = re.compile(r"\b(?:named|called)\s+(.+?)(?=\s+(?:at|in|on)\s|\s*[?.!]|$)", re.I)
#: "which of them", "which of these": the several things an earlier part named
_OF_THEM = re.compile(r"\bwhich (?:one )?of (?:them|these|those|the two|both)\b|\bwhich one\b", re.I)


def _names_a_kind(text: str, catalog: Catalog, links: Links) -> bool:
    """A plural word of `text` is the first word of several asset names at the linked sites ("the chillers"
    where there are Chiller 3 and Chiller 6; "the pumps" where there are Pump P-1 and Pump P-2)."""
    sites = links.sites or (catalog.sites if len(catalog.sites) == 1 else [])
    firsts: dict[str, int] = {}
    for site in sites:
        for asset in catalog.assets(site):
            word = re.split(r"[\s_\-]", asset.casefold())[0]
            firsts[word] = firsts.get(word, 0) + 1
    for word in re.findall(r"[^\W\d_]+", text.casefold()):
        singular = word[:-2] if word.endswith("es") and firsts.get(word[:-2], 0) >= 2 else word[:-1]
        if word.endswith("s") and firsts.get(singular, 0) >= 2:
            return True
    return False


def _pins(reading: Reading, other: tuple[str, str] | None = None) -> dict[str, Any]:
    """The analysis arguments the question states (`x-question` marks): those of its first analysis part (and the
    second of two periods compared)."""
    part = next((p for p in reading.parts if p.ask in ANSWERED_BY), None)
    if part is None:
        return {}
    pins = {
        "statistic": part.statistic,
        "order": part.order,
        "op": part.op,
        "direction": part.direction,
        "limit": part.limit,
        "setpoint": part.setpoint,
        "other_start": other[0] if other else None,
        "other_final": other[1] if other else None,
    }
    return {k: v for k, v in pins.items() if v is not None}
