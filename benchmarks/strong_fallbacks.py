"""How often the strong bot's search gives up: strong self-play (the match budget: so many
layouts, no time limit, reproducible; ``--seconds``: the window's budget), every decision
the search weighs counted by its class (phase x game family x trick number band), and how
often the bot fell back to the normal bot's rule there because no layout (in play) or too
few worlds (before play) were solved; also the mean time a decision and the share of
layouts left out for the node limit.
Run: ``python benchmarks/strong_fallbacks.py [--deals N] [--seed S] [--contract GAME]
[--seconds X] [--json]``; prints one row a class, those above ``--flag`` (5%) marked.
"""

from __future__ import annotations

import argparse
import json
import random
import time
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, ClassVar

from vira_desktop.ai import strong
from vira_desktop.ai.strong import MATCH_BUDGET, Budget, StrongBot
from vira_desktop.rules.actions import Action
from vira_desktop.rules.deal import Deal, Phase
from vira_desktop.rules.games import game
from vira_desktop.rules.view import View
from vira_desktop.session.match import forced_auction

BANDS = ((1, 1), (2, 4), (5, 8), (9, 13))


def band(view: View) -> str:
    """The trick number band of a decision in trick play ("-" before it)."""
    if view.phase is not Phase.PLAY:
        return "-"
    n = len(view.tricks) + 1
    first, last = next(b for b in BANDS if b[0] <= n <= b[1])
    return str(first) if first == last else f"{first}-{last}"


LAYOUTS_SEEN = [0, 0]  # the layouts a card search solved and left out (for the node limit)
_move_values = getattr(strong, "move_values")  # noqa: B009 - the name the card search calls


def _counted(*args: Any, **kwargs: Any) -> Any:
    """The strong bot's solve of one layout's cards, counted in ``LAYOUTS_SEEN``."""
    got = _move_values(*args, **kwargs)
    LAYOUTS_SEEN[got is None] += 1
    return got


setattr(strong, "move_values", _counted)  # noqa: B010 - every layout the card search solves goes through it


@dataclass
class Row:
    decisions: int = 0
    fallbacks: int = 0
    seconds: float = 0.0
    solved: int = 0
    dropped: int = 0


class CountingBot(StrongBot):
    """The strong bot, telling each searched decision's class, whether it fell back, and
    how many layouts it solved and left out."""

    rows: ClassVar[defaultdict[tuple[str, str, str], Row]] = defaultdict(Row)

    def _key(self, view: View) -> tuple[str, str, str]:
        family = view.game.family.value if view.game is not None else "-"
        family += " low" if view.game is not None and view.low else ""
        return view.phase.value, family, band(view)

    def _search_cards(self, view: View, cards: list[Any]) -> Any:
        LAYOUTS_SEEN[:] = [0, 0]
        start = time.perf_counter()
        got = super()._search_cards(view, cards)
        solved, dropped = LAYOUTS_SEEN
        if solved or dropped:  # searched (not settled before it)
            row = self.rows[self._key(view)]
            row.decisions += 1
            row.fallbacks += got is None
            row.seconds += time.perf_counter() - start
            row.solved += solved
            row.dropped += dropped
        return got

    def _search_actions(self, view: View, candidates: Sequence[Action], bidding: bool = False) -> Any:
        start = time.perf_counter()
        got = super()._search_actions(view, candidates, bidding)
        row = self.rows[self._key(view)]
        row.decisions += 1
        row.fallbacks += got is None
        row.seconds += time.perf_counter() - start
        return got


def run(deals: int, seed: int, contract: str | None = None, seconds: float | None = None) -> dict[str, Any]:
    CountingBot.rows.clear()
    budget = MATCH_BUDGET if seconds is None else Budget(seconds=seconds)
    rng = random.Random(seed)
    start = time.perf_counter()
    for _ in range(deals):
        deal = Deal.from_number(rng.getrandbits(48))
        bots = [CountingBot(rng.getrandbits(32), budget) for _ in range(3)]
        for action in forced_auction(deal, game(contract), rng) if contract else ():
            deal.apply(action)
        while deal.phase is not Phase.DONE:
            d = deal.decision()
            choice = bots[d.seat].choose(deal.view(d.seat))
            if choice.action is not None:
                deal.apply(choice.action)
    rows = sorted(CountingBot.rows.items())
    return {
        "deals": deals,
        "seconds": round(time.perf_counter() - start, 1),
        "classes": [
            {
                "phase": k[0],
                "family": k[1],
                "tricks": k[2],
                "decisions": r.decisions,
                "fallback_pct": round(100 * r.fallbacks / r.decisions, 1),
                "ms_mean": round(1000 * r.seconds / r.decisions, 1),
                "layouts_dropped_pct": (
                    round(100 * r.dropped / (r.solved + r.dropped), 1) if r.solved + r.dropped else None
                ),
            }
            for k, r in rows
        ],
    }


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--deals", type=int, default=100)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--flag", type=float, default=5.0, help="mark classes falling back more often (percent)")
    ap.add_argument("--contract", help="every auction ends in this game (as vira simulate --contract)")
    ap.add_argument("--seconds", type=float, help="the window's budget, so many seconds")
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()
    figures = run(args.deals, args.seed, args.contract, args.seconds)
    if args.json:
        print(json.dumps(figures))
        return
    print(f"{figures['deals']} deals, {figures['seconds']} s")
    print(f"{'phase':14} {'family':10} {'tricks':6} {'n':>5} {'fallback%':>9} {'ms':>7} {'dropped%':>8}")
    for c in figures["classes"]:
        mark = "  <--" if c["fallback_pct"] > args.flag else ""
        dropped = "" if c["layouts_dropped_pct"] is None else c["layouts_dropped_pct"]
        print(
            f"{c['phase']:14} {c['family']:10} {c['tricks']:6} {c['decisions']:5} {c['fallback_pct']:9} "
            f"{c['ms_mean']:7} {dropped:>8}{mark}"
        )


if __name__ == "__main__":
    main()
