"""The table scenes: a session in play, and a deal record stepped in the window.

Both compose the same parts: what feeds the table (a :class:`~...session.runner.TableRunner`
or a :class:`~...session.replay.ReplayDriver`), the :class:`~.view.TableView` (what is drawn
and animated), the :class:`~.input.InputMap` (keys and mouse to intents) and the
right-hand panel's buttons (:mod:`.panel`). The scene turns input into the runner's
actions and commands and draws what the runner's updates say; it keeps no rule of its own.
"""

from __future__ import annotations

import logging

import pygame
import pygame_gui

from ...i18n import current, mark, t
from ...rules.actions import Action, Bid, Buy, Discard, Keep, PlayCard, Repurchase, SetAside
from ...rules.cards import Card
from ...rules.decision import Phase
from ...rules.errors import ViraError
from ...session.as_played import AsPlayed, as_recorded, your_names
from ...session.describe import describe_game, group_bid_key, is_you
from ...session.flow import Ask
from ...session.record import Record
from ...session.replay import ReplayDriver
from ...session.runner import BOT_PAUSE_S, TableRunner, Update
from ...session.runner import Command as TableCommand
from ...session.state import TableState
from ...session.table import Table
from ...session.words import card_text, say_action, say_refusal
from ...session.worker import Worker
from ..base import AppPort, Scene, SceneName
from ..cards import CARD_H, CARD_W, CardImages
from ..theme import GOLD, INK, MUTED, RED
from .bidgrid import BOX, BidGrid
from .cards_layer import SPEEDS_KEEPING_THE_TRICK
from .input import OVERLAYS, Command, InputMap, Intent, UseCard
from .model import TABLE_W
from .panel import ButtonSpec, Layout, Panel, Situation, choice_button, choice_prompt, choice_ready, table_buttons
from .view import TableView

__all__ = ["ReplayScene", "TableScene"]

log = logging.getLogger(__name__)

SESSION_COMMANDS = {"next": TableCommand.NEXT_DEAL, "last round": TableCommand.LAST_ROUND, "borup": TableCommand.BORUP}


