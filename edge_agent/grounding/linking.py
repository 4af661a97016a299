"""Entity linking in code: the sites, assets and sensors a question names, resolved against the catalog.

Before the first step, every run of tokens in the question is compared with the names the SkySpark
really has — exactly, then loosely spelled (case, spaces, underscores, hyphens: "B705 AHU1" is
"B705 AHU 1"), then as a near miss ("Tonage" is "Tonnage": same digits, a typo away; AUSEAST is not AUSWEST). Lists are
expanded ("Chiller 6 and 9"). What the question names but the SkySpark lacks is reported with the
names that do exist: a name shaped like the site's asset names ("Chiller 7" where there are Chiller 6
and Chiller 9, "B020" where there is B020_Total), a sensor that exists at the site but not on the named
asset, an upper-case code that is no site. Nothing here knows a plant: every name and shape comes
from the catalog.
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Iterable
from typing import Literal

from pydantic import BaseModel, Field
from rapidfuzz.distance import DamerauLevenshtein

from edge_agent.grounding import fieldvocab, measures
from edge_agent.grounding.catalog import Catalog, key
from edge_agent.grounding.measures import kind_label, kind_names

Kind = Literal["site", "asset", "sensor", "kind"]
_TOKEN = re.compile(r"%|[^\W_][\w.\-/]*")
_NUMBER = re.compile(r"\d+(?:[-.]\d+)*")
#: words that join list items after a name: "Chiller 6, 7 and 9"
_LIST_TAIL = re.compile(r"\s*(?:,|&|\band\b|\bor\b)\s*(?:and\s+|&\s*)?(?P<n>\d+(?:[-.]\d+)*)(?![\w.])")
#: generic spellings of the same word in point names
_SYNONYMS = (("temperature", "temp"), ("percent", "%"), ("pct", "%"))
#: upper-case words that are not site codes
_NOT_CODES = frozenset(
    "JSON CSV HVAC ISO UTC GMT EST EDT CST CDT PST PDT KPI API IOT HTTP MQTT AHU AHUS FCU VAV RTU "
    "BMS BAS TODAY NOW PM AM".split()
)
#: words that join the words of a sentence, never the first or last word of a misspelt name
_GLUE = frozenset("at in on of for to from and or the a an by with as is was".split())
_ENERGY_WORDS = re.compile(r"\b(?:energy|kwh|consumption)\b", re.I)
_TIMEISH = re.compile(r"^\d+(?:am|pm|st|nd|rd|th|h|min|s|d)$", re.I)
MAX_SPAN = 6
NEAR_CUTOFF = 0.85
#: how many existing names a note about a missing one offers
SUGGEST = 8


class Mention(BaseModel):
    text: str  # as the question wrote it
    name: str  # the name on the SkySpark
    kind: Kind
    site: str = ""  # for assets and sensors: the site (and asset) they were found at
    how: Literal["exact", "loose", "near", "list", "only", "part"] = "exact"


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

    def notes(self) -> list[str]:
        return [m.note() for m in self.missing]

    def corrections(self) -> list[str]:
        """'"Tonage" is Tonnage' for every name the question spelt differently."""
        return [
            f'"{m.text}" is {m.name}'
            for m in self.mentions
            if m.how in ("loose", "near") and m.text.casefold() != m.name.casefold()
        ]


def _words_in(name: str) -> int:
    """How many words a question may write a name in: "gas_flow" is "gas flow" (two), "Chiller 6" two."""
    return max(len(_TOKEN.findall(name)), len([w for w in re.split(r"[\s_\-]+", name) if w]))


def _variants(k: str) -> set[str]:
    out = {k}
    for long, short in _SYNONYMS:
        out |= {v.replace(long, short) for v in list(out)}
    return out


def _plural_variants(tokens: list[str]) -> list[str]:
    """Keys of a span, also with its first word in the singular ("Chillers 6" → "chiller6")."""
    keys = [key("".join(tokens))]
    first = tokens[0]
    if len(first) > 3 and first[-1] in "sS" and first.isalpha():
        keys.append(key(first[:-1] + "".join(tokens[1:])))
    return keys


class _Tokens:
    def __init__(self, text: str):
        self.text = text
        self.items: list[tuple[str, int, int]] = []
        for m in _TOKEN.finditer(text):
            tok = m.group(0).rstrip(".-/")
            if tok:
                self.items.append((tok, m.start(), m.start() + len(tok)))
        self.used = [False] * len(self.items)

    def spans(self, longest: int):
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


def _index(names: Iterable[str]) -> dict[str, str]:
    out: dict[str, str] = {}
    for name in names:
        for v in _variants(key(name)):
            out.setdefault(v, name)
    return out


def _digits(text: str) -> list[str]:
    return re.findall(r"\d+", text)


def _match_exact(tokens: _Tokens, index: dict[str, str], longest: int) -> list[tuple[int, int, str, str]]:
    found = []
    for i, j in tokens.spans(longest):
        if any(tokens.used[i:j]):
            continue
        words = tokens.words(i, j)
        for n, k in enumerate(_plural_variants(words)):
            hit = next((index[v] for v in _variants(k) if v in index), None)
            if hit is not None:
                raw = tokens.raw(i, j)
                how = "exact" if raw == hit else "loose"
                tokens.take(i, j)
                found.append((i, j, hit, how))
                break
    return found


def _match_near(
    tokens: _Tokens, index: dict[str, str], longest: int, skip: frozenset[str] = frozenset()
) -> list[tuple[int, int, str, str]]:
    """Near misses: a span with the same digits as a name and a close spelling (letters ≥ 4). The
    closest spans are taken first, the shorter of two equally close, so a near miss does not swallow
    the word next to it ("SuplyTemp of" is not read as SupplyTemp; "SuplyTemp" is)."""
    keys = list(index)
    candidates = []
    for i, j in tokens.spans(longest):
        k = key(tokens.raw(i, j))
        if sum(c.isalpha() for c in k) < 4 or k in skip:  # "chillers" names a kind, not a typo of "Chiller B"
            continue
        words = tokens.words(i, j)
        if j - i > 1 and (words[0].casefold() in _GLUE or words[-1].casefold() in _GLUE):
            continue  # "chiller at" is no typo of "Chiller A": a name does not start or end with a glue word
        if j < len(tokens.items) and _NUMBER.fullmatch(tokens.items[j][0]) and not tokens.used[j]:
            continue  # "Chiller 2": the name goes on with its number; "Chiller" alone is no typo of "Chiller B"
        for c in difflib.get_close_matches(k, keys, n=3, cutoff=NEAR_CUTOFF):
            if _digits(c) == _digits(k) and _typo(k, c):
                candidates.append((-difflib.SequenceMatcher(None, k, c).ratio(), j - i, i, j, c))
                break
    found = []
    for _, _, i, j, c in sorted(candidates):
        if not any(tokens.used[i:j]):
            tokens.take(i, j)
            found.append((i, j, index[c], "near"))
    return found


def _match_part(tokens: _Tokens, names: list[str]) -> list[tuple[int, int, str, str]]:
    """An asset named by a distinctive part of its name, as operators write it: "FZ-B" for FZ-B Deepfreeze Hall,
    "screw comp 1" for NH3 Screw Comp 1, "the blast freezer" for FZ-C Blast Freezer. A span of up to four words that
    holds a code or a number, or is two words or more, and whose words stand in that order (loosely spelled) in
    exactly one asset's name at the sites in play; never a span of glue words, never one that fits several names."""
    words = {n: [key(w) for w in re.split(r"[\s_]+", n) if key(w)] for n in names}
    found = []
    for i, j in tokens.spans(4):
        if any(tokens.used[i:j]):
            continue
        span = [key(w) for w in tokens.words(i, j)]
        raw = tokens.words(i, j)
        if not all(span) or span[0] in _GLUE or span[-1] in _GLUE:
            continue
        coded = any(re.search(r"\d", w) or re.fullmatch(r"[A-Z]{1,4}-?[A-Z0-9]+", w) for w in raw)
        if len(span) < 2 and not (coded and re.search(r"[^\W\d_]", raw[0])):
            continue  # one word: only a code with letters in it ("FZ-B", "CR-2"), never a bare number
        fits = [n for n, ws in words.items() if ws != span and _contains(ws, span)]
        if len(fits) == 1 and not (
            j < len(tokens.items) and _NUMBER.fullmatch(tokens.items[j][0]) and not tokens.used[j]
        ):  # "Comp 1" before "0": "Comp 10"
            tokens.take(i, j)
            found.append((i, j, fits[0], "part"))
    return found


