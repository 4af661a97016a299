"""The SkySpark client the IoT tools and the benchmark checker use: sites, assets, sensors, histories.

Over phable 0.1.29: its SCRAM-SHA-256 exchange, its `HaxallClient` methods (`read_all`, `his_read_by_id`, `eval`)
and its Zinc / Haystack-JSON codecs, under our own transport (`skyspark.transport`: a timeout on the whole answer,
error grids from 4xx/5xx bodies, one re-login when a token has expired). This module adds retries with backoff
for timeouts and transient failures, and turns every failure into a `SkySparkError` (`skyspark.errors`) whose
message is fit for the model.

Filters are built from `filters` AST nodes, so names and ids are always Haystack literals. Names the model
supplies are never sent to the server at all: they are resolved against the lists the server returned
(`skyspark.records.resolve_name`: exactly, then ignoring case, spaces and underscores, else an `UnknownName`
error that lists the closest names).
"""

from __future__ import annotations

import http.client
import re
import socket
import ssl
import threading
import time
from collections.abc import Callable, Sequence
from datetime import datetime, timedelta
from typing import Any, TypeVar
from urllib.error import HTTPError, URLError
from zoneinfo import ZoneInfo

from phable import CallError, UnknownRecError
from phable.auth.scram import AuthError, ScramServerResponseParsingError, ScramServerSignatureNotEqualError
from phable.io.ph_codecs import PH_CODECS
from phable.kinds import DateTimeRange, Grid, Number, Ref

from edge_agent.config import SkySparkSettings, resolve_secret
from edge_agent.failures import Interrupted
from edge_agent.observers import NO_OBSERVER, Observer, notify
from edge_agent.skyspark import filters as F
from edge_agent.skyspark.encoding import EncodingError, zone
from edge_agent.skyspark.errors import (
    SkySparkAuthError,
    SkySparkCallError,
    SkySparkConfigError,
    SkySparkError,
    SkySparkTimeout,
    SkySparkTLSError,
    SkySparkUnavailable,
    UnknownName,
)
from edge_agent.skyspark.records import (
    Asset,
    HistoryRow,
    Sensor,
    Site,
    assets_filter,
    attributes,
    markers,
    named_filter,
    normalise,
    record_name,
    resolve_name,
    sensors_filter,
    site_points_filter,
    sites_filter,
)
from edge_agent.skyspark.transport import HaystackSession, ScramLogin

T = TypeVar("T")
_TRANSIENT_HTTP = {408, 429, 500, 502, 503, 504}


# ── the client ────────────────────────────────────────────────────────────────


