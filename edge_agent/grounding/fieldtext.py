"""Text helpers of the field's vocabulary, shared by `grounding.fieldvocab` and `scripts/generate_vocabulary.py`:
a marker's words (`marker_words`), a noun phrase's plural and singular, a phrase normalized to lower-case words, and
the keys a phrase or a kind's name is matched by (`match_keys`, `name_keys`). Pure string functions; nothing is read.
"""

from __future__ import annotations

import re
import unicodedata

_CAMEL = re.compile(r"[A-Z]+(?=[A-Z][a-z])|[A-Z]?[a-z]+|[A-Z]+|[0-9]+")


def marker_words(marker: str) -> tuple[str, ...]:
    """A marker or class name split into lower-case words: `evCharger` → ("ev", "charger"), `Supply_Air_Temp`,
    `cold-room`, `AHU_2` → ("ahu", "2")."""
    words: list[str] = []
    for part in re.split(r"[\s_\-./]+", marker.strip()):
        words.extend(w.lower() for w in _CAMEL.findall(part))
    return tuple(words)


_IRREGULAR = {
    "person": "people",
    "child": "children",
    "man": "men",
    "foot": "feet",
    "chassis": "chassis",
    "equipment": "equipment",
    "series": "series",
    "staff": "staff",
    "lighting": "lighting",
    "shading": "shading",
}
_IRREGULAR_BACK = {v: k for k, v in _IRREGULAR.items()}


def _plural_word(w: str) -> str:
    if w in _IRREGULAR:
        return _IRREGULAR[w]
    if not w or w[-1].isdigit():
        return w
    if w.isupper():  # an abbreviation: AHU → AHUs
        return w + "s"
    if re.search(r"[^aeiou]y$", w):
        return w[:-1] + "ies"
    if re.search(r"(s|x|z|ch|sh)$", w):
        return w + "es"
    return w + "s"


def plural(phrase: str) -> str:
    """English plural of a noun phrase (its last word): "heat pump" → "heat pumps", "battery" → "batteries",
    "switch" → "switches", "AHU" → "AHUs"."""
    head, _, last = phrase.rpartition(" ")
    return (head + " " if head else "") + _plural_word(last)


def _singular_word(w: str) -> str:
    if w in _IRREGULAR_BACK:
        return _IRREGULAR_BACK[w]
    if len(w) <= 3 or w.endswith(("ss", "us", "is")):
        return w
    if w.endswith("ies"):
        return w[:-3] + "y"
    if re.search(r"(sses|xes|zes|ches|shes)$", w):  # glasses, boxes, switches
        return w[:-2]
    if w.endswith("s"):
        return w[:-1]
    return w


def singular(phrase: str) -> str:
    """The singular of a noun phrase (its last word); words that are not plurals are kept."""
    head, _, last = phrase.rpartition(" ")
    return (head + " " if head else "") + _singular_word(last)


def normalize(text: str) -> str:
    """Lower-case words of a phrase joined by one space: accents folded, camelCase and punctuation split."""
    text = unicodedata.normalize("NFKD", text)
    text = "".join(c for c in text if not unicodedata.combining(c))
    out: list[str] = []
    for tok in re.split(r"[^A-Za-z0-9]+", text):
        if tok.isupper():  # AHU, UPS: one word
            out.append(tok.lower())
        elif re.fullmatch(r"[A-Z]{2,}s", tok):  # AHUs, UPSs, CRACs: the abbreviation, singular
            out.append(tok[:-1].lower())
        elif tok:
            out.extend(marker_words(tok))
    return " ".join(out)


def match_keys(phrase: str) -> set[str]:
    """Match keys of a phrase: its normalized words, singular, and both without spaces ("roof top" = "rooftop")."""
    n = normalize(phrase)
    if not n:
        return set()
    s = singular(n)
    return {n, s, n.replace(" ", ""), s.replace(" ", "")}


def name_keys(name: str) -> set[str]:
    """Match keys of a kind's name, singular and plural."""
    return match_keys(name) | match_keys(plural(normalize(name)))
