"""Bots: each sees only its seat's view and answers with an action and a reason."""

from .base import Bot, Choice, Outlook
from .normal import EasyBot, NormalBot
from .random_bot import RandomBot

__all__ = ["LEVELS", "Bot", "Choice", "EasyBot", "NormalBot", "Outlook", "RandomBot", "make_bot"]

LEVELS = ("random", "easy", "normal")


def make_bot(level: str, seed: int = 0) -> Bot:
    """A bot of the named level: ``random``, ``easy`` or ``normal``."""
    if level == "random":
        return RandomBot(seed)
    if level == "easy":
        return EasyBot(seed)
    if level == "normal":
        return NormalBot(seed)
    raise ValueError(f"unknown bot level: {level!r} (available: {', '.join(LEVELS)})")
