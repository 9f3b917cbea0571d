"""Full-screen sheets over the table: the score sheet, the bid table, the end-of-session settlement."""

from __future__ import annotations

import pygame
import pygame_gui

from ..i18n import mark, t
from ..rules.games import GAMES, PullaTable, table_cells
from ..rules.glossary import GLOSSARY_TERMS, term_words
from ..rules.scoring import Outcome
from ..session.describe import describe_game, is_you
from ..session.state import TableState
from ..session.words import bets_and_pins, card_text, game_label
from ..tutorial.lesson import lesson, lessons_by_row
from .backdrop import panel
from .base import AppPort, Scene
from .cards import CARD_H, CARD_W, CardImages
from .theme import GOLD, GOOD, INK, MUTED, PLAYER_COLOURS, RED, fit_text, fitting_size, font, wrap_text


class _Sheet(Scene):
    """A sheet closed with Esc (or Enter / its button)."""

    title = ""

    def enter(self) -> None:
        self.close = self.add(
            pygame_gui.elements.UIButton(pygame.Rect(1110, 740, 150, 40), "vira.sheet.close", manager=self.ui)
        )

    close_key: int | None = None  # the key that opened the sheet closes it too

    def handle(self, event: pygame.event.Event) -> None:
        pressed = event.type == pygame_gui.UI_BUTTON_PRESSED and event.ui_element is self.close
        keys = (pygame.K_ESCAPE, pygame.K_RETURN, pygame.K_s, pygame.K_b, self.close_key)
        key = event.type == pygame.KEYDOWN and event.key in keys
        if pressed or key:
            self.app.pop()

    def draw(self, surface: pygame.Surface) -> None:
        surface.blit(panel(1280, 800), (0, 0))
        if self.title:
            surface.blit(font(26, True).render(t(self.title), True, GOLD), (30, 18))


def player_colour(state: TableState, name: str) -> tuple[int, int, int]:
    """A player's colour at the table: by their place in the new-game form, as on the plates."""
    index = state.colour_of(name)
    return PLAYER_COLOURS[index] if index is not None else INK


def _width(xs: list[int], k: int) -> int:
    """Column ``k``'s room: to the next column, or to the sheet's edge."""
    return (xs[k + 1] if k + 1 < len(xs) else 1250) - xs[k] - 8


def _cell(
    surface: pygame.Surface, text: str, at: tuple[int, int], width: int, bold: bool, colour: tuple[int, int, int]
) -> None:
    """A score-sheet cell: smaller type where the words run long, never into the next column."""
    size = fitting_size(text, 13, 10, bold, width)
    surface.blit(font(size, bold).render(fit_text(text, size, bold, width), True, colour), at)


