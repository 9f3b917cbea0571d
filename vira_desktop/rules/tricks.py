"""Trick play (rulebook "Playing the Cards"): the one definition of following suit and of
who wins a trick, for the deal, the solver and the bots' searches.

A trick is won by the highest trump, else the highest card of the suit led; with four aces
announced as ones, an ace ranks lowest. A player must follow suit when he can, and may
play any card when he cannot (there is no duty to ruff or to overtake).

>>> from .cards import Card
>>> trick = ((0, Card.parse("KH")), (1, Card.parse("AH")), (2, Card.parse("2S")))
>>> trick_winner(trick, None), trick_winner(trick, Suit.S), trick_winner(trick, None, aces_low=True)
((1, Card('AH')), (2, Card('2S')), (0, Card('KH')))

:class:`TrickPlay` plays on bitmasks with ``push`` and ``pop``, so a search walks the tree
without copying anything:

>>> from .cards import mask_of, parse_cards
>>> hands = [mask_of(parse_cards(h)) for h in ("AS 2H", "KS 3H", "QS AH")]
>>> play = TrickPlay(hands, trump=-1, to_act=0)
>>> play.push(Card.parse("AS")), play.push(Card.parse("KS")), play.push(Card.parse("QS"))
(None, None, <Seat.FOREHAND: 0>)
>>> play.won, play.legal() == mask_of(parse_cards("2H"))
([1, 0, 0], True)
>>> play.pop(); play.won, int(play.to_act), [(int(s), str(c)) for s, c in play.trick]
([0, 0, 0], 2, [(0, 'AS'), (1, 'KS')])
"""

from __future__ import annotations

from collections.abc import Sequence

from .cards import SUIT_MASKS, Card, Suit
from .seat import SEATS, Seat

__all__ = ["TrickPlay", "card_value", "follows", "trick_winner"]

_NEXT = tuple(s.next for s in SEATS)


def card_value(card: int, led: int, trump: int, aces_low: bool) -> int:
    """How strongly ``card`` bids for a trick whose led suit is ``led`` (suit indices; ``trump``
    -1 for none): a trump above every card of the suit led, which is above any other card."""
    suit, rank = card // 13, card % 13
    if aces_low and rank == 12:
        rank = -1
    return rank + 100 if suit == trump else rank if suit == led else -50


def trick_winner(trick: Sequence[tuple[int, Card]], trump: Suit | None, aces_low: bool = False) -> tuple[int, Card]:
    """The (seat, card) that wins ``trick`` so far, cards in the order played."""
    return _winning(trick, -1 if trump is None else int(trump), aces_low)


def _winning(trick: Sequence[tuple[int, Card]], trump: int, aces_low: bool) -> tuple[int, Card]:
    """:func:`trick_winner` with the trump as a suit index (-1: none)."""
    led = trick[0][1] // 13
    best = trick[0]
    best_val = -100
    for played in trick:
        val = card_value(played[1], led, trump, aces_low)
        if val > best_val:
            best, best_val = played, val
    return best


def follows(hand: int, led: int | None) -> int:
    """The cards of ``hand`` (a bitmask) that may be played to a trick led in suit ``led``
    (None: the lead, any card)."""
    if led is not None:
        follow = hand & SUIT_MASKS[led]
        if follow:
            return follow
    return hand


class TrickPlay:
    """Three hands (bitmasks, by seat) at trick play, with undo.

    ``trick`` holds the (seat, card) pairs of the trick in progress, ``tricks`` the finished
    ones as (winner, cards), ``won`` the tricks each seat has taken; the lists may be shared
    with the deal that plays through this object (they are changed in place, never rebound).
    """

    __slots__ = ("aces_low", "hands", "to_act", "trick", "tricks", "trump", "won")

    def __init__(
        self,
        hands: list[int],
        trump: int,
        to_act: int,
        aces_low: bool = False,
        trick: list[tuple[int, Card]] | None = None,
        tricks: list[tuple[int, tuple[tuple[int, Card], ...]]] | None = None,
        won: list[int] | None = None,
    ) -> None:
        self.hands = hands
        self.trump = trump
        self.to_act: Seat = SEATS[to_act]
        self.aces_low = aces_low
        self.trick = [] if trick is None else trick
        self.tricks = [] if tricks is None else tricks
        self.won = [0, 0, 0] if won is None else won

    def legal(self) -> int:
        """The cards the seat on turn may play, as a bitmask."""
        trick = self.trick
        return follows(self.hands[self.to_act], trick[0][1] // 13 if trick else None)

    def push(self, card: int) -> Seat | None:
        """The seat on turn plays ``card`` (legal: not checked here); returns the winner
        when it completes the trick, who then leads, else None."""
        seat = self.to_act
        self.hands[seat] &= ~(1 << card)
        trick = self.trick
        trick.append((seat, card))  # type: ignore[arg-type]  # the deal passes Cards, searches ints
        if len(trick) < 3:
            self.to_act = _NEXT[seat]
            return None
        winner = _winning(trick, self.trump, self.aces_low)[0]
        self.tricks.append((winner, tuple(trick)))
        self.won[winner] += 1
        trick.clear()
        self.to_act = SEATS[winner]
        return self.to_act

    def pop(self) -> None:
        """Take the last card played back."""
        trick = self.trick
        if not trick:
            winner, cards = self.tricks.pop()
            self.won[winner] -= 1
            trick.extend(cards)
        seat, card = trick.pop()
        self.hands[seat] |= 1 << card
        self.to_act = SEATS[seat]
