import sys, time, tempfile, os, json, glob, multiprocessing as mp
from pathlib import Path
root = Path(sys.argv[1]); sys.path.insert(0, str(root / "bench")); sys.path.insert(0, str(root))
import mqtt_latency as m
from edge_agent.mqtt.broker import MosquittoBroker
for f in glob.glob("/tmp/prof/trace-*.json"): os.remove(f)
work = Path(tempfile.mkdtemp()); broker = MosquittoBroker(work / "b", extra_conf=os.environ.get("XCONF", "").replace(";", "\n")).start()
ready = mp.Event(); echo = mp.Process(target=m.echo_main, args=(broker.port, ready, 100), daemon=True); echo.start(); ready.wait(10)
d = m.start_daemon(work, broker.port, "gw-d", ["--group-commit"], root)
pe, pd = m.Probe(broker.port, f"{m.GW}-echo"), m.Probe(broker.port, "gw-d")
pd.wait([pd.send("hold [steps=1 delay=3600]")])
for pr in (pe, pd): m.measure(pr, 10, "warm [steps=1]")
bursts = []
for r in range(int(sys.argv[2])):
    for name, pr in (("echo", pe), ("daemon", pd)):
        m.measure(pr, 100, "q [steps=1]")  # same pattern as the bench: sequential then burst
        # measure() did a burst too; record the last burst
        rids = list(pr.sent)[-100:]
        bursts.append((name, [(pr.sent[x], pr.got.get(x)) for x in rids]))
pe.close(); pd.close(); d.terminate(); d.wait(); echo.terminate(); broker.stop()
tr = json.load(open(glob.glob("/tmp/prof/trace-*.json")[0]))
for name in ("echo", "daemon"):
    mx = sorted((max(g - s0 for _, g in b) * 1000, i) for i, (n, b) in enumerate(bursts) if n == name for s0 in [b[0][0]])
    print(name, "burst max ms:", [round(x) for x, _ in mx])
# the daemon's worst and best bursts: batches
dbs = [(i, b) for i, (n, b) in enumerate(bursts) if n == "daemon"]
def show(i, b):
    s0 = b[0][0]; end = max(g for _, g in b)
    gs = sorted(g for _, g in b); gaps = sorted(((gs[k+1]-gs[k])*1000, round((gs[k]-s0)*1000,1)) for k in range(len(gs)-1))[-4:]
    print(f"burst {i}: last reply at {(end - s0)*1000:.1f} ms; probe got 50th at {(gs[49]-s0)*1000:.1f}; biggest gaps (ms, at): {[(round(a,1), t) for a, t in gaps]}")
    print("   arrivals (ms):", [round((g - s0)*1000) for g in gs[::10]])
    for a, z, n, rts in tr:
        if s0 - 0.001 <= a <= end:
            print(f"   batch of {n:3}: recv {(min(rts)-s0)*1000:6.1f}-{(max(rts)-s0)*1000:6.1f}  store {(a-s0)*1000:6.1f}-{(z-s0)*1000:6.1f} ms")
worst = sorted(dbs, key=lambda ib: -max(g for _, g in ib[1]) + ib[1][0][0])
for i, b in worst[:3] + worst[-2:]: show(i, b)
