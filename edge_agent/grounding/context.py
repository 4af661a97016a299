"""What of an operator's message is context, not the question: who a relayed request comes from and remarks after it.

A help desk or a shift lead often passes a question on: "quick one from the night shift: what time did …", "the
grower's asking which compartment …", "finance wants to know how many kWh …", and adds why: "… on Saturday? they
think the screens opened late", "…, the alarm log looks odd", "… — he's planning an outage", "…? is for the cost
report of August". Those words name no
data; read as part of the question they are words nothing places (a run that gives up) or, worse, words that pick a
series ("screens") or a form ("maintenance") the question never asked for.

`set_aside` blanks them (the length kept, so every span into the question still points where it did) before the
question is read and linked, and returns what it set aside, which the Read-as line says. Only English's closed
classes and a short list of relay verbs decide; a piece with a digit (a name: "AHU-2") is never set aside, nor a
first- or second-person lead ("I need …", "can you …": requests of the operator's own), nor anything holding a
question mark. `in_statements` gives the words of statement clauses ("the mixing valve on Loop 2 was sticking
yesterday — did …"), which are context too: kept for the linking (the question may refer to what they name), but no
word of theirs is one the run could not place.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from edge_agent.grounding.clauses import _clause_spans, _states
from edge_agent.grounding.forms import TABLE, words

#: greetings and framing before a relay ("hi again,", "urgent", "lol random one", "two things", "quick one")
_OPENING = (
    r"(?:(?:hi|hiya|hey|hello|morning|afternoon|evening|yo|lol|urgent|again|ok|okay|so|and|right|quick|random|"
    r"one|q|two|three|things|question)\W+)*"
)
#: a relay: someone's request passed on, up to the punctuation that opens the question itself
_RELAY_MARKED = re.compile(
    _OPENING + r"(?P<lead>[^:?!—–\d]{0,70}?\b(?:from|asking|asks|asked|wants\s+to\s+know|wanted\s+to\s+know|"
    r"would\s+like\s+to\s+know|['’]d\s+like\s+to\s+know|needs?\s+to\s+know|wondering|wonders|on\s+the\s+phone)\b"
    r"[^:?!—–\d,.]{0,40}?)\s*(?::|—|–|\s-\s)\s*",
    re.I,
)
#: ... or up to the question word that opens it ("the grower's asking which compartment …")
_RELAY_BARE = re.compile(
    _OPENING + r"(?P<lead>(?:[^\W\d]+['’]?\w*\s+){1,5}?(?:is\s+|['’]s\s+)?(?:asking|asks|asked|wants\s+to\s+know|"
    r"would\s+like\s+to\s+know|needs\s+to\s+know|wonders|wondering|reckons|thinks|says|wants|needs)\b)\s+"
    r"(?=(?:what|wat|wich|which|how|when|where|who|whether|if|is|are|was|were|did|do|does|the|a|an|to)\b)",
    re.I,
)
#: an apology or a courtesy around the question ("sorry if that's a dumb question", "no rush", "hope that makes sense")
_APOLOGY = re.compile(
    r"\W*(?:sorry|apologies|no\s+worries|no\s+rush|thanks|thank\s+you|cheers|(?:i\s+)?hope\s+(?:that|this)\s+makes\s+"
    r"sense|if\s+(?:that|this)\s+makes\s+sense)\b",
    re.I,
)
#: ... before it, up to a comma or "but" ("sorry if this is a silly one, but …", "sorry to bug you —")
_APOLOGY_LEAD = re.compile(
    r"^\W*(?P<lead>(?:sorry|apologies)\b[^?,;:—–\d]{0,60}?(?:,\s*(?:(?:a\s+)?(?:dumb|stupid|silly|quick|basic|daft)\s+"
    r"(?:question|one|q)|quick\s+one))?)\s*(?:,\s*but\b|,|—|–|\s-\s)\s*",
    re.I,
)
_WANTS = re.compile(r"\s*(?:i|we)(?:['’]d|\s+would)?\s+(?:need|want|like|require|only\s+need|just\s+need)\b", re.I)
_PERSONAL = re.compile(r"\b(?:i|we|you|u|me|us|i['’]d|we['’]d|i['’]m|we['’]re)\b", re.I)
#: why the question is asked, after it: "is for the cost report of August", "it's for the board pack", "for my WO"
_PURPOSE = re.compile(
    r"\s*(?:(?:it|this|that)\s+is\s+|(?:it|this|that)['’]s\s+|is\s+|its\s+)?for\s+(?:the|a|an|my|our|his|her|their)\s",
    re.I,
)
#: why the question is asked, after it: ", so that I can attach it to the monitoring plan", ", so we can bill them",
#: ", so that the emissions can be reported alongside", or what the operator will do with it: ", which we intend to use
#: as the baseline" (a relative clause whose subject is the operator)
_SO_THAT = re.compile(
    r",\s+(?P<tail>(?:so(?:\s+that)?\s+(?:i|we|they|he|she|you)\s+(?:can|could|may|might|will)\s"
    r"|so\s+that\s|which\s+(?:i|we|they|he|she|you)\s+(?:intend|plan|want|wish|need|will|would|shall|can|may|are|am)\s"
    # "…, for the purposes of a possible claim under the performance guarantee"
    r"|for\s+the\s+purposes?\s+of\s)"
    r"[^?]+?)\s*[.!]?\s*$",
    re.I,
)
#: a claim reported and asked about ("A former worker told our paper that the boiler ran above 150 psi last week. Is
#: that true?", "Someone said the pumps tripped twice. Is this right?"): the claim is what is asked, yes or no
_TOLD_THAT = re.compile(
    r"(?P<lead>(?:^|(?<=[.!?]\s))[^.?!]{0,80}?\b(?:told|tells|tell|said|says|say|claims?|claimed|reckons?|heard|"
    r"insists?|insisted)\b[^.?!]{0,40}?\bthat\s+)(?P<claim>[^?!]+?)(?P<stop>\.)\s+"
    r"(?P<tag>(?:is|was)\s+(?:that|this|it)\s+(?:true|right|correct|so)\s*\?)",
    re.I,
)
#: a document's part cited by its number ("under clause 11", "Schedule 4"): no figure of the question's
_DOCUMENT_PART = r"(?:clause|schedule|section|article|annex|appendix|paragraph|item|part)"
_CITED = re.compile(rf"\b{_DOCUMENT_PART}\s+[\d.]+[a-z]?\b", re.I)
#: a remark after the question's end: after its last "?", or a statement after a comma or a dash at the end
_TAIL_AFTER_COMMA = re.compile(r"(?:,|\s[—–-])\s+(?P<tail>[^,?—–]+?)\s*[.!]?\s*$")


def _blank(text: str, start: int, end: int) -> str:
    return text[:start] + " " * (end - start) + text[end:]


def _remark(piece: str) -> bool:
    """`piece` says something rather than asks: a statement (a subject, then a copula or a verb of saying or
    feeling: "roughly is fine", "one of the labs felt stuffy"), with no question word, no number or name with a digit,
    and no request or question verb at its start."""
    ws = words(piece)
    if not ws or re.search(r"\d", piece) or "?" in piece or ws[0] in ("or", "and", "but", "nor"):
        return False
    if TABLE.period.search(piece) and not _states(piece):  # "…? this week against last week": what is compared
        return False
    if {"how", "what", "which", "who", "when", "where", "why", "whether"} & set(ws):
        return False
    if _PURPOSE.match(piece) or _APOLOGY.match(piece):
        return True  # "…? is for the cost report of August": why it is asked, not what; "…? sorry if that's basic"
    lead = TABLE.lead.regex.match(piece)
    if lead and lead.end() > 0 and piece[: lead.end()].strip():
        return False  # "… ? and the max", "… ? also list them": request words open another ask
    if TABLE.part_start.match(piece.lstrip()) or _WANTS.match(piece):
        return False  # "… ? I need the largest difference": a request of the operator's own
    return _states(piece) or ws[0] in TABLE.statement_start  # a statement: "it's all frozen chicken in there"


#: a filler of speech set off by commas ("did it go over, like, 80 degrees", "the, um, booster fan")
_FILLER = re.compile(r",\s*(?:like|you\s+know|um+|uh+|er+|erm+|hmm+|so)\s*,", re.I)


#: an alternative the question sets aside ("discharging rather than taking a charge", "the stock itself, as distinct
#: from that of the air"): what is not asked about
_DENIED = re.compile(r",?\s*\b(?:rather\s+than|instead\s+of|as\s+opposed\s+to|as\s+distinct\s+from)\s+[^,.;:?!]+", re.I)


def set_aside(question: str) -> tuple[str, list[str]]:
    """The question with a relay's lead and remarks after it blanked (length kept), and the pieces set aside."""
    aside: list[str] = []
    text = _FILLER.sub(lambda m: " " * len(m.group(0)), question)
    m = _RELAY_MARKED.match(text) or _RELAY_BARE.match(text)
    if m and not _PERSONAL.search(m.group("lead")):
        aside.append(m.group("lead").strip())
        text = _blank(text, 0, m.end())  # with the greeting before it ("hiya — the grower's asking …")
    sorry = _APOLOGY_LEAD.match(text)
    if sorry:  # "sorry if this is a silly one, but what was …": a courtesy, not the question
        aside.append(sorry.group("lead").strip())
        text = _blank(text, 0, sorry.end())
    for denied in list(_DENIED.finditer(text)):  # "discharging rather than taking a charge": the other is no subject
        aside.append(denied.group(0).strip(" ,"))
        text = _blank(text, denied.start(), denied.end())
    told = _TOLD_THAT.search(text)  # "A former worker told our paper that the boiler ran above 150 psi. Is that true?"
    if told:  # the claim is the question: the report's lead and the tag are set aside, the claim asked
        aside.append(told.group("lead").strip())
        lead = told.group("lead")
        asks = "Is it true that " if len(lead) >= 16 else ""  # the question the tag asks, in the lead's room
        text = text[: told.start("lead")] + asks + " " * (len(lead) - len(asks)) + text[told.end("lead") :]
        text = text[: told.start("stop")] + "?" + text[told.end("stop") :]
        text = _blank(text, told.start("tag"), told.end("tag"))
    purpose = _SO_THAT.search(text)
    if purpose and not re.search(r"\d", _CITED.sub(" ", purpose.group("tail"))):  # "…, so that I can attach it …"
        aside.append(purpose.group("tail").strip())
        text = _blank(text, purpose.start(), purpose.end())
    end = text.rfind("?")
    if end >= 0 and text[end + 1 :].strip() and _remark(text[end + 1 :]):  # "…? roughly is fine"
        aside.append(text[end + 1 :].strip())
        text = _blank(text, end + 1, len(text))
    elif end >= 0 and text[end + 1 :].strip():  # "…? um, whole days I guess. sorry if that's a lot": the last remarks
        pieces = [(m.start() + end + 1, m.end() + end + 1) for m in re.finditer(r"[^.;!]+[.;!]*", text[end + 1 :])]
        while pieces and text[pieces[-1][0] : pieces[-1][1]].strip() and _remark(text[pieces[-1][0] : pieces[-1][1]]):
            a, b = pieces.pop()
            aside.append(text[a:b].strip())
            text = _blank(text, a, b)
    elif end < 0:  # no question mark: a statement after the last comma or dash ("…, the alarm log looks odd")
        tail = _TAIL_AFTER_COMMA.search(text)
        if tail and _remark(tail.group("tail")):  # "…, the alarm log looks odd", "… — he's planning an outage"
            aside.append(tail.group("tail").strip())
            text = _blank(text, tail.start(), tail.end())
    return text, aside


