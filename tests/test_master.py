"""One master, several ports at once: the shape of a network table. Every player holds a port
and a spectator one more; each is told every change, projected for its seat, and may act
only for its own seat.
"""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

from vira_desktop.rules.cards import Card
from vira_desktop.rules.errors import ViraError
from vira_desktop.rules.games import Game
from vira_desktop.session.master import TableMaster
from vira_desktop.session.port import SeatPort, Seen, Update
from vira_desktop.session.table import SeatConfig, Table
from vira_desktop.session.turns import Command
from vira_desktop.session.wire import dumps, loads

from .test_port import FAMILIES, NAMES, Forced, cards_named, seen_in


def table_of(players: int, seed: int, bots: int = 0) -> Table:
    return Table([SeatConfig(n, i >= bots) for i, n in enumerate(NAMES[:players])], seed=seed)


def play(master: TableMaster, ports: list[SeatPort], rng: random.Random, deals: int) -> list[str]:
    """Play ``deals`` deals, each player answering at random through its own port, and check
    every message each port gives, as the JSON text it turns into (a log line once, when new):
    the cards it names that the port's seat did not know by then."""
    lines = {p.owner: 0 for p in ports}
    known: dict[str, set[Card]] = {p.owner: set() for p in ports}
    deal, leaks = 0, []

    def keep(port: SeatPort, message: object) -> None:
        nonlocal deal
        if master.table.deal_index != deal:
            deal = master.table.deal_index
            for cards in known.values():
                cards.clear()
        state = port.state()
        known[port.owner] |= seen_in(state.view) | ({state.spare_bottom} if state.spare_bottom else set())
        if isinstance(message, Seen):
            message = replace(message, log=message.log[lines[port.owner] :])
            lines[port.owner] += len(message.log)
        text = dumps(message)
        assert loads(text, type(message)) == message
        if extra := cards_named(text) - known[port.owner]:
            leaks.append(f"{port.viewer}: {sorted(map(str, extra))} in {text[:200]}")

    for step in range(20_000):
        master.poll(float(step))
        for port in ports:
            for update in port.poll(float(step)):
                keep(port, update)
            keep(port, port.seen())
            ask = port.asked()
            if ask is not None and ask.view.decision is not None:
                d = ask.view.decision
                use_choice = d.choice is not None and (not d.actions or rng.random() < 0.4)
                action = d.choice.random(rng) if use_choice and d.choice is not None else rng.choice(d.actions)
                keep(port, port.submit(action))
        if master.deal_over:
            for port in ports:  # the deal's end told to every seat, before the next is dealt
                for update in port.poll(float(step)):
                    keep(port, update)
            if master.table.deal_index + 1 >= deals or master.session_over:
                return leaks
            master.next_deal()
    raise AssertionError("the session did not end")


CASES = [(3, 1, None), (4, 2, None)] + [(3 + i % 2, 20 + i, g) for i, g in enumerate(FAMILIES[::3])]


@pytest.mark.parametrize(("players", "seed", "game"), CASES, ids=lambda x: getattr(x, "name", str(x)))
def test_every_port_at_one_table_is_told_only_what_its_seat_may_know(
    players: int, seed: int, game: Game | None
) -> None:
    rng = random.Random(seed)
    table = table_of(players, seed)
    master = TableMaster(table, pause=0, director=Forced(table, game, rng))
    ports = [SeatPort(master, name) for name in NAMES[:players]] + [SeatPort(master, None)]
    leaks = play(master, ports, rng, deals=2)
    assert not leaks, "\n".join(leaks[:5])


def test_a_spectator_sees_no_hand_and_the_same_public_table() -> None:
    table = table_of(3, 7, bots=3)
    master = TableMaster(table, pause=0)
    spectator = SeatPort(master, None)
    for step in range(400):
        master.poll(float(step))
        for update in spectator.poll(float(step)):
            assert loads(dumps(update), Update) == update
        state = spectator.state()
        assert state.viewer is None and not state.view.hand
        assert spectator.asked() is None
        if master.deal_over:
            break
    assert master.deal_over


def test_a_port_acts_only_for_its_own_seat_and_a_refusal_changes_nothing() -> None:
    table = table_of(3, 3)
    master = TableMaster(table, pause=0)
    ports = {name: SeatPort(master, name) for name in NAMES[:3]}
    master.poll(0.0)
    ask = master.human_ask()
    assert ask is not None and ask.view.decision is not None
    on_turn = table.name_of(ask.seat)
    other = next(p for name, p in ports.items() if name != on_turn)
    version = master.version
    with pytest.raises(ViraError):
        other.submit(ask.view.decision.actions[0])  # another seat's action
    with pytest.raises(ViraError):
        ports[on_turn].command(Command.NEXT_DEAL)  # no next deal while one is in play
    assert master.version == version and master.moves == 0
    update = ports[on_turn].submit(ask.view.decision.actions[0])
    assert update.version == master.version > version
    assert all(p.poll(0.0) for name, p in ports.items() if name != on_turn)  # each of the others is told


def test_a_seat_without_undo_may_not_take_back() -> None:
    table = table_of(3, 4)
    master = TableMaster(table, pause=0)
    port = SeatPort(master, NAMES[0], commands=frozenset(Command) - {Command.UNDO}, full_records=False)
    assert not port.can_undo
    with pytest.raises(ViraError):
        port.command(Command.UNDO)
    assert port.finished_record() is None and not port.ask_analysis()


def test_a_seat_handed_to_a_bot_is_played_and_handed_back() -> None:
    """A player who has gone: a bot plays the seat, and the player has it back on return."""
    table = table_of(3, 5, bots=1)  # Anna a bot; Bertil and Cecilia people
    master = TableMaster(table, pause=0)
    bertil = SeatPort(master, "Bertil")
    master.set_bot("Bertil", True)
    master.set_bot("Cecilia", True)
    for step in range(2000):
        master.poll(float(step))
        if master.deal_over:
            break
    assert master.deal_over and bertil.asked() is None
    master.set_bot("Bertil", False)
    master.next_deal()
    for step in range(2000):
        master.poll(float(step))
        if bertil.asked() is not None:
            break
    assert bertil.asked() is not None  # the seat is the player's again
    assert bertil.seen().table.viewer_name == "Bertil"
