"""The expression language of a plant file (plant.yaml): a small, declarative subset of Python's expression syntax,
parsed with `ast` and compiled into closures; nothing is ever passed to `eval`.

What an expression may hold:
- numbers, strings ('2026-10-07' names a date where a piece takes a day), True, False, None;
- names: the plant file's own (`let`, loop variables) and the current site's (`hour`, `wday`, ...);
- arithmetic `+ - * / // % **`, the element-wise `& | ^ ~`, comparisons (chained ones too), `not`, `and`, `or`,
  `a if c else b` (only the branch taken is evaluated, as in Python: a draw in the other branch does not happen);
- calls of the whitelisted pieces by name (positional and keyword arguments), `x[i]` reading one element,
  list, tuple and dict literals (a `put` table, a `by_date` table, the rows of a `select`).

Rejected with an `ExprError` that names the construct and its column: attributes (`np.where`, `x.clip`), lambdas,
comprehensions, slices, starred arguments, f-strings, walrus, calls of anything but a whitelisted name, a name that is
not bound, and an integer power with an exponent over 64. The evaluation order is Python's (left operand first,
arguments left to right, a dict's key before its value), so the random draws a plant makes happen in the order the
Python script it was written from made them.
"""

from __future__ import annotations

import ast
import operator
from collections.abc import Callable, Mapping
from typing import Any

Env = Mapping[str, Any]
Compiled = Callable[[Env], Any]

_BINOPS: dict[type, Callable[[Any, Any], Any]] = {
    ast.Add: operator.add,
    ast.Sub: operator.sub,
    ast.Mult: operator.mul,
    ast.Div: operator.truediv,
    ast.FloorDiv: operator.floordiv,
    ast.Mod: operator.mod,
    ast.Pow: operator.pow,
    ast.BitAnd: operator.and_,
    ast.BitOr: operator.or_,
    ast.BitXor: operator.xor,
}
_UNARY: dict[type, Callable[[Any], Any]] = {
    ast.USub: operator.neg,
    ast.UAdd: operator.pos,
    ast.Invert: operator.invert,
    ast.Not: operator.not_,
}
_CMPS: dict[type, Callable[[Any, Any], Any]] = {
    ast.Eq: operator.eq,
    ast.NotEq: operator.ne,
    ast.Lt: operator.lt,
    ast.LtE: operator.le,
    ast.Gt: operator.gt,
    ast.GtE: operator.ge,
    ast.Is: operator.is_,
    ast.IsNot: operator.is_not,
    ast.In: lambda a, b: a in b,
    ast.NotIn: lambda a, b: a not in b,
}
_NAMES = {
    ast.Attribute: "an attribute (write the piece by its name: where(...), not np.where(...))",
    ast.Lambda: "a lambda",
    ast.ListComp: "a comprehension",
    ast.SetComp: "a comprehension",
    ast.DictComp: "a comprehension",
    ast.GeneratorExp: "a comprehension",
    ast.Slice: "a slice",
    ast.Starred: "a starred argument",
    ast.JoinedStr: "an f-string",
    ast.NamedExpr: "an assignment expression",
    ast.Await: "await",
    ast.Yield: "yield",
    ast.YieldFrom: "yield",
    ast.Set: "a set",
}
MAX_INT_POWER = 64


class ExprError(ValueError):
    """An expression that is not allowed, or that cannot be evaluated (an unbound name): the message names the
    expression, the construct and its column."""

    def __init__(self, text: str, msg: str, col: int | None = None, line: int = 0):
        self.text, self.msg, self.col, self.line = text, msg, col, line
        where = ""
        if col is not None:
            where = f" at line {line + 1} column {col + 1}" if "\n" in text.strip() else f" at column {col + 1}"
        super().__init__(f"{msg}{where} in expression {text!r}")