class ScoreSheetScene(_Sheet):
    """Per deal: declarer, game, trump class, outcome, bets and pins, running totals."""

    title = mark("sheet.score.title")

    def __init__(self, app: AppPort, state: TableState) -> None:
        super().__init__(app)
        self.state = state  # the table as shown (its port's state): the deals, whether one is in play

    def draw(self, surface: pygame.Surface) -> None:
        super().draw(surface)
        state = self.state
        players = state.players
        f = font(13)
        heads = [t(f"sheet.score.{h}") for h in ("no", "declarer", "game", "trump", "outcome", "pulla", "pins")]
        heads += players
        xs = [30, 60, 160, 450, 520, 600, 670] + [730 + 135 * i for i in range(len(players))]
        for i, (x, h) in enumerate(zip(xs, heads, strict=False)):
            colour = player_colour(state, h) if i >= 7 else INK  # each player in their colour
            surface.blit(font(14, True).render(h, True, colour), (x, 70))
        running = dict.fromkeys(players, 0)
        deals = state.deals
        start = max(0, len(deals) - 30)  # the last 30 deals are listed; the totals count every deal
        y = 96
        for i, summary in enumerate(deals, 1):
            r = summary.result
            seats = summary.seats
            for seat, name in enumerate(seats):
                running[name] += r.net_pins(seat)
            if i <= start:
                continue
            undone = " " + t("sheet.score.undo") if (i - 1) in state.undone else ""
            again = " · " + t("sheet.score.repurchase") if r.repurchase else ""
            lifted = -r.pulla[r.declarer]
            klass = r.trump_class.replace("-", "_")
            cells = [
                str(i),
                seats[r.declarer],
                game_label(r.game.name, summary.suit_level) + again + undone,
                t(f"words.class.{klass}") if klass != "none" else "–",
                t(f"words.outcome.{r.outcome.value.split()[0]}"),
                t("sheet.score.lifts", bets=lifted)
                if lifted > 0
                else t("sheet.score.pays", bets=-lifted)
                if lifted
                else "–",
                f"{r.pins[r.declarer]:+d}".replace("-", "−"),
            ] + [bets_and_pins(running[p]) for p in players]
            colour = GOOD if r.outcome is Outcome.HOME else RED if r.outcome is Outcome.KODILJ else INK
            for k, (x, c) in enumerate(zip(xs, cells, strict=False)):
                _cell(surface, c, (x, y), _width(xs, k), False, colour if x == 520 else INK)
            y += 20
        if deals:  # the totals so far, under the last row
            pygame.draw.line(surface, MUTED, (30, y + 2), (1250, y + 2))
            surface.blit(font(13, True).render(t("sheet.score.total"), True, GOLD), (xs[1], y + 6))
            for k, name in enumerate(players, 7):
                _cell(surface, bets_and_pins(running[name]), (xs[k], y + 6), _width(xs, k), True, GOLD)
            y += 28
        if len(deals) == state.deal_index and not state.over:  # the deal in play
            undone = " " + t("sheet.score.undo") if state.deal_index in state.undone else ""
            surface.blit(f.render(str(len(deals) + 1), True, MUTED), (xs[0], y))
            surface.blit(f.render(t("sheet.score.in_play", mark=undone), True, MUTED), (xs[2], y))
        for k, part in enumerate(wrap_text(t("sheet.score.note"), 12, False, 1060)[:2]):
            surface.blit(font(12).render(part, True, MUTED), (30, 744 + 16 * k))


