"""Every scene by name: a frozen app cannot list folders, so they are registered here. Each
scene's class is its typed factory: ``(app, **its own arguments)``."""

from __future__ import annotations

from collections.abc import Callable

from .analysis import AnalysisScene
from .base import AppPort, Scene, SceneName
from .friends import FriendsScene, FriendsTableScene, HostFormScene, JoinFormScene, LobbyScene
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

__all__ = ["SCENES", "make"]

SCENES: dict[SceneName, Callable[..., Scene]] = {
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
    "friends": FriendsScene,
    "friends_host": HostFormScene,
    "friends_join": JoinFormScene,
    "lobby": LobbyScene,
    "friends_table": FriendsTableScene,
}


def make(name: SceneName, app: AppPort, **kwargs: object) -> Scene:
    """The scene named ``name``, made for ``app`` with the scene's own arguments."""
    if name not in SCENES:
        raise KeyError(f"no scene named {name!r} (known: {', '.join(SCENES)})")
    return SCENES[name](app, **kwargs)
