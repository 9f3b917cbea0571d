"""Per-game calibration: the bot's raw estimate against how often it goes home.

For each game, deals are drawn until one seat's *raw* (uncalibrated) estimate
for the game reaches ``--min``; that seat is made declarer (the others pass)
and normal bots play the deal out. The report bins the raw estimates and
prints the measured home rate per bin, and the logit shift that fits best.
Run: ``python benchmarks/contracts.py --game "solo grande misär" [--deals N]``.
"""

from __future__ import annotations

import argparse
import json
import math
import random
import time

from vira_desktop.ai import NormalBot
from vira_desktop.match import play_deal
from vira_desktop.rules.actions import Action, Bid, Pass
from vira_desktop.rules.deal import Deal
from vira_desktop.rules.games import GAMES, Game, game


def _auction(declarer: int, g: Game) -> list[Action]:
    bid = Bid(declarer, g)
    if declarer == 0:
        return [bid, Pass(1), Pass(2)]
    opener = Bid(0, GAMES[0])
    if declarer == 1:
        return [opener, bid, Pass(2), Pass(0)]
    return [opener, Pass(1), bid, Pass(0)]


def _fit(rows: list[tuple[float, bool]]) -> float:
    """The logit shift that maximises the likelihood of the outcomes."""

    def loglik(shift: float) -> float:
        total = 0.0
        for p, home in rows:
            p = min(max(p, 1e-4), 1 - 1e-4)
            q = 1 / (1 + math.exp(-(math.log(p / (1 - p)) + shift)))
            total += math.log(q if home else 1 - q)
        return total

    return max((s / 10 for s in range(-40, 41)), key=loglik)


def run(name: str, deals: int, seed: int, minimum: float, tries: int) -> dict[str, object]:
    g = game(name)
    rng = random.Random(seed)
    rows: list[tuple[float, bool]] = []
    outcomes: dict[str, int] = {}
    drawn = 0
    start = time.perf_counter()
    while len(rows) < deals and drawn < tries:
        drawn += 1
        deal = Deal.from_number(rng.getrandbits(48))
        bots = [NormalBot(rng.getrandbits(32)) for _ in range(3)]
        raws = [bots[s].odds(deal.view(s))._estimate(g).chance[0] for s in range(3)]
        seat = max(range(3), key=lambda s: raws[s])
        if raws[seat] < minimum:
            continue
        for action in _auction(seat, g):
            deal.apply(action)
        play_deal(deal, bots)
        result = deal.result
        assert result is not None
        outcomes[result.outcome] = outcomes.get(result.outcome, 0) + 1
        rows.append((raws[seat], result.outcome == "home"))
    bins = {}
    for lo in (0.0, 0.2, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9):
        hi = {0.0: 0.2, 0.2: 0.4, 0.4: 0.5, 0.5: 0.6, 0.6: 0.7, 0.7: 0.8, 0.8: 0.9, 0.9: 1.01}[lo]
        sel = [h for p, h in rows if lo <= p < hi]
        if sel:
            bins[f"{lo:.1f}-{hi:.1f}"] = {"n": len(sel), "home": round(sum(sel) / len(sel), 3)}
    return {
        "game": g.name,
        "deals": len(rows),
        "drawn": drawn,
        "seconds": round(time.perf_counter() - start, 1),
        "outcomes": outcomes,
        "raw_bins": bins,
        "best_shift": _fit(rows) if rows else None,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--game", action="append", required=True)
    parser.add_argument("--deals", type=int, default=200)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--min", type=float, default=0.3, help="raw estimate a seat needs to declare")
    parser.add_argument("--tries", type=int, default=200000, help="deals drawn at most")
    args = parser.parse_args()
    for name in args.game:
        print(json.dumps(run(name, args.deals, args.seed, args.min, args.tries), ensure_ascii=False))


if __name__ == "__main__":
    main()
