"""Does bidding by search help the strong bot? A paired answer on a duplicate match's deals.

``vira match --a strong --b normal`` measures the strong bot against the normal one; two such
matches, one with the strong bot's bids searched and one without, differ by far less than
either's noise, so comparing their results tells little. Here each deal of the match is played
(six times, the sides swapped round the seats, as the match plays it) with the bids searched;
only a deal in which a search changed a bid can end otherwise without it, so only those deals
are played again with the normal bot's bids, and their difference is the gain. Some deals with
no bid changed are played again too, to check that they do end the same.

Prints, as JSON: the match with bids searched (as ``vira match`` would print it), the same
match's result with the normal bot's bids, and the paired gain of searching bids with its
95% CI, also by what the search made of the bids it changed (bid or pass). ``--gain-only``:
the gain alone, each deal's auctions played first and the deal played out only where a bid
changed (a few times quicker). Run: ``python benchmarks/bid_search.py [--deals N] [--seed S]
[--jobs J] [--gain-only]``.

``--set NAME=VALUE`` (repeatable) measures another change to the strong bot the same way:
the strong bot with those class attributes (``threshold=0.58``, ``kodilj_aversion=1.3``)
against the strong bot as it is (``budget.worlds=20``: a field of the match's budget). With
``--gain-only`` a deal is played out only where the two choose otherwise at some decision
before the first card, both asked in step. ``--whole`` (for a change to the card play, which
may differ at any card): every deal is played both ways, and a deal counts as changed where
its results differ.
"""

from __future__ import annotations

import argparse
import json
import math
import multiprocessing
import random
import time
from dataclasses import fields, replace

from vira_desktop.ai import Bot, make_bot
from vira_desktop.ai.base import Choice
from vira_desktop.ai.strong import MATCH_BUDGET, Budget, StrongBot
from vira_desktop.rules.actions import Pass
from vira_desktop.rules.deal import Deal
from vira_desktop.rules.decision import Phase
from vira_desktop.rules.view import View
from vira_desktop.session.flow import Flow
from vira_desktop.session.match import SIDE_PATTERNS, MatchStats, play_deal

CHECK_EVERY = 10  # every so many deals with no bid changed are played again to check they end the same
OVERRIDES: dict[str, float] = {}  # --set: the variant's class attributes (empty: bids searched)
BUDGET = "budget."  # --set budget.FIELD=N: a field of the match's budget (MATCH_BUDGET) instead


class _Searching(StrongBot):
    """The strong bot with its bids searched (by value), noting each bid the search changed."""

    search_bids = True
    bid_by_value = True

    def __init__(self, seed: int) -> None:
        super().__init__(seed, MATCH_BUDGET)
        self.changes: list[str] = []  # each bid the search changed: what it made of it (bid, pass)

    def choose(self, view: View) -> Choice:
        choice = super().choose(view)
        if view.phase is Phase.AUCTION and choice.reason.key == "search_choice":
            self.changes.append("pass" if isinstance(choice.action, Pass) else "bid")
        return choice


def _variant(seed: int) -> StrongBot:
    """The bot measured: the strong bot with ``OVERRIDES`` (or with its bids searched)."""
    if not OVERRIDES:
        return _Searching(seed)
    bot = StrongBot(seed, MATCH_BUDGET)
    for name, value in OVERRIDES.items():
        if name.startswith(BUDGET):  # budget.worlds=20: a field of the match's budget
            bot.budget = replace(bot.budget, **{name.removeprefix(BUDGET): int(value)})
        else:
            setattr(bot, name, value)
    return bot


def _seated(pattern: str, seed: int, i: int, variant: bool) -> list[Bot]:
    """The bots of one play of deal ``i``, seeded as the match seeds them: side "a" the
    variant (or the strong bot as it is), side "b" the normal bot."""
    seeds = [seed * 7919 + i * 6 + s for s in range(3)]
    return [
        (_variant(seeds[s]) if variant else make_bot("strong", seeds[s], MATCH_BUDGET))
        if side == "a"
        else make_bot("normal", seeds[s])
        for s, side in enumerate(pattern)
    ]


