"""The benchmark report: `report.md` with summary tables, and PNG plots (matplotlib, Agg backend).

Plots: `completion.png` (tasks completed per model/strategy, by the checker at round 1 and at the
end, and by the agent's own Review verdict), `rounds.png` (completion vs reflection rounds allowed,
the paper's Figure 6), `trajectory.png` (trajectory lengths per model/strategy).
Cost tables: projected seconds per answer on the reference gateway profiles (`bench/gateways.yaml`,
the chosen `--gateway` first) and the measured split of this machine's time, per model/strategy and
per task.
"""

from __future__ import annotations

from collections import defaultdict
from pathlib import Path

from edge_agent.costmodel import GatewayProfile
from edge_agent.evaluation.results import (
    BenchResults,
    Summary,
    TaskRun,
    answered_but_wrong,
    groups,
    projected,
    split_of,
    summarise,
)

PLOTS = ("completion.png", "rounds.png", "trajectory.png")


def _pct(n: int, total: int) -> str:
    return f"{n}/{total} ({100 * n / total:.0f}%)" if total else "0/0"


def _k(x: float) -> str:
    return f"{x / 1000:.1f}k" if x >= 10000 else f"{x:.0f}"


def summary_table(rows: list[Summary]) -> str:
    head = (
        "| model | strategy | tasks | checker @1 | checker @end | answered but wrong | review @1 | review @end "
        "| review agrees "
        "| tokens sent | tokens recv | tokens eval | LLM calls | time s | traj len | trials | reflections "
        "| parse fail | loops | errors |"
    )
    sep = "|" + "|".join(["---"] * (head.count("|") - 1)) + "|"
    lines = [head, sep]
    for r in rows:
        agree = _pct(r.reviews_agreeing, r.reviews) if r.reviews else "–"
        errors = f"{r.agent_errors}" + (f" (+{r.check_errors} task/data)" if r.check_errors else "")
        lines.append(
            f"| {r.model} | {r.strategy} | {r.tasks} | {_pct(r.checker_round1, r.tasks)} | "
            f"{_pct(r.checker_final, r.tasks)} | {r.answered_wrong} | {_pct(r.review_round1, r.tasks)} | "
            f"{_pct(r.review_final, r.tasks)} | "
            f"{agree} | {_k(r.tokens_sent)} | {_k(r.tokens_received)} | {_k(r.tokens_evaluated)} | {r.llm_calls:.1f} | "
            f"{r.wall_s:.1f} | {r.trajectory_length:.1f} | {r.trials:.2f} | {r.reflections} | {r.parse_failures} | "
            f"{r.loops_caught} | {errors} |"
        )
    return "\n".join(lines)


def grounding_table(rows: list[Summary]) -> str:
    """What was made up, per model × strategy (evaluation.audit): every column should be 0."""
    head = (
        "| model | strategy | tool calls naming what does not exist | runs with one | answers stating what no "
        "evidence held | answers refused by the runtime | copied review verdicts | review agrees "
        "| thoughts guessing a figure or name (masked) | steps |"
    )
    lines = [head, "|" + "|".join(["---"] * 10) + "|"]
    for r in rows:
        agree = _pct(r.reviews_agreeing, r.reviews) if r.reviews else "–"
        lines.append(
            f"| {r.model} | {r.strategy} | {r.invented_calls} | {r.runs_inventing}/{r.tasks} | "
            f"{r.ungrounded_answers}/{r.tasks} | {r.refused_answers} | {r.copied_reviews} | {agree} | "
            f"{r.unverified_thoughts} | {round(r.trajectory_length * r.tasks)} |"
        )
    return "\n".join(lines)


def rounds_table(rows: list[Summary]) -> str:
    n = max((len(r.by_round) for r in rows), default=1)
    head = "| model | strategy | " + " | ".join(f"≤{k} round{'s' if k > 1 else ''}" for k in range(1, n + 1)) + " |"
    lines = [head, "|" + "|".join(["---"] * (n + 2)) + "|"]
    for r in rows:
        cells = [str(r.by_round[min(k, len(r.by_round)) - 1]) for k in range(1, n + 1)]
        lines.append(f"| {r.model} | {r.strategy} | " + " | ".join(cells) + " |")
    return "\n".join(lines)


