"""Result files as a spreadsheet opens them: history rows as CSV, and the format a question or a request asks for.

A CSV is written beside the JSON file a tool writes (the JSON stays: the benchmark and `jsonmerge` read it) where the
operator says CSV, spreadsheet or Excel, or the MQTT request sets `options.format: csv`. It is UTF-8 with a byte-order
mark and CRLF line ends, so Excel shows °C and m³ as written; times are site-local wall-clock times
("2026-10-25 02:30:00") with the site's UTC offset in the header, or in a column of its own where the file spans a
clock change; each value's unit is in its own column.
"""

from __future__ import annotations

import csv
import io
import re
from datetime import datetime
from typing import Any, Literal

FileFormat = Literal["json", "csv"]

#: the words that ask for a file a spreadsheet opens
_ASKS_CSV = re.compile(r"\b(?:csv|spreadsheet|excel|xlsx?)\b", re.I)


def format_asked(question: str, requested: FileFormat | None = None) -> FileFormat:
    """The format the result files take: the request's own `format` where it sets one, else CSV where the question
    names CSV, a spreadsheet or Excel, else JSON."""
    if requested is not None:
        return requested
    return "csv" if _ASKS_CSV.search(question or "") else "json"


def _offset(ts: datetime) -> str:
    off = ts.strftime("%z")
    return f"UTC{off[:3]}:{off[3:]}" if off else "site time"


def history_csv(rows: list[dict[str, Any]]) -> bytes:
    """History rows ({site_name, asset_name, sensor_name, timestamp, value, unit}) as CSV bytes (see the module)."""
    times = [datetime.fromisoformat(r["timestamp"]) for r in rows]
    offsets = {_offset(t) for t in times}
    one = next(iter(offsets)) if len(offsets) == 1 else None
    head = [f"time ({one})" if one else "time (site time)"]
    head += [] if one else ["utc offset"]
    head += ["site", "asset", "sensor", "value", "unit"]
    out = io.StringIO()
    w = csv.writer(out, lineterminator="\r\n")
    w.writerow(head)
    for r, t in zip(rows, times):
        value = r.get("value")
        value = str(value).lower() if isinstance(value, bool) else value
        w.writerow(
            [t.strftime("%Y-%m-%d %H:%M:%S")]
            + ([] if one else [_offset(t)])
            + [r.get("site_name", ""), r.get("asset_name", ""), r.get("sensor_name", ""), value, r.get("unit") or ""]
        )
    return ("\ufeff" + out.getvalue()).encode("utf-8")


def series_stem(prefix: str, rows: list[dict[str, Any]], limit: int = 40) -> str:
    """A history file's stem naming every series it holds: `history_Chiller_6_Tonnage`, one sensor of several
    assets `history_Chiller_6_Chiller_9_Tonnage`, several sensors `merged_Chiller_6_Tonnage_Chiller_9_Power`; where
    that would not fit the file store's `limit` characters, the count: `merged_4_series_Tonnage`, `merged_3_series`
    (never the first series alone, as if it were the only one)."""
    pairs = list(dict.fromkeys((str(r.get("asset_name")), str(r.get("sensor_name"))) for r in rows))
    if not pairs:
        return prefix
    if len(pairs) == 1:  # one series: its name (the point's own name holds its asset's: "TR-2 Oil Temp")
        asset, sensor = pairs[0]
        return f"{prefix}_{sensor}" if sensor.startswith(asset) else f"{prefix}_{asset}_{sensor}"
    sensors = list(dict.fromkeys(s for _, s in pairs))
    if len(sensors) == 1:
        full = "_".join([prefix, *dict.fromkeys(a for a, _ in pairs), sensors[0]])
    else:
        full = "_".join([prefix, *(f"{a}_{s}" for a, s in pairs)])
    if len(re.sub(r"[^A-Za-z0-9]+", "_", full).strip("_")) <= limit:
        return full
    return f"{prefix}_{len(pairs)}_series" + (f"_{sensors[0]}" if len(sensors) == 1 else "")


def saved_as(ctx: Any, rows: list[dict[str, Any]], stem: str) -> str:
    """Write history rows as JSON in the run's file store (`ctx.files`: what `jsonmerge` and the benchmark read) and,
    where `ctx.file_format` is "csv", as CSV too; returns the name(s) a tool's head says:
    "history_x.csv (and history_x.json)"."""
    name: str = ctx.files.write_json(rows, stem)
    if ctx.file_format != "csv" or not rows:
        return name
    sheet: str = ctx.files.write_new(history_csv(rows), stem, ".csv")
    return f"{sheet} (and {name})"
