"""The bot interface: a view in, an action and a one-line reason out."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol

from ..rules.actions import Action
from ..rules.errors import Keyed
from ..rules.games import Game
from ..rules.view import View


class Reason(Keyed):
    """A bot's reason (catalog keys under ``reason.``): English as logs and tests read it, and
    the key and values a hint needs to say it in the player's language."""


@dataclass(frozen=True, slots=True)
class Choice:
    action: Action | None  # None declines an optional offer
    reason: Reason  # keyed: a window says it in the player's language


@dataclass(frozen=True, slots=True)
class Outlook:
    """A bot's estimate of bidding ``game``: the chance of going home, and the expected
    bets lifted from (+) or paid into (-) the pulla and pins from (+) or to (-) each opponent."""

    game: Game
    chance: float
    bets: float
    pins: float
    value: float  # the whole in pins (a bet is 8, pins from both opponents): what the bot compares
    threshold: float  # the chance the bot wants before it bids

    @property
    def worth_bidding(self) -> bool:
        """The bot itself would consider this bid: likely home and worth more than passing."""
        return self.chance >= self.threshold and self.value > 0


class Bot(Protocol):
    name: str

    def choose(self, view: View) -> Choice:
        """Pick a legal action for ``view.seat`` (``view.decision`` is not None)."""
        ...
