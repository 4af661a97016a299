"""`python -m edge_agent` is the same as the `edge-agent` console script."""

from edge_agent.cli import main

main()
