"""An operator's own dataset, for `edge-agent simulate --dataset F`: `FileDataset` loads the records (a Haystack JSON
or Zinc grid) with histories from a CSV file (`id,ts,val`, or the same gzip-compressed: `.csv.gz`) and serves them
as the simulator's `Dataset`. A bad file raises `EncodingError` naming the file and line.
"""

from __future__ import annotations

import csv
import gzip
from bisect import bisect_left
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from phable.kinds import Grid, Number, Ref

from edge_agent.skyspark.encoding import EncodingError, zone
from edge_agent.skyspark.haystack_json import json_to_grid
from edge_agent.skyspark.zinc_reader import Scanner, zinc_to_grid


@dataclass
class FileDataset:
    """Records from a Haystack JSON/Zinc grid file and histories from a CSV file (`id,ts,val`)."""

    records: list[dict]
    series: dict[str, list[tuple[datetime, Any]]] = field(default_factory=dict)

    def __post_init__(self) -> None:
        self._by_id = {}
        for rec in self.records:
            if not isinstance(rec.get("id"), Ref):
                raise EncodingError(f"every record needs an id ref; this one has none: {rec.get('dis', rec)!r}")
            self._by_id[rec["id"].val] = rec
        for pid in self.series:
            # by instant: two aware datetimes of one ZoneInfo compare by wall clock, so the hour a DST change
            # repeats would interleave (01:00-05:00, 01:00-06:00, 01:15-05:00, …)
            self.series[pid].sort(key=lambda tv: tv[0].timestamp())

    def rec(self, rec_id: str) -> dict | None:
        return self._by_id.get(rec_id)

    def his(self, point_id: str, start: datetime, end: datetime) -> list[tuple[datetime, Any]]:
        if point_id not in self._by_id:
            raise KeyError(point_id)
        rows = self.series.get(point_id, [])
        times = [t.timestamp() for t, _ in rows]
        return rows[bisect_left(times, start.timestamp()) : bisect_left(times, end.timestamp())]

    @classmethod
    def load(cls, records_file: Path, histories_csv: Path | None = None) -> FileDataset:
        records_file = Path(records_file)
        text = records_file.read_text(encoding="utf-8")
        grid: Grid = json_to_grid(text) if text.lstrip().startswith("{") else zinc_to_grid(text)
        records = [dict(r) for r in grid.rows]
        if histories_csv is None:
            candidates = [records_file.with_suffix(".csv"), records_file.with_suffix(".csv.gz")]
            histories_csv = next((c for c in candidates if c.exists()), None)
        series: dict[str, list[tuple[datetime, Any]]] = {}
        if histories_csv is not None:
            by_id = {r["id"].val: r for r in records if isinstance(r.get("id"), Ref)}
            opener = gzip.open if str(histories_csv).endswith(".gz") else open
            with opener(histories_csv, "rt", newline="", encoding="utf-8") as fh:
                for lineno, row in enumerate(csv.DictReader(fh), start=2):
                    try:
                        pid = row["id"].lstrip("@")
                        rec = by_id.get(pid)
                        if rec is None:
                            raise EncodingError(f"unknown point id @{pid}")
                        ts = datetime.fromisoformat(row["ts"].replace("Z", "+00:00"))
                        tz = zone(rec.get("tz", "UTC")) if isinstance(rec.get("tz"), str) else UTC
                        ts = ts.replace(tzinfo=tz) if ts.tzinfo is None else ts.astimezone(tz)
                        series.setdefault(pid, []).append((ts, _csv_value(row["val"], rec)))
                    except (KeyError, ValueError) as exc:
                        raise EncodingError(f"{histories_csv}:{lineno}: {exc}") from None
        return cls(records, series)


def _csv_value(text: str, rec: dict) -> Any:
    text = text.strip()
    if rec.get("kind") == "Bool":
        if text.lower() in ("true", "t", "1", "on"):
            return True
        if text.lower() in ("false", "f", "0", "off"):
            return False
        raise ValueError(f"not a boolean: {text!r}")
    if rec.get("kind") == "Str":
        return text
    val = Scanner(text).literal() if not _is_float(text) else float(text)
    if isinstance(val, Number):
        return val.val
    if isinstance(val, float):
        return val
    raise ValueError(f"not a number: {text!r}")


def _is_float(text: str) -> bool:
    try:
        float(text)
        return True
    except ValueError:
        return False
