"""Classes of blind sets 17 and 18 that stayed open (issue 40, session 24), each read by a rule of English or of the
field, never by a set's words: a setpoint and a value with no verb is a request; the requester's own future is no
forecast; two date ranges with no "from"; a statement before the question sets no form; a circumstance after it names
no subject; the limit's own direction word; a power and its energy register give one energy; a listing of a system's
series; a kind's qualifier that the site's names carry; the period of the one asking sentence."""

from __future__ import annotations

from datetime import datetime

import pytest

from edge_agent.grounding.abbrev import short_codes
from edge_agent.grounding.catalog import Catalog, SensorName
from edge_agent.grounding.clauses import _clauses
from edge_agent.grounding.context import circumstance_tail, set_aside, statement_spans
from edge_agent.grounding.dates import resolve_period
from edge_agent.grounding.fieldvocab import quantity_of_unit
from edge_agent.grounding.periods import two_periods
from edge_agent.grounding.question import read_part, read_question
from edge_agent.grounding.run import Grounding

NOW = datetime(2026, 11, 2, 9, 0)


@pytest.mark.parametrize(
    ("said", "control"),
    [
        ("Teaching pool SP to 30.5degC before tomorrow's first lesson pls.", True),
        ("Pool SP up to 29 please", True),
        ("Did the teaching pool SP go up to 30.5 yesterday?", False),
        ("Is the pool SP to 30.5 yet?", False),
        ("What was the pool SP yesterday?", False),
    ],
)
def test_a_setpoint_and_its_new_value_with_no_verb_is_a_request_to_set_it(said, control):
    kinds = {c.kind for c in _clauses(said)}
    assert ("control" in kinds) is control
    if control:
        assert read_question(said).intent == "control" and read_question(said).verb.startswith("set")


@pytest.mark.parametrize(
    ("said", "forecast"),
    [
        ("Please report the gas meter's volume at 00:00 on 1 November, which I will use as the closing figure.", False),
        ("We will use the figure in the report: what was the gas volume on Sunday?", False),
        ("Will the gas meter volume exceed 5000 m3 this week?", True),
        ("How much gas will the boiler use next week?", True),
    ],
)
def test_the_requesters_own_future_is_no_forecast(said, forecast):
    assert (read_part(said).ask == "forecast") is forecast


@pytest.mark.parametrize(
    ("said", "start", "end"),
    [
        ("the two weeks — 19 to 25 October, or", datetime(2026, 10, 19), datetime(2026, 10, 26)),
        ("26 October to 1 November", datetime(2026, 10, 26), datetime(2026, 11, 2)),
        ("between 19 and 25 October", datetime(2026, 10, 19), datetime(2026, 10, 26)),
    ],
)
def test_date_ranges_without_from(said, start, end):
    got = resolve_period(said.lower(), NOW)
    assert got is not None and (got.start, got.end) == (start, end)


@pytest.mark.parametrize("said", ["Chiller 6 to 9 March", "compare 19 October to 26 October"])
def test_a_name_s_number_or_a_comparison_is_no_range(said):
    got = resolve_period(said.lower(), NOW)
    assert got is not None and (got.end - got.start).days == 1


def test_two_ranges_set_against_each_other_and_which_of_the_two_weeks():
    q = (
        "could you confirm in which of the two weeks — 19 to 25 October, or 26 October to 1 November — the furnace "
        "consumed less electricity"
    )
    first, second = two_periods(q, NOW) or (None, None)
    assert first is not None and second is not None
    assert (first.start, second.start, second.end) == (
        datetime(2026, 10, 19),
        datetime(2026, 10, 26),
        datetime(2026, 11, 2),
    )
    assert read_part(
        "the consumption for the week of 19 October and for last week; which of the 2 weeks was higher"
    ).ask == ("periods")


