"""What may be delivered as `answered`: prose only where the run's facts support it whole; fragments and repeated
clauses never; a question in several parts answered in part is `partial`, with what was and was not established."""

from __future__ import annotations

import json
from datetime import UTC, datetime

from hypothesis import given
from hypothesis import strategies as st

from edge_agent.grounding.catalog import Catalog
from edge_agent.grounding.run import ANSWERED_BY, Grounding, well_formed

CATALOG = Catalog.of(
    {
        "SITE-A": {"Freezer 1": ["Box Temp", "Compressor Power"], "Freezer 2": ["Box Temp"]},
        "SITE-B": {"Dock Door 1": ["Open Status"]},
    }
)


def _claims(g: Grounding, answer: str):
    return g.check(answer)


def test_repeated_pieces_of_tool_output_are_not_an_answer():
    g = Grounding.build("Which freezer ran the coldest last week?", CATALOG)
    g.observe(1, 1, "sites", "found 2 sites: SITE-A, SITE-B")
    answer = "SITE-A, SITE-B, found 2 sites, found 2 sites, found 2 sites"
    assert g.unsupported(1, answer, _claims(g, answer))


def test_prose_with_words_no_observation_holds_is_not_answered():
    g = Grounding.build("list the sensors of Freezer 1 at SITE-A", CATALOG)
    g.in_code = ""  # (code lists them from the catalog; here the model's own prose is what is checked)
    g.observe(1, 1, "sensors", "Freezer 1 has 2 sensors: Box Temp, Compressor Power")
    answer = "The 2 sensors on Freezer 1 are connected to the sensors_freezer file"
    lacking = g.unsupported(1, answer, _claims(g, answer))
    assert "connected" in lacking


def test_prose_the_observations_hold_whole_is_answered():
    g = Grounding.build("What day is it?", CATALOG)
    g.observe(1, 1, "currentdatetime", "It is Friday 2020-06-05 09:00 (America/New_York)")
    for answer in ("Friday", "It is Friday"):
        assert g.unsupported(1, answer, _claims(g, answer)) == ""


def test_words_of_another_trial_are_no_evidence():
    g = Grounding.build("What day is it?", CATALOG)
    g.observe(1, 1, "currentdatetime", "It is Friday 2020-06-05 09:00 (America/New_York)")
    assert g.unsupported(2, "Friday", _claims(g, "Friday"))


@given(st.lists(st.sampled_from(["found 2 sites", "SITE-A", "the box temp", "Freezer 1 ran"]), min_size=2, max_size=6))
def test_a_clause_said_twice_is_never_well_formed(clauses):
    text = ", ".join(clauses)
    repeated = len({" ".join(c.casefold().split()) for c in clauses if len(c.split()) >= 2}) < len(
        [c for c in clauses if len(c.split()) >= 2]
    )
    thrice = max(clauses.count(c) for c in clauses) >= 3  # one item listed three times: run-on output
    assert well_formed(text) == (not repeated and not thrice)


def test_a_question_answered_in_part_is_partial_naming_what_was_not_established():
    g = Grounding.build("How many freezers are at SITE-A and what was the peak Compressor Power of Freezer 1?", CATALOG)
    assert len(g.reading.parts) == 2
    g.observe(
        1,
        1,
        "assets",
        "found 2 freezer assets at SITE-A: Freezer 1, Freezer 2",
        head="found 2 assets at SITE-A: Freezer 1, Freezer 2",
        args={"site_name": "SITE-A"},
    )
    said = g.established(1)
    assert said.startswith("Found 2 assets at SITE-A: Freezer 1, Freezer 2")
    assert "Not established by this run" in said and "peak Compressor Power" in said
    # nothing established: no partial answer
    assert (
        Grounding.build(
            "How many freezers are at SITE-A and what was the peak Compressor Power of Freezer 1?", CATALOG
        ).established(1)
        == ""
    )


