"""The MQTT protocol without a broker: payload validation (hypothesis), topics, schemas, the job queue."""

import json
import string

import pytest
from hypothesis import HealthCheck, given, settings as hsettings, strategies as st

from edge_agent import PROJECT_ROOT
from edge_agent.mqtt.protocol import (
    Answer, Cancel, ErrorReply, Limits, Request, ResultReply, Topics, export_schemas, parse_incoming, parse_reply,
    schemas,
)
from edge_agent.mqtt.queue import JobQueue

LIMITS = Limits(max_payload_bytes=65536, max_question_chars=4000)
json_scalars = st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=20)
json_values = st.recursive(json_scalars, lambda inner: st.lists(inner, max_size=4) |
                           st.dictionaries(st.text(max_size=10), inner, max_size=4), max_leaves=12)
request_ids = st.text(alphabet=string.ascii_letters + string.digits + "_.:-", min_size=1, max_size=64)
option_values = st.fixed_dictionaries({}, optional={
    "strategy": st.sampled_from(["react", "react-review", "reactxen", "bogus", 3]),
    "max_trials": st.integers(-5, 30) | st.text(max_size=3),
    "max_steps": st.integers(-5, 150),
    "now": st.sampled_from(["2024-06-14T10:00:00", "2024-06-14", "yesterday", "2024-13-01"]),
    "files": st.sampled_from(["chunks", "manifest", "none", "zip"]),
    "ask": st.booleans() | st.integers(),
    "colour": st.text(max_size=5),
})
request_like = st.fixed_dictionaries({}, optional={
    "request_id": request_ids | json_scalars,
    "question": st.text(max_size=200) | json_scalars,
    "options": option_values | json_values,
    "reply_to": st.text(max_size=40),
    "answer": st.text(max_size=20),
    "extra": json_values,
})


def check_outcome(out, payload: bytes) -> None:
    """Every outcome is a validated message or an error with a code and a sentence — never an exception."""
    if isinstance(out, ErrorReply):
        assert out.code and len(out.message) > 10 and out.kind == "error"
        ErrorReply.model_validate_json(out.model_dump_json())
        return
    data = json.loads(payload)
    assert isinstance(out, (Request, Answer))
    assert out.request_id == data["request_id"]
    if isinstance(out, Request):
        assert out.question.strip() and len(out.question) <= LIMITS.max_question_chars
        assert set(data.get("options", {})) <= set(type(out.options).model_fields)


@hsettings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(request_like)
def test_request_validator_never_raises_and_explains(data):
    payload = json.dumps(data).encode()
    check_outcome(parse_incoming(payload, "request", LIMITS), payload)


@hsettings(max_examples=200, deadline=None)
@given(st.binary(max_size=300) | json_values.map(lambda v: json.dumps(v).encode()))
def test_arbitrary_bytes_get_an_error_or_a_message(payload):
    out = parse_incoming(payload, "request", LIMITS)
    if not isinstance(out, ErrorReply):
        check_outcome(out, payload)
    cancel = parse_incoming(payload, "cancel", LIMITS)
    assert isinstance(cancel, (Cancel, ErrorReply))


@hsettings(max_examples=100, deadline=None)
@given(request_ids, st.text(min_size=1, max_size=300).filter(str.strip), option_values)
def test_valid_requests_round_trip(rid, question, options):
    options = {k: v for k, v in options.items() if k != "colour"}
    payload = json.dumps({"request_id": rid, "question": question, "options": options}).encode()
    out = parse_incoming(payload, "request", LIMITS)
    good = (options.get("strategy", "react") in ("react", "react-review", "reactxen")
            and isinstance(options.get("max_trials", 1), int) and 1 <= options.get("max_trials", 1) <= 20
            and 1 <= options.get("max_steps", 1) <= 100 and options.get("now", "2024-06-14") not in ("yesterday", "2024-13-01")
            and options.get("files", "chunks") != "zip" and isinstance(options.get("ask", False), bool))
    assert isinstance(out, Request) == good, out


@pytest.mark.parametrize("payload, code", [
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
])
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
    for bad in ["edge-agent/gw1/response/c2/replies", "edge-agent/gw1/response/c1/", "edge-agent/gw1/status",
                "edge-agent/gw1/response/c1/files/x/0/0", "edge-agent/gw1/response/c1x/r", "elsewhere",
                "edge-agent/gw1/response/c1/" + "a" * 600]:
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
        assert committed.exists() and committed.read_text() == path.read_text(), \
            f"{committed} is stale: run python -m edge_agent.mqtt.protocol"
    assert schemas()["request"]["additionalProperties"] is False


def test_queue_refuses_a_second_job_for_one_request_id_and_requeues_interrupted(tmp_path):
    import sqlite3

    q = JobQueue(tmp_path / "q.db")
    kw = dict(client_id="c1", request_id="r1", question="q", options={}, reply_topic="t", correlation=None,
              body_correlation=None)
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
