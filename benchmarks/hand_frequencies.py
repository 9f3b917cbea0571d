"""How often a random 13-card hand is strong enough for the rarest games.

Solo 12 and solo vira can be bid only on (nearly) sure tricks, and the grande
royale misère only on a hand no lay-out can beat; this counts such hands among
random deals, to show how rare those bids must be (``opportunities.py`` counts
the hands the bot itself rates for each game). Run:
``python benchmarks/hand_frequencies.py [--hands N] [--seed S]``.
"""

from __future__ import annotations

import argparse
import json
import random
from collections import Counter

from vira_desktop.ai.evaluate import danger_mask, sure_tricks_mask


def run(hands: int, seed: int) -> dict[str, object]:
    rng = random.Random(seed)
    sure: Counter[int] = Counter()
    flawless = 0
    for _ in range(hands):
        mask = 0
        for i in rng.sample(range(52), 13):
            mask |= 1 << i
        sure[max(sure_tricks_mask(mask, t) for t in range(4))] += 1
        flawless += danger_mask(mask) == 0
    at_least = {n: sum(c for k, c in sure.items() if k >= n) for n in (9, 10, 11, 12, 13)}
    return {
        "hands": hands,
        "sure_tricks_at_least": at_least,
        "per_60000_hands": {n: round(c * 60000 / hands, 2) for n, c in at_least.items()},
        "misere_without_danger": flawless,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--hands", type=int, default=300000)
    parser.add_argument("--seed", type=int, default=2)
    args = parser.parse_args()
    print(json.dumps(run(args.hands, args.seed)))


if __name__ == "__main__":
    main()