def test_a_question_about_the_future_is_refused_in_code_naming_the_period():
    from datetime import datetime

    now = datetime(2020, 6, 8, 9, tzinfo=UTC)
    for question, phrase in (
        ("What will the Box Temp of Freezer 1 at SITE-A be tomorrow?", "tomorrow"),
        ("freezer 2 box temp next week at SITE-A", "next week"),
    ):
        g = Grounding.build(question, CATALOG, now)
        assert g.refusal == "forecast" and g.answered_by_links()
        assert "cannot forecast" in g.in_code and phrase in g.in_code
    past = Grounding.build("What was the Box Temp of Freezer 1 at SITE-A yesterday?", CATALOG, now)
    assert not past.refusal and not past.in_code


KINDS = Catalog.of(
    {
        "DC-EAST": {"CRAC-01": ["Return Air Temp"], "UPS A": ["Load"]},
        "DC-WEST": {"CRAC-07": ["Return Air Temp"], "Gen 1": ["Fuel Level"]},
    }
)
KINDS.site("DC-EAST").types.update({"CRAC-01": ["crac"], "UPS A": ["ups"]})
KINDS.site("DC-WEST").types.update({"CRAC-07": ["crac"], "Gen 1": ["generator"]})


def test_a_kind_is_linked_on_every_site_and_its_only_site_is_linked_with_it():
    g = Grounding.build("how many generators are there?", KINDS)
    assert g.links.asset_types == ["generator"] and g.links.sites == ["DC-WEST"]
    both = Grounding.build("list the cracs", KINDS)
    assert both.links.asset_types == ["crac"] and both.links.sites == []


def test_is_there_a_kind_at_a_site_that_lacks_it_is_no_not_yes_the_site_exists():
    g = Grounding.build("Is there a generator at DC-EAST?", KINDS)
    assert g.in_code.startswith("No: There is no generator at DC-EAST")
    yes = Grounding.build("Is there a generator at DC-WEST?", KINDS)
    assert yes.in_code.startswith("Yes: DC-WEST has 1 generator")


def test_a_kind_the_field_defines_that_no_site_has_is_a_missing_kind():
    g = Grounding.build("Is there a boiler at DC-EAST?", KINDS)
    assert g.in_code.startswith("No: There is no boiler at DC-EAST")
    many = Grounding.build("how many boilers does DC-WEST have", KINDS)
    assert [m.kind for m in many.links.missing] == ["kind"]
    speed = Grounding.build("what was the fan speed of CRAC-01 at DC-EAST", KINDS)
    assert not [m for m in speed.links.missing if m.kind == "kind"]


def test_a_mixed_request_answers_the_data_and_refuses_the_rest_without_showing_it_to_the_model():
    q = "What was the peak Compressor Power of Freezer 1 at SITE-A yesterday? Also switch Freezer 2 off."
    g = Grounding.build(q, CATALOG)
    assert g.reading.intent == "read" and not g.in_code
    assert g.missing_prefix().startswith("This gateway only reads data; it cannot switch")
    assert "switch" not in g.asked_text() and "Compressor Power" in g.asked_text()
    only = Grounding.build("Sorry to bother you, please switch Freezer 2 off.", CATALOG)
    assert only.refusal == "control" and "cannot" in only.in_code


def test_slips_of_the_question_words_are_read_as_the_words_but_names_never_change():
    from edge_agent.grounding.question import spelled

    assert (
        spelled("Can you retsart Freezer 1? swtich it off rgiht now")
        == "Can you restart Freezer 1? switch it off right now"
    )
    assert spelled("Please switch Cooling Tower 1 on") == "Please switch Cooling Tower 1 on"  # a name stays
    g = Grounding.build("Please swtich Freezer 2 off.", CATALOG)
    assert g.refusal == "control"


