"""The question's form, read in code: what it asks the gateway to do, part by part, and what it must refuse.

`read_question(question)` returns a `Reading`:

- `intent`: "read" (a question about the SkySpark's data), "control" (a request to operate equipment: the
  gateway only reads), "injection" (an instruction to the agent hidden in the question) or "outside" (a topic
  with no place in a building's data: weather, mail, news, the gateway's own files, shell commands). Whether a
  question that names nothing on the SkySpark is outside is decided with the linking (`Grounding`);
- `parts`: the question split into the clauses a complete answer must each answer ("how many chillers are at
  S and what was the peak tonnage of Chiller 6?" is two), each with its `form` (yes/no, which, value, names,
  count) and its `ask` — what work answers it: `rank` (which of several is highest / more), `excursion` (was it
  ever above / below a limit or its setpoint), `derive` (the difference, sum or ratio of two series), `exists`
  (is there an X at S), `names` / `count` (a listing), `data` (a series' figures), `other` — and the values the
  question states for an analysis tool's arguments: the statistic, the order, the operation, the direction, the
  limit (pinned by the scope: `x-question` marks).

Everything here is English question grammar and the generic words of building data; nothing names a plant.
"""

from __future__ import annotations

import re
from typing import Literal

from pydantic import BaseModel, Field

Intent = Literal["read", "control", "injection", "outside"]
Form = Literal["yes_no", "which", "value", "names", "count", "other"]
Ask = Literal["rank", "excursion", "derive", "exists", "names", "count", "data", "other"]

_LEAD = r"(?:^|[.;!?]\s*|\b(?:please|kindly|can you|could you|would you|will you|i want you to|i need you to|" \
        r"go ahead and|now)\s+)"
#: verbs that operate equipment, as an imperative (at the start, or after "please" / "can you" …)
_CONTROL = re.compile(_LEAD + r"(?:switch|turn|shut|power|start|stop|restart|reboot|set|change|adjust|raise|lower|"
                      r"increase|decrease|override|reset|open|close|enable|disable|toggle|activate|"
                      r"deactivate|acknowledge|cycle|trip|bump)\b(?!\s+(?:me|us)\b)", re.I)
#: "switch off", "turn on": a control phrase anywhere, with an equipment-like object (not "turned on" as a past fact)
_CONTROL_ANY = re.compile(r"\b(?:switch|turn|shut)\s+(?:(?:on|off|down)\b|(?:\w+\s+){1,4}?(?:on|off|down)\s*"
                          r"(?:[.!?]|$|now\b|please\b|immediately\b))|\b(?:change|set|adjust|lower|raise)\s+(?:the\s+)?(?:\w+\s+){0,3}?set\s*"
                          r"points?\s+to\b|\bset\s+(?:\w+\s+){0,4}?to\s+-?\d", re.I)
#: "I want Chiller 6 turned off", "I need the setpoint changed to 21": a wish that something be operated
_CONTROL_WISH = re.compile(r"\b(?:i|we)\s+(?:want|need|would like|'d like)\b.{0,60}?\b(?:turned|switched|shut|started|"
                           r"stopped|reset|restarted|changed|set|raised|lowered|opened|closed|overridden|enabled|"
                           r"disabled)\b", re.I)
_PAST_FACT = re.compile(r"\b(?:when|was|were|did|has|had|how (?:long|often|many times))\b", re.I)
_INJECTION = re.compile(r"\b(?:ignore|disregard|forget|override)\s+(?:all\s+|any\s+|the\s+|your\s+|previous\s+|prior\s+"
                        r"|above\s+|earlier\s+)*(?:instructions?|rules?|prompts?|guidelines?|directions?)|"
                        r"\bsystem\s+prompt\b|\byou are now\b|\bpretend (?:to be|you)\b|\bact as\b|"
                        r"\b(?:reveal|print|show|repeat|output)\s+(?:me\s+)?(?:your|the)\s+(?:system\s+)?"
                        r"(?:instructions|prompt|rules)\b|\bjailbreak\b|\bdeveloper mode\b|<\|[a-z_]+\|>|"
                        r"\bsystem override\b|\bnew instructions?\b|\byou (?:may|can|are allowed to|are permitted to) "
                        r"now\b|\bconfirm that\b.{0,80}\b(?:shut|switched|turned|stopped|started|set|done)\b", re.I)
