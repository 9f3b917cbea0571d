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
95% CI. Run: ``python benchmarks/bid_search.py [--deals N] [--seed S] [--jobs J]``.
"""

from __future__ import annotations

import argparse
import json
import math
import multiprocessing
import random
import time

from vira_desktop.ai import Bot, make_bot
from vira_desktop.ai.base import Choice
from vira_desktop.ai.strong import MATCH_BUDGET, StrongBot
from vira_desktop.rules.deal import Deal
from vira_desktop.rules.decision import Phase
from vira_desktop.rules.view import View
from vira_desktop.session.match import SIDE_PATTERNS, MatchStats, play_deal

CHECK_EVERY = 10  # every so many deals with no bid changed are played again to check they end the same


class _Searching(StrongBot):
    """The strong bot with its bids searched (by value), noting each bid the search changed."""

    search_bids = True
    bid_by_value = True

    def __init__(self, seed: int) -> None:
        super().__init__(seed, MATCH_BUDGET)
        self.changed = 0

    def choose(self, view: View) -> Choice:
        choice = super().choose(view)
        if view.phase is Phase.AUCTION and choice.reason.key == "search_choice":
            self.changed += 1
        return choice


def _plays(number: int, seed: int, i: int, searching: bool) -> tuple[dict[str, float], int, list[tuple[str, str]]]:
    """Deal ``number`` (deal ``i`` of the match) six times: each side's mean result in bets,
    the bids the search changed, and each play's declaring side and outcome."""
    totals = {"a": 0.0, "b": 0.0}
    changed = 0
    outcomes = []
    for pattern in SIDE_PATTERNS:
        deal = Deal.from_number(number)
        seeds = [seed * 7919 + i * 6 + s for s in range(3)]  # as the match seeds its bots
        bots: list[Bot] = [
            (_Searching(seeds[s]) if searching else make_bot("strong", seeds[s], MATCH_BUDGET))
            if side == "a"
            else make_bot("normal", seeds[s])
            for s, side in enumerate(pattern)
        ]
        play_deal(deal, bots)
        result = deal.result
        assert result is not None
        for seat, side in enumerate(pattern):
            totals[side] += result.net_pins(seat) / 8
        changed += sum(b.changed for b in bots if isinstance(b, _Searching))
        outcomes.append((pattern[result.declarer], result.outcome.value))
    return {s: v / len(SIDE_PATTERNS) for s, v in totals.items()}, changed, outcomes


def _deal(job: tuple[int, int, int]) -> dict[str, object]:
    seed, i, number = job
    searched, changed, outcomes = _plays(number, seed, i, True)
    out: dict[str, object] = {"i": i, "searched": searched, "changed": changed, "outcomes": outcomes}
    if changed or i % CHECK_EVERY == 0:
        out["normal_bids"], _, out["normal_outcomes"] = _plays(number, seed, i, False)
    return out


def run(deals: int, seed: int, jobs: int) -> dict[str, object]:
    rng = random.Random(seed)
    work = [(seed, i, rng.getrandbits(48)) for i in range(deals)]  # the match's deals
    start = time.perf_counter()
    with multiprocessing.get_context("spawn").Pool(jobs) as pool:
        rows = list(pool.imap(_deal, work, chunksize=1))
    matches = {"searched": MatchStats("strong, bids searched", "normal"), "normal_bids": MatchStats("strong", "normal")}
    gains: list[float] = []
    mismatched = 0
    for row in rows:
        searched = row["searched"]
        assert isinstance(searched, dict)
        plain = row.get("normal_bids", searched)
        assert isinstance(plain, dict)
        if not row["changed"] and plain != searched:
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
        gains.append((searched["a"] - searched["b"]) - (plain["a"] - plain["b"]))
    n = len(gains)
    mean = sum(gains) / n
    sd = math.sqrt(sum((g - mean) ** 2 for g in gains) / (n - 1)) if n > 1 else 0.0
    half = 1.96 * sd / math.sqrt(n) if n else 0.0
    keep = ("mean_bets_per_100", "diff_ci95", "sessions_won_pct", "declarer_home_pct", "kodilj_pct")
    return {
        "deals": n,
        "seed": seed,
        "seconds": round(time.perf_counter() - start, 1),
        "deals_with_a_bid_changed": sum(1 for r in rows if r["changed"]),
        "bids_changed": sum(int(str(r["changed"])) for r in rows),
        "checked_unchanged": sum(1 for r in rows if not r["changed"] and "normal_bids" in r),
        "unchanged_but_different": mismatched,
        "bids_searched": {k: v for k, v in matches["searched"].as_json().items() if k in keep},
        "normal_bids": {k: v for k, v in matches["normal_bids"].as_json().items() if k in keep},
        "gain_per_100": round(100 * mean, 2),
        "gain_ci95": [round(100 * (mean - half), 2), round(100 * (mean + half), 2)],
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--deals", type=int, default=300)
    parser.add_argument("--seed", type=int, default=22)
    parser.add_argument("--jobs", type=int, default=2)
    args = parser.parse_args()
    print(json.dumps(run(args.deals, args.seed, args.jobs), ensure_ascii=False, indent=1))


if __name__ == "__main__":
    main()
