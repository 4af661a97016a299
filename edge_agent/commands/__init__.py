"""CLI subcommands, one module per area; `edge_agent.cli` loads them lazily."""
