"""Issue 30's drills against a real Mosquitto set up as docs/gateway-install.md says (password file, the shipped
authentication directives and ACL), the daemon (`serve --runner script`) of any checkout, so the code before a
change and after it are drilled alike (`--root`; e.g. `git archive 8f30297 | tar -x -C /tmp/before`).

  jam      a requester's `reply_to` in its own subtree ending in U+0001: victims answered before/after a restart,
           rows left in the outbox, connections the broker closed on a malformed packet
  burst    one requester's 1,000-request burst, then two others ask once: their wait (queued → running) in job
           lengths, their `accepted` position (burst-q1000: the same with mqtt.max_queued_per_client 1000)
  flood    the daemon down, the broker's queue for its session full (max_queued_messages 50 here, 10,000 shipped
           before: the same mechanism, smaller): three other requesters use `edge-agent request` (the checkout's
           own client); answered or not
  packet   a broker with max_packet_size 131072, 64 KB Correlation Data, a 300 kB file, file_chunk_bytes 1 MiB:
           the result and its file arrive, victims answered before/after a restart; bytes on the wire per file byte
  victims  issue 42: 10,050 requests of one requester queued while the daemon is down (its persistent session), then
           3 victims ask; restart: when the victims' `accepted` and result arrive (from the restart), the flood's
           refusals' tail, keep-alive drops, requests answered twice or never
  order    issue 42: 20 requesters x 99 requests, then one more requester: per request, `accepted` before every
           progress before the result, each once; when the last requester's `accepted` arrives
  debian   config/mosquitto.conf copied into conf.d beside Debian 12's main file: does Mosquitto start

    .venv/bin/python bench/mqtt_drills.py [--root DIR] [--only jam,burst,...] [--out FILE]
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import sqlite3
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import paho.mqtt.client as mqtt  # noqa: E402
import yaml  # noqa: E402
from paho.mqtt.enums import CallbackAPIVersion  # noqa: E402
from paho.mqtt.packettypes import PacketTypes  # noqa: E402
from paho.mqtt.properties import Properties  # noqa: E402

from edge_agent.mqtt.broker import MosquittoBroker, find_mosquitto, free_port, start_logged, wait_port  # noqa: E402

DAEMON, PW = "edge-agent-gw1", "s3cret"


def shipped_auth(root: Path) -> tuple[str, str]:
    """The authentication directives and the ACL block of `root`'s config/mosquitto.conf (as the tests do)."""
    lines = (root / "config" / "mosquitto.conf").read_text().splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith("# --- authentication"))
    end = next(i for i, line in enumerate(lines) if i > start and line.startswith("# --- "))
    directives = [
        line
        for line in lines[start:end]
        if line.strip() and not line.startswith("#") and line.split()[0] not in ("password_file", "acl_file")
    ]
    cut = [i for i, line in enumerate(lines) if "---8<---" in line]
    return "\n".join(directives) + "\n", "\n".join(
        line[2:] for line in lines[cut[0] + 1 : cut[1]] if line.startswith("# ")
    ) + "\n"


