"""`edge-agent ask` and `edge-agent logs`: exit codes, live output, the --json object, the run log view.

The model is replaced by the scripted LLM (these test the command line, not the model); the
real-model run of `ask --json` is in tests/test_e2e_react_model.py.
"""

from __future__ import annotations

import json

import pytest
import yaml
from click.testing import CliRunner

import edge_agent.app as app_module
from edge_agent.cli import main
from edge_agent.llm.scripted import ScriptedLLM

NOW = "2024-06-14T10:30:00+00:00"


def step(thought, action, args=None):
    return f"Thought: {thought}\nAction: {action}\nAction Input: {json.dumps(args or {})}"


@pytest.fixture
def config_file(tmp_path, simulator):
    path = tmp_path / "edge-agent.yaml"
    path.write_text(
        yaml.safe_dump(
            {
                "paths": {"state_dir": str(tmp_path / "state")},
                "agent": {"strategy": "react"},
                "skyspark": {
                    "url": simulator.url,
                    "project": simulator.project,
                    "username": simulator.username,
                    "password": simulator.password,
                },
            }
        )
    )
    return path


@pytest.fixture
def script(monkeypatch):
    """Install a scripted model for the CLI: pass a list of react replies (other roles get none)."""

    def install(replies):
        llm = ScriptedLLM(replies)
        monkeypatch.setattr(app_module, "load_llm", lambda settings, model=None: llm)
        return llm

    return install


def invoke(*args):
    runner = CliRunner()
    env = {k: None for k in ("EDGE_AGENT_CONFIG", "EDGE_AGENT_AGENT__STRATEGY")}
    return runner.invoke(main, list(args), env=env, catch_exceptions=False)


def test_ask_prints_steps_live_and_the_answer(script, config_file):
    script(
        [
            step("I need the time.", "currentdatetime"),
            step("I know it now.", "Finish", {"answer": "It is Friday 14 June 2024."}),
        ]
    )
    res = invoke("ask", "What day is it?", "--now", NOW, "--config", str(config_file))
    assert res.exit_code == 0, res.output
    out = res.output
    assert "[trial 1 step 1] tool" in out
    assert "Thought: I need the time." in out and "Action: currentdatetime" in out
    assert "Observation: current datetime is 2024-06-14T10:30:00+00:00" in out
    assert "Answer: It is Friday 14 June 2024." in out
    assert out.index("Observation:") < out.index("Answer:")


def test_ask_json_is_one_object(script, config_file):
    script([step("I need the time.", "currentdatetime"), step("Done.", "Finish", {"answer": "Friday"})])
    res = invoke("ask", "What day is it?", "--now", NOW, "--json", "--config", str(config_file))
    assert res.exit_code == 0
    data = json.loads(res.stdout)  # the whole of stdout is exactly one JSON object
    assert isinstance(data, dict)
    assert data["answer"].split("\n\n")[0] == "Friday" and data["status"] == "answered"
    assert data["answer"].endswith('Read as: "What day is it", answered from currentdatetime.')  # how it was read
    assert data["reading"]["line"] == data["answer"].split("\n\n")[-1]
    assert data["files"] == [] and data["strategy"] == "react" and data["now"].startswith("2024-06-14T10:30")
    assert [s["action"] for s in data["steps"]] == ["currentdatetime", "Finish"]
    assert data["steps"][0]["trial"] == 1 and "Friday" in data["steps"][0]["observation"]
    assert data["trials"][0]["outcome"] == "finished"
    assert data["metrics"]["llm_calls"] == 2 and data["metrics"]["trajectory_length"] == 2
    assert {"run_id", "question", "model", "error", "distilled"} <= set(data)


def test_ask_gave_up_exits_1(script, config_file):
    script([step(f"Try {i}.", "jsonreader", {"file_name": f"f{i}.json"}) for i in range(5)])
    res = invoke("ask", "Read my file", "--json", "--max-steps", "2", "--config", str(config_file))
    assert res.exit_code == 1
    data = json.loads(res.stdout)
    assert data["status"] == "gave_up" and data["answer"] is None
    assert data["trials"][0]["outcome"] == "max_steps" and len(data["steps"]) == 2
    assert "no file named" in data["steps"][0]["observation"]


