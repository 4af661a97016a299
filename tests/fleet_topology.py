"""A bridged fleet of real processes, configured as docs/fleet.md says: one central Mosquitto, and per site a
Mosquitto that bridges (MQTT v5, `bridge_protocol_version mqttv50`) the site's gateway trees to the central one,
the gateway daemon `gw<N>` (`serve --runner script`, Home Assistant discovery on) and a member of the pool
gateway `pool` (a shared subscription that each site's bridge holds on the central broker, so the central
broker hands each pool request to one site). Every broker checks passwords and an ACL; every bridge reaches the
central broker through a `LinkProxy`, the WAN link a test cuts and restores.

Used by tests/test_fleet_bridge.py (a short cut) and bench/fleet_bridge_drill.py (minutes long).
"""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path

import yaml

from edge_agent import PROJECT_ROOT
from edge_agent.mqtt.broker import MosquittoBroker, free_port

POOL = "pool"  # the pool gateway's id, and its shared subscription group
REQUESTERS = ("scada-1", "scada-2", "scada-3", "scada-4")  # central requesters: users of the central broker only
VIEWER = "ops-fleet"  # the fleet view's user on the central broker (reads status and discovery only)
TECHNICIAN = "site-tech"  # a user of one site broker allowed to publish anything there (site 3's: a forger)


class LinkProxy:
    """A TCP relay 127.0.0.1:<port> → the central broker: the WAN link of one site. `cut()` closes every
    connection and refuses new ones until `restore()` (what a site sees when its uplink goes down: the bridge's
    connection drops and its reconnects fail)."""

    def __init__(self, target_port: int, host: str = "127.0.0.1"):
        self.host, self.target_port = host, target_port
        self.port = free_port()
        self.up = threading.Event()
        self.up.set()
        self.connections = 0  # accepted while up
        self.connections_at_restore = 0
        self._pairs: list[tuple[socket.socket, socket.socket]] = []
        self._lock = threading.Lock()
        self._server = socket.create_server((host, self.port))
        self._server.settimeout(0.2)
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._accept, name=f"link-{self.port}", daemon=True)
        self._thread.start()

    def _accept(self) -> None:
        while not self._stop.is_set():
            try:
                conn, _ = self._server.accept()
            except TimeoutError:
                continue
            except OSError:
                return
            if not self.up.is_set():
                conn.close()
                continue
            try:
                upstream = socket.create_connection((self.host, self.target_port), timeout=5)
            except OSError:
                conn.close()
                continue
            for s in (conn, upstream):
                s.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
                s.settimeout(None)
            with self._lock:
                self._pairs.append((conn, upstream))
                self.connections += 1
            for a, b in ((conn, upstream), (upstream, conn)):
                threading.Thread(target=self._pump, args=(a, b), daemon=True).start()

    @staticmethod
    def _pump(src: socket.socket, dst: socket.socket) -> None:
        try:
            while data := src.recv(65536):
                dst.sendall(data)
        except OSError:
            pass
        for s in (src, dst):
            try:
                s.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass

    def cut(self) -> None:
        self.up.clear()
        with self._lock:
            pairs, self._pairs = self._pairs, []
        for pair in pairs:
            for s in pair:
                try:
                    s.shutdown(socket.SHUT_RDWR)
                except OSError:
                    pass
                s.close()

    def restore(self) -> None:
        with self._lock:
            self.connections_at_restore = self.connections
        self.up.set()

    def close(self) -> None:
        self._stop.set()
        self.cut()
        self._server.close()
        self._thread.join(2)


def _passwd(path: Path, users: dict[str, str]) -> None:
    for i, (user, secret) in enumerate(users.items()):
        subprocess.run(
            ["mosquitto_passwd", *(["-c"] if i == 0 else []), "-b", str(path), user, secret],
            check=True,
            stdout=subprocess.DEVNULL,
        )


def password(user: str) -> str:
    return f"{user}-pw"


def _login(user: str) -> str:
    """Whose password a daemon user has: its -replies and -ha users share the daemon's (one credential)."""
    for suffix in ("-replies", "-ha"):
        if user.startswith("edge-agent-") and user.endswith(suffix):
            return user[: -len(suffix)]
    return user


