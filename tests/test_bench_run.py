"""`edge-agent bench` end to end with a scripted model: real simulator, real tools, real checker, real report.

The scripted model plays a competent agent on four POKMAIN tasks: right on three, and on the
value task wrong at first (a number from the wrong day) and right after reflection. The plain
`react` baseline gets one trial, so it keeps the wrong number. The test checks the files the
command writes and that the numbers in them agree with each other and with what the model did.
"""

from __future__ import annotations

import json
import re
from datetime import datetime
from zoneinfo import ZoneInfo

import pytest
from click.testing import CliRunner

import edge_agent.app as app_module
from edge_agent import PROJECT_ROOT
from edge_agent.cli import main
from edge_agent.evaluation.report import PLOTS
from edge_agent.evaluation.results import BenchResults, TaskRun, read_jsonl
from edge_agent.llm.scripted import ScriptedLLM
from edge_agent.skyspark.dataset import expected_history

NY = ZoneInfo("America/New_York")
TASKS = ["pok-01", "pok-06", "pok-07", "pok-16"]


def _max_power(day: int) -> float:
    rows = expected_history(
        "POKMAIN", "B020_Total", "Power", datetime(2023, 1, day, tzinfo=NY), datetime(2023, 1, day + 1, tzinfo=NY)
    )
    return max(v for _, v in rows)


RIGHT, WRONG = _max_power(13), _max_power(12)


def _step(thought, action, args):
    return f"Thought: {thought}\nAction: {action}\nAction Input: {json.dumps(args)}"


def _saved(prefix: str) -> str:
    names = re.findall(r"[A-Za-z0-9_.-]+\.json", prefix)
    return names[-1] if names else "?"


def _hist(start, final, assets=("B020_Total",), sensor="Power"):
    return {"site_name": "POKMAIN", "asset_names": list(assets), "sensor_name": sensor, "start": start, "final": final}


SCRIPTS = {  # question fragment -> (first trial steps, steps after a reflection); a step may depend on the scratchpad
    "What IoT sites are available": (
        [
            lambda p: _step("I list the sites.", "sites", {}),
            lambda p: _step(
                "I have them.",
                "Finish",
                {"answer": "The sites are AUSWEST, DUBMAIN, HQ1ARM3, HQ3SBY, POKMAIN and RCHMAIN."},
            ),
        ],
        None,
    ),
    "Chiller 6 and Chiller 9 Tonnage": (
        [
            lambda p: _step(
                "Last week is 2020-06-01 to 2020-06-08.",
                "histories",
                _hist("2020-06-01", "2020-06-08", ("Chiller 6", "Chiller 9"), "Tonnage"),
            ),
            lambda p: _step(
                "One file holds both.",
                "Finish",
                {"answer": f"Chiller 6 and Chiller 9 Tonnage for last week are in {_saved(p)}."},
            ),
        ],
        None,
    ),
    "highest Power of B020_Total": (
        [
            lambda p: _step("I read jan 12.", "histories", _hist("2023-01-12", "2023-01-13")),
            lambda p: _step(
                "I have the maximum.",
                "Finish",
                {"answer": f"The highest Power of B020_Total was {WRONG} kW (first try)."},
            ),
        ],
        [
            lambda p: _step("I read jan 13 this time.", "histories", _hist("2023-01-13", "2023-01-14")),
            lambda p: _step(
                "I have the maximum.",
                "Finish",
                {"answer": f"The highest Power of B020_Total on 2023-01-13 was {RIGHT} kW."},
            ),
        ],
    ),
    "power consumption of B020": (
        [
            lambda p: _step("I look for B020.", "histories", _hist("2023-01-31", "2023-02-01", ("B020",))),
            lambda p: _step(
                "It does not exist.",
                "Finish",
                {"answer": "There is no asset named B020 at POKMAIN (closest: B020_Total, B020 CWP 1)."},
            ),
        ],
        None,
    ),
}


def policy(prompt, role, constraint):
    if role == "react":
        for fragment, (first, retry) in SCRIPTS.items():
            if fragment in prompt.user:
                steps = retry if retry and "retry-plan" in prompt.user else first
                index = prompt.assistant_prefix.count("Observation:")
                return steps[min(index, len(steps) - 1)](prompt.assistant_prefix)
        raise AssertionError(f"no script for {prompt.user[:200]!r}")
    if role == "distill":
        return json.dumps({"sites": ["POKMAIN"], "assets": [], "sensors": [], "goal": "answer it", "parts": []})
    if role == "review":
        status = "Partially Accomplished" if "(first try)" in prompt.user else "Accomplished"
        return json.dumps({"status": status, "reasoning": "checked the steps", "suggestions": "read the right day"})
    if role == "reflect":
        return json.dumps({"diagnosis": "It read the wrong day.", "plan": "retry-plan: read 2023-01-13 only."})
    return "I do not know."


