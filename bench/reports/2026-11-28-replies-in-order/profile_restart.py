"""Profile the daemon's restart in the victims drill: the flood (10,050 requests of one requester) queued while the
daemon is down, 3 victims, then the daemon started under a profiler of every thread (cProfile per thread, by
wrapping threading.Thread.run); it is stopped (SIGTERM) once the victims' results are in, and each thread's
profile is written out.

    python profile_restart.py --root CHECKOUT --out DIR [--n 10050]
    python profile_restart.py --daemon OUTDIR serve ...   (what the drill starts: the daemon under the profiler)
"""

from __future__ import annotations

import argparse
import cProfile
import os
import pstats
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path


def _cpu_by_thread() -> dict[str, float]:
    out = {}
    tick = os.sysconf("SC_CLK_TCK")
    names = {t.native_id: t.name for t in threading.enumerate()}
    for task in Path("/proc/self/task").iterdir():
        try:
            name = names.get(int(task.name), "?")
            f = (task / "stat").read_text().rsplit(")", 1)[1].split()
            out[f"{task.name}:{name}"] = (int(f[11]) + int(f[12])) / tick
        except OSError:
            pass
    return out


def timeline_main(outdir: str, argv: list[str]) -> None:
    """The daemon with a timeline: when paho hands each message on, when each batch is stored, CPU per thread."""
    import json as _json
    t_start = time.monotonic()
    if os.environ.get("SWITCH"):
        sys.setswitchinterval(float(os.environ["SWITCH"]))
    import edge_agent.mqtt.intake as intake_mod
    import edge_agent.mqtt.committer as committer_mod
    events: dict = {"reads": [], "stored": [], "cpu": []}
    on_message, store = intake_mod.Intake.on_message, intake_mod.Intake.store

    def om(self, client, userdata, msg):
        events["reads"].append(time.monotonic())
        return on_message(self, client, userdata, msg)

    def st(self, msgs):
        r = store(self, msgs)
        events["stored"].append((time.monotonic(), len(msgs)))
        return r

    intake_mod.Intake.on_message, intake_mod.Intake.store = om, st
    import edge_agent.mqtt.acks as acks_mod
    fence = acks_mod.AckPacer._fence
    events["fence"] = []

    def fe(self):
        t = time.monotonic()
        fence(self)
        events["fence"].append((t, time.monotonic() - t))

    acks_mod.AckPacer._fence = fe
    store_wall = []

    def st2(self, msgs):
        t = time.monotonic()
        r = st(self, msgs)
        store_wall.append(time.monotonic() - t)
        return r

    intake_mod.Intake.store = st2
    events["store_wall"] = store_wall
    # the victims' replies on the reply connection: when handed to paho (with what is ahead of them there) and when
    # the broker's PUBACK came back
    import edge_agent.mqtt.bulkread as bulk_mod
    import edge_agent.mqtt.outbox as outbox_mod

    events["victim_publish"], events["victim_puback"], events["worker_jobs"] = [], [], []
    victim_mids: dict = {}
    publish = bulk_mod.BulkReadClient.publish

    def pu(self, topic, *a, **kw):
        info = publish(self, topic, *a, **kw)
        if "victim" in topic:
            ahead = len(getattr(self, "_out_messages", {}))
            victim_mids[(id(self), info.mid)] = topic
            events["victim_publish"].append((time.monotonic(), topic, ahead, len(self._out_packet)))
        return info

    bulk_mod.BulkReadClient.publish = pu
    on_publish = outbox_mod.OutboxPublisher.on_publish

    def op(self, mid, reason_code=None):
        topic = victim_mids.get((id(self.client), mid))
        if topic:
            events["victim_puback"].append((time.monotonic(), topic))
        return on_publish(self, mid, reason_code)

    outbox_mod.OutboxPublisher.on_publish = op
    import edge_agent.mqtt.worker as worker_mod

    run_job = worker_mod.Worker._run_job

    def rj(self, cur):
        t = time.monotonic()
        run_job(self, cur)
        events["worker_jobs"].append((t, time.monotonic(), cur.job.client_id))

    worker_mod.Worker._run_job = rj
    stop = threading.Event()

    def sample():
        import ctypes  # noqa: F401
        while not stop.wait(0.25):
            events["cpu"].append((time.monotonic(), _cpu_by_thread()))

    threading.Thread(target=sample, daemon=True).start()
    try:
        from edge_agent.cli import main as cli

        cli(argv, standalone_mode=False)
    finally:
        stop.set()
        r = events["reads"]
        Path(outdir).mkdir(parents=True, exist_ok=True)
        (Path(outdir) / "timeline.json").write_text(_json.dumps({
            "t_start": t_start, "first_read": r[0] if r else None, "last_read": r[-1] if r else None,
            "n_reads": len(r), "stored": events["stored"], "cpu": events["cpu"],
            "fence": events["fence"], "store_wall": events["store_wall"],
            "victim_publish": events["victim_publish"], "victim_puback": events["victim_puback"],
            "worker_jobs": events["worker_jobs"][:12],
            "read_deciles": [r[int(i * (len(r) - 1) / 10)] for i in range(11)] if r else [],
        }))


