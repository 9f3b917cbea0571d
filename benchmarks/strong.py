"""The strong bot's thinking time: every decision of strong bots playing deals at a budget
(by default the window's, 0.4 s), timed; prints the median, p95 and max overall, for the
card play and for the decisions before it (bids, buys, trump, play or lay down), and how many
cards were searched.
Run: ``python benchmarks/strong.py [--deals N] [--seed S] [--seconds X] [--json]``.
"""

from __future__ import annotations

import argparse
import random
import time

from _figures import print_figures

from vira_desktop.ai.strong import Budget, StrongBot
from vira_desktop.rules.deal import Deal, Phase


def _pct(xs: list[float], q: float) -> float:
    return round(1000 * xs[min(len(xs) - 1, int(q * len(xs)))], 1)


def run(deals: int, seed: int, seconds: float) -> dict[str, object]:
    rng = random.Random(seed)
    every: list[float] = []
    cards: list[float] = []
    before: list[float] = []  # decisions before play that the search weighs (after the auction)
    searched = 0
    for _ in range(deals):
        deal = Deal.from_number(rng.getrandbits(48))
        bots = [StrongBot(rng.getrandbits(32), Budget(seconds=seconds)) for _ in range(3)]
        while deal.phase is not Phase.DONE:
            d = deal.decision()
            view = deal.view(d.seat)
            t0 = time.perf_counter()
            choice = bots[d.seat].choose(view)
            spent = time.perf_counter() - t0
            every.append(spent)
            if deal.phase is Phase.PLAY and not d.optional:
                cards.append(spent)
                searched += choice.reason.key.startswith("search_")
            elif deal.phase is not Phase.PLAY:
                before.append(spent)
            if choice.action is not None:
                deal.apply(choice.action)
    every.sort()
    cards.sort()
    before.sort()
    return {
        "deals": deals,
        "budget_s": seconds,
        "decisions": len(every),
        "decision_ms_median": _pct(every, 0.5),
        "decision_ms_p95": _pct(every, 0.95),
        "decision_ms_max": round(1000 * every[-1], 1),
        "card_ms_median": _pct(cards, 0.5),
        "card_ms_p95": _pct(cards, 0.95),
        "before_play_ms_median": _pct(before, 0.5),
        "before_play_ms_p95": _pct(before, 0.95),
        "cards_searched_and_changed": searched,
    }


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--deals", type=int, default=20)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--seconds", type=float, default=Budget().seconds or 0.4)
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()
    print_figures(run(args.deals, args.seed, args.seconds), args.json)


if __name__ == "__main__":
    main()
