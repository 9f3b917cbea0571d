"""The main menu, the new-game form and the settings screen."""

from __future__ import annotations

import contextlib
import json
from collections.abc import Callable
from dataclasses import dataclass
from typing import Literal, get_args

import pygame
import pygame_gui

from ..config import BotLevel, SettingValue, say_problems
from ..i18n import LANGUAGES, number, system_language, t
from ..paths import last_table_file
from ..rules.houserules import HOUSE_RULE_NAMES
from ..session.describe import is_you
from ..session.factory import SeatConfig, TableOrder
from .backdrop import felt, panel
from .base import AppPort, Scene, SceneName
from .fields import clicked_field, focus_field, text_field
from .theme import GOLD, INK, MUTED, fit_text, font, wrap_text
from .window import desktop_size, window_sizes

BOT_LEVELS = get_args(BotLevel)  # the bots' levels a player chooses from, as the forms offer them
HOUSE_RULE_FIELDS: tuple[tuple[str, list[SettingValue]], ...] = tuple(
    (f"house_rules.{name}", [False, True]) for name in HOUSE_RULE_NAMES
)
"""The house rules' rows, as the Settings screen and the host form of Play with friends show them."""


DEFAULT_NAMES = ["Bertil", "Cecilia", "David"]  # the bots' names; the first seat is "you" in the player's language


def hot_seat_names(names: list[str], humans: list[bool]) -> list[str]:
    """With two or more humans at one screen, nobody is "You": a human seat still called so
    (in any language) is "Player 2" by its place in the form, a real name the texts can use."""
    if sum(humans) < 2:
        return names
    return [t("new_game.player", number=i + 1) if human and is_you(name.strip()) else name
            for i, (name, human) in enumerate(zip(names, humans, strict=True))]  # fmt: skip


@dataclass(frozen=True)
class MenuEntry:
    label: str  # the catalog key, as pygame-gui's widgets take it ("vira.menu.quit")
    action: SceneName | Literal["continue", "quit"]  # a scene pushed over the menu (Esc returns), or an app command
    enabled: Callable[[AppPort], bool] = lambda app: True


MENU: tuple[MenuEntry, ...] = (
    MenuEntry("vira.menu.new_game", "new_game"),
    MenuEntry("vira.menu.continue", "continue", lambda app: app.has_autosave()),
    MenuEntry("vira.menu.tutorial", "tutorial"),
    MenuEntry("vira.menu.settings", "settings"),
    MenuEntry("vira.menu.history", "history"),
    MenuEntry("vira.menu.statistics", "statistics"),
    MenuEntry("vira.menu.friends", "friends"),
    MenuEntry("vira.menu.quit", "quit"),
)


