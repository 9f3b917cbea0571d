"""A checkpoint's verdict told in the learner's language: its text, then the facts of the
answer given (see :mod:`.judge`)."""

from __future__ import annotations

from collections.abc import Iterable

from ..i18n import t
from ..rules.actions import Bid
from ..rules.cards import Card
from ..rules.games import Game
from ..session.words import card_text, say_action
from .judge import Detail, Kind, Verdict

__all__ = ["goal", "tell"]


def goal(game: Game) -> str:
    """What ``game`` needs to go home, in a few words ("8 tricks", "7 tricks high, none low")."""
    if game.is_low:
        return t("lesson.ui.judge.goal_none")
    if game.can_play_low:
        return t("lesson.ui.judge.goal_high_low", count=game.tricks)
    return t("lesson.ui.judge.goal", count=game.tricks)


def _cards(cards: Iterable[Card]) -> str:
    return " ".join(card_text(c) for c in cards)


def _facts(d: Detail) -> list[str]:
    yours, main = say_action(d.yours), say_action(d.main)
    if d.what == "same":
        return [t("lesson.ui.judge.same", yours=yours, action=main)]
    if d.what == "bid" and d.main_game is not None:
        lesson = {"action": main, "main_row": d.main_game.no, "main_goal": goal(d.main_game)}
        if d.your_game is None:
            return [t("lesson.ui.judge.passed", **lesson)]
        return [t("lesson.ui.judge.bid", yours=yours, row=d.your_game.no, goal=goal(d.your_game), **lesson)]
    if d.what == "level":
        if d.trumps:
            names = [t(f"words.suit.{suit.name}") for suit in d.trumps]
            named = t("lesson.ui.judge.either", first=names[0], second=names[1]) if len(names) == 2 else names[0]
            return [t("lesson.ui.judge.binds", yours=yours, suits=named)]
        if isinstance(d.yours, Bid) and d.yours.game is None and d.your_game is not None:
            return [t("lesson.ui.judge.unspecified", yours=yours, game=d.your_game.name)]
        return [t("lesson.ui.judge.same_game", yours=yours, action=main)]
    if d.what == "cards":
        lines = [t("lesson.ui.judge.kept", cards=_cards(d.kept))] if d.kept else []
        if d.gone:
            lines.append(t("lesson.ui.judge.gone", cards=_cards(d.gone)))
        return lines
    return [t(f"lesson.ui.judge.{d.what}", yours=yours, action=main)]


def tell(verdict: Verdict) -> str:
    """What the learner is told of ``verdict``."""
    d = verdict.detail
    if verdict.kind is Kind.ALSO_GOOD and not verdict.own and d is not None:
        lines = [t("lesson.ui.also_right", yours=say_action(d.yours), action=say_action(d.main))]
    else:
        lines = [t(f"lesson.{verdict.say}")]
    # what the answer is (for one as good: which cards differ), unless its own text says it
    told = verdict.own and d is not None and d.what == "level"
    if d is not None and (verdict.kind is not Kind.ALSO_GOOD or d.what == "cards") and not told:
        lines += _facts(d)
    return " ".join(lines)
