"""A seat at a table in play is held for its player, whether the connection dropped or the
player left on purpose (a bye): the others are told (a ``note``: left, dropped, a bot plays
it, back), a bot plays it after the host's timeout, and the player has it back with the
seat's token or, the token lost, by the same name while nobody is connected there (never
while someone is, never from a second connection, never past the password). The chat said
lately comes with each welcome. A window's table waits for its host to start it; ``vira
host``'s starts when its seats are full. Loopback only, every wait bounded."""

from __future__ import annotations

import asyncio
import io
import json
import time
from collections.abc import Callable

import pytest

from tests.test_net import Raw, bot_player, config, run
from vira_desktop.i18n import t
from vira_desktop.net.client import JoinOptions, Link, Player, new_lines
from vira_desktop.net.host import Host
from vira_desktop.net.protocol import CHAT_HISTORY, Bye, Chat, ChatFrom, Lobby, Note, NoteKind, State
from vira_desktop.net.remote import LocalHost, RemoteTable
from vira_desktop.session.worker import Worker


async def note(raw: Raw) -> Note:
    message = await raw.until(lambda m: isinstance(m, Note))
    assert isinstance(message, Note)
    return message


def test_a_player_who_leaves_on_purpose_keeps_the_seat_and_comes_back_by_token_or_by_name() -> None:
    async def seats() -> dict[str, object]:
        host = Host(config(players=3, humans=2, seat_timeout=0.6, password="pw", once=False))
        port = await host.start("127.0.0.1", 0)
        anna = await Raw.seated(port, "Anna", password="pw")
        bertil = await Raw.seated(port, "Bertil", password="pw")
        assert bertil.welcome is not None
        token = bertil.welcome.token
        await anna.until(lambda m: isinstance(m, State))  # the table started by itself: its seats are full
        got: dict[str, object] = {}

        await bertil.send(Bye(""))  # Esc → leave, or the window closed cleanly
        got["left"] = await note(anna)
        lobby = await anna.until(lambda m: isinstance(m, Lobby))
        assert isinstance(lobby, Lobby)
        got["held"] = [(s.name, s.held, s.bot) for s in lobby.seats]
        back = await Raw.seated(port, "Bertil", token, password="pw")  # by the remembered token
        got["by_token"] = back.welcome is not None and back.welcome.token == token
        got["back"] = await note(anna)
        second = await Raw.seated(port, "Bertil", token, password="pw")  # the same token from a second connection
        got["second"] = second.refused.reason
        by_name_live = await Raw.seated(port, "Bertil", password="pw")  # the seat has a live connection
        got["taken"] = by_name_live.refused.reason

        await back.send(Bye(""))
        await note(anna)
        got["bot"] = await note(anna)  # nobody came back within the timeout
        wrong = await Raw.seated(port, "Bertil", password="guess")
        got["password"] = wrong.refused.reason
        again = await Raw.seated(port, "Bertil", password="pw")  # the token lost: by the same name
        assert again.welcome is not None
        got["new_token"] = again.welcome.token != token
        got["back_again"] = await note(anna)
        state = await again.until(lambda m: isinstance(m, State))
        assert isinstance(state, State)
        got["seat"] = state.seen.table.viewer_name
        lobby = await anna.until(lambda m: isinstance(m, Lobby))
        assert isinstance(lobby, Lobby)
        got["after"] = [(s.name, s.connected, s.bot) for s in lobby.seats]
        old = await Raw.seated(port, "Bertil", token, password="pw")  # the old token names the seat no more
        got["old"] = old.refused.reason
        await host.stop()
        return got

    got = run(seats, 20)
    assert got["left"] == Note(NoteKind.LEFT, "Bertil", 1)
    assert got["held"] == [("Anna", False, False), ("Bertil", True, False), ("Bot 1", False, True)]
    assert got["by_token"] and got["back"] == Note(NoteKind.BACK, "Bertil")
    assert got["second"] == "that seat is in use by another connection"
    assert got["taken"] == "the name 'Bertil' is taken at this table"
    assert got["bot"] == Note(NoteKind.BOT, "Bertil")
    assert got["password"] == "wrong password"
    assert got["new_token"] and got["back_again"] == Note(NoteKind.BACK, "Bertil") and got["seat"] == "Bertil"
    assert got["after"] == [("Anna", True, False), ("Bertil", True, False), ("Bot 1", False, True)]
    assert got["old"] == "no seat at this table for that name and token"


