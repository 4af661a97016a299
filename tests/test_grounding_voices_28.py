"""Classes blind sets 27 and 28 showed after their frozen runs (issue 40, session 28), each read by a rule of English,
of a contract's language or of the field, never by a set's words: a contract's terms and a party's possessive are no
question about an attribute; a greeting and a sentence citing a clause frame; "how many" counts things, never an amount
("how many kilos an hour"); "for every" divides; COP is thermal output over electrical input; a verb of using up takes
a substance, whose flow ranks by its mean; "220c" is degrees Celsius and "120 sat" no unit; a reported claim asked "is
that true?" is the question; parts after "n" or "also wat"; "ch2" for Chiller 2; a band's upper limit; a word of a
named asset's point is no missing kind."""

from __future__ import annotations

from datetime import UTC, datetime

from edge_agent.grounding.catalog import Catalog, SensorName
from edge_agent.grounding.question import read_part
from edge_agent.grounding.run import Grounding

NOW = datetime(2031, 6, 12, 9, 30, tzinfo=UTC)


def _plant() -> Catalog:
    cat = Catalog.of(
        {
            "Kelp Works": {"Oven 2": [], "Dryer 1": [], "Dryer 2": [], "Chiller 2": [], "Boiler": [], "Pool": []},
        }
    )
    site = cat.site("Kelp Works")
    site.types["Oven 2"] = ["oven"]
    site.sensors["Oven 2"] = [
        SensorName("Gas Flow", "Gas Flow", "m³/h", ("gas", "flow", "sensor")),
        SensorName("Bread Output", "Bread Output", "t/h", ("flow", "sensor")),
    ]
    for d in ("Dryer 1", "Dryer 2"):
        site.types[d] = ["dryer", "gas"]
        site.sensors[d] = [
            SensorName("Exhaust Temp", "Exhaust Temp", "°C", ("exhaust", "air", "temp", "sensor")),
            SensorName("Gas Flow", "Gas Flow", "kg/h", ("gas", "fuel", "flow", "sensor")),
            SensorName("Fan Power", "Fan Power", "kW", ("fan", "elec", "power", "sensor")),
        ]
    site.types["Chiller 2"] = ["chiller"]
    site.sensors["Chiller 2"] = [
        SensorName("Cooling Output", "Cooling Output", "kW", ("cool", "thermal", "power", "sensor")),
        SensorName("Input Power", "Input Power", "kW", ("elec", "power", "sensor")),
        SensorName("CHW Supply Temp", "CHW Supply Temp", "°C", ("chilled", "water", "leaving", "temp", "sensor")),
    ]
    site.types["Boiler"] = ["boiler"]
    site.sensors["Boiler"] = [SensorName("Steam Pressure", "Steam Pressure", "bar", ("steam", "pressure", "sensor"))]
    site.types["Pool"] = ["pool"]
    site.sensors["Pool"] = [SensorName("Water Temp", "Water Temp", "°C", ("water", "temp", "sensor"))]
    return cat


def _g(question: str) -> Grounding:
    return Grounding.build(question, _plant(), NOW)


def test_a_contracts_terms_and_a_partys_possessive_ask_no_attribute():
    g = _g(
        "Pursuant to clause 7.2 of the Supply Contract, the oven supplier guaranteed that Oven 2 at Kelp Works would "
        "consume no more than 45 m³ of gas per tonne of bread. Kindly state the specific gas consumption achieved by "
        "Oven 2 last week, so that the guarantee may be assessed."
    )
    assert g.reading.parts[0].ask == "derive" and g.reading.parts[0].op == "ratio" and not g.in_code
    assert not {"pursuant", "clause", "guaranteed", "supplier"} & set(g.unplaced)
    owned = _g("For the reconciliation of the gas supplier's invoice, please state Oven 2's gas flow yesterday.")
    assert owned.reading.parts[0].ask == "data" and not owned.in_code


def test_how_many_counts_things_never_an_amount():
    assert read_part("how many dryers are on the bms").ask == "count"
    assert read_part("How many power meters are there").ask == "count"
    for amount in ("how many kilos an hour did the ice machine make", "How many crayfish died in the tanks"):
        assert read_part(amount).ask != "count", amount
    warmer = read_part("how many degrees warmer was the supply than the return yesterday")
    assert warmer.ask == "derive" and warmer.op == "difference"