def daemon_main(outdir: str, argv: list[str]) -> None:
    profiles: list[tuple[str, cProfile.Profile]] = []
    lock = threading.Lock()
    original = threading.Thread.run

    def run(self):  # every thread's run under its own profiler
        p = cProfile.Profile()
        p.enable()
        try:
            original(self)
        finally:
            p.disable()
            with lock:
                profiles.append((self.name, p))

    threading.Thread.run = run
    main = cProfile.Profile()
    main.enable()
    t0 = time.process_time()
    try:
        from edge_agent.cli import main as cli

        cli(argv, standalone_mode=False)
    finally:
        main.disable()
        profiles.append(("MainThread", main))
        Path(outdir).mkdir(parents=True, exist_ok=True)
        for i, (name, p) in enumerate(profiles):
            p.dump_stats(f"{outdir}/{i:02d}-{name.replace('/', '_')}.prof")
        (Path(outdir) / "cpu.txt").write_text(f"process CPU {time.process_time() - t0:.2f} s\n")


def drill(root: Path, out: Path, n: int) -> None:
    sys.path.insert(0, str(Path(__file__).resolve().parents[2]))  # bench/, for mqtt_drills
    import mqtt_drills as d

    class Profiled(d.Setup):
        profiled = False
        mode = MODE

        def start(self) -> None:
            if not self.profiled:
                return super().start()
            self.starts += 1
            log = self.work / f"daemon-{self.starts}.log"
            self.proc = subprocess.Popen(
                [sys.executable, __file__, self.mode, str(out / "prof"), "serve", "--runner", "script",
                 "--config", str(self.config)],
                cwd=self.root, env=self.env(), stdout=open(log, "wb"), stderr=subprocess.STDOUT,
            )
            deadline = time.monotonic() + 60
            while b"connected to" not in log.read_bytes():
                if time.monotonic() > deadline or self.proc.poll() is not None:
                    raise SystemExit("the daemon did not start: " + log.read_text())
                time.sleep(0.05)

    work = Path(tempfile.mkdtemp(prefix="prof-restart-"))
    users = ["flood", "victim-0", "victim-1", "victim-2"]
    s = Profiled(work / "v", root, users)
    try:
        s.start()
        s.stop()
        flood = d.Client(s, "flood")
        for i in range(n):
            flood.ask(f"f{i}", "flood [steps=1 delay=0]")
        flood.wait_sent(n, 300)
        victims = [d.Client(s, u) for u in users[1:]]
        for v in victims:
            v.ask(f"v-{v.user}", "a victim's question [steps=1 delay=0]")
            v.wait_sent(1, 30)
        s.profiled = True
        bpid = s.broker.proc.pid
        samples = []
        halt = threading.Event()

        def bcpu():
            tick = os.sysconf("SC_CLK_TCK")
            while not halt.wait(0.25):
                f = Path(f"/proc/{bpid}/stat").read_text().rsplit(")", 1)[1].split()
                samples.append((round(time.monotonic() - t0, 2), (int(f[11]) + int(f[12])) / tick))

        load = os.getloadavg()[0]
        t0 = time.monotonic()
        (out / "t0").write_text(repr(t0))
        threading.Thread(target=bcpu, daemon=True).start()
        s.start()
        connected = time.monotonic() - t0
        for v in victims:
            v.wait_final(f"v-{v.user}", 120)
        finals = [d._at(v, f"v-{v.user}", d.FINAL_KINDS, t0) for v in victims]
        accepted = [d._at(v, f"v-{v.user}", ("accepted",), t0) for v in victims]
        print("victims accepted", accepted)
        time.sleep(0.5)
        halt.set()
        base = samples[0][1] if samples else 0
        print("broker CPU since restart", [(t, round(c - base, 2)) for t, c in samples][::2])
        s.proc.terminate()
        s.proc.wait(60)
        print(f"load {load:.2f}; connected {connected:.2f} s; victims' results {finals}")
        (out / "log.txt").write_text((s.work / f"daemon-{s.starts}.log").read_text())
        for c in [flood, *victims]:
            c.close()
    finally:
        s.close()


