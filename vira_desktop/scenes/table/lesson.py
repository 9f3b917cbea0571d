"""A lesson at the real table: the window draws a :class:`~...tutorial.runner.LessonRunner`
(the lesson's state machine, which runs its table) and forwards the learner's input to it.
The lesson's words stand on a card over the felt, with its own buttons; the glossary's
words in them show their meaning under the mouse."""

from __future__ import annotations

import re
from dataclasses import replace
from functools import cache, lru_cache

import pygame

from ...i18n import current, mark, t
from ...rules.actions import Action, PlayCard
from ...rules.decision import Phase
from ...rules.errors import ViraError
from ...rules.games import GAMES
from ...rules.glossary import GLOSSARY_TERMS, term_words
from ...rules.ledger import PULLA, SEXMASTARE, Kind, Ledger
from ...session.factory import new_table
from ...session.runner import BOT_PAUSE_S, TableRunner, Update
from ...session.state import TableState
from ...session.table import SeatConfig, Table
from ...session.words import say_refusal
from ...tutorial.lesson import Lesson, Step, chapter_index, lesson
from ...tutorial.progress import Progress
from ...tutorial.question import KINDS
from ...tutorial.runner import LessonRunner, Stage, Tone, next_lesson
from ...tutorial.telling import question_label
from ..base import AppPort, SceneName
from ..theme import GOLD, GOOD, INK, MUTED, RED, fit_text, font, wrap_text
from .input import Command, Intent
from .panel import ButtonSpec
from .scene import TableScene

__all__ = ["GROWS", "TEXT_PT", "TEXT_W", "LessonScene", "PracticeScene", "text_lines"]

ROLE_QUESTIONS = ("forehand", "dealer", "cuts", "shuffles_spare", "sits_out")  # the plates would tell them
BOX_X, BOX_W = 236, 498  # the lesson's card on the felt, between the plates
BOX_H, TOP_H = 160, 166  # at the top the box ends above the bid grid (it starts at y 176)
TEXT_PT, LINE_H, TEXT_W = 13, 17, BOX_W - 28  # the lesson's words
MIDDLE_Y, TOP_Y, LOW_Y = 182, 6, 388  # under the pulla; above the bid grid; under the result
FOURTH_H = 48  # with four at the table: under the plate of the one sitting out
TRICK_TOP, PLAY_TOP_Y = 326, 166  # in the play: above the trick's cards (y 330), below the pulla's tokens
GROWS = 2  # lines the card may grow by for a long answer (at the top: over the bid grid's title line)
CHOICE_H, CHOICE_GAP = 30, 6  # a question's choices: buttons in rows over the lesson's own
TONES = {Tone.GOOD: GOOD, Tone.BAD: RED, Tone.NOTE: GOLD, Tone.QUIET: MUTED}
# The lesson's buttons: label key and width, by the runner's control.
CONTROLS = {
    "back": ("lesson.ui.back", 90),
    "next": ("lesson.ui.next", 120),
    "skip": ("lesson.ui.skip", 130),
    "leave": ("lesson.ui.leave", 110),
    "show": ("lesson.ui.show", 180),
    "retry": ("lesson.ui.retry", 140),
    "play_on": ("lesson.ui.play_on", 150),
    "following": ("lesson.ui.next_lesson", 150),
    "contents": ("lesson.ui.contents", 130),
}


@cache
def glossary_words(language: str) -> tuple[tuple[str, str], ...]:
    """(entry, word) for every word a lesson's text may use for a glossary entry: Vira's own
    term, and the word an entry of this language opens with ("forehand: …", "etukäsi: …");
    the longest first, so "högsta färg" is found before "färg"."""
    words = []
    for slug, term in GLOSSARY_TERMS:
        words += [(slug, word) for word in term_words(term)]
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


