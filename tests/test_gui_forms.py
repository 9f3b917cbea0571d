"""The forms' text fields, headless with real input events: the keyboard focus, the gold ring
drawn around a row and the field the typing goes to are always the same one, whether the
player tabs, uses the arrows or clicks; and what the Play-with-friends forms remember."""

from __future__ import annotations

import os

import pytest

os.environ["SDL_VIDEODRIVER"] = "dummy"
os.environ["SDL_AUDIODRIVER"] = "dummy"

import pygame
import pygame_gui

from tests import test_gui_friends
from tests.test_gui import click, key, run
from tests.test_gui_friends import frames_until, type_text
from vira_desktop.config import FriendsSettings, load_settings
from vira_desktop.i18n import t
from vira_desktop.net import lan
from vira_desktop.net.host import HostConfig
from vira_desktop.net.remote import LocalHost
from vira_desktop.rules.houserules import HouseRules
from vira_desktop.scenes.app import App
from vira_desktop.scenes.friends import FormScene, LobbyScene, table_code, told
from vira_desktop.scenes.menu import BOT_LEVELS, HOUSE_RULE_FIELDS, MenuScene, NewGameScene
from vira_desktop.scenes.table import TableScene
from vira_desktop.scenes.theme import GOLD

Entry = pygame_gui.elements.UITextEntryLine
app = test_gui_friends.app  # the same window: tables hosted here play at once, closed after the test


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


def row_text(form: FormScene, label: str) -> str:
    """What a row shows: its field's text or its button's."""
    row = next(r for r in form.rows if r.label == label)
    widget = row.entry if row.entry is not None else row.button
    assert widget is not None
    return widget.get_text() if isinstance(widget, Entry) else str(widget.text)


def test_the_host_form_hosts_with_every_choice_and_shows_the_last_choices_next_time(app: App) -> None:
    form = open_form(app, "friends_host")
    labels = [row.label for row in form.rows]
    assert labels == [
        "friends.name", "friends.table", "friends.seats", "friends.friends", "friends.bots",
        *(f"settings.{key}" for key, _ in HOUSE_RULE_FIELDS), "friends.password", "friends.where",
    ]  # fmt: skip
    type_text(app, "Anna")
    click(app, entries(form)[1].rect.center)  # the table's name
    type_text(app, "Köket")
    for _ in range(2):
        key(app, pygame.K_TAB)
        key(app, pygame.K_RIGHT)  # 4 seats, then 2 friends
    key(app, pygame.K_TAB)
    offered = []
    for _ in BOT_LEVELS:  # the levels the new-game form offers, round to the first again
        offered.append(row_text(form, "friends.bots"))
        key(app, pygame.K_RIGHT)
    assert offered == [t(f"new_game.kind.{level}") for level in BOT_LEVELS]
    key(app, pygame.K_RIGHT)  # strong
    key(app, pygame.K_DOWN)
    key(app, pygame.K_RIGHT)  # aces low in every misère
    key(app, pygame.K_DOWN)
    key(app, pygame.K_DOWN)
    click(app, form.rows[form.focus].button.rect.center)  # type: ignore[union-attr]  # gök re-entry, by the mouse
    assert row_text(form, "settings.house_rules.gok_reentry") == t("settings.value.on")
    key(app, pygame.K_DOWN)
    type_text(app, "pw")
    key(app, pygame.K_DOWN)
    key(app, pygame.K_LEFT)  # this computer only
    key(app, pygame.K_RETURN)
    lobby = app.stack.top
    assert isinstance(lobby, LobbyScene) and lobby.remote.hosting is not None
    hosting = lobby.remote.hosting
    config = hosting.config
    chosen = HouseRules(aces_low_in_all_miseres=True, gok_reentry=True)
    assert hosting.table.endswith("-koket") and hosting.bind == "127.0.0.1"
    assert (config.players, config.humans, config.bots, config.password) == (4, 3, "strong", "pw")
    assert config.rules == chosen == app.settings.house_rules  # the player's, as Settings shows them

    said = [text for text, _, _ in told(hosting)]
    assert said == [t("friends.here_only"), t("friends.with_password")]
    assert not any("127.0.0.1" in text for text in said)  # nobody is told to go to a loopback address

    click(app, lobby.start.rect.center)  # type: ignore[union-attr]  # bots take the friends' seats
    frames_until(app, lambda: isinstance(app.stack.top, TableScene))
    assert lobby.remote.state().view.rules == chosen  # the table plays them

    kept = load_settings(app.config_path)  # saved as the other settings are
    assert kept.friends == FriendsSettings("Anna", "Köket", 4, 2, "strong", False, "")
    assert kept.house_rules == chosen
    key(app, pygame.K_ESCAPE)
    key(app, pygame.K_ESCAPE)  # leave the table (asked first)
    frames_until(app, lambda: isinstance(app.stack.top, MenuScene))
    form = open_form(app, "friends_host")
    shown = {row.label: row_text(form, row.label) for row in form.rows}
    assert shown == {
        "friends.name": "Anna",
        "friends.table": "Köket",
        "friends.seats": t("new_game.players", count=4),
        "friends.friends": t("friends.count", count=2),
        "friends.bots": t("new_game.kind.strong"),
        "settings.house_rules.aces_low_in_all_miseres": t("settings.value.on"),
        "settings.house_rules.royale_defenders_see_each_other": t("settings.value.off"),
        "settings.house_rules.gok_reentry": t("settings.value.on"),
        "friends.password": "",  # never kept
        "friends.where": t("friends.where_here"),
    }


