"""The wire's addresses and the characters it carries: the topics a gateway reads and writes, and what a topic, an
id or a text may hold.

With `B = edge-agent/<gateway_id>`:

* `B/request/<client_id>`   in   a `Request` (new question) or an `Answer` (reply to a `question`)
* `B/cancel/<client_id>`    in   a `Cancel`
* the Response Topic        out  replies (`kind` accepted/progress/question/result/error/cancelled);
  it must lie under `B/response/<client_id>/` (default `B/response/<client_id>/default`)
* `B/response/<client_id>/files/<request_id>/<file_id>/<seq>`  out  raw file chunks
* `B/status`                out  retained `online` / `offline`

`Topics` names them for one gateway and checks a reply topic; `topic_problem` says why a broker would refuse a topic
name, `text_problem` and `first_bad_text` why a string (or any string of a parsed payload) cannot be stored, sent
back and tokenised. The payloads themselves are `protocol.py`.
"""

from __future__ import annotations

import re
from functools import lru_cache
from typing import Any, Literal

REQUEST_ID_RE = re.compile(r"^[A-Za-z0-9_.:-]{1,64}$")
CLIENT_ID_RE = re.compile(r"^[^/+#\x00]{1,128}$")
ON_BEHALF_OF_RE = re.compile(r"^[A-Za-z0-9_.@-]{1,64}$")
DEFAULT_REPLY_LEAF = "default"
MAX_TOPIC_CHARS = 512

# ----------------------------------------------------------------------------- text

#: control characters a question or an answer may not hold (tab, line feed and carriage return may stay): they
#: reach the model, the run log and operators' terminals
_CONTROL = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f]")


def text_problem(value: str) -> str | None:
    """Why `value` cannot be stored, serialised or tokenised (None: it can): a lone surrogate (JSON allows
    "\\ud800", but such a string has no UTF-8 form: SQLite, the JSON encoder and the tokenizer refuse it) or
    a NUL character (C APIs cut the string there)."""
    try:
        value.encode("utf-8")
    except UnicodeEncodeError as exc:
        return (
            f"holds a lone surrogate (U+{ord(value[exc.start]):04X}) at character {exc.start}, which is not "
            f"Unicode text"
        )
    if "\x00" in value:
        return f"holds a NUL character (U+0000) at character {value.index(chr(0))}"
    return None


#: characters Mosquitto (and the MQTT 5 spec, 1.5.4) refuse in a topic name (and in every UTF-8 string of a
#: packet): C0 and C1 controls, U+007F, the noncharacters U+FDD0–U+FDEF and U+xFFFE/U+xFFFF of every plane.
#: Mosquitto closes the connection of a client that publishes on such a topic ("malformed packet")
_TOPIC_REFUSED = re.compile(
    "[\x00-\x1f\x7f-\x9f\ufdd0-\ufdef\ufffe\uffff"
    + "".join(f"{chr(p * 0x10000 + 0xFFFE)}{chr(p * 0x10000 + 0xFFFF)}" for p in range(1, 17))
    + "]"
)
MAX_TOPIC_BYTES = 65535  # an MQTT UTF-8 string's length is two bytes


def topic_problem(topic: str) -> str | None:
    """Why an MQTT broker would refuse `topic` as a PUBLISH topic name (None: it would take it): no text
    (a lone surrogate), a character Mosquitto refuses (controls, noncharacters, NUL), a wildcard, empty, or
    longer than an MQTT string can be."""
    problem = text_problem(topic)
    if problem:
        return problem
    m = _TOPIC_REFUSED.search(topic)
    if m:
        return (
            f"holds U+{ord(m.group(0)):04X} at character {m.start()}, a character MQTT brokers refuse in a "
            f"topic (controls U+0000-001F and U+007F-009F, noncharacters U+FDD0-FDEF and U+xFFFE/U+xFFFF)"
        )
    if not topic:
        return "is empty"
    if "+" in topic or "#" in topic:
        return "holds a wildcard (+ or #), which a topic name may not"
    if len(topic.encode("utf-8")) > MAX_TOPIC_BYTES:
        return f"is longer than an MQTT topic can be ({MAX_TOPIC_BYTES} bytes)"
    return None


