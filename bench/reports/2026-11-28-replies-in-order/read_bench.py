"""paho reading a session's backlog: N QoS 1 messages queued while the session client was away, then it reconnects;
how long until all arrive, and the CPU of its network thread; plain socket vs a buffered one."""
import os, sys, threading, time, json, tempfile
from pathlib import Path
import paho.mqtt.client as mqtt
from paho.mqtt.enums import CallbackAPIVersion
from paho.mqtt.packettypes import PacketTypes
from paho.mqtt.properties import Properties
from edge_agent.mqtt.broker import MosquittoBroker

ACK = "--noack" not in sys.argv
class Buffered:
    def __init__(self, sock, size=65536):
        self._sock, self._size, self._buf, self._pos = sock, size, b"", 0
    def recv(self, n):
        if self._pos >= len(self._buf):
            data = self._sock.recv(max(n, self._size))
            if len(data) <= n:
                return data
            self._buf, self._pos = data, 0
        out = self._buf[self._pos:self._pos + n]
        self._pos += len(out)
        return out
    def pending(self):
        p = len(self._buf) - self._pos
        inner = getattr(self._sock, "pending", None)
        return p + (inner() if inner else 0)
    def __getattr__(self, name):
        return getattr(self._sock, name)

class BufClient(mqtt.Client):
    def _create_socket(self):
        return Buffered(super()._create_socket())

def thread_cpu(native_id):
    f = Path(f"/proc/self/task/{native_id}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(f[11]) + int(f[12])) / os.sysconf("SC_CLK_TCK")

def run(broker, cls, n):
    got = []
    done = threading.Event()
    def on_message(c, u, m):
        got.append(m.mid)
        if ACK: c.ack(m.mid, m.qos)
        if len(got) >= n: done.set()
    sub = cls(CallbackAPIVersion.VERSION2, client_id="sess", protocol=mqtt.MQTTv5, manual_ack=True)
    sub.on_message = on_message
    ready = threading.Event()
    sub.on_subscribe = lambda *a: ready.set()
    sub.on_connect = lambda c, *a: c.subscribe("req/#", qos=1)
    props = Properties(PacketTypes.CONNECT); props.SessionExpiryInterval = 3600
    sub.connect(broker.host, broker.port, clean_start=True, properties=props); sub.loop_start(); ready.wait(10)
    sub.disconnect(); sub.loop_stop()
    pub = mqtt.Client(CallbackAPIVersion.VERSION2, client_id="pub", protocol=mqtt.MQTTv5)
    pub.max_inflight_messages = 100; pub.max_queued_messages = 0
    pub.connect(broker.host, broker.port); pub.loop_start()
    infos = []
    for i in range(n):
        p = Properties(PacketTypes.PUBLISH); p.CorrelationData = f"f{i}".encode()
        infos.append(pub.publish("req/flood", json.dumps({"request_id": f"f{i}", "question": "flood [steps=1 delay=0]"}).encode(), qos=1, properties=p))
    for info in infos: info.wait_for_publish(60)
    pub.disconnect(); pub.loop_stop()
    got.clear()
    sub2 = cls(CallbackAPIVersion.VERSION2, client_id="sess", protocol=mqtt.MQTTv5, manual_ack=True)
    sub2.on_message = on_message
    t = time.monotonic()
    sub2.connect(broker.host, broker.port, clean_start=False, properties=props); sub2.loop_start()
    done.wait(120)
    wall = time.monotonic() - t
    cpu = thread_cpu(sub2._thread.native_id)
    sub2.disconnect(); sub2.loop_stop()
    return wall, cpu, len(got)

if __name__ == "__main__":
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 10000
    for rnd in range(int(sys.argv[2]) if len(sys.argv) > 2 else 2):
        for cls in (mqtt.Client,):
            b = MosquittoBroker(Path(tempfile.mkdtemp()) / "b").start()
            try:
                wall, cpu, k = run(b, cls, n)
            finally:
                b.kill()
            print(f"{cls.__name__:8s} load {os.getloadavg()[0]:.2f}: {k} messages in {wall:.2f} s, network thread CPU {cpu:.2f} s", flush=True)
