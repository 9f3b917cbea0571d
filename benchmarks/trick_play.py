"""Trick-play benchmark: how the normal bot handles its trumps and leads in self-play.

Run: ``python benchmarks/trick_play.py [--deals N] [--seed S] [--json]``.

Counted over every trick of ``N`` self-play deals (trump games only):

- **avoidable overruffs**: a player ruffs in second seat, the third player overruffs and
  wins, while the ruffer held a trump above the overruffing one (a higher ruff would have
  held the trick), split by declarer and defender;
- **overruffs** of any kind, and ruffs in second seat, for scale;
- how often each play reason was given (the leads and follows the bot chose, by rule).
"""

from __future__ import annotations

import argparse
import json
import random
from collections import Counter

from vira_desktop.ai import make_bot
from vira_desktop.rules.actions import PlayCard
from vira_desktop.rules.cards import Card, Suit
from vira_desktop.rules.deal import Deal


def _overruffs(
    cards: tuple[tuple[int, Card], ...], hands: dict[int, tuple[Card, ...]], trump: Suit, declarer: int
) -> Counter[str]:
    """What one finished trick shows: a ruff in second seat, overruffed, avoidably or not."""
    out: Counter[str] = Counter()
    led = cards[0][1].suit
    if led is trump or len(cards) < 3:
        return out
    (seat2, ruff), (_, third) = cards[1], cards[2]
    if ruff.suit is not trump:
        return out
    out["second_seat_ruffs"] += 1
    if third.suit is trump and third.rank > ruff.rank:
        out["overruffs"] += 1
        if any(c.suit is trump and c.rank > third.rank for c in hands[seat2]):
            out["avoidable_overruffs_" + ("declarer" if seat2 == declarer else "defender")] += 1
    return out


def run(deals: int, seed: int, level: str = "normal") -> dict[str, object]:
    rng = random.Random(seed)
    counts: Counter[str] = Counter()
    reasons: Counter[str] = Counter()
    for i in range(deals):
        deal = Deal.from_number(rng.getrandbits(48))
        bots = [make_bot(level, seed * 31 + i * 3 + s) for s in range(3)]
        hands: dict[tuple[int, int], tuple[Card, ...]] = {}  # (trick number, seat) -> hand then
        while not deal.is_over:
            seat = deal.decision().seat
            view = deal.view(seat)
            choice = bots[seat].choose(view)
            if isinstance(choice.action, PlayCard):
                hands[(len(view.tricks), seat)] = view.hand
                reasons[choice.reason.key] += 1
            if choice.action is not None:
                deal.apply(choice.action)
        end = deal.view(0)
        if end.trump is None or end.low or end.declarer is None:
            continue
        counts["trump_deals"] += 1
        for n, (_, cards) in enumerate(end.tricks):
            counts.update(_overruffs(cards, {s: hands.get((n, s), ()) for s in range(3)}, end.trump, end.declarer))
    avoidable = counts["avoidable_overruffs_declarer"] + counts["avoidable_overruffs_defender"]
    return {"deals": deals, "seed": seed, "avoidable_overruffs": avoidable, **dict(counts), "reasons": dict(reasons)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--deals", type=int, default=600)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    result = run(args.deals, args.seed)
    if args.json:
        print(json.dumps(result, ensure_ascii=False))
        return
    print(f"{result['deals']} deals (seed {args.seed}), {result.get('trump_deals', 0)} in trump games")
    for key in ("second_seat_ruffs", "overruffs", "avoidable_overruffs_declarer", "avoidable_overruffs_defender"):
        print(f"  {key.replace('_', ' ')}: {result.get(key, 0)}")
    print(f"  avoidable overruffs in all: {result['avoidable_overruffs']}")
    reasons = result["reasons"]
    assert isinstance(reasons, dict)
    for key, n in sorted(reasons.items(), key=lambda kv: -kv[1]):
        print(f"  {n:6d}  {key}")


if __name__ == "__main__":
    main()
