"""The checker: decides, exactly and without an LLM, whether a run did what its task asked.

`check_task(task, evidence, truth)` runs every check in `task.expect` against the run's final
answer and the JSON files it produced; expected rows, values and counts come from `truth` (the
SkySpark the run used). A check that cannot be evaluated because the SkySpark lacks the data the
task names is reported with status "error" (the task does not fit this dataset), never as a pass.
`validate_task` finds such tasks before a run.

A check reads the answer the way its reader would: a count is a number bound to what is counted (not a digit
inside a name), a yes/no is about the series and window asked, a ranking names the statistic it ranks by (or the
winner's figure), a time is the site-local time stated. Nothing here imports the agent's analysis or tools.

How an answer's words, numbers, dates and times and a result file's rows are read lives beside it (`answer_text`,
`answer_times`, `filerows`). The rest stays one module though it is long: each kind of check is a pair, the
expected value computed from the truth and the reading of the answer against it, dispatched from one table
(`_expect_items`), and a reader checks a kind by reading its pair side by side.
"""

from __future__ import annotations

import math
import re
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from statistics import fmean
from typing import Any, Literal

from pydantic import BaseModel

from edge_agent.bench import conclusions as cc
from edge_agent.bench.answer_text import NOT_NUMBERS, NUMBER_WORDS, mention_at, mentions, norm, numbers_in
from edge_agent.bench.answer_times import ISO_DATETIME, dates_in, dates_outside, times_in
from edge_agent.bench.filerows import FileDiff, RowKey, diff_file, file_rows, sensor_key
from edge_agent.bench.tasks import (
    CountCheck,
    DurationCheck,
    EnergyCheck,
    EntityQuery,
    ExcursionSpec,
    Expect,
    FileCheck,
    ListCheck,
    MissingCheck,
    NotRecordedCheck,
    PartialCheck,
    PeriodRef,
    PeriodsCheck,
    RanksCheck,
    RefusesCheck,
    Task,
    TimeOfExtremeCheck,
    ValueCheck,
    YesNoCheck,
)
from edge_agent.bench.truth import Truth

CheckStatus = Literal["pass", "fail", "error"]


class CheckResult(BaseModel):
    check: str  # e.g. "file[0]", "value[1]", "answer_says_missing"
    status: CheckStatus
    detail: str = ""

    @property
    def passed(self) -> bool:
        return self.status == "pass"


class TaskVerdict(BaseModel):
    """What the checker decided about one run of a task: every check's result, and whether all passed."""

    passed: bool
    checks: list[CheckResult]

    @property
    def error(self) -> bool:
        return any(c.status == "error" for c in self.checks)

    def summary(self) -> str:
        return "; ".join(
            f"{c.check}: {c.status}{' (' + c.detail + ')' if c.detail and not c.passed else ''}" for c in self.checks
        )


@dataclass
class Evidence:
    """What a run left behind: its final answer and its result files (name → parsed JSON)."""

    answer: str | None
    files: dict[str, Any] = field(default_factory=dict)
    question: str = ""  # names the question wrote may be repeated (e.g. "there is no Chiller 7")
    tool_calls: list[str] | None = None  # the run's tool calls by name, in order (None: not known)
    status: str | None = None  # the run's final status (answered, partial, gave_up, …; None: not known)


class TruthError(Exception):
    """The SkySpark does not hold what the task names (the task does not fit this dataset)."""


_MISSING_RE = re.compile(
    r"no such|(?:not|n't) (?:be )?found|could ?n[o']t (?:be )?(?:find|found|locate)|cannot (?:find|locate)"
    r"|can't (?:find|locate)|unable to (?:find|locate)|does ?n[o']t exist|do ?n[o']t exist|not exist|non-?existent"
    r"|no (?:asset|sensor|site|point|equip\w*|data|record|match|entry)|not available|unavailable|unknown|missing"
    r"|there is no|there are no|not (?:present|listed|part of|among|one of|a valid|recogni[sz]ed|in the list)"
    r"|is ?n[o']t (?:an? )?(?:asset|sensor|site)"
    r"|none (?:named|called)|did ?n[o']t find|no results?|invalid (?:asset|sensor|site)|not an? (?:existing|known)"
    r"|ha(?:s|ve) no\b|(?:does|do|did) ?n[o']t have|not have|lacks?\b|is not (?:one of|among|on|at)",
    re.I,
)


def says_missing(answer: str) -> bool:
    return _MISSING_RE.search(str(answer)) is not None


# --------------------------------------------------------------------------------------- truth helpers
def catalog_names(truth: Truth) -> list[str]:
    """Every site and asset name of the SkySpark (what a name must not be found inside of)."""
    key = id(truth)
    if key not in _CATALOGS:
        try:
            sites = truth.sites()
            names = list(sites) + [a for s in sites for a in truth.assets(s)]
        except Exception:  # a SkySpark that cannot list: no longer names to exclude
            return []
        _CATALOGS[key] = (truth, names)
    return _CATALOGS[key][1]


_CATALOGS: dict[int, tuple[Truth, list[str]]] = {}


def list_entities(q: EntityQuery, truth: Truth) -> list[str]:
    if q.of == "sites":
        names = truth.sites()
    elif q.of == "assets":
        site = _canonical(q.site, truth.sites(), "site")
        names = truth.assets(site)
        if q.kind:
            names = assets_of_kind(truth, site, q.kind, names)
    else:
        site = _canonical(q.site, truth.sites(), "site")
        names = truth.sensors(site, _canonical(q.asset, truth.assets(site), "asset", site))
    if q.name_contains:
        names = [n for n in names if q.name_contains.casefold() in n.casefold()]
    return list(names)


def assets_of_kind(truth: Truth, site: str, kind: str, names: list[str] | None = None) -> list[str]:
    """The assets of `site` carrying the equip marker `kind` (case-insensitive), in catalog order."""
    types = getattr(truth, "asset_types", None)
    if types is None:
        raise TruthError("this SkySpark does not say the assets' kinds")
    by_kind = types(site)
    names = truth.assets(site) if names is None else names
    return [n for n in names if kind.casefold() in (t.casefold() for t in by_kind.get(n, []))]


def _canonical(name: str | None, names: list[str], kind: str, where: str = "") -> str:
    if name is not None and name in names:
        return name
    for candidate in names:
        if norm(candidate) == norm(name or ""):
            return candidate
    raise TruthError(f"the SkySpark has no {kind} {name!r}{' at ' + where if where else ''}")


