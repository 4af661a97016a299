import sys, time, tempfile, os, subprocess, multiprocessing as mp
from pathlib import Path
root = Path(sys.argv[1]); sys.path.insert(0, str(root / "bench")); sys.path.insert(0, str(root))
import mqtt_latency as m
from edge_agent.mqtt.broker import MosquittoBroker
work = Path(tempfile.mkdtemp()); broker = MosquittoBroker(work / "b").start()
ready = mp.Event(); echo = mp.Process(target=m.echo_main, args=(broker.port, ready, 100), daemon=True); echo.start(); ready.wait(10)
d = m.start_daemon(work, broker.port, "gw-d", ["--group-commit"], root)
pe, pd = m.Probe(broker.port, f"{m.GW}-echo"), m.Probe(broker.port, "gw-d")
pd.wait([pd.send("hold [steps=1 delay=3600]")])
for pr in (pe, pd): m.measure(pr, 10, "warm [steps=1]")
for name, pr in (("echo", pe), ("daemon", pd), ("echo", pe), ("daemon", pd)):
    log = work / f"strace-{name}.txt"
    st = subprocess.Popen(["strace", "-f", "-c", "-e", "trace=rename,fsync,fdatasync,write,openat", "-p", str(broker.proc.pid), "-o", str(log)], stderr=subprocess.DEVNULL)
    time.sleep(0.5)
    lat = []
    for _ in range(5):
        burst = [pr.send("q [steps=1]") for _ in range(100)]
        pr.wait(burst); lat += pr.latencies_ms(burst)
    st.terminate(); st.wait(); time.sleep(0.2)
    print(name, "p99", m.pct(lat, 99), "| broker syscalls over 5 bursts:")
    print("".join(l for l in open(log) if any(k in l for k in ("rename", "fsync", "fdatasync", "openat", "write", "calls"))))
pe.close(); pd.close(); d.terminate(); d.wait(); echo.terminate(); broker.stop()
