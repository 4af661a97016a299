"""The house's floors (docs/architecture.md): every import of edge_agent, read with `ast` (those inside functions and
under `if TYPE_CHECKING:` too), goes down the layers or stays on its floor, never up; the units of a floor marked
independent do not import each other; no modules import each other in a circle (outside grounding/); no module
imports the project's own code inside a function outside the commands (the CLI imports lazily to start fast), and
none wraps such an import in `except ImportError`.

Each test fails listing every offending import, with its file and line."""

from __future__ import annotations

import ast
from dataclasses import dataclass
from pathlib import Path

from edge_agent import PROJECT_ROOT

PACKAGE = PROJECT_ROOT / "edge_agent"


@dataclass(frozen=True)
class Layer:
    name: str
    units: tuple[str, ...]  # module prefixes: a package (edge_agent.llm) or a module (edge_agent.config)
    independent: bool = False  # its units may not import each other


#: bottom first; docs/architecture.md draws the same floors
LAYERS = (
    Layer("package", ("edge_agent",)),  # edge_agent/__init__.py: PROJECT_ROOT, __version__
    Layer(
        "foundation",
        (
            "edge_agent.failures",
            "edge_agent.clock",
            "edge_agent.config",
            "edge_agent.filestore",
            "edge_agent.observers",
            "edge_agent.analysis",
            "edge_agent.costmodel",
            "edge_agent.plots",
        ),
    ),
    Layer("tools", ("edge_agent.toolkit",)),
    Layer("engines", ("edge_agent.llm", "edge_agent.skyspark", "edge_agent.grounding"), independent=True),
    Layer("toolbox", ("edge_agent.analysis_tools",)),
    Layer("agent", ("edge_agent.agent",)),
    Layer("assembly", ("edge_agent.runlog", "edge_agent.trajectory_store", "edge_agent.tts_autogen", "edge_agent.app")),
    Layer("watchers", ("edge_agent.fleet", "edge_agent.evaluation"), independent=True),
    Layer("daemon", ("edge_agent.mqtt",)),
    Layer("console", ("edge_agent.console",)),
    Layer("commands", ("edge_agent.commands", "edge_agent.cli", "edge_agent.__main__")),
)

#: where a function may import the project's own modules: the CLI, so `edge-agent --help` starts fast
LATE_IMPORTS_ALLOWED = ("edge_agent.commands", "edge_agent.cli")

#: packages whose modules may still import each other in a circle, among themselves only: grounding's `run.py` ↔
#: `calls/placing/status/written.py` through `Grounding` (the reading issue's frame is the way out)
CIRCLES_ALLOWED_IN = ("edge_agent.grounding",)

#: late imports still in modules other branches of issue 32 are rewriting (mqtt/ and bench/: their helpers'); each
#: is to go, and this list with it — an entry that no longer occurs fails too
KNOWN_LATE_IMPORTS = {
    ("edge_agent.evaluation.audit", "edge_agent.agent.distill"),
    ("edge_agent.evaluation.checker.verdict", "edge_agent.evaluation.audit"),
    ("edge_agent.evaluation.runner", "edge_agent.app"),
    ("edge_agent.evaluation.truth", "edge_agent.skyspark.client"),
}


@dataclass(frozen=True)
class Import:
    module: str  # the importing module
    target: str  # the imported module (for `from X import name`: X, or X.name where that is a module)
    path: Path
    line: int
    late: bool  # inside a function

    def where(self) -> str:
        return f"{self.path.relative_to(PROJECT_ROOT)}:{self.line}"


