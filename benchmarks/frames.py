"""Frame time of the window, this code against another checkout, side by side in one run.

Each round starts ``vira --autoplay DEALS --speed normal --seed S`` once from this checkout
and once from ``--before`` (in turn, the order swapped every round, so a machine that slows
down during the run weighs on both alike) under ``SDL_VIDEODRIVER=dummy``, with its own empty
settings and data folders, and reads the frame statistics the game prints as JSON. It prints
the median over the rounds of each figure for both, and the ratio after/before.

Run: ``.venv/bin/python benchmarks/frames.py --before ../old-checkout [--rounds 3] [--deals 2] [--json]``
(the other checkout needs its compiled helper, ``vira_desktop/ai/_native*.so``, built or copied).
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

from _figures import print_figures

ROOT = Path(__file__).resolve().parent.parent
FIGURES = ("frame_ms_median", "frame_ms_p95", "frame_ms_max", "frame_cpu_ms_p95", "startup_s", "rss_mb")


def one_run(tree: Path, deals: int, seed: int) -> dict[str, float]:
    """The frame statistics of one autoplayed session from ``tree``."""
    with tempfile.TemporaryDirectory() as home:
        env = {
            **os.environ,
            "SDL_VIDEODRIVER": "dummy",
            "SDL_AUDIODRIVER": "dummy",
            "PYTHONPATH": str(tree),
            "VIRA_CONFIG_DIR": home,
            "VIRA_DATA_DIR": home,
        }
        command = [sys.executable, "-m", "vira_desktop", "--autoplay", str(deals), "--speed", "normal"]
        done = subprocess.run(
            [*command, "--seed", str(seed)], cwd=tree, env=env, capture_output=True, text=True, timeout=1800
        )
    line = next((ln for ln in reversed(done.stdout.splitlines()) if ln.startswith("{")), None)
    if done.returncode != 0 or line is None:
        raise RuntimeError(f"{tree}: exit {done.returncode}: {done.stderr[-500:]}")
    figures: dict[str, float] = json.loads(line)
    return figures


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--before", type=Path, required=True, help="the other checkout (the code before)")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--deals", type=int, default=2)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    trees = {"after": ROOT, "before": args.before.resolve()}
    runs: dict[str, list[dict[str, float]]] = {"after": [], "before": []}
    for round_ in range(args.rounds):
        order = ("after", "before") if round_ % 2 == 0 else ("before", "after")
        for name in order:
            runs[name].append(one_run(trees[name], args.deals, args.seed))
    out: dict[str, object] = {"rounds": args.rounds, "deals": args.deals, "seed": args.seed}
    for figure in FIGURES:
        medians = {name: statistics.median(r[figure] for r in runs[name]) for name in runs}
        out[f"{figure}_before"] = medians["before"]
        out[f"{figure}_after"] = medians["after"]
        out[f"{figure}_ratio"] = round(medians["after"] / medians["before"], 3) if medians["before"] else None
    print_figures(out, args.json)


if __name__ == "__main__":
    main()
