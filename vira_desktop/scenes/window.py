"""The window's size: the sizes offered where they fit the desktop, and a setting shrunk to fit."""

from __future__ import annotations

import contextlib
from collections.abc import Sequence

import pygame

__all__ = ["MIN_SIZE", "WINDOW_SIZES", "desktop_size", "fit_window", "window_sizes"]

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
