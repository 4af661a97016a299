"""The console's two additions to the MQTT API, against a real Mosquitto set up with the shipped ACL:
`on_behalf_of` is kept with the request only from a trusted console (else `invalid_field`), a request refused before
it is queued (too long, not JSON, over the quota) is that person's in the audit only from a trusted console, and an
answered result
carries an SVG plot of the series it read (`options.plots`, default on; false: none)."""

from __future__ import annotations

import hashlib

import pytest

from edge_agent.mqtt.protocol import ErrorReply, ResultReply
from tests.plugins.mqtt import DAEMON_USER, as_user

pytestmark = pytest.mark.broker

CONSOLE = "edge-agent-console"


@pytest.fixture
def gateway(tmp_path, secured_broker):
    from edge_agent.mqtt.runner import ScriptRunner
    from edge_agent.mqtt.service import GatewayService

    broker = secured_broker([CONSOLE, "alice-tool"])
    settings = as_user(tmp_path / "daemon", broker, DAEMON_USER, trusted_consoles=[CONSOLE])
    svc = GatewayService(settings, ScriptRunner(settings))
    svc.start()
    assert svc.connected.wait(10)
    yield broker, svc
    svc.stop(timeout=5)


def _client(tmp_path, broker, user):
    from edge_agent.mqtt.client import RequestClient

    return RequestClient(as_user(tmp_path, broker, user)).connect()


def test_on_behalf_of_is_kept_from_the_trusted_console_and_refused_from_anyone_else(tmp_path, gateway):
    broker, svc = gateway
    with _client(tmp_path, broker, CONSOLE) as console:
        rid = console.send("count chillers [steps=1 delay=0]", on_behalf_of="maria")
        final = console.wait(rid, timeout=20).final
    assert isinstance(final, ResultReply) and final.status == "answered"
    assert svc.jobs.get(CONSOLE, rid).on_behalf_of == "maria"
    with _client(tmp_path, broker, "alice-tool") as other:
        rid = other.send("count chillers [steps=1 delay=0]", on_behalf_of="maria")
        final = other.wait(rid, timeout=20).final
    assert isinstance(final, ErrorReply) and final.code == "invalid_field" and "trusted_consoles" in final.message
    assert svc.jobs.get("alice-tool", rid) is None  # nothing was queued


def _audit_rows(svc, who: str, n: int, timeout: float = 10.0) -> list[dict]:
    """The audit rows `--who who` finds, once there are `n` of them."""
    import sqlite3
    import time

    from edge_agent.fleet import audit

    deadline = time.monotonic() + timeout
    while True:
        conn = sqlite3.connect(svc.settings.state_dir / "queue.db")
        try:
            rows = [dict(r) for r in audit.query(conn, who=who)]
        finally:
            conn.close()
        if len(rows) >= n or time.monotonic() > deadline:
            return rows
        time.sleep(0.1)


def test_a_refused_request_is_the_consoles_person_in_the_audit_and_from_anyone_else_its_sender(tmp_path, gateway):
    """Refused before it is queued (too long, not JSON): from the trusted console the audit row names
    `console:<user>` from its `on_behalf_of`; the same field from another requester is ignored."""
    broker, svc = gateway
    too_long = "z" * (svc.settings.mqtt.max_question_chars + 1)
    not_json = b'{"request_id": "r-cut", "on_behalf_of": "alice", "question": "count chil'
    with _client(tmp_path, broker, CONSOLE) as console:
        rid = console.send(too_long, on_behalf_of="alice")
        final = console.wait(rid, timeout=20).final
        assert isinstance(final, ErrorReply) and final.code == "question_too_long"
        console.send_raw(not_json)
        rows = _audit_rows(svc, "console:alice", 2)
    assert [(r["request_id"], r["who"], r["on_behalf_of"], r["outcome"]) for r in rows] == [
        (rid, "console:alice", "alice", "refused: question_too_long"),
        (None, "console:alice", "alice", "refused: bad_json"),
    ], rows
    assert all(r["detail"].startswith(f"via {CONSOLE}: ") for r in rows)
    with _client(tmp_path, broker, "alice-tool") as other:
        rid2 = other.send(too_long, on_behalf_of="alice")
        final = other.wait(rid2, timeout=20).final
        assert isinstance(final, ErrorReply) and final.code == "question_too_long"
        other.send_raw(not_json)
        rows = _audit_rows(svc, "alice-tool", 2)
    assert [(r["request_id"], r["who"], r["on_behalf_of"], r["outcome"]) for r in rows] == [
        (rid2, "alice-tool", None, "refused: question_too_long"),
        (None, "alice-tool", None, "refused: bad_json"),
    ], rows
    assert not any(r["detail"].startswith("via ") for r in rows)
    assert len(_audit_rows(svc, "console:alice", 2)) == 2  # nothing more under her name


def test_a_request_over_the_consoles_quota_is_the_persons_in_the_audit(tmp_path, gateway):
    broker, svc = gateway
    svc.m.max_queued_per_client = 1  # read at each request
    with _client(tmp_path, broker, CONSOLE) as console:
        held = console.send("hold the worker [steps=1 delay=30]", on_behalf_of="bob")
        assert console.wait_for(lambda: any(r.kind == "accepted" for r in console.replies(held)), 10)
        rid = console.send("count chillers [steps=1 delay=0]", on_behalf_of="alice")
        final = console.wait(rid, timeout=20).final
        assert isinstance(final, ErrorReply) and final.code == "quota_exceeded"
        console.cancel(held)
    rows = _audit_rows(svc, "alice", 1)
    assert [(r["request_id"], r["who"], r["on_behalf_of"], r["outcome"], r["detail"]) for r in rows] == [
        (rid, "console:alice", "alice", "refused: quota_exceeded", f"via {CONSOLE}")
    ], rows


def test_a_result_carries_an_svg_plot_of_the_series_unless_plots_is_false(tmp_path, gateway):
    broker, _ = gateway
    with _client(tmp_path, broker, "alice-tool") as client:
        rid = client.send("supply temp of chiller 3 [steps=1 delay=0 history=96]")
        out = client.wait(rid, timeout=20, out_dir=tmp_path / "out")
        names = [f.name for f in out.final.files]
        plot = next(f for f in out.final.files if f.name.endswith(".svg"))
        svg = (tmp_path / "out" / plot.name).read_bytes()
        assert hashlib.sha256(svg).hexdigest() == plot.sha256
        text = svg.decode()
        assert text.lstrip().startswith("<?xml") and "<svg" in text
        assert "Chiller 3 / Supply Temp" in text and "°F" in text and "37.5" in text  # the stated figure, marked
        assert "UTC-04:00" in text  # site time on x
        assert len(names) == 2
        rid = client.send("supply temp of chiller 3 [steps=1 delay=0 history=96]", options={"plots": False})
        out = client.wait(rid, timeout=20)
        assert [f.name for f in out.final.files if f.name.endswith(".svg")] == []
