"""What a state asks for: the phases of a deal and the decision of the seat to act.

Kept apart from :mod:`.deal` so that views, bots and the table can name them
without importing the state machine.
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from enum import Enum

from .actions import Action, Buy, Discard, Keep, Repurchase, SetAside
from .cards import Card

__all__ = ["CardChoice", "Decision", "Phase"]


class Phase(Enum):
    AUCTION = "auction"
    LEVEL = "level"  # declarer fixes an unspecified bid's level
    KEEP = "keep"  # gask: cards kept from the dealt hand
    DISCARD = "discard"  # gask, vira, gök: back to 13 after taking the stock
    HIGH_LOW = "high/low"  # gask 0-4
    TRUMP = "trump"
    TURN = "turn"  # turné, vingel, tringel
    BUY = "buy"  # the declarer's purchase
    DECIDE = "decide"  # play, lay down, repurchase or turn again
    SET_ASIDE = "set aside"  # misère declarer, before the first lead
    OPPONENT_BUY = "opponents buy"
    PLAY = "play"
    DONE = "done"


@dataclass(frozen=True, slots=True)
class CardChoice:
    """A choice of a set of cards: ``min_count``..``max_count`` of ``candidates``."""

    action: type[Keep | Discard | Buy | Repurchase | SetAside]
    seat: int
    candidates: tuple[Card, ...]
    min_count: int
    max_count: int

    def make(self, cards: Sequence[Card]) -> Action:
        return self.action(self.seat, tuple(cards))

    def combinations(self) -> Iterator[Action]:
        """Every legal choice, lazily (there may be millions)."""
        for n in range(self.min_count, self.max_count + 1):
            for combo in itertools.combinations(self.candidates, n):
                yield self.make(combo)

    def random(self, rng: random.Random) -> Action:
        n = rng.randint(self.min_count, self.max_count)
        return self.make(rng.sample(self.candidates, n))


@dataclass(frozen=True, slots=True)
class Decision:
    """What the state asks for now: finite ``actions`` and/or a card-set ``choice``.

    ``optional`` marks an offer the seat may decline by doing nothing (a declarer
    who is not on turn may announce four aces before the first card).
    """

    seat: int
    phase: Phase
    actions: tuple[Action, ...]
    choice: CardChoice | None = None
    optional: bool = False
