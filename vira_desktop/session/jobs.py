"""One queue for a table's work in the background: the bots' moves, hints, the coach's word
on each bid, and a finished deal's analysis.

Each job is asked at the table's version (boardgame.io's ``stateID``): its answer is taken
only while that version is still the current one, and a job whose version has gone is
cancelled if it has not started (the running one is hurried). One rule for every kind of
job, instead of one hand-built staleness key for each.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from enum import Enum
from typing import Any

from .worker import Worker

__all__ = ["Job", "JobKind", "Jobs"]


class JobKind(Enum):
    BOT = "bot"  # the seat asked is a bot's: its move
    HINT = "hint"  # the coach's answer for the question standing
    ADVICE = "advice"  # the coach's word on each bid of the player's auction turn
    ANALYSIS = "analysis"  # the finished deal, double dummy


@dataclass(frozen=True, slots=True)
class Job:
    """A job's tag: what it is, the version it was asked at, and who asked (a seat port's
    key; "" for the table's own, the bots')."""

    kind: JobKind
    version: int
    owner: str = ""


class Jobs:
    """The table's background work, through one worker (see the module)."""

    def __init__(self, worker: Worker) -> None:
        self.worker = worker
        self.asked: dict[tuple[JobKind, str], int] = {}  # each job in hand, by kind and owner: its version
        self.open: set[tuple[JobKind, str]] = set()  # asked, and its answer not handed out yet

    def ask(self, kind: JobKind, version: int, fn: Callable[..., Any], *args: Any, owner: str = "") -> bool:
        """Ask ``fn(*args)`` as ``owner``'s ``kind`` job of ``version`` (``False``: asked already)."""
        key = (kind, owner)
        if self.asked.get(key) == version:
            return False
        if kind is not JobKind.BOT and self.busy(JobKind.BOT):
            self.worker.hurry()  # a bot's search must not keep a player waiting
        self.asked[key] = version
        self.open.add(key)
        self.worker.submit(Job(kind, version, owner), fn, *args)
        return True

    def busy(self, kind: JobKind, owner: str = "") -> bool:
        """``owner``'s ``kind`` job is asked and its answer not handed out yet."""
        return (kind, owner) in self.open

    def answers(self, version: int) -> list[tuple[Job, Any]]:
        """The answers in since the last call that were asked at ``version``, the current one;
        the others are dropped."""
        out = []
        for tag, result in self.worker.poll():
            if isinstance(tag, Job) and tag.version == version and self.asked.get((tag.kind, tag.owner)) == version:
                self.open.discard((tag.kind, tag.owner))
                out.append((tag, result))
        return out

    def moved_on(self, version: int) -> None:
        """The table is at ``version`` now: jobs asked before it are no longer wanted."""
        gone = {kind for kind, asked in self.asked.items() if asked != version}
        if gone:
            self.worker.cancel(lambda tag: isinstance(tag, Job) and tag.version != version)
        for kind in gone:
            del self.asked[kind]
            self.open.discard(kind)

    def again(self, kind: JobKind, owner: str = "") -> None:
        """``owner``'s ``kind`` job may be asked again at the same version (its answer failed)."""
        self.asked.pop((kind, owner), None)
        self.open.discard((kind, owner))

    def forget(self) -> None:
        """Drop everything in hand (the table is rebuilt)."""
        self.asked.clear()
        self.open.clear()
        self.worker.cancel_all()
