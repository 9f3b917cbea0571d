"""Play with friends: host a table here or join a friend's, then the lobby until the host
starts, then the table (with its chat, and the connection's trouble said plainly).

The forms work from the keyboard as the new-game form does: ↑ ↓ (or Tab) choose a row,
← → change its value, typing edits a name, Enter goes on, Esc goes back. The tables found
on the local network are browsed in a thread, never in the frame loop.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import string
import threading
import time
import unicodedata
from collections.abc import Callable
from dataclasses import dataclass
from functools import partial

import pygame
import pygame_gui

from ..config import SettingValue
from ..i18n import mark, t
from ..net.client import Link
from ..net.lan import TableAd, browse
from ..net.protocol import CHAT_MAX, PASSWORD_MAX, Bye, Error, SeatInfo, plain_text, valid_code
from ..net.remote import LocalHost, RemoteTable
from ..paths import friends_file
from .backdrop import panel
from .base import AppPort, Scene
from .fields import clicked_field, focus_field, text_field
from .menu import BOT_LEVELS, HOUSE_RULE_FIELDS, NAME_MAX, cycle_setting, setting_label
from .table import TableScene
from .theme import GOLD, GOOD, INK, MUTED, RED, fit_text, font, wrap_text

__all__ = ["FriendsScene", "FriendsTableScene", "HostFormScene", "JoinFormScene", "LobbyScene", "TroubleBox"]

BROWSE_S = 2.5  # how long one look for tables on the network lasts
LEFT, RIGHT = 250, 640  # the forms' labels and controls (300 wide)
TABLE_NAME_MAX = 16  # characters of a table's name (its code's second part)


def table_code(name: str) -> str:
    """A table's name as the second part of its code: lower-case letters and digits, accents
    dropped ("1" when nothing is left).

    >>> table_code("Köket 2"), table_code("¿?")
    ('koket2', '1')
    """
    plain = unicodedata.normalize("NFKD", name).encode("ascii", "ignore").decode().lower()
    return "".join(c for c in plain if c in string.ascii_lowercase + string.digits)[:TABLE_NAME_MAX] or "1"


def keep(app: AppPort, **choices: SettingValue) -> None:
    """The forms' choices kept in the player's settings (``friends.NAME``) for next time."""
    for name, value in choices.items():
        if app.settings.value(f"friends.{name}") != value:
            app.change_setting(f"friends.{name}", value)


def remembered() -> dict[str, str]:
    """The seat held for this window at a friend's table (its token, and where it is)."""
    with contextlib.suppress(OSError, ValueError):
        data = json.loads(friends_file().read_text(encoding="utf-8"))
        if isinstance(data, dict):
            return {str(k): str(v) for k, v in data.items()}
    return {}


def remember(**values: str) -> None:
    with contextlib.suppress(OSError):
        path = friends_file()
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps({**remembered(), **values}, ensure_ascii=False), encoding="utf-8")


class FriendsScene(Scene):
    """Host a table or join one: two buttons and a word on each."""

    def enter(self) -> None:
        button = pygame_gui.elements.UIButton
        self.host = self.add(button(pygame.Rect(490, 300, 300, 50), t("friends.host"), manager=self.ui))
        self.join = self.add(button(pygame.Rect(490, 420, 300, 50), t("friends.join"), manager=self.ui))
        self.back = self.add(button(pygame.Rect(490, 560, 300, 40), t("new_game.back"), manager=self.ui))
        self.focus = 0

    def handle(self, event: pygame.event.Event) -> None:
        if event.type == pygame_gui.UI_BUTTON_PRESSED:
            if event.ui_element is self.host:
                self.app.push("friends_host")
            elif event.ui_element is self.join:
                self.app.push("friends_join")
            elif event.ui_element is self.back:
                self.app.pop()
        elif event.type == pygame.KEYDOWN:
            if event.key == pygame.K_ESCAPE:
                self.app.pop()
            elif event.key in (pygame.K_UP, pygame.K_DOWN, pygame.K_TAB):
                self.focus = 1 - self.focus
            elif event.key in (pygame.K_RETURN, pygame.K_SPACE):
                self.app.push("friends_join" if self.focus else "friends_host")

    def draw(self, surface: pygame.Surface) -> None:
        surface.blit(panel(1280, 800), (0, 0))
        title = font(32, True).render(t("friends.title"), True, GOLD)
        surface.blit(title, title.get_rect(center=(640, 120)))
        for i, key in enumerate(("friends.host_about", "friends.join_about")):
            for j, line in enumerate(wrap_text(t(key), 15, False, 560)[:2]):
                text = font(15).render(line, True, MUTED)
                surface.blit(text, text.get_rect(center=(640, 384 + 120 * i + 20 * j)))
        pygame.draw.rect(surface, GOLD, (480, 292 + 120 * self.focus, 320, 66), 2, border_radius=8)
        keys = font(13).render(t("friends.keys"), True, MUTED)
        surface.blit(keys, keys.get_rect(midtop=(640, 640)))


