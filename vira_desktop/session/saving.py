"""Saves written off the caller's thread: the table is snapshotted at once (cheap), and a
writer thread writes the newest snapshot into the autosave (:mod:`.autosave`: one
transaction, the old save or the new one survives a crash, never half). A burst of moves
costs one write: a newer snapshot replaces one not yet written."""

from __future__ import annotations

import json
import logging
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

from .autosave import Autosave
from .table import SaveSnapshot, Table

__all__ = ["BackgroundSaver"]

log = logging.getLogger(__name__)
CLOSE_S = 30.0  # the longest closing waits for the last save


class BackgroundSaver:
    """Writes the autosave ``target`` in a daemon thread. ``journal``: a file that gets one JSON line per
    save written (the kill -9 test reads what was saved). ``failed`` is called (in the
    writer thread) with the error when a save cannot be written; ``done`` (there too) with
    the number of each save written (or failed): saves are numbered 1, 2, ... as asked for
    (:meth:`__call__` returns the number), and one written holds every save asked before it."""

    def __init__(
        self,
        target: Autosave,
        journal: Path | None = None,
        failed: Callable[[OSError], None] | None = None,
        done: Callable[[int], None] | None = None,
    ) -> None:
        self.target = target
        self.journal = journal
        self.failed = failed
        self.done = done
        self.written = 0
        self.asked = 0  # the number of the last save asked for
        self._next: tuple[SaveSnapshot, dict[str, Any], int] | None = None
        self._busy = False
        self._closed = False
        self._lock = threading.Condition()
        self._thread = threading.Thread(target=self._run, name="vira-saver", daemon=True)
        self._thread.start()

    def __call__(self, table: Table) -> int:
        """Save ``table`` as it is now (returns at once, with the save's number)."""
        line: dict[str, Any] = {}
        if self.journal is not None:  # what the kill -9 test checks the save against
            ledger = table.session.ledger
            line = {"log": len(table.log), "accounts": dict(ledger.accounts), "pulla": ledger.pulla_bets()}
        with self._lock:
            self.asked += 1
            self._next = (table.snapshot(), line, self.asked)
            self._lock.notify_all()
            return self.asked

    def flush(self, timeout: float = 10.0) -> bool:
        """Wait until every save asked for is written (``False``: it took longer than ``timeout``)."""
        with self._lock:
            return self._lock.wait_for(lambda: self._next is None and not self._busy, timeout)

    def close(self, timeout: float = CLOSE_S) -> None:
        """Write what is asked for, then end the thread (nothing more may be saved); a write
        that takes longer than ``timeout`` is left to finish on its own (the thread is a
        daemon) rather than hold the caller, an event loop perhaps, without end."""
        with self._lock:
            self._closed = True
            self._lock.notify_all()
        self._thread.join(timeout)
        if self._thread.is_alive():
            log.warning("a save still being written after %.0f s is left to finish on its own", timeout)

    def _run(self) -> None:
        while True:
            with self._lock:
                self._lock.wait_for(lambda: self._next is not None or self._closed)
                if self._next is None:
                    return
                snapshot, line, number = self._next
                self._next, self._busy = None, True
            try:
                self.target.write(snapshot)
                if self.journal is not None:
                    with self.journal.open("a", encoding="utf-8") as f:
                        f.write(json.dumps(line) + "\n")
                self.written += 1
            except OSError as exc:
                log.warning("the game could not be saved: %s", exc)
                if self.failed is not None:
                    self.failed(exc)
            except Exception as exc:  # a fault, not the disk: said, and the thread saves on (never left dead)
                log.exception("the game could not be saved")
                if self.failed is not None:
                    self.failed(OSError(f"{type(exc).__name__}: {exc}"))
            finally:
                with self._lock:
                    self._busy = False
                    self._lock.notify_all()
                if self.done is not None:
                    self.done(number)
