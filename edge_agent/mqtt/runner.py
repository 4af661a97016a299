"""What the daemon's worker calls to answer one job: a `Runner` (question + options + callbacks → RunResult).

* `AgentRunner` (agentrunner.py) — production: the real `EdgeAgent` (local model, tools, SkySpark).
* `ScriptRunner` (here) — deterministic, no model: for the daemon's control-flow tests and the latency
  benchmark. Directives in the question steer it, e.g. `"count chillers [steps=5 delay=0.2 file=300000
  ask=1]"`: N progress steps, a sleep per step (cancel interrupts it), a file of that many bytes,
  one clarifying question to the requester, `history=N` for a history file of N samples (plotted), `fail=1`
  for an agent error, `skyspark=1` to read the configured SkySpark's sites in the first step (a real call:
  stop the server and the run fails). `edge-agent serve --runner script` selects it; it is never used to
  answer real questions.
"""

from __future__ import annotations

import hashlib
import json
import re
import threading
import time
from collections.abc import Callable
from datetime import datetime, timedelta, timezone
from typing import Protocol

from edge_agent.agent.trajectory import AgentEvent, RunMetrics, RunResult, StepRecord, Trial
from edge_agent.config import Settings
from edge_agent.failures import ExternalFailure, disk_full
from edge_agent.filestore import FileInfo, FileStore
from edge_agent.mqtt.protocol import RequestOptions
from edge_agent.observers import NO_OBSERVER, Observer
from edge_agent.skyspark.client import SkySparkClient

OnEvent = Callable[[AgentEvent], None]
AskRequester = Callable[[str], "str | None"]


class Runner(Protocol):
    name: str

    def run(
        self,
        question: str,
        options: RequestOptions,
        *,
        run_id: str,
        on_event: OnEvent,
        cancel: threading.Event,
        ask_requester: AskRequester | None,
    ) -> RunResult: ...

    def ping(self) -> None:
        """Raise the `ExternalFailure` a run would meet now (the daemon asks while it waits out an outage)."""


def ping_skyspark(settings: Settings, observer: Observer = NO_OBSERVER) -> None:
    """One `about` call to the configured SkySpark, no retries (`SkySparkClient.ping`), told to `observer`."""
    client = SkySparkClient.from_settings(settings.skyspark, observer=observer)
    try:
        client.ping()
    finally:
        client.close()


DIRECTIVES = re.compile(r"\[([a-z_]+=[^\]\s]+(?:\s+[a-z_]+=[^\]\s]+)*)\]")


def directives(question: str) -> tuple[str, dict[str, str]]:
    """`"q [steps=3 delay=0.1]"` → ("q", {"steps": "3", "delay": "0.1"})."""
    found: dict[str, str] = {}
    for group in DIRECTIVES.findall(question):
        for part in group.split():
            key, _, value = part.partition("=")
            found[key] = value
    return DIRECTIVES.sub("", question).strip(), found


