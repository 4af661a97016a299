"""Fixtures for the skyspark tests (real components started for the test session).

- `simulator` (session): the real SkySpark simulator (HTTP + SCRAM) on a free 127.0.0.1 port in a
  background thread; has `url`, `project`, `username`, `password` and `server` (the SimulatorServer).
- `skyspark_settings`: a `Settings` whose skyspark section points at it, state_dir under tmp_path.
- `skyspark_client`: a `SkySparkClient` for those settings.
- `iot_ctx`: a `ToolContext` (file store under tmp_path, clock in the site timezone) using that client.
- `start_simulator(**kwargs)`: start an extra simulator (e.g. a slow one); stopped after the test.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass, field

import pytest

from edge_agent.config import load_settings

SIM_PROJECT = "demo"
SIM_USER = "operator"
SIM_PASSWORD = "pl4nt-Ops!"


@dataclass
class RunningSimulator:
    url: str
    project: str
    username: str
    password: str
    server: object = field(repr=False)

    def stop(self) -> None:
        self.server.shutdown()
        self.server.server_close()


def _start(**kwargs) -> RunningSimulator:
    from edge_agent.skyspark.simulator import SimulatorServer

    project = kwargs.pop("project", SIM_PROJECT)
    users = kwargs.pop("users", {SIM_USER: SIM_PASSWORD})
    server = SimulatorServer(("127.0.0.1", 0), project=project, users=users, **kwargs)
    threading.Thread(target=server.serve_forever, name="skyspark-simulator", daemon=True).start()
    username, password = next(iter(users.items())) if users else ("", "")
    return RunningSimulator(server.url, project, username, password, server)


@pytest.fixture(scope="session")
def simulator():
    """The real simulator over the synthetic plant, for the whole test session."""
    sim = _start()
    yield sim
    sim.stop()


@pytest.fixture
def start_simulator():
    """Factory for extra simulators (own knobs such as delay_s); all stopped after the test."""
    started: list[RunningSimulator] = []

    def start(**kwargs) -> RunningSimulator:
        sim = _start(**kwargs)
        started.append(sim)
        return sim

    yield start
    for sim in started:
        sim.stop()


def settings_for(sim: RunningSimulator, state_dir, **skyspark) -> object:
    section = {"url": sim.url, "project": sim.project, "username": sim.username, "password": sim.password,
               "timeout_s": 5, "retries": 1, **skyspark}
    return load_settings(overrides={"paths": {"state_dir": str(state_dir)}, "skyspark": section,
                                    "agent": {"timezone": "America/New_York"}}, environ={})


@pytest.fixture
def skyspark_settings(simulator, tmp_path):
    """Settings pointing at the session simulator (state under tmp_path, site timezone America/New_York)."""
    return settings_for(simulator, tmp_path / "state")


@pytest.fixture
def skyspark_client(skyspark_settings):
    from edge_agent.skyspark.client import SkySparkClient

    client = SkySparkClient.from_settings(skyspark_settings.skyspark)
    yield client
    client.close()


@pytest.fixture
def iot_ctx(skyspark_settings, skyspark_client, tmp_path):
    """A tool context whose SkySpark is the session simulator and whose files live under tmp_path."""
    from edge_agent.clock import Clock
    from edge_agent.filestore import FileStore
    from edge_agent.toolkit import ToolContext

    return ToolContext(files=FileStore(tmp_path / "files"), clock=Clock("2024-07-15T12:00:00", "America/New_York"),
                       settings=skyspark_settings, skyspark_factory=lambda: skyspark_client)
