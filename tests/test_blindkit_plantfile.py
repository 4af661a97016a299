"""The plant file (bench/blindkit/plantfile.py, docs/plants.md): its expression language accepts only its declarative
subset and says clearly what it rejects; a plant drawn from YAML is byte-identical to the same plant drawn with the
generator's Python API (the same draws in the same order); every committed plant.yaml compiles."""

from __future__ import annotations

import datetime as dt
import textwrap

import numpy as np
import pytest
import yaml
from hypothesis import given, settings
from hypothesis import strategies as st

from edge_agent import PROJECT_ROOT
from edge_agent.evaluation.plantkit import generator as kit
from edge_agent.evaluation.plantkit.expr import ExprError, compile_expr
from edge_agent.evaluation.plantkit.plantfile import PlantFile, PlantFileError

PIECES = frozenset({"f", "where", "noise"})


# ----- the expression language -------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("text", "says"),
    [
        ("np.where(a, 1, 2)", "an attribute"),
        ("x.clip(0, 1)", "an attribute"),
        ("(lambda: 1)()", "a lambda"),
        ("[v for v in a]", "a comprehension"),
        ("a[1:2]", "a slice"),
        ("f(*a)", "a starred argument"),
        ("f(**a)", "a ** argument"),
        ("(y := 2)", "an assignment expression"),
        ("f'{a}'", "an f-string"),
        ("{1, 2}", "a set"),
        ("open('x')", "unknown piece 'open'"),
        ("__import__('os')", "unknown piece '__import__'"),
        ("a(1)", "unknown piece 'a'"),
        ("where", "is a piece: call it"),
        ("1 +", "not an expression"),
        ("a; b", "not an expression"),
        ("b'x'", "a constant of type bytes"),
        ("a @ b", "the operator MatMult"),
    ],
)
def test_rejected_expressions_name_the_construct(text: str, says: str) -> None:
    with pytest.raises(ExprError) as e:
        compile_expr(text, PIECES)
    assert says in str(e.value)
    assert repr(text) in str(e.value)


def test_an_expression_may_run_over_lines() -> None:
    """A YAML block scalar holds a long expression over lines; an error names the line and the column."""
    assert compile_expr("a +\n  b if a else 0  # a comment\n", PIECES)({"a": 1, "b": 2}) == 3
    with pytest.raises(ExprError, match=r"not np.where\(...\)\) is not allowed at line 2 column 5"):
        compile_expr("a +\n    np.x", PIECES)


def test_an_integer_power_is_bounded() -> None:
    e = compile_expr("a ** b", PIECES)
    assert e({"a": 2, "b": 10}) == 1024
    with pytest.raises(ExprError, match="integer power over 64"):
        e({"a": 9, "b": 999999})


def test_an_unknown_name_is_said_when_read() -> None:
    e = compile_expr("a + missing", PIECES)
    assert e.names == {"a", "missing"}
    with pytest.raises(ExprError, match="unknown name 'missing'"):
        e({"a": 1})


def test_python_order_and_laziness() -> None:
    """Arguments left to right, a dict's key before its value, and only the branch taken is evaluated."""
    seen: list[str] = []

    def f(tag: str) -> int:
        seen.append(tag)
        return 1

    env = {"f": f, "c": False}
    compile_expr("f('a') + f('b') * f('c')", PIECES)(env)
    compile_expr("{f('k'): f('v')}", PIECES)(env)
    compile_expr("f('yes') if c else f('no')", PIECES)(env)
    compile_expr("c and f('and')", PIECES)(env)
    compile_expr("1 < 0 < f('chained')", PIECES)(env)
    assert seen == ["a", "b", "c", "k", "v", "no"]
    assert compile_expr("c is not None and x is None", PIECES)({"c": 1, "x": None}) is True


# Arithmetic trees over small numbers: the evaluator gives what Python gives, built without eval.
_OPS = {"+": lambda a, b: a + b, "-": lambda a, b: a - b, "*": lambda a, b: a * b}
_leaf = st.integers(-50, 50).map(lambda v: (f"({v})", v)) | st.sampled_from([("a", 3), ("b", -7)])