class SkySparkClient:
    """Sites, assets, sensors and histories from one SkySpark project (or any Haystack server)."""

    def __init__(
        self,
        url: str,
        project: str,
        username: str,
        password: str | None,
        *,
        timeout_s: float = 10.0,
        retries: int = 3,
        encoding: str = "json",
        api_path: str = "api/{project}",
        auth: str = "scram",
        point_lookback_days: int = 3,
        backoff_s: float = 0.25,
        observer: Observer = NO_OBSERVER,
    ):
        self.base_url = url.rstrip("/")
        self.project = project
        self.uri = f"{self.base_url}/{api_path.format(project=project).strip('/')}"
        self.username = username
        self._password = password
        self.timeout_s = timeout_s
        self.retries = retries
        self.encoding = encoding
        self.auth = auth
        self.point_lookback = timedelta(days=point_lookback_days)
        self.backoff_s = backoff_s
        #: set by the run that owns the client (`ToolContext.skyspark`): its cancel stops a call between retries
        #: and between the pieces of an answer
        self.interrupt: threading.Event | None = None
        #: told of every Haystack operation, retries included (`edge_agent.observers`: the daemon's metrics)
        self.observer = observer
        self._session: HaystackSession | None = None

    @classmethod
    def from_settings(cls, settings: SkySparkSettings, *, observer: Observer = NO_OBSERVER) -> SkySparkClient:
        password = resolve_secret(settings.password, settings.password_file, "skyspark-password")
        return cls(
            settings.url,
            settings.project,
            settings.username,
            password,
            timeout_s=settings.timeout_s,
            retries=settings.retries,
            encoding=settings.encoding,
            api_path=settings.api_path,
            auth=settings.auth,
            point_lookback_days=settings.point_lookback_days,
            observer=observer,
        )

    # connection
    def _login(self) -> str:
        if self.auth == "none":
            return "none"
        if not self._password:
            raise SkySparkAuthError(
                "no SkySpark password is configured: set EDGE_AGENT_SKYSPARK__PASSWORD, "
                "skyspark.password_file, or the systemd credential skyspark-password"
            )
        scram = ScramLogin(self.uri, self.username, self._password, PH_CODECS[self.encoding].media_type, self.timeout_s)
        try:
            return scram.get_auth_token()
        except AuthError:
            raise SkySparkAuthError(
                f"SkySpark at {self.base_url} refused the login of user {self.username!r}: "
                "check the username and password"
            ) from None
        except (ScramServerResponseParsingError, ScramServerSignatureNotEqualError) as exc:
            raise SkySparkAuthError(f"the SkySpark login (SCRAM) with {self.uri} failed: {exc.help_msg}") from None

    def _connect(self) -> HaystackSession:
        return HaystackSession(self.uri, self._login(), self.encoding, self.timeout_s, self._login, self.interrupt)

    def _run(self, what: str, fn: Callable[[HaystackSession], T]) -> T:
        """One Haystack operation (`_attempts`), timed and told to the observer, failed or not."""
        started = time.perf_counter()
        try:
            out = self._attempts(what, fn)
        except Exception as exc:
            notify(self.observer.skyspark_call, what, time.perf_counter() - started, exc)
            raise
        notify(self.observer.skyspark_call, what, time.perf_counter() - started, None)
        return out

    def _attempts(self, what: str, fn: Callable[[HaystackSession], T]) -> T:
        """Run `fn` on a session: retry timeouts and transient failures with backoff, map every error. What
        cannot be worked around ends the run (`ExternalFailure`): the server unreachable or too slow after the
        retries, the login refused, TLS failing, an address that is no Haystack API."""
        reason, failure = "no attempt", SkySparkUnavailable
        for attempt in range(self.retries + 1):
            if attempt and self._wait(self.backoff_s * 2 ** (attempt - 1)):
                raise Interrupted()
            if self.interrupt is not None and self.interrupt.is_set():
                raise Interrupted()
            try:
                if self._session is None:
                    self._session = self._connect()
                return fn(self._session)
            except SkySparkError:
                raise
            except CallError as exc:
                meta = exc.help_msg.meta
                raise SkySparkCallError(f"SkySpark refused {what}: {meta.get('dis', 'error grid')}") from None
            except UnknownRecError as exc:
                raise SkySparkCallError(f"SkySpark has no record for {what}: {exc.help_msg}") from None
            except HTTPError as exc:
                if exc.code not in _TRANSIENT_HTTP:
                    hint = " (check url, project and api_path)" if exc.code == 404 else ""
                    raise SkySparkConfigError(
                        f"SkySpark at {self.base_url} answered HTTP {exc.code} {exc.reason} "
                        f"to {what} at {exc.url}{hint}"
                    ) from None
                reason, failure = f"HTTP {exc.code} {exc.reason}", SkySparkUnavailable
            except TimeoutError as exc:
                reason, failure = f"no answer within {self.timeout_s:g} s ({exc})", SkySparkTimeout
            except URLError as exc:
                if isinstance(exc.reason, ssl.SSLError):
                    raise SkySparkTLSError(
                        f"the TLS connection to SkySpark at {self.base_url} failed: {exc.reason}"
                    ) from None
                if isinstance(exc.reason, (TimeoutError, socket.timeout)):
                    reason, failure = f"no answer within {self.timeout_s:g} s", SkySparkTimeout
                else:
                    reason, failure = f"cannot connect: {exc.reason}", SkySparkUnavailable
            except ssl.SSLError as exc:
                raise SkySparkTLSError(f"the TLS connection to SkySpark at {self.base_url} failed: {exc}") from None
            except (ConnectionError, http.client.HTTPException, OSError) as exc:
                reason, failure = f"connection failed: {type(exc).__name__}: {exc}", SkySparkUnavailable
            except EncodingError as exc:
                raise SkySparkError(f"SkySpark sent data that could not be read: {exc}") from None
        raise failure(
            f"SkySpark at {self.base_url} is unavailable for {what}: {reason} (after {self.retries + 1} attempts)"
        )

    def _wait(self, seconds: float) -> bool:
        """Sleep between attempts; True when the run's cancel came meanwhile."""
        if self.interrupt is None:
            time.sleep(seconds)
            return False
        return self.interrupt.wait(seconds)

    def ping(self) -> None:
        """One `about` call, no retries: raises the `ExternalFailure` that a run would meet now (the daemon asks
        this while it waits out an outage, instead of running a job's model calls to find out)."""
        retries, self.retries = self.retries, 0
        try:
            self.about()
        finally:
            self.retries = retries

    # raw Haystack
    def about(self) -> dict:
        return dict(self._run("about", lambda s: s.about()))

    def read_all(self, filter_node: F.Node | str, limit: int | None = None) -> list[dict]:
        try:
            text = filter_node if isinstance(filter_node, str) else F.render(filter_node)
        except F.FilterError as exc:
            raise SkySparkError(f"cannot build the filter: {exc}") from None
        return [dict(r) for r in self._run(f"read {text}", lambda s: s.read_all(text, limit)).rows]

    def eval(self, expr: str) -> Grid:
        return self._run("eval", lambda s: s.eval(expr))

    def his_read(self, point_id: str, start: datetime, end: datetime, tz: ZoneInfo) -> list[tuple[datetime, Any]]:
        """(ts, value) for start <= ts < end; values are floats, bools or strings (Number units dropped)."""
        rng = DateTimeRange(start.astimezone(tz), end.astimezone(tz))
        grid = self._run(f"hisRead @{point_id}", lambda s: s.his_read_by_id(Ref(point_id), rng))
        out = []
        for row in grid.rows:
            ts, val = row.get("ts"), row.get("val")
            if not isinstance(ts, datetime) or val is None:
                continue
            out.append((ts.astimezone(tz), val))
        out.sort(key=lambda tv: tv[0].timestamp())  # by instant (one ZoneInfo compares by wall clock: DST)
        return out

    def lookup(self, marker: str, name: str, parent_tag: str | None = None, parent_id: str | None = None) -> list[dict]:
        """Records with an exact `dis` or `navName` (server-side; the name travels as a string literal)."""
        return self._read(named_filter, marker, name, parent_tag, parent_id)

    def _read(self, build: Callable[..., F.Node], *args: Any) -> list[dict]:
        try:
            node = build(*args)
        except F.FilterError as exc:
            raise SkySparkError(f"cannot build the filter: {exc}") from None
        return self.read_all(node)

    def close(self) -> None:
        if self._session is not None and self.auth != "none":
            try:
                self._session.close()
            except Exception:
                pass
        self._session = None

    # the plant
    def sites(self) -> list[Site]:
        out = []
        for rec in self._read(sites_filter):
            tz = rec.get("tz") if isinstance(rec.get("tz"), str) else "UTC"
            try:
                iana = zone(tz).key
            except EncodingError:
                iana = "UTC"
            city = rec.get("geoCity") if isinstance(rec.get("geoCity"), str) else ""
            out.append(Site(id=rec["id"].val, name=record_name(rec), tz=iana, city=city))
        return sorted(out, key=lambda s: s.name)

    def site(self, site_name: str) -> Site:
        return resolve_name(site_name, self.sites(), lambda s: [s.name], "site")

    def assets(self, site_name: str) -> list[Asset]:
        site = self.site(site_name)
        return self._assets(site)

    def _assets(self, site: Site) -> list[Asset]:
        recs = self._read(assets_filter, site.id)
        return [
            Asset(id=r["id"].val, name=record_name(r), site_name=site.name, types=markers(r), attrs=attributes(r))
            for r in recs
        ]

    def asset(self, site_name: str, asset_name: str) -> tuple[Site, Asset]:
        site = self.site(site_name)
        return site, resolve_name(asset_name, self._assets(site), lambda a: [a.name], "asset", f"at {site.name}")

    def sensors(self, site_name: str, asset_name: str) -> list[Sensor]:
        site, asset = self.asset(site_name, asset_name)
        return self._sensors(site, asset)

    def _sensors(self, site: Site, asset: Asset) -> list[Sensor]:
        return [_sensor(r, site, asset) for r in self._read(sensors_filter, asset.id)]

    def site_sensors(self, site: Site, assets: Sequence[Asset]) -> dict[str, list[Sensor]]:
        """Every point of a site in one read, by asset name (points without an equipRef of the site are left out)."""
        by_id = {a.id: a for a in assets}
        out: dict[str, list[Sensor]] = {a.name: [] for a in assets}
        for r in self._read(site_points_filter, site.id):
            ref = r.get("equipRef")
            asset = by_id.get(ref.val) if isinstance(ref, Ref) else None
            if asset is not None:
                out[asset.name].append(_sensor(r, site, asset))
        return out

    def sensor(self, site: Site, asset: Asset, sensor_name: str, sensors: list[Sensor] | None = None) -> Sensor:
        """A sensor by full name ("Chiller 6 Tonnage") or short name ("Tonnage")."""
        sensors = self._sensors(site, asset) if sensors is None else sensors
        return resolve_name(
            sensor_name, sensors, lambda s: [s.name, s.short_name], "sensor", f"on {asset.name} at {site.name}"
        )

    def history(
        self, site_name: str, asset_names: Sequence[str], sensor_name: str, start: datetime, end: datetime | None = None
    ) -> list[HistoryRow]:
        """Samples of one sensor on several assets, merged by time (ties in the order of `asset_names`).

        `end` None (or equal to `start`) is a point query: per asset the last sample at or before
        `start` (within `point_lookback_days`). Otherwise the interval start <= ts < end. Naive
        datetimes are site-local time.
        """
        site = self.site(site_name)
        tz = ZoneInfo(site.tz)
        start = start if start.tzinfo else start.replace(tzinfo=tz)  # naive = site-local time
        end = end if end is None or end.tzinfo else end.replace(tzinfo=tz)
        assets = self._assets(site)
        picked: list[tuple[Asset, Sensor]] = []
        for name in asset_names:
            asset = resolve_name(name, assets, lambda a: [a.name], "asset", f"at {site.name}")
            picked.append((asset, self._sensor_for(site, asset, sensor_name, asset_names)))
        rows: list[tuple[datetime, int, HistoryRow]] = []
        for index, (asset, sensor) in enumerate(picked):
            if end is None or end == start:  # at one time: the last sample at or before it
                samples = self.his_read(sensor.id, start - self.point_lookback, start + timedelta(seconds=1), tz)
                samples = [s for s in samples if s[0].timestamp() <= start.timestamp()][-1:]
            else:
                samples = self.his_read(sensor.id, start, end, tz)
            for ts, val in samples:
                rows.append((ts, index, _history_row(site, asset, sensor, ts, val)))
        rows.sort(key=lambda r: (r[0].timestamp(), r[1]))
        return [r[2] for r in rows]

    def _sensor_for(self, site: Site, asset: Asset, sensor_name: str, asset_names: Sequence[str]) -> Sensor:
        sensors = self._sensors(site, asset)
        try:
            return self.sensor(site, asset, sensor_name, sensors)
        except UnknownName:
            # "Chiller 6 Tonnage" asked of Chiller 9 as well: use the part after an asset's name.
            key = normalise(sensor_name)
            for other in list(asset_names) + [asset.name]:
                prefix = normalise(other)
                if key.startswith(prefix) and len(key) > len(prefix):
                    rest = sensor_name.strip()
                    m = re.match(r"(?i)" + r"[\s_]*".join(re.escape(ch) for ch in prefix), rest)
                    if m:
                        try:
                            return self.sensor(site, asset, rest[m.end() :].strip(" _"), sensors)
                        except UnknownName:
                            pass
            raise


