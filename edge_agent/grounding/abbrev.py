"""Names a log or a radio call shortens: a name said by its first letter(s) and its number ("U1" of Unit 1, "P2" of
Pasteuriser 2), and a name of several words with a word cut short ("upper res" of Upper Reservoir).

Each shortening is read only where exactly one of the SkySpark's asset names fits it and the shortened word is no
word of any name on the SkySpark (a point "QT02", a site "RN" stay what they are). What was read is said in the
Read-as line like every respelling."""

from __future__ import annotations

import re
from collections.abc import Iterable

from edge_agent.grounding import fieldvocab
from edge_agent.grounding.catalog import Catalog
from edge_agent.grounding.forms import FUNCTION_WORDS
from edge_agent.grounding.numbers import NUMBER, value

#: a code of one to three letters glued to a number ("U1", "P2", "TG-3")
_CODE = re.compile(r"(?<![\w/-])([A-Za-z]{1,3})-?(\d{1,2})(?![\w/-])")
#: a name of words then a number ("Unit 1", "Pasteuriser 02")
_NUMBERED = re.compile(r"([^\W\d_]+(?:\s+[^\W\d_]+)*)[\s_\-.#]*(\d+)")


def _words(name: str) -> list[str]:
    return re.findall(r"[^\W\d_]+", name)


def short_codes(question: str, assets: Iterable[str], names: Iterable[str]) -> dict[str, str]:
    """ "U1" → "Unit 1", "ch2" → "Chiller 2": a code of letters and a number that is the initials (or the first
    letters of the one word) of exactly one asset name with that number; never a code that is itself a word of a name
    (`names`)."""
    assets = list(assets)
    taken = {w.casefold() for n in names for w in re.findall(r"[^\W_]+", n)}
    out: dict[str, str] = {}
    for m in _CODE.finditer(question):
        letters, number = m.group(1), int(m.group(2))
        if m.group(0).replace("-", "").casefold() in taken or letters.casefold() in taken:
            continue
        fits = []
        for name in assets:
            n = _NUMBERED.fullmatch(name)
            if n is None or int(n.group(2)) != number:
                continue
            words = _words(n.group(1))
            if any(len(w) > len(letters) and w.isupper() for w in words):
                continue  # "PHAHU-2" is shortened to nothing shorter: a code already
            initials = len(words) == len(letters) and all(
                w.casefold().startswith(c.casefold()) for w, c in zip(words, letters)
            )
            # "ch2" for Chiller 2: the first letters of a name of one word
            prefix = len(words) == 1 and len(letters) >= 2 and words[0].casefold().startswith(letters.casefold())
            if initials or prefix:
                fits.append(name)
        if len(fits) == 1:
            out[m.group(0)] = fits[0]
    return out


def _cut(said: str, word: str) -> bool:
    """`said` is `word` cut short as engineers write it: its first three letters or more ("res", "vib"), or three
    letters or more of it in order from its first ("brg" of bearing, "pmp" of pump)."""
    if len(said) < 3 or said == word or said[0] != word[0]:
        return False
    return word.startswith(said) or in_order(said, word)


def in_order(letters: str, word: str) -> bool:
    """Every letter of `letters` stands in `word`, in that order ("brg" of bearing, "chgr" of charger)."""
    at = 0
    for c in letters:
        at = word.find(c, at) + 1
        if at == 0:
            return False
    return True


def cut_words(question: str, assets: Iterable[str], names: Iterable[str]) -> dict[str, str]:
    """ "upper res" → "Upper Reservoir", "guide brg vib" → "Guide Bearing Vibration": the words of one name of two
    words or more (an asset's, or a point's: `names`), in order, each whole or cut short (`_cut`), one of them cut
    short and one whole."""
    names = list(names)
    taken = {w.casefold() for n in names for w in re.findall(r"[^\W_]+", n)}
    assets = list(dict.fromkeys([*assets, *(n for n in names if " " in n)]))
    tokens = list(re.finditer(r"[^\W\d_]+", question))
    fits: dict[tuple[int, int], set[str]] = {}
    for name in assets:
        numbered = re.fullmatch(r"(?P<words>[^\d]*?)[\s_\-.#]*(?P<n>\d+)", name)  # "Shore Charger 1": "shore chgr 1"
        words = [w.casefold() for w in _words(numbered.group("words") if numbered else name)]
        if len(words) < (1 if numbered else 2) or (not numbered and re.search(r"\d", name)):
            continue
        for i in range(len(tokens) - len(words) + 1):
            said = [t.group(0).casefold() for t in tokens[i : i + len(words)]]
            whole = [s == w for s, w in zip(said, words)]
            cut = [_cut(s, w) and s not in taken and s not in FUNCTION_WORDS for s, w in zip(said, words)]
            # the number said after the words stands for a whole word
            if all(a or b for a, b in zip(whole, cut)) and (any(whole) or numbered) and any(cut):
                span = (tokens[i].start(), tokens[i + len(words) - 1].end())
                if numbered:
                    after = re.match(r"[\s_\-.#]*0*(\d+)\b", question[span[1] :])
                    if after is None or int(after.group(1)) != int(numbered.group("n")):
                        continue
                    span = (span[0], span[1] + after.end())
                if re.fullmatch(r"[^\W\d_]+(?:\s+[^\W\d_]+)*(?:[\s_\-.#]*\d+)?", question[span[0] : span[1]]):
                    fits.setdefault(span, set()).add(name)
    return {question[a:b]: next(iter(n)) for (a, b), n in fits.items() if len(n) == 1}


