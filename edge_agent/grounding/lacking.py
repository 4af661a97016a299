"""The linking passes after the names: kinds of equipment, measures asked for, and what the SkySpark lacks.

`grounding.linking.link` matches the question's tokens to the catalog's names first; then these passes read the
tokens left: the kinds of equipment named in the plural (`asset_kinds`) and those a site does not have
(`_absent_kinds`), the quantity kinds asked for (`asked_measures`, with an energy question read from a power series:
`energy_from_power`), and the names shaped like the catalog's but not in it — sensors (`missing_sensors`), assets
(`missing_assets`) and site codes (`missing_sites`), each reported with the names that do exist.
"""

from __future__ import annotations

import re

from edge_agent.grounding import fieldvocab, forms, measures
from edge_agent.grounding.catalog import Catalog, SensorName, key
from edge_agent.grounding.links import (
    ENERGY_WORDS,
    GLUE,
    MAX_SPAN,
    NOT_CODES,
    NUMBER,
    SUGGEST,
    TIMEISH,
    Links,
    Mention,
    Missing,
    Tokens,
    alike,
    inflected,
    is_typo,
    key_variants,
    name_shape,
    words_in,
)
from edge_agent.grounding.measures import kind_label, kind_names
from edge_agent.grounding.question import RATIO_TERMS


def sensor_lacking(catalog: Catalog, site: str, asset: str, text: str) -> Missing:
    """ "There is no sensor <text> on <asset>", with the sensors it has."""
    suggestions = [s.short for s in catalog.sensors(site, asset)][:SUGGEST]
    return Missing(text=text, kind="sensor", site=site, asset=asset, suggestions=suggestions)


def energy_from_power(catalog: Catalog, links: Links) -> None:
    """ "The chillers' energy": where the assets of the kinds the question names have no energy sensor but measure
    power, the energy is computed from their power — the word is no sensor of theirs (docs/analysis.md)."""
    grouped = [m.name for m in links.mentions if m.kind == "asset" and m.how == "group"]
    if (links.assets and set(links.assets) != set(grouped)) or not links.asset_types:
        return
    pool = (  # "of the two penguin life-support pumps": the family's members the kind narrowed to
        [(links.asset_sites[a], a) for a in links.assets]
        if links.assets
        else [(s, a) for s in links.sites for t in links.asset_types for a in catalog.site(s).assets_of_type(t)]
    )
    for sensor in [s for s in links.sensors if ENERGY_WORDS.search(s)]:
        if (
            pool
            and not any(catalog.has_sensor(s, a, sensor) for s, a in pool)
            and any(has_power(catalog, s, a) for s, a in pool)
        ):
            links.sensors.remove(sensor)
            links.mentions = [m for m in links.mentions if not (m.kind == "sensor" and m.name == sensor)]
            links.missing = [m for m in links.missing if not (m.kind == "sensor" and m.text == sensor)]


def has_power(catalog: Catalog, site: str, asset: str) -> bool:
    return any((s.unit or "").strip().casefold() in ("w", "kw", "mw") for s in catalog.sensors(site, asset))


def missing_sensors(tokens: Tokens, catalog: Catalog, links: Links) -> None:
    """A measure the question asks of its assets that none of them holds: a quantity kind the question's unlinked
    words name (`measures.asked`: "humidity", "how humid", "electricity used") where it names assets that exist
    but no sensor, and no sensor of theirs measures it (an energy is computed from a power sensor; a point whose
    quantity the field's vocabulary cannot tell is not ruled out)."""
    if not links.assets or links.sensors:
        return
    on = [(links.asset_sites[a], a) for a in links.assets]
    ratios = [term.span() for term in RATIO_TERMS.finditer(tokens.text)]  # "the specific gas consumption": a ratio
    free = [
        n
        for n in range(len(tokens.items))
        if not tokens.used[n] and not any(a <= tokens.items[n][1] < b for a, b in ratios)
    ]
    rest = " ".join(tokens.items[n][0] for n in free)
    if not measures.asked(rest):
        _tag_lacking(tokens, catalog, links, on, free)
    for wanted in measures.asked(rest):
        lacking = [
            (site, asset)
            for site, asset in on
            if not any(_may_measure(wanted, s) for s in catalog.sensors(site, asset))
        ]
        if not lacking or len(lacking) < len(on):
            qualified = _qualified_lacking(tokens, catalog, on, wanted, free)
            if qualified:
                lacking, hits = on, qualified  # "condenser water temp" where the water temps are leaving ones
            else:
                continue
        else:
            hits = []
        hits = hits or [n for n in free if tokens.items[n][0].casefold() in wanted.phrase.split()]
        named = {key(w) for n in [*links.sites, *links.assets] for w in re.split(r"[\s_\-]+", n)}
        hits = [n for n in hits if key(tokens.items[n][0]) not in named]  # "Lord Howe fuel": "Howe" is the site's
        text = tokens.raw(hits[0], hits[-1] + 1) if hits else wanted.phrase
        if all(USAGE_VERB.fullmatch(w) for w in text.casefold().split()):
            continue  # "each pound of husk burned": a verb says what is spent, no measure the SkySpark lacks
        for n in hits:  # the phrase's words are placed: they named this measure
            tokens.used[n] = True
        for site, asset in lacking:
            links.missing.append(sensor_lacking(catalog, site, asset, text))
        return


