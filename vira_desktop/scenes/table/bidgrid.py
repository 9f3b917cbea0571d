"""The auction as a grid in the bid table's order, over the middle of the table.

A row for each game by its number (and one for each group bid without a level,
beside its games); columns for plain, in suit and in highest suit where the game
has a free trump, and "in forehand" (headed by its short form, "in fh") for the better hand
making the standing bid again, which players call holding the bid. Only the
cells of legal bids are lit; the standing bid is marked; the focused cell (keys,
a click or the hint) is ringed in white, the only cell framed (the one under the mouse is
lightened). With the coach's advice, each lit cell is filled by how sensible the bid looks
for the player's hand: wholly (good), its left half (doubtful) or not at all (poor), in a
colour-blind-safe blue, amber and grey, so the fill alone tells it.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import pygame

from ...i18n import current, t
from ...rules.actions import Bid, parse_action
from ...rules.games import BID_GROUPS, GAMES, Game
from ...session.coach import BidAdvice, Rating
from ..theme import GOLD, INK, MUTED, fit_text, fitting_size, font, wrap_text
from .model import TABLE_W

__all__ = ["BidGrid", "Cell"]

Row = tuple[str, Game | None, str | None]  # (label, game, group)
Cell = tuple[int, int]  # (row index, column: 0 plain, 1 in suit, 2 in highest suit, 3 in forehand)
LEVEL_HEADS = ("plain", "suit", "high", "hold")  # catalog keys under grid.column

# under the plates (a fourth player's across), above the hand, right of your own plate (it covered your bowl)
BOX = pygame.Rect(226, 226, 724, 452)
ROW_H = 15
HEAD_H = 44
NAME_W = 207
CELL_W = 37
HALF_W = 362
LEGEND_LINES = 5  # under the rows: the columns, the bids without a level, the coach's colours
RATING_FILL = {Rating.GOOD: (70, 150, 225), Rating.DOUBTFUL: (215, 160, 55), Rating.POOR: (92, 96, 100)}
LIT = (60, 110, 80)  # a legal bid without the coach's word
STANDING = (200, 80, 70)  # the standing bid's frame
FOCUS_RING = (255, 255, 255)  # the chosen cell (keys, a click, the hint): Enter bids it
HOVER_GLOW = (255, 255, 255, 70)  # the cell under the mouse: lightened, never framed like the chosen one


def _rows() -> list[Row]:
    rows: list[Row] = []
    firsts = {games[0].no: group for group, (games, _) in BID_GROUPS.items()}
    for g in GAMES:
        if g.no in firsts:
            rows.append((firsts[g.no], None, firsts[g.no]))  # "gask (any level)", in the player's words
        rows.append((f"{g.no}  {g.name.replace(' ouverte royale', ' ouv. royale')}", g, None))
    return rows


ROWS = _rows()
PER_COLUMN = (len(ROWS) + 1) // 2


@dataclass
class _Lit:
    bid: Bid
    label: str  # what the cell says when the bid is not the plain one ("higher")


class BidGrid:
    """The legal bids of one auction turn as lit cells; focus, hover and the standing bid."""

    def __init__(self) -> None:
        self.cells: dict[Cell, _Lit] = {}
        self._focus: Cell | None = None
        self.moved = False  # the focus was moved by a raise, not by the player: Enter asks first
        self.hover: Cell | None = None
        self.standing: Cell | None = None
        self.advice: dict[Cell, BidAdvice] = {}  # the coach's word on the lit cells, once it is in
        self._surface: pygame.Surface | None = None
        self._drawn: object = None

    # ------------------------------------------------------------------ contents
    def set_bids(self, bids: Sequence[Bid], standing: str | None, seat: int) -> None:
        """Light the cells of ``bids``; mark the standing bid (its text as made)."""
        self.cells = {}
        for bid in bids:
            cell = self.cell_of(bid)
            if cell is not None and cell not in self.cells:
                self.cells[cell] = _Lit(bid, "higher" if bid.higher else "")  # a key under grid.cell
        self.standing = None
        if standing:
            made = parse_action(standing, seat)
            if isinstance(made, Bid):
                self.standing = self.cell_of(made)
        self.advice = {}
        if self.focus is not None and self.focus not in self.cells:
            # a raise made the chosen cell illegal: the keys go on from the lowest legal bid
            self._focus = min(self.cells, key=self._bid_order) if self.cells else None
            self.moved = self._focus is not None
        # with no cell chosen, none is until an arrow, a click or the hint: Enter never bids by chance

    def set_advice(self, advice: Mapping[Bid, BidAdvice] | None) -> None:
        """The coach's word on the lit bids (``None``: none, or not yet in)."""
        self.advice = {}
        for cell, lit in self.cells.items():
            said = advice.get(lit.bid) if advice else None
            if said is not None:
                self.advice[cell] = said

    @staticmethod
    def _bid_order(cell: Cell) -> tuple[bool, int, int]:
        """Cells in the bid table's order: games by number and suit level, then the groups
        and the holds (they stand for a game of their own row or the standing bid)."""
        game = ROWS[cell[0]][1]
        return (game is None or cell[1] == 3, game.no if game is not None else cell[0], cell[1])

    @staticmethod
    def cell_of(bid: Bid) -> Cell | None:
        for i, (_, g, group) in enumerate(ROWS):
            if (bid.game is not None and g == bid.game) or (bid.game is None and group == bid.group):
                return (i, 3 if bid.in_forehand else bid.suit_level)
        return None

    @property
    def focus(self) -> Cell | None:
        """The chosen cell (keys, a click or the hint), which Enter bids."""
        return self._focus

    @focus.setter
    def focus(self, cell: Cell | None) -> None:
        self._focus, self.moved = cell, False

    def focused_bid(self) -> Bid | None:
        lit = self.cells.get(self.focus) if self.focus is not None else None
        return lit.bid if lit else None

    def select(self, bid: Bid) -> None:
        """Put the focus on ``bid``'s cell (the hint does this); the panel describes it now,
        not the cell the mouse last passed over."""
        cell = self.cell_of(bid)
        if cell in self.cells:
            self.focus = cell
            self.hover = None

    def described(self) -> Cell | None:
        """The cell to describe in the panel: under the mouse (lit or not: what a game asks
        is worth knowing before it may be bid), else the focused one."""
        return self.hover if self.hover is not None else self.focus

    def row_game(self, cell: Cell) -> Game | None:
        return ROWS[cell[0]][1]

    # ------------------------------------------------------------------ keys and mouse
    def move(self, dx: int, dy: int) -> None:
        """Arrow keys: to the next lit cell that way (rows first for ↑ ↓)."""
        lit = sorted(self.cells)
        if not lit:
            return
        self.hover = None  # the keys move what the panel describes
        if self.focus is None:
            self.focus = lit[0]
            return
        if dy:  # the nearest lit cell in the next row that has one
            rows = sorted({c[0] for c in lit}, reverse=dy < 0)
            ahead = [r for r in rows if (r > self.focus[0] if dy > 0 else r < self.focus[0])]
            if ahead:
                column = self.focus[1]
                self.focus = min((c for c in lit if c[0] == ahead[0]), key=lambda c: abs(c[1] - column))
        else:
            row = [c for c in lit if c[0] == self.focus[0]]
            i = row.index(self.focus) + dx
            if 0 <= i < len(row):
                self.focus = row[i]

    def cell_at(self, pos: tuple[int, int]) -> Cell | None:
        x, y = pos
        if not BOX.collidepoint(pos) or y < BOX.y + HEAD_H:
            return None
        half = (x - BOX.x - 10) // HALF_W
        index = int(half) * PER_COLUMN + (y - BOX.y - HEAD_H) // ROW_H
        column = max(0, (x - BOX.x - 10 - half * HALF_W - NAME_W) // CELL_W)  # a row's name: its plain cell
        if not (0 <= half <= 1 and 0 <= index < len(ROWS) and column <= 3):
            return None
        return (int(index), int(column))

    def rect_of(self, cell: Cell) -> pygame.Rect:
        half, row = divmod(cell[0], PER_COLUMN)
        x = BOX.x + 10 + half * HALF_W + NAME_W + cell[1] * CELL_W
        return pygame.Rect(x, BOX.y + HEAD_H + row * ROW_H, CELL_W - 3, ROW_H - 2)

    # ------------------------------------------------------------------ drawing
    def draw(self, surface: pygame.Surface) -> None:
        ratings = tuple(sorted((cell, a.rating.value) for cell, a in self.advice.items()))
        key = (tuple(sorted(self.cells)), self.focus, self.hover, self.standing, ratings, current())
        if self._surface is None or key != self._drawn:
            self._surface = self._render()
            self._drawn = key
        surface.blit(self._surface, BOX.topleft)

    def _render(self) -> pygame.Surface:
        out = pygame.Surface(BOX.size, pygame.SRCALPHA)
        out.fill((12, 24, 18, 250))  # nearly opaque: the table must not show through the grid
        pygame.draw.rect(out, (90, 120, 100), out.get_rect(), 1, border_radius=8)
        f, bold = font(12), font(12, True)
        holds = any(c[1] == 3 for c in self.cells)  # "in fh" is headed and explained only then
        if holds:
            heads = t("grid.head_hold")
        elif any(lit.label == "higher" for lit in self.cells.values()):  # the ↑ cell said in words
            heads = t("grid.head_higher")
        else:
            heads = t("grid.head")
        for k, part in enumerate(wrap_text(heads, 11, True, BOX.width - 24)[:2]):  # Finnish runs long: two lines
            out.blit(font(11, True).render(part, True, GOLD), (12, 4 + 13 * k))
        lines = LEGEND_LINES - 1 if self.advice else LEGEND_LINES  # the coach's colours take the last line
        columns = t("grid.legend") + (" · " + t("grid.legend_hold") if holds else "")
        width = BOX.width - 24
        legend = [part for said in (columns, t("grid.legend_any")) for part in wrap_text(said, 10, False, width)]
        for k, part in enumerate(legend[:lines]):  # what the columns and the group rows mean
            out.blit(font(10).render(part, True, MUTED), (12, HEAD_H + PER_COLUMN * ROW_H + 11 * k))
        if self.advice:
            self._coach_legend(out, HEAD_H + PER_COLUMN * ROW_H + 11 * min(len(legend), lines))
        for half in (0, 1):
            for j, head in enumerate(LEVEL_HEADS if holds else LEVEL_HEADS[:3]):
                label = t(f"grid.column.{head}")
                size = fitting_size(label, 12, 9, False, CELL_W - 1)  # "highest", "pidä" and the like fit
                text = font(size).render(fit_text(label, size, False, CELL_W - 1), True, MUTED)
                centre = 10 + half * HALF_W + NAME_W + j * CELL_W + CELL_W // 2 - 1
                out.blit(text, text.get_rect(midbottom=(centre, HEAD_H - 1)))
        for i, (label, _, group) in enumerate(ROWS):
            label = t("grid.any_level", group=group) if group else label
            half, row = divmod(i, PER_COLUMN)
            y = HEAD_H + row * ROW_H
            any_lit = any((i, c) in self.cells for c in range(4))
            colour = INK if any_lit else (110, 120, 112)
            fitted = fit_text(label, 12, bool(group), NAME_W - 6)  # the panel gives the whole name
            name = (bold if group else f).render(fitted, True, colour)
            out.blit(name, (10 + half * HALF_W, y + 1))
            for c in range(4):
                self._cell(out, (i, c), bold)
        return out

    def _cell(self, out: pygame.Surface, cell: Cell, bold: pygame.font.Font) -> None:
        rect = self.rect_of(cell).move(-BOX.x, -BOX.y)
        lit = self.cells.get(cell)
        if cell == self.standing:  # drawn again over a lit cell below: "higher gask" lights the standing "gask"
            pygame.draw.rect(out, STANDING, rect, 2, border_radius=3)
        if lit is None:
            return
        focused, hovered = cell == self.focus, cell == self.hover
        said = self.advice.get(cell)
        dark = False
        if said is None:
            pygame.draw.rect(out, LIT, rect, border_radius=3)
        else:
            dark = self._rated(out, rect, said.rating)
        if focused:  # a ring of its own around the cell: never a fill the coach's colours could mean
            pygame.draw.rect(out, FOCUS_RING, rect.inflate(6, 6), 2, border_radius=5)
        elif hovered:  # lightened, not framed: the one frame is the focus's, which Enter bids
            glow = pygame.Surface(rect.size, pygame.SRCALPHA)
            pygame.draw.rect(glow, HOVER_GLOW, glow.get_rect(), border_radius=3)
            out.blit(glow, rect)
        label = t(f"grid.cell.{lit.label or 'bid'}")  # the column's head says which bid it is
        text = bold.render(fit_text(label, 12, True, CELL_W - 4), True, (20, 20, 20) if dark else INK)
        out.blit(text, text.get_rect(center=rect.center))
        if cell == self.standing:
            pygame.draw.rect(out, STANDING, rect.inflate(2, 2), 2, border_radius=4)

    @staticmethod
    def _coach_legend(out: pygame.Surface, y: int) -> None:
        """The coach's colours, each shown by a cell drawn as the grid draws it and named:
        blue good, gold doubtful, only framed poor."""
        x, small = 12, font(10)
        parts: list[tuple[Rating | None, str]] = [(None, t("grid.coach.title"))]
        parts += [(r, t(f"grid.coach.{r.name.lower()}")) for r in (Rating.GOOD, Rating.DOUBTFUL, Rating.POOR)]
        parts.append((None, t("grid.coach.mouse")))
        for rating, words in parts:
            if rating is not None:
                swatch = pygame.Rect(x, y + 1, 16, 10)
                BidGrid._rated(out, swatch, rating)
                x = swatch.right + 4
            text = small.render(words, True, INK if rating is not None else MUTED)
            out.blit(text, (x, y))
            x += text.get_width() + 10

    @staticmethod
    def _rated(out: pygame.Surface, rect: pygame.Rect, rating: Rating) -> bool:
        """A cell filled by the coach's rating: blue (good) or gold (doubtful) wholly, or only
        framed (poor); ``True``: its label wants dark ink."""
        colour = RATING_FILL[rating]
        pygame.draw.rect(out, (28, 40, 34), rect, border_radius=3)
        if rating is not Rating.POOR:
            pygame.draw.rect(out, colour, rect, border_radius=3)
        pygame.draw.rect(out, colour, rect, 1, border_radius=3)
        return rating is not Rating.POOR


assert BOX.right <= TABLE_W  # the grid stays on the table, clear of the panel
