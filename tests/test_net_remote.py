"""The window's seat at a host's table (:class:`RemoteTable`), against a host run in its own
thread (:class:`LocalHost`) on loopback: a refusal from the host comes back as
``Update.refused`` and the question stands again; a dropped connection comes back with its
token to the same seat; the deal is played out through the port alone. Every wait is bounded."""

from __future__ import annotations

import time
from collections.abc import Callable

from tests.test_net import Raw, config, run
from vira_desktop.net.client import JoinOptions, Link
from vira_desktop.net.host import Host
from vira_desktop.net.protocol import CLIENT_COMMANDS, Lobby, Start, State
from vira_desktop.net.remote import LocalHost, RemoteTable
from vira_desktop.rules.actions import PlayCard
from vira_desktop.rules.decision import Phase
from vira_desktop.rules.errors import ViraError
from vira_desktop.session.port import Update
from vira_desktop.session.turns import Command
from vira_desktop.session.worker import Worker


def until(done: Callable[[], bool], remote: RemoteTable, seconds: float = 10.0) -> list[Update]:
    """Poll ``remote`` as a window does until ``done`` (bounded); the updates handed out."""
    got: list[Update] = []
    deadline = time.monotonic() + seconds
    while not done():
        assert time.monotonic() < deadline, f"waited {seconds} s; the link: {remote.link}"
        got += remote.poll(time.monotonic())
        time.sleep(0.01)
    return got


def drop(remote: RemoteTable) -> None:
    """The connection dies, no close frame (run on the connection's own loop)."""
    if remote._wire.ws is not None:
        remote._wire.ws.transport.abort()


def test_a_remote_seat_is_refused_comes_back_after_a_drop_and_plays_the_deal_out() -> None:
    hosting = LocalHost(config(players=3, humans=1, deals=1, once=False, seat_timeout=30.0), "127.0.0.1", 0)
    remote = RemoteTable(JoinOptions(f"127.0.0.1:{hosting.port}", "Anna"), lambda: Worker(processes=False), hosting)
    try:
        until(lambda: remote.dealt, remote)
        opening = remote.start()
        assert opening.events and remote.viewer == "Anna" and remote.facts.shared
        assert remote.lobby is not None and remote.lobby.seats[0].name == "Anna"

        until(lambda: remote.asked() is not None, remote)
        ask = remote.asked()
        assert ask is not None and ask.view.decision is not None
        wrong = PlayCard(ask.seat, ask.view.hand[0])  # a card in the auction: the host refuses it
        if ask.view.decision.phase is Phase.PLAY:
            wrong = next((PlayCard(ask.seat, c) for c in ask.view.hand if PlayCard(ask.seat, c) not in
                          ask.view.decision.actions), wrong)  # fmt: skip
        assert remote.submit(ask.seat, wrong).events == ()
        assert remote.asked() is None  # the answer is on its way
        refused = [u for u in until(lambda: remote.asked() is not None, remote) if u.refused]
        assert refused and refused[0].refused, refused
        assert remote.ask_hint()  # worked out here, from the seat's own view
        assert [u for u in until(lambda: remote._hint is not None, remote, 20) if u.hint]

        remote._loop.call_soon_threadsafe(drop, remote)
        until(lambda: remote.link.link is Link.DROPPED, remote)
        assert remote.facts.link_note  # said at the table while it comes back
        until(lambda: remote.link.link is Link.SEATED, remote)
        assert remote._wire.connections == 2 and remote.viewer == "Anna" and remote.facts.link_note == ""
        until(lambda: remote.asked() is not None, remote)  # the seat's question, given again

        try:
            remote.command(Command.NEXT_DEAL)
        except ViraError as exc:
            assert "host" in str(exc)
        else:
            raise AssertionError("the next deal is the host's")
        assert Command.BORUP in CLIENT_COMMANDS

        deadline = time.monotonic() + 20
        while not remote.state().over:  # the deal played out through the port
            assert time.monotonic() < deadline
            remote.poll(time.monotonic())
            ask = remote.asked()
            if ask is not None and ask.view.decision is not None:
                decision = ask.view.decision
                if decision.actions:
                    remote.submit(ask.seat, decision.actions[0])
                else:
                    assert decision.choice is not None
                    choice = decision.choice
                    remote.submit(ask.seat, choice.make(list(choice.candidates)[: choice.min_count]))
            time.sleep(0.005)
        until(lambda: remote.link.link is Link.ENDED, remote)
        until(lambda: remote.due_in(0.0) is None, remote)  # once what the end brought is handed out, nothing is due
        assert remote.finished_record() is None and not remote.ask_analysis()
    finally:
        started = time.monotonic()
        remote.close()
        assert time.monotonic() - started < 8


def test_only_the_hosts_own_player_may_start_early_and_bots_take_the_free_seats() -> None:
    """``start`` from a friend is refused; from the player with the owner's token (the window
    that hosts), the first deal is dealt at once, a bot in each seat still free."""

    async def started() -> tuple[str, str, Lobby, int]:
        host = Host(config(players=4, humans=3, owner_token="owner-secret", deals=1))
        port = await host.start("127.0.0.1", 0)
        owner = await Raw.seated(port, "Anna", token="owner-secret")
        friend = await Raw.seated(port, "Bertil")
        await friend.send(Start())
        refused = await friend.refusal()
        stranger = await Raw.seated(port, "Cecilia", token="not-the-owner")
        await owner.send(Start())
        lobby = await owner.until(lambda m: isinstance(m, Lobby) and m.waiting == 0)
        assert isinstance(lobby, Lobby)
        seen = await owner.until(lambda m: isinstance(m, State))
        assert isinstance(seen, State)
        await host.stop()
        return refused, stranger.refused.reason, lobby, len(seen.seen.table.players)

    refused, stranger, lobby, players = run(started, 20)
    assert refused == "only the player whose window hosts the table may start it"
    assert stranger == "no seat at this table for that name and token"
    seats = [(s.name, s.bot) for s in lobby.seats]
    assert seats == [("Anna", False), ("Bertil", False), ("Bot 1", True), ("Bot 2", True)]
    assert players == 4
