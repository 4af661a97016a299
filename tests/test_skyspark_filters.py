"""Haystack filters and literals: the parser, the renderer, the evaluator, and proof that no value
the model (or a server) supplies can change a filter's structure."""

from __future__ import annotations

from datetime import date, datetime, time
from zoneinfo import ZoneInfo

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from phable import Marker, Number, Ref

from edge_agent.skyspark import filters as F
from edge_agent.skyspark.encoding import REF_RE, EncodingError, encode_ref, encode_str, grid_to_zinc, make_grid
from edge_agent.skyspark.haystack_json import grid_to_json, json_to_grid
from edge_agent.skyspark.records import assets_filter, named_filter, sensors_filter, sites_filter
from edge_agent.skyspark.zinc_reader import Scanner, zinc_to_grid

ANY_TEXT = st.text(alphabet=st.characters(blacklist_categories=("Cs",)), max_size=60)
NASTY = st.sampled_from(
    [
        '" or site or "',
        "\\",
        '\\"',
        '") or (point',
        "$name",
        "\n",
        'a"b\\c',
        "x==@y",
        "not his",
        "->",
        "`uri`",
        "\u00b0F",
        "\x00",
        "Chiller 6 Tonnage",
    ]
)
NAMES = st.one_of(ANY_TEXT, NASTY, st.lists(NASTY, max_size=4).map("".join))
REF_IDS = st.from_regex(REF_RE, fullmatch=True).filter(lambda s: len(s) < 40)


@settings(max_examples=300, deadline=None)
@given(name=NAMES, parent=REF_IDS)
def test_named_filter_structure_never_changes(name, parent):
    node = named_filter("equip", name, "siteRef", parent)
    parsed = F.parse(F.render(node))
    expected_shape = (
        "and",
        (
            ("has", ("equip",)),
            ("or", (("cmp", ("dis",), "==", "str"), ("cmp", ("navName",), "==", "str"))),
            ("cmp", ("siteRef",), "==", "Ref"),
        ),
    )
    assert F.shape(parsed) == expected_shape
    assert parsed.terms[1].terms[0].val == name and parsed.terms[1].terms[1].val == name
    assert parsed.terms[2].val.val == parent


@settings(max_examples=200, deadline=None)
@given(ref=st.one_of(REF_IDS, ANY_TEXT, NASTY))
def test_ref_values_are_literals_or_refused(ref):
    for build, tag in ((assets_filter, "siteRef"), (sensors_filter, "equipRef")):
        try:
            node = build(ref)
        except F.FilterError:
            assert not REF_RE.fullmatch(ref)
            continue
        parsed = F.parse(F.render(node))
        assert F.shape(parsed) == (
            "and",
            (("has", (("equip",) if tag == "siteRef" else ("point",))), ("cmp", (tag,), "==", "Ref")),
        )
        assert parsed.terms[1].val.val == ref


def test_sites_filter():
    assert F.render(sites_filter()) == "site"


@settings(max_examples=300, deadline=None)
@given(text=NAMES)
def test_string_literal_round_trip(text):
    sc = Scanner(encode_str(text))
    assert sc.literal() == text and sc.eof()


@given(text=ANY_TEXT)
def test_encode_ref_refuses_or_round_trips(text):
    try:
        lit = encode_ref(text)
    except EncodingError:
        return
    assert Scanner(lit).literal(filter_mode=True) == Ref(text)


# random filter ASTs round-trip through text
_paths = st.lists(
    st.sampled_from(["equip", "siteRef", "dis", "navName", "temp", "curVal", "a_b", "x1"]), min_size=1, max_size=3
).map(tuple)
_vals = st.one_of(
    NAMES,
    st.booleans(),
    REF_IDS.map(Ref),
    st.builds(
        Number,
        st.floats(allow_nan=False, allow_infinity=False, width=32).map(float),
        st.sampled_from([None, "kW", "°F", "%", "m³/h", "tonref"]),
    ),
    st.dates(),
    st.times().map(lambda t: t.replace(microsecond=0)),
)
_leaves = st.one_of(_paths.map(F.Has), _paths.map(F.HasNot), st.builds(F.Cmp, _paths, st.sampled_from(F.OPS), _vals))
_trees = st.recursive(
    _leaves,
    lambda kids: st.one_of(
        st.lists(kids, min_size=2, max_size=3).map(lambda ts: F.And(tuple(ts))),
        st.lists(kids, min_size=2, max_size=3).map(lambda ts: F.Or(tuple(ts))),
    ),
    max_leaves=8,
)


@settings(max_examples=300, deadline=None)
@given(tree=_trees)
def test_filter_text_round_trip(tree):
    text = F.render(tree)
    assert F.parse(text) == tree
    assert F.render(F.parse(text)) == text


@settings(max_examples=300, deadline=None)
@given(text=st.text(max_size=40))
def test_parser_only_raises_filter_error(text):
    try:
        node = F.parse(text)
    except F.FilterError:
        return
    assert F.parse(F.render(node)) == node


