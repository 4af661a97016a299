"""`edge-agent console` (the operator web page, its own process) and `edge-agent users` (its users file).

The console refuses to serve plain HTTP on an address other than loopback unless `console.allow_plain_http`
(a TLS-terminating proxy in front); with `console.tls_cert_file` + `tls_key_file` it serves HTTPS. READY=1 goes
to systemd once it listens (the broker may still be on its way: the page says so).
"""

from __future__ import annotations

import asyncio
import ipaddress
import logging
import signal
import ssl
import sys
from pathlib import Path

import click

from edge_agent.commands.options import config_option
from edge_agent.config import ConfigError, Settings, load_settings


def _load(config: str | None, overrides: dict | None = None) -> Settings:
    try:
        return load_settings(config, overrides=overrides or {})
    except ConfigError as exc:
        raise click.UsageError(str(exc)) from None


def _loopback(host: str) -> bool:
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def tls_context(settings: Settings) -> ssl.SSLContext | None:
    c = settings.console
    if not c.tls_cert_file:
        if not _loopback(c.host) and not c.allow_plain_http:
            raise ConfigError(
                f"console.host {c.host} is not a loopback address: set console.tls_cert_file and "
                f"tls_key_file for HTTPS (or allow_plain_http behind a TLS proxy)"
            )
        return None
    ctx = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
    ctx.minimum_version = ssl.TLSVersion.TLSv1_2
    ctx.load_cert_chain(settings.resolve(c.tls_cert_file), settings.resolve(c.tls_key_file) if c.tls_key_file else None)
    return ctx


async def serve_console(settings: Settings, *, ready=None, stop: asyncio.Event | None = None, bridge=None) -> None:
    """Run the console until `stop` is set (or SIGTERM/SIGINT when `stop` is None)."""
    from aiohttp import web

    from edge_agent.console.bridge import Bridge
    from edge_agent.console.web import make_app
    from edge_agent.mqtt.notify import notify

    ctx = tls_context(settings)
    if bridge is None:
        bridge = Bridge(settings).start_async()  # paho retries in the background while the broker is away
    # open event streams would hold a graceful stop for a minute: handlers still running after 3 s are cancelled
    runner = web.AppRunner(make_app(settings, bridge), access_log=None, shutdown_timeout=3.0)
    await runner.setup()
    site = web.TCPSite(runner, settings.console.host, settings.console.port, ssl_context=ctx)
    await site.start()
    port = runner.addresses[0][1] if runner.addresses else settings.console.port
    url = f"{'https' if ctx else 'http'}://{settings.console.host}:{port}/"
    logging.getLogger(__name__).info("console on %s", url)
    notify("READY=1", f"STATUS=console on {url}")
    if ready is not None:
        ready(url)
    if stop is None:
        stop = asyncio.Event()
        loop = asyncio.get_running_loop()
        for sig in (signal.SIGTERM, signal.SIGINT):
            loop.add_signal_handler(sig, stop.set)

    async def sweep() -> None:  # finished requests leave memory answer_timeout_s after their final reply
        while True:
            await asyncio.sleep(min(30.0, max(1.0, settings.console.answer_timeout_s / 2)))
            bridge.sweep()

    sweeper = asyncio.get_running_loop().create_task(sweep())
    try:
        await stop.wait()
    finally:
        sweeper.cancel()
        notify("STOPPING=1")
        await runner.cleanup()
        bridge.stop()


class ConsoleThread:
    """The console in a background thread with its own event loop (the demo, the tests)."""

    def __init__(self, settings: Settings):
        import threading

        self.settings, self.url = settings, ""
        self._ready = threading.Event()
        self._error: BaseException | None = None
        self._thread = threading.Thread(target=self._run, daemon=True, name="console")

    def _run(self) -> None:
        self.loop = asyncio.new_event_loop()
        asyncio.set_event_loop(self.loop)
        self.stop_event = asyncio.Event()

        def ready(url: str) -> None:
            self.url = url.rstrip("/")
            self._ready.set()

        try:
            from edge_agent.console.bridge import Bridge

            self.bridge = Bridge(self.settings).start_async()
            self.loop.run_until_complete(
                serve_console(self.settings, ready=ready, stop=self.stop_event, bridge=self.bridge)
            )
        except BaseException as exc:  # surfaced by start()
            self._error = exc
            self._ready.set()

    def start(self, timeout: float = 20.0) -> ConsoleThread:
        self._thread.start()
        if not self._ready.wait(timeout):
            raise RuntimeError("the console did not start")
        if self._error:
            raise self._error
        return self

    def stop(self) -> None:
        if self._thread.is_alive():
            self.loop.call_soon_threadsafe(self.stop_event.set)
            self._thread.join(10)


