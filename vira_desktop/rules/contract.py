"""The contract of a deal once the auction is over: who plays which game, and how."""

from __future__ import annotations

from dataclasses import dataclass

from .cards import Suit, SuitClass
from .games import Game
from .seat import Seat

__all__ = ["Contract"]


@dataclass(frozen=True, slots=True)
class Contract:
    """A snapshot of the contract: it changes value as trump is chosen or turned,
    and as a gask is declared high or low (the deal publishes a new one each time).

    ``trump_class`` is how the trump is paid (rulebook "Payment of Pins"); ``None``
    while there is no trump (before it is chosen, and in misère).
    """

    declarer: Seat
    game: Game
    suit_level: int  # 0 plain, 1 in suit, 2 in highest suit
    low: bool  # played as misère: no trump, no trick to take
    trump: Suit | None
    trump_class: SuitClass | None

    @property
    def tricks_needed(self) -> int:
        """Tricks the declarer must take to go home (none in misère)."""
        return 0 if self.low else self.game.tricks
