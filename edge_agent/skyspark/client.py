"""The SkySpark client the IoT tools and the benchmark checker use: sites, assets, sensors, histories.

Over phable 0.1.29: its SCRAM-SHA-256 exchange (`ScramScheme`), its `HaxallClient` methods
(`read_all`, `his_read_by_id`, `eval`) and its Zinc / Haystack-JSON codecs. Two things are our own:
the HTTP transport (phable's has no timeout; ours has one, reads error grids from 4xx/5xx bodies,
and re-authenticates once when a token has expired) and retries with backoff for timeouts and
transient failures. Every failure becomes a `SkySparkError` whose message is fit for the model.

Filters are built from `filters` AST nodes, so names and ids are always Haystack literals. Names
the model supplies are never sent to the server at all: they are resolved here against the lists
the server returned — exactly, then ignoring case, spaces and underscores, else an `UnknownName`
error that lists the closest names.
"""

from __future__ import annotations

import difflib
import http.client
import importlib.metadata
import re
import socket
import ssl
import threading
import time
import urllib.request
from collections.abc import Callable, Sequence
from datetime import datetime, timedelta
from typing import Any, TypeVar
from urllib.error import HTTPError, URLError
from zoneinfo import ZoneInfo

from phable import CallError, HaxallClient, UnknownRecError
from phable.auth.scram import AuthError, ScramScheme, ScramServerResponseParsingError, ScramServerSignatureNotEqualError
from phable.io.ph_codecs import PH_CODECS
from phable.kinds import DateTimeRange, Grid, GridCol, Marker, Number, Ref
from pydantic import BaseModel

from edge_agent.config import SkySparkSettings, resolve_secret
from edge_agent.failures import ExternalFailure, Interrupted
from edge_agent.observers import NO_OBSERVER, Observer, notify
from edge_agent.skyspark import filters as F
from edge_agent.skyspark.encoding import EncodingError, grid_to_zinc, zone

T = TypeVar("T")
EMPTY_GRID = Grid(meta={"ver": "3.0"}, cols=[GridCol("empty")], rows=[])
_TRANSIENT_HTTP = {408, 429, 500, 502, 503, 504}
READ_CHUNK = 65536  # a body is read in pieces: the timeout bounds the whole answer, and a cancel stops it


# ── errors ────────────────────────────────────────────────────────────────────


class SkySparkError(Exception):
    """Any SkySpark failure; the message is a sentence the model (and an operator) can act on."""


class SkySparkUnavailable(SkySparkError, ExternalFailure):
    """The server could not be reached or kept failing after the retries (`reason` skyspark_unavailable), or
    answered too slowly (skyspark_timeout). The run ends at once; the daemon waits it out."""

    reason = "skyspark_unavailable"


class SkySparkTimeout(SkySparkUnavailable):
    """No complete answer within the timeout, after the retries."""

    reason = "skyspark_timeout"


class SkySparkAuthError(SkySparkError, ExternalFailure):
    """The login was refused or could not be completed."""

    reason = "skyspark_auth"


class SkySparkTLSError(SkySparkError, ExternalFailure):
    """The TLS handshake or the server's certificate failed."""

    reason = "skyspark_tls"


class SkySparkConfigError(SkySparkError, ExternalFailure):
    """The server answered, but not as a Haystack API at the configured url, project and api_path."""

    reason = "skyspark_config"


class SkySparkCallError(SkySparkError):
    """The server answered with an error grid (bad filter, unknown id, …)."""


class UnknownName(SkySparkError):
    """A site, asset or sensor name matched nothing; `suggestions` are the closest existing names."""

    def __init__(self, msg: str, suggestions: list[str]):
        super().__init__(msg)
        self.suggestions = suggestions


# ── rows ──────────────────────────────────────────────────────────────────────


class Site(BaseModel):
    id: str
    name: str
    tz: str  # IANA name, e.g. America/New_York


