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

from edge_agent.grounding import fieldvocab, measures
from edge_agent.grounding.catalog import Catalog, SensorName, key
from edge_agent.grounding.forms import CUE_WORDS, FUNCTION_WORDS, TABLE
from edge_agent.grounding.lacking import (
    USAGE_VERB,
    asked_measures,
    asset_kinds,
    energy_from_power,
    field_word,
    has_power,
    kind_words,
    missing_assets,
    missing_sensors,
    missing_sites,
    sensor_lacking,
)
from edge_agent.grounding.links import (
    ENERGY_WORDS,
    GLUE,
    LIST_TAIL,
    MAX_SPAN,
    NEAR_CUTOFF,
    NUMBER,
    Ambiguity,
    Links,
    Mention,
    Missing,
    Tokens,
    alike,
    digit_runs,
    inflected,
    is_typo,
    key_variants,
    name_index,
    plural_variants,
    words_in,
)
from edge_agent.grounding.measures import kind_names
from edge_agent.grounding.question import asks_amount


def _match_exact(tokens: Tokens, index: dict[str, str], longest: int) -> list[tuple[int, int, str, str]]:
    found = []
    for i, j in tokens.spans(longest):
        if any(tokens.used[i:j]):
            continue
        words = tokens.words(i, j)
        for k in plural_variants(words):
            hit = next((index[v] for v in key_variants(k) if v in index), None)
            if hit is not None:
                raw = tokens.raw(i, j)
                how = "exact" if raw == hit else "loose"
                tokens.take(i, j)
                found.append((i, j, hit, how))
                break
    return found


