"""Algorithm 2 (tts_autogen) on a scripted LLM, trajectory compaction, and the `edge-agent tts` commands."""

from __future__ import annotations

import json

import pytest
import yaml
from click.testing import CliRunner
from hypothesis import given
from hypothesis import settings as hsettings
from hypothesis import strategies as st

from edge_agent import PROJECT_ROOT
from edge_agent.agent.trajectory import StepRecord, Trial
from edge_agent.app import EdgeAgent
from edge_agent.cli import main
from edge_agent.trajectory_store import TrajectoryStore
from edge_agent.tts_autogen import GenTask, GenTaskFileError, compact, generate, load_gen_tasks
from tests.xen_helpers import finish, registry, review_json, step

SITES_Q = "List the sites"
DATA_Q = "Get Chiller 6 Tonnage for last week at POKMAIN"
HIST = {
    "site_name": "POKMAIN",
    "asset_names": ["Chiller 6"],
    "sensor_name": "Tonnage",
    "start": "2020-06-01T00:00:00-04:00",
    "final": "2020-06-08T00:00:00-04:00",
}


def scripted(prompt, role, constraint):
    """Solves the sites task at once; solves the data task only once an example is in the prompt."""
    if role == "review":
        return review_json("Accomplished", "looks done")
    if role != "react":
        raise AssertionError(f"unexpected role {role}")
    first = "Observation:" not in prompt.assistant_prefix
    if SITES_Q in prompt.user:
        return step("I list the sites.", "sites", {}) if first else finish("There are 2 sites: POKMAIN, RCHMAIN.")
    if f"Question: {SITES_Q}" not in prompt.system:  # no generated example yet: early victory
        return finish("I am done.")
    if first:
        return step("I read the history.", "histories", HIST)
    name = prompt.assistant_prefix.split("written to ")[-1].split()[0]
    return finish(f"The Tonnage of Chiller 6 is in {name}")


def test_algorithm_2_grows_the_store_round_by_round(settings):
    from edge_agent.llm.scripted import ScriptedLLM

    tools = registry()
    agent = EdgeAgent(settings, llm=ScriptedLLM(scripted), tools=tools, skyspark=lambda: None)
    store = TrajectoryStore.open(settings, tools, handcrafted=False)
    tasks = [
        GenTask(id="sites", question=SITES_Q, now="2020-06-08T09:00:00-04:00"),
        GenTask(id="data", question=DATA_Q, now="2020-06-08T09:00:00-04:00"),
    ]
    reports = generate(agent, tasks, store, rounds=5, max_examples=17, strategy="react-review", max_trials=1)
    assert [(r.round, r.examples_before, r.attempted, r.solved, r.added) for r in reports] == [
        (1, 0, 2, ["sites"], ["gen/1"]),
        (2, 1, 1, ["data"], ["gen/2"]),
    ]
    again = TrajectoryStore.open(settings, tools, handcrafted=False)
    gen1, gen2 = again.get("gen/1"), again.get("gen/2")
    assert gen1.question == SITES_Q and [s.action for s in gen1.steps] == ["sites", "Finish"]
    assert [s.action for s in gen2.steps] == ["histories", "Finish"]
    prov = json.loads(gen2.source)
    assert prov["task_id"] == "data" and prov["round"] == 2 and prov["model"] == "scripted"
    assert prov["run_id"] == reports[1].run_ids["data"] and prov["strategy"] == "react-review"


def test_generation_stops_at_max_examples_and_when_a_round_solves_nothing(settings):
    from edge_agent.llm.scripted import ScriptedLLM

    tools = registry()
    agent = EdgeAgent(settings, llm=ScriptedLLM(scripted), tools=tools, skyspark=lambda: None)
    store = TrajectoryStore.open(settings, tools, handcrafted=False)
    reports = generate(
        agent,
        [GenTask(id="sites", question=SITES_Q), GenTask(id="data", question=DATA_Q)],
        store,
        max_examples=1,
        max_trials=1,
    )
    assert len(reports) == 1 and len(store) == 1
    store2 = TrajectoryStore.open(
        settings.model_copy(
            update={"paths": settings.paths.model_copy(update={"state_dir": settings.state_dir.parent / "other"})}
        ),
        tools,
        handcrafted=False,
    )
    reports = generate(agent, [GenTask(id="data", question=DATA_Q)], store2, max_trials=1)
    assert len(reports) == 1 and reports[0].solved == [] and len(store2) == 0


