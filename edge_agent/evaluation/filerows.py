"""The rows of a result file as the checker compares them: `file_rows` reads a JSON file of history rows whatever
its keys are called (asset/equip, sensor/point, timestamp/ts, value/val) into a multiset of (asset, sensor,
instant, value), and `diff_file` compares it with the expected rows (`FileDiff`: missing, extra, duplicated and
wrong-valued rows, with an example).
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass
from datetime import UTC, datetime, tzinfo
from typing import Any

from edge_agent.evaluation.answer_text import norm
from edge_agent.evaluation.tasks import FileCheck

_ASSET_KEYS = ("asset_name", "asset", "equip_name", "equip", "equipName")
_SENSOR_KEYS = ("sensor_name", "sensor", "point_name", "point", "pointName")
_TS_KEYS = ("timestamp", "ts", "time", "datetime", "date_time")
_VALUE_KEYS = ("value", "val", "v")
_ISO_PREFIX = re.compile(r"^\s*(\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:?\d{2})?)")

RowKey = tuple[str, str, datetime]


def _pick(row: dict, keys: tuple[str, ...]) -> Any:
    for key in keys:
        if key in row:
            return row[key]
    return None


def sensor_key(asset: str, sensor: str) -> str:
    """A sensor's short name, normalised: "Chiller 6 Tonnage" of Chiller 6 and "Tonnage" are one key."""
    a, s = norm(asset), norm(sensor)
    return s[len(a) + 1 :] if s.startswith(a + " ") and len(s) > len(a) + 1 else s


def parse_ts(value: Any, tz: tzinfo | None) -> datetime | None:
    if isinstance(value, datetime):
        ts = value
    elif isinstance(value, (int, float)) and not isinstance(value, bool):
        seconds = value / 1000 if value > 1e11 else value
        return datetime.fromtimestamp(seconds, UTC)
    elif isinstance(value, str):
        m = _ISO_PREFIX.match(value)
        if not m:
            return None
        try:
            ts = datetime.fromisoformat(m.group(1).replace("Z", "+00:00").replace(" ", "T"))
        except ValueError:
            return None
    else:
        return None
    if ts.tzinfo is None:
        ts = ts.replace(tzinfo=tz or UTC)
    return ts.astimezone(UTC)


def parse_value(value: Any) -> float | None:
    if isinstance(value, dict):
        value = value.get("val", value.get("value"))
    if value is None or isinstance(value, bool):
        return None if value is None else float(value)
    if isinstance(value, (int, float)):
        return float(value)
    m = re.match(r"^\s*(-?\d+(?:\.\d+)?(?:[eE][-+]?\d+)?)", str(value))
    return float(m.group(1)) if m else None


def file_rows(data: Any, spec: FileCheck) -> Counter | None:
    """The rows of a result file as a multiset of (asset, sensor, instant) → value, or None if the file
    is not an array of history rows."""
    if isinstance(data, dict):
        lists = [v for v in data.values() if isinstance(v, list)]
        data = lists[0] if len(lists) == 1 else None
    if not isinstance(data, list) or not data or not all(isinstance(r, dict) for r in data):
        return None
    tz = spec.start.tzinfo
    only_asset = spec.assets[0] if len(spec.assets) == 1 else None
    only_sensor = spec.sensors[0] if len(spec.sensors) == 1 else None
    rows: Counter = Counter()
    for row in data:
        ts = parse_ts(_pick(row, _TS_KEYS), tz)
        asset = _pick(row, _ASSET_KEYS) or only_asset
        sensor = _pick(row, _SENSOR_KEYS) or only_sensor
        if ts is None or asset is None or sensor is None:
            return None
        value = parse_value(_pick(row, _VALUE_KEYS))
        rows[
            (norm(str(asset)), sensor_key(str(asset), str(sensor)), ts, None if value is None else round(value, 6))
        ] += 1
    return rows


@dataclass
class FileDiff:
    name: str
    missing: int = 0
    extra: int = 0
    wrong_value: int = 0
    example: str = ""

    @property
    def exact(self) -> bool:
        return self.missing == self.extra == self.wrong_value == 0

    @property
    def score(self) -> int:
        return self.missing + self.extra + self.wrong_value

    def describe(self) -> str:
        parts = [
            f"{n} {what}"
            for n, what in (
                (self.missing, "missing rows"),
                (self.extra, "extra rows"),
                (self.wrong_value, "rows with a wrong value"),
            )
            if n
        ]
        return f"{self.name}: " + (", ".join(parts) or "exact") + (f" (e.g. {self.example})" if self.example else "")


def diff_file(name: str, rows: Counter, expected: dict[RowKey, float | None], tol: float) -> FileDiff:
    diff = FileDiff(name)
    seen: Counter = Counter()
    for (asset, sensor, ts, value), n in rows.items():
        key = (asset, sensor, ts)
        seen[key] += n
        if key not in expected:
            diff.extra += n
            diff.example = diff.example or f"unexpected {asset} {sensor} {ts.isoformat()}"
            continue
        want = expected[key]
        if (want is None) != (value is None) or (want is not None and abs(value - want) > tol):
            diff.wrong_value += n
            diff.example = diff.example or f"{asset} {sensor} {ts.isoformat()}: {value} instead of {want}"
    for key, n in seen.items():
        if key in expected and n > 1:
            diff.extra += n - 1  # duplicated rows are not "exactly the rows"
            diff.example = diff.example or f"duplicate row {key[0]} {key[2].isoformat()}"
    missing = [k for k in expected if k not in seen]
    diff.missing = len(missing)
    if missing and not diff.example:
        assets = sorted({k[0] for k in missing})
        diff.example = f"missing {', '.join(assets)} from {min(k[2] for k in missing).isoformat()}"
    return diff
