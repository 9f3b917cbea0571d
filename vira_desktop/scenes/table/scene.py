"""The table scenes: a session in play, and a deal record stepped in the window.

Both hold a :class:`~.surface.TableSurface` (the :class:`~.view.TableView`, the input map,
the panel's buttons); a session's table drives it through a :class:`~.play.TablePlay`
and the :class:`~...session.port.TableClient` the app built for it, a replay through a
:class:`~...session.replay.ReplayDriver`. The scene turns input into the runner's actions
and commands and draws what the runner's updates say; it keeps no rule of its own.
"""

from __future__ import annotations

import logging
from collections.abc import Callable

import pygame

from ...i18n import mark, t
from ...rules.actions import Action
from ...session.as_played import AsPlayed, as_recorded, your_names
from ...session.describe import is_you
from ...session.port import TableClient
from ...session.record import Record
from ...session.replay import ReplayDriver
from ...session.turns import BOT_PAUSE_S
from ..analysis import working_text
from ..base import AppPort, Scene, SceneName
from ..theme import GOLD, MUTED, RED
from .input import Command, Intent
from .model import TABLE_W
from .panel import ButtonSpec
from .play import AtTable, Role, SessionRole, TablePlay
from .surface import TableSurface

__all__ = ["ReplayScene", "TableScene"]

log = logging.getLogger(__name__)


class TableScene(AtTable):
    """A session in play: the runner runs the table; the player answers with the panel,
    cards and keys. ``role`` makes what the scene does of its own (practice's)."""

    def __init__(
        self,
        app: AppPort,
        client: TableClient,
        back_to: SceneName | None = None,
        *,
        speed: str | None = None,
        keys_help: str = mark("table.keys"),
        ends_session: bool = True,  # after a deal, offer the last round and Borup
        role: Callable[[TableClient], Role] = SessionRole,
    ) -> None:
        super().__init__(app)
        self.runner = client  # the scene's one door to the game (the app built what is behind it)
        self.play = TablePlay(
            self, client, role(client), keys_help, speed=speed, ends_session=ends_session, back_to=back_to
        )
        client.pause = BOT_PAUSE_S * self.play.view.factor()
        self.view = self.play.view

    @property
    def deals_done(self) -> int:
        return self.runner.facts.deals_done

    @property
    def hints_asked(self) -> int:
        return self.runner.facts.hints_asked

    def command(self, intent: Command) -> None:
        """A command, as its key or button gives it."""
        self.play.moves.command(intent)

    def act(self, what: Action | None) -> None:
        """The player's answer to the question standing, as a button or a card gives it."""
        self.play.moves.act(what)

    # ------------------------------------------------------------------ lifecycle
    def enter(self) -> None:
        fresh = self.runner.facts.fresh
        self.play.open(self.runner.start(), with_seating=fresh)


JUMPS = ("auction", "buy", "play", "payment")  # the replay's jumps, by their buttons' number
_JUMP_KEYS = (pygame.K_1, pygame.K_2, pygame.K_3, pygame.K_4)


class ReplayScene(Scene):
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
        self.surface = TableSurface(self, mark("table.replay_keys"), replaying=True)  # a trick stepped to: seen whole
        self.view = self.surface.view
        self.pushed = pushed  # opened over another scene (the history): Esc returns to it
        self.problem = problem  # the record was bad from an action on: shown up to it, with the error
        self.deal_id = deal_id  # the deal's id in history (a deal played again from it is linked to it)
        # number: the deal's index in its session; played: its seats, levels and tokens (history's)
        self.driver = ReplayDriver(record, number, played if played is not None else as_recorded(record, your_names()))
        self.title = title
        self.quit_on_back = quit_on_back  # ``vira replay FILE --window``: Esc closes the window

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
        self.surface.panel.show(
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
        self.surface.panel.forget()
        self._buttons()

    def _caption(self) -> None:
        """The panel's words: where the replay stands, whose cards show, the last and next actions."""
        driver = self.driver
        names = driver.record.names
        log = [
            t("replay.showing_all") if driver.all_hands else self._showing(names[driver.viewer]),
            t("replay.last", action=driver.last_action_text()),
            t("replay.next", action=driver.next_action_text()),
        ]
        result = driver.result()
        if result is not None:
            log.append(result[0])
        if self.problem:
            message, colour = t("replay.bad_from", good=len(driver.actions), problem=self.problem), RED
        else:
            message, colour = t("message.replay", position=driver.position, total=len(driver.actions)), GOLD
        self.surface.mark(message=message, colour=colour, note=self.title, log=tuple(log))

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
        if not isinstance(intent, Command):
            return  # a card clicked: nothing to play in a replay
        if intent.name == "focus":
            self.step(intent.arg > 0)
        elif intent.name == "use_focus":
            self.step(True)
        elif intent.name == "back":
            if self.quit_on_back:
                self.app.quit()
            elif self.pushed:
                self.app.pop()
            else:
                self.app.open("menu")
        elif intent.name == "discards":
            self.view.toggle_peek()
        else:
            self.command(intent)

    def lift_cover(self) -> None:
        """No cover in a replay."""

    def refresh(self) -> None:
        """A dragged card lies where it was let go until the next step."""

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
        over = driver.at_end and not self.problem
        upto = 0 if over else driver.position  # a bad record: from where it stops
        self.app.push(
            "play_again", record=driver.record, upto=upto, parent=self.deal_id, played=driver.played, over=over
        )

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
            self.surface.message(t("analysis.record_stops", good=len(self.driver.actions)), MUTED)
        elif self.driver.ask_analysis():
            self.surface.message(t("analysis.working"), MUTED)
        else:
            self.surface.message(t("analysis.no_play"), MUTED)

    def next_wake(self) -> float | None:
        if (wake := self.surface.next_wake()) is not None:
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
        self.surface.handle(event, self)

    def update(self, dt: float) -> None:
        self.view.update(dt)
        told = self.driver.progress
        for analysis in self.driver.poll():
            if analysis is not None:
                self._caption()
                self.app.push("analysis", info=analysis, viewer=self.driver.record.names[self.driver.viewer])
            else:
                self.surface.message(t("analysis.failed"), RED)
        if self.driver.progress is not None and self.driver.progress != told:  # a step in: how far it has come
            self.surface.message(working_text(self.driver.progress), MUTED)

    def draw(self, surface: pygame.Surface) -> None:
        self.surface.draw(surface)
