"""A plant as data: reads a blind set's plant.yaml and draws its plant on the generator (plantkit/generator.py),
statement by statement, in the file's order (the order of the random draws is part of the plant). docs/plants.md
describes the format; in short:

    seed: 20261102                    # the plant's one random generator
    start: 2026-10-01                 # the first local day; `end` the day after the last (null: each site's `last`)
    end: 2026-11-03
    sites:                            # key, dis, IANA zone, Haystack tz, city; optional last, tags
      - {key: als, dis: Aliaga Steel Mini-Mill, zone: Europe/Istanbul, tz: Istanbul, city: Aliaga}
    draw:                             # the statements, run in order
      - site: als                     # the current site (its hour, wday, ... and the pieces' samples)
      - let: {prod: "~(mask('2026-10-07', 6, 14) | mask('2026-10-21', 6, 14))"}
      - equip: {code: e01, dis: Electric Arc Furnace, markers: [furnace, arcFurnace, elec]}
        points:
          - {nav: Active Power, unit: kW, tags: [elec, power, sensor], value: "where(prod, 62000 + noise(3500), 0)"}
      - for: [i, kw0]                 # a loop over rows; strings in code/dis/nav/desc may hold {expression:format}
        in: [[1, 2450.0], [2, 2150.0]]
        do: [...]

The statements: `site`, `let`, `equip` (with `points`), `point`, `for`/`in`/`do`, `if`/`then`/`else`, `recur`, `table`,
`include`. Expressions are expr.py's language over the pieces of pieces.py and functions.py.
"""

from __future__ import annotations

import datetime as dt
import string
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

import numpy as np
import yaml

from edge_agent.evaluation.plantkit.expr import Expr, ExprError, compile_expr
from edge_agent.evaluation.plantkit.functions import NUMPY
from edge_agent.evaluation.plantkit.generator import Plant, Site, build_by_site
from edge_agent.evaluation.plantkit.pieces import CONSTANTS, PIECES, SITE_NAMES, Pieces

TOP_KEYS = {"seed", "start", "end", "require_unit", "sort_equips", "sites", "draw", "format"}
FORMATS = ("kit", "operator")
SITE_KEYS = {"key", "dis", "zone", "tz", "city", "last", "tags"}
EQUIP_KEYS = {"code", "dis", "markers"}
POINT_KEYS = {"nav", "kind", "unit", "tags", "value", "keep", "desc", "equip"}
STATEMENTS = {
    "site": set(),
    "let": set(),
    "equip": {"points"},
    "point": set(),
    "for": {"in", "do"},
    "if": {"then", "else"},
    "recur": set(),
    "include": set(),
    "table": set(),
}
PLANT_NAMES = ("start", "end", "ndays", "seed")


class PlantFileError(ValueError):
    """A plant file that cannot be drawn: the message says where (the statement's path) and why."""


class Scope(Mapping[str, Any]):
    """What an expression reads: the plant file's names, the site's arrays, the constants and the pieces, in that order
    (a recur step reads them flattened, its step values over them)."""

    def __init__(self, names: dict[str, Any], pieces: dict[str, Any]):
        self.names = names
        self.site: dict[str, Any] = {}
        self.fixed: dict[str, Any] = {**CONSTANTS, **pieces}

    def __getitem__(self, key: str) -> Any:
        for layer in (self.names, self.site, self.fixed):
            if key in layer:
                return layer[key]
        raise KeyError(key)

    def __iter__(self) -> Iterator[str]:
        return iter({**self.fixed, **self.site, **self.names})

    def __len__(self) -> int:
        return len(set(self))


