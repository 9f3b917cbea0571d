"""A lesson at the real table: the window draws a :class:`~...tutorial.runner.LessonRunner`
(the lesson's state machine, which runs its table) and forwards the learner's input to it.
The table is a :class:`~.play.TablePlay`, as a session's is, with the lesson as its
:class:`~.play.Role`; the lesson's words stand on a :class:`~.lesson_card.LessonCard` over
the felt, with its own buttons. Practice is a session's table scene with a role of its own."""

from __future__ import annotations

import pygame

from ...i18n import mark, t
from ...rules.actions import Action, PlayCard
from ...rules.errors import ViraError
from ...session.factory import SeatConfig, TableOrder
from ...session.port import TableClient, Update
from ...session.state import TableState
from ...session.turns import BOT_PAUSE_S
from ...session.worker import Worker
from ...tutorial.lesson import Lesson, Step, chapter_index, lesson
from ...tutorial.progress import Progress
from ...tutorial.runner import LessonRunner, Stage, next_lesson
from ..base import AppPort, SceneName
from ..theme import GOLD, MUTED, RED
from .input import Command, Intent
from .lesson_card import LessonCard
from .panel import ButtonSpec
from .play import AtTable, SessionRole, TablePlay
from .scene import TableScene

__all__ = ["LessonScene", "PracticeScene"]

ROLE_QUESTIONS = ("forehand", "dealer", "cuts", "shuffles_spare", "sits_out")  # the plates would tell them


class LessonScene(AtTable):
    """One lesson: its steps over the table, Back / Next, Skip step, Leave. The scene is its
    table's :class:`~.play.Role`: a lesson is one deal, its moves judged by the lesson."""

    def __init__(self, app: AppPort, lesson_id: str, progress: Progress | None = None) -> None:
        super().__init__(app)
        self.worker = Worker()
        self.lesson_runner = LessonRunner(lesson(lesson_id), progress, self.worker, BOT_PAUSE_S)
        self.runner: TableClient = self.lesson_runner.runner  # the lesson's table, through its port
        brisk = lambda: self.lesson_runner.brisk  # noqa: E731  scripted play goes briskly, unless watched
        self.play = TablePlay(
            self, self.runner, self, mark("lesson.keys"), brisk=brisk, deals_on=False, ends_session=False
        )
        self.runner.pause = BOT_PAUSE_S * self.play.view.factor()
        self.view = self.play.view
        self.card = LessonCard(self.lesson_runner, self.view, self.play.bidding.shown)

    # ------------------------------------------------------------------ what the runner says
    @property
    def lesson(self) -> Lesson:
        return self.lesson_runner.lesson

    @property
    def progress(self) -> Progress:
        return self.lesson_runner.progress

    @property
    def step(self) -> int:
        return self.lesson_runner.step

    @property
    def current(self) -> Step:
        return self.lesson_runner.current

    @property
    def stage(self) -> Stage:
        return self.lesson_runner.stage

    # ------------------------------------------------------------------ lifecycle
    def enter(self) -> None:
        self.play.open(self.lesson_runner.start(), at_once=True)

    def handle(self, event: pygame.event.Event) -> None:
        if event.type == pygame.MOUSEMOTION:
            self.card.hover(event.pos)
        super().handle(event)

    def draw(self, surface: pygame.Surface) -> None:
        question = self.current.question
        asking = question is not None and self.stage is Stage.ASKING
        self.play.surface.mark(roles_shown=not (asking and question is not None and question.kind in ROLE_QUESTIONS))
        self.play.draw(surface)
        self.card.draw(surface)

    def command(self, intent: Command) -> None:
        """A command, as its key or button gives it."""
        self.play.moves.command(intent)

    def act(self, what: Action | None) -> None:
        """The learner's move, as a button or a card gives it."""
        self.play.moves.act(what)

    def _rebuilt(self) -> None:
        """The table shown as the runner left it, at once: set at a position (Back, Try again,
        a skipped question) or on to another step; a step's cards raised, never like a selection."""
        step = self.current
        self.play.rebuilt(frozenset(step.cards) if step.ask is None else frozenset())

    # ------------------------------------------------------------------ the table's role
    def state(self, with_seating: bool) -> TableState:
        return self.lesson_runner.state(with_seating)

    def poll(self, now: float, ready: bool) -> list[Update]:
        return self.lesson_runner.poll(now, ready)

    def own_answer(self, what: Action | None) -> bool:
        """The learner's move, judged by the lesson (a refusal said on its card too)."""
        try:
            update = self.lesson_runner.answer(what)
        except ViraError as exc:
            said = self.runner.say_refusal(exc)
            self.play.surface.message(said, RED)
            self.lesson_runner.refused(said)  # on the lesson's card too, where the learner is reading
            if isinstance(what, PlayCard):
                self.view.cards.refuse(what.card)
            return True
        if update is not None:
            self.play.take(update)
        elif isinstance(what, PlayCard) and self.stage is Stage.WRONG:
            self.view.cards.refuse(what.card)
        return True

    def own_command(self, intent: Command) -> bool:
        name, lr = intent.name, self.lesson_runner
        if name == "lesson_next":
            if lr.next():
                self._rebuilt()
        elif name == "lesson_back":
            if lr.back():
                self._rebuilt()
        elif name == "lesson_skip":
            lr.next(skipped=True)
            self._rebuilt()
        elif name == "lesson_retry":
            lr.retry()
            self._rebuilt()
        elif name in ("lesson_leave", "lesson_contents"):
            self.app.open("tutorial", chapter=chapter_index(self.lesson.chapter))
        elif name == "lesson_show":
            update = lr.show()
            if update is not None:
                self.play.take(update)
        elif name == "lesson_choose":
            lr.choose(intent.arg)
        elif name == "lesson_play_on":
            lr.play_on()
        elif name == "lesson_following":
            following = next_lesson(self.lesson.id)
            if following:
                self.app.open("lesson", lesson_id=following)
            else:
                self.app.open("tutorial", chapter=chapter_index(self.lesson.chapter))
        elif name == "undo":
            self.play.surface.message(t("lesson.ui.no_undo"), MUTED)
        elif name == "watch":
            self.play.surface.message(t("lesson.ui.watching" if lr.watch() else "lesson.ui.brisk"), MUTED)
        else:
            return False
        return True

    def own_intent(self, intent: Intent) -> bool:
        if intent == Command("back"):
            self.app.open("tutorial", chapter=chapter_index(self.lesson.chapter))
        elif intent == Command("confirm") and self.stage is Stage.FINISHED:
            self.command(Command("lesson_following"))  # the lesson is done: on to the next one
        elif intent == Command("confirm") and self._next_ready():
            self.command(Command("lesson_next"))
        else:
            return False
        return True

    def _next_ready(self) -> bool:
        """Enter goes to the next step where nothing on the table is asked."""
        return self.stage in (Stage.READING, Stage.ANSWERED, Stage.ASKING) and self.play.viewer_ask() is None

    def own_hint(self) -> bool:
        return self.lesson_runner.hint()

    def own_overlay(self, name: SceneName) -> bool:
        if name != "bid_table":
            return False
        rows = self.current.rows or self.lesson.teaches  # the step's rows highlighted
        self.app.push(name, state=self.view.state, rows=tuple(rows))
        return True

    def own_buttons(self) -> list[ButtonSpec]:
        return self.card.buttons()

    def after_deal(self) -> None:
        """A lesson is one deal: Enter after it goes on to the next lesson once this one is done."""
        if self.lesson_runner.finished:
            self.command(Command("lesson_following"))


