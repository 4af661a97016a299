"""paho's client reading its socket in bulk: every complete packet the socket holds is handled in one turn of the
network loop, and a PUBLISH is decoded without paho's slow path (issue 42).

Why (measured): after a restart with 10,000 requests queued for the daemon's session, the broker delivers them back
to back and the victims' requests come last (its queue is first-in first-out), so the victims wait for the daemon
to read every one. paho reads one packet per turn of its loop (a `select`, a `recv` of the command byte, one per
byte of the length, one of the body, then its keep-alive checks), and decodes a PUBLISH's properties through
`Properties`, whose constructor builds its tables anew and whose decoder looks each name up by a linear search:
~100 µs of CPU a message on this machine, on the GIL the intake's committer needs too.

`BulkReadClient` (what `connection.mqtt_client` builds) overrides `_packet_read` only: it takes what the socket
holds (up to `READ_BYTES`) into a buffer and handles every complete packet in it, in order; bytes of a packet not
complete yet stay for the next read. A PUBLISH of QoS 0 or 1 whose properties are the ones a request carries
(Payload Format Indicator, Message Expiry Interval, Content Type, Response Topic, Correlation Data) is decoded
here, into the same `MQTTMessage` and `Properties` paho would make, and handed to paho's own `_handle_on_message`
(its callbacks, locks and filters); every other packet, and a PUBLISH with anything else (user properties, a
subscription identifier, a topic alias, text paho refuses, a length that does not add up), is handed to paho's own
handler as paho's reader would have. Timing, keep-alive and PUBACKs are paho's: the loop still checks its
keep-alive after each read, and writes what is queued (PUBACKs, PINGREQ) in the same turn.

It uses paho's private reading state (`_sock_recv`, `_in_packet`, `_packet_handle`, `_handle_on_message`); where a
paho version lacks one of them, it reads as paho does (`BULK_READ` is False).
"""

from __future__ import annotations

import paho.mqtt.client as mqtt
from paho.mqtt.enums import MQTTErrorCode
from paho.mqtt.exception import MalformedPacket
from paho.mqtt.packettypes import PacketTypes
from paho.mqtt.properties import Properties

READ_BYTES = 65536  # one `recv`: ~600 requests of a flood
PUBLISH = 0x30

BULK_READ = all(hasattr(mqtt.Client, name) for name in ("_sock_recv", "_packet_handle", "_handle_on_message"))

#: the tables every `Properties` of a PUBLISH holds (paho's constructor builds them anew each time: ~14 µs); a
#: decoded message's properties share them, as they are only read
_PUBLISH_TABLES = dict(Properties(PacketTypes.PUBLISH).__dict__)
#: property identifier → (its attribute name as paho sets it, its type: byte, int32, utf8, binary)
_FAST_PROPERTIES = {
    1: ("PayloadFormatIndicator", "byte"),
    2: ("MessageExpiryInterval", "int32"),
    3: ("ContentType", "utf8"),
    8: ("ResponseTopic", "utf8"),
    9: ("CorrelationData", "binary"),
}


def _new_properties() -> Properties:
    props: Properties = object.__new__(Properties)
    props.__dict__.update(_PUBLISH_TABLES)
    return props


def decode_properties(body: bytes, pos: int, end: int) -> tuple[Properties, int] | None:
    """The PUBLISH properties at `body[pos:]` as paho's `Properties.unpack` reads them, and where they end; None
    where paho must decide (an identifier not in `_FAST_PROPERTIES`, one given twice, text paho refuses, a length
    that does not fit)."""
    length, shift = 0, 0
    while True:  # Variable Byte Integer, at most 4 bytes
        if pos >= end or shift > 21:
            return None
        byte = body[pos]
        pos += 1
        length |= (byte & 127) << shift
        shift += 7
        if not byte & 128:
            break
    stop = pos + length
    if stop > end:
        return None
    props = _new_properties()
    values = props.__dict__
    while pos < stop:
        fast = _FAST_PROPERTIES.get(body[pos])
        if fast is None:
            return None
        name, kind = fast
        pos += 1
        if name in values:
            return None
        value: int | str | bytes
        if kind == "byte":
            if pos + 1 > stop:
                return None
            value, pos = body[pos], pos + 1
        elif kind == "int32":
            if pos + 4 > stop:
                return None
            value, pos = int.from_bytes(body[pos : pos + 4], "big"), pos + 4
        else:
            if pos + 2 > stop:
                return None
            n = (body[pos] << 8) | body[pos + 1]
            pos += 2
            if pos + n > stop:
                return None
            raw = body[pos : pos + n]
            pos += n
            if kind == "binary":
                value = raw
            else:
                try:
                    text = raw.decode("utf-8")
                except UnicodeDecodeError:
                    return None
                if "\x00" in text or "\ufeff" in text:  # paho refuses these (MQTT 1.5.4)
                    return None
                value = text
        values[name] = value
    return props, stop


