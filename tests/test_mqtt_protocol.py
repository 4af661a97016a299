"""The MQTT protocol without a broker: payload validation (hypothesis), topics, schemas, the job queue."""

import json
import string
import unicodedata

import pytest
from hypothesis import HealthCheck, given
from hypothesis import settings as hsettings
from hypothesis import strategies as st

from edge_agent import PROJECT_ROOT
from edge_agent.mqtt.incoming import Limits, parse_incoming
from edge_agent.mqtt.protocol import (
    Answer,
    Cancel,
    ErrorReply,
    Request,
    ResultReply,
    export_schemas,
    parse_reply,
    schemas,
)
from edge_agent.mqtt.queue import JobQueue
from edge_agent.mqtt.topics import Topics

LIMITS = Limits(max_payload_bytes=65536, max_question_chars=4000)
#: every code point of every Unicode category — surrogates (Cs), noncharacters, private use, controls and NUL
#: included (hypothesis' default text leaves surrogates out, which hid a poison message: issue 25) — and the
#: hostile ones often
HOSTILE = [
    "\ud800",
    "\udfff",
    "\udbff\udc00"[::-1],
    "\x00",
    "\ufffe",
    "\uffff",
    "\U0010ffff",
    "\x1b[31m",
    "\x7f",
    "\u0085",
    "\u202e",
    "\ue000",
    "\ufdd0",
]
any_char = st.characters(exclude_categories=())
any_text = st.text(any_char, max_size=40) | st.lists(
    st.sampled_from(HOSTILE) | st.text(any_char, max_size=3), max_size=6
).map("".join)
json_scalars = st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | any_text
json_values = st.recursive(
    json_scalars,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(any_text, inner, max_size=4),
    max_leaves=12,
)
request_ids = st.text(alphabet=string.ascii_letters + string.digits + "_.:-", min_size=1, max_size=64)
option_values = st.fixed_dictionaries(
    {},
    optional={
        "strategy": st.sampled_from(["react", "react-review", "reactxen", "bogus", 3]) | any_text,
        "max_trials": st.integers(-5, 30) | st.text(max_size=3),
        "max_steps": st.integers(-5, 150),
        "now": st.sampled_from(["2024-06-14T10:00:00", "2024-06-14", "yesterday", "2024-13-01"]) | any_text,
        "files": st.sampled_from(["chunks", "manifest", "none", "zip"]),
        "ask": st.booleans() | st.integers(),
        "colour": any_text,
    },
)
request_like = st.fixed_dictionaries(
    {},
    optional={
        "request_id": request_ids | json_scalars,
        "question": st.text(max_size=200) | any_text | json_scalars,
        "options": option_values | json_values,
        "reply_to": any_text,
        "correlation": any_text,
        "answer": any_text,
        "extra": json_values,
    },
)
cancel_like = st.fixed_dictionaries({}, optional={"request_id": request_ids | json_scalars, "extra": json_values})


def strings_of(value):
    """Every string of a parsed JSON value, object keys included."""
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for k, v in value.items():
            yield k
            yield from strings_of(v)
    elif isinstance(value, list):
        for v in value:
            yield from strings_of(v)


def check_outcome(out, payload: bytes) -> None:
    """Every outcome is a validated message or an error with a code and a sentence — never an exception — and
    both can be stored and sent back: every string an accepted message holds is UTF-8 text without NUL (SQLite,
    the JSON encoder and the tokenizer take it); a question or an answer holds no control character but tab and
    line breaks; an error reply always serialises."""
    if isinstance(out, ErrorReply):
        assert out.code and len(out.message) > 10 and out.kind == "error"
        ErrorReply.model_validate_json(out.model_dump_json())
        return
    data = json.loads(payload)
    assert isinstance(out, (Request, Answer, Cancel))
    assert out.request_id == data["request_id"]
    dumped = out.model_dump_json()  # the daemon stores and echoes it
    for text in strings_of(json.loads(dumped)):
        text.encode("utf-8")  # raises on a lone surrogate
        assert "\x00" not in text
    body = out.question if isinstance(out, Request) else getattr(out, "answer", "")
    assert not any(unicodedata.category(c) == "Cc" and c not in "\t\n\r" for c in body)
    if isinstance(out, Request):
        assert out.question.strip() and len(out.question) <= LIMITS.max_question_chars
        assert set(data.get("options", {})) <= set(type(out.options).model_fields)


