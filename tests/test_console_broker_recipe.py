"""docs/console.md's recipe for a broker in any directory, run as written (issue 41, 7): the shell block after the
`broker-recipe` marker, as root with Debian's `mosquitto` user, in a fresh directory; the broker it sets up starts,
drops to its own user, reads the password file and the ACL, lets the daemon's user and the console in, and refuses a
wrong password."""

from __future__ import annotations

import os
import pwd
import re
import shutil
import subprocess
import tempfile
import time
from pathlib import Path

import paho.mqtt.client as mqtt
import pytest

from edge_agent import PROJECT_ROOT
from edge_agent.mqtt.broker import find_mosquitto, free_port, wait_port

DOC = PROJECT_ROOT / "docs" / "console.md"


def _recipe() -> str:
    text = DOC.read_text()
    after = text[text.index("<!-- broker-recipe") :]
    return re.search(r"```sh\n(.*?)```", after, re.S).group(1)


def _connects(port: int, user: str, password: str) -> bool:
    client = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2, client_id=user, protocol=mqtt.MQTTv5)
    client.username_pw_set(user, password)
    result: list = []
    client.on_connect = lambda c, u, f, rc, p=None: result.append(not rc.is_failure)
    client.connect("127.0.0.1", port)
    client.loop_start()
    deadline = time.monotonic() + 10
    while not result and time.monotonic() < deadline:
        time.sleep(0.05)
    client.disconnect()
    client.loop_stop()
    return bool(result and result[0])


def test_the_docs_recipe_sets_up_a_broker_outside_etc():
    if os.geteuid() != 0:
        pytest.skip("the recipe runs as root (chown to the mosquitto user)")
    try:
        pwd.getpwnam("mosquitto")
    except KeyError:
        pytest.skip("Debian's mosquitto user is not there (apt-get install mosquitto)")
    binary = find_mosquitto()
    if binary is None or shutil.which("mosquitto_passwd") is None:
        pytest.skip("mosquitto and mosquitto_passwd are not installed")
    top = Path(tempfile.mkdtemp(prefix="lab-broker-"))
    top.chmod(0o755)  # every directory above B must let the mosquitto user through
    base = top / "broker"
    port = free_port()
    env = os.environ | {"DAEMON_PASSWORD": "daemon-pw-1", "CONSOLE_PASSWORD": "console-pw-1"}
    script = _recipe().replace("B=/srv/lab-broker PORT=1884 GW=gw1", f"B={base} PORT={port} GW=gw1")
    proc = None
    try:
        subprocess.run(["sh", "-eu", "-c", script], cwd=PROJECT_ROOT, env=env, check=True, timeout=60)
        assert oct((base / "edge-agent.passwd").stat().st_mode)[-3:] == "640"
        proc = subprocess.Popen([binary, "-c", str(base / "mosquitto.conf")])
        assert wait_port(port, 20), (base / "data" / "mosquitto.log").read_text()
        assert _connects(port, "edge-agent-console", "console-pw-1")
        assert _connects(port, "edge-agent-gw1", "daemon-pw-1")
        assert not _connects(port, "edge-agent-console", "wrong")
    finally:
        if proc is not None:
            proc.terminate()
            proc.wait(10)
        shutil.rmtree(top, ignore_errors=True)