def test_a_statement_before_the_question_sets_no_form():
    q = "Dairy: Boiler 1 burner serviced Tue evening. What was its evaporation ratio yesterday, kg steam per litre?"
    spans = statement_spans(q)
    assert [q[a:b] for a, b in spans] == ["Dairy: Boiler 1 burner serviced Tue evening."]
    assert statement_spans("Boiler 1 steam flow yesterday. Any alarms?") == []  # a terse ask states nothing


def test_a_circumstance_after_the_question_is_context_where_the_rest_names_what_is_read():
    q = "How long was the supply temp above its setpoint on Monday, when Cooling Tower 2's fan was out of service."
    text, why = circumstance_tail(q, lambda _: True)
    assert why == "when Cooling Tower 2's fan was out of service" and "Cooling Tower" not in text
    assert circumstance_tail(q, lambda _: False)[1] == ""  # the rest names nothing: the circumstance holds it


def test_a_purpose_after_the_question_is_context():
    text, aside = set_aside(
        "Please list every measurement the stack monitor records, so that I can attach it to the plan."
    )
    assert aside == ["so that I can attach it to the plan"] and "attach" not in text


def test_the_limit_s_own_direction_word_wins():
    q = "Upper Reservoir drawn down hard over Easter. Did it drop under 45% at any point last week?"
    part = read_question(q).parts[0]
    assert (part.direction, part.limit) == ("below", 45.0)


def test_british_spellings_of_units():
    assert str(quantity_of_unit("litre")) == "volume" and str(quantity_of_unit("metre")) == "length"


def test_a_code_already_is_not_shortened_to_its_first_letter():
    assets = ["Pasteuriser 2", "PHAHU-2", "Unit 1"]
    assert short_codes("P2 on ESL since the 1st", assets, assets) == {"P2": "Pasteuriser 2"}
    assert short_codes("U1 net", assets, assets) == {"U1": "Unit 1"}


def _farm() -> Catalog:
    cat = Catalog.of({"Farm": {"Main Meter": [], "Stack CEMS": [], "CP Exhaust Fan 1": [], "CP Exhaust Fan 2": []}})
    farm = cat.site("Farm")
    farm.types.update(
        {"Main Meter": ["elecMeter", "meter"], "Stack CEMS": ["stack", "emissions"]}
        | {f"CP Exhaust Fan {n}": ["fan", "carPark"] for n in (1, 2)}
    )
    farm.sensors["Main Meter"] = [
        SensorName("Active Power", "Active Power", "kW", ("elec", "power", "sensor")),
        SensorName("Energy", "Energy", "kWh", ("elec", "energy", "sensor")),
    ]
    farm.sensors["Stack CEMS"] = [
        SensorName("Dust", "Dust", "mg/Nm³", ("dust", "sensor")),
        SensorName("O2", "O2", "%", ("oxygen", "sensor")),
    ]
    return cat


def test_a_system_s_series_are_listed_from_the_catalog():
    g = Grounding.build("Please list every measurement that the stack emissions system records at Farm.", _farm(), NOW)
    assert g.in_code == "Found 2 sensors on Stack CEMS at Farm: Dust (mg/Nm³), O2 (%)"


def test_a_qualifier_the_site_s_names_carry_is_no_missing_kind():
    g = Grounding.build("how many of those big exhaust fans have we got at Farm?", _farm(), NOW)
    assert g.links is not None and not g.links.missing and g.unplaced == []
    assert g.in_code.startswith("Found 2 fan")


def test_the_period_of_the_one_asking_sentence():
    g = Grounding.build(
        "Main Meter serviced since the 1st with a new CT. Was its power above 40 kW yesterday?", _farm(), NOW
    )
    assert (g.start, g.final) == ("2026-11-01T00:00:00", "2026-11-02T00:00:00")


def test_half_a_month_and_the_other_half():
    now = datetime(2026, 12, 4, 9, 0)
    got = resolve_period("the first half of november", now)
    assert got is not None and (got.start, got.end) == (datetime(2026, 11, 1), datetime(2026, 11, 16))
    pair = two_periods("did it use more electricity in the first half of November or in the second half?", now)
    assert pair is not None and (pair[1].start, pair[1].end) == (datetime(2026, 11, 16), datetime(2026, 12, 1))