class PlantFile:
    """One plant file, read and checked; `draw()` runs it and gives the Plant and its sites."""

    def __init__(self, doc: dict[str, Any], source: str = "plant.yaml"):
        self.source = source
        self.doc = doc
        _keys(doc, TOP_KEYS, {"seed", "start", "sites", "draw"}, source)
        self._exprs: dict[str, Expr] = {}

    @classmethod
    def load(cls, path: Path) -> PlantFile:
        doc = yaml.safe_load(path.read_text(encoding="utf-8"))
        if not isinstance(doc, dict):
            raise PlantFileError(f"{path}: not a mapping")
        return cls(doc, str(path))

    def check(self) -> int:
        """Compile every expression and template of the file without drawing (a syntax error, a construct that is
        not allowed, an unknown piece: an ExprError; a name bound that a piece or the site holds: a PlantFileError);
        the number of expressions."""
        self.piece_names = frozenset(PIECES) | frozenset(NUMPY)
        self.reserved = set(self.piece_names) | set(CONSTANTS) | set(SITE_NAMES) | set(PLANT_NAMES)
        count = 0

        def binds(names: Any, where: str) -> None:
            for name in [names] if isinstance(names, str) else names or []:
                self._check_name(name, where)

        def exprs(val: Any) -> None:
            nonlocal count
            if isinstance(val, str):
                self.expr(val)
                count += 1
            elif isinstance(val, list):
                for v in val:
                    exprs(v)
            elif isinstance(val, dict):
                for v in val.values():
                    exprs(v)

        def texts(val: Any) -> None:
            nonlocal count
            for _, field, _, _ in string.Formatter().parse(str(val)):
                if field is not None:
                    self.expr(field)
                    count += 1

        def walk(stmts: Any) -> None:
            for st in stmts or []:
                if "nav" in st or "point" in st:
                    p = st.get("point", st)
                    exprs(p.get("value"))
                    exprs(p.get("keep"))
                    if isinstance(p.get("tags"), str):
                        exprs(p["tags"])
                    for k in ("nav", "desc", "equip", "kind", "unit"):
                        texts(p.get(k, ""))
                elif "let" in st:
                    binds(list(st["let"]), "let")
                    exprs(list(st["let"].values()))
                elif "equip" in st:
                    for k in ("code", "dis"):
                        texts(st["equip"].get(k, ""))
                    if isinstance(st["equip"].get("markers"), str):
                        exprs(st["equip"]["markers"])
                    walk(st.get("points"))
                elif "for" in st:
                    binds(st["for"], "for")
                    if isinstance(st.get("in"), str):
                        exprs(st["in"])
                    walk(st.get("do"))
                elif "if" in st:
                    exprs(st["if"])
                    walk(st.get("then"))
                    walk(st.get("else"))
                elif "recur" in st:
                    binds(list(st["recur"].get("state") or {}) + list(st["recur"]["step"]), "recur")
                    exprs(list((st["recur"].get("state") or {}).values()))
                    exprs(list(st["recur"]["step"].values()))
                elif "include" in st:
                    walk(self._included(st["include"], "include"))
                elif "table" in st:
                    binds(list(st["table"]), "table")
                elif "site" in st:
                    texts(st["site"])

        walk(self.doc["draw"])
        return count

    # ----- running -----------------------------------------------------------------------------------------------
    def draw(self) -> tuple[Plant, list[Site]]:
        d = self.doc
        start = _date(d["start"], "start")
        end = None if d.get("end") is None else _date(d["end"], "end")
        self.plant = Plant(int(d["seed"]), start, end, require_unit=bool(d.get("require_unit", True)))
        self.pieces = Pieces(self.plant)
        table = self.pieces.table()
        self.piece_names = frozenset(table)
        self.names: dict[str, Any] = {}
        self.scope = Scope(self.names, table)
        self.scope.fixed.update(start=start, end=end, ndays=self.plant.ndays, seed=d["seed"])
        self.reserved = set(table) | set(CONSTANTS) | set(SITE_NAMES) | set(PLANT_NAMES)
        self.sites: dict[str, Site] = {}
        for i, sd in enumerate(d["sites"]):
            where = f"sites[{i}]"
            _keys(sd, SITE_KEYS, {"key", "dis", "zone", "tz", "city"}, where)
            last = sd.get("last")
            if isinstance(last, str):
                last = dt.datetime.fromisoformat(last)
            self.sites[sd["key"]] = self.plant.site(
                sd["key"], sd["dis"], sd["zone"], sd["tz"], sd["city"], last=last, tags=sd.get("tags")
            )
        self.site: Site | None = None
        self.equip_ids: dict[tuple[str, str], str] = {}
        self._run(d["draw"], "draw")
        return self.plant, list(self.sites.values())

    def build(self) -> tuple[bytes, bytes]:
        """plant.json and plant.csv.gz as bytes."""
        fmt = self.doc.get("format", "kit")
        if fmt not in FORMATS:
            raise PlantFileError(f"format: one of {', '.join(FORMATS)}, not {fmt!r}")
        plant, sites = self.draw()
        if fmt == "operator":
            return build_by_site(plant, sites)
        return plant.build(sites, bool(self.doc.get("sort_equips", True)))

    def _run(self, stmts: Any, path: str) -> None:
        if not isinstance(stmts, list):
            raise PlantFileError(f"{path}: a list of statements expected")
        for i, st in enumerate(stmts):
            where = f"{path}[{i}]"
            if not isinstance(st, dict):
                raise PlantFileError(f"{where}: a statement is a mapping, not {st!r}")
            kinds = ["point"] if "nav" in st else [k for k in st if k in STATEMENTS]
            if len(kinds) != 1:
                raise PlantFileError(f"{where}: one of {', '.join(STATEMENTS)} or a point (nav: ...) expected, found "
                                     f"{sorted(st)}")  # fmt: skip
            kind = kinds[0]
            if "nav" not in st:
                extra = set(st) - {kind} - STATEMENTS[kind]
                if extra:
                    raise PlantFileError(f"{where}: unknown key(s) {sorted(extra)} beside {kind!r}")
            try:
                getattr(self, "_st_" + kind)(st, where)
            except (ExprError, PlantFileError):
                raise
            except Exception as e:  # a piece that failed: say where
                raise PlantFileError(f"{where} ({kind}): {type(e).__name__}: {e}") from e

    # ----- statements --------------------------------------------------------------------------------------------
    def _st_site(self, st: dict[str, Any], where: str) -> None:
        key = self.text(st["site"])
        if key not in self.sites:
            raise PlantFileError(f"{where}: unknown site {key!r} (the sites: {', '.join(self.sites)})")
        self.site = self.pieces.site = self.sites[key]
        s = self.site
        self.scope.site = {"hour": s.hour, "uhour": s.uhour, "wday": s.wday, "day_i": s.day_i, "secs": s.secs,
                           "n": s.n}  # fmt: skip

    def _st_let(self, st: dict[str, Any], where: str) -> None:
        lets = st["let"]
        if not isinstance(lets, dict):
            raise PlantFileError(f"{where}: let takes a mapping of name: expression")
        for name, val in lets.items():
            self._bind(name, self.value(val, f"{where}.{name}"), where)

    def _st_equip(self, st: dict[str, Any], where: str) -> None:
        eq = st["equip"]
        _keys(eq, EQUIP_KEYS, EQUIP_KEYS, where)
        s = self._need_site(where)
        code = self.text(eq["code"])
        markers = eq["markers"]
        if isinstance(markers, str):  # an expression giving the list (a loop's row)
            markers = self.value(markers, f"{where}.markers")
        eid = self.plant.equip(
            s, code, self.text(eq["dis"]), [m if isinstance(m, dict) else self.text(m) for m in markers]
        )
        self.equip_ids[(s.key, code)] = eid
        saved = self._equip
        self._equip = eid
        try:
            self._run(st.get("points", []), f"{where}.points")
        finally:
            self._equip = saved

    _equip: str | None = None

    def _st_point(self, st: dict[str, Any], where: str) -> None:
        p = st["point"] if "point" in st else st
        _keys(p, POINT_KEYS, {"nav", "value"}, where)
        s = self._need_site(where)
        if "equip" in p:
            code = self.text(p["equip"])
            if (s.key, code) not in self.equip_ids:
                raise PlantFileError(f"{where}: no equip {code!r} at site {s.key!r} yet")
            eid = self.equip_ids[(s.key, code)]
        elif self._equip is not None:
            eid = self._equip
        else:
            raise PlantFileError(f"{where}: a point outside an equip's points needs `equip: <code>`")
        nav = self.text(p["nav"])
        kind = self.text(p.get("kind", "Number"))
        if kind not in ("Number", "Bool"):
            raise PlantFileError(f"{where}: kind is Number or Bool, not {kind!r}")
        unit = p.get("unit")
        unit = None if unit is None else self.text(unit)
        vals = self.value(p["value"], f"{where}.value ({nav})")
        vals = np.broadcast_to(np.asarray(vals), (s.n,)) if np.ndim(vals) == 0 else vals
        keep = p.get("keep")
        keep = None if keep is None else self.value(keep, f"{where}.keep ({nav})")
        desc = p.get("desc")
        desc = None if desc is None else self.text(desc)
        if np.shape(vals) != (s.n,):
            raise PlantFileError(f"{where}: {nav}: {np.shape(vals)} values, the site has {s.n} samples")
        tags = p.get("tags", [])
        if isinstance(tags, str):  # an expression giving the list (a table's row)
            tags = self.value(tags, f"{where}.tags ({nav})")
        self.plant.point(eid, nav, kind, unit, [t if isinstance(t, dict) else self.text(t) for t in tags], vals, keep,
                         desc)  # fmt: skip

    def _st_for(self, st: dict[str, Any], where: str) -> None:
        names = st["for"]
        names = [names] if isinstance(names, str) else names
        rows = st.get("in")
        if isinstance(rows, str):  # an expression giving the rows (a list a let or an outer loop holds)
            rows = self.value(rows, f"{where}.in")
        if not isinstance(rows, list):
            raise PlantFileError(f"{where}: `in` takes a list of rows (or an expression giving one)")
        for j, row in enumerate(rows):
            vals = [row] if len(names) == 1 else row
            if not isinstance(vals, list) or len(vals) != len(names):
                raise PlantFileError(f"{where}: row {j} {row!r} does not give {len(names)} values for {names}")
            for nm, v in zip(names, vals):
                self._bind(nm, v, where)
            self._run(st.get("do", []), f"{where}.do<{', '.join(f'{n}={v}' for n, v in zip(names, vals))}>")

    def _st_if(self, st: dict[str, Any], where: str) -> None:
        cond = self.value(st["if"], f"{where}.if")
        branch = "then" if cond else "else"
        self._run(st.get(branch, []), f"{where}.{branch}")

    def _st_recur(self, st: dict[str, Any], where: str) -> None:
        spec = st["recur"]
        _keys(spec, {"state", "step"}, {"step"}, where)
        s = self._need_site(where)
        for name, val in (spec.get("state") or {}).items():
            self._bind(name, self.value(val, f"{where}.state.{name}"), where)
        steps = [(name, self.expr(text)) for name, text in spec["step"].items()]
        for name, _ in steps:
            self._check_name(name, where)
            if name == "k":
                raise PlantFileError(f"{where}: 'k' is the sample's index in a recur step, not a name it sets")
        own = {name for name, _ in steps}
        reads = set().union(*(e.names for _, e in steps)) - own
        known = {**self.scope.site, **self.names}
        per = {nm: known[nm] for nm in reads if _is_series(known.get(nm), s.n)}
        cur = {nm: self.names[nm] for nm in own if nm in self.names}
        out: dict[str, list[Any]] = {name: [] for name in own}
        # one flat mapping for the pass (what the scope's layers give, the step values over them): no name changes
        # meanwhile but the steps' and the samples'
        env = {**self.scope.fixed, **self.scope.site, **self.names, **cur}
        for k in range(s.n):
            env["k"] = k
            for nm, arr in per.items():
                env[nm] = arr[k]
            for name, e in steps:
                v = e(env)
                env[name] = v
                out[name].append(v)
        for name in own:
            self.names[name] = np.asarray(out[name])

    def _st_table(self, st: dict[str, Any], where: str) -> None:
        """Names bound to values as written (a word stays a word; `let` reads a string as an expression): a table of
        names, kinds and numbers a recipe looks up."""
        if not isinstance(st["table"], dict):
            raise PlantFileError(f"{where}: table takes a mapping of name: value")
        for name, val in st["table"].items():
            self._bind(name, val, where)

    def _st_include(self, st: dict[str, Any], where: str) -> None:
        self._run(self._included(st["include"], where), f"{where}<{st['include']}>")

    def _included(self, name: Any, where: str) -> list[Any]:
        """The statements of a shared file (a YAML list), named relative to this plant file: a recipe several plants
        draw with their own tables."""
        path = Path(self.source).parent / str(name)
        if not path.is_file():
            raise PlantFileError(f"{where}: include: no file {path}")
        stmts = yaml.safe_load(path.read_text(encoding="utf-8"))
        if not isinstance(stmts, list):
            raise PlantFileError(f"{where}: include: {path} is not a list of statements")
        return stmts

    # ----- values ------------------------------------------------------------------------------------------------
    def expr(self, text: str) -> Expr:
        e = self._exprs.get(text)
        if e is None:
            e = self._exprs[text] = compile_expr(text, self.piece_names)
        return e

    def value(self, val: Any, where: str) -> Any:
        """A value written in the file: a string is an expression; a number, a bool, a date or null itself; a list
        or a mapping (its keys as written) item by item."""
        if isinstance(val, str):
            return self.expr(val)(self.scope)
        if isinstance(val, list):
            return [self.value(v, where) for v in val]
        if isinstance(val, dict):
            return {k: self.value(v, where) for k, v in val.items()}
        return val

    def text(self, val: Any) -> str:
        """A name written in the file, its {expression} or {expression:format} fields filled in."""
        raw = str(val)
        if "{" not in raw:
            return raw
        out = []
        for lit, field, spec, _conv in string.Formatter().parse(raw):
            out.append(lit)
            if field is not None:
                v = self.expr(field)(self.scope)
                out.append(format(v, spec or ""))
        return "".join(out)

    def _bind(self, name: str, val: Any, where: str) -> None:
        self._check_name(name, where)
        self.names[name] = val

    def _check_name(self, name: Any, where: str) -> None:
        if isinstance(name, bool):
            raise PlantFileError(f"{where}: {name!r} is not a name (YAML reads on, off, yes, no as true or false: "
                                 f"quote the name)")  # fmt: skip
        if not isinstance(name, str) or not name.isidentifier():
            raise PlantFileError(f"{where}: {name!r} is not a name")
        if name in self.reserved:
            raise PlantFileError(f"{where}: {name!r} is taken (a piece, a site name or a constant)")

    def _need_site(self, where: str) -> Site:
        if self.site is None:
            raise PlantFileError(f"{where}: no site yet (a `site:` statement comes first)")
        return self.site


def _is_series(v: Any, n: int) -> bool:
    return isinstance(v, np.ndarray) and v.shape == (n,)


def _keys(d: Any, allowed: set[str], required: set[str], where: str) -> None:
    if not isinstance(d, dict):
        raise PlantFileError(f"{where}: a mapping expected, not {d!r}")
    extra = set(d) - allowed
    if extra:
        raise PlantFileError(f"{where}: unknown key(s) {sorted(extra)}; allowed: {sorted(allowed)}")
    missing = required - set(d)
    if missing:
        raise PlantFileError(f"{where}: missing {sorted(missing)}")


def _date(v: Any, where: str) -> dt.date:
    if isinstance(v, dt.date):
        return v
    if isinstance(v, str):
        return dt.date.fromisoformat(v)
    raise PlantFileError(f"{where}: a date expected, not {v!r}")