#: the verbs that say what is spent ("husk burned", "gas used"): a measure asked by a verb, no name of one
#: verbs of using a substance up ("used the most water", "burnt more gas", "each pound of husk burned"), whole words
USAGE_VERB = re.compile(
    r"burn(?:s|ed|t|ing)?|us(?:e|es|ed|ing)|consum(?:e|es|ed|ing)|sp[ae]nt|spend(?:s|ing)?|dr[ae]wn?"
)


def _tag_lacking(tokens: Tokens, catalog: Catalog, links: Links, on: list[tuple[str, str]], free: list[int]) -> None:
    """A word that is a point tag of the SkySpark's (what some point measures: "pH", `ph` on another site's tank)
    and no tag or name word of the named assets' points: a measure they lack ("the pH in Kar 2")."""
    elsewhere = {
        key(t)
        for site in catalog.sites
        for asset in catalog.assets(site)
        for p in catalog.sensors(site, asset)
        for t in p.tags
        if t not in fieldvocab.RECORD_TAGS
    }
    own = {
        key(w)
        for site, asset in on
        for p in catalog.sensors(site, asset)
        for w in [*p.tags, *re.split(r"[\s_\-]+", p.short)]
    }
    directions = {w for phrase in fieldvocab.flow_direction_phrases(tokens.text) for w in phrase.casefold().split()}
    # "the specific gas consumption": a ratio the field defines, whose words are no tag the assets lack
    directions |= {w for term in RATIO_TERMS.finditer(tokens.text) for w in term.group(0).casefold().split()}
    for n in free:
        word = tokens.items[n][0]
        k = key(word)
        if len(k) < 2 or not word.isalpha() or k in GLUE or word.casefold() in forms.FUNCTION_WORDS | forms.CUE_WORDS:
            continue
        if word.casefold() in directions:
            continue  # "on discharge": which way a two-way flow goes (a battery's current), no measure it lacks
        if k in elsewhere and k not in own and not any(inflected(k, w) for w in own):  # "zone": Zona de Quemado
            tokens.used[n] = True
            for site, asset in on:
                links.missing.append(sensor_lacking(catalog, site, asset, word))
            return


def _may_qualify(raw: str, text: str) -> bool:
    """A word before a measure that may say which series the question means ("condenser water temp", "silica
    concentration"): never a verb of a statement ("the pool felt cool"), a participle ("heated water"), or a word of
    a ratio the field defines ("its specific power")."""
    w = raw.casefold()
    if w in forms.TABLE.statement_verb or (w.endswith(("ed", "ing")) and not fieldvocab.is_tag(w)):
        return False
    return not any(w in term.group(0).casefold().split() for term in RATIO_TERMS.finditer(text))


def _qualified_lacking(
    tokens: Tokens, catalog: Catalog, on: list[tuple[str, str]], wanted: measures.Asked, free: list[int]
) -> list[int]:
    """The tokens of a measure asked with words before it that say which series ("condenser water temp"), right after
    a name or before a preposition and a name ("soil moisture in Bay A"), where one of those words (four letters or
    more) is in the name of no series of the named assets that measures it: the measure is one they lack. [] where
    there is no such word."""
    hits = [n for n in free if tokens.items[n][0].casefold() in wanted.phrase.split()]
    if not hits:
        return []
    names = {
        key(w)
        for site, asset in on
        for s in catalog.sensors(site, asset)
        if _may_measure(wanted, s)
        for w in s.short.split()
    }
    own = {key(w) for _, asset in on for w in re.split(r"[\s_-]+", asset)}  # "compressor rack used": of Comp Rack A
    run: list[int] = []
    n = hits[0] - 1
    while n >= 0 and n in free:  # the plain words right before the measure: "condenser water" of "… water temp"
        raw = tokens.items[n][0]
        if not raw.isalpha() or key(raw) in GLUE or raw.casefold() in forms.FUNCTION_WORDS | forms.CUE_WORDS:
            break
        if key(raw) in own:
            break
        run.insert(0, n)
        n -= 1
    after = hits[-1] + 1
    of_name = (  # "soil moisture in Bay A": the measure's words, then a preposition and a name
        after + 1 < len(tokens.items)
        and key(tokens.items[after][0]) in GLUE
        and tokens.used[after + 1]
        and not tokens.used[after]
    )
    if not run or not (of_name or (run[0] > 0 and tokens.used[run[0] - 1])):
        return []  # after a name ("Chiller 1 condenser water temp"), not a verb's subject ("the data centre draw")
    measure_words = fieldvocab.measure_vocabulary()
    odd = [
        m
        for m in run
        if len(w := key(tokens.items[m][0])) >= 4
        and w not in names
        and not any(inflected(w, v) for v in names)  # "gases" of Temperatura Gases de Salida
        and not any(is_typo(w, v) for v in measure_words)  # "enregy consumption": a measure word misspelt
        and _may_qualify(tokens.items[m][0], tokens.text)  # "condenser", "silica"; never "felt", "specific power"
    ]
    return [*run, *hits] if odd else []