def _contains(name: list[str], span: list[str]) -> bool:
    """`span`'s words stand contiguously, in order, in `name`'s words."""
    return any(name[k : k + len(span)] == span for k in range(len(name) - len(span) + 1))


def _typo(written: str, name: str) -> bool:
    """`written` is a typo of `name` (both loose keys): at most one edit (a letter added, dropped, changed or two
    swapped) per 8 letters of the name, at least one. A close spelling with more edits is another name:
    AUSEAST is two letters from AUSWEST and names another site; "Tonage" is one from "Tonnage"."""
    return DamerauLevenshtein.distance(written, name) <= max(1, sum(ch.isalpha() for ch in name) // 8)


def _list_tail(text: str, end: int, name: str, names: set[str]) -> list[tuple[str, int, bool]]:
    """Names made by swapping the trailing number of `name` for the numbers listed after it, each with
    where its number ends and whether the catalog has it ("Chiller 6, 7 and 9": 7 may be missing)."""
    m = re.search(r"(\d+(?:[-.]\d+)*)$", name)
    if not m:
        return []
    stem = name[: m.start()]
    out, pos = [], end
    while True:
        tail = _LIST_TAIL.match(text, pos)
        if not tail:
            return out
        candidate = f"{stem}{tail['n']}"
        out.append((candidate, tail.end(), candidate in names))
        pos = tail.end()


def _shape(name: str) -> str:
    return re.sub(r"\d+", "#", key(name))


def _alike(text: str, pool: list[str]) -> list[str]:
    """The existing names a missing one most looks like: containing it, same shape, same stem."""
    shape = _shape(text)
    return (
        [a for a in pool if key(text) in key(a)]
        or [a for a in pool if _shape(a) == shape]
        or [a for a in pool if _shape(a).startswith(shape.split("#")[0])]
    )[:SUGGEST]


#: "supply and return temperatures": two measurements sharing their last words
_SENSOR_LIST = re.compile(
    r"\b([^\W\d_]+)\s+(?:and|&|or|vs\.?|versus)\s+([^\W\d_]+)\s+((?:[^\W\d_]+\s+)?(?:temperatures?|"
    r"temps?|pressures?|flows?|speeds?|set\s*points?|status(?:es)?|power|humidit(?:y|ies)|"
    r"positions?|levels?|loads?))\b",
    re.I,
)


def expand_lists(question: str) -> str:
    """The measurements a shared-tail list names, spelt out ("supply and return temperatures" → "supply
    temperature; return temperature"), to read after the question; '' when it has none."""
    out = []
    for m in _SENSOR_LIST.finditer(question):
        tail = (
            re.sub(r"(?<=[a-z])s$", "", m.group(3), flags=re.I)
            if not m.group(3).lower().endswith("status")
            else m.group(3)
        )
        out += [f"{m.group(1)} {tail}", f"{m.group(2)} {tail}"]
    return ("\n" + "; ".join(out)) if out else ""


def link(question: str, catalog: Catalog, *, exclude: Iterable[tuple[int, int]] = ()) -> Links:
    """Resolve the question's names against `catalog`. `exclude`: character spans not to read as names
    (the date phrase)."""
    question = question + expand_lists(question)
    tokens = _Tokens(question)
    for a, b in exclude:
        for n, (_, s, e) in enumerate(tokens.items):
            if s < b and e > a:
                tokens.used[n] = True
    links = Links()

    # sites
    site_index = _index(catalog.sites)
    for i, j, name, how in _match_exact(tokens, site_index, 4) + _match_near(tokens, site_index, 2):
        links.sites.append(name)
        links.mentions.append(Mention(text=tokens.raw(i, j), name=name, kind="site", how=how))
    links.sites = list(dict.fromkeys(links.sites))
    scope = links.sites or (catalog.sites if len(catalog.sites) <= 12 else [])

    # assets of the sites in scope
    owners: dict[str, list[str]] = {}
    for site in scope:
        for asset in catalog.assets(site):
            owners.setdefault(asset, []).append(site)
    asset_index = _index(owners)
    longest = min(MAX_SPAN, max((_words_in(a) for a in owners), default=1) + 1)
    matches = _match_exact(tokens, asset_index, longest)
    matches += _match_near(tokens, asset_index, longest, skip=frozenset(_kind_words(catalog)))
    matches += _match_part(tokens, list(owners))
    for i, j, name, how in sorted(matches):
        found = [(name, how, tokens.raw(i, j))]
        end = tokens.items[j - 1][2]
        for extra, stop, exists in _list_tail(question, end, name, set(owners)):
            covered = [n for n, (_, s, e) in enumerate(tokens.items) if end <= s < stop]
            if any(tokens.used[n] for n in covered):  # e.g. the date phrase
                break
            for n in covered:
                tokens.used[n] = True
            end = stop
            if exists:
                found.append((extra, "list", extra))
            else:
                site = owners[name][0]
                links.missing.append(
                    Missing(text=extra, kind="asset", site=site, suggestions=_alike(extra, catalog.assets(site)))
                )
        for asset, kind_how, text in found:
            if asset in links.assets:
                continue
            site = next((s for s in owners[asset] if s in links.sites), owners[asset][0])
            links.assets.append(asset)
            links.asset_sites[asset] = site
            links.mentions.append(Mention(text=text, name=asset, kind="asset", site=site, how=kind_how))
    if not links.sites:
        linked_sites = list(dict.fromkeys(links.asset_sites.values()))
        if len(linked_sites) == 1 or len(catalog.sites) == 1:
            links.sites = linked_sites or list(catalog.sites)
            if not linked_sites:
                links.mentions.append(Mention(text="", name=links.sites[0], kind="site", how="only"))

    # sensors: of the linked assets, else of every asset at the linked sites
    where = [(links.asset_sites[a], a) for a in links.assets] or [
        (s, a) for s in links.sites for a in catalog.assets(s)
    ]
    shorts: dict[str, None] = {}
    for site, asset in where:
        for s in catalog.sensors(site, asset):
            shorts.setdefault(s.short, None)
    site_shorts: dict[str, None] = dict(shorts)
    for site in links.sites:
        for asset in catalog.assets(site):
            for s in catalog.sensors(site, asset):
                site_shorts.setdefault(s.short, None)
    sensor_index = _index(site_shorts)
    longest = min(MAX_SPAN, max((_words_in(s) for s in site_shorts), default=1))
    for i, j, name, how in sorted(
        _match_exact(tokens, sensor_index, longest) + _match_near(tokens, sensor_index, longest)
    ):
        if name not in links.sensors:
            links.sensors.append(name)
            links.mentions.append(Mention(text=tokens.raw(i, j), name=name, kind="sensor", how=how))
    for sensor in list(links.sensors):  # "energy" of assets that measure power is computed from it, not missing
        if (
            links.assets
            and _ENERGY_WORDS.search(sensor)
            and all(
                not catalog.has_sensor(links.asset_sites[a], a, sensor) and _has_power(catalog, links.asset_sites[a], a)
                for a in links.assets
            )
        ):
            links.sensors.remove(sensor)
            links.mentions = [m for m in links.mentions if not (m.kind == "sensor" and m.name == sensor)]
    for sensor in links.sensors:
        for asset in links.assets:
            site = links.asset_sites[asset]
            if not catalog.has_sensor(site, asset, sensor):
                links.missing.append(
                    Missing(
                        text=sensor,
                        kind="sensor",
                        site=site,
                        asset=asset,
                        suggestions=[s.short for s in catalog.sensors(site, asset)][:SUGGEST],
                    )
                )

    _missing_assets(tokens, catalog, links, scope, owners)
    _asset_types(tokens, catalog, links)
    _energy_from_power(catalog, links)
    _missing_sensors(tokens, catalog, links)
    _asked_measures(tokens, catalog, links)
    _missing_sites(tokens, catalog, links)
    if any(m.kind == "site" for m in links.missing):  # a site named that does not exist: no other site stands in
        guessed = {m.name for m in links.mentions if m.kind == "site" and m.how == "only"}
        links.mentions = [m for m in links.mentions if not (m.kind == "site" and m.how == "only")]
        links.sites = [s for s in links.sites if s not in guessed]
    return links


def _energy_from_power(catalog: Catalog, links: Links) -> None:
    """ "The chillers' energy": where the assets of the kinds the question names have no energy sensor but measure
    power, the energy is computed from their power — the word is no sensor of theirs (docs/analysis.md)."""
    if links.assets or not links.asset_types:
        return
    pool = [(s, a) for s in links.sites for t in links.asset_types for a in catalog.site(s).assets_of_type(t)]
    for sensor in [s for s in links.sensors if _ENERGY_WORDS.search(s)]:
        if (
            pool
            and not any(catalog.has_sensor(s, a, sensor) for s, a in pool)
            and any(_has_power(catalog, s, a) for s, a in pool)
        ):
            links.sensors.remove(sensor)
            links.mentions = [m for m in links.mentions if not (m.kind == "sensor" and m.name == sensor)]


def _has_power(catalog: Catalog, site: str, asset: str) -> bool:
    return any((s.unit or "").strip().casefold() in ("w", "kw", "mw") for s in catalog.sensors(site, asset))


def _missing_sensors(tokens: _Tokens, catalog: Catalog, links: Links) -> None:
    """A measure the question asks of its assets that none of them holds: a quantity kind the question's unlinked
    words name (`measures.asked`: "humidity", "how humid", "electricity used") where it names assets that exist
    but no sensor, and no sensor of theirs measures it (an energy is computed from a power sensor; a point whose
    quantity the field's vocabulary cannot tell is not ruled out)."""
    if not links.assets or links.sensors:
        return
    on = [(links.asset_sites[a], a) for a in links.assets]
    free = [n for n in range(len(tokens.items)) if not tokens.used[n]]
    rest = " ".join(tokens.items[n][0] for n in free)
    for wanted in measures.asked(rest):
        lacking = [
            (site, asset)
            for site, asset in on
            if not any(_may_measure(wanted, s) for s in catalog.sensors(site, asset))
        ]
        if not lacking or len(lacking) < len(on):
            continue
        hits = [n for n in free if tokens.items[n][0].casefold() in wanted.phrase.split()]
        text = tokens.raw(hits[0], hits[-1] + 1) if hits else wanted.phrase
        for n in hits:  # the phrase's words are placed: they named this measure
            tokens.used[n] = True
        for site, asset in lacking:
            links.missing.append(
                Missing(
                    text=text,
                    kind="sensor",
                    site=site,
                    asset=asset,
                    suggestions=[s.short for s in catalog.sensors(site, asset)][:SUGGEST],
                )
            )
        return


def _may_measure(wanted: measures.Asked, sensor) -> bool:
    """`sensor` may hold the measure asked: its quantity is that one, or unknown and its name has the word."""
    m = measures.point_measure(sensor)
    if m.setpoint:
        return False
    if m.quantity is not None:
        return measures.fits([wanted.quantity], m)
    return bool(set(wanted.phrase.split()) & set(fieldvocab.normalize(sensor.short).split()))


def _asked_measures(tokens: _Tokens, catalog: Catalog, links: Links) -> None:
    """The quantity kinds the question asks for: those of the sensors it names, else those its words name
    ("how humid", "electricity consumed", "temperature")."""
    named = [
        s
        for site in links.sites
        for a in catalog.assets(site)
        for s in catalog.sensors(site, a)
        if s.short in links.sensors
    ]
    out = [m.quantity for m in map(measures.point_measure, named) if m.quantity]
    if not out:
        rest = " ".join(t for n, (t, _, _) in enumerate(tokens.items) if not tokens.used[n])
        out = [w.quantity for w in measures.asked(rest)]
    links.measures = list(dict.fromkeys(out))


def _word_variants(text: str) -> set[str]:
    """The loose spellings of each word of `text` ("Supply_Air Temp" → supply, air, temp and their plurals)."""
    return {v for part in re.findall(r"[^\W_]+", text.casefold()) for v in _variants(part)}


def _type_words(marker: str) -> set[str]:
    """How a question writes an equip marker: its own words ("coolingTower" → "cooling tower(s)"), and the field's
    names for it (`measures.kind_names`: "ahu" → "air handling unit(s)", "AHU(s)"; "crac" → "computer room air
    conditioner(s)")."""
    out = set()
    for name in kind_names(marker):
        out |= {key(name), key(name) + "s", key(name) + "es"}
    return out


def _asset_types(tokens: _Tokens, catalog: Catalog, links: Links) -> None:
    """Kinds of equipment the question names ("the chillers", "AHUs", "computer room AC units"), from the markers on
    the SkySpark's equip records — of every site, so a kind resolves without a named site where the catalog makes it
    unique (that site is then linked). A kind the named site does not have is a missing kind ("There is no boiler
    at S"), with the kinds it has."""
    index: dict[str, str] = {}
    where: dict[str, list[str]] = {}
    for site in catalog.sites if len(catalog.sites) <= 12 or not links.sites else links.sites:
        for marker in catalog.types(site):
            where.setdefault(marker, []).append(site)
            for word in _type_words(marker):
                index.setdefault(word, marker)
    for i, j in tokens.spans(4):
        if any(tokens.used[i:j]):
            continue
        marker = index.get(key("".join(tokens.words(i, j))))
        if marker is None:
            continue
        tokens.take(i, j)
        text = tokens.raw(i, j)
        if links.sites and not set(links.sites) & set(where[marker]):
            site = links.sites[0]
            kinds = [kind_label(k, 2) for k in catalog.types(site)][:SUGGEST]
            links.missing.append(Missing(text=_as_written(text, marker), kind="kind", site=site, suggestions=kinds))
            continue
        if not links.sites and len(where[marker]) == 1:  # the only site that has this kind
            links.sites = [where[marker][0]]
            links.mentions.append(Mention(text="", name=links.sites[0], kind="site", how="only"))
        if marker not in links.asset_types:
            links.asset_types.append(marker)
            links.mentions.append(Mention(text=text, name=marker, kind="asset", how="exact"))
    _absent_kinds(tokens, catalog, links, set(where))


#: words that may follow a kind named as a thing ("any boilers at S", "is there a boiler in S", "generators are …")
_AFTER_KIND = _GLUE | frozenset("are is were was does do did have has there exist exists that which here".split())
#: words before a kind named as a thing that may or may not be there ("is there a boiler", "any generators")
_KIND_BEFORE = frozenset("a an any no some the".split())


def _as_written(text: str, marker: str) -> str:
    """A kind as the question wrote it and as the field names it: "VAV (variable air volume terminal unit)"."""
    label = kind_label(marker)
    written = fieldvocab.singular(text.strip()) if text.strip().casefold() != label.casefold() else label
    return label if key(written) in (key(label), key(label) + "s") else f"{written} ({label})"


def _absent_kinds(tokens: _Tokens, catalog: Catalog, links: Links, present: set[str]) -> None:
    """A kind of equipment the field defines that no site of the SkySpark has ("Is there a boiler at S?", "how many
    generators …" where none exists): a missing kind at the named site. Read only where the words stand as a thing —
    in the plural, or after "a"/"an"/"any"/"no"/"the" — and not before a measure word ("the fan speed" is a
    measurement, not a fan)."""
    words = [t.casefold() for t, _, _ in tokens.items]
    for i, j in list(tokens.spans(4)):
        if any(tokens.used[i:j]) or not links.sites:
            continue
        raw = tokens.raw(i, j)
        if not re.fullmatch(r"[^\W\d_][\w\s-]*", raw):
            continue
        named = fieldvocab.kinds_named(raw.casefold())
        if not named or set(named) & present:
            continue
        plural = raw.casefold().endswith("s") and fieldvocab.singular(raw.casefold()) != raw.casefold()
        before = words[i - 1] if i > 0 else ""
        if not (plural or before in _KIND_BEFORE):
            continue
        if before and before not in _KIND_BEFORE and before not in _GLUE and before not in ("many", "all", "list"):
            continue  # "computer room AC units": the words before make it another kind's name

        if j < len(words) and words[j] not in _AFTER_KIND:  # "the fan speed": the kind word qualifies a measure
            continue
        site = links.sites[0]
        if not catalog.types(site):  # a catalog without markers cannot say a kind is absent
            continue
        label = {w for n in named for w in kind_names(n)}
        if any(
            key(a).startswith(key(w)) or key(w) in key(a)
            for a in catalog.assets(site)
            for w in label
            if len(key(w)) >= 4
        ):  # "Chiller 3" is a chiller, whatever its markers say
            continue
        tokens.take(i, j)
        kinds = [kind_label(k, 2) for k in catalog.types(site)][:SUGGEST]
        links.missing.append(Missing(text=_as_written(raw, named[0]), kind="kind", site=site, suggestions=kinds))


def _missing_assets(
    tokens: _Tokens, catalog: Catalog, links: Links, scope: list[str], owners: dict[str, list[str]]
) -> None:
    """Names shaped like the catalog's asset names that are not on it: a span with the shape of an
    asset name (its digits aside: "CH-07" where there is CH-01, "Pump P-4" where there is Pump P-3),
    "<word> <number>" where asset names start with that word, and letter+digit codes whose letters
    start some asset name ("B020" where there is B020_Total)."""
    shapes = {_shape(a) for a in owners if "#" in _shape(a) and sum(c.isalpha() for c in _shape(a)) >= 2}
    longest = min(MAX_SPAN, max((_words_in(a) for a in owners), default=1))
    site = links.sites[0] if links.sites else (scope[0] if len(scope) == 1 else "")
    pool = catalog.assets(site) if site else list(owners)
    for i, j in list(tokens.spans(longest)):
        if any(tokens.used[i:j]):
            continue
        raw = tokens.raw(i, j)
        if _shape(raw) in shapes and raw not in owners:
            tokens.take(i, j)
            links.missing.append(Missing(text=raw, kind="asset", site=site, suggestions=_alike(raw, pool)))
    first_words = {key(a.split()[0]) for a in owners if " " in a}
    code_heads = {m.group(1).casefold() for a in owners for m in [re.match(r"([^\W\d_]+)\d", a)] if m}
    items = tokens.items
    for n, (tok, _, _) in enumerate(items):
        if tokens.used[n]:
            continue
        text = None
        if _NUMBER.fullmatch(tok) and n > 0 and not tokens.used[n - 1]:
            prev = items[n - 1][0]
            singular = prev[:-1] if prev.endswith("s") and len(prev) > 3 else prev
            if key(prev) in first_words or key(singular) in first_words:
                text = f"{singular} {tok}"
                tokens.used[n - 1] = True
        elif re.fullmatch(r"[^\W\d_]+\d[\w\-]*", tok) and not _TIMEISH.match(tok):
            head = re.match(r"[^\W\d_]+", tok).group(0).casefold()
            if head in code_heads:
                text = tok
        if text is None:
            continue
        tokens.used[n] = True
        links.missing.append(Missing(text=text, kind="asset", site=site, suggestions=_alike(text, pool)))


def _site_skeleton(name: str) -> tuple[str, ...] | None:
    """A multi-part site name's first part, separators and the case of each later part's first
    letter: "Plant-North" → ("plant", "-", "U"). None for a one-part name."""
    parts = re.split(r"([\s_\-]+)", name)
    if len(parts) < 3:
        return None
    rest = tuple(
        x if n % 2 else ("U" if x[:1].isupper() else "l" if x[:1].isalpha() else "#")
        for n, x in enumerate(parts[1:], start=1)
    )
    return (parts[0].casefold(),) + rest


#: words before a site's name ("at POKMAIN", "for the RCHMAIN site") and after it ("POKMAIN site")
_SITE_BEFORE = frozenset("at in on for from of to within across site plant campus building facility".split())
_SITE_AFTER = frozenset("site sites plant plants campus building buildings facility".split())


def _kind_words(catalog: Catalog) -> set[str]:
    """Every way a question may write a kind of equipment or a measurement (never a site's name): the catalog's
    equip markers and the generic vocabularies, singular and plural."""
    markers = {t for site in catalog.sites for t in catalog.types(site)}
    out = {w for m in markers for w in _type_words(m)}
    return out | {w + "s" for w in out}


def _field_word(word: str) -> bool:
    """The word names a kind of equipment or a measure in the field's vocabulary ("BOILERS", "HUMIDITY")."""
    return bool(fieldvocab.kinds_named(word.casefold()) or fieldvocab.measure_words(word.casefold()))


def _site_position(tokens: _Tokens, n: int) -> bool:
    """The token stands where a site's name stands: after "at"/"in"/"for"… (an article between), or before
    "site"/"plant"."""
    words = [t.casefold() for t, _, _ in tokens.items]
    before = [w for w in words[max(0, n - 2) : n] if w not in ("the", "a", "an")]
    after = words[n + 1] if n + 1 < len(words) else ""
    return bool(before and before[-1] in _SITE_BEFORE) or after in _SITE_AFTER


def _code_shape(name: str) -> tuple[str, str] | None:
    """A short site code's letters and the shape of its digits ("DC1" → ("DC", "#")); None for other names."""
    m = re.fullmatch(r"([A-Z]{1,4})(\d{1,3})", name)
    return (m.group(1), "#" * len(m.group(2))) if m else None


def _missing_sites(tokens: _Tokens, catalog: Catalog, links: Links) -> None:
    """Names that look like the SkySpark's site names but are none: upper-case codes (4+ characters,
    3+ letters), and names with the same first part and separators as a site ("Plant-South" where
    there is Plant-North) — in a site's position ("at X", "X site"), and never a word for a kind of equipment
    or a measurement ("Which of the BOILERS …" names a kind, not a site)."""
    skeletons = {s for s in map(_site_skeleton, catalog.sites) if s}
    kinds = _kind_words(catalog)
    coded = {_code_shape(s) for s in catalog.sites if _code_shape(s)}
    for n, (tok, _, _) in enumerate(tokens.items):
        if tokens.used[n] or tok in _NOT_CODES or key(tok) in kinds or _field_word(tok):
            continue
        if _code_shape(tok) in coded and tok not in catalog.sites:  # "DC3" where there are DC1 and DC2: anywhere
            tokens.used[n] = True
            links.missing.append(Missing(text=tok, kind="site", suggestions=catalog.sites[:SUGGEST]))
            continue
        code = (
            re.fullmatch(r"[A-Z][A-Z0-9]{2,}(?:[-_][A-Z0-9]{2,})*", tok)
            and len(tok) >= 4
            and sum(c.isalpha() for c in tok) >= 3
        )  # "POKMAN", "MUC-FREIMANN"
        if _site_skeleton(tok) in skeletons and re.search(r"[^\W_][_-][^\W_]", tok) and tok not in catalog.sites:
            tokens.used[n] = True  # "campus_east" where there is campus_west: a name's shape, wherever it stands
            links.missing.append(Missing(text=tok, kind="site", suggestions=catalog.sites[:SUGGEST]))
            continue
        if not code and _site_skeleton(tok) not in skeletons:
            pair = f"{tok} {tokens.items[n + 1][0]}" if n + 1 < len(tokens.items) and not tokens.used[n + 1] else ""
            if pair and _site_skeleton(pair) in skeletons and pair not in catalog.sites and _site_position(tokens, n):
                tokens.used[n] = tokens.used[n + 1] = True  # "Harbour North" where there is Harbour Point
                links.missing.append(Missing(text=pair, kind="site", suggestions=catalog.sites[:SUGGEST]))
            continue
        if not _site_position(tokens, n):
            continue
        tokens.used[n] = True
        links.missing.append(Missing(text=tok, kind="site", suggestions=catalog.sites[:SUGGEST]))
