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


@dataclass(frozen=True)
class Sample:
    ts: datetime  # timezone-aware
    value: float | None
    unit: str | None = None


class Truth(Protocol):
    def sites(self) -> list[str]: ...

    def assets(self, site: str) -> list[str]: ...

    def sensors(self, site: str, asset: str) -> list[str]: ...

    def history(self, site: str, asset: str, sensor: str, start: datetime, end: datetime) -> list[Sample]:
        """Samples with start <= ts < end, in time order."""
        ...


class CachedTruth:
    """Memoises another Truth (keyed by arguments)."""

    def __init__(self, inner: Truth, size: int = 512):
        self.inner = inner
        self.sites = lru_cache(maxsize=1)(inner.sites)
        self.assets = lru_cache(maxsize=size)(inner.assets)
        self.sensors = lru_cache(maxsize=size)(inner.sensors)
        self._history = lru_cache(maxsize=size)(inner.history)

    def history(self, site: str, asset: str, sensor: str, start: datetime, end: datetime) -> list[Sample]:
        return self._history(site, asset, sensor, start, end)