def test_day_ranges_set_against_each_other():
    now = datetime(2026, 12, 3, 9, 0)
    pair = two_periods("compare its mean gas flow for 2–5 November against 23–26 November", now)
    assert pair is not None and (pair[0].end, pair[1].start) == (datetime(2026, 11, 6), datetime(2026, 11, 23))
    assert read_part("compare its mean gas flow for 2–5 November against 23–26 November").ask == "periods"
    assert read_part("Which period was higher?").ask == "periods"


def _works() -> Catalog:
    cat = Catalog.of({"Works": {"Stenter 2": [], "Boiler 1": [], "Well Pump 3": [], "Pump 1": [], "String B": []}})
    works = cat.site("Works")
    works.types.update({"String B": ["battery"], "Well Pump 3": ["pump"], "Pump 1": ["pump"]})
    works.markers.update({"String B": ("equip", "battery", "dc", "elec")})
    works.sensors["Stenter 2"] = [
        SensorName("Chamber Temp", "Chamber Temp", "°C", ("air", "temp", "sensor")),
        SensorName("Chamber Temp SP", "Chamber Temp SP", "°C", ("air", "temp", "sp")),
    ]
    works.sensors["Boiler 1"] = [SensorName("Steam Pressure", "Steam Pressure", "bar", ("steam", "pressure", "sensor"))]
    works.sensors["Well Pump 3"] = [SensorName("VFD Hz", "VFD Hz", "Hz", ("freq", "sensor"))]
    works.sensors["Pump 1"] = [SensorName("Run", "Run", None, ("run", "sensor"))]
    works.sensors["String B"] = [
        SensorName("Battery Current", "Battery Current", "A", ("elec", "current", "sensor")),
        SensorName("Cell Temp", "Cell Temp", "°C", ("temp", "sensor")),
    ]
    return cat


def test_sp_is_a_setpoint_never_a_names_initials():
    g = Grounding.build("how many hours was Stenter 2's chamber temperature below its SP yesterday?", _works(), NOW)
    assert g.links is not None and g.links.sensors == ["Chamber Temp"] and not g.links.missing


def test_a_limit_with_its_unit_says_what_is_measured():
    g = Grounding.build("Did Well Pump 3 run above 48 Hz at any point yesterday?", _works(), NOW)
    assert g.links is not None and not g.links.missing and "Run" not in g.links.sensors


def test_a_direction_asked_of_a_battery_is_a_sign_no_point_records():
    g = Grounding.build("How long was String B on discharge yesterday, in hours?", _works(), NOW)
    assert g.links is not None and not g.links.missing
    scope = g.scope()
    assert scope is not None and scope.sites["Works"].unsigned == "export"
    assert scope.sites["Works"].sensors == ("Battery Current",)


def test_a_site_named_by_its_city():
    cat = Catalog.of({"Grafarholt Pumping Station": {"Well Pump 1": ["Motor kW"]}, "Tejgaon Dye House": {"JD-01": []}})
    cat.cities.update({"Grafarholt Pumping Station": "Reykjavik", "Tejgaon Dye House": "Dhaka"})
    g = Grounding.build("how much power did the Reykjavik station's well pump draw yesterday?", cat, NOW)
    assert g.links is not None and g.links.sites == ["Grafarholt Pumping Station"] and g.unplaced == []
    refused = Grounding.build("Could someone switch off one of the pumps at the Reykjavik station overnight?", cat, NOW)
    assert refused.refusal == "control"


@pytest.mark.parametrize(
    ("said", "start", "end"),
    [
        ("how much electricity did it use in November, in kWh?", datetime(2026, 11, 1), datetime(2026, 12, 1)),
        ("peak heat over the fortnight before last?", datetime(2026, 11, 2), datetime(2026, 11, 16)),
        ("over the last fortnight", datetime(2026, 11, 16), datetime(2026, 11, 30)),
        ("the mean on the A shift yesterday (06:00–14:00)?", datetime(2026, 11, 29, 6), datetime(2026, 11, 29, 14)),
    ],
)
def test_a_month_alone_a_fortnight_and_a_shift_s_hours(said, start, end):
    got = resolve_period(said.lower(), datetime(2026, 11, 30, 9, 0))
    assert got is not None and (got.start, got.end) == (start, end)