def test_a_dropped_player_is_told_to_the_others_and_vira_join_prints_and_dumps_the_notes(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr("sys.stdin", io.StringIO(""))  # Anna answers nothing: the table waits

    async def drop() -> tuple[list[str], str]:
        host = Host(config(players=3, humans=2, seat_timeout=30.0, once=False))
        port = await host.start("127.0.0.1", 0)
        said: list[str] = []
        dump = io.StringIO()
        anna = Player(JoinOptions(f"127.0.0.1:{port}", name="Anna", dump=dump, say=said.append, reconnect=0))
        playing = asyncio.create_task(anna.run())
        bertil = await Raw.seated(port, "Bertil")
        await bertil.until(lambda m: isinstance(m, State))
        bertil.ws.transport.abort()  # the connection just dies
        for _ in range(200):
            if any(t("friends.note.dropped", name="Bertil", seconds=30) == line for line in said):
                break
            await asyncio.sleep(0.02)
        await Raw.seated(port, "Bertil", bertil.welcome.token if bertil.welcome else None)
        for _ in range(200):
            if any(t("friends.note.back", name="Bertil", seconds=0) == line for line in said):
                break
            await asyncio.sleep(0.02)
        await host.stop()
        await asyncio.wait_for(playing, 5)
        return said, dump.getvalue()

    said, dumped = run(drop, 20)
    assert t("friends.note.dropped", name="Bertil", seconds=30) in said
    assert t("friends.note.back", name="Bertil", seconds=0) in said
    notes = [json.loads(line) for line in dumped.splitlines() if json.loads(line)["type"] == "note"]
    assert notes == [
        {"type": "note", "kind": "dropped", "name": "Bertil", "seconds": 30},
        {"type": "note", "kind": "back", "name": "Bertil", "seconds": 0},
    ]


def test_the_chat_said_lately_comes_with_each_welcome_and_a_rejoin_hears_no_line_twice() -> None:
    async def history() -> tuple[list[ChatFrom], list[ChatFrom], list[str]]:
        host = Host(config(players=3, humans=3, chat_burst=100, chat_rate=100.0, once=False))
        port = await host.start("127.0.0.1", 0)
        anna = await Raw.seated(port, "Anna")
        for n in range(CHAT_HISTORY + 5):
            await anna.send(Chat(f"line {n}"))
        await anna.until(lambda m: isinstance(m, ChatFrom) and m.text == f"line {CHAT_HISTORY + 4}")
        bertil = await Raw.seated(port, "Bertil")
        assert bertil.welcome is not None
        joined = list(bertil.welcome.chat)
        said: list[str] = []
        cecilia = bot_player(port, "Cecilia")
        cecilia.options.say = said.append
        playing = asyncio.create_task(cecilia.run())
        await anna.until(lambda m: isinstance(m, State))  # full: dealt
        assert cecilia.welcome is not None
        bertil.ws.transport.abort()
        await anna.until(lambda m: isinstance(m, Note))
        await anna.send(Chat("while you were away"))
        back = await Raw.seated(port, "Bertil", bertil.welcome.token)
        assert back.welcome is not None
        rejoined = list(back.welcome.chat)
        assert cecilia.ws is not None
        cecilia.ws.transport.abort()  # Cecilia's connection dies: she comes back, and hears no line twice
        for _ in range(300):
            if cecilia.connections >= 2 and cecilia.link is Link.SEATED:
                break
            await asyncio.sleep(0.02)
        await host.stop()
        playing.cancel()
        return joined, rejoined, said

    joined, rejoined, said = run(history, 20)
    assert [c.text for c in joined] == [f"line {n}" for n in range(5, CHAT_HISTORY + 5)]
    assert all(c.sender == "Anna" for c in joined)
    assert len(rejoined) == CHAT_HISTORY and rejoined[-1] == ChatFrom("Anna", "while you were away")
    heard = [line for line in said if line.startswith("Anna: ")]
    assert heard == [f"Anna: line {n}" for n in range(5, CHAT_HISTORY + 5)] + ["Anna: while you were away"]
    assert new_lines(joined, rejoined) == [ChatFrom("Anna", "while you were away")]


def until(done: Callable[[], bool], *remotes: RemoteTable, seconds: float = 10.0) -> None:
    """Poll each of ``remotes`` as a window does until ``done`` (bounded)."""
    deadline = time.monotonic() + seconds
    while not done():
        assert time.monotonic() < deadline, f"waited {seconds} s; the links: {[r.link for r in remotes]}"
        for remote in remotes:
            remote.poll(time.monotonic())
        time.sleep(0.01)


def test_a_window_hosted_table_waits_for_its_host_and_its_log_tells_the_notes_and_the_chat() -> None:
    """Anna's window hosts (an owner's token), Bertil's joins: the table waits, full, until
    Anna starts it; then Bertil leaves and comes back, and Anna's log tells it, and a line
    Bertil says at the table, as text, between the host's own lines."""
    owner = "owner-secret-token"
    hosting = LocalHost(config(players=3, humans=2, once=False, seat_timeout=1.0, owner_token=owner), "127.0.0.1", 0)
    worker = lambda: Worker(processes=False)  # noqa: E731
    address = f"127.0.0.1:{hosting.port}"
    anna = RemoteTable(JoinOptions(address, "Anna", hosting.table, token=owner), worker, hosting)
    until(lambda: anna.welcome is not None, anna)
    bertil = RemoteTable(JoinOptions(address, "Bertil", hosting.table), worker)
    try:
        until(lambda: anna.lobby is not None and anna.lobby.waiting == 0 and bertil.lobby == anna.lobby, anna, bertil)
        time.sleep(0.5)
        assert not anna.dealt and not bertil.dealt  # full, and waiting for its host
        assert anna.lobby is not None and anna.lobby.owner == "Anna" and not anna.lobby.started
        assert [(s.name, s.ready) for s in anna.lobby.seats] == [("Anna", True), ("Bertil", True), ("", True)]
        bertil.start_now()  # only the host starts
        time.sleep(0.3)
        assert not anna.dealt
        anna.start_now()
        until(lambda: anna.dealt and bertil.dealt, anna, bertil)
        anna.start()
        token = bertil.welcome.token if bertil.welcome is not None else None
        bertil.close()  # Esc → leave: a bye
        left = t("friends.note.left", name="Bertil", seconds=1)
        until(lambda: left in anna.seen().log, anna)
        until(lambda: t("friends.note.bot", name="Bertil", seconds=0) in anna.seen().log, anna)
        bertil = RemoteTable(JoinOptions(address, "Bertil", hosting.table, token=token), worker)
        until(lambda: t("friends.note.back", name="Bertil", seconds=0) in anna.seen().log, anna, bertil)
        until(lambda: bertil.dealt, bertil)
        bertil.start()
        bertil.say("\u001b[31mgood \u202eluck\n")
        said = t("friends.table_said", who="Bertil", text="[31mgood luck")
        until(lambda: said in anna.seen().log, anna, bertil)
        assert anna.seen().log[-1] == said and anna.seen().table is anna.state()  # (the table waits for Anna)
        assert said in bertil.seen().log and bertil.chat[-1] == ("Bertil", "[31mgood luck")
    finally:
        bertil.close()
        anna.close()