def _match_near(
    tokens: Tokens, index: dict[str, str], longest: int, skip: frozenset[str] = frozenset()
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
        if j - i > 1 and (words[0].casefold() in GLUE or words[-1].casefold() in GLUE):
            continue  # "chiller at" is no typo of "Chiller A": a name does not start or end with a glue word
        if j < len(tokens.items) and NUMBER.fullmatch(tokens.items[j][0]) and not tokens.used[j]:
            continue  # "Chiller 2": the name goes on with its number; "Chiller" alone is no typo of "Chiller B"
        for c in difflib.get_close_matches(k, keys, n=3, cutoff=NEAR_CUTOFF):
            if digit_runs(c) == digit_runs(k) and is_typo(k, c):
                candidates.append((-difflib.SequenceMatcher(None, k, c).ratio(), j - i, i, j, c))
                break
    found = []
    for _, _, i, j, c in sorted(candidates):
        if not any(tokens.used[i:j]):
            tokens.take(i, j)
            found.append((i, j, index[c], "near"))
    return found


def _match_part(
    tokens: Tokens, names: list[str], points: frozenset[str] = frozenset()
) -> list[tuple[int, int, str, str]]:
    """An asset named by a distinctive part of its name, as operators write it: "FZ-B" for FZ-B Deepfreeze Hall,
    "screw comp 1" for NH3 Screw Comp 1, "the blast freezer" for FZ-C Blast Freezer, "forno 1" for Forno Fusorio 1 (its
    first and last words). A span of up to four words that
    holds a code or a number, or is two words or more, and whose words stand in that order (loosely spelled) in
    exactly one asset's name at the sites in play; never a span of glue words, never one that fits several names, never
    one word that is a whole point name at those sites ("CO2" is Bay B's CO2 sensor, not the CO2 Doser)."""
    words = {n: [_short(key(w)) for w in re.split(r"[\s_]+", n) if key(w)] for n in names}
    found = []
    for i, j in tokens.spans(4):
        if any(tokens.used[i:j]):
            continue
        span = [_short(key(w)) for w in tokens.words(i, j)]
        raw = tokens.words(i, j)
        if not all(span) or span[0] in GLUE or (span[-1] in GLUE and not re.fullmatch(r"[A-Z]", raw[-1])):
            continue  # a glue word never ends a name, but a capital letter does ("basin A")
        coded = any(re.search(r"\d", w) or re.fullmatch(r"[A-Z]{1,4}-?[A-Z0-9]+", w) for w in raw)
        if len(span) < 2 and (not (coded and re.search(r"[^\W\d_]", raw[0])) or key(raw[0]) in points):
            continue  # one word: only a code with letters in it ("FZ-B", "CR-2"), never a bare number
        fits = [n for n, ws in words.items() if ws != span and _contains(ws, span)] or [
            n
            for n, ws in words.items()
            if _ends(ws, span)  # "forno 1": Forno Fusorio 1, its middle word left out
        ]
        if len(fits) == 1 and not (
            j < len(tokens.items) and NUMBER.fullmatch(tokens.items[j][0]) and not tokens.used[j]
        ):  # "Comp 1" before "0": "Comp 10"
            tokens.take(i, j)
            found.append((i, j, fits[0], "part"))
    return found


def _match_sensor_part(
    tokens: Tokens, names: list[str], not_qualifiers: frozenset[str] = frozenset()
) -> list[tuple[int, int, str, str]]:
    """A sensor of the assets in play named by two or more words of its name, in order ("the RTU discharge air" for
    Discharge Air Temp): where exactly one sensor's name holds them — a setpoint only where the question says
    setpoint ("discharge air" is the Discharge Air Temp, not its Sp)."""
    words = {n: [_short(key(w)) for w in re.split(r"[\s_\-]+", n) if key(w)] for n in names}
    found = []
    for i, j in tokens.spans(4):
        if j - i < 2 or any(tokens.used[i:j]):
            continue
        span = [_short(key(w)) for w in tokens.words(i, j)]
        if not all(span) or span[0] in GLUE or span[-1] in GLUE:
            continue
        # "the hot-air damper": a hyphened word is the name's two words
        span = [_short(key(p)) for w in tokens.words(i, j) for p in w.split("-") if key(p)]
        fits = [n for n, ws in words.items() if _contains(ws, span)]
        before = _qualifier(tokens, i)
        if before and before not in not_qualifiers and not any(before in ws for n, ws in words.items() if n in fits):
            continue  # "condenser water temp" is not the Leaving Water Temp: the word before says which water
        # a setpoint as the field's vocabulary reads a point name, and as the forms table reads the question's words
        said = " ".join(tokens.words(i, min(j + 2, len(tokens.items))))  # "discharge air (temp) setpoint"
        said_setpoint = TABLE.setpoint.search(said) is not None
        fits = [n for n in fits if (fieldvocab.point_function((), n) == "setpoint") == said_setpoint] or fits
        # a command only where the question says one ("the hot-air damper" is its Position, not its Cmd)
        said_command = _SAYS_COMMAND.search(said) is not None
        fits = [n for n in fits if (fieldvocab.point_function((), n) == "command") == said_command] or fits
        if len(fits) == 1:
            tokens.take(i, j)
            found.append((i, j, fits[0], "part"))
    return found


#: the words that ask for a command rather than what was measured
_SAYS_COMMAND = re.compile(r"\b(?:cmd|command|commanded|demand|signal|output|told\s+to)\b", re.I)


#: prepositions after which an operator says the place or part of a point name's words ("the CO2 in the lobby")
_INVERTING = frozenset("in at of for on inside within".split())


def _match_inverted(tokens: Tokens, index: dict[str, str], longest: int) -> list[tuple[int, int, str, str]]:
    """A point name said in the other order around a preposition: "the CO2 in the lobby" for Lobby CO2, "the
    temperature at the summit" for Summit Temp — up to three words before the preposition and two after it (past
    "the") that, the latter first, are exactly one point name of the sites in play."""
    found: list[tuple[int, int, str, str]] = []
    items = tokens.items
    for p, (word, _, _) in enumerate(items):
        if word.casefold() not in _INVERTING or tokens.used[p]:
            continue
        b0 = p + 1 + (p + 1 < len(items) and items[p + 1][0].casefold() == "the")
        best: tuple[int, int, str] | None = None
        for a in range(1, 4):
            i = p - a
            if i < 0 or any(tokens.used[i:p]) or tokens.words(i, i + 1)[0].casefold() in GLUE:
                continue
            for b in range(1, 3):
                j = b0 + b
                if j > len(items) or any(tokens.used[b0:j]) or a + b > longest:
                    break
                said = Tokens(" ".join(tokens.words(b0, j) + tokens.words(i, p)))
                hit = [h for h in _match_exact(said, index, longest) if (h[0], h[1]) == (0, len(said.items))]
                if hit and (best is None or j - i > best[1] - best[0]):
                    best = (i, j, hit[0][2])
        if best is not None and not any(tokens.used[best[0] : best[1]]):
            tokens.take(best[0], best[1])
            found.append((best[0], best[1], best[2], "inverted"))
    return found


def _shared_head(
    tokens: Tokens, matched: list[tuple[int, int, str, str]], index: dict[str, str]
) -> list[tuple[int, int, str, str]]:
    """ "chamber temp and humidity": after a point name of several words, "and" (or a comma) and a word that with the
    name's first words is another point name (Chamber Humidity) names that point too."""
    found: list[tuple[int, int, str, str]] = []
    for _, j, name, _ in list(matched):
        head = re.split(r"[\s_]+", name)[:-1]
        if not head or j + 1 >= len(tokens.items) or tokens.items[j][0].casefold() not in ("and", "&", "plus"):
            continue
        for size in (2, 1):
            k = j + 1 + size
            if k > len(tokens.items) or any(tokens.used[j:k]):
                continue
            said = Tokens(" ".join([*head, *tokens.words(j + 1, k)]))
            hit = [h for h in _match_exact(said, index, len(said.items)) if (h[0], h[1]) == (0, len(said.items))]
            if hit and hit[0][2] != name:
                tokens.take(j, k)
                found.append((j + 1, k, hit[0][2], "list"))
                break
    return found


def _match_tags(
    tokens: Tokens, points: list[SensorName], placed: frozenset[str], amount: bool = False
) -> list[tuple[int, int, str, str]]:
    """A point named by its Haystack tags, where its name says it in another language or otherwise ("oxygen in kar
    2" is Oksygen, tagged `oxygen`; "water temp" is Vanntemperatur, tagged `water temp`; "the level" is Nivå, tagged
    `level`): a span of one to three words that are in no point name in play, each a tag of the point (as names
    shorten it: temperature is `temp`), fitting exactly one point name; a setpoint only where the span says so.
    `amount`: the question asks what was used or made ("use more steam"), so of several points that fit, the one
    whose unit adds up (the meter's running total) is it."""
    names = _name_words([p.short for p in points])
    adds_up = {p.short for p in points if (q := fieldvocab.quantity_of_unit(p.unit)) is not None and q.summable}
    tagged: dict[str, set[str]] = {}
    for p in points:
        words = {key(w) for t in p.tags if t not in fieldvocab.RECORD_TAGS for w in [t, *fieldvocab.marker_words(t)]}
        if "sp" in p.tags:
            words |= {"setpoint", "sp"}
        quantity = fieldvocab.quantity_of_unit(p.unit)
        if "hisTotalized" in p.tags or (quantity is not None and quantity.summable):  # "the totalizer" (words.yaml)
            words |= {key(w) for w in fieldvocab.register_words()}
        tagged.setdefault(p.short, set()).update(words)

    def variants(word: str) -> set[str]:
        k = key(word)
        out = key_variants(k) | key_variants(k[:-1] if k.endswith("s") and len(k) > 3 else k)
        if len(k) <= 3 and fieldvocab.quantity_of_unit(word) is None:  # "RH": its quantity, as tags say it
            out |= {
                key(w) for m in fieldvocab.measure_words(word.casefold()) if m.quantity for w in m.quantity.name.split()
            }
        return out

    found: list[tuple[int, int, str, str]] = []
    for i, j in tokens.spans(3):
        if any(tokens.used[i:j]):
            continue
        said = tokens.words(i, j)
        if any(key(w) in GLUE or key(w) in names or key(w) in placed or not w.isalpha() for w in said):
            continue  # the words of names, kinds and the question's form are read as such
        setpoint = any(variants(w) & {"setpoint", "sp"} for w in said)
        if setpoint and len(said) == 1:
            continue  # "its setpoint": read with the series it is of
        fits = [
            short
            for short, tags in tagged.items()
            if all(variants(w) & tags for w in said) and (setpoint or not tags & {"setpoint"})
        ]
        if len(fits) > 1 and amount:
            fits = [f for f in fits if f in adds_up] or fits
        if len(fits) == 1:
            tokens.take(i, j)
            found.append((i, j, fits[0], "tags"))
    return found


def _match_name_word(
    tokens: Tokens, points: list[SensorName], plain: frozenset[str] | set[str]
) -> list[tuple[int, int, str, str]]:
    """A named asset's point named by one word of its name that no other of its points has ("did boiler_1 burn more
    gas": gas_flow, its one point with "gas" in its name): never a setpoint, never by a measure's word ("temp",
    "flow": the measure is read as such, and a qualifier before it may say it is another point)."""
    names = {
        p.short: {_short(key(w)) for w in re.split(r"[\s_\-]+", p.short) if key(w)}
        for p in points
        if not measures.point_measure(p).setpoint
    }
    by_short = {p.short: p for p in points}
    found: list[tuple[int, int, str, str]] = []
    for n, (word, _, _) in enumerate(tokens.items):
        k = _short(key(word))
        if tokens.used[n] or not word.isalpha() or len(k) < 3 or k in GLUE or k in plain:
            continue
        if fieldvocab.quantities_named(word.casefold()):
            continue
        fits = [short for short, ws in names.items() if k in ws] or [  # "gas" of Temperatura Gases de Salida
            short for short, ws in names.items() if any(inflected(k, w) for w in ws)
        ]
        said = fieldvocab.quantities_named(tokens.items[n + 1][0].casefold()) if n + 1 < len(tokens.items) else []
        if said and not all(measures.fits([q.name for q in said], measures.point_measure(by_short[f])) for f in fits):
            continue  # "flue gas temp": a word before a measure's word never names a point of another (Portata Gas)
        before = _qualifier(tokens, n)
        if len(fits) == 1 and not (before and before not in names[fits[0]]):  # "condenser water": another water
            tokens.take(n, n + 1)
            found.append((n, n + 1, fits[0], "part"))
    return found


def _used_words(question: str) -> set[str]:
    """The noun a verb of using up takes, past its degree words ("burnt the most gas", "used more steam"): keys."""
    ws = re.findall(r"[^\W\d_]+", question)
    out = set()
    for n, w in enumerate(ws):
        if USAGE_VERB.fullmatch(w.casefold()):
            after = [x for x in ws[n + 1 : n + 5] if x.casefold() not in FUNCTION_WORDS and key(x) not in ("teh",)]
            if after:
                out.add(key(after[0]))
    return out


def _group_of_a_kind(catalog: Catalog, links: Links) -> None:
    """A family of names that a kind narrows ("of the two penguin life-support pumps": the PEN-* that are pumps): only
    those of the kind stay linked."""
    grouped = [m.name for m in links.mentions if m.kind == "asset" and m.how == "group"]
    if not grouped or not links.asset_types:
        return
    sites = {links.asset_sites.get(g, "") for g in grouped} - {""}
    kinds = [{a for site in sites for a in catalog.site(site).assets_of_type(k)} for k in links.asset_types]
    both = set.intersection(*kinds) if kinds else set()  # "life-support pumps": of every kind said
    keep = [g for g in grouped if g in both] or [g for g in grouped if any(g in k for k in kinds)]
    if not keep:
        return
    drop = set(grouped) - set(keep)
    links.assets = [a for a in links.assets if a not in drop]
    links.mentions = [m for m in links.mentions if not (m.kind == "asset" and m.name in drop)]
    links.missing = [m for m in links.missing if m.asset not in drop]  # no lack is told of what is not asked about
    for a in drop:
        links.asset_sites.pop(a, None)


def _an_amounts_rate(point: SensorName) -> bool:
    """The point is a flow of something that adds up to an amount (m³/h, kg/h, L/min) or an amount itself."""
    q = fieldvocab.quantity_of_unit(point.unit)
    return q is not None and q.name in ("volumetric flow", "mass flow", "volume", "mass")


def _placed_words(catalog: Catalog) -> frozenset[str]:
    """Words the reading and the kinds place (function, cue, data and verb words; every word of a kind's names):
    never a point's tag said as its name."""
    kinds = {key(n) for m in catalog.kinds() for n in kind_names(m) if len(n.split()) == 1}  # "steam" of "steam
    # meter" may be a point's tag ("use more steam"); "meter" alone is the kind's
    table = FUNCTION_WORDS | CUE_WORDS | TABLE.data_words | TABLE.verb_forms
    return frozenset({key(w) for w in table} | kinds)


def _match_initials(tokens: Tokens, names: list[str]) -> list[tuple[int, int, str, str]]:
    """A sensor named by its initials, as operators write them ("DO" for Dissolved Oxygen, "RAT" for Return Air Temp,
    "soc" for State of Charge): a word of 2–5 capital letters, in a question not written in capitals, or of 3–5
    lower-case letters that is no word of the reading's, that is the initials of the words of exactly one sensor name
    in play."""
    letters = [c for t, _, _ in tokens.items for c in t if c.isalpha()]
    if not letters or sum(c.isupper() for c in letters) > len(letters) / 2:
        return []  # a question in capitals: its words are no initials
    by: dict[str, set[str]] = {}
    for name in names:
        ws = [w for w in re.split(r"[\s_\-./]+", name) if w]
        if len(ws) >= 2:
            by.setdefault("".join(w[0] for w in ws).casefold(), set()).add(name)
    plain = {key(w) for w in FUNCTION_WORDS | CUE_WORDS | TABLE.data_words | TABLE.verb_forms}
    found = []
    for n, (text, _, _) in enumerate(tokens.items):
        # in capitals ("DO"), or in a question written in lower case, three letters or more that are no English
        # word of the reading's ("soc" for State of Charge; "do" never)
        said = re.fullmatch(r"[A-Z]{2,5}", text) or (re.fullmatch(r"[a-z]{3,5}", text) and key(text) not in plain)
        if TABLE.setpoint.fullmatch(text):
            said = None  # "below its SP": the field's word for a setpoint, never a name's initials (Steam Pressure)
        fits = by.get(text.casefold(), set()) if said else set()
        if not tokens.used[n] and len(fits) == 1:
            tokens.take(n, n + 1)
            found.append((n, n + 1, fits.pop(), "initials"))
    return found


def _with_word_before(question: str, phrase: str) -> list[str]:
    """The words of `phrase` and of the word just before it, wherever the question says it ("the filter pump" of
    "pump": filter, pump)."""
    words: list[str] = []
    for m in re.finditer(rf"(?:(\w+)\s+)?(?<!\w){re.escape(phrase)}(?!\w)", question, re.I):
        words += ([m[1]] if m[1] else []) + phrase.split()
    return words


def _qualifier(tokens: Tokens, i: int) -> str:
    """The plain word just before token `i`, right after a name, that nothing placed and that may say which of several
    like series is meant ("condenser" of "Chiller 1 condenser water temp"): four letters or more, no function, form
    or glue word; its short form ('' where there is none)."""
    if i < 2 or tokens.used[i - 1] or not tokens.used[i - 2]:
        return ""  # only right after a name: "Chiller 1 condenser water temp"
    raw = tokens.words(i - 1, i)[0]
    k = key(raw)
    if len(k) < 4 or not k.isalpha() or k in GLUE or raw.casefold() in FUNCTION_WORDS | CUE_WORDS:
        return ""
    return _short(k)


def _short(word: str) -> str:
    """A name's word as names shorten it ("compressor" → "comp", "room" → "rm"; words.yaml), else itself."""
    return next((short for long, short in fieldvocab.short_forms() if word == long), word)


#: the least length of a single word that may name a site or an asset by itself ("fresno", "incomer")
_WORD_MIN = 4


def _match_word(
    tokens: Tokens, names: list[str], common: set[str], *, first_only: bool = False
) -> list[tuple[int, int, str, str]]:
    """A site or an asset named by one distinctive word of its name, as operators write it: "fresno" for Fresno
    Produce Hub, "the incomer" for Grid Incomer M1. A word of four letters or more that stands in exactly one of
    `names` (loose keys) and is not `common`: a glue or function word, a word for a kind of equipment or a measure
    (those are linked as such), a word of several names' (then it names none), nor a word before a kind it
    qualifies ("exhaust fans"). `first_only`: only a name's first word (a site's place name: "Fresno Produce Hub";
    its later words are often plain ones: "Harbour Point", "at any point")."""
    owners: dict[str, set[str]] = {}
    for n in names:
        for w in re.split(r"[\s_\-./]+", n)[: 1 if first_only else None]:
            k = key(w)
            if len(k) >= _WORD_MIN and k.isalpha():
                owners.setdefault(k, set()).add(n)
    found = []
    for i in range(len(tokens.items)):
        if tokens.used[i]:
            continue
        raw = tokens.words(i, i + 1)[0]
        k = key(raw)
        fits = owners.get(k, set())
        if len(fits) != 1 or k in common or k in GLUE or field_word(raw):
            continue
        after = tokens.words(i + 1, i + 2)[0] if i + 1 < len(tokens.items) else ""
        owner = next(iter(fits))
        one = after and not after.casefold().endswith("s") and key(after) in _name_words([owner])  # "the sealer MAU"
        if not one and (
            after and (fieldvocab.kinds_named(after.casefold()) or fieldvocab.kinds_named(f"{raw} {after}".casefold()))
        ):
            continue  # it qualifies a kind ("exhaust fans"), it names no one thing
        if after[:1].isupper() and key(after) not in _name_words([owner]):
            continue  # "Harbour North" where there is Harbour Point: another name, one this catalog may lack
        tokens.take(i, i + 1)
        found.append((i, i + 1, owner, "part"))
    return found


#: prepositions after which a question says where ("at tepeaca", "in Tepeaca")
_PLACE_BEFORE = frozenset("at in from for".split())


def _match_place_word(tokens: Tokens, sites: list[str], common: set[str]) -> list[tuple[int, int, str, str]]:
    """A site named by a later word of its name, where the question writes it as a place ("any pumps at tepeaca?" for
    Cementera Tepeaca): after at/in/from/for or alone at the end, four letters or more, in exactly one site's name,
    no plain, field or general place word ("at the plant", "in point of fact")."""
    owners: dict[str, set[str]] = {}
    for n in sites:
        for w in re.split(r"[\s_\-./]+", n)[1:]:
            k = key(w)
            if len(k) >= _WORD_MIN and k.isalpha() and k not in _GENERAL_PLACES:
                owners.setdefault(k, set()).add(n)
    found = []
    for i in range(1, len(tokens.items)):
        tail = i == len(tokens.items) - 1 and tokens.text[: tokens.items[i][1]].rstrip()[-1:] in tuple("?.,;:-–—")
        if tokens.used[i] or not (tokens.items[i - 1][0].casefold() in _PLACE_BEFORE or tail):
            continue  # after a preposition, or alone after the question ("… read at midnight? tepeaca")
        raw = tokens.words(i, i + 1)[0]
        k = key(raw)
        fits = owners.get(k, set())
        if len(fits) != 1 or k in common or k in GLUE or field_word(raw) or raw.casefold() in FUNCTION_WORDS:
            continue
        tokens.take(i, i + 1)
        found.append((i, i + 1, next(iter(fits)), "part"))
    return found


#: the general words a site's name may end with that say nothing of which site ("North Plant", "Main Campus")
_GENERAL_PLACES = frozenset("site sites plant plants campus building buildings facility centre center works".split())
#: ... of which these say what kind of place it is, where they end one site's name ("the centre's export" of Kedron Park
#: Shopping Centre, when no other site's name ends so)
_PLACE_KINDS = frozenset({"centre", "center"})


def _match_city(tokens: Tokens, catalog: Catalog) -> list[tuple[int, int, str, str]]:
    """A site named by its city (its `geoCity`: "the Reykjavik station", "the Buenos Aires telephone exchange"), where
    no other site is in that city and the words stand in no asset's name."""
    by_city: dict[tuple[str, ...], list[str]] = {}
    for site, city in catalog.cities.items():
        words = tuple(key(w) for w in re.split(r"[\s_\-./]+", city) if w)
        if words and all(w.isalpha() and len(w) >= 3 for w in words):
            by_city.setdefault(words, []).append(site)
    found = []
    for words, sites in by_city.items():
        if len(sites) != 1:
            continue
        n = len(words)
        for i in range(len(tokens.items) - n + 1):
            said = tuple(key(w.removesuffix("'s").removesuffix("’s")) for w in tokens.words(i, i + n))
            if said == words and not any(tokens.used[i : i + n]):
                own = {key(w) for w in re.split(r"[\s_\-./]+", sites[0]) if w}
                after = [key(w) for w in tokens.words(i + n, min(i + n + 3, len(tokens.items)))]
                # "the Buenos Aires telephone exchange": the words up to the site's own name word go with it
                end = next((i + n + k + 1 for k, w in enumerate(after) if w in own), i + n)
                if any(tokens.used[i + n : end]):
                    end = i + n
                tokens.take(i, end)
                found.append((i, end, sites[0], "city"))
    return found


def _match_site_type(tokens: Tokens, catalog: Catalog) -> list[tuple[int, int, str, str]]:
    """A site named by the last word of its name after "the" (or as the question's first word), where that word says
    what kind of place it is and ends no other site's name and stands in no asset's or point's ("at the hotel", "the
    dairy's incomer" where there are Aoba Grand Hotel and Lindholm Dairy; "terminal peak demand"); never a general
    word ("the plant", "the site")."""
    lasts: dict[str, list[str]] = {}
    for site in catalog.sites:
        words = _site_words(site)
        for w in words[1:] if len(words) >= 2 else []:  # "the terminal", "the resort" (of Al Noor Resort & Casino)
            if w.isalpha() and len(w) >= _WORD_MIN:
                lasts.setdefault(key(w), []).append(site)
    points = _name_words(
        p.short for site in catalog.sites for a in catalog.assets(site) for p in catalog.sensors(site, a)
    )
    found = _site_tail(tokens, catalog) + _site_by_its_trade(tokens, catalog)
    for i in range(len(tokens.items)):
        raw = tokens.items[i][0].removesuffix("'s").removesuffix("’s")
        k = key(raw)
        fits = lasts.get(k, [])
        if tokens.used[i] or len(fits) != 1 or k in _GENERAL_PLACES - _PLACE_KINDS or k in points:
            continue
        # an asset of another site holding the word, or one of this site's whose name the next word goes on with
        # ("the depot main meter"); the site's own meter named after it ("Depot Main Meter") leaves "the depot" its
        other = [a for site in catalog.sites if site != fits[0] for a in catalog.assets(site)]
        own = [a for a in catalog.assets(fits[0]) if k in _name_words([a])]
        after = key(tokens.items[i + 1][0]) if i + 1 < len(tokens.items) else ""
        if k in _name_words(other) or (after and after in _name_words(own)):
            continue
        if i > 0 and tokens.items[i - 1][0].casefold() != "the":  # or the question's first word: "terminal peak …"
            continue
        tokens.take(i, i + 1)
        found.append((i, i + 1, fits[0], "part"))
    return found


def _site_words(site: str) -> list[str]:
    """The words of a site's name as written ("Al Noor Resort & Casino": Al, Noor, Resort, Casino)."""
    return [w for w in re.split(r"[\s_\-./&]+", site) if w]


def _after_the(tokens: Tokens, i: int) -> bool:
    """Token `i` follows "the" (or starts the question): how a site is named by what kind of place it is."""
    return i == 0 or tokens.items[i - 1][0].casefold() == "the"


def _site_tail(tokens: Tokens, catalog: Catalog) -> list[tuple[int, int, str, str]]:
    """A site named by the last two words or more of its name after "the" ("the chocolate factory" of Altstetten
    Chocolate Factory, "the harbor seafoods plant"), where they end exactly one site's name."""
    tails: dict[tuple[str, ...], list[str]] = {}
    for site in catalog.sites:
        words = [key(w) for w in _site_words(site)]
        for n in range(2, len(words)):
            tails.setdefault(tuple(words[-n:]), []).append(site)
    found = []
    for tail, fits in sorted(tails.items(), key=lambda t: -len(t[0])):
        for i in range(len(tokens.items) - len(tail) + 1):
            j = i + len(tail)
            if len(fits) != 1 or any(tokens.used[i:j]) or not _after_the(tokens, i):
                continue
            if tuple(key(w.removesuffix("'s").removesuffix("’s")) for w in tokens.words(i, j)) == tail:
                tokens.take(i, j)
                found.append((i, j, fits[0], "part"))
    return found


def _site_by_its_trade(tokens: Tokens, catalog: Catalog) -> list[tuple[int, int, str, str]]:
    """A site named by the place of its trade after "the" ("the winery" of Dwarsrivier Wine Estate, "the brewery" of
    Front Range Brewing): a word in -ery whose stem begins a word of exactly one site's name (wine, brew, bake)."""
    found = []
    for i in range(len(tokens.items)):
        raw = key(tokens.items[i][0].removesuffix("'s").removesuffix("’s"))
        if tokens.used[i] or not raw.endswith("ery") or not _after_the(tokens, i):
            continue
        stems = {raw[:-3], raw[:-3] + "e"} - {""}
        fits = [
            site
            for site in catalog.sites
            if any(len(st) >= 4 and key(w).startswith(st) for w in _site_words(site) for st in stems)
        ]
        if len(fits) == 1:
            tokens.take(i, i + 1)
            found.append((i, i + 1, fits[0], "part"))
    return found


#: a name's leading code: letters only, in capitals, before the rest of the name ("FV" of FV-01, "IPS" of IPS-P2)
_LEAD_CODE = re.compile(r"([A-Z]{2,5})(?=[\s_\-./]*[A-Z0-9])")


def _match_group(
    tokens: Tokens, names: list[str], common: set[str], point_words: set[str]
) -> list[tuple[int, int, str, str]]:
    """Assets named together by the code their names begin with, as operators write it: "which FV was warmest" where
    FV-01 … FV-06 are the vessels, "the IPS pumps" for IPS-P1 … IPS-P3, "which bay" for Bay A … Bay C. A word (or its
    plural: "FVs") that is the capital-letter code two names or more begin with, or the word before a letter or number
    that is all of two names or more ("Bay A"), or in the plural the last word of two names or more ("the reservoirs":
    North Reservoir, South Reservoir), and no word of the field's vocabulary or of the reading's ("AHU" is a kind,
    linked as such); every name it begins or ends is linked, each a `group` mention. A word of a point's name
    (`point_words`: "TSS" of a DAF's Effluent TSS) is such a code only where "which", "what", "each", "every", "all"
    or "both" asks for the things it names ("which TSS returned the most", TSS-1 … TSS-3)."""
    groups: dict[str, list[str]] = {}
    worded: dict[str, list[str]] = {}  # "Bay A", "Bay B": the word names them after "which" ("which growing bay")
    headed: dict[str, list[str]] = {}  # the last word of names of several words, in the plural: all of them
    for n in names:
        m = _LEAD_CODE.match(n)
        if m and not n[m.end() :].startswith(" "):  # "FV-01", "IPS-P2": a code; "FZ Hall" is a word and a name
            groups.setdefault(m.group(1).casefold(), []).append(n)
        elif m := re.fullmatch(r"([^\W\d_]{3,}) [A-Z0-9]{1,3}", n):
            worded.setdefault(m.group(1).casefold(), []).append(n)
        if m := re.search(r"\s([^\W\d_]{4,})$", n):  # "North Reservoir", "South Reservoir": "the reservoirs"
            headed.setdefault(m.group(1).casefold(), []).append(n)
    found = []
    for i in range(len(tokens.items)):
        if tokens.used[i]:
            continue
        raw = tokens.words(i, i + 1)[0]
        k = raw.casefold()
        group = groups.get(k) or (groups.get(k[:-1]) if k.endswith("s") else None)
        if (
            not group
            and raw.isalpha()
            and raw.islower()
            and (
                len(
                    coded := [
                        c for c in groups if len(c) >= 3 and c.isalpha() and k.startswith(c) and len(k) >= len(c) + 3
                    ]
                )
                == 1
            )
        ):  # "the penguins' pool" where the penguin exhibit's equipment is PEN-AHU-1, PEN-CH-1 …: its code cut
            group = groups[coded[0]]
        after = tokens.items[i + 1][0] if i + 1 < len(tokens.items) else ""
        if not group and {w.casefold() for w in tokens.words(max(0, i - 2), i)} & {"which", "what"}:
            group = None if re.fullmatch(r"[A-Z0-9]{1,3}", after) else worded.get(k)  # "Kompressor K7": a name
        if not group and k.endswith("s") and not re.fullmatch(r"[A-Z0-9]{1,3}", after):
            group = headed.get(k[:-1]) or (headed.get(k[:-2]) if k.endswith("es") else None)
        lone = (  # "the RTO" where RTO-1 is the one name it begins: written in capitals, standing alone
            group
            and len(group) == 1
            and raw.isupper()
            and raw.isalpha()
            and not re.fullmatch(r"[-\w]*\d[-\w]*", after)
            and groups.get(k) == group
        )
        if not group or (len(group) < 2 and not lone) or key(raw) in common or k in GLUE or field_word(raw):
            continue
        asks_things = {w.casefold() for w in tokens.words(max(0, i - 2), i)} & _ASKS_THINGS
        if key(raw) in point_words and not (asks_things and raw.isupper() and len(group) >= 2):
            continue
        tokens.take(i, i + 1)
        found += [(i, i + 1, n, "group") for n in group]
    return found


#: words that ask for the things a code of their names names ("which TSS", "each TVF")
_ASKS_THINGS = frozenset({"which", "what", "each", "every", "all", "both"})


def _distinctive(name: str, plain: set[str]) -> bool:
    """A point name that may be read with no site or asset named: two words or more, a digit ("pm25"), or one word
    that is no word of the field's vocabulary (a measure, a tag, a unit) nor of the reading ("Puhallinteho" is
    one plant's name; "power" is every site's word)."""
    if words_in(name) >= 2 or re.search(r"\d", name):
        return True
    word = name.casefold()
    return not (
        key(name) in plain
        or fieldvocab.quantities_named(word)
        or fieldvocab.is_tag(word)
        or fieldvocab.quantity_of_unit(word) is not None
    )


def _ambiguous_assets(catalog: Catalog, links: Links, scope: list[str]) -> None:
    """No site is named and the words that named an asset name assets at other sites as well ("the main meter" where
    one site has `main_meter` and another `Sub 4 Main Meter`): none of them is linked, the choice is the operator's
    (`Links.ambiguous`, which the run asks about instead of answering one site's figures for another's)."""
    for mention in [m for m in links.mentions if m.kind == "asset" and m.text and m.how not in ("list", "group")]:
        said = [k for k in (key(w) for w in re.split(r"[\s_\-./]+", mention.text)) if k]
        if not said:
            continue
        others = [
            (site, asset)
            for site in scope
            if site != mention.site
            for asset in catalog.assets(site)
            if _contains([key(w) for w in re.split(r"[\s_\-./]+", asset) if key(w)], said)
        ]
        if not others:
            continue
        options = [(mention.site, mention.name), *others]
        links.ambiguous.append(Ambiguity(text=mention.text, options=[f"{a} at {s}" for s, a in options]))
        links.assets = [a for a in links.assets if a != mention.name]
        links.asset_sites.pop(mention.name, None)
        links.mentions = [m for m in links.mentions if m is not mention]


def _measures_it(catalog: Catalog, site: str, asset: str, sensor: str) -> bool:
    """`asset` has no point named `sensor`, but `sensor` is a word of the field for a measure ("load": a power) that a
    point of the asset measures: the word asks for that point. Where the site's points named `sensor` measure that
    quantity themselves, only in their unit, where it is known (a "Load" in kW elsewhere, a "Power" in kW here; never a
    "Tonnage" in tonref read from a power in kW), or where the asset's point has the word in its name (the "inlet flow"
    is the Inlet Works' "Flow to Treatment" in L/s, whatever unit other assets' "Flow" has); where they measure another
    ("Load" in %), the word is the field's."""
    if catalog.has_sensor(site, asset, sensor):
        return False
    wanted = {q.name for q in fieldvocab.quantities_named(sensor.casefold())}
    named = [p for a in catalog.assets(site) for p in catalog.sensors(site, a) if key(p.short) == key(sensor)]
    alike = [p for p in named if _quantity(p) in wanted]  # the site's points so named measure the same quantity
    units = {(p.unit or "").casefold() for p in alike} - {""}
    said = [key(w) for w in sensor.split()]
    return bool(wanted) and any(
        measures.point_measure(p).quantity in wanted
        and (not alike or (p.unit or "").casefold() in units or _contains([key(w) for w in p.short.split()], said))
        for p in catalog.sensors(site, asset)
    )


def _named_within(catalog: Catalog, on: list[tuple[str, str]], sensor: str) -> str | None:
    """The one point name of the assets `on` whose words hold `sensor`'s words ("Flow to Treatment" for "flow"), the
    same on each of them; None where there is none or several."""
    said = [key(w) for w in sensor.split()]
    found = {
        p.short
        for site, asset in on
        for p in catalog.sensors(site, asset)
        if _contains([key(w) for w in p.short.split()], said) and not measures.point_measure(p).setpoint
    }
    return found.pop() if len(found) == 1 else None


def _quantity(point: SensorName) -> str | None:
    """What a point measures by its unit where it has one (a "Load" in % is a share, whatever its name says)."""
    q = fieldvocab.quantity_of_unit(point.unit)
    return q.name if q is not None else measures.point_measure(point).quantity


def _plain_words(catalog: Catalog) -> set[str]:
    """Words no single name owns in a question: the reading's function words and the catalog's kind words."""
    return {key(w) for w in FUNCTION_WORDS | CUE_WORDS} | {key(w) for w in kind_words(catalog)}


def _name_words(names: Iterable[str]) -> set[str]:
    """The loose keys of the words of `names` (a site's words never name an asset by themselves)."""
    return {key(w) for n in names for w in re.split(r"[\s_\-./]+", n) if key(w)}


def _ends(name: list[str], span: list[str]) -> bool:
    """`span` is two words, `name`'s first and its last, a number or code: the name said without its middle words."""
    return len(span) == 2 and len(name) > 2 and span == [name[0], name[-1]] and bool(re.search(r"\d", span[1]))


def _contains(name: list[str], span: list[str]) -> bool:
    """`span`'s words stand contiguously, in order, in `name`'s words."""
    return any(name[k : k + len(span)] == span for k in range(len(name) - len(span) + 1))


def _list_tail(text: str, end: int, name: str, names: set[str]) -> list[tuple[str, int, bool]]:
    """Names made by swapping the trailing number of `name` for the numbers listed after it, each with
    where its number ends and whether the catalog has it ("Chiller 6, 7 and 9": 7 may be missing)."""
    m = re.search(r"(\d+(?:[-.]\d+)*)$", name)
    if not m:
        return []
    stem = name[: m.start()]
    out: list[tuple[str, int, bool]] = []
    pos = end
    while True:
        tail = LIST_TAIL.match(text, pos)
        if not tail:
            return out
        candidate = f"{stem}{tail['n']}"
        out.append((candidate, tail.end(), candidate in names))
        pos = tail.end()


_SENSOR_LIST = re.compile(
    r"\b([^\W\d_]+)\s+(?:and|&|or|vs\.?|versus)\s+([^\W\d_]+)\s+((?:[^\W\d_]+\s+)?(?:temperatures?|"
    r"temps?|pressures?|flows?|speeds?|set\s*points?|status(?:es)?|power|humidit(?:y|ies)|"
    r"positions?|levels?|loads?))\b",
    re.I,
)


def _said_after(question: str, links: Links, sensor: str) -> str | None:
    """The one named asset whose name the question writes the sensor's words right after ("the product water meter
    flow", "Pump 2's speed") where that asset has it: the sensor is said of that asset alone; None otherwise."""
    texts = [m.text for m in links.mentions if m.kind == "sensor" and m.name == sensor and m.text] or [sensor]
    owners = {
        m.name
        for m in links.mentions
        if m.kind == "asset"
        and m.text
        and any(re.search(rf"{re.escape(m.text)}(?:['’]s)?\s+{re.escape(t)}\b", question, re.I) for t in texts)
    }
    return next(iter(owners)) if len(owners) == 1 else None


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
    tokens = Tokens(question)
    for a, b in exclude:
        for n, (_, s, e) in enumerate(tokens.items):
            if s < b and e > a:
                tokens.used[n] = True
    links = Links()

    # sites
    site_index = name_index(catalog.sites)
    site_matches = _match_exact(tokens, site_index, 4) + _match_near(tokens, site_index, 2)
    plain = _plain_words(catalog)
    site_matches += _match_word(tokens, list(catalog.sites), plain, first_only=True)
    site_matches += _match_site_type(tokens, catalog)
    site_matches += _match_place_word(tokens, list(catalog.sites), plain)
    site_matches += _match_city(tokens, catalog)
    for i, j, name, how in site_matches:
        links.sites.append(name)
        links.mentions.append(Mention(text=tokens.raw(i, j), name=name, kind="site", how=how))
    links.sites = list(dict.fromkeys(links.sites))
    scope = links.sites or (catalog.sites if len(catalog.sites) <= 12 else [])

    # assets of the sites in scope
    owners: dict[str, list[str]] = {}
    for site in scope:
        for asset in catalog.assets(site):
            owners.setdefault(asset, []).append(site)
    asset_index = name_index(owners)
    longest = min(MAX_SPAN, max((words_in(a) for a in owners), default=1) + 1)
    matches = _match_exact(tokens, asset_index, longest)
    matches += _match_near(tokens, asset_index, longest, skip=frozenset(kind_words(catalog)))
    points = [x.short for site in scope for a in catalog.assets(site) for x in catalog.sensors(site, a)]
    matches += _match_part(tokens, list(owners), frozenset(key(x) for x in points))
    sensor_words = _name_words(points)
    matches += _match_word(tokens, list(owners), plain | _name_words(catalog.sites) | sensor_words)
    matches += _match_group(tokens, list(owners), plain | _name_words(catalog.sites), sensor_words)
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
                    Missing(text=extra, kind="asset", site=site, suggestions=alike(extra, catalog.assets(site)))
                )
        for asset, kind_how, text in found:
            if asset in links.assets:
                continue
            site = next((s for s in owners[asset] if s in links.sites), owners[asset][0])
            links.assets.append(asset)
            links.asset_sites[asset] = site
            links.mentions.append(Mention(text=text, name=asset, kind="asset", site=site, how=kind_how))
    if not links.sites and len(scope) > 1:
        _ambiguous_assets(catalog, links, scope)
    if not links.sites:
        linked_sites = list(dict.fromkeys(links.asset_sites.values()))
        if len(linked_sites) == 1 or len(catalog.sites) == 1:
            links.sites = linked_sites or list(catalog.sites)
            if not linked_sites:
                links.mentions.append(Mention(text="", name=links.sites[0], kind="site", how="only"))

    # sensors: of the linked assets, else of every asset at the linked sites
    in_play = links.sites or scope  # no site named: every site's sensors of two words or more ("glycol supply temp")
    where = [(links.asset_sites[a], a) for a in links.assets] or [(s, a) for s in in_play for a in catalog.assets(s)]
    shorts: dict[str, None] = {}
    for site, asset in where:
        for point in catalog.sensors(site, asset):
            shorts.setdefault(point.short, None)
    site_shorts: dict[str, None] = dict(shorts)
    for site in in_play:
        for asset in catalog.assets(site):
            for point in catalog.sensors(site, asset):
                site_shorts.setdefault(point.short, None)
    if not links.sites and not links.assets:  # "power" alone is every site's: a kind's word ("power meters")
        shorts = {n: None for n in shorts if _distinctive(n, plain)}
        site_shorts = {n: None for n in site_shorts if _distinctive(n, plain)}
    sensor_index = name_index(site_shorts)
    longest = min(MAX_SPAN, max((words_in(s) for s in site_shorts), default=1))
    sensor_matches = _match_exact(tokens, sensor_index, longest) + _match_near(tokens, sensor_index, longest)
    sensor_matches += _match_inverted(tokens, sensor_index, longest)
    # the words of the named assets' names and of kinds qualify no sensor ("the topcoat oven zone 2")
    own_words = frozenset(_short(w) for w in _name_words(links.assets) | kind_words(catalog))
    sensor_matches += _match_sensor_part(tokens, list(shorts), own_words)
    sensor_matches += _match_initials(tokens, list(site_shorts))
    if links.assets:  # a named asset's point by its tags ("oxygen in kar 2": Oksygen, tagged `oxygen`)
        own_points = [p for a in links.assets for p in catalog.sensors(links.asset_sites[a], a)]
        sensor_matches += _match_tags(tokens, own_points, _placed_words(catalog), asks_amount(question))
        sensor_matches += _match_name_word(tokens, own_points, plain | own_words)
    sensor_matches += _shared_head(tokens, sensor_matches, sensor_index)
    for i, j, name, how in sorted(sensor_matches):
        if name not in links.sensors:
            links.sensors.append(name)
            links.mentions.append(Mention(text=tokens.raw(i, j), name=name, kind="sensor", how=how))
    for sensor in list(links.sensors):  # "energy" of assets that measure power is computed from it, not missing
        if (
            links.assets
            and ENERGY_WORDS.search(sensor)
            and all(
                not catalog.has_sensor(links.asset_sites[a], a, sensor) and has_power(catalog, links.asset_sites[a], a)
                for a in links.assets
            )
        ):
            links.sensors.remove(sensor)
            links.mentions = [m for m in links.mentions if not (m.kind == "sensor" and m.name == sensor)]
            for i, j, name, _ in sensor_matches:  # its words ask for the energy: read as the measure below
                if name == sensor:
                    tokens.used[i:j] = [False] * (j - i)
    if links.sensors and not links.assets and len(in_play) >= 1:  # "the wind speed at Kestrel": one asset has it
        holding = [
            (site, a)
            for site in in_play
            for a in catalog.assets(site)
            if all(catalog.has_sensor(site, a, n) for n in links.sensors)
        ]
        site = holding[0][0] if holding else in_play[0]
        holders = [a for _, a in holding]
        kinds = kind_words(catalog)
        kind_named = any(  # "which lighting controller drew the most energy": a kind's assets, not one asset
            key(t) in kinds or key(t).rstrip("s") in kinds or fieldvocab.kinds_named(t.casefold())
            for n, (t, _, _) in enumerate(tokens.items)
            if not tokens.used[n]
        )
        if len(holders) == 1 and not kind_named:
            links.assets.append(holders[0])
            links.asset_sites[holders[0]] = site
            links.mentions.append(Mention(text="", name=holders[0], kind="asset", site=site, how="only"))
            if not links.sites:  # the site is the one asset's
                links.sites = [site]
                links.mentions.append(Mention(text="", name=site, kind="site", how="only"))
    for sensor in list(links.sensors):  # "the incomer load": another asset's point name, a measure the named has
        if links.assets and all(_measures_it(catalog, links.asset_sites[a], a, sensor) for a in links.assets):
            for i, j, name, _ in sensor_matches:  # its words are the measure's, read as such below
                if name == sensor:
                    tokens.used[i:j] = [False] * (j - i)
            links.sensors.remove(sensor)
            links.mentions = [m for m in links.mentions if not (m.kind == "sensor" and m.name == sensor)]
            own = _named_within(catalog, [(links.asset_sites[a], a) for a in links.assets], sensor)
            if own and own not in links.sensors:  # "inlet flow": the Inlet Works' one "Flow to Treatment"
                links.sensors.append(own)
                links.mentions.append(Mention(text=sensor, name=own, kind="sensor", how="within"))
    for sensor in links.sensors:
        # the operator's words where they named another asset's point loosely ("pressure" for GASHOLDER_01's PRESS)
        said = next(
            (m.text for m in links.mentions if m.kind == "sensor" and m.name == sensor and m.how == "loose"), ""
        )
        said = said if key(said) != key(sensor) else ""  # "tonnage" is Tonnage: the name
        owner = _said_after(question, links, sensor) if len(links.assets) >= 2 else None
        grouped = {m.name for m in links.mentions if m.kind == "asset" and m.how == "group"}
        having = [a for a in links.assets if catalog.has_sensor(links.asset_sites[a], a, sensor)]
        for asset in links.assets:
            site = links.asset_sites[asset]
            if owner is not None and asset != owner:
                continue  # "the HV meter kW over the product water meter flow": Flow is the water meter's alone
            if asset in grouped and having:
                continue  # "the penguins' pool water": PEN-CH-1's, never a lack of the family's other members
            if not catalog.has_sensor(site, asset, sensor):
                links.missing.append(sensor_lacking(catalog, site, asset, said or sensor))

    missing_assets(tokens, catalog, links, scope, owners)
    asset_kinds(tokens, catalog, links)
    _group_of_a_kind(catalog, links)
    kind_sites = links.sites or [  # "which dryer burnt the most gas": the sites that have the kind
        s for s in catalog.sites if any(catalog.site(s).assets_of_type(m) for m in links.asset_types)
    ]
    if links.asset_types and kind_sites and not links.assets and not links.sensors:
        # "which of the two tunnel ovens burned more gas": the kind's point named by one word of its name (Burner Gas
        # Flow), as a named asset's is
        kind_points = [
            p
            for site in kind_sites
            for marker in links.asset_types
            for a in catalog.site(site).assets_of_type(marker)
            for p in catalog.sensors(site, a)
        ]
        if any(USAGE_VERB.fullmatch(w.casefold()) for w in re.findall(r"[^\W\d_]+", question)):
            # "used the most water": what is used up is a flow's amount (Water Flow), never a temperature of it
            kind_points = [p for p in kind_points if _an_amounts_rate(p)] or kind_points
        # never a word of the kind's phrase or one just before it, wherever it is said again ("the three air
        # compressors … per unit of air delivered": Specific Power; "what flow was the filter pump doing": Flow)
        kind_said = [m.text for m in links.mentions if m.kind == "asset" and m.name in links.asset_types and m.text]
        kind_words_said = {_short(key(w)) for text in kind_said for w in _with_word_before(question, text) if key(w)}
        tagged = {  # a tag and the words of a camel-case one (Haystack `naturalGas`: "gas")
            p.short: {key(w) for t in p.tags for w in [t, *re.findall(r"[A-Z]?[a-z]+", t)]} for p in kind_points
        }
        # (the reading's cue words may name a point here: its tag says so — "what speed is the press running at":
        # Web Speed, tagged `speed`)
        # what a verb of using up takes is what the kind uses ("burnt the most gas"), even where another site's kind
        # has that word for its marker
        used = _used_words(question)
        loose = {key(w) for w in FUNCTION_WORDS} | (own_words - used) | kind_words_said
        for i, j, name, how in _match_name_word(tokens, kind_points, loose):
            if key(tokens.raw(i, j)) not in tagged.get(name, set()):  # only what its point is tagged with ("gas" of
                tokens.used[i:j] = [False] * (j - i)  # Burner Gas Flow, `naturalGas`), never any word of its name
                continue  # ("drum" of Drum Motor Power, asked in tonnes an hour)
            if name not in links.sensors:
                links.sensors.append(name)
                links.mentions.append(Mention(text=tokens.raw(i, j), name=name, kind="sensor", how=how))
    energy_from_power(catalog, links)
    missing_sensors(tokens, catalog, links)
    asked_measures(tokens, catalog, links)
    missing_sites(tokens, catalog, links)
    if any(m.kind == "site" for m in links.missing):  # a site named that does not exist: no other site stands in
        guessed = {m.name for m in links.mentions if m.kind == "site" and m.how == "only"}
        named = {m.name for m in links.mentions if m.kind == "site" and m.text}
        links.mentions = [m for m in links.mentions if not (m.kind == "site" and m.how == "only")]
        links.sites = [s for s in links.sites if s not in guessed and s in named]
        elsewhere = [a for a in links.assets if links.asset_sites[a] not in named]  # "the pump at Alpine Meadows"
        links.assets = [a for a in links.assets if a not in elsewhere]
        links.mentions = [m for m in links.mentions if not (m.kind == "asset" and m.name in elsewhere)]
    return links
