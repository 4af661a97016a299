"""Entity linking (`edge_agent.grounding.linking.link`) on fixed catalogs of two naming styles.

Every behaviour is checked on a POKMAIN-style plant ("POKMAIN", "Chiller 6", "Tonnage") AND on a plant
whose names look nothing like it ("Plant-North", "CH-01", "AHU_B2", "kW_total"): linking must not depend
on one plant's way of naming things.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from edge_agent.grounding.catalog import Catalog, SensorName, key
from edge_agent.grounding.linking import link
from tests.plants import OTHER, OTHER_SENSORS, POK


@dataclass(frozen=True)
class Plant:
    """One naming style: a catalog and the names and phrasings the tests use on it."""

    id: str
    catalog: Catalog
    site: str  # a site with the assets below
    site_loose: str  # the site spelt loosely
    asset: str  # an asset whose name ends in a number, with a sibling `asset2`
    asset2: str
    asset_loose: tuple[str, ...]  # loose spellings of `asset`
    list_short: str  # "<asset> and <number of asset2>"
    sensor: str  # a sensor of `asset`
    sensor_near: str  # a near miss of `sensor`
    other_sensor: str  # a sensor the site has but `asset` lacks
    missing_asset: str  # shaped like the site's asset names, not on the SkySpark
    missing_site: str  # shaped like the sites' names, not on the SkySpark
    siblings: tuple[str, ...]  # the assets a missing-asset note should offer


POKSTYLE = Plant(
    "pokmain-style",
    POK,
    "POKMAIN",
    "pokmain",
    "Chiller 6",
    "Chiller 9",
    ("chiller6", "CHILLER 6", "chiller_6", "Chiller-6"),
    "Chiller 6 and 9",
    "Tonnage",
    "Tonage",
    "Fan Speed",
    "Chiller 7",
    "FOOMAIN",
    ("Chiller 3", "Chiller 6", "Chiller 9"),
)
OTHERSTYLE = Plant(
    "other-style",
    OTHER,
    "Plant-North",
    "plant north",
    "CH-01",
    "CH-02",
    ("ch01", "CH 01", "ch_01", "Ch-01"),
    "CH-01 and 02",
    "SupplyTemp",
    "SuplyTemp",
    "FanSpeed",
    "CH-07",
    "Plant-South",
    ("CH-01", "CH-02", "CH-05"),
)
PLANTS = [pytest.param(POKSTYLE, id=POKSTYLE.id), pytest.param(OTHERSTYLE, id=OTHERSTYLE.id)]


# --- exact names ------------------------------------------------------------------------------------


@pytest.mark.parametrize("plant", PLANTS)
def test_exact_names_are_linked(plant: Plant):
    links = link(f"What was the {plant.sensor} of {plant.asset} at {plant.site} yesterday?", plant.catalog)
    assert links.sites == [plant.site]
    assert links.assets == [plant.asset]
    assert links.asset_sites == {plant.asset: plant.site}
    assert links.sensors == [plant.sensor]
    assert links.missing == [] and links.notes() == []
    assert links.corrections() == []
    assert {(m.kind, m.name, m.how) for m in links.mentions} == {
        ("site", plant.site, "exact"),
        ("asset", plant.asset, "exact"),
        ("sensor", plant.sensor, "exact"),
    }


@pytest.mark.parametrize("plant", PLANTS)
def test_site_is_implied_by_the_assets(plant: Plant):
    links = link(f"Show the {plant.sensor} of {plant.asset}.", plant.catalog)
    assert links.sites == [plant.site] and links.assets == [plant.asset]


def test_a_single_site_catalog_implies_its_site():
    catalog = Catalog.of({"Plant-North": {"CH-01": OTHER_SENSORS, "AHU_B2": ["SupplyTemp"]}})
    links = link("How many assets are there?", catalog)
    assert links.sites == ["Plant-North"] and links.assets == []
    assert [(m.kind, m.how) for m in links.mentions] == [("site", "only")]


# --- loose spellings --------------------------------------------------------------------------------


@pytest.mark.parametrize("plant", PLANTS)
def test_loosely_spelled_asset_is_linked(plant: Plant):
    for spelled in plant.asset_loose:
        links = link(f"{plant.sensor} of {spelled} at {plant.site}", plant.catalog)
        assert links.assets == [plant.asset], spelled
        (mention,) = [m for m in links.mentions if m.kind == "asset"]
        assert mention.text == spelled and mention.how == "loose"
        expected = [] if spelled.casefold() == plant.asset.casefold() else [f'"{spelled}" is {plant.asset}']
        assert links.corrections() == expected


@pytest.mark.parametrize("plant", PLANTS)
def test_loosely_spelled_site_is_linked_and_corrected(plant: Plant):
    links = link(f"{plant.sensor} of {plant.asset} at {plant.site_loose}", plant.catalog)
    assert links.sites == [plant.site]
    (mention,) = [m for m in links.mentions if m.kind == "site"]
    assert mention.how == "loose" and mention.text == plant.site_loose


@pytest.mark.parametrize("plant", PLANTS)
@settings(max_examples=40, deadline=None)
@given(data=st.data())
def test_any_respelling_of_an_asset_links_to_it(plant: Plant, data):
    """Case changed letter by letter and the separators between words swapped for any of space,
    underscore, hyphen or nothing: still the same asset."""
    site = plant.site
    asset = data.draw(st.sampled_from([a for a in plant.catalog.assets(site) if a.isascii()]), label="asset")
    parts = re.split(r"[\s_\-]+", asset)
    seps = data.draw(
        st.lists(st.sampled_from([" ", "_", "-", ""]), min_size=len(parts) - 1, max_size=len(parts) - 1), label="seps"
    )
    joined = parts[0] + "".join(s + p for s, p in zip(seps, parts[1:]))
    flips = data.draw(st.lists(st.booleans(), min_size=len(joined), max_size=len(joined)), label="case")
    spelled = "".join(c.swapcase() if f else c for c, f in zip(joined, flips))
    links = link(f"Show the data of {spelled} at {site}, please.", plant.catalog)
    assert links.assets == [asset], spelled
    assert key(spelled) == key(asset)


# --- near misses ------------------------------------------------------------------------------------


@pytest.mark.parametrize("plant", PLANTS)
def test_near_miss_sensor_resolves(plant: Plant):
    links = link(f"At {plant.site}, {plant.asset}: {plant.sensor_near}?", plant.catalog)
    assert links.sensors == [plant.sensor]
    assert links.corrections() == [f'"{plant.sensor_near}" is {plant.sensor}']
    assert [m.how for m in links.mentions if m.kind == "sensor"] == ["near"]


@pytest.mark.parametrize("plant", PLANTS)
def test_near_miss_does_not_swallow_the_next_word(plant: Plant):
    links = link(f"What was the {plant.sensor_near} of {plant.asset} at {plant.site}?", plant.catalog)
    assert links.sensors == [plant.sensor]
    assert links.corrections() == [f'"{plant.sensor_near}" is {plant.sensor}']


def test_near_miss_needs_the_same_digits():
    links = link("Tonnage of Chiller 8 at POKMAIN", POK)  # "chiller8" is close to "chiller6", other digit
    assert links.assets == []
    assert [m.text for m in links.missing] == ["Chiller 8"]


# --- lists --------------------------------------------------------------------------------------------


@pytest.mark.parametrize("plant", PLANTS)
def test_list_after_a_name_is_expanded(plant: Plant):
    links = link(f"Compare the {plant.sensor} of {plant.list_short} at {plant.site}", plant.catalog)
    assert links.assets == [plant.asset, plant.asset2]
    assert [m.how for m in links.mentions if m.kind == "asset"] == ["exact", "list"]
    assert links.missing == []


@pytest.mark.parametrize("plant", PLANTS)
def test_list_of_full_names(plant: Plant):
    links = link(f"Compare the {plant.sensor} of {plant.asset} and {plant.asset2}", plant.catalog)
    assert links.assets == [plant.asset, plant.asset2]
    assert links.sites == [plant.site] and links.missing == []


def test_three_item_list_other_style():
    links = link("kW_total of CH-01, 02 and 05", OTHER)
    assert links.assets == ["CH-01", "CH-02", "CH-05"]


def test_list_skips_only_the_missing_item():
    links = link("Tonnage of Chiller 6, 7 and 9 at POKMAIN", POK)
    assert links.assets == ["Chiller 6", "Chiller 9"]
    assert [(m.text, m.kind, m.site) for m in links.missing] == [("Chiller 7", "asset", "POKMAIN")]
    assert {"Chiller 6", "Chiller 9"} <= set(links.missing[0].suggestions)


# --- what does not exist -------------------------------------------------------------------------------


@pytest.mark.parametrize("plant", [pytest.param(POKSTYLE, id=POKSTYLE.id), pytest.param(OTHERSTYLE, id=OTHERSTYLE.id)])
def test_missing_asset_is_reported_with_the_existing_ones(plant: Plant):
    links = link(f"What was the {plant.sensor} of {plant.missing_asset} at {plant.site}?", plant.catalog)
    assert links.assets == []
    assert len(links.missing) == 1, links.missing
    missing = links.missing[0]
    assert (missing.text, missing.kind, missing.site) == (plant.missing_asset, "asset", plant.site)
    assert set(plant.siblings) <= set(missing.suggestions)
    assert set(missing.suggestions) <= set(plant.catalog.assets(plant.site))
    (note,) = links.notes()
    assert note.startswith(f"there is no asset {plant.missing_asset} at {plant.site}; there are: ")
    assert all(s in note for s in plant.siblings)
    assert missing.sentence().startswith(f"There is no asset {plant.missing_asset} at {plant.site} (there are ")


def test_missing_asset_of_a_word_and_number_style_other_plant():
    """'<word> <number>' names in another language work: Kessel 5 where Kessel 4 exists."""
    links = link("kW_total of Kessel 5 at Werk_Süd", OTHER)
    assert [(m.text, m.kind, m.site, m.suggestions) for m in links.missing] == [
        ("Kessel 5", "asset", "Werk_Süd", ["Kessel 4", "Kessel 7"])
    ]


@pytest.mark.parametrize("plant", PLANTS)
def test_sensor_the_asset_lacks_is_reported(plant: Plant):
    links = link(f"What was the {plant.other_sensor} of {plant.asset} at {plant.site}?", plant.catalog)
    assert links.assets == [plant.asset] and links.sensors == [plant.other_sensor]
    (missing,) = links.missing
    assert (missing.kind, missing.text, missing.asset) == ("sensor", plant.other_sensor, plant.asset)
    assert missing.suggestions == plant.catalog.site(plant.site).sensor_shorts(plant.asset)
    assert plant.other_sensor not in missing.suggestions
    assert links.notes()[0].startswith(f"there is no sensor {plant.other_sensor} on {plant.asset}; there are: ")


@pytest.mark.parametrize("plant", [pytest.param(POKSTYLE, id=POKSTYLE.id), pytest.param(OTHERSTYLE, id=OTHERSTYLE.id)])
def test_missing_site_is_reported(plant: Plant):
    links = link(f"{plant.sensor} of {plant.asset} at {plant.missing_site}", plant.catalog)
    assert [(m.text, m.kind) for m in links.missing] == [(plant.missing_site, "site")]
    assert links.missing[0].suggestions == plant.catalog.sites


# --- names outside ASCII ---------------------------------------------------------------------------------


def test_non_ascii_asset_is_linked_exactly():
    links = link("kW_total of Kühlturm 2 at Werk_Süd", OTHER)
    assert links.assets == ["Kühlturm 2"]
    assert links.corrections() == []
    assert [m.how for m in links.mentions if m.kind == "asset"] == ["exact"]


def test_non_ascii_missing_asset_is_reported():
    links = link("kW_total of Kühlturm 5 at Werk_Süd", OTHER)
    assert [m.text for m in links.missing] == ["Kühlturm 5"]


def test_non_ascii_site_is_linked():
    links = link("kW_total of Kessel 4 at Werk_Süd", OTHER)
    assert links.sites == ["Werk_Süd"] and links.assets == ["Kessel 4"] and links.missing == []


# --- nothing leaks from one plant to the other ------------------------------------------------------------


@pytest.mark.parametrize("plant", PLANTS)
def test_every_linked_name_is_on_the_catalog(plant: Plant):
    other = OTHER if plant.catalog is POK else POK
    q = (
        f"{plant.sensor} and {plant.other_sensor} of {plant.list_short}, {plant.missing_asset} at {plant.site}; "
        f"also {other.sites[0]} {other.assets(other.sites[0])[0]}"
    )
    links = link(q, plant.catalog)
    assert set(links.sites) <= set(plant.catalog.sites)
    assert all(a in plant.catalog.assets(links.asset_sites[a]) for a in links.assets)
    shorts = {
        s.short
        for site in plant.catalog.sites
        for a in plant.catalog.assets(site)
        for s in plant.catalog.sensors(site, a)
    }
    assert set(links.sensors) <= shorts


# --- what the answer must start with ---------------------------------------------------------------------------


def _listing(g, plant: Plant, names: str, step: int = 1, trial: int = 1) -> None:
    """What the `assets` tool's call gives the grounding: its Observation and its head (`toolkit.Said`)."""
    found = f"found 5 assets at {plant.site}: {names}"
    g.observe(
        trial,
        step,
        "assets",
        f"{found}; saved to assets-1a2b3c4d.json",
        head=found,
        call=f'assets {{"site_name": "{plant.site}"}}',
    )


