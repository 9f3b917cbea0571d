"""A lesson's card on the felt: its heading, the step's words and the answer's, the rows of
the bid table the step is about, the question's choices and the lesson's buttons; the
glossary's words in it show their meaning under the mouse."""

from __future__ import annotations

import re
from collections.abc import Callable
from functools import cache, lru_cache

import pygame

from ...i18n import current, t
from ...rules.decision import Phase
from ...rules.games import GAMES
from ...rules.glossary import GLOSSARY_TERMS, term_words
from ...tutorial.runner import LessonRunner, Stage, Tone
from ...tutorial.telling import question_label
from ..theme import GOLD, GOOD, INK, MUTED, RED, fit_text, font, wrap_text
from .input import Command
from .panel import ButtonSpec
from .view import TableView

__all__ = ["BOX_H", "CHOICE_GAP", "GROWS", "TEXT_PT", "TEXT_W", "TOP_H", "LessonCard", "text_lines"]

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


class LessonCard:
    """The card of the lesson ``runner`` runs, over ``view``'s table; ``grid_shown`` says
    when the bid grid is up (the card goes above it)."""

    def __init__(self, runner: LessonRunner, view: TableView, grid_shown: Callable[[], bool]) -> None:
        self.runner = runner
        self.view = view
        self.grid_shown = grid_shown
        self.terms: list[tuple[pygame.Rect, str]] = []  # the glossary's words in the text, where drawn
        self.tip: str | None = None  # the word under the mouse
        self.tip_at = (0, 0)

    def question_labels(self, answered: bool = False) -> list[str]:
        """The question's choices as their buttons say them, numbered for the keys 1–4 (with
        ``answered``, the step's question's choices even once it no longer stands)."""
        question = self.runner.current.question
        if question is None:
            return []
        you = self.runner.lesson.record.names[self.runner.lesson.you]
        choices = question.choices() if answered else self.runner.choices()
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

    def buttons(self) -> list[ButtonSpec]:
        """The question's choices and the lesson's own buttons, at the card's foot."""
        y = self.box_y() + self.box_h() - 40
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
        for control in self.runner.controls():
            key, width = CONTROLS[control.command]
            specs.append(ButtonSpec(t(key), Command(f"lesson_{control.command}"), y, x, width, control.enabled, 32))
            x += width + 6
        return specs

    def _at_top(self) -> bool:
        """The card goes up, clear of the bid grid and of the tricks played out."""
        over = self.view.state is not None and self.view.state.over
        return self.grid_shown() or (not self.runner.in_lesson and not over)

    def _in_play(self) -> bool:
        """Cards lie face up in the middle of a table of three, the trick's or those turned up
        from the stock (a playtest: "count the turned cards" under the card that hid them): the
        card must leave them (their tops at :data:`TRICK_TOP`) in sight."""
        state = self.view.state
        return (
            state is not None
            and (state.view.phase is Phase.PLAY or bool(state.view.stock_turned))
            and len(self.runner.lesson.table) == 3
            and not self._at_top()
        )

    def box_y(self) -> int:
        if self._at_top():
            return TOP_Y
        over = self.view.state is not None and self.view.state.over
        if over:
            return LOW_Y  # the result: under its banner, the pulla free
        if self._in_play():  # just above the trick, no higher than the pulla's tokens
            return max(PLAY_TOP_Y, min(MIDDLE_Y, TRICK_TOP - self.box_h()))
        return MIDDLE_Y + FOURTH_H if len(self.runner.lesson.table) == 4 else MIDDLE_Y

    def box_h(self) -> int:
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
        lr = self.runner
        lines: list[tuple[str, tuple[int, int, int], bool]] = []
        if lr.behind:  # the step's words wait for its position: they may tell how the deal ended
            going = t("lesson.ui.playing_on_watching" if lr.watching else "lesson.ui.playing_on")
            lines += [(part, MUTED, False) for part in wrap_text(going, TEXT_PT, False, TEXT_W)]
        elif lr.in_lesson and not lr.finished:
            text = t(f"lesson.{lr.current.say}")
            lines += [(part, INK, False) for part in wrap_text(text, TEXT_PT, False, TEXT_W)]
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
        """The card, its heading, the lesson's words (the glossary's underlined), the rows."""
        y0, height = self.box_y(), self.box_h()
        surface.blit(_box(height), (BOX_X, y0))
        x, y = BOX_X + 14, y0 + 8
        lr, taught = self.runner, self.runner.lesson
        title = t(f"lesson.{taught.title}")
        head = t("lesson.ui.step", step=lr.step + 1, steps=len(taught.steps), title=title)
        if lr.finished:
            stars = lr.progress.of(taught.id).stars
            head = t("lesson.ui.done", title=title, stars="★" * stars + "☆" * (3 - stars))
        surface.blit(font(13, True).render(fit_text(head, 13, True, BOX_W - 28), True, GOLD), (x, y))
        y += 20
        lines, rows = self._words()
        room = text_lines(height - self._choices_h()) - len(rows)
        if len(lines) > room:  # the answer's words (bold) matter most: the step's text gives way, whole
            lines = ([line for line in lines if line[2]] or lines)[: max(room, 1)]
        self.terms = []
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
            self.terms.append((rect, slug))

    def hover(self, pos: tuple[int, int]) -> None:
        """The mouse at ``pos``: the glossary word under it, if any, shows its meaning."""
        self.tip = next((slug for rect, slug in self.terms if rect.collidepoint(pos)), None)
        self.tip_at = pos

    def _draw_tip(self, surface: pygame.Surface) -> None:
        """The meaning of the glossary word under the mouse."""
        if self.tip is None:
            return
        term = dict(GLOSSARY_TERMS)[self.tip]
        parts = wrap_text(f"{term}: {t(f'glossary.term.{self.tip}')}", 13, False, 360)[:4]
        box = pygame.Rect(0, 0, 380, 12 + 17 * len(parts))
        under = self.box_y() + self.box_h() + 6  # under the lesson's card: the sentence stays readable
        box.topleft = (min(max(10, self.tip_at[0] - 40), 940 - box.width), under)
        pygame.draw.rect(surface, (12, 18, 24), box, border_radius=6)
        pygame.draw.rect(surface, GOLD, box, 1, border_radius=6)
        for k, part in enumerate(parts):
            surface.blit(font(13).render(part, True, INK), (box.x + 10, box.y + 6 + 17 * k))

    def _rows(self) -> list[str]:
        """The bid-table rows this step is about, in one line: one row with its tricks and
        pins, several by their numbers and names (B shows them whole)."""
        lr = self.runner
        asking = lr.stage is Stage.ASKING  # the rows would tell the answer: they show once it is given
        rows = self.runner.current.rows if lr.in_lesson and not lr.finished and not asking else ()
        if len(rows) == 1:
            game = GAMES[rows[0] - 1]
            pins = " / ".join("–" if p is None else str(p) for p in game.pins)
            return [t("lesson.ui.row", no=rows[0], game=game.name, tricks=game.tricks, pins=pins)]
        if rows:  # the games by the names the lessons' words use ("köpmisär 1", not "Köpmisär på 1")
            said = t("lesson.ui.rows", rows=" · ".join(f"{no} {GAMES[no - 1].name}" for no in rows))
            return wrap_text(said, 12, True, BOX_W - 28, sep=" · ")[:3]  # six köpmisär rows run long: wrapped
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
