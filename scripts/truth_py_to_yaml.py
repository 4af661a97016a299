"""Convert a blind set's old truth.py (its tables as module globals) into a truth.yaml (docs/plants.md, "The truth"):
the same tables as data, with the comments that stood above each table and each entry.

    .venv/bin/python scripts/truth_py_to_yaml.py bench/blindN     # writes bench/blindN/truth.yaml

It writes only tables: a truth.py whose subclass holds logic needs that logic as one of the kit's options first (the
script says which class it found). It then loads the new truth.yaml through the kit and checks that every table reads
back equal to the truth.py's; the proof is `python bench/blindkit/truth.py --check bench/blindN` (truth.md the same,
sha256), before the truth.py is deleted.
"""

from __future__ import annotations

import ast
import datetime as dt
import importlib.util
import io
import math
import re
import sys
import tokenize
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
from edge_agent.evaluation.plantkit.truthfile import TABLES, tables  # noqa: E402

WIDTH = 118
DAY = re.compile(r"^(\d{4}-\d\d-\d\d)T00:00:00([+-]\d\d:\d\d)$")
READINGS = ("WRONG", "RIGHT_TOO")
DEFAULTS = {"REGISTER_SPAN": "start to end", "NOT_RECORDED_TOPIC": "substring"}


def scalar(v) -> str:
    """A scalar as YAML writes it inside a flow collection (quoted where it would read as something else)."""
    if isinstance(v, str) and re.fullmatch(r"\d{4}-\d\d-\d\d", v):
        return v  # a day: YAML reads it as a date, the kit as its ISO text again
    if isinstance(v, float) and math.isfinite(v) and v == int(v) and abs(v) < 1e15:
        return repr(v)  # 3.0, not 3.0e+00
    text = yaml.safe_dump([v], default_flow_style=True, width=math.inf, allow_unicode=True).strip()
    return text[1:-1]


def flow(v) -> str:
    if isinstance(v, dict):
        return "{" + ", ".join(f"{scalar(k)}: {flow(x)}" for k, x in v.items()) + "}"
    if isinstance(v, list | tuple):
        return "[" + ", ".join(flow(x) for x in v) + "]"
    if isinstance(v, set | frozenset):
        return flow(sorted(v))
    return scalar(v)


def as_reading(what: str, over: dict) -> dict:
    """A reading as a truth.yaml writes it: `what`, then its overrides; a window of whole days as `whole_days`."""
    out: dict = {"what": what}
    s, e = DAY.match(str(over.get("start", ""))), DAY.match(str(over.get("end", "")))
    rest = dict(over)
    if s and e:
        del rest["start"], rest["end"]
        days = [dt.date.fromisoformat(s[1]), dt.date.fromisoformat(e[1]), s[2]]
        out["whole_days"] = days + ([e[2]] if e[2] != s[2] else [])
    out.update(rest)
    return out


def comments_by_line(src: str) -> tuple[dict[int, str], set[int]]:
    """Each comment's text by its line, and the lines whose comment stands alone."""
    found, alone = {}, set()
    for tok in tokenize.generate_tokens(io.StringIO(src).readline):
        if tok.type == tokenize.COMMENT:
            text = re.sub(r"^#:?\s?", "", tok.string).rstrip()
            if (text and set(text) <= set("-= ")) or text.startswith(("fmt:", "noqa", "type:")):
                continue
            found[tok.start[0]] = text
            if not tok.line[: tok.start[1]].strip():
                alone.add(tok.start[0])
    return found, alone


def between(found, alone, a: int, b: int) -> list[str]:
    """The standalone comments on lines a .. b-1."""
    return [found[n] for n in range(a, b) if n in alone]


def key_lines(node) -> list[tuple[int, int]]:
    """(first line, last line) of each entry of a dict or list literal."""
    if isinstance(node, ast.Dict):
        return [(k.lineno, v.end_lineno) for k, v in zip(node.keys, node.values)]  # type: ignore[union-attr]
    if isinstance(node, ast.List | ast.Tuple | ast.Set):
        return [(e.lineno, e.end_lineno) for e in node.elts]  # type: ignore[misc]
    return []


def entry_comments(found, alone, node) -> list[list[str]]:
    """The comments of each entry of a literal: those standing alone above it (since the entry before), and one at the
    end of its last line."""
    out, prev = [], node.lineno if node is not None else 0
    for a, b in key_lines(node):
        cs = between(found, alone, prev, a)
        if b in found and b not in alone:
            cs.append(found[b])
        out.append(cs)
        prev = b
    return out


def comment(lines: list[str], indent: str) -> list[str]:
    return [f"{indent}# {c}".rstrip() for c in lines]


