"""A lesson at the real table: the lesson's deal record plays its main line step by step,
the learner answers at "your move" checkpoints with the table's own controls, a wrong
answer is explained (and can be played out to its end), and at the end the deal can be
played on against the bots. Progress is saved the moment a step is done."""

from __future__ import annotations

import re
from dataclasses import replace
from functools import cache, lru_cache
from typing import TYPE_CHECKING

import pygame

from ...i18n import current, mark, t
from ...rules.actions import Action, PlayCard
from ...rules.games import GAMES
from ...session.describe import describe_result
from ...session.flow import Ask, FlowEvent
from ...session.table import SeatConfig, Table
from ...session.words import say_action
from ...tutorial.lesson import Lesson, Step, chapter_index, chapters, lesson
from ...tutorial.progress import Progress
from ..overlays import GLOSSARY_TERMS
from ..theme import GOLD, GOOD, INK, MUTED, RED, fit_text, font, wrap_text
from ..worker import Worker
from .drivers import LiveDriver
from .input import Command, Intent
from .model import TableState
from .scene import ButtonSpec, TableScene

if TYPE_CHECKING:
    from ..app import App

__all__ = ["TEXT_PT", "TEXT_W", "LessonDriver", "LessonScene", "PracticeScene", "next_lesson", "text_lines"]

BOX_X, BOX_W = 236, 498  # the lesson's card on the felt, between the plates
BOX_H, TOP_H = 160, 166  # at the top the box ends above the bid grid (it starts at y 176)
TEXT_PT, LINE_H, TEXT_W = 13, 17, BOX_W - 28  # the lesson's words
MIDDLE_Y, TOP_Y, LOW_Y = 182, 6, 388  # under the pulla; above the bid grid; under the result


@cache
def glossary_words(language: str) -> tuple[tuple[str, str], ...]:
    """(entry, word) for every word a lesson's text may use for a glossary entry: Vira's own
    term, and the word an entry of this language opens with ("forehand: …", "etukäsi: …");
    the longest first, so "högsta färg" is found before "färg"."""
    words = []
    for slug, term in GLOSSARY_TERMS:
        words.append((slug, term))
        head, colon, _ = t(f"glossary.term.{slug}").partition(":")
        if colon and 6 <= len(head) <= 24 and not head[:1].isdigit():  # not "open", "round", "home"
            words.append((slug, head.strip()))
    return tuple(sorted(set(words), key=lambda item: -len(item[1])))


@lru_cache(maxsize=256)
def glossary_spans(line: str, language: str) -> tuple[tuple[int, int, str], ...]:
    """Where the glossary's words stand in a line of a lesson: (start, end, entry), each once
    (a line is drawn every frame; it is searched once)."""
    taken: list[tuple[int, int, str]] = []
    for slug, term in glossary_words(language):
        for found in re.finditer(rf"(?<!\w){re.escape(term)}(?!\w)", line, re.IGNORECASE):
            start, end = found.span()
            if found.group() == "Vira":  # the game's name, not the contract
                continue
            if any(start < b and a < end for a, b, _ in taken):
                continue  # inside a longer term ("högsta färg" holds "färg")
            taken.append((start, end, slug))
    return tuple(taken)