def test_ask_human_output_says_no_answer(script, config_file):
    script([step(f"Try {i}.", "jsonreader", {"file_name": f"f{i}.json"}) for i in range(5)])
    res = invoke("ask", "Read my file", "--max-steps", "1", "--config", str(config_file))
    assert res.exit_code == 1
    # why, in a line: the refused call's reason (the trial ran out of steps on it)
    assert "No answer (gave_up): the tool calls written were refused (no file named" in res.output


def test_bad_config_value_exits_2_naming_the_key(script, tmp_path):
    script([])
    bad = tmp_path / "bad.yaml"
    bad.write_text("agent:\n  max_steps: 0\n")
    res = invoke("ask", "Q?", "--config", str(bad))
    assert res.exit_code == 2
    assert "agent.max_steps" in res.stderr


def test_unknown_config_key_exits_2(script, tmp_path):
    script([])
    bad = tmp_path / "bad.yaml"
    bad.write_text("agent:\n  max_stepz: 3\n")
    res = invoke("ask", "Q?", "--config", str(bad))
    assert res.exit_code == 2 and "agent.max_stepz" in res.stderr


def test_unknown_model_exits_2(script, config_file):
    llm = script([])
    res = invoke("ask", "Q?", "--model", "gpt-17", "--config", str(config_file))
    assert res.exit_code == 2 and "no model named 'gpt-17'" in res.stderr
    assert llm.prompts == []


def test_missing_config_file_exits_2(script, tmp_path):
    res = invoke("ask", "Q?", "--config", str(tmp_path / "nope.yaml"))
    assert res.exit_code == 2 and "not found" in res.stderr


@pytest.mark.parametrize(
    "args",
    [
        ["ask", "Q?", "--now", "yesterday-ish"],
        ["ask", "Q?", "--strategy", "magic"],
        ["ask", "Q?", "--max-steps", "0"],
        ["ask", "   "],
        ["ask"],
    ],
)
def test_bad_usage_exits_2(script, config_file, args):
    llm = script([])
    res = invoke(*args, "--config", str(config_file))
    assert res.exit_code == 2, res.output
    assert llm.prompts == []  # nothing ran


def test_logs_lists_runs_and_shows_one(script, config_file):
    script([step("I need the time.", "currentdatetime"), step("Done.", "Finish", {"answer": "Friday"})])
    data = json.loads(invoke("ask", "What day is it?", "--now", NOW, "--json", "--config", str(config_file)).stdout)
    run_id = data["run_id"]

    res = invoke("logs", "--last", "5", "--config", str(config_file))
    assert res.exit_code == 0
    assert run_id in res.output and "answered" in res.output and "What day is it?" in res.output

    res = invoke("logs", "--run", run_id[:6], "--config", str(config_file))
    assert res.exit_code == 0, res.output
    assert f"run {run_id}" in res.output
    assert "currentdatetime" in res.output and "Thought: I need the time." in res.output
    assert "llm calls (2)" in res.output and "react" in res.output and "prompt=" in res.output

    res = invoke("logs", "--run", run_id, "--json", "--config", str(config_file))
    detail = json.loads(res.stdout)
    assert detail["run"]["run_id"] == run_id and len(detail["steps"]) == 2 and len(detail["llm_calls"]) == 2
    assert all(c["prompt_tokens"] > 0 for c in detail["llm_calls"])


def test_logs_unknown_run_exits_1(config_file):
    res = invoke("logs", "--run", "doesnotexist", "--config", str(config_file))
    assert res.exit_code == 1 and "no run" in res.stderr


def test_logs_empty(config_file):
    res = invoke("logs", "--config", str(config_file))
    assert res.exit_code == 0 and "no runs recorded yet" in res.output