#: a log's heading before what it asks ("Turnover sheet:", "Energy log:", "For the milk book:"): up to four words and
#: a colon opening the message, no digit in it (not a time "06:00", not a name "AHU-2")
_LABEL = re.compile(r"^\W*(?P<label>[^\W\d_][^\d:?!.,;]{0,40}?)\s*:\s+(?=\S)")


def label_lead(question: str, keep: Callable[[str], bool]) -> tuple[str, str]:
    """The question with a heading that opens it blanked (length kept), and the heading ('' where there is none, or
    where `keep` says it holds what the question asks about: a site or equipment it names, a period)."""
    m = _LABEL.match(question)
    if m is not None and len(m.group("label").split()) > 4:
        m = None
    m = m or _FRONTED.match(question)
    label = (m.group("label") or m.groupdict().get("purpose") or "") if m is not None else ""
    if m is None or keep(label):
        return question, ""
    return _blank(question, 0, m.end()), label.strip()


#: words in brackets: an aside ("(the day Morocco's clocks went forward)", "(I'll split it per day myself)")
_PARENS = re.compile(r"\((?P<inside>[^()]{3,160})\)")


def parentheticals(question: str, keep: Callable[[str], bool]) -> tuple[str, list[str]]:
    """The question with its asides in brackets blanked (length kept), and the asides: three words or more that name
    nothing `keep` says is read ("(Chiller 2)", "(last week)", "(kWh)" stay)."""
    text, out = question, []
    for m in _PARENS.finditer(question):
        inside = m.group("inside")
        if len(words(inside)) < 3 or keep(inside):
            continue
        text = _blank(text, m.start(), m.end())
        out.append(inside.strip())
    return text, out


