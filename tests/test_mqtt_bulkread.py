"""The bulk reader (edge_agent/mqtt/bulkread.py) reads what paho's own reader reads: the same messages, in the same
order, with the same properties, however the bytes arrive; what it does not decode itself goes to paho's handler."""

from __future__ import annotations

import struct

import paho.mqtt.client as mqtt
from hypothesis import given, settings
from hypothesis import strategies as st
from paho.mqtt import _packet
from paho.mqtt.enums import CallbackAPIVersion, MQTTErrorCode, MQTTProtocolVersion
from paho.mqtt.packettypes import PacketTypes
from paho.mqtt.properties import Properties

from edge_agent.mqtt.bulkread import BULK_READ, BulkReadClient, decode_publish


def _vbi(n: int) -> bytes:
    out = bytearray()
    while True:
        digit, n = n % 128, n // 128
        out.append(digit | (0x80 if n else 0))
        if not n:
            return bytes(out)


def publish_packet(topic: bytes, payload: bytes, props: Properties | None, *, qos: int = 1, mid: int = 7) -> bytes:
    """A whole MQTT v5 PUBLISH packet (fixed header included), written as a broker writes it."""
    body = struct.pack("!H", len(topic)) + topic + (struct.pack("!H", mid) if qos else b"")
    body += bytes(props.pack()) if props is not None else b"\x00"
    body += payload
    return bytes([0x30 | (qos << 1)]) + _vbi(len(body)) + body


def _split(packet: bytes) -> tuple[int, bytes]:
    """A whole packet as (its command byte, its body after the remaining length)."""
    at = 1
    while packet[at] & 0x80:
        at += 1
    return packet[0], packet[at + 1 :]


def _props(**values) -> Properties:
    props = Properties(PacketTypes.PUBLISH)
    for name, value in values.items():
        setattr(props, name, value)
    return props


PROPERTY_VALUES = st.fixed_dictionaries(
    {},
    optional={
        "PayloadFormatIndicator": st.integers(0, 1),
        "MessageExpiryInterval": st.integers(0, 2**32 - 1),
        "ContentType": st.text(max_size=20),
        "ResponseTopic": st.text(min_size=1, max_size=40),
        "CorrelationData": st.binary(max_size=300),
        "UserProperty": st.lists(st.tuples(st.text(max_size=5), st.text(max_size=5)), min_size=1, max_size=2),
        "SubscriptionIdentifier": st.integers(1, 2**20),
    },
)


def _same(ours: mqtt.MQTTMessage, paho: _packet.PublishPacket) -> None:
    assert (ours.mid, ours._topic, ours.payload, ours.qos, ours.retain, ours.dup) == (
        paho.mid,
        paho.topic,
        paho.payload,
        paho.qos,
        paho.retain,
        paho.dup,
    )
    assert ours.properties.json() == paho.properties.json()
    assert str(ours.properties) == str(paho.properties)


@settings(max_examples=300, deadline=None)
@given(
    values=PROPERTY_VALUES,
    topic=st.text(min_size=1, max_size=60).map(lambda t: t.encode("utf-8", "surrogatepass")),
    payload=st.binary(max_size=200),
    qos=st.integers(0, 1),
    flags=st.integers(0, 9),
)
def test_a_publish_decodes_as_paho_decodes_it_or_is_left_to_paho(values, topic, payload, qos, flags):
    try:
        props = _props(**values)
        packet = publish_packet(topic, payload, props, qos=qos)
    except Exception:  # a value paho itself will not write
        return
    command, body = _split(packet)
    command |= flags & 0x09  # DUP and RETAIN
    ours = decode_publish(command, body)
    try:
        theirs = _packet.decode_publish(command, body, MQTTProtocolVersion.MQTTv5)
    except Exception:
        assert ours is None  # what paho refuses is left to paho (which refuses it again)
        return
    if ours is None:  # left to paho: only what it does not decode itself
        texts = str(values.get("ResponseTopic", "")) + str(values.get("ContentType", ""))
        assert {"UserProperty", "SubscriptionIdentifier"} & set(values) or "\x00" in texts or "\ufeff" in texts
        return
    _same(ours, theirs)