#: topics no building's data holds (checked where the question names nothing on the SkySpark)
_OUTSIDE = re.compile(r"\b(?:weather|forecast|rain|snow|sunny|e-?mails?|mail|inbox|news|stocks?|share price|"
                      r"bitcoin|jokes?|poems?|story|song|recipe|translate|football|sports?|movies?|passwords?|"
                      r"ssh|shell|bash|terminal|command line|sudo|rm -rf|/etc/|/home/|\.ssh|config(?:uration)? "
                      r"files?|source code|your (?:files|code|model|weights)|who are you|capital of|president|"
                      r"traffic|flights?|hotel|restaurant)\b|`[^`]+`|\b(?:run|execute|exec)\s+(?:the\s+)?(?:command|"
                      r"script|program)\b|\b(?:df|ls|cat|rm|curl|wget|ping|top|ps|kill|reboot)\s+-[a-z]+\b|"
                      r"\bthe gateway'?s?\s+(?:own\s+)?(?:files|disk|shell|system|logs?|config\w*|password\w*)\b", re.I)

_YES_NO = re.compile(r"^\s*(?:(?:and|so|also|then|but|tell me|please)\s+)*(?:is|are|was|were|did|does|do|has|have|had|"
                     r"can|could|will|would|should|may)\b", re.I)
_WHICH = re.compile(r"\b(?:which|who|what)\b(?:\s+[\w-]+){0,14}?\s+(?:the\s+)?(?:highest|lowest|most|least|largest|"
                    r"smallest|biggest|greatest|max(?:imum)?|min(?:imum)?|more|less|fewer|higher|lower|hottest|"
                    r"coldest|warmest|coolest|best|worst|top|peak)\b|\b(?:rank|ranking|order)\b", re.I)
_COMPARATIVE = re.compile(r"\b(?:more|less|fewer|higher|lower|larger|smaller|hotter|colder|warmer|cooler)\b"
                          r"(?:\s+\w+){0,3}\s+than\b", re.I)
_EXCURSION = re.compile(r"\b(?:ever|at any (?:time|point)|any time|anytime|exceed(?:ed|s)?|went|go|gone|rise|rose|fall|"
                        r"fell|drop(?:ped)?|dip(?:ped)?|stay(?:ed)?|remain(?:ed)?|breach(?:ed)?|cross(?:ed)?|"
                        r"how (?:long|often|many times))\b", re.I)
_ABOVE = re.compile(r"\b(?:above|over|exceed(?:ed|s|ing)?|higher than|greater than|more than|beyond|past|rise|rose|"
                    r"warmer than|hotter than)\b", re.I)
_BELOW = re.compile(r"\b(?:below|under|beneath|lower than|less than|fell|fall|drop(?:ped)?|dip(?:ped)?|colder than|"
                    r"cooler than)\b", re.I)
_SETPOINT = re.compile(r"\b(?:its|the|their|his|her)?\s*set\s*-?\s*points?\b|\bsp\b", re.I)
_LIMIT = re.compile(r"(?<![\w.:/-])(-?\d+(?:\.\d+)?)\s*(?:°\s*[CF]|degrees?|deg|%|percent|kw|kwh|tons?|tonref|psi|pa|"
                    r"cfm|gpm|ppm|[a-z]{0,6})?(?![\w:/-])", re.I)
_DERIVE = {"difference": re.compile(r"\b(?:difference|delta|spread|minus|subtract\w*|how far apart|gap between|"
                                   r"(?:maximum|largest|biggest|average|mean) gap)\b", re.I),
           "ratio": re.compile(r"\b(?:ratio|divided by|how many times|proportion|fraction)\b", re.I),
           "sum": re.compile(r"\b(?:sum of|combined|together|plus|added)\b", re.I)}
_EXISTS = re.compile(r"^\s*(?:is there|are there|does\s+\S+(?:\s+\S+){0,3}\s+(?:have|include|contain)|do we have|"
                     r"is\s+.+\s+(?:an? |one of the )?(?:assets?|sites?|equipment)\b|does\s+(?:an?|any)\s+\w+(?:\s+\w+)?\s+exist|"
                     r"(?:is|are)\s+.+\s+(?:on|in|at|part of)\s+(?:the\s+)?(?:site|skyspark|plant|catalog))", re.I)
_COUNT = re.compile(r"\b(?:how many|count|number of)\b", re.I)
_NAMES = re.compile(r"\b(?:list|names?|which|what)\b(?:\s+\w+){0,3}\s+(?:sites|plants|assets|equipment|sensors|points|"
                    r"units|chillers|meters|pumps|boilers|measurements|readings|metrics|values)\b|^\s*list\b|\bnames?\b",
                    re.I)
