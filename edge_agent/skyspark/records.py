"""The SkySpark's records as the client reads them: the rows it returns (`Site`, `Asset`, `Sensor`, `HistoryRow`),
a name the model supplies resolved against the lists the server returned (`resolve_name`: exactly, then ignoring
case, spaces and underscores, else `UnknownName` listing the closest), what a record says of its thing (its kind
`markers`, its `attributes`, its `record_name`), and the filters the client sends, built from `filters` AST nodes
so names and ids are always Haystack literals.
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Callable, Sequence
from typing import TypeVar

from phable.kinds import Grid, Marker, Number, Ref
from pydantic import BaseModel

from edge_agent.skyspark import filters as F
from edge_agent.skyspark.errors import UnknownName

T = TypeVar("T")


class Site(BaseModel):
    id: str
    name: str
    tz: str  # IANA name, e.g. America/New_York
    city: str = ""  # its `geoCity` (Haystack), where the record has one: an operator may name the site by it


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
    description: str = ""  # the point's free text (`description`, or Haystack's `doc`): a signed series' convention


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
