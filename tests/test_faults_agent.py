"""Faults outside the gateway end a run at once, with their own reason (issue 26), against real parts: the
SkySpark simulator over HTTP (stopped, refusing the login, answering late, trickling), a real full filesystem
where this machine lets a test mount one, and SQLite's own "database or disk is full". The model is the
scripted LLM (this is the run's control flow); `ask` against a stopped SkySpark with the real model is in
tests/test_e2e_react_model.py-style `test_ask_against_a_stopped_skyspark...` below (marked model)."""

from __future__ import annotations

import errno
import json
import os
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest
import yaml

from edge_agent import PROJECT_ROOT
from edge_agent.app import EdgeAgent
from edge_agent.llm.scripted import ScriptedLLM
from edge_agent.toolkit import ToolRegistry
from tests.plugins.skyspark import settings_for


def step(thought: str, action: str, args: dict | None = None) -> str:
    return f"Thought: {thought}\nAction: {action}\nAction Input: {json.dumps(args or {})}"


def closed_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def agent_for(settings, replies) -> EdgeAgent:
    tools = ToolRegistry.from_dir(PROJECT_ROOT / "plugins")
    return EdgeAgent(settings, llm=ScriptedLLM(replies), tools=tools)


def react_settings(sim, tmp_path, **skyspark):
    s = settings_for(sim, tmp_path / "state", **{"retries": 1, "timeout_s": 2, **skyspark})
    return s.model_copy(update={"agent": s.agent.model_copy(update={"strategy": "reactxen", "max_trials": 3})})


def test_a_stopped_skyspark_ends_the_run_before_any_model_call(tmp_path, simulator):
    """At the catalog load: status failed, reason skyspark_unavailable, the server and the error named, no
    model call (not even Distill), no trial."""
    port = closed_port()
    settings = react_settings(simulator, tmp_path, url=f"http://127.0.0.1:{port}")
    agent = agent_for(settings, [])  # any model call would raise ScriptExhausted
    result = agent.ask("List all the chillers at POKMAIN.")
    assert result.status == "failed" and result.reason == "skyspark_unavailable", result
    assert f"127.0.0.1:{port}" in result.error and "Connection refused" in result.error
    assert result.metrics.llm_calls == 0 and result.trials == [] and result.answer is None
    [row] = agent.runlog.reader.runs(1)
    assert row.status == "failed" and row.reason == "skyspark_unavailable"


def test_a_skyspark_that_stops_during_a_run_ends_it_at_the_next_call_without_a_loop(tmp_path, start_simulator):
    """The catalog was read; the server stops while the model chooses its first call: that call fails, the
    trial ends `failed` (no review, no reflection, no second trial, never "loop"), and no further model call is
    made."""
    sim = start_simulator()
    settings = react_settings(sim, tmp_path)

    def choose_then_stop(prompt, role, constraint):
        sim.stop()
        return step("I need the assets of POKMAIN.", "assets", {"site_name": "POKMAIN", "asset_type": "chiller"})

    agent = agent_for(settings, [choose_then_stop])
    result = agent.ask("List all the assets at POKMAIN.", distill=False)
    assert result.status == "failed" and result.reason == "skyspark_unavailable"
    assert result.metrics.llm_calls == 1 and len(result.trials) == 1
    trial = result.trials[0]
    assert trial.outcome == "failed" and trial.review is None and trial.reflection is None
    assert trial.failure.reason == "skyspark_unavailable" and sim.url.split("//")[1] in trial.failure.message
    assert trial.steps[-1].kind == "failure" and "loop" not in trial.steps[-1].observation.lower()


def test_a_refused_login_is_skyspark_auth(tmp_path, simulator):
    settings = react_settings(simulator, tmp_path, password="wrong")
    result = agent_for(settings, []).ask("List all the chillers at POKMAIN.")
    assert result.status == "failed" and result.reason == "skyspark_auth"
    assert "refused the login" in result.error and result.metrics.llm_calls == 0


def test_a_skyspark_that_answers_after_the_timeout_is_skyspark_timeout(tmp_path, start_simulator):
    sim = start_simulator(delay_s=1.5)
    settings = react_settings(sim, tmp_path, timeout_s=0.5, retries=1)
    result = agent_for(settings, []).ask("List all the chillers at POKMAIN.")
    assert result.status == "failed" and result.reason == "skyspark_timeout", result.error
    assert "no answer within 0.5 s" in result.error and result.metrics.llm_calls == 0


def test_a_trickled_answer_is_bounded_by_the_timeout_and_a_cancel_stops_it(tmp_path, start_simulator, simulator):
    """A server that sends its answers a few bytes at a time: the socket's own timeout never fires (each read
    gets a little), the client's whole-answer timeout does; and a cancel interrupts a trickled hisRead at once
    (the run ends cancelled, not after the transfer)."""
    from edge_agent.skyspark.client import SkySparkClient
    from edge_agent.skyspark.errors import SkySparkTimeout

    slow = start_simulator(trickle_bps=200)
    client = SkySparkClient(slow.url, slow.project, slow.username, slow.password, timeout_s=1.0, retries=0)
    started = time.monotonic()
    with pytest.raises(SkySparkTimeout, match="did not arrive whole within 1 s"):
        client.sites()
    assert time.monotonic() - started < 5  # bounded: the whole answer, not each read

    agent = agent_for(
        react_settings(slow, tmp_path, timeout_s=60),
        [
            step(
                "I need the history.",
                "histories",
                {
                    "site_name": "POKMAIN",
                    "asset_names": ["Chiller 6"],
                    "sensor_name": "Power",
                    "start": "2024-07-01",
                    "final": "2024-07-08",
                },
            )
        ],
    )
    fast = settings_for(simulator, tmp_path / "fast")  # the catalog is read beforehand (cached, as in a daemon)
    agent.catalogs.get(lambda: SkySparkClient.from_settings(fast.skyspark))
    cancel = threading.Event()
    threading.Timer(1.5, cancel.set).start()
    started = time.monotonic()
    result = agent.ask(
        "Get the Power of Chiller 6 at POKMAIN from 2024-07-01 to 2024-07-08.",
        cancel=cancel,
        distill=False,
        strategy="react",
    )
    assert result.status == "cancelled" and time.monotonic() - started < 6  # the week trickles for ~3 min