@pytest.mark.parametrize("plant", PLANTS)
def test_names_asked_for_come_from_the_listing_observation(plant: Plant):
    from edge_agent.grounding.run import Grounding

    g = Grounding.build(f"How many assets are there at {plant.site}, and what are their names?", plant.catalog)
    assert g.answer_prefix() == "" and not g.answer_closed()
    names = ", ".join(plant.catalog.assets(plant.site))
    _listing(g, plant, names)
    assert g.answer_prefix() == f"Found 5 assets at {plant.site}: {names}"
    assert g.answer_closed()  # the names asked for are the whole answer
    g.observe(1, 2, "sensors", "found 2 sensors on X: a, b; saved to s-1.json")  # no head: nothing to add
    assert g.answer_prefix() == f"Found 5 assets at {plant.site}: {names}"
    _listing(g, plant, names, step=3)  # the same call again counts once
    assert g.answer_prefix() == f"Found 5 assets at {plant.site}: {names}"
    assert g.answer_prefix(trial=2) == "" and g.answer_prefix(trial=1) == g.answer_prefix()  # per trial


@pytest.mark.parametrize("plant", PLANTS)
def test_no_listing_prefix_where_no_names_are_asked_for(plant: Plant):
    from edge_agent.grounding.run import Grounding

    g = Grounding.build(f"Show the {plant.sensor} of {plant.asset} at {plant.site}.", plant.catalog)
    _listing(g, plant, plant.asset)
    assert g.answer_prefix() == "" and not g.answer_closed()
    g = Grounding.build(f"How many assets are there at {plant.site}?", plant.catalog)  # a count: the listing
    _listing(g, plant, plant.asset)
    assert g.answer_prefix() == f"Found 5 assets at {plant.site}: {plant.asset}"


