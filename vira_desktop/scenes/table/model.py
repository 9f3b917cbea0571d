"""Where things lie on the table: each player's place round it, the stock, the turned cards.

What is drawn there is a :class:`~...session.state.TableState`, made by the runner or a
replay; the view cannot tell which made it.
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["PLACES", "Place", "place", "place_order"]



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


# The viewer's spare deck (bottom, at y 536) stands high enough for its label to clear the hand
# below, its selected cards raised too (at 560 the label ran behind the cards' top edge, at 544
# behind the raised cards' of a buy).
PLACES = {
    "bottom": Place((480, 680), False, (441, 452), (770, 556), (660, 556), (20, 584), (240, 536)),
    "left": Place((40, 110), True, (318, 330), (140, 428), (140, 290), (20, 12), (140, 140)),
    "top": Place((480, 16), False, (441, 208), (700, 130), (780, 130), (230, 140), (150, 20)),
    "right": Place((842, 110), True, (564, 330), (740, 428), (740, 290), (740, 12), (740, 140)),
}
# At the sides the tricks lie under the laid-away cards and their label (at 410 they hid it).
# With four at the table the one across sits at the top: its piles go beside its trick and
# apart (the pulla moves down, out of their way), its spare deck at its left, the screen's
# right, clear of the left seat's laid-away pile (it lay over it, its label cut). Thirteen
# tricks (3 px apart) and thirteen laid-away cards (2 px) stay clear of each other and of it.
PLACES_FOUR = {
    **PLACES,
    "top": Place((480, 16), False, (441, 208), (523, 150), (638, 150), (230, 140), (740, 140)),
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