class _TableBase(Scene):
    """What both table scenes share: the view, the input map, overlays, the frame."""

    def __init__(self, app: AppPort) -> None:
        super().__init__(app)
        display = app.settings.display
        self.images = CardImages(four_colour=display.four_colour_deck)
        self.images.preload()
        speed = display.animation_speed
        self.view = TableView(self.images, speed, display.card_back, app.sound)
        self.view.cards.wait_after_trick = display.wait_after_trick
        self.view.cards.keep_last_trick = speed in SPEEDS_KEEPING_THE_TRICK  # a newcomer saw tricks go unread
        self.input = InputMap(self._card_at, self._drag)
        self.panel = Panel(self)
        self.focus = 0
        self.selected: set[Card] = set()

    # ------------------------------------------------------------------ helpers for the input map
    def hand(self) -> list[Card]:
        return self.view.viewer_hand()

    def _card_at(self, pos: tuple[int, int]) -> Card | None:
        if self.view.cover:
            return None
        return self.view.cards.card_at(pos, self.hand())

    def _drag(self, card: Card, pos: tuple[int, int]) -> None:
        sp = self.view.cards.sprite(card)
        if sp is not None:
            self.view.tweens.cancel(sp)
            self.view.cards.dragging = card
            sp.x, sp.y = pos[0] - CARD_W / 2, pos[1] - CARD_H / 2
            sp.tx, sp.ty = sp.x, sp.y  # let go, it glides from here: to the trick, or back to the hand

    def leave(self) -> None:
        """Esc: to the menu."""
        self.app.open("menu")

    def focus_card(self) -> Card | None:
        """The card the keys act on: never one drawn dimmed (it may not be played now), but
        the next that may, rightwards round the hand."""
        hand = self.hand()
        if not hand:
            return None
        at = min(self.focus, len(hand) - 1)
        dimmed = self.dimmed_cards()
        if hand[at] in dimmed:
            at = next((i % len(hand) for i in range(at, at + len(hand)) if hand[i % len(hand)] not in dimmed), at)
            self.focus = at
        return hand[at]

    def message(self, text: str, colour: tuple[int, int, int] = INK) -> None:
        self.view.message, self.view.message_colour = text, colour

    def next_wake(self) -> float | None:
        """Seconds until this scene needs a frame without input (0: it is animating)."""
        return 0.0 if self.view.busy or self.view.cards.dragging is not None else None

    def handle(self, event: pygame.event.Event) -> None:
        if event.type == pygame.MOUSEMOTION:
            self.view.pointer = event.pos  # the viewer's discards show while it rests on their pile
        if event.type == pygame_gui.UI_BUTTON_PRESSED and event.ui_element in self.panel.buttons:
            if not self.view.cover:
                self.press(self.panel.buttons[event.ui_element])
            return
        if self.grid_event(event):
            return
        if event.type in (pygame.KEYDOWN, pygame.MOUSEBUTTONDOWN) and self.view.cards.release():
            return  # "wait after each trick": this click or key only takes the trick away
        for intent in self.input.intents(event):
            if self.view.intro.running:  # any key or click skips the seating draw, and does nothing else
                self.view.intro.skip()
                continue
            if self.view.cover:  # hot seat: Enter or Space lifts the cover; nothing else acts under it
                if intent in (Command("confirm"), Command("use_focus")):
                    self.lift_cover()
                elif intent == Command("back"):
                    self.intent(intent)
                continue
            self.intent(intent)
        if self.input.dragging is None and self.view.cards.dragging is not None:
            self.view.cards.dragging = None
            self.refresh()

    def intent(self, intent: Intent) -> None:
        if isinstance(intent, UseCard):
            self.use_card(intent.card)
            return
        name = intent.name
        if name in ("focus", "bid_step") and self.grid_shown():
            self.grid_move(intent.arg if name == "focus" else 0, intent.arg if name == "bid_step" else 0)
        elif name == "focus":
            hand = self.hand()
            if hand:  # from the card shown with the focus: the hand may have shrunk since it was set
                dimmed = self.dimmed_cards()  # cards that may not be played now are stepped over
                at = min(self.focus, len(hand) - 1)
                for _ in hand:
                    at = (at + intent.arg) % len(hand)
                    if hand[at] not in dimmed:
                        break
                self.focus = at
        elif name == "use_focus":
            card = self.focus_card()
            if card is not None:
                self.use_card(card)
        elif name == "overlay":
            self.open_overlay(OVERLAYS[intent.arg])
        elif name == "back":
            self.leave()
        elif name == "dropped":
            self.refresh()
        elif name == "discards":
            self.view.peek = not self.view.peek
        else:
            self.command(intent)

    # ------------------------------------------------------------------ for the subclasses
    def grid_event(self, event: pygame.event.Event) -> bool:
        """The mouse over the bid grid (``True``: the event was the grid's)."""
        return False

    def use_card(self, card: Card) -> None:
        """A click or Space on one of the viewer's cards."""

    def press(self, what: Action | Command | None) -> None:
        """A panel button."""

    def command(self, intent: Command) -> None:
        """A command the subclass knows."""

    def open_overlay(self, name: SceneName) -> None:
        """An overlay sheet (score sheet, bid table, tricks)."""

    def refresh(self) -> None:
        """Lay the cards out again (after a selection or a drag)."""

    def draw(self, surface: pygame.Surface) -> None:
        self.view.cards.focus_card = self.focus_card()
        self.view.dimmed = self.dimmed_cards()
        self.view.draw(surface, focus_shown=self.focus_shown())

    def dimmed_cards(self) -> set[Card]:
        """The viewer's cards it may not play now (drawn dimmed)."""
        return set()

    def focus_shown(self) -> bool:
        return False

    def grid_shown(self) -> bool:
        return False

    def grid_move(self, dx: int, dy: int) -> None:
        """Arrow keys in the bid grid."""

    def lift_cover(self) -> None:
        """Hot seat: the player the screen was passed to takes it."""