class MenuScene(Scene):
    """The main menu, built from the entries of :data:`MENU`; keyboard focus with
    ↑ ↓ (or Tab) and Enter."""

    def enter(self) -> None:
        self.entries = MENU
        self.quit_asked = False  # Esc once asks, twice quits
        self.enabled = [entry.enabled(self.app) for entry in self.entries]
        self.buttons = []
        for i, (entry, enabled) in enumerate(zip(self.entries, self.enabled, strict=True)):
            rect = pygame.Rect(490, 266 + i * 50, 300, 44)
            b = pygame_gui.elements.UIButton(rect, entry.label, manager=self.ui)  # pygame-gui translates it
            if not enabled:
                b.disable()  # type: ignore[no-untyped-call]
            self.buttons.append(self.add(b))
        # the first enabled entry after "New game" when there is a save (Continue), else New game
        self.focus = 1 if len(self.enabled) > 1 and self.enabled[1] else 0
        if pygame.mouse.get_focused():
            self._point(pygame.mouse.get_pos(), resting=True)
        self._show_focus()

    def _point(self, pos: tuple[int, int], resting: bool = False) -> None:
        """The entry under the mouse takes the keyboard focus: one button framed, not two (the
        focused one and the one the mouse lights). A mouse merely resting on Quit at start-up
        does not take it: Enter must not quit a game nobody pointed at."""
        for i, b in enumerate(self.buttons):
            if resting and self.entries[i].action == "quit":
                continue
            if self.enabled[i] and b.rect.collidepoint(pos) and i != self.focus:
                self.focus = i
                self._show_focus()

    def _show_focus(self) -> None:
        for i, b in enumerate(self.buttons):
            b.change_object_id("#focused" if i == self.focus else None)

    def handle(self, event: pygame.event.Event) -> None:
        if event.type == pygame_gui.UI_BUTTON_PRESSED and event.ui_element in self.buttons:
            self._choose(self.buttons.index(event.ui_element))
        elif event.type == pygame.MOUSEMOTION:
            self._point(event.pos)
        elif event.type == pygame.KEYDOWN:
            if event.key in (pygame.K_DOWN, pygame.K_UP, pygame.K_TAB):
                step = -1 if event.key == pygame.K_UP else 1
                for _ in range(len(self.entries)):
                    self.focus = (self.focus + step) % len(self.entries)
                    if self.enabled[self.focus]:
                        break
                self._show_focus()
            elif event.key in (pygame.K_RETURN, pygame.K_SPACE):
                self._choose(self.focus)
            elif event.key == pygame.K_ESCAPE:  # twice: Esc from the table must not quit at once
                if self.quit_asked:
                    self.app.quit()
                self.quit_asked = True
                return
            self.quit_asked = False

    def _choose(self, index: int) -> None:
        if not self.enabled[index]:
            return
        entry = self.entries[index]
        if entry.action == "continue":
            self.app.resume_autosave()
        elif entry.action == "quit":
            self.app.quit()
        else:
            self.app.push(entry.action)

    def draw(self, surface: pygame.Surface) -> None:
        surface.blit(felt(1280, 800, rim=False), (0, 0))
        title = font(64, True).render("Vira", True, GOLD)
        surface.blit(title, title.get_rect(center=(640, 170)))
        sub = font(20).render(f"♠ ♥ ♦ ♣   {t('menu.subtitle')}   ♣ ♦ ♥ ♠", True, INK)
        surface.blit(sub, sub.get_rect(center=(640, 235)))
        if self.app.notice:  # e.g. why the config or the save could not be read: wrapped, 3 lines at most
            for i, part in enumerate(wrap_text(self.app.notice, 15, False, 1100)[:3]):
                note = font(15).render(part, True, GOLD)
                surface.blit(note, note.get_rect(center=(640, 668 + 20 * i)))
        if self.quit_asked:
            ask = font(16, True).render(t("menu.quit_again"), True, GOLD)
            surface.blit(ask, ask.get_rect(center=(640, 730)))
        keys = font(13).render(t("menu.keys"), True, MUTED)
        surface.blit(keys, keys.get_rect(center=(640, 760)))


