"""Hostile payloads over MQTT against the real daemon: every message gets exactly one reply that ends it, the
daemon stays up, and the next good request is answered (issue 25).

`edge-agent serve --runner script` (a subprocess) and a real Mosquitto; one requester sends `--n` messages on
its request topic (and a share on its cancel topic), each with its own MQTT v5 Correlation Data, made by a
seeded generator: valid requests with questions from every Unicode category, and requests whose fields —
values and names, every field — hold lone surrogates (as JSON escapes and as raw invalid UTF-8), NUL, controls,
noncharacters, private use, bidi overrides, wrong types, deep nesting, huge strings, bytes that are not JSON.
Issue 30 adds every character class Mosquitto refuses in a topic (C0 and C1 controls, DEL, the noncharacters
U+FDD0-FDEF and U+xFFFE/U+xFFFF of every plane), in every field, and above all in a `reply_to` inside the
requester's own subtree (the daemon publishes on it: one such topic used to close the reply connection at every
reconnect and silence every requester). (The Response Topic *property* cannot carry them: Mosquitto refuses the
requester's own PUBLISH and closes its connection.) Then it counts, per message, the replies that end it (a final
reply for a request; the reply to a cancel), sends a good request, restarts the daemon, and sends another good
request: both must be answered, and the broker must never have closed a connection on a malformed packet. Prints
the figures and writes JSON (bench/results/mqtt_fuzz.json or --out).

    .venv/bin/python bench/mqtt_fuzz.py [--n 5000] [--seed 25] [--out FILE] [--root DIR]

`--root DIR` runs the daemon of another checkout (e.g. `git worktree add --detach /tmp/base <commit>`) against
the same payloads, to compare with the code before a change.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import tempfile
import threading
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

import paho.mqtt.client as mqtt  # noqa: E402
from mqtt_targets import start_daemon  # noqa: E402
from paho.mqtt.enums import CallbackAPIVersion  # noqa: E402
from paho.mqtt.packettypes import PacketTypes  # noqa: E402
from paho.mqtt.properties import Properties  # noqa: E402

from edge_agent.mqtt.broker import MosquittoBroker  # noqa: E402
from edge_agent.mqtt.protocol import is_final, parse_reply  # noqa: E402
from edge_agent.mqtt.queue import JobQueue  # noqa: E402

GW = "fuzzgw"
HOSTILE = [
    "\ud800",
    "\udfff",
    "\udc00\ud800",
    "\x00",
    "\ufffe",
    "\uffff",
    "\U0010ffff",
    "\x1b[2J",
    "\x7f",
    "\u0085",
    "\u202e",
    "\ue000",
    "\ufdd0",
    "\u200b",
    "\U0001f600",
    "\u0301",
    "\\",
    '"',
    "\n",
    "\t",
]
#: one of every class Mosquitto refuses in a topic name (utf8_mosq.c): C0, DEL, C1, noncharacters in and beyond the BMP
TOPIC_REFUSED = [
    "\x01",
    "\x08",
    "\x1f",
    "\x7f",
    "\x80",
    "\x85",
    "\x9f",
    "\ufdd0",
    "\ufde0",
    "\ufdef",
    "\ufffe",
    "\uffff",
    "\U0001fffe",
    "\U0001ffff",
    "\U0008fffe",
    "\U0010fffe",
    "\U0010ffff",
    "\x00",
]
FIELDS = ["request_id", "question", "options", "reply_to", "correlation", "answer", "on_behalf_of"]


class Gen:
    def __init__(self, seed: int):
        self.rng = random.Random(seed)

    def char(self) -> str:
        r = self.rng.random()
        if r < 0.15:
            return self.rng.choice(TOPIC_REFUSED)
        if r < 0.25:
            return self.rng.choice(HOSTILE)
        if r < 0.5:
            return chr(self.rng.randrange(0x20, 0x7F))
        return chr(self.rng.randrange(0, 0x110000))  # every plane and category, surrogates included

    def text(self, most: int = 30) -> str:
        return "".join(self.char() for _ in range(self.rng.randrange(0, most)))

    def value(self, depth: int = 0):
        kind = self.rng.randrange(9 if depth < 4 else 6)
        if kind == 0:
            return None
        if kind == 1:
            return self.rng.choice([True, False])
        if kind == 2:
            return self.rng.choice([0, -1, 2**63, 3.5, 1e308])
        if kind in (3, 4, 5):
            return self.text()
        if kind == 6:
            return [self.value(depth + 1) for _ in range(self.rng.randrange(4))]
        return {self.text(8): self.value(depth + 1) for _ in range(self.rng.randrange(4))}

    def request(self, n: int) -> tuple[str, bytes, str]:
        """(topic kind, payload, what it is) for message n."""
        r = self.rng.random()
        rid = f"f{n}"
        if r < 0.25:  # valid, with a question from every category (the daemon may accept or refuse it)
            body = {"request_id": rid, "question": (self.text(60) or "q") + " [steps=1 delay=0]"}
            what = "valid-shaped"
        elif r < 0.45:  # a reply_to in the requester's own subtree holding a character Mosquitto refuses in a topic
            leaf = self.text(6) + self.rng.choice(TOPIC_REFUSED) + self.text(6)
            body = {
                "request_id": rid,
                "question": "fine [steps=1 delay=0]",
                "reply_to": f"edge-agent/{GW}/response/fuzz/{leaf}",
            }
            if self.rng.random() < 0.3:  # and in another field too
                field = self.rng.choice([f for f in FIELDS if f != "reply_to"])
                body[field] = self.text(4) + self.rng.choice(TOPIC_REFUSED) + self.text(4)
            what = "topic-refused reply_to"
        elif r < 0.85:  # a hostile value or name in one or more fields
            body = {"request_id": rid, "question": "fine [steps=1 delay=0]"}
            for field in self.rng.sample(FIELDS, self.rng.randrange(1, 4)):
                body[field] = self.value()
            if self.rng.random() < 0.2:
                body[self.text(6)] = self.value()
            what = "hostile-field"
        elif r < 0.95:
            return "cancel", self._encode({"request_id": self.rng.choice([rid, self.text(10), 5])}), "cancel"
        else:
            return "request", bytes(self.rng.randrange(256) for _ in range(self.rng.randrange(1, 80))), "bytes"
        return "request", self._encode(body), what

    def _encode(self, body: dict) -> bytes:
        if self.rng.random() < 0.5:
            return json.dumps(body).encode()  # a lone surrogate travels as "\ud800"
        return json.dumps(body, ensure_ascii=False).encode("utf-8", "surrogatepass")  # as invalid UTF-8


class Requester:
    def __init__(self, port: int):
        self.ends: dict[bytes, list] = {}
        self.all: Counter = Counter()
        self.lock = threading.Lock()
        self.c = mqtt.Client(CallbackAPIVersion.VERSION2, client_id="fuzz", protocol=mqtt.MQTTv5)
        self.c.max_inflight_messages = 100
        self.c.on_message = self.on_message
        ready = threading.Event()
        self.c.on_subscribe = lambda *a: ready.set()
        self.c.on_connect = lambda c, *a: c.subscribe(f"edge-agent/{GW}/response/fuzz/#", qos=1)
        self.c.connect("127.0.0.1", port)
        self.c.loop_start()
        if not ready.wait(10):
            raise SystemExit("the requester could not subscribe")

    def on_message(self, client, userdata, msg) -> None:
        corr = bytes(getattr(msg.properties, "CorrelationData", b"") or b"")
        reply = parse_reply(msg.payload)
        with self.lock:
            self.all[corr] += 1
            if is_final(reply) or reply.kind == "error":  # an outcome, or the error about a side message
                self.ends.setdefault(corr, []).append(reply)

    def send(self, kind: str, payload: bytes, corr: bytes) -> None:
        props = Properties(PacketTypes.PUBLISH)
        props.CorrelationData = corr
        self.c.publish(f"edge-agent/{GW}/{kind}/fuzz", payload, qos=1, properties=props)

    def wait(self, corrs: list[bytes], timeout: float) -> bool:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            with self.lock:
                if all(c in self.ends for c in corrs):
                    return True
            time.sleep(0.2)
        return False


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--n", type=int, default=5000)
    ap.add_argument("--seed", type=int, default=25)
    ap.add_argument("--out", type=Path, default=ROOT / "bench" / "results" / "mqtt_fuzz.json")
    ap.add_argument("--root", type=Path, default=ROOT, help="the checkout whose daemon is fuzzed")
    ap.add_argument("--wait", type=float, default=0.0, help="seconds to wait for replies (default: n / 10, >= 120)")
    args = ap.parse_args()
    work = Path(tempfile.mkdtemp(prefix="mqtt-fuzz-"))
    broker = MosquittoBroker(work / "broker").start()
    daemon = start_daemon(work, broker.port, GW, [], root=args.root.resolve())
    started = time.monotonic()
    try:
        req, gen = Requester(broker.port), Gen(args.seed)
        sent: dict[bytes, str] = {}
        for n in range(args.n):
            kind, payload, what = gen.request(n)
            corr = f"m{n}".encode()
            sent[corr] = what
            req.send(kind, payload, corr)
        complete = req.wait(list(sent), timeout=args.wait or max(120.0, args.n * 0.1))
        time.sleep(1.0)  # a second ending reply would follow the first closely
        good = b"good"
        req.send("request", json.dumps({"request_id": "good", "question": "still there? [steps=1]"}).encode(), good)
        answered = req.wait([good], 30) and req.ends[good][0].kind == "result"
        elapsed = time.monotonic() - started
        with req.lock:
            before_restart = sum(req.all.values())
        alive = daemon.poll() is None  # after 5,000 hostile messages, before the restart
        daemon.terminate()
        daemon.wait(20)
        daemon = start_daemon(work, broker.port, GW, [], root=args.root.resolve())
        good2 = b"good-after-restart"
        req.send(
            "request", json.dumps({"request_id": "good2", "question": "after a restart? [steps=1]"}).encode(), good2
        )
        answered_after = req.wait([good2], 30) and req.ends[good2][0].kind == "result"
        time.sleep(1.0)
        with req.lock:
            sent_again = sum(req.all.values()) - before_restart - req.all[good2]
        malformed = broker.log_path.read_text(errors="replace").count("malformed packet")
        with req.lock:
            counts = Counter(len(req.ends.get(c, [])) for c in sent)
            outcomes = Counter(
                f"{r.kind}:{getattr(r, 'code', getattr(r, 'status', ''))}" for c in sent for r in req.ends.get(c, [])
            )
            by_what = Counter(sent.values())
            bad = [(c.decode(), sent[c], len(req.ends.get(c, []))) for c in sent if len(req.ends.get(c, [])) != 1]
        jobs = JobQueue(work / GW / "queue.db")
        dead = len(jobs.dead_letters()) if hasattr(jobs, "dead_letters") else 0
        queued = jobs.counts()
        jobs.close()
    finally:
        daemon.terminate()
        daemon.wait(20)
        broker.kill()
    result = {
        "n": args.n,
        "seed": args.seed,
        "root": str(args.root.resolve()),
        "messages_by_shape": dict(by_what),
        "ending_replies_per_message": {str(k): v for k, v in sorted(counts.items())},
        "outcomes": dict(outcomes.most_common()),
        "not_exactly_one": bad[:50],
        "all_ended_once": not bad,
        "daemon_alive": alive,
        "good_request_answered": bool(answered),
        "good_request_answered_after_restart": bool(answered_after),
        "replies_sent_again_after_restart": sent_again,
        "broker_closed_on_malformed_packet": malformed,
        "dead_letters": dead,
        "jobs": queued,
        "seconds": round(elapsed, 1),
        "complete_before_timeout": complete,
    }
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(result, indent=2, ensure_ascii=True) + "\n")
    print(json.dumps(result, indent=2, ensure_ascii=True))
    return 0 if (not bad and alive and answered and answered_after and not malformed) else 1


if __name__ == "__main__":
    sys.exit(main())