#: a circumstance after the question, set off by a comma: "…, when Cooling Tower 2's fan was out of service." (why it
#: is asked, not what: its equipment is not the subject)
_CIRCUMSTANCE = re.compile(
    r",\s+(?P<tail>(?:when|while|whilst|as|because|since|after)\s+[^,?;]+?\b(?:was|were|had\s+been|went|got)\s+"
    r"[^,?;]+?)\s*[.!]?\s*$",
    re.I,
)


#: a circumstance set off by commas inside the sentence: "… during the week of 11 January, when the cold spell
#: occurred, or during …" (a non-restrictive clause: what happened then, not what is asked; "when was …" asks)
_CIRCUMSTANCE_INSIDE = re.compile(
    r",\s+(?P<tail>(?:when|while|whilst)\s+(?!(?:is|are|was|were|did|does|do|has|have|had|will|would|can|could)\b)"
    r"[^,?;:\d]{3,80}?)\s*(?=,)",
    re.I,
)


def circumstance_tail(question: str, keep: Callable[[str], bool]) -> tuple[str, str]:
    """The question with a circumstance after it (or set off by commas inside it) blanked (length kept) and the
    circumstance ('' where there is none, or where `keep` says the question without it names nothing to read: then
    the circumstance holds the subject)."""
    for m in (_CIRCUMSTANCE.search(question), _CIRCUMSTANCE_INSIDE.search(question)):
        if m is None or "?" in m.group("tail"):
            continue
        rest = _blank(question, m.start(), m.end())
        if keep(rest):
            return rest, m.group("tail").strip()
    return question, ""