def _may_measure(wanted: measures.Asked, sensor: SensorName) -> bool:
    """`sensor` may hold the measure asked: its quantity is that one, or unknown and its name has the word."""
    m = measures.point_measure(sensor)
    if m.setpoint:
        return False
    if m.moisture and wanted.phrase in ("humidity", "relative humidity", "rh"):
        return False  # "the humidity readings": a dew point is no humidity reading (though "damper than -35" is of it)
    if m.quantity is not None:
        return measures.fits([wanted.quantity], m)
    return bool(set(wanted.phrase.split()) & set(fieldvocab.normalize(sensor.short).split()))


def asked_measures(tokens: Tokens, catalog: Catalog, links: Links) -> None:
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
        out = [w.quantity for w in measures.asked(rest) if not _share_of_time(w.phrase, tokens.text)]
    if not out:
        out = _limit_quantity(tokens.text)
    links.measures = list(dict.fromkeys(out))


def _share_of_time(phrase: str, text: str) -> bool:
    """ "what percentage of Monday", "the share of the time": a share of a period asks how long, it names no
    measure (the measure is the limit's or the sensor's)."""
    m = re.search(rf"\b{re.escape(phrase)}\s+of\s+(?:the\s+)?", text, re.I)
    return m is not None and (
        forms.TABLE.period.match(text, m.end()) is not None
        or re.match(r"(?:time|day|week|month|period|hours|night|morning|afternoon|evening)\b", text[m.end() :], re.I)
        is not None
    )


def _limit_quantity(text: str) -> list[str]:
    """The quantity of the unit a limit is written in ("above 6 °C" → temperature) where no word names one."""
    for cue in forms.TABLE.limit:
        m = cue.search(text)
        if m and m.group("unit"):
            unit = m.group("unit").strip()
            unit = f"°{unit.upper()}" if unit.casefold() in ("f", "c") else unit  # "1500F": Fahrenheit, not farad
            q = fieldvocab.quantity_of_unit(unit)
            if q is not None and q.name != "dimensionless":
                return [q.name]
    return []


def _word_variants(text: str) -> set[str]:
    """The loose spellings of each word of `text` ("Supply_Air Temp" → supply, air, temp and their plurals)."""
    return {v for part in re.findall(r"[^\W_]+", text.casefold()) for v in key_variants(part)}


def _type_words(marker: str) -> set[str]:
    """How a question writes an equip marker: its own words ("coolingTower" → "cooling tower(s)"), and the field's
    names for it (`measures.kind_names`: "ahu" → "air handling unit(s)", "AHU(s)"; "crac" → "computer room air
    conditioner(s)")."""
    out = set()
    names = list(kind_names(marker))
    words = fieldvocab.marker_words(marker)
    if len(words) > 1 and marker not in fieldvocab.known_markers() and not fieldvocab.is_tag(words[-1]):
        names.append(words[-1])  # a site's own "dessicantDehumidifier": its head noun names it ("dehumidifiers"); a
        # known one ("heatPump") is no "pump", and a tag ("hotWater") names no kind
    names += sorted(fieldvocab.phrases_naming(marker))  # "lights" for `luminaire`: operators' words for its kind
    for name in names:
        for spelt in _spellings(key(name)):
            out |= {spelt, spelt + "s", spelt + "es"}
    return out


def _spellings(word: str) -> set[str]:
    """A word as British and American English spell it: -ize / -ise ("pasteurizer", "pasteuriser")."""
    return {word, re.sub(r"iz(?=er|ation|ing|ed|e\b)", "is", word), re.sub(r"is(?=er|ation|ing|ed|e\b)", "iz", word)}


def _used_up(tokens: Tokens, i: int) -> bool:
    """The word at `i` is what a verb of using up takes, three words back at most ("burnt the most gas")."""
    before = [t.casefold() for t in tokens.words(max(0, i - 3), i)]
    return any(USAGE_VERB.fullmatch(w) for w in before)


