"""Request → `accepted` latency of the gateway daemon on loopback against Mosquitto.

Measured side by side in one run, same broker, same client code:
  * echo      — a bare paho client that republishes every request at once (the broker round trip);
  * daemon    — `edge-agent serve --runner script` (validate, SQLite insert with fsync, outbox, PUBACK),
                with a long job running so that all requests stay queued;
in two patterns: `sequential` (one request at a time) and `burst` (100 requests sent back to back,
so the last one waits behind 99 others in the daemon's network thread).
Prints p50/p99 and the daemon/echo ratios, and writes bench/results/mqtt_latency.json.

    .venv/bin/python bench/mqtt_latency.py [--n 100]
"""

from __future__ import annotations

import argparse
import json
import multiprocessing as mp
import os
import platform
import statistics
import sys
import tempfile
import threading
import time
import uuid
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import paho.mqtt.client as mqtt  # noqa: E402
import yaml  # noqa: E402
from paho.mqtt.enums import CallbackAPIVersion  # noqa: E402
from paho.mqtt.packettypes import PacketTypes  # noqa: E402
from paho.mqtt.properties import Properties  # noqa: E402

from edge_agent.mqtt.broker import MosquittoBroker  # noqa: E402
from edge_agent.mqtt.connection import _no_delay  # noqa: E402

GW = "benchgw"


def echo_main(port: int, ready) -> None:
    """A bare responder: every request is answered at once with a tiny `accepted`."""
    c = mqtt.Client(CallbackAPIVersion.VERSION2, client_id="echo", protocol=mqtt.MQTTv5)

    def on_message(client, userdata, msg):
        rid = json.loads(msg.payload)["request_id"]
        client.publish(msg.properties.ResponseTopic, json.dumps({"kind": "accepted", "request_id": rid}), qos=1)

    c.on_message = on_message
    c.on_socket_open = _no_delay
    c.on_connect = lambda cl, u, f, rc, p: (cl.subscribe(f"edge-agent/{GW}-echo/request/+", qos=1), ready.set())
    c.connect("127.0.0.1", port)
    c.loop_forever()


class Probe:
    """Sends requests and times the first `accepted` reply of each."""

    def __init__(self, port: int, gateway: str):
        self.gateway, self.cid = gateway, f"probe-{uuid.uuid4().hex[:6]}"
        self.sent: dict[str, float] = {}
        self.got: dict[str, float] = {}
        self.cond = threading.Condition()
        self.c = mqtt.Client(CallbackAPIVersion.VERSION2, client_id=self.cid, protocol=mqtt.MQTTv5)
        self.c.on_message = self.on_message
        self.c.on_socket_open = _no_delay
        ok = threading.Event()
        self.c.on_subscribe = lambda *a: ok.set()
        self.c.connect("127.0.0.1", port)
        self.c.loop_start()
        self.c.subscribe(f"edge-agent/{gateway}/response/{self.cid}/#", qos=1)
        ok.wait(10)

    def on_message(self, client, userdata, msg):
        t = time.perf_counter()
        body = json.loads(msg.payload)
        if body.get("kind") == "accepted":
            with self.cond:
                self.got.setdefault(body["request_id"], t)
                self.cond.notify_all()

    def send(self, question: str) -> str:
        rid = uuid.uuid4().hex[:12]
        props = Properties(PacketTypes.PUBLISH)
        props.ResponseTopic = f"edge-agent/{self.gateway}/response/{self.cid}/r"
        payload = json.dumps({"request_id": rid, "question": question})
        self.sent[rid] = time.perf_counter()
        self.c.publish(f"edge-agent/{self.gateway}/request/{self.cid}", payload, qos=1, properties=props)
        return rid

    def wait(self, rids: list[str], timeout: float = 60) -> None:
        with self.cond:
            self.cond.wait_for(lambda: all(r in self.got for r in rids), timeout)

    def latencies_ms(self, rids: list[str]) -> list[float]:
        return [(self.got[r] - self.sent[r]) * 1000 for r in rids if r in self.got]

    def close(self):
        self.c.loop_stop()
        self.c.disconnect()


