"""The field's vocabulary (edge_agent/grounding/fieldvocab.py and the files under edge_agent/grounding/vocab/).

Properties over any marker and any unit the files hold, concrete cases from the field (Haystack / Brick kinds,
units of both systems), the hand-written words resolving to known quantities and markers, and the generator
reproducing the committed files byte for byte.
"""

from __future__ import annotations

import importlib.util
import json
import subprocess
import sys
from pathlib import Path

import pytest
import yaml
from hypothesis import given
from hypothesis import strategies as st

from edge_agent.grounding import fieldvocab as fv

ROOT = Path(__file__).resolve().parents[1]
VOCAB = ROOT / "edge_agent" / "grounding" / "vocab"
UNITS = json.loads((VOCAB / "units.json").read_text(encoding="utf-8"))
EQUIPMENT = json.loads((VOCAB / "equipment.json").read_text(encoding="utf-8"))
POINTS = json.loads((VOCAB / "point_tags.json").read_text(encoding="utf-8"))
WORDS = yaml.safe_load((VOCAB / "words.yaml").read_text(encoding="utf-8"))

lower_word = st.text(alphabet="abcdefghijklmnopqrstuvwxyz", min_size=2, max_size=8)
camel_marker = st.lists(lower_word, min_size=1, max_size=4).map(
    lambda ws: ws[0] + "".join(w.capitalize() for w in ws[1:])
)


# ------------------------------------------------------------------------------------------------ properties
@given(camel_marker)
def test_any_camel_case_marker_gets_a_label(marker: str) -> None:
    label = fv.kind_label(marker)
    assert label.marker == marker
    assert label.singular and label.plural
    if not label.known:  # a marker the files do not know is read as its words
        assert label.singular == " ".join(fv.marker_words(marker))
        assert fv.kinds_named(label.plural, available={marker, "zzUnrelated"}) == [marker]
        assert fv.kinds_named(label.singular.upper(), available={marker}) == [marker]


noun_word = st.builds(lambda stem, last: stem + last, lower_word, st.sampled_from("bdfgklmnprt"))


@given(st.lists(noun_word, min_size=1, max_size=3))
def test_plural_and_singular_round_trip(words: list[str]) -> None:
    # nouns ending in a plain consonant; "-s/-x/-z/-ch/-sh/-y/-e" endings are covered by the field nouns below
    # (English plurals are ambiguous there: "axes" is both "axe" and "axis")
    phrase = " ".join(words)
    assert fv.singular(fv.plural(phrase)) == phrase


@pytest.mark.parametrize(
    "noun",
    [
        "battery",
        "switch",
        "box",
        "glass",
        "case",
        "house",
        "valve",
        "heat pump",
        "chiller",
        "fan coil unit",
        "uninterruptible power supply",
        "cooling tower",
        "elevator",
    ],
)
def test_plural_of_field_nouns_round_trips(noun: str) -> None:
    assert fv.plural(noun) != noun
    assert fv.singular(fv.plural(noun)) == noun


def test_every_unit_in_the_file_has_its_quantity() -> None:
    assert len(UNITS["units"]) > 300
    for unit in UNITS["units"]:
        for symbol in unit["symbols"]:
            q = fv.quantity_of_unit(symbol)
            assert q is not None and q.name == unit["quantity"], (symbol, q, unit)
            assert q.summable == UNITS["quantities"][unit["quantity"]]["summable"]


def test_every_known_kind_is_labelled_and_named_back_by_its_labels() -> None:
    for kind in EQUIPMENT["kinds"]:
        m = kind["marker"]
        label = fv.kind_label(m)
        assert label.known and label.singular
        for name in (label.singular, label.plural, *kind["abbreviations"]):
            assert m in fv.kinds_named(name, available={m}), (m, name)
        for parent in kind["is"]:
            assert parent in fv.kind_parents(m)


def test_words_yaml_entries_resolve_to_known_quantities_and_markers() -> None:
    quantities = set(UNITS["quantities"])
    for entry in WORDS["measures"]:
        assert entry["quantity"] in quantities, entry
        assert entry.get("direction") in (None, "above", "below"), entry
        for word in entry["words"]:
            found = fv.quantities_named(str(word))
            assert fv.quantity(entry["quantity"]) in found, (word, found)
    known = fv.known_markers()
    for entry in WORDS["kinds"]:
        assert set(entry["markers"]) <= known
        for parent in entry.get("is", ()):
            assert parent in known, parent
        for word in entry["words"]:
            for form in (word, fv.plural(word)):
                assert set(fv.kinds_named(form, available=set(entry["markers"]))) == set(entry["markers"]), form