def test_a_full_file_store_is_disk_full(tmp_path, simulator, monkeypatch):
    """The tool cannot write its result file (ENOSPC): the run ends failed / disk_full naming the path."""
    from edge_agent.filestore import FileStore

    def full(self, data, stem):
        raise OSError(errno.ENOSPC, "No space left on device", str(self.root / f"{stem}.json"))

    monkeypatch.setattr(FileStore, "write_json", full)
    settings = react_settings(simulator, tmp_path)
    result = agent_for(settings, [step("I need the sites.", "sites")]).ask(
        "What IoT sites are available?", distill=False, strategy="react"
    )
    assert result.status == "failed" and result.reason == "disk_full"
    assert "No space left on device" in result.error and "sites" in result.error


def test_a_full_run_log_is_disk_full_and_the_next_run_is_logged(tmp_path, simulator, monkeypatch):
    """The run log cannot be written (SQLite's "database or disk is full", injected at its write): the run is
    not delivered as answered; once there is room, the next run is answered and logged."""
    import sqlite3

    from edge_agent.runlog import RunLog

    settings = react_settings(simulator, tmp_path)
    agent = agent_for(settings, [step("I need the sites.", "sites"), step("I need the sites.", "sites")])
    record = RunLog.record

    def full(self, result, calls):
        raise sqlite3.OperationalError("database or disk is full")

    monkeypatch.setattr(RunLog, "record", full)
    result = agent.ask("What IoT sites are available?", distill=False, strategy="react")
    assert result.status == "failed" and result.reason == "disk_full" and "the run log" in result.error
    monkeypatch.setattr(RunLog, "record", record)
    again = agent.ask("What IoT sites are available?", distill=False, strategy="react")
    assert again.status == "answered" and agent.runlog.reader.runs(1)[0].run_id == again.run_id


@pytest.fixture
def small_fs(tmp_path):
    """A real 2 MB filesystem (tmpfs), where this machine lets a test mount one."""
    mount = tmp_path / "small"
    mount.mkdir()
    done = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=2m", "tmpfs", str(mount)], capture_output=True)
    if done.returncode != 0:
        pytest.skip(f"cannot mount a small filesystem here: {done.stderr.decode(errors='replace').strip()}")
    yield mount
    subprocess.run(["umount", "-l", str(mount)], capture_output=True)


def test_a_real_full_disk_ends_the_run_and_freeing_space_brings_answers_back(tmp_path, simulator, small_fs):
    settings = settings_for(simulator, small_fs / "state", retries=1)
    agent = agent_for(settings, [step("I need the sites.", "sites"), step("I need the sites.", "sites")])
    filler = small_fs / "filler"
    with open(filler, "wb", buffering=0) as fh:  # fill the disk to the last block (unbuffered: nothing left to
        # flush at close, where a buffered file would raise ENOSPC again)
        try:
            while True:
                fh.write(b"\0" * 65536)
                fh.flush()
        except OSError as exc:
            assert exc.errno == errno.ENOSPC
    result = agent.ask("What IoT sites are available?", distill=False, strategy="react")
    assert result.status == "failed" and result.reason == "disk_full", (result.status, result.error)
    filler.unlink()
    again = agent.ask("What IoT sites are available?", distill=False, strategy="react")
    assert again.status == "answered", again.error


@pytest.mark.model
def test_ask_against_a_stopped_skyspark_makes_no_model_call_and_says_what_failed(tmp_path):
    """`edge-agent ask` with the real model: exit code 3, the server and the error in the message, `--json`
    with status failed, reason and 0 LLM calls."""
    port = closed_port()
    config = tmp_path / "edge-agent.yaml"
    config.write_text(
        yaml.safe_dump(
            {
                "paths": {"state_dir": str(tmp_path / "state")},
                "skyspark": {"url": f"http://127.0.0.1:{port}", "password": "x"},
            }
        )
    )
    env = {k: v for k, v in os.environ.items() if not k.startswith("EDGE_AGENT_")}
    cmd = [sys.executable, "-m", "edge_agent", "ask", "List all the chillers at POKMAIN.", "--config", str(config)]
    text = subprocess.run(cmd, capture_output=True, text=True, env=env, cwd=PROJECT_ROOT, timeout=120)
    assert text.returncode == 3, text.stdout + text.stderr
    assert f"No answer (failed: skyspark_unavailable): SkySpark at http://127.0.0.1:{port}" in text.stdout
    assert "Connection refused" in text.stdout and "llm_calls=0" in text.stdout
    js = subprocess.run(cmd + ["--json"], capture_output=True, text=True, env=env, cwd=PROJECT_ROOT, timeout=120)
    out = json.loads(js.stdout)
    assert js.returncode == 3 and out["status"] == "failed" and out["reason"] == "skyspark_unavailable"
    assert out["metrics"]["llm_calls"] == 0 and f"127.0.0.1:{port}" in out["error"]
    assert Path(tmp_path / "state" / "edge-agent.db").exists()
