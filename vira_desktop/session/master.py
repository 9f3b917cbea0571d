"""The one authority over a table in play, as boardgame.io's master: it holds the table,
applies every answer, lets the bots think (in the background job queue), keeps the pace,
commits finished deals and saves. It never hands the table out: every player, local or
remote, holds a :class:`~.port.SeatPort`, which the master tells of every change; the
port projects it for its seat before anything leaves it.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass
from enum import Enum
from typing import Any, Protocol

from ..ai import Choice
from ..i18n import t
from ..rules.actions import Action
from ..rules.decision import Phase
from ..rules.errors import ViraError
from ..rules.events import DealScored
from .flow import Ask, FlowEvent
from .jobs import Job, JobKind, Jobs
from .narration import deal_heading
from .table import Table
from .thinking import bot_choice
from .words import say_action
from .worker import InlineWorker, Worker

__all__ = [
    "BOT_PAUSE_S",
    "Change",
    "Command",
    "CommittedDeal",
    "Director",
    "Happened",
    "Listener",
    "TableMaster",
    "Turn",
]

log = logging.getLogger(__name__)

BOT_PAUSE_S = 0.45  # between two moves at normal speed, so a player can follow


class Turn(Enum):
    """Who answers a question at the table."""

    HUMAN = "human"  # a player answers through a seat port
    BOT = "bot"  # the seat's bot, in the worker
    SCRIPT = "script"  # a prepared line answers (a lesson's main line)
    WAIT = "wait"  # nobody, for now (a lesson step waiting for its Next)


class Command(Enum):
    """What a player may ask of the table besides an action."""

    NEXT_DEAL = "next deal"
    LAST_ROUND = "last round"  # each player forehand once more, then Borup
    BORUP = "borup"  # the next deal is the last
    UNDO = "undo"
    SETTLE = "settle"  # the session is over: share the pulla (the autosave is done with)


class Director(Protocol):
    """Decides who answers each question (a lesson directs its table this way)."""

    def turn(self, ask: Ask, human: bool) -> Turn: ...

    def scripted(self, ask: Ask) -> Action | None:
        """The prepared answer to ``ask`` (``None``: decline the offer)."""
        ...


class Change(Enum):
    """What kind of change the ports are told of."""

    MOVE = "move"  # an answer applied
    REBUILT = "rebuilt"  # the deal stands as it was before (an undo, a lesson's step again)
    NEXT_DEAL = "next deal"
    SAID = "said"  # nothing moved; a line for every log (the last round agreed)
    SETTLED = "settled"  # the pulla shared out at the session's end


@dataclass(frozen=True)
class Happened:
    """One change as the master saw it, raw: the ports project it (it never leaves them)."""

    change: Change
    version: int
    action: Action | None = None
    events: tuple[FlowEvent, ...] = ()
    said: str = ""  # a line for the log (an answer taken for its player, the last round)


class Listener(Protocol):
    """Who is told of every change: a seat's port (:class:`~.port.SeatPort`)."""

    owner: str  # its key in the job queue: the answers of the jobs it asked are handed to it

    def heard(self, happened: Happened) -> None: ...

    def job_in(self, kind: JobKind, result: object) -> None: ...


