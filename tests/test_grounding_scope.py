"""What a tool call may write (`edge_agent.grounding.scope`), on the real tools' argument schemas.

The IoT tools (plugins/iot.py) mark their arguments with SITE_REF, ASSET_REF, SENSOR_REF, TYPE_REF,
START_REF and FINAL_REF; `Tool.schema(files, scope)` hands the schema to `Scope.constrain`, as
`step_constraint` does. Calls are drawn (hypothesis) from the constrained schemas' enums, checked
against the grammar the decoder would run (`schema_regex`), and must name only what the catalog has
(`grounding.run.invented_names`). Every check runs on two naming styles.
"""

from __future__ import annotations

import json
import re
from functools import cache

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from edge_agent import PROJECT_ROOT
from edge_agent.grounding.catalog import Catalog, SiteCatalog
from edge_agent.grounding.linking import link
from edge_agent.grounding.run import invented_names
from edge_agent.grounding.scope import Scope, drop_calls, pinned_calls
from edge_agent.llm.constraints import schema_regex
from edge_agent.toolkit import ToolRegistry
from tests.plants import OTHER, OTHER_SENSORS, POK, POK_SENSORS

TOOLS = ToolRegistry.from_dir(PROJECT_ROOT / "plugins")
NAMED = ("assets", "sensors", "histories")  # the tools whose arguments name things on the SkySpark
START, FINAL = "2023-01-13T00:00:00", "2023-01-14T00:00:00"
SETTINGS = settings(max_examples=50, deadline=None)

CATALOGS = {"pokmain-style": POK, "other-style": OTHER}

#: questions per style; the first ones name assets (and a sensor they all have)
QUESTIONS = {
    "pokmain-style": [
        "What was the Tonnage of Chiller 6 and 9 at POKMAIN yesterday?",
        "What was the Power of chiller3 yesterday?",
        "Which sensors does AHU 1 have?",
        "Which assets does POKMAIN have?",
        "What is the average Tonnage at RCHMAIN?",
        "What was the Tonnage of Chiller 7 at POKMAIN?",
        "What is there?",
    ],
    "other-style": [
        "What was the kW_total of CH-01 and 02 at Plant-North yesterday?",
        "What was the Flow Rate of boiler house pump p3 yesterday?",
        "Which sensors does ahu b2 have?",
        "Which assets does Plant-North have?",
        "What is the average kW_total at Werk_Süd?",
        "What was the kW_total of Kessel 5 at Werk_Süd?",
        "What is there?",
    ],
}
STYLES = list(CATALOGS)


@cache
def _scope(style: str, question: str, period: bool = True) -> Scope:
    catalog = CATALOGS[style]
    links = link(question, catalog)
    return Scope.from_links(links, catalog, start=START if period else None, final=FINAL if period else None)


def _schema(style: str, question: str, tool: str, period: bool = True) -> dict | None:
    return TOOLS.get(tool).schema(None, _scope(style, question, period))


@cache
def _regex(schema_json: str) -> re.Pattern:
    return re.compile(schema_regex(json.loads(schema_json)))


def accepts(schema: dict, call: dict) -> bool:
    """Whether the step grammar for `schema` lets the model write `call` (as the scratchpad spells it)."""
    return _regex(json.dumps(schema)).fullmatch(json.dumps(call, ensure_ascii=False)) is not None


def branches(schema: dict) -> list[dict]:
    return schema["anyOf"] if "anyOf" in schema else [schema]


def allowed_values(schema) -> set[str]:
    """Every string an enum of the schema offers, at any depth."""
    out: set[str] = set()
    if isinstance(schema, dict):
        for k, v in schema.items():
            if k == "enum":
                out.update(x for x in v if isinstance(x, str))
            else:
                out |= allowed_values(v)
    elif isinstance(schema, list):
        for v in schema:
            out |= allowed_values(v)
    return out


def _value(prop: dict):
    if "enum" in prop:
        return st.sampled_from(prop["enum"])
    if "const" in prop:
        return st.just(prop["const"])
    if "prefixItems" in prop:
        return st.tuples(*(_value(p) for p in prop["prefixItems"])).map(list)
    if prop.get("type") == "array" and isinstance(prop.get("items"), dict):
        return st.lists(_value(prop["items"]), min_size=prop.get("minItems", 0), max_size=prop.get("maxItems", 4))
    return None  # a free value: only drawn when required