class Asset(BaseModel):
    id: str
    name: str
    site_name: str
    types: list[str] = []  # every marker on the equip record that says what it is (chiller, ahu, crac, evCharger…)
    attrs: dict[str, str] = {}  # its other tags with a value (manufacturer, model, installDate…), as text


class Sensor(BaseModel):
    id: str
    name: str  # the full point name, e.g. "Chiller 6 Tonnage"
    short_name: str  # the navName, e.g. "Tonnage"
    site_name: str
    asset_name: str
    unit: str | None = None
    kind: str | None = None
    tags: list[str] = []  # the point's marker tags (temp, power, sp, sensor, air, discharge…)


class HistoryRow(BaseModel):
    """One sample; the histories tool writes these rows, and the benchmark compares them exactly."""

    site_name: str
    asset_name: str
    sensor_name: str
    timestamp: str  # ISO 8601 in the site's timezone, with its UTC offset
    value: float | bool | str | None
    unit: str | None = None


# ── name resolution ───────────────────────────────────────────────────────────


def normalise(name: str) -> str:
    return re.sub(r"[\s_]+", "", name).casefold()


def resolve_name(wanted: str, items: Sequence[T], names: Callable[[T], Sequence[str]], what: str, where: str = "") -> T:
    """The item whose name is `wanted`: exact, then case/space/underscore-insensitive; else UnknownName."""
    place = f" {where}" if where else ""
    if not isinstance(wanted, str) or not wanted.strip():
        raise UnknownName(f"the {what} name is empty", [])
    wanted = wanted.strip()
    for rank in range(max((len(names(i)) for i in items), default=0)):
        exact = [i for i in items if len(names(i)) > rank and names(i)[rank] == wanted]
        if len(exact) == 1:
            return exact[0]
    key = normalise(wanted)
    for rank in range(max((len(names(i)) for i in items), default=0)):
        loose = [i for i in items if len(names(i)) > rank and normalise(names(i)[rank]) == key]
        if len(loose) == 1:
            return loose[0]
        if len(loose) > 1:
            options = [names(i)[0] for i in loose]
            raise UnknownName(f"{what} {wanted!r}{place} is ambiguous: it could be {_quote(options)}", options)
    primary = [names(i)[0] for i in items]
    if not primary:
        raise UnknownName(f"there is no {what}{place}", [])
    by_key: dict[str, str] = {}
    for item in items:
        for n in names(item):
            by_key.setdefault(normalise(n), names(item)[0])
    close = difflib.get_close_matches(key, list(by_key), n=8, cutoff=0.6)
    suggestions = list(dict.fromkeys(by_key[c] for c in close))[:5]
    if suggestions:
        raise UnknownName(f"no {what} named {wanted!r}{place}; closest: {_quote(suggestions)}", suggestions)
    raise UnknownName(
        f"no {what} named {wanted!r}{place}; there are {len(primary)}, e.g. {_quote(primary[:5])}", primary[:5]
    )


def _quote(names: Sequence[str]) -> str:
    return ", ".join(f"'{n}'" for n in names)


#: markers every record of its type carries, which say nothing of what the thing is (Haystack's entity and
#: data-handling markers): an equip's kind is every other marker it carries, whatever the SkySpark calls it
STRUCTURAL_MARKERS = frozenset(
    {
        "equip",
        "point",
        "site",
        "his",
        "cur",
        "writable",
        "aux",
        "hisCollectCov",
        "hisCollectInterval",
        "hisTotalized",
        "disabled",
        "trash",
        "axAnnotated",
        "connDup",
        "defx",
        "ext",
        "proj",
        "space",
        "floor",
        "room",
        "virtual",
        "enum",
        "hisMode",
    }
)


def markers(rec: dict) -> list[str]:
    """The record's marker tags, less the structural ones, in the record's order."""
    return [k for k, v in rec.items() if isinstance(v, Marker) and k not in STRUCTURAL_MARKERS]


