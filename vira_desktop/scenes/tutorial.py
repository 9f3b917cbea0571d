"""The tutorial's contents map: the chapters in the bid table's order, each lesson with its
stars or done mark; a lesson opens where the learner left it, and a chapter can be reset."""

from __future__ import annotations

import random

import pygame
import pygame_gui

from ..i18n import t
from ..session.worker import Worker
from ..tutorial.lesson import chapter_index, chapters, lesson
from ..tutorial.practice import practice_deal
from ..tutorial.progress import Progress
from .backdrop import panel
from .base import AppPort, Scene
from .theme import GOLD, INK, MUTED, fit_text, font, wrap_text

__all__ = ["TutorialScene"]

LEFT_X, RIGHT_X = 40, 470
ROW_H = 38
STARS_END = 636  # the stars' meaning ends above the dealing note and Practice


class TutorialScene(Scene):
    """Chapters on the left, the chosen chapter's lessons on the right."""

    def __init__(self, app: AppPort, chapter: int | None = None, practice: str | None = None) -> None:
        super().__init__(app)
        self.worker: Worker | None = None  # deals a practice hand off the frame loop
        self.dealing: str | None = None  # the chapter a practice hand is being dealt for
        self.progress = Progress()
        self.chapters = chapters()
        if chapter is None:  # the first chapter with a lesson not yet finished
            chapter = next((i for i, c in enumerate(self.chapters) if c.lessons and not self._finished(i)), 0)
        self.chapter = chapter
        if practice is not None:
            self.chapter = chapter_index(practice)
            self._practice()
        self.lesson_focus = 0
        self.on_lessons = False  # the keyboard is in the lesson list
        self.chapter_buttons: dict[pygame_gui.elements.UIButton, int] = {}
        self.lesson_buttons: dict[pygame_gui.elements.UIButton, str] = {}

    # ------------------------------------------------------------------ state
    def _finished(self, index: int) -> bool:
        ids = self.chapters[index].lessons
        return bool(ids) and all(self.progress.of(x).done for x in ids)

    def _chapter_label(self, index: int) -> str:
        chapter = self.chapters[index]
        ids = chapter.lessons
        done = sum(1 for x in ids if self.progress.of(x).done)
        mark = " ✓" if self._finished(index) else (f"  {done}/{len(ids)}" if ids else "")
        return f"{index + 1}. {t(f'lesson.{chapter.title}')}{mark}"

    def _lesson_label(self, ident: str) -> str:
        p = self.progress.of(ident)
        if p.done:
            state = "★" * p.stars + "☆" * (3 - p.stars) if p.stars else "✓"
        elif p.step:
            state = t("tutorial.at_step", step=p.step + 1)
        else:
            state = ""
        return f"{t(f'lesson.{lesson(ident).title}')}   {state}".rstrip()

    # ------------------------------------------------------------------ widgets
    def enter(self) -> None:
        self._build()

    def resume(self) -> None:
        self.progress = Progress()
        self._build()

    def _build(self) -> None:
        self.clear_widgets()
        ui = self.ui
        self.chapter_buttons = {}
        for i in range(len(self.chapters)):
            rect = pygame.Rect(LEFT_X, 84 + i * ROW_H, 400, ROW_H - 4)
            label = fit_text(self._chapter_label(i), 14, False, 380)
            button = self.add(pygame_gui.elements.UIButton(rect, label, manager=ui))
            if i == self.chapter:
                button.select()  # type: ignore[no-untyped-call]
            self.chapter_buttons[button] = i
        self.lesson_buttons = {}
        ids = self.chapters[self.chapter].lessons
        for j, ident in enumerate(ids):
            rect = pygame.Rect(RIGHT_X, 150 + j * (ROW_H + 4), 560, ROW_H)
            label = fit_text(self._lesson_label(ident), 14, False, 540)
            button = self.add(pygame_gui.elements.UIButton(rect, label, manager=ui))
            if self.on_lessons and j == self.lesson_focus:
                button.select()  # type: ignore[no-untyped-call]
            self.lesson_buttons[button] = ident
        y = 720
        self.reset = self.add(
            pygame_gui.elements.UIButton(pygame.Rect(RIGHT_X, y, 270, 40), t("tutorial.reset"), manager=ui)
        )
        if not any(self.progress.of(x).step or self.progress.of(x).done for x in ids):
            self.reset.disable()  # type: ignore[no-untyped-call]
        self.back = self.add(
            pygame_gui.elements.UIButton(pygame.Rect(RIGHT_X + 290, y, 270, 40), t("tutorial.back"), manager=ui)
        )
        rect = pygame.Rect(RIGHT_X, y - 50, 560, 40)
        self.practice = self.add(pygame_gui.elements.UIButton(rect, t("tutorial.practice"), manager=ui))
        if self.dealing:
            self.practice.disable()  # type: ignore[no-untyped-call]

    # ------------------------------------------------------------------ input
    def handle(self, event: pygame.event.Event) -> None:
        if event.type == pygame_gui.UI_BUTTON_PRESSED:
            if event.ui_element in self.chapter_buttons:
                self.chapter = self.chapter_buttons[event.ui_element]
                self.on_lessons, self.lesson_focus = False, 0
                self._build()
            elif event.ui_element in self.lesson_buttons:
                self._open(self.lesson_buttons[event.ui_element])
            elif event.ui_element is self.reset:
                self.progress.reset(list(self.chapters[self.chapter].lessons))
                self._build()
            elif event.ui_element is self.back:
                self.app.open("menu")
            elif event.ui_element is self.practice:
                self._practice()
                self._build()
        elif event.type == pygame.KEYDOWN:
            self._key(event.key)

    def _key(self, key: int) -> None:
        ids = self.chapters[self.chapter].lessons
        if key == pygame.K_ESCAPE:
            if self.on_lessons:
                self.on_lessons = False
            else:
                self.app.open("menu")
                return
        elif key in (pygame.K_UP, pygame.K_DOWN):
            step = 1 if key == pygame.K_DOWN else -1
            if self.on_lessons and ids:
                self.lesson_focus = (self.lesson_focus + step) % len(ids)
            else:
                self.chapter = (self.chapter + step) % len(self.chapters)
                self.lesson_focus = 0
        elif key in (pygame.K_RIGHT, pygame.K_TAB) and ids:
            self.on_lessons = True
        elif key == pygame.K_LEFT:
            self.on_lessons = False
        elif key == pygame.K_p:
            self._practice()
        elif key in (pygame.K_RETURN, pygame.K_SPACE) and ids:
            if self.on_lessons:
                self._open(ids[self.lesson_focus])
                return
            self.on_lessons = True
        self._build()

    def _practice(self) -> None:
        """Deal a hand for this chapter's games (in the worker: rare games take a while)."""
        if self.dealing:
            return
        chapter = self.chapters[self.chapter].id
        self.worker = self.worker or Worker()
        self.dealing = chapter
        self.worker.submit(("practice", chapter), practice_deal, chapter, random.getrandbits(32))

    def next_wake(self) -> float | None:
        return 0.1 if self.dealing else None  # the practice hand is dealt in the worker

    def update(self, dt: float) -> None:
        if self.worker is None:
            return
        for tag, result in self.worker.poll():
            if isinstance(tag, tuple) and tag[0] == "practice" and isinstance(result, tuple):
                number, game = result
                self.app.open("practice", chapter=tag[1], number=number, game=game)
                return
            self.dealing = None  # it failed: the button comes back
            self._build()

    def exit(self) -> None:
        super().exit()
        if self.worker is not None:
            self.worker.shutdown()

    def _open(self, ident: str) -> None:
        self.app.open("lesson", lesson_id=ident, progress=self.progress)

    # ------------------------------------------------------------------ drawing
    def draw(self, surface: pygame.Surface) -> None:
        surface.blit(panel(1280, 800), (0, 0))
        surface.blit(font(30, True).render(t("tutorial.title"), True, GOLD), (LEFT_X, 24))
        chapter = self.chapters[self.chapter]
        surface.blit(font(20, True).render(t(f"lesson.{chapter.title}"), True, INK), (RIGHT_X, 84))
        y = 114
        if not chapter.lessons:
            for part in wrap_text(t("tutorial.coming"), 14, False, 560):
                surface.blit(font(14).render(part, True, MUTED), (RIGHT_X, 150 + y - 114))
                y += 20
        total = sum(len(c.lessons) for c in self.chapters)
        done = sum(1 for c in self.chapters for x in c.lessons if self.progress.of(x).done)
        stars = sum(self.progress.of(x).stars for c in self.chapters for x in c.lessons)
        line = t("tutorial.summary", done=done, total=total, stars=stars, most=3 * total)
        surface.blit(font(14).render(line, True, MUTED), (RIGHT_X, 56))
        stars_y = 150 + len(chapter.lessons) * (ROW_H + 4) + 14  # what a lesson's marks mean: under its list
        if chapter.lessons and stars_y + 32 <= STARS_END:
            for k, part in enumerate(wrap_text(t("tutorial.stars"), 12, False, 560)[:2]):
                surface.blit(font(12).render(part, True, MUTED), (RIGHT_X, stars_y + 16 * k))
        if self.dealing:
            surface.blit(font(14, True).render(t("tutorial.dealing"), True, GOLD), (RIGHT_X, 640))
        keys = t("tutorial.keys")
        surface.blit(font(12).render(fit_text(keys, 12, False, 1200), True, MUTED), (LEFT_X, 776))
