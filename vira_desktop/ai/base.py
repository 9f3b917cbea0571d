"""The bot interface: a view in, an action and a one-line reason out."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol

from ..rules.actions import Action
from ..rules.view import View


@dataclass(frozen=True, slots=True)
class Choice:
    action: Action | None  # None declines an optional offer
    reason: str


class Bot(Protocol):
    name: str

    def choose(self, view: View) -> Choice:
        """Pick a legal action for ``view.seat`` (``view.decision`` is not None)."""
        ...