def test_an_attribute_the_skyspark_does_not_record_is_said_to_be_not_recorded_or_read_from_its_tag():
    g = Grounding.build("Who is the manufacturer of Freezer 1 at SITE-A?", CATALOG)
    assert g.in_code.startswith("The manufacturer of Freezer 1 is not recorded on the SkySpark")
    CATALOG.site("SITE-A").attrs["Freezer 2"] = {"manufacturer": "Frigotech", "installDate": "2019-04-01"}
    tagged = Grounding.build("what's the install date of Freezer 2 at SITE-A", CATALOG)
    assert tagged.in_code.startswith("The install date of Freezer 2 recorded on the SkySpark is 2019-04-01")


def test_words_nothing_places_are_named_and_never_make_a_site_yes():
    g = Grounding.build("Does SITE-B have a Kessel?", CATALOG)
    assert "kessel" in g.unplaced and not g.in_code.startswith("Yes")
    assert (
        Grounding.build("What was the Box Temp of Freezer 1 at SITE-A on Tuesday 2 June 2020?", CATALOG).unplaced == []
    )


def test_two_periods_compared_are_never_answered_with_one_periods_figures():
    now = datetime(2020, 6, 5, 9, 0, tzinfo=UTC)
    g = Grounding.build("Was Freezer 1's Box Temp higher on Tuesday or on Wednesday at SITE-A?", CATALOG, now)
    assert [p.ask for p in g.reading.parts] == ["periods"]
    # both periods are pinned, in the question's order: the first as the call's period, the second as the other
    assert (g.start, g.final) == ("2020-06-02T00:00:00", "2020-06-03T00:00:00")
    assert g.other == ("2020-06-03T00:00:00", "2020-06-04T00:00:00")
    assert g.scope().pins["other_start"] == "2020-06-03T00:00:00" and g.scope().pins["order"] == "highest"
    assert "compare_periods" in ANSWERED_BY["periods"]
    g.observe(
        1,
        1,
        "histories",
        "Box Temp: max 3.5 at 2020-06-02T10:00, 96 values",
        head="The highest Freezer 1 Box Temp on 2 June 2020 was 3.5 °C, at 10:00",
        answers=True,
    )
    assert not g.answer_closed(1) and g.open_parts(1)
    assert g.unsupported(1, "The highest Freezer 1 Box Temp on 2 June 2020 was 3.5 °C, at 10:00", [])
    head = "2 June 2020 had the higher maximum Box Temp of Freezer 1: 3.5 °C, against 3.1 °C on 3 June 2020"
    g.observe(1, 2, "compare_periods", head + "; saved to periods_x.json", head=head, answers=True)
    assert g.answer_closed(1) and not g.open_parts(1)


def test_a_yes_no_question_answered_in_prose_must_say_yes_or_no():
    g = Grounding.build("Is there a tower at SITE-A?", CATALOG)
    g.observe(1, 1, "assets", "found 2 assets at SITE-A: Freezer 1, Freezer 2")
    answer = "The 2 assets at SITE-A are Freezer 1, Freezer 2"
    assert "yes or no" in g.unsupported(1, answer, _claims(g, answer))


def test_a_short_site_code_the_skyspark_lacks_is_missing_and_no_other_site_stands_in():
    cat = Catalog.of({"DC1": {"CH-1": ["Power"]}, "DC2-ANNEX": {"CT-1": ["Fan Power"]}})
    cat.site("DC1").types.update({"CH-1": ["chiller"]})
    g = Grounding.build("how many chillers does DC3 have?", cat)
    assert [(m.kind, m.text) for m in g.links.missing] == [("site", "DC3")] and g.links.sites == []
    assert g.answered_by_links() and g.missing_prefix().startswith("There is no site DC3")


