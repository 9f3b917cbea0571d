"""The three seats of a deal, counted from forehand (rulebook "Dealing").

>>> Seat.REAR.next, Seat.FOREHAND.others()
(<Seat.FOREHAND: 0>, (<Seat.MIDDLE: 1>, <Seat.REAR: 2>))
>>> Seat.MIDDLE.label
'middle-hand'
"""

from __future__ import annotations

from enum import IntEnum

__all__ = ["SEATS", "Seat"]


class Seat(IntEnum):
    """Forehand (förhand) leads and bids first; rear-hand (efterhand) is the dealer."""

    FOREHAND = 0
    MIDDLE = 1
    REAR = 2

    @property
    def label(self) -> str:
        return _LABELS[self]

    @property
    def next(self) -> Seat:
        """The seat after this one in the order of play (clockwise)."""
        return _NEXT[self]

    def others(self) -> tuple[Seat, Seat]:
        """The other two seats, in the order of play after this one."""
        after = _NEXT[self]
        return after, _NEXT[after]


_LABELS = ("forehand", "middle-hand", "rear-hand")
SEATS: tuple[Seat, Seat, Seat] = (Seat.FOREHAND, Seat.MIDDLE, Seat.REAR)
_NEXT = (Seat.MIDDLE, Seat.REAR, Seat.FOREHAND)