def test_point_tag_quantities_are_unit_database_quantities() -> None:
    quantities = set(UNITS["quantities"])
    assert {e["quantity"] for e in POINTS["quantities"]} <= quantities
    assert {p["quantity"] for p in POINTS["brick_points"] if "quantity" in p} <= quantities


def test_generated_files_are_small_sorted_and_stable_json() -> None:
    for name in ("equipment.json", "units.json", "point_tags.json"):
        text = (VOCAB / name).read_text(encoding="utf-8")
        assert len(text.encode()) < 300_000, name
        assert json.dumps(json.loads(text), ensure_ascii=False, indent=1, sort_keys=True) + "\n" == text


def test_structural_tags_are_not_kinds() -> None:
    for tag in ("equip", "his", "point", "site", "cur", "writable", "siteRef", "sensor", "sp"):
        assert tag in fv.STRUCTURAL_TAGS
    for kind in ("ahu", "chiller", "crac", "ups", "meter", "elecMeter"):
        assert kind not in fv.STRUCTURAL_TAGS


# ------------------------------------------------------------------------------------------------ the field
@pytest.mark.parametrize(
    ("marker", "singular", "abbreviation"),
    [
        ("crac", "computer room air conditioner", "CRAC"),
        ("ups", "uninterruptible power supply", "UPS"),
        ("ahu", "air handling unit", "AHU"),
        ("vfd", "variable frequency drive", "VFD"),
        ("doas", "dedicated outside air system", "DOAS"),
        ("heatPump", "heat pump", None),
        ("elecMeter", "electricity meter", None),
        ("coolingTower", "cooling tower", None),
    ],
)
def test_field_kinds_are_named_as_the_field_names_them(marker: str, singular: str, abbreviation: str | None) -> None:
    label = fv.kind_label(marker)
    assert label.singular == singular
    assert label.plural == fv.plural(singular)
    if abbreviation:
        assert abbreviation in label.abbreviations
        assert fv.kinds_named(abbreviation + "s", available={marker, "chiller"}) == [marker]


def test_kinds_named_among_what_a_catalog_carries() -> None:
    assert fv.kinds_named("air handlers", available={"ahu", "crac"}) == ["ahu"]
    assert fv.kinds_named("Air Handling Units", available={"ahu", "crac"}) == ["ahu"]
    assert fv.kinds_named("CRACs", available={"ahu", "crac"}) == ["crac"]
    assert fv.kinds_named("fridges", available={"refrigerator", "freezer", "chiller", "ahu"}) == [
        "freezer",
        "refrigerator",
    ]
    assert fv.kinds_named("ev chargers", available={"evCharger", "ahu"}) == ["evCharger"]
    assert fv.kinds_named("cold rooms", available={"coldRoom"}) == ["coldRoom"]
    # a kind includes the subkinds the catalog carries (Haystack: an rtu is an ahu), unless asked not to
    assert fv.kinds_named("air handlers", available={"rtu", "chiller"}) == ["rtu"]
    assert fv.kinds_named("air handlers", available={"rtu", "chiller"}, subkinds=False) == []
    assert fv.kinds_named("meters", available={"elecMeter", "chiller"}) == ["elecMeter"]
    assert fv.kinds_named("pumps", available={"heatPump", "pump"}) == ["pump"]
    assert fv.kinds_named("roof top units", available={"rtu"}) == fv.kinds_named("rooftop units", available={"rtu"})
    assert fv.kinds_named("boilers", available={"chiller"}) == []


def test_kinds_of_an_equip_record() -> None:
    assert fv.kinds_of({"equip", "elec", "meter", "his", "siteRef"}) == ["elecMeter", "meter"]
    assert fv.kinds_of({"id", "equip", "hot", "water", "boiler"}) == ["hotWaterBoiler", "boiler"]
    assert fv.kinds_of({"equip", "crac", "fcu"}) == ["crac", "fcu"]  # the more specific kind first
    assert fv.kinds_of({"equip", "ahu", "siteRef", "dis"}) == ["ahu"]
    assert fv.kinds_of({"equip", "snowMelter"}) == ["snowMelter"]  # a kind the field does not define
    assert fv.kinds_of({"equip", "his", "point"}) == []


@given(camel_marker)
def test_kinds_of_keeps_any_undefined_marker(marker: str) -> None:
    if marker not in fv.STRUCTURAL_TAGS and marker not in EQUIPMENT["not_kinds"]:
        assert marker in fv.kinds_of({"equip", "his", marker})


def test_kind_label_of_unknown_markers_reads_their_words() -> None:
    assert fv.kind_label("coldRoom").singular == "cold room"
    assert fv.kind_label("evCharger").singular == "ev charger"
    label = fv.kind_label("snowMeltingSystem")
    assert (label.singular, label.plural, label.known) == ("snow melting system", "snow melting systems", False)
    assert fv.kind_label("battery_bank").plural == "battery banks"


