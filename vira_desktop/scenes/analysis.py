"""'Could I have won?': a finished deal's double-dummy analysis, the line played beside the
best line, trick by trick (the analysis comes worked out, from the worker)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import pygame

from ..i18n import t
from ..rules.cards import Card, Suit
from ..session.describe import is_you
from ..session.words import card_text
from .overlays import _Sheet
from .theme import GOLD, INK, MUTED, RED, fit_text, font, wrap_text

if TYPE_CHECKING:
    from .app import App

__all__ = ["AnalysisScene", "verdict"]

ROW_H = 36
TOP = 236
COLUMNS = (30, 660)  # the line played, the best line
COLUMN_W = 590


def _card(text: str) -> str:
    return card_text(Card.parse(text))


def _home(info: dict[str, Any], tricks: int) -> bool:
    return tricks == 0 if info["low"] else tricks >= info["need"]


def verdict(info: dict[str, Any], viewer: str) -> tuple[str, list[str]]:
    """The sheet's title and its first lines, for the player ``viewer``: could their side have
    won (or done better), and what the cards allowed."""
    declarer, taken, allowed = info["declarer"], info["taken"], info["allowed"]
    mine = viewer == declarer
    home = _home(info, taken)
    won = home == mine
    title = t("analysis.title_better" if won else "analysis.title_won")
    lines = [t("analysis.played", name=declarer, game=info["game"], taken=taken)]
    could = _home(info, allowed)
    need = t("analysis.need_none") if info["low"] else t("analysis.need", need=info["need"])
    if could == home:
        key = "analysis.same_home" if home else "analysis.same_down"
    else:
        key = "analysis.allowed_home" if could else "analysis.allowed_down"
    lines.append(t(key, allowed=allowed, need=need))
    games = info.get("other_games") or {}
    if games:
        trumps = [f"{Suit.parse(k).symbol} {v}" for k, v in games.items() if k in ("S", "H", "D", "C")]
        if "none" in games:
            trumps.append(t("analysis.no_trump", tricks=games["none"]))
        lines.append(t("analysis.other_games", games=" · ".join(trumps), misere=games["misère"]))
    costly = info["costly"]
    if not costly:
        lines.append(t("analysis.no_costly"))
    else:
        said = ", ".join(
            t("analysis.costly_card", trick=c["trick"], name=c["seat"], card=_card(c["card"]), lost=c["lost"])
            for c in costly[:6]
        )
        lines.append(t("analysis.costly", cards=said))
    turn = info["diverges"]
    if turn is not None:
        you = is_you(turn["seat"])
        lines.append(t("analysis.show_me_you" if you else "analysis.show_me", trick=turn["trick"], name=turn["seat"]))
    return title, lines


class AnalysisScene(_Sheet):
    """The analysis of the deal just played (or of a record): the verdict, the cards that gave
    up tricks, and the line played beside the best line."""

    close_key = pygame.K_a  # the title is the verdict's (drawn by draw)

    def __init__(self, app: App, info: dict[str, Any], viewer: str) -> None:
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
        heads = (t("analysis.as_played"), t("analysis.best_line"))
        for x, head in zip(COLUMNS, heads, strict=True):
            surface.blit(font(17, True).render(head, True, GOLD), (x, self.top - 30))
        for i, trick in enumerate(info["tricks"]):
            cards = [(c["seat"], c["card"], c["lost"]) for c in trick["cards"]]
            self._row(surface, COLUMNS[0], i, trick["trick"], cards, trick.get("declarer_tricks"))
        played = [[(c["seat"], c["card"]) for c in trick["cards"]] for trick in info["tricks"]]
        turn = info["diverges"]
        n = 0
        for i, trick in enumerate(info["best_line"]):
            cards = []
            for c in trick["cards"]:
                cards.append((c["seat"], c["card"], -1 if turn is not None and n == turn["index"] else 0))
                n += 1
            same = i < len(played) and played[i] == [(c["seat"], c["card"]) for c in trick["cards"]]
            self._row(surface, COLUMNS[1], i, i + 1, cards, trick["declarer_tricks"], muted=same)
        foot = t("analysis.foot", name=info["declarer"])
        surface.blit(font(13).render(fit_text(foot, 13, False, 1060), True, MUTED), (30, 752))

    def _row(
        self,
        surface: pygame.Surface,
        x: int,
        i: int,
        number: int,
        cards: list[tuple[str, str, int]],  # seat, card, tricks it gave up (-1: where the best line turns)
        count: int | None,
        muted: bool = False,
    ) -> None:
        y = self.top + i * self.row_h
        f = font(15)
        surface.blit(f.render(f"{number:>2}.", True, MUTED), (x, y))
        cx = x + 36
        room = (COLUMN_W - 36 - (60 if count is not None else 0)) // 3
        for seat, card, lost in cards:
            text = f"{fit_text(seat, 15, False, room - 70)} {_card(card)}"
            colour = GOLD if lost < 0 else RED if lost else MUTED if muted else INK  # -1: the best line's turn
            surface.blit(f.render(text + (f" −{lost}" if lost > 0 else ""), True, colour), (cx, y))
            cx += room
        if count is not None:
            surface.blit(f.render(f"({count})", True, MUTED if muted else GOLD), (x + COLUMN_W - 50, y))
