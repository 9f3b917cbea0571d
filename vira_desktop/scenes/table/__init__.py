"""The card table: a view of the game that live play, a deal record or a lesson drives."""

from .scene import ReplayScene, TableScene

__all__ = ["ReplayScene", "TableScene"]
