"""The committer's work on a flood, without a broker: 10,050 requests of one requester then 3 victims' into
Intake.store in batches of 256 (as the group committer takes them), on a fresh queue database; wall and CPU."""
import cProfile, pstats, sys, tempfile, time, json
from pathlib import Path
import paho.mqtt.client as mqtt
from paho.mqtt.packettypes import PacketTypes
from paho.mqtt.properties import Properties
from edge_agent.config import load_settings
from edge_agent.mqtt.runner import ScriptRunner
from edge_agent.mqtt.service import GatewayService

def msg(user, rid, mid):
    m = mqtt.MQTTMessage(mid, f"edge-agent/gw1/request/{user}".encode())
    m.payload = json.dumps({"request_id": rid, "question": "flood [steps=1 delay=0]"}).encode()
    m.qos = 1
    p = Properties(PacketTypes.PUBLISH); p.CorrelationData = rid.encode(); m.properties = p
    return m

def main(profile: bool, n: int = 10050):
    tmp = Path(tempfile.mkdtemp())
    settings = load_settings(None, overrides={"paths": {"state_dir": str(tmp)}, "mqtt": {"gateway_id": "gw1"}}, environ={})
    svc = GatewayService(settings, ScriptRunner(settings))
    svc.fleet.start()
    msgs = [msg("flood", f"f{i}", i + 1) for i in range(n)] + [msg(f"victim-{i}", f"v{i}", n + i + 1) for i in range(3)]
    prof = cProfile.Profile() if profile else None
    t, c = time.perf_counter(), time.process_time()
    if prof: prof.enable()
    for i in range(0, len(msgs), 256):
        svc.intake.store(msgs[i:i + 256])
    if prof: prof.disable()
    wall, cpu = time.perf_counter() - t, time.process_time() - c
    print(f"audit {settings.audit.enabled} metrics {settings.metrics.enabled}: {len(msgs)} messages: {wall:.3f} s wall, {cpu:.3f} s CPU; jobs {svc.jobs.counts()} outbox {svc.jobs.outbox_size()}")
    import sqlite3
    db = sqlite3.connect(str(tmp / "queue.db"))
    rids = [r[0] for r in db.execute("SELECT request_id FROM audit ORDER BY id")]
    assert rids == [f"f{i}" for i in range(n)] + [f"v{i}" for i in range(3)], rids[:5]
    if prof:
        pstats.Stats(prof).sort_stats("tottime").print_stats(25)

if __name__ == "__main__":
    main("--profile" in sys.argv)
