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
from tests.test_gui import card_point, click, key, make_app, run, texts_drawn
from vira_desktop.i18n import configure, t
from vira_desktop.net.client import JoinOptions, Link
from vira_desktop.net.host import HostConfig
from vira_desktop.net.remote import LocalHost, RemoteTable
from vira_desktop.rules.actions import Pass
from vira_desktop.rules.decision import Phase
from vira_desktop.scenes.app import App
from vira_desktop.scenes.friends import (
    FriendsScene,
    FriendsTableScene,
    HostFormScene,
    JoinFormScene,
    LobbyScene,
    remembered,
)
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
    seats = [(s.name, s.bot) for s in remote.lobby.seats]  # type: ignore[union-attr]
    assert seats == [("Anna", False), ("", False), ("", True), ("", True)] and remote.lobby.waiting == 1  # type: ignore[union-attr]

    address = f"127.0.0.1:{remote.hosting.port}"
    friend = bot_client(address, "Bertil", "normal", table=remote.hosting.table)
    played: list[int] = []
    thread = threading.Thread(target=lambda: played.append(asyncio.run(friend.run())), daemon=True)
    thread.start()
    frames_until(app, lambda: remote.lobby is not None and remote.lobby.waiting == 0)
    run(app, 30)  # the last friend has come: the lobby stays until its host starts the deal
    assert app.stack.top is lobby and lobby.start is not None and not remote.dealt
    assert remote.lobby is not None and remote.lobby.owner == "Anna"
    assert [s.name for s in remote.lobby.taken] == ["Anna", "Bertil"]
    click(app, lobby.start.rect.center)  # Start now: bots take the other seats
    frames_until(app, lambda: isinstance(app.stack.top, TableScene))
    scene = app.stack.top
    assert isinstance(scene, TableScene) and scene.runner is remote
    assert remote.state().players and set(remote.state().players) == {"Anna", "Bertil", "Bot 1", "Bot 2"}

    key(app, pygame.K_ESCAPE)  # leaving a table of friends in play asks first, and says what it does
    assert isinstance(app.stack.top, TableScene) and scene.view.shown.message == t("message.leave_hosted")
    key(app, pygame.K_LSHIFT)  # any other key plays on
    assert scene.view.shown.message == ""
    pygame.event.post(pygame.event.Event(pygame.QUIT))  # the window's close button asks the same
    run(app, 1)
    assert app.running and scene.view.shown.message == t("message.close_hosted")
    key(app, pygame.K_LSHIFT)
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


def at_friends_table(app: App, remote: RemoteTable) -> FriendsTableScene:
    """``remote``'s seat opened from the lobby, once dealt."""
    if not isinstance(app.stack.top, LobbyScene | FriendsTableScene):
        app.open("lobby", client=remote)
    frames_until(app, lambda: isinstance(app.stack.top, FriendsTableScene))
    scene = app.stack.top
    assert isinstance(scene, FriendsTableScene) and scene.remote is remote
    return scene


def test_every_window_lists_the_lobbys_seats_alike_and_a_friend_waits_there_for_the_host(app: App) -> None:
    """The seats are the host's lobby message's, in the hosting window and a friend's alike
    (only "you" differs); the friend's lobby says it waits for the host."""
    remote = app.host_friends("Anna", 4, 2, None, False)
    lobby = app.open("lobby", client=remote)
    assert isinstance(lobby, LobbyScene) and remote.hosting is not None
    frames_until(app, lambda: remote.welcome is not None)
    friend = RemoteTable(JoinOptions(f"127.0.0.1:{remote.hosting.port}", "Bertil", remote.hosting.table), Worker)
    try:
        seen_by_friend = LobbyScene(app, friend)
        frames_until(app, lambda: len(remote.lobby.taken) == 2 if remote.lobby is not None else False)
        frames_until(app, lambda: friend.dealt or friend.lobby == remote.lobby)
        host_rows = [row for row in lobby.rows()]
        friend_rows = seen_by_friend.rows()
        you = f"  ({t('friends.you')})"
        assert [(name.replace(you, ""), how, ready) for name, how, ready in host_rows] == [
            (name.replace(you, ""), how, ready) for name, how, ready in friend_rows
        ]
        assert [name for name, _, _ in host_rows] == [
            f"Anna  ({t('friends.the_host')}){you}", "Bertil", t("friends.seat_free"), t("friends.seat_bot_later")
        ]
        assert seen_by_friend._status()[0] == t("friends.waiting_for", count=1, name="Anna")
        assert lobby._status()[0] == t("friends.waiting_host", count=1)
    finally:
        friend.close()