def module_name(path: Path) -> str:
    parts = path.relative_to(PROJECT_ROOT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def modules() -> dict[str, Path]:
    return {module_name(p): p for p in sorted(PACKAGE.rglob("*.py"))}


def _resolve(module: str, path: Path, node: ast.ImportFrom) -> str:
    if not node.level:
        return node.module or ""
    package = module.split(".") if path.name == "__init__.py" else module.split(".")[:-1]
    base = package[: len(package) - node.level + 1]
    return ".".join(base + ([node.module] if node.module else []))


def imports_of(module: str, path: Path, known: dict[str, Path], source: str | None = None) -> list[Import]:
    """Every import of an edge_agent module in `path` (or in `source`, as if it were there), with whether it sits
    inside a function."""
    found: list[Import] = []

    def visit(node: ast.AST, late: bool) -> None:
        for child in ast.iter_child_nodes(node):
            inner = late or isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda))
            targets: list[str] = []
            if isinstance(child, ast.Import):
                targets = [a.name for a in child.names]
            elif isinstance(child, ast.ImportFrom):
                base = _resolve(module, path, child)
                targets = [f"{base}.{a.name}" if f"{base}.{a.name}" in known else base for a in child.names]
            for target in dict.fromkeys(targets):
                if target == "edge_agent" or target.startswith("edge_agent."):
                    found.append(Import(module, target, path, child.lineno, late))
            visit(child, inner)

    text = source if source is not None else path.read_text(encoding="utf-8")
    visit(ast.parse(text, str(path)), False)
    return found


def all_imports() -> list[Import]:
    known = modules()
    return [imp for name, path in known.items() for imp in imports_of(name, path, known)]


def unit_of(module: str) -> tuple[int, str]:
    """(layer index, unit) of a module: the longest unit prefix it falls under."""
    best: tuple[int, str] | None = None
    for index, layer in enumerate(LAYERS):
        for unit in layer.units:
            if (module == unit or module.startswith(unit + ".")) and (best is None or len(unit) > len(best[1])):
                best = (index, unit)
    if best is None:
        raise LookupError(module)
    return best


def test_every_module_has_a_floor():
    homeless = [name for name in modules() if _safe_unit(name) is None]
    assert not homeless, f"modules on no floor (add them to LAYERS and docs/architecture.md): {homeless}"


def _safe_unit(module: str) -> tuple[int, str] | None:
    try:
        return unit_of(module)
    except LookupError:
        return None


def test_no_import_runs_up_the_floors():
    upward = []
    for imp in all_imports():
        low, high = unit_of(imp.module)[0], unit_of(imp.target)[0]
        if high > low:
            upward.append(
                f"{imp.where()}: {imp.module} ({LAYERS[low].name}) imports {imp.target} ({LAYERS[high].name})"
            )
    assert not upward, "imports from a lower floor to a higher one:\n" + "\n".join(upward)


def test_independent_units_of_a_floor_do_not_import_each_other():
    sideways = []
    for imp in all_imports():
        (layer, unit), (target_layer, target_unit) = unit_of(imp.module), unit_of(imp.target)
        if layer == target_layer and unit != target_unit and LAYERS[layer].independent:
            sideways.append(f"{imp.where()}: {imp.module} imports {imp.target} (both on '{LAYERS[layer].name}')")
    assert not sideways, "imports between independent units of one floor:\n" + "\n".join(sideways)


def import_circles(imports: list[Import]) -> list[list[str]]:
    """The circles of the import graph: each set of two or more modules that reach each other through imports
    (a strongly connected component, Tarjan's), sorted."""
    graph: dict[str, set[str]] = {}
    for imp in imports:
        graph.setdefault(imp.module, set()).add(imp.target)
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    circles = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        for w in sorted(graph.get(v, ())):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            part = []
            while True:
                w = stack.pop()
                part.append(w)
                if w == v:
                    break
            if len(part) > 1:
                circles.append(sorted(part))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return sorted(circles)


def test_no_modules_import_each_other_in_a_circle():
    """A reader can take the modules one at a time from the bottom: no module reaches itself through imports (those
    under TYPE_CHECKING too). A unit that needs something of the one above it is handed a value or a narrow
    interface (mqtt/: `IntakeGateway`, `WorkerGateway`), not the module."""
    imports = all_imports()
    circles = [
        c
        for c in import_circles(imports)
        if not any(all(m == p or m.startswith(p + ".") for m in c) for p in CIRCLES_ALLOWED_IN)
    ]
    described = []
    for circle in circles:
        inside = [i for i in imports if i.module in circle and i.target in circle]
        described.append(
            " ↔ ".join(circle) + "\n" + "\n".join(f"    {i.where()}: {i.module} imports {i.target}" for i in inside)
        )
    assert not circles, "modules importing each other in a circle:\n" + "\n".join(described)


