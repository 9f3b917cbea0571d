"""The host's writing of states: :class:`StateWriter` writes each seat's state to the byte as
:func:`encode` does, the score sheet written once a deal for every seat."""

from __future__ import annotations

from vira_desktop.ai import make_bot
from vira_desktop.net.host import NetMaster
from vira_desktop.net.protocol import State, StateWriter, encode
from vira_desktop.session.factory import new_table
from vira_desktop.session.master import Command
from vira_desktop.session.table import SeatConfig

NAMES = ("Anna", "Bertil", "Cecilia")


def test_the_state_writer_writes_every_seat_s_state_to_the_byte_as_encode_does_deal_after_deal() -> None:
    master = NetMaster(new_table([SeatConfig(n, True, "random") for n in NAMES], 3), pause=0.0)
    house = master.port(None)
    house.opening()
    ports = [master.port(n) for n in NAMES]
    for port in ports:
        port.opening()
    bots = [make_bot("random", i) for i in range(3)]
    writer, other = StateWriter(), StateWriter()
    compared = sheets = 0
    for now in range(1, 400):
        master.poll(float(now))
        house.poll(float(now))
        if master.deal_over:
            if master.session_over or master.table.deal_index >= 3:
                break
            house.command(Command.NEXT_DEAL)
        asked = []
        for port, bot in zip(ports, bots, strict=True):
            port.poll(float(now))
            seen = port.seen()
            assert writer.encode(State(seen)) == encode(State(seen))
            compared += 1
            sheets = max(sheets, len(seen.table.deals))
            if seen.ask is not None:
                asked.append((port, bot.choose(seen.ask.view).action))
        for port, action in asked:
            port.submit(action)
    assert sheets >= 3 and compared > 100
    empty = NetMaster(new_table([SeatConfig(n, True, "random") for n in NAMES], 4), pause=0.0).port("Anna")
    empty.opening()
    for seen in (ports[0].seen(), empty.seen(), ports[1].seen()):  # a sheet, then another (shorter), then back
        assert other.encode(State(seen)) == encode(State(seen))
