"""A table run without a window: who is asked, the bots' turns, one-option steps, hot seat,
undo, the next deal, the end of the session, hints, saves, and the deal-committed hook.

The window, a lesson, a test and the command line all drive one :class:`TableRunner`, as
boardgame.io's master drives its clients: the runner holds the table, a caller hands it
the player's answers (:meth:`TableRunner.submit`) and commands (:meth:`TableRunner.command`),
and :meth:`TableRunner.poll` moves the bots on by the caller's clock, only when the
caller says it may (a window: when nothing is animating). Every :class:`Update` carries
the events of what happened, already projected for the seat shown, so a window never
receives a card that seat may not know.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass, field
from enum import Enum
from typing import Any, Protocol

from ..ai import Choice
from ..i18n import t
from ..rules.actions import Action, Bid
from ..rules.decision import Phase
from ..rules.errors import ViraError
from ..rules.events import DealScored, events_for
from ..rules.view import View
from .analysis import Analysis
from .coach import BidAdvice, Hint
from .flow import Ask, FlowEvent
from .jobs import JobKind, Jobs
from .narration import Narrator, deal_heading, seating_lines
from .record import read_record
from .state import TableState, table_state
from .table import Table
from .thinking import bot_choice, coach_bids, coach_hint, deal_analysis, side_of
from .words import say_action, say_refusal
from .worker import InlineWorker, Worker

__all__ = ["BOT_PAUSE_S", "Command", "CommittedDeal", "Director", "Seen", "TableRunner", "Turn", "Update"]

log = logging.getLogger(__name__)

BOT_PAUSE_S = 0.45  # between two moves at normal speed, so a player can follow


class Turn(Enum):
    """Who answers a question at the table."""

    HUMAN = "human"  # the player at the window (or a test) answers through submit
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


@dataclass(frozen=True)
class Update:
    """What changed at the table, for whoever shows it: nothing in it names a card the seat
    shown may not know (another seat's buy is told by its events, which count the cards but
    do not name them), so it may be sent to that seat as it is (:mod:`.wire`)."""

    events: tuple[FlowEvent, ...] = ()  # projected for the seat shown
    version: int = 0  # the runner's version after the change (:attr:`TableRunner.version`)
    snap: bool = False  # lay the table out at once: another seat is shown, or it was rebuilt
    hint: Hint | None = None  # the coach's answer to a hint asked for the question standing
    hint_failed: bool = False
    advice: dict[Bid, BidAdvice] | None = None  # the coach's word on each bid of the auction turn standing
    analysis: Analysis | None = None  # the finished deal's double-dummy analysis, as asked for


@dataclass(frozen=True)
class Seen:
    """What the seat shown is given of the table at one version: the table as it may know it,
    the question standing for it, the log told from its side, the hot-seat cover. Whatever a
    window, a lesson or a network seat draws comes from here (:mod:`.wire` sends it)."""

    version: int
    table: TableState
    ask: Ask | None  # the question the seat shown must answer now
    log: tuple[str, ...]
    note: str  # the partner's Ågren marking, while it stands
    cover: str | None  # hot seat: the player the screen is passed to, until lifted
    can_undo: bool
    session_over: bool


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


@dataclass
class TableRunner:
    """One table in play. ``worker`` thinks for the bots and the coach (an
    :class:`~.worker.InlineWorker` when none is given: everything at once, in this thread).

    ``pause``: seconds between two moves (a window sets it from the animation speed; 0 in
    a test). ``autoplay``: every seat a bot, this many deals, then :attr:`finished`.
    ``save`` is called after every change with the table (off the caller's hot path: the
    App hands it to a background writer). ``on_committed`` gets every deal once it can no
    longer be undone.
    """

    table: Table
    worker: Worker = field(default_factory=InlineWorker)
    pause: float = BOT_PAUSE_S
    autoplay: int | None = None
    save: Callable[[Table], None] | None = None
    on_committed: Callable[[CommittedDeal], None] | None = None
    on_settled: Callable[[], None] | None = None  # the session settled: a window's autosave is done with
    director: Director | None = None
    hint_every_decision: bool = False  # ``--hints``: ask the coach at each decision of the seat shown
    coach_bids: bool = False  # the coach weighs every bid of the player's auction turns (the grid's colours)
    viewer: str = ""
    narrator: Narrator = field(default_factory=Narrator)
    cover: str | None = None  # hot seat: the player the screen is passed to, until lifted
    cover_note: list[str] = field(default_factory=list)
    deals_done: int = 0
    hints_asked: int = 0
    finished: bool = False  # autoplay: all its deals are played

    def __post_init__(self) -> None:
        humans = [s.name for s in self.table.seats if s.human]
        self.humans = humans
        self.viewer = self.viewer or (humans[0] if humans else self.table.session.seats[0])
        self._not_before = 0.0
        self._now = 0.0
        self.version = 0  # grows with every change the seat shown could see
        self.jobs = Jobs(self.worker)  # the bots, the coach and the analysis, each at a version
        self._pending: Any = None  # a bot's answer (a Choice, or what its job raised), held for the pause
        self._hint: tuple[int, Hint] | None = None  # (version, the coach's answer for its question)
        self._hint_failed: int | None = None  # the version at which the coach failed a hint
        self._told: list[Update] = []  # answers known already, handed out by the next poll
        self._advice: tuple[int, dict[Bid, BidAdvice]] | None = None  # (version, the coach's word on each bid)
        self._committed: set[int] = set()
        for index, record in enumerate(self.table.finished):  # a resumed session: history keeps each once
            self._offer(index, record)
        self.thinking_for: str | None = None
        self._analysis: tuple[int, Analysis] | None = None  # (version, the finished deal's analysis)

    # ------------------------------------------------------------------ what is shown
    def seen(self) -> Seen:
        """The table at this version as the seat shown may know it (the port's state)."""
        return Seen(
            self.version,
            self.state(),
            self.asked(),
            tuple(self.log),
            self.note,
            self.cover,
            self.can_undo,
            self.session_over,
        )

    def _changed(self, events: tuple[FlowEvent, ...] = (), snap: bool = False) -> Update:
        """An update for a change the seat shown sees: the version grows."""
        self._bump()
        return Update(events, self.version, snap)

    def _bump(self) -> None:
        """A new version: the work asked for the old one is no longer wanted."""
        self.version += 1
        self.jobs.moved_on(self.version)

    def state(self, with_seating: bool = False) -> TableState:
        """The table as the seat shown may know it."""
        t_ = self.table
        return table_state(
            t_.session,
            t_.deal_index,
            self.viewer,
            thinking=self.thinking_for,
            seating=t_.draw if with_seating else None,
            seating_kind=t_.seating,
            colour_order=tuple(s.name for s in t_.seats),
            undone=tuple(t_.undone),
        )

    @property
    def log(self) -> list[str]:
        return self.narrator.lines

    @property
    def note(self) -> str:
        """The partner's Ågren marking, while it stands."""
        return self.narrator.note

    @property
    def viewer_seat(self) -> int | None:
        seats = self.table.session.seats
        return seats.index(self.viewer) if self.viewer in seats else None

    def _viewer_view(self) -> View:
        """What the seat shown may know now (everyone's view for a player sitting out)."""
        seat = self.viewer_seat
        return self.table.deal.view(seat) if seat is not None else self.table.deal.public_view()

    @property
    def fresh(self) -> bool:
        return not self.table.log and self.table.deal_index == 0

    def start(self) -> Update:
        """The table as it opens: the seating and the åla at a fresh table, else the deal so
        far told again. Its events show the first deal."""
        t_ = self.table
        if len(self.humans) >= 2:  # hot seat: whoever comes back to the table finds it covered
            ask = self._human_ask()
            if ask is not None:
                self.viewer = t_.name_of(ask.seat)
            self.cover = self.viewer
        opening = [*(t_.opening_events if self.fresh else ()), t_.deal.started()]
        self.retell(self._heading(seating=True))
        return self._changed(tuple(events_for(self.viewer_seat, opening)))

    def tell(self, text: str) -> None:
        """Add ``text`` to the log, after the deal told so far (a save recovered)."""
        self.narrator.say(text)

    def _heading(self, seating: bool) -> list[str]:
        """The log's head for the deal in play: its number, dealer and forehand, under the
        seating (when asked for, and always in the first deal) and the first deal's åla."""
        t_ = self.table
        first = t_.deal_index == 0
        above = seating_lines(t_.draw, t_.seating, first) if seating or first else []
        return [*above, deal_heading(t_.session, t_.deal_index)]

    def retell(self, heading: list[str] | None = None) -> None:
        """Tell the deal in play again from its start (after Continue, an undo, Try again),
        under ``heading`` (by default the deal's own, the first deal's seating and åla too)."""
        head = heading if heading is not None else self._heading(seating=False)
        self.narrator.retell(head, self.table.story(self.viewer), self.table.session)

    # ------------------------------------------------------------------ who is asked
    def _turn(self, ask: Ask) -> Turn:
        human = self.table.is_human(ask.seat)
        if self.director is not None:
            return self.director.turn(ask, human)
        return Turn.HUMAN if human else Turn.BOT

    def _human_ask(self) -> Ask | None:
        ask = self.table.ask()
        return ask if ask is not None and self._turn(ask) is Turn.HUMAN else None

    def asked(self) -> Ask | None:
        """The question the player shown must answer now (``None``: nothing for that player;
        under the hot-seat cover the question stands, for the player about to take the screen)."""
        ask = self._human_ask()
        if ask is None or self.table.name_of(ask.seat) != self.viewer:
            return None
        return ask

    @property
    def deal_over(self) -> bool:
        return self.table.deal.is_over

    @property
    def session_over(self) -> bool:
        return self.table.session.is_over

    @property
    def can_undo(self) -> bool:
        return self.table.can_undo()

    @property
    def bot_thinking(self) -> bool:
        return self.jobs.busy(JobKind.BOT) or self._pending is not None

    def refusal(self, action: Action) -> str | None:
        """Why ``action`` is not legal now, in the player's words (``None``: it is legal)."""
        try:
            self.table.deal.check(action)
        except ViraError as exc:
            return say_refusal(exc, self.table.session.seats)
        return None

    # ------------------------------------------------------------------ acting
    def submit(self, seat: int, action: Action | None) -> Update:
        """The player's answer for ``seat`` (``None`` declines an offer). Raises
        :class:`~..rules.errors.ViraError` with the reason when it is not legal; the table
        is then unchanged."""
        ask = self._human_ask()
        if ask is None or ask.seat != seat:
            raise ViraError(t("message.not_your_turn"))
        return self._answer(ask, action, human=True)

    def _answer(self, ask: Ask, action: Action | None, human: bool, said: str = "") -> Update:
        events = self.table.answer(ask, action, human=human)
        self._not_before = self._now + self.pause
        self._pending = None
        if said:
            self.narrator.say(said)
        return self._after(action, events)

    def _after(self, action: Action | None, events: list[FlowEvent]) -> Update:
        self.narrator.told(action, events, self._viewer_view(), self.table.session)
        if any(isinstance(ev, DealScored) for ev in events):
            self.deals_done += 1
            if not self.can_undo:
                self._commit()
        self._save()
        return self._changed(tuple(events_for(self.viewer_seat, events)))

    def _save(self) -> None:
        if self.save is not None:
            self.save(self.table)

    def command(self, command: Command) -> Update:
        """Undo, the next deal, or how the session ends. Raises ``ViraError`` when it cannot
        be done now (nothing to undo, a deal still in play, the session over)."""
        if command is Command.UNDO:
            return self.undo()
        if command is Command.SETTLE:
            return self.settle()
        if command is Command.NEXT_DEAL:
            return self.next_deal()
        self.table.end_session(command.value)
        left = self.table.session.deals_left
        self.narrator.say(t("log.borup") if command is Command.BORUP else t("log.last_round", deals=left))
        self._save()
        return self._changed()

    def undo(self) -> Update:
        """Take back the player's last action in this deal (and the bots' answers to it)."""
        if not self.can_undo:
            raise ViraError(t("message.no_undo"))
        self.forget_bots()
        self.table.undo()
        self._save()
        self.retell()
        self.narrator.say(t("log.undo"))
        return self._changed(snap=True)

    def settle(self) -> Update:
        """The session's end, here and not in a window: the deal committed to history, the
        pulla shared out (its ledger events in the update), the autosave done with
        (``on_settled``). Once only; raises ``ViraError`` while a deal is in play (a window
        settles when the session is over; a test or a screenshot may settle after any deal)."""
        if not self.deal_over:
            raise ViraError(t("message.no_next_deal"))
        self.close()
        session = self.table.session
        events: list[FlowEvent] = list(session.settle()[1]) if session.settlement is None else []
        if self.on_settled is not None:
            self.on_settled()
        return self._changed(tuple(events))

    def next_deal(self) -> Update:
        """Deal the next deal (the deal in play must be over and the session not)."""
        if not self.deal_over or self.session_over:
            raise ViraError(t("message.no_next_deal"))
        self._commit()
        self.forget_bots()
        self.table.next_deal()
        self._save()
        self.narrator.next_deal(deal_heading(self.table.session, self.table.deal_index))
        return self._changed(tuple(events_for(self.viewer_seat, [self.table.deal.started()])))

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
        seats = t_.session.seats
        players = tuple(c.name for c in t_.seats)
        parent = t_.parent if index == 0 else None
        bowl = {kind.name.lower(): count for kind, count in t_.bowl.items()} if t_.bowl else None
        self.on_committed(CommittedDeal(index, record, seats, levels, t_.key, t_.started, players, parent, bowl))

    def forget_bots(self) -> None:
        """Drop the bots' work in hand: the table is about to be rebuilt (a new version)."""
        self._pending = None
        self.thinking_for = None
        self.jobs.forget()
        self._bump()

    def lift_cover(self) -> None:
        """Hot seat: the player the screen was passed to takes it."""
        if self.cover is not None:
            self.cover = None
            self._bump()

    def let_bot_play(self, name: str) -> None:
        """A bot plays ``name``'s seat from now on (a lesson playing a wrong answer out)."""
        self.table.let_bot_play(name)

    # ------------------------------------------------------------------ hints
    def ask_hint(self) -> bool:
        """Ask the coach about the question standing; its answer comes in an update from
        :meth:`poll`. ``False``: nothing is asked now."""
        ask = self.asked()
        if ask is None or ask.view.decision is None:
            return False
        if self._hint_failed == self.version:  # the player asks again after a failure: it may be asked again
            self._hint_failed = None
            self.jobs.again(JobKind.HINT)
        self._submit_hint(ask)
        return True

    def _submit_hint(self, ask: Ask) -> None:
        if not self.jobs.ask(JobKind.HINT, self.version, coach_hint, ask.view):
            if self._hint is not None and self._hint[0] == self.version:  # asked again: told again
                self._told.append(Update(hint=self._hint[1], version=self.version))
            return  # (one still in work comes by itself)
        self.hints_asked += 1

    def _hint_in(self, result: object) -> Update | None:
        if isinstance(result, Hint):
            self._hint = (self.version, result)
            return Update(hint=result, version=self.version)
        self._hint_failed = self.version  # asked for again by the player only (--hints would loop at frame rate)
        log.error("the coach failed: %r", result)
        return Update(hint_failed=True, version=self.version)

    # ------------------------------------------------------------------ "could I have won?"
    def can_analyse(self) -> bool:
        """Whether the deal is over and its cards were played (a laid deal has no play)."""
        return self.deal_over and bool(self.table.deal.tricks_played)

    def ask_analysis(self) -> bool:
        """Ask for the finished deal's double-dummy analysis (in the worker; it comes in an
        update from :meth:`poll`, or at once when worked out before). ``False``: no deal to
        analyse."""
        if not self.can_analyse():
            return False
        if self.analysis() is None:
            record = read_record(self.table.record(), self.table.deal.rules)
            self.jobs.ask(JobKind.ANALYSIS, self.version, deal_analysis, record, side_of(record, self.viewer))
        return True

    def analysis(self) -> Analysis | None:
        """The finished deal's analysis, once worked out (``None``: not asked, or not in yet)."""
        return self._analysis[1] if self._analysis is not None and self._analysis[0] == self.version else None

    def _analysis_in(self, result: object) -> Update | None:
        if not isinstance(result, Analysis):
            log.error("the analysis failed: %r", result)
            self.jobs.again(JobKind.ANALYSIS)
            return None
        self._analysis = (self.version, result)
        return Update(analysis=result, version=self.version)

    # ------------------------------------------------------------------ the coach's word on each bid
    def advice(self) -> dict[Bid, BidAdvice] | None:
        """The coach's advice on each bid of the player's auction turn standing, once worked out
        (``None``: not asked for, or not yet in)."""
        return self._advice[1] if self._advice is not None and self._advice[0] == self.version else None

    def _ask_advice(self) -> None:
        """Ask the coach about every bid, once per auction turn of the player shown (off the
        frame loop, in the worker); the answer comes in an update from :meth:`poll`."""
        ask = self.asked() if self.coach_bids else None
        if ask is None or ask.optional or ask.view.decision is None or ask.view.phase is not Phase.AUCTION:
            return
        if self.advice() is None:
            self.jobs.ask(JobKind.ADVICE, self.version, coach_bids, ask.view)

    def _advice_in(self, result: object) -> Update | None:
        if not isinstance(result, dict):
            log.error("the coach failed to weigh the bids: %r", result)
            return None
        self._advice = (self.version, result)
        return Update(advice=result, version=self.version)

    # ------------------------------------------------------------------ the clock
    def poll(self, now: float, ready: bool = True) -> list[Update]:
        """Move the table on at time ``now`` (seconds, any clock): take the worker's answers,
        and, when ``ready`` (nothing is animating) and the pause since the last move is over,
        apply the next bot's or script's answer, take a one-option step, or deal the next
        autoplayed deal. Never waits."""
        self._now = now
        updates, self._told = self._told, []
        take = {JobKind.HINT: self._hint_in, JobKind.ADVICE: self._advice_in, JobKind.ANALYSIS: self._analysis_in}
        for kind, result in self.jobs.answers(self.version):  # only what was asked at this version
            if kind is JobKind.BOT:
                self._pending = result
            elif (update := take[kind](result)) is not None:
                updates.append(update)
        if (update := self._hot_seat()) is not None:
            updates.append(update)
        if ready and now >= self._not_before:
            ask = self.table.ask() if self.hint_every_decision else None
            if ask is not None and self.table.name_of(ask.seat) == self.viewer:
                self._submit_hint(ask)
            update = self._move()
            if update is not None:
                updates.append(update)
                if (hot := self._hot_seat()) is not None:
                    updates.append(hot)
        self._ask_advice()
        self._think()
        return updates

    def _move(self) -> Update | None:
        """One move by whoever is due: the pending bot answer, the script, a one-option step,
        the next autoplayed deal."""
        ask = self.table.ask()
        if ask is None:
            return self._autoplay_next()
        turn = self._turn(ask)
        if turn is Turn.SCRIPT and self.director is not None:
            return self._answer(ask, self.director.scripted(ask), human=False)
        if turn is Turn.BOT and self._pending is not None:
            return self._bot_answer(ask, self._pending)
        if turn is Turn.HUMAN:
            return self._only_choice()
        return None

    def _bot_answer(self, ask: Ask, pending: object) -> Update | None:
        self._pending = None
        self.thinking_for = None
        choice = pending if isinstance(pending, Choice) else None
        if choice is None or (choice.action is None and not ask.optional):
            log.error("the worker's bot failed (%r); asking the bot in this process", pending)
            bot = self.table.bot_for(ask)
            assert bot is not None
            choice = bot.choose(ask.view)
        try:
            return self._answer(ask, choice.action, human=False)
        except (ViraError, ValueError) as exc:  # report, and ask again
            log.error("a bot's answer was refused: %s", exc)
            self.jobs.again(JobKind.BOT)
            return None

    def _think(self) -> None:
        """Start the bot that is asked, if it is a bot's turn and none is thinking. Never waits."""
        if self.bot_thinking:
            return
        ask = self.table.ask()
        if ask is None or self._turn(ask) is not Turn.BOT:
            return
        spec = self.table.bot_spec(ask)
        if spec is None:  # a human's seat a lesson lets the bots play: made on the spot
            self.table.let_bot_play(self.table.name_of(ask.seat))
            spec = self.table.bot_spec(ask)
            assert spec is not None
        if self.jobs.ask(JobKind.BOT, self.version, bot_choice, spec, ask.view):
            self.thinking_for = self.table.name_of(ask.seat)

    def _only_answer(self) -> tuple[Ask, Action] | None:
        """The player's question and its one possible answer, where there is one ("high" for
        a gask bid in suit, nothing to discard); never a bid, a card to play or the choice
        after buying, and not under the hot-seat cover (the player sees it taken)."""
        ask = self.asked()
        if ask is None or ask.optional or ask.view.decision is None or self.cover is not None:
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

    def _only_choice(self) -> Update | None:
        """A step with one possible answer is taken for the player and told in the log."""
        only = self._only_answer()
        if only is None:
            return None
        ask, action = only
        return self._answer(ask, action, human=True, said=t("log.only_choice", what=say_action(action)))

    def due_in(self, now: float) -> float | None:
        """Seconds from ``now`` until the runner will move by itself (0: it works now, a bot
        or the coach thinking; ``None``: it waits for the player, or for nobody). A window
        sleeps that long when nothing animates."""
        if self._told or self.worker.pending():
            return 0.0
        wait = max(0.0, self._not_before - now)
        if self._pending is not None:
            return wait  # a bot's answer, held for the pause after the last move
        ask = self.table.ask()
        if ask is None:
            due = self.autoplay is not None and self.deal_over and not self.finished
            return wait if due else None
        turn = self._turn(ask)
        if turn is Turn.SCRIPT:
            return wait
        if turn is Turn.BOT:
            return 0.0  # a bot is about to be asked
        if turn is Turn.HUMAN and self._only_answer() is not None:
            return wait
        return None

    def _autoplay_next(self) -> Update | None:
        if self.autoplay is None or not self.deal_over:
            return None
        if self.deals_done >= self.autoplay or self.session_over:
            self.finished = True
            return None
        self._not_before = self._now + self.pause
        return self.next_deal()

    def _hot_seat(self) -> Update | None:
        """With two or more humans, the screen passes to the one asked, under a cover."""
        if len(self.humans) < 2:
            return None
        ask = self._human_ask()
        if ask is None:
            return None
        actor = self.table.name_of(ask.seat)
        if actor == self.viewer:
            return None
        self.viewer = actor
        self.cover = actor
        self.cover_note = self.log[-4:]  # what was just done, the last player's move too
        self.narrator.marking(self._viewer_view(), self.table.session.seats)
        return self._changed(snap=True)  # another seat's cards: no glide from the old ones