@hsettings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(request_like)
def test_request_validator_never_raises_and_explains(data):
    payload = json.dumps(data).encode()  # ensure_ascii: a lone surrogate travels as "\ud800", as an attacker sends it
    check_outcome(parse_incoming(payload, "request", LIMITS), payload)
    raw = json.dumps(data, ensure_ascii=False).encode("utf-8", "surrogatepass")  # and as raw (invalid) UTF-8
    check_outcome(parse_incoming(raw, "request", LIMITS), raw)


@hsettings(max_examples=200, deadline=None)
@given(cancel_like)
def test_cancel_validator_never_raises_and_explains(data):
    payload = json.dumps(data).encode()
    out = parse_incoming(payload, "cancel", LIMITS)
    assert isinstance(out, (Cancel, ErrorReply))
    check_outcome(out, payload)


@hsettings(max_examples=200, deadline=None)
@given(st.binary(max_size=300) | json_values.map(lambda v: json.dumps(v).encode()))
def test_arbitrary_bytes_get_an_error_or_a_message(payload):
    out = parse_incoming(payload, "request", LIMITS)
    if not isinstance(out, ErrorReply):
        check_outcome(out, payload)
    cancel = parse_incoming(payload, "cancel", LIMITS)
    assert isinstance(cancel, (Cancel, ErrorReply))
    if isinstance(cancel, ErrorReply):
        cancel.model_dump_json()


def storable(text: str) -> bool:
    """What the daemon will find in the JSON it receives: a surrogate *pair* written as two escapes is read back
    as one valid character (json joins them), a lone surrogate stays one and is refused."""
    text = json.loads(json.dumps(text))
    return "\x00" not in text and not any(0xD800 <= ord(c) <= 0xDFFF for c in text)


@hsettings(max_examples=150, deadline=None)
@given(request_ids, (st.text(min_size=1, max_size=300) | any_text).filter(str.strip), option_values)
def test_valid_requests_round_trip(rid, question, options):
    options = {k: v for k, v in options.items() if k != "colour"}
    payload = json.dumps({"request_id": rid, "question": question, "options": options}).encode()
    out = parse_incoming(payload, "request", LIMITS)
    good = (
        options.get("strategy", "react") in ("react", "react-review", "reactxen")
        and isinstance(options.get("max_trials", 1), int)
        and 1 <= options.get("max_trials", 1) <= 20
        and 1 <= options.get("max_steps", 1) <= 100
        and options.get("now", "2024-06-14") not in ("yesterday", "2024-13-01")
        and _iso(options.get("now", "2024-06-14"))
        and options.get("files", "chunks") != "zip"
        and isinstance(options.get("ask", False), bool)
        and storable(question)
        and all(storable(v) for v in options.values() if isinstance(v, str))
        and not any(unicodedata.category(c) == "Cc" and c not in "\t\n\r" for c in question)
    )
    assert isinstance(out, Request) == good, out
    check_outcome(out, payload)


def _iso(value) -> bool:
    from datetime import datetime

    try:
        datetime.fromisoformat(value.strip().replace("Z", "+00:00"))
        return True
    except (ValueError, AttributeError):
        return False


@hsettings(max_examples=100, deadline=None)
@given(request_ids, any_text.filter(lambda t: t.strip() and storable(t)))
def test_every_accepted_question_survives_the_job_queue(tmp_path_factory, rid, question):
    """What validation accepts, the queue stores and gives back unchanged (the SQLite half of the poison)."""
    payload = json.dumps({"request_id": rid, "question": question}).encode()
    out = parse_incoming(payload, "request", LIMITS)
    if not isinstance(out, Request):
        return
    q = JobQueue(tmp_path_factory.mktemp("q") / "queue.db")
    with q.tx() as conn:
        q.insert(
            conn,
            job_id="j",
            client_id="c",
            request_id=rid,
            question=out.question,
            options=out.options.model_dump(),
            reply_topic="t",
            correlation=None,
            body_correlation=None,
        )
    assert q.get("c", rid).question == out.question
    q.close()