def _resolve(truth: Truth, site: str, asset: str, sensor: str) -> tuple[str, str, str]:
    site = _canonical(site, truth.sites(), "site")
    asset = _canonical(asset, truth.assets(site), "asset", site)
    sensors = truth.sensors(site, asset)
    try:
        sensor = _canonical(sensor, sensors, "sensor", f"{site} / {asset}")
    except TruthError:
        short = sensor_key(asset, sensor)
        sensor = next((s for s in sensors if norm(s) == short), None) or _canonical(
            sensor, sensors, "sensor", f"{site} / {asset}"
        )
    return site, asset, sensor


def series_of(
    truth: Truth, site: str, asset: str, sensor: str, start: datetime, end: datetime
) -> tuple[list[cc.Pair], str | None]:
    """The numeric samples of one point over [start, end) and its unit (names resolved as the tools do)."""
    site, asset, sensor = _resolve(truth, site, asset, sensor)
    samples = truth.history(site, asset, sensor, start, end)
    unit = next((s.unit for s in samples if s.unit), None)
    return cc.clean([(s.ts, s.value) for s in samples]), unit


def expected_derived(spec: ValueCheck, truth: Truth) -> float:
    assert spec.a and spec.b and spec.derive and spec.start and spec.end
    a, _ = series_of(truth, spec.site, spec.a.asset, spec.a.sensor, spec.start, spec.end)
    b, _ = series_of(truth, spec.site, spec.b.asset, spec.b.sensor, spec.start, spec.end)
    derived = cc.derive(a, b, spec.derive)
    if not derived:
        raise TruthError(
            f"no aligned samples of {spec.a.asset} {spec.a.sensor} and {spec.b.asset} {spec.b.sensor} "
            f"from {spec.start} to {spec.end}"
        )
    value = cc.aggregate(derived, spec.aggregate)
    if value is None:
        raise TruthError(f"no {spec.aggregate} of the {spec.derive} from {spec.start} to {spec.end}")
    return value


def expected_energy(spec: EnergyCheck, truth: Truth) -> float:
    series, unit = series_of(truth, spec.site, spec.asset, spec.sensor, spec.start, spec.end)
    if cc.power_scale(unit) is None:
        raise TruthError(f"{spec.asset} {spec.sensor} is in {unit or 'no unit'}, not power: it has no energy")
    kwh = cc.energy_kwh(series, unit)
    if kwh is None:
        raise TruthError(f"fewer than two samples of {spec.asset} {spec.sensor} from {spec.start} to {spec.end}")
    return kwh


def compared_assets(spec: RanksCheck, truth: Truth) -> tuple[str, list[str]]:
    """The site and the assets a ranking compares (each resolved; those of a kind or name part that have
    the sensor)."""
    site = _canonical(spec.site, truth.sites(), "site")
    if spec.assets is not None:
        return site, [_canonical(a, truth.assets(site), "asset", site) for a in dict.fromkeys(spec.assets)]
    names = truth.assets(site)
    if spec.kind:
        names = assets_of_kind(truth, site, spec.kind, names)
    if spec.name_contains:
        names = [n for n in names if spec.name_contains.casefold() in n.casefold()]
    out = []
    for name in names:
        try:
            _resolve(truth, site, name, spec.sensor)
        except TruthError:
            continue
        out.append(name)
    if len(out) < 2:
        raise TruthError(f"fewer than two assets at {site} to rank by {spec.sensor}: {out}")
    return site, out


def expected_ranking(spec: RanksCheck, truth: Truth) -> tuple[list[str], dict[str, float | None]]:
    """The winners (tied ones together) and every compared asset's value."""
    site, assets = compared_assets(spec, truth)
    values: dict[str, float | None] = {}
    for asset in assets:
        series, unit = series_of(truth, site, asset, spec.sensor, spec.start, spec.end)
        if spec.by == "energy" and series and cc.power_scale(unit) is None:
            raise TruthError(f"{spec.sensor} is in {unit or 'no unit'}, not power: no energy to rank")
        values[asset] = cc.aggregate(series, spec.by, unit)
    won = cc.winners(values, spec.order)
    if not won:
        raise TruthError(f"no values of {spec.sensor} at {site} from {spec.start} to {spec.end}")
    return won, values


def expected_excursion(spec: ExcursionSpec, truth: Truth) -> tuple[bool, int, int]:
    """(any sample strictly past the limit, how many, how many compared)."""
    series, _ = series_of(truth, spec.site, spec.asset, spec.sensor, spec.start, spec.end)
    if spec.limit_sensor is not None:
        limit, _ = series_of(truth, spec.site, spec.asset, spec.limit_sensor, spec.start, spec.end)
        pairs = cc.align(series, limit)
    else:
        assert spec.limit is not None  # a limit or a limit sensor (`LimitSpec`)
        pairs = [(at, v, float(spec.limit)) for at, v in series]
    if not pairs:
        raise TruthError(f"no samples of {spec.asset} {spec.sensor} to compare from {spec.start} to {spec.end}")
    past = cc.crossed(pairs, spec.direction)
    return bool(past), len(past), len(pairs)


def expected_yes(spec: YesNoCheck, truth: Truth) -> tuple[bool, str]:
    if spec.excursion is not None:
        yes, n, of = expected_excursion(spec.excursion, truth)
        return yes, f"{n} of {of} samples {spec.excursion.direction}"
    assert spec.exists is not None
    site = _canonical(spec.exists.site, truth.sites(), "site")
    if spec.exists.kind is not None:
        found = assets_of_kind(truth, site, spec.exists.kind)
        return bool(found), f"{len(found)} {spec.exists.kind} asset(s) at {site}"
    assert spec.exists.asset is not None  # ExistsSpec holds exactly one of `asset` and `kind`
    there = any(norm(a) == norm(spec.exists.asset) for a in truth.assets(site))
    return there, f"{spec.exists.asset} {'is' if there else 'is not'} an asset at {site}"


AGGREGATES: dict[str, Callable[[list[float]], float]] = {
    "max": max,
    "min": min,
    "mean": fmean,
    "sum": math.fsum,
    "first": lambda v: v[0],
    "last": lambda v: v[-1],
}


def expected_value(spec: ValueCheck, truth: Truth) -> float:
    if spec.derive is not None:
        return expected_derived(spec, truth)
    assert spec.asset is not None and spec.sensor is not None
    if spec.aggregate == "energy":
        return expected_energy(
            EnergyCheck(site=spec.site, asset=spec.asset, sensor=spec.sensor, start=spec.start, end=spec.end), truth
        )
    site, asset, sensor = _resolve(truth, spec.site, spec.asset, spec.sensor)
    if spec.aggregate == "at":
        assert spec.at is not None
        window = timedelta(minutes=spec.at_window_minutes)
        samples = [
            s.value
            for s in truth.history(site, asset, sensor, spec.at - window, spec.at + timedelta(seconds=1))
            if s.value is not None and s.ts <= spec.at
        ]
        if not samples:
            raise TruthError(
                f"no sample of {asset} {sensor} at or within {spec.at_window_minutes} min before {spec.at}"
            )
        return float(samples[-1])
    assert spec.start is not None and spec.end is not None
    values = [float(s.value) for s in truth.history(site, asset, sensor, spec.start, spec.end) if s.value is not None]
    if not values:
        raise TruthError(f"no data for {asset} {sensor} from {spec.start} to {spec.end}")
    return AGGREGATES[spec.aggregate](values)


