"""The Tiny Trajectory Store (TTS): short worked examples (1–3 steps) placed in the ReAct prompt.

Two sources:

* hand-crafted YAML files under `tts/{tool,entity,workflow}/` (one trajectory per file), validated
  at load against the live tool registry: an unknown tool, invalid arguments, a missing
  Observation or more than three steps is a `TrajectoryLoadError` naming the file;
* trajectories the system generated from its own solved tasks (Algorithm 2, `edge_agent.tts_autogen`),
  kept with their provenance in the state database's `tts_generated` table.

`render_for(question, llm)` fills `agent.examples_token_budget`: first the *core* examples (marked
`core: true`, the same for every question), then one *group* of examples: the group of the example most
relevant to the question (SQLite FTS5, BM25; the largest group when none is). A group (`group:` in the
YAML; a generated trajectory takes the group of the hand-crafted example nearest its question, else
`generated`) is the examples of one kind of question
(names, dates, readings, files), always rendered alike: its members in a fixed order, fitted to the budget
in a fixed order. So the prompt prefix up to the end of the core block is byte-identical for every
question, and up to the end of the examples for every question of one kind: llama.cpp's saved KV state of
each is evaluated once per model, not once per question (issue 10: the question-specific examples were
most of what a question evaluated). An example without a group is a group of its own.
"""

from __future__ import annotations

import json
import re
import sqlite3
import time
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any, Literal

import yaml
from pydantic import BaseModel, ConfigDict, Field, ValidationError

from edge_agent.agent.steps import render_step
from edge_agent.config import AgentSettings, load_yaml
from edge_agent.grounding.question import asks_conclusion
from edge_agent.runlog import open_db
from edge_agent.toolkit import FINISH, ToolError, ToolRegistry

MAX_STEPS = 3
CATEGORIES = ("tool", "entity", "workflow")
Category = Literal["tool", "entity", "workflow", "generated"]
SEPARATOR = "\n\n"
GENERATED_TABLE = "tts_generated"

_STOPWORDS = frozenset(
    "a an and are as at be by can do does for from get give how i in is it its me my of on or please show "
    "that the this to was what when where which who with you your".split()
)


#: the group of the analysis tools' examples (rank, derive, excursions): shown only where a conclusion is asked for
CONCLUSIONS = "conclusions"


class TrajectoryLoadError(ValueError):
    """A trajectory is malformed or does not fit the tool registry; the message names its file."""


class TTSStep(BaseModel):
    model_config = ConfigDict(extra="forbid")

    thought: str = Field(..., min_length=1, max_length=400)
    action: str = Field(..., min_length=1)
    action_input: dict[str, Any] = Field(default_factory=dict)
    observation: str | None = Field(None, max_length=1200)


class TinyTrajectory(BaseModel):
    """One example. `id` is `<category>/<file stem>` for hand-crafted files, `gen/<n>` for generated ones."""

    model_config = ConfigDict(extra="forbid")

    question: str = Field(..., min_length=1, max_length=600)
    steps: list[TTSStep] = Field(..., min_length=1, max_length=MAX_STEPS)
    teaches: str = Field("", description="what the example is for (not shown to the model)")
    core: bool = Field(False, description="shown for every question, first (a shared, cacheable prefix)")
    group: str = Field(
        "",
        max_length=40,
        description="the kind of question it shows how to answer; shown "
        "with the rest of its group (one cacheable prefix per group); empty: a group of its own",
    )
    id: str = ""
    category: Category = "tool"
    source: str = ""  # the YAML path, or the provenance of a generated trajectory

    def render(self) -> str:
        """The example exactly as the scratchpad writes steps (`render_step`), after its question."""
        body = "".join(render_step(s.thought, s.action, s.action_input, s.observation) for s in self.steps)
        return f"Question: {self.question.strip()}\n{body}".rstrip("\n")

    @property
    def group_key(self) -> str:
        return self.group or self.id

    def search_text(self) -> str:
        parts = [self.question, self.teaches]
        for s in self.steps:
            parts += [s.thought, s.action, " ".join(str(v) for v in _flatten(s.action_input))]
        return " ".join(parts)


def _flatten(value: Any) -> Iterable[Any]:
    if isinstance(value, dict):
        for v in value.values():
            yield from _flatten(v)
    elif isinstance(value, list):
        for v in value:
            yield from _flatten(v)
    else:
        yield value


