"""Every finished deal kept: an SQLite database (the standard library's ``sqlite3``) in the
per-user data folder.

- A deal enters history when it can no longer be undone (the table runner's deal-committed
  hook): its deal record (``docs/deal-record.md``) with its result, the session it belongs
  to, the seats and the bot levels, the date and the game's version.
- The schema has a version (``PRAGMA user_version``) and migrations: an older file is
  upgraded in place, in one transaction.
- The journal is write-ahead (WAL) and every deal is one transaction, synced to disk before
  it returns: a kill at any moment loses no finished deal and leaves the file whole.
- A file that cannot be read as this database is set aside (``history.damaged-TIME.sqlite3``)
  with a message for the player, and a new one is begun: play goes on.
"""

from __future__ import annotations

import json
import logging
import queue
import re
import sqlite3
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import Future
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import UTC, datetime
from functools import cached_property
from pathlib import Path
from typing import Any, Generic, TypeVar

from .. import __version__
from ..paths import move_database
from ..rules.actions import Bid, Pass, parse_action
from ..rules.games import BID_GROUPS
from .record import dump_record, parse_yaml
from .runner import CommittedDeal

__all__ = [
    "SCHEMA_VERSION", "DealRow", "History", "HistoryError", "HistoryWriter", "Pending", "SessionRow", "open_history",
]  # fmt: skip

log = logging.getLogger(__name__)
_T = TypeVar("_T")

# Each migration takes the file from the version before it to its own (index + 1).
MIGRATIONS: tuple[str, ...] = (
    """
    CREATE TABLE sessions (
        id INTEGER PRIMARY KEY,
        key TEXT NOT NULL UNIQUE,           -- the table's own key, kept in its autosave
        started TEXT NOT NULL,              -- ISO 8601, UTC
        seats TEXT NOT NULL,                -- JSON: the players' names, in table order
        levels TEXT NOT NULL,               -- JSON: each name's bot level, or "human"
        version TEXT NOT NULL               -- the game's version that began it
    );
    CREATE TABLE deals (
        id INTEGER PRIMARY KEY,
        session_id INTEGER NOT NULL REFERENCES sessions(id),
        number INTEGER NOT NULL,            -- the deal's index in its session, from 0
        played TEXT NOT NULL,               -- ISO 8601, UTC: when it was committed
        version TEXT NOT NULL,
        seats TEXT NOT NULL,                -- JSON: the three who played it, forehand first
        levels TEXT NOT NULL,               -- JSON: each name's bot level, or "human"
        game TEXT NOT NULL,
        declarer TEXT NOT NULL,
        outcome TEXT NOT NULL,              -- home, bet, kodilj, laid
        result TEXT NOT NULL,               -- JSON: the record's result block
        record TEXT NOT NULL,               -- the deal record, YAML
        parent_id INTEGER REFERENCES deals(id),  -- the deal it was played again from
        parent_action INTEGER,              -- after how many of the parent's actions
        UNIQUE (session_id, number)
    );
    CREATE INDEX deals_by_game ON deals (game);
    CREATE INDEX deals_by_declarer ON deals (declarer);
    CREATE INDEX deals_by_played ON deals (played);
    """,
    # 2: each deal's auction, for the statistics (how often each game was bid), from its record
    """
    ALTER TABLE deals ADD COLUMN bids TEXT NOT NULL DEFAULT '[]';  -- JSON: [[name, game bid], ...]
    """,
    # 3: a row a player of each deal, and the games each player bid, for statistics counted in SQL
    """
    CREATE TABLE seats (
        deal_id INTEGER NOT NULL REFERENCES deals(id),
        session_id INTEGER NOT NULL REFERENCES sessions(id),
        name TEXT NOT NULL,
        level TEXT NOT NULL,                -- a bot's level, or "human"
        declarer INTEGER NOT NULL,          -- 1: the deal's declarer
        net INTEGER NOT NULL,               -- the deal's result for the player, in pins
        PRIMARY KEY (deal_id, name)
    );
    CREATE INDEX seats_by_name ON seats (name, session_id);
    CREATE TABLE bids (
        deal_id INTEGER NOT NULL REFERENCES deals(id),
        name TEXT NOT NULL,
        game TEXT NOT NULL,                 -- a group bid that won the contract: the game played
        PRIMARY KEY (deal_id, name, game)
    );
    """,
    # 4: the deals played again from another, found without reading every deal (statistics leave them out)
    """
    CREATE INDEX IF NOT EXISTS deals_played_again ON deals (parent_id) WHERE parent_id IS NOT NULL;
    """,
    # 5: each player's bowl as the session began, so a deal's tokens can be worked out again (replay)
    """
    ALTER TABLE sessions ADD COLUMN bowl TEXT;  -- JSON: {"pin": 20, ...}; NULL: the game's default bowl
    """,
)
SCHEMA_VERSION = len(MIGRATIONS)


