"""'Could I have won?': a finished deal's double-dummy analysis, the line played beside the
best line, trick by trick (the analysis comes worked out, from the worker)."""

from __future__ import annotations

from collections.abc import Sequence

import pygame

from ..i18n import t
from ..rules.cards import Card, Suit
from ..session.analysis import Analysis, Costly
from ..session.describe import is_you
from ..session.words import card_text
from .base import AppPort
from .overlays import _Sheet
from .theme import GOLD, GOOD, INK, MUTED, RED, fit_text, font, wrap_text

__all__ = ["AnalysisScene", "verdict"]

ROW_H = 36
TOP = 236
COLUMNS = (30, 660)  # the line played, the best line
COLUMN_W = 590


def _home(info: Analysis, tricks: int) -> bool:
    return tricks == 0 if info.low else tricks >= info.need


def on_side(info: Analysis, viewer: str, name: str) -> bool:
    """Whether ``name`` plays on ``viewer``'s side: the declarer alone, or the two defenders."""
    return (name == info.declarer) == (viewer == info.declarer)


def _listed(costly: Sequence[Costly], gift: bool = False) -> str:
    """Costly cards as the sheet lists them: what each cost its side (or gave the other)."""
    key = "analysis.gift_card" if gift else "analysis.costly_card"
    said = [t(key, trick=c.trick, name=c.seat, card=card_text(c.card), lost=c.lost) for c in costly[:6]]
    return ", ".join(said)


def verdict(info: Analysis, viewer: str) -> tuple[str, list[str]]:
    """The sheet's title and its first lines, for the player ``viewer``: could their side have
    won (or done better), and what the cards allowed."""
    declarer, taken, allowed = info.declarer, info.taken, info.allowed
    mine = viewer == declarer
    home = _home(info, taken)
    won = home == mine
    title = t("analysis.title_better" if won else "analysis.title_won")
    game = info.game.name if info.game else None
    lines = [t("analysis.played", name=declarer, game=game, taken=taken)]
    could = _home(info, allowed)
    need = t("analysis.need_none") if info.low else t("analysis.need", need=info.need)
    if could == home:
        key = "analysis.same_home" if home else "analysis.same_down"
    else:
        key = "analysis.allowed_home" if could else "analysis.allowed_down"
    lines.append(t(key, allowed=allowed, need=need))
    games = info.other_games
    if games:
        trumps = [f"{Suit.parse(k).symbol} {v}" for k, v in games.items() if k in ("S", "H", "D", "C")]
        if "none" in games:
            trumps.append(t("analysis.no_trump", tricks=games["none"]))
        if trumps:
            lines.append(t("analysis.other_games", games=" · ".join(trumps), misere=games["misère"]))
        else:  # the declarer set cards aside: a misère's figure alone
            lines.append(t("analysis.other_games_misere", misere=games["misère"]))
    ours = [c for c in info.costly if on_side(info, viewer, c.seat)]
    theirs = [c for c in info.costly if not on_side(info, viewer, c.seat)]
    if ours:
        lines.append(t("analysis.costly_ours", cards=_listed(ours)))
    else:
        lines.append(t("analysis.no_costly_ours"))
    if theirs:
        lines.append(t("analysis.costly_theirs", cards=_listed(theirs, gift=True)))
    turn = info.diverges
    if turn is not None:
        final = info.best_line[-1].declarer_tricks if info.best_line else allowed
        you, first = turn.seat == viewer, turn.index == 0
        if first:
            key = "analysis.show_me_you_first" if you else "analysis.show_me_first"
        else:
            key = "analysis.show_me_you" if you else "analysis.show_me"
        lines.append(t(key, trick=turn.trick, name=turn.seat, final=final))
    return title, lines