#: question words that start a new part after "and" / "also" / ";" / "?"
_PART_START = r"(?:how|what|which|who|when|where|is|are|was|were|did|does|do|has|have|list|show|give|tell|get|" \
              r"download|count|compare|rank|find)\b"
_SPLIT = re.compile(r"(?:\?\s+|;\s*|,?\s+(?:and|also|then|plus)\s+(?:also\s+)?(?=" + _PART_START + r"))", re.I)

_STATISTIC = (("energy", re.compile(r"\b(?:energy|kwh|consum\w*|used|use|uses|using)\b", re.I)),
              ("max", re.compile(r"\b(?:max(?:imum)?|highest|peak|most|top|largest|biggest|greatest|hottest|warmest)\b",
                                 re.I)),
              ("min", re.compile(r"\b(?:min(?:imum)?|lowest|least|smallest|fewest|coldest|coolest)\b", re.I)),
              ("mean", re.compile(r"\b(?:average|mean|typical|avg)\b", re.I)))
_LOWEST = re.compile(r"\b(?:lowest|least|smallest|fewest|less|lower|min(?:imum)?|coldest|coolest|fewer|smaller|"
                     r"colder|cooler|worst)\b", re.I)


class Part(BaseModel):
    text: str
    form: Form = "other"
    ask: Ask = "other"
    statistic: str | None = None  # max / min / mean / energy (a rank's aggregate)
    order: str | None = None  # highest / lowest
    op: str | None = None  # difference / sum / ratio
    direction: str | None = None  # above / below
    limit: float | None = None
    setpoint: bool = False  # compared with a setpoint series, not a value


class Reading(BaseModel):
    intent: Intent = "read"
    verb: str = ""  # the control verb phrase ("switch off")
    parts: list[Part] = Field(default_factory=list)

    @property
    def analysis(self) -> bool:
        return any(p.ask in ("rank", "excursion", "derive") for p in self.parts)


def split_parts(question: str) -> list[str]:
    """The clauses of a question that each ask for something ("… and what was …"); one for most questions."""
    pieces = [p.strip(" ,.?!") for p in _SPLIT.split(question.strip())]
    pieces = [p + ")" if p.count("(") > p.count(")") else p for p in pieces]
    out: list[str] = []
    for piece in pieces:  # "… ? Give both values": a short clause adds to the part before it
        opening = re.sub(r"^(?:(?:and|also|then|plus|so|but)\b[\s,]*)+", "", piece, flags=re.I)
        if out and (len(piece.split()) < 5 or piece.startswith("(") or not re.match(_PART_START, opening, re.I)):
            # a short tail, a note in brackets, or a sentence that asks nothing of its own ("I need the largest
            # difference") belongs to the part before it
            out[-1] = f"{out[-1]}; {piece}"
        elif piece:
            out.append(piece)
    return out or [question.strip()]


def _statistic(text: str) -> str | None:
    for name, pattern in _STATISTIC:
        if pattern.search(text):
            return name
    return None


_EXPLICIT = (("mean", _STATISTIC[3][1]),
             ("max", re.compile(r"\b(?:max(?:imum)?|peak|top)\b", re.I)),
             ("min", re.compile(r"\b(?:min(?:imum)?)\b", re.I)),
             ("energy", _STATISTIC[0][1]))


def _rank_statistic(text: str, order: str) -> str:
    """The aggregate a ranking compares: the one the question names (mean, peak, minimum — before energy, so "the
    peak Energy" of a meter is its maximum —, energy), else the extreme its order names ("the highest Tonnage": the
    maximum; "the lowest": the minimum)."""
    for name, pattern in _EXPLICIT:
        if pattern.search(text):
            return name
    return "max" if order == "highest" else "min"


def _limit(text: str) -> float | None:
    """The number a threshold question compares with ("above 45 °F", "over 80%"), not a date, time or name's."""
    m = re.search(r"(?:above|over|exceed(?:ed|s|ing)?|below|under|beneath|than|past|beyond)\s+(?:the\s+)?(?:limit\s+of\s+)?"
                  + _LIMIT.pattern, text, re.I)
    return float(m.group(1)) if m else None


