"""A player's statistics from history: the contracts he declared, how he fares against each
bot level, his results over time, and how often the contracts he defended were beaten.

Counted by the database (its ``seats`` and ``bids`` tables, no record read), so a history
of ten thousand deals is counted in some tens of milliseconds (``benchmarks/history_stats.py``).
"""

from __future__ import annotations

from collections import Counter, defaultdict
from dataclasses import dataclass, field

from ..rules.games import GAMES
from .history import History

__all__ = ["ContractLine", "LevelLine", "SessionPoint", "Stats", "players_of", "statistics", "table_order"]

_ORDER = {g.name: g.no for g in GAMES}


def table_order(game: str) -> tuple[int, str]:
    """A sort key putting games in the bid table's order (a group bid, "gask", after them)."""
    return _ORDER.get(game, 99), game


_LEVEL_ORDER = ("random", "easy", "normal", "strong")


@dataclass(frozen=True, slots=True)
class ContractLine:
    """One game, as the player bid and declared it."""

    game: str
    bid: int  # deals in which the player bid it (named, or its group: gask, köpmisär, solo)
    declared: int
    home: int
    bet: int
    kodilj: int
    laid: int
    pins: float  # the mean result of the deals he declared it, in pins

    @property
    def home_share(self) -> float:
        return self.home / self.declared if self.declared else 0.0


@dataclass(frozen=True, slots=True)
class LevelLine:
    """Sessions against one bot level (a session counts for each level at its table)."""

    level: str
    sessions: int
    won: int  # sessions the player ended ahead in
    deals: int
    per_100: float  # the mean result per 100 deals, in bets


@dataclass(frozen=True, slots=True)
class SessionPoint:
    """One session's result for the player, in bets."""

    session_id: int
    started: str
    deals: int
    bets: float


@dataclass
class Stats:
    player: str
    deals: int = 0
    contracts: list[ContractLine] = field(default_factory=list)
    levels: list[LevelLine] = field(default_factory=list)
    sessions: list[SessionPoint] = field(default_factory=list)
    months: list[tuple[str, int, int]] = field(default_factory=list)  # (YYYY-MM, declared, home)
    defended: int = 0  # contracts the player defended
    beaten: int = 0  # ... that did not go home (bet, kodilj or laid down)

    @property
    def beaten_share(self) -> float:
        return self.beaten / self.defended if self.defended else 0.0


def players_of(history: History) -> list[str]:
    """Everyone in history, the people first (then the bots), each with the most deals first."""
    rows = history.query(
        "SELECT name, MAX(level = 'human') AS person, COUNT(*) AS deals FROM seats GROUP BY name"
        " ORDER BY person DESC, deals DESC, name"
    )
    return [str(r[0]) for r in rows]


# A deal played again from another is practice on a deal already counted: left out.
_FRESH = " AND s.deal_id NOT IN (SELECT id FROM deals WHERE parent_id IS NOT NULL)"


def statistics(history: History, player: str) -> Stats:
    """``player``'s statistics over every deal in ``history`` dealt fresh (counted by the
    database; a deal played again from another is left out)."""
    stats = Stats(player)
    q = history.query
    stats.deals = int(q("SELECT COUNT(*) FROM seats s WHERE name = ?" + _FRESH, (player,))[0][0])
    bids = {
        str(g): int(n)
        for g, n in q("SELECT game, COUNT(*) FROM bids s WHERE name = ?" + _FRESH + " GROUP BY game", (player,))
    }
    declared: dict[str, Counter[str]] = defaultdict(Counter)
    pins: dict[str, int] = defaultdict(int)
    for game, outcome, n, net in q(
        "SELECT d.game, d.outcome, COUNT(*), SUM(s.net) FROM seats s JOIN deals d ON d.id = s.deal_id"
        " WHERE s.name = ? AND s.declarer = 1" + _FRESH + " GROUP BY d.game, d.outcome",
        (player,),
    ):
        declared[game][outcome] += n
        pins[game] += net
    for game in sorted(set(bids) | set(declared), key=table_order):
        tally = declared.get(game, Counter())
        n = sum(tally.values())
        line = (tally["home"], tally["bet"], tally["kodilj"], tally["laid"], pins[game] / n if n else 0.0)
        stats.contracts.append(ContractLine(game, bids.get(game, 0), n, *line))
    for session_id, started, n, net in q(
        "SELECT s.session_id, ses.started, COUNT(*), SUM(s.net) FROM seats s JOIN sessions ses ON ses.id = s.session_id"
        " WHERE s.name = ?" + _FRESH + " GROUP BY s.session_id ORDER BY ses.started, s.session_id",
        (player,),
    ):
        stats.sessions.append(SessionPoint(session_id, started, n, net / 8))
    levels_at: dict[int, set[str]] = defaultdict(set)
    for session_id, level in q(
        "SELECT DISTINCT me.session_id, o.level FROM seats me JOIN seats o ON o.deal_id = me.deal_id"
        " WHERE me.name = ? AND o.name != me.name AND o.level != 'human'",
        (player,),
    ):
        levels_at[session_id].add(level)
    per_level: dict[str, list[SessionPoint]] = defaultdict(list)
    for point in stats.sessions:
        for level in levels_at[point.session_id]:
            per_level[level].append(point)
    for level in sorted(per_level, key=lambda v: (_LEVEL_ORDER.index(v) if v in _LEVEL_ORDER else 9, v)):
        points = per_level[level]
        deals = sum(p.deals for p in points)
        won = sum(p.bets > 0 for p in points)
        stats.levels.append(LevelLine(level, len(points), won, deals, 100 * sum(p.bets for p in points) / deals))
    stats.months = [
        (str(month), int(d), int(h))
        for month, d, h in q(
            "SELECT substr(d.played, 1, 7), COUNT(*), SUM(d.outcome = 'home') FROM seats s JOIN deals d"
            " ON d.id = s.deal_id WHERE s.name = ? AND s.declarer = 1" + _FRESH + " GROUP BY 1 ORDER BY 1",
            (player,),
        )
    ]
    defended, beaten = q(
        "SELECT COUNT(*), COALESCE(SUM(d.outcome != 'home'), 0) FROM seats s JOIN deals d ON d.id = s.deal_id"
        " WHERE s.name = ? AND s.declarer = 0" + _FRESH,
        (player,),
    )[0]
    stats.defended, stats.beaten = int(defended), int(beaten)
    return stats