class AnalysisScene(_Sheet):
    """The analysis of the deal just played (or of a record): the verdict, the cards that gave
    up tricks, and the line played beside the best line."""

    close_key = pygame.K_a  # the title is the verdict's (drawn by draw)

    def __init__(self, app: AppPort, info: Analysis, viewer: str) -> None:
        super().__init__(app)
        self.info = info
        self.viewer = viewer
        self.top, self.row_h = TOP, ROW_H  # where the tricks' rows begin, and their height

    def draw(self, surface: pygame.Surface) -> None:
        super().draw(surface)
        info = self.info
        title, lines = verdict(info, self.viewer)
        surface.blit(font(26, True).render(title, True, GOLD), (30, 18))
        y = 64
        for line in lines:
            for part in wrap_text(line, 16, False, 1220):
                surface.blit(font(16).render(part, True, INK), (30, y))
                y += 21
        self.top = max(TOP, y + 46)  # below the verdict however long it runs (Finnish runs long)
        self.row_h = min(ROW_H, (738 - self.top) // 13)
        turn = info.diverges
        best = t("analysis.best_from", trick=turn.trick) if turn is not None else t("analysis.best_line")
        heads = (t("analysis.as_played"), best)
        for x, head in zip(COLUMNS, heads, strict=True):
            surface.blit(font(17, True).render(head, True, GOLD), (x, self.top - 30))
        if any(c.also for trick in info.best_line for c in trick.cards):  # the "=" after a card
            legend = font(13).render(t("analysis.as_good"), True, MUTED)
            surface.blit(legend, (COLUMNS[1] + COLUMN_W - legend.get_width(), self.top - 27))
        for i, trick in enumerate(info.tricks):
            sign = {c.seat: 1 if on_side(info, self.viewer, c.seat) else -1 for c in trick.cards}
            played_cards = [(c.seat, c.card, c.lost * sign[c.seat], False) for c in trick.cards]
            self._row(surface, COLUMNS[0], i, trick.trick, played_cards, trick.declarer_tricks)
        played = [[(c.seat, c.card) for c in trick.cards] for trick in info.tricks]
        n = 0
        for i, best_trick in enumerate(info.best_line):
            cards: list[tuple[str, Card, int | None, bool]] = []
            for c in best_trick.cards:
                cards.append((c.seat, c.card, None if turn is not None and n == turn.index else 0, bool(c.also)))
                n += 1
            same = i < len(played) and played[i] == [(c.seat, c.card) for c in best_trick.cards]
            self._row(surface, COLUMNS[1], i, i + 1, cards, best_trick.declarer_tricks, muted=same)
        declarer = info.declarer  # "You" takes no "'s": the player's own text
        said = t("analysis.foot_you") if is_you(declarer) else t("analysis.foot", name=declarer)
        foot = wrap_text(said, 13, False, 1060)
        for k, part in enumerate(foot[:2]):
            surface.blit(font(13).render(part, True, MUTED), (30, 760 - 17 * (len(foot[:2]) - k)))

    def _row(
        self,
        surface: pygame.Surface,
        x: int,
        i: int,
        number: int,
        # seat, card, tricks it cost your side (- gave; None: the turn), another card as good
        cards: Sequence[tuple[str, Card, int | None, bool]],
        count: int | None,
        muted: bool = False,
    ) -> None:
        y = self.top + i * self.row_h
        f = font(15)
        surface.blit(f.render(f"{number:>2}.", True, MUTED), (x, y))
        cx = x + 36
        room = (COLUMN_W - 36 - (60 if count is not None else 0)) // 3
        for seat, card, lost, alike in cards:
            text = f"{fit_text(seat, 15, False, room - 70)} {card_text(card)}"
            colour = GOLD if lost is None else RED if lost > 0 else GOOD if lost < 0 else MUTED if muted else INK
            mark = f" −{lost}" if lost and lost > 0 else f" +{-lost}" if lost and lost < 0 else " =" if alike else ""
            surface.blit(f.render(text + mark, True, colour), (cx, y))
            cx += room
        if count is not None:
            surface.blit(f.render(f"({count})", True, MUTED if muted else GOLD), (x + COLUMN_W - 50, y))