class Setup:
    """A secured broker, its users, and the daemon of `root` as a subprocess (restartable)."""

    def __init__(
        self,
        work: Path,
        root: Path,
        users: list[str],
        *,
        extra_conf: str = "",
        max_packet: int = 262144,
        mqtt_extra: dict | None = None,
    ):
        self.work, self.root = work, root
        work.mkdir(parents=True)
        pw = work / "passwd"
        subprocess.run(["mosquitto_passwd", "-c", "-b", str(pw), DAEMON, PW], check=True)
        for user in [f"{DAEMON}-replies", *users]:
            subprocess.run(
                ["mosquitto_passwd", "-b", str(pw), user, PW if user.startswith(DAEMON) else user + "-pw"], check=True
            )
        (work / "creds").mkdir()
        (work / "creds" / "mqtt-password").write_text(PW)
        directives, acl = shipped_auth(root)
        (work / "acl").write_text(acl)
        conf = directives + f"password_file {pw}\nacl_file {work / 'acl'}\n" + extra_conf
        self.broker = MosquittoBroker(work / "broker", max_packet_size=max_packet, extra_conf=conf).start()
        self.config = work / "daemon.yaml"
        self.config.write_text(
            yaml.safe_dump(
                {
                    "paths": {"state_dir": str(work / "state")},
                    "mqtt": {"host": "127.0.0.1", "port": self.broker.port, "username": DAEMON, **(mqtt_extra or {})},
                }
            )
        )
        self.proc: subprocess.Popen | None = None
        self.starts = 0

    def env(self) -> dict:
        env = {k: v for k, v in os.environ.items() if not k.startswith("EDGE_AGENT_")}
        return env | {"PYTHONPATH": str(self.root), "CREDENTIALS_DIRECTORY": str(self.work / "creds")}

    def start(self) -> None:
        self.starts += 1
        log = self.work / f"daemon-{self.starts}.log"
        argv = [sys.executable, "-m", "edge_agent", "serve", "--runner", "script", "--config", str(self.config)]
        self.proc = start_logged(argv, cwd=self.root, env=self.env(), log=log, ready=b"connected to", what="the daemon")

    def stop(self) -> None:
        if self.proc and self.proc.poll() is None:
            self.proc.terminate()
            self.proc.wait(30)

    def close(self) -> None:
        self.stop()
        self.broker.kill()

    def db(self) -> sqlite3.Connection:
        return sqlite3.connect(str(self.work / "state" / "queue.db"), timeout=10)

    def malformed(self) -> int:
        return self.broker.log_path.read_text(errors="replace").count("malformed packet")