@pytest.fixture
def scripted(monkeypatch):
    llm = ScriptedLLM(policy)
    monkeypatch.setattr(app_module, "load_llm", lambda settings, model=None: llm)
    return llm


def invoke(*args):
    env = {k: None for k in ("EDGE_AGENT_CONFIG", "EDGE_AGENT_AGENT__STRATEGY", "EDGE_AGENT_SKYSPARK__URL")}
    return CliRunner().invoke(main, ["bench", *args], env=env, catch_exceptions=False)


def test_bench_runs_checks_and_reports(scripted, tmp_path):
    assert abs(RIGHT - WRONG) > 0.005 * RIGHT
    out = tmp_path / "out"
    args = [
        "--tasks",
        "bench/tasks/pokmain.yaml",
        "--strategy",
        "react",
        "--strategy",
        "reactxen",
        "--out",
        str(out),
        "--max-steps",
        "4",
        "--max-trials",
        "3",
        "--quiet",
    ]
    for t in TASKS:
        args += ["--task", t]
    result = invoke(*args)
    assert result.exit_code == 0, result.output

    res = BenchResults.model_validate_json((out / "results.json").read_text())
    assert not res.interrupted and res.invalid_tasks == [] and res.n_tasks == 4
    assert len(res.runs) == 8 and read_jsonl(out / "results.jsonl") == res.runs
    by = {(r.strategy, r.task_id): r for r in res.runs}

    # the checker's verdicts are what the scripted agent deserved
    for strategy in ("react", "reactxen"):
        for t in ("pok-01", "pok-06", "pok-16"):
            run = by[(strategy, t)]
            assert run.checker_round1 and run.checker_final, (strategy, t, run.checks)
            assert run.checker_by_round == [True]
    react7, xen7 = by[("react", "pok-07")], by[("reactxen", "pok-07")]
    assert react7.checker_by_round == [False] and not react7.checker_final
    assert "expected max" in react7.checks[0].detail
    assert xen7.checker_by_round == [False, True] and xen7.checker_final and not xen7.checker_round1
    assert xen7.review_by_round == ["Partially Accomplished", "Accomplished"]
    assert xen7.reviews == 2 and xen7.reviews_agreeing == 2 and xen7.metrics.reflections == 1
    assert react7.reviews == 0 and react7.review_final  # plain react: "finished" is its own verdict
    assert by[("react", "pok-06")].files and (out / "state" / "files" / by[("react", "pok-06")].run_id).is_dir()

    # metrics come from the agent's run records, and every run has its full record on disk
    for run in res.runs:  # a Finish whose answer was in hand is code's: one model call can answer a task
        if run.task_id == "pok-16":  # it names only what the SkySpark lacks: the linking fact is the answer
            assert run.metrics.calls_by_role.get("react", 0) == 0 and run.metrics.trajectory_length == 1
            continue
        assert run.metrics.llm_calls >= 1 and run.metrics.tokens_sent > 0 and run.metrics.trajectory_length >= 2
        full = json.loads((out / "runs" / f"{run.run_id}.json").read_text())
        assert full["metrics"] == run.metrics.model_dump()
    assert sum(r.metrics.llm_calls for r in res.runs) + 2 == len(scripted.prompts)  # the daemon's warm-up: 2 calls
    assert res.warmup["smollm2-135m"]["generated_tokens"] == 0 and res.warmup["smollm2-135m"]["prompt_tokens"] > 0
    assert "warm-up of smollm2-135m before the first task" in (out / "report.md").read_text()

    # report: tables agree with the runs; plots are PNG files
    report = (out / "report.md").read_text()
    assert "| smollm2-135m | react | 4 | 3/4 (75%) | 3/4 (75%) |" in report
    assert "| smollm2-135m | reactxen | 4 | 3/4 (75%) | 4/4 (100%) |" in report
    assert "| smollm2-135m | reactxen | 3 | 4 | 4 |" in report  # completion by rounds allowed 1..3
    assert "| smollm2-135m | react | 3 | 3 | 3 |" in report
    for name in PLOTS:
        assert (out / name).read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
        assert f"]({name})" in report
    assert "reactxen" in result.output and "report:" in result.output


