"""The committed task sets: they load, cover the paper's categories, fit the simulator, and the
synthetic set is generated deterministically and is up to date."""

from __future__ import annotations

import importlib.util
from zoneinfo import ZoneInfo

import pytest

from edge_agent import PROJECT_ROOT
from edge_agent.evaluation.checker import validate_task
from edge_agent.evaluation.tasks import load_tasks
from edge_agent.evaluation.truth import CachedTruth, SkySparkTruth
from edge_agent.skyspark.plant_layout import SITES

TASKS = PROJECT_ROOT / "bench" / "tasks"
SITE_TZ = {s.name: ZoneInfo(s.tz) for s in SITES}


def _generator():
    spec = importlib.util.spec_from_file_location(
        "generate_synthetic", PROJECT_ROOT / "bench" / "generate_synthetic.py"
    )
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_synthetic_generator_is_deterministic_and_committed_file_is_current():
    gen = _generator()
    first, second = gen.render(gen.DEFAULT_SEED), gen.render(gen.DEFAULT_SEED)
    assert first == second
    assert gen.render(gen.DEFAULT_SEED + 1) != first
    assert (TASKS / "synthetic.yaml").read_text(encoding="utf-8") == first, (
        "synthetic.yaml is stale: run python bench/generate_synthetic.py"
    )


def _instants(task):
    e = task.expect
    for spec in e.file or []:
        yield spec.site, spec.start
        yield spec.site, spec.end
    for spec in e.value or []:
        for when in (spec.start, spec.end, spec.at):
            if when is not None:
                yield spec.site, when


@pytest.mark.parametrize("name", ["pokmain", "rchmain", "synthetic"])
def test_task_files_load_and_times_carry_the_site_offset(name):
    tf = load_tasks(TASKS / f"{name}.yaml")
    for task in tf.tasks:
        sites = {site for site, _ in _instants(task)}
        for site, when in _instants(task):
            local = when.astimezone(SITE_TZ[site])
            assert when.utcoffset() == local.utcoffset(), f"{task.id}: {when} is not in {site}'s local offset"
        for site in sites:  # the agent's clock is in the site's offset too
            assert task.now.utcoffset() == task.now.astimezone(SITE_TZ[site]).utcoffset(), task.id


def test_seed_sets_cover_the_papers_categories():
    pok, rch = load_tasks(TASKS / "pokmain.yaml"), load_tasks(TASKS / "rchmain.yaml")
    assert len(pok.tasks) == len(rch.tasks) == 20
    for tf, site in ((pok, "POKMAIN"), (rch, "RCHMAIN")):
        tags = {t for task in tf.tasks for t in task.tags}
        assert {
            "discovery",
            "relative-date",
            "multi-asset",
            "multi-sensor",
            "point",
            "interval",
            "near-miss",
            "missing",
            "merge",
            "count",
        } <= tags
        kinds = {k for task in tf.tasks for k in task.expect.kinds()}
        assert {"answer_lists", "answer_says_missing", "file", "value", "count"} <= kinds
        assert all(site in task.question or task.id.endswith("-01") for task in tf.tasks)
    # the RCHMAIN set is the POKMAIN set moved: same clocks in local time, same checks
    for p, r in zip(pok.tasks, rch.tasks):
        assert p.id[4:] == r.id[4:] and p.expect.kinds() == r.expect.kinds()
        assert p.now.replace(tzinfo=None) == r.now.replace(tzinfo=None)


def test_synthetic_set_is_large_varied_and_spans_three_sites():
    syn = load_tasks(TASKS / "synthetic.yaml")
    assert len(syn.tasks) >= 150
    text = " ".join(t.question for t in syn.tasks)
    for site in ("HQ3SBY", "HQ1ARM3", "AUSWEST"):
        assert text.count(site) >= 50
    assert len({t.question for t in syn.tasks}) >= 0.95 * len(syn.tasks)
    families = {t.tags[1] for t in syn.tasks}
    assert len(families) == 12
    multi = [t for t in syn.tasks if "multi-asset" in t.tags or "multi-sensor" in t.tags]
    assert len(multi) >= 40
    words = [len(t.question.split()) for t in syn.tasks]
    pok_words = [len(t.question.split()) for t in load_tasks(TASKS / "pokmain.yaml").tasks]
    assert sum(words) / len(words) > sum(pok_words) / len(pok_words)  # longer than the seed set
    assert max(words) >= 35


def test_every_task_fits_the_simulator(skyspark_client):
    truth = CachedTruth(SkySparkTruth(skyspark_client))
    problems = []
    for name in ("pokmain", "rchmain", "synthetic"):
        for task in load_tasks(TASKS / f"{name}.yaml").tasks:
            problems += validate_task(task, truth)
    assert problems == []
