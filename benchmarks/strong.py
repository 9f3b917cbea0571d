"""The strong bot's thinking time: every decision of strong bots playing deals at a budget
(by default the window's, 0.4 s), timed; prints the median, p95 and max overall, for the
card play and for the decisions before it (bids, buys, trump, play or lay down), the share of
decisions over their budget (a card's: the budget's seconds; one before play: 1.5 times
that, ``strong.BEFORE_PLAY_TIME``), how many layouts a card search solved and how many worlds
a decision before play played out (mean), and how many cards were searched.

``--before DIR``: the same run by another checkout too, in a subprocess each, in turn (the
order swapped every round), side by side.

Run: ``python benchmarks/strong.py [--deals N] [--seed S] [--seconds X] [--before DIR] [--json]``.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

from _figures import print_figures

from vira_desktop.ai.strong import Budget, StrongBot
from vira_desktop.rules.deal import Deal, Phase


def _pct(xs: list[float], q: float) -> float:
    return round(1000 * xs[min(len(xs) - 1, int(q * len(xs)))], 1)


ROOT = Path(__file__).resolve().parent.parent


def _counting() -> dict[str, int]:
    """Count the layouts the strong bot solves (its solves that came back with an answer) and
    the worlds it plays out for a decision before play, by wrapping what it calls."""
    from vira_desktop.ai import strong

    counts = {"layouts": 0, "worlds": 0}

    def wrap(name: str, key: str) -> None:
        inner = getattr(strong, name)

        def counted(*args: object, **kwargs: object) -> object:
            out = inner(*args, **kwargs)
            counts[key] += out is not None
            return out

        setattr(strong, name, counted)

    wrap("move_values", "layouts")
    search_actions = strong.StrongBot._search_actions

    def worlds_counted(self: strong.StrongBot, *args: Any, **kwargs: Any) -> Any:
        tallies = search_actions(self, *args, **kwargs)
        counts["worlds"] += max((t.n for t in tallies.values()), default=0) if tallies else 0
        return tallies

    strong.StrongBot._search_actions = worlds_counted  # type: ignore[method-assign]
    return counts


def run(deals: int, seed: int, seconds: float) -> dict[str, object]:
    from vira_desktop.ai.strong import BEFORE_PLAY_TIME

    counts = _counting()
    rng = random.Random(seed)
    layouts: list[int] = []  # per card searched
    worlds: list[int] = []  # per decision before play that played worlds out
    over = 0
    every: list[float] = []
    cards: list[float] = []
    before: list[float] = []  # decisions before play that the search weighs (after the auction)
    searched = 0
    for _ in range(deals):
        deal = Deal.from_number(rng.getrandbits(48))
        bots = [StrongBot(rng.getrandbits(32), Budget(seconds=seconds)) for _ in range(3)]
        while deal.phase is not Phase.DONE:
            d = deal.decision()
            view = deal.view(d.seat)
            solved, played = counts["layouts"], counts["worlds"]
            t0 = time.perf_counter()
            choice = bots[d.seat].choose(view)
            spent = time.perf_counter() - t0
            every.append(spent)
            if deal.phase is Phase.PLAY and not d.optional:
                cards.append(spent)
                over += spent > seconds
                searched += choice.reason.key.startswith("search_")
                if counts["layouts"] > solved:
                    layouts.append(counts["layouts"] - solved)
            elif deal.phase is not Phase.PLAY:
                before.append(spent)
                over += spent > BEFORE_PLAY_TIME * seconds
                if counts["worlds"] > played:
                    worlds.append(counts["worlds"] - played)
            if choice.action is not None:
                deal.apply(choice.action)
    every.sort()
    cards.sort()
    before.sort()
    return {
        "deals": deals,
        "budget_s": seconds,
        "decisions": len(every),
        "decision_ms_median": _pct(every, 0.5),
        "decision_ms_p95": _pct(every, 0.95),
        "decision_ms_max": round(1000 * every[-1], 1),
        "card_ms_median": _pct(cards, 0.5),
        "card_ms_p95": _pct(cards, 0.95),
        "before_play_ms_median": _pct(before, 0.5),
        "before_play_ms_p95": _pct(before, 0.95),
        "before_play_ms_max": round(1000 * before[-1], 1) if before else None,
        "share_over_budget": round(over / len(every), 4),
        "layouts_per_card_search": round(sum(layouts) / len(layouts), 1) if layouts else None,
        "worlds_per_decision_before_play": round(sum(worlds) / len(worlds), 1) if worlds else None,
        "cards_searched_and_changed": searched,
    }


def _in_tree(tree: Path, args: list[str]) -> dict[str, object]:
    """:func:`run` by the checkout ``tree``, in a subprocess."""
    env = {**os.environ, "PYTHONPATH": str(tree)}
    done = subprocess.run(
        [sys.executable, __file__, *args, "--json"], cwd=tree, env=env, capture_output=True, text=True
    )
    if done.returncode != 0:
        raise RuntimeError(f"{tree}: exit {done.returncode}: {done.stderr[-800:]}")
    out: dict[str, object] = json.loads(done.stdout)
    return out


def side_by_side(before: Path, args: list[str], rounds: int) -> dict[str, object]:
    """Each figure of :func:`run` by this checkout and by ``before``, the rounds in turn (a
    figure's value: its median over the rounds, the first round's where one)."""
    trees = {"after": ROOT, "before": before.resolve()}
    runs: dict[str, list[dict[str, object]]] = {"after": [], "before": []}
    for round_ in range(rounds):
        for name in ("after", "before") if round_ % 2 == 0 else ("before", "after"):
            runs[name].append(_in_tree(trees[name], args))
    out: dict[str, object] = {"rounds": rounds}
    for key in runs["after"][0]:
        for name in ("before", "after"):
            numbers = [r[key] for r in runs[name]]
            values = sorted(v for v in numbers if isinstance(v, int | float))
            out[f"{key}_{name}"] = values[len(values) // 2] if values else None
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--deals", type=int, default=20)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--seconds", type=float, default=Budget().seconds or 0.4)
    ap.add_argument("--before", type=Path, help="another checkout (the code before), run side by side")
    ap.add_argument("--rounds", type=int, default=1, help="with --before: runs of each checkout")
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()
    if args.before is not None:
        own = ["--deals", str(args.deals), "--seed", str(args.seed), "--seconds", str(args.seconds)]
        print_figures(side_by_side(args.before, own, args.rounds), args.json)
        return
    print_figures(run(args.deals, args.seed, args.seconds), args.json)


if __name__ == "__main__":
    main()
