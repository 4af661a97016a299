"""Haystack value encodings: Zinc scalars and grids, and timezone names (Haystack JSON: `skyspark.haystack_json`).

This module is the only way a value enters a filter or an Axon expression: `encode_str`,
`encode_ref` and `encode_scalar` produce literals (quoted and escaped, or refused), never raw
text. Values are phable's kinds (`Ref`, `Number`, `Marker`, …) plus Python `str`, `bool`,
`date`, `time`, `datetime` and `None`. The simulator uses these codecs to read requests and
write responses; the client decodes with phable's own codecs, so the two sides are independent.
"""

from __future__ import annotations

import math
import re
from datetime import date, datetime, time, tzinfo
from functools import lru_cache
from typing import Any
from zoneinfo import ZoneInfo, available_timezones

from phable.kinds import NA, Grid, GridCol, Marker, Number, Ref, Remove, Symbol, Uri


class EncodingError(ValueError):
    """A value cannot be encoded, or text is not valid Zinc / Haystack JSON."""


# ── timezones ──────────────────────────────────────────────────────────────────


def haystack_tz_name(tz: tzinfo | str) -> str:
    """Haystack names a timezone by its city: America/New_York → New_York; UTC → UTC."""
    name = tz if isinstance(tz, str) else str(getattr(tz, "key", tz))
    if name in ("UTC", "Etc/UTC", "Z"):
        return "UTC"
    return name.split("/")[-1]


@lru_cache(maxsize=1)
def _tz_table() -> dict[str, str]:
    table: dict[str, str] = {}
    for full in sorted(available_timezones(), key=lambda n: (n.count("/"), n)):
        if full.startswith(("posix/", "right/")) or "/" not in full:
            continue
        table.setdefault(haystack_tz_name(full), full)
    table["UTC"] = "UTC"
    return table


@lru_cache(maxsize=256)
def zone(name: str) -> ZoneInfo:
    """ZoneInfo for a Haystack city name ("New_York") or an IANA name ("America/New_York")."""
    if "/" in name:
        try:
            return ZoneInfo(name)
        except Exception:
            raise EncodingError(f"unknown timezone {name!r}") from None
    full = _tz_table().get(name)
    if full is None:
        raise EncodingError(f"unknown timezone {name!r}")
    return ZoneInfo(full)


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


# ── Zinc: reading ──────────────────────────────────────────────────────────────

_DATETIME_RE = re.compile(
    r"(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?)(Z|[+-]\d{2}:\d{2})(?: ([A-Z][A-Za-z0-9_+\-/]*))?"
)
_DATE_RE = re.compile(r"\d{4}-\d{2}-\d{2}(?![\dT:])")
_TIME_RE = re.compile(r"\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?")
_NUMBER_RE = re.compile(r"-?\d[\d_]*(?:\.\d[\d_]*)?(?:[eE][+-]?\d+)?")
_UNIT_RE = re.compile(r"[A-Za-z%_/$\u0080-\U0010ffff]+")
_SIMPLE_ESC = {
    "b": "\b",
    "f": "\f",
    "n": "\n",
    "r": "\r",
    "t": "\t",
    '"': '"',
    "\\": "\\",
    "$": "$",
    "`": "`",
    "'": "'",
}  # \' is not Zinc, but phable writes it


