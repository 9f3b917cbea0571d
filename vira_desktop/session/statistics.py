"""A player's statistics from history: the contracts he declared, how he fares against each
bot level, his results over time, and how often the contracts he defended were beaten.

Worked out from the rows :meth:`.history.History.deals` gives (no record is read), so a
history of ten thousand deals is counted in a few tens of milliseconds
(``benchmarks/statistics.py``).
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, field

from ..rules.games import GAMES
from .history import DealRow, SessionRow

__all__ = ["ContractLine", "LevelLine", "SessionPoint", "Stats", "players_of", "statistics"]

_ORDER = {g.name: g.no for g in GAMES}
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


def players_of(rows: Sequence[DealRow]) -> list[str]:
    """The people in history (not the bots), the one with the most deals first."""
    count: Counter[str] = Counter()
    for row in rows:
        for name in row.seats:
            if row.levels.get(name, "human") == "human":
                count[name] += 1
    return [name for name, _ in count.most_common()]


def statistics(rows: Sequence[DealRow], sessions: Sequence[SessionRow], player: str) -> Stats:
    """``player``'s statistics over the deals ``rows`` (of the sessions ``sessions``)."""
    stats = Stats(player)
    bids: Counter[str] = Counter()
    declared: dict[str, Counter[str]] = defaultdict(Counter)
    pins: dict[str, int] = defaultdict(int)
    by_session: dict[int, list[int]] = defaultdict(list)
    levels_at: dict[int, set[str]] = defaultdict(set)
    months: dict[str, list[int]] = defaultdict(lambda: [0, 0])
    for row in rows:
        if player not in row.seats:
            continue
        stats.deals += 1
        result = row.net_pins(player)
        by_session[row.session_id].append(result)
        levels_at[row.session_id].update(v for n, v in row.levels.items() if n != player and v != "human")
        for name, game in {(n, g) for n, g in row.bids}:
            if name == player:
                bids[game] += 1
        if row.declarer == player:
            declared[row.game][row.outcome] += 1
            pins[row.game] += result
            month = months[row.played[:7]]
            month[0] += 1
            month[1] += row.outcome == "home"
        else:
            stats.defended += 1
            stats.beaten += row.outcome != "home"
    for game in sorted(set(bids) | set(declared), key=lambda g: _ORDER.get(g, 99)):
        tally = declared.get(game, Counter())
        n = sum(tally.values())
        stats.contracts.append(
            ContractLine(
                game, bids[game], n, tally["home"], tally["bet"], tally["kodilj"], tally["laid"],
                pins[game] / n if n else 0.0,
            )
        )
    started = {s.id: s.started for s in sessions}
    for session_id, results in sorted(by_session.items(), key=lambda kv: (started.get(kv[0], ""), kv[0])):
        stats.sessions.append(SessionPoint(session_id, started.get(session_id, ""), len(results), sum(results) / 8))
    per_level: dict[str, list[SessionPoint]] = defaultdict(list)
    for point in stats.sessions:
        for level in levels_at[point.session_id]:
            per_level[level].append(point)
    for level in sorted(per_level, key=lambda v: (_LEVEL_ORDER.index(v) if v in _LEVEL_ORDER else 9, v)):
        points = per_level[level]
        deals = sum(p.deals for p in points)
        won = sum(p.bets > 0 for p in points)
        stats.levels.append(LevelLine(level, len(points), won, deals, 100 * sum(p.bets for p in points) / deals))
    stats.months = [(month, d, h) for month, (d, h) in sorted(months.items())]
    return stats

