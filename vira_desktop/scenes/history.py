"""History in the window: the past sessions and their deals, filtered, opened in the replay,
exported and imported as deal records; and the player's statistics drawn as charts."""

from __future__ import annotations

from pathlib import Path

import pygame
import pygame_gui

from ..i18n import number, t
from ..paths import export_dir
from ..rules.errors import RecordError
from ..session.as_played import AsPlayed, as_recorded, your_names
from ..session.exchange import RECORD_SUFFIXES
from ..session.factory import PlayAgain, SeatConfig, TableOrder
from ..session.history import DealRow, Pending
from ..session.history_service import Answers, Browse, Figures, Imported, Opened
from ..session.record import Record
from ..session.statistics import ContractLine, Stats
from ..session.words import bets_and_pins
from .backdrop import panel
from .base import AppPort, Scene, SceneName
from .charts import Chart, Series, draw_tooltip
from .deal_list import DealList, short_date
from .files import FileDialog
from .theme import GOLD, GOOD, INK, KEY_FOCUS, MUTED, PLAYER_COLOURS, RED, fit_text, font, wrap_text

__all__ = ["HistoryScene", "PlayAgainScene", "StatisticsScene"]

ROW_H = 22
LIST_TOP = 132
ROWS = 25  # rows of a list on screen
COLUMNS = (430, 470, 600, 710, 840, 920, 975, 1135)  # the deals' columns, from the left
WIDTHS = tuple(b - a - 8 for a, b in zip(COLUMNS, (*COLUMNS[1:], 1258), strict=True))  # each column's room
_KEYS = {  # a button's letter: its work, and with Shift
    pygame.K_e: ("export_deal", "export_session"),
    pygame.K_i: ("import", "import"),
    pygame.K_s: ("statistics", "statistics"),
}


class _Asking(Scene):
    """A screen that asks history's thread (``app.history``) and takes each answer in a later
    frame: it draws frames while one is awaited, and sleeps otherwise."""

    def __init__(self, app: AppPort) -> None:
        super().__init__(app)
        self.answers = Answers()

    def next_wake(self) -> float | None:
        return 0.0 if self.answers else None

    def update(self, dt: float) -> None:
        self.answers.poll()


