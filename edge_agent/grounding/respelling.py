"""A question's misspelt words read as the words the catalog and the field use ("clarifers" → clarifiers,
"temprature" → temperature, "suply" → supply).

Only words nothing else could place are respelt (a first reading leaves them unplaced), each only where exactly one
word of the vocabulary is one slip away (a letter left out, two neighbouring letters swapped) — the words of the
SkySpark's site, asset and point names and kinds, the field's measure words and the forms table's words — or that is
the other spelling of English of one of them ("pasteuriser" where the kind is `pasteurizer`). A word that is another
word's plural is never a typo of it, nor is a word with a letter changed (often another real word).
"""

from __future__ import annotations

import re

from edge_agent.grounding import fieldvocab
from edge_agent.grounding.abbrev import in_order
from edge_agent.grounding.catalog import Catalog
from edge_agent.grounding.forms import CUE_WORDS, FUNCTION_WORDS
from edge_agent.grounding.lacking import kind_words

#: the shortest word respelt: shorter words are too often another word a letter away
MIN_LETTERS = 5


def vocabulary(catalog: Catalog) -> frozenset[str]:
    """The words a question may misspell, case-folded: the catalog's names, point tags and kinds, the field's measure
    words and the forms table's words."""
    names = [*catalog.sites]
    for site in catalog.sites:
        for asset in catalog.assets(site):
            names.append(asset)
            for p in catalog.sensors(site, asset):
                names.append(p.short)
                names.extend(" ".join(fieldvocab.marker_words(t)) for t in p.tags)  # "vibration", "oxygen"
    words = {w.casefold() for n in names for w in re.findall(r"[^\W\d_]+", n)}
    words |= kind_words(catalog) | set(fieldvocab.measure_vocabulary()) | CUE_WORDS | fieldvocab.spelling_words()
    return frozenset(w for w in words if len(w) >= MIN_LETTERS and w.isalpha())


def respelt(question: str, unplaced: list[str], catalog: Catalog) -> dict[str, str]:
    """Each unplaced word of the question (as written) → the one vocabulary word it misspells."""
    every = vocabulary(catalog)
    field = frozenset(
        w
        for w in kind_words(catalog) | set(fieldvocab.measure_vocabulary()) | CUE_WORDS | fieldvocab.spelling_words()
        if w in every
    )
    out: dict[str, str] = {}
    for written in dict.fromkeys(re.findall(r"[^\W\d_]+", question)):
        low = written.casefold()
        if low in unplaced and low not in FUNCTION_WORDS and (short := _skeleton_of(low, every - field)):
            out[written] = short.capitalize() if written.istitle() else short  # "chgr": charger
            continue
        if low not in unplaced or len(low) < MIN_LETTERS or low in FUNCTION_WORDS or low in field:
            continue
        # a word of a name elsewhere that nothing placed here ("compresor", a Spanish name at another site, for the
        # arena's compressors) is respelt only into a word of the field
        vocab = field if low in every else every
        spelt = [v for v in _spellings(low) if v in vocab]  # "pasteuriser": the catalog's "pasteurizer"
        near = spelt or [w for w in vocab if _slip(low, w) and not _plural_pair(low, w)]
        if len(near) > 1:  # "clarifers": clarifier and clarifiers are both a letter away; the one ending alike
            near = [w for w in near if w[-1] == low[-1]] or near
        if len(near) == 1:
            out[written] = near[0].capitalize() if written.istitle() else near[0]
    return out


#: British and American spellings of one word ("pasteuriser"/"pasteurizer", "centre"/"center", "colour"/"color")
_SPELLINGS = (("isation", "ization"), ("iser", "izer"), ("ise", "ize"), ("yse", "yze"), ("our", "or"), ("tre", "ter"))


def _spellings(word: str) -> set[str]:
    """The word in the other spelling of English, each ending or syllable swapped both ways."""
    out = set()
    for a, b in _SPELLINGS:
        for x, y in ((a, b), (b, a)):
            if x in word:
                out.add(word.replace(x, y))
    return out - {word}


def _skeleton_of(written: str, vocab: frozenset[str]) -> str | None:
    """The one vocabulary word that `written` abbreviates by leaving vowels out, as maintenance systems write names
    ("chgr" charger, "cmpr" compressor, "xfmr" is none): three letters or more and no vowel, its first and
    last letters the word's, the rest in order; the shortest such word, None where none or several are."""
    if len(written) < 3 or any(c in "aeiou" for c in written):
        return None
    fits = [
        w
        for w in vocab
        if w[0] == written[0] and w[-1] == written[-1] and len(w) > len(written) + 1 and in_order(written, w)
    ]
    shortest = [w for w in fits if len(w) == min(map(len, fits))]  # "charger", not "carcharger"
    return shortest[0] if len(shortest) == 1 else None


def _slip(written: str, word: str) -> bool:
    """`written` is `word` with one letter left out or two neighbouring letters swapped ("suply", "consmued"): the
    slips of typing. A changed letter is often another real word ("heater" → heated, "match" → march) and is left."""
    if len(word) == len(written) + 1:
        return any(word[:i] + word[i + 1 :] == written for i in range(len(word)))
    if len(word) == len(written):
        diff = [i for i in range(len(word)) if word[i] != written[i]]
        return (
            len(diff) == 2
            and diff[1] == diff[0] + 1
            and word[diff[0]] == written[diff[1]]
            and word[diff[1]] == written[diff[0]]
        )
    return False


def _plural_pair(a: str, b: str) -> bool:
    """One word is the other with a plural ending ("flows" and "flow")."""
    short, long = sorted((a, b), key=len)
    return long in (short + "s", short + "es")


def apply(question: str, fixes: dict[str, str]) -> str:
    """The question with each misspelt word replaced by its vocabulary word."""
    for written, word in fixes.items():
        question = re.sub(rf"(?<![\w-]){re.escape(written)}(?![\w-])", word, question, flags=re.I)
    return question
