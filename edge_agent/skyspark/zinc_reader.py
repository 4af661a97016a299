"""Zinc, read: `Scanner` reads Zinc values (shared by the grid reader, the filter parser and the Axon subset), and
`zinc_to_grid` a whole Zinc grid (Haystack 3 / 4). Writing Zinc, the literals a filter or an Axon expression may
hold, and timezone names are `skyspark.encoding`.
"""

from __future__ import annotations

import re
from datetime import date, datetime, time
from typing import Any
from zoneinfo import ZoneInfo

from phable.kinds import NA, Grid, GridCol, Marker, Number, Ref, Remove, Symbol, Uri

from edge_agent.skyspark.encoding import REF_RE, EncodingError, zone

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
