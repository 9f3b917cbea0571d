"""A table in play at the window, the part a session's table, practice and a lesson share:
a :class:`~...session.runner.TableClient` runs the table; :class:`TablePlay` draws what its
updates say (through a :class:`~.surface.TableSurface`) and lays out the panel and the bid
grid; :class:`Moves` turns the player's input into the runner's actions and commands.
Where the scenes differ, a :class:`Role` says: the state drawn, how the table is moved on,
the commands, answers and buttons of its own."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Protocol

import pygame

from ...i18n import current, t
from ...rules.actions import Action, Bid, Buy, Discard, Keep, PlayCard, Repurchase, SetAside
from ...rules.cards import Card
from ...rules.decision import Phase
from ...rules.errors import ViraError
from ...session.analysis import Analysis
from ...session.flow import Ask
from ...session.port import TableClient, Update
from ...session.state import TableState
from ...session.turns import BOT_PAUSE_S
from ...session.turns import Command as TableCommand
from ...session.words import card_text, say_action
from ..analysis import working_text
from ..base import Scene, SceneName
from ..theme import GOLD, MUTED, RED
from .bidding import Bidding
from .input import OVERLAYS, Command, Intent, UseCard
from .panel import ButtonSpec, Layout, Situation, choice_button, choice_prompt, choice_ready, table_buttons
from .surface import TableSurface

__all__ = ["AtTable", "Moves", "Role", "SessionRole", "TablePlay"]

# Seconds after a deal ends in which Enter does not yet go on to the next: an Enter typed for a
# card as the others played the last trick skipped the result before a newcomer could read it.
RESULT_PAUSE = 1.0
SESSION_COMMANDS = {"next": TableCommand.NEXT_DEAL, "last round": TableCommand.LAST_ROUND, "borup": TableCommand.BORUP}
ENDING_ASKS = {"last round": "message.confirm_last_round", "borup": "message.confirm_borup"}  # said at a first press


class Role(Protocol):
    """What a scene makes of its table in play where scenes differ (each ``own_`` method
    returns ``True`` where it took the matter, else the table's own way follows)."""

    def state(self, with_seating: bool) -> TableState:
        """The table as drawn."""
        ...

    def poll(self, now: float, ready: bool) -> list[Update]:
        """Move the table on (see :meth:`TableClient.poll`)."""
        ...

    def own_answer(self, what: Action | None) -> bool:
        """The player's answer to the question standing."""
        ...

    def own_command(self, intent: Command) -> bool: ...

    def own_intent(self, intent: Intent) -> bool: ...

    def own_hint(self) -> bool: ...

    def own_overlay(self, name: SceneName) -> bool: ...

    def own_buttons(self) -> list[ButtonSpec]:
        """The scene's buttons beside the panel's."""
        ...

    def after_deal(self) -> None:
        """Enter after the deal where there is no next deal (a lesson's one deal)."""
        ...


class SessionRole:
    """A session's table: the runner's state and moves, nothing of its own."""

    def __init__(self, runner: TableClient) -> None:
        self.runner = runner

    def state(self, with_seating: bool) -> TableState:
        return self.runner.state(with_seating)

    def poll(self, now: float, ready: bool) -> list[Update]:
        return self.runner.poll(now, ready)

    def own_answer(self, what: Action | None) -> bool:
        return False

    def own_command(self, intent: Command) -> bool:
        return False

    def own_intent(self, intent: Intent) -> bool:
        return False

    def own_hint(self) -> bool:
        return False

    def own_overlay(self, name: SceneName) -> bool:
        return False

    def own_buttons(self) -> list[ButtonSpec]:
        return []

    def after_deal(self) -> None:
        """A session's table always deals on."""


class TablePlay:
    """One table in play at the window, for ``scene`` (see the module). ``deals_on``: after
    a deal, the next one; ``ends_session``: offer the last round and Borup; ``back_to``: one
    deal played again, after it (and at Esc) back to this screen."""

    def __init__(
        self,
        scene: Scene,
        runner: TableClient,
        role: Role,
        keys_help: str,
        *,
        speed: str | None = None,
        brisk: Callable[[], bool] = lambda: False,
        deals_on: bool = True,
        ends_session: bool = True,
        back_to: SceneName | None = None,
    ) -> None:
        self.app = scene.app
        self.runner = runner
        self.role = role
        self.surface = TableSurface(scene, keys_help, speed)
        self.brisk = brisk  # when to play the table briskly (a lesson's scripted play)
        self.view = self.surface.view
        self.deals_on, self.ends_session, self.back_to = deals_on, ends_session, back_to
        self.bidding = Bidding(self.surface, self.viewer_ask, lambda: self.moves.command(Command("bid")))
        self.moves = Moves(self)
        self.layout = Layout()
        self.selected: set[Card] = set()  # the viewer's cards chosen for a card choice
        self.chosen: Action | Command | None = None  # the button the hint selected (a trump, Pass …): Enter takes it
        self.clock = 0.0  # the scene's own time: the runner's pauses are counted on it
        self._inputs: tuple[object, ...] | None = None  # what the panel's layout was made from
        self._link_note = ""  # what was last said of a shared table's connection

    def viewer_ask(self) -> Ask | None:
        return self.runner.asked()

    def table_state(self, with_seating: bool = False) -> TableState:
        """What the view draws now."""
        return self.role.state(with_seating)

    # ------------------------------------------------------------------ lifecycle
    def open(self, update: Update, with_seating: bool = False, at_once: bool = False) -> None:
        """Show the table as the runner's ``update`` opens it (``at_once``: no animation)."""
        self.view.show(self.table_state(with_seating), update.events)
        if at_once:
            self.view.finish()
        self.told()

    def close(self) -> None:
        """The scene is left: a finished deal is final, the worker stops, saves are written."""
        self.runner.close()
        self.app.flush_saves()  # the menu's Continue reads what was saved

    def next_wake(self) -> float | None:
        """Frames while anything moves or a bot or hint is worked out; else the runner's next
        move, if it waits on the clock; else none until input."""
        if (wake := self.surface.next_wake()) is not None:
            return wake
        return self.runner.due_in(self.clock)

    def update(self, dt: float) -> None:
        self.view.pace(self.brisk())  # for this frame's moves
        self.clock += dt
        self.view.update(dt)
        self.runner.pause = BOT_PAUSE_S * self.view.factor()
        for update in self.role.poll(self.clock, not self.view.busy):
            self.take(update)
        self.told()
        self.show_panel()
        if self.runner.facts.finished:
            self.app.quit()

    # ------------------------------------------------------------------ what the runner says
    def take(self, update: Update) -> None:
        """Show what the runner says happened."""
        if update.refused:  # a shared table's host refused it, as a refusal here is shown
            self.surface.message(update.refused, RED)
            self._inputs = None  # the question stands again: its buttons too
        elif update.hint is not None:
            self._hint_in(update)
        elif update.hint_failed:
            self.surface.message(t("message.coach_failed"), MUTED)
        elif update.advice is not None:
            self.bidding.advised(update.advice)
        elif update.analysis is not None:
            self.moves.analysis_in(update.analysis)
        elif update.analysing is not None:
            self.moves.analysis_progress(update.analysing)
        else:
            if update.events:
                self.selected, self.chosen = set(), None
                self.surface.mark(raised=frozenset())
                self.moves.moved_on()
            self.view.show(self.table_state(), update.events, snap=update.snap)
            self.told()

    def told(self) -> None:
        """What the runner tells beside the table, as the seat shown may see it: the log,
        the note, the hot-seat cover and the moves just made under it."""
        seen, facts = self.runner.seen(), self.runner.facts
        self.surface.mark(log=seen.log, note=seen.note, cover=seen.cover, cover_note=tuple(facts.cover_note))
        if facts.link_note != self._link_note:  # a shared table's connection dropped, or is back
            self._link_note = facts.link_note
            self.surface.message(facts.link_note, RED)

    def rebuilt(self, raised: frozenset[Card] = frozenset()) -> None:
        """The table shown as the runner left it, at once (set at a position, or rebuilt),
        nothing selected (``raised``: cards drawn raised all the same, never like a selection)."""
        self.selected, self.chosen = set(), None
        self.bidding.grid.focus = None  # a bid chosen before is not chosen again by Enter
        self.surface.mark(raised=raised)
        self.view.show(self.table_state(), snap=True)
        self.told()

    def refresh(self) -> None:
        """Lay the cards out again (after a selection or a drag)."""
        self.surface.mark(raised=frozenset(self.selected))
        self.view.show(self.table_state())

    def lift_cover(self) -> None:
        self.runner.lift_cover()
        self.told()

    def _hint_in(self, update: Update) -> None:
        hint = update.hint
        assert hint is not None
        self.surface.message(hint.text(), GOLD)
        action, hand = hint.action, self.surface.hand()
        self.choose(None)  # what an earlier hint selected is not what this one says
        if isinstance(action, Bid) and self.bidding.shown():
            self.bidding.select(action)  # the hint selects the suggested cell, and the panel describes it
        elif isinstance(action, PlayCard) and action.card in hand:
            self.surface.focus = hand.index(action.card)  # … or puts the cursor on the card
        elif isinstance(action, Keep | Discard | Buy | Repurchase | SetAside):
            self.selected = set(action.cards) & set(hand)  # … or selects the cards, and the button that takes them
            self.choose(Command("choose"))
            self.refresh()
        elif action in self.layout_actions():
            if self.bidding.shown():  # a pass: no cell stays chosen, Enter passes as the lit Pass button says
                self.bidding.grid.focus = None
            self.choose(action)  # … or selects its button (a trump, a level, turn or not, pass …)

    def choose(self, what: Action | Command | None) -> None:
        """``what``'s button shown selected: Enter takes it (``None``: no button)."""
        self.chosen = what
        self.surface.panel.select(what)

    def layout_actions(self) -> list[Action]:
        """The answers the panel's buttons give now."""
        return [s.what for s in self.layout.buttons if s.what is not None and not isinstance(s.what, Command)]

    # ------------------------------------------------------------------ the panel
    def situation(self) -> Situation:
        assert self.view.state is not None
        return Situation(
            self.view.state,
            blocked=bool(self.surface.shown.cover) or self.view.intro.running,
            deals_on=self.deals_on and self.back_to is None,
            ends_session=self.ends_session,
            back_after=self.back_to is not None and not self.runner.facts.shared,
            host_deals=self.runner.facts.shared,
            session_over=self.runner.seen().session_over,
            selected=len(self.selected),
            detail_lines=self.view.panel_text.detail_lines,
        )

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
            self.surface.panel.show([*self.layout.buttons, *self.role.own_buttons()])
            return
        self._inputs = inputs
        layout = self.layout = table_buttons(ask, situation)
        self.surface.mark(details=layout.details, text_bottom=layout.top - 4)
        self.bidding.laid_out(layout, self.runner.advice())
        self.surface.panel.show([*layout.buttons, *self.role.own_buttons()])
        self.surface.panel.select(self.chosen)
        self.bidding.note()

    # ------------------------------------------------------------------ drawing
    def dimmed_cards(self) -> frozenset[Card]:
        """The viewer's cards it may not play now (drawn dimmed)."""
        ask = self.viewer_ask()
        if ask is None or ask.optional or ask.view.decision is None or ask.view.decision.phase is not Phase.PLAY:
            return frozenset()
        legal = {a.card for a in ask.view.decision.actions if isinstance(a, PlayCard)}
        return frozenset(ask.view.hand) - legal

    def draw(self, surface: pygame.Surface) -> None:
        focus_shown = self.viewer_ask() is not None and not self.bidding.shown()
        self.surface.draw(surface, self.dimmed_cards(), focus_shown)
        self.bidding.draw(surface)

    def handle(self, event: pygame.event.Event) -> None:
        self.moves.handle(event)


class Moves:
    """What the player's input does at a table in play (``play``): an answer to the runner,
    a command to it, a sheet over the table, or a word in the panel; the scene's
    :class:`Role` first."""

    def __init__(self, play: TablePlay) -> None:
        self.play = play
        self.runner = play.runner
        self.surface = play.surface
        self._nothing_confirmed = False  # Enter once more takes no cards (buy -)
        self._asked = ""  # the question standing: "leave" (Esc asked first: Esc once more leaves), "close" (the same
        # for the window's close button), or none
        self._over_at: float | None = None  # when the deal in play was first seen over
        self._analysis_wanted = False  # the analysis was asked for and is being worked out
        self._ending = ""  # "last round" or "borup" pressed once: pressed again, agreed (a misclick ends nothing)

    @property
    def table_over(self) -> bool:
        """The deal in play is over."""
        return self.runner.state().over

    def moved_on(self) -> None:
        """The table moved: what was said of the last question goes (Esc's question stays)."""
        self._ending = ""
        self.surface.message(self._leave_words(self._asked) if self._asked else "", GOLD)
        self._nothing_confirmed = False
        over = self.table_over
        self._over_at = (self._over_at or time.monotonic()) if over else None

    # ------------------------------------------------------------------ input
    def handle(self, event: pygame.event.Event) -> None:
        if self._asked and (
            event.type == pygame.MOUSEBUTTONDOWN or (event.type == pygame.KEYDOWN and event.key != pygame.K_ESCAPE)
        ):  # anything but Esc takes the question back: the deal plays on
            self._asked = ""
            self.surface.message("")
        if self.play.bidding.event(event):
            if self.play.bidding.grid.focus is not None:  # a cell clicked: Enter bids it, not the hint's pass
                self.play.choose(None)
            return
        self.surface.handle(event, self)

    def lift_cover(self) -> None:
        self.play.lift_cover()

    def refresh(self) -> None:
        self.play.refresh()

    def intent(self, intent: Intent) -> None:
        if self.play.role.own_intent(intent):
            return
        if isinstance(intent, UseCard):
            self.use_card(intent.card)
            return
        name, bidding = intent.name, self.play.bidding
        if name in ("focus", "bid_step") and bidding.shown():
            bidding.move(intent.arg if name == "focus" else 0, intent.arg if name == "bid_step" else 0)
            self.play.choose(None)  # a cell chosen by the keys: Enter bids it, not the hint's pass
        elif name == "focus":
            self.surface.step_focus(intent.arg, self.play.dimmed_cards())  # unplayable cards are stepped over
        elif name == "use_focus":
            card = self.surface.focus_card(self.play.dimmed_cards())
            if card is not None:
                self.use_card(card)
        elif name == "overlay":
            self.open_overlay(OVERLAYS[intent.arg])
        elif name == "back":
            self.leave()
        elif name == "dropped":
            self.play.refresh()
        elif name == "discards":
            self.play.view.toggle_peek()
        else:
            self.command(intent)

    def press(self, what: Action | Command | None) -> None:
        """A panel button."""
        if isinstance(what, Command):
            self.command(what)
            return
        self.act(what)

    def act(self, what: Action | None) -> None:
        """The player's answer to the question standing."""
        if self.play.role.own_answer(what):
            return
        ask = self.play.viewer_ask()
        if ask is None:
            return
        try:
            update = self.runner.submit(ask.seat, what)
        except ViraError as exc:
            self.surface.message(self.runner.say_refusal(exc), RED)
            return
        self.play.take(update)

    def use_card(self, card: Card) -> None:
        """A click or Space on one of the viewer's cards: played, or chosen for a card choice."""
        ask = self.play.viewer_ask()
        if ask is None or ask.view.decision is None or ask.optional:
            return
        decision = ask.view.decision
        if decision.phase is Phase.PLAY:
            action = PlayCard(ask.seat, card)
            if action not in decision.actions:
                refusal = self.runner.refusal(action)
                if refusal is not None:
                    self.surface.message(f"{card_text(card)}: {refusal}", RED)
                self.play.view.cards.refuse(card)
                return
            self.press(action)
        elif decision.choice is not None:
            self.play.selected ^= {card}
            self.play.chosen = None  # the player's own cards now: Enter confirms them, as its button says
            self._nothing_confirmed = False
            self.play.refresh()

    def _would_end(self) -> bool:
        """Whether leaving now ends something nobody saves: a table of friends in play (a bot
        takes the seat; the host's table ends for everyone) or a deal played again."""
        facts = self.runner.facts
        shared = facts.shared and not facts.link_note and not self.runner.seen().session_over
        return shared or (self.play.back_to is not None and not self.table_over)

    def leave(self) -> None:
        """Esc: to the menu, or (a deal played again) back to the screen it was chosen on; a
        deal played again is saved nowhere, so while it is in play Esc asks first, as it does at
        a table of friends."""
        back_to = self.play.back_to
        if self._would_end() and self._asked != "leave":
            self._asked = "leave"
            self.surface.message(self._leave_words(), GOLD)
            return
        self.play.app.open("menu")
        if back_to is not None and back_to != "menu":
            self.play.app.push(back_to)

    def may_close(self) -> bool:
        """The window's close button: where Esc would ask before leaving, closing asks too
        (closing the window again closes it; anything else plays on)."""
        if not self._would_end() or self._asked == "close":
            return True
        self._asked = "close"
        self.surface.message(self._leave_words("close"), GOLD)
        return False

    def _leave_words(self, how: str = "leave") -> str:
        """What Esc (``how``: "leave") or the window's close button ("close") asks first: a deal
        played again ends; a friends' table hosted here ends for everyone; a friend's seat is
        held for them a while, then a bot plays it."""
        facts = self.runner.facts
        if not facts.shared:
            return t(f"message.{how}_again")
        if facts.hosting:
            return t(f"message.{how}_hosted")
        return t(f"message.{how}_shared", seconds=facts.seat_hold)

    def open_overlay(self, name: SceneName) -> None:
        """A sheet over the table, drawn from the table's state as the seat shown has it (the
        port's), never from the table itself."""
        state = self.play.view.state
        if not self.play.role.own_overlay(name) and state is not None:
            self.play.app.push(name, state=state)

    # ------------------------------------------------------------------ commands
    def command(self, intent: Command) -> None:
        if self.play.role.own_command(intent):
            return
        name, play = intent.name, self.play
        if name == "confirm":
            self._confirm()
        elif name in SESSION_COMMANDS:
            self._session_command(name)
        elif name == "bid":
            self._bid()
        elif name == "pass":
            if play.layout.passes:
                self.press(play.layout.passes[0])
            elif play.bidding.shown():
                self.surface.message(t("message.must_open"), RED)
        elif name == "choose":
            self._choose()
        elif name == "button":
            numbered = self.surface.panel.numbered()
            if intent.arg < len(numbered):
                self.press(numbered[intent.arg])
        elif name == "hint":
            self._ask_hint()
        elif name == "undo":
            self._undo()
        elif name == "last_trick" and play.view.state is not None:  # its cards as they lay, who won it
            play.app.push("last_trick", state=play.view.state, images=self.surface.images)
        elif name == "analyse":
            self._analyse()
        elif name == "export":
            self._export()

    def _bid(self) -> None:
        """The bid chosen in the grid, once the player has seen where the raise moved it."""
        grid = self.play.bidding.grid
        chosen = grid.focused_bid() if self.play.bidding.shown() else None
        if chosen is None:
            self.surface.message(t("message.bid_first"), RED)
        elif grid.moved:  # the raise moved the choice: the player confirms it first
            grid.moved = False
            self.surface.message(t("message.focus_moved", bid=say_action(chosen)), GOLD)
        else:
            self.press(chosen)

    def _choose(self) -> None:
        """The cards selected for the card choice standing, or what is wrong with them."""
        ask, selected = self.play.viewer_ask(), self.play.selected
        wanted = ask.view.decision.choice if ask is not None and ask.view.decision is not None else None
        if wanted is not None and choice_ready(wanted, len(selected)):
            self.press(wanted.make(sorted(selected)))
        elif wanted is not None:
            self.surface.message(f"{choice_button(wanted, len(selected))} · {choice_prompt(wanted)}", RED)

    def _confirm(self) -> None:
        """Enter: the next deal, the bid chosen, the cards selected, or the card in focus."""
        state = self.play.view.state
        ask = self.play.viewer_ask()
        if state is not None and state.over:
            if self._over_at is None or time.monotonic() - self._over_at >= RESULT_PAUSE:
                self.command(Command("next"))  # (an Enter typed ahead for a card goes nowhere)
        elif ask is not None and self.play.chosen is not None and self.play.chosen in self.play.layout_actions():
            self.press(self.play.chosen)  # the button the hint selected (a pass in the auction too)
        elif self.play.bidding.shown():
            self.command(Command("bid"))
        elif ask is not None and ask.view.decision and ask.view.decision.choice:
            choice = ask.view.decision.choice
            if self.play.selected or (choice.min_count == 0 and self._nothing_confirmed):
                self.command(Command("choose"))
            elif choice.min_count == 0:  # Enter with nothing selected: ask before taking nothing
                self._nothing_confirmed = True
                self.surface.message(t("choice.confirm_nothing", what=choice_button(choice, 0)), GOLD)
            else:
                self.surface.message(choice_prompt(choice), GOLD)
        elif ask is not None and ask.view.decision and ask.view.decision.phase is Phase.PLAY:
            card = self.surface.focus_card(self.play.dimmed_cards())
            if card is not None:
                self.use_card(card)

    def _session_command(self, name: str) -> None:
        play = self.play
        if name == "next" and self.runner.seen().session_over:
            self.runner.command(TableCommand.SETTLE)  # the runner ends the session; the sheet shows it
            play.app.open("settlement", state=play.table_state())
            return
        if name == "next" and play.back_to is not None and not self.runner.facts.shared:
            self.leave()
            return
        if name == "next" and not play.deals_on:
            play.role.after_deal()
            return
        if name != "next" and self._ending != name:  # how the session ends: said, and agreed by a second press
            self._ending = name
            self.surface.message(t(ENDING_ASKS[name]), GOLD)
            return
        self._ending = ""
        try:
            update = self.runner.command(SESSION_COMMANDS[name])
        except ViraError as exc:
            self.surface.message(str(exc), MUTED)
            return
        play.take(update)

    # ------------------------------------------------------------------ hints, undo, analysis, export
    def _ask_hint(self) -> None:
        if self.play.role.own_hint():
            return
        if self.runner.ask_hint():
            self.surface.message(t("message.thinking"), MUTED)
        else:
            self.surface.message(t("message.no_hint"), MUTED)

    def _undo(self) -> None:
        try:
            update = self.runner.command(TableCommand.UNDO)
        except ViraError:
            self.surface.message(t("message.no_undo"), MUTED)
            return
        self.play.selected = set()
        self.surface.mark(raised=frozenset())
        self.play.take(update)

    def _analyse(self) -> None:
        """A (or the button after a deal): the deal's double-dummy analysis, worked out in the
        worker and shown as it comes; not for a player who sat the deal out (no button offers it:
        the key once judged "your side" of a deal with no side of theirs)."""
        if self.play.table_state().view.spectator:
            self.surface.message(t("analysis.sat_out"), MUTED)
            return
        info = self.runner.analysis()
        if info is not None:
            self.play.app.push("analysis", info=info, viewer=self.runner.viewer)
        elif self.runner.ask_analysis():
            self._analysis_wanted = True
            self.surface.message(t("analysis.working"), MUTED)
            if (info := self.runner.analysis()) is not None:  # worked out at once (no worker process)
                self.analysis_in(info)
        else:  # said, not silently ignored: a laid deal has no play, a deal in play no end yet
            self.surface.message(t("analysis.no_play" if self.table_over else "analysis.not_over"), MUTED)

    def analysis_progress(self, progress: tuple[int, int]) -> None:
        """A step of the analysis is in: how far it has come, while the player waits for it."""
        if self._analysis_wanted:
            self.surface.message(working_text(progress), MUTED)

    def analysis_in(self, info: Analysis) -> None:
        """The analysis came: shown, if the player still wants it (has not moved on)."""
        if self._analysis_wanted:
            self._analysis_wanted = False
            self.surface.message("")
            self.play.app.push("analysis", info=info, viewer=self.runner.viewer)

    def _export(self) -> None:
        """E: the deal just finished, written as a deal record to the exports folder (not a
        deal in play, whose record would show every hidden card)."""
        from ...paths import export_dir
        from ...session.exchange import export_record

        finished = self.runner.finished_record()
        if finished is None:  # a deal in play; or a shared table, whose hidden cards stay with its host
            self.surface.message(t("message.export_shared" if self.table_over else "message.export_after"), MUTED)
            return
        try:
            path = export_record(finished[1], finished[0], export_dir())
        except OSError as exc:
            self.surface.message(t("message.export_failed", problem=exc.strerror or str(exc)), RED)
            return
        self.surface.message(t("history.exported", folder=str(path.parent), file=path.name), GOLD)


class AtTable(Scene):
    """A scene whose screen is a table in play (its :attr:`play`, made by the scene): the
    frame's work, input and drawing go to it; leaving it closes the table."""

    play: TablePlay

    def exit(self) -> None:
        super().exit()
        self.play.close()

    def resume(self) -> None:
        super().resume()
        self.play.surface.panel.forget()

    def may_close(self) -> bool:
        return self.play.moves.may_close()

    def next_wake(self) -> float | None:
        return self.play.next_wake()

    def handle(self, event: pygame.event.Event) -> None:
        self.play.handle(event)

    def update(self, dt: float) -> None:
        self.play.update(dt)

    def draw(self, surface: pygame.Surface) -> None:
        self.play.draw(surface)
