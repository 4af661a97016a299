"""`edge-agent demo`: the SkySpark simulator, a broker and the daemon started together, one question asked over MQTT
(as `edge-agent request` asks it), everything stopped; with `--console`, the console beside them.

Exit codes as `serve` and `request` (commands/daemon.py): 0 a `result` came back, 1 failure, 2 bad usage.
"""

from __future__ import annotations

import shutil
import signal
import sys
import tempfile
import time
import uuid
from pathlib import Path

import click

from edge_agent.commands.daemon import EXIT_FAIL, _check_now, _load, _logging, make_runner, run_request
from edge_agent.commands.options import config_option, max_steps_option, max_trials_option
from edge_agent.config import STRATEGIES, Settings

DEMO_QUESTION = "What was the highest Tonnage of Chiller 6 at POKMAIN yesterday?"
DEMO_NOW = "2024-06-14T10:00:00"


class _Simulator:
    """The embedded SkySpark simulator (synthetic plant, SCRAM login with a one-off password)."""

    def __init__(self):
        import secrets

        from edge_agent.skyspark.simulator import serve as serve_simulator

        self.password = secrets.token_urlsafe(12)
        self.server = serve_simulator(port=0, project="demo", users={"operator": self.password})

    def settings(self) -> dict:
        return {"url": self.server.url, "project": "demo", "username": "operator", "password": self.password}

    def stop(self) -> None:
        self.server.shutdown()
        self.server.server_close()


def _demo_console(settings: Settings):
    """The console beside the demo's daemon (loopback, a free port), with user `demo` (operator, one-off
    password); the demo's question and answer show in its history."""
    import secrets

    from edge_agent.commands.console import ConsoleThread
    from edge_agent.console.users import UserStore

    password = secrets.token_urlsafe(9)
    UserStore(settings.state_dir / settings.console.users_file).add("demo", password, "operator")
    console_settings = settings.model_copy(
        update={"console": settings.console.model_copy(update={"host": "127.0.0.1", "port": 0})}
    )
    console = ConsoleThread(console_settings).start()
    click.echo(f"console on {console.url}/ (user demo, password {password})", err=True)
    return console


@click.command()
@click.option("--question", default=DEMO_QUESTION, show_default=True)
@click.option("--now", default=DEMO_NOW, show_default=True, callback=_check_now)
@click.option(
    "--broker",
    "broker_kind",
    type=click.Choice(["embedded", "mosquitto"]),
    default="embedded",
    show_default=True,
    help="embedded: rumqttd from the iotcore wheel; mosquitto: the Debian binary",
)
@click.option("--runner", type=click.Choice(["agent", "script"]), default="agent", show_default=True)
@click.option("--strategy", type=click.Choice(STRATEGIES), default="reactxen", show_default=True)
@max_trials_option(default=2, show_default=True, help="Kept small so the demo ends in minutes on a 2-core machine.")
@max_steps_option(default=5, show_default=True)
@click.option(
    "--out",
    type=click.Path(file_okay=False, path_type=Path),
    default=Path("demo-out"),
    show_default=True,
    help="where the produced files are written",
)
@config_option()
@click.option("--timeout", type=float, default=1800.0, show_default=True)
@click.option("--log-level", default="WARNING", show_default=True)
@click.option(
    "--console/--no-console",
    "with_console",
    default=True,
    show_default=True,
    help="serve the operator console on loopback during the demo (user demo, a one-off password)",
)
@click.option("--stay", is_flag=True, help="keep everything running after the answer, until Ctrl-C")
def demo(
    question,
    now,
    broker_kind,
    runner,
    strategy,
    max_trials,
    max_steps,
    out,
    config,
    timeout,
    log_level,
    with_console,
    stay,
) -> None:
    """Start the SkySpark simulator, a broker and the daemon; ask one question over MQTT; stop."""
    _logging(log_level)
    from edge_agent.mqtt.broker import start_broker
    from edge_agent.mqtt.service import GatewayService

    work = Path(tempfile.mkdtemp(prefix="edge-agent-demo-"))
    stack: list = []
    code = EXIT_FAIL

    def _terminated(signum, frame):  # SIGTERM (systemd, `kill`, a CI timeout) stops like Ctrl-C: cleaned up
        raise KeyboardInterrupt

    previous = signal.signal(signal.SIGTERM, _terminated)
    try:
        click.echo("starting the SkySpark simulator…", err=True)
        sim = _Simulator()
        stack.append(sim)
        click.echo(f"SkySpark simulator on {sim.server.url}", err=True)
        broker = start_broker(work / "broker", prefer=broker_kind)
        stack.append(broker)
        click.echo(f"broker ({type(broker).__name__}) on {broker.host}:{broker.port}", err=True)
        sky = sim.settings()
        settings = _load(
            config,
            {
                "paths": {"state_dir": str(work / "state")},
                "mqtt": {
                    "host": broker.host,
                    "port": broker.port,
                    "gateway_id": "demo",
                    "client_id": "edge-agent-demo",
                },
                "skyspark": sky,
            },
        )
        click.echo(
            f"loading the {runner} runner" + (f" ({settings.model.name})…" if runner == "agent" else "…"), err=True
        )
        service = GatewayService(settings, make_runner(runner, settings))
        service.start()
        stack.append(service)
        if not service.connected.wait(30):
            raise RuntimeError("the daemon did not connect to the broker")
        if with_console:
            stack.append(_demo_console(settings))
        click.echo(f"question: {question}", err=True)
        options = {
            "now": now,
            "files": "chunks",
            "strategy": strategy,
            "max_trials": max_trials,
            "max_steps": max_steps,
        }
        code = run_request(
            settings,
            question,
            options=options,
            wait=True,
            out=out,
            timeout=timeout,
            as_json=False,
            client_id=f"demo-{uuid.uuid4().hex[:6]}",
            any_result=True,
        )
        if stay:
            click.echo("everything keeps running; Ctrl-C stops it", err=True)
            while True:
                time.sleep(3600)
    except KeyboardInterrupt:
        pass
    except Exception as exc:
        click.echo(f"edge-agent demo: {type(exc).__name__}: {exc}", err=True)
        code = EXIT_FAIL
    finally:
        for part in reversed(stack):
            try:
                part.stop()
            except Exception as exc:  # keep stopping the rest
                click.echo(f"edge-agent demo: stopping {type(part).__name__}: {exc}", err=True)
        time.sleep(0.1)
        shutil.rmtree(work, ignore_errors=True)  # broker, state, run log: the demo's files are in --out
        signal.signal(signal.SIGTERM, previous)
    sys.exit(code)