def close(x: float, expected: float, rel_tol: float, abs_tol: float) -> bool:
    return abs(x - expected) <= max(rel_tol * abs(expected), abs_tol)


# --------------------------------------------------------------------------------------- file rows
def expected_rows(spec: FileCheck, truth: Truth) -> dict[RowKey, float | None]:
    out: dict[RowKey, float | None] = {}
    for asset in spec.assets:
        for sensor in spec.sensors:
            site, a, s = _resolve(truth, spec.site, asset, sensor)
            for sample in truth.history(site, a, s, spec.start, spec.end):
                out[(norm(a), sensor_key(a, s), sample.ts.astimezone(UTC))] = sample.value
    if not out:
        raise TruthError(f"no data for {spec.assets} {spec.sensors} from {spec.start} to {spec.end}")
    return out


# --------------------------------------------------------------------------------------- checks
def _check_file(spec: FileCheck, ev: Evidence, truth: Truth) -> tuple[CheckStatus, str]:
    expected = expected_rows(spec, truth)
    diffs: list[tuple[FileDiff, Counter]] = []
    for name, data in ev.files.items():
        rows = file_rows(data, spec)
        if rows is not None:
            diffs.append((diff_file(name, rows, expected, spec.value_tol), rows))
    if not diffs:
        return "fail", f"no history file among {len(ev.files)} produced file(s)"
    answer = ev.answer or ""
    if spec.single_file:
        exact = [d for d, _ in diffs if d.exact]
        if spec.named_in_answer:
            named = [d for d in exact if d.name in answer]
            if exact and not named:
                return "fail", f"{exact[0].name} is right but the answer does not name it"
            exact = named
        if exact:
            return "pass", exact[0].name
        best = min((d for d, _ in diffs), key=lambda d: d.score)
        return "fail", f"{len(expected)} rows expected; closest file {best.describe()}"
    covered: set = set()
    used = []
    for d, rows in diffs:
        if d.extra == 0 and d.wrong_value == 0 and (not spec.named_in_answer or d.name in answer):
            covered |= {k[:3] for k in rows}
            used.append(d.name)
    left = len(set(expected) - covered)
    if left == 0:
        return "pass", ", ".join(used)
    return "fail", f"{left} of {len(expected)} expected rows are in no clean file ({', '.join(used) or 'none clean'})"


def _check_value(spec: ValueCheck, ev: Evidence, truth: Truth) -> tuple[CheckStatus, str]:
    want = expected_value(spec, truth)
    if spec.derive is None:
        names = [spec.site, spec.asset, spec.sensor]
    else:
        assert spec.a is not None and spec.b is not None  # a derived value has both (`ValueCheck._shape`)
        names = [spec.site, spec.a.asset, spec.a.sensor, spec.b.asset, spec.b.sensor]
    what = spec.aggregate if spec.derive is None else f"{spec.aggregate} of the {spec.derive}"
    what = "energy (kWh)" if what == "energy" else what
    return _number_check(ev, names, want, what, spec.rel_tol, spec.abs_tol)


def _number_check(
    ev: Evidence, names: list[str | None], want: float, what: str, rel_tol: float, abs_tol: float
) -> tuple[CheckStatus, str]:
    got = numbers_in(ev.answer or "", [n for n in names if n])
    hit = [x for x in got if close(x, want, rel_tol, abs_tol)]
    if hit:
        return "pass", f"{hit[0]:g} ≈ {what} {want:.6g}"
    shown = ", ".join(f"{x:g}" for x in got[:6]) or "no number"
    return "fail", f"expected {what} {want:.6g} (±{max(rel_tol * abs(want), abs_tol):.3g}); answer has {shown}"


def _check_energy(spec: EnergyCheck, ev: Evidence, truth: Truth) -> tuple[CheckStatus, str]:
    want = expected_energy(spec, truth)
    return _number_check(ev, [spec.site, spec.asset, spec.sensor], want, "energy (kWh)", spec.rel_tol, spec.abs_tol)


_RANKING_WORDS = re.compile(
    r"\b(?:highest|lowest|most|least|more|less|higher|lower|largest|smallest|top|best|worst|"
    r"biggest|greatest)\b",
    re.I,
)


def _ranking_clause(answer: str, compared: list[str], others) -> str:
    """The part of a multi-part answer that states the ranking: the first clause (split at ";") that has a ranking
    word and names a compared asset; the whole answer where none does (a one-part answer, or free prose). So "Found 3
    pumps: A, B, C; B had the highest mean Speed" is judged on its second clause, as its reader would."""
    for clause in answer.split(";"):
        if _RANKING_WORDS.search(clause) and any(mention_at(clause, a, others) is not None for a in compared):
            return clause
    return answer


_STAT_WORDS = {
    "max": re.compile(
        r"\b(?:max(?:imum|ima|imal)?|peak(?:s|ed|ing)?|highest (?:single )?(?:value|reading|sample|level|point)s?"
        r"|top (?:value|reading)s?)\b",
        re.I,
    ),
    "min": re.compile(
        r"(?<!\d )(?<!\d)\b(?:min(?:imum|ima|imal)?(?! ?\d)|lowest (?:single )?(?:value|reading|sample|level|point)s?"
        r"|trough)\b",
        re.I,
    ),
    "mean": re.compile(r"\b(?:mean|average(?:d|s)?|avg)\b", re.I),
    "energy": re.compile(r"\b(?:energy|k?wh|mwh|consum\w*|electricity|used (?:the )?(?:most|least))\b", re.I),
}


def names_statistic(clause: str, by: str) -> bool:
    """Whether `clause` names or implies the statistic `by` (max: max/peak/highest value; min; mean/average;
    energy/kWh/consumption)."""
    return _STAT_WORDS[by].search(clause) is not None


