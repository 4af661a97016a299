"""Fixtures every area uses: isolated settings with a temporary state directory."""

import pytest

from edge_agent.config import load_settings


@pytest.fixture
def settings(tmp_path):
    """Settings from config/edge-agent.yaml with state (db, files, kv cache) under tmp_path."""
    return load_settings(overrides={"paths": {"state_dir": str(tmp_path / "state")}}, environ={})
