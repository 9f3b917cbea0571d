"""Practice this contract: random deals, kept only when the learner's hand suits the
chapter's games (by the normal bot's own odds for the hand), to play against the bots."""

from __future__ import annotations

import random

from ..ai.normal import NormalBot
from ..rules.deal import Deal
from ..rules.games import GAMES

__all__ = ["CHAPTER_GAMES", "practice_deal"]

CHAPTER_GAMES: dict[str, tuple[str, ...]] = {
    "buying": ("begär", "7-spel", "8-spel", "9-spel"),
    "turned": tuple(g.name for g in GAMES if g.name.split()[0] in ("turné", "vingel", "tringel")),
    "gask": tuple(g.name for g in GAMES if g.name.startswith("gask")),
    "gok": ("gök",),
    "laggard": ("gök",),
    "kopmisar": tuple(g.name for g in GAMES if g.name.startswith("köpmisär")),
    "solo": tuple(g.name for g in GAMES if g.name.startswith("solo") and g.misere is None),
    "solo_misere": tuple(g.name for g in GAMES if g.name.startswith("solo") and g.misere is not None),
    "vira": ("vira",),
}


def practice_deal(chapter: str, seed: int, tries: int = 200) -> tuple[int, str | None]:
    """The number of a deal whose forehand (the learner) holds a hand for one of ``chapter``'s
    games, and that game: the best of ``tries`` deals (any deal, and ``None``, for a chapter
    without games of its own). Slow for rare games: run it off the frame loop."""
    rng = random.Random(seed)
    games = CHAPTER_GAMES.get(chapter, ())
    if not games:
        return rng.getrandbits(40), None
    best: tuple[float, int, str] | None = None
    bot = NormalBot(seed)
    for _ in range(tries):
        number = rng.getrandbits(40)
        deal = Deal.from_number(number)
        odds = bot.odds(deal.view(0))
        chance, name = max((max(odds[g].chance), g) for g in games)
        if best is None or chance > best[0]:
            best = (chance, number, name)
        if chance >= 0.6:
            break
    assert best is not None
    return best[1], best[2]