def pct(values: list[float], p: float) -> float:
    values = sorted(values)
    k = max(0, min(len(values) - 1, round(p / 100 * (len(values) - 1))))
    return round(values[k], 2)


def summary(values: list[float]) -> dict:
    return {"n": len(values), "p50_ms": pct(values, 50), "p99_ms": pct(values, 99),
            "mean_ms": round(statistics.fmean(values), 2), "max_ms": round(max(values), 2)}


def measure(probe: Probe, n: int, question: str) -> dict:
    seq = []
    for _ in range(n):
        rid = probe.send(question)
        probe.wait([rid])
        seq.append(rid)
    burst = [probe.send(question) for _ in range(n)]
    probe.wait(burst)
    return {"sequential": summary(probe.latencies_ms(seq)), "burst": summary(probe.latencies_ms(burst))}


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--n", type=int, default=100)
    args = ap.parse_args()
    work = Path(tempfile.mkdtemp(prefix="mqtt-bench-"))
    broker = MosquittoBroker(work / "broker").start()
    import subprocess

    conf = work / "edge-agent.yaml"
    conf.write_text(yaml.safe_dump({"paths": {"state_dir": str(work / "state")},
                                    "mqtt": {"port": broker.port, "gateway_id": GW}}))
    env = {k: v for k, v in os.environ.items() if not k.startswith("EDGE_AGENT_")} | {"PYTHONPATH": str(ROOT)}
    log = open(work / "daemon.log", "wb")
    daemon = subprocess.Popen([sys.executable, "-m", "edge_agent", "serve", "--runner", "script", "--config",
                               str(conf)], cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT)
    ready = mp.Event()
    echo = mp.Process(target=echo_main, args=(broker.port, ready), daemon=True)
    echo.start()
    try:
        ready.wait(10)
        deadline = time.monotonic() + 30
        while b"connected to" not in (work / "daemon.log").read_bytes():
            if time.monotonic() > deadline or daemon.poll() is not None:
                raise SystemExit("the daemon did not start: " + (work / "daemon.log").read_text())
            time.sleep(0.1)
        p_echo, p_daemon = Probe(broker.port, f"{GW}-echo"), Probe(broker.port, GW)
        blocker = p_daemon.send("hold the worker [steps=1 delay=600]")  # everything after it stays queued
        p_daemon.wait([blocker])
        measure(p_echo, 10, "warm-up")
        results = {"echo": measure(p_echo, args.n, "q"), "daemon": measure(p_daemon, args.n, "q [steps=1]")}
        queued = len(p_daemon.got) - 1
        p_echo.close()
        p_daemon.close()
    finally:
        daemon.terminate()
        daemon.wait(30)
        echo.terminate()
        broker.stop()
    ratios = {pat: {k: round(results["daemon"][pat][k] / max(results["echo"][pat][k], 1e-6), 2)
                    for k in ("p50_ms", "p99_ms")} for pat in ("sequential", "burst")}
    report = {"bench": "mqtt_latency", "requests": args.n, "queued_in_daemon_at_end": queued,
              "broker": "mosquitto " + subprocess.run([broker.binary, "-h"], capture_output=True,
                                                      text=True).stdout.split("\n")[0].split()[-1],
              "machine": {"cpus": os.cpu_count(), "python": platform.python_version(),
                          "platform": platform.platform()},
              "results": results, "daemon_over_echo": ratios, "when": time.strftime("%Y-%m-%dT%H:%M:%S")}
    print(f"request → accepted on loopback, {args.n} requests per pattern ({queued} queued in the daemon)")
    print(f"{'':12}{'echo p50':>10}{'echo p99':>10}{'daemon p50':>12}{'daemon p99':>12}{'ratio p50':>11}"
          f"{'ratio p99':>11}")
    for pat in ("sequential", "burst"):
        e, d = results["echo"][pat], results["daemon"][pat]
        print(f"{pat:12}{e['p50_ms']:>10}{e['p99_ms']:>10}{d['p50_ms']:>12}{d['p99_ms']:>12}"
              f"{ratios[pat]['p50_ms']:>11}{ratios[pat]['p99_ms']:>11}")
    out = ROOT / "bench" / "results" / "mqtt_latency.json"
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(report, indent=2) + "\n")
    print(f"wrote {out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
