"""Our client against a Haystack server we did not write: shaystack (PyPI), in its own cached venv.

shaystack serves `/haystack/{op}` without authentication and speaks Zinc and JSON v3 only (phable's
JSON decoder reads Haystack 4 JSON), so the client runs with `encoding=zinc`, `auth=none`,
`api_path=haystack`. Its quirks met here: it rejects a Zinc request whose last row is followed by a
blank line (the client sends one trailing newline), and it renames units in hisRead results
("tonref" → "refrigeration_ton"; history rows therefore carry the point's own `unit` tag).
"""

from __future__ import annotations

from datetime import datetime
from zoneinfo import ZoneInfo

import pytest

from edge_agent.skyspark.client import SkySparkClient
from edge_agent.skyspark.dataset import expected_history
from edge_agent.skyspark.errors import SkySparkCallError, UnknownName

NY = ZoneInfo("America/New_York")


@pytest.fixture(scope="module")
def client(shaystack_server):
    return SkySparkClient(
        shaystack_server.url,
        "",
        "",
        None,
        encoding="zinc",
        api_path=shaystack_server.api_path,
        auth="none",
        retries=0,
        timeout_s=20,
    )


def test_about_and_read(client):
    assert client.about()["productName"]
    sites = client.sites()
    assert [(s.name, s.tz) for s in sites] == [("POKMAIN", "America/New_York")]
    assert [a.name for a in client.assets("pokmain")] == ["Chiller 6", "Chiller 9"]
    sensors = client.sensors("POKMAIN", "Chiller 6")
    assert [(s.name, s.short_name, s.unit) for s in sensors] == [
        ("Chiller 6 Tonnage", "Tonnage", "tonref"),
        ("Chiller 6 % Loaded", "% Loaded", "%"),
        ("Chiller 6 Run Status", "Run Status", None),
    ]
    assert [r["dis"] for r in client.lookup("point", "Tonnage")] == ["Chiller 6 Tonnage", "Chiller 9 Tonnage"]
    with pytest.raises(UnknownName, match="closest: 'Chiller 6'"):
        client.sensors("POKMAIN", "Chiller 66")


def test_his_read_interval_and_point(client):
    start, end = datetime(2024, 7, 15, 12, tzinfo=NY), datetime(2024, 7, 15, 14, tzinfo=NY)
    rows = client.history("POKMAIN", ["Chiller 6", "Chiller 9"], "Tonnage", start, end)
    assert len(rows) == 16
    for asset in ("Chiller 6", "Chiller 9"):
        got = [(r.timestamp, r.value, r.unit) for r in rows if r.asset_name == asset]
        expected = expected_history("POKMAIN", asset, "Tonnage", start, end)
        assert got == [(t.isoformat(), v, "tonref") for t, v in expected]
    point = client.history("POKMAIN", ["Chiller 6"], "Run Status", datetime(2024, 7, 15, 12, 10, tzinfo=NY))
    assert [(p.timestamp, p.value) for p in point] == [("2024-07-15T12:00:00-04:00", True)]


def test_third_party_error_grid(client):
    with pytest.raises(SkySparkCallError):
        client.his_read("no-such-point", datetime(2024, 7, 15, tzinfo=NY), datetime(2024, 7, 16, tzinfo=NY), NY)
