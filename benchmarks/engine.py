"""Engine benchmark: random-play deals per second through the fast (unchecked) path.

Every deal is played to the last trick: the auction is forced round the 40
games of the bid table (so every procedure is measured), every other decision
is a uniformly random legal one except that the declarer never lays down.
Run: ``python benchmarks/engine.py [--deals N] [--seed S]``; prints figures.
"""

from __future__ import annotations

import argparse
import json
import random
import time

from vira_desktop.rules.actions import Decide
from vira_desktop.rules.cards import bit_indices
from vira_desktop.rules.deal import Deal, Phase
from vira_desktop.rules.games import GAMES
from vira_desktop.session.match import forced_auction


def random_playout(deal: Deal, rng: random.Random) -> int:
    """Play ``deal`` out with random legal actions via the fast path; returns actions taken."""
    n = 0
    while deal.phase is not Phase.DONE:
        if deal.phase is Phase.PLAY:
            cards = bit_indices(deal.playable_mask())
            deal.play_unchecked(cards[int(rng.random() * len(cards))])
        else:
            d = deal.decision()
            actions = [a for a in d.actions if not (isinstance(a, Decide) and not a.play)]
            if d.choice is not None and (not actions or rng.random() < 0.5):
                action = d.choice.random(rng)
            else:
                action = rng.choice(actions)
            deal.apply_unchecked(action)
        n += 1
    return n


def run(deals: int, seed: int) -> dict[str, float]:
    rng = random.Random(seed)
    actions = 0
    start = time.perf_counter()
    for i in range(deals):
        deal = Deal.from_number(rng.getrandbits(48))
        for a in forced_auction(deal, GAMES[i % 40], rng):
            deal.apply_unchecked(a)
        actions += random_playout(deal, rng)
    seconds = time.perf_counter() - start
    return {
        "deals": deals,
        "seconds": round(seconds, 3),
        "deals_per_s": round(deals / seconds, 1),
        "actions_per_s": round(actions / seconds, 1),
        "us_per_deal": round(1e6 * seconds / deals, 1),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--deals", type=int, default=20000)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    print(json.dumps(run(args.deals, args.seed)))


if __name__ == "__main__":
    main()
