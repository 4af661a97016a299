"""Fixtures for the mqtt tests: a real Mosquitto (persistence on, restartable), the daemon in-process or
as a subprocess (`edge-agent serve --runner script`, so tests can kill -9 it), and requesters."""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
import yaml

from edge_agent import PROJECT_ROOT
from edge_agent.config import load_settings
from edge_agent.mqtt.broker import MosquittoBroker, find_mosquitto

BROKER_MAX_PACKET = 131072  # small enough that file chunks must follow CONNACK, not file_chunk_bytes


def _need_mosquitto() -> None:
    if find_mosquitto() is None:
        pytest.skip("mosquitto is not installed (apt-get install mosquitto)")


@pytest.fixture
def mosquitto(tmp_path):
    """A fresh Mosquitto on a free loopback port; `.restart(crash=True)` kills -9 and restarts it."""
    _need_mosquitto()
    broker = MosquittoBroker(tmp_path / "mosquitto", max_packet_size=BROKER_MAX_PACKET).start()
    yield broker
    broker.kill()


def mqtt_overrides(state_dir: Path, broker, **mqtt) -> dict:
    return {
        "paths": {"state_dir": str(state_dir)},
        "mqtt": {
            "host": broker.host,
            "port": broker.port,
            "file_chunk_bytes": 262144,
            "ask_timeout_s": 3.0,
            "keepalive_s": 5,
            **mqtt,
        },
    }


#: the shipped ACL's daemon users for gateway gw1 (config/mosquitto.conf) and their password in the tests
DAEMON_USER, DAEMON_PASSWORD = "edge-agent-gw1", "s3cret"
SHIPPED_CONF = PROJECT_ROOT / "config" / "mosquitto.conf"


def shipped_auth() -> tuple[str, str]:
    """config/mosquitto.conf as docs/gateway-install.md installs it: the directives of its authentication
    section (password_file and acl_file left for the caller) and the ACL file between its ---8<--- markers."""
    lines = SHIPPED_CONF.read_text().splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith("# --- authentication"))
    end = next(i for i, line in enumerate(lines) if i > start and line.startswith("# --- "))
    directives = [
        line
        for line in lines[start:end]
        if line.strip() and not line.startswith("#") and line.split()[0] not in ("password_file", "acl_file")
    ]
    cut = [i for i, line in enumerate(lines) if "---8<---" in line]
    acl = "\n".join(line[2:] for line in lines[cut[0] + 1 : cut[1]] if line.startswith("# "))
    return "\n".join(directives) + "\n", acl + "\n"


@pytest.fixture
def secured_broker(tmp_path, monkeypatch):
    """Factory: a Mosquitto set up as docs/gateway-install.md says — password file, the shipped authentication
    directives (`use_username_as_clientid`) and ACL (`acl=False`: passwords only) — with the daemon's two users
    (their password in a systemd credential, `CREDENTIALS_DIRECTORY`) and requesters whose password is
    `<user>-pw`. Returns the started broker (`.creds`: the credential folder)."""
    if shutil.which("mosquitto_passwd") is None:
        pytest.skip("mosquitto_passwd is not installed")
    _need_mosquitto()
    made = []

    def make(requesters=(), *, acl: bool = True, name: str = "secured", extra: str = "") -> MosquittoBroker:
        work = tmp_path / name
        work.mkdir()
        pw = work / "passwd"
        subprocess.run(["mosquitto_passwd", "-c", "-b", str(pw), DAEMON_USER, DAEMON_PASSWORD], check=True)
        for user in (f"{DAEMON_USER}-replies", *requesters):
            secret = DAEMON_PASSWORD if user.startswith(DAEMON_USER) else f"{user}-pw"
            subprocess.run(["mosquitto_passwd", "-b", str(pw), user, secret], check=True)
        creds = work / "creds"
        creds.mkdir()
        (creds / "mqtt-password").write_text(DAEMON_PASSWORD + "\n")
        monkeypatch.setenv("CREDENTIALS_DIRECTORY", str(creds))
        directives, acl_text = shipped_auth()
        conf = directives + f"password_file {pw}\n"
        if acl:
            (work / "edge-agent.acl").write_text(acl_text)
            conf += f"acl_file {work / 'edge-agent.acl'}\n"
        broker = MosquittoBroker(work / "broker", max_packet_size=BROKER_MAX_PACKET, extra_conf=conf + extra).start()
        broker.creds = creds
        made.append(broker)
        return broker

    yield make
    for broker in made:
        broker.kill()


