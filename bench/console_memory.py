"""The console's resident memory over many requests (issue 31): `edge-agent console` and `edge-agent serve --runner
script` as separate processes on a real Mosquitto, an operator logged in who asks N questions one after the other
through the console (POST /ask, then the request's server-sent events until its final reply, as the live page
does). The console's RSS (/proc/<pid>/status VmRSS) is sampled every `--every` requests; a finished request leaves
the console's memory `console.answer_timeout_s` after its final reply (default 60 s), so after a warm-up of that
long the curve must be flat. Writes JSON (samples, flatness after the warm-up: range and least-squares slope per
1,000 requests), the goal of issue 41 (RSS after `--n` asks within 10 MiB of RSS after 1,000: the difference and the
ratio are printed) and a plot.

    .venv/bin/python bench/console_memory.py [--n 10000] [--every 100] [--answer-timeout 60] [--pages] \
        [--tracemalloc] [--base DIR] [--out bench/results/console_memory.json]

`--pages` also loads what a browser loads per ask (the live page, its state, the home page every 10th ask);
`--tracemalloc` runs the console under tracemalloc and writes the allocations that grew most between the 1,000th
ask and the last (file and line, with the size and count they grew by): where an ask leaves memory behind.

`--base DIR` runs the console of another checkout (e.g. the code before this change) in the same way, for a
side-by-side curve (its own answer_timeout_s setting is ignored by code that has none).
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import yaml  # noqa: E402

from edge_agent.console.client import ConsoleClient  # noqa: E402
from edge_agent.console.users import UserStore  # noqa: E402
from edge_agent.mqtt.broker import MosquittoBroker, start_logged  # noqa: E402

GW = "memgw"


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def rss_kib(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    return 0


#: the console under tracemalloc: SIGUSR1 writes a snapshot to $CONSOLE_MEM_SNAPSHOT.<n> (n = 1, 2, ...)
TRACED = """
import os, signal, sys, tracemalloc
from edge_agent.cli import main
import edge_agent.commands.console, edge_agent.console.web  # imported before tracing: the diff is of asks
tracemalloc.start(8)
taken = [0]
def snap(*_):
    taken[0] += 1
    tracemalloc.take_snapshot().dump(os.environ["CONSOLE_MEM_SNAPSHOT"] + "." + str(taken[0]))