def _a_point_word(text: str, links: Links, catalog: Catalog) -> bool:
    """The words are words of a point name of the equipment the question names ("exhaust" of Exhaust Temp)."""
    said = {w.casefold() for w in re.findall(r"[^\W\d_]+", text)}
    for asset in links.assets:
        site = links.asset_sites.get(asset) or (links.sites[0] if links.sites else "")
        if site not in catalog.sites:
            continue
        for point in catalog.sensors(site, asset):
            if said <= {w.casefold() for w in re.findall(r"[^\W\d_]+", point.short)}:
                return True
    return False


def asset_kinds(tokens: Tokens, catalog: Catalog, links: Links) -> None:
    """Kinds of equipment the question names ("the chillers", "AHUs", "computer room AC units"), from the markers on
    the SkySpark's equip records — of every site, so a kind resolves without a named site where the catalog makes it
    unique (that site is then linked). A kind the named site does not have is a missing kind ("There is no boiler
    at S"), with the kinds it has."""
    index: dict[str, str] = {}
    where: dict[str, list[str]] = {}
    for site in catalog.sites if len(catalog.sites) <= 12 or not links.sites else links.sites:
        for typed in catalog.types(site):
            where.setdefault(typed, []).append(site)
            for word in _type_words(typed):
                index.setdefault(word, typed)
    for typed in where:  # "mills": the `mill` marker itself (every mill), not `rawMill`'s head noun
        own = key(" ".join(fieldvocab.marker_words(typed)))
        for word in (own, own + "s", own + "es"):
            if word in index:
                index[word] = typed
    spans: list[tuple[int, int, str]] = []  # where each kind stands (`_one_noun`)
    for i, j in tokens.spans(4):
        if any(tokens.used[i:j]):
            continue
        marker = index.get(key("".join(tokens.words(i, j))))
        if marker is None:
            continue
        text = tokens.raw(i, j)
        if _a_measure_said_by_degree(tokens, i, j):
            continue  # "the least hot", "hotter than": the measure's adjective, not a `hot` (water) kind
        if links.asset_types and _used_up(tokens, i):
            continue  # "which dryer burnt the most gas": what the dryers burn, not a `gas` kind
        if links.sites and not set(links.sites) & set(where[marker]):
            if _qualifies_a_measure(tokens, i, j) or _in_a_measure_phrase(tokens, i, j):
                continue  # "rank the kilns by fan energy": the fans' energy of a kiln, not a fan the site lacks
            if _qualifies_a_kind_there(tokens, j, index, catalog, links.sites[0]):
                continue  # "the exhaust fans" where the site's fans are "CP Exhaust Fan 1…": which fans, not a kind
            if _a_point_word(text, links, catalog):
                continue  # "dryer 3 exhaust go over 120": Tumble Dryer 3's Exhaust Temp, not an exhaust the site lacks
            tokens.take(i, j)
            site = links.sites[0]
            if _the_site_itself(tokens, i, j, links, site):  # "did the mill use more steam? check the Höyrymittari"
                links.mentions.append(Mention(text=text, name=site, kind="site", how="only"))
                continue
            kinds = [kind_label(k, 2) for k in catalog.types(site)][:SUGGEST]
            links.missing.append(Missing(text=_as_written(text, marker), kind="kind", site=site, suggestions=kinds))
            continue
        if (sub := _another_subtype(tokens, i, j, marker, catalog, links.sites or where[marker])) is not None:
            tokens.take(min(i, sub[0]), j)  # "the blast freezer" where the site's freezers are plate freezers
            site = (links.sites or where[marker])[0]
            kinds = [kind_label(k, 2) for k in catalog.types(site)][:SUGGEST]
            links.missing.append(Missing(text=tokens.raw(min(i, sub[0]), j), kind="kind", site=site, suggestions=kinds))
            continue
        tokens.take(i, j)
        if not links.sites and len(where[marker]) == 1:  # the only site that has this kind
            links.sites = [where[marker][0]]
            links.mentions.append(Mention(text="", name=links.sites[0], kind="site", how="only"))
        if marker not in links.asset_types:
            links.asset_types.append(marker)
            links.mentions.append(Mention(text=text, name=marker, kind="asset", how="exact"))
        spans.append((i, j, marker))
    _one_noun(catalog, links, spans)
    _the_only_one(tokens, catalog, links, spans, where)
    _members_listed(tokens, catalog, links, spans, where)
    _absent_kinds(tokens, catalog, links, set(where))