def first_bad_text(data: Any) -> tuple[str, str] | None:
    """The first string of a parsed JSON value (object keys included) that `text_problem` refuses, as
    (where, why); None if every string is fine. Iterative, so any nesting JSON allows is walked."""
    stack: list[tuple[str, Any]] = [("", data)]
    while stack:
        where, value = stack.pop()
        if isinstance(value, str):
            problem = text_problem(value)
            if problem:
                return where or "payload", problem
        elif isinstance(value, dict):
            for k, v in reversed(list(value.items())):
                problem = text_problem(k)
                if problem:
                    return f"{where + '.' if where else ''}{ascii(k)}", f"is a field name that {problem}"
                stack.append((f"{where}.{k}" if where else k, v))
        elif isinstance(value, list):
            stack.extend((f"{where}[{i}]", v) for i, v in reversed(list(enumerate(value))))
    return None


def _no_controls(value: str) -> str:
    m = _CONTROL.search(value)
    if m:
        raise ValueError(
            f"holds the control character U+{ord(m.group(0)):04X} at character {m.start()} (only "
            f"tab and line breaks are allowed)"
        )
    return value


# ----------------------------------------------------------------------------- topics


IncomingKind = Literal["request", "cancel", "answer"]  # the topics the daemon reads: B/<kind>/<client_id>
INCOMING_KINDS: dict[str, IncomingKind] = {"request": "request", "cancel": "cancel", "answer": "answer"}


class Topics:
    """Topic names for one gateway (`base` = edge-agent/<gateway_id>)."""

    def __init__(self, gateway_id: str, shared_group: str | None = None, client_id: str = ""):
        self.base = f"edge-agent/{gateway_id}"
        self.shared_group = shared_group
        self.client_id = client_id

    @property
    def request_filter(self) -> str:
        flt = f"{self.base}/request/+"
        return f"$share/{self.shared_group}/{flt}" if self.shared_group else flt

    @property
    def cancel_filter(self) -> str:
        return f"{self.base}/cancel/+"  # never shared: every member must see every cancel

    @property
    def answer_filter(self) -> str:
        return f"{self.base}/answer/+"  # members of a shared group forward answers here

    @property
    def status(self) -> str:
        return f"{self.base}/status/{self.client_id}" if self.shared_group else f"{self.base}/status"

    def request(self, client_id: str) -> str:
        return f"{self.base}/request/{client_id}"

    def cancel(self, client_id: str) -> str:
        return f"{self.base}/cancel/{client_id}"

    def answer(self, client_id: str) -> str:
        return f"{self.base}/answer/{client_id}"

    def response_prefix(self, client_id: str) -> str:
        return f"{self.base}/response/{client_id}/"

    def default_reply(self, client_id: str) -> str:
        return self.response_prefix(client_id) + DEFAULT_REPLY_LEAF

    def files(self, client_id: str, request_id: str, file_id: str) -> str:
        return f"{self.response_prefix(client_id)}files/{request_id}/{file_id}"

    def split(self, topic: str) -> tuple[IncomingKind, str] | None:
        """`B/<kind>/<client_id>` → (kind, client_id) for kind in request/cancel/answer, else None."""
        if not topic.startswith(self.base + "/"):
            return None
        parts = topic[len(self.base) + 1 :].split("/")
        kind = INCOMING_KINDS.get(parts[0])
        if len(parts) != 2 or kind is None:
            return None
        return kind, parts[1]

    def check_reply_topic(self, client_id: str, topic: str | None, field: str = "reply topic") -> str | None:
        """None if `topic` is an allowed reply topic for `client_id`, else the reason it is refused, naming
        `field` (the Response Topic property, or the body's `reply_to`)."""
        if topic is None:
            return None
        prefix = self.response_prefix(client_id)
        if not topic.startswith(prefix) or len(topic) == len(prefix):
            return f"{field}: the reply topic must lie under {prefix} (got {ascii(topic[:120])})"
        if len(topic) > MAX_TOPIC_CHARS:
            return f"{field}: the reply topic may have at most {MAX_TOPIC_CHARS} characters (got {len(topic)})"
        problem = topic_problem(topic)
        if problem:
            return f"{field}: the reply topic {problem}"
        if topic[len(prefix) :].startswith("files/"):
            return f"{field}: {prefix}files/ is reserved for file chunks"
        return None


@lru_cache(maxsize=4096)
def valid_client_id(client_id: str) -> bool:
    """A client id the daemon can answer: one topic level that a broker takes in a topic name (remembered for the
    requesters last seen: it is asked for every message)."""
    return bool(CLIENT_ID_RE.fullmatch(client_id)) and topic_problem(client_id) is None
