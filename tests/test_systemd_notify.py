"""sd_notify from the daemon (a subprocess): READY=1 once model + database are open, even with the broker
down; WATCHDOG=1 only while the worker is healthy; STOPPING=1 on SIGTERM."""

import socket
import time

import pytest

from edge_agent.mqtt.broker import free_port


@pytest.fixture
def notify_socket(tmp_path):
    path = tmp_path / "notify.sock"
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    sock.bind(str(path))
    sock.settimeout(0.2)
    messages: list[tuple[float, str]] = []

    def drain(seconds: float) -> list[tuple[float, str]]:
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            try:
                messages.append((time.monotonic(), sock.recv(4096).decode()))
            except TimeoutError:
                pass
        return messages

    yield path, drain
    sock.close()


def test_ready_before_the_broker_then_watchdog_then_stopping(daemon_process, notify_socket):
    path, drain = notify_socket
    dead_port = free_port()  # nothing listens here: the broker is "down"
    d = daemon_process("n1", start=False, port=dead_port, env={"NOTIFY_SOCKET": str(path), "WATCHDOG_USEC": "200000"})
    d.start()
    msgs = drain(4.0)
    ready = [t for t, m in msgs if "READY=1" in m]
    assert ready, msgs
    assert "connected to" not in d.log()  # READY did not wait for the broker
    pings = [t for t, m in msgs if m == "WATCHDOG=1" and t > ready[0]]
    assert len(pings) >= 10  # every 0.1 s while the idle worker is healthy
    assert d.terminate() == 0
    assert any("STOPPING=1" in m for _, m in drain(0.5))


def test_watchdog_pings_stop_while_the_worker_is_stuck(daemon_process, notify_socket, requester):
    path, drain = notify_socket
    d = daemon_process(
        "n2", start=False, worker_stall_s=1.0, env={"NOTIFY_SOCKET": str(path), "WATCHDOG_USEC": "200000"}
    )
    d.start()
    assert d.wait_log("connected to", 20), d.log()
    c = requester("c1")
    rid = c.send("stuck [steps=1 delay=4]")  # no agent event for 4 s: the worker looks stuck
    assert c.wait_for(lambda: any(r.kind == "progress" for r in c.replies(rid)), 10)
    start = time.monotonic()
    msgs = drain(2.5)
    stuck = [t for t, m in msgs if m == "WATCHDOG=1" and start + 1.3 < t < start + 2.5]
    assert stuck == [], "pings went on while the worker made no progress"
    assert c.wait_for(lambda: bool(c.finals(rid)), 10)
    later = time.monotonic()
    msgs = drain(1.5)
    assert [t for t, m in msgs if m == "WATCHDOG=1" and t > later + 0.5]  # healthy again: pings resume
    d.terminate()