class Client:
    """A bare paho v5 requester: publishes without waiting, counts what comes back per request_id."""

    def __init__(self, setup: Setup, user: str):
        self.user, self.got, self.lock, self.wire, self.sent = user, [], threading.Lock(), 0, 0
        self.c = mqtt.Client(CallbackAPIVersion.VERSION2, client_id=user, protocol=mqtt.MQTTv5)
        self.c.username_pw_set(user, user + "-pw")
        self.c.max_inflight_messages = 100
        self.c.max_queued_messages = 0
        ready = threading.Event()
        self.c.on_message = lambda c, u, m: self._got(m)
        self.c.on_publish = lambda *a: self._sent()
        self.c.on_subscribe = lambda *a: ready.set()
        self.c.on_connect = lambda c, *a: c.subscribe(f"edge-agent/gw1/response/{user}/#", qos=1)
        self.c.connect("127.0.0.1", setup.broker.port)
        self.c.loop_start()
        ready.wait(10)

    def _got(self, msg) -> None:
        if "/files/" in msg.topic:
            with self.lock:
                self.wire += len(msg.payload) + len(getattr(msg.properties, "CorrelationData", b"") or b"")
            return
        try:
            body = json.loads(msg.payload)
        except ValueError:
            return
        body["_t"] = time.monotonic()  # when it arrived (the drills that time replies read it)
        with self.lock:
            self.got.append(body)

    def _sent(self) -> None:
        with self.lock:
            self.sent += 1

    def wait_sent(self, n: int, timeout: float) -> bool:
        """The broker acknowledged `n` of this client's requests (PUBACKs)."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            with self.lock:
                if self.sent >= n:
                    return True
            time.sleep(0.05)
        return False

    def ask(self, rid: str, question: str, correlation: bytes | None = None, reply_to: str | None = None) -> None:
        props = Properties(PacketTypes.PUBLISH)
        props.CorrelationData = correlation or rid.encode()
        body = {"request_id": rid, "question": question}
        if reply_to:
            body["reply_to"] = reply_to
        self.c.publish(f"edge-agent/gw1/request/{self.user}", json.dumps(body).encode(), qos=1, properties=props)

    def final(self, rid: str) -> dict | None:
        with self.lock:
            return next(
                (
                    b
                    for b in self.got
                    if b.get("request_id") == rid
                    and b.get("kind") in ("result", "error", "cancelled")
                    and b.get("final", True)
                ),
                None,
            )

    def wait_final(self, rid: str, timeout: float) -> dict | None:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if (f := self.final(rid)) is not None:
                return f
            time.sleep(0.05)
        return None

    def close(self) -> None:
        self.c.disconnect()
        self.c.loop_stop()


def victims_answered(setup: Setup, tag: str, timeout: float = 15.0) -> int:
    clients = [Client(setup, f"victim-{i}") for i in range(3)]
    for c in clients:
        c.ask(f"{tag}-{c.user}", "a victim's question [steps=1 delay=0]")
    answered = sum(c.wait_final(f"{tag}-{c.user}", timeout) is not None for c in clients)
    for c in clients:
        c.close()
    return answered


def drill_jam(work: Path, root: Path) -> dict:
    s = Setup(work, root, ["scada-1", "victim-0", "victim-1", "victim-2"])
    try:
        s.start()
        attacker = Client(s, "scada-1")
        attacker.ask("x1", "hi", reply_to="edge-agent/gw1/response/scada-1/a\u0001")
        time.sleep(2.0)
        before = victims_answered(s, "v1")
        s.stop()
        s.start()
        after = victims_answered(s, "v2")
        time.sleep(1.0)
        with s.db() as db:
            stuck = db.execute("SELECT COUNT(*) FROM outbox").fetchone()[0]
            dead = db.execute("SELECT COUNT(*) FROM dead_letters").fetchone()[0]
        attacker.close()
        return {
            "victims_answered_before_restart": f"{before}/3",
            "victims_answered_after_restart": f"{after}/3",
            "attacker_reply": (attacker.got or [{}])[0].get("code"),
            "outbox_rows_left": stuck,
            "dead_letters": dead,
            "broker_closed_on_malformed_packet": s.malformed(),
        }
    finally:
        s.close()


def _knows(root: Path, key: str) -> bool:
    return key in (root / "edge_agent" / "config.py").read_text()


def drill_burst(work: Path, root: Path, n: int = 1000, job_s: float = 0.05, quota: int | None = None) -> dict:
    extra = {"max_queued_per_client": quota} if quota is not None and _knows(root, "max_queued_per_client") else {}
    s = Setup(work, root, ["flood", "b", "c"], mqtt_extra=extra)
    try:
        s.start()
        flood = Client(s, "flood")
        t0 = time.monotonic()
        for i in range(n):
            flood.ask(f"f{i}", f"a job of the burst [steps=1 delay={job_s}]")
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline:
            with flood.lock:
                taken = sum(1 for b in flood.got if b.get("kind") == "accepted" or b.get("code") == "quota_exceeded")
            if taken >= n:
                break
            time.sleep(0.1)
        burst_s = time.monotonic() - t0
        with flood.lock:
            accepted = sum(1 for b in flood.got if b.get("kind") == "accepted")
            refused = sum(1 for b in flood.got if b.get("code") == "quota_exceeded")
        others = [Client(s, u) for u in ("b", "c")]
        for o in others:
            o.ask(f"one-{o.user}", f"my one question [steps=1 delay={job_s}]")
        finals = [o.wait_final(f"one-{o.user}", 150) for o in others]
        positions = [next((b["position"] for b in o.got if b.get("kind") == "accepted"), None) for o in others]
        with s.db() as db:
            lengths = [
                r[0] for r in db.execute("SELECT finished - started FROM jobs WHERE client_id='flood' AND state='done'")
            ]
            waits = [
                db.execute("SELECT started - created FROM jobs WHERE client_id=?", (u,)).fetchone()[0]
                for u in ("b", "c")
            ]
        lengths.sort()
        length = lengths[len(lengths) // 2] if lengths else job_s
        for c in [flood, *others]:
            c.close()
        return {
            "burst": n,
            "burst_taken_s": round(burst_s, 2),
            "burst_accepted": accepted,
            "burst_quota_exceeded": refused,
            "others_answered": sum(f is not None for f in finals),
            "others_accepted_position": positions,
            "others_wait_s": [round(w, 3) if w else w for w in waits],
            "job_length_s_median": round(length, 4),
            "others_wait_in_job_lengths": [round(w / length, 2) if w else w for w in waits],
        }
    finally:
        s.close()


def drill_flood(work: Path, root: Path, limit: int = 50) -> dict:
    extra = {"broker_queue_limit": limit} if _knows(root, "broker_queue_limit") else {}
    s = Setup(work, root, ["flood", "r1", "r2", "r3"], extra_conf=f"max_queued_messages {limit}\n", mqtt_extra=extra)
    try:
        s.start()  # the daemon's persistent session exists ...
        s.stop()  # ... and the daemon is down
        flood = Client(s, "flood")
        for i in range(limit + 10):
            flood.ask(f"f{i}", "flood [steps=1 delay=0]")
        time.sleep(1.0)
        procs = []
        for user in ("r1", "r2", "r3"):
            conf = s.work / f"{user}.yaml"
            conf.write_text(
                yaml.safe_dump(
                    {"mqtt": {"host": "127.0.0.1", "port": s.broker.port, "username": user, "password": user + "-pw"}}
                )
            )
            procs.append(
                subprocess.Popen(
                    [
                        sys.executable,
                        "-m",
                        "edge_agent",
                        "request",
                        "their one question [steps=1 delay=0]",
                        "--config",
                        str(conf),
                        "--timeout",
                        "45",
                        "--json",
                        "--no-ask",
                    ],
                    cwd=root,
                    env=s.env(),
                    stdout=subprocess.PIPE,
                    stderr=subprocess.PIPE,
                )
            )
        time.sleep(3.0)  # each has its PUBACK; the broker dropped them (its queue for the daemon is full)
        s.start()
        outs = [p.communicate(timeout=90) for p in procs]
        answered = sum(p.returncode == 0 for p in procs)
        with s.db() as db:
            jobs = {
                u: db.execute("SELECT COUNT(*) FROM jobs WHERE client_id=?", (u,)).fetchone()[0]
                for u in ("r1", "r2", "r3")
            }
        flood.close()
        log = (s.work / f"daemon-{s.starts}.log").read_text(errors="replace")
        return {
            "broker_max_queued_messages": limit,
            "flood_while_down": limit + 10,
            "others_answered": f"{answered}/3",
            "jobs_per_other": jobs,
            "status_showed_session_queue": "session queue" in log,
            "their_stderr_tail": [o[1].decode(errors="replace").strip()[-160:] for o in outs],
        }
    finally:
        s.close()


def drill_packet(work: Path, root: Path) -> dict:
    s = Setup(
        work,
        root,
        ["c1", "victim-0", "victim-1", "victim-2"],
        max_packet=131072,
        mqtt_extra={"file_chunk_bytes": 1048576},
    )
    try:
        s.start()
        c = Client(s, "c1")
        c.ask("big", "a file [steps=1 file=300000]", correlation=b"C" * 65000)
        final = c.wait_final("big", 20)
        time.sleep(1.0)  # chunks go out before their result, but on their own topic
        with c.lock:
            wire = c.wire
        before = victims_answered(s, "v1")
        s.stop()
        s.start()
        after = victims_answered(s, "v2")
        time.sleep(1.0)  # acknowledged rows are deleted in groups
        with s.db() as db:
            stuck = db.execute("SELECT COUNT(*) FROM outbox").fetchone()[0]
        c.close()
        log = s.broker.log_path.read_text(errors="replace")
        return {
            "result_received": final is not None and final.get("kind") == "result",
            "file_bytes_on_the_wire_per_file_byte": round(wire / 300000, 3),
            "victims_answered_before_restart": f"{before}/3",
            "victims_answered_after_restart": f"{after}/3",
            "outbox_rows_left": stuck,
            "reply_connection_closed_by_the_broker": log.count(f"Client {DAEMON}-replies disconnected due to"),
        }
    finally:
        s.close()


FINAL_KINDS = ("result", "error", "cancelled")


def _finals(c: Client) -> dict[str, set[str]]:
    """request_id → the distinct reply_ids of its final replies."""
    out: dict[str, set[str]] = {}
    with c.lock:
        for b in c.got:
            if b.get("kind") in FINAL_KINDS and b.get("final", True):
                out.setdefault(b.get("request_id"), set()).add(b.get("reply_id"))
    return out


def _at(c: Client, rid: str, kinds: tuple[str, ...], t0: float) -> float | None:
    """Seconds from `t0` to the first reply of `rid` of one of `kinds`."""
    with c.lock:
        t = next((b["_t"] for b in c.got if b.get("request_id") == rid and b.get("kind") in kinds), None)
    return None if t is None else round(t - t0, 3)


def _order_problems(c: Client) -> dict[str, list[str]]:
    """Per request: what breaks `accepted` once, then progress, then one final (reply_id duplicates, QoS 1
    redeliveries, are dropped first, as clients do)."""
    seqs: dict[str, list[str]] = {}
    seen: set[str] = set()
    with c.lock:
        for b in c.got:
            if b.get("reply_id") in seen:
                continue
            seen.add(b.get("reply_id"))
            seqs.setdefault(b.get("request_id"), []).append(b.get("kind"))
    bad = {}
    for rid, kinds in seqs.items():
        ok = (
            len(kinds) >= 2
            and kinds[0] == "accepted"
            and kinds[-1] in FINAL_KINDS
            and kinds.count("accepted") == 1
            and all(k == "progress" for k in kinds[1:-1])
        )
        if not ok:
            bad[rid] = kinds
    return bad


def drill_victims(work: Path, root: Path, n: int = 10050, wait_s: float = 400.0) -> dict:
    """Issue 42: a flood queued while the daemon is down must not hold the victims' replies, drop the daemon's
    broker connection (keep-alive) or be answered twice."""
    users = ["flood", "victim-0", "victim-1", "victim-2"]
    s = Setup(work, root, users)
    load = [round(os.getloadavg()[0], 2)]  # the 1-min load average at the start, the restart and the end
    try:
        s.start()  # the daemon's persistent session exists ...
        s.stop()  # ... and the daemon is down
        flood = Client(s, "flood")
        for i in range(n):
            flood.ask(f"f{i}", "flood [steps=1 delay=0]")
        queued = flood.wait_sent(n, 300)
        victims = [Client(s, u) for u in users[1:]]
        for v in victims:
            v.ask(f"v-{v.user}", "a victim's question [steps=1 delay=0]")
            v.wait_sent(1, 30)
        load.append(round(os.getloadavg()[0], 2))
        t0 = time.monotonic()
        s.start()
        connected = time.monotonic() - t0
        for v in victims:
            v.wait_final(f"v-{v.user}", 300)
        deadline = t0 + wait_s
        while time.monotonic() < deadline and len(_finals(flood)) < n:
            time.sleep(0.2)
        time.sleep(2.0)  # anything sent twice arrives now
        finals = _finals(flood)
        victim_final = [_at(v, f"v-{v.user}", FINAL_KINDS, t0) for v in victims]
        with flood.lock:
            refusals = sorted(b["_t"] - t0 for b in flood.got if b.get("code") == "quota_exceeded")
            accepted_dup = sum(1 for b in flood.got if b.get("kind") == "accepted" and b.get("duplicate"))
            flood_msgs = len(flood.got)
        last_victim = max((t for t in victim_final if t is not None), default=None)
        log = "".join((s.work / f"daemon-{i}.log").read_text(errors="replace") for i in range(2, s.starts + 1))
        with s.db() as db:
            jobs = db.execute("SELECT COUNT(*) FROM jobs").fetchone()[0]
        for c in [flood, *victims]:
            c.close()
        load.append(round(os.getloadavg()[0], 2))
        return {
            "load_1min_start_restart_end": load,
            "flood_while_down": n,
            "flood_queued_at_the_broker": queued,
            "restart_to_connected_s": round(connected, 3),
            "victims_accepted_s": [_at(v, f"v-{v.user}", ("accepted",), t0) for v in victims],
            "victims_final_s": victim_final,
            "victims_final_at_most_5s": all(t is not None and t <= 5.0 for t in victim_final),
            "flood_requests_with_one_final": sum(1 for ids in finals.values() if len(ids) == 1),
            "flood_requests_with_no_final": n - len(finals),
            "flood_requests_answered_twice": sum(1 for ids in finals.values() if len(ids) > 1),
            "flood_accepted_duplicate": accepted_dup,
            "flood_messages": flood_msgs,
            "flood_refusals": len(refusals),
            "flood_refusals_after_the_victims_replies": sum(1 for t in refusals if last_victim and t > last_victim),
            "flood_refusals_tail_s": round(refusals[-1], 3) if refusals else None,
            "flood_last_reply_s": round(max((b["_t"] for b in flood.got), default=t0) - t0, 3),
            "jobs_stored": jobs,
            "daemon_disconnects": log.count("disconnected from the broker"),
            "keep_alive_drops": log.count("Keep alive timeout"),
        }
    finally:
        s.close()


def drill_order(work: Path, root: Path, requesters: int = 20, per: int = 99, wait_s: float = 300.0) -> dict:
    """Issue 42: many requesters at once, then one more; every request's replies in order."""
    users = [f"r{i}" for i in range(requesters)] + ["late"]
    s = Setup(work, root, users)
    try:
        s.start()
        clients = [Client(s, u) for u in users[:-1]]
        late = Client(s, "late")
        for i in range(per):
            for c in clients:
                c.ask(f"{c.user}-{i}", "a question [steps=2 delay=0]")
        for c in clients:
            c.wait_sent(per, 60)
        t0 = time.monotonic()
        late.ask("late-0", "the late question [steps=2 delay=0]")
        deadline = time.monotonic() + wait_s
        while time.monotonic() < deadline and sum(len(_finals(c)) for c in [*clients, late]) < requesters * per + 1:
            time.sleep(0.2)
        time.sleep(1.0)
        problems = {rid: k for c in [*clients, late] for rid, k in _order_problems(c).items()}
        answered = sum(len(_finals(c)) for c in [*clients, late])
        late_accepted, late_final = _at(late, "late-0", ("accepted",), t0), _at(late, "late-0", FINAL_KINDS, t0)
        late_progress = _at(late, "late-0", ("progress",), t0)
        for c in [*clients, late]:
            c.close()
        return {
            "requests": requesters * per + 1,
            "answered": answered,
            "requests_out_of_order": len(problems),
            "out_of_order_examples": dict(list(problems.items())[:5]),
            "late_accepted_s": late_accepted,
            "late_first_progress_s": late_progress,
            "late_final_s": late_final,
        }
    finally:
        s.close()