def auction_of(record: dict[str, Any]) -> list[tuple[str, str]]:
    """The bids of a record's auction, each as (player, the game or group bid); no passes."""
    out = []
    for item in record.get("actions") or []:
        ((name, text),) = item.items()
        action = parse_action(str(text), 0)
        if isinstance(action, Pass):
            continue
        if not isinstance(action, Bid):
            break
        out.append((str(name), action.game.name if action.game is not None else str(action.group)))
    return out


def _fill_bids(db: sqlite3.Connection) -> None:
    """Migration 2's data: the auction of every deal already kept, read from its record."""
    rows = db.execute("SELECT id, record FROM deals").fetchall()
    for deal_id, text in rows:
        db.execute("UPDATE deals SET bids = ? WHERE id = ?", (json.dumps(auction_of(parse_yaml(text))), deal_id))


def counted_bid(bid: str, name: str, declarer: str, game: str) -> str:
    """A bid as the statistics count it: a group bid without a level (gask, köpmisär, solo)
    that won ``name`` the contract counts for the game he chose; any other as it was said."""
    group = BID_GROUPS.get(bid)
    if group is not None and name == declarer and any(g.name == game for g in group[0]):
        return game
    return bid


def net_pins(result: dict[str, Any], name: str) -> int:
    """``name``'s result of a deal, from its record's result block, in pins: pins received,
    less 8 a bet paid into the pulla (as :meth:`~..rules.scoring.DealResult.net_pins`)."""
    return int(result["pins"].get(name, 0)) - 8 * int(result["pulla"].get(name, 0))


def _insert_seats(db: sqlite3.Connection, deal_id: int, session_id: int, levels: dict[str, str],
                  result: dict[str, Any], bids: list[tuple[str, str]]) -> None:  # fmt: skip
    """The rows of one deal in the seats and bids tables."""
    for name, level in levels.items():
        net = net_pins(result, name)
        db.execute(
            "INSERT OR IGNORE INTO seats (deal_id, session_id, name, level, declarer, net) VALUES (?, ?, ?, ?, ?, ?)",
            (deal_id, session_id, name, level, int(name == result["declarer"]), net),
        )
    for name, bid in bids:
        game = counted_bid(bid, name, result["declarer"], result["game"])
        db.execute("INSERT OR IGNORE INTO bids (deal_id, name, game) VALUES (?, ?, ?)", (deal_id, name, game))


def _fill_seats(db: sqlite3.Connection) -> None:
    """Migration 3's data: the seats and bids of every deal already kept."""
    rows = db.execute("SELECT id, session_id, levels, result, bids FROM deals").fetchall()
    for deal_id, session_id, levels, result, bids in rows:
        _insert_seats(db, deal_id, session_id, json.loads(levels), json.loads(result), json.loads(bids))


_AFTER: dict[int, Callable[[sqlite3.Connection], None]] = {2: _fill_bids, 3: _fill_seats}  # data a migration fills


class HistoryError(Exception):
    """The database cannot be used (damaged, or from a newer game)."""


@dataclass(frozen=True, slots=True)
class SessionRow:
    id: int
    key: str
    started: str
    seats: tuple[str, ...]
    levels: dict[str, str]
    deals: int
    bowl: dict[str, int] | None = None  # each player's bowl as the session began (None: the default)


class DealRow:
    """A deal kept, as the history list shows it: its JSON columns read when first asked for."""

    def __init__(self, r: tuple[Any, ...]) -> None:
        self._row = tuple(r)  # the columns as read: two rows are equal when these are
        (self.id, self.session_id, self.number, self.played, self._seats, self._levels, self.game, self.declarer,
         self.outcome, self._result, self.parent_id, self.parent_action, self._bids) = r  # fmt: skip

    @cached_property
    def seats(self) -> tuple[str, str, str]:
        """The three who played it, forehand first."""
        a, b, c = json.loads(self._seats)
        return (a, b, c)

    @cached_property
    def levels(self) -> dict[str, str]:
        """Each player's bot level, or "human"."""
        return dict(json.loads(self._levels))

    @cached_property
    def result(self) -> dict[str, Any]:
        """The record's result block."""
        return dict(json.loads(self._result))

    @cached_property
    def bids(self) -> list[tuple[str, str]]:
        """The auction's bids: (player, the game or group bid)."""
        return [(name, game) for name, game in json.loads(self._bids)]

    def net_pins(self, name: str) -> int:
        """``name``'s result of the deal in pins (pins received less 8 a bet paid in)."""
        return net_pins(self.result, name)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, DealRow) and self._row == other._row

    def __hash__(self) -> int:
        return hash(self.id)

    def __repr__(self) -> str:
        return f"DealRow(id={self.id}, session={self.session_id}, number={self.number}, {self.game}, {self.outcome})"


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")


