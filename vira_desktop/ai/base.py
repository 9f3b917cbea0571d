"""The bot interface: a view in, an action and a one-line reason out."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol

from ..rules.actions import Action
from ..rules.errors import Keyed
from ..rules.view import View


class Reason(Keyed):
    """A bot's reason (catalog keys under ``reason.``): English as logs and tests read it, and
    the key and values a hint needs to say it in the player's language."""


@dataclass(frozen=True, slots=True)
class Choice:
    action: Action | None  # None declines an optional offer
    reason: Reason  # keyed: a window says it in the player's language


class Bot(Protocol):
    name: str

    def choose(self, view: View) -> Choice:
        """Pick a legal action for ``view.seat`` (``view.decision`` is not None)."""
        ...
