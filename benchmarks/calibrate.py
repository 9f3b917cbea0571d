"""Calibration: how often the normal bot goes home against the chance it bid at, by family.

The logit shifts in ``vira_desktop/ai/planning.py`` (CALIBRATION) are set from this
report. Run: ``python benchmarks/calibrate.py [--deals N] [--seed S]``.
"""

from __future__ import annotations

import argparse
import json
import math
import random
import time
from collections import defaultdict

from vira_desktop.ai import NormalBot
from vira_desktop.rules.deal import Deal
from vira_desktop.rules.games import game
from vira_desktop.rules.scoring import Outcome
from vira_desktop.session.match import play_deal


def _logit(p: float) -> float:
    p = min(max(p, 1e-3), 1 - 1e-3)
    return math.log(p / (1 - p))


def run(deals: int, seed: int) -> dict[str, object]:
    rng = random.Random(seed)
    rows: dict[str, list[tuple[float, str]]] = defaultdict(list)
    outcomes: dict[str, int] = defaultdict(int)
    start = time.perf_counter()
    for i in range(deals):
        deal = Deal.from_number(rng.getrandbits(48))
        bots = [NormalBot(seed * 7 + i * 3 + s) for s in range(3)]
        play_deal(deal, bots)
        result = deal.result
        assert result is not None
        outcomes[result.outcome] += 1
        last = bots[result.declarer].last_bid
        if last is not None and last[0] == result.game.name:
            rows[game(last[0]).family.value].append((last[2], result.outcome))
    seconds = time.perf_counter() - start
    families = {}
    for family, items in sorted(rows.items()):
        predicted = sum(p for p, _ in items) / len(items)
        home = sum(o is Outcome.HOME for _, o in items) / len(items)
        families[family] = {
            "n": len(items),
            "predicted": round(predicted, 3),
            "home": round(home, 3),
            "kodilj": round(sum(o == "kodilj" for _, o in items) / len(items), 3),
            "laid": round(sum(o == "laid" for _, o in items) / len(items), 3),
            "suggested_shift_change": round(_logit(home) - _logit(predicted), 2),
        }
    return {
        "deals": deals,
        "seconds": round(seconds, 1),
        "home_pct": round(100 * outcomes[Outcome.HOME] / deals, 2),
        "kodilj_pct": round(100 * outcomes[Outcome.KODILJ] / deals, 2),
        "families": families,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--deals", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=21)
    args = parser.parse_args()
    print(json.dumps(run(args.deals, args.seed), ensure_ascii=False, indent=1))


if __name__ == "__main__":
    main()