class NewGameScene(Scene):
    """3 or 4 seats; each human or a bot of a level; names; how the seats are found.

    Every row works from the keyboard: ↑ ↓ (or Tab) choose a row, ← → change its value,
    typing edits the focused player's name, Enter starts.
    """

    KINDS = ("human", *BOT_LEVELS)  # a human, or a bot of that level
    SEATINGS = ("draw", "first_come")

    def next_wake(self) -> float | None:
        """A name being typed: its cursor blinks."""
        return 0.25 if any(entry.is_focused for entry in getattr(self, "names", ())) else None

    def enter(self) -> None:
        self.count: int = self.app.settings.session.players
        self.kind_of = ["human"] + ["normal"] * 3
        self.seating_index = 0
        self.focus = 2
        self.typed = [t("new_game.you"), *DEFAULT_NAMES]
        self._remembered()
        self._name_humans()
        self._build()

    def _name_humans(self) -> None:
        self.typed = hot_seat_names(self.typed, [kind == "human" for kind in self.kind_of])

    def _remembered(self) -> None:
        """Start from the last table: its seats, names and bots, and how the seats were found."""
        try:
            data = json.loads(last_table_file().read_text(encoding="utf-8"))
            seats = [(str(s["name"]), bool(s["human"]), str(s["level"])) for s in data["seats"]]
            seating = str(data.get("seating", "draw"))
        except (OSError, ValueError, KeyError, TypeError):
            return
        if not 3 <= len(seats) <= 4:
            return
        self.count = len(seats)
        for i, (name, human, level) in enumerate(seats):
            kind = "human" if human else level
            if kind in self.KINDS:
                self.typed[i], self.kind_of[i] = name, kind
        self.seating_index = 1 if seating == "first-come" else 0

    def _remember(self, seats: list[SeatConfig], seating: str) -> None:
        data = {"seats": [{"name": s.name, "human": s.human, "level": s.level} for s in seats], "seating": seating}
        with contextlib.suppress(OSError):
            path = last_table_file()
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")

    def _build(self) -> None:
        self.clear_widgets()
        ui = self.ui
        button = pygame_gui.elements.UIButton
        players = t("new_game.players", count=self.count)
        self.seat_button = self.add(button(pygame.Rect(660, 120, 260, 40), players, manager=ui))
        seating = t(f"new_game.seating.{self.SEATINGS[self.seating_index]}")
        self.seating_button = self.add(button(pygame.Rect(660, 170, 260, 40), seating, manager=ui))
        self.names: list[pygame_gui.elements.UITextEntryLine] = []
        self.kinds: list[pygame_gui.elements.UIButton] = []
        for i in range(self.count):
            y = 250 + i * 56
            self.names.append(self.add(text_field(pygame.Rect(380, y, 260, 40), ui, NAME_MAX, self.typed[i])))
            kind = t(f"new_game.kind.{self.kind_of[i]}")
            self.kinds.append(self.add(button(pygame.Rect(660, y, 260, 40), kind, manager=ui)))
        self.start = self.add(button(pygame.Rect(490, 520, 300, 50), t("new_game.start"), manager=ui))
        self.back = self.add(button(pygame.Rect(490, 580, 300, 40), t("new_game.back"), manager=ui))
        self.error = ""
        self.confirm = ""
        self._focus_row()

    def _rows(self) -> int:
        return 2 + self.count

    def _focus_row(self) -> None:
        focus_field(self.ui, self.names[self.focus - 2] if self.focus >= 2 else None)  # typed on at the end

    def _row_y(self, row: int) -> int:
        return 120 if row == 0 else 170 if row == 1 else 250 + (row - 2) * 56

    def seats(self) -> list[SeatConfig]:
        kinds = self.kind_of[: len(self.names)]
        humans = [kind == "human" for kind in kinds]
        names = hot_seat_names([entry.get_text().strip() for entry in self.names], humans)
        return [SeatConfig(n, h, "normal" if h else k) for n, h, k in zip(names, humans, kinds, strict=True)]

    def _unconfirm(self) -> None:
        self.confirm = ""
        self.start.set_text(t("new_game.start"))
        self.back.set_text(t("new_game.back"))

    def _change(self, row: int, step: int) -> None:
        self.typed = [e.get_text() for e in self.names] + self.typed[len(self.names) :]
        if row == 0:
            self.count = 7 - self.count
            self.focus = min(self.focus, self._rows() - 1)
        elif row == 1:
            self.seating_index = (self.seating_index + step) % len(self.SEATINGS)
        else:
            k = self.KINDS.index(self.kind_of[row - 2])
            self.kind_of[row - 2] = self.KINDS[(k + step) % len(self.KINDS)]
            self._name_humans()  # a second human: "You" becomes a real name
        self._build()

    def handle(self, event: pygame.event.Event) -> None:
        if event.type == pygame_gui.UI_BUTTON_PRESSED:
            if event.ui_element is self.seat_button:
                self._change(0, 1)
            elif event.ui_element is self.seating_button:
                self._change(1, 1)
            elif event.ui_element in self.kinds:
                self.focus = 2 + self.kinds.index(event.ui_element)
                self._change(self.focus, 1)
            elif event.ui_element is self.start:
                self._start()
            elif event.ui_element is self.back:
                self.app.pop()
        elif event.type == pygame.MOUSEBUTTONDOWN:  # a click on a name: the ring follows it
            clicked = clicked_field(self.names)
            if clicked is not None:
                self.focus = 2 + clicked
        elif event.type == pygame.KEYDOWN:
            if event.key == pygame.K_RETURN:
                self._start()
            elif event.key == pygame.K_ESCAPE:
                self.app.pop()
            elif self.confirm:  # anything else takes the question back
                self._unconfirm()
            elif event.key in (pygame.K_UP, pygame.K_DOWN, pygame.K_TAB):
                self.focus = (self.focus + (-1 if event.key == pygame.K_UP else 1)) % self._rows()
                self._focus_row()
            elif event.key in (pygame.K_LEFT, pygame.K_RIGHT) and self.focus < 2:
                self._change(self.focus, 1 if event.key == pygame.K_RIGHT else -1)
            elif event.key in (pygame.K_PAGEUP, pygame.K_PAGEDOWN) and self.focus >= 2:
                self._change(self.focus, 1 if event.key == pygame.K_PAGEDOWN else -1)

    def _start(self) -> None:
        saved = self.app.saved.describe() if self.app.has_autosave() else None
        if saved and not self.confirm:  # a new game ends the saved one: ask first
            described = t("new_game.saved_game", names=", ".join(saved[0]), deal=saved[1])
            self.confirm = t("new_game.ends_saved", saved=described)
            self.start.set_text(t("new_game.start_anyway"))
            self.back.set_text(t("new_game.keep_saved"))
            return
        seats = self.seats()
        names = [s.name for s in seats]
        if any(not n for n in names) or len(set(names)) != len(names):
            self.error = t("new_game.error.names")
            return
        if not any(s.human for s in seats):
            self.error = t("new_game.error.human")
            return
        seating = "draw" if self.seating_index == 0 else "first-come"
        seed = self.app.new_game_seeds.randrange(1 << 31)
        self._remember(seats, seating)
        self.app.start_table(TableOrder(tuple(seats), seed, seating))

    def draw(self, surface: pygame.Surface) -> None:
        surface.blit(panel(1280, 800), (0, 0))
        surface.blit(font(32, True).render(t("new_game.title"), True, GOLD), (380, 50))
        surface.blit(font(16).render(t("new_game.players_row"), True, INK), (380, 130))
        surface.blit(font(16).render(t("new_game.seating_row"), True, INK), (380, 180))
        surface.blit(font(14).render(t("new_game.name"), True, MUTED), (380, 228))
        surface.blit(font(14).render(t("new_game.who_plays"), True, MUTED), (660, 228))
        y = self._row_y(self.focus)
        pygame.draw.rect(surface, GOLD, (370, y - 6, 560, 52), 2, border_radius=8)
        keys = font(13).render(t("new_game.keys"), True, MUTED)
        surface.blit(keys, keys.get_rect(midtop=(640, 640)))
        if self.error:
            surface.blit(font(16, True).render(self.error, True, (230, 90, 90)), (380, 480))
        if self.confirm:
            parts = wrap_text(self.confirm, 16, True, 600)[:2]
            box = pygame.Rect(330, 0, 620, 24 + 20 * len(parts))
            box.centery = 488
            pygame.draw.rect(surface, (60, 40, 30), box, border_radius=8)
            for i, part in enumerate(parts):
                line = font(16, True).render(part, True, GOLD)
                surface.blit(line, line.get_rect(center=(640, 488 + 20 * i - 10 * (len(parts) - 1))))