def _node(children: st.SearchStrategy) -> st.SearchStrategy:
    return st.tuples(children, st.sampled_from(sorted(_OPS)), children).map(
        lambda t: (f"({t[0][0]} {t[1]} {t[2][0]})", _OPS[t[1]](t[0][1], t[2][1]))
    ) | st.tuples(children, children, children).map(
        lambda t: (f"({t[1][0]} if {t[0][0]} > 0 else {t[2][0]})", t[1][1] if t[0][1] > 0 else t[2][1])
    )


@given(st.recursive(_leaf, _node, max_leaves=12))
def test_arithmetic_matches_python(case: tuple[str, int]) -> None:
    text, value = case
    assert compile_expr(text, PIECES)({"a": 3, "b": -7}) == value


@settings(max_examples=300)
@given(st.text(max_size=40))
def test_any_text_compiles_or_says_why(text: str) -> None:
    """Whatever the text, the compiler accepts it or raises ExprError, nothing else."""
    try:
        compile_expr(text, PIECES)
    except ExprError as e:
        assert e.msg


_FORBIDDEN = ["np.x", "(lambda: 1)", "[v for v in a]", "a[0:1]", "(y := 1)", "open(a)"]


@given(st.recursive(_leaf, _node, max_leaves=6), st.sampled_from(_FORBIDDEN), st.booleans())
def test_a_forbidden_construct_anywhere_is_rejected(case: tuple[str, int], bad: str, left: bool) -> None:
    text = f"({bad} + {case[0]})" if left else f"({case[0]} * {bad})"
    with pytest.raises(ExprError) as e:
        compile_expr(text, PIECES)
    assert e.value.col is not None


# ----- the plant file ----------------------------------------------------------------------------------------------
PLANT_YAML = textwrap.dedent(
    """\
    seed: 4711
    start: 2026-10-24
    end: 2026-10-27
    sites:
      - {key: lon, dis: London Site, zone: Europe/London, tz: London, city: London}
      - {key: per, dis: Perth Site, zone: Australia/Perth, tz: Perth, city: Perth}
    draw:
      - site: lon
      - let:
          D25: 2026-10-25
          run: ~mask(D25, 1.0, 2.5)
          kw: where(run, 50.0 + daily(5.0, 14.0) + clipn(1.0, 2.5), 0.0)
          totals: []
      - let: {kw: "put(kw, '2026-10-26', {9.0: 80.0, 9.25: 81.5})"}
      - equip: {code: e01, dis: Pump 1, markers: [pump, water]}
        points:
          - {nav: Power, unit: kW, tags: [elec, power, sensor], value: kw}
          - {nav: Energy, unit: kWh, tags: [elec, energy, sensor], value: "register(kw, 1000.0)"}
          - let: {temp: "20.0 + noise(0.5)"}
          - {nav: Temp, unit: °C, tags: [temp, sensor], value: temp, keep: "keep_gap(D25, 3.0, 2.0)"}
          - {nav: Run, kind: Bool, tags: [run, sensor], value: run}
      - for: [i, q0]
        in: [[1, 10.0], [2, 12.5]]
        do:
          - let:
              q: q0 + (noise(0.2) if i == 2 else per_day(0.1))
              totals: totals + [q]
          - if: i == 1
            then:
              - let: {q: "where(hours(22.0, 6.0), 0.0, q)"}
          - equip: {code: "e{1 + i:02d}", dis: "Fan {i}", markers: [fan]}
            points:
              - {nav: Flow, unit: m³/h, tags: [air, flow, sensor], value: q}
      - point: {equip: e01, nav: Fans Flow, unit: m³/h, tags: [air, flow, sensor], value: sum(totals)}
      - site: per
      - recur:
          state: {level: 50.0}
          step: {level: "min(90.0, max(10.0, level + (2.0 if hour < 12.0 else -1.5) * 0.25))"}
      - equip: {code: e01, dis: Tank, markers: [tank]}
        points:
          - {nav: Level, unit: "%", tags: [level, sensor], value: level + noise(0.1), desc: "{len(totals)} fans"}
    """
)


