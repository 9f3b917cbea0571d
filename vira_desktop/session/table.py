"""The table controller: a session with human and bot seats, an action log, undo and saves.

Pure Python (no pygame): the window drives it through its :class:`~.flow.Flow` (who is
asked, optional offers, apply) and animates the events it returns.
A save is the session's seed, its seats and the log of every action, so loading
replays the session exactly, ledger included.
"""

from __future__ import annotations

import copy
import itertools
import uuid
from dataclasses import asdict, dataclass, field, replace
from datetime import UTC, datetime
from typing import Any

from ..ai import Bot
from ..rules.actions import Action, parse_action
from ..rules.deal import Deal
from ..rules.decision import Phase
from ..rules.errors import ViraError
from ..rules.houserules import HouseRules
from ..rules.ledger import Kind, LedgerEvent
from ..rules.session import SeatingDraw, Session, draw_seating, heart_deal
from ..rules.view import View
from .flow import Ask, Flow, FlowEvent
from .record import record_of
from .thinking import DEFAULT_THINK, BotSpec, bot_from

__all__ = ["SAVE_VERSION", "SaveError", "SaveSnapshot", "SeatConfig", "Table"]

SAVE_VERSION = 1
_GENERATIONS = itertools.count()


class SaveError(ViraError):
    """A save file that cannot be read (it is kept aside, never loaded half)."""


@dataclass(frozen=True)
class SeatConfig:
    name: str
    human: bool = False
    level: str = "normal"


@dataclass
class LogEntry:
    deal: int
    player: str
    action: str
    human: bool

    @classmethod
    def read(cls, raw: Any) -> LogEntry:
        """An entry as a save holds it; a key missing or a value of the wrong type is refused."""
        if not isinstance(raw, dict):
            raise TypeError("an action of the log is not a mapping")
        entry = cls(**raw)
        kinds = ((entry.deal, int), (entry.player, str), (entry.action, str), (entry.human, bool))
        if any(not isinstance(value, kind) or (kind is int and isinstance(value, bool)) for value, kind in kinds):
            raise TypeError("a value of the wrong type in the log")
        return entry


