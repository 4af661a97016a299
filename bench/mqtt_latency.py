"""Request → `accepted` latency of the gateway daemon on loopback against Mosquitto, group commit vs not.

Measured side by side in one run, same broker, same client code, same machine moment:
  * echo         — a bare paho client that republishes every request at once (the broker's own round trip),
                   with the daemon's in-flight limit (`mqtt.max_inflight`, not paho's default of 20);
  * echo-durable — the same with the daemon's persistent session (clean_start=False, Session Expiry);
  * daemon       — `edge-agent serve --runner script` with group commit (requests that arrive together
                   share one SQLite transaction and fsync, then their PUBACKs), replies on their own connection;
  * daemon-1conn — the same daemon with `--no-reply-connection` (replies on the session's connection);
  * daemon-1tx   — the same daemon with `--no-group-commit` (one transaction and fsync per request);
each daemon with a long job running so that all requests stay queued, in two patterns: `sequential`
(one request at a time) and `burst` (N requests sent back to back). `--rounds` repeats everything with
the targets in rotating order; the percentiles are over all rounds. Prints p50/p99, each target's p99
over echo's, and writes bench/results/mqtt_latency.json (or --out). `--base DIR` adds `daemon@base`: the
group-commit daemon of another checkout (e.g. `git worktree add --detach /tmp/base HEAD~1`), so a change
to the daemon is measured side by side with the code before it, in the same run (given again: daemon@base2...).

    .venv/bin/python bench/mqtt_latency.py [--n 100] [--rounds 3] [--base DIR] [--console] [--out FILE]
    .venv/bin/python bench/mqtt_latency.py --fleet   # daemon with audit + metrics on vs off

`--console` adds `daemon+console`: the same daemon with `edge-agent console` beside it and an operator's page
open (one request followed over server-sent events, the history page loaded twice a second).
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
sys.path.insert(0, str(ROOT / "bench"))

import paho.mqtt.client as mqtt  # noqa: E402
from mqtt_targets import ECHOES, FLEET, GW, TARGETS, ConsoleBeside, echo_main, scraper, start_daemon  # noqa: E402
from paho.mqtt.enums import CallbackAPIVersion  # noqa: E402
from paho.mqtt.packettypes import PacketTypes  # noqa: E402
from paho.mqtt.properties import Properties  # noqa: E402

from edge_agent.mqtt.broker import MosquittoBroker  # noqa: E402
from edge_agent.mqtt.connection import _no_delay  # noqa: E402

PATTERNS = ("sequential", "burst")


class Probe:
    """Sends requests and times the first `accepted` reply of each."""

    def __init__(self, port: int, gateway: str, wake_each: bool = False):
        self.gateway, self.cid = gateway, f"probe-{uuid.uuid4().hex[:6]}"
        self.wake_each = wake_each  # the probe before 2026-11-24 (s9): its waiter woke at every reply
        self.sent: dict[str, float] = {}
        self.got: dict[str, float] = {}
        self.missing: set[str] = set()
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
                self.missing.discard(body["request_id"])
                if self.wake_each or not self.missing:  # lean: the waiter wakes once, when all are in
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
            self.missing = {r for r in rids if r not in self.got}
            self.cond.wait_for(lambda: not self.missing, timeout)

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
    return {
        "n": len(values),
        "p50_ms": pct(values, 50),
        "p99_ms": pct(values, 99),
        "mean_ms": round(statistics.fmean(values), 2),
        "max_ms": round(max(values), 2),
    }


def measure(probe: Probe, n: int, question: str) -> dict[str, list[float]]:
    seq = []
    for _ in range(n):
        rid = probe.send(question)
        probe.wait([rid])
        seq.append(rid)
    burst = [probe.send(question) for _ in range(n)]
    probe.wait(burst)
    return {"sequential": probe.latencies_ms(seq), "burst": probe.latencies_ms(burst)}


def run(
    n: int,
    rounds: int,
    work: Path,
    broker,
    targets: dict[str, tuple[list[str], Path]],
    wake_each: bool = False,
    extras: dict | None = None,
) -> tuple[dict, dict, dict]:
    """Latency samples per target and pattern; per daemon its accepted count and transactions; per target
    each round's burst p99."""
    echoes = {name: (mp.Event(), durable) for name, durable in ECHOES.items() if name in targets}
    procs = {
        name: mp.Process(target=echo_main, args=(broker.port, ready, name, durable), daemon=True)
        for name, (ready, durable) in echoes.items()
    }
    for proc in procs.values():
        proc.start()
    extras = extras or {}
    daemons = {
        name: start_daemon(
            work, broker.port, f"{GW}-{name.replace('@', '-').replace('+', '-')}", flags, root, extras.get(name)
        )
        for name, (flags, root) in targets.items()
        if flags
    }
    consoles = [
        ConsoleBeside(work, broker.port, f"{GW}-{name.replace('@', '-').replace('+', '-')}")
        for name in daemons
        if name.endswith("+console")
    ]
    stop_scraping = threading.Event()
    for name, extra in extras.items():
        if extra.get("metrics", {}).get("enabled"):
            scraper(work, f"{GW}-{name}", stop_scraping)
    try:
        for ready, _ in echoes.values():
            ready.wait(10)
        probes = {
            name: Probe(broker.port, f"{GW}-{name.replace('@', '-').replace('+', '-')}", wake_each) for name in targets
        }
        for name in daemons:  # everything after it stays queued
            probes[name].wait([probes[name].send("hold the worker [steps=1 delay=3600]")])
        for console in consoles:
            console.start()
        for probe in probes.values():
            measure(probe, 10, "warm-up [steps=1]")
        samples: dict = {name: {pat: [] for pat in PATTERNS} for name in targets}
        rounds_p99: dict[str, list[float]] = {}  # each round's burst p99 per target
        names = list(targets)
        for r in range(rounds):
            for name in names[r % len(names) :] + names[: r % len(names)]:
                for pat, values in measure(probes[name], n, "q [steps=1]").items():
                    samples[name][pat] += values
                    if pat == "burst":
                        rounds_p99.setdefault(name, []).append(pct(values, 99))
        accepted = {name: len(p.got) for name, p in probes.items()}
        for probe in probes.values():
            probe.close()
    finally:
        stop_scraping.set()
        for console in consoles:
            info_pages = console.pages
            console.stop()
            print(f"console beside the daemon: history page loaded {info_pages} times during the run")
        for proc in daemons.values():
            proc.terminate()
            proc.wait(30)
        for proc in procs.values():
            proc.terminate()
    info = {}
    for name in daemons:  # a daemon with group commit logs its transaction count when it stops
        log = work / f"{GW}-{name.replace('@', '-').replace('+', '-')}.log"
        lines = [x for x in log.read_text().splitlines() if "group commit:" in x]
        info[name] = {"accepted": accepted[name], "transactions": lines[-1].split(": ", 2)[-1] if lines else None}
    return samples, info, rounds_p99


