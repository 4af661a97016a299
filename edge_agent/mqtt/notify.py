"""systemd notification (sd_notify) in a few lines of stdlib: READY=1, WATCHDOG=1, STOPPING=1, STATUS=.

Without `NOTIFY_SOCKET` (not started by systemd) every call is a no-op. `Watchdog` pings at half
of `WATCHDOG_USEC`, and only while the health check it is given returns True, so a stuck worker
gets the daemon restarted by systemd (`WatchdogSec=` + `Restart=on-failure`).
"""

from __future__ import annotations

import logging
import os
import socket
import threading
from collections.abc import Callable

log = logging.getLogger(__name__)


def notify(*lines: str) -> bool:
    """Send `lines` (e.g. "READY=1") to systemd; False when not under systemd or on failure."""
    address = os.environ.get("NOTIFY_SOCKET")
    if not address:
        return False
    if address.startswith("@"):  # abstract namespace
        address = "\0" + address[1:]
    try:
        with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM | socket.SOCK_CLOEXEC) as sock:
            sock.connect(address)
            sock.sendall("\n".join(lines).encode("utf-8"))
        return True
    except OSError as exc:
        log.warning("sd_notify failed: %s", exc)
        return False


def watchdog_interval() -> float | None:
    """Seconds between pings (half of WATCHDOG_USEC), or None when systemd wants no pings."""
    usec = os.environ.get("WATCHDOG_USEC")
    pid = os.environ.get("WATCHDOG_PID")
    if not usec or (pid and pid.isdigit() and int(pid) != os.getpid()):
        return None
    try:
        return max(int(usec) / 2e6, 0.05)
    except ValueError:
        return None


class Watchdog:
    """A thread that sends WATCHDOG=1 while `healthy()` is true."""

    def __init__(self, healthy: Callable[[], bool]):
        self.healthy = healthy
        self.interval = watchdog_interval()
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    def start(self) -> None:
        if self.interval is None:
            return
        self._thread = threading.Thread(target=self._run, name="watchdog", daemon=True)
        self._thread.start()

    def _run(self) -> None:
        while not self._stop.wait(self.interval):
            if self.healthy():
                notify("WATCHDOG=1")
            else:
                log.error("worker unhealthy: withholding the watchdog ping")

    def stop(self) -> None:
        self._stop.set()
