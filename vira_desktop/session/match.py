"""Drives deals and sessions with bots through the :class:`~.flow.Flow`: simulations and
duplicate matches (``vira simulate``, ``vira match``)."""

from __future__ import annotations

import multiprocessing
import random
import time
from collections import Counter, defaultdict
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from ..ai import Bot, make_bot
from ..ai.strong import MATCH_BUDGET
from ..rules.actions import Action, Bid, Pass
from ..rules.deal import Deal
from ..rules.games import GAMES, Game, game
from ..rules.houserules import HouseRules
from ..rules.ledger import Kind
from ..rules.scoring import Outcome
from ..rules.session import Session, draw_seating
from .exchange import file_name
from .flow import Flow, FlowEvent
from .record import dump_record, record_of

__all__ = ["SimulationStats", "auction_won_by", "forced_auction", "headless_bot", "play_deal", "simulate"]


def forced_auction(deal: Deal, game: Game, rng: random.Random) -> list[Action]:
    """Bids that end the auction in ``game`` for a random declarer (``--contract``).

    Forehand must open: when someone else is to declare, forehand opens with
    begär and the declarer then bids the game; the others pass.
    """
    level = rng.choice((0, 1, 2)) if game.free_trump else 0
    declarer = rng.randrange(3) if game.no > 1 else 0
    return auction_won_by(Bid(declarer, game, None, level))


def auction_won_by(bid: Bid) -> list[Action]:
    """An auction that ``bid`` wins: forehand opens with begär when another seat is
    to declare, and the others pass."""
    if bid.seat == 0:
        return [bid, Pass(1), Pass(2)]
    opener = Bid(0, GAMES[0])
    if bid.seat == 1:
        return [opener, bid, Pass(2), Pass(0)]
    return [opener, Pass(1), bid, Pass(0)]


def play_deal(
    deal: Deal,
    bots: Sequence[Bot],
    apply: Callable[[Action], Sequence[FlowEvent]] | None = None,
    check: Callable[[], bool] | None = None,
) -> int:
    """Play ``deal`` to the end with one bot per seat; returns the number of actions.

    ``apply`` defaults to ``deal.apply`` (a session passes its own, which pays
    through the ledger); ``check`` is called after every action and must hold.
    """
    flow = Flow(lambda: deal, apply)
    count = 0
    while (ask := flow.ask()) is not None:
        choice = bots[ask.seat].choose(ask.view)
        flow.answer(ask, choice.action)
        if choice.action is None:
            continue
        count += 1
        if check is not None and not check():
            raise AssertionError(f"conservation broken after {choice.action}")
    return count


@dataclass
class SimulationStats:
    deals: int = 0
    actions: int = 0
    errors: int = 0
    conservation_ok: bool = True
    bids: Counter[str] = field(default_factory=Counter)  # the game each bid stood for when made
    levels_fixed: Counter[str] = field(default_factory=Counter)  # levels chosen for passed unspecified bids
    contract_outcomes: defaultdict[str, Counter[str]] = field(default_factory=lambda: defaultdict(Counter))
    seconds: float = 0.0
    first_error: str | None = None

    @property
    def contracts(self) -> Counter[str]:
        """Deals played in each contract."""
        return Counter({name: sum(c.values()) for name, c in self.contract_outcomes.items()})

    @property
    def outcomes(self) -> Counter[str]:
        """Deals by outcome (home, bet, kodilj, laid), every contract together."""
        return sum(self.contract_outcomes.values(), Counter())

    def as_json(self) -> dict[str, object]:
        outcomes = self.outcomes
        played = sum(outcomes.values())
        home = outcomes[Outcome.HOME]
        return {
            "deals": self.deals,
            "actions": self.actions,
            "seconds": round(self.seconds, 3),
            "deals_per_s": round(self.deals / self.seconds, 1) if self.seconds else None,
            "errors": self.errors,
            "first_error": self.first_error,
            "conservation_ok": self.conservation_ok,
            "contracts": dict(sorted(self.contracts.items(), key=lambda kv: _rank(kv[0]))),
            "bids": dict(sorted(self.bids.items(), key=lambda kv: _rank(kv[0]))),
            "levels_fixed": dict(sorted(self.levels_fixed.items(), key=lambda kv: _rank(kv[0]))),
            # games bid: named by a bid, or the level fixed for a passed "gask"/"köpmisär"/"solo"
            "games_bid": len(set(self.bids) | set(self.levels_fixed)),
            "outcomes": {k.value: outcomes[k] for k in Outcome},
            "declarer_home_pct": round(100 * home / played, 2) if played else 0.0,
            "kodilj_pct": round(100 * outcomes[Outcome.KODILJ] / played, 2) if played else 0.0,
            "contract_outcomes": {
                name: dict(self.contract_outcomes[name]) for name in sorted(self.contract_outcomes, key=_rank)
            },
        }