class History:
    """The history database at ``path`` (made and upgraded as it opens). Safe to use from
    one thread at a time; the window writes from its saver thread."""

    def __init__(self, path: Path) -> None:
        self.path = path
        path.parent.mkdir(parents=True, exist_ok=True)
        self._lock = threading.Lock()
        try:
            self._db = sqlite3.connect(path, check_same_thread=False, isolation_level=None)
            self._db.execute("PRAGMA journal_mode=WAL")
            self._db.execute("PRAGMA synchronous=FULL")  # a deal returned is on disk
            self._db.execute("PRAGMA foreign_keys=ON")
            self._migrate()
        except sqlite3.DatabaseError as exc:
            raise HistoryError(f"{path.name}: {exc}") from exc

    def close(self) -> None:
        with self._lock:
            self._db.close()

    @contextmanager
    def _transaction(self) -> Iterator[sqlite3.Connection]:
        with self._lock:
            self._db.execute("BEGIN IMMEDIATE")
            try:
                yield self._db
            except BaseException:
                self._db.execute("ROLLBACK")
                raise
            self._db.execute("COMMIT")

    def _migrate(self) -> None:
        version = self._db.execute("PRAGMA user_version").fetchone()[0]
        if version > SCHEMA_VERSION:
            newer = f"schema {version}, this game reads {SCHEMA_VERSION}"
            raise HistoryError(f"{self.path.name} is from a newer game ({newer})")
        if version == SCHEMA_VERSION:
            return
        with self._transaction() as db:
            for step in range(version, SCHEMA_VERSION):
                for statement in re.sub(r"--[^\n]*", "", MIGRATIONS[step]).split(";"):  # comments dropped
                    if statement.strip():
                        db.execute(statement)
                if step + 1 in _AFTER:
                    _AFTER[step + 1](db)
            db.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")
        log.info("history %s: schema %d -> %d", self.path, version, SCHEMA_VERSION)

    @property
    def schema(self) -> int:
        return int(self._db.execute("PRAGMA user_version").fetchone()[0])

    # ------------------------------------------------------------------ writing
    def add_deal(
        self,
        session_key: str,
        number: int,
        record: dict[str, Any],
        table_seats: Sequence[str],
        levels: dict[str, str],
        parent: tuple[int, int] | None = None,
        started: str | None = None,
        played: str | None = None,
        bowl: dict[str, int] | None = None,
    ) -> int:
        """Keep a finished deal (its record with its result) as deal ``number`` of the session
        ``session_key`` (begun if new, with the table's ``table_seats`` and ``levels``);
        ``parent``: (deal id, actions) it was played again from; ``started`` and ``played``:
        when the session began and the deal ended (by default now); ``bowl``: each player's
        bowl as the session began, by kind (None: the default). The same deal of the same
        session added twice is kept once. Returns its id."""
        result = record.get("result")
        if not isinstance(result, dict):
            raise ValueError("only a finished deal (a record with its result) enters history")
        played = played or _now()
        with self._transaction() as db:
            db.execute(
                "INSERT OR IGNORE INTO sessions (key, started, seats, levels, version, bowl) VALUES (?, ?, ?, ?, ?, ?)",
                (
                    session_key,
                    started or played,
                    json.dumps(list(table_seats)),
                    json.dumps(levels),
                    __version__,
                    None if bowl is None else json.dumps(bowl),
                ),
            )
            session_id = db.execute("SELECT id FROM sessions WHERE key = ?", (session_key,)).fetchone()[0]
            row = db.execute(
                "SELECT id FROM deals WHERE session_id = ? AND number = ?", (session_id, number)
            ).fetchone()
            if row is not None:
                return int(row[0])
            players = [name for name in record["players"] if name != record.get("sitting_out")]
            kept = {n: levels.get(n, "human") for n in players}
            bids = auction_of(record)
            cur = db.execute(
                "INSERT INTO deals (session_id, number, played, version, seats, levels, game, declarer, outcome,"
                " result, record, parent_id, parent_action, bids) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (
                    session_id,
                    number,
                    played,
                    __version__,
                    json.dumps(_forehand_first(players, record["forehand"])),
                    json.dumps(kept),
                    result["game"],
                    result["declarer"],
                    result["outcome"],
                    json.dumps(result, ensure_ascii=False),
                    dump_record(record),
                    parent[0] if parent else None,
                    parent[1] if parent else None,
                    json.dumps(bids, ensure_ascii=False),
                ),
            )
            assert cur.lastrowid is not None
            _insert_seats(db, cur.lastrowid, session_id, kept, result, bids)
            return cur.lastrowid

    # ------------------------------------------------------------------ reading
    def sessions(self, session_id: int | None = None) -> list[SessionRow]:
        """Every session (or the one ``session_id``), the latest first, with its number of
        deals kept."""
        where, args = ("WHERE s.id = ?", (session_id,)) if session_id is not None else ("", ())
        rows = self._db.execute(
            "SELECT s.id, s.key, s.started, s.seats, s.levels, COUNT(d.id), s.bowl FROM sessions s"
            f" LEFT JOIN deals d ON d.session_id = s.id {where} GROUP BY s.id ORDER BY s.started DESC, s.id DESC",
            args,
        ).fetchall()
        return [
            SessionRow(r[0], r[1], r[2], tuple(json.loads(r[3])), json.loads(r[4]), r[5], r[6] and json.loads(r[6]))
            for r in rows
        ]

    def deals(
        self,
        session_id: int | None = None,
        game: str | None = None,
        declarer: str | None = None,
        outcome: str | None = None,
        since: str | None = None,
        until: str | None = None,
        deal_id: int | None = None,
    ) -> list[DealRow]:
        """The deals kept, oldest first, filtered by session, contract, declarer, outcome and
        date (``since`` and ``until``: ISO dates or times, ``until`` not included), or the one
        ``deal_id``."""
        where, args = [], []
        given = {"id": deal_id, "session_id": session_id, "game": game, "declarer": declarer, "outcome": outcome}
        for column, value in given.items():
            if value is not None:
                where.append(f"{column} = ?")
                args.append(value)
        if since is not None:
            where.append("played >= ?")
            args.append(since)
        if until is not None:
            where.append("played < ?")
            args.append(until)
        sql = (
            "SELECT id, session_id, number, played, seats, levels, game, declarer, outcome, result, parent_id,"
            " parent_action, bids FROM deals"
        )
        if where:
            sql += " WHERE " + " AND ".join(where)
        rows = self._db.execute(sql + " ORDER BY played, id", args).fetchall()
        return [DealRow(r) for r in rows]

    def record(self, deal_id: int) -> dict[str, Any]:
        """The deal record of a deal kept (as read from its YAML)."""
        data = parse_yaml(self.record_text(deal_id))
        assert isinstance(data, dict)
        return data

    def record_text(self, deal_id: int) -> str:
        """The deal record of a deal kept, as its YAML file."""
        row = self._db.execute("SELECT record FROM deals WHERE id = ?", (deal_id,)).fetchone()
        if row is None:
            raise KeyError(deal_id)
        return str(row[0])

    def query(self, sql: str, args: Sequence[object] = ()) -> list[tuple[Any, ...]]:
        """The rows of a read-only query (the statistics' counts)."""
        with self._lock:
            return self._db.execute(sql, args).fetchall()

    def count(self) -> int:
        return int(self._db.execute("SELECT COUNT(*) FROM deals").fetchone()[0])

    def integrity(self) -> str:
        """``PRAGMA integrity_check``: "ok" for a whole file."""
        return str(self._db.execute("PRAGMA integrity_check").fetchone()[0])


