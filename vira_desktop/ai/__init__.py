"""Bots: each sees only its seat's view and answers with an action and a reason."""

from .base import Bot, Choice, Outlook
from .normal import EasyBot, NormalBot
from .random_bot import RandomBot
from .strong import Budget, StrongBot

__all__ = ["LEVELS", "Bot", "Budget", "Choice", "EasyBot", "NormalBot", "Outlook", "RandomBot", "StrongBot", "make_bot"]

LEVELS = ("random", "easy", "normal", "strong")


def make_bot(level: str, seed: int = 0, budget: Budget | None = None) -> Bot:
    """A bot of the named level: ``random``, ``easy``, ``normal`` or ``strong`` (``budget``:
    how long the strong bot thinks; by default the window's)."""
    if level == "random":
        return RandomBot(seed)
    if level == "easy":
        return EasyBot(seed)
    if level == "normal":
        return NormalBot(seed)
    if level == "strong":
        return StrongBot(seed, budget)
    raise ValueError(f"unknown bot level: {level!r} (available: {', '.join(LEVELS)})")