class BidTableScene(_Sheet):
    """The 40 rows of the bid table, always one key away. At a table it marks the standing
    bid and lights the rows that may be bid now; a row chosen (↑ ↓ ← → or the mouse) says
    what it asks and pays in this deal's suits, and Enter opens the lesson that teaches it.
    A lesson's own rows are highlighted. G opens the glossary over it."""

    title = mark("sheet.bids.title")
    COLUMNS = ((0, "no"), (30, "game"), (270, "tricks"), (330, "misere"), (425, "pins"), (530, "pulla"))

    def __init__(self, app: AppPort, rows: tuple[int, ...] = (), state: TableState | None = None) -> None:
        super().__init__(app)
        self.pulla = state.view.rules.pulla if state is not None else PullaTable.default()
        self.highest = state.view.highest if state is not None else None
        self.rows = rows  # a lesson's rows, highlighted
        self.chosen: int | None = rows[0] if rows else None  # a row number, 1-40
        self.standing = state.standing_row if state is not None else None
        self.legal = set(state.biddable_rows) if state is not None else set()

    @staticmethod
    def rect_of(no: int) -> pygame.Rect:
        col, row = divmod(no - 1, 20)
        return pygame.Rect(24 + col * 620, 80 + row * 30, 612, 26)

    def handle(self, event: pygame.event.Event) -> None:
        if event.type == pygame.KEYDOWN and event.key == pygame.K_g:
            self.app.push("glossary")
            return
        if event.type == pygame.KEYDOWN and event.key in (pygame.K_UP, pygame.K_DOWN, pygame.K_LEFT, pygame.K_RIGHT):
            step = {pygame.K_UP: -1, pygame.K_DOWN: 1, pygame.K_LEFT: -20, pygame.K_RIGHT: 20}[event.key]
            self.chosen = min(40, max(1, (self.chosen or 1) + step if self.chosen else 1))
            return
        if event.type in (pygame.MOUSEMOTION, pygame.MOUSEBUTTONDOWN):
            hit = next((no for no in range(1, 41) if self.rect_of(no).collidepoint(event.pos)), None)
            if hit is not None:
                self.chosen = hit  # a click chooses; Enter opens the row's lesson (never by accident)
            return
        if event.type == pygame.KEYDOWN and event.key == pygame.K_RETURN and self.chosen in lessons_by_row():
            self._open_lesson()
            return
        super().handle(event)

    def _open_lesson(self) -> None:
        assert self.chosen is not None
        self.app.open("lesson", lesson_id=lessons_by_row()[self.chosen])

    def draw(self, surface: pygame.Surface) -> None:
        super().draw(surface)
        f = font(13)
        for col in (0, 1):
            for dx, head in self.COLUMNS:
                surface.blit(font(12, True).render(t(f"sheet.bids.{head}"), True, MUTED), (30 + col * 620 + dx, 62))
        for g in GAMES:
            box = self.rect_of(g.no)
            if g.no in self.rows:
                pygame.draw.rect(surface, (70, 62, 28), box, border_radius=5)  # the lesson's rows
            elif g.no in self.legal:
                pygame.draw.rect(surface, (34, 70, 48), box, border_radius=5)  # may be bid now
            if g.no == self.standing:
                pygame.draw.rect(surface, RED, box, 2, border_radius=5)
            if g.no == self.chosen:
                pygame.draw.rect(surface, GOLD, box, 2, border_radius=5)
            x, y = box.x + 6, box.y + 4
            tricks, _, pins = table_cells(g)
            misere = (
                ""
                if g.misere is None
                else t("sheet.bids.open" if g.misere.open else "sheet.bids.closed", cards=g.misere.cards)
            )
            pulla = self.pulla.row(g)
            surface.blit(font(13, True).render(f"{g.no:>2}", True, GOLD), (x, y))
            surface.blit(f.render(g.name, True, INK), (x + 30, y))  # as the auction and the log name it
            surface.blit(f.render(tricks, True, INK), (x + 270, y))
            surface.blit(f.render(misere, True, MUTED), (x + 330, y))
            surface.blit(f.render(" / ".join(pins), True, INK), (x + 425, y))
            surface.blit(f.render(f"{pulla.home} / {pulla.bet} / {pulla.kodilj}", True, INK), (x + 530, y))
        self._draw_foot(surface)

    def _marks(self) -> list[str]:
        """The catalog keys of what the frames and fills mean, only those drawn: the standing bid and the rows that
        may be bid in the auction, a lesson's rows in a lesson."""
        shown = ["sheet.bids.mark_chosen"]
        shown += ["sheet.bids.mark_standing"] if self.standing is not None else []
        shown += ["sheet.bids.mark_legal"] if self.legal else []
        return shown + (["sheet.bids.mark_lesson"] if self.rows else [])

    def _draw_foot(self, surface: pygame.Surface) -> None:
        """Under the rows: the chosen row in this deal's words and its lesson, or the legend."""
        if self.chosen is None:
            keys = ("sheet.bids.legend1", "sheet.bids.legend2")
            lines = [(part, MUTED) for key in keys for part in wrap_text(t(key), 12, False, 1060)]
        else:
            game = GAMES[self.chosen - 1]
            highest = self.highest
            said = describe_game(game, 0, highest, self.pulla) if highest is not None else [game.printed]
            lines = [(" ".join(said), INK)]
            taught = lessons_by_row().get(self.chosen)
            if taught is not None:
                lines.append((t("sheet.bids.lesson", title=t(f"lesson.{lesson(taught).title}")), GOLD))
            lines = [(part, c) for text, c in lines for part in wrap_text(text, 12, False, 1060)]
        marks = [" · ".join(t(key) for key in self._marks())]
        lines += [(part, MUTED) for text in marks for part in wrap_text(text, 12, False, 1060)]
        for k, (line, colour) in enumerate(lines[:5]):
            surface.blit(font(12).render(line, True, colour), (30, 682 + 16 * k))


