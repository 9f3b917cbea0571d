"""One seat's door to a table in play: what a window, a lesson or a network seat holds.

A :class:`SeatPort` is told of every change by the :class:`~.master.TableMaster` and
projects it for its seat before anything leaves it: the :class:`Update`\\ s it hands out and
the :class:`Seen` state name no card that seat may not know (another seat's buy is told by
its events, which count the cards but do not name them), so either may be sent as it is
(:mod:`.wire`). The port also keeps the seat's own log and its own asks of the coach
(a hint, the word on each bid, a finished deal's analysis), through the table's one job queue.
"""

from __future__ import annotations

import itertools
import logging
from dataclasses import dataclass
from typing import Any, Protocol

from ..i18n import t
from ..rules.actions import Action, Bid
from ..rules.decision import Phase
from ..rules.errors import ViraError
from ..rules.events import events_for
from ..rules.view import View
from .analysis import LAYOUTS, Analysis, Steps
from .coach import BidAdvice, Hint
from .flow import Ask, FlowEvent
from .jobs import JobKind
from .master import TableMaster
from .narration import Narrator, deal_heading, seating_lines
from .record import read_record
from .state import TableState, table_state
from .thinking import coach_bids, coach_hint, side_of
from .turns import Change, Command, Happened
from .words import say_refusal

__all__ = ["ClientFacts", "SeatPort", "Seen", "TableClient", "Update"]

log = logging.getLogger(__name__)
_KEYS = itertools.count(1)


@dataclass(frozen=True)
class Update:
    """What changed at the table, for one seat: nothing in it names a card that seat may not
    know, so it may be sent to that seat as it is (:mod:`.wire`)."""

    events: tuple[FlowEvent, ...] = ()  # projected for the seat
    version: int = 0  # the table's version after the change
    snap: bool = False  # lay the table out at once: another seat is shown, or it was rebuilt
    hint: Hint | None = None  # the coach's answer to a hint asked for the question standing
    hint_failed: bool = False
    advice: dict[Bid, BidAdvice] | None = None  # the coach's word on each bid of the auction turn standing
    analysis: Analysis | None = None  # the finished deal's analysis, as asked for
    analysing: tuple[int, int] | None = None  # the analysis in work: the tricks judged so far, of all
    refused: str = ""  # a shared table's host refused the seat's answer or command: why (the table unchanged)


@dataclass(frozen=True)
class Seen:
    """What a seat is given of the table at one version: the table as it may know it, the
    question standing for it, the log told from its side, the hot-seat cover. Whatever a
    window, a lesson or a network seat draws comes from here (:mod:`.wire` sends it)."""

    version: int
    table: TableState
    ask: Ask | None  # the question the seat must answer now
    log: tuple[str, ...]
    note: str  # the partner's Ågren marking, while it stands
    cover: str | None  # hot seat: the player the screen is passed to, until lifted
    can_undo: bool
    session_over: bool