class TableScene(_TableBase):
    """A session in play: the runner runs the table; the player answers with the panel,
    cards and keys."""

    ends_session = True  # after a deal, offer the last round and Borup
    deals_on = True  # after a deal, the next one (a lesson is one deal)

    def __init__(
        self,
        app: AppPort,
        table: Table | None,
        autoplay: int | None = None,
        hints: bool = False,
        saves: bool = True,
        back_to: SceneName | None = None,
    ) -> None:
        super().__init__(app)
        self.back_to = back_to  # one deal played again: after it (and at Esc) back to this screen
        if autoplay is not None and app.autoplay_speed:
            self.view.speed_name = app.autoplay_speed
        self.worker = Worker()
        self.runner = self.make_runner(table, autoplay, hints, saves)
        self.runner.coach_bids = self.coach_grid_on()
        self.clock = 0.0  # the scene's own time: the runner's pauses are counted on it
        self._nothing_confirmed = False  # Enter once more takes no cards (buy -)
        self._leave_asked = False  # Esc in a deal played again asked first: Esc once more leaves
        self._analysis_wanted = False  # the analysis was asked for and is being worked out
        self.layout = Layout()
        self._inputs: tuple[object, ...] | None = None  # what the layout was made from
        self._bids: tuple[Bid, ...] | None = None
        self.grid = BidGrid()
        self.view.keys_help = mark("table.keys")
        self.view.log = self.runner.log  # the runner's narration, drawn as it grows

    def make_runner(self, table: Table | None, autoplay: int | None, hints: bool, saves: bool) -> TableRunner:
        """The runner of this table (a lesson makes its own)."""
        assert table is not None
        return TableRunner(
            table,
            self.worker,
            pause=BOT_PAUSE_S * self.view.factor(),
            autoplay=autoplay,
            save=self.app.autosave if saves else None,
            hint_every_decision=hints,
            on_committed=self.app.deal_committed,
            on_settled=self.app.clear_autosave if saves else None,  # the session's end: nothing to continue
        )

    def coach_grid_on(self) -> bool:
        """The coach's colours in the bid grid, by the setting: in practice games (one human
        at the table), always, or never."""
        mode = self.app.settings.display.coach_grid
        return mode == "always" or (mode == "practice" and len(self.runner.humans) < 2)

    @property
    def table(self) -> Table:
        """The table in play (for the overlays, tools and tests)."""
        return self.runner.table

    @property
    def deals_done(self) -> int:
        return self.runner.deals_done

    @property
    def hints_asked(self) -> int:
        return self.runner.hints_asked

    def table_state(self, with_seating: bool = False) -> TableState:
        """What the view draws now."""
        return self.runner.state(with_seating)

    # ------------------------------------------------------------------ lifecycle
    def enter(self) -> None:
        fresh = self.runner.fresh
        update = self.runner.start()
        self.view.show(self.table_state(with_seating=fresh), update.events)
        self._shown()

    def exit(self) -> None:
        super().exit()
        self.runner.close()
        self.worker.shutdown()
        self.app.flush_saves()  # the menu's Continue reads what was saved

    def resume(self) -> None:
        super().resume()
        self.panel.forget()

    def next_wake(self) -> float | None:
        """Frames while anything moves or a bot or hint is worked out; else the runner's next
        move, if it waits on the clock; else none until input."""
        if (wake := super().next_wake()) is not None:
            return wake
        return self.runner.due_in(self.clock)

    # ------------------------------------------------------------------ frame
    def poll(self, ready: bool) -> list[Update]:
        return self.runner.poll(self.clock, ready)

    def update(self, dt: float) -> None:
        self.clock += dt
        self.view.update(dt)
        self.runner.pause = BOT_PAUSE_S * self.view.factor()
        for update in self.poll(ready=not self.view.busy):
            self.take(update)
        self.show_panel()
        if self.runner.finished:
            self.app.quit()

    def take(self, update: Update) -> None:
        """Show what the runner says happened."""
        if update.hint is not None:
            self._hint_in(update)
            return
        if update.hint_failed:
            self.message(t("message.coach_failed"), MUTED)
            return
        if update.advice is not None:
            self.grid.set_advice(update.advice)
            self._grid_note()
            return
        if update.analysis is not None:
            if self._analysis_wanted:  # still wanted: the player has not moved on
                self._analysis_wanted = False
                self.message("")
                self.app.push("analysis", info=update.analysis, viewer=self.runner.viewer)
            return
        if update.events:
            self.selected = set()
            self.view.cards.selected = set()
            self.message(t("message.leave_again") if self._leave_asked else "", GOLD)  # the question stays
            self._nothing_confirmed = False
        self.view.show(self.table_state(), update.events, snap=update.snap)
        self._shown()

    def _shown(self) -> None:
        """What the view draws from the runner besides the state: the note, the cover."""
        self.view.note = self.runner.note
        self.view.cover = self.runner.cover
        self.view.cover_note = self.runner.cover_note

    # ------------------------------------------------------------------ the panel
    def viewer_ask(self) -> Ask | None:
        return self.runner.asked()

    def situation(self) -> Situation:
        assert self.view.state is not None
        return Situation(
            self.view.state,
            blocked=bool(self.view.cover) or self.view.intro.running,
            deals_on=self.deals_on and self.back_to is None,
            ends_session=self.ends_session,
            back_after=self.back_to is not None,
            session_over=self.runner.session_over,
            selected=len(self.selected),
            detail_lines=self.view.detail_lines,
        )

    def extra_buttons(self) -> list[ButtonSpec]:
        """More of the panel's buttons (a lesson's)."""
        return []

    def show_panel(self) -> None:
        """The panel's buttons and notes for what is asked now (made again only when they differ)."""
        state = self.view.state
        if state is None:
            return
        ask, situation = self.viewer_ask(), self.situation()
        inputs = (ask, state, situation, current())
        if self._inputs is not None and all(a is b for a, b in zip(inputs[:2], self._inputs[:2], strict=True)) and (
            inputs[2:] == self._inputs[2:]
        ):  # the same question, state (by identity: a new one comes with each update) and selection
            self.panel.show([*self.layout.buttons, *self.extra_buttons()])
            return
        self._inputs = inputs
        layout = table_buttons(ask, situation)
        self.layout = layout
        self.view.details = list(layout.details)
        self.view.detail_room = layout.detail_room
        if layout.bids != self._bids:
            self._bids = layout.bids
            if layout.bids is not None:
                ask = self.viewer_ask()
                standing = next((text for _, text in reversed(state.view.bids) if text != "pass"), None)
                self.grid.set_bids(layout.bids, standing, ask.seat if ask is not None else 0)
                self.grid.set_advice(self.runner.advice())
        self.view.notes_bottom = 322 if layout.details else layout.top - 18
        self.panel.show([*layout.buttons, *self.extra_buttons()])
        self._grid_note()

    # ------------------------------------------------------------------ intents
    def press(self, what: Action | Command | None) -> None:
        if isinstance(what, Command):
            self.command(what)
            return
        self.act(what)

    def act(self, what: Action | None) -> None:
        """The player's answer to the question standing."""
        ask = self.viewer_ask()
        if ask is None:
            return
        try:
            update = self.runner.submit(ask.seat, what)
        except ViraError as exc:
            self.message(say_refusal(exc, self.table.session.seats), RED)
            return
        self.take(update)

    def command(self, intent: Command) -> None:
        name = intent.name
        state = self.view.state
        if name == "confirm":
            self._confirm()
        elif name in SESSION_COMMANDS:
            self._session_command(name)
        elif name == "bid":
            chosen = self.grid.focused_bid() if self.grid_shown() else None
            if chosen is None:
                self.message(t("message.bid_first"), RED)
            elif self.grid.moved:  # the raise moved the choice: the player confirms it first
                self.grid.moved = False
                self.message(t("message.focus_moved", bid=say_action(chosen)), GOLD)
            else:
                self.press(chosen)
        elif name == "pass":
            if self.layout.passes:
                self.press(self.layout.passes[0])
            elif self.grid_shown():
                self.message(t("message.must_open"), RED)
        elif name == "choose":
            ask = self.viewer_ask()
            wanted = ask.view.decision.choice if ask is not None and ask.view.decision is not None else None
            if wanted is not None and choice_ready(wanted, len(self.selected)):
                self.press(wanted.make(sorted(self.selected)))
            elif wanted is not None:
                self.message(f"{choice_button(wanted, len(self.selected))} · {choice_prompt(wanted)}", RED)
        elif name == "button":
            numbered = self.panel.numbered()
            if intent.arg < len(numbered):
                self.press(numbered[intent.arg])
        elif name == "hint":
            self._ask_hint()
        elif name == "undo":
            self._undo()
        elif name == "last_trick" and state is not None:
            self._show_last_trick()
        elif name == "analyse":
            self._analyse()
        elif name == "export":
            self._export()

    def _export(self) -> None:
        """E: the deal just finished, written as a deal record to the exports folder (not a
        deal in play, whose record would show every hidden card)."""
        from ...paths import export_dir
        from ...session.exchange import export_record

        if not self.runner.deal_over:
            self.message(t("message.export_after"), MUTED)
            return
        try:
            path = export_record(self.table.record(), self.table.deal_index, export_dir())
        except OSError as exc:
            self.message(t("message.export_failed", problem=exc.strerror or str(exc)), RED)
            return
        self.message(t("history.exported", folder=str(path.parent), file=path.name), GOLD)

    def _analyse(self) -> None:
        """A (or the button after a deal): the deal's double-dummy analysis, worked out in the
        worker and shown as it comes."""
        info = self.runner.analysis()
        if info is not None:
            self.app.push("analysis", info=info, viewer=self.runner.viewer)
        elif self.runner.ask_analysis():
            self._analysis_wanted = True
            self.message(t("analysis.working"), MUTED)
            if (info := self.runner.analysis()) is not None:  # worked out at once (no worker process)
                self._analysis_wanted = False
                self.message("")
                self.app.push("analysis", info=info, viewer=self.runner.viewer)
        else:  # said, not silently ignored: a laid deal has no play, a deal in play no end yet
            self.message(t("analysis.no_play" if self.runner.deal_over else "analysis.not_over"), MUTED)

    def _confirm(self) -> None:
        """Enter: the next deal, the bid chosen, the cards selected, or the card in focus."""
        state = self.view.state
        ask = self.viewer_ask()
        if state is not None and state.over:
            self._session_command("next")
        elif self.grid_shown():
            self.command(Command("bid"))
        elif ask is not None and ask.view.decision and ask.view.decision.choice:
            choice = ask.view.decision.choice
            if self.selected or (choice.min_count == 0 and self._nothing_confirmed):
                self.command(Command("choose"))
            elif choice.min_count == 0:  # Enter with nothing selected: ask before taking nothing
                self._nothing_confirmed = True
                self.message(t("choice.confirm_nothing", what=choice_button(choice, 0)), GOLD)
            else:
                self.message(choice_prompt(choice), GOLD)
        elif ask is not None and ask.view.decision and ask.view.decision.phase is Phase.PLAY:
            card = self.focus_card()
            if card is not None:
                self.use_card(card)

    def _session_command(self, name: str) -> None:
        if name == "next" and self.runner.session_over:
            self.runner.command(TableCommand.SETTLE)  # the runner ends the session; the sheet shows it
            self.app.open("settlement", state=self.table_state())
            return
        if name == "next" and self.back_to is not None:
            self.leave()
            return
        if name == "next" and not self.deals_on:
            self.after_deal()
            return
        try:
            update = self.runner.command(SESSION_COMMANDS[name])
        except ViraError as exc:
            self.message(str(exc), MUTED)
            return
        self.take(update)

    def after_deal(self) -> None:
        """What Enter does after the deal where there is no next deal (a lesson's)."""

    def handle(self, event: pygame.event.Event) -> None:
        if self._leave_asked and (
            event.type == pygame.MOUSEBUTTONDOWN or (event.type == pygame.KEYDOWN and event.key != pygame.K_ESCAPE)
        ):  # anything but Esc takes the question back: the deal plays on
            self._leave_asked = False
            self.message("")
        super().handle(event)

    def leave(self) -> None:
        """Esc: to the menu, or (a deal played again) back to the screen it was chosen on; a
        deal played again is saved nowhere, so while it is in play Esc asks first."""
        if self.back_to is not None and not self.runner.deal_over and not self._leave_asked:
            self._leave_asked = True
            self.message(t("message.leave_again"), GOLD)
            return
        super().leave()
        if self.back_to is not None and self.back_to != "menu":
            self.app.push(self.back_to)

    def use_card(self, card: Card) -> None:
        ask = self.viewer_ask()
        if ask is None or ask.view.decision is None or ask.optional:
            return
        decision = ask.view.decision
        if decision.phase is Phase.PLAY:
            action = PlayCard(ask.seat, card)
            if action not in decision.actions:
                refusal = self.runner.refusal(action)
                if refusal is not None:
                    self.message(f"{card_text(card)}: {refusal}", RED)
                self.view.cards.refuse(card)
                return
            self.press(action)
        elif decision.choice is not None:
            self.selected ^= {card}
            self._nothing_confirmed = False
            self.refresh()

    def refresh(self) -> None:
        self.view.cards.selected = set(self.selected)
        self.view.show(self.table_state())

    def lift_cover(self) -> None:
        self.runner.lift_cover()
        self._shown()

    def focus_shown(self) -> bool:
        return self.viewer_ask() is not None and not self.grid_shown()

    # ------------------------------------------------------------------ the bid grid
    def grid_shown(self) -> bool:
        ask = self.viewer_ask()
        return (
            ask is not None
            and not self.view.cover
            and not self.view.intro.running
            and ask.view.decision is not None
            and ask.view.decision.phase is Phase.AUCTION
        )

    def grid_move(self, dx: int, dy: int) -> None:
        self.grid.move(dx, dy)
        self._grid_note()

    def grid_event(self, event: pygame.event.Event) -> bool:
        if not self.grid_shown():
            self.grid.hover = None
            return False
        if event.type == pygame.MOUSEMOTION:
            self.grid.hover = self.grid.cell_at(event.pos)
            self._grid_note()
            return False
        if event.type == pygame.MOUSEBUTTONDOWN and event.button == 1 and BOX.collidepoint(event.pos):
            cell = self.grid.cell_at(event.pos)
            if cell is not None and cell in self.grid.cells:
                if cell == self.grid.focus:  # a second click on the chosen cell bids it
                    self.command(Command("bid"))
                else:
                    self.grid.focus = cell
                    self._grid_note()
            return True
        return False

    def _grid_note(self) -> None:
        """Under the panel's header: what the cell under the mouse (or focused) asks and pays,
        or why forehand may not pass."""
        if not self.grid_shown():
            return
        ask = self.viewer_ask()
        assert ask is not None and ask.view.decision is not None
        cell = self.grid.described()
        game = self.grid.row_game(cell) if cell is not None else None
        if game is not None and cell is not None and cell[1] < 3:
            lines = describe_game(game, cell[1], ask.view.highest, ask.view.rules.pulla)
        elif cell is not None and cell in self.grid.cells:
            bid = self.grid.cells[cell].bid
            # hold: the same bid, in forehand; a group bid: the lowest game that outbids, or the declarer's choice
            key = "message.hold_bid" if cell[1] == 3 else group_bid_key(bid)
            lines = [t(key, bid=say_action(bid))]
            stands = self.view.state.bid_games.get(bid) if self.view.state is not None else None
            if stands is not None:  # what it stands for here, as the engine says: its tricks and pins
                lines += describe_game(stands, bid.suit_level, ask.view.highest, ask.view.rules.pulla)[:2]
        else:
            lines = []
        if not self.layout.passes:  # whatever the mouse is over, the missing Pass is explained
            lines.append(t("message.must_open"))
        said = self.grid.advice.get(cell) if cell is not None else None
        self.view.details = [said.text(), *lines] if said is not None else lines

    def draw(self, surface: pygame.Surface) -> None:
        super().draw(surface)
        if self.grid_shown():
            self.grid.draw(surface)

    def dimmed_cards(self) -> set[Card]:
        ask = self.viewer_ask()
        if ask is None or ask.optional or ask.view.decision is None or ask.view.decision.phase is not Phase.PLAY:
            return set()
        legal = {a.card for a in ask.view.decision.actions if isinstance(a, PlayCard)}
        return set(ask.view.hand) - legal

    def open_overlay(self, name: SceneName) -> None:
        """A sheet over the table, drawn from the table's state as the seat shown has it (the
        port's), never from the table itself."""
        if self.view.state is not None:
            self.app.push(name, state=self.view.state)

    # ------------------------------------------------------------------ hints, undo, the last trick
    def _ask_hint(self) -> None:
        if self.runner.ask_hint():
            self.message(t("message.thinking"), MUTED)
        else:
            self.message(t("message.no_hint"), MUTED)

    def _hint_in(self, update: Update) -> None:
        hint = update.hint
        assert hint is not None
        self.message(hint.text(), GOLD)
        action = hint.action
        if isinstance(action, Bid) and self.grid_shown():
            self.grid.select(action)  # the hint selects the suggested cell, and the panel describes it
            self._grid_note()
        elif isinstance(action, PlayCard) and action.card in self.hand():
            self.focus = self.hand().index(action.card)  # … or puts the cursor on the card
        elif isinstance(action, Keep | Discard | Buy | Repurchase | SetAside):
            self.selected = set(action.cards) & set(self.hand())  # … or selects the cards
            self.refresh()

    def _undo(self) -> None:
        try:
            update = self.runner.undo()
        except ViraError:
            self.message(t("message.no_undo"), MUTED)
            return
        self.selected = set()
        self.view.cards.selected = set()
        self.take(update)

    def _show_last_trick(self) -> None:
        """L: the last trick's cards as they lay, who played each and who won it."""
        if self.view.state is not None:
            self.app.push("last_trick", state=self.view.state, images=self.images)


