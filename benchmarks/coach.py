"""How long the coach takes to weigh every lit cell of the bid grid, per auction turn (it runs
in the worker, off the frame loop; this says how soon its colours arrive).

    python benchmarks/coach.py [--deals 200] [--json]
"""

from __future__ import annotations

import argparse
import json
import statistics
import time

from vira_desktop.rules.actions import Pass
from vira_desktop.rules.deal import Deal
from vira_desktop.session.coach import Coach


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--deals", type=int, default=200)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    coach, times, cells = Coach(), [], 0
    for number in range(args.deals):
        deal = Deal.from_number(number)
        for _ in range(3):  # the first three turns of the auction; each then passes (forehand bids)
            view = deal.view(int(deal.to_act))
            start = time.perf_counter()
            cells += len(coach.bids(view))
            times.append(1000 * (time.perf_counter() - start))
            decision = deal.decision()
            deal.apply(next((a for a in decision.actions if isinstance(a, Pass)), decision.actions[0]))
    times.sort()
    figures = {
        "turns": len(times),
        "cells_per_turn": round(cells / len(times), 1),
        "median_ms": round(statistics.median(times), 1),
        "p95_ms": round(times[int(0.95 * len(times))], 1),
        "max_ms": round(times[-1], 1),
    }
    if args.json:
        print(json.dumps(figures))
    else:
        print(", ".join(f"{k} {v}" for k, v in figures.items()))


if __name__ == "__main__":
    main()
