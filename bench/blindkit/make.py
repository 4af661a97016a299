"""Draw a plant from its plant.yaml (docs/plants.md): write plant.json and plant.csv.gz beside it (from X.yaml: X.json
and X.csv.gz), or with --check only compare (sha256). The generator is evaluation code: edge_agent/evaluation/plantkit/
(make.py, plantfile.py, generator.py).

Usage: python bench/blindkit/make.py bench/blind18 [bench/blind17 ...] [bench/plants/depot.yaml ...] [--check]
"""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))  # the project's root: edge_agent
from edge_agent.evaluation.plantkit.make import main  # noqa: E402

if __name__ == "__main__":
    sys.exit(main())
