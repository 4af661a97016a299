"""Prometheus /metrics (docs/metrics.md) scraped during a real run: SmolLM2 on llama.cpp, the SkySpark simulator over
SCRAM, Mosquitto; parsed with prometheus_client's own parser: every documented metric present, counters moved."""

import re
import threading
import time
import urllib.request

import pytest
from prometheus_client.parser import text_string_to_metric_families

from edge_agent import PROJECT_ROOT
from edge_agent.app import EdgeAgent
from edge_agent.config import load_settings
from edge_agent.fleet.metrics import METRICS
from edge_agent.mqtt.agentrunner import AgentRunner
from edge_agent.mqtt.protocol import ResultReply
from edge_agent.mqtt.service import GatewayService
from tests.plugins.mqtt import mqtt_overrides

pytestmark = pytest.mark.broker


def scrape(port: int) -> dict[str, dict[tuple, float]]:
    """family name → {(sample name, sorted labels): value}"""
    text = urllib.request.urlopen(f"http://127.0.0.1:{port}/metrics", timeout=10).read().decode()
    return {
        f.name: {(s.name, tuple(sorted(s.labels.items()))): s.value for s in f.samples}
        for f in text_string_to_metric_families(text)
    }


def total(families, family: str, sample: str | None = None, **labels) -> float:
    return sum(
        v
        for (name, lab), v in families[family].items()
        if (sample is None or name == sample) and all(dict(lab).get(k) == x for k, x in labels.items())
    )


def test_every_documented_metric_is_listed_and_every_listed_metric_documented():
    doc = (PROJECT_ROOT / "docs" / "metrics.md").read_text()
    documented = set(re.findall(r"`(edge_agent_[a-z_]+)`", doc))
    listed = {m + ("_total" if m in COUNTERS else "") for m in METRICS}
    assert listed <= documented, listed - documented
    assert {d for d in documented if not d.endswith(("_bucket", "_count", "_sum"))} <= listed, documented - listed


COUNTERS = {
    "edge_agent_requests",
    "edge_agent_jobs",
    "edge_agent_dead_letters",
    "edge_agent_llm_calls",
    "edge_agent_llm_tokens_evaluated",
    "edge_agent_llm_tokens_generated",
    "edge_agent_llm_seconds",
    "edge_agent_tool_calls",
    "edge_agent_tool_errors",
    "edge_agent_skyspark_errors",
}


@pytest.mark.model
def test_metrics_scraped_during_a_real_run(real_llm, simulator, mosquitto, requester, tmp_path):
    settings = load_settings(
        overrides={
            **mqtt_overrides(tmp_path / "state", mosquitto),
            "metrics": {"enabled": True, "port": 0},
            "skyspark": {
                "url": simulator.url,
                "project": simulator.project,
                "username": simulator.username,
                "password": simulator.password,
            },
        },
        environ={},
    )
    svc = GatewayService(settings, AgentRunner(EdgeAgent(settings, llm=real_llm)))
    svc.start()
    try:
        assert svc.connected.wait(10)
        port = svc.fleet.metrics.port
        before = scrape(port)
        assert set(METRICS) <= set(before), set(METRICS) - set(before)  # present before any request
        assert total(before, "edge_agent_broker_connected") == 1
        assert total(before, "edge_agent_model_loaded", model=real_llm.model_name) == 1

        c = requester("ops1")
        # (a kind's count or listing at a site is answered from the catalog with no model call: all assets need one)
        rid = c.send(
            "List all the assets at POKMAIN.",
            options={"strategy": "react", "max_trials": 1, "max_steps": 1, "now": "2024-06-14T10:00:00"},
        )
        during, stop = [], threading.Event()

        def poll():
            while not stop.is_set():
                during.append(scrape(port))
                stop.wait(0.2)

        poller = threading.Thread(target=poll, daemon=True)
        poller.start()
        out = c.wait(rid, timeout=600, fetch_files=False)
        stop.set()
        poller.join(5)
        assert isinstance(out.final, ResultReply), out.final
        time.sleep(0.3)  # the worker counts the job right after the final reply's commit
        after = scrape(port)
    finally:
        svc.stop(timeout=10)

    assert set(METRICS) <= set(after)
    assert any(total(s, "edge_agent_queue_depth", state="running") == 1 for s in during)  # seen mid-run
    assert total(after, "edge_agent_queue_depth") == 0
    assert total(after, "edge_agent_requests") - total(before, "edge_agent_requests") == 1
    assert total(after, "edge_agent_jobs", status=out.final.status) == 1
    assert total(after, "edge_agent_request_accepted_seconds", "edge_agent_request_accepted_seconds_count") == 1
    assert total(after, "edge_agent_request_final_seconds", "edge_agent_request_final_seconds_count") == 1
    assert total(after, "edge_agent_request_final_seconds", "edge_agent_request_final_seconds_sum") > 0
    calls = out.final.metrics.llm_calls
    assert calls >= 1 and total(after, "edge_agent_llm_calls") == calls
    assert total(after, "edge_agent_llm_calls", role="react") >= 1
    assert total(after, "edge_agent_llm_tokens_generated") > 0
    assert total(after, "edge_agent_llm_tokens_evaluated") == out.final.metrics.tokens_evaluated
    assert total(after, "edge_agent_llm_seconds") > 0
    assert total(after, "edge_agent_tool_calls") >= 1  # the model's one step called a tool
    assert total(after, "edge_agent_skyspark_request_seconds", "edge_agent_skyspark_request_seconds_count") >= 1
    assert total(after, "edge_agent_skyspark_last_success_timestamp_seconds") > time.time() - 900