def test_for_every_divides_and_cop_is_thermal_output_over_electrical_input():
    every = read_part("how many kilos of steam does the washer use for every kilo of linen")
    assert every.op == "ratio" and every.statistic == "mean"
    g = _g("ch2 cop at Kelp Works yday?")
    assert g.links is not None and g.links.assets == ["Chiller 2"]
    assert g.reading.parts[0].op == "ratio" and g.links.sensors == ["Cooling Output", "Input Power"]


def test_what_a_verb_of_using_up_takes_is_a_substance_ranked_by_its_mean_flow():
    g = _g("which dryer at Kelp Works burnt teh most gas last wk?")
    assert g.links is not None and g.links.sensors == ["Gas Flow"] and g.links.asset_types == ["dryer"]
    part = g.reading.parts[0]
    assert part.ask == "rank" and part.statistic == "mean" and part.slots["statistic"].source == "rule"


def test_a_single_letter_degree_unit_and_no_day_as_a_unit():
    assert read_part("r3 bean temp over 220c how long yday").limit_unit == "°C"
    part = read_part("dryer 3 exhaust go over 120 sat or sun")
    assert part.limit == 120.0 and part.limit_unit is None


def test_a_reported_claim_asked_is_that_true_is_the_question():
    g = _g("A former worker told our paper that the Boiler at Kelp Works ran above 150 psi last week. Is that true?")
    part = g.reading.parts[0]
    assert (part.ask, part.form, part.direction, part.limit) == ("excursion", "yes_no", "above", 150.0)
    assert "true" not in g.unplaced


def test_parts_after_n_and_also_wat_and_a_greeting_frames():
    g = _g("ch2 supply temp avg yday at Kelp Works? n how many dryers r on the bms")
    assert [p.ask for p in g.reading.parts] == ["data", "count"]
    hi = _g("Kia ora, I'm writing a piece about the works. What was the Pool's water temp at Kelp Works yesterday?")
    assert not {"kia", "ora", "writing"} & set(hi.unplaced)


def test_a_bands_upper_limit_and_a_point_word_is_no_missing_kind():
    g = _g(
        "The contractor shall hold the Pool at Kelp Works within the comfort band of 5 °C to 7 °C. For how many hours "
        "yesterday did the water temp lie above the upper limit of that band?"
    )
    part = g.reading.parts[0]
    assert (part.ask, part.limit, part.limit_unit) == ("duration", 7.0, "°C")
    exhaust = _g("dryer 1 exhaust go over 120 yday at Kelp Works??")
    assert exhaust.links is not None and not [m for m in exhaust.links.missing if m.kind == "kind"]


def test_a_word_a_family_of_names_cuts_to_its_code_names_the_family():
    cat = Catalog.of({"Zoo": {"PEN-AHU-1": [], "PEN-CH-1": [], "EB-HTR-1": []}})
    zoo = cat.site("Zoo")
    zoo.types.update({"PEN-AHU-1": ["ahu"], "PEN-CH-1": ["chiller"], "EB-HTR-1": ["heater"]})
    zoo.sensors["PEN-AHU-1"] = [SensorName("Exhibit Air Temp", "Exhibit Air Temp", "°F", ("air", "temp", "sensor"))]
    zoo.sensors["PEN-CH-1"] = [SensorName("Pool Water Temp", "Pool Water Temp", "°F", ("water", "temp", "sensor"))]
    g = Grounding.build("What was the penguins' pool water temp at the Zoo yesterday?", cat, NOW)
    assert g.links is not None and {"PEN-AHU-1", "PEN-CH-1"} <= set(g.links.assets)
    assert "penguins" not in g.unplaced


def test_a_lay_name_of_a_machine_and_an_event_statement_before_a_request():
    g = _g("Which of the dough-kneading machines at Kelp Works made the warmest dough yesterday?")
    assert "kneading" not in g.unplaced
    lamps = _g("The lamps at Kelp Works went off at six. Can you switch them back on for another hour?")
    assert lamps.reading.intent == "control"