def tags_table(runs: list[TaskRun]) -> str:
    labels = sorted(groups(runs))
    by_tag: dict[str, dict[tuple[str, str], list[bool]]] = defaultdict(lambda: defaultdict(list))
    for run in runs:
        for tag in run.tags or ["(untagged)"]:
            by_tag[tag][(run.model, run.strategy)].append(run.checker_final)
    head = "| tag | " + " | ".join(f"{m} / {s}" for m, s in labels) + " |"
    lines = [head, "|" + "|".join(["---"] * (len(labels) + 1)) + "|"]
    for tag in sorted(by_tag):
        cells = [(lambda v: f"{sum(v)}/{len(v)}" if v else "–")(by_tag[tag].get(lab, [])) for lab in labels]
        lines.append(f"| {tag} | " + " | ".join(cells) + " |")
    return "\n".join(lines)


def headline(rows: list[Summary]) -> str:
    """One line per model × strategy: right, and answered but wrong (status answered while a check fails)."""
    return "\n".join(
        f"- **{r.label}**: {_pct(r.checker_final, r.tasks)} right; **answered but wrong: "
        f"{r.answered_wrong}**" + (f" ({r.check_errors} task(s) do not fit)" if r.check_errors else "")
        for r in rows
    )


def _ordered(profiles: list[GatewayProfile], chosen: str) -> list[GatewayProfile]:
    return sorted(profiles, key=lambda p: p.name != chosen)


def _bold(text: str, bold: bool = True) -> str:
    return f"**{text}**" if bold else text


def _split_cells(split) -> str:
    return " | ".join(
        f"{ms / 1000:.1f}" for ms in (split.eval_ms, split.gen_ms, split.state_ms, split.tool_ms, split.python_ms)
    )


SPLIT_HEAD = "eval s | gen s | state s | tools s | python s"


def cost_table(rows: list[Summary], profiles: list[GatewayProfile], chosen: str) -> str:
    """Per model/strategy: projected seconds per answer on every profile (chosen first, in bold), and
    this machine's measured split (means per task)."""
    profiles = _ordered(profiles, chosen)
    head = (
        "| model | strategy | tokens eval | tokens gen | "
        + " | ".join(_bold(f"{p.name} s", p.name == chosen) for p in profiles)
        + f" | here: {SPLIT_HEAD} |"
    )
    lines = [head, "|" + "|".join(["---"] * (4 + len(profiles) + 5)) + "|"]
    for r in rows:
        cells = [_bold(f"{r.projected_s.get(p.name, 0):.0f}", p.name == chosen) for p in profiles]
        lines.append(
            f"| {r.model} | {r.strategy} | {r.tokens_evaluated:.0f} | {r.tokens_received:.0f} | "
            + " | ".join(cells)
            + f" | {_split_cells(r.split)} |"
        )
    return "\n".join(lines)


def profiles_table(profiles: list[GatewayProfile], chosen: str) -> str:
    lines = ["| profile | hardware | prompt eval tok/s | generation tok/s | sources |", "|---|---|---|---|---|"]
    for p in _ordered(profiles, chosen):
        lines.append(
            f"| {p.name}{' (chosen)' if p.name == chosen else ''} | {p.label} | {p.pp_tps:g} "
            f"({p.pp_source.basis}) | {p.tg_tps:g} ({p.tg_source.basis}) | "
            f"[pp]({p.pp_source.url}), [tg]({p.tg_source.url}) |"
        )
    return "\n".join(lines)


def task_cost_table(runs: list[TaskRun], profile: GatewayProfile) -> str:
    lines = [
        f"| task | model | strategy | LLM calls | tokens eval | tokens gen | {_bold(profile.name + ' s')} "
        f"| {SPLIT_HEAD} |",
        "|" + "|".join(["---"] * 12) + "|",
    ]
    for r in sorted(runs, key=lambda r: (r.task_id, r.model, r.strategy)):
        m = r.metrics
        lines.append(
            f"| {r.task_id} | {r.model} | {r.strategy} | {m.llm_calls} | {m.tokens_evaluated} | "
            f"{m.tokens_received} | {_bold(f'{projected(m, profile):.0f}')} | {_split_cells(split_of(m))} |"
        )
    return "\n".join(lines)


