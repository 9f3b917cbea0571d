"""Every scene by name: a frozen app cannot list folders, so they are registered here."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from .analysis import AnalysisScene
from .base import Scene
from .history import HistoryScene, PlayAgainScene, StatisticsScene
from .menu import MenuScene, NewGameScene, SettingsScene
from .overlays import (
    BidTableScene,
    GlossaryScene,
    LastTrickScene,
    ScoreSheetScene,
    SettlementScene,
    TrickHistoryScene,
)
from .table import ReplayScene, TableScene
from .table.lesson import LessonScene, PracticeScene
from .tutorial import TutorialScene

if TYPE_CHECKING:
    from .app import App

__all__ = ["SCENES", "make"]

SCENES: dict[str, Callable[..., Scene]] = {
    "menu": MenuScene,
    "new_game": NewGameScene,
    "settings": SettingsScene,
    "table": TableScene,
    "replay": ReplayScene,
    "score_sheet": ScoreSheetScene,
    "bid_table": BidTableScene,
    "glossary": GlossaryScene,
    "tricks": TrickHistoryScene,
    "last_trick": LastTrickScene,
    "analysis": AnalysisScene,
    "settlement": SettlementScene,
    "tutorial": TutorialScene,
    "lesson": LessonScene,
    "practice": PracticeScene,
    "history": HistoryScene,
    "statistics": StatisticsScene,
    "play_again": PlayAgainScene,
}


def make(name: str, app: App, **kwargs: Any) -> Scene:
    if name not in SCENES:
        raise KeyError(f"no scene named {name!r} (known: {', '.join(SCENES)})")
    return SCENES[name](app, **kwargs)
