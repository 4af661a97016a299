"""Settings: defaults, --config files, EDGE_AGENT_ variables, errors naming the key, secrets."""

import pytest

from edge_agent.config import ConfigError, env_overrides, load_settings, resolve_secret


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