@st.composite
def calls(draw, schema: dict) -> dict:
    """A call the constrained schema allows: one branch, each argument from its enums."""
    branch = draw(st.sampled_from(branches(schema)))
    out = {}
    for name, prop in branch["properties"].items():
        strategy = _value(prop)
        if strategy is None:
            if name in branch.get("required", []):
                out[name] = draw(st.text("0123456789-T:", min_size=1, max_size=20))
            continue
        if name in branch.get("required", []) or draw(st.booleans()):
            out[name] = draw(strategy)
    return out


CASES = [
    (style, q, tool)
    for style in STYLES
    for q in QUESTIONS[style]
    for tool in NAMED
    if _schema(style, q, tool) is not None
]


def _names_assets(style: str, question: str) -> bool:
    return any(s.fixed_assets for s in _scope(style, question).sites.values())


# --- drawn calls name only what exists -----------------------------------------------------------------------


def test_cases_cover_every_tool_and_style():
    assert {(style, tool) for style, _, tool in CASES} == {(s, t) for s in STYLES for t in NAMED}


@SETTINGS
@given(data=st.data())
def test_drawn_calls_invent_no_site_or_asset(data):
    style, question, tool = data.draw(st.sampled_from(CASES), label="case")
    catalog, schema = CATALOGS[style], _schema(style, question, tool)
    call = data.draw(calls(schema), label="call")
    assert accepts(schema, call), call
    assert invented_names(catalog, {k: v for k, v in call.items() if k != "sensor_name"}) == []
    site = call["site_name"]
    assert site in catalog.sites
    assets = call.get("asset_names", [call["asset_name"]] if "asset_name" in call else [])
    assert set(assets) <= set(catalog.assets(site))
    if "sensor_name" in call:  # a sensor of that site, at least
        assert any(catalog.has_sensor(site, a, call["sensor_name"]) for a in catalog.assets(site))


@SETTINGS
@given(data=st.data())
def test_drawn_calls_about_named_assets_invent_nothing(data):
    """Where the question names assets, a call's every name — the sensor on each asset too — exists."""
    style, question, tool = data.draw(st.sampled_from([c for c in CASES if _names_assets(c[0], c[1])]), label="case")
    schema = _schema(style, question, tool)
    call = data.draw(calls(schema), label="call")
    assert accepts(schema, call)
    assert invented_names(CATALOGS[style], call) == []


@pytest.mark.parametrize(
    "style,call",
    [
        (
            "pokmain-style",
            {
                "site_name": "POKMAIN",
                "asset_names": ["Chiller 6"],
                "sensor_name": "Fan Speed",
                "start": START,
                "final": FINAL,
            },
        ),
        (
            "other-style",
            {
                "site_name": "Plant-North",
                "asset_names": ["CH-01"],
                "sensor_name": "FanSpeed",
                "start": START,
                "final": FINAL,
            },
        ),
    ],
)
def test_a_sensor_is_only_offered_with_assets_that_have_it(style, call):
    question = QUESTIONS[style][3]  # names the site only
    schema = _schema(style, question, "histories")
    assert not (accepts(schema, call) and invented_names(CATALOGS[style], call))


# --- what is allowed ------------------------------------------------------------------------------------------


@pytest.mark.parametrize("style", STYLES)
def test_each_site_branch_offers_only_its_own_assets_and_sensors(style):
    catalog = CATALOGS[style]
    for tool in NAMED:
        schema = _schema(style, "What is there?", tool)
        seen = set()
        for branch in branches(schema):
            (site,) = branch["properties"]["site_name"]["enum"]
            seen.add(site)
            values = allowed_values(branch) - {site, START, FINAL}
            shorts = {s.short for a in catalog.assets(site) for s in catalog.sensors(site, a)}
            assert values <= set(catalog.assets(site)) | shorts, (tool, site)
            assert branch["additionalProperties"] is False
        assert seen == set(catalog.sites)


