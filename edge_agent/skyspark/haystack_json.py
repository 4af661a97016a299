"""Haystack JSON (version 4) grids and values: `grid_to_json` / `json_to_grid` and the value codecs under them.

Values are phable's kinds plus Python's scalars, as in `skyspark.encoding` (Zinc), whose `EncodingError` a bad
document raises. The simulator reads and writes it when a request asks for `application/json`; the client
decodes with phable's own codec, so the two sides stay independent.
"""

from __future__ import annotations

import json
import math
from datetime import date, datetime, time
from typing import Any

from phable.kinds import NA, Grid, GridCol, Marker, Number, Ref, Remove, Symbol, Uri

from edge_agent.skyspark.encoding import EncodingError, haystack_tz_name, zone


def _json_float(val: float) -> Any:
    if math.isnan(val):
        return "NaN"
    if math.isinf(val):
        return "INF" if val > 0 else "-INF"
    return int(val) if val == int(val) and abs(val) < 1e15 else val


def to_json_value(value: Any) -> Any:
    if value is None or isinstance(value, (bool, str)):
        return value
    if isinstance(value, Number):
        v = _json_float(float(value.val))
        if value.unit is None and not isinstance(v, str):
            return v
        out = {"_kind": "number", "val": v}
        if value.unit:
            out["unit"] = value.unit
        return out
    if isinstance(value, (int, float)):
        v = _json_float(float(value))
        return {"_kind": "number", "val": v} if isinstance(v, str) else v
    if isinstance(value, Marker):
        return {"_kind": "marker"}
    if isinstance(value, NA):
        return {"_kind": "na"}
    if isinstance(value, Remove):
        return {"_kind": "remove"}
    if isinstance(value, Ref):
        out = {"_kind": "ref", "val": value.val}
        if value.dis is not None:
            out["dis"] = value.dis
        return out
    if isinstance(value, datetime):
        if value.tzinfo is None:
            raise EncodingError("a Haystack dateTime needs a timezone")
        return {"_kind": "dateTime", "val": value.isoformat(), "tz": haystack_tz_name(value.tzinfo)}
    if isinstance(value, date):
        return {"_kind": "date", "val": value.isoformat()}
    if isinstance(value, time):
        return {"_kind": "time", "val": value.isoformat()}
    if isinstance(value, Uri):
        return {"_kind": "uri", "val": value.val}
    if isinstance(value, Symbol):
        return {"_kind": "symbol", "val": value.val}
    if isinstance(value, list):
        return [to_json_value(v) for v in value]
    if isinstance(value, dict):
        return {k: to_json_value(v) for k, v in value.items()}
    if isinstance(value, Grid):
        return grid_to_json_obj(value)
    raise EncodingError(f"cannot encode {type(value).__name__} as Haystack JSON")


def grid_to_json_obj(grid: Grid) -> dict:
    cols = list(grid.cols) or [GridCol("empty")]
    return {
        "_kind": "grid",
        "meta": {"ver": "3.0", **{k: to_json_value(v) for k, v in grid.meta.items() if k != "ver"}},
        "cols": [{"name": c.name, **({"meta": to_json_value(c.meta)} if c.meta else {})} for c in cols],
        "rows": [{k: to_json_value(v) for k, v in row.items() if v is not None} for row in grid.rows],
    }


def grid_to_json(grid: Grid) -> str:
    return json.dumps(grid_to_json_obj(grid), ensure_ascii=False, separators=(",", ":"))


def from_json_value(value: Any) -> Any:
    if value is None or isinstance(value, (bool, str)):
        return value
    if isinstance(value, (int, float)):
        return Number(float(value))
    if isinstance(value, list):
        return [from_json_value(v) for v in value]
    if not isinstance(value, dict):
        raise EncodingError(f"unexpected JSON value {value!r}")
    kind = value.get("_kind")
    try:
        if kind is None or kind == "dict":
            return {k: from_json_value(v) for k, v in value.items() if k != "_kind"}
        if kind == "number":
            return Number(float(value["val"]), value.get("unit"))
        if kind == "marker":
            return Marker()
        if kind == "na":
            return NA()
        if kind == "remove":
            return Remove()
        if kind == "ref":
            return Ref(value["val"], value.get("dis"))
        if kind == "date":
            return date.fromisoformat(value["val"])
        if kind == "time":
            return time.fromisoformat(value["val"])
        if kind == "dateTime":
            dt = datetime.fromisoformat(value["val"].replace("Z", "+00:00"))
            return dt.astimezone(zone(value.get("tz", "UTC")))
        if kind == "uri":
            return Uri(value["val"])
        if kind == "symbol":
            return Symbol(value["val"])
        if kind == "grid":
            return json_obj_to_grid(value)
    except (KeyError, TypeError, ValueError) as exc:
        raise EncodingError(f"bad Haystack JSON {kind} value: {exc}") from None
    raise EncodingError(f"unsupported Haystack JSON kind {kind!r}")


def json_obj_to_grid(obj: dict) -> Grid:
    if not isinstance(obj, dict) or not isinstance(obj.get("cols"), list):
        raise EncodingError("a Haystack JSON grid needs meta, cols and rows")
    meta = from_json_value(obj.get("meta") or {})
    cols = [GridCol(c["name"], from_json_value(c["meta"]) if c.get("meta") else None) for c in obj["cols"]]
    rows = [from_json_value(r) for r in obj.get("rows") or []]
    if [c.name for c in cols] == ["empty"]:
        cols, rows = [], []
    return Grid(meta=meta, cols=cols, rows=rows)


def json_to_grid(text: str) -> Grid:
    try:
        obj = json.loads(text)
    except json.JSONDecodeError as exc:
        raise EncodingError(f"not valid JSON: {exc.msg}") from None
    return json_obj_to_grid(obj)