@pytest.mark.parametrize("plant", PLANTS)
def test_a_data_call_head_is_the_answer_to_a_data_question(plant: Plant):
    from edge_agent.grounding.run import Grounding

    g = Grounding.build(
        f"What was the highest {plant.sensor} of {plant.asset} at {plant.site} on 2024-03-01?", plant.catalog
    )
    _listing(g, plant, plant.asset)  # a listing on the way: not what was asked
    stats = f"{plant.asset} {plant.sensor}: max 3.5 at 2024-03-01T10:15, min 1.25 at 2024-03-01T02:00, 96 values"
    head = f"{stats}; saved to history-9f8e7d6c.json"
    g.observe(
        1,
        2,
        "histories",
        f"{plant.asset} {plant.sensor} from … saved to history-9f8e7d6c.json: {stats}",
        head=head,
        answers=True,
        call="histories 1",
    )
    assert g.answer_prefix() == head[0].upper() + head[1:] and g.answer_closed()
    claims = g.check(g.answer_prefix())
    assert [c.text for c in claims if not c.grounded] == []
    assert {c.step for c in claims if c.text in ("3.5", "history-9f8e7d6c.json")} == {2}  # provenance: step 2


@pytest.mark.parametrize("plant", PLANTS)
def test_an_answer_putting_together_a_name_that_does_not_exist_is_ungrounded(plant: Plant):
    from edge_agent.grounding.run import Grounding

    g = Grounding.build(f"How many assets are there at {plant.site}?", plant.catalog)
    names = ", ".join(plant.catalog.assets(plant.site))
    g.observe(1, 1, "assets", f"found 5 assets at {plant.site}: {names}; saved to assets-1a2b3c4d.json")
    ok = g.check(f"{plant.site} has 5 assets: {plant.asset} and {plant.asset2}.")
    assert [c.text for c in ok if not c.grounded] == []
    bad = g.check(f"{plant.site} has 5 assets: {plant.asset} and {plant.missing_asset}.")
    assert plant.missing_asset in [c.text for c in bad if not c.grounded]


@pytest.mark.parametrize("plant", PLANTS)
def test_a_thought_stating_what_its_own_step_reads_or_a_name_nobody_read_is_unverified(plant: Plant):
    from edge_agent.grounding.provenance import mask
    from edge_agent.grounding.run import Grounding

    g = Grounding.build(f"What was the {plant.sensor} of {plant.asset} at {plant.site} yesterday?", plant.catalog)
    g.observe(1, 1, "histories", f"{plant.asset} {plant.sensor}: max 3.5 at 2024-03-01T10:15, 96 values")
    thought = f"{plant.asset} peaked at 3.5"
    assert g.unverified(thought, trial=1, step=1) == ["3.5"]  # written before step 1 read it: a guess
    assert g.unverified(thought, trial=1, step=2) == [] and g.unverified(thought) == []
    guess = f"{plant.asset2} and {plant.missing_asset} may read 3.5 too"
    shown = mask(guess, g.unverified(guess))
    assert plant.asset2 not in shown and plant.missing_asset not in shown and "3.5" in shown


def test_a_missing_name_the_question_asked_about_may_be_repeated():
    from edge_agent.grounding.run import Grounding

    g = Grounding.build("What is the Tonnage of Chiller 7 at POKMAIN?", POK)
    g.set_facts("Not on the SkySpark: " + "; ".join(g.links.notes()))  # as the facts block every trial sees
    claims = g.check(g.answer_prefix() + ".")
    assert [c.text for c in claims if not c.grounded] == []


def test_missing_fact_comes_before_the_listing():
    from edge_agent.grounding.run import Grounding

    g = Grounding.build("What sensors does Chiller 7 at POKMAIN have?", POK)
    found = "found 3 chiller assets at POKMAIN: Chiller 3, Chiller 6, Chiller 9"
    g.observe(1, 1, "assets", f"{found}; saved to a-1.json", head=found)
    assert g.answer_prefix().startswith("There is no asset Chiller 7 at POKMAIN (there are ")
    assert g.answer_prefix().endswith("; Found 3 chiller assets at POKMAIN: Chiller 3, Chiller 6, Chiller 9")
    assert g.answer_closed()  # all the question names is missing: nothing is left to say


@pytest.mark.parametrize("question", ["What IoT sites are available?", "Which sites are there?", "List the sites."])
def test_a_question_for_the_sites_is_answered_by_the_sites_listing(question):
    from edge_agent.grounding.run import Grounding

    g = Grounding.build(question, POK)
    g.observe(
        1, 1, "sites", "found 2 sites: POKMAIN, RCHMAIN; saved to sites-1.json", head="found 2 sites: POKMAIN, RCHMAIN"
    )
    assert g.answer_prefix(1) == "Found 2 sites: POKMAIN, RCHMAIN" and g.answer_closed(1)


@pytest.mark.parametrize("plant", PLANTS)
def test_a_listing_of_what_the_question_does_not_name_is_not_the_answer(plant: Plant):
    """Asked for the sites, a tiny model may go on to list a site's assets: that listing is not the answer."""
    from edge_agent.grounding.run import Grounding

    g = Grounding.build("Which sites are there?", plant.catalog)
    sites = ", ".join(plant.catalog.sites)
    g.observe(1, 1, "sites", f"found 2 sites: {sites}; saved to s-1.json", head=f"found 2 sites: {sites}", args={})
    found = f"found 5 assets at {plant.site}: {plant.asset}"
    g.observe(1, 2, "assets", f"{found}; saved to a-1.json", head=found, args={"site_name": plant.site})
    assert g.answer_prefix(1) == f"Found 2 sites: {sites}"
    g = Grounding.build(f"How many assets are there at {plant.site}?", plant.catalog)  # named: its listing counts
    g.observe(1, 1, "assets", f"{found}; saved to a-1.json", head=found, args={"site_name": plant.site})
    assert g.answer_prefix(1) == found[0].upper() + found[1:]


# --- the field's words (grounding.fieldvocab) --------------------------------------------------------------


def _typed(plant: Plant) -> Catalog:
    """`plant`'s catalog with Haystack equip markers on its assets (the client reads them from the tags)."""
    catalog = Catalog.of(
        {s: {a: plant.catalog.site(s).sensor_shorts(a) for a in plant.catalog.assets(s)} for s in plant.catalog.sites}
    )
    marks = {plant.asset: ["chiller"], plant.asset2: ["chiller"]}
    others = [a for a in catalog.assets(plant.site) if a not in marks]
    catalog.site(plant.site).types = {**marks, others[0]: ["ahu"], others[-1]: ["fcu"]}
    return catalog


@pytest.mark.parametrize("plant", PLANTS)
@pytest.mark.parametrize(
    "words, marker",
    [
        ("air handling units", "ahu"),
        ("air handlers", "ahu"),
        ("AHUs", "ahu"),
        ("fan coil units", "fcu"),
        ("chillers", "chiller"),
    ],
)
def test_kinds_of_equipment_are_linked_by_their_haystack_names(plant: Plant, words, marker):
    links = link(f"Which {words} are installed at {plant.site}?", _typed(plant))
    assert links.asset_types == [marker] and links.missing == []