def _forehand_first(players: list[str], forehand: str) -> list[str]:
    i = players.index(forehand)
    return players[i:] + players[:i]


def open_history(path: Path, thorough: bool = True) -> tuple[History, str | None]:
    """The history at ``path``; a file that cannot be used is set aside first and a new one
    begun, with the name it was set aside as (else None). ``thorough``: every page checked
    (``PRAGMA integrity_check``: the writer's, in the background); else only what opening
    and counting the deals read (a screen opened at once)."""
    try:
        history = History(path)
        try:
            whole = history.integrity() == "ok" if thorough else history.count() >= 0
        except sqlite3.DatabaseError:
            whole = False
        if whole:
            return history, None
        history.close()
        problem = "the file is damaged"
    except HistoryError as exc:
        problem = str(exc)
    stamp = datetime.now(UTC).strftime("%Y%m%d-%H%M%S")
    aside = path.with_name(f"{path.stem}.damaged-{stamp}{path.suffix}")
    move_database(path, aside)
    log.warning("history %s set aside as %s: %s", path, aside.name, problem)
    return History(path), aside.name


class Pending(Generic[_T]):
    """An answer of the history's thread on its way: looked at each frame, never waited for
    on the frame loop. ``aside``: the name a damaged file was set aside as while it was worked
    out (a new history begun), else None."""

    def __init__(self) -> None:
        self._future: Future[_T] = Future()
        self.aside: str | None = None

    @property
    def done(self) -> bool:
        return self._future.done()

    def result(self) -> _T:
        """The answer (raises what the work raised); only once :attr:`done`."""
        assert self.done, "an answer is looked at when it is done, never waited for"
        return self._future.result()


