"""Settings: defaults, --config files, EDGE_AGENT_ variables, errors naming the key, secrets."""

import pytest

from edge_agent import PROJECT_ROOT
from edge_agent.config import ConfigError, env_overrides, load_settings, resolve_secret
from edge_agent.toolkit import ToolLoadError, ToolRegistry


def test_defaults_load_and_every_section_is_present():
    s = load_settings(environ={})
    assert s.model.name == "smollm2-135m" and s.agent.strategy == "reactxen" and s.mqtt.port == 1883


def test_file_then_environment_then_overrides(tmp_path):
    f = tmp_path / "c.yaml"
    f.write_text("agent:\n  max_steps: 5\nmqtt:\n  port: 2883\n")
    s = load_settings(f, environ={"EDGE_AGENT_MQTT__PORT": "3883"}, overrides={"agent": {"max_trials": 4}})
    assert (s.agent.max_steps, s.mqtt.port, s.agent.max_trials) == (5, 3883, 4)


def test_env_values_are_yaml_scalars():
    tree = env_overrides(
        {"EDGE_AGENT_AGENT__DISTILL": "false", "EDGE_AGENT_SKYSPARK__URL": "http://x:1/", "OTHER": "1"}
    )
    assert tree == {"agent": {"distill": False}, "skyspark": {"url": "http://x:1/"}}


@pytest.mark.parametrize(
    "text, key",
    [
        ("agent:\n  max_steps: lots\n", "agent.max_steps"),
        ("agent:\n  max_setps: 3\n", "agent.max_setps"),
        ("mqtt:\n  port: 70000\n", "mqtt.port"),
        ("agent:\n  strategy: cot\n", "agent.strategy"),
    ],
)
def test_an_invalid_setting_names_its_key(tmp_path, text, key):
    f = tmp_path / "bad.yaml"
    f.write_text(text)
    with pytest.raises(ConfigError, match=key.replace(".", r"\.")):
        load_settings(f, environ={})


def test_unreadable_files_are_clear(tmp_path):
    with pytest.raises(ConfigError, match="not found"):
        load_settings(tmp_path / "missing.yaml", environ={})
    (tmp_path / "list.yaml").write_text("- a\n")
    with pytest.raises(ConfigError, match="mapping"):
        load_settings(tmp_path / "list.yaml", environ={})
    (tmp_path / "broken.yaml").write_text("a: [\n")
    with pytest.raises(ConfigError, match="not valid YAML"):
        load_settings(tmp_path / "broken.yaml", environ={})


def test_secrets_come_from_the_value_a_file_or_a_systemd_credential(tmp_path, monkeypatch):
    s = load_settings(environ={"EDGE_AGENT_SKYSPARK__PASSWORD": "pw1"})
    assert resolve_secret(s.skyspark.password, None, "skyspark-password") == "pw1"
    assert "pw1" not in repr(s.skyspark)
    (tmp_path / "pw").write_text("pw2\n")
    assert resolve_secret(None, tmp_path / "pw", "skyspark-password") == "pw2"
    (tmp_path / "skyspark-password").write_text("pw3")
    monkeypatch.setenv("CREDENTIALS_DIRECTORY", str(tmp_path))
    assert resolve_secret(None, None, "skyspark-password") == "pw3"
    assert resolve_secret(None, None, "mqtt-password") is None


def test_the_plugin_folder_is_plugins_and_a_config_from_before_its_rename_still_finds_it(tmp_path):
    """Issue 43 renamed the plugin folder `tools/` to `plugins/` and its key `paths.tools_dir` to `paths.plugins_dir`.
    A gateway's /etc/edge-agent/edge-agent.yaml copied from an older checkout names `tools_dir: tools`: it is read as
    `plugins_dir: plugins` (the old key in any layer, the old relative folder name as a value), so the gateway keeps
    its tools after an update; any other folder it names is kept as it is."""
    assert load_settings(environ={}).plugins_dir == PROJECT_ROOT / "plugins"
    old = tmp_path / "old.yaml"
    old.write_text("paths:\n  state_dir: var\n  tools_dir: tools\n  tts_dir: tts\n")
    settings = load_settings(old, environ={})
    assert settings.plugins_dir == PROJECT_ROOT / "plugins"
    assert "histories" in ToolRegistry.from_dir(settings.plugins_dir)
    elsewhere = tmp_path / "site-tools"
    old.write_text(f"paths:\n  tools_dir: {elsewhere}\n")
    assert load_settings(old, environ={}).plugins_dir == elsewhere
    assert load_settings(environ={"EDGE_AGENT_PATHS__TOOLS_DIR": str(elsewhere)}).plugins_dir == elsewhere
    assert (
        load_settings(overrides={"paths": {"tools_dir": "tools"}}, environ={}).plugins_dir == PROJECT_ROOT / "plugins"
    )
    both = tmp_path / "both.yaml"  # within one layer the new key wins
    both.write_text(f"paths:\n  plugins_dir: {elsewhere}\n  tools_dir: tools\n")
    assert load_settings(both, environ={}).plugins_dir == elsewhere
    with pytest.raises(ToolLoadError, match="plugin folder is not there"):  # never a silent agent without its tools
        ToolRegistry.from_dir(elsewhere)