def numbered_ranges(question: str, assets: Iterable[str]) -> dict[str, str]:
    """ "Silo 1-3" → "Silo 1, Silo 2 and Silo 3": a name's word and a range of its numbers, where every name of the
    range is an asset's."""
    numbered: dict[str, dict[int, str]] = {}
    for name in assets:
        n = _NUMBERED.fullmatch(name)
        if n is not None:
            numbered.setdefault(n.group(1).casefold(), {})[int(n.group(2))] = name
    out: dict[str, str] = {}
    for stem, members in numbered.items():
        pattern = rf"\b{re.escape(stem)}[\s_\-.#]*(\d{{1,2}})\s*(?:-|–|to|through|thru)\s*(\d{{1,2}})\b(?![.:/]\d)"
        for m in re.finditer(pattern, question, re.I):
            first, last = int(m.group(1)), int(m.group(2))
            if first < last <= first + 20 and all(k in members for k in range(first, last + 1)):
                names = [members[k] for k in range(first, last + 1)]
                out[m.group(0)] = f"{', '.join(names[:-1])} and {names[-1]}"
    return out


def slashed_siblings(question: str, assets: Iterable[str]) -> dict[str, str]:
    """ "P-101A/B" → "P-101A and P-101B", "AER-3/4/5" → "AER-3, AER-4 and AER-5": a name, then after each slash
    another last letter or number, where every name so made is an asset's (a planner's shorthand for a duty pair)."""
    names = {re.sub(r"[\s_\-.]", "", a).casefold(): a for a in assets}
    out: dict[str, str] = {}
    tail = r"(?:[^\W\d_]|\d+)"
    for m in re.finditer(rf"\b([^\W_][\w\-.]*?\s?)({tail})((?:\s*/\s*{tail})+)\b(?![/\-.]\w)", question):
        head, ends = re.sub(r"[\s_\-.]", "", m.group(1)), [m.group(2), *re.split(r"\s*/\s*", m.group(3))[1:]]
        if not re.search(r"[^\W\d_]", head) or any(e.isdigit() != m.group(2).isdigit() for e in ends):
            continue
        found = [names.get(f"{head}{e}".casefold()) for e in ends]
        if all(found) and len(set(found)) == len(found):
            listed = [f for f in found if f]
            out[m.group(0)] = f"{', '.join(listed[:-1])} and {listed[-1]}"
    return out


def kind_numbers(question: str, catalog: Catalog) -> dict[str, str]:
    """ "fermenter number seven" → "FV-07": a word of a kind of equipment the field names and a number (in digits or
    words), where exactly one asset of that kind has that number and the word stands before a number in no name (a
    name's own word is linked as written: "Chiller 2")."""
    names = [a for site in catalog.sites for a in catalog.assets(site)]
    own = {w.casefold() for n in names for w in re.findall(r"([^\W\d_]+)[\s_\-.#]*\d", n)}
    out: dict[str, str] = {}
    pattern = rf"\b([^\W\d_]+)\s+(?:(?:number|no\.?|num|#)\s*)?(\d{{1,3}}|{NUMBER})\b(?![.:/]\d)"
    for m in re.finditer(pattern, question, re.I):
        word = m.group(1)
        if word.casefold() in own and re.search(r"\s(?:number|no\.?|num|#)", m.group(0), re.I):
            # "press number 4": a name's own word and its number with "number" between (Curing Press 4)
            number = int(m.group(2)) if m.group(2).isdigit() else value(m.group(2))
            named = {n for n in names if re.search(rf"\b{re.escape(word)}[\s_\-.#]*0*{number}$", n, re.I)}
            if len(named) == 1:
                out[m.group(0)] = next(iter(named))
            continue
        if word.casefold() in own or word.casefold() in FUNCTION_WORDS:
            continue
        said = fieldvocab.singular(word.casefold())
        kinds = set(fieldvocab.kinds_named(word.casefold())) | {  # the field's word, or a marker of the SkySpark's
            k for site in catalog.sites for k in catalog.types(site) if k.casefold() == said
        }
        if not kinds:
            continue
        number = int(m.group(2)) if m.group(2).isdigit() else value(m.group(2))
        fits = [
            a
            for site in catalog.sites
            for k in kinds
            for a in catalog.site(site).assets_of_type(k)
            if (n := _NUMBERED.fullmatch(a)) is not None and int(n.group(2)) == number
        ]
        if len(set(fits)) == 1:
            out[m.group(0)] = fits[0]
    return out
