"""Bot benchmark: decision latency per level and phase (median, p95, max) and self-play speed.

Run: ``python benchmarks/bots.py [--deals N] [--seed S] [--levels random,easy,normal]``.
Each level plays ``N`` deals against itself; every decision is timed.

``--baseline DIR`` runs the same deals first with the code of another checkout (``DIR``
holds its ``vira_desktop``, e.g. a ``git worktree`` of main) and then with this one, level
by level, back to back (the machine's load changes, so measure before and after
together), and prints each with ``code`` set to ``baseline`` or ``this``, then the speed-ups.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import subprocess
import sys
import time
from collections import defaultdict
from pathlib import Path

from vira_desktop.ai import make_bot
from vira_desktop.rules.deal import Deal


def _pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def run(level: str, deals: int, seed: int) -> dict[str, object]:
    rng = random.Random(seed)
    times: dict[str, list[float]] = defaultdict(list)
    start = time.perf_counter()
    for i in range(deals):
        deal = Deal.from_number(rng.getrandbits(48))
        bots = [make_bot(level, seed * 31 + i * 3 + s) for s in range(3)]
        while not deal.is_over:
            decision = deal.decision()
            seat = decision.seat
            view = deal.view(seat)
            t0 = time.perf_counter()
            choice = bots[seat].choose(view)
            times[deal.phase.value].append(time.perf_counter() - t0)
            if choice.action is not None:
                deal.apply(choice.action)
    seconds = time.perf_counter() - start
    every = [t for ts in times.values() for t in ts]
    ms = 1000.0
    return {
        "level": level,
        "deals": deals,
        "deals_per_s": round(deals / seconds, 1),
        "decisions": len(every),
        "ms_median": round(ms * _pct(every, 0.5), 3),
        "ms_p95": round(ms * _pct(every, 0.95), 3),
        "ms_max": round(ms * max(every), 3),
        "per_phase": {
            phase: {"n": len(ts), "ms_median": round(ms * _pct(ts, 0.5), 3), "ms_p95": round(ms * _pct(ts, 0.95), 3)}
            for phase, ts in sorted(times.items())
        },
    }


def _baseline(checkout: str, level: str, deals: int, seed: int) -> dict[str, object]:
    """:func:`run` with the ``vira_desktop`` of ``checkout``, in a process of its own."""
    env = {**os.environ, "PYTHONPATH": checkout}
    script = str(Path(__file__).resolve())
    args = [sys.executable, script, "--levels", level, "--deals", str(deals), "--seed", str(seed)]
    out = subprocess.run(args, cwd=checkout, env=env, capture_output=True, text=True, check=True).stdout
    result: dict[str, object] = json.loads(out.splitlines()[-1])
    return result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--deals", type=int, default=300)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--levels", default="random,easy,normal")
    parser.add_argument("--baseline", metavar="DIR", help="a checkout to measure first, for a before/after figure")
    args = parser.parse_args()
    speedups = {}
    for level in (x.strip() for x in args.levels.split(",")):
        if args.baseline:
            before = _baseline(args.baseline, level, args.deals, args.seed)
            print(json.dumps({"code": "baseline", **before}, ensure_ascii=False), flush=True)
        after = run(level, args.deals, args.seed)
        print(json.dumps({"code": "this", **after} if args.baseline else after, ensure_ascii=False), flush=True)
        if args.baseline:
            speedups[level] = f"{before['deals_per_s']} -> {after['deals_per_s']} deals/s"
    if speedups:
        print(json.dumps({"deals_per_s": speedups}, ensure_ascii=False))


if __name__ == "__main__":
    main()
