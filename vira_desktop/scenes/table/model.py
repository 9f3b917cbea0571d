"""What the table view is fed: the public state of the table and one seat's view.

A driver (live play, a deal record, a lesson) builds a :class:`TableState`
each frame; the view cannot tell which driver made it.
"""

from __future__ import annotations

from dataclasses import dataclass

from ...i18n import t
from ...rules.cards import Card
from ...rules.ledger import Kind
from ...rules.seat import Seat
from ...rules.session import SeatingDraw
from ...rules.view import View

__all__ = ["Holdings", "Place", "TableState", "place", "place_order"]

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
    thinking: str | None = None  # the player a bot is thinking for
    deals_left: int | None = None  # once the end of the session is agreed: deals to finish
    seating: SeatingDraw | None = None  # shown at the start of a session
    seating_kind: str = "draw"
    colour_order: tuple[str, ...] = ()  # whose colour is whose: the new-game form's order, stable

    @property
    def ending(self) -> str:
        """The end of the session as the panel marks it ("" while none is agreed)."""
        left = self.deals_left
        in_play = self.view.phase.value != "done"
        if left is None:
            return ""
        if left <= 0:
            return t("table.ending.settle")
        if left == 1:
            return t("table.ending.borup_now") if in_play else t("table.ending.borup_next")
        return t("table.ending.last_round", deals=left)

    def colour_index(self, owner: str) -> int:
        """A player's colour, the same from game to game (the form's order, not the seating's)."""
        order = self.colour_order or self.players
        return order.index(owner) % 4 if owner in order else 0


@dataclass(frozen=True)
class Place:
    """Where a player sits on screen: hand, trick slot, won tricks, laid-aside cards,
    name plate with the token bowl, and the spare deck when this player is forehand."""

    hand: tuple[int, int]
    vertical: bool
    trick: tuple[int, int]
    pile: tuple[int, int]
    aside: tuple[int, int]
    plate: tuple[int, int]
    spare: tuple[int, int]

    @property
    def hand_centre(self) -> tuple[float, float]:
        return (self.hand[0] - 39.0, float(self.hand[1])) if not self.vertical else (self.hand[0], self.hand[1] + 140.0)


PLACES = {
    "bottom": Place((480, 680), False, (441, 452), (770, 556), (660, 556), (20, 584), (240, 560)),
    "left": Place((40, 110), True, (318, 330), (140, 410), (140, 290), (20, 12), (140, 140)),
    "top": Place((480, 16), False, (441, 208), (700, 130), (780, 130), (230, 140), (150, 20)),
    "right": Place((842, 110), True, (564, 330), (740, 410), (740, 290), (740, 12), (740, 140)),
}
# With four at the table the one across sits at the top: its piles go beside its trick (the
# pulla moves down, out of their way), its spare deck below its plate, clear of the left plate.
PLACES_FOUR = {
    **PLACES,
    "top": Place((480, 16), False, (441, 208), (523, 150), (603, 150), (230, 140), (222, 236)),
}
STOCK = (441, 330)
TURNED = (351, 330)
TABLE_W = 960


def place_order(players: int) -> tuple[str, ...]:
    """Places round the table clockwise from the viewer at the bottom."""
    return ("bottom", "left", "right") if players == 3 else ("bottom", "left", "top", "right")


def place(players: int, rel: int) -> Place:
    """The place ``rel`` seats clockwise from the viewer, at a table of ``players``."""
    return (PLACES if players == 3 else PLACES_FOUR)[place_order(players)[rel]]