def central_acl(sites: int) -> str:
    """The central broker's ACL: each site's bridge user reads what goes in to its site and writes what comes out
    of it (its own gateway's tree and the pool's), the fleet view reads status and discovery, every requester only
    its own topics (docs/fleet.md)."""
    blocks = []
    for n in range(1, sites + 1):
        gw = f"gw{n}"
        blocks.append(
            f"""user bridge-site{n}
topic read edge-agent/{gw}/request/#
topic read edge-agent/{gw}/cancel/#
topic read edge-agent/{gw}/answer/#
topic read homeassistant/status
topic write edge-agent/{gw}/response/#
topic write edge-agent/{gw}/status
topic write edge-agent/{gw}/ha/#
topic write homeassistant/sensor/edge_agent_{gw}/#
topic read $share/{POOL}/edge-agent/{POOL}/request/#
topic read edge-agent/{POOL}/request/#
topic read edge-agent/{POOL}/cancel/#
topic readwrite edge-agent/{POOL}/answer/#
topic write edge-agent/{POOL}/response/#
topic write edge-agent/{POOL}/status/#
topic deny edge-agent/+/request/bridge-site{n}
"""
        )
    blocks.append(
        f"""user {VIEWER}
topic read edge-agent/+/status
topic read edge-agent/+/status/#
topic read edge-agent/+/ha/state
topic read homeassistant/sensor/#
topic deny edge-agent/+/request/{VIEWER}
topic deny edge-agent/+/cancel/{VIEWER}
"""
    )
    blocks.append(
        """pattern write edge-agent/+/request/%u
pattern write edge-agent/+/cancel/%u
pattern read edge-agent/+/response/%u/#
pattern read edge-agent/+/status
pattern read edge-agent/+/status/#
"""
    )
    return "\n".join(blocks)


def site_acl(n: int) -> str:
    """A site broker's ACL: the gateway's three users and the pool member's two (docs/fleet.md), the bridge's
    local user, a technician who may publish anything, and site-local requesters on their own topics. The bridge's
    local user is given the gateway's topics only, none of the pool's: Mosquitto 2.0 does not check a broker's ACL
    for its own bridge, so the pool works all the same (tests/test_fleet_bridge.py shows it)."""
    gw, member = f"gw{n}", f"edge-agent-{POOL}-s{n}"
    return f"""user edge-agent-{gw}
topic read edge-agent/{gw}/request/#
topic read edge-agent/{gw}/cancel/#
topic readwrite edge-agent/{gw}/answer/#
topic write edge-agent/{gw}/response/#
topic write edge-agent/{gw}/status
topic write edge-agent/{gw}/status/#
topic read $share/+/edge-agent/{gw}/request/#
user edge-agent-{gw}-replies
topic write edge-agent/{gw}/response/#
user edge-agent-{gw}-ha
topic write homeassistant/sensor/edge_agent_{gw}/#
topic read homeassistant/status
topic write edge-agent/{gw}/ha/#
user {member}
topic read $share/+/edge-agent/{POOL}/request/#
topic read edge-agent/{POOL}/request/#
topic read edge-agent/{POOL}/cancel/#
topic readwrite edge-agent/{POOL}/answer/#
topic write edge-agent/{POOL}/response/#
topic write edge-agent/{POOL}/status/#
user {member}-replies
topic write edge-agent/{POOL}/response/#
user bridge-site{n}-local
topic write edge-agent/{gw}/request/#
topic write edge-agent/{gw}/cancel/#
topic write edge-agent/{gw}/answer/#
topic write homeassistant/status
topic read edge-agent/{gw}/response/#
topic read edge-agent/{gw}/status
topic read edge-agent/{gw}/ha/#
topic read homeassistant/sensor/edge_agent_{gw}/#
user {TECHNICIAN}
topic readwrite #
pattern write edge-agent/+/request/%u
pattern write edge-agent/+/cancel/%u
pattern read edge-agent/+/response/%u/#
"""