class SeatPort:
    """Player ``viewer``'s port to ``master``'s table (``None``: a spectator). ``commands``:
    what this seat may ask besides its actions (a network seat: no undo). ``full_records``:
    whether it may have a finished deal's whole record (export, analysis): a window's player
    may; at a table of several people, only the deal's own cards its seat has seen."""

    def __init__(
        self,
        master: TableMaster,
        viewer: str | None,
        commands: frozenset[Command] = frozenset(Command),
        full_records: bool = True,
    ) -> None:
        self.master = master
        self.viewer = viewer
        self.commands = commands
        self.full_records = full_records
        self.owner = f"port{next(_KEYS)}"  # this port's jobs in the table's queue
        self.narrator = Narrator()
        self.title: list[str] | None = None  # the log's head of the caller's own (a lesson's title), kept
        self.cover: str | None = None  # hot seat: the player the screen is passed to, until lifted
        self.hint_every_decision = False  # ``--hints``: ask the coach at each decision of the seat
        self.coach_bids = False  # the coach weighs every bid of the seat's auction turns (the grid's colours)
        self.analysis_layouts = LAYOUTS  # layouts each card of the analysis is judged over
        self.hints_asked = 0
        self._outbox: list[Update] = []
        self._hint: tuple[int, Hint] | None = None  # (version, the coach's answer for its question)
        self._hint_failed: int | None = None  # the version at which the coach failed a hint
        self._advice: tuple[int, dict[Bid, BidAdvice]] | None = None
        self._analysis: tuple[int, Analysis] | None = None
        self._steps: tuple[int, Steps] | None = None  # (version, the analysis being worked out in steps)
        self._seen: tuple[tuple[object, ...], Seen] | None = None  # the last state given, and what it was made of
        master.join(self)

    # ------------------------------------------------------------------ what is shown
    @property
    def version(self) -> int:
        return self.master.version

    def seen(self) -> Seen:
        """The table at this version as the seat may know it (the port's state); made again
        only when something in it may have changed (a window asks every frame)."""
        lines = self.narrator.lines
        key = (self.version, len(lines), lines[-1] if lines else "", self.master.thinking_for, self.cover, self.viewer)
        if self._seen is None or self._seen[0] != key:
            state = self.state()
            log = tuple(lines)
            seen = Seen(
                self.version,
                state,
                self.asked(),
                log,
                self.narrator.note,
                self.cover,
                self.can_undo,
                self.master.session_over,
            )
            self._seen = (key, seen)
        return self._seen[1]

    def state(self, with_seating: bool = False) -> TableState:
        """The table as the seat may know it."""
        table = self.master.table
        return table_state(
            table.session,
            table.deal_index,
            self.viewer or "",
            thinking=self.master.thinking_for,
            seating=table.draw if with_seating else None,
            seating_kind=table.seating,
            colour_order=self.master.players,
            undone=tuple(table.undone),
            again=table.played_again,
        )

    @property
    def seat(self) -> int | None:
        """The seat's place in the deal in play (``None``: sitting out, or a spectator)."""
        seats = self.master.table.session.seats
        return seats.index(self.viewer) if self.viewer in seats else None

    def view(self) -> View:
        """What the seat may know now (everyone's view for a player sitting out)."""
        deal, seat = self.master.table.deal, self.seat
        return deal.view(seat) if seat is not None else deal.public_view()

    def asked(self) -> Ask | None:
        """The question this seat must answer now (``None``: nothing for it; under a hot-seat
        cover the question stands, for the player about to take the screen)."""
        return self.master.asked_of(self.viewer)

    @property
    def can_undo(self) -> bool:
        return Command.UNDO in self.commands and self.master.table.can_undo()

    def refusal(self, action: Action) -> str | None:
        """Why ``action`` is not legal now, in the player's words (``None``: it is legal)."""
        try:
            self.master.table.deal.check(action)
        except ViraError as exc:
            return self.say_refusal(exc)
        return None

    def say_refusal(self, exc: ViraError) -> str:
        """A refusal in the player's words, the seats named."""
        return say_refusal(exc, self.master.table.session.seats)

    # ------------------------------------------------------------------ the log
    def opening(self) -> Update:
        """The table as the seat first sees it: the log told from the start of the deal (the
        seating and the åla at a fresh table), and the events that show the deal."""
        master = self.master
        opening = [*(master.table.opening_events if master.fresh else ()), master.table.deal.started()]
        self.retell(self.heading(seating=True))
        return Update(tuple(events_for(self.seat, opening)), self.version)

    def heading(self, seating: bool) -> list[str]:
        """The log's head for the deal in play: its number, dealer and forehand, under the
        seating (when asked for, and always in the first deal) and the first deal's åla (a
        deal played again at its table as it began: said so instead)."""
        table = self.master.table
        first = table.deal_index == 0
        if table.played_again and first:  # a deal played again, at its table as it began: no draw, no åla
            above = [t("log.again")]
        else:
            above = seating_lines(table.draw, table.seating, first) if seating or first else []
        return [*above, deal_heading(table.session, table.deal_index, again=table.played_again)]

    def retell(self, heading: list[str] | None = None) -> None:
        """Tell the deal in play again from its start (after Continue, an undo, Try again),
        under ``heading`` (by default the deal's own, the first deal's seating and åla too)."""
        head = heading if heading is not None else self.title or self.heading(seating=False)
        table = self.master.table
        self.narrator.retell(head, table.story(self.viewer or ""), table.session)

    def heard(self, happened: Happened) -> None:
        """The master tells of a change: told in this seat's log, and an update projected for it."""
        change, session = happened.change, self.master.table.session
        snap = False
        if change is Change.MOVE:
            self.narrator.told(happened.action, happened.events, self.view(), session)
        elif change is Change.REBUILT:
            self.retell()
            snap = True
        elif change is Change.NEXT_DEAL:
            self.narrator.next_deal(happened.said)
        if happened.said and change is not Change.NEXT_DEAL:
            self.narrator.say(happened.said)
        events = happened.events if change is Change.SETTLED else tuple(events_for(self.seat, happened.events))
        self._outbox.append(Update(events, happened.version, snap))

    # ------------------------------------------------------------------ acting
    def submit(self, action: Action | None) -> Update:
        """The seat's answer (``None`` declines an offer). Raises :class:`ViraError` with
        the reason when it is not legal or not this seat's turn; the table is then unchanged."""
        self.master.answer(self.viewer, action)
        return self.latest()

    def command(self, command: Command) -> Update:
        """Undo, the next deal, or how the session ends. Raises ``ViraError`` when it cannot
        be done now, or not by this seat."""
        if command not in self.commands:
            raise ViraError(t("message.not_your_turn"))
        self.master.command(command)
        return self.latest()

    def latest(self) -> Update:
        """The update of the change just made through this port (handed out here, not by :meth:`poll`)."""
        return self._outbox.pop()

    def poll(self, now: float) -> list[Update]:
        """The updates since the last poll (the bots' moves and the other seats' among them);
        asks the coach what this seat has it weigh. Never waits."""
        if self.hint_every_decision and self.asked() is not None:
            self._submit_hint()
        self._ask_advice()
        updates, self._outbox = self._outbox, []
        return updates

    @property
    def waiting(self) -> bool:
        """Updates are in, not handed out yet."""
        return bool(self._outbox)

    # ------------------------------------------------------------------ the coach and the analysis
    def ask_hint(self) -> bool:
        """Ask the coach about the question standing; its answer comes in an update from
        :meth:`poll`. ``False``: nothing is asked now."""
        ask = self.asked()
        if ask is None or ask.view.decision is None:
            return False
        if self._hint_failed == self.version:  # the player asks again after a failure: it may be asked again
            self._hint_failed = None
            self.master.jobs.again(JobKind.HINT, self.owner)
        self._submit_hint()
        return True

    def _submit_hint(self) -> None:
        ask = self.asked()
        if ask is None:
            return
        if not self.master.jobs.ask(JobKind.HINT, self.version, coach_hint, ask.view, owner=self.owner):
            if self._hint is not None and self._hint[0] == self.version:  # asked again: told again
                self._outbox.append(Update(hint=self._hint[1], version=self.version))
            return  # (one still in work comes by itself)
        self.hints_asked += 1

    def job_in(self, kind: JobKind, result: object) -> None:
        """The answer of a job this port asked for, at the version standing."""
        version = self.version
        if kind is JobKind.HINT and isinstance(result, Hint):
            self._hint = (version, result)
            self._outbox.append(Update(hint=result, version=version))
        elif kind is JobKind.HINT:
            self._hint_failed = version  # asked for again by the player only (--hints would loop at frame rate)
            log.error("the coach failed: %r", result)
            self._outbox.append(Update(hint_failed=True, version=version))
        elif kind is JobKind.ADVICE and isinstance(result, dict):
            self._advice = (version, result)
            self._outbox.append(Update(advice=result, version=version))
        elif kind is JobKind.ANALYSIS and self._steps is not None and not isinstance(result, Exception):
            steps = self._steps[1]
            done = steps.take(result)
            if done is None:
                self._outbox.append(Update(analysing=steps.progress, version=version))
                self._ask_step()
            else:
                self._analysis, self._steps = (version, done), None
                self._outbox.append(Update(analysis=done, version=version))
        else:
            log.error("the %s job failed: %r", kind.value, result)
            if kind is JobKind.ANALYSIS:
                self.master.jobs.again(kind, self.owner)

    def advice(self) -> dict[Bid, BidAdvice] | None:
        """The coach's advice on each bid of the seat's auction turn standing, once worked out."""
        return self._advice[1] if self._advice is not None and self._advice[0] == self.version else None

    def _ask_advice(self) -> None:
        """Ask the coach about every bid, once per auction turn of the seat (off the frame
        loop, in the worker); the answer comes in an update from :meth:`poll`."""
        ask = self.asked() if self.coach_bids else None
        if ask is None or ask.optional or ask.view.decision is None or ask.view.phase is not Phase.AUCTION:
            return
        if self.advice() is None:
            self.master.jobs.ask(JobKind.ADVICE, self.version, coach_bids, ask.view, owner=self.owner)

    def finished_record(self) -> tuple[int, dict[str, Any]] | None:
        """The deal just finished as a deal record, with its number in the session (``None``:
        a deal in play, whose record would show every hidden card, or a seat not given whole
        records)."""
        master = self.master
        if not master.deal_over or not self.full_records:
            return None
        return master.table.deal_index, master.table.record()

    def can_analyse(self) -> bool:
        """Whether the deal is over and its cards were played (a laid deal has no play)."""
        return self.full_records and self.master.deal_over and bool(self.master.table.deal.tricks_played)

    def ask_analysis(self) -> bool:
        """Ask for the finished deal's double-dummy analysis (in the worker; it comes in an
        update from :meth:`poll`, or at once when worked out before). ``False``: no deal to
        analyse."""
        finished = self.finished_record() if self.can_analyse() else None
        if finished is None:
            return False
        if self.analysis() is None and (self._steps is None or self._steps[0] != self.version):
            record = read_record(finished[1], self.master.table.deal.rules)
            steps = Steps(record, side_of(record, self.viewer or ""), self.analysis_layouts)
            self._steps = (self.version, steps)
            self._ask_step()
        elif self.analysis() is None and not self.master.jobs.busy(JobKind.ANALYSIS, self.owner):
            self._ask_step()  # asked again after a step failed: from that step on
        return True

    def _ask_step(self) -> None:
        """Ask for the analysis's next step (one job each, in the table's queue)."""
        assert self._steps is not None
        fn, args = self._steps[1].job()
        self.master.jobs.again(JobKind.ANALYSIS, self.owner)
        self.master.jobs.ask(JobKind.ANALYSIS, self.version, fn, *args, owner=self.owner)

    def analysis(self) -> Analysis | None:
        """The finished deal's analysis, once worked out (``None``: not asked, or not in yet)."""
        return self._analysis[1] if self._analysis is not None and self._analysis[0] == self.version else None