def cost_sections(results: BenchResults, rows: list[Summary]) -> list[str]:
    """The report's cost sections (none when the run had no gateway profiles)."""
    if not results.gateways:
        return []
    chosen = next((p for p in results.gateways if p.name == results.gateway), results.gateways[0])
    return [
        "## Projected seconds per answer (8B Q4_K_M on reference gateways)",
        "",
        "Projected = tokens evaluated / prompt-eval rate + tokens generated / generation rate + this run's "
        "measured non-LLM time (tools, Python). Means per task. `here` is this machine's measured split: "
        "prompt eval, generation, KV state save/restore, tools, the rest (Python).",
        "",
        cost_table(rows, results.gateways, chosen.name),
        "",
        profiles_table(results.gateways, chosen.name),
        "",
        f"## Cost per task (projected on {chosen.name}: {chosen.label})",
        "",
        task_cost_table(results.runs, chosen),
        "",
    ]


def _cell(text: str | None, limit: int = 90) -> str:
    flat = " ".join(str(text or "").split()).replace("|", "\\|")
    return flat if len(flat) <= limit else flat[: limit - 1] + "…"


def task_table(runs: list[TaskRun]) -> str:
    lines = [
        "| task | model | strategy | status | checker @1 | checker @end | review | trials | steps | tokens eval "
        "| time s | why not |",
        "|" + "|".join(["---"] * 12) + "|",
    ]
    for r in sorted(runs, key=lambda r: (r.task_id, r.model, r.strategy)):
        failing = "; ".join(f"{c.check}: {c.detail}" for c in r.checks if not c.passed)
        if not failing and not r.checker_final:
            failing = r.error or f"status {r.status}"
        review = next((s for s in reversed(r.review_by_round) if s), "–")
        lines.append(
            f"| {r.task_id} | {r.model} | {r.strategy} | {r.status}{' ⚠' if answered_but_wrong(r) else ''} | "
            f"{'✔' if r.checker_round1 else '✘'} | "
            f"{'✔' if r.checker_final else '✘'} | {review} | {r.metrics.trials} | {r.metrics.trajectory_length} | "
            f"{r.metrics.tokens_evaluated} | {r.metrics.wall_s:.1f} | {_cell(failing)} |"
        )
    return "\n".join(lines)


def plot(results: BenchResults, rows: list[Summary], out: Path) -> list[str]:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from matplotlib.ticker import MaxNLocator

    written = []
    labels = [r.label for r in rows]
    x = range(len(rows))
    fig, ax = plt.subplots(figsize=(max(6, 1.8 * len(rows) + 2), 4))
    width = 0.2
    series = [
        ("checker @ round 1", [r.checker_round1 for r in rows]),
        ("checker @ end", [r.checker_final for r in rows]),
        ("review @ round 1", [r.review_round1 for r in rows]),
        ("review @ end", [r.review_final for r in rows]),
    ]
    for i, (name, values) in enumerate(series):
        ax.bar(
            [p + (i - 1.5) * width for p in x],
            values,
            width,
            label=name,
            hatch="//" if name.startswith("review") else None,
            alpha=0.9,
        )
    ax.set_xticks(list(x), labels, rotation=15, ha="right")
    ax.set_ylabel("tasks completed")
    ax.set_ylim(0, max([r.tasks for r in rows] + [1]) * 1.08)
    ax.yaxis.set_major_locator(MaxNLocator(integer=True))
    ax.set_title(f"Task completion ({results.task_set or Path(results.tasks_file).stem}, {results.n_tasks} tasks)")
    ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(out / "completion.png", dpi=110)
    plt.close(fig)
    written.append("completion.png")

    fig, ax = plt.subplots(figsize=(6, 4))
    for r in rows:
        ax.plot(range(1, len(r.by_round) + 1), r.by_round, marker="o", label=r.label)
    ax.set_xlabel("reflection rounds allowed (trials)")
    ax.set_ylabel("tasks completed (checker)")
    ax.set_xticks(range(1, max((len(r.by_round) for r in rows), default=1) + 1))
    ax.set_ylim(0, max([r.tasks for r in rows] + [1]) * 1.08)
    ax.yaxis.set_major_locator(MaxNLocator(integer=True))
    ax.set_title("Completion vs reflection rounds")
    ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(out / "rounds.png", dpi=110)
    plt.close(fig)
    written.append("rounds.png")

    fig, ax = plt.subplots(figsize=(max(6, 1.5 * len(rows) + 2), 4))
    data = [[run.metrics.trajectory_length for run in runs] for runs in groups(results.runs).values()]
    ax.boxplot(data, showmeans=True)
    ax.set_xticks(range(1, len(data) + 1), [f"{m} / {s}" for m, s in groups(results.runs)], rotation=15, ha="right")
    ax.set_ylabel("steps across all trials")
    ax.set_title("Trajectory length")
    fig.tight_layout()
    fig.savefig(out / "trajectory.png", dpi=110)
    plt.close(fig)
    written.append("trajectory.png")
    return written