def _s(i, action, args, obs, ok=True, kind="tool", thought="t"):
    return StepRecord(index=i, thought=thought, action=action, action_input=args, observation=obs, ok=ok, kind=kind)


def test_compaction_keeps_what_the_answer_depends_on_in_at_most_three_steps():
    steps = [
        _s(1, "currentdatetime", {}, "current datetime is 2020-06-08T09:00:00-04:00"),
        _s(2, "sensors", {"site_name": "POKMAIN", "asset_name": "Chiller6"}, "Error: no asset", ok=False),
        _s(3, "bogus", {}, "Error: there is no tool", ok=False, kind="invalid"),
        _s(4, "sites", {}, "found 6 sites, saved to sites-1.json"),
        _s(5, "histories", {**HIST, "asset_names": ["Chiller 6"]}, "found 672 values, saved to h6-1.json; first ..."),
        _s(6, "histories", {**HIST, "asset_names": ["Chiller 9"]}, "found 672 values, saved to h9-1.json; first ..."),
        _s(
            7,
            "jsonmerge",
            {"file_name_1": "h6-1.json", "file_name_2": "h9-1.json"},
            "merged 672 + 672 rows into merged-1.json (1344 rows)",
        ),
        _s(8, "Finish", {"answer": "All in merged-1.json"}, "", kind="finish", thought="done"),
    ]
    traj = compact(Trial(number=1, steps=steps, answer="All in merged-1.json"), "two chillers in one file")
    assert [s.action for s in traj.steps] == ["histories", "jsonmerge", "Finish"]
    assert traj.steps[0].action_input["asset_names"] == ["Chiller 9"]
    assert traj.steps[-1].action_input == {"answer": "All in merged-1.json"}


def test_compaction_adds_context_before_a_single_needed_step():
    steps = [
        _s(1, "currentdatetime", {}, "current datetime is X"),
        _s(2, "histories", HIST, "found 672 values, saved to h6-1.json"),
        _s(3, "histories", HIST, "found 672 values, saved to h6-2.json"),  # a repeat: kept once, the last
        _s(4, "Finish", {"answer": "In h6-2.json"}, "", kind="finish"),
    ]
    traj = compact(Trial(number=1, steps=steps, answer="In h6-2.json"), DATA_Q)
    assert [s.action for s in traj.steps] == ["currentdatetime", "histories", "Finish"]
    assert "h6-2.json" in traj.steps[1].observation
    assert compact(Trial(number=1, steps=steps[:2]), DATA_Q) is None  # no answer, nothing to keep


def test_task_file_loading(tmp_path):
    good = tmp_path / "t.yaml"
    good.write_text(
        yaml.safe_dump(
            {
                "tasks": [
                    {
                        "id": "a",
                        "question": "q",
                        "now": "2020-06-08T09:00:00-04:00",
                        "tags": ["x"],
                        "expect": {"answer_mentions_all": ["A"]},
                    }
                ]
            }
        )
    )
    assert load_gen_tasks(good)[0].now == "2020-06-08T09:00:00-04:00"
    bad = tmp_path / "bad.yaml"
    bad.write_text("tasks:\n  - {id: a}\n")
    with pytest.raises(GenTaskFileError, match="bad.yaml: task 1: question"):
        load_gen_tasks(bad)
    dup = tmp_path / "dup.yaml"
    dup.write_text("tasks:\n  - {id: a, question: q}\n  - {id: a, question: r}\n")
    with pytest.raises(GenTaskFileError, match="duplicate task ids: a"):
        load_gen_tasks(dup)


@pytest.fixture
def cfg(tmp_path):
    path = tmp_path / "cfg.yaml"
    path.write_text(yaml.safe_dump({"paths": {"state_dir": str(tmp_path / "state")}}))
    return path


