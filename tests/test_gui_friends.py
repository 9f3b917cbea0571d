"""Play with friends in the window, headless: a table hosted from the menu (real key and mouse
events posted to pygame), a friend who joins it as a bot client on loopback, two host bots,
and a deal played to its end at the window's table; the forms' checks; the join form's
address read. Every host binds 127.0.0.1 and every wait is bounded."""

from __future__ import annotations

import asyncio
import os
import random
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

os.environ["SDL_VIDEODRIVER"] = "dummy"
os.environ["SDL_AUDIODRIVER"] = "dummy"

import pygame

from tests.hosts import bot_client
from tests.test_gui import card_point, click, key, make_app, run
from vira_desktop.i18n import configure, t
from vira_desktop.net.client import Link
from vira_desktop.net.host import HostConfig
from vira_desktop.net.remote import RemoteTable
from vira_desktop.rules.actions import Pass
from vira_desktop.rules.decision import Phase
from vira_desktop.scenes.app import App
from vira_desktop.scenes.friends import FriendsScene, HostFormScene, JoinFormScene, LobbyScene
from vira_desktop.scenes.menu import MenuScene
from vira_desktop.scenes.table import TableScene
from vira_desktop.session.worker import Worker

LIMIT_S = 30.0


@pytest.fixture
def app(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[App]:
    application = make_app(tmp_path, monkeypatch)
    threads = lambda: Worker(processes=False)  # noqa: E731
    brisk = {"bot_pause": 0.0, "deal_pause": 0.3, "deals": 1, "seat_timeout": 30.0, "seed": 5}
    application.host_config = HostConfig(bot_processes=0, **brisk)  # type: ignore[arg-type]
    application.coach_worker = threads
    yield application
    application.stack.clear()
    if application.friends is not None:
        application.friends.close()
    pygame.quit()
    configure("en")


def type_text(app: App, text: str) -> None:
    pygame.event.post(pygame.event.Event(pygame.TEXTINPUT, text=text, window=None))
    run(app, 2)


def frames_until(app: App, done: Callable[[], bool], seconds: float = LIMIT_S) -> None:
    deadline = time.monotonic() + seconds
    while not done():
        assert time.monotonic() < deadline, f"waited {seconds} s at {app.stack.top!r}"
        app.step(1 / 60)
        time.sleep(0.003)


def open_friends(app: App) -> FriendsScene:
    run(app, 2)
    assert isinstance(app.stack.top, MenuScene)
    button = app.stack.top.buttons[[e.action for e in app.stack.top.entries].index("friends")]
    click(app, button.rect.center)
    assert isinstance(app.stack.top, FriendsScene)
    return app.stack.top


def move(app: App, scene: TableScene, rng: random.Random) -> None:
    """One answer, as a player gives it: keys for bids and buttons, clicks for cards."""
    ask = scene.play.viewer_ask()
    assert ask is not None and ask.view.decision is not None
    decision = ask.view.decision
    if decision.phase is Phase.AUCTION:
        if any(isinstance(a, Pass) for a in decision.actions):
            key(app, pygame.K_p)
        else:
            key(app, pygame.K_DOWN)
            key(app, pygame.K_RETURN)
            if scene.play.viewer_ask() is ask:
                key(app, pygame.K_RETURN)  # the raise moved the choice: confirmed
    elif decision.phase is Phase.PLAY and not ask.optional:
        for _ in range(2 * len(scene.play.surface.hand()) + 2):
            key(app, pygame.K_SPACE)
            if scene.play.viewer_ask() is not ask:
                break
            key(app, pygame.K_RIGHT)
    elif decision.choice is not None:
        choice = decision.choice
        picks = rng.sample(list(choice.candidates), choice.min_count)
        for card in picks:
            click(app, card_point(scene, card))
        key(app, pygame.K_RETURN)
        if scene.play.viewer_ask() is ask and not picks:
            key(app, pygame.K_RETURN)  # "nothing? Enter again"
    else:
        key(app, pygame.K_1)
    assert scene.play.viewer_ask() is not ask or scene.view.shown.message, f"no answer sent in {decision.phase}"


def test_a_table_hosted_from_the_menu_fills_with_a_friend_and_bots_and_a_deal_is_played_in_the_window(
    app: App,
) -> None:
    friends = open_friends(app)
    key(app, pygame.K_RETURN)  # Host a table (focused first)
    form = app.stack.top
    assert isinstance(form, HostFormScene) and isinstance(friends, FriendsScene)
    key(app, pygame.K_RETURN)
    assert form.error  # no name yet
    type_text(app, "Anna")
    key(app, pygame.K_DOWN)  # the table's name: Anna's
    key(app, pygame.K_DOWN)
    key(app, pygame.K_RIGHT)  # 4 seats: Anna, 1 friend, 2 bots
    for _ in range(3):
        key(app, pygame.K_UP)  # up past the first row: the last, who can join
    key(app, pygame.K_RIGHT)  # this computer only
    assert (form.players, form.friends, form.lan) == (4, 1, False)
    key(app, pygame.K_RETURN)
    lobby = app.stack.top
    assert isinstance(lobby, LobbyScene)
    remote = lobby.remote
    assert remote.hosting is not None and remote.hosting.bind == "127.0.0.1"
    frames_until(app, lambda: remote.lobby is not None and remote.link.link is Link.SEATED)
    assert [s.name for s in remote.lobby.seats] == ["Anna"] and remote.lobby.waiting == 1  # type: ignore[union-attr]

    address = f"127.0.0.1:{remote.hosting.port}"
    friend = bot_client(address, "Bertil", "normal", table=remote.hosting.table)
    played: list[int] = []
    thread = threading.Thread(target=lambda: played.append(asyncio.run(friend.run())), daemon=True)
    thread.start()
    frames_until(app, lambda: isinstance(app.stack.top, TableScene))
    scene = app.stack.top
    assert isinstance(scene, TableScene) and scene.runner is remote
    assert remote.state().players and set(remote.state().players) == {"Anna", "Bertil", "Bot 1", "Bot 2"}

    key(app, pygame.K_ESCAPE)  # leaving a table of friends in play asks first, and says what it does
    assert isinstance(app.stack.top, TableScene) and scene.view.shown.message == t("message.leave_shared")
    key(app, pygame.K_LSHIFT)  # any other key plays on
    assert scene.view.shown.message == ""

    rng = random.Random(3)
    answered = 0
    deadline = time.monotonic() + LIMIT_S
    while not (scene.view.state is not None and scene.view.state.over):
        assert time.monotonic() < deadline, "the deal did not end"
        app.step(1 / 60)
        if scene.play.viewer_ask() is not None and not scene.view.intro.running and not scene.view.busy:
            move(app, scene, rng)
            answered += 1
        time.sleep(0.002)
    assert scene.view.state is not None and scene.view.state.view.result is not None
    assert answered or scene.view.state.sitting_out == "Anna"  # four seats: one sits out each deal
    frames_until(app, lambda: remote.link.link is Link.ENDED)  # one deal: the host settles and says bye
    thread.join(10)
    assert played == [0]
    key(app, pygame.K_ESCAPE)
    assert isinstance(app.stack.top, MenuScene)
    assert remote.hosting is not None and not remote.hosting._thread.is_alive()  # the host stopped with the table


def test_the_join_form_reads_an_address_with_its_table_and_refuses_what_is_none(app: App) -> None:
    open_friends(app)
    key(app, pygame.K_DOWN)
    key(app, pygame.K_RETURN)
    form = app.stack.top
    assert isinstance(form, JoinFormScene)
    key(app, pygame.K_RETURN)
    assert form.error  # nothing typed
    type_text(app, "v-nowhere")
    key(app, pygame.K_DOWN)
    type_text(app, "Cecilia")
    key(app, pygame.K_RETURN)
    assert "v-nowhere" in form.error  # a code no table on the network has
    key(app, pygame.K_UP)
    for _ in range(9):
        key(app, pygame.K_BACKSPACE, frames=1)
    type_text(app, "127.0.0.1:9/v-1")
    key(app, pygame.K_RETURN)
    lobby = app.stack.top
    assert isinstance(lobby, LobbyScene) and isinstance(lobby.remote, RemoteTable)
    assert lobby.remote.options.table == "v-1" and lobby.remote.options.address == "127.0.0.1:9"
    frames_until(app, lambda: lobby.remote.link.link is Link.ENDED, 15)  # nobody listens there
    assert lobby.remote.link.why
    key(app, pygame.K_ESCAPE)
    assert isinstance(app.stack.top, MenuScene)
