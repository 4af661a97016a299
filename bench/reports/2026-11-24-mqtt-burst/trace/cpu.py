import sys, time, tempfile, os, multiprocessing as mp
from pathlib import Path
root = Path(sys.argv[1]); sys.path.insert(0, str(root / "bench")); sys.path.insert(0, str(root))
import mqtt_latency as m
from edge_agent.mqtt.broker import MosquittoBroker
def cpu(pid, part=None):
    f = open(f"/proc/{pid}/stat").read().rsplit(")",1)[1].split()
    u, s = int(f[11]), int(f[12])
    return (u if part == "u" else s if part == "s" else u + s) / os.sysconf("SC_CLK_TCK")
def threads(pid):
    out = {}
    for t in os.listdir(f"/proc/{pid}/task"):
        name = open(f"/proc/{pid}/task/{t}/comm").read().strip()
        f = open(f"/proc/{pid}/task/{t}/stat").read().rsplit(")",1)[1].split()
        out[name + ":" + t] = (int(f[11]) + int(f[12])) / os.sysconf("SC_CLK_TCK")
    return out
def ctx(pid):
    v = n = 0
    for t in os.listdir(f"/proc/{pid}/task"):
        for line in open(f"/proc/{pid}/task/{t}/status"):
            if line.startswith("voluntary_ctxt_switches"): v += int(line.split()[1])
            if line.startswith("nonvoluntary_ctxt_switches"): n += int(line.split()[1])
    return v, n
work = Path(tempfile.mkdtemp()); broker = MosquittoBroker(work / "b", extra_conf=os.environ.get("XCONF", "").replace(";", "\n")).start()
bpid = broker.proc.pid if hasattr(broker, "proc") else None
ready = mp.Event(); echo = mp.Process(target=m.echo_main, args=(broker.port, ready, 100), daemon=True); echo.start(); ready.wait(10)
d = m.start_daemon(work, broker.port, "gw-d", ["--group-commit"], root)
targets = {"echo": (echo.pid, m.Probe(broker.port, f"{m.GW}-echo")), "daemon": (d.pid, m.Probe(broker.port, "gw-d"))}
p = targets["daemon"][1]; p.wait([p.send("hold [steps=1 delay=3600]")])
for _, pr in targets.values(): m.measure(pr, 10, "warm [steps=1]")
N = int(sys.argv[2])
for name, (pid, pr) in list(targets.items()) * 2:
    u0, k0, x0, th0 = cpu(pid, "u"), cpu(pid, "s"), ctx(pid), threads(pid)
    c0, b0, s0, t0 = cpu(pid), cpu(bpid) if bpid else 0, time.process_time(), time.perf_counter()
    lat = []; mx = []
    for r in range(N):
        burst = [pr.send("q [steps=1]") for _ in range(100)]
        pr.wait(burst); lat += pr.latencies_ms(burst); mx.append(round(max(pr.latencies_ms(burst))))
    print(f"{name:7} p99 {m.pct(lat,99):6} p50 {m.pct(lat,50):6} | per 100: target cpu {(cpu(pid)-c0)/N*1000:5.1f} ms, broker {(cpu(bpid)-b0)/N*1000 if bpid else -1:5.1f} ms, probe {(time.process_time()-s0)/N*1000:5.1f} ms, wall {(time.perf_counter()-t0)/N*1000:5.1f} ms; user {(cpu(pid,'u')-u0)/N*1000:5.1f} sys {(cpu(pid,'s')-k0)/N*1000:5.1f}; ctx switches/100 vol {(ctx(pid)[0]-x0[0])/N:6.0f} invol {(ctx(pid)[1]-x0[1])/N:5.0f}")
    print("   burst max ms:", sorted(mx))
    th1 = threads(pid); print("   per thread ms/100:", {k: round((v - th0.get(k, 0)) / N * 1000, 1) for k, v in th1.items() if v - th0.get(k, 0) > 0})
for _, pr in targets.values(): pr.close()
d.terminate(); d.wait(); echo.terminate(); broker.stop()