@pytest.mark.parametrize("style", STYLES)
def test_names_not_on_the_catalog_are_never_offered(style):
    catalog = CATALOGS[style]
    real = catalog.all_names() | {START, FINAL}
    made_up = {"Chiller 7", "CH-07", "Kessel 5", "Tonage", "FOOMAIN", "Plant-South"}
    for question in QUESTIONS[style]:
        for tool in NAMED:
            schema = _schema(style, question, tool)
            if schema is not None:
                values = allowed_values(schema)
                assert values <= real, (question, tool, values - real)
                assert not values & made_up


@pytest.mark.parametrize(
    "style,question",
    [
        ("pokmain-style", "What was the Tonnage of Chiller 7 at POKMAIN?"),
        ("other-style", "What was the kW_total of Kessel 5 at Werk_Süd?"),
    ],
)
def test_a_question_about_a_missing_asset_offers_no_asset_call(style, question):
    assert _schema(style, question, "sensors") is None
    assert _schema(style, question, "histories") is None
    assert _schema(style, question, "assets") is not None  # listing the site's assets is still possible


@pytest.mark.parametrize(
    "style,question,assets",
    [
        (
            "pokmain-style",
            "What was the Tonnage of Chiller 9 and Chiller 6 at POKMAIN yesterday?",
            ["Chiller 9", "Chiller 6"],
        ),
        ("other-style", "What was the kW_total of CH-05 and CH-01 at Plant-North yesterday?", ["CH-05", "CH-01"]),
    ],
)
def test_the_asset_list_is_exactly_the_linked_assets_in_order(style, question, assets):
    schema = _schema(style, question, "histories")
    (call,) = pinned_calls(schema)
    assert call["asset_names"] == assets and call["start"] == START and call["final"] == FINAL
    assert accepts(schema, call)
    assert not accepts(schema, {**call, "asset_names": assets[::-1]})
    assert not accepts(schema, {**call, "asset_names": assets[:1]})


@pytest.mark.parametrize("style", STYLES)
def test_period_arguments_follow_the_worked_out_period(style):
    question = QUESTIONS[style][0]
    catalog, links = CATALOGS[style], link(question, CATALOGS[style])
    tool = TOOLS.get("histories")
    instant = tool.schema(None, Scope.from_links(links, catalog, start=START))
    assert "final" not in instant["properties"] and instant["properties"]["start"] == {"enum": [START]}
    same = tool.schema(None, Scope.from_links(links, catalog, start=START, final=START))
    assert "final" not in same["properties"]
    free = tool.schema(None, Scope.from_links(links, catalog))
    assert "enum" not in free["properties"]["start"] and "final" not in free["required"]
    assert pinned_calls(free) is None


@pytest.mark.parametrize(
    "style,question",
    [("pokmain-style", "Which assets does POKMAIN have?"), ("other-style", "Which assets does Plant-North have?")],
)
def test_no_kind_named_means_no_kind_filter(style, question):
    schema = _schema(style, question, "assets")
    assert "asset_type" not in json.dumps(schema)
    assert pinned_calls(schema) == [{"site_name": CATALOGS[style].sites[0]}]


def _typed(catalog: Catalog, types: dict[str, list[str]]) -> Catalog:
    """`catalog` with equip markers on its assets."""
    loaded = {}
    for site in catalog.sites:
        entry = catalog.site(site)
        loaded[site] = SiteCatalog(
            site, entry.tz, list(entry.assets), dict(entry.sensors), {a: types.get(a, []) for a in entry.assets}
        )
    return Catalog(sites=list(catalog.sites), tz=dict(catalog.tz), _loaded=loaded)


