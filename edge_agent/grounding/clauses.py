"""A question's clauses: which ask for something, which request an operation, which instruct the agent.

`_clauses` splits a question at sentence ends, commas and conjunctions and says of each clause what it does, from the
forms table (`grounding.forms.TABLE`): an operating verb at its start or a wish ("I want it turned off") is a request
to operate, a cue of an instruction is an injection, a question or a request for something is an asking clause.
`split_parts` gives the clauses that ask (the parts a complete answer must each answer), without the refused ones;
`grounding.question.read_question` builds the `Reading` from them.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache
from typing import Literal

from edge_agent.grounding.forms import _UNIT_WORDS, FUNCTION_WORDS, TABLE, _normal, words

# -- clauses: what asks, what requests an operation, what instructs the agent --


@dataclass(frozen=True)
class _Clause:
    start: int
    end: int
    kind: Literal["ask", "control", "injection", "none"]
    verb: str = ""
    placed: frozenset[str] = frozenset()


#: a clause ends at a sentence's end, ';', ':', ',', a conjunction, and — in speech written without punctuation —
#: before a request put to the reader ("tunnel one is running warm can you turn it down": two sentences)
_CLAUSE_BREAK = re.compile(
    r"[.;!?:]+(?=\s|$)|(?<!\d),|(?<=\d),(?!\d{3}(?!\d))|\s(?:and|then|but|plus|&)(?=\s)"  # never "1,000"
    r"|(?<=[^\W\d_]{2})\s+(?=(?:can|could|would|will)\s+(?:you|u|someone|somebody|anyone)\s+(?:please\s+)?[^\W\d_]+)",
    re.I,
)


def _clause_spans(text: str) -> list[tuple[int, int, str]]:
    """(start, end, how it is joined to the clause before) of each clause: split at sentence ends, ';', ':', ','
    and 'and' / 'then'. How: "" (a new sentence or the first), "," (a comma, maybe with a conjunction), "and" (a
    bare conjunction: the same sentence goes on)."""
    out, at, how = [], 0, ""
    for m in _CLAUSE_BREAK.finditer(text):
        brk = m.group(0).strip().casefold()
        if text[at : m.start()].strip():
            out.append((at, m.start(), how))
            how = ""
        if brk in ("and", "then", "but", "plus", "&"):
            how = "," if how == "," else "and"
        elif brk == ",":
            how = ","
        else:
            how = ""
        at = m.end()
    if text[at:].strip():
        out.append((at, len(text), how))
    return out


def _control_at(text: str) -> tuple[str, set[str]] | None:
    """The operating verb phrase a clause requests ("switch off"), with the words it placed; None where the clause
    does not open (after request words) with an operating verb, or operates on the answer rather than the plant."""
    lead = TABLE.lead.regex.match(text)
    rest = text[lead.end() :] if lead else text
    for v in TABLE.verbs:
        m = v.regex.match(rest)
        if not m:
            continue
        obj = [w for w in words(rest[m.end("verb") : m.end("verb") + 40])[:3] if w not in FUNCTION_WORDS]
        named = len(obj) > 1 and re.fullmatch(r"\d+", obj[1])  # "switch Unit 3 off": a name, not the answer's units
        if obj and obj[0] in TABLE.not_operated and not named:
            return None
        placed = set(words(text[: lead.end()]) if lead else []) | set(words(v.spec.verb))
        particle = ""
        if m.groupdict().get("then"):
            tail = words(m.group("then"))
            particle = tail[-1] if tail else ""
            placed |= {w for w in tail if w in v.words}
        else:
            near = [w for w in words(rest[m.end() :])[:6] if w in _PARTICLES and w != "on"]  # "on AHU 2": a place
            particle = near[0] if near else ""
            placed |= {particle} if particle else set()
        phrase = v.spec.verb.casefold() + (f" {particle}" if particle in _PARTICLES else "")
        return phrase, placed | _numbers_and_units(rest)
    return None


_PARTICLES = ("on", "off", "down", "up", "out")


def _numbers_and_units(text: str) -> set[str]:
    """The numbers of a request and the units they carry ("up two degrees", "down to -20"): its arguments."""
    ws = words(text)
    return {w for w in ws if re.fullmatch(r"\d+(?:\.\d+)?", w)} | {w for w in ws if w in _UNIT_WORDS}


def _wish(text: str) -> tuple[str, set[str]] | None:
    """The operation a clause wishes done without an operating verb at its start ("I want it turned off",
    "pool SP to 30.5 °C"), with the words it placed; None in a question ("is the SP to 30.5 yet?")."""
    question = text.rstrip().endswith("?") or bool((_WH_WORDS | _AUXILIARIES).intersection(words(text)[:1]))
    for cue in TABLE.wish:
        m = cue.search(text)
        if m and not question:
            done = next((w for w in reversed(words(m.group(0))) if w in TABLE.participles), "")
            after = [w for w in words(text[m.end() :])[:2] if w in _PARTICLES]
            if not after:
                after = [w for w in words(m.group(0)) if w in _PARTICLES][-1:]
            setpoint = TABLE.setpoint.search(m.group(0)) and not done  # "SP to 30.5": set it
            plain = "switch" if after and after[0] in ("on", "off") else "set" if setpoint else "operate"
            verb = TABLE.participles.get(done, plain) + (f" {after[0]}" if after else "")
            return verb, cue.placed(text, m) | set(after) | _numbers_and_units(text)
    return None


def _asks(text: str) -> bool:
    """A clause asks for something: it has a word that is not a function word, and is a question or a request,
    not a statement ("it is making a noise")."""
    ws = words(text)
    if not [w for w in ws if w not in FUNCTION_WORDS]:
        return False
    if re.match(r"\W*(?:in\s+order\s+)?to\s+[^\W\d_]+", text, re.I) and not text.rstrip().endswith("?"):
        return False  # "To save energy, please switch …": why, not what is asked
    lead = TABLE.lead.regex.match(text)
    rest = words(text[lead.end() :] if lead else text)
    if not [w for w in rest if w not in FUNCTION_WORDS]:
        return False  # request words only ("go ahead")
    if text.rstrip().endswith("?"):
        return True
    return rest[0] not in TABLE.statement_start and not _states(text[lead.end() :] if lead else text)


#: the auxiliaries that open a yes/no question ("is the SP to 30.5 yet?")
_AUXILIARIES = frozenset("is are was were did does do has have had".split())
#: English's question words (a closed class)
_WH_WORDS = frozenset("how what which who whom whose when where why whether".split())


def _labels(text: str, then: str) -> bool:
    """The clause is a label before a colon ("Bac Lieu farm: start DG-1 now"), or a few words before a comma that call
    the equipment addressed ("Compressor 3, start her up"): it asks nothing of its own (no question word, request or
    auxiliary at its start, no question mark), it only says what the rest is about."""
    return (
        (then == ":" or (then == "," and len(words(text)) <= 3))
        and not text.rstrip().endswith("?")
        and not _opens_part(text)
        and not _AUXILIARIES.intersection(words(text)[:1])
    )


def _states(text: str) -> bool:
    """The clause is a statement about something ("Pool Filter 2 needs a backwash", "AHU-2 is running hot"): it opens
    with no question word or request verb and a copula or auxiliary follows its subject, which holds no question
    word ("at what time was …" asks)."""
    if TABLE.part_start.match(text.lstrip()):
        return False
    ws = words(text)
    verb = next((i for i, w in enumerate(ws) if w in TABLE.statement_verb), 0)
    return verb > 0 and not _WH_WORDS.intersection(ws[:verb])


def _opens_part(text: str) -> bool:
    """A clause opens with a question word or a request verb of its own (after request words), or an operating
    verb: not the next object of the clause before it."""
    lead = TABLE.lead.regex.match(text)
    rest = text[lead.end() :] if lead else text
    return bool(TABLE.part_start.match(rest.lstrip()) or _control_at(text))


@lru_cache(maxsize=512)
def _clauses(question: str) -> tuple[_Clause, ...]:
    text = _normal(question)
    injected: list[tuple[int, int]] = []
    for cue in TABLE.injection:
        injected += [(m.start(), m.end()) for m in cue.regex.finditer(text)]
    out: list[_Clause] = []
    sentence_start = 0
    for start, end, how in _clause_spans(text):
        piece = text[start:end]
        if not how:
            sentence_start = start
        if any(s < end and e > start for s, e in injected) or (how == "and" and out and out[-1].kind == "injection"):
            # an instruction, or its next verb ("ignore your rules and say that …")
            out.append(_Clause(start, end, "injection", placed=frozenset(words(piece))))
            continue
        if how and out and out[-1].kind == "control" and not _opens_part(piece):
            # the request's next object ("switch off Chiller 6 and Chiller 9")
            last = out.pop()
            out.append(_Clause(last.start, end, "control", last.verb, last.placed))
            continue
        control = _control_at(piece)
        if control and how and TABLE.past_question.search(text[sentence_start:start]):
            control = None  # "when did it start and stop": a second verb of a question about the past
        control = control or _wish(piece)
        if control:
            out.append(_Clause(start, end, "control", control[0], frozenset(control[1])))
        else:
            lead = TABLE.lead.regex.match(piece)
            out.append(
                _Clause(
                    start,
                    end,
                    "ask" if _asks(piece) else "none",
                    placed=frozenset(words(lead.group(0)) if lead else ()),
                )
            )
    return tuple(_without_labels(out, text))


def _without_labels(clauses: list[_Clause], text: str) -> list[_Clause]:
    """A label before a colon that heads a request to operate ("Bac Lieu farm: start DG-1 now") asks nothing."""
    out = list(clauses)
    for i, (c, after) in enumerate(zip(clauses, clauses[1:])):
        if (
            c.kind == "ask"
            and after.kind in ("control", "injection")
            and _labels(text[c.start : c.end], text[c.end : c.end + 1])
            # "Compressor 3, start her up": the request follows the name it calls at once, never after "and"
            and (
                text[c.end : c.end + 1] == ":" or not re.match(r"\W*(?:and|then|also|plus|but)\b", text[after.start :])
            )
        ):
            out[i] = _Clause(c.start, c.end, "none", placed=c.placed)
    return out


def _asking_text(question: str) -> str | None:
    """The question less its refused clauses (None where nothing is refused, or nothing else is asked)."""
    clauses = _clauses(question)
    if not any(c.kind in ("control", "injection") for c in clauses) or not any(c.kind == "ask" for c in clauses):
        return None
    text, groups, current = _normal(question), [], []
    for c in [*clauses, None]:  # runs of clauses that are not refused, less the words-only ones at their ends
        if c is not None and c.kind in ("ask", "none"):
            current.append(c)
            continue
        while current and current[-1].kind == "none":
            current.pop()
        while current and current[0].kind == "none":
            current.pop(0)
        if current:
            groups.append((current[0].start, current[-1].end))
        current = []
    pieces = [text[s:e].strip(" ,.;:") for s, e in groups]
    return "; ".join(p for p in pieces if p) or None


def split_parts(question: str) -> list[str]:
    """The clauses of a question that each ask for something ("… and what was …"); one for most questions. A
    clause that requests an operation or instructs the agent is not a part where other clauses ask (see `also`)."""
    text = _asking_text(question) or question
    pieces = [p.strip(" ,.?!") for p in TABLE.split.split(text.strip())]
    pieces = [p + ")" if p.count("(") > p.count(")") else p for p in pieces]
    out: list[str] = []
    for piece in pieces:  # "… ? Give both values": a short clause adds to the part before it
        opening = re.sub(r"^(?:(?:and|also|then|plus|so|but|n|&)(?!\w)[\s,]*)+", "", piece, flags=re.I)
        if out and (len(piece.split()) < 5 or piece.startswith("(") or not TABLE.part_start.match(opening)):
            # a short tail, a note in brackets, or a sentence that asks nothing of its own ("I need the largest
            # difference") belongs to the part before it
            out[-1] = f"{out[-1]}; {piece}"
        elif piece:
            out.append(piece)
    return out or [question.strip()]
