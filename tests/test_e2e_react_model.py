"""End to end on the real SmolLM2 model (llama.cpp) over the real SkySpark simulator.

20 varied questions, one ReAct trial of at most 4 steps each, all with the same rendered Tiny
Trajectory Store examples (one stable prefix, evaluated once). Asserted: every
step the model generated parses, names a registered tool and validates against that tool's
arguments — 0 failures; no trial crashed. NOT asserted: whether the tiny model answers well
(the summary it prints says how many it Finished).

Also: `edge-agent ask --json` as a real subprocess (EdgeAgent, run log, examples chosen for the
question) prints exactly one JSON object on stdout.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from collections import Counter

import pytest

from edge_agent import PROJECT_ROOT
from edge_agent.agent.react import SEED_THOUGHT, THOUGHT_OPEN, run_trial
from edge_agent.agent.runtime import AgentRuntime
from edge_agent.agent.steps import StepParseError, parse_step
from edge_agent.agent.trajectory import Trial
from edge_agent.clock import Clock
from edge_agent.filestore import FileStore
from edge_agent.llm.base import MeteredLLM
from edge_agent.toolkit import ToolContext, ToolRegistry

pytestmark = pytest.mark.model

NOW = "2024-07-15T12:00:00"
MAX_STEPS = 4

QUESTIONS = [
    "What sites are there?",
    "List the assets at POKMAIN.",
    "What sensors does Chiller 6 at POKMAIN have?",
    "What is the current date and time?",
    "What was the tonnage of Chiller 6 at POKMAIN at noon on 2024-07-14?",
    "Download the % Loaded history of Chiller 9 at POKMAIN for last week.",
    "What day of the week was yesterday?",
    "Get the supply air temperature of B040 AHU 1 at RCHMAIN for June 2024.",
    "Merge the tonnage histories of Chiller 6 and Chiller 9 at POKMAIN for 2024-07-14 into one file.",
    "Is Chiller 6 at POKMAIN running right now?",
    "What is 15 percent of 240?",
    "List the sensors of the boiler at SITEXYZ.",
    "Show me the power readings of meter B012_Total at POKMAIN for the last 3 days.",
    "Read the file results.json and tell me how many rows it has.",
    "What will the weather be in Paris tomorrow?",
    "Compare the tonnage of Chiller 6 at POKMAIN at 2024-07-10T12:00 and 2024-07-11T12:00.",
    "How many days are there between 2024-03-01 and 2024-07-15?",
    "What assets does DUBMAIN have, and what sensors does its first chiller have?",
    "chiller 3 pokmain condenser water temp yesterday",
    "Which building at AUSWEST has the most air handling units?",
]


class RecordingLLM:
    """Passes calls to the real model and keeps every (role, completion text)."""

    def __init__(self, inner):
        self.inner = inner
        self.model_name = inner.model_name
        self.completions: list[tuple[str, str, str]] = []  # (role, assistant_prefix tail, text)

    def complete(self, prompt, *, role, constraint=None, max_tokens=256, stop=(), interrupt=None):
        out = self.inner.complete(
            prompt, role=role, constraint=constraint, max_tokens=max_tokens, stop=stop, interrupt=interrupt
        )
        self.completions.append((role, prompt.assistant_prefix[-40:], out.text))
        return out

    def count_tokens(self, text):
        return self.inner.count_tokens(text)


GENERIC = "Find the sensor of an asset at a site and read its history for a period."


@pytest.fixture(scope="module")
def e2e(real_llm, simulator, tmp_path_factory):
    """Tools, settings and ONE rendered set of examples shared by every question (one stable prefix,
    so the 20 questions pay for the examples once), and a SkySpark client on the simulator."""
    from edge_agent.skyspark.client import SkySparkClient
    from edge_agent.trajectory_store import TrajectoryStore
    from tests.plugins.skyspark import settings_for

    base = tmp_path_factory.mktemp("e2e")
    settings = settings_for(simulator, base / "state")
    tools = ToolRegistry.from_dir(PROJECT_ROOT / "plugins")
    examples = TrajectoryStore.open(settings, tools).render_for(GENERIC, real_llm)
    client = SkySparkClient.from_settings(settings.skyspark)
    yield settings, tools, examples, client, base
    client.close()


def run_question(question: str, n: int, e2e, llm) -> Trial:
    settings, tools, examples, client, base = e2e
    ctx = ToolContext(
        files=FileStore(base / f"files-{n}"),
        clock=Clock(NOW, settings.agent.timezone),
        settings=settings,
        skyspark_factory=lambda: client,
    )
    agent_settings = settings.agent.model_copy(update={"max_steps": MAX_STEPS, "strategy": "react"})
    rt = AgentRuntime(llm=MeteredLLM(llm), tools=tools, ctx=ctx, settings=agent_settings, examples=examples)
    return run_trial(question, rt)


def test_every_generated_step_is_valid(e2e, real_llm):
    tools = e2e[1]
    recorder = RecordingLLM(real_llm)
    failures: list[str] = []
    outcomes: Counter = Counter()
    kinds: Counter = Counter()
    actions: Counter = Counter()
    started = time.monotonic()
    for n, question in enumerate(QUESTIONS):
        before = len(recorder.completions)
        t0 = time.monotonic()
        trial = run_question(question, n, e2e, recorder)
        outcomes[trial.outcome] += 1
        assert trial.outcome != "error", f"{question!r}: {trial.steps[-1].observation}"
        # every completion of the react role is, as generated, a step that parses and validates
        for role, tail, text in recorder.completions[before:]:
            if role != "react":
                continue
            # the prompt ends in the open thought ("Thought:" or "Thought: I need to"); the model continues it
            seeded = f"{THOUGHT_OPEN} {SEED_THOUGHT}"
            opened = seeded if tail.endswith(seeded) else THOUGHT_OPEN
            assert tail.endswith(opened)
            full = opened + text
            try:
                step = parse_step(full, tools)
            except StepParseError as exc:
                failures.append(f"{question!r}: {exc}: {full!r}")
                continue
            actions[step.action] += 1
        for s in trial.steps:
            kinds[s.kind] += 1
            if s.kind in ("invalid", "recovery"):
                failures.append(f"{question!r}: step {s.index} {s.kind}: {s.observation}")
        if trial.parse_failures:
            failures.append(f"{question!r}: {trial.parse_failures} parse failures")
        print(
            f"\n[{n + 1:2}/{len(QUESTIONS)}] {time.monotonic() - t0:5.1f}s {trial.outcome:9} "
            f"failures={len(failures)} "
            f"{' > '.join(s.action for s in trial.steps)} | {question} => {trial.answer!r}",
            flush=True,
        )
    summary = {
        "questions": len(QUESTIONS),
        "outcomes": dict(outcomes),
        "step_kinds": dict(kinds),
        "actions": dict(actions),
        "react_calls": sum(1 for r, _, _ in recorder.completions if r == "react"),
        "self_ask_calls": sum(1 for r, _, _ in recorder.completions if r == "self-ask"),
        "wall_s": round(time.monotonic() - started, 1),
    }
    print("\nE2E react summary:", json.dumps(summary), flush=True)
    assert not failures, "\n".join(failures)
    assert sum(outcomes.values()) == len(QUESTIONS)
    assert summary["react_calls"] >= len(QUESTIONS)


def test_cli_json_on_the_real_model(simulator, tmp_path):
    """`edge-agent ask --json` in a real process: exactly one JSON object on stdout, exit 0 or 1."""
    import yaml

    config = tmp_path / "cfg.yaml"
    config.write_text(
        yaml.safe_dump(
            {
                "paths": {"state_dir": str(tmp_path / "state")},
                "skyspark": {
                    "url": simulator.url,
                    "project": simulator.project,
                    "username": simulator.username,
                    "password": simulator.password,
                },
            }
        )
    )
    env = {k: v for k, v in os.environ.items() if not k.startswith("EDGE_AGENT_")}
    proc = subprocess.run(
        [
            sys.executable,
            "-m",
            "edge_agent",
            "ask",
            "What sites are there?",
            "--json",
            "--now",
            NOW,
            "--strategy",
            "react",
            "--max-steps",
            "2",
            "--config",
            str(config),
        ],
        capture_output=True,
        text=True,
        timeout=300,
        env=env,
        cwd=PROJECT_ROOT,
    )
    assert proc.returncode in (0, 1), proc.stderr[-2000:]
    data = json.loads(proc.stdout)
    assert data["status"] in ("answered", "gave_up")
    assert 1 <= len(data["steps"]) <= 2
    assert all(s["kind"] not in ("invalid", "recovery") for s in data["steps"])
    assert data["metrics"]["llm_calls"] >= 1 and data["metrics"]["tokens_sent"] > 0
