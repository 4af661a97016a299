"""The MQTT wire protocol's payloads: request/answer/cancel, the replies, and their JSON schemas.

The topics they travel on, and the characters a topic, an id or a text may hold, are `topics.py`; reading raw
bytes into a validated message or an `ErrorReply` with a code and a sentence is `incoming.py` (`parse_incoming`).
Every payload is a pydantic model; `export_schemas` writes their JSON schemas to `docs/schemas/`.

Every payload and reply is here, read by a client's author as one specification; `export_schemas` writes
docs/schemas/ from this set.
"""

from __future__ import annotations

import json
from datetime import datetime
from pathlib import Path
from typing import Annotated, Any, Literal

from pydantic import AfterValidator, BaseModel, ConfigDict, Field, StrictBool, StrictInt, field_validator

from edge_agent.agent.trajectory import RunMetrics
from edge_agent.config import Strategy
from edge_agent.grounding.frame import ReadAs
from edge_agent.grounding.provenance import Claim
from edge_agent.mqtt.topics import (
    ON_BEHALF_OF_RE,
    REQUEST_ID_RE,
    _no_controls,
)
from edge_agent.tabular import FileFormat

FilesMode = Literal["chunks", "manifest", "none"]
#: a requester's text (a question, an answer): no control characters but tab and line breaks (`topics._no_controls`)
PlainText = Annotated[str, AfterValidator(_no_controls)]

ErrorCode = Literal[
    "payload_too_large",  # the payload is over mqtt.max_payload_bytes
    "bad_json",  # not UTF-8 JSON, or not a JSON object
    "missing_field",  # a required field is absent
    "unknown_field",  # a top-level field the protocol does not define
    "unknown_option",  # an `options` key the daemon does not know
    "invalid_field",  # a field has the wrong type or an out-of-range value
    "question_empty",  # the question is empty or only whitespace
    "question_too_long",  # the question is over mqtt.max_question_chars
    "bad_response_topic",  # the Response Topic / reply_to is outside B/response/<client_id>/, or holds a
    #   character MQTT brokers refuse in a topic (controls, noncharacters, ...)
    "quota_exceeded",  # the requester already has mqtt.max_queued_per_client jobs queued or running
    "not_delivered",  # a reply could not be delivered (the broker refused it or closed the connection on
    #   it, mqtt.reply_attempts times, or it is over the broker's packet size limit)
    "not_stored",  # the daemon could not store the request (e.g. its disk is full); nothing was queued
    "unknown_request",  # cancel/answer for a request_id this client never sent here
    "no_question_pending",  # an answer arrived while the job is not waiting for one
    "agent_error",  # the agent failed while answering
    "skyspark_unavailable",  # the SkySpark could not be reached (after waiting skyspark.outage_wait_s for it)
    "skyspark_timeout",  # the SkySpark did not answer within skyspark.timeout_s (after waiting for it too)
    "skyspark_auth",  # the SkySpark refused the gateway's login
    "skyspark_tls",  # the TLS connection to the SkySpark failed
    "skyspark_config",  # the SkySpark address, project or api_path is not a Haystack API
    "disk_full",  # the gateway's disk is full (file store, run log or queue database)
    "internal",  # the daemon itself failed while answering (a bug); final
]


class Payload(BaseModel):
    model_config = ConfigDict(extra="forbid")


# ----------------------------------------------------------------------------- incoming


class RequestOptions(Payload):
    """Per-request knobs; unknown keys are refused (code `unknown_option`)."""

    strategy: Strategy | None = Field(None, description="react | react-review | reactxen; default from config")
    # strict types: a JSON "5" or 0 for a number or a flag is a client bug, answered with an error
    max_trials: StrictInt | None = Field(None, ge=1, le=20)
    max_steps: StrictInt | None = Field(None, ge=1, le=100)
    distill: StrictBool | None = None
    now: str | None = Field(None, description="ISO 8601 instant the agent takes as 'now' (reproducible runs)")
    files: FilesMode = Field(
        "chunks", description="chunks: manifest + file chunks; manifest: manifest only; none: no file information"
    )
    ask: StrictBool = Field(False, description="allow the agent to ask the requester one clarifying question")
    format: FileFormat | None = Field(
        None,
        description="the result files' format: csv also writes each data file as CSV (site-local times, the UTC "
        "offset in the header, units in a column; opens in a spreadsheet as it is); default: csv where the question "
        "says CSV, spreadsheet or Excel, else json",
    )
    plots: StrictBool = Field(
        True,
        description="an answered result carries an SVG plot of every series the answer "
        "read (a file in the manifest); false: no plot",
    )

    @field_validator("now")
    @classmethod
    def _iso(cls, v: str | None) -> str | None:
        if v is None:
            return v
        try:
            datetime.fromisoformat(v.strip().replace("Z", "+00:00"))
        except ValueError:
            raise ValueError("must be an ISO 8601 date or date-time such as 2024-06-03T08:00:00") from None
        return v.strip()


