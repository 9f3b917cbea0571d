"""Bots: each sees only its seat's view and answers with an action and a reason."""

from .base import Bot, Choice
from .random_bot import RandomBot

__all__ = ["Bot", "Choice", "RandomBot", "make_bot"]


def make_bot(level: str, seed: int = 0) -> Bot:
    """A bot of the named level (``random``; more levels come with the AI issue)."""
    if level == "random":
        return RandomBot(seed)
    raise ValueError(f"unknown bot level: {level!r} (available: random)")
