"""Full-screen sheets over the table: the score sheet, the bid table, the end-of-session settlement."""

from __future__ import annotations

from typing import TYPE_CHECKING

import pygame
import pygame_gui

from ..rules.actions import SUIT_LEVELS
from ..rules.games import GAMES, PullaTable, table_cells
from ..rules.scoring import Outcome
from ..session.table import Table
from ..session.words import bets_and_pins, count, pretty
from .backdrop import panel
from .base import Scene
from .theme import GOLD, GOOD, INK, MUTED, PLAYER_COLOURS, RED, font

if TYPE_CHECKING:
    from .app import App


class _Sheet(Scene):
    """A sheet closed with Esc (or Enter / its button)."""

    title = ""

    def enter(self) -> None:
        self.close = self.add(
            pygame_gui.elements.UIButton(pygame.Rect(1110, 740, 150, 40), "Close  [Esc]", manager=self.ui)
        )

    def handle(self, event: pygame.event.Event) -> None:
        pressed = event.type == pygame_gui.UI_BUTTON_PRESSED and event.ui_element is self.close
        key = event.type == pygame.KEYDOWN and event.key in (pygame.K_ESCAPE, pygame.K_RETURN, pygame.K_s, pygame.K_b)
        if pressed or key:
            self.app.stack.pop()

    def draw(self, surface: pygame.Surface) -> None:
        surface.blit(panel(1280, 800), (0, 0))
        surface.blit(font(26, True).render(self.title, True, GOLD), (30, 18))


def player_colour(table: Table, name: str) -> tuple[int, int, int]:
    """A player's colour at the table: by their place in the new-game form, as on the plates."""
    order = [seat.name for seat in table.seats]
    return PLAYER_COLOURS[order.index(name) % 4] if name in order else INK


class ScoreSheetScene(_Sheet):
    """Per deal: declarer, game, trump class, outcome, bets and pins, running totals."""

    title = "Score sheet"

    def __init__(self, app: App, table: Table) -> None:
        super().__init__(app)
        self.table = table

    def draw(self, surface: pygame.Surface) -> None:
        super().draw(surface)
        players = self.table.session.players
        f = font(13)
        heads = ["#", "declarer", "game", "trump", "outcome", "pulla", "pins", *players]
        xs = [30, 60, 160, 450, 520, 600, 670] + [730 + 135 * i for i in range(len(players))]
        for i, (x, h) in enumerate(zip(xs, heads, strict=False)):
            colour = player_colour(self.table, h) if i >= 7 else INK  # each player in their colour
            surface.blit(font(14, True).render(h, True, colour), (x, 70))
        running = dict.fromkeys(players, 0)
        deals = self.table.session.deals
        start = max(0, len(deals) - 30)  # the last 30 deals are listed; the totals count every deal
        y = 96
        for i, summary in enumerate(deals, 1):
            r = summary.result
            seats = summary.seats
            for seat, name in enumerate(seats):
                running[name] += r.net_pins(seat)
            if i <= start:
                continue
            mark = " (undo)" if (i - 1) in self.table.undone else ""
            lifted = -r.pulla[r.declarer]
            cells = [
                str(i),
                seats[r.declarer],
                r.game.name + SUIT_LEVELS[summary.suit_level] + (" · repurchase" if r.repurchase else "") + mark,
                r.trump_class,
                r.outcome.value,
                f"lifts {lifted}" if lifted > 0 else f"pays {-lifted}" if lifted < 0 else "–",
                f"{r.pins[r.declarer]:+d}",
            ] + [bets_and_pins(running[p]) for p in players]
            colour = GOOD if r.outcome is Outcome.HOME else RED if r.outcome is Outcome.KODILJ else INK
            for x, c in zip(xs, cells, strict=False):
                surface.blit(f.render(c, True, colour if x == 520 else INK), (x, y))
            y += 20
        if deals:  # the totals so far, under the last row
            pygame.draw.line(surface, MUTED, (30, y + 2), (1250, y + 2))
            surface.blit(font(13, True).render("total", True, GOLD), (xs[1], y + 6))
            for x, name in zip(xs[7:], players, strict=False):
                surface.blit(font(13, True).render(bets_and_pins(running[name]), True, GOLD), (x, y + 6))
            y += 28
        if len(deals) == self.table.deal_index and not self.table.deal.is_over:  # the deal in play
            mark = " (undo)" if self.table.deal_index in self.table.undone else ""
            surface.blit(f.render(str(len(deals) + 1), True, MUTED), (xs[0], y))
            surface.blit(f.render(f"in play{mark}", True, MUTED), (xs[2], y))
        note = (
            "pulla: the declarer's bets · pins: the declarer's, from (+) or to (−) the others · "
            "each player's column: their running total in whole bets and pins (a bet is 8 pins)"
        )
        surface.blit(font(12).render(note, True, MUTED), (30, 760))