def _check_ranks(spec: RanksCheck, ev: Evidence, truth: Truth) -> tuple[CheckStatus, str]:
    won, values = expected_ranking(spec, truth)
    answer = _ranking_clause(ev.answer or "", list(values), catalog_names(truth))
    others = catalog_names(truth)
    named = [(at, a) for a in values if (at := mention_at(answer, a, others)) is not None]
    if not named:
        return "fail", f"the answer names none of the compared assets; {' or '.join(won)} won"
    first = min(named)[1]
    if first not in won:
        show = ", ".join(f"{a} {v:.6g}" if v is not None else f"{a} no data" for a, v in values.items())
        return "fail", f"the answer names {first} first; the {spec.order} {spec.by} is {' or '.join(won)} ({show})"
    figure = values[first]
    stated = figure is not None and any(
        close(x, figure, 0.005, 0.01) for x in numbers_in(answer, [spec.site, spec.sensor] + list(values))
    )
    if not names_statistic(answer, spec.by) and not stated:
        return "fail", (
            f"{first} is first, but the ranking does not say it is by {spec.by} "
            f"(no {spec.by} word, and not its figure {figure:.6g})"
            if figure is not None
            else ""
        )
    return "pass", first + (" (tied)" if len(won) > 1 else "")


_FIRST_WORD = re.compile(r"[A-Za-z]+")


def first_word(answer: str) -> str:
    m = _FIRST_WORD.search(answer or "")
    return m.group(0).casefold() if m else ""


def _check_yes_no(spec: YesNoCheck, ev: Evidence, truth: Truth) -> tuple[CheckStatus, str]:
    yes, why = expected_yes(spec, truth)
    answer = ev.answer or ""
    word = first_word(answer)
    want = "yes" if yes else "no"
    if word != want:
        return "fail", f"the answer starts with {word or 'nothing'!r}; the truth is {want.title()} ({why})"
    about = _about_what_was_asked(spec, answer, truth, yes)
    return ("fail", f"{want.title()}, but {about}") if about else ("pass", why)


def _words(text: str) -> list[str]:
    """Lower-case words, camelCase split ("LeavingWaterTemp" → leaving, water, temp)."""
    return re.findall(r"[a-z0-9%°]+", re.sub(r"(?<=[a-z])(?=[A-Z])", " ", text).casefold())


def sensor_named(text: str, sensor: str) -> bool:
    """Every word of `sensor` appears in `text`, a word also matching its abbreviation or long form ("Temp" and
    "temperature", "Humidity" and "humid")."""
    have = _words(text)
    joined = {"".join(_words(text)[i : i + n]) for n in (2, 3, 4) for i in range(len(have))}
    if "".join(_words(sensor)) in joined | set(have):
        return True  # "LeavingWaterTemp" named as "leaving water temp", or the other way round
    for word in _words(sensor):
        if not any(
            h == word or (min(len(h), len(word)) >= 3 and (h.startswith(word) or word.startswith(h))) for h in have
        ):
            return False
    return True


def _about_what_was_asked(spec: YesNoCheck, answer: str, truth: Truth, yes: bool) -> str:
    """Why the answer is not about the task's series and window ('' when it is)."""
    others = catalog_names(truth)
    if spec.excursion is not None:
        x = spec.excursion
        if not mentions(answer, x.asset, others):
            return f"it does not name {x.asset}"
        if not sensor_named(answer, x.sensor):
            return f"it does not name the sensor {x.sensor}"
        outside = dates_outside(answer, x.start, x.end)
        if outside:
            return f"it is about {outside[0]}, outside the task's window {x.start.date()} – {x.end.date()}"
        return ""
    e = spec.exists
    assert e is not None
    site = _canonical(e.site, truth.sites(), "site")
    if e.kind is None:
        if yes:
            real = next(a for a in truth.assets(site) if norm(a) == norm(e.asset or ""))
            return "" if mentions(answer, real, others) else f"it does not name {real}"
        return "" if mentions(answer, e.asset or "", others) else f"it does not name {e.asset}"
    words = list(e.noun) + [e.kind]
    if yes and any(mentions(answer, a, others) for a in assets_of_kind(truth, site, e.kind)):
        return ""
    if any(noun_named(answer, w) for w in words):
        return ""
    return f"it names neither an asset of kind {e.kind} nor the kind ({', '.join(words)})"


def noun_named(text: str, noun: str) -> bool:
    """`noun` (one or more words, e.g. "cooling tower", "coolingTower") occurs in `text`, each word also in its
    plural or run together."""
    words = [w for w in re.split(r"[\s_\-]+|(?<=[a-z])(?=[A-Z])", noun.strip()) if w]
    if not words:
        return False
    pattern = r"[\s_\-]*".join(re.escape(w.casefold()) + r"(?:e?s)?" for w in words)
    return re.search(rf"(?<![a-z0-9]){pattern}(?![a-z0-9])", text.casefold()) is not None


# --------------------------------------------------------------------------------------- the new kinds
def expected_duration(spec: DurationCheck, truth: Truth) -> tuple[float, float, int, int, float]:
    """(hours past the limit, share in %, samples past, samples compared, spacing in hours)."""
    series, _ = series_of(truth, spec.site, spec.asset, spec.sensor, spec.start, spec.end)
    if spec.limit_sensor is not None:
        limit, _ = series_of(truth, spec.site, spec.asset, spec.limit_sensor, spec.start, spec.end)
        pairs = cc.align(series, limit)
    else:
        assert spec.limit is not None  # a limit or a limit sensor (`LimitSpec`)
        pairs = [(at, v, float(spec.limit)) for at, v in series]
    if len(pairs) < 2:
        raise TruthError(
            f"fewer than two samples of {spec.asset} {spec.sensor} to compare from {spec.start} to {spec.end}"
        )
    past = cc.crossed(pairs, spec.direction)
    hours = cc.held_s(pairs, spec.direction, spec.end) / 3600
    step_h = (cc.spacing_s([(at, v) for at, v, _ in pairs]) or 0.0) / 3600
    return hours, 100.0 * len(past) / len(pairs), len(past), len(pairs), step_h


_NEVER = re.compile(r"\b(?:never|not once|at no (?:time|point)|no time|none of the|0 (?:samples|hours?|h)\b)", re.I)


def durations_in(answer: str) -> tuple[list[float], list[float]]:
    """(hours, shares in %) an answer states: "3 h 15 min", "3.25 hours", "195 minutes", "12.5 %", "13 of 96
    samples"."""
    text = re.sub(ISO_DATETIME, " ", answer)
    hours, shares = [], []
    spans = []
    for m in re.finditer(
        r"(\d+(?:\.\d+)?)\s*(?:h|hrs?|hours?)\b(?:,?\s*(?:and\s*)?(\d+(?:\.\d+)?)\s*(?:min|mins|minutes?)\b)?",
        text,
        re.I,
    ):
        hours.append(float(m[1]) + (float(m[2]) / 60 if m[2] else 0.0))
        spans.append(m.span())
    for m in re.finditer(r"(\d+(?:\.\d+)?)\s*(?:min|mins|minutes?)\b", text, re.I):
        if not any(a <= m.start() < b for a, b in spans):
            hours.append(float(m[1]) / 60)
    for m in re.finditer(r"(\d+(?:\.\d+)?)\s*(?:%|percent\b|per cent\b)", text, re.I):
        shares.append(float(m[1]))
    for m in re.finditer(r"(\d+) (?:out )?of (?:the )?(\d+) (?:samples|readings|values|intervals)", text, re.I):
        if int(m[2]):
            shares.append(100.0 * int(m[1]) / int(m[2]))
    return hours, shares