class HistoryScene(_Asking):
    """Past sessions (left) and the deals of the one chosen (right), filtered by contract,
    declarer, outcome and month (the lists and what is shown of them: :class:`~.deal_list.DealList`).
    Enter or Replay opens the deal chosen in the replay; its deal or its session can be exported
    as records, and records imported. History's thread reads and writes the database: the
    screen asks, and takes each answer when it has come."""

    def __init__(self, app: AppPort) -> None:
        super().__init__(app)
        kept = app.history_filters  # the filters as the player left them, while the game runs
        self.deals = DealList(ROWS, *kept) if kept else DealList(ROWS)
        self.dropdowns: dict[pygame_gui.elements.UIDropDownMenu, str] = {}
        self.choices: list[tuple[str, list[str]]] = []  # each filter's values, in its menu's order
        self.buttons: dict[pygame_gui.elements.UIButton, str] = {}
        self.message = ""
        self.message_bad = False  # the message tells of a problem (drawn red)
        self.dialog: FileDialog | None = None
        self.focus = 0  # Tab's place: 0 the list of deals, else that filter (1 to 4, left to right)
        self.opening = False  # a deal asked for, to be replayed when it comes

    # ------------------------------------------------------------------ data
    def _browsed(self, pending: Pending[Browse]) -> None:
        """The lists come: shown (with their filters and widgets), and a damaged file said."""
        if pending.aside is not None:
            self.message = t("app.history_damaged", file=pending.aside)
        self._lists(pending.result())

    def _lists(self, browse: Browse) -> None:
        """The sessions and deals read: shown, with their filters' values."""
        self.deals.take(browse)
        self._widgets()

    # ------------------------------------------------------------------ widgets
    def enter(self) -> None:
        """Ask for the lists (read again when entered again: the widgets of those held meanwhile)."""
        self.answers.then(self.app.history.browse(), self._browsed)
        if self.deals.loaded:
            self._widgets()

    def _widgets(self) -> None:
        self.clear_widgets()
        every = t("history.all")
        self.choices = self.deals.choices()
        self.dropdowns = {}
        for i, (what, values) in enumerate(self.choices):
            options: list[str | tuple[str, str]] = [(every, ""), *((_label(what, v), v) for v in values[1:])]
            x = 430 + 205 * i
            heading = f"vira.history.filter.{what}"
            self.add(pygame_gui.elements.UILabel(pygame.Rect(x, 58, 195, 20), heading, manager=self.ui))
            current = next((o for o in options if o[1] == getattr(self.deals.filters, what)), options[0])
            menu = pygame_gui.elements.UIDropDownMenu(
                options, current, pygame.Rect(x, 78, 195, 32), manager=self.ui, expansion_height_limit=400
            )
            self.dropdowns[self.add(menu)] = what
        specs = (
            ("replay", "vira.history.replay", 30),
            ("export_deal", "vira.history.export_deal", 200),
            ("export_session", "vira.history.export_session", 400),
            ("import", "vira.history.import", 660),
            ("statistics", "vira.history.statistics", 820),
            ("back", "vira.sheet.close", 1110),
        )
        widths = {"export_deal": 190, "export_session": 250, "import": 150, "statistics": 170, "back": 150}
        self.buttons = {}
        for what, text, x in specs:
            width = widths.get(what, 160)
            button = pygame_gui.elements.UIButton(pygame.Rect(x, 740, width, 40), text, manager=self.ui)
            self.buttons[self.add(button)] = what
        if not self.deals.shown:
            for button, what in self.buttons.items():
                if what in ("replay", "export_deal", "export_session"):
                    button.disable()  # type: ignore[no-untyped-call]

    # ------------------------------------------------------------------ input
    def handle(self, event: pygame.event.Event) -> None:
        if self.dialog is not None:
            if event.type == pygame_gui.UI_FILE_DIALOG_PATH_PICKED and event.ui_element is self.dialog:
                self._import(Path(event.text))
            elif event.type == pygame_gui.UI_WINDOW_CLOSE and event.ui_element is self.dialog:
                self.dialog = None
            elif event.type == pygame.KEYDOWN:
                self.dialog.key(event.key)
            return
        if not self.deals.loaded:  # the lists are on their way: Esc goes back, G explains the words
            if event.type == pygame.KEYDOWN and event.key in (pygame.K_ESCAPE, pygame.K_g):
                self._key(event.key)
            return
        if event.type == pygame_gui.UI_BUTTON_PRESSED and event.ui_element in self.buttons:
            self.do(self.buttons[event.ui_element])
        elif event.type == pygame_gui.UI_DROP_DOWN_MENU_CHANGED and event.ui_element in self.dropdowns:
            self.deals.set_filter(self.dropdowns[event.ui_element], event.ui_element.selected_option[1])
            self._widgets()
        elif event.type == pygame.MOUSEBUTTONDOWN and event.button == 1:
            self._click(event.pos)
        elif event.type == pygame.MOUSEWHEEL and not self._expanded():  # an open filter's list scrolls alone
            self.deals.scroll(-3 * event.y)
        elif event.type == pygame.KEYDOWN:
            self._key(event.key, bool(event.mod & pygame.KMOD_SHIFT))

    def _expanded(self) -> bool:
        """Whether a filter's list of options is open."""
        return any(m.current_state is m.menu_states["expanded"] for m in self.dropdowns)

    def _key(self, key: int, shift: bool = False) -> None:
        deals = self.deals
        if key == pygame.K_ESCAPE and self._expanded():
            self._widgets()  # Esc closes the open list, not the screen
        elif key == pygame.K_TAB:  # the list, then each filter in turn
            self.focus = (self.focus + (-1 if shift else 1)) % (len(self.choices) + 1)
        elif self.focus and key in (pygame.K_ESCAPE, pygame.K_RETURN):
            self.focus = 0  # back to the list
        elif key == pygame.K_ESCAPE:
            self.do("back")
        elif self.focus and key in (pygame.K_DOWN, pygame.K_UP):
            deals.step_filter(self.choices[self.focus - 1][0], 1 if key == pygame.K_DOWN else -1)
            self._widgets()
        elif key in (pygame.K_DOWN, pygame.K_UP):
            self._select(deals.deal_at + (1 if key == pygame.K_DOWN else -1))
        elif key in (pygame.K_PAGEDOWN, pygame.K_PAGEUP):
            self._select(deals.deal_at + (ROWS if key == pygame.K_PAGEDOWN else -ROWS))
        elif key in (pygame.K_HOME, pygame.K_END):
            self._select(0 if key == pygame.K_HOME else len(deals.shown) - 1)
        elif key in (pygame.K_LEFT, pygame.K_RIGHT):  # the session before or after
            self._session(deals.session_at + (1 if key == pygame.K_RIGHT else -1))
        elif key == pygame.K_RETURN:
            self.do("replay")
        elif key == pygame.K_g:  # home, bet, kodilj ...: the game's words explained
            self.app.push("glossary")
        elif key in _KEYS:
            self.do(_KEYS[key][shift])

    def _select(self, index: int) -> None:
        if self.deals.shown:
            self.message = ""  # what was said of the last work done: another deal chosen, gone
            self.deals.select(index)

    def _session(self, index: int) -> None:
        self.deals.choose_session(index)
        self._widgets()

    def _click(self, pos: tuple[int, int]) -> None:
        if self._expanded() or self.ui.get_hovering_any_element():
            return  # a widget's click (an open filter's options lie over the list)
        x, y = pos
        row = (y - LIST_TOP) // ROW_H
        if not 0 <= row < ROWS or y < LIST_TOP:
            return
        deals = self.deals
        if 30 <= x < 400 and row <= len(deals.sessions):
            self._session(row)
        elif 430 <= x < 1250 and deals.top + row < len(deals.shown):
            if deals.top + row == deals.deal_at:
                self.do("replay")  # a second click opens it
            self._select(deals.top + row)

    def do(self, what: str) -> None:
        """A button's work (history's: asked of its thread, done when the answer comes)."""
        if what == "back":
            self.app.history_filters = (self.deals.filters, self.deals.session_at)
            self.app.pop()
        elif what == "statistics":
            self.app.push("statistics")
        elif what == "import":
            self.dialog = FileDialog(
                pygame.Rect(240, 120, 800, 560), self.ui, window_title="vira.history.import_title",
                initial_file_path=str(export_dir()), allow_picking_directories=True,
                allowed_suffixes={x for s in RECORD_SUFFIXES for x in (s, s.upper())},
                allow_existing_files_only=True,
            )  # fmt: skip
        elif not self.deals.shown:
            return
        elif what == "replay":
            if not self.opening:  # a second click while the first is read: one replay
                self.opening = True
                row = self.deals.chosen
                self.answers.then(self.app.history.open_deal(row.id), lambda p: self._replay(row, p))
        elif what == "export_deal":
            pending = self.app.history.export_deals([self.deals.chosen.id], export_dir())
            self.answers.then(pending, self._exported)
        elif what == "export_session":  # the chosen deal's session, whole
            session = self.deals.chosen.session_id
            pending = self.app.history.export_session(session, export_dir())
            self.answers.then(pending, lambda done: self._exported(done, session))

    def _replay(self, row: DealRow, pending: Pending[Opened]) -> None:
        """The deal asked for comes: opened in the replay (a record that does not replay: said)."""
        self.opening = False
        try:
            opened = pending.result()
        except RecordError as exc:
            self.message, self.message_bad = t("history.bad_record", problem=str(exc)), True
            return
        title = t("history.replay_title", date=short_date(row.played), number=row.number + 1)
        if row.parent_id is not None:
            title += " · ↻ " + t("history.again_mark")
        self.app.push(
            "replay", record=opened.record, title=title, pushed=True, deal_id=row.id, number=row.number,
            played=opened.played,
        )  # fmt: skip

    def _exported(self, pending: Pending[list[Path]], session: int | None = None) -> None:
        """An export done: where the deal went, or how many of the ``session``'s deals."""
        paths, folder = pending.result(), str(export_dir())
        if session is None:
            message = t("history.exported", folder=folder, file=paths[0].name)
        else:
            message = t("history.exported_session", session=session, count=len(paths), folder=folder)
        self.message, self.message_bad = message, False

    def _import(self, path: Path) -> None:
        self.dialog = None
        self.answers.then(self.app.history.import_records([path]), self._imported)

    def _imported(self, pending: Pending[Imported]) -> None:
        imported = pending.result()
        report = imported.report
        self.message = t("history.imported", count=len(report.added), known=report.known)
        self.message_bad = bool(report.errors)
        if report.errors:
            self.message += " " + t("history.import_failed", count=len(report.errors), first=report.errors[0])
        self._lists(imported.browse)

    # ------------------------------------------------------------------ drawing
    def draw(self, surface: pygame.Surface) -> None:
        surface.blit(panel(1280, 800), (0, 0))
        surface.blit(font(26, True).render(t("history.title"), True, GOLD), (30, 18))
        keys = font(13).render(t("history.keys"), True, MUTED)
        surface.blit(keys, keys.get_rect(topright=(1250, 28)))
        if not self.deals.loaded:
            return  # the lists are on their way
        _draw_sessions(surface, self.deals)
        _draw_deals(surface, self.deals, in_list=not self.focus, origin=not self.message)
        if self.focus:  # Tab's filter: ↑ ↓ change it
            menu = next(m for m, what in self.dropdowns.items() if what == self.choices[self.focus - 1][0])
            pygame.draw.rect(surface, KEY_FOCUS, menu.rect.inflate(8, 8), 2, border_radius=6)
        if self.dialog is not None:  # the dialog's keys, below it
            keys = font(13).render(t("history.import_keys"), True, GOLD)
            surface.blit(keys, keys.get_rect(midtop=(640, 702)))
        elif self.message:
            colour = RED if self.message_bad else GOLD
            for k, part in enumerate(wrap_text(self.message, 13, False, 1220)[:2]):
                surface.blit(font(13).render(part, True, colour), (30, 702 + 17 * k))