def _rank(name: str) -> int:
    return game(name).no


def write_record(folder: Path, name: str, data: dict[str, object], head: str = "") -> Path:
    """Write a deal record (``data``, after the comment line ``head`` if any) as ``folder/name``."""
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / name
    path.write_text((f"# {head}\n" if head else "") + dump_record(data), encoding="utf-8")
    return path


def simulate(
    deals: int,
    seed: int,
    players: int = 3,
    bots: Sequence[str] = ("random",),
    contract: Game | None = None,
    check: bool = True,
    rules: HouseRules | None = None,
    bowl: dict[Kind, int] | None = None,
    records: Path | None = None,
) -> SimulationStats:
    """Headless self-play of ``deals`` deals in one session, checking conservation; each deal
    played (a broken one as far as it went) written as a deal record in ``records``."""
    names = ["North", "East", "South", "West"][:players]
    rng = random.Random(seed)
    levels = list(bots) * (players if len(bots) == 1 else 1)
    if len(levels) != players:
        raise ValueError(f"give one bot level, or one per player ({players})")
    seat_bots = {n: headless_bot(level, seed * 10 + i) for i, (n, level) in enumerate(zip(names, levels, strict=True))}
    draw = draw_seating(names, rng)
    session, _ = Session.start(list(draw.order), draw.forehand, seed, rules, bowl)
    stats = SimulationStats()
    start = time.perf_counter()
    for i in range(deals):
        deal = session.new_deal()
        bots_here = [seat_bots[n] for n in session.seats]
        seats, out = session.seats, session.sitting_out

        def conserved(deal: Deal = deal) -> bool:
            return deal.cards_conserved() and session.ledger.conserved()

        error = None
        try:
            if contract is not None:
                for action in forced_auction(deal, contract, rng):
                    session.apply(action)
            stats.actions += play_deal(deal, bots_here, session.apply, conserved if check else None)
        except AssertionError as exc:
            stats.conservation_ok = False
            error = str(exc)
        except Exception as exc:  # a simulation reports errors instead of stopping
            error = f"{type(exc).__name__}: {exc}"
        if records is not None:
            name = file_name(f"simulate-s{seed}", i, deal.result.game.name if deal.result else "unfinished")
            write_record(records, name, record_of(deal, seats, out), f"vira simulate --seed {seed}: deal {i + 1}")
        if error is not None:
            stats.errors += 1
            stats.first_error = stats.first_error or error
            break
        assert deal.result is not None
        stats.deals += 1
        stats.bids.update(g.name for g in deal.bid_games)
        if deal.final_bid is not None and deal.final_bid.game is None:
            stats.levels_fixed[deal.result.game.name] += 1
        stats.contract_outcomes[deal.result.game.name][deal.result.outcome.value] += 1
    stats.seconds = time.perf_counter() - start
    return stats


# ---------------------------------------------------------------------- duplicate matches
SIDE_PATTERNS = ("abb", "bab", "bba", "aab", "aba", "baa")


@dataclass
class MatchStats:
    """A duplicate match: every deal is played six times, the sides swapped round the seats."""

    a: str
    b: str
    deals: int = 0
    scores: dict[str, list[float]] = field(default_factory=lambda: {"a": [], "b": []})
    declared: Counter[str] = field(default_factory=Counter)
    home: Counter[str] = field(default_factory=Counter)
    kodilj: Counter[str] = field(default_factory=Counter)
    families: dict[str, Counter[str]] = field(default_factory=lambda: {"a": Counter(), "b": Counter()})
    seconds: float = 0.0

    def as_json(self) -> dict[str, object]:
        import math

        n = self.deals
        diffs = [x - y for x, y in zip(self.scores["a"], self.scores["b"], strict=True)]
        mean = sum(diffs) / n if n else 0.0
        var = sum((d - mean) ** 2 for d in diffs) / (n - 1) if n > 1 else 0.0
        half = 1.96 * math.sqrt(var / n) if n else 0.0
        blocks = [range(i, min(i + 100, n)) for i in range(0, n, 100)]
        won = {
            side: sum(
                1
                for block in blocks
                if sum(self.scores[side][i] for i in block) > sum(self.scores[other][i] for i in block)
            )
            for side, other in (("a", "b"), ("b", "a"))
        }
        return {
            "deals": n,
            "plays": 6 * n,
            "seconds": round(self.seconds, 2),
            "a": self.a,
            "b": self.b,
            "mean_bets_per_100": {s: round(100 * sum(v) / n, 2) if n else 0.0 for s, v in self.scores.items()},
            "diff_ci95": [round(100 * (mean - half), 2), round(100 * (mean + half), 2)],
            "sessions": len(blocks),
            "sessions_won_pct": {s: round(100 * won[s] / len(blocks), 1) if blocks else 0.0 for s in won},
            "declarer_home_pct": {
                s: round(100 * self.home[s] / self.declared[s], 1) if self.declared[s] else None for s in ("a", "b")
            },
            "kodilj_pct": {
                s: round(100 * self.kodilj[s] / self.declared[s], 1) if self.declared[s] else None for s in ("a", "b")
            },
            "bets_per_family": {
                s: {k: round(v / 8, 2) for k, v in sorted(c.items())} for s, c in self.families.items()
            },
        }


