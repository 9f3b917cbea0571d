"""What a window is given to draw a table: the public state of the table and one seat's view.

A runner (live play, a lesson), a deal record stepped forward and back, or a test builds
a :class:`TableState`; whoever draws it cannot tell which made it, and never reaches the
deal itself. Everything here is what the seat shown may know.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from ..i18n import t
from ..rules.actions import Bid
from ..rules.cards import Card
from ..rules.decision import Phase
from ..rules.games import Game
from ..rules.ledger import PULLA, SEXMASTARE, Kind, Ledger, Settlement
from ..rules.seat import SEATS, Seat
from ..rules.session import DealSummary, SeatingDraw, Session
from ..rules.view import View

__all__ = ["Holdings", "TableState", "table_state"]

Holdings = dict[tuple[str, Kind], int]  # (owner's colour, kind) -> count


@dataclass(frozen=True)
class TableState:
    """Everything the table draws: who sits where, the bowls and the pulla, and the view
    of the seat whose cards are shown (``viewer``; ``None``: a player sitting out)."""

    players: tuple[str, ...]  # clockwise, as they sit (their colours follow this order)
    seats: tuple[str, str, str]  # forehand, middle-hand, rear-hand of this deal
    sitting_out: str | None
    deal_index: int  # 0 for the first deal of the session
    deal_number: int | None
    spare_bottom: Card | None  # from the deal's DealStarted event
    view: View
    viewer: Seat | None
    viewer_name: str
    bowls: dict[str, Holdings]
    pulla: Holdings  # the tokens in the pulla (under it: ``sexmastare``)
    pulla_bets: int
    sexmastare: int  # pins lying under the pulla
    history: int = 0  # actions taken in this deal so far
    standing_row: int | None = None  # in the auction: the bid-table row the standing bid stands for
    biddable_rows: frozenset[int] = frozenset()  # in the auction: the rows the player on turn may bid
    bid_games: Mapping[Bid, Game] = field(default_factory=dict)  # in the auction: the game each legal bid stands for
    thinking: str | None = None  # the player a bot is thinking for
    deals_left: int | None = None  # once the end of the session is agreed: deals to finish
    seating: SeatingDraw | None = None  # shown at the start of a session
    seating_kind: str = "draw"
    colour_order: tuple[str, ...] = ()  # whose colour is whose: the new-game form's order, stable
    ala_om: int = 0  # the deal is over: how many times everyone anted again before the winner lifted
    deals: tuple[DealSummary, ...] = ()  # the session's finished deals, for the score sheet (public)
    undone: tuple[int, ...] = ()  # the deals in which an action was taken back (practice), by index
    settlement: Settlement | None = None  # the session's end: the pulla shared, each one's result
    again: bool = False  # a deal from history played again at its table as it began (not the session's Nth)

    @property
    def over(self) -> bool:
        """The deal is over (its result is known)."""
        return self.view.phase is Phase.DONE

    @property
    def ending(self) -> str:
        """The end of the session as the panel marks it ("" while none is agreed)."""
        left = self.deals_left
        if left is None:
            return ""
        if left <= 0:
            return t("table.ending.settle")
        if left == 1:
            return t("table.ending.borup_next") if self.over else t("table.ending.borup_now")
        return t("table.ending.last_round", deals=left)

    def colour_of(self, owner: str) -> int | None:
        """A player's colour index, or ``None`` for a name not at the table (a column's head)."""
        order = self.colour_order or self.players
        return order.index(owner) % 4 if owner in order else None

    def colour_index(self, owner: str) -> int:
        """A player's colour, the same from game to game (the form's order, not the seating's)."""
        index = self.colour_of(owner)
        return 0 if index is None else index


def table_state(session: Session, deal_index: int, viewer_name: str, **extra: object) -> TableState:
    """The public state of ``session``'s table, with the view of ``viewer_name``'s seat
    (a public view when that player sits out)."""
    deal = session.deal
    assert deal is not None
    viewer = SEATS[session.seats.index(viewer_name)] if viewer_name in session.seats else None
    view = deal.view(viewer) if viewer is not None else deal.public_view()
    ledger: Ledger = session.ledger
    standing, biddable, bid_games = None, frozenset[int](), {}
    if deal.phase is Phase.AUCTION:
        standing = deal.standing_game.no if deal.standing_game is not None else None
        bids = [a for a in deal.legal_actions() if isinstance(a, Bid)]
        biddable = frozenset(a.game.no for a in bids if a.game is not None)
        bid_games = {a: deal.bid_game(a) for a in bids}  # a bid without a level: the lowest that outbids
    return TableState(
        players=tuple(session.players),
        seats=session.seats,
        sitting_out=session.sitting_out,
        deal_index=deal_index,
        deal_number=deal.number,
        spare_bottom=deal.spare_bottom,
        view=view,
        viewer=viewer,
        viewer_name=viewer_name,
        bowls={name: ledger.holdings(name) for name in session.players},
        pulla=ledger.holdings(PULLA),
        pulla_bets=ledger.pulla_bets(),
        sexmastare=sum(ledger.holdings(SEXMASTARE).values()),
        history=len(deal.history),
        standing_row=standing,
        biddable_rows=biddable,
        bid_games=bid_games,
        deals_left=session.deals_left,
        ala_om=session.deals[-1].ala_om if deal.is_over and session.deals else 0,
        deals=tuple(session.deals),
        settlement=session.settlement,
        **extra,  # type: ignore[arg-type]
    )