@pytest.mark.parametrize("plant", PLANTS)
def test_which_of_a_kind_asks_for_names(plant: Plant):
    from edge_agent.grounding.run import Grounding

    catalog = _typed(plant)
    for question in (
        f"Which air handling units are installed at {plant.site}?",
        f"Count the chillers at {plant.site}.",
        f"What is the number of chillers at {plant.site}?",
    ):
        g = Grounding.build(question, catalog)
        # the catalog lists the kind itself: the answer is written before any step, no tool call
        found = catalog.site(plant.site).assets_of_type(g.links.asset_types[0])
        assert g.answered_by_links() and g.in_code.startswith(f"Found {len(found)} "), question
        assert all(a in g.in_code for a in found)
    g = Grounding.build(f"Which measurements are available for {plant.asset} at {plant.site}?", catalog)
    g.observe(
        1,
        1,
        "sensors",
        f"found 3 sensors on {plant.asset}: a, b, c",
        head=f"found 3 sensors on {plant.asset}",
        call="sensors 1",
        args={"site_name": plant.site, "asset_name": plant.asset},
    )
    assert g.answer_prefix() == f"Found 3 sensors on {plant.asset}"


@pytest.mark.parametrize("plant", PLANTS)
@pytest.mark.parametrize("word", ["Humidity", "CO2", "duct static pressure"])
def test_a_measurement_no_named_asset_has_is_reported_missing(plant: Plant, word):
    links = link(
        f"Get the {word} readings of {plant.asset} and {plant.asset2} at {plant.site} for last week.", plant.catalog
    )
    assert links.assets == [plant.asset, plant.asset2] and links.sensors == []
    # named as the question wrote the measure ("duct static pressure" is a static pressure)
    assert [(m.kind, m.asset) for m in links.missing] == [("sensor", plant.asset), ("sensor", plant.asset2)]
    assert all(m.text and m.text.casefold() in word.casefold() for m in links.missing)
    assert links.missing[0].suggestions == plant.catalog.site(plant.site).sensor_shorts(plant.asset)


@pytest.mark.parametrize("plant, word", [(POKSTYLE, "temperature"), (OTHERSTYLE, "flow")])  # "Supply Temperature",
def test_a_measurement_word_some_sensor_shares_is_left_to_the_model(plant: Plant, word):  # "Flow Rate"
    links = link(f"What was the {word} of {plant.asset} at {plant.site} yesterday?", plant.catalog)
    assert links.sensors == [] and not [m for m in links.missing if m.kind == "sensor"]
    links = link(f"How many assets does {plant.site} have?", plant.catalog)  # no asset named: nothing to say
    assert links.missing == []


# --- a near miss is a typo, not another name -------------------------------------------------------------


@pytest.mark.parametrize(
    "catalog, written, other",
    [
        (
            Catalog.of({"AUSWEST": {"Chiller 8": ["Tonnage"]}, "POKMAIN": {"Chiller 6": ["Tonnage"]}}),
            "AUSEAST",
            "AUSWEST",
        ),
        (
            Catalog.of({"Plant-West": {"CH-01": ["kW_total"]}, "Plant-North": {"CH-02": ["kW_total"]}}),
            "Plant-East",
            "Plant-West",
        ),
    ],
)
def test_a_name_two_letters_from_a_short_one_is_missing_not_corrected(catalog, written, other):
    """EAST is not WEST: a close spelling with more edits than a typo makes is reported missing, with the
    names that exist, instead of being read as the other site (the synthetic plant's AUSEAST question)."""
    links = link(f"What assets does the {written} site have?", catalog)
    assert links.sites == [] and links.corrections() == []
    assert [(m.text, m.kind) for m in links.missing] == [(written, "site")]
    assert other in links.missing[0].suggestions


@pytest.mark.parametrize(
    "written, name",
    [
        ("Tonage", "Tonnage"),
        ("Tonnnage", "Tonnage"),
        ("Tonnaeg", "Tonnage"),
        ("Supply Temprature", "Supply Temperature"),
        ("Suply Temprature", "Supply Temperature"),
    ],
)
def test_typos_are_still_corrected(written, name):
    """One edit per 8 letters: one slip in a short name, two in a long one (a swap counts once)."""
    links = link(f"What was the {written} of Chiller 6 at POKMAIN?", POK)
    assert links.sensors == [name] and links.corrections() == [f'"{written}" is {name}']


def test_an_asset_named_by_a_distinctive_part_of_its_name_is_linked_when_only_one_fits():
    cat = Catalog.of(
        {
            "S": {
                "FZ-A Deepfreeze Hall": ["Air Temp"],
                "FZ-B Deepfreeze Hall": ["Air Temp"],
                "FZ-C Blast Freezer": ["Air Temp"],
                "NH3 Screw Comp 1": ["Power"],
                "NH3 Screw Comp 10": ["Power"],
                "Chiller 2": ["Power"],
            }
        }
    )
    for question, asset in (
        ("FZ-B air temp yesterday at S", "FZ-B Deepfreeze Hall"),
        ("max power on screw comp 1", "NH3 Screw Comp 1"),
        ("comp 10 power", "NH3 Screw Comp 10"),
        ("did the blast freezer get warmer than -30", "FZ-C Blast Freezer"),
    ):
        assert link(question, cat).assets == [asset], question
    for question in ("the deepfreeze hall temp", "which freezers at S", "top 2 readings at S"):
        assert link(question, cat).assets == [], question  # several fit, a kind word, a bare number


def test_one_distinctive_word_names_a_site_or_an_asset():
    cat = Catalog.of(
        {
            "Fresno Produce Hub": {"Well Water Meter": ["Flow"], "Ripening Rm 1": ["Air Temp"]},
            "Botlek Cold Store": {"Grid Incomer M1": ["Power"], "FZ-A Deepfreeze Hall": ["Air Temp"]},
        }
    )
    assert link("do we have a boiler at fresno?", cat).sites == ["Fresno Produce Hub"]
    links = link("what was the incomer load yesterday", cat)
    assert links.assets == ["Grid Incomer M1"] and links.asset_sites["Grid Incomer M1"] == "Botlek Cold Store"
    # a word several names share, a function word, or a word before a kind of equipment names nothing by itself
    assert link("the deepfreeze temp", cat).assets == ["FZ-A Deepfreeze Hall"]  # only one hall here
    two = Catalog.of({"S": {"FZ-A Deepfreeze Hall": ["T"], "FZ-B Deepfreeze Hall": ["T"]}})
    assert link("the deepfreeze temp", two).assets == []
    assert link("how well did it run", cat).assets == []
    fans = Catalog.of({"LAB": {"Exhaust Fan 3": ["Power"], "SF-1": ["Power"]}})
    assert link("exhaust fans at LAB", fans).assets == []


def test_a_name_shortened_in_the_catalog_links_from_its_long_form():
    cat = Catalog.of({"Fresno": {"Ripening Rm 2": ["Air Temp Sp", "Air Temp"], "NH3 Screw Comp 1": ["Power"]}})
    assert link("ethylene in ripening room 2", cat).assets == ["Ripening Rm 2"]
    assert link("screw compressor 1 power", cat).assets == ["NH3 Screw Comp 1"]
    assert link("air temp setpoint of ripening rm 2", cat).sensors == ["Air Temp Sp"]


def test_a_sensor_named_by_words_of_its_name_and_not_its_setpoint():
    cat = Catalog.of({"F": {"Office RTU": ["Discharge Air Temp", "Return Air Temp", "Discharge Air Temp Sp"]}})
    assert link("What time was the office RTU discharge air coldest", cat).sensors == ["Discharge Air Temp"]
    assert link("return air and discharge air of the office RTU", cat).sensors == [
        "Return Air Temp",
        "Discharge Air Temp",
    ]
    assert link("office RTU discharge air setpoint", cat).sensors == ["Discharge Air Temp Sp"]


def test_a_code_like_the_first_word_of_names_that_is_none_is_missing():
    cat = Catalog.of({"B": {"FZ-A Deepfreeze Hall": ["Air Temp"], "FZ-B Deepfreeze Hall": ["Air Temp"]}})
    links = link("show me the temps for FZ-D yesterday", cat)
    assert [(m.kind, m.text) for m in links.missing] == [("asset", "FZ-D")] and links.assets == []
    assert link("FZ-B air temp", cat).assets == ["FZ-B Deepfreeze Hall"] and not link("FZ-B air temp", cat).missing


