"""The main menu, the new-game form and the settings screen."""

from __future__ import annotations

import contextlib
import json
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import pygame
import pygame_gui

from ..paths import autosave_file, last_table_file
from ..session.table import SeatConfig, Table, describe_save
from .backdrop import felt, panel
from .base import Scene
from .theme import GOLD, INK, MUTED, font, wrap_text

if TYPE_CHECKING:
    from .app import App

DEFAULT_NAMES = ["You", "Bertil", "Cecilia", "David"]


@dataclass(frozen=True)
class MenuEntry:
    label: str
    action: str  # a scene pushed over the menu, or one of the app's own commands
    enabled: Callable[[App], bool] = lambda app: True
    push: bool = True  # push the scene over the menu (Esc returns) rather than an app command


MENU: tuple[MenuEntry, ...] = (
    MenuEntry("New game", "new_game"),
    MenuEntry("Continue", "continue", lambda app: app.has_autosave(), push=False),
    MenuEntry("Settings", "settings"),
    MenuEntry("Quit", "quit", push=False),
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
            b = pygame_gui.elements.UIButton(pygame.Rect(490, 300 + i * 60, 300, 48), entry.label, manager=self.ui)
            if not enabled:
                b.disable()  # type: ignore[no-untyped-call]
            self.buttons.append(self.add(b))
        # the first enabled entry after "New game" when there is a save (Continue), else New game
        self.focus = 1 if len(self.enabled) > 1 and self.enabled[1] else 0
        self._show_focus()

    def _show_focus(self) -> None:
        for i, b in enumerate(self.buttons):
            b.change_object_id("#focused" if i == self.focus else None)

    def handle(self, event: pygame.event.Event) -> None:
        if event.type == pygame_gui.UI_BUTTON_PRESSED and event.ui_element in self.buttons:
            self._choose(self.buttons.index(event.ui_element))
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
                    self.app.running = False
                self.quit_asked = True
                return
            self.quit_asked = False

    def _choose(self, index: int) -> None:
        if not self.enabled[index]:
            return
        entry = self.entries[index]
        if entry.push:
            self.app.push(entry.action)
        elif entry.action == "continue":
            self.app.resume_autosave()
        elif entry.action == "quit":
            self.app.running = False

    def draw(self, surface: pygame.Surface) -> None:
        surface.blit(felt(1280, 800, rim=False), (0, 0))
        title = font(64, True).render("Vira", True, GOLD)
        surface.blit(title, title.get_rect(center=(640, 170)))
        sub = font(20).render("♠ ♥ ♦ ♣   Sweden's national card game   ♣ ♦ ♥ ♠", True, INK)
        surface.blit(sub, sub.get_rect(center=(640, 235)))
        if self.app.notice:  # e.g. why the config or the save could not be read: wrapped, 3 lines at most
            for i, part in enumerate(wrap_text(self.app.notice, 15, False, 1100)[:3]):
                note = font(15).render(part, True, GOLD)
                surface.blit(note, note.get_rect(center=(640, 630 + 20 * i)))
        if self.quit_asked:
            ask = font(16, True).render("Press Esc again to quit (a game in play is saved)", True, GOLD)
            surface.blit(ask, ask.get_rect(center=(640, 700)))
        keys = font(13).render("↑ ↓ to choose · Enter to open · Esc twice to quit", True, MUTED)
        surface.blit(keys, keys.get_rect(center=(640, 760)))


class NewGameScene(Scene):
    """3 or 4 seats; each human or a bot of a level; names; how the seats are found.

    Every row works from the keyboard: ↑ ↓ (or Tab) choose a row, ← → change its value,
    typing edits the focused player's name, Enter starts.
    """

    KINDS = ("human", "bot: normal", "bot: easy", "bot: random")
    SEATINGS = ("seating draw by hearts", "first come, heart deal")

    def enter(self) -> None:
        self.count = int(self.app.settings["session.players"])
        self.kind_of = ["human"] + ["bot: normal"] * 3
        self.seating_index = 0
        self.focus = 2
        self.typed = list(DEFAULT_NAMES)
        self._remembered()
        self._build()

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
            kind = "human" if human else f"bot: {level}"
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
        self.seat_button = self.add(button(pygame.Rect(660, 120, 260, 40), f"{self.count} players", manager=ui))
        self.seating_button = self.add(
            button(pygame.Rect(660, 170, 260, 40), self.SEATINGS[self.seating_index], manager=ui)
        )
        self.names: list[pygame_gui.elements.UITextEntryLine] = []
        self.kinds: list[pygame_gui.elements.UIButton] = []
        for i in range(self.count):
            y = 250 + i * 56
            entry = pygame_gui.elements.UITextEntryLine(pygame.Rect(380, y, 260, 40), manager=ui)
            entry.set_text_length_limit(NAME_MAX)
            entry.set_text(self.typed[i][:NAME_MAX])
            self.names.append(self.add(entry))
            self.kinds.append(self.add(button(pygame.Rect(660, y, 260, 40), self.kind_of[i], manager=ui)))
        self.start = self.add(button(pygame.Rect(490, 520, 300, 50), "Start  [Enter]", manager=ui))
        self.back = self.add(button(pygame.Rect(490, 580, 300, 40), "Back  [Esc]", manager=ui))
        self.error = ""
        self.confirm = ""
        self._focus_row()

    def _rows(self) -> int:
        return 2 + self.count

    def _focus_row(self) -> None:
        for i, entry in enumerate(self.names):
            if i == self.focus - 2:
                entry.focus()  # type: ignore[no-untyped-call]
                entry.edit_position = len(entry.get_text())  # type on at the end of the name
            else:
                entry.unfocus()  # type: ignore[no-untyped-call]

    def _row_y(self, row: int) -> int:
        return 120 if row == 0 else 170 if row == 1 else 250 + (row - 2) * 56

    def seats(self) -> list[SeatConfig]:
        out = []
        for i, entry in enumerate(self.names):
            label = self.kind_of[i]
            human = label == "human"
            out.append(SeatConfig(entry.get_text().strip(), human, "normal" if human else label.split(": ")[1]))
        return out

    def _unconfirm(self) -> None:
        self.confirm = ""
        self.start.set_text("Start  [Enter]")
        self.back.set_text("Back  [Esc]")

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
                self.app.stack.pop()
        elif event.type == pygame.KEYDOWN:
            if event.key == pygame.K_RETURN:
                self._start()
            elif event.key == pygame.K_ESCAPE:
                self.app.stack.pop()
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
        saved = describe_save(autosave_file()) if self.app.has_autosave() else None
        if saved and not self.confirm:  # a new game ends the saved one: ask first
            self.confirm = f"This ends your saved game: {saved}."
            self.start.set_text("Start anyway  [Enter]")
            self.back.set_text("Keep the saved game  [Esc]")
            return
        seats = self.seats()
        names = [s.name for s in seats]
        if any(not n for n in names) or len(set(names)) != len(names):
            self.error = "every player needs a different name"
            return
        if not any(s.human for s in seats):
            self.error = "at least one seat must be a human player"
            return
        seating = "draw" if self.seating_index == 0 else "first-come"
        settings = self.app.settings
        seed = self.app.new_game_seeds.randrange(1 << 31)
        table = Table(seats, seed, settings.house_rules(), settings.bowl(), seating)
        self._remember(seats, seating)
        self.app.start_table(table)

    def draw(self, surface: pygame.Surface) -> None:
        surface.blit(panel(1280, 800), (0, 0))
        surface.blit(font(32, True).render("New game", True, GOLD), (380, 50))
        surface.blit(font(16).render("players", True, INK), (380, 130))
        surface.blit(font(16).render("first forehand by", True, INK), (380, 180))
        surface.blit(font(14).render("name", True, MUTED), (380, 228))
        surface.blit(font(14).render("who plays (PgUp / PgDn)", True, MUTED), (660, 228))
        y = self._row_y(self.focus)
        pygame.draw.rect(surface, GOLD, (370, y - 6, 560, 52), 2, border_radius=8)
        keys = "↑ ↓ row · ← → change · type a name · PgUp/PgDn who plays · Enter start · Esc back"
        surface.blit(font(13).render(keys, True, MUTED), (330, 640))
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

SETTING_LABELS = {
    "display.animation_speed": "Animation speed",
    "sound.enabled": "Sound",
    "sound.volume": "Volume",
    "display.card_back": "Card back of the first deck",
    "display.four_colour_deck": "Four-colour deck (♦ blue, ♣ green)",
    "display.language": "Language",
    "display.window": "Window size",
    "display.wait_after_trick": "Wait for a key after each trick",
    "house_rules.aces_low_in_all_miseres": "Aces as ones in every misère",
    "house_rules.royale_defenders_see_each_other": "Royale: the defenders see each other's cards",
    "house_rules.gok_reentry": "Gök raised: those who passed may bid again",
}


class SettingsScene(Scene):
    """Animation speed, sound, card back, four-colour deck, language, house rules, window size;
    saved in the user's own config. ↑ ↓ choose a row, ← → (or Enter) change it, Esc saves and closes."""

    FIELDS: tuple[tuple[str, list[Any]], ...] = (
        ("display.animation_speed", ["instant", "fast", "normal", "slow"]),
        ("sound.enabled", [True, False]),
        ("sound.volume", [0.0, 0.25, 0.5, 0.7, 1.0]),
        ("display.card_back", ["blue", "red"]),
        ("display.four_colour_deck", [False, True]),
        ("display.language", ["en", "sv"]),
        ("display.window", [[1024, 640], [1280, 800], [1600, 1000], [1920, 1200]]),
        ("display.wait_after_trick", [False, True]),
        ("house_rules.aces_low_in_all_miseres", [False, True]),
        ("house_rules.royale_defenders_see_each_other", [False, True]),
        ("house_rules.gok_reentry", [False, True]),
    )
    TOP, STEP = 96, 44

    def enter(self) -> None:
        self.focus = 0
        self.told = ""
        self.buttons: list[pygame_gui.elements.UIButton] = []
        for i, (key, _) in enumerate(self.FIELDS):
            rect = pygame.Rect(640, self.TOP + i * self.STEP, 300, 40)
            self.buttons.append(self.add(pygame_gui.elements.UIButton(rect, self._label(key), manager=self.ui)))
        rect = pygame.Rect(490, 600, 300, 48)
        self.done = self.add(pygame_gui.elements.UIButton(rect, "Save  [Esc]", manager=self.ui))

    def _label(self, key: str) -> str:
        value = self.app.settings[key]
        if isinstance(value, bool):
            return "on" if value else "off"
        if isinstance(value, list):
            return " × ".join(str(v) for v in value)
        return str(value)

    def _cycle(self, index: int, step: int = 1) -> None:
        key, values = self.FIELDS[index]
        current = self.app.settings[key]
        nxt = values[(values.index(current) + step) % len(values)] if current in values else values[0]
        self.told = self.app.change_setting(key, nxt)
        self.buttons[index].set_text(self._label(key))

    def handle(self, event: pygame.event.Event) -> None:
        if event.type == pygame_gui.UI_BUTTON_PRESSED:
            if event.ui_element in self.buttons:
                self.focus = self.buttons.index(event.ui_element)
                self._cycle(self.focus)
            elif event.ui_element is self.done:
                self.app.stack.pop()
        elif event.type == pygame.KEYDOWN:
            if event.key == pygame.K_ESCAPE:
                self.app.stack.pop()
            elif event.key in (pygame.K_UP, pygame.K_DOWN, pygame.K_TAB):
                self.focus = (self.focus + (-1 if event.key == pygame.K_UP else 1)) % len(self.FIELDS)
            elif event.key in (pygame.K_LEFT, pygame.K_RIGHT, pygame.K_RETURN, pygame.K_SPACE):
                self._cycle(self.focus, -1 if event.key == pygame.K_LEFT else 1)

    def draw(self, surface: pygame.Surface) -> None:
        surface.blit(panel(1280, 800), (0, 0))
        surface.blit(font(32, True).render("Settings", True, GOLD), (230, 40))
        problem = self.app.config_problem
        if self.told or problem:
            line = self.told or f"Your config file could not be read, so these are the defaults ({problem})."
            if not self.told:
                line += " Changing a setting keeps the old file aside and saves yours anew."
            for i, part in enumerate(wrap_text(line, 15, False, 760)[:3]):
                surface.blit(font(15).render(part, True, GOLD), (260, 728 + 20 * i))
        for i, (key, _) in enumerate(self.FIELDS):
            y = self.TOP + i * self.STEP
            surface.blit(font(16).render(SETTING_LABELS.get(key, key), True, INK), (240, y + 10))
        y = self.TOP + self.focus * self.STEP
        pygame.draw.rect(surface, GOLD, (228, y - 4, 722, self.STEP + 2), 2, border_radius=8)
        note = (
            "Saved in your own config folder; house rules apply from the next game. F11: full screen."
        )
        surface.blit(font(13).render(note, True, MUTED), (260, 670))
        keys = "↑ ↓ choose · ← → or Enter change · Esc save and close"
        surface.blit(font(13).render(keys, True, MUTED), (440, 700))