def test_the_lobby_promises_no_seats_the_seating_is_drawn_at_the_first_deal(
    app: App, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The lobby listed "1 Anna, 2 Bo, 3 bot" and the first deal's draw seated them otherwise:
    it lists who is at the table, unnumbered, and says the seating is drawn at the first deal."""
    remote = app.host_friends("Anna", 3, 1, None, False)
    app.open("lobby", client=remote)
    frames_until(app, lambda: remote.lobby is not None)
    drawn = texts_drawn(monkeypatch)
    run(app, 2)
    assert t("friends.seats_title") in drawn and t("friends.seating_drawn") in drawn
    assert not {"1", "2", "3"} & set(drawn)  # no seat numbers
    assert f"Anna  ({t('friends.the_host')})  ({t('friends.you')})" in drawn


def test_chat_at_the_table_opens_with_c_goes_to_everyone_and_shows_in_the_log_as_text(app: App) -> None:
    remote = app.host_friends("Anna", 3, 1, None, False)
    assert remote.hosting is not None
    address = f"127.0.0.1:{remote.hosting.port}"
    friend = bot_client(address, "Bertil", "normal", table=remote.hosting.table)
    heard: list[str] = []
    friend.options.say = heard.append
    thread = threading.Thread(target=lambda: asyncio.run(friend.run()), daemon=True)
    thread.start()
    app.open("lobby", client=remote)
    frames_until(app, lambda: remote.lobby is not None and remote.lobby.waiting == 0)
    remote.start_now()
    scene = at_friends_table(app, remote)
    key(app, pygame.K_c)
    assert scene.line is not None and scene.line.is_focused and scene.line.get_text() == ""
    type_text(app, "p")  # typed in the line: no pass at the table
    key(app, pygame.K_p)
    assert scene.line.get_text() == "p"
    key(app, pygame.K_ESCAPE)  # closes the line, says nothing, and does not leave
    assert scene.line is None and app.stack.top is scene and not scene.view.shown.message
    key(app, pygame.K_c)
    type_text(app, "good luck, Bertil")
    key(app, pygame.K_RETURN)
    assert scene.line is None
    said = t("friends.table_said", who="Anna", text="good luck, Bertil")
    frames_until(app, lambda: said in scene.view.shown.log)
    deadline = time.monotonic() + 10
    while "Anna: good luck, Bertil" not in heard:
        assert time.monotonic() < deadline
        time.sleep(0.02)
    app.stack.clear()
    remote.close()
    thread.join(10)


def test_the_chat_hidden_in_the_lobby_stays_hidden_at_the_table_and_is_kept(app: App) -> None:
    """The lobby's button hides the chat (the player's setting, kept): its line goes, the lobby
    says so, and at the table nothing said shows in the log and C opens no line."""
    remote = app.host_friends("Anna", 3, 1, None, False)
    assert remote.hosting is not None
    friend = bot_client(f"127.0.0.1:{remote.hosting.port}", "Bertil", "normal", table=remote.hosting.table)
    thread = threading.Thread(target=lambda: asyncio.run(friend.run()), daemon=True)
    thread.start()
    lobby = app.open("lobby", client=remote)
    assert isinstance(lobby, LobbyScene) and lobby.chat.visible
    click(app, lobby.hide.rect.center)
    assert app.settings.friends.chat is False and not remote.show_chat
    assert not lobby.chat.visible and lobby.hide.text == t("friends.show_chat")
    frames_until(app, lambda: remote.lobby is not None and remote.lobby.waiting == 0)
    remote.start_now()
    scene = at_friends_table(app, remote)
    key(app, pygame.K_c)
    assert scene.line is None
    remote.say("heard by nobody here")
    frames_until(app, lambda: len(remote.chat) == 1)
    run(app, 5)
    assert not any("heard by nobody here" in line for line in scene.view.shown.log)
    app.stack.clear()
    remote.close()
    thread.join(10)


def test_a_friend_leaving_is_told_the_seat_is_held_for_them_and_never_that_the_table_ends(
    app: App, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Esc at a friend's table told the leaver "A bot plays your seat" (it is held for them a
    while first), and a guest "if you host it, the table ends for everyone"; the prompt was cut off."""
    config = HostConfig(bot_processes=0, bot_pause=0.0, players=3, humans=2, once=False, seat_timeout=45)
    hosting = LocalHost(config, "127.0.0.1", 0)
    address = f"127.0.0.1:{hosting.port}"
    friend = bot_client(address, "Bertil", "normal")
    thread = threading.Thread(target=lambda: asyncio.run(friend.run()), daemon=True)
    thread.start()
    try:
        remote = app.join_friends(address, "Cecilia", None)
        scene = at_friends_table(app, remote)
        frames_until(app, lambda: not scene.view.intro.running)
        drawn = texts_drawn(monkeypatch)
        key(app, pygame.K_ESCAPE)
        said = scene.view.shown.message
        assert app.stack.top is scene and said == t("message.leave_shared", seconds=45)
        assert "45 s" in said and "everyone" not in said
        assert " ".join(d for d in drawn if d and d in said) == said  # every word of it drawn: nothing cut off
    finally:
        hosting.stop()
        thread.join(10)