@pytest.mark.parametrize(
    ("unit", "quantity", "summable"),
    [
        ("°C", "temperature", False),
        ("°F", "temperature", False),
        ("degC", "temperature", False),
        ("kWh", "energy", True),
        ("MWh", "energy", True),
        ("therm", "energy", True),
        ("kW", "power", False),
        ("W", "power", False),
        ("BTU/h", "power", False),
        ("tonref", "power", False),
        ("%RH", "relative humidity", False),
        ("%", "dimensionless", False),
        ("ppm", "concentration", False),
        ("m³/h", "volumetric flow", False),
        ("m3/h", "volumetric flow", False),
        ("L/s", "volumetric flow", False),
        ("gal/min", "volumetric flow", False),
        ("cfm", "volumetric flow", False),
        ("m³", "volume", True),
        ("gal", "volume", True),
        ("Pa", "pressure", False),
        ("kPa", "pressure", False),
        ("psi", "pressure", False),
        ("inH₂O", "pressure", False),
        ("inH2O", "pressure", False),
        ("Hz", "frequency", False),
        ("V", "electric potential", False),
        ("A", "electric current", False),
    ],
)
def test_units_of_both_systems(unit: str, quantity: str, summable: bool) -> None:
    q = fv.quantity_of_unit(unit)
    assert q is not None and q.name == quantity
    assert fv.summable(q) is summable and q.summable is summable


def test_unknown_units_have_no_quantity() -> None:
    assert fv.quantity_of_unit("") is None
    assert fv.quantity_of_unit(None) is None
    assert fv.quantity_of_unit("furlongs per fortnight") is None


def test_point_quantity_from_unit_tags_and_name() -> None:
    temperature, energy = fv.quantity("temperature"), fv.quantity("energy")
    assert fv.quantity_of_tags({"discharge", "air", "temp", "sensor", "point"}) == temperature
    assert fv.quantity_of_tags({"elec", "power", "sensor"}) == fv.quantity("power")
    assert fv.quantity_of_tags({"point", "his"}) is None
    assert fv.quantity_of_point({"humidity", "sensor"}, "%") == fv.quantity("relative humidity")
    assert fv.quantity_of_point({"power"}, "kWh") == energy  # the unit says what the values are
    assert fv.quantity_of_point(set(), None, "Supply Air Temperature") == temperature
    assert fv.quantity_of_point(set(), "", "CHW Flow") == fv.quantity("volumetric flow")
    assert fv.quantity_of_point(set(), None, "Widget Count") is None
    # a unit written in the name; a single capital is a name's letter, not ampere or volt
    assert fv.quantity_of_point(set(), None, "Chiller 1 kW") == fv.quantity("power")
    assert fv.quantity_of_point(set(), None, "Energy (kWh)") == energy
    assert fv.quantity_of_point(set(), None, "% Loaded") == fv.quantity("dimensionless")
    assert fv.quantity_of_point(set(), None, "AHU A") is None
    assert fv.quantity_of_point(set(), None, "Zone Humidity") == fv.quantity("relative humidity")
    assert fv.quantity_of_point(set(), None, "Tonnage") == fv.quantity("power")
    assert fv.point_function({"sp", "temp"}) == "setpoint"
    assert fv.point_function({"cmd"}) == "command"
    assert fv.point_function((), "Zone Temp Setpoint") == "setpoint"


def test_operators_words_name_quantities_and_directions() -> None:
    def names(phrase: str) -> list[str]:
        return [q.name for q in fv.quantities_named(phrase)]

    assert names("how humid was the server room") == ["relative humidity"]
    assert names("how much electricity was consumed last week") == ["energy"]
    assert names("what was the peak demand") == ["power"]
    assert names("airflow of the supply fan") == ["volumetric flow"]
    assert names("how much water did the plant use") == ["volume"]
    assert names("was it hotter than 25 and how much energy") == ["temperature", "energy"]
    assert names("list the sites") == []
    hot = fv.measure_words("was the room hotter than 25")
    assert [(m.quantity.name, m.direction) for m in hot] == [("temperature", "above")]
    assert [(m.quantity.name, m.direction) for m in fv.measure_words("too dry")] == [("relative humidity", "below")]


# ------------------------------------------------------------------------------------------------ generation
def test_generator_reproduces_the_committed_files() -> None:
    missing = [m for m in ("brickschema", "rusty_haystack", "rdflib") if importlib.util.find_spec(m) is None]
    if missing:
        pytest.skip(f"generation needs the `vocab` extra (pip install -e '.[vocab]'); missing: {', '.join(missing)}")
    result = subprocess.run(
        [sys.executable, str(ROOT / "scripts" / "generate_vocabulary.py"), "--check"],
        check=False,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert result.returncode == 0, result.stderr
