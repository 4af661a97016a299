"""What entity linking finds (`Links`: the names a question gives, as the SkySpark has them, and `Missing`: what it
names that the SkySpark lacks), and the pieces the linking passes share: the question's tokens, name keys and their
variants, a typo's distance, the existing names a missing one looks like.

`grounding.linking.link` fills a `Links`; `grounding.lacking` adds what the question names beyond the catalog's
names (kinds of equipment, measures) and what it lacks.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from os.path import commonprefix
from typing import Literal

from pydantic import BaseModel, Field
from rapidfuzz.distance import DamerauLevenshtein

from edge_agent.grounding import fieldvocab
from edge_agent.grounding.catalog import key

Kind = Literal["site", "asset", "sensor", "kind"]
_TOKEN = re.compile(r"%|[^\W_][\w.\-/]*")
NUMBER = re.compile(r"\d+(?:[-.]\d+)*")
#: words that join list items after a name: "Chiller 6, 7 and 9"
LIST_TAIL = re.compile(r"\s*(?:,|&|\band\b|\bor\b)\s*(?:and\s+|&\s*)?(?P<n>\d+(?:[-.]\d+)*)(?![\w.])")
#: generic spellings of the same word in point names
#: upper-case words that are not site codes
NOT_CODES = frozenset(
    "JSON CSV HVAC ISO UTC GMT EST EDT CST CDT PST PDT KPI API IOT HTTP MQTT AHU AHUS FCU VAV RTU "
    "BMS BAS TODAY NOW PM AM".split()
)
#: words that join the words of a sentence, never the first or last word of a misspelt name
GLUE = frozenset("at in on of for to from and or the a an by with as is was".split())
ENERGY_WORDS = re.compile(r"\b(?:energy|kwh|consumption)\b", re.I)
TIMEISH = re.compile(r"^\d+(?:am|pm|st|nd|rd|th|h|min|s|d)$", re.I)
MAX_SPAN = 6
NEAR_CUTOFF = 0.85
#: how many existing names a note about a missing one offers
SUGGEST = 8
#: the generic words for a point: what "how many points …" counts, whatever the plant calls them
SENSOR_THINGS = re.compile(r"\b(?:sensors?|points?|measurements?|readings?|metrics?|signals?|channels?)\b", re.I)


class Mention(BaseModel):
    text: str  # as the question wrote it
    name: str  # the name on the SkySpark
    kind: Kind
    site: str = ""  # for assets and sensors: the site (and asset) they were found at
    how: Literal[
        "exact", "loose", "near", "list", "only", "part", "group", "within", "initials", "inverted", "tags", "city"
    ] = "exact"


class Missing(BaseModel):
    text: str
    kind: Kind
    site: str = ""
    asset: str = ""
    suggestions: list[str] = Field(default_factory=list)

    def sentence(self) -> str:
        """The fact as an answer begins: "There is no asset Chiller 7 at POKMAIN (there are Chiller 6, Chiller 9)"."""
        if self.kind == "kind":  # a kind of equipment the site does not have: "There is no boiler at S (it has …)"
            there = f" (its equipment: {', '.join(self.suggestions)})" if self.suggestions else ""
            return f"There is no {self.text} at {self.site}{there}"
        where = f" on {self.asset}" if self.asset else (f" at {self.site}" if self.site else "")
        there = f" (there are {', '.join(self.suggestions)})" if self.suggestions else ""
        return f"There is no {self.kind} {self.text}{where}{there}"

    def note(self) -> str:
        if self.kind == "kind":
            return self.sentence()[0].lower() + self.sentence()[1:]
        where = f" on {self.asset}" if self.asset else (f" at {self.site}" if self.site else "")
        what = {"site": "site", "asset": "asset", "sensor": "sensor"}[self.kind]
        there = f"; there are: {', '.join(self.suggestions)}" if self.suggestions else ""
        return f"there is no {what} {self.text}{where}{there}"


class Ambiguity(BaseModel):
    """Words that name assets at several sites, and the question names no site ("the main meter")."""

    text: str
    options: list[str]  # "main_meter at Patan Heritage Archive", …

    def sentence(self) -> str:
        return (
            f'"{self.text}" names equipment at {len(self.options)} sites: {", ".join(self.options)}. '
            f"Which one is meant? Name its site in the question."
        )


class Links(BaseModel):
    """What the question names, as the SkySpark names it."""

    sites: list[str] = Field(default_factory=list)
    assets: list[str] = Field(default_factory=list)
    asset_sites: dict[str, str] = Field(default_factory=dict)
    sensors: list[str] = Field(default_factory=list)  # short names
    asset_types: list[str] = Field(default_factory=list)  # equip markers named in the plural ("chillers", "AHUs")
    measures: list[str] = Field(default_factory=list)  # quantity kinds asked for ("temperature", "energy", …)
    mentions: list[Mention] = Field(default_factory=list)
    missing: list[Missing] = Field(default_factory=list)
    ambiguous: list[Ambiguity] = Field(default_factory=list)

    def notes(self) -> list[str]:
        return [m.note() for m in self.missing]

    def corrections(self) -> list[str]:
        """'"Tonage" is Tonnage' for every name the question spelt differently."""
        return [
            f'"{m.text}" is {m.name}'
            for m in self.mentions
            if m.how in ("loose", "near", "initials", "inverted", "tags") and m.text.casefold() != m.name.casefold()
        ]


def words_in(name: str) -> int:
    """How many words a question may write a name in: "gas_flow" is "gas flow" (two), "Chiller 6" two."""
    return max(len(_TOKEN.findall(name)), len([w for w in re.split(r"[\s_\-]+", name) if w]))


#: letters a keyboard without them writes as two ("Waermepumpe" for Wärmepumpe, "Kuehlturm" for Kühlturm)
_SPELLED_OUT = str.maketrans({"ä": "ae", "ö": "oe", "ü": "ue", "ß": "ss", "æ": "ae", "ø": "oe", "å": "aa"})


def key_variants(k: str) -> set[str]:
    out = {k, k.translate(_SPELLED_OUT), re.sub(r"(?<=\d)\.(?=\d)", "", k)}  # "pm2.5" is the point "pm25"
    out |= {re.sub(r"(?<!\d)0+(?=\d)", "", v) for v in list(out)}  # "CRAH-03" is "crah 3", "Pump 2" "pump 02"
    for long, short in fieldvocab.short_forms():  # a word as names shorten it: "room" → "rm"
        out |= {v.replace(long, short) for v in list(out)}
    return out


def plural_variants(tokens: list[str]) -> list[str]:
    """Keys of a span, also with its first word in the singular ("Chillers 6" → "chiller6"), or its last ("beer temps"
    of two fermenters → "beertemp")."""
    keys = [key("".join(tokens))]
    first, last = tokens[0], tokens[-1]
    if len(first) > 3 and first[-1] in "sS" and first.isalpha():
        keys.append(key(first[:-1] + "".join(tokens[1:])))
    if len(tokens) > 1 and len(last) > 3 and last[-1] in "sS" and last.isalpha() and last[-2] not in "sS":
        keys.append(key("".join(tokens[:-1]) + last[:-1]))
    return keys


class Tokens:
    def __init__(self, text: str):
        self.text = text
        self.items: list[tuple[str, int, int]] = []
        for m in _TOKEN.finditer(text):
            tok = m.group(0).rstrip(".-/")
            if tok:
                self.items.append((tok, m.start(), m.start() + len(tok)))
        self.used = [False] * len(self.items)

    def spans(self, longest: int) -> Iterator[tuple[int, int]]:
        """(i, j) spans of unused tokens, longest first, left to right."""
        for size in range(min(longest, len(self.items)), 0, -1):
            for i in range(0, len(self.items) - size + 1):
                if not any(self.used[i : i + size]):
                    yield i, i + size

    def words(self, i: int, j: int) -> list[str]:
        return [t for t, _, _ in self.items[i:j]]

    def raw(self, i: int, j: int) -> str:
        return self.text[self.items[i][1] : self.items[j - 1][2]]

    def take(self, i: int, j: int) -> None:
        for n in range(i, j):
            self.used[n] = True


def name_index(names: Iterable[str]) -> dict[str, str]:
    out: dict[str, str] = {}
    for name in names:
        for v in key_variants(key(name)):
            out.setdefault(v, name)
    return out


def digit_runs(text: str) -> list[str]:
    return re.findall(r"\d+", text)


def is_typo(written: str, name: str) -> bool:
    """`written` is a typo of `name` (both loose keys): at most one edit (a letter added, dropped, changed or two
    swapped) per 8 letters of the name, at least one. A close spelling with more edits is another name:
    AUSEAST is two letters from AUSWEST and names another site; "Tonage" is one from "Tonnage"."""
    return DamerauLevenshtein.distance(written, name) <= max(1, sum(ch.isalpha() for ch in name) // 8)


def inflected(written: str, name: str) -> bool:
    """`written` and `name` (loose keys) are one word with other endings: a stem of three letters or more, then at
    most two letters each, all vowels or "s" ("gas" / "Gases", "zone" / "Zona", "temperature" / "Temperatura": a
    plural, or the gender ending of a point named in another language). "hot" / "hotel" and "heat" / "heater" are
    other words."""
    if written == name or min(len(written), len(name)) < 3:
        return written == name
    stem = len(commonprefix([written, name]))
    ends = written[stem:], name[stem:]
    return stem >= 3 and all(len(e) <= 2 and set(e) <= set("aeiouys") for e in ends)


def name_shape(name: str) -> str:
    return re.sub(r"\d+", "#", key(name))


def alike(text: str, pool: list[str]) -> list[str]:
    """The existing names a missing one most looks like: containing it, same shape, same stem."""
    shape = name_shape(text)
    return (
        [a for a in pool if key(text) in key(a)]
        or [a for a in pool if name_shape(a) == shape]
        or [a for a in pool if name_shape(a).startswith(shape.split("#")[0])]
    )[:SUGGEST]


#: "supply and return temperatures": two measurements sharing their last words