class TableClient(Protocol):
    """What a table scene holds, and all it holds of the game: one seat's door to a table in
    play (:class:`~.runner.TableRunner` at this screen, a lesson's through it; a network
    seat's the same messages over a socket). Everything it gives is projected for the seat
    shown; nothing in it is the table, the session or the deal."""

    @property
    def viewer(self) -> str:
        """The player whose seat is shown."""
        ...

    pause: float  # seconds between two moves (the window follows its animation speed)
    coach_bids: bool  # the coach weighs every bid of the seat's auction turns (the grid's colours)

    def start(self) -> Update:
        """The table as it opens (its events show the deal)."""
        ...

    def seen(self) -> Seen: ...

    def state(self, with_seating: bool = False) -> TableState: ...

    def asked(self) -> Ask | None:
        """The question the seat shown must answer now."""
        ...

    def submit(self, seat: int, action: Action | None) -> Update:
        """The seat's answer; raises ``ViraError`` (the table unchanged) when it is refused."""
        ...

    def command(self, command: Command) -> Update: ...

    def refusal(self, action: Action) -> str | None:
        """Why ``action`` is not legal now, in the player's words (``None``: it is)."""
        ...

    def say_refusal(self, exc: ViraError) -> str: ...

    def poll(self, now: float, ready: bool = True) -> list[Update]:
        """What changed since the last poll, and the table moved on by the clock; never waits."""
        ...

    def due_in(self, now: float) -> float | None:
        """Seconds until the table moves by itself (``None``: it waits for input)."""
        ...

    def lift_cover(self) -> None: ...

    def ask_hint(self) -> bool: ...

    def advice(self) -> dict[Bid, BidAdvice] | None: ...

    def ask_analysis(self) -> bool: ...

    def analysis(self) -> Analysis | None: ...

    def finished_record(self) -> tuple[int, dict[str, Any]] | None:
        """The deal just finished as a record, with its number (``None``: not to be had)."""
        ...

    def close(self) -> None:
        """The table is left: a finished deal is final, the background work stops."""
        ...

    @property
    def facts(self) -> ClientFacts:
        """How the session stands, beside the seat's state."""
        ...


@dataclass(frozen=True)
class ClientFacts:
    """What a window asks of a table besides its state: who plays at this screen, how far the
    session has come, and what the hot seat's cover shows."""

    humans: int  # people at this screen (two or more: the hot seat)
    fresh: bool  # no action taken yet: the seating is shown
    deals_done: int
    hints_asked: int
    finished: bool  # autoplay's deals are all played
    cover_note: tuple[str, ...] = ()  # hot seat: what was just done, on the cover
    shared: bool = False  # a network seat: the host deals each deal and settles
    link_note: str = ""  # a network seat whose connection is not well: what the player is told
    hosting: bool = False  # a network seat whose window hosts the table: leaving it ends the table
    seat_hold: int = 0  # a network seat: seconds the host holds it for its player after a leave
