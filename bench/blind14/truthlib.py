"""Blind set 14's truth library: the shared independent reading (bench/blind_truthlib.py), pointed at this folder's
plant.json and plant.csv.gz."""

from __future__ import annotations

import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))

import blind_truthlib  # noqa: E402
from blind_truthlib import *  # noqa: E402, F403
from blindkit.truth import T, Truth, fmtv, same, tolerance, windows  # noqa: E402, F401


class Plant(blind_truthlib.Plant):
    def __init__(self, json_path: Path = HERE / "plant.json", csv_path: Path = HERE / "plant.csv.gz"):
        super().__init__(json_path, csv_path)