def _label(what: str, value: str) -> str:
    """A filter's value as its menu says it (a long name fitted to its box)."""
    if what == "outcome":
        return t(f"words.outcome.{value}")
    return value if what == "month" else fit_text(value, 14, False, 160)


def _draw_sessions(surface: pygame.Surface, deals: DealList) -> None:
    """The sessions (left), the one chosen marked."""
    surface.blit(font(14, True).render(t("history.sessions"), True, INK), (30, LIST_TOP - 24))
    rows = [t("history.all_sessions", count=len(deals.rows))]
    rows += [
        t("history.session_row", id=s.id, date=short_date(s.started), players=", ".join(s.seats), count=s.deals)
        + (" · ↻ " + t("history.again_mark") if s.id in deals.again else "")
        for s in deals.sessions
    ]
    for i, text in enumerate(rows[:ROWS]):
        y = LIST_TOP + i * ROW_H
        chosen = i == deals.session_at
        if chosen:
            pygame.draw.rect(surface, (44, 56, 70), (26, y - 2, 378, ROW_H), border_radius=4)
        colour = GOLD if chosen else INK
        surface.blit(font(13, chosen).render(fit_text(text, 13, chosen, 366), True, colour), (32, y))


def _draw_deals(surface: pygame.Surface, deals: DealList, in_list: bool, origin: bool) -> None:
    """The page of deals shown (right), the one chosen marked (framed while the keys move in
    the list), and under it the rows shown and (``origin``) where the deal chosen came from."""
    heads = ("no", "played", "declarer", "game", "outcome", "tricks", "result", "you")
    for x, width, head in zip(COLUMNS, WIDTHS, heads, strict=True):
        text = fit_text(t(f"history.col.{head}"), 13, True, width)
        surface.blit(font(13, True).render(text, True, INK), (x, LIST_TOP - 24))
    if not deals.shown:
        empty = t("history.empty") if not deals.rows else t("history.none_match")
        for k, part in enumerate(wrap_text(empty, 15, False, 780)):
            surface.blit(font(15).render(part, True, MUTED), (430, LIST_TOP + 10 + 22 * k))
        return
    for i, row in enumerate(deals.shown[deals.top : deals.top + ROWS]):
        y = LIST_TOP + i * ROW_H
        if deals.top + i == deals.deal_at:
            pygame.draw.rect(surface, (44, 56, 70), (426, y - 2, 824, ROW_H), border_radius=4)
            if in_list:
                pygame.draw.rect(surface, KEY_FOCUS, (426, y - 2, 824, ROW_H), 1, border_radius=4)
        for x, width, (text, c) in zip(COLUMNS, WIDTHS, _cells(row), strict=True):
            surface.blit(font(13).render(fit_text(text, 13, False, width), True, c), (x, y))
    last = min(deals.top + ROWS, len(deals.shown))
    more = t("history.rows", first=deals.top + 1, last=last, total=len(deals.shown))
    surface.blit(font(12).render(more, True, MUTED), (430, LIST_TOP + ROWS * ROW_H + 2))
    said = deals.origin(deals.chosen) if origin else ""  # a message takes the line
    if said:  # the deal chosen was played again from another: which, and from where
        line = font(12).render(fit_text(said, 12, False, 820), True, GOLD)
        surface.blit(line, (430, LIST_TOP + ROWS * ROW_H + 18))