class Scanner:
    """Reads Zinc values from `text` starting at `pos` (shared by the grid reader and the filter parser)."""

    def __init__(self, text: str, pos: int = 0):
        self.text = text
        self.pos = pos

    def error(self, msg: str) -> EncodingError:
        return EncodingError(f"{msg} at position {self.pos}")

    def peek(self, n: int = 1) -> str:
        return self.text[self.pos : self.pos + n]

    def eof(self) -> bool:
        return self.pos >= len(self.text)

    def skip_spaces(self) -> None:
        while self.pos < len(self.text) and self.text[self.pos] in " \t":
            self.pos += 1

    def name(self) -> str:
        m = re.compile(r"[A-Za-z_][A-Za-z0-9_]*").match(self.text, self.pos)
        if not m:
            raise self.error("expected a name")
        self.pos = m.end()
        return m.group(0)

    def quoted(self, quote: str) -> str:
        assert self.text[self.pos] == quote
        self.pos += 1
        out: list[str] = []
        while True:
            if self.pos >= len(self.text):
                raise self.error("unterminated literal")
            ch = self.text[self.pos]
            if ch == quote:
                self.pos += 1
                return "".join(out)
            if ch == "\n":
                raise self.error("newline inside a literal")
            if ch == "\\":
                nxt = self.text[self.pos + 1 : self.pos + 2]
                if nxt == "u":
                    hexa = self.text[self.pos + 2 : self.pos + 6]
                    if not re.fullmatch(r"[0-9a-fA-F]{4}", hexa):
                        raise self.error("bad \\u escape")
                    out.append(chr(int(hexa, 16)))
                    self.pos += 6
                    continue
                if nxt in _SIMPLE_ESC:
                    out.append(_SIMPLE_ESC[nxt])
                    self.pos += 2
                    continue
                if quote == "`":  # uris keep unknown escapes as written
                    out.append(ch + nxt)
                    self.pos += 2
                    continue
                raise self.error(f"bad escape \\{nxt}")
            out.append(ch)
            self.pos += 1

    def literal(self, filter_mode: bool = False) -> Any:
        """One scalar literal (filter mode: no N/M/NA/R, booleans are true/false, refs carry no dis)."""
        start = self.pos
        try:
            return self._literal(filter_mode)
        except (ValueError, OverflowError) as exc:
            if isinstance(exc, EncodingError):
                raise
            self.pos = start
            raise self.error(f"invalid value: {exc}") from None

    def _literal(self, filter_mode: bool) -> Any:
        text, pos = self.text, self.pos
        if pos >= len(text):
            raise self.error("expected a value")
        ch = text[pos]
        if ch == '"':
            return self.quoted('"')
        if ch == "`":
            return Uri(self.quoted("`"))
        if ch == "@":
            m = REF_RE.match(text, pos + 1)
            if not m:
                raise self.error("bad ref")
            self.pos = m.end()
            dis = None
            if not filter_mode and text[self.pos : self.pos + 2] == ' "':
                self.pos += 1
                dis = self.quoted('"')
            return Ref(m.group(0), dis)
        if ch == "^":
            m = re.compile(r"[A-Za-z][A-Za-z0-9_:\-.~]*").match(text, pos + 1)
            if not m:
                raise self.error("bad symbol")
            self.pos = m.end()
            return Symbol(m.group(0))
        m = _DATETIME_RE.match(text, pos)
        if m:
            self.pos = m.end()
            local, offset, tzname = m.groups()
            value = datetime.fromisoformat(local + ("+00:00" if offset == "Z" else offset))
            if tzname:
                value = value.astimezone(zone(tzname))
            elif offset == "Z":
                value = value.astimezone(ZoneInfo("UTC"))
            return value
        m = _DATE_RE.match(text, pos)
        if m:
            self.pos = m.end()
            return date.fromisoformat(m.group(0))
        m = _TIME_RE.match(text, pos)
        if m and text[pos + 2 : pos + 3] == ":":
            self.pos = m.end()
            return time.fromisoformat(m.group(0))
        for word, val in (
            ("-INF", Number(float("-inf"))),
            ("INF", Number(float("inf"))),
            ("NaN", Number(float("nan"))),
        ):
            if text.startswith(word, pos) and not re.match(
                r"[A-Za-z0-9_]", text[pos + len(word) : pos + len(word) + 1]
            ):
                self.pos = pos + len(word)
                return val
        m = _NUMBER_RE.match(text, pos)
        if m:
            self.pos = m.end()
            num = float(m.group(0).replace("_", ""))
            u = _UNIT_RE.match(text, self.pos)
            unit = None
            if u:
                unit = u.group(0)
                self.pos = u.end()
            return Number(num, unit)
        m = re.compile(r"[A-Za-z]+").match(text, pos)
        word = m.group(0) if m else ""
        keywords = (
            {"true": True, "false": False}
            if filter_mode
            else {"T": True, "F": False, "N": None, "M": Marker(), "NA": NA(), "R": Remove()}
        )
        if m and word in keywords:
            self.pos = m.end()
            return keywords[word]
        if not filter_mode and ch == "[":
            return self._list()
        if not filter_mode and ch == "{":
            return self._dict("}")
        raise self.error(f"expected a value, found {text[pos : pos + 12]!r}")

    def _list(self) -> list[Any]:
        self.pos += 1
        items: list[Any] = []
        while True:
            self.skip_spaces()
            if self.peek() == "]":
                self.pos += 1
                return items
            items.append(self.literal())
            self.skip_spaces()
            if self.peek() == ",":
                self.pos += 1
            elif self.peek() != "]":
                raise self.error("expected ',' or ']'")

    def _dict(self, close: str) -> dict:
        self.pos += 1
        tags = self.tags(stop=close)
        if self.peek() != close:
            raise self.error(f"expected {close!r}")
        self.pos += 1
        return tags

    def tags(self, stop: str = "\n") -> dict:
        """`name` or `name:value` pairs separated by spaces (grid/column meta, dicts)."""
        out: dict = {}
        while True:
            self.skip_spaces()
            if self.eof() or self.peek() in (stop, ",", "\n"):
                return out
            name = self.name()
            if self.peek() == ":":
                self.pos += 1
                out[name] = self.literal()
            else:
                out[name] = Marker()