def _another_subtype(
    tokens: Tokens, i: int, j: int, marker: str, catalog: Catalog, sites: list[str]
) -> tuple[int, str] | None:
    """The word before a kind's head word where it names a subtype the field defines ("blast" of "the blast freezer":
    `blastFreezer`) and the site's equipment of that kind is of other subtypes only (its plate freezers: `plateFreezer`,
    "Plate Freezer 1"): (its token, the word), the kind asked being none the site has; else None."""
    at = j - 2 if j - i >= 2 else i - 1  # "blast freezer" read as one kind's words, or "blast" before "freezer"
    if at < 0 or (at < i and tokens.used[at]) or len(sites) != 1:
        return None
    word = tokens.items[at][0].casefold()
    if not word.isalpha() or word in forms.FUNCTION_WORDS:
        return None
    subtype = word + marker[:1].upper() + marker[1:]
    if not fieldvocab.is_marker(subtype):
        return None
    site = catalog.site(sites[0])
    of_kind = site.assets_of_type(marker)
    markers = {m.casefold() for a in of_kind for m in site.markers.get(a, ())}
    names = {w.casefold() for a in of_kind for w in re.split(r"[\s_\-.]+", a)}
    others = {m for m in markers if m.endswith(marker.casefold()) and m != marker.casefold()}
    return (at, word) if of_kind and others and subtype.casefold() not in markers and word not in names else None


_DEGREE = frozenset("least most more less too very so as how".split())


def _a_measure_said_by_degree(tokens: Tokens, i: int, j: int) -> bool:
    """A kind's word that is also a measure's adjective (words.yaml `measures`: "hot", "cold", "dry") said with a
    degree ("the least hot", "too cold", "as dry as", "hot than" misheard): the measure, not equipment of that kind."""
    said = " ".join(tokens.words(i, j)).casefold()
    if j - i != 1 or not fieldvocab.measure_words(said):
        return False
    before = tokens.items[i - 1][0].casefold() if i > 0 else ""
    after = tokens.items[j][0].casefold() if j < len(tokens.items) else ""
    return before in _DEGREE or after == "than"


def _the_site_itself(tokens: Tokens, i: int, j: int, links: Links, site: str) -> bool:
    """ "the mill" (a kind's words in the singular after "the") where the site lacks that kind and the question names
    an asset of that site by its name: a word for the site itself (a sawmill's "the mill"), not equipment it lacks."""
    words = tokens.words(i, j)
    named_here = [a for a in links.assets if links.asset_sites.get(a) == site]
    after = tokens.items[j][0].casefold() if j < len(tokens.items) else ""
    return (
        bool(named_here)
        and i > 0
        and tokens.items[i - 1][0].casefold() == "the"
        and fieldvocab.singular(words[-1].casefold()) == words[-1].casefold()
        and (not after or after in forms.CUE_WORDS | forms.FUNCTION_WORDS)  # "the pump test": a test, not the site
    )


def _qualifies_a_measure(tokens: Tokens, i: int, j: int) -> bool:
    """The kind's words at i:j, in the singular, stand before a measure word ("fan energy", "pump power"): they
    qualify the measure (a tag of the point: Haystack's `fan power`), they do not name equipment."""
    words = tokens.words(i, j)
    if j >= len(tokens.items) or fieldvocab.singular(words[-1].casefold()) != words[-1].casefold():
        return False
    after = tokens.items[j][0].casefold()
    return bool(fieldvocab.quantities_named(after)) or (fieldvocab.is_tag(after) and after not in GLUE)


def _in_a_measure_phrase(tokens: Tokens, i: int, j: int) -> bool:
    """The words at i:j are inside an operators' measure phrase of several words ("starved of air", "short of
    water"): they say what is measured, not a kind of equipment."""
    lo, hi = max(0, i - 3), min(len(tokens.items), j + 3)
    window = " ".join(tokens.words(lo, hi)).casefold()
    said = " ".join(tokens.words(i, j)).casefold()
    return any(
        len(mw.phrase.split()) > 1 and re.search(rf"\b{re.escape(said)}\b", mw.phrase)
        for mw in fieldvocab.measure_words(window)
    )


def _the_only_one(
    tokens: Tokens, catalog: Catalog, links: Links, spans: list[tuple[int, int, str]], where: dict[str, list[str]]
) -> None:
    """ "the pasteurizer" (a kind in the singular after "the") where exactly one asset of the sites in play is of that
    kind, and the question names no asset: that asset."""
    for i, j, marker in spans:
        text = tokens.raw(i, j)
        if links.assets or marker not in links.asset_types or text.casefold().endswith("s") or i == 0:
            continue
        if tokens.items[i - 1][0].casefold() != "the":
            continue
        holders = [(s, a) for s in links.sites or where[marker] for a in catalog.site(s).assets_of_type(marker)]
        if len(holders) == 1:
            site, asset = holders[0]
            links.assets.append(asset)
            links.asset_sites[asset] = site
            links.mentions.append(Mention(text="", name=asset, kind="asset", site=site, how="only"))
            if not links.sites:
                links.sites = [site]


#: a list of the numbers or letters that end names ("1 or 2", "A, B and C", "3 vs 4")
_MEMBERS = re.compile(
    r"(?<![\w.:/-])(?P<list>(?:[0-9]{1,3}|[A-Z])(?:\s*,\s*(?:[0-9]{1,3}|[A-Z]))*\s*(?:,\s*)?(?:or|and|&|vs\.?|versus)"
    r"\s+(?:[0-9]{1,3}|[A-Z]))(?![\w:/-]|\.\d)"
)


