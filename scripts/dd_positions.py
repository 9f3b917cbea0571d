"""Check position files' card choices double dummy over layouts the seat cannot tell apart.

Run: ``python scripts/dd_positions.py FILE [FILE ...] [--layouts N] [--seed S]``.

For each position in trick play (a deal record stopping where a seat must play a card, as
``tests/positions/`` and ``scripts/find_positions.py`` write them), the hidden cards are dealt
anew consistently with the seat's view (:func:`vira_desktop.ai.sampling.layouts`) and every
legal card is solved double dummy in each layout. Printed per card: how often the declarer
goes home after it and his mean tricks, the normal bot's card marked ``*``. A rule of play is
kept where its card goes home (for a defender: stops the declarer) at least as often as the
card it replaces.
"""

from __future__ import annotations

import argparse
import random
from dataclasses import replace
from pathlib import Path

import yaml

from vira_desktop.ai import NormalBot
from vira_desktop.ai.sampling import layouts
from vira_desktop.ai.solver import move_values, position_of
from vira_desktop.rules.actions import PlayCard
from vira_desktop.rules.cards import Card
from vira_desktop.rules.deal import Deal
from vira_desktop.session.record import read_record, replay


def load(path: Path) -> Deal:
    data = yaml.safe_load(path.read_text(encoding="utf-8"))
    return replay(read_record({k: v for k, v in data.items() if k not in ("principle", "expect")}))


def card_figures(deal: Deal, count: int, seed: int) -> dict[Card, tuple[float, float]]:
    """Per legal card of the seat to play: the declarer's home rate and mean tricks double
    dummy, over about ``count`` layouts drawn for the seat's view (weighted)."""
    seat = deal.to_act
    view = deal.view(seat)
    game = deal.game
    assert game is not None and deal.declarer is not None
    need = game.tricks - sum(1 for winner, _ in deal.tricks_played if winner == deal.declarer)
    base = position_of(deal)
    home: dict[int, float] = {}
    tricks: dict[int, float] = {}
    total = 0
    for lay in layouts(view, count, random.Random(seed)):
        values = move_values(replace(base, hands=lay.hands))
        assert values is not None
        total += lay.weight
        for card, taken in values.items():
            home[card] = home.get(card, 0.0) + lay.weight * (taken >= need)
            tricks[card] = tricks.get(card, 0.0) + lay.weight * taken
    return {Card(c): (home[c] / total, tricks[c] / total) for c in home}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("files", nargs="+", type=Path)
    parser.add_argument("--layouts", type=int, default=40)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--open", action="store_true", help="only positions where the cards' home rates differ")
    args = parser.parse_args()
    for path in args.files:
        deal = load(path)
        seat = deal.to_act
        choice = NormalBot(0).choose(deal.view(seat))
        bot = choice.action.card if isinstance(choice.action, PlayCard) else None
        figures = card_figures(deal, args.layouts, args.seed)
        if args.open and len({round(h, 6) for h, _ in figures.values()}) < 2:
            continue
        side = "declarer" if seat == deal.declarer else "defender"
        print(f"{path.name} ({side}; bot {bot} -- {choice.reason.key})")
        for card, (home, mean) in sorted(figures.items(), key=lambda x: -x[1][0]):
            print(f"  {'*' if card == bot else ' '}{card}  home {home:5.0%}  tricks {mean:5.2f}")


if __name__ == "__main__":
    main()
