"""The window's size: the sizes offered where they fit the desktop, a setting shrunk to fit,
and the window itself (its size, full screen)."""

from __future__ import annotations

import contextlib
import warnings
from collections.abc import Sequence

import pygame

__all__ = ["MIN_SIZE", "WINDOW_SIZES", "Window", "desktop_size", "fit_window", "window_sizes"]

MIN_SIZE = (640, 400)  # the smallest window the table is scaled into
WINDOW_SIZES = ((1024, 640), (1280, 800), (1600, 1000), (1920, 1200))  # offered where they fit


def desktop_size() -> tuple[int, int] | None:
    """The first desktop's size (``None`` where SDL knows none, headless)."""
    with contextlib.suppress(pygame.error):
        desktops = pygame.display.get_desktop_sizes()
        if desktops and pygame.display.get_driver() not in ("dummy", "offscreen"):
            return int(desktops[0][0]), int(desktops[0][1])
    return None


def window_sizes(desktop: Sequence[int] | None) -> list[tuple[int, int]]:
    """The window sizes to offer on ``desktop``: those that fit it whole, and the largest
    window that fits (the table's shape) where that is none of them."""
    fitting = [size for size in WINDOW_SIZES if fit_window(size, desktop) == size]
    largest = fit_window(WINDOW_SIZES[-1], desktop)
    return fitting if largest in fitting else [*fitting, largest]


def fit_window(size: Sequence[int], desktop: Sequence[int] | None) -> tuple[int, int]:
    """The window size for the setting ``size``: shrunk, keeping its shape, to fit the desktop
    with room for a title bar and a task bar, and never below ``MIN_SIZE``."""
    width, height = int(size[0]), int(size[1])
    if desktop:
        scale = min(1.0, (desktop[0] - 40) / width, (desktop[1] - 80) / height)
        width, height = int(width * scale), int(height * scale)
    return max(MIN_SIZE[0], width), max(MIN_SIZE[1], height)


class Window:
    """The game's window (none headless: nothing to size). Everything is drawn at 1280×800 and
    SDL scales it to the window, keeping the aspect ratio (letterboxed), mouse included."""

    def __init__(self, headless: bool) -> None:
        self.sdl = None if headless else _display_window()
        self.fullscreen = False

    def resize(self, size: Sequence[int]) -> None:
        """Give the window ``size``, capped to the desktop; the pointer is put back over the
        point of the table it was over (the button just clicked)."""
        if self.sdl is None or self.fullscreen:
            return
        pointer = pygame.mouse.get_pos() if pygame.mouse.get_focused() else None  # in the table's pixels
        with contextlib.suppress(pygame.error):
            self.sdl.minimum_size = MIN_SIZE  # SCALED would hold it at 1280×800
            self.sdl.size = fit_window(size, desktop_size())
            if pointer is not None:
                pygame.mouse.set_pos(pointer)

    def size(self, setting: Sequence[int]) -> tuple[int, int]:
        """The window's size as it is (the ``setting`` shrunk to fit the desktop)."""
        if self.sdl is not None and not self.fullscreen:
            width, height = self.sdl.size
            return int(width), int(height)
        return fit_window(setting, desktop_size())

    def toggle_fullscreen(self, setting: Sequence[int]) -> None:
        """F11: the whole screen (the table letterboxed in it), or back to the window size ``setting``."""
        if self.sdl is None:
            return
        with contextlib.suppress(pygame.error):
            if self.fullscreen:
                self.sdl.set_windowed()
                self.fullscreen = False
                self.resize(setting)
            else:
                self.sdl.set_fullscreen(desktop=True)
                self.fullscreen = True


def _display_window() -> pygame.Window | None:
    """The display module's window (pygame-ce 2.5 warns that this is for surface rendering)."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        try:
            return pygame.Window.from_display_module()
        except (AttributeError, pygame.error):
            return None
