"""What the window asks of history, answered off the frame loop.

A screen never opens the database: it asks :class:`HistoryService` (the sessions and deals,
a player's statistics, a deal to replay, an import, an export) and gets a
:class:`~.history.Pending` back at once, which it looks at each frame through its
:class:`Answers`, as the table polls its runner. The service is the history's one thread:
the deals the table commits are kept by it too, in the order handed over, so a screen opened
after a deal sees that deal. A file found damaged while a question is worked out is set aside
there, and the answer says so (``Pending.aside``).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from typing import Any, TypeVar

from .as_played import AsPlayed, as_played, your_names
from .exchange import ImportReport, export_deals, export_session, import_records
from .history import DealRow, History, HistoryWriter, Pending, SessionRow
from .record import Record, read_record
from .statistics import Stats, players_of, statistics

__all__ = ["Answers", "Browse", "Figures", "HistoryService", "Imported", "Opened"]

_T = TypeVar("_T")


@dataclass(frozen=True)
class Browse:
    """Every session, the latest first, and every deal, oldest first (the History screen's lists)."""

    sessions: list[SessionRow]
    deals: list[DealRow]


@dataclass(frozen=True)
class Figures:
    """The players history knows (the most deals first), and the statistics of one of them
    (the first when none was asked for; ``player`` "" when history is empty)."""

    players: list[str]
    player: str
    stats: Stats


@dataclass(frozen=True)
class Imported:
    """What an import did, and the lists as they are after it."""

    report: ImportReport
    browse: Browse


@dataclass(frozen=True)
class Opened:
    """A deal of history to replay: its record, and who played it at what table."""

    record: Record
    played: AsPlayed


def _browse(history: History) -> Browse:
    return Browse(history.sessions(), history.deals())


def _figures(player: str | None, history: History) -> Figures:
    players = players_of(history)
    chosen = player if player is not None else players[0] if players else ""
    return Figures(players, chosen, statistics(history, chosen))


def _imported(paths: Sequence[Path], history: History) -> Imported:
    return Imported(import_records(history, paths), _browse(history))


def _opened(deal_id: int, history: History) -> Opened:
    return Opened(read_record(history.record(deal_id)), as_played(history, deal_id, your_names()))


class HistoryService(HistoryWriter):
    """The history's thread, with the questions the window may ask it (each returns at once)."""

    def browse(self) -> Pending[Browse]:
        return self.ask(_browse)

    def figures(self, player: str | None = None) -> Pending[Figures]:
        """``player``'s statistics (None: the first player's)."""
        return self.ask(partial(_figures, player))

    def open_deal(self, deal_id: int) -> Pending[Opened]:
        """A deal to replay, seated as it was played (an imported one: the player where the
        names the player has used sit); raises :class:`~..rules.errors.RecordError` for a
        record that does not replay."""
        return self.ask(partial(_opened, deal_id))

    def import_records(self, paths: Sequence[Path]) -> Pending[Imported]:
        return self.ask(partial(_imported, list(paths)))

    def export_deals(self, deal_ids: Sequence[int], folder: Path) -> Pending[list[Path]]:
        return self.ask(lambda history: export_deals(history, list(deal_ids), folder))

    def export_session(self, session_id: int, folder: Path) -> Pending[list[Path]]:
        return self.ask(lambda history: export_session(history, session_id, folder))


class Answers:
    """The answers a screen waits for, each with what to do with it: :meth:`poll` each frame
    (on the frame loop) hands over those that have come, in the order asked."""

    def __init__(self) -> None:
        self._waiting: list[tuple[Pending[Any], Callable[[Any], None]]] = []

    def then(self, pending: Pending[_T], use: Callable[[Pending[_T]], None]) -> None:
        self._waiting.append((pending, use))

    def poll(self) -> None:
        while self._waiting and self._waiting[0][0].done:
            pending, use = self._waiting.pop(0)
            use(pending)

    def __bool__(self) -> bool:
        """Whether an answer is still awaited (the window then keeps drawing frames)."""
        return bool(self._waiting)
