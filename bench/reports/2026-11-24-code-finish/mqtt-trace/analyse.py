"""Where a burst's 100 requests spend their time: the probe's send and receive times (probe.json) against the
instrumented daemon's receive, commit and publish times (daemon.json), one clock (time.time(), one machine).

    python analyse.py > analyse.txt
"""
import json
from pathlib import Path

HERE = Path(__file__).parent
p = json.loads((HERE / "probe.json").read_text())
t = json.loads((HERE / "daemon.json").read_text())
rids = sorted([r for r in p["got"] if r in t and "pub" in t[r]], key=lambda r: p["sent"][r])
bursts, cur = [], [rids[0]]
for a, b in zip(rids, rids[1:]):  # a burst's sends are < 1.2 ms apart; sequential ones wait for the reply
    if p["sent"][b] - p["sent"][a] < 0.0012:
        cur.append(b)
    else:
        bursts.append(cur)
        cur = [b]
bursts.append(cur)
ms = lambda x: round(x * 1000, 1)  # noqa: E731
for burst in [b for b in bursts if len(b) >= 50]:
    s0 = p["sent"][burst[0]]
    print(f"burst of {len(burst)}: ms after its first send")
    for i in (0, 1, 2, 5, 10, 20, 30, 50, 70, 90, 99):
        r = burst[i]
        print(f"  #{i:2d} sent {ms(p['sent'][r] - s0):6} daemon received {ms(t[r]['recv'] - s0):6} committed "
              f"{ms(t[r]['stored'] - s0):6} published {ms(t[r]['pub'] - s0):6} probe got {ms(p['got'][r] - s0):6} "
              f"(batch of {t[r]['batch']})")
