"""Tools: what a tool is, the context it runs in, and the registry that loads them as plugins.

A tool has a name, a one-sentence verb-first description, a pydantic argument model and a run
function `fn(args, ctx) -> str` that returns a short observation, or a `Said` that also carries what a
Finish answer states of the call (written by code from the result, so the model need not copy it). Raising
`ToolError` (or `FileStoreError`) produces an error observation the model can act on; any other exception is
reported as a failure of the tool, never a crash of the agent — except what no model can work around
(`edge_agent.failures.ExternalFailure`: the SkySpark unreachable, a full disk), which ends the run, and a
cancel (`Interrupted`).

Where tools live: the built-in ones — `Finish`, `Self-Ask` and `agentask` (asking the requester) — are defined
here (`BUILTIN_TOOLS`, `AGENT_ASK_TOOL`) and the runtime executes them itself. Every other tool is a plugin, loaded
by path from the plugin folder (`paths.plugins_dir`, the project's `plugins/`: the IoT, analysis, JSON-file and
clock tools ship there, one module per family): every module-level `Tool` object in it (most easily made with the
`@tool` decorator) becomes available. A site integrator adds a tool by dropping a module there.
"""

from __future__ import annotations

import importlib.util
import inspect
import itertools
import json
import sys
import threading
import typing
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, ValidationError
from pydantic.json_schema import JsonDict

from edge_agent.clock import Clock
from edge_agent.failures import ExternalFailure, Interrupted, disk_full
from edge_agent.filestore import FileStore, FileStoreError

FINISH = "Finish"
SELF_ASK = "Self-Ask"
ASK_REQUESTER = "agentask"


class ToolError(Exception):
    """An expected failure (bad name, bad date, no data) explained in words for the model."""


class ToolLoadError(Exception):
    """A plugin module, or a tool in it, could not be loaded; the message names the file or the tool."""


#: Marks an argument that names a file of the run's file store: `Field(..., json_schema_extra=FILE_REF)`.
#: The step constraint then only lets the model write the names of files that exist (see `Tool.schema`).
FILE_REF: JsonDict = {"x-file-ref": True}
#: Mark arguments that name a site, an asset (or a list of assets) or a sensor on the SkySpark, and the start
#: and end of a period: the step constraint then only lets the model write names that exist there (and the
#: period worked out from the question), see `edge_agent.grounding.scope`.
SITE_REF: JsonDict = {"x-catalog": "site"}
ASSET_REF: JsonDict = {"x-catalog": "asset"}
SENSOR_REF: JsonDict = {"x-catalog": "sensor"}
#: a kind of equipment (a Haystack equip marker: chiller, ahu, meter, …)
TYPE_REF: JsonDict = {"x-catalog": "asset_type"}
START_REF: JsonDict = {"x-period": "start"}
FINAL_REF: JsonDict = {"x-period": "final"}


class ToolArgs(BaseModel):
    """Base of every argument model: unknown keys are refused, so a hallucinated parameter fails."""

    model_config = ConfigDict(extra="forbid")


class NoArgs(ToolArgs):
    """A tool that takes no arguments."""


class FinishArgs(ToolArgs):
    answer: str = Field(..., min_length=1, description="the final answer for the person who asked")


class SelfAskArgs(ToolArgs):
    question: str = Field(..., min_length=1, description="a question to answer by reasoning, not by a tool")


class AgentAskArgs(ToolArgs):
    question: str = Field(..., min_length=1, description="one clarifying question for the person who asked")