@click.command()
@config_option()
@click.option("--host", help="address to listen on (default console.host)")
@click.option("--port", type=int, help="port (default console.port)")
@click.option("--log-level", default="INFO", show_default=True)
def console(config, host, port, log_level) -> None:
    """Serve the operator console (a web page; an MQTT client of the daemon)."""
    logging.basicConfig(level=log_level.upper(), format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    over = {k: v for k, v in {"host": host, "port": port}.items() if v is not None}
    settings = _load(config, {"console": over} if over else None)
    try:
        asyncio.run(serve_console(settings, ready=lambda url: click.echo(f"console on {url}", err=True)))
    except (ConfigError, OSError, ssl.SSLError) as exc:
        click.echo(f"edge-agent console: {exc}", err=True)
        sys.exit(2)


# ------------------------------------------------------------------------------------------- users


def users_path(settings: Settings, config: str | None, environ=None) -> Path:
    """Where `edge-agent users` writes: the console's users file as the settings say. Without a settings file
    (`--config` or EDGE_AGENT_CONFIG) or a state directory from the environment (EDGE_AGENT_PATHS__STATE_DIR, as
    the systemd units set it) it would write into the checkout's `var/`, which the console on a gateway never
    reads: refused, with what to do."""
    import os

    environ = os.environ if environ is None else environ
    path = settings.console.users_file
    named = (
        config
        or environ.get("EDGE_AGENT_CONFIG")
        or environ.get("EDGE_AGENT_PATHS__STATE_DIR")
        or environ.get("EDGE_AGENT_CONSOLE__USERS_FILE")
    )
    if not named:
        raise click.UsageError(
            f"which console's users? Without --config (or EDGE_AGENT_CONFIG, or EDGE_AGENT_PATHS__STATE_DIR) this "
            f"would write {settings.state_dir / path if not path.is_absolute() else path}, the checkout's default "
            f"state directory. Name the settings file the console runs with: --config /etc/edge-agent/edge-agent.yaml"
        )
    return Path(path if path.is_absolute() else settings.state_dir / path)


def _store(config: str | None):
    from edge_agent.console.users import UserStore

    settings = _load(config)
    return UserStore(users_path(settings, config))


def _password(password: str | None) -> str:
    if password is not None:
        return password
    if not sys.stdin.isatty():
        return sys.stdin.readline().rstrip("\n")
    return click.prompt("password", hide_input=True, confirmation_prompt=True)


@click.group()
def users() -> None:
    """Manage the console's users (argon2 hashes in console.users_file)."""


@users.command("add")
@click.argument("name")
@click.option("--role", type=click.Choice(["viewer", "operator", "admin"]), default="viewer", show_default=True)
@click.option("--password", help="(else asked, or one line on stdin)")
@config_option()
def users_add(name, role, password, config) -> None:
    """Add user NAME with a role."""
    from edge_agent.console.users import UserError

    try:
        store = _store(config)
        store.add(name, _password(password), role)
    except UserError as exc:
        raise click.UsageError(str(exc)) from None
    click.echo(f"added {name} ({role}) to {store.path}")


@users.command("remove")
@click.argument("name")
@config_option()
def users_remove(name, config) -> None:
    """Remove user NAME."""
    from edge_agent.console.users import UserError

    try:
        _store(config).remove(name)
    except UserError as exc:
        raise click.UsageError(str(exc)) from None
    click.echo(f"removed {name}")


@users.command("passwd")
@click.argument("name")
@click.option("--role", type=click.Choice(["viewer", "operator", "admin"]), help="also change the role")
@click.option("--password", help="(else asked, or one line on stdin)")
@config_option()
def users_passwd(name, role, password, config) -> None:
    """Set the password (and optionally the role) of user NAME."""
    from edge_agent.console.users import UserError

    try:
        _store(config).passwd(name, _password(password), role)
    except UserError as exc:
        raise click.UsageError(str(exc)) from None
    click.echo(f"changed {name}")


@users.command("list")
@config_option()
def users_list(config) -> None:
    """List the users and their roles."""
    for name, user in sorted(_store(config).load().users.items()):
        click.echo(f"{name}\t{user.role}")
