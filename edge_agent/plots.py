"""Plots of the series an answer read: one SVG per run, drawn server-side with matplotlib.

`series_in(data)` finds time series in a result file the tools wrote (rows with `timestamp` and a numeric
`value`, grouped by asset and sensor: what `histories` writes). `plot_svg` draws every series of the given files
on one figure: site time (the timestamps' own UTC offset) on x, the unit on y (a second axis when two units), and
each figure the answer states that equals a sample marked on the curve. `add_plot` writes it into the run's file
store, so it travels like any result file (manifest, chunks over MQTT, the console's downloads).

SVG, not PNG: a few kB of text for a few hundred samples, sharp at any zoom, and the console shows it as an
image with no JavaScript library (it ships nothing from a CDN).
"""

from __future__ import annotations

import io
import json
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any

from edge_agent.filestore import FileInfo, FileStore, FileStoreError

if TYPE_CHECKING:
    from matplotlib.transforms import Bbox

MAX_SERIES = 12
_NUMBER = re.compile(r"-?\d+(?:\.\d+)?")


@dataclass
class Series:
    label: str
    unit: str
    times: list[datetime] = field(default_factory=list)
    values: list[float] = field(default_factory=list)


def series_in(data: Any) -> list[Series]:
    """The time series of one result file's JSON (rows with timestamp + numeric value), by asset and sensor."""
    rows = data if isinstance(data, list) else []
    found: dict[tuple, Series] = {}
    for row in rows:
        if not isinstance(row, dict) or "timestamp" not in row:
            continue
        value = row.get("value")
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            continue
        try:
            when = datetime.fromisoformat(str(row["timestamp"]).replace("Z", "+00:00"))
        except ValueError:
            continue
        key = (row.get("site_name"), row.get("asset_name"), row.get("sensor_name"))
        label = " / ".join(str(k) for k in key[1:] if k) or "series"
        s = found.setdefault(key, Series(label=label, unit=str(row.get("unit") or "")))
        s.times.append(when)
        s.values.append(float(value))
    return [s for s in found.values() if s.times][:MAX_SERIES]


def figures(texts: Iterable[str]) -> list[str]:
    """The figures an answer states (as written), for marking on the curves."""
    return [m.group(0) for text in texts for m in _NUMBER.finditer(text or "")]


def _marks(series: Series, stated: list[str]) -> list[tuple[datetime, float, str]]:
    out = []
    for text in dict.fromkeys(stated):
        decimals = len(text.split(".")[1]) if "." in text else 0
        target = float(text)
        for t, v in zip(series.times, series.values):
            if round(v, decimals) == target:
                out.append((t, v, text))
                break  # the first sample that shows it
    return out


def figure(all_series: list[Series], stated: Sequence[str] = (), title: str = ""):
    """The matplotlib figure of `plot_svg` (the caller closes it): series, marks with their figures, the legend
    under the plot (never over the curves or the figures), site time on x."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.dates as mdates
    import matplotlib.pyplot as plt

    units = list(dict.fromkeys(s.unit for s in all_series))[:2]
    tz = all_series[0].times[0].tzinfo
    fig, ax = plt.subplots(figsize=(8, 3.6 + 0.22 * ((len(all_series) + 1) // 2)), layout="constrained")
    axes = {units[0]: ax}
    if len(units) > 1:
        axes[units[1]] = ax.twinx()
    t0 = min(s.times[0] for s in all_series).timestamp()
    t1 = max(s.times[-1] for s in all_series).timestamp()
    span = {
        u: (
            min(v for s in all_series if s.unit == u for v in s.values),
            max(v for s in all_series if s.unit == u for v in s.values),
        )
        for u in units
    }
    marks: list[tuple] = []
    left = list(dict.fromkeys(stated))  # each figure the answer states is marked once, on the first curve with it
    for i, s in enumerate(all_series):
        target = axes.get(s.unit, ax)
        (line,) = target.plot(
            s.times,  # type: ignore[arg-type]  # matplotlib's stubs take no datetimes; its unit converters do
            s.values,
            label=f"{s.label} ({s.unit})" if s.unit else s.label,
            linewidth=1.2,
            color=f"C{i % 10}",
        )
        lo, hi = span.get(s.unit, (min(s.values), max(s.values)))
        for t, v, text in _marks(s, left):
            left.remove(text)
            target.plot([t], [v], "o", color=line.get_color(), markersize=6)  # type: ignore[arg-type]  # as above
            marks.append(
                (target, t, v, text, ((t.timestamp() - t0) / ((t1 - t0) or 1.0), (v - lo) / ((hi - lo) or 1.0)))
            )
    marks.sort(key=lambda m: m[4])
    labels = [
        target.annotate(
            text,
            (t, v),
            textcoords="offset points",
            xytext=(4, 6),
            fontsize=8,
            bbox={"boxstyle": "round,pad=0.15", "fc": "white", "ec": "none", "alpha": 0.8},
        )
        for target, t, v, text, _ in marks
    ]
    for unit, a in axes.items():
        a.set_ylabel(unit or "value")
    locator = mdates.AutoDateLocator(minticks=3, maxticks=7)
    ax.xaxis.set_major_locator(locator)
    ax.xaxis.set_major_formatter(mdates.ConciseDateFormatter(locator, tz=tz))
    offset = all_series[0].times[0].strftime("%z")
    ax.set_xlabel(f"site time (UTC{offset[:3]}:{offset[3:]})" if offset else "site time")
    ax.grid(True, alpha=0.3)
    handles = [h for a in axes.values() for h in a.get_legend_handles_labels()[0]]
    fig.legend(handles=handles, fontsize=8, loc="outside lower center", ncols=min(2, len(handles)), frameon=False)
    if title:
        ax.set_title(title if len(title) <= 90 else title[:89] + "…", fontsize=9)
    _unstack(fig, labels)
    return fig


def _unstack(fig, labels: list) -> None:
    """Move each figure's label up, a line at a time, until it covers no label placed before it."""
    if not labels:
        return
    fig.canvas.draw()
    renderer = fig.canvas.get_renderer()
    placed: list[Bbox] = []
    for label in labels:
        dy = 6
        for _ in range(12):
            box = label.get_window_extent(renderer)
            if not any(box.overlaps(other) for other in placed):
                break
            dy += 11
            label.xyann = (4, dy)
        placed.append(label.get_window_extent(renderer))


def plot_svg(all_series: list[Series], stated: Sequence[str] = (), title: str = "") -> bytes:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    with matplotlib.rc_context({"svg.hashsalt": "edge-agent", "svg.fonttype": "none"}):
        fig = figure(all_series, stated, title)
        buf = io.BytesIO()
        fig.savefig(buf, format="svg", metadata={"Date": None})
        plt.close(fig)
    return buf.getvalue()


def add_plot(
    files_dir: Path,
    files: list[FileInfo],
    answer_texts: Iterable[str],
    title: str = "",
) -> FileInfo | None:
    """Plot every series in the run's result `files` (in the store at `files_dir`) into one SVG file there;
    None when no file holds a series."""
    store = FileStore(files_dir)
    found: list[Series] = []
    for info in files:
        if not info.name.endswith(".json"):
            continue
        try:
            found += series_in(json.loads(store.read_bytes(info.name).decode("utf-8")))
        except (FileStoreError, OSError, ValueError):
            continue
    if not found:
        return None
    name = store.new_name("plot", ".svg")
    store.write_bytes(name, plot_svg(found[:MAX_SERIES], figures(answer_texts), title))
    return store.info(name)
