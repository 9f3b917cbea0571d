"""The bid grid at a table in play: when it shows, the keys and the mouse in it, and what
the panel says of the cell chosen or under the mouse (the grid itself is :mod:`.bidgrid`)."""

from __future__ import annotations

from collections.abc import Callable

import pygame

from ...i18n import t
from ...rules.actions import Bid, Pass
from ...rules.decision import Phase
from ...session.coach import BidAdvice
from ...session.describe import describe_game, group_bid_key
from ...session.flow import Ask
from ...session.words import say_action
from .bidgrid import BOX, BidGrid
from .panel import Layout
from .surface import TableSurface

__all__ = ["Bidding"]


class Bidding:
    """The grid of the question ``asked`` of the player shown; a second click on the chosen
    cell calls ``bid``."""

    def __init__(self, surface: TableSurface, asked: Callable[[], Ask | None], bid: Callable[[], None]) -> None:
        self.surface = surface
        self.asked = asked
        self.bid = bid
        self.grid = BidGrid()
        self.passes: tuple[Pass, ...] = ()  # the passes the panel offers (none: forehand must open)
        self._bids: tuple[Bid, ...] | None = None

    def shown(self) -> bool:
        """The player shown is asked for a bid, and nothing covers the table."""
        ask = self.asked()
        return (
            ask is not None
            and not self.surface.shown.cover
            and not self.surface.view.intro.running
            and ask.view.decision is not None
            and ask.view.decision.phase is Phase.AUCTION
        )

    def laid_out(self, layout: Layout, advice: dict[Bid, BidAdvice] | None) -> None:
        """The panel was laid out anew: the grid offers its bids (the coach's ``advice`` on them)."""
        self.passes = layout.passes
        if layout.bids == self._bids:
            return
        self._bids = layout.bids
        state, ask = self.surface.view.state, self.asked()
        if layout.bids is not None and state is not None:
            standing = next((text for _, text in reversed(state.view.bids) if text != "pass"), None)
            self.grid.set_bids(layout.bids, standing, ask.seat if ask is not None else 0)
            self.grid.set_advice(advice)

    def advised(self, advice: dict[Bid, BidAdvice]) -> None:
        """The coach's word on each bid came in."""
        self.grid.set_advice(advice)
        self.note()

    def move(self, dx: int, dy: int) -> None:
        """Arrow keys in the grid."""
        self.grid.move(dx, dy)
        self.note()

    def select(self, bid: Bid) -> None:
        """``bid`` chosen in the grid (a hint's), and described."""
        self.grid.select(bid)
        self.note()

    def event(self, event: pygame.event.Event) -> bool:
        """The mouse over the grid (``True``: the event was the grid's)."""
        if not self.shown():
            self.grid.hover = None
            return False
        if event.type == pygame.MOUSEMOTION:
            self.grid.hover = self.grid.cell_at(event.pos)
            self.note()
            return False
        if event.type == pygame.MOUSEBUTTONDOWN and event.button == 1 and BOX.collidepoint(event.pos):
            cell = self.grid.cell_at(event.pos)
            if cell is not None and cell in self.grid.cells:
                if cell == self.grid.focus:  # a second click on the chosen cell bids it
                    self.bid()
                else:
                    self.grid.focus = cell
                    self.note()
            return True
        return False

    def note(self) -> None:
        """Under the panel's header: what the cell under the mouse (or focused) asks and pays,
        or why forehand may not pass."""
        if not self.shown():
            return
        ask = self.asked()
        assert ask is not None and ask.view.decision is not None
        grid, state = self.grid, self.surface.view.state
        cell = grid.described()
        game = grid.row_game(cell) if cell is not None else None
        if game is not None and cell is not None and cell[1] < 3:
            lines = describe_game(game, cell[1], ask.view.highest, ask.view.rules.pulla)
        elif cell is not None and cell in grid.cells:
            bid = grid.cells[cell].bid
            # hold: the same bid, in forehand; a group bid: the lowest game that outbids, or the declarer's choice
            key = "message.hold_bid" if cell[1] == 3 else group_bid_key(bid)
            lines = [t(key, bid=say_action(bid))]
            stands = state.bid_games.get(bid) if state is not None else None
            if stands is not None:  # what it stands for here, as the engine says: its tricks, pins and pulla
                lines += describe_game(stands, bid.suit_level, ask.view.highest, ask.view.rules.pulla)
        else:
            lines = []
        if not self.passes:  # whatever the mouse is over, the missing Pass is explained
            lines.append(t("message.must_open"))
        said = grid.advice.get(cell) if cell is not None else None
        self.surface.mark(details=(said.text(), *lines) if said is not None else tuple(lines))

    def draw(self, surface: pygame.Surface) -> None:
        if self.shown():
            self.grid.draw(surface)