def read_part(text: str, *, plural_or_many: bool = True) -> Part:
    """One clause's form and ask. `plural_or_many`: the clause names several assets or a kind of equipment (a
    ranking needs something to rank)."""
    part = Part(text=text)
    yes_no = bool(_YES_NO.search(text))
    op = next((name for name, p in _DERIVE.items() if p.search(text)), None)
    direction = "below" if _BELOW.search(text) and not _ABOVE.search(text) else \
        "above" if _ABOVE.search(text) else None
    setpoint = bool(_SETPOINT.search(text))
    limit = _limit(text)
    if _EXISTS.search(text):
        part.form, part.ask = "yes_no", "exists"
    elif (yes_no or _EXCURSION.search(text)) and direction and (limit is not None or setpoint):
        part.form, part.ask = ("yes_no" if yes_no else "value"), "excursion"
        part.direction, part.limit, part.setpoint = direction, limit, setpoint and limit is None
    elif op is not None:
        part.form, part.ask, part.op = "value", "derive", op
        part.statistic = _statistic(text) or "mean"
    elif (_WHICH.search(text) or _COMPARATIVE.search(text)) and plural_or_many:
        part.form, part.ask = "which", "rank"
        part.order = "lowest" if _LOWEST.search(text) else "highest"
        part.statistic = _rank_statistic(text, part.order)
    elif _COUNT.search(text):
        part.form, part.ask = "count", "count"
    elif _NAMES.search(text):
        part.form, part.ask = "names", "names"
    else:
        part.form, part.ask = ("yes_no" if yes_no else "value"), "data"
    return part


def read_intent(question: str) -> tuple[Intent, str]:
    """"control" (with the verb phrase), "injection", or "read"; "outside" needs the linking (`outside_topic`)."""
    if _INJECTION.search(question):
        return "injection", ""
    m = _CONTROL.search(question)
    if m:
        return "control", _verb(question[m.start():])
    m = _CONTROL_ANY.search(question)
    if m and not _PAST_FACT.search(question[:m.start()]):
        return "control", _verb(question[m.start():])
    m = _CONTROL_WISH.search(question)
    if m:
        return "control", {"turned": "turn", "switched": "switch", "shut": "shut", "started": "start", "stopped": "stop",
                           "reset": "reset", "restarted": "restart", "changed": "change", "set": "set",
                           "raised": "raise", "lowered": "lower", "opened": "open", "closed": "close",
                           "overridden": "override", "enabled": "enable", "disabled": "disable"}.get(
                               m.group(0).split()[-1].lower(), "operate")
    return "read", ""


def _verb(text: str) -> str:
    m = re.search(r"\b(switch|turn|shut|power|start|stop|restart|reboot|set|change|adjust|raise|lower|increase|decrease|"
                  r"override|reset|open|close|enable|disable|toggle|activate|deactivate|acknowledge|"
                  r"cycle|trip|bump)\b(?:\s+(?:\w+\s+){0,3}?(on|off|down|up)\b)?", text, re.I)
    if not m:
        return ""
    return f"{m.group(1).lower()} {m.group(2).lower()}" if m.group(2) else m.group(1).lower()


def outside_topic(question: str) -> bool:
    """The question is about something no building's data holds (weather, mail, shell, the gateway's files)."""
    return bool(_OUTSIDE.search(question))


def read_question(question: str, many: list[bool] | None = None) -> Reading:
    """The question's intent and parts. `many[i]`: part i names several assets or a kind (see `read_part`)."""
    intent, verb = read_intent(question)
    texts = split_parts(question)
    parts = [read_part(t, plural_or_many=many[i] if many and i < len(many) else True) for i, t in enumerate(texts)]
    return Reading(intent=intent, verb=verb, parts=parts)


_SEVERAL = re.compile(r"\bwhich (?:of|one)\b|\bwhich\s+[\w-]+s\b|\bor\b|\bthan\b|\brank\w*\b|\bcompare\w*\b|"
                      r"\bamong\b|\bevery\b|\ball (?:the )?[\w-]+s\b|\b(?:the|these|those)\s+[\w-]+s\b", re.I)


def asks_conclusion(question: str) -> bool:
    """The question asks for a conclusion (a ranking, a comparison with a limit, a derived series), read from its
    words alone (no catalog): what the examples shown with it should teach."""
    texts = split_parts(question)
    return read_question(question, [bool(_SEVERAL.search(t)) for t in texts]).analysis


_SINGLE_FILE = re.compile(r"\b(?:a\s+single|one|the\s+same|1|single)\s+(?:json\s+|output\s+|combined\s+)?file\b", re.I)


def wants_single_file(question: str) -> bool:
    """The question asks for everything in one file ("in a single file", "in one JSON file")."""
    return bool(_SINGLE_FILE.search(question))