class PracticeRole(SessionRole):
    """Practice: Esc goes back to the contents map at the chapter, Next deal asks for
    another hand for it."""

    def __init__(self, runner: TableClient, app: AppPort, chapter: str) -> None:
        super().__init__(runner)
        self.app = app
        self.chapter = chapter

    def own_intent(self, intent: Intent) -> bool:
        if intent != Command("back"):
            return False
        self.app.open("tutorial", chapter=chapter_index(self.chapter))  # back to the contents, at this chapter
        return True

    def own_command(self, intent: Command) -> bool:
        if intent.name != "next":
            return False
        self.app.open("tutorial", practice=self.chapter)  # another hand for the same chapter
        return True


class PracticeScene(TableScene):
    """Practice this contract: a deal whose hand suits a chapter's games, played against the
    bots; Next deal asks for another such hand, Esc goes back to the contents map."""

    def __init__(self, app: AppPort, chapter: str, number: int, game: str | None = None) -> None:
        seats = (SeatConfig(t("new_game.you"), True), SeatConfig("Bertil"), SeatConfig("Cecilia"))
        order = TableOrder(seats, number=number, players_settings=False)
        super().__init__(
            app,
            app.table_client(order, saves=False),  # never the saved game
            keys_help=mark("practice.keys"),
            ends_session=False,
            role=lambda runner: PracticeRole(runner, app, chapter),
        )
        self.chapter = chapter
        self.game = game

    def enter(self) -> None:
        self.play.open(self.runner.start(), at_once=True)
        key = "practice.intro_game" if self.game else "practice.intro"
        self.play.surface.message(t(key, game=self.game or ""), GOLD)
