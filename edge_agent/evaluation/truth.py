"""Ground truth for the checker: what the SkySpark the run used says about sites, assets, sensors and histories.

`Truth` is the small interface the checker needs. `SkySparkTruth` implements it over the same
`SkySparkClient` the agent's tools use, so expected rows and values come from the very server the
run talked to (simulator, an operator's dataset, or a real SkySpark). `CachedTruth` memoises it:
a benchmark asks the same questions many times.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from functools import lru_cache
from typing import Protocol

from phable.kinds import Marker

from edge_agent.skyspark.records import assets_filter

#: marker tags that say what a record is, not what kind of equipment: never a kind
STRUCTURAL = frozenset(
    {"equip", "point", "site", "his", "cur", "writable", "aux", "disMacro", "navName", "space", "floor", "building"}
)


@dataclass(frozen=True)
class Sample:
    ts: datetime  # timezone-aware
    value: float | None
    unit: str | None = None


class Truth(Protocol):
    def __hash__(self) -> int:
        """By identity, as for any object: the audit caches what it derives from one Truth (`evaluation.audit`)."""
        ...

    def sites(self) -> list[str]: ...

    def assets(self, site: str) -> list[str]: ...

    def sensors(self, site: str, asset: str) -> list[str]: ...

    def history(self, site: str, asset: str, sensor: str, start: datetime, end: datetime) -> list[Sample]:
        """Samples with start <= ts < end, in time order."""
        ...

    # optional: `asset_types(site) -> {asset: [equip markers]}` (the `kind` of ranks, count, exists)
    # optional: `asset_tags(site, asset) -> {tag: value}` (confirms a `not_recorded` attribute is not held)


class CachedTruth:
    """Memoises another Truth (keyed by arguments)."""

    def __init__(self, inner: Truth, size: int = 512):
        self.inner = inner
        self.sites = lru_cache(maxsize=1)(inner.sites)
        self.assets = lru_cache(maxsize=size)(inner.assets)
        self.sensors = lru_cache(maxsize=size)(inner.sensors)
        self._history = lru_cache(maxsize=size)(inner.history)
        if hasattr(inner, "asset_types"):
            self.asset_types = lru_cache(maxsize=size)(inner.asset_types)
        if hasattr(inner, "asset_tags"):
            self.asset_tags = lru_cache(maxsize=size)(inner.asset_tags)

    def history(self, site: str, asset: str, sensor: str, start: datetime, end: datetime) -> list[Sample]:
        return self._history(site, asset, sensor, start, end)


def _number(value) -> float | None:
    if isinstance(value, bool):
        return float(value)  # a Bool point's on/off; the analysis checks leave it out (`Sample.unit` is None)
    if isinstance(value, (int, float)):
        return float(value)
    return None


class SkySparkTruth:
    """Truth read through `SkySparkClient` — the same client, calls and range semantics as the tools.

    Sensors are listed by their short names ("Tonnage"); histories are the client's rows for one
    asset and [start, end)."""

    def __init__(self, client):
        self.client = client

    def sites(self) -> list[str]:
        return [s.name for s in self.client.sites()]

    def assets(self, site: str) -> list[str]:
        return [a.name for a in self.client.assets(site)]

    def _equip_records(self, site: str) -> dict[str, dict]:
        """The site's equip records by asset name, read with the client's own filter (every tag kept)."""
        site_rec = next(s for s in self.client.sites() if s.name == site)
        by_id = {r["id"].val: r for r in self.client.read_all(assets_filter(site_rec.id)) if "id" in r}
        return {a.name: by_id.get(a.id, {}) for a in self.client.assets(site)}

    def asset_types(self, site: str) -> dict[str, list[str]]:
        """Each asset's equip markers, every marker tag of its record but the structural ones (chiller, ahu, crac,
        evse, heatPump, elecMeter, …) — read from the records, not from the client's own list of kinds."""
        out = {}
        for name, rec in self._equip_records(site).items():
            out[name] = [tag for tag, value in rec.items() if isinstance(value, Marker) and tag not in STRUCTURAL]
        return out

    def asset_tags(self, site: str, asset: str) -> dict:
        """The tags of one asset's record (what a `not_recorded` task checks the SkySpark does not hold)."""
        return dict(self._equip_records(site).get(asset, {}))

    def sensors(self, site: str, asset: str) -> list[str]:
        return [s.short_name for s in self.client.sensors(site, asset)]

    def history(self, site: str, asset: str, sensor: str, start: datetime, end: datetime) -> list[Sample]:
        rows = self.client.history(site, [asset], sensor, start, end)
        return [Sample(datetime.fromisoformat(r.timestamp), _number(r.value), r.unit) for r in rows]


def skyspark_truth(settings) -> CachedTruth:
    """A cached Truth over the SkySpark in `settings.skyspark` (the one the agent's tools use)."""
    from edge_agent.skyspark.client import SkySparkClient

    return CachedTruth(SkySparkTruth(SkySparkClient.from_settings(settings.skyspark)))