def test_the_host_closing_the_table_is_said_plainly_with_the_way_back_to_the_menu(app: App) -> None:
    hosting = LocalHost(HostConfig(bot_processes=0, bot_pause=0.0, players=3, humans=2, once=False), "127.0.0.1", 0)
    address = f"127.0.0.1:{hosting.port}"
    friend = bot_client(address, "Bertil", "normal")
    thread = threading.Thread(target=lambda: asyncio.run(friend.run()), daemon=True)
    thread.start()
    remote = app.join_friends(address, "Cecilia", None)
    scene = at_friends_table(app, remote)
    hosting.stop()  # the host ends the table: a bye
    frames_until(app, lambda: scene.box.final)
    assert scene.box.said is not None and scene.box.said.title == t("friends.lost.closed")
    assert scene.box.button is not None and scene.box.button.visible
    click(app, scene.box.button.rect.center)
    assert isinstance(app.stack.top, MenuScene)
    thread.join(10)


def test_a_host_gone_is_tried_again_visibly_then_said_lost_with_the_way_back_to_the_menu(
    app: App, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A host that disappears without a word (here: one that keeps its tables, stopped: a
    service restart, and never back) is tried again, each try counted on the screen, then
    said lost, with a button back to the menu; why, in plain words (it showed "cannot join
    ws://…: [Errno 111] Connect call failed …", and the side panel a red copy cut off)."""
    keeps = HostConfig(bot_processes=0, bot_pause=0.0, players=3, humans=2, once=False, save=tmp_path / "kept")
    hosting = LocalHost(keeps, "127.0.0.1", 0)
    address = f"127.0.0.1:{hosting.port}"
    friend = bot_client(address, "Bertil", "normal", reconnect=0)
    thread = threading.Thread(target=lambda: asyncio.run(friend.run()), daemon=True)
    thread.start()
    remote = RemoteTable(JoinOptions(address, "Cecilia", reconnect=2.0), app.coach_worker)
    app.friends = remote
    scene = at_friends_table(app, remote)
    hosting.stop()
    frames_until(app, lambda: scene.box.said is not None)
    said = scene.box.said
    assert said is not None and said.title == t("friends.lost.trying") and not said.final and said.why
    assert said.more in (t("friends.lost.retry", count=1, seconds=n) for n in (0, 1, 2))
    drawn = texts_drawn(monkeypatch)
    frames_until(app, lambda: scene.box.said is not None and scene.box.said.why == t("friends.why.refused"))
    run(app, 2)
    assert scene.view.shown.message in ("", t("friends.link.dropped"))  # the box says why, the panel only that
    frames_until(app, lambda: scene.box.final, 15)
    assert scene.box.said is not None and scene.box.said.title == t("friends.lost.gone")
    assert scene.box.said.why == t("friends.why.refused")
    run(app, 2)
    assert t("friends.why.refused") in drawn
    assert not [d for d in drawn if "Errno" in d or "ws://" in d or "Connect call" in d]
    key(app, pygame.K_RETURN)
    assert isinstance(app.stack.top, MenuScene)
    thread.join(10)


def test_why_a_connection_failed_is_said_in_the_players_words() -> None:
    import socket

    from vira_desktop.net.client import failure

    refused = OSError(111, "Connect call failed ('127.0.0.1', 8600)")
    assert isinstance(refused, ConnectionRefusedError) and failure(refused) == "refused"
    assert failure(OSError("Multiple exceptions: [Errno 111] Connect call failed ('::1', 8600)")) == "refused"
    assert failure(TimeoutError()) == "timeout"
    assert failure(socket.gaierror(-2, "Name or service not known")) == "address"
    assert failure(OSError(113, "No route to host")) == "unreachable"
    for why in ("refused", "timeout", "address", "not_vira", "lost", "unreachable"):
        assert "Errno" not in t(f"friends.why.{why}")


def join_again(app: App, address: str, name: str) -> RemoteTable:
    """The menu's Play with friends → Join a table, the address and name typed, Enter: the seat."""
    open_friends(app)
    key(app, pygame.K_DOWN)
    key(app, pygame.K_RETURN)
    form = app.stack.top
    assert isinstance(form, JoinFormScene)
    for _ in range(40):
        key(app, pygame.K_BACKSPACE, frames=1)
    type_text(app, address)
    key(app, pygame.K_DOWN)
    for _ in range(30):
        key(app, pygame.K_BACKSPACE, frames=1)
    type_text(app, name)
    key(app, pygame.K_RETURN)
    assert isinstance(app.stack.top, LobbyScene | FriendsTableScene) and app.friends is not None, form.error
    return app.friends


def test_a_friend_who_leaves_comes_back_to_the_same_seat_by_the_token_the_window_remembered(app: App) -> None:
    """Cecilia leaves the lobby (the place is given up) and joins again: the token her window
    kept names no seat now, so it joins afresh by name. At the table she leaves (Esc, Esc) and
    joins again: the token takes her seat back, as it stood."""
    hosting = LocalHost(HostConfig(bot_processes=0, bot_pause=0.0, players=3, humans=2, once=False), "127.0.0.1", 0)
    address = f"127.0.0.1:{hosting.port}"
    try:
        join_again(app, address, "Cecilia")
        first = app.stack.top
        assert isinstance(first, LobbyScene)
        frames_until(app, lambda: first.remote.welcome is not None)
        run(app, 2)
        kept = remembered()["token"]
        key(app, pygame.K_ESCAPE)  # the lobby left: the place given up (the token is still remembered)
        assert isinstance(app.stack.top, MenuScene) and remembered()["token"] == kept
        join_again(app, address, "Cecilia")  # the kept token is sent, names no seat now, and is dropped:
        frames_until(app, lambda: isinstance(app.stack.top, LobbyScene) and app.stack.top.remote.welcome is not None)
        lobby = app.stack.top  # the table is joined afresh, by name
        assert isinstance(lobby, LobbyScene) and lobby.remote.options.token is None
        run(app, 2)
        assert lobby.remote.welcome is not None and remembered()["token"] == lobby.remote.welcome.token != kept

        friend = bot_client(address, "Bertil", "normal", reconnect=0)
        thread = threading.Thread(target=lambda: asyncio.run(friend.run()), daemon=True)
        thread.start()
        scene = at_friends_table(app, lobby.remote)
        seat = scene.runner.state().seats.index("Cecilia") if "Cecilia" in scene.runner.state().seats else None
        hand = scene.runner.state().view.hand
        key(app, pygame.K_ESCAPE)
        key(app, pygame.K_ESCAPE)  # asked first, then left: a bye, the seat held
        assert isinstance(app.stack.top, MenuScene)
        remote = join_again(app, address, "Cecilia")
        assert remote.options.token == remembered()["token"]  # the seat's token, remembered
        scene = at_friends_table(app, remote)
        assert remote.welcome is not None and remote.welcome.token == remote.options.token
        state = scene.runner.state()
        assert (state.seats.index("Cecilia") if "Cecilia" in state.seats else None) == seat
        assert set(state.view.hand) <= set(hand)  # her own cards (some played by the bot meanwhile, if it came)
    finally:
        app.stack.clear()
        hosting.stop()