def _by_api() -> tuple[bytes, bytes]:
    """The same plant with the generator's Python API, as a make_plant.py would draw it."""
    g = kit.Plant(4711, dt.date(2026, 10, 24), dt.date(2026, 10, 27))
    lon = g.site("lon", "London Site", "Europe/London", "London", "London")
    per = g.site("per", "Perth Site", "Australia/Perth", "Perth", "Perth")
    s = lon
    d25 = dt.date(2026, 10, 25)
    run = ~s.mask(d25, 1.0, 2.5)
    kw = np.where(run, 50.0 + kit.daily(s, 5.0, 14.0) + g.clipn(s, 1.0, 2.5), 0.0)
    totals = []
    kit.put(s, kw, dt.date(2026, 10, 26), {9.0: 80.0, 9.25: 81.5})
    e = g.equip(s, "e01", "Pump 1", ["pump", "water"])
    g.point(e, "Power", "Number", "kW", ["elec", "power", "sensor"], kw)
    g.point(e, "Energy", "Number", "kWh", ["elec", "energy", "sensor"], kit.register(s, kw, 1000.0))
    temp = 20.0 + g.noise(s, 0.5)
    g.point(e, "Temp", "Number", "°C", ["temp", "sensor"], temp, kit.keep_gap(s, d25, 3.0, 2.0))
    g.point(e, "Run", "Bool", None, ["run", "sensor"], run)
    for i, q0 in ((1, 10.0), (2, 12.5)):
        q = q0 + (g.noise(s, 0.2) if i == 2 else g.per_day(s, 0.1))
        totals.append(q)
        if i == 1:
            q = np.where(s.hours(22.0, 6.0), 0.0, q)
        f = g.equip(s, f"e{1 + i:02d}", f"Fan {i}", ["fan"])
        g.point(f, "Flow", "Number", "m³/h", ["air", "flow", "sensor"], q)
    g.point(e, "Fans Flow", "Number", "m³/h", ["air", "flow", "sensor"], sum(totals))
    s = per
    level = np.zeros(s.n)
    cur = 50.0
    for k in range(s.n):
        cur = min(90.0, max(10.0, cur + (2.0 if s.hour[k] < 12.0 else -1.5) * 0.25))
        level[k] = cur
    t = g.equip(s, "e01", "Tank", ["tank"])
    g.point(t, "Level", "Number", "%", ["level", "sensor"], level + g.noise(s, 0.1), desc="2 fans")
    return g.build([lon, per])


def test_a_plant_file_draws_what_the_python_api_draws() -> None:
    pf = PlantFile(yaml.safe_load(PLANT_YAML), "test")
    assert pf.build() == _by_api()


def test_check_compiles_without_drawing() -> None:
    assert PlantFile(yaml.safe_load(PLANT_YAML), "test").check() > 15


@pytest.mark.parametrize(
    ("change", "says"),
    [
        (("- site: lon", "- site: nowhere"), "unknown site 'nowhere'"),
        (("      totals: []", "      where: []"), "'where' is taken"),
        (("      totals: []", "      on: []"), "YAML reads on, off, yes, no"),
        (("value: kw}", "value: kw, colour: red}"), "unknown key(s) ['colour']"),
        (("- point: {equip: e01,", "- point: {equip: e09,"), "no equip 'e09'"),
        (('value: "register(kw, 1000.0)"', 'value: "kw.cumsum()"'), "an attribute"),
        (("- site: per", "- sight: per"), "one of site, let, equip"),
        (("in: [[1, 10.0], [2, 12.5]]", "in: [[1, 10.0], [2]]"), "does not give 2 values"),
        (("value: sum(totals)", "value: totals"), "values, the site has"),
    ],
)
def test_a_bad_plant_file_says_where_and_why(change: tuple[str, str], says: str) -> None:
    old, new = change
    assert old in PLANT_YAML
    pf = PlantFile(yaml.safe_load(PLANT_YAML.replace(old, new, 1)), "test")
    with pytest.raises((PlantFileError, ExprError)) as e:
        pf.build()
    assert says in str(e.value)


@pytest.mark.parametrize(
    "path", sorted((PROJECT_ROOT / "bench").glob("blind*/plant.yaml")), ids=lambda p: p.parent.name
)
def test_every_committed_plant_file_compiles(path) -> None:
    """Every expression of every set's plant.yaml compiles (the full draw, compared byte for byte with the committed
    files, is `python bench/blindkit/make.py --check bench/blindN`: seconds a set)."""
    assert PlantFile.load(path).check() > 0


