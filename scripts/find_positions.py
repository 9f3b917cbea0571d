"""Find bot positions in self-play: every decision where the normal bot gives one of the
named reasons is written as a position file (a deal record stopping at the decision).

Run: ``python scripts/find_positions.py REASON [REASON ...] [--deals N] [--seed S] [--out DIR]``.

Each file carries the deal's number, the action it stops before, and the bot's choice in
its header comment, a ``principle`` to fill in, and an ``expect`` of the bot's action. A
curated position (``tests/positions/``) is one of these, checked by hand: the principle
holds there, and yesterday's bot failed it (run it with that commit on ``PYTHONPATH``).
"""

from __future__ import annotations

import argparse
import random
from pathlib import Path

from vira_desktop.ai import make_bot
from vira_desktop.rules.deal import Deal
from vira_desktop.session.record import dump_record, record_of

NAMES = ("F", "M", "R")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("reasons", nargs="+", help="reason keys to stop at, e.g. third_hand_high")
    parser.add_argument("--deals", type=int, default=200)
    parser.add_argument("--seed", type=int, default=5)
    parser.add_argument("--per-reason", type=int, default=5, help="positions kept per reason")
    parser.add_argument("--out", default="build/positions")
    args = parser.parse_args()
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    found: dict[str, int] = dict.fromkeys(args.reasons, 0)
    rng = random.Random(args.seed)
    for i in range(args.deals):
        number = rng.getrandbits(48)
        deal = Deal.from_number(number)
        bots = [make_bot("normal", args.seed * 31 + i * 3 + s) for s in range(3)]
        while not deal.is_over:
            seat = deal.decision().seat
            choice = bots[seat].choose(deal.view(seat))
            key = choice.reason.key
            if key in found and found[key] < args.per_reason and choice.action is not None:
                found[key] += 1
                data = record_of(deal, NAMES)
                data["principle"] = "TODO"
                data["expect"] = {"action": choice.action.text}
                head = (
                    f"# from normal self-play s{args.seed}#{i} (Deal.from_number({number})), before action"
                    f" {len(deal.history)}; bot now: {choice.action.text} -- {choice.reason}\n"
                )
                name = out / f"{key}_{args.seed}_{i}_{len(deal.history)}.yaml"
                name.write_text(head + dump_record(data), encoding="utf-8")
            if choice.action is not None:
                deal.apply(choice.action)
        if all(n >= args.per_reason for n in found.values()):
            break
    print(" ".join(f"{k}: {n}" for k, n in found.items()), f"-> {out}")


if __name__ == "__main__":
    main()
