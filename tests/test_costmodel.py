"""The cost model: the reference gateway profiles file, projections, the time split, and the report's cost tables."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml
from click.testing import CliRunner
from hypothesis import given
from hypothesis import strategies as st

from edge_agent.agent.trajectory import RunMetrics, StepRecord, Trial
from edge_agent.cli import main
from edge_agent.costmodel import (
    PROFILES_FILE,
    FigureSource,
    GatewayProfile,
    ProfileError,
    TimeSplit,
    load_profiles,
    project_all,
    project_seconds,
    run_costs,
)
from edge_agent.evaluation.report import cost_sections, write_report
from edge_agent.evaluation.results import BenchResults, TaskRun, projected, summarise
from edge_agent.llm.base import Usage

tokens = st.integers(min_value=0, max_value=10**6)
rates = st.floats(min_value=0.1, max_value=1e5, allow_nan=False, allow_infinity=False)
seconds = st.floats(min_value=0, max_value=1e4, allow_nan=False, allow_infinity=False)
SRC = FigureSource(basis="exact", url="https://example.org/x", note="measured")


def _profile(pp: float, tg: float, name: str = "p") -> GatewayProfile:
    return GatewayProfile(
        name=name, label="board", backend="cpu", model="8B Q4_K_M", pp_tps=pp, pp_source=SRC, tg_tps=tg, tg_source=SRC
    )


# -- the profiles file -----------------------------------------------------------------------


def test_the_project_profiles_file_has_the_reference_boards_each_figure_sourced():
    profiles = load_profiles()
    assert {"rpi5", "n100", "orin"} <= set(profiles.names)
    assert profiles.default == "n100" and profiles.get().name == "n100"
    for p in profiles.profiles:
        assert "8B" in p.model
        for source in (p.pp_source, p.tg_source):
            assert source.url.startswith("https://")
            if source.basis == "derived":  # a derived figure says how it was derived
                assert any(w in source.note for w in ("scaled", "Scaled", "x "))
    # gateway CPUs evaluate prompts faster than they generate, and the GPU board is faster at both
    n100, orin = profiles.get("n100"), profiles.get("orin")
    assert all(p.pp_tps > p.tg_tps for p in profiles.profiles)
    assert orin.pp_tps > n100.pp_tps and orin.tg_tps > n100.tg_tps


def _write(tmp_path: Path, data) -> Path:
    path = tmp_path / "gateways.yaml"
    path.write_text(yaml.safe_dump(data), encoding="utf-8")
    return path


def _entry(name: str) -> dict:
    src = {"basis": "exact", "url": "https://example.org/b", "note": "n"}
    return {
        "name": name,
        "label": "b",
        "backend": "cpu",
        "model": "8B",
        "pp_tps": 10,
        "pp_source": src,
        "tg_tps": 2,
        "tg_source": src,
    }


@pytest.mark.parametrize(
    "data, message",
    [
        ({"default": "a", "profiles": [_entry("a"), _entry("a")]}, "duplicate"),
        ({"default": "b", "profiles": [_entry("a")]}, "default"),
        ({"default": "a", "profiles": [{**_entry("a"), "pp_tps": 0}]}, "pp_tps"),
        (
            {
                "default": "a",
                "profiles": [{**_entry("a"), "tg_source": {"basis": "guess", "url": "https://x", "note": "n"}}],
            },
            "tg_source",
        ),
        (
            {"default": "a", "profiles": [{**_entry("a"), "pp_source": {"basis": "exact", "url": "x", "note": "n"}}]},
            "pp_source",
        ),
        ({"default": "a", "profiles": []}, "profiles"),
        (["not", "a", "mapping"], "top level"),
    ],
)
def test_bad_profiles_files_are_refused_naming_the_problem(tmp_path, data, message):
    with pytest.raises(ProfileError, match=message):
        load_profiles(_write(tmp_path, data))


def test_missing_profiles_file_and_unknown_profile(tmp_path):
    with pytest.raises(ProfileError, match="not found"):
        load_profiles(tmp_path / "nope.yaml")
    profiles = load_profiles(_write(tmp_path, {"default": "a", "profiles": [_entry("a")]}))
    with pytest.raises(ProfileError, match="unknown gateway profile 'b'; known: a"):
        profiles.get("b")


# -- projections (pure) -----------------------------------------------------------------------


@given(rates, rates, tokens, tokens, tokens, tokens, seconds)
def test_projection_is_linear_in_tokens_and_adds_the_measured_rest(pp, tg, e1, g1, e2, g2, other):
    p = _profile(pp, tg)
    both = project_seconds(p, e1 + e2, g1 + g2)
    assert both == pytest.approx(project_seconds(p, e1, g1) + project_seconds(p, e2, g2), rel=1e-9, abs=1e-9)
    assert project_seconds(p, e1, g1, other) == pytest.approx(project_seconds(p, e1, g1) + other, abs=1e-9)
    assert project_seconds(p, 0, 0, other) == pytest.approx(other)
    assert project_seconds(p, e1, g1, -5.0) == project_seconds(p, e1, g1)  # a negative rest is not credited


@given(rates, rates, tokens, tokens, tokens)
def test_forced_tokens_cost_what_evaluated_ones_cost(pp, tg, e, g, f):
    """Tokens the constraint fixed are evaluated in a batch: they move from the generation rate to the
    prompt rate, never beyond the generated tokens there are."""
    p = _profile(pp, tg)
    forced = min(f, g)
    assert project_seconds(p, e, g, 0.0, f) == pytest.approx(
        project_seconds(p, e + forced, g - forced), rel=1e-9, abs=1e-9
    )
    assert project_seconds(p, e, g, 0.0, 0) == project_seconds(p, e, g)


@given(rates, rates, tokens, tokens, tokens, tokens, tokens)
def test_a_replys_unevaluated_tail_costs_nothing(pp, tg, e, g, f, t, tf):
    """The last tokens of a reply, after its last sampled one, are never evaluated by that call (the next
    prompt that continues the text counts them in its evaluated tokens): neither rate applies to them."""
    p = _profile(pp, tg)
    forced = min(f, g)
    tail_forced = min(tf, forced)
    tail_sampled = min(max(0, t - tail_forced), g - forced)
    assert project_seconds(p, e, g, 0.0, f, t, tf) == pytest.approx(
        project_seconds(p, e + forced - tail_forced, g - forced - tail_sampled), rel=1e-9, abs=1e-9
    )
    assert project_seconds(p, e, g, 0.0, f, t, tf) <= project_seconds(p, e, g, 0.0, f) + 1e-9
    assert project_seconds(p, e, g, 0.0, f, 0, 0) == project_seconds(p, e, g, 0.0, f)


@given(rates, rates, tokens, tokens, st.integers(1, 1000), st.integers(1, 1000))
def test_projection_grows_with_tokens_and_shrinks_with_faster_boards(pp, tg, e, g, more, speedup):
    p, faster = _profile(pp, tg), _profile(pp * (1 + speedup), tg * (1 + speedup))
    assert project_seconds(p, e + more, g) > project_seconds(p, e, g)
    assert project_seconds(p, e, g + more) > project_seconds(p, e, g)
    assert project_seconds(faster, e, g) <= project_seconds(p, e, g)


def test_generated_tokens_cost_more_than_evaluated_ones_on_a_cpu_board():
    n100 = load_profiles().get("n100")
    assert project_seconds(n100, 0, 100) > project_seconds(n100, 100, 0)
    assert project_seconds(n100, 653, 301) == pytest.approx(200.0, rel=1e-3)  # 653/6.53 + 301/3.01


def test_project_all_names_every_profile_and_none_without_profiles():
    profiles = load_profiles()
    out = project_all(profiles, 1000, 100, 1.5)
    assert set(out) == set(profiles.names)
    assert out["n100"] == round(1000 / 6.53 + 100 / 3.01 + 1.5, 2)
    assert project_all(None, 1000, 100) == {}


# -- the time split -----------------------------------------------------------------------------


@given(*(st.floats(min_value=-10, max_value=1e6, allow_nan=False) for _ in range(5)))
def test_time_split_parts_are_never_negative_and_python_is_the_rest(wall, ev, gen, state, tool):
    split = TimeSplit.of(wall, ev, gen, state, tool)
    parts = [split.eval_ms, split.gen_ms, split.state_ms, split.tool_ms, split.python_ms]
    assert all(x >= 0 for x in parts)
    measured = sum(max(0.0, x) for x in (ev, gen, state, tool))
    if wall >= measured:
        assert sum(parts) == pytest.approx(wall, abs=0.5)
    else:
        assert split.python_ms == 0


@given(st.lists(st.tuples(tokens, tokens, tokens, seconds, seconds, seconds, seconds), max_size=5))
def test_usage_sums_every_field(calls):
    usages = [
        Usage(prompt_tokens=a, evaluated_tokens=b, generated_tokens=c, ms=d, eval_ms=e, gen_ms=f, state_ms=g)
        for a, b, c, d, e, f, g in calls
    ]
    total = sum(usages, Usage())
    for name in Usage.model_fields:
        assert getattr(total, name) == pytest.approx(sum(getattr(u, name) for u in usages))


def test_run_costs_takes_tool_time_from_tool_steps_only():
    llm = Usage(evaluated_tokens=10, generated_tokens=5, ms=300, eval_ms=100, gen_ms=150, state_ms=20)
    steps = [
        StepRecord(index=1, thought="t", action="sites", kind="tool", usage=llm, ms=1300),  # tool: 1000 ms
        StepRecord(index=2, thought="t", action="Finish", kind="finish", usage=llm, ms=400),
    ]  # not a tool
    total = Usage(evaluated_tokens=653, generated_tokens=301, eval_ms=2000, gen_ms=3000, state_ms=50)
    costs = run_costs([Trial(number=1, steps=steps)], total, wall_s=7.0, profiles=load_profiles())
    assert costs["tool_ms"] == 1000 and costs["eval_ms"] == 2000 and costs["gen_ms"] == 3000
    assert costs["state_ms"] == 50 and costs["python_ms"] == 7000 - 6050
    assert costs["projected_s"]["n100"] == pytest.approx(200 + 1.95, abs=0.01)  # tools + python as measured
    assert RunMetrics(**costs).projected_s == costs["projected_s"]


# -- the report ------------------------------------------------------------------------------------


def _run(task: str, strategy: str, evaluated: int, generated: int, **split) -> TaskRun:
    return TaskRun(
        task_id=task,
        question="q",
        model="m",
        strategy=strategy,
        run_id=f"{task}-{strategy}",
        now="x",
        status="answered",
        metrics=RunMetrics(tokens_evaluated=evaluated, tokens_received=generated, llm_calls=3, **split),
    )


def test_report_projects_each_task_and_each_model_strategy_on_the_chosen_gateway(tmp_path):
    profiles = load_profiles()
    runs = [
        _run("t1", "react", 653, 301, tool_ms=1000, python_ms=500, eval_ms=4000, gen_ms=9000),
        _run("t2", "react", 0, 0),
        _run("t1", "reactxen", 1306, 602),
    ]
    results = BenchResults(tasks_file="tasks.yaml", n_tasks=2, runs=runs, gateway="n100", gateways=profiles.profiles)
    rows = {r.strategy: r for r in summarise(runs, 1, profiles.profiles)}
    assert rows["react"].projected_s["n100"] == pytest.approx((201.5 + 0) / 2, abs=0.05)
    assert rows["reactxen"].projected_s["n100"] == pytest.approx(400, abs=0.05)
    assert rows["react"].split.tool_ms == 500 and rows["react"].split.gen_ms == 4500
    assert projected(runs[0].metrics, profiles.get("n100")) == pytest.approx(201.5)

    text = write_report(results, tmp_path, plots=False).read_text()
    assert "## Projected seconds per answer" in text and "## Cost per task (projected on n100" in text
    assert "| m | reactxen | 1306 | 602 | **400** |" in text  # chosen profile first, in bold
    assert "| t1 | m | react | 3 | 653 | 301 | **202** | 4.0 | 9.0 | 0.0 | 1.0 | 0.5 |" in text
    assert "https://github.com/brand-o/normiebench/issues/38" in text  # every figure's source is shown
    other = results.model_copy(update={"gateway": "orin"})
    assert "## Cost per task (projected on orin" in "\n".join(cost_sections(other, summarise(runs, 1)))
    assert cost_sections(results.model_copy(update={"gateways": []}), []) == []  # results from before profiles


def test_bench_refuses_an_unknown_gateway_before_running_anything(tmp_path):
    result = CliRunner().invoke(
        main, ["bench", "--tasks", "bench/tasks/pokmain.yaml", "--gateway", "cray-1", "--out", str(tmp_path / "o")]
    )
    assert result.exit_code == 2 and "unknown gateway profile 'cray-1'" in result.output
    assert not (tmp_path / "o").exists()
    assert PROFILES_FILE.name == "gateways.yaml"