class LessonDriver(LiveDriver):
    """The lesson's main line, played to the step's position; the learner is asked only at
    a checkpoint. ``mode``: "lesson", "losing" (a wrong answer played out by the bots, the
    learner's seat too) or "free" (the learner plays the deal on against the bots)."""

    def __init__(self, table: Table, worker: Worker, taught: Lesson) -> None:
        super().__init__(table, worker)
        self.lesson = taught
        self.learner = table.session.seats[taught.you]
        self.viewer = self.learner
        self.mode = "lesson"
        self.target = 0  # the main line's actions played before the step shows
        self.asking = False  # the step waits for the learner's answer

    def state(self, with_seating: bool = False) -> TableState:
        """The table as the view draws it; the learner always in the first player colour."""
        state = super().state(with_seating)
        others = tuple(name for name in state.colour_order if name != self.learner)
        return replace(state, colour_order=(self.learner, *others))

    @property
    def behind(self) -> bool:
        """The main line is still being played to the step's position."""
        return self.mode == "lesson" and len(self.table.deal.history) < self.target

    def human_ask(self) -> Ask | None:
        if self.mode == "losing":
            return None
        ask = super().human_ask()
        if self.mode == "lesson" and not (self.asking and len(self.table.deal.history) == self.target):
            return None
        return ask

    def think(self) -> None:
        if self.mode != "lesson":  # the bots play; in the lesson, the main line does
            super().think()

    def scripted(self) -> list[FlowEvent] | None:
        """The main line's next action while the table is behind the step (``None``: it is not)."""
        history = len(self.table.deal.history)
        if self.mode != "lesson" or history >= self.target:
            return None
        action = self.lesson.actions[history]
        ask = self.table.ask()
        assert ask is not None
        if ask.optional and ask.view.decision is not None and action not in ask.view.decision.actions:
            return self.table.answer(ask, None)  # an offer the main line does not take
        return self.table.answer(ask, action)

    def go_to(self, at: int) -> None:
        """The table at the main line's position ``at``, at once (no animation)."""
        self.mode = "lesson"
        self.forget_bots()
        self.table.restart(list(self.lesson.actions[:at]))
        self.target = at

    def play_out(self, answer: Action) -> list[FlowEvent]:
        """A wrong answer played: the bots take every seat to the deal's end."""
        ask = self.table.ask()
        assert ask is not None
        events = self.table.answer(ask, answer, human=True)
        self.mode = "losing"
        self.table.let_bot_play(self.learner)
        return events

    def play_on(self) -> None:
        """The learner plays the rest of the deal against the bots."""
        self.mode = "free"


def next_lesson(ident: str) -> str | None:
    """The lesson after ``ident`` in the contents map (``None`` after the last)."""
    order = [x for chapter in chapters() for x in chapter.lessons]
    i = order.index(ident) if ident in order else len(order)
    return order[i + 1] if i + 1 < len(order) else None