def test_a_word_no_sensor_of_the_named_asset_holds_is_a_missing_sensor_not_a_guess():
    from datetime import datetime

    g = Grounding.build("max Level for Freezer 1 at SITE-A yesterday", CATALOG, datetime(2020, 6, 8, tzinfo=UTC))
    assert [(m.kind, m.text, m.asset) for m in g.links.missing] == [("sensor", "Level", "Freezer 1")]
    company = Grounding.build("Which copmany made Freezer 1?", CATALOG, datetime(2020, 6, 8, tzinfo=UTC))
    assert not company.links.missing  # no period: no data asked, the word is not taken for a measure


def test_comparison_signs_and_terse_forms_read_as_the_comparison():
    from edge_agent.grounding.question import read_question

    assert read_question("hours with Power > 365kW on 2026-04-05?").parts[0].ask == "duration"
    terse = read_question("Heat Pump 2: Leaving Water Temp below Leaving Water Temp Setpoint on 27 March?").parts[0]
    assert (terse.ask, terse.direction, terse.setpoint) == ("excursion", "below", True)
    assert read_question("Morning - any fans on Darling Yard?").parts[0].ask == "exists"


def test_a_head_that_starts_with_a_lower_case_name_keeps_its_case():
    from edge_agent.grounding.run import _sentence

    assert _sentence("rtu_3 zone_temp was 70.63 °F at 02:30") == "rtu_3 zone_temp was 70.63 °F at 02:30"
    assert _sentence("found 2 sites: A, B") == "Found 2 sites: A, B"


def test_the_distill_models_own_goal_is_no_evidence_for_the_answers_words():
    g = Grounding.build("list the sensors of Freezer 1 at SITE-A", CATALOG)
    g.in_code = ""  # (code lists them from the catalog; here the model's own prose is what is checked)
    g.set_facts("Worked out from the question: site_name SITE-A; asset_name Freezer 1\nGoal: find the copbone of it")
    g.observe(1, 1, "sensors", "found 2 sensors on Freezer 1: Box Temp, Compressor Power")
    answer = "The copbone of Freezer 1 is Box Temp"
    assert "copbone" in g.unsupported(1, answer, _claims(g, answer))


def test_a_narrower_kind_the_skyspark_does_not_mark_is_placed_and_said():
    cat = Catalog.of({"LAB": {"ef_1": ["Power"], "ef_2": ["Power"], "Exhaust Fan 3": ["Power"], "SF-1": ["Power"]}})
    cat.site("LAB").types.update({a: ["fan"] for a in ("ef_1", "ef_2", "Exhaust Fan 3", "SF-1")})
    g = Grounding.build("exhaust fans (LAB)?", cat)
    # "exhaust" narrows the fans (Brick: an Exhaust_Fan is a Fan): placed; only the fans named so are listed
    assert g.unplaced == [] and g.links.asset_types == ["fan"]
    assert g.in_code == "Found 1 fan at LAB: Exhaust Fan 3"
    only_marker = Catalog.of({"LAB": {"ef_1": ["Power"], "ef_2": ["Power"]}})
    only_marker.site("LAB").types.update({a: ["fan"] for a in ("ef_1", "ef_2")})
    said = Grounding.build("exhaust fans (LAB)?", only_marker).in_code
    assert said.startswith("Found 2 fans at LAB: ef_1, ef_2") and "which are exhaust fans" in said
    # a word that narrows nothing the field defines stays unplaced
    assert "purple" in Grounding.build("purple fans (LAB)?", only_marker).unplaced


def test_names_in_a_refused_piece_are_not_what_the_data_part_asks_for():
    cat = Catalog.of({"FRESNO": {"Ripening Rm 1": ["Air Temp", "Ethylene"]}})
    g = Grounding.build(
        "whats the temp in ripening rm 1 right now and also shut its ethylene injection off",
        cat,
        datetime(2024, 4, 5, 10, tzinfo=UTC),
    )
    assert g.reading.also and g.links.sensors == [] and g.links.measures == ["temperature"]


