"""Scenes and the scene stack: enter, pause, resume, exit; events, update, draw."""

from __future__ import annotations

from typing import TYPE_CHECKING, TypeVar

import pygame
import pygame_gui

if TYPE_CHECKING:
    from .app import App


W = TypeVar("W", bound=pygame_gui.core.UIElement)


class Scene:
    """One screen. Subclasses build their widgets in :meth:`enter` and remove them in :meth:`exit`."""

    def __init__(self, app: App) -> None:
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
