"""The table's light: lit felt with a wooden rim, the side panel, soft card shadows.

Each is drawn once and cached, so a frame costs one blit per backdrop (see ``docs/design.md``).
"""

from __future__ import annotations

import random
from functools import cache

import pygame

from .cards import CARD_H, CARD_W

FELT_CENTRE = (38, 118, 74)  # under the lamp
FELT_EDGE = (14, 62, 38)  # the corners, in shadow
RIM = (74, 46, 28)  # the table's wooden edge
RIM_LIGHT = (122, 82, 50)
PANEL_TOP = (30, 37, 48)
PANEL_BOTTOM = (15, 19, 26)
SHADOW_OFFSET = (3, 5)


def _lerp(a: tuple[int, int, int], b: tuple[int, int, int], t: float) -> tuple[int, int, int]:
    return (round(a[0] + (b[0] - a[0]) * t), round(a[1] + (b[1] - a[1]) * t), round(a[2] + (b[2] - a[2]) * t))


@cache
def felt(width: int, height: int, rim: bool = True) -> pygame.Surface:
    """Green baize lit from above the middle: a soft radial fall-off, a faint weave, a rim."""
    small = pygame.Surface((width // 8, height // 8))
    small.fill(FELT_EDGE)
    steps = 48
    for i in range(steps):  # ellipses from the edge inwards, each a little lighter
        t = i / (steps - 1)
        scale = 1.5 - 1.25 * t
        w, h = small.get_width() * scale, small.get_height() * scale
        rect = pygame.Rect(0, 0, int(w), int(h))
        rect.center = (small.get_width() // 2, int(small.get_height() * 0.46))
        pygame.draw.ellipse(small, _lerp(FELT_EDGE, FELT_CENTRE, t**0.7), rect)
    surface = pygame.transform.smoothscale(small, (width, height))
    weave = pygame.Surface((64, 64), pygame.SRCALPHA)
    rng = random.Random(7)  # the same weave every time
    for _ in range(900):
        shade = rng.choice(((255, 255, 255, 7), (0, 0, 0, 10)))
        weave.set_at((rng.randrange(64), rng.randrange(64)), shade)
    for x in range(0, width, 64):
        for y in range(0, height, 64):
            surface.blit(weave, (x, y))
    if rim:
        pygame.draw.rect(surface, RIM, surface.get_rect(), 10)
        pygame.draw.rect(surface, RIM_LIGHT, surface.get_rect().inflate(-16, -16), 1, border_radius=6)
        pygame.draw.line(surface, RIM_LIGHT, (0, 1), (width, 1))
    return ready(surface)


@cache
def panel(width: int, height: int) -> pygame.Surface:
    """The side panel: dark slate, a little lighter at the top, with a shadow cast on its left."""
    surface = pygame.Surface((width, height))
    for y in range(height):
        pygame.draw.line(surface, _lerp(PANEL_TOP, PANEL_BOTTOM, y / height), (0, y), (width, y))
    for x in range(6):
        pygame.draw.line(surface, _lerp((6, 8, 10), PANEL_TOP, x / 6), (x, 0), (x, height))
    return ready(surface)


@cache
def card_shadow(lifted: bool = False) -> pygame.Surface:
    """A soft shadow the size of a card; a lifted or moving card casts a wider, fainter one."""
    pad = 10 if lifted else 6
    surface = pygame.Surface((CARD_W + 2 * pad, CARD_H + 2 * pad), pygame.SRCALPHA)
    pygame.draw.rect(surface, (0, 0, 0, 70 if lifted else 95), (pad, pad, CARD_W, CARD_H), border_radius=6)
    return ready(pygame.transform.gaussian_blur(surface, 4 if lifted else 3))


def shadow_offset(lifted: bool) -> tuple[int, int]:
    """Where a card's shadow goes relative to the card: the lamp is above the table's middle."""
    pad = 10 if lifted else 6
    dx, dy = SHADOW_OFFSET
    return (dx * (2 if lifted else 1) - pad, dy * (2 if lifted else 1) - pad)


@cache
def pewter_bowl(width: int, height: int) -> pygame.Surface:
    """The pulla: a pewter bowl seen from above the table, lit from above, with its shadow."""
    surface = pygame.Surface((width + 12, height + 14), pygame.SRCALPHA)
    pygame.draw.ellipse(surface, (0, 0, 0, 90), (6, 10, width, height))
    surface = pygame.transform.gaussian_blur(surface, 4)
    for i in range(6):  # the rim: light at the top, darker towards the bottom
        t = i / 5
        pygame.draw.ellipse(surface, _lerp((176, 178, 186), (112, 114, 124), t), (6, 2 + i, width - 12, height - 6))
    inner = pygame.Rect(14, 10, width - 28, height - 20)
    pygame.draw.ellipse(surface, (70, 72, 82), inner)
    pygame.draw.ellipse(surface, (84, 86, 97), inner.inflate(-10, -8).move(0, 3))
    pygame.draw.arc(surface, (210, 212, 220), (8, 3, width - 16, height - 8), 0.6, 2.5, 2)  # the shine
    return ready(surface)


def ready(surface: pygame.Surface) -> pygame.Surface:
    """In the display's pixel format, which blits several times faster (once there is one)."""
    if not pygame.display.get_surface():
        return surface
    return surface.convert_alpha() if surface.get_flags() & pygame.SRCALPHA else surface.convert()