class LessonScene(TableScene):
    """One lesson: its steps over the table, Back / Next, Skip step, Leave."""

    ends_session = False
    deals_on = False  # one deal: no next deal after it

    def __init__(self, app: AppPort, lesson_id: str, progress: Progress | None = None) -> None:
        self.taught = lesson(lesson_id)
        self.kept = progress
        super().__init__(app, None, saves=False)
        self.view.keys_help = mark("lesson.keys")
        self._terms: list[tuple[pygame.Rect, str]] = []  # the glossary's words in the text, where drawn
        self._tip: str | None = None  # the word under the mouse
        self._tip_at = (0, 0)

    def coach_grid_on(self) -> bool:
        return False  # a lesson asks the learner to judge the bids: the coach does not say

    def make_runner(self, table: Table | None, autoplay: int | None, hints: bool, saves: bool) -> TableRunner:
        self.lesson_runner = LessonRunner(self.taught, self.kept, self.worker, BOT_PAUSE_S * self.view.factor())
        return self.lesson_runner.runner

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

    def table_state(self, with_seating: bool = False) -> TableState:
        state = self.lesson_runner.state(with_seating)
        question = self.current.question
        if question is not None and "pulla" in KINDS[question.kind] and question.pulla != state.pulla_bets:
            state = question_pulla(state, question.pulla, self.table.bowl)  # the pulla the question speaks of
        return state

    def enter(self) -> None:
        update = self.lesson_runner.start()
        self.view.show(self.table_state(), update.events)
        self.view.finish()
        self._shown()

    def poll(self, ready: bool) -> list[Update]:
        return self.lesson_runner.poll(self.clock, ready)

    def update(self, dt: float) -> None:
        self.view.brisk = self.lesson_runner.brisk  # scripted play goes briskly, unless watched
        super().update(dt)

    def _rebuilt(self) -> None:
        """The table shown as the runner left it, at once: set at a position (Back, Try again,
        a skipped question) or on to another step."""
        self.selected = set()
        self.grid.focus = None  # a wrong bid chosen before is not chosen again by Enter
        step = self.current
        self.view.cards.selected = set(step.cards) if step.ask is None else set()  # never like a selection
        self.view.show(self.table_state(), snap=True)
        self._shown()

    # ------------------------------------------------------------------ answers and commands
    def act(self, what: Action | None) -> None:
        try:
            update = self.lesson_runner.answer(what)
        except ViraError as exc:
            said = say_refusal(exc, self.table.session.seats)
            self.message(said, RED)
            self.lesson_runner.refused(said)  # on the lesson's card too, where the learner is reading
            if isinstance(what, PlayCard):
                self.view.cards.refuse(what.card)
            return
        if update is not None:
            self.take(update)
        elif isinstance(what, PlayCard) and self.stage is Stage.WRONG:
            self.view.cards.refuse(what.card)

    def command(self, intent: Command) -> None:
        name = intent.name
        lr = self.lesson_runner
        if name == "lesson_next":
            if lr.next():
                self._rebuilt()
        elif name == "lesson_back":
            if lr.back():
                self._rebuilt()
        elif name == "lesson_skip":
            lr.next(skipped=True)
            self._rebuilt()
        elif name in ("lesson_leave", "lesson_contents"):
            self.app.open("tutorial", chapter=chapter_index(self.lesson.chapter))
        elif name == "lesson_show":
            update = lr.show()
            if update is not None:
                self.take(update)
        elif name == "lesson_choose":
            self.lesson_runner.choose(intent.arg)
        elif name == "lesson_retry":
            lr.retry()
            self._rebuilt()
        elif name == "lesson_play_on":
            lr.play_on()
        elif name == "lesson_following":
            following = next_lesson(self.lesson.id)
            if following:
                self.app.open("lesson", lesson_id=following)
            else:
                self.app.open("tutorial", chapter=chapter_index(self.lesson.chapter))
        elif name == "undo":
            self.message(t("lesson.ui.no_undo"), MUTED)
        elif name == "watch":
            self.message(t("lesson.ui.watching" if lr.watch() else "lesson.ui.brisk"), MUTED)
        else:
            super().command(intent)

    def intent(self, intent: Intent) -> None:
        if intent == Command("back"):
            self.app.open("tutorial", chapter=chapter_index(self.lesson.chapter))
        elif intent == Command("confirm") and self.lesson_runner.stage is Stage.FINISHED:
            self.command(Command("lesson_following"))  # the lesson is done: on to the next one
        elif intent == Command("confirm") and self._next_ready():
            self.command(Command("lesson_next"))
        else:
            super().intent(intent)

    def _next_ready(self) -> bool:
        """Enter goes to the next step where nothing on the table is asked."""
        return self.stage in (Stage.READING, Stage.ANSWERED, Stage.ASKING) and self.viewer_ask() is None

    def after_deal(self) -> None:
        """A lesson is one deal: Enter after it goes on to the next lesson once this one is done."""
        if self.lesson_runner.finished:
            self.command(Command("lesson_following"))

    def _ask_hint(self) -> None:
        if not self.lesson_runner.hint():
            super()._ask_hint()

    def open_overlay(self, name: SceneName) -> None:
        if name == "bid_table":  # the step's rows highlighted
            rows = self.current.rows or self.lesson.teaches
            self.app.push(name, state=self.view.state, rows=tuple(rows))
        else:
            super().open_overlay(name)

    # ------------------------------------------------------------------ buttons and drawing
    def question_labels(self, answered: bool = False) -> list[str]:
        """The question's choices as their buttons say them, numbered for the keys 1–4 (with
        ``answered``, the step's question's choices even once it no longer stands)."""
        question = self.current.question
        if question is None:
            return []
        you = self.lesson.record.names[self.lesson.you]
        choices = question.choices() if answered else self.lesson_runner.choices()
        return [f"{i}. {question_label(c, question.kind, you)}" for i, c in enumerate(choices, 1)]

    def _choice_columns(self, labels: list[str]) -> int:
        """Four choices in a row where their words fit, else two."""
        width = (TEXT_W - 3 * CHOICE_GAP) // 4
        return 4 if all(font(13, True).size(label)[0] + 24 <= width for label in labels) else 2

    def _choices_h(self) -> int:
        """The height the step's question's choices take in the card (none without a question),
        kept once it is answered, so the buttons below do not move under the pointer."""
        labels = self.question_labels(answered=True)
        if not labels:
            return 0
        rows = -(-len(labels) // self._choice_columns(labels))
        return rows * (CHOICE_H + CHOICE_GAP)

    def extra_buttons(self) -> list[ButtonSpec]:
        y = self._box_y() + self._box_h() - 40
        x = BOX_X + 10
        specs: list[ButtonSpec] = []
        labels = self.question_labels()
        if labels:  # the question's choices, in rows over the lesson's buttons
            columns = self._choice_columns(labels)
            width = (TEXT_W - (columns - 1) * CHOICE_GAP) // columns
            top = y - self._choices_h()
            for i, label in enumerate(labels):
                row, column = divmod(i, columns)
                at_x, at_y = x + column * (width + CHOICE_GAP), top + row * (CHOICE_H + CHOICE_GAP)
                specs.append(ButtonSpec(label, Command("lesson_choose", i), at_y, at_x, width, True, CHOICE_H))
        for control in self.lesson_runner.controls():
            key, width = CONTROLS[control.command]
            specs.append(ButtonSpec(t(key), Command(f"lesson_{control.command}"), y, x, width, control.enabled, 32))
            x += width + 6
        return specs

    def _at_top(self) -> bool:
        """The card goes up, clear of the bid grid and of the tricks played out."""
        over = self.view.state is not None and self.view.state.over
        return self.grid_shown() or (not self.lesson_runner.in_lesson and not over)

    def _in_play(self) -> bool:
        """Cards lie face up in the middle of a table of three, the trick's or those turned up
        from the stock (a playtest: "count the turned cards" under the card that hid them): the
        card must leave them (their tops at :data:`TRICK_TOP`) in sight."""
        state = self.view.state
        return (
            state is not None
            and (state.view.phase is Phase.PLAY or bool(state.view.stock_turned))
            and len(self.lesson.table) == 3
            and not self._at_top()
        )

    def _box_y(self) -> int:
        if self._at_top():
            return TOP_Y
        over = self.view.state is not None and self.view.state.over
        if over:
            return LOW_Y  # the result: under its banner, the pulla free
        if self._in_play():  # just above the trick, no higher than the pulla's tokens
            return max(PLAY_TOP_Y, min(MIDDLE_Y, TRICK_TOP - self._box_h()))
        return MIDDLE_Y + FOURTH_H if len(self.lesson.table) == 4 else MIDDLE_Y

    def _box_h(self) -> int:
        """The card's height: its place's, grown by up to :data:`GROWS` lines for a long answer;
        in the play of the cards no taller than its words need."""
        base = TOP_H if self._at_top() else BOX_H
        words, rows = self._words()
        needed = len(words) + len(rows)
        if self._in_play():
            base = min(base, 28 + 44 + LINE_H * max(needed, 2))
        over = needed - text_lines(base)
        return base + LINE_H * min(GROWS, max(0, over)) + self._choices_h()

    def _words(self) -> tuple[list[tuple[str, tuple[int, int, int], bool]], list[str]]:
        """The card's lines (text, colour, bold) and its bid-table row line."""
        lr = self.lesson_runner
        lines: list[tuple[str, tuple[int, int, int], bool]] = []
        if lr.behind:  # the step's words wait for its position: they may tell how the deal ended
            going = t("lesson.ui.playing_on_watching" if lr.watching else "lesson.ui.playing_on")
            lines += [(part, MUTED, False) for part in wrap_text(going, TEXT_PT, False, TEXT_W)]
        elif lr.in_lesson and not lr.finished:
            lines += [(part, INK, False) for part in wrap_text(t(f"lesson.{self.current.say}"), TEXT_PT, False, TEXT_W)]
        elif lr.stage is Stage.FREE:
            lines += [(part, INK, False) for part in wrap_text(t("lesson.ui.free"), TEXT_PT, False, TEXT_W)]
        elif lr.stage is Stage.FINISHED:
            lines += [(part, MUTED, False) for part in wrap_text(t("lesson.ui.stars"), TEXT_PT, False, TEXT_W)]
        feedback = lr.feedback
        if feedback is not None:
            colour = TONES[feedback.tone]
            said = wrap_text(feedback.text, TEXT_PT, True, TEXT_W)
            more = wrap_text(feedback.more, TEXT_PT, True, TEXT_W) if feedback.more else []
            if len(said) + len(more) <= text_lines(TOP_H if self._at_top() else BOX_H) + GROWS:
                said += more  # what more there is to say, where the card has room for it
            lines += [(part, colour, True) for part in said]
        return lines, self._rows() if feedback is None else []  # an answer's words come first

    def draw(self, surface: pygame.Surface) -> None:
        question = self.current.question
        asking = question is not None and self.lesson_runner.stage is Stage.ASKING
        self.view.bowls.roles_shown = not (asking and question is not None and question.kind in ROLE_QUESTIONS)
        super().draw(surface)
        y0, height = self._box_y(), self._box_h()
        surface.blit(_box(height), (BOX_X, y0))
        x, y = BOX_X + 14, y0 + 8
        title = t(f"lesson.{self.lesson.title}")
        head = t("lesson.ui.step", step=self.step + 1, steps=len(self.lesson.steps), title=title)
        lr = self.lesson_runner
        if lr.finished:
            stars = self.progress.of(self.lesson.id).stars
            head = t("lesson.ui.done", title=title, stars="★" * stars + "☆" * (3 - stars))
        surface.blit(font(13, True).render(fit_text(head, 13, True, BOX_W - 28), True, GOLD), (x, y))
        y += 20
        lines, rows = self._words()
        room = text_lines(height - self._choices_h()) - len(rows)
        if len(lines) > room:  # the answer's words (bold) matter most: the step's text gives way, whole
            lines = ([line for line in lines if line[2]] or lines)[: max(room, 1)]
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
        lr = self.lesson_runner
        asking = lr.stage is Stage.ASKING  # the rows would tell the answer: they show once it is given
        rows = self.current.rows if lr.in_lesson and not lr.finished and not asking else ()
        if len(rows) == 1:
            game = GAMES[rows[0] - 1]
            pins = " / ".join("–" if p is None else str(p) for p in game.pins)
            return [t("lesson.ui.row", no=rows[0], game=game.name, tricks=game.tricks, pins=pins)]
        if rows:  # the games by the names the lessons' words use ("köpmisär 1", not "Köpmisär på 1")
            said = t("lesson.ui.rows", rows=" · ".join(f"{no} {GAMES[no - 1].name}" for no in rows))
            return wrap_text(said, 12, True, BOX_W - 28, sep=" · ")[:3]  # six köpmisär rows run long: wrapped
        return []


def question_pulla(state: TableState, bets: int, bowl: dict[Kind, int] | None) -> TableState:
    """``state`` with the pulla a question speaks of drawn in place of the table's: ``bets``
    put in one at a time round the table from forehand, as a lesson's ``pulla`` is."""
    ledger = Ledger(bowl)
    for name in state.players:
        ledger.add_player(name)
    order = list(state.players)
    first = order.index(state.seats[0]) if state.seats[0] in order else 0
    for i in range(bets):
        ledger.pay_pulla(order[(first + i) % len(order)], 1, "åla")
    return replace(
        state,
        pulla=ledger.holdings(PULLA),
        pulla_bets=ledger.pulla_bets(),
        sexmastare=sum(ledger.holdings(SEXMASTARE).values()),
    )


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

    def __init__(self, app: AppPort, chapter: str, number: int, game: str | None = None) -> None:
        seats = [SeatConfig(t("new_game.you"), True), SeatConfig("Bertil"), SeatConfig("Cecilia")]
        super().__init__(app, new_table(seats, number=number), saves=False)  # never the saved game
        self.chapter = chapter
        self.game = game
        self.view.keys_help = mark("practice.keys")

    def enter(self) -> None:
        update = self.runner.start()
        self.view.show(self.table_state(), update.events)
        self.view.finish()
        self._shown()
        key = "practice.intro_game" if self.game else "practice.intro"
        self.message(t(key, game=self.game or ""), GOLD)

    def intent(self, intent: Intent) -> None:
        if intent == Command("back"):  # back to the contents, at this chapter
            self.app.open("tutorial", chapter=chapter_index(self.chapter))
        else:
            super().intent(intent)

    def _session_command(self, name: str) -> None:
        if name == "next":
            self.app.open("tutorial", practice=self.chapter)  # another hand for the same chapter
        else:
            super()._session_command(name)
