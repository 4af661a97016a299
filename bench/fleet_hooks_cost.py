"""What the fleet features (audit trail + metrics) add to the daemon's store path, in-process, without a broker.

The same code the daemon runs for a burst (`Intake.store` of `GatewayService.intake`: validate, insert the jobs
and their `accepted` replies in one transaction, commit with fsync, audit rows and metrics included when on), timed for
bursts of N requests, alternating a daemon with the fleet features off and one with them on, R rounds. The
broker is not involved (its noise dominates bench/mqtt_latency.py on a shared 2-core machine), so this is the
daemon's own added cost. Prints and writes JSON (--out).

    .venv/bin/python bench/fleet_hooks_cost.py [--n 100] [--rounds 30] [--out FILE]
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import paho.mqtt.client as mqtt  # noqa: E402
from paho.mqtt.packettypes import PacketTypes  # noqa: E402
from paho.mqtt.properties import Properties  # noqa: E402

from edge_agent.config import load_settings  # noqa: E402
from edge_agent.mqtt.runner import ScriptRunner  # noqa: E402
from edge_agent.mqtt.service import GatewayService  # noqa: E402

FLEET = {
    "off": {"audit": {"enabled": False}, "metrics": {"enabled": False}},
    "on": {"audit": {"enabled": True}, "metrics": {"enabled": True, "port": 0}},
}


def daemon(work: Path, name: str) -> GatewayService:
    settings = load_settings(
        overrides={"paths": {"state_dir": str(work / name)}, "mqtt": {"port": 1}, **FLEET[name]}, environ={}
    )
    svc = GatewayService(settings, ScriptRunner(settings))
    svc.fleet.start()  # the daemon's start without the broker and the worker: only the store path runs
    return svc


def burst(svc: GatewayService, n: int, tag: str) -> list[mqtt.MQTTMessage]:
    msgs = []
    for i in range(n):
        msg = mqtt.MQTTMessage(mid=i + 1, topic=b"edge-agent/gw1/request/bench")
        msg.payload = json.dumps({"request_id": f"{tag}-{i}", "question": "q [steps=1]", "options": {}}).encode()
        msg.qos = 1
        props = Properties(PacketTypes.PUBLISH)
        props.ResponseTopic = "edge-agent/gw1/response/bench/r"
        props.CorrelationData = f"{tag}-{i}".encode()
        msg.properties = props
        msg.timestamp = time.monotonic()
        msgs.append(msg)
    return msgs


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--n", type=int, default=100)
    ap.add_argument("--rounds", type=int, default=30)
    ap.add_argument("--out", type=Path, default=ROOT / "bench" / "results" / "fleet_hooks_cost.json")
    args = ap.parse_args()
    work = Path(tempfile.mkdtemp(prefix="fleet-cost-"))
    svcs = {name: daemon(work, name) for name in FLEET}
    wall: dict[str, list[float]] = {name: [] for name in FLEET}
    cpu: dict[str, list[float]] = {name: [] for name in FLEET}
    for r in range(args.rounds + 2):  # two warm-up rounds, not counted
        for name in list(FLEET) if r % 2 else list(FLEET)[::-1]:
            msgs = burst(svcs[name], args.n, f"r{r}")
            w, c = time.perf_counter(), time.thread_time()
            svcs[name].intake.store(msgs)
            w, c = time.perf_counter() - w, time.thread_time() - c
            if r >= 2:
                wall[name].append(w * 1000)
                cpu[name].append(c * 1000)
    audit_rows = svcs["on"].jobs._conn.execute("SELECT COUNT(*) FROM audit").fetchone()[0]
    for svc in svcs.values():
        svc.fleet.stop()
    med = {
        k: {name: round(statistics.median(v[name]), 3) for name in FLEET}
        for k, v in (("wall_ms", wall), ("cpu_ms", cpu))
    }
    per_request_us = {k: round((med[k]["on"] - med[k]["off"]) * 1000 / args.n, 1) for k in med}
    report = {
        "bench": "fleet_hooks_cost",
        "requests_per_burst": args.n,
        "rounds": args.rounds,
        "median_burst_store": med,
        "added_per_request_us": per_request_us,
        "audit_rows": audit_rows,
        "wall_ms": wall,
        "cpu_ms": cpu,
        "when": time.strftime("%Y-%m-%dT%H:%M:%S"),
    }
    print(f"storing a burst of {args.n} requests (one transaction + fsync), median of {args.rounds} rounds:")
    for k in med:
        print(f"  {k}: off {med[k]['off']}  on {med[k]['on']}  → +{per_request_us[k]} µs a request")
    print(f"audit rows written: {audit_rows}")
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(report, indent=1) + "\n")
    print(f"wrote {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