def _check_duration(spec: DurationCheck, ev: Evidence, truth: Truth) -> tuple[CheckStatus, str]:
    hours, share, n, of, step_h = expected_duration(spec, truth)
    answer = ev.answer or ""
    others = catalog_names(truth)
    if not mentions(answer, spec.asset, others):
        return "fail", f"the answer does not name {spec.asset}"
    stated_h, stated_share = durations_in(answer)
    tol_h = max(step_h, spec.rel_tol * hours) + 1e-9
    want = f"{hours:.4g} h ({share:.3g} %, {n} of {of} samples) {spec.direction}"
    if any(abs(h - hours) <= tol_h for h in stated_h) or any(
        abs(x - share) <= spec.share_tol + 1e-9 for x in stated_share
    ):
        return "pass", want
    if n == 0 and _NEVER.search(answer) and not [h for h in stated_h if h > tol_h]:
        return "pass", want
    shown = ", ".join([f"{h:.4g} h" for h in stated_h] + [f"{x:.3g} %" for x in stated_share]) or "no duration"
    return "fail", f"expected {want} (±{tol_h:.3g} h or ±{spec.share_tol:g} points); the answer has {shown}"


def expected_periods(spec: PeriodsCheck, truth: Truth) -> tuple[list[str], float, float]:
    """(the winning period(s) of "first"/"second", the first's value, the second's value)."""
    vals = []
    for p in (spec.first, spec.second):
        series, unit = series_of(truth, spec.site, spec.asset, spec.sensor, p.start, p.end)
        if spec.by == "energy" and series and cc.power_scale(unit) is None:
            raise TruthError(f"{spec.sensor} is in {unit or 'no unit'}, not power: no energy to compare")
        vals.append(cc.aggregate(series, spec.by, unit))
    first, second = vals
    won = cc.winners({"first": first, "second": second}, spec.order)
    if not won or first is None or second is None:
        raise TruthError(f"no values of {spec.asset} {spec.sensor} in one of the two periods")
    return won, first, second


def period_named_at(answer: str, period: PeriodRef) -> int | None:
    """Where `answer` first names `period`: its first date in any common form, or one of its labels."""
    local = period.start
    at = [pos for pos, d in dates_in(answer, local.year) if d == local.date()]
    at += [
        m.start()
        for label in period.labels
        if label.strip()
        for m in re.finditer(r"(?<![a-z0-9])" + re.escape(label.casefold()) + r"(?![a-z0-9])", answer.casefold())
    ]
    return min(at) if at else None


def _check_periods(spec: PeriodsCheck, ev: Evidence, truth: Truth) -> tuple[CheckStatus, str]:
    won, a, b = expected_periods(spec, truth)
    answer = ev.answer or ""
    named = [
        (pos, which)
        for which, p in (("first", spec.first), ("second", spec.second))
        if (pos := period_named_at(answer, p)) is not None
    ]
    show = f"first {a:.6g}, second {b:.6g}"
    if not named:
        return "fail", f"the answer names neither period ({show}; {spec.order} {spec.by}: {' or '.join(won)})"
    first = min(named)[1]
    if first not in won:
        return "fail", f"the answer names the {first} period first; the {spec.order} {spec.by} is the {won[0]} ({show})"
    got = numbers_in(answer, [spec.site, spec.asset, spec.sensor])
    if spec.figures:
        missing = [
            f"{w} {v:.6g}"
            for w, v in (("first", a), ("second", b))
            if not any(close(x, v, spec.rel_tol, spec.abs_tol) for x in got)
        ]
        if missing:
            return "fail", f"the {first} period is named first, but the answer does not state {', '.join(missing)}"
    elif not names_statistic(answer, spec.by) and not any(
        close(x, v, spec.rel_tol, spec.abs_tol) for x in got for v in (a, b)
    ):
        return "fail", f"the answer does not say it compares the {spec.by} (no {spec.by} word and no figure; {show})"
    return "pass", f"{first} ({show})"


def expected_extreme(spec: TimeOfExtremeCheck, truth: Truth) -> tuple[list[datetime], float, float]:
    """(the instants holding the extreme, site-local; its value; the tolerance in minutes)."""
    series, _ = series_of(truth, spec.site, spec.asset, spec.sensor, spec.start, spec.end)
    instants = cc.extreme_instants(series, spec.extreme)
    if not instants:
        raise TruthError(f"no values of {spec.asset} {spec.sensor} from {spec.start} to {spec.end}")
    tol = spec.tolerance_minutes if spec.tolerance_minutes is not None else (cc.spacing_s(series) or 0.0) / 60
    value = cc.aggregate(series, spec.extreme)
    if value is None:
        raise TruthError(f"no values of {spec.asset} {spec.sensor} from {spec.start} to {spec.end}")
    return instants, float(value), float(tol)


def _check_time_of_extreme(spec: TimeOfExtremeCheck, ev: Evidence, truth: Truth) -> tuple[CheckStatus, str]:
    instants, value, tol = expected_extreme(spec, truth)
    answer = ev.answer or ""
    stamps, clocks = times_in(answer)
    slack = timedelta(minutes=tol, seconds=1)
    for stamp in stamps:
        for at in instants:
            local = at.replace(tzinfo=None)
            if (abs(stamp - at) if stamp.tzinfo else abs(stamp - local)) <= slack:
                return "pass", f"{stamp.isoformat()} ≈ {at.isoformat()}"
    one_day = spec.end - spec.start <= timedelta(hours=25)
    said = {d for _, d in dates_in(answer, spec.start.year)}
    for clock in clocks:
        for at in instants:
            minute = at.hour * 60 + at.minute
            off = min(abs(clock - minute), 1440 - abs(clock - minute))
            if off <= tol + 1e-9 and (one_day or at.date() in said):
                return "pass", f"{clock // 60:02d}:{clock % 60:02d} ≈ {at.isoformat()}"
    shown = ", ".join([s.isoformat() for s in stamps] + [f"{c // 60:02d}:{c % 60:02d}" for c in clocks]) or "no time"
    where = " or ".join(a.isoformat()[:16] for a in instants[:3])
    return "fail", (
        f"the {spec.extreme} ({value:.6g}) was at {where} (±{tol:g} min, site-local"
        f"{'' if one_day else ', with its date'}); the answer has {shown}"
    )


