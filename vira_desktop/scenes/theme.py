"""Colours, fonts and the pygame-gui theme (DejaVu Sans has the suit symbols)."""

from __future__ import annotations

from functools import cache, lru_cache
from typing import Any

import pygame

from ..i18n import LANGUAGES
from ..paths import asset

FELT = (24, 92, 56)
PANEL = (22, 28, 36)
INK = (236, 236, 228)
MUTED = (170, 178, 170)
GOLD = (240, 200, 90)
RED = (220, 70, 70)
GOOD = (120, 220, 150)
FOCUS = (255, 225, 120)  # the player on turn
KEY_FOCUS = (90, 200, 255)  # the card the arrow keys are on: never the gold of a selected card
SUIT_COLOURS = {0: (20, 20, 20), 1: (200, 30, 40), 2: (200, 30, 40), 3: (20, 20, 20)}
FOUR_COLOURS = {0: (20, 20, 20), 1: (200, 30, 40), 2: (30, 90, 210), 3: (20, 130, 50)}
PLAYER_COLOURS = [(230, 190, 60), (90, 160, 240), (230, 110, 90), (170, 120, 230)]
SIZE = (1280, 800)


class GameFont(pygame.font.Font):
    """The game's font; its own class so that a test can watch every text the window draws."""


@cache
def font(size: int, bold: bool = False) -> pygame.font.Font:
    return GameFont(str(asset("fonts", "DejaVuSans-Bold.ttf" if bold else "DejaVuSans.ttf")), size)


def gui_theme() -> dict[str, Any]:
    regular = str(asset("fonts", "DejaVuSans.ttf"))
    bold = str(asset("fonts", "DejaVuSans-Bold.ttf"))

    def dejavu(size: int, heavy: bool = False) -> list[dict[str, str]]:
        """DejaVu Sans (it has ♠ ♥ ♦ ♣) for every language: pygame-gui keeps a font per
        locale, and an element without one for the locale falls back to its own Noto Sans,
        which has no suit symbols (buttons read "trump □")."""
        return [
            {
                "name": "dejavu",
                "size": str(size),
                "bold": str(int(heavy)),
                "regular_path": regular,
                "bold_path": bold,
                "locale": language,
            }
            for language in LANGUAGES
        ]

    return {
        "button": {"font": dejavu(14)},
        "text_entry_line": {"font": dejavu(15)},
        "label": {"font": dejavu(15)},
        "defaults": {
            "font": dejavu(15),
            "colours": {
                "normal_bg": "#2b3440",
                "hovered_bg": "#3c4a5a",
                "selected_bg": "#4d6a4f",
                "active_bg": "#4d6a4f",
                "disabled_bg": "#23282e",
                "dark_bg": "#1a2028",
                "normal_text": "#ecece4",
                "hovered_text": "#ffffff",
                "selected_text": "#ffffff",
                "disabled_text": "#7a8088",
                "normal_border": "#566270",
                "hovered_border": "#aab8c6",  # not the gold of a selected button, which Enter presses
                "selected_border": "#f0c85a",
                "active_border": "#f0c85a",
            },
            "misc": {"shape": "rounded_rectangle", "shape_corner_radius": "6"},
        },
        "#title": {"font": dejavu(40, heavy=True)},
        "#focused": {"colours": {"normal_border": "#ffe178", "normal_bg": "#3c4a5a"}, "misc": {"border_width": "3"}},
    }


def wrap_text(text: str, size: int, bold: bool, width: int, sep: str = " ") -> list[str]:
    """Break ``text`` at ``sep`` into lines no wider than ``width`` pixels in the game's font
    (a single word wider than that is cut with an ellipsis)."""
    return list(_wrapped(text, size, bold, width, sep))


@lru_cache(maxsize=2048)
def _wrapped(text: str, size: int, bold: bool, width: int, sep: str) -> tuple[str, ...]:
    f = font(size, bold)
    out: list[str] = []
    line = ""
    for word in text.split(sep):
        candidate = f"{line}{sep}{word}" if line else word
        if line and f.size(candidate)[0] > width:
            out.append(line)
            line = word
        else:
            line = candidate
    if line:
        out.append(line)
    return tuple(_fit(part, f, width) for part in out)


@lru_cache(maxsize=2048)
def fit_text(text: str, size: int, bold: bool, width: int) -> str:
    """``text`` on one line no wider than ``width`` pixels, cut with an ellipsis if it must be."""
    return _fit(text, font(size, bold), width)


@lru_cache(maxsize=1024)  # score-sheet cells, headers: the texts change with the game
def fitting_size(text: str, largest: int, smallest: int, bold: bool, width: int) -> int:
    """The largest type size from ``largest`` down to ``smallest`` at which ``text`` fits ``width``."""
    size = largest
    while size > smallest and font(size, bold).size(text)[0] > width:
        size -= 1
    return size


def _fit(text: str, f: pygame.font.Font, width: int) -> str:
    if f.size(text)[0] <= width:
        return text
    while text and f.size(text + "…")[0] > width:
        text = text[:-1]
    return text + "…"
