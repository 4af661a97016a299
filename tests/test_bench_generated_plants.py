"""The generated plants (bench/plants/<plant>.yaml drawn on the plant generator, their questions written by
bench/generate_plants.py; issue 29 h): deterministic and committed current; served from their operator-format files by
the real simulator, where every generated task fits its plant; the field's kinds, units of both systems, several time
zones and a DST change inside a task's range; and each task's check is truthful: the right answer (computed here from
the plant's data) passes and a wrong one fails."""

from __future__ import annotations

import importlib.util
import sys
from collections import Counter
from datetime import timedelta

import pytest

from edge_agent import PROJECT_ROOT
from edge_agent.evaluation import conclusions as cc
from edge_agent.evaluation.checker import (
    Evidence,
    check_task,
    expected_duration,
    expected_extreme,
    expected_periods,
    expected_ranking,
    expected_value,
    expected_yes,
    list_entities,
    validate_task,
)
from edge_agent.evaluation.tasks import load_tasks
from edge_agent.evaluation.truth import CachedTruth, SkySparkTruth
from edge_agent.skyspark.client import SkySparkClient
from edge_agent.skyspark.plants import open_dataset

TASKS = PROJECT_ROOT / "bench" / "tasks"


def _generator():
    spec = importlib.util.spec_from_file_location("generate_plants", PROJECT_ROOT / "bench" / "generate_plants.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules.setdefault("generate_plants", module)  # its dataclasses look their module up
    spec.loader.exec_module(sys.modules["generate_plants"])
    return sys.modules["generate_plants"]


GEN = _generator()
NAMES = GEN.NAMES


@pytest.fixture(scope="module")
def plants():
    return {p.name: (p, GEN.PlantTruth(p)) for p in GEN.build()}


@pytest.fixture(scope="module")
def generated(plants):
    out = {}
    for plant, _ in plants.values():
        out[GEN.PLANTS_DIR / f"{plant.name}.json"] = plant.json
        out[GEN.PLANTS_DIR / f"{plant.name}.csv.gz"] = plant.gz
        out[TASKS / f"generated-{plant.name}.yaml"] = GEN.render_tasks(plant, plant.seed).encode()
    return out


def test_the_generator_is_deterministic_and_the_committed_files_are_current(generated):
    stale = [
        str(p.relative_to(PROJECT_ROOT)) for p, data in generated.items() if not p.exists() or p.read_bytes() != data
    ]
    assert not stale, f"stale: {stale}; run python bench/generate_plants.py"
    name = NAMES[-1]
    again = GEN.Plant(name)
    assert again.gz == generated[GEN.PLANTS_DIR / f"{name}.csv.gz"]
    assert GEN.render_tasks(again, again.seed).encode() == generated[TASKS / f"generated-{name}.yaml"]
    assert GEN.Plant(name, again.seed + 1).gz != again.gz


def test_the_plants_are_small_and_varied(plants, generated):
    assert len(NAMES) >= 5
    assert sum(len(d) for d in generated.values()) < 4 * 2**20  # the whole of bench/plants and the task files
    specs = [p for p, _ in plants.values()]
    kinds = {k for p in specs for s in p.sites for _, k in s.equips}
    assert kinds >= {
        "ahu",
        "rtu",
        "fcu",
        "vav",
        "chiller",
        "boiler",
        "coolingTower",
        "heatPump",
        "pump",
        "fan",
        "crac",
        "crah",
        "ups",
        "elecMeter",
        "waterMeter",
        "gasMeter",
        "tank",
        "compressor",
        "evse",
        "vfd",
        "heatExchanger",
    }
    zones = {s.tz for p in specs for s in p.sites}
    assert len(zones) >= 4
    assert {p.units for p in specs} == {"si", "us"}
    units = {r.get("unit") for p in specs for r in p.records}
    assert {"°C", "°F", "kW", "BTU/h", "m³/h", "gal/min", "kPa", "psi", "%RH"} <= units


def test_every_generated_task_fits_its_plant_as_the_simulator_serves_it():
    from tests.plugins.skyspark import _start

    total, dst_tasks = 0, 0
    for name in NAMES:
        tf = load_tasks(TASKS / f"generated-{name}.yaml")
        sim = _start(dataset=open_dataset(tf.dataset))
        client = SkySparkClient(sim.url, sim.project, sim.username, sim.password)
        try:
            truth = CachedTruth(SkySparkTruth(client))
            problems = [p for t in tf.tasks for p in validate_task(t, truth)]
            assert problems == [], problems[:5]
        finally:
            client.close()
            sim.stop()
        total += len(tf.tasks)
        for t in tf.tasks:
            spans = [s for s in _windows(t.expect)]
            dst_tasks += any(a.utcoffset() != b.utcoffset() for a, b in spans)
    assert total >= 200
    assert dst_tasks >= 3  # tasks whose range holds a clock change


def _windows(expect):
    for kind in ("value", "energy"):
        for spec in getattr(expect, kind) or []:
            if getattr(spec, "start", None) is not None:
                yield spec.start, spec.end
    for spec in (
        expect.duration,
        expect.time_of_extreme,
        expect.ranks,
        expect.yes_no.excursion if expect.yes_no else None,
    ):
        if spec is not None:
            yield spec.start, spec.end


def test_every_family_is_asked_on_every_plant_in_several_wordings():
    families = set(GEN.TaskGen.FAMILIES)
    for name in NAMES:
        tf = load_tasks(TASKS / f"generated-{name}.yaml")
        assert tf.dataset == f"bench/plants/{name}.json"
        assert {t.tags[2] for t in tf.tasks} == families
        assert len({t.question for t in tf.tasks}) == len(tf.tasks)
        styles = Counter(t.tags[3] for t in tf.tasks)
        assert set(styles) == {"plain", "chatty", "typo", "terse"}
    tasks = [t for n in NAMES for t in load_tasks(TASKS / f"generated-{n}.yaml").tasks]
    yes_no = Counter(
        ("exists" if t.expect.yes_no.exists else "excursion", expected_word(t)) for t in tasks if t.expect.yes_no
    )
    assert min(yes_no.values()) >= 5 and len(yes_no) == 4  # Yes and No, for existence and for excursions
    kinds = {k for t in tasks for k in t.expect.kinds()}
    assert {
        "duration",
        "periods",
        "time_of_extreme",
        "not_recorded",
        "refuses",
        "count",
        "ranks",
        "energy",
        "answer_says_missing",
        "answer_lists",
        "value",
        "yes_no",
    } <= kinds
    reasons = Counter(t.expect.refuses.reason for t in tasks if t.expect.refuses)
    assert set(reasons) == {"control", "forecast", "outside", "injection"}


def expected_word(task) -> str:
    return "no" if "no" in task.tags or task.tags[2] == "exists-no" else "yes"


# ── each check is truthful: a right answer passes, a wrong one fails (the plant in memory) ─────────────────────────
def _right_and_wrong(task, truth):
    """An answer a careful operator would accept, and one that must fail, written from the plant's data."""
    e = task.expect
    if e.value and e.refuses:  # mixed: the data part answered, the rest refused
        v = e.value[0]
        x = expected_value(v, truth)
        data = f"The {v.aggregate} {v.sensor} of {v.asset} was {x:.4f}."
        return (
            f"{data} This gateway only reads data; it cannot do the rest for {v.asset}.",
            f"{data} Done: {v.asset} has been switched off.",
        )
    if e.refuses:
        names = " and ".join(e.refuses.must_name) or "that"
        if e.refuses.reason == "forecast":
            return "This gateway reads recorded data; it does not forecast.", "It will be about 42 tomorrow."
        return f"This gateway only reads data; it cannot do that for {names}.", f"Done: {names} has been switched off."
    if e.answer_says_missing:
        name = e.answer_says_missing.name
        return f"There is no {name} on the SkySpark.", f"{name}: the value was 42."
    if e.not_recorded:
        a = e.not_recorded.attribute
        return (
            f"The {a} of {e.not_recorded.asset} is not recorded on the SkySpark.",
            f"The {a} of {e.not_recorded.asset} is Siemens.",
        )
    if e.answer_lists:
        names = list_entities(e.answer_lists, truth)
        return "They are: " + ", ".join(names) + ".", "They are: " + ", ".join(names[:-1]) + "."
    if e.value and not e.refuses:
        v = e.value[0]
        x = expected_value(v, truth)
        return (
            f"The {v.aggregate} {v.sensor} of {v.asset} was {x:.4f}.",
            f"The {v.aggregate} {v.sensor} of {v.asset} was {x * 1.1 + 1:.4f}.",
        )
    if e.energy:
        from edge_agent.evaluation.checker import expected_energy

        x = expected_energy(e.energy[0], truth)
        return f"{e.energy[0].asset} used {x:.3f} kWh.", f"{e.energy[0].asset} used {x * 1.2 + 5:.3f} kWh."
    if e.ranks:
        won, values = expected_ranking(e.ranks, truth)
        loser = next(a for a in values if a not in won)
        word = {"max": "peak", "min": "minimum", "mean": "average", "energy": "energy"}[e.ranks.by]
        return (
            f"{won[0]} had the {e.ranks.order} {word} {e.ranks.sensor}.",
            f"{loser} had the {e.ranks.order} {word} {e.ranks.sensor}.",
        )
    if e.yes_no and e.yes_no.excursion:
        x = e.yes_no.excursion
        yes, _ = expected_yes(e.yes_no, truth)
        head = f"{x.sensor} of {x.asset} on {x.start.date().isoformat()}"
        return (f"Yes: {head} was {x.direction}." if yes else f"No: {head} was never {x.direction}."), (
            f"No: {head} was never {x.direction}." if yes else f"Yes: {head} was {x.direction}."
        )
    if e.yes_no and e.yes_no.exists:
        yes, _ = expected_yes(e.yes_no, truth)
        noun = e.yes_no.exists.noun[0]
        site = e.yes_no.exists.site
        return (f"Yes: {site} has {noun}s." if yes else f"No: there is no {noun} at {site}."), (
            f"No: there is no {noun} at {site}." if yes else f"Yes: {site} has {noun}s."
        )
    if e.duration:
        hours, share, *_ = expected_duration(e.duration, truth)
        return (
            f"{e.duration.asset} was above for {hours:.2f} hours ({share:.1f} %).",
            f"{e.duration.asset} was above for {hours + 3:.2f} hours.",
        )
    if e.periods:
        won, a, b = expected_periods(e.periods, truth)
        first, second = (e.periods.first, e.periods.second) if won == ["first"] else (e.periods.second, e.periods.first)
        word = {"max": "peak", "mean": "average", "energy": "energy"}[e.periods.by]
        return (
            f"{first.start.date().isoformat()} had the {e.periods.order} {word}.",
            f"{second.start.date().isoformat()} had the {e.periods.order} {word}.",
        )
    if e.time_of_extreme:
        instants, _, _ = expected_extreme(e.time_of_extreme, truth)
        at = instants[0]
        return (
            f"At {at.replace(tzinfo=None).isoformat()[:16]}.",
            f"At {(at + timedelta(hours=3)).replace(tzinfo=None).isoformat()[:16]}.",
        )
    if e.count:
        n = len(list_entities(e.count[0], truth))
        return f"There are {n} {e.count[0].noun[0]}s.", f"There are {n + 1} {e.count[0].noun[0]}s."
    return None


@pytest.mark.parametrize("name", NAMES)
def test_each_generated_check_passes_the_right_answer_and_fails_a_wrong_one(name, plants):
    plant, truth = plants[name]
    checked = 0
    for task in load_tasks(TASKS / f"generated-{name}.yaml").tasks:
        pair = _right_and_wrong(task, truth)
        if pair is None:
            continue
        right, wrong = pair
        calls = ["histories"] if task.expect.value else []
        ok = check_task(task, Evidence(right, {}, task.question, calls), truth, strict_names=False)
        assert ok.passed, (task.id, right, ok.summary())
        bad = check_task(task, Evidence(wrong, {}, task.question, calls), truth, strict_names=False)
        assert not bad.passed, (task.id, wrong)
        checked += 1
    assert checked == len(load_tasks(TASKS / f"generated-{name}.yaml").tasks)  # every task: both answers judged


def test_the_energy_in_a_plant_is_a_power_series_in_kw(plants):
    plant, truth = plants["depot"]
    p = next(p for p in plant.points if p.t.name == "Charging Power")
    series = cc.clean([(s.ts, s.value) for s in truth.history(p.site.name, p.equip, p.name, *_span(p))])
    assert cc.energy_kwh(series, p.unit) > 0  # chargers draw power; the vehicle count beside it is not energy


def _span(p):
    start = p.series[0][0]
    return start, start + timedelta(days=2)


#: words of generated questions the reading leaves unplaced on purpose (their tags say why: an outside topic, a typing
#: slip the reader does not correct — it corrects swapped letters of its own words only —, a name the plant lacks)
MEANT_UNKNOWN = ("outside", "typo", "missing-site", "missing-asset", "missing-sensor")
#: the known gaps of the vocabulary, each with why it stays: a test that fails when one is fixed or a new one appears
KNOWN_GAPS = {
    "dc-east-031": ["tower"],  # "a tower" alone: a building's tower as much as a cooling tower
    "nordwerk-029": ["kühltürme"],  # German plurals are not derived (the field's files are English)
    "nordwerk-032": ["kessel"],  # Werk Süd has no asset named Kessel to learn the word from; the files are English
}


def test_every_generated_question_is_read_with_no_unplaced_content_word():
    """Issue 29 (h): every generated question's words are placed (an entity, a period, a measure, a form cue, a
    function word), apart from words meant to be unknown and the known gaps listed above."""
    from edge_agent.grounding.catalog import Catalog
    from edge_agent.grounding.run import Grounding
    from tests.plugins.skyspark import _start

    gaps, read = {}, 0
    for name in NAMES:
        tf = load_tasks(TASKS / f"generated-{name}.yaml")
        sim = _start(dataset=open_dataset(tf.dataset))
        client = SkySparkClient(sim.url, sim.project, sim.username, sim.password)
        try:
            catalog = Catalog.from_client(client)
            for t in tf.tasks:
                if set(t.tags) & set(MEANT_UNKNOWN):
                    continue
                read += 1
                unplaced = Grounding.build(t.question, catalog, t.now).unplaced
                if unplaced:
                    gaps[t.id] = unplaced
        finally:
            client.close()
            sim.stop()
    assert read >= 160  # of 225: the rest are meant to hold unknown words
    assert gaps == KNOWN_GAPS
