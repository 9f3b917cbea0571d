"""The host's autosave: every table kept as the window keeps its game, so that a host killed
(even with ``kill -9``) and started again with the same arguments continues each table where
it stood, with the same seating, and its players take their seats back with their tokens.

A table is two files in the save folder, named by its code:

- ``CODE.sqlite3``, the window's own autosave (:class:`~..session.autosave.Autosave`: the
  table's header and its log, a row an action). The master saves after every change; the
  save is written off the event loop (the host's tables play on meanwhile), and what that
  table's clients are sent waits until it is on disk, so whatever a client has seen is on
  disk: nothing is lost, and nothing is played twice (the table resumes from exactly that log).
- ``CODE.json``, the seating: the players in the order they joined, each player's seat token
  as a SHA-256 hash (the file gives no seat away), the table's seed and whether its first deal
  was dealt. Written atomically whenever the seating changes.

A table whose session is over is deleted; a host shut down cleanly keeps its tables.
"""

from __future__ import annotations

import hashlib
import json
import logging
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..paths import quarantine, write_atomically
from ..session.autosave import Autosave
from ..session.table import SaveError, Table
from .protocol import valid_code

__all__ = ["SavedSeat", "Seating", "TableStore", "saved_tables", "token_hash"]

log = logging.getLogger("vira-host")

SEATING_VERSION = 1


def token_hash(token: str) -> str:
    """What the seating file keeps of a seat token."""
    return hashlib.sha256(token.encode()).hexdigest()


@dataclass(frozen=True)
class SavedSeat:
    """A member of a table as saved: a player (``token_hash``) or a host bot (``None``)."""

    name: str
    token_hash: str | None


@dataclass(frozen=True)
class Seating:
    """Who sits at a table, in the order they joined, and how it was dealt."""

    code: str
    seed: int
    members: tuple[SavedSeat, ...]
    started: bool  # the first deal is dealt (the table's autosave holds the session)

    def to_json(self) -> dict[str, Any]:
        members = [{"name": m.name, "token_hash": m.token_hash} for m in self.members]
        return {"version": SEATING_VERSION, "code": self.code, "seed": self.seed, "members": members,
                "started": self.started}

    @classmethod
    def from_json(cls, data: Any) -> Seating:
        """A seating file's JSON, checked; :class:`SaveError` naming what is wrong."""
        try:
            if not isinstance(data, dict) or data.get("version") != SEATING_VERSION:
                raise SaveError("not a seating of this version")
            code, seed, started = data["code"], data["seed"], data["started"]
            members = tuple(SavedSeat(str(m["name"]), m["token_hash"]) for m in data["members"])
            kinds = ((code, str), (seed, int), (started, bool))
            if any(not isinstance(value, kind) for value, kind in kinds) or not valid_code(code):
                raise SaveError("a value of the wrong type")
            if any(m.token_hash is not None and not isinstance(m.token_hash, str) for m in members):
                raise SaveError("a token of the wrong type")
        except (KeyError, TypeError) as exc:
            raise SaveError(f"damaged seating: {exc}") from None
        return cls(code, seed, members, started)


class TableStore:
    """One table's two files in the save folder ``folder``."""

    def __init__(self, folder: Path, code: str) -> None:
        self.folder = folder
        self.code = code
        self.seating_path = folder / f"{code}.json"
        self.autosave = Autosave(folder / f"{code}.sqlite3")

    def keep_seating(self, seating: Seating) -> None:
        """Write the seating (atomically; the file readable by its owner only: it names the players)."""
        write_atomically(self.seating_path, json.dumps(seating.to_json(), ensure_ascii=False, indent=1))
        self.seating_path.chmod(0o600)

    def load(self) -> tuple[Seating, Table | None]:
        """The seating, and the session once the first deal was dealt. :class:`SaveError` when
        either cannot be read (the caller sets the table aside)."""
        try:
            seating = Seating.from_json(json.loads(self.seating_path.read_text(encoding="utf-8")))
        except (OSError, ValueError) as exc:
            raise SaveError(f"cannot read {self.seating_path.name}: {exc}") from None
        if seating.code != self.code:
            raise SaveError(f"{self.seating_path.name} names table {seating.code}")
        return seating, self.autosave.load() if seating.started else None

    def clear(self) -> None:
        """The table is over: its files go."""
        self.autosave.clear()
        self.seating_path.unlink(missing_ok=True)

    def set_aside(self) -> None:
        """A table that cannot be read: its files renamed ``*.damaged-N``, never loaded half."""
        if self.autosave.path.exists():
            self.autosave.set_aside()
        if self.seating_path.exists():
            quarantine(self.seating_path)


def saved_tables(folder: Path) -> list[TableStore]:
    """The tables kept in ``folder`` (by their seating files), in code order."""
    if not folder.is_dir():
        return []
    codes = sorted(p.stem for p in folder.glob("*.json") if valid_code(p.stem))
    return [TableStore(folder, code) for code in codes]
