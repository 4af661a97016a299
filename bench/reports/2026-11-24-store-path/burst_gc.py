"""N bursts of 100 requests against one daemon (argv[2]: a checkout with gc-probe.diff applied; GCFREEZE=1 in the environment freezes its heap at start) and its garbage-collector pauses, from its log."""
import sys, time, subprocess, tempfile
from pathlib import Path
REPO = Path(__file__).resolve().parents[3]  # the checkout this report lies in
sys.path.insert(0, str(REPO / "bench")); sys.path.insert(0, str(REPO))
import mqtt_latency as ml
from edge_agent.mqtt.broker import MosquittoBroker
root = Path(sys.argv[2]) if len(sys.argv) > 2 else ml.ROOT
n_bursts = int(sys.argv[1])
work = Path(tempfile.mkdtemp(prefix="prof-"))
broker = MosquittoBroker(work / "broker").start()
proc = ml.start_daemon(work, broker.port, "benchgw-daemon", ["--group-commit"], root)
probe = ml.Probe(broker.port, "benchgw-daemon")
probe.wait([probe.send("hold the worker [steps=1 delay=3600]")])
ml.measure(probe, 10, "warm-up [steps=1]")
spy = None
if len(sys.argv) > 3:
    spy = subprocess.Popen(["py-spy", "record", "-p", str(proc.pid), "-r", "2000", "--threads", "-f", "raw", "-o", sys.argv[3]], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    time.sleep(1.5)
p99s = []; lat = []
t0 = time.process_time()
for i in range(n_bursts):
    burst = [probe.send("q [steps=1]") for _ in range(100)]
    probe.wait(burst)
    l = probe.latencies_ms(burst); lat += l
    time.sleep(0.05)
if spy: spy.send_signal(2); spy.wait()
lat.sort()
print("p50", round(lat[len(lat)//2],1), "p99", round(lat[int(len(lat)*0.99)],1))
probe.close(); proc.terminate(); proc.wait(); broker.stop()
import glob
for f in glob.glob(str(work / "*.log")):
    print("\n".join(l for l in open(f).read().splitlines() if "gc gen" in l or "objects tracked" in l))