@dataclass
class ToolContext:
    """What a tool may use. `skyspark` is created lazily by `skyspark_factory` on first use."""

    files: FileStore
    clock: Clock
    settings: Any = None
    skyspark_factory: Callable[[], Any] | None = None
    ask_requester: Callable[[str], str | None] | None = None
    cancel: threading.Event = field(default_factory=threading.Event)
    #: the question being answered: a tool may order what it reports by it (e.g. the statistic asked for first)
    question: str = ""
    #: the format result files take beside their JSON (`tabular.format_asked`): "csv" also writes a CSV copy
    file_format: str = "json"
    _skyspark: Any = None

    @property
    def skyspark(self) -> Any:
        if self._skyspark is None:
            if self.skyspark_factory is None:
                raise ToolError("SkySpark is not configured on this gateway")
            self._skyspark = self.skyspark_factory()
            if hasattr(self._skyspark, "interrupt"):  # the run's cancel stops a SkySpark call under way
                self._skyspark.interrupt = self.cancel
        return self._skyspark


@dataclass(frozen=True)
class Said:
    """A tool's reply: the Observation the model reads, and `answer`, the sentence a Finish answer states
    of this call ("Chiller 9 % Loaded (%): max 76.78 at …; saved to F") — the runtime makes a Finish answer
    start with it where the question asks for what the call returned (`grounding.run.Grounding.heads`)."""

    observation: str
    answer: str = ""


class ToolResult(BaseModel):
    observation: str
    answer: str = ""  # see `Said`
    ok: bool = True


@dataclass
class Tool:
    name: str
    description: str
    args_model: type[ToolArgs] = NoArgs
    fn: Callable[[Any, ToolContext], str] | None = None
    builtin: bool = False
    #: what a call of this tool finds out: once the question's grounding knows all of it, the tool is not
    #: offered (e.g. `sites` provides "site", so it is not offered when the question names a site). Known
    #: words: see `edge_agent.grounding.run.Grounding.known`
    provides: tuple[str, ...] = ()
    #: what the grounding must know before the tool is offered (e.g. `histories` needs the "period")
    needs: tuple[str, ...] = ()
    #: its calls are the answer: while the grounding pins every argument of some calls not made yet,
    #: Finish is held back (e.g. `histories` for each sensor the question names)
    answers: bool = False

    def parse_args(self, raw: Any) -> ToolArgs:
        """Validate raw arguments; raises ToolError with a sentence the model can act on."""
        if raw is None:
            raw = {}
        if not isinstance(raw, dict):
            raise ToolError(f"{self.name} takes a JSON object of arguments {self.signature()}")
        try:
            return self.args_model.model_validate(raw)
        except ValidationError as exc:
            problems = "; ".join(
                f"{'.'.join(str(p) for p in e['loc']) or 'arguments'}: {e['msg']}" for e in exc.errors()
            )
            raise ToolError(f"invalid arguments for {self.name} ({problems}); expected {self.signature()}") from None

    def run(self, raw_args: Any, ctx: ToolContext) -> ToolResult:
        if self.fn is None:
            raise RuntimeError(f"{self.name} is executed by the agent runtime")
        try:
            args = self.parse_args(raw_args)
            out = self.fn(args, ctx)
            if isinstance(out, Said):
                return ToolResult(observation=out.observation, answer=out.answer)
            return ToolResult(observation=str(out))
        except (ToolError, FileStoreError) as exc:
            return ToolResult(observation=f"Error: {exc}", ok=False)
        except (ExternalFailure, Interrupted):  # the run ends (failed / cancelled): nothing for the model to do
            raise
        except Exception as exc:  # a broken tool must not crash the agent
            full = disk_full(exc)
            if full is not None:  # the file store could not be written
                raise full from None
            return ToolResult(observation=f"Error: tool {self.name} failed: {type(exc).__name__}: {exc}", ok=False)

    def schema(self, files: typing.Sequence[str] | None = None, scope: Any = None) -> dict | None:
        """The arguments' JSON schema; with `files`, each FILE_REF argument becomes an enum of them; with
        `scope` (`edge_agent.grounding.scope.Scope`), site/asset/sensor/period arguments are limited to it.
        None when no call of this tool can be written in that scope. Arguments marked `x-hidden` are code's to set
        (from the question's form, `Grounding.complete_call`): the model never writes them."""
        schema = self.args_model.model_json_schema()
        hidden = [k for k, v in schema.get("properties", {}).items() if v.get("x-hidden")]
        for name in hidden:
            del schema["properties"][name]
        if hidden and "required" in schema:
            schema["required"] = [r for r in schema["required"] if r not in hidden]
        if files is not None:
            file_args = self.file_args()
            for name in file_args:
                prop = schema["properties"][name]
                schema["properties"][name] = {k: v for k, v in prop.items() if k not in ("type", "x-file-ref")}
                schema["properties"][name]["enum"] = list(files)
            if len(file_args) > 1:
                distinct = _distinct_files(schema, file_args, list(files))
                if distinct is None:
                    return None
                schema = distinct
        if scope is not None:
            return scope.constrain(schema)
        return schema

    def file_args(self) -> list[str]:
        """The arguments that must name an existing file of the run (marked with FILE_REF)."""
        props = self.args_model.model_json_schema().get("properties", {})
        return [k for k, v in props.items() if v.get("x-file-ref")]

    def signature(self) -> str:
        """A compact argument example such as {"site_name": "<string>"} for prompts and errors."""
        props = (self.schema() or {}).get("properties", {})  # None only with files or a scope
        sample = {k: f"<{v.get('type', 'value')}>" for k, v in props.items()}
        return json.dumps(sample)

    def describe(self) -> str:
        return f"{self.name}: {self.description} Arguments: {self.signature()}"