class SettlementScene(_Sheet):
    """The end of the session: the pulla shared out and each player's result."""

    title = mark("sheet.settle.title")

    def __init__(self, app: AppPort, state: TableState) -> None:
        super().__init__(app)
        self.state = state  # the table as the runner left it, settled (``state.settlement``)
        assert state.settlement is not None, "the runner settles the session (Command.SETTLE) first"

    def enter(self) -> None:
        super().enter()
        rect = pygame.Rect(900, 740, 200, 40)  # the whole session's score sheet, one last look
        self.sheet = self.add(pygame_gui.elements.UIButton(rect, "vira.sheet.settle.score_sheet", manager=self.ui))

    def handle(self, event: pygame.event.Event) -> None:
        pressed = event.type == pygame_gui.UI_BUTTON_PRESSED
        if (pressed and event.ui_element is self.sheet) or (event.type == pygame.KEYDOWN and event.key == pygame.K_s):
            self.app.push("score_sheet", state=self.state)
        elif (pressed and event.ui_element is self.close) or (
            event.type == pygame.KEYDOWN and event.key in (pygame.K_ESCAPE, pygame.K_RETURN)
        ):
            self.app.open("menu")

    def draw(self, surface: pygame.Surface) -> None:
        super().draw(surface)
        s = self.state.settlement
        assert s is not None
        f = font(18)
        surface.blit(f.render(t("sheet.settle.pulla", count=s.pulla_bets), True, INK), (30, 80))
        if s.remainder_to:
            names = s.remainder_to
            you = len(names) == 1 and is_you(names[0])
            pins = s.last_pins
            before = {p: s.results[p] - s.shares[p] for p in s.results}  # each one's result before the share
            worst = min(before.values())
            lot = pins == 1 and sum(v == worst for v in before.values()) > 1  # equal losers drew lots for it
            key = "remainder_lot" if lot else "remainder"
            line = (
                t(f"sheet.settle.{key}_you", count=pins)
                if you
                else t(f"sheet.settle.{key}", count=pins, names=", ".join(names))
            )
            surface.blit(font(15).render(line, True, MUTED), (30, 110))
        y = 170
        players = self.state.players
        for name in sorted(players, key=lambda p: -s.results[p]):
            pins = s.results[name]
            surface.blit(font(24, True).render(name, True, player_colour(self.state, name)), (60, y))
            share = t("words.pins", count=s.shares[name])
            text = t("sheet.settle.result", result=bets_and_pins(pins, joined=True), share=share)
            surface.blit(font(20).render(text, True, GOOD if pins >= 0 else RED), (260, y + 2))
            if name in s.winners:
                key = "sheet.settle.winner" if len(s.winners) == 1 else "sheet.settle.winner_shared"
                surface.blit(font(16).render(t(key), True, GOLD), (60, y + 30))
            y += 70
        deals = len(self.state.deals)
        surface.blit(font(14).render(t("sheet.settle.deals", count=deals), True, MUTED), (30, 700))


class TrickHistoryScene(_Sheet):
    """Every trick of the deal so far, in order, with who won it."""

    title = mark("sheet.tricks.title")
    close_key = pygame.K_t

    def __init__(self, app: AppPort, state: TableState) -> None:
        super().__init__(app)
        self.state = state

    def draw(self, surface: pygame.Surface) -> None:
        super().draw(surface)
        view = self.state.view  # tricks are public: the seat shown sees them as everyone does
        seats = self.state.seats
        f = font(16)
        y = 80
        for i, (winner, cards) in enumerate(view.tricks, 1):
            played = "   ".join(f"{seats[s]} {card_text(c)}" for s, c in cards)
            surface.blit(f.render(f"{i:>2}.  {played}   →  {seats[winner]}", True, INK), (40, y))
            y += 26
        if view.trick:
            played = "   ".join(f"{seats[s]} {card_text(c)}" for s, c in view.trick)
            surface.blit(f.render(t("sheet.tricks.now", cards=played), True, GOLD), (40, y + 8))
        if not view.tricks and not view.trick:
            surface.blit(f.render(t("sheet.tricks.none"), True, MUTED), (40, y))