def test_bench_interrupt_keeps_finished_and_resume_completes(monkeypatch, tmp_path):
    calls = {"n": 0}

    def interrupting(prompt, role, constraint):
        if role == "react" and "highest Power of B020_Total" in prompt.user:
            calls["n"] += 1
            raise KeyboardInterrupt
        return policy(prompt, role, constraint)

    llm = ScriptedLLM(interrupting)
    monkeypatch.setattr(app_module, "load_llm", lambda settings, model=None: llm)
    out = tmp_path / "out"
    args = [
        "--tasks",
        "bench/tasks/pokmain.yaml",
        "--strategy",
        "react",
        "--out",
        str(out),
        "--quiet",
        "--task",
        "pok-01",
        "--task",
        "pok-06",
        "--task",
        "pok-07",
        "--task",
        "pok-16",
    ]
    first = invoke(*args)
    assert first.exit_code == 130
    res = BenchResults.model_validate_json((out / "results.json").read_text())
    assert res.interrupted and [r.task_id for r in res.runs] == ["pok-01", "pok-06"]
    assert "interrupted" in (out / "report.md").read_text()

    monkeypatch.setattr(app_module, "load_llm", lambda settings, model=None: ScriptedLLM(policy))
    second = invoke(*args, "--resume")
    assert second.exit_code == 0, second.output
    res = BenchResults.model_validate_json((out / "results.json").read_text())
    assert not res.interrupted and [r.task_id for r in res.runs] == TASKS
    assert [r.checker_final for r in res.runs] == [True, True, False, True]


def test_bench_bad_task_file_exits_2(tmp_path):
    bad = tmp_path / "bad.yaml"
    bad.write_text("tasks:\n  - id: x\n    question: what now?\n    now: '2020-01-01T00:00:00'\n    expect: {}\n")
    result = invoke("--tasks", str(bad), "--out", str(tmp_path / "o"))
    assert result.exit_code == 2 and "task x" in result.output
    assert invoke("--tasks", str(tmp_path / "nope.yaml")).exit_code == 2


def test_check_tasks_against_a_given_skyspark(simulator, tmp_path, monkeypatch):
    monkeypatch.setenv("EDGE_AGENT_SKYSPARK__PASSWORD", simulator.password)
    monkeypatch.setenv("EDGE_AGENT_SKYSPARK__USERNAME", simulator.username)
    result = invoke(
        "--tasks",
        "bench/tasks/rchmain.yaml",
        "--skyspark",
        simulator.url,
        "--check-tasks",
        "--out",
        str(tmp_path / "o"),
    )
    assert result.exit_code == 0, result.output
    assert "20/20 tasks fit" in result.output
    down = invoke(
        "--tasks",
        "bench/tasks/rchmain.yaml",
        "--skyspark",
        "http://127.0.0.1:9",
        "--check-tasks",
        "--out",
        str(tmp_path / "o"),
    )
    assert down.exit_code == 1 and "unavailable" in down.output


@pytest.mark.parametrize(
    "answered,reviews,by_trial,final,expected",
    [
        # right at round 1 (reviewed Partially), round 2 looped without an answer: still right with 2 rounds
        ([True, False], ["Partially Accomplished", None], [True, False], True, [True, True]),
        # right but reviewed Not Accomplished, then a wrong answer reviewed Partially: the agent returns the latter
        (
            [True, True, False],
            ["Not Accomplished", "Partially Accomplished", None],
            [True, False, False],
            False,
            [True, False, False],
        ),
        # wrong, then right and Accomplished
        ([True, True], ["Partially Accomplished", "Accomplished"], [False, True], True, [False, True]),
        ([False, False], [None, None], [False, False], False, [False, False]),
    ],
)
def test_completion_by_round_follows_the_answer_the_agent_would_return(answered, reviews, by_trial, final, expected):
    run = TaskRun(
        task_id="t",
        question="q",
        model="m",
        strategy="reactxen",
        run_id="r",
        now="2024-01-01T00:00:00",
        status="answered",
        answered_by_round=answered,
        review_by_round=reviews,
        checker_by_round=by_trial,
        checker_final=final,
    )
    assert [run.completed_by(k) for k in range(1, 4)] == expected + [expected[-1]] * (3 - len(expected))