NAME_MAX = 16  # characters in a player's name: it must fit on the player's plate


class SettingsScene(Scene):
    """Animation speed, sound, card back, four-colour deck, language, house rules, window size;
    saved in the user's own config. ↑ ↓ choose a row, ← → (or Enter) change it, Esc saves and closes."""

    FIELDS: tuple[tuple[str, list[SettingValue]], ...] = (
        ("display.animation_speed", ["instant", "fast", "normal", "slow"]),
        ("sound.enabled", [True, False]),
        ("sound.volume", [0.0, 0.25, 0.5, 0.7, 1.0]),
        ("display.card_back", ["blue", "red"]),
        ("display.four_colour_deck", [False, True]),
        ("display.language", ["system", "sv", "en", "fi"]),
        ("display.window", []),  # the sizes that fit the desktop (App.window_sizes)
        ("display.wait_after_trick", [False, True]),
        ("display.coach_grid", ["practice", "always", "never"]),
        *HOUSE_RULE_FIELDS,
    )
    TOP, STEP = 92, 41

    def enter(self) -> None:
        self.focus = 0
        self.told = ""
        self.buttons: list[pygame_gui.elements.UIButton] = []
        for i, (key, _) in enumerate(self.FIELDS):
            rect = pygame.Rect(640, self.TOP + i * self.STEP, 300, 40)
            label = setting_label(self.app, key)
            self.buttons.append(self.add(pygame_gui.elements.UIButton(rect, label, manager=self.ui)))
        rect = pygame.Rect(490, 600, 300, 48)
        self.done = self.add(pygame_gui.elements.UIButton(rect, "vira.settings.save", manager=self.ui))

    def _cycle(self, index: int, step: int = 1) -> None:
        key, offered = self.FIELDS[index]
        self.told = cycle_setting(self.app, key, offered, step)
        for i, (each, _) in enumerate(self.FIELDS):  # a new language changes every label
            self.buttons[i].set_text(setting_label(self.app, each))

    def handle(self, event: pygame.event.Event) -> None:
        if event.type == pygame_gui.UI_BUTTON_PRESSED:
            if event.ui_element in self.buttons:
                self.focus = self.buttons.index(event.ui_element)
                self._cycle(self.focus)
            elif event.ui_element is self.done:
                self.app.pop()
        elif event.type == pygame.KEYDOWN:
            if event.key == pygame.K_ESCAPE:
                self.app.pop()
            elif event.key in (pygame.K_UP, pygame.K_DOWN, pygame.K_TAB):
                self.focus = (self.focus + (-1 if event.key == pygame.K_UP else 1)) % len(self.FIELDS)
            elif event.key in (pygame.K_LEFT, pygame.K_RIGHT, pygame.K_RETURN, pygame.K_SPACE):
                self._cycle(self.focus, -1 if event.key == pygame.K_LEFT else 1)

    def draw(self, surface: pygame.Surface) -> None:
        surface.blit(panel(1280, 800), (0, 0))
        surface.blit(font(32, True).render(t("settings.title"), True, GOLD), (230, 40))
        problems = self.app.config_problems
        if self.told or problems:
            line = self.told or t("settings.unreadable", problem=say_problems(problems))
            for i, part in enumerate(wrap_text(line, 15, False, 1000)[:3]):
                surface.blit(font(15).render(part, True, GOLD), (140, 728 + 20 * i))
        for i, (key, _) in enumerate(self.FIELDS):
            y = self.TOP + i * self.STEP
            label = fit_text(t(f"settings.{key}"), 16, False, 390)
            surface.blit(font(16).render(label, True, INK), (240, y + 10))
        y = self.TOP + self.focus * self.STEP
        pygame.draw.rect(surface, GOLD, (228, y - 4, 722, self.STEP + 2), 2, border_radius=8)
        note = font(13).render(t("settings.note"), True, MUTED)
        surface.blit(note, note.get_rect(midtop=(640, 670)))
        keys = font(13).render(t("settings.keys"), True, MUTED)
        surface.blit(keys, keys.get_rect(midtop=(640, 700)))