DEBIAN_MAIN = """pid_file {var}/mosquitto.pid
persistence true
persistence_location {var}/lib/
log_dest file {var}/mosquitto.log
include_dir {etc}/conf.d
"""


def drill_debian(work: Path, root: Path) -> dict:
    etc, var = work / "etc", work / "var"
    (etc / "conf.d").mkdir(parents=True)
    (var / "lib").mkdir(parents=True)
    port = free_port()
    conf = (
        (root / "config" / "mosquitto.conf")
        .read_text()
        .replace("listener 1883 127.0.0.1", f"listener {port} 127.0.0.1")
    )
    conf = conf.replace("/etc/mosquitto", str(etc))
    (etc / "conf.d" / "edge-agent.conf").write_text(conf)
    (etc / "conf.d" / "00-user.conf").write_text(f"user {os.environ.get('USER', 'root')}\n")
    subprocess.run(["mosquitto_passwd", "-c", "-b", str(etc / "edge-agent.passwd"), DAEMON, PW], check=True)
    _, acl = shipped_auth(root)
    (etc / "edge-agent.acl").write_text(acl)
    (etc / "mosquitto.conf").write_text(DEBIAN_MAIN.format(var=var, etc=etc))
    proc = subprocess.Popen(
        [find_mosquitto(), "-c", str(etc / "mosquitto.conf")], stdout=subprocess.PIPE, stderr=subprocess.STDOUT
    )
    up = wait_port(port, 5)
    proc.kill()
    out = proc.communicate()[0].decode(errors="replace")
    log = (var / "mosquitto.log").read_text(errors="replace") if (var / "mosquitto.log").exists() else ""
    return {
        "mosquitto_started": up,
        "error": next((line for line in (out + log).splitlines() if "Error" in line or "Duplicate" in line), None),
    }