def main() -> int:
    import subprocess

    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--n", type=int, default=100, help="requests per pattern and round (the burst size)")
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument(
        "--probe-wakes",
        choices=("once", "each"),
        default="once",
        help="the probe's waiting thread wakes once per burst (default) or at every reply (the "
        "probe before 2026-11-24: its own wake-ups slowed how fast it took replies in)",
    )
    ap.add_argument(
        "--broker-saves",
        choices=("every-change", "every-30-min"),
        default="every-change",
        help="Mosquitto's persistence: the gateway's (autosave_on_changes, interval 1: its whole "
        "database written at every change, so acknowledged QoS 1 messages survive a SIGKILL), or "
        "Mosquitto's default (every 1800 s), to see the daemon's own cost without the broker's saves",
    )
    ap.add_argument(
        "--base",
        type=Path,
        action="append",
        default=[],
        help="another checkout whose daemon runs beside this one (daemon@base; given again: daemon@base2, ...)",
    )
    ap.add_argument(
        "--skip",
        action="append",
        default=[],
        choices=[t for t in TARGETS if t not in ("echo", "daemon")],
        help="leave a target out (more rounds in the same time)",
    )
    ap.add_argument(
        "--fleet",
        action="store_true",
        help="echo, the daemon with audit and metrics off, and daemon-fleet with both on (its /metrics "
        "scraped every second): the fleet features' cost, goal burst p99 ≤ 1.05 x the daemon's",
    )
    ap.add_argument(
        "--console",
        action="store_true",
        help="add daemon+console: the daemon with `edge-agent console` beside it, an operator's page "
        "open (docs/console.md)",
    )
    ap.add_argument("--out", type=Path, default=ROOT / "bench" / "results" / "mqtt_latency.json")
    args = ap.parse_args()
    targets = {name: (flags, ROOT) for name, flags in TARGETS.items() if name not in args.skip}
    if args.fleet:
        targets = {"echo": ([], ROOT), "daemon": (TARGETS["daemon"], ROOT), "daemon-fleet": (TARGETS["daemon"], ROOT)}
    if args.console:
        targets["daemon+console"] = (["--group-commit"], ROOT)
    bases = {f"daemon@base{i + 1 if i else ''}": base for i, base in enumerate(args.base)}
    targets |= {name: (["--group-commit"], base.resolve()) for name, base in bases.items()}
    work = Path(tempfile.mkdtemp(prefix="mqtt-bench-"))
    load = os.getloadavg()
    extra = "" if args.broker_saves == "every-change" else "autosave_on_changes false\nautosave_interval 1800\n"
    broker = MosquittoBroker(work / "broker", extra_conf=extra).start()
    try:
        samples, daemons, per_round = run(
            args.n, args.rounds, work, broker, targets, args.probe_wakes == "each", FLEET if args.fleet else None
        )
    finally:
        broker.stop()
    results = {name: {pat: summary(v) for pat, v in pats.items()} for name, pats in samples.items()}
    over_echo = {
        name: {
            pat: round(results[name][pat]["p99_ms"] / max(results["echo"][pat]["p99_ms"], 1e-6), 2) for pat in PATTERNS
        }
        for name in targets
        if name != "echo"
    }
    round_ratios = {
        name: [round(d / e, 3) for d, e in zip(per_round[name], per_round["echo"])]
        for name in targets
        if name != "echo"
    }
    report = {
        "bench": "mqtt_latency",
        "requests_per_pattern": args.n,
        "rounds": args.rounds,
        "base": [str(b.resolve()) for b in args.base] or None,
        "probe_wakes": args.probe_wakes,
        "broker_saves": args.broker_saves,
        "broker": "mosquitto "
        + subprocess.run([broker.binary, "-h"], capture_output=True, text=True).stdout.split("\n")[0].split()[-1],
        "machine": {
            "cpus": os.cpu_count(),
            "python": platform.python_version(),
            "platform": platform.platform(),
            "loadavg_1_5_15_before": [round(x, 2) for x in load],
        },
        "results": results,
        "p99_over_echo_p99": over_echo,
        "goal": "daemon burst p99 <= 1.2 x echo burst p99",
        "goal_met": over_echo["daemon"]["burst"] <= 1.2,
        "daemons": daemons,
        "per_round_burst_p99_ms": per_round,
        "per_round_burst_p99_over_echo": {
            name: {
                "median": statistics.median(r),
                "min": min(r),
                "max": max(r),
                "rounds_at_most_1_2": sum(x <= 1.2 for x in r),
                "ratios": r,
            }
            for name, r in round_ratios.items()
        },
        "when": time.strftime("%Y-%m-%dT%H:%M:%S"),
    }
    if args.fleet:
        fleet = [round(f / d, 3) for f, d in zip(per_round["daemon-fleet"], per_round["daemon"])]
        pooled = round(results["daemon-fleet"]["burst"]["p99_ms"] / results["daemon"]["burst"]["p99_ms"], 3)
        report["fleet"] = {
            "config": FLEET,
            "goal": "daemon-fleet burst p99 <= 1.05 x daemon burst p99",
            "burst_p99_fleet_over_plain": pooled,
            "goal_met": pooled <= 1.05,
            "per_round_ratios": fleet,
            "per_round_median": statistics.median(fleet),
        }
    print(
        f"request → accepted on loopback, {report['broker']} (saves {args.broker_saves}), {args.n} requests per "
        f"pattern × {args.rounds} rounds (targets in rotating order)"
    )
    print(f"{'target':12}{'pattern':12}{'p50 ms':>9}{'p99 ms':>9}{'mean ms':>9}{'max ms':>9}{'p99/echo':>10}")
    for name in targets:
        for pat in PATTERNS:
            r, ratio = results[name][pat], over_echo.get(name, {}).get(pat, 1.0)
            print(f"{name:12}{pat:12}{r['p50_ms']:>9}{r['p99_ms']:>9}{r['mean_ms']:>9}{r['max_ms']:>9}{ratio:>10}")
    print(
        f"burst p99 / bare-broker burst p99: group commit {over_echo['daemon']['burst']}, "
        f"replies on the session's connection {over_echo.get('daemon-1conn', {}).get('burst', '-')}, "
        f"one transaction per request {over_echo.get('daemon-1tx', {}).get('burst', '-')} (goal ≤ 1.2: "
        f"{'met' if report['goal_met'] else 'NOT met'})"
    )
    for name, base in bases.items():
        print(f"{name} ({base}): {over_echo[name]['burst']}")
    if args.console:
        ratio = results["daemon+console"]["burst"]["p99_ms"] / max(results["daemon"]["burst"]["p99_ms"], 1e-6)
        report["console_burst_p99_over_daemon"] = round(ratio, 3)
        print(f"burst p99 with the console beside the daemon / without: {ratio:.3f} (goal ≤ 1.05)")
    for name, r in report["per_round_burst_p99_over_echo"].items():
        print(
            f"{name}: each round's burst p99 / that round's echo burst p99: median {r['median']:.2f} "
            f"(min {r['min']:.2f}, max {r['max']:.2f}; ≤ 1.2 in {r['rounds_at_most_1_2']} of {len(r['ratios'])})"
        )
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(report, indent=2) + "\n")
    for name in daemons:
        print(f"{name}: {daemons[name]['transactions']}")
    if args.fleet:
        f = report["fleet"]
        print(
            f"fleet features (audit + metrics scraped) on vs off: burst p99 {f['burst_p99_fleet_over_plain']}x "
            f"(goal ≤ 1.05: {'met' if f['goal_met'] else 'NOT met'}); per round median {f['per_round_median']:.3f}"
        )
    print(f"wrote {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