def as_user(tmp_path: Path, broker, user: str, **mqtt) -> object:
    """Settings that log in to `broker` as `user` (password `<user>-pw`; the daemon's users: the credential)."""
    password = {} if user.startswith(DAEMON_USER) else {"password": f"{user}-pw"}
    return load_settings(
        overrides=mqtt_overrides(tmp_path / user, broker, username=user, **password, **mqtt), environ={}
    )


@pytest.fixture
def mqtt_settings(tmp_path, mosquitto):
    return load_settings(overrides=mqtt_overrides(tmp_path / "state", mosquitto), environ={})


@pytest.fixture
def inproc_daemon(mqtt_settings):
    """Start `GatewayService` with the deterministic ScriptRunner in this process (factory)."""
    from edge_agent.mqtt.runner import ScriptRunner
    from edge_agent.mqtt.service import GatewayService

    started = []

    def start(settings=None, **kw):
        settings = settings or mqtt_settings
        svc = GatewayService(settings, ScriptRunner(settings), **kw)
        svc.start()
        started.append(svc)
        assert svc.connected.wait(10), "the daemon did not connect"
        return svc

    yield start
    for svc in started:
        if not svc.stopping.is_set():
            svc.stop(timeout=5)


@pytest.fixture
def requester(mqtt_settings):
    """Connected `RequestClient`s (factory); persistent=True survives broker restarts."""
    from edge_agent.mqtt.client import RequestClient

    clients = []

    def make(client_id: str | None = None, settings=None, **kw):
        settings = settings or mqtt_settings
        client = RequestClient(settings, client_id=client_id or settings.mqtt.username or "tester", **kw).connect()
        clients.append(client)
        return client

    yield make
    for c in clients:
        c.close()


class DaemonProcess:
    """`python -m edge_agent serve --runner script` as a child process with its own config file."""

    def __init__(self, workdir: Path, overrides: dict, args: list[str], env: dict | None = None):
        self.workdir = workdir
        self.config = workdir / "edge-agent.yaml"
        workdir.mkdir(parents=True, exist_ok=True)
        self.config.write_text(yaml.safe_dump(overrides))
        self.args = args
        self.env = env or {}
        self.proc: subprocess.Popen | None = None
        self.starts = 0

    @property
    def log_path(self) -> Path:
        return self.workdir / f"daemon-{self.starts}.log"

    def start(self) -> DaemonProcess:
        self.starts += 1
        env = {k: v for k, v in os.environ.items() if not k.startswith("EDGE_AGENT_")}
        env.update({"PYTHONPATH": str(PROJECT_ROOT), **self.env})
        self._log = open(self.log_path, "wb")
        self.proc = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "edge_agent",
                "serve",
                "--runner",
                "script",
                "--config",
                str(self.config),
                "--log-level",
                "INFO",
                *self.args,
            ],
            cwd=PROJECT_ROOT,
            env=env,
            stdout=self._log,
            stderr=subprocess.STDOUT,
        )
        return self

    def wait_log(self, text: str, timeout: float = 15.0) -> bool:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if text in self.log():
                return True
            if self.proc and self.proc.poll() is not None:
                return text in self.log()
            time.sleep(0.05)
        return False

    def log(self) -> str:
        try:
            return self.log_path.read_text(errors="replace")
        except OSError:
            return ""

    def kill(self) -> None:
        if self.proc and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGKILL)
            self.proc.wait(10)

    def terminate(self, timeout: float = 20.0) -> int:
        if self.proc and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            return self.proc.wait(timeout)
        return self.proc.returncode if self.proc else 0


@pytest.fixture
def daemon_process(tmp_path, mosquitto):
    """Factory: `daemon_process(name, **mqtt_overrides)` → a started DaemonProcess (script runner)."""
    made: list[DaemonProcess] = []

    def make(
        name: str = "d1", args: list[str] | None = None, env: dict | None = None, start: bool = True, **mqtt
    ) -> DaemonProcess:
        d = DaemonProcess(
            tmp_path / name, mqtt_overrides(tmp_path / name / "state", mosquitto, **mqtt), args or [], env
        )
        made.append(d)
        if start:
            d.start()
            assert d.wait_log("connected to", 20), d.log()
        return d

    yield make
    for d in made:
        d.kill()