signal.signal(signal.SIGUSR1, snap)
sys.argv = ["edge-agent", *sys.argv[1:]]
main()
"""


def _start(args: list[str], cwd: Path, log: Path, marker: bytes, env: dict, traced: bool = False) -> subprocess.Popen:
    head = ["-c", TRACED] if traced else ["-m", "edge_agent"]
    argv = [sys.executable, *head, *args]
    return start_logged(argv, cwd=cwd, env=env, log=log, ready=marker, what=args[0], timeout=180 if traced else 60)


def _snapshot(pid: int, path: Path, wait_s: float = 120.0):
    """Ask the traced console for a tracemalloc snapshot (SIGUSR1) and load it once it is written."""
    import tracemalloc

    before = set(path.parent.glob(path.name + ".*"))
    os.kill(pid, signal.SIGUSR1)
    deadline = time.monotonic() + wait_s
    while time.monotonic() < deadline:
        new = sorted(set(path.parent.glob(path.name + ".*")) - before)
        if new:
            size = -1
            while size != new[0].stat().st_size:  # written whole
                size = new[0].stat().st_size
                time.sleep(0.5)
            return tracemalloc.Snapshot.load(str(new[0]))
        time.sleep(0.2)
    raise SystemExit("the console wrote no tracemalloc snapshot")


def grew(first, last, top: int = 15) -> list[dict]:
    """The allocation sites (file:line) that grew most from one snapshot to the other."""
    import tracemalloc

    ignore = [
        tracemalloc.Filter(False, tracemalloc.__file__),
        tracemalloc.Filter(False, "<frozen importlib._bootstrap>"),
    ]
    diff = last.filter_traces(ignore).compare_to(first.filter_traces(ignore), "lineno")
    total = sum(d.size_diff for d in diff)
    print(f"  traced memory grew {total / 1024:.1f} KiB in all", flush=True)
    return [
        {"where": str(d.traceback[0]), "grew_kib": round(d.size_diff / 1024, 1), "count_diff": d.count_diff}
        for d in diff[:top]
    ]


def run(
    n: int, every: int, answer_timeout: float, code: Path, work: Path, *, pages: bool = False, traced: bool = False
) -> dict:
    broker = MosquittoBroker(work / "broker").start()
    state = work / "state"
    UserStore(state / "console-users.yaml").add("bench", "bench-password", "operator")
    web_port = _free_port()
    conf = work / "edge-agent.yaml"
    conf.write_text(
        yaml.safe_dump(
            {
                "paths": {"state_dir": str(state)},
                "mqtt": {
                    "host": broker.host,
                    "port": broker.port,
                    "gateway_id": GW,
                    "trusted_consoles": ["edge-agent-console"],
                },
                "audit": {"enabled": True},
                "console": {"port": web_port, "answer_timeout_s": answer_timeout},
            }
        )
    )
    env = {k: v for k, v in os.environ.items() if not k.startswith("EDGE_AGENT_")} | {"PYTHONPATH": str(code)}
    daemon = _start(
        ["serve", "--runner", "script", "--config", str(conf), "--log-level", "WARNING"],
        code,
        work / "daemon.log",
        b"",
        env,
    )
    time.sleep(2.0)
    snapshot = work / "console.snapshot"
    console = _start(
        ["console", "--config", str(conf), "--log-level", "WARNING"],
        code,
        work / "console.log",
        b"console on",
        env | {"CONSOLE_MEM_SNAPSHOT": str(snapshot)},
        traced=traced,
    )
    url = f"http://127.0.0.1:{web_port}"
    samples = []
    snaps = []
    try:
        b = ConsoleClient(url, "bench", "bench-password")
        time.sleep(1.0)
        started = time.monotonic()
        samples.append({"requests": 0, "t_s": 0.0, "rss_kib": rss_kib(console.pid)})
        for i in range(1, n + 1):
            status, text = b.post_json("/ask", {"question": f"how many chillers, number {i} [steps=1 delay=0]"})
            if status != 200:
                raise SystemExit(f"ask {i}: {status} {text[:200]}")
            rid = json.loads(text)["request_id"]
            if pages:  # what the live page's browser loads
                b.get(f"/requests/{rid}")
                b.get(f"/api/requests/{rid}")
                if i % 10 == 0:
                    b.get("/")
            with b.open(f"/api/requests/{rid}/events", timeout=120) as stream:
                while stream.readline():  # the stream ends after the final reply
                    pass
            if traced and i in (min(1000, n), n):
                snaps.append(_snapshot(console.pid, snapshot))
            if i % every == 0 or i == 1000:
                samples.append(
                    {"requests": i, "t_s": round(time.monotonic() - started, 2), "rss_kib": rss_kib(console.pid)}
                )
                if i % (every * 10) == 0:
                    print(
                        f"{i} requests, {samples[-1]['t_s']:.0f} s, "
                        f"console RSS {samples[-1]['rss_kib'] / 1024:.1f} MiB",
                        flush=True,
                    )
        following = json.loads(b.get("/healthz")).get("following")
    finally:
        for proc in (console, daemon):
            proc.terminate()
            try:
                proc.wait(20)
            except subprocess.TimeoutExpired:
                proc.kill()
        broker.kill()
    return {
        "samples": samples,
        "grew": grew(*snaps) if len(snaps) == 2 else [],
        "following_at_end": following,
        "requests_per_s": round(n / max(samples[-1]["t_s"], 1e-9), 1),
    }


def goal(samples: list[dict], at: int = 1000, limit_mib: float = 10.0) -> dict:
    """Issue 41's goal: RSS after the last ask within `limit_mib` of RSS after the `at`-th."""
    first = next((s for s in samples if s["requests"] >= at), samples[-1])
    last = samples[-1]
    diff = (last["rss_kib"] - first["rss_kib"]) / 1024
    return {
        "at": first["requests"],
        "rss_at_mib": round(first["rss_kib"] / 1024, 2),
        "last": last["requests"],
        "rss_last_mib": round(last["rss_kib"] / 1024, 2),
        "diff_mib": round(diff, 2),
        "ratio": round(last["rss_kib"] / max(first["rss_kib"], 1), 3),
        "limit_mib": limit_mib,
        "met": diff <= limit_mib,
    }