class ScriptRunner:
    """A deterministic stand-in for the agent (see module docstring); no model. With `skyspark=1` its first step
    reads the sites of the configured SkySpark for real, and a failure there ends the run `failed` as the
    agent's would (`edge_agent.failures`), so the daemon's outage handling is tested against a real server."""

    name = "script"

    def __init__(self, settings: Settings):
        self.settings = settings
        self.log_path = settings.state_dir / "script-runs.jsonl"

    def ping(self) -> None:
        ping_skyspark(self.settings)

    def _log(self, **entry: object) -> None:
        self.log_path.parent.mkdir(parents=True, exist_ok=True)
        with open(self.log_path, "a", encoding="utf-8") as fh:
            fh.write(json.dumps(entry) + "\n")

    def run(
        self,
        question: str,
        options: RequestOptions,
        *,
        run_id: str,
        on_event: OnEvent,
        cancel: threading.Event,
        ask_requester: AskRequester | None,
    ) -> RunResult:
        started = time.monotonic()
        text, d = directives(question)
        steps, delay = int(d.get("steps", 2)), float(d.get("delay", 0.05))
        self._log(event="start", run_id=run_id, question=question, t=time.time())
        result = RunResult(
            run_id=run_id,
            question=question,
            strategy=options.strategy or "script",
            model="script",
            now=options.now or "",
            status="answered",
        )
        trial = Trial(number=1)
        on_event(AgentEvent(kind="trial_start", trial=1, text="trial 1"))
        reply_text = None
        for i in range(1, steps + 1):
            if cancel.wait(delay) or cancel.is_set():
                result.status, trial.outcome = "cancelled", "cancelled"
                break
            observation = f"observation {i}"
            if i == 1 and d.get("skyspark") == "1":
                try:
                    observation = self._read_sites()
                except ExternalFailure as exc:
                    result.status, result.reason, result.error = "failed", exc.reason, str(exc)
                    trial.outcome = "failed"
                    break
            step = StepRecord(
                index=i,
                thought=f"step {i} of {steps} for: {text[:60]}",
                action="sites",
                action_input={},
                observation=observation,
            )
            trial.steps.append(step)
            on_event(AgentEvent(kind="step", trial=1, step=step))
            if i == 1 and d.get("ask") == "1" and ask_requester is not None:
                reply_text = ask_requester(f"Which site do you mean for: {text[:80]}?")
                obs = (
                    f"the requester said: {reply_text}"
                    if reply_text is not None
                    else "the requester did not reply in time; continue with your best assumption"
                )
                ask_step = StepRecord(
                    index=i,
                    thought="I need to ask the requester",
                    action="agentask",
                    kind="ask_requester",
                    observation=obs,
                )
                trial.steps.append(ask_step)
                on_event(AgentEvent(kind="step", trial=1, step=ask_step))
        if result.status not in ("cancelled", "failed"):
            if d.get("fail") == "1":
                result.status, result.error = "error", "RuntimeError: scripted failure"
            else:
                result.answer = f"script answer to: {text}" + (
                    f" (requester said: {reply_text})" if reply_text is not None else ""
                )
                trial.answer = result.answer
            try:
                self._write_files(result, question, d, run_id)
            except OSError as exc:  # a full disk is the gateway's disk_full, as the agent reports it
                full = disk_full(exc)
                if full is None:
                    raise
                result.status, result.reason, result.error, result.answer = "failed", "disk_full", str(full), None
        result.trials = [trial]
        result.metrics = RunMetrics(
            trials=1,
            trajectory_length=len(trial.steps),
            completed_round1=result.status == "answered",
            completed_final=result.status == "answered",
            wall_s=round(time.monotonic() - started, 3),
        )
        self._log(event="end", run_id=run_id, status=result.status, t=time.time())
        return result

    def _write_files(self, result: RunResult, question: str, d: dict[str, str], run_id: str) -> None:
        """`file=N` and `history=N`: the run's result files, in its file store."""
        size = int(d.get("file", 0))
        if size > 0 and result.status == "answered":
            store = FileStore(self.settings.files_dir / run_id)
            name = store.new_name("script", ".bin")
            seed = hashlib.sha256(question.encode()).digest()
            blob = (seed * (size // len(seed) + 1))[:size]
            store.write_bytes(name, blob)
            store.created.append(name)
            result.files = store.manifest()
        if int(d.get("history", 0)) > 0 and result.status == "answered":
            result.files = result.files + [self._history_file(run_id, int(d["history"]))]
            result.answer = (result.answer or "") + " (max 37.5)"  # a figure the plot marks

    def _history_file(self, run_id: str, n: int) -> FileInfo:
        """`history=N`: a file shaped like the histories tool's (N quarter-hour samples of one sensor, peak 37.5)."""
        store = FileStore(self.settings.files_dir / run_id)
        start = datetime(2024, 6, 1, tzinfo=timezone(timedelta(hours=-4)))
        rows = [
            {
                "site_name": "POKMAIN",
                "asset_name": "Chiller 3",
                "sensor_name": "Supply Temp",
                "timestamp": (start + timedelta(minutes=15 * i)).isoformat(),
                "value": 37.5 if i == n // 2 else round(30 + 5 * ((i % 7) / 7), 2),
                "unit": "°F",
            }
            for i in range(n)
        ]
        return store.info(store.write_json(rows, "history_Chiller_3_Supply_Temp"))

    def _read_sites(self) -> str:
        client = SkySparkClient.from_settings(self.settings.skyspark)
        try:
            return f"found {len(client.sites())} sites"
        finally:
            client.close()