class LessonScene(TableScene):
    """One lesson: its steps over the table, Back / Next, Skip step, Leave."""

    ends_session = False
    deals_on = False  # one deal: no next deal after it

    def __init__(self, app: App, lesson_id: str, progress: Progress | None = None) -> None:
        taught = lesson(lesson_id)
        names = list(taught.record.names)
        names[taught.you] = t("new_game.you")
        seats = [SeatConfig(name, i == taught.you) for i, name in enumerate(names)]
        super().__init__(app, Table.for_deal(seats, taught.record.deal))
        self.lesson = taught
        self.progress = progress or Progress()
        self.driver: LessonDriver = LessonDriver(self.table, self.worker, taught)
        self.step = min(self.progress.of(taught.id).step, len(taught.steps) - 1)
        if self.progress.of(taught.id).done:
            self.step = 0  # a finished lesson opens from its start: it is being replayed
            self.progress.replay(taught.id)
        self.feedback: tuple[str, tuple[int, int, int]] | None = None
        self.answered = False  # this step's checkpoint was answered right
        self.wrong: Action | None = None  # the wrong answer just given (it can be played out)
        self.playing_out = False  # the bots are playing a wrong answer out
        self.finished = False
        self.view.keys_help = mark("lesson.keys")
        self._terms: list[tuple[pygame.Rect, str]] = []  # the glossary's words in the text, where drawn
        self._tip: str | None = None  # the word under the mouse
        self._tip_at = (0, 0)

    # ------------------------------------------------------------------ steps
    @property
    def current(self) -> Step:
        return self.lesson.steps[self.step]

    def enter(self) -> None:
        self.driver.go_to(self.current.at)
        self._open_step()
        self.view.show(self.driver.state(), self.driver.opening_events())
        self.view.finish()
        self.view.say(t(f"lesson.{self.lesson.title}"))

    def _open_step(self) -> None:
        step = self.current
        self.driver.target = step.at
        self.driver.asking = step.ask is not None
        self.answered = False
        self.wrong = None
        self.feedback = None
        self.selected = set()
        self.view.cards.selected = set(step.cards) if step.ask is None else set()  # never like a selection
        self.panel.key = None

    def _restart_step(self) -> None:
        """Back at the step's own position (Back, Try again), at once, the log told again."""
        self.playing_out = False
        self.driver.go_to(self.current.at)
        self._open_step()
        self.view.log.clear()
        self.view.say(t(f"lesson.{self.lesson.title}"))
        for action in self.table.deal.history:
            self._tell_action(action)
        self._logged = len(self.table.log)
        self.view.banner = None
        self.view.show(self.driver.state(), snap=True)

    def next_step(self, skipped: bool = False) -> None:
        if self.driver.behind and not skipped:
            return  # the step's position first
        ask = self.current.ask
        if ask is not None and not self.answered and not skipped:
            self.feedback = (t("lesson.ui.answer_first"), GOLD)
            return
        question = ask is not None and not self.answered  # a skipped question (a reading step costs nothing)
        self.progress.step_done(self.lesson.id, self.step, len(self.lesson.steps), skipped and question)
        if self.step + 1 >= len(self.lesson.steps):
            self.finished = True
            self.panel.key = None
            if skipped and self.current.ask is not None:
                self._restart_step()
            return
        if skipped and self.current.ask is not None and not self.answered:
            self.driver.go_to(self.current.at)  # the main line goes on from the skipped question
            self.view.show(self.driver.state(), snap=True)
        self.step += 1
        self._open_step()
        if skipped and ask is not None and question:  # what the answer was
            self.feedback = (t("lesson.ui.skipped_answer", action=say_action(ask.accept[0])), MUTED)

    def back_step(self) -> None:
        if self.step == 0:
            return
        self.step -= 1
        self.finished = False
        self._restart_step()

    # ------------------------------------------------------------------ frame
    def update(self, dt: float) -> None:
        super().update(dt)
        if self.playing_out and self.table.deal.is_over:
            self.playing_out = False
            result = self.table.deal.result  # the play-out is over: say honestly how it went
            lucky = result is not None and result.declarer == self.lesson.you and result.outcome.value == "home"
            said = t("lesson.ui.lucky" if lucky else "lesson.ui.lost")
            main = self.lesson.position(len(self.lesson.actions)).result
            if main is not None:  # how the lesson's own answer came out, to compare
                names = self.table.session.seats
                said += " " + t("lesson.ui.compare", result=describe_result(main, names)[0])
            self.feedback = (said, GOLD if lucky else RED)
        if not self.view.busy and self.wait_s <= 0:
            events = self.driver.scripted()
            if events is not None:
                self._after(events)

    def save(self) -> None:
        """A lesson never touches the saved game: its progress is kept by steps."""

    # ------------------------------------------------------------------ answers
    def press(self, what: Action | str | None) -> None:
        step = self.current
        at_question = self.driver.mode == "lesson" and step.ask is not None and not self.answered
        if isinstance(what, str) or what is None or not at_question:
            super().press(what)
            return
        verdict = self.lesson.judge(step, what)
        if verdict.right:
            self.answered = True
            main = step.ask.accept[0] if step.ask is not None else what
            said = t(f"lesson.{verdict.say}")
            if what != main:  # as good, but the lesson's deal was played the other way: it says so
                said = t("lesson.ui.also_right", yours=say_action(what), action=say_action(main))
            self.feedback = (said, GOOD)
            super().press(main)
            self.driver.asking = False
            self.progress.step_done(self.lesson.id, self.step, len(self.lesson.steps))
        else:
            self.wrong = what
            self.progress.wrong_answer(self.lesson.id)
            self.feedback = (t(f"lesson.{verdict.say}"), RED)
            if isinstance(what, PlayCard):
                self.view.cards.refuse(what.card)
        self.panel.key = None

    def command(self, intent: Command) -> None:
        name = intent.name
        if name == "lesson_next":
            self.next_step()
        elif name == "lesson_back":
            self.back_step()
        elif name == "lesson_skip":
            self.next_step(skipped=True)
        elif name == "lesson_leave":
            self.app.open("tutorial", chapter=chapter_index(self.lesson.chapter))
        elif name == "lesson_show":
            if self.wrong is not None:
                self._after(self.driver.play_out(self.wrong))
                self.feedback = (t("lesson.ui.playing_out"), MUTED)
                self.playing_out = True  # said how it went when the deal is over
                self.wrong = None
        elif name == "lesson_retry":
            self._restart_step()
        elif name == "lesson_play_on":
            self.driver.play_on()
            self.feedback = None
        elif name == "lesson_following":
            following = next_lesson(self.lesson.id)
            if following:
                self.app.open("lesson", lesson_id=following)
            else:
                self.app.open("tutorial", chapter=chapter_index(self.lesson.chapter))
        elif name == "undo":
            self.message(t("lesson.ui.no_undo"), MUTED)
        else:
            super().command(intent)

    def intent(self, intent: Intent) -> None:
        if intent == Command("back"):
            self.app.open("tutorial", chapter=chapter_index(self.lesson.chapter))
        elif intent == Command("confirm") and self._next_ready():
            self.next_step()
        else:
            super().intent(intent)

    def _next_ready(self) -> bool:
        """Enter goes to the next step where nothing on the table is asked."""
        return self.driver.mode == "lesson" and not self.finished and self.viewer_ask() is None

    def _next_deal(self) -> None:
        """A lesson is one deal: Enter after it goes on to the next lesson once this one is done."""
        if self.finished:
            self.command(Command("lesson_following"))

    def _ask_hint(self) -> None:
        ask = self.current.ask
        if self.driver.mode == "lesson" and ask is not None and not self.answered:
            self.progress.hint_asked(self.lesson.id)
            self.feedback = (t(f"lesson.{ask.hint}"), GOLD)
        else:
            super()._ask_hint()

    def open_overlay(self, name: str) -> None:
        if name == "bid_table":  # the step's rows highlighted
            rows = self.current.rows or self.lesson.teaches
            self.app.push(name, table=self.table, rows=tuple(rows))
        else:
            super().open_overlay(name)

    # ------------------------------------------------------------------ buttons and drawing
    def extra_key(self) -> object:
        mode, behind = self.driver.mode, self.driver.behind
        return (self.step, self.finished, self.answered, self.wrong is not None, mode, behind, self._box_y())

    def extra_buttons(self) -> list[ButtonSpec]:
        y = self._box_y() + self._box_h() - 40
        x = BOX_X + 10
        specs: list[ButtonSpec] = []

        def button(label: str, what: str, width: int, enabled: bool = True) -> None:
            nonlocal x
            specs.append(ButtonSpec(label, what, y, x, width, enabled, 32))
            x += width + 6

        mode = self.driver.mode
        if mode == "losing":
            button(t("lesson.ui.retry"), "lesson_retry", 150)
            button(t("lesson.ui.leave"), "lesson_leave", 110)
        elif self.finished or mode == "free":
            if mode != "free" and not self.table.deal.is_over:
                button(t("lesson.ui.play_on"), "lesson_play_on", 150)
            button(t("lesson.ui.next_lesson"), "lesson_following", 150)
            button(t("lesson.ui.contents"), "lesson_leave", 130)
        elif self.wrong is not None:
            button(t("lesson.ui.show"), "lesson_show", 180)
            button(t("lesson.ui.retry"), "lesson_retry", 150)
            button(t("lesson.ui.skip"), "lesson_skip", 130)
        else:
            asking = self.current.ask is not None and not self.answered
            button(t("lesson.ui.back"), "lesson_back", 90, self.step > 0)
            button(t("lesson.ui.next"), "lesson_next", 120, not asking and not self.driver.behind)
            button(t("lesson.ui.skip"), "lesson_skip", 130)
            button(t("lesson.ui.leave"), "lesson_leave", 110)
        return specs

    def _at_top(self) -> bool:
        """The card goes up, clear of the bid grid and of the tricks played out."""
        return self.grid_shown() or (self.driver.mode != "lesson" and not self.table.deal.is_over)

    def _box_y(self) -> int:
        if self._at_top():
            return TOP_Y
        return LOW_Y if self.table.deal.is_over else MIDDLE_Y  # the result: under its banner, the pulla free

    def _box_h(self) -> int:
        return TOP_H if self._at_top() else BOX_H

    def draw(self, surface: pygame.Surface) -> None:
        super().draw(surface)
        y0 = self._box_y()
        surface.blit(_box(self._box_h()), (BOX_X, y0))
        x, y = BOX_X + 14, y0 + 8
        title = t(f"lesson.{self.lesson.title}")
        head = t("lesson.ui.step", step=self.step + 1, steps=len(self.lesson.steps), title=title)
        if self.finished:
            stars = self.progress.of(self.lesson.id).stars
            head = t("lesson.ui.done", title=title, stars="★" * stars + "☆" * (3 - stars))
        surface.blit(font(13, True).render(fit_text(head, 13, True, BOX_W - 28), True, GOLD), (x, y))
        y += 20
        lines: list[tuple[str, tuple[int, int, int], bool]] = []
        if self.driver.behind:  # the step's words wait for its position: they may tell how the deal ended
            lines += [(part, MUTED, False) for part in wrap_text(t("lesson.ui.playing_on"), TEXT_PT, False, TEXT_W)]
        elif self.driver.mode == "lesson" and not self.finished:
            lines += [(part, INK, False) for part in wrap_text(t(f"lesson.{self.current.say}"), TEXT_PT, False, TEXT_W)]
        elif self.driver.mode == "free":
            lines += [(part, INK, False) for part in wrap_text(t("lesson.ui.free"), TEXT_PT, False, TEXT_W)]
        elif self.finished and self.driver.mode == "lesson":
            lines += [(part, MUTED, False) for part in wrap_text(t("lesson.ui.stars"), TEXT_PT, False, TEXT_W)]
        if self.feedback is not None:
            lines += [(part, self.feedback[1], True) for part in wrap_text(self.feedback[0], TEXT_PT, True, TEXT_W)]
        rows = self._rows() if self.feedback is None else []  # an answer's words come first
        room = text_lines(self._box_h()) - len(rows)
        if len(lines) > room:  # the answer's words matter most: the step's text gives way
            lines = lines[len(lines) - room :]
        self._terms = []
        for part, colour, bold in lines:
            surface.blit(font(TEXT_PT, bold).render(part, True, colour), (x, y))
            self._mark_terms(surface, part, font(TEXT_PT, bold), (x, y))
            y += LINE_H
        for line in rows:
            surface.blit(font(12, True).render(fit_text(line, 12, True, BOX_W - 28), True, GOLD), (x, y + 2))
            y += 17
        self._draw_tip(surface)

    def _mark_terms(self, surface: pygame.Surface, line: str, f: pygame.font.Font, at: tuple[int, int]) -> None:
        """Underline each word of the glossary in a line of the lesson; the mouse over it shows
        its meaning."""
        for start, end, slug in glossary_spans(line, current()):
            left = at[0] + f.size(line[:start])[0]
            rect = pygame.Rect(left, at[1], f.size(line[start:end])[0], f.get_height())
            for dx in range(0, rect.width, 4):  # a dotted underline
                surface.fill(MUTED, (rect.x + dx, rect.bottom - 1, 2, 1))
            self._terms.append((rect, slug))

    def handle(self, event: pygame.event.Event) -> None:
        if event.type == pygame.MOUSEMOTION:
            self._tip = next((slug for rect, slug in self._terms if rect.collidepoint(event.pos)), None)
            self._tip_at = event.pos
        super().handle(event)

    def _draw_tip(self, surface: pygame.Surface) -> None:
        """The meaning of the glossary word under the mouse."""
        if self._tip is None:
            return
        term = dict(GLOSSARY_TERMS)[self._tip]
        parts = wrap_text(f"{term}: {t(f'glossary.term.{self._tip}')}", 13, False, 360)[:4]
        box = pygame.Rect(0, 0, 380, 12 + 17 * len(parts))
        under = self._box_y() + self._box_h() + 6  # under the lesson's card: the sentence stays readable
        box.topleft = (min(max(10, self._tip_at[0] - 40), 940 - box.width), under)
        pygame.draw.rect(surface, (12, 18, 24), box, border_radius=6)
        pygame.draw.rect(surface, GOLD, box, 1, border_radius=6)
        for k, part in enumerate(parts):
            surface.blit(font(13).render(part, True, INK), (box.x + 10, box.y + 6 + 17 * k))

    def _rows(self) -> list[str]:
        """The bid-table rows this step is about, in one line: one row with its tricks and
        pins, several by their numbers and names (B shows them whole)."""
        rows = self.current.rows if self.driver.mode == "lesson" and not self.finished else ()
        if len(rows) == 1:
            game = GAMES[rows[0] - 1]
            pins = " / ".join("–" if p is None else str(p) for p in game.pins)
            return [t("lesson.ui.row", no=rows[0], game=game.printed, tricks=game.tricks, pins=pins)]
        if rows:
            return [t("lesson.ui.rows", rows=" · ".join(f"{no} {GAMES[no - 1].printed}" for no in rows))]
        return []


