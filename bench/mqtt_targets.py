"""The targets bench/mqtt_latency.py measures, and what runs beside them: a bare echo responder, a gateway daemon
(`edge-agent serve --runner script`, also bench/mqtt_fuzz.py's), its /metrics scraped as a Prometheus would, and
`edge-agent console` beside it with an operator's page open. Not a script: the scripts import it."""

from __future__ import annotations

import json
import os
import sys
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import paho.mqtt.client as mqtt  # noqa: E402
import yaml  # noqa: E402
from paho.mqtt.enums import CallbackAPIVersion  # noqa: E402

from edge_agent.config import MQTTSettings  # noqa: E402
from edge_agent.console.client import ConsoleClient  # noqa: E402
from edge_agent.console.users import UserStore  # noqa: E402
from edge_agent.mqtt.broker import free_port, start_logged  # noqa: E402
from edge_agent.mqtt.connection import _no_delay, connect_properties  # noqa: E402

GW = "benchgw"


def echo_main(port: int, ready, name: str, durable: bool) -> None:
    """A bare responder: every request is answered at once with a tiny `accepted`, with as many QoS 1
    replies in flight as the daemon allows itself (`mqtt.max_inflight`), so that the two differ only in
    what the daemon does between a request and its reply. `durable`: the daemon's session too
    (clean_start=False, its Session Expiry), whose queued messages the broker writes at every save."""
    m = MQTTSettings()
    c = mqtt.Client(CallbackAPIVersion.VERSION2, client_id=name, protocol=mqtt.MQTTv5)
    c.max_inflight_messages = m.max_inflight

    def on_message(client, userdata, msg):
        rid = json.loads(msg.payload)["request_id"]
        client.publish(msg.properties.ResponseTopic, json.dumps({"kind": "accepted", "request_id": rid}), qos=1)

    c.on_message = on_message
    c.on_socket_open = _no_delay
    c.on_connect = lambda cl, u, f, rc, p: (cl.subscribe(f"edge-agent/{GW}-{name}/request/+", qos=1), ready.set())
    c.connect(
        "127.0.0.1", port, clean_start=not durable, properties=connect_properties(m.session_expiry_s if durable else 0)
    )
    c.loop_forever()


TARGETS = {
    "echo": [],
    "echo-durable": [],
    "daemon": ["--group-commit"],
    "daemon-1conn": ["--group-commit", "--no-reply-connection"],
    "daemon-1tx": ["--no-group-commit"],
}
ECHOES = {"echo": False, "echo-durable": True}  # name: with the daemon's persistent session


#: --fleet: the same daemon with the fleet features off (no audit, no metrics) vs on (audit + /metrics scraped)
FLEET = {
    "daemon": {"audit": {"enabled": False}, "metrics": {"enabled": False}},
    "daemon-fleet": {"audit": {"enabled": True}, "metrics": {"enabled": True, "port": 0}},
}


def start_daemon(work: Path, port: int, gateway: str, flags: list[str], root: Path = ROOT, extra: dict | None = None):
    conf = work / f"{gateway}.yaml"
    mqtt_conf = {"port": port, "gateway_id": gateway}
    if "max_queued_per_client" in (root / "edge_agent" / "config.py").read_text():
        mqtt_conf["max_queued_per_client"] = 0  # one requester's thousands of queued jobs are the benchmark's load
    conf.write_text(yaml.safe_dump({"paths": {"state_dir": str(work / gateway)}, "mqtt": mqtt_conf, **(extra or {})}))
    env = {k: v for k, v in os.environ.items() if not k.startswith("EDGE_AGENT_")} | {"PYTHONPATH": str(root)}
    log = work / f"{gateway}.log"
    argv = [sys.executable, "-m", "edge_agent", "serve", "--runner", "script", "--config", str(conf), *flags]
    return start_logged(argv, cwd=root, env=env, log=log, ready=b"connected to", what=f"the daemon {gateway}")


def scraper(work: Path, gateway: str, stop: threading.Event, every_s: float = 1.0) -> threading.Thread:
    """Scrape a daemon's /metrics every second while the bench runs, as a Prometheus would (its port is in the log)."""
    import re
    import urllib.request

    def loop():
        log, port = work / f"{gateway}.log", None
        while not stop.wait(every_s):
            if port is None:
                m = re.search(r"metrics on http://[^:]+:(\d+)/metrics", log.read_text(errors="replace"))
                port = int(m.group(1)) if m else None
                continue
            try:
                urllib.request.urlopen(f"http://127.0.0.1:{port}/metrics", timeout=5).read()
            except OSError:
                pass

    thread = threading.Thread(target=loop, daemon=True)
    thread.start()
    return thread


class ConsoleBeside:
    """`--console`: `edge-agent console` beside the daemon+console target's daemon, as on a gateway with an
    operator's page open: logged in, one request of its own followed over server-sent events (queued behind the
    held job, so its stream stays open), and the history page loaded twice a second, all through the run."""

    def __init__(self, work: Path, port: int, gateway: str):
        web_port = free_port()
        state = work / gateway
        UserStore(state / "console-users.yaml").add("bench", "bench-password", "operator")
        conf = work / f"{gateway}-console.yaml"
        conf.write_text(
            yaml.safe_dump(
                {
                    "paths": {"state_dir": str(state)},
                    "mqtt": {"port": port, "gateway_id": gateway},
                    "console": {"port": web_port},
                }
            )
        )
        env = {k: v for k, v in os.environ.items() if not k.startswith("EDGE_AGENT_")} | {"PYTHONPATH": str(ROOT)}
        log = work / f"{gateway}-console.log"
        argv = [sys.executable, "-m", "edge_agent", "console", "--config", str(conf)]
        self.proc = start_logged(argv, cwd=ROOT, env=env, log=log, ready=b"console on", what="the console")
        self.url = f"http://127.0.0.1:{web_port}"
        self.stop_event = threading.Event()
        self.pages = 0

    def follow(self) -> None:
        """Log in, ask once, then stream its events and load the history page until stopped."""
        page = ConsoleClient(self.url, "bench", "bench-password")
        time.sleep(1.0)  # the console's broker connection
        rid = page.ask("held by the console [steps=1 delay=3600]")

        def stream() -> None:
            try:
                with page.open(f"/api/requests/{rid}/events", timeout=3600) as r:
                    while not self.stop_event.is_set() and r.readline():
                        pass
            except Exception:
                pass

        threading.Thread(target=stream, daemon=True).start()
        while not self.stop_event.wait(0.5):
            if "History" in page.get("/"):
                self.pages += 1

    def start(self) -> ConsoleBeside:
        threading.Thread(target=self.follow, daemon=True).start()
        return self

    def stop(self) -> None:
        self.stop_event.set()
        self.proc.terminate()
        self.proc.wait(20)