def test_a_yes_no_question_is_not_answered_with_figures_alone():
    cat = Catalog.of({"DEPOT": {"HP.L2.05": ["LeavingWaterTemp", "LeavingWaterTempSetpoint"]}})
    q = "HP.L2.05 at DEPOT: LeavingWaterTemp below leavingwatertempsetpoint on 2026-03-30, yes or no?"
    g = Grounding.build(q, cat, datetime(2026, 3, 31, 8, tzinfo=UTC))
    part = g.reading.parts[0]
    assert (part.ask, part.form, part.direction, part.setpoint) == ("excursion", "yes_no", "below", True)
    head = "The highest HP.L2.05 LeavingWaterTemp on 30 March 2026 was 43.33 °C, at 12:00"
    g.observe(1, 1, "histories", head + "; saved to h.json", head=head, answers=True)
    assert g.unsupported(1, head, [])  # figures say neither yes nor no


def test_assets_a_word_of_their_names_groups_are_counted_from_the_catalog():
    cat = Catalog.of({"Werk Nord": {"Kessel 1": ["T"], "Kessel 2": ["T"], "Pumpe P-03": ["Q"]}})
    cat.site("Werk Nord").types.update({"Kessel 1": ["boiler"], "Kessel 2": ["boiler"], "Pumpe P-03": ["pump"]})
    g = Grounding.build("Hello there, count the Kessel (Werk Nord). Thanks!", cat)
    assert g.in_code == "Found 2 boilers named Kessel at Werk Nord: Kessel 1, Kessel 2"
    assert Grounding.build("count the Pumpe (Werk Nord)", cat).in_code == ""  # one name is no group
    vessels = Catalog.of({"Hopwell": {"FV-01": ["Temp"], "FV-02": ["Temp"], "GC-1": ["Temp"]}})
    vessels.site("Hopwell").types.update({"FV-01": ["fermenter"], "FV-02": ["fermenter"], "GC-1": ["chiller"]})
    said = Grounding.build("how many FVs do we have at Hopwell?", vessels).in_code
    assert said == "Found 2 fermenters named FV at Hopwell: FV-01, FV-02"


def test_every_attribute_a_clause_asks_for_is_answered():
    cat = Catalog.of({"B": {"Comp 1": ["Power"], "Comp 2": ["Power"]}})
    cat.site("B").types.update({"Comp 1": ["compressor"], "Comp 2": ["compressor"]})
    said = Grounding.build("who's the manufacturer of the compressors at B, and their install date?", cat).in_code
    assert said.startswith("The manufacturer of Comp 1 and Comp 2 is not recorded on the SkySpark; ")
    assert "The install date of Comp 1 and Comp 2 is not recorded" in said


def test_prose_never_answers_a_question_with_words_nothing_placed():
    g = Grounding.build("hey can u tell me what gubbins we log on Freezer 1 at SITE-A", CATALOG)
    assert "gubbins" in g.unplaced
    g.observe(1, 1, "sensors", "found 2 sensors on Freezer 1: Box Temp, Compressor Power")
    answer = "The 2 sensors on Freezer 1 are Box Temp and Compressor Power."
    assert "could not place" in g.unsupported(1, answer, _claims(g, answer))


def test_a_count_of_a_word_nothing_placed_is_not_answered_by_a_listing_of_sites():
    g = Grounding.build("hi, quick one - how many aeration blowers have we got at the SITE-A plant?", CATALOG)
    assert "blowers" in g.unplaced
    head = "Found 2 sites: SITE-A, SITE-B"
    g.observe(1, 1, "sites", head + "; saved to sites.json", head=head)
    assert "not understood" in g.unsupported(1, head, [])


def test_a_listing_of_a_general_thing_is_understood_whatever_word_qualifies_it():
    g = Grounding.build("What IoT sites are available?", CATALOG)
    head = "Found 2 sites: SITE-A, SITE-B"
    g.observe(1, 1, "sites", head + "; saved to sites.json", head=head)
    assert "not understood" not in g.unsupported(1, head, [])