def _sensor(r: dict, site: Site, asset: Asset) -> Sensor:
    name = record_name(r)
    short = r.get("navName") if isinstance(r.get("navName"), str) else name
    if short == name and name.startswith(asset.name + " "):
        short = name[len(asset.name) + 1 :]
    return Sensor(
        id=r["id"].val,
        name=name,
        short_name=short,
        site_name=site.name,
        asset_name=asset.name,
        unit=r.get("unit") if isinstance(r.get("unit"), str) else None,
        kind=r.get("kind") if isinstance(r.get("kind"), str) else None,
        tags=markers(r),
        description=next((v for k in ("description", "doc") if isinstance(v := r.get(k), str)), ""),
    )


def _history_row(site: Site, asset: Asset, sensor: Sensor, ts: datetime, val: Any) -> HistoryRow:
    # the point's declared unit: some servers rename units in hisRead (shaystack: tonref → refrigeration_ton)
    unit = sensor.unit
    if isinstance(val, Number):
        unit = unit or val.unit
        value: Any = val.val
    elif isinstance(val, (bool, str)):
        value = val
    else:
        value = None
    return HistoryRow(
        site_name=site.name,
        asset_name=asset.name,
        sensor_name=sensor.name,
        timestamp=ts.isoformat(),
        value=value,
        unit=unit,
    )
