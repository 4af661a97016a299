"""Plots of the series an answer read: one SVG per run, drawn server-side with matplotlib.

`series_in(data)` finds time series in a result file the tools wrote (rows with `timestamp` and a numeric
`value`, grouped by asset and sensor: what `histories` writes). `plot_svg` draws every series of the given files
on one figure: site time (the timestamps' own UTC offset) on x, the unit on y (a second axis when two units), and
each figure the answer states that equals a sample marked on the curve. `add_plot` writes it into the run's file
store, so it travels like any result file (manifest, chunks over MQTT, the console's downloads).

SVG, not PNG: a few kB of text for a few hundred samples, sharp at any zoom, and the console shows it as an
image with no JavaScript library (it ships nothing from a CDN).

Narrow screens (issue 41 b): the SVG is drawn once, 8 inches wide, and the page shrinks it; on a phone its text
would shrink with it and crowd. So every other x tick label (and every other y tick label of an axis with more than
`DENSE_Y` of them) is marked `ea-thin`, the tick labels kept `ea-tick`, the legend's texts `ea-legend`, and the SVG
carries its own `<style>` with a media query on its own rendered width (in an `<img>` or `<object>` an SVG's media
queries see the image's box): under `NARROW_PX` the thin labels are hidden and the rest enlarged, each group by the
largest factor (up to `MAX_GROW`) at which no enlarged label would cover another text, the axes or leave the figure
(measured when drawing). Nothing changes at full size; no script, nothing fetched.
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
from xml.sax.saxutils import escape

from edge_agent.filestore import FileInfo, FileStore, FileStoreError

if TYPE_CHECKING:
    from matplotlib.transforms import Bbox

MAX_SERIES = 12
NARROW_PX = 520  # rendered narrower than this (CSS px), the thin labels go and the others grow
DENSE_Y = 4  # an axis with more y tick labels than this loses every other one when narrow
MAX_GROW = 1.8  # the most a kept label's font grows when narrow
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
        style, common = narrow_style(fig)
        buf = io.BytesIO()
        fig.savefig(buf, format="svg", metadata={"Date": None})
        plt.close(fig)
    return _with_style(buf.getvalue(), style, common)


def _shown_tick_labels(axis) -> list:
    """The tick labels `axis` draws, left to right (bottom to top): ticks in view, with text."""
    locs = list(axis.get_majorticklocs())
    lo, hi = sorted(axis.get_view_interval())
    eps = (hi - lo) * 1e-9
    out = []
    for tick, loc in sorted(zip(axis.get_major_ticks(len(locs)), locs), key=lambda p: p[1]):
        if lo - eps <= loc <= hi + eps:
            out += [lab for lab in (tick.label1, tick.label2) if lab.get_visible() and lab.get_text().strip()]
    return out


def narrow_style(fig) -> tuple[str, str]:
    """Mark the labels a narrow rendering hides or enlarges (their gid, made a class by `_with_style`) and return
    the SVG's `<style>` for it (see the module's doc), and the tail every legend entry repeats (hidden when narrow,
    so that several entries read as their assets)."""
    from matplotlib.legend import Legend
    from matplotlib.text import Text

    fig.canvas.draw()
    renderer = fig.canvas.get_renderer()
    thin: list = []
    kept: list = []
    for ax in fig.axes:
        for axis, dense in ((ax.xaxis, 0), (ax.yaxis, DENSE_Y)):
            labels = _shown_tick_labels(axis)
            if len(labels) > dense:
                thin += labels[1::2]
                kept += labels[0::2]
            else:
                kept += labels
    legend = [t for leg in fig.findobj(Legend) for t in leg.get_texts() if t.get_text().strip()]
    common = _common_tail([t.get_text() for t in legend])  # what every entry repeats, hidden when narrow
    hidden = {id(t) for t in thin}
    shown = [
        t for t in fig.findobj(Text) if t.get_visible() and t.get_text().strip() and id(t) not in hidden
    ]  # what a narrow rendering still shows
    groups = {"ea-tick": kept, "ea-legend": legend}
    grow = {name: 1.0 for name in groups}
    cut = {id(t): len(common) for t in legend}
    for name in groups:
        grow[name] = _largest_fit(fig, renderer, shown, groups, grow, name, cut)
    for n, t in enumerate(thin):
        t.set_gid(f"ea-thin-{n}")
    for name, texts in groups.items():
        for n, t in enumerate(texts):
            t.set_gid(f"{name}-{n}")
    rules = [f"@media (max-width: {NARROW_PX}px) {{", "  .ea-thin { display: none; }"]
    for name, texts in groups.items():
        if texts and grow[name] > 1.0:
            size = round(texts[0].get_fontsize() * grow[name], 2)
            rules.append(f"  .{name} text {{ font-size: {size}px !important; }}")
    return "\n".join([*rules, "}"]), common


def _common_tail(labels: list[str]) -> str:
    """The ' / sensor (unit)' every one of several legend labels ends with (they then differ by asset), or ''."""
    if len(labels) < 2:
        return ""
    tail = labels[0]
    while tail and not all(lab.endswith(tail) and len(lab) > len(tail) for lab in labels):
        cut = tail.find(" / ", 1)
        tail = tail[cut:] if cut > 0 else ""
    return tail


def _largest_fit(fig, renderer, shown: list, groups: dict, grow: dict, name: str, cut: dict) -> float:
    """The largest factor (MAX_GROW down to 1, by 0.1) by which group `name`'s texts grow (each from its anchor,
    the other groups at their factor in `grow`) with none covering another shown text or an axes, or leaving the
    figure; a text in `cut` loses that many characters at its end when narrow)."""
    factor_of = {id(t): grow[g] for g, texts in groups.items() for t in texts}
    own = {id(t) for t in groups[name]}
    frame = fig.bbox
    areas = [ax.bbox for ax in fig.axes]
    steps = int(round((MAX_GROW - 1.0) * 10))
    for k in range(steps, -1, -1):
        f = 1.0 + k / 10
        boxes = [
            (id(t), _grown(t, renderer, f if id(t) in own else factor_of.get(id(t), 1.0), cut.get(id(t), 0)))
            for t in shown
        ]
        mine = [b for key, b in boxes if key in own]
        others = [b for key, b in boxes if key not in own]
        fits = all(frame.x0 <= b.x0 and b.x1 <= frame.x1 and frame.y0 <= b.y0 and b.y1 <= frame.y1 for b in mine)
        fits = fits and not any(b.overlaps(o) for b in mine for o in others + areas)
        fits = fits and not any(a.overlaps(b) for i, a in enumerate(mine) for b in mine[i + 1 :])
        if fits or k == 0:
            return f
    return 1.0


def _grown(text, renderer, f: float, cut: int = 0):
    """`text`'s box with its font `f` times larger: from its anchor (its alignment across, its baseline up), with
    a point of margin; less its last `cut` characters (a left-aligned text)."""
    from matplotlib.transforms import Bbox

    box = text.get_window_extent(renderer)
    if cut:
        kept = text.get_text()[:-cut]
        width = renderer.get_text_width_height_descent(kept, text.get_fontproperties(), ismath=False)[0]
        box = Bbox([[box.x0, box.y0], [box.x0 + width, box.y1]])
    ha = text.get_horizontalalignment()
    ax_ = {"left": box.x0, "right": box.x1}.get(ha, (box.x0 + box.x1) / 2)
    ay = box.y0 + 0.2 * box.height  # about the baseline
    pad = 1.0 if f > 1.0 else 0.0
    return Bbox(
        [
            [ax_ + (box.x0 - ax_) * f - pad, ay + (box.y0 - ay) * f - pad],
            [ax_ + (box.x1 - ax_) * f + pad, ay + (box.y1 - ay) * f + pad],
        ]
    )


_MARKED = re.compile(rb'<g id="((ea-thin|ea-tick|ea-legend)-\d+)">')


def _with_style(svg: bytes, style: str, common: str = "") -> bytes:
    """The SVG with the marked groups' gids also as their class, `style` in its own `<style>`, and the legend's
    `common` tail in an `ea-thin` tspan."""
    svg = _MARKED.sub(rb'<g id="\1" class="\2">', svg)
    if common:
        tail = escape(common).encode()
        legend = re.compile(
            rb'(<g id="ea-legend-\d+" class="ea-legend">\s*<text [^>]*>[^<]*?)' + re.escape(tail) + b"<"
        )
        svg = legend.sub(rb'\1<tspan class="ea-thin">' + tail.replace(b"\\", b"\\\\") + b"</tspan><", svg)
    return svg.replace(b"</defs>", b'  <style type="text/css">\n' + style.encode() + b"\n  </style>\n </defs>", 1)


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