def test_a_site_named_like_one_by_its_last_word_that_is_none_is_missing():
    cat = Catalog.of({"Millbrook WRF": {"IPS-P1": ["Power"]}, "Hopwell Brewery": {"FV-01": ["Temp"]}})
    links = link("list the pumps at Eastside WRF", cat)
    assert [(m.kind, m.text) for m in links.missing] == [("site", "Eastside WRF")] and links.sites == []
    assert link("list the pumps at Millbrook WRF", cat).sites == ["Millbrook WRF"]


def test_a_capital_letter_ends_a_part_of_a_name():
    cat = Catalog.of({"M": {"Aeration Basin A": ["DO"], "Aeration Basin B": ["DO"]}})
    assert link("what % of the time was basin A DO under 0.8 mg/l", cat).assets == ["Aeration Basin A"]
    assert link("is there a basin at M", cat).assets == []


def test_a_code_that_begins_several_names_names_them_together():
    cat = Catalog.of(
        {
            "Hopwell": {f"FV-0{n}": ["Temp", "Temp Setpoint"] for n in range(1, 4)}
            | {"IPS-P1": ["Power"], "IPS-P2": ["Power"], "AHU-1": ["Fan Speed"], "AHU-2": ["Fan Speed"]},
        }
    )
    assert link("which FV was the warmest on average yesterday?", cat).assets == ["FV-01", "FV-02", "FV-03"]
    assert link("mean power of the ips pumps last week", cat).assets == ["IPS-P1", "IPS-P2"]
    assert link("temps of all FVs", cat).assets == ["FV-01", "FV-02", "FV-03"]
    assert {m.how for m in link("which FV", cat).mentions if m.kind == "asset"} == {"group"}
    # a kind the field defines is linked as a kind, not as the names it begins; a name keeps its own link
    assert link("which AHU had the highest fan speed", cat).assets == []
    assert link("FV-02 temp yesterday", cat).assets == ["FV-02"]


def test_another_assets_point_name_that_is_a_measure_the_named_asset_has_asks_for_that_measure():
    units = {"Power": "kW", "Energy": "kWh", "Load": "%", "Suction Pressure": "bar", "Tonnage": "tonref"}

    def catalog(plant):
        cat = Catalog.of(plant)
        for site in plant:
            sc = cat.site(site)
            sc.sensors = {
                a: [SensorName(p.name, p.short, units.get(p.short)) for p in ps] for a, ps in sc.sensors.items()
            }
        return cat

    cat = catalog({"B": {"Grid Incomer M1": ["Power", "Energy"], "Dock UPS": ["Load", "Suction Pressure"]}})
    links = link("Was the incomer load higher Tuesday or Wednesday last week?", cat)  # the UPS's Load is a share
    assert links.assets == ["Grid Incomer M1"] and links.sensors == [] and not links.missing
    assert links.measures == ["power"]
    assert link("dock ups load yesterday", cat).sensors == ["Load"]  # its own point keeps its name
    chillers = catalog({"B": {"Grid Incomer M1": ["Power"], "Chiller 1": ["Tonnage", "Power"]}})
    links = link("what was the tonnage of Grid Incomer M1 yesterday", chillers)  # tonref is not read from kW
    assert links.sensors == ["Tonnage"] and [(m.kind, m.text) for m in links.missing] == [("sensor", "Tonnage")]


def test_a_sensor_only_one_asset_of_the_site_has_names_that_asset():
    cat = Catalog.of(
        {
            "Kestrel Ridge": {"Weather Station": ["Wind Speed", "Outside Air Temp"], "SM Pump 1": ["Flow", "Power"]},
            "Hopwell": {"Weather Mast": ["Wind Speed"]},
        }
    )
    links = link("whats the highest wind sped at kestrel on 10/31", cat)
    assert links.sensors == ["Wind Speed"] and links.assets == ["Weather Station"]
    assert [m.how for m in links.mentions if m.kind == "asset"] == ["only"]
    two = Catalog.of({"K": {"Pump 1": ["Flow"], "Pump 2": ["Flow"]}, "L": {"X": ["Y"]}})
    assert link("max flow at K yesterday", two).assets == []  # two assets have it: the model asks or ranks


def test_a_word_after_a_name_that_no_like_series_has_names_a_series_the_asset_lacks():
    cat = Catalog.of({"L": {"Chiller 1": ["Cooling Load", "Leaving Water Temp"]}, "M": {"X": ["Y"]}})
    links = link("Chiller 1 condenser water temp yesterday? L", cat)
    assert links.sensors == [] and [(m.kind, m.text) for m in links.missing] == [("sensor", "condenser water temp")]
    assert link("Chiller 1 leaving water temp yesterday at L", cat).sensors == ["Leaving Water Temp"]
    assert link("max water temp of Chiller 1 at L", cat).missing == []
    assert link("Chiller 1 water temp at L", cat).missing == []


def test_a_run_of_capitalised_words_where_a_site_stands_is_a_site_the_skyspark_lacks():
    cat = Catalog.of({"Kestrel Cold Store": {"Pump 1": ["Flow"]}, "Tamaki DC2": {"UPS A": ["Load"]}})
    links = link("list all pumps at Riverside Ice Rink", cat)
    assert [(m.kind, m.text) for m in links.missing] == [("site", "Riverside Ice Rink")]


def test_a_sensor_one_asset_has_does_not_name_it_where_the_question_names_a_kind():
    cat = Catalog.of({"D": {"B3_Total": ["Energy", "Power"], "LC1": ["Lighting Power"], "LC2": ["Lighting Power"]}})
    for site in ("D",):
        cat.site(site).types.update({"B3_Total": ["meter"], "LC1": ["lighting"], "LC2": ["lighting"]})
    links = link("Which lighting controller at D drew the most energy (kWh) yesterday?", cat)
    assert links.assets == [] and links.asset_types == ["lighting"]


def _with_units(plant: dict[str, dict[str, list[str]]], units: dict[str, str]) -> Catalog:
    cat = Catalog.of(plant)
    for site in plant:
        sc = cat.site(site)
        sc.sensors = {a: [SensorName(p.name, p.short, units.get(p.short)) for p in ps] for a, ps in sc.sensors.items()}
    return cat


def test_a_measure_word_within_the_named_assets_point_name_is_that_point():
    # "inlet flow": the Inlet Works' Flow to Treatment in L/s, though other assets' "Flow" is in m³/h
    cat = _with_units(
        {"W": {"Inlet Works": ["Flow to Treatment", "pH"], "RAS Pump 1": ["Flow", "Speed"]}},
        {"Flow to Treatment": "L/s", "Flow": "m³/h", "Speed": "rpm"},
    )
    links = link("What was the average inlet flow at W yesterday?", cat)
    assert links.assets == ["Inlet Works"] and links.sensors == ["Flow to Treatment"] and not links.missing


def test_a_sensor_named_by_its_initials_in_capitals():
    cat = Catalog.of({"W": {"Aeration Lane 1": ["Dissolved Oxygen", "DO Setpoint", "MLSS"]}})
    assert link("how long was lane 1 DO under 1 mg/l on monday", cat).sensors == ["Dissolved Oxygen"]
    assert link("MLSS of lane 1", cat).sensors == ["MLSS"]
    assert link("HOW LONG WAS LANE 1 DO UNDER 1", cat).sensors == []  # a question in capitals has no initials
    assert link("do lane 1 readings look ok", cat).sensors == []  # the lower-case verb is no name


