"""A checkpoint's verdict told in the learner's language: its text, then the facts of the
answer given (see :mod:`.judge`); a question's choices and what a wrong one would mean
(see :mod:`.question`)."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from ..i18n import t
from ..rules.actions import Bid
from ..rules.cards import Card
from ..rules.games import BID_GROUPS, Game
from ..session.words import bets_and_pins, card_text, say_action
from .judge import Detail, Kind, Verdict
from .question import ROLES, Choice, Fact, QuestionVerdict

__all__ = ["fact_text", "goal", "question_label", "tell", "tell_choice"]


def goal(game: Game) -> str:
    """What ``game`` needs to go home, in a few words ("8 tricks", "7 tricks high, none low")."""
    if game.is_low:
        return t("lesson.ui.judge.goal_none")
    if game.can_play_low:
        return t("lesson.ui.judge.goal_high_low", count=game.tricks)
    return t("lesson.ui.judge.goal", count=game.tricks)


def _cards(cards: Iterable[Card]) -> str:
    return " ".join(card_text(c) for c in cards)


def _chooses(action: object) -> bool:
    """``action`` is a bid without a level whose declarer chooses the level once it is
    passed (gask, köpmisär, solo; a turné or vingel is played at the lowest that outbids)."""
    return isinstance(action, Bid) and action.game is None and BID_GROUPS.get(action.group or "", ((), False))[1]


def _facts(d: Detail, also: bool = False) -> list[str]:
    """The facts of the answer given; ``also``: an answer as good as the lesson's, which goes
    on with its own (the cards it kept are said as they would have been)."""
    yours, main = say_action(d.yours), say_action(d.main)
    if d.what == "same":
        return [t("lesson.ui.judge.same", yours=yours, action=main)]
    if d.what == "bid" and d.main_game is not None:
        lesson = {"action": main, "main_row": d.main_game.no, "main_goal": goal(d.main_game)}
        if d.your_game is None:
            return [t("lesson.ui.judge.passed", **lesson)]
        return [t("lesson.ui.judge.bid", yours=yours, row=d.your_game.no, goal=goal(d.your_game), **lesson)]
    if d.what == "level":
        lines = []
        if d.trumps:
            names = [t(f"words.suit.{suit.name}") for suit in d.trumps]
            named = t("lesson.ui.judge.either", first=names[0], second=names[1]) if len(names) == 2 else names[0]
            lines.append(t("lesson.ui.judge.binds", yours=yours, suits=named))
        if _chooses(d.main) and not _chooses(d.yours) and d.your_game is not None:
            # "solo" is not "solo 6" said another way: passed, its declarer chooses the level
            lines.append(t("lesson.ui.judge.fixes_level", yours=yours, game=d.your_game.name, action=main))
        elif isinstance(d.yours, Bid) and d.yours.game is None and d.your_game is not None and not d.trumps:
            key = "unspecified" if _chooses(d.yours) else "unspecified_fixed"
            lines.append(t(f"lesson.ui.judge.{key}", yours=yours, game=d.your_game.name))
        elif not d.trumps:
            lines.append(t("lesson.ui.judge.same_game", yours=yours, action=main))
        return lines
    if d.what == "cards":
        kept, gone = ("kept_also", "gone_also") if also else ("kept", "gone")
        lines = [t(f"lesson.ui.judge.{kept}", cards=_cards(d.kept), count=len(d.kept))] if d.kept else []
        if d.gone:
            lines.append(t(f"lesson.ui.judge.{gone}", cards=_cards(d.gone), count=len(d.gone)))
        return lines
    return [t(f"lesson.ui.judge.{d.what}", yours=yours, action=main)]


def tell(verdict: Verdict) -> str:
    """What the learner is told of ``verdict``."""
    d = verdict.detail
    if d is not None and d.what == "equal" and d.twin is not None and verdict.like is not None:
        said = [t("lesson.ui.same_card", yours=say_action(d.yours), card=say_action(d.twin)), tell(verdict.like)]
        if verdict.like.kind is Kind.RIGHT:
            said.append(t("lesson.ui.goes_on", action=say_action(d.main)))
        return " ".join(said)
    if d is not None and d.what == "solver":
        yours, main = say_action(d.yours), say_action(d.main)
        return t("lesson.ui.solver_good", yours=yours, action=main, tricks=d.tricks)
    if d is not None and d.what == "seen":
        yours, main = say_action(d.yours), say_action(d.main)
        return t("lesson.ui.seen_good", yours=yours, action=main, layouts=d.layouts)
    if verdict.kind is Kind.ALSO_GOOD and not verdict.own and d is not None:
        lines = [t("lesson.ui.also_right", yours=say_action(d.yours), action=say_action(d.main))]
    else:
        lines = [t(f"lesson.{verdict.say}")]
    # what the answer is (for one as good: which cards differ), unless its own text says it
    told = verdict.own and d is not None and d.what == "level"
    if d is not None and (verdict.kind is not Kind.ALSO_GOOD or d.what == "cards") and not told:
        lines += _facts(d, also=verdict.kind is Kind.ALSO_GOOD)
    elif verdict.kind is Kind.ALSO_GOOD and verdict.own and d is not None:  # its own words, then the swap said
        lines.append(t("lesson.ui.goes_on", action=say_action(d.main)))
    text = " ".join(lines)
    return text[:1].upper() + text[1:]  # it may open with an action ("exchange 8♦ …")


# ---------------------------------------------------------------------- question checkpoints
def _pins(n: int) -> str:
    """A result in pins, signed ("−12 pins", "+7 pins")."""
    return ("−" if n < 0 else "+" if n > 0 else "") + t("words.pins", count=abs(n))


def _name(name: str, you: str | None) -> str:
    """A player's name; the learner's is "You" in the learner's language."""
    return t("new_game.you") if name == you else name