def _cells(row: DealRow) -> tuple[tuple[str, tuple[int, int, int]], ...]:
    """A deal's row: each column's text and colour."""
    tricks = row.result["tricks"].get(row.declarer, 0)
    colour = GOOD if row.outcome == "home" else RED if row.outcome == "kodilj" else INK
    yours = [n for n in row.seats if row.levels.get(n) == "human"]
    mine = sum(row.net_pins(n) for n in yours)
    return (
        (str(row.number + 1) + (" ↻" if row.parent_id is not None else ""), INK),
        (short_date(row.played), MUTED),
        (row.declarer, INK),
        (row.game, INK),
        (t(f"words.outcome.{row.outcome}"), colour),
        (str(tricks), INK),
        (bets_and_pins(row.net_pins(row.declarer)), INK),
        (bets_and_pins(mine) if yours else "–", GOOD if mine > 0 else RED if mine < 0 else MUTED),
    )


def _contract_tip(c: ContractLine) -> str:
    values = {"bid": c.bid, "declared": c.declared, "home": c.home, "bet": c.bet, "kodilj": c.kodilj, "laid": c.laid}
    return t("stats.contract_tip", game=c.game, bets=number(c.pins / 8, 2), **values)


_STEPS = {pygame.K_LEFT: -1, pygame.K_UP: -1, pygame.K_RIGHT: 1, pygame.K_DOWN: 1}  # the player before or after