def _members_listed(
    tokens: Tokens, catalog: Catalog, links: Links, spans: list[tuple[int, int, str]], where: dict[str, list[str]]
) -> None:
    """ "Which snowmaking pump used more energy yesterday, 1 or 2?": numbers or letters listed apart from the kind
    named, each ending the name of exactly one asset of that kind at the sites in play, are those assets."""
    kinds = [marker for _, _, marker in spans if marker in links.asset_types]
    if links.assets or not kinds:
        return
    for m in _MEMBERS.finditer(tokens.text):
        covered = [n for n, (_, s, e) in enumerate(tokens.items) if s < m.end("list") and e > m.start("list")]
        if not covered or any(tokens.used[n] for n in covered):
            continue
        codes = re.findall(r"[0-9]{1,3}|(?<![a-z])[A-Z](?![a-z])", m.group("list"))
        picked: list[tuple[str, str]] = []
        for code in codes:
            hits = {
                (site, a)
                for site in links.sites or where[kinds[0]]
                for a in catalog.site(site).assets_of_type(kinds[0])
                if all(a in catalog.site(site).assets_of_type(k) for k in kinds[1:])  # "snowmaking pump": both kinds
                and re.split(r"[\s_-]+", a)[-1].casefold() == code.casefold()
            }
            if len(hits) != 1:
                return
            picked.append(hits.pop())
        if len(set(picked)) != len(codes):
            return
        for n in covered:
            tokens.used[n] = True
        for site, asset in picked:
            links.assets.append(asset)
            links.asset_sites[asset] = site
            links.mentions.append(Mention(text=asset, name=asset, kind="asset", site=site, how="list"))
        if not links.sites:
            links.sites = list(dict.fromkeys(site for site, _ in picked))
        return


def _one_noun(catalog: Catalog, links: Links, spans: list[tuple[int, int, str]]) -> None:
    """Two kinds named side by side as one noun ("glycol pumps", "aeration blowers") where one kind's assets are
    among the other's: one kind, the narrower (the noun's head where both hold the same assets)."""
    for (_, j1, first), (i2, _, second) in zip(spans, spans[1:]):
        if j1 != i2 or first == second or first not in links.asset_types or second not in links.asset_types:
            continue
        a = {(s, x) for s in catalog.sites for x in catalog.site(s).assets_of_type(first)}
        b = {(s, x) for s in catalog.sites for x in catalog.site(s).assets_of_type(second)}
        drop = first if a >= b else second if b > a else None
        if drop is not None:  # its words stay placed (its mention stays): they named the one kind with the other
            links.asset_types.remove(drop)


#: words that may follow a kind named as a thing ("any boilers at S", "is there a boiler in S", "generators are …")
_AFTER_KIND = GLUE | frozenset("are is were was does do did have has there exist exists that which here".split())
#: words before a kind named as a thing that may or may not be there ("is there a boiler", "any generators")
_KIND_BEFORE = frozenset("a an any no some the".split())


def _as_written(text: str, marker: str) -> str:
    """A kind as the question wrote it and as the field names it: "VAV (variable air volume terminal unit)"."""
    label = kind_label(marker)
    written = fieldvocab.singular(text.strip()) if text.strip().casefold() != label.casefold() else label
    return label if key(written) in (key(label), key(label) + "s") else f"{written} ({label})"


def _qualifies_a_kind_there(tokens: Tokens, j: int, index: dict[str, str], catalog: Catalog, site: str) -> bool:
    """The kind's word at tokens[..j] stands before a kind the site has, whose equipment there carries the word in its
    names ("exhaust" of "those big exhaust fans", the site's fans named "CP Exhaust Fan 1" …): it says which of them,
    it names no kind the site lacks."""
    word = key(tokens.items[j - 1][0]) if j > 0 else ""
    for k in (j + 1, j + 2):
        if k > len(tokens.items):
            break
        after = index.get(key("".join(tokens.words(j, k))))
        if after is None or after not in catalog.types(site):
            continue
        named = [
            a for a in catalog.site(site).assets_of_type(after) if word in {key(w) for w in re.split(r"[\s_-]+", a)}
        ]
        return bool(word) and bool(named)
    return False


def _absent_kinds(tokens: Tokens, catalog: Catalog, links: Links, present: set[str]) -> None:
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
        if before and before not in _KIND_BEFORE and before not in GLUE and before not in ("many", "all", "list"):
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


#: a code of letters, a hyphen and one more letter or digit group ("FZ-A", "CR-2"), as some names start
_LETTER_CODE = re.compile(r"([^\W\d_]{1,4})-[^\W_]{1,3}")