#: tags every record has that say nothing of the thing itself (its identity, references, bookkeeping)
_NOT_ATTRIBUTES = frozenset(
    {
        "id",
        "dis",
        "navName",
        "name",
        "siteRef",
        "equipRef",
        "spaceRef",
        "floorRef",
        "tz",
        "mod",
        "disMacro",
        "kind",
        "unit",
        "curVal",
        "curStatus",
        "hisSize",
        "hisStart",
        "hisEnd",
    }
)


def attributes(rec: dict) -> dict[str, str]:
    """The record's tags that hold a value (a string, a number, a date), as text: what a SkySpark records of an
    asset beyond its histories (a manufacturer, a model, an install date), where it records any."""
    out = {}
    for k, v in rec.items():
        if k in _NOT_ATTRIBUTES or k.endswith("Ref") or isinstance(v, (Marker, Ref, Grid, dict, list)) or v is None:
            continue
        out[k] = str(v.val) + (f" {v.unit}" if getattr(v, "unit", None) else "") if isinstance(v, Number) else str(v)
    return out


def record_name(rec: dict) -> str:
    for key in ("dis", "navName", "name"):
        if isinstance(rec.get(key), str) and rec[key]:
            return rec[key]
    ref = rec.get("id")
    if isinstance(ref, Ref):
        return ref.dis or ref.val
    return "?"


# ── the filters the client sends (values always as literals) ─────────────────


def sites_filter() -> F.Node:
    return F.has("site")


def assets_filter(site_id: str) -> F.Node:
    return F.and_(F.has("equip"), F.eq("siteRef", Ref(site_id)))


def sensors_filter(asset_id: str) -> F.Node:
    return F.and_(F.has("point"), F.eq("equipRef", Ref(asset_id)))


def site_points_filter(site_id: str) -> F.Node:
    return F.and_(F.has("point"), F.eq("siteRef", Ref(site_id)))


def named_filter(marker: str, name: str, parent_tag: str | None = None, parent_id: str | None = None) -> F.Node:
    """`<marker> and (dis == "<name>" or navName == "<name>") [and <parent_tag> == @<parent_id>]`."""
    terms: list[F.Node] = [F.has(marker), F.or_(F.eq("dis", name), F.eq("navName", name))]
    if parent_tag and parent_id:
        terms.append(F.eq(parent_tag, Ref(parent_id)))
    return F.and_(*terms)


# ── transport over phable ─────────────────────────────────────────────────────


class _Unauthorized(Exception):
    pass


def _user_agent() -> str:
    try:
        return f"edge-agent phable/{importlib.metadata.version('phable')}"
    except importlib.metadata.PackageNotFoundError:
        return "edge-agent"


class _Scram(ScramScheme):
    """phable's SCRAM exchange with a timeout, the real media type, and clear HTTP failures."""

    def __init__(self, uri: str, username: str, password: str, media_type: str, timeout: float):
        super().__init__(uri, username, password, media_type)
        self._timeout = timeout

    def _ph_scram_get(self, url, headers, context=None):
        req = urllib.request.Request(
            url, headers={**headers, "Content-Type": self._content_type, "User-Agent": _user_agent()}, method="GET"
        )
        try:
            with urllib.request.urlopen(req, timeout=self._timeout) as resp:
                resp.read()
                return resp.headers
        except HTTPError as exc:
            if exc.code == 403:
                raise AuthError("Unable to authenticate with the server using the credentials provided.") from None
            if exc.code == 401:
                return exc.headers
            raise


