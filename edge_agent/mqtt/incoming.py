"""What arrives, read: a raw payload turned into a validated `Request`, `Answer` or `Cancel`, or into the
`ErrorReply` that refuses it (`parse_incoming`, which never raises), under the daemon's `Limits`.

JSON is read strictly (`loads_strict`: an object naming a field twice is refused, `DuplicateKey`), and a payload
that cannot be read at all is still peeked at for what its refusal needs: the `request_id` it names
(`peek_request_id`), its `reply_to`, and the `on_behalf_of` a trusted console gave. The payloads themselves are
`protocol.py`, the topics and the characters a text may hold `topics.py`.
"""

from __future__ import annotations

import json
import re
from typing import Any

from pydantic import BaseModel, ValidationError

from edge_agent.mqtt.protocol import Answer, Cancel, ErrorCode, ErrorReply, Request, RequestOptions
from edge_agent.mqtt.topics import ON_BEHALF_OF_RE, REQUEST_ID_RE, IncomingKind, first_bad_text, text_problem


class DuplicateKey(ValueError):
    """A JSON object names one field twice (JSON parsers disagree on which copy wins: refused)."""


def _no_duplicates(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for key, value in pairs:
        if key in out:
            raise DuplicateKey(key)
        out[key] = value
    return out


_STRICT = json.JSONDecoder(object_pairs_hook=_no_duplicates)  # one decoder (json.loads makes one a call)


def loads_strict(data: bytes | str) -> Any:
    """`json.loads` that refuses an object naming a field twice (`DuplicateKey`) instead of keeping the last."""
    if not isinstance(data, str):
        return json.loads(data, object_pairs_hook=_no_duplicates)  # bytes: json.loads finds their encoding
    if data.startswith("\ufeff"):
        raise json.JSONDecodeError("Unexpected UTF-8 BOM (decode using utf-8-sig)", data, 0)  # as json.loads
    return _STRICT.decode(data)


_PEEK_REQUEST_ID = re.compile(rb'"request_id"\s*:\s*"([A-Za-z0-9_.:-]{1,64})"')


def peek_request_id(payload: bytes) -> str | None:
    """The request_id a payload names, found without parsing it (a payload too large to parse, or not JSON):
    so even the error about such a payload carries the id the requester gave."""
    m = _PEEK_REQUEST_ID.search(bytes(payload[:1_000_000]))
    return m.group(1).decode() if m else None


def _peek_request_id(payload: bytes) -> str | None:
    """The payload's request_id where it is a valid one (for error replies about a message that failed)."""
    try:
        rid = json.loads(payload).get("request_id")
    except Exception:
        return None
    return rid if isinstance(rid, str) and REQUEST_ID_RE.fullmatch(rid) else None


def _peek_reply_to(payload: bytes) -> str | None:
    try:
        data = json.loads(payload)
    except Exception:
        return None
    value = data.get("reply_to") if isinstance(data, dict) else None
    return value if isinstance(value, str) else None


_PEEK_ON_BEHALF_OF = re.compile(rb'"on_behalf_of"\s*:\s*"([A-Za-z0-9_.@-]{1,64})"')


def _peek_on_behalf_of(payload: bytes, max_bytes: int) -> str | None:
    """The person a refused message names in `on_behalf_of`, where it is a valid name: read as JSON (a question
    too long, a field out of range), else found in the bytes (a payload too large to parse, or not JSON). The
    caller asks only for a trusted console's messages: from anyone else the field is never read."""
    if len(payload) <= max_bytes:
        try:
            data = json.loads(payload)
        except Exception:
            pass  # not JSON: looked for in the bytes below
        else:
            value = data.get("on_behalf_of") if isinstance(data, dict) else None
            return value if isinstance(value, str) and ON_BEHALF_OF_RE.fullmatch(value) else None
    m = _PEEK_ON_BEHALF_OF.search(bytes(payload[:1_000_000]))
    return m.group(1).decode() if m else None


class Limits(BaseModel):
    max_payload_bytes: int = 65536
    max_question_chars: int = 4000


def _error(
    code: ErrorCode, message: str, request_id: str | None = None, final: bool = True, correlation: str | None = None
) -> ErrorReply:
    return ErrorReply(
        code=code,
        message=message,
        request_id=request_id,
        final=final,
        correlation=correlation,
    )


def _explain(exc: ValidationError, model: type[BaseModel]) -> tuple[ErrorCode, str]:
    """The first validation problem as (code, sentence)."""
    err = exc.errors()[0]
    loc = [str(p) for p in err["loc"]]
    where = ".".join(loc) or "payload"
    if err["type"] == "missing":
        return "missing_field", f"the field {where!r} is required"
    if err["type"] == "extra_forbidden":
        if loc[0] == "options" and len(loc) == 2:
            allowed = ", ".join(RequestOptions.model_fields)
            return "unknown_option", f"unknown option {loc[1]!r}; allowed options: {allowed}"
        allowed = ", ".join(model.model_fields)
        return "unknown_field", f"unknown field {where!r}; allowed fields: {allowed}"
    msg = err["msg"].removeprefix("Value error, ")
    if where == "request_id" and err["type"] == "string_pattern_mismatch":
        msg = "must be 1-64 characters of letters, digits, '_', '.', ':' or '-'"
    return "invalid_field", f"{where}: {msg}"


Incoming = Request | Answer | Cancel


def parse_incoming(
    payload: bytes,
    kind: IncomingKind,
    limits: Limits,
) -> Incoming | ErrorReply:
    """Validate one incoming payload. Never raises: bad input becomes an `ErrorReply`."""
    if len(payload) > limits.max_payload_bytes:
        return _error(
            "payload_too_large",
            f"the payload is {len(payload)} bytes; the limit is {limits.max_payload_bytes} bytes",
            peek_request_id(payload),
            final=kind == "request",
        )
    try:
        data = loads_strict(payload.decode("utf-8"))
    except DuplicateKey as exc:
        return _error(
            "invalid_field",
            f"{ascii(str(exc))[1:-1]}: the field appears twice in one object (send each field once)",
            peek_request_id(payload),
            final=kind == "request",
        )
    except (UnicodeDecodeError, ValueError, RecursionError):
        return _error(
            "bad_json",
            'the payload is not UTF-8 JSON; send a JSON object such as {"request_id": "r1", "question": "..."}',
        )
    if not isinstance(data, dict):
        return _error("bad_json", f"the payload must be a JSON object, not {type(data).__name__}")
    rid = data.get("request_id")
    rid = rid if isinstance(rid, str) and REQUEST_ID_RE.fullmatch(rid) else None
    corr = data.get("correlation")
    corr = corr if isinstance(corr, str) and len(corr) <= 256 and text_problem(corr) is None else None
    if kind == "cancel":
        model: type[Request] | type[Answer] | type[Cancel] = Cancel
    elif kind == "answer" or ("answer" in data and "question" not in data):
        model = Answer
    else:
        model = Request
    # every string an accepted message holds can be stored, sent back and tokenised: only a \u escape can give a
    # string a lone surrogate or a NUL (the payload is strict UTF-8, and JSON refuses raw controls in a string)
    bad = first_bad_text(data) if b"\\u" in payload else None
    if bad is not None:
        return _error("invalid_field", f"{bad[0]}: {bad[1]}", rid, final=model is Request, correlation=corr)
    try:
        msg = model.model_validate(data)
    except ValidationError as exc:
        code, sentence = _explain(exc, model)
        return _error(code, sentence, rid, final=model is Request, correlation=corr)
    if isinstance(msg, Request):
        if not msg.question.strip():
            return _error("question_empty", "the question is empty", msg.request_id, correlation=corr)
        if len(msg.question) > limits.max_question_chars:
            return _error(
                "question_too_long",
                f"the question has {len(msg.question)} characters; the limit is {limits.max_question_chars}",
                msg.request_id,
                correlation=corr,
            )
    return msg
