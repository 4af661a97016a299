"""paho reading a session's backlog (issue 42): N QoS 1 requests queued at a Mosquitto for a session while its
client was away, then it reconnects and acknowledges each in on_message; the time until all arrived and the CPU
of its network thread, paho's own `Client` against `edge_agent.mqtt.bulkread.BulkReadClient`, alternated.

    PYTHONPATH=. .venv/bin/python bench/reports/2026-11-28-replies-in-order/bulk_read_bench.py [N] [ROUNDS]
"""

from __future__ import annotations

import json
import os
import sys
import tempfile
import threading
import time
from pathlib import Path

import paho.mqtt.client as mqtt
from paho.mqtt.enums import CallbackAPIVersion
from paho.mqtt.packettypes import PacketTypes
from paho.mqtt.properties import Properties

from edge_agent.mqtt.broker import MosquittoBroker
from edge_agent.mqtt.bulkread import BulkReadClient


def thread_cpu(native_id: int) -> float:
    f = Path(f"/proc/self/task/{native_id}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(f[11]) + int(f[12])) / os.sysconf("SC_CLK_TCK")


def run(broker: MosquittoBroker, cls: type[mqtt.Client], n: int) -> tuple[float, float, int, bool]:
    got: list[int] = []
    seen_props: list[bool] = []
    done = threading.Event()

    def on_message(c, u, m):
        got.append(m.mid)
        seen_props.append(getattr(m.properties, "CorrelationData", None) == json.loads(m.payload)["request_id"].encode())
        c.ack(m.mid, m.qos)
        if len(got) >= n:
            done.set()

    props = Properties(PacketTypes.CONNECT)
    props.SessionExpiryInterval = 3600
    sub = cls(CallbackAPIVersion.VERSION2, client_id="sess", protocol=mqtt.MQTTv5, manual_ack=True)
    ready = threading.Event()
    sub.on_subscribe = lambda *a: ready.set()
    sub.on_connect = lambda c, *a: c.subscribe("req/#", qos=1)
    sub.connect(broker.host, broker.port, clean_start=True, properties=props)
    sub.loop_start()
    ready.wait(10)
    sub.disconnect()
    sub.loop_stop()
    pub = mqtt.Client(CallbackAPIVersion.VERSION2, client_id="pub", protocol=mqtt.MQTTv5)
    pub.max_inflight_messages = 100
    pub.max_queued_messages = 0
    pub.connect(broker.host, broker.port)
    pub.loop_start()
    infos = []
    for i in range(n):
        p = Properties(PacketTypes.PUBLISH)
        p.CorrelationData = f"f{i}".encode()
        body = json.dumps({"request_id": f"f{i}", "question": "flood [steps=1 delay=0]"}).encode()
        infos.append(pub.publish("req/flood", body, qos=1, properties=p))
    for info in infos:
        info.wait_for_publish(60)
    pub.disconnect()
    pub.loop_stop()
    sub2 = cls(CallbackAPIVersion.VERSION2, client_id="sess", protocol=mqtt.MQTTv5, manual_ack=True)
    sub2.on_message = on_message
    t = time.monotonic()
    sub2.connect(broker.host, broker.port, clean_start=False, properties=props)
    sub2.loop_start()
    done.wait(120)
    wall = time.monotonic() - t
    cpu = thread_cpu(sub2._thread.native_id)
    sub2.disconnect()
    sub2.loop_stop()
    return wall, cpu, len(got), all(seen_props)


if __name__ == "__main__":
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 10000
    for _ in range(int(sys.argv[2]) if len(sys.argv) > 2 else 2):
        for cls in (mqtt.Client, BulkReadClient):
            b = MosquittoBroker(Path(tempfile.mkdtemp()) / "b").start()
            try:
                wall, cpu, k, ok = run(b, cls, n)
            finally:
                b.kill()
            print(
                f"{cls.__name__:14s} load {os.getloadavg()[0]:.2f}: {k} messages in {wall:.2f} s, "
                f"network thread CPU {cpu:.2f} s, properties right: {ok}",
                flush=True,
            )