def validate_trajectory(traj: TinyTrajectory, tools: ToolRegistry, where: str) -> None:
    """Check every step against the registry; raise TrajectoryLoadError naming `where`."""
    last = len(traj.steps)
    for n, step in enumerate(traj.steps, start=1):
        tool = tools.get(step.action)
        if tool is None:
            raise TrajectoryLoadError(
                f"{where}: step {n}: unknown tool {step.action!r}; the tools are {', '.join(tools.names)}"
            )
        try:
            tool.parse_args(step.action_input)
        except ToolError as exc:
            raise TrajectoryLoadError(f"{where}: step {n}: {exc}") from None
        if step.action == FINISH:
            if n != last:
                raise TrajectoryLoadError(f"{where}: step {n}: Finish must be the last step")
            if step.observation is not None:
                raise TrajectoryLoadError(f"{where}: step {n}: a Finish step has no Observation")
        elif not (step.observation or "").strip():
            raise TrajectoryLoadError(f"{where}: step {n}: a {step.action} step needs its Observation")


def load_trajectory_file(path: Path, tools: ToolRegistry, root: Path | None = None) -> TinyTrajectory:
    """Read and validate one hand-crafted YAML trajectory."""
    path = Path(path)
    rel = path.relative_to(root) if root is not None else Path(path.parent.name) / path.name
    category = rel.parts[0] if len(rel.parts) > 1 else "tool"
    if category not in CATEGORIES:
        raise TrajectoryLoadError(f"{path}: trajectories live in {', '.join(CATEGORIES)}/, not {category}/")
    try:
        data = load_yaml(path.read_text(encoding="utf-8"))
    except (OSError, yaml.YAMLError) as exc:
        raise TrajectoryLoadError(f"{path}: cannot read YAML: {exc}") from None
    if not isinstance(data, dict):
        raise TrajectoryLoadError(f"{path}: the file must hold a mapping with question and steps")
    for key in ("id", "category", "source"):
        data.pop(key, None)
    try:
        traj = TinyTrajectory.model_validate(data)
    except ValidationError as exc:
        first = exc.errors()[0]
        loc = ".".join(str(p) for p in first["loc"]) or "file"
        raise TrajectoryLoadError(f"{path}: {loc}: {first['msg']}") from None
    traj = traj.model_copy(update={"id": f"{category}/{rel.stem}", "category": category, "source": str(path)})
    validate_trajectory(traj, tools, str(path))
    return traj


def load_handcrafted(folder: Path, tools: ToolRegistry) -> list[TinyTrajectory]:
    """Every `*.yaml` under `folder/{tool,entity,workflow}/`, sorted by id."""
    folder = Path(folder)
    out = [load_trajectory_file(p, tools, folder) for p in sorted(folder.glob("*/*.yaml"))]
    return sorted(out, key=lambda t: t.id)


def kind_words(question: str) -> str:
    """The question without what is spelt like a name: words with a digit or an underscore (B705,
    Chiller 6's "6", B020_Total, 2022-07-20) and words in capitals (site codes, AHU). Left: what is asked
    ("how many sensors", "peak", "last week", "in one file"), whatever the plant's naming style."""
    return " ".join(
        w
        for w in re.findall(r"[^\W_]+(?:[_'][^\W_]+)*%?|%", question)
        if not (any(ch.isdigit() for ch in w) or "_" in w or (len(w) > 1 and w.isupper()))
    )


def _fts_query(question: str) -> str | None:
    words = []
    for w in re.findall(r"[A-Za-z0-9]+", question.lower()):
        if len(w) > 1 and w not in _STOPWORDS and w not in words:
            words.append(w)
    return " OR ".join(f'"{w}"' for w in words[:40]) or None


