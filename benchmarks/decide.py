"""The declarer's decision to play or lay down (and, after a buy, to repurchase or turn
again), checked against the cards.

Normal bots play self-play deals; whenever a declarer must decide, the
deal is copied and finished once with each of his options — play, lay down, and the
bot's own choice (which may be a repurchase or a turn again, after which the bot
decides again) — so every decision is scored against what the other options would
have brought with the same hidden cards. A result is the declarer's net in bets
(pins at 1/8 bet). The report says, for the hands the bot laid down, how often they
would have gone home if played and what playing them would have brought against
laying down; for the hands it played, the same the other way; and for repurchases
and turns again, their result against playing or laying down at once (and against the
better of the two in hindsight, which no decision can reach).
Run: ``python benchmarks/decide.py [--deals N] [--seed S]``.
"""

from __future__ import annotations

import argparse
import json
import math
import random
import time
from collections import defaultdict
from collections.abc import Sequence
from typing import TextIO

from vira_desktop.ai import NormalBot
from vira_desktop.rules.actions import Decide, Repurchase, Turn
from vira_desktop.rules.deal import Deal, Phase
from vira_desktop.rules.scoring import Outcome
from vira_desktop.session.match import play_deal


def _gap_fit(rows: list[tuple[float, Outcome]]) -> float:
    """The ``KODILJ_GAP`` (ai/normal.py) that best fits ``rows`` of (chance, outcome when
    played): on the logit, the chance of not going kodilj is the chance of home plus it."""

    def loglik(gap: float) -> float:
        total = 0.0
        for p, outcome in rows:
            p = min(max(p, 1e-4), 1 - 1e-4)
            q = min(max(1 / (1 + math.exp(-(math.log(p / (1 - p)) + gap))), 1e-6), 1 - 1e-6)
            total += math.log(1 - q if outcome is Outcome.KODILJ else q)
        return total

    return max((g / 10 for g in range(0, 61)), key=loglik)


def _finish(deal: Deal, bots: Sequence[NormalBot], action: Decide | Repurchase | Turn) -> tuple[float, Outcome]:
    """The declarer's net bets and outcome when ``action`` is taken on a copy of ``deal``."""
    copy = deal.clone()
    copy.apply(action)
    play_deal(copy, bots)
    result = copy.result
    assert result is not None
    return result.net_pins(result.declarer) / 8, result.outcome


def _to_decision(deal: Deal, bots: Sequence[NormalBot]) -> bool:
    """Let the bots act until the declarer must play or lay down (False: the deal ended
    or went on to the play without such a decision)."""
    while not deal.is_over and deal.phase is not Phase.DECIDE:
        if deal.phase is Phase.PLAY:
            return False
        seat = deal.decision().seat
        action = bots[seat].choose(deal.view(seat)).action
        assert action is not None
        deal.apply(action)
    return not deal.is_over


def run(deals: int, seed: int, dump: TextIO | None = None) -> dict[str, object]:
    rng = random.Random(seed)
    start = time.perf_counter()
    stats: dict[str, list[tuple[float, float, float, bool]]] = defaultdict(list)  # kind -> (chance, play, lay, home)
    rebuys: dict[str, list[tuple[float, float, float]]] = defaultdict(list)  # kind -> (bot's result, play, lay)
    totals = {"bot": 0.0, "always_play": 0.0, "hindsight": 0.0}
    decisions = 0
    fits: dict[bool, list[tuple[float, Outcome]]] = {False: [], True: []}
    for i in range(deals):
        deal = Deal.from_number(rng.getrandbits(48))
        bots = [NormalBot(seed * 7 + i * 3 + s) for s in range(3)]
        if not _to_decision(deal, bots):
            continue
        decisions += 1
        seat = deal.decision().seat
        view = deal.view(seat)
        chance = bots[seat]._play_chance(view)
        choice = bots[seat].choose(view).action
        play, played_as = _finish(deal, bots, Decide(seat, True))
        lay, _ = _finish(deal, bots, Decide(seat, False))
        home = played_as is Outcome.HOME
        fits[view.low].append((chance, played_as))
        if dump is not None:
            g = deal.game
            assert g is not None
            row = {"game": g.name, "family": g.family.value, "low": view.low, "p": round(chance, 4)}
            dump.write(json.dumps({**row, "outcome": played_as.value}, ensure_ascii=False) + "\n")
        totals["always_play"] += play
        if isinstance(choice, Decide):
            kind = "played" if choice.play else "laid"
            stats[kind].append((chance, play, lay, home))
            totals["bot"] += play if choice.play else lay
            totals["hindsight"] += max(play, lay)
            continue
        assert isinstance(choice, Repurchase | Turn)
        kind = "turned_again" if isinstance(choice, Turn) else "repurchased"
        result, _ = _finish(deal, bots, choice)
        rebuys[kind].append((result, play, lay))
        totals["bot"] += result
        totals["hindsight"] += max(play, lay, result)
        # the decision after it, scored the same way
        again = deal.clone()
        again.apply(choice)
        if _to_decision(again, bots):
            view = again.view(seat)
            second = bots[seat].choose(view).action
            play2, as2 = _finish(again, bots, Decide(seat, True))
            lay2, _ = _finish(again, bots, Decide(seat, False))
            after = "played" if isinstance(second, Decide) and second.play else "laid"
            stats[f"{after}_after_{kind}"].append((bots[seat]._play_chance(view), play2, lay2, as2 is Outcome.HOME))

    def summary(rows: list[tuple[float, float, float, bool]]) -> dict[str, object]:
        n = len(rows)
        return {
            "n": n,
            "mean_chance": round(sum(r[0] for r in rows) / n, 3),
            "home_if_played": round(sum(r[3] for r in rows) / n, 3),
            "play_minus_lay_bets_per_hand": round(sum(r[1] - r[2] for r in rows) / n, 3),
        }

    return {
        "deals": deals,
        "decisions": decisions,
        "seconds": round(time.perf_counter() - start, 1),
        "by_choice": {k: summary(v) for k, v in sorted(stats.items()) if v},
        "rebuys": {
            k: {
                "n": len(v),
                "result_bets_per_hand": round(sum(r for r, _, _ in v) / len(v), 3),
                "played_at_once_bets_per_hand": round(sum(p for _, p, _ in v) / len(v), 3),
                "laid_at_once_bets_per_hand": round(sum(x for _, _, x in v) / len(v), 3),
                "hindsight_at_once_bets_per_hand": round(sum(max(p, x) for _, p, x in v) / len(v), 3),
            }
            for k, v in sorted(rebuys.items())
        },
        "bets_per_100_deals": {k: round(100 * v / deals, 2) for k, v in totals.items()},
        "kodilj_gap_fit": {"high": _gap_fit(fits[False]), "low": _gap_fit(fits[True])},
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--deals", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=61)
    parser.add_argument("--rows", type=argparse.FileType("a"), help="append (game, chance, outcome when played) rows")
    args = parser.parse_args()
    print(json.dumps(run(args.deals, args.seed, args.rows), ensure_ascii=False, indent=1))


if __name__ == "__main__":
    main()
