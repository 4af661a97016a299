"""`edge-agent fleet`: the gateways a broker shows (status, version, model, queue, last answer, degraded reasons).

The logic is `edge_agent.fleet.view`; this is the glue: settings (the broker, its user, password and TLS as
`mqtt.*` configures them, or `--broker` / `--user` / `--password-file`), one connection, a table or `--json`.
Exit codes: 0 the view was printed (even with no gateway in it), 1 the broker could not be read, 2 bad usage.
"""

from __future__ import annotations

import sys
import uuid
from pathlib import Path

import click

from edge_agent.commands.daemon import EXIT_FAIL, EXIT_OK, _broker_overrides, _load
from edge_agent.commands.options import config_option


@click.command()
@config_option()
@click.option("--broker", help="HOST:PORT of the MQTT broker (default mqtt.host and mqtt.port)")
@click.option("--user", help="the broker user (default mqtt.username); needs read access to status and discovery")
@click.option(
    "--password-file",
    type=click.Path(dir_okay=False, exists=True, path_type=Path),
    help="a file holding the user's password (default mqtt.password / password_file / credential mqtt-password)",
)
@click.option("--json", "as_json", is_flag=True, help="print one JSON object (FleetView) instead of the table")
@click.option("--timeout", type=float, default=10.0, show_default=True, help="seconds to wait for the broker")
@click.option(
    "--settle", type=float, default=1.0, show_default=True, help="stop once nothing has arrived for this long"
)
def fleet(config, broker, user, password_file, as_json, timeout, settle) -> None:
    """List every gateway the broker shows, from their retained status and discovery topics."""
    from edge_agent.fleet.view import as_json as to_json
    from edge_agent.fleet.view import collect, table
    from edge_agent.mqtt.connection import mqtt_client

    mqtt = _broker_overrides(broker).get("mqtt", {})
    if user:
        mqtt["username"] = user
    if password_file:
        mqtt |= {"password_file": str(password_file), "password": None}
    settings = _load(config, {"mqtt": mqtt} if mqtt else None)
    m = settings.mqtt
    client = mqtt_client(settings, f"edge-agent-fleet-{uuid.uuid4().hex[:8]}")
    try:
        got = collect(client, m.host, m.port, timeout=timeout, settle_s=settle)
    except ConnectionError as exc:
        click.echo(f"edge-agent: {exc}", err=True)
        sys.exit(EXIT_FAIL)
    view = got.view(f"{m.host}:{m.port}")
    click.echo(to_json(view) if as_json else table(view))
    for topic in got.unreadable:
        click.echo(f"edge-agent: unreadable retained message on {topic}", err=True)
    sys.exit(EXIT_OK)