class Request(Payload):
    """A question. MQTT v5 clients set Response Topic/Correlation Data; 3.1.1 clients use the body."""

    request_id: str = Field(
        ...,
        pattern=REQUEST_ID_RE.pattern,
        description="chosen by the client, unique per client; a resend gets the same answer",
    )
    question: PlainText = Field(
        ..., description="the question, in plain words (no control characters but tab and line breaks)"
    )
    # a factory, not a default instance that pydantic deep-copies for every request (a third of parsing)
    options: RequestOptions = Field(
        default_factory=RequestOptions, json_schema_extra={"default": RequestOptions().model_dump(mode="json")}
    )
    reply_to: str | None = Field(None, description="3.1.1 clients: the reply topic (v5: Response Topic)")
    correlation: str | None = Field(
        None, max_length=256, description="3.1.1 clients: echoed back in every reply (v5: Correlation Data)"
    )
    on_behalf_of: str | None = Field(
        None,
        pattern=ON_BEHALF_OF_RE.pattern,
        description="the person a console asks for (kept with the request for the "
        "audit trail); honoured only from the broker users listed in "
        "mqtt.trusted_consoles, else refused (invalid_field)",
    )


class Answer(Payload):
    """The requester's reply to a `question` reply; sent to `B/request/<client_id>`."""

    request_id: str = Field(..., pattern=REQUEST_ID_RE.pattern)
    answer: PlainText = Field(..., max_length=4000, description="no control characters but tab and line breaks")
    on_behalf_of: str | None = Field(
        None,
        pattern=ON_BEHALF_OF_RE.pattern,
        description="the person a console answers for (audit trail); trusted consoles only",
    )


class Cancel(Payload):
    """Sent to `B/cancel/<client_id>`: stops that client's queued or running request."""

    request_id: str = Field(..., pattern=REQUEST_ID_RE.pattern)
    on_behalf_of: str | None = Field(
        None,
        pattern=ON_BEHALF_OF_RE.pattern,
        description="the person a console cancels for (audit trail, the cancelled "
        "reply's message); trusted consoles only, else refused",
    )


# ----------------------------------------------------------------------------- replies


class ReplyBase(Payload):
    """What every reply carries; `Reply` is the union of the six kinds, each with its own `kind`."""

    request_id: str | None = None
    reply_id: str = Field("", description="identical on every copy of the same reply (QoS 1 may redeliver)")
    correlation: str | None = Field(None, description="the request body's `correlation`, echoed")


class AcceptedReply(ReplyBase):
    kind: Literal["accepted"] = "accepted"
    state: Literal["queued", "running"] = "queued"
    position: int = Field(..., ge=0, description="jobs that run before this one (0 = next or running)")
    duplicate: bool = Field(False, description="this request_id was already accepted; nothing new was queued")


class ProgressReply(ReplyBase):
    kind: Literal["progress"] = "progress"
    event: Literal["distill", "trial_start", "step", "review", "reflect", "waiting"] = Field(
        "step",
        description="waiting: the job waits for the SkySpark (or for disk space); `text` says what "
        "failed, `until` until when it waits",
    )
    attempt: int = Field(1, description="> 1 when the job resumed after a daemon restart")
    trial: int = 0
    step: int = 0
    thought: str = Field(
        "",
        description="the step's thought; a figure or name in it that no evidence held when it "
        "was written is shown as [unverified]",
    )
    action: str = ""
    action_input: Any = None
    observation: str = ""
    ok: bool = True
    by: Literal["model", "code"] = Field(
        "model",
        description="who wrote the step: the model, or code (a Finish "
        "whose action and answer were left with no choice)",
    )
    text: str = ""
    until: str | None = Field(None, description="event waiting: the time (ISO 8601) until which the job waits")


