"""Make the deal record of a lesson: a hand for the learner, the other cards shuffled by a
seed, the first actions as the teacher wants them, and the normal bot playing the rest to
the end. Prints the record (YAML) to paste under a lesson's ``record:``.

    python scripts/lesson_deal.py --hand "AS KS QS JS TS 9S AH KH AD KD AC KC 2C" \
        --seat 0 --highest S --seed 3 --actions "0: 7-spel" "1: pass" "2: pass"

``--seat`` is the learner's seat (0 forehand, 1 middle-hand, 2 rear-hand); an action is
``SEAT: TEXT`` in the deal-record syntax. With ``--search N``, seeds are tried until the
deal ends in ``--game`` (by the learner with ``--declarer``).
"""

from __future__ import annotations

import argparse
import random
import sys

from vira_desktop.ai import make_bot
from vira_desktop.rules.actions import parse_action
from vira_desktop.rules.cards import Card, Suit
from vira_desktop.rules.deal import Deal
from vira_desktop.rules.errors import ViraError
from vira_desktop.session.record import dump_record, record_of

NAMES = ("Anna", "Bertil", "Cecilia")


def deck_for(hand: list[Card], seat: int, seed: int) -> list[Card]:
    """A 52-card deck (top first, dealt in the rulebook's order) giving ``seat`` the ``hand``."""
    rest = [c for c in (Card(i) for i in range(52)) if c not in hand]
    random.Random(seed).shuffle(rest)
    probe = Deal.from_cards([Card(i) for i in range(52)], Suit.S)  # where each deck place lands
    places = {c: i for i, c in enumerate(Card(i) for i in range(52))}
    deck: list[Card | None] = [None] * 52
    for card in probe.dealt[seat]:
        deck[places[card]] = hand.pop(0)
    fill = iter(rest)
    return [c if c is not None else next(fill) for c in deck]


def play_out(deal: Deal, actions: list[str], seed: int) -> Deal:
    for line in actions:
        who, text = line.split(":", 1)
        deal.apply(parse_action(text.strip(), int(who)))
    bots = [make_bot("normal", seed * 3 + s) for s in range(3)]
    while not deal.is_over:
        decision = deal.decision()
        assert decision is not None
        choice = bots[decision.seat].choose(deal.view(decision.seat))
        if choice.action is None:
            raise ViraError("an optional offer came up: give the action in --actions")
        deal.apply(choice.action)
    return deal


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--hand", required=True, help="the learner's 13 cards")
    parser.add_argument("--seat", type=int, default=0)
    parser.add_argument("--highest", default="H")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--actions", nargs="*", default=[])
    parser.add_argument("--search", type=int, default=0, help="try this many seeds for --game")
    parser.add_argument("--game", default=None)
    parser.add_argument("--declarer", action="store_true", help="with --search: the learner declares")
    args = parser.parse_args(argv)
    hand = [Card.parse(c) for c in args.hand.split()]
    if len(set(hand)) != 13:
        parser.error("the hand is 13 different cards")
    for seed in range(args.seed, args.seed + max(1, args.search)):
        deal = Deal.from_cards(deck_for(list(hand), args.seat, seed), Suit.parse(args.highest))
        try:
            play_out(deal, args.actions, seed)
        except ViraError as exc:
            print(f"seed {seed}: {exc}", file=sys.stderr)
            continue
        contract = deal.contract
        if args.game and (contract is None or contract.game.name != args.game):
            continue
        if args.declarer and (contract is None or contract.declarer != args.seat):
            continue
        print(f"# seed {seed}")
        print(dump_record(record_of(deal, NAMES)))
        return 0
    print("no seed gave that deal", file=sys.stderr)
    return 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