def test_one_word_that_is_a_whole_point_name_is_the_point_not_part_of_an_asset_name():
    cat = Catalog.of({"K": {"Bay B": ["CO2", "Air Temp"], "CO2 Doser": ["Dosing Rate"]}})
    links = link("CO2 in Bay B at noon on the 5th?", cat)
    assert links.assets == ["Bay B"] and links.sensors == ["CO2"]


def test_words_before_a_measure_and_a_name_that_no_series_has_name_a_missing_sensor():
    cat = _with_units({"K": {"Bay A": ["Humidity", "Air Temp"]}}, {"Humidity": "%RH", "Air Temp": "°C"})
    links = link("soil moisture in bay A right now?", cat)
    assert [(m.kind, m.text, m.asset) for m in links.missing] == [("sensor", "soil moisture", "Bay A")]
    assert not link("humidity in bay A right now?", cat).missing


def test_a_sensor_name_of_several_words_links_without_a_site_named():
    cat = Catalog.of({"Brewery": {"Glycol Chiller": ["Glycol Supply Temp", "Power"]}, "Works": {"Blower 1": ["Power"]}})
    links = link("lowest glycol supply temp on monday?", cat)
    assert (links.sites, links.assets, links.sensors) == (["Brewery"], ["Glycol Chiller"], ["Glycol Supply Temp"])
    assert link("average power on monday?", cat).sensors == []  # one word is every site's: nothing to link


def test_a_plural_last_word_names_the_sensor_not_a_longer_one():
    cat = Catalog.of({"B": {"FV-101": ["Beer Temp", "Beer Temp Setpoint"], "FV-102": ["Beer Temp"]}})
    assert link("FV-101 and FV-102 beer temps from yesterday", cat).sensors == ["Beer Temp"]


def test_which_and_the_word_several_names_are_made_of_names_them_together():
    cat = Catalog.of({"K": {"Bay A": ["Air Temp"], "Bay B": ["Air Temp"], "Bay C": ["Air Temp"], "IRR-P1": ["Flow"]}})
    assert link("which growing bay at K got the coldest yesterday", cat).assets == ["Bay A", "Bay B", "Bay C"]
    assert link("the bay temps at K", cat).assets == []  # only a question picking one of them names the set
    assert link("what was the air temp of Bay D at K", cat).assets == []  # a name of their shape: never all of them


def test_the_last_word_of_a_site_name_after_the_names_that_site():
    cat = Catalog.of(
        {"Aoba Grand Hotel": {"DHW Calorifier": ["DHW Temp"]}, "Lindholm Dairy": {"CIP Station": ["Flow"]}}
    )
    assert link("lowest DHW temp last week at the hotel?", cat).sites == ["Aoba Grand Hotel"]
    assert link("When was the hotel's peak electrical demand last week?", cat).sites == ["Aoba Grand Hotel"]
    assert link("a hotel somewhere", cat).sites == []  # only after "the"


def test_a_place_that_is_no_site_drops_the_assets_of_the_other_sites():
    cat = Catalog.of({"Copper Ridge": {"Snowmaking Pump 1": ["Discharge Pressure"]}, "Dairy": {"Pump A": ["Flow"]}})
    links = link("what was the Snowmaking Pump 1 pressure at Alpine Meadows last night?", cat)
    assert [(m.kind, m.text) for m in links.missing] == [("site", "Alpine Meadows")] and links.assets == []


def test_the_first_word_of_names_before_their_kind_is_no_missing_asset():
    cat = Catalog.of({"D": {"NH3 Comp 1": ["Power"], "NH3 Comp 2": ["Power"], "air_comp_1": ["Power"]}})
    for site, assets in (("D", ("NH3 Comp 1", "NH3 Comp 2", "air_comp_1")),):
        cat.site(site).types.update({a: ["compressor"] for a in assets})
    assert not link("download the power of both NH3 compressors for the 3rd", cat).missing
    assert [m.text for m in link("power of NH4 yesterday", cat).missing] == ["NH4"]  # a code of their shape


def test_words_across_a_sentence_end_are_no_place_name():
    cat = Catalog.of({"Millbrook WRF": {"Blower 1": ["Power"]}, "Other Site": {"Pump": ["Flow"]}})
    links = link("Who is the manufacturer of Blower 1 at Millbrook? Need it for a work order.", cat)
    assert links.assets == ["Blower 1"] and not links.missing


def test_a_point_name_said_the_other_way_round_a_preposition():
    # "the CO2 in the lobby" is Lobby CO2; the holder and its site follow from the one point
    cat = Catalog.of({"Hotel": {"AHU-L1-01": ["Lobby CO2", "Supply Air Temp"]}, "Lodge": {"Base AHU": ["Zone Temp"]}})
    links = link("Did the CO2 in the lobby go over 1000ppm on saturday?", cat)
    assert (links.sites, links.assets, links.sensors) == (["Hotel"], ["AHU-L1-01"], ["Lobby CO2"])
    assert links.corrections() == ['"CO2 in the lobby" is Lobby CO2']
    assert link("what was the supply air temp in the lobby", cat).sensors == ["Supply Air Temp"]  # no Lobby Supply …


def test_numbers_listed_apart_from_a_kind_name_its_assets():
    cat = Catalog.of(
        {"R": {"Snowmaking Pump 1": ["Motor Power"], "Snowmaking Pump 2": ["Motor Power"], "AC-1": ["Power"]}}
    )
    cat.site("R").types.update(
        {
            "Snowmaking Pump 1": ["pump", "snowmaking"],
            "Snowmaking Pump 2": ["pump", "snowmaking"],
            "AC-1": ["compressor", "snowmaking"],
        }
    )
    links = link("Which snowmaking pump used more energy yesterday, 1 or 2?", cat)
    assert links.assets == ["Snowmaking Pump 1", "Snowmaking Pump 2"] and not links.missing
    assert link("Which snowmaking pump used more energy yesterday, 1 or 3?", cat).assets == []  # no pump 3: not read


def test_a_limits_unit_names_the_measure_and_a_share_of_a_day_names_none():
    cat = _with_units({"D": {"Silo 3": ["Milk Temp", "Level"]}}, {"Milk Temp": "°C", "Level": "%"})
    assert link("what percentage of monday was silo 3 above 6 °C", cat).measures == ["temperature"]
    assert link("what percentage of monday was silo 3 above 90 percent", cat).measures == []
    assert link("what was the level of silo 3 in percent", cat).measures == ["dimensionless"]


def test_the_plural_of_the_last_word_of_several_names_names_them_all():
    cat = Catalog.of({"J": {"North Reservoir": ["Level"], "South Reservoir": ["Level"], "BP-01": ["Flow"]}})
    assert link("Please, list me the reservoirs of J.", cat).assets == ["North Reservoir", "South Reservoir"]
    assert link("level of the north reservoir", cat).assets == ["North Reservoir"]


def test_a_word_and_a_place_noun_where_a_site_stands_name_a_site_it_lacks():
    cat = Catalog.of({"Saltbush Bakehouse": {"Oven 1": ["Power"]}, "EEA Jaguari": {"BP-01": ["Power"]}})
    links = link("whats the peak power at the gawler plant yesterday", cat)
    assert [(m.kind, m.text) for m in links.missing] == [("site", "gawler")]
    assert not link("peak power at the jaguari station yesterday", cat).missing  # its own site's word


def test_a_sites_last_word_as_the_questions_first_word_names_it():
    cat = Catalog.of({"SGR Terminal": {"Main Electric Service": ["Demand"]}, "EEA Jaguari": {"BP-01": ["Power"]}})
    assert link("terminal peak demand - was yesterday higher than wednesday?", cat).sites == ["SGR Terminal"]