@dataclass(frozen=True)
class CommittedDeal:
    """A finished deal that can no longer be undone: what history keeps."""

    index: int  # in the session, from 0
    record: dict[str, Any]  # the deal record (docs/deal-record.md), its result included
    seats: tuple[str, str, str]  # the deal's seats, forehand first
    levels: dict[str, str]  # each bot's level by name ("human" for a person)
    session_key: str = ""  # the table's own key (kept in its save): which session the deal is of
    started: str = ""  # when the session began (ISO 8601, UTC)
    players: tuple[str, ...] = ()  # everyone at the table, in table order
    parent: tuple[int, int] | None = None  # played again: (the deal in history, after so many of its actions)
    bowl: dict[str, int] | None = None  # each player's bowl as the session began, by kind (None: the default)


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
        save: Callable[[Table], None] | None = None,
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
        self.thinking_for: str | None = None
        self._pending: object = None  # a bot's answer (a Choice, or what its job raised), held for the pause
        self._not_before = 0.0
        self._now = 0.0
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
        return self.jobs.busy(JobKind.BOT) or self._pending is not None

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
        self._answer(ask, action, human=True)

    def _answer(self, ask: Ask, action: Action | None, human: bool, said: str = "") -> None:
        events = self.table.answer(ask, action, human=human)
        self._not_before = self._now + self.pause
        self._pending = None
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
            said=deal_heading(self.table.session, self.table.deal_index),
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
        self._pending = None
        self.thinking_for = None
        self.jobs.forget()
        self.bump()

    # ------------------------------------------------------------------ the clock
    def poll(self, now: float, ready: bool = True) -> None:
        """Move the table on at time ``now`` (seconds, any clock): take the worker's answers
        (a port's are handed to it), and, when ``ready`` (nothing is animating) and the pause
        since the last move is over, apply the next bot's or script's answer, take a
        one-option step, or deal the next autoplayed deal. Never waits."""
        self._now = now
        for job, result in self.jobs.answers(self.version):  # only what was asked at this version
            if job.kind is JobKind.BOT:
                self._pending = result
            else:
                self._job_in(job, result)
        if ready and now >= self._not_before:
            self._move()
        self._think()

    def _job_in(self, job: Job, result: object) -> None:
        for port in self.ports:
            if port.owner == job.owner:
                port.job_in(job.kind, result)

    def _move(self) -> None:
        """One move by whoever is due: the pending bot answer, the script, a one-option step,
        the next autoplayed deal."""
        ask = self.table.ask()
        if ask is None:
            self._autoplay_next()
            return
        turn = self.turn(ask)
        if turn is Turn.SCRIPT and self.director is not None:
            self._answer(ask, self.director.scripted(ask), human=False)
        elif turn is Turn.BOT and self._pending is not None:
            self._bot_answer(ask, self._pending)
        elif turn is Turn.HUMAN and (only := self.only_answer()) is not None:
            action = only[1]
            self._answer(ask, action, human=True, said=t("log.only_choice", what=say_action(action)))

    def _bot_answer(self, ask: Ask, pending: object) -> None:
        self._pending = None
        self.thinking_for = None
        choice = pending if isinstance(pending, Choice) else None
        if choice is None or (choice.action is None and not ask.optional):
            log.error("the worker's bot failed (%r); asking the bot in this process", pending)
            bot = self.table.bot_for(ask)
            assert bot is not None
            choice = bot.choose(ask.view)
        try:
            self._answer(ask, choice.action, human=False)
        except (ViraError, ValueError) as exc:  # report, and ask again
            log.error("a bot's answer was refused: %s", exc)
            self.jobs.again(JobKind.BOT)

    def _think(self) -> None:
        """Start the bot that is asked, if it is a bot's turn and none is thinking. Never waits."""
        if self.bot_thinking:
            return
        ask = self.table.ask()
        if ask is None or self.turn(ask) is not Turn.BOT:
            return
        spec = self.table.bot_spec(ask)
        if spec is None:  # a human's seat a lesson lets the bots play: made on the spot
            self.table.let_bot_play(self.table.name_of(ask.seat))
            spec = self.table.bot_spec(ask)
            assert spec is not None
        if self.jobs.ask(JobKind.BOT, self.version, bot_choice, spec, ask.view):
            self.thinking_for = self.table.name_of(ask.seat)

    def only_answer(self) -> tuple[Ask, Action] | None:
        """A player's question and its one possible answer, where there is one ("high" for a
        gask bid in suit, nothing to discard); never a bid, a card to play or the choice
        after buying, and not while a hot-seat cover is up (the player sees it taken)."""
        ask = self.human_ask()
        if ask is None or ask.optional or ask.view.decision is None or self.held:
            return None
        decision = ask.view.decision
        if decision.phase in (Phase.AUCTION, Phase.PLAY, Phase.DECIDE):
            return None
        choice = decision.choice
        if choice is None and len(decision.actions) == 1:
            return ask, decision.actions[0]
        if not decision.actions and choice is not None and choice.max_count == 0:
            return ask, choice.make([])
        return None

    def due_in(self, now: float) -> float | None:
        """Seconds from ``now`` until the master will move by itself (0: it works now, a bot
        or the coach thinking; ``None``: it waits for a player, or for nobody)."""
        if self.worker.pending():
            return 0.0
        wait = max(0.0, self._not_before - now)
        if self._pending is not None:
            return wait  # a bot's answer, held for the pause after the last move
        ask = self.table.ask()
        if ask is None:
            due = self.autoplay is not None and self.deal_over and not self.finished
            return wait if due else None
        turn = self.turn(ask)
        if turn is Turn.SCRIPT:
            return wait
        if turn is Turn.BOT:
            return 0.0  # a bot is about to be asked
        if turn is Turn.HUMAN and self.only_answer() is not None:
            return wait
        return None

    def _autoplay_next(self) -> None:
        if self.autoplay is None or not self.deal_over:
            return
        if self.deals_done >= self.autoplay or self.session_over:
            self.finished = True
            return
        self._not_before = self._now + self.pause
        self.next_deal()