def _diverges(number: int, seed: int, i: int) -> list[str]:
    """The phases (one a play) where the variant and the strong bot as it is first choose
    otherwise before the first card, each asked in step on its own copy of deal ``number``."""
    out: list[str] = []
    for pattern in SIDE_PATTERNS:
        sides = [_seated(pattern, seed, i, variant) for variant in (True, False)]
        deals = [Deal.from_number(number), Deal.from_number(number)]
        flows = [Flow(lambda d=d: d) for d in deals]  # type: ignore[misc]
        while deals[0].phase is not Phase.PLAY and (ask := flows[0].ask()) is not None:
            other = flows[1].ask()
            assert other is not None
            a = sides[0][ask.seat].choose(ask.view).action
            b = sides[1][other.seat].choose(other.view).action
            if a != b:
                out.append(deals[0].phase.name.lower())
                break
            flows[0].answer(ask, a)
            flows[1].answer(other, b)
    return out


def _plays(
    number: int, seed: int, i: int, searching: bool, auction_only: bool = False
) -> tuple[dict[str, float], list[str], list[tuple[str, str]]]:
    """Deal ``number`` (deal ``i`` of the match) six times: each side's mean result in bets,
    the bids the search changed (none for a ``--set`` variant: :func:`_diverges` tells its
    changes), and each play's declaring side and outcome (``auction_only``: the auctions
    alone, for the bids changed)."""
    totals = {"a": 0.0, "b": 0.0}
    changes: list[str] = []
    outcomes = []
    for pattern in SIDE_PATTERNS:
        deal = Deal.from_number(number)
        bots = _seated(pattern, seed, i, searching)
        if auction_only:
            while deal.phase is Phase.AUCTION:
                choice = bots[deal.to_act].choose(deal.view(deal.to_act))
                assert choice.action is not None
                deal.apply(choice.action)
        else:
            play_deal(deal, bots)
            result = deal.result
            assert result is not None
            for seat, side in enumerate(pattern):
                totals[side] += result.net_pins(seat) / 8
            outcomes.append((pattern[result.declarer], result.outcome.value))
        changes += [c for b in bots if isinstance(b, _Searching) for c in b.changes]
    return {s: v / len(SIDE_PATTERNS) for s, v in totals.items()}, changes, outcomes


def _deal(job: tuple[int, int, int, bool, dict[str, float], bool]) -> dict[str, object]:
    seed, i, number, gain_only, overrides, whole = job
    OVERRIDES.update(overrides)  # in the pool's process
    if whole:  # a change to the card play: every deal played both ways
        searched, _, outcomes = _plays(number, seed, i, True)
        plain, _, plain_outcomes = _plays(number, seed, i, False)
        changed = ["ended otherwise"] if searched != plain else []
        return {
            "i": i,
            "searched": searched,
            "changes": changed,
            "outcomes": outcomes,
            "normal_bids": plain,
            "normal_outcomes": plain_outcomes,
        }
    diverged = _diverges(number, seed, i) if OVERRIDES else None  # a --set variant's changes, asked once
    if gain_only:  # a deal whose auctions the search leaves alone plays as without it: not played
        changes = diverged if diverged is not None else _plays(number, seed, i, True, auction_only=True)[1]
        if not changes:
            return {"i": i, "changes": changes}
    searched, changes, outcomes = _plays(number, seed, i, True)
    if diverged is not None:
        changes = diverged
    out: dict[str, object] = {"i": i, "searched": searched, "changes": changes, "outcomes": outcomes}
    if changes or i % CHECK_EVERY == 0:
        out["normal_bids"], _, out["normal_outcomes"] = _plays(number, seed, i, False)
    return out


def run(
    deals: int,
    seed: int,
    jobs: int,
    gain_only: bool = False,
    overrides: dict[str, float] | None = None,
    whole: bool = False,
) -> dict[str, object]:
    rng = random.Random(seed)
    work = [
        (seed, i, rng.getrandbits(48), gain_only, overrides or {}, whole) for i in range(deals)
    ]  # the match's deals
    start = time.perf_counter()
    with multiprocessing.get_context("spawn").Pool(jobs) as pool:
        rows = list(pool.imap(_deal, work, chunksize=1))
    out: dict[str, object] = {
        "deals": len(rows),
        "seed": seed,
        "variant": overrides or "bids searched",
        "seconds": round(time.perf_counter() - start, 1),
        "deals_with_a_bid_changed": sum(1 for r in rows if _changes(r)),
        "bids_changed": sum(len(_changes(r)) for r in rows),
        **_gain([_deal_gain(r) for r in rows]),
        "by_change": _by_change(rows),
    }
    return out if gain_only else {**out, **_matches(rows)}


