"""Start and stop MQTT brokers for tests, the benchmark and the demo.

`MosquittoBroker` runs the Debian `mosquitto` binary on a free loopback port with the config
template `config/mosquitto-test.conf` (persistence with `autosave_on_changes`, so a restarted
broker still holds every acknowledged QoS 1 message); `kill()` (SIGKILL) and `restart()` let tests
crash it. `EmbeddedBroker` is rumqttd from the `iotcore` wheel, speaking MQTT v5 with sessions in
memory only: enough for the demo on a machine with nothing installed. `start_broker` picks one.
"""

from __future__ import annotations

import getpass
import logging
import os
import shutil
import signal
import socket
import subprocess
import tempfile
import time
from pathlib import Path
from types import TracebackType
from typing import TYPE_CHECKING, Self

from edge_agent import PROJECT_ROOT

if TYPE_CHECKING:
    from iotcore import Broker

log = logging.getLogger(__name__)

TEST_CONF = PROJECT_ROOT / "config" / "mosquitto-test.conf"
MOSQUITTO_PATHS = ("/usr/sbin/mosquitto", "/usr/local/sbin/mosquitto", "/opt/homebrew/sbin/mosquitto")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def wait_port(port: int, timeout: float, host: str = "127.0.0.1") -> bool:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            with socket.create_connection((host, port), timeout=0.2):
                return True
        except OSError:
            time.sleep(0.05)
    return False


def start_logged(
    argv: list[str], *, cwd: Path, env: dict[str, str], log: Path, ready: bytes, what: str, timeout: float = 30.0
) -> subprocess.Popen[bytes]:
    """Start `argv` with its output in `log` and wait until `ready` shows in it (a daemon's "connected to", a
    console's "console on"); SystemExit with the log if it exits or `timeout` passes first (the benchmarks' and
    drills' gateways)."""
    with open(log, "wb") as out:
        proc = subprocess.Popen(argv, cwd=cwd, env=env, stdout=out, stderr=subprocess.STDOUT)
    deadline = time.monotonic() + timeout
    while ready not in log.read_bytes():
        if time.monotonic() > deadline or proc.poll() is not None:
            raise SystemExit(f"{what} did not start: " + log.read_text())
        time.sleep(0.1)
    return proc


def find_mosquitto() -> str | None:
    found = shutil.which("mosquitto")
    return found or next((p for p in MOSQUITTO_PATHS if os.access(p, os.X_OK)), None)


class LocalBroker:
    """A broker on 127.0.0.1:<port>, started and stopped by this process (a context manager: `with ... as broker`)."""

    host = "127.0.0.1"
    port: int

    def start(self, timeout: float = 10.0) -> Self:
        raise NotImplementedError

    def stop(self) -> None:
        raise NotImplementedError

    def __enter__(self) -> Self:
        return self.start()

    def __exit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        self.stop()


class MosquittoBroker(LocalBroker):
    """A real Mosquitto on 127.0.0.1:<port> with persistence under `workdir`."""

    def __init__(
        self,
        workdir: Path | None = None,
        port: int | None = None,
        *,
        max_packet_size: int = 262144,
        binary: str | None = None,
        extra_conf: str = "",
    ):
        found = binary or find_mosquitto()
        if found is None:
            raise FileNotFoundError("mosquitto is not installed (Debian: apt-get install mosquitto)")
        self.binary: str = found
        self.workdir = Path(workdir or tempfile.mkdtemp(prefix="mosquitto-"))
        self.port = port or free_port()
        self.max_packet_size = max_packet_size
        self.extra_conf = extra_conf
        self.proc: subprocess.Popen[bytes] | None = None

    @property
    def conf_path(self) -> Path:
        return self.workdir / "mosquitto.conf"

    @property
    def log_path(self) -> Path:
        return self.workdir / "mosquitto.log"

    def write_conf(self) -> Path:
        (self.workdir / "data").mkdir(parents=True, exist_ok=True)
        text = TEST_CONF.read_text().format(
            port=self.port,
            user=getpass.getuser(),
            persistence_dir=self.workdir / "data",
            max_packet_size=self.max_packet_size,
            log_file=self.log_path,
        )
        self.conf_path.write_text(text + self.extra_conf)
        return self.conf_path

    def start(self, timeout: float = 10.0) -> Self:
        self.write_conf()
        self.proc = subprocess.Popen(
            [self.binary, "-c", str(self.conf_path)], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
        )
        if not wait_port(self.port, timeout):
            self.stop()
            raise RuntimeError(f"mosquitto did not listen on {self.port}: {self.log_tail()}")
        return self

    def log_tail(self, n: int = 20) -> str:
        try:
            return "\n".join(self.log_path.read_text(errors="replace").splitlines()[-n:])
        except OSError:
            return ""

    def stop(self) -> None:
        """Clean stop (SIGTERM): Mosquitto writes its persistence file."""
        if self.proc and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        self.proc = None

    def kill(self) -> None:
        """Crash (SIGKILL): only what autosave already wrote survives."""
        if self.proc and self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait()
        self.proc = None

    def restart(self, *, crash: bool = False, down_s: float = 0.0) -> Self:
        self.kill() if crash else self.stop()
        time.sleep(down_s)
        return self.start()


RUMQTTD_TOML = """id = 0

[router]
id = 0
max_connections = 1000
max_outgoing_packet_count = 200
max_segment_size = 104857600
max_segment_count = 10

[v5.1]
name = "v5-1"
listen = "127.0.0.1:{port}"
next_connection_delay_ms = 1
    [v5.1.connections]
    connection_timeout_ms = 60000
    max_payload_size = {max_payload}
    max_inflight_count = 100
"""


class EmbeddedBroker(LocalBroker):
    """rumqttd (PyPI `iotcore`) speaking MQTT v5 on 127.0.0.1:<port>; sessions live in memory only."""

    def __init__(self, workdir: Path | None = None, port: int | None = None, max_payload: int = 262144):
        self.workdir = Path(workdir or tempfile.mkdtemp(prefix="rumqttd-"))
        self.port = port or free_port()
        self.max_payload = max_payload
        self._broker: Broker | None = None

    def start(self, timeout: float = 10.0) -> Self:
        from iotcore import Broker

        self.workdir.mkdir(parents=True, exist_ok=True)
        conf = self.workdir / "rumqttd.toml"
        conf.write_text(RUMQTTD_TOML.format(port=self.port, max_payload=self.max_payload))
        self._broker = Broker(config_path=str(conf)).start(timeout)
        return self

    def stop(self) -> None:
        if self._broker is not None:
            self._broker.stop()
            self._broker = None

    kill = stop


def start_broker(workdir: Path | None = None, prefer: str = "embedded") -> MosquittoBroker | EmbeddedBroker:
    """A running broker: `prefer` embedded (rumqttd) or mosquitto, falling back to the other one."""
    order = ["embedded", "mosquitto"] if prefer == "embedded" else ["mosquitto", "embedded"]
    errors = []
    for kind in order:
        try:
            if kind == "mosquitto":
                return MosquittoBroker(workdir).start()
            return EmbeddedBroker(workdir).start()
        except Exception as exc:  # missing binary or wheel: try the other one
            errors.append(f"{kind}: {exc}")
    raise RuntimeError("no MQTT broker could be started: " + "; ".join(errors))