def zinc_to_grid(text: str) -> Grid:
    """Parse a Zinc grid (Haystack 3 / 4)."""
    text = text.replace("\r\n", "\n")
    sc = Scanner(text)
    while sc.peek() == "\n":
        sc.pos += 1
    if not text.startswith("ver:", sc.pos):
        raise sc.error("a Zinc grid starts with ver:")
    meta = sc.tags()
    if sc.peek() != "\n":
        raise sc.error("expected the end of the grid meta line")
    sc.pos += 1
    cols: list[GridCol] = []
    while True:
        sc.skip_spaces()
        name = sc.name()
        cmeta = sc.tags(stop=",")
        cols.append(GridCol(name, cmeta or None))
        if sc.peek() == ",":
            sc.pos += 1
            continue
        break
    if not sc.eof() and sc.peek() != "\n":
        raise sc.error("expected the end of the column line")
    sc.pos += 1
    rows = []
    names = [c.name for c in cols]
    while not sc.eof():
        if sc.peek() == "\n":
            sc.pos += 1
            continue
        row: dict = {}
        for i, name in enumerate(names):
            sc.skip_spaces()
            if sc.peek() not in (",", "\n", ""):
                val = sc.literal()
                if val is not None:
                    row[name] = val
            sc.skip_spaces()
            if i < len(names) - 1:
                if sc.peek() != ",":
                    raise sc.error(f"row has too few cells (expected {len(names)})")
                sc.pos += 1
        if sc.peek() not in ("\n", ""):
            raise sc.error("row has too many cells")
        rows.append(row)
    if names == ["empty"]:
        cols, rows = [], []
    return Grid(meta=meta, cols=cols, rows=rows)


def make_grid(rows: list[dict], meta: dict | None = None, cols: list[str] | None = None) -> Grid:
    """A grid whose columns are the union of the rows' keys (in first-seen order), or `cols`."""
    if cols is None:
        cols = []
        for row in rows:
            for key in row:
                if key not in cols:
                    cols.append(key)
    return Grid(meta={"ver": "3.0", **(meta or {})}, cols=[GridCol(c) for c in cols], rows=rows)