@dataclass
class Row:
    """A row of a form: its label's key, and a text to type or a value to change."""

    label: str
    entry: pygame_gui.elements.UITextEntryLine | None = None
    button: pygame_gui.elements.UIButton | None = None
    change: Callable[[int], None] = lambda step: None


class FormScene(Scene):
    """A form of rows (see the module); a subclass lays out :meth:`rows` and acts in :meth:`go`."""

    title = ""
    go_label = ""
    TOP, STEP, HEIGHT, GAP = 140, 56, 40, 40  # the first row, a row's step and height, the room under them

    def next_wake(self) -> float | None:
        """A text being typed: its cursor blinks."""
        return 0.25 if any(row.entry is not None and row.entry.is_focused for row in self.rows) else None

    def enter(self) -> None:
        self.focus = 0
        self.error = ""
        self.rows: list[Row] = []
        self.build()

    def build(self) -> None:
        """(Re)make the widgets, the texts typed kept."""
        typed = {row.label: row.entry.get_text() for row in self.rows if row.entry is not None}
        self.clear_widgets()
        self.rows = self.make_rows(typed)
        y = self.rows_end() + self.GAP
        button = pygame_gui.elements.UIButton
        self.go_button = self.add(button(pygame.Rect(490, y, 300, 50), t(self.go_label), manager=self.ui))
        self.back = self.add(button(pygame.Rect(490, y + 60, 300, 40), t("new_game.back"), manager=self.ui))
        self._focus_row()

    def make_rows(self, typed: dict[str, str]) -> list[Row]:
        raise NotImplementedError

    def rows_end(self) -> int:
        """Where the rows end (the error, a note, then the buttons come under them)."""
        return self.TOP + len(self.rows) * self.STEP

    def _next_rect(self) -> pygame.Rect:
        return pygame.Rect(RIGHT, self.TOP + len(self._made) * self.STEP, 300, self.HEIGHT)

    def entry(self, text: str, limit: int) -> pygame_gui.elements.UITextEntryLine:
        made = text_field(self._next_rect(), self.ui, limit, text)
        self._made.append(made)
        return self.add(made)

    def secret(self, text: str) -> pygame_gui.elements.UITextEntryLine:
        """A password's entry: typed, not shown."""
        made = self.entry(text, PASSWORD_MAX)
        made.set_text_hidden(True)  # type: ignore[no-untyped-call]
        return made

    def choice(self, text: str) -> pygame_gui.elements.UIButton:
        made = pygame_gui.elements.UIButton(self._next_rect(), text, manager=self.ui)
        self._made.append(made)
        return self.add(made)

    def clear_widgets(self) -> None:
        super().clear_widgets()
        self._made: list[pygame_gui.core.UIElement] = []

    def _focus_row(self) -> None:
        focus_field(self.ui, self.rows[self.focus].entry)

    def text(self, label: str) -> str:
        row = next(r for r in self.rows if r.label == label)
        assert row.entry is not None
        return row.entry.get_text().strip()

    def handle(self, event: pygame.event.Event) -> None:
        if event.type == pygame_gui.UI_BUTTON_PRESSED:
            for i, row in enumerate(self.rows):
                if event.ui_element is row.button:
                    self.focus = i
                    row.change(1)
                    return
            if event.ui_element is self.go_button:
                self.go()
            elif event.ui_element is self.back:
                self.app.pop()
            else:
                self.pressed(event.ui_element)
        elif event.type == pygame_gui.UI_TEXT_ENTRY_CHANGED:
            self.error = ""
        elif event.type == pygame.MOUSEBUTTONDOWN:  # a click on a field: the ring follows it
            clicked = clicked_field([row.entry for row in self.rows])
            if clicked is not None:
                self.focus = clicked
        elif event.type == pygame.KEYDOWN:
            if event.key == pygame.K_RETURN:
                self.go()
            elif event.key == pygame.K_ESCAPE:
                self.app.pop()
            elif event.key in (pygame.K_UP, pygame.K_DOWN, pygame.K_TAB):
                self.focus = (self.focus + (-1 if event.key == pygame.K_UP else 1)) % len(self.rows)
                self._focus_row()
            elif event.key in (pygame.K_LEFT, pygame.K_RIGHT) and self.rows[self.focus].button is not None:
                self.rows[self.focus].change(1 if event.key == pygame.K_RIGHT else -1)

    def pressed(self, element: object) -> None:
        """A button of the subclass's own."""

    def go(self) -> None:
        raise NotImplementedError

    def name_problem(self, name: str) -> str:
        """Why ``name`` cannot be a player's name at a table ("": it can)."""
        return "" if name and name == plain_text(name) else t("friends.error.name")

    def draw(self, surface: pygame.Surface) -> None:
        surface.blit(panel(1280, 800), (0, 0))
        surface.blit(font(32, True).render(t(self.title), True, GOLD), (LEFT, 50))
        for i, row in enumerate(self.rows):
            label = fit_text(t(row.label), 16, False, RIGHT - LEFT - 16)
            surface.blit(font(16).render(label, True, INK), (LEFT, self.TOP + i * self.STEP + self.HEIGHT // 2 - 10))
        pad = min(6, (self.STEP - self.HEIGHT) // 2)
        ring = (LEFT - 12, self.TOP + self.focus * self.STEP - pad, RIGHT + 324 - LEFT, self.HEIGHT + 2 * pad)
        pygame.draw.rect(surface, GOLD, ring, 2, border_radius=8)
        if self.error:
            for j, line in enumerate(wrap_text(self.error, 16, True, RIGHT + 300 - LEFT)[:2]):
                surface.blit(font(16, True).render(line, True, RED), (LEFT, self.rows_end() + 4 + j * 20))
        keys = font(13).render(t("friends.form_keys"), True, MUTED)
        surface.blit(keys, keys.get_rect(midtop=(640, 760)))


class HostFormScene(FormScene):
    """Host a table: your name, the table's name, 3 or 4 seats, how many friends, the bots'
    level, the house rules (the player's, as the Settings screen changes them), a password,
    where it is seen. The choices are kept in the settings (``friends:``) for next time."""

    title = "friends.host_title"
    go_label = "friends.host_go"
    TOP, STEP, HEIGHT, GAP = 96, 46, 36, 74

    def enter(self) -> None:
        kept = self.app.settings.friends
        self.players: int = kept.players
        self.friends = max(1, min(kept.friends, self.players - 1))
        self.bots: str = kept.bots
        self.lan = kept.lan
        super().enter()

    def make_rows(self, typed: dict[str, str]) -> list[Row]:
        kept = self.app.settings.friends
        return [  # made from the top down: each widget goes in the next row
            Row("friends.name", self.entry(typed.get("friends.name", kept.name), NAME_MAX)),
            Row("friends.table", self.entry(typed.get("friends.table", kept.table), TABLE_NAME_MAX)),
            Row("friends.seats", button=self.choice(t("new_game.players", count=self.players)), change=self._seats),
            Row("friends.friends", button=self.choice(t("friends.count", count=self.friends)), change=self._friends),
            Row("friends.bots", button=self.choice(t(f"new_game.kind.{self.bots}")), change=self._bots),
            *[Row(f"settings.{key}", button=self.choice(setting_label(self.app, key)), change=partial(self._rule, key))
              for key, _ in HOUSE_RULE_FIELDS],
            Row("friends.password", self.secret(typed.get("friends.password", ""))),
            Row("friends.where", button=self.choice(t("friends.where_lan") if self.lan else t("friends.where_here")),
                change=self._where),
        ]  # fmt: skip

    def _seats(self, step: int) -> None:
        self.players = 7 - self.players
        self.friends = min(self.friends, self.players - 1)
        self.build()

    def _friends(self, step: int) -> None:
        self.friends = (self.friends - 1 + step) % (self.players - 1) + 1
        self.build()

    def _bots(self, step: int) -> None:
        self.bots = BOT_LEVELS[(BOT_LEVELS.index(self.bots) + step) % len(BOT_LEVELS)]
        self.build()

    def _rule(self, key: str, step: int) -> None:
        offered = dict(HOUSE_RULE_FIELDS)[key]
        self.error = cycle_setting(self.app, key, offered, step)  # a rule that could not be saved: why
        self.build()

    def _where(self, step: int) -> None:
        self.lan = not self.lan
        self.build()

    def go(self) -> None:
        name, table = self.text("friends.name"), self.text("friends.table")
        self.error = self.name_problem(name)
        if self.error:
            return
        password = self.text("friends.password") or None
        try:
            remote = self.app.host_friends(
                name, self.players, self.friends, password, self.lan, table_code(table or name), self.bots
            )
        except OSError as exc:
            self.error = t("friends.error.host", problem=str(exc))
            return
        keep(self.app, name=name, table=table, players=self.players, friends=self.friends, bots=self.bots, lan=self.lan)
        self.app.open("lobby", client=remote)

    def draw(self, surface: pygame.Surface) -> None:
        super().draw(surface)
        if self.error:
            return  # said where the note is
        bots = self.players - 1 - self.friends
        note = t("friends.bots_fill", count=bots) if bots else t("friends.no_bots")
        said = f"{note} {t('friends.start_early')} {t('friends.rules_yours')}"
        for j, line in enumerate(wrap_text(said, 14, False, RIGHT + 300 - LEFT)[:3]):
            surface.blit(font(14).render(line, True, MUTED), (LEFT, self.rows_end() + 8 + j * 18))


class JoinFormScene(FormScene):
    """Join a table: its address (or its code, for one found on the network), your name, the
    password; the tables found on the local network listed to pick from."""

    title = "friends.join_title"
    go_label = "friends.join_go"

    def enter(self) -> None:
        self.found: list[TableAd] = []
        self.picks: list[pygame_gui.elements.UIButton] = []
        self._browsing: threading.Thread | None = None
        self._heard: list[TableAd] | None = None
        self.looked = False
        super().enter()
        self._browse()

    def next_wake(self) -> float | None:
        wake = super().next_wake()
        return 0.2 if self._browsing is not None else wake

    def make_rows(self, typed: dict[str, str]) -> list[Row]:
        kept = self.app.settings.friends
        return [
            Row("friends.address", self.entry(typed.get("friends.address", kept.address), 120)),
            Row("friends.name", self.entry(typed.get("friends.name", kept.name), NAME_MAX)),
            Row("friends.password", self.secret(typed.get("friends.password", ""))),
        ]

    def build(self) -> None:
        super().build()
        self.picks = []
        for i, ad in enumerate(self.found[:4]):
            rect = pygame.Rect(RIGHT, 520 + i * 46, 300, 40)
            label = (
                t("friends.found_table", code=ad.code, count=ad.free)
                if ad.free
                else t("friends.found_full", code=ad.code)
            )
            self.picks.append(self.add(pygame_gui.elements.UIButton(rect, label, manager=self.ui)))
        self.refresh = self.add(
            pygame_gui.elements.UIButton(pygame.Rect(LEFT, 560, 200, 36), t("friends.look_again"), manager=self.ui)
        )

    def _browse(self) -> None:
        """Look for tables on the network (and on this computer), in a thread."""
        if self._browsing is not None:
            return

        def look() -> None:
            async def both() -> list[TableAd]:
                found = await asyncio.gather(browse(BROWSE_S), browse(BROWSE_S, "127.0.0.1"), return_exceptions=True)
                return sorted({ad for part in found if isinstance(part, list) for ad in part}, key=lambda a: a.code)

            try:
                self._heard = asyncio.run(both())
            except Exception:  # no network to browse: nothing found
                self._heard = []

        self._browsing = threading.Thread(target=look, name="vira-browse", daemon=True)
        self._browsing.start()

    def update(self, dt: float) -> None:
        if self._browsing is not None and not self._browsing.is_alive():
            self._browsing = None
            self.looked = True
            self.found = self._heard or []
            self.build()

    def pressed(self, element: object) -> None:
        if element is self.refresh:
            self._browse()
            self._focus_row()  # the typing back to the row ringed
        elif element in self.picks:
            ad = self.found[self.picks.index(element)]
            row = self.rows[0]
            assert row.entry is not None
            row.entry.set_text(f"{ad.address}:{ad.port}/{ad.code}")
            self.focus = 1
            self._focus_row()

    def go(self) -> None:
        typed, name = self.text("friends.address"), self.text("friends.name")
        self.error = self.name_problem(name) or ("" if typed else t("friends.error.address"))
        if self.error:
            return
        address, table = typed, ""
        if valid_code(typed):  # a code: the table of that code found on the network
            ad = next((ad for ad in self.found if ad.code == typed), None)
            if ad is None:
                self.error = t("friends.error.code", code=typed)
                return
            address, table = f"{ad.address}:{ad.port}", ad.code
        elif "/" in typed and not typed.startswith(("ws://", "wss://")):
            address, _, table = typed.partition("/")
        if table and not valid_code(table):
            self.error = t("friends.error.address")
            return
        kept = remembered()  # the seat held for this window at that table, after a drop or a restart
        same = kept.get("seat_at") == f"{address}/{table}" and self.app.settings.friends.name == name
        token = kept.get("token") if same else None
        try:
            remote = self.app.join_friends(address, name, self.text("friends.password") or None, table, token or None)
        except ValueError:
            self.error = t("friends.error.address")
            return
        keep(self.app, name=name, address=typed)
        self.app.open("lobby", client=remote)

    def draw(self, surface: pygame.Surface) -> None:
        super().draw(surface)
        surface.blit(font(16, True).render(t("friends.on_network"), True, INK), (LEFT, 524))
        if self._browsing is not None:
            said = t("friends.looking")
        elif not self.found and self.looked:
            said = t("friends.none_found")
        else:
            said = ""
        if said:
            surface.blit(font(14).render(said, True, MUTED), (RIGHT, 530))


def told(hosting: LocalHost | None) -> list[tuple[str, int, tuple[int, int, int]]]:
    """What the lobby tells the player whose window hosts the table (text, size, colour): the
    address and code to tell friends on the network (every address this computer has there),
    or that the table is open on this computer only; that friends need the password."""
    if hosting is None:
        return []
    if hosting.bind == "127.0.0.1":
        said = [(t("friends.here_only"), 15, INK)]
    else:
        first, *others = (f"{address}:{hosting.port}" for address in hosting.addresses)
        said = [(t("friends.tell", address=first, code=hosting.table), 16, INK)]
        if others:
            said.append((t("friends.tell_others", addresses=", ".join(others[:3])), 14, MUTED))
    if hosting.config.password:
        said.append((t("friends.with_password"), 14, MUTED))
    return said


@dataclass(frozen=True)
class Trouble:
    """What is wrong with the seat's connection, plainly: what happened, what it means for the
    player, the technical reason (shown small), and whether the seat is lost for good (then
    only the way back to the menu is left)."""

    title: str
    more: str
    why: str = ""
    final: bool = True


def trouble(remote: RemoteTable) -> Trouble | None:
    """The seat's :class:`Trouble` now (``None``: all is well)."""
    link = remote.link
    if link.link is Link.DROPPED:
        left = max(0, round(link.gives_up_at - time.monotonic()))
        more = t("friends.lost.retry", count=link.tries, seconds=left)
        return Trouble(t("friends.lost.trying"), more, link.plainly(), final=False)
    if link.link is not Link.ENDED or remote.session_over:
        return None
    ended = remote.ended
    if remote.welcome is None:  # never seated: the host refused (a wrong password, no such table, nobody there)
        return Trouble(t("friends.lost.refused"), link.plainly())
    if isinstance(ended, Bye):
        return Trouble(t("friends.lost.closed"), t("friends.lost.everyone"), plain_text(ended.reason))
    if isinstance(ended, Error):
        return Trouble(t("friends.lost.ended"), plain_text(ended.reason))
    return Trouble(t("friends.lost.gone"), t("friends.lost.gave_up"), link.plainly())


class TroubleBox:
    """:func:`trouble`, said over ``scene``: while the connection is tried again, each try
    counted and the time left; once the seat is lost, why, and a button back to the menu
    (Enter or Esc too). The button is the box's own, not among the scene's widgets (a table's
    panel makes those again as it likes): :meth:`forget` removes it."""

    def __init__(self, scene: Scene, remote: RemoteTable) -> None:
        self.scene, self.remote = scene, remote
        self.said: Trouble | None = None
        self.button: pygame_gui.elements.UIButton | None = None

    @property
    def final(self) -> bool:
        return self.said is not None and self.said.final

    def update(self) -> None:
        self.said = trouble(self.remote)
        if self.final and self.button is None:
            rect = pygame.Rect(490, 464, 300, 50)
            self.button = pygame_gui.elements.UIButton(rect, t("friends.to_menu"), manager=self.scene.ui)

    def forget(self) -> None:
        """The scene is left (or the seat is another's): the button goes."""
        if self.button is not None:
            self.button.kill()  # type: ignore[no-untyped-call]
            self.button = None

    def handle(self, event: pygame.event.Event) -> bool:
        """Whether ``event`` took the player back to the menu (the seat is lost)."""
        pressed = event.type == pygame_gui.UI_BUTTON_PRESSED and event.ui_element is self.button
        keyed = event.type == pygame.KEYDOWN and event.key in (pygame.K_ESCAPE, pygame.K_RETURN, pygame.K_KP_ENTER)
        if self.button is None or not (pressed or keyed):
            return False
        self.scene.app.open("menu")
        return True

    def draw(self, surface: pygame.Surface) -> None:
        if self.said is None:
            return
        said = self.said
        if said.final:
            dim = pygame.Surface(surface.get_size(), pygame.SRCALPHA)
            dim.fill((0, 0, 0, 150))
            surface.blit(dim, (0, 0))
        box = pygame.Rect(340, 290, 600, 240 if said.final else 160)
        colour = RED if said.final else GOLD
        pygame.draw.rect(surface, (30, 38, 48), box, border_radius=12)
        pygame.draw.rect(surface, colour, box, 2, border_radius=12)
        y = box.y + 24
        lines = [(part, 24, True, colour) for part in wrap_text(said.title, 24, True, box.w - 48)[:2]]
        lines += [(part, 16, False, INK) for part in wrap_text(said.more, 16, False, box.w - 48)[:3]]
        lines += [(part, 13, False, MUTED) for part in wrap_text(said.why, 13, False, box.w - 48)[:2]]
        for text, size, bold, shade in lines:
            drawn = font(size, bold).render(text, True, shade)
            surface.blit(drawn, drawn.get_rect(midtop=(box.centerx, y)))
            y += size + 8


class LobbyScene(Scene):
    """Who is at the table until the first deal: the code and address to tell friends, every
    seat as the host's lobby message lists it (the same in every window), the chat; Start
    (the host's own player: bots take the free seats) and Leave. A friend waits here until
    the host starts; what goes wrong with the connection is said plainly (:class:`TroubleBox`)."""

    def __init__(self, app: AppPort, client: RemoteTable) -> None:
        super().__init__(app)
        self.remote = client
        self.handed = False  # the table scene has the seat now
        self.kept = False  # the seat's token is remembered (or forgotten)

    def next_wake(self) -> float | None:
        return 0.1

    def enter(self) -> None:
        button = pygame_gui.elements.UIButton
        self.start = None
        if self.remote.hosting is not None:
            self.start = self.add(button(pygame.Rect(820, 610, 200, 44), t("friends.start"), manager=self.ui))
        self.leave = self.add(button(pygame.Rect(1040, 610, 160, 44), t("friends.leave"), manager=self.ui))
        self.chat = self.add(text_field(pygame.Rect(80, 660, 640, 40), self.ui, CHAT_MAX))
        self.chat.focus()  # type: ignore[no-untyped-call]
        self.said = self.add(button(pygame.Rect(730, 660, 70, 40), t("friends.say"), manager=self.ui))
        self.hide = self.add(button(pygame.Rect(820, 660, 200, 40), "", manager=self.ui))
        self._show_chat(self.app.settings.friends.chat)
        self.box = TroubleBox(self, self.remote)

    def _show_chat(self, shown: bool) -> None:
        """The chat shown or hidden (the player's setting, kept): its line, its button, the table's log."""
        self.remote.show_chat = shown
        self.hide.set_text(t("friends.hide_chat" if shown else "friends.show_chat"))
        for widget in (self.chat, self.said):
            if shown:
                widget.show()  # type: ignore[no-untyped-call]
            else:
                widget.hide()  # type: ignore[no-untyped-call]
        if shown:
            self.chat.focus()  # type: ignore[no-untyped-call]

    def exit(self) -> None:
        super().exit()
        self.box.forget()
        if not self.handed:
            self.remote.close()

    def handle(self, event: pygame.event.Event) -> None:
        if self.box.handle(event):
            return
        if event.type == pygame_gui.UI_BUTTON_PRESSED:
            if event.ui_element is self.start:
                self.remote.start_now()
            elif event.ui_element is self.leave:
                self.app.open("menu")
            elif event.ui_element is self.said:
                self._say()
            elif event.ui_element is self.hide:
                shown = not self.app.settings.friends.chat
                self.app.change_setting("friends.chat", shown)
                self._show_chat(shown)
        elif event.type == pygame_gui.UI_TEXT_ENTRY_FINISHED and event.ui_element is self.chat:
            self._say()
        elif event.type == pygame.KEYDOWN and event.key == pygame.K_ESCAPE:
            self.app.open("menu")

    def _say(self) -> None:
        self.remote.say(self.chat.get_text())
        self.chat.set_text("")

    def update(self, dt: float) -> None:
        remote = self.remote
        dealt = remote.dealt  # (what came is taken in first)
        if remote.hosting is None and remote.welcome is not None and not self.kept:
            self.kept = True  # a window restarted, or a player who left, takes the seat back with it
            remember(token=remote.welcome.token, seat_at=f"{remote.options.address}/{remote.options.table}")
        elif remote.link.link is Link.ENDED and remote.options.token and remote.welcome is None:
            remember(token="")  # the seat kept is gone (the table ended, or the place was given up in the lobby):
            o = remote.options  # the table is joined afresh, by name (a seat held for that name is had back so)
            self.remote = self.app.join_friends(o.address, o.name, o.password, o.table)
            self.box.forget()
            self.box = TroubleBox(self, self.remote)
            return
        if dealt:
            self.handed = True
            self.app.open("friends_table", client=self.remote)
            return
        self.box.update()
        if self.start is not None:
            seated = self.remote.link.link is Link.SEATED
            if seated and not self.start.is_enabled:
                self.start.enable()  # type: ignore[no-untyped-call]
            elif not seated and self.start.is_enabled:
                self.start.disable()  # type: ignore[no-untyped-call]

    def _status(self) -> tuple[str, tuple[int, int, int]]:
        link, lobby = self.remote.link, self.remote.lobby
        if link.link is Link.CONNECTING or lobby is None:
            return t("friends.link.connecting"), MUTED
        if link.link is not Link.SEATED:  # said in the box over the lobby
            return "", MUTED
        hosting = self.remote.hosting is not None
        if lobby.waiting:
            if hosting:
                return t("friends.waiting_host", count=lobby.waiting), GOOD
            if lobby.owner:
                return t("friends.waiting_for", count=lobby.waiting, name=lobby.owner), GOOD
            return t("friends.waiting", count=lobby.waiting), GOOD
        if hosting:
            return t("friends.all_here_host"), GOOD
        if lobby.owner:
            return t("friends.all_here_wait", name=lobby.owner), GOOD
        return t("friends.all_here"), GOOD

    def draw(self, surface: pygame.Surface) -> None:
        surface.blit(panel(1280, 800), (0, 0))
        remote, lobby = self.remote, self.remote.lobby
        code = lobby.table if lobby is not None else remote.options.table or "…"
        surface.blit(font(32, True).render(t("friends.lobby_title", code=code), True, GOLD), (80, 40))
        y = 100
        for said, size, colour in told(remote.hosting):
            for line in wrap_text(said, size, False, 1120)[:2]:
                surface.blit(font(size).render(line, True, colour), (80, y))
                y += size + 6
        status, colour = self._status()
        for line in wrap_text(status, 16, True, 1120)[:2]:
            surface.blit(font(16, True).render(line, True, colour), (80, y + 8))
            y += 22
        top = max(190, y + 30)  # under what the lobby tells (the host's: two or three lines more)
        self._seats(surface, top)
        self._chat(surface, top)
        self.box.draw(surface)

    def rows(self) -> list[tuple[str, str, bool]]:
        """Who is at the table as the host's lobby message lists it, the same in every window:
        who (or a free place, or a bot to come), how (connected, held, a bot) and whether ready.
        No seat numbers: the seating is drawn when the first deal starts."""
        lobby = self.remote.lobby
        rows = []
        for seat in lobby.seats if lobby is not None else ():
            name, how = seat_words(seat, lobby.owner if lobby is not None else "")
            if seat.name == self.remote.viewer:
                name += f"  ({t('friends.you')})"
            rows.append((name, how, seat.ready))
        return rows

    def _seats(self, surface: pygame.Surface, top: int) -> None:
        surface.blit(font(18, True).render(t("friends.seats_title"), True, INK), (80, top))
        note = fit_text(t("friends.seating_drawn"), 14, False, 560)
        surface.blit(font(14).render(note, True, MUTED), (80, top + 26))
        for i, (name, how, ready) in enumerate(self.rows()):
            y = top + 54 + i * 34
            colour = GOOD if how == t("friends.seat_here") else MUTED  # a person here
            pygame.draw.rect(surface, (40, 50, 62), (80, y - 4, 560, 30), border_radius=6)
            surface.blit(font(16, True).render(fit_text(name, 16, True, 300), True, colour), (96, y))
            surface.blit(font(15).render(fit_text(how, 15, False, 150), True, MUTED), (410, y + 1))
            said = t("friends.ready" if ready else "friends.not_ready")
            surface.blit(font(15).render(said, True, GOOD if ready else MUTED), (566, y + 1))

    def _chat(self, surface: pygame.Surface, top: int) -> None:
        surface.blit(font(18, True).render(t("friends.chat"), True, INK), (680, top))
        pygame.draw.rect(surface, (30, 38, 48), (680, top + 32, 520, 560 - top), border_radius=8)
        lines: list[tuple[str, tuple[int, int, int]]] = []
        if not self.remote.show_chat:
            for i, line in enumerate(wrap_text(t("friends.chat_hidden"), 15, False, 490)):
                surface.blit(font(15).render(line, True, MUTED), (694, top + 42 + i * 21))
            return
        for who, what in self.remote.chat:
            said = f"{who or t('friends.host_said')}: {what}"
            lines += [(part, INK) for part in wrap_text(said, 15, False, 490)]
        for i, (line, colour) in enumerate(lines[-((550 - top) // 21) :]):
            surface.blit(font(15).render(line, True, colour), (694, top + 42 + i * 21))
        if not lines:
            surface.blit(font(15).render(t("friends.no_chat"), True, MUTED), (694, top + 42))
        keys = font(13).render(t("friends.lobby_keys"), True, MUTED)
        surface.blit(keys, keys.get_rect(midtop=(640, 760)))


def seat_words(seat: SeatInfo, owner: str) -> tuple[str, str]:
    """A lobby seat in the player's words: who sits there, and how (connected, away and held,
    a bot playing it, free)."""
    if not seat.name:
        return (t("friends.seat_bot_later"), t("friends.seat_bot")) if seat.bot else (t("friends.seat_free"), "")
    name = f"{seat.name}  ({t('friends.the_host')})" if seat.name == owner else seat.name
    if seat.bot:
        return name, t("friends.seat_bot")
    return name, t("friends.seat_here" if seat.connected else "friends.seat_held")


class FriendsTableScene(TableScene):
    """A table of friends in play: the table scene with the chat (C opens a line to say to the
    table; what is said shows in the table's log, as text) and the connection's trouble said
    plainly (:class:`TroubleBox`)."""

    def __init__(self, app: AppPort, client: RemoteTable) -> None:
        super().__init__(app, client, back_to="menu", keys_help=mark("friends.table_keys"))
        self.remote = client
        self.box = TroubleBox(self, client)
        self.line: pygame_gui.elements.UITextEntryLine | None = None  # the chat line, while open

    def next_wake(self) -> float | None:
        wake = super().next_wake()
        if self.line is None and self.box.said is None:
            return wake
        return 0.25 if wake is None else min(wake, 0.25)  # the cursor blinks; the seconds left are counted

    def handle(self, event: pygame.event.Event) -> None:
        if self.box.handle(event):
            return
        if self.line is not None:
            if event.type == pygame_gui.UI_TEXT_ENTRY_FINISHED and event.ui_element is self.line:
                self.remote.say(self.line.get_text())
                self._close_line()
            elif event.type == pygame.KEYDOWN and event.key == pygame.K_ESCAPE:
                self._close_line()
            if event.type in (pygame.KEYDOWN, pygame.KEYUP, pygame.TEXTINPUT, pygame_gui.UI_TEXT_ENTRY_FINISHED):
                return  # what is typed is the line's, not the table's keys
        elif event.type == pygame.KEYUP and event.key == pygame.K_c and self.box.said is None and self.remote.show_chat:
            self._open_line()  # (at the key's release: its letter is not typed in the line)
            return
        super().handle(event)

    def _open_line(self) -> None:
        """The chat line (the scene's own, not among the widgets the table's panel makes again)."""
        self.line = text_field(pygame.Rect(20, 528, 700, 36), self.ui, CHAT_MAX)
        self.line.focus()  # type: ignore[no-untyped-call]

    def _close_line(self) -> None:
        if self.line is not None:
            self.line.kill()  # type: ignore[no-untyped-call]
            self.line = None

    def exit(self) -> None:
        super().exit()
        self._close_line()
        self.box.forget()

    def pause(self) -> None:
        """A sheet over the table: the line closes, the box's button hides under it."""
        super().pause()
        self._close_line()
        if self.box.button is not None:
            self.box.button.hide()  # type: ignore[no-untyped-call]

    def resume(self) -> None:
        super().resume()
        if self.box.button is not None:
            self.box.button.show()  # type: ignore[no-untyped-call]

    def update(self, dt: float) -> None:
        super().update(dt)
        self.box.update()
        if self.box.final or (self.line is not None and not self.line.is_focused):
            self._close_line()  # (a click elsewhere closes the line too: the keys are the table's again)

    def draw(self, surface: pygame.Surface) -> None:
        super().draw(surface)
        if self.line is not None:
            words = font(13, True).render(t("friends.table_chat"), True, INK)
            pygame.draw.rect(surface, (22, 28, 36), (16, 504, 708, 64), border_radius=8)
            surface.blit(words, (24, 508))
        self.box.draw(surface)
