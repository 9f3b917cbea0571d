"""Per-game calibration: the bot's raw estimates against how often it goes home.

For each game, deals are drawn until one seat's *raw* (uncalibrated) auction
estimate for the game reaches ``--min``; that seat is made declarer (the others
pass) and normal bots play the deal out. The declarer always plays (never lays
down or repurchases), so every deal says whether the hand would go home.

Two estimates are checked: the auction's (``HandOdds``) and the one made with
the cards in hand when deciding to play (``_raw_play_chance``, split into high
and low). For each the report bins the raw figures with the measured home
rate and gives the logit shift that fits best: these are the CALIBRATION and
PLAY_CALIBRATION tables in ``vira_desktop/ai/planning.py``.
Run: ``python benchmarks/contracts.py --game "solo grande misär" [--deals N]``.
"""

from __future__ import annotations

import argparse
import itertools
import json
import math
import random
import time
from typing import TextIO

from vira_desktop.ai import NormalBot
from vira_desktop.rules.actions import Bid, Decide
from vira_desktop.rules.deal import Deal, Phase
from vira_desktop.rules.games import game
from vira_desktop.rules.scoring import Outcome
from vira_desktop.session.match import auction_won_by, play_deal


def _fit(rows: list[tuple[float, bool]]) -> tuple[float, float]:
    """The (slope, shift) of ``logit(q) = slope * logit(p) + shift`` that maximises the
    likelihood of the outcomes (Platt scaling; a slope below 1 means the raw figures
    spread the hands too far apart)."""
    logits = [math.log(min(max(p, 1e-4), 1 - 1e-4) / (1 - min(max(p, 1e-4), 1 - 1e-4))) for p, _ in rows]

    def loglik(slope: float, shift: float) -> float:
        total = 0.0
        for x, (_, home) in zip(logits, rows, strict=True):
            q = 1 / (1 + math.exp(-(slope * x + shift)))
            q = min(max(q, 1e-9), 1 - 1e-9)
            total += math.log(q if home else 1 - q)
        return total

    grid = [(a / 10, b / 10) for a in range(2, 16) for b in range(-40, 41, 2)]
    slope, shift = max(grid, key=lambda ab: loglik(*ab))
    fine = [(slope + da / 20, shift + db / 10) for da in (-1, 0, 1) for db in (-1, 0, 1)]
    return max(fine, key=lambda ab: loglik(*ab))


def _bins(rows: list[tuple[float, bool]]) -> dict[str, dict[str, float]]:
    edges = (0.0, 0.2, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1.01)
    out = {}
    for lo, hi in itertools.pairwise(edges):
        sel = [h for p, h in rows if lo <= p < hi]
        if sel:
            out[f"{lo:.1f}-{min(hi, 1):.1f}"] = {"n": len(sel), "home": round(sum(sel) / len(sel), 3)}
    return out


def _report(rows: list[tuple[float, bool]]) -> dict[str, object]:
    return {"n": len(rows), "bins": _bins(rows), "slope_shift": _fit(rows) if rows else None}


def run(name: str, deals: int, seed: int, minimum: float, tries: int, dump: TextIO | None = None) -> dict[str, object]:
    g = game(name)
    rng = random.Random(seed)
    bid_rows: list[tuple[float, bool]] = []
    play_rows: dict[bool, list[tuple[float, bool]]] = {False: [], True: []}
    drawn = 0
    start = time.perf_counter()
    while len(bid_rows) < deals and drawn < tries:
        drawn += 1
        deal = Deal.from_number(rng.getrandbits(48))
        bots = [NormalBot(rng.getrandbits(32)) for _ in range(3)]
        estimates = [bots[s].odds(deal.view(s))._estimate(g) for s in range(3)]
        raws = [e.chance[0] if e is not None else 0.0 for e in estimates]  # None only with a limit
        seat = max(range(3) if g.no > 1 else (0,), key=lambda s: raws[s])  # forehand opens begär
        if raws[seat] < minimum:
            continue
        for action in auction_won_by(Bid(seat, g)):
            deal.apply(action)
        at_play: tuple[float, bool] | None = None
        while not deal.is_over and deal.phase is not Phase.DECIDE:
            choice = bots[deal.decision().seat].choose(deal.view(deal.decision().seat))
            assert choice.action is not None
            deal.apply(choice.action)
        if not deal.is_over:
            view = deal.view(seat)
            at_play = (bots[seat]._raw_play_chance(view), view.low)
            deal.apply(Decide(seat, True))
            play_deal(deal, bots)
        result = deal.result
        assert result is not None
        home = result.outcome is Outcome.HOME
        bid_rows.append((raws[seat], home))
        if at_play is not None:
            play_rows[at_play[1]].append((at_play[0], home))
    if dump is not None:
        for kind, rows in (("auction", bid_rows), ("play_high", play_rows[False]), ("play_low", play_rows[True])):
            for p, home in rows:
                dump.write(json.dumps({"game": g.name, "kind": kind, "p": round(p, 5), "home": home}) + "\n")
    return {
        "game": g.name,
        "deals": len(bid_rows),
        "drawn": drawn,
        "seconds": round(time.perf_counter() - start, 1),
        "home_pct": round(100 * sum(h for _, h in bid_rows) / max(1, len(bid_rows)), 1),
        "auction": _report(bid_rows),
        "play_high": _report(play_rows[False]),
        "play_low": _report(play_rows[True]),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--game", action="append", required=True)
    parser.add_argument("--deals", type=int, default=200)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--min", type=float, default=0.3, help="raw estimate a seat needs to declare")
    parser.add_argument("--tries", type=int, default=200000, help="deals drawn at most")
    parser.add_argument("--rows", type=argparse.FileType("a"), help="append every (estimate, went home) row as JSON")
    args = parser.parse_args()
    for name in args.game:
        print(json.dumps(run(name, args.deals, args.seed, args.min, args.tries, args.rows), ensure_ascii=False))


if __name__ == "__main__":
    main()