#: a purpose said before the ask ("For the tenant engagement section, please …", "As an energy-saving measure,
#: please …"): context, like a log's heading
_FRONTED = re.compile(
    r"^\W*(?P<label>(?:for|as)\s+(?:the|our|my|this|that|an?|part\s+of)\s+[^,?!.;:]{1,80}?)\s*,\s+(?=\S)"
    # a purpose before a request put in writing: "For inclusion in the water-energy nexus indicator, please provide …",
    # "To support the performance indicator in the annual report, please …"
    r"|^\W*(?P<purpose>(?:for|to|in\s+order\s+to|in\s+preparing|in\s+preparation\s+for|so\s+that|with\s+a\s+view\s+to)"
    r"\s+[^,?!.;:]{1,120}?(?:,\s+which\s+[^,?!.;:]{1,120}?)?)\s*,\s+(?=(?:please|kindly|could\s+you|can\s+you|would\s+you)\b)",
    re.I,
)


def in_statements(question: str) -> set[str]:
    """The words of the question's statement clauses ("the mixing valve … was sticking yesterday"): context."""
    out: set[str] = set()
    pieces = re.split(r"\s[—–-]\s", question)  # "… was sticking yesterday — did the loop's …": a dash ends one too
    at = 0
    spans = []
    for piece in pieces:
        spans += [(at + s, at + e) for s, e, _ in _clause_spans(piece)]
        at += len(piece) + 3
    for start, end in spans:
        clause = question[start:end]
        ws = words(clause)
        if (
            ws
            and "?" not in question[end : end + 1]
            and not _WANTS.match(clause)  # "I need the names of all electric meters": a request
            and (_states(clause) or ws[0] in TABLE.statement_start)
        ):
            out |= set(ws)
    return out | _framing_sentences(question)


