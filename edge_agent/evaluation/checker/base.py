"""What every kind of check shares: a check's result and a task's verdict, the evidence a run left, the error of a
task that does not fit the SkySpark, and the truth lookups (names resolved as the tools resolve them, a point's
samples, the catalog's names an answer's number must not be read inside of).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, Literal

from pydantic import BaseModel

from edge_agent.evaluation import conclusions as cc
from edge_agent.evaluation.answer_text import norm
from edge_agent.evaluation.filerows import sensor_key
from edge_agent.evaluation.tasks import EntityQuery, LimitSpec
from edge_agent.evaluation.truth import Truth

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


def limit_pairs(spec: LimitSpec, truth: Truth) -> list[tuple[datetime, float, float]]:
    """The series' samples beside their limit: the number, or the setpoint sensor's sample at the same instant."""
    series, _ = series_of(truth, spec.site, spec.asset, spec.sensor, spec.start, spec.end)
    if spec.limit_sensor is not None:
        limit, _ = series_of(truth, spec.site, spec.asset, spec.limit_sensor, spec.start, spec.end)
        return cc.align(series, limit)
    assert spec.limit is not None  # a limit or a limit sensor (`LimitSpec`)
    return [(at, v, float(spec.limit)) for at, v in series]
