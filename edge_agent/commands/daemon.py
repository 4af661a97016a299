"""`edge-agent serve` (the gateway daemon) and `edge-agent request` (ask it over MQTT); `edge-agent demo` is demo.py.

Exit codes: 0 success (serve: clean stop; request/demo: a `result` came back, answered);
1 failure (no answer, agent error, cancelled, timeout, a file failed its sha256 check);
2 bad usage or bad configuration.
"""

from __future__ import annotations

import json
import logging
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

from edge_agent.commands.options import config_option, max_steps_option, max_trials_option
from edge_agent.config import STRATEGIES, ConfigError, Settings, load_settings

if TYPE_CHECKING:
    from edge_agent.mqtt.runner import Runner

EXIT_OK, EXIT_FAIL, EXIT_USAGE = 0, 1, 2
#: a question the model must work for (a kind's listing or count is answered from the catalog with no model call)


def _load(config: str | None, overrides: dict | None = None) -> Settings:
    try:
        return load_settings(config, overrides=overrides)
    except ConfigError as exc:
        click.echo(f"edge-agent: {exc}", err=True)
        sys.exit(EXIT_USAGE)


def _logging(level: str) -> None:
    logging.basicConfig(
        stream=sys.stderr, level=level.upper(), format="%(asctime)s %(levelname)s %(name)s: %(message)s"
    )


def _broker_overrides(broker: str | None) -> dict:
    if not broker:
        return {}
    host, _, port = broker.rpartition(":")
    if not host or not port.isdigit():
        raise click.BadParameter(f"{broker!r}: use HOST:PORT, e.g. 127.0.0.1:1883", param_hint="--broker")
    return {"mqtt": {"host": host, "port": int(port)}}


def _check_now(ctx, param, value: str | None) -> str | None:
    if value is not None:
        from edge_agent.clock import parse_instant

        try:
            parse_instant(value)
        except ValueError:
            raise click.BadParameter(f"{value!r} is not an ISO 8601 date or date-time") from None
    return value


# ------------------------------------------------------------------------------------------- serve


def make_runner(kind: str, settings: Settings) -> Runner:
    """The runner `--runner` names. Each is imported only when chosen: the agent's (`mqtt.agentrunner`) brings the
    model runtime, the agent and the grounding tables (~1 s of CPU), which the script runner never needs — a script
    daemon connects that much sooner after a restart (issue 42: its first replies within 5 s)."""
    if kind == "agent":
        from edge_agent.mqtt.agentrunner import AgentRunner

        return AgentRunner.from_settings(settings)
    if kind == "script":
        from edge_agent.mqtt.runner import ScriptRunner

        return ScriptRunner(settings)
    raise ValueError(f"unknown runner {kind!r}; use agent or script")


@click.command()
@config_option()
@click.option(
    "--runner",
    type=click.Choice(["agent", "script"]),
    default="agent",
    show_default=True,
    help="agent: the local model; script: a deterministic stand-in for tests and benchmarks",
)
@click.option(
    "--client-id",
    help="MQTT client id (unique on the broker); default mqtt.client_id, else the user "
    "name (mqtt.username), else edge-agent-<gateway_id>",
)
@click.option("--group", help="MQTT v5 shared subscription group (scale-out over several daemons)")
@click.option(
    "--group-commit/--no-group-commit",
    default=None,
    help="requests arriving together share one SQLite transaction (default: mqtt.group_commit)",
)
@click.option(
    "--reply-connection/--no-reply-connection",
    default=None,
    help="replies go out on a second connection (default: mqtt.reply_connection)",
)
@click.option("--log-level", default="INFO", show_default=True)
def serve(config, runner, client_id, group, group_commit, reply_connection, log_level) -> None:
    """Run the gateway daemon: answer questions arriving over MQTT v5 until SIGTERM."""
    _logging(log_level)
    mqtt = {
        k: v for k, v in {"group_commit": group_commit, "reply_connection": reply_connection}.items() if v is not None
    }
    settings = _load(config, {"mqtt": mqtt} if mqtt else None)
    from edge_agent.mqtt.service import GatewayService

    try:
        the_runner = make_runner(runner, settings)  # loads the model: READY=1 only after this
    except Exception as exc:
        click.echo(f"edge-agent: cannot start the {runner} runner: {type(exc).__name__}: {exc}", err=True)
        sys.exit(EXIT_FAIL)
    GatewayService(settings, the_runner, client_id=client_id, shared_group=group).serve_forever()


# ------------------------------------------------------------------------------------------- request


def _short(value: Any, limit: int = 200) -> str:
    text = value if isinstance(value, str) else json.dumps(value, ensure_ascii=False, default=str)
    text = " ".join(str(text).split())
    return text if len(text) <= limit else text[: limit - 3] + "..."


