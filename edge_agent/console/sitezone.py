"""The time zone the console shows every time in ("site time"), and where it came from.

`agent.timezone` when the settings name one; else the SkySpark's own: the `tz` tag of its sites, read once the
SkySpark answers (in the background, again every `RETRY_S` while it does not); the gateway's zone only until then,
or when the sites' zones differ. The page says which zone it shows and why (`SiteZone.label`).
"""

from __future__ import annotations

import logging
import threading
from datetime import datetime, tzinfo

from edge_agent.config import Settings
from edge_agent.console.present import site_zone
from edge_agent.skyspark.client import SkySparkClient

log = logging.getLogger(__name__)
RETRY_S = 300.0


class SiteZone:
    def __init__(self, settings: Settings):
        self.settings = settings
        self.zone: tzinfo | None = site_zone(settings.agent.timezone)
        self.source = "agent.timezone" if self.zone is not None else "the gateway's zone"
        self._stop = threading.Event()

    @property
    def name(self) -> str:
        if self.zone is not None:
            return str(self.zone)
        local = datetime.now().astimezone().tzinfo
        return str(getattr(local, "key", None) or (local.tzname(None) if local else None) or "local")

    @property
    def label(self) -> str:
        """'Europe/Berlin (the SkySpark site's tz)', for the page."""
        return f"{self.name} ({self.source})"

    def from_sites(self, zones: dict[str, str]) -> bool:
        """Take the sites' zone (site name → IANA name) when they agree; True once there is one."""
        names = {z for z in zones.values() if site_zone(z) is not None}
        if len(names) == 1:
            self.zone = site_zone(names.pop())
            self.source = "the SkySpark site's tz" if len(zones) == 1 else "the SkySpark sites' tz"
            return True
        if len(names) > 1:
            self.source = f"the gateway's zone: the SkySpark's sites are in {len(names)} zones"
            return True
        return False

    def start(self) -> SiteZone:
        """Read the SkySpark's sites in the background (unless agent.timezone named the zone)."""
        if self.zone is None:
            threading.Thread(target=self._resolve, daemon=True, name="console-site-zone").start()
        return self

    def stop(self) -> None:
        self._stop.set()

    def _resolve(self) -> None:
        while not self._stop.is_set():
            try:
                client = SkySparkClient.from_settings(self.settings.skyspark)
                try:
                    sites = client.sites()
                finally:
                    client.close()
                if self.from_sites({s.name: s.tz for s in sites}):
                    log.info("console: site time is %s", self.label)
                    return
            except Exception as exc:  # unreachable, refused: the gateway's zone meanwhile, and try again later
                log.info("console: the SkySpark's site zone is not known yet (%s); showing %s", exc, self.label)
            self._stop.wait(RETRY_S)