def bridge_conf(
    n: int, link_port: int, *, restart_timeout: str | None = "1 5", protocol: str = "mqttv50", broad: bool = False
) -> str:
    """Site n's bridge as docs/fleet.md writes it (address: the site's `LinkProxy`), plus the pool's lines.
    `restart_timeout` None: Mosquitto's default (5 s, backing off to 30 s). `broad`: responses go out as
    `edge-agent/+/response/#` (a bridge written too widely: the central broker's ACL
    for the bridge user must then be what keeps the site inside its own gateways' trees)."""
    gw = f"gw{n}"
    responses = (
        "topic edge-agent/+/response/# out 1\n"
        if broad
        else f"topic edge-agent/{gw}/response/# out 1\ntopic edge-agent/{POOL}/response/# out 1\n"
    )
    return f"""
connection central
address 127.0.0.1:{link_port}
bridge_protocol_version {protocol}
remote_username bridge-site{n}
remote_password {password(f"bridge-site{n}")}
remote_clientid bridge-site{n}
cleansession false
local_clientid bridge-site{n}-local
local_username bridge-site{n}-local
local_password {password(f"bridge-site{n}-local")}
{f"restart_timeout {restart_timeout}" if restart_timeout else ""}
keepalive_interval 10
topic edge-agent/{gw}/request/# in 1
topic edge-agent/{gw}/cancel/# in 1
topic edge-agent/{gw}/answer/# in 1
{responses}topic edge-agent/{gw}/status out 1
topic edge-agent/{gw}/ha/# out 1
topic homeassistant/sensor/edge_agent_{gw}/# out 1
topic homeassistant/status in 1
topic $share/{POOL}/edge-agent/{POOL}/request/# in 1
topic edge-agent/{POOL}/cancel/# in 1
topic edge-agent/{POOL}/answer/# both 1
topic edge-agent/{POOL}/status/# out 1
"""


class Daemon:
    """`python -m edge_agent serve --runner script` with its own config file and log."""

    def __init__(self, workdir: Path, settings: dict, args: list[str]):
        self.workdir = workdir
        workdir.mkdir(parents=True, exist_ok=True)
        self.config = workdir / "edge-agent.yaml"
        self.config.write_text(yaml.safe_dump(settings))
        self.args = args
        self.state_dir = Path(settings["paths"]["state_dir"])
        self.proc: subprocess.Popen[bytes] | None = None
        self.log_path = workdir / "daemon.log"

    def start(self) -> Daemon:
        env = {k: v for k, v in os.environ.items() if not k.startswith("EDGE_AGENT_")}
        env["PYTHONPATH"] = str(PROJECT_ROOT)
        with open(self.log_path, "ab") as log:
            self.proc = subprocess.Popen(
                [sys.executable, "-m", "edge_agent", "serve", "--runner", "script", "--config", str(self.config)]
                + ["--log-level", "INFO", *self.args],
                cwd=PROJECT_ROOT,
                env=env,
                stdout=log,
                stderr=subprocess.STDOUT,
            )
        return self

    def log(self) -> str:
        try:
            return self.log_path.read_text(errors="replace")
        except OSError:
            return ""

    def wait_log(self, text: str, timeout: float) -> bool:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if text in self.log():
                return True
            if self.proc is not None and self.proc.poll() is not None:
                break
            time.sleep(0.1)
        return text in self.log()

    def runs(self) -> list[dict]:
        """The script runner's log of runs started and ended (`script-runs.jsonl`)."""
        import json

        path = self.state_dir / "script-runs.jsonl"
        return [json.loads(line) for line in path.read_text().splitlines()] if path.exists() else []

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(20)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()


@dataclass
class Site:
    n: int
    broker: MosquittoBroker
    link: LinkProxy
    gateway: Daemon
    member: Daemon

    @property
    def gateway_id(self) -> str:
        return f"gw{self.n}"