def test_a_request_as_it_arrives_is_decoded_here():
    props = _props(ResponseTopic="edge-agent/gw1/response/c1/r", CorrelationData=b"\x00\xffabc")
    packet = publish_packet(b"edge-agent/gw1/request/c1", b'{"request_id": "r1"}', props, mid=513)
    message = decode_publish(*_split(packet))
    assert message is not None and message.mid == 513 and message.topic == "edge-agent/gw1/request/c1"
    assert message.properties.ResponseTopic == "edge-agent/gw1/response/c1/r"
    assert message.properties.CorrelationData == b"\x00\xffabc"
    assert not hasattr(message.properties, "ContentType")
    assert isinstance(message.properties, Properties) and message.properties.packetType == PacketTypes.PUBLISH


class _Socket:
    """A socket whose `recv` hands out the stream in the pieces given (never more than asked), then would block."""

    def __init__(self, pieces: list[bytes]):
        self.pieces = list(pieces)

    def recv(self, n: int) -> bytes:
        if not self.pieces:
            raise BlockingIOError
        piece = self.pieces[0]
        if len(piece) > n:
            self.pieces[0] = piece[n:]
            return piece[:n]
        self.pieces.pop(0)
        return piece


def _read_all(cls: type[mqtt.Client], pieces: list[bytes]) -> list[tuple]:
    client = cls(CallbackAPIVersion.VERSION2, client_id="t", protocol=mqtt.MQTTv5, manual_ack=True)
    got: list[tuple] = []
    client.on_message = lambda c, u, m: got.append(
        (m.mid, m.topic, m.payload, m.qos, m.retain, m.dup, m.properties.json())
    )
    client._sock = _Socket(pieces)
    for _ in range(100_000):
        rc = client._packet_read()
        if rc == MQTTErrorCode.MQTT_ERR_AGAIN and not client._sock.pieces:
            break
        assert rc in (MQTTErrorCode.MQTT_ERR_SUCCESS, MQTTErrorCode.MQTT_ERR_AGAIN)
    client._sock = None
    return got


@settings(max_examples=60, deadline=None)
@given(
    messages=st.lists(
        st.tuples(st.binary(max_size=120), st.binary(max_size=40), st.sampled_from(["plain", "user", "topic"])),
        min_size=1,
        max_size=30,
    ),
    cuts=st.lists(st.integers(1, 400), max_size=40),
)
def test_a_stream_cut_anywhere_is_read_as_paho_reads_it(messages, cuts):
    stream = b""
    for i, (payload, correlation, extra) in enumerate(messages):
        props = _props(CorrelationData=correlation or b"x")
        if extra == "user":
            props.UserProperty = ("k", "v")  # left to paho's handler, in its place in the order
        topic = b"edge-agent/gw1/request/c" + str(i % 3).encode() + (b"/\xc3\xa9" if extra == "topic" else b"")
        stream += publish_packet(topic, payload, props, mid=i + 1)
    stream += b"\xd0\x00"  # a PINGRESP between messages: paho's handler
    stream += publish_packet(b"t/last", b"end", _props(ResponseTopic="r/1"), mid=999)
    pieces, at = [], 0
    for cut in cuts:
        if at >= len(stream):
            break
        pieces.append(stream[at : at + cut])
        at += cut
    pieces.append(stream[at:])
    ours = _read_all(BulkReadClient, [p for p in pieces if p])
    assert ours == _read_all(mqtt.Client, [p for p in pieces if p])
    assert len(ours) == len(messages) + 1


def test_the_bulk_reader_is_on_with_the_paho_this_project_pins():
    assert BULK_READ
