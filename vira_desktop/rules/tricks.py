"""Who wins a trick (rulebook "Playing the Cards"): the highest trump, else the
highest card of the suit led; with four aces announced as ones, an ace ranks lowest.

>>> from .cards import Card
>>> trick = ((0, Card.parse("KH")), (1, Card.parse("AH")), (2, Card.parse("2S")))
>>> trick_winner(trick, None), trick_winner(trick, Suit.S), trick_winner(trick, None, aces_low=True)
((1, Card('AH')), (2, Card('2S')), (0, Card('KH')))
"""

from __future__ import annotations

from collections.abc import Sequence

from .cards import Card, Suit

__all__ = ["trick_winner"]


def trick_winner(trick: Sequence[tuple[int, Card]], trump: Suit | None, aces_low: bool = False) -> tuple[int, Card]:
    """The (seat, card) that wins ``trick`` so far, cards in the order played."""
    led = trick[0][1] // 13
    trump_block = -1 if trump is None else int(trump)
    best = trick[0]
    best_val = -100
    for played in trick:
        card = played[1]
        suit, rank = card // 13, card % 13
        if aces_low and rank == 12:
            rank = -1
        val = rank + 100 if suit == trump_block else rank if suit == led else -50
        if val > best_val:
            best, best_val = played, val
    return best
