"""What every table scene shows and reads: the :class:`~.view.TableView` (drawing the
:class:`~.shown.Shown` value it is given beside the table), the :class:`~.input.InputMap`
(keys and mouse to intents), the panel's buttons and the keys' focus in the hand. The
input goes on to an :class:`Owner`, the part that acts on it (a table in play, a replay)."""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import replace
from typing import Any, Protocol

import pygame
import pygame_gui

from ...rules.actions import Action
from ...rules.cards import Card
from ..base import Scene
from ..cards import CardImages
from ..theme import INK
from .cards_layer import SPEEDS_KEEPING_THE_TRICK
from .input import Command, InputMap, Intent
from .panel import Panel
from .shown import Shown
from .view import TableView

__all__ = ["Owner", "TableSurface"]


class Owner(Protocol):
    """What a table surface hands its input to."""

    def press(self, what: Action | Command | None) -> None:
        """A panel button."""

    def intent(self, intent: Intent) -> None:
        """A key or a click, as an intent."""

    def lift_cover(self) -> None:
        """Hot seat: the player the screen was passed to takes it."""

    def refresh(self) -> None:
        """Lay the cards out again (a dragged card was let go)."""


class TableSurface:
    """The view, input map, panel and focus of one table scene (see the module). ``speed``:
    the animation speed, where not the setting's (autoplay's own); ``replaying``: a deal
    record stepped, each trick stepped to seen whole."""

    def __init__(
        self,
        scene: Scene,
        keys_help: str,
        speed: str | None = None,
        replaying: bool = False,
    ) -> None:
        app = scene.app
        display = app.settings.display
        self.images = CardImages(four_colour=display.four_colour_deck)
        self.images.preload()
        self.view = TableView(
            self.images,
            speed or display.animation_speed,
            display.card_back,
            app.sound,
            wait_after_trick=display.wait_after_trick,
            # a newcomer saw tricks go unread
            keep_last_trick=replaying or display.animation_speed in SPEEDS_KEEPING_THE_TRICK,
            replaying=replaying,
        )
        self.mark(keys_help=keys_help)
        self.input = InputMap(self.card_at, self.view.cards.drag)
        self.panel = Panel(scene)
        self.focus = 0  # the keys' place in the hand

    # ------------------------------------------------------------------ what the view draws
    @property
    def shown(self) -> Shown:
        return self.view.shown

    def mark(self, **changes: Any) -> None:
        """Change what the view draws beside the table (the fields of :class:`~.shown.Shown`)."""
        self.view.shown = replace(self.view.shown, **changes)

    def message(self, text: str, colour: tuple[int, int, int] = INK) -> None:
        self.mark(message=text, colour=colour)

    def draw(self, surface: pygame.Surface, dimmed: frozenset[Card] = frozenset(), focus_shown: bool = False) -> None:
        """The table, ``dimmed`` (the viewer's cards it may not play now) shaded, the keys'
        focus framed where ``focus_shown``."""
        focus = self.focus_card(dimmed)
        self.mark(focus=focus if focus_shown else None, dimmed=dimmed)
        self.view.draw(surface)

    def next_wake(self) -> float | None:
        """0 while anything animates or a card is dragged; else ``None``."""
        return 0.0 if self.view.busy or self.view.cards.dragging is not None else None

    # ------------------------------------------------------------------ the hand and its focus
    def hand(self) -> list[Card]:
        return self.view.viewer_hand()

    def card_at(self, pos: tuple[int, int]) -> Card | None:
        """The viewer's card under ``pos`` (none under the hot-seat cover)."""
        if self.shown.cover:
            return None
        return self.view.cards.card_at(pos, self.hand())

    def focus_card(self, dimmed: Collection[Card] = ()) -> Card | None:
        """The card the keys act on: never one of ``dimmed`` (it may not be played now), but
        the next that may, rightwards round the hand."""
        hand = self.hand()
        if not hand:
            return None
        at = min(self.focus, len(hand) - 1)
        if hand[at] in dimmed:
            at = next((i % len(hand) for i in range(at, at + len(hand)) if hand[i % len(hand)] not in dimmed), at)
            self.focus = at
        return hand[at]

    def step_focus(self, by: int, dimmed: Collection[Card] = ()) -> None:
        """The focus ``by`` cards on round the hand, stepping over ``dimmed``."""
        hand = self.hand()
        if hand:  # from the card shown with the focus: the hand may have shrunk since it was set
            at = min(self.focus, len(hand) - 1)
            for _ in hand:
                at = (at + by) % len(hand)
                if hand[at] not in dimmed:
                    break
            self.focus = at

    # ------------------------------------------------------------------ input
    def handle(self, event: pygame.event.Event, owner: Owner) -> None:
        """An input event, handed to ``owner`` as a button pressed or an intent."""
        view = self.view
        if event.type == pygame.MOUSEMOTION:
            view.point(event.pos)
        if event.type == pygame_gui.UI_BUTTON_PRESSED and event.ui_element in self.panel.buttons:
            if not self.shown.cover:
                owner.press(self.panel.buttons[event.ui_element])
            return
        if event.type in (pygame.KEYDOWN, pygame.MOUSEBUTTONDOWN) and view.cards.release():
            return  # "wait after each trick": this click or key only takes the trick away
        for intent in self.input.intents(event):
            if view.intro.running:  # any key or click skips the seating draw, and does nothing else
                view.intro.skip()
                continue
            if self.shown.cover:  # hot seat: Enter or Space lifts the cover; nothing else acts under it
                if intent in (Command("confirm"), Command("use_focus")):
                    owner.lift_cover()
                elif intent == Command("back"):
                    owner.intent(intent)
                continue
            owner.intent(intent)
        if self.input.dragging is None and view.cards.dragging is not None:
            view.cards.drop()
            owner.refresh()
