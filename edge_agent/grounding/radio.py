"""A radio call, as a handheld's transcript writes it ("Control, rectifier yard. Say again the amps on rectifier
niner, over.").

Radiotelephony has its own published procedure (ICAO Annex 10, and the plant radio practice that follows it): a call
opens with the station called and the caller ("Control, this is the reel store."), closes with a procedure word
("over", "out"), acknowledges with others ("roger", "copy", "wilco", "affirm", "negative"), asks with "say again",
"read me", "request", and speaks digits in their radio forms ("wun", "too", "tree", "fower", "fife", "ait", "niner";
"figures" announces a number). `radio_call` recognises a call (it is addressed to a station and opens so, or it
closes with "over"/"out") and rewrites it as the question it asks: the opening is set aside (the caller is who
asks, never what is asked about: "this is the reel store. What speed is the press running at"), the procedure words
are blanked, an asking word becomes "what is", a radio digit its figure. The length of the question is kept, so every
span into it still points where it did.
"""

from __future__ import annotations

import re

#: the stations a plant's radio calls (the control room, a base, a dispatcher) at the opening of a call
_STATIONS = r"control|control\s+room|base|ops|operations|dispatch|despatch|tower|gatehouse|all\s+stations"
#: a call's opening: the station called, and who calls ("Control, engine room, roger." "Control, this is the reel
#: store." "Control, FTP.") up to the end of its first sentence
_OPENING = re.compile(
    rf"^\W*(?P<called>{_STATIONS})\s*,\s*(?P<caller>(?:this\s+is\s+)?[^.?!]{{1,60}}?)\s*[.!]\s+(?=\S)", re.I
)
#: a call's closing ("…, over." "… over and out")
_CLOSING = re.compile(r"[\s,;—–-]+(?:over(?:\s+and\s+out)?|out)\W*$", re.I)
#: acknowledgements and answers of the procedure, as words of their own
_PROCEDURE = re.compile(
    r"(?<![\w-])(?:roger(?:\s+that)?|copy(?:\s+that)?|wilco|affirm(?:ative)?|negative|how\s+copy|stand\s*by|break)"
    r"(?![\w-])\s*[,.;!]?",
    re.I,
)
#: a sentence that only acknowledges or answers ("Copy the alarm." "Negative on the drive panel, I can't read it.")
_ACK_SENTENCE = re.compile(
    r"(?:^|(?<=[.!?]\s))\s*(?:copy|roger|copied|noted|negative|affirm(?:ative)?)\b[^.?!]*[.!]", re.I
)
#: the procedure's asking words: "say again" and "read me" ask what a value is (the length of "what is" or padded to
#: it); "request" asks for what its noun phrase names ("request a file of …": a file of …)
_ASKING = re.compile(r"\b(?P<w>say\s+again|read\s+me|request)\b(?=\s+(?:the|a|an|your|my|on)\b)", re.I)
#: the radio forms of the digits (those that are no English word of the trade; "too" and "tree" only after a name)
_DIGITS = {"wun": "1", "too": "2", "tree": "3", "fower": "4", "fife": "5", "ait": "8", "niner": "9"}
_DIGIT = re.compile(r"(?<=[^\W\d_])(?P<gap>\s+)(?:figures?\s+)?(?P<d>wun|too|tree|fower|fife|ait|niner)\b", re.I)
#: "figures one": the word that announces a number, before a number said as a word or a figure
_FIGURES = re.compile(r"\bfigures?\s+(?=(?:one|two|three|four|five|six|seven|eight|nine|zero|\d)\b)", re.I)


def _blank(text: str, a: int, b: int) -> str:
    return text[:a] + " " * (b - a) + text[b:]


def is_radio_call(question: str) -> bool:
    """The question is a radio call: addressed to a station at its opening, or closed with "over" / "out"."""
    return bool(_OPENING.match(question) or _CLOSING.search(question))


def radio_call(question: str) -> tuple[str, list[str]]:
    """The call rewritten as the question it asks (the length kept) and what was set aside ("called Control by
    rectifier yard"); the question as it is where it is no radio call."""
    if not is_radio_call(question):
        return question, []
    aside: list[str] = []
    text = question
    if m := _OPENING.match(text):
        caller = re.sub(r"^this\s+is\s+", "", m["caller"].strip(), flags=re.I)
        caller = _PROCEDURE.sub("", caller).strip(" ,")
        aside.append(f"a radio call to {m['called']}" + (f" from {caller}" if caller else ""))
        text = _blank(text, 0, m.end())
    if m := _CLOSING.search(text):
        text = _blank(text, m.start(), m.end())
    for m in list(_ACK_SENTENCE.finditer(text)):
        aside.append(m.group(0).strip())
        text = _blank(text, m.start(), m.end())
    for m in list(_PROCEDURE.finditer(text)):
        text = _blank(text, m.start(), m.end())
    for m in list(_ASKING.finditer(text)):
        said = "" if m["w"].casefold() == "request" else "what is"
        text = text[: m.start()] + said.ljust(len(m["w"])) + text[m.end() :]
    text = _DIGIT.sub(lambda m: m["gap"] + _DIGITS[m["d"].casefold()].ljust(len(m.group(0)) - len(m["gap"])), text)
    text = _FIGURES.sub(lambda m: " " * len(m.group(0)), text)
    return text, aside
