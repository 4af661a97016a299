"""The Haystack filter language: parse text to an AST, render an AST to text, evaluate it on records.

Grammar (Project Haystack "Filters"):

    filter  := or
    or      := and ("or" and)*
    and     := term ("and" term)*
    term    := "(" filter ")" | "not" path | path cmpOp val | path
    path    := name ("->" name)*
    cmpOp   := "==" | "!=" | "<" | "<=" | ">" | ">="
    val     := bool | ref | str | uri | number | date | time | dateTime | symbol

The client builds every filter from AST nodes (`has`, `missing`, `eq`, `and_`, …), so a value the
model supplied is rendered through `encoding.encode_scalar` as a literal and can never change the
filter's structure.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from datetime import date, datetime, time
from typing import Any

from phable.kinds import Number, Ref, Symbol, Uri

from edge_agent.skyspark.encoding import EncodingError, encode_scalar
from edge_agent.skyspark.zinc_reader import Scanner


class FilterError(ValueError):
    """Text that is not a valid Haystack filter; the message says where."""


Path = tuple[str, ...]


@dataclass(frozen=True)
class Has:
    """`tag`: the record has the tag."""

    path: Path


@dataclass(frozen=True)
class HasNot:
    """`not tag`: the record lacks the tag (Haystack calls it "missing")."""

    path: Path


@dataclass(frozen=True)
class Cmp:
    path: Path
    op: str
    val: Any


@dataclass(frozen=True)
class And:
    terms: tuple[Node, ...]


@dataclass(frozen=True)
class Or:
    terms: tuple[Node, ...]


Node = Has | HasNot | Cmp | And | Or
OPS = ("==", "!=", "<=", ">=", "<", ">")
KEYWORDS = {"and", "or", "not"}
_NAME_RE = re.compile(r"[a-z_][A-Za-z0-9_]*")


# ── building (the only way the client makes filters) ──────────────────────────


def _path(path: str | Path) -> Path:
    parts = tuple(path.split("->")) if isinstance(path, str) else tuple(path)
    for p in parts:
        if not _NAME_RE.fullmatch(p) or p in KEYWORDS:
            raise FilterError(f"not a valid tag name: {p!r}")
    return parts


def has(path: str | Path) -> Has:
    return Has(_path(path))


def missing(path: str | Path) -> HasNot:
    return HasNot(_path(path))


def cmp(path: str | Path, op: str, val: Any) -> Cmp:
    if op not in OPS:
        raise FilterError(f"unknown comparison {op!r}")
    try:
        encode_scalar(val, filter_mode=True)  # refuses what cannot be a literal
    except EncodingError as exc:
        raise FilterError(str(exc)) from None
    return Cmp(_path(path), op, val)


def eq(path: str | Path, val: Any) -> Cmp:
    return cmp(path, "==", val)


def and_(*terms: Node) -> Node:
    return terms[0] if len(terms) == 1 else And(tuple(terms))


def or_(*terms: Node) -> Node:
    return terms[0] if len(terms) == 1 else Or(tuple(terms))


# ── rendering ──────────────────────────────────────────────────────────────────


def render(node: Node) -> str:
    """Filter text for a node; values are literals from `encode_scalar`, composites are parenthesised."""
    if isinstance(node, Has):
        return "->".join(node.path)
    if isinstance(node, HasNot):
        return "not " + "->".join(node.path)
    if isinstance(node, Cmp):
        try:
            lit = encode_scalar(node.val, filter_mode=True)
        except EncodingError as exc:
            raise FilterError(str(exc)) from None
        return f"{'->'.join(node.path)} {node.op} {lit}"
    if isinstance(node, (And, Or)):
        word = " and " if isinstance(node, And) else " or "
        return word.join(f"({render(t)})" if isinstance(t, (And, Or)) else render(t) for t in node.terms)
    raise FilterError(f"not a filter node: {node!r}")


# ── parsing ────────────────────────────────────────────────────────────────────


class _Parser:
    def __init__(self, text: str):
        self.sc = Scanner(text)
        self.text = text

    def fail(self, msg: str) -> FilterError:
        return FilterError(f"bad filter {self.text!r}: {msg} at position {self.sc.pos}")

    def ws(self) -> None:
        while not self.sc.eof() and self.sc.peek() in " \t\r\n":
            self.sc.pos += 1

    def word(self) -> str | None:
        self.ws()
        m = re.compile(r"[A-Za-z_][A-Za-z0-9_]*").match(self.text, self.sc.pos)
        return m.group(0) if m else None

    def take_keyword(self, kw: str) -> bool:
        if self.word() == kw:
            self.sc.pos += len(kw)
            return True
        return False

    def parse(self) -> Node:
        self.ws()
        if self.sc.eof():
            raise self.fail("empty filter")
        node = self.or_()
        self.ws()
        if not self.sc.eof():
            raise self.fail(f"unexpected {self.text[self.sc.pos : self.sc.pos + 10]!r}")
        return node

    def or_(self) -> Node:
        terms = [self.and_()]
        while self.take_keyword("or"):
            terms.append(self.and_())
        return terms[0] if len(terms) == 1 else Or(tuple(terms))

    def and_(self) -> Node:
        terms = [self.term()]
        while self.take_keyword("and"):
            terms.append(self.term())
        return terms[0] if len(terms) == 1 else And(tuple(terms))

    def term(self) -> Node:
        self.ws()
        if self.sc.peek() == "(":
            self.sc.pos += 1
            node = self.or_()
            self.ws()
            if self.sc.peek() != ")":
                raise self.fail("expected ')'")
            self.sc.pos += 1
            return node
        if self.take_keyword("not"):
            return HasNot(self.path())
        path = self.path()
        self.ws()
        for op in OPS:
            if self.text.startswith(op, self.sc.pos):
                self.sc.pos += len(op)
                self.ws()
                try:
                    val = self.sc.literal(filter_mode=True)
                except EncodingError as exc:
                    raise self.fail(str(exc).rsplit(" at position", 1)[0]) from None
                return Cmp(path, op, val)
        return Has(path)

    def path(self) -> Path:
        names = [self.name()]
        while self.text.startswith("->", self.sc.pos):
            self.sc.pos += 2
            names.append(self.name())
        return tuple(names)

    def name(self) -> str:
        self.ws()
        m = _NAME_RE.match(self.text, self.sc.pos)
        if not m or m.group(0) in KEYWORDS:
            raise self.fail("expected a tag name")
        self.sc.pos = m.end()
        return m.group(0)


def parse(text: str) -> Node:
    """Parse filter text into an AST; raises FilterError with the position of the problem."""
    if not isinstance(text, str):
        raise FilterError("a filter is a string")
    return _Parser(text).parse()


# ── evaluation ────────────────────────────────────────────────────────────────

Resolver = Callable[[str], "dict | None"]


def _get(rec: dict, path: Path, resolve: Resolver) -> Any:
    cur: Any = rec
    for i, name in enumerate(path):
        if not isinstance(cur, dict):
            return None
        val = cur.get(name)
        if i < len(path) - 1:
            if not isinstance(val, Ref):
                return None
            cur = resolve(val.val)
        else:
            return val
    return None


def _comparable(a: Any, b: Any) -> tuple[Any, Any] | None:
    """Both sides as plain Python values when they are of one kind, else None."""
    if isinstance(a, Number) and isinstance(b, Number):
        if a.unit and b.unit and a.unit != b.unit:
            return None
        return a.val, b.val
    if isinstance(a, Ref) and isinstance(b, Ref):
        return a.val, b.val
    if isinstance(a, (Uri, Symbol)) and type(a) is type(b):
        return a.val, b.val
    if isinstance(a, bool) or isinstance(b, bool):
        return (a, b) if isinstance(a, bool) and isinstance(b, bool) else None
    for kind in (str, datetime, date, time):
        if isinstance(a, kind) and isinstance(b, kind):
            if kind is date and (isinstance(a, datetime) != isinstance(b, datetime)):
                return None
            return a, b
    return None


def matches(node: Node, rec: dict, resolve: Resolver = lambda _id: None) -> bool:
    """Does record `rec` match? `resolve(id)` returns the record a ref points to (for `->`)."""
    if isinstance(node, Has):
        return _get(rec, node.path, resolve) is not None
    if isinstance(node, HasNot):
        return _get(rec, node.path, resolve) is None
    if isinstance(node, And):
        return all(matches(t, rec, resolve) for t in node.terms)
    if isinstance(node, Or):
        return any(matches(t, rec, resolve) for t in node.terms)
    if isinstance(node, Cmp):
        val = _get(rec, node.path, resolve)
        if val is None:  # a comparison needs the tag, whatever the operator
            return False
        pair = _comparable(val, node.val)
        if pair is None:
            return node.op == "!="
        a, b = pair
        try:
            return {"==": a == b, "!=": a != b, "<": a < b, "<=": a <= b, ">": a > b, ">=": a >= b}[node.op]
        except TypeError:
            return False
    raise FilterError(f"not a filter node: {node!r}")


def shape(node: Node) -> Any:
    """The structure of a filter without its literal values (for tests: input never changes this)."""
    if isinstance(node, Has):
        return ("has", node.path)
    if isinstance(node, HasNot):
        return ("missing", node.path)
    if isinstance(node, Cmp):
        return ("cmp", node.path, node.op, type(node.val).__name__)
    kind = "and" if isinstance(node, And) else "or"
    return (kind, tuple(shape(t) for t in node.terms))
