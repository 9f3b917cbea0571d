"""How long the statistics scene takes to open with a big history: a database of N deals
(100 deals played by the normal bots, kept again under N / 100 sessions, their opponents'
levels varied), then the scene pushed and drawn once, headless; the median of a few runs.
Run: ``python benchmarks/history_stats.py [--deals 10000] [--runs 5] [--json]``.
"""

from __future__ import annotations

import argparse
import os
import statistics as stats
import tempfile
import time
from pathlib import Path

from _figures import print_figures

LEVELS = ("easy", "normal", "strong", "random")


def fill(path: Path, deals: int) -> float:
    """A history of ``deals`` deals at ``path``; the seconds it took to write."""
    from vira_desktop.session.history import History
    from vira_desktop.session.runner import CommittedDeal, TableRunner
    from vira_desktop.session.table import SeatConfig, Table

    table = Table([SeatConfig(n, False, "normal") for n in ("Anna", "Bertil", "Cecilia")], 7)
    played: list[CommittedDeal] = []
    runner = TableRunner(table, pause=0, autoplay=100, on_committed=played.append)
    runner.start()
    step = 0
    while not runner.finished:
        step += 1
        runner.poll(float(step))
    history = History(path)
    history._db.execute("PRAGMA synchronous=OFF")  # filling the benchmark's file only: no sync a deal
    start = time.perf_counter()
    for s in range(deals // 100):
        level = LEVELS[s % len(LEVELS)]
        levels = {"Anna": "human", "Bertil": level, "Cecilia": level}
        for d in played:
            history.add_deal(f"bench-{s}", d.index, d.record, d.players, levels, started=f"2026-{1 + s % 12:02d}-01")
    history.close()
    return time.perf_counter() - start


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--deals", type=int, default=10_000)
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()
    folder = Path(tempfile.mkdtemp(prefix="vira-stats-"))
    os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
    os.environ["VIRA_DATA_DIR"] = str(folder / "data")
    os.environ["VIRA_CONFIG_DIR"] = str(folder / "config")
    from vira_desktop.paths import history_file

    written = fill(history_file(), args.deals)
    from vira_desktop.scenes.app import App
    from vira_desktop.session.history import History

    app = App(seed=1)
    app.to_menu()
    app.step(0.0)
    opened, counted = [], []
    for _ in range(args.runs):
        start = time.perf_counter()
        app.push("statistics")  # opens the database, reads every deal, counts and lays out the charts
        app.step(0.0)  # and draws its first frame
        opened.append(time.perf_counter() - start)
        app.stack.pop()
        app.step(0.0)
        history = History(history_file())
        start = time.perf_counter()
        from vira_desktop.session.statistics import statistics

        statistics(history, "Anna")
        counted.append(time.perf_counter() - start)
        history.close()
    print_figures(
        {
            "deals": args.deals,
            "runs": args.runs,
            "open_ms_median": round(1000 * stats.median(opened), 1),
            "open_ms_max": round(1000 * max(opened), 1),
            "read_and_count_ms_median": round(1000 * stats.median(counted), 1),
            "fill_ms_per_deal_unsynced": round(1000 * written / args.deals, 2),
        },
        args.json,
    )


if __name__ == "__main__":
    main()