def print_reply(reply) -> None:
    """The live view of one reply, on stderr (stdout carries only the answer or --json)."""
    k = reply.kind
    if k == "accepted":
        where = "running" if reply.state == "running" else f"queued, {reply.position} ahead"
        click.echo(f"accepted ({where}){' [duplicate]' if reply.duplicate else ''}", err=True)
    elif k == "progress":
        if reply.event == "step":
            click.echo(f"[trial {reply.trial} step {reply.step}] {_short(reply.thought)}", err=True)
            click.echo(
                f"    → {reply.action} {_short(reply.action_input, 120) if reply.action_input else ''}", err=True
            )
            if reply.observation:
                click.echo(f"    ← {_short(reply.observation)}", err=True)
        else:
            click.echo(f"[{reply.event}] {_short(reply.text)}", err=True)
    elif k == "question":
        click.echo(f"the agent asks: {reply.question}", err=True)
    elif k == "error":
        click.echo(f"error ({reply.code}): {reply.message}", err=True)
    elif k == "cancelled":
        click.echo(f"cancelled: {reply.message}", err=True)


def _ask_stdin(reply) -> str | None:
    try:
        return click.prompt("your answer", err=True, default="", show_default=False) or None
    except (click.Abort, EOFError):
        return None


def run_request(
    settings: Settings,
    question: str,
    *,
    options: dict,
    wait: bool,
    out: Path | None,
    timeout: float,
    as_json: bool,
    client_id: str | None = None,
    request_id: str | None = None,
    interactive: bool = False,
    any_result: bool = False,
) -> int:
    from edge_agent.mqtt.client import RequestClient, RequestError
    from edge_agent.mqtt.protocol import ResultReply

    try:
        with RequestClient(settings, client_id=client_id, connect_timeout=min(10.0, timeout)) as client:
            rid = client.send(question, request_id=request_id, options=options)
            if not wait:  # the daemon's first reply (accepted) is the receipt: resent until it comes
                ok = client.receipt(rid, min(timeout, 60))
                if ok:
                    print_reply(client.replies(rid)[0])
                click.echo(rid)
                return EXIT_OK if ok else EXIT_FAIL
            outcome = client.wait(
                rid,
                timeout=timeout,
                on_reply=None if as_json else print_reply,
                answer=_ask_stdin if interactive else None,
                out_dir=out,
            )
    except RequestError as exc:
        click.echo(f"edge-agent: {exc}", err=True)
        return EXIT_FAIL
    final = outcome.final
    if as_json:
        click.echo(
            json.dumps(
                {
                    "request_id": rid,
                    "final": final.model_dump() if final else None,
                    "files": [str(p) for p in outcome.files],
                }
            )
        )
    elif isinstance(final, ResultReply):
        click.echo(final.answer or f"(no answer: {final.status})")
        for entry in final.files:
            where = next((str(p) for p in outcome.files if p.name == entry.name), None)
            click.echo(
                f"file {entry.name}: {entry.size} bytes, sha256 {entry.sha256[:16]}…"
                + (f" → {where}" if where else ""),
                err=True,
            )
    if not isinstance(final, ResultReply):
        return EXIT_FAIL
    return EXIT_OK if any_result or final.status == "answered" else EXIT_FAIL


@click.command()
@click.argument("question")
@click.option("--broker", help="HOST:PORT of the MQTT broker (default from config)")
@config_option()
@click.option(
    "--wait/--no-wait",
    default=True,
    show_default=True,
    help="follow progress to the answer, or return once the request is accepted",
)
@click.option("--out", type=click.Path(file_okay=False, path_type=Path), help="write the result files here")
@click.option("--now", callback=_check_now, help="ISO 8601 instant the agent takes as 'now'")
@click.option("--strategy", type=click.Choice(STRATEGIES))
@max_trials_option()
@max_steps_option()
@click.option("--files", type=click.Choice(["chunks", "manifest", "none"]), default="chunks", show_default=True)
@click.option(
    "--ask/--no-ask",
    "allow_ask",
    default=None,
    help="let the agent ask you a clarifying question (default: when stdin is a terminal)",
)
@click.option("--request-id", help="resend with the same id to get the same answer")
@click.option("--client-id", help="your MQTT client id (replies come to edge-agent/<gw>/response/<id>/)")
@click.option("--gateway", help="gateway id (default from config)")
@click.option("--timeout", type=float, default=1800.0, show_default=True)
@click.option("--json", "as_json", is_flag=True, help="print one JSON object with the final reply")
def request(
    question,
    broker,
    config,
    wait,
    out,
    now,
    strategy,
    max_trials,
    max_steps,
    files,
    allow_ask,
    request_id,
    client_id,
    gateway,
    timeout,
    as_json,
) -> None:
    """Send QUESTION to a gateway daemon over MQTT, show progress live, print the answer."""
    overrides = _broker_overrides(broker)
    if gateway:
        overrides.setdefault("mqtt", {})["gateway_id"] = gateway
    settings = _load(config, overrides)
    interactive = sys.stdin.isatty() if allow_ask is None else allow_ask
    options = {
        k: v
        for k, v in {"now": now, "strategy": strategy, "max_trials": max_trials, "max_steps": max_steps}.items()
        if v is not None
    }
    options["files"], options["ask"] = files, interactive
    sys.exit(
        run_request(
            settings,
            question,
            options=options,
            wait=wait,
            out=out,
            timeout=timeout,
            as_json=as_json,
            client_id=client_id,
            request_id=request_id,
            interactive=interactive,
        )
    )