def flatness(samples: list[dict], warm_s: float) -> dict:
    after = [s for s in samples if s["t_s"] >= warm_s] or samples[-2:]
    xs = [s["requests"] / 1000 for s in after]
    ys = [s["rss_kib"] / 1024 for s in after]
    mx, my = sum(xs) / len(xs), sum(ys) / len(ys)
    var = sum((x - mx) ** 2 for x in xs) or 1e-9
    slope = sum((x - mx) * (y - my) for x, y in zip(xs, ys)) / var
    return {
        "warm_up_s": warm_s,
        "from_request": after[0]["requests"],
        "samples": len(after),
        "min_mib": round(min(ys), 2),
        "max_mib": round(max(ys), 2),
        "range_mib": round(max(ys) - min(ys), 2),
        "slope_mib_per_1000": round(slope, 3),
    }


def plot(results: dict, path: Path) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(8, 4), layout="constrained")
    for name, res in results.items():
        xs = [s["requests"] for s in res["samples"]]
        ys = [s["rss_kib"] / 1024 for s in res["samples"]]
        ax.plot(xs, ys, label=f"{name} (answer_timeout_s {res['answer_timeout_s']:g})", linewidth=1.3)
        f = res["flat"]
        ax.axvline(f["from_request"], color="grey", linestyle=":", linewidth=0.8)
    ax.set_xlabel("requests asked through the console")
    ax.set_ylabel("console RSS (MiB)")
    ax.set_title("edge-agent console: resident memory over requests (script runner)", fontsize=10)
    ax.grid(True, alpha=0.3)
    ax.legend(fontsize=8, loc="upper left")
    fig.savefig(path)
    plt.close(fig)


def main() -> None:
    import tempfile

    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--n", type=int, default=10000)
    ap.add_argument("--every", type=int, default=100)
    ap.add_argument("--answer-timeout", type=float, default=60.0)
    ap.add_argument("--pages", action="store_true", help="also load the live page, its state and the home page")
    ap.add_argument("--tracemalloc", action="store_true", help="top allocation growth between ask 1,000 and the last")
    ap.add_argument("--base", type=Path, help="another checkout's console, measured the same way first")
    ap.add_argument("--base-n", type=int, help="requests for --base (default --n)")
    ap.add_argument("--out", type=Path, default=ROOT / "bench" / "results" / "console_memory.json")
    args = ap.parse_args()
    results = {}
    load_before = os.getloadavg()
    runs = ([("base", args.base.resolve(), args.base_n or args.n)] if args.base else []) + [("this", ROOT, args.n)]
    for name, code, n in runs:
        with tempfile.TemporaryDirectory(prefix="console-mem-") as tmp:
            print(f"{name}: {n} requests through the console of {code}", flush=True)
            res = run(n, args.every, args.answer_timeout, code, Path(tmp), pages=args.pages, traced=args.tracemalloc)
        res["answer_timeout_s"] = args.answer_timeout
        res["n"] = n
        res["pages"] = args.pages
        res["tracemalloc"] = args.tracemalloc
        res["flat"] = flatness(res["samples"], warm_s=args.answer_timeout + 30)
        res["goal"] = goal(res["samples"])
        results[name] = res
        print(name, json.dumps(res["flat"]), f"{res['requests_per_s']} requests/s", flush=True)
        g = res["goal"]
        print(
            f"{name}: RSS {g['rss_at_mib']} MiB after {g['at']} asks, {g['rss_last_mib']} MiB after {g['last']}: "
            f"{g['diff_mib']:+} MiB, ratio {g['ratio']} (goal: within {g['limit_mib']:g} MiB: "
            f"{'met' if g['met'] else 'NOT met'})",
            flush=True,
        )
        for row in res["grew"]:
            print(f"  {row['grew_kib']:>9} KiB {row['count_diff']:>+8}  {row['where']}", flush=True)
    report = {
        "machine": {
            "platform": platform.platform(),
            "cpus": os.cpu_count(),
            "load_before": load_before,
            "load_at_end": os.getloadavg(),
        },
        "results": results,
    }
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(report, indent=1))
    plot(results, args.out.with_suffix(".png"))
    print(f"wrote {args.out} and {args.out.with_suffix('.png')}")


if __name__ == "__main__":
    main()