@pytest.mark.parametrize(
    "catalog,question,site,kind",
    [
        (
            _typed(POK, {"Chiller 3": ["chiller"], "Chiller 6": ["chiller"], "AHU 1": ["ahu"]}),
            "How many chillers are there at POKMAIN?",
            "POKMAIN",
            "chiller",
        ),
        (
            _typed(OTHER, {"CH-01": ["chiller"], "Boiler House Pump P-3": ["pump"], "Kessel 4": ["boiler"]}),
            "How many pumps are there at Plant-North?",
            "Plant-North",
            "pump",
        ),
    ],
    ids=STYLES,
)
def test_a_named_kind_pins_the_kind_filter(catalog, question, site, kind):
    links = link(question, catalog)
    assert links.asset_types == [kind]
    schema = TOOLS.get("assets").schema(None, Scope.from_links(links, catalog))
    assert pinned_calls(schema) == [{"site_name": site, "asset_type": kind}]
    assert accepts(schema, {"site_name": site, "asset_type": kind})
    assert not accepts(schema, {"site_name": site})
    assert not accepts(schema, {"site_name": site, "asset_type": "meter"})


def test_a_schema_without_marks_is_left_alone():
    finish = TOOLS.get("Finish")
    assert finish.schema(None, _scope("other-style", "What is there?")) == finish.schema()


# --- calls already made --------------------------------------------------------------------------------------


LISTABLE = [(style, q, tool) for style, q, tool in CASES if pinned_calls(_schema(style, q, tool))]


def test_listable_cases_cover_both_styles_and_several_calls():
    assert {style for style, _, _ in LISTABLE} == set(STYLES)
    assert max(len(pinned_calls(_schema(*c))) for c in LISTABLE) >= 5


@SETTINGS
@given(data=st.data())
def test_drop_calls_removes_exactly_the_made_calls(data):
    style, question, tool = data.draw(st.sampled_from(LISTABLE), label="case")
    schema = _schema(style, question, tool)
    every = pinned_calls(schema)
    made = data.draw(st.lists(st.sampled_from(every), unique_by=lambda c: json.dumps(c, sort_keys=True)), label="made")
    left = drop_calls(schema, made)
    rest = [c for c in every if c not in made]
    if not rest:
        assert left is None
        return
    assert sorted(map(json.dumps, pinned_calls(left))) == sorted(map(json.dumps, rest))
    for call in made:
        assert not accepts(left, call)
    for call in rest:
        assert accepts(left, call)
    assert all(invented_names(CATALOGS[style], c) == [] for c in pinned_calls(left))


@pytest.mark.parametrize("style", STYLES)
def test_drop_calls_ignores_calls_it_does_not_allow_and_unlistable_schemas(style):
    listable = _schema(style, "What is there?", "sensors")
    assert drop_calls(listable, []) is listable
    assert drop_calls(listable, [{"site_name": "Nowhere", "asset_name": "X 1"}]) == listable
    unlistable = _schema(style, QUESTIONS[style][3], "histories")  # a free list of assets
    assert pinned_calls(unlistable) is None
    site = CATALOGS[style].sites[0]
    call = {
        "site_name": site,
        "asset_names": [CATALOGS[style].assets(site)[0]],
        "sensor_name": OTHER_SENSORS[0] if style == "other-style" else POK_SENSORS[0],
        "start": START,
        "final": FINAL,
    }
    assert accepts(unlistable, call)
    assert drop_calls(unlistable, [call]) == unlistable


# --- invented_names ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "catalog,site,loose_site,asset,loose_asset,asset2,sensor,lacking",
    [
        (POK, "POKMAIN", "pokmain", "Chiller 6", "chiller6", "Chiller 9", "Tonnage", "Fan Speed"),
        (OTHER, "Plant-North", "plant north", "CH-01", "ch 01", "CH-02", "kW_total", "FanSpeed"),
    ],
    ids=STYLES,
)
def test_invented_names(catalog, site, loose_site, asset, loose_asset, asset2, sensor, lacking):
    ok = {"site_name": site, "asset_names": [asset, asset2], "sensor_name": sensor, "start": START}
    assert invented_names(catalog, ok) == []
    assert invented_names(catalog, {"site_name": loose_site, "asset_name": loose_asset}) == []
    assert invented_names(catalog, {**ok, "sensor_name": sensor.upper()}) == []
    assert invented_names(catalog, {**ok, "sensor_name": f"{asset} {sensor}"}) == []  # full name, asked of both
    assert invented_names(catalog, {**ok, "site_name": "Nowhere"}) == ["Nowhere"]
    assert invented_names(catalog, {**ok, "asset_names": [asset, "Made Up 7"]}) == ["Made Up 7"]
    assert invented_names(catalog, {**ok, "sensor_name": lacking}) == [lacking]
    assert invented_names(catalog, {**ok, "sensor_name": "Vibration"}) == ["Vibration"]
    assert invented_names(catalog, {"asset_name": "Made Up 7"}) == []  # no site: nothing to check against
    assert invented_names(catalog, ["not", "a", "dict"]) == []


