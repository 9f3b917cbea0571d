"""Double-dummy solver benchmark: solve times for full deals and endgames, compiled and Python.

The positions come from real play: normal bots bid and buy each deal (``--seed``) up to
its first card (a full deal: 13 cards a hand, or 12/11 in the misères with cards laid
away), and then play it on until each hand holds 7 cards or fewer (an endgame).
Run: ``python benchmarks/solver.py [--deals N] [--python N] [--json]``; prints figures.
"""

from __future__ import annotations

import argparse
import random
import time
from collections.abc import Callable

from _figures import print_figures

from vira_desktop.ai import make_bot
from vira_desktop.ai.native import NATIVE
from vira_desktop.ai.solver import Position, python_solve, solve
from vira_desktop.rules.deal import Deal, Phase
from vira_desktop.session.analysis import position_of


def positions(deals: int, seed: int, endgame_cards: int = 7) -> tuple[list[Position], list[Position]]:
    """Full-deal and endgame positions from ``deals`` deals of normal self-play."""
    rng = random.Random(seed)
    full: list[Position] = []
    ends: list[Position] = []
    while len(full) < deals:
        deal = Deal.from_number(rng.getrandbits(48))
        bots = [make_bot("normal", rng.getrandbits(32)) for _ in range(3)]
        while deal.phase is not Phase.DONE:
            if deal.phase is Phase.PLAY and not deal.trick:
                if not deal.tricks_played:
                    full.append(position_of(deal))
                if max(h.bit_count() for h in deal.hands) <= endgame_cards:
                    ends.append(position_of(deal))
                    break
            d = deal.decision()
            choice = bots[d.seat].choose(deal.view(d.seat))
            if choice.action is not None:
                deal.apply(choice.action)
    return full, ends


def _times(solver: Callable[[Position], int], ps: list[Position]) -> list[float]:
    out = []
    for p in ps:
        t0 = time.perf_counter()
        solver(p)
        out.append(1000 * (time.perf_counter() - t0))
    return sorted(out)


def _pct(ms: list[float], q: float) -> float | None:
    return round(ms[min(len(ms) - 1, int(q * len(ms)))], 3) if ms else None


def run(deals: int, python_deals: int, seed: int) -> dict[str, object]:
    full, ends = positions(deals, seed)
    out: dict[str, object] = {"compiled": NATIVE is not None, "full_deals": len(full), "endgames": len(ends)}
    if NATIVE is not None:
        f, e = _times(solve, full), _times(solve, ends)
        out.update(
            full_deal_ms_median=_pct(f, 0.5),
            full_deal_ms_p95=_pct(f, 0.95),
            full_deal_ms_max=round(f[-1], 3),
            endgame_ms_median=_pct(e, 0.5),
            endgame_ms_p95=_pct(e, 0.95),
        )
    pf = _times(python_solve, full[:python_deals])
    pe = _times(python_solve, ends[: max(python_deals, 20)])
    out.update(
        python_full_deals=len(pf),
        python_full_deal_ms_median=_pct(pf, 0.5),
        python_full_deal_ms_max=round(pf[-1], 3) if pf else None,
        python_endgame_ms_median=_pct(pe, 0.5),
    )
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--deals", type=int, default=100, help="full deals (and as many endgames)")
    parser.add_argument("--python", type=int, default=5, help="full deals the Python solver also solves")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--json", action="store_true", help="one JSON line (else one figure a line)")
    args = parser.parse_args()
    print_figures(run(args.deals, args.python, args.seed), args.json)


if __name__ == "__main__":
    main()