def timeline(out: Path) -> None:
    import json as _json
    t0 = float((out / "t0").read_text())
    tl = _json.loads((out / "prof" / "timeline.json").read_text())
    rel = lambda t: round(t - t0, 3)  # noqa: E731
    print("python start", rel(tl["t_start"]), "first read", rel(tl["first_read"]), "last read", rel(tl["last_read"]),
          "reads", tl["n_reads"])
    print("read deciles", [rel(t) for t in tl["read_deciles"]])
    st = tl["stored"]
    print("batches", len(st), "first stored", rel(st[0][0]), "last stored", rel(st[-1][0]))
    last = tl["last_read"]
    fences = [(t, d) for t, d in tl["fence"] if t <= last]
    print("fences before the last read", len(fences), "waiting", round(sum(d for _, d in fences), 3), "s")
    sw = tl["store_wall"][: len(st)]
    print("committer in store()", round(sum(sw), 3), "s over", len(sw), "batches; sizes", [n for _, n in st][:12])
    for t, topic, ahead, packets in tl.get("victim_publish", []):
        print("victim reply handed to paho", rel(t), topic.split("/")[3], "paho messages out", ahead, "packets", packets)
    for t, topic in tl.get("victim_puback", []):
        print("victim reply PUBACK", rel(t), topic.split("/")[3])
    for t, t2, who in tl.get("worker_jobs", []):
        print("job", who, rel(t), "->", rel(t2))
    for t, cpu in tl["cpu"]:
        if t - t0 > 12:
            break
        print(rel(t), {k.split(":", 1)[1]: v for k, v in cpu.items() if v > 0})


def report(out: Path, top: int) -> None:
    for f in sorted((out / "prof").glob("*.prof")):
        st = pstats.Stats(str(f))
        total = st.total_tt
        if total < 0.05:
            continue
        print(f"\n==== {f.name}: {total:.2f} s")
        st.sort_stats("tottime").print_stats(top)


MODE = "--daemon"

if __name__ == "__main__":
    if sys.argv[1:2] == ["--timeline"]:
        timeline_main(sys.argv[2], sys.argv[3:])
        sys.exit(0)
    if "--timeline-drill" in sys.argv:
        sys.argv.remove("--timeline-drill")
        MODE = "--timeline"
    if sys.argv[1:2] == ["--daemon"]:
        daemon_main(sys.argv[2], sys.argv[3:])
        sys.exit(0)
    ap = argparse.ArgumentParser()
    ap.add_argument("--root", type=Path, required=True)
    ap.add_argument("--out", type=Path, required=True)
    ap.add_argument("--n", type=int, default=10050)
    ap.add_argument("--report", type=int, default=0)
    a = ap.parse_args()
    if a.report == -1:
        timeline(a.out)
    elif a.report:
        report(a.out, a.report)
    else:
        a.out.mkdir(parents=True, exist_ok=True)
        drill(a.root, a.out, a.n)
