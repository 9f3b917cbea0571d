"""STOPGAP until ``session/master.py`` lands on main: one :class:`TableRunner` made to serve
several seats, behind the host's :class:`~.host.Master` interface. Swapping it for the real
``TableMaster`` is one place (``host._table_master``); then this module goes.

The runner serves one seat shown; here it shows nobody (no hot seat, no one-option steps),
and every change it makes is told, with its raw events, to every seat port, which projects
them for its seat (:func:`~..rules.events.events_for`) and tells its own log.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ..i18n import t
from ..rules.actions import Action
from ..rules.errors import ViraError
from ..rules.events import events_for
from ..session.flow import Ask, FlowEvent
from ..session.narration import Narrator, deal_heading, seating_lines
from ..session.runner import Command, CommittedDeal, Seen, TableRunner, Turn, Update
from ..session.state import table_state
from ..session.table import Table
from ..session.worker import Worker

__all__ = ["RunnerMaster", "StopgapPort"]

# what a change tells the ports: (kind, action, raw events, version)
Told = tuple[str, Action | None, list[FlowEvent], int]


class _Runner(TableRunner):
    """The runner, its every change told with the raw events."""

    tell_ports: Callable[[Told], None]

    def _after(self, action: Action | None, events: list[FlowEvent]) -> Update:
        update = super()._after(action, events)
        self.tell_ports(("move", action, events, self.version))
        return update

    def next_deal(self) -> Update:
        update = super().next_deal()
        self.tell_ports(("next", None, [self.table.deal.started()], self.version))
        return update

    def command(self, command: Command) -> Update:
        update = super().command(command)
        if command in (Command.SETTLE, Command.LAST_ROUND, Command.BORUP):
            self.tell_ports((command.value, None, list(update.events), self.version))
        return update


class RunnerMaster:
    """A table's one authority for the host, over a :class:`TableRunner` (see the module)."""

    def __init__(
        self, table: Table, worker: Worker, *, pause: float, on_committed: Callable[[CommittedDeal], None]
    ) -> None:
        self.bots: set[str] = set()  # players' seats a bot plays for now
        self.runner = _Runner(table, worker, pause=pause, on_committed=on_committed, director=self, viewer="-")
        self.runner.humans = []  # every player at a screen of their own: no hot seat
        self.runner.tell_ports = self._told
        self.ports: list[StopgapPort] = []

    @property
    def table(self) -> Table:
        return self.runner.table

    @property
    def version(self) -> int:
        return self.runner.version

    @property
    def deal_over(self) -> bool:
        return self.runner.deal_over

    @property
    def session_over(self) -> bool:
        return self.runner.session_over

    # the runner's director: a player's seat is the player's unless a bot stands in
    def turn(self, ask: Ask, human: bool) -> Turn:
        return Turn.HUMAN if human and self.table.name_of(ask.seat) not in self.bots else Turn.BOT

    def scripted(self, ask: Ask) -> Action | None:
        raise AssertionError("no script at a network table")

    def asked_of(self, name: str | None) -> Ask | None:
        ask = self.table.ask()
        if ask is None or self.table.name_of(ask.seat) != name:
            return None
        return ask if self.turn(ask, self.table.is_human(ask.seat)) is Turn.HUMAN else None

    def port(self, name: str | None) -> StopgapPort:
        port = StopgapPort(self, name)
        self.ports.append(port)
        return port

    def poll(self, now: float, ready: bool = True) -> None:
        self.runner.poll(now, ready)

    def due_in(self, now: float) -> float | None:
        return self.runner.due_in(now)

    def set_bot(self, name: str, bot: bool, level: str = "normal") -> None:
        if bot:
            self.bots.add(name)
            self.table.let_bot_play(name, level)
        else:
            self.bots.discard(name)
        self.runner.forget_bots()

    def close(self) -> None:
        self.runner.close()

    def _told(self, told: Told) -> None:
        for port in self.ports:
            port.heard(told)


class StopgapPort:
    """One seat's port at a :class:`RunnerMaster` (``name`` None: a spectator)."""

    def __init__(self, master: RunnerMaster, name: str | None) -> None:
        self.master = master
        self.name = name
        self.narrator = Narrator()
        self.outbox: list[Update] = []

    @property
    def seat(self) -> int | None:
        seats = self.master.table.session.seats
        return seats.index(self.name) if self.name in seats else None

    def seen(self) -> Seen:
        table = self.master.table
        state = table_state(
            table.session,
            table.deal_index,
            self.name or "",
            thinking=self.master.runner.thinking_for,
            seating_kind=table.seating,
            colour_order=tuple(s.name for s in table.seats),
        )
        ask = self.master.asked_of(self.name)
        n = self.narrator
        return Seen(self.master.version, state, ask, tuple(n.lines), n.note, None, False, self.master.session_over)

    def opening(self) -> Update:
        table = self.master.table
        fresh = not table.log and table.deal_index == 0
        opening = [*(table.opening_events if fresh else ()), table.deal.started()]
        first = table.deal_index == 0
        head = [*seating_lines(table.draw, table.seating, first), deal_heading(table.session, table.deal_index)]
        self.narrator.retell(head, table.story(self.name or ""), table.session)
        return Update(tuple(events_for(self.seat, opening)), self.master.version)

    def heard(self, told: Told) -> None:
        kind, action, events, version = told
        table = self.master.table
        seen: list[Any] = list(events) if kind == Command.SETTLE.value else events_for(self.seat, events)
        if kind == "move":
            deal, seat = table.deal, self.seat
            view = deal.view(seat) if seat is not None else deal.public_view()
            self.narrator.told(action, seen, view, table.session)
        elif kind == "next":
            self.narrator.next_deal(deal_heading(table.session, table.deal_index))
        elif kind in (Command.LAST_ROUND.value, Command.BORUP.value):
            left = table.session.deals_left
            self.narrator.say(t("log.borup") if kind == Command.BORUP.value else t("log.last_round", deals=left))
        self.outbox.append(Update(tuple(seen), version))

    def submit(self, action: Action | None) -> Update:
        ask = self.master.asked_of(self.name)
        if ask is None:
            raise ViraError(t("message.not_your_turn"))
        self.master.runner.submit(ask.seat, action)
        return self.outbox.pop()

    def command(self, command: Command) -> Update:
        self.master.runner.command(command)
        return self.outbox.pop() if self.outbox else Update(version=self.master.version)

    def poll(self, now: float) -> list[Update]:
        updates, self.outbox = self.outbox, []
        return updates
