"""What one seat may know of a deal (an information state, as in OpenSpiel).

A view holds the seat's own hand, its own laid-aside cards until the first
lead, hands that the rules lay open, and everything public: bids, the
contract, trump, turned cards, how many cards each bought, the tricks. It never
holds another seat's hidden cards or the stock's order. ``Deal.view(seat)``
builds it; the table draws from it and the bots decide from it.
``Deal.public_view()`` is what everyone sees, for a player sitting out.
Once the deal is over every hand still held is shown.
"""

from __future__ import annotations

from dataclasses import dataclass

from .cards import Card, Suit
from .contract import Contract
from .decision import Decision, Phase
from .games import Game
from .houserules import HouseRules
from .scoring import DealResult
from .seat import Seat

__all__ = ["View"]


@dataclass(frozen=True, slots=True)
class View:
    seat: Seat  # for a spectator's view, the seat on turn
    phase: Phase
    to_act: Seat
    highest: Suit
    hand: tuple[Card, ...]
    own_laid_aside: tuple[Card, ...]  # empty once the first card is played
    hand_sizes: tuple[int, int, int]
    open_hands: dict[int, tuple[Card, ...]]  # seat -> cards laid face up
    bids: tuple[tuple[int, str], ...]
    declarer: Seat | None  # from the end of the auction
    contract: Contract | None  # once the game is fixed
    game: Game | None
    suit_level: int
    low: bool
    trump: Suit | None
    turned: tuple[Card, ...]  # every card turned up from the stock, in order
    stock_turned: tuple[Card, ...]  # the turned cards still lying face up on the stock
    bought: tuple[int, int, int]  # cards bought by each seat
    repurchased: bool
    stock_left: int
    aside_sizes: tuple[int, int, int]  # cards each seat has laid aside (face down, counted by all)
    trick: tuple[tuple[int, Card], ...]
    tricks: tuple[tuple[int, tuple[tuple[int, Card], ...]], ...]  # (winner, cards) of finished tricks
    tricks_won: tuple[int, int, int]
    aces_low: bool
    decision: Decision | None  # what this seat is asked, if anything
    result: DealResult | None
    rules: HouseRules  # the house rules in force (public)
    spectator: bool = False  # what everyone sees: no hand, no decision (a player sitting out)