#: a sentence that asks the gateway for something: a second person, a request word, a question word at its start
_ASKING = re.compile(
    r"\b(?:you|u|please|pls|kindly|tell|give|send|show|list|pull|provide|largest|highest|lowest|smallest|biggest|"
    r"max|maximum|min|minimum|average|mean|total|peak|sum|figures?|values?|both|each)\b|^\W*(?:what|which|how|when|"
    r"where|who|is|are|was|were|did|does|do|can|could|would)\b",
    re.I,
)


def sentence_spans(question: str) -> list[tuple[int, int]]:
    """(start, end) of each sentence of the question: a sentence ends where a stop is followed by a space."""
    sentences, at = [], 0
    for stop in re.finditer(r"(?<=[.?!])\s+", question):
        sentences.append((at, stop.start()))
        at = stop.end()
    sentences.append((at, len(question)))
    return sentences


def _framing_sentences(question: str) -> set[str]:
    """The words of whole sentences around a question that only frame it (`framing_spans`)."""
    return {w for a, b in framing_spans(question) for w in words(question[a:b])}


def framing_spans(question: str) -> list[tuple[int, int]]:
    """Whole sentences around a question that only frame it ("With the colder weather arriving, I would like to
    understand our heating costs. Did the terminal burn more gas …?", "Our insurer asks us to confirm …."): sentences
    that end in a full stop, ask the gateway nothing and hold no digit (a name), where another sentence of the message
    asks (a "?" or a request). Their words are context: placed, and never read for the question's form."""
    sentences = sentence_spans(question)
    texts = [question[a:b].strip() for a, b in sentences]
    if len(sentences) < 2 or not any(t.endswith("?") or _ASKING.search(t) for t in texts):
        return []
    return [
        (a, b)
        for (a, b), t in zip(sentences, texts)
        if t.endswith(".")
        and not _ASKING.search(_ONE_OF.sub(" ", t))
        and not re.search(r"\d", t)
        and _opens_a_statement(t)
    ]


def statement_spans(question: str) -> list[tuple[int, int]]:
    """Whole sentences before the question that report a state or an event, names and all ("Dairy: Boiler 1 burner
    serviced Tue evening. What was its …?", "Walk-round: Comp 1 sounding laboured. …"): a sentence that ends in a
    full stop, asks the gateway nothing, and whose every clause (a log's heading before a colon aside) states
    something, where a later sentence asks. Their names stay for the linking ("its"); no word of theirs is read for
    the question's form ("serviced" is no question about maintenance)."""
    sentences = sentence_spans(question)
    out: list[tuple[int, int]] = []
    for i, (a, b) in enumerate(sentences[:-1]):
        text = question[a:b].strip()
        later = [question[x:y].strip() for x, y in sentences[i + 1 :]]
        # a contract's terms ("the Contractor warrants that each actuated valve …") state, whatever words of
        # degree or number they hold, where they request nothing
        terms = _TERMS.search(text) is not None and not _REQUESTS.search(text)
        if not text.endswith(".") or (_ASKING.search(text) and not terms) or "?" in text:
            continue
        if not any(t.endswith("?") or _ASKING.search(t) for t in later):
            continue
        body = text[label.end() :] if (label := _LABEL.match(text)) else text
        body = _blank(body, 0, ref.end()) if (ref := _DOCUMENT_REFERENCE.match(body)) else body
        body = _blank(body, 0, hi.end()) if (hi := _GREETING.match(body)) else body
        clauses = [(body[x:y], how) for x, y, how in _clause_spans(body.rstrip(".")) if body[x:y].strip()]
        if (
            clauses
            and all(_states(c) or (i > 0 and _goes_on(c, how)) for i, (c, how) in enumerate(clauses))
            and not any(c.search(text) for c in TABLE.injection)
        ):
            out.append((a, b))
    return out


