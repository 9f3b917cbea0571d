"""Event records returned by ``apply``: what the table animates and tests assert on.

Events carry the full truth; :func:`events_for` is what a seat or a window
receives: the same events with every card that seat may not know replaced by
``None`` (as boardgame.io filters the state per player). Bots never read
events, only views.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, replace

from .cards import Card, Suit, SuitClass
from .games import Game
from .ledger import LedgerEvent
from .scoring import DealResult, PinsPaid, PullaPaid

__all__ = [
    "DEAL_POSITIONS",
    "DEAL_ROUNDS",
    "AcesAnnounced",
    "BidMade",
    "Bought",
    "CardPlayed",
    "CardsTurned",
    "ContractWon",
    "DealScored",
    "DealStarted",
    "Decided",
    "Discarded",
    "Event",
    "HandOpened",
    "Kept",
    "LevelChosen",
    "Passed",
    "PinsPaid",
    "PlayedHighLow",
    "PullaPaid",
    "SetAsideDone",
    "StockTaken",
    "TrickWon",
    "TrumpChosen",
    "events_for",
]

DEAL_ROUNDS = (4, 3, 3, 3)  # cards to each seat a round, forehand first; the last 13 are the stock


def _deal_positions() -> tuple[tuple[int, ...], ...]:
    out: list[list[int]] = [[], [], [], []]
    pos = 0
    for size in DEAL_ROUNDS:
        for seat in range(3):
            out[seat].extend(range(pos, pos + size))
            pos += size
    out[3].extend(range(pos, 52))
    return tuple(tuple(p) for p in out)


# The deck positions (top = 0) of each seat's cards in the order dealt; index 3 is the stock.
DEAL_POSITIONS: tuple[tuple[int, ...], ...] = _deal_positions()


@dataclass(frozen=True, slots=True)
class DealStarted:
    """A new deal: the deck in the order it is dealt (top first), the highest suit, and the
    spare deck's visible bottom card (``None`` when only its suit is known, as in a record).

    The table deals its sprites from this, so nothing outside the engine shuffles."""

    number: int | None
    deck: tuple[Card | None, ...]  # None: a card hidden by events_for
    highest: Suit
    spare_bottom: Card | None

    @staticmethod
    def positions(seat: int) -> tuple[int, ...]:
        """The deck positions of ``seat``'s cards in the order dealt (seat 3: the stock).

        >>> DealStarted.positions(0)[:5], DealStarted.positions(2)[-1], DealStarted.positions(3)[0]
        ((0, 1, 2, 3, 12), 38, 39)
        """
        return DEAL_POSITIONS[seat]


@dataclass(frozen=True, slots=True)
class BidMade:
    seat: int
    text: str
    effective: Game  # the game the bid stands for while bidding goes on


@dataclass(frozen=True, slots=True)
class Passed:
    seat: int
    reentry: bool = False  # a pass on a gök later lifted by the gök re-entry house rule


@dataclass(frozen=True, slots=True)
class ContractWon:
    declarer: int
    text: str  # the final bid as made
    game: Game | None  # None until an unspecified bid's level is chosen
    suit_level: int


@dataclass(frozen=True, slots=True)
class LevelChosen:
    seat: int
    game: Game


@dataclass(frozen=True, slots=True)
class Kept:
    seat: int
    kept: tuple[Card | None, ...]  # None: hidden by events_for
    laid_aside: tuple[Card | None, ...]  # None: hidden by events_for


@dataclass(frozen=True, slots=True)
class StockTaken:
    seat: int
    cards: tuple[Card | None, ...]  # None: hidden by events_for


@dataclass(frozen=True, slots=True)
class Discarded:
    seat: int
    cards: tuple[Card | None, ...]  # None: hidden by events_for


@dataclass(frozen=True, slots=True)
class PlayedHighLow:
    seat: int
    low: bool


@dataclass(frozen=True, slots=True)
class TrumpChosen:
    seat: int
    suit: Suit
    suit_class: SuitClass


@dataclass(frozen=True, slots=True)
class CardsTurned:
    seat: int
    cards: tuple[Card, ...]
    again: bool


@dataclass(frozen=True, slots=True)
class Bought:
    seat: int
    laid_aside: tuple[Card | None, ...]  # None: hidden by events_for
    drawn: tuple[Card | None, ...]  # None: hidden by events_for
    repurchase: bool
    stock_left: int


@dataclass(frozen=True, slots=True)
class Decided:
    seat: int
    play: bool


@dataclass(frozen=True, slots=True)
class SetAsideDone:
    seat: int
    cards: tuple[Card | None, ...]  # None: hidden by events_for


@dataclass(frozen=True, slots=True)
class HandOpened:
    seat: int
    cards: tuple[Card, ...]


@dataclass(frozen=True, slots=True)
class AcesAnnounced:
    seat: int


@dataclass(frozen=True, slots=True)
class CardPlayed:
    seat: int
    card: Card
    trick_no: int  # 1-based


@dataclass(frozen=True, slots=True)
class TrickWon:
    seat: int
    cards: tuple[tuple[int, Card], ...]  # (seat, card) in the order played
    trick_no: int


@dataclass(frozen=True, slots=True)
class DealScored:
    result: DealResult


Event = (
    DealStarted
    | BidMade
    | Passed
    | ContractWon
    | LevelChosen
    | Kept
    | StockTaken
    | Discarded
    | PlayedHighLow
    | TrumpChosen
    | CardsTurned
    | Bought
    | Decided
    | SetAsideDone
    | HandOpened
    | AcesAnnounced
    | CardPlayed
    | TrickWon
    | PullaPaid
    | PinsPaid
    | DealScored
)


def _hidden(cards: tuple[Card | None, ...]) -> tuple[None, ...]:
    return (None,) * len(cards)


def events_for(seat: int | None, events: Iterable[Event | LedgerEvent]) -> list[Event | LedgerEvent]:
    """``events`` as ``seat`` (0 forehand, 1 middle-hand, 2 rear-hand; ``None``: a
    spectator, such as the player sitting out) may receive them: a seat never sees a
    card it may not know, in any event.

    Each hidden card becomes ``None`` in its place, so counts and order stay (an
    animation still knows how many cards move). Hidden:

    * ``DealStarted.deck``: every card but the seat's own 13 (:meth:`DealStarted.positions`);
      a spectator gets 52 ``None``; ``spare_bottom`` is public;
    * the cards of ``Kept``, ``StockTaken``, ``Discarded``, ``Bought`` and ``SetAsideDone``
      from every seat but the one acting.

    Everything else is public and passed on unchanged (the same objects): bids, the
    contract, turned cards, ``HandOpened`` (the rules lay that hand open to everyone),
    cards played, tricks, payments, ``DealScored`` (a result holds no cards) and the
    ledger's events.

    The projection reads the events alone, not the deal, so it hides a card whenever
    knowing it would need the deal's state: a card turned up from the stock and then
    bought stays hidden in ``Bought.drawn`` (the seat saw it in ``CardsTurned``), and
    so does what a royale defender buys, though the house rule that defenders see each
    other shows it in the partner's view. No later event carries an opened hand's cards
    but ``CardPlayed``, so nothing public is lost there.

    >>> ev = [Discarded(1, (Card.parse("AS"), Card.parse("2C"))), CardPlayed(1, Card.parse("KH"), 1)]
    >>> events_for(1, ev) == ev
    True
    >>> events_for(0, ev)
    [Discarded(seat=1, cards=(None, None)), CardPlayed(seat=1, card=Card('KH'), trick_no=1)]
    >>> started = DealStarted(None, tuple(Card(i) for i in range(52)), Suit.S, None)
    >>> deck = events_for(2, [started])[0].deck
    >>> [i for i, c in enumerate(deck) if c is not None] == list(DealStarted.positions(2))
    True
    """
    out: list[Event | LedgerEvent] = []
    for ev in events:
        if isinstance(ev, DealStarted):
            own = frozenset(() if seat is None else DEAL_POSITIONS[seat])
            ev = replace(ev, deck=tuple(c if i in own else None for i, c in enumerate(ev.deck)))
        elif isinstance(ev, Kept | StockTaken | Discarded | Bought | SetAsideDone) and ev.seat != seat:
            if isinstance(ev, Kept):
                ev = replace(ev, kept=_hidden(ev.kept), laid_aside=_hidden(ev.laid_aside))
            elif isinstance(ev, Bought):
                ev = replace(ev, laid_aside=_hidden(ev.laid_aside), drawn=_hidden(ev.drawn))
            else:
                ev = replace(ev, cards=_hidden(ev.cards))
        out.append(ev)
    return out
