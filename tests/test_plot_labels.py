"""The answers' plots: no two labels written over each other (figures marked on the curves, the legend, the
axis and tick labels), even with many series and figures close together (issue 31)."""

from __future__ import annotations

from datetime import datetime, timedelta, timezone

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
from matplotlib.text import Text  # noqa: E402

from edge_agent.plots import Series, figure, plot_svg  # noqa: E402


def _series(n: int) -> list[Series]:
    tz = timezone(timedelta(hours=-4))
    start = datetime(2020, 6, 1, 0, 0, tzinfo=tz)
    out = []
    for k in range(n):
        times = [start + timedelta(minutes=15 * i) for i in range(96 * 7)]
        values = [40.0 + k * 0.4 + ((i * 7 + k * 3) % 23) / 10 for i in range(len(times))]
        out.append(
            Series(label=f"Chiller {k + 3} / Chilled Water Supply Temperature", unit="°F", times=times, values=values)
        )
    return out


def _overlaps(fig) -> list[tuple[str, str]]:
    fig.canvas.draw()
    renderer = fig.canvas.get_renderer()
    texts = [t for t in fig.findobj(Text) if t.get_visible() and t.get_text().strip()]
    boxes = [(t.get_text(), t.get_window_extent(renderer)) for t in texts]
    bad = []
    for i, (a, ba) in enumerate(boxes):
        for b, bb in boxes[i + 1 :]:
            if ba.overlaps(bb) and ba.width and bb.width:
                bad.append((a, b))
    return bad


def test_no_labels_overlap_with_many_series_and_close_figures():
    series = _series(6)
    stated = ["41.0", "41.4", "41.8", "42.2", "40.4", "40.8"]  # each near the others, early in the week
    fig = figure(
        series,
        stated,
        "Chilled water supply temperature of six chillers at POKMAIN last week, and which of them was the highest",
    )
    try:
        assert _overlaps(fig) == []
    finally:
        plt.close(fig)


def test_the_svg_still_marks_every_stated_figure_once():
    svg = plot_svg(_series(3), ["41.3", "42.1"], "t").decode()
    assert svg.count(">41.3<") == 1 and svg.count(">42.1<") == 1


def test_the_svg_thins_its_labels_when_rendered_narrow():
    """Issue 41 b: the SVG carries its own style, a media query on its rendered width that hides every other tick
    label and the tail every legend entry repeats, and enlarges the rest; the classes sit on alternate labels."""
    import re

    svg = plot_svg(_series(3), ["41.3"], "t").decode()
    style = re.search(r"<style type=\"text/css\">\s*(@media \(max-width: (\d+)px\).*?)</style>", svg, re.S)
    assert style and int(style.group(2)) >= 480
    assert ".ea-thin { display: none; }" in style.group(1)
    assert re.search(r"\.ea-tick text \{ font-size: [\d.]+px !important; \}", style.group(1))
    ticks = re.findall(r'<g id="(?:xtick|ytick)_\d+">.*?<g id="[^"]*"(?: class="(ea-\w+)")?>\s*<text', svg, re.S)
    xs = re.findall(r'<g id="xtick_\d+">.*?<g id="[^"]*"(?: class="(ea-\w+)")?>\s*<text', svg, re.S)
    assert len(xs) >= 4 and xs[0::2] == ["ea-tick"] * len(xs[0::2]) and xs[1::2] == ["ea-thin"] * len(xs[1::2])
    assert all(ticks)  # every tick label drawn is either thinned or kept (and enlarged)
    legend = re.findall(r'<g id="ea-legend-\d+" class="ea-legend">\s*<text [^>]*>(.*?)</text>', svg)
    assert len(legend) == 3
    for n, text in enumerate(legend):
        assert text == f'Chiller {n + 3}<tspan class="ea-thin"> / Chilled Water Supply Temperature (°F)</tspan>'
    one = plot_svg(_series(1), [], "t").decode()  # a single entry keeps its whole name
    assert 'class="ea-legend"' in one and "<tspan" not in one
