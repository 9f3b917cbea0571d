"""What a seat can work out from its view: unseen cards, voids, masters, markings.

Everything here is computed from a :class:`~vira_desktop.rules.view.View`
alone, so a bot using it cannot see hidden cards.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..rules.cards import SUIT_MASKS, Card, Suit, cards_from_mask, mask_of
from ..rules.view import View

__all__ = ["Knowledge", "Marked", "Marking", "discards", "marked_suits", "read_markings"]


@dataclass(frozen=True, slots=True)
class Marking:
    """An Ågren marking read from a defender's first two discards."""

    seat: int
    suits: tuple[Suit, ...]
    strong: bool  # high-then-low: strength; low-then-high: weakness

    def describe(self) -> str:
        names = " and ".join(s.word for s in self.suits)
        return f"{'strength' if self.strong else 'weakness'} in {names}"


@dataclass(frozen=True, slots=True)
class Marked:
    """The suits some defenders have marked: strong (worth leading to them) and weak."""

    strong: frozenset[Suit]
    weak: frozenset[Suit]


def _all_tricks(view: View) -> list[tuple[tuple[int, Card], ...]]:
    """The finished tricks and the one being played, in order."""
    tricks = [cards for _, cards in view.tricks]
    if view.trick:
        tricks.append(view.trick)
    return tricks


def _discard_plays(view: View) -> dict[int, list[tuple[Card, int, int]]]:
    """Each seat's discards in order, each with the cards played before it (a mask) and the
    number of cards its seat then held."""
    out: dict[int, list[tuple[Card, int, int]]] = {0: [], 1: [], 2: []}
    played = 0
    plays = [(n, seat, card, cards[0][1].suit) for cards in _all_tricks(view) for n, (seat, card) in enumerate(cards)]
    left = list(view.hand_sizes)
    for _, seat, _, _ in plays:
        left[seat] += 1
    for n, seat, card, led in plays:
        if n and card.suit is not led and card.suit is not view.trump:
            out[seat].append((card, played, left[seat]))
        played |= 1 << card
        left[seat] -= 1
    return out


def discards(view: View) -> dict[int, list[Card]]:
    """Each seat's discards (cards played when unable to follow, not ruffs), in order."""
    return {seat: [card for card, _, _ in plays] for seat, plays in _discard_plays(view).items()}


def read_markings(view: View) -> list[Marking]:
    """Ågren markings of the defenders so far (trump games only).

    The first two discards: a higher card then a lower one shows strength in
    the suit(s) discarded on, a lower then a higher one shows weakness. A
    marking is never made with a master, so a pair with a card that everyone
    could see was a master (every higher card of its suit already played), or
    with a seat's last card, was forced, not a marking, and is not read.
    """
    if view.trump is None or view.low or view.declarer is None:
        return []
    out = []
    for seat, plays in _discard_plays(view).items():
        if seat == view.declarer or len(plays) < 2:
            continue
        if any(held == 1 or _plain_master(card, before) for card, before, held in plays[:2]):
            continue  # forced: a plain master, or the last card in hand
        first, second = plays[0][0], plays[1][0]
        suits = tuple(dict.fromkeys((first.suit, second.suit)))
        out.append(Marking(seat, suits, strong=first.rank > second.rank))
    return out


def _plain_master(card: Card, played: int) -> bool:
    """Every higher card of ``card``'s suit is in ``played``."""
    above = SUIT_MASKS[card.suit] & ~((2 << card) - 1)
    return not above & ~played


def marked_suits(view: View, seats: tuple[int, ...] | None = None) -> Marked:
    """The suits the defenders in ``seats`` (default: both) have marked strong or weak.

    The lead code's hook: a defender leads partner's strong suits and avoids his weak
    ones; the declarer does not set up a suit a defender marked strong."""
    strong: set[Suit] = set()
    weak: set[Suit] = set()
    for mark in read_markings(view):
        if seats is None or mark.seat in seats:
            (strong if mark.strong else weak).update(mark.suits)
    return Marked(frozenset(strong), frozenset(weak))


class Knowledge:
    """Derived facts for one view."""

    def __init__(self, view: View) -> None:
        self.view = view
        self.hand = mask_of(view.hand)
        played = 0
        for _, cards in view.tricks:
            for _, c in cards:
                played |= 1 << c
        for _, c in view.trick:
            played |= 1 << c
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

    def outside_between(self, high: Card, low: Card, trick: bool = False) -> int:
        """How many cards of the suit strictly between ``low`` and ``high`` may still come from
        others (0: the two are worth the same to me); ``trick``: the cards of the trick on the
        table counted too (they are still in play: one between makes the two differ now)."""
        between = SUIT_MASKS[high.suit] & ((1 << high) - 1) & ~((2 << low) - 1)
        live = self.outside(self.view.seat) | (mask_of(c for _, c in self.view.trick) if trick else 0)
        return (between & live).bit_count()

    def outside_in_suit(self, suit: Suit, seat: int | None = None) -> int:
        seat = self.view.seat if seat is None else seat
        return bin(SUIT_MASKS[suit] & self.outside(seat)).count("1")

    def cards(self, mask: int) -> list[Card]:
        return list(cards_from_mask(mask))

    def strength(self, suit: Suit) -> list[Card]:
        """The cards that make my ``suit`` worth leading to me, highest first (empty: a weak
        suit): its top master, or the top of an honour sequence that gives up fewer tricks
        than it has cards (K-Q against the ace, Q-J-10 against A and K; the 9 of Q-J-10-9 is
        spare). Cards between two of its cards that are already played or in my hand do not
        break a sequence."""
        mine = sorted((c for c in cards_from_mask(self.hand & SUIT_MASKS[suit])), reverse=True)
        if not mine:
            return []
        top = mine[0]
        above = bin(SUIT_MASKS[suit] & ~((2 << top) - 1) & self.outside(self.view.seat)).count("1")
        run = [top]
        for card in mine[1:]:
            if self.outside_between(run[-1], card):
                break
            run.append(card)
        return run[: above + 1] if above <= 2 and len(run) > above else []