def question_label(choice: Choice, kind: str, you: str | None = None) -> str:
    """A choice as its button says it: a name (two: "Anna + Bertil"), bets, pins, bets and
    pins; ``you``: the learner's name, said "You"."""
    if choice.names:
        return " + ".join(_name(name, you) for name in choice.names)
    if kind == "share":
        return bets_and_pins(choice.amount).lstrip("+")
    bets = t("words.bets", count=choice.amount) if choice.amount else t("lesson.ui.question.no_bets")
    return t("lesson.ui.question.and_pins", bets=bets) if choice.pins else bets


def _said(value: Any, you: str | None) -> Any:
    """A fact's value in words: a card, cards, a role, a name."""
    if value == you and you is not None:
        return t("new_game.you")
    if isinstance(value, Card):
        return card_text(value)
    if isinstance(value, tuple):
        return _cards(value)
    if isinstance(value, str) and value in ROLES:
        return t(f"lesson.ui.question.role.{value}")
    return value


def fact_text(fact: Fact, you: str | None = None) -> str:
    """What a wrong choice would mean, in the learner's language (``you``: the learner's name)."""
    values = {k: _said(v, you) for k, v in fact.values.items()}
    what = fact.what
    if what.startswith("remainder"):
        values.update({k: _pins(int(v)) for k, v in fact.values.items() if k in ("a", "b", "c")})
    if what == "bet_in":
        meant = Choice("", amount=int(fact.values["bets"]), pins=int(fact.values["pins"]))
        values["choice"] = question_label(meant, "bet_in")
        values["case"] = t(f"lesson.ui.question.case.{fact.values['case']}")
    if what in ("share_over", "share_under"):
        values["each"] = bets_and_pins(int(fact.values["each"])).lstrip("+")
    if what == "laid" and not fact.values["cards"]:
        what = "laid_none"
    return t(f"lesson.ui.question.{what}", **values)


def tell_choice(verdict: QuestionVerdict, you: str | None = None) -> str:
    """What the learner is told of a choice: a wrong one's meaning first, then the principle."""
    said = t(f"lesson.{verdict.say}")
    return f"{fact_text(verdict.fact, you)} {said}" if verdict.fact is not None else said
