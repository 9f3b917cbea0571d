"""Double-dummy solver benchmark: solve times for full deals and endgames, compiled and Python;
with ``--before DIR``, this code against another checkout's, side by side in one run.

The positions come from real play: normal bots bid and buy each deal (``--seed``) up to
its first card (a full deal: 13 cards a hand, or 12/11 in the misères with cards laid
away), and then play it on until each hand holds 7 cards or fewer (an endgame). A full deal
is solved exactly (the declarer's tricks, 0 to 13) with no guess, exactly from the contract's
need as the analysis asks (``full_deal_from_need``), and in the band the bots ask about
("home, bet or kodilj?": the need and two below it, a misère 0 to 2). Each process first
solves one endgame (``first_solve_ms``: the solver's tables are made then), so that no deal's
time includes that.

``--before DIR``: the same positions (drawn here) are timed by each checkout in a subprocess
of its own, in turn (the order swapped every round, so a machine that slows down weighs on
both alike); each position's time is its median over the rounds, and every value must be
the same in both (``values_identical``). The other checkout needs its compiled helper built.

Run: ``python benchmarks/solver.py [--deals N] [--python N] [--before DIR] [--rounds R] [--json]``.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import subprocess
import sys
import time
from pathlib import Path

from _figures import print_figures

ROOT = Path(__file__).resolve().parent.parent
Case = tuple[list[object], int, int, int]  # the position's fields, the band's floor and ceiling, a guess


def positions(deals: int, seed: int, endgame_cards: int = 7) -> tuple[list[Case], list[Case]]:
    """Full-deal and endgame positions from ``deals`` deals of normal self-play, each with
    the band of the outcomes (floor, ceiling and guess: the need)."""
    from vira_desktop.ai import make_bot
    from vira_desktop.rules.deal import Deal, Phase
    from vira_desktop.session.analysis import position_of

    rng = random.Random(seed)
    full: list[Case] = []
    ends: list[Case] = []
    while len(full) < deals:
        deal = Deal.from_number(rng.getrandbits(48))
        bots = [make_bot("normal", rng.getrandbits(32)) for _ in range(3)]
        while deal.phase is not Phase.DONE:
            if deal.phase is Phase.PLAY and not deal.trick:
                assert deal.game is not None and deal.declarer is not None
                p = position_of(deal)
                won = deal.tricks_won[deal.declarer]
                need = 0 if deal.low else deal.game.tricks - won
                floor, ceiling = (0, 2 - won) if deal.low else (max(0, need - 2), need)
                fields: list[object] = [list(p.hands), p.trump, p.to_act, p.declarer, p.low, p.aces_low, [], p.left()]
                case = (fields, floor, max(floor, ceiling), need)
                if not deal.tricks_played:
                    full.append(case)
                if max(h.bit_count() for h in deal.hands) <= endgame_cards:
                    ends.append(case)
                    break
            d = deal.decision()
            choice = bots[d.seat].choose(deal.view(d.seat))
            if choice.action is not None:
                deal.apply(choice.action)
    return full, ends


def time_cases(cases: list[Case], kind: str) -> tuple[list[float], list[int], list[int]]:
    """Each case's solve time (ms), value and search nodes (where the compiled solver counts
    them: else none), with this process's solver: ``kind`` "exact" (compiled, 0 to 13), "guessed"
    (the same, searched from the need), "band" (compiled, the band only) or "python" (exact, pure
    Python)."""
    from vira_desktop.ai.native import NATIVE
    from vira_desktop.ai.solver import Position, python_solve, solve

    searched = getattr(NATIVE, "searched", None) if kind != "python" else None
    ms: list[float] = []
    values: list[int] = []
    nodes: list[int] = []
    for fields, floor, ceiling, need in cases:
        hands, trump, to_act, declarer, low, aces_low, _, left = fields
        assert isinstance(hands, list)
        p = Position(tuple(hands), trump, to_act, declarer, low, aces_low, (), left)  # type: ignore[arg-type]
        before = searched() if searched else 0
        t0 = time.perf_counter()
        if kind == "band":
            values.append(solve(p, False, need, floor, ceiling))
        elif kind == "guessed":
            values.append(solve(p, False, need))
        elif kind == "python":
            values.append(python_solve(p))
        else:
            values.append(solve(p))
        ms.append(1000 * (time.perf_counter() - t0))
        if searched:
            nodes.append(searched() - before)
    return ms, values, nodes


def _pct(ms: list[float], q: float) -> float | None:
    ms = sorted(ms)
    return round(ms[min(len(ms) - 1, int(q * len(ms)))], 3) if ms else None


def first_solve(cases: list[Case]) -> float:
    """The time (ms) of this process's first solve, the first of ``cases`` (the compiled
    solver makes its tables then): done before any case is timed."""
    ms, _, _ = time_cases(cases[:1], "exact")
    return round(ms[0], 3)


def _worker() -> None:
    """Time the cases read from stdin ({"kind": [cases]}) and print {"kind": [ms, values]}
    (and the first solve's time, as "first": [[ms], [], []])."""
    jobs = json.load(sys.stdin)
    first = first_solve(jobs["exact:endgame"]) if "exact:endgame" in jobs else 0.0
    out = {kind: time_cases(cases, kind.split(":")[0]) for kind, cases in jobs.items()}
    print(json.dumps({**out, "first": ([first], [], [])}))


def _in_tree(tree: Path, jobs: dict[str, list[Case]]) -> dict[str, tuple[list[float], list[int], list[int]]]:
    """:func:`time_cases` for ``jobs`` run by the checkout ``tree``, in a subprocess."""
    env = {**os.environ, "PYTHONPATH": str(tree)}
    command = [sys.executable, __file__, "--worker"]
    done = subprocess.run(command, input=json.dumps(jobs), cwd=tree, env=env, capture_output=True, text=True)
    if done.returncode != 0:
        raise RuntimeError(f"{tree}: exit {done.returncode}: {done.stderr[-800:]}")
    out: dict[str, tuple[list[float], list[int], list[int]]] = json.loads(done.stdout)
    return out


def _figures(name: str, ms: list[float], nodes: list[int]) -> dict[str, object]:
    out: dict[str, object] = {f"{name}_ms_{q}": _pct(ms, x) for q, x in (("median", 0.5), ("p95", 0.95), ("max", 1))}
    if nodes:
        out.update({f"{name}_nodes_median": int(statistics.median(nodes)), f"{name}_nodes_max": max(nodes)})
    return out


def run(deals: int, python_deals: int, seed: int, before: Path | None, rounds: int) -> dict[str, object]:
    from vira_desktop.ai.native import NATIVE

    full, ends = positions(deals, seed)
    out: dict[str, object] = {"compiled": NATIVE is not None, "full_deals": len(full), "endgames": len(ends)}
    jobs: dict[str, list[Case]] = {}
    if NATIVE is not None:
        jobs.update(
            {
                "exact:full_deal": full,
                "guessed:full_deal_from_need": full,
                "band:full_deal_band": full,
                "exact:endgame": ends,
            }
        )
    jobs.update(
        {"python:python_full_deal": full[:python_deals], "python:python_endgame": ends[: max(python_deals, 20)]}
    )
    jobs = {kind: cases for kind, cases in jobs.items() if cases}
    if before is None:
        if NATIVE is not None:
            out["first_solve_ms"] = first_solve(ends)
        for kind, cases in jobs.items():
            ms, _, nodes = time_cases(cases, kind.split(":")[0])
            out.update(_figures(kind.split(":")[1], ms, nodes))
        return out
    trees = {"after": ROOT, "before": before.resolve()}
    runs: dict[str, list[dict[str, tuple[list[float], list[int], list[int]]]]] = {"after": [], "before": []}
    for round_ in range(rounds):
        for name in ("after", "before") if round_ % 2 == 0 else ("before", "after"):
            runs[name].append(_in_tree(trees[name], jobs))
    out["rounds"] = rounds
    same = True
    for kind in jobs:
        figure = kind.split(":")[1]
        for name in ("before", "after"):
            times = [statistics.median(r[kind][0][i] for r in runs[name]) for i in range(len(jobs[kind]))]
            for key, value in _figures(figure, times, runs[name][0][kind][2]).items():
                out[f"{key}_{name}"] = value
        for i in range(len(jobs[kind])):
            same &= len({r[kind][1][i] for rs in runs.values() for r in rs}) == 1
    out["values_identical"] = same
    for name in ("before", "after"):
        out[f"first_solve_ms_{name}"] = round(statistics.median(r["first"][0][0] for r in runs[name]), 3)
    return out


def main() -> None:
    if sys.argv[1:] == ["--worker"]:
        _worker()
        return
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=100, help="full deals (and as many endgames)")
    parser.add_argument("--python", type=int, default=5, help="full deals the Python solver also solves")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--before", type=Path, help="another checkout (the code before), timed side by side")
    parser.add_argument("--rounds", type=int, default=3, help="with --before: runs of each checkout")
    parser.add_argument("--json", action="store_true", help="one JSON line (else one figure a line)")
    args = parser.parse_args()
    print_figures(run(args.deals, args.python, args.seed, args.before, args.rounds), args.json)


if __name__ == "__main__":
    main()
