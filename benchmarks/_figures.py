"""What the benchmarks share: printing their figures."""

from __future__ import annotations

import json
from collections.abc import Mapping


def print_figures(figures: Mapping[str, object], as_json: bool) -> None:
    """One JSON line, or one figure a line."""
    if as_json:
        print(json.dumps(figures))
    else:
        for key, value in figures.items():
            print(f"{key:28} {value}")