def setting_values(app: AppPort, key: str, values: list[SettingValue]) -> tuple[SettingValue, list[SettingValue]]:
    """A setting's value now and the values offered (for the window: its real size, and the
    sizes that fit the desktop)."""
    if key == "display.window":
        return app.window_size(), list(window_sizes(desktop_size()))
    return app.settings.value(key), values


def setting_label(app: AppPort, key: str) -> str:
    """A setting's value as its row's button says it."""
    value = setting_values(app, key, [])[0]
    if key == "display.language":  # each language by its own name
        chosen = app.settings.display.language
        system = LANGUAGES[system_language()]
        return t("language.system", language=system) if chosen == "system" else LANGUAGES[chosen]
    if isinstance(value, bool):
        return t("settings.value.on" if value else "settings.value.off")
    if isinstance(value, tuple):
        return " × ".join(str(v) for v in value)
    if isinstance(value, float):
        return number(value, 2)
    return t(f"settings.value.{value}")


def cycle_setting(app: AppPort, key: str, offered: list[SettingValue], step: int = 1) -> str:
    """Set ``key`` to the next value offered (``step`` -1: the one before) and save it; what
    the player should be told ("" when all went well)."""
    current, values = setting_values(app, key, offered)
    if current in values:
        nxt = values[(values.index(current) + step) % len(values)]
    else:  # between two sizes (or volumes) offered: the next one up or down
        bigger = [v for v in values if _rank(v) > _rank(current)]
        smaller = [v for v in values if _rank(v) < _rank(current)]
        nxt = (bigger or values)[0] if step > 0 else (smaller or values)[-1]
    return app.change_setting(key, nxt)


def _rank(value: SettingValue) -> tuple[float, ...]:
    """A size or a number as numbers, to tell which is larger (a text is never between two)."""
    if isinstance(value, str):
        return ()
    return value if isinstance(value, tuple) else (float(value),)
