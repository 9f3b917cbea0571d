"""How long the statistics and history screens take to open with a big history: a database
of N deals (100 deals played by the normal bots, kept again under N / 100 sessions, their
opponents' levels varied), then each screen pushed, headless; the median of a few runs.

- ``open_ms``: the frame loop's own time for the push and the first frame (the window is
  held that long);
- ``shown_ms``: until the screen draws its figures or lists (frames stepped meanwhile; with
  history's thread, the reading happens there);
- ``wait_frame_ms_max``: the longest of the frames drawn while the screen waited.

Run: ``python benchmarks/history_stats.py [--deals 10000] [--runs 5] [--file PATH] [--json]``
(``--file``: a history filled once and kept, for the next run; set PYTHONPATH to the tree to
measure).
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics as stats
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

from _figures import print_figures

if TYPE_CHECKING:
    from vira_desktop.scenes.base import SceneName

LEVELS = ("easy", "normal", "strong", "random")


def fill(path: Path, deals: int) -> float:
    """A history of ``deals`` deals at ``path``; the seconds it took to write."""
    from vira_desktop.session.factory import played_by_bots
    from vira_desktop.session.history import History

    _, played = played_by_bots(("Anna", "Bertil", "Cecilia"), 7, 100)
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


def _opened(app: object, name: SceneName, shown: Callable[[object], bool]) -> tuple[float, float, float]:
    """Push the screen ``name`` and step frames until ``shown`` says it draws what it read:
    the frame loop's time for the push and first frame, the time until shown, the longest
    frame meanwhile (seconds)."""
    from vira_desktop.scenes.app import App

    assert isinstance(app, App)
    start = time.perf_counter()
    app.push(name)
    app.step(0.0)
    opened = time.perf_counter() - start
    longest = 0.0
    while not shown(app.stack.top):
        frame = time.perf_counter()
        app.step(1 / 60)
        longest = max(longest, time.perf_counter() - frame)
        time.sleep(max(0.0, 1 / 60 - (time.perf_counter() - frame)))  # 60 frames a second, as the window
    done = time.perf_counter() - start
    app.stack.pop()
    app.step(0.0)
    return opened, done, longest


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--deals", type=int, default=10_000)
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--file", type=Path, help="a history filled once and kept here")
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()
    folder = Path(tempfile.mkdtemp(prefix="vira-stats-"))
    os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
    os.environ["VIRA_DATA_DIR"] = str(folder / "data")
    os.environ["VIRA_CONFIG_DIR"] = str(folder / "config")
    from vira_desktop.paths import history_file

    if args.file is not None and args.file.exists():
        history_file().parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(args.file, history_file())
        written = None
    else:
        written = fill(history_file(), args.deals)
        if args.file is not None:
            shutil.copyfile(history_file(), args.file)
    from vira_desktop.scenes.app import App
    from vira_desktop.session.history import History
    from vira_desktop.session.statistics import statistics

    app = App(seed=1)
    app.to_menu()
    app.step(0.0)
    screens: dict[str, tuple[SceneName, Callable[[object], bool]]] = {
        "stats": ("statistics", lambda scene: bool(getattr(scene, "charts", None))),
        "history": ("history", lambda scene: getattr(scene, "loaded", True)),  # before: read as it opened
    }
    figures: dict[str, object] = {"deals": History(history_file()).count(), "runs": args.runs}
    counted = []
    for key, (name, shown) in screens.items():
        timed = [_opened(app, name, shown) for _ in range(args.runs)]
        for i, what in enumerate(("open_ms", "shown_ms", "wait_frame_ms")):
            values = [run[i] for run in timed]
            figures[f"{key}_{what}_median"] = round(1000 * stats.median(values), 1)
            figures[f"{key}_{what}_max"] = round(1000 * max(values), 1)
    for _ in range(args.runs):
        history = History(history_file())
        start = time.perf_counter()
        statistics(history, "Anna")
        counted.append(time.perf_counter() - start)
        history.close()
    figures["read_and_count_ms_median"] = round(1000 * stats.median(counted), 1)
    if written is not None:
        figures["fill_ms_per_deal_unsynced"] = round(1000 * written / args.deals, 2)
    print_figures(figures, args.json)


if __name__ == "__main__":
    main()