def test_the_operators_we_is_the_site_and_a_grid_said_with_its_place():
    cat = Catalog.of({"Isle Works": {"Turbine 1": [], "Grid Meter": []}})
    isle = cat.site("Isle Works")
    isle.types.update({"Turbine 1": ["windTurbine"], "Grid Meter": ["elecMeter", "meter", "siteMeter"]})
    isle.sensors["Turbine 1"] = [SensorName("Active Power", "Active Power", "kW", ("elec", "power", "sensor"))]
    isle.sensors["Grid Meter"] = [SensorName("Net Power", "Net Power", "kW", ("elec", "power", "sensor"))]
    g = Grounding.build(
        "turbine was howling all weekend at Isle Works. how many hrs yday were we sending power back out to the island "
        "grid? lines co asking",
        cat,
        NOW,
    )
    assert g.links is not None and not g.links.asset_types and g.links.sites == ["Isle Works"]
    assert not g.unplaced


def test_a_limit_said_in_another_sentence_and_a_prefixed_unit():
    from edge_agent.grounding import fieldvocab

    g = _g(
        "Was the Pool at Kelp Works too warm at any point yesterday? The card on the door says it has to stay at 30 "
        "degrees or under."
    )
    part = g.reading.parts[0]
    assert (part.ask, part.form, part.direction, part.limit) == ("excursion", "yes_no", "above", 30.0)
    terms = _g(
        "The contractor guaranteed that the Boiler at Kelp Works would at no time exceed 9 bar. Please state for how "
        "many hours last week the steam pressure exceeded that figure."
    )
    assert (terms.reading.parts[0].limit, terms.reading.parts[0].limit_unit) == (9.0, "bar")
    assert round(fieldvocab.convert(0.25, "mS/cm", "µS/cm") or 0) == 250
    assert fieldvocab.convert(55, "degrees", "°F") is None  # degrees of what: no conversion


def test_the_ends_of_a_flow_and_the_sides_of_minus():
    cat = _plant()
    cat.site("Kelp Works").sensors["Chiller 2"] += [
        SensorName("Entering Water Temp", "Entering Water Temp", "°C", ("entering", "water", "temp", "sensor")),
        SensorName("Leaving Water Temp", "Leaving Water Temp", "°C", ("leaving", "water", "temp", "sensor")),
    ]
    q = "how many degrees warmer was the water going into Chiller 2 at Kelp Works than the water coming out of it?"
    g = Grounding.build(q, cat, NOW)
    assert g.links is not None and g.links.sensors == ["Entering Water Temp", "Leaving Water Temp"]
    minus = _g("Chiller 2 at Kelp Works delta t avg yday, output minus input")
    assert minus.links is not None and minus.links.sensors == ["Cooling Output", "Input Power"]


def test_a_family_narrowed_by_a_kind_tells_no_lack_of_the_rest():
    cat = Catalog.of({"Zoo": {"PEN-AHU-1": [], "PEN-LSS-P1": [], "PEN-LSS-P2": [], "Zoo Meter": []}})
    zoo = cat.site("Zoo")
    zoo.types.update({"PEN-AHU-1": ["ahu"], "PEN-LSS-P1": ["pump"], "PEN-LSS-P2": ["pump"], "Zoo Meter": ["elecMeter"]})
    zoo.sensors["PEN-AHU-1"] = [SensorName("Supply Air Temp", "Supply Air Temp", "°F", ("air", "temp", "sensor"))]
    for p in ("PEN-LSS-P1", "PEN-LSS-P2"):
        zoo.sensors[p] = [SensorName("Motor Power", "Motor Power", "kW", ("elec", "power", "sensor"))]
    zoo.sensors["Zoo Meter"] = [SensorName("Energy", "Energy", "kWh", ("elec", "energy", "sensor"))]
    g = Grounding.build("Of the two penguin pumps at the Zoo, which consumed the most energy last week?", cat, NOW)
    assert g.links is not None and g.links.assets == ["PEN-LSS-P1", "PEN-LSS-P2"]
    assert not g.links.missing and not g.links.sensors  # the pumps' energy is their power's, no lack to tell