@dataclass
class Fleet:
    """The whole topology; `start()` waits until every daemon is connected and every bridge is up."""

    workdir: Path
    sites_n: int = 3
    restart_timeout: str | None = "1 5"
    protocol: str = "mqttv50"  # the bridges' bridge_protocol_version
    state_interval_s: float = 2.0
    broad_site: int | None = 3  # this site's bridge sends every gateway's responses out (see `bridge_conf`)
    central: MosquittoBroker | None = None
    sites: list[Site] = field(default_factory=list)

    def _broker(self, name: str, users: dict[str, str], acl: str, extra: str = "") -> MosquittoBroker:
        work = self.workdir / name
        work.mkdir(parents=True, exist_ok=True)
        _passwd(work / "passwd", users)
        (work / "acl").write_text(acl)
        conf = (
            "allow_anonymous false\nuse_username_as_clientid true\n"
            f"password_file {work / 'passwd'}\nacl_file {work / 'acl'}\n" + extra
        )
        return MosquittoBroker(work / "broker", extra_conf=conf)

    def _daemon(self, site: int, broker: MosquittoBroker, gateway_id: str, user: str, *, group: bool) -> Daemon:
        work = self.workdir / f"site{site}" / user
        secret = work / "mqtt-password"
        work.mkdir(parents=True, exist_ok=True)
        secret.write_text(password(user) + "\n")
        secret.chmod(0o600)
        settings = {
            "paths": {"state_dir": str(work / "state")},
            "mqtt": {
                "host": broker.host,
                "port": broker.port,
                "gateway_id": gateway_id,
                "username": user,
                "password_file": str(secret),
                "keepalive_s": 5,
                "ask_timeout_s": 30.0,
                **({"shared_group": POOL} if group else {}),
            },
            "homeassistant": {"enabled": not group, "state_interval_s": self.state_interval_s},
        }
        return Daemon(work, settings, [])

    def start(self, timeout: float = 60.0) -> Fleet:
        central_users = {u: password(u) for u in (*REQUESTERS, VIEWER)}
        central_users |= {f"bridge-site{n}": password(f"bridge-site{n}") for n in range(1, self.sites_n + 1)}
        self.central = self._broker("central", central_users, central_acl(self.sites_n)).start()
        for n in range(1, self.sites_n + 1):
            gw, member = f"gw{n}", f"edge-agent-{POOL}-s{n}"
            users = [f"edge-agent-{gw}", f"edge-agent-{gw}-replies", f"edge-agent-{gw}-ha", member, f"{member}-replies"]
            users += [f"bridge-site{n}-local", TECHNICIAN]
            link = LinkProxy(self.central.port)
            broker = self._broker(
                f"site{n}",
                {u: password(_login(u)) for u in users},
                site_acl(n),
                bridge_conf(
                    n,
                    link.port,
                    restart_timeout=self.restart_timeout,
                    protocol=self.protocol,
                    broad=n == self.broad_site,
                ),
            )
            broker.start()
            site = Site(
                n,
                broker,
                link,
                self._daemon(n, broker, gw, f"edge-agent-{gw}", group=False),
                self._daemon(n, broker, POOL, member, group=True),
            )
            self.sites.append(site)
        for site in self.sites:
            site.gateway.start()
            site.member.start()
        for site in self.sites:
            for d in (site.gateway, site.member):
                assert d.wait_log("connected to", timeout), d.log()[-3000:]
        for site in self.sites:
            assert self.bridge_up(site, timeout), site.broker.log_tail(30)
        return self

    def bridge_up(self, site: Site, timeout: float) -> bool:
        """True once the central broker has logged site's bridge connected through a link connection made after the
        last restore (at start: through any)."""
        assert self.central is not None
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            link = site.link
            made = link.connections > link.connections_at_restore
            if link.up.is_set() and made and self.bridge_connections(site) >= link.connections:
                return True
            time.sleep(0.1)
        return False

    def bridge_connections(self, site: Site) -> int:
        """How often the central broker has taken site's bridge in (its log's connect lines)."""
        assert self.central is not None
        try:
            text = self.central.log_path.read_text(errors="replace")
        except OSError:
            return 0
        return text.count(f"as bridge-site{site.n} (")

    def stop(self) -> None:
        for site in self.sites:
            site.gateway.stop()
            site.member.stop()
        for site in self.sites:
            site.broker.stop()
            site.link.close()
        if self.central is not None:
            self.central.stop()
