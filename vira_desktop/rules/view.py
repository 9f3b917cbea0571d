"""What one seat may know of a deal (an information state, as in OpenSpiel).

A view holds the seat's own hand, its own laid-aside cards until the first
lead, hands that the rules lay open, and everything public: bids, the
contract, trump, turned cards, how many cards each bought, the tricks. It never
holds another seat's hidden cards or the stock's order.
"""

from __future__ import annotations

from dataclasses import dataclass

from .cards import Card, Suit
from .deal import Deal, Decision, Phase
from .games import Game
from .houserules import HouseRules
from .scoring import DealResult

__all__ = ["View", "view_of"]


@dataclass(frozen=True, slots=True)
class View:
    seat: int
    phase: Phase
    to_act: int
    highest: Suit
    hand: tuple[Card, ...]
    own_laid_aside: tuple[Card, ...]  # empty once the first card is played
    hand_sizes: tuple[int, int, int]
    open_hands: dict[int, tuple[Card, ...]]  # seat -> cards laid face up
    bids: tuple[tuple[int, str], ...]
    declarer: int | None
    game: Game | None
    suit_level: int
    low: bool
    trump: Suit | None
    turned: tuple[Card, ...]  # every card turned up from the stock, in order
    bought: tuple[int, int, int]  # cards bought by each seat
    repurchased: bool
    stock_left: int
    trick: tuple[tuple[int, Card], ...]
    tricks: tuple[tuple[int, tuple[tuple[int, Card], ...]], ...]  # (winner, cards) of finished tricks
    tricks_won: tuple[int, int, int]
    aces_low: bool
    decision: Decision | None  # what this seat is asked, if anything
    result: DealResult | None
    rules: HouseRules  # the house rules in force (public)


def _sees_partner(deal: Deal, seat: int) -> bool:
    g = deal.game
    return (
        deal.rules.royale_defenders_see_each_other
        and g is not None
        and g.name == "solo grande misär ouverte royale"
        and seat != deal.declarer
        and deal.phase in (Phase.OPPONENT_BUY, Phase.PLAY)
    )


def view_of(deal: Deal, seat: int) -> View:
    """Build ``seat``'s view of ``deal``."""
    open_hands: dict[int, tuple[Card, ...]] = {}
    if deal.open_hand and deal.declarer != seat:
        open_hands[deal.declarer] = deal.hand(deal.declarer)
    if _sees_partner(deal, seat):
        partner = 3 - seat - deal.declarer
        open_hands[partner] = deal.hand(partner)
    decision = None
    if not deal.is_over:
        d = deal.decision()
        mine = tuple(a for a in d.actions if a.seat == seat)  # never another seat's options
        choice = d.choice if d.seat == seat else None
        if mine or choice:
            decision = Decision(seat, d.phase, mine, choice, optional=d.seat != seat)
    return View(
        seat=seat,
        phase=deal.phase,
        to_act=deal.to_act,
        highest=deal.highest,
        hand=deal.hand(seat),
        own_laid_aside=() if deal.first_card_played else deal.laid_aside(seat),
        hand_sizes=(bin(deal.hands[0]).count("1"), bin(deal.hands[1]).count("1"), bin(deal.hands[2]).count("1")),
        open_hands=open_hands,
        bids=tuple(deal.bids),
        declarer=deal.declarer if deal.declarer >= 0 else None,
        game=deal.game,
        suit_level=deal.suit_level,
        low=deal.low,
        trump=deal.trump,
        turned=tuple(deal.turned_all),
        bought=(deal.bought[0], deal.bought[1], deal.bought[2]),
        repurchased=deal.repurchased,
        stock_left=deal.stock_left,
        trick=tuple(deal.trick),
        tricks=tuple(deal.tricks_played),
        tricks_won=(deal.tricks_won[0], deal.tricks_won[1], deal.tricks_won[2]),
        aces_low=deal.aces_low,
        decision=decision,
        result=deal.result,
        rules=deal.rules,
    )
