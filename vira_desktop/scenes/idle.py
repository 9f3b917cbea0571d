"""Sleeping until input: the window's wait when nothing moves.

pygame-ce's ``pygame.event.wait(timeout)`` polls (it pumps and sleeps a millisecond at a
time, measured here at 6-7% of a core while waiting), so the window waits in SDL's own
``SDL_WaitEventTimeout`` instead, called with no event to fill: it blocks on the display
connection until input comes or the timeout passes, and leaves the event in the queue for
the next frame. Where SDL's library cannot be found (an unusual build), the wait falls
back to short sleeps between looks at the queue.
"""

from __future__ import annotations

import ctypes
import glob
import logging
import os
import sys
import time
from collections.abc import Callable
from functools import cache

import pygame

__all__ = ["wait_for_input"]

log = logging.getLogger(__name__)

POLL_S = 0.02  # the fallback's look at the queue: input waits at most this long


def _candidates() -> list[str]:
    """Where pygame-ce's own SDL library lies: in the wheel (Linux, macOS, Windows) or the
    frozen bundle (beside the pygame package, or in the bundle's folder)."""
    here = os.path.dirname(pygame.__file__)
    patterns = [
        os.path.join(here, "..", "pygame_ce.libs", "libSDL2-*.so*"),  # Linux wheel
        os.path.join(here, ".dylibs", "libSDL2*.dylib"),  # macOS wheel
        os.path.join(here, "SDL2.dll"),  # Windows wheel
        os.path.join(here, "libSDL2*.so*"),
    ]
    bundle = getattr(sys, "_MEIPASS", None)  # PyInstaller
    if bundle:
        patterns += [os.path.join(bundle, name) for name in ("pygame_ce.libs/libSDL2-*.so*", "libSDL2*", "SDL2.dll")]
    return [path for pattern in patterns for path in sorted(glob.glob(pattern))]


@cache
def _sdl_wait() -> Callable[[int], int] | None:
    for path in _candidates():
        try:
            lib = ctypes.CDLL(path)
            wait = lib.SDL_WaitEventTimeout
        except (OSError, AttributeError):
            continue
        wait.argtypes = [ctypes.c_void_p, ctypes.c_int]
        wait.restype = ctypes.c_int
        return lambda ms: int(wait(None, ms))
    log.info("SDL's event wait was not found: the idle window looks for input every %d ms", POLL_S * 1000)
    return None


def wait_for_input(seconds: float) -> bool:
    """Sleep until an event is queued or ``seconds`` pass (``True``: an event came). The
    event stays in the queue."""
    wait = _sdl_wait()
    if wait is not None:
        return bool(wait(max(1, int(seconds * 1000))))
    deadline = time.monotonic() + seconds
    while not pygame.event.peek():
        left = deadline - time.monotonic()
        if left <= 0:
            return False
        time.sleep(min(POLL_S, left))
    return True
