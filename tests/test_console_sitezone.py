"""Site time on the console (issue 41, 7): `agent.timezone` when set, else the SkySpark's own sites' `tz` (read in
the background), the gateway's zone only as a fallback; the page says which zone it shows and why, the ask form's
"now" names the zone and is sent as site time."""

from __future__ import annotations

import re
import time
from zoneinfo import ZoneInfo

from edge_agent.config import load_settings
from edge_agent.console.present import site_instant, when
from edge_agent.console.sitezone import SiteZone
from tests.plugins.console import login


def test_the_zone_comes_from_the_settings_else_the_sites():
    named = SiteZone(load_settings(overrides={"agent": {"timezone": "Asia/Tokyo"}}, environ={}))
    assert named.label == "Asia/Tokyo (agent.timezone)"
    zone = SiteZone(load_settings(environ={}))
    assert zone.zone is None and zone.source == "the gateway's zone"
    assert zone.from_sites({"WERK1": "Europe/Berlin"})
    assert zone.label == "Europe/Berlin (the SkySpark site's tz)" and zone.zone == ZoneInfo("Europe/Berlin")
    several = SiteZone(load_settings(environ={}))
    assert several.from_sites({"A": "America/Chicago", "B": "Europe/Dublin"}) and several.zone is None
    assert "2 zones" in several.label
    assert not SiteZone(load_settings(environ={})).from_sites({})


def test_now_without_a_zone_is_sent_as_site_time():
    assert site_instant("2024-06-14 10:00", ZoneInfo("Europe/Berlin")) == "2024-06-14T10:00:00+02:00"
    assert site_instant("2024-06-14T10:00:00-05:00", ZoneInfo("Europe/Berlin")) == "2024-06-14T10:00:00-05:00"
    assert site_instant("2024-06-14T10:00:00", None) == "2024-06-14T10:00:00"


def test_the_console_reads_the_skysparks_site_zone(tmp_path, mosquitto):
    """The rhine plant's sites are in Europe/Berlin; the settings name no zone: the console shows Berlin time."""
    from edge_agent.commands.console import ConsoleThread
    from edge_agent.console.users import UserStore
    from edge_agent.skyspark.client import SkySparkClient
    from edge_agent.skyspark.plants import builtin
    from tests.plugins.console import PASSWORD, console_overrides
    from tests.plugins.skyspark import _start

    sim = _start(dataset=builtin("rhine"))
    try:
        over = console_overrides(tmp_path / "state", mosquitto)
        over["skyspark"] = {
            "url": sim.url,
            "project": sim.project,
            "username": sim.username,
            "password": sim.password,
            "timeout_s": 5,
            "retries": 1,
        }
        settings = load_settings(overrides=over, environ={})
        assert settings.agent.timezone is None
        UserStore(settings.state_dir / settings.console.users_file).add("otto", PASSWORD, "operator")
        console = ConsoleThread(settings).start()
        try:
            otto, _ = login(console.url, "otto")
            deadline = time.monotonic() + 30
            while "the SkySpark site" not in (home := otto.get("/").text) and time.monotonic() < deadline:
                time.sleep(0.3)
            sites = SkySparkClient(sim.url, sim.project, sim.username, sim.password).sites()
            (site_tz,) = {s.tz for s in sites}
            assert re.search(rf"<b>Site time</b> {site_tz} \(the SkySpark (site&#39;s|sites&#39;) tz\)", home)
            assert f'placeholder="e.g. 2024-06-14 10:00 ({site_tz})"' in home
            assert when(1718359200.0, ZoneInfo(site_tz)).endswith("(site time)")
        finally:
            console.stop()
    finally:
        sim.stop()
