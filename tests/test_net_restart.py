"""A host killed with ``kill -9`` mid-deal and started again with the same arguments takes up
its table where it stood, with the same seating; its clients come back with their tokens and
the session plays out; nothing seen is lost and nothing is played twice (the deal records
replay). And the host's save files themselves: what a damaged one becomes, what a finished
table leaves behind.

Every host binds 127.0.0.1 and every wait is bounded.
"""

from __future__ import annotations

import asyncio
import contextlib
import io
import json
import threading
from pathlib import Path

import pytest

from tests.hosts import bot_client, free_port, start_host, stop
from tests.test_net import Raw, config, run
from vira_desktop.net.client import Player
from vira_desktop.net.host import Host
from vira_desktop.net.keep import TableStore, saved_tables
from vira_desktop.net.protocol import HostMessage, State, UpdateMessage, Welcome, read_host
from vira_desktop.session.autosave import Autosave
from vira_desktop.session.port import Seen
from vira_desktop.session.record import check_result, load_record, replay
from vira_desktop.session.table import SaveSnapshot

NAMES = ("Anna", "Bertil", "Cecilia")


async def until(done: object, seconds: float, what: str) -> None:
    """Wait (bounded) until ``done()`` holds."""
    for _ in range(int(seconds / 0.01)):
        if done():  # type: ignore[operator]
            return
        await asyncio.sleep(0.01)
    raise TimeoutError(what)


def around_the_restart(dump: str) -> tuple[Seen, Seen]:
    """The last state a client had before its seat was welcomed again, and the first after."""
    states: list[list[Seen]] = []
    for message in map(read_host, dump.splitlines()):
        if isinstance(message, Welcome):
            states.append([])
        elif isinstance(message, State):
            states[-1].append(message.seen)
    assert len(states) == 2, f"welcomed {len(states)} times"
    return states[0][-1], states[1][0]


def test_a_host_killed_mid_deal_and_started_again_continues_the_table_and_its_clients_come_back(
    tmp_path: Path,
) -> None:
    port = free_port()
    save, records, log = tmp_path / "save", tmp_path / "records", tmp_path / "host.log"
    args = ["--players", "3", "--deals", "2", "--once", "--deal-pause", "0", "--bot-pause", "0.01", "--seed", "5"]
    args += ["--save", str(save), "--records", str(records)]
    first = start_host(args, port, log)
    hosts = [first]

    async def play() -> tuple[list[int], list[Player], dict[str, str]]:
        dumps = {name: io.StringIO() for name in NAMES}
        players = [bot_client(f"127.0.0.1:{port}", n, dump=dumps[n], reconnect=30.0) for n in NAMES]
        session = asyncio.gather(*(p.run() for p in players))

        def mid_second_deal() -> bool:
            seen = players[0].seen
            return seen is not None and seen.table.deal_index == 1 and seen.table.history >= 4

        await until(mid_second_deal, 30, "the second deal under way")
        first.kill()  # kill -9: no goodbye, no last save
        await asyncio.to_thread(first.wait, 10)
        hosts.append(await asyncio.to_thread(start_host, args, port, log))
        codes = await asyncio.wait_for(session, 40)
        return list(codes), players, {name: d.getvalue() for name, d in dumps.items()}

    try:
        codes, players, dumps = run(play, 60)
        assert hosts[-1].wait(20) == 0
    finally:
        for host in hosts:
            stop(host)
    text = log.read_text(encoding="utf-8")
    assert codes == [0, 0, 0], text[-3000:]
    assert "taken up at deal 2" in text and "is back" in text
    for p in players:
        was, back = around_the_restart(dumps[p.options.name])
        assert back.table.players == was.table.players and back.table.seats == was.table.seats  # the seating
        assert back.table.deal_index == was.table.deal_index == 1
        assert back.table.history >= was.table.history  # nothing seen is lost
    found = sorted(records.glob("*.yaml"))
    assert len(found) == 2, found
    for path in found:  # every action once: the records replay, their results agree
        record = load_record(path)
        deal = replay(record)
        assert deal.is_over and check_result(record, deal) is None
    assert not list(save.glob("*.json")) and not list(save.glob("*.sqlite3"))  # the finished table is gone


def test_a_table_saved_in_the_lobby_keeps_its_players_and_a_damaged_one_is_set_aside(tmp_path: Path) -> None:
    """Two of three joined; the host stops and starts again: both are held, by token hash only;
    a seating file that is not JSON is moved aside and the host starts all the same."""

    async def lobby() -> tuple[list[str], str, list[str]]:
        host = Host(config(save=tmp_path))
        port = await host.start("127.0.0.1", 0)
        anna, bertil = (bot_client(f"127.0.0.1:{port}", name, reconnect=0) for name in NAMES[:2])
        tasks = [asyncio.create_task(p.run()) for p in (anna, bertil)]
        await until(lambda: anna.welcome is not None and bertil.welcome is not None, 10, "both seated")
        await host.stop()
        await asyncio.gather(*tasks)
        kept = json.loads((tmp_path / "v-1.json").read_text(encoding="utf-8"))
        (tmp_path / "v-2.json").write_text("{not json", encoding="utf-8")
        again = Host(config(save=tmp_path))
        await again.start("127.0.0.1", 0)
        names = [m.name for m in again.tables["v-1"].members]
        await again.stop()
        assert anna.welcome is not None
        return names, anna.welcome.token, [json.dumps(kept), *sorted(p.name for p in tmp_path.iterdir())]

    names, token, (kept, *files) = run(lobby, 20)
    assert names == ["Anna", "Bertil"]
    assert token not in kept and "token_hash" in kept
    assert "v-2.json.damaged-1" in files and [s.code for s in saved_tables(tmp_path)] == ["v-1"]
    assert TableStore(tmp_path, "v-1").load()[1] is None  # not dealt yet: a seating, no session


def test_a_move_reaches_its_clients_only_once_its_save_is_written_and_the_host_plays_on_meanwhile(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The host writes each table's saves off its event loop; whatever the table's clients are
    sent after a move waits until the save holding that move is on disk (so a kill -9 at any
    moment takes back nothing a player has seen), and meanwhile the host serves on."""
    on_disk: list[int] = []  # the length of each log written
    held, release = threading.Event(), threading.Event()
    write = Autosave.write

    def slow_write(self: Autosave, snapshot: SaveSnapshot) -> None:  # (in the table's saver thread)
        if held.is_set():
            release.wait(10)
        write(self, snapshot)
        on_disk.append(len(snapshot.log))

    monkeypatch.setattr(Autosave, "write", slow_write)

    async def play() -> tuple[list[HostMessage], int, int, HostMessage]:
        host = Host(config(players=3, humans=1, deals=1, save=tmp_path, bots="random"))
        port = await host.start("127.0.0.1", 0)
        anna = await Raw.seated(port, "Anna")
        seen = await anna.my_turn()
        with contextlib.suppress(TimeoutError):
            while True:  # whatever the table still had to say before the move
                await anna.next(0.3)
        before = on_disk[-1]
        held.set()
        await anna.answer(seen)
        early: list[HostMessage] = []
        with contextlib.suppress(TimeoutError):
            early.append(await anna.next(0.5))  # the event loop is free: this times out
        written = on_disk[-1]
        release.set()
        told = await anna.until(lambda m: isinstance(m, UpdateMessage))
        await host.stop()
        return early, before, written, told

    early, before, written, told = run(play)
    assert early == []
    assert written == before  # nothing written while the save was held
    assert isinstance(told, UpdateMessage) and on_disk[-1] > before  # told once the move is on disk
