"""What a seat can work out from its view: unseen cards, voids, masters, markings.

Everything here is computed from a :class:`~vira_desktop.rules.view.View`
alone, so a bot using it cannot see hidden cards.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..rules.cards import SUIT_MASKS, Card, Suit, cards_from_mask, mask_of
from ..rules.view import View

__all__ = ["Knowledge", "Marking", "discards", "read_markings"]


@dataclass(frozen=True, slots=True)
class Marking:
    """An Ågren marking read from a defender's first two discards."""

    seat: int
    suits: tuple[Suit, ...]
    strong: bool  # high-then-low: strength; low-then-high: weakness

    def describe(self) -> str:
        names = " and ".join(s.word for s in self.suits)
        return f"{'strength' if self.strong else 'weakness'} in {names}"




def _all_tricks(view: View) -> list[tuple[tuple[int, Card], ...]]:
    """The finished tricks and the one being played, in order."""
    tricks = [cards for _, cards in view.tricks]
    if view.trick:
        tricks.append(view.trick)
    return tricks


def discards(view: View) -> dict[int, list[Card]]:
    """Each seat's discards (cards played when unable to follow, not ruffs), in order."""
    out: dict[int, list[Card]] = {0: [], 1: [], 2: []}
    for cards in _all_tricks(view):
        led = cards[0][1].suit
        for seat, card in cards[1:]:
            if card.suit is not led and card.suit is not view.trump:
                out[seat].append(card)
    return out


def read_markings(view: View) -> list[Marking]:
    """Ågren markings of the defenders so far (trump games only).

    The first two discards: a higher card then a lower one shows strength in
    the suit(s) discarded on, a lower then a higher one shows weakness.
    """
    if view.trump is None or view.low or view.declarer is None:
        return []
    out = []
    for seat, cards in discards(view).items():
        if seat == view.declarer or len(cards) < 2:
            continue
        first, second = cards[0], cards[1]
        suits = tuple(dict.fromkeys((first.suit, second.suit)))
        out.append(Marking(seat, suits, strong=first.rank > second.rank))
    return out


class Knowledge:
    """Derived facts for one view."""

    def __init__(self, view: View) -> None:
        self.view = view
        self.hand = mask_of(view.hand)
        played = 0
        for _, cards in view.tricks:
            played |= mask_of(c for _, c in cards)
        played |= mask_of(c for _, c in view.trick)
        self.played = played
        opened = 0
        for hand in view.open_hands.values():
            opened |= mask_of(hand)
        self.opened = opened
        known = self.hand | played | opened | mask_of(view.own_laid_aside)
        self.unseen = ((1 << 52) - 1) & ~known
        self.voids = self._voids()

    def _voids(self) -> dict[int, set[Suit]]:
        voids: dict[int, set[Suit]] = {0: set(), 1: set(), 2: set()}
        for cards in _all_tricks(self.view):
            led = cards[0][1].suit
            for seat, card in cards[1:]:
                if card.suit is not led:
                    voids[seat].add(led)
        for seat, hand in self.view.open_hands.items():
            have = {c.suit for c in hand}
            voids[seat] |= {s for s in Suit if s not in have}
        return voids

    def holding(self, seat: int) -> int:
        """Cards known to be in ``seat``'s hand (own hand, or an open hand)."""
        if seat == self.view.seat:
            return self.hand
        cards = self.view.open_hands.get(seat)
        return mask_of(cards) if cards else 0

    def outside(self, seat: int) -> int:
        """Cards that may be against ``seat``: unseen, plus other open hands."""
        return (self.unseen | self.opened) & ~self.holding(seat)

    def is_master(self, card: Card, seat: int | None = None) -> bool:
        """No card of the suit above ``card`` can still come from another player."""
        seat = self.view.seat if seat is None else seat
        above = SUIT_MASKS[card.suit] & ~((2 << card) - 1)
        return not above & self.outside(seat)

    def lower_outside(self, card: Card, seat: int | None = None) -> int:
        """How many cards of the suit below ``card`` may still come from others."""
        seat = self.view.seat if seat is None else seat
        below = SUIT_MASKS[card.suit] & ((1 << card) - 1)
        return bin(below & self.outside(seat)).count("1")

    def outside_in_suit(self, suit: Suit, seat: int | None = None) -> int:
        seat = self.view.seat if seat is None else seat
        return bin(SUIT_MASKS[suit] & self.outside(seat)).count("1")

    def cards(self, mask: int) -> list[Card]:
        return list(cards_from_mask(mask))