DRILLS = {
    "jam": drill_jam,
    "burst": drill_burst,
    "burst-q1000": lambda w, r: drill_burst(w, r, quota=1000),
    "flood": drill_flood,
    "packet": drill_packet,
    "debian": drill_debian,
    "victims": drill_victims,
    "order": drill_order,
}


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--root", type=Path, default=ROOT)
    ap.add_argument("--only", default="jam,burst,burst-q1000,flood,packet,debian")
    ap.add_argument("--out", type=Path, default=ROOT / "bench" / "results" / "mqtt_drills.json")
    args = ap.parse_args()
    if shutil.which("mosquitto_passwd") is None or find_mosquitto() is None:
        raise SystemExit("mosquitto and mosquitto_passwd are needed")
    work = Path(tempfile.mkdtemp(prefix="mqtt-drills-"))
    result = {"root": str(args.root.resolve())}
    for name in args.only.split(","):
        started = time.monotonic()
        try:
            result[name] = DRILLS[name](work / name, args.root.resolve())
        except Exception as exc:  # a drill that fails to run is a result too
            result[name] = {"drill_failed": f"{type(exc).__name__}: {exc}"[:400]}
        result[name]["seconds"] = round(time.monotonic() - started, 1)
        print(name, json.dumps(result[name]), flush=True)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(result, indent=2) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
