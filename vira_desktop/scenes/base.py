"""Scenes and the scene stack: enter, pause, resume, exit; events, update, draw; and the
app's port, all a scene may ask of the window (scenes never import the concrete ``App``)."""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, Any, Literal, Protocol, TypeVar

import pygame
import pygame_gui

if TYPE_CHECKING:
    from ..config import Settings, SettingValue
    from ..net.remote import RemoteTable
    from ..session.autosave import Autosave
    from ..session.factory import TableOrder
    from ..session.history_service import HistoryService
    from ..session.port import TableClient

# every scene's name (registry.py maps each to its class): a name misspelled fails the type check
SceneName = Literal[
    "menu",
    "new_game",
    "settings",
    "table",
    "replay",
    "score_sheet",
    "bid_table",
    "glossary",
    "tricks",
    "last_trick",
    "analysis",
    "settlement",
    "tutorial",
    "lesson",
    "practice",
    "history",
    "statistics",
    "play_again",
    "friends",
    "friends_host",
    "friends_join",
    "lobby",
    "friends_table",
]

W = TypeVar("W", bound=pygame_gui.core.UIElement)


class AppPort(Protocol):
    """What a scene may ask of the app (``scenes.app.App`` is the one implementation): the
    scenes by name, the settings, the saves, history, and leaving."""

    ui: pygame_gui.UIManager
    history_filters: tuple[Any, int] | None  # the History screen's filters, as last left

    @property
    def settings(self) -> Settings: ...
    @property
    def autoplay_speed(self) -> str | None: ...  # bots play every seat at this speed (vira --autoplay)
    @property
    def config_problems(self) -> tuple[str, ...]: ...
    @property
    def notice(self) -> str: ...
    @property
    def new_game_seeds(self) -> random.Random: ...
    @property
    def saved(self) -> Autosave: ...
    @property
    def history(self) -> HistoryService: ...

    def open(self, name: SceneName, **kwargs: object) -> Scene:
        """Make the named scene the only one."""

    def push(self, name: SceneName, **kwargs: object) -> Scene:
        """Stack the named scene over the current one."""

    def pop(self) -> None:
        """Close the scene on top (back to the one under it)."""

    def quit(self) -> None:
        """End the frame loop (the program)."""

    def sound(self, name: str) -> None:
        """Play the named sound (where there is a sound device and sound is on)."""

    def start_table(
        self,
        order: TableOrder,
        autoplay: int | None = None,
        hints: bool = False,
        saves: bool = True,
        back_to: SceneName | None = None,
    ) -> None:
        """Build the table ``order`` asks for and open it (saved before its first move, unless
        not ``saves``; ``back_to``: the screen after it)."""

    def table_client(
        self, order: TableOrder, autoplay: int | None = None, hints: bool = False, saves: bool = True
    ) -> TableClient:
        """The port of a new table (practice opens its own table scene with it)."""

    def change_setting(self, key: str, value: SettingValue) -> str:
        """Set and save one setting; what the player should be told ("" when all went well)."""

    def window_size(self) -> tuple[int, int]:
        """The window's size as it is."""

    def has_autosave(self) -> bool:
        """Whether a saved game waits."""

    def resume_autosave(self, autoplay: int | None = None, hints: bool = False) -> None:
        """Continue the saved game (``autoplay``: bots play it, as ``vira --autoplay --resume``)."""

    def clear_autosave(self) -> None:
        """Forget the saved game."""

    def flush_saves(self) -> None:
        """Wait for the saves and history to be written."""

    def host_friends(
        self, name: str, players: int, friends: int, password: str | None, lan: bool, table: str = "1",
        bots: str = "normal",
    ) -> RemoteTable:
        """Host the table ``table`` here for ``friends`` players (bots of level ``bots`` in the
        other seats, the player's house rules) and take a seat at it."""

    def join_friends(
        self, address: str, name: str, password: str | None, table: str = "", token: str | None = None
    ) -> RemoteTable:
        """Take a seat at a table a friend hosts (``token``: the seat held for this player)."""


class Scene:
    """One screen. Subclasses build their widgets in :meth:`enter` and remove them in :meth:`exit`."""

    def __init__(self, app: AppPort) -> None:
        self.app = app
        self.ui = app.ui
        self.widgets: list[pygame_gui.core.UIElement] = []

    def add(self, widget: W) -> W:
        self.widgets.append(widget)
        return widget

    def clear_widgets(self) -> None:
        for w in self.widgets:
            w.kill()  # type: ignore[no-untyped-call]
        self.widgets = []

    def enter(self) -> None:
        """Called when the scene comes on top of the stack."""

    def exit(self) -> None:
        self.clear_widgets()

    def pause(self) -> None:
        for w in self.widgets:
            w.hide()  # type: ignore[no-untyped-call]

    def resume(self) -> None:
        for w in self.widgets:
            w.show()  # type: ignore[no-untyped-call]

    def handle(self, event: pygame.event.Event) -> None:
        """An input or pygame-gui event."""

    def update(self, dt: float) -> None:
        """Advance by ``dt`` seconds."""

    def draw(self, surface: pygame.Surface) -> None:
        """Draw under the GUI widgets."""

    def may_close(self) -> bool:
        """The window's close button was pressed: whether the program may end now (False:
        the scene asked first, as its Esc would; pressed again, it closes)."""
        return True

    def next_wake(self) -> float | None:
        """Seconds until this scene needs a frame although no input came: 0 while it animates
        or waits on work in the background, ``None`` when only input changes it (the window
        then sleeps)."""
        return None


class SceneStack:
    def __init__(self) -> None:
        self.scenes: list[Scene] = []

    @property
    def top(self) -> Scene | None:
        return self.scenes[-1] if self.scenes else None

    def push(self, scene: Scene) -> None:
        if self.top is not None:
            self.top.pause()
        self.scenes.append(scene)
        scene.enter()

    def pop(self) -> None:
        scene = self.scenes.pop()
        scene.exit()
        if self.top is not None:
            self.top.resume()

    def replace(self, scene: Scene) -> None:
        if self.scenes:
            self.scenes.pop().exit()
        self.scenes.append(scene)
        scene.enter()

    def clear(self) -> None:
        while self.scenes:
            self.scenes.pop().exit()
