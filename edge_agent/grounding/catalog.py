"""The SkySpark catalog a run is grounded in: its sites, each site's assets and each asset's sensors.

Read through the Haystack client (one `read` for the sites, then per site one for its equips and one
for its points), loaded lazily site by site and cached for `ttl_s` seconds, so consecutive requests
share it and a changed plant is seen again after the TTL. Names are the names the tools accept;
`key()` is the loose spelling used to compare them (case, spaces, underscores and hyphens aside).
"""

from __future__ import annotations

import re
import threading
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Protocol, TypeVar

from edge_agent.grounding.measures import equip_kinds

#: a catalog older than this is read again (seconds)
DEFAULT_TTL_S = 300.0


def key(name: str) -> str:
    """The loose spelling of a name: lower case, without spaces, underscores and hyphens."""
    return re.sub(r"[\s_\-]+", "", str(name)).casefold()


# -- what the catalog reads from a SkySpark client (`skyspark.client.SkySparkClient`; grounding does not import it) --


class SiteRow(Protocol):
    @property
    def name(self) -> str: ...
    @property
    def tz(self) -> str: ...


class AssetRow(Protocol):
    @property
    def name(self) -> str: ...
    @property
    def types(self) -> Sequence[str]: ...
    @property
    def attrs(self) -> Mapping[str, str]: ...


class PointRow(Protocol):
    @property
    def name(self) -> str: ...
    @property
    def short_name(self) -> str: ...
    @property
    def unit(self) -> str | None: ...
    @property
    def tags(self) -> Sequence[str]: ...
    @property
    def description(self) -> str: ...


S = TypeVar("S", bound=SiteRow)
A = TypeVar("A", bound=AssetRow)


class CatalogSource(Protocol[S, A]):
    """The reads `Catalog.from_client` makes: the sites, a site's assets, and their points (per site, or per asset
    where the server cannot read a site's points at once)."""

    def sites(self) -> Sequence[S]: ...
    def _assets(self, site: S) -> Sequence[A]: ...
    def _sensors(self, site: S, asset: A) -> Sequence[PointRow]: ...
    def site_sensors(self, site: S, assets: Sequence[A]) -> Mapping[str, Sequence[PointRow]]: ...


@dataclass
class SensorName:
    name: str  # full point name, e.g. "Chiller 6 Tonnage"
    short: str  # navName, e.g. "Tonnage"
    unit: str | None = None
    tags: tuple[str, ...] = ()  # the point's marker tags (temp, power, sp, …), where the SkySpark has them
    description: str = ""  # the point's free text, where it has one ("Signed: + discharging, - charging")


@dataclass
class SiteCatalog:
    name: str
    tz: str
    assets: list[str]
    sensors: dict[str, list[SensorName]]  # asset name -> its sensors
    types: dict[str, list[str]] = field(default_factory=dict)  # asset name -> its equip markers (chiller, ahu…)
    attrs: dict[str, dict[str, str]] = field(default_factory=dict)  # asset name -> its valued tags (manufacturer…)
    markers: dict[str, tuple[str, ...]] = field(default_factory=dict)  # asset name -> every marker (siteMeter…)

    def assets_of_type(self, kind: str) -> list[str]:
        return [a for a in self.assets if kind in self.types.get(a, [])]

    def sensor_shorts(self, asset: str) -> list[str]:
        return list(dict.fromkeys(s.short for s in self.sensors.get(asset, [])))