class StatisticsScene(_Asking):
    """A player's statistics as charts: the contracts he declared (how often home), his results
    against each bot level, his result per session and his home share by month, and how often
    the contracts he defended were beaten. The mouse over a bar or point tells its figures."""

    def __init__(self, app: AppPort) -> None:
        super().__init__(app)
        self.mouse = (0, 0)
        self.players: list[str] = []
        self.player = ""
        self.charts: list[Chart] = []  # none until the first figures come
        self.stats = Stats("")
        self.close: pygame_gui.elements.UIButton | None = None  # the widgets, with the first figures
        self.chooser: pygame_gui.elements.UIDropDownMenu | None = None

    def enter(self) -> None:
        self.answers.then(self.app.history.figures(), self._first)

    def _first(self, pending: Pending[Figures]) -> None:
        """The players come, with the first one's figures."""
        figures = pending.result()
        self.players, self.player = figures.players, figures.player
        self._widgets()
        self._counted(pending)

    def _widgets(self) -> None:
        self.clear_widgets()
        self.close = self.add(
            pygame_gui.elements.UIButton(pygame.Rect(1110, 740, 150, 40), "vira.sheet.close", manager=self.ui)
        )
        self.chooser = None
        if len(self.players) > 1:
            rect = pygame.Rect(1000, 18, 250, 32)
            label = pygame.Rect(760, 18, 232, 32)
            self.add(pygame_gui.elements.UILabel(label, "vira.stats.choose", manager=self.ui))
            self.chooser = self.add(pygame_gui.elements.UIDropDownMenu(list(self.players), self.player, rect, self.ui))

    def _count(self) -> None:
        """Ask for the figures of the player chosen (drawn when they come)."""
        self.answers.then(self.app.history.figures(self.player), self._counted)

    def _counted(self, pending: Pending[Figures]) -> None:
        self.stats = pending.result().stats
        self.charts = self._charts(self.stats)

    def _charts(self, s: Stats) -> list[Chart]:
        none = t("stats.none")
        games = [c for c in s.contracts if c.declared]
        tips = tuple(_contract_tip(c) for c in games)
        declared = Chart(
            pygame.Rect(30, 110, 600, 300),
            t("stats.contracts"),
            [c.game for c in games],
            [
                Series(t("stats.declared"), tuple(float(c.declared) for c in games), PLAYER_COLOURS[1], tips),
                Series(t("stats.home"), tuple(float(c.home) for c in games), GOOD, tips),
            ],
            empty=none,
            whole=True,  # contracts are counted: no 0.2 of one
        )
        level_tips = tuple(
            t(
                "stats.level_tip",
                name=s.player,
                sessions=v.sessions,
                won=v.won,
                deals=v.deals,
                result=number(v.per_100, 1),
            )
            for v in s.levels
        )
        levels = Chart(
            pygame.Rect(650, 110, 600, 300),
            t("stats.levels"),
            [t(f"new_game.kind.{v.level}") for v in s.levels],
            [Series(t("stats.per_100"), tuple(round(v.per_100, 1) for v in s.levels), GOLD, level_tips)],
            empty=none,
        )
        session_tips = tuple(
            t("stats.session_tip", n=i, date=short_date(p.started), deals=p.deals, result=number(p.bets, 1))
            for i, p in enumerate(s.sessions, 1)
        )
        sessions = Chart(
            pygame.Rect(30, 425, 600, 300),
            t("stats.sessions"),
            [str(i) for i in range(1, len(s.sessions) + 1)],  # the date and time in each point's tooltip
            [Series(t("stats.result"), tuple(round(p.bets, 2) for p in s.sessions), PLAYER_COLOURS[0], session_tips)],
            kind="line",
            empty=none,
        )
        month_tips = tuple(t("stats.month_tip", month=m, home=h, declared=d) for m, d, h in s.months)
        shares = tuple(round(100 * h / d, 1) for _, d, h in s.months)
        months = Chart(
            pygame.Rect(650, 425, 600, 300),
            t("stats.months"),
            [m for m, _, _ in s.months],
            [Series(t("stats.home_share"), shares, GOOD, month_tips)],
            kind="line",
            unit="%",
            empty=none,
        )
        return [declared, levels, sessions, months]

    def handle(self, event: pygame.event.Event) -> None:
        if event.type == pygame_gui.UI_BUTTON_PRESSED and event.ui_element is self.close:
            self.app.pop()
        elif event.type == pygame_gui.UI_DROP_DOWN_MENU_CHANGED and event.ui_element is self.chooser:
            self.player = event.text
            self._count()
        elif event.type == pygame.MOUSEMOTION:
            self.mouse = event.pos
        elif event.type == pygame.KEYDOWN and event.key in (pygame.K_ESCAPE, pygame.K_RETURN):
            self.app.pop()
        elif event.type == pygame.KEYDOWN and event.key in _STEPS and len(self.players) > 1:
            self.player = self.players[(self.players.index(self.player) + _STEPS[event.key]) % len(self.players)]
            self._widgets()  # the chooser shows the player
            self._count()

    def draw(self, surface: pygame.Surface) -> None:
        surface.blit(panel(1280, 800), (0, 0))
        s = self.stats
        if not self.charts:
            return  # the figures are on their way
        title = t("stats.title", name=s.player) if s.player else t("stats.title_nobody")
        surface.blit(font(26, True).render(title, True, GOLD), (30, 18))
        said = t("stats.summary", count=s.deals, declared=sum(c.declared for c in s.contracts))
        defended = t("stats.defended", defended=s.defended, beaten=s.beaten, pct=round(100 * s.beaten_share))
        surface.blit(font(15).render(said, True, INK), (30, 62))
        surface.blit(font(15).render(defended, True, INK), (30, 84))
        for chart in self.charts:
            chart.draw(surface)
        for chart in self.charts:
            tip = chart.hover(self.mouse)
            if tip:
                draw_tooltip(surface, tip, self.mouse)
                break


