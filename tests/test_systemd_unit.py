"""The unit file passes `systemd-analyze verify` (silent) and `security --offline=yes` (exposure ≤ 2.0)."""

import shutil
import subprocess

import pytest

from edge_agent import PROJECT_ROOT

UNIT = PROJECT_ROOT / "systemd" / "edge-agent.service"
SCRIPT = PROJECT_ROOT / "scripts" / "check-systemd.sh"


def _unit() -> dict[str, list[str]]:
    values: dict[str, list[str]] = {}
    section = None
    for line in UNIT.read_text().splitlines():
        line = line.strip()
        if line.startswith("["):
            section = line.strip("[]")
        elif "=" in line and not line.startswith("#"):
            key, _, value = line.partition("=")
            values.setdefault(f"{section}.{key}", []).append(value)
    return values


def test_unit_declares_the_appliance_contract():
    u = _unit()
    assert u["Service.Type"] == ["notify"] and u["Service.Restart"] == ["on-failure"]
    assert u["Service.DynamicUser"] == ["yes"] and u["Service.StateDirectory"] == ["edge-agent"]
    assert u["Service.WatchdogSec"] and u["Service.ProtectSystem"] == ["strict"]
    creds = [c.split(":")[0] for c in u["Service.LoadCredential"]]
    assert creds == ["mqtt-password", "skyspark-password"]  # the names resolve_secret looks up
    assert "serve" in u["Service.ExecStart"][0]


@pytest.mark.skipif(shutil.which("systemd-analyze") is None, reason="systemd-analyze is not installed")
def test_check_systemd_script_passes():
    proc = subprocess.run(["sh", str(SCRIPT)], capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "verify: clean" in proc.stdout
    score = float(proc.stdout.split("security: exposure ")[1].split()[0])
    assert score <= 2.0


@pytest.mark.skipif(shutil.which("systemd-analyze") is None, reason="systemd-analyze is not installed")
def test_check_systemd_script_fails_a_weak_or_broken_unit(tmp_path):
    weak = tmp_path / "edge-agent.service"
    weak.write_text(
        "\n".join(
            line
            for line in UNIT.read_text().splitlines()
            if not line.startswith(("Protect", "Private", "Restrict", "SystemCall"))
        )
    )
    proc = subprocess.run(["sh", str(SCRIPT), str(weak)], capture_output=True, text=True, timeout=120)
    assert proc.returncode == 1 and "above 2.0" in proc.stderr
    weak.write_text(UNIT.read_text().replace("ProtectSystem=strict", "ProtectSystem=bogus"))
    proc = subprocess.run(["sh", str(SCRIPT), str(weak)], capture_output=True, text=True, timeout=120)
    assert proc.returncode == 1 and "verify complained" in proc.stderr