def render(results: BenchResults, rows: list[Summary], plots: list[str]) -> str:
    runs = results.runs
    parts = [f"# Benchmark: {results.task_set or Path(results.tasks_file).stem}", ""]
    parts.append(f"- task file: `{results.tasks_file}` ({results.n_tasks} tasks)")
    parts.append(f"- SkySpark: {results.skyspark or '(configured)'}")
    parts.append(f"- models: {', '.join(results.models)}; strategies: {', '.join(results.strategies)}")
    parts.append(f"- max steps per trial {results.max_steps}, max trials {results.max_trials}")
    states = results.prefix_states or "none (a first start: every prefix is evaluated in this run)"
    parts.append(f"- prompt-prefix KV states at start: {states}")
    for model, usage in results.warmup.items():
        parts.append(
            f"- warm-up of {model} before the first task, as the daemon at start (in no task's figures): "
            f"{usage.get('evaluated_tokens', 0):.0f} of {usage.get('prompt_tokens', 0):.0f} prompt tokens evaluated, "
            f"{usage.get('ms', 0) / 1000:.1f} s"
        )
    parts.append(
        f"- started {results.started}, finished {results.finished or '–'}"
        + (" — **interrupted: partial results**" if results.interrupted else "")
    )
    if results.invalid_tasks:
        parts.append(
            f"- **{len(results.invalid_tasks)} task(s) do not fit this SkySpark**: "
            + "; ".join(results.invalid_tasks[:10])
        )
    parts += [
        "",
        "Completion is decided by the checker (exact rows/values from the SkySpark the run used); "
        "`review` is the agent's own verdict (for plain `react`: that it finished). `@1` = the first "
        "trial's answer, `@end` = the final answer. Token, call, time and length columns are means per task.",
        "",
        "## Headline",
        "",
        "Right by the checker; *answered but wrong*: runs whose final status is "
        "`answered` while a check fails — what an operator would take as right and is not.",
        "",
        headline(rows),
        "",
        "## Summary",
        "",
        summary_table(rows),
        "",
        "## Grounding (what was made up)",
        "",
        "Tool calls naming a site, asset or sensor the SkySpark lacks; final answers stating a figure, "
        "code or name that neither the question, the worked-out facts nor an Observation held, or naming "
        f"a site/asset that does not exist (`bench/audit.py`). Checker strict on names: "
        f"{'yes' if results.strict_names else 'no (--no-strict-names)'}. A thought may guess (it is the "
        "model's reasoning, not a claim); the guessed figures and names are counted, and masked in every "
        "progress message the run publishes.",
        "",
        grounding_table(rows),
        "",
        "## Completion vs reflection rounds (checker)",
        "",
        rounds_table(rows),
        "",
    ]
    parts += cost_sections(results, rows)
    if plots:
        parts += ["## Plots", ""] + [f"![{p[:-4]}]({p})" for p in plots] + [""]
    parts += ["## By tag (checker, final)", "", tags_table(runs), "", "## Tasks", "", task_table(runs), ""]
    return "\n".join(parts)


def write_report(results: BenchResults, out: Path, plots: bool = True) -> Path:
    """Write report.md (and the plots) for `results` into `out`; returns the report's path."""
    out.mkdir(parents=True, exist_ok=True)
    rows = summarise(results.runs, results.max_trials, results.gateways)
    written = plot(results, rows, out) if plots and rows else []
    path = out / "report.md"
    path.write_text(render(results, rows, written), encoding="utf-8")
    return path