@pytest.mark.parametrize(
    "payload, code",
    [
        (b"\xff\xfe not utf8", "bad_json"),
        (b"{not json", "bad_json"),
        (b"[1, 2]", "bad_json"),
        (b'"just a string"', "bad_json"),
        (b'{"question": "q"}', "missing_field"),
        (b'{"request_id": "r1"}', "missing_field"),
        (b'{"request_id": "r1", "question": 5}', "invalid_field"),
        (b'{"request_id": "r/1", "question": "q"}', "invalid_field"),
        (b'{"request_id": "r1", "question": "   "}', "question_empty"),
        (b'{"request_id": "r1", "question": ""}', "question_empty"),
        (b'{"request_id": "r1", "question": "q", "options": {"temperature": 2}}', "unknown_option"),
        (b'{"request_id": "r1", "question": "q", "options": {"max_trials": "three"}}', "invalid_field"),
        (b'{"request_id": "r1", "question": "q", "priority": 1}', "unknown_field"),
        (json.dumps({"request_id": "r1", "question": "x" * 4001}).encode(), "question_too_long"),
        (json.dumps({"request_id": "r1", "question": "x" * 100_000}).encode(), "payload_too_large"),
    ],
)
def test_bad_payloads_get_codes(payload, code):
    out = parse_incoming(payload, "request", LIMITS)
    assert isinstance(out, ErrorReply) and out.code == code, out
    if code in ("unknown_option",):
        assert "allowed options" in out.message and "strategy" in out.message


def test_answer_and_cancel_are_recognised():
    assert isinstance(parse_incoming(b'{"request_id": "r1", "answer": "POKMAIN"}', "request", LIMITS), Answer)
    assert isinstance(parse_incoming(b'{"request_id": "r1"}', "cancel", LIMITS), Cancel)
    bad = parse_incoming(b'{"request_id": "r1", "why": 1}', "cancel", LIMITS)
    assert isinstance(bad, ErrorReply) and not bad.final


def test_reply_topics_are_confined_to_the_clients_subtree():
    t = Topics("gw1")
    assert t.check_reply_topic("c1", "edge-agent/gw1/response/c1/replies") is None
    for bad in [
        "edge-agent/gw1/response/c2/replies",
        "edge-agent/gw1/response/c1/",
        "edge-agent/gw1/status",
        "edge-agent/gw1/response/c1/files/x/0/0",
        "edge-agent/gw1/response/c1x/r",
        "elsewhere",
        "edge-agent/gw1/response/c1/" + "a" * 600,
    ]:
        assert t.check_reply_topic("c1", bad), bad
    assert t.split("edge-agent/gw1/request/c1") == ("request", "c1")
    assert t.split("edge-agent/gw1/request/c1/x") is None
    assert Topics("gw1", shared_group="g").request_filter == "$share/g/edge-agent/gw1/request/+"


def test_reply_parsing_round_trip():
    r = ResultReply(request_id="r1", status="answered", answer="3 chillers", reply_id="j.final")
    assert parse_reply(r.model_dump_json()) == r


def test_schemas_in_docs_are_current(tmp_path):
    """docs/schemas/*.json are generated from the models (python -m edge_agent.mqtt.protocol)."""
    export_schemas(tmp_path)
    for path in sorted(tmp_path.iterdir()):
        committed = PROJECT_ROOT / "docs" / "schemas" / path.name
        assert committed.exists() and committed.read_text() == path.read_text(), (
            f"{committed} is stale: run python -m edge_agent.mqtt.protocol"
        )
    assert schemas()["request"]["additionalProperties"] is False


def test_queue_refuses_a_second_job_for_one_request_id_and_requeues_interrupted(tmp_path):
    import sqlite3

    q = JobQueue(tmp_path / "q.db")
    kw = dict(
        client_id="c1",
        request_id="r1",
        question="q",
        options={},
        reply_topic="t",
        correlation=None,
        body_correlation=None,
    )
    with q.tx() as conn:
        q.insert(conn, job_id="j1", **kw)
    with pytest.raises(sqlite3.IntegrityError):
        with q.tx() as conn:
            q.insert(conn, job_id="j2", **kw)
    assert [j.job_id for j in q.jobs()] == ["j1"]
    q.mark_running("j1")
    q.close()
    q = JobQueue(tmp_path / "q.db")  # "after a crash"
    assert q.requeue_interrupted() == 1
    job = q.next_queued()
    assert job.job_id == "j1" and job.attempts == 1


# ----------------------------------------------------------------------------- issue 30

#: one character of every class Mosquitto refuses in a topic name (utf8_mosq.c): C0 controls and NUL, DEL and C1
#: controls, the noncharacters U+FDD0-FDEF and U+xFFFE/U+xFFFF of every plane
TOPIC_REFUSED = [
    "\x00",
    "\x01",
    "\x1f",
    "\x7f",
    "\x85",
    "\x9f",
    "\ufdd0",
    "\ufdef",
    "\ufffe",
    "\uffff",
    "\U0001fffe",
    "\U0001ffff",
    "\U0010fffe",
    "\U0010ffff",
]