def test_the_join_form_shows_the_name_and_address_last_joined(app: App) -> None:
    form = open_form(app, "friends_join")
    type_text(app, "127.0.0.1:9/v-1")
    key(app, pygame.K_DOWN)
    type_text(app, "Cecilia")
    key(app, pygame.K_RETURN)
    assert isinstance(app.stack.top, LobbyScene)
    key(app, pygame.K_ESCAPE)
    assert isinstance(app.stack.top, MenuScene)
    assert load_settings(app.config_path).friends.address == "127.0.0.1:9/v-1"
    form = open_form(app, "friends_join")
    assert [e.get_text() for e in entries(form)] == ["127.0.0.1:9/v-1", "Cecilia", ""]
    key(app, pygame.K_ESCAPE)
    form = open_form(app, "friends_host")  # the name is the same in both forms
    assert row_text(form, "friends.name") == "Cecilia"


def test_a_table_hosted_on_the_network_tells_every_address_of_this_computer(monkeypatch: pytest.MonkeyPatch) -> None:
    """The lobby's words for a table on the LAN (this test hosts nothing: the addresses are
    this computer's as ``lan`` reads them, the link-local one last)."""
    monkeypatch.setattr(lan, "_own_addresses", lambda: ["169.254.7.7", "10.0.0.5", "192.168.1.20"])
    hosting = LocalHost.__new__(LocalHost)  # the lobby's view of it, without a server
    hosting.bind, hosting.port, hosting.config = "0.0.0.0", 8417, HostConfig(prefix="abcd", first="koket")
    said = [text for text, _, _ in told(hosting)]
    assert said == [
        t("friends.tell", address="10.0.0.5:8417", code="abcd-koket"),
        t("friends.tell_others", addresses="192.168.1.20:8417, 169.254.7.7:8417"),
    ]
    assert "here" not in said[0] and hosting.address == "10.0.0.5"


def test_a_table_s_name_is_its_code_in_letters_and_digits() -> None:
    assert [table_code(name) for name in ("Köket", "Anna's table 2", "???", "x" * 40)] == [
        "koket", "annastable2", "1", "x" * 16,
    ]  # fmt: skip


def test_an_invisible_format_character_typed_into_an_empty_field_is_refused_and_the_frame_goes_on(
    app: App,
) -> None:
    """A bidi override or a zero-width space alone in a field has no width: pygame-gui could not
    draw it and the frame failed. Every field refuses the format characters, typed or set."""
    form = open_form(app, "friends_join")
    address = entries(form)[0]
    assert focused(app) == [address] and address.get_text() == ""
    for invisible in ("\u202e", "\u200b", "\u2066", "\ufeff"):
        type_text(app, invisible)
    assert address.get_text() == ""
    type_text(app, "h\u202eost")
    assert address.get_text() == "host"