def decode_publish(command: int, body: bytes) -> mqtt.MQTTMessage | None:
    """An MQTT v5 PUBLISH of QoS 0 or 1 as paho's `_handle_publish` makes it (None: paho's own path decides)."""
    qos = (command & 0x06) >> 1
    end = len(body)
    if qos > 1 or end < 2:
        return None
    n = (body[0] << 8) | body[1]
    pos = 2 + n
    if n == 0 or pos + (2 if qos else 0) > end:  # an empty topic (a topic alias): paho's path
        return None
    topic = body[2:pos]
    mid = 0
    if qos:
        mid = (body[pos] << 8) | body[pos + 1]
        pos += 2
    decoded = decode_properties(body, pos, end)
    if decoded is None:
        return None
    props, pos = decoded
    message = mqtt.MQTTMessage(mid=mid, topic=topic)
    message.dup = bool(command & 0x08)
    message.qos = qos
    message.retain = bool(command & 0x01)
    message.properties = props
    message.payload = body[pos:]
    return message


class BulkReadClient(mqtt.Client):
    """paho's `Client` whose `_packet_read` handles every complete packet the socket holds (see the module)."""

    _bulk_sock: object = None
    _bulk_buf: bytearray

    def _packet_read(self) -> MQTTErrorCode:
        if not BULK_READ or self._protocol != mqtt.MQTTv5:
            return super()._packet_read()
        sock = self._sock
        if self._bulk_sock is not sock:  # a new connection: no byte of the old one is read on it
            self._bulk_sock, self._bulk_buf = sock, bytearray()
        try:
            data = self._sock_recv(READ_BYTES)
        except BlockingIOError:
            return MQTTErrorCode.MQTT_ERR_AGAIN
        except OSError as err:  # (TimeoutError among them)
            self._easy_log(mqtt.MQTT_LOG_ERR, "failed to receive on socket: %s", err)
            return MQTTErrorCode.MQTT_ERR_CONN_LOST
        if not data:
            return MQTTErrorCode.MQTT_ERR_CONN_LOST
        with self._msgtime_mutex:
            self._last_bytes_received = mqtt.time_func()
        buf = self._bulk_buf
        buf += data
        pos, end, rc = 0, len(buf), MQTTErrorCode.MQTT_ERR_SUCCESS
        while end - pos >= 2:
            length, shift, at, whole = 0, 0, pos + 1, False
            while at < end:  # the remaining length: a Variable Byte Integer of at most 4 bytes
                byte = buf[at]
                at += 1
                length |= (byte & 127) << shift
                if not byte & 128:
                    whole = True
                    break
                shift += 7
                if shift >= 28:
                    self._bulk_buf = bytearray()
                    return MQTTErrorCode.MQTT_ERR_PROTOCOL
            if not whole or at + length > end:
                break  # the packet is not complete yet: the rest comes with the next read
            command = buf[pos]
            body = bytes(buf[at : at + length])
            pos = at + length
            rc = self._handle_packet(command, body)
            if rc or self._sock is not sock:
                break
        del buf[:pos]
        with self._msgtime_mutex:
            self._last_bytes_received = mqtt.time_func()
        return rc

    def _handle_packet(self, command: int, body: bytes) -> MQTTErrorCode:
        """One complete packet: a request's PUBLISH decoded here, anything else by paho's handler."""
        if (command & 0xF0) == PUBLISH and self._logger is None and self.on_log is None:
            message = decode_publish(command, body)
            if message is not None:
                message.timestamp = mqtt.time_func()
                self._handle_on_message(message)
                if message.qos == 1 and not self._manual_ack:
                    return self._send_puback(message.mid)
                return MQTTErrorCode.MQTT_ERR_SUCCESS
        self._in_packet = {
            "command": command,
            "have_remaining": 1,
            "remaining_count": [],
            "remaining_mult": 1,
            "remaining_length": len(body),
            "to_process": 0,
            "packet": bytearray(body),
            "pos": 0,
        }
        try:
            rc = self._packet_handle()
        except MalformedPacket as exc:
            self._easy_log(mqtt.MQTT_LOG_DEBUG, "Received malformed packet: %s", exc)
            rc = MQTTErrorCode.MQTT_ERR_PROTOCOL
        self._in_packet = {
            "command": 0,
            "have_remaining": 0,
            "remaining_count": [],
            "remaining_mult": 1,
            "remaining_length": 0,
            "to_process": 0,
            "packet": bytearray(b""),
            "pos": 0,
        }
        return rc
