"""How well a defender's layouts place the declarer's cards: the share of his hidden cards
that the layouts the strong bot draws give him, by weight (1.0: every layout knew his hand),
and the mean log score of the chance they give each hidden card of being his (0 is perfect).

Deals are bid and played by the normal bot in every seat (the declarers the strong bot
defends against in ``vira match``). At each card a defender plays while the declarer's hand
is hidden from it, layouts are drawn as the strong bot draws them in a match (16, from ten
times as many dealt, his hand weighed by its chance cubed) under each variant, with the same
random numbers, and scored against the true deal. No search: a quick look at a change to the
inference before it is measured by play (``benchmarks/bid_search.py --whole``).
Run: ``python benchmarks/inference.py [--deals N] [--seed S] [--power P ...] [--out M ...]
[--memory] [--json]``: every power with every ``out_mix`` (and each with the defender's own
cards laid aside remembered, ``--memory``).
"""

from __future__ import annotations

import argparse
import json
import math
import random
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import replace
from functools import partial

from vira_desktop.ai.knowledge import Knowledge
from vira_desktop.ai.normal import NormalBot
from vira_desktop.ai.sampling import CANDIDATES, DECLARER_POWER, layouts
from vira_desktop.rules.cards import bit_indices
from vira_desktop.rules.deal import Deal, Phase
from vira_desktop.session.flow import Flow

BANDS = ((1, 1), (2, 4), (5, 13))
EPS = 0.02  # the least chance a card is given (16 layouts cannot tell smaller ones)


Variant = tuple[float, bool, float]  # the declarer's power, own cards laid aside remembered, out_mix


def found(deal: Deal, seat: int, variant: Variant, seed: int, count: int) -> tuple[float, float] | None:
    """The share, by weight, of the declarer's hidden cards his layouts give him, and the mean
    log score of the chance they give each hidden card of being his (a proper score: it
    rewards chances that are right, not only sharp); None where nothing of his is hidden."""
    view = deal.view(seat)
    declarer = view.declarer
    if declarer is None or declarer == seat or declarer in view.open_hands:
        return None
    unseen = Knowledge(view).unseen
    hidden = deal.hands[declarer] & unseen
    if not hidden:
        return None
    power, memory, out_mix = variant
    cards = bit_indices(unseen)  # scored alike whatever the variant knows
    if memory:
        view = replace(view, own_laid_aside=deal.laid_aside(seat))
    drawn = layouts(view, count, random.Random(seed), CANDIDATES, 1.0, power, out_mix)
    total = sum(lay.weight for lay in drawn)
    share = sum(lay.weight * (lay.hands[declarer] & hidden).bit_count() for lay in drawn)
    score = 0.0
    for c in cards:
        p = sum(lay.weight for lay in drawn if lay.hands[declarer] >> c & 1) / total
        p = min(1 - EPS, max(EPS, p))
        score += math.log(p if hidden >> c & 1 else 1 - p)
    return share / (total * hidden.bit_count()), score / len(cards)


def run(deals: int, seed: int, variants: Sequence[Variant], count: int) -> dict[str, dict[str, float]]:
    sums: defaultdict[tuple[Variant, str], list[tuple[float, float]]] = defaultdict(list)
    bots = [NormalBot(seed * 3 + s) for s in range(3)]
    for n in range(deals):
        deal = Deal.from_number(seed * 1_000_003 + n)
        flow = Flow(partial(lambda d: d, deal))
        while (ask := flow.ask()) is not None:
            if deal.phase is Phase.PLAY and not ask.optional and ask.seat != deal.declarer:
                trick = len(deal.tricks_played) + 1
                band = next(f"{a}" if a == b else f"{a}-{b}" for a, b in BANDS if a <= trick <= b)
                for c in variants:
                    got = found(deal, ask.seat, c, hash((seed, n, len(deal.tricks_played), ask.seat)), count)
                    if got is not None:
                        sums[(c, band)].append(got)
                        sums[(c, "all")].append(got)
            flow.answer(ask, bots[ask.seat].choose(ask.view).action)
    out: dict[str, dict[str, float]] = {}
    for (c, band), values in sorted(sums.items()):
        name = f"power {c[0]}" + (" remembered" if c[1] else "") + (f" out_mix {c[2]}" if c[2] else "")
        out.setdefault(name, {})[f"found {band}"] = round(sum(v[0] for v in values) / len(values), 4)
        out[name][f"log {band}"] = round(sum(v[1] for v in values) / len(values), 4)
        out[name][f"n {band}"] = len(values)
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=100)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--power", type=float, nargs="*", default=[DECLARER_POWER])
    parser.add_argument("--memory", action="store_true", help="each also with its own cards laid aside remembered")
    parser.add_argument("--out", type=float, nargs="*", default=[0.0], help="out_mix values")
    parser.add_argument("--layouts", type=int, default=16)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    variants = [(p, m, o) for p in args.power for m in (False, True)[: 1 + args.memory] for o in args.out]
    out = run(args.deals, args.seed, variants, args.layouts)
    if args.json:
        print(json.dumps(out, indent=2))
        return
    for name, row in out.items():
        print(name, "  ".join(f"{k}: {v:.4f}" for k, v in row.items() if not k.startswith("n ")))


if __name__ == "__main__":
    main()