class Expr:
    """One compiled expression: `names` are the free names it reads (not the pieces it calls), `calls` the pieces."""

    def __init__(self, text: str, pieces: frozenset[str] | set[str]):
        self.text = text
        self.names: set[str] = set()
        self.calls: set[str] = set()
        self._pieces = pieces
        try:  # in brackets: an expression may run over lines (a YAML block scalar); line 2 is its first
            tree = ast.parse("(\n" + text.strip() + "\n)", mode="eval")
        except SyntaxError as e:
            line = max((e.lineno or 2) - 2, 0)
            raise ExprError(text, f"not an expression: {e.msg}", (e.offset or 1) - 1, line) from None
        self._fn = self._compile(tree.body)

    def __call__(self, env: Env) -> Any:
        return self._fn(env)

    # ----- compiling ---------------------------------------------------------------------------------------------
    def _err(self, node: ast.AST, msg: str) -> ExprError:
        return ExprError(self.text, msg, getattr(node, "col_offset", None), getattr(node, "lineno", 2) - 2)

    def _compile(self, node: ast.AST) -> Compiled:  # noqa: C901 - one branch per construct
        if isinstance(node, ast.Constant):
            v = node.value
            if not isinstance(v, (int, float, str, bool)) and v is not None:
                raise self._err(node, f"a constant of type {type(v).__name__} is not allowed")
            return lambda env: v
        if isinstance(node, ast.Name):
            return self._name(node)
        if isinstance(node, ast.BinOp):
            op = _BINOPS.get(type(node.op))
            if op is None:
                raise self._err(node, f"the operator {type(node.op).__name__} is not allowed")
            a, b = self._compile(node.left), self._compile(node.right)
            if isinstance(node.op, ast.Pow):
                return self._power(node, a, b)
            return lambda env: op(a(env), b(env))
        if isinstance(node, ast.UnaryOp):
            uop = _UNARY[type(node.op)]
            x = self._compile(node.operand)
            return lambda env: uop(x(env))
        if isinstance(node, ast.BoolOp):
            return self._boolop(node)
        if isinstance(node, ast.Compare):
            return self._compare(node)
        if isinstance(node, ast.IfExp):
            t, a, b = self._compile(node.test), self._compile(node.body), self._compile(node.orelse)
            return lambda env: a(env) if t(env) else b(env)
        if isinstance(node, ast.Call):
            return self._call(node)
        if isinstance(node, ast.Subscript):
            if isinstance(node.slice, ast.Slice):
                raise self._err(node, "a slice is not allowed (x[i] reads one element)")
            seq, ix = self._compile(node.value), self._compile(node.slice)
            return lambda env: seq(env)[ix(env)]
        if isinstance(node, (ast.List, ast.Tuple)):
            items = [self._compile(e) for e in node.elts]
            if isinstance(node, ast.Tuple):
                return lambda env: tuple(f(env) for f in items)
            return lambda env: [f(env) for f in items]
        if isinstance(node, ast.Dict):
            if any(k is None for k in node.keys):
                raise self._err(node, "a ** in a dict is not allowed")
            pairs = [(self._compile(k), self._compile(v)) for k, v in zip(node.keys, node.values) if k is not None]
            return lambda env: _dict(pairs, env)
        what = _NAMES.get(type(node), type(node).__name__)
        raise self._err(node, f"{what} is not allowed")

    def _name(self, node: ast.Name) -> Compiled:
        name = node.id
        if name in self._pieces:
            raise self._err(node, f"{name!r} is a piece: call it, {name}(...)")
        self.names.add(name)
        text = self.text

        def get(env: Env) -> Any:
            try:
                return env[name]
            except KeyError:
                raise ExprError(text, f"unknown name {name!r} (not bound by a let, a loop or the site)") from None

        return get

    def _power(self, node: ast.BinOp, a: Compiled, b: Compiled) -> Compiled:
        text, col, line = self.text, node.col_offset, node.lineno - 2

        def power(env: Env) -> Any:
            x, y = a(env), b(env)
            if isinstance(x, int) and isinstance(y, int) and abs(y) > MAX_INT_POWER:
                raise ExprError(text, f"an integer power over {MAX_INT_POWER} is not allowed", col, line)
            return x**y

        return power

    def _boolop(self, node: ast.BoolOp) -> Compiled:
        parts = [self._compile(v) for v in node.values]
        if isinstance(node.op, ast.And):

            def all_(env: Env) -> Any:
                v: Any = True
                for p in parts:
                    v = p(env)
                    if not v:
                        return v
                return v

            return all_

        def any_(env: Env) -> Any:
            v: Any = False
            for p in parts:
                v = p(env)
                if v:
                    return v
            return v

        return any_

    def _compare(self, node: ast.Compare) -> Compiled:
        left = self._compile(node.left)
        ops = [_CMPS[type(o)] for o in node.ops]
        rights = [self._compile(c) for c in node.comparators]
        if len(ops) == 1:
            op, right = ops[0], rights[0]
            return lambda env: op(left(env), right(env))

        def chain(env: Env) -> Any:  # Python's a < b < c: b evaluated once, c only when a < b
            a = left(env)
            res: Any = True
            for op, r in zip(ops, rights):
                b = r(env)
                res = op(a, b)
                if not res:
                    return res
                a = b
            return res

        return chain

    def _call(self, node: ast.Call) -> Compiled:
        if not isinstance(node.func, ast.Name):
            what = _NAMES.get(type(node.func), "a call of something that is not a piece's name")
            raise self._err(node, f"{what} is not allowed")
        name = node.func.id
        if name not in self._pieces:
            raise self._err(node, f"unknown piece {name!r}")
        self.calls.add(name)
        args = []
        for a in node.args:
            if isinstance(a, ast.Starred):
                raise self._err(a, "a starred argument is not allowed")
            args.append(self._compile(a))
        kws = []
        for k in node.keywords:
            if k.arg is None:
                raise self._err(k.value, "a ** argument is not allowed")
            kws.append((k.arg, self._compile(k.value)))
        text = self.text

        def call(env: Env) -> Any:
            fn = env[name]
            pos = [a(env) for a in args]
            kw = {k: v(env) for k, v in kws}
            try:
                return fn(*pos, **kw)
            except TypeError as e:
                raise ExprError(text, f"{name}(): {e}") from None

        return call


def _dict(pairs: list[tuple[Compiled, Compiled]], env: Env) -> dict[Any, Any]:
    out = {}
    for k, v in pairs:
        key = k(env)
        out[key] = v(env)
    return out


def compile_expr(text: str, pieces: frozenset[str] | set[str]) -> Expr:
    """Compile one expression; `pieces` are the names that may be called (and may not be read as values)."""
    if not isinstance(text, str):
        raise ExprError(repr(text), "an expression must be a string")
    return Expr(text, pieces)