@pytest.mark.parametrize("ch", TOPIC_REFUSED + ["\ud800"])
def test_a_reply_topic_mosquitto_would_refuse_is_refused_naming_the_field(ch):
    t = Topics("gw1")
    for field in ("reply_to", "Response Topic (MQTT property)"):
        why = t.check_reply_topic("c1", f"edge-agent/gw1/response/c1/a{ch}b", field)
        assert why and why.startswith(f"{field}: the reply topic "), why
        assert f"U+{ord(ch):04X}" in why


@pytest.mark.parametrize("ok", ["é", "中文", "\U0001f600", "\u202e", "\ue000", "\ufffd", "\ufdcf", "\ufdf0", "a b"])
def test_characters_mosquitto_takes_stay_allowed_in_a_reply_topic(ok):
    assert Topics("gw1").check_reply_topic("c1", f"edge-agent/gw1/response/c1/{ok}") is None


@given(st.text(st.characters(exclude_categories=()), max_size=12))
@hsettings(max_examples=400, deadline=None)
def test_topic_problem_agrees_with_mosquittos_rule(text):
    from edge_agent.mqtt.topics import topic_problem

    def refused(c: str) -> bool:
        p = ord(c)
        return (
            p <= 0x1F
            or 0x7F <= p <= 0x9F
            or 0xFDD0 <= p <= 0xFDEF
            or (p & 0xFFFF) in (0xFFFE, 0xFFFF)
            or 0xD800 <= p <= 0xDFFF
        )

    topic = "a/" + text
    expect_bad = any(refused(c) for c in topic) or "+" in topic or "#" in topic
    assert (topic_problem(topic) is not None) == expect_bad


def test_a_client_id_a_broker_would_refuse_in_a_topic_is_not_answered():
    from edge_agent.mqtt.topics import valid_client_id

    assert valid_client_id("scada-1") and not valid_client_id("a\x01") and not valid_client_id("b\ufffe")


@pytest.mark.parametrize(
    "payload,field",
    [
        (b'{"request_id": "r1", "question": "\\ud800", "question": "ok"}', "question"),
        (b'{"request_id": "r1", "request_id": "r2", "question": "q"}', "request_id"),
        (b'{"request_id": "r1", "question": "q", "options": {"files": "none", "files": "chunks"}}', "files"),
    ],
)
def test_a_field_named_twice_is_refused_not_last_wins(payload, field):
    out = parse_incoming(payload, "request", LIMITS)
    assert isinstance(out, ErrorReply) and out.code == "invalid_field" and out.message.startswith(f"{field}: ")
    assert out.request_id == "r1" and "twice" in out.message


def test_payload_too_large_carries_the_request_id():
    out = parse_incoming(json.dumps({"request_id": "big-1", "question": "x" * 100_000}).encode(), "request", LIMITS)
    assert isinstance(out, ErrorReply) and out.code == "payload_too_large" and out.request_id == "big-1"
    out = parse_incoming(b"\xff" * 70_000, "request", LIMITS)  # nothing to find: null, as for any unreadable payload
    assert out.code == "payload_too_large" and out.request_id is None


def test_the_packet_size_counts_topic_correlation_data_and_payload():
    """publish_packet_size against the bytes paho actually writes for a PUBLISH with Correlation Data."""
    import paho.mqtt.client as mqtt
    from paho.mqtt.enums import CallbackAPIVersion

    from edge_agent.mqtt.packets import correlation_props, publish_packet_size

    client = mqtt.Client(CallbackAPIVersion.VERSION2, client_id="x", protocol=mqtt.MQTTv5)
    sent = []
    client._packet_queue = lambda command, packet, mid, qos, info=None: sent.append(bytes(packet))
    client._state = mqtt._ConnectionState.MQTT_CS_CONNECTED
    client._sock = type("Sock", (), {"close": lambda self: None})()
    for topic, payload, corr in [
        ("a/b", b"x", None),
        ("edge-agent/gw1/response/c1/files/r/0/12", b"y" * 70000, b"C" * 65000),
        ("t/é", b"", b"c"),
    ]:
        sent.clear()
        client.publish(topic, payload, qos=1, properties=correlation_props(corr))
        assert len(sent[0]) == publish_packet_size(topic, payload, corr), topic
    client._sock = None
