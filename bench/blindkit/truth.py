"""Compute blind sets' truth.md from their truth.yaml (docs/plants.md, "The truth as data"), or with --check only
compare (sha256). The checks are evaluation code: edge_agent/evaluation/plantkit/ (truthfile.py, truth.py).

Usage: python bench/blindkit/truth.py bench/blind18 [bench/blind17 ...] [--check]
"""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))  # the project's root: edge_agent
from edge_agent.evaluation.plantkit.truthfile import main  # noqa: E402

if __name__ == "__main__":
    sys.exit(main())