def test_a_sites_energy_is_read_from_its_electricity_meters():
    from edge_agent.grounding.catalog import Catalog
    from edge_agent.grounding.linking import link
    from edge_agent.grounding.scope import Scope

    cat = Catalog.of({"Fresno": {"Utility Meter": ["Power", "Energy"], "Pre-Cool Tunnel": ["Fan Power", "Air Temp"]}})
    cat.site("Fresno").types.update({"Utility Meter": ["meter", "elecMeter"], "Pre-Cool Tunnel": ["coldRoom"]})
    q = "did Fresno use more electricity last week than the week before?"
    scope = Scope.from_links(link(q, cat), cat)
    assert scope.sites["Fresno"].assets == ("Utility Meter",)
    # a named asset, or a question about something else, keeps its own scope
    assert "Pre-Cool Tunnel" in Scope.from_links(link("air temp at Fresno yesterday", cat), cat).sites["Fresno"].assets


def test_the_series_of_a_kind_named_in_the_plural_are_of_exactly_its_assets():
    from datetime import UTC, datetime

    from edge_agent.grounding.run import Grounding

    cat = Catalog.of(
        {
            "Patan": {
                "dh_vault_a": ["vault_rh", "power"],
                "dh_vault_b": ["vault_rh", "power"],
                "ahu_01": ["supply_temp", "power"],
            },
            "Dairy": {"NH3 Comp 1": ["Power"], "NH3 Comp 2": ["Power"], "air_comp_1": ["Power"]},
        }
    )
    cat.site("Patan").types.update({"dh_vault_a": ["dehumidifier"], "dh_vault_b": ["dehumidifier"], "ahu_01": ["ahu"]})
    cat.site("Dairy").types.update({a: ["compressor"] for a in cat.assets("Dairy")})
    now = datetime(2027, 3, 22, tzinfo=UTC)

    def histories(question: str) -> list[dict]:
        return pinned_calls(TOOLS.get("histories").schema(None, Grounding.build(question, cat, now).scope()))

    calls = histories("put vault_rh of both dehumidifiers at Patan for last week in one file")
    assert [c["asset_names"] for c in calls] == [["dh_vault_a", "dh_vault_b"]]
    # the words that narrow the kind narrow its assets ("NH3 compressors": not the air compressor)
    assert [c["asset_names"] for c in histories("download the power of both NH3 compressors at Dairy for the 3rd")] == [
        ["NH3 Comp 1", "NH3 Comp 2"]
    ]
    # a ranking takes the kind itself (`rank`'s asset_type): no list is pinned for it
    g = Grounding.build("which dehumidifier at Patan drew the most power last week", cat, now)
    assert all(not s.fixed_assets for s in g.scope().sites.values())


def test_an_amount_asked_of_an_asset_without_power_is_computed_from_the_named_rate():
    from datetime import UTC, datetime

    from edge_agent.grounding.catalog import SensorName
    from edge_agent.grounding.run import Grounding

    cat = Catalog.of({"MRF": {"boiler_1": ["gas_flow", "firing_rate"], "baler_1": ["kw"]}})
    units = {"gas_flow": "cfh", "firing_rate": "%", "kw": "kW"}
    site = cat.site("MRF")
    site.sensors = {
        a: [SensorName(f"{a} {p.short}", p.short, units[p.short]) for p in ps] for a, ps in site.sensors.items()
    }
    g = Grounding.build("did boiler_1 burn more gas yesterday or on sunday?", cat, datetime(2025, 11, 4, 9, tzinfo=UTC))
    assert g.scope().pins["statistic"] == "energy"
    schema = TOOLS.get("compare_periods").schema(None, g.scope())
    assert schema["properties"]["sensor_name"]["enum"] == ["gas_flow"]