_NOT_HELD = re.compile(
    r"\b(?:not|n't|never|no)\b[^.;]{0,40}?\b(?:record\w*|held|hold|holds|stored?|store|kept|keep|available|tagged|tag"
    r"|known|listed|contain\w*|have|has|provide\w*|include\w*|track\w*|carr(?:y|ies))\b"
    r"|\bno (?:record|tag|data|information|entry|field)\b|\bunknown\b|\bnot (?:in|on) the skyspark\b"
    r"|\b(?:holds?|has|have|keeps?|stores?|records?|carr(?:y|ies)|lists?)\s+no\b",
    re.I,
)
_ATTRIBUTE_WORDS = {
    "manufacturer": ["manufacturer", "make", "brand", "vendor", "maker", "made by"],
    "model": ["model"],
    "rating": ["rating", "rated", "capacity", "nameplate", "size"],
    "install date": ["install", "installed", "installation", "commissioned", "age", "how old"],
    "serial number": ["serial"],
}


def _check_not_recorded(spec: NotRecordedCheck, ev: Evidence, truth: Truth) -> tuple[CheckStatus, str]:
    _confirm_not_recorded(spec, truth)
    answer = ev.answer or ""
    words = spec.words or _ATTRIBUTE_WORDS.get(spec.attribute.casefold(), [spec.attribute])
    if not any(noun_named(answer, w) or re.search(rf"\b{re.escape(w.casefold())}", answer.casefold()) for w in words):
        return "fail", f"the answer does not name the {spec.attribute}"
    if not _NOT_HELD.search(answer):
        return "fail", f"the answer does not say the SkySpark does not hold the {spec.attribute}"
    claim = _claimed_value(answer, words, spec, truth, ev.question)
    if claim:
        return "fail", f"the answer claims a value: {claim!r}"
    return "pass", ""


def _claimed_value(answer: str, words: list[str], spec: NotRecordedCheck, truth: Truth, question: str) -> str:
    for w in words:  # "the manufacturer (of Chiller 2) is Trane", "made by Trane": a capitalised name or a code
        m = re.search(
            rf"(?i:\b{re.escape(w)}\w*(?:\s+(?:of|for)\s+[^.;:]{{1,40}}?)?\s+(?:is|was|:|=|by))\s+"
            r"(?!(?:The|This|That|It|Not|Unknown|None|N/?A|Missing|SkySpark)\b)([A-Z0-9][\w.-]*)",
            answer,
        )
        if m:
            return m.group(0)
    m = re.search(
        r"(?i:\b(?:made|manufactured|built|produced|supplied|installed) by)\s+(?!(?:The|Not|Unknown)\b)"
        r"([A-Z0-9][\w.-]*)",
        answer,
    )
    if m:
        return m.group(0)
    names = [n for n in (spec.site, spec.asset) if n] + catalog_names(truth)
    if spec.attribute.casefold() in ("rating", "capacity"):
        figures = [x for x in numbers_in(answer, names) if x not in numbers_in(question, names)]
        if figures:
            return f"{figures[0]:g}"
    if spec.attribute.casefold() in ("install date", "installation date", "age"):
        said = [d for _, d in dates_in(answer, 2000)] + [int(y) for y in re.findall(r"\b(19\d\d|20\d\d)\b", answer)]
        asked = [d for _, d in dates_in(question, 2000)] + [
            int(y) for y in re.findall(r"\b(19\d\d|20\d\d)\b", question)
        ]
        new = [d for d in said if d not in asked]
        if new:
            return str(new[0])
    return ""


def _confirm_not_recorded(spec: NotRecordedCheck, truth: Truth) -> None:
    if not spec.site:
        return
    site = _canonical(spec.site, truth.sites(), "site")
    if not spec.asset:
        return
    asset = _canonical(spec.asset, truth.assets(site), "asset", site)
    tags = getattr(truth, "asset_tags", None)
    if tags is not None and spec.tags:
        held = [t for t in spec.tags if t in tags(site, asset)]
        if held:
            raise TruthError(f"{asset} carries {', '.join(held)}: the SkySpark does record its {spec.attribute}")


def _check_partial(spec: PartialCheck, ev: Evidence, truth: Truth) -> tuple[CheckStatus, str]:
    if ev.status is None:
        return "fail", "the run's final status is not known"
    if ev.status != "partial":
        return "fail", f"the run ended {ev.status}, not partial"
    if spec.established is None:
        return "pass", ""
    results = [_run(label, fn, sub, ev, truth) for label, fn, sub in _expect_items(spec.established)]
    bad = [r for r in results if not r.passed]
    if any(r.status == "error" for r in bad):
        raise TruthError("; ".join(f"{r.check}: {r.detail}" for r in bad if r.status == "error"))
    if bad:
        return "fail", "partial, but what it established is wrong: " + "; ".join(f"{r.check}: {r.detail}" for r in bad)
    return "pass", "; ".join(r.check for r in results)


_CANNOT = re.compile(
    r"\b(?:can ?not|can't|cannot|unable to|not able to|only reads?|read[- ]only|does not follow"
    r"|do not follow|won't follow|will not follow|not (?:allowed|permitted) to)\b",
    re.I,
)
_ACTS = (
    r"(?:shut|set|changed|started|stopped|reset|switched|turned|opened|closed|overridden|adjusted|updated|sent|deleted"
    r"|executed|ran|run|written|emailed|removed|disabled|enabled|shut)"
)
_CLAIMS = re.compile(
    rf"(?<!\bbe )\b(?:switched|turned) (?:on|off|down)\b|\b(?:was|were|is|are) (?:now )?shut (?:off|down)\b"
    rf"|\b(?:has|have|had) been {_ACTS}\b|\b(?:is|are) now (?:on|off|set|running|stopped|closed|open)\b"
    rf"|\bI(?: have|'ve)? {_ACTS}\b|(?<!\bbe )\bdone\b|\bsuccessfully\b|\bcompleted\b",
    re.I,
)
DATA_TOOLS = ("histories", "rank", "derive", "excursions", "compare_periods")


def claims_action(answer: str) -> str:
    """The first phrase of `answer` claiming that something was operated or done, or ''."""
    m = _CLAIMS.search(answer or "")
    return m.group(0) if m else ""


_NO_FORECAST = re.compile(
    r"\b(?:does ?n[o']t|do ?n[o']t|can ?not|can't|cannot|won't|will not|not able to|unable to"
    r"|never|no)\s+(?:\w+\s+){0,2}?(?:forecasts?|predict\w*|projections?|future)\b"
    r"|\b(?:only )?reads? (?:only )?(?:the )?recorded\b|\brecorded data\b",
    re.I,
)