def test_the_documented_example_draws() -> None:
    """docs/plants.md's example plant.yaml is a plant that draws."""
    import re

    doc = (PROJECT_ROOT / "docs" / "plants.md").read_text(encoding="utf-8")
    example = re.findall(r"```yaml\n(.*?)```", doc[doc.index("## A plant as data") :], re.S)[0]
    js, gz = PlantFile(yaml.safe_load(example), "docs/plants.md").build()
    assert b'"navName":"Motor Power"' in js and len(gz) > 1000


# ----- tables, shared recipes, streams of their own, the operator layout (the generated plants) ---------------------
@pytest.mark.parametrize(
    "path",
    [p for p in sorted((PROJECT_ROOT / "bench" / "plants").glob("*.yaml")) if p.stem not in ("field", "questions")],
    ids=lambda p: p.stem,
)
def test_every_generated_plant_file_compiles_with_its_recipe(path) -> None:
    """A generated plant's file and the recipe it includes compile (the full draw: bench/generate_plants.py --check)."""
    assert PlantFile.load(path).check() > 40


SHARED = """
- table: {names: [Pump 1, Pump 2], unit: kW}
- for: name
  in: names
  do:
    - let: {r: "stream('7|' + name)", i: i + 1}
    - equip: {code: "e{i}", dis: "{name}", markers: "['pump', {'manufacturer': 'Acme'}] if i == 1 else ['pump']"}
      points:
        - recur:
            state: {left: 0}
            step:
              hole: 2 if left == 0 and rand(r) < 0.05 else left
              left: hole - 1 if hole else 0
              v: "nan if hole else round_to(5.0 + gauss(r, 0, 1), 2)"
        - {nav: Power, unit: "{unit}", tags: "[{'enum': 'a,b'}] + ['power', 'sensor']", value: v, keep: hole == 0}
"""


def test_a_table_an_include_and_streams_of_their_own(tmp_path) -> None:
    """`table` binds words as written, `include` runs a shared file's statements, `stream(text)` draws Python's own
    numbers (a point's history on its own stream), `round_to` rounds as Python does, and the operator layout writes the
    records by site with valued tags and `g` numbers."""
    import gzip
    import json
    import random

    (tmp_path / "shared.yaml").write_text(SHARED, encoding="utf-8")
    doc = {
        "seed": 1,
        "start": dt.date(2026, 3, 28),
        "end": dt.date(2026, 3, 30),
        "format": "operator",
        "sites": [{"key": "x.s0", "dis": "X", "zone": "Europe/Berlin", "tz": "Berlin", "city": "Bonn"}],
        "draw": [{"site": "x.s0"}, {"let": {"i": 0}}, {"include": "shared.yaml"}],
    }
    pf = PlantFile(doc, str(tmp_path / "x.yaml"))
    assert pf.check() > 5
    js, gz = pf.build()
    rows = json.loads(js)["rows"]
    assert js.endswith(b"\n") and [r["dis"] for r in rows] == ["X", "Pump 1", "Pump 1 Power", "Pump 2", "Pump 2 Power"]
    assert rows[1]["manufacturer"] == "Acme" and "manufacturer" not in rows[3] and rows[2]["enum"] == "a,b"
    assert list(rows[2])[:8] == ["id", "dis", "navName", "point", "his", "kind", "tz", "equipRef"]
    lines = gzip.decompress(gz).decode().splitlines()[1:]
    r, want, left = random.Random("7|Pump 1"), [], 0  # the same draws in Python
    for _ in range(92 + 96):  # 2026-03-29 has 23 hours in Berlin
        hole = 2 if left == 0 and r.random() < 0.05 else left
        left = hole - 1 if hole else 0
        if not hole:
            want.append(f"{round(5.0 + r.gauss(0, 1), 2):g}")
    assert [ln.split(",")[2] for ln in lines if ln.startswith("x.s0.e1.p0,")] == want


@given(st.floats(min_value=-1e6, max_value=1e6, allow_nan=False))
@settings(max_examples=200, deadline=None)
def test_round_to_is_pythons_round(x: float) -> None:
    from edge_agent.evaluation.plantkit.functions import NUMPY

    assert NUMPY["round_to"](x, 2) == round(x, 2)
    assert list(NUMPY["round_to"]([x, x], 1)) == [round(x, 1)] * 2
    assert NUMPY["round_to"](x) == round(x) and isinstance(NUMPY["round_to"](x), int)