@dataclass(frozen=True, slots=True)
class _Play:
    """One of a deal's six plays: the declarer's side, what he declared and how it went."""

    side: str
    family: str
    outcome: Outcome
    declarer_pins: int


def _match_deal(
    a: str, b: str, seed: int, i: int, number: int, records: Path | None = None
) -> tuple[dict[str, float], list[_Play]]:
    """Deal ``i`` of a match (deal number ``number``) played six times: each side's mean
    result in bets, and the plays (each written as a deal record in ``records``, its players
    named by side and seat: A1, B2, B3)."""
    totals = {"a": 0.0, "b": 0.0}
    plays: list[_Play] = []
    for pattern in SIDE_PATTERNS:
        deal = Deal.from_number(number)
        bots = [headless_bot(a if side == "a" else b, seed * 7919 + i * 6 + s) for s, side in enumerate(pattern)]
        play_deal(deal, bots)
        result = deal.result
        assert result is not None
        if records is not None:
            names = (f"{pattern[0].upper()}1", f"{pattern[1].upper()}2", f"{pattern[2].upper()}3")
            head = f"vira match --a {a} --b {b} --seed {seed}: deal {i + 1}, sides {pattern} (A: {a}, B: {b})"
            write_record(records, file_name(f"match-s{seed}", i, pattern), record_of(deal, names), head)
        for seat, side in enumerate(pattern):
            totals[side] += result.net_pins(seat) / 8
        family = result.game.family.value
        plays.append(_Play(pattern[result.declarer], family, result.outcome, result.net_pins(result.declarer)))
    return {side: total / len(SIDE_PATTERNS) for side, total in totals.items()}, plays


def headless_bot(level: str, seed: int) -> Bot:
    """A bot for a simulation or a match: the strong one with the reproducible budget (so
    many layouts, no time limit), so a run depends on its seed alone."""
    return make_bot(level, seed, MATCH_BUDGET if level == "strong" else None)


def _match_deal_star(job: tuple[str, str, int, int, int, Path | None]) -> tuple[dict[str, float], list[_Play]]:
    return _match_deal(*job)


def duplicate_match(a: str, b: str, deals: int, seed: int, jobs: int = 1, records: Path | None = None) -> MatchStats:
    """Play ``deals`` deals six times each, bots of level ``a`` and ``b`` swapped round the seats,
    in ``jobs`` processes (the result does not depend on how many); every play written as a
    deal record in ``records``.

    A side's score for a deal is its mean result (bets, pins at 1/8 bet) over the six plays.
    """
    for level in (a, b):
        make_bot(level)  # an unknown level fails here, before any process starts
    rng = random.Random(seed)
    work = [(a, b, seed, i, rng.getrandbits(48), records) for i in range(deals)]
    stats = MatchStats(a, b)
    start = time.perf_counter()
    if jobs > 1:
        with multiprocessing.get_context("spawn").Pool(jobs) as pool:
            results = list(pool.imap(_match_deal_star, work, chunksize=1))
    else:
        results = [_match_deal(*job) for job in work]
    for scores, plays in results:
        for play in plays:
            stats.declared[play.side] += 1
            stats.home[play.side] += play.outcome is Outcome.HOME
            stats.kodilj[play.side] += play.outcome is Outcome.KODILJ
            stats.families[play.side][play.family] += play.declarer_pins
        for side in ("a", "b"):
            stats.scores[side].append(scores[side])
        stats.deals += 1
    stats.seconds = time.perf_counter() - start
    return stats