def test_cli_list_show_check(cfg):
    runner = CliRunner()
    out = runner.invoke(main, ["tts", "list", "--config", str(cfg)])
    assert out.exit_code == 0, out.output
    shipped = len(list((PROJECT_ROOT / "tts").glob("*/*.yaml")))
    assert "workflow/two_assets_merge" in out.output and f"{shipped} trajectories" in out.output
    data = json.loads(runner.invoke(main, ["tts", "list", "--json", "--config", str(cfg)]).output)
    assert {d["category"] for d in data} == {"tool", "entity", "workflow"}
    core = ["tool/finish", "tool/histories_range", "tool/self_ask", "tool/sites"]
    assert [d["id"] for d in data if d["core"]] == core
    out = runner.invoke(main, ["tts", "show", "workflow/last_week", "--config", str(cfg)])
    assert out.exit_code == 0 and "Action: Self-Ask" in out.output and "Question: Get the Energy" in out.output
    out = runner.invoke(main, ["tts", "show", "tool/nope", "--config", str(cfg)])
    assert out.exit_code == 1 and "no trajectory" in out.output
    out = runner.invoke(main, ["tts", "check", "--config", str(cfg)])
    assert out.exit_code == 0 and f"{shipped} trajectories valid" in out.output


def test_cli_reports_a_broken_file_and_a_bad_task_file(tmp_path, cfg):
    import shutil

    shutil.copytree(PROJECT_ROOT / "tts", tmp_path / "tts")
    (tmp_path / "tts" / "tool" / "oops.yaml").write_text(
        "question: q\nsteps:\n  - {thought: t, action: teleport, action_input: {}, observation: o}\n"
    )
    cfg.write_text(yaml.safe_dump({"paths": {"state_dir": str(tmp_path / "state"), "tts_dir": str(tmp_path / "tts")}}))
    out = CliRunner().invoke(main, ["tts", "check", "--config", str(cfg)])
    assert out.exit_code == 2 and "oops.yaml" in out.output and "teleport" in out.output
    tasks = tmp_path / "tasks.yaml"
    tasks.write_text("tasks: 3\n")
    out = CliRunner().invoke(main, ["tts", "generate", "--tasks", str(tasks), "--config", str(cfg)])
    assert out.exit_code == 2 and "tasks.yaml" in out.output


POOL = [
    ("currentdatetime", {}, "current datetime is 2020-06-08T09:00:00-04:00"),
    ("sites", {}, "found 6 sites, saved to sites-1.json: POKMAIN"),
    ("assets", {"site_name": "POKMAIN"}, "found 88 assets at POKMAIN, saved to assets_POKMAIN-1.json"),
    ("sensors", {"site_name": "POKMAIN", "asset_name": "Chiller 6"}, "found 11 sensors, saved to sensors-1.json"),
    ("histories", HIST, "found 672 values, saved to h6-1.json"),
    ("histories", {**HIST, "asset_names": ["Chiller 9"]}, "found 672 values, saved to h9-1.json"),
    ("jsonmerge", {"file_name_1": "h6-1.json", "file_name_2": "h9-1.json"}, "merged 1 + 1 rows into m-1.json"),
    ("jsonreader", {"file_name": "h6-1.json"}, "h6-1.json holds a JSON array of 672 rows"),
    ("Self-Ask", {"question": "what is last week?"}, "2020-06-01 to 2020-06-08"),
]


@hsettings(max_examples=150, deadline=None)
@given(
    picks=st.lists(st.tuples(st.integers(0, len(POOL) - 1), st.booleans()), max_size=10),
    answer=st.sampled_from(["In m-1.json", "In h6-1.json and h9-1.json", "6 sites", "sensors-1.json"]),
)
def test_compaction_always_gives_a_valid_trajectory_of_at_most_three_steps(picks, answer):
    from edge_agent import PROJECT_ROOT
    from edge_agent.toolkit import ToolRegistry
    from edge_agent.trajectory_store import validate_trajectory

    steps = []
    for i, (n, ok) in enumerate(picks, start=1):
        action, args, obs = POOL[n]
        steps.append(
            _s(
                i,
                action,
                args,
                obs if ok else "Error: failed",
                ok=ok,
                kind="self_ask" if action == "Self-Ask" else "tool",
            )
        )
    steps.append(_s(len(steps) + 1, "Finish", {"answer": answer}, "", kind="finish"))
    traj = compact(Trial(number=1, steps=steps, answer=answer), "q")
    assert 1 <= len(traj.steps) <= 3 and traj.steps[-1].action == "Finish"
    assert all(s.observation and not s.observation.startswith("Error") for s in traj.steps[:-1])
    validate_trajectory(traj, ToolRegistry.from_dir(PROJECT_ROOT / "plugins"), "generated")