class BidTableScene(_Sheet):
    """The 40 rows of the bid table, always one key away."""

    title = "Bid table — Stockholms Wirasällskap"

    def __init__(self, app: App, table: Table | None = None) -> None:
        super().__init__(app)
        self.pulla = table.rules.pulla if table is not None else PullaTable.default()

    COLUMNS = ((0, "no."), (30, "game"), (270, "tricks"), (330, "misère"), (425, "pins"), (510, "pulla"))

    def draw(self, surface: pygame.Surface) -> None:
        super().draw(surface)
        f = font(13)
        for col in (0, 1):
            for dx, head in self.COLUMNS:
                surface.blit(font(12, True).render(head, True, MUTED), (30 + col * 620 + dx, 62))
        for i, g in enumerate(GAMES):
            col, row = divmod(i, 20)
            x, y = 30 + col * 620, 84 + row * 30
            tricks, misere, pins = table_cells(g)
            pulla = self.pulla.row(g)
            surface.blit(font(13, True).render(f"{g.no:>2}", True, GOLD), (x, y))
            surface.blit(f.render(g.name, True, INK), (x + 30, y))  # as the auction and the log name it
            surface.blit(f.render(tricks, True, INK), (x + 270, y))
            surface.blit(f.render(misere, True, MUTED), (x + 330, y))
            surface.blit(f.render(" / ".join(pins), True, INK), (x + 425, y))
            surface.blit(f.render(f"{pulla.home} / {pulla.bet} / {pulla.kodilj}", True, INK), (x + 510, y))
        legend = (
            "tricks: to go home (9/0: or none at all, played low) · misère: open or closed, cards kept · "
            "pins: from each opponent when home, by the trump's class: off-suit / suit / highest",
            "pulla: bets lifted when home / paid when bet (one trick short) / paid when kodilj (two or more "
            "short) · a dash: not possible · the names are the bid table's, as the auction shows them",
        )
        for k, line in enumerate(legend):
            surface.blit(font(12).render(line, True, MUTED), (30, 700 + 18 * k))


class SettlementScene(_Sheet):
    """The end of the session: the pulla shared out and each player's result."""

    title = "Settlement — the session is over"

    def __init__(self, app: App, table: Table) -> None:
        super().__init__(app)
        self.table = table
        if table.session.settlement is None:
            table.session.settle()
        self.app.clear_autosave()

    def handle(self, event: pygame.event.Event) -> None:
        pressed = event.type == pygame_gui.UI_BUTTON_PRESSED and event.ui_element is self.close
        if pressed or (event.type == pygame.KEYDOWN and event.key in (pygame.K_ESCAPE, pygame.K_RETURN)):
            self.app.open("menu")

    def draw(self, surface: pygame.Surface) -> None:
        super().draw(surface)
        s = self.table.session.settlement
        assert s is not None
        f = font(18)
        surface.blit(f.render(f"The pulla held {s.pulla_bets} bets, shared equally.", True, INK), (30, 80))
        if s.remainder_to:
            line = f"The last pin(s) go to {', '.join(s.remainder_to)} (lost most)."
            surface.blit(font(15).render(line, True, MUTED), (30, 110))
        y = 170
        players = self.table.session.players
        for i, name in enumerate(sorted(players, key=lambda p: -s.results[p])):
            pins = s.results[name]
            surface.blit(font(24, True).render(name, True, player_colour(self.table, name)), (60, y))
            text = f"{bets_and_pins(pins)}  (share of the pulla: {count(s.shares[name], 'pin')})"
            surface.blit(font(20).render(text, True, GOOD if pins >= 0 else RED), (260, y + 2))
            if i == 0:
                surface.blit(font(16).render("winner", True, GOLD), (60, y + 30))
            y += 70
        deals = len(self.table.session.deals)
        surface.blit(font(14).render(f"{deals} deals played; the last was Borup.", True, MUTED), (30, 700))


class TrickHistoryScene(_Sheet):
    """Every trick of the deal so far, in order, with who won it."""

    title = "Tricks of this deal"

    def __init__(self, app: App, table: Table) -> None:
        super().__init__(app)
        self.table = table

    def handle(self, event: pygame.event.Event) -> None:
        if event.type == pygame.KEYDOWN and event.key == pygame.K_t:
            self.app.stack.pop()
            return
        super().handle(event)

    def draw(self, surface: pygame.Surface) -> None:
        super().draw(surface)
        view = self.table.deal.public_view()
        seats = self.table.session.seats
        f = font(16)
        y = 80
        for i, (winner, cards) in enumerate(view.tricks, 1):
            played = "   ".join(f"{seats[s]} {pretty(str(c))}" for s, c in cards)
            surface.blit(f.render(f"{i:>2}.  {played}   →  {seats[winner]}", True, INK), (40, y))
            y += 26
        if view.trick:
            played = "   ".join(f"{seats[s]} {pretty(str(c))}" for s, c in view.trick)
            surface.blit(f.render(f"now: {played}", True, GOLD), (40, y + 8))
        if not view.tricks and not view.trick:
            surface.blit(f.render("No card has been played yet.", True, MUTED), (40, y))