def test_prefix_states_of_an_earlier_run_are_copied_in_and_reported(scripted, tmp_path):
    earlier = tmp_path / "earlier" / "state" / "kv"
    earlier.mkdir(parents=True)
    (earlier / "abc-react-1234.kv").write_bytes(b"EAKVST01 not a real state")
    out = tmp_path / "out"
    result = invoke(
        "--tasks",
        "bench/tasks/pokmain.yaml",
        "--strategy",
        "react",
        "--task",
        "pok-01",
        "--out",
        str(out),
        "--quiet",
        "--prefix-states",
        str(tmp_path / "earlier"),
    )
    assert result.exit_code == 0, result.output
    assert (out / "state" / "kv" / "abc-react-1234.kv").read_bytes() == b"EAKVST01 not a real state"
    res = BenchResults.model_validate_json((out / "results.json").read_text())
    assert res.prefix_states.startswith("1 saved states copied from ")
    assert "prompt-prefix KV states at start: 1 saved states" in (out / "report.md").read_text()

    fresh = invoke(
        "--tasks",
        "bench/tasks/pokmain.yaml",
        "--strategy",
        "react",
        "--task",
        "pok-01",
        "--out",
        str(tmp_path / "o2"),
        "--quiet",
    )
    assert "a first start" in (tmp_path / "o2" / "report.md").read_text()
    assert fresh.exit_code == 0

    empty = tmp_path / "empty"
    empty.mkdir()
    bad = invoke("--tasks", "bench/tasks/pokmain.yaml", "--out", str(tmp_path / "o3"), "--prefix-states", str(empty))
    assert bad.exit_code == 2 and "no saved prefix states" in bad.output


def test_bench_serves_the_task_files_dataset(tmp_path):
    """`dataset: rhine` in the header: the embedded simulator serves that plant (the tasks fit it), and an unknown
    dataset is bad usage."""
    result = invoke(
        "--tasks",
        str(PROJECT_ROOT / "bench" / "tasks" / "synthetic-rhine.yaml"),
        "--check-tasks",
        "--quiet",
        "--out",
        str(tmp_path / "o"),
    )
    assert result.exit_code == 0, result.output
    assert "42/42 tasks fit" in result.output and "dataset rhine" in result.output
    bad = tmp_path / "bad.yaml"
    bad.write_text(
        "dataset: atlantis\ntasks:\n- {id: a, question: list the sites, now: '2024-01-01T00:00:00Z', "
        "expect: {count: {of: sites}}}\n"
    )
    result = invoke("--tasks", str(bad), "--check-tasks", "--out", str(tmp_path / "p"))
    assert result.exit_code == 2 and "atlantis" in result.output


def test_the_report_headline_counts_answers_delivered_as_answered_but_wrong(tmp_path):
    from edge_agent.evaluation.report import headline, render, summary_table
    from edge_agent.evaluation.results import answered_but_wrong, summarise

    def run(task, strategy, status, right, check_error=False):
        return TaskRun(
            task_id=task,
            question="q",
            model="m",
            strategy=strategy,
            run_id=f"{task}-{strategy}",
            now="2024-01-01T00:00:00",
            status=status,
            checker_final=right,
            check_error=check_error,
        )

    runs = [
        run("a", "react", "answered", True),
        run("b", "react", "answered", False),
        run("c", "react", "gave_up", False),
        run("d", "react", "partial", False),
        run("e", "react", "answered", False, check_error=True),  # the task does not fit: not the agent's
        run("a", "reactxen", "answered", True),
        run("b", "reactxen", "refused", False),
    ]
    assert [answered_but_wrong(r) for r in runs] == [False, True, False, False, False, False, False]
    rows = {r.strategy: r for r in summarise(runs, 1)}
    assert rows["react"].answered_wrong == 1 and rows["reactxen"].answered_wrong == 0
    text = headline(list(rows.values()))
    assert "m / react**: 1/5 (20%) right; **answered but wrong: 1**" in text
    assert "answered but wrong: 0" in text
    assert "| answered but wrong |" in summary_table(list(rows.values()))
    results = BenchResults(tasks_file="t.yaml", runs=runs, models=["m"], strategies=["react", "reactxen"])
    report = render(results, list(rows.values()), [])
    assert report.index("## Headline") < report.index("## Summary") and "answered ⚠" in report
