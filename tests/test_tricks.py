"""The trick-play core (rules/tricks.py): following suit, the trick's winner, push and pop,
and the deal playing its tricks through it."""

from __future__ import annotations

import random
from unittest.mock import patch

from hypothesis import given, settings
from hypothesis import strategies as st

from tests.strategies import contracts, numbers, seeds
from vira_desktop.ai import RandomBot
from vira_desktop.rules.cards import SUIT_MASKS, Card, Suit, bit_indices, parse_cards
from vira_desktop.rules.deal import Deal, Phase
from vira_desktop.rules.games import Game
from vira_desktop.rules.tricks import TrickPlay, follows, trick_winner
from vira_desktop.session.match import forced_auction


def to_play(number: int, contract: Game | None, seed: int) -> Deal:
    """A deal brought by random bots to its first card."""
    rng = random.Random(seed)
    deal = Deal.from_number(number)
    if contract is not None:
        for a in forced_auction(deal, contract, rng):
            deal.apply(a)
    bots = [RandomBot(seed + s) for s in range(3)]
    while deal.phase not in (Phase.PLAY, Phase.DONE):
        d = deal.decision()
        choice = bots[d.seat].choose(deal.view(d.seat))
        if choice.action is not None:
            deal.apply(choice.action)
    return deal


def test_the_rulebook_trick() -> None:
    """The highest trump wins, else the highest card of the suit led; aces as ones rank lowest."""
    trick = [(0, Card.parse("KH")), (1, Card.parse("AH")), (2, Card.parse("2S"))]
    assert trick_winner(trick, None)[0] == 1
    assert trick_winner(trick, Suit.S)[0] == 2
    assert trick_winner(trick, None, aces_low=True)[0] == 0
    assert trick_winner([(1, Card.parse("2C")), (2, Card.parse("AD")), (0, Card.parse("3C"))], Suit.H)[0] == 0


def test_follow_suit_when_you_can() -> None:
    hand = sum(1 << c for c in parse_cards("AS 5H 2H KD"))
    assert follows(hand, int(Suit.H)) == hand & SUIT_MASKS[Suit.H]
    assert follows(hand, int(Suit.C)) == hand  # void: anything
    assert follows(hand, None) == hand  # the lead


@settings(max_examples=40, deadline=None)
@given(numbers, contracts, seeds, st.randoms(use_true_random=False))
def test_push_then_pop_gives_back_every_position(
    number: int, contract: Game | None, seed: int, rnd: random.Random
) -> None:
    """Play a deal out at random on the core, then take every card back: each position on
    the way back is the one on the way there."""
    deal = to_play(number, contract, seed)
    if deal.phase is not Phase.PLAY:
        return
    core = TrickPlay(list(deal.hands), -1 if deal.low or deal.trump is None else int(deal.trump), deal.to_act)
    seen = []
    while sum(core.won) < deal.n_tricks:
        seen.append((list(core.hands), list(core.trick), list(core.won), core.to_act, core.legal()))
        cards = bit_indices(core.legal())
        core.push(rnd.choice(cards))
    while seen:
        core.pop()
        assert (list(core.hands), list(core.trick), list(core.won), core.to_act, core.legal()) == seen.pop()


@settings(max_examples=30, deadline=None)
@given(numbers, contracts, seeds)
def test_the_deal_plays_its_tricks_through_the_core(number: int, contract: Game | None, seed: int) -> None:
    """Every card the deal plays goes through ``TrickPlay.push``, and the deal offers exactly
    the core's legal cards."""
    deal = to_play(number, contract, seed)
    pushed = []
    real = TrickPlay.push

    def push(self: TrickPlay, card: int) -> object:
        pushed.append(card)
        return real(self, card)

    played = 0
    rng = random.Random(seed)
    with patch.object(TrickPlay, "push", push):
        while deal.phase is Phase.PLAY:
            core = deal._trick_play()
            plays = [a.card for a in deal.decision().actions if hasattr(a, "card")]
            assert sorted(plays) == bit_indices(core.legal())
            deal.apply(deal.decision().actions[rng.randrange(len(plays))])
            played += 1
    assert len(pushed) == played
    assert deal.phase is Phase.DONE or played == 0