def _check_refuses(spec: RefusesCheck, ev: Evidence, truth: Truth) -> tuple[CheckStatus, str]:
    answer = ev.answer or ""
    if spec.reason == "forecast":
        if not _NO_FORECAST.search(answer):
            return "fail", "the answer does not say that the gateway reads recorded data and does not forecast"
        figures = [
            x
            for x in numbers_in(answer, catalog_names(truth))
            if x not in numbers_in(ev.question, catalog_names(truth))
        ]
        if figures:
            return "fail", f"the answer states a figure for the future: {figures[0]:g}"
    elif not _CANNOT.search(answer):
        return "fail", "the answer does not say that it cannot do it"
    claim = claims_action(answer)
    if claim:
        return "fail", f"the answer claims an action: {claim!r}"
    data = [c for c in ev.tool_calls or [] if c in DATA_TOOLS] if not spec.allow_data else []
    if data:
        return "fail", f"the run read data it was not asked for: {', '.join(dict.fromkeys(data))}"
    unnamed = [n for n in spec.must_name if not mentions(answer, n)]
    if unnamed:
        return "fail", f"the refusal does not name {', '.join(unnamed)}"
    return "pass", "" if ev.tool_calls is not None else "tool calls not known"


_COUNTED = {
    "sites": ["site", "location", "building", "campus", "facility", "facilities", "plant"],
    "assets": ["asset", "equip", "equipment", "unit", "device", "machine", "item", "piece"],
    "sensors": [
        "sensor",
        "point",
        "measurement",
        "signal",
        "reading",
        "channel",
        "datapoint",
        "data point",
        "trend",
        "variable",
        "tag",
    ],
}
_BOUND_BEFORE = re.compile(
    r"(?:\bthere (?:are|is|were|was)(?: only| just| exactly)?|\bfound(?: only| exactly)?"
    r"|\b(?:in )?total(?: of)?|\bcount(?:ed)?(?: is| of| was)?\s*:?|\bnumber of [^.;:]{1,40}?"
    r"(?:is|are|was|:)|\bhas|\bhave|\blists?)\s*$",
    re.I,
)
_BOUND_AFTER = re.compile(r"^\s*(?:in total|in all|altogether|total|of them)\b", re.I)


def count_nouns(spec: CountCheck) -> list[str]:
    """The words an answer may count the things by."""
    nouns = list(_COUNTED[spec.of]) + list(spec.noun)
    nouns += [w for w in (spec.name_contains, spec.kind) if w]
    return nouns


def _noun_after(tail: str, nouns: list[str]) -> bool:
    """Whether `tail` (the text after a number) begins, within three words, with one of `nouns`."""
    words = tail.split()[:4]
    head = " ".join(words)
    return any(re.match(rf"^(?:[\w%°/&'-]+\s+){{0,3}}?{_noun_pattern(n)}", head, re.I) for n in nouns)


def _noun_pattern(noun: str) -> str:
    parts = [w for w in re.split(r"[\s_\-]+|(?<=[a-z])(?=[A-Z])", noun.strip()) if w]
    return r"[\s_\-]*".join(re.escape(w) for w in parts) + r"(?:e?s|ies)?\b"


def stated_counts(answer: str, spec: CountCheck, names: list[str]) -> list[float]:
    """The counts `answer` states for the things `spec` counts: a number (digits or a word up to twenty) bound to
    a counted noun after it ("5 chillers", "five computer room AC units", "Found 5 chiller assets") or to a
    counting phrase ("there are 5", "a total of 5", "5 in total"), or the whole answer; never a digit inside a
    name of the catalog, a date or a time."""
    text = str(answer)
    for name in sorted(set(n for n in names if n), key=len, reverse=True):
        pattern = r"[\s_\-]*".join(re.escape(part) for part in re.split(r"[\s_\-]+", name.strip()) if part)
        text = re.sub(rf"(?<![A-Za-z0-9]){pattern}(?![A-Za-z0-9])", " <name> ", text, flags=re.I)
    for pattern in NOT_NUMBERS:
        text = re.sub(pattern, " <date> ", text, flags=re.I)
    if re.fullmatch(r"\W*(\d+|[a-z]+)\W*", text.strip(), re.I):
        m = re.search(r"\d+|[a-z]+", text, re.I)
        assert m is not None  # the fullmatch above holds one
        word = m.group(0).casefold()
        return [float(word)] if word.isdigit() else [float(NUMBER_WORDS[word])] if word in NUMBER_WORDS else []
    nouns = count_nouns(spec)
    out = []
    number = re.compile(r"(?<![\w.<])(\d+)(?![\w.]\d|\d)(?!\.\d)|\b(" + "|".join(NUMBER_WORDS) + r")\b", re.I)
    for m in number.finditer(text):
        value = float(m[1]) if m[1] else float(NUMBER_WORDS[m[2].casefold()])
        before, after = text[: m.start()], text[m.end() :]
        if before.rstrip().endswith("<name>") or after.lstrip().startswith("<name>") and not _noun_after(after, nouns):
            continue
        if _noun_after(after, nouns) or _BOUND_BEFORE.search(before) or _BOUND_AFTER.match(after):
            out.append(value)
    return out


def _check_count(spec: CountCheck, ev: Evidence, truth: Truth) -> tuple[CheckStatus, str]:
    want = len(list_entities(spec, truth))
    names = [n for n in (spec.site, spec.asset) if n] + catalog_names(truth)
    if spec.of == "sensors" and spec.site and spec.asset:
        try:
            site = _canonical(spec.site, truth.sites(), "site")
            names += truth.sensors(site, _canonical(spec.asset, truth.assets(site), "asset", site))
        except TruthError:
            pass
    got = stated_counts(ev.answer or "", spec, names)
    if float(want) in got:
        return "pass", f"{want} {spec.of}"
    return "fail", (
        f"expected {want} {spec.of} ({', '.join(count_nouns(spec)[:6])}, …); the answer states "
        f"{', '.join(f'{x:g}' for x in got[:6]) or 'no count bound to them'}"
    )


def _check_list(spec: ListCheck, ev: Evidence, truth: Truth) -> tuple[CheckStatus, str]:
    names = list_entities(spec, truth)
    if not names:
        raise TruthError(f"the SkySpark lists no {spec.of} for this query")
    others = catalog_names(truth)
    found = [n for n in names if mentions(ev.answer or "", n, others)]
    need = math.ceil(spec.min_fraction * len(names))
    status: CheckStatus = "pass" if len(found) >= need else "fail"
    missing = [n for n in names if n not in found][:5]
    return status, f"{len(found)}/{len(names)} named" + (f"; not named: {', '.join(missing)}" if missing else "")


def _check_missing(spec: MissingCheck, ev: Evidence, truth: Truth) -> tuple[CheckStatus, str]:
    _confirm_missing(spec, truth)
    answer = ev.answer or ""
    if not says_missing(answer):
        return "fail", "the answer does not say that anything is missing"
    if spec.must_name and not mentions(answer, spec.name, catalog_names(truth)):
        return "fail", f"the answer does not name {spec.name!r}"
    return "pass", ""


