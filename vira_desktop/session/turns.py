"""The small values a table's master, its clock and its ports pass between them: who
answers (:class:`Turn`), what a player may ask (:class:`Command`), what happened
(:class:`Happened`), who is told (:class:`Listener`), and a deal history keeps."""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from typing import Any, Protocol

from ..rules.actions import Action
from .flow import Ask, FlowEvent
from .jobs import JobKind

__all__ = ["BOT_PAUSE_S", "Change", "Command", "CommittedDeal", "Director", "Happened", "Listener", "Turn"]

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
