"""Tweens on the frame clock: every animation of the window (cards, tokens, the seating
draw) moves an attribute from one value to another over frames, never over wall time.

A new tween on the same attribute of the same object replaces the old one;
:meth:`Tweens.finish_all` jumps every tween to its end ("instant" speed, or a
test that wants the end state now).

>>> class Box:
...     x = 0.0
>>> box, tweens = Box(), Tweens()
>>> _ = tweens.add(box, "x", 10.0, 1.0, "linear")
>>> tweens.update(0.25); box.x
2.5
>>> _ = tweens.add(box, "x", 0.0, 0.5, "linear"); tweens.finish_all(); box.x, tweens.active
(0.0, False)
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass

__all__ = ["EASINGS", "Tween", "Tweens"]

Easing = Callable[[float], float]


def _smooth(u: float) -> float:
    return u * u * (3 - 2 * u)


def _out_cubic(u: float) -> float:
    return 1 - (1 - u) ** 3


def _out_back(u: float) -> float:
    c = 1.4
    return 1 + (c + 1) * (u - 1) ** 3 + c * (u - 1) ** 2


EASINGS: dict[str, Easing] = {
    "linear": lambda u: u,
    "smooth": _smooth,  # ease in and out
    "out_cubic": _out_cubic,  # fast start, gentle landing: cards dealt and played
    "out_back": _out_back,  # a small overshoot: a token dropping into a bowl
    "out_sine": lambda u: math.sin(u * math.pi / 2),
}


@dataclass
class Tween:
    """``target.attr`` from ``start`` to ``end`` over ``duration`` seconds after ``delay``."""

    target: object
    attr: str
    start: float
    end: float
    duration: float
    easing: Easing
    delay: float = 0.0
    elapsed: float = 0.0

    @property
    def done(self) -> bool:
        return self.elapsed >= self.delay + self.duration

    @property
    def started(self) -> bool:
        return self.elapsed >= self.delay

    def advance(self, dt: float) -> None:
        self.elapsed += dt
        if self.elapsed < self.delay:
            return
        u = 1.0 if self.duration <= 0 else min(1.0, (self.elapsed - self.delay) / self.duration)
        setattr(self.target, self.attr, self.start + (self.end - self.start) * self.easing(u))


class Tweens:
    """The tweens a scene owns, advanced once a frame by the frame's ``dt``."""

    def __init__(self) -> None:
        self._tweens: dict[tuple[int, str], Tween] = {}

    def add(
        self, target: object, attr: str, end: float, duration: float, easing: str = "smooth", delay: float = 0.0
    ) -> Tween:
        """Move ``target.attr`` to ``end``; replaces a tween already moving that attribute."""
        tween = Tween(target, attr, float(getattr(target, attr)), end, duration, EASINGS[easing], delay)
        self._tweens[(id(target), attr)] = tween
        if duration <= 0 and delay <= 0:
            tween.advance(0.0)
            del self._tweens[(id(target), attr)]
        return tween

    def cancel(self, target: object) -> None:
        """Stop every tween of ``target`` where it is."""
        for key in [k for k in self._tweens if k[0] == id(target)]:
            del self._tweens[key]

    def moving(self, target: object) -> bool:
        return any(k[0] == id(target) for k in self._tweens)

    def update(self, dt: float) -> None:
        for key, tween in list(self._tweens.items()):
            tween.advance(dt)
            if tween.done:
                del self._tweens[key]

    def finish_all(self) -> None:
        for tween in self._tweens.values():
            tween.elapsed = tween.delay + tween.duration
            tween.advance(0.0)
        self._tweens.clear()

    @property
    def active(self) -> bool:
        return bool(self._tweens)