def missing_assets(
    tokens: Tokens, catalog: Catalog, links: Links, scope: list[str], owners: dict[str, list[str]]
) -> None:
    """Names shaped like the catalog's asset names that are not on it: a span with the shape of an
    asset name (its digits aside: "CH-07" where there is CH-01, "Pump P-4" where there is Pump P-3),
    "<word> <number>" where asset names start with that word, and letter+digit codes whose letters
    start some asset name ("B020" where there is B020_Total)."""
    shapes = {name_shape(a) for a in owners if "#" in name_shape(a) and sum(c.isalpha() for c in name_shape(a)) >= 2}
    longest = min(MAX_SPAN, max((words_in(a) for a in owners), default=1))
    site = links.sites[0] if links.sites else (scope[0] if len(scope) == 1 else "")
    pool = catalog.assets(site) if site else list(owners)
    for i, j in list(tokens.spans(longest)):
        if any(tokens.used[i:j]):
            continue
        raw = tokens.raw(i, j)
        if name_shape(raw) in shapes and raw not in owners:
            tokens.take(i, j)
            links.missing.append(Missing(text=raw, kind="asset", site=site, suggestions=alike(raw, pool)))
    first_words = {key(a.split()[0]) for a in owners if " " in a}
    code_heads = {m.group(1).casefold() for a in owners for m in [re.match(r"([^\W\d_]+)\d", a)] if m}
    # "FZ-D" where the names start with the codes FZ-A, FZ-B, FZ-C: the same letters before the hyphen
    lettered = {c.group(1).casefold() for a in owners if (c := _LETTER_CODE.fullmatch(a.split()[0]))}
    items = tokens.items
    for n, (tok, _, _) in enumerate(items):
        if tokens.used[n]:
            continue
        text = None
        if NUMBER.fullmatch(tok) and n > 0 and not tokens.used[n - 1]:
            prev = items[n - 1][0]
            singular = prev[:-1] if prev.endswith("s") and len(prev) > 3 else prev
            if key(prev) in first_words or key(singular) in first_words:
                text = f"{singular} {tok}"
                tokens.used[n - 1] = True
        elif (code := re.fullmatch(r"([^\W\d_]+)\d[\w\-]*", tok)) and not TIMEISH.match(tok):
            head = code.group(1).casefold()
            after = items[n + 1][0] if n + 1 < len(items) else ""
            qualifies = key(tok) in first_words and bool(fieldvocab.kinds_named(after.casefold()))
            if head in code_heads and not qualifies:  # "NH3 compressors": the names' first word before their kind
                text = tok
        elif (c := _LETTER_CODE.fullmatch(tok)) and c.group(1).casefold() in lettered and key(tok) not in first_words:
            text = tok
        if text is None:
            continue
        tokens.used[n] = True
        links.missing.append(Missing(text=text, kind="asset", site=site, suggestions=alike(text, pool)))


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
_SITE_BEFORE = frozenset(
    "at in on for from of to within across site plant campus building facility does do did".split()
)  # "how many boilers does the Eastgate Hotel have": its subject
_SITE_AFTER = frozenset("site sites plant plants campus building buildings facility station works factory".split())


def _place_name(tokens: Tokens, n: int, links: Links, catalog: Catalog) -> int:
    """How many words from `n` name a place the SkySpark does not have (0: none): a capitalised word and the plain
    noun after it ("at the Stockton depot"), or a run of capitalised words ("at Riverside Ice Rink"), standing where a
    site's name stands and ending the phrase, where the question names no site and no word is one the reading or
    the field knows (a weekday, a unit, a kind, a measure are placed as such)."""
    named = any(m.kind == "site" and m.text for m in links.mentions)  # not the site of the assets named
    if named or len(catalog.sites) < 2 or n + 1 >= len(tokens.items):
        return 0
    known = forms.FUNCTION_WORDS | (forms.CUE_WORDS - forms.OUTSIDE_WORDS)  # "the Eastgate Hotel" is a place

    def plain(w: str) -> bool:
        return (
            w.isalpha()
            and w.casefold() not in known
            and not field_word(w)
            and w.casefold() not in fieldvocab.unit_words()
        )

    words = [t for t, _, _ in tokens.items]
    if not (words[n][:1].isupper() and words[n][1:].islower() and plain(words[n])):
        return 0
    end = n + 1
    while end < len(words) and not tokens.used[end] and words[end].istitle() and plain(words[end]):
        end += 1  # "Riverside Ice Rink"
    if end == n + 1 and words[end].islower() and plain(words[end]):
        end += 1  # "Stockton depot"
    after = words[end] if end < len(words) else ""
    if after.casefold() in BUSINESS_NOUNS:  # "the Cerámicas Levante order", "the Valencia hotel order": a customer's
        return 0  # or a job's name, no place the SkySpark would hold
    ends = not after or after.casefold() in GLUE | known  # the name ends the phrase: "… depot right now"
    return end - n if end - n >= 2 and ends else 0


