"""`edge-agent request` and `edge-agent demo` (script runner) as a user runs them."""

import hashlib
import json

import pytest
from click.testing import CliRunner

from edge_agent.commands.daemon import request
from edge_agent.commands.demo import demo
from edge_agent.mqtt.broker import free_port

pytestmark = pytest.mark.broker


def test_request_prints_progress_and_answer_and_writes_checked_files(inproc_daemon, mosquitto, tmp_path):
    svc = inproc_daemon()
    broker = f"{mosquitto.host}:{mosquitto.port}"
    res = CliRunner().invoke(
        request,
        [
            "count chillers [steps=2 file=200000]",
            "--broker",
            broker,
            "--out",
            str(tmp_path / "out"),
            "--now",
            "2024-06-14T10:00:00",
            "--strategy",
            "react",
            "--no-ask",
        ],
    )
    assert res.exit_code == 0, res.output
    assert "script answer to: count chillers" in res.stdout
    assert "[trial 1 step 2]" in res.stderr and "accepted" in res.stderr
    (path,) = list((tmp_path / "out").iterdir())
    assert path.stat().st_size == 200000
    job = svc.jobs.jobs()[-1]
    assert job.options["now"] == "2024-06-14T10:00:00" and job.options["strategy"] == "react"
    stored = (svc.settings.files_dir / job.job_id / path.name).read_bytes()
    assert hashlib.sha256(path.read_bytes()).hexdigest() == hashlib.sha256(stored).hexdigest()

    res = CliRunner().invoke(request, ["fails [fail=1]", "--broker", broker, "--json", "--no-ask"])
    assert res.exit_code == 1
    body = json.loads(res.stdout)
    assert body["final"]["kind"] == "error" and body["final"]["code"] == "agent_error"


def test_request_without_a_broker_fails_cleanly():
    res = CliRunner().invoke(request, ["q", "--broker", f"127.0.0.1:{free_port()}", "--timeout", "2"])
    assert res.exit_code == 1 and "could not connect" in res.stderr
    res = CliRunner().invoke(request, ["q", "--broker", "nonsense"])
    assert res.exit_code == 2


def test_demo_runs_the_whole_chain_with_the_embedded_broker(tmp_path):
    res = CliRunner().invoke(
        demo,
        [
            "--runner",
            "script",
            "--question",
            "How many chillers? [steps=2 file=5000]",
            "--out",
            str(tmp_path / "demo-out"),
            "--broker",
            "embedded",
        ],
    )
    assert res.exit_code == 0, res.output
    assert "EmbeddedBroker" in res.stderr and "SkySpark simulator on http://127.0.0.1:" in res.stderr
    assert "script answer to: How many chillers?" in res.stdout
    assert len(list((tmp_path / "demo-out").iterdir())) == 1
