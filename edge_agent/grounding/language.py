"""Which language a question's unplaced words are in, where it is not English (`py3langid`, offline: its model ships
in the wheel and is loaded once, on first use).

The reading places English words; a plant's own names in another language (Italian point names, Finnish assets) are
placed by the linking. What is left unplaced is what the gateway could not read. Where that is three words or more,
and they read as another language with confidence while English is unlikely, the question is in that language: the
run says so plainly ("The question reads as Spanish; this gateway reads questions in English") instead of naming the
words one by one, and makes no model call.
"""

from __future__ import annotations

import threading
from typing import Any

#: the languages named in words (ISO 639-1); another code is said as it is
NAMES = {
    "es": "Spanish",
    "de": "German",
    "fr": "French",
    "it": "Italian",
    "pt": "Portuguese",
    "nl": "Dutch",
    "sv": "Swedish",
    "da": "Danish",
    "no": "Norwegian",
    "nb": "Norwegian",
    "fi": "Finnish",
    "pl": "Polish",
    "cs": "Czech",
    "tr": "Turkish",
    "ru": "Russian",
    "uk": "Ukrainian",
    "zh": "Chinese",
    "ja": "Japanese",
    "ko": "Korean",
    "ar": "Arabic",
    "hi": "Hindi",
    "id": "Indonesian",
    "ms": "Malay",
    "vi": "Vietnamese",
    "th": "Thai",
    "ro": "Romanian",
    "hu": "Hungarian",
    "el": "Greek",
    "he": "Hebrew",
}
MIN_WORDS = 3  # fewer unplaced words say too little of a language
MIN_CONFIDENCE = 0.5  # the other language's probability
MAX_ENGLISH = 0.1  # English's probability

_LOCK = threading.Lock()
_IDENTIFIER: Any = None


def _identifier() -> Any:
    global _IDENTIFIER
    if _IDENTIFIER is None:
        with _LOCK:
            if _IDENTIFIER is None:
                from py3langid.langid import MODEL_FILE, LanguageIdentifier

                _IDENTIFIER = LanguageIdentifier.from_model_file(MODEL_FILE, norm_probs=True)
    return _IDENTIFIER


def foreign_language(unplaced: list[str], question: str = "") -> str | None:
    """The language (its English name) the unplaced words are in, where it is confidently not English and the whole
    question does not read as English ("what's the level in the flour silo": 'uh level flour silo' alone reads as
    Breton); else None."""
    if len(unplaced) < MIN_WORDS:
        return None
    if question and _identifier().classify(question)[0] == "en":
        return None
    ranked = dict(_identifier().rank(" ".join(unplaced)))
    top = max(ranked, key=lambda k: ranked[k])
    if top == "en" or ranked[top] < MIN_CONFIDENCE or ranked.get("en", 0.0) > MAX_ENGLISH:
        return None
    return str(NAMES.get(top, top))


def sentence(language: str) -> str:
    return f"The question reads as {language}; this gateway reads questions in English. Please ask it in English."