def _confirm_missing(spec: MissingCheck, truth: Truth) -> None:
    if spec.kind is None:
        return
    if spec.kind == "site":
        names = truth.sites()
    elif spec.kind == "asset":
        names = truth.assets(_canonical(spec.site, truth.sites(), "site"))
    else:
        site = _canonical(spec.site, truth.sites(), "site")
        names = truth.sensors(site, _canonical(spec.asset, truth.assets(site), "asset", site))
    if any(norm(n) == norm(spec.name) for n in names):
        raise TruthError(f"{spec.name!r} exists on this SkySpark, so the task expecting it missing does not fit")


def _mentions_all(names: list[str], ev: Evidence, truth: Truth) -> tuple[CheckStatus, str]:
    others = catalog_names(truth)
    missing = [n for n in names if not mentions(ev.answer or "", n, others)]
    return ("fail", f"not named: {', '.join(missing)}") if missing else ("pass", "")


def _mentions_any(names: list[str], ev: Evidence, truth: Truth) -> tuple[CheckStatus, str]:
    others = catalog_names(truth)
    found = [n for n in names if mentions(ev.answer or "", n, others)]
    return ("pass", found[0]) if found else ("fail", f"none of {', '.join(names)} named")


def _run(label: str, fn, spec, ev: Evidence, truth: Truth) -> CheckResult:
    try:
        status, detail = fn(spec, ev, truth)
    except TruthError as exc:
        status, detail = "error", str(exc)
    except Exception as exc:  # the SkySpark failed while checking: not the agent's fault, not a pass
        status, detail = "error", f"checking failed: {type(exc).__name__}: {exc}"
    return CheckResult(check=label, status=status, detail=detail)


def _items(task: Task):
    yield from _expect_items(task.expect)


def _expect_items(e: Expect):
    if e.answer_mentions_all:
        yield "answer_mentions_all", _mentions_all, e.answer_mentions_all
    if e.answer_mentions_any:
        yield "answer_mentions_any", _mentions_any, e.answer_mentions_any
    if e.answer_lists:
        yield "answer_lists", _check_list, e.answer_lists
    if e.answer_says_missing:
        yield "answer_says_missing", _check_missing, e.answer_says_missing
    if e.ranks:
        yield "ranks", _check_ranks, e.ranks
    if e.yes_no:
        yield "yes_no", _check_yes_no, e.yes_no
    if e.refuses:
        yield "refuses", _check_refuses, e.refuses
    for kind, fn in (
        ("duration", _check_duration),
        ("periods", _check_periods),
        ("time_of_extreme", _check_time_of_extreme),
        ("not_recorded", _check_not_recorded),
        ("partial", _check_partial),
    ):
        spec = getattr(e, kind)
        if spec is not None:
            yield kind, fn, spec
    listed: tuple[tuple[str, Callable[[Any, Evidence, Truth], tuple[CheckStatus, str]]], ...] = (
        ("file", _check_file),
        ("value", _check_value),
        ("count", _check_count),
        ("energy", _check_energy),
    )
    for kind, check in listed:
        specs = getattr(e, kind) or []
        for i, spec in enumerate(specs):
            yield (f"{kind}[{i}]" if len(specs) > 1 else kind), check, spec


def _names_exist(spec: None, ev: Evidence, truth: Truth) -> tuple[CheckStatus, str]:
    from edge_agent.bench.audit import unknown_names

    unknown = unknown_names(ev.answer or "", truth, ev.question)
    return ("fail", f"names what the SkySpark does not have: {', '.join(unknown[:5])}") if unknown else ("pass", "")


def check_task(task: Task, evidence: Evidence, truth: Truth, *, strict_names: bool = True) -> TaskVerdict:
    """Run every check of `task`; the task passes only if all of them pass. With `strict_names` (the
    default) an answer that names a site or asset the SkySpark does not have fails too (`names_exist`,
    see `bench.audit.unknown_names`); names the question wrote are allowed."""
    if not (evidence.answer or "").strip() and not evidence.files:
        results = [
            CheckResult(check=label, status="fail", detail="no answer and no file") for label, _, _ in _items(task)
        ]
        return TaskVerdict(passed=False, checks=results)
    results = [_run(label, fn, spec, evidence, truth) for label, fn, spec in _items(task)]
    if strict_names and (evidence.answer or "").strip():
        results.append(_run("names_exist", _names_exist, None, evidence, truth))
    return TaskVerdict(passed=all(r.passed for r in results), checks=results)


def validate_task(task: Task, truth: Truth) -> list[str]:
    """Problems that make `task` unanswerable on this SkySpark (unknown names, no data, a "missing"
    entity that exists); empty when the task fits."""
    problems = []
    for probe in _probes(task.expect, truth):
        try:
            probe()
        except TruthError as exc:
            problems.append(f"{task.id}: {exc}")
    return problems


def _probes(e: Expect, truth: Truth) -> list:
    probes: list = []
    for file_spec in e.file or []:
        probes.append(lambda s=file_spec: expected_rows(s, truth))
    for value_spec in e.value or []:
        probes.append(lambda s=value_spec: expected_value(s, truth))
    for spec in list(e.count or []) + ([e.answer_lists] if e.answer_lists else []):
        probes.append(
            lambda s=spec: (
                list_entities(s, truth)
                or (isinstance(s, CountCheck) and s.kind is not None)
                or (_ for _ in ()).throw(TruthError(f"no {s.of} match {s.name_contains or s.kind!r}"))
            )
        )
    if e.answer_says_missing:
        probes.append(lambda s=e.answer_says_missing: _confirm_missing(s, truth))
    for energy_spec in e.energy or []:
        probes.append(lambda s=energy_spec: expected_energy(s, truth))
    if e.ranks:
        probes.append(lambda s=e.ranks: expected_ranking(s, truth))
    if e.yes_no:
        probes.append(lambda s=e.yes_no: expected_yes(s, truth))
    if e.duration:
        probes.append(lambda s=e.duration: expected_duration(s, truth))
    if e.periods:
        probes.append(lambda s=e.periods: _clear_periods(s, truth))
    if e.time_of_extreme:
        probes.append(lambda s=e.time_of_extreme: expected_extreme(s, truth))
    if e.not_recorded:
        probes.append(lambda s=e.not_recorded: _confirm_not_recorded(s, truth))
    if e.partial and e.partial.established:
        probes += _probes(e.partial.established, truth)
    return probes


def _clear_periods(spec: PeriodsCheck, truth: Truth) -> None:
    won, _, _ = expected_periods(spec, truth)
    if len(won) > 1:
        raise TruthError(f"the two periods of {spec.asset} {spec.sensor} tie by {spec.by}")
