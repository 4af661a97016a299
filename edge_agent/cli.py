"""The `edge-agent` command line: a click group whose subcommands live in `edge_agent.commands.*`.

Subcommands are imported only when used, so `edge-agent simulate` never loads the model runtime.
Exit codes: 0 success, 1 the agent gave up / the operation failed, 2 bad usage or bad config.
"""

from __future__ import annotations

import importlib

import click

from edge_agent import __version__

#: name -> "module:attribute" of a click command
COMMANDS = {
    "ask": "edge_agent.commands.ask:ask",
    "logs": "edge_agent.commands.logs:logs",
    "models": "edge_agent.commands.models:models",
    "simulate": "edge_agent.commands.simulate:simulate",
    "tts": "edge_agent.commands.tts:tts",
    "serve": "edge_agent.commands.daemon:serve",
    "request": "edge_agent.commands.daemon:request",
    "demo": "edge_agent.commands.demo:demo",
    "bench": "edge_agent.commands.bench:bench",
    "audit": "edge_agent.commands.audit:audit",
    "fleet": "edge_agent.commands.fleet:fleet",
    "console": "edge_agent.commands.console:console",
    "users": "edge_agent.commands.console:users",
}

HELP = {
    "ask": "Answer one question with the local model and print each step live.",
    "logs": "Show recent runs from the run log.",
    "models": "List the model catalog and verify model files.",
    "simulate": "Run the embedded SkySpark (Haystack HTTP + SCRAM) simulator.",
    "tts": "Manage the Tiny Trajectory Store.",
    "serve": "Run the gateway daemon (MQTT v5).",
    "request": "Send a question to a daemon over MQTT and wait for the answer.",
    "demo": "Start simulator, broker and daemon, ask one question over MQTT, stop.",
    "bench": "Run an IoT task set and check every answer exactly.",
    "audit": "List or export the audit trail (who asked what), as a table, JSON lines or CSV.",
    "fleet": "List the gateways a broker shows: status, version, model, queue, last answer, degraded reasons.",
    "console": "Serve the operator console (web page; an MQTT client of the daemon).",
    "users": "Manage the console's users (add, remove, passwd, list).",
}


class LazyGroup(click.Group):
    def list_commands(self, ctx):
        return list(COMMANDS)

    def get_command(self, ctx, name):
        target = COMMANDS.get(name)
        if target is None:
            return None
        module, attr = target.split(":")
        return getattr(importlib.import_module(module), attr)

    def format_commands(self, ctx, formatter):
        with formatter.section("Commands"):
            formatter.write_dl([(name, HELP.get(name, "")) for name in COMMANDS])


@click.group(cls=LazyGroup)
@click.version_option(__version__, prog_name="edge-agent")
def main() -> None:
    """edge-agent: answers plant operators' questions with a local model, offline."""