def _changes(row: dict[str, object]) -> list[str]:
    changes = row["changes"]
    assert isinstance(changes, list)
    return changes


def _matches(rows: list[dict[str, object]]) -> dict[str, object]:
    """The match with the bids searched and with the normal bot's, and the check of the pairing."""
    matches = {"searched": MatchStats("strong, bids searched", "normal"), "normal_bids": MatchStats("strong", "normal")}
    mismatched = 0
    for row in rows:
        searched = row["searched"]
        plain = row.get("normal_bids", searched)
        assert isinstance(searched, dict) and isinstance(plain, dict)
        if not _changes(row) and plain != searched:
            mismatched += 1  # a deal with no bid changed that ended otherwise: the pairing is off
        for name, scores, outcomes in (
            ("searched", searched, row["outcomes"]),
            ("normal_bids", plain, row.get("normal_outcomes", row["outcomes"])),
        ):
            stats = matches[name]
            for side in ("a", "b"):
                stats.scores[side].append(scores[side])
            for side, outcome in outcomes:  # type: ignore[attr-defined]
                stats.declared[side] += 1
                stats.home[side] += outcome == "home"
                stats.kodilj[side] += outcome == "kodilj"
            stats.deals += 1
    keep = ("mean_bets_per_100", "diff_ci95", "sessions_won_pct", "declarer_home_pct", "kodilj_pct")
    return {
        "checked_unchanged": sum(1 for r in rows if not _changes(r) and "normal_bids" in r),
        "unchanged_but_different": mismatched,
        "bids_searched": {k: v for k, v in matches["searched"].as_json().items() if k in keep},
        "normal_bids": {k: v for k, v in matches["normal_bids"].as_json().items() if k in keep},
    }


def _gain(gains: list[float]) -> dict[str, object]:
    """The mean gain a 100 deals (a deal with no bid changed gains 0), with its 95% CI."""
    n = len(gains)
    mean = sum(gains) / n
    sd = math.sqrt(sum((g - mean) ** 2 for g in gains) / (n - 1)) if n > 1 else 0.0
    half = 1.96 * sd / math.sqrt(n)
    return {"gain_per_100": round(100 * mean, 2), "gain_ci95": [round(100 * m, 2) for m in (mean - half, mean + half)]}


def _deal_gain(row: dict[str, object]) -> float:
    """What searching the bids gained in one deal: its lead over the normal bot less the lead without."""
    searched, plain = row.get("searched"), row.get("normal_bids")
    if not _changes(row) or not isinstance(searched, dict) or not isinstance(plain, dict):
        return 0.0
    return float((searched["a"] - searched["b"]) - (plain["a"] - plain["b"]))


def _by_change(rows: list[dict[str, object]]) -> dict[str, object]:
    """The deals with a bid changed, by what the search made of their bids (bid, pass, or both
    kinds), with their gain a 100 deals of the match."""
    kinds: dict[str, list[float]] = {}
    for row in rows:
        if changes := _changes(row):
            kinds.setdefault("+".join(sorted(set(changes))), []).append(_deal_gain(row))
    return {k: {"deals": len(v), "gain_per_100": round(100 * sum(v) / len(rows), 2)} for k, v in kinds.items()}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--deals", type=int, default=300)
    parser.add_argument("--seed", type=int, default=22)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--gain-only", action="store_true", help="the gain alone: a deal played only if a bid changed")
    parser.add_argument("--whole", action="store_true", help="every deal played both ways (a card-play change)")
    parser.add_argument("--set", action="append", default=[], metavar="NAME=VALUE", help="measure this change instead")
    args = parser.parse_args()
    overrides = {name: float(value) for name, value in (item.split("=", 1) for item in args.set)}
    for name in overrides:
        if name.startswith(BUDGET) and name.removeprefix(BUDGET) in {f.name for f in fields(Budget)}:
            continue
        if not hasattr(StrongBot, name):
            parser.error(f"the strong bot has no attribute {name}")
    print(
        json.dumps(
            run(args.deals, args.seed, args.jobs, args.gain_only, overrides, args.whole), ensure_ascii=False, indent=1
        )
    )


if __name__ == "__main__":
    main()
