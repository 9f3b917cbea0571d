"""A deal as it was played, for its replay and for playing it again: who was the person and
each bot's level, whose colour is whose, and the table as the deal began (the bowls and the
pulla after the session's earlier deals, worked out by playing them again from history)."""

from __future__ import annotations

import copy
import json
import logging
from collections.abc import Collection, Mapping
from dataclasses import dataclass, field
from typing import Any

from ..paths import last_table_file
from ..rules.errors import ViraError
from ..rules.ledger import Kind, LedgerEvent
from ..rules.session import Session
from .describe import is_you
from .history import DealRow, History
from .record import Record, read_record, record_actions

__all__ = ["AsPlayed", "as_played", "as_recorded", "clockwise", "your_names"]

log = logging.getLogger(__name__)

HUMAN = "human"


@dataclass(frozen=True)
class AsPlayed:
    """Who played a deal and the table it was played at."""

    levels: dict[str, str]  # everyone at the table: a bot's level, or "human"
    colours: tuple[str, ...]  # whose colour is whose (the new-game form's order, as at the table)
    player: str  # the seat the replay opens on: the person's (else forehand's)
    before: Session = field(repr=False)  # the table as the deal began: no deal in play yet
    opening: tuple[LedgerEvent, ...] = ()  # the åla, when the deal was the session's first

    def session(self) -> Session:
        """A copy of the table as the deal began, to seat the deal at."""
        return copy.deepcopy(self.before)


def clockwise(record: Record) -> list[str]:
    """Everyone at the deal's table, clockwise from forehand (a fourth player sits out between
    middle-hand and the dealer, rear-hand: "shuffle in, cut out")."""
    first, middle, rear = record.names
    return [first, middle, record.sitting_out, rear] if record.sitting_out else [first, middle, rear]


def your_names() -> frozenset[str]:
    """The names the player's own seats had at the last new game (its form, remembered)."""
    try:
        data = json.loads(last_table_file().read_text(encoding="utf-8"))
        return frozenset(str(s["name"]) for s in data["seats"] if s["human"])
    except (OSError, ValueError, KeyError, TypeError):
        return frozenset()


def _fresh(record: Record, bowl: dict[Kind, int] | None = None) -> tuple[Session, tuple[LedgerEvent, ...]]:
    """A fresh table for ``record``'s deal: full bowls (``bowl``: each one's, by default the
    game's) and the åla."""
    session, events = Session.start(clockwise(record), record.names[0], 0, record.deal.rules, bowl)
    return session, tuple(events)


def _played(session: Session, record: Record) -> None:
    """``record``'s deal played out at ``session``'s table (its dealer seated as the record says)."""
    session.dealer = session.players.index(record.names[2])
    session.seat_deal(record.deal.clone())
    for action in record_actions(record):
        session.apply(action)


def as_recorded(record: Record, you: Collection[str] = (), about: Mapping[str, Any] | None = None) -> AsPlayed:
    """A record known only by itself (a file, an imported deal): the person is the player
    called "You" (or one of ``you``, the names the player has used) if one of the record's
    players is, else forehand; the others normal bots; a fresh table. A file this game
    exported says more in its first line (``about``, see :mod:`.exchange`): who was human and
    each bot's level, and the table's order (its colours); a playtest found them dropped.
    The bowls and the pulla of the session's earlier deals are not in a file: a fresh table."""
    names = list(clockwise(record))
    told = {str(k): str(v) for k, v in (about or {}).get("levels", {}).items()} if about else {}
    humans = [n for n in record.names if told.get(n) == HUMAN]
    player = next((n for n in [*humans, *record.names] if n in humans or is_you(n) or n in you), record.names[0])
    table = [str(n) for n in (about or {}).get("table", ())] if about else []
    order = [n for n in table if n in names] + [n for n in names if n not in table]
    colours = tuple(order) if table else (player, *(n for n in names if n != player))
    levels = {n: told.get(n, HUMAN if n == player else "normal") for n in names}
    before, opening = _fresh(record)
    return AsPlayed(levels, colours, player, before, opening)


def _bowl(history: History, session_id: int) -> dict[Kind, int] | None:
    """Each player's bowl as the session began (None: the game's default bowl)."""
    (row,) = history.sessions(session_id)
    try:
        return {Kind[k.upper()]: int(v) for k, v in row.bowl.items()} if row.bowl else None
    except (KeyError, ValueError, AttributeError):
        return None


def _before(history: History, row: DealRow, record: Record) -> tuple[Session, tuple[LedgerEvent, ...]]:
    """The table as deal ``row`` began: its session's earlier deals played out from a fresh
    table (a deal played again: as the deal it was played from began). A session whose
    earlier deals history lacks, or cannot play, gives a fresh table."""
    if row.number == 0 and row.parent_id is not None:
        parents = history.deals(deal_id=row.parent_id)
        if parents:
            return _before(history, parents[0], read_record(history.record(parents[0].id)))
    bowl = _bowl(history, row.session_id)
    if row.number == 0:
        return _fresh(record, bowl)
    earlier = {r.number: r for r in history.deals(session_id=row.session_id) if r.number < row.number}
    if sorted(earlier) != list(range(row.number)):
        return _fresh(record, bowl)
    try:
        records = [read_record(history.record(earlier[n].id)) for n in range(row.number)]
        first = records[0]
        session, _ = Session.start(clockwise(first), first.names[0], 0, first.deal.rules, bowl)
        if sorted(session.players) != sorted(clockwise(record)):
            return _fresh(record, bowl)
        for played in records:
            _played(session, played)
    except (ViraError, ValueError, KeyError) as exc:
        log.warning("deal %d: the session's earlier deals could not be played again: %s", row.id, exc)
        return _fresh(record, bowl)
    session.deal = None
    return session, ()


def as_played(history: History, deal_id: int, you: Collection[str] = ()) -> AsPlayed:
    """Deal ``deal_id`` of history as it was played: its session's seats (the form's order)
    and levels, and the bowls and pulla as they stood when it began. A deal imported without
    them: as :func:`as_recorded` (``you``: the names the player has used)."""
    (row,) = history.deals(deal_id=deal_id)
    (session_row,) = history.sessions(row.session_id)
    record = read_record(history.record(deal_id))
    if session_row.key.startswith("import:"):  # a record from elsewhere: who played is not known
        return as_recorded(record, you)
    names = clockwise(record)
    levels = {n: str(session_row.levels.get(n, row.levels.get(n, HUMAN))) for n in names}
    colours = tuple(n for n in session_row.seats if n in names)
    colours += tuple(n for n in names if n not in colours)
    player = next((n for n in record.names if levels[n] == HUMAN), record.names[0])
    before, opening = _before(history, row, record)
    return AsPlayed(levels, colours, player, before, opening)
