"""The console serves plain HTTP on loopback only; elsewhere it needs a certificate (or allow_plain_http)."""

from __future__ import annotations

import shutil
import subprocess

import pytest

from edge_agent.commands.console import tls_context
from edge_agent.config import ConfigError, load_settings


def _settings(tmp_path, **console):
    return load_settings(overrides={"paths": {"state_dir": str(tmp_path)}, "console": console}, environ={})


def test_plain_http_only_on_loopback(tmp_path):
    assert tls_context(_settings(tmp_path, host="127.0.0.1")) is None
    assert tls_context(_settings(tmp_path, host="::1")) is None
    with pytest.raises(ConfigError, match="tls_cert_file"):
        tls_context(_settings(tmp_path, host="0.0.0.0"))
    with pytest.raises(ConfigError):
        tls_context(_settings(tmp_path, host="192.168.1.20"))
    assert tls_context(_settings(tmp_path, host="0.0.0.0", allow_plain_http=True)) is None


@pytest.mark.skipif(shutil.which("openssl") is None, reason="openssl is not installed")
def test_a_configured_certificate_gives_https(tmp_path):
    cert, key = tmp_path / "c.pem", tmp_path / "k.pem"
    subprocess.run(
        [
            "openssl",
            "req",
            "-x509",
            "-newkey",
            "rsa:2048",
            "-nodes",
            "-days",
            "1",
            "-subj",
            "/CN=gw1",
            "-keyout",
            str(key),
            "-out",
            str(cert),
        ],
        check=True,
        capture_output=True,
    )
    ctx = tls_context(_settings(tmp_path, host="0.0.0.0", tls_cert_file=str(cert), tls_key_file=str(key)))
    assert ctx is not None and ctx.minimum_version.name == "TLSv1_2"
