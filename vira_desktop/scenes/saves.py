"""What the app keeps on disk, each written by a thread of its own (never on the frame loop):
the game saved after every action, and history, which keeps each deal once it can no longer
be undone; both in the data folder as it is now (tests move it)."""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path

from ..paths import autosave_file, history_file
from ..session.autosave import Autosave
from ..session.history_service import HistoryService
from ..session.runner import CommittedDeal
from ..session.saving import BackgroundSaver
from ..session.table import Table

__all__ = ["Saves"]


class Saves:
    """The app's autosave and history. ``tell`` keeps a notice for the player (a catalog key
    and its values: a save that could not be written, a damaged history set aside);
    ``saving`` and ``keeping``: whether games are saved and deals kept in history at all
    (``vira --autoplay``: only when asked)."""

    def __init__(self, tell: Callable[..., None], saving: bool = True, keeping: bool = True) -> None:
        self.tell = tell
        self.saving = saving
        self.keeping = keeping
        journal = os.environ.get("VIRA_JOURNAL")
        self.journal = Path(journal) if journal else None  # the kill -9 test reads this
        self._saver: BackgroundSaver | None = None
        self._autosave: Autosave | None = None
        self._history: HistoryService | None = None

    # ------------------------------------------------------------------ the autosave
    @property
    def saved(self) -> Autosave:
        """The autosave (in the data folder as it is now: tests move it)."""
        if self._autosave is None or self._autosave.path != autosave_file():
            self._autosave = Autosave(autosave_file())
        return self._autosave

    def save(self, table: Table) -> None:
        """Save after every action: snapshotted now, written by a background thread as one
        transaction; with ``VIRA_JOURNAL`` set, each save written is noted there."""
        if not self.saving:
            return
        if self._saver is None:
            self._saver = BackgroundSaver(self.saved, self.journal, self._save_failed)
        self._saver(table)

    def _save_failed(self, exc: OSError) -> None:
        self.tell("app.no_autosave", problem=exc.strerror)

    def clear(self) -> None:
        """Forget the saved game (a save still being written would bring it back: waited for)."""
        self.flush()
        self.saved.clear()

    def flush(self) -> None:
        """Wait for the last save and the last deal for history to be written, and history's
        questions answered (before the program ends)."""
        if self._saver is not None:
            self._saver.flush()
        self.wait_for_history()

    # ------------------------------------------------------------------ history
    @property
    def history(self) -> HistoryService:
        """History's own thread, which keeps the deals and answers the screens' questions (in
        the data folder as it is now: tests move it)."""
        if self._history is None or self._history.path != history_file():
            if self._history is not None:
                self._history.close()  # what it was handed is kept first
            self._history = HistoryService(history_file(), self.journal, self._history_damaged)
        return self._history

    def _history_damaged(self, aside: str) -> None:
        self.tell("app.history_damaged", file=aside)

    def keep(self, deal: CommittedDeal) -> None:
        """A deal that can no longer be undone: kept in history, by its thread (a damaged
        history file is set aside, and the player told)."""
        if self.keeping:
            self.history(deal)

    def wait_for_history(self, timeout: float = 10.0) -> bool:
        """Wait until history has kept every deal handed over and answered every question
        (``False``: it took longer than ``timeout``)."""
        return self._history is None or self._history.flush(timeout)
