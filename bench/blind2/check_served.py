"""Does the simulator serve blind plant #2 as written? Starts `edge_agent simulate --dataset bench/blind2/plant.json`,
logs in with SCRAM (Haystack auth: HELLO, SCRAM, BEARER; client side by `scramp`), reads with hisRead the fall-back
days (London 25 Oct, Chicago and Denver 1 Nov 2026) and a week across one, and compares with plant.csv.gz as
the kit's reading library (bench/blind_truthlib.py) reads it: same samples? in time order? energy as served vs in
time order.

    PYTHONPATH=$PWD /work/main/.venv/bin/python bench/blind2/check_served.py

Found on 2026-11-25: every sample is served, but on a fall-back day the rows come sorted by wall-clock time
(01:00-05:00, 01:00-06:00, 01:15-05:00, ...) instead of by instant, so a reader that integrates consecutive rows
gets a wrong energy (b2-17: 17547.75 kWh read in the served order vs 17910.90 kWh in time order).
"""

import base64
import json
import subprocess
import sys
import time
import urllib.error
import urllib.parse
import urllib.request
from datetime import datetime
from pathlib import Path

from scramp import ScramClient

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parents[1]))
from edge_agent.evaluation.plantkit.reading import Plant  # noqa: E402

PORT, USER, PASSWORD = 18977, "op", "pw-blind2-check"
BASE = f"http://127.0.0.1:{PORT}/api/blind/"


def b64(s):
    return base64.urlsafe_b64encode(s.encode()).decode().rstrip("=")


def ub64(s):
    return base64.urlsafe_b64decode(s + "=" * (-len(s) % 4)).decode()


def req(path, auth):
    r = urllib.request.Request(BASE + path, headers={"Authorization": auth, "Accept": "application/json"})
    try:
        with urllib.request.urlopen(r, timeout=30) as f:
            return f.status, dict(f.headers), f.read().decode()
    except urllib.error.HTTPError as e:
        return e.code, dict(e.headers), e.read().decode()


def params(h):
    return dict(p.strip().split("=", 1) for p in h.partition(" ")[2].split(","))


def login():
    _, h, _ = req("about", "HELLO username=" + b64(USER))
    w = params(h["WWW-Authenticate"])
    c = ScramClient(["SCRAM-SHA-256"], USER, PASSWORD)
    _, h, _ = req("about", f"SCRAM handshakeToken={w['handshakeToken']}, data={b64(c.get_client_first())}")
    w = params(h["WWW-Authenticate"])
    c.set_server_first(ub64(w["data"]))
    _, h, _ = req("about", f"SCRAM handshakeToken={w['handshakeToken']}, data={b64(c.get_client_final())}")
    return params("x " + h["Authentication-Info"])["authToken"]


def consecutive_energy(s):
    iv = sorted(b[0] - a[0] for a, b in zip(s, s[1:]))
    sp = iv[(len(iv) - 1) // 2]
    return sum(
        (v0 + v1) / 2 * (t1 - t0).total_seconds() / 3600 for (t0, v0), (t1, v1) in zip(s, s[1:]) if t1 - t0 <= 3 * sp
    )


def main():
    root = HERE.parent.parent
    sim = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "edge_agent",
            "simulate",
            "--dataset",
            "bench/blind2/plant.json",
            "--port",
            str(PORT),
            "--project",
            "blind",
            "--user",
            USER,
            "--password",
            PASSWORD,
        ],
        cwd=root,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        for _ in range(60):
            try:
                tok = login()
                break
            except (urllib.error.URLError, KeyError, ConnectionError):
                time.sleep(0.5)
        else:
            raise SystemExit("simulator did not start")
        bad = 0
        plant = Plant(HERE / "plant.json", HERE / "plant.csv.gz")
        main_kw = {
            "mbw": ("Millbrook WRF", "Main Switchgear Meter"),
            "hpb": ("Hopwell Brewery", "Incomer Meter"),
            "krs": ("Kestrel Ridge", "Main Service Meter"),
        }
        for key, rng in (
            ("mbw", "2026-11-01"),
            ("hpb", "2026-10-25"),
            ("krs", "2026-11-01"),
            ("hpb", "2026-10-19,2026-10-25"),
            ("mbw", "2026-10-27"),
        ):
            site, equip = main_kw[key]
            p = plant.point(site, equip, "Power")
            _, _, body = req(
                "hisRead?" + urllib.parse.urlencode({"id": "@" + p.id, "range": rng}), "BEARER authToken=" + tok
            )
            s = [(datetime.fromisoformat(r["ts"]["val"]), r["val"]["val"]) for r in json.loads(body)["rows"]]
            lo, hi = min(t for t, _ in s), max(t for t, _ in s)
            mine = [tv for tv in zip(p.ts, p.vals) if lo <= tv[0] <= hi]
            in_order = s == sorted(s)
            same = sorted(s) == mine
            bad += (not in_order) + (not same)
            print(
                f"{site} / {equip} {p.nav} {rng}: {len(s)} rows; same samples as plant.csv.gz: {same}; "
                f"in time order: {in_order}; energy as served {consecutive_energy(s):,.2f} kWh, "
                f"in time order {consecutive_energy(sorted(s)):,.2f} kWh"
            )
        return 1 if bad else 0
    finally:
        sim.terminate()
        sim.wait(10)


if __name__ == "__main__":
    sys.exit(main())