def test_a_figure_only_the_question_holds_is_no_finding():
    now = datetime(2026, 11, 2, 7, 0, tzinfo=UTC)
    g = Grounding.build("whats the highest box temp of Freezer 1 at SITE-A on 10/31", CATALOG, now)
    g.observe(1, 1, "sensors", "found 2 sensors on Freezer 1: Box Temp, Compressor Power")
    answer = "The highest Box Temp of Freezer 1 at SITE-A was 10."
    assert g.unsupported(1, answer, _claims(g, answer))  # no data call's head; and its "10" is the question's


def test_a_place_named_where_a_site_stands_that_the_skyspark_lacks_is_missing():
    g = Grounding.build("What's the power draw at the Stockton depot right now?", CATALOG)
    assert [(m.kind, m.text) for m in g.links.missing] == [("site", "Stockton depot")] and not g.unplaced
    assert not Grounding.build("What's the box temp at SITE-A right now?", CATALOG).links.missing


def test_the_refusal_of_a_piece_does_not_answer_the_data_the_question_also_asks():
    g = Grounding.build("SITE-A: Freezer 1 box temp at midnight? and then start Freezer 2, thanks", CATALOG)
    prefix = g.answer_prefix(1)
    assert g.reading.also and prefix.startswith("This gateway only reads data")
    answer = prefix + ", we will have to make a freezer to start."
    assert "no call of this run answered" in g.unsupported(1, answer, _claims(g, answer))
    head = "Freezer 1 Box Temp was -18.5 °C at 00:00 on 1 November 2026"
    g.observe(1, 1, "histories", head + "; saved to h.json", head=head, answers=True)
    said = g.answer_prefix(1)
    assert head in said and g.unsupported(1, said, _claims(g, said)) == ""


def test_a_listing_does_not_answer_how_many_of_a_unit():
    g = Grounding.build("how many kwh did Freezer 1 at SITE-A burn yesterday?", CATALOG)
    head = "found 2 sensors on Freezer 1: Box Temp, Compressor Power"
    g.observe(1, 1, "sensors", head + "; saved to s.json", head=head)
    assert g.answer_prefix(1) == ""  # a listing is no amount of energy


def test_two_sensors_asked_need_both_read():
    g = Grounding.build("Freezer 1 box temp and compressor power yesterday at SITE-A in one file", CATALOG)
    assert g.links.sensors == ["Box Temp", "Compressor Power"]
    head = "The highest Freezer 1 Box Temp on 1 November 2026 was -17.0 °C, at 02:45"
    args = {"site_name": "SITE-A", "asset_name": "Freezer 1", "sensor_name": "Box Temp"}
    g.observe(
        1, 1, "histories", head + "; saved to h.json", head=head, answers=True, call="histories " + json.dumps(args)
    )
    answer = g.answer_prefix(1)
    assert g.unsupported(1, answer, _claims(g, answer)) == "no call of this run read Compressor Power"


def test_a_call_about_nothing_the_question_named_does_not_answer_a_word_nothing_placed():
    g = Grounding.build("For how many hours was the pool heater below its supply temp setpoint on Tuesday?", CATALOG)
    assert "heater" in g.unplaced and not (g.links.sites or g.links.assets)
    head = "Yes: Box Temp of Freezer 1 was below its setpoint in 28 of 96 samples (7.0 h)"
    g.observe(1, 1, "excursions", head + "; saved to e.json", head=head, answers=True)
    assert "not understood: " in g.unsupported(1, head, []) and "heater" in g.unsupported(1, head, [])