KINDS = ("human", "normal", "strong", "easy", "random")


class PlayAgainScene(Scene):
    """Play a deal again from a point of it: the same cards and seats; for each seat, a person
    or a bot of a level, by default as the deal was played (``played``: its seats, levels,
    colours and tokens; by default the record's own, the player called "You" the person;
    ``over``: asked at the end of the deal shown, hence from its start) (↑ ↓ choose a seat,
    ← → or a click change it, Enter starts, Esc back)."""

    def __init__(
        self,
        app: AppPort,
        record: Record,
        upto: int,
        parent: int | None = None,
        played: AsPlayed | None = None,
        over: bool = False,
    ) -> None:
        super().__init__(app)
        self.record = record
        self.upto = upto
        self.over = over  # asked at the end of the deal shown (so from its start)
        self.parent = parent
        self.played = played if played is not None else as_recorded(record, your_names())
        levels = [self.played.levels.get(name, "normal") for name in record.names]
        self.kinds = [level if level in KINDS else "normal" for level in levels]  # a level this form has not
        self.row = record.names.index(self.played.player) if self.played.player in record.names else 0

    def enter(self) -> None:
        self.start = self.add(
            pygame_gui.elements.UIButton(pygame.Rect(490, 560, 300, 46), "vira.play_again.start", manager=self.ui)
        )
        self.back = self.add(
            pygame_gui.elements.UIButton(pygame.Rect(1110, 740, 150, 40), "vira.sheet.close", manager=self.ui)
        )

    def _rows(self) -> list[pygame.Rect]:
        return [pygame.Rect(340, 300 + 64 * i, 600, 52) for i in range(3)]

    def _change(self, row: int, step: int) -> None:
        self.kinds[row] = KINDS[(KINDS.index(self.kinds[row]) + step) % len(KINDS)]

    def handle(self, event: pygame.event.Event) -> None:
        if event.type == pygame_gui.UI_BUTTON_PRESSED and event.ui_element is self.start:
            self._begin()
        elif event.type == pygame_gui.UI_BUTTON_PRESSED and event.ui_element is self.back:
            self.app.pop()
        elif event.type == pygame.MOUSEBUTTONDOWN and event.button == 1:
            for i, rect in enumerate(self._rows()):
                if rect.collidepoint(event.pos):
                    self.row = i
                    self._change(i, 1)
        elif event.type == pygame.KEYDOWN:
            if event.key in (pygame.K_UP, pygame.K_DOWN, pygame.K_TAB):
                self.row = (self.row + (-1 if event.key == pygame.K_UP else 1)) % 3
            elif event.key in (pygame.K_LEFT, pygame.K_RIGHT):
                self._change(self.row, -1 if event.key == pygame.K_LEFT else 1)
            elif event.key == pygame.K_RETURN:
                self._begin()
            elif event.key == pygame.K_ESCAPE:
                self.app.pop()

    def _begin(self) -> None:
        kinds = dict(zip(self.record.names, self.kinds, strict=True))
        seats = []
        for name in self.played.colours:  # the colours' order; one sitting out: a bot, as it plays no card
            kind = kinds.get(name, self.played.levels.get(name, "normal"))
            human = kind == "human" and name in kinds
            seats.append(SeatConfig(name, human, kind if kind in KINDS[1:] else "normal"))
        before = self.played.session()
        before.dealer = before.players.index(self.record.names[2])  # rear-hand deals
        again = PlayAgain(self.record, self.upto, self.parent, before)
        back: SceneName = "history" if self.parent is not None else "menu"
        self.app.start_table(TableOrder(tuple(seats), again=again), saves=False, back_to=back)

    def where(self) -> str:
        """Where the deal is played again from, in words ("From the start (the deal shown is
        over)" only where it is)."""
        if self.upto:
            return t("play_again.from", position=self.upto, total=len(self.record.actions))
        return t("play_again.from_start_over" if self.over else "play_again.from_start")

    def draw(self, surface: pygame.Surface) -> None:
        surface.blit(panel(1280, 800), (0, 0))
        title = font(26, True).render(t("play_again.title"), True, GOLD)
        surface.blit(title, title.get_rect(center=(640, 150)))
        for k, part in enumerate(wrap_text(self.where() + " " + t("play_again.note"), 15, False, 900)):
            line = font(15).render(part, True, INK)
            surface.blit(line, line.get_rect(center=(640, 200 + 22 * k)))
        for i, rect in enumerate(self._rows()):
            chosen = i == self.row
            pygame.draw.rect(surface, (44, 56, 70) if chosen else (30, 38, 48), rect, border_radius=6)
            if chosen:
                pygame.draw.rect(surface, KEY_FOCUS, rect, 2, border_radius=6)
            colour = PLAYER_COLOURS[self.played.colours.index(self.record.names[i]) % len(PLAYER_COLOURS)]
            name = font(18, True).render(self.record.names[i], True, colour)
            surface.blit(name, (rect.x + 18, rect.y + 14))
            kind = font(18).render(f"◀  {t(f'new_game.kind.{self.kinds[i]}')}  ▶", True, INK)
            surface.blit(kind, kind.get_rect(midright=(rect.right - 18, rect.centery)))
        keys = font(13).render(t("play_again.keys"), True, MUTED)
        surface.blit(keys, keys.get_rect(center=(640, 760)))