def _distinct_files(schema: dict, names: list[str], files: list[str], most: int = 64) -> dict | None:
    """Several file arguments of one call name different files (merging a file with itself is no work):
    the pairs as an `anyOf`, when there are few; None when there are not enough files."""
    if len(files) < len(names):
        return None
    combos = list(itertools.permutations(files, len(names)))
    if len(combos) > most:
        return schema
    branches = []
    for combo in combos:
        branch = json.loads(json.dumps(schema))
        for name, value in zip(names, combo):
            branch["properties"][name] = {**branch["properties"][name], "enum": [value]}
        branches.append(branch)
    return branches[0] if len(branches) == 1 else {"anyOf": branches}


BUILTIN_TOOLS = [
    Tool(FINISH, "End the task and give the final answer to the person who asked.", FinishArgs, builtin=True),
    Tool(
        SELF_ASK,
        "Ask yourself a sub-question (date arithmetic, choosing a name from a list) and get a reasoned answer.",
        SelfAskArgs,
        builtin=True,
        provides=("linking",),  # dates and names are worked out in code once the catalog is read
    ),
]

AGENT_ASK_TOOL = Tool(
    ASK_REQUESTER,
    "Ask the person who sent the question one clarifying question and wait for the reply.",
    AgentAskArgs,
    builtin=True,
)


def tool(
    name: str,
    description: str,
    args: type[ToolArgs] | None = None,
    *,
    provides: tuple[str, ...] = (),
    needs: tuple[str, ...] = (),
    answers: bool = False,
) -> Callable[[Callable], Tool]:
    """Decorator: `@tool("sites", "List the sites ...", provides=("site",))` over `def fn(args, ctx) -> str`.

    The argument model is `args`, else the annotation of `fn`'s first parameter (resolved where it is a string,
    as under `from __future__ import annotations`), else `NoArgs` when that parameter has no annotation. An
    annotation that does not resolve, or resolves to anything but a `ToolArgs` model, raises `ToolLoadError`
    naming the tool when the module is imported: a tool silently offered with no arguments would be worse."""

    def wrap(fn: Callable) -> Tool:
        model = args if args is not None else _args_model(name, fn)
        if not (isinstance(model, type) and issubclass(model, ToolArgs)):
            raise ToolLoadError(f"tool {name!r}: args={model!r} is not a ToolArgs model")
        return Tool(
            name=name, description=description, args_model=model, fn=fn, provides=provides, needs=needs, answers=answers
        )

    return wrap