#: the nouns of a plant's business after a name ("the Al-Noor export order", "the Gulf order", "the Mendoza job"):
#: the name is a customer's, an order's or a project's
BUSINESS_NOUNS = frozenset(
    "order orders job jobs contract contracts account accounts customer customers client clients project projects "
    "shipment shipments consignment invoice invoices costing tender campaign company companies".split()
)


def _unknown_place(tokens: Tokens, n: int, links: Links, catalog: Catalog) -> bool:
    """A word nothing knows right before a place noun, where a site's name stands ("at the gawler plant", "the
    ridgeway site"), in a question that names no site: the name of a site the SkySpark does not have."""
    words = [t for t, _, _ in tokens.items]
    w = words[n]
    if any(m.kind == "site" and m.text for m in links.mentions) or len(catalog.sites) < 2:
        return False
    before = [x.casefold() for x in words[max(0, n - 2) : n] if x.casefold() not in ("the", "a", "an")]
    return (
        w.isalpha()
        and len(w) >= 3
        and words[n + 1].casefold() in _SITE_AFTER
        and bool(before and before[-1] in _SITE_BEFORE)
        and w.casefold() not in forms.FUNCTION_WORDS | forms.CUE_WORDS
        and not field_word(w)
        and w.casefold() not in fieldvocab.unit_words()
        and w.casefold() not in {x.casefold() for name in catalog.all_names() for x in re.split(r"[\s_-]+", name)}
    )


def kind_words(catalog: Catalog) -> set[str]:
    """Every way a question may write a kind of equipment or a measurement (never a site's name): the catalog's
    equip markers and the generic vocabularies, singular and plural."""
    markers = {t for site in catalog.sites for t in catalog.types(site)}
    out = {w for m in markers for w in _type_words(m)}
    return out | {w + "s" for w in out}


def field_word(word: str) -> bool:
    """The word names a kind of equipment or a measure in the field's vocabulary ("BOILERS", "HUMIDITY")."""
    return bool(fieldvocab.kinds_named(word.casefold()) or fieldvocab.measure_words(word.casefold()))


def _site_position(tokens: Tokens, n: int) -> bool:
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


def missing_sites(tokens: Tokens, catalog: Catalog, links: Links) -> None:
    """Names that look like the SkySpark's site names but are none: upper-case codes (4+ characters,
    3+ letters), and names with the same first part and separators as a site ("Plant-South" where
    there is Plant-North) — in a site's position ("at X", "X site"), and never a word for a kind of equipment
    or a measurement ("Which of the BOILERS …" names a kind, not a site)."""
    skeletons = {s for s in map(_site_skeleton, catalog.sites) if s}
    kinds = kind_words(catalog)
    coded = {_code_shape(s) for s in catalog.sites if _code_shape(s)}
    for n, (tok, _, _) in enumerate(tokens.items):
        if tokens.used[n] or tok in NOT_CODES or key(tok) in kinds or field_word(tok):
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
            joined = n + 1 < len(tokens.items) and not tokens.text[tokens.items[n][2] : tokens.items[n + 1][1]].strip()
            pair = f"{tok} {tokens.items[n + 1][0]}" if joined and not tokens.used[n + 1] else ""  # not "X? Need"
            if pair and _site_skeleton(pair) in skeletons and pair not in catalog.sites and _site_position(tokens, n):
                tokens.used[n] = tokens.used[n + 1] = True  # "Harbour North" where there is Harbour Point
                links.missing.append(Missing(text=pair, kind="site", suggestions=catalog.sites[:SUGGEST]))
            elif pair and tok[:1].isupper() and _site_position(tokens, n) and pair not in catalog.sites:
                last = tokens.items[n + 1][0]
                if any(len(s.split()) == 2 and s.split()[1] == last for s in catalog.sites):
                    tokens.used[n] = tokens.used[n + 1] = True  # "Eastside WRF" where there is Millbrook WRF
                    links.missing.append(Missing(text=pair, kind="site", suggestions=catalog.sites[:SUGGEST]))
                elif size := _place_name(tokens, n, links, catalog):  # "at the Stockton depot": a place it lacks
                    tokens.used[n : n + size] = [True] * size
                    links.missing.append(
                        Missing(text=tokens.raw(n, n + size), kind="site", suggestions=catalog.sites[:SUGGEST])
                    )
            elif pair and _unknown_place(tokens, n, links, catalog):  # "at the gawler plant": a place it lacks
                tokens.used[n] = True
                links.missing.append(Missing(text=tok, kind="site", suggestions=catalog.sites[:SUGGEST]))
            continue
        if not _site_position(tokens, n):
            continue
        tokens.used[n] = True
        links.missing.append(Missing(text=tok, kind="site", suggestions=catalog.sites[:SUGGEST]))
