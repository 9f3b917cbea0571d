"""Fit ``AS_PLAYED`` (``vira_desktop/ai/worlds.py``): how often a declarer goes home, bet
and kodilj as the bots play, by his double-dummy tricks at the first lead.

Two kinds of deal: ones the normal bots bid (the declarer strong against two normal
defenders, or normal against one strong and one normal, half each: the seats of a duplicate
match), and ones in a contract drawn at random, which fill in the hands short of their game.
Each is solved double dummy at its first lead, then played out by the bots.

Run: ``python benchmarks/as_played.py [--deals N] [--drawn N] [--seed S] [--jobs J]``.
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import random
import time
from collections import Counter, defaultdict

from vira_desktop.ai import make_bot
from vira_desktop.ai.solver import position_of, solve
from vira_desktop.ai.worlds import AS_PLAYED
from vira_desktop.rules.deal import Deal
from vira_desktop.rules.decision import Phase
from vira_desktop.rules.errors import IllegalAction
from vira_desktop.rules.games import GAMES
from vira_desktop.session.match import forced_auction, play_deal

Row = tuple[bool, int, str]  # misère, tricks over the need double dummy (clamped), outcome as played


def _one(task: tuple[int, int, bool]) -> Row | None:
    """Deal ``i`` of seed ``seed``: bid by the normal bots, or (``drawn``) in a random contract;
    None where it never reached a lead (passed out, laid down)."""
    seed, i, drawn = task
    rng = random.Random(seed * 100_003 + i)
    deal = Deal.from_number(rng.getrandbits(48))
    normal = [make_bot("normal", seed * 7 + i * 3 + s) for s in range(3)]
    try:
        if drawn:
            for a in forced_auction(deal, rng.choice(GAMES), rng):
                deal.apply(a)
        while deal.phase not in (Phase.PLAY, Phase.DONE):
            choice = normal[deal.to_act].choose(deal.view(deal.to_act))
            assert choice.action is not None
            deal.apply(choice.action)
    except IllegalAction:  # a drawn contract the seat may not play (not bid as drawn)
        return None
    declarer = deal.declarer
    if deal.phase is Phase.DONE or declarer is None or deal.game is None:
        return None
    view = deal.view(declarer)
    if view.decision is not None and view.decision.optional:  # four aces as ones
        said = normal[declarer].choose(view).action
        if said is not None:
            deal.apply(said)
    need = 0 if deal.low else deal.game.tricks
    dd = solve(position_of(deal))
    defenders = [s for s in range(3) if s != declarer]
    strong = declarer if i % 2 == 0 else defenders[0]  # a duplicate match's seats, half each
    bots = [make_bot("strong" if s == strong else "normal", seed * 7 + i * 3 + s) for s in range(3)]
    play_deal(deal, bots)
    result = deal.result
    assert result is not None
    over = max(-1, -dd) if deal.low else max(-3, min(1, dd - need))
    return deal.low, over, result.outcome.value


def run(deals: int, drawn: int, seed: int, jobs: int) -> dict[str, object]:
    start = time.perf_counter()
    tasks = [(seed, i, False) for i in range(deals)] + [(seed + 1, i, True) for i in range(drawn)]
    with multiprocessing.Pool(jobs) as pool:
        rows = [r for r in pool.imap_unordered(_one, tasks, chunksize=4) if r is not None]
    counts: defaultdict[tuple[bool, int], Counter[str]] = defaultdict(Counter)
    for low, over, outcome in rows:
        counts[(low, over)][outcome] += 1
    table = {}
    for key in sorted(counts):
        c = counts[key]
        n = sum(c.values())
        table[f"{'misère' if key[0] else 'high'} {key[1]:+d}"] = {
            "n": n,
            "fitted": [round(c[o] / n, 3) for o in ("home", "bet", "kodilj")],
            "in_use": list(AS_PLAYED.get(key, ())),
        }
    return {"played": len(rows), "seconds": round(time.perf_counter() - start, 1), "home_bet_kodilj": table}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--deals", type=int, default=800, help="deals the bots bid")
    parser.add_argument("--drawn", type=int, default=2400, help="deals in a contract drawn at random")
    parser.add_argument("--seed", type=int, default=11)
    parser.add_argument("--jobs", type=int, default=2)
    args = parser.parse_args()
    print(json.dumps(run(args.deals, args.drawn, args.seed, args.jobs), ensure_ascii=False, indent=1))


if __name__ == "__main__":
    main()
