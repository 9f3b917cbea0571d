"""Bot benchmark: decision latency per level and phase (median, p95, max) and self-play speed.

Run: ``python benchmarks/bots.py [--deals N] [--seed S] [--levels random,easy,normal]``.
Each level plays ``N`` deals against itself; every decision is timed.
"""

from __future__ import annotations

import argparse
import json
import random
import time
from collections import defaultdict

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


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--deals", type=int, default=300)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--levels", default="random,easy,normal")
    args = parser.parse_args()
    for level in args.levels.split(","):
        print(json.dumps(run(level.strip(), args.deals, args.seed), ensure_ascii=False))


if __name__ == "__main__":
    main()
