"""Issue 42 a's bridge-outage drill: the bridged fleet of tests/fleet_topology.py (a central Mosquitto, three site
Mosquittos bridged to it as docs/fleet.md says, gw1-3 and a pool across the sites, `serve --runner script`), site 1's
WAN link cut for minutes and restored.

Before the cut, a long job starts on gw1 (one progress step every 5 s, through the cut and 20 s past it).
During the cut, every `--every` seconds: a central requester (`RequestClient`, resending every 10 s as
`edge-agent request` does) asks gw1; a second requester asks gw1 once and never again (the witness: what the
central broker does with a request it cannot deliver); a third asks the pool (answered by the sites still
connected). After the restore: when the bridge is back, when each request is answered, how often each ran, how
many distinct final replies each got, and whether the long job's progress arrived once each.

    .venv/bin/python bench/fleet_bridge_drill.py [--cut-s 300] [--every 10] [--protocol mqttv50,mqttv311] [--out F]

Prints one JSON object (per protocol: the figures) and writes it to --out.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import paho.mqtt.client as mqtt  # noqa: E402
from paho.mqtt.enums import CallbackAPIVersion  # noqa: E402

from edge_agent.config import load_settings  # noqa: E402
from edge_agent.mqtt.client import RequestClient  # noqa: E402
from edge_agent.mqtt.protocol import ProgressReply  # noqa: E402
from tests.fleet_topology import POOL, Fleet, password  # noqa: E402

LONG_DELAY = 5.0  # the long job's step: it runs through the cut and 20 s past it


def requester(fleet: Fleet, work: Path, user: str, gateway: str, **kw) -> RequestClient:
    assert fleet.central is not None
    settings = load_settings(
        overrides={
            "paths": {"state_dir": str(work / user)},
            "mqtt": {
                "host": fleet.central.host,
                "port": fleet.central.port,
                "gateway_id": gateway,
                "username": user,
                "password": password(user),
            },
        },
        environ={},
    )
    return RequestClient(settings, connect_timeout=30, **kw).connect()


class Witness:
    """A bare client that sends each request once (QoS 1) and records its PUBACK reason and every reply."""

    def __init__(self, fleet: Fleet, user: str):
        assert fleet.central is not None
        self.acks: dict[int, int] = {}
        self.replies: dict[str, list[dict]] = {}
        self.client = mqtt.Client(CallbackAPIVersion.VERSION2, client_id=user, protocol=mqtt.MQTTv5)
        self.client.username_pw_set(user, password(user))
        self.client.on_publish = lambda c, u, mid, rc, p: self.acks.__setitem__(mid, rc.value)
        self.client.on_message = self._on_message
        self.client.connect(fleet.central.host, fleet.central.port)
        self.client.loop_start()
        self.client.subscribe(f"edge-agent/gw1/response/{user}/#", qos=1)
        self.user = user

    def _on_message(self, client, userdata, msg) -> None:
        body = json.loads(msg.payload)
        self.replies.setdefault(body.get("request_id", ""), []).append(body)

    def send(self, request_id: str, question: str) -> int:
        payload = json.dumps({"request_id": request_id, "question": question}).encode()
        info = self.client.publish(f"edge-agent/gw1/request/{self.user}", payload, qos=1)
        info.wait_for_publish(10)
        deadline = time.monotonic() + 10
        while info.mid not in self.acks and time.monotonic() < deadline:
            time.sleep(0.02)
        return self.acks.get(info.mid, -1)

    def close(self) -> None:
        self.client.disconnect()
        self.client.loop_stop()


def runs(daemon, part: str) -> int:
    return sum(1 for r in daemon.runs() if r["event"] == "start" and part in r["question"])


def drill(protocol: str, cut_s: float, every: float, work: Path) -> dict:
    fleet = Fleet(work / protocol, protocol=protocol, restart_timeout=None).start(timeout=120)
    site = fleet.sites[0]
    gw1 = requester(fleet, work, "scada-1", "gw1", resend_after_s=10.0, resends=10_000)
    pool = requester(fleet, work, "scada-2", POOL)
    witness = Witness(fleet, "scada-4")
    try:
        long_steps = int(cut_s / LONG_DELAY) + 4
        long = gw1.send(f"long [steps={long_steps} delay={LONG_DELAY}]")
        assert gw1.wait_for(lambda: any(isinstance(r, ProgressReply) for r in gw1.replies(long)), 60)
        site.link.cut()
        cut_at = time.monotonic()
        sent: dict[str, float] = {}
        witnessed: dict[str, int] = {}
        pool_sent: dict[str, float] = {}
        pool_answered: dict[str, float] = {}
        receipts: list[threading.Thread] = []
        i = 0
        while time.monotonic() - cut_at < cut_s:
            rid = gw1.send(f"during {i} [steps=2 delay=0.05]")
            sent[rid] = time.monotonic()
            t = threading.Thread(target=gw1.receipt, args=(rid, cut_s + 600), daemon=True)  # resends every 10 s
            t.start()
            receipts.append(t)
            witnessed[f"w{i}"] = witness.send(f"w{i}", f"witness {i} [steps=1 delay=0.05]")
            prid = pool.send(f"pool during {i} [steps=1 delay=0.05]")
            pool_sent[prid] = time.monotonic()
            i += 1
            next_at = cut_at + i * every
            while time.monotonic() < next_at:
                for prid in pool_sent:
                    if prid not in pool_answered and pool.finals(prid):
                        pool_answered[prid] = time.monotonic()
                time.sleep(0.1)
        replies_during = sum(len(gw1.replies(rid)) for rid in sent)
        progress_before = sum(1 for r in gw1.replies(long) if isinstance(r, ProgressReply))
        site.link.restore()
        restored = time.monotonic()
        bridge_ok = fleet.bridge_up(site, 120)
        bridge_s = time.monotonic() - restored
        answered_at: dict[str, float] = {}
        deadline = restored + 300
        while time.monotonic() < deadline and len(answered_at) < len(sent) + 1:
            for rid in (*sent, long):
                if rid not in answered_at and gw1.finals(rid):
                    answered_at[rid] = time.monotonic()
            time.sleep(0.1)
        time.sleep(5)  # late copies, if any, and the witness's replies if its requests were kept
        after = sorted(answered_at[rid] - restored for rid in sent if rid in answered_at)
        progress = [r for r in gw1.replies(long) if isinstance(r, ProgressReply)]
        witness_answered = sum(1 for w in witnessed if any(is_final_body(b) for b in witness.replies.get(w, [])))
        ran = [runs(site.gateway, f"during {n} ") for n in range(i)]
        return {
            "protocol": protocol,
            "cut_s": round(restored - cut_at, 1),
            "requests_sent_during_cut": len(sent),
            "answered": sum(1 for rid in sent if gw1.finals(rid)),
            "answered_once": sum(1 for rid in sent if len(gw1.finals(rid)) == 1),
            "ran_once": sum(1 for n in ran if n == 1),
            "ran_more_than_once": sum(1 for n in ran if n > 1),
            "never_ran": sum(1 for n in ran if n == 0),
            "replies_during_cut": replies_during,
            "resends": sum(gw1.resent.get(rid, 0) for rid in sent),
            "duplicate_accepted": sum(
                1 for rid in sent for r in gw1.replies(rid) if r.kind == "accepted" and getattr(r, "duplicate", False)
            ),
            "bridge_back_s": round(bridge_s, 1) if bridge_ok else None,
            "answer_after_restore_s": {
                "min": round(after[0], 1) if after else None,
                "median": round(statistics.median(after), 1) if after else None,
                "max": round(after[-1], 1) if after else None,
            },
            "witness": {
                "sent_once_during_cut": len(witnessed),
                "puback_reasons": sorted(set(witnessed.values())),
                "answered": witness_answered,
                "ran": sum(runs(site.gateway, f"witness {n} ") for n in range(i)),
            },
            "long_job": {
                "steps": long_steps,
                "progress_before_restore": progress_before,
                "progress_replies": len(progress),
                "distinct": len({(r.event, r.step) for r in progress}),
                "finals": len(gw1.finals(long)),
                "ran": runs(site.gateway, "long "),
            },
            "pool_during_cut": {
                "sent": len(pool_sent),
                "answered_during_cut": len(pool_answered),
                "ran_on_cut_site": runs(site.member, "pool during"),
                "median_s": round(statistics.median(pool_answered[p] - pool_sent[p] for p in pool_answered), 2)
                if pool_answered
                else None,
            },
        }
    finally:
        gw1.close()
        pool.close()
        witness.close()
        fleet.stop()


def is_final_body(body: dict) -> bool:
    return body.get("kind") in ("result", "error", "cancelled")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--cut-s", type=float, default=300.0)
    ap.add_argument("--every", type=float, default=10.0)
    ap.add_argument("--protocol", default="mqttv50,mqttv311")
    ap.add_argument("--out", type=Path)
    args = ap.parse_args()
    results = {}
    with tempfile.TemporaryDirectory(prefix="fleet-drill-") as tmp:
        for protocol in args.protocol.split(","):
            results[protocol] = drill(protocol, args.cut_s, args.every, Path(tmp))
            print(json.dumps(results[protocol]), file=sys.stderr, flush=True)
    text = json.dumps({"cut_s": args.cut_s, "every_s": args.every, "results": results}, indent=2)
    print(text)
    if args.out:
        args.out.write_text(text + "\n")


if __name__ == "__main__":
    main()