@pytest.mark.parametrize(
    "text",
    [
        "",
        "and",
        "site and",
        "(site",
        "site)",
        "dis ==",
        "dis == foo",
        "not",
        "not (site)",
        "a -> b",
        "Site",
        'dis == "x',
        "a == @",
        "a === 1",
    ],
)
def test_bad_filters_are_refused(text):
    with pytest.raises(F.FilterError):
        F.parse(text)


NY = ZoneInfo("America/New_York")
SITE = {"id": Ref("s1", "POKMAIN"), "dis": "POKMAIN", "site": Marker(), "tz": "New_York", "area": Number(1e5, "ft²")}
EQUIP = {"id": Ref("e1", "Chiller 6"), "dis": "Chiller 6", "equip": Marker(), "chiller": Marker(), "siteRef": Ref("s1")}
POINT = {
    "id": Ref("p1"),
    "dis": "Chiller 6 Tonnage",
    "navName": "Tonnage",
    "point": Marker(),
    "his": Marker(),
    "equipRef": Ref("e1"),
    "siteRef": Ref("s1"),
    "curVal": Number(310.5, "tonref"),
    "kind": "Number",
    "installed": date(2019, 5, 1),
}
RECS = {r["id"].val: r for r in (SITE, EQUIP, POINT)}


@pytest.mark.parametrize(
    "text,ids",
    [
        ("site", {"s1"}),
        ("equip and chiller", {"e1"}),
        ("not equip", {"s1", "p1"}),
        ('dis == "Chiller 6"', {"e1"}),
        ('dis != "Chiller 6"', {"s1", "p1"}),
        ("siteRef == @s1", {"e1", "p1"}),
        ('equipRef->siteRef->dis == "POKMAIN"', {"p1"}),
        ("equipRef->chiller", {"p1"}),
        ("curVal > 300", {"p1"}),
        ("curVal > 300tonref and curVal <= 310.5", {"p1"}),
        ("curVal > 300kW", set()),
        ("curVal < 300", set()),
        ("installed < 2020-01-01", {"p1"}),
        ("area >= 100000", {"s1"}),
        ("(site or chiller) and not point", {"s1", "e1"}),
        ("site or equip and chiller", {"s1", "e1"}),
        ('navName == "Tonnage" or dis == "POKMAIN"', {"p1", "s1"}),
    ],
)
def test_evaluation(text, ids):
    node = F.parse(text)
    assert {i for i, r in RECS.items() if F.matches(node, r, RECS.get)} == ids


def test_scalar_literals():
    for text, value in [
        ('"a\\nb\\u00e9"', "a\nbé"),
        ("@p:demo:r:1-2", Ref("p:demo:r:1-2")),
        ("12.5kW", Number(12.5, "kW")),
        ("-3", Number(-3.0)),
        ("1e3", Number(1000.0)),
        ("2024-07-15", date(2024, 7, 15)),
        ("13:45:00", time(13, 45)),
        ("T", True),
        ("F", False),
        ("M", Marker()),
    ]:
        sc = Scanner(text)
        assert sc.literal() == value and sc.eof()
    dt = Scanner("2024-07-15T12:00:00-04:00 New_York").literal()
    assert dt == datetime(2024, 7, 15, 12, tzinfo=NY) and dt.tzinfo.key == "America/New_York"


def test_grids_round_trip_in_both_encodings():
    rows = [
        SITE,
        EQUIP,
        POINT,
        {"id": Ref("h1"), "ts": datetime(2024, 7, 15, 12, tzinfo=NY), "dis": 'quote " and , comma', "n": None},
    ]
    grid = make_grid(rows, meta={"hisStart": datetime(2024, 1, 1, tzinfo=NY)})
    for back in (zinc_to_grid(grid_to_zinc(grid)), json_to_grid(grid_to_json(grid))):
        assert [dict(r) for r in back.rows] == [{k: v for k, v in r.items() if v is not None} for r in rows]
        assert back.meta["hisStart"] == datetime(2024, 1, 1, tzinfo=NY)


# ── the same property end to end: any name, over real HTTP, in both encodings ─────────────────


@pytest.fixture(scope="module")
def http_clients(simulator):
    from edge_agent.skyspark.client import SkySparkClient

    return {
        enc: SkySparkClient(
            simulator.url, simulator.project, simulator.username, simulator.password, encoding=enc, retries=0
        )
        for enc in ("json", "zinc")
    }


@settings(max_examples=40, deadline=None)
@given(name=st.one_of(NAMES, st.sampled_from(["Chiller 6 °F", "naïve ☃ \U0001f600", "it's", "B710 FCU 1-39\t"])))
def test_any_name_is_only_ever_a_literal_on_the_wire(http_clients, name):
    for client in http_clients.values():
        recs = client.lookup("equip", name)
        assert all(r["dis"] == name or r.get("navName") == name for r in recs)


def test_exact_names_are_found_on_the_wire(http_clients):
    for client in http_clients.values():
        assert [r["dis"] for r in client.lookup("equip", "B710 FCU 1-39")] == ["B710 FCU 1-39"]
        from edge_agent.skyspark.plant_layout import SITES

        assert len(client.lookup("point", "Duct Static Pressure")) == sum(len(s.ahus) for s in SITES)  # one per AHU