def test_what_was_spent_is_a_price_no_skyspark_records_and_time_spent_is_a_duration():
    assert read_part("how much did the dye house spend on electricity in November, in taka").ask == "attribute"
    assert read_part("how many hours the centre spent exporting electricity").ask == "duration"


def test_blind_19_s_chat_wordings():
    assert read_question("laziest refiner lst wk? by avg load", [True]).parts[0].order == "lowest"
    assert read_part("What was our electricity use per m³ of seawater taken in last week?").op == "ratio"
    assert read_part("PM1 avg production rate, wk of the 19th vs wk of the 26th - which was better?").ask == "periods"
    got = resolve_period("wk of the 19th", datetime(2026, 11, 3, 14, 0))
    assert got is not None and (got.start, got.end) == (datetime(2026, 10, 19), datetime(2026, 10, 26))


def test_a_possessive_kind_is_one_of_them_and_electricity_ranks_by_the_electrical_series():
    cat = Catalog.of({"X": {"CRAC-01": [], "CRAC-02": []}})
    x = cat.site("X")
    for a in ("CRAC-01", "CRAC-02"):
        x.types[a] = ["crac"]
        x.sensors[a] = [
            SensorName("Input kW", "Input kW", "kW", ("elec", "power", "sensor")),
            SensorName("Cooling kW", "Cooling kW", "kW", ("cool", "power", "sensor")),
        ]
    g = Grounding.build("Which of the air-conditioning units at X used the most electricity last week?", cat, NOW)
    scope = g.scope()
    assert scope is not None and scope.sites["X"].sensors == ("Input kW",)


def test_a_town_alone_is_no_topic_of_the_plant():
    cat = Catalog.of({"lab_bldg_b": {"AHU-1": ["zone_temp"]}})
    cat.cities["lab_bldg_b"] = "Davis"
    assert Grounding.build("recommend a good pizza place near Davis", cat, NOW).refusal == "outside"


def test_equipment_at_a_time_is_read_from_data_never_from_a_listing():
    cat = Catalog.of({"A": {"Storage Tank 1": [], "Storage Tank 2": []}, "B": {"Pump 1": []}})
    for t in ("Storage Tank 1", "Storage Tank 2"):
        cat.site("A").types[t] = ["tank"]
        cat.site("A").sensors[t] = [SensorName("Level", "Level", "%", ("level", "sensor"))]
    g = Grounding.build("What was the storage tank level at 07:00 this morning?", cat, NOW)
    head = "found 2 sites: A, B"
    g.observe(1, 1, "sites", head + "; saved to sites-x.json", head=head, answers=False, args={})
    assert g.unsupported(1, "A, B", []) == "no data call of this run read what the question asks for"


def test_chat_spellings_of_the_field_s_words():
    cat = Catalog.of({"Mill": {"Tie Line": [], "Booster Fan 10L": []}})
    mill = cat.site("Mill")
    mill.types.update({"Tie Line": ["elecMeter", "meter"], "Booster Fan 10L": ["fan"]})
    mill.markers.update({"Tie Line": ("equip", "elecMeter", "meter", "export", "import")})
    mill.sensors["Tie Line"] = [SensorName("Tie Line Power", "Tie Line Power", "kW", ("elec", "power", "sensor"))]
    mill.sensors["Booster Fan 10L"] = [SensorName("Motor Power", "Motor Power", "kW", ("elec", "power", "sensor"))]
    g = Grounding.build("how many hours was the mill exportng yesterday", cat, NOW)
    assert g.respelt.get("exportng") == "exporting" and g.unplaced == []
    assert read_question("hows the fan doing rn").parts
