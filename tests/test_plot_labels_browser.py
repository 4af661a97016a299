"""The answers' plots on a phone (issue 41 b), in headless Chromium (the console's browser tests' driver): the
plot's SVG, shown as the console shows it (an `<img>`, max-width 100%), rendered 390 px and 1280 px wide. The
labels the SVG marks thin are not displayed when its box is narrow and are when it is full size; the kept tick
labels are larger when narrow. The SVG's media query sees its own box (an `<img>`'s), so the check reads the same
SVG in an `<iframe>` of the `<img>`'s rendered size (off screen), whose document a script may query.

EDGE_AGENT_CONSOLE_SCREENSHOTS=<dir> saves a screenshot at each width there."""

from __future__ import annotations

import functools
import http.server
import threading

import pytest

from edge_agent.plots import plot_svg
from tests.test_console_browser import Shots, browser  # noqa: F401  (the driver fixture)
from tests.test_plot_labels import _series

pytestmark = [pytest.mark.browser]

PAGE = """<!doctype html><html><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<style>body { margin: 8px; font-family: sans-serif; } figure.plot { margin: .8rem 0; }
figure.plot img { max-width: 100%; border: 1px solid #ccc; background: #fff; }
iframe { border: 0; position: absolute; left: -10000px; }</style>
</head><body><h3>Chilled water supply, three chillers</h3>
<figure class="plot"><img id="plot" src="plot.svg" alt="plot"></figure>
<iframe id="box" src="plot.svg"></iframe></body></html>"""

LOOK = """
const img = document.getElementById('plot'), box = document.getElementById('box');
box.style.width = img.clientWidth + 'px'; box.style.height = img.clientHeight + 'px';
await new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)));
const doc = box.contentDocument, see = el => doc.defaultView.getComputedStyle(el);
return {img: img.clientWidth, natural: img.naturalWidth,
        thin: [...doc.querySelectorAll('.ea-thin')].map(el => see(el).display),
        tick: [...doc.querySelectorAll('.ea-tick text')].map(el => parseFloat(see(el).fontSize)),
        legend: [...doc.querySelectorAll('.ea-legend text')].map(el => el.getComputedTextLength())};
"""


@pytest.fixture
def plot_site(tmp_path):
    (tmp_path / "plot.svg").write_bytes(plot_svg(_series(3), ["41.3", "42.1"], "supply temperature last week"))
    (tmp_path / "index.html").write_text(PAGE)
    handler = functools.partial(http.server.SimpleHTTPRequestHandler, directory=str(tmp_path))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_address[1]}/index.html"
    server.shutdown()


def test_plot_labels_thinned_at_390_px_and_all_shown_at_1280_px(plot_site, browser):  # noqa: F811
    shot = Shots(browser)
    seen = {}
    for width in (390, 1280):
        browser.set_window_size(width, 1000)
        browser.get(plot_site)
        browser.execute_script("return document.getElementById('plot').decode()")
        look = browser.execute_script("return (async () => {" + LOOK + "})()")
        shot(f"plot-labels-{width}")
        assert look["thin"] and look["tick"] and len(look["legend"]) == 3, look
        seen[width] = look
    narrow, wide = seen[390], seen[1280]
    assert narrow["img"] < 400 and wide["img"] == wide["natural"]  # shrunk by the page, and at full size
    assert set(narrow["thin"]) == {"none"}, narrow  # every marked label (alternate ticks, legend tails) hidden
    assert "none" not in wide["thin"], wide  # all shown at full size
    assert min(narrow["tick"]) > max(wide["tick"]) >= 10  # the kept tick labels larger (in the SVG's units)
    assert max(narrow["legend"]) < min(wide["legend"])  # legend entries read as their assets
    browser.set_window_size(1280, 1100)