def test_one_file_asked_for_is_not_answered_by_two():
    g = Grounding.build("Freezer 1 and Freezer 2 box temp yesterday at SITE-A, in one file please", CATALOG)
    for n, asset in enumerate(["Freezer 1", "Freezer 2"], 1):
        head = f"The highest {asset} Box Temp on 1 November 2026 was -17.0 °C; saved to h{n}.json"
        args = {"site_name": "SITE-A", "asset_names": [asset], "sensor_name": "Box Temp"}
        g.observe(1, n, "histories", head, head=head, answers=True, call="histories " + json.dumps(args))
    answer = g.answer_prefix(1)
    assert (
        g.unsupported(1, answer, _claims(g, answer))
        == "one file was asked for, and this run's data is in 2: h1.json, h2.json"
    )
    merge = {"file_name_1": "h1.json", "file_name_2": "h2.json"}
    head = "the 192 rows of h1.json and h2.json are saved in one file, merged-1.json"
    g.observe(1, 3, "jsonmerge", head, head=head, answers=True, call="jsonmerge " + json.dumps(merge))
    answer = g.answer_prefix(1)
    assert "merged-1.json" in answer and "one file was asked for" not in g.unsupported(1, answer, _claims(g, answer))


def test_a_sensor_named_inside_another_is_not_asked_apart():
    cat = Catalog.of({"B": {"Main Meter": ["Active Power", "Power"], "Lab Meter": ["Active Power", "Power"]}})
    g = Grounding.build("Freezer? no: Main Meter Active Power and Power yesterday at B", cat)
    assert set(g.links.sensors) == {"Active Power", "Power"}
    args = {"site_name": "B", "asset_names": ["Main Meter"], "sensor_name": "Active Power"}
    head = "The highest Main Meter Active Power on 1 November 2026 was 4.0 kW"
    g.observe(
        1, 1, "histories", head + "; saved to h.json", head=head, answers=True, call="histories " + json.dumps(args)
    )
    assert "no call of this run read" not in g.unsupported(1, g.answer_prefix(1), [])


def test_two_listings_merged_are_no_data_in_one_file():
    g = Grounding.build("download Freezer 1 and Freezer 2 box temps for yesterday at SITE-A into one file", CATALOG)
    for n, site in enumerate(["SITE-A", "SITE-B"], 1):
        head = f"found 2 assets at {site}"
        g.observe(1, n, "assets", head + f"; saved to a{n}.json", head=head, call=f"assets {n}")
    merge = {"file_name_1": "a1.json", "file_name_2": "a2.json"}
    head = "the 4 rows of a1.json and a2.json are saved in one file, merged-1.json"
    g.observe(1, 3, "jsonmerge", head, head=head, answers=True, call="jsonmerge " + json.dumps(merge))
    assert g.answer_prefix(1) == "" and g.unsupported(1, head, _claims(g, head)) != ""
    g.observe(2, 1, "jsonmerge", head, head=head, answers=True, call="jsonmerge " + json.dumps(merge))
    assert g.answer_prefix(2) == ""  # a later trial merging what an earlier one listed


def test_a_misspelt_word_of_the_catalog_or_the_field_is_read_as_that_word():
    cat = Catalog.of({"W": {"North Clarifier": ["Sludge Blanket"], "FST-3": ["Sludge Blanket"]}, "X": {"P": ["Flow"]}})
    for site in ("W",):
        cat.site(site).types.update({"North Clarifier": ["clarifier"], "FST-3": ["clarifier"]})
    g = Grounding.build("How many clarifers are there at W?", cat)
    assert g.respelt == {"clarifers": "clarifiers"} and not g.unplaced
    assert g.in_code.startswith("Found 2 clarifiers at W")
    # a changed letter is often another real word: "heater" is not "heated", "letter" not "wetter"
    assert Grounding.build("write a cover letter for the heater", cat).respelt == {}


def test_a_place_the_skyspark_lacks_is_a_missing_site_even_with_a_word_of_another_topic():
    cat = Catalog.of({"A": {"Boiler 1": ["Flow Temp"]}, "B": {"Boiler 2": ["Flow Temp"]}})
    for site, asset in (("A", "Boiler 1"), ("B", "Boiler 2")):
        cat.site(site).types.update({asset: ["boiler"]})
    g = Grounding.build("how many boilers does the Eastgate Hotel have?", cat)
    assert [(m.kind, m.text) for m in g.links.missing] == [("site", "Eastgate Hotel")] and g.in_code == ""
    assert g.refusal == ""