class TrajectoryStore:
    """Hand-crafted and generated trajectories, with relevance search and budgeted rendering."""

    def __init__(
        self,
        trajectories: list[TinyTrajectory],
        db_path: Path | None = None,
        tools: ToolRegistry | None = None,
        budget: int | None = None,
        grouped: bool = True,
    ):
        self.db_path = db_path
        self.budget = budget
        self.grouped = grouped  # False: the core examples only (`agent.examples: core`)
        self.tools = tools
        self._items: dict[str, TinyTrajectory] = {}
        self._token_cache: dict[tuple[str, str], int] = {}
        self._fts = sqlite3.connect(":memory:", check_same_thread=False)
        self._fts.execute("CREATE VIRTUAL TABLE ex USING fts5(id UNINDEXED, body, tokenize='porter unicode61')")
        for t in trajectories:
            self._index(t)

    # --- building ---------------------------------------------------------------------------
    @classmethod
    def open(
        cls, settings, tools: ToolRegistry, *, handcrafted: bool = True, generated: bool = True
    ) -> TrajectoryStore:
        """Load `settings.paths.tts_dir` (validated against `tools`) and the generated trajectories."""
        items = load_handcrafted(settings.resolve(settings.paths.tts_dir), tools) if handcrafted else []
        db_path = settings.db_path
        if generated:
            items += load_generated(db_path, tools)
        return cls(
            items,
            db_path=db_path,
            tools=tools,
            budget=settings.agent.examples_token_budget,
            grouped=settings.agent.examples == "grouped",
        )

    def _index(self, traj: TinyTrajectory) -> None:
        if traj.id in self._items:
            raise TrajectoryLoadError(f"{traj.source or traj.id}: a trajectory with id {traj.id} is already loaded")
        self._items[traj.id] = traj
        if traj.category != "generated":  # groups are chosen by the hand-crafted examples alone: a solved task
            self._fts.execute("INSERT INTO ex (id, body) VALUES (?, ?)", (traj.id, traj.search_text()))  # moves none

    def add_generated(self, traj: TinyTrajectory, provenance: dict[str, Any]) -> TinyTrajectory:
        """Validate, persist (with provenance) and index a generated trajectory; returns it with its id."""
        if self.tools is not None:
            validate_trajectory(traj, self.tools, "generated trajectory")
        if self.db_path is None:
            raise RuntimeError("this store has no database to keep generated trajectories in")
        db = open_db(self.db_path)
        table = db.table(GENERATED_TABLE)
        # it joins the group of the hand-crafted example nearest its question, else that of generated ones
        group = traj.group or self._nearest_group(traj.question, handcrafted=True) or "generated"
        row = {
            "question": traj.question,
            "example_group": group,
            "steps": json.dumps([s.model_dump() for s in traj.steps]),
            "teaches": traj.teaches,
            "created": time.strftime("%Y-%m-%dT%H:%M:%S%z"),
            **{k: provenance.get(k) for k in ("task_id", "model", "round", "run_id", "strategy")},
        }
        table.insert(row, pk="id", alter=True)
        new_id = table.last_pk
        source = json.dumps(
            {k: v for k, v in row.items() if k not in ("question", "steps", "teaches", "example_group")}
        )
        stored = traj.model_copy(
            update={"id": f"gen/{new_id}", "category": "generated", "source": source, "group": group}
        )
        self._index(stored)
        return stored

    # --- reading ----------------------------------------------------------------------------
    def __len__(self) -> int:
        return len(self._items)

    def all(self) -> list[TinyTrajectory]:
        return sorted(self._items.values(), key=_order_key)

    def get(self, traj_id: str) -> TinyTrajectory | None:
        return self._items.get(traj_id)

    def _hits(self, question: str) -> list[str]:
        """Ids of the trajectories that share a word of the question's kind with it, most relevant
        (BM25) first. Names are left out (`kind_words`): which site or asset is asked about says nothing
        of the kind of question, and a name that happens to be in an example would pick its group."""
        query = _fts_query(kind_words(question))
        if not query:
            return []
        rows = self._fts.execute("SELECT id FROM ex WHERE ex MATCH ? ORDER BY bm25(ex), id", (query,))
        return [r[0] for r in rows]

    def _nearest_group(self, question: str, *, handcrafted: bool = False) -> str | None:
        """The group of the non-core example (hand-crafted only, if asked) most relevant to `question`; the
        `conclusions` group (the analysis tools' examples) exactly for questions asking for a conclusion
        (`grounding.question.asks_conclusion`), so a question for figures is never shown a ranking instead."""
        wants = asks_conclusion(question)
        for traj_id in self._hits(question):
            traj = self._items[traj_id]
            if (
                not traj.core
                and not (handcrafted and traj.category == "generated")
                and (traj.group_key == CONCLUSIONS) == wants
            ):
                return traj.group_key
        return CONCLUSIONS if wants and any(t.group_key == CONCLUSIONS for t in self._items.values()) else None

    def group_for(self, question: str) -> str | None:
        """The group of the hand-crafted non-core example most relevant to `question` (as a generated example's
        group is chosen, so a generated example never moves its own question to another group); when none shares a
        word with it, the largest group (the first by order on a tie); None when there are only core examples."""
        nearest = self._nearest_group(question, handcrafted=True)  # generated examples never move a question
        if nearest is not None:
            return nearest
        sizes: dict[str, int] = {}
        for traj in self.all():
            if not traj.core and traj.group_key != CONCLUSIONS:
                sizes[traj.group_key] = sizes.get(traj.group_key, 0) + 1
        return max(sizes, key=lambda g: sizes[g]) if sizes else None  # max keeps the first of equals

    def members(self, group: str) -> list[TinyTrajectory]:
        """A group's non-core examples in the order they claim room: generated ones (this plant's own
        solved tasks, newest first), then hand-crafted ones by id."""
        items = [t for t in self._items.values() if t.group_key == group and not t.core]
        generated = sorted((t for t in items if t.category == "generated"), key=_order_key, reverse=True)
        return generated + sorted((t for t in items if t.category != "generated"), key=_order_key)

    def select(
        self, question: str, budget: int, count_tokens: Callable[[str], int], *, cache_key: str | None = None
    ) -> list[TinyTrajectory]:
        """The core examples, then the question's group (`group_for`), as many as fit in `budget` tokens
        (each list in its fixed order), rendered in stable (id) order. The result depends on the
        question only through its group, so questions of one kind share the whole examples text.

        `cache_key` (the model name) lets per-example token counts be remembered between requests."""
        if budget <= 0:
            return []
        sep = count_tokens(SEPARATOR) if SEPARATOR.strip() else 1
        chosen: list[TinyTrajectory] = []
        used = 0
        group = self.group_for(question) if self.grouped else None
        candidates = [t for t in self.all() if t.core] + (self.members(group) if group is not None else [])
        for traj in candidates:
            cost = self._tokens(traj, count_tokens, cache_key) + (sep if chosen else 0)
            if used + cost <= budget:
                chosen.append(traj)
                used += cost
        # Token counts of pieces need not add up exactly; check the joined text and trim if needed.
        while chosen and count_tokens(self._join(chosen)) > budget:
            chosen.pop()
        return sorted(chosen, key=_order_key)

    def render_for(self, question: str, llm, budget: int | None = None) -> str:
        """The examples text for the prompt's stable prefix (empty when nothing fits)."""
        if budget is None:
            budget = self.budget if self.budget is not None else _default_budget()
        return self._join(self.select(question, budget, llm.count_tokens, cache_key=getattr(llm, "model_name", None)))

    def render_core(self, llm, budget: int | None = None) -> str:
        """The core examples alone, as every question's examples text starts (`render_for`): the part
        of the prompt whose state the runtime keeps for all questions."""
        if budget is None:
            budget = self.budget if self.budget is not None else _default_budget()
        chosen = self.select("", budget, llm.count_tokens, cache_key=getattr(llm, "model_name", None))
        return self._join([t for t in chosen if t.core])

    def _tokens(self, traj: TinyTrajectory, count_tokens: Callable[[str], int], cache_key: str | None) -> int:
        if cache_key is None:
            return count_tokens(traj.render())
        key = (cache_key, traj.id)
        if key not in self._token_cache:
            self._token_cache[key] = count_tokens(traj.render())
        return self._token_cache[key]

    @staticmethod
    def _join(items: list[TinyTrajectory]) -> str:
        return SEPARATOR.join(t.render() for t in sorted(items, key=_order_key))


