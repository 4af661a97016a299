"""The console's two additions to the MQTT API, against a real Mosquitto set up with the shipped ACL:
`on_behalf_of` is kept with the request only from a trusted console (else `invalid_field`), and an answered result
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
