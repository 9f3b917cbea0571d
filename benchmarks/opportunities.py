"""How often the normal bot holds a hand for each game, whatever the others bid.

For every seat of ``--deals`` random deals, the bot's own auction odds say
which games it rates likely enough to bid (its threshold, at any suit level),
and which game it would bid first if every bid were still open. A game no
hand is rated for in 20,000 deals cannot be bid there by an honest bot; a
game rated but never first is outbid by a better game for the same hand.
Run: ``python benchmarks/opportunities.py [--deals N] [--game NAME ...]``.
"""

from __future__ import annotations

import argparse
import json
import random
import time
from collections import Counter

from vira_desktop.ai import NormalBot
from vira_desktop.rules.actions import Bid
from vira_desktop.rules.deal import Deal
from vira_desktop.rules.games import GAMES, game

NEVER_BID = (  # the games never bid in 20,000 deals of normal self-play in stop 7 (solo 11 is since)
    "turné 8",
    "tringel 9",
    "gask 5",
    "gask 6",
    "vira",
    "solo grande misär",
    "solo petite misär ouverte",
    "solo grande misär ouverte",
    "solo 11",
    "solo 12",
    "solo vira",
)


def run(deals: int, seed: int, names: list[str]) -> dict[str, object]:
    rng = random.Random(seed)
    targets = [game(n) for n in names]
    names = [g.name for g in targets]  # "begar" counts as "begär"
    rated: Counter[str] = Counter()
    first: Counter[str] = Counter()
    chosen_instead: dict[str, Counter[str]] = {n: Counter() for n in names}
    start = time.perf_counter()
    for _ in range(deals):
        deal = Deal.from_number(rng.getrandbits(48))
        for seat in range(3):
            bot = NormalBot(rng.getrandbits(32))
            view = deal.view(seat)
            odds = bot.odds(view)
            hits = [g.name for g in targets if max(odds[g.name].chance) >= bot.threshold]
            if not hits:
                continue
            every = [Bid(seat, g, None, lv) for g in GAMES for lv in ((0, 1, 2) if g.free_trump else (0,))]
            best = bot.best_bid(view, every)
            top = best[1].game.name if best is not None and best[1].game is not None else "pass"
            for name in hits:
                rated[name] += 1
                if top == name:
                    first[name] += 1
                else:
                    chosen_instead[name][top] += 1
    return {
        "deals": deals,
        "hands": 3 * deals,
        "seconds": round(time.perf_counter() - start, 1),
        "games": {
            n: {"rated": rated[n], "first_choice": first[n], "outbid_by": dict(chosen_instead[n].most_common(3))}
            for n in names
        },
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--deals", type=int, default=20000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--game", action="append", help="a game to count (default: those never bid in stop 7)")
    args = parser.parse_args()
    print(json.dumps(run(args.deals, args.seed, args.game or list(NEVER_BID)), ensure_ascii=False))


if __name__ == "__main__":
    main()