def test_the_circle_check_sees_a_circle_through_type_checking():
    """The check above finds a circle closed by an import under TYPE_CHECKING (the kind mqtt/ had)."""
    known = modules()
    service = "from edge_agent.mqtt.intake import Intake\n"
    intake = (
        "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from edge_agent.mqtt.service import GatewayService\n"
    )
    found = imports_of("edge_agent.mqtt.service", PACKAGE / "mqtt" / "service.py", known, service) + imports_of(
        "edge_agent.mqtt.intake", PACKAGE / "mqtt" / "intake.py", known, intake
    )
    assert import_circles(found) == [["edge_agent.mqtt.intake", "edge_agent.mqtt.service"]]


def test_no_late_import_of_the_project_outside_the_commands():
    late = {}
    for imp in all_imports():
        if imp.late and not any(imp.module == p or imp.module.startswith(p + ".") for p in LATE_IMPORTS_ALLOWED):
            late.setdefault((imp.module, imp.target), imp.where())
    new = sorted(
        f"{where}: {module} imports {target} inside a function"
        for (module, target), where in late.items()
        if (module, target) not in KNOWN_LATE_IMPORTS
    )
    gone = sorted(f"{module} → {target}" for module, target in KNOWN_LATE_IMPORTS - set(late))
    assert not new, "imports inside functions (move them to the top of the module):\n" + "\n".join(new)
    assert not gone, "KNOWN_LATE_IMPORTS lists imports that are gone (delete them from the list): " + ", ".join(gone)


def test_no_project_import_is_guarded_by_import_error():
    guarded = []
    for name, path in modules().items():
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not isinstance(node, ast.Try):
                continue
            caught = (
                {n.id for h in node.handlers for n in ast.walk(h.type) if isinstance(n, ast.Name)}
                if any(h.type is not None for h in node.handlers)
                else set()
            )
            if not caught & {"ImportError", "ModuleNotFoundError"}:
                continue
            for inner in node.body:
                for sub in ast.walk(inner):
                    mod = (
                        sub.module
                        if isinstance(sub, ast.ImportFrom)
                        else sub.names[0].name
                        if isinstance(sub, ast.Import)
                        else None
                    )
                    if mod and (
                        mod == "edge_agent"
                        or mod.startswith("edge_agent.")
                        or (isinstance(sub, ast.ImportFrom) and sub.level)
                    ):
                        guarded.append(f"{path.relative_to(PROJECT_ROOT)}:{sub.lineno}: {name} imports {mod}")
    assert not guarded, "the project's own modules imported under `except ImportError`:\n" + "\n".join(guarded)


def test_the_walk_sees_imports_inside_functions_relative_ones_and_modules_from_packages():
    """The checks above are only as good as the walk: it must see an import inside a method, a relative one, and
    `from package import module`."""
    source = (
        "from . import steps\n"
        "from ..llm import base\n"
        "def f():\n"
        "    class C:\n"
        "        def g(self):\n"
        "            from edge_agent.mqtt import service\n"
    )
    found = imports_of("edge_agent.agent.probe", PACKAGE / "agent" / "probe.py", modules(), source)
    assert [(i.target, i.late) for i in found] == [
        ("edge_agent.agent.steps", False),
        ("edge_agent.llm.base", False),
        ("edge_agent.mqtt.service", True),
    ]
    assert unit_of("edge_agent.mqtt.service")[0] > unit_of("edge_agent.agent.probe")[0]


def test_docs_draw_the_same_floors():
    """docs/architecture.md names every floor and every unit on it, so the picture cannot drift from LAYERS."""
    doc = (PROJECT_ROOT / "docs" / "architecture.md").read_text(encoding="utf-8")
    absent = []
    for layer in LAYERS:
        if f" {layer.name} " not in doc:
            absent.append(f"floor {layer.name}")
        for unit in layer.units[1:] if layer.name == "package" else layer.units:
            tail = unit.split(".")[-1]
            path = f"{tail}/" if (PACKAGE / tail).is_dir() and unit.count(".") == 1 else f"{tail}.py"
            if path not in doc:
                absent.append(f"{unit} ({path})")
    assert not absent, "docs/architecture.md lacks: " + ", ".join(absent)