@dataclass
class Catalog:
    """Sites, and per site (loaded on first use) assets and sensors. Thread-safe for reads."""

    sites: list[str]
    tz: dict[str, str] = field(default_factory=dict)
    cities: dict[str, str] = field(default_factory=dict)  # site -> its `geoCity`, where the SkySpark records one
    _load_site: Callable[[str], SiteCatalog] | None = None
    _loaded: dict[str, SiteCatalog] = field(default_factory=dict)
    _lock: threading.Lock = field(default_factory=threading.Lock)

    @classmethod
    def from_client(cls, client: CatalogSource[S, A]) -> Catalog:
        """Read the sites now; each site's assets and points when first asked for."""
        sites = client.sites()
        by_name = {s.name: s for s in sites}

        def load(name: str) -> SiteCatalog:
            site = by_name[name]
            assets = client._assets(site)
            try:
                sensors = client.site_sensors(site, assets)
            except Exception:  # a server without siteRef on points: one read per asset
                sensors = {a.name: client._sensors(site, a) for a in assets}
            return SiteCatalog(
                name=name,
                tz=site.tz,
                assets=[a.name for a in assets],
                sensors={
                    a: [SensorName(s.name, s.short_name, s.unit, tuple(s.tags), s.description) for s in rows]
                    for a, rows in sensors.items()
                },
                types={a.name: equip_kinds(a.types) for a in assets},
                attrs={a.name: dict(a.attrs) for a in assets},
                markers={a.name: tuple(a.types) for a in assets},
            )

        return cls(
            sites=[s.name for s in sites],
            tz={s.name: s.tz for s in sites},
            cities={s.name: c for s in sites if (c := getattr(s, "city", ""))},
            _load_site=load,
        )

    @classmethod
    def of(cls, plant: dict[str, dict[str, list[str]]]) -> Catalog:
        """A fixed catalog {site: {asset: [sensor short names]}} (tests, and re-checking stored runs)."""
        loaded = {
            s: SiteCatalog(
                s,
                "UTC",
                list(assets),
                {a: [SensorName(f"{a} {n}", n) for n in sensors] for a, sensors in assets.items()},
            )
            for s, assets in plant.items()
        }
        return cls(sites=list(plant), tz={s: "UTC" for s in plant}, _loaded=loaded)

    def site(self, name: str) -> SiteCatalog:
        with self._lock:
            if name not in self._loaded:
                if self._load_site is None or name not in self.sites:
                    raise KeyError(name)
                self._loaded[name] = self._load_site(name)
            return self._loaded[name]

    def assets(self, site: str) -> list[str]:
        return self.site(site).assets if site in self.sites else []

    def types(self, site: str) -> list[str]:
        """The equip markers of a site's assets (chiller, ahu, meter, …), in first-seen order."""
        if site not in self.sites:
            return []
        return list(dict.fromkeys(t for kinds in self.site(site).types.values() for t in kinds))

    def kinds(self) -> list[str]:
        """The equip markers of every site's assets."""
        return list(dict.fromkeys(t for site in self.sites for t in self.types(site)))

    def sensors(self, site: str, asset: str) -> list[SensorName]:
        return self.site(site).sensors.get(asset, []) if site in self.sites else []

    # existence, as the tools resolve names (exact or loosely spelled)
    def canonical_site(self, name: str) -> str | None:
        return next((s for s in self.sites if s == name), None) or next(
            (s for s in self.sites if key(s) == key(name)), None
        )

    def canonical_asset(self, site: str, name: str) -> str | None:
        names = self.assets(site)
        return next((a for a in names if a == name), None) or next((a for a in names if key(a) == key(name)), None)

    def has_sensor(self, site: str, asset: str, name: str) -> bool:
        wanted = key(name)
        return any(wanted in (key(s.name), key(s.short)) for s in self.sensors(site, asset))

    def all_names(self) -> set[str]:
        """Every site, asset and sensor name of the sites loaded so far."""
        out = set(self.sites)
        for entry in list(self._loaded.values()):
            out.update(entry.assets)
            for rows in entry.sensors.values():
                out.update(s.short for s in rows)
                out.update(s.name for s in rows)
        return out


class CatalogCache:
    """One catalog per SkySpark, read again when older than `ttl_s`."""

    def __init__(self, ttl_s: float = DEFAULT_TTL_S):
        self.ttl_s = ttl_s
        self._catalog: Catalog | None = None
        self._at = 0.0
        self._lock = threading.Lock()

    def get(self, client_factory: Callable[[], CatalogSource[S, A]]) -> Catalog:
        with self._lock:
            if self._catalog is None or time.monotonic() - self._at > self.ttl_s:
                self._catalog = Catalog.from_client(client_factory())
                self._at = time.monotonic()
            return self._catalog