class QuestionReply(ReplyBase):
    kind: Literal["question"] = "question"
    question: str
    timeout_s: float


class FileEntry(Payload):
    file_id: str
    name: str
    size: int
    sha256: str
    chunks: int = Field(0, description="number of chunks published (0 when files mode is not `chunks`)")
    chunk_bytes: int = 0
    topic: str = Field(
        "",
        description="chunk topic prefix; chunk n is at <topic>/<n> (no Correlation Data: the topic names the request)",
    )


class ResultReply(ReplyBase):
    kind: Literal["result"] = "result"
    status: Literal["answered", "partial", "refused", "gave_up", "cancelled", "error"] = Field(
        description="answered: every part answered from this run's evidence; partial: `answer` says what was "
        "established and what was not; refused: the gateway only reads (operating equipment, "
        "instructions, topics outside the data, forecasts); gave_up: see `reason`"
    )
    answer: str | None = None
    error: str | None = None
    reason: str | None = Field(
        None,
        description="gave_up / partial: why (unverified: no evidence of this run "
        "supports the best answer; not_understood: words of the question the gateway could "
        "not place, named in `error`; ambiguous: equipment named at several sites and no site named, the "
        "choices in `error`; language: the question is not in English, `error` names its language; partial: some "
        "parts could not be established, or a slot nothing settled: see `reading.open`)",
    )
    metrics: RunMetrics = RunMetrics()
    files: list[FileEntry] = Field(default_factory=list)
    run_id: str = ""
    provenance: list[Claim] = Field(
        default_factory=list,
        description="each figure and name of the answer with the step (trial, step, tool) or fact it came from",
    )
    reading: ReadAs | None = Field(
        None,
        description="how the question was read, said back: `line` (the answer's last line, 'Read as: …'), each "
        "part with the call that answered it, its arguments and where each slot came from (words, rule, catalog, "
        "model, open), and `open`: the slots nothing settled (such a run is partial)",
    )


class ErrorReply(ReplyBase):
    kind: Literal["error"] = "error"
    code: ErrorCode
    message: str
    final: bool = Field(
        True,
        description="false when the error concerns a side message (late answer, "
        "cancel of an unknown request) and not the request's outcome",
    )


class CancelledReply(ReplyBase):
    kind: Literal["cancelled"] = "cancelled"
    message: str = Field("cancelled at the requester's request", description="says who cancelled")


Reply = AcceptedReply | ProgressReply | QuestionReply | ResultReply | ErrorReply | CancelledReply
AnyReply = Annotated[Reply, Field(discriminator="kind")]
FINAL_KINDS = frozenset({"result", "error", "cancelled"})


class ReplyEnvelope(BaseModel):
    reply: AnyReply


def parse_reply(data: bytes | str) -> Reply:
    return ReplyEnvelope.model_validate({"reply": json.loads(data)}).reply


def is_final(reply: Reply) -> bool:
    return reply.kind in FINAL_KINDS and (not isinstance(reply, ErrorReply) or reply.final)


# ----------------------------------------------------------------------------- schemas

SCHEMA_MODELS: dict[str, type[BaseModel]] = {
    "request": Request,
    "answer": Answer,
    "cancel": Cancel,
    "reply": ReplyEnvelope,
}


def schemas() -> dict[str, dict[str, Any]]:
    out = {name: model.model_json_schema() for name, model in SCHEMA_MODELS.items() if name != "reply"}
    reply = ReplyEnvelope.model_json_schema()
    defs = reply.get("$defs", {})
    out["reply"] = {
        "title": "Reply",
        "oneOf": reply["properties"]["reply"]["oneOf"],
        "discriminator": reply["properties"]["reply"].get("discriminator"),
        "$defs": defs,
    }
    return out


def export_schemas(folder: Path) -> list[Path]:
    """Write docs/schemas/<name>.json; returns the paths written."""
    folder.mkdir(parents=True, exist_ok=True)
    written = []
    for name, schema in schemas().items():
        path = folder / f"mqtt-{name}.json"
        path.write_text(json.dumps(schema, indent=2, sort_keys=True) + "\n", encoding="utf-8")
        written.append(path)
    return written


if __name__ == "__main__":  # python -m edge_agent.mqtt.protocol  → regenerate docs/schemas
    from edge_agent import PROJECT_ROOT

    for p in export_schemas(PROJECT_ROOT / "docs" / "schemas"):
        print(p)
