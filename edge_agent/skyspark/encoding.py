"""Haystack value encodings: Zinc scalars and grids written, and timezone names (reading Zinc: `skyspark.zinc_reader`;
Haystack JSON: `skyspark.haystack_json`).

This module is the only way a value enters a filter or an Axon expression: `encode_str`,
`encode_ref` and `encode_scalar` produce literals (quoted and escaped, or refused), never raw
text. Values are phable's kinds (`Ref`, `Number`, `Marker`, …) plus Python `str`, `bool`,
`date`, `time`, `datetime` and `None`. The simulator uses these codecs (and `zinc_reader`) to read requests and
write responses; the client decodes with phable's own codecs, so the two sides are independent.
"""

from __future__ import annotations

import math
import re
from datetime import date, datetime, time
from functools import lru_cache
from typing import Any
from zoneinfo import ZoneInfo

from phable.kinds import NA, Grid, GridCol, Marker, Number, Ref, Remove, Symbol, Uri

from edge_agent.clock import haystack_tz_name, zone_named


class EncodingError(ValueError):
    """A value cannot be encoded, or text is not valid Zinc / Haystack JSON."""


# ── timezones ──────────────────────────────────────────────────────────────────


@lru_cache(maxsize=256)
def zone(name: str) -> ZoneInfo:
    """ZoneInfo for a Haystack city name ("New_York") or an IANA name ("America/New_York")."""
    try:
        return zone_named(name)
    except KeyError:
        raise EncodingError(f"unknown timezone {name!r}") from None


# ── Zinc: writing ──────────────────────────────────────────────────────────────

REF_RE = re.compile(r"[A-Za-z0-9_:\-.~]+")
TAG_RE = re.compile(r"[a-z][A-Za-z0-9_]*")
_STR_ESCAPES = {"\\": "\\\\", '"': '\\"', "\n": "\\n", "\r": "\\r", "\t": "\\t", "\b": "\\b", "\f": "\\f", "$": "\\$"}


def encode_str(text: str) -> str:
    """A Zinc / filter / Axon string literal: quoted, with every special character escaped."""
    if not isinstance(text, str):
        raise EncodingError(f"expected a string, got {type(text).__name__}")
    out = []
    for ch in text:
        if ch in _STR_ESCAPES:
            out.append(_STR_ESCAPES[ch])
        elif ord(ch) < 0x20 or ord(ch) == 0x7F or 0xD800 <= ord(ch) <= 0xDFFF:
            out.append(f"\\u{ord(ch):04x}")
        else:
            out.append(ch)
    return '"' + "".join(out) + '"'


def encode_ref(ref: Ref | str, with_dis: bool = False) -> str:
    """`@id` for a ref; refuses any id with characters a Haystack ref cannot hold."""
    val = ref.val if isinstance(ref, Ref) else ref
    if not isinstance(val, str) or not REF_RE.fullmatch(val):
        raise EncodingError(f"not a valid Haystack ref id: {val!r}")
    out = "@" + val
    if with_dis and isinstance(ref, Ref) and ref.dis is not None:
        out += " " + encode_str(ref.dis)
    return out


def _encode_float(val: float) -> str:
    if math.isnan(val):
        return "NaN"
    if math.isinf(val):
        return "INF" if val > 0 else "-INF"
    if val == int(val) and abs(val) < 1e15:
        return str(int(val))
    return repr(float(val))


def encode_number(num: Number | float | int) -> str:
    if isinstance(num, Number):
        text = _encode_float(float(num.val))
        if num.unit:
            if text in ("NaN", "INF", "-INF"):
                return text
            if re.search(r"[^A-Za-z%_/$\u0080-\U0010ffff]", num.unit):
                raise EncodingError(f"unit {num.unit!r} cannot be written in Zinc")
            text += num.unit
        return text
    return _encode_float(float(num))


def encode_datetime(value: datetime) -> str:
    if value.tzinfo is None:
        raise EncodingError("a Haystack dateTime needs a timezone")
    name = haystack_tz_name(value.tzinfo)
    text = value.isoformat(timespec="milliseconds" if value.microsecond else "seconds")
    if name == "UTC":
        return text.replace("+00:00", "Z") + " UTC"
    return f"{text} {name}"


def encode_scalar(value: Any, *, filter_mode: bool = False) -> str:
    """A Zinc scalar; with `filter_mode`, booleans are `true`/`false` as the filter grammar wants."""
    if value is None:
        if filter_mode:
            raise EncodingError("null cannot appear in a filter")
        return "N"
    if value is True:
        return "true" if filter_mode else "T"
    if value is False:
        return "false" if filter_mode else "F"
    if isinstance(value, str):
        return encode_str(value)
    if isinstance(value, Ref):
        return encode_ref(value, with_dis=not filter_mode)
    if isinstance(value, (Number, int, float)):
        return encode_number(value)
    if isinstance(value, datetime):
        return encode_datetime(value)
    if isinstance(value, date):
        return value.isoformat()
    if isinstance(value, time):
        return value.isoformat()
    if isinstance(value, Uri):
        return "`" + value.val.replace("\\", "\\\\").replace("`", "\\`") + "`"
    if isinstance(value, Symbol):
        if not re.fullmatch(r"[A-Za-z][A-Za-z0-9_:\-.~]*", value.val):
            raise EncodingError(f"not a valid symbol: {value.val!r}")
        return "^" + value.val
    if filter_mode:
        raise EncodingError(f"a {type(value).__name__} cannot appear in a filter")
    if isinstance(value, Marker):
        return "M"
    if isinstance(value, NA):
        return "NA"
    if isinstance(value, Remove):
        return "R"
    if isinstance(value, list):
        return "[" + ",".join(encode_scalar(v) for v in value) + "]"
    if isinstance(value, dict):
        return "{" + _encode_tags(value) + "}"
    raise EncodingError(f"cannot encode {type(value).__name__} in Zinc")


def _encode_tags(tags: dict) -> str:
    parts = []
    for name, val in tags.items():
        if not TAG_RE.fullmatch(name) and name not in ("ver",):
            raise EncodingError(f"not a valid tag name: {name!r}")
        parts.append(name if isinstance(val, Marker) else f"{name}:{encode_scalar(val)}")
    return " ".join(parts)


def grid_to_zinc(grid: Grid) -> str:
    meta = {k: v for k, v in grid.meta.items() if k != "ver"}
    head = 'ver:"3.0"' + (" " + _encode_tags(meta) if meta else "")
    cols = list(grid.cols) or [GridCol("empty")]
    names = [c.name for c in cols]
    lines = [head, ",".join(c.name + (" " + _encode_tags(c.meta) if c.meta else "") for c in cols)]
    for row in grid.rows:
        cells = [row.get(n) for n in names]
        if len(names) == 1:
            lines.append(encode_scalar(cells[0]))
        else:
            lines.append(",".join("" if v is None else encode_scalar(v) for v in cells))
    return "\n".join(lines) + "\n"


def make_grid(rows: list[dict], meta: dict | None = None, cols: list[str] | None = None) -> Grid:
    """A grid whose columns are the union of the rows' keys (in first-seen order), or `cols`."""
    if cols is None:
        cols = []
        for row in rows:
            for key in row:
                if key not in cols:
                    cols.append(key)
    return Grid(meta={"ver": "3.0", **(meta or {})}, cols=[GridCol(c) for c in cols], rows=rows)
