"""Kinds of equipment named in a question ("the chillers", "AHUs") are linked to the SkySpark's equip
markers, and the `assets` call is then pinned to that kind: the count and names come from the tool."""

from __future__ import annotations

import json
import re

from edge_agent import PROJECT_ROOT
from edge_agent.clock import Clock
from edge_agent.filestore import FileStore
from edge_agent.grounding.catalog import Catalog
from edge_agent.grounding.linking import link
from edge_agent.grounding.scope import Scope
from edge_agent.llm.constraints import schema_regex
from edge_agent.skyspark.client import SkySparkClient
from edge_agent.toolkit import ToolContext, ToolRegistry

TOOLS = ToolRegistry.from_dir(PROJECT_ROOT / "plugins")


def _catalog(settings) -> Catalog:
    return Catalog.from_client(SkySparkClient.from_settings(settings.skyspark))


def test_plural_kind_is_linked_and_pins_the_assets_call(skyspark_settings, tmp_path):
    catalog = _catalog(skyspark_settings)
    links = link("How many chillers are there at site POKMAIN, and what are their names?", catalog)
    assert links.sites == ["POKMAIN"] and links.asset_types == ["chiller"] and not links.missing
    schema = TOOLS.get("assets").schema(None, Scope.from_links(links, catalog))
    call = {"site_name": "POKMAIN", "asset_type": "chiller"}
    assert re.fullmatch(schema_regex(schema), json.dumps(call)) is not None
    assert re.fullmatch(schema_regex(schema), json.dumps({"site_name": "POKMAIN"})) is None
    ctx = ToolContext(
        files=FileStore(tmp_path / "f"),
        clock=Clock("2020-06-08T09:00:00", "America/New_York"),
        settings=skyspark_settings,
        skyspark_factory=lambda: SkySparkClient.from_settings(skyspark_settings.skyspark),
    )
    out = TOOLS.get("assets").run(call, ctx)
    chillers = catalog.site("POKMAIN").assets_of_type("chiller")
    assert out.ok and out.observation.startswith(f"found {len(chillers)} chiller assets at POKMAIN")
    assert all(name in out.observation for name in chillers)


def test_acronym_plural_links_and_no_kind_means_no_filter(skyspark_settings):
    catalog = _catalog(skyspark_settings)
    assert link("List all the air handling units (AHUs) at RCHMAIN.", catalog).asset_types == ["ahu"]
    links = link("How many assets does the POKMAIN site have?", catalog)
    assert links.asset_types == []
    schema = TOOLS.get("assets").schema(None, Scope.from_links(links, catalog))
    assert "asset_type" not in json.dumps(schema)  # no free filter a small model could fill with junk


def test_a_named_asset_is_not_read_as_a_kind(skyspark_settings):
    catalog = _catalog(skyspark_settings)
    links = link("What was the Tonnage of Chiller 7 at POKMAIN yesterday?", catalog)
    assert links.asset_types == [] and [m.text for m in links.missing] == ["Chiller 7"]


def test_a_sites_own_marker_beside_a_field_kind_is_a_kind_and_one_noun_names_one_kind():
    from edge_agent.grounding.measures import equip_kinds
    from edge_agent.grounding.run import Grounding

    # "blower" is no kind the field's files define; beside "motor" it is the site's own name for its blowers
    assert equip_kinds(["equip", "blower", "motor", "air"]) == ["motor", "blower"]
    cat = Catalog.of({"M": {"Blower 1": ["Power"], "Blower 2": ["Power"], "IPS-P1": ["Power"]}})
    cat.site("M").types.update({"Blower 1": ["motor", "blower"], "Blower 2": ["motor", "blower"], "IPS-P1": ["pump"]})
    g = Grounding.build("how many blowers have we got at M?", cat)
    assert g.in_code == "Found 2 blowers at M: Blower 1, Blower 2"
    # two kinds side by side ("glycol pumps") where one's assets are the other's: one kind, the noun's head
    cat2 = Catalog.of({"F": {"GP-1": ["Flow"], "GP-2": ["Flow"], "Office RTU": ["Temp"]}})
    cat2.site("F").types.update({"GP-1": ["pump", "glycol"], "GP-2": ["pump", "glycol"], "Office RTU": ["rtu"]})
    assert link("how many glycol pumps does F have", cat2).asset_types == ["pump"]
