"""The analysis task set (bench/tasks/analysis.yaml): generated deterministically and current, ≥ 60 generated
tasks over the simulator's six sites in every family, ≥ 10 hand-written ones, and every task fits the simulator."""

from __future__ import annotations

import importlib.util
from collections import Counter
from zoneinfo import ZoneInfo

from edge_agent import PROJECT_ROOT
from edge_agent.evaluation.checker import validate_task
from edge_agent.evaluation.tasks import load_tasks
from edge_agent.evaluation.truth import CachedTruth, SkySparkTruth
from edge_agent.skyspark.plant_layout import SITES

TASKS = PROJECT_ROOT / "bench" / "tasks"
SITE_TZ = {s.name: ZoneInfo(s.tz) for s in SITES}


def _generator():
    spec = importlib.util.spec_from_file_location("generate_analysis", PROJECT_ROOT / "bench" / "generate_analysis.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_generator_is_deterministic_and_the_committed_file_is_current():
    gen = _generator()
    first = gen.render(gen.DEFAULT_SEED)
    assert first == gen.render(gen.DEFAULT_SEED)
    assert gen.render(gen.DEFAULT_SEED + 1) != first
    assert (TASKS / "analysis.yaml").read_text(encoding="utf-8") == first, (
        "analysis.yaml is stale: run python bench/generate_analysis.py"
    )


def test_families_sites_and_hand_written_tasks():
    tf = load_tasks(TASKS / "analysis.yaml")
    generated = [t for t in tf.tasks if "hand-written" not in t.tags]
    hand = [t for t in tf.tasks if "hand-written" in t.tags]
    assert len(generated) >= 60 and len(hand) >= 10
    families = Counter(t.tags[1] for t in generated)
    assert set(families) == {f.replace("_", "-") for f in _generator().FAMILIES}
    assert min(families.values()) >= 5
    text = " ".join(t.question for t in tf.tasks)
    assert all(site in text for site in SITE_TZ)
    kinds = {k for t in tf.tasks for k in t.expect.kinds()}
    assert {"ranks", "yes_no", "refuses", "value", "energy", "count"} <= kinds
    answers = Counter(t.tags[-1] for t in tf.tasks if t.expect.yes_no)
    assert answers["yes"] >= 5 and answers["no"] >= 5  # both answers are asked for
    assert {t.expect.ranks.by for t in tf.tasks if t.expect.ranks} == {"max", "min", "mean", "energy"}
    assert len({t.question for t in tf.tasks}) >= 0.9 * len(tf.tasks)


def test_every_analysis_task_fits_the_simulator(skyspark_client):
    truth = CachedTruth(SkySparkTruth(skyspark_client))
    problems = []
    for task in load_tasks(TASKS / "analysis.yaml").tasks:
        problems += validate_task(task, truth)
    assert problems == []
