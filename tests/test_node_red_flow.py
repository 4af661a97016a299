"""docs/examples/node-red-flow.json is a flow Node-RED's import accepts: a JSON array of nodes with unique ids,
node types from Node-RED's core palette only, wires and config references that resolve, MQTT v5 to the gateway's
topics (Response Topic + Correlation Data on the request)."""

import json

from edge_agent import PROJECT_ROOT
from edge_agent.mqtt.topics import Topics

FLOW = PROJECT_ROOT / "docs" / "examples" / "node-red-flow.json"
#: Node-RED 3.x/4.x core nodes (packages/node_modules/@node-red/nodes/core) and the flow tab
CORE = {
    "tab",
    "comment",
    "inject",
    "debug",
    "complete",
    "catch",
    "status",
    "link in",
    "link out",
    "link call",
    "function",
    "switch",
    "change",
    "range",
    "template",
    "delay",
    "trigger",
    "exec",
    "filter",
    "split",
    "join",
    "sort",
    "batch",
    "csv",
    "html",
    "json",
    "xml",
    "yaml",
    "file",
    "file in",
    "watch",
    "mqtt in",
    "mqtt out",
    "mqtt-broker",
    "http in",
    "http response",
    "http request",
    "websocket in",
    "websocket out",
    "websocket-listener",
    "websocket-client",
    "tcp in",
    "tcp out",
    "tcp request",
    "udp in",
    "udp out",
    "tls-config",
    "http proxy",
    "junction",
    "group",
}


def test_the_flow_is_importable_and_uses_only_core_nodes():
    nodes = json.loads(FLOW.read_text())
    assert isinstance(nodes, list) and nodes
    ids = [node["id"] for node in nodes]
    assert len(ids) == len(set(ids))
    assert {node["type"] for node in nodes} <= CORE, {node["type"] for node in nodes} - CORE
    tabs = {node["id"] for node in nodes if node["type"] == "tab"}
    by_id = {node["id"]: node for node in nodes}
    for node in nodes:
        if node["type"] in ("tab", "mqtt-broker"):
            continue
        assert node["z"] in tabs, node
        for port in node.get("wires", []):
            assert all(target in by_id for target in port), node
        if node["type"] in ("mqtt in", "mqtt out"):
            assert by_id[node["broker"]]["type"] == "mqtt-broker"
        if node["type"] == "switch":
            assert len(node["wires"]) == len(node["rules"]) == node["outputs"]
        if node["type"] == "function":
            assert len(node["wires"]) == node["outputs"]
    (broker,) = [node for node in nodes if node["type"] == "mqtt-broker"]
    assert broker["protocolVersion"] == "5" and broker["cleansession"] is False  # a session that outlives restarts


def test_the_flow_speaks_the_gateways_topics():
    nodes = json.loads(FLOW.read_text())
    client = "nodered-1"
    topics = Topics("gw1")
    subscribed = {node["topic"] for node in nodes if node["type"] == "mqtt in"}
    assert all(t.startswith(topics.response_prefix(client)) for t in subscribed)
    build = next(node for node in nodes if node.get("name") == "build request")["func"]
    assert f"'{topics.request(client)}'" in build and "msg.responseTopic" in build and "msg.correlationData" in build
    cancel = next(node for node in nodes if node.get("name") == "build cancel")["func"]
    assert f"'{topics.cancel(client)}'" in cancel