def test_a_second_point_sharing_the_first_ones_head_words():
    cat = Catalog.of({"B": {"Proofer P1": ["Chamber Temp", "Chamber Humidity", "Door Open"]}})
    links = link("can u dump proofer P1 chamber temp and humidity for the 2nd into one file", cat)
    assert links.sensors == ["Chamber Temp", "Chamber Humidity"]


def _tagged(plant: dict[str, dict[str, list[tuple[str, str | None, tuple[str, ...]]]]]) -> Catalog:
    cat = Catalog.of({s: {a: [p[0] for p in ps] for a, ps in assets.items()} for s, assets in plant.items()})
    for site, assets in plant.items():
        cat.site(site).sensors = {
            a: [SensorName(f"{a} {n}", n, u, tags) for n, u, tags in ps] for a, ps in assets.items()
        }
    return cat


HATCHERY = {
    "Fjordlaks": {
        "Kar 2": [
            ("Oksygen", "mg/L", ("oxygen", "sensor", "water", "point", "his")),
            ("Oksygen settpunkt", "mg/L", ("oxygen", "sp", "water", "point", "his")),
            ("Vanntemperatur", "°C", ("temp", "sensor", "water", "point", "his")),
        ],
        "Oksygentank LOX": [("Nivå", "%", ("level", "oxygen", "sensor")), ("Trykk", "bar", ("pressure", "oxygen"))],
    },
    "Paint Shop": {"E-Coat Tank": [("pH", "pH", ("ph", "sensor", "water")), ("Bath Temp", "°F", ("temp", "water"))]},
}


def test_a_named_assets_point_is_named_by_its_haystack_tags_in_any_language():
    cat = _tagged(HATCHERY)
    assert link("oxygen in kar 2 at 7:15 this morning?", cat).sensors == ["Oksygen"]
    assert link("lowest water temp in Kar 2 yesterday", cat).sensors == ["Vanntemperatur"]
    assert link("Can u export the LOX tank level for the 20th?", cat).sensors == ["Nivå"]
    assert link("kar 2 oxygen setpoint", cat).sensors == ["Oksygen settpunkt"]
    links = link("what is the pH in Kar 2 right now?", cat)  # another site's tag, none of Kar 2's: it lacks it
    assert links.sensors == [] and [(m.kind, m.text) for m in links.missing] == [("sensor", "pH")]


def test_a_capital_code_that_begins_one_name_names_it_and_a_word_before_its_kind_names_one_asset():
    cat = Catalog.of(
        {
            "W": {
                "RTO-1": ["Combustion Chamber Temp"],
                "MAU-1 Basecoat": ["Burner Gas Flow"],
                "MAU-3 Sealer": ["Burner Gas Flow"],
            }
        }
    )
    cat.site("W").types.update({"RTO-1": ["thermalOxidizer"], "MAU-1 Basecoat": ["mau"], "MAU-3 Sealer": ["mau"]})
    assert link("How many points are on the RTO?", cat).assets == ["RTO-1"]
    assert link("avg burner gas flow on the sealer MAU last wk?", cat).assets == ["MAU-3 Sealer"]
    assert link("which rto is hottest", cat).assets == []  # in lower case it is no code


def test_a_site_markers_head_noun_names_its_kind_and_a_points_decimal_is_its_name():
    cat = Catalog.of({"A": {"dh_vault_a": ["vault_rh"], "dh_vault_b": ["vault_rh"], "mausam_station": ["pm25"]}})
    cat.site("A").types.update(
        {"dh_vault_a": ["dessicantDehumidifier"], "dh_vault_b": ["dessicantDehumidifier"], "mausam_station": ["x"]}
    )
    assert link("how many dehumidifiers in the archive?", cat).asset_types == ["dessicantDehumidifier"]
    assert link("max pm2.5 outside yesterday", cat).sensors == ["pm25"]


# --- equipment several sites have, no site named ----------------------------------------------------------------

TWO_METERS = Catalog.of(
    {
        "Warren Works": {"Sub 4 Main Meter": ["Demand", "kWh Total"], "Oven 1": ["Zone Temp"]},
        "Patan Archive": {"main_meter": ["kw", "kwh"], "vault_a": ["vault_rh"]},
    }
)


@pytest.mark.parametrize(
    "question", ["How many kWh went through the main meter on Sunday?", "main meter demand yesterday", "MAIN-METER kwh"]
)
def test_words_naming_equipment_at_two_sites_link_neither_and_say_which_there_are(question):
    links = link(question, TWO_METERS)
    assert links.assets == [] and links.sites == []
    [which] = links.ambiguous
    assert set(which.options) == {"main_meter at Patan Archive", "Sub 4 Main Meter at Warren Works"}
    assert which.sentence().startswith('"') and "Which one is meant?" in which.sentence()


@pytest.mark.parametrize(
    "question, asset, site",
    [
        ("How many kWh went through the main meter at Warren Works on Sunday?", "Sub 4 Main Meter", "Warren Works"),
        ("main meter kwh at the Patan Archive yesterday", "main_meter", "Patan Archive"),
        ("Sub 4 Main Meter demand yesterday", "Sub 4 Main Meter", "Warren Works"),  # its whole name: one site's
        ("vault_a vault_rh yesterday", "vault_a", "Patan Archive"),
    ],
)
def test_a_named_site_or_a_whole_name_settles_which(question, asset, site):
    links = link(question, TWO_METERS)
    assert links.ambiguous == [] and links.assets == [asset] and links.sites == [site]


def test_a_meters_running_total_is_named_by_operators_words_for_it():
    cat = _tagged(
        {
            "W": {
                "Gas Meter GM-1": [
                    ("Gas Flow", "cfh", ("gas", "flow", "sensor")),
                    ("Gas Volume", "ft³", ("gas", "volume")),
                ],
                "Incomer": [("Demand", "kW", ("power",)), ("Import", "kWh", ("energy",)), ("PF", None, ("pf",))],
                "Tank": [("Level", "%", ("level",)), ("Flow", "m³/h", ("flow",))],
            }
        }
    )
    assert link("what did the gas meter totalizer read at 6 this morning", cat).sensors == ["Gas Volume"]
    assert link("the Incomer kWh register at midnight", cat).sensors == ["Import"]
    from datetime import UTC, datetime

    from edge_agent.grounding.run import Grounding

    now = datetime(2027, 3, 24, 9, 45, tzinfo=UTC)
    g = Grounding.build("the Tank totalizer at noon", cat, now)  # no running total on it: a sensor it lacks
    assert g.links.sensors == [] and [(m.kind, m.text) for m in g.links.missing] == [("sensor", "totalizer")]


def test_a_one_word_point_name_no_field_word_links_where_only_a_kind_is_named():
    cat = _tagged(
        {
            "Saha": {
                "Kuivaamo 1": [("Puhallinteho", "kW", ("fan", "power")), ("Kuivalämpötila", "°C", ("temp",))],
                "Kuivaamo 2": [("Puhallinteho", "kW", ("fan", "power")), ("Kuivalämpötila", "°C", ("temp",))],
            },
            "MRF": {"fan_1": [("power", "kW", ("power",))], "baler_1": [("power", "kW", ("power",))]},
        }
    )
    cat.site("Saha").types.update({"Kuivaamo 1": ["lumberKiln"], "Kuivaamo 2": ["lumberKiln"]})
    cat.site("MRF").types.update({"fan_1": ["fan"], "baler_1": ["baler"]})
    assert link("rank the kilns by Puhallinteho last week", cat).sensors == ["Puhallinteho"]
    assert link("which baler drew the most power", cat).sensors == []  # "power" is every site's word
    # "fan energy" of the kilns: a measure's qualifier (the points' `fan` tag), not a fan that Saha lacks
    links = link("rank the kilns by fan energy (Puhallinteho) last week", cat)
    assert links.missing == [] and links.sensors == ["Puhallinteho"] and links.asset_types == ["lumberKiln"]
    assert [(m.kind, m.text) for m in link("is there a baler at Saha?", cat).missing] == [("kind", "baler")]