JUMPS = ("auction", "buy", "play", "payment")  # the replay's jumps, by their buttons' number
_JUMP_KEYS = (pygame.K_1, pygame.K_2, pygame.K_3, pygame.K_4)


class ReplayScene(_TableBase):
    """A deal record in the window: → and ← step its actions forward and back, Tab changes
    whose cards are shown, Esc leaves."""

    def __init__(
        self,
        app: AppPort,
        record: Record,
        title: str = "",
        quit_on_back: bool = False,
        pushed: bool = False,
        deal_id: int | None = None,
        problem: str = "",
        number: int = 0,
        played: AsPlayed | None = None,
    ) -> None:
        super().__init__(app)
        self.pushed = pushed  # opened over another scene (the history): Esc returns to it
        self.problem = problem  # the record was bad from an action on: shown up to it, with the error
        self.deal_id = deal_id  # the deal's id in history (a deal played again from it is linked to it)
        # number: the deal's index in its session; played: its seats, levels and tokens (history's)
        self.driver = ReplayDriver(record, number, played if played is not None else as_recorded(record, your_names()))
        self.title = title
        self.quit_on_back = quit_on_back  # ``vira replay FILE --window``: Esc closes the window
        self.view.keys_help = mark("table.replay_keys")
        self.view.cards.keep_last_trick = self.view.cards.replaying = True  # a trick stepped to is seen whole

    def enter(self) -> None:
        if self.problem:  # at the last good action, where the record goes wrong
            self.driver.go_to(len(self.driver.actions))
        self.view.show(self.driver.state(), self.driver.start_events())
        self.view.finish()
        self._caption()
        self._buttons()

    def _buttons(self) -> None:
        y = 352  # under the message (three lines), above the log of the last, this and the next action
        right = TABLE_W + 164
        self.panel.show(
            [
                ButtonSpec(t("button.to_auction"), Command("jump", 0), y, width=140),
                ButtonSpec(t("button.to_buy"), Command("jump", 1), y, right, 140),
                ButtonSpec(t("button.to_play"), Command("jump", 2), y + 44, width=140),
                ButtonSpec(t("button.to_payment"), Command("jump", 3), y + 44, right, 140),
                ButtonSpec(t("button.trick_back"), Command("trick", -1), y + 88, width=140),
                ButtonSpec(t("button.trick_forward"), Command("trick", 1), y + 88, right, 140),
                ButtonSpec(t("button.back"), Command("back_step"), y + 132, width=140),
                ButtonSpec(t("button.forward"), Command("forward"), y + 132, right, 140),
                ButtonSpec(t("button.whose_hand"), Command("viewer"), y + 176, width=140),
                ButtonSpec(t("button.play_again"), Command("play_again"), y + 176, right, 140),
                ButtonSpec(t("button.analyse"), Command("analyse"), y + 220),
            ]
        )

    def resume(self) -> None:
        super().resume()
        self.panel.forget()
        self._buttons()

    def _caption(self) -> None:
        driver = self.driver
        names = driver.record.names
        self.message(t("message.replay", position=driver.position, total=len(driver.actions)), GOLD)
        self.view.note = self.title
        self.view.log = [
            t("replay.showing_all") if driver.all_hands else self._showing(names[driver.viewer]),
            t("replay.last", action=driver.last_action_text()),
            t("replay.next", action=driver.next_action_text()),
        ]
        result = driver.result()
        if result is not None:
            self.view.log.append(result[0])
        if self.problem:
            self.message(t("replay.bad_from", good=len(driver.actions), problem=self.problem), RED)

    @staticmethod
    def _showing(name: str) -> str:
        """Whose view the replay shows ("You" takes no "'s": the player's own text)."""
        return t("replay.showing_you") if is_you(name) else t("replay.showing", name=name)

    def step(self, forward: bool) -> None:
        events = self.driver.forward() if forward else self.driver.back()
        self.view.show(self.driver.state(), events, snap=not forward)  # a step back jumps
        self._caption()

    def press(self, what: Action | Command | None) -> None:
        if isinstance(what, Command):
            self.command(what)

    def intent(self, intent: Intent) -> None:
        if isinstance(intent, Command) and intent.name == "focus":
            self.step(intent.arg > 0)
        elif isinstance(intent, Command) and intent.name == "use_focus":
            self.step(True)
        elif isinstance(intent, Command) and intent.name == "back":
            if self.quit_on_back:
                self.app.quit()
            elif self.pushed:
                self.app.pop()
            else:
                self.app.open("menu")
        else:
            super().intent(intent)

    def command(self, intent: Command) -> None:
        if intent.name in ("forward", "confirm", "use_focus"):
            self.step(True)
        elif intent.name == "back_step":
            self.step(False)
        elif intent.name == "viewer":
            self.driver.cycle_viewer()
            self._jumped()
        elif intent.name == "jump":
            self.driver.go_to(self.driver.landmarks()[JUMPS[intent.arg]])
            self._jumped()
        elif intent.name == "trick":
            self.driver.trick_step(int(intent.arg) > 0)
            self._jumped()
        elif intent.name == "analyse":
            self._analyse()
        elif intent.name == "play_again":
            self.play_again()

    def play_again(self) -> None:
        """Play the deal again from the point shown (its end: from the start), seats chosen first."""
        driver = self.driver
        upto = 0 if driver.at_end and not self.problem else driver.position  # a bad record: from where it stops
        self.app.push("play_again", record=driver.record, upto=upto, parent=self.deal_id, played=driver.played)

    def _jumped(self) -> None:
        """The table shown anew at the driver's position, without animation."""
        self.view.show(self.driver.state(), snap=True)
        self._caption()

    def _analyse(self) -> None:
        """The record's double-dummy analysis, for the seat shown: worked out by the driver's
        worker, shown as it comes."""
        analysis = self.driver.analysis()
        if analysis is not None:
            self.app.push("analysis", info=analysis, viewer=self.driver.record.names[self.driver.viewer])
        elif self.problem:  # the record stops before the deal's end: nothing to set against best play
            self.message(t("analysis.record_stops", good=len(self.driver.actions)), MUTED)
        elif self.driver.ask_analysis():
            self.message(t("analysis.working"), MUTED)
        else:
            self.message(t("analysis.no_play"), MUTED)

    def next_wake(self) -> float | None:
        if (wake := super().next_wake()) is not None:
            return wake
        return 0.05 if self.driver.working else None

    def exit(self) -> None:
        super().exit()
        self.driver.close()

    def handle(self, event: pygame.event.Event) -> None:
        if event.type == pygame.KEYDOWN and event.key in (pygame.K_HOME, pygame.K_END):
            self.driver.go_to(0 if event.key == pygame.K_HOME else len(self.driver.actions))
            self._jumped()
            return
        if event.type == pygame.KEYDOWN and event.key == pygame.K_p:
            self.play_again()
            return
        if event.type == pygame.KEYDOWN and event.key in _JUMP_KEYS:  # 1 to 4: the buttons' jumps
            self.command(Command("jump", _JUMP_KEYS.index(event.key)))
            return
        if event.type == pygame.KEYDOWN and event.key in (pygame.K_PAGEUP, pygame.K_PAGEDOWN):
            self.driver.trick_step(event.key == pygame.K_PAGEDOWN)
            self._jumped()
            return
        super().handle(event)

    def update(self, dt: float) -> None:
        self.view.update(dt)
        for analysis in self.driver.poll():
            if analysis is not None:
                self._caption()
                self.app.push("analysis", info=analysis, viewer=self.driver.record.names[self.driver.viewer])
            else:
                self.message(t("analysis.failed"), RED)