@dataclass
class _Work(Generic[_T]):
    """A question for the history's thread, and where its answer goes."""

    work: Callable[[History], _T]
    pending: Pending[_T]


class HistoryWriter:
    """The history at ``path`` behind one daemon thread (never the frame loop): it keeps
    committed deals, one transaction a deal, and works out what is asked of it (:meth:`ask`),
    in the order handed over, so a question asked after a deal was handed over sees that deal.
    Opened at the first need: quickly checked for a question, every page checked before the
    first deal is written; a damaged file is set aside and a new one begun (for a deal,
    ``told`` gets the name it was set aside as; for a question, its answer carries it).
    ``journal``: a file that gets one JSON line per deal kept (the kill -9 test reads it)."""

    def __init__(self, path: Path, journal: Path | None = None, told: Callable[[str], None] | None = None) -> None:
        self.path = path
        self.journal = journal
        self.told = told
        self.kept = 0
        self._queue: queue.Queue[CommittedDeal | _Work[Any] | None] = queue.Queue()
        self._history: History | None = None
        self._checked = False  # every page of the file checked since it was opened
        self._thread = threading.Thread(target=self._run, name="vira-history", daemon=True)
        self._thread.start()

    def __call__(self, deal: CommittedDeal) -> None:
        """Keep ``deal`` (returns at once)."""
        self._queue.put(deal)

    def ask(self, work: Callable[[History], _T]) -> Pending[_T]:
        """``work`` done with the history on its thread (returns at once: poll the answer)."""
        pending: Pending[_T] = Pending()
        self._queue.put(_Work(work, pending))
        return pending

    def flush(self, timeout: float = 10.0) -> bool:
        """Wait until every deal handed over is kept and every question answered (``False``:
        it took longer than ``timeout``)."""
        deadline = time.monotonic() + timeout
        while self._queue.unfinished_tasks:
            if time.monotonic() > deadline:
                return False
            time.sleep(0.002)
        return True

    def close(self) -> None:
        """Stop the thread after what was handed over, and close the file."""
        self._queue.put(None)
        self._thread.join(timeout=10.0)

    def _run(self) -> None:
        while True:
            item = self._queue.get()
            try:
                if item is None:
                    if self._history is not None:
                        self._history.close()
                    return
                if isinstance(item, _Work):
                    self._answer(item)
                else:
                    self._keep(item)
            except (OSError, sqlite3.Error, HistoryError, ValueError) as exc:
                log.warning("a deal could not be kept in history: %s", exc)
            finally:
                self._queue.task_done()

    def _open(self, thorough: bool) -> tuple[History, str | None]:
        """The history (opened now if it is not; checked page by page if ``thorough`` and not
        yet), and the name a damaged file was set aside as on the way (else None)."""
        if self._history is not None and (self._checked or not thorough):
            return self._history, None
        if self._history is not None:
            self._history.close()
        self._history, aside = open_history(self.path, thorough)
        self._checked = thorough
        return self._history, aside

    def _answer(self, item: _Work[Any]) -> None:
        """A question answered; a file found damaged while it is read is set aside, and the
        question asked of the new one."""
        try:
            history, aside = self._open(thorough=False)
            try:
                answer = item.work(history)
            except sqlite3.DatabaseError:  # damage the quick opening did not see
                history.close()
                self._history = None
                history, aside = self._open(thorough=True)
                answer = item.work(history)
        except Exception as exc:  # the asker gets it, as a call would have raised it
            item.pending._future.set_exception(exc)
            return
        item.pending.aside = aside
        item.pending._future.set_result(answer)

    def _keep(self, deal: CommittedDeal) -> None:
        history, problem = self._open(thorough=True)
        if problem is not None and self.told is not None:
            self.told(problem)
        deal_id = history.add_deal(
            deal.session_key, deal.index, deal.record, deal.players or deal.seats, deal.levels, deal.parent,
            started=deal.started, bowl=deal.bowl,
        )
        self.kept += 1
        if self.journal is not None:
            with self.journal.open("a", encoding="utf-8") as f:
                f.write(json.dumps({"history": deal_id, "session": deal.session_key, "number": deal.index}) + "\n")