class _Session(HaxallClient):
    """A logged-in phable client whose `call` uses our transport (timeout, error grids, re-login)."""

    def __init__(
        self,
        uri: str,
        token: str,
        encoding: str,
        timeout: float,
        relogin: Callable[[], str],
        interrupt: threading.Event | None = None,
    ):
        super().__init__(uri, token, content_type=encoding)
        self._encoding = encoding
        self._timeout = timeout
        self._relogin = relogin
        self._interrupt = interrupt

    def call(self, path: str, data: Grid = EMPTY_GRID, method: str = "POST") -> Grid:
        try:
            return self._call_once(path, data, method)
        except _Unauthorized:
            self._auth_token = self._relogin()
        try:
            return self._call_once(path, data, method)
        except _Unauthorized:
            raise SkySparkAuthError("SkySpark refused the session even after logging in again") from None

    def _call_once(self, path: str, data: Grid, method: str) -> Grid:
        # Zinc requests are written by our encoder: phable 0.1.29's writes non-ASCII characters as "\u" plus
        # unpadded hex ("°" → "\ub0"), which no Zinc reader can decode, and ends with a blank line, which
        # shaystack refuses. Haystack JSON requests use phable's encoder (json.dumps escapes correctly).
        body = grid_to_zinc(data) if self._encoding == "zinc" else self._encoder(data)
        req = urllib.request.Request(
            f"{self.uri}/{path}",
            data=body.encode("utf-8"),
            method=method,
            headers={
                "Authorization": f"BEARER authToken={self._auth_token}",
                "Accept": self._content_type,
                "Content-Type": self._content_type,
                "User-Agent": _user_agent(),
            },
        )
        try:
            with urllib.request.urlopen(req, timeout=self._timeout) as resp:
                text = read_body(resp, self._timeout, self._interrupt).decode("utf-8")
        except HTTPError as exc:
            if exc.code in (401, 403):
                raise _Unauthorized() from None
            text = exc.read().decode("utf-8", "replace")
            grid = self._try_decode(text)
            if grid is not None and "err" in grid.meta:
                raise CallError(grid) from None
            raise
        grid = self._try_decode(text)
        if grid is None:
            raise SkySparkCallError(f"SkySpark sent a reply that is not a Haystack grid: {text[:120]!r}")
        if "err" in grid.meta:
            raise CallError(grid)
        return grid

    def _try_decode(self, text: str) -> Grid | None:
        try:
            value = self._decoder(text)
        except Exception:
            return None
        if isinstance(value, dict):
            value = Grid.to_grid(rows=value)
        return value if isinstance(value, Grid) else None


def read_body(resp, timeout: float, interrupt: threading.Event | None = None) -> bytes:
    """A response's body, whole within `timeout` seconds of the first byte asked for: the socket's own timeout
    bounds each read only, so a server that trickles a large answer would otherwise hold a run forever. A set
    `interrupt` (the request's cancel) stops it between pieces (`Interrupted`)."""
    deadline = time.monotonic() + timeout
    parts: list[bytes] = []
    while True:
        if interrupt is not None and interrupt.is_set():
            raise Interrupted()
        if time.monotonic() > deadline:
            raise TimeoutError(f"the answer did not arrive whole within {timeout:g} s")
        part = resp.read1(READ_CHUNK)
        if not part:
            return b"".join(parts)
        parts.append(part)


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
        self._session: _Session | None = None

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
        scram = _Scram(self.uri, self.username, self._password, PH_CODECS[self.encoding].media_type, self.timeout_s)
        try:
            return scram.get_auth_token()
        except AuthError:
            raise SkySparkAuthError(
                f"SkySpark at {self.base_url} refused the login of user {self.username!r}: "
                "check the username and password"
            ) from None
        except (ScramServerResponseParsingError, ScramServerSignatureNotEqualError) as exc:
            raise SkySparkAuthError(f"the SkySpark login (SCRAM) with {self.uri} failed: {exc.help_msg}") from None

    def _connect(self) -> _Session:
        return _Session(self.uri, self._login(), self.encoding, self.timeout_s, self._login, self.interrupt)

    def _run(self, what: str, fn: Callable[[_Session], T]) -> T:
        """One Haystack operation (`_attempts`), timed and told to the observer, failed or not."""
        started = time.perf_counter()
        try:
            out = self._attempts(what, fn)
        except Exception as exc:
            notify(self.observer.skyspark_call, what, time.perf_counter() - started, exc)
            raise
        notify(self.observer.skyspark_call, what, time.perf_counter() - started, None)
        return out

    def _attempts(self, what: str, fn: Callable[[_Session], T]) -> T:
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
            out.append(Site(id=rec["id"].val, name=record_name(rec), tz=iana))
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
