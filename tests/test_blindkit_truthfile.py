"""A blind set's truth as data (bench/blindkit/truthfile.py, docs/plants.md "The truth"): every committed truth.yaml
reads into the tables its checks take, a misspelt or misplaced key is refused, a reading's words and overrides come
out as the checks take them, the three generations of checks regenerate their sets' truth.md byte for byte, and a set
still written as a truth.py of module globals runs through the same command (and converts back to the same tables).
The full regeneration of every set is `python bench/blindkit/truth.py --check bench/blindN` (seconds a set)."""

from __future__ import annotations

import hashlib
import importlib.util

import pytest
import yaml

from edge_agent import PROJECT_ROOT
from edge_agent.evaluation.plantkit.first import FirstTruth
from edge_agent.evaluation.plantkit.slots import SlotTruth
from edge_agent.evaluation.plantkit.truth import Truth
from edge_agent.evaluation.plantkit.truthfile import TruthFileError, load, reading, run, tables

BENCH = PROJECT_ROOT / "bench"

SETS = sorted(BENCH.glob("blind*/truth.yaml"))


@pytest.mark.parametrize("path", SETS, ids=lambda p: p.parent.name)
def test_every_committed_truth_file_reads(path) -> None:
    """Each truth.yaml names its checks and reads into tables of the types they take; the set has no truth.py."""
    cls, ns = tables(yaml.safe_load(path.read_text(encoding="utf-8")), str(path))
    assert issubclass(cls, Truth) and ns["HEAD"].startswith("# Blind set")
    assert not (path.parent / "truth.py").exists()
    for tid, pairs in {**ns.get("WRONG", {}), **ns.get("RIGHT_TOO", {})}.items():
        assert all(isinstance(what, str) and isinstance(over, dict) for what, over in pairs), tid
    assert all(isinstance(v, int | tuple) for v in ns.get("SAMPLES", {}).values())
    assert all(isinstance(v, set) for v in ns.get("MISSING_TAGS", {}).values())


def test_every_kit_set_is_data() -> None:
    """Sets 3 to 22 each have a plant.yaml and a truth.yaml, and no Python of their own."""
    for n in range(3, 23):
        here = BENCH / f"blind{n}"
        assert (here / "plant.yaml").exists() and (here / "truth.yaml").exists(), here
        assert not list(here.glob("*.py")), here


@pytest.mark.parametrize(
    ("doc", "says"),
    [
        ({"head": "x", "wrongs": {}}, "no table 'wrongs'"),
        ({"head": "x", "intent": {}}, "read by the checks first"),
        ({"head": "x", "truth": "third"}, "none of shared, first, slots"),
        ({"words": {}}, "at least `head`"),
    ],
)
def test_a_misspelt_or_misplaced_key_is_refused(doc, says) -> None:
    with pytest.raises(TruthFileError) as e:
        tables(doc)
    assert says in str(e.value)


def test_a_reading_is_its_words_and_its_overrides() -> None:
    doc = yaml.safe_load(
        "head: x\n"
        "wrong:\n"
        "  t-1:\n"
        "    - {what: the day before, whole_days: [2026-10-19, 2026-10-20, '+03:00']}\n"
        "    - {what: across the change, whole_days: [2026-10-24, 2026-10-26, '+02:00', '+01:00'], order: lowest}\n"
        "    - {what: a fixed limit, limit_sensor: null, limit: 32.0}\n"
        "samples: {t-1: 100, t-2: [676, 672]}\n"
        "clock: {t-3: [2026-10-28, 9.0, 17.5]}\n"
    )
    _, ns = tables(doc)
    assert ns["WRONG"]["t-1"] == [
        ("the day before", {"start": "2026-10-19T00:00:00+03:00", "end": "2026-10-20T00:00:00+03:00"}),
        (
            "across the change",
            {"order": "lowest", "start": "2026-10-24T00:00:00+02:00", "end": "2026-10-26T00:00:00+01:00"},
        ),
        ("a fixed limit", {"limit_sensor": None, "limit": 32.0}),
    ]
    assert ns["SAMPLES"] == {"t-1": 100, "t-2": (676, 672)}
    assert ns["CLOCK"] == {"t-3": ("2026-10-28", 9.0, 17.5)}
    assert reading({"what": "w", "sensor": "SAT"}) == ("w", {"sensor": "SAT"})


@pytest.mark.parametrize(("name", "cls"), [("blind3", FirstTruth), ("blind11", SlotTruth), ("blind18", Truth)])
def test_each_generation_regenerates_its_truth_md(name, cls) -> None:
    """One set of each generation (blind 18 with a clock window, a `_plus` and `_sum_kw` reading and the candidates of
    an ambiguous question): the truth.md computed from truth.yaml is the committed one, byte for byte."""
    t = load(BENCH / name / "truth.yaml")
    assert type(t) is cls
    t.write = False
    assert t.main() == 0
    assert t.text.encode() == (BENCH / name / "truth.md").read_bytes()


def test_a_set_on_its_own_truth_py_still_runs_and_converts(tmp_path) -> None:
    """A set written the old way (its tables as a truth.py's globals) runs through the command, its truth.md put back
    under --check; the converter turns it into a truth.yaml of the same tables."""
    here = tmp_path / "blind3"
    here.mkdir()
    for f in ("plant.json", "plant.csv.gz", "blind.yaml", "truth.md"):
        (here / f).symlink_to(BENCH / "blind3" / f)
    _, ns = tables(yaml.safe_load((BENCH / "blind3" / "truth.yaml").read_text(encoding="utf-8")))
    (here / "truth.py").write_text(
        "import sys\n"
        "from pathlib import Path\n"
        "HERE = Path(__file__).resolve().parent\n"
        f"sys.path.insert(0, {str(PROJECT_ROOT)!r})\n"
        "from edge_agent.evaluation.plantkit.first import FirstTruth\n"
        + "".join(f"{k} = {v!r}\n" for k, v in ns.items())
        + "if __name__ == '__main__':\n"
        "    sys.exit(FirstTruth(HERE, globals()).main())\n"
    )
    md = (here / "truth.md").resolve().read_bytes()
    (here / "truth.md").unlink()
    (here / "truth.md").write_bytes(b"old\n")
    rc, text = run(here, check=True)
    assert rc == 0 and hashlib.sha256(text).digest() == hashlib.sha256(md).digest()
    assert (here / "truth.md").read_bytes() == b"old\n"  # --check put it back

    spec = importlib.util.spec_from_file_location("truth_py_to_yaml", PROJECT_ROOT / "scripts" / "truth_py_to_yaml.py")
    assert spec and spec.loader
    conv = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(conv)
    _, again = tables(yaml.safe_load(conv.convert(here)))
    assert again == ns
