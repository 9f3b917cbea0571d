"""The forms' text fields, headless with real input events: the keyboard focus, the gold ring
drawn around a row and the field the typing goes to are always the same one, whether the
player tabs, uses the arrows or clicks; and what the Play-with-friends forms remember."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest

os.environ["SDL_VIDEODRIVER"] = "dummy"
os.environ["SDL_AUDIODRIVER"] = "dummy"

import pygame
import pygame_gui

from tests.test_gui import click, key, make_app, run
from vira_desktop.i18n import configure
from vira_desktop.scenes.app import App
from vira_desktop.scenes.friends import FormScene
from vira_desktop.scenes.menu import NewGameScene
from vira_desktop.scenes.theme import GOLD

Entry = pygame_gui.elements.UITextEntryLine


@pytest.fixture
def app(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[App]:
    application = make_app(tmp_path, monkeypatch)
    yield application
    application.stack.clear()
    pygame.quit()
    configure("en")


def type_text(app: App, text: str) -> None:
    pygame.event.post(pygame.event.Event(pygame.TEXTINPUT, text=text, window=None))
    run(app, 2)


def focused(app: App) -> list[Entry]:
    """Every text field that takes the typing now."""
    return [w for w in app.ui.get_sprite_group().sprites() if isinstance(w, Entry) and w.is_focused]


def ring_around(app: App, field: pygame.Rect) -> bool:
    """Whether the gold ring is drawn around ``field``'s row: gold in the few pixels just above
    the field and just below it."""

    def gold(top: int) -> bool:
        band = [(x, y) for x in range(field.left, field.right, 20) for y in range(top, top + 8)]
        return any(app.screen.get_at(point)[:3] == GOLD for point in band)

    return gold(field.top - 8) and gold(field.bottom)


def open_form(app: App, name: str) -> FormScene:
    app.push(name)  # type: ignore[arg-type]
    run(app, 2)
    scene = app.stack.top
    assert isinstance(scene, FormScene)
    return scene


def entries(form: FormScene) -> list[Entry]:
    return [row.entry for row in form.rows if row.entry is not None]


def test_a_click_on_a_field_of_the_host_form_moves_the_ring_and_the_typing_there(app: App) -> None:
    form = open_form(app, "friends_host")
    name, *_, password = entries(form)
    assert focused(app) == [name] and ring_around(app, name.rect)
    type_text(app, "Anna")
    click(app, password.rect.center)
    assert focused(app) == [password], "two fields took the focus"
    assert ring_around(app, password.rect) and not ring_around(app, name.rect)
    type_text(app, "x")
    assert (name.get_text(), password.get_text()) == ("Anna", "x")
    key(app, pygame.K_UP)  # from the clicked row, not from the row the ring was on before
    row = form.rows[form.focus]
    assert form.focus == [r.entry for r in form.rows].index(password) - 1 and row.button is not None
    assert focused(app) == [] and ring_around(app, row.button.rect)
    type_text(app, "y")
    assert (name.get_text(), password.get_text()) == ("Anna", "x")


def test_tab_and_clicks_in_the_join_form_keep_one_field_focused_and_ringed(app: App) -> None:
    form = open_form(app, "friends_join")
    address, name, password = entries(form)
    click(app, password.rect.center)
    assert focused(app) == [password] and ring_around(app, password.rect)
    key(app, pygame.K_TAB)  # past the last row: the first
    assert focused(app) == [address] and ring_around(app, address.rect) and not ring_around(app, password.rect)
    type_text(app, "h")
    click(app, name.rect.center)
    type_text(app, "B")
    key(app, pygame.K_TAB)
    type_text(app, "p")
    assert (address.get_text(), name.get_text(), password.get_text()) == ("h", "B", "p")
    assert focused(app) == [password] and ring_around(app, password.rect)


def test_a_click_on_a_name_in_the_new_game_form_moves_the_ring_and_the_typing_there(app: App) -> None:
    app.push("new_game")
    run(app, 2)
    scene = app.stack.top
    assert isinstance(scene, NewGameScene)
    first, second = scene.names[0], scene.names[1]
    assert focused(app) == [first] and ring_around(app, first.rect)
    click(app, second.rect.center)
    assert focused(app) == [second] and ring_around(app, second.rect) and not ring_around(app, first.rect)
    before = first.get_text()
    type_text(app, "z")
    assert first.get_text() == before and second.get_text().endswith("z")
    key(app, pygame.K_DOWN)
    assert focused(app) == [scene.names[2]] and ring_around(app, scene.names[2].rect)
