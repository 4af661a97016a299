"""A reply as the broker will see it: the size of its MQTT 5 PUBLISH packet (`publish_packet_size`: what the
broker's Maximum Packet Size counts), why a broker would refuse to take an outbox row at all (`row_problem`: a topic it
refuses, a packet over its limit), and the PUBLISH properties that carry a request's Correlation Data
(`correlation_props`). The outbox (outbox.py), the worker's file chunks (replies.py) and the service's direct
publishes size their packets with these.
"""

from __future__ import annotations

from paho.mqtt.packettypes import PacketTypes
from paho.mqtt.properties import Properties

from edge_agent.mqtt.records import OutboxRow
from edge_agent.mqtt.topics import topic_problem


def _varint_len(n: int) -> int:
    return 1 if n < 128 else 2 if n < 16384 else 3 if n < 2097152 else 4


def publish_packet_size(topic: str, payload: bytes, correlation: bytes | None = None, *, qos: int = 1) -> int:
    """The bytes of the MQTT 5 PUBLISH packet paho sends for this reply: fixed header, topic, packet id,
    properties (Correlation Data: identifier, length, data) and payload — what the broker's Maximum Packet
    Size counts."""
    props = 3 + len(correlation) if correlation else 0
    remaining = (
        2 + len(topic.encode("utf-8", "surrogatepass")) + (2 if qos else 0) + _varint_len(props) + props + len(payload)
    )
    return 1 + _varint_len(remaining) + remaining


def row_problem(row: OutboxRow, max_packet: int) -> str | None:
    """Why the broker would refuse to take `row` (None: it would): a topic it refuses, or a packet over its limit."""
    problem = topic_problem(row.topic)
    if problem:
        return f"its topic {problem}"
    size = publish_packet_size(row.topic, row.payload, row.correlation)
    if size > max_packet:
        return (
            f"as an MQTT packet it is {size} bytes (topic, Correlation Data {len(row.correlation or b'')} "
            f"bytes, payload {len(row.payload)} bytes), over the broker's maximum packet size {max_packet}"
        )
    return None


def correlation_props(correlation: bytes | None) -> Properties | None:
    """PUBLISH properties carrying a request's MQTT v5 Correlation Data (None when it has none)."""
    if not correlation:
        return None
    props = Properties(PacketTypes.PUBLISH)
    props.CorrelationData = correlation
    return props
