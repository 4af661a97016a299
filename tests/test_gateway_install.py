"""docs/gateway-install.md's broker steps, run as written (paths moved under a temporary /etc) against Debian 12's
own /etc/mosquitto/mosquitto.conf: the copied config loads beside it (no "Duplicate persistence_location"), the
gateway id is replaced in the config AND in the ACL extracted from that copy, and Mosquitto starts with them.
Also `serve --help` and the config agree on the default client id (issue 30, item 6)."""

from __future__ import annotations

import getpass
import re
import shutil
import subprocess
import time

import pytest
from click.testing import CliRunner

from edge_agent import PROJECT_ROOT
from edge_agent.mqtt.broker import find_mosquitto, free_port, wait_port

DOC = PROJECT_ROOT / "docs" / "gateway-install.md"

#: Debian 12's /etc/mosquitto/mosquitto.conf (package mosquitto 2.0.11-1.2+deb12u1), as installed
DEBIAN_MAIN_CONF = """\
# Place your local configuration in /etc/mosquitto/conf.d/
#
# A full description of the configuration file is at
# /usr/share/doc/mosquitto/examples/mosquitto.conf.example

pid_file /run/mosquitto/mosquitto.pid

persistence true
persistence_location /var/lib/mosquitto/

log_dest file /var/log/mosquitto/mosquitto.log

include_dir /etc/mosquitto/conf.d
"""


def _broker_steps() -> list[str]:
    """The doc's broker block: the lines that write the config and the ACL (continuations joined)."""
    text = DOC.read_text()
    block = text[text.index("## 1. Broker") :]
    block = block[block.index("```sh") + 5 : block.index("```", block.index("```sh") + 5)]
    lines = block.replace("\\\n", " ").splitlines()
    return [line for line in lines if line.startswith(("GW=", "sed "))]


def _install(root, gw: str) -> tuple:
    etc = root / "etc" / "mosquitto"
    (etc / "conf.d").mkdir(parents=True)
    script = "\n".join(_broker_steps()).replace("/etc/mosquitto", str(etc)).replace("GW=gw1", f"GW={gw}")
    subprocess.run(["bash", "-euo", "pipefail", "-c", script], cwd=PROJECT_ROOT, check=True)
    return etc, etc / "conf.d" / "edge-agent.conf", etc / "edge-agent.acl"


def test_the_install_steps_put_the_gateway_id_in_the_config_and_in_its_acl(tmp_path):
    steps = _broker_steps()
    assert len(steps) == 3, steps  # GW=..., the config, the ACL
    etc, conf, acl = _install(tmp_path, "site7")
    assert "gw1" not in conf.read_text() and "gw1" not in acl.read_text()
    rules = acl.read_text().splitlines()
    assert "user edge-agent-site7" in rules and "topic read edge-agent/site7/request/#" in rules
    assert "pattern write edge-agent/site7/request/%u" in rules and not any("---8<---" in r for r in rules)


@pytest.mark.broker
def test_the_copied_config_loads_beside_debians_own_and_mosquitto_starts(tmp_path):
    if find_mosquitto() is None or shutil.which("mosquitto_passwd") is None:
        pytest.skip("mosquitto is not installed")
    etc, conf, acl = _install(tmp_path, "gw1")
    var = tmp_path / "var"
    (var / "lib").mkdir(parents=True)
    (var / "log").mkdir()
    main = etc / "mosquitto.conf"
    main.write_text(
        DEBIAN_MAIN_CONF.replace("/run/mosquitto/", f"{var}/")
        .replace("/var/lib/mosquitto/", f"{var}/lib/")
        .replace("/var/log/mosquitto/", f"{var}/log/")
        .replace("/etc/mosquitto", str(etc))
    )
    port = free_port()
    text = conf.read_text().replace("listener 1883 127.0.0.1", f"listener {port} 127.0.0.1")
    conf.write_text(text.replace("/etc/mosquitto", str(etc)))
    (etc / "conf.d" / "00-test-user.conf").write_text(f"user {getpass.getuser()}\n")  # not root's default drop
    subprocess.run(["mosquitto_passwd", "-c", "-b", str(etc / "edge-agent.passwd"), "edge-agent-gw1", "pw"], check=True)
    proc = subprocess.Popen([find_mosquitto(), "-c", str(main)], stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    try:
        up = wait_port(port, 10)
        out = b"" if up else proc.communicate(timeout=5)[0]
        assert up, out.decode(errors="replace")
        time.sleep(0.3)
        assert proc.poll() is None
        log = (var / "log" / "mosquitto.log").read_text()
        assert "Duplicate" not in log and "Error" not in log, log
    finally:
        proc.kill()
        proc.wait()


def test_serve_help_and_the_config_agree_on_the_default_client_id():
    from edge_agent.cli import main

    out = CliRunner().invoke(main, ["serve", "--help"], terminal_width=200)
    assert out.exit_code == 0
    help_text = " ".join(out.output.split())
    assert "default mqtt.client_id, else the user name (mqtt.username), else edge-agent-<gateway_id>" in help_text
    yaml_line = next(
        line
        for line in (PROJECT_ROOT / "config" / "edge-agent.yaml").read_text().splitlines()
        if re.match(r"\s+client_id:", line)
    )
    assert "null = the user name, else edge-agent-<gateway_id>" in yaml_line