def emit_table(name: str, value, node, found, alone) -> list[str]:
    key = name.lower()
    if name == "HEAD":
        text = value if isinstance(value, str) else "\n".join(value)
        style = "|" if text.endswith("\n") and not text.endswith("\n\n") else "|-" if not text.endswith("\n") else "|+"
        return [f"{key}: {style}"] + [f"  {line}".rstrip() for line in text.splitlines()]
    if not isinstance(value, dict):
        return [f"{key}: {flow(value)}"]
    lines = [f"{key}:"]
    per_entry = entry_comments(found, alone, node) if isinstance(node, ast.Dict) else []
    inner = {}
    if isinstance(node, ast.Dict):
        for k, v in zip(node.keys, node.values):
            if isinstance(k, ast.Constant):
                inner[k.value] = v
    for i, (k, v) in enumerate(value.items()):
        lines += comment(per_entry[i] if i < len(per_entry) else [], "  ")
        if name == "SLOT" and isinstance(v, str):
            lines.append(f"  {scalar(k)}: {flow({'slot': v})}")
            continue
        if name in READINGS:
            lines.append(f"  {scalar(k)}:")
            sub = entry_comments(found, alone, inner.get(k))
            for j, (what, over) in enumerate(v):
                lines += comment(sub[j] if j < len(sub) else [], "    ")
                r = as_reading(what, over)
                one = f"    - {flow(r)}"
                if len(one) <= WIDTH:
                    lines.append(one)
                    continue
                for n, (rk, rv) in enumerate(r.items()):
                    lines.append(f"    {'- ' if n == 0 else '  '}{scalar(rk)}: {flow(rv)}")
            continue
        one = f"  {scalar(k)}: {flow(v)}"
        if len(one) <= WIDTH or not isinstance(v, dict):
            lines.append(one)
        else:
            lines.append(f"  {scalar(k)}:")
            lines += [f"    {scalar(rk)}: {flow(rv)}" for rk, rv in v.items()]
    return lines


def convert(here: Path) -> str:
    py = here / "truth.py"
    src = py.read_text(encoding="utf-8")
    spec = importlib.util.spec_from_file_location(f"old_truth_{here.name}", py)
    assert spec and spec.loader
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    classes = [v.__name__ for v in vars(mod).values() if isinstance(v, type) and v.__module__ == mod.__name__]
    if classes:
        print(f"{py}: holds the class(es) {', '.join(classes)}: their logic must be a kit option", file=sys.stderr)
    found, alone = comments_by_line(src)
    known = {k.upper() for k in TABLES}
    out = [
        f'# Blind set {here.name.removeprefix("blind")}\'s truth (docs/plants.md, "The truth"): the tables by which',
        f"# `python bench/blindkit/truth.py bench/{here.name}` checks the plant and blind.yaml and writes truth.md.",
    ]
    if hasattr(mod, "INTENT"):  # the tables name the checks: set 3-6's, set 11's
        out.append("truth: first")
    elif hasattr(mod, "SLOT"):
        out.append("truth: slots")
    tree = ast.parse(src)
    prev_end = 0
    for node in tree.body:
        targets = []
        if isinstance(node, ast.Assign):
            targets = [t.id for t in node.targets if isinstance(t, ast.Name)]
        elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
            targets = [node.target.id]
        name = targets[0] if targets else None
        if name in known:
            value = getattr(mod, name)
            default = DEFAULTS.get(name, type(value)())
            if value != default:
                out.append("")
                above = between(found, alone, prev_end + 1, node.lineno)
                if node.lineno in found and node.lineno not in alone:  # at the end of the table's first line
                    above.append(found[node.lineno])
                out += comment(above, "")
                val_node = node.value if isinstance(node, ast.Assign | ast.AnnAssign) else None
                out += emit_table(name, value, val_node, found, alone)
        prev_end = getattr(node, "end_lineno", prev_end) or prev_end
    text = "\n".join(out) + "\n"
    # the words of the truth.py's comments that name its Python form
    text = re.sub(
        r" Each entry: \(what the wrong reading is, overrides merged into the(?:\n# | )check\)\.",
        "\n# Each entry: `what` the reading is, and the overrides merged into the check.",
        text,
    )
    text = text.replace("(make_plant.py's events)", "(plant.yaml's events)")
    text = text.replace("relative dates resolved below from", "relative dates resolved from")
    # the tables read back equal to the truth.py's
    _, ns = tables(yaml.safe_load(text), str(here / "truth.yaml"))
    for name in ns:
        if name == "SLOT":
            print(f"{py}: SLOT: write each task's readings by hand (docs/plants.md)", file=sys.stderr)
            continue
        old = getattr(mod, name)
        old = "\n".join(old) if name == "HEAD" and isinstance(old, list) else old
        assert same(ns[name], old), (name, ns[name], old)
    return text


def same(a, b) -> bool:
    """Equal, a tuple and a list of equal items counted the same (the checks only unpack them)."""
    if isinstance(a, list | tuple) and isinstance(b, list | tuple):
        return len(a) == len(b) and all(same(x, y) for x, y in zip(a, b))
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(same(a[k], b[k]) for k in a)
    return a == b and (type(a) is type(b) or {type(a), type(b)} <= {int, float})


if __name__ == "__main__":
    for arg in sys.argv[1:]:
        here = Path(arg)
        (here / "truth.yaml").write_text(convert(here), encoding="utf-8")
        print(f"{here / 'truth.yaml'}: written")
