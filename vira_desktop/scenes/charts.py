"""Small charts drawn with pygame itself: bars and lines on axes, with tick labels, a legend
and a tooltip for the bar or point under the mouse (no plotting library: matplotlib alone
would more than double the installer).

A chart is a value: its data and its place; :meth:`Chart.draw` paints it, :meth:`Chart.hover`
says what lies under a point. The texts it is given are already in the player's language.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field

import pygame

from .theme import INK, MUTED, PANEL, fit_text, font

__all__ = ["Chart", "Series", "draw_tooltip", "nice_ticks"]

Colour = tuple[int, int, int]
GRID = (60, 70, 82)


@dataclass(frozen=True, slots=True)
class Series:
    """One row of values, one a category (None: no value there), in a colour; ``tips``: the
    tooltip of each value (by default the value itself)."""

    name: str
    values: tuple[float | None, ...]
    colour: Colour
    tips: tuple[str, ...] = ()


def nice_ticks(low: float, high: float, most: int = 5, whole: bool = False) -> list[float]:
    """Round values for an axis from ``low`` to ``high`` (0 always among them); ``whole``:
    a count's axis, whole numbers only (no 0.2 or 2.5 of a contract)."""
    low, high = min(low, 0.0), max(high, 0.0)
    if high - low < 1e-9:
        high = low + 1.0
    raw = (high - low) / most
    mag = 10 ** math.floor(math.log10(raw))
    if whole:
        mag = max(mag, 1)
    steps = (1, 2, 5, 10) if whole and mag == 1 else (1, 2, 2.5, 5, 10)
    step = next(m * mag for m in steps if m * mag >= raw)
    ticks = [round(math.floor(low / step) * step, 10)]
    while ticks[-1] < high - 1e-9:  # up to the first tick at or above the highest value
        ticks.append(round(ticks[-1] + step, 10))
    return ticks


@dataclass
class Chart:
    """Bars (``kind`` "bar": the series side by side in each category) or lines ("line":
    a point a category, joined) over ``labels``, in ``rect``."""

    rect: pygame.Rect
    title: str
    labels: Sequence[str]
    series: Sequence[Series]
    kind: str = "bar"
    unit: str = ""  # after each tick value ("%")
    empty: str = ""  # said where there is nothing to chart
    whole: bool = False  # the values are counts: whole-number ticks only
    _spots: list[tuple[pygame.Rect, str]] = field(default_factory=list, init=False, repr=False)

    def _scale(self) -> tuple[list[float], pygame.Rect]:
        values = [v for s in self.series for v in s.values if v is not None]
        ticks = nice_ticks(min(values, default=0.0), max(values, default=1.0), whole=self.whole)
        plot = pygame.Rect(self.rect.x + 52, self.rect.y + 30, self.rect.w - 62, self.rect.h - 78)
        return ticks, plot

    def _y(self, value: float, ticks: list[float], plot: pygame.Rect) -> int:
        low, high = ticks[0], ticks[-1]
        return int(plot.bottom - (value - low) / (high - low) * plot.h)

    def draw(self, surface: pygame.Surface) -> None:
        pygame.draw.rect(surface, PANEL, self.rect, border_radius=6)
        surface.blit(font(15, True).render(fit_text(self.title, 15, True, self.rect.w - 16), True, INK),
                     (self.rect.x + 8, self.rect.y + 6))  # fmt: skip
        self._spots = []
        if not self.labels or not any(v is not None for s in self.series for v in s.values):
            note = font(13).render(self.empty, True, MUTED)
            surface.blit(note, note.get_rect(center=self.rect.center))
            return
        ticks, plot = self._scale()
        small = font(11)
        for tick in ticks:  # the grid and the value axis
            y = self._y(tick, ticks, plot)
            pygame.draw.line(surface, GRID if tick else MUTED, (plot.x, y), (plot.right, y))
            text = f"{tick:g}{self.unit}".replace("-", "−")
            label = small.render(text, True, MUTED)
            surface.blit(label, label.get_rect(midright=(plot.x - 4, y)))
        n = len(self.labels)
        band = plot.w / n
        every = max(1, math.ceil(n * 46 / plot.w))  # category labels that fit: every so many
        for i, text in enumerate(self.labels):
            if i % every == 0:
                label = small.render(fit_text(text, 11, False, int(band * every) - 2), True, MUTED)
                surface.blit(label, label.get_rect(midtop=(plot.x + band * (i + 0.5), plot.bottom + 3)))
        zero = self._y(0.0, ticks, plot)
        if self.kind == "bar":
            width = max(2, min(56, int(band * 0.8 / len(self.series))))
            inset = (band - width * len(self.series)) / 2
            for k, s in enumerate(self.series):
                for i, v in enumerate(s.values):
                    if v is None:
                        continue
                    x = int(plot.x + band * i + inset + k * width)
                    y = self._y(v, ticks, plot)
                    bar = pygame.Rect(x, min(y, zero), width - 1, max(1, abs(zero - y)))
                    pygame.draw.rect(surface, s.colour, bar)
                    self._spot(bar.inflate(0, 6), s, i, v)
        else:
            for s in self.series:
                points = [
                    (int(plot.x + band * (i + 0.5)), self._y(v, ticks, plot))
                    for i, v in enumerate(s.values)
                    if v is not None
                ]
                if len(points) > 1:
                    pygame.draw.lines(surface, s.colour, False, points, 2)
                values = [(i, v) for i, v in enumerate(s.values) if v is not None]
                for (i, v), point in zip(values, points, strict=True):
                    pygame.draw.circle(surface, s.colour, point, 3)
                    self._spot(pygame.Rect(point[0] - 6, point[1] - 6, 12, 12), s, i, v)
        self._legend(surface)

    def _spot(self, rect: pygame.Rect, s: Series, i: int, v: float) -> None:
        tip = s.tips[i] if i < len(s.tips) else f"{self.labels[i]}: {v:g}{self.unit}"
        self._spots.append((rect, tip))

    def _legend(self, surface: pygame.Surface) -> None:
        if len(self.series) < 2:
            return
        x = self.rect.right - 10
        for s in reversed(self.series):
            label = font(11).render(s.name, True, INK)
            x -= label.get_width()
            surface.blit(label, (x, self.rect.y + 9))
            x -= 14
            pygame.draw.rect(surface, s.colour, (x, self.rect.y + 11, 10, 10))
            x -= 12

    def hover(self, pos: tuple[int, int]) -> str | None:
        """The tooltip of the bar or point at ``pos`` (as last drawn), if any."""
        for rect, tip in self._spots:
            if rect.collidepoint(pos):
                return tip
        return None


def draw_tooltip(surface: pygame.Surface, text: str, pos: tuple[int, int]) -> None:
    """``text`` in a small box beside the mouse, kept inside the window."""
    label = font(13).render(text, True, INK)
    box = label.get_rect(topleft=(pos[0] + 14, pos[1] + 10)).inflate(12, 8)
    box.clamp_ip(surface.get_rect())
    pygame.draw.rect(surface, (10, 14, 18), box, border_radius=4)
    pygame.draw.rect(surface, MUTED, box, 1, border_radius=4)
    surface.blit(label, label.get_rect(center=box.center))
