"""Event records returned by ``apply``: what the table animates and tests assert on.

Events carry the full truth (a GUI shows each seat only what it may see);
bots never read events, only views.
"""

from __future__ import annotations

from dataclasses import dataclass

from .cards import Card, Suit, SuitClass
from .games import Game
from .scoring import DealResult, PinsPaid, PullaPaid

__all__ = [
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
]


@dataclass(frozen=True, slots=True)
class DealStarted:
    """A new deal: the deck in the order it is dealt (top first), the highest suit, and the
    spare deck's visible bottom card (``None`` when only its suit is known, as in a record).

    The table deals its sprites from this, so nothing outside the engine shuffles."""

    number: int | None
    deck: tuple[Card, ...]
    highest: Suit
    spare_bottom: Card | None


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
    kept: tuple[Card, ...]
    laid_aside: tuple[Card, ...]


@dataclass(frozen=True, slots=True)
class StockTaken:
    seat: int
    cards: tuple[Card, ...]


@dataclass(frozen=True, slots=True)
class Discarded:
    seat: int
    cards: tuple[Card, ...]


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
    laid_aside: tuple[Card, ...]
    drawn: tuple[Card, ...]
    repurchase: bool
    stock_left: int


@dataclass(frozen=True, slots=True)
class Decided:
    seat: int
    play: bool


@dataclass(frozen=True, slots=True)
class SetAsideDone:
    seat: int
    cards: tuple[Card, ...]


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
