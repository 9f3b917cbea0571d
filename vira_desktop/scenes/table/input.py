"""Keys and mouse turned into intents, so the mouse, drag and keyboard share one path.

The key table is data: the help line on the table is built from it too.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import pygame

from ...rules.cards import Card
from ..base import SceneName

__all__ = ["KEYS", "Command", "InputMap", "Intent", "UseCard"]


@dataclass(frozen=True, slots=True)
class UseCard:
    """Play the card, or add it to (or take it from) the cards selected."""

    card: Card


@dataclass(frozen=True, slots=True)
class Command:
    """A named command: confirm, pass, hint, undo, back, focus±1, bid±1, button N, an overlay …"""

    name: str
    arg: int = 0


Intent = UseCard | Command

KEYS: dict[int, Command] = {
    pygame.K_RETURN: Command("confirm"),
    pygame.K_KP_ENTER: Command("confirm"),
    pygame.K_SPACE: Command("use_focus"),
    pygame.K_LEFT: Command("focus", -1),
    pygame.K_RIGHT: Command("focus", 1),
    pygame.K_UP: Command("bid_step", -1),
    pygame.K_DOWN: Command("bid_step", 1),
    pygame.K_p: Command("pass"),
    pygame.K_h: Command("hint"),
    pygame.K_u: Command("undo"),
    pygame.K_l: Command("last_trick"),
    pygame.K_a: Command("analyse"),
    pygame.K_e: Command("export"),
    pygame.K_s: Command("overlay", 0),
    pygame.K_b: Command("overlay", 1),
    pygame.K_t: Command("overlay", 2),
    pygame.K_g: Command("overlay", 3),
    pygame.K_w: Command("watch"),
    pygame.K_d: Command("discards"),
    pygame.K_TAB: Command("viewer"),
    pygame.K_ESCAPE: Command("back"),
    **{pygame.K_1 + i: Command("button", i) for i in range(9)},
}
OVERLAYS: tuple[SceneName, ...] = ("score_sheet", "bid_table", "tricks", "glossary")
DRAG_THRESHOLD = 12
HAND_TOP = 620  # a card dropped above this line is played


class InputMap:
    """Turns pygame events into intents. ``card_at`` finds the viewer's card under a point;
    ``drag`` moves a dragged card's sprite."""

    def __init__(
        self, card_at: Callable[[tuple[int, int]], Card | None], drag: Callable[[Card, tuple[int, int]], None]
    ) -> None:
        self.card_at = card_at
        self.drag = drag
        self.dragging: Card | None = None
        self._from = (0, 0)

    def intents(self, event: pygame.event.Event) -> list[Intent]:
        if event.type == pygame.KEYDOWN:
            command = KEYS.get(event.key)
            return [command] if command is not None else []
        if event.type == pygame.MOUSEBUTTONDOWN and event.button == 1:
            card = self.card_at(event.pos)
            if card is not None:
                self.dragging, self._from = card, event.pos
        elif event.type == pygame.MOUSEMOTION and self.dragging is not None:
            self.drag(self.dragging, event.pos)
        elif event.type == pygame.MOUSEBUTTONUP and event.button == 1 and self.dragging is not None:
            card, start = self.dragging, self._from
            self.dragging = None
            moved = abs(event.pos[0] - start[0]) + abs(event.pos[1] - start[1])
            if moved < DRAG_THRESHOLD or event.pos[1] < HAND_TOP:  # a click, or dropped on the table
                return [UseCard(card)]
            return [Command("dropped")]
        return []
