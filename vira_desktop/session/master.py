"""The one authority over a table in play, as boardgame.io's master: it holds the table,
applies every answer, lets the bots think (in the background job queue), keeps the pace,
commits finished deals and saves. It never hands the table out: every player, local or
remote, holds a :class:`~.port.SeatPort`, which the master tells of every change; the
port projects it for its seat before anything leaves it.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypedDict

from ..i18n import t
from ..rules.actions import Action
from ..rules.errors import ViraError
from ..rules.events import DealScored
from .flow import Ask, FlowEvent
from .jobs import Job, Jobs
from .narration import deal_heading
from .pace import Pace
from .table import Table
from .turns import BOT_PAUSE_S, Change, Command, CommittedDeal, Director, Happened, Listener, Turn
from .worker import InlineWorker, Worker

__all__ = [
    "BOT_PAUSE_S",
    "Change",
    "Command",
    "CommittedDeal",
    "Director",
    "Happened",
    "Listener",
    "MasterOptions",
    "TableMaster",
    "Turn",
]


class MasterOptions(TypedDict, total=False):
    """How a master runs its table (see :class:`TableMaster`), for whoever makes one."""

    pause: float
    autoplay: int | None
    save: Callable[[Table], object] | None
    on_committed: Callable[[CommittedDeal], None] | None
    on_settled: Callable[[], None] | None
    director: Director | None


class TableMaster:
    """One table in play (see the module). ``worker`` thinks for the bots and the coach (an
    :class:`~.worker.InlineWorker` when none is given: everything at once, in this thread).

    ``pause``: seconds between two moves (a window sets it from the animation speed; 0 in a
    test). ``autoplay``: every seat a bot, this many deals, then :attr:`finished`. ``save`` is
    called after every change with the table (a window hands it to a background writer).
    ``on_committed`` gets every deal once it can no longer be undone; ``on_settled`` the
    session's end (a window's autosave is done with).
    """

    def __init__(
        self,
        table: Table,
        worker: Worker | None = None,
        *,
        pause: float = BOT_PAUSE_S,
        autoplay: int | None = None,
        save: Callable[[Table], object] | None = None,
        on_committed: Callable[[CommittedDeal], None] | None = None,
        on_settled: Callable[[], None] | None = None,
        director: Director | None = None,
    ) -> None:
        self.table = table
        self.worker = worker if worker is not None else InlineWorker()
        self.pause = pause
        self.autoplay = autoplay
        self.save = save
        self.on_committed = on_committed
        self.on_settled = on_settled
        self.director = director
        self.version = 0  # grows with every change a seat could see
        self.jobs = Jobs(self.worker)  # the bots', the coach's and the analysis' work, each at a version
        self.ports: list[Listener] = []  # told of every change (:meth:`join`)
        self.deals_done = 0
        self.finished = False  # autoplay: all its deals are played
        self.held = False  # a window's hot-seat cover is up: no step is taken for its player
        self.pace = Pace(self)
        self._committed: set[int] = set()
        for index, record in enumerate(table.finished):  # a resumed session: history keeps each once
            self._offer(index, record)

    # ------------------------------------------------------------------ the ports
    def join(self, port: Listener) -> None:
        """``port`` is told of every change from now on (a seat's port joins as it is made)."""
        self.ports.append(port)

    def drop(self, port: Listener) -> None:
        """``port`` is closed: it is told nothing more."""
        if port in self.ports:
            self.ports.remove(port)

    def _tell(
        self, change: Change, action: Action | None = None, events: list[FlowEvent] | None = None, said: str = ""
    ) -> None:
        """A new version, told to every port."""
        self.bump()
        happened = Happened(change, self.version, action, tuple(events or ()), said)
        for port in self.ports:
            port.heard(happened)

    def bump(self) -> None:
        """A new version: the work asked for the old one is no longer wanted."""
        self.version += 1
        self.jobs.moved_on(self.version)

    @property
    def players(self) -> tuple[str, ...]:
        return tuple(c.name for c in self.table.seats)

    @property
    def humans(self) -> list[str]:
        return [c.name for c in self.table.seats if c.human]

    @property
    def deal_over(self) -> bool:
        return self.table.deal.is_over

    @property
    def session_over(self) -> bool:
        return self.table.session.is_over

    @property
    def moves(self) -> int:
        """The actions taken in the deal in play."""
        return len(self.table.deal.history)

    @property
    def fresh(self) -> bool:
        return not self.table.log and self.table.deal_index == 0

    # ------------------------------------------------------------------ who is asked
    def turn(self, ask: Ask) -> Turn:
        human = self.table.is_human(ask.seat)
        if self.director is not None:
            return self.director.turn(ask, human)
        return Turn.HUMAN if human else Turn.BOT

    def human_ask(self) -> Ask | None:
        """The question standing, when a player (not a bot or a script) is to answer it."""
        ask = self.table.ask()
        return ask if ask is not None and self.turn(ask) is Turn.HUMAN else None

    def asked_of(self, name: str | None) -> Ask | None:
        """The question player ``name`` must answer now (``None``: nothing for that player)."""
        ask = self.human_ask()
        return ask if ask is not None and self.table.name_of(ask.seat) == name else None

    @property
    def bot_thinking(self) -> bool:
        return self.pace.bot_thinking

    @property
    def thinking_for(self) -> str | None:
        """The player whose bot is thinking."""
        return self.pace.thinking_for

    def set_bot(self, name: str, bot: bool, level: str = "normal") -> None:
        """A bot plays ``name``'s seat from now on (``bot``), or the player has it back."""
        if bot != self.table.seat_config(name).human:
            return  # as it is
        self.forget_bots()
        self.table.set_human(name, not bot, level)

    # ------------------------------------------------------------------ acting
    def answer(self, name: str | None, action: Action | None) -> None:
        """Player ``name``'s answer to the question standing (``None`` declines an offer).
        Raises :class:`ViraError` with the reason when it is not that player's turn or not
        legal; the table is then unchanged."""
        ask = self.asked_of(name)
        if ask is None:
            raise ViraError(t("message.not_your_turn"))
        self.apply(ask, action, human=True)

    def apply(self, ask: Ask, action: Action | None, human: bool, said: str = "") -> None:
        """Answer ``ask`` and tell every port (``said``: a line for the log with it)."""
        events = self.table.answer(ask, action, human=human)
        self.pace.moved()
        if any(isinstance(ev, DealScored) for ev in events):
            self.deals_done += 1
            if not self.table.can_undo():
                self._commit()
        self._save()
        self._tell(Change.MOVE, action, events, said)

    def _save(self) -> None:
        if self.save is not None:
            self.save(self.table)

    def command(self, command: Command) -> None:
        """Undo, the next deal, or how the session ends. Raises ``ViraError`` when it cannot
        be done now (nothing to undo, a deal still in play, the session over)."""
        if command is Command.UNDO:
            self.undo()
        elif command is Command.SETTLE:
            self.settle()
        elif command is Command.NEXT_DEAL:
            self.next_deal()
        else:
            self.table.end_session(command.value)
            left = self.table.session.deals_left
            self._save()
            said = t("log.borup") if command is Command.BORUP else t("log.last_round", deals=left)
            self._tell(Change.SAID, said=said)

    def undo(self) -> None:
        """Take back the last human action of this deal (and the bots' answers to it)."""
        if not self.table.can_undo():
            raise ViraError(t("message.no_undo"))
        self.forget_bots()
        self.table.undo()
        self._save()
        self._tell(Change.REBUILT, said=t("log.undo"))

    def rebuilt(self, actions: list[Action]) -> None:
        """The deal started again with ``actions`` applied (a lesson going back to a step)."""
        self.forget_bots()
        self.table.restart(actions)
        self._tell(Change.REBUILT)

    def settle(self) -> None:
        """The session's end: the deal committed to history, the pulla shared out (its ledger
        events told), the autosave done with (``on_settled``). Raises ``ViraError`` while a
        deal is in play."""
        if not self.deal_over:
            raise ViraError(t("message.no_next_deal"))
        self.close()
        session = self.table.session
        events: list[FlowEvent] = list(session.settle()[1]) if session.settlement is None else []
        if self.on_settled is not None:
            self.on_settled()
        self._tell(Change.SETTLED, events=events)

    def next_deal(self) -> None:
        """Deal the next deal (the deal in play must be over and the session not)."""
        if not self.deal_over or self.session_over:
            raise ViraError(t("message.no_next_deal"))
        self._commit()
        self.forget_bots()
        self.table.next_deal()
        self._save()
        self._tell(
            Change.NEXT_DEAL,
            events=[self.table.deal.started()],
            said=deal_heading(self.table.session, self.table.deal_index, again=self.table.played_again),
        )

    def close(self) -> None:
        """The table is left: a finished deal is final now."""
        if self.deal_over:
            self._commit()

    def _commit(self) -> None:
        if self.deal_over:
            self._offer(self.table.deal_index, self.table.record())

    def _offer(self, index: int, record: dict[str, Any]) -> None:
        """Hand deal ``index`` of the session (over, and no longer to be undone) to the hook, once."""
        if index in self._committed:
            return
        self._committed.add(index)
        if self.on_committed is None:
            return
        t_ = self.table
        levels = {c.name: "human" if c.human else c.level for c in t_.seats}
        players = tuple(c.name for c in t_.seats)
        parent = t_.parent if index == 0 else None
        bowl = {kind.name.lower(): count for kind, count in t_.bowl.items()} if t_.bowl else None
        self.on_committed(
            CommittedDeal(index, record, t_.session.seats, levels, t_.key, t_.started, players, parent, bowl)
        )

    def forget_bots(self) -> None:
        """Drop the bots' work in hand: the table is about to be rebuilt (a new version)."""
        self.pace.forget()
        self.jobs.forget()
        self.bump()

    # ------------------------------------------------------------------ the clock
    def poll(self, now: float, ready: bool = True) -> None:
        """Move the table on at time ``now`` (see :meth:`.pace.Pace.poll`). Never waits."""
        self.pace.poll(now, ready)

    def due_in(self, now: float) -> float | None:
        """Seconds from ``now`` until the table moves by itself (see :meth:`.pace.Pace.due_in`)."""
        return self.pace.due_in(now)

    def job_in(self, job: Job, result: object) -> None:
        """A port's job is in: handed to the port that asked."""
        for port in self.ports:
            if port.owner == job.owner:
                port.job_in(job.kind, result)
