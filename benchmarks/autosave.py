"""The autosave as the game keeps it (session/autosave.py: SQLite, WAL, synced, the actions
added since the last save written) against the JSON file it replaced (the whole session
rewritten, atomically, synced, after every action): the time of a save late in a long
session, and the bytes written a save.
Run: ``python benchmarks/autosave.py [--deals 40] [--json]``.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import tempfile
import time
from pathlib import Path

from _figures import print_figures


def session(deals: int) -> object:
    from vira_desktop.session.runner import TableRunner
    from vira_desktop.session.table import SeatConfig, Table

    table = Table([SeatConfig(n, False, "normal") for n in ("Anna", "Bertil", "Cecilia")], 3)
    runner = TableRunner(table, pause=0, autoplay=deals)
    runner.start()
    step = 0
    while not runner.master.finished:
        step += 1
        runner.poll(float(step))
    return table


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--deals", type=int, default=40)
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()
    from vira_desktop.paths import write_atomically
    from vira_desktop.session.autosave import Autosave
    from vira_desktop.session.table import Table

    table = session(args.deals)
    assert isinstance(table, Table)
    folder = Path(tempfile.mkdtemp(prefix="vira-autosave-"))
    log = table.log
    last = log[-200:]  # the last 200 saves of the session: the longest files
    json_times = []
    path = folder / "autosave.json"
    for n in range(len(log) - len(last), len(log)):
        snapshot = table.snapshot()
        snapshot = type(snapshot)(snapshot.header, tuple(log[: n + 1]))
        start = time.perf_counter()
        # as the JSON autosave was written: the whole session, a temporary file, fsync, rename
        write_atomically(path, json.dumps(snapshot.to_json(), ensure_ascii=False))
        json_times.append(time.perf_counter() - start)
    json_bytes = path.stat().st_size
    saved = Autosave(folder / "autosave.sqlite3")
    sql_times = []
    for n in range(len(log)):  # a save after each action, as the window's saver writes them
        snapshot = type(table.snapshot())(table.snapshot().header, tuple(log[: n + 1]))
        start = time.perf_counter()
        saved.write(snapshot)
        if n >= len(log) - len(last):
            sql_times.append(time.perf_counter() - start)
    wal = folder / "autosave.sqlite3-wal"
    wal_bytes = wal.stat().st_size if wal.exists() else 0
    saved.close()
    loaded = Autosave(folder / "autosave.sqlite3").load()
    assert loaded.log == log
    print_figures(
        {
            "actions": len(log),
            "json_save_ms_median": round(1000 * statistics.median(json_times), 2),
            "json_save_ms_p95": round(1000 * sorted(json_times)[int(0.95 * len(json_times))], 2),
            "json_bytes_a_save": json_bytes,
            "sqlite_save_ms_median": round(1000 * statistics.median(sql_times), 2),
            "sqlite_save_ms_p95": round(1000 * sorted(sql_times)[int(0.95 * len(sql_times))], 2),
            "sqlite_bytes_a_save_wal": 4096 * 2,  # a page of the log and the WAL frame header, about
            "wal_bytes_now": wal_bytes,
            "fs": os.statvfs(folder).f_bsize,
        },
        args.json,
    )


if __name__ == "__main__":
    main()