def text_lines(box_height: int) -> int:
    """How many lines of the lesson's words a card of ``box_height`` holds (under its
    heading, over its buttons)."""
    return (box_height - 28 - 44) // LINE_H


@cache
def _box(height: int) -> pygame.Surface:
    """The lesson's card: dark slate, nearly opaque, a gold edge."""
    box = pygame.Surface((BOX_W, height), pygame.SRCALPHA)
    pygame.draw.rect(box, (22, 28, 36, 238), box.get_rect(), border_radius=10)
    pygame.draw.rect(box, (*GOLD, 255), box.get_rect(), width=2, border_radius=10)
    return box


class PracticeScene(TableScene):
    """Practice this contract: a deal whose hand suits a chapter's games, played against the
    bots; Next deal asks for another such hand, Esc goes back to the contents map."""

    ends_session = False
    deals_on = True

    def __init__(self, app: App, chapter: str, number: int, game: str | None = None) -> None:
        seats = [SeatConfig(t("new_game.you"), True), SeatConfig("Bertil"), SeatConfig("Cecilia")]
        super().__init__(app, Table.for_number(seats, number))
        self.chapter = chapter
        self.game = game
        self.view.keys_help = mark("practice.keys")

    def enter(self) -> None:
        self.view.show(self.driver.state(), self.driver.opening_events())
        self.view.finish()
        key = "practice.intro_game" if self.game else "practice.intro"
        self.message(t(key, game=self.game or ""), GOLD)

    def save(self) -> None:
        """Practice never touches the saved game."""

    def intent(self, intent: Intent) -> None:
        if intent == Command("back"):  # back to the contents, at this chapter
            self.app.open("tutorial", chapter=chapter_index(self.chapter))
        else:
            super().intent(intent)

    def _next_deal(self) -> None:
        self.app.open("tutorial", practice=self.chapter)  # another hand for the same chapter