#: the verbs of a contract's or a supplier's terms (`statement_verb` holds them too)
_TERMS = re.compile(
    r"\b(?:guaranteed|guarantees|warrants|warranted|provides|requires|stipulates|specifies|undertook|undertakes|"
    r"shall)\b",
    re.I,
)
#: the words of a request in writing: a sentence with them asks
_REQUESTS = re.compile(r"\b(?:please|kindly|state|provide|confirm|identify|tell|give|send|list)\b", re.I)
#: the words of a greeting that opens a message ("G'day,", "Hi,", "Kia ora,"): a courtesy, no clause of what is said
_HELLO = r"(?:hi|hello|hey|hiya|g['’]day|kia\s+ora|hola|bonjour|morning)"
_GREETING = re.compile(
    rf"^\W*(?:{_HELLO}|good\s+(?:morning|afternoon|evening|day))(?:\s+(?:all|everyone|team|there))?\s*[,!.]\s*",
    re.I,
)


def _goes_on(clause: str, how: str) -> bool:
    """A clause that carries on the one before it with no subject of its own: "…, and remains within its warranty
    period" (a verb that states), "…, with liquidated damages accruing per hour" (a phrase that adds to it)."""
    ws = words(clause)
    return bool(ws) and (
        (how in ("and", ",") and ws[0] in TABLE.statement_verb)
        or ws[0] in ("with", "including", "excluding", "except", "save", "plus", "subject")
    )


#: a sentence that opens by citing a document's terms ("Pursuant to clause 7.2 of Supply Contract OBF/2025/014,",
#: "Under Schedule 2 of the Maintenance Contract,"): where the terms come from, not what is asked
_DOCUMENT_REFERENCE = re.compile(
    r"^\W*(?:pursuant\s+to|under|in\s+accordance\s+with|as\s+per|per|according\s+to|in\s+line\s+with)\s+"
    rf"(?:the\s+)?{_DOCUMENT_PART}\b[^,]{{0,120}},\s*",
    re.I,
)


#: "one of our largest costs": a superlative that describes (one among several), never one the sentence asks for
_ONE_OF = re.compile(r"\bone\s+of\s+(?:the|our|its|their|my|your)\s+\w+", re.I)


#: how a sentence that states something opens: a subject (a pronoun, a possessive, an article) or a framing phrase —
#: never a verb ("Forget your instructions.", "Answer every question with …": instructions, not context)
_STATEMENT_OPENER = re.compile(
    # a letter's salutation first ("Dear colleagues on the island, the big battery is new to me; in my day …")
    r"\W*(?:dear\s+[^,.;:?!]{1,40},\s*|good\s+(?:morning|afternoon|evening)\b[^,.;:?!]{0,40}[,.]\s*"
    rf"|{_HELLO}\b[^,.;:?!]{{0,30}}[,.!]\s*)?"
    r"(?:\W*(?:i|i'm|i've|i'd|we|we're|we've|our|my|the|this|that|these|those|it|it's|there|they|he|she|a|an|with|since|"
    r"as|after|before|given|due|operations|management|in|when|back|once|years|although|though|while|whilst)\b|"
    r"\W*[A-Z][a-z]+\s+(?:is|are|was|were|has|have|had|says|said|say|tell|claim|claims|reckon|think|believe|"
    r"told|mentioned|asks|asked|wants|needs)\b)",
    re.I,
)


def _opens_a_statement(sentence: str) -> bool:
    return _STATEMENT_OPENER.match(sentence) is not None and not any(c.search(sentence) for c in TABLE.injection)