def test_what_a_meter_used_is_its_running_total_of_the_points_its_tag_fits():
    cat = _tagged(
        {
            "Saha": {
                "Höyrymittari": [
                    ("Höyryvirtaus", "t/h", ("steam", "flow")),
                    ("Höyryn kulutus", "t", ("steam", "mass")),
                ],
                "Höyrykattila K1": [("Höyrynpaine", "bar", ("steam", "pressure"))],
            }
        }
    )
    cat.site("Saha").types.update({"Höyrymittari": ["steamMeter", "meter"], "Höyrykattila K1": ["boiler"]})
    assert link("Did we use more steam last week than the week before? Check the Höyrymittari.", cat).sensors == [
        "Höyryn kulutus"
    ]
    assert link("steam flow of the Höyrymittari yesterday", cat).sensors == ["Höyryvirtaus"]
    assert link("highest steam on the Höyrymittari yesterday", cat).sensors == []  # a level of which? not said


def test_the_kind_word_for_a_site_that_lacks_the_kind_is_the_site_itself_where_an_asset_there_is_named():
    cat = _tagged(
        {
            "Saha": {"Höyrymittari": [("Höyryn kulutus", "t", ("steam", "mass"))]},
            "Mine": {"SAG-01": [("MTR KW", "kW", ("power",))]},
        }
    )
    cat.site("Saha").types.update({"Höyrymittari": ["steamMeter", "meter"]})
    cat.site("Mine").types.update({"SAG-01": ["grindingMill"]})
    links = link("Did the mill use more steam last week than the week before? Check the Höyrymittari.", cat)
    assert links.missing == [] and links.sites == ["Saha"] and links.sensors == ["Höyryn kulutus"]
    # "the mill test": a kind's word before another noun is no word for the site
    links = link("How much steam did the Höyrymittari count during the mill test?", cat)
    assert [(m.kind, m.text) for m in links.missing] == [("kind", "mill (grinding mill)")]


def test_a_sites_later_word_written_as_a_place_names_it():
    cat = Catalog.of(
        {
            "Cementera Tepeaca": {"Medidor de Gas": ["Volumen Acumulado"]},
            "eastgate_ice_arena": {"gas_meter": ["gas_volume"], "brine_pump_1": ["kw"]},
            "Harbour Point": {"AHU-1": ["Supply Temp"]},
        }
    )
    assert link("do we have any pumps at tepeaca?", cat).sites == ["Cementera Tepeaca"]
    assert link("what did the gas meter read at midnight? tepeaca", cat).sites == ["Cementera Tepeaca"]
    assert link("how many air compressors are there at the cement plant in Tepeaca?", cat).sites == [
        "Cementera Tepeaca"
    ]
    links = link("was the supply temp above 20 at any point yesterday?", cat)  # "point": a plain word, no place
    assert not [m for m in links.mentions if m.kind == "site" and m.text]


def test_a_kind_word_names_the_marker_that_is_that_word_not_a_narrower_ones_head_noun():
    cat = Catalog.of({"Cementera": {"Molino de Crudo": ["Potencia"], "Molino de Cemento 1": ["Potencia"]}})
    cat.site("Cementera").types.update(
        {"Molino de Crudo": ["rawMill", "mill"], "Molino de Cemento 1": ["cementMill", "mill"]}
    )
    assert link("what mills do we have at Cementera?", cat).asset_types == ["mill"]
    assert link("list the raw mills at Cementera", cat).asset_types == ["rawMill"]


def test_a_point_named_in_another_language_is_linked_by_a_word_with_another_ending():
    cat = _tagged(
        {
            "Vetreria": {
                "Forno 2": [
                    ("Temperatura Gases de Escape", "°C", ("temp", "exhaust")),
                    ("Temperatura Zona de Fusão", "°C", ("temp",)),
                    ("Consigna Zona de Fusão", "°C", ("temp", "sp")),
                    ("Potência", "kW", ("power",)),
                ]
            },
            "Depot": {"AHU-1": [("Zone Temp", "°C", ("zone", "temp"))]},
        }
    )
    assert link("max gas temp on forno 2 yesterday", cat).sensors == ["Temperatura Gases de Escape"]
    links = link("how long was the melting zone on forno 2 below 1400 °C", cat)  # "zone" is a tag elsewhere
    assert links.missing == [] and links.sensors == ["Temperatura Zona de Fusão"]  # never the setpoint
    links = link("max condenser temp on forno 2", cat)  # a qualifier no name has, in any ending: lacking
    assert links.sensors == [] and [m.kind for m in links.missing] == ["sensor"]


def test_an_asset_said_by_its_first_and_last_words_and_a_word_before_a_measure_names_a_point_of_that_measure():
    cat = _tagged(
        {
            "Vetro": {
                "Forno Fusorio 1": [
                    ("Temperatura Fumi", "°C", ("temp", "exhaust")),
                    ("Portata Gas", "m³/h", ("gas", "flow")),
                ],
                "Forno Fusorio 2": [("Temperatura Fumi", "°C", ("temp", "exhaust"))],
                "Canale 1": [("Temperatura Goccia", "°C", ("temp",))],
            }
        }
    )
    links = link("when did the flue gas temp (temperatura fumi) on forno 1 peak last week?", cat)
    assert links.assets == ["Forno Fusorio 1"] and links.missing == []  # "forno 1": its middle word left out
    assert links.sensors == ["Temperatura Fumi"]  # "gas temp" is a temperature: never Portata Gas
    assert link("gas use of forno fusorio 1 yesterday", cat).sensors == ["Portata Gas"]
    assert [m.kind for m in link("forno 3 at Vetro", cat).missing] == ["asset"]


def test_a_point_the_asset_lacks_is_said_in_the_operators_words_where_they_named_another_assets_point_loosely():
    cat = _tagged(
        {
            "AD": {
                "FEED_PMP_02": [("FLOW", "m³/h", ("flow",)), ("KW", "kW", ("power",))],
                "GASHOLDER_01": [("PRESS", "mbar", ("pressure",)), ("LEVEL", "%", ("level",))],
            },
            "X": {"Y": [("Z", "kW", ("power",))]},
        }
    )
    links = link("FEED_PMP_02 discharge pressure rn?", cat)
    assert [(m.kind, m.text, m.asset) for m in links.missing] == [("sensor", "pressure", "FEED_PMP_02")]


@pytest.mark.parametrize(
    ("written", "name", "same"),
    [
        ("gas", "gases", True),
        ("zone", "zona", True),
        ("temperature", "temperatura", True),
        ("windy", "wind", True),
        ("pump", "pumps", True),
        ("hot", "hotel", False),
        ("heat", "heater", False),
        ("flow", "floor", False),
        ("exit", "salida", False),
        ("on", "one", False),
    ],
)
def test_inflected_is_one_word_with_another_ending(written, name, same):
    from edge_agent.grounding.links import inflected

    assert inflected(written, name) is same and inflected(name, written) is same


@given(st.text(alphabet="abcdefghijklmnopqrstuvwxyz", min_size=1, max_size=12))
def test_inflected_holds_for_a_word_and_itself_only_when_it_could_be_a_stem(word):
    from edge_agent.grounding.links import inflected

    assert inflected(word, word)
    assert inflected(word, word + "es") is (len(word) >= 3)
    assert not inflected(word, word + "ment")
