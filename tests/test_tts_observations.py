"""Every hand-crafted example shows the Observations the tools really give today.

Each tool step of each `tts/` trajectory is replayed against the simulator (currentdatetime with the
clock set to the time its Observation names); the example's Observation must equal the real one as
the prompt would show it, with result-file names (random suffixes) mapped step by step. An example
that drifts from its tool would teach the model a format it never sees."""

from __future__ import annotations

import json
import re

import pytest

from edge_agent import PROJECT_ROOT
from edge_agent.agent.prompting import summarise_observation
from edge_agent.clock import Clock
from edge_agent.filestore import FileStore
from edge_agent.toolkit import ToolContext, ToolRegistry
from edge_agent.trajectory_store import load_handcrafted

FILE_NAME = re.compile(r"[\w%.-]+-[0-9a-f]{8}\.json")
CLOCK = re.compile(r"current datetime is (\S+)")
NOT_REPLAYED = {"Finish", "Self-Ask", "agentask"}  # answered by the model or a person, not by a tool

TOOLS = ToolRegistry.from_dir(PROJECT_ROOT / "plugins")
EXAMPLES = load_handcrafted(PROJECT_ROOT / "tts", TOOLS)


@pytest.mark.parametrize("traj", EXAMPLES, ids=[t.id for t in EXAMPLES])
def test_example_observations_match_the_tools(traj, skyspark_settings, skyspark_client, tmp_path):
    files = FileStore(tmp_path / "files")
    names: dict[str, str] = {}  # example file name -> the name the replay produced
    limit = skyspark_settings.agent.observation_max_chars
    for n, step in enumerate(traj.steps, start=1):
        if step.action in NOT_REPLAYED:
            continue
        clock = CLOCK.match(step.observation or "")
        ctx = ToolContext(
            files=files,
            clock=Clock(clock.group(1) if clock else "2024-07-15T12:00:00", "America/New_York"),
            settings=skyspark_settings,
            skyspark_factory=lambda: skyspark_client,
        )
        args = json.loads(_swap(json.dumps(step.action_input), names))
        result = TOOLS.get(step.action).run(args, ctx)
        real = summarise_observation(result.observation, limit, files=files, tool=step.action)
        shown_as = {v: k for k, v in names.items()}
        for mine, theirs in zip(FILE_NAME.findall(step.observation), FILE_NAME.findall(real)):
            if theirs not in shown_as:  # a new file; one produced earlier keeps the name the example gave it
                names[mine] = theirs
                shown_as[theirs] = mine
        shown = _swap(real, shown_as)
        assert shown == step.observation, (
            f"{traj.source} step {n} ({step.action}): the example's Observation is not what the tool says now.\n"
            f"example: {step.observation}\nreal:    {shown}"
        )


def _swap(text: str, mapping: dict[str, str]) -> str:
    return FILE_NAME.sub(lambda m: mapping.get(m.group(0), m.group(0)), text)