def test_a_total_asked_is_answered_only_by_a_head_that_states_one():
    cat = Catalog.of({"K": {"Weather Station": ["Rainfall", "Outside Temp"]}})
    now = datetime(2026, 11, 7, 10, 0, tzinfo=UTC)
    g = Grounding.build("How many mm of rain fell at K yesterday in total?", cat, now)
    head = "The highest Weather Station Rainfall on 6 November 2026 was 1.3 mm, at 03:30; mean 0.24 mm; 96 values"
    g.observe(1, 1, "history", head + "; saved to h.json", head=head, answers=True, call='history {"a": 1}')
    assert "asks for a total" in g.unsupported(1, head, [])
    g = Grounding.build("How much energy did the Weather Station use yesterday?", cat, now)
    head = "The energy Weather Station Power on 6 November 2026 was 12.5 kWh; 96 values"
    g.observe(1, 1, "history", head + "; saved to h.json", head=head, answers=True, call='history {"a": 1}')
    assert "total" not in g.unsupported(1, head, [])
    cat = Catalog.of({"K": {"B045 Total": ["Power"]}})
    g = Grounding.build("What was the power of B045 Total at K at 04:30 yesterday?", cat, now)
    head = "B045 Total Power was 449.09 kW at 04:30 on 6 November 2026"
    g.observe(1, 1, "history", head + "; saved to h.json", head=head, answers=True, call='history {"a": 1}')
    assert g.unsupported(1, head, []) == ""  # "Total" of a name asks no total


def test_the_refusal_of_a_mixed_request_says_the_operation_in_lower_case():
    cat = Catalog.of({"K": {"Bay A": ["CO2"], "CO2 Doser": ["Dosing Rate"]}})
    g = Grounding.build(
        "Max CO2 in Bay A yesterday? Open the CO2 Doser valve to 100%", cat, datetime(2026, 11, 7, tzinfo=UTC)
    )
    assert g.answer_prefix(1).startswith("This gateway only reads data; it cannot open the CO2 Doser valve to 100%")


def test_a_listing_never_answers_a_question_for_a_measure_of_a_kind():
    cat = Catalog.of({"D": {"Steam Boiler": ["Steam Flow"]}, "H": {"HW Boiler": ["Flow Temp"]}})
    for site, asset in (("D", "Steam Boiler"), ("H", "HW Boiler")):
        cat.site(site).types.update({asset: ["boiler"]})
    now = datetime(2026, 3, 13, 10, 0, tzinfo=UTC)
    g = Grounding.build("what was the mean steam flow from the boiler on the 3rd", cat, now)
    head = "Found 2 sites: D, H"
    g.observe(1, 1, "sites", head + "; saved to sites.json", head=head)
    assert g.unsupported(1, head, []) != ""
    g = Grounding.build("which boilers do we have at D?", cat, now)
    head = "Found 1 boiler at D: Steam Boiler"
    g.observe(1, 1, "assets", head + "; saved to assets.json", head=head)
    assert g.unsupported(1, head, []) == ""


def test_the_other_spelling_of_english_and_the_only_one_of_a_kind():
    cat = Catalog.of({"D": {"PAST-1": ["Holding Temp", "Holding Temp Setpoint"], "Silo 1": ["Milk Temp"]}})
    cat.site("D").types.update({"PAST-1": ["pasteurizer"], "Silo 1": ["tank"]})
    g = Grounding.build("max holding temp of the pasteuriser yesterday", cat, datetime(2026, 3, 13, tzinfo=UTC))
    assert not g.unplaced  # the kind's British spelling is its name (no respelling needed: `lacking._spellings`)
    assert g.links.assets == ["PAST-1"]  # "the <kind>" where one asset is of that kind
