"""The benchmarks' console client (edge_agent/console/client.py): it logs in as the page does, asks, follows a
request's events to its final reply, and gets the console's refusals back as status and text."""

from __future__ import annotations

import json

import pytest

from edge_agent.console.client import ConsoleClient
from tests.plugins.console import PASSWORD


def test_it_logs_in_asks_and_follows_a_request_to_its_final_reply(console_env):
    env = console_env()
    otto = ConsoleClient(env.url, "otto", PASSWORD)
    rid = otto.ask("how many chillers [steps=1 delay=0]")
    with otto.open(f"/api/requests/{rid}/events", timeout=30) as stream:
        events = stream.read().decode()  # the stream ends after the final reply
    assert rid in events and "result" in events
    assert "History" in otto.get("/")


def test_a_refusal_comes_back_as_status_and_text(console_env):
    env = console_env()
    vera = ConsoleClient(env.url, "vera", PASSWORD)  # a viewer may not ask
    status, text = vera.post_json("/ask", {"question": "how many chillers"})
    assert status == 403 and text
    with pytest.raises(SystemExit):
        vera.ask("how many chillers")
    with pytest.raises(SystemExit):
        ConsoleClient(env.url, "vera", "not the password")
    assert json.loads(ConsoleClient(env.url, "otto", PASSWORD).post_json("/ask", {"question": "x"})[1])["request_id"]