class LastTrickScene(_Sheet):
    """The last trick as it lay on the table: its three cards, who played each (in their
    colour, in the order played) and who won it (the winning card framed)."""

    title = mark("sheet.last_trick")
    close_key = pygame.K_l

    def __init__(self, app: AppPort, state: TableState, images: CardImages) -> None:
        super().__init__(app)
        self.state = state
        self.images = images

    def draw(self, surface: pygame.Surface) -> None:
        super().draw(surface)
        view, seats = self.state.view, self.state.seats
        if not view.tricks:
            surface.blit(font(16).render(t("sheet.tricks.none"), True, MUTED), (40, 80))
            return
        winner, cards = view.tricks[-1]
        number, name = len(view.tricks), seats[winner]
        said = t("log.trick_you", number=number) if is_you(name) else t("log.trick", number=number, name=name)
        head = font(20, True).render(said, True, GOLD)
        surface.blit(head, head.get_rect(center=(640, 160)))
        gap = 60
        left = 640 - (3 * CARD_W + 2 * gap) // 2
        for i, (seat, card) in enumerate(cards):
            x, y = left + i * (CARD_W + gap), 240
            surface.blit(self.images.face(card), (x, y))
            if seat == winner:
                pygame.draw.rect(surface, GOLD, (x - 6, y - 6, CARD_W + 12, CARD_H + 12), 4, border_radius=10)
            who = font(16, True).render(
                fit_text(seats[seat], 16, True, CARD_W + gap - 8), True, player_colour(self.state, seats[seat])
            )
            surface.blit(who, who.get_rect(midtop=(x + CARD_W // 2, y + CARD_H + 16)))
            order = font(13).render(str(i + 1), True, MUTED)
            surface.blit(order, order.get_rect(midbottom=(x + CARD_W // 2, y - 12)))


# The glossary's page: two columns of entries, each its word and its meaning wrapped under 460 px.
GLOSSARY_TOP, GLOSSARY_BOTTOM, GLOSSARY_LINE, GLOSSARY_GAP = 66, 748, 15, 7
GLOSSARY_COLUMNS = (30, 650)
GLOSSARY_HEAD_W = 134  # the headword's column: its meaning starts 140 px on


def headword_lines(term: str) -> list[str]:
    """A headword wrapped into the column before its meaning ("blanda in sig och kupera ut
    sig"); the words of a headword of several ("turnéra om / vingla om") break at their slashes."""
    lines: list[str] = []
    for word in term_words(term):
        if lines and font(13, True).size(f"{lines[-1]} / {word}")[0] <= GLOSSARY_HEAD_W:
            lines[-1] = f"{lines[-1]} / {word}"
            continue
        if lines:
            lines[-1] += " /"
        lines += wrap_text(word, 13, True, GLOSSARY_HEAD_W)
    return lines


def glossary_pages() -> list[list[tuple[int, int, str, str, list[str]]]]:
    """The entries in the player's language laid out as (x, y, word, slug, lines), page by
    page: down the left column, then the right one, then a new page; nothing is cut. On one
    page the two columns are about even."""
    entries = [(slug, term, wrap_text(t(f"glossary.term.{slug}"), 12, False, 460)) for slug, term in GLOSSARY_TERMS]
    heights = [max(len(lines), len(headword_lines(term))) * GLOSSARY_LINE + GLOSSARY_GAP for _, term, lines in entries]
    even = GLOSSARY_TOP + (sum(heights) + 1) // 2 + max(heights) // 2
    for bottom in (min(even, GLOSSARY_BOTTOM), GLOSSARY_BOTTOM):
        pages: list[list[tuple[int, int, str, str, list[str]]]] = [[]]
        column, y = 0, GLOSSARY_TOP
        for (slug, term, lines), height in zip(entries, heights, strict=True):
            if y + height > bottom:
                column, y = column + 1, GLOSSARY_TOP
                if column == len(GLOSSARY_COLUMNS):
                    pages.append([])
                    column = 0
            pages[-1].append((GLOSSARY_COLUMNS[column], y, term, slug, lines))
            y += height
        if len(pages) == 1:
            break
    return pages


class GlossaryScene(_Sheet):
    """Vira's own words (Swedish in every language), each explained in the player's language;
    ← → (or Page Up / Down) turn the page when they need more than one."""

    title = mark("glossary.title")
    close_key = pygame.K_g

    def __init__(self, app: AppPort, state: TableState | None = None) -> None:
        super().__init__(app)  # the same words at any table
        self.page = 0

    def handle(self, event: pygame.event.Event) -> None:
        turns = {pygame.K_LEFT: -1, pygame.K_PAGEUP: -1, pygame.K_RIGHT: 1, pygame.K_PAGEDOWN: 1}
        if event.type == pygame.KEYDOWN and event.key in turns:
            self.page = min(len(glossary_pages()) - 1, max(0, self.page + turns[event.key]))
            return
        super().handle(event)

    def draw(self, surface: pygame.Surface) -> None:
        super().draw(surface)
        pages = glossary_pages()
        self.page = min(self.page, len(pages) - 1)
        for x, y, term, _, lines in pages[self.page]:
            for k, head in enumerate(headword_lines(term)):
                surface.blit(font(13, True).render(head, True, GOLD), (x, y + GLOSSARY_LINE * k))
            for k, part in enumerate(lines):
                surface.blit(font(12).render(part, True, INK), (x + 140, y + GLOSSARY_LINE * k))
        note = t("glossary.note")
        if len(pages) > 1:
            note += " · " + t("glossary.page", page=self.page + 1, pages=len(pages))
        surface.blit(font(12).render(note, True, MUTED), (30, 760))
