"""Masked thoughts read as phrases (issue 41, 8): a guess the agent published masked as `[unverified]` is not left
in quotes or repeated (`a file called "[unverified]" and it is a [unverified] file` read badly); the run page
(present.tidy_masked) and the live page (console.js tidyMasked) word it the same."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest

from edge_agent.console.present import tidy_masked

JS = Path(__file__).parents[1] / "edge_agent" / "console" / "static" / "console.js"
CASES = {
    'I will save a file called "[unverified]" and it is a [unverified] file': (
        "I will save a file called [unverified] and it is a file of an [unverified] kind"
    ),
    "Chillers [unverified], [unverified] and [unverified] ran at [unverified] tonref": (
        "Chillers [unverified] ran at [unverified] tonref"
    ),
    "an [unverified] reading and the [unverified] chiller": (
        "a reading of an [unverified] kind and the chiller of an [unverified] kind"
    ),
    "\u201c[unverified]\u201d is the site": "[unverified] is the site",
    "nothing masked here": "nothing masked here",
}


def test_masked_guesses_read_as_phrases():
    for text, shown in CASES.items():
        assert tidy_masked(text) == shown
    assert tidy_masked(None) == ""


def test_the_live_page_words_them_the_same():
    node = shutil.which("node") or shutil.which("nodejs")
    if node is None:
        pytest.skip("node is not installed: the live page's function is checked in the browser tests")
    source = JS.read_text()
    start = source.index("function tidyMasked")
    body = source[start : source.index("\n}\n", start) + 3]
    script = body + f"process.stdout.write(JSON.stringify({json.dumps(list(CASES))}.map(tidyMasked)));"
    out = subprocess.run([node, "-e", script], capture_output=True, text=True, timeout=30, check=True).stdout
    assert json.loads(out) == list(CASES.values())