@dataclass
class Table:
    """A running session at the table (a new one is built by :func:`~.factory.new_table`)."""

    seats: list[SeatConfig]
    seed: int
    rules: HouseRules = field(default_factory=HouseRules)
    bowl: dict[Kind, int] | None = None
    seating: str = "draw"  # "draw" (by hearts) or "first-come" (heart deal for forehand)
    log: list[LogEntry] = field(default_factory=list)
    undone: list[int] = field(default_factory=list)  # deal numbers where an undo was used
    last_deal: int | None = None  # the session ends after this many deals (last round, Borup)
    given: Deal | None = field(default=None, repr=False)  # a lesson's deal: seated as the seats are listed
    pulla: int | None = None  # bets in the pulla at the start (None: the åla, one from each player)
    think: float = DEFAULT_THINK  # seconds the strong bot may think over a decision (bots.strong_seconds)
    parent: tuple[int, int] | None = None  # played again: (the deal in history, after so many of its actions)
    key: str = field(default_factory=lambda: uuid.uuid4().hex)  # the session's own name in history
    started: str = field(default_factory=lambda: datetime.now(UTC).isoformat(timespec="seconds"))
    before: Session | None = field(default=None, repr=False, compare=False)  # played again: the table as the deal began

    def __post_init__(self) -> None:
        if not 3 <= len(self.seats) <= 4:
            raise ValueError("a table has three or four seats")
        self._start()

    # ------------------------------------------------------------------ set-up
    def _start(self) -> None:
        import random

        names = [s.name for s in self.seats]
        rng = random.Random(self.seed)
        self.draw: SeatingDraw
        if self.before is not None:  # a deal played again at its own table: seated as it was
            self.draw = SeatingDraw(tuple(self.before.players), self.before.seats_for(self.before.dealer)[0][0], ())
        elif self.given is not None:
            self.draw = SeatingDraw(tuple(names), names[0], ())
        elif self.seating == "draw":
            self.draw = draw_seating(names, rng)
        else:
            self.draw = heart_deal(names, rng)
        self.opening_events: list[LedgerEvent]
        if self.before is not None:
            self.session, self.opening_events = copy.deepcopy(self.before), []
        else:
            self.session, self.opening_events = Session.start(
                list(self.draw.order), self.draw.forehand, self.seed, self.rules, self.bowl, self.pulla
            )
        self.deal_index = 0
        self.finished: list[dict[str, Any]] = []  # the records of the session's deals before this one
        self._marks: list[_Mark] = []  # before each deal after the first was dealt: where an undo goes back to
        self._rebuilt()
        if self.given is not None:
            self.session.seat_deal(self.given.clone())
        else:
            self.session.new_deal()

    def _rebuilt(self) -> None:
        """What a new table, an undo and a load make anew: the bots (a new generation) and the flow."""
        self.generation = next(_GENERATIONS)
        self.bot_specs: dict[str, BotSpec] = {
            s.name: (s.level, self.seed * 31 + i, self.generation, self.think)
            for i, s in enumerate(self.seats)
            if not s.human
        }
        self.bots: dict[str, Bot] = {name: bot_from(spec) for name, spec in self.bot_specs.items()}
        self.session.last_deal = self.last_deal
        self.flow = Flow(lambda: self.deal, self.session.apply)

    @property
    def deal(self) -> Deal:
        assert self.session.deal is not None
        return self.session.deal

    @property
    def played_again(self) -> bool:
        """A deal from history played again at its table as it began (not the session's Nth)."""
        return self.before is not None

    def seat_config(self, name: str) -> SeatConfig:
        return next(s for s in self.seats if s.name == name)

    # ------------------------------------------------------------------ whose turn
    def ask(self) -> Ask | None:
        """Who is asked now (an open offer first), or ``None`` when the deal is over."""
        return self.flow.ask()

    def name_of(self, seat: int) -> str:
        return self.session.seats[seat]

    def is_human(self, seat: int) -> bool:
        return self.seat_config(self.session.seats[seat]).human

    def bot_for(self, ask: Ask) -> Bot | None:
        """The bot that answers ``ask`` (``None`` for a human seat)."""
        return self.bots.get(self.session.seats[ask.seat])

    def bot_view(self, ask: Ask) -> View:
        """What the bot answering ``ask`` is shown: the seat's view, and in trick play, where
        the view no longer shows them, the cards the seat laid aside this deal if its bot
        remembers them (``remember_aside``): the table keeps that memory for it, so a bot made
        anew after an undo or a load plays as one that never was."""
        view = ask.view
        remembers = getattr(self.bot_for(ask), "remember_aside", False)
        if view.phase is not Phase.PLAY or view.own_laid_aside or not remembers:
            return view
        aside = self.deal.laid_aside(ask.seat)
        return replace(view, own_laid_aside=aside) if aside else view

    def bot_spec(self, ask: Ask) -> BotSpec | None:
        """How to make the bot that answers ``ask`` in a worker process (``None``: a human)."""
        return self.bot_specs.get(self.session.seats[ask.seat])

    # ------------------------------------------------------------------ acting
    def answer(self, ask: Ask, action: Action | None, human: bool = False) -> list[FlowEvent]:
        """Answer ``ask`` (``None`` declines an offer); a taken action goes in the log."""
        events = self.flow.answer(ask, action)
        if action is not None:
            player = self.session.seats[action.seat]
            self.log.append(LogEntry(self.deal_index, player, action.text, human))
        return events

    def record(self) -> dict[str, Any]:
        """The deal record of the deal in play, as far as it has gone (docs/deal-record.md)."""
        return record_of(self.deal, self.session.seats, self.session.sitting_out)

    def next_deal(self) -> Deal:
        """Deal the next deal (after the current one is over)."""
        self._marks.append(_Mark(self.session.copy(), len(self.log)))
        self.finished.append(self.record())
        deal = self.session.new_deal()
        self.deal_index += 1
        return deal

    def end_session(self, how: str) -> None:
        """Agree how the session ends: ``"last round"`` (each player forehand once more, then
        Borup) or ``"borup"`` (the next deal is the last). Saved with the game."""
        if how == "last round":
            self.session.announce_last_round()
        elif how == "borup":
            self.session.announce_borup()
        else:
            raise ValueError(f"no way to end a session called {how!r}")
        self.last_deal = self.session.last_deal

    def story(self, viewer: str) -> list[tuple[Action, list[FlowEvent], View]]:
        """The deal in play from its start: each action with the events it made (the last
        one of a finished deal with the ledger's payments, åla om included) and the view of
        ``viewer``'s seat after it, so that a window can tell it again (after Continue or an undo)."""
        seat = self.session.seats.index(viewer) if viewer in self.session.seats else None
        again = self.deal.as_dealt()
        out: list[tuple[Action, list[FlowEvent], View]] = []
        for action in self.deal.history:
            events: list[FlowEvent] = list(again.apply(action))
            if again.is_over and self.session.deals:
                events += self.session.deals[-1].paid
            out.append((action, events, again.view(seat) if seat is not None else again.public_view()))
        return out

    def restart(self, actions: list[Action]) -> None:
        """Start this deal again and apply ``actions`` (a lesson going back to a step)."""
        names = self.session.seats
        self._replay([LogEntry(0, names[a.seat], a.text, False) for a in actions])

    def let_bot_play(self, name: str, level: str = "normal") -> None:
        """A bot plays ``name``'s seat from now on (a lesson playing a wrong answer out)."""
        self.bot_specs[name] = (level, self.seed * 31 + 7, self.generation, self.think)
        self.bots[name] = bot_from(self.bot_specs[name])

    def set_human(self, name: str, human: bool, level: str = "normal") -> None:
        """Whether a person plays ``name``'s seat from now on; else a bot of ``level`` (a
        network seat whose player has gone, until the player is back)."""
        i = next(i for i, s in enumerate(self.seats) if s.name == name)
        self.seats[i] = replace(self.seats[i], human=human)
        if human:
            self.bot_specs.pop(name, None)
            self.bots.pop(name, None)
        else:
            self.let_bot_play(name, level)

    def can_undo(self) -> bool:
        return self._last_human() is not None

    def _last_human(self) -> int | None:
        """Where in the log the last human action of this deal is (the log is in deal order)."""
        for i in range(len(self.log) - 1, -1, -1):
            if self.log[i].deal != self.deal_index:
                break
            if self.log[i].human:
                return i
        return None

    def undo(self) -> None:
        """Take back the last human action of this deal (and the bots' answers to it): the
        table as a replay of the log before it leaves it, in a time that does not grow with
        the session (from the session as it stood before this deal was dealt;
        ``benchmarks/undo.py``: 0.5 ms after 30 deals, where the replay took 15 ms)."""
        last = self._last_human()
        if last is None:
            raise ViraError("nothing to undo in this deal")
        target = self.deal_index
        if target not in self.undone:
            self.undone.append(target)
        if target == 0:  # nothing before the first deal to go back to but the start
            self._replay(self.log[:last])
            return
        mark = self._marks[target - 1]
        del self._marks[target - 1 :]
        kept = self.log[mark.log : last]
        self.session, self.log = mark.session, self.log[: mark.log]
        self.deal_index -= 1
        del self.finished[self.deal_index :]
        self._rebuilt()
        for entry in kept:  # this deal dealt again (by the next entry) and its actions up to the human's
            self._apply_entry(entry)
        while self.deal_index < target:  # the deal's first action taken back: it stands dealt, as it began;
            self.next_deal()  # the deal before, already in history, is never opened again

    # ------------------------------------------------------------------ saving
    def to_json(self) -> dict[str, Any]:
        return self.snapshot().to_json()

    def _header(self) -> dict[str, Any]:
        """Everything a save holds but the log."""
        return {
            "version": SAVE_VERSION,
            "seed": self.seed,
            "seating": self.seating,
            "seats": [asdict(s) for s in self.seats],
            "house_rules": self.rules.changed(),
            "bowl": {k.name.lower(): v for k, v in (self.bowl or {}).items()} or None,
            "undone": list(self.undone),
            "last_deal": self.last_deal,
            "key": self.key,
            "started": self.started,
        }

    def snapshot(self) -> SaveSnapshot:
        """What a save will hold, taken now and cheaply (the log's entries are never changed
        once written), so that a background writer can turn it into JSON later."""
        return SaveSnapshot(self._header(), tuple(self.log))

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Table:

        try:
            if data.get("version") != SAVE_VERSION:
                raise SaveError(f"unknown save version {data.get('version')!r}")
            seats = [SeatConfig(**s) for s in data["seats"]]
            rules = HouseRules.from_changes(data.get("house_rules"))
            bowl = {Kind[k.upper()]: int(v) for k, v in (data.get("bowl") or {}).items()} or None
            table = cls(seats, int(data["seed"]), rules, bowl, data.get("seating", "draw"))
            table.undone = [int(x) for x in data.get("undone", [])]
            last = data.get("last_deal")
            table.last_deal = None if last is None else int(last)
            table.key = str(data.get("key") or table.key)  # a save from before history: a session of its own
            table.started = str(data.get("started") or table.started)
            table._replay([LogEntry.read(e) for e in data["log"]])
        except SaveError:
            raise
        except (KeyError, TypeError, ValueError) as exc:
            raise SaveError(f"damaged save: {exc}") from None
        return table

    @classmethod
    def recovered(cls, header: dict[str, Any], entries: list[Any], cut: bool) -> tuple[Table, Recovered]:
        """The table of a save's ``header`` with its raw log ``entries`` applied up to the first
        that fails (``cut``: the reading stopped early, more may have been lost)."""
        try:
            table = cls.from_json({**header, "log": []})  # its version and header checked there
        except AttributeError as exc:
            raise SaveError(f"damaged save: {exc}") from None
        kept, problem = table._replay_good(entries)
        lost = len(entries) - kept
        return table, Recovered(kept, lost, cut, problem)

    def _replay_good(self, entries: list[Any]) -> tuple[int, str]:
        """Apply the saved ``entries`` (raw) one by one to this table, fresh from its header,
        up to the first that fails; how many were applied, and what stopped them ("" for none)."""
        good: list[LogEntry] = []
        for raw in entries:
            try:
                entry = LogEntry.read(raw)
                self._apply_entry(entry)
            except (SaveError, ViraError, KeyError, TypeError, ValueError, AttributeError) as exc:
                self._replay(good)  # the table as the last good action left it
                return len(good), f"action {len(good) + 1}: {exc}"
            good.append(entry)
        return len(good), ""

    def _replay(self, log: list[LogEntry]) -> None:
        """Rebuild the session from the start and apply ``log``."""
        self._start()
        self.log = []
        for entry in log:
            self._apply_entry(entry)

    def _apply_entry(self, entry: LogEntry) -> None:
        """One saved action, applied (dealing on to its deal first)."""
        while entry.deal > self.deal_index:
            if not self.deal.is_over:
                raise SaveError(f"deal {self.deal_index + 1} ends early in the log")
            self.next_deal()
        seat = self.session.seats.index(entry.player)
        action = parse_action(entry.action, seat)
        self.session.apply(action)
        self.log.append(LogEntry(self.deal_index, entry.player, action.text, entry.human))


@dataclass(frozen=True)
class _Mark:
    """The session as it stood before a deal was dealt, and the log's length then."""

    session: Session
    log: int


@dataclass(frozen=True)
class Recovered:
    """What a damaged save gave back: the actions kept, those lost after them (known ones),
    whether the file was cut short (more may have been lost), and what stopped the reading."""

    kept: int
    lost: int
    cut: bool
    problem: str


@dataclass(frozen=True)
class SaveSnapshot:
    """A save as taken at one moment: written later, off the frame loop, still atomically."""

    header: dict[str, Any]
    log: tuple[LogEntry, ...]

    def to_json(self) -> dict[str, Any]:
        return {**self.header, "log": [asdict(e) for e in self.log]}