def _args_model(name: str, fn: Callable) -> type[ToolArgs]:
    """The argument model `fn(args, ctx)` declares by its first parameter's annotation (see `tool`)."""
    params = list(inspect.signature(fn).parameters.values())
    if not params:
        raise ToolLoadError(f"tool {name!r}: {fn.__qualname__} takes no parameters; a tool is fn(args, ctx)")
    first = params[0]
    hint = first.annotation
    if hint is inspect.Parameter.empty:
        return NoArgs
    if isinstance(hint, str):  # `from __future__ import annotations`: resolve the name
        try:
            hint = typing.get_type_hints(fn)[first.name]
        except Exception as exc:  # NameError, or anything evaluating the annotation raised
            raise ToolLoadError(
                f"tool {name!r}: the annotation {first.annotation!r} of {fn.__qualname__}'s "
                f"parameter {first.name!r} does not resolve ({type(exc).__name__}: {exc})"
            ) from None
    if not (isinstance(hint, type) and issubclass(hint, ToolArgs)):
        raise ToolLoadError(
            f"tool {name!r}: {fn.__qualname__}'s parameter {first.name!r} is annotated {hint!r}, "
            f"which is not a ToolArgs model (subclass ToolArgs, or use NoArgs)"
        )
    return hint


class ToolRegistry:
    """The tools the agent may call, in a stable order (built-ins last)."""

    def __init__(self, tools: list[Tool] | None = None, builtins: bool = True):
        self._tools: dict[str, Tool] = {}
        for t in tools or []:
            self.register(t)
        if builtins:
            for t in BUILTIN_TOOLS:
                self.register(t)

    def register(self, t: Tool) -> None:
        if t.name in self._tools:
            raise ToolLoadError(f"two tools are named {t.name!r}")
        self._tools[t.name] = t

    @classmethod
    def from_dir(cls, folder: Path, builtins: bool = True, only: list[str] | None = None) -> ToolRegistry:
        """Load every `*.py` in `folder` (sorted by name) and register its Tool objects; a folder that is not there
        is an error (a wrong `paths.plugins_dir` would leave the agent with the built-ins only)."""
        if not Path(folder).is_dir():
            raise ToolLoadError(f"{folder}: the plugin folder is not there (paths.plugins_dir)")
        tools: list[Tool] = []
        for path in sorted(Path(folder).glob("*.py")):
            if path.name.startswith("_"):
                continue
            tools.extend(load_tools_from_file(path))
        if only is not None:
            tools = [t for t in tools if t.name in only]
        return cls(tools, builtins=builtins)

    def get(self, name: str) -> Tool | None:
        return self._tools.get(name)

    def __contains__(self, name: str) -> bool:
        return name in self._tools

    def __iter__(self):
        return iter(self._tools.values())

    def __len__(self) -> int:
        return len(self._tools)

    @property
    def names(self) -> list[str]:
        return list(self._tools)

    def describe(self) -> str:
        return "\n".join(f"- {t.describe()}" for t in self)

    def without(self, names: typing.Iterable[str]) -> ToolRegistry:
        """A copy without the tools named (e.g. the analysis tools where no conclusion is asked for)."""
        drop = set(names)
        return ToolRegistry([t for t in self if t.name not in drop], builtins=False)

    def with_tool(self, extra: Tool) -> ToolRegistry:
        """A copy with one more tool (e.g. `agentask` when a requester can be asked)."""
        reg = ToolRegistry(list(self), builtins=False)
        if extra.name not in reg:
            reg.register(extra)
        return reg


def load_tools_from_file(path: Path) -> list[Tool]:
    module_name = f"edge_agent_tools_{path.stem}"
    spec = importlib.util.spec_from_file_location(module_name, path)
    if spec is None or spec.loader is None:
        raise ToolLoadError(f"{path}: not a Python module")
    module = importlib.util.module_from_spec(spec)
    sys.modules[module_name] = module
    try:
        spec.loader.exec_module(module)
    except Exception as exc:
        raise ToolLoadError(f"{path}: failed to load: {type(exc).__name__}: {exc}") from exc
    return [v for v in vars(module).values() if isinstance(v, Tool)]
