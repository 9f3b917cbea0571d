"""The compiled helper ``_native`` (C, built by ``setup.py`` where a compiler is found).

It computes the hand evaluator's hottest figures, bit for bit the same as the Python code
it stands in for (tests/test_native.py), several times faster. Without it everything
runs on the pure-Python code; ``VIRA_PURE_PYTHON=1`` asks for that on purpose.
"""

from __future__ import annotations

import importlib
import os
import sys
from types import ModuleType

__all__ = ["NATIVE", "load", "notice", "warn_once"]


def load() -> ModuleType | None:
    """The compiled module, or None where it is not built or turned off."""
    if os.environ.get("VIRA_PURE_PYTHON"):
        return None
    try:
        return importlib.import_module("._native", __package__)
    except ImportError:
        return None


NATIVE = load()


def notice() -> str | None:
    """One line for the player when the compiled helper is missing (None when all is well
    or the pure-Python code was asked for)."""
    if NATIVE is not None or os.environ.get("VIRA_PURE_PYTHON"):
        return None
    return "vira: the compiled helper is not built (no C compiler at install?): bots use the slower pure-Python code"


_warned = False


def warn_once() -> None:
    """Print :func:`notice` on stderr, once a process."""
    global _warned
    line = notice()
    if line and not _warned:
        print(line, file=sys.stderr)
    _warned = True