def _order_key(traj: TinyTrajectory) -> tuple:
    """Core examples first, then hand-crafted ones by id, then generated ones in creation order."""
    if traj.id.startswith("gen/") and traj.id[4:].isdigit():
        return (not traj.core, 1, int(traj.id[4:]), traj.id)
    return (not traj.core, 0, 0, traj.id)


def _default_budget() -> int:
    return AgentSettings().examples_token_budget


def load_generated(db_path: Path, tools: ToolRegistry) -> list[TinyTrajectory]:
    """Generated trajectories from the state database; ones that no longer fit the tools are skipped."""
    if not Path(db_path).exists():
        return []
    db = open_db(Path(db_path))
    if GENERATED_TABLE not in db.table_names():
        return []
    out = []
    for row in db[GENERATED_TABLE].rows_where(order_by="id"):
        try:
            traj = TinyTrajectory(
                question=row["question"],
                steps=json.loads(row["steps"]),
                teaches=row.get("teaches") or "",
                id=f"gen/{row['id']}",
                category="generated",
                group=row.get("example_group") or "",
                source=json.dumps(
                    {k: row.get(k) for k in ("task_id", "model", "round", "run_id", "strategy", "created")}
                ),
            )
            validate_trajectory(traj, tools, f"{GENERATED_TABLE} row {row['id']}")
        except (ValidationError, TrajectoryLoadError, ValueError):
            continue  # a tool changed since it was generated; hand-crafted files are the ones that must load
        out.append(traj)
    return out
