"""A connection that dies without a close (a laptop lid shut, a cable pulled) is found by the
heartbeat: its seat is held, a bot plays it after the host's timeout, the table never waits on
it; and the player who comes back after the bot has played for her takes the seat again, her
next answer accepted. Loopback only, every wait bounded.
"""

from __future__ import annotations

import asyncio

from tests.test_net import NAMES, Raw, bot_player, config, run
from vira_desktop.net.host import Host, NetTable
from vira_desktop.net.protocol import State, UpdateMessage
from vira_desktop.session.port import Seen


def moves(table: NetTable) -> int:
    """The actions taken so far in the table's deal in play."""
    return len(table.master.table.deal.history) if table.master is not None else 0


def test_a_dead_connection_is_found_by_its_heartbeat_its_seat_held_and_taken_back_after_the_bot_played() -> None:
    async def silent() -> tuple[int, int, Seen, object, list[int]]:
        host = Host(config(players=3, deals=1, seat_timeout=0.5, ping_interval=0.2, ping_timeout=0.3))
        port = await host.start("127.0.0.1", 0)
        cecilia = await Raw.seated(port, "Cecilia")
        assert cecilia.welcome is not None
        token = cecilia.welcome.token
        players = [asyncio.create_task(bot_player(port, name).run()) for name in NAMES[:2]]
        seen = await cecilia.my_turn()
        await cecilia.answer(seen)
        await cecilia.my_turn()  # her question stands when her connection goes silent
        cecilia.ws.transport.pause_reading()  # no pong, no close frame: the connection just stops
        table = host.tables["v-1"]
        member = next(m for m in table.members if m.name == "Cecilia")
        for _ in range(500):  # (bounded: 5 s) the heartbeat finds it, then a bot takes the seat
            if member.bot:
                break
            await asyncio.sleep(0.01)
        moves_when_bot = moves(table)
        for _ in range(500):  # the table goes on without her: the bot plays her seat
            if moves(table) > moves_when_bot + 3:
                break
            await asyncio.sleep(0.01)
        moves_back = moves(table)
        back = await Raw.seated(port, "Cecilia", token)  # back after the bot played for her
        state = await back.until(lambda m: isinstance(m, State))
        assert isinstance(state, State)
        taken = await back.play_out(state)  # she plays the deal out; her first answer is taken
        codes = await asyncio.gather(*players)
        await host.stop()
        return moves_when_bot, moves_back, state.seen, taken, codes

    moves_when_bot, moves_back, seen, taken, codes = run(silent, 60)
    assert moves_back > moves_when_bot  # the table did not wait on the silent connection
    assert seen.table.viewer_name == "Cecilia"  # the seat was held for her, not freed
    assert isinstance(taken, UpdateMessage) and taken.update.events  # her answer after coming back was taken
    assert codes == [0, 0]
