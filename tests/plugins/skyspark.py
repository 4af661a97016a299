"""Fixtures for the skyspark tests (real components started for the test session).

- `simulator` (session): the real SkySpark simulator (HTTP + SCRAM) on a free 127.0.0.1 port in a
  background thread; has `url`, `project`, `username`, `password` and `server` (the SimulatorServer).
- `skyspark_settings`: a `Settings` whose skyspark section points at it, state_dir under tmp_path.
- `skyspark_client`: a `SkySparkClient` for those settings.
- `iot_ctx`: a `ToolContext` (file store under tmp_path, clock in the site timezone) using that client.
- `start_simulator(**kwargs)`: start an extra simulator (e.g. a slow one); stopped after the test.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass, field

import pytest

from edge_agent.config import load_settings

SIM_PROJECT = "demo"
SIM_USER = "operator"
SIM_PASSWORD = "pl4nt-Ops!"


@dataclass
class RunningSimulator:
    url: str
    project: str
    username: str
    password: str
    server: object = field(repr=False)

    def stop(self) -> None:
        self.server.shutdown()
        self.server.server_close()


def _start(**kwargs) -> RunningSimulator:
    from edge_agent.skyspark.simulator import SimulatorServer

    project = kwargs.pop("project", SIM_PROJECT)
    users = kwargs.pop("users", {SIM_USER: SIM_PASSWORD})
    server = SimulatorServer(("127.0.0.1", 0), project=project, users=users, **kwargs)
    threading.Thread(target=server.serve_forever, name="skyspark-simulator", daemon=True).start()
    username, password = next(iter(users.items())) if users else ("", "")
    return RunningSimulator(server.url, project, username, password, server)


@pytest.fixture(scope="session")
def simulator():
    """The real simulator over the synthetic plant, for the whole test session."""
    sim = _start()
    yield sim
    sim.stop()


@pytest.fixture
def start_simulator():
    """Factory for extra simulators (own knobs such as delay_s); all stopped after the test."""
    started: list[RunningSimulator] = []

    def start(**kwargs) -> RunningSimulator:
        sim = _start(**kwargs)
        started.append(sim)
        return sim

    yield start
    for sim in started:
        sim.stop()


def settings_for(sim: RunningSimulator, state_dir, **skyspark) -> object:
    section = {
        "url": sim.url,
        "project": sim.project,
        "username": sim.username,
        "password": sim.password,
        "timeout_s": 5,
        "retries": 1,
        **skyspark,
    }
    return load_settings(
        overrides={
            "paths": {"state_dir": str(state_dir)},
            "skyspark": section,
            "agent": {"timezone": "America/New_York"},
        },
        environ={},
    )


@pytest.fixture
def skyspark_settings(simulator, tmp_path):
    """Settings pointing at the session simulator (state under tmp_path, site timezone America/New_York)."""
    return settings_for(simulator, tmp_path / "state")


@pytest.fixture
def skyspark_client(skyspark_settings):
    from edge_agent.skyspark.client import SkySparkClient

    client = SkySparkClient.from_settings(skyspark_settings.skyspark)
    yield client
    client.close()


@pytest.fixture
def iot_ctx(skyspark_settings, skyspark_client, tmp_path):
    """A tool context whose SkySpark is the session simulator and whose files live under tmp_path."""
    from edge_agent.clock import Clock
    from edge_agent.filestore import FileStore
    from edge_agent.toolkit import ToolContext

    return ToolContext(
        files=FileStore(tmp_path / "files"),
        clock=Clock("2024-07-15T12:00:00", "America/New_York"),
        settings=skyspark_settings,
        skyspark_factory=lambda: skyspark_client,
    )


# ── a third-party Haystack server: shaystack (PyPI), in its own cached virtual environment ─────────

SHAYSTACK_REQUIREMENTS = ["shaystack[flask]==0.10.2", "werkzeug==2.1.2"]


def _cache_dir():
    import os
    from pathlib import Path

    base = os.environ.get("EDGE_AGENT_CACHE") or os.path.join(
        os.environ.get("XDG_CACHE_HOME") or os.path.expanduser("~/.cache"), "edge-agent"
    )
    return Path(base)


def shaystack_venv():
    """The path of a virtual environment with shaystack, created once and cached; skips with the reason
    when it cannot be installed (e.g. no access to PyPI)."""
    import fcntl
    import hashlib
    import subprocess
    import sys

    key = hashlib.sha256(("|".join(SHAYSTACK_REQUIREMENTS) + sys.version).encode()).hexdigest()[:10]
    root = _cache_dir()
    venv = root / f"shaystack-{key}"
    ready = venv / ".edge-agent-ready"
    root.mkdir(parents=True, exist_ok=True)
    with open(root / f"shaystack-{key}.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if ready.exists():
            return venv
        steps = [
            [sys.executable, "-m", "venv", "--clear", str(venv)],
            [
                str(venv / "bin" / "python"),
                "-m",
                "pip",
                "install",
                "--disable-pip-version-check",
                "-q",
                "--retries",
                "1",
                "--timeout",
                "20",
                *SHAYSTACK_REQUIREMENTS,
            ],
        ]
        for cmd in steps:
            try:
                out = subprocess.run(cmd, capture_output=True, text=True, timeout=900)
            except subprocess.TimeoutExpired:
                pytest.skip(f"shaystack could not be installed: {' '.join(cmd[:4])} timed out")
            if out.returncode != 0:
                lines = (out.stderr or out.stdout).strip().splitlines()
                why = [ln for ln in lines if ln.startswith("ERROR")] or lines[-2:]
                pytest.skip(
                    f"shaystack could not be installed ({' '.join(cmd[1:4])} exited {out.returncode}): "
                    f"{' '.join(why)[:400]}"
                )
        ready.write_text("\n".join(SHAYSTACK_REQUIREMENTS) + "\n")
        return venv


SHAYSTACK_DAY = (2024, 7, 15)  # in the past: shaystack drops history after "now"
SHAYSTACK_POINTS = {"Chiller 6": ("Tonnage", "% Loaded", "Run Status"), "Chiller 9": ("Tonnage", "% Loaded")}


def write_dataset(folder):
    """A small Zinc dataset in the style shaystack's samples use (entities + one `hisURI` grid per point),
    taken from the synthetic plant: POKMAIN, two chillers, one day of 15-minute history."""
    from datetime import datetime, timedelta
    from zoneinfo import ZoneInfo

    from phable.kinds import Marker, Number, Ref

    from edge_agent.skyspark.dataset import find_point, plant
    from edge_agent.skyspark.encoding import grid_to_zinc, make_grid

    p = plant()
    tz = ZoneInfo("America/New_York")
    start = datetime(*SHAYSTACK_DAY, tzinfo=tz)
    site = next(r for r in p.records if r.get("dis") == "POKMAIN" and "site" in r)
    site_ref = Ref(site["id"].val)
    recs = [{"id": site_ref, "dis": "POKMAIN", "site": Marker(), "tz": site["tz"], "geoCity": site["geoCity"]}]
    for equip, navs in SHAYSTACK_POINTS.items():
        e = next(r for r in p.records if r.get("dis") == equip and "equip" in r)
        recs.append({"id": Ref(e["id"].val), "dis": equip, "equip": Marker(), "chiller": Marker(), "siteRef": site_ref})
        for nav in navs:
            pid = find_point("POKMAIN", equip, nav)
            r = p.rec(pid)
            rec = {
                "id": Ref(pid),
                "dis": r["dis"],
                "navName": nav,
                "point": Marker(),
                "his": Marker(),
                "kind": r["kind"],
                "tz": r["tz"],
                "equipRef": Ref(e["id"].val),
                "siteRef": site_ref,
                "hisURI": f"his_{pid}.zinc",
            }
            if r.get("unit"):
                rec["unit"] = r["unit"]
            recs.append(rec)
            rows = [
                {"ts": ts, "val": v if isinstance(v, bool) else Number(v, r.get("unit"))}
                for ts, v in p.his(pid, start, start + timedelta(days=1))
            ]
            (folder / rec["hisURI"]).write_text(grid_to_zinc(make_grid(rows)), encoding="utf-8")
    (folder / "plant.zinc").write_text(grid_to_zinc(make_grid(recs)), encoding="utf-8")


@dataclass
class ThirdPartyServer:
    url: str
    api_path: str
    data_dir: object
    process: object = field(repr=False)


@pytest.fixture(scope="session")
def shaystack_server(tmp_path_factory):
    """shaystack's Flask server (URL provider, no auth, /haystack/{op}) over a small Zinc dataset of ours."""
    import os
    import socket
    import subprocess
    import time
    import urllib.request

    venv = shaystack_venv()
    data = tmp_path_factory.mktemp("shaystack")
    write_dataset(data)
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    env = {
        **os.environ,
        "HAYSTACK_PROVIDER": "shaystack.providers.url",
        "HAYSTACK_DB": str(data / "plant.zinc"),
        "LOG_LEVEL": "WARNING",
    }
    log = open(data / "server.log", "w")
    proc = subprocess.Popen(
        [str(venv / "bin" / "shaystack"), "-h", "127.0.0.1", "-p", str(port)],
        env=env,
        stdout=log,
        stderr=subprocess.STDOUT,
    )
    url = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 60
    while True:
        try:
            req = urllib.request.Request(f"{url}/haystack/about", headers={"Accept": "text/zinc"})
            with urllib.request.urlopen(req, timeout=2) as resp:
                resp.read()
            break
        except OSError:
            if proc.poll() is not None or time.monotonic() > deadline:
                proc.kill()
                log.close()
                raise RuntimeError(f"shaystack did not start: {(data / 'server.log').read_text()[-2000:]}") from None
            time.sleep(0.3)
    yield ThirdPartyServer(url, "haystack", data, proc)
    proc.terminate()
    try:
        proc.wait(timeout=10)
    except subprocess.TimeoutExpired:
        proc.kill()
    log.close()
