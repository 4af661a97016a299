"""One place that builds paho-mqtt 2.x clients: MQTT v5, TLS, username + password from a secret; each reads its
socket in bulk (`bulkread.BulkReadClient`: every packet the socket holds in one turn of paho's loop)."""

from __future__ import annotations

import socket
from typing import TYPE_CHECKING

import paho.mqtt.client as mqtt
from paho.mqtt.enums import CallbackAPIVersion
from paho.mqtt.packettypes import PacketTypes
from paho.mqtt.properties import Properties

from edge_agent.config import Settings, resolve_secret
from edge_agent.mqtt.bulkread import BulkReadClient

if TYPE_CHECKING:
    from paho.mqtt.client import SocketLike


def mqtt_client(
    settings: Settings,
    client_id: str,
    *,
    will: tuple[str, str] | None = None,
    manual_ack: bool = False,
    username: str | None = None,
) -> mqtt.Client:
    """A paho MQTT v5 client configured from `settings.mqtt` (TLS, username, password credential);
    `username` logs in as another user with the same password (the daemon's reply connection)."""
    m = settings.mqtt
    client = BulkReadClient(
        CallbackAPIVersion.VERSION2, client_id=client_id, protocol=mqtt.MQTTv5, manual_ack=manual_ack
    )
    if m.tls.enabled:
        client.tls_set(
            ca_certs=str(m.tls.ca_file) if m.tls.ca_file else None,
            certfile=str(m.tls.cert_file) if m.tls.cert_file else None,
            keyfile=str(m.tls.key_file) if m.tls.key_file else None,
        )
    if username or m.username:
        client.username_pw_set(username or m.username, resolve_secret(m.password, m.password_file, "mqtt-password"))
    if will:
        client.will_set(will[0], will[1], qos=1, retain=True)
    client.reconnect_delay_set(1, 30)
    client.max_inflight_messages = m.max_inflight
    client.on_socket_open = _no_delay
    return client


def honour_receive_maximum(client: mqtt.Client, wanted: int, properties: Properties | None) -> int:
    """In on_connect: at most the broker's Receive Maximum (CONNACK; 65535 when absent) QoS 1 messages
    in flight, as MQTT v5 requires. paho 2.x ignores that property and refuses to change its limit on
    an open connection, so its attribute is set here, before paho sends anything queued."""
    limit = min(wanted, int(getattr(properties, "ReceiveMaximum", 65535) or 65535))
    if getattr(client, "_max_inflight_messages", limit) != limit:
        client._max_inflight_messages = limit
    return limit


def _no_delay(client: mqtt.Client, userdata: object, sock: SocketLike) -> None:
    """paho leaves Nagle on: small replies then wait for delayed ACKs (~40 ms a hop, measured)."""
    if not isinstance(sock, socket.socket):  # paho's websocket wrapper: nothing to tune (TLS sockets are sockets)
        return
    try:
        sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
    except OSError:  # a unix socket: nothing to tune
        pass


def connect_properties(session_expiry_s: int) -> Properties:
    """CONNECT properties: the broker keeps our session (subscriptions, queued QoS 1) this long."""
    props = Properties(PacketTypes.CONNECT)
    props.SessionExpiryInterval = session_expiry_s
    return props
